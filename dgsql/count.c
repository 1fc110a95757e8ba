/* count.c: the accesses count fast path.  See count.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "count.h"
#include "dgfilter.h"
#include "dgmem.h"
#include "dgsqlfn.h"
#include "dgvtab.h"
#include "shape.h"

/* The operators, longest first so that <= is not read as <; mirror is
   the operator with its operands swapped (5 < addr is addr > 5). */
static const struct {
	const char *text;
	unsigned char op, mirror;
} ops[] = {
	{ "==", SQLITE_INDEX_CONSTRAINT_EQ, SQLITE_INDEX_CONSTRAINT_EQ },
	{ "<=", SQLITE_INDEX_CONSTRAINT_LE, SQLITE_INDEX_CONSTRAINT_GE },
	{ ">=", SQLITE_INDEX_CONSTRAINT_GE, SQLITE_INDEX_CONSTRAINT_LE },
	{ "=", SQLITE_INDEX_CONSTRAINT_EQ, SQLITE_INDEX_CONSTRAINT_EQ },
	{ "<", SQLITE_INDEX_CONSTRAINT_LT, SQLITE_INDEX_CONSTRAINT_GT },
	{ ">", SQLITE_INDEX_CONSTRAINT_GT, SQLITE_INDEX_CONSTRAINT_LT },
};
#define N_OPS (int)(sizeof ops / sizeof *ops)

/* The SQL of operator op (as read_op reads it back), or NULL. */
static const char *op_text(unsigned char op)
{
	int k;

	for (k = 0; k < N_OPS; k++)
		if (ops[k].op == op)
			return ops[k].text;
	return NULL;
}

static const char *read_column(const char *s, int *col)
{
	const char *t;

	for (*col = 0; *col < SHAPE_NCOL; (*col)++)
		if ((t = shape_word(s, shape_columns[*col])))
			return t;
	return NULL;
}

static const char *read_op(const char *s, int *k)
{
	const char *t;

	for (*k = 0; *k < N_OPS; (*k)++)
		if ((t = shape_word(s, ops[*k].text)))
			return t;
	return NULL;
}

/* An integer literal as SQLite reads it: decimal (with a sign) or 0x hex,
   within int64_t, not followed by a digit, letter or '.' (a real, or
   something else). */
static const char *read_int(const char *s, int64_t *v)
{
	const char *p;
	char *end;
	int neg = 0;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	p = s;
	errno = 0;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2])) {
		unsigned long long u = strtoull(p + 2, &end, 16);
		if (errno || u > INT64_MAX)
			return NULL;
		*v = (int64_t)u;
	} else if (isdigit((unsigned char)*p)) {
		long long x = strtoll(p, &end, 10);
		if (errno)
			return NULL;
		*v = x;
	} else {
		return NULL;
	}
	if (isalnum((unsigned char)*end) || *end == '_' || *end == '.')
		return NULL;
	if (neg)
		*v = -*v;
	return end;
}

/* COLUMN OP INTEGER or INTEGER OP COLUMN. */
static const char *read_term(const char *s, struct dgvtab_term *t)
{
	const char *a;
	int k;

	if ((a = read_column(s, &t->column)) && (a = read_op(a, &k)) && (a = read_int(a, &t->value))) {
		t->op = ops[k].op;
		return a;
	}
	if ((a = read_int(s, &t->value)) && (a = read_op(a, &k)) && (a = read_column(a, &t->column))) {
		t->op = ops[k].mirror;
		return a;
	}
	return NULL;
}

/* TERM [AND TERM]... appended to terms[*n..]: the text after them, or
   NULL when one is not a term the table takes (or there are too many). */
static const char *read_terms(const char *t, struct dgvtab_term *terms, int *n)
{
	const char *s;

	do {
		if (*n == DGVTAB_COUNT_TERMS || !(s = read_term(t, &terms[*n]))
		    || !dgvtab_term_taken(&terms[*n]))
			return NULL;
		++*n;
	} while ((t = shape_word(s, "and")));
	return s;
}

int count_parse(const char *sql, struct dgvtab_term *terms, int *n, int *view)
{
	const char *s = shape_word(sql, "select"), *t;

	*n = 0;
	if (!s || !(s = shape_word(s, "count")) || !(s = shape_word(s, "(")) || !(s = shape_word(s, "*"))
	    || !(s = shape_word(s, ")")) || !(s = shape_word(s, "from")) || !(s = shape_table(s, view)))
		return 0;
	if ((t = shape_word(s, "where")) && !(s = read_terms(t, terms, n)))
		return 0;
	return shape_end(s);
}

/* SELECT count AS "name": the name SQLite gave the original's column,
   quoted as an identifier. */
static int answer_stmt(sqlite3 *db, const char *name, int64_t count, sqlite3_stmt **answer, char **err)
{
	char *sql = sqlite3_mprintf("SELECT %lld AS \"%w\"", (long long)count, name);
	int rc;

	if (!sql) {
		*err = sqlite3_mprintf("out of memory");
		return -1;
	}
	rc = sqlite3_prepare_v2(db, sql, -1, answer, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK) {
		*err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
		return -1;
	}
	return 1;
}

/* The text of dgfilter's view filtered_accesses, when it is the one
   SQLite finds (nothing in main named so, the accesses table ours), with
   its condition after "WHERE "; else NULL.  The caller frees it. */
static char *filter_view(sqlite3 *db, const char **cond)
{
	static const char head[] = "CREATE VIEW filtered_accesses AS SELECT * FROM accesses WHERE ";
	sqlite3_stmt *q = NULL;
	char *sql = NULL;

	if (!shape_table_is_ours(db, 0)
	    || sqlite3_prepare_v2(db, "SELECT sql FROM temp.sqlite_master WHERE type = 'view' "
	                          "AND name = 'filtered_accesses' AND NOT EXISTS (SELECT 1 FROM "
	                          "main.sqlite_master WHERE name = 'filtered_accesses' "
	                          "COLLATE NOCASE)", -1, &q, NULL) != SQLITE_OK)
		return NULL;
	if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_text(q, 0)
	    && strncmp((const char *)sqlite3_column_text(q, 0), head, sizeof head - 1) == 0)
		sql = sqlite3_mprintf("%s", (const char *)sqlite3_column_text(q, 0));
	sqlite3_finalize(q);
	if (sql)
		*cond = sql + sizeof head - 1;
	return sql;
}

/* filtered_accesses counted from the summaries the filter made: the sum
   of filtered_sum_rows (dgfilter.h) when dg_summed() says it holds the
   view's counts, with the user's terms, which must all be on thread and
   is_write (its columns).  1 with *count, 0 not so (nothing done). */
static int summed_count(sqlite3 *db, const struct dgvtab_term *terms, int n, int64_t *count)
{
	sqlite3_str *q;
	sqlite3_stmt *st = NULL;
	char *sql;
	int i, ok = 0;

	if (dgsqlfn_int(db, "SELECT dg_summed()") != 1)
		return 0;
	q = sqlite3_str_new(db);
	sqlite3_str_appendall(q, "SELECT coalesce(sum(accesses), 0) FROM temp.filtered_sum_rows WHERE 1");
	for (i = 0; i < n; i++) {
		const char *col = shape_columns[terms[i].column];
		const char *op = op_text(terms[i].op);

		if ((strcmp(col, "thread") != 0 && strcmp(col, "is_write") != 0) || !op)
			break;
		sqlite3_str_appendf(q, " AND %s %s %lld", col, op, (long long)terms[i].value);
	}
	sql = sqlite3_str_finish(q);
	if (i == n && sql && sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK
	    && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_INTEGER) {
		*count = sqlite3_column_int64(st, 0);
		ok = 1;
	}
	sqlite3_finalize(st);
	sqlite3_free(sql);
	return ok;
}

/* With a filter installed: 1 when the view's condition is terms the table
   takes (--icount-range, --addr-range), added to terms[*n..]; 3 when it is
   --events user: and such terms (interval_count); 2 when it is neither but
   the summaries may count it (summed_count); 0 none of these. */
static int filter_terms(sqlite3 *db, struct dgvtab_term *terms, int *n)
{
	const char *cond, *s, *t;
	char *view = filter_view(db, &cond);
	int k = *n, r = 2, user = 0;

	if (!view)
		return 0;
	if ((s = shape_word(cond, "1")) && (t = shape_word(s, "and"))) {
		const char *u = shape_word(t, "("), *v;
		size_t len = strlen(DGFILTER_USER_COND);

		/* --events' conditions come as (0 OR A OR B ...) */
		if (u && (u = shape_word(u, "0")) && (u = shape_word(u, "or"))) {
			while (isspace((unsigned char)*u))
				u++;
			if (strncmp(u, DGFILTER_USER_COND, len) == 0
			    && (v = shape_word(u + len, ")"))) {
				user = 1;
				s = v;
				t = shape_word(s, "and");
			}
		}
		if (!t ? shape_end(s) : (s = read_terms(t, terms, &k)) && shape_end(s)) {
			*n = k;
			r = user ? 3 : 1;
		}
	}
	sqlite3_free(view);
	return r;
}

/* --events user: counted over the intervals of temp.dgf_ev_iv, each with
   the terms (dgvtab_count_in: the chunks inside an interval whole, those
   straddling it decoded).  1 with *count, -1 an error with *err, 0 not
   so (no room for two more terms). */
static int interval_count(sqlite3 *db, const struct dgvtab_term *terms, int n, int64_t *count,
                          char **err)
{
	sqlite3_stmt *q = NULL;
	int64_t *iv = NULL;
	size_t n_iv = 0, cap = 0;
	int rc;

	if (n + 2 > DGVTAB_COUNT_TERMS)
		return 0;
	if (sqlite3_prepare_v2(db, "SELECT lo, hi FROM temp.dgf_ev_iv ORDER BY lo", -1, &q,
	                       NULL) != SQLITE_OK) {
		*err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
		return -1;
	}
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (dg_grow((void **)&iv, &cap, 2 * (n_iv + 1), sizeof *iv) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		iv[2 * n_iv] = sqlite3_column_int64(q, 0);
		iv[2 * n_iv++ + 1] = sqlite3_column_int64(q, 1);
	}
	*err = rc == SQLITE_DONE ? NULL : sqlite3_mprintf("%s", rc == SQLITE_NOMEM
	                                                  ? "out of memory" : sqlite3_errmsg(db));
	sqlite3_finalize(q);
	if (rc == SQLITE_DONE && (rc = dgvtab_count_in(db, "main", terms, n, iv, n_iv, count, err))
	                         != SQLITE_OK && !*err)
		*err = sqlite3_mprintf("accesses: %s", sqlite3_errstr(rc));
	free(iv);
	return *err ? -1 : 1;
}

int count_try(sqlite3_stmt *st, sqlite3_stmt **answer, char **err)
{
	struct dgvtab_term terms[DGVTAB_COUNT_TERMS];
	const char *sql = sqlite3_sql(st), *name;
	sqlite3 *db = sqlite3_db_handle(st);
	char *msg = NULL;
	int64_t count;
	int n, view = 0, rc;

	*answer = NULL;
	if (!sql || sqlite3_column_count(st) != 1 || !(name = sqlite3_column_name(st, 0))
	    || !count_parse(sql, terms, &n, &view))
		return 0;
	if (!shape_table_is_ours(db, view)) {
		switch (view ? filter_terms(db, terms, &n) : 0) {
		case 0:
			return 0;
		case 2:
			if (!summed_count(db, terms, n, &count))
				return 0;
			return answer_stmt(db, name, count, answer, err);
		case 3:
			if ((rc = interval_count(db, terms, n, &count, err)) <= 0)
				return rc;
			return answer_stmt(db, name, count, answer, err);
		}
	}
	rc = dgvtab_count(db, "main", terms, n, &count, &msg);
	if (rc == SQLITE_MISUSE)
		return 0;
	if (rc != SQLITE_OK) {
		*err = msg ? msg : sqlite3_mprintf("accesses: %s", sqlite3_errstr(rc));
		return -1;
	}
	return answer_stmt(db, name, count, answer, err);
}
