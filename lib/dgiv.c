/* dgiv.c: the icount intervals of --events user:.  See dgiv.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdlib.h>
#include <string.h>

#include "dgiv.h"
#include "dgctxset.h"
#include "dgmem.h"
#include "dgsqlfn.h"

void dgiv_free(struct dgiv *v)
{
	free(v->lo);
	free(v->hi);
	memset(v, 0, sizeof *v);
}

int dgiv_load(sqlite3 *db, const char *who, struct dgiv *v, char **err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT lo, hi FROM temp.dgf_ev_iv ORDER BY lo", -1, &st,
			       NULL) != SQLITE_OK) {
		*err = sqlite3_mprintf("%s: %s", who, sqlite3_errmsg(db));
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (dg_grow(&v->lo, &v->cap_lo, v->n + 1, sizeof *v->lo) < 0
		    || dg_grow(&v->hi, &v->cap_hi, v->n + 1, sizeof *v->hi) < 0) {
			sqlite3_finalize(st);
			*err = sqlite3_mprintf("%s: out of memory", who);
			return -1;
		}
		v->lo[v->n] = sqlite3_column_int64(st, 0);
		v->hi[v->n++] = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		*err = sqlite3_mprintf("%s: %s", who, sqlite3_errmsg(db));
		return -1;
	}
	return 0;
}

/* The index of the last interval starting at or before t, or -1. */
static long at(struct dgiv *v, int64_t t)
{
	size_t lo;

	if (v->last < v->n && v->lo[v->last] <= t
	    && (v->last + 1 == v->n || v->lo[v->last + 1] > t))
		return (long)v->last;
	/* the first interval starting after t */
	lo = t == INT64_MAX ? v->n : dg_lower_bound(v->lo, v->n, t + 1);
	if (lo == 0)
		return -1;
	v->last = lo - 1;
	return (long)(lo - 1);
}

/* Whether an access at icount t passes: DGFILTER_USER_COND. */
int dgiv_has(struct dgiv *v, int64_t t)
{
	long i = at(v, t);

	return i >= 0 && t < v->hi[i];
}

uint8_t dgiv_kind(struct dgiv *v, int64_t lo, int64_t hi)
{
	long i = at(v, lo);

	if (hi <= lo)
		return DGCTXSET_NONE;
	if (i >= 0 && hi <= v->hi[i])
		return DGCTXSET_WHOLE;
	if (i >= 0 && lo < v->hi[i])
		return DGCTXSET_PART;
	/* none holds lo: one may start inside */
	return (size_t)(i + 1) < v->n && v->lo[i + 1] < hi ? DGCTXSET_PART : DGCTXSET_NONE;
}


int dgiv_classify(sqlite3 *db, struct dgiv *v, uint8_t **kinds, int64_t *n_ids, char **err)
{
	sqlite3_stmt *st = NULL;
	int64_t n = dgsqlfn_int(db, "SELECT coalesce(max(id) + 1, 0) FROM chunks");
	uint8_t *k;
	int rc;

	*kinds = NULL;
	*err = NULL;
	if (n <= 0 || n > INT32_MAX)
		return 0;
	if (!(k = calloc((size_t)n, 1))) {
		*err = sqlite3_mprintf("out of memory");
		return -1;
	}
	if (sqlite3_prepare_v2(db, "SELECT id, icount_lo, icount_hi FROM chunks", -1, &st,
			       NULL) != SQLITE_OK) {
		rc = SQLITE_ERROR;
		goto fail;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);

		if (id >= 0 && id < n)
			k[id] = dgiv_kind(v, sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2));
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE) {
		*kinds = k;
		*n_ids = n;
		return 1;
	}
fail:
	*err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
	free(k);
	return -1;
}
