#!/bin/sh
# demo.sh: the README's tour, run by `make demo`.  Traces the sample program
# examples/transpose.c, imports the log into a database, asks it a few
# questions and draws the accesses to the two matrices into
# build/demo/transpose.png (address across, instruction count down; reads
# green, writes red, both yellow) and a simulated D1's misses into
# build/demo/d1-misses.png, then writes the report a CI job would keep
# into build/demo/report/.
set -eu
B=${B:-build}
D=$B/demo
mkdir -p "$D"

step() { printf '\n== %s\n' "$*"; }

step "building the sample program: examples/transpose.c"
${CC:-cc} -O1 -g -I"$B/include" -o "$D/transpose" examples/transpose.c

step "tracing: datagrind $D/transpose"
"$B/bin/datagrind" -q --datagrind-out-file="$D/transpose.dg" "$D/transpose"

step "importing: dg-import $D/transpose.dg $D/transpose.db"
"$B/bin/dg-import" --force "$D/transpose.dg" "$D/transpose.db"

step "what is in the trace: dgsql .stats"
"$B/bin/dgsql" "$D/transpose.db" .stats

step "which functions touch the heap, and how: .q by_block"
"$B/bin/dgsql" --mode column --header "$D/transpose.db" ".q by_block"

step "accesses per phase (the program's DATAGRIND_START/END_EVENT): SQL"
"$B/bin/dgsql" --mode column --header "$D/transpose.db" \
	"SELECT label, reads, writes, end_icount - start_icount AS instructions FROM events"

step "the caches, after the fact: .cache D1=32k:8:64 LL=8M:16:64, .q cache_misses, D1's misses drawn"
"$B/bin/dgsql" --mode column --header "$D/transpose.db" ".cache D1=32k:8:64 LL=8M:16:64" \
	".q cache_misses 6" ".plot $D/d1-misses.png --misses D1"
echo "plot written: $D/d1-misses.png"

step "reuse distances, for every cache size at once: .reuse, then the miss-ratio curve"
"$B/bin/dgsql" --mode column --header "$D/transpose.db" .reuse \
	"SELECT bytes, printf('%.3f', miss_ratio) AS miss_ratio FROM reuse_mrc
	 WHERE bytes IN (1024, 4096, 16384, 65536, 262144)"

step "the picture: dgsql --ranges user:a,user:b --plot $D/transpose.png"
"$B/bin/dgsql" "$D/transpose.db" --ranges user:a,user:b --plot "$D/transpose.png"
echo "plot written: $D/transpose.png"

step "a report for CI: dgsql --report $D/report"
"$B/bin/dgsql" "$D/transpose.db" --report "$D/report" --folded "$D/transpose.folded"
echo "report written: $D/report/index.html, report.md, report.json"
