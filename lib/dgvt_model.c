/* dgvt_model.c: the `accesses` table object and its model.  See
 * dgvt_model.h.
 *
 * The model: per context, the index of its bbdef's first access
 * descriptor and the bbdef's shape; the descriptors themselves; and,
 * loaded only when block_id is used, the heap blocks sorted by (addr,
 * alloc_icount) with prefix maxima that bound the backward walk of a
 * lookup.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifdef DGVTAB_EXTENSION
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3
#else
#include <sqlite3.h>
#endif

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "dgchunk.h"
#include "dgvt_db.h"
#include "dgvt_model.h"
#include "dgmem.h"

/* ------------------------------------------------------------ model */

static void model_free_blocks(struct dgvt_model *m)
{
	sqlite3_free(m->blk);
	sqlite3_free(m->maxend);
	sqlite3_free(m->gstart);
	sqlite3_free(m->gmaxfree);
	m->blk = NULL, m->maxend = NULL, m->gstart = NULL, m->gmaxfree = NULL;
	m->n_blk = 0;
	m->blocks_loaded = 0;
}

static void model_free(struct dgvt_model *m)
{
	model_free_blocks(m);
	sqlite3_free(m->ctx_desc);
	sqlite3_free(m->ctx_guarded);
	sqlite3_free(m->ctx_shape);
	sqlite3_free(m->descs);
	memset(m, 0, sizeof *m);
	m->chunk_span = -1;
}

/* The bbdefs while loading: shape and first descriptor, by id. */
struct bbtab {
	uint32_t *n_instrs, *n_acc, *filled;
	size_t *base;
	size_t n;               /* max id + 1 */
};

static void bbtab_free(struct bbtab *b)
{
	sqlite3_free(b->n_instrs);
	sqlite3_free(b->n_acc);
	sqlite3_free(b->filled);
	sqlite3_free(b->base);
}

static int bbtab_alloc(struct bbtab *b, size_t n)
{
	b->n = n;
	b->n_instrs = sqlite3_malloc64(n * sizeof *b->n_instrs + 1);
	b->n_acc = sqlite3_malloc64(n * sizeof *b->n_acc + 1);
	b->filled = sqlite3_malloc64(n * sizeof *b->filled + 1);
	b->base = sqlite3_malloc64(n * sizeof *b->base + 1);
	if (!b->n_instrs || !b->n_acc || !b->filled || !b->base)
		return SQLITE_NOMEM;
	memset(b->n_acc, 0xFF, n * sizeof *b->n_acc);   /* absent */
	memset(b->filled, 0, n * sizeof *b->filled);
	return SQLITE_OK;
}

/* Column i of a row of the definitions as an integer: 0, or -1 when it
   holds anything else (a tampered database: text, a real, a blob, NULL). */
static int int_col(sqlite3_stmt *st, int i, int64_t *v)
{
	*v = sqlite3_column_int64(st, i);
	return sqlite3_column_type(st, i) == SQLITE_INTEGER ? 0 : -1;
}

/* A definition row that cannot be right: the table and the row (its
   ordinal in the scan, as the id itself may be the bad value). */
static int bad_row(struct dgvt *t, sqlite3_stmt *st, const char *table,
                   int64_t row, const char *what)
{
	sqlite3_finalize(st);
	return dgvt_error(&t->d, SQLITE_CORRUPT_VTAB, "accesses: table %s, row %lld: %s",
	                table, (long long)row, what);
}

/* The largest id of a definitions table, which sizes arrays indexed by
   id.  dg-import numbers densely; ids far sparser than the rows (a
   tampered database) would make those arrays huge, so they are refused. */
static int id_bound(struct dgvt *t, const char *table, const char *max_sql,
                    const char *count_sql, int64_t *max_id)
{
	int64_t n;
	int rc = dgvt_query_int(&t->d, max_sql, max_id);

	if (rc == SQLITE_OK)
		rc = dgvt_query_int(&t->d, count_sql, &n);
	if (rc != SQLITE_OK)
		return rc;
	if (*max_id < -1 || *max_id >= (1 << 28) || *max_id > 4 * n + 65536)
		return dgvt_error(&t->d, SQLITE_CORRUPT_VTAB, "accesses: table %s: largest id %lld out of range for %lld rows",
		                table, (long long)*max_id, (long long)n);
	return SQLITE_OK;
}

static int load_bbdefs(struct dgvt *t, struct bbtab *b)
{
	sqlite3_stmt *st;
	int64_t max_id, row;
	size_t total = 0;
	int rc = id_bound(t, "bbdefs", "SELECT max(id) FROM \"%w\".bbdefs",
	                  "SELECT count(*) FROM \"%w\".bbdefs", &max_id);

	if (rc != SQLITE_OK)
		return rc;
	if ((rc = bbtab_alloc(b, (size_t)(max_id + 1))) != SQLITE_OK
	    || (rc = dgvt_prepare(&t->d, &st, "SELECT id, n_instrs, n_accesses FROM \"%w\".bbdefs")) != SQLITE_OK)
		return rc;
	for (row = 1; (rc = sqlite3_step(st)) == SQLITE_ROW; row++) {
		int64_t id, ni, na;
		if (int_col(st, 0, &id) || int_col(st, 1, &ni) || int_col(st, 2, &na))
			return bad_row(t, st, "bbdefs", row, "id, n_instrs or n_accesses is not an integer");
		if (id < 0 || (uint64_t)id >= b->n)
			return bad_row(t, st, "bbdefs", row, "id out of range");
		if (b->n_acc[id] != UINT32_MAX)
			return bad_row(t, st, "bbdefs", row, "id not unique");
		if (ni < 0 || ni > 255 || na < 0 || na > 65535) {
			sqlite3_finalize(st);
			return dgvt_error(&t->d, SQLITE_CORRUPT_VTAB, "accesses: bbdef %lld: bad shape (%lld instructions, %lld accesses)",
			                (long long)id, (long long)ni, (long long)na);
		}
		b->n_instrs[id] = (uint32_t)ni;
		b->n_acc[id] = (uint32_t)na;
		b->base[id] = total;
		total += (size_t)na;
		if ((uint32_t)na > t->m.max_accesses)
			t->m.max_accesses = (uint32_t)na;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return dgvt_sql_error(&t->d, "loading bbdefs");
	t->m.n_descs = total;
	t->m.descs = sqlite3_malloc64(total * sizeof *t->m.descs + 1);
	if (!t->m.descs)
		return SQLITE_NOMEM;
	memset(t->m.descs, 0, total * sizeof *t->m.descs);
	return SQLITE_OK;
}

static int put_desc(struct dgvt *t, struct bbtab *b, sqlite3_stmt *st)
{
	int64_t bb, aseq, iseq, size, pc, is_write, flags, module;
	struct dgvt_desc *d;

	if (int_col(st, 0, &bb) || int_col(st, 1, &aseq) || int_col(st, 2, &iseq)
	    || int_col(st, 3, &pc) || int_col(st, 4, &is_write) || int_col(st, 5, &size)
	    || int_col(st, 6, &flags) || int_col(st, 7, &module))
		return dgvt_error(&t->d, SQLITE_CORRUPT_VTAB, "accesses: access_descs (%lld, %lld): a column is not an integer",
		                (long long)sqlite3_column_int64(st, 0), (long long)sqlite3_column_int64(st, 1));
	if (bb < 0 || (size_t)bb >= b->n || b->n_acc[bb] == UINT32_MAX
	    || aseq < 0 || aseq >= b->n_acc[bb])
		return dgvt_error(&t->d, SQLITE_CORRUPT_VTAB, "accesses: access_descs (%lld, %lld): no such access in bbdefs",
		                (long long)bb, (long long)aseq);
	if (iseq < 0 || iseq >= b->n_instrs[bb] || size < 0 || size > 65535)
		return dgvt_error(&t->d, SQLITE_CORRUPT_VTAB, "accesses: access_descs (%lld, %lld): bad iseq or size",
		                (long long)bb, (long long)aseq);
	d = &t->m.descs[b->base[bb] + (size_t)aseq];
	if (d->present)
		return dgvt_error(&t->d, SQLITE_CORRUPT_VTAB, "accesses: access_descs (%lld, %lld): not unique",
		                (long long)bb, (long long)aseq);
	d->present = 1;
	d->pc = pc;
	d->module = module;
	d->iseq = (uint32_t)iseq;
	d->is_write = is_write != 0;
	d->size = (uint16_t)size;
	d->guarded = (flags & 1) != 0;
	b->filled[bb]++;
	return SQLITE_OK;
}

static int load_descs(struct dgvt *t, struct bbtab *b)
{
	sqlite3_stmt *st;
	size_t i;
	int rc = dgvt_prepare(&t->d, &st, "SELECT bbdef_id, aseq, iseq, pc, is_write, size, flags, "
	                        "module_id FROM \"%w\".access_descs");

	if (rc != SQLITE_OK)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if ((rc = put_desc(t, b, st)) != SQLITE_OK)
			break;
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return rc == SQLITE_ROW || rc == SQLITE_OK ? dgvt_sql_error(&t->d, "loading access_descs") : rc;
	for (i = 0; i < b->n; i++)
		if (b->n_acc[i] != UINT32_MAX && b->filled[i] != b->n_acc[i])
			return dgvt_error(&t->d, SQLITE_CORRUPT_VTAB, "accesses: bbdef %lld: %u access_descs rows for %u accesses",
			                (long long)i, b->filled[i], b->n_acc[i]);
	return SQLITE_OK;
}

/* Contexts in id order; an id missing from the table gets an empty shape
   so that the codec's numbering stays the table's. */
static int load_contexts(struct dgvt *t, struct bbtab *b)
{
	struct dgvt_model *m = &t->m;
	sqlite3_stmt *st;
	int64_t max_id, id, bb, row;
	int rc = id_bound(t, "contexts", "SELECT max(id) FROM \"%w\".contexts",
	                  "SELECT count(*) FROM \"%w\".contexts", &max_id);

	if (rc != SQLITE_OK)
		return rc;
	m->n_ctx = (size_t)(max_id + 1);
	m->ctx_desc = sqlite3_malloc64(m->n_ctx * sizeof *m->ctx_desc + 1);
	m->ctx_shape = sqlite3_malloc64(2 * m->n_ctx * sizeof *m->ctx_shape + 1);
	if (!m->ctx_desc || !m->ctx_shape)
		return SQLITE_NOMEM;
	memset(m->ctx_desc, 0, m->n_ctx * sizeof *m->ctx_desc);
	memset(m->ctx_shape, 0, 2 * m->n_ctx * sizeof *m->ctx_shape);
	if ((rc = dgvt_prepare(&t->d, &st, "SELECT id, bbdef_id FROM \"%w\".contexts")) != SQLITE_OK)
		return rc;
	for (row = 1; (rc = sqlite3_step(st)) == SQLITE_ROW; row++) {
		/* max(id) is the largest integer only when every id is one:
		   a text id sorts above, so each row is checked here */
		if (int_col(st, 0, &id) || int_col(st, 1, &bb))
			return bad_row(t, st, "contexts", row, "id or bbdef_id is not an integer");
		if (id < 0 || (uint64_t)id >= m->n_ctx)
			return bad_row(t, st, "contexts", row, "id out of range");
		if (bb < 0 || (size_t)bb >= b->n || b->n_acc[bb] == UINT32_MAX) {
			sqlite3_finalize(st);
			return dgvt_error(&t->d, SQLITE_CORRUPT_VTAB, "accesses: context %lld: no bbdef %lld",
			                (long long)id, (long long)bb);
		}
		m->ctx_desc[id] = b->base[bb];
		m->ctx_shape[2 * id] = b->n_instrs[bb];
		m->ctx_shape[2 * id + 1] = b->n_acc[bb];
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : dgvt_sql_error(&t->d, "loading contexts");
}

/* How the chunks are coded: meta's chunk_coding ("chains" from schema 9
   on, "chains-near" from 14), else by the schema's version (BBRUNS
   payloads up to 8, BBCHAINS after).  A database relabelled to an older
   version keeps its meta row.  And which table lists each context's
   chunks. */
static int load_coding(struct dgvt *t)
{
	sqlite3_stmt *st;
	const unsigned char *v;
	char *sql = sqlite3_mprintf("SELECT value FROM \"%w\".meta WHERE key = 'chunk_coding'",
	                            t->d.schema);
	int coding = -1, rc;

	if (!sql)
		return SQLITE_NOMEM;
	rc = sqlite3_prepare_v2(t->d.db, sql, -1, &st, NULL);   /* no meta: the version */
	sqlite3_free(sql);
	if (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
		v = sqlite3_column_text(st, 0);
		if ((coding = dgchunk_coding_named((const char *)v)) < 0) {
			rc = dgvt_error(&t->d, SQLITE_CORRUPT_VTAB, "accesses: meta chunk_coding is '%.40s', "
			              "not 'chains' or 'chains-near' (a newer dg-import?)",
			              v ? (const char *)v : "NULL");
			sqlite3_finalize(st);
			return rc;
		}
	}
	sqlite3_finalize(st);
	if (coding < 0) {
		if ((rc = dgvt_prepare(&t->d, &st, "PRAGMA \"%w\".user_version")) != SQLITE_OK)
			return rc;
		coding = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 0) < 9
		         ? DGCHUNK_RUNS : DGCHUNK_CHAINS;
		sqlite3_finalize(st);
	}
	t->m.coding = coding;
	if ((rc = dgvt_prepare(&t->d, &st, "SELECT count(*) FROM \"%w\".sqlite_schema WHERE "
	                       "type = 'table' AND name = 'context_chunks'")) != SQLITE_OK)
		return rc;
	t->m.ctx_blobs = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 0) == 1;
	sqlite3_finalize(st);
	return SQLITE_OK;
}

/* Which contexts have a guarded access (one that may not happen: a
   cursor must look at its address); the others keep every access. */
static int mark_guarded(struct dgvt_model *m)
{
	size_t x, i;

	if (!(m->ctx_guarded = sqlite3_malloc64(m->n_ctx / 8 + 1)))
		return SQLITE_NOMEM;
	memset(m->ctx_guarded, 0, m->n_ctx / 8 + 1);
	for (x = 0; x < m->n_ctx; x++)
		for (i = 0; i < m->ctx_shape[2 * x + 1]; i++)
			if (m->descs[m->ctx_desc[x] + i].guarded) {
				m->ctx_guarded[x >> 3] |= (uint8_t)(1u << (x & 7));
				break;
			}
	return SQLITE_OK;
}

int dgvt_model_load(struct dgvt *t)
{
	struct bbtab b;
	int rc;

	if (t->m.loaded)
		return SQLITE_OK;
	memset(&b, 0, sizeof b);
	rc = load_coding(t);
	if (rc == SQLITE_OK)
		rc = load_bbdefs(t, &b);
	if (rc == SQLITE_OK)
		rc = load_descs(t, &b);
	if (rc == SQLITE_OK)
		rc = load_contexts(t, &b);
	if (rc == SQLITE_OK)
		rc = mark_guarded(&t->m);
	bbtab_free(&b);
	if (rc != SQLITE_OK) {
		if (rc == SQLITE_NOMEM)
			dgvt_error(&t->d, rc, "accesses: out of memory loading the definitions");
		model_free(&t->m);
		return rc;
	}
	t->m.loaded = 1;
	return SQLITE_OK;
}

/* ------------------------------------------------------------ heap blocks */

static int blk_cmp(const void *pa, const void *pb)
{
	const struct dgvt_blk *a = pa, *b = pb;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (a->alloc != b->alloc)
		return a->alloc < b->alloc ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

static void blk_from_row(struct dgvt_blk *k, sqlite3_stmt *st)
{
	int64_t size = sqlite3_column_int64(st, 2);

	k->id = sqlite3_column_int64(st, 0);
	k->addr = sqlite3_column_int64(st, 1);
	k->end = size <= 0 ? k->addr
	         : k->addr > INT64_MAX - size ? INT64_MAX : k->addr + size;
	k->alloc = sqlite3_column_int64(st, 3);
	k->free = sqlite3_column_type(st, 4) == SQLITE_NULL ? INT64_MAX
	          : sqlite3_column_int64(st, 4);
}

/* The blocks in blk_cmp's order.  They come in id order, which is their
   allocation order: sorted by address alone, stably (linear, where
   qsort's comparisons and moves were half of loading 5.6 M blocks), they
   are in that order but where a tampered database or ids out of
   allocation order say otherwise; then by blk_cmp. */
static int blocks_sort(struct dgvt_model *m)
{
	struct dgvt_blk *tmp;
	size_t i;

	if (m->n_blk < 2)
		return SQLITE_OK;
	if (!(tmp = sqlite3_malloc64(m->n_blk * sizeof *tmp)))
		return SQLITE_NOMEM;
	dg_radix_sort(m->blk, tmp, m->n_blk, sizeof *m->blk);
	sqlite3_free(tmp);
	for (i = 1; i < m->n_blk && blk_cmp(&m->blk[i - 1], &m->blk[i]) <= 0; i++)
		;
	if (i < m->n_blk)
		dg_sort(m->blk, m->n_blk, sizeof *m->blk, blk_cmp);
	return SQLITE_OK;
}

/* The prefix maxima that let a lookup stop walking backwards. */
static int blocks_index(struct dgvt_model *m)
{
	size_t i, n = m->n_blk;

	m->maxend = sqlite3_malloc64(n * sizeof *m->maxend + 1);
	m->gstart = sqlite3_malloc64(n * sizeof *m->gstart + 1);
	m->gmaxfree = sqlite3_malloc64(n * sizeof *m->gmaxfree + 1);
	if (!m->maxend || !m->gstart || !m->gmaxfree)
		return SQLITE_NOMEM;
	for (i = 0; i < n; i++) {
		const struct dgvt_blk *k = &m->blk[i];
		int same = i > 0 && m->blk[i - 1].addr == k->addr;
		m->maxend[i] = i > 0 && m->maxend[i - 1] > k->end ? m->maxend[i - 1] : k->end;
		m->gstart[i] = same ? m->gstart[i - 1] : i;
		m->gmaxfree[i] = same && m->gmaxfree[i - 1] > k->free ? m->gmaxfree[i - 1] : k->free;
	}
	return SQLITE_OK;
}

int dgvt_blocks_load(struct dgvt *t)
{
	struct dgvt_model *m = &t->m;
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	if (m->blocks_loaded)
		return SQLITE_OK;
	rc = dgvt_prepare(&t->d, &st, "SELECT id, addr, size, alloc_icount, free_icount FROM \"%w\".blocks");
	if (rc != SQLITE_OK)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (dgvt_grow(&m->blk, &cap, m->n_blk + 1, sizeof *m->blk) != SQLITE_OK) {
			rc = SQLITE_NOMEM;
			break;
		}
		blk_from_row(&m->blk[m->n_blk++], st);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		rc = blocks_sort(m);
	if (rc == SQLITE_OK) {
		rc = blocks_index(m);
	} else if (rc != SQLITE_NOMEM) {
		rc = dgvt_sql_error(&t->d, "loading blocks");
	}
	if (rc == SQLITE_NOMEM)
		dgvt_error(&t->d, rc, "accesses: out of memory loading blocks");
	if (rc != SQLITE_OK) {
		model_free_blocks(m);
		return rc;
	}
	m->blocks_loaded = 1;
	return SQLITE_OK;
}

/* The index of the block holding address a at icount t: walk back from
   the last block starting at or below a while some earlier block reaches
   past a; in each group of blocks with the same start, look at those
   allocated by t, newest first, while one of them may still be live.
   SIZE_MAX if none.  An address below every block or past every block's
   end (the stack, most globals) is answered without searching. */
size_t dgvt_blocks_above(const struct dgvt_model *m, int64_t a)
{
	size_t lo = 0, hi = m->n_blk;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->blk[mid].addr <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static size_t block_index(const struct dgvt_model *m, int64_t a, int64_t t)
{
	size_t lo, hi, i, j, g0;

	if (m->n_blk == 0 || a < m->blk[0].addr || a >= m->maxend[m->n_blk - 1])
		return SIZE_MAX;
	for (i = dgvt_blocks_above(m, a); i > 0 && m->maxend[i - 1] > a; i = g0) {
		g0 = m->gstart[i - 1];
		lo = g0, hi = i;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (m->blk[mid].alloc <= t)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (j = lo; j > g0 && m->gmaxfree[j - 1] > t; j--) {
			const struct dgvt_blk *k = &m->blk[j - 1];
			if (k->free > t && a < k->end)
				return j - 1;
		}
	}
	return SIZE_MAX;
}

int64_t dgvt_block_at(const struct dgvt_model *m, int64_t a, int64_t t, int *found)
{
	size_t i = block_index(m, a, t);

	*found = i != SIZE_MAX;
	return *found ? m->blk[i].id : -1;
}

/* ------------------------------------------------------------ table object */

int dgvt_init(struct dgvt *t, sqlite3 *db, const char *schema)
{
	memset(t, 0, sizeof *t);
	t->m.chunk_span = -1;
	return dgvt_db_init(&t->d, db, schema, "accesses");
}

void dgvt_free(struct dgvt *t)
{
	model_free(&t->m);
	dgvt_db_free(&t->d);
}
