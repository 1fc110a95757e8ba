/* dgvt_model.h: the `accesses` table object and its model — the
 * definitions it reads from the database, checked, and the heap blocks.
 *
 * Promise: dgvt_model_load reads contexts, bbdefs, access_descs, how
 * the chunks are coded (meta's chunk_coding, else user_version) and which
 * table lists a context's chunks (context_chunks or chunk_contexts) into
 * arrays indexed by context and descriptor, once a table object, and
 * refuses what dg-import cannot have written (a value that is not an
 * integer, an id out of range or repeated, a bbdef's shape out of range,
 * descriptors missing or extra, ids far sparser than the rows) with a
 * "accesses: " SQLITE_CORRUPT_VTAB error naming the table and the row,
 * never a crash.  dgvt_blocks_load adds the heap blocks, sorted for
 * dgvt_block_at, the first time block_id is used.  Uses dgvt_db for the
 * statements and the errors.
 *
 * Ownership: struct dgvt, the table object, owns its database hold
 * (dgvt_db.h) and the model; dgvt_free releases both, not the object.
 * The model is kept until the table object goes (dgvtab.h: a connection
 * that rewrites the definitions must reopen).  Cursors read it, never
 * change it.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGVT_MODEL_H
#define DGVT_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#include "dgvt_db.h"

/* An access descriptor (access_descs row). */
struct dgvt_desc {
	int64_t pc, module;     /* the code address, as pcs keys it */
	uint32_t iseq;
	uint16_t size;
	uint8_t is_write, guarded;
	uint8_t present;        /* while loading: its access_descs row seen */
};

/* A heap block (blocks row). */
struct dgvt_blk {
	int64_t addr, end, alloc, free, id;     /* free: INT64_MAX if never */
};

struct dgvt_model {
	int loaded, blocks_loaded;
	int coding;             /* how the chunks are coded: enum dgchunk_coding */
	int ctx_blobs;          /* context_chunks (schema 11 on), not the
	                           chunk_contexts of schema 10 and older */
	size_t n_ctx;
	size_t *ctx_desc;       /* per context: its first descriptor */
	uint8_t *ctx_guarded;   /* bitmap: the context has a guarded access */
	uint32_t *ctx_shape;    /* per context: n_instrs, n_accesses */
	struct dgvt_desc *descs;
	size_t n_descs;
	uint32_t max_accesses;
	struct dgvt_blk *blk;   /* sorted by addr, then alloc */
	size_t n_blk;
	int64_t *maxend;        /* max end of blk[0..i] */
	size_t *gstart;         /* first index with blk[i].addr */
	int64_t *gmaxfree;      /* max free of blk[gstart[i]..i] */
	int64_t chunk_span;     /* max(icount_hi - icount_lo) of chunks, or
				   -1 until dgvt_scan.c's counts need it */
};

/* dgvtab.h's probe: while on, cursors add the chunks they would read. */
struct dgvtab_probe {
	int on;
	int64_t chunks;
};

/* The table object. */
struct dgvt {
	struct dgvt_db d;       /* first: SQLite's sqlite3_vtab */
	struct dgvt_model m;
	struct dgvtab_probe *probe;     /* dgvtab.h; NULL: none */
	int all_runs;           /* cursors stop at every run, even one with no
				   selected access (dgvtab_scan_runs) */
	const uint8_t *pick;    /* non-NULL: cursors read only the chunks
				   whose pick[id] is non-zero, id < n_pick
				   (dgvtab_scan_picked; the caller's array;
				   dgvt_source lists them) */
	int64_t n_pick;
	int no_blocks;          /* scans leave block_id NULL, no block looked
				   up (dgvtab_scan_picked) */
	int parity;             /* 0: every chunk; 1, 2: only those of even,
				   odd ids (dgvtab_scan_picked: two threads
				   sharing a scan) */
};

/* t on db's schema, with no model yet: SQLITE_OK or SQLITE_NOMEM. */
int dgvt_init(struct dgvt *t, sqlite3 *db, const char *schema);
/* What a table object owns (not the object itself). */
void dgvt_free(struct dgvt *t);

/* The definitions, loaded and checked the first time (then a no-op). */
int dgvt_model_load(struct dgvt *t);
/* The heap blocks, loaded the first time (then a no-op). */
int dgvt_blocks_load(struct dgvt *t);

/* The index in blk (sorted by start) of the first block starting above
   a: n_blk if none. */
size_t dgvt_blocks_above(const struct dgvt_model *m, int64_t a);

/* The id of the block holding address a at icount t (dgvtab.h's
   block_id: the innermost), or -1 with *found 0. */
int64_t dgvt_block_at(const struct dgvt_model *m, int64_t a, int64_t t, int *found);

#endif
