/* dg_enc.h: the encoder: the tool's record stream in, the log out.
 *
 * Generated code appends one raw entry per block run to the open RAW
 * record of the stream (dg_out.h, dg_stream.h), with plain stores and no C
 * call (see dg_instr.c).  An entry has the bbdef's full size, whatever
 * the run did (bbdef raw_size); it is
 *
 *     +0  u32 bbdef id, bit 31 set while the run is not finished
 *     +4  u32 info: 0 if the run reached the block's end,
 *                   n_instrs | n_addrs << 8 | 1 << 31 if a side exit left
 *                   it, DG_RAW_UNFINISHED if a fault cut it short before
 *                   any side exit (the entry is skipped)
 *     +8  u64 stack pointer when the run left the block (side exit or
 *             end), only for blocks that write SP (bbdef writes_sp); the
 *             encoder knows SP at each run's entry: the last one a run
 *             said, or the one a DG_CTL_THREAD record gave when the
 *             thread went back to generated code (nothing else moves SP)
 *     +8 or +16 (bbdef addr_off)
 *         u64 address of each access made, in bbdef order (a run left
 *             early leaves the rest unwritten)
 *         u64 stack pointer after the call (only call blocks that ran to
 *             the end)
 *         u64 call target (likewise)
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

#define DG_RAW_ENTRY_MAX  (1u << 14)   /* largest raw entry a block may make */
#define DG_RAW_ADDRS      16           /* offset of the addresses in an entry
                                          of a block that writes SP (else 8) */
/* The head (id and info as one u64) a run opens its entry with: a
   sign-extended 32-bit immediate, one store; and its info word. */
#define DG_RAW_HEAD_OPEN(id)  (0xFFFFFFFF80000000ULL | (ULong)(id))
#define DG_RAW_ID_MASK        0x7FFFFFFFu
#define DG_RAW_UNFINISHED     0xFFFFFFFFu

struct dg_enc_options {
	Bool  trace_at_start;
	Bool  use_fn;                  /* --trace-fn given */
	ULong icount_from, icount_to;  /* [from, to) */
	Bool  compact;                 /* BBCHAINS and CTXREF records */
};

/* In the tool, before a helper is forked. */
void dg_enc_init(const struct dg_enc_options *o);
/* Take n bytes of whole records of the stream. */
void dg_enc_consume(const UChar *buf, SizeT n);

/* The encoder's state for a forked child (dg_blob.h), as ctl_fork dumps
   it. */
struct dg_blob;
void dg_enc_restore(struct dg_blob *b);

#endif
