#!/bin/sh
# bench/fields.sh: how many accesses struct-field ways 3 and 4 type, as
# perf's --type-stat does but counted in accesses, every access.
#
#     sh bench/fields.sh [PROGRAM [ARG...]]
#
# Traces PROGRAM (default: build/bench/workload 1) with Datagrind, imports
# the log and prints one line per region (heap: inside a malloc'd block;
# global: inside a writable mapping of a module; stack/other: the rest,
# thread stacks and anonymous mmaps): its accesses, the share whose pc is
# typed by way 3 (pc_types) in all and by each via (register, stack,
# tracked), the share in blocks typed by way 4 (site_types, blocks of up to
# 1024 bytes: the ones site_fields counts), and the share either way types.
# Reads every access back through the `accesses` table
# (build/lib/dgaccess.so): seconds per few million.  Prints figures only.
# Files go to build/bench/tmp/fields.*.
#
# Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=$TOP/build
T=$B/bench/tmp
mkdir -p "$T" || exit 1
for x in "$B/bin/datagrind" "$B/bin/dg-import" "$B/lib/dgaccess.so"; do
	[ -x "$x" ] || [ -f "$x" ] || { echo "fields.sh: $x missing (run make)" >&2; exit 1; }
done
command -v sqlite3 >/dev/null || { echo "fields.sh: sqlite3 missing" >&2; exit 1; }
if [ $# -eq 0 ]; then
	W=$B/bench/workload
	[ -x "$W" ] || cc -O2 -g -o "$W" "$TOP/bench/workload.c" || exit 1
	set -- "$W" 1
fi

"$B/bin/datagrind" -q --datagrind-out-file="$T/fields.dg" "$@" >/dev/null 2>"$T/fields.err" || {
	echo "fields.sh: tracing $* failed (see $T/fields.err)" >&2; exit 1; }
rm -f "$T/fields.db"
"$B/bin/dg-import" -q "$T/fields.dg" "$T/fields.db" || exit 1

echo "fields.sh: $*: $(sqlite3 "$T/fields.db" "SELECT value FROM meta WHERE key = 'accesses'") accesses"
sqlite3 -batch "$T/fields.db" <<EOF
.load $B/lib/dgaccess.so
.mode column
.headers on
WITH a AS (
	SELECT CASE WHEN x.block_id IS NOT NULL THEN 'heap'
		WHEN EXISTS (SELECT 1 FROM mappings m WHERE (m.prot & 2) != 0
			AND x.addr >= m.start AND x.addr < m.end) THEN 'global'
		ELSE 'stack/other' END AS region,
		(SELECT via FROM pc_types t WHERE t.pc = x.pc) AS via3,
		(SELECT 1 FROM blocks b JOIN site_types s ON s.stack_id = b.alloc_stack_id
		 WHERE b.id = x.block_id AND b.size <= 1024) AS way4
	FROM accesses x)
SELECT region, count(*) AS accesses,
	printf('%5.1f%%', 100.0 * sum(via3 IS NOT NULL) / count(*)) AS way3,
	printf('%5.1f%%', 100.0 * sum(via3 = 'register') / count(*)) AS register,
	printf('%5.1f%%', 100.0 * sum(via3 = 'stack') / count(*)) AS stack,
	printf('%5.1f%%', 100.0 * sum(via3 = 'tracked') / count(*)) AS tracked,
	printf('%5.1f%%', 100.0 * sum(way4 IS NOT NULL) / count(*)) AS way4,
	printf('%5.1f%%', 100.0 * sum(via3 IS NOT NULL OR way4 IS NOT NULL) / count(*)) AS either
FROM a GROUP BY region ORDER BY region;
EOF
