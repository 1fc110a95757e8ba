/* export.c: the accesses export fast path.  See export.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dgvtab.h"
#include "export.h"
#include "shape.h"
#include "terms.h"

#define NCOL SHAPE_NCOL
#define columns shape_columns

/* Whether sql is SELECT * FROM [main.]accesses or filtered_accesses
   [LIMIT n] [;]; *limit gets n, or -1, *view whether it is the view. */
static int is_export(const char *sql, long long *limit, int *view)
{
	const char *s = shape_word(sql, "select"), *t;
	char *end;

	*limit = -1;
	if (!s || !(s = shape_word(s, "*")) || !(s = shape_word(s, "from")) || !(s = shape_table(s, view)))
		return 0;
	if ((t = shape_word(s, "limit"))) {
		while (isspace((unsigned char)*t))
			t++;
		if (!isdigit((unsigned char)*t))
			return 0;
		errno = 0;
		*limit = strtoll(t, &end, 10);
		if (errno)
			return 0;
		s = end;
	}
	return shape_end(s);
}

static int names_match(sqlite3_stmt *st)
{
	int i;

	if (sqlite3_column_count(st) != NCOL)
		return 0;
	for (i = 0; i < NCOL; i++) {
		const char *n = sqlite3_column_name(st, i);
		if (!n || strcmp(n, columns[i]) != 0)
			return 0;
	}
	return 1;
}

/* dgvtab_scan's callback: each row to the renderer; stops when out of
   memory. */
static int put_rows(void *arg, const struct dgvtab_row *rows, size_t n)
{
	struct render_ints *r = arg;
	unsigned char null[NCOL] = { 0 };
	int64_t v[NCOL];
	size_t k;

	for (k = 0; k < n; k++) {
		const struct dgvtab_row *x = &rows[k];

		v[0] = x->icount, v[1] = x->addr, v[2] = x->size;
		v[3] = x->is_write, v[4] = x->pc, v[5] = x->thread;
		v[6] = x->context_id, v[7] = x->block_id, v[8] = x->aseq;
		v[9] = x->chunk_id, v[10] = x->module_id;
		null[7] = !x->has_block;
		if (render_ints_row(r, v, null) < 0)
			return 1;
	}
	return 0;
}

int export_try(sqlite3_stmt *st, enum render_mode m, int headers, FILE *out,
	       long *nrows, char **err)
{
	const char *sql = sqlite3_sql(st);
	sqlite3 *db = sqlite3_db_handle(st);
	struct render_ints *r;
	long long limit;
	char *msg = NULL;
	struct dgvtab_term terms[DGVTAB_COUNT_TERMS];
	int rc, n = 0, view = 0;

	*nrows = 0;
	if (!render_ints_mode(m) || !sql || !is_export(sql, &limit, &view) || !names_match(st))
		return 0;
	/* the view of a filter whose condition the table takes: its terms */
	if (!shape_table_is_ours(db, view) && (!view || terms_of_filter(db, terms, &n) != TERMS_ALL))
		return 0;
	r = render_ints_begin(m, headers, out, columns, NCOL);
	if (!r) {
		*err = sqlite3_mprintf("out of memory");
		return -1;
	}
	rc = dgvtab_scan(db, "main", terms, n, limit, put_rows, r, &msg);
	if (render_ints_end(r, nrows) < 0 && rc == SQLITE_OK) {
		*err = sqlite3_mprintf("out of memory");
		return -1;
	}
	if (rc != SQLITE_OK) {
		*err = msg ? msg : sqlite3_mprintf("accesses: %s", sqlite3_errstr(rc));
		return -1;
	}
	return 1;
}
