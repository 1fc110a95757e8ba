/* dgsqlfn.c: SQL functions for reading a trace database (see dgsqlfn.h).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "dgsqlfn.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "dghist.h"

int dgsqlfn_is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

static int starts(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

/* The argument list starts at the first '(' outside template arguments,
   braces and "(anonymous namespace)"; "operator()" is a name, not a list. */
size_t dgsqlfn_fn_base_len(const char *name)
{
	int angle = 0, brace = 0;
	const char *s = name;

	while (*s) {
		if (starts(s, "(anonymous namespace)")) {
			s += strlen("(anonymous namespace)");
			continue;
		}
		if (starts(s, "operator")) {
			s += strlen("operator");
			if (starts(s, "()"))
				s += 2;
			else
				while (*s == '<' || *s == '>' || *s == '=' || *s == '-')
					s++;
			continue;
		}
		if (*s == '<')
			angle++;
		else if (*s == '>' && angle > 0)
			angle--;
		else if (*s == '{')
			brace++;
		else if (*s == '}' && brace > 0)
			brace--;
		else if (*s == '(' && angle == 0 && brace == 0)
			break;
		s++;
	}
	while (s > name && s[-1] == ' ')
		s--;
	return (size_t)(s - name);
}

static int glob_or_eq(const char *pat, const char *s, size_t n)
{
	char buf[1024];

	if (n >= sizeof buf)
		return 0;
	memcpy(buf, s, n);
	buf[n] = 0;
	if (dgsqlfn_is_glob(pat))
		return fnmatch(pat, buf, 0) == 0;
	return strcmp(pat, buf) == 0;
}

int dgsqlfn_match_fn(const char *name, const char *pat)
{
	if (glob_or_eq(pat, name, strlen(name)))
		return 1;
	return glob_or_eq(pat, name, dgsqlfn_fn_base_len(name));
}

int dgsqlfn_match_path(const char *path, const char *pat)
{
	size_t lp = strlen(path), lq;

	while (pat[0] == '.' && pat[1] == '/')
		pat += 2;
	lq = strlen(pat);
	if (dgsqlfn_is_glob(pat)) {
		const char *s;

		if (fnmatch(pat, path, 0) == 0)
			return 1;
		for (s = strchr(path, '/'); s; s = strchr(s + 1, '/'))
			if (fnmatch(pat, s + 1, 0) == 0)
				return 1;
		return 0;
	}
	if (lq == 0 || lq > lp || strcmp(path + lp - lq, pat) != 0)
		return 0;
	return lq == lp || pat[0] == '/' || path[lp - lq - 1] == '/';
}

int64_t dgsqlfn_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* ---------------------------------------------------------- scalars */

static void fn_hex(sqlite3_context *c, int argc, sqlite3_value **v)
{
	char buf[24];

	if (sqlite3_value_type(v[0]) == SQLITE_NULL)
		return;
	snprintf(buf, sizeof buf, "0x%llx",
		 (unsigned long long)sqlite3_value_int64(v[0]));
	sqlite3_result_text(c, buf, -1, SQLITE_TRANSIENT);
}

static void fn_base(sqlite3_context *c, int argc, sqlite3_value **v)
{
	const char *s = (const char *)sqlite3_value_text(v[0]);

	if (s)
		sqlite3_result_text(c, s, (int)dgsqlfn_fn_base_len(s),
				    SQLITE_TRANSIENT);
}

static void fn_match_fn(sqlite3_context *c, int argc, sqlite3_value **v)
{
	const char *s = (const char *)sqlite3_value_text(v[0]);
	const char *p = (const char *)sqlite3_value_text(v[1]);

	sqlite3_result_int(c, s && p && dgsqlfn_match_fn(s, p));
}

static void fn_match_path(sqlite3_context *c, int argc, sqlite3_value **v)
{
	const char *s = (const char *)sqlite3_value_text(v[0]);
	const char *p = (const char *)sqlite3_value_text(v[1]);

	sqlite3_result_int(c, s && p && dgsqlfn_match_path(s, p));
}

/* ---------------------------------------------------------- dg_hist */

enum { H_BUCKET, H_OFFSET, H_READS, H_WRITES, H_HIST, H_SIZE };

struct hist_cursor {
	sqlite3_vtab_cursor base;
	sqlite3_int64 *row;     /* bucket, reads, writes per touched bucket (owned) */
	int n;                  /* touched buckets */
	int k;                  /* current one */
	sqlite3_int64 bucket_size;
};

static int hist_connect(sqlite3 *db, void *aux, int argc,
			const char *const *argv, sqlite3_vtab **vt, char **err)
{
	int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(bucket, offset, "
		"reads, writes, hist HIDDEN, bucket_size HIDDEN)");

	if (rc != SQLITE_OK)
		return rc;
	*vt = sqlite3_malloc(sizeof **vt);
	if (!*vt)
		return SQLITE_NOMEM;
	memset(*vt, 0, sizeof **vt);
	return SQLITE_OK;
}

static int hist_disconnect(sqlite3_vtab *vt)
{
	sqlite3_free(vt);
	return SQLITE_OK;
}

/* Both hidden arguments must be given as equality constraints. */
static int hist_best_index(sqlite3_vtab *vt, sqlite3_index_info *ii)
{
	int i, have = 0;

	for (i = 0; i < ii->nConstraint; i++) {
		const struct sqlite3_index_constraint *c = &ii->aConstraint[i];

		if (c->iColumn < H_HIST || c->op != SQLITE_INDEX_CONSTRAINT_EQ)
			continue;
		if (!c->usable)
			return SQLITE_CONSTRAINT;
		ii->aConstraintUsage[i].argvIndex = c->iColumn - H_HIST + 1;
		ii->aConstraintUsage[i].omit = 1;
		have |= 1 << (c->iColumn - H_HIST);
	}
	if (have != 3) {
		sqlite3_free(vt->zErrMsg);
		vt->zErrMsg = sqlite3_mprintf("dg_hist: usage: "
			"dg_hist(hist, hist_bucket)");
		return SQLITE_ERROR;
	}
	ii->idxNum = 1;
	ii->estimatedCost = 10;
	return SQLITE_OK;
}

static int hist_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **cur)
{
	struct hist_cursor *h = sqlite3_malloc(sizeof *h);

	if (!h)
		return SQLITE_NOMEM;
	memset(h, 0, sizeof *h);
	*cur = &h->base;
	return SQLITE_OK;
}

static int hist_close(sqlite3_vtab_cursor *cur)
{
	struct hist_cursor *h = (struct hist_cursor *)cur;

	sqlite3_free(h->row);
	sqlite3_free(h);
	return SQLITE_OK;
}

static int hist_next(sqlite3_vtab_cursor *cur)
{
	((struct hist_cursor *)cur)->k++;
	return SQLITE_OK;
}

/* The touched buckets of a blocks.hist blob, either form (lib/dghist.h). */
static int hist_decode(struct hist_cursor *h, const unsigned char *p, int len,
		       sqlite3_vtab *vt)
{
	struct dghist_cur c;
	uint64_t bucket, reads, writes;
	int cap = 0, rc;

	dghist_begin(&c, p, (size_t)len);
	while ((rc = dghist_next(&c, &bucket, &reads, &writes)) > 0) {
		if (h->n == INT32_MAX / 4) {
			sqlite3_free(vt->zErrMsg);
			vt->zErrMsg = sqlite3_mprintf("dg_hist: too many buckets");
			return SQLITE_ERROR;
		}
		if (h->n == cap) {
			sqlite3_int64 *r;

			cap = cap ? 2 * cap : 64;
			r = sqlite3_realloc64(h->row, 3 * sizeof *r * cap);
			if (!r)
				return SQLITE_NOMEM;
			h->row = r;
		}
		h->row[3 * h->n] = (sqlite3_int64)bucket;
		h->row[3 * h->n + 1] = (sqlite3_int64)reads;
		h->row[3 * h->n + 2] = (sqlite3_int64)writes;
		h->n++;
	}
	if (rc < 0) {
		sqlite3_free(vt->zErrMsg);
		vt->zErrMsg = sqlite3_mprintf("dg_hist: malformed histogram "
			"(after %d buckets): %s", h->n, dghist_error(rc));
		return SQLITE_ERROR;
	}
	return SQLITE_OK;
}

static int hist_filter(sqlite3_vtab_cursor *cur, int idx, const char *idxs,
		       int argc, sqlite3_value **argv)
{
	struct hist_cursor *h = (struct hist_cursor *)cur;
	int rc = SQLITE_OK;

	sqlite3_free(h->row);
	h->row = NULL;
	h->n = 0;
	h->k = 0;
	h->bucket_size = argc > 1 ? sqlite3_value_int64(argv[1]) : 1;
	if (argc > 0 && sqlite3_value_type(argv[0]) == SQLITE_BLOB)
		rc = hist_decode(h, sqlite3_value_blob(argv[0]),
				 sqlite3_value_bytes(argv[0]), cur->pVtab);
	return rc;
}

static int hist_eof(sqlite3_vtab_cursor *cur)
{
	struct hist_cursor *h = (struct hist_cursor *)cur;

	return h->k >= h->n;
}

static int hist_column(sqlite3_vtab_cursor *cur, sqlite3_context *c, int col)
{
	struct hist_cursor *h = (struct hist_cursor *)cur;

	switch (col) {
	case H_BUCKET: sqlite3_result_int64(c, h->row[3 * h->k]); break;
	case H_OFFSET: {
		/* bucket_size is the database's (blocks.hist_bucket): a
		   product past 64 bits is NULL, not an overflow */
		sqlite3_int64 off;
		if (!__builtin_mul_overflow(h->row[3 * h->k], h->bucket_size, &off))
			sqlite3_result_int64(c, off);
		break;
	}
	case H_READS:  sqlite3_result_int64(c, h->row[3 * h->k + 1]); break;
	case H_WRITES: sqlite3_result_int64(c, h->row[3 * h->k + 2]); break;
	case H_SIZE:   sqlite3_result_int64(c, h->bucket_size); break;
	default: break;
	}
	return SQLITE_OK;
}

static int hist_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
	*rowid = ((struct hist_cursor *)cur)->k;
	return SQLITE_OK;
}

static const sqlite3_module hist_module = {
	.xConnect = hist_connect,
	.xBestIndex = hist_best_index,
	.xDisconnect = hist_disconnect,
	.xOpen = hist_open,
	.xClose = hist_close,
	.xFilter = hist_filter,
	.xNext = hist_next,
	.xEof = hist_eof,
	.xColumn = hist_column,
	.xRowid = hist_rowid,
};

/* ---------------------------------------------------------- registration */

struct scalar {
	const char *name;
	int nargs;
	void (*fn)(sqlite3_context *, int, sqlite3_value **);
};

static const struct scalar scalars[] = {
	{ "dg_hex", 1, fn_hex },
	{ "dg_fn_base", 1, fn_base },
	{ "dg_match_fn", 2, fn_match_fn },
	{ "dg_match_path", 2, fn_match_path },
};

int dgsqlfn_register(sqlite3 *db, char **errmsg)
{
	size_t i;
	int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;

	for (i = 0; i < sizeof scalars / sizeof scalars[0]; i++)
		if (sqlite3_create_function(db, scalars[i].name, scalars[i].nargs,
					    flags, NULL, scalars[i].fn, NULL,
					    NULL) != SQLITE_OK)
			goto fail;
	if (sqlite3_create_module(db, "dg_hist", &hist_module, NULL) == SQLITE_OK)
		return 0;
fail:
	*errmsg = sqlite3_mprintf("registering sql functions: %s",
				  sqlite3_errmsg(db));
	return -1;
}
