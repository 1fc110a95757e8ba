#!/bin/sh
# t0510-trace-fn: --trace-fn=NAME traces only while NAME is on the stack.
# tests/progs/writes.c with 3 rounds calls fill() 3 times (300 writes to the
# block) and sum() once (100 reads).
. "$DG_TESTS/lib.sh"
need_tool
need_prog writes
W=$DG_PROGS/writes
fill=$(sym_range "$W" fill)
sum=$(sym_range "$W" sum)

run_dg fill.log --trace-fn=fill -- "$W" 3 || finish
check_eq "program output" "sum 4950" "$(cat dg.out)"
dump --accesses fill.log fill.acc || finish
dump --blocks fill.log fill.blocks || finish
dump --records fill.log fill.recs || finish
check_eq "--trace-fn=fill: block has 0 reads, 300 writes, 1200 bytes written" "0 300 1200" \
	"$(blocks_from fill.blocks "$W" main 400 | awk '{ print $5, $6, $8 }')"
pcs_outside fill.acc ${fill% *} ${fill#* } >fill.outside
check_empty "--trace-fn=fill: every access is made by fill's code" fill.outside
check_ge "--trace-fn=fill: accesses were traced" 300 "$(wc -l <fill.acc | tr -d ' ')"
check_eq "--trace-fn=fill: tracing switched on 3 times for fill" 3 \
	"$(grep -c '^trace_state on=1 reason=2' fill.recs)"

run_dg sum.log --trace-fn=sum -- "$W" 3 || finish
dump --accesses sum.log sum.acc || finish
dump --blocks sum.log sum.blocks || finish
check_eq "--trace-fn=sum: block has 100 reads, 0 writes" "100 0 400" \
	"$(blocks_from sum.blocks "$W" main 400 | awk '{ print $5, $6, $7 }')"
pcs_outside sum.acc ${sum% *} ${sum#* } >sum.outside
check_empty "--trace-fn=sum: every access is made by sum's code" sum.outside
finish
