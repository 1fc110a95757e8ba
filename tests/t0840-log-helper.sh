#!/bin/sh
# t0840-log-helper: the log is encoded and written by a helper process
# (tool/dg_hand.c).  With and without it (--log-helper=no) the log says
# the same; the helper is gone when the tool is, also when the tool is
# killed (it then writes what it was given: a log without FINI); a forked
# child gets its own helper and a complete log.  --helper-evict=no (the
# helper leaves its buffers in the caches) says the same.
. "$DG_TESTS/lib.sh"
need_tool
need_prog writes
need_prog fork
W=$DG_PROGS/writes

stats() { "$DG_DUMP" --stats "$1" | grep -E '^(records|bbdefs|contexts|runs|accesses|reads|writes) '; }

run_dg h.log -- "$W" || finish
run_dg n.log --log-helper=no -- "$W" || finish
check_status "helper: the log is complete and valid" 0 "$DG_DUMP" --check h.log
check_status "no helper: the log is complete and valid" 0 "$DG_DUMP" --check n.log
stats h.log >h.stats
stats n.log >n.stats
check_cmp "the same records, runs and accesses with and without the helper" n.stats h.stats
check_eq "the counts are there" 7 "$(wc -l <h.stats | tr -d ' ')"
# The helper's eviction of the buffers it has encoded is a cache matter.
run_dg e.log --helper-evict=no -- "$W" || finish
stats e.log >e.stats
check_cmp "the same with the helper not evicting its buffers" n.stats e.stats

# No helper outlives the tool.  Its command line is the tool's.
helpers() { pgrep -f -- "--datagrind-out-file=$1" | wc -l | tr -d ' '; }
check_eq "no helper left after exit" 0 "$(helpers "$PWD/h.log")"

# Killed with SIGKILL: the helper writes what it had and ends.
"$DATAGRIND" --datagrind-out-file="$PWD/k.log" sh -c 'while :; do :; done' \
	>/dev/null 2>k.err &
pid=$!
n=0
while [ ! -s k.log ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
sleep 1
kill -9 $pid
wait $pid 2>/dev/null
n=0
while [ "$(helpers "$PWD/k.log")" != 0 ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
check_eq "killed tool: its helper ends too" 0 "$(helpers "$PWD/k.log")"
"$DG_DUMP" --stats k.log >k.stats 2>&1
check_eq "killed tool: the log holds what was handed over (runs)" yes \
	"$(awk '$1 == "runs" && $2 > 0 { print "yes" }' k.stats)"
check_eq "killed tool: the log says it is not complete" "complete 0" \
	"$(grep '^complete' k.stats)"

# fork: parent and child each have a complete log.
"$DATAGRIND" --datagrind-out-file=f.%p.log "$DG_PROGS/fork" >/dev/null 2>f.err
n=0
for f in f.*.log; do
	"$DG_DUMP" --check "$f" >/dev/null 2>&1 && n=$((n + 1))
done
check_eq "fork: two complete logs" 2 "$n"
finish
