/* dgvt_filter.c: the `accesses` cursor's filter from xFilter's
 * arguments.  See dgvt_filter.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifdef DGVTAB_EXTENSION
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3
#else
#include <sqlite3.h>
#endif

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "dgvt_db.h"
#include "dgvt_filter.h"
#include "dgvt_model.h"
#include "dgvt_plan.h"
#include "dgmem.h"

/* ------------------------------------------------------------ values */

/* Narrow [*lo, *hi] by "column OP v" as SQLite compares an INTEGER column
   (numeric text converted, a number below any text, NULL matching
   nothing).  Returns 1 when nothing can match. */
static int narrow(sqlite3_value *v, char op, int64_t *lo, int64_t *hi)
{
	int64_t l = INT64_MIN, h = INT64_MAX;
	int type = sqlite3_value_numeric_type(v);

	if (type == SQLITE_NULL)
		return 1;
	if (type == SQLITE_TEXT || type == SQLITE_BLOB)
		return !(op == '<' || op == 'l');
	if (type == SQLITE_INTEGER) {
		int64_t x = sqlite3_value_int64(v);
		if ((op == '<' && x == INT64_MIN) || (op == '>' && x == INT64_MAX))
			return 1;
		l = op == '=' || op == 'g' ? x : op == '>' ? x + 1 : l;
		h = op == '=' || op == 'l' ? x : op == '<' ? x - 1 : h;
	} else {
		const double two63 = 9223372036854775808.0;
		double d = sqlite3_value_double(v), dl, dh;
		if (isnan(d))
			return 1;
		dl = op == '=' || op == 'g' ? ceil(d) : op == '>' ? floor(d) + 1 : -INFINITY;
		dh = op == '=' || op == 'l' ? floor(d) : op == '<' ? ceil(d) - 1 : INFINITY;
		if (dl >= two63 || dh < -two63)
			return 1;
		l = dl < -two63 ? INT64_MIN : (int64_t)dl;
		h = dh >= two63 ? INT64_MAX : (int64_t)dh;
	}
	if (l > *lo)
		*lo = l;
	if (h < *hi)
		*hi = h;
	return *lo > *hi;
}

/* One value of an = constraint as an integer; 1 when nothing matches. */
static int equal_int(sqlite3_value *v, int64_t *x)
{
	int64_t lo = INT64_MIN, hi = INT64_MAX;

	if (narrow(v, '=', &lo, &hi))
		return 1;
	*x = lo;
	return 0;
}

/* ------------------------------------------------------------ context_id */

static int ctx_add(struct dgvt_filter *f, const struct dgvt_model *m, sqlite3_value *v)
{
	int64_t x;

	if (equal_int(v, &x) || x < 0 || (uint64_t)x >= m->n_ctx)
		return SQLITE_OK;
	f->ctx_set[x >> 3] |= (uint8_t)(1u << (x & 7));
	return SQLITE_OK;
}

/* context_id = v, or every value of an IN list. */
static int filter_ctx(struct dgvt_filter *f, const struct dgvt_model *m, sqlite3_value *v, char op)
{
	size_t bytes = m->n_ctx / 8 + 1;
	sqlite3_value *x;
	int rc = SQLITE_OK;

	if (!f->has_ctx) {
		sqlite3_free(f->ctx_set);
		f->ctx_set = sqlite3_malloc64(bytes);
		if (!f->ctx_set)
			return SQLITE_NOMEM;
		memset(f->ctx_set, 0, bytes);
		f->has_ctx = 1;
	} else {
		/* a second context constraint: keep the intersection */
		uint8_t *old = f->ctx_set;
		f->ctx_set = NULL;
		f->has_ctx = 0;
		if ((rc = filter_ctx(f, m, v, op)) == SQLITE_OK) {
			size_t i;
			for (i = 0; i < bytes; i++)
				f->ctx_set[i] &= old[i];
		}
		sqlite3_free(old);
		return rc;
	}
	if (op != 'I')
		return ctx_add(f, m, v);
	for (rc = sqlite3_vtab_in_first(v, &x); rc == SQLITE_OK && x; rc = sqlite3_vtab_in_next(v, &x))
		ctx_add(f, m, x);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* ------------------------------------------------------------ stack_filter */

/* A code address of stack_filter's P_pcs(pc, module_id). */
struct code { int64_t pc, module; };

static int code_cmp(const void *pa, const void *pb)
{
	const struct code *a = pa, *b = pb;

	if (a->pc != b->pc)
		return a->pc < b->pc ? -1 : 1;
	return a->module < b->module ? -1 : a->module > b->module;
}

/* A statement over one of stack_filter's tables: fmt with P for %w. */
static int stack_prepare(struct dgvt *t, const char *fmt, const char *p,
			 sqlite3_stmt **st)
{
	char *sql = sqlite3_mprintf(fmt, p);
	int rc;

	if (!sql)
		return SQLITE_NOMEM;
	rc = sqlite3_prepare_v2(t->d.db, sql, -1, st, NULL);
	sqlite3_free(sql);
	return rc == SQLITE_OK ? rc : dgvt_sql_error(&t->d, "reading stack_filter's tables");
}

/* The code addresses of table temp.P_pcs, sorted, into *out
   (sqlite3_free). */
static int stack_pcs(struct dgvt *t, const char *p, struct code **out, size_t *n)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc = stack_prepare(t, "SELECT pc, module_id FROM temp.\"%w_pcs\"", p, &st);

	*out = NULL;
	*n = 0;
	if (rc != SQLITE_OK)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap && dgvt_grow(out, &cap, *n + 1, sizeof **out) != SQLITE_OK) {
			rc = SQLITE_NOMEM;
			break;
		}
		(*out)[*n].pc = sqlite3_column_int64(st, 0);
		(*out)[(*n)++].module = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		sqlite3_free(*out);
		*out = NULL;
		return rc == SQLITE_NOMEM ? rc : dgvt_sql_error(&t->d, "reading stack_filter's pcs");
	}
	dg_sort(*out, *n, sizeof **out, code_cmp);
	return SQLITE_OK;
}

/* Marks the contexts of temp.P_ctx(id, whole) in set (and, whole, in
   whole). */
static int stack_ctx(struct dgvt *t, const char *p, uint8_t *set, uint8_t *whole)
{
	sqlite3_stmt *st;
	int rc = stack_prepare(t, "SELECT id, whole FROM temp.\"%w_ctx\"", p, &st);

	if (rc != SQLITE_OK)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t x = sqlite3_column_int64(st, 0);

		if (sqlite3_column_type(st, 0) != SQLITE_INTEGER || x < 0
		    || (uint64_t)x >= t->m.n_ctx)
			continue;
		set[x >> 3] |= (uint8_t)(1u << (x & 7));
		if (sqlite3_column_int64(st, 1))
			whole[x >> 3] |= (uint8_t)(1u << (x & 7));
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : dgvt_sql_error(&t->d, "reading stack_filter's contexts");
}

/* stack_filter = P: only the contexts of temp.P_ctx, and in those not
   marked whole only the accesses whose (pc, module_id) is in temp.P_pcs. */
static int filter_stack(struct dgvt *t, struct dgvt_filter *f, sqlite3_value *v)
{
	const char *p = (const char *)sqlite3_value_text(v);
	size_t bytes = t->m.n_ctx / 8 + 1, i, n;
	uint8_t *set;
	struct code *pcs, key;
	int rc;

	if (!p || f->has_stack)
		return f->empty = 1, SQLITE_OK;   /* NULL; or two: not ours */
	set = sqlite3_malloc64(bytes);
	sqlite3_free(f->whole_set);
	sqlite3_free(f->desc_ok);
	f->whole_set = sqlite3_malloc64(bytes);
	f->desc_ok = sqlite3_malloc64(t->m.n_descs + 1);
	if (!set || !f->whole_set || !f->desc_ok) {
		sqlite3_free(set);
		return SQLITE_NOMEM;
	}
	memset(set, 0, bytes);
	memset(f->whole_set, 0, bytes);
	f->has_stack = 1;
	if ((rc = stack_ctx(t, p, set, f->whole_set)) != SQLITE_OK
	    || (rc = stack_pcs(t, p, &pcs, &n)) != SQLITE_OK) {
		sqlite3_free(set);
		return rc;
	}
	for (i = 0; i < t->m.n_descs; i++) {
		key.pc = t->m.descs[i].pc;
		key.module = t->m.descs[i].module;
		f->desc_ok[i] = n && bsearch(&key, pcs, n, sizeof *pcs, code_cmp);
	}
	sqlite3_free(pcs);
	if (f->has_ctx)         /* with a context_id constraint: both */
		for (i = 0; i < bytes; i++)
			f->ctx_set[i] &= set[i];
	else {
		sqlite3_free(f->ctx_set);
		f->ctx_set = set, set = NULL;
		f->has_ctx = 1;
	}
	sqlite3_free(set);
	return SQLITE_OK;
}

/* ------------------------------------------------------------ block_id */

/* block_id = X: only X's addresses during X's life. */
static const char sql_block[] =
	"SELECT addr, size, alloc_icount, free_icount, reads + writes FROM \"%w\".blocks WHERE id = ?1";

static int filter_block(struct dgvt *t, struct dgvt_filter *f)
{
	sqlite3_stmt *st;
	int rc = dgvt_cached(&t->d, &st, sql_block);

	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_int64(st, 1, f->block);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		struct dgvt_blk k;
		int64_t lo, hi, free_ic;
		int64_t size = sqlite3_column_int64(st, 1);
		k.addr = sqlite3_column_int64(st, 0);
		/* as dgvt_model.c loads it: a block reaching past INT64_MAX ends there */
		lo = k.addr;
		hi = size <= 0 ? lo : k.addr > INT64_MAX - size ? INT64_MAX : k.addr + (size - 1);
		f->empty |= size <= 0;
		if (lo > f->a_lo) f->a_lo = lo;
		if (hi < f->a_hi) f->a_hi = hi;
		lo = sqlite3_column_int64(st, 2);
		free_ic = sqlite3_column_type(st, 3) == SQLITE_NULL ? INT64_MAX : sqlite3_column_int64(st, 3);
		free_ic = free_ic == INT64_MIN ? free_ic : free_ic - 1;
		if (lo > f->ic_lo) f->ic_lo = lo;
		if (free_ic < f->ic_hi) f->ic_hi = free_ic;
		f->empty |= f->a_lo > f->a_hi || f->ic_lo > f->ic_hi;
		f->block_summed = sqlite3_column_int64(st, 4) >= DGVT_BC_MIN;
		rc = SQLITE_OK;
	} else if (rc == SQLITE_DONE) {
		f->empty = 1;
		rc = SQLITE_OK;
	} else {
		rc = dgvt_sql_error(&t->d, "looking up the block");
	}
	dgvt_done(&t->d, st);
	if (rc == SQLITE_OK && f->block_summed)
		rc = dgvt_have_bc(&t->d, &f->block_summed);
	return rc;
}

/* ------------------------------------------------------------ the filter */

static void filter_reset(struct dgvt_filter *f)
{
	uint8_t *set = f->ctx_set, *whole = f->whole_set, *ok = f->desc_ok;

	memset(f, 0, sizeof *f);
	f->ctx_set = set;
	f->whole_set = whole;
	f->desc_ok = ok;
	f->ic_lo = f->a_lo = f->ch_lo = INT64_MIN;
	f->ic_hi = f->a_hi = f->ch_hi = INT64_MAX;
	f->is_write = -1;
}

/* One argument of xFilter into the filter. */
static int filter_arg(struct dgvt *t, struct dgvt_filter *f, int col, char op, sqlite3_value *v)
{
	int64_t x = 0;

	switch (col) {
	case DGVT_COL_ICOUNT: f->empty |= narrow(v, op, &f->ic_lo, &f->ic_hi); break;
	case DGVT_COL_ADDR: f->empty |= narrow(v, op, &f->a_lo, &f->a_hi); break;
	case DGVT_COL_CHUNK: f->empty |= narrow(v, op, &f->ch_lo, &f->ch_hi); break;
	case DGVT_COL_IS_WRITE:
		if (equal_int(v, &x) || (x != 0 && x != 1) || (f->is_write >= 0 && f->is_write != x))
			f->empty = 1;
		f->is_write = (int)x;
		break;
	case DGVT_COL_THREAD:
		if (equal_int(v, &x) || (f->has_thread && f->thread != x))
			f->empty = 1;
		f->thread = x, f->has_thread = 1;
		break;
	case DGVT_COL_BLOCK:
		if (equal_int(v, &x) || (f->has_block && f->block != x))
			f->empty = 1;
		f->block = x, f->has_block = 1;
		break;
	case DGVT_COL_CONTEXT:
		return filter_ctx(f, &t->m, v, op);
	case DGVT_COL_STACK:
		return filter_stack(t, f, v);
	}
	return SQLITE_OK;
}

int dgvt_filter_build(struct dgvt *t, struct dgvt_filter *f, const char *plan,
		      int argc, sqlite3_value **argv)
{
	int i, rc = SQLITE_OK;

	filter_reset(f);
	for (i = 0; i < argc && rc == SQLITE_OK; i++)
		rc = filter_arg(t, f, plan[2 * i] - '0', plan[2 * i + 1], argv[i]);
	if (rc == SQLITE_OK && f->has_block && !f->empty)
		rc = filter_block(t, f);
	f->open = f->is_write < 0 && f->ic_lo == INT64_MIN && f->ic_hi == INT64_MAX
		  && f->a_lo == INT64_MIN && f->a_hi == INT64_MAX && !f->has_stack && !f->has_block;
	return rc;
}

void dgvt_filter_free(struct dgvt_filter *f)
{
	sqlite3_free(f->ctx_set);
	sqlite3_free(f->whole_set);
	sqlite3_free(f->desc_ok);
}
