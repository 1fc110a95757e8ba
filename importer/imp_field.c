/* imp_field.c: accesses to fields of types (see imp_field.h).
 *
 * Counts are kept per row of sum_field: a target (way, type, field,
 * variable), the function of the access and the thread.  Rows are found
 * through two interning tables (target, function) -> pair, (pair, thread)
 * -> row, each keyed exactly by dense numbers, so no two rows can merge;
 * and an access descriptor remembers the row of its last access typed by
 * a range or a variable, so an instruction that keeps touching the same
 * field (the usual case) costs a few compares.  Ways 3 and 4 count in the
 * descriptor itself and add batches (imp_field_add_n).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "imp_field.h"
#include "imp_db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dgesc.h"
#include "dgmem.h"
#include "dgsym.h"
#include "dgtypes.h"

static const char *const how_names[IMP_HOW_N] = {
	"range", "global", "alloc", "insn", "heap", "unknown"
};

struct target { uint32_t type, field, var; uint8_t how; };
struct pair { uint32_t target, fn; };
struct frow {
	uint32_t pair, thread;
	struct imp_rw rw;
	uint64_t first, last;
};
struct trange { uint64_t addr, len; uint32_t type; };

struct imp_field {
	struct dgtypes *t;
	uint8_t *mod_done;          /* dgsym module -> variables listed */
	size_t cap_mod_done;
	struct trange *ranges;      /* live typed ranges, oldest first */
	size_t cap_ranges;
	struct target *targets;
	size_t n_targets, cap_targets;
	struct pair *pairs;
	size_t n_pairs, cap_pairs;
	struct frow *rows;
	size_t n_rows, cap_rows;
	struct dghash target_ids, pair_ids, row_ids;
	uint64_t by_how[IMP_HOW_N];
	char **warned;              /* names already warned about */
	size_t n_warned, cap_warned;
};

int imp_field_init(struct importer *imp)
{
	struct imp_field *f = calloc(1, sizeof *f);
	char err[256];

	imp->fld = f;
	if (!f || dghash_init(&f->target_ids, 64) < 0 || dghash_init(&f->pair_ids, 64) < 0
	    || dghash_init(&f->row_ids, 64) < 0 || !(f->t = dgtypes_new(err, sizeof err)))
		return imp_fail(imp, "out of memory");
	return 0;
}

void imp_field_free(struct importer *imp)
{
	struct imp_field *f = imp->fld;
	size_t i;

	free(imp->fld_warn);
	imp->fld_warn = NULL;
	if (!f)
		return;
	dgtypes_free(f->t);
	free(f->mod_done);
	free(f->ranges);
	free(f->targets);
	free(f->pairs);
	free(f->rows);
	dghash_free(&f->target_ids);
	dghash_free(&f->pair_ids);
	dghash_free(&f->row_ids);
	for (i = 0; i < f->n_warned; i++)
		free(f->warned[i]);
	free(f->warned);
	free(f);
	imp->fld = NULL;
}

/* Once per name: a line in imp->fld_warn, the name (trace data) made
   inert for the terminal. */
static int warn_once(struct importer *imp, const char *what, const char *name)
{
	struct imp_field *f = imp->fld;
	size_t i, old = imp->fld_warn ? strlen(imp->fld_warn) : 0, add;
	char *w, *shown;

	for (i = 0; i < f->n_warned; i++)
		if (strcmp(f->warned[i], name) == 0)
			return 0;
	if (dg_grow((void **)&f->warned, &f->cap_warned, f->n_warned + 1, sizeof *f->warned) < 0
	    || !(f->warned[f->n_warned] = strdup(name)))
		return imp_fail(imp, "out of memory");
	f->n_warned++;
	if (!(shown = dgesc_text(name, strlen(name), 0)))
		return imp_fail(imp, "out of memory");
	add = strlen(what) + strlen(shown) + 64;
	if (!(w = realloc(imp->fld_warn, old + add))) {
		free(shown);
		return imp_fail(imp, "out of memory");
	}
	snprintf(w + old, add, "dg-import: warning: %s '%s': its fields are unknown\n", what,
	         shown);
	free(shown);
	imp->fld_warn = w;
	return 0;
}

/* ------------------------------------------------------------ modules */

int imp_field_module(struct importer *imp, int m)
{
	struct imp_field *f = imp->fld;
	size_t old;
	uint64_t bias, lo, hi;
	void *dw;

	if (!f)
		return 0;          /* --check, --no-fields: no fields */
	old = f->cap_mod_done;
	if ((size_t)m >= old) {
		if (dg_grow((void **)&f->mod_done, &f->cap_mod_done, (size_t)m + 1, 1) < 0)
			return imp_fail(imp, "out of memory");
		memset(f->mod_done + old, 0, f->cap_mod_done - old);
	}
	if (f->mod_done[m])
		return 0;
	f->mod_done[m] = 1;
	if (!(dw = dgsym_module_dwarf(imp->sym, m, &bias)))
		return 0;
	if (dgtypes_add_module(f->t, m, dw, bias) < 0)
		return imp_fail(imp, "%s", dgtypes_errmsg(f->t));
	dgtypes_var_span(f->t, &lo, &hi);
	imp->fld_lo = lo;
	imp->fld_span = hi - lo;
	imp->fld_gen++;            /* the gaps descs remember are stale */
	return 0;
}

struct dgtypes *imp_field_types(struct importer *imp)
{
	return imp->fld ? imp->fld->t : NULL;
}

/* ------------------------------------------------------------ ranges */

int imp_field_track(struct importer *imp, uint64_t addr, uint64_t len, const char *type_name,
                    uint32_t *type_id)
{
	struct imp_field *f = imp->fld;
	struct trange *r;

	*type_id = 0;
	if (!f || !type_name || !type_name[0])
		return 0;
	if (dg_grow((void **)&f->ranges, &f->cap_ranges, imp->fld_ranges + 1, sizeof *f->ranges) < 0)
		return imp_fail(imp, "out of memory");
	r = &f->ranges[imp->fld_ranges++];
	r->addr = addr;
	r->len = len;
	r->type = dgtypes_add_named(f->t, type_name);
	if (r->type == DGTYPES_NONE)
		return warn_once(imp, "DATAGRIND_TRACK_RANGE type", type_name);
	*type_id = r->type + 1;
	return 0;
}

void imp_field_untrack(struct importer *imp, uint64_t addr, uint64_t len)
{
	struct imp_field *f = imp->fld;
	size_t k;

	for (k = f ? imp->fld_ranges : 0; k-- > 0; )
		if (f->ranges[k].addr == addr && f->ranges[k].len == len) {
			memmove(f->ranges + k, f->ranges + k + 1,
			        (imp->fld_ranges - k - 1) * sizeof *f->ranges);
			imp->fld_ranges--;
			return;
		}
}

/* ------------------------------------------------------------ counting */

/* Dense id of key in h, appending a zeroed element to *arr if new. */
static long intern(struct dghash *h, uint64_t key, void **arr, size_t *n, size_t *cap,
                   size_t elem, int *added)
{
	long s = dghash_put(h, key, (uint32_t)*n, added);

	if (s < 0)
		return -1;
	if (*added) {
		if (dg_grow(arr, cap, *n + 1, elem) < 0)
			return -1;
		memset((char *)*arr + *n * elem, 0, elem);
		(*n)++;
	}
	return h->vals[s];
}

static long row_of(struct imp_field *f, int how, uint32_t type, uint32_t field, uint32_t var,
                   uint32_t fn, uint32_t thread)
{
	/* fields and types are below 2^31, variables below 2^28 */
	uint64_t tk = (uint64_t)how << 61 | (uint64_t)((var + 1) & 0x1fffffff) << 32
	            | (field != DGTYPES_NONE ? field : 0x80000000u | (type & 0x7fffffff));
	long tg, pr, rw;
	int added;

	tg = intern(&f->target_ids, tk, (void **)&f->targets, &f->n_targets, &f->cap_targets,
	            sizeof *f->targets, &added);
	if (tg < 0)
		return -1;
	if (added)
		f->targets[tg] = (struct target){ type, field, var, (uint8_t)how };
	pr = intern(&f->pair_ids, (uint64_t)tg << 32 | fn, (void **)&f->pairs, &f->n_pairs,
	            &f->cap_pairs, sizeof *f->pairs, &added);
	if (pr < 0)
		return -1;
	if (added)
		f->pairs[pr] = (struct pair){ (uint32_t)tg, fn };
	rw = intern(&f->row_ids, (uint64_t)pr << 32 | thread, (void **)&f->rows, &f->n_rows,
	            &f->cap_rows, sizeof *f->rows, &added);
	if (rw < 0)
		return -1;
	if (added) {
		f->rows[rw].pair = (uint32_t)pr;
		f->rows[rw].thread = thread;
	}
	return rw;
}

/* n accesses of d into row r, the first and last at these icounts.  A
   batch of another descriptor may have come before (imp_field_add_n): a
   thread's icounts grow, so the row's first and last are the least and
   the greatest. */
/* n accesses of d's direction and bytes, the first and last at these
   icounts, into row r. */
static void row_count(struct frow *r, const struct imp_desc *d, uint64_t n, uint64_t bytes,
                      uint64_t first, uint64_t last)
{
	if ((!r->rw.n[0] && !r->rw.n[1]) || first < r->first)
		r->first = first;
	if (last > r->last)
		r->last = last;
	imp_rw_add(&r->rw, d->is_write, n, bytes);
}

static void row_add(struct imp_field *f, struct frow *r, const struct imp_desc *d, int how,
                    uint64_t n, uint64_t first, uint64_t last)
{
	row_count(r, d, n, n * d->size, first, last);
	f->by_how[how] += n;
}

/* Ways 1 and 2: one access of d as field `field` of type `type`, variable
   var (or DGTYPES_NONE), by way `how`, in the row of d's last one if it
   is the same. */
static int field_add(struct importer *imp, struct imp_desc *d, int how, uint32_t type,
                     uint32_t field, uint32_t var, uint64_t icount)
{
	struct imp_field *f = imp->fld;

	if (!d->fld_row1 || d->fld_how != how || d->fld_field != field || d->fld_type != type
	    || d->fld_var != var || d->fld_thread != imp->run_thread) {
		long k = row_of(f, how, type, field, var, d->function, imp->run_thread);
		if (k < 0)
			return imp_fail(imp, "out of memory");
		d->fld_row1 = (uint32_t)k + 1;
		d->fld_how = (uint8_t)how;
		d->fld_type = type;
		d->fld_field = field;
		d->fld_var = var;
		d->fld_thread = imp->run_thread;
	}
	row_add(f, &f->rows[d->fld_row1 - 1], d, how, 1, icount, icount);
	return 0;
}

int imp_field_add_n(struct importer *imp, const struct imp_desc *d, int how, uint32_t type,
                    uint32_t field, uint32_t thread, uint64_t n, uint64_t first,
                    uint64_t last)
{
	struct imp_field *f = imp->fld;
	long k = row_of(f, how, type, field, DGTYPES_NONE, d->function, thread);

	if (k < 0)
		return imp_fail(imp, "out of memory");
	row_add(f, &f->rows[k], d, how, n, first, last);
	return 0;
}

int imp_field_add_part(struct importer *imp, const struct imp_desc *d, int how, uint32_t type,
                       uint32_t field, uint32_t thread, uint64_t icount)
{
	struct imp_field *f = imp->fld;
	long k = row_of(f, how, type, field, DGTYPES_NONE, d->function, thread);

	if (k < 0)
		return imp_fail(imp, "out of memory");
	row_count(&f->rows[k], d, 1, 0, icount, icount);   /* its bytes: where it starts */
	return 0;
}

/* Way 2: the variable holding a, if any: its type and field (*how global),
   or unknown if its type is. */
static uint32_t global_at(struct importer *imp, struct imp_desc *d, uint64_t a, int *how,
                          uint32_t *type, uint32_t *field)
{
	struct dgtypes *t = imp->fld->t;
	uint32_t v = DGTYPES_NONE;
	const struct dgtypes_var *x;

	if (d->fld_row1 && d->fld_var != DGTYPES_NONE) {      /* the last one? */
		x = dgtypes_var(t, d->fld_var);
		if (x && a - x->lo < x->hi - x->lo)
			v = d->fld_var;
	}
	if (v == DGTYPES_NONE && d->fld_gen == imp->fld_gen
	    && a - d->fld_gap_lo < d->fld_gap_hi - d->fld_gap_lo)
		return v;          /* in the gap it fell in last time: the heap */
	if (v == DGTYPES_NONE
	    && (v = dgtypes_var_gap(t, a, &d->fld_gap_lo, &d->fld_gap_hi)) == DGTYPES_NONE) {
		d->fld_gen = imp->fld_gen;
		return v;
	}
	*how = dgtypes_var_field(t, v, a, type, field) == 0 ? IMP_HOW_GLOBAL : IMP_HOW_UNKNOWN;
	if (*how == IMP_HOW_UNKNOWN && warn_once(imp, "variable", dgtypes_var(t, v)->name) < 0)
		*how = -1;
	return v;
}

int imp_field_access(struct importer *imp, struct imp_desc *d, uint64_t a, uint64_t icount)
{
	struct imp_field *f = imp->fld;
	uint32_t type = DGTYPES_NONE, field = DGTYPES_NONE, var = DGTYPES_NONE;
	int how = IMP_HOW_N;
	size_t k;

	for (k = imp->fld_ranges; k-- > 0; ) {       /* the newest range first */
		const struct trange *r = &f->ranges[k];
		if (a - r->addr < r->len) {
			type = r->type;
			how = type == DGTYPES_NONE ? IMP_HOW_UNKNOWN : IMP_HOW_RANGE;
			if (type != DGTYPES_NONE)
				field = dgtypes_field_at(f->t, type, a - r->addr);
			break;
		}
	}
	if (how == IMP_HOW_N && a - imp->fld_lo < imp->fld_span) {
		var = global_at(imp, d, a, &how, &type, &field);
		if (how < 0)
			return -1;
	}
	if (how == IMP_HOW_N)
		return 0;
	return field_add(imp, d, how, type, field, var, icount) < 0 ? -1 : 1;
}

/* ------------------------------------------------------------ rows */

static void bind_id(sqlite3_stmt *st, int col, uint32_t i)
{
	if (i == DGTYPES_NONE)
		sqlite3_bind_null(st, col);
	else
		sqlite3_bind_int64(st, col, (int64_t)i + 1);
}

static void bind_text(sqlite3_stmt *st, int col, const char *s)
{
	if (s)
		sqlite3_bind_text(st, col, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, col);
}

static int step(struct importer *imp, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : imp_db_fail(imp, "types and fields");
}

static int type_rows(struct importer *imp, sqlite3_stmt *st)
{
	const struct dgtypes *t = imp->fld->t;
	uint32_t i;

	for (i = 0; i < dgtypes_n_types(t); i++) {
		const struct dgtypes_type *x = dgtypes_type(t, i);
		bind_id(st, 1, i);
		bind_text(st, 2, x->name);
		sqlite3_bind_int64(st, 3, (int64_t)x->size);
		bind_id(st, 4, (uint32_t)x->module);
		bind_text(st, 5, x->file);
		if (x->line)
			sqlite3_bind_int(st, 6, x->line);
		else
			sqlite3_bind_null(st, 6);
		if (step(imp, st) < 0)
			return -1;
	}
	return 0;
}

static int field_rows(struct importer *imp, sqlite3_stmt *st)
{
	const struct dgtypes *t = imp->fld->t;
	uint32_t i;

	for (i = 0; i < dgtypes_n_fields(t); i++) {
		const struct dgtypes_field *x = dgtypes_field(t, i);
		bind_id(st, 1, i);
		bind_id(st, 2, x->type);
		bind_text(st, 3, x->path);
		bind_text(st, 4, x->type_name);
		sqlite3_bind_int64(st, 5, (int64_t)x->offset);
		sqlite3_bind_int64(st, 6, (int64_t)x->size);
		if (x->bit_size) {
			sqlite3_bind_int(st, 7, (int)x->bit_offset);
			sqlite3_bind_int(st, 8, (int)x->bit_size);
		} else {
			sqlite3_bind_null(st, 7);
			sqlite3_bind_null(st, 8);
		}
		if (x->stride) {
			sqlite3_bind_int64(st, 9, (int64_t)x->stride);
			sqlite3_bind_int64(st, 10, (int64_t)x->array_end);
		} else {
			sqlite3_bind_null(st, 9);
			sqlite3_bind_null(st, 10);
		}
		if (step(imp, st) < 0)
			return -1;
	}
	return 0;
}

/* The variables some access was attributed to (INSERT OR IGNORE: once). */
static int var_rows(struct importer *imp, sqlite3_stmt *st)
{
	const struct imp_field *f = imp->fld;
	size_t i;

	for (i = 0; i < f->n_targets; i++) {
		const struct target *g = &f->targets[i];
		const struct dgtypes_var *v = dgtypes_var(f->t, g->var);
		if (!v)
			continue;
		bind_id(st, 1, g->var);
		bind_text(st, 2, v->name);
		bind_id(st, 3, (uint32_t)v->module);
		sqlite3_bind_int64(st, 4, (int64_t)v->lo);
		sqlite3_bind_int64(st, 5, (int64_t)(v->hi - v->lo));
		bind_id(st, 6, g->type);
		if (step(imp, st) < 0)
			return -1;
	}
	return 0;
}

static int sum_rows(struct importer *imp, sqlite3_stmt *st)
{
	const struct imp_field *f = imp->fld;
	size_t i;

	for (i = 0; i < f->n_rows; i++) {
		const struct frow *r = &f->rows[i];
		const struct pair *p = &f->pairs[r->pair];
		const struct target *g = &f->targets[p->target];
		bind_id(st, 1, g->type);
		bind_id(st, 2, g->field);
		bind_id(st, 3, g->var);
		if (p->fn)
			sqlite3_bind_int64(st, 4, p->fn);
		else
			sqlite3_bind_null(st, 4);
		sqlite3_bind_int64(st, 5, r->thread);
		sqlite3_bind_text(st, 6, how_names[g->how], -1, SQLITE_STATIC);
		imp_rw_bind(st, 7, &r->rw);
		sqlite3_bind_int64(st, 11, (int64_t)r->first);
		sqlite3_bind_int64(st, 12, (int64_t)r->last);
		if (step(imp, st) < 0)
			return -1;
	}
	return 0;
}

static const struct {
	const char *sql;
	int (*rows)(struct importer *, sqlite3_stmt *);
} writers[] = {
	{ "INSERT INTO types VALUES (?1, ?2, ?3, ?4, ?5, ?6)", type_rows },
	{ "INSERT INTO fields VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)", field_rows },
	{ "INSERT OR IGNORE INTO variables VALUES (?1, ?2, ?3, ?4, ?5, ?6)", var_rows },
	{ "INSERT INTO sum_field VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
	  sum_rows },
};

static int how_meta(struct importer *imp)
{
	const struct imp_field *f = imp->fld;
	uint64_t typed = 0;
	char key[32];
	int h;

	for (h = 0; h < IMP_HOW_N; h++) {
		snprintf(key, sizeof key, "fields_%s", how_names[h]);
		if (imp_db_meta(imp, key, NULL, (int64_t)f->by_how[h]) < 0)
			return -1;
		typed += f->by_how[h];
	}
	if (imp_db_meta(imp, "heap_accesses", NULL, (int64_t)imp->heap_accesses) < 0
	    || imp_db_meta(imp, "heap_accesses_typed", NULL, (int64_t)imp->heap_typed) < 0)
		return -1;
	return imp_db_meta(imp, "fields_untyped", NULL, (int64_t)(imp->accesses - typed));
}

int imp_field_finish(struct importer *imp)
{
	sqlite3_stmt *st;
	size_t i;
	int rc;

	if (!imp->fld)             /* --no-fields */
		return 0;
	for (i = 0; i < sizeof writers / sizeof *writers; i++) {
		if (sqlite3_prepare_v2(imp->db, writers[i].sql, -1, &st, NULL) != SQLITE_OK)
			return imp_db_fail(imp, "prepare");
		rc = writers[i].rows(imp, st);
		sqlite3_finalize(st);
		if (rc < 0)
			return -1;
	}
	return how_meta(imp);
}
