/* dg_recs.h: the record stream's own format: internal records, events and
 * raw run entries.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 *
 * The program's core does as little per run as it can: generated code
 * appends raw run entries (dg_instr.c) straight into dg_out's buffer,
 * inside internal RAW records, and everything the encoder must know to
 * turn them into the log goes in the same stream, in order, as internal
 * records of its own (written by dg_stream.c and dg_out.c).  The encoder
 * (dg_enc.c) reads the stream in the helper process, or in the tool with
 * --log-helper=no.  Internal records never reach the file; every other
 * record passes through as it is, after the runs before it.
 *
 *   RAW   raw run entries (below), back to back
 *   DEF   a new bbdef: u32 id, u8 n_instrs, u32 n_acc, u8 exit_kind,
 *         u8 fn_entry, u8 flags (dg_defs.h), then per instruction u64 addr, u8 size,
 *         then per access u8 dir, size, iseq, flags
 *   CTL   an event: u8 op (enum dg_ctl), u64 a, b, c
 *   STACK a stack unwound by the tool (dg_calls.h): u8 kind (enum
 *         dg_stack_kind), u32 tid, u32 keep, u32 n, then n struct
 *         dg_frame_in, innermost first: the stack is these n frames on
 *         the outermost `keep` frames of the last HEAP stack (0 for SEED)
 *   PAD   nothing: aligns the next RAW payload to 8 bytes
 *
 * While tracing has not started (--trace-at-start=no) blocks are
 * translated lean (dg_instr.h): a block that does not write SP and is not
 * a --trace-fn entry makes no entry at all, only counts its instructions
 * and itself in two words of dg_out's (DG_CTL_COUNTS hands them on before
 * every other record); with --heap-stacks=replay the others make entries
 * of a lean bbdef, with no accesses, that the encoder uses for the call
 * stacks only; by default (unwind) none does, and each MALLOC and FREE
 * is preceded by a STACK of kind HEAP, and the first START_TRACING by a
 * STACK of kind SEED for every thread.
 *
 * A raw entry is one block run, with the bbdef's full size, whatever the
 * run did (bbdef raw_size); it is
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
 * This header is the format only: it owns no state and no code, and sits
 * below both the stream's writers and its reader.
 */
#ifndef DG_RECS_H
#define DG_RECS_H

#include "pub_tool_basics.h"

#define DG_S_STACK 123
#define DG_S_PAD   124
#define DG_S_CTL   125
#define DG_S_DEF   126
#define DG_S_RAW   127
#define DG_S_FIRST 123       /* internal record types are DG_S_FIRST.. 127 */

/* A frame of an unwound stack as the shadow stacks would have pushed it
   (dg_stack.h): the call instruction, its target (for an indirect call,
   which the unwinder does not tell, ~return address: a function no other
   call site reaches), the SP after the call. */
struct dg_frame_in { ULong pc, fn, sp; };
#define DG_STACK_MAX_FRAMES 64   /* in one STACK record */

enum dg_stack_kind {
	DG_STACK_HEAP,        /* the stack of the MALLOC or FREE that follows */
	DG_STACK_SEED         /* tid's stack when tracing starts: its shadow */
};

enum dg_ctl {
	DG_CTL_SYNC,          /* runs so far, and an ICOUNT if due */
	DG_CTL_START,         /* the first THREAD and tracing state */
	DG_CTL_THREAD,        /* a: thread id now running (generated code
	                         resumes), b: its SP */
	DG_CTL_THREAD_NEW,    /* a: thread id reused by a new thread */
	DG_CTL_SIGNAL_ENTER,  /* a: tid, b: interrupted SP, c: alternate stack */
	DG_CTL_SIGNAL_EXIT,   /* a: tid */
	DG_CTL_TRACING,       /* a: client request on (1) or off (0) */
	DG_CTL_FINI,          /* a: enum dg_fini_end, b: status */
	DG_CTL_FORK,          /* the encoder's state to the tool (dg_hand.h) */
	DG_CTL_REPLAY,        /* a forked child's log: definitions again */
	DG_CTL_PRELOAD,       /* a, b: [start, end) of a Valgrind preload */
	DG_CTL_MALLOC,        /* a: addr, b: size, c: table | DG_CTL_UNWOUND;
	                         stack from the shadow stack, or with
	                         DG_CTL_UNWOUND the STACK just before */
	DG_CTL_FREE,          /* a: addr, c: table | DG_CTL_UNWOUND */
	DG_CTL_HEAP_REPLAY,   /* a: addr, b: size, c: table: a live block again,
	                         with its allocation stack */
	DG_CTL_COUNTS,        /* a: instructions, b: runs that lean code ran
	                         since the last COUNTS (dg_out.h) */
	DG_CTL_N
};

#define DG_CTL_UNWOUND    2            /* MALLOC, FREE: see above */

#define DG_RAW_ENTRY_MAX  (1u << 14)   /* largest raw entry a block may make */
#define DG_RAW_ADDRS      16           /* offset of the addresses in an entry
                                          of a block that writes SP (else 8) */
/* The head (id and info as one u64) a run opens its entry with: a
   sign-extended 32-bit immediate, one store; and its info word. */
#define DG_RAW_HEAD_OPEN(id)  (0xFFFFFFFF80000000ULL | (ULong)(id))
#define DG_RAW_ID_MASK        0x7FFFFFFFu
#define DG_RAW_UNFINISHED     0xFFFFFFFFu

#endif
