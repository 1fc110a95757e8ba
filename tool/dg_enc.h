/* dg_enc.h: the raw run buffer and the encoder that turns it into the log.
 *
 * Generated code appends one entry per block run to the raw buffer, with
 * plain stores and no C call (see dg_instr.c).  An entry is
 *
 *     +0  u32 bbdef id
 *     +4  u32 info: 0 if the run reached the block's end, else
 *                   n_instrs | n_addrs << 8 | 1 << 31 (left by a side exit)
 *     +8  u64 stack pointer at the block's entry
 *     +16 u64 address of each access made, in bbdef order
 *         u64 stack pointer after the call (only call blocks that ran to
 *             the end)
 *         u64 call target (likewise)
 *
 * When the buffer is nearly full, or before any side record (heap block,
 * range, event, mapping, thread switch, signal) is written, the encoder
 * walks the entries in order: it replays calls and returns on the shadow
 * stacks, interns (bbdef, stack) contexts, applies the tracing windows, and
 * appends compact BBRUNS records to the log (docs/FORMAT.md §2.10).  So every
 * side record stands after exactly the accesses that happened before it.
 *
 * The encoder owns the contexts, the prediction state and the tracing state.
 */
#ifndef DG_ENC_H
#define DG_ENC_H

#include "pub_tool_basics.h"

extern Addr dg_raw_ptr;            /* next free byte; generated code moves it */
extern Addr dg_raw_limit_base;     /* end of the buffer */
#define DG_RAW_ENTRY_MAX  (1u << 14)   /* largest raw entry a block may make */
#define DG_RAW_ADDRS      16           /* offset of the addresses in an entry */

struct dg_enc_options {
	Bool  trace_at_start;
	ULong icount_from, icount_to;  /* [from, to) */
};

void dg_enc_init(const struct dg_enc_options *o);
/* Write the first THREAD and the initial tracing state (after the preamble). */
void dg_enc_start(Bool use_fn);
VG_REGPARM(0) void dg_enc_raw_overflow(void);

/* Encode every pending run and resynchronise the instruction count; call
   before writing any side record. */
void dg_enc_side_begin(void);

void dg_enc_thread(ThreadId tid);
void dg_enc_thread_created(ThreadId child);
/* A signal handler is entered (sp: the interrupted SP; alt: it runs on
   the alternate signal stack) or returns. */
void dg_enc_signal(ThreadId tid, Bool enter, Addr sp, Bool alt);
void dg_enc_client_tracing(Bool on);
/* Write FINI (how the process ended: enum dg_fini_end, and its status). */
void dg_enc_fini(UChar end, UInt status);

/* After fork, in the child: write contexts again and reset prediction. */
void dg_enc_replay(void);

ULong dg_enc_icount(void);
ULong dg_enc_accesses(void);

#endif
