/* dg_out.h: the log file and its record framing.
 *
 * Owns the output file descriptor and one large write buffer; every byte of
 * the log goes through here.  Records are framed as docs/FORMAT.md §1 says:
 * a writer opens a record, appends fields, and closes it; closing patches the
 * length.  Lengths are written in the long form (0xFF + u64) whenever the
 * payload may reach 255 bytes, so a record never has to move.
 *
 * Nothing here allocates per record.  Between records the buffer holds an
 * open RAW record (dg_recs.h) that generated code fills with raw run
 * entries: dg_raw_ptr is its end, dg_raw_limit the buffer's; beginning any
 * other record closes it (or drops it if empty), ending one opens the
 * next.  Full buffers of whole records go to the consumer that dg_out_init
 * is given, the encoder (dg_enc.c), through dg_hand.c (in a helper
 * process), which encodes the runs and writes the file; and at
 * dg_out_close.  The file is created mode 0600 whatever the umask and never
 * through a symbolic link; the parent's at start-up, a forked child's at
 * its first flush.  With --db the bytes go into the pipe of an importer
 * instead (dg_imp.h), started at the same moments, and to the log as well
 * when one is kept.
 *
 * When a write fails this module says so once (how many bytes reached the
 * file, and why) and drops everything after: the records go on being
 * framed in the buffer, but nothing more reaches the file.  A failed
 * create at start-up is only returned: the caller decides.
 */
#ifndef DG_OUT_H
#define DG_OUT_H

#include "pub_tool_basics.h"
#include "dg_hand.h"          /* dg_hand_consume_fn */

/* Bytes guaranteed free after dg_out_reserve(n) returns. */
/* Create the log at path; 0, or the errno of the failed create.  With
   db (--db) the log goes into an importer's pipe instead (dg_imp.h), and
   to path too unless path is NULL.  consume takes every buffer of whole
   records (the encoder's loop); helper: run it, and write, in a helper
   process (dg_hand.h). */
UWord dg_out_init(const HChar *path, const HChar *db,
                  dg_hand_consume_fn *consume, Bool helper);
/* After fork: forget the parent's fds, helper and importer. */
void  dg_out_reopen(const HChar *path, const HChar *db);
void  dg_out_close(void);
/* After dg_out_close: records still framed go nowhere (a failed exec
   after the database was finished). */
void  dg_out_stop(void);
void  dg_out_flush(void);                    /* hand over the whole records */
void  dg_out_sync(void);                     /* flush; all is in the file */
ULong dg_out_offset(void);    /* sync; the file offset of the next record */
/* The last record, which started at `off`, was flushed and must not stand:
   move the file offset back so that the next records overwrite it.  On a
   file that cannot seek (a pipe) the log stops there instead. */
void  dg_out_drop_last(ULong off);
const HChar *dg_out_path(void);           /* the log; NULL if none */
const HChar *dg_out_db(void);             /* the database; NULL if none */
Bool  dg_out_failed_db(void);    /* the create that failed was the importer's */
ULong dg_out_disk_bytes(void);              /* bytes the file received */
UWord dg_out_error(void);                   /* errno that stopped the log, or 0 */
const HChar *dg_out_strerror(UWord err);    /* "No such file or directory" */

/* Make sure n more bytes fit in the buffer (flushing if need be). */
void  dg_out_reserve(SizeT n);

/* Record framing.  A short record's payload must stay below 255 bytes. */
void  dg_out_begin_short(UChar type);
void  dg_out_begin_long(UChar type);
void  dg_out_end(void);
/* Open record: bytes written into it so far (payload only). */
SizeT dg_out_payload_len(void);
/* Drop the open record if its payload is empty; returns True if dropped. */
Bool  dg_out_end_or_drop_empty(void);

void  dg_out_u8(UChar v);
void  dg_out_u32(UInt v);
void  dg_out_u64(ULong v);
void  dg_out_word(Addr v);
void  dg_out_bytes_raw(const void *p, SizeT n);
void  dg_out_string(const HChar *s, SizeT max);   /* NUL-terminated, clipped */

/* The open RAW record: generated code appends at its end and calls
   dg_out_raw_full when an entry would pass the buffer's limit.  While a
   thread runs generated code (from start_client_code to stop_client_code)
   the end and the limit are two words of its guest state's first shadow
   area, at DG_RAW_GS_OFF: one instruction each for generated code to read
   or write, where a global costs two (its address is a 64-bit constant).
   Between those moments they are dg_raw_ptr and dg_raw_limit, which the
   rest of this module uses (tool code run from within generated code, as
   dg_out_raw_full or a signal delivered for a fault, takes them from the
   shadow and gives them back).  The limit in the guest state is
   dg_raw_limit - DG_RAW_SLACK: an entry of up to DG_RAW_SLACK bytes
   fits if the record's end is at most that. */
#define DG_RAW_GS_OFF  16
#define DG_RAW_SLACK   512
extern Addr dg_raw_ptr;
extern Addr dg_raw_limit;
void dg_out_raw_enter(ThreadId tid);   /* the globals go to tid's shadow */
void dg_out_raw_leave(ThreadId tid);   /* and come back */
VG_REGPARM(0) void dg_out_raw_full(void);

/* Lean code (dg_instr.h) counts the instructions and runs it makes no
   entries for here, all threads together (they run one at a time); like
   the RAW record's end, in the running thread's shadow guest state at
   DG_LEAN_GS_OFF while it runs generated code.  Every record framed
   after they moved is preceded by a DG_CTL_COUNTS record of how far
   (dg_recs.h), so the encoder's counts are exact at each record of the
   stream. */
#define DG_LEAN_GS_OFF (DG_RAW_GS_OFF + 16)
struct dg_lean_counts { ULong instrs, runs; };
extern struct dg_lean_counts dg_lean_counts;
/* While lean code may run (from before the first translation): the
   counts travel with the RAW words; after, they stay where they are. */
void dg_out_lean(Bool on);

#endif
