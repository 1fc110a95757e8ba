#!/bin/sh
# t0190-fuzz-corpus: every fuzz target (tests/fuzz/NAME.mk) replays its kept
# corpus tests/fuzz/NAME/ and its seed directories under AddressSanitizer and
# UBSan without a crash or a report (build/fuzz/NAME-replay, gcc, no
# libFuzzer: see tests/fuzz/fuzz.mk).  Each target must have a corpus, and
# the replay must have run every file of it: a target that ran nothing
# proves nothing.
. "$DG_TESTS/lib.sh"

targets=$(sed -n 's/^FUZZ_TARGETS *+= *//p' "$DG_TESTS"/fuzz/*.mk)
check_ge "fuzz targets declared" 1 "$(echo "$targets" | wc -w | tr -d ' ')"
for t in $targets; do
	bin=$DG_BUILD/fuzz/$t-replay
	if [ ! -x "$bin" ]; then
		not_ok "$t: $bin exists (run make)"
		continue
	fi
	corpus=$DG_TESTS/fuzz/$t
	n=$(find "$corpus" -maxdepth 1 -type f ! -name '.*' 2>/dev/null | wc -l | tr -d ' ')
	check_ge "$t: a kept corpus in tests/fuzz/$t/" 1 "$n" || continue
	seeds=$(sed -n "s/^FUZZ_${t}_SEEDS *:= *//p" "$DG_TESTS/fuzz/$t.mk")
	dirs=$corpus
	for s in $seeds; do
		[ -d "$DG_TOP/$s" ] && dirs="$dirs $DG_TOP/$s"
	done
	# A quarantine of 32 MB, not 256: freed memory still waits longer
	# than an input lives, and the replays of dgdb and import (a database
	# copied, a log imported per input) stop paying a fresh mmap and page
	# faults for every large block: a third less time.  Allocation stacks
	# of 8 frames, not 30: every malloc records one, and a report still
	# says where (dgdb's replay: a fifth less time).
	# shellcheck disable=SC2086
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:quarantine_size_mb=32:malloc_context_size=8 \
		UBSAN_OPTIONS=print_stacktrace=1 \
		"$bin" $dirs >"$t.out" 2>"$t.err"
	st=$?
	if [ "$st" -eq 0 ]; then
		ok "$t: replay of the corpus and seeds, no sanitizer report"
	else
		not_ok "$t: replay of the corpus and seeds, no sanitizer report"
		diag "exit status $st"
		diag_file "$t.err" 30
		continue
	fi
	got=$(sed -n 's/^replay: \([0-9]*\) inputs$/\1/p' "$t.out")
	check_ge "$t: every corpus file replayed" "$n" "$got"
done
finish
