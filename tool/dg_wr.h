/* dg_wr.h: the log writer: frames records into the file.
 *
 * The encoder (dg_enc.c) writes every record of the log through here: its
 * own (BBDEF, CONTEXT, ICOUNT, THREAD, ...) framed field by field, runs
 * one by one into a BBRUNS record (docs/FORMAT.md §2.10, coded by
 * lib/dgcodec.h, the readers' codec), and the tool's
 * side records copied as they are.  The writer learns from the BBDEF and
 * CONTEXT records it frames how many accesses each context has and where
 * its prediction slots are (a context's slots follow those of the
 * contexts before it).  It owns the prediction state (two words per
 * access slot of a context, zero until first use), the output buffer, the
 * file descriptor's writes and their failure: after a failed write it
 * says so once (bytes that reached the file, and why) and drops the rest.
 * With a helper, the tool process may do some of those writes for it
 * (write-behind, dg_wr_init); the state they share says who does which.
 *
 * The writer runs in the helper process (dg_hand.c) when there is one,
 * else in the tool itself; nothing here knows which.  Its counters live in
 * a struct dg_wr_state that the caller places (shared memory for a helper)
 * so that the tool can read them.
 */
#ifndef DG_WR_H
#define DG_WR_H

#include "pub_tool_basics.h"
#include "dgcodec.h"      /* the run codec, shared with the readers */

struct dg_wr_state {
	volatile UWord err;      /* errno that stopped the log, or 0 */
	volatile ULong disk;     /* bytes the file received (its offset) */
	volatile ULong records;  /* records framed so far */
	volatile ULong icount, accesses;   /* the encoder's, at FINI */
	/* Write-behind (below): [behind_p, +behind_n) waits to be written
	   (READY), or the process of pid behind - DG_WR_BEHIND_BUSY writes
	   it, or there is none (NONE). */
	volatile UInt  behind;
	UChar * volatile behind_p;
	volatile SizeT behind_n;
	volatile ULong behind_other;  /* bytes the other process wrote */
};
enum { DG_WR_BEHIND_NONE, DG_WR_BEHIND_READY, DG_WR_BEHIND_BUSY };

/* Start writing to fd (the log at path, for messages), and the same bytes
   to tee unless it is -1 (the log kept beside an importer's pipe: a
   failed write to either stops both); st starts zeroed.  shared is NULL,
   or DG_WR_SHARED bytes that another process maps at the same address
   and whose st it shares: then the writer fills one half of it while the
   other half's bytes wait for write(2), by whichever process gets to them
   first (write-behind: the tool, when the helper is behind, takes
   write(2) off the helper's busy core, a piece at a time, and goes back
   to the program as soon as the helper wants more: dg_hand.c).
   The writer writes what is left itself before it reuses their half and
   on every flush, so dg_wr_flush still means "the file has it all". */
#define DG_WR_BUF_SIZE  (4u << 20)
#define DG_WR_SHARED    (2 * DG_WR_BUF_SIZE)
void dg_wr_init(Int fd, Int tee, const HChar *path, struct dg_wr_state *st,
                UChar *shared);
/* The other process: attach to the same fds, path and st (NULL: detach);
   dg_wr_behind writes the bytes waiting, if any and nobody has taken them
   (True then; the bytes count as written if the log had failed): a
   piece of them, the rest waits for the next call or for the writer. */
void dg_wr_behind_attach(Int fd, Int tee, const HChar *path,
                         struct dg_wr_state *st);
Bool dg_wr_behind(void);
struct dg_wr_state *dg_wr_state(void);
/* Put everything framed into the file (or fail); _maybe only once a
   good write's worth is waiting.  Never while runs are open. */
void dg_wr_flush(void);
void dg_wr_flush_maybe(void);
/* A forked child starts a new log: no bbdef or context known yet, and
   prediction starts again from zero. */
void dg_wr_reset(void);
/* Message text of an errno a log write can meet. */
const HChar *dg_wr_strerror(UWord err);

/* Records.  A short record's payload stays below 255 bytes, a long one's
   below 64 KiB. */
void dg_wr_begin_short(UChar type);
void dg_wr_begin_long(UChar type);
void dg_wr_u8(UChar v);
void dg_wr_u32(UInt v);
void dg_wr_u64(ULong v);
void dg_wr_uleb(ULong v);
void dg_wr_end(void);
/* A whole record of the tool's, [p, p + n), as it is. */
void dg_wr_copy(const UChar *p, SizeT n);

/* Runs: between runs_begin and runs_end every dg_wr_run_cur adds one run of
   context c (info: 0 for the whole block, else n_instrs | n_addrs << 8 |
   1 << 31) to a BBCHAINS record, or a BBRUNS one after
   dg_wr_chains(False) (docs/FORMAT.md §2.10, §2.17); runs_end drops an
   empty one. */
void  dg_wr_chains(Bool on);    /* before the first run; default on */
void  dg_wr_runs_begin(void);
void  dg_wr_runs_end(void);
SizeT dg_wr_runs_len(void);     /* payload bytes of the open record */

/* dg_wr_run_cur is inline: the encoder calls it for every run.  Private
   state, only the inline uses it: the cursor of the open record, the end
   of its room, the prediction slots and each context's place in them and
   successor, the previous run (BBRUNS) or the chain state (BBCHAINS). */
struct dg_wr_ctx { UInt slot, n_acc; struct dgc_next next; };
extern UChar *dg_wr_o_, *dg_wr_o_end_;
extern uint64_t *dg_wr_slots_;
extern struct dg_wr_ctx *dg_wr_ctxs_;
extern UInt dg_wr_prev_;
extern Bool dg_wr_chains_;
extern struct dgc_chain dg_wr_chain_;
void dg_wr_run_room_(void);     /* close, write, reopen */

/* The writer's state a run touches, as a caller's local: a loop that
   writes many runs keeps it in registers (the bytes it stores through a
   char pointer could alias any global, so globals are reloaded after
   every byte).  Between get and put the globals are stale: put before
   calling anything of the writer's, get after. */
struct dg_wr_cur {
	UChar *o, *end;
	uint64_t *slots;
	struct dg_wr_ctx *ctxs;
	struct dgc_chain chain;
	UInt prev;
	Bool chains;
};

static inline __attribute__((always_inline))
void dg_wr_cur_get(struct dg_wr_cur *k)
{
	k->o = dg_wr_o_;
	k->end = dg_wr_o_end_;
	k->slots = dg_wr_slots_;
	k->ctxs = dg_wr_ctxs_;
	k->chain = dg_wr_chain_;
	k->prev = dg_wr_prev_;
	k->chains = dg_wr_chains_;
}

static inline __attribute__((always_inline))
void dg_wr_cur_put(const struct dg_wr_cur *k)
{
	dg_wr_o_ = k->o;
	dg_wr_chain_ = k->chain;
	dg_wr_prev_ = k->prev;
}

/* Each address is predicted from the last two of its slot (stride).
   n is the run's address count, which the caller knows. */
static inline __attribute__((always_inline))
void dg_wr_run_cur(struct dg_wr_cur *k, UInt c, UInt info, const ULong *a,
                   UInt n)
{
	UChar *o;

	if (k->o + DGC_RUN_MAX(n) > k->end) {
		dg_wr_cur_put(k);
		dg_wr_run_room_();
		dg_wr_cur_get(k);
	}
	if (k->chains) {
		o = dgc_put_chain_head(k->o, &k->chain,
		                       &k->ctxs[k->chain.prev].next, c, info, n, 64);
	} else {
		o = dgc_put_head(k->o, c, k->prev, info != 0, dgc_info_instrs(info), n, 64);
		k->prev = c;
	}
	if (n)
		o = dgc_put_addrs(o, k->slots + 2 * (SizeT)k->ctxs[c].slot,
		                  (const uint64_t *)a, n, 64);
	k->o = o;
}

#endif
