#!/bin/sh
# bench/import.sh: how fast dg-import turns a log into a database.
#
#     sh bench/import.sh [ROUNDS]       (default 13, the bench workload's)
#
# Traces build/bench/workload ROUNDS and workload 3 with Datagrind, then, in
# one run each: imports the big log (wall time, accesses/s, peak RSS from
# /usr/bin/time -f %M, database bytes per access), imports the 3-round log
# (peak RSS: is memory flat in the log's length?), and measures SQLite's own
# bulk-insert ceiling for the same number of accesses stored as plain rows
# (bench/sqlite_ceiling.c).  Prints figures only; asserts nothing.  Files go
# to build/bench/tmp/ and are deleted unless --keep is given.
#
# Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=$TOP/build
T=$B/bench/tmp
keep=no
rounds=13
for a in "$@"; do
	case $a in
	--keep) keep=yes ;;
	[0-9]*) rounds=$a ;;
	*) echo "usage: sh bench/import.sh [--keep] [ROUNDS]" >&2; exit 2 ;;
	esac
done
mkdir -p "$T" || exit 1
for x in "$B/bin/datagrind" "$B/bin/dg-import"; do
	[ -x "$x" ] || { echo "import.sh: $x missing (run make)" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "import.sh: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }
command -v sqlite3 >/dev/null || { echo "import.sh: sqlite3 missing" >&2; exit 1; }
W=$B/bench/workload
[ -x "$W" ] || cc -O2 -g -o "$W" "$TOP/bench/workload.c" || exit 1
cc -O2 -o "$B/bench/sqlite_ceiling" "$TOP/bench/sqlite_ceiling.c" -lsqlite3 || exit 1

trace() { # trace ROUNDS LOG
	"$B/bin/datagrind" -q --datagrind-out-file="$2" "$W" "$1" >/dev/null || {
		echo "import.sh: tracing workload $1 failed" >&2; exit 1; }
}
# import LOG DB: "seconds peak_rss_kb"
import() {
	rm -f "$2"
	/usr/bin/time -f '%e %M' -o "$T/time.out" "$B/bin/dg-import" -q "$1" "$2" 2>"$T/import.err" ||
		{ echo "import.sh: dg-import $1 failed:" >&2; cat "$T/import.err" >&2; exit 1; }
	cat "$T/time.out"
}
meta() { sqlite3 "$1" "SELECT value FROM meta WHERE key = '$2'"; }

echo "dg-import benchmark: build/bench/workload $rounds and 3 ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cpus)"
echo "dg-import built $(date -u -r "$B/bin/dg-import" +%Y-%m-%dT%H:%MZ), sqlite $(sqlite3 --version | cut -d' ' -f1)"
trace "$rounds" "$T/imp-big.dg"
trace 3 "$T/imp-small.dg"

set -- $(import "$T/imp-big.dg" "$T/imp-big.db")
secs=$1 rss=$2
acc=$(meta "$T/imp-big.db" accesses)
logb=$(wc -c <"$T/imp-big.dg" | tr -d ' ')
dbb=$(wc -c <"$T/imp-big.db" | tr -d ' ')
set -- $(import "$T/imp-small.dg" "$T/imp-small.db")
ssecs=$1 srss=$2
sacc=$(meta "$T/imp-small.db" accesses)
ceil=$("$B/bench/sqlite_ceiling" "$acc" "$T/ceiling.db") || exit 1
crate=$(echo "$ceil" | awk '{ print $6 }')
csecs=$(echo "$ceil" | awk '{ print $4 }')
cbytes=$(echo "$ceil" | awk '{ print $8 }')

awk -v r="$rounds" -v s="$secs" -v a="$acc" -v rss="$rss" -v lb="$logb" -v db="$dbb" \
    -v ss="$ssecs" -v sa="$sacc" -v srss="$srss" -v cr="$crate" -v cs="$csecs" -v cb="$cbytes" 'BEGIN {
	rate = a / s
	printf "%-34s %14s\n", "workload " r " rounds: accesses", a
	printf "%-34s %14.2f s\n", "  import time", s
	printf "%-34s %14.0f accesses/s\n", "  import rate", rate
	printf "%-34s %14.1f MB\n", "  peak RSS", rss / 1024
	printf "%-34s %14.2f (log %.2f)\n", "  database bytes per access", db / a, lb / a
	printf "%-34s %14s\n", "workload 3 rounds: accesses", sa
	printf "%-34s %14.2f s (%.0f accesses/s)\n", "  import time", ss, sa / ss
	printf "%-34s %14.1f MB\n", "  peak RSS", srss / 1024
	printf "%-34s %14.2f\n", "RSS ratio " r " rounds / 3 rounds", rss / srss
	printf "%-34s %14.0f rows/s (%.2f s, %.1f bytes/row)\n", "sqlite ceiling, plain rows", cr, cs, cb / a
	printf "%-34s %14.2f (target >= 4)\n", "import rate / sqlite ceiling", rate / cr
}'
[ "$keep" = yes ] || rm -f "$T"/imp-big.* "$T"/imp-small.* "$T/ceiling.db" "$T/time.out" "$T/import.err"
