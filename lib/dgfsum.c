/* dgfsum.c: a filter's cache lines and working set.  See dgfsum.h.
 *
 * One table object type for the four tables (mode and which say which).
 * A scan first reads every chunk's icount span and size and its kind
 * (dgctxset's, or dgiv's from the intervals),
 * then decodes the chunks it needs with dgvtab_scan_picked, then hands
 * out rows: the complement's lines stream from sum_lines with the
 * decoded counts taken off; every other answer is made whole first
 * (rows of four integers) and read back.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdlib.h>
#include <string.h>

#include "dgfsum.h"
#include "dgctxset.h"
#include "dgfilter.h"
#include "dghash.h"
#include "dgiv.h"
#include "dgmem.h"
#include "dgsqlfn.h"
#include "dgvt_scan.h"

#define WINDOW   100000          /* sum_windows' */
#define BIT(k)   (1u << (k))     /* a dgctxset kind in a window's mask */

/* The tables: what they answer (lines, windows) for which filter (the
   call-stack set, the user: intervals); names[mode][which]. */
enum { T_LINES, T_WINDOWS };
enum { M_STACK, M_USER };
static const char *const names[2][2] = {
	{ "dgf_stack_lines", "dgf_stack_windows" },
	{ "dgf_user_lines", "dgf_user_windows" },
};
static const char *const decls[] = {
	"CREATE TABLE x(line INTEGER, reads INTEGER, writes INTEGER)",
	"CREATE TABLE x(window_start INTEGER, accesses INTEGER, lines INTEGER, "
	"pages INTEGER)",
};

struct fsvt {
	sqlite3_vtab base;
	sqlite3 *db;
	int mode, which;
};

/* ------------------------------------------------------------ counts */

/* Reads and writes by key (a line), signed: the complement's are taken
   off.  The last key's index is kept: accesses come in runs on a line. */
struct counts {
	struct dghash h;            /* key -> index */
	int64_t *rw;                /* 2 per index: reads, writes */
	size_t n, cap;
	uint64_t last_key;
	uint32_t last;
	int have_last;
};

static int counts_add(struct counts *c, uint64_t key, int is_write, int64_t d)
{
	uint32_t i;

	if (c->have_last && c->last_key == key) {
		i = c->last;
	} else {
		int added;
		long s = dghash_put(&c->h, key, (uint32_t)c->n, &added);

		if (s < 0)
			return -1;
		if (added) {
			if (c->n >= DGHASH_NONE - 1
			    || dg_grow(&c->rw, &c->cap, 2 * (c->n + 1), sizeof *c->rw) < 0)
				return -1;
			c->rw[2 * c->n] = c->rw[2 * c->n + 1] = 0;
			c->n++;
		}
		i = c->h.vals[s];
		c->last_key = key;
		c->last = i;
		c->have_last = 1;
	}
	c->rw[2 * (size_t)i + (is_write != 0)] += d;
	return 0;
}

static void counts_free(struct counts *c)
{
	dghash_free(&c->h);
	free(c->rw);
	memset(c, 0, sizeof *c);
}

/* ------------------------------------------------------------ chunks */

/* Every chunk by id: its icount span [lo, hi), accesses and kind. */
struct chunks {
	int64_t n;                  /* max id + 1 */
	int64_t *lo, *hi, *acc;
	uint8_t *kind;              /* DGCTXSET_* */
};

static void chunks_free(struct chunks *k)
{
	free(k->lo);
	free(k->hi);
	free(k->acc);
	free(k->kind);
	memset(k, 0, sizeof *k);
}

static int sql_fail(sqlite3 *db, const char *who, char **err)
{
	*err = sqlite3_mprintf("%s: %s", who, sqlite3_errmsg(db));
	return -1;
}

/* The chunks, their kinds from the call-stack set (dgctxset) or from the
   intervals iv (dgiv_kind of the spans read here: dgiv_classify would
   read the chunks again). */
static int chunks_load(sqlite3 *db, const char *who, struct dgiv *iv, struct chunks *k,
		       char **err)
{
	sqlite3_stmt *st = NULL;
	uint8_t *kinds = NULL;
	int64_t n_kinds = 0, i;
	char *msg = NULL;
	int rc = 0;

	memset(k, 0, sizeof *k);
	k->n = dgsqlfn_int(db, "SELECT coalesce(max(id) + 1, 0) FROM chunks");
	if (k->n < 0 || k->n > INT32_MAX) {
		*err = sqlite3_mprintf("%s: chunks: ids out of range", who);
		return -1;
	}
	if (!(k->lo = calloc((size_t)k->n + 1, sizeof *k->lo))
	    || !(k->hi = calloc((size_t)k->n + 1, sizeof *k->hi))
	    || !(k->acc = calloc((size_t)k->n + 1, sizeof *k->acc))
	    || !(k->kind = malloc((size_t)k->n + 1))) {
		*err = sqlite3_mprintf("%s: out of memory", who);
		return -1;
	}
	rc = iv ? 1 : dgctxset_classify(db, &kinds, &n_kinds, &msg);
	if (rc < 0) {
		*err = sqlite3_mprintf("%s: %s", who, msg ? msg : "out of memory");
		sqlite3_free(msg);
		return -1;
	}
	/* where the kinds are not known, every chunk is decoded; an id no
	   chunk has holds no access */
	for (i = 0; i < k->n; i++)
		k->kind[i] = iv ? DGCTXSET_NONE
			   : rc > 0 && i < n_kinds ? kinds[i] : DGCTXSET_PART;
	free(kinds);
	if (sqlite3_prepare_v2(db, "SELECT id, icount_lo, icount_hi, n_accesses FROM chunks",
			       -1, &st, NULL) != SQLITE_OK)
		return sql_fail(db, who, err);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);

		if (id < 0 || id >= k->n)
			continue;
		k->lo[id] = sqlite3_column_int64(st, 1);
		k->hi[id] = sqlite3_column_int64(st, 2);
		k->acc[id] = sqlite3_column_int64(st, 3);
		if (iv)
			k->kind[id] = dgiv_kind(iv, k->lo[id], k->hi[id]);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_fail(db, who, err);
}

/* The accesses of the chunks pick[id] names (the filter's own or all of
   them), into fn(arg[0]); with arg[1], on two threads (dgvtab_scan_split:
   the odd chunk ids into fn(arg[1]) on a helper).  failed[k]: arg[k]'s
   flag that fn ran out of memory. */
static int scan(sqlite3 *db, const char *who, int stack_set, const uint8_t *pick,
		int64_t n_pick, dgvtab_rows_fn *fn, void *const arg[2], const int *const failed[2],
		char **err)
{
	/* stack_set: the set's term; else every row of the chunks (the
	   complement's, or user:'s, which the callback tests) */
	const struct dgvtab_term set = { DGVTAB_STACK_COLUMN, SQLITE_INDEX_CONSTRAINT_EQ, 0,
					 DGFILTER_STACK_SET };
	char *msg = NULL;
	int rc = arg[1] ? dgvtab_scan_split(db, "main", &set, stack_set, pick, n_pick, fn, arg, &msg)
			: dgvtab_scan_picked(db, "main", &set, stack_set, pick, n_pick, 0, fn, arg[0], &msg);

	if (*failed[0] || (arg[1] && *failed[1])) {
		sqlite3_free(msg);
		*err = sqlite3_mprintf("%s: out of memory", who);
		return -1;
	}
	if (rc != SQLITE_OK) {
		*err = sqlite3_mprintf("%s: %s", who, msg ? msg : sqlite3_errstr(rc));
		sqlite3_free(msg);
		return -1;
	}
	sqlite3_free(msg);
	return 0;
}

/* ------------------------------------------------------------ the cursor */

struct fscur {
	sqlite3_vtab_cursor base;
	const char *who;            /* the table's name, for errors */
	sqlite3_stmt *st;           /* lines, complement: sum_lines */
	struct counts delta;        /* what the complement takes off */
	int64_t *rows;              /* else: the rows, 4 integers each */
	size_t n_rows, cap_rows, at;
	int64_t row[4];
	int eof;
};

static int add_row(struct fscur *c, int64_t a, int64_t b, int64_t x, int64_t y)
{
	if (dg_grow(&c->rows, &c->cap_rows, 4 * (c->n_rows + 1), sizeof *c->rows) < 0)
		return -1;
	c->rows[4 * c->n_rows] = a;
	c->rows[4 * c->n_rows + 1] = b;
	c->rows[4 * c->n_rows + 2] = x;
	c->rows[4 * c->n_rows + 3] = y;
	c->n_rows++;
	return 0;
}

static void cursor_reset(struct fscur *c)
{
	sqlite3_finalize(c->st);
	c->st = NULL;
	counts_free(&c->delta);
	free(c->rows);
	c->rows = NULL;
	c->n_rows = c->cap_rows = c->at = 0;
	c->eof = 1;
}

/* ------------------------------------------------------------ lines */

struct line_scan {
	struct counts *c;
	int64_t sign;
	struct dgiv *iv;             /* rows to test (user:), or NULL */
	int failed;
};

static int line_rows(void *arg, const struct dgvtab_row *r, size_t n)
{
	struct line_scan *x = arg;
	size_t i;

	for (i = 0; i < n; i++)
		if ((!x->iv || dgiv_has(x->iv, r[i].icount))
		    && counts_add(x->c, (uint64_t)r[i].addr >> 6, (int)r[i].is_write, x->sign) < 0)
			return x->failed = 1;
	return 0;
}

static int by_line(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The helper thread's counts (x[1]: its own) into x[0]'s. */
static int lines_add(struct counts *to, const struct counts *from)
{
	size_t s, i;

	for (s = 0; s < from->h.cap; s++) {
		if (!from->h.used[s])
			continue;
		i = from->h.vals[s];
		if (counts_add(to, from->h.keys[s], 0, from->rw[2 * i]) < 0
		    || counts_add(to, from->h.keys[s], 1, from->rw[2 * i + 1]) < 0)
			return -1;
	}
	return 0;
}

/* Decode what the lines need: the complement of a broad filter (every
   access of the chunks not taken whole, to take off sum_lines, and the
   passing ones of those in part, to put back), else the passing accesses
   themselves.  *complement says which.  On two threads: x[1] counts the
   odd chunks into a counts (and a copy of the intervals' cursor) of its
   own, added to c after. */
static int lines_decode(sqlite3 *db, const char *who, struct dgiv *iv, const struct chunks *k,
			struct counts *c, int *complement, char **err)
{
	struct counts c1;
	struct dgiv iv1;
	struct line_scan x[2] = { { c, 1, NULL, 0 }, { &c1, 1, NULL, 0 } };
	void *const args[2] = { &x[0], &x[1] };
	const int *const failed[2] = { &x[0].failed, &x[1].failed };
	int64_t whole = 0, none = 0, i;
	uint8_t *pick = malloc((size_t)k->n + 1);
	int rc = -1;

	memset(&c1, 0, sizeof c1);
	if (!pick || dghash_init(&c1.h, 1024) < 0) {
		free(pick);
		*err = sqlite3_mprintf("%s: out of memory", who);
		return -1;
	}
	for (i = 0; i < k->n; i++) {
		whole += k->kind[i] == DGCTXSET_WHOLE ? k->acc[i] : 0;
		none += k->kind[i] == DGCTXSET_NONE ? k->acc[i] : 0;
	}
	*complement = whole > none && dgsqlfn_int(db, "SELECT count(*) FROM sqlite_schema "
						  "WHERE name = 'sum_lines'") == 1;
	if (dghash_init(&c->h, 1024) < 0) {
		*err = sqlite3_mprintf("%s: out of memory", who);
		goto out;
	}
	if (*complement) {
		for (i = 0; i < k->n; i++)
			pick[i] = k->kind[i] != DGCTXSET_WHOLE;
		x[0].sign = x[1].sign = -1;
		if (scan(db, who, 0, pick, k->n, line_rows, args, failed, err) < 0)
			goto out;
		x[0].sign = x[1].sign = 1;
	}
	for (i = 0; i < k->n; i++)
		pick[i] = *complement ? k->kind[i] == DGCTXSET_PART : k->kind[i] != DGCTXSET_NONE;
	if (iv) {
		iv1 = *iv;      /* the arrays shared, read only; the cursor its own */
		x[0].iv = iv;
		x[1].iv = &iv1;
	}
	if (scan(db, who, !iv, pick, k->n, line_rows, args, failed, err) < 0)
		goto out;
	if (lines_add(c, &c1) < 0) {
		*err = sqlite3_mprintf("%s: out of memory", who);
		goto out;
	}
	rc = 0;
out:
	counts_free(&c1);
	free(pick);
	return rc;
}

/* The next line of sum_lines less the complement's counts, skipping
   lines left with no access. */
static int lines_step(struct fscur *c, char **err)
{
	int rc;

	while ((rc = sqlite3_step(c->st)) == SQLITE_ROW) {
		int64_t line = sqlite3_column_int64(c->st, 0);
		int64_t r = sqlite3_column_int64(c->st, 1), w = sqlite3_column_int64(c->st, 2);
		uint32_t i = dghash_get(&c->delta.h, (uint64_t)line);

		if (i != DGHASH_NONE) {
			r += c->delta.rw[2 * (size_t)i];
			w += c->delta.rw[2 * (size_t)i + 1];
		}
		if (r < 0 || w < 0) {
			*err = sqlite3_mprintf("%s: line %lld: the chunks hold more accesses "
					       "than sum_lines", c->who, (long long)line);
			return -1;
		}
		if (r || w) {
			c->row[0] = line;
			c->row[1] = r;
			c->row[2] = w;
			return 0;
		}
	}
	sqlite3_finalize(c->st);
	c->st = NULL;
	c->eof = 1;
	if (rc != SQLITE_DONE) {
		*err = sqlite3_mprintf("%s: sum_lines: %s", c->who, sqlite3_errstr(rc));
		return -1;
	}
	return 0;
}

static int lines_filter(struct fscur *c, sqlite3 *db, struct dgiv *iv, char **err)
{
	struct chunks k;
	int complement = 0, rc = -1;
	size_t i;

	if (chunks_load(db, c->who, iv, &k, err) < 0
	    || lines_decode(db, c->who, iv, &k, &c->delta, &complement, err) < 0)
		goto out;
	if (complement) {
		if (sqlite3_prepare_v2(db, "SELECT line, reads, writes FROM main.sum_lines "
				       "ORDER BY line", -1, &c->st, NULL) != SQLITE_OK) {
			sql_fail(db, c->who, err);
			goto out;
		}
		c->eof = 0;
		rc = lines_step(c, err);
		goto out;
	}
	/* the passing accesses' own lines, sorted */
	for (i = 0; i < c->delta.h.cap; i++) {
		const int64_t *rw;

		if (!c->delta.h.used[i])
			continue;
		rw = c->delta.rw + 2 * (size_t)c->delta.h.vals[i];
		if (add_row(c, (int64_t)c->delta.h.keys[i], rw[0], rw[1], 0) < 0) {
			*err = sqlite3_mprintf("%s: out of memory", c->who);
			goto out;
		}
	}
	dg_sort(c->rows, c->n_rows, 4 * sizeof *c->rows, by_line);
	counts_free(&c->delta);
	c->eof = 0;
	rc = 0;
out:
	chunks_free(&k);
	return rc;
}

/* ------------------------------------------------------------ windows */

/* The mixed windows' accesses, distinct lines and distinct pages.  The
   scan goes in chunk order, so a window is done once the last chunk
   overlapping it has been read (last_chunk): only the windows still
   open keep a set of their lines and one of their pages, a few at a
   time, and small enough to stay in the cache. */
struct win_open {
	int64_t w;
	struct dghash lines, pages;
};

struct win_scan {
	const uint8_t *mixed;
	int64_t n_win;
	int64_t *acc;
	uint32_t *lines, *pages;
	int64_t *last_chunk;        /* per window: the last chunk read for it */
	struct win_open *open;
	size_t n_open, cap_open, at;        /* at: the one used last */
	int64_t chunk;              /* the chunk being read */
	struct recent { uint64_t line; int64_t w; } *recent;
	struct dgiv *iv;             /* rows to test (user:), or NULL */
	int failed;
};

/* (window, line) pairs met lately, direct-mapped by line: most accesses
   go to a line the window has just touched, and so skip both lookups
   (they were a third of xz's working set under fn:lzma_code) */
#define RECENT_BITS 12

/* A new chunk: close the windows no chunk from here on overlaps. */
static void win_retire(struct win_scan *x, int64_t chunk)
{
	size_t i = 0;

	x->chunk = chunk;
	while (i < x->n_open) {
		struct win_open *o = &x->open[i];

		if (x->last_chunk[o->w] >= chunk) {
			i++;
			continue;
		}
		dghash_free(&o->lines);
		dghash_free(&o->pages);
		*o = x->open[--x->n_open];
	}
	x->at = 0;
}

/* Window w's open sets, opened if need be; NULL out of memory. */
static struct win_open *win_find(struct win_scan *x, int64_t w)
{
	struct win_open *o;
	size_t i;

	if (x->at < x->n_open && x->open[x->at].w == w)
		return &x->open[x->at];
	for (i = 0; i < x->n_open; i++)
		if (x->open[i].w == w)
			return &x->open[x->at = i];
	if (dg_grow(&x->open, &x->cap_open, x->n_open + 1, sizeof *x->open) < 0)
		return NULL;
	o = &x->open[x->n_open];
	memset(o, 0, sizeof *o);
	o->w = w;
	if (dghash_init(&o->lines, 1024) < 0 || dghash_init(&o->pages, 64) < 0) {
		dghash_free(&o->lines);
		return NULL;
	}
	return &x->open[x->at = x->n_open++];
}

static int win_access(struct win_scan *x, int64_t chunk, int64_t icount, uint64_t line)
{
	int64_t w = icount / WINDOW;
	struct win_open *o;
	struct recent *r;
	int added;

	if (chunk != x->chunk)
		win_retire(x, chunk);
	if (w < 0 || w >= x->n_win || !x->mixed[w])
		return 0;
	x->acc[w]++;
	r = &x->recent[(line * 0x9E3779B97F4A7C15ull) >> (64 - RECENT_BITS)];
	if (r->line == line && r->w == w)
		return 0;
	r->line = line;
	r->w = w;
	if (!(o = win_find(x, w)) || dghash_put(&o->lines, line, 0, &added) < 0)
		return -1;
	if (!added)
		return 0;
	x->lines[w]++;
	if (dghash_put(&o->pages, line >> 6, 0, &added) < 0)
		return -1;
	x->pages[w] += added;
	return 0;
}

static int win_rows(void *arg, const struct dgvtab_row *r, size_t n)
{
	struct win_scan *x = arg;
	size_t i;

	for (i = 0; i < n; i++)
		if ((!x->iv || dgiv_has(x->iv, r[i].icount))
		    && win_access(x, r[i].chunk_id, r[i].icount, (uint64_t)r[i].addr >> 6) < 0)
			return x->failed = 1;
	return 0;
}

static void win_scan_free(struct win_scan *x)
{
	size_t i;

	for (i = 0; i < x->n_open; i++) {
		dghash_free(&x->open[i].lines);
		dghash_free(&x->open[i].pages);
	}
	free(x->open);
	free(x->acc);
	free(x->lines);
	free(x->pages);
	free(x->last_chunk);
	free(x->recent);
}

/* Each window's mask of the kinds of the chunks overlapping it; *n_win
   windows (0 .. the last access's).  NULL with *err when the chunks'
   spans would need more than MAX_WINDOWS windows or MAX_SPANS steps
   (a trace of 2.7 x 10^13 instructions, or a tampered chunks table),
   or out of memory. */
#define MAX_WINDOWS ((int64_t)1 << 28)
#define MAX_SPANS   ((int64_t)1 << 30)

static int spans(const struct chunks *k, int64_t i)
{
	return k->acc[i] > 0 && k->hi[i] > k->lo[i] && k->lo[i] >= 0;
}

static uint8_t *window_masks(const struct chunks *k, const char *who, int64_t *n_win,
			     char **err)
{
	int64_t i, w, n = 0, steps = 0;
	uint8_t *mask;

	for (i = 0; i < k->n; i++)
		if (spans(k, i)) {
			n = (k->hi[i] - 1) / WINDOW + 1 > n ? (k->hi[i] - 1) / WINDOW + 1 : n;
			steps += (k->hi[i] - 1) / WINDOW - k->lo[i] / WINDOW + 1;
			if (n > MAX_WINDOWS || steps > MAX_SPANS) {
				*err = sqlite3_mprintf("%s: chunk %lld: the chunks span more "
						       "windows than %lld", who, (long long)i,
						       (long long)(n > MAX_WINDOWS ? MAX_WINDOWS
								   : MAX_SPANS));
				return NULL;
			}
		}
	if (!(mask = calloc((size_t)n + 1, 1))) {
		*err = sqlite3_mprintf("%s: out of memory", who);
		return NULL;
	}
	for (i = 0; i < k->n; i++)
		if (spans(k, i))
			for (w = k->lo[i] / WINDOW; w <= (k->hi[i] - 1) / WINDOW; w++)
				mask[w] |= (uint8_t)BIT(k->kind[i]);
	*n_win = n;
	return mask;
}

/* A window is mixed (decoded) when a chunk taken in part overlaps it, or
   chunks of two kinds do; without sum_windows, whenever a chunk of the
   filter's does. */
static int is_mixed(uint8_t m, int summed)
{
	if (!summed)
		return (m & (BIT(DGCTXSET_WHOLE) | BIT(DGCTXSET_PART))) != 0;
	return (m & BIT(DGCTXSET_PART)) || (m & (m - 1));
}

/* The rows in window order: sum_windows' for the windows taken whole,
   the decoded ones for the mixed. */
static int windows_merge(struct fscur *c, sqlite3 *db, const uint8_t *mask,
			 const struct win_scan *x, int summed, char **err)
{
	const char *who = c->who;
	sqlite3_stmt *st = NULL;
	int64_t w = 0, ws;
	int rc = SQLITE_DONE;

	if (summed && sqlite3_prepare_v2(db, "SELECT window_start, accesses, lines, pages "
					 "FROM main.sum_windows ORDER BY window_start",
					 -1, &st, NULL) != SQLITE_OK)
		return sql_fail(db, who, err);
	for (;;) {
		ws = x->n_win;
		if (st && (rc = sqlite3_step(st)) == SQLITE_ROW)
			ws = sqlite3_column_int64(st, 0) / WINDOW;
		for (; w < ws && w < x->n_win; w++)
			if (x->mixed[w] && x->acc[w]
			    && add_row(c, w * WINDOW, x->acc[w], x->lines[w], x->pages[w]) < 0)
				goto oom;
		if (ws >= x->n_win)
			break;
		if (ws < w)             /* (window_start is the key: never) */
			continue;
		if (!x->mixed[ws] && mask[ws] == BIT(DGCTXSET_WHOLE)
		    && add_row(c, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
			       sqlite3_column_int64(st, 2), sqlite3_column_int64(st, 3)) < 0)
			goto oom;
		if (x->mixed[ws] && x->acc[ws]
		    && add_row(c, ws * WINDOW, x->acc[ws], x->lines[ws], x->pages[ws]) < 0)
			goto oom;
		w = ws + 1;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		*err = sqlite3_mprintf("%s: sum_windows: %s", who, sqlite3_errstr(rc));
		return -1;
	}
	return 0;
oom:
	sqlite3_finalize(st);
	*err = sqlite3_mprintf("%s: out of memory", who);
	return -1;
}

static int windows_filter(struct fscur *c, sqlite3 *db, struct dgiv *iv, char **err)
{
	const char *who = c->who;
	struct win_scan x;
	struct chunks k;
	uint8_t *mask = NULL, *mixed = NULL, *pick = NULL;
	int64_t i, w;
	int summed, rc = -1;

	memset(&x, 0, sizeof x);
	x.iv = iv;
	if (chunks_load(db, who, iv, &k, err) < 0)
		goto out;
	summed = dgsqlfn_int(db, "SELECT count(*) FROM sqlite_schema WHERE name = 'sum_windows'") == 1
		 && dgsqlfn_int(db, "SELECT EXISTS (SELECT 1 FROM sum_windows)") == 1;
	if (!(mask = window_masks(&k, who, &x.n_win, err)))
		goto out;
	if (!(mixed = calloc((size_t)x.n_win + 1, 1))
	    || !(pick = calloc((size_t)k.n + 1, 1))
	    || !(x.acc = calloc((size_t)x.n_win + 1, sizeof *x.acc))
	    || !(x.lines = calloc((size_t)x.n_win + 1, sizeof *x.lines))
	    || !(x.pages = calloc((size_t)x.n_win + 1, sizeof *x.pages))
	    || !(x.last_chunk = calloc((size_t)x.n_win + 1, sizeof *x.last_chunk))
	    || !(x.recent = malloc(sizeof *x.recent << RECENT_BITS)))
		goto oom;
	for (i = 0; i < (int64_t)1 << RECENT_BITS; i++)
		x.recent[i].w = -1;
	for (w = 0; w < x.n_win; w++)
		mixed[w] = (uint8_t)is_mixed(mask[w], summed);
	x.mixed = mixed;
	/* the filter's chunks that overlap a mixed window, and each
	   window's last one */
	for (i = 0; i < k.n; i++)
		if (k.kind[i] != DGCTXSET_NONE && spans(&k, i))
			for (w = k.lo[i] / WINDOW; w <= (k.hi[i] - 1) / WINDOW && !pick[i]; w++)
				pick[i] = mixed[w];
	for (i = 0; i < k.n; i++)
		if (pick[i])
			for (w = k.lo[i] / WINDOW; w <= (k.hi[i] - 1) / WINDOW; w++)
				x.last_chunk[w] = i;
	x.chunk = -1;
	if (scan(db, who, !iv, pick, k.n, win_rows, (void *const[2]){ &x, NULL },
		 (const int *const[2]){ &x.failed, NULL }, err) < 0
	    || windows_merge(c, db, mask, &x, summed, err) < 0)
		goto out;
	c->eof = 0;
	rc = 0;
	goto out;
oom:
	*err = sqlite3_mprintf("%s: out of memory", who);
out:
	chunks_free(&k);
	win_scan_free(&x);
	free(mask);
	free(mixed);
	free(pick);
	return rc;
}

/* ------------------------------------------------------------ the module */

static int fs_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
		      sqlite3_vtab **out, char **err)
{
	int mode = (int)(intptr_t)aux >> 1, which = (int)(intptr_t)aux & 1;
	struct fsvt *t;
	int rc;

	(void)argc;
	(void)argv;
	if ((rc = sqlite3_declare_vtab(db, decls[which])) != SQLITE_OK)
		return rc;
	if (!(t = sqlite3_malloc(sizeof *t))) {
		*err = sqlite3_mprintf("%s: out of memory", names[mode][which]);
		return SQLITE_NOMEM;
	}
	memset(t, 0, sizeof *t);
	t->db = db;
	t->mode = mode;
	t->which = which;
	*out = &t->base;
	return SQLITE_OK;
}

static int fs_disconnect(sqlite3_vtab *vt)
{
	sqlite3_free(vt);
	return SQLITE_OK;
}

/* No constraint is taken: every scan makes the whole answer, in the
   first column's order. */
static int fs_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	(void)vt;
	info->estimatedCost = 1e6;
	info->orderByConsumed = info->nOrderBy == 1 && info->aOrderBy[0].iColumn == 0
				&& !info->aOrderBy[0].desc;
	return SQLITE_OK;
}

static int fs_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	struct fscur *c = sqlite3_malloc(sizeof *c);

	(void)vt;
	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof *c);
	c->eof = 1;
	*out = &c->base;
	return SQLITE_OK;
}

static int fs_close(sqlite3_vtab_cursor *cur)
{
	cursor_reset((struct fscur *)cur);
	sqlite3_free(cur);
	return SQLITE_OK;
}

static int fs_fail(struct fscur *c, char *msg)
{
	sqlite3_vtab *vt = c->base.pVtab;

	sqlite3_free(vt->zErrMsg);
	vt->zErrMsg = msg;
	return msg ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* The next row: from sum_lines (a complement) or the rows made. */
static int fs_next(sqlite3_vtab_cursor *cur)
{
	struct fscur *c = (struct fscur *)cur;
	char *err = NULL;

	if (c->st)
		return lines_step(c, &err) < 0 ? fs_fail(c, err) : SQLITE_OK;
	if (c->at >= c->n_rows) {
		c->eof = 1;
		return SQLITE_OK;
	}
	memcpy(c->row, c->rows + 4 * c->at++, sizeof c->row);
	return SQLITE_OK;
}

static int fs_filter(sqlite3_vtab_cursor *cur, int idx_num, const char *idx_str,
		     int argc, sqlite3_value **argv)
{
	struct fscur *c = (struct fscur *)cur;
	struct fsvt *t = (struct fsvt *)cur->pVtab;
	struct dgiv iv = { 0 };
	char *err = NULL;
	int rc;

	(void)idx_num;
	(void)idx_str;
	(void)argc;
	(void)argv;
	cursor_reset(c);
	c->who = names[t->mode][t->which];
	if (t->mode == M_USER && dgiv_load(t->db, c->who, &iv, &err) < 0)
		rc = -1;
	else if (t->which == T_LINES)
		rc = lines_filter(c, t->db, t->mode == M_USER ? &iv : NULL, &err);
	else
		rc = windows_filter(c, t->db, t->mode == M_USER ? &iv : NULL, &err);
	dgiv_free(&iv);
	if (rc < 0) {
		cursor_reset(c);
		return fs_fail(c, err);
	}
	return c->st ? SQLITE_OK : fs_next(cur);
}

static int fs_eof(sqlite3_vtab_cursor *cur)
{
	return ((struct fscur *)cur)->eof;
}

static int fs_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	struct fscur *c = (struct fscur *)cur;

	if (col >= 0 && col < 4)
		sqlite3_result_int64(ctx, c->row[col]);
	return SQLITE_OK;
}

static int fs_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
	*rowid = ((struct fscur *)cur)->row[0];
	return SQLITE_OK;
}

static const sqlite3_module fs_module = {
	.iVersion = 0,
	.xCreate = NULL,                /* eponymous only */
	.xConnect = fs_connect,
	.xBestIndex = fs_best_index,
	.xDisconnect = fs_disconnect,
	.xOpen = fs_open,
	.xClose = fs_close,
	.xFilter = fs_filter,
	.xNext = fs_next,
	.xEof = fs_eof,
	.xColumn = fs_column,
	.xRowid = fs_rowid,
};

int dgfsum_register(sqlite3 *db, char **errmsg)
{
	int i, rc;

	for (i = 0; i < 4; i++)
		if ((rc = sqlite3_create_module(db, names[i >> 1][i & 1], &fs_module,
						(void *)(intptr_t)i)) != SQLITE_OK) {
			if (errmsg)
				*errmsg = sqlite3_mprintf("%s: %s", names[i >> 1][i & 1],
							  sqlite3_errmsg(db));
			return rc;
		}
	return SQLITE_OK;
}
