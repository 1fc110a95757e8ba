/* dg_hand.h: hand the record stream over to a helper process.
 *
 * Valgrind runs the program on one core at a time; encoding the runs and
 * writing the log is done on another.  At start-up (and in a forked child,
 * when its log is created) the tool forks a helper process that shares
 * DG_HAND_SLOTS buffers of DG_HAND_BUF_SIZE bytes with it (a memfd mapped
 * by both).  The tool fills one buffer with whole records (dg_out.c) and
 * hands it over; the helper runs the consumer on it (the encoder's loop,
 * dg_enc_consume) and gives it back.  Hand-over costs one byte in a pipe
 * per buffer; the tool sleeps on a second pipe only when every buffer is
 * taken, until half of them are free again (when the program forks, the
 * encoder's state comes back on that second pipe).  Before it sleeps it writes
 * what the helper has encoded, if that is waiting (the writer's
 * write-behind, dg_wr.h): the helper is then the busier process, and
 * write(2) moves to the idle one.  The log is the same byte for byte,
 * whoever writes it.
 *
 * The helper is a grandchild (the child in between exits at once, with no
 * signal to the program), so the program's wait() never sees it and no
 * zombie stays.  It blocks every signal, keeps none of the program's file
 * descriptors, and ends when the tool says so (exit), when the tool's end
 * of the pipe closes (exec, or the tool was killed: it writes what it was
 * given first), and never otherwise.  If it dies, the tool notices (its
 * pipe reaches end of file), says so once and drops the rest of the log.
 *
 * Without a helper (it could not be started) the writer runs in the tool,
 * on the same buffers: the log is the same either way.
 *
 * This module owns the helper, the shared memory and the pipes; it knows
 * nothing above it.  The consumer comes from dg_hand_start's caller as a
 * function pointer, called once per buffer handed over (never per run);
 * the writer (dg_wr.h), which sits below, is started and flushed here.
 */
#ifndef DG_HAND_H
#define DG_HAND_H

#include "pub_tool_basics.h"
#include "dg_wr.h"

#define DG_HAND_SLOTS     8
#define DG_HAND_BUF_SIZE  (256u << 10)   /* a buffer: the ring stays in L2 */

/* What the helper (or, without one, the tool) does with each buffer
   handed over: n bytes of whole records of the stream. */
typedef void dg_hand_consume_fn(const UChar *buf, SizeT n);

/* The writer writes fd (the log at path; and tee unless -1: dg_wr.h);
   consume takes every buffer handed over; a helper is started unless
   use_helper is False or it cannot be.  buf is the tool's own buffer,
   used when there is no helper.  old is -1, or a file to close, the
   log this one replaced: its last close frees its pages, which the
   helper does once the tool has closed its own copy, while the tool is
   still starting up.  Returns the buffer to fill. */
UChar *dg_hand_start(Int fd, Int tee, const HChar *path,
                     dg_hand_consume_fn *consume, Bool use_helper,
                     UChar *buf, Int old);
/* Hand over [0, n) of the buffer being filled (whole records); returns
   the next buffer to fill, which may be the same. */
UChar *dg_hand_put(UChar *buf, SizeT n);
/* Whether the helper evicts each buffer from the caches once it has
   encoded it (dg_hand.c says why); on by default, where the CPU can
   (--helper-evict, a debug option).  Before dg_hand_start. */
void dg_hand_set_evict(Bool on);
/* Return when everything handed over has reached the file (or failed). */
void dg_hand_sync(void);
/* Sync, then end the helper. */
void dg_hand_finish(void);
/* In a forked child: drop the parent's helper without a word to it. */
void dg_hand_forget(void);
/* Fork: the helper's encoder sends its state (dg_enc.h) to the tool,
   which waits for it.  fetch returns False when there is no helper. */
Bool dg_hand_in_helper(void);
void dg_hand_reply(const UChar *p, SizeT n);
struct dg_blob;
Bool dg_hand_fetch(struct dg_blob *b);
/* The writer's counters: errno that stopped the log, bytes in the file. */
const struct dg_wr_state *dg_hand_state(void);
/* Only while synced: the file's offset was moved back to off. */
void dg_hand_set_disk(ULong off);

#endif
