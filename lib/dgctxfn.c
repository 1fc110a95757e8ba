/* dgctxfn.c: dg_chunks and dg_chunk_in.  See dgctxfn.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifdef DGVTAB_EXTENSION
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3
#else
#include <sqlite3.h>
#endif

#include <stdint.h>
#include "dgctxfn.h"
#include "dgctxch.h"

/* A decoder on the row of argv[0..2]; 0, or -1 with the result an error
   (NULL arguments: a NULL result). */
static int row_begin(sqlite3_context *cx, sqlite3_value **argv, struct dgctxch_dec *d)
{
	int k;

	for (k = 0; k < 3; k++)
		if (sqlite3_value_type(argv[k]) == SQLITE_NULL) {
			sqlite3_result_null(cx);
			return -1;
		}
	dgctxch_begin(d, sqlite3_value_int64(argv[0]), sqlite3_value_int64(argv[1]),
		      sqlite3_value_blob(argv[2]), (size_t)sqlite3_value_bytes(argv[2]));
	return 0;
}

static void row_error(sqlite3_context *cx, const struct dgctxch_dec *d, int e)
{
	char msg[160];

	dgctxch_error(d, e, -1, msg, sizeof msg);
	sqlite3_result_error(cx, msg, -1);
}

static void fn_chunks(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	struct dgctxch_dec d;
	sqlite3_str *s;
	int64_t id;
	int e, n = 0;

	(void)argc;
	if (row_begin(cx, argv, &d) < 0)
		return;
	s = sqlite3_str_new(sqlite3_context_db_handle(cx));
	sqlite3_str_appendchar(s, 1, '[');
	while ((e = dgctxch_next(&d, &id)) == 1)
		sqlite3_str_appendf(s, n++ ? ",%lld" : "%lld", (long long)id);
	sqlite3_str_appendchar(s, 1, ']');
	if (e < 0) {
		sqlite3_free(sqlite3_str_finish(s));
		row_error(cx, &d, e);
		return;
	}
	if (sqlite3_str_errcode(s) != SQLITE_OK) {
		sqlite3_free(sqlite3_str_finish(s));
		sqlite3_result_error_nomem(cx);
		return;
	}
	sqlite3_result_text(cx, sqlite3_str_finish(s), -1, sqlite3_free);
}

static void fn_chunk_in(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	struct dgctxch_dec d;
	int64_t id, want;
	int e;

	(void)argc;
	if (row_begin(cx, argv, &d) < 0)
		return;
	want = sqlite3_value_int64(argv[3]);
	if (want < d.id || want > d.hi) {   /* outside the row: no need to decode */
		sqlite3_result_int(cx, 0);
		return;
	}
	while ((e = dgctxch_next(&d, &id)) == 1 && id < want)
		;
	if (e < 0)
		row_error(cx, &d, e);
	else
		sqlite3_result_int(cx, e == 1 && id == want);
}

int dgctxfn_register(sqlite3 *db, char **errmsg)
{
	int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
	int rc = sqlite3_create_function(db, "dg_chunks", 3, flags, NULL, fn_chunks, NULL, NULL);

	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "dg_chunk_in", 4, flags, NULL, fn_chunk_in,
					     NULL, NULL);
	if (rc != SQLITE_OK && errmsg)
		*errmsg = sqlite3_mprintf("dg_chunks: cannot register the functions: %s",
					  sqlite3_errmsg(db));
	return rc;
}
