/* imp_hsum.c: heap summaries (see imp_hsum.h).
 *
 * Layout: each desc counts its heap accesses in one thread (heap_thread,
 * heap_n); when a run of another thread touches the heap through it, the
 * count so far goes to `acc`, a hash from (thread << 32 | desc index) to an
 * index of `n`, and the desc starts over in the new thread.  Each block
 * counts its accesses in the chunk being filled (bc_chunk, bc_n) and keeps
 * the counts of earlier chunks in its own list, written with its row.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "imp_hsum.h"
#include "imp_db.h"

#include <stdlib.h>

#include "dghash.h"
#include "dgmem.h"

struct imp_hsum {
	struct dghash acc;      /* (thread << 32 | desc) -> index of n */
	uint64_t *n;
	size_t cap_n;
	sqlite3_stmt *st_bc;    /* INSERT INTO sum_block_chunks */
};

static struct imp_hsum *hsum_get(struct importer *imp)
{
	struct imp_hsum *h = imp->hsum;

	if (h)
		return h;
	h = calloc(1, sizeof *h);
	if (!h || dghash_init(&h->acc, 1024) < 0) {
		free(h);
		return imp_fail(imp, "out of memory"), NULL;
	}
	return imp->hsum = h;
}

int imp_hsum_new_chunk(struct importer *imp, struct imp_block *x)
{
	if (x->bc_n) {
		if (dg_grow((void **)&x->bc, &x->cap_bc, x->n_bc + 1, sizeof *x->bc) < 0)
			return imp_fail(imp, "out of memory");
		x->bc[x->n_bc].chunk = x->bc_chunk;
		x->bc[x->n_bc++].n = x->bc_n;
	}
	x->bc_chunk = imp->chunk_id;
	x->bc_n = 0;
	return 0;
}

/* d's count so far into the table, for its thread. */
static int desc_fold(struct importer *imp, struct imp_hsum *h, const struct imp_desc *d)
{
	uint64_t key = (uint64_t)d->heap_thread << 32 | (uint64_t)(d - imp->descs);
	int added;
	long s = dghash_put(&h->acc, key, (uint32_t)h->acc.n, &added);

	if (s < 0 || dg_grow((void **)&h->n, &h->cap_n, h->acc.n, sizeof *h->n) < 0)
		return imp_fail(imp, "out of memory");
	if (added)
		h->n[h->acc.n - 1] = 0;
	h->n[h->acc.vals[s]] += d->heap_n;
	return 0;
}

int imp_hsum_new_thread(struct importer *imp, struct imp_desc *d)
{
	struct imp_hsum *h = hsum_get(imp);

	if (!h || (d->heap_n && desc_fold(imp, h, d) < 0))
		return -1;
	d->heap_thread = imp->run_thread;
	d->heap_n = 0;
	return 0;
}

int imp_hsum_block(struct importer *imp, struct imp_block *x)
{
	struct imp_hsum *h;
	size_t i;
	int rc = 0;

	if (x->rw.n[0] + x->rw.n[1] >= IMP_BC_MIN) {
		if (imp_hsum_new_chunk(imp, x) < 0 || !(h = hsum_get(imp)))
			return -1;
		if (!h->st_bc && sqlite3_prepare_v2(imp->db, "INSERT INTO sum_block_chunks "
		                   "VALUES (?1, ?2, ?3)", -1, &h->st_bc, NULL) != SQLITE_OK)
			return imp_db_fail(imp, "prepare");
		for (i = 0; i < x->n_bc && rc == 0; i++) {
			sqlite3_bind_int64(h->st_bc, 1, x->id);
			sqlite3_bind_int64(h->st_bc, 2, x->bc[i].chunk);
			sqlite3_bind_int64(h->st_bc, 3, x->bc[i].n);
			rc = imp_db_step(imp, h->st_bc);
		}
	}
	free(x->bc);
	x->bc = NULL;
	x->n_bc = x->cap_bc = 0;
	return rc;
}

/* sum_heap from the table and every desc's count still pending, through
   a temporary table that sums the descs of one code address (pc, module). */
static int write_heap(struct importer *imp, struct imp_hsum *h)
{
	sqlite3_stmt *st;
	size_t i;
	int rc = 0;

	for (i = 0; i < imp->n_descs; i++)
		if (imp->descs[i].heap_n && desc_fold(imp, h, &imp->descs[i]) < 0)
			return -1;
	if (imp_db_exec(imp, "CREATE TEMP TABLE heap_counts (thread, pc, module_id, is_write, n, bytes)") < 0
	    || sqlite3_prepare_v2(imp->db, "INSERT INTO heap_counts VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	                          -1, &st, NULL) != SQLITE_OK)
		return imp_db_fail(imp, "prepare");
	for (i = 0; i < h->acc.cap && rc == 0; i++) {
		const struct imp_desc *d;
		uint64_t n;
		if (!h->acc.used[i])
			continue;
		d = &imp->descs[(uint32_t)h->acc.keys[i]];
		n = h->n[h->acc.vals[i]];
		sqlite3_bind_int64(st, 1, (int64_t)(h->acc.keys[i] >> 32));
		sqlite3_bind_int64(st, 2, (int64_t)d->pc);
		sqlite3_bind_int64(st, 3, (int64_t)d->module);
		sqlite3_bind_int(st, 4, d->is_write);
		sqlite3_bind_int64(st, 5, (int64_t)n);
		sqlite3_bind_int64(st, 6, (int64_t)(n * d->size));
		rc = imp_db_step(imp, st);
	}
	sqlite3_finalize(st);
	return rc < 0 ? -1 : imp_db_exec(imp, "INSERT INTO sum_heap SELECT thread, pc, module_id, is_write, "
	        "sum(n), sum(bytes) FROM heap_counts GROUP BY thread, pc, module_id, is_write; "
	        "DROP TABLE heap_counts");
}

static int write_threads(struct importer *imp)
{
	sqlite3_stmt *st;
	size_t k;
	int rc = 0;

	if (sqlite3_prepare_v2(imp->db, "INSERT INTO sum_heap_threads VALUES (?1, ?2, ?3, ?4)",
	                       -1, &st, NULL) != SQLITE_OK)
		return imp_db_fail(imp, "prepare");
	for (k = 0; k < imp->n_threads && rc == 0; k++) {
		const struct imp_thread *t = &imp->threads[k];
		if (!t->heap_n)
			continue;
		sqlite3_bind_int64(st, 1, t->id);
		sqlite3_bind_int64(st, 2, (int64_t)t->heap_n);
		sqlite3_bind_int64(st, 3, (int64_t)t->heap_first);
		sqlite3_bind_int64(st, 4, (int64_t)t->heap_last);
		rc = imp_db_step(imp, st);
	}
	sqlite3_finalize(st);
	return rc;
}

int imp_hsum_finish(struct importer *imp)
{
	struct imp_hsum *h = hsum_get(imp);

	if (!h || write_heap(imp, h) < 0 || write_threads(imp) < 0)
		return -1;
	sqlite3_finalize(h->st_bc);     /* before the database closes */
	h->st_bc = NULL;
	return 0;
}

void imp_hsum_free(struct importer *imp)
{
	struct imp_hsum *h = imp->hsum;

	if (!h)
		return;
	dghash_free(&h->acc);
	sqlite3_finalize(h->st_bc);
	free(h->n);
	free(h);
	imp->hsum = NULL;
}
