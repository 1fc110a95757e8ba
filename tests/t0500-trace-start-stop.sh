#!/bin/sh
# t0500-trace-start-stop: DATAGRIND_START_TRACING / STOP_TRACING and
# --trace-at-start=no (tests/progs/tracing.c: 30 writes to g, START, 50
# writes, STOP, 70 writes, 100 reads).
#   --trace-at-start=no: exactly the 50 middle writes of g are traced, and
#                        every traced access is main's (the window is in main)
#   default:             the first 80 writes of g, no read
# and the 50 writes carry the same instruction counts in both runs (ICOUNT
# keeps the count exact while tracing is off).
. "$DG_TESTS/lib.sh"
need_tool
need_prog tracing
P=$DG_PROGS/tracing

run_dg off.log --trace-at-start=no -- "$P" || finish
run_dg on.log -- "$P" || finish
check_eq "program output" 7245 "$(cat dg.out)"
for l in off on; do
	dump --accesses $l.log $l.acc || finish
	dump --records $l.log $l.recs || finish
	dump --stats $l.log $l.stats || finish
	check_eq "$l: log complete" 1 "$(stat_of $l.stats complete)"
done

g=$(sym_addr "$P" g)
main=$(sym_range "$P" main)

accesses_in off.acc "$g" $((g + 400)) >off.g
check_eq "trace-at-start=no: g gets exactly 50 writes, no read" "0 50" \
	"$(count_dir off.g R) $(count_dir off.g W)"
check_eq "trace-at-start=no: they are g[0..49] in order" \
	"$(seq 0 4 196 | tr '\n' ' ')" \
	"$(dgawk -v g="$g" '{ printf "%d ", hex($6) - g }' off.g)"
pcs_outside off.acc ${main% *} ${main#* } >off.outside
check_empty "trace-at-start=no: every traced access is made by main" off.outside
check_lt "trace-at-start=no: few accesses in all (< 1000)" 1000 "$(wc -l <off.acc | tr -d ' ')"
check_eq "trace-at-start=no: TRACE_STATE records (on:reason): off at start, on and off by request" \
	"0:0 1:1 0:1" \
	"$(awk '$1 == "trace_state" { sub("on=", "", $2); sub("reason=", "", $3); printf "%s%s:%s", s, $2, $3; s = " " }' off.recs)"

accesses_in on.acc "$g" $((g + 400)) >on.g
check_eq "tracing on at start: g gets the first 80 writes, no read" "0 80" \
	"$(count_dir on.g R) $(count_dir on.g W)"
check_eq "tracing on at start: the last TRACE_STATE is off by request" "on=0 reason=1" \
	"$(awk '$1 == "trace_state" { l = $2 " " $3 } END { print l }' on.recs)"
check_gt "tracing on at start: start-up code is traced too (> 1000 accesses)" 1000 \
	"$(wc -l <on.acc | tr -d ' ')"

tail -n 50 on.g | awk '{ print $2, $3, $4, $5 }' >on.window
awk '{ print $2, $3, $4, $5 }' off.g >off.window
check_cmp "the 50 traced writes have the same icount, pc, size in both runs" on.window off.window
finish
