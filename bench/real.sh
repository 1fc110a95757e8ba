#!/bin/sh
# bench/real.sh: Datagrind on real programs, against --tool=none and memcheck.
#
# Usage: sh bench/real.sh [--runs N] [--scale F] [--only NAME[,NAME]] [--db] [--keep]
#
# The suite: programs of different kinds, from Debian's own packages or
# built here, each on input this script generates from a fixed seed (never
# downloaded):
#
#   xz       compressor     xz -6 -T1 of generated text
#   python   interpreter    /usr/bin/python3 -S building dicts, sorting, JSON
#   sqlite   database       sqlite3 :memory: insert, index, GROUP BY, self-join
#   sqlrows  allocator      the same with one INSERT per row in a transaction
#                           (30 000 lines): about 570 000 heap blocks
#   sort     text tool      sort -n of shuffled numbers
#   cxx      allocator      bench/churn.cc (g++ -O2): std::map, std::string,
#                           std::vector churn, about 2 blocks a 1000 accesses
#   pyobj    allocator      python3 -S making and dropping linked objects,
#                           with PYTHONMALLOC=malloc (what Python's manual
#                           advises under Valgrind; pymalloc's arenas would
#                           hide the churn): about 3 blocks a 1000 accesses
#   cc1      compiler       gcc -O2 -c of bench/gencc.py --funcs 100 (2 200
#                           lines), every process traced
#                           (--trace-children=yes); cc1 makes millions of
#                           distinct call stacks.  Its figures are cc1's
#                           log (the largest); times are gcc's whole run.
#
# Every program runs natively, under `valgrind --tool=none`, under
# `--tool=memcheck`, under Datagrind (log on local disk, build/bench/real/)
# and under Datagrind with --trace-at-start=no (`dgheap`: the heap blocks
# only, no accesses), interleaved round by round, RUNS times each; the
# minimum wall time counts.
# Every run's output must equal the native one.  Printed per program: the
# times, datagrind/none, memcheck/none, datagrind/memcheck, the same two
# ratios in CPU time (user + sys of the whole process tree, from perf stat;
# the helper is not a waited-for child, so time(1) would miss it), accesses, log
# bytes per access, peak RSS of the Datagrind run; then the geometric means;
# then the CPU of Datagrind's tool process and of its helper apart, and the
# larger of the two over none's CPU: the wall ratio the run could reach with
# two free cores (an estimate from CPU times, not a measurement); then the
# heap: blocks, the bytes of the heap records (malloc, free and what they
# refer to, from dg-dump --sizes) per block in both Datagrind logs, and
# dgheap/none.
# With --db, each program's Datagrind log is then decoded (dg-dump
# --stats), imported (dg-import) and reported on (dgsql --report), once
# each: decode and import seconds, import ÷ decode speed, the import's
# peak RSS, database bytes per access and the report's seconds.
# The same figures go to build/bench/real/results.txt as `key value` lines.
#
# It asserts nothing about time.  Exit status: 0 done, 1 a run failed or
# changed the program's output, 2 not built, 64 usage.
#
# Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.

set -u
RUNS=3
SCALE=1
ONLY=
KEEP=0
DB=0

usage() {
	cat <<'EOF'
usage: sh bench/real.sh [options]
  --runs N        timed runs per program and configuration; the minimum counts [3]
  --scale F       input size factor (1 gives 150-350 M accesses per program) [1]
  --only LIST     comma-separated subset of: xz,python,sqlite,sqlrows,sort,cxx,pyobj,cc1
  --db            also decode, import and report on each log, once
  --keep          keep the Datagrind logs (and databases) in build/bench/real/
EOF
}

while [ $# -gt 0 ]; do
	case $1 in
	--runs) shift; RUNS=${1:-} ;;
	--runs=*) RUNS=${1#*=} ;;
	--scale) shift; SCALE=${1:-} ;;
	--scale=*) SCALE=${1#*=} ;;
	--only) shift; ONLY=${1:-} ;;
	--only=*) ONLY=${1#*=} ;;
	--keep) KEEP=1 ;;
	--db) DB=1 ;;
	-h|--help) usage; exit 0 ;;
	*) echo "real.sh: unknown option '$1'" >&2; usage >&2; exit 64 ;;
	esac
	shift
done
case $RUNS in ''|*[!0-9]*|0) echo "real.sh: --runs needs a positive integer" >&2; exit 64 ;; esac
case $SCALE in ''|*[!0-9.]*) echo "real.sh: --scale needs a positive number" >&2; exit 64 ;; esac

cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)
OUT=$ROOT/build/bench/real
DATAGRIND=$ROOT/build/bin/datagrind
DGDUMP=$ROOT/build/bin/dg-dump
for f in "$DATAGRIND" "$DGDUMP"; do
	[ -x "$f" ] || { echo "real.sh: $f is missing: run make first" >&2; exit 2; }
done
for t in valgrind xz sqlite3 sort awk /usr/bin/python3 /usr/bin/time gcc g++; do
	command -v "$t" >/dev/null 2>&1 || { echo "real.sh: '$t' is not installed" >&2; exit 1; }
done
mkdir -p "$OUT" || exit 1
rm -f "$OUT/failed"

# ---------------------------------------------------------------- inputs
# Seeded, so every machine traces the same work.  awk's rand() is the same
# for a given srand() within one awk build (mawk on Debian).
n_of() { awk -v s="$SCALE" -v n="$1" 'BEGIN { printf "%d\n", n * s }'; }

. "$ROOT/bench/gen.sh"   # gen_text

gen_numbers() {   # COUNT: shuffled integers, one per line
	awk -v n="$1" 'BEGIN { srand(7); for (i = 0; i < n; i++) printf "%d\n", int(rand() * 1e9) - 5e8 }'
}

gen_python() {   # ROWS: a deterministic dict/sort/json workload
	cat <<EOF
import json
rows = $1
d = {}
x = 12345
for i in range(rows):
    x = (x * 1103515245 + 12345) & 0x7fffffff
    k = "k%d" % (x % (rows // 2 + 1))
    e = d.get(k)
    if e is None:
        d[k] = {"id": i, "n": 1, "tags": [x % 7, x % 11]}
    else:
        e["n"] += 1
        e["tags"].append(x % 13)
top = sorted(d.items(), key=lambda kv: (-kv[1]["n"], kv[0]))[:1000]
s = json.dumps(dict(top), sort_keys=True)
back = json.loads(s)
print(len(d), len(s), sum(v["n"] for v in back.values()))
EOF
}

gen_pyobj() {   # ROUNDS: objects linked, made and dropped
	cat <<EOF
class Node:
    def __init__(self, key, val, nxt):
        self.key = key
        self.val = val
        self.nxt = nxt
        self.tags = [val % 3, val % 5]

x = 12345
live = {}
total = 0
for i in range($1):
    x = (x * 1103515245 + 12345) & 0x7fffffff
    k = "n%d" % (x % 5000)
    if x % 3 == 0 and k in live:
        n = live.pop(k)
        while n is not None:
            total += len(n.tags)
            n = n.nxt
    else:
        live[k] = Node(k, x, live.get(k))
        live[k].tags.append(str(x)[:3])
print(len(live), total)
EOF
}

gen_sql() {   # ROWS: insert, index, group by, self-join
	cat <<EOF
CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b TEXT);
WITH RECURSIVE c(i, x) AS (SELECT 1, 7 UNION ALL
  SELECT i + 1, (x * 1103515245 + 12345) % 2147483648 FROM c WHERE i < $1)
INSERT INTO t SELECT i, x % 1000, printf('row%08d', x % 100000) FROM c;
CREATE INDEX t_a ON t(a);
SELECT a % 10, count(*), sum(length(b)) FROM t GROUP BY a % 10 ORDER BY 1;
SELECT count(*) FROM t x JOIN t y ON y.a = x.a AND y.id = x.id + 1;
SELECT count(DISTINCT b) FROM t;
EOF
}

echo "real.sh: generating inputs (scale $SCALE)"
gen_text "$(n_of 700000)" >"$OUT/text.txt"
gen_numbers "$(n_of 150000)" >"$OUT/numbers.txt"
gen_python "$(n_of 40000)" >"$OUT/work.py"
gen_sql "$(n_of 30000)" >"$OUT/work.sql"
gen_sql_rows "$(n_of 30000)" >"$OUT/rows.sql"
gen_pyobj "$(n_of 60000)" >"$OUT/obj.py"
python3 "$ROOT/bench/gencc.py" --funcs "$(n_of 100)" >"$OUT/gen.c" || exit 1
g++ -O2 -g -o "$OUT/churn" "$ROOT/bench/churn.cc" || exit 1

# cmd_of NAME: the program and its arguments (stdin is set by run_one).
cmd_of() {
	case $1 in
	xz) echo "xz -6 -T1 -c $OUT/text.txt" ;;
	python) echo "/usr/bin/python3 -S $OUT/work.py" ;;
	sqlite|sqlrows) echo "sqlite3 :memory: -init /dev/null" ;;
	sort) echo "sort -n $OUT/numbers.txt" ;;
	cxx) echo "$OUT/churn $(n_of 600000)" ;;
	pyobj) echo "/usr/bin/python3 -S $OUT/obj.py" ;;
	cc1) echo "gcc -O2 -c $OUT/gen.c -o $OUT/gen.o" ;;
	esac
}
# The environment a program runs in, natively and under every tool.
env_of() {
	case $1 in
	pyobj) echo PYTHONMALLOC=malloc ;;
	*) echo DG_BENCH=1 ;;
	esac
}
# Valgrind's options for the program: gcc's work is in its children.
vgopts_of() {
	case $1 in
	cc1) echo --trace-children=yes ;;
	*) echo -q ;;
	esac
}
# The log of a traced run: with children traced, one a process (NAME.dg.PID),
# and the program's figures are those of the largest (cc1's); the others go.
log_keep_largest() {   # NAME SUFFIX
	_big=$(ls -S "$OUT/$1.$2".[0-9]* 2>/dev/null | head -n 1)
	[ -n "$_big" ] || return 0
	mv "$_big" "$OUT/$1.$2"
	rm -f "$OUT/$1.$2".[0-9]*
}
stdin_of() {
	case $1 in
	sqlite) echo "$OUT/work.sql" ;;
	sqlrows) echo "$OUT/rows.sql" ;;
	*) echo /dev/null ;;
	esac
}

# CPU seconds (user + sys) of the whole process tree, the Datagrind helper
# included (it is not a waited-for child, so time(1) misses it): perf stat's
# task-clock, which follows every fork.  Without perf the column says 0.
PERF=
command -v perf >/dev/null 2>&1 && perf stat -x, -e task-clock -o /dev/null true 2>/dev/null \
	&& PERF=perf

# run_one NAME CONFIG: one timed run; prints "SECONDS MAXRSS_KB USER SYS
# CPU_SECONDS": USER and SYS of the program's process (Valgrind's; not the
# helper), CPU of the whole tree.
run_one() {
	_n=$1 _c=$2
	# shellcheck disable=SC2046
	set -- $(cmd_of "$_n")
	_vo=$(vgopts_of "$_n")
	_log=$_n.dg _hlog=$_n.heap.dg
	[ "$_vo" = -q ] || _log=$_n.dg.%p _hlog=$_n.heap.dg.%p
	case $_c in
	native) ;;
	none) set -- valgrind --tool=none -q $_vo "$@" ;;
	memcheck) set -- valgrind --tool=memcheck -q $_vo "$@" ;;
	datagrind) set -- "$DATAGRIND" -q $_vo --datagrind-out-file="$OUT/$_log" "$@" ;;
	dgheap) set -- "$DATAGRIND" -q $_vo --trace-at-start=no \
		--datagrind-out-file="$OUT/$_hlog" "$@" ;;
	esac
	set -- env $(env_of "$_n") "$@"
	[ -n "$PERF" ] && set -- perf stat -x, -e task-clock -o "$OUT/cpu.$$" "$@"
	rm -f "$OUT/cpu.$$"
	/usr/bin/time -f '%e %M %U %S' -o "$OUT/time.$$" "$@" <"$(stdin_of "$_n")" \
		>"$OUT/$_n.$_c.out" 2>"$OUT/$_n.$_c.err"
	_rc=$?
	if [ "$_rc" -ne 0 ]; then
		echo "real.sh: $_n under $_c: exit status $_rc" >&2
		tail -n 5 "$OUT/$_n.$_c.err" >&2
		: >"$OUT/failed"
	elif [ "$_c" != native ] && ! cmp -s "$OUT/$_n.native.out" "$OUT/$_n.$_c.out"; then
		echo "real.sh: $_n under $_c: output differs from the native run" >&2
		: >"$OUT/failed"
	fi
	case $_vo.$_c in
	-q.*) ;;
	*.datagrind) log_keep_largest "$_n" dg ;;
	*.dgheap) log_keep_largest "$_n" heap.dg ;;
	esac
	_cpu=$(awk -F, '$3 == "task-clock" { printf "%.3f", $1 / 1000 }' "$OUT/cpu.$$" 2>/dev/null)
	echo "$(tail -n 1 "$OUT/time.$$") ${_cpu:-0}"
	rm -f "$OUT/time.$$" "$OUT/cpu.$$"
}

min() { sort -g | head -n 1; }

PROGRAMS="xz python sqlite sqlrows sort cxx pyobj cc1"
[ -n "$ONLY" ] && PROGRAMS=$(echo "$ONLY" | tr ',' ' ')
CONFIGS="native none memcheck datagrind dgheap"
RES=$OUT/results.txt
: >"$RES"
echo "real.sh: $RUNS runs of each of: $PROGRAMS; load $(cut -d' ' -f1 /proc/loadavg)"

for p in $PROGRAMS; do
	cmd_of "$p" | grep -q . || { echo "real.sh: unknown program '$p'" >&2; exit 64; }
	# the reference output, and a warm page cache
	set -- env $(env_of "$p") $(cmd_of "$p")
	"$@" <"$(stdin_of "$p")" >"$OUT/$p.native.out" 2>/dev/null
	for c in $CONFIGS; do : >"$OUT/$p.$c.times"; done
	r=0
	while [ $r -lt "$RUNS" ]; do
		for c in $CONFIGS; do
			run_one "$p" "$c" >>"$OUT/$p.$c.times"
		done
		r=$((r + 1))
	done
	for c in $CONFIGS; do
		echo "$p.$c.seconds $(cut -d' ' -f1 "$OUT/$p.$c.times" | min)" >>"$RES"
		echo "$p.$c.cpu $(cut -d' ' -f5 "$OUT/$p.$c.times" | min)" >>"$RES"
	done
	# the Datagrind run of least CPU: its tool process and helper apart
	sort -g -k5,5 "$OUT/$p.datagrind.times" | head -n 1 |
		awk -v p="$p" '{ printf "%s.datagrind.tool_cpu %.3f\n", p, $3 + $4 }' >>"$RES"
	echo "$p.datagrind.rss_kb $(cut -d' ' -f2 "$OUT/$p.datagrind.times" | sort -n | tail -n 1)" >>"$RES"
	/usr/bin/time -f '%e' -o "$OUT/decode.time" "$DGDUMP" --stats "$OUT/$p.dg" >"$OUT/$p.stats" 2>&1
	echo "$p.decode.seconds $(cat "$OUT/decode.time")" >>"$RES"
	echo "$p.accesses $(awk '$1 == "accesses" { print $2 }' "$OUT/$p.stats")" >>"$RES"
	echo "$p.log_bytes $(stat -c %s "$OUT/$p.dg")" >>"$RES"
	# the heap records' bytes (malloc and free, in either form, and the
	# stacks they refer to) by log, and the blocks
	for l in dg heap.dg; do
		"$DGDUMP" --sizes "$OUT/$p.$l" >"$OUT/$p.$l.sizes" 2>&1
		awk -v k="$p.${l%dg}heap_bytes" '$1 ~ /^(malloc_block|free_block|heap_)/ { b += $3 }
			END { print k, b + 0 }' "$OUT/$p.$l.sizes" >>"$RES"
	done
	echo "$p.blocks $(awk '$1 == "mallocs" { print $2 }' "$OUT/$p.stats")" >>"$RES"
	if [ "$DB" = 1 ]; then
		rm -f "$OUT/$p.db"
		if /usr/bin/time -f '%e %M' -o "$OUT/import.time" "$ROOT/build/bin/dg-import" -q \
			"$OUT/$p.dg" "$OUT/$p.db" 2>"$OUT/$p.import.err"; then
			echo "$p.import.seconds $(cut -d' ' -f1 "$OUT/import.time")" >>"$RES"
			echo "$p.import.rss_kb $(cut -d' ' -f2 "$OUT/import.time")" >>"$RES"
			echo "$p.db_bytes $(stat -c %s "$OUT/$p.db")" >>"$RES"
			rm -rf "$OUT/$p.report"
			/usr/bin/time -f '%e' -o "$OUT/report.time" "$ROOT/build/bin/dgsql" "$OUT/$p.db" \
				--report "$OUT/$p.report" >/dev/null 2>"$OUT/$p.report.err" ||
				{ echo "real.sh: $p: dgsql --report failed" >&2; : >"$OUT/failed"; }
			echo "$p.report.seconds $(cat "$OUT/report.time")" >>"$RES"
		else
			echo "real.sh: $p: dg-import failed" >&2
			cat "$OUT/$p.import.err" >&2
			: >"$OUT/failed"
		fi
		[ "$KEEP" = 1 ] || rm -rf "$OUT/$p.db" "$OUT/$p.report"
	fi
	[ "$KEEP" = 1 ] || rm -f "$OUT/$p.dg" "$OUT/$p.heap.dg"
done

awk -v progs="$PROGRAMS" -v db="$DB" '
	{ v[$1] = $2 }
	END {
		n = split(progs, P, " ")
		printf "\n%-8s %8s %8s %8s %9s  %8s %8s %8s  %8s %8s  %10s %6s %8s\n", "program", "native", "none",
			"memcheck", "datagrind", "dg/none", "mc/none", "dg/mc", "cpu dg/n", "cpu dg/mc",
			"accesses", "B/acc", "dg RSS"
		gd = gm = gx = gc = 0
		for (i = 1; i <= n; i++) {
			p = P[i]
			nt = v[p ".none.seconds"]; dg = v[p ".datagrind.seconds"]; mc = v[p ".memcheck.seconds"]
			r1 = dg / nt; r2 = mc / nt; r3 = dg / mc
			cn = v[p ".none.cpu"]; cd = v[p ".datagrind.cpu"]; cm = v[p ".memcheck.cpu"]
			c1 = cn > 0 ? cd / cn : 0; c2 = cm > 0 ? cd / cm : 0
			gd += log(r1); gm += log(r2); gx += log(r3); if (c1 > 0) gc += log(c1)
			if (r1 > worst) worst = r1
			printf "%-8s %8.2f %8.2f %8.2f %9.2f  %7.2fx %7.2fx %7.2fx  %7.2fx %8.2fx  %10d %6.2f %6d MB\n", p,
				v[p ".native.seconds"], nt, mc, dg, r1, r2, r3, c1, c2, v[p ".accesses"],
				v[p ".log_bytes"] / v[p ".accesses"], v[p ".datagrind.rss_kb"] / 1024
		}
		printf "geometric mean: datagrind/none %.2fx, memcheck/none %.2fx, datagrind/memcheck %.2f; worst datagrind/none %.2fx\n",
			exp(gd / n), exp(gm / n), exp(gx / n), worst
		printf "cpu (user+sys of the process tree, helper included): geometric mean datagrind/none %.2fx\n", exp(gc / n)
		printf "\n%-8s %9s %9s %9s  %s\n", "program", "cpu none", "dg tool", "dg helper",
			"max(tool, helper)/none: the wall ratio two free cores allow"
		gw = 0
		for (i = 1; i <= n; i++) {
			p = P[i]
			cn = v[p ".none.cpu"]; ct = v[p ".datagrind.tool_cpu"]; ch = v[p ".datagrind.cpu"] - ct
			mx = ct > ch ? ct : ch
			rw = cn > 0 ? mx / cn : 0
			if (rw > 0) gw += log(rw)
			printf "%-8s %9.2f %9.2f %9.2f  %6.2fx\n", p, cn, ct, ch, rw
		}
		printf "geometric mean of max(tool, helper)/none: %.2fx\n", exp(gw / n)
		printf "\n%-8s %9s %9s %9s  %s\n", "program", "blocks", "B/block", "heap B/b",
			"dgheap/none: heap records per block in the full log and the heap-only one"
		for (i = 1; i <= n; i++) {
			p = P[i]
			b = v[p ".blocks"]; nt = v[p ".none.seconds"]
			printf "%-8s %9d %9.1f %9.1f  %6.2fx\n", p, b,
				(b > 0 ? v[p ".heap_bytes"] / b : 0), (b > 0 ? v[p ".heap.heap_bytes"] / b : 0),
				(nt > 0 ? v[p ".dgheap.seconds"] / nt : 0)
		}
		if (db != 1)
			exit
		printf "\n%-8s %9s %9s %9s %9s %8s %9s\n", "program", "decode s", "import s",
			"imp/dec", "imp RSS", "DB B/acc", "report s"
		for (i = 1; i <= n; i++) {
			p = P[i]
			d = v[p ".decode.seconds"]; im = v[p ".import.seconds"]
			printf "%-8s %9.2f %9.2f %9.2f %6d MB %8.2f %9.2f\n", p, d, im,
				(im > 0 ? d / im : 0), v[p ".import.rss_kb"] / 1024,
				(v[p ".accesses"] > 0 ? v[p ".db_bytes"] / v[p ".accesses"] : 0),
				v[p ".report.seconds"]
		}
	}' "$RES" | tee "$OUT/table.txt"
echo "real.sh: load at the end $(cut -d' ' -f1 /proc/loadavg); figures in ${RES#$ROOT/}"
[ -e "$OUT/failed" ] && exit 1
exit 0
