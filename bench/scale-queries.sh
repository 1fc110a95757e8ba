#!/bin/sh
# bench/scale-queries.sh -- the first questions on a large trace database:
# how long dgsql takes for each of them (issue 9, §3).  Called by
# bench/scale.sh with the database it imported; runs alone too.
#
# Copyright (C) 2026 the Datagrind authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: sh bench/scale-queries.sh TRACE.db
#
# Prints one line per measurement, "name  seconds  cpu  note": real time
# of one run and its user+sys CPU seconds (the figure to compare when
# other work shares the cores), a cold first run after import; run twice
# to see the warm figure:
#
#   q:NAME [FILTER]  every canned query (queries/*.sql), without a filter
#                    and with one filter of each kind: --events fn:, file:,
#                    dso:, user:, --ranges range, malloc; and zoomed to the
#                    middle 1/1000 of the trace with --icount-range
#   plot [FILTER]    dgsql --plot of the whole trace, with --events fn:
#                    and user:, and zoomed with --icount-range (the
#                    middle 1/1000)
#   block            SELECT count(*) FROM accesses WHERE block_id = X, X
#                    the block with the most accesses (note: its accesses)
#   scan, ceiling    SELECT count(*), sum(size) FROM accesses WHERE
#                    is_write = 1 over the first chunks holding $SCAN_ROWS
#                    accesses, and generate_series over as many rows,
#                    in one sqlite3 session with build/lib/dgaccess.so
#                    (note: rows/s; the ratio is printed after)
#   csv, tsv, json   dgsql -m MODE of SELECT * FROM accesses LIMIT
#                    $EXPORT_ROWS to /dev/null (note: rows/s): dgsql's
#                    export fast path; then csv of the same statement
#                    with a comment, which goes through SQLite's row loop;
#                    then what the kernel adds: csv and json into a pipe
#                    (wc reads it), csv into a file beside the database
#
# Environment: DGSQL (build/bin/dgsql), TIMEOUT seconds a measurement may
# take before it is cut off and reported as ">TIMEOUT" (60); FN, FILE, DSO,
# LABEL the filter values (default: the function, source file and module
# with the most accesses that have a name, and the first event label or
# "none"); QUERIES the canned queries to run (all); EXPORT_ROWS (20000000);
# SCAN_ROWS (100000000).
# Figures only: nothing here asserts a time.  Exit status: 0 done; 2 bad
# usage or a missing prerequisite.

set -u
cd "$(dirname "$0")/.." || exit 2
DB=${1:?usage: sh bench/scale-queries.sh TRACE.db}
[ -f "$DB" ] || { echo "scale-queries.sh: no database '$DB'" >&2; exit 2; }
DGSQL=${DGSQL:-build/bin/dgsql}
TIMEOUT=${TIMEOUT:-60}
EXPORT_ROWS=${EXPORT_ROWS:-20000000}
SCAN_ROWS=${SCAN_ROWS:-100000000}
EXT=build/lib/dgaccess
[ -x "$DGSQL" ] || { echo "scale-queries.sh: build $DGSQL first (make)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "scale-queries.sh: /usr/bin/time is missing (Debian package time)" >&2; exit 2; }
OUT=$(mktemp -d) || exit 2
FOUT=
trap 'rm -rf "$OUT"; [ -z "$FOUT" ] || rm -f "$FOUT"' EXIT

q1() { "$DGSQL" "$DB" "$1" 2>/dev/null; }

# Filter values: the hottest named function, file and module of the trace.
FN=${FN:-$(q1 "SELECT f.name FROM sum_pc s JOIN pcs p ON p.pc = s.pc AND p.module_id = s.module_id
	JOIN functions f ON f.id = p.function_id WHERE f.name NOT LIKE '0x%'
	GROUP BY f.id ORDER BY sum(s.accesses) DESC LIMIT 1")}
FILE=${FILE:-$(q1 "SELECT p.file FROM sum_pc s JOIN pcs p ON p.pc = s.pc AND p.module_id = s.module_id
	WHERE p.file IS NOT NULL GROUP BY p.file ORDER BY sum(s.accesses) DESC LIMIT 1")}
DSO=${DSO:-$(q1 "SELECT m.path FROM sum_pc s JOIN pcs p ON p.pc = s.pc AND p.module_id = s.module_id
	JOIN modules m ON m.id = p.module_id GROUP BY m.id
	ORDER BY sum(s.accesses) DESC LIMIT 1")}
LABEL=${LABEL:-$(q1 "SELECT coalesce((SELECT label FROM events LIMIT 1), 'none')")}
BLOCK=$(q1 "SELECT id FROM blocks ORDER BY reads + writes DESC LIMIT 1")
BLOCK_N=$(q1 "SELECT reads + writes FROM blocks WHERE id = ${BLOCK:-0}")
N=$(q1 "SELECT value FROM meta WHERE key = 'accesses'")
IC=$(q1 "SELECT value FROM meta WHERE key = 'icount'")
QUERIES=${QUERIES:-$(ls queries/*.sql | sed 's|queries/||; s|\.sql$||')}

# t NAME [NOTE-RATE-ROWS] -- DGSQL ARGS: one timed run, its line printed.
t() {
	name=$1 rows=$2
	shift 3
	s=$(date +%s.%N)
	timeout "$TIMEOUT" /usr/bin/time -f '%U %S' -o "$OUT/cpu" "$@" >"$OUT/out" 2>"$OUT/err"
	st=$?
	e=$(date +%s.%N)
	if [ $st -eq 124 ]; then
		printf '%-40s %9s\n' "$name" ">$TIMEOUT"
	elif [ $st -ne 0 ]; then
		printf '%-40s %9s  %s\n' "$name" failed "$(head -c 200 "$OUT/err")"
	else
		awk -v n="$name" -v s="$s" -v e="$e" -v r="$rows" -v cpu="$(tail -n 1 "$OUT/cpu")" 'BEGIN {
			d = e - s; split(cpu, c, " "); u = c[1] + c[2]
			note = r ? sprintf("%.2f M rows/s (%.2f per CPU s)", r / d / 1e6, r / (u > 0 ? u : d) / 1e6) : ""
			printf "%-40s %9.3f %9.3f  %s\n", n, d, u, note }'
	fi
}

echo "database $DB: $N accesses, $IC instructions"
echo "filters: fn:$FN file:$FILE dso:$DSO user:$LABEL; block $BLOCK ($BLOCK_N accesses)"
printf '%-40s %9s %9s\n' measurement seconds cpu
for q in $QUERIES; do
	arg=
	[ "$q" = block_hist ] && arg=$BLOCK
	t "q:$q" 0 -- "$DGSQL" "$DB" ".q $q $arg"
	t "q:$q fn:" 0 -- "$DGSQL" --events "fn:$FN" "$DB" ".q $q $arg"
	t "q:$q file:" 0 -- "$DGSQL" --events "file:$FILE" "$DB" ".q $q $arg"
	t "q:$q dso:" 0 -- "$DGSQL" --events "dso:$DSO" "$DB" ".q $q $arg"
	t "q:$q user:" 0 -- "$DGSQL" --events "user:$LABEL" "$DB" ".q $q $arg"
	t "q:$q range" 0 -- "$DGSQL" --ranges range "$DB" ".q $q $arg"
	t "q:$q malloc" 0 -- "$DGSQL" --ranges malloc "$DB" ".q $q $arg"
	t "q:$q --icount-range" 0 -- "$DGSQL" --icount-range \
		"$((IC / 2)):$((IC / 2 + IC / 1000))" "$DB" ".q $q $arg"
done
t "plot" 0 -- "$DGSQL" --plot "$OUT/p.png" "$DB"
t "plot fn:" 0 -- "$DGSQL" --events "fn:$FN" --plot "$OUT/p.png" "$DB"
t "plot user:" 0 -- "$DGSQL" --events "user:$LABEL" --plot "$OUT/p.png" "$DB"
t "plot --icount-range (1/1000)" 0 -- "$DGSQL" --icount-range \
	"$((IC / 2)):$((IC / 2 + IC / 1000))" --plot "$OUT/p.png" "$DB"
t "block_id = $BLOCK" "$BLOCK_N" -- "$DGSQL" "$DB" \
	"SELECT count(*) FROM accesses WHERE block_id = $BLOCK"
if command -v sqlite3 >/dev/null && [ -f "$EXT.so" ]; then
	# the first chunks holding SCAN_ROWS accesses (the whole trace would
	# outlast any TIMEOUT), and generate_series over as many rows
	LAST=$(q1 "SELECT coalesce(min(id), (SELECT max(id) FROM chunks)) FROM (SELECT id,
		sum(n_accesses) OVER (ORDER BY id) AS n FROM chunks) WHERE n >= $SCAN_ROWS")
	S=$(q1 "SELECT sum(n_accesses) FROM chunks WHERE id <= $LAST")
	t "scan: count, sum(size) WHERE is_write=1" "$S" -- sqlite3 "$DB" ".load $EXT" \
		"SELECT count(*), sum(size) FROM accesses WHERE is_write = 1 AND chunk_id <= $LAST"
	t "ceiling: generate_series, as many rows" "$S" -- sqlite3 "$DB" \
		"SELECT count(*), sum(value) FROM generate_series(1, $S)"
	echo "(the scan decodes $S accesses, chunks up to $LAST, and passes the writes to SQLite)"
fi
for m in csv tsv json; do
	t "$m export, $EXPORT_ROWS rows" "$EXPORT_ROWS" -- sh -c '"$@" > /dev/null' sh \
		"$DGSQL" -m $m "$DB" "SELECT * FROM accesses LIMIT $EXPORT_ROWS"
done
# the same rows through SQLite's row loop (the comment turns the fast
# path off: dgsql/export.h)
t "csv through SQLite, $EXPORT_ROWS rows" "$EXPORT_ROWS" -- sh -c '"$@" > /dev/null' sh \
	"$DGSQL" -m csv "$DB" "SELECT * FROM accesses LIMIT $EXPORT_ROWS -- through SQLite"
# what the kernel adds: into a pipe (wc at the other end) and into a file
# on the database's filesystem (removed after)
for m in csv json; do
	t "$m export into a pipe" "$EXPORT_ROWS" -- sh -c '"$@" | wc -c > /dev/null' sh \
		"$DGSQL" -m $m "$DB" "SELECT * FROM accesses LIMIT $EXPORT_ROWS"
done
FOUT=$(mktemp "$(dirname "$DB")/export.XXXXXX") || exit 2
t "csv export into a file" "$EXPORT_ROWS" -- sh -c '"$@" > "$0"' "$FOUT" \
	"$DGSQL" -m csv "$DB" "SELECT * FROM accesses LIMIT $EXPORT_ROWS"
