/* dg_out.h: the log file and its record framing.
 *
 * Owns the output file descriptor and one large write buffer; every byte of
 * the log goes through here.  Records are framed as docs/FORMAT.md §1 says:
 * a writer opens a record, appends fields, and closes it; closing patches the
 * length.  Lengths are written in the long form (0xFF + u64) whenever the
 * payload may reach 255 bytes, so a record never has to move.
 *
 * Nothing here allocates per record.  Full buffers of whole records go to
 * the writer (dg_wr.c, through dg_hand.c: in a helper process), which
 * encodes the runs and writes the file; and at dg_out_close.  The file is created
 * mode 0600 whatever the umask and never through a symbolic link; the
 * parent's at start-up, a forked child's at its first flush.
 *
 * When a write fails this module says so once (how many bytes reached the
 * file, and why) and drops everything after: the records go on being
 * framed in the buffer, but nothing more reaches the file.  A failed
 * create at start-up is only returned: the caller decides.
 */
#ifndef DG_OUT_H
#define DG_OUT_H

#include "pub_tool_basics.h"

/* Bytes guaranteed free after dg_out_reserve(n) returns. */
/* Create the log at path; 0, or the errno of the failed create.  helper:
   encode and write in a helper process (dg_hand.h). */
UWord dg_out_init(const HChar *path, Bool helper);
void  dg_out_reopen(const HChar *path);     /* after fork: forget parent fd */
void  dg_out_close(void);
void  dg_out_flush(void);                    /* hand over the whole records */
void  dg_out_sync(void);                     /* flush; all is in the file */
ULong dg_out_offset(void);    /* sync; the file offset of the next record */
/* The last record, which started at `off`, was flushed and must not stand:
   move the file offset back so that the next records overwrite it.  On a
   file that cannot seek (a pipe) the log stops there instead. */
void  dg_out_drop_last(ULong off);
const HChar *dg_out_path(void);
ULong dg_out_disk_bytes(void);              /* bytes the file received */
UWord dg_out_error(void);                   /* errno that stopped the log, or 0 */
const HChar *dg_out_strerror(UWord err);    /* "No such file or directory" */
ULong dg_out_records(void);                 /* records closed so far */

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

/* The hot path of the run encoder writes straight into the buffer:
   dg_out_cursor() gives the write position, dg_out_advance() commits.
   Inline, because the encoder calls them for every run. */
extern UChar *dg_out_buf_;      /* private: only the inlines below use these */
extern SizeT  dg_out_used_;
extern SizeT  dg_out_rec_payload_;   /* offset of the open record's payload */
#define DG_OUT_BUF_SIZE  (256u << 10)   /* the hand-over ring stays in L2 */

static inline UChar *dg_out_cursor(void) { return dg_out_buf_ + dg_out_used_; }
static inline void dg_out_advance(UChar *c) { dg_out_used_ = c - dg_out_buf_; }
static inline SizeT dg_out_open_len(void) { return dg_out_used_ - dg_out_rec_payload_; }
/* Room for n more bytes without a flush? */
static inline Bool dg_out_has_room(SizeT n) { return dg_out_used_ + n <= DG_OUT_BUF_SIZE; }

#endif
