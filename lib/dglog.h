/* dglog.h: a streaming reader of Datagrind logs (docs/FORMAT.md).
 *
 * Promise: reads format versions 1 and 2, either byte order, 4- or 8-byte
 * words, short and long lengths, from a file, a descriptor or memory.  Memory
 * stays bounded whatever the log's length: one read buffer (as large as the
 * largest record), plus the tables of bbdefs and contexts and the per-context
 * address prediction state, which a reader must keep.  Every record is
 * checked; bad input gives an error with a message naming the file, the byte
 * offset and number of the record and its type, never a crash.
 *
 * Ownership: struct dglog owns everything it points to; dglog_close frees it.
 * What dglog_next fills in (strings, address and frame arrays) points into
 * the reader and stays valid until the next dglog_next or dglog_close.  The
 * bbdefs returned by dglog_bbdef stay valid until dglog_close; a context
 * (a CONTEXT record's, or dglog_context's) is made on demand from the
 * reader's compact table (each context's own frames and a reference to an
 * earlier one's) and stays valid until the next dglog_next, dglog_context
 * or dglog_close.
 *
 * The types (struct dglog_record and its parts, struct dglog) are in
 * dglog_types.h, which this header includes.  lib/dglog.c frames the
 * records and decodes the runs; lib/dglog_rec.c decodes the other
 * records; lib/dglog_cur.c has the messages and the payload cursor.
 *
 * Use:
 *     struct dglog r;
 *     struct dglog_record rec;
 *     char err[256];
 *     if (dglog_open(&r, path, err, sizeof err) < 0) { report err; }
 *     while ((n = dglog_next(&r, &rec)) > 0) { use rec; }
 *     if (n < 0) { report r.err; r.truncated says if the log was cut }
 *     dglog_close(&r);
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGLOG_H
#define DGLOG_H

#include <stddef.h>
#include <stdint.h>
#include "dg_format.h"
#include "dgcodec.h"
#include "dglog_types.h"        /* the records and struct dglog */

/* Open a log: path "-" is standard input.  Reads and checks the header.
 * Returns 0, or -1 with a message in err (also in r->err; r->truncated set
 * when the file ends inside the header).  Call dglog_close either way. */
int dglog_open(struct dglog *r, const char *path, char *err, size_t errlen);

/* The same over an open descriptor (not closed by dglog_close; for a
 * FILE *, pass fileno(f) before reading anything through f) and over
 * len bytes of memory (not copied: they must outlive the reader).  name is
 * used in messages. */
int dglog_open_fd(struct dglog *r, int fd, const char *name,
		  char *err, size_t errlen);
int dglog_open_mem(struct dglog *r, const void *data, size_t len,
		   const char *name, char *err, size_t errlen);

/* Free everything; closes the file if dglog_open opened it.  Safe on a
 * reader whose open failed and on a zeroed struct. */
void dglog_close(struct dglog *r);

/* Next record into rec: 1 a record, 0 clean end of file (at a record
 * boundary), -1 an error in r->err ("FILE: byte N: record #K (TYPE): ...");
 * r->truncated is 1 if the error is that the log ends inside a record (and
 * nothing says it went on: a record whose length runs past the end of a
 * file that ends with a FINI record is corrupt, not truncated).  The
 * first record delivered is the HEADER.  After -1 every call returns -1. */
int dglog_next(struct dglog *r, struct dglog_record *rec);

/* The address of the instruction that makes access i of bbdef d (i below
 * d->n_accesses): the pc of an access. */
static inline uint64_t dglog_pc(const struct dglog_bbdef *d, uint32_t i)
{
	return d->instrs[d->accesses[i].iseq].addr;
}

/* Stored definitions by index, or NULL when idx is out of range (a
   context: valid until the next call, see above). */
const struct dglog_bbdef *dglog_bbdef(const struct dglog *r, uint64_t idx);
const struct dglog_context *dglog_context(const struct dglog *r, uint64_t idx);

/* After dglog_next returned 0: 0 if the log is complete (a FINI whose runs,
 * accesses and records match what was read), else -1 with the reason in
 * r->err.  Version 1 logs are never complete (they have no FINI).
 * r->truncated is then 1 when the log merely ends early (no FINI, and the
 * file does not end with one), 0 when it is corrupt (a FINI whose totals
 * disagree, or a FINI at the end of the file that reading never reached). */
int dglog_check_complete(struct dglog *r);

/* "bbdef", "bbruns", ... for a file record type; "unknown" otherwise. */
const char *dglog_type_name(int file_type);

#endif /* DGLOG_H */
