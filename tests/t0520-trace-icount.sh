#!/bin/sh
# t0520-trace-icount: --trace-icount=FROM:TO traces the instructions counted
# FROM to TO.  A full trace of tests/progs/writes.c gives the icount of
# fill's first write to the block (FROM) and of sum's last read (LAST); a
# second run with --trace-icount=FROM:LAST+1 must trace all 200 accesses to
# the block and, inside the window, the same accesses (icount, pc,
# direction, size) as the full trace.  Outside it, per docs/FORMAT.md 2.15
# (tracing is decided per run), only the one run that contains FROM may add
# accesses before FROM, and nothing is traced at or after TO.
. "$DG_TESTS/lib.sh"
need_tool
need_prog writes
W=$DG_PROGS/writes

run_dg full.log -- "$W" || finish
dump --accesses full.log full.acc || finish
dump --blocks full.log full.blocks || finish
blocks_from full.blocks "$W" main 400 >blk
[ -s blk ] || bail "the 400-byte block is in the full trace"
read -r addr size alloc free rest <blk
lo=$(echo "$addr" | dgawk '{ print hex($1) }')
accesses_in full.acc "$lo" $((lo + 400)) "$alloc" "$free" >full.blk
from=$(head -n 1 full.blk | awk '{ print $2 }')
last=$(tail -n 1 full.blk | awk '{ print $2 }')
check_gt "window is not empty" "$from" "$last"
to=$((last + 1))

run_dg win.log --trace-icount="$from:$to" -- "$W" || finish
dump --accesses win.log win.acc || finish
dump --blocks win.log win.blocks || finish
check_eq "windowed: block has 100 reads and 100 writes" "100 100" \
	"$(blocks_from win.blocks "$W" main 400 | awk '{ print $5, $6 }')"
dump --records win.log win.recs || finish
# The first run after the window opened: it must contain FROM.
firstrun=$(awk '/^trace_state on=1 reason=3/ { f = 1; next }
	f && $1 == "run" { for (i = 2; i <= NF; i++) if ($i ~ /^(icount|n_instrs)=/) { sub(/^[a-z_]+=/, "", $i); printf "%s ", $i }; exit }' win.recs)
rs=${firstrun%% *}
rn=$(echo "$firstrun" | awk '{ print $2 }')
check_eq "windowed: the first traced run contains FROM ($from)" yes \
	"$([ -n "$rs" ] && [ "$rs" -le "$from" ] && [ $((rs + rn)) -gt "$from" ] && echo yes || echo "no: run at '$rs' of '$rn' instructions")"
awk -v f="${rs:-$from}" -v t="$to" '$2 < f || $2 >= t' win.acc >outside
check_empty "windowed: nothing before that run or at/after TO ($to)" outside
awk -v f="${rs:-$from}" -v t="$last" '$2 >= f && $2 <= t { print $2, $3, $4, $5 }' full.acc >full.win
awk -v f="${rs:-$from}" -v t="$last" '$2 >= f && $2 <= t { print $2, $3, $4, $5 }' win.acc >win.win
check_cmp "windowed: same accesses as the full trace from that run to LAST" full.win win.win
check_eq "windowed: tracing switched on once by the icount window (reason 3)" 1 \
	"$(grep -c '^trace_state on=1 reason=3' win.recs)"
finish
