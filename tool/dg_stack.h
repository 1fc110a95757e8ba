/* dg_stack.h: shadow call stacks and calling-context nodes.
 *
 * Instead of unwinding the real stack on every block run (what made the
 * 2010 tool slow), the encoder replays calls and returns as it reads runs:
 * a block that ends in a call pushes a frame (with the stack pointer after
 * the call), and every block's entry stack pointer is compared with the top
 * frame's: every frame whose return address lies below it is gone (a
 * return, a longjmp, an exception, a signal handler left by a jump), as
 * callgrind does.  The comparison is one subtraction on the hot path; the
 * rest is dg_stack_entry_slow.  Signal delivery pushes a marker: the
 * handler runs on top of the interrupted stack.
 *
 * There is one shadow stack per stack, not per thread: when SP moves above
 * the base of the current stack, or below where the previous block ran
 * right after a block that set SP anew (setcontext, swapcontext, a hand
 * made switch), or by more than DG_STACK_WINDOW, the thread has switched
 * stacks: its frames stay with the old stack, and the new one is the
 * stack last left at or just below SP (a coroutine resumed) or a new one.
 *
 * A node names a call stack truncated to its innermost `max_depth` call
 * sites, with recursive cycles folded (see node_child); nodes are interned, so equal stacks have equal node numbers.  Node 0
 * is the empty stack.  This module owns the node table, the shadow stacks
 * (a pool of at most 1024, the least recently used reused) and which one
 * each thread runs on.
 */
#ifndef DG_STACK_H
#define DG_STACK_H

#include "pub_tool_basics.h"

extern UInt dg_stack_cur_node;     /* node of the running thread's stack */
extern Addr dg_stack_ref_sp;       /* the top frame's SP, or 0: see below */
extern Addr dg_stack_prev_sp;      /* private to the inline below */

/* A drop of SP by more than this is taken for a stack switch (Valgrind's
   default --max-stackframe). */
#define DG_STACK_WINDOW  2000000ul

void dg_stack_init(UInt max_depth);
void dg_stack_switch(ThreadId tid);
void dg_stack_thread_reset(ThreadId tid);   /* a new thread reuses the id */
/* A call site's memo of its last push: from node `parent` to `target`
   it made node `child`.  parent = 0xFFFFFFFF when empty. */
struct dg_call_memo { UInt parent, child; Addr target; };

Bool dg_stack_entry_slow(Addr sp);
/* A block is entered with stack pointer sp: pop the frames it left, switch
   stacks if it moved to another.  Returns True if the stack changed. */
static inline Bool dg_stack_entry(Addr sp)
{
	if (dg_stack_ref_sp - sp < DG_STACK_WINDOW) {   /* at or below the top */
		dg_stack_prev_sp = sp;
		return False;
	}
	return dg_stack_entry_slow(sp);
}
/* The block just run set SP anew: look closely at the next entry. */
void dg_stack_sp_set(void);

/* call_pc points at the call's address: read only when the memo misses
   (the block's instructions are a cache miss of their own). */
void dg_stack_call(const Addr *call_pc, Addr sp, Addr target,
                   struct dg_call_memo *m);
void dg_stack_signal_enter(ThreadId tid, Addr sp, Bool alt);
void dg_stack_signal_exit(ThreadId tid);

/* Stacks the tool unwound (dg_calls.h), innermost first: the node of
   frames f pushed on node parent as dg_stack_call would have, each
   step's node in out[] (outermost first); and tid's shadow stack made of
   them, when tracing starts with no call replayed before. */
struct dg_frame_in;
UInt dg_stack_intern(UInt parent, const struct dg_frame_in *f, UInt n, UInt *out);
void dg_stack_seed(ThreadId tid, const struct dg_frame_in *f, UInt n);

/* Copy up to max frames of node, innermost first; returns how many. */
UInt dg_stack_frames(UInt node, Addr *out, UInt max);
/* A node's innermost call site and the node of the frames outside it
   (node 0, the empty stack, has neither: 0, 0); nodes are numbered from
   0 up, below dg_stack_n_nodes(). */
Addr dg_stack_node_pc(UInt node);
UInt dg_stack_node_rest(UInt node);
UInt dg_stack_n_nodes(void);

/* Everything into a blob (dg_blob.h) and back: a forked child's encoder
   (dg_enc.h). */
struct dg_blob;
void dg_stack_dump(struct dg_blob *b);
void dg_stack_restore(struct dg_blob *b);

/* --trace-fn bookkeeping, per shadow stack: inside the function or not. */
void dg_stack_fn_enter(void);
Bool dg_stack_in_fn(void);

#endif
