/* dg_enc.h: the encoder: the tool's record stream in, the log out.
 *
 * Generated code appends one raw entry per block run to the open RAW
 * record of the stream (dg_out.h; the entries' layout is dg_recs.h), with
 * plain stores and no C call (see dg_instr.c).
 *
 * The encoder reads the stream in order, in the helper process or, without
 * one, in the tool (dg_hand.h): it learns the bbdefs from DEF records,
 * replays calls and returns on the shadow stacks (dg_stack.h), interns
 * (bbdef, stack) contexts, applies the tracing windows, writes BBDEF and
 * CONTEXT records before their first use and the runs as BBRUNS, through
 * the writer (dg_wr.h).  Events (CTL records) are applied where they stand,
 * and every other record is copied after exactly the runs before it.
 *
 * The encoder owns the contexts, the tracing state, the allocation stacks
 * of live heap blocks and the list of Valgrind's preloads (whose frames
 * heap stacks leave out).  A forked child's encoder starts from its
 * parent's state: the parent's encoder dumps it on DG_CTL_FORK, the tool
 * restores it in its own memory before the fork (dg_enc_restore), and the
 * child's encoder, in the tool or in a helper forked from it, has it.
 */
#ifndef DG_ENC_H
#define DG_ENC_H

#include "pub_tool_basics.h"

struct dg_enc_options {
	Bool  trace_at_start;
	Bool  use_fn;                  /* --trace-fn given */
	ULong icount_from, icount_to;  /* [from, to) */
	Bool  compact;                 /* BBCHAINS and CTXREF records */
	UChar loop;                    /* enum dg_enc_loop (--encoder-loop) */
};

/* How the encoder goes over the runs while tracing (dg_enc.c's raw_fast):
   chosen as it goes, or one of its two loops always (for tests). */
enum dg_enc_loop { DG_ENC_LOOP_AUTO, DG_ENC_LOOP_ONE, DG_ENC_LOOP_AHEAD };

/* In the tool, before a helper is forked. */
void dg_enc_init(const struct dg_enc_options *o);
/* Take n bytes of whole records of the stream. */
void dg_enc_consume(const UChar *buf, SizeT n);

/* The encoder's state for a forked child (dg_blob.h), as ctl_fork dumps
   it. */
struct dg_blob;
void dg_enc_restore(struct dg_blob *b);

#endif
