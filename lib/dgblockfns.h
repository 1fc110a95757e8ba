/* dgblockfns.h: the blob of blocks.fns, a heap block's accesses by
 * function and direction, encoded and decoded once.
 *
 * Promise: the bytes schema/schema.sql documents under blocks.fns, one
 * entry per (function, direction) pair that touched the block, in the
 * order of key = function << 1 | is_write, strictly ascending:
 *
 *     uleb  key delta  the first entry's key itself, then key - previous
 *                      key (>= 1)
 *     uleb  accesses   >= 1
 *     uleb  size       even 2k: bytes = k * accesses (every access of the
 *                      pair had k bytes: one byte, most often); odd:
 *                      bytes = size >> 1
 *
 * through dgcodec.h's uleb primitives.  dg-import encodes (imp_heap.c);
 * the dg_block_fns table (dgblockfnsvt.c), behind the view sum_fn_block,
 * and the fuzz target decode.  The decoder checks every byte against the
 * end of the blob and every value against the rules above, never reads
 * past the end, and says which byte and field went wrong.  Function 0
 * stands for "no function known" (NULL in SQL).
 *
 * Ownership: the caller owns the blob, the entries and the output room;
 * the decoder state is a plain struct on the caller's stack.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGBLOCKFNS_H
#define DGBLOCKFNS_H

#include <stddef.h>
#include <stdint.h>

#include "dgcodec.h"

#define DGBF_ENTRY_MAX (3 * DGC_LEB_MAX)     /* bytes of one entry, at most */
#define DGBF_FN_MAX    UINT32_MAX            /* function ids fit 32 bits */
#define DGBF_COUNT_MAX (UINT64_MAX >> 2)     /* accesses, bytes: at most */

/* Decoding errors beyond dgcodec.h's DGC_E_* (the bytes of a uleb). */
enum {
	DGBF_E_ORDER = -16,     /* a function or direction not ascending */
	DGBF_E_FN    = -17,     /* a function id above DGBF_FN_MAX */
	DGBF_E_COUNT = -18,     /* accesses 0, or accesses or bytes too large */
};

struct dgbf_entry {
	uint32_t fn;            /* 0: none */
	uint8_t is_write;
	uint64_t accesses, bytes;
};

/* n entries (each with 1 <= accesses and accesses, bytes <=
   DGBF_COUNT_MAX: asserted; any order: sorted here, in place) into out,
   which has room for n * DGBF_ENTRY_MAX bytes.  Returns the bytes
   written. */
size_t dgbf_encode(struct dgbf_entry *e, size_t n, uint8_t *out);

struct dgbf_dec {
	const uint8_t *start, *p, *end;
	uint64_t key;               /* the last entry's fn << 1 | is_write */
	size_t at;                  /* offset of the field last read */
	const char *field;          /* its name */
};

void dgbf_begin(struct dgbf_dec *d, const void *blob, size_t len);

/* The next entry into *e: 1, or 0 at the end of the blob, or a negative
   DGC_E_* / DGBF_E_* code (then d->at and d->field say where). */
int dgbf_next(struct dgbf_dec *d, struct dgbf_entry *e);

/* The message of error e of d in block block_id's blob, into buf:
   "blocks.fns: block N: byte B (FIELD): WHAT". */
void dgbf_error(const struct dgbf_dec *d, int e, int64_t block_id, char *buf,
                size_t size);

#endif
