/* report.c: `dgsql --report DIR` (see report.h).
 *
 * The report reads a handful of TEMP relations, dgr_*, made once at the
 * start (sources[]): without a filter each is a VIEW over a summary
 * table; with one, a TEMP TABLE computed from filtered_accesses.  Every
 * section below reads only those (and the trace's own small tables), so
 * the sections do not know whether a filter is set.  Sections are a
 * dispatch table; each adds its headings, tables and charts to the
 * document (rdoc.h), which is then written three ways into a directory
 * made aside and renamed into place.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aside.h"
#include "dgesc.h"
#include "dgmem.h"
#include "dgplot.h"
#include "dgsqlfn.h"
#include "fold.h"
#include "heaplive.h"
#include "rchart.h"
#include "rdoc.h"

#define SERIES_POINTS 1000      /* points of a chart over time */
#define HIST_BLOCKS 4           /* blocks with an offset histogram */
#define MAX_LABELS 30           /* event / range labels with a section */
#define MAX_INTERVALS 20        /* intervals listed per label */

struct rep {
	sqlite3 *db;
	const struct report_opts *o;
	struct rdoc *doc;
	char *dir;              /* the aside directory */
	struct rchart_batch *charts;    /* drawn together when all are in;
	                                   NULL: --no-charts, none drawn */
	char **err;
	int64_t icount;         /* the trace's instructions */
};

/* ---------------------------------------------------------- SQL */

/* The allocation site of stack X as text: its innermost 4 functions,
   the first with its source file's name and line (two sites in one
   function differ there). */
#define SITE(x) "(SELECT group_concat(name, ' < ') FROM (" \
	"SELECT coalesce(f.name, dg_hex(sf.pc)) || CASE WHEN sf.depth = 0 " \
	"AND p.line IS NOT NULL THEN ' (' || replace(p.file, rtrim(p.file, " \
	"replace(p.file, '/', '')), '') || ':' || p.line || ')' ELSE '' END " \
	"AS name FROM dg_frames(" x ") sf " \
	"LEFT JOIN pcs p ON p.pc = sf.pc " \
	"LEFT JOIN functions f ON f.id = p.function_id " \
	"ORDER BY sf.depth LIMIT 4))"

static int fail_db(struct rep *r, const char *what)
{
	*r->err = sqlite3_mprintf("%s: %s", what, sqlite3_errmsg(r->db));
	return -1;
}

static int exec(struct rep *r, const char *sql)
{
	char *e = NULL;

	if (sqlite3_exec(r->db, sql, NULL, NULL, &e) == SQLITE_OK)
		return 0;
	*r->err = sqlite3_mprintf("%s", e ? e : sqlite3_errmsg(r->db));
	sqlite3_free(e);
	return -1;
}

/* Runs SQL, with args bound to ?1.., into a table (the caller's). */
static struct rtable *query(struct rep *r, const char *id, const char *sql,
			    const int64_t *args, int nargs)
{
	sqlite3_stmt *st;
	struct rtable *t;
	int i;

	if (sqlite3_prepare_v2(r->db, sql, -1, &st, NULL) != SQLITE_OK) {
		fail_db(r, id);
		return NULL;
	}
	for (i = 0; i < nargs; i++)
		sqlite3_bind_int64(st, i + 1, args[i]);
	t = rdoc_grab(id, st, r->err);
	sqlite3_finalize(st);
	return t;
}

/* The same, added to the document; NULL on error. */
static struct rtable *table(struct rep *r, const char *id, const char *sql,
			    const int64_t *args, int nargs)
{
	struct rtable *t = query(r, id, sql, args, nargs);

	if (t && rdoc_add_table(r->doc, t) < 0) {
		rdoc_table_free(t);
		*r->err = sqlite3_mprintf("out of memory");
		return NULL;
	}
	return t;
}

static int64_t one_int(struct rep *r, const char *sql, int64_t dflt)
{
	sqlite3_stmt *st;
	int64_t v = dflt;

	if (sqlite3_prepare_v2(r->db, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_type(st, 0) != SQLITE_NULL)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static int para(struct rep *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int para(struct rep *r, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int rc;

	va_start(ap, fmt);
	s = sqlite3_vmprintf(fmt, ap);
	va_end(ap);
	rc = s ? rdoc_para(r->doc, s) : -1;
	sqlite3_free(s);
	if (rc < 0)
		*r->err = sqlite3_mprintf("out of memory");
	return rc;
}

static int section(struct rep *r, const char *id, const char *title)
{
	if (rdoc_section(r->doc, id, title) == 0)
		return 0;
	*r->err = sqlite3_mprintf("out of memory");
	return -1;
}

/* ---------------------------------------------------------- sources */

/* Each dgr_* relation: its view on the summaries, its table from the
   filtered accesses.  `once`: the summaries' answer is a table too,
   computed once, as several sections read it and each read of the view
   groups a whole summary table again (dgr_fn: sum_fn_block, 3.4 M rows on
   a compiler's trace, 1.5-3 s a read, read five times). */
struct source {
	const char *name;
	const char *summary;
	const char *filtered;
	int once;
	const char *flag;       /* filtered, and this SQL function says 1: */
	const char *flagged;    /* from the filter's summaries, not decoded */
};

static const struct source sources[] = {
	{ "dgr_fn",     /* sum_pc: a row a pc, where sum_fn_block has a row a
	                   (function, block): 0.15 s against 3 s at 4 M blocks */
	  "SELECT p.function_id, sum(s.accesses * (s.is_write = 0)) AS reads, "
	  "sum(s.accesses * s.is_write) AS writes, sum(s.bytes) AS bytes "
	  "FROM sum_pc s LEFT JOIN pcs p ON p.pc = s.pc AND "
	  "p.module_id = s.module_id GROUP BY p.function_id",
	  "SELECT p.function_id, sum(a.is_write = 0) AS reads, "
	  "sum(a.is_write) AS writes, sum(a.size) AS bytes "
	  "FROM filtered_accesses a LEFT JOIN pcs p ON p.pc = a.pc AND "
	  "p.module_id = a.module_id GROUP BY p.function_id", 1,
	  "dg_summed", /* as by_function: a call-stack filter's counts */
	  "SELECT p.function_id, sum(s.accesses * (s.is_write = 0)) AS reads, "
	  "sum(s.accesses * s.is_write) AS writes, sum(s.bytes) AS bytes "
	  "FROM filtered_sum s LEFT JOIN pcs p ON p.pc = s.pc AND "
	  "p.module_id = s.module_id GROUP BY p.function_id" },
	{ "dgr_blocks",
	  "SELECT id AS block_id, reads, writes, read_bytes + write_bytes "
	  "AS bytes FROM blocks",
	  "SELECT block_id, sum(is_write = 0) AS reads, sum(is_write) AS "
	  "writes, sum(size) AS bytes FROM filtered_accesses "
	  "WHERE block_id IS NOT NULL GROUP BY block_id", 0, NULL, NULL },
	{ "dgr_pages", "SELECT page, reads, writes FROM sum_pages",
	  "SELECT addr >> 12 AS page, sum(is_write = 0) AS reads, "
	  "sum(is_write) AS writes FROM filtered_accesses GROUP BY 1", 0,
	  "dg_paged", "SELECT page, reads, writes FROM filtered_pages" },
	{ "dgr_lines", "SELECT line, reads, writes FROM sum_lines",
	  "SELECT addr >> 6 AS line, sum(is_write = 0) AS reads, "
	  "sum(is_write) AS writes FROM filtered_accesses GROUP BY 1", 0,
	  "dg_paged", "SELECT line, reads, writes FROM filtered_lines" },
	{ "dgr_windows",
	  "SELECT window_start, accesses, lines, pages FROM sum_windows",
	  "SELECT icount / 100000 * 100000 AS window_start, count(*) AS "
	  "accesses, count(DISTINCT addr >> 6) AS lines, "
	  "count(DISTINCT addr >> 12) AS pages FROM filtered_accesses "
	  "GROUP BY icount / 100000", 0, "dg_windowed",
	  "SELECT window_start, accesses, lines, pages FROM filtered_windows" },
	{ "dgr_ctx",    /* a context's runs times its bbdef's accesses, less
	                   the few that did not happen: a row a context, not
	                   a row a (context, descriptor) */
	  "WITH bb AS (SELECT bbdef_id, count(*) AS n, sum(size) AS sz "
	  "FROM access_descs GROUP BY bbdef_id), "
	  "mi AS (SELECT m.context_id, sum(m.missed) AS n, "
	  "sum(m.missed * d.size) AS sz FROM sum_ctx_miss m JOIN contexts c "
	  "ON c.id = m.context_id JOIN access_descs d ON d.bbdef_id = "
	  "c.bbdef_id AND d.aseq = m.aseq GROUP BY m.context_id) "
	  "SELECT s.context_id, s.runs * bb.n - coalesce(mi.n, 0) AS accesses, "
	  "s.runs * bb.sz - coalesce(mi.sz, 0) AS bytes FROM (SELECT "
	  "context_id, sum(runs) AS runs FROM sum_ctx GROUP BY context_id) s "
	  "JOIN contexts c ON c.id = s.context_id JOIN bb ON bb.bbdef_id = "
	  "c.bbdef_id LEFT JOIN mi ON mi.context_id = s.context_id",
	  "SELECT context_id, count(*) AS accesses, sum(size) AS bytes "
	  "FROM filtered_accesses GROUP BY context_id", 0, "dg_ctx_summed",
	  "SELECT context_id, accesses, bytes FROM filtered_ctx" },
};

/* filtered_accesses restricted to the icount range, and the flags the
   canned queries read to choose summaries switched off. */
static void flag_zero(sqlite3_context *c, int argc, sqlite3_value **argv)
{
	(void)argc, (void)argv;
	sqlite3_result_int(c, 0);
}

static void flag_one(sqlite3_context *c, int argc, sqlite3_value **argv)
{
	(void)argc, (void)argv;
	sqlite3_result_int(c, 1);
}

/* The SELECT that filtered_accesses is now (sqlite3_free), or NULL. */
static char *view_body(struct rep *r)
{
	sqlite3_stmt *st;
	char *body = NULL;

	if (sqlite3_prepare_v2(r->db, "SELECT sql FROM temp.sqlite_master "
			       "WHERE name = 'filtered_accesses'", -1, &st,
			       NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(st, 0);
		const char *as = v ? strstr(v, " AS ") : NULL;

		if (as)
			body = sqlite3_mprintf("%s", as + 4);
	}
	sqlite3_finalize(st);
	return body;
}

static int narrow_icount(struct rep *r)
{
	char *body = view_body(r), *sql;
	int rc;

	if (!body)
		return fail_db(r, "filtered_accesses");
	sql = sqlite3_mprintf("DROP VIEW temp.filtered_accesses; "
		"CREATE TEMP VIEW filtered_accesses AS SELECT * FROM (%s) "
		"WHERE icount >= %lld AND icount < %lld", body,
		(long long)r->o->icount_lo, (long long)r->o->icount_hi);
	sqlite3_free(body);
	rc = exec(r, sql);
	sqlite3_free(sql);
	if (rc < 0)
		return -1;
	if (sqlite3_create_function(r->db, "dg_filtered", 0, SQLITE_UTF8,
				    NULL, flag_one, NULL, NULL) != SQLITE_OK ||
	    sqlite3_create_function(r->db, "dg_summed", 0, SQLITE_UTF8, NULL,
				    flag_zero, NULL, NULL) != SQLITE_OK ||
	    sqlite3_create_function(r->db, "dg_ctx_summed", 0, SQLITE_UTF8,
				    NULL, flag_zero, NULL, NULL) != SQLITE_OK ||
	    sqlite3_create_function(r->db, "dg_windowed", 0, SQLITE_UTF8,
				    NULL, flag_zero, NULL, NULL) != SQLITE_OK ||
	    sqlite3_create_function(r->db, "dg_paged", 0, SQLITE_UTF8,
				    NULL, flag_zero, NULL, NULL) != SQLITE_OK)
		return fail_db(r, "icount range");
	return 0;
}

#define SCOPE_COLS "id, size, alloc_icount, free_icount, alloc_stack_id, " \
	"reads, writes"
#define SCOPE_TABLE "CREATE TEMP TABLE dgr_scope (id INTEGER PRIMARY KEY, " \
	"size, alloc_icount, free_icount, alloc_stack_id, reads, writes); "

/* The SQL of a source: the summaries' without a filter; with one, the
   filter's own summaries where its flag allows (the canned queries' rule),
   else the accesses decoded. */
static const char *source_sql(struct rep *r, const struct source *s, int any)
{
	char *flag;
	int on;

	if (!any)
		return s->summary;
	if (!s->flag)
		return s->filtered;
	flag = sqlite3_mprintf("SELECT %s()", s->flag);
	on = flag && dgsqlfn_int(r->db, flag) == 1;
	sqlite3_free(flag);
	return on ? s->flagged : s->filtered;
}

static int make_sources(struct rep *r)
{
	int any = r->o->filtered || r->o->has_icount;
	size_t i;

	if (r->o->has_icount && narrow_icount(r) < 0)
		return -1;
	for (i = 0; i < sizeof sources / sizeof sources[0]; i++) {
		char *sql = sqlite3_mprintf("DROP TABLE IF EXISTS temp.%s; "
			"DROP VIEW IF EXISTS temp.%s; CREATE TEMP %s %s AS %s",
			sources[i].name, sources[i].name,
			any || sources[i].once ? "TABLE" : "VIEW", sources[i].name,
			source_sql(r, &sources[i], any));
		int rc = exec(r, sql);

		sqlite3_free(sql);
		if (rc < 0)
			return -1;
	}
	/* the heap sections' blocks (report.h), with the columns they read:
	   a narrow copy made once.  They read blocks a dozen times, asking
	   `id IN` a view each time; blocks' rows carry their histograms, so
	   each scan read 215 MB on a compiler's trace (777 031 blocks). */
	return exec(r, r->o->filtered
		? "DROP TABLE IF EXISTS temp.dgr_scope; " SCOPE_TABLE
		  "INSERT INTO dgr_scope SELECT " SCOPE_COLS " FROM blocks "
		  "WHERE id IN (SELECT block_id FROM dgr_blocks)"
		: "DROP TABLE IF EXISTS temp.dgr_scope; " SCOPE_TABLE
		  "INSERT INTO dgr_scope SELECT " SCOPE_COLS " FROM blocks "
		  "WHERE alloc_icount >= dg_report_lo() AND "
		  "alloc_icount < dg_report_hi()");
}

static void icount_lo(sqlite3_context *c, int argc, sqlite3_value **argv)
{
	const struct report_opts *o = sqlite3_user_data(c);

	(void)argc, (void)argv;
	sqlite3_result_int64(c, o->has_icount ? o->icount_lo : INT64_MIN);
}

static void icount_hi(sqlite3_context *c, int argc, sqlite3_value **argv)
{
	const struct report_opts *o = sqlite3_user_data(c);

	(void)argc, (void)argv;
	sqlite3_result_int64(c, o->has_icount ? o->icount_hi : INT64_MAX);
}

static int register_range(struct rep *r)
{
	if (sqlite3_create_function(r->db, "dg_report_lo", 0, SQLITE_UTF8,
			(void *)r->o, icount_lo, NULL, NULL) != SQLITE_OK ||
	    sqlite3_create_function(r->db, "dg_report_hi", 0, SQLITE_UTF8,
			(void *)r->o, icount_hi, NULL, NULL) != SQLITE_OK)
		return fail_db(r, "report functions");
	return 0;
}

/* ---------------------------------------------------------- charts */

/* A top-N section (tops[] below): a table of the first rows of its SQL
   (?1: how many) and a bar chart of column vc labelled by column lc
   (vc < 0: no chart). */
struct top {
	const char *id, *title, *text, *sql;
	int lc, vc;
};

static int chart_bars(struct rep *r, const struct rtable *t, const char *title,
		      const char *xlabel, int lc, int vc)
{
	char file[128];
	struct rchart c = { .dir = r->dir, .batch = r->charts, .file = file,
			    .title = title,
			    .xlabel = xlabel };

	if (!r->charts)
		return 0;       /* --no-charts */
	snprintf(file, sizeof file, "%s.svg", t->id);
	if (rchart_bars(&c, t, lc, vc, r->err) < 0)
		return -1;
	return rdoc_image(r->doc, file, title);
}

/* A top-N section: table, then its bar chart. */
static int top_section(struct rep *r, const struct top *tp)
{
	int64_t n = r->o->top;
	struct rtable *t;

	if (section(r, tp->id, tp->title) < 0 || para(r, "%s", tp->text) < 0)
		return -1;
	t = table(r, tp->id, tp->sql, &n, 1);
	if (!t)
		return -1;
	if (tp->vc < 0)
		return 0;
	return chart_bars(r, t, tp->title, t->cols[tp->vc], tp->lc, tp->vc);
}

/* ---------------------------------------------------------- header */

#define META(k) "(SELECT value FROM meta WHERE key = '" k "')"

static const char header_sql[] =
	"SELECT 'program' AS fact, " META("exe") " AS value "
	"UNION ALL SELECT 'command line', CASE WHEN json_valid(" META("argv")
	  ") THEN (SELECT group_concat(value, ' ') FROM json_each(CASE WHEN "
	  "json_valid(" META("argv") ") THEN " META("argv") " ELSE '[]' END)) "
	  "ELSE " META("argv") " END "
	"UNION ALL SELECT 'threads', (SELECT count(*) FROM threads) "
	"UNION ALL SELECT 'instructions', CAST(" META("icount") " AS INTEGER) "
	"UNION ALL SELECT 'accesses', (SELECT sum(reads + writes) FROM dgr_fn) "
	"UNION ALL SELECT 'reads', (SELECT sum(reads) FROM dgr_fn) "
	"UNION ALL SELECT 'writes', (SELECT sum(writes) FROM dgr_fn) "
	"UNION ALL SELECT 'bytes accessed', (SELECT sum(bytes) FROM dgr_fn) "
	"UNION ALL SELECT 'heap blocks', (SELECT count(*) FROM dgr_scope) "
	"UNION ALL SELECT 'heap bytes allocated', (SELECT coalesce(sum(size), 0)"
	"  FROM dgr_scope) "
	"UNION ALL SELECT 'heap blocks never freed', (SELECT count(*) FROM "
	"  dgr_scope WHERE free_icount IS NULL) "
	"UNION ALL SELECT 'written by', " META("tool") " "
	"UNION ALL SELECT 'imported by', " META("importer") " || ' at ' || "
	  META("import_time") " "
	"UNION ALL SELECT 'filter', ?1";

static int warn_incomplete(struct rep *r)
{
	sqlite3_stmt *st;
	int rc = 0;

	if (sqlite3_prepare_v2(r->db, "SELECT " META("complete") ", "
			       META("incomplete_reason"), -1, &st, NULL)
	    != SQLITE_OK)
		return fail_db(r, "meta");
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) != 1) {
		const char *why = (const char *)sqlite3_column_text(st, 1);
		char *s = sqlite3_mprintf("This trace is truncated (meta."
			"complete = 0): %s.  Every figure below covers only "
			"what was recorded.", why ? why : "reason unknown");

		rc = s ? rdoc_warning(r->doc, s) : -1;
		sqlite3_free(s);
	}
	sqlite3_finalize(st);
	return rc;
}

static int sec_header(struct rep *r)
{
	sqlite3_stmt *st;
	struct rtable *t;

	if (section(r, "header", "Trace") < 0 || warn_incomplete(r) < 0)
		return -1;
	if (sqlite3_prepare_v2(r->db, header_sql, -1, &st, NULL) != SQLITE_OK)
		return fail_db(r, "header");
	sqlite3_bind_text(st, 1, r->o->filter ? r->o->filter : "none", -1,
			  SQLITE_STATIC);
	t = rdoc_grab("header", st, r->err);
	sqlite3_finalize(st);
	if (!t || rdoc_add_table(r->doc, t) < 0)
		return t ? (rdoc_table_free(t), -1) : -1;
	if (para(r, "Where the symbols came from, module by module:") < 0)
		return -1;
	return table(r, "symbols", "SELECT path AS module, symbols_from, "
		     "problem FROM modules ORDER BY id", NULL, 0) ? 0 : -1;
}

/* ---------------------------------------------------------- plots */

static int sec_addr_time(struct rep *r)
{
	struct dgplot_opts o;
	char out[4200];

	if (section(r, "addr-time", "Accesses: address x time") < 0 ||
	    para(r, "Address across (unused pages squeezed out), instruction "
		 "count down; reads green, writes red, both yellow.") < 0)
		return -1;
	if (!r->charts)
		return 0;       /* --no-charts */
	dgplot_defaults(&o);
	snprintf(out, sizeof out, "%s/addr-time.svg", r->dir);
	o.out = out;
	o.title = r->o->filter;
	o.unfiltered = !r->o->filtered && !r->o->has_icount;
	o.has_icount = r->o->has_icount;
	o.icount_lo = r->o->icount_lo;
	o.icount_hi = r->o->icount_hi;
	if (dgplot_draw(r->db, &o, r->err) < 0)
		return -1;
	return rdoc_image(r->doc, "addr-time.svg", "address x time");
}

static const struct top tops[] = {
	{ "functions", "Top functions",
	  "Accesses by function (the innermost, inlined or not, at the "
	  "access's pc).",
	  "SELECT coalesce(f.name, '(no symbol)') AS function, "
	  "x.reads + x.writes AS accesses, x.reads, x.writes, x.bytes "
	  "FROM dgr_fn x LEFT JOIN functions f ON f.id = x.function_id "
	  "ORDER BY accesses DESC, function LIMIT ?1", 0, 1 },
	{ "blocks", "Top heap blocks",
	  "Heap blocks by accesses inside them while they lived.",
	  "SELECT b.id AS block, dg_hex(b.addr) AS addr, b.size, "
	  "x.reads + x.writes AS accesses, x.reads, x.writes, x.bytes, "
	  SITE("b.alloc_stack_id") " AS site FROM dgr_blocks x "
	  "JOIN blocks b ON b.id = x.block_id WHERE x.reads + x.writes > 0 "
	  "ORDER BY accesses DESC, block LIMIT ?1", 0, 3 },
	{ "sites", "Top allocation sites",
	  "Allocation sites (the innermost four frames of the allocation "
	  "stack) by accesses to their blocks.",
	  "SELECT " SITE("s.stack_id") " AS site, s.blocks, s.bytes_allocated, "
	  "s.reads + s.writes AS accesses, s.reads, s.writes FROM "
	  "(SELECT b.alloc_stack_id AS stack_id, count(*) AS blocks, "
	  " sum(b.size) AS bytes_allocated, sum(x.reads) AS reads, "
	  " sum(x.writes) AS writes FROM dgr_blocks x JOIN blocks b "
	  " ON b.id = x.block_id GROUP BY b.alloc_stack_id) s "
	  "ORDER BY accesses DESC, bytes_allocated DESC LIMIT ?1", 0, 3 },
	{ "pages", "Top pages", "4 KiB pages by accesses starting in them.",
	  "SELECT dg_hex(page * 4096) AS page, reads + writes AS accesses, "
	  "reads, writes FROM dgr_pages ORDER BY accesses DESC, page "
	  "LIMIT ?1", 0, 1 },
	{ "lines", "Top cache lines",
	  "64-byte cache lines by accesses starting in them.",
	  "SELECT dg_hex(line * 64) AS line, reads + writes AS accesses, "
	  "reads, writes FROM dgr_lines ORDER BY accesses DESC, line "
	  "LIMIT ?1", 0, 1 },
};

static int top_sections(struct rep *r, const struct top *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (top_section(r, &v[i]) < 0)
			return -1;
	return 0;
}

static int sec_tops(struct rep *r)
{
	return top_sections(r, tops, sizeof tops / sizeof tops[0]);
}

/* The icounts a point of a chart over time stands for. */
static int64_t series_step(const struct rep *r)
{
	return r->icount / SERIES_POINTS + 1;
}

/* A series over time, at most SERIES_POINTS rows: sql's ?1 is the
   bucket width in instructions. */
static struct rtable *series(struct rep *r, const char *id, const char *sql)
{
	int64_t step = series_step(r);

	return query(r, id, sql, &step, 1);
}

static int lines_chart(struct rep *r, struct rtable *t, const char *file,
		       const char *title, const char *y, const char *y2,
		       long mark)
{
	struct rchart c = { .dir = r->dir, .batch = r->charts, .file = file,
			    .title = title,
			    .xlabel = "instructions", .ylabel = y,
			    .y2label = y2 };
	int rc;

	if (!r->charts) {       /* --no-charts */
		rdoc_table_free(t);
		return 0;
	}
	rc = rchart_lines(&c, t, 0, 1, y2 ? 2 : -1, mark, r->err);
	rdoc_table_free(t);
	return rc < 0 ? -1 : rdoc_image(r->doc, file, title);
}

static int sec_working_set(struct rep *r)
{
	struct rtable *t;

	if (section(r, "working-set", "Working set over time") < 0 ||
	    para(r, "Distinct 64-byte lines and 4 KiB pages touched in each "
		 "window of 100 000 instructions (the chart shows the largest "
		 "window of every %lld instructions).",
		 (long long)(r->icount / SERIES_POINTS + 1)) < 0 ||
	    !table(r, "working-set", "SELECT count(*) AS windows, "
		   "max(lines) AS max_lines, round(avg(lines), 1) AS mean_lines, "
		   "max(pages) AS max_pages, round(avg(pages), 1) AS mean_pages "
		   "FROM dgr_windows", NULL, 0))
		return -1;
	t = series(r, "working-set-series", "SELECT min(window_start) AS "
		   "icount, max(lines) AS lines, max(pages) AS pages FROM "
		   "dgr_windows GROUP BY window_start / ?1 ORDER BY 1");
	return t ? lines_chart(r, t, "working-set.svg", "working set",
			       "lines", "pages", -1) : -1;
}

/* ---------------------------------------------------------- histograms */

static const char hist_summary_sql[] =
	"SELECT h.offset, h.reads, h.writes FROM blocks b, "
	"dg_hist(b.hist, b.hist_bucket) h WHERE b.id = ?1 ORDER BY h.offset";
static const char hist_filtered_sql[] =
	"SELECT (a.addr - b.addr) / b.hist_bucket * b.hist_bucket AS offset, "
	"sum(a.is_write = 0) AS reads, sum(a.is_write) AS writes "
	"FROM filtered_accesses a JOIN blocks b ON b.id = a.block_id "
	"WHERE a.block_id = ?1 GROUP BY 1 ORDER BY 1";

static int hist_one(struct rep *r, int64_t block)
{
	int any = r->o->filtered || r->o->has_icount;
	char id[64], file[80], title[96];
	struct rchart c = { .dir = r->dir, .batch = r->charts, .file = file,
			    .title = title,
			    .xlabel = "offset in the block (bytes)",
			    .ylabel = "accesses" };
	struct rtable *t;

	snprintf(id, sizeof id, "hist-%lld", (long long)block);
	snprintf(file, sizeof file, "%s.svg", id);
	snprintf(title, sizeof title, "block %lld: accesses by offset",
		 (long long)block);
	if (para(r, "%s", title) < 0)
		return -1;
	t = table(r, id, any ? hist_filtered_sql : hist_summary_sql, &block, 1);
	if (!t)
		return -1;
	if (!r->charts)
		return 0;       /* --no-charts */
	if (rchart_hist(&c, t, 0, 1, 2, r->err) < 0)
		return -1;
	return rdoc_image(r->doc, file, title);
}

static int sec_histograms(struct rep *r)
{
	sqlite3_stmt *st;
	int64_t ids[HIST_BLOCKS];
	int n = 0, i;

	if (section(r, "histograms", "Offset histograms of the top blocks") < 0
	    || para(r, "Where in each of the %d most accessed blocks the "
		    "accesses start, in buckets of the block's histogram "
		    "(schema.sql: blocks.hist).", HIST_BLOCKS) < 0)
		return -1;
	if (sqlite3_prepare_v2(r->db, "SELECT block_id FROM dgr_blocks "
			       "WHERE reads + writes > 0 ORDER BY reads + "
			       "writes DESC, block_id LIMIT ?1", -1, &st,
			       NULL) != SQLITE_OK)
		return fail_db(r, "histograms");
	sqlite3_bind_int(st, 1, HIST_BLOCKS);
	while (n < HIST_BLOCKS && sqlite3_step(st) == SQLITE_ROW)
		ids[n++] = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	for (i = 0; i < n; i++)
		if (hist_one(r, ids[i]) < 0)
			return -1;
	return n ? 0 : para(r, "No heap block was accessed.");
}

/* ---------------------------------------------------------- flame */

struct flame {
	struct fold l;          /* the folded stacks */
	struct rflame_box *box;
	size_t nbox, capbox;
};

/* The contexts with accesses, by stack. */
static const char flame_stacks_sql[] =
	"SELECT k.stack_id, x.accesses, x.bytes FROM dgr_ctx x "
	"JOIN contexts k ON k.id = x.context_id WHERE x.accesses > 0";

static void flame_free(struct flame *f)
{
	fold_free(&f->l);
	free(f->box);
}

/* Frame by frame, so that stacks sharing a prefix are neighbours. */
static int cmp_fline(const void *a, const void *b)
{
	const struct fold_line *x = a, *y = b;
	int k, c;

	for (k = 0; k < x->n && k < y->n; k++)
		if ((c = strcmp(x->frames[k], y->frames[k])) != 0)
			return c;
	return (x->n > k) - (y->n > k);
}

static int add_box(struct flame *f, double x0, double x1, int depth,
		   const char *name)
{
	if (dg_grow(&f->box, &f->capbox, f->nbox + 1, sizeof *f->box) < 0)
		return -1;
	f->box[f->nbox++] = (struct rflame_box){ x0, x1, depth, name };
	return 0;
}

/* The boxes of the flame graph of the sorted lines, weighted by accesses
   or bytes: the flamegraph.pl merge (a frame continues while the next
   stack shares the prefix up to it), plus "all" at the bottom. */
static int flame_layout(struct flame *f, int bytes, double *total)
{
	double *open = NULL, x = 0;
	int maxd = 1, k;
	size_t i;
	const struct fold_line *prev = NULL;

	for (i = 0; i < f->l.n; i++)
		if (f->l.v[i].n > maxd)
			maxd = f->l.v[i].n;
	if (!(open = calloc((size_t)maxd + 1, sizeof *open)))
		return -1;
	f->nbox = 0;
	for (i = 0; i <= f->l.n; i++) {
		const struct fold_line *l = i < f->l.n ? &f->l.v[i] : NULL;
		int common = 0;

		while (prev && l && common < prev->n && common < l->n &&
		       !strcmp(prev->frames[common], l->frames[common]))
			common++;
		for (k = prev ? prev->n - 1 : -1; k >= common; k--)
			if (add_box(f, open[k], x, k + 1, prev->frames[k]) < 0)
				goto oom;
		for (k = common; l && k < l->n; k++)
			open[k] = x;
		if (l)
			x += (double)(bytes ? l->bytes : l->acc);
		prev = l;
	}
	free(open);
	*total = x;
	return add_box(f, 0, x, 0, "all");
oom:
	free(open);
	return -1;
}

static int flame_chart(struct rep *r, struct flame *f, int bytes)
{
	const char *file = bytes ? "flame-bytes.svg" : "flame-accesses.svg";
	const char *title = bytes ? "bytes accessed by call stack"
				  : "accesses by call stack";
	struct rchart c = { .dir = r->dir, .batch = r->charts, .file = file,
			    .title = title,
			    .xlabel = bytes ? "bytes" : "accesses" };
	double total;

	if (flame_layout(f, bytes, &total) < 0) {
		*r->err = sqlite3_mprintf("flame graph: out of memory");
		return -1;
	}
	if (rchart_flame(&c, f->box, f->nbox, total, r->err) < 0)
		return -1;
	return rdoc_image(r->doc, file, title);
}

/* Writes path aside and renames it into place; 0600. */
static int write_folded(struct rep *r, const struct flame *f, const char *path)
{
	char *tmp = sqlite3_mprintf("%s.tmp-XXXXXX", path);
	int fd = tmp ? mkstemp(tmp) : -1, k, bad;
	FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
	size_t i;

	if (!out) {
		*r->err = sqlite3_mprintf("--folded %s: %s", path,
					  strerror(errno));
		if (fd >= 0)
			close(fd), unlink(tmp);
		sqlite3_free(tmp);
		return -1;
	}
	for (i = 0; i < f->l.n; i++) {
		for (k = 0; k < f->l.v[i].n; k++) {
			char *e = dgesc_text(f->l.v[i].frames[k],
					     strlen(f->l.v[i].frames[k]), 0);

			fprintf(out, "%s%s", k ? ";" : "", e ? e : "?");
			free(e);
		}
		fprintf(out, " %lld\n", (long long)f->l.v[i].acc);
	}
	bad = ferror(out);
	bad |= fclose(out) != 0;
	if (bad || rename(tmp, path) < 0) {
		*r->err = sqlite3_mprintf("--folded %s: %s", path,
					  bad ? "write failed" : strerror(errno));
		unlink(tmp);
		sqlite3_free(tmp);
		return -1;
	}
	sqlite3_free(tmp);
	return 0;
}

static int sec_flame(struct rep *r)
{
	struct flame f = { 0 };
	int charts = r->charts != NULL, rc = -1;

	if (section(r, "flame", "Flame graphs") < 0 ||
	    para(r, "Accesses, then bytes, by the call stack of the code "
		 "making them: the outermost frame at the bottom, each box as "
		 "wide as its share; colours follow names.") < 0)
		return -1;
	if (!charts && !r->o->folded)
		return 0;       /* neither the charts nor the folded stacks */
	/* unfiltered, dgr_ctx is the summaries': fold adds them up itself */
	if (fold_load(r->db, flame_stacks_sql, !r->o->filtered && !r->o->has_icount,
		      &f.l, r->err) == 0) {
		dg_sort(f.l.v, f.l.n, sizeof *f.l.v, cmp_fline);
		if ((!charts || (flame_chart(r, &f, 0) == 0 && flame_chart(r, &f, 1) == 0)) &&
		    (!r->o->folded || write_folded(r, &f, r->o->folded) == 0))
			rc = 0;
	}
	flame_free(&f);
	return rc;
}

/* ---------------------------------------------------------- heap */

/* A point of the series. */
static int heap_point(struct rep *r, sqlite3_stmt *st, int64_t i, int64_t live)
{
	sqlite3_bind_int64(st, 1, i);
	sqlite3_bind_int64(st, 2, live);
	if (sqlite3_step(st) != SQLITE_DONE) {
		sqlite3_reset(st);
		return fail_db(r, "heap");
	}
	sqlite3_reset(st);
	return 0;
}

/* The live heap bytes after each allocation and free of the blocks in
   scope (heaplive.h): the peak (the most, at its first icount) into
   temp.dgr_heap_peak(live, i), and the
   series (per step of icounts: the first icount and the most live bytes)
   into temp.dgr_heap_series(icount, live_bytes).  A window function over
   the 1.55 M events of a compiler's trace took 1.3 s, and 0.3 s more a
   read; this sorts them and adds them up once. */
static int heap_run(struct rep *r)
{
	int64_t step = series_step(r), g_key = 0, g_i = 0, g_max = 0;
	struct heaplive h = { 0 };
	struct heaplive_ev *ev;
	sqlite3_stmt *st = NULL;
	size_t n, k;
	int rc = -1;

	if (heaplive_events(r->db, "SELECT alloc_icount, free_icount, size FROM dgr_scope",
			    "heap", &ev, &n, r->err) < 0)
		return -1;
	if (exec(r, "DROP TABLE IF EXISTS temp.dgr_heap_peak; DROP TABLE IF EXISTS "
		 "temp.dgr_heap_series; CREATE TEMP TABLE dgr_heap_peak(live, i); "
		 "CREATE TEMP TABLE dgr_heap_series(icount, live_bytes)") < 0)
		goto out;
	if (sqlite3_prepare_v2(r->db, "INSERT INTO temp.dgr_heap_series VALUES (?1, ?2)",
			       -1, &st, NULL) != SQLITE_OK) {
		fail_db(r, "heap");
		goto out;
	}
	for (k = 0; k < n; k++) {
		if (heaplive_add(&h, ev[k].i, ev[k].d) < 0) {
			*r->err = sqlite3_mprintf("heap: the live bytes pass 2^63 at "
						  "icount %lld (blocks.size damaged?)",
						  (long long)ev[k].i);
			goto out;
		}
		if (k > 0 && ev[k].i / step == g_key) {
			if (h.live > g_max)
				g_max = h.live;
			continue;
		}
		if (k > 0 && heap_point(r, st, g_i, g_max) < 0)
			goto out;
		g_key = ev[k].i / step, g_i = ev[k].i, g_max = h.live;
	}
	if (n && heap_point(r, st, g_i, g_max) < 0)
		goto out;
	sqlite3_finalize(st);
	st = NULL;
	if (h.any) {
		if (sqlite3_prepare_v2(r->db, "INSERT INTO temp.dgr_heap_peak VALUES (?1, ?2)",
				       -1, &st, NULL) != SQLITE_OK) {
			fail_db(r, "heap");
			goto out;
		}
		sqlite3_bind_int64(st, 1, h.peak);
		sqlite3_bind_int64(st, 2, h.peak_at);
		if (sqlite3_step(st) != SQLITE_DONE) {
			fail_db(r, "heap");
			goto out;
		}
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	free(ev);
	return rc;
}

static int sec_heap(struct rep *r)
{
	struct rtable *t, *s;
	int64_t peak_at;
	long mark = -1, k;

	if (section(r, "heap", "Heap over time") < 0 ||
	    para(r, "Live heap bytes after each allocation and free (the "
		 "chart shows the most of every %lld instructions); the peak "
		 "is marked.", (long long)(r->icount / SERIES_POINTS + 1)) < 0)
		return -1;
	if (heap_run(r) < 0)
		return -1;
	/* the live blocks counted at the peak alone (for every event, they
	   made the section quadratic in the blocks) */
	t = table(r, "heap-peak", "SELECT live AS peak_bytes, i AS "
		  "at_icount, (SELECT count(*) FROM dgr_scope WHERE "
		  "alloc_icount <= pk.i AND "
		  "(free_icount IS NULL OR free_icount > pk.i)) AS "
		  "blocks_live FROM temp.dgr_heap_peak pk", NULL, 0);
	if (!t)
		return -1;
	peak_at = t->nrows ? (int64_t)rdoc_num(t, 0, 1) : -1;
	s = query(r, "heap-series", "SELECT icount, live_bytes FROM "
		  "temp.dgr_heap_series ORDER BY 1", NULL, 0);   /* stepped in heap_run */
	if (!s)
		return -1;
	for (k = 0; k < s->nrows && t->nrows; k++)
		if (rdoc_num(s, k, 1) == rdoc_num(t, 0, 0))
			mark = k;
	if (lines_chart(r, s, "heap.svg", "live heap bytes", "bytes", NULL,
			mark) < 0 ||
	    para(r, "Allocation sites live at the peak:") < 0)
		return -1;
	return table(r, "heap-peak-sites", "SELECT " SITE("alloc_stack_id")
		     " AS site, count(*) AS blocks, sum(size) AS bytes FROM "
		     "dgr_scope WHERE alloc_icount <= ?1 AND (free_icount IS NULL OR "
		     "free_icount > ?1) GROUP BY alloc_stack_id ORDER BY bytes "
		     "DESC LIMIT 20", &peak_at, 1) ? 0 : -1;
}

/* Leaks, short-lived and useless allocations: tables without a chart. */
static const struct top lifetimes[] = {
	{ "leaks", "Leaks", "Blocks never freed, by allocation site.",
	  "SELECT " SITE("alloc_stack_id") " AS site, count(*) AS blocks, "
	  "sum(size) AS bytes FROM dgr_scope WHERE free_icount IS NULL "
	  "GROUP BY alloc_stack_id ORDER BY bytes "
	  "DESC LIMIT ?1", -1, -1 },
	{ "short-lived", "Short-lived allocations",
	  "Temporary blocks, as heaptrack counts them: freed before the next "
	  "allocation, by allocation site, with their mean lifetime in "
	  "instructions.",
	  "WITH b AS (SELECT id, size, alloc_stack_id, alloc_icount, "
	  "free_icount, lead(alloc_icount) OVER (ORDER BY alloc_icount, id) "
	  "AS nxt FROM dgr_scope) "
	  "SELECT " SITE("alloc_stack_id") " AS site, count(*) AS blocks, "
	  "sum(size) AS bytes, round(avg(free_icount - alloc_icount), 1) AS "
	  "mean_lifetime FROM b WHERE free_icount IS NOT NULL AND (nxt IS "
	  "NULL OR nxt > free_icount) GROUP BY alloc_stack_id ORDER BY blocks "
	  "DESC, bytes DESC LIMIT ?1", -1, -1 },
	{ "useless", "Useless allocations",
	  "Blocks never read (DHAT's useless allocations): never accessed, or "
	  "written but never read, by allocation site.",
	  "SELECT " SITE("b.alloc_stack_id") " AS site, CASE WHEN b.writes = 0 "
	  "THEN 'never accessed' ELSE 'written, never read' END AS kind, "
	  "count(*) AS blocks, sum(b.size) AS bytes FROM dgr_scope b WHERE "
	  "b.reads = 0 GROUP BY "
	  "b.alloc_stack_id, kind ORDER BY bytes DESC LIMIT ?1", -1, -1 },
};

static int sec_lifetimes(struct rep *r)
{
	return top_sections(r, lifetimes, sizeof lifetimes / sizeof lifetimes[0]);
}

/* ---------------------------------------------------------- events */

/* The reads and writes of an interval: stored, or counted in
   filtered_accesses under a filter. */
#define COUNTED(dir, lo, hi, extra) \
	"CASE WHEN dg_filtered() THEN (SELECT coalesce(sum(a.is_write = " dir \
	"), 0) FROM filtered_accesses a WHERE a.icount >= " lo " AND " \
	"(" hi " IS NULL OR a.icount < " hi ")" extra ") ELSE "

static const struct labelled {
	const char *table, *kind, *what;
	const char *labels_sql, *rows_sql;
} labelled[] = {
	{ "events", "event", "User event",
	  "SELECT label, count(*) FROM events GROUP BY label ORDER BY "
	  "min(start_icount) LIMIT " "30",
	  "SELECT id AS event, thread, start_icount, end_icount, "
	  "end_icount - start_icount AS instructions, "
	  COUNTED("0", "e.start_icount", "e.end_icount", "") "e.reads END AS reads, "
	  COUNTED("1", "e.start_icount", "e.end_icount", "") "e.writes END AS writes "
	  "FROM events e WHERE label IS ?1 ORDER BY start_icount LIMIT 20" },
	{ "ranges", "range", "Tracked range",
	  "SELECT label, count(*) FROM ranges GROUP BY label ORDER BY "
	  "min(start_icount) LIMIT " "30",
	  "SELECT id AS range, dg_hex(addr) AS addr, len, type_name, thread, "
	  "start_icount, end_icount, "
	  COUNTED("0", "e.start_icount", "e.end_icount",
		  " AND a.addr >= e.addr AND a.addr < e.addr + e.len")
	  "e.reads END AS reads, "
	  COUNTED("1", "e.start_icount", "e.end_icount",
		  " AND a.addr >= e.addr AND a.addr < e.addr + e.len")
	  "e.writes END AS writes "
	  "FROM ranges e WHERE label IS ?1 ORDER BY start_icount LIMIT 20" },
};

static int label_section(struct rep *r, const struct labelled *l, int k,
			 const char *label, int64_t count)
{
	char id[48], *title;
	sqlite3_stmt *st;
	struct rtable *t;
	int rc;

	snprintf(id, sizeof id, "%s-%d", l->kind, k);
	title = sqlite3_mprintf("%s: %s", l->what, label ? label : "(no label)");
	rc = title ? section(r, id, title) : -1;
	sqlite3_free(title);
	if (rc < 0 || para(r, "%lld interval(s)%s.", (long long)count,
			   count > MAX_INTERVALS ? "; the first 20 listed" : "")
	    < 0)
		return -1;
	if (sqlite3_prepare_v2(r->db, l->rows_sql, -1, &st, NULL) != SQLITE_OK)
		return fail_db(r, id);
	if (label)
		sqlite3_bind_text(st, 1, label, -1, SQLITE_TRANSIENT);
	t = rdoc_grab(id, st, r->err);
	sqlite3_finalize(st);
	if (!t)
		return -1;
	if (rdoc_add_table(r->doc, t) < 0) {
		rdoc_table_free(t);
		return -1;
	}
	return 0;
}

static int sec_labelled(struct rep *r, const struct labelled *l)
{
	sqlite3_stmt *st;
	int k = 0, rc = SQLITE_ROW;

	if (sqlite3_prepare_v2(r->db, l->labels_sql, -1, &st, NULL) != SQLITE_OK)
		return fail_db(r, l->table);
	while (k < MAX_LABELS && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *label = (const char *)sqlite3_column_text(st, 0);
		char *copy = label ? strdup(label) : NULL;

		rc = label_section(r, l, ++k, copy, sqlite3_column_int64(st, 1));
		free(copy);
		if (rc < 0)
			break;
	}
	sqlite3_finalize(st);
	return rc < 0 ? -1 : 0;
}

static int sec_events(struct rep *r)
{
	return sec_labelled(r, &labelled[0]);
}

static int sec_ranges(struct rep *r)
{
	return sec_labelled(r, &labelled[1]);
}

/* ---------------------------------------------------------- driving */

static int (*const sections[])(struct rep *) = {
	sec_header, sec_addr_time, sec_tops, sec_working_set, sec_histograms,
	sec_flame, sec_heap, sec_lifetimes, sec_events, sec_ranges,
};

/* DIR without trailing slashes, checked for what gnuplot must be given
   unchanged; NULL with *err. */
static char *clean_dir(const char *dir, char **err)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (!n || dgesc_len(dir, n, 0) != n || memchr(dir, '\'', n)) {
		*err = sqlite3_mprintf("--report '%s': a directory name with "
			"control characters, quotes, backslashes or invalid "
			"UTF-8 cannot be given to gnuplot", dir);
		return NULL;
	}
	return strndup(dir, n);
}

static int build(struct rep *r)
{
	size_t i;

	if (register_range(r) < 0 || make_sources(r) < 0)
		return -1;
	if (!r->o->no_charts && !(r->charts = rchart_batch_new(r->dir, r->err)))
		return -1;
	for (i = 0; i < sizeof sections / sizeof sections[0]; i++)
		if (sections[i](r) < 0)
			return -1;
	if (r->charts && rchart_batch_run(r->charts, r->err) < 0)
		return -1;
	return rdoc_write(r->doc, r->dir, r->err);
}

int report_write(sqlite3 *db, const struct report_opts *o, char **err)
{
	struct rep r = { .db = db, .o = o, .err = err };
	char *dir = clean_dir(o->dir, err);
	mode_t old_mask;
	int rc = -1;

	if (!dir)
		return -1;
	old_mask = umask(077);  /* gnuplot's images too: 0600 */
	r.dir = sqlite3_mprintf("%s.tmp-XXXXXX", dir);
	r.doc = rdoc_new();
	if (!r.dir || !r.doc) {
		*err = sqlite3_mprintf("out of memory");
	} else if (!mkdtemp(r.dir)) {
		*err = sqlite3_mprintf("--report %s: cannot create a directory "
				       "beside it: %s", dir, strerror(errno));
	} else {
		r.icount = one_int(&r, "SELECT " META("icount"), 0);
		rc = build(&r);
		rchart_batch_free(r.charts);
		if (rc == 0)
			rc = aside_swap_in(r.dir, dir, "--report", err);
		if (rc < 0)
			aside_remove(r.dir);
	}
	umask(old_mask);
	rdoc_free(r.doc);
	sqlite3_free(r.dir);
	free(dir);
	return rc;
}
