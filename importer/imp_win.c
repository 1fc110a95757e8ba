/* imp_win.c: working set and lines by class (see imp_win.h).
 *
 * Layout: five open-addressing tables of struct wslot.  `seg` counts the
 * accesses of a segment (the part of a chunk inside one window) by (line,
 * class), and carries the segment's number in each slot, so that a new
 * segment empties it without touching it.  When the segment ends its rows
 * go to the chunk's lines, for the chunk writer (imp_chunk.h: this is the
 * lines stage), to the window's counts by class (hist), into `lines` and
 * into `epoch`.  `lines` (line -> the union of the classes that touched it)
 * and `pages` (made from `lines` when the window closes, likewise) hold the
 * current window and carry its number the same way.  Each keeps the list
 * of its used slots, so closing a segment or window walks only them.
 * `total` is (line, class) over the whole trace.  `epoch` is the same for
 * the last few windows, small enough for the core's own cache; it goes
 * into `total` when it holds EPOCH_ROWS rows.  A line
 * is in about a hundred windows of a trace, and `total` outgrows every
 * cache at 10^9 accesses: updating it a window at a time cost a miss per
 * line and window (52 M on the xz trace).
 *
 * All of it runs on a stage thread of the chunk pipeline (win_chunk): the
 * import thread gives each access's heap bit, the rest of a class (the
 * modules) comes from the context's definition and the bbdef's kinds, and
 * the sets are interned here, in the order of the log and of each
 * segment's rows, so their ids are the same from one import to the next.
 * The import thread's share is a byte store per access (it was 6-13 % of
 * its CPU when the windows were counted there).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "imp_win.h"

#include <stdlib.h>
#include <string.h>

#include "dghash.h"
#include "dgmem.h"
#include "imp.h"
#include "imp_chunk.h"
#include "imp_cls.h"

#define PREFETCH_AHEAD 8      /* `total` slots fetched this many rows early */
#define EPOCH_ROWS 6000       /* `epoch` is flushed into `total` past this */

struct wslot {
	uint64_t key;           /* line or page */
	uint32_t gen, cls;      /* gen 0: empty */
	uint64_t n[2];          /* reads, writes */
};

struct wtab {
	struct wslot *slot;
	uint32_t *used;         /* the used slots, in insertion order */
	size_t cap, n;          /* cap = 2^(64 - shift) */
	unsigned shift;
	int by_cls;             /* keyed by (key, cls), else by key */
};

struct wcls { uint32_t gen; uint64_t acc, lines, pages; };

struct window { int64_t start; uint64_t accesses, lines, pages; };
struct wrow { int64_t start; uint32_t cls; uint64_t acc, lines, pages; };

struct imp_win {
	struct wtab seg, lines, pages, epoch, total;
	uint32_t seg_gen;       /* number of the current segment, from 1 */
	struct imp_chunk_lines *out;    /* the chunk's lines (imp_chunk.h) */
	uint32_t epoch_gen;     /* number of the current epoch, from 1 */
	struct wcls *hist;      /* by class: the current window's counts */
	size_t cap_hist;
	uint32_t *touched;      /* classes with counts in hist */
	size_t n_touched, cap_touched;
	uint32_t gen;           /* number of the current window, from 1 */
	int64_t cur;            /* its icount / IMP_WIN_LEN, -1 before */
	uint64_t lo;            /* its first icount (cur * IMP_WIN_LEN) */
	uint64_t accesses, last_line;
	uint32_t last_cls;
	size_t last_slot;
	struct window *win;
	size_t n_win, cap_win;
	struct wrow *rows;
	size_t n_rows, cap_rows;
	int bad;                /* icount went back: nothing written */
	struct imp_cls *cls;    /* imp->cls, this stage's while it runs */
	uint64_t n_ctx;         /* contexts defined so far */
};

static int win_chunk(void *arg, const struct imp_chunk_view *v, char *err, size_t errlen);

int imp_win_init(struct importer *imp, struct imp_chunk_stage *stage)
{
	struct imp_win *w = calloc(1, sizeof *w);

	if (!w)
		return imp_fail(imp, "out of memory");
	imp->win = w;           /* imp_win_free frees it */
	imp->cls = w->cls = imp_cls_new();
	if (!w->cls)
		return imp_fail(imp, "out of memory");
	w->cur = -1;
	w->lo = (uint64_t)1 << 63;      /* no icount is in it */
	w->seg.by_cls = w->epoch.by_cls = w->total.by_cls = 1;
	w->epoch_gen = w->seg_gen = 1;
	w->last_line = UINT64_MAX;
	stage->chunk = win_chunk;
	stage->arg = w;
	stage->makes_lines = 1;
	return 0;
}

/* ------------------------------------------------------------ tables */

/* Fibonacci hashing: lines and pages come in runs of neighbours, which
   the multiplication spreads; cheaper than a full mix on the access path. */
static inline size_t home(const struct wtab *t, uint64_t key, uint32_t cls)
{
	return (size_t)(((t->by_cls ? key ^ (uint64_t)cls << 40 : key)
			 * 0x9E3779B97F4A7C15ull) >> t->shift);
}

static inline int same(const struct wtab *t, const struct wslot *s, uint64_t key, uint32_t cls)
{
	return s->key == key && (!t->by_cls || s->cls == cls);
}

static int wtab_grow(struct wtab *t, uint32_t gen) __attribute__((noinline, cold));

/* The slot of (key, cls) in t for window gen, added (counts 0, class cls;
   *added 1) if absent; -1 when out of memory.  Inline: it is most of the
   per-access cost, and a call's register saves were a third of it. */
static inline __attribute__((always_inline)) long wtab_at(struct wtab *t, uint64_t key,
							  uint32_t cls, uint32_t gen, int *added)
{
	size_t i;

	*added = 0;
	if (2 * (t->n + 1) > t->cap && wtab_grow(t, gen) < 0)
		return -1;
	for (i = home(t, key, cls); t->slot[i].gen == gen; i = (i + 1) & (t->cap - 1))
		if (same(t, &t->slot[i], key, cls))
			return (long)i;
	t->slot[i].gen = gen;
	t->slot[i].key = key;
	t->slot[i].cls = cls;
	t->slot[i].n[0] = t->slot[i].n[1] = 0;
	t->used[t->n++] = (uint32_t)i;
	*added = 1;
	return (long)i;
}

static int wtab_grow(struct wtab *t, uint32_t gen)
{
	struct wtab old = *t;
	size_t i;
	int added;

	if (old.cap >= (size_t)1 << 31)
		return -1;
	t->cap = old.cap ? 2 * old.cap : 4096;
	t->shift = old.cap ? old.shift - 1 : 64 - 12;
	t->slot = calloc(t->cap, sizeof *t->slot);
	t->used = malloc(t->cap / 2 * sizeof *t->used);
	t->n = 0;
	if (!t->slot || !t->used) {
		free(t->slot);
		free(t->used);
		*t = old;
		return -1;
	}
	for (i = 0; i < old.n; i++) {
		const struct wslot *s = &old.slot[old.used[i]];
		long k = wtab_at(t, s->key, s->cls, gen, &added);

		t->slot[k] = *s;
	}
	free(old.slot);
	free(old.used);
	return 0;
}

static void wtab_free(struct wtab *t)
{
	free(t->slot);
	free(t->used);
}

/* ------------------------------------------------------------ windows */

/* hist[cls], emptied for a new window. */
static struct wcls *hist(struct imp_win *w, uint32_t cls)
{
	if (cls >= w->cap_hist) {
		size_t old = w->cap_hist;

		if (dg_grow((void **)&w->hist, &w->cap_hist, (size_t)cls + 1, sizeof *w->hist) < 0)
			return NULL;
		memset(w->hist + old, 0, (w->cap_hist - old) * sizeof *w->hist);
	}
	if (w->hist[cls].gen != w->gen) {
		if (dg_grow((void **)&w->touched, &w->cap_touched, w->n_touched + 1,
			    sizeof *w->touched) < 0)
			return NULL;
		w->touched[w->n_touched++] = cls;
		w->hist[cls].gen = w->gen;
		w->hist[cls].acc = w->hist[cls].lines = w->hist[cls].pages = 0;
	}
	return &w->hist[cls];
}

/* Adds the n used rows of `from` (a slot array and its used list) to
   `to` for generation gen, prefetching `to`'s slots ahead. */
static int merge(struct wtab *to, uint32_t gen, const struct wtab *from)
{
	size_t i;
	int added;

	for (i = 0; i < from->n; i++) {
		const struct wslot *s = &from->slot[from->used[i]];
		long k;

		if (i + PREFETCH_AHEAD < from->n && to->cap) {
			const struct wslot *p = &from->slot[from->used[i + PREFETCH_AHEAD]];
			__builtin_prefetch(&to->slot[home(to, p->key, p->cls)], 1);
		}
		k = wtab_at(to, s->key, s->cls, gen, &added);
		if (k < 0)
			return -1;
		to->slot[k].n[0] += s->n[0];
		to->slot[k].n[1] += s->n[1];
	}
	return 0;
}

/* `epoch` into `total`, then a new, empty epoch. */
static int flush_epoch(struct imp_win *w)
{
	size_t i;

	if (merge(&w->total, 1, &w->epoch) < 0)
		return -1;
	w->epoch.n = 0;
	if (++w->epoch_gen == 0) {       /* the slots' marks wrapped: clear them */
		for (i = 0; i < w->epoch.cap; i++)
			w->epoch.slot[i].gen = 0;
		w->epoch_gen = 1;
	}
	return 0;
}

/* The window's lines, then pages, by the union of their classes. */
static int close_sets(struct imp_win *w)
{
	size_t i;
	int added;

	for (i = 0; i < w->lines.n; i++) {
		const struct wslot *s = &w->lines.slot[w->lines.used[i]];
		struct wcls *h = hist(w, s->cls);
		long k = wtab_at(&w->pages, s->key >> 6, s->cls, w->gen, &added);

		if (!h || k < 0)
			return -1;
		h->lines++;
		if (!added)
			w->pages.slot[k].cls = imp_cls_union(w->cls, w->pages.slot[k].cls, s->cls);
		if (w->pages.slot[k].cls == UINT32_MAX)
			return -1;
	}
	for (i = 0; i < w->pages.n; i++) {
		struct wcls *h = hist(w, w->pages.slot[w->pages.used[i]].cls);

		if (!h)
			return -1;
		h->pages++;
	}
	return 0;
}

/* Closes the current window (if any) into w->win and w->rows. */
static int window_close(struct imp_win *w)
{
	int64_t start = w->cur * IMP_WIN_LEN;
	size_t i;

	if (w->cur < 0)
		return 0;
	if ((w->epoch.n > EPOCH_ROWS && flush_epoch(w) < 0) || close_sets(w) < 0
	    || dg_grow((void **)&w->win, &w->cap_win, w->n_win + 1, sizeof *w->win) < 0
	    || dg_grow((void **)&w->rows, &w->cap_rows, w->n_rows + w->n_touched,
		       sizeof *w->rows) < 0)
		return -1;
	w->win[w->n_win].start = start;
	w->win[w->n_win].accesses = w->accesses;
	w->win[w->n_win].lines = w->lines.n;
	w->win[w->n_win++].pages = w->pages.n;
	for (i = 0; i < w->n_touched; i++) {
		const struct wcls *h = &w->hist[w->touched[i]];
		struct wrow *r = &w->rows[w->n_rows++];

		r->start = start;
		r->cls = w->touched[i];
		r->acc = h->acc;
		r->lines = h->lines;
		r->pages = h->pages;
	}
	w->n_touched = 0;
	return 0;
}

/* Window numbers mark the slots: on the (theoretical) wrap, clear them. */
static void next_gen(struct imp_win *w)
{
	struct wtab *t[] = { &w->lines, &w->pages };
	size_t i, k;

	if (++w->gen != 0)
		return;
	for (k = 0; k < 2; k++)
		for (i = 0; i < t[k]->cap; i++)
			t[k]->slot[i].gen = 0;
	for (i = 0; i < w->cap_hist; i++)
		w->hist[i].gen = 0;
	w->gen = 1;
}

/* A row of the window: its accesses to hist, the line into `lines` with
   the union of its classes. */
static int window_row(struct imp_win *w, const struct wslot *s)
{
	struct wcls *h = hist(w, s->cls);
	int added;
	long l = wtab_at(&w->lines, s->key, s->cls, w->gen, &added);

	if (!h || l < 0)
		return -1;
	h->acc += s->n[0] + s->n[1];
	if (!added)
		w->lines.slot[l].cls = imp_cls_union(w->cls, w->lines.slot[l].cls, s->cls);
	return w->lines.slot[l].cls == UINT32_MAX ? -1 : 0;
}

/* Ends the segment: its rows to the chunk's lines and (unless the
   windows are given up) to the window's counts and into `epoch`; a new,
   empty segment. */
static int segment_close(struct imp_win *w)
{
	struct imp_chunk_lines *out = w->out;
	int windowed = !w->bad && w->cur >= 0;
	size_t i;

	if (dg_grow((void **)&out->v, &out->cap, out->n + w->seg.n, sizeof *out->v) < 0)
		return -1;
	for (i = 0; i < w->seg.n; i++) {
		const struct wslot *s = &w->seg.slot[w->seg.used[i]];

		out->v[out->n].key = s->key;
		out->v[out->n].n[0] = (uint32_t)s->n[0];
		out->v[out->n++].n[1] = (uint32_t)s->n[1];
		if (windowed && window_row(w, s) < 0)
			return -1;
	}
	/* the count by (line, class) goes on without windows: sum_lines and
	   sum_pages are made of it */
	if (merge(&w->epoch, w->epoch_gen, &w->seg) < 0
	    || (!windowed && w->epoch.n > EPOCH_ROWS && flush_epoch(w) < 0))
		return -1;
	w->seg.n = 0;
	w->last_line = UINT64_MAX;
	if (++w->seg_gen == 0) {         /* the slots' marks wrapped: clear them */
		for (i = 0; i < w->seg.cap; i++)
			w->seg.slot[i].gen = 0;
		w->seg_gen = 1;
	}
	return 0;
}

static int window_open(struct imp_win *w, int64_t win)
{
	if (segment_close(w) < 0)
		return -1;
	if (win < w->cur) {
		w->bad = 1;
		return 0;
	}
	if (window_close(w) < 0)
		return -1;
	w->cur = win;
	w->lo = (uint64_t)win * IMP_WIN_LEN;
	next_gen(w);
	w->lines.n = w->pages.n = 0;
	w->accesses = 0;
	return 0;
}

/* A (line, class) other than the last access's: its slot in `seg`. */
static inline __attribute__((always_inline)) int new_key(struct imp_win *w, uint64_t line,
							 uint32_t cls)
{
	int added;
	long k = wtab_at(&w->seg, line, cls, w->seg_gen, &added);

	if (k < 0)
		return -1;
	w->last_line = line;
	w->last_cls = cls;
	w->last_slot = (size_t)k;
	return 0;
}

/* One access at icount ic, of class cls, is_write wr.  Once the windows
   are given up (icount went back) the segment is the rest of the chunk. */
static inline int window_add(struct imp_win *w, int64_t ic, uint64_t addr, uint32_t cls, int wr)
{
	uint64_t line = addr >> 6;

	if ((uint64_t)ic - w->lo >= IMP_WIN_LEN && !w->bad
	    && window_open(w, ic / IMP_WIN_LEN) < 0)
		return -1;
	w->accesses++;
	if ((line != w->last_line || cls != w->last_cls) && new_key(w, line, cls) < 0)
		return -1;
	w->seg.slot[w->last_slot].n[wr]++;
	return 0;
}

/* The class of an access in `module`, heap bit `heap`, of a run whose
   context has set `set`. */
static inline uint32_t access_cls(struct imp_cls *c, uint32_t set, uint32_t module,
				  uint32_t heap)
{
	if (set & IMP_CLS_MIXED) {
		uint32_t one = imp_cls_single(c, module);

		set = one == UINT32_MAX ? one : imp_cls_set_union(c, set & ~IMP_CLS_MIXED, one);
		if (set == UINT32_MAX)
			return set;
	}
	return set << 1 | heap;
}

/* Counts run x's accesses (addrs, and their heap bits).  0, or -1 out of
   memory. */
static int win_run(struct imp_win *w, const struct imp_chunk_run *x, const uint64_t *addrs,
		   const uint8_t *heap)
{
	const uint8_t *kinds = x->kinds, *iseq = x->kinds + x->n_acc;
	const uint32_t *mods = (const uint32_t *)(const void *)
		(x->kinds + imp_chunk_modules_off(x->n_acc));
	uint32_t i, set = w->cls->ctx_set[x->context], cls;
	uint64_t lo = w->out->lo, hi = w->out->hi;

	for (i = 0; i < x->n_addrs; i++) {
		if (addrs[i] == 0 && (kinds[i] & IMP_K_GUARDED))
			continue;
		lo = addrs[i] < lo ? addrs[i] : lo;
		hi = addrs[i] > hi ? addrs[i] : hi;
		cls = access_cls(w->cls, set, mods[i], heap[i]);
		if (cls == UINT32_MAX || window_add(w, (int64_t)(x->icount_start + iseq[i]),
						    addrs[i], cls, kinds[i] & IMP_K_WRITE) < 0)
			return -1;
	}
	w->out->lo = lo;
	w->out->hi = hi;
	return 0;
}

/* Context definitions d[*k...] that come before run r, in order. */
static int win_defs(struct imp_win *w, const struct imp_chunk_view *v, size_t *k, size_t r)
{
	for (; *k < v->n_defs && v->defs[*k].at_run <= r; ++*k)
		if (imp_cls_define(w->cls, w->n_ctx++, v->words + v->defs[*k].off,
				   v->defs[*k].n) < 0)
			return -1;
	return 0;
}

/* The stage: the chunk's context definitions and runs, in log order (the
   order in which a set is first interned is its id). */
static int win_chunk(void *arg, const struct imp_chunk_view *v, char *err, size_t errlen)
{
	struct imp_win *w = arg;
	const uint64_t *addrs = v->addrs;
	const uint8_t *heap = v->heap;
	size_t r, k = 0;

	w->out = v->lines;
	for (r = 0; r < v->n_runs; r++) {
		const struct imp_chunk_run *x = &v->runs[r];

		if (win_defs(w, v, &k, r) < 0)
			goto oom;
		if (x->context >= w->n_ctx) {
			snprintf(err, errlen, "run of context %llu, which is not defined",
				 (unsigned long long)x->context);
			return -1;
		}
		if (win_run(w, x, addrs, heap) < 0)
			goto oom;
		addrs += x->n_addrs;
		heap += x->n_addrs;
	}
	if (segment_close(w) == 0 && win_defs(w, v, &k, v->n_runs) == 0)
		return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}

/* ------------------------------------------------------------ writing */

static int step(sqlite3_stmt *st)
{
	return sqlite3_step(st) == SQLITE_DONE ? sqlite3_reset(st) : SQLITE_ERROR;
}

static int write_windows(struct importer *imp, struct imp_win *w)
{
	sqlite3_stmt *a = NULL, *b = NULL;
	size_t i;
	int rc = SQLITE_OK;

	if (sqlite3_prepare_v2(imp->db, "INSERT INTO sum_windows VALUES (?1, ?2, ?3, ?4)",
			       -1, &a, NULL) != SQLITE_OK
	    || sqlite3_prepare_v2(imp->db, "INSERT INTO sum_window_class VALUES "
				  "(?1, ?2, ?3, ?4, ?5)", -1, &b, NULL) != SQLITE_OK)
		rc = SQLITE_ERROR;
	for (i = 0; i < w->n_win && rc == SQLITE_OK; i++) {
		sqlite3_bind_int64(a, 1, w->win[i].start);
		sqlite3_bind_int64(a, 2, (sqlite3_int64)w->win[i].accesses);
		sqlite3_bind_int64(a, 3, (sqlite3_int64)w->win[i].lines);
		sqlite3_bind_int64(a, 4, (sqlite3_int64)w->win[i].pages);
		rc = step(a);
	}
	for (i = 0; i < w->n_rows && rc == SQLITE_OK; i++) {
		sqlite3_bind_int64(b, 1, w->rows[i].start);
		sqlite3_bind_int64(b, 2, w->rows[i].cls);
		sqlite3_bind_int64(b, 3, (sqlite3_int64)w->rows[i].acc);
		sqlite3_bind_int64(b, 4, (sqlite3_int64)w->rows[i].lines);
		sqlite3_bind_int64(b, 5, (sqlite3_int64)w->rows[i].pages);
		rc = step(b);
	}
	sqlite3_finalize(a);
	sqlite3_finalize(b);
	return rc == SQLITE_OK ? 0 : -1;
}

static const struct wslot *sort_slots;

static int cmp_slot(const void *x, const void *y)
{
	const struct wslot *a = &sort_slots[*(const uint32_t *)x];
	const struct wslot *b = &sort_slots[*(const uint32_t *)y];

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->cls < b->cls ? -1 : a->cls > b->cls;
}

/* A row (key, reads, writes) of sum_lines or sum_pages. */
static int sum_row(sqlite3_stmt *st, uint64_t key, const uint64_t n[2])
{
	sqlite3_bind_int64(st, 1, (sqlite3_int64)key);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)n[0]);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)n[1]);
	return step(st);
}

/* sum_line_class (unless the windows were given up: its classes come
   with them), and grouped by line sum_lines, by page sum_pages; in key
   order, so each is one sweep over its b-tree. */
static int write_lines(struct importer *imp, struct imp_win *w)
{
	static const char *const sql[3] = {
		"INSERT INTO sum_line_class VALUES (?1, ?2, ?3, ?4)",
		"INSERT INTO sum_lines VALUES (?1, ?2, ?3)",
		"INSERT INTO sum_pages VALUES (?1, ?2, ?3)",
	};
	struct wtab *t = &w->total;
	sqlite3_stmt *st[3] = { NULL, NULL, NULL };
	uint64_t line[3] = { UINT64_MAX, 0, 0 }, page[3] = { UINT64_MAX, 0, 0 };
	size_t i;
	int k, rc = SQLITE_OK;

	sort_slots = t->slot;
	dg_sort(t->used, t->n, sizeof *t->used, cmp_slot);
	for (k = 0; k < 3 && rc == SQLITE_OK; k++)
		rc = sqlite3_prepare_v2(imp->db, sql[k], -1, &st[k], NULL);
	for (i = 0; i < t->n && rc == SQLITE_OK; i++) {
		const struct wslot *s = &t->slot[t->used[i]];

		if (!w->bad) {
			sqlite3_bind_int64(st[0], 1, (sqlite3_int64)s->key);
			sqlite3_bind_int64(st[0], 2, s->cls);
			sqlite3_bind_int64(st[0], 3, (sqlite3_int64)s->n[0]);
			sqlite3_bind_int64(st[0], 4, (sqlite3_int64)s->n[1]);
			rc = step(st[0]);
		}
		/* key order: a line's classes, and a page's lines, are adjacent */
		if (rc == SQLITE_OK && s->key != line[0] && line[0] != UINT64_MAX)
			rc = sum_row(st[1], line[0], line + 1);
		if (rc == SQLITE_OK && s->key >> 6 != page[0] && page[0] != UINT64_MAX)
			rc = sum_row(st[2], page[0], page + 1);
		if (s->key != line[0])
			line[0] = s->key, line[1] = line[2] = 0;
		if (s->key >> 6 != page[0])
			page[0] = s->key >> 6, page[1] = page[2] = 0;
		line[1] += s->n[0], line[2] += s->n[1];
		page[1] += s->n[0], page[2] += s->n[1];
	}
	if (rc == SQLITE_OK && t->n)
		rc = sum_row(st[1], line[0], line + 1);
	if (rc == SQLITE_OK && t->n)
		rc = sum_row(st[2], page[0], page + 1);
	for (k = 0; k < 3; k++)
		sqlite3_finalize(st[k]);
	return rc == SQLITE_OK ? 0 : -1;
}

int imp_win_finish(struct importer *imp)
{
	struct imp_win *w = imp->win;
	int rc = 0;

	if (!w)
		return imp_fail(imp, "sum_windows: no state (importer bug)");
	if ((!w->bad && window_close(w) < 0) || flush_epoch(w) < 0)
		rc = imp_fail(imp, "out of memory");
	else if ((!w->bad && write_windows(imp, w) < 0) || write_lines(imp, w) < 0)
		rc = imp_fail(imp, "%s: writing sum_windows, sum_window_class, "
			      "sum_line_class, sum_lines, sum_pages: %s", imp->db_path,
			      sqlite3_errmsg(imp->db));
	imp_win_free(imp);
	return rc;
}

void imp_win_free(struct importer *imp)
{
	struct imp_win *w = imp->win;

	if (!w)
		return;
	wtab_free(&w->seg);
	wtab_free(&w->lines);
	wtab_free(&w->pages);
	wtab_free(&w->epoch);
	wtab_free(&w->total);
	free(w->hist);
	free(w->touched);
	free(w->win);
	free(w->rows);
	free(w);
	imp->win = NULL;
}
