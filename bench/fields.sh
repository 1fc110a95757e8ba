#!/bin/sh
# bench/fields.sh: the share of accesses struct-field attribution types, by
# way, on optimized builds (issue 12): perf's --type-stat, counted in
# accesses, every access.
#
#     sh bench/fields.sh [-O LEVEL] [--regions] [PROGRAM [ARG...]]
#
# With no PROGRAM, builds the suite below at -O2 -g (or -O LEVEL) and runs
# each: C programs of different kinds and C++ programs of containers of
# structs.  For each it traces, imports and prints the share of heap
# accesses given a field (meta heap_accesses_typed / heap_accesses:
# by any way) and the share of all accesses each way gave a field to
# (sum_field.how: range, global, alloc, insn, heap).  With PROGRAM, the
# same for it alone (build it with -g yourself).  --regions adds, per
# program, a line per region (heap: in a malloc'd block; global: in a
# writable mapping of a module; stack/other: the rest) with the share of
# its accesses in a variable with a fixed address (way 'global'), whose pc
# way 3 types, in a block typed by its allocation or by votes, and by any
# of these: it reads every access back through
# the `accesses` table (build/lib/dgaccess.so), a minute or two for the
# suite.  Heap accesses include
# those made by libc and libstdc++ code (memcpy, printf's buffers, the
# containers' own functions), typed where the block's allocation says its
# type and not otherwise unless their debug info is installed.  Prints
# figures only.  Files go to build/bench/tmp/fields.*.
#
#   workload   bench/workload.c 1: matrix multiply, stencil (arrays of
#              double), chained hash table, shuffled list, binary tree
#   acct       tests/progs/pctype/alloc.c: arrays of structs walked by
#              stepped pointers, list nodes, memset/memcpy, a wrapper
#   transpose  examples/transpose.c: flat loops over a tracked matrix
#   dhatprog   tests/progs/dhatprog.c: three allocation sites, calloc
#   churn      bench/churn.cc 20000: std::map<std::string,
#              std::vector<int>> churn (C++)
#   items      tests/progs/pctype/alloc_cxx.cc 2000: new T[n] with a
#              base class, std::vector and std::map of structs (C++)
#
# Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=$TOP/build
T=$B/bench/tmp
OPT=2
REGIONS=0
while [ $# -gt 0 ]; do
	case $1 in
	-O) OPT=$2; shift 2 ;;
	--regions) REGIONS=1; shift ;;
	*) break ;;
	esac
done
if [ "${1-}" = --help ]; then
	sed -n '2,/^$/s/^# \{0,1\}//p' "$0"
	exit 0
fi
mkdir -p "$T" || exit 1
for x in "$B/bin/datagrind" "$B/bin/dg-import"; do
	[ -x "$x" ] || { echo "fields.sh: $x missing (run make)" >&2; exit 1; }
done
command -v sqlite3 >/dev/null || { echo "fields.sh: sqlite3 missing" >&2; exit 1; }

# one NAME PROGRAM [ARG...]: trace, import, print one line.
one() {
	name=$1
	shift
	"$B/bin/datagrind" -q --datagrind-out-file="$T/fields.$name.dg" "$@" >/dev/null \
		2>"$T/fields.$name.err" || {
		echo "fields.sh: tracing $* failed (see $T/fields.$name.err)" >&2; return 1; }
	rm -f "$T/fields.$name.db"
	"$B/bin/dg-import" -q "$T/fields.$name.dg" "$T/fields.$name.db" || return 1
	sqlite3 -batch -separator ' ' "$T/fields.$name.db" "
		WITH m(k, v) AS (SELECT key, value FROM meta),
		     g(k) AS (SELECT CAST(v AS INTEGER) FROM m WHERE k = 'accesses')
		SELECT printf('%-10s %11d %11d %6.1f%%', '$name', (SELECT k FROM g),
			(SELECT v FROM m WHERE k = 'heap_accesses'),
			100.0 * (SELECT v FROM m WHERE k = 'heap_accesses_typed')
			/ max(1, (SELECT v FROM m WHERE k = 'heap_accesses')))
		|| (SELECT group_concat(printf(' %6.1f%%', 100.0 * ifnull((SELECT v FROM m
			WHERE k = 'fields_' || h), 0) / max(1, (SELECT k FROM g))), '')
		    FROM (SELECT 'range' AS h UNION ALL SELECT 'global' UNION ALL SELECT 'alloc'
			  UNION ALL SELECT 'insn' UNION ALL SELECT 'heap'))"
	[ $REGIONS = 1 ] || return 0
	sqlite3 -batch -separator ' ' "$T/fields.$name.db" <<EOF
.load $B/lib/dgaccess.so
WITH a AS (
	SELECT CASE WHEN x.block_id IS NOT NULL THEN 'heap'
		WHEN EXISTS (SELECT 1 FROM mappings m WHERE (m.prot & 2) != 0
			AND x.addr >= m.start AND x.addr < m.end) THEN 'global'
		ELSE 'stack/other' END AS region,
		(SELECT 1 FROM pc_types t WHERE t.pc = x.pc AND t.module_id = x.module_id) AS insn,
		(SELECT s.how FROM blocks b JOIN site_types s ON s.stack_id = b.alloc_stack_id
		 WHERE b.id = x.block_id) AS site,
		(SELECT 1 FROM variables v WHERE x.addr >= v.addr AND x.addr < v.addr + v.size) AS var
	FROM accesses x)
SELECT printf('  %-12s %11d  global %5.1f%%  insn %5.1f%%  alloc %5.1f%%  votes %5.1f%%  any %5.1f%%',
	region, count(*), 100.0 * sum(var IS NOT NULL) / count(*),
	100.0 * sum(insn IS NOT NULL) / count(*), 100.0 * sum(site = 'alloc') / count(*),
	100.0 * sum(site = 'votes') / count(*),
	100.0 * sum(insn IS NOT NULL OR site IS NOT NULL OR var IS NOT NULL) / count(*))
FROM a GROUP BY region ORDER BY region;
EOF
}

printf '%-10s %11s %11s %7s %7s %7s %7s %7s %7s\n' program accesses heap heap% \
	range global alloc insn heap
if [ $# -gt 0 ]; then
	one "$(basename "$1")" "$@"
	exit
fi
cc_() { out=$1; shift; cc -std=gnu11 -O"$OPT" -g -fno-stack-protector -I"$TOP/tool" -o "$out" "$@"; }
cx_() { out=$1; shift; c++ -O"$OPT" -g -o "$out" "$@"; }
cc_ "$T/workload" "$TOP/bench/workload.c" -lm &&
cc_ "$T/acct" "$TOP/tests/progs/pctype/alloc.c" &&
cc_ "$T/transpose" "$TOP/examples/transpose.c" &&
cc_ "$T/dhatprog" "$TOP/tests/progs/dhatprog.c" &&
cx_ "$T/churn" "$TOP/bench/churn.cc" &&
cx_ "$T/items" "$TOP/tests/progs/pctype/alloc_cxx.cc" || exit 1
one workload "$T/workload" 1
one acct "$T/acct" 1000
one transpose "$T/transpose"
one dhatprog "$T/dhatprog"
one churn "$T/churn" 20000
one items "$T/items" 2000
