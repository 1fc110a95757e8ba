/* compare.c: two traces matched by name, their changes, --fail-if
 * (see compare.h).
 *
 * Each side's summaries are read by one query per kind into rows (kind,
 * name, metrics); both sides' rows are sorted by (kind, name) and merged,
 * so matching is a sort, whatever the number of functions or blocks.  The
 * queries group by name on each side first: two static functions of one
 * name become one row, as they would be one name to a reader.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "compare.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dgesc.h"
#include "dgmem.h"
#include "dgplot.h"
#include "dgsqlfn.h"
#include "failif.h"
#include "heaplive.h"
#include "shell.h"

enum { EXIT_OK = 0, EXIT_REGRESSION = 1, EXIT_USAGE = 2 };
enum { BASE = 0, HEAD = 1 };
enum format { F_TEXT, F_MARKDOWN, F_JSON };

#define BLOCKS_PER_SITE 1000
#define NAME_WIDTH 60

static const char usage_text[] =
"usage: dgsql HEAD.db --compare BASE.db [OPTIONS]\n"
"\n"
"Compare two Datagrind trace databases, typically of two builds of one\n"
"program: HEAD (the change) against BASE (the base branch).  Both are read\n"
"from their summaries only, so a comparison takes seconds however many\n"
"accesses the traces hold.  Nothing is matched by id or address: those\n"
"differ between builds.  What is matched, by name:\n"
"\n"
"  total    the whole trace\n"
"  fn       functions, by name\n"
"  site     allocation sites, by the function names of the allocation\n"
"           stack, innermost first\n"
"  block    heap blocks, by site and order (the 3rd block of a site); the\n"
"           first 1000 blocks of each site\n"
"  event    user events (DATAGRIND_START_EVENT), by label, all instances\n"
"  range    tracked ranges, by label (else type name), all instances\n"
"  thread   threads, by the order in which they first ran\n"
"\n"
"and measured: accesses, bytes (accessed), lines and pages (distinct\n"
"64-byte lines and 4 KiB pages: the trace's, and those of each block and\n"
"site's blocks, block-relative, from the offset histograms), heap_peak\n"
"(live heap bytes at the peak; a block's size), allocs (heap blocks; an\n"
"event's or range's instances), instructions (the trace's; inside an\n"
"event).\n"
"\n"
"Output: a header saying how much matched, then one row per entity that\n"
"changed (or exists on one side only), largest change first.\n"
"  -f, --format FMT     text (default), markdown (a GitHub table), json\n"
"  -o, --output FILE    write there instead of standard output (written\n"
"                       aside, then renamed into place)\n"
"      --sort METRIC    order by the absolute change of METRIC [accesses]\n"
"      --top N          at most N rows besides the totals; 0: all [20]\n"
"      --all            also the rows that did not change\n"
"      --decode         also count each function's distinct lines and\n"
"                       pages, by decoding every access of both traces\n"
"                       (the summaries do not hold them: minutes at 10^9\n"
"                       accesses; without it a function's are \"-\")\n"
"      --plot FILE      the two traces side by side (address x time, as\n"
"                       dgsql --plot draws one), .png .svg or .pdf\n"
"      --plot-change FILE   the change of accesses per function, a bar\n"
"                       per function (the 25 largest changes)\n"
"      --size WxH       image size in pixels [1400x600]\n"
"\n"
"Regressions:\n"
"  --fail-if COND       exit 1 when COND holds; repeatable, each failed\n"
"                       condition printed on one line on standard error\n"
"                       (\"dgsql: regression: ...\").  COND is\n"
"\n"
"      [SCOPE:]METRIC OP VALUE\n"
"\n"
"    SCOPE   none or 'total': the totals; KIND (fn site block event range\n"
"            thread): any entity of that kind; KIND=NAME: those whose\n"
"            name matches NAME, a glob (fn= as dgsql's fn: filter does:\n"
"            with or without arguments).  NAME may hold ':' '<' '>'.\n"
"    METRIC  accesses bytes lines pages heap_peak allocs instructions\n"
"    OP      >  >=  <  <=\n"
"    VALUE   [+|-]NUMBER[UNIT][%]   UNIT k M G T (x1000) or Ki Mi Gi Ti\n"
"            (x1024), with or without B.  With a sign, the change from\n"
"            BASE to HEAD: +5% relative to BASE, +1MiB absolute; without,\n"
"            HEAD's own value.  A percentage needs a sign, and only judges\n"
"            entities present in both traces with a non-zero BASE; an\n"
"            entity missing on one side counts as 0 there otherwise.\n"
"\n"
"    accesses>+5%             the trace makes 5% more accesses\n"
"    heap_peak>+1MiB          its heap peak grew by more than 1 MiB\n"
"    fn:accesses>+10%         some function makes 10% more accesses\n"
"    fn=parse*:bytes>+64k     a function named parse... reads or writes\n"
"                             64 000 more bytes\n"
"    site:allocs>+0           some allocation site allocates more blocks\n"
"    'event=frame:instructions>+2%'   the event labelled frame is slower\n"
"    lines>=20000             HEAD touches 20 000 cache lines or more\n"
"\n"
"Quote COND in the shell: > and < redirect.\n"
"\n"
"Input problems: a database that is not a complete trace\n"
"(meta.complete = 0) is compared, with a warning saying so in the output;\n"
"traces of unrelated programs are compared too, the header says how\n"
"little matched; only when nothing but the totals matched is that an\n"
"error.\n"
"\n"
"Exit status: 0 no --fail-if condition held; 1 one did (a regression);\n"
"2 bad usage, a database that cannot be read, nothing matched.\n"
"\n"
"Examples:\n"
"  dgsql pr.db --compare main.db\n"
"  dgsql pr.db --compare main.db --format markdown -o compare.md \\\n"
"        --fail-if 'accesses>+5%' --fail-if 'heap_peak>+1MiB'\n"
"  dgsql pr.db --compare main.db --format json | python3 -m json.tool\n"
"  dgsql pr.db --compare main.db --plot both.png --plot-change fn.svg\n";

static const char *const kind_titles[CK_N] = {
	"totals", "functions", "sites", "blocks", "events", "ranges", "threads"
};

/* ---------------------------------------------------------- queries */

/* Each side's rows: name, then the metrics in enum cmp_metric order
   (NULL: not measured for this kind). */

/* The site of every stack that allocated: its frames' function names. */
#define SITE_CTE \
	"WITH sk AS (SELECT stack_id, group_concat(name, ' < ') AS key " \
	"  FROM (SELECT s.stack_id, coalesce(f.name, '?') AS name" \
	"        FROM (SELECT DISTINCT alloc_stack_id AS stack_id FROM blocks) s," \
	"             dg_frames(s.stack_id) sf" \
	"        LEFT JOIN pcs p ON p.pc = sf.pc" \
	"        LEFT JOIN functions f ON f.id = p.function_id" \
	"        ORDER BY s.stack_id, sf.depth)" \
	"  GROUP BY stack_id), " \
	"bk AS (SELECT b.*, coalesce(sk.key, '?') AS site," \
	"  row_number() OVER (PARTITION BY coalesce(sk.key, '?')" \
	"                     ORDER BY b.alloc_icount, b.id) AS nth," \
	"  (CASE WHEN b.hist IS NULL THEN 0" \
	"   WHEN b.hist_bucket <= 64 THEN (SELECT count(DISTINCT offset / 64)" \
	"        FROM dg_hist(b.hist, b.hist_bucket))" \
	"   ELSE min((SELECT count(*) FROM dg_hist(b.hist, b.hist_bucket))" \
	"        * (b.hist_bucket / 64), (b.size + 63) / 64) END) AS lines," \
	"  (CASE WHEN b.hist IS NULL THEN 0" \
	"   WHEN b.hist_bucket <= 4096 THEN (SELECT count(DISTINCT offset / 4096)" \
	"        FROM dg_hist(b.hist, b.hist_bucket))" \
	"   ELSE min((SELECT count(*) FROM dg_hist(b.hist, b.hist_bucket))" \
	"        * (b.hist_bucket / 4096), (b.size + 4095) / 4096) END) AS pages" \
	"  FROM blocks b LEFT JOIN sk ON sk.stack_id = b.alloc_stack_id) "

/* The blocks with their sites, lines and pages, made once a database
   (temp.dgc_bk) for the sites' and the blocks' checks; the heap's peak
   (temp.dgc_total) and each site's (temp.dgc_peaks) are added up from it
   through heaplive.h (heap_peaks). */
static const char bk_sql[] =
	"DROP TABLE IF EXISTS temp.dgc_bk; CREATE TEMP TABLE dgc_bk AS " SITE_CTE
	"SELECT site, nth, reads, writes, read_bytes, write_bytes, lines, pages,"
	" size, alloc_icount, free_icount FROM bk; "
	"DROP TABLE IF EXISTS temp.dgc_peaks; "
	"CREATE TEMP TABLE dgc_peaks (site TEXT PRIMARY KEY, peak INTEGER); "
	"DROP TABLE IF EXISTS temp.dgc_total; CREATE TEMP TABLE dgc_total (peak INTEGER)";
#define BK_CTE "WITH bk AS (SELECT * FROM temp.dgc_bk) "

static const char *const queries[CK_N] = {
	[CK_TOTAL] =
	"SELECT 'total', (SELECT sum(accesses) FROM threads),"
	" (SELECT sum(read_bytes + write_bytes) FROM threads),"
	" (SELECT count(*) FROM sum_lines), (SELECT count(*) FROM sum_pages),"
	" (SELECT peak FROM temp.dgc_total),"
	" (SELECT count(*) FROM blocks),"
	" (SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'icount')",
	/* sum_pc, a row a pc: sum_fn_block has a row a (function, block),
	   millions where blocks are (8.7 M for 860 k blocks) */
	[CK_FN] =
	"SELECT coalesce(f.name, '?'), sum(s.accesses), sum(s.bytes),"
	" NULL, NULL, NULL, NULL, NULL"
	" FROM sum_pc s LEFT JOIN pcs p ON p.pc = s.pc AND p.module_id = s.module_id"
	" LEFT JOIN functions f ON f.id = p.function_id GROUP BY 1",
	[CK_SITE] = BK_CTE
	"SELECT bk.site, sum(reads + writes), sum(read_bytes + write_bytes),"
	" sum(lines), sum(pages), peaks.peak, count(*), NULL"
	" FROM bk JOIN temp.dgc_peaks peaks USING (site) GROUP BY bk.site",
	[CK_BLOCK] = BK_CTE
	"SELECT site || ' #' || nth, reads + writes, read_bytes + write_bytes,"
	" lines, pages, size, NULL, NULL FROM bk WHERE nth <= 1000",
	[CK_EVENT] =
	"SELECT coalesce(label, '?'), sum(reads + writes),"
	" sum(read_bytes + write_bytes), NULL, NULL, NULL, count(*),"
	" sum(end_icount - start_icount) FROM events GROUP BY 1",
	[CK_RANGE] =
	"SELECT coalesce(label, type_name, '?'), sum(reads + writes),"
	" sum(read_bytes + write_bytes), NULL, NULL, NULL, count(*), NULL"
	" FROM ranges GROUP BY 1",
	[CK_THREAD] =
	"SELECT 'thread ' || row_number() OVER (ORDER BY first_icount IS NULL,"
	" first_icount, id), accesses, read_bytes + write_bytes,"
	" NULL, NULL, NULL, NULL, NULL FROM threads",
};

/* --decode: distinct lines and pages per function, from every access. */
static const char decode_query[] =
	"SELECT coalesce(f.name, '?'), NULL, NULL, count(DISTINCT a.addr >> 6),"
	" count(DISTINCT a.addr >> 12), NULL, NULL, NULL"
	" FROM accesses a LEFT JOIN pcs p ON p.pc = a.pc"
	" LEFT JOIN functions f ON f.id = p.function_id GROUP BY 1";

/* ---------------------------------------------------------- state */

struct ent {
	enum cmp_kind kind;
	char *key;
	size_t keylen;
	double v[2][CM_N];      /* NAN: not measured */
	unsigned char has[2];   /* present on that side */
};

struct side {
	struct shell sh;
	const char *path;
	char *exe;
	int complete;
	char *reason;           /* why incomplete, or NULL */
};

struct opts {
	const char *base, *head, *output, *plot, *plot_change;
	enum format format;
	enum cmp_metric sort;
	long top;
	int all, decode, width, height;
	struct failif *conds;
	char **cond_text;
	int nconds;
};

struct cmp {
	struct side s[2];
	struct ent *e;
	size_t n, cap;
	size_t matched[CK_N], only[2][CK_N];
	double share[2];        /* of function accesses in matched functions */
	struct opts *o;
	char **fails;           /* one line per failed condition */
	int nfails;
	char **notes;           /* conditions that matched nothing */
	int nnotes;
};

/* ---------------------------------------------------------- loading */

static int ent_add(struct cmp *c, enum cmp_kind k, int side,
		   sqlite3_stmt *st)
{
	struct ent *e;
	int m;

	if (dg_grow(&c->e, &c->cap, c->n + 1, sizeof *c->e) < 0)
		return -1;
	e = &c->e[c->n];
	memset(e, 0, sizeof *e);
	e->kind = k;
	e->keylen = (size_t)sqlite3_column_bytes(st, 0);
	e->key = malloc(e->keylen + 1);
	if (!e->key)
		return -1;
	if (e->keylen)
		memcpy(e->key, sqlite3_column_text(st, 0), e->keylen);
	e->key[e->keylen] = 0;
	for (m = 0; m < CM_N; m++) {
		e->v[side][m] = sqlite3_column_type(st, 1 + m) == SQLITE_NULL
			? NAN : sqlite3_column_double(st, 1 + m);
		e->v[!side][m] = NAN;
	}
	e->has[side] = 1;
	c->n++;
	return 0;
}

/* The rows of kind k from query sql on one side. */
static int load_kind(struct cmp *c, int side, enum cmp_kind k,
		     const char *sql, char **err)
{
	sqlite3 *db = c->s[side].sh.db;
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		*err = sqlite3_mprintf("%s: cannot read its %s: %s",
				       c->s[side].path, kind_titles[k],
				       sqlite3_errmsg(db));
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (ent_add(c, k, side, st) < 0) {
			sqlite3_finalize(st);
			*err = sqlite3_mprintf("out of memory");
			return -1;
		}
	if (rc != SQLITE_DONE)
		*err = sqlite3_mprintf("%s: reading its %s: %s",
				       c->s[side].path, kind_titles[k],
				       sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int peak_row(sqlite3_stmt *ins, const char *site, int64_t peak)
{
	int rc;

	sqlite3_bind_text(ins, 1, site, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(ins, 2, peak);
	rc = sqlite3_step(ins);
	sqlite3_reset(ins);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* The heap's peak, 0 without blocks, into temp.dgc_total. */
static int total_peak(sqlite3 *db, const char *path, char **err)
{
	struct heaplive h = { 0 };
	struct heaplive_ev *ev;
	sqlite3_stmt *ins = NULL;
	char *what = sqlite3_mprintf("%s: cannot read its heap blocks", path);
	size_t n, k;
	int rc = -1;

	if (!what || heaplive_events(db, "SELECT alloc_icount, free_icount, size FROM "
				     "temp.dgc_bk", what, &ev, &n, err) < 0) {
		if (!what)
			*err = sqlite3_mprintf("out of memory");
		sqlite3_free(what);
		return -1;
	}
	for (k = 0; k < n; k++)
		if (heaplive_add(&h, ev[k].i, ev[k].d) < 0) {
			*err = sqlite3_mprintf("%s: the live bytes pass 2^63", path);
			goto out;
		}
	if (sqlite3_prepare_v2(db, "INSERT INTO temp.dgc_total VALUES (?1)", -1, &ins,
			       NULL) == SQLITE_OK) {
		sqlite3_bind_int64(ins, 1, h.peak);
		rc = sqlite3_step(ins) == SQLITE_DONE ? 0 : -1;
	}
	if (rc < 0)
		*err = sqlite3_mprintf("%s: %s", what, sqlite3_errmsg(db));
out:
	sqlite3_finalize(ins);
	sqlite3_free(what);
	free(ev);
	return rc;
}

/* Each site's heap peak (heaplive.h), into temp.dgc_peaks: SQLite sorts
   the events by site, then icount; a window function partitioned by site
   took 9.5 s over the 1.7 M events of a Python program's 860 k blocks. */
static int site_peaks(sqlite3 *db, const char *path, char **err)
{
	sqlite3_stmt *ev = NULL, *ins = NULL;
	struct heaplive h = { 0 };
	char *site = NULL;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT site, ic, d FROM (SELECT site, alloc_icount "
			       "AS ic, size AS d FROM temp.dgc_bk UNION ALL SELECT site, "
			       "free_icount, -size FROM temp.dgc_bk WHERE free_icount IS "
			       "NOT NULL) ORDER BY site, ic, d", -1, &ev, NULL) != SQLITE_OK
	    || sqlite3_prepare_v2(db, "INSERT INTO temp.dgc_peaks VALUES (?1, ?2)", -1,
				  &ins, NULL) != SQLITE_OK)
		goto db_fail;
	while ((rc = sqlite3_step(ev)) == SQLITE_ROW) {
		const char *s = (const char *)sqlite3_column_text(ev, 0);

		if (!s)
			s = "?";
		if (!site || strcmp(site, s) != 0) {
			if (site && peak_row(ins, site, h.peak) < 0)
				goto db_fail;
			free(site);
			if (!(site = strdup(s))) {
				*err = sqlite3_mprintf("out of memory");
				goto out;
			}
			h = (struct heaplive){ 0 };
		}
		if (heaplive_add(&h, sqlite3_column_int64(ev, 1), sqlite3_column_int64(ev, 2)) < 0) {
			*err = sqlite3_mprintf("%s: the live bytes of site %s pass 2^63", path, site);
			goto out;
		}
	}
	if (rc != SQLITE_DONE || (site && peak_row(ins, site, h.peak) < 0))
		goto db_fail;
	sqlite3_finalize(ev);
	sqlite3_finalize(ins);
	free(site);
	return 0;
db_fail:
	*err = sqlite3_mprintf("%s: cannot read its heap blocks: %s", path, sqlite3_errmsg(db));
out:
	sqlite3_finalize(ev);
	sqlite3_finalize(ins);
	free(site);
	return -1;
}

static char *meta_text(sqlite3 *db, const char *key)
{
	sqlite3_stmt *st;
	char *s = NULL;

	if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = ?1",
			       -1, &st, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_type(st, 0) != SQLITE_NULL)
		s = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return s;
}

static int open_side(struct cmp *c, int side, char **err)
{
	struct side *s = &c->s[side];
	char *complete;
	enum cmp_kind k;

	s->sh.out = stdout;
	if (shell_open(&s->sh, s->path, 0, err) < 0)
		return -1;
	s->exe = meta_text(s->sh.db, "exe");
	complete = meta_text(s->sh.db, "complete");
	s->complete = complete && !strcmp(complete, "1");
	free(complete);
	if (!s->complete)
		s->reason = meta_text(s->sh.db, "incomplete_reason");
	if (sqlite3_exec(s->sh.db, bk_sql, NULL, NULL, NULL) != SQLITE_OK) {
		*err = sqlite3_mprintf("%s: cannot read its heap blocks: %s", s->path,
				       sqlite3_errmsg(s->sh.db));
		return -1;
	}
	if (total_peak(s->sh.db, s->path, err) < 0 || site_peaks(s->sh.db, s->path, err) < 0)
		return -1;
	for (k = 0; k < CK_N; k++)
		if (load_kind(c, side, k, queries[k], err) < 0)
			return -1;
	/* rows of lines and pages only: match() adds them to the
	   functions' rows of the same name */
	return c->o->decode ? load_kind(c, side, CK_FN, decode_query, err) : 0;
}

/* ---------------------------------------------------------- matching */

static int ent_cmp_key(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;
	size_t l = x->keylen < y->keylen ? x->keylen : y->keylen;
	int r;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if ((r = memcmp(x->key, y->key, l)) != 0)
		return r;
	if (x->keylen != y->keylen)
		return x->keylen < y->keylen ? -1 : 1;
	return x->has[HEAD] - y->has[HEAD];     /* BASE first */
}

static double add_nan(double a, double b)
{
	return isnan(a) ? b : isnan(b) ? a : a + b;
}

/* e absorbs f, an entity of the same kind and name. */
static void ent_merge(struct ent *e, struct ent *f)
{
	int s, m;

	for (s = 0; s < 2; s++) {
		if (!f->has[s])
			continue;
		for (m = 0; m < CM_N; m++)
			e->v[s][m] = e->has[s] ? add_nan(e->v[s][m], f->v[s][m])
					       : f->v[s][m];
		e->has[s] = 1;
	}
	free(f->key);
}

static void match(struct cmp *c)
{
	size_t i, j = 0;
	double all[2] = { 0, 0 }, in[2] = { 0, 0 };
	int s;

	dg_sort(c->e, c->n, sizeof *c->e, ent_cmp_key);
	for (i = 0; i < c->n; i++) {
		if (j > 0 && c->e[j - 1].kind == c->e[i].kind &&
		    c->e[j - 1].keylen == c->e[i].keylen &&
		    !memcmp(c->e[j - 1].key, c->e[i].key, c->e[i].keylen))
			ent_merge(&c->e[j - 1], &c->e[i]);
		else
			c->e[j++] = c->e[i];
	}
	c->n = j;
	for (i = 0; i < c->n; i++) {
		struct ent *e = &c->e[i];

		if (e->has[BASE] && e->has[HEAD])
			c->matched[e->kind]++;
		else
			c->only[e->has[HEAD]][e->kind]++;
		if (e->kind != CK_FN)
			continue;
		for (s = 0; s < 2; s++) {
			double a = isnan(e->v[s][CM_ACCESSES]) ? 0
				 : e->v[s][CM_ACCESSES];

			all[s] += e->has[s] ? a : 0;
			in[s] += e->has[BASE] && e->has[HEAD] ? a : 0;
		}
	}
	for (s = 0; s < 2; s++)
		c->share[s] = all[s] > 0 ? 100.0 * in[s] / all[s] : 0;
}

/* The value of metric m on side s, 0 where the entity is absent. */
static double val(const struct ent *e, int s, int m)
{
	return e->has[s] ? e->v[s][m] : (isnan(e->v[!s][m]) ? NAN : 0);
}

static double delta(const struct ent *e, int m)
{
	double d = val(e, HEAD, m) - val(e, BASE, m);

	return isnan(d) ? 0 : d;
}

static int changed(const struct ent *e)
{
	int m;

	if (!e->has[BASE] || !e->has[HEAD])
		return 1;
	for (m = 0; m < CM_N; m++)
		if (delta(e, m) != 0)
			return 1;
	return 0;
}

static enum cmp_metric sort_metric;

/* Totals first, then what changed: the largest absolute change of the
   sort metric, then of accesses and bytes, then kind and name (a stable
   order).  qsort has no context argument, hence sort_metric. */
static int ent_cmp_change(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;
	static const int keys[] = { -1, CM_ACCESSES, CM_BYTES };
	size_t k;

	if ((x->kind == CK_TOTAL) != (y->kind == CK_TOTAL))
		return x->kind == CK_TOTAL ? -1 : 1;
	if (changed(x) != changed(y))   /* nrows_shown stops at the first */
		return changed(x) ? -1 : 1;
	for (k = 0; k < sizeof keys / sizeof keys[0]; k++) {
		int m = keys[k] < 0 ? (int)sort_metric : keys[k];
		double dx = fabs(delta(x, m)), dy = fabs(delta(y, m));

		if (dx != dy)
			return dx > dy ? -1 : 1;
	}
	return ent_cmp_key(a, b);
}

/* ---------------------------------------------------------- numbers */

/* An integer-valued metric, or "-" when not measured. */
static void fmt_num(char *buf, size_t len, double v, int sign)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, sign ? "%+.0f" : "%.0f", v);
}

/* The relative change in %, or "new", "gone", "-". */
static void fmt_pct(char *buf, size_t len, const struct ent *e, int m)
{
	double b = val(e, BASE, m), h = val(e, HEAD, m);

	if (!e->has[BASE])
		snprintf(buf, len, "new");
	else if (!e->has[HEAD])
		snprintf(buf, len, "gone");
	else if (isnan(b) || isnan(h) || b == 0)
		snprintf(buf, len, h == b ? "0%%" : "-");
	else
		snprintf(buf, len, "%+.1f%%", 100.0 * (h - b) / fabs(b));
}

/* ---------------------------------------------------------- text */

/* Trace text for the two text outputs: a terminal's (flags 0: dgesc_text)
   or a Markdown table's (ESC_MD: dgesc.h's DGESC_MD flavour). */
enum { ESC_MD = 1 };

static char *esc(const char *s, size_t n, unsigned flags)
{
	return flags & ESC_MD ? dgesc_as(DGESC_MD, s, n) : dgesc_text(s, n, 0);
}

/* The name escaped for a terminal, cut at NAME_WIDTH characters. */
static char *short_name(const struct ent *e, unsigned flags, size_t width)
{
	char *s = esc(e->key, e->keylen, flags);
	size_t i = 0, chars = 0;

	if (!s || !width)
		return s;
	while (s[i] && chars < width) {
		i++;
		while (((unsigned char)s[i] & 0xc0) == 0x80)
			i++;
		chars++;
	}
	if (s[i] && i >= 3) {
		/* room for "..." on a character boundary */
		size_t cut = i;

		while (chars > width - 3 && cut > 0) {
			cut--;
			while (cut > 0 && ((unsigned char)s[cut] & 0xc0) == 0x80)
				cut--;
			chars--;
		}
		strcpy(s + cut, "...");
	}
	return s;
}

static const enum cmp_metric delta_cols[] = {
	CM_BYTES, CM_LINES, CM_PAGES, CM_HEAP_PEAK, CM_ALLOCS, CM_INSTRUCTIONS
};
#define NDELTA (sizeof delta_cols / sizeof delta_cols[0])

/* The cells of one row (besides kind and name): accesses base, head,
   change, %, then the change of each other metric. */
struct cells {
	char c[4 + NDELTA][32];
};

static void row_cells(const struct ent *e, struct cells *r)
{
	size_t k;

	fmt_num(r->c[0], sizeof r->c[0], val(e, BASE, CM_ACCESSES), 0);
	fmt_num(r->c[1], sizeof r->c[1], val(e, HEAD, CM_ACCESSES), 0);
	fmt_num(r->c[2], sizeof r->c[2],
		isnan(val(e, HEAD, CM_ACCESSES)) ? NAN : delta(e, CM_ACCESSES),
		1);
	fmt_pct(r->c[3], sizeof r->c[3], e, CM_ACCESSES);
	for (k = 0; k < NDELTA; k++) {
		int m = delta_cols[k];

		fmt_num(r->c[4 + k], sizeof r->c[4 + k],
			isnan(val(e, HEAD, m)) && isnan(val(e, BASE, m))
			? NAN : delta(e, m), 1);
	}
}

static const char *const col_titles[4 + NDELTA] = {
	"accesses base", "accesses head", "change", "%", "bytes", "lines",
	"pages", "heap_peak", "allocs", "instructions"
};

static size_t nrows_shown(const struct cmp *c)
{
	size_t i, n = 0;

	for (i = 0; i < c->n; i++) {
		if (c->e[i].kind != CK_TOTAL && !c->o->all && !changed(&c->e[i]))
			break;  /* sorted: the unchanged come last */
		if (c->e[i].kind != CK_TOTAL && c->o->top > 0 &&
		    n >= (size_t)c->o->top + 1)
			break;
		n++;
	}
	return n;
}

/* What the table left out (the first n rows are shown). */
static void hidden_note(FILE *f, const struct cmp *c, size_t n,
			const char *pre)
{
	size_t i, more = 0, same = 0;

	for (i = n; i < c->n; i++)
		changed(&c->e[i]) ? more++ : same++;
	if (more)
		fprintf(f, "%s%zu more changed rows (--top 0 shows them)\n",
			pre, more);
	if (same)
		fprintf(f, "%s%zu unchanged rows (--all shows them)\n", pre,
			same);
}

/* The header lines, shared by text and Markdown (prefix "" or "- "). */
static void header_lines(FILE *f, const struct cmp *c, const char *pre,
			 unsigned flags)
{
	static const char *const side_name[2] = { "BASE", "HEAD" };
	int s, k;

	for (s = 1; s >= 0; s--) {
		const struct side *d = &c->s[s];
		char *p = esc(d->path, strlen(d->path), flags);
		char *x = d->exe ? esc(d->exe, strlen(d->exe), flags)
				 : NULL;

		fprintf(f, "%s%s %s: %s\n", pre, side_name[s], p ? p : "?",
			x ? x : "(no executable named)");
		free(p);
		free(x);
	}
	for (s = 1; s >= 0; s--) {
		const struct side *d = &c->s[s];
		char *r;

		if (d->complete)
			continue;
		r = d->reason ? esc(d->reason, strlen(d->reason), flags)
			      : NULL;
		fprintf(f, "%swarning: %s is not a complete trace "
			"(meta.complete = 0%s%s): its numbers stop early\n",
			pre, side_name[s], r ? ": " : "", r ? r : "");
		free(r);
	}
	fprintf(f, "%smatched by name:", pre);
	for (k = CK_FN; k < CK_N; k++)
		fprintf(f, "%s %s %zu of %zu/%zu", k == CK_FN ? "" : ",",
			kind_titles[k], c->matched[k],
			c->matched[k] + c->only[BASE][k],
			c->matched[k] + c->only[HEAD][k]);
	fprintf(f, " (base/head)\n%smatched functions make %.1f%% of BASE's "
		"and %.1f%% of HEAD's accesses in functions%s\n", pre,
		c->share[BASE], c->share[HEAD],
		c->share[BASE] < 50 || c->share[HEAD] < 50
		? "; little matched: are these two builds of one program?" : "");
}

static void write_text(FILE *f, const struct cmp *c)
{
	size_t n = nrows_shown(c), i, k, w[4 + NDELTA];
	struct cells r;

	header_lines(f, c, "", 0);
	for (k = 0; k < 4 + NDELTA; k++)
		w[k] = strlen(col_titles[k]);
	for (i = 0; i < n; i++) {
		row_cells(&c->e[i], &r);
		for (k = 0; k < 4 + NDELTA; k++)
			if (strlen(r.c[k]) > w[k])
				w[k] = strlen(r.c[k]);
	}
	fprintf(f, "\n%-6s ", "kind");
	for (k = 0; k < 4 + NDELTA; k++)
		fprintf(f, "%*s ", (int)w[k], col_titles[k]);
	fprintf(f, " name\n");
	for (i = 0; i < n; i++) {
		const struct ent *e = &c->e[i];
		char *name = short_name(e, 0, NAME_WIDTH);

		row_cells(e, &r);
		fprintf(f, "%-6s ", failif_kind_names[e->kind]);
		for (k = 0; k < 4 + NDELTA; k++)
			fprintf(f, "%*s ", (int)w[k], r.c[k]);
		fprintf(f, " %s\n", name ? name : "?");
		free(name);
	}
	hidden_note(f, c, n, "");
}

static void write_markdown(FILE *f, const struct cmp *c)
{
	size_t n = nrows_shown(c), i, k;
	struct cells r;

	fprintf(f, "## Memory behaviour: HEAD against BASE\n\n");
	header_lines(f, c, "- ", ESC_MD);
	fprintf(f, "\n| kind | name |");
	for (k = 0; k < 4 + NDELTA; k++)
		fprintf(f, " %s |", col_titles[k]);
	fprintf(f, "\n|:--|:--|");
	for (k = 0; k < 4 + NDELTA; k++)
		fprintf(f, "--:|");
	fprintf(f, "\n");
	for (i = 0; i < n; i++) {
		const struct ent *e = &c->e[i];
		char *name = short_name(e, ESC_MD, 0);

		row_cells(e, &r);
		fprintf(f, "| %s | %s |", failif_kind_names[e->kind],
			name ? name : "?");
		for (k = 0; k < 4 + NDELTA; k++)
			fprintf(f, " %s |", r.c[k]);
		fprintf(f, "\n");
		free(name);
	}
	hidden_note(f, c, n, "\n");
	for (i = 0; i < (size_t)c->nfails; i++) {
		char *t = esc(c->fails[i], strlen(c->fails[i]), ESC_MD);

		fprintf(f, "%s- **regression**: %s\n", i ? "" : "\n",
			t ? t : "?");
		free(t);
	}
}

/* ---------------------------------------------------------- JSON */

static void json_str(FILE *f, const char *s, size_t n)
{
	char *j = dgesc_as(DGESC_JSON, s, n);

	if (j)
		fprintf(f, "\"%s\"", j);
	else
		fputs("null", f);
	free(j);
}

static void json_num(FILE *f, double v)
{
	if (isnan(v))
		fputs("null", f);
	else
		fprintf(f, "%.17g", v);
}

static void json_metrics(FILE *f, const struct ent *e, int s)
{
	int m;

	if (s >= 0 && !e->has[s]) {
		fputs("null", f);
		return;
	}
	fputc('{', f);
	for (m = 0; m < CM_N; m++) {
		fprintf(f, "%s\"%s\": ", m ? ", " : "", failif_metric_names[m]);
		json_num(f, s >= 0 ? e->v[s][m]
			 : (isnan(val(e, HEAD, m)) && isnan(val(e, BASE, m))
			    ? NAN : delta(e, m)));
	}
	fputc('}', f);
}

static void json_side(FILE *f, const struct side *d)
{
	fputs("{\"path\": ", f);
	json_str(f, d->path, strlen(d->path));
	fputs(", \"exe\": ", f);
	if (d->exe)
		json_str(f, d->exe, strlen(d->exe));
	else
		fputs("null", f);
	fprintf(f, ", \"complete\": %s, \"incomplete_reason\": ",
		d->complete ? "true" : "false");
	if (d->reason)
		json_str(f, d->reason, strlen(d->reason));
	else
		fputs("null", f);
	fputc('}', f);
}

static void json_list(FILE *f, const char *key, char **v, int n)
{
	int i;

	fprintf(f, ",\n \"%s\": [", key);
	for (i = 0; i < n; i++) {
		fputs(i ? ", " : "", f);
		json_str(f, v[i], strlen(v[i]));
	}
	fputc(']', f);
}

static void write_json(FILE *f, const struct cmp *c)
{
	size_t n = nrows_shown(c), i;
	int k;

	fputs("{\"base\": ", f);
	json_side(f, &c->s[BASE]);
	fputs(",\n \"head\": ", f);
	json_side(f, &c->s[HEAD]);
	fputs(",\n \"matched\": {", f);
	for (k = CK_FN; k < CK_N; k++)
		fprintf(f, "%s\"%s\": {\"both\": %zu, \"base_only\": %zu, "
			"\"head_only\": %zu}", k == CK_FN ? "" : ", ",
			failif_kind_names[k], c->matched[k], c->only[BASE][k],
			c->only[HEAD][k]);
	fprintf(f, "},\n \"matched_access_share\": {\"base\": %.3f, "
		"\"head\": %.3f},\n \"rows\": [", c->share[BASE],
		c->share[HEAD]);
	for (i = 0; i < n; i++) {
		const struct ent *e = &c->e[i];

		fprintf(f, "%s\n  {\"kind\": \"%s\", \"name\": ", i ? "," : "",
			failif_kind_names[e->kind]);
		json_str(f, e->key, e->keylen);
		fputs(", \"base\": ", f);
		json_metrics(f, e, BASE);
		fputs(", \"head\": ", f);
		json_metrics(f, e, HEAD);
		fputs(", \"change\": ", f);
		json_metrics(f, e, -1);
		fputc('}', f);
	}
	fprintf(f, "],\n \"rows_not_shown\": %zu", c->n - n);
	json_list(f, "regressions", c->fails, c->nfails);
	json_list(f, "conditions_matching_nothing", c->notes, c->nnotes);
	fputs("}\n", f);
}

/* ---------------------------------------------------------- files */

/* A file written aside (PATH.tmp.PID, mode 0600) and renamed into place by
   out_close, or removed on failure: no half-written output is left. */
struct out {
	char *path, *tmp;
	FILE *f;
};

static int out_open(struct out *o, const char *path, char **err)
{
	int fd;

	o->path = strdup(path);
	o->tmp = sqlite3_mprintf("%s.tmp.%d", path, (int)getpid());
	if (!o->path || !o->tmp) {
		*err = sqlite3_mprintf("out of memory");
		return -1;
	}
	fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_TRUNC, 0600);
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		*err = sqlite3_mprintf("cannot write '%s': %s", o->tmp,
				       strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return 0;
}

/* ok: keep it (rename); else remove it.  0, or -1 with *err. */
static int out_close(struct out *o, int ok, char **err)
{
	int rc = 0;

	if (o->f && fclose(o->f) != 0 && ok) {
		*err = sqlite3_mprintf("writing '%s': %s", o->tmp,
				       strerror(errno));
		rc = -1;
	}
	o->f = NULL;
	if (ok && rc == 0 && rename(o->tmp, o->path) != 0) {
		*err = sqlite3_mprintf("cannot rename '%s' to '%s': %s",
				       o->tmp, o->path, strerror(errno));
		rc = -1;
	}
	if (!ok || rc < 0)
		unlink(o->tmp);
	free(o->path);
	sqlite3_free(o->tmp);
	return rc;
}

/* ---------------------------------------------------------- plots */

/* Runs gnuplot on a script, drawing into OUT: the image goes to a file
   beside OUT (see struct out) that the script names, then is renamed. */
typedef void (*script_fn)(FILE *f, const struct cmp *c, const char *dir);

static int gnuplot_to(const struct cmp *c, const char *out, script_fn body,
		      const char *dir, char **err)
{
	const char *term = NULL, *gp = NULL;
	char scr[4200], errf[4200];
	struct out o = { 0 };
	FILE *f;
	int rc;

	if (dgplot_output(out, 1, &term, &gp, err) < 0)
		return -1;
	if (out_open(&o, out, err) < 0)
		return out_close(&o, 0, err), -1;
	snprintf(scr, sizeof scr, "%s/compare.gp", dir);
	snprintf(errf, sizeof errf, "%s/gnuplot.err", dir);
	if (!(f = fopen(scr, "w"))) {
		*err = sqlite3_mprintf("cannot write '%s': %s", scr,
				       strerror(errno));
		return out_close(&o, 0, err), -1;
	}
	fprintf(f, "set terminal %s size %d,%d noenhanced\nset output ", term,
		c->o->width, c->o->height);
	dgplot_quote(f, o.tmp);
	fputc('\n', f);
	body(f, c, dir);
	fprintf(f, "unset output\n");
	rc = fclose(f) == 0 ? dgplot_run_gnuplot(gp, scr, errf, err) : -1;
	unlink(scr);
	unlink(errf);
	return out_close(&o, rc == 0, err) < 0 ? -1 : rc;
}

static void side_by_side(FILE *f, const struct cmp *c, const char *dir)
{
	static const char *const title[2] = { "BASE", "HEAD" };
	int s;

	fprintf(f, "set multiplot layout 1,2\nunset border\nunset tics\n"
		"unset key\nset size ratio -1\nset margins 0,0,0,2\n");
	for (s = 0; s < 2; s++) {
		char img[4200], *t;

		snprintf(img, sizeof img, "%s/%s.png", dir, title[s]);
		t = sqlite3_mprintf("%s: %s", title[s], c->s[s].path);
		fprintf(f, "set title ");
		dgplot_quote(f, t ? t : title[s]);
		fprintf(f, "\nplot ");
		dgplot_quote(f, img);
		fprintf(f, " binary filetype=png with rgbimage\n");
		sqlite3_free(t);
	}
	fprintf(f, "unset multiplot\n");
}

/* Each trace drawn alone by dgplot (half the width), then both placed
   side by side. */
static int plot_both(const struct cmp *c, const char *dir, char **err)
{
	static const char *const title[2] = { "BASE", "HEAD" };
	int s, rc = 0;

	for (s = 0; s < 2 && rc == 0; s++) {
		struct dgplot_opts po;
		char img[4200];

		dgplot_defaults(&po);
		snprintf(img, sizeof img, "%s/%s.png", dir, title[s]);
		po.out = img;
		po.width = c->o->width / 2 < 200 ? 200 : c->o->width / 2;
		po.height = c->o->height - 30;
		po.unfiltered = 1;
		rc = dgplot_draw(c->s[s].sh.db, &po, err);
	}
	if (rc == 0)
		rc = gnuplot_to(c, c->o->plot, side_by_side, dir, err);
	for (s = 0; s < 2; s++) {
		char img[4200];

		snprintf(img, sizeof img, "%s/%s.png", dir, title[s]);
		unlink(img);
	}
	return rc;
}

#define CHANGE_BARS 25

/* The first `chars` characters of a name, unescaped (dgplot_quote
   escapes), with "..." when cut; a byte outside UTF-8 counts as one. */
static char *raw_prefix(const struct ent *e, size_t chars)
{
	size_t i = 0, k = 0;
	char *s;

	while (i < e->keylen && k < chars) {
		uint32_t cp;
		int l = dgesc_utf8_len((const unsigned char *)e->key + i,
				       e->keylen - i, &cp);

		i += l ? (size_t)l : 1;
		k++;
	}
	s = malloc(i + 4);
	if (!s)
		return NULL;
	memcpy(s, e->key, i);
	strcpy(s + i, i < e->keylen ? "..." : "");
	return s;
}

/* The functions with the largest change of accesses, as horizontal bars:
   red where HEAD makes more, green where fewer.  Names reach the script
   only through dgplot_quote, as tic labels. */
static void change_bars(FILE *f, const struct cmp *c, const char *dir)
{
	const struct ent *pick[CHANGE_BARS];
	size_t i, n = 0;
	int up;

	(void)dir;
	for (i = 0; i < c->n && n < CHANGE_BARS; i++)
		if (c->e[i].kind == CK_FN && delta(&c->e[i], CM_ACCESSES) != 0)
			pick[n++] = &c->e[i];
	fprintf(f, "set title 'change of accesses per function, HEAD - BASE'\n"
		"unset key\nset grid x\nset xzeroaxis\nset lmargin 40\n"
		"set xlabel 'accesses (red: more in HEAD, green: fewer)'\n"
		"set yrange [-0.7:%g]\nset ytics (", n ? n - 0.3 : 0.7);
	for (i = 0; i < n; i++) {
		char *name = raw_prefix(pick[i], 45);

		fputs(i ? ", " : "", f);
		dgplot_quote(f, name ? name : "?");
		fprintf(f, " %zu", n - 1 - i);
		free(name);
	}
	fprintf(f, ")\n");
	for (up = 0; up < 2; up++) {
		fprintf(f, "$%s << EOD\n", up ? "up" : "down");
		for (i = 0; i < n; i++) {
			double d = delta(pick[i], CM_ACCESSES);

			if ((d > 0) == up)
				fprintf(f, "%.17g %zu\n", d, n - 1 - i);
		}
		fprintf(f, "0 -10\nEOD\n");
	}
	fprintf(f, "plot $up using ($1/2):2:($1/2):(0.35) with boxxyerror "
		"fill solid 0.8 lc rgb '#d62728', $down using ($1/2):2:"
		"(-$1/2):(0.35) with boxxyerror fill solid 0.8 lc rgb "
		"'#2ca02c'\n");
}

static int plots(const struct cmp *c, char **err)
{
	char dir[] = "/tmp/dgcompare.XXXXXX";
	int rc = 0;

	if (!c->o->plot && !c->o->plot_change)
		return 0;
	if (!mkdtemp(dir)) {
		*err = sqlite3_mprintf("mkdtemp: %s", strerror(errno));
		return -1;
	}
	if (c->o->plot)
		rc = plot_both(c, dir, err);
	if (rc == 0 && c->o->plot_change)
		rc = gnuplot_to(c, c->o->plot_change, change_bars, dir, err);
	rmdir(dir);
	return rc;
}

/* ---------------------------------------------------------- --fail-if */

static int name_matches(const struct failif *fc, const struct ent *e)
{
	if (!fc->name)
		return 1;
	if (e->kind == CK_FN)
		return dgsqlfn_match_fn(e->key, fc->name);
	return !strcmp(e->key, fc->name) || fnmatch(fc->name, e->key, 0) == 0;
}

/* Appends LINE (sqlite3_malloc'd, NULL when out of memory) to v. */
static int add_line(char ***v, int *n, char *line)
{
	char **nv = line ? realloc(*v, (size_t)(*n + 1) * sizeof *nv) : NULL;

	if (!nv) {
		sqlite3_free(line);
		return -1;
	}
	*v = nv;
	nv[(*n)++] = line;
	return 0;
}

/* Judges one condition on every entity in its scope; a held one adds a
   line naming how many and the worst (the largest change). */
static int judge(struct cmp *c, const struct failif *fc, const char *text)
{
	const struct ent *worst = NULL;
	size_t i, in_scope = 0, held = 0;
	char d[40], b[32], h[32], *name;
	char *line;

	for (i = 0; i < c->n; i++) {
		const struct ent *e = &c->e[i];

		if (e->kind != fc->kind || !name_matches(fc, e))
			continue;
		in_scope++;
		if (!failif_holds(fc, val(e, BASE, fc->metric),
				  val(e, HEAD, fc->metric), e->has[BASE]))
			continue;
		held++;
		if (!worst || fabs(delta(e, fc->metric)) >
			      fabs(delta(worst, fc->metric)))
			worst = e;
	}
	if (!in_scope)
		return add_line(&c->notes, &c->nnotes, sqlite3_mprintf(
			"%s: no %s by that name", text, kind_titles[fc->kind]));
	if (!held)
		return 0;
	fmt_num(b, sizeof b, val(worst, BASE, fc->metric), 0);
	fmt_num(h, sizeof h, val(worst, HEAD, fc->metric), 0);
	fmt_pct(d, sizeof d, worst, fc->metric);
	name = dgesc_text(worst->key, worst->keylen, 0);
	line = sqlite3_mprintf("%s: %llu of %llu %s; %s%s%s%s %s %s -> %s (%s)",
		text, (unsigned long long)held, (unsigned long long)in_scope,
		kind_titles[fc->kind],
		worst->kind == CK_TOTAL ? "" : "worst ",
		worst->kind == CK_TOTAL ? "" : failif_kind_names[worst->kind],
		worst->kind == CK_TOTAL ? "" : " ",
		worst->kind == CK_TOTAL ? "total" : name ? name : "?",
		failif_metric_names[fc->metric], b, h, d);
	free(name);
	return add_line(&c->fails, &c->nfails, line);
}

/* ---------------------------------------------------------- options */

enum {
	O_COMPARE = 256, O_SORT, O_TOP, O_ALL, O_PLOT, O_PLOT_CHANGE, O_SIZE,
	O_FAIL_IF, O_DECODE
};

static const struct option longopts[] = {
	{ "compare", required_argument, NULL, O_COMPARE },
	{ "format", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "sort", required_argument, NULL, O_SORT },
	{ "top", required_argument, NULL, O_TOP },
	{ "all", no_argument, NULL, O_ALL },
	{ "decode", no_argument, NULL, O_DECODE },
	{ "plot", required_argument, NULL, O_PLOT },
	{ "plot-change", required_argument, NULL, O_PLOT_CHANGE },
	{ "size", required_argument, NULL, O_SIZE },
	{ "fail-if", required_argument, NULL, O_FAIL_IF },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static int usage_error(const char *what, const char *arg)
{
	shell_error(what, arg ? arg : "");
	fprintf(stderr, "try 'dgsql --compare --help'\n");
	return EXIT_USAGE;
}

static int add_cond(struct opts *o, const char *text)
{
	char msg[256];
	struct failif *nc = realloc(o->conds, (size_t)(o->nconds + 1) *
				    sizeof *nc);
	char **nt;

	if (!nc)
		return usage_error("out of memory", NULL);
	o->conds = nc;
	nt = realloc(o->cond_text, (size_t)(o->nconds + 1) * sizeof *nt);
	if (!nt)
		return usage_error("out of memory", NULL);
	o->cond_text = nt;
	if (failif_parse(text, &o->conds[o->nconds], msg, sizeof msg) < 0) {
		char *m = sqlite3_mprintf("--fail-if '%s': %s", text, msg);

		usage_error("", m ? m : msg);
		sqlite3_free(m);
		return EXIT_USAGE;
	}
	o->cond_text[o->nconds++] = (char *)text;
	return -1;
}

static int parse_format(const char *s, enum format *f)
{
	static const char *const names[] = { "text", "markdown", "json", "md" };
	int i;

	for (i = 0; i < 4; i++)
		if (!strcmp(s, names[i])) {
			*f = i == 3 ? F_MARKDOWN : (enum format)i;
			return 0;
		}
	return -1;
}

/* --size WxH, read as dgsql --size is. */
static int plot_size(struct opts *o, const char *arg)
{
	struct dgplot_opts po;
	char *err = NULL;

	dgplot_defaults(&po);
	if (dgplot_set(&po, "size", arg, &err) < 0) {
		usage_error("--size: ", err ? err : "bad value");
		sqlite3_free(err);
		return EXIT_USAGE;
	}
	o->width = po.width;
	o->height = po.height;
	return -1;
}

/* One option; -1 to go on, else an exit status. */
static int option(int ch, struct opts *o)
{
	char *end;
	int m;

	switch (ch) {
	case O_COMPARE: o->base = optarg; return -1;
	case 'o': o->output = optarg; return -1;
	case O_ALL: o->all = 1; return -1;
	case O_DECODE: o->decode = 1; return -1;
	case O_PLOT: o->plot = optarg; return -1;
	case O_PLOT_CHANGE: o->plot_change = optarg; return -1;
	case O_FAIL_IF: return add_cond(o, optarg);
	case 'h': fputs(usage_text, stdout); return EXIT_OK;
	case 'f':
		return parse_format(optarg, &o->format) < 0
			? usage_error("unknown --format (text, markdown, "
				      "json): ", optarg) : -1;
	case O_SORT:
		for (m = 0; m < CM_N; m++)
			if (!strcmp(optarg, failif_metric_names[m]))
				break;
		if (m == CM_N)
			return usage_error("unknown --sort metric: ", optarg);
		o->sort = m;
		return -1;
	case O_TOP:
		errno = 0;
		o->top = strtol(optarg, &end, 10);
		if (errno || *end || end == optarg || o->top < 0)
			return usage_error("--top wants a count: ", optarg);
		return -1;
	case O_SIZE:
		return plot_size(o, optarg);
	default:
		return usage_error("bad usage", NULL);
	}
}

int compare_wanted(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--compare") ||
		    !strncmp(argv[i], "--compare=", 10))
			return 1;
	return 0;
}

/* ---------------------------------------------------------- running */

static int write_table(struct cmp *c, char **err)
{
	struct out o = { 0 };
	FILE *f = stdout;

	if (c->o->output) {
		if (out_open(&o, c->o->output, err) < 0)
			return out_close(&o, 0, err), -1;
		f = o.f;
	}
	if (c->o->format == F_JSON)
		write_json(f, c);
	else if (c->o->format == F_MARKDOWN)
		write_markdown(f, c);
	else
		write_text(f, c);
	if (c->o->output)
		return out_close(&o, !ferror(f), err);
	return fflush(stdout) == 0 ? 0 : -1;
}

static int nothing_matched(const struct cmp *c)
{
	int k;

	/* threads match by order: any two traces have a first thread */
	for (k = CK_FN; k < CK_N; k++)
		if (c->matched[k] && k != CK_THREAD)
			return 0;
	return 1;
}

static int compare(struct cmp *c, char **err)
{
	int s, i;

	const char *term, *gp;

	/* a plot that cannot be drawn is known before any work */
	if ((c->o->plot && dgplot_output(c->o->plot, 1, &term, &gp, err) < 0) ||
	    (c->o->plot_change &&
	     dgplot_output(c->o->plot_change, 1, &term, &gp, err) < 0))
		return EXIT_USAGE;
	for (s = 0; s < 2; s++)
		if (open_side(c, s, err) < 0)
			return EXIT_USAGE;
	match(c);
	sort_metric = c->o->sort;
	dg_sort(c->e, c->n, sizeof *c->e, ent_cmp_change);
	for (i = 0; i < c->o->nconds; i++)
		if (judge(c, &c->o->conds[i], c->o->cond_text[i]) < 0) {
			*err = sqlite3_mprintf("out of memory");
			return EXIT_USAGE;
		}
	if (write_table(c, err) < 0 || plots(c, err) < 0)
		return EXIT_USAGE;
	for (s = 0; s < 2; s++)
		if (!c->s[s].complete) {
			char *m = sqlite3_mprintf("%s %s is not a complete "
				"trace (meta.complete = 0): its numbers stop "
				"early", s == HEAD ? "HEAD" : "BASE",
				c->s[s].path);

			shell_error("warning: ", m ? m : "incomplete trace");
			sqlite3_free(m);
		}
	for (i = 0; i < c->nnotes; i++)
		shell_error("warning: --fail-if ", c->notes[i]);
	for (i = 0; i < c->nfails; i++)
		shell_error("regression: ", c->fails[i]);
	if (nothing_matched(c)) {
		*err = sqlite3_mprintf("nothing matched by name between '%s' "
			"and '%s' but the totals: two unrelated programs, or "
			"traces without symbols", c->s[HEAD].path,
			c->s[BASE].path);
		return EXIT_USAGE;
	}
	return c->nfails ? EXIT_REGRESSION : EXIT_OK;
}

static void cmp_free(struct cmp *c)
{
	size_t i;
	int s;

	for (i = 0; i < c->n; i++)
		free(c->e[i].key);
	free(c->e);
	for (s = 0; s < 2; s++) {
		shell_free(&c->s[s].sh);
		free(c->s[s].exe);
		free(c->s[s].reason);
	}
	for (s = 0; s < c->nfails; s++)
		sqlite3_free(c->fails[s]);
	for (s = 0; s < c->nnotes; s++)
		sqlite3_free(c->notes[s]);
	free(c->fails);
	free(c->notes);
}

int compare_main(int argc, char **argv)
{
	struct opts o = { .top = 20, .width = 1400, .height = 600 };
	struct cmp c = { .o = &o };
	char *err = NULL;
	int ch, rc = -1, i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage_text, stdout);   /* also after --compare */
			return EXIT_OK;
		}
	optind = 1;
	while (rc < 0 && (ch = getopt_long(argc, argv, "f:o:h", longopts,
					    NULL)) != -1)
		rc = option(ch, &o);
	if (rc < 0 && !o.base)
		rc = usage_error("--compare wants the BASE database", NULL);
	if (rc < 0 && optind + 1 != argc)
		rc = usage_error(optind == argc ? "no HEAD database given"
				 : "one HEAD database only, not: ",
				 optind == argc ? NULL : argv[optind + 1]);
	if (rc < 0) {
		o.head = argv[optind];
		c.s[BASE].path = o.base;
		c.s[HEAD].path = o.head;
		rc = compare(&c, &err);
		if (err)
			shell_error("compare: ", err);
		sqlite3_free(err);
		cmp_free(&c);
	}
	for (i = 0; i < o.nconds; i++)
		failif_free(&o.conds[i]);
	free(o.conds);
	free(o.cond_text);
	return rc;
}
