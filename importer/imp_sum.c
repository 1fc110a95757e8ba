/* imp_sum.c: per-context summaries (see imp_sum.h).
 *
 * Layout: runs[c] counts the runs of context c in thread thread[c], the
 * first thread it ran in; runs in any other thread go to `other`, a hash
 * from (context << 16 | thread) to an index of other_runs.  Missed
 * accesses go to `miss`, a hash from (context << 32 | thread << 16 | aseq)
 * to an index of miss_n.
 *
 * Everything is counted on a thread of its own, a stage of the chunk
 * pipeline (imp_chunk.h) that sees every chunk's runs in order: the state
 * is that thread's until imp_chunk_finish joins it.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "imp_sum.h"

#include <stdlib.h>
#include <string.h>

#include "dghash.h"
#include "dgmem.h"
#include "imp.h"
#include "imp_chunk.h"

struct imp_sum {
	struct imp_thread_runs *threads;    /* by thread id */
	size_t n_threads;
	uint64_t *runs;
	uint32_t *thread;
	size_t cap;
	struct dghash other, miss;
	uint64_t *other_runs, *miss_n;
	size_t cap_other, cap_miss;
};

static int sum_chunk(void *arg, const struct imp_chunk_view *v, char *err, size_t errlen);

int imp_sum_init(struct importer *imp, struct imp_chunk_stage *stage)
{
	struct imp_sum *s = calloc(1, sizeof *s);

	if (!s)
		return imp_fail(imp, "out of memory");
	imp->sum = s;          /* imp_sum_free frees what follows */
	if (dghash_init(&s->other, 64) < 0 || dghash_init(&s->miss, 64) < 0)
		return imp_fail(imp, "out of memory");
	stage->chunk = sum_chunk;
	stage->arg = s;
	return 0;
}

/* counts[slot of key in h]++, the slot's value indexing counts. */
static int bump(struct dghash *h, uint64_t **counts, size_t *cap, uint64_t key,
		uint64_t by)
{
	int added;
	long slot = dghash_put(h, key, (uint32_t)h->n, &added);

	if (slot < 0 || (added && dg_grow((void **)counts, cap, h->n, sizeof **counts) < 0))
		return -1;
	if (added)
		(*counts)[h->vals[slot]] = 0;
	(*counts)[h->vals[slot]] += by;
	return 0;
}

/* The accesses of run x (in thread) that it did not make: its tail when
   partial, guarded ones with address 0.  -1: out of memory. */
static int count_misses(struct imp_sum *s, uint32_t thread,
			const struct imp_chunk_run *x, const uint64_t *a)
{
	uint32_t i;

	for (i = 0; i < x->n_acc; i++)
		if ((i >= x->n_addrs || (a[i] == 0 && (x->kinds[i] & IMP_K_GUARDED)))
		    && bump(&s->miss, &s->miss_n, &s->cap_miss, x->context << 32
			    | (uint64_t)thread << 16 | i, 1) < 0)
			return -1;
	return 0;
}

/* ------------------------------------------------------------ runs */

/* Count a run of context c, made in thread; -1: out of memory. */
static int ctx_run(struct imp_sum *s, uint64_t c, uint32_t thread)
{
	if (c >= s->cap) {
		size_t old = s->cap, cap = old;

		if (dg_grow((void **)&s->runs, &cap, c + 1, sizeof *s->runs) < 0
		    || dg_grow((void **)&s->thread, &old, cap, sizeof *s->thread) < 0)
			return -1;
		memset(s->runs + s->cap, 0, (cap - s->cap) * sizeof *s->runs);
		s->cap = cap;
	}
	if (s->runs[c] == 0 || s->thread[c] == thread) {
		s->thread[c] = thread;
		s->runs[c]++;
		return 0;
	}
	return bump(&s->other, &s->other_runs, &s->cap_other, c << 16 | thread, 1);
}

/* Thread tid's counts, made zero the first time; NULL: out of memory. */
static struct imp_thread_runs *thread_of(struct imp_sum *s, uint32_t tid)
{
	if (tid >= s->n_threads) {
		size_t n = s->n_threads;

		if (dg_grow((void **)&s->threads, &n, (size_t)tid + 1, sizeof *s->threads) < 0)
			return NULL;
		memset(s->threads + s->n_threads, 0, (n - s->n_threads) * sizeof *s->threads);
		s->n_threads = n;
	}
	return &s->threads[tid];
}

/* Run x's counts (addresses a) into its thread's, t, the accesses it made
   in *made (its bbdef's n_acc when it made them all). */
static inline void thread_run(struct imp_thread_runs *t, const struct imp_chunk_run *x,
			      const uint64_t *a, uint32_t *made)
{
	const uint8_t *iseq = x->kinds + x->n_acc, *size = x->kinds + 2 * (size_t)x->n_acc;
	const struct imp_chunk_totals *tot;
	uint32_t i;

	if (!t->runs++)
		t->first = x->icount_start;
	t->last = x->icount_start + x->n_instrs;
	tot = imp_chunk_totals(x->kinds, x->n_acc);
	if (x->n_addrs == x->n_acc && x->n_acc > 0 && !tot->any_guarded) {
		/* it made every access: its bbdef's totals (most runs) */
		*made = x->n_acc;
		if (!t->accesses)
			t->first_access = x->icount_start + iseq[0];
		t->accesses += x->n_acc;
		t->last_access = x->icount_start + iseq[x->n_acc - 1];
		imp_rw_add(&t->rw, 0, tot->n[0], tot->bytes[0]);
		imp_rw_add(&t->rw, 1, tot->n[1], tot->bytes[1]);
		return;
	}
	*made = 0;
	for (i = 0; i < x->n_addrs; i++) {
		int w = x->kinds[i] & IMP_K_WRITE;

		if (a[i] == 0 && (x->kinds[i] & IMP_K_GUARDED))
			continue;
		++*made;
		if (!t->accesses++)
			t->first_access = x->icount_start + iseq[i];
		t->last_access = x->icount_start + iseq[i];
		imp_rw_add(&t->rw, w, 1, size[i]);
	}
}

/* The stage: every run of a chunk, in order, into the summaries.  A
   chunk's runs are one thread's: its counts are a local copy meanwhile,
   which the compiler keeps in registers (they were stores to memory at
   every run). */
static int sum_chunk(void *arg, const struct imp_chunk_view *v, char *err, size_t errlen)
{
	struct imp_sum *s = arg;
	const struct imp_chunk_head *h = v->head;
	const uint64_t *addrs = v->addrs;
	struct imp_thread_runs *tp, t;
	size_t r;

	if (v->n_runs == 0)
		return 0;
	if (!(tp = thread_of(s, h->thread)))
		goto oom;
	t = *tp;
	for (r = 0; r < v->n_runs; r++) {
		const struct imp_chunk_run *x = &v->runs[r];
		uint32_t made;
		int whole;

		thread_run(&t, x, addrs, &made);
		whole = made == x->n_acc;      /* every access of its bbdef */
		if (x->context >= UINT32_MAX || h->thread > 0xffff || (!whole && x->n_acc > 0xffff)) {
			snprintf(err, errlen, "context %llu (%u accesses), thread %u: beyond "
			         "what the summaries sum_ctx and sum_ctx_miss number",
			         (unsigned long long)x->context, x->n_acc, h->thread);
			return -1;
		}
		if (ctx_run(s, x->context, h->thread) < 0
		    || (!whole && count_misses(s, h->thread, x, addrs) < 0))
			goto oom;
		addrs += x->n_addrs;
	}
	*tp = t;
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}

/* Runs every (key, count) of h through st as (?1, ?2, [?3,] count). */
static int write_hash(struct importer *imp, sqlite3_stmt *st,
		      const struct dghash *h, const uint64_t *counts, int with_aseq)
{
	size_t i;

	for (i = 0; i < h->cap; i++) {
		uint64_t k = h->keys[i];

		if (!h->used[i])
			continue;
		sqlite3_bind_int64(st, 1, (sqlite3_int64)(with_aseq ? k >> 32 : k >> 16));
		sqlite3_bind_int64(st, 2, (sqlite3_int64)(with_aseq ? (k >> 16 & 0xffff)
							  : (k & 0xffff)));
		if (with_aseq)
			sqlite3_bind_int64(st, 3, (sqlite3_int64)(k & 0xffff));
		sqlite3_bind_int64(st, 3 + with_aseq, (sqlite3_int64)counts[h->vals[i]]);
		if (sqlite3_step(st) != SQLITE_DONE || sqlite3_reset(st) != SQLITE_OK)
			return -1;
	}
	return 0;
}

static int write_runs(struct importer *imp, struct imp_sum *s, sqlite3_stmt *st)
{
	size_t c;

	for (c = 0; c < s->cap; c++) {
		if (!s->runs[c])
			continue;
		sqlite3_bind_int64(st, 1, (sqlite3_int64)c);
		sqlite3_bind_int64(st, 2, s->thread[c]);
		sqlite3_bind_int64(st, 3, (sqlite3_int64)s->runs[c]);
		if (sqlite3_step(st) != SQLITE_DONE || sqlite3_reset(st) != SQLITE_OK)
			return -1;
	}
	return write_hash(imp, st, &s->other, s->other_runs, 0);
}

/* The run loop's counts into imp->threads (the import thread made an
   entry for every thread that ran: imp_thread). */
static int threads_give(struct importer *imp, const struct imp_sum *s)
{
	size_t k;

	for (k = 0; k < s->n_threads; k++) {
		if (!s->threads[k].runs)
			continue;
		if (k >= imp->n_threads)
			return imp_fail(imp, "thread %zu ran but has no entry (importer bug)", k);
		imp->threads[k].r = s->threads[k];
	}
	return 0;
}

int imp_sum_finish(struct importer *imp)
{
	struct imp_sum *s = imp->sum;
	sqlite3_stmt *r = NULL, *m = NULL;
	int rc = -1;

	if (!s)
		return imp_fail(imp, "sum_ctx: no state (importer bug)");
	if (threads_give(imp, s) < 0)
		return -1;
	if (sqlite3_prepare_v2(imp->db, "INSERT INTO sum_ctx VALUES (?1, ?2, ?3)",
			       -1, &r, NULL) == SQLITE_OK
	    && sqlite3_prepare_v2(imp->db, "INSERT INTO sum_ctx_miss VALUES "
				  "(?1, ?2, ?3, ?4)", -1, &m, NULL) == SQLITE_OK
	    && write_runs(imp, s, r) == 0
	    && write_hash(imp, m, &s->miss, s->miss_n, 1) == 0)
		rc = 0;
	else
		imp_fail(imp, "%s: writing sum_ctx: %s", imp->db_path,
			 sqlite3_errmsg(imp->db));
	sqlite3_finalize(r);
	sqlite3_finalize(m);
	imp_sum_free(imp);
	return rc;
}

void imp_sum_free(struct importer *imp)
{
	struct imp_sum *s = imp->sum;

	if (!s)
		return;
	free(s->threads);
	free(s->runs);
	free(s->thread);
	free(s->other_runs);
	free(s->miss_n);
	dghash_free(&s->other);
	dghash_free(&s->miss);
	free(s);
	imp->sum = NULL;
}
