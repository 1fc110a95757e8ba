#!/bin/sh
# bench/duckdb.sh -- dgsql against DuckDB on Parquet, the same questions on
# the same accesses (issue 13: "ad-hoc SQL within 3x of DuckDB over
# Parquet").
#
# Copyright (C) 2026 the Datagrind authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# DuckDB is the one dgsql carries (make deps: scripts/install-duckdb.sh);
# its Parquet side runs in dgsql too (--engine duckdb), so both sides are
# the same DuckDB build on the same machine, nothing else installed.
#
# Steps, all in one invocation:
#  1. Without TRACE.db: trace `sort -n` of 70 000 seeded random numbers
#     (about 80 M accesses) straight into DIR/sort.db (datagrind --db).
#  2. `dgsql --export parquet DIR/pq` (the accesses with their ids, and the
#     other tables); its rate is printed, and against it the peer's:
#     DuckDB rewriting the same rows from that file with the same options
#     (its Parquet reader in place of our decoder, the writer the same).
#  3. Each question runs once in dgsql as a user runs it (a fresh process,
#     the engine dgsql picks: wall and user+sys CPU from /usr/bin/time) and
#     once in DuckDB over the Parquet files (THREADS threads; the query's
#     own time from .timer, start-up and view set-up excluded, which
#     favours DuckDB).  Both answers must be byte-identical CSV; a
#     difference is reported and makes the exit status 1.
#     - first questions, which dgsql answers from its summaries: totals,
#       top functions, hot pages and lines, working set, top heap blocks;
#     - ad-hoc SQL on `accesses`: count(*), GROUP BY size, top pcs, an
#       address range (the busiest heap block's), a block's accesses, the
#       working set in SQL, and joins with blocks (by site), pcs and
#       functions (by name) and threads.
#
# Usage: sh bench/duckdb.sh [--threads N] [--timeout S] [--dir DIR]
#                           [--keep] [--reuse] [TRACE.db]
# Figures only: nothing here asserts a time.  Exit status: 0 done, 1 an
# answer differed or a step failed, 2 a prerequisite is missing, 64 usage.

set -u
cd "$(dirname "$0")/.." || exit 2
THREADS=2
TIMEOUT=900
DIR=build/bench/duckdb
KEEP=0
REUSE=0
DB=

usage() {
	cat <<'EOF'
usage: sh bench/duckdb.sh [options] [TRACE.db]
  --threads N       DuckDB's threads [2]
  --timeout S       seconds a single question may take [900]
  --dir DIR         work directory (trace, Parquet) [build/bench/duckdb]
  --keep            keep the Parquet file and the traced database
  --reuse           reuse the Parquet a --keep run left in DIR (TRACE.db must
                    be the same database); implies --keep
Without TRACE.db, traces sort -n of 70 000 seeded numbers first.
EOF
}

while [ $# -gt 0 ]; do
	case $1 in
	--threads) shift; THREADS=${1:-} ;;
	--threads=*) THREADS=${1#*=} ;;
	--timeout) shift; TIMEOUT=${1:-} ;;
	--timeout=*) TIMEOUT=${1#*=} ;;
	--dir) shift; DIR=${1:-} ;;
	--dir=*) DIR=${1#*=} ;;
	--keep) KEEP=1 ;;
	--reuse) REUSE=1; KEEP=1 ;;
	-h|--help) usage; exit 0 ;;
	-*) echo "duckdb.sh: unknown option '$1'" >&2; usage >&2; exit 64 ;;
	*) DB=$1 ;;
	esac
	shift
done
case $THREADS$TIMEOUT in *[!0-9]*|'') echo "duckdb.sh: --threads and --timeout take a number" >&2; exit 64 ;; esac

DGSQL=build/bin/dgsql
[ -x "$DGSQL" ] && [ -x build/bin/datagrind ] || { echo "duckdb.sh: build first (make)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "duckdb.sh: /usr/bin/time is missing (Debian package time)" >&2; exit 2; }
"$DGSQL" --version | grep -q DuckDB || { echo "duckdb.sh: dgsql is built without DuckDB (make deps, then make)" >&2; exit 2; }
umask 077
mkdir -p "$DIR" || exit 2
OUT=$(mktemp -d) || exit 2
trap 'rm -rf "$OUT"' EXIT
STATUS=0

[ $REUSE -eq 1 ] && [ -z "$DB" ] && DB=$DIR/sort.db
if [ -z "$DB" ]; then
	DB=$DIR/sort.db
	awk 'BEGIN { srand(70000); for (i = 0; i < 70000; i++) printf "%d\n", int(rand() * 1e9) }' \
		>"$DIR/numbers.txt"
	echo "tracing sort -n of 70 000 numbers into $DB"
	rm -f "$DB"
	build/bin/datagrind -q --db="$DB" sort -n "$DIR/numbers.txt" >/dev/null || exit 1
fi
[ -f "$DB" ] || { echo "duckdb.sh: no database '$DB'" >&2; exit 2; }
q1() { "$DGSQL" "$DB" "$1" 2>/dev/null; }
N=$(q1 "SELECT value FROM meta WHERE key = 'accesses'")
echo "database $DB: $N accesses; $("$DGSQL" --version), $THREADS threads"

PQ=$DIR/pq
if [ $REUSE -eq 1 ] && [ -f "$PQ/accesses.parquet" ]; then
	echo "export: reusing $PQ"
else
	rm -rf "$PQ"
	s=$(date +%s.%N)
	/usr/bin/time -f '%U %S' -o "$OUT/cpu" "$DGSQL" "$DB" --export parquet "$PQ" ||
		{ echo "duckdb.sh: export failed" >&2; exit 1; }
	e=$(date +%s.%N)
	awk -v s="$s" -v e="$e" -v n="$N" -v cpu="$(tail -n 1 "$OUT/cpu")" \
		-v bytes="$(stat -c %s "$PQ/accesses.parquet")" 'BEGIN { split(cpu, c, " ");
		printf "export: %.1f s wall for %d rows (%.2f M rows/s), %.1f CPU s; accesses.parquet %.1f MB\n",
		e - s, n, n / (e - s) / 1e6, c[1] + c[2], bytes / 1e6 }'
	# The peer: DuckDB rewriting the same rows from the file just written,
	# with the options and the memory settings the export uses
	# (dgsql/parquet.c): its own reader in place of our decoder.
	PEER=$(printf '%s\n' ".timer on" "SET threads = $THREADS;" \
		"SET preserve_insertion_order = false;" \
		"COPY (SELECT * FROM read_parquet('$PQ/accesses.parquet')) TO '$DIR/peer.parquet' (FORMAT parquet, PARQUET_VERSION v2, COMPRESSION snappy, DICTIONARY_SIZE_LIMIT 1);" |
		GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=1073741824 \
		"$DGSQL" --engine duckdb "$DB" 2>&1 | awk '/^Run Time/ { t = $4 } END { print t }')
	rm -f "$DIR/peer.parquet"
	awk -v s="$s" -v e="$e" -v n="$N" -v p="${PEER:-0}" 'BEGIN {
		printf "peer: DuckDB rewrites accesses.parquet in %.1f s (%.2f M rows/s); export / peer %.2f\n",
		p, (p > 0 ? n / p / 1e6 : 0), (p > 0 ? (e - s) / p : 0) }'
fi
# DuckDB's side: views over the export's files, then the question
VIEWS="SET threads = $THREADS; CREATE OR REPLACE VIEW accesses AS SELECT * FROM read_parquet('$PQ/accesses.parquet');"
for t in pcs functions blocks threads sum_pc sum_pages sum_lines sum_windows sum_fn_block; do
	VIEWS="$VIEWS CREATE OR REPLACE VIEW $t AS SELECT * FROM read_parquet('$PQ/$t.parquet');"
done

# the parameters: the heap block with the most accesses and its range
BLOCK=$(q1 "SELECT id FROM blocks ORDER BY reads + writes DESC LIMIT 1")
LO=$(q1 "SELECT addr FROM blocks WHERE id = ${BLOCK:-0}")
HI=$(q1 "SELECT addr + size FROM blocks WHERE id = ${BLOCK:-0}")

printf '\n%-22s %10s %10s %10s %10s  %s\n' question "dgsql s" "dgsql cpu" "duckdb s" "duck cpu" "dgsql s / duckdb s"
# case NAME DGSQL-SQL DUCKDB-SQL: both timed, the answers compared
case_() {
	name=$1
	t0=$(date +%s.%N)
	timeout "$TIMEOUT" /usr/bin/time -f '%U %S' -o "$OUT/dcpu" \
		"$DGSQL" -c --no-header "$DB" "$2" >"$OUT/d.out" 2>"$OUT/d.err"
	ds=$?
	t1=$(date +%s.%N)
	timeout "$TIMEOUT" "$DGSQL" --engine duckdb -c --no-header "$DB" "$VIEWS" .timer\ on "$3" \
		>"$OUT/k.raw" 2>"$OUT/k.err"
	ks=$?
	grep -v '^Run Time:' "$OUT/k.raw" >"$OUT/k.out"
	grep '^Run Time:' "$OUT/k.raw" | tail -n 1 >"$OUT/k.time"
	dt=">$TIMEOUT" dc=- kt=">$TIMEOUT" kc=- note=
	[ $ds -eq 0 ] && set -- $(tail -n 1 "$OUT/dcpu") && dc=$(awk -v u="$1" -v s="$2" 'BEGIN { printf "%.3f", u + s }') &&
		dt=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
	[ $ds -ne 0 ] && [ $ds -ne 124 ] && dt=failed && note="dgsql: $(head -c 120 "$OUT/d.err")"
	[ $ks -eq 0 ] && set -- $(cat "$OUT/k.time") && kt=$4 && kc=$(awk -v u="$6" -v s="$8" 'BEGIN { printf "%.3f", u + s }')
	[ $ks -ne 0 ] && [ $ks -ne 124 ] && kt=failed && note="duckdb: $(head -c 120 "$OUT/k.err")"
	if [ $ds -eq 0 ] && [ $ks -eq 0 ]; then
		if cmp -s "$OUT/d.out" "$OUT/k.out"; then
			note=$(awk -v a="$dt" -v b="$kt" 'BEGIN { printf "%.3g, same answer", a / (b > 0 ? b : 0.001) }')
		else
			note="DIFFERENT ANSWERS"; STATUS=1
			diff "$OUT/d.out" "$OUT/k.out" | head -n 6 >&2
		fi
	fi
	printf '%-22s %10s %10s %10s %10s  %s\n' "$name" "$dt" "$dc" "$kt" "$kc" "$note"
}

echo "-- first questions: dgsql reads its summaries"
case_ totals "SELECT sum(accesses), sum(bytes) FROM sum_pc" \
	"SELECT count(*), sum(size) FROM accesses"
case_ top_functions "SELECT p.function_id, sum(s.accesses) AS n FROM sum_pc s JOIN pcs p
	USING (pc, module_id) GROUP BY 1 ORDER BY n DESC, 1 LIMIT 10" \
	"SELECT p.function_id, count(*) AS n FROM accesses a JOIN pcs p USING (pc, module_id)
	GROUP BY 1 ORDER BY n DESC, 1 LIMIT 10"
case_ hot_pages "SELECT page, reads, writes FROM sum_pages ORDER BY reads + writes DESC, page LIMIT 30" \
	"SELECT addr // 4096 AS page, count(*) - sum(is_write), sum(is_write) FROM accesses
	GROUP BY 1 ORDER BY count(*) DESC, page LIMIT 30"
case_ hot_lines "SELECT line, reads, writes FROM sum_lines ORDER BY reads + writes DESC, line LIMIT 30" \
	"SELECT addr // 64 AS line, count(*) - sum(is_write), sum(is_write) FROM accesses
	GROUP BY 1 ORDER BY count(*) DESC, line LIMIT 30"
case_ working_set "SELECT window_start, accesses, lines, pages FROM sum_windows ORDER BY 1" \
	"SELECT icount // 100000 * 100000 AS w, count(*), count(DISTINCT addr // 64),
	count(DISTINCT addr // 4096) FROM accesses GROUP BY 1 ORDER BY 1"
case_ top_blocks "SELECT block_id, sum(accesses) AS n FROM sum_fn_block WHERE block_id IS NOT NULL
	GROUP BY 1 ORDER BY n DESC, 1 LIMIT 10" \
	"SELECT block_id, count(*) AS n FROM accesses WHERE block_id IS NOT NULL
	GROUP BY 1 ORDER BY n DESC, 1 LIMIT 10"
echo "-- ad-hoc SQL: dgsql decodes (DuckDB's engine, or SQLite's where its plan reads little)"
case_ "count(*)" "SELECT count(*) FROM accesses" "SELECT count(*) FROM accesses"
case_ "GROUP BY size" "SELECT size, count(*) FROM accesses GROUP BY size ORDER BY size" \
	"SELECT size, count(*) FROM accesses GROUP BY size ORDER BY size"
case_ "top 10 pcs" "SELECT pc, module_id, count(*) AS n FROM accesses GROUP BY pc, module_id
	ORDER BY n DESC, pc LIMIT 10" \
	"SELECT pc, module_id, count(*) AS n FROM accesses GROUP BY pc, module_id
	ORDER BY n DESC, pc LIMIT 10"
case_ "address range" "SELECT count(*), sum(is_write) FROM accesses WHERE addr >= $LO AND addr < $HI" \
	"SELECT count(*), sum(is_write) FROM accesses WHERE addr >= $LO AND addr < $HI"
case_ "block_id = $BLOCK" "SELECT count(*) FROM accesses WHERE block_id = $BLOCK" \
	"SELECT count(*) FROM accesses WHERE block_id = $BLOCK"
case_ "working set in SQL" "SELECT icount / 100000 * 100000, count(*), count(DISTINCT addr / 64),
	count(DISTINCT addr / 4096) FROM accesses GROUP BY icount / 100000 ORDER BY 1" \
	"SELECT icount // 100000 * 100000 AS w, count(*), count(DISTINCT addr // 64),
	count(DISTINCT addr // 4096) FROM accesses GROUP BY 1 ORDER BY 1"
case_ "by site (blocks)" "SELECT b.alloc_stack_id, count(*) AS n, sum(a.size) FROM accesses a JOIN blocks b
	ON b.id = a.block_id GROUP BY 1 ORDER BY n DESC, 1 LIMIT 10" \
	"SELECT b.alloc_stack_id, count(*) AS n, sum(a.size) FROM accesses a JOIN blocks b
	ON b.id = a.block_id GROUP BY 1 ORDER BY n DESC, 1 LIMIT 10"
case_ "by function name" "SELECT f.name, count(*) AS n FROM accesses a JOIN pcs p ON p.pc = a.pc
	AND p.module_id = a.module_id JOIN functions f ON f.id = p.function_id
	GROUP BY 1 ORDER BY n DESC, 1 LIMIT 10" \
	"SELECT f.name, count(*) AS n FROM accesses a JOIN pcs p ON p.pc = a.pc
	AND p.module_id = a.module_id JOIN functions f ON f.id = p.function_id
	GROUP BY 1 ORDER BY n DESC, 1 LIMIT 10"
case_ "by thread" "SELECT t.id, t.first_icount, count(*), sum(a.is_write) FROM accesses a
	JOIN threads t ON t.id = a.thread GROUP BY 1, 2 ORDER BY 1" \
	"SELECT t.id, t.first_icount, count(*), sum(a.is_write) FROM accesses a
	JOIN threads t ON t.id = a.thread GROUP BY 1, 2 ORDER BY 1"
echo "(dgsql: a fresh process per question; DuckDB: the query alone, Parquet read included)"
[ $KEEP -eq 1 ] || rm -rf "$PQ" "$DIR/numbers.txt" "$DIR/sort.db"
exit $STATUS
