/* dgplot.c: the dg_view picture (see dgplot.h).
 *
 * Geometry: the plot area is the image less fixed margins, so one grid
 * cell is one pixel.  Compressed x ("cx") of an address is its page's rank
 * among the pages used times the page size, plus its offset in the page.
 * The binned picture goes to gnuplot as a raw RGB array (rgbimage); the
 * axes, discontinuities, boundaries and region names as script commands.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "dgplot.h"
#include "dgcells.h"
#include "dgctxset.h"
#include "dgfilter.h"
#include "dgiv.h"
#include "dgvt_scan.h"
#include "dgesc.h"
#include "dghash.h"
#include "dgside.h"
#include "dgmem.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define M_LEFT 90
#define M_RIGHT 20
#define M_TOP 50
#define M_BOTTOM 80
#define MAX_ARROWS 2000

struct plot {
	sqlite3 *db;
	const struct dgplot_opts *o;
	int64_t *pages;         /* sorted page numbers used */
	size_t npages;
	int64_t ylo, yhi;       /* [ylo, yhi) */
	int pw, ph;             /* plot area = grid */
	uint32_t *reads, *writes;
	char *zoom;             /* SQL conditions, starting with " AND" */
	char **err;
	int summary;            /* gathered from chunk_cells, not accesses */
	int empty;              /* find_pages found no access to draw */
	int page_shift;         /* log2 of the page size */
	double total;           /* total_cx, once the pages are known */
	uint8_t *kinds;         /* a call-stack filter: per chunk id, whether it
	                           takes the chunk whole (its cells), in part
	                           (decoded) or not (dgctxset.h); else NULL */
	int64_t n_kinds;
	int64_t memo_page;      /* page_rank's last answer (memo_rank < 0: none) */
	int64_t memo_rank;
	/* page_rank's answers by page, direct-mapped (rank + 1; 0 empty):
	   a decoded access's page is seldom the last one's (stack and heap
	   take turns), and the search was a sixth of a filtered plot */
	struct { int64_t page, rank1; } ranks[256];
	/* --events user: alone (dg_user_filtered()): its intervals, which
	   every decoded access is tested against (user_set) */
	struct dgiv iv;
	int has_iv;             /* 1 loaded, 0 not yet, -1 not such a filter */
	const char *type;       /* dgplot_fields: the type, and its */
	char **labels;          /* fields' paths, one per row (ph of them) */
	/* what write_files writes: the address plot's or the fields' */
	void (*script)(struct plot *p, FILE *f, const char *term, const char *img);
};

/* ---------------------------------------------------------- arithmetic */

/* Every number below may come from a tampered database, so no signed
   arithmetic on them may overflow and no double may be cast to an integer
   type it does not fit.  Addresses wrap modulo 2^64 (they are unsigned in
   the trace, stored signed); icounts are clamped. */

/* d as an int64_t, saturated (NaN: 0). */
static int64_t sat_i64(double d)
{
	if (!(d == d))
		return 0;
	if (d >= 9223372036854775807.0)
		return INT64_MAX;
	if (d <= -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)d;
}

/* d as an int in [lo, hi] (NaN: lo). */
static int clamp_int(double d, int lo, int hi)
{
	return !(d >= lo) ? lo : d > hi ? hi : (int)d;
}

static int64_t wrap_add(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}

static int64_t wrap_mul(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a * (uint64_t)b);
}

/* ---------------------------------------------------------- options */

void dgplot_defaults(struct dgplot_opts *o)
{
	memset(o, 0, sizeof *o);
	o->width = 1024;
	o->height = 768;
	o->page_size = 4096;
	o->line_size = 64;
}

static int parse_num(const char *s, int64_t *v)
{
	char *end;

	errno = 0;
	*v = (int64_t)strtoull(s, &end, 0);
	return *s && !*end && errno == 0 ? 0 : -1;
}

static int parse_pair(const char *s, char sep, int64_t *a, int64_t *b)
{
	const char *m = strchr(s, sep);
	char first[64];

	if (!m || (size_t)(m - s) >= sizeof first)
		return -1;
	memcpy(first, s, m - s);
	first[m - s] = 0;
	return parse_num(first, a) < 0 || parse_num(m + 1, b) < 0 ? -1 : 0;
}

int dgplot_set(struct dgplot_opts *o, const char *name, const char *v,
	       char **err)
{
	int64_t a, b;

	if (!strcmp(name, "size")) {
		if (parse_pair(v, 'x', &a, &b) == 0 && a >= 200 && b >= 200 &&
		    a <= 20000 && b <= 20000) {
			o->width = (int)a;
			o->height = (int)b;
			return 0;
		}
		*err = sqlite3_mprintf("size '%s': expected WxH, each 200 to "
				       "20000 pixels", v);
	} else if (!strcmp(name, "addr-range") || !strcmp(name, "icount-range")) {
		int is_addr = name[0] == 'a';

		if (parse_pair(v, ':', &a, &b) == 0 && a < b) {
			*(is_addr ? &o->addr_lo : &o->icount_lo) = a;
			*(is_addr ? &o->addr_hi : &o->icount_hi) = b;
			*(is_addr ? &o->has_addr : &o->has_icount) = 1;
			return 0;
		}
		*err = sqlite3_mprintf("%s '%s': expected LO:HI with LO < HI",
				       name, v);
	} else if (!strcmp(name, "page-size") || !strcmp(name, "line-size")) {
		if (parse_num(v, &a) == 0 && a >= 1 && (a & (a - 1)) == 0) {
			*(name[0] == 'p' ? &o->page_size : &o->line_size) = a;
			return 0;
		}
		*err = sqlite3_mprintf("%s '%s': expected a power of two", name,
				       v);
	} else
		*err = sqlite3_mprintf("unknown plot option '--%s'", name);
	return -1;
}

int dgplot_view(struct dgplot_opts *o, const char *w, const char *h,
		const char *addr, const char *icount, char **err)
{
	int64_t a, b;

	if (!w || !h || parse_num(w, &a) < 0 || parse_num(h, &b) < 0 ||
	    a < 1 || b < 1 || a > DGPLOT_GRID_MAX || b > DGPLOT_GRID_MAX) {
		*err = sqlite3_mprintf("w and h: expected whole numbers from 1 to %d",
				       DGPLOT_GRID_MAX);
		return -1;
	}
	o->width = (int)a;
	o->height = (int)b;
	if (addr && dgplot_set(o, "addr-range", addr, err) < 0)
		return -1;
	if (icount && dgplot_set(o, "icount-range", icount, err) < 0)
		return -1;
	return 0;
}

/* ---------------------------------------------------------- gathering */

static int sql_fail(struct plot *p)
{
	*p->err = sqlite3_mprintf("%s", sqlite3_errmsg(p->db));
	return -1;
}

static int prepare(struct plot *p, sqlite3_stmt **st, const char *fmt,
		   const char *arg)
{
	char *sql = sqlite3_mprintf(fmt, arg, p->zoom);
	int rc = sqlite3_prepare_v2(p->db, sql, -1, st, NULL);

	sqlite3_free(sql);
	return rc == SQLITE_OK ? 0 : sql_fail(p);
}

/* The relation drawn, and each row's weight: filtered_accesses' rows are
   one access each. */
static const char *source(const struct plot *p)
{
	return p->o->source ? p->o->source : "filtered_accesses";
}

static const char *weight(const struct plot *p)
{
	return p->o->source ? "n" : "1";
}

static int64_t one_int(struct plot *p, const char *sql, int *ok)
{
	sqlite3_stmt *st;
	int64_t v = 0;

	*ok = sqlite3_prepare_v2(p->db, sql, -1, &st, NULL) == SQLITE_OK
	   && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL;
	if (*ok)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* Collect the keys of a page set, sorted. */
static int pages_from_set(struct plot *p, const struct dghash *set)
{
	size_t i;

	p->pages = malloc((set->n + 1) * sizeof *p->pages);
	if (!p->pages) {
		*p->err = sqlite3_mprintf("out of memory");
		return -1;
	}
	for (i = 0; i < set->cap; i++)
		if (set->used[i])
			p->pages[p->npages++] = (int64_t)set->keys[i];
	dg_sort(p->pages, p->npages, sizeof *p->pages, cmp_i64);
	return 0;
}

/* The pages with accesses inside the address zoom (page-aligned). */
static int64_t pages_in_zoom(struct plot *p, int *ok)
{
	char *sql = sqlite3_mprintf("SELECT count(*) FROM sum_pages WHERE page >= %lld "
				    "AND page < %lld", (long long)(p->o->addr_lo / 4096),
				    (long long)(p->o->addr_hi / 4096));
	int64_t n = sql ? one_int(p, sql, ok) : (*ok = 0);

	sqlite3_free(sql);
	return n;
}

/* Can the whole-trace picture come from chunk_cells?  Only without a
   filter or an address zoom, with 4 KiB pages, when a 256-byte cell is at
   most a pixel wide and a chunk at most a few rows high: then the summary
   gives the same picture as the accesses, for the cost of a row per chunk
   and cell instead of one per access. */
static int cells_usable(struct plot *p)
{
	int ok1, ok2, ok3, ok4;
	int64_t npages, lo, hi, span;

	/* an address zoom along page boundaries takes whole pages: the pages
	   and cells in it are those of the accesses in it */
	if ((p->o->has_addr && (p->o->addr_lo % 4096 || p->o->addr_hi % 4096))
	    || p->o->page_size != 4096)
		return 0;
	npages = p->o->has_addr ? pages_in_zoom(p, &ok1)
		: one_int(p, "SELECT count(*) FROM sum_pages", &ok1);
	lo = one_int(p, "SELECT min(icount_lo) FROM chunks", &ok2);
	hi = one_int(p, "SELECT max(icount_hi) FROM chunks", &ok3);
	span = one_int(p, "SELECT max(icount_hi - icount_lo) FROM chunks", &ok4);
	if (!ok1 || !ok2 || !ok3 || !ok4 || npages < (p->pw + 15) / 16 || hi <= lo)
		return 0;
	if (p->o->has_icount) {
		lo = p->o->icount_lo;
		hi = p->o->icount_hi;
	}
	/* a database of schema version 7 or older holds chunk_cells as a row
	   per cell, not a blob per chunk: its plot decodes the accesses (the
	   same picture, slower; import the log again for the fast path) */
	return (double)span <= floor(4 * ((double)hi - (double)lo) / p->ph) + 1
	    && one_int(p, "SELECT EXISTS (SELECT 1 FROM pragma_table_info('chunk_cells') "
		       "WHERE name = 'data') AND EXISTS (SELECT 1 FROM chunk_cells)",
		       &ok1) > 0 && ok1;
}

static int summary_usable(struct plot *p)
{
	return p->o->unfiltered && !p->o->source && cells_usable(p);
}

/* 1 when the filter is user: alone (its intervals loaded into p->iv),
   0 when not, -1 an error. */
static int user_set(struct plot *p)
{
	int ok;

	if (p->has_iv)
		return p->has_iv > 0;
	if (p->o->source || one_int(p, "SELECT dg_filtered() AND dg_user_filtered()", &ok) != 1
	    || !ok) {
		p->has_iv = -1;
		return 0;
	}
	if (dgiv_load(p->db, "plot", &p->iv, p->err) < 0)
		return -1;
	p->has_iv = 1;
	return 1;
}

/* A filter of call-stack conditions alone (dg_ctx_summed(): fn:, file:,
   dso: in --events), or of user: alone (an event's chunks), takes many
   chunks whole: with the cells usable as without a filter (the whole
   trace or a zoom), those chunks come from chunk_cells and only the
   chunks it takes in part are decoded (p->kinds).  A broad filter that
   leaves out a few contexts leaves few chunks to decode; one that takes a
   few contexts, few chunks of either kind.  0 not so, -1 an error. */
static int mixed_usable(struct plot *p)
{
	int64_t i, whole = 0, part = 0;
	int ok, rc;

	if (p->o->unfiltered || p->o->source || !cells_usable(p))
		return 0;
	if (one_int(p, "SELECT dg_filtered() AND dg_ctx_summed()", &ok) == 1 && ok)
		rc = dgctxset_classify(p->db, &p->kinds, &p->n_kinds, p->err);
	else if ((rc = user_set(p)) > 0)
		rc = dgiv_classify(p->db, &p->iv, &p->kinds, &p->n_kinds, p->err);
	if (rc <= 0)
		return rc;
	for (i = 0; i < p->n_kinds; i++) {
		whole += p->kinds[i] == DGCTXSET_WHOLE;
		part += p->kinds[i] == DGCTXSET_PART;
	}
	/* mostly chunks in part (a compiler's fn:toplev::main: 139 whole,
	   22 137 in part): decoding them all is as fast, and the statements
	   a stretch between whole chunks each build the filter's set again */
	if (whole < part) {
		free(p->kinds);
		p->kinds = NULL;
		p->n_kinds = 0;
		return 0;
	}
	return 1;
}

static int chunk_whole(const struct plot *p, int64_t id)
{
	return id >= 0 && id < p->n_kinds && p->kinds[id] == DGCTXSET_WHOLE;
}

/* The accesses of the chunks the filter takes in part, decoded, into fn
   (addr, icount, is_write). */
typedef int access_fn(struct plot *p, void *arg, int64_t addr, int64_t icount, int is_write);

struct part_scan {
	struct plot *p;
	access_fn *fn;
	void *arg;
	int failed;
};

static int part_rows(void *arg, const struct dgvtab_row *r, size_t n)
{
	struct part_scan *x = arg;
	size_t i;

	for (i = 0; i < n; i++)
		if ((x->p->has_iv <= 0 || dgiv_has(&x->p->iv, r[i].icount))
		    && x->fn(x->p, x->arg, r[i].addr, r[i].icount, (int)r[i].is_write) < 0)
			return x->failed = 1;
	return 0;
}

/* column >= lo AND column < hi as terms[n], terms[n + 1]; n + 2. */
static int zoom_terms(struct dgvtab_term *terms, int n, int column, int64_t lo, int64_t hi)
{
	terms[n++] = (struct dgvtab_term){ column, SQLITE_INDEX_CONSTRAINT_GE, lo, NULL };
	terms[n++] = (struct dgvtab_term){ column, SQLITE_INDEX_CONSTRAINT_LT, hi, NULL };
	return n;
}

/* The accesses of filtered_accesses in the zoom as terms of the table
   (dgvtab_scan): none (no filter: dg_filtered() 0), or the call-stack set
   alone (dg_ctx_summed()), which the table evaluates in C, or none for
   user: alone (dg_user_filtered(): part_rows tests each row); then the zoom,
   as p->zoom says it in SQL.  *n terms; 0 when the filter or the source
   is SQL the table does not take. */
static int access_terms(struct plot *p, struct dgvtab_term *terms, int *n)
{
	int ok, filtered;

	*n = 0;
	if (p->o->source || (filtered = (int)one_int(p, "SELECT dg_filtered()", &ok), !ok))
		return 0;
	if (filtered && one_int(p, "SELECT dg_ctx_summed()", &ok) == 1 && ok)
		terms[(*n)++] = (struct dgvtab_term){ DGVTAB_STACK_COLUMN, SQLITE_INDEX_CONSTRAINT_EQ,
						      0, DGFILTER_STACK_SET };
	else if (filtered && user_set(p) != 1)     /* user: alone: part_rows tests */
		return 0;
	if (p->o->has_addr)
		*n = zoom_terms(terms, *n, DGVTAB_ADDR_COLUMN, p->o->addr_lo, p->o->addr_hi);
	if (p->o->has_icount)
		*n = zoom_terms(terms, *n, DGVTAB_ICOUNT_COLUMN, p->o->icount_lo, p->o->icount_hi);
	return 1;
}

/* A helper thread's copy of the plot: what it reads shared (options,
   pages, kinds, the intervals' arrays), its page-rank memo its own, its
   errors into *err. */
static void plot_copy(struct plot *hp, const struct plot *p, char **err)
{
	memcpy(hp, p, sizeof *hp);
	hp->err = err;
	hp->memo_rank = -1;
	memset(hp->ranks, 0, sizeof hp->ranks);
}

/* A job split between this thread and a helper (each_access_c, and
   each_cell_ops below): the helper works on a copy of the plot, hp, into a
   result of its own, harg, made from the caller's arg and added to it
   after. */
struct half_ops {
	int  (*make)(struct plot *hp, void *arg, void **harg);
	int  (*add)(struct plot *p, void *arg, struct plot *hp, void *harg);
	void (*drop)(struct plot *hp, void *harg);
};

/* The accesses access_terms gives, scanned in C into fn: all of them, or
   with p->kinds (mixed_usable) those of the chunks the filter takes in
   part alone, one table for them all, the others' data never read.  On
   two threads (dgvtab_scan_split: the odd chunk ids on a helper with a
   connection of its own), as the cells are (each_cell_ops, below): the
   helper into a copy of the plot and a result of its own (ops), added
   to ours after.  Decoding is the time of a zoomed-in view and of a
   filter's partial chunks. */
static int each_access_c(struct plot *p, const struct dgvtab_term *terms, int n,
			 access_fn *fn, void *arg, const struct half_ops *ops)
{
	struct plot hp;
	char *herr = NULL, *msg = NULL;
	void *harg = NULL;
	struct part_scan x[2] = { { p, fn, arg, 0 }, { &hp, fn, NULL, 0 } };
	void *const args[2] = { &x[0], &x[1] };
	int split = dgvtab_split_worth(p->db, "main");
	uint8_t *pick = NULL;
	int64_t i;
	int rc;

	if (p->kinds) {
		if (!(pick = malloc(p->n_kinds ? (size_t)p->n_kinds : 1))) {
			*p->err = sqlite3_mprintf("out of memory");
			return -1;
		}
		for (i = 0; i < p->n_kinds; i++)
			pick[i] = p->kinds[i] == DGCTXSET_PART;
	}
	if (split) {
		plot_copy(&hp, p, &herr);
		if (ops->make(&hp, arg, &harg) < 0) {
			free(pick);
			*p->err = sqlite3_mprintf("out of memory");
			return -1;
		}
		x[1].arg = harg;
	}
	rc = split ? dgvtab_scan_split(p->db, "main", terms, n, pick, p->n_kinds, part_rows, args, &msg)
		   : dgvtab_scan_picked(p->db, "main", terms, n, pick, p->n_kinds, 0, part_rows, &x[0],
					&msg);
	free(pick);
	if (x[0].failed || x[1].failed) {       /* fn said why */
		if (!x[0].failed) {
			*p->err = herr;
			herr = NULL;
		}
		rc = -1;
	} else if (rc != SQLITE_OK) {
		*p->err = msg ? msg : sqlite3_mprintf("accesses: %s", sqlite3_errstr(rc));
		msg = NULL;
		rc = -1;
	} else if (split) {
		rc = ops->add(p, arg, &hp, harg);
	}
	sqlite3_free(msg);
	sqlite3_free(herr);
	if (split)
		ops->drop(&hp, harg);
	return rc;
}

/* The accesses of the chunks a filter takes in part (mixed_usable: the
   call-stack set alone, or user: alone), in the zoom. */
static int each_part_access(struct plot *p, access_fn *fn, void *arg, const struct half_ops *ops)
{
	struct dgvtab_term terms[5];
	int n;

	if (!access_terms(p, terms, &n)
	    || (p->has_iv <= 0 && (!n || terms[0].column != DGVTAB_STACK_COLUMN))) {
		*p->err = sqlite3_mprintf("plot: the filter is neither a call-stack set nor "
					  "user: alone");
		return -1;      /* mixed_usable checked it: our bug */
	}
	return each_access_c(p, terms, n, fn, arg, ops);
}

/* What each_cell calls, per cell of a chunk spanning icounts [lo, hi):
   0 to go on, -1 (with *p->err set) to stop. */
typedef int cell_fn(struct plot *p, void *arg, int64_t lo, int64_t hi,
		    const struct dgcells_cell *c);

/* A cell inside the address zoom (cells_usable: its bounds are cell
   bounds), or any cell without one. */
static int cell_in_zoom(const struct plot *p, const struct dgcells_cell *c)
{
	int64_t a = (int64_t)(c->cell << 8);

	return !p->o->has_addr || (a >= p->o->addr_lo && a < p->o->addr_hi);
}

/* Decode one chunk_cells blob into fn. */
static int chunk_cells_each(struct plot *p, sqlite3_stmt *st, cell_fn *fn, void *arg)
{
	struct dgcells_dec d;
	struct dgcells_cell c;
	int64_t lo = sqlite3_column_int64(st, 1), hi = sqlite3_column_int64(st, 2);
	const void *blob = sqlite3_column_blob(st, 3);
	int e;

	dgcells_begin(&d, blob, (size_t)sqlite3_column_bytes(st, 3));
	while ((e = dgcells_next(&d, &c)) > 0)
		if (cell_in_zoom(p, &c) && fn(p, arg, lo, hi, &c) < 0)
			return -1;
	if (e < 0) {
		char msg[256];

		dgcells_error(&d, e, "chunk_cells", sqlite3_column_int64(st, 0), msg, sizeof msg);
		*p->err = sqlite3_mprintf("%s", msg);
		return -1;
	}
	return 0;
}

/* The cells of the chunks in the window (all of them without
   --icount-range), decoded in C: a row per chunk through SQLite.  half
   -1: every chunk; 0 or 1: those with even or odd ids (the two halves of
   a split, below); db: p->db or the helper's own. */
static int each_cell_half(struct plot *p, sqlite3 *db, cell_fn *fn, void *arg, int half)
{
	char *sql = sqlite3_mprintf("SELECT cc.chunk_id, c.icount_lo, c.icount_hi, "
		"cc.data FROM chunk_cells cc JOIN chunks c ON c.id = cc.chunk_id WHERE %s%s",
		half < 0 ? "1" : "cc.chunk_id & 1 = ?3",
		p->o->has_icount ? " AND c.icount_hi > ?1 AND c.icount_lo < ?2" : "");
	sqlite3_stmt *st;
	int rc;

	rc = sql ? sqlite3_prepare_v2(db, sql, -1, &st, NULL) : SQLITE_NOMEM;
	sqlite3_free(sql);
	if (rc != SQLITE_OK) {
		*p->err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
		return -1;
	}
	sqlite3_bind_int64(st, 1, p->o->icount_lo);
	sqlite3_bind_int64(st, 2, p->o->icount_hi);
	sqlite3_bind_int(st, 3, half);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if ((!p->kinds || chunk_whole(p, sqlite3_column_int64(st, 0)))
		    && chunk_cells_each(p, st, fn, arg) < 0) {
			sqlite3_finalize(st);
			return -1;
		}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return 0;
	*p->err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
	return -1;
}

/* ---------------------------------------------------------- two threads

   Binning the cells of a zoomed-out view or a broad filter's whole chunks
   is most of their time (23 893 chunks, 32 M cells on xz), and is sums:
   a helper thread takes the chunks of odd ids, through a read-only
   connection of its own on the same file, into a copy of the
   plot with a result of its own (grids, page set, span), which is then
   added to this thread's.  Whichever thread counts a cell, the answer is
   the same.  A small trace (dgvtab_split_worth) stays on one thread.
   A job's ops (struct half_ops, above) make and add the helper's result. */

/* The helper's share: the odd chunks' cells into hp. */
struct cell_job {
	struct plot hp;
	char *err;
	cell_fn *fn;
	void *harg;
};

static int cell_job(sqlite3 *db, void *v, char **msg)
{
	struct cell_job *j = v;

	if (each_cell_half(&j->hp, db, j->fn, j->harg, 1) == 0)
		return SQLITE_OK;
	*msg = j->err;          /* the plot's message, as the helper's copy put it */
	j->err = NULL;
	return SQLITE_ERROR;
}

static int each_cell_ops(struct plot *p, cell_fn *fn, void *arg, const struct half_ops *ops)
{
	const char *path = sqlite3_db_filename(p->db, "main");
	struct cell_job j;
	struct dgside side;
	char *msg;
	int rc, side_rc;

	if (!dgvtab_split_worth(p->db, "main"))
		return each_cell_half(p, p->db, fn, arg, -1);
	j.err = NULL;
	plot_copy(&j.hp, p, &j.err);
	j.fn = fn;
	if (ops->make(&j.hp, arg, &j.harg) < 0) {
		*p->err = sqlite3_mprintf("out of memory");
		return -1;
	}
	if (dgside_start(&side, path, cell_job, &j) < 0) {
		ops->drop(&j.hp, j.harg);
		return each_cell_half(p, p->db, fn, arg, -1);
	}
	rc = each_cell_half(p, p->db, fn, arg, 0);
	side_rc = dgside_join(&side, &msg);
	if (rc == 0 && side_rc != SQLITE_OK) {
		*p->err = msg;
		msg = NULL;
		rc = -1;
	}
	if (rc == 0 && ops->add(p, arg, &j.hp, j.harg) < 0)
		rc = -1;
	sqlite3_free(msg);
	sqlite3_free(j.err);
	ops->drop(&j.hp, j.harg);
	return rc;
}

/* A page set's job (pages_of_window): the helper's own set, put into ours. */
static int set_make(struct plot *hp, void *arg, void **harg)
{
	struct dghash *set = malloc(sizeof *set);

	(void)hp;
	(void)arg;
	if (!set || dghash_init(set, 4096) < 0) {
		free(set);
		return -1;
	}
	*harg = set;
	return 0;
}

static int set_union(struct plot *p, struct dghash *to, const struct dghash *from)
{
	size_t i;
	int added;

	for (i = 0; i < from->cap; i++)
		if (from->used[i] && dghash_put(to, from->keys[i], 0, &added) < 0) {
			*p->err = sqlite3_mprintf("out of memory");
			return -1;
		}
	return 0;
}

static int set_add(struct plot *p, void *arg, struct plot *hp, void *harg)
{
	(void)hp;
	return set_union(p, arg, harg);
}

static void set_drop(struct plot *hp, void *harg)
{
	(void)hp;
	if (harg)
		dghash_free(harg);
	free(harg);
}

static const struct half_ops set_ops = { set_make, set_add, set_drop };

static int page_of_cell(struct plot *p, void *set, int64_t lo, int64_t hi,
			const struct dgcells_cell *c)
{
	int added;

	(void)lo;
	(void)hi;
	if (dghash_put(set, c->cell >> 4, 0, &added) < 0) {
		*p->err = sqlite3_mprintf("out of memory");
		return -1;
	}
	return 0;
}

/* The pages of the chunks in an icount window, from their cells. */
static int pages_of_window(struct plot *p)
{
	struct dghash set;
	int rc;

	if (dghash_init(&set, 4096) < 0) {
		*p->err = sqlite3_mprintf("out of memory");
		return -1;
	}
	rc = each_cell_ops(p, page_of_cell, &set, &set_ops);
	if (rc == 0)
		rc = pages_from_set(p, &set);
	dghash_free(&set);
	return rc;
}

static int find_pages_cells(struct plot *p);

/* Pass 1 from the summary: pages and span of the chunks in the window. */
static int find_pages_summary(struct plot *p)
{
	/* over the whole trace, the pages of chunk_cells are sum_pages' (an
	   access counts where it starts in both): a row a page instead of
	   every cell of every chunk */
	const char *sql = "SELECT page FROM sum_pages ORDER BY page";
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc, ok;

	if (p->o->has_icount) {
		if (pages_of_window(p) < 0)
			return -1;
		p->summary = 1;
		return 0;
	}
	if (p->o->has_addr)
		return find_pages_cells(p);
	rc = sqlite3_prepare_v2(p->db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return sql_fail(p);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (p->npages == cap) {
			int64_t *n;
			cap = cap ? 2 * cap : 4096;
			if (!(n = realloc(p->pages, cap * sizeof *n)))
				break;
			p->pages = n;
		}
		p->pages[p->npages++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return rc == SQLITE_ROW ? (*p->err = sqlite3_mprintf("out of memory"), -1)
		                        : sql_fail(p);
	p->ylo = one_int(p, "SELECT min(icount_lo) FROM chunks", &ok);
	p->yhi = one_int(p, "SELECT max(icount_hi) FROM chunks", &ok);
	p->summary = 1;
	return 0;
}

/* Pass 1 of a call-stack filter's picture (mixed_usable): the pages and
   span of the chunks it takes whole from their cells, of the others from
   their accesses that pass. */
struct span {
	struct dghash set;
	int64_t lo, hi;
	uint64_t last;          /* the page put last, if have_last */
	int have_last;
};

/* page into the span's set, unless it was the last one put (cells come
   in address order, and accesses stay on a page for a while). */
static int span_page(struct plot *p, struct span *sp, uint64_t page)
{
	int added;

	if (sp->have_last && page == sp->last)
		return 0;
	sp->last = page;
	sp->have_last = 1;
	if (dghash_put(&sp->set, page, 0, &added) < 0) {
		*p->err = sqlite3_mprintf("out of memory");
		return -1;
	}
	return 0;
}

static int span_cell(struct plot *p, void *arg, int64_t lo, int64_t hi,
                     const struct dgcells_cell *c)
{
	struct span *sp = arg;

	if (lo < sp->lo)
		sp->lo = lo;
	if (hi > sp->hi)
		sp->hi = hi;
	return span_page(p, sp, c->cell >> 4);
}

static int span_access(struct plot *p, void *arg, int64_t addr, int64_t icount, int is_write)
{
	struct span *sp = arg;

	(void)is_write;
	if (icount < sp->lo)
		sp->lo = icount;
	if (icount >= sp->hi)
		sp->hi = icount == INT64_MAX ? icount : icount + 1;
	return span_page(p, sp, (uint64_t)(addr / p->o->page_size));
}

/* A span's job (pass 1): the helper's own span, merged into ours. */
static int span_make(struct plot *hp, void *arg, void **harg)
{
	struct span *sp = calloc(1, sizeof *sp);

	(void)hp;
	(void)arg;
	if (!sp || dghash_init(&sp->set, 4096) < 0) {
		free(sp);
		return -1;
	}
	sp->lo = INT64_MAX;
	sp->hi = INT64_MIN;
	*harg = sp;
	return 0;
}

static int span_add(struct plot *p, void *arg, struct plot *hp, void *harg)
{
	struct span *sp = arg, *h = harg;

	(void)hp;
	if (h->lo < sp->lo)
		sp->lo = h->lo;
	if (h->hi > sp->hi)
		sp->hi = h->hi;
	sp->have_last = 0;
	return set_union(p, &sp->set, &h->set);
}

static void span_drop(struct plot *hp, void *harg)
{
	struct span *h = harg;

	(void)hp;
	if (h)
		dghash_free(&h->set);
	free(h);
}

static const struct half_ops span_ops = { span_make, span_add, span_drop };

/* Pass 1 from chunk_cells: the pages and the span of the chunks with
   cells in the view; with a call-stack filter's kinds (mixed_usable), of
   the chunks it takes whole, and of the passing accesses of those it
   takes in part, decoded.  Without: an address zoom over the whole run
   (as the whole trace's span comes from chunks'). */
static int find_pages_cells(struct plot *p)
{
	struct span sp = { .lo = INT64_MAX, .hi = INT64_MIN };
	int rc;

	if (dghash_init(&sp.set, 4096) < 0) {
		*p->err = sqlite3_mprintf("out of memory");
		return -1;
	}
	rc = each_cell_ops(p, span_cell, &sp, &span_ops);
	if (rc == 0 && p->kinds)
		rc = each_part_access(p, span_access, &sp, &span_ops);
	if (rc == 0)
		rc = pages_from_set(p, &sp.set);
	dghash_free(&sp.set);
	p->ylo = sp.lo;
	p->yhi = sp.hi;
	p->summary = p->kinds ? 2 : 1;
	return rc;
}

/* Pass 1 decoding every access in the view in C (access_terms). */
static int find_pages_c(struct plot *p, const struct dgvtab_term *terms, int n)
{
	struct span sp = { .lo = INT64_MAX, .hi = INT64_MIN };
	int rc;

	if (dghash_init(&sp.set, 4096) < 0) {
		*p->err = sqlite3_mprintf("out of memory");
		return -1;
	}
	rc = each_access_c(p, terms, n, span_access, &sp, &span_ops);
	if (rc == 0)
		rc = pages_from_set(p, &sp.set);
	dghash_free(&sp.set);
	p->ylo = sp.lo;
	p->yhi = sp.hi;
	return rc;
}

/* Pass 1: the pages used, and the icount span when not given: one scan,
   the page set kept in a hash (a GROUP BY would sort every access). */
static int find_pages(struct plot *p)
{
	struct dgvtab_term terms[5];
	sqlite3_stmt *st;
	struct dghash set;
	int64_t ps = p->o->page_size;
	int rc, added, n;

	if (summary_usable(p)) {
		if (find_pages_summary(p) < 0)
			return -1;
		goto window;
	}
	if ((rc = mixed_usable(p)) != 0) {
		if (rc < 0 || find_pages_cells(p) < 0)
			return -1;
		goto window;
	}
	if (access_terms(p, terms, &n)) {       /* decoded in C */
		if (find_pages_c(p, terms, n) < 0)
			return -1;
		goto window;
	}
	if (prepare(p, &st, "SELECT addr, icount FROM %s WHERE 1%s", source(p)) < 0)
		return -1;
	if (dghash_init(&set, 4096) < 0) {
		sqlite3_finalize(st);
		*p->err = sqlite3_mprintf("out of memory");
		return -1;
	}
	p->ylo = INT64_MAX;
	p->yhi = INT64_MIN;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t a = sqlite3_column_int64(st, 0), ic = sqlite3_column_int64(st, 1);
		if (dghash_put(&set, (uint64_t)(a / ps), 0, &added) < 0)
			break;
		if (ic < p->ylo)
			p->ylo = ic;
		if (ic >= p->yhi)
			p->yhi = ic == INT64_MAX ? ic : ic + 1;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		dghash_free(&set);
		return rc == SQLITE_ROW ? (*p->err = sqlite3_mprintf("out of "
			"memory"), -1) : sql_fail(p);
	}
	rc = pages_from_set(p, &set);
	dghash_free(&set);
	if (rc < 0)
		return -1;
window:
	if (p->o->has_icount) {
		p->ylo = p->o->icount_lo;
		p->yhi = p->o->icount_hi;
	}
	if (p->npages == 0) {
		p->empty = 1;
		*p->err = sqlite3_mprintf("no accesses to plot (filter or "
					  "zoom leaves none)");
		return -1;
	}
	if (p->yhi <= p->ylo) {
		*p->err = sqlite3_mprintf("no instruction count span to plot "
			"(%lld to %lld)", (long long)p->ylo, (long long)p->yhi);
		return -1;
	}
	return 0;
}

/* Rows come in address order within a chunk, so the last page asked
   is usually asked again: remembered; and a later page is usually a few
   ranks on: looked for forward from there in steps that double, then
   halved (the same rank as a search of the whole array). */
static int64_t page_rank(struct plot *p, int64_t page)
{
	size_t lo = 0, hi = p->npages, step = 1;
	size_t h = (size_t)((uint64_t)page * 0x9E3779B97F4A7C15ull >> 56);

	if (p->memo_rank >= 0 && p->memo_page == page)
		return p->memo_rank;
	if (p->ranks[h].rank1 && p->ranks[h].page == page) {
		p->memo_page = page;
		return p->memo_rank = p->ranks[h].rank1 - 1;
	}
	if (p->memo_rank >= 0 && page > p->memo_page && p->pages[p->memo_rank] <= page) {
		lo = (size_t)p->memo_rank;
		while (lo + step < p->npages && p->pages[lo + step] <= page) {
			lo += step;
			step *= 2;
		}
		hi = lo + step < p->npages ? lo + step : p->npages;
	}
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (p->pages[mid] <= page)
			lo = mid;
		else
			hi = mid;
	}
	p->memo_page = page;
	p->ranks[h].page = page;
	p->ranks[h].rank1 = (int64_t)lo + 1;
	return p->memo_rank = (int64_t)lo;
}

static double total_cx(const struct plot *p)
{
	return (double)p->npages * (double)p->o->page_size;
}

static int col_of(struct plot *p, int64_t addr)
{
	int64_t ps = p->o->page_size;
	/* ps is a power of two (dgplot_set): a shift and a mask where that is
	   the division's answer (addr >= 0), not two idivs a cell */
	int64_t page = addr >= 0 ? addr >> p->page_shift : addr / ps;
	int64_t off = addr >= 0 ? addr & (ps - 1) : addr % ps;
	double cx = (double)page_rank(p, page) * ps + off;

	return clamp_int(cx * p->pw / p->total, 0, p->pw - 1);
}

/* The grid row of an icount: -1 above the window, ph below it. */
static int row_of(const struct plot *p, int64_t icount, double ys)
{
	double y = ((double)icount - (double)p->ylo) * ys;

	return y < 0 ? -1 : clamp_int(y, 0, p->ph);
}

/* One cell of a chunk into the grid: the counts spread evenly over the
   rows the chunk's icount span [lo, hi) covers. */
static int bin_cell(struct plot *p, void *ysp, int64_t lo, int64_t hi,
		    const struct dgcells_cell *c)
{
	double ys = *(const double *)ysp;
	int r0 = row_of(p, lo, ys);
	int r1 = row_of(p, hi == INT64_MIN ? hi : hi - 1, ys), col, r, n;
	int64_t rd = c->reads, wr = c->writes;

	if (r1 < 0 || r0 >= p->ph)
		return 0;
	r0 = r0 < 0 ? 0 : r0;
	r1 = r1 >= p->ph ? p->ph - 1 : r1 < r0 ? r0 : r1;
	col = col_of(p, wrap_add(wrap_mul((int64_t)c->cell, 256), 128));
	if (r0 == r1) {         /* most cells of a zoomed-out view: no division */
		size_t k = (size_t)r0 * p->pw + col;
		p->reads[k] += (uint32_t)rd;
		p->writes[k] += (uint32_t)wr;
		return 0;
	}
	n = r1 - r0 + 1;
	for (r = r0; r <= r1; r++) {
		size_t k = (size_t)r * p->pw + col;
		/* the remainder goes to the first rows */
		p->reads[k] += (uint32_t)(rd / n + (r - r0 < rd % n));
		p->writes[k] += (uint32_t)(wr / n + (r - r0 < wr % n));
	}
	return 0;
}

/* A grid's job (pass 2): the helper's own grids, added to ours (as
   bin_cell adds: modulo 2^32, so the sum is the one-thread sum). */
static int grid_make(struct plot *hp, void *arg, void **harg)
{
	size_t n = (size_t)hp->pw * hp->ph;

	*harg = arg;            /* the row scale, read only */
	hp->reads = calloc(n, sizeof *hp->reads);
	hp->writes = calloc(n, sizeof *hp->writes);
	if (!hp->reads || !hp->writes) {
		free(hp->reads);
		free(hp->writes);
		hp->reads = hp->writes = NULL;
		return -1;
	}
	return 0;
}

static int grid_add(struct plot *p, void *arg, struct plot *hp, void *harg)
{
	size_t k, n = (size_t)p->pw * p->ph;

	(void)arg;
	(void)harg;
	for (k = 0; k < n; k++) {
		p->reads[k] += hp->reads[k];
		p->writes[k] += hp->writes[k];
	}
	return 0;
}

static void grid_drop(struct plot *hp, void *harg)
{
	(void)harg;
	free(hp->reads);
	free(hp->writes);
}

static const struct half_ops grid_ops = { grid_make, grid_add, grid_drop };

/* The decoded accesses' grids (bin_access): added as count_cell adds,
   saturating, so the sum is the one-thread sum here too. */
static int count_add(struct plot *p, void *arg, struct plot *hp, void *harg)
{
	size_t k, n = (size_t)p->pw * p->ph;

	(void)arg;
	(void)harg;
	for (k = 0; k < n; k++) {
		uint64_t r = (uint64_t)p->reads[k] + hp->reads[k];
		uint64_t w = (uint64_t)p->writes[k] + hp->writes[k];
		p->reads[k] = r > UINT32_MAX ? UINT32_MAX : (uint32_t)r;
		p->writes[k] = w > UINT32_MAX ? UINT32_MAX : (uint32_t)w;
	}
	return 0;
}

static const struct half_ops count_ops = { grid_make, count_add, grid_drop };

/* Pass 2: the accesses into the grid. */

/* n accesses into cell k (a cell's count saturates). */
static void count_cell(struct plot *p, size_t k, int is_write, int64_t n)
{
	uint32_t *c = is_write ? &p->writes[k] : &p->reads[k];
	uint64_t sum = (uint64_t)*c + (uint64_t)(n < 0 ? 0 : n > UINT32_MAX ? UINT32_MAX : n);

	*c = sum > UINT32_MAX ? UINT32_MAX : (uint32_t)sum;
}
/* One decoded access of a chunk the filter takes in part into the grid. */
static int bin_access(struct plot *p, void *ysp, int64_t addr, int64_t icount, int is_write)
{
	int row = row_of(p, icount, *(const double *)ysp);

	if (row >= 0 && row < p->ph)
		count_cell(p, (size_t)row * p->pw + col_of(p, addr), is_write, 1);
	return 0;
}

static int bin(struct plot *p)
{
	struct dgvtab_term terms[5];
	sqlite3_stmt *st;
	double ys = (double)p->ph / ((double)p->yhi - (double)p->ylo);
	char *sql;
	int rc, n;

	p->reads = calloc((size_t)p->pw * p->ph, sizeof *p->reads);
	p->writes = calloc((size_t)p->pw * p->ph, sizeof *p->writes);
	if (!p->reads || !p->writes) {
		*p->err = sqlite3_mprintf("out of memory");
		return -1;
	}
	p->total = total_cx(p);
	p->page_shift = __builtin_ctzll((unsigned long long)p->o->page_size);
	if (p->summary == 1)
		return each_cell_ops(p, bin_cell, &ys, &grid_ops);
	if (p->summary == 2)
		return each_cell_ops(p, bin_cell, &ys, &grid_ops) < 0 ? -1
		       : each_part_access(p, bin_access, &ys, &count_ops);
	if (access_terms(p, terms, &n))         /* decoded in C */
		return each_access_c(p, terms, n, bin_access, &ys, &count_ops);
	sql = sqlite3_mprintf("SELECT addr, icount, is_write, %s FROM %%s WHERE 1%%s", weight(p));
	if (!sql) {
		*p->err = sqlite3_mprintf("out of memory");
		return -1;
	}
	rc = prepare(p, &st, sql, source(p));
	sqlite3_free(sql);
	if (rc < 0)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int row = row_of(p, sqlite3_column_int64(st, 1), ys);
		size_t k;

		if (row < 0 || row >= p->ph)
			continue;
		k = (size_t)row * p->pw + col_of(p, sqlite3_column_int64(st, 0));
		count_cell(p, k, sqlite3_column_int(st, 2), sqlite3_column_int64(st, 3));
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_fail(p);
}

/* ---------------------------------------------------------- output files */

static int64_t addr_of_cx(const struct plot *p, double cx)
{
	int64_t ps = p->o->page_size;
	int64_t r = (int64_t)(cx / ps);

	if (r >= (int64_t)p->npages)
		r = p->npages - 1;
	if (r < 0)
		r = 0;
	return wrap_add(wrap_mul(p->pages[r], ps), sat_i64(cx - (double)r * ps));
}

static int write_data(struct plot *p, const char *path)
{
	FILE *f = fopen(path, "w");
	int r, c;

	if (!f) {
		*p->err = sqlite3_mprintf("cannot write '%s': %s", path,
					  strerror(errno));
		return -1;
	}
	fprintf(f, "# x: address at the cell's left edge; y: icount at its "
		"top; reads; writes (cells %d x %d)\n", p->pw, p->ph);
	fprintf(f, "# from: %s\n", p->summary == 1 ? "chunk_cells (summary)"
	        : p->summary == 2 ? "chunk_cells where the filter takes whole chunks, "
	                            "filtered_accesses elsewhere"
	        : p->o->source_name ? p->o->source_name : source(p));
	for (r = 0; r < p->ph; r++)
		for (c = 0; c < p->pw; c++) {
			size_t k = (size_t)r * p->pw + c;

			if (!p->reads[k] && !p->writes[k])
				continue;
			fprintf(f, "0x%llx %lld %u %u\n", (unsigned long long)
				addr_of_cx(p, c * total_cx(p) / p->pw),
				(long long)sat_i64(p->ylo + (double)r *
					((double)p->yhi - (double)p->ylo) / p->ph),
				p->reads[k], p->writes[k]);
		}
	if (fclose(f) != 0) {
		*p->err = sqlite3_mprintf("writing '%s' failed", path);
		return -1;
	}
	return 0;
}

static int write_image(struct plot *p, FILE *f)
{
	size_t k, n = (size_t)p->pw * p->ph;

	for (k = 0; k < n; k++) {
		unsigned char rgb[3] = { 0, 0, 0 };

		if (p->reads[k] && p->writes[k])
			rgb[0] = rgb[1] = 255;
		else if (p->reads[k])
			rgb[1] = 255;
		else if (p->writes[k])
			rgb[0] = 255;
		fwrite(rgb, 1, 3, f);
	}
	return ferror(f) ? -1 : 0;
}

/* ---------------------------------------------------------- the script */

/* The one way text reaches the script: a gnuplot single-quoted string.
   Inside one gnuplot interprets nothing (no backslash escapes, no `...`
   or @macro substitution) except the doubled quote; but a line feed or
   carriage return ends the command and the rest of the line would run as
   the next one (system "...").  So the text is first made inert by
   dgesc_text (controls and invalid UTF-8 become \xHH, visible and
   harmless), then its quotes doubled.  Titles and labels are also set
   noenhanced, so ^ _ @ & ~ { } print as themselves. */
void dgplot_quote(FILE *f, const char *s)
{
	char *e = dgesc_as(DGESC_GNUPLOT, s, strlen(s));

	fprintf(f, "'%s'", e ? e : "");
	free(e);
}

/* Paths gnuplot opens (the output, the image in its directory) go through dgplot_quote too,
   so one with a byte it would escape is refused instead of changed. */
int dgplot_path_ok(const char *what, const char *path, char **err)
{
	size_t n = strlen(path);
	char *shown;

	if (dgesc_len(path, n, 0) == n)
		return 0;
	shown = dgesc_text(path, n, 0);
	*err = sqlite3_mprintf("%s '%s': gnuplot cannot be given a file "
		"name with control characters, backslashes or invalid UTF-8",
		what, shown ? shown : "?");
	free(shown);
	return -1;
}

const char *dgplot_terminal(const char *out)
{
	const char *dot = strrchr(out, '.');

	if (!dot)
		return NULL;
	if (!strcmp(dot, ".png"))
		return "pngcairo";
	if (!strcmp(dot, ".svg"))
		return "svg";
	if (!strcmp(dot, ".pdf"))
		return "pdfcairo";
	return NULL;
}

static char *meta_exe(sqlite3 *db)
{
	sqlite3_stmt *st;
	char *s = NULL;

	if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = 'exe'",
			       -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		s = sqlite3_mprintf("%s", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return s;
}

static void script_frame(struct plot *p, FILE *f, const char *term)
{
	const struct dgplot_opts *o = p->o;
	char *exe = meta_exe(p->db);
	char *title = sqlite3_mprintf("%s%s%s", exe ? exe : "trace",
				      o->title && *o->title ? "  " : "",
				      o->title ? o->title : "");

	if (!strcmp(term, "pdfcairo"))
		fprintf(f, "set terminal pdfcairo noenhanced size %.2fin,%.2fin "
			"background rgb 'black' font 'sans,6'\n",
			o->width / 100.0, o->height / 100.0);
	else
		fprintf(f, "set terminal %s noenhanced size %d,%d background "
			"rgb 'black' font 'sans,9'\n", term, o->width,
			o->height);
	fputs("set output ", f);
	dgplot_quote(f, o->out);
	fprintf(f, "\nset lmargin at screen %f\nset rmargin at screen %f\n"
		"set tmargin at screen %f\nset bmargin at screen %f\n",
		(double)M_LEFT / o->width, 1.0 - (double)M_RIGHT / o->width,
		1.0 - (double)M_TOP / o->height, (double)M_BOTTOM / o->height);
	fputs("set title ", f);
	dgplot_quote(f, title);
	fprintf(f, " noenhanced textcolor rgb 'white'\nunset key\n"
		"set border lc rgb 'grey60'\n"
		"set xlabel 'address (unused pages left out)' tc rgb 'grey80'\n"
		"set ylabel 'instruction count' tc rgb 'grey80'\n"
		"set ytics textcolor rgb 'grey80' format '%%.0f'\n"
		"set xrange [0:%.0f]\nset yrange [%lld:%lld]\n",
		total_cx(p), (long long)p->yhi, (long long)p->ylo);
	sqlite3_free(exe);
	sqlite3_free(title);
}

static void script_xtics(struct plot *p, FILE *f)
{
	int i, n = p->pw / 120 + 1;

	fputs("set xtics rotate by 30 right textcolor rgb 'grey80' (", f);
	for (i = 0; i <= n; i++) {
		double cx = total_cx(p) * i / n;

		if (i == n)
			cx -= 1;
		fprintf(f, "%s'0x%llx' %.0f", i ? ", " : "",
			(unsigned long long)addr_of_cx(p, cx), cx);
	}
	fputs(")\n", f);
}

static void vline(FILE *f, double cx, const char *colour)
{
	fprintf(f, "set arrow from %.1f, graph 0 to %.1f, graph 1 nohead "
		"lc rgb '%s' lw 0.5 front\n", cx, cx, colour);
}

/* The name of the region [lo, hi): heap, a module, stack, or NULL. */
static char *region_name(struct plot *p, int64_t lo, int64_t hi, int last)
{
	sqlite3_stmt *st;
	char *name = NULL;
	char *sql = sqlite3_mprintf(
		"SELECT 'heap' FROM blocks WHERE addr >= %lld AND addr < %lld "
		"UNION ALL SELECT m.path FROM mappings mp JOIN modules m ON "
		"m.id = mp.module_id WHERE mp.start < %lld AND mp.end > %lld "
		"LIMIT 1", lo, hi, hi, lo);

	if (sqlite3_prepare_v2(p->db, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW) {
		const char *s = (const char *)sqlite3_column_text(st, 0);
		const char *slash = s ? strrchr(s, '/') : NULL;

		name = sqlite3_mprintf("%s", slash ? slash + 1 : s);
	} else if (last)
		name = sqlite3_mprintf("stack");
	sqlite3_finalize(st);
	sqlite3_free(sql);
	return name;
}

/* Discontinuities and region names, segment by segment. */
static void script_segments(struct plot *p, FILE *f)
{
	int64_t ps = p->o->page_size;
	size_t i = 0, arrows = 0;
	double next_free = -1e9;        /* pixel where a label may start */

	while (i < p->npages) {
		size_t j = i + 1;
		double w;

		while (j < p->npages && p->pages[j] == wrap_add(p->pages[j - 1], 1))
			j++;
		if (i > 0 && arrows++ < MAX_ARROWS)
			vline(f, (double)i * ps, "white");
		w = (double)(j - i) * ps * p->pw / total_cx(p);
		if (w >= 40) {
			double mid = (i + j) * ps / 2.0;
			double px = mid * p->pw / total_cx(p);
			char *name = region_name(p, wrap_mul(p->pages[i], ps),
				wrap_add(wrap_mul(p->pages[j - 1], ps), ps),
				j == p->npages);

			if (name && px - 3.5 * strlen(name) >= next_free) {
				fprintf(f, "set label ");
				dgplot_quote(f, name);
				fprintf(f, " at %.1f, graph 1 offset 0,0.6 "
					"center noenhanced tc rgb 'grey80'\n",
					mid);
				next_free = px + 3.5 * strlen(name) + 8;
			}
			sqlite3_free(name);
		}
		i = j;
	}
}

/* Page and cache-line boundaries, when at least 4 pixels apart. */
static void script_grid(struct plot *p, FILE *f)
{
	double px_per_byte = p->pw / total_cx(p);
	int64_t sizes[2] = { p->o->line_size, p->o->page_size };
	const char *colours[2] = { "#602828", "grey30" };
	int s;

	for (s = 0; s < 2; s++) {
		double step = (double)sizes[s];
		double x;

		if (step * px_per_byte < 4)
			continue;
		for (x = step; x < total_cx(p); x += step)
			vline(f, x, colours[s]);
	}
}

static void script_plot(struct plot *p, FILE *f, const char *img)
{
	double dx = total_cx(p) / p->pw;
	double dy = (double)(p->yhi - p->ylo) / p->ph;

	fprintf(f, "plot ");
	dgplot_quote(f, img);
	fprintf(f, " binary array=(%d,%d) format='%%uchar%%uchar%%uchar' "
		"dx=%.17g dy=%.17g origin=(%.17g,%.17g) with rgbimage\n",
		p->pw, p->ph, dx, dy, dx / 2, p->ylo + dy / 2);
}

static void script_address(struct plot *p, FILE *f, const char *term, const char *img)
{
	script_frame(p, f, term);
	script_xtics(p, f);
	script_segments(p, f);
	script_grid(p, f);
	script_plot(p, f, img);
}

/* ---------------------------------------------------------- gnuplot */

const char *dgplot_find_gnuplot(void)
{
	static const char *const names[] = { "gnuplot-nox", "gnuplot" };
	static char found[4096];
	const char *env = getenv("DG_GNUPLOT"), *path = getenv("PATH");
	size_t i;

	if (env && *env)
		return env;
	for (i = 0; i < 2; i++) {
		const char *s = path ? path : "/usr/bin:/bin";

		while (*s) {
			size_t l = strcspn(s, ":");

			snprintf(found, sizeof found, "%.*s/%s", (int)l, s,
				 names[i]);
			if (access(found, X_OK) == 0)
				return found;
			s += l + (s[l] == ':');
		}
	}
	return NULL;
}

int dgplot_run_gnuplot(const char *gp, const char *script,
		       const char *errfile, char **err)
{
	pid_t pid = fork();
	int status;

	if (pid < 0) {
		*err = sqlite3_mprintf("fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		FILE *e = freopen(errfile, "w", stderr);

		if (e && dup2(fileno(e), 1) >= 0)
			execl(gp, gp, script, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		char line[512] = "";
		FILE *e = fopen(errfile, "r");

		if (e) {
			if (!fgets(line, sizeof line, e))
				line[0] = 0;
			fclose(e);
		}
		line[strcspn(line, "\n")] = 0;
		*err = sqlite3_mprintf("%s failed%s%s", gp,
					  *line ? ": " : "", line);
		return -1;
	}
	return 0;
}

/* The image and the script that draws it, in dir. */
static int write_files(struct plot *p, const char *term, const char *dir,
		       const char *img, const char *scr)
{
	FILE *fi = fopen(img, "wb"), *fs = fopen(scr, "w");
	int rc = -1;

	if (fi && fs && write_image(p, fi) == 0) {
		p->script(p, fs, term, img);
		rc = 0;
	}
	if (fi && fclose(fi) != 0)
		rc = -1;
	if (fs && fclose(fs) != 0)
		rc = -1;
	if (rc < 0)
		*p->err = sqlite3_mprintf("writing %s failed", dir);
	return rc;
}

static int draw(struct plot *p, const char *gp, const char *term)
{
	char tmp[] = "/tmp/dgplot.XXXXXX", img[4200], scr[4200], errf[4200];
	const char *dir = p->o->script_dir ? p->o->script_dir : tmp;
	int rc;

	if (p->o->script_dir && dgplot_path_ok("script directory", dir, p->err) < 0)
		return -1;
	if (!p->o->script_dir && !mkdtemp(tmp)) {
		*p->err = sqlite3_mprintf("mkdtemp: %s", strerror(errno));
		return -1;
	}
	snprintf(img, sizeof img, "%s/image.rgb", dir);
	snprintf(scr, sizeof scr, "%s/plot.gp", dir);
	snprintf(errf, sizeof errf, "%s/gnuplot.err", dir);
	rc = write_files(p, term, dir, img, scr);
	if (p->o->script_dir)
		return rc;
	if (rc == 0)
		rc = dgplot_run_gnuplot(gp, scr, errf, p->err);
	unlink(img);
	unlink(scr);
	unlink(errf);
	rmdir(dir);
	return rc;
}

int dgplot_output(const char *out, int run, const char **term,
		  const char **gp, char **err)
{
	if (dgplot_path_ok("plot", out, err) < 0)
		return -1;
	if (!(*term = dgplot_terminal(out))) {
		*err = sqlite3_mprintf("'%s': the plot's name must end in "
				       ".png, .svg or .pdf", out);
		return -1;
	}
	if (run && !(*gp = dgplot_find_gnuplot())) {
		*err = sqlite3_mprintf("gnuplot not found; install the Debian "
				       "package gnuplot-nox");
		return -1;
	}
	return 0;
}

/* The output's terminal and gnuplot, checked before any work. */
static int out_check(struct plot *p, const char **gp, const char **term)
{
	const struct dgplot_opts *o = p->o;

	if (!o->out)
		return 0;
	return dgplot_output(o->out, !o->script_dir, term, gp, p->err);
}

/* The pages used and the accesses binned into p's pw x ph grid. */
static int plot_bin(struct plot *p)
{
	const struct dgplot_opts *o = p->o;

	p->zoom = sqlite3_mprintf("%s%s", "", "");
	if (o->has_addr) {
		char *z = sqlite3_mprintf("%s AND addr >= %lld AND addr < %lld",
			p->zoom, (long long)o->addr_lo, (long long)o->addr_hi);
		sqlite3_free(p->zoom);
		p->zoom = z;
	}
	if (o->has_icount) {
		char *z = sqlite3_mprintf("%s AND icount >= %lld AND "
			"icount < %lld", p->zoom, (long long)o->icount_lo,
			(long long)o->icount_hi);
		sqlite3_free(p->zoom);
		p->zoom = z;
	}
	if (!p->zoom) {
		*p->err = sqlite3_mprintf("out of memory");
		return -1;
	}
	return find_pages(p) == 0 && bin(p) == 0 ? 0 : -1;
}

static void plot_free(struct plot *p)
{
	dgiv_free(&p->iv);
	sqlite3_free(p->zoom);
	free(p->pages);
	free(p->reads);
	free(p->writes);
	free(p->kinds);
}

int dgplot_grid(sqlite3 *db, const struct dgplot_opts *o, struct dgplot_grid *g,
		char **err)
{
	struct plot p = { .db = db, .o = o, .err = err, .memo_rank = -1 };
	int c, rc = -1;

	memset(g, 0, sizeof *g);
	p.pw = o->width;
	p.ph = o->height;
	if (p.pw < 1 || p.ph < 1) {
		*err = sqlite3_mprintf("grid %d x %d: both must be at least 1", p.pw, p.ph);
		return -1;
	}
	if (plot_bin(&p) == 0 && (g->col_addr = malloc(((size_t)p.pw + 1) * sizeof *g->col_addr))) {
		for (c = 0; c <= p.pw; c++)
			g->col_addr[c] = c == p.pw ? wrap_add(addr_of_cx(&p, total_cx(&p) - 1), 1)
					 : addr_of_cx(&p, c * total_cx(&p) / p.pw);
		g->w = p.pw;
		g->h = p.ph;
		g->ylo = p.ylo;
		g->yhi = p.yhi;
		g->summary = p.summary;
		g->reads = p.reads;
		g->writes = p.writes;
		p.reads = p.writes = NULL;
		rc = 0;
	} else if (p.empty && (g->col_addr = calloc((size_t)p.pw + 1, sizeof *g->col_addr)) &&
		   (g->reads = calloc((size_t)p.pw * p.ph, sizeof *g->reads)) &&
		   (g->writes = calloc((size_t)p.pw * p.ph, sizeof *g->writes))) {
		/* nothing in the view: an empty picture of it, not an error */
		for (c = 0; c <= p.pw && o->has_addr; c++)
			g->col_addr[c] = o->addr_lo + (int64_t)((double)c *
				((double)o->addr_hi - (double)o->addr_lo) / p.pw);
		g->w = p.pw;
		g->h = p.ph;
		g->ylo = o->has_icount ? o->icount_lo : 0;
		g->yhi = o->has_icount ? o->icount_hi : 1;
		sqlite3_free(*err);
		*err = NULL;
		rc = 0;
	} else {
		dgplot_grid_free(g);
		if (!*err || p.empty) {
			sqlite3_free(*err);
			*err = sqlite3_mprintf("out of memory");
		}
	}
	plot_free(&p);
	return rc;
}

void dgplot_grid_free(struct dgplot_grid *g)
{
	free(g->col_addr);
	free(g->reads);
	free(g->writes);
	memset(g, 0, sizeof *g);
}

int dgplot_draw(sqlite3 *db, const struct dgplot_opts *o, char **err)
{
	struct plot p = { .db = db, .o = o, .err = err, .memo_rank = -1,
			  .script = script_address };
	const char *gp = NULL, *term = NULL;
	int rc = -1;

	if (out_check(&p, &gp, &term) < 0)
		return -1;
	p.pw = o->width - M_LEFT - M_RIGHT;
	p.ph = o->height - M_TOP - M_BOTTOM;
	if (plot_bin(&p) == 0 &&
	    (!o->data_out || write_data(&p, o->data_out) == 0))
		rc = o->out ? draw(&p, gp, term) : 0;
	plot_free(&p);
	return rc;
}

/* ---------------------------------------------------------- fields */

/* The rows: the fields of the types named `type`, by path, in offset
   order (a type of several modules is one picture). */
#define FIELD_ROWS \
	"WITH t AS (SELECT id FROM types WHERE name = ?1 OR name IN " \
	"('struct ' || ?1, 'union ' || ?1, 'class ' || ?1)), " \
	"r AS (SELECT path, row_number() OVER (ORDER BY min(offset), path) - 1 AS rn " \
	"FROM fields WHERE type_id IN (SELECT id FROM t) GROUP BY path) "

static int field_rows(struct plot *p)
{
	sqlite3_stmt *st;
	int n = 0, rc;

	if (prepare(p, &st, "%s", FIELD_ROWS "SELECT path FROM r ORDER BY rn") < 0)
		return -1;
	sqlite3_bind_text(st, 1, p->type, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char **l = realloc(p->labels, (n + 1) * sizeof *l);
		if (!l)
			break;
		p->labels = l;
		l[n++] = sqlite3_mprintf("%s", sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	p->ph = n;
	if (rc != SQLITE_DONE)
		return sql_fail(p);
	if (n == 0) {
		char *shown = dgesc_text(p->type, strlen(p->type), 0);
		*p->err = sqlite3_mprintf("no type named '%s' has fields in this trace "
			"(see SELECT name FROM types)", shown ? shown : "?");
		free(shown);
		return -1;
	}
	return 0;
}

/* Icount span of the type's accesses (or the zoom), then the bins. */
static int field_bins(struct plot *p)
{
	const char *q = FIELD_ROWS "SELECT a.icount, a.is_write, r.rn FROM "
		"temp.filtered_fields a JOIN fields f ON f.id = a.field_id "
		"JOIN r ON r.path = f.path WHERE f.type_id IN (SELECT id FROM t)";
	sqlite3_stmt *st;
	int rc;

	if (p->o->has_icount) {
		p->ylo = p->o->icount_lo;
		p->yhi = p->o->icount_hi;
	} else {
		if (prepare(p, &st, FIELD_ROWS "SELECT min(a.icount), max(a.icount) "
			    "FROM (%s) a", q + strlen(FIELD_ROWS)) < 0)
			return -1;
		sqlite3_bind_text(st, 1, p->type, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
			p->ylo = sqlite3_column_int64(st, 0);
			p->yhi = wrap_add(sqlite3_column_int64(st, 1), 1);
		}
		sqlite3_finalize(st);
	}
	if (p->yhi <= p->ylo)
		p->yhi = wrap_add(p->ylo, 1);
	p->reads = calloc((size_t)p->pw * p->ph, sizeof *p->reads);
	p->writes = calloc((size_t)p->pw * p->ph, sizeof *p->writes);
	if (!p->reads || !p->writes) {
		*p->err = sqlite3_mprintf("out of memory");
		return -1;
	}
	if (prepare(p, &st, "%s", q) < 0)
		return -1;
	sqlite3_bind_text(st, 1, p->type, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t ic = sqlite3_column_int64(st, 0), row = sqlite3_column_int64(st, 2);
		int col;

		if (ic < p->ylo || ic >= p->yhi || row < 0 || row >= p->ph)
			continue;
		col = clamp_int(((double)ic - (double)p->ylo) * p->pw /
				((double)p->yhi - (double)p->ylo), 0, p->pw - 1);
		count_cell(p, (size_t)row * p->pw + col, sqlite3_column_int(st, 1), 1);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_fail(p);
}

/* Fields down (one row each, in offset order), instruction count across. */
static void script_fields(struct plot *p, FILE *f, const char *term, const char *img)
{
	const struct dgplot_opts *o = p->o;
	char *exe = meta_exe(p->db);
	char *title = sqlite3_mprintf("%s  fields of %s%s%s", exe ? exe : "trace", p->type,
				      o->title && *o->title ? "  " : "", o->title ? o->title : "");
	double dx = ((double)p->yhi - (double)p->ylo) / p->pw;
	int i, every = p->ph / 60 + 1;

	if (!strcmp(term, "pdfcairo"))
		fprintf(f, "set terminal pdfcairo noenhanced size %.2fin,%.2fin "
			"background rgb 'black' font 'sans,6'\n", o->width / 100.0,
			o->height / 100.0);
	else
		fprintf(f, "set terminal %s noenhanced size %d,%d background rgb 'black' "
			"font 'sans,9'\n", term, o->width, o->height);
	fputs("set output ", f);
	dgplot_quote(f, o->out);
	fprintf(f, "\nset lmargin at screen %f\nset rmargin at screen %f\n"
		"set tmargin at screen %f\nset bmargin at screen %f\n",
		(double)2 * M_LEFT / o->width, 1.0 - (double)M_RIGHT / o->width,
		1.0 - (double)M_TOP / o->height, (double)M_BOTTOM / o->height);
	fputs("set title ", f);
	dgplot_quote(f, title);
	fprintf(f, " noenhanced textcolor rgb 'white'\nunset key\n"
		"set border lc rgb 'grey60'\n"
		"set xlabel 'instruction count' tc rgb 'grey80'\n"
		"set xtics textcolor rgb 'grey80' format '%%.0f'\n"
		"set xrange [%lld:%lld]\nset yrange [%f:-0.5]\n",
		(long long)p->ylo, (long long)p->yhi, p->ph - 0.5);
	fputs("set ytics textcolor rgb 'grey80' (", f);
	for (i = 0; i < p->ph; i += every) {
		fputs(i ? ", " : "", f);
		dgplot_quote(f, p->labels[i] && *p->labels[i] ? p->labels[i] : "(whole)");
		fprintf(f, " %d", i);
	}
	fputs(")\nplot ", f);
	dgplot_quote(f, img);
	fprintf(f, " binary array=(%d,%d) format='%%uchar%%uchar%%uchar' dx=%.17g dy=1 "
		"origin=(%.17g,0) with rgbimage\n", p->pw, p->ph, dx, p->ylo + dx / 2);
	sqlite3_free(exe);
	sqlite3_free(title);
}

static int write_field_data(struct plot *p, const char *path)
{
	FILE *f = fopen(path, "w");
	int r, c;

	if (!f) {
		*p->err = sqlite3_mprintf("cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	fprintf(f, "# row (field, offset order); icount at the cell's left edge; "
		"reads; writes (cells %d x %d)\n", p->pw, p->ph);
	for (r = 0; r < p->ph; r++)
		for (c = 0; c < p->pw; c++) {
			size_t k = (size_t)r * p->pw + c;
			if (p->reads[k] || p->writes[k])
				fprintf(f, "%d %lld %u %u\n", r, (long long)sat_i64(p->ylo +
					(double)c * ((double)p->yhi - (double)p->ylo) / p->pw),
					p->reads[k], p->writes[k]);
		}
	if (fclose(f) != 0) {
		*p->err = sqlite3_mprintf("writing '%s' failed", path);
		return -1;
	}
	return 0;
}

int dgplot_fields(sqlite3 *db, const struct dgplot_opts *o, const char *type, char **err)
{
	struct plot p = { .db = db, .o = o, .err = err, .memo_rank = -1, .type = type,
			  .script = script_fields };
	const char *gp = NULL, *term = NULL;
	int rc = -1, i;

	if (out_check(&p, &gp, &term) < 0)
		return -1;
	p.pw = o->width - 2 * M_LEFT - M_RIGHT;
	if (p.pw < 1)
		p.pw = 1;
	if (field_rows(&p) == 0 && field_bins(&p) == 0 &&
	    (!o->data_out || write_field_data(&p, o->data_out) == 0))
		rc = o->out ? draw(&p, gp, term) : 0;
	for (i = 0; i < p.ph; i++)
		sqlite3_free(p.labels[i]);
	free(p.labels);
	free(p.reads);
	free(p.writes);
	return rc;
}
