/* dglog_rec.h: the log reader's decoders of every record but the runs
 * (BBRUN, BBRUNS, BBCHAINS, which lib/dglog.c decodes with its framing):
 * side records, definitions (BBDEF, CONTEXT, CTXREF) and heap records.
 *
 * Promise: dglog_rd_TYPE(c, rec) decodes one payload of its type(s)
 * through the cursor c (dglog_cur.h) into rec, which the caller has
 * zeroed and stamped with the file's type, offset, number, thread and
 * icount, and returns 1; or -1 with the message in r->err.  Each checks
 * what FORMAT.md says a writer cannot put there (a reference to an
 * undefined bbdef, context or heap stack, an access beyond its block, a
 * stack deeper than allowed) besides the payload's bounds.  Compact
 * records come out as the records they stand for: CTXREF as CONTEXT, a
 * heap record as MALLOC_BLOCK or FREE_BLOCK, or as an ICOUNT first, the
 * block then waiting in r->pending for the next dglog_next.
 *
 * Ownership: a definition is stored in the reader's tables (bbdefs,
 * contexts and their ctx_state, hstacks), which dglog_close frees; the
 * rec fields point into the payload or the reader, valid until the next
 * record.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGLOG_REC_H
#define DGLOG_REC_H

#include "dglog_cur.h"

/* Side records.  range: TRACK_RANGE, UNTRACK_RANGE; event: START_EVENT,
   END_EVENT; malloc, free: MALLOC_BLOCK, FREE_BLOCK; mmap: MMAP, MUNMAP.
   thread and icount also set the reader's current thread and count;
   fini keeps the totals in r->fini for dglog_check_complete. */
int dglog_rd_range(struct dglog_cur *c, struct dglog_record *rec);
int dglog_rd_event(struct dglog_cur *c, struct dglog_record *rec);
int dglog_rd_text_avma(struct dglog_cur *c, struct dglog_record *rec);
int dglog_rd_malloc(struct dglog_cur *c, struct dglog_record *rec);
int dglog_rd_free(struct dglog_cur *c, struct dglog_record *rec);
int dglog_rd_thread(struct dglog_cur *c, struct dglog_record *rec);
int dglog_rd_mmap(struct dglog_cur *c, struct dglog_record *rec);
int dglog_rd_process(struct dglog_cur *c, struct dglog_record *rec);
int dglog_rd_icount(struct dglog_cur *c, struct dglog_record *rec);
int dglog_rd_trace_state(struct dglog_cur *c, struct dglog_record *rec);
int dglog_rd_fini(struct dglog_cur *c, struct dglog_record *rec);

/* Definitions: a new bbdef or context, numbered after the last one. */
int dglog_rd_bbdef(struct dglog_cur *c, struct dglog_record *rec);
int dglog_rd_context(struct dglog_cur *c, struct dglog_record *rec);
int dglog_rd_ctxref(struct dglog_cur *c, struct dglog_record *rec);

/* HEAP_MALLOC and HEAP_FREE. */
int dglog_rd_heap(struct dglog_cur *c, struct dglog_record *rec);

#endif /* DGLOG_REC_H */
