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
 * Windows (sum_windows): the lines and pages of the current window of
 * IMP_SUM_WINDOW instructions in two sets of open addressing whose slots
 * carry the window's number, so that a new window empties them without
 * touching them; a finished window is appended to `win`.  Accesses come
 * in icount order (the log is in execution order, across threads); if
 * one ever goes back to an earlier window the summary is not written.
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

#define IMP_SUM_WINDOW 100000

/* A set of 64-bit keys, emptied by bumping `gen`. */
struct wset {
	uint64_t *key;
	uint32_t *gen;
	size_t cap, n;          /* cap a power of two */
};

struct window {
	int64_t start;
	uint64_t accesses, lines, pages;
};

struct imp_sum {
	uint64_t *runs;
	uint32_t *thread;
	size_t cap;
	struct dghash other, miss;
	uint64_t *other_runs, *miss_n;
	size_t cap_other, cap_miss;
	struct wset lines, pages;
	uint32_t gen;           /* number of the current window, from 1 */
	int64_t cur;            /* its icount / IMP_SUM_WINDOW, -1 before */
	uint64_t cur_accesses, last_line;
	struct window *win;
	size_t n_win, cap_win;
	int win_bad;            /* icount went back: no sum_windows */
};

static int sum_chunk(void *arg, const struct imp_chunk_head *h,
		     const struct imp_chunk_run *runs, size_t n_runs,
		     const uint64_t *addrs, char *err, size_t errlen);

int imp_sum_init(struct importer *imp, struct imp_chunk_stage *stage)
{
	struct imp_sum *s = calloc(1, sizeof *s);

	if (!s)
		return imp_fail(imp, "out of memory");
	imp->sum = s;          /* imp_sum_free frees what follows */
	s->cur = -1;
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

/* ------------------------------------------------------------ windows */

static int wset_grow(struct wset *w, uint32_t gen);

/* Adds k to w for window gen; 1 if it was new, 0 if not, -1 (memory). */
static int wset_add(struct wset *w, uint64_t k, uint32_t gen)
{
	size_t i;

	if (2 * (w->n + 1) > w->cap && wset_grow(w, gen) < 0)
		return -1;
	for (i = dghash_mix(k) & (w->cap - 1); w->gen[i] == gen; i = (i + 1) & (w->cap - 1))
		if (w->key[i] == k)
			return 0;
	w->gen[i] = gen;
	w->key[i] = k;
	w->n++;
	return 1;
}

static int wset_grow(struct wset *w, uint32_t gen)
{
	struct wset old = *w;
	size_t i;

	w->cap = old.cap ? 2 * old.cap : 4096;
	w->key = malloc(w->cap * sizeof *w->key);
	w->gen = calloc(w->cap, sizeof *w->gen);
	w->n = 0;
	if (!w->key || !w->gen) {
		free(w->key);
		free(w->gen);
		*w = old;
		return -1;
	}
	for (i = 0; i < old.cap; i++)
		if (old.gen[i] == gen)
			wset_add(w, old.key[i], gen);
	free(old.key);
	free(old.gen);
	return 0;
}

/* Closes the current window (if any) into s->win. */
static int window_close(struct imp_sum *s)
{
	struct window *w;

	if (s->cur < 0)
		return 0;
	if (dg_grow((void **)&s->win, &s->cap_win, s->n_win + 1, sizeof *s->win) < 0)
		return -1;
	w = &s->win[s->n_win++];
	w->start = s->cur * IMP_SUM_WINDOW;
	w->accesses = s->cur_accesses;
	w->lines = s->lines.n;
	w->pages = s->pages.n;
	return 0;
}

static int window_open(struct imp_sum *s, int64_t win)
{
	if (win < s->cur) {
		s->win_bad = 1;
		return 0;
	}
	if (window_close(s) < 0)
		return -1;
	s->cur = win;
	s->gen++;
	s->lines.n = s->pages.n = 0;
	s->cur_accesses = 0;
	s->last_line = UINT64_MAX;
	return 0;
}

/* One access at icount ic into the window summary. */
static inline int window_add(struct imp_sum *s, int64_t ic, uint64_t addr)
{
	uint64_t line = addr >> 6;
	int r;

	if (ic / IMP_SUM_WINDOW != s->cur && window_open(s, ic / IMP_SUM_WINDOW) < 0)
		return -1;
	s->cur_accesses++;
	if (line == s->last_line)
		return 0;
	s->last_line = line;
	r = wset_add(&s->lines, line, s->gen);
	if (r > 0)
		r = wset_add(&s->pages, line >> 6, s->gen);
	return r < 0 ? -1 : 0;
}

/* One run's accesses into the windows. */
static int windows_run(struct imp_sum *s, const struct imp_chunk_run *x, const uint64_t *a)
{
	const uint8_t *iseq = x->kinds + x->n_acc;
	uint32_t i;

	if (s->win_bad)
		return 0;
	for (i = 0; i < x->n_addrs; i++)
		if (!(a[i] == 0 && (x->kinds[i] & IMP_K_GUARDED))
		    && window_add(s, (int64_t)(x->icount_start + iseq[i]), a[i]) < 0)
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

/* Did run x make every access of its bbdef? */
static int run_whole(const struct imp_chunk_run *x, const uint64_t *a)
{
	uint32_t i;

	if (x->n_addrs != x->n_acc)
		return 0;
	for (i = 0; i < x->n_addrs; i++)
		if (a[i] == 0 && (x->kinds[i] & IMP_K_GUARDED))
			return 0;
	return 1;
}

/* The stage: every run of a chunk, in order, into the summaries. */
static int sum_chunk(void *arg, const struct imp_chunk_head *h,
		     const struct imp_chunk_run *runs, size_t n_runs,
		     const uint64_t *addrs, char *err, size_t errlen)
{
	struct imp_sum *s = arg;
	size_t r;

	for (r = 0; r < n_runs; r++) {
		const struct imp_chunk_run *x = &runs[r];
		int whole = run_whole(x, addrs);
		if (x->context >= UINT32_MAX || h->thread > 0xffff || (!whole && x->n_acc > 0xffff)) {
			snprintf(err, errlen, "context %llu (%u accesses), thread %u: beyond "
			         "what the summaries sum_ctx and sum_ctx_miss number",
			         (unsigned long long)x->context, x->n_acc, h->thread);
			return -1;
		}
		if (ctx_run(s, x->context, h->thread) < 0
		    || (!whole && count_misses(s, h->thread, x, addrs) < 0)
		    || windows_run(s, x, addrs) < 0) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		addrs += x->n_addrs;
	}
	return 0;
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

static int write_windows(struct importer *imp, struct imp_sum *s)
{
	sqlite3_stmt *st;
	size_t i;
	int rc = SQLITE_OK;

	if (s->win_bad || window_close(s) < 0)
		return s->win_bad ? 0 : -1;
	if (sqlite3_prepare_v2(imp->db, "INSERT INTO sum_windows VALUES "
			       "(?1, ?2, ?3, ?4)", -1, &st, NULL) != SQLITE_OK)
		return -1;
	for (i = 0; i < s->n_win && rc == SQLITE_OK; i++) {
		sqlite3_bind_int64(st, 1, s->win[i].start);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)s->win[i].accesses);
		sqlite3_bind_int64(st, 3, (sqlite3_int64)s->win[i].lines);
		sqlite3_bind_int64(st, 4, (sqlite3_int64)s->win[i].pages);
		rc = sqlite3_step(st) == SQLITE_DONE ? sqlite3_reset(st) : SQLITE_ERROR;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_OK ? 0 : -1;
}

int imp_sum_finish(struct importer *imp)
{
	struct imp_sum *s = imp->sum;
	sqlite3_stmt *r = NULL, *m = NULL;
	int rc = -1;

	if (!s)
		return imp_fail(imp, "sum_ctx: no state (importer bug)");
	if (sqlite3_prepare_v2(imp->db, "INSERT INTO sum_ctx VALUES (?1, ?2, ?3)",
			       -1, &r, NULL) == SQLITE_OK
	    && sqlite3_prepare_v2(imp->db, "INSERT INTO sum_ctx_miss VALUES "
				  "(?1, ?2, ?3, ?4)", -1, &m, NULL) == SQLITE_OK
	    && write_runs(imp, s, r) == 0
	    && write_hash(imp, m, &s->miss, s->miss_n, 1) == 0
	    && write_windows(imp, s) == 0)
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
	free(s->runs);
	free(s->thread);
	free(s->other_runs);
	free(s->miss_n);
	dghash_free(&s->other);
	dghash_free(&s->miss);
	free(s->lines.key);
	free(s->lines.gen);
	free(s->pages.key);
	free(s->pages.gen);
	free(s->win);
	free(s);
	imp->sum = NULL;
}
