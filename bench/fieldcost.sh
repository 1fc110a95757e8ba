#!/bin/sh
# bench/fieldcost.sh: what struct-field attribution costs dg-import, in
# instructions (callgrind: deterministic, so good on a loaded machine).
#
#     sh bench/fieldcost.sh [ROUNDS]      (default 3)
#
# Traces build/bench/workload 1 and ROUNDS, imports both logs under
# callgrind with and without --no-fields, and prints the instructions of
# each import (both import threads), the cost of a round more ((ROUNDS
# log - 1-round log) / (ROUNDS - 1): the per-access cost, without the
# one-off DWARF reading) and the share field attribution adds to it.
# Four callgrind runs: about 5 + 5 + 2 * 5 * (ROUNDS - 1) minutes at load 4.
# Files go to build/bench/tmp/fieldcost.*.
#
# Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=$TOP/build
T=$B/bench/tmp
rounds=${1:-3}
case $rounds in
[2-9] | [1-9][0-9]) ;;
*) echo "usage: sh bench/fieldcost.sh [ROUNDS]   (2..99)" >&2; exit 2 ;;
esac
mkdir -p "$T" || exit 1
for x in "$B/bin/datagrind" "$B/bin/dg-import"; do
	[ -x "$x" ] || { echo "fieldcost.sh: $x missing (run make)" >&2; exit 1; }
done
command -v valgrind >/dev/null || { echo "fieldcost.sh: valgrind missing" >&2; exit 1; }
W=$B/bench/workload
[ -x "$W" ] || cc -O2 -g -o "$W" "$TOP/bench/workload.c" || exit 1

# instrs LOG [OPTION]: callgrind's total for dg-import on LOG
instrs() {
	rm -f "$T/fieldcost.db"
	valgrind --tool=callgrind --callgrind-out-file="$T/fieldcost.cg" \
		"$B/bin/dg-import" -q ${2:+"$2"} "$1" "$T/fieldcost.db" 2>"$T/fieldcost.err" || {
		echo "fieldcost.sh: dg-import $1 under callgrind failed (see $T/fieldcost.err)" >&2
		exit 1; }
	sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$T/fieldcost.err"
}

for r in 1 "$rounds"; do
	"$B/bin/datagrind" -q --datagrind-out-file="$T/fieldcost.$r.dg" "$W" "$r" >/dev/null \
		2>"$T/fieldcost.err" || {
		echo "fieldcost.sh: tracing workload $r failed (see $T/fieldcost.err)" >&2; exit 1; }
done
n1=$(instrs "$T/fieldcost.1.dg" --no-fields) && nr=$(instrs "$T/fieldcost.$rounds.dg" --no-fields) &&
f1=$(instrs "$T/fieldcost.1.dg") && fr=$(instrs "$T/fieldcost.$rounds.dg") || exit 1
awk -v r="$rounds" -v n1="$n1" -v nr="$nr" -v f1="$f1" -v fr="$fr" 'BEGIN {
	n = (nr - n1) / (r - 1); f = (fr - f1) / (r - 1)
	printf "%-14s %12s %12s %14s\n", "dg-import", "1 round", r " rounds", "a round more"
	printf "%-14s %12.3f G %10.3f G %12.3f G\n", "--no-fields", n1 / 1e9, nr / 1e9, n / 1e9
	printf "%-14s %12.3f G %10.3f G %12.3f G\n", "fields", f1 / 1e9, fr / 1e9, f / 1e9
	printf "field attribution: +%.1f %% a round, +%.3f G once\n", 100 * (f - n) / n,
		(f1 - n1 - (f - n)) / 1e9
}'
