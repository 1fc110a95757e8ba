/* dgctxch.h: the blob of a context_chunks row, encoded and decoded once.
 *
 * Promise: the chunks holding a context's runs, as schema/schema.sql
 * documents under context_chunks: a row (context_id, chunk_lo, chunk_hi,
 * data) lists chunk ids from chunk_lo to chunk_hi ascending; chunk_lo is
 * the first, and `data` holds each of the others as a uleb delta from the
 * one before (>= 1), the last reaching chunk_hi exactly (data is empty when
 * the row lists one chunk).  dg-import encodes (imp_ctxch.c); the accesses
 * table's chunk choice (dgvt_source.c) and the SQL functions dg_chunks and
 * dg_chunk_in (dgsqlfn.c) decode.  The decoder checks every byte against
 * the end of the blob and every id against chunk_hi, never reads past the
 * end, and says which byte went wrong.
 *
 * Ownership: the caller owns the blob; the decoder is a plain struct on the
 * caller's stack, nothing to free.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGCTXCH_H
#define DGCTXCH_H

#include <stddef.h>
#include <stdint.h>

#include "dgcodec.h"

/* Decoding errors beyond dgcodec.h's DGC_E_* (the bytes of a uleb). */
enum {
	DGCTXCH_E_ORDER = -32,  /* a delta of 0: not ascending */
	DGCTXCH_E_HI    = -33,  /* past chunk_hi, or ends short of it */
	DGCTXCH_E_RANGE = -34,  /* chunk_lo < 1 or chunk_hi < chunk_lo */
};

struct dgctxch_dec {
	const uint8_t *start, *p, *end;
	int64_t id, hi;             /* the id last given, chunk_hi */
	int started;                /* chunk_lo given */
	size_t at;                  /* offset of the delta last read */
};

/* Start on a row's chunk_lo, chunk_hi and data (len bytes). */
void dgctxch_begin(struct dgctxch_dec *d, int64_t lo, int64_t hi, const void *data,
                   size_t len);

/* The next chunk id into *id: 1, or 0 after chunk_hi, or a negative
   DGC_E_* / DGCTXCH_E_* code (d->at says where). */
int dgctxch_next(struct dgctxch_dec *d, int64_t *id);

/* The message of error e: "context_chunks: context C: byte B: WHAT" (no
   "context C: " when context_id is negative). */
void dgctxch_error(const struct dgctxch_dec *d, int e, int64_t context_id, char *buf,
                   size_t size);

/* The delta to the next id after `last` into out (DGC_LEB_MAX bytes of
   room); returns the bytes written. */
static inline size_t dgctxch_put(uint8_t *out, uint64_t last, uint64_t id)
{
	return (size_t)(dgc_put_uleb(out, id - last) - out);
}

#endif
