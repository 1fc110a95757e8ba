#!/bin/sh
# t1540-dgsql-plot: --plot and .plot on writes.c's trace: a PNG of the
# requested size with reads' green, writes' red (and both's yellow) pixels;
# the binned data (--plot-data) accounts for every access exactly; zoomed
# on the 400-byte block with --ranges malloc --events fn:fill only red
# (fill only writes), fn:sum only green; SVG and PDF by extension; a
# missing gnuplot names the Debian package; bad sizes/extensions are
# errors.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-dgsql.sh"
need_tool
need_dgsql
need_cmd gnuplot
need_cmd python3
trace_db w.db writes || finish

dq w.db --plot all.png --plot-data all.dat
check_eq "--plot exits 0" 0 "$?" || diag_file dq.err
set -- $(png_info all.png)
check_eq "PNG of the default size" "1024 768" "$1 $2"
check_gt "green (read) pixels" 0 "$3"
check_gt "red (write) pixels" 0 "$4"
n=$(dq w.db 'SELECT count(*) FROM accesses')
check_eq "--plot-data: every access in some cell" "$n" \
	"$(awk '!/^#/ { s += $3 + $4 } END { print s }' all.dat)"
check_eq "--plot-data: x y r w per line" 0 \
	"$(awk '!/^#/ && NF != 4' all.dat | wc -l | tr -d ' ')"

B=$(dq w.db "SELECT addr || ':' || (addr + size) FROM blocks WHERE size = 400")
dq w.db --events fn:fill --ranges malloc --addr-range "$B" --size 640x480 --plot fill.png
set -- $(png_info fill.png)
check_eq "--size 640x480" "640 480" "$1 $2"
check_eq "fill on the block: red only" "0 yes 0" "$3 $( [ "$4" -gt 0 ] && echo yes) $5"
dq w.db --events fn:sum --ranges malloc --addr-range "$B" --plot sum.png --plot-data sum.dat
set -- $(png_info sum.png)
check_eq "sum on the block: green only" "yes 0 0" "$( [ "$3" -gt 0 ] && echo yes) $4 $5"
check_eq "sum's 100 reads binned" "100 0" \
	"$(awk '!/^#/ { r += $3; w += $4 } END { print r, w }' sum.dat)"
# Stack pushes and pops: cells with both reads and writes, drawn yellow.
both=$(awk '!/^#/ && $3 > 0 && $4 > 0' all.dat | wc -l | tr -d ' ')
check_gt "cells with reads and writes" 0 "$both"
set -- $(png_info all.png)
check_gt "... are yellow pixels" 0 "$5"

printf '.filter --events fn:fill\n.plot shell.svg --size 500x400\n' | dq w.db
check_eq ".plot from the shell exits 0" 0 "$?" || diag_file dq.err
check_eq "SVG by extension, with the filter in the title" 1 \
	"$(grep -c 'events fn:fill' shell.svg)"
dq w.db --plot out.pdf
check_eq "PDF by extension" "%PDF" "$(head -c 4 out.pdf)"
dq w.db --plot out.gif
check_eq "an unknown extension fails (exit 1)" 1 "$?"
dq w.db --plot x.png --size 10x10
check_eq "a bad --size is a usage error" 2 "$?"
dq w.db --ranges user:nosuch --plot empty.png
check_eq "nothing to plot is an error" "1 no accesses to plot (filter or zoom leaves none)" \
	"$? $(sed 's/^dgsql: plot: //' dq.err)"
mkdir -p nognuplot
ln -sf "$(command -v python3)" nognuplot/python3
PATH=$PWD/nognuplot "$DGSQL" w.db --plot x.png 2>nogp.err
check_eq "missing gnuplot: exit 1" 1 "$?"
check_eq "missing gnuplot: names the package" 1 "$(grep -c 'gnuplot-nox' nogp.err)"
finish
