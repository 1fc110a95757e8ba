#!/bin/sh
# demo.sh: the README's tour, run by `make demo`.  Traces the sample program
# examples/transpose.c, shows what the log holds, and plots the accesses to
# its two heap blocks (address across, instruction count down; reads green,
# writes red) into build/demo/transpose.png.
set -eu
B=${B:-build}
D=$B/demo
mkdir -p "$D"

echo "== building the sample program"
${CC:-cc} -O1 -g -I"$B/include" -I/usr/include/valgrind \
	-o "$D/transpose" examples/transpose.c

echo "== tracing: $B/bin/datagrind $D/transpose"
"$B/bin/datagrind" -q --datagrind-out-file="$D/transpose.dg" "$D/transpose"

echo "== what the log holds: dg-dump --stats"
"$B/bin/dg-dump" --stats "$D/transpose.dg"

echo "== heap blocks: address size alloc-icount free-icount reads writes rbytes wbytes stack"
"$B/bin/dg-dump" --blocks "$D/transpose.dg" | tee "$D/blocks.txt"

if ! command -v gnuplot >/dev/null 2>&1; then
	echo "demo: gnuplot not found (Debian package gnuplot-nox); no plot" >&2
	exit 1
fi
# the two largest blocks are the matrices
set -- $(sort -k2,2n "$D/blocks.txt" | tail -n 2 | awk '{ printf "%s %s ", $1, $2 }')
"$B/bin/dg-dump" --accesses "$D/transpose.dg" > "$D/accesses.txt"
gnuplot <<GP
set terminal pngcairo size 1000,700 background rgb "black"
set output "$D/transpose.png"
set border lc rgb "white"
set title "examples/transpose: accesses to the two matrices (green read, red write)" tc rgb "white"
set xlabel "address" tc rgb "white"
set ylabel "instruction count" tc rgb "white"
set format x "0x%x"
set yrange [*:*] reverse
unset key
in(a) = (a >= $1 && a < $1 + $2) || (a >= $3 && a < $3 + $4)
plot "$D/accesses.txt" using (in(\$6) && strcol(4) eq "R" ? \$6 : NaN):2 with dots lc rgb "green", \
     "$D/accesses.txt" using (in(\$6) && strcol(4) eq "W" ? \$6 : NaN):2 with dots lc rgb "red"
GP
echo "== plot written: $D/transpose.png"
