/* dg_wr.h: the log writer: turns the record stream into the file.
 *
 * The tool frames every record in dg_out's buffer.  Runs are framed there
 * unencoded, in an internal RAWRUNS record that never reaches the file:
 *
 *     per run:  u32 context; u32 info (0: the whole block, else
 *               n_instrs | n_addrs << 8 | 1 << 31); u64 addrs[n_addrs]
 *
 * The number of accesses of a whole run, and where its context's
 * prediction slots are, the writer learns from the BBDEF and CONTEXT
 * records that pass through it (a context's slots follow those of the
 * contexts before it). *
 * The writer copies every other record as it is and turns each RAWRUNS
 * into one BBRUNS (docs/FORMAT.md §2.10), so the records keep their number
 * and order.  It owns the prediction state (two words per access slot of a
 * context, zero until first use), the file descriptor's writes and their
 * failure: after a failed write it says so once (bytes that reached the
 * file, and why) and drops the rest.
 *
 * The writer runs in the helper process (dg_hand.c) when there is one,
 * else in the tool itself; nothing here knows which.  Its counters live in
 * a struct dg_wr_state that the caller places (shared memory for a helper)
 * so that the tool can read them.
 */
#ifndef DG_WR_H
#define DG_WR_H

#include "pub_tool_basics.h"

#define DG_R_RAWRUNS     127     /* internal: never written to a file */
#define DG_RAWRUN_HEAD   8       /* bytes before a raw run's addresses */

struct dg_wr_state {
	volatile UWord err;      /* errno that stopped the log, or 0 */
	volatile ULong disk;     /* bytes the file received (its offset) */
};

/* Start writing to fd (the log at path, for messages); st starts zeroed. */
void dg_wr_init(Int fd, const HChar *path, struct dg_wr_state *st);
/* Take the n bytes of whole records at buf (the writer keeps no pointer
   into buf); dg_wr_flush puts everything taken into the file (or fails). */
void dg_wr_consume(const UChar *buf, SizeT n);
void dg_wr_flush(void);
/* A forked child starts a new log: no bbdef or context known yet, and
   prediction starts again from zero. */
void dg_wr_reset(void);
/* Message text of an errno a log write can meet. */
const HChar *dg_wr_strerror(UWord err);

#endif
