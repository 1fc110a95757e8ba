#!/bin/sh
# run.sh: run Datagrind's end-to-end tests.
#
#   sh tests/run.sh              every tests/t[0-9]*.sh, in order
#   sh tests/run.sh t02 t1100    only the scripts whose name starts so
#
# Each script runs in a fresh directory build/tests/tmp/<script>/ (kept
# afterwards for inspection) with its output in build/tests/tmp/<script>.log.
# One line per script: PASS, FAIL (followed by its failed checks and their
# evidence) or SKIP (with the reason).  The last line is
#   N passed, N failed[, N skipped]
# counting scripts.  Exit status 0 iff no script failed.
#
# DG_TEST_TIMEOUT (seconds, default 300) bounds each script.
#
# Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.

set -u
LC_ALL=C
export LC_ALL

DG_TOP=$(cd "$(dirname "$0")/.." && pwd)
DG_BUILD=$DG_TOP/build
DG_TESTS=$DG_TOP/tests
DG_PROGS=$DG_BUILD/tests/progs
DATAGRIND=$DG_BUILD/bin/datagrind
DG_DUMP=$DG_BUILD/bin/dg-dump
export DG_TOP DG_BUILD DG_TESTS DG_PROGS DATAGRIND DG_DUMP

tmproot=$DG_BUILD/tests/tmp
mkdir -p "$tmproot" || exit 1
timeout_s=${DG_TEST_TIMEOUT:-300}

passed=0
failed=0
skipped=0

selected() {
	[ $# -eq 0 ] && return 0
	for pat in "$@"; do
		case $name in
		"$pat"*) return 0 ;;
		esac
	done
	return 1
}

for script in "$DG_TESTS"/t[0-9]*.sh; do
	[ -f "$script" ] || continue
	name=$(basename "$script" .sh)
	selected "$@" || continue
	DG_TEST_TMP=$tmproot/$name
	export DG_TEST_TMP
	log=$tmproot/$name.log
	rm -rf "$DG_TEST_TMP"
	mkdir -p "$DG_TEST_TMP" || exit 1
	start=$(date +%s)
	if command -v timeout >/dev/null 2>&1; then
		(cd "$DG_TEST_TMP" && exec timeout "$timeout_s" sh "$script") >"$log" 2>&1
	else
		(cd "$DG_TEST_TMP" && exec sh "$script") >"$log" 2>&1
	fi
	status=$?
	secs=$(( $(date +%s) - start ))
	case $status in
	0)
		passed=$((passed + 1))
		echo "PASS $name (${secs}s)"
		;;
	77)
		skipped=$((skipped + 1))
		reason=$(grep '^skip: ' "$log" | tail -n 1 | sed 's/^skip: //')
		echo "SKIP $name: ${reason:-no reason given}"
		;;
	*)
		failed=$((failed + 1))
		if [ "$status" -eq 124 ]; then
			echo "FAIL $name (timed out after ${timeout_s}s)"
		else
			echo "FAIL $name (${secs}s)"
		fi
		# Everything but the passing checks: failed checks, their
		# evidence and anything the script printed unasked.
		grep -v '^ok - ' "$log" | head -n 60 | sed 's/^/    /'
		;;
	esac
done

if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
