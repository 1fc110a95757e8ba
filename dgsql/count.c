/* count.c: the accesses count fast path.  See count.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdlib.h>
#include <string.h>

#include "count.h"
#include "dgmem.h"
#include "dgsqlfn.h"
#include "dgvtab.h"
#include "shape.h"
#include "terms.h"

int count_parse(const char *sql, struct dgvtab_term *terms, int *n, int *view)
{
	const char *s = shape_word(sql, "select"), *t;

	*n = 0;
	if (!s || !(s = shape_word(s, "count")) || !(s = shape_word(s, "(")) || !(s = shape_word(s, "*"))
	    || !(s = shape_word(s, ")")) || !(s = shape_word(s, "from")) || !(s = shape_table(s, view)))
		return 0;
	if ((t = shape_word(s, "where")) && !(s = terms_read(t, terms, n)))
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
		const char *op = terms_op_text(terms[i].op);

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
	int n, n_user, view = 0, rc;

	*answer = NULL;
	if (!sql || sqlite3_column_count(st) != 1 || !(name = sqlite3_column_name(st, 0))
	    || !count_parse(sql, terms, &n, &view))
		return 0;
	if (!shape_table_is_ours(db, view)) {
		n_user = n;
		switch (view ? terms_of_filter(db, terms, &n) : TERMS_NOT_OURS) {
		case TERMS_NOT_OURS:
			return 0;
		case TERMS_ALL:
			/* a call-stack set: the summaries first, else decoding
			   (the table evaluates the set in C) */
			if (terms_have_stack(terms, n) && summed_count(db, terms, n_user, &count))
				return answer_stmt(db, name, count, answer, err);
			break;
		case TERMS_OTHER:
			if (!summed_count(db, terms, n_user, &count))
				return 0;
			return answer_stmt(db, name, count, answer, err);
		case TERMS_USER:
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
