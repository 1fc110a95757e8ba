/* duck.c: dgsql's DuckDB engine.  See duck.h.
 *
 * Two parts: the table functions DuckDB reads the trace through
 * (dg_accesses, over lib/dgvt_par, and dg_sqlite, over a read-only SQLite
 * connection), and the run: the text as route.h rewrites it, prepare,
 * bind, execute, and copy the rows into an in-memory SQLite table that
 * the caller's renderer reads.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "duck.h"
#include "route.h"

#ifndef DG_HAVE_DUCKDB

const char *duck_version(void)
{
	return NULL;
}

struct duck *duck_open(const char *path, char **err)
{
	(void)path;
	*err = sqlite3_mprintf("this dgsql was built without DuckDB (make deps installs it; then rebuild)");
	return NULL;
}

void duck_free(struct duck *d)
{
	(void)d;
}

int duck_run(struct duck *d, sqlite3_stmt *st, char *const *args, int n,
	     sqlite3_stmt **answer, char **err)
{
	*err = sqlite3_mprintf("no DuckDB in this build");
	return -1;
}

int duck_exec(struct duck *d, const char *sql, int64_t *value, char **err)
{
	*err = sqlite3_mprintf("no DuckDB in this build");
	return -1;
}

int duck_script(struct duck *d, const char *sql, char *const *args, int n,
		int (*each)(void *arg, sqlite3_stmt *answer, char **err), void *arg, char **err)
{
	*err = sqlite3_mprintf("no DuckDB in this build");
	return -1;
}

#else /* DG_HAVE_DUCKDB */

#include <dlfcn.h>
#include <stdio.h>
#include <duckdb.h>

#include "dgside.h"
#include "dgvt_par.h"
#include "dgvtab.h"

/* DuckDB's C API, loaded on first use (dlopen): a dgsql that never runs a
   query in DuckDB never maps its 64 MB library, whose start-up would
   otherwise cost every dgsql process some 25 ms.  The library is found
   by the executable's run path (dgsql.mk: next to an installed dgsql, or
   the source tree's .deps). */
#define DUCK_API(X) \
	X(duckdb_add_replacement_scan) \
	X(duckdb_replacement_scan_set_function_name) \
	X(duckdb_replacement_scan_add_parameter) \
	X(duckdb_create_varchar) \
	X(duckdb_bind_add_result_column) \
	X(duckdb_bind_get_extra_info) \
	X(duckdb_bind_get_parameter) \
	X(duckdb_bind_int64) \
	X(duckdb_bind_null) \
	X(duckdb_bind_set_bind_data) \
	X(duckdb_bind_set_cardinality) \
	X(duckdb_bind_set_error) \
	X(duckdb_bind_varchar) \
	X(duckdb_close) \
	X(duckdb_column_count) \
	X(duckdb_column_name) \
	X(duckdb_column_type) \
	X(duckdb_connect) \
	X(duckdb_create_config) \
	X(duckdb_create_int64) \
	X(duckdb_create_logical_type) \
	X(duckdb_create_table_function) \
	X(duckdb_data_chunk_get_size) \
	X(duckdb_data_chunk_get_vector) \
	X(duckdb_data_chunk_set_size) \
	X(duckdb_destroy_config) \
	X(duckdb_destroy_data_chunk) \
	X(duckdb_destroy_extracted) \
	X(duckdb_destroy_logical_type) \
	X(duckdb_destroy_prepare) \
	X(duckdb_destroy_result) \
	X(duckdb_destroy_table_function) \
	X(duckdb_destroy_value) \
	X(duckdb_disconnect) \
	X(duckdb_execute_prepared) \
	X(duckdb_extract_statements) \
	X(duckdb_extract_statements_error) \
	X(duckdb_free) \
	X(duckdb_function_get_bind_data) \
	X(duckdb_function_get_init_data) \
	X(duckdb_function_get_local_init_data) \
	X(duckdb_function_set_error) \
	X(duckdb_get_varchar) \
	X(duckdb_hugeint_to_double) \
	X(duckdb_init_get_bind_data) \
	X(duckdb_init_get_column_count) \
	X(duckdb_init_get_column_index) \
	X(duckdb_init_get_extra_info) \
	X(duckdb_init_set_error) \
	X(duckdb_init_set_init_data) \
	X(duckdb_init_set_max_threads) \
	X(duckdb_library_version) \
	X(duckdb_nparams) \
	X(duckdb_open_ext) \
	X(duckdb_prepare) \
	X(duckdb_prepare_error) \
	X(duckdb_prepare_extracted_statement) \
	X(duckdb_query) \
	X(duckdb_register_table_function) \
	X(duckdb_result_chunk_count) \
	X(duckdb_result_error) \
	X(duckdb_result_get_chunk) \
	X(duckdb_row_count) \
	X(duckdb_set_config) \
	X(duckdb_string_t_data) \
	X(duckdb_string_t_length) \
	X(duckdb_table_function_add_parameter) \
	X(duckdb_table_function_set_bind) \
	X(duckdb_table_function_set_extra_info) \
	X(duckdb_table_function_set_function) \
	X(duckdb_table_function_set_init) \
	X(duckdb_table_function_set_local_init) \
	X(duckdb_table_function_set_name) \
	X(duckdb_table_function_supports_projection_pushdown) \
	X(duckdb_validity_row_is_valid) \
	X(duckdb_validity_set_row_invalid) \
	X(duckdb_value_double) \
	X(duckdb_value_int64) \
	X(duckdb_value_varchar) \
	X(duckdb_vector_assign_string_element_len) \
	X(duckdb_vector_ensure_validity_writable) \
	X(duckdb_vector_get_data) \
	X(duckdb_vector_get_validity) \
	X(duckdb_vector_reference_value) \
	X(duckdb_vector_size)

#define DUCK_PTR(f) __typeof__(f) *f;
static struct { DUCK_API(DUCK_PTR) } duck_api;
#define DK(f) (duck_api.f)

/* The API, loaded once; 0, or -1 with *err. */
static int duck_load(char **err)
{
	static int loaded;      /* 1 loaded, -1 failed */
	static char why[256];
	void *h;

	if (loaded == 0) {
		loaded = -1;
		if (!(h = dlopen("libduckdb.so", RTLD_NOW | RTLD_LOCAL))) {
			snprintf(why, sizeof why, "cannot load DuckDB: %s (make deps installs it)", dlerror());
			goto out;
		}
#define DUCK_SYM(f) if (!(duck_api.f = (__typeof__(f) *)dlsym(h, #f))) { \
			snprintf(why, sizeof why, "DuckDB's library has no %s: not version 1.4", #f); \
			goto out; }
		DUCK_API(DUCK_SYM)
#undef DUCK_SYM
		loaded = 1;
	}
out:
	if (loaded < 0 && err)
		*err = sqlite3_mprintf("%s", why);
	return loaded > 0 ? 0 : -1;
}

struct duck {
	char *path;
	int ready;
	duckdb_database db;
	duckdb_connection con;
	struct dgvt_par *par;   /* the decoder's model, loaded on first scan */
	char **names;           /* the trace's tables and views */
	size_t n_names;
	sqlite3 *res;           /* results, for the renderer */
};

/* dg_accesses' columns: the table's, then (past stack_filter, which it
   does not have) the ids lib/dgvt_par resolves beside them.  The view
   `accesses` selects the table's alone. */
static const char *const acc_cols[DGVT_PAR_N_COLS] = {
	"icount", "addr", "size", "is_write", "pc", "thread", "context_id",
	"block_id", "aseq", "chunk_id", "module_id", NULL,
	"function_id", "site_id", "field_id"
};

/* The column id DuckDB numbers from 0 over the declared ones, as
   lib/dgvt_par numbers it. */
static idx_t acc_col_id(idx_t duck_col)
{
	return duck_col < DGVT_COL_STACK ? duck_col : duck_col + 1;
}

const char *duck_version(void)
{
	return duck_load(NULL) == 0 ? DK(duckdb_library_version)() : NULL;
}

/* ------------------------------------------------------------ dg_accesses */

struct acc_global {
	struct dgvt_par_scan *scan;
	idx_t ncol;
	idx_t col[DGVT_PAR_N_COLS];     /* projected, as dgvt_par numbers them */
};

struct acc_local {
	struct dgvt_par_worker *w;
	uint8_t nulls[DGVT_PAR_N_COLS][2048];   /* a vector's NULL flags */
};

static void acc_bind(duckdb_bind_info info)
{
	struct duck *d = DK(duckdb_bind_get_extra_info)(info);
	duckdb_logical_type big = DK(duckdb_create_logical_type)(DUCKDB_TYPE_BIGINT);
	char *msg = NULL;
	size_t i;

	if (!d->par && dgvt_par_open(d->path, &d->par, &msg) != SQLITE_OK) {
		DK(duckdb_bind_set_error)(info, msg ? msg : "accesses: out of memory");
		sqlite3_free(msg);
		DK(duckdb_destroy_logical_type)(&big);
		return;
	}
	for (i = 0; i < DGVT_PAR_N_COLS; i++)
		if (acc_cols[i])
			DK(duckdb_bind_add_result_column)(info, acc_cols[i], big);
	DK(duckdb_destroy_logical_type)(&big);
	DK(duckdb_bind_set_cardinality)(info, (idx_t)dgvt_par_rows(d->par), false);
}

static void acc_global_free(void *p)
{
	struct acc_global *g = p;

	dgvt_par_scan_end(g->scan);
	free(g);
}

static void acc_init(duckdb_init_info info)
{
	struct duck *d = DK(duckdb_init_get_extra_info)(info);
	struct acc_global *g = calloc(1, sizeof *g);
	char *msg = NULL;
	uint32_t want = 0;
	idx_t i;

	if (!g) {
		DK(duckdb_init_set_error)(info, "accesses: out of memory");
		return;
	}
	g->ncol = DK(duckdb_init_get_column_count)(info);
	for (i = 0; i < g->ncol && i < DGVT_PAR_N_COLS; i++) {
		idx_t c = DK(duckdb_init_get_column_index)(info, i);
		g->col[i] = c < DGVT_PAR_N_COLS - 1 ? acc_col_id(c) : DGVT_PAR_N_COLS;      /* a row id */
		if (g->col[i] < DGVT_PAR_N_COLS)
			want |= 1u << g->col[i];
	}
	if (dgvt_par_scan_begin(d->par, want, &g->scan, &msg) != SQLITE_OK) {
		DK(duckdb_init_set_error)(info, msg ? msg : "accesses: out of memory");
		sqlite3_free(msg);
		free(g);
		return;
	}
	DK(duckdb_init_set_init_data)(info, g, acc_global_free);
	DK(duckdb_init_set_max_threads)(info, 64);
}

static void acc_local_free(void *p)
{
	struct acc_local *l = p;

	dgvt_par_worker_close(l->w);
	free(l);
}

static void acc_local_init(duckdb_init_info info)
{
	struct acc_local *l = calloc(1, sizeof *l);

	if (!l) {
		DK(duckdb_init_set_error)(info, "accesses: out of memory");
		return;
	}
	DK(duckdb_init_set_init_data)(info, l, acc_local_free);
}

/* The rows k with nulls[k] set are NULL in v.  duckdb.h documents the mask:
   a uint64_t a 64 rows, a set bit a valid row; a word at a time, a call
   a NULL row was 5-8 % of an export's CPU. */
static void set_nulls(duckdb_vector v, const uint8_t *nulls, size_t n)
{
	uint64_t *valid = NULL;
	size_t w, k;

	for (w = 0; w * 64 < n; w++) {
		const uint8_t *b = nulls + w * 64;
		size_t m = n - w * 64 < 64 ? n - w * 64 : 64;
		uint64_t bits = 0;
		for (k = 0; k < m; k++)
			bits |= (uint64_t)(b[k] != 0) << k;
		if (!bits)
			continue;
		if (!valid) {
			DK(duckdb_vector_ensure_validity_writable)(v);
			valid = DK(duckdb_vector_get_validity)(v);
		}
		valid[w] &= ~bits;
	}
}

/* A column whose n rows hold one value (thread and chunk_id: one a chunk)
   as a DuckDB constant vector: its joins and groups then hash the value
   once, not once a row (7 % of the by-thread join's CPU; the probe itself
   still goes a row at a time). */
static void set_constant(duckdb_vector v, const int64_t *x, size_t n)
{
	duckdb_value c;
	size_t k;

	for (k = 1; k < n; k++)
		if (x[k] != x[0])
			return;
	if (!n || !(c = DK(duckdb_create_int64)(x[0])))
		return;
	DK(duckdb_vector_reference_value)(v, c);
	DK(duckdb_destroy_value)(&c);
}

static void acc_scan(duckdb_function_info info, duckdb_data_chunk out)
{
	struct acc_global *g = DK(duckdb_function_get_init_data)(info);
	struct acc_local *l = DK(duckdb_function_get_local_init_data)(info);
	int64_t *cols[DGVT_PAR_N_COLS] = { 0 };
	int64_t *other[DGVT_PAR_N_COLS] = { 0 };      /* row ids: zero */
	uint8_t *nulls[DGVT_PAR_N_COLS] = { 0 };
	duckdb_vector vec[DGVT_PAR_N_COLS] = { 0 };
	size_t n = 0, max = DK(duckdb_vector_size)();
	char *msg = NULL;
	idx_t i;

	if (max > sizeof l->nulls[0])
		max = sizeof l->nulls[0];
	if (!l->w && dgvt_par_worker_open(g->scan, &l->w, &msg) != SQLITE_OK) {
		DK(duckdb_function_set_error)(info, msg ? msg : "accesses: out of memory");
		sqlite3_free(msg);
		return;
	}
	for (i = 0; i < g->ncol && i < DGVT_PAR_N_COLS; i++) {
		duckdb_vector v = DK(duckdb_data_chunk_get_vector)(out, i);
		idx_t c = g->col[i];
		if (c < DGVT_PAR_N_COLS) {
			cols[c] = DK(duckdb_vector_get_data)(v);
			nulls[c] = l->nulls[c];
			vec[c] = v;
		} else {
			other[i] = DK(duckdb_vector_get_data)(v);
		}
	}
	if (dgvt_par_fill(l->w, cols, nulls, max, &n, &msg) != SQLITE_OK) {
		DK(duckdb_function_set_error)(info, msg ? msg : "accesses: out of memory");
		sqlite3_free(msg);
		return;
	}
	for (i = 0; i < g->ncol && i < DGVT_PAR_N_COLS; i++)
		if (other[i])
			memset(other[i], 0, n * sizeof *other[i]);
	for (i = 0; i < DGVT_PAR_N_COLS; i++)
		if (vec[i] && (i == DGVT_COL_BLOCK || i > DGVT_COL_STACK))
			set_nulls(vec[i], nulls[i], n);
		else if (vec[i] && (i == DGVT_COL_THREAD || i == DGVT_COL_CHUNK))
			set_constant(vec[i], cols[i], n);
	DK(duckdb_data_chunk_set_size)(out, n);
}

/* ------------------------------------------------------------ dg_sqlite */

/* A SQLite column as DuckDB sees it. */
enum scol { SC_INT, SC_REAL, SC_TEXT, SC_BLOB };

struct sq_bind {
	char *name;
	int ncol;
	enum scol *type;
	char **col;             /* the columns' names */
};

struct sq_scan {
	sqlite3 *db;
	sqlite3_stmt *st;       /* SELECT of the projected columns */
	int ncol;
	enum scol *type;        /* theirs, in the statement's order */
	int done;
	int64_t row;
};

static enum scol scol_of_decl(const char *decl, int sample)
{
	char up[64];
	size_t i;

	if (!decl || !*decl) {
		switch (sample) {
		case SQLITE_INTEGER: return SC_INT;
		case SQLITE_FLOAT:   return SC_REAL;
		case SQLITE_BLOB:    return SC_BLOB;
		default:             return SC_TEXT;
		}
	}
	for (i = 0; decl[i] && i + 1 < sizeof up; i++)
		up[i] = (char)toupper((unsigned char)decl[i]);
	up[i] = 0;
	/* SQLite's affinity rules (datatype3.html §3.1), in their order. */
	if (strstr(up, "INT"))
		return SC_INT;
	if (strstr(up, "CHAR") || strstr(up, "CLOB") || strstr(up, "TEXT"))
		return SC_TEXT;
	if (strstr(up, "BLOB"))
		return SC_BLOB;
	return strstr(up, "REAL") || strstr(up, "FLOA") || strstr(up, "DOUB") ? SC_REAL : SC_INT;
}

static duckdb_type duck_type_of(enum scol c)
{
	static const duckdb_type map[] = {
		[SC_INT] = DUCKDB_TYPE_BIGINT, [SC_REAL] = DUCKDB_TYPE_DOUBLE,
		[SC_TEXT] = DUCKDB_TYPE_VARCHAR, [SC_BLOB] = DUCKDB_TYPE_BLOB,
	};
	return map[c];
}

/* The trace, read-only, with our tables and functions: the trace's
   virtual table sum_fn_block needs its module, a view may call them. */
static int open_sqlite(const char *path, sqlite3 **db)
{
	char *why;
	int rc = dgside_open(path, db, &why);

	sqlite3_free(why);
	if (rc == SQLITE_OK)
		rc = dgvtab_register(*db, NULL);
	if (rc != SQLITE_OK) {
		sqlite3_close(*db);
		*db = NULL;
	}
	return rc;
}

static void sq_bind_free(void *p)
{
	struct sq_bind *b = p;
	int i;

	for (i = 0; b->col && i < b->ncol; i++)
		free(b->col[i]);
	free(b->col);
	free(b->name);
	free(b->type);
	free(b);
}

/* SELECT * of the table, or of the n columns whose indexes are in col
   (n 0: a row count alone, as DuckDB asks for count(*)). */
static sqlite3_stmt *sq_prepare(sqlite3 *db, const char *name, const struct sq_bind *b,
				const idx_t *col, idx_t n)
{
	sqlite3_stmt *st = NULL;
	sqlite3_str *q = sqlite3_str_new(db);
	char *sql;
	idx_t i;

	sqlite3_str_appendall(q, "SELECT ");
	if (!b)
		sqlite3_str_appendall(q, "*");
	else if (n == 0)
		sqlite3_str_appendall(q, "NULL");
	for (i = 0; b && i < n; i++)
		sqlite3_str_appendf(q, "%s\"%w\"", i ? ", " : "", b->col[col[i]]);
	sqlite3_str_appendf(q, " FROM main.\"%w\"", name);
	if ((sql = sqlite3_str_finish(q)))
		sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	sqlite3_free(sql);
	return st;
}

static void sq_bind(duckdb_bind_info info)
{
	struct duck *d = DK(duckdb_bind_get_extra_info)(info);
	duckdb_value v = DK(duckdb_bind_get_parameter)(info, 0);
	char *name = DK(duckdb_get_varchar)(v);
	struct sq_bind *b = calloc(1, sizeof *b);
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	int i, sampled = 0;

	DK(duckdb_destroy_value)(&v);
	if (!b || !name || !(b->name = strdup(name))) {
		DK(duckdb_bind_set_error)(info, "dg_sqlite: out of memory");
		goto out;
	}
	if (open_sqlite(d->path, &db) != SQLITE_OK || !(st = sq_prepare(db, name, NULL, NULL, 0))) {
		char *m = sqlite3_mprintf("dg_sqlite: %s: %s", name, db ? sqlite3_errmsg(db) : "cannot open");
		DK(duckdb_bind_set_error)(info, m ? m : "dg_sqlite: out of memory");
		sqlite3_free(m);
		goto out;
	}
	b->ncol = sqlite3_column_count(st);
	if (!(b->type = calloc((size_t)b->ncol + 1, sizeof *b->type))
	    || !(b->col = calloc((size_t)b->ncol + 1, sizeof *b->col))) {
		DK(duckdb_bind_set_error)(info, "dg_sqlite: out of memory");
		goto out;
	}
	for (i = 0; i < b->ncol; i++) {
		const char *decl = sqlite3_column_decltype(st, i);
		duckdb_logical_type lt;
		if (!(b->col[i] = strdup(sqlite3_column_name(st, i)))) {
			DK(duckdb_bind_set_error)(info, "dg_sqlite: out of memory");
			goto out;
		}
		/* An expression column has no declared type: its first row's. */
		if ((!decl || !*decl) && !sampled)
			sampled = sqlite3_step(st) == SQLITE_ROW ? 1 : -1;
		b->type[i] = scol_of_decl(decl, sampled > 0 ? sqlite3_column_type(st, i) : SQLITE_NULL);
		lt = DK(duckdb_create_logical_type)(duck_type_of(b->type[i]));
		DK(duckdb_bind_add_result_column)(info, sqlite3_column_name(st, i), lt);
		DK(duckdb_destroy_logical_type)(&lt);
	}
	DK(duckdb_bind_set_bind_data)(info, b, sq_bind_free);
	b = NULL;
out:
	sqlite3_finalize(st);
	sqlite3_close(db);
	DK(duckdb_free)(name);
	if (b)
		sq_bind_free(b);
}

static void sq_scan_free(void *p)
{
	struct sq_scan *s = p;

	free(s->type);
	sqlite3_finalize(s->st);
	sqlite3_close(s->db);
	free(s);
}

static void sq_init(duckdb_init_info info)
{
	struct duck *d = DK(duckdb_init_get_extra_info)(info);
	struct sq_bind *b = DK(duckdb_init_get_bind_data)(info);
	struct sq_scan *s = calloc(1, sizeof *s);
	idx_t i, n = DK(duckdb_init_get_column_count)(info), *col = calloc(n + 1, sizeof *col);

	if (!s || !col || !(s->type = calloc(n + 1, sizeof *s->type))) {
		DK(duckdb_init_set_error)(info, "dg_sqlite: out of memory");
		free(col);
		if (s)
			sq_scan_free(s);
		return;
	}
	for (i = 0; i < n; i++) {
		col[i] = DK(duckdb_init_get_column_index)(info, i);
		if (col[i] >= (idx_t)b->ncol) {       /* a row id: none here */
			DK(duckdb_init_set_error)(info, "dg_sqlite: no such column");
			free(col);
			sq_scan_free(s);
			return;
		}
		s->type[i] = b->type[col[i]];
	}
	s->ncol = (int)n;
	s->st = open_sqlite(d->path, &s->db) == SQLITE_OK ? sq_prepare(s->db, b->name, b, col, n) : NULL;
	free(col);
	if (!s->st) {
		char *m = sqlite3_mprintf("dg_sqlite: %s: %s", b->name, s->db ? sqlite3_errmsg(s->db) : "cannot open");
		DK(duckdb_init_set_error)(info, m ? m : "dg_sqlite: out of memory");
		sqlite3_free(m);
		sq_scan_free(s);
		return;
	}
	DK(duckdb_init_set_init_data)(info, s, sq_scan_free);
	DK(duckdb_init_set_max_threads)(info, 1);
}

/* Whether the n bytes at p are valid UTF-8 (DuckDB's VARCHAR must be). */
static int utf8_ok(const unsigned char *p, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned c = p[i], len, k;
		uint32_t cp;
		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xC2 && c <= 0xDF)
			len = 2, cp = c & 0x1F;
		else if (c >= 0xE0 && c <= 0xEF)
			len = 3, cp = c & 0x0F;
		else if (c >= 0xF0 && c <= 0xF4)
			len = 4, cp = c & 0x07;
		else
			return 0;
		if (i + len > n)
			return 0;
		for (k = 1; k < len; k++) {
			if ((p[i + k] & 0xC0) != 0x80)
				return 0;
			cp = cp << 6 | (p[i + k] & 0x3F);
		}
		if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
			return 0;
		i += len;
	}
	return 1;
}

static void sq_scan(duckdb_function_info info, duckdb_data_chunk out)
{
	struct sq_bind *b = DK(duckdb_function_get_bind_data)(info);
	struct sq_scan *s = DK(duckdb_function_get_init_data)(info);
	idx_t n = 0, max = DK(duckdb_vector_size)();
	int i, rc;

	while (!s->done && n < max) {
		if ((rc = sqlite3_step(s->st)) != SQLITE_ROW) {
			s->done = 1;
			if (rc != SQLITE_DONE) {
				char *m = sqlite3_mprintf("dg_sqlite: %s: %s", b->name, sqlite3_errmsg(s->db));
				DK(duckdb_function_set_error)(info, m ? m : "dg_sqlite: out of memory");
				sqlite3_free(m);
				return;
			}
			break;
		}
		for (i = 0; i < s->ncol; i++) {
			duckdb_vector v = DK(duckdb_data_chunk_get_vector)(out, (idx_t)i);
			const unsigned char *p;
			int len;
			if (sqlite3_column_type(s->st, i) == SQLITE_NULL) {
				DK(duckdb_vector_ensure_validity_writable)(v);
				DK(duckdb_validity_set_row_invalid)(DK(duckdb_vector_get_validity)(v), n);
				continue;
			}
			switch (s->type[i]) {
			case SC_INT:
				((int64_t *)DK(duckdb_vector_get_data)(v))[n] = sqlite3_column_int64(s->st, i);
				break;
			case SC_REAL:
				((double *)DK(duckdb_vector_get_data)(v))[n] = sqlite3_column_double(s->st, i);
				break;
			case SC_TEXT:
				p = sqlite3_column_text(s->st, i);
				len = sqlite3_column_bytes(s->st, i);
				if (!utf8_ok(p, (size_t)len)) {
					char *m = sqlite3_mprintf("dg_sqlite: %s row %lld column %s: text that is not UTF-8",
								  b->name, (long long)s->row + 1, sqlite3_column_name(s->st, i));
					DK(duckdb_function_set_error)(info, m ? m : "dg_sqlite: out of memory");
					sqlite3_free(m);
					return;
				}
				DK(duckdb_vector_assign_string_element_len)(v, n, (const char *)p, (idx_t)len);
				break;
			case SC_BLOB:
				p = sqlite3_column_blob(s->st, i);
				len = sqlite3_column_bytes(s->st, i);
				DK(duckdb_vector_assign_string_element_len)(v, n, p ? (const char *)p : "", (idx_t)len);
				break;
			}
		}
		n++;
		s->row++;
	}
	DK(duckdb_data_chunk_set_size)(out, n);
}

/* ------------------------------------------------------------ the engine */

struct duck *duck_open(const char *path, char **err)
{
	struct duck *d = calloc(1, sizeof *d);

	if (!d || !(d->path = strdup(path))) {
		free(d);
		*err = sqlite3_mprintf("out of memory");
		return NULL;
	}
	return d;
}

void duck_free(struct duck *d)
{
	if (!d)
		return;
	if (d->ready) {
		DK(duckdb_disconnect)(&d->con);
		DK(duckdb_close)(&d->db);
	}
	dgvt_par_close(d->par);
	while (d->n_names)
		free(d->names[--d->n_names]);
	free(d->names);
	sqlite3_close(d->res);
	free(d->path);
	free(d);
}

static int q(struct duck *d, const char *sql, char **err)
{
	duckdb_result r;
	int bad = DK(duckdb_query)(d->con, sql, &r) == DuckDBError;

	if (bad)
		*err = sqlite3_mprintf("duckdb: %s", DK(duckdb_result_error)(&r));
	DK(duckdb_destroy_result)(&r);
	return bad ? -1 : 0;
}

static int add_function(struct duck *d, const char *name, int param,
			duckdb_table_function_bind_t bind, duckdb_table_function_init_t init,
			duckdb_table_function_init_t local, duckdb_table_function_t fn,
			int projection)
{
	duckdb_table_function f = DK(duckdb_create_table_function)();
	int bad;

	DK(duckdb_table_function_set_name)(f, name);
	if (param) {
		duckdb_logical_type t = DK(duckdb_create_logical_type)(DUCKDB_TYPE_VARCHAR);
		DK(duckdb_table_function_add_parameter)(f, t);
		DK(duckdb_destroy_logical_type)(&t);
	}
	DK(duckdb_table_function_set_extra_info)(f, d, NULL);
	DK(duckdb_table_function_set_bind)(f, bind);
	DK(duckdb_table_function_set_init)(f, init);
	if (local)
		DK(duckdb_table_function_set_local_init)(f, local);
	DK(duckdb_table_function_set_function)(f, fn);
	DK(duckdb_table_function_supports_projection_pushdown)(f, projection);
	bad = DK(duckdb_register_table_function)(d->con, f) == DuckDBError;
	DK(duckdb_destroy_table_function)(&f);
	return bad ? -1 : 0;
}

/* The trace's tables and views, by name, for the replacement scan: a
   name DuckDB does not know that is one of them reads it through
   dg_sqlite (no view made ahead: binding 40 of them cost every session
   start some 40 ms). */
static void replace_scan(duckdb_replacement_scan_info info, const char *name, void *data)
{
	struct duck *d = data;
	duckdb_value v;
	size_t i;

	for (i = 0; i < d->n_names; i++)
		if (strcasecmp(d->names[i], name) == 0)
			break;
	if (i == d->n_names)
		return;
	DK(duckdb_replacement_scan_set_function_name)(info, "dg_sqlite");
	v = DK(duckdb_create_varchar)(d->names[i]);
	DK(duckdb_replacement_scan_add_parameter)(info, v);
	DK(duckdb_destroy_value)(&v);
}

static int load_names(struct duck *d, char **err)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int rc = 0;

	if (open_sqlite(d->path, &db) != SQLITE_OK
	    || sqlite3_prepare_v2(db, "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view')"
				  " AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'", -1, &st, NULL) != SQLITE_OK) {
		*err = sqlite3_mprintf("%s: %s", d->path, db ? sqlite3_errmsg(db) : "cannot open");
		sqlite3_close(db);
		return -1;
	}
	while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		if (!name || strcasecmp(name, "accesses") == 0 || strcasecmp(name, "filtered_accesses") == 0)
			continue;
		if (d->n_names == cap) {
			char **p = realloc(d->names, (cap = cap ? 2 * cap : 64) * sizeof *p);
			if (!p) {
				rc = -1;
				break;
			}
			d->names = p;
		}
		if (!(d->names[d->n_names] = strdup(name)))
			rc = -1;
		else
			d->n_names++;
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	if (rc < 0)
		*err = sqlite3_mprintf("out of memory");
	return rc;
}

static int engine_start(struct duck *d, char **err)
{
	duckdb_config cfg;
	char *derr = NULL;

	if (d->ready)
		return 0;
	if (duck_load(err) < 0)
		return -1;
	if (DK(duckdb_create_config)(&cfg) == DuckDBError) {
		*err = sqlite3_mprintf("duckdb: out of memory");
		return -1;
	}
	/* Nothing is ever fetched at run time. */
	DK(duckdb_set_config)(cfg, "autoinstall_known_extensions", "false");
	DK(duckdb_set_config)(cfg, "autoload_known_extensions", "false");
	if (DK(duckdb_open_ext)(NULL, &d->db, cfg, &derr) == DuckDBError) {
		*err = sqlite3_mprintf("duckdb: %s", derr ? derr : "cannot open");
		DK(duckdb_free)(derr);
		DK(duckdb_destroy_config)(&cfg);
		return -1;
	}
	DK(duckdb_destroy_config)(&cfg);
	if (DK(duckdb_connect)(d->db, &d->con) == DuckDBError) {
		DK(duckdb_close)(&d->db);
		*err = sqlite3_mprintf("duckdb: cannot connect");
		return -1;
	}
	d->ready = 1;
	if (sqlite3_open(":memory:", &d->res) != SQLITE_OK) {
		*err = sqlite3_mprintf("out of memory");
		return -1;
	}
	/* SQLite's meanings: 7 / 2 is 3; NULL sorts first ascending. */
	if (q(d, "SET integer_division = true", err) < 0
	    || q(d, "SET default_null_order = 'nulls_first_on_asc_last_on_desc'", err) < 0)
		return -1;
	if (add_function(d, "dg_accesses", 0, acc_bind, acc_init, acc_local_init, acc_scan, 1) < 0
	    || add_function(d, "dg_sqlite", 1, sq_bind, sq_init, NULL, sq_scan, 1) < 0) {
		*err = sqlite3_mprintf("duckdb: cannot register the trace's table functions");
		return -1;
	}
	if (q(d, "CREATE VIEW accesses AS SELECT icount, addr, size, is_write, pc, thread, context_id,"
	      " block_id, aseq, chunk_id, module_id FROM dg_accesses()", err) < 0
	    || q(d, "CREATE VIEW filtered_accesses AS SELECT * FROM accesses", err) < 0)
		return -1;
	if (load_names(d, err) < 0)
		return -1;
	DK(duckdb_add_replacement_scan)(d->db, replace_scan, d, NULL);
	return 0;
}

/* ------------------------------------------------------------ run */

static void bind_duck(duckdb_prepared_statement p, idx_t i, const char *a)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(a, &end, 0);
	if (*a && !*end && errno == 0)
		DK(duckdb_bind_int64)(p, i, v);
	else
		DK(duckdb_bind_varchar)(p, i, a);
}

/* The result's rows into a fresh table r of the result database. */
static int copy_rows(struct duck *d, duckdb_result *r, idx_t ncol, char **err)
{
	sqlite3_str *sql = sqlite3_str_new(d->res);
	sqlite3_stmt *ins = NULL;
	char *text;
	idx_t c, k, row = 0, ch, nch = DK(duckdb_result_chunk_count)(*r);
	duckdb_type *ty = calloc(ncol + 1, sizeof *ty);
	int rc;

	sqlite3_exec(d->res, "DROP TABLE IF EXISTS r", NULL, NULL, NULL);
	sqlite3_str_appendall(sql, "CREATE TABLE r(");
	for (c = 0; c < ncol; c++)
		sqlite3_str_appendf(sql, "%sc%llu", c ? ", " : "", (unsigned long long)c);
	sqlite3_str_appendall(sql, ")");
	text = sqlite3_str_finish(sql);
	rc = text && ty ? sqlite3_exec(d->res, text, NULL, NULL, NULL) : SQLITE_NOMEM;
	sqlite3_free(text);
	sql = sqlite3_str_new(d->res);
	sqlite3_str_appendall(sql, "INSERT INTO r VALUES (");
	for (c = 0; c < ncol; c++)
		sqlite3_str_appendf(sql, "%s?", c ? ", " : "");
	sqlite3_str_appendall(sql, ")");
	text = sqlite3_str_finish(sql);
	if (rc == SQLITE_OK)
		rc = text ? sqlite3_prepare_v2(d->res, text, -1, &ins, NULL) : SQLITE_NOMEM;
	sqlite3_free(text);
	for (c = 0; c < ncol && ty; c++)
		ty[c] = DK(duckdb_column_type)(r, c);
	sqlite3_exec(d->res, "BEGIN", NULL, NULL, NULL);
	for (ch = 0; ch < nch && rc == SQLITE_OK; ch++) {
		duckdb_data_chunk chunk = DK(duckdb_result_get_chunk)(*r, ch);
		idx_t n = DK(duckdb_data_chunk_get_size)(chunk);
		for (k = 0; k < n && rc == SQLITE_OK; k++, row++) {
			for (c = 0; c < ncol; c++) {
				duckdb_vector v = DK(duckdb_data_chunk_get_vector)(chunk, c);
				uint64_t *valid = DK(duckdb_vector_get_validity)(v);
				void *data = DK(duckdb_vector_get_data)(v);
				int j = (int)c + 1;
				if (valid && !DK(duckdb_validity_row_is_valid)(valid, k)) {
					sqlite3_bind_null(ins, j);
					continue;
				}
				switch (ty[c]) {
				case DUCKDB_TYPE_BOOLEAN: sqlite3_bind_int(ins, j, ((bool *)data)[k]); break;
				case DUCKDB_TYPE_TINYINT: sqlite3_bind_int(ins, j, ((int8_t *)data)[k]); break;
				case DUCKDB_TYPE_SMALLINT: sqlite3_bind_int(ins, j, ((int16_t *)data)[k]); break;
				case DUCKDB_TYPE_INTEGER: sqlite3_bind_int(ins, j, ((int32_t *)data)[k]); break;
				case DUCKDB_TYPE_BIGINT: sqlite3_bind_int64(ins, j, ((int64_t *)data)[k]); break;
				case DUCKDB_TYPE_UTINYINT: sqlite3_bind_int(ins, j, ((uint8_t *)data)[k]); break;
				case DUCKDB_TYPE_USMALLINT: sqlite3_bind_int(ins, j, ((uint16_t *)data)[k]); break;
				case DUCKDB_TYPE_UINTEGER: sqlite3_bind_int64(ins, j, ((uint32_t *)data)[k]); break;
				case DUCKDB_TYPE_UBIGINT: {
					uint64_t u = ((uint64_t *)data)[k];
					if (u <= INT64_MAX)
						sqlite3_bind_int64(ins, j, (int64_t)u);
					else
						sqlite3_bind_double(ins, j, (double)u);
					break;
				}
				case DUCKDB_TYPE_HUGEINT: {
					duckdb_hugeint h = ((duckdb_hugeint *)data)[k];
					/* SQLite's sums are 64-bit: one that fits is an integer */
					if ((h.upper == 0 && h.lower <= INT64_MAX) || (h.upper == -1 && h.lower > INT64_MAX))
						sqlite3_bind_int64(ins, j, (int64_t)h.lower);
					else
						sqlite3_bind_double(ins, j, DK(duckdb_hugeint_to_double)(h));
					break;
				}
				case DUCKDB_TYPE_FLOAT: sqlite3_bind_double(ins, j, ((float *)data)[k]); break;
				case DUCKDB_TYPE_DOUBLE: sqlite3_bind_double(ins, j, ((double *)data)[k]); break;
				case DUCKDB_TYPE_VARCHAR: case DUCKDB_TYPE_BLOB: {
					duckdb_string_t *s = &((duckdb_string_t *)data)[k];
					uint32_t len = DK(duckdb_string_t_length)(*s);
					const char *p = DK(duckdb_string_t_data)(s);
					if (ty[c] == DUCKDB_TYPE_VARCHAR)
						sqlite3_bind_text(ins, j, p, (int)len, SQLITE_TRANSIENT);
					else
						sqlite3_bind_blob(ins, j, p, (int)len, SQLITE_TRANSIENT);
					break;
				}
				default: {
					/* dates, decimals, lists: DuckDB's text of the value */
					char *s = DK(duckdb_value_varchar)(r, c, row);
					if (ty[c] == DUCKDB_TYPE_DECIMAL)
						sqlite3_bind_double(ins, j, DK(duckdb_value_double)(r, c, row));
					else
						sqlite3_bind_text(ins, j, s ? s : "", -1, SQLITE_TRANSIENT);
					DK(duckdb_free)(s);
				}
				}
			}
			rc = sqlite3_step(ins);
			rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
			sqlite3_reset(ins);
		}
		DK(duckdb_destroy_data_chunk)(&chunk);
	}
	sqlite3_exec(d->res, rc == SQLITE_OK ? "COMMIT" : "ROLLBACK", NULL, NULL, NULL);
	sqlite3_finalize(ins);
	free(ty);
	if (rc != SQLITE_OK)
		*err = sqlite3_mprintf("keeping DuckDB's result: %s", sqlite3_errstr(rc));
	return rc == SQLITE_OK ? 0 : -1;
}

/* SELECT c0 AS "<st's first name>", ... FROM r. */
static int answer_stmt(struct duck *d, sqlite3_stmt *st, duckdb_result *r, idx_t ncol,
		       sqlite3_stmt **answer, char **err)
{
	sqlite3_str *sql = sqlite3_str_new(d->res);
	char *text;
	idx_t c;
	int rc;

	sqlite3_str_appendall(sql, "SELECT ");
	for (c = 0; c < ncol; c++) {
		const char *name = (int)ncol == sqlite3_column_count(st) ? sqlite3_column_name(st, (int)c)
				   : DK(duckdb_column_name)(r, c);
		sqlite3_str_appendf(sql, "%sc%llu AS \"%w\"", c ? ", " : "", (unsigned long long)c, name ? name : "");
	}
	sqlite3_str_appendall(sql, " FROM r");
	text = sqlite3_str_finish(sql);
	rc = text ? sqlite3_prepare_v2(d->res, text, -1, answer, NULL) : SQLITE_NOMEM;
	sqlite3_free(text);
	if (rc != SQLITE_OK)
		*err = sqlite3_mprintf("reading DuckDB's result: %s", sqlite3_errmsg(d->res));
	return rc == SQLITE_OK ? 0 : -1;
}

/* Binds, executes and keeps the rows of the prepared p; names from st
   (NULL: DuckDB's). */
static int run_prepared(struct duck *d, duckdb_prepared_statement p, sqlite3_stmt *st,
			char *const *args, int n, sqlite3_stmt **answer, char **err)
{
	duckdb_result r;
	idx_t i, np = DK(duckdb_nparams)(p), ncol;
	int rc = -1;

	for (i = 1; i <= np; i++)
		if ((int)i <= n)
			bind_duck(p, i, args[i - 1]);
		else
			DK(duckdb_bind_null)(p, i);
	if (DK(duckdb_execute_prepared)(p, &r) == DuckDBError) {
		*err = sqlite3_mprintf("duckdb: %s", DK(duckdb_result_error)(&r));
	} else {
		ncol = DK(duckdb_column_count)(&r);
		if (copy_rows(d, &r, ncol, err) == 0 && answer_stmt(d, st, &r, ncol, answer, err) == 0)
			rc = 1;
	}
	DK(duckdb_destroy_result)(&r);
	return rc;
}

int duck_run(struct duck *d, sqlite3_stmt *st, char *const *args, int n,
	     sqlite3_stmt **answer, char **err)
{
	duckdb_prepared_statement p = NULL;
	char *sql;
	int rc;

	*answer = NULL;
	if (engine_start(d, err) < 0)
		return -1;
	if (!(sql = route_rewrite(sqlite3_sql(st)))) {
		*err = sqlite3_mprintf("out of memory");
		return -1;
	}
	if (DK(duckdb_prepare)(d->con, sql, &p) == DuckDBError) {
		*err = sqlite3_mprintf("duckdb: %s", DK(duckdb_prepare_error)(p));
		DK(duckdb_destroy_prepare)(&p);
		sqlite3_free(sql);
		return -1;
	}
	sqlite3_free(sql);
	rc = run_prepared(d, p, st, args, n, answer, err);
	DK(duckdb_destroy_prepare)(&p);
	return rc;
}

int duck_script(struct duck *d, const char *sql, char *const *args, int n,
		int (*each)(void *arg, sqlite3_stmt *answer, char **err), void *arg, char **err)
{
	duckdb_extracted_statements ex = NULL;
	idx_t i, k;
	int rc = 0;

	if (engine_start(d, err) < 0)
		return -1;
	k = DK(duckdb_extract_statements)(d->con, sql, &ex);
	if (k == 0) {
		const char *m = DK(duckdb_extract_statements_error)(ex);
		if (m) {
			*err = sqlite3_mprintf("duckdb: %s", m);
			rc = -1;
		}
	}
	for (i = 0; i < k && rc == 0; i++) {
		duckdb_prepared_statement p = NULL;
		sqlite3_stmt *answer = NULL;
		if (DK(duckdb_prepare_extracted_statement)(d->con, ex, i, &p) == DuckDBError) {
			*err = sqlite3_mprintf("duckdb: %s", DK(duckdb_prepare_error)(p));
			rc = -1;
		} else if (run_prepared(d, p, NULL, args, n, &answer, err) < 0) {
			rc = -1;
		} else {
			rc = each(arg, answer, err);
		}
		sqlite3_finalize(answer);
		DK(duckdb_destroy_prepare)(&p);
	}
	DK(duckdb_destroy_extracted)(&ex);
	return rc;
}

int duck_exec(struct duck *d, const char *sql, int64_t *value, char **err)
{
	duckdb_result r;
	char *ignored = NULL;
	int bad;

	if (engine_start(d, err ? err : &ignored) < 0) {
		sqlite3_free(ignored);
		return -1;
	}
	if ((bad = DK(duckdb_query)(d->con, sql, &r) == DuckDBError) && err)
		*err = sqlite3_mprintf("duckdb: %s", DK(duckdb_result_error)(&r));
	else if (value)
		*value = DK(duckdb_column_count)(&r) && DK(duckdb_row_count)(&r) ? DK(duckdb_value_int64)(&r, 0, 0) : 0;
	DK(duckdb_destroy_result)(&r);
	return bad ? -1 : 0;
}

#endif /* DG_HAVE_DUCKDB */
