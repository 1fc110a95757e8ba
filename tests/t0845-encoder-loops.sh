#!/bin/sh
# t0845-encoder-loops: the encoder (tool/dg_enc.c) reads the runs of a RAW
# record in a loop of its own when nothing can stop tracing inside it
# (tracing on, no --trace-icount window, no --trace-fn), else in the
# general loop; the loop of its own is one of two (--encoder-loop, a debug
# option: one run at a time, or 32 looked at ahead; by default it switches
# between them as contexts miss its caches), each forced here, and the
# switching on calltree, whose contexts make it switch.
# A window wider than the whole run (--trace-icount=0:10^15)
# sends every run through the general loop and traces all of them, so the
# logs of the same program (writes, mixed, jumps: heap blocks, calls,
# longjmp) must say the same: dg-dump --records (every run, context and
# stack; less the PROCESS and MMAP lines, which name the run's own options
# and mappings), --accesses and --stats.  The programs are deterministic
# but for a few stack addresses that the start-up's random bytes decide
# (AT_RANDOM): the one-run loop runs three times, and every line the three
# runs agree on must be the general loop's and the look-ahead loop's too,
# with as many lines (two runs agreed on a random address by chance about
# once in twelve).
. "$DG_TESTS/lib.sh"
need_tool
need_prog writes
need_prog mixed
need_prog jumps
need_prog calltree

# same_where_stable A B C G: A, B and C agree on a line => G has it too;
# the same number of lines in all four.
same_where_stable() {
	paste -d '|' "$1" "$2" "$3" "$4" | awk -F'|' '
		NF != 4 { bad++ } $1 == $2 && $2 == $3 && $4 != $1 { bad++ }
		END { exit bad > 0 }' &&
		[ "$(wc -l <"$1")" = "$(wc -l <"$4")" ] && [ "$(wc -l <"$2")" = "$(wc -l <"$4")" ] &&
		[ "$(wc -l <"$3")" = "$(wc -l <"$4")" ]
}

for p in writes mixed jumps; do
	for l in f h i; do
		run_dg "$p.$l.log" --encoder-loop=one -- "$DG_PROGS/$p" || finish
	done
	run_dg "$p.a.log" --encoder-loop=ahead -- "$DG_PROGS/$p" || finish
	run_dg "$p.g.log" --trace-icount=0:1000000000000000 -- "$DG_PROGS/$p" || finish
	check_status "$p: the log of the common loop is complete and valid" 0 \
		"$DG_DUMP" --check "$p.f.log"
	for m in --records --accesses --stats; do
		for l in f h i a g; do
			dump "$m" "$p.$l.log" "$p.$l.all" || finish
			grep -v -e '^process ' -e '^mmap ' "$p.$l.all" >"$p.$l.out"
		done
		check_status "$p: dg-dump $m the same through either loop" 0 \
			same_where_stable "$p.f.out" "$p.h.out" "$p.i.out" "$p.g.out"
		check_status "$p: dg-dump $m the same looking ahead" 0 \
			same_where_stable "$p.f.out" "$p.h.out" "$p.i.out" "$p.a.out"
	done
	check_cmp "$p: --stats the same through either loop" "$p.g.out" "$p.f.out"
	check_cmp "$p: --stats the same looking ahead" "$p.g.out" "$p.a.out"
	dump --stats "$p.f.log" "$p.f.stats" || finish
	check_gt "$p: runs recorded" 1000 "$(stat_of "$p.f.stats" runs)"
	check_gt "$p: accesses recorded" 100 "$(stat_of "$p.f.stats" accesses)"
done

# The default loop switches between the two as contexts miss its caches:
# calltree's first walk makes a new context on nearly every run (it reads
# ahead), its second finds most of them (one at a time).  The same log.
p=calltree
for l in f h i; do
	run_dg "$p.$l.log" -- "$DG_PROGS/$p" 2 || finish
done
run_dg "$p.g.log" --trace-icount=0:1000000000000000 -- "$DG_PROGS/$p" 2 || finish
for m in --records --accesses --stats; do
	for l in f h i g; do
		dump "$m" "$p.$l.log" "$p.$l.all" || finish
		grep -v -e '^process ' -e '^mmap ' "$p.$l.all" >"$p.$l.out"
	done
	check_status "$p: dg-dump $m the same through the switching loop" 0 \
		same_where_stable "$p.f.out" "$p.h.out" "$p.i.out" "$p.g.out"
done
check_cmp "$p: --stats the same through the switching loop" "$p.g.out" "$p.f.out"
dump --stats "$p.f.log" "$p.f.stats" || finish
check_gt "$p: thousands of contexts" 50000 "$(stat_of "$p.f.stats" contexts)"
finish
