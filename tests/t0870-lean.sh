#!/bin/sh
# t0870-lean: until tracing starts (--trace-at-start=no) the program is
# translated lean (tool/dg_instr.h): no access stored, every run counted
# in the guest state; by default (--heap-stacks=unwind) no run makes an
# entry, and each malloc's and free's stack is unwound by the tool
# (tool/dg_calls.h), every thread's too when tracing starts, to seed the
# shadow stacks; with --heap-stacks=replay (and with --trace-fn) the
# blocks that write SP or start a --trace-fn function make entries and
# the encoder replays the calls.  Either way the log is the one full
# translations give (--lean=no), record for record but PROCESS (the pid):
# every heap block with its stacks (the unwound ones with recursion
# folded as the replay folds it) and instruction counts, the ICOUNTs,
# FINI's icount and dropped runs; so for
#   heap, cxx (every allocation function, new and delete), dhatprog,
#   jumps (a longjmp; a siglongjmp out of a handler of a raised signal,
#   and of a fault's; two coroutines on stacks of their own), throws (a
#   C++ exception), signals
#   and sqlite3 inserting 2000 rows one INSERT each;
#   tracing (30 writes, START_TRACING, 50 writes, STOP_TRACING, 70): lean
#   until START, then every block translated again: the same runs and
#   accesses, the 50 writes; with --trace-fn=main too; with an icount
#   window around START (no lean translation then);
#   fork: the child's log too.
# threads (the schedule differs from run to run): the workers' blocks
# with the worker's stack, each allocated by a thread of its own.
# Both command lines are equally long: the length moves the client's
# stack, and sqlite3's path through its code with it.
. "$DG_TESTS/lib.sh"
. "$DG_TOP/bench/gen.sh"      # gen_sql_rows: the sqlite3 script of bench/real.sh's sqlrows
need_tool
for p in heap cxx dhatprog jumps throws signals tracing threads fork; do
	need_prog $p
done

# same NAME: NAME.y.log (lean) and NAME.n.log say the same.
same() {
	check_status "$1: the lean log is complete and valid" 0 "$DG_DUMP" --check "$1.y.log"
	dump --records "$1.y.log" "$1.y.all" && dump --records "$1.n.log" "$1.n.all" || return 1
	grep -v '^process ' "$1.y.all" >"$1.y.recs"
	grep -v '^process ' "$1.n.all" >"$1.n.recs"
	check_cmp "$1: every record the same, lean or not" "$1.n.recs" "$1.y.recs"
}

# lean NAME ARGS -- PROG ARGS: traced both ways, heap only until START.
lean() {
	_n=$1
	shift
	run_dg "$_n.y.log" --trace-at-start=no --lean=yes "$@" || return 1
	run_dg "$_n.nn.log" --trace-at-start=no --lean=no "$@" || return 1
	mv "$_n.nn.log" "$_n.n.log"
}

for p in heap cxx dhatprog throws signals; do
	lean $p -- "$DG_PROGS/$p" && same $p
done
# the calls replayed instead of the stacks unwound (same-length lines)
lean cxx-replay --heap-stacks=replay -- "$DG_PROGS/cxx" && same cxx-replay
cmp -s cxx.y.recs cxx-replay.y.recs
check_eq "cxx: heap stacks unwound = heap stacks replayed" 0 "$?"
for a in longjmp signal fault coro; do
	lean jumps-$a -- "$DG_PROGS/jumps" $a && same jumps-$a
done
grep -h '^fini ' heap.y.recs throws.y.recs >fini
check_eq "heap, throws: runs counted, all dropped" "0 0" \
	"$(awk '{ split($3, r, "="); split($6, d, "="); print (r[2] == 0 && d[2] > 30000) ? 0 : 1 }' fini | tr '\n' ' ' | sed 's/ $//')"
check_gt "jumps (coroutines): heap blocks with stacks" 0 \
	"$(grep -c '^malloc_block .*stack=0x' jumps-coro.y.recs)"

if command -v sqlite3 >/dev/null 2>&1; then
	gen_sql_rows 2000 >rows.sql
	DG_STDIN=rows.sql
	lean sqlite -- sqlite3 :memory: -init /dev/null && same sqlite
	DG_STDIN=
	check_gt "sqlite: a block a row at least" 2000 "$(grep -c '^malloc_block ' sqlite.y.recs)"
else
	skip "sqlite3 is not installed"
fi

lean tracing -- "$DG_PROGS/tracing" && same tracing
# --trace-fn (main's blocks start the function), and an icount window
# (lean is off then: the window's state at START follows the last run)
lean tracing-fn --trace-fn=main -- "$DG_PROGS/tracing" && same tracing-fn
lean tracing-win --trace-icount=130000:150000 -- "$DG_PROGS/tracing" && same tracing-win
dump --accesses tracing.y.log tracing.acc
g=$(sym_addr "$DG_PROGS/tracing" g)
accesses_in tracing.acc "$g" $((g + 400)) >tracing.g
check_eq "tracing: the 50 writes of g between START and STOP, traced in full" "0 50" \
	"$(count_dir tracing.g R) $(count_dir tracing.g W)"

for l in y n; do
	opt=yes n=$l; [ $l = n ] && opt=no n=nn
	run_dg "thr.$n.log" --trace-at-start=no --lean=$opt -- "$DG_PROGS/threads" || continue
	dump --blocks "thr.$n.log" "thr.$l.blocks" || continue
	blocks_from "thr.$l.blocks" "$DG_PROGS/threads" worker >"thr.$l.worker"
	check_eq "threads ($l): four blocks from worker, one stack" "4 1" \
		"$(wc -l <"thr.$l.worker" | tr -d ' ') $(awk '{ print $9 }' "thr.$l.worker" | sort -u | wc -l | tr -d ' ')"
done
check_eq "threads: the workers' stack the same, lean or not" \
	"$(awk '{ print $9; exit }' thr.n.worker)" "$(awk '{ print $9; exit }' thr.y.worker)"

cpid_of() { cat child.pid 2>/dev/null; }
for l in y n; do
	opt=yes n=$l; [ $l = n ] && opt=no n=nn
	rm -f child.pid
	"$DATAGRIND" --datagrind-out-file="f.$n.%p.log" --trace-at-start=no --lean=$opt \
		"$DG_PROGS/fork" >f.out 2>f.err
	check_eq "fork ($l): traced exit status" 0 "$?" || diag_file f.err
	mv "f.$n.$(cpid_of).log" "fchild.$l.log"
done
same fchild
check_gt "fork: the child's log has its blocks" 0 "$(grep -c '^malloc_block ' fchild.y.recs)"
finish
