/* count.c: the accesses count fast path.  See count.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "count.h"
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

int count_parse(const char *sql, struct dgvtab_term *terms, int *n, int *view)
{
	const char *s = shape_word(sql, "select"), *t;

	*n = 0;
	if (!s || !(s = shape_word(s, "count")) || !(s = shape_word(s, "(")) || !(s = shape_word(s, "*"))
	    || !(s = shape_word(s, ")")) || !(s = shape_word(s, "from")) || !(s = shape_table(s, view)))
		return 0;
	if ((t = shape_word(s, "where"))) {
		do {
			if (*n == DGVTAB_COUNT_TERMS || !(t = read_term(t, &terms[*n]))
			    || !dgvtab_term_taken(&terms[*n]))
				return 0;
			++*n;
			s = t;
		} while ((t = shape_word(s, "and")));
	}
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
	    || !count_parse(sql, terms, &n, &view) || !shape_table_is_ours(db, view))
		return 0;
	rc = dgvtab_count(db, "main", terms, n, &count, &msg);
	if (rc == SQLITE_MISUSE)
		return 0;
	if (rc != SQLITE_OK) {
		*err = msg ? msg : sqlite3_mprintf("accesses: %s", sqlite3_errstr(rc));
		return -1;
	}
	return answer_stmt(db, name, count, answer, err);
}
