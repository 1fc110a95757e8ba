/* dg_stream.h: the tool's side of the record stream to the encoder.
 *
 * The program's core does as little per run as it can: generated code
 * appends raw run entries (dg_instr.c) straight into dg_out's buffer,
 * inside internal RAW records, and everything the encoder must know to
 * turn them into the log goes in the same stream, in order, as internal
 * records of its own.  The encoder (dg_enc.c) reads the stream in the
 * helper process, or in the tool with --log-helper=no, replays the calls
 * and returns, interns contexts and writes the log.  Internal records
 * never reach the file; every other record passes through as it is,
 * after the runs before it.
 *
 *   RAW   raw run entries (layout in dg_enc.h), back to back
 *   DEF   a new bbdef: u32 id, u8 n_instrs, u32 n_acc, u8 exit_kind,
 *         u8 fn_entry, u8 sets_sp, then per instruction u64 addr, u8 size,
 *         then per access u8 dir, size, iseq, flags
 *   CTL   an event: u8 op (enum dg_ctl), u64 a, b, c
 *   PAD   nothing: aligns the next RAW payload to 8 bytes
 *
 * This module owns nothing but the writing of DEF and CTL records.
 */
#ifndef DG_STREAM_H
#define DG_STREAM_H

#include "pub_tool_basics.h"
#include "dg_defs.h"

#define DG_S_PAD   124
#define DG_S_CTL   125
#define DG_S_DEF   126
#define DG_S_RAW   127
#define DG_S_FIRST 124       /* internal record types are DG_S_FIRST.. 127 */

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
	DG_CTL_MALLOC,        /* a: addr, b: size, c: table; stack from the
	                         shadow stack */
	DG_CTL_FREE,          /* a: addr, c: table */
	DG_CTL_HEAP_REPLAY,   /* a: addr, b: size, c: table: a live block again,
	                         with its allocation stack */
	DG_CTL_N
};

void dg_stream_ctl(UChar op, ULong a, ULong b, ULong c);
void dg_stream_def(UInt id, const struct dg_bbdef *d);

#endif
