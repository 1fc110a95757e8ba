/* terms.c: WHERE clauses the accesses table evaluates, read from SQL
 * text.  See terms.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dgfilter.h"
#include "shape.h"
#include "terms.h"

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

const char *terms_op_text(unsigned char op)
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

/* stack_filter = 'dgf_ev': dgfilter's call-stack set (dgfilter.h), the
   one name read, so that the term's text can be a constant. */
static const char *read_stack(const char *s, struct dgvtab_term *t)
{
	static const char set[] = "'" DGFILTER_STACK_SET "'";
	const char *a, *b;

	if (!(a = shape_word(s, "stack_filter")) || !((b = shape_word(a, "==")) || (b = shape_word(a, "="))))
		return NULL;
	a = b;
	while (isspace((unsigned char)*a))
		a++;
	if (strncmp(a, set, sizeof set - 1) != 0)
		return NULL;
	t->column = DGVTAB_STACK_COLUMN;
	t->op = SQLITE_INDEX_CONSTRAINT_EQ;
	t->value = 0;
	t->text = DGFILTER_STACK_SET;
	return a + sizeof set - 1;
}

/* COLUMN OP INTEGER or INTEGER OP COLUMN, or the stack set. */
static const char *read_term(const char *s, struct dgvtab_term *t)
{
	const char *a;
	int k;

	t->text = NULL;
	if ((a = read_stack(s, t)))
		return a;

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

const char *terms_read(const char *t, struct dgvtab_term *terms, int *n)
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

enum terms_filter terms_of_filter(sqlite3 *db, struct dgvtab_term *terms, int *n)
{
	const char *cond, *s, *t;
	char *view = filter_view(db, &cond);
	int k = *n, user = 0;
	enum terms_filter r = TERMS_OTHER;

	if (!view)
		return TERMS_NOT_OURS;
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
		if (!t ? shape_end(s) : (s = terms_read(t, terms, &k)) && shape_end(s)) {
			*n = k;
			r = user ? TERMS_USER : TERMS_ALL;
		}
	}
	sqlite3_free(view);
	return r;
}


int terms_have_stack(const struct dgvtab_term *terms, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (terms[i].column == DGVTAB_STACK_COLUMN)
			return 1;
	return 0;
}
