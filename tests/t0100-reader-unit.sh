#!/bin/sh
# t0100-reader-unit: the C unit tests of the log reader and writer (plain
# and under ASan+UBSan), then dg-dump over hand-made logs from mklogs: every
# format variant reads the same (BBCHAINS as BBRUNS, HEAP_MALLOC and
# HEAP_FREE as MALLOC_BLOCK and FREE_BLOCK), each mode prints what the log holds, bad
# and truncated logs give exit 1 and a located message, usage errors exit 2.
# The binaries come from `make unit-tests` (tests/unit/unit.mk).
. "$DG_TESTS/lib.sh"

U=$DG_BUILD/tests/unit
for b in test_dglog test_dglog-asan mklogs; do
	[ -x "$U/$b" ] || skip "$U/$b not built (make unit-tests)"
done
[ -x "$DG_DUMP" ] || skip "$DG_DUMP not built"

unit_run unit "$U/test_dglog"
unit_run asan "$U/test_dglog-asan"

mkdir -p logs && "$U/mklogs" logs || bail "mklogs failed"

# Every variant of a version dumps the same records (the header aside).
for v in 1 2; do
	"$DG_DUMP" logs/full-v$v-le-8.log | sed 1d >want.v$v
	for f in logs/full-v$v-*.log; do
		"$DG_DUMP" --check "$f" 2>check.err
		check_eq "--check accepts $(basename "$f")" 0 "$?"
		"$DG_DUMP" "$f" | sed 1d >got
		check_cmp "$(basename "$f") dumps as full-v$v-le-8.log" want.v$v got
	done
done

"$DG_DUMP" --stats logs/heap-v2.log >stats
check_eq "stats: runs" 11 "$(stat_of stats runs)"
check_eq "stats: accesses skip guarded zeros" 16 "$(stat_of stats accesses)"
check_eq "stats: reads" 11 "$(stat_of stats reads)"
check_eq "stats: write_bytes" 40 "$(stat_of stats write_bytes)"
check_eq "stats: icount from fini" 21 "$(stat_of stats icount)"
check_eq "stats: threads" 2 "$(stat_of stats threads)"
check_eq "stats: complete" 1 "$(stat_of stats complete)"
check_eq "stats: keys in order" \
	"version word_size endian records bbdefs contexts runs accesses reads writes read_bytes write_bytes icount threads mallocs frees track_ranges untrack_ranges start_events end_events mmaps munmaps unknown_records complete" \
	"$(cut -d' ' -f1 stats | tr '\n' ' ' | sed 's/ $//')"

# The same runs in BBCHAINS records read as the same log in every mode.
for m in --stats --accesses --blocks; do
	"$DG_DUMP" $m logs/heap-v2.log >plain
	"$DG_DUMP" $m logs/heap-v2-chains.log >chained
	check_cmp "bbchains log reads as its bbruns twin ($m)" plain chained
done
check_lt "bbchains log is smaller" "$(wc -c <logs/heap-v2.log | tr -d " ")" "$(wc -c <logs/heap-v2-chains.log | tr -d " ")"

# The same block in HEAP_MALLOC and HEAP_FREE records, likewise.
for m in --records --stats --accesses --blocks; do
	"$DG_DUMP" $m logs/heap-v2.log >plain
	"$DG_DUMP" $m logs/heap-v2-heaprec.log >heaprec
	check_cmp "heap records log reads as its malloc_block twin ($m)" plain heaprec
done
for f in heap-v2 heap-v2-chains heap-v2-heaprec full-v1-be-4; do
	"$DG_DUMP" --sizes logs/$f.log >sizes
	check_eq "--sizes of $f.log: its records and bytes add up to the file" \
		"$("$DG_DUMP" --stats logs/$f.log | awk '$1 == "records" { print $2 }') $(wc -c <logs/$f.log | tr -d ' ')" \
		"$(awk '$1 == "total" { print $2, $3 }' sizes)"
	check_eq "--sizes of $f.log: the types' lines add up to the total" \
		"$(awk '$1 != "total" { n += $2; b += $3 } END { print n, b }' sizes)" \
		"$(awk '$1 == "total" { print $2, $3 }' sizes)"
done
check_eq "heap records log: one heap_malloc, one heap_free" "1 1" \
	"$("$DG_DUMP" --sizes logs/heap-v2-heaprec.log | awk '$1 == "heap_malloc" { m = $2 } $1 == "heap_free" { f = $2 } END { print m + 0, f + 0 }')"

"$DG_DUMP" --accesses logs/heap-v2.log >acc
check_eq "accesses: one line each" 16 "$(wc -l <acc | tr -d ' ')"
check_eq "accesses: first line" "1 0 0x401000 R 4 0x5000" "$(sed -n 1p acc)"
check_eq "accesses: write at its instruction's icount" "1 5 0x401004 W 8 0x6010" "$(sed -n 5p acc)"
check_eq "accesses: thread 2 after icount 20" "2 20 0x401000 R 4 0x5000" "$(sed -n 16p acc)"

"$DG_DUMP" --blocks logs/heap-v2.log >blocks
check_eq "blocks: live accesses only" "0x5000 40 0 20 10 0 40 0 0x400a00,0x400b00" "$(cat blocks)"

# A cut log: what was decoded is printed, then the truncation, exit 1.
head -c 300 logs/full-v2-le-8.log >cut.log
"$DG_DUMP" --records cut.log >cut.out 2>cut.err
check_eq "truncated log exits 1" 1 "$?"
case $(cat cut.err) in
"dg-dump: cut.log: byte "*": record #"*"truncated"*) ok "truncation message names byte and record" ;;
*) not_ok "truncation message names byte and record"; diag_file cut.err ;;
esac
check_gt "truncated log still prints its first records" 3 "$(wc -l <cut.out | tr -d ' ')"

"$DG_DUMP" --check logs/nofini-v2.log 2>nofini.err
check_eq "--check rejects a version 2 log without fini" 1 "$?"
"$DG_DUMP" --stats logs/nofini-v2.log >nofini.stats
check_eq "--stats of a log without fini: complete 0" 0 "$(stat_of nofini.stats complete)"

printf 'not a log at all' >bad.log
"$DG_DUMP" --check bad.log 2>bad.err
check_eq "bad signature exits 1" 1 "$?"
check_eq "bad signature message" \
	"dg-dump: bad.log: byte 0: record #0 (header): not a datagrind log (bad signature)" \
	"$(cat bad.err)"

"$DG_DUMP" --stats - <logs/heap-v2.log >stdin.stats
check_cmp "reads standard input as -" stats stdin.stats

"$DG_DUMP" >/dev/null 2>&1
check_eq "no file: exit 2" 2 "$?"
"$DG_DUMP" --bogus x >/dev/null 2>&1
check_eq "unknown option: exit 2" 2 "$?"
"$DG_DUMP" --stats --blocks x >/dev/null 2>&1
check_eq "two modes: exit 2" 2 "$?"
check_eq "--version" "dg-dump 0.1.0" "$("$DG_DUMP" --version)"
"$DG_DUMP" --help | grep -q '^usage: dg-dump'
check_eq "--help prints usage" 0 "$?"

finish
