/* dg_calls.h: call sites by return address, and stacks unwound into the
 * frames the shadow stacks would have pushed.
 *
 * With --heap-stacks=unwind (the default) lean translations make no
 * entries at all (dg_instr.h), so the encoder replays no call until
 * tracing starts: a heap block's stack is unwound at its malloc or free
 * (Valgrind's unwinder, as massif and DHAT do), and every thread's stack
 * when tracing first starts, to seed its shadow stack.  The unwinder gives
 * return addresses and stack pointers; a shadow stack's nodes name call
 * instructions and their targets (dg_stack.h).  So every call block
 * translated is noted here, return address -> (call instruction, target
 * if direct), and an unwound stack comes out as struct dg_frame_in
 * (dg_recs.h), innermost first, for the encoder to intern.
 *
 * This module owns the table of call sites; it never forgets one (a call
 * translated, discarded and run again from the stack still returns there).
 */
#ifndef DG_CALLS_H
#define DG_CALLS_H

#include "pub_tool_basics.h"
#include "dg_recs.h"

void dg_calls_init(void);
/* A call block: its call instruction at call_pc returns to ret and goes
   to target, or somewhere else each time (target 0: indirect). */
void dg_calls_add(Addr ret, Addr call_pc, Addr target);
/* Up to max (<= DG_STACK_MAX_FRAMES) frames of tid's stack, innermost first,
   its current instruction left out (the frames are call sites); returns
   how many. */
UInt dg_calls_unwind(ThreadId tid, struct dg_frame_in *out, UInt max);

#endif
