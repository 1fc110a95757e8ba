#!/bin/sh
# t0830-stacks: call stacks stay right when frames are left without a
# return (tests/progs/jumps.c, throws.cc).  After a longjmp out of
# jmp1 -> jmp2 -> jmp3, after a siglongjmp out of a signal handler raised in
# s1 -> s2, or entered by a fault (a write through a null pointer in
# f1 -> f2: the run cut short is dropped and no access at address 0 is
# logged), and after coroutines (makecontext/swapcontext, two stacks in one
# malloc'd area) have run, every access of after_jump has the stack
# after_jump < main < (libc's start-up only): none of the abandoned frames.
# Its 2220-byte block gets exactly 555 writes.  Each coroutine's co_work
# runs with exactly the stack co_work < co_a (or co_b): one shadow stack per
# stack.  After a C++ exception thrown in t3 (t1 -> t2 -> t3) and caught in
# main, after_throw has the stack after_throw < main < ...; the later normal
# call chain gives t3 < t2 < t1 < main < ...  Stacks are read from the
# database dg-import makes (symbolized frames, innermost first).
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-import.sh"
need_tool
need_import
need_prog jumps
need_prog throws

# stacks_of DB FN: every distinct stack of the contexts whose block is in
# function FN, as "f0 < f1 < ..." lines, sorted.
stacks_of() {
	q "$1" "WITH fr AS (SELECT sf.stack_id, sf.depth, coalesce(f.name, '?') AS name
	              FROM stack_frames sf LEFT JOIN pcs p ON p.pc = sf.pc AND p.module_id = sf.module_id
	              LEFT JOIN functions f ON f.id = p.function_id)
	 SELECT DISTINCT (SELECT group_concat(name, ' < ') FROM
	                  (SELECT name FROM fr f2 WHERE f2.stack_id = c.stack_id ORDER BY depth))
	 FROM contexts c JOIN fr ON fr.stack_id = c.stack_id AND fr.depth = 0
	 WHERE fr.name = '$2'" | sort
}

# from_main DB FN: FN's stacks must all be "FN < main < ..." with nothing
# of the program's own code after main.  Without libc6-dbg (a fresh
# Debian), libc's __libc_start_call_main is in no symbol table left and is
# named by its address, 0x271d0: one such frame, right after main; the
# program's own code all has names.
from_main() {
	stacks_of "$1" "$2" >"$1.$2.stacks"
	check_eq "$1: $2 has stacks" yes "$([ -s "$1.$2.stacks" ] && echo yes || echo no)"
	grep -v -E "^$2 < main( < 0x[0-9a-f]+)?( < (__libc_start_call_main|__libc_start_main_impl|__libc_start_main|_start))*\$" \
		"$1.$2.stacks" >"$1.$2.bad"
	check_empty "$1: every stack of $2 is $2 < main < start-up code" "$1.$2.bad"
}

for m in longjmp signal fault coro; do
	run_dg "$m.log" -- "$DG_PROGS/jumps" "$m" || continue
	import_ok "$m.log" "$m.db" || continue
	from_main "$m.db" after_jump
	check_eq "$m: after_jump's block: 555 writes" 555 \
		"$(q "$m.db" 'SELECT writes FROM blocks WHERE size = 2220')"
done
dump --accesses fault.log fault.acc &&
	accesses_in fault.acc 0 4096 >fault.at0 &&
	check_empty "fault: no access to the null page (the faulting write was not made)" fault.at0
check_eq "coro: co_work's stacks, one per coroutine" "co_work < co_a|co_work < co_b" \
	"$(stacks_of coro.db co_work | tr '\n' '|' | sed 's/|$//')"
check_eq "coro: each coroutine's block: 30 writes" "30|30" \
	"$(q coro.db 'SELECT writes FROM blocks WHERE size = 40' | tr '\n' '|' | sed 's/|$//')"

run_dg throws.log -- "$DG_PROGS/throws" || finish
import_ok throws.log throws.db || finish
from_main throws.db after_throw
stacks_of throws.db t3 >t3.stacks
check_eq "throws: t3's stack" 1 \
	"$(grep -c -E '^t3 < t2 < t1 < main( < [^<]+)*$' t3.stacks)" || diag_file t3.stacks
check_eq "throws: the block: 333 + 7 writes" 340 \
	"$(q throws.db 'SELECT writes FROM blocks WHERE size = 1332')"
finish
