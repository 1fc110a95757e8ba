/* dgvt_plan.c: planning the `accesses` table's queries.  See dgvt_plan.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifdef DGVTAB_EXTENSION
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3
#else
#include <sqlite3.h>
#endif

#include "dgvt_plan.h"

/* Operator characters of the plan string. */
char dgvt_op_char(unsigned char op)
{
	switch (op) {
	case SQLITE_INDEX_CONSTRAINT_EQ: return '=';
	case SQLITE_INDEX_CONSTRAINT_LT: return '<';
	case SQLITE_INDEX_CONSTRAINT_LE: return 'l';
	case SQLITE_INDEX_CONSTRAINT_GT: return '>';
	case SQLITE_INDEX_CONSTRAINT_GE: return 'g';
	}
	return 0;
}

/* Which operators each column takes: 'r' ranges and =, 'e' = only. */
static const char col_ops[DGVT_N_COLS] = {
	[DGVT_COL_ICOUNT] = 'r', [DGVT_COL_ADDR] = 'r', [DGVT_COL_IS_WRITE] = 'e',
	[DGVT_COL_THREAD] = 'e', [DGVT_COL_CONTEXT] = 'e', [DGVT_COL_BLOCK] = 'e',
	[DGVT_COL_CHUNK] = 'r', [DGVT_COL_STACK] = 'e',
};

int dgvt_usable(const struct sqlite3_index_constraint *c)
{
	char o;

	if (!c->usable || c->iColumn < 0 || c->iColumn >= DGVT_N_COLS || !col_ops[c->iColumn])
		return 0;
	o = dgvt_op_char(c->op);
	return o && (o == '=' || col_ops[c->iColumn] == 'r');
}

/* The part of the trace a plan decodes, from the constraints it uses:
   bit (column * 8 + kind), kinds 1 '=', 2 lower bound, 4 upper bound. */
static double plan_fraction(const unsigned *seen)
{
	double f = 1;
	int c;

	for (c = 0; c < DGVT_N_COLS; c++) {
		unsigned s = seen[c];
		double eq, both, one;
		if (!s)
			continue;
		switch (c) {
		case DGVT_COL_ICOUNT: eq = 1e-6, both = 1e-3, one = 0.5; break;
		case DGVT_COL_ADDR: eq = 1e-4, both = 1e-3, one = 0.5; break;
		case DGVT_COL_CHUNK: eq = 1e-4, both = 1e-2, one = 0.5; break;
		case DGVT_COL_BLOCK: eq = 1e-4, both = one = 1; break;
		case DGVT_COL_CONTEXT: eq = 1e-3, both = one = 1; break;
		case DGVT_COL_THREAD: eq = 0.5, both = one = 1; break;
		case DGVT_COL_STACK: eq = 0.5, both = one = 1; break;
		default: eq = both = one = 1; break;
		}
		f *= (s & 1) ? eq : (s & 6) == 6 ? both : one;
	}
	return f;
}

/* Rows come in chunk id = icount order, accesses of an instruction in aseq
   order. */
static int order_consumed(const sqlite3_index_info *info)
{
	static const int seq[] = { DGVT_COL_CHUNK, DGVT_COL_ICOUNT, DGVT_COL_ASEQ };
	int i, s = 0;

	for (i = 0; i < info->nOrderBy; i++) {
		const struct sqlite3_index_orderby *o = &info->aOrderBy[i];
		if (o->desc)
			return 0;
		while (s < 3 && seq[s] != o->iColumn)
			s++;
		if (s == 3 || (s == 2 && (i == 0 || info->aOrderBy[i - 1].iColumn != DGVT_COL_ICOUNT)))
			return 0;
		s++;
	}
	return 1;
}

static int have_vtab_in(void)
{
	return sqlite3_libversion_number() >= 3038000;
}

int dgvt_plan_idx_num(sqlite3_uint64 used)
{
	return ((used >> DGVT_COL_BLOCK) & 1 ? DGVT_PLAN_BLOCKS : 0)
	       | ((used & ~((sqlite3_uint64)1 << DGVT_COL_BLOCK)) == 0 ? DGVT_PLAN_NO_COLUMNS : 0);
}

int dgvt_best_index(sqlite3_vtab *vtab, sqlite3_index_info *info)
{
	unsigned seen[DGVT_N_COLS] = { 0 };
	char *plan = sqlite3_malloc64(2 * (sqlite3_uint64)info->nConstraint + 1);
	double total = 1e8, frac;
	int i, n = 0, is_write = 0;

	if (!plan)
		return SQLITE_NOMEM;
	for (i = 0; i < info->nConstraint; i++) {
		const struct sqlite3_index_constraint *c = &info->aConstraint[i];
		char o;
		if (!dgvt_usable(c))
			continue;
		o = dgvt_op_char(c->op);
		if (c->iColumn == DGVT_COL_CONTEXT && have_vtab_in() && sqlite3_vtab_in(info, i, -1)) {
			sqlite3_vtab_in(info, i, 1);
			o = 'I';
		}
		plan[2 * n] = (char)('0' + c->iColumn);
		plan[2 * n + 1] = o;
		info->aConstraintUsage[i].argvIndex = ++n;
		info->aConstraintUsage[i].omit = 1;
		seen[c->iColumn] |= o == '=' || o == 'I' ? 1 : o == '>' || o == 'g' ? 2 : 4;
		is_write |= c->iColumn == DGVT_COL_IS_WRITE;
	}
	plan[2 * n] = 0;
	info->idxStr = plan;
	info->needToFreeIdxStr = 1;
	info->idxNum = dgvt_plan_idx_num(info->colUsed);
	info->orderByConsumed = order_consumed(info);
	frac = plan_fraction(seen);
	info->estimatedCost = 100 + total * frac;
	info->estimatedRows = (sqlite3_int64)(1 + total * frac * (is_write ? 0.5 : 1));
	return SQLITE_OK;
}
