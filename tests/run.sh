#!/bin/sh
# run.sh: run Datagrind's end-to-end tests.
#
#   sh tests/run.sh              every tests/t[0-9]*.sh
#   sh tests/run.sh t02 t1100    only the scripts whose name starts so
#                                (tests/t0200-x.sh names t0200-x too)
#   sh tests/run.sh -j 1 ...     one script at a time (default: one per CPU)
#
# Scripts are independent, so they run side by side: -j N (or
# DG_TEST_JOBS=N) at most N at once, by default as many as the CPUs this
# process may run on.  The slowest scripts of the last run start first, so
# the last one to start is a short one (times in build/tests/tmp/.times).
#
# Each script runs in a fresh directory build/tests/tmp/<script>/ (kept
# afterwards for inspection) with its output in build/tests/tmp/<script>.log.
# One line per script as it ends: PASS or FAIL with its wall time and the
# CPU time it and its children used (the figure to compare under load), or
# SKIP with the reason.
# Then, in the scripts' order, the failed checks of each failed script and
# their evidence, and the last line
#   N passed, N failed[, N skipped]
# counting scripts.  Exit status 0 iff no script failed.
#
# Scripts share what they only read: lib-dgsql.sh's trace_db traces and
# imports a program once per run (build/tests/tmp/.shared/) and every script
# that asks for the same program and arguments gets a copy.
#
# DG_TEST_TIMEOUT (seconds, default 300) bounds each script.
#
# Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.

set -u
LC_ALL=C
export LC_ALL
# The system's programs first: the dependencies are Debian's packages, and
# a per-user shim ahead of them in PATH (pyenv's python3, a bash script
# that costs 0.3 s a start) is not what the scripts start hundreds of times.
PATH=/usr/bin:/bin:$PATH
export PATH

DG_TOP=$(cd "$(dirname "$0")/.." && pwd)
DG_BUILD=$DG_TOP/build
DG_TESTS=$DG_TOP/tests
DG_PROGS=$DG_BUILD/tests/progs
DATAGRIND=$DG_BUILD/bin/datagrind
DG_DUMP=$DG_BUILD/bin/dg-dump
export DG_TOP DG_BUILD DG_TESTS DG_PROGS DATAGRIND DG_DUMP

tmproot=$DG_BUILD/tests/tmp
timeout_s=${DG_TEST_TIMEOUT:-300}

# run_one SCRIPT: run one script in its own directory; print its line and
# leave its exit status in tmproot/NAME.status and its time in NAME.time.
run_one() {
	name=$(basename "$1" .sh)
	DG_TEST_TMP=$tmproot/$name
	export DG_TEST_TMP
	log=$tmproot/$name.log
	rm -rf "$DG_TEST_TMP" "$tmproot/$name.status"
	mkdir -p "$DG_TEST_TMP" || exit 1
	start=$(date +%s)
	to=
	command -v timeout >/dev/null 2>&1 && to="timeout $timeout_s"
	# times: the CPU the script and everything it waited for used
	(cd "$DG_TEST_TMP" && $to sh "$1"; st=$?; times >"$tmproot/$name.cpu"; exit $st) \
		>"$log" 2>&1
	status=$?
	secs=$(($(date +%s) - start))
	cpu=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/);
		printf "%.1f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$tmproot/$name.cpu")
	echo "$secs" >"$tmproot/$name.time"
	echo "$status" >"$tmproot/$name.status"
	case $status in
	0) echo "PASS $name (${secs}s, ${cpu} CPU s)" ;;
	77)
		reason=$(grep '^skip: ' "$log" | tail -n 1 | sed 's/^skip: //')
		echo "SKIP $name: ${reason:-no reason given}"
		;;
	124) echo "FAIL $name (timed out after ${timeout_s}s)" ;;
	*) echo "FAIL $name (${secs}s, ${cpu} CPU s)" ;;
	esac
	exit 0
}

if [ "${1:-}" = --one ]; then
	run_one "$2"
fi

usage() {
	echo "usage: sh tests/run.sh [-j JOBS] [SCRIPT-PREFIX...]" >&2
	exit 2
}

jobs=${DG_TEST_JOBS:-}
while [ $# -gt 0 ]; do
	case $1 in
	-j) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
	-j*) jobs=${1#-j}; shift ;;
	-h|--help) usage ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ -n "$jobs" ] || jobs=$(nproc 2>/dev/null || echo 1)
case $jobs in
''|*[!0-9]*|0) echo "run.sh: -j wants a positive number, not '$jobs'" >&2; exit 2 ;;
esac

mkdir -p "$tmproot" || exit 1
DG_TEST_SHARED=$tmproot/.shared
export DG_TEST_SHARED
rm -rf "$DG_TEST_SHARED" && mkdir -p "$DG_TEST_SHARED" || exit 1

selected() {
	[ $# -eq 0 ] && return 0
	for pat in "$@"; do
		pat=${pat##*/}
		pat=${pat%.sh}
		case $name in
		"$pat"*) return 0 ;;
		esac
	done
	return 1
}

# The chosen scripts in order, and again slowest first by the last run's
# times (a script without one counts as slow: it may be new and long).
: >"$tmproot/.list"
for script in "$DG_TESTS"/t[0-9]*.sh; do
	[ -f "$script" ] || continue
	name=$(basename "$script" .sh)
	selected "$@" || continue
	rm -f "$tmproot/$name.status"
	echo "$script" >>"$tmproot/.list"
done
if [ ! -s "$tmproot/.list" ]; then
	echo "run.sh: no script of $DG_TESTS matches: $*" >&2
	exit 2
fi
times=$tmproot/.times
[ -f "$times" ] || : >"$times"
while read -r script; do
	name=$(basename "$script" .sh)
	secs=$(awk -v n="$name" '$1 == n { print $2 }' "$times")
	echo "${secs:-999} $script"
done <"$tmproot/.list" | sort -s -k1,1nr | cut -d' ' -f2- |
	xargs -r -P "$jobs" -n 1 sh "$DG_TESTS/run.sh" --one

passed=0
failed=0
skipped=0
: >"$times.new"
while read -r script; do
	name=$(basename "$script" .sh)
	status=$(cat "$tmproot/$name.status" 2>/dev/null || echo lost)
	[ -f "$tmproot/$name.time" ] && echo "$name $(cat "$tmproot/$name.time")" >>"$times.new"
	case $status in
	0) passed=$((passed + 1)) ;;
	77) skipped=$((skipped + 1)) ;;
	*)
		failed=$((failed + 1))
		# Everything but the passing checks: failed checks, their
		# evidence and anything the script printed unasked.
		echo "--- $name (exit status $status):"
		grep -v '^ok - ' "$tmproot/$name.log" 2>/dev/null | head -n 60 | sed 's/^/    /'
		;;
	esac
done <"$tmproot/.list"
# Keep the times of scripts not run this time.
awk 'NR == FNR { seen[$1] = 1; print; next } !($1 in seen)' "$times.new" "$times" >"$times.tmp" &&
	mv "$times.tmp" "$times"
rm -f "$times.new"

if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
