#!/bin/sh
# bench/dgsql.sh -- time dgsql's canned queries and its plot on a large
# trace database, against plotting the raw points with gnuplot directly.
#
# Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
#
# Usage: sh bench/dgsql.sh [--rounds N] [--db FILE] [--raw-limit N]
#
#   --rounds N     size of bench/workload's run to trace [1]
#   --db FILE      use this trace database instead of tracing the workload
#   --raw-limit N  at most N points for the raw gnuplot run [all]
#
# Traces build/bench/workload under build/bin/datagrind, imports the log
# with build/bin/dg-import, then times (wall clock, one run each, warm
# cache) every queries/*.sql through `dgsql .q NAME`, `dgsql --plot`, and
# the naive alternative: exporting addr/icount/is_write of every access
# and letting gnuplot draw them as points.  Figures only, no assertions;
# results also go to build/bench/dgsql-results.txt as `key seconds` lines.
# Exit status: 0 done, 1 a step failed, 2 a program is missing, 64 usage.

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
B=$top/build
out=$B/bench/dgsql
rounds=1
db=""
raw_limit=-1

while [ $# -gt 0 ]; do
	case $1 in
	--rounds) rounds=$2; shift 2 ;;
	--db) db=$2; shift 2 ;;
	--raw-limit) raw_limit=$2; shift 2 ;;
	*) echo "usage: sh bench/dgsql.sh [--rounds N] [--db FILE] [--raw-limit N]" >&2; exit 64 ;;
	esac
done
for p in dgsql dg-import datagrind; do
	[ -x "$B/bin/$p" ] || { echo "bench/dgsql.sh: $B/bin/$p missing (run make)" >&2; exit 2; }
done
command -v gnuplot >/dev/null || { echo "bench/dgsql.sh: gnuplot missing (Debian package gnuplot-nox)" >&2; exit 2; }
mkdir -p "$out" || exit 1
res=$B/bench/dgsql-results.txt
: >"$res"

now() { date +%s.%N; }
# timed NAME CMD...: runs CMD, prints and records its wall time.
timed() {
	_n=$1
	shift
	_t0=$(now)
	"$@" >"$out/$_n.out" 2>"$out/$_n.err" || { echo "$_n failed:"; head -5 "$out/$_n.err"; exit 1; }
	_t=$(echo "$(now) - $_t0" | bc)
	printf '%-28s %8.2f s\n' "$_n" "$_t"
	echo "$_n $_t" >>"$res"
}

if [ -z "$db" ]; then
	[ -x "$B/bench/workload" ] || cc -O2 -g -o "$B/bench/workload" "$top/bench/workload.c" || exit 1
	db=$out/trace.db
	timed trace "$B/bin/datagrind" --datagrind-out-file="$out/trace.log" "$B/bench/workload" "$rounds"
	rm -f "$db"
	timed import "$B/bin/dg-import" -q "$out/trace.log" "$db"
fi
n=$("$B/bin/dgsql" "$db" "SELECT value FROM meta WHERE key = 'accesses'")
echo "database: $db, $n accesses"
echo "accesses $n" >>"$res"

for f in "$top"/queries/*.sql; do
	q=$(basename "$f" .sql)
	arg=""
	[ "$q" = block_hist ] && arg=$("$B/bin/dgsql" "$db" "SELECT id FROM blocks ORDER BY reads + writes DESC LIMIT 1")
	timed "q.$q" "$B/bin/dgsql" "$db" ".q $q $arg"
done
timed "count(*) accesses" "$B/bin/dgsql" "$db" "SELECT count(*) FROM accesses"
timed "dgsql --plot" "$B/bin/dgsql" "$db" --plot "$out/plot.png"

# The naive way: every access as a point.
lim=""
[ "$raw_limit" -ge 0 ] && lim="LIMIT $raw_limit"
timed "raw export" "$B/bin/dgsql" "$db" -m tsv "SELECT addr, icount, is_write FROM accesses $lim"
cp "$out/raw export.out" "$out/raw.tsv"
cat >"$out/raw.gp" <<GP
set terminal pngcairo size 1024,768 background rgb 'black'
set output '$out/raw.png'
unset key
set yrange [*:*] reverse
plot '$out/raw.tsv' using 1:2:(\$3 > 0 ? 0xff0000 : 0x00ff00) with dots lc rgb variable
GP
timed "raw gnuplot" gnuplot "$out/raw.gp"
echo "results: $res"
