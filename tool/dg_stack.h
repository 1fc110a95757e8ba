/* dg_stack.h: shadow call stacks and calling-context nodes.
 *
 * Instead of unwinding the real stack on every block run (what made the
 * 2010 tool slow), the encoder replays calls and returns as it reads runs:
 * a block that ends in a call pushes a frame, one that ends in a return pops
 * every frame whose stack pointer lies below the new one (so longjmp and
 * exceptions unwind correctly at the next return).  Signal delivery pushes a
 * marker that returns cannot pop past.
 *
 * A node names a call stack truncated to its innermost `max_depth` call
 * sites, with recursive cycles folded (see node_child); nodes are interned, so equal stacks have equal node numbers.  Node 0
 * is the empty stack.  This module owns the node table and one frame stack
 * per thread.
 */
#ifndef DG_STACK_H
#define DG_STACK_H

#include "pub_tool_basics.h"

extern UInt dg_stack_cur_node;     /* node of the running thread's stack */

void dg_stack_init(UInt max_depth);
void dg_stack_switch(ThreadId tid);
void dg_stack_thread_reset(ThreadId tid);   /* a new thread reuses the id */
/* A call site's memo of its last push: from node `parent` to `target`
   it made node `child`.  parent = 0xFFFFFFFF when empty. */
struct dg_call_memo { UInt parent, child; Addr target; };

void dg_stack_call(Addr call_pc, Addr sp, Addr target, struct dg_call_memo *m);
void dg_stack_ret(Addr sp);
void dg_stack_signal_enter(ThreadId tid, Addr sp);
void dg_stack_signal_exit(ThreadId tid);

/* Copy up to max frames of node, innermost first; returns how many. */
UInt dg_stack_frames(UInt node, Addr *out, UInt max);

/* --trace-fn bookkeeping, per thread: inside the function or not. */
void dg_stack_fn_enter(void);
Bool dg_stack_in_fn(void);

#endif
