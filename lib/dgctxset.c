/* dgctxset.c: which chunks a call-stack filter takes whole.  See
 * dgctxset.h.
 *
 * Two bits per chunk while reading: "holds a context of the set" and
 * "holds a context not whole in it"; the kind follows from both.  Each
 * context's state (0 not in the set, 1 in it in part, 2 whole) is a byte.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdlib.h>
#include <string.h>

#include "dgctxch.h"
#include "dgctxset.h"
#include "dgsqlfn.h"

#define HAS_SET   1
#define HAS_OTHER 2

static int sql_err(sqlite3 *db, char **err)
{
	*err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
	return -1;
}

/* Each context's state from temp.dgf_ev_ctx: 2 whole, 1 in part. */
static int read_set(sqlite3 *db, uint8_t *state, int64_t n_ctx, char **err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT id, whole FROM temp.dgf_ev_ctx", -1, &st, NULL) != SQLITE_OK)
		return sql_err(db, err);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);

		if (id >= 0 && id < n_ctx)
			state[id] = sqlite3_column_int(st, 1) ? 2 : 1;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sql_err(db, err);
	/* a context in part whose every access is at a pc of the filter
	   (temp.dgf_ev_pcs) passes whole: the code of fn:main run by main
	   itself, whose stack above does not hold main */
	/* (NOT EXISTS, not a row value NOT IN: on pyobj's 580 k contexts and
	   65 k pcs that took 45 s, this a fraction of one) */
	if (sqlite3_prepare_v2(db, "SELECT x.id FROM temp.dgf_ev_ctx x CROSS JOIN contexts c "
	                       "ON c.id = x.id WHERE NOT x.whole AND NOT EXISTS (SELECT 1 "
	                       "FROM access_descs d WHERE d.bbdef_id = c.bbdef_id AND NOT "
	                       "EXISTS (SELECT 1 FROM temp.dgf_ev_pcs p WHERE p.pc = d.pc "
	                       "AND p.module_id = d.module_id))", -1, &st, NULL) != SQLITE_OK)
		return 0;       /* no pcs table: the parts stay parts */
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);

		if (id >= 0 && id < n_ctx)
			state[id] = 2;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_err(db, err);
}

/* Every context_chunks row: its chunks marked by its context's state. */
static int mark_chunks(sqlite3 *db, const uint8_t *state, int64_t n_ctx, uint8_t *bits,
                       int64_t n_ids, char **err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT context_id, chunk_lo, chunk_hi, data FROM context_chunks",
	                       -1, &st, NULL) != SQLITE_OK)
		return sql_err(db, err);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t ctx = sqlite3_column_int64(st, 0), id;
		uint8_t s = ctx >= 0 && ctx < n_ctx ? state[ctx] : 0;
		uint8_t mark = (s ? HAS_SET : 0) | (s != 2 ? HAS_OTHER : 0);
		struct dgctxch_dec d;
		int e;

		dgctxch_begin(&d, sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2),
		              sqlite3_column_blob(st, 3), (size_t)sqlite3_column_bytes(st, 3));
		while ((e = dgctxch_next(&d, &id)) > 0)
			if (id >= 0 && id < n_ids)
				bits[id] |= mark;
		if (e < 0) {
			char msg[200];

			dgctxch_error(&d, e, ctx, msg, sizeof msg);
			*err = sqlite3_mprintf("%s", msg);
			sqlite3_finalize(st);
			return -1;
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_err(db, err);
}

int dgctxset_classify(sqlite3 *db, uint8_t **kinds, int64_t *n_ids, char **err)
{
	uint8_t *state = NULL, *bits = NULL;
	int64_t n_ctx, n, i;
	int rc = -1;

	*kinds = NULL;
	*err = NULL;
	if (dgsqlfn_int(db, "SELECT count(*) FROM sqlite_temp_schema WHERE name = 'dgf_ev_ctx'") != 1
	    || dgsqlfn_int(db, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' "
	                   "AND name = 'context_chunks'") != 1)
		return 0;
	n_ctx = dgsqlfn_int(db, "SELECT coalesce(max(id) + 1, 0) FROM contexts");
	n = dgsqlfn_int(db, "SELECT coalesce(max(id) + 1, 0) FROM chunks");
	if (n_ctx <= 0 || n <= 0 || n_ctx > INT32_MAX || n > INT32_MAX)
		return 0;
	if (!(state = calloc((size_t)n_ctx, 1)) || !(bits = calloc((size_t)n, 1))) {
		*err = sqlite3_mprintf("out of memory");
		goto out;
	}
	if (read_set(db, state, n_ctx, err) < 0 || mark_chunks(db, state, n_ctx, bits, n, err) < 0)
		goto out;
	for (i = 0; i < n; i++)
		bits[i] = !(bits[i] & HAS_SET) ? DGCTXSET_NONE
		          : bits[i] & HAS_OTHER ? DGCTXSET_PART : DGCTXSET_WHOLE;
	*kinds = bits;
	*n_ids = n;
	bits = NULL;
	rc = 1;
out:
	free(state);
	free(bits);
	return rc;
}
