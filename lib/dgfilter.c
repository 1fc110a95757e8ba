/* dgfilter.c: the filter compiler (see dgfilter.h).
 *
 * Layout of what dgfilter_install builds in the temp schema:
 *   dgf_ev_pcs(pc, module_id) code addresses matching --events fn/file/dso
 *                             (a pc names code only with its module, as in
 *                             pcs: every join below is on both)
 *   dgf_ev_ctx(id, whole)     contexts with a matching caller frame
 *                             (whole = 1: all their accesses match) or a
 *                             matching access pc in their bbdef (whole = 0)
 *   dgf_ev_iv(lo, hi)         merged icount intervals of --events user:
 *   dgf_rg_pcs(pc, module_id) code addresses matching --ranges fn/file/dso
 *   dgf_rg_blk(id)            heap blocks allocated from such a stack
 *   dgf_rg_box(lo, hi, t0, t1)  tracked ranges of --ranges range / user:
 *   dgf_cls(id)               access classes whose modules a dso: filter
 *                             matches (sum_class_modules)
 *   filtered_accesses         the view
 *   filtered_sum, filtered_span, filtered_windows, filtered_lines,
 *   filtered_pages            the same from the summaries (dgfilter.h)
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "dgfilter.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dgsqlfn.h"
#include "dgmem.h"
#include "dgstacks.h"

#define MAX_CONDS 64
#define FOREVER "9223372036854775807"

enum kind { K_FN, K_FILE, K_DSO, K_USER, K_RANGE, K_MALLOC, K_FIELD };

struct cond {
	enum kind kind;
	char *arg;              /* NULL for range, malloc */
};

struct side {
	struct cond c[MAX_CONDS];
	int n;
};

/* --icount-range / --addr-range: [lo, hi) when on. */
struct zoom {
	int on;
	int64_t lo, hi;
};

struct dgfilter {
	struct side ev, rg;
	struct zoom ic, ad;
};

static int zoomed(const struct dgfilter *f)
{
	return f && (f->ic.on || f->ad.on);
}

/* The condition kinds; for completion, the word a user types and the SQL
   listing the values the open trace has (base: a path's base name too). */
static const struct {
	const char *name, *word;
	enum kind kind;
	int has_arg, events_ok;
	const char *names_sql;
	int base;
} kinds[] = {
	{ "fn", "fn:", K_FN, 1, 1, "SELECT DISTINCT dg_fn_base(name) FROM functions", 0 },
	{ "file", "file:", K_FILE, 1, 1, "SELECT DISTINCT file FROM functions "
	  "UNION SELECT DISTINCT file FROM pc_inlines", 1 },
	{ "dso", "dso:", K_DSO, 1, 1, "SELECT path FROM modules", 1 },
	{ "user", "user:", K_USER, 1, 1, "SELECT label FROM events UNION SELECT label FROM ranges", 0 },
	{ "range", "range", K_RANGE, 0, 0, NULL, 0 },
	{ "malloc", "malloc", K_MALLOC, 0, 0, NULL, 0 },
	{ "field", "field:", K_FIELD, 1, 0, "SELECT DISTINCT t.name || '.' || f.path FROM fields f"
	  " JOIN types t ON t.id = f.type_id WHERE f.path <> ''", 0 },
};
#define N_KINDS (sizeof kinds / sizeof kinds[0])

const char *dgfilter_word(size_t i, int events)
{
	size_t k;

	for (k = 0; k < N_KINDS; k++)
		if ((kinds[k].events_ok || !events) && i-- == 0)
			return kinds[k].word;
	return NULL;
}

const char *dgfilter_names_sql(const char *text, size_t *word_len, int *base)
{
	size_t k;

	for (k = 0; k < N_KINDS; k++)
		if (kinds[k].names_sql && !strncmp(text, kinds[k].word, strlen(kinds[k].word))) {
			*word_len = strlen(kinds[k].word);
			*base = kinds[k].base;
			return kinds[k].names_sql;
		}
	return NULL;
}

/* ---------------------------------------------------------- parsing */

/* Length of the next condition: up to a comma outside <> and (). */
static size_t cond_len(const char *s)
{
	int depth = 0;
	size_t i;

	for (i = 0; s[i]; i++) {
		if (s[i] == '<' || s[i] == '(')
			depth++;
		else if ((s[i] == '>' || s[i] == ')') && depth > 0)
			depth--;
		else if (s[i] == ',' && depth == 0)
			break;
	}
	return i;
}

static int parse_cond(const char *s, size_t len, int events, struct cond *c,
		      char **err)
{
	const char *opt = events ? "--events" : "--ranges";
	size_t i, nl;

	while (len && (*s == ' ' || *s == '\t'))
		s++, len--;
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	nl = strcspn(s, ":");
	if (nl > len)
		nl = len;
	for (i = 0; i < N_KINDS; i++)
		if (strlen(kinds[i].name) == nl && !strncmp(s, kinds[i].name, nl))
			break;
	if (len == 0)
		*err = sqlite3_mprintf("%s: empty condition", opt);
	else if (i == N_KINDS)
		*err = sqlite3_mprintf("%s: unknown condition '%.*s' (fn:, "
			"file:, dso:, user:%s)", opt, (int)len, s,
			events ? "" : ", range, malloc, field:");
	else if (!kinds[i].events_ok && events)
		*err = sqlite3_mprintf("--events: '%s' is a --ranges "
				       "condition", kinds[i].name);
	else if (kinds[i].has_arg && (nl == len || nl + 1 == len))
		*err = sqlite3_mprintf("%s: '%.*s' needs a value after ':'",
				       opt, (int)len, s);
	else if (!kinds[i].has_arg && nl != len)
		*err = sqlite3_mprintf("%s: '%s' takes no value", opt,
				       kinds[i].name);
	else if (kinds[i].kind == K_FIELD && !memchr(s + nl + 1, '.', len - nl - 1))
		*err = sqlite3_mprintf("--ranges: '%.*s': field: wants TYPE.PATH "
				       "(field:struct item.hdr.len)", (int)len, s);
	else {
		c->kind = kinds[i].kind;
		c->arg = kinds[i].has_arg ? strndup(s + nl + 1, len - nl - 1)
					  : NULL;
		return 0;
	}
	return -1;
}

static int parse_side(const char *list, int events, struct side *sd,
		      char **err)
{
	const char *s = list;

	while (list && *list) {
		size_t len = cond_len(s);

		if (sd->n == MAX_CONDS) {
			*err = sqlite3_mprintf("more than %d conditions",
					       MAX_CONDS);
			return -1;
		}
		if (parse_cond(s, len, events, &sd->c[sd->n], err) < 0)
			return -1;
		sd->n++;
		if (!s[len])
			break;
		s += len + 1;
	}
	return 0;
}

void dgfilter_free(struct dgfilter *f)
{
	int i;

	if (!f)
		return;
	for (i = 0; i < f->ev.n; i++)
		free(f->ev.c[i].arg);
	for (i = 0; i < f->rg.n; i++)
		free(f->rg.c[i].arg);
	free(f);
}

void dgfilter_zoom(struct dgfilter *f, int is_addr, int64_t lo, int64_t hi)
{
	struct zoom *z = is_addr ? &f->ad : &f->ic;

	z->on = 1;
	z->lo = lo;
	z->hi = hi;
}

int dgfilter_parse(const char *events, const char *ranges,
		   struct dgfilter **out, char **err)
{
	struct dgfilter *f = calloc(1, sizeof *f);

	*out = NULL;
	if (!f) {
		*err = sqlite3_mprintf("out of memory");
		return -1;
	}
	if (parse_side(events, 1, &f->ev, err) < 0 ||
	    parse_side(ranges, 0, &f->rg, err) < 0) {
		dgfilter_free(f);
		return -1;
	}
	*out = f;
	return 0;
}

/* ---------------------------------------------------------- SQL helpers */

/* Runs every statement of SQL, binding ARG (if any) to ?1 of each. */
static int exec(sqlite3 *db, const char *sql, const char *arg, char **err)
{
	while (sql && *sql) {
		sqlite3_stmt *st = NULL;
		int rc;

		if (sqlite3_prepare_v2(db, sql, -1, &st, &sql) != SQLITE_OK) {
			*err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
			return -1;
		}
		if (!st)
			continue;
		if (arg && sqlite3_bind_parameter_count(st) > 0)
			sqlite3_bind_text(st, 1, arg, -1, SQLITE_STATIC);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			;
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE) {
			*err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
			return -1;
		}
	}
	return 0;
}

/* The SQL selecting the code addresses (pc, module_id) that a
   fn/file/dso condition (?1) matches. */
static const char *pcs_sql(enum kind k)
{
	switch (k) {
	case K_FN:
		return "WITH f AS (SELECT id FROM functions WHERE "
			"dg_match_fn(name, ?1) OR linkage_name = ?1) "
			"SELECT pc, module_id FROM pc_inlines WHERE function_id "
			"IN f UNION SELECT pc, module_id FROM pcs WHERE "
			"function_id IN f";
	case K_FILE:
		return "WITH f AS (SELECT id FROM functions WHERE "
			"dg_match_path(file, ?1)) "
			"SELECT pc, module_id FROM pc_inlines WHERE function_id "
			"IN f OR dg_match_path(file, ?1) UNION SELECT pc, "
			"module_id FROM pcs WHERE function_id IN f OR "
			"dg_match_path(file, ?1)";
	default:
		return "WITH m AS (SELECT id, lo, hi FROM modules WHERE "
			"dg_match_path(path, ?1)) "
			"SELECT pc, module_id FROM pcs WHERE module_id IN "
			"(SELECT id FROM m) UNION SELECT p.pc, p.module_id FROM "
			"pcs p, m WHERE p.module_id = 0 AND p.pc >= m.lo AND "
			"p.pc < m.hi";
	}
}

static const char *kind_name(enum kind k)
{
	size_t i;

	for (i = 0; i < N_KINDS; i++)
		if (kinds[i].kind == k)
			return kinds[i].name;
	return "?";
}

/* Fills TABLE(pc, module_id) with the code addresses of every stack
   condition of sd.  Returns the number of stack conditions, or -1. */
static int fill_pcs(sqlite3 *db, const struct side *sd, const char *table,
		    char **err)
{
	int i, n = 0;

	for (i = 0; i < sd->n; i++) {
		const struct cond *c = &sd->c[i];
		char *sql;
		int64_t before, after;

		if (c->kind != K_FN && c->kind != K_FILE && c->kind != K_DSO)
			continue;
		if (n++ == 0) {
			sql = sqlite3_mprintf("CREATE TEMP TABLE %s(pc INTEGER, "
					      "module_id INTEGER, PRIMARY KEY "
					      "(pc, module_id)) WITHOUT ROWID",
					      table);
			if (exec(db, sql, NULL, err) < 0) {
				sqlite3_free(sql);
				return -1;
			}
			sqlite3_free(sql);
		}
		sql = sqlite3_mprintf("SELECT count(*) FROM temp.%s", table);
		before = dgsqlfn_int(db, sql);
		sqlite3_free(sql);
		sql = sqlite3_mprintf("INSERT OR IGNORE INTO temp.%s %s", table,
				      pcs_sql(c->kind));
		if (exec(db, sql, c->arg, err) < 0) {
			sqlite3_free(sql);
			return -1;
		}
		sqlite3_free(sql);
		sql = sqlite3_mprintf("SELECT count(*) FROM temp.%s", table);
		after = dgsqlfn_int(db, sql);
		sqlite3_free(sql);
		if (after == before && dgsqlfn_int(db, "SELECT 1 FROM pcs LIMIT 1")
		    == 1) {
			*err = sqlite3_mprintf("%s: no code matches '%s:%s'",
				table[4] == 'e' ? "--events" : "--ranges",
				kind_name(c->kind), c->arg);
			return -1;
		}
	}
	return n;
}

/* fmt with %s the SELECT of the stacks with a frame of table pcs at
   min_depth or deeper (dgstacks.h), run as exec does. */
static int exec_stacks(sqlite3 *db, const char *fmt, const char *pcs,
		       int min_depth, const char *table, char **err)
{
	char *stacks = dgstacks_with_frame_sql(db, pcs, min_depth, table, err);
	char *sql = stacks ? sqlite3_mprintf(fmt, stacks) : NULL;
	int rc = sql ? exec(db, sql, NULL, err) : -1;

	if (stacks && !sql)
		*err = sqlite3_mprintf("out of memory");
	sqlite3_free(stacks);
	sqlite3_free(sql);
	return rc;
}

static int label_match(const char *label, const char *pat)
{
	return label && (dgsqlfn_is_glob(pat) ? sqlite3_strglob(pat, label) == 0
					       : strcmp(label, pat) == 0);
}

/* ---------------------------------------------------------- --events */

struct where {
	sqlite3_str *expr;      /* the exact condition */
	sqlite3_str *bounds;    /* redundant top-level pushdown terms */
};

static int ev_stack(sqlite3 *db, const struct dgfilter *f, sqlite3_str *e,
		    char **err)
{
	int n = fill_pcs(db, &f->ev, "dgf_ev_pcs", err);

	if (n <= 0)
		return n;
	if (exec(db, "CREATE TEMP TABLE dgf_ev_ctx(id INTEGER PRIMARY KEY, "
		 "whole INTEGER NOT NULL)", NULL, err) < 0 ||
	    /* contexts with a caller frame there */
	    exec_stacks(db, "INSERT OR IGNORE INTO temp.dgf_ev_ctx SELECT c.id, "
			"1 FROM contexts c WHERE c.stack_id IN (%s)",
			"temp.dgf_ev_pcs", 1, "dgf_ev_stk", err) < 0 ||
	    exec(db, "INSERT OR IGNORE INTO temp.dgf_ev_ctx SELECT c.id, 0 "
		 "FROM contexts c WHERE c.bbdef_id IN (SELECT bbdef_id FROM "
		 "access_descs WHERE (pc, module_id) IN (SELECT pc, module_id "
		 "FROM temp.dgf_ev_pcs))",
		 NULL, err) < 0)
		return -1;
	sqlite3_str_appendall(e, "(context_id IN (SELECT id FROM "
		"temp.dgf_ev_ctx WHERE whole) OR (pc, module_id) IN (SELECT pc, "
		"module_id FROM temp.dgf_ev_pcs))");
	return 1;
}

struct interval {
	int64_t lo, hi;
};

static int cmp_iv(const void *a, const void *b)
{
	const struct interval *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Merged intervals of the events whose label matches a user: condition. */
static int ev_intervals(sqlite3 *db, const struct side *sd,
			struct interval **out, int *nout, char **err)
{
	sqlite3_stmt *st;
	struct interval *iv = NULL;
	int n = 0, cap = 0, i, m = 0;

	if (sqlite3_prepare_v2(db, "SELECT label, start_icount, "
			       "coalesce(end_icount, " FOREVER ") FROM events",
			       -1, &st, NULL) != SQLITE_OK) {
		*err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
		return -1;
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *label = (const char *)sqlite3_column_text(st, 0);

		for (i = 0; i < sd->n; i++)
			if (sd->c[i].kind == K_USER &&
			    label_match(label, sd->c[i].arg))
				break;
		if (i == sd->n)
			continue;
		if (n == cap) {
			struct interval *more;

			cap = cap ? 2 * cap : 64;
			more = realloc(iv, cap * sizeof *iv);
			if (!more) {
				free(iv);
				sqlite3_finalize(st);
				*err = sqlite3_mprintf("out of memory");
				return -1;
			}
			iv = more;
		}
		iv[n].lo = sqlite3_column_int64(st, 1);
		iv[n++].hi = sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	dg_sort(iv, n, sizeof *iv, cmp_iv);
	for (i = 0; i < n; i++) {
		if (m && iv[i].lo <= iv[m - 1].hi) {
			if (iv[i].hi > iv[m - 1].hi)
				iv[m - 1].hi = iv[i].hi;
		} else
			iv[m++] = iv[i];
	}
	*out = iv;
	*nout = m;
	return 0;
}

static int ev_user(sqlite3 *db, const struct dgfilter *f, struct where *w,
		   int alone, char **err)
{
	struct interval *iv = NULL;
	int i, n;
	char *sql;

	for (i = 0; i < f->ev.n && f->ev.c[i].kind != K_USER; i++)
		;
	if (i == f->ev.n)
		return 0;
	if (ev_intervals(db, &f->ev, &iv, &n, err) < 0 ||
	    exec(db, "CREATE TEMP TABLE dgf_ev_iv(lo INTEGER PRIMARY KEY, "
		 "hi INTEGER NOT NULL)", NULL, err) < 0) {
		free(iv);
		return -1;
	}
	for (i = 0; i < n; i++) {
		sql = sqlite3_mprintf("INSERT INTO temp.dgf_ev_iv VALUES "
				      "(%lld, %lld)", (long long)iv[i].lo,
				      (long long)iv[i].hi);
		if (exec(db, sql, NULL, err) < 0) {
			sqlite3_free(sql);
			free(iv);
			return -1;
		}
		sqlite3_free(sql);
	}
	sqlite3_str_appendall(w->expr, DGFILTER_USER_COND);
	if (alone && n)
		sqlite3_str_appendf(w->bounds, " AND icount >= %lld AND "
				    "icount < %lld", (long long)iv[0].lo,
				    (long long)iv[n - 1].hi);
	else if (alone)         /* no event matches: no chunk to decode */
		sqlite3_str_appendall(w->bounds, " AND 0");
	free(iv);
	return 1;
}

static int build_events(sqlite3 *db, const struct dgfilter *f,
			struct where *w, char **err)
{
	sqlite3_str *stack = sqlite3_str_new(db);
	int ns, nu;

	ns = ev_stack(db, f, stack, err);
	if (ns < 0) {
		sqlite3_free(sqlite3_str_finish(stack));
		return -1;
	}
	if (ns && ns == f->ev.n) {
		/* only stack conditions: the virtual table evaluates them in
		   C from dgf_ev_ctx and dgf_ev_pcs (dgvtab.h) */
		sqlite3_free(sqlite3_str_finish(stack));
		sqlite3_str_appendall(w->expr, "stack_filter = '" DGFILTER_STACK_SET "'");
		return 0;
	}
	if (ns)
		sqlite3_str_appendf(w->expr, "(%s", sqlite3_str_value(stack));
	else
		sqlite3_str_appendall(w->expr, "(0");
	sqlite3_free(sqlite3_str_finish(stack));
	sqlite3_str_appendall(w->expr, " OR ");
	nu = ev_user(db, f, w, ns == 0, err);
	if (nu < 0)
		return -1;
	sqlite3_str_appendall(w->expr, nu ? ")" : "0)");
	return 0;
}

/* ---------------------------------------------------------- --ranges */

static int rg_boxes(sqlite3 *db, const struct dgfilter *f, struct where *w,
		    int alone, char **err)
{
	sqlite3_stmt *st;
	int i, any = 0, rc;

	for (i = 0; i < f->rg.n; i++)
		any |= f->rg.c[i].kind == K_RANGE || f->rg.c[i].kind == K_USER;
	if (!any)
		return 0;
	if (exec(db, "CREATE TEMP TABLE dgf_rg_box(lo INTEGER, hi INTEGER, "
		 "t0 INTEGER, t1 INTEGER)", NULL, err) < 0 ||
	    exec(db, "CREATE INDEX temp.dgf_rg_box_lo ON dgf_rg_box(lo)",
		 NULL, err) < 0 ||
	    sqlite3_prepare_v2(db, "SELECT label, addr, addr + len, "
			       "start_icount, coalesce(end_icount, " FOREVER
			       ") FROM ranges", -1, &st, NULL) != SQLITE_OK) {
		if (!*err)
			*err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *label = (const char *)sqlite3_column_text(st, 0);
		char *sql;

		for (i = 0; i < f->rg.n; i++)
			if (f->rg.c[i].kind == K_RANGE ||
			    (f->rg.c[i].kind == K_USER &&
			     label_match(label, f->rg.c[i].arg)))
				break;
		if (i == f->rg.n)
			continue;
		sql = sqlite3_mprintf("INSERT INTO temp.dgf_rg_box VALUES "
			"(%lld, %lld, %lld, %lld)",
			sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2),
			sqlite3_column_int64(st, 3), sqlite3_column_int64(st, 4));
		rc = exec(db, sql, NULL, err);
		sqlite3_free(sql);
		if (rc < 0)
			break;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return -1;
	sqlite3_str_appendall(w->expr, " OR EXISTS (SELECT 1 FROM "
		"temp.dgf_rg_box b WHERE b.lo <= addr AND addr < b.hi AND "
		"b.t0 <= icount AND icount < b.t1)");
	if (alone && dgsqlfn_int(db, "SELECT count(*) FROM temp.dgf_rg_box") == 0)
		sqlite3_str_appendall(w->bounds, " AND 0");
	else if (alone) {
		sqlite3_str_appendf(w->bounds, " AND addr >= %lld AND addr < "
			"%lld", dgsqlfn_int(db, "SELECT min(lo) FROM temp.dgf_rg_box"),
			dgsqlfn_int(db, "SELECT max(hi) FROM temp.dgf_rg_box"));
		sqlite3_str_appendf(w->bounds, " AND icount >= %lld AND "
			"icount < %lld",
			dgsqlfn_int(db, "SELECT min(t0) FROM temp.dgf_rg_box"),
			dgsqlfn_int(db, "SELECT max(t1) FROM temp.dgf_rg_box"));
	}
	return 1;
}

/* field:TYPE.PATH: the places where TYPE lies, from the typed tracked
   ranges and the variables (the types' and fields' tables, schema 6),
   with the field's offsets in them; an access matches when its offset
   modulo the type's size falls in the field (in a folded array: in the
   array, and modulo the element size in the field).  TYPE and PATH are
   bound, never pasted; PATH may be a glob. */
#define FIELD_MATCH(b, addr, icount) \
	b ".lo <= " addr " AND " addr " < " b ".hi AND " b ".t0 <= " icount " AND " \
	icount " < " b ".t1 AND (" addr " - " b ".lo) % " b ".size >= " b ".off AND (" \
	addr " - " b ".lo) % " b ".size < " b ".aend AND ((" addr " - " b ".lo) % " \
	b ".size - " b ".off) % coalesce(nullif(" b ".stride, 0), " b ".size) < " b ".fsize"
#define FIELD_PLACES(src, lo, len, t0, t1) \
	"INSERT INTO temp.dgf_rg_fld SELECT " lo ", " lo " + " len ", " t0 ", " t1 \
	", t.size, f.offset, f.size, coalesce(f.stride, 0), " \
	"coalesce(f.array_end, f.offset + f.size), f.id FROM " src " JOIN types t ON " \
	"t.id = x.type_id JOIN fields f ON f.type_id = t.id, (SELECT " \
	"substr(?1, 1, instr(?1, '.') - 1) AS ty, substr(?1, instr(?1, '.') + 1) AS pa) " \
	"WHERE (t.name = ty OR t.name IN ('struct ' || ty, 'union ' || ty, " \
	"'class ' || ty)) AND (f.path = pa OR f.path GLOB pa);"

static int rg_fields(sqlite3 *db, const struct dgfilter *f, struct where *w, char **err)
{
	int i, any = 0;

	for (i = 0; i < f->rg.n; i++)
		any |= f->rg.c[i].kind == K_FIELD;
	if (!any)
		return 0;
	if (dgsqlfn_int(db, "SELECT count(*) FROM sqlite_schema WHERE name IN "
			"('types', 'fields', 'variables')") != 3) {
		*err = sqlite3_mprintf("--ranges: field: this database has no "
				       "fields (imported by an older dg-import)");
		return -1;
	}
	if (exec(db, "CREATE TEMP TABLE dgf_rg_fld(lo, hi, t0, t1, size, off, "
		 "fsize, stride, aend, fid)", NULL, err) < 0)
		return -1;
	for (i = 0; i < f->rg.n; i++)
		if (f->rg.c[i].kind == K_FIELD &&
		    exec(db, FIELD_PLACES("ranges x", "x.addr", "x.len", "x.start_icount",
					  "coalesce(x.end_icount, " FOREVER ")")
			 FIELD_PLACES("variables x", "x.addr", "x.size", "0", FOREVER),
			 f->rg.c[i].arg, err) < 0)
			return -1;
	sqlite3_str_appendall(w->expr, " OR EXISTS (SELECT 1 FROM temp.dgf_rg_fld b "
		"WHERE " FIELD_MATCH("b", "addr", "icount") ")");
	return 1;
}

static int build_ranges(sqlite3 *db, const struct dgfilter *f,
			struct where *w, char **err)
{
	int i, nstack, nbox, nmalloc = 0, nfield = 0;

	for (i = 0; i < f->rg.n; i++) {
		nmalloc += f->rg.c[i].kind == K_MALLOC;
		nfield += f->rg.c[i].kind == K_FIELD;
	}
	nstack = fill_pcs(db, &f->rg, "dgf_rg_pcs", err);
	if (nstack < 0)
		return -1;
	sqlite3_str_appendall(w->expr, " AND (0");
	if (nmalloc)
		sqlite3_str_appendall(w->expr, " OR block_id IS NOT NULL");
	if (nstack) {
		/* blocks allocated with a frame there */
		if (exec_stacks(db, "CREATE TEMP TABLE dgf_rg_blk(id INTEGER "
				"PRIMARY KEY); INSERT INTO temp.dgf_rg_blk SELECT "
				"id FROM blocks WHERE alloc_stack_id IN (%s)",
				"temp.dgf_rg_pcs", 0, "dgf_rg_stk", err) < 0)
			return -1;
		sqlite3_str_appendall(w->expr, " OR block_id IN (SELECT id "
				      "FROM temp.dgf_rg_blk)");
	}
	nbox = rg_boxes(db, f, w, nstack + nmalloc + nfield == 0, err);
	if (nbox < 0 || rg_fields(db, f, w, err) < 0)
		return -1;
	sqlite3_str_appendall(w->expr, ")");
	return 0;
}

/* ---------------------------------------------------------- install */

static const char *const temp_tables[] = {
	"dgf_ev_pcs", "dgf_ev_stk", "dgf_ev_ctx", "dgf_ev_iv", "dgf_rg_pcs",
	"dgf_rg_stk", "dgf_rg_blk", "dgf_rg_box", "dgf_rg_fld", "dgf_cls"
};

static int drop_all(sqlite3 *db, char **err)
{
	size_t i;

	if (exec(db, "DROP VIEW IF EXISTS temp.filtered_fields; "
		 "DROP VIEW IF EXISTS temp.filtered_accesses; "
		 "DROP VIEW IF EXISTS temp.filtered_sum; "
		 "DROP VIEW IF EXISTS temp.filtered_sum_rows; "
		 "DROP VIEW IF EXISTS temp.filtered_ctx; "
		 "DROP VIEW IF EXISTS temp.filtered_span; "
		 "DROP VIEW IF EXISTS temp.filtered_windows; "
		 "DROP VIEW IF EXISTS temp.filtered_lines; "
		 "DROP VIEW IF EXISTS temp.filtered_pages", NULL, err) < 0)
		return -1;
	for (i = 0; i < sizeof temp_tables / sizeof temp_tables[0]; i++) {
		char *sql = sqlite3_mprintf("DROP TABLE IF EXISTS temp.%s",
					    temp_tables[i]);
		int rc = exec(db, sql, NULL, err);

		sqlite3_free(sql);
		if (rc < 0)
			return -1;
	}
	return 0;
}

static int build(sqlite3 *db, const struct dgfilter *f, char **err)
{
	struct where w = { sqlite3_str_new(db), sqlite3_str_new(db) };
	char *expr, *bounds, *sql;
	int rc = -1;

	sqlite3_str_appendall(w.expr, "1");
	if (f && f->ev.n) {
		sqlite3_str_appendall(w.expr, " AND ");
		if (build_events(db, f, &w, err) < 0)
			goto out;
	}
	if (f && f->rg.n && build_ranges(db, f, &w, err) < 0)
		goto out;
	if (f && f->ic.on)
		sqlite3_str_appendf(w.expr, " AND icount >= %lld AND icount < %lld",
				    (long long)f->ic.lo, (long long)f->ic.hi);
	if (f && f->ad.on)
		sqlite3_str_appendf(w.expr, " AND addr >= %lld AND addr < %lld",
				    (long long)f->ad.lo, (long long)f->ad.hi);
	rc = 0;
out:
	expr = sqlite3_str_finish(w.expr);
	bounds = sqlite3_str_finish(w.bounds);
	if (rc == 0) {
		sql = sqlite3_mprintf("CREATE TEMP VIEW filtered_accesses AS "
			"SELECT * FROM accesses WHERE %s%s", expr,
			bounds ? bounds : "");
		rc = exec(db, sql, NULL, err);
		sqlite3_free(sql);
	}
	if (rc == 0 && dgsqlfn_int(db, "SELECT count(*) FROM sqlite_temp_schema "
				   "WHERE name = 'dgf_rg_fld'") == 1)
		rc = exec(db, "CREATE TEMP VIEW filtered_fields AS SELECT * FROM "
			  "(SELECT a.*, (SELECT min(b.fid) FROM temp.dgf_rg_fld b WHERE "
			  FIELD_MATCH("b", "a.addr", "a.icount") ") AS field_id FROM "
			  "filtered_accesses a) WHERE field_id IS NOT NULL", NULL, err);
	sqlite3_free(expr);
	sqlite3_free(bounds);
	return rc;
}

/* ---------------------------------------------------------- filtered_sum */

/* Where the counts of filtered_accesses come from without decoding. */
enum sum_src {
	SUM_NONE,       /* nowhere: filtered_sum is empty */
	SUM_CTX,        /* sum_ctx: no filter, or only call-stack conditions
	                   in --events (a set of contexts, and pcs inside
	                   some of them) */
	SUM_HEAP        /* sum_heap: only `malloc` in --ranges */
};

static int has_tables(sqlite3 *db, const char *a, const char *b)
{
	char *sql = sqlite3_mprintf("SELECT count(*) FROM sqlite_schema WHERE "
				    "name IN (%Q, %Q)", a, b);
	int n = sql ? (int)dgsqlfn_int(db, sql) : 0;

	sqlite3_free(sql);
	return n == 2;
}

/* 1 when s has conditions, all of kind k. */
static int only_kind(const struct side *s, enum kind k)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (s->c[i].kind != k)
			return 0;
	return s->n > 0;
}

static enum sum_src summed(sqlite3 *db, const struct dgfilter *f)
{
	int i;

	if (zoomed(f))
		return SUM_NONE;
	if (f && !f->ev.n && only_kind(&f->rg, K_MALLOC))
		return has_tables(db, "sum_heap", "sum_heap_threads") ? SUM_HEAP : SUM_NONE;
	if (!has_tables(db, "sum_ctx", "sum_ctx_miss"))
		return SUM_NONE;
	if (!f)
		return SUM_CTX;
	for (i = 0; i < f->ev.n; i++)
		if (f->ev.c[i].kind == K_USER)
			return SUM_NONE;
	return f->rg.n == 0 ? SUM_CTX : SUM_NONE;
}

/* The TEMP VIEWs filtered_sum(thread, pc, module_id, is_write, accesses,
   bytes): the counts of filtered_accesses by thread, code address (pc,
   module_id) and direction, from sum_ctx or sum_heap, empty when summed()
   says neither; filtered_sum_rows(thread, is_write, accesses), the same
   rows ungrouped; and filtered_ctx(context_id, accesses, bytes), by
   context, from sum_ctx only (empty otherwise).  One join of sum_ctx's
   rows with their contexts' descriptors, under the filter's condition,
   grouped two ways. */
static char *sum_sql(const struct dgfilter *f, enum sum_src src)
{
	static const char none_ctx[] = "CREATE TEMP VIEW filtered_ctx AS "
		"SELECT 0 AS context_id, 0 AS accesses, 0 AS bytes WHERE 0";
	int ctx = f && f->ev.n;
	const char *from = ctx ? "temp.dgf_ev_ctx x JOIN" : "";
	const char *where = ctx ? "WHERE s.context_id = x.id AND (x.whole OR "
		"(d.pc, d.module_id) IN (SELECT pc, module_id FROM "
		"temp.dgf_ev_pcs))" : "";

	if (src == SUM_NONE)
		return sqlite3_mprintf("CREATE TEMP VIEW filtered_sum AS SELECT "
		       "0 AS thread, 0 AS pc, 0 AS module_id, 0 AS is_write, "
		       "0 AS accesses, 0 AS bytes WHERE 0; "
		       "CREATE TEMP VIEW filtered_sum_rows AS SELECT 0 AS thread, "
		       "0 AS is_write, 0 AS accesses WHERE 0; %s", none_ctx);
	if (src == SUM_HEAP)
		return sqlite3_mprintf("CREATE TEMP VIEW filtered_sum AS SELECT "
		       "thread, pc, module_id, is_write, accesses, bytes FROM "
		       "sum_heap; CREATE TEMP VIEW filtered_sum_rows AS SELECT "
		       "thread, is_write, accesses FROM sum_heap; %s", none_ctx);
	/* with a filter, the condition of filtered_accesses on the rows */
#define ROWS "FROM %s sum_ctx s JOIN contexts c ON c.id = " \
	"s.context_id JOIN access_descs d ON d.bbdef_id = c.bbdef_id " \
	"LEFT JOIN sum_ctx_miss m ON m.context_id = s.context_id " \
	"AND m.thread = s.thread AND m.aseq = d.aseq %s"
#define SUM_ROWS(by) ROWS " GROUP BY " by
#define SUM_COUNTS "sum(s.runs - coalesce(m.missed, 0)) AS accesses, " \
	"sum((s.runs - coalesce(m.missed, 0)) * d.size) AS bytes "
	return sqlite3_mprintf("CREATE TEMP VIEW filtered_sum AS SELECT "
	       "s.thread, d.pc, d.module_id, d.is_write, " SUM_COUNTS
	       SUM_ROWS("s.thread, d.pc, d.module_id, d.is_write") "; "
	       "CREATE TEMP VIEW filtered_sum_rows AS SELECT s.thread AS thread, "
	       "d.is_write AS is_write, s.runs - coalesce(m.missed, 0) AS accesses "
	       ROWS "; "
	       "CREATE TEMP VIEW filtered_ctx AS SELECT s.context_id, "
	       SUM_COUNTS SUM_ROWS("s.context_id"), from, where, from, where,
	       from, where);
#undef ROWS
#undef SUM_ROWS
#undef SUM_COUNTS
}

/* The SQL that differs by the table listing a context's chunks: the
   first and last chunk of context x.id, and whether chunk ch.id holds
   runs of it. */
struct ctx_chunks_sql {
	const char *min, *max, *has;
};

static const struct ctx_chunks_sql ctx_chunks_sql[2] = {
	{ "(SELECT min(chunk_id) FROM chunk_contexts WHERE context_id = x.id)",
	  "(SELECT max(chunk_id) FROM chunk_contexts WHERE context_id = x.id)",
	  "EXISTS (SELECT 1 FROM chunk_contexts cc WHERE cc.context_id = x.id "
	  "AND cc.chunk_id = ch.id)" },
	{ "(SELECT min(chunk_lo) FROM context_chunks WHERE context_id = x.id)",
	  "(SELECT max(chunk_hi) FROM context_chunks WHERE context_id = x.id)",
	  "EXISTS (SELECT 1 FROM context_chunks cc WHERE cc.context_id = x.id "
	  "AND cc.chunk_lo <= ch.id AND cc.chunk_hi >= ch.id "
	  "AND dg_chunk_in(cc.chunk_lo, cc.chunk_hi, cc.data, ch.id))" },
};

/* The TEMP VIEW filtered_span(thread, first_icount, last_icount): the
   icounts of each thread's first and last access in filtered_accesses,
   when summed().  Without a filter and for `malloc` they are in the
   summaries.  With call-stack conditions, the first is looked for up to
   the thread's first chunk holding a context of the filter (found walking
   up from the first chunk of any of them), the last in the thread's
   last chunk holding a context of the filter (found walking down from the
   last chunk of any of them, which context_chunks gives in one seek a
   context; a chunk is tested with a seek per context of the filter, as
   the table is keyed by context first); each, when none of those chunks'
   accesses matched, then everywhere.  On schema 10 and older databases
   chunk_contexts answers the same.  The caller frees the SQL. */
static char *span_sql(sqlite3 *db, const struct dgfilter *f, enum sum_src src)
{
	const struct ctx_chunks_sql *c;

	if (src == SUM_NONE)
		return sqlite3_mprintf("CREATE TEMP VIEW filtered_span AS SELECT 0 AS thread, "
		       "0 AS first_icount, 0 AS last_icount WHERE 0");
	if (src == SUM_HEAP)
		return sqlite3_mprintf("CREATE TEMP VIEW filtered_span AS SELECT thread, "
		       "first_icount, last_icount FROM sum_heap_threads");
	if (!f || !f->ev.n)
		return sqlite3_mprintf("CREATE TEMP VIEW filtered_span AS SELECT id AS thread, "
		       "first_access_icount AS first_icount, last_access_icount "
		       "AS last_icount FROM threads");
	c = &ctx_chunks_sql[dgsqlfn_int(db, "SELECT count(*) FROM sqlite_schema WHERE "
					"type = 'table' AND name = 'context_chunks'") == 1];
	return sqlite3_mprintf("CREATE TEMP VIEW filtered_span AS "
	       "WITH top(id) AS (SELECT max(%s) FROM temp.dgf_ev_ctx x), "
	       "bottom(id) AS (SELECT min(%s) FROM temp.dgf_ev_ctx x) "
	       "SELECT t.id AS thread, "
	       "coalesce((SELECT icount FROM filtered_accesses WHERE thread = t.id "
	       "AND chunk_id <= (SELECT ch.id FROM chunks ch WHERE ch.thread = t.id "
	       "AND ch.id >= (SELECT id FROM bottom) AND EXISTS (SELECT 1 FROM "
	       "temp.dgf_ev_ctx x WHERE %s) ORDER BY ch.id "
	       "LIMIT 1) LIMIT 1), "
	       "(SELECT icount FROM filtered_accesses WHERE thread = t.id "
	       "LIMIT 1)) AS first_icount, "
	       "coalesce((SELECT max(icount) FROM filtered_accesses WHERE "
	       "thread = t.id AND chunk_id >= (SELECT ch.id FROM chunks ch "
	       "WHERE ch.thread = t.id AND ch.id <= (SELECT id FROM top) AND "
	       "EXISTS (SELECT 1 FROM temp.dgf_ev_ctx x WHERE %s) "
	       "ORDER BY ch.id DESC LIMIT 1)), "
	       "(SELECT max(icount) FROM filtered_accesses WHERE thread = t.id)) "
	       "AS last_icount FROM threads t", c->max, c->min, c->has, c->has);
}

/* 1 when sum_windows answers the working set of filtered_accesses: no
   filter, and the table exists and was filled (it is left empty when the
   log's icounts were out of order; a trace without accesses has none). */
static int windowed_all(sqlite3 *db)
{
	return dgsqlfn_int(db, "SELECT count(*) FROM sqlite_schema WHERE "
			   "name = 'sum_windows'") == 1
	       && dgsqlfn_int(db, "SELECT EXISTS (SELECT 1 FROM sum_windows) "
			      "OR NOT EXISTS (SELECT 1 FROM chunks)") == 1;
}

/* ---------------------------------------------------------- by class */

/* Which rows of the class summaries (schema 8: sum_line_class,
   sum_window_class) hold filtered_accesses' lines, pages and windows. */
enum cls_src {
	CLS_NONE,       /* none: decode */
	CLS_ALL,        /* no filter: sum_lines, sum_pages, and sum_windows
	                   when windowed_all() */
	CLS_DSO,        /* only dso: in --events: classes in temp.dgf_cls */
	CLS_HEAP,       /* only malloc in --ranges: classes with the heap bit */
	CLS_STACK,      /* call-stack conditions alone: lib/dgfsum.c's tables
			   (the chunks taken whole from the summaries) */
	CLS_USER        /* user: alone in --events: the same by interval */
};

static int has_classes(sqlite3 *db)
{
	return dgsqlfn_int(db, "SELECT count(*) FROM sqlite_schema WHERE name IN "
			   "('sum_class_modules', 'sum_line_class', "
			   "'sum_window_class')") == 3
	       && dgsqlfn_int(db, "SELECT EXISTS (SELECT 1 FROM sum_window_class) "
			      "OR NOT EXISTS (SELECT 1 FROM chunks)") == 1;
}

/* A filter is answered by class when each access either matches it or
   not by its class alone: dso: conditions only (one class has one set of
   modules; but a pc of no module, module_id 0, matches dso: by its address,
   which a class does not keep), or malloc only. */
static enum cls_src classed(sqlite3 *db, const struct dgfilter *f)
{
	if (zoomed(f))
		return CLS_NONE;
	if (!f || (!f->ev.n && !f->rg.n))
		return CLS_ALL;
	if (has_classes(db)) {
		if (!f->rg.n && only_kind(&f->ev, K_DSO)
		    && dgsqlfn_int(db, "SELECT EXISTS (SELECT 1 FROM pcs WHERE "
				   "module_id = 0)") == 0)
			return CLS_DSO;
		if (!f->ev.n && only_kind(&f->rg, K_MALLOC))
			return CLS_HEAP;
	}
	/* fn:, file:, dso: (sum_ctx's filters): per chunk, from the
	   summaries or decoded (dgfsum.h) */
	if (f->ev.n && summed(db, f) == SUM_CTX)
		return CLS_STACK;
	return !f->rg.n && only_kind(&f->ev, K_USER) ? CLS_USER : CLS_NONE;
}

/* temp.dgf_cls: the classes whose set holds a module that a dso:
   condition of f matches, with and without the heap bit. */
static int fill_classes(sqlite3 *db, const struct dgfilter *f, char **err)
{
	int i;

	if (exec(db, "CREATE TEMP TABLE dgf_cls(id INTEGER PRIMARY KEY)", NULL, err) < 0)
		return -1;
	for (i = 0; i < f->ev.n; i++)
		if (exec(db, "INSERT OR IGNORE INTO temp.dgf_cls SELECT set_id * 2 + h "
			 "FROM sum_class_modules, (SELECT 0 AS h UNION ALL SELECT 1) "
			 "WHERE module_id IN (SELECT id FROM modules WHERE "
			 "dg_match_path(path, ?1))", f->ev.c[i].arg, err) < 0)
			return -1;
	return 0;
}

#define NO_WINDOWS "CREATE TEMP VIEW filtered_windows AS SELECT 0 AS " \
	"window_start, 0 AS accesses, 0 AS lines, 0 AS pages WHERE 0"

/* The TEMP VIEWs filtered_lines(line, reads, writes), filtered_pages(page,
   reads, writes, lines) and filtered_windows(window_start, accesses,
   lines, pages) from the summaries src names; empty for CLS_NONE. */
static int build_classes(sqlite3 *db, const struct dgfilter *f, enum cls_src src,
			 char **err)
{
	const char *cond = src == CLS_DSO ? "class_id IN (SELECT id FROM temp.dgf_cls)"
			   : "class_id & 1";
	char *sql;
	int rc;

	if (src == CLS_NONE)
		return exec(db, "CREATE TEMP VIEW filtered_lines AS SELECT 0 AS line, "
			    "0 AS reads, 0 AS writes WHERE 0; "
			    "CREATE TEMP VIEW filtered_pages AS SELECT 0 AS page, "
			    "0 AS reads, 0 AS writes, 0 AS lines WHERE 0; "
			    NO_WINDOWS, NULL, err);
	if (src == CLS_ALL)
		return exec(db, "CREATE TEMP VIEW filtered_lines AS SELECT line, "
			    "reads, writes FROM sum_lines; "
			    "CREATE TEMP VIEW filtered_pages AS SELECT p.page, "
			    "p.reads, p.writes, (SELECT count(*) FROM sum_lines l "
			    "WHERE l.line >= p.page * 64 AND l.line < (p.page + 1) "
			    "* 64) AS lines FROM sum_pages p", NULL, err) < 0
		       || exec(db, windowed_all(db) ? "CREATE TEMP VIEW "
			       "filtered_windows AS SELECT window_start, accesses, "
			       "lines, pages FROM sum_windows" : NO_WINDOWS, NULL, err) < 0
		       ? -1 : 0;
	if (src == CLS_STACK || src == CLS_USER) {
		const char *m = src == CLS_STACK ? "stack" : "user";

		sql = sqlite3_mprintf("CREATE TEMP VIEW filtered_lines AS SELECT line, reads, "
			"writes FROM main.dgf_%s_lines; "
			"CREATE TEMP VIEW filtered_pages AS SELECT line >> 6 AS page, "
			"sum(reads) AS reads, sum(writes) AS writes, count(*) AS lines "
			"FROM temp.filtered_lines GROUP BY line >> 6; "
			"CREATE TEMP VIEW filtered_windows AS SELECT window_start, "
			"accesses, lines, pages FROM main.dgf_%s_windows", m, m);
		rc = exec(db, sql, NULL, err);
		sqlite3_free(sql);
		return rc;
	}
	if (src == CLS_DSO && fill_classes(db, f, err) < 0)
		return -1;
	/* lines first, in key order (no sorter); pages from them, as a line
	   matching in two classes is one line of its page */
	sql = sqlite3_mprintf(
		"CREATE TEMP VIEW filtered_lines AS SELECT line, sum(reads) AS "
		"reads, sum(writes) AS writes FROM sum_line_class WHERE %s "
		"GROUP BY line; "
		"CREATE TEMP VIEW filtered_pages AS SELECT line >> 6 AS page, "
		"sum(reads) AS reads, sum(writes) AS writes, count(*) AS lines "
		"FROM temp.filtered_lines GROUP BY line >> 6; "
		"CREATE TEMP VIEW filtered_windows AS SELECT window_start, "
		"sum(accesses) AS accesses, sum(lines) AS lines, sum(pages) AS "
		"pages FROM sum_window_class WHERE %s GROUP BY window_start",
		cond, cond);
	rc = exec(db, sql, NULL, err);
	sqlite3_free(sql);
	return rc;
}

static int build_sum(sqlite3 *db, const struct dgfilter *f, enum sum_src src, char **err)
{
	char *sql = sum_sql(f, src), *span = span_sql(db, f, src);
	int rc;

	if (!span)
		*err = sqlite3_mprintf("out of memory");
	rc = !span || exec(db, sql, NULL, err) < 0
	     || exec(db, span, NULL, err) < 0
	     || build_classes(db, f, classed(db, f), err) < 0 ? -1 : 0;

	sqlite3_free(sql);
	sqlite3_free(span);
	return rc;
}

static void fn_flag(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	sqlite3_result_int(ctx, (int)(intptr_t)sqlite3_user_data(ctx));
}

/* dg_filtered(): 1 while a filter is installed, else 0; dg_summed(): 1
   when filtered_sum holds filtered_accesses' counts, dg_ctx_summed() when
   filtered_ctx does.  Canned queries
   answer from the summary tables when they allow; SQLite evaluates these
   once, before any loop, so the branch not taken costs nothing. */
static int register_filtered(sqlite3 *db, const struct dgfilter *f, char **err)
{
	int on = f && (f->ev.n || f->rg.n || zoomed(f));
	enum cls_src cls = classed(db, f);
	enum sum_src sum = summed(db, f);

	if (sqlite3_create_function(db, "dg_filtered", 0, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
	                            (void *)(intptr_t)on, fn_flag, NULL, NULL) != SQLITE_OK
	    || sqlite3_create_function(db, "dg_summed", 0, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
	                            (void *)(intptr_t)(sum != SUM_NONE), fn_flag, NULL,
				    NULL) != SQLITE_OK
	    || sqlite3_create_function(db, "dg_ctx_summed", 0, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
	                            (void *)(intptr_t)(sum == SUM_CTX), fn_flag, NULL,
				    NULL) != SQLITE_OK
	    || sqlite3_create_function(db, "dg_windowed", 0, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
	                            (void *)(intptr_t)(cls == CLS_ALL || cls == CLS_STACK
						       || cls == CLS_USER ? windowed_all(db)
						       : cls != CLS_NONE), fn_flag, NULL,
				    NULL) != SQLITE_OK
	    || sqlite3_create_function(db, "dg_user_filtered", 0, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
	                            (void *)(intptr_t)(cls == CLS_USER), fn_flag, NULL,
				    NULL) != SQLITE_OK
	    || sqlite3_create_function(db, "dg_paged", 0, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
	                            (void *)(intptr_t)(cls != CLS_NONE), fn_flag, NULL,
				    NULL) != SQLITE_OK) {
		*err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
		return -1;
	}
	return 0;
}

int dgfilter_install(sqlite3 *db, const struct dgfilter *f, char **err)
{
	*err = NULL;
	if (register_filtered(db, f, err) < 0)
		return -1;
	if (exec(db, "SAVEPOINT dgfilter", NULL, err) < 0)
		return -1;
	if (drop_all(db, err) < 0 || build(db, f, err) < 0
	    || build_sum(db, f, summed(db, f), err) < 0) {
		sqlite3_exec(db, "ROLLBACK TO dgfilter; RELEASE dgfilter",
			     NULL, NULL, NULL);
		return -1;
	}
	return exec(db, "RELEASE dgfilter", NULL, err);
}
