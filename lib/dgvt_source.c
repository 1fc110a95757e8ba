/* dgvt_source.c: which chunks an `accesses` cursor reads.  See
 * dgvt_source.h.
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
#include <stdlib.h>
#include "dgvt_db.h"
#include "dgvt_filter.h"
#include "dgvt_model.h"
#include "dgvt_source.h"
#include "dgctxch.h"
#include "dgmem.h"

/* Regions (64 KiB) an address range may span and still go through
   chunk_regions. */
#define MAX_REGIONS 4096

/* ------------------------------------------------------------ choosing */

static int64_t count_of(struct dgvt *t, const char *fmt, int64_t a, int64_t b, int *rc)
{
	sqlite3_stmt *st;
	int64_t n = 0;

	if ((*rc = dgvt_cached(&t->d, &st, fmt)) != SQLITE_OK)
		return 0;
	sqlite3_bind_int64(st, 1, a);
	sqlite3_bind_int64(st, 2, b);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	else
		*rc = dgvt_sql_error(&t->d, "counting chunks");
	dgvt_done(&t->d, st);
	return n;
}

static int ids_cmp(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;

	return a < b ? -1 : a > b;
}

static void ids_sort_unique(struct dgvt_source *s)
{
	size_t i, n = 0;

	if (s->n_ids == 0)
		return;
	dg_sort(s->ids, s->n_ids, sizeof *s->ids, ids_cmp);
	for (i = 0; i < s->n_ids; i++)
		if (i == 0 || s->ids[i] != s->ids[i - 1])
			s->ids[n++] = s->ids[i];
	s->n_ids = n;
}

/* Append the chunk ids a query gives (?1, ?2 bound to a, b; ?3, ?4, if
   it has them, to the chunk id bounds). */
static int ids_append(struct dgvt *t, struct dgvt_source *s, const struct dgvt_filter *f,
		      const char *fmt, int64_t a, int64_t b)
{
	sqlite3_stmt *st;
	int rc = dgvt_cached(&t->d, &st, fmt);

	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_int64(st, 1, a);
	sqlite3_bind_int64(st, 2, b);
	if (sqlite3_bind_parameter_count(st) == 4) {
		sqlite3_bind_int64(st, 3, f->ch_lo);
		sqlite3_bind_int64(st, 4, f->ch_hi);
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (dgvt_grow(&s->ids, &s->cap_ids, s->n_ids + 1, sizeof *s->ids) != SQLITE_OK) {
			rc = SQLITE_NOMEM;
			break;
		}
		s->ids[s->n_ids++] = sqlite3_column_int64(st, 0);
	}
	dgvt_done(&t->d, st);
	if (rc == SQLITE_DONE)
		return SQLITE_OK;
	return rc == SQLITE_NOMEM ? rc : dgvt_sql_error(&t->d, "choosing chunks");
}

/* (schema 10 and older; ?2 unused) within the chunk id bounds: a seek a context, so that
   `chunk_id >= X` on a filter of thousands of contexts does not list
   every chunk of each */
static const char sql_ctx_chunks[] =
	"SELECT chunk_id FROM \"%w\".chunk_contexts WHERE context_id = ?1"
	" AND ?2 = ?2 AND chunk_id BETWEEN ?3 AND ?4";

/* (schema 11 on) the rows of a context that reach into the chunk id
   bounds ?2, ?3 */
static const char sql_ctx_rows[] =
	"SELECT chunk_lo, chunk_hi, data FROM \"%w\".context_chunks WHERE context_id = ?1"
	" AND chunk_hi >= ?2 AND chunk_lo <= ?3";

/* The ids of one context_chunks row within the chunk id bounds. */
static int ids_of_row(struct dgvt *t, struct dgvt_source *s, const struct dgvt_filter *f,
		      sqlite3_stmt *st, int64_t ctx)
{
	struct dgctxch_dec d;
	int64_t id;
	int e;
	char msg[160];

	dgctxch_begin(&d, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
		      sqlite3_column_blob(st, 2), (size_t)sqlite3_column_bytes(st, 2));
	while ((e = dgctxch_next(&d, &id)) == 1) {
		if (id < f->ch_lo)
			continue;
		if (id > f->ch_hi)
			return SQLITE_OK;
		if (dgvt_grow(&s->ids, &s->cap_ids, s->n_ids + 1, sizeof *s->ids) != SQLITE_OK)
			return SQLITE_NOMEM;
		s->ids[s->n_ids++] = id;
	}
	if (e == 0)
		return SQLITE_OK;
	dgctxch_error(&d, e, ctx, msg, sizeof msg);
	return dgvt_error(&t->d, SQLITE_CORRUPT_VTAB, "accesses: %s", msg);
}

/* The chunks of context ctx from its context_chunks rows. */
static int ids_from_rows(struct dgvt *t, struct dgvt_source *s, const struct dgvt_filter *f,
			 int64_t ctx)
{
	sqlite3_stmt *st;
	int rc = dgvt_cached(&t->d, &st, sql_ctx_rows);

	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_int64(st, 1, ctx);
	sqlite3_bind_int64(st, 2, f->ch_lo);
	sqlite3_bind_int64(st, 3, f->ch_hi);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if ((rc = ids_of_row(t, s, f, st, ctx)) != SQLITE_OK)
			break;
	dgvt_done(&t->d, st);
	if (rc == SQLITE_DONE)
		return SQLITE_OK;
	return rc == SQLITE_NOMEM || rc == SQLITE_CORRUPT_VTAB ? rc
	       : dgvt_sql_error(&t->d, "choosing chunks");
}

/* The chunks holding runs of the selected contexts. */
static int ids_from_contexts(struct dgvt *t, struct dgvt_source *s, const struct dgvt_filter *f)
{
	size_t k;
	int rc = SQLITE_OK;

	for (k = 0; k < t->m.n_ctx && rc == SQLITE_OK; k++)
		if (f->ctx_set[k >> 3] & (1u << (k & 7)))
			rc = t->m.ctx_blobs ? ids_from_rows(t, s, f, (int64_t)k)
			     : ids_append(t, s, f, sql_ctx_chunks, (int64_t)k, 0);
	return rc;
}

/* Keep the ids (sorted, unique) that a second sorted list also has. */
static void ids_intersect(struct dgvt_source *s, size_t split)
{
	size_t i = 0, j = split, n = 0;

	while (i < split && j < s->n_ids) {
		if (s->ids[i] < s->ids[j])
			i++;
		else if (s->ids[i] > s->ids[j])
			j++;
		else
			s->ids[n++] = s->ids[i++], j++;
	}
	s->n_ids = n;
}

static const char sql_regions_count[] =
	"SELECT count(*) FROM \"%w\".chunk_regions WHERE region BETWEEN ?1 AND ?2";
static const char sql_regions[] =
	"SELECT chunk_id FROM \"%w\".chunk_regions WHERE region BETWEEN ?1 AND ?2";
static const char sql_icount_count[] =
	"SELECT count(*) FROM \"%w\".chunks WHERE icount_lo >= coalesce("
	"(SELECT icount_lo FROM \"%w\".chunks WHERE icount_lo <= ?1 ORDER BY icount_lo DESC LIMIT 1), ?1)"
	" AND icount_lo <= ?2";

static const char sql_block_chunks[] =
	"SELECT chunk_id, accesses FROM \"%w\".sum_block_chunks WHERE block_id = ?1"
	" ORDER BY chunk_id";

/* The chunks holding the block's accesses (after a context list, if any:
   then their intersection), with their counts in cnts when alone. */
static int ids_block(struct dgvt *t, struct dgvt_source *s, const struct dgvt_filter *f)
{
	sqlite3_stmt *st;
	size_t split = s->n_ids;
	int rc = dgvt_cached(&t->d, &st, sql_block_chunks);

	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_int64(st, 1, f->block);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t n = sqlite3_column_int64(st, 1);
		if (n < 1 || n > DGVT_BC_MAX) {
			rc = dgvt_error(&t->d, SQLITE_CORRUPT_VTAB, "accesses: sum_block_chunks: block %lld, chunk %lld:"
			              " %lld accesses, not 1 to %d", (long long)f->block,
			              (long long)sqlite3_column_int64(st, 0), (long long)n, DGVT_BC_MAX);
			break;
		}
		if (dgvt_grow(&s->ids, &s->cap_ids, s->n_ids + 1, sizeof *s->ids) != SQLITE_OK
		    || dgvt_grow(&s->cnts, &s->cap_cnts, s->n_ids + 1, sizeof *s->cnts) != SQLITE_OK) {
			rc = SQLITE_NOMEM;
			break;
		}
		s->cnts[s->n_ids] = n;
		s->ids[s->n_ids++] = sqlite3_column_int64(st, 0);
	}
	dgvt_done(&t->d, st);
	if (rc == SQLITE_CORRUPT_VTAB)
		return rc;
	if (rc != SQLITE_DONE)
		return rc == SQLITE_NOMEM ? rc : dgvt_sql_error(&t->d, "choosing chunks");
	if (s->list_mode)
		ids_intersect(s, split);
	s->list_mode = 1;
	return SQLITE_OK;
}

/* Whether the address range can go through chunk_regions. */
static int regions_usable(const struct dgvt_filter *f)
{
	return f->a_lo >= 0 && f->a_hi != INT64_MAX
	       && (f->a_hi >> 16) - (f->a_lo >> 16) < MAX_REGIONS;
}

/* The chunks the scan's caller picked (struct dgvt's pick), within the
   chunk_id range, in id order: the candidates in place of the contexts'
   (the runs are checked against the set as they are decoded anyway). */
static int ids_picked(struct dgvt *t, struct dgvt_source *s, const struct dgvt_filter *f)
{
	int64_t id = f->ch_lo > 0 ? f->ch_lo : 0, end = f->ch_hi < t->n_pick ? f->ch_hi + 1 : t->n_pick;

	for (; id < end; id++)
		if (t->pick[id]) {
			if (dgvt_grow(&s->ids, &s->cap_ids, s->n_ids + 1, sizeof *s->ids) != SQLITE_OK)
				return SQLITE_NOMEM;
			s->ids[s->n_ids++] = id;
		}
	return SQLITE_OK;
}

/* Build the list of candidate chunks from contexts and regions, each
   sorted; with both, their intersection; the caller's picked chunks
   instead of the contexts' when it picked.  Sets list_mode when a list
   applies. */
int dgvt_source_list(struct dgvt *t, struct dgvt_source *s, const struct dgvt_filter *f)
{
	int rc = SQLITE_OK;
	size_t split;

	s->n_ids = 0;
	s->list_mode = 0;
	/* a few chunk ids asked (a plot decodes the chunks a filter takes in
	   part, a stretch at a time): scanning them costs less than reading
	   the chunk lists of every context of the set, and the runs are
	   checked against the set as they are decoded anyway */
	if (t->pick) {
		if ((rc = ids_picked(t, s, f)) != SQLITE_OK)
			return rc;
		s->list_mode = 1;
	} else if (f->has_ctx && !(f->ch_lo != INT64_MIN && f->ch_hi >= f->ch_lo
	                           && (uint64_t)f->ch_hi - (uint64_t)f->ch_lo < 64)) {
		if ((rc = ids_from_contexts(t, s, f)) != SQLITE_OK)
			return rc;
		ids_sort_unique(s);
		s->list_mode = 1;
	}
	if (f->block_summed)  /* the block's own chunks: fewer than regions' */
		return ids_block(t, s, f);
	if (!regions_usable(f))
		return SQLITE_OK;
	if (s->list_mode) {
		int64_t n = count_of(t, sql_regions_count, f->a_lo >> 16, f->a_hi >> 16, &rc);
		if (rc != SQLITE_OK || (size_t)n > 4 * s->n_ids + 64)
			return rc;
	}
	split = s->n_ids;
	if ((rc = ids_append(t, s, f, sql_regions, f->a_lo >> 16, f->a_hi >> 16)) != SQLITE_OK)
		return rc;
	if (s->n_ids > split) {  /* sort the region ids after the context ids */
		int64_t *all = s->ids;
		size_t n_all = s->n_ids;
		s->ids += split, s->n_ids -= split;
		ids_sort_unique(s);
		n_all = split + s->n_ids;
		s->ids = all, s->n_ids = n_all;
	}
	if (s->list_mode)
		ids_intersect(s, split);
	s->list_mode = 1;
	return SQLITE_OK;
}

static const char sql_scan_id[] =
	"SELECT id, thread, icount_lo, icount_hi, addr_lo, addr_hi, data FROM \"%w\".chunks"
	" WHERE id BETWEEN ?1 AND ?2 ORDER BY id";
static const char sql_scan_ic[] =
	"SELECT id, thread, icount_lo, icount_hi, addr_lo, addr_hi, data FROM \"%w\".chunks"
	" WHERE icount_lo >= coalesce((SELECT icount_lo FROM \"%w\".chunks WHERE icount_lo <= ?1"
	" ORDER BY icount_lo DESC LIMIT 1), ?1) AND icount_lo <= ?2 ORDER BY icount_lo, id";
static const char sql_fetch[] =
	"SELECT id, thread, icount_lo, icount_hi, addr_lo, addr_hi, data FROM \"%w\".chunks"
	" WHERE id = ?1";

/* A cursor's statement, prepared once and reset for each use. */
static int prepare2(struct dgvt *t, sqlite3_stmt **st, const char *fmt)
{
	if (*st)
		return sqlite3_reset(*st), SQLITE_OK;
	return dgvt_prepare(&t->d, st, fmt);
}

int dgvt_source_fetch_list(struct dgvt *t, struct dgvt_source *s)
{
	s->use_allow = 0;
	return prepare2(t, &s->fetch, sql_fetch);
}

/* Pick the source of chunks: the list, a scan by icount (keeping the list,
   if any, as a filter), or a scan by id. */
int dgvt_source_choose(struct dgvt *t, struct dgvt_source *s, const struct dgvt_filter *f)
{
	int icount_bounded = f->ic_lo != INT64_MIN || f->ic_hi != INT64_MAX;
	int rc = dgvt_source_list(t, s, f);

	if (rc != SQLITE_OK)
		return rc;
	s->pos = 0;
	s->use_allow = 0;
	if (s->list_mode && icount_bounded && s->n_ids > 16) {
		int64_t n = count_of(t, sql_icount_count, f->ic_lo, f->ic_hi, &rc);
		if (rc != SQLITE_OK)
			return rc;
		if ((size_t)n < s->n_ids)
			s->list_mode = 0, s->use_allow = 1;
	}
	if (s->list_mode) {
		s->src = NULL;
		return dgvt_source_fetch_list(t, s);
	}
	if (icount_bounded) {
		rc = prepare2(t, &s->scan_ic, sql_scan_ic);
		s->src = s->scan_ic;
		sqlite3_bind_int64(s->src, 1, f->ic_lo);
		sqlite3_bind_int64(s->src, 2, f->ic_hi);
	} else {
		rc = prepare2(t, &s->scan_id, sql_scan_id);
		s->src = s->scan_id;
		sqlite3_bind_int64(s->src, 1, f->ch_lo);
		sqlite3_bind_int64(s->src, 2, f->ch_hi);
	}
	return rc;
}

static const char sql_id_count[] =
	"SELECT count(*) FROM \"%w\".chunks WHERE id >= ?1 AND id <= ?2";

int dgvt_source_estimate(struct dgvt *t, const struct dgvt_source *s,
			 const struct dgvt_filter *f, int64_t *chunks)
{
	int rc = SQLITE_OK;

	if (s->list_mode)
		*chunks = (int64_t)s->n_ids;
	else if (s->src == s->scan_ic)
		*chunks = count_of(t, sql_icount_count, f->ic_lo, f->ic_hi, &rc);
	else
		*chunks = count_of(t, sql_id_count, f->ch_lo, f->ch_hi, &rc);
	if (s->use_allow && (int64_t)s->n_ids < *chunks)
		*chunks = (int64_t)s->n_ids;
	return rc;
}

/* ------------------------------------------------------------ stepping */

/* Whether chunk id is in the scan's half (struct dgvt's parity). */
static int in_half(const struct dgvt *t, int64_t id)
{
	return t->parity == 0 || (id & 1) == t->parity - 1;
}

static int in_ids(const struct dgvt_source *s, int64_t id)
{
	size_t k = dg_lower_bound(s->ids, s->n_ids, id);

	return k < s->n_ids && s->ids[k] == id;
}

/* Whether a chunk row (id, thread, icount_lo, icount_hi, addr_lo,
   addr_hi) can hold a matching access.  addr_lo/addr_hi are used only when
   they are ordered as signed numbers, as the filter compares. */
static int chunk_may_match(const struct dgvt_source *s, const struct dgvt_filter *f,
			   sqlite3_stmt *st)
{
	int64_t id = sqlite3_column_int64(st, 0);
	int64_t ilo = sqlite3_column_int64(st, 2), ihi = sqlite3_column_int64(st, 3);
	int64_t alo = sqlite3_column_int64(st, 4), ahi = sqlite3_column_int64(st, 5);

	if (id < f->ch_lo || id > f->ch_hi || ihi <= f->ic_lo || ilo > f->ic_hi)
		return 0;
	if (f->has_thread && sqlite3_column_int64(st, 1) != f->thread)
		return 0;
	if (alo <= ahi && (ahi < f->a_lo || alo > f->a_hi))
		return 0;
	return !s->use_allow || in_ids(s, id);
}

/* Step the source to its next chunk row; *row 0 at the end. */
static int source_step(struct dgvt *t, struct dgvt_source *s, const struct dgvt_filter *f,
		       sqlite3_stmt **st)
{
	int rc;

	if (!s->list_mode) {
		*st = s->src;
		rc = sqlite3_step(s->src);
	} else {
		do {
			/* ids outside the chunk_id bounds: not even fetched */
			while (s->pos < s->n_ids && (s->ids[s->pos] < f->ch_lo
						     || s->ids[s->pos] > f->ch_hi
						     || !in_half(t, s->ids[s->pos])))
				s->pos++;
			if (s->pos == s->n_ids)
				return *st = NULL, SQLITE_OK;
			*st = s->fetch;
			sqlite3_reset(s->fetch);
			sqlite3_bind_int64(s->fetch, 1, s->ids[s->pos++]);
			rc = sqlite3_step(s->fetch);
		} while (rc == SQLITE_DONE);
	}
	if (rc == SQLITE_DONE)
		return *st = NULL, SQLITE_OK;
	return rc == SQLITE_ROW ? SQLITE_OK : dgvt_sql_error(&t->d, "reading chunks");
}

int dgvt_source_next(struct dgvt *t, struct dgvt_source *s, const struct dgvt_filter *f,
		     sqlite3_stmt **st)
{
	int rc;

	do {
		if ((rc = source_step(t, s, f, st)) != SQLITE_OK || !*st)
			return rc;
	} while (!chunk_may_match(s, f, *st) || !in_half(t, sqlite3_column_int64(*st, 0)));
	return SQLITE_OK;
}

void dgvt_source_free(struct dgvt_source *s)
{
	sqlite3_finalize(s->scan_id);
	sqlite3_finalize(s->scan_ic);
	sqlite3_finalize(s->fetch);
	sqlite3_free(s->ids);
	sqlite3_free(s->cnts);
}
