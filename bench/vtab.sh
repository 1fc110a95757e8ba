#!/bin/sh
# bench/vtab.sh -- speed of the `accesses` virtual table (lib/dgvtab.c).
#
# Copyright (C) 2026 the Datagrind authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: sh bench/vtab.sh [MILLION_ACCESSES] [RUNS]      (50 and 3 by default)
#
# Builds bench/vtabgen.c into build/bench/ and with it a synthetic trace
# database build/bench/vtab-<N>M.db (kept; remade when the generator or the
# schema is newer), then, in one sqlite3 session with build/lib/dgaccess.so
# loaded, times (best of RUNS, `.timer` real time):
#
#   scan W     SELECT count(*), sum(size) FROM accesses WHERE is_write = 1
#              (every access decoded, the writes reach SQLite)
#   scan all   SELECT count(*), sum(size) FROM accesses (every row to SQLite)
#   series     SELECT count(*), sum(value) FROM generate_series(1, N), N the
#              number of accesses: SQLite's own virtual table as the yardstick
#   block      WHERE block_id = X (the block of the first heap access of the
#              second half of the trace), first in a fresh connection (which loads
#              the 100 000 blocks), then warm
#   addr       WHERE addr in a 64 KiB range of the heap
#   icount     WHERE icount in a window of 100 000 instructions
#
# and prints rows/s for the scans (accesses decoded / s for scan W) and the
# ratio scan W / series.  Figures only: nothing here asserts a time.
# Exit status: 0 done; 1 a build or a query failed; 2 missing prerequisite.

set -u
cd "$(dirname "$0")/.." || exit 2
M=${1:-50}
RUNS=${2:-3}
B=build/bench
EXT=build/lib/dgaccess
DB=$B/vtab-${M}M.db
CC=${CC:-cc}

command -v sqlite3 >/dev/null || { echo "vtab.sh: sqlite3 is not installed" >&2; exit 2; }
make -s "$EXT.so" || exit 1
mkdir -p $B
if [ ! -x $B/vtabgen ] || [ bench/vtabgen.c -nt $B/vtabgen ] || [ lib/dgchunk.c -nt $B/vtabgen ]; then
	$CC -std=gnu11 -O2 -Wall -Wextra -Ilib -o $B/vtabgen bench/vtabgen.c lib/dgchunk.c lib/dgsumfnblock.c lib/dgblockfns.c lib/dgvt_db.c -lsqlite3 || exit 1
fi
if [ ! -f "$DB" ] || [ $B/vtabgen -nt "$DB" ] || [ schema/schema.sql -nt "$DB" ]; then
	echo "making $DB ..."
	$B/vtabgen schema/schema.sql "$DB" "$M" || exit 1
fi

N=$(sqlite3 "$DB" "SELECT sum(n_accesses) FROM chunks")
IC=$(sqlite3 "$DB" "SELECT max(icount_hi) / 2 FROM chunks")
X=$(sqlite3 "$DB" ".load $EXT" "SELECT block_id FROM accesses WHERE icount >= $IC AND block_id IS NOT NULL LIMIT 1")
HEAPLO=$((0x4000000 + 0x100000))

# timed NAME SQL: best real time of RUNS runs in one session, printed as
# "NAME seconds result".
timed() {
	{
		echo ".load $EXT"
		echo ".timer on"
		i=0
		while [ $i -lt "$RUNS" ]; do
			echo "$2;"
			i=$((i + 1))
		done
	} | sqlite3 -batch -bail "$DB" >"$B/vtab.out" 2>&1 || { cat "$B/vtab.out" >&2; exit 1; }
	awk -v name="$1" '
		/^Run Time:/ { t = $4 + 0; if (best == "" || t < best) best = t; next }
		{ res = $0 }
		END { printf "%s %s %s\n", name, best, res }' "$B/vtab.out"
}

# fresh NAME SQL: one run in a new connection (first use loads the model).
fresh() {
	R=$RUNS
	RUNS=1
	timed "$@"
	RUNS=$R
}

{
	timed scanW "SELECT count(*), sum(size) FROM accesses WHERE is_write = 1"
	timed scanall "SELECT count(*), sum(size) FROM accesses"
	timed series "SELECT count(*), sum(value) FROM generate_series(1, $N)"
	fresh blockfresh "SELECT count(*), sum(size) FROM accesses WHERE block_id = $X"
	timed block "SELECT count(*), sum(size) FROM accesses WHERE block_id = $X"
	timed addr "SELECT count(*), sum(size) FROM accesses WHERE addr BETWEEN $HEAPLO AND $HEAPLO + 65535"
	timed icount "SELECT count(*), sum(size) FROM accesses WHERE icount BETWEEN $IC AND $IC + 99999"
} >$B/vtab-results.txt || exit 1

awk -v n="$N" -v m="$M" -v x="$X" '
	{ t[$1] = $2; r[$1] = $3 }
	END {
		printf "accesses table, %s accesses (%s M asked), best of runs, real time\n", n, m
		printf "  %-52s %8.3f s  %6.1f M rows/s  (%s)\n", "scan, WHERE is_write = 1 (decoded rows)", t["scanW"], n / t["scanW"] / 1e6, r["scanW"]
		printf "  %-52s %8.3f s  %6.1f M rows/s\n", "scan, every row to SQLite", t["scanall"], n / t["scanall"] / 1e6
		printf "  %-52s %8.3f s  %6.1f M rows/s\n", "generate_series, same number of rows", t["series"], n / t["series"] / 1e6
		printf "  %-52s %8.2f\n", "ratio scan W / generate_series (rows/s)", t["series"] / t["scanW"]
		printf "  %-52s %8.2f\n", "ratio scan all / generate_series (rows/s)", t["series"] / t["scanall"]
		printf "  %-52s %8.4f s  (%s)\n", "block_id = " x ", fresh connection (loads blocks)", t["blockfresh"], r["blockfresh"]
		printf "  %-52s %8.4f s\n", "block_id = " x ", warm", t["block"]
		printf "  %-52s %8.4f s  (%s)\n", "addr in 64 KiB of heap", t["addr"], r["addr"]
		printf "  %-52s %8.4f s  (%s)\n", "icount in a window of 100 000 instructions", t["icount"], r["icount"]
	}' $B/vtab-results.txt
