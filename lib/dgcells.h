/* dgcells.h: the blob of a chunk_cells row, encoded and decoded once.
 *
 * Promise: a chunk's accesses counted by 256-byte cell (addr >> 8) as the
 * bytes schema/schema.sql documents under chunk_cells, one entry per cell
 * with accesses, cells ascending:
 *
 *     uleb  cell delta   the first cell itself, then cell - previous (>= 1)
 *     uleb  reads
 *     uleb  writes       reads + writes >= 1, each below 2^32
 *
 * through dgcodec.h's uleb primitives.  dg-import encodes (imp_chunk.c);
 * the whole-trace plot (dgplot.c), the chunk_cells_v table (dgcellvt.c)
 * and the fuzz target decode.  The decoder checks every byte against the
 * end of the blob and every value against the rules above, never reads
 * past the end, and says which byte and field went wrong.
 *
 * Ownership: the caller owns the blob and the output room; the decoder
 * state is a plain struct on the caller's stack, nothing to free.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGCELLS_H
#define DGCELLS_H

#include <stddef.h>
#include <stdint.h>

#include "dgcodec.h"

#define DGCELLS_ENTRY_MAX (3 * DGC_LEB_MAX)    /* bytes of one entry, at most */
#define DGCELLS_CELL_MAX  (UINT64_MAX >> 8)    /* the cell of the top address */

/* Decoding errors beyond dgcodec.h's DGC_E_* (the bytes of a uleb). */
enum {
	DGCELLS_E_ORDER = -16,  /* a cell delta of 0: not ascending */
	DGCELLS_E_CELL  = -17,  /* a cell above DGCELLS_CELL_MAX */
	DGCELLS_E_COUNT = -18,  /* reads or writes above 2^32 - 1 */
	DGCELLS_E_EMPTY = -19,  /* a cell with neither reads nor writes */
};

struct dgcells_cell {
	uint64_t cell;
	uint32_t reads, writes;
};

/* n cells (ascending, each with an access: asserted) into out, which has
   room for n * DGCELLS_ENTRY_MAX bytes.  Returns the bytes written. */
size_t dgcells_encode(const struct dgcells_cell *c, size_t n, uint8_t *out);

struct dgcells_dec {
	const uint8_t *start, *p, *end;
	uint64_t cell;              /* the last cell decoded */
	size_t at;                  /* offset of the field last read */
	const char *field;          /* its name */
};

void dgcells_begin(struct dgcells_dec *d, const void *blob, size_t len);

/* The next cell into *c: 1, or 0 at the end of the blob, or a negative
   DGC_E_* / DGCELLS_E_* code (then d->at and d->field say where). */
int dgcells_next(struct dgcells_dec *d, struct dgcells_cell *c);

/* The message of error e of d in the blob of chunk chunk_id of table
   (say "chunk_cells"), into buf: "TABLE: chunk N: byte B (FIELD): WHAT". */
void dgcells_error(const struct dgcells_dec *d, int e, const char *table,
		   int64_t chunk_id, char *buf, size_t size);

#endif
