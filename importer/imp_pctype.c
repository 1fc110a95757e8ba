/* imp_pctype.c: struct fields from the accessing instruction and from the
 * heap block (see imp_pctype.h).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdlib.h>
#include <string.h>
#include "imp_pctype.h"
#include "imp_db.h"
#include "imp_field.h"
#include "dgmem.h"
#include "dgpctype.h"
#include "dgsym.h"
#include "dgtypes.h"

/* An allocation site: its type by allocation (apct: pct index + 1, from
   byte abase of the block, with the evidence; asked at its first block),
   the majority vote of its blocks (the pct index + 1 leading, by how much)
   and what its blocks were typed by. */
struct site_vote {
	int64_t stack;
	uint32_t apct, abase, evidence;   /* evidence: index in alloc_ev + 1 */
	int asked;
	uint32_t pct, votes;
	uint64_t voted, by_site, other;   /* blocks: site_types */
	uint64_t elements;                /* of every typed block, or 0 */
	int mixed;                        /* blocks of different element counts */
};

/* A site_fields row: accesses to one field of the site's typed blocks. */
struct site_field {
	int64_t stack;
	uint32_t type, field;      /* dgtypes; field DGTYPES_NONE: padding */
	uint64_t blocks, reads, writes;
};

/* The answer dgpctype_alloc_at gave for one frame pc (the call of an
   allocator): asked once per pc, however many stacks hold it. */
struct alloc_answer {
	uint8_t how;               /* enum dgpctype_alloc_how */
	uint32_t apct, abase, evidence;
};

struct imp_pctype {
	struct dgpctype *res;
	struct dgtypes *types;     /* imp_field's: one table of types */
	struct dghash pc_at;       /* (pc, module) -> index in pcts + 1, 0: untyped */
	size_t cap_pcts;
	struct dghash site_at;     /* alloc stack id -> index in sites */
	struct site_vote *sites;
	size_t n_sites, cap_sites;
	struct dghash sf_at;       /* (site, field) -> index in sf */
	struct site_field *sf;
	size_t n_sf, cap_sf;
	uint32_t *touched;         /* per field of the block's type: sf index + 1 */
	size_t cap_touched;
	uint32_t **off_fields;     /* per type (of size <= IMP_PCT_TABLE): the
	                              field at each offset, made on first use */
	size_t cap_off_fields;
	struct dghash alloc_at;    /* (frame pc, module) -> index in answers */
	struct alloc_answer *answers;
	size_t n_answers, cap_answers;
	char **alloc_ev;           /* the evidence texts */
	size_t n_ev, cap_ev;
	struct {                   /* the last block freed: realloc's old one? */
		uint64_t icount;
		int64_t stack;
		uint32_t thread, apct, abase;
		int valid;
	} freed;
};

/* Frames of an allocation stack asked, at most, going up past wrappers. */
#define IMP_ALLOC_UP 6

/* Types up to this size get an offset -> field table for the block
   histograms (which cover blocks of up to 1024 bytes). */
#define IMP_PCT_TABLE 4096

/* A field of this type (as dgtypes writes it) is storage, not a value: an
   array of bytes (libstdc++'s __aligned_buffer in map and hash nodes, a
   char payload[]). */
static int raw_bytes(const char *type)
{
	static const char *const raw[] = { "unsigned char[", "char[", "std::byte[",
					   "signed char[" };
	size_t i;

	for (i = 0; type && i < sizeof raw / sizeof *raw; i++)
		if (strncmp(type, raw[i], strlen(raw[i])) == 0)
			return 1;
	return 0;
}

/* Where field f of a type, holding offset off, ends there (a member of a
   folded array of structs: in off's element); padding: off + 1. */
static uint64_t field_end(const struct dgtypes *types, uint32_t f, uint64_t off)
{
	const struct dgtypes_field *x;
	uint64_t end;

	if (f == DGTYPES_NONE)
		return off + 1;
	x = dgtypes_field(types, f);
	end = x->stride && off >= x->offset ? off - (off - x->offset) % x->stride + x->size
	      : x->offset + x->size;
	return end > off ? end : off + 1;   /* nested folded arrays: not known */
}

static const char *const via_name[] = {
	[DGPCTYPE_REGISTER] = "register",
	[DGPCTYPE_STACK] = "stack",
	[DGPCTYPE_TRACKED] = "tracked",
};

int imp_pctype_init(struct importer *imp)
{
	char err[256];
	struct imp_pctype *p = calloc(1, sizeof *p);

	if (!p)
		return imp_fail(imp, "out of memory");
	imp->pct = p;
	p->types = imp_field_types(imp);
	if (!(p->res = dgpctype_new(err, sizeof err)))
		return imp_fail(imp, "struct fields: %s", err);
	if (dghash_init(&p->pc_at, 4096) < 0 || dghash_init(&p->site_at, 256) < 0
	    || dghash_init(&p->sf_at, 256) < 0 || dghash_init(&p->alloc_at, 256) < 0)
		return imp_fail(imp, "out of memory");
	return 0;
}

void imp_pctype_free(struct importer *imp)
{
	struct imp_pctype *p = imp->pct;
	size_t i;

	if (!p)
		return;
	dgpctype_free(p->res);
	dghash_free(&p->pc_at);
	dghash_free(&p->site_at);
	dghash_free(&p->sf_at);
	dghash_free(&p->alloc_at);
	free(p->answers);
	for (i = 0; i < p->n_ev; i++)
		free(p->alloc_ev[i]);
	free(p->alloc_ev);
	free(p->sites);
	free(p->sf);
	free(p->touched);
	for (i = 0; i < p->cap_off_fields; i++)
		free(p->off_fields[i]);
	free(p->off_fields);
	free(p);
	free(imp->pcts);
	imp->pcts = NULL;
	imp->n_pcts = 0;
	imp->pct = NULL;
}

static int pc_row(struct importer *imp, const struct imp_desc *d, const struct imp_pct *t,
		  int via)
{
	const struct dgtypes_type *ty = dgtypes_type(imp->pct->types, t->type);
	sqlite3_stmt *st = imp_db_stmt(imp, ST_PCTYPE,
		"INSERT INTO pc_types VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, (int64_t)d->pc);
	sqlite3_bind_int64(st, 2, d->module);
	sqlite3_bind_text(st, 3, ty->name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, (int64_t)ty->size);
	sqlite3_bind_int64(st, 5, (int64_t)t->offset);
	if (t->field != DGTYPES_NONE)
		sqlite3_bind_text(st, 6, dgtypes_field(imp->pct->types, t->field)->path, -1,
				  SQLITE_STATIC);
	sqlite3_bind_text(st, 7, via_name[via], -1, SQLITE_STATIC);
	return imp_db_step(imp, st);
}

/* The answer for d's pc: index in pcts + 1, or 0 if untyped. */
static int resolve(struct importer *imp, const struct imp_desc *d, uint32_t *out)
{
	struct imp_pctype *p = imp->pct;
	struct dgpctype_res r;
	struct imp_pct *t;
	Dwfl_Module *dm;
	Dwarf_Die fn;
	uint64_t addr;
	uint32_t ty;
	int m = dgsym_module_at(imp->sym, d->pc), how;

	*out = 0;
	if (m < 0 || !p->types || !dgsym_function_at(imp->sym, d->pc, &dm, &addr, &fn))
		return 0;
	if ((how = dgpctype_at(p->res, dm, &fn, addr, &r)) < 0)
		return imp_fail(imp, "out of memory");
	/* imp_sym added module m to the types when its code first ran */
	if (how == DGPCTYPE_NONE || (ty = dgtypes_add_offset(p->types, m, r.type)) == DGTYPES_NONE)
		return 0;      /* no usable type (or out of memory: fewer fields) */
	if (dg_grow(&imp->pcts, &p->cap_pcts, imp->n_pcts + 1, sizeof *imp->pcts) < 0)
		return imp_fail(imp, "out of memory");
	t = &imp->pcts[imp->n_pcts];
	t->type = ty;
	t->size = dgtypes_type(p->types, ty)->size;
	t->offset = r.offset % t->size;    /* dgtypes may size it otherwise */
	t->field = dgtypes_field_at(p->types, ty, t->offset);
	t->flat = dgtypes_type(p->types, ty)->n_fields == 0;
	/* a scalar has one field: nothing to cover */
	t->fend = t->flat ? UINT64_MAX : field_end(p->types, t->field, t->offset);
	*out = (uint32_t)++imp->n_pcts;
	return pc_row(imp, d, t, how);
}

int imp_pctype_desc(struct importer *imp, struct imp_desc *d)
{
	struct imp_pctype *p = imp->pct;
	uint64_t key;
	uint32_t v;
	int added;

	d->pct = 0;
	if (!p)         /* --check: nothing is written */
		return 0;
	key = d->pc ^ (uint64_t)d->module << 48;   /* user pcs are below 2^48 */
	v = dghash_get(&p->pc_at, key);
	if (v == DGHASH_NONE) {
		if (resolve(imp, d, &v) < 0)
			return -1;
		if (dghash_put(&p->pc_at, key, v, &added) < 0)
			return imp_fail(imp, "out of memory");
	}
	d->pct = v;
	return 0;
}

/* ---------------------------------------------------------------- blocks */

/* The site's vote record (made on first use), or NULL if out of memory. */
static struct site_vote *site_of(struct importer *imp, int64_t stack)
{
	struct imp_pctype *p = imp->pct;
	uint32_t i = dghash_get(&p->site_at, (uint64_t)stack);
	int added;

	if (i != DGHASH_NONE)
		return &p->sites[i];
	if (dg_grow(&p->sites, &p->cap_sites, p->n_sites + 1, sizeof *p->sites) < 0
	    || dghash_put(&p->site_at, (uint64_t)stack, (uint32_t)p->n_sites, &added) < 0)
		return NULL;
	memset(&p->sites[p->n_sites], 0, sizeof *p->sites);
	p->sites[p->n_sites].stack = stack;
	return &p->sites[p->n_sites++];
}

void imp_pctype_site_vote(struct importer *imp, const struct imp_block *x)
{
	struct site_vote *s = imp->pct && x->alloc_stack >= 0 ? site_of(imp, x->alloc_stack) : NULL;

	if (!s)                 /* no site known (or out of memory) */
		return;
	if (s->votes == 0 || imp->pcts[s->pct - 1].type == imp->pcts[x->vtype - 1].type) {
		s->pct = x->vtype;
		s->votes++;
	} else {
		s->votes--;
	}
}

/* A pcts entry for the type at DIE offset die of module m (found by
   dgpctype_alloc_at): its index + 1, or 0 (no usable type). */
static uint32_t alloc_pct(struct importer *imp, int m, uint64_t die)
{
	struct imp_pctype *p = imp->pct;
	struct imp_pct *t;
	uint32_t ty = dgtypes_add_offset(p->types, m, die);

	if (ty == DGTYPES_NONE || !dgtypes_type(p->types, ty)->size
	    || dg_grow(&imp->pcts, &p->cap_pcts, imp->n_pcts + 1, sizeof *imp->pcts) < 0)
		return 0;
	t = &imp->pcts[imp->n_pcts];
	t->type = ty;
	t->size = dgtypes_type(p->types, ty)->size;
	t->offset = 0;
	t->field = DGTYPES_NONE;
	t->fend = UINT64_MAX;      /* field_at's, per access */
	t->flat = dgtypes_type(p->types, ty)->n_fields == 0;
	return (uint32_t)++imp->n_pcts;
}

/* What the call at frame pc makes of the block (asked once per pc): an
   answer, or NULL (out of memory: imp->err). */
static const struct alloc_answer *alloc_frame(struct importer *imp, uint64_t pc)
{
	struct imp_pctype *p = imp->pct;
	struct dgpctype_alloc a;
	struct alloc_answer *r;
	Dwfl_Module *dm;
	Dwarf_Die fn;
	uint64_t addr, key;
	uint32_t i;
	int m = dgsym_module_at(imp->sym, pc), added;

	key = pc ^ (uint64_t)(uint32_t)(m + 1) << 48;
	if ((i = dghash_get(&p->alloc_at, key)) != DGHASH_NONE)
		return &p->answers[i];
	if (dg_grow(&p->answers, &p->cap_answers, p->n_answers + 1, sizeof *p->answers) < 0
	    || dghash_put(&p->alloc_at, key, (uint32_t)p->n_answers, &added) < 0) {
		imp_fail(imp, "out of memory");
		return NULL;
	}
	r = &p->answers[p->n_answers++];
	memset(r, 0, sizeof *r);
	if (m < 0 || !dgsym_function_at(imp->sym, pc, &dm, &addr, &fn))
		return r;
	if (dgpctype_alloc_at(p->res, dm, &fn, addr, &a) < 0) {
		imp_fail(imp, "out of memory");
		return NULL;
	}
	r->how = (uint8_t)a.how;
	if (a.how != DGPCTYPE_ALLOC_TYPED)
		return r;
	r->abase = (uint32_t)a.base;
	if (a.base > UINT32_MAX / 2 || !(r->apct = alloc_pct(imp, m, a.type))) {
		r->how = DGPCTYPE_ALLOC_NONE;
		return r;
	}
	if (dg_grow(&p->alloc_ev, &p->cap_ev, p->n_ev + 1, sizeof *p->alloc_ev) < 0
	    || !(p->alloc_ev[p->n_ev] = strdup(a.evidence))) {
		imp_fail(imp, "out of memory");
		return NULL;
	}
	r->evidence = (uint32_t)++p->n_ev;
	return r;
}

/* The site's type by allocation: its innermost frame's answer, or, where
   that frame only returns the block (a wrapper), its caller's. */
static int alloc_site(struct importer *imp, struct site_vote *s, const uint64_t *frames,
		      uint64_t n)
{
	const struct alloc_answer *r;
	uint64_t k;

	s->asked = 1;
	for (k = 0; k < n && k < IMP_ALLOC_UP; k++) {
		if (!(r = alloc_frame(imp, frames[k])))
			return -1;
		if (r->how == DGPCTYPE_ALLOC_TYPED) {
			s->apct = r->apct;
			s->abase = r->abase;
			s->evidence = r->evidence;
		}
		if (r->how != DGPCTYPE_ALLOC_UP)
			break;
	}
	return 0;
}

void imp_pctype_site_unvote(struct importer *imp, const struct imp_block *x)
{
	struct site_vote *s = imp->pct && x->alloc_stack >= 0 ? site_of(imp, x->alloc_stack) : NULL;

	if (!s || s->votes == 0 || imp->pcts[s->pct - 1].type != imp->pcts[x->vtype - 1].type)
		return;
	if (--s->votes == 0)
		s->pct = 0;
}

/* Aggregate small is a view of big's start: each of its fields is one of
   big's, at the same offset and of the same size (a base class, a first
   member, a common initial sequence). */
static int is_prefix(struct imp_pctype *p, uint32_t small, uint32_t big)
{
	const struct dgtypes_type *s = dgtypes_type(p->types, small);
	uint32_t i, f;

	if (s->size > dgtypes_type(p->types, big)->size)
		return 0;
	for (i = 0; i < s->n_fields; i++) {
		const struct dgtypes_field *a = dgtypes_field(p->types, s->first_field + i), *b;

		f = dgtypes_field_at(p->types, big, a->offset);
		if (f == DGTYPES_NONE || (b = dgtypes_field(p->types, f))->offset != a->offset
		    || b->size != a->size)
			return 0;
	}
	return 1;
}

/* Votes of two types in one block.  A scalar view (bytes hashed, words
   copied) never unseats a struct; a struct replaces a scalar leader; a
   struct that is the start of the other (the tree code's node base, the
   node's own code) agrees with it, and the larger leads.  Anything else
   is two types: the block is typed by no vote, and its site vote goes. */
void imp_pctype_vote_other(struct importer *imp, struct imp_block *x, uint32_t pct)
{
	const struct imp_pct *lead = x->vtype ? &imp->pcts[x->vtype - 1] : NULL;
	const struct imp_pct *vote = &imp->pcts[pct - 1];

	if (x->vmixed || !lead)
		return;
	if (vote->flat && !lead->flat)
		return;
	if (lead->flat && !vote->flat) {
		x->vtype = pct;
		x->votes = 1;
		return;
	}
	if (!lead->flat && is_prefix(imp->pct, vote->type, lead->type)) {
		x->votes++;
		return;
	}
	if (!lead->flat && is_prefix(imp->pct, lead->type, vote->type)) {
		x->vtype = pct;
		x->votes++;
		return;
	}
	imp_pctype_site_unvote(imp, x);
	x->vmixed = 1;          /* two types: a wrong guess is worse than none */
	x->votes = 0;
	x->vtype = 0;
}

void imp_pctype_block_freed(struct importer *imp, const struct imp_block *x)
{
	struct imp_pctype *p = imp->pct;

	if (!p)
		return;
	p->freed.valid = x->apct != 0;
	p->freed.icount = x->free_icount;
	p->freed.stack = x->free_stack;
	p->freed.thread = x->free_thread;
	p->freed.apct = x->apct;
	p->freed.abase = x->abase;
}

/* Block x typed by allocation: pcts entry apct (index + 1) from byte
   abase.  An array of the type, or one of it with more after (a flexible
   array member): typed where the type says; a block smaller than the type
   is not one. */
static void alloc_type(struct importer *imp, struct imp_block *x, uint32_t apct, uint32_t abase)
{
	const struct imp_pct *t = &imp->pcts[apct - 1];
	uint64_t span;

	if (x->size < abase + t->size)
		return;
	span = x->size - abase;
	x->apct = apct;
	x->abase = abase;
	x->alimit = span % t->size == 0 ? span : t->size;
}

/* Block x is realloc's new block (the old one freed at the same
   instruction by the same call, which a realloc alone does) whose old
   block had a type by allocation: the type stays. */
static void realloc_type(struct importer *imp, struct imp_block *x)
{
	struct imp_pctype *p = imp->pct;

	if (p->freed.valid && p->freed.icount == x->alloc_icount && p->freed.stack == x->alloc_stack
	    && p->freed.thread == x->alloc_thread)
		alloc_type(imp, x, p->freed.apct, p->freed.abase);
}

int imp_pctype_block_new(struct importer *imp, struct imp_block *x, const uint64_t *frames,
			 uint64_t n)
{
	struct site_vote *s = imp->pct && x->alloc_stack >= 0 ? site_of(imp, x->alloc_stack) : NULL;

	x->votes = 0;
	x->vmixed = 0;
	x->vtype = s && s->votes > 0 ? s->pct : 0;
	x->apct = 0;
	if (!s)
		return imp->pct && x->alloc_stack >= 0 ? imp_fail(imp, "out of memory") : 0;
	if (!s->asked && alloc_site(imp, s, frames, n) < 0)
		return -1;
	if (s->apct)
		alloc_type(imp, x, s->apct, s->abase);
	else
		realloc_type(imp, x);
	return 0;
}

/* The block's type as a pct index + 1 (0: none): its own votes' winner,
   else its site's; counted for its site. */
static uint32_t block_type(struct importer *imp, const struct imp_block *x)
{
	struct site_vote *s = x->alloc_stack >= 0 ? site_of(imp, x->alloc_stack) : NULL;
	uint32_t v;
	uint64_t k, span;

	if (!s)
		return x->votes > 0 ? x->vtype : 0;
	if (x->apct) {
		v = x->apct;
		if (x->votes > 0 && imp->pcts[x->vtype - 1].type != imp->pcts[v - 1].type)
			s->other++;
		else if (x->votes > 0)
			s->voted++;
		else
			s->by_site++;
	} else if (s->apct || x->vmixed) {
		return 0;       /* smaller than its site's type; or two types */
	} else if (x->votes > 0) {
		v = x->vtype;
		if (s->votes > 0 && imp->pcts[s->pct - 1].type == imp->pcts[v - 1].type)
			s->voted++;
		else
			s->other++;
	} else if (s->votes > 0) {
		v = s->pct;
		s->by_site++;
	} else {
		return 0;
	}
	span = x->apct ? x->size - x->abase : x->size;   /* after new[]'s count */
	k = span % imp->pcts[v - 1].size == 0 ? span / imp->pcts[v - 1].size : 0;
	if (s->voted + s->by_site + s->other == 1)
		s->elements = k;
	else if (s->elements != k)
		s->mixed = 1;
	return v;
}

/* d's way-3 or way-4 accesses so far into sum_field. */
static int batch_flush(struct importer *imp, struct imp_desc *d)
{
	int rc = imp_field_add_n(imp, d, d->bt_how, d->bt_type, d->bt_field, d->bt_thread,
				 d->bt_n, d->bt_first, d->bt_last);

	d->bt_n = 0;
	return rc;
}

/* imp_pctype.h's inline access spells DGTYPES_NONE without dgtypes.h */
_Static_assert(DGTYPES_NONE == UINT32_MAX, "DGTYPES_NONE is UINT32_MAX");

int imp_pctype_batch(struct importer *imp, struct imp_desc *d, int how, uint32_t ty,
		     uint32_t f, uint64_t icount)
{
	if (d->bt_n && batch_flush(imp, d) < 0)
		return -1;
	d->bt_n = 1;
	d->bt_how = (uint8_t)how;
	d->bt_type = ty;
	d->bt_field = f;
	d->bt_thread = imp->run_thread;
	d->bt_first = d->bt_last = icount;
	return 0;
}

uint32_t imp_pctype_field_at(struct importer *imp, struct imp_desc *d, const struct imp_pct *t,
			     uint64_t off)
{
	uint32_t f;

	/* a pc walks the same field of many blocks: ask dgtypes on a change */
	if (d->heap_type == t->type + 1 && d->heap_off == off)
		return d->heap_field;
	d->heap_type = t->type + 1;
	d->heap_off = off;
	f = dgtypes_field_at(imp->pct->types, t->type, off);
	d->heap_field = f;
	d->heap_fend = field_end(imp->pct->types, f, off);
	d->heap_raw = f != DGTYPES_NONE && raw_bytes(dgtypes_field(imp->pct->types, f)->type_name);
	return f;
}

/* Fields an access covers past its first: at most this many are counted
   (a 64-byte vector store over chars). */
#define IMP_COVER_MAX 64

int imp_pctype_cover(struct importer *imp, struct imp_desc *d, int how, const struct imp_pct *t,
		     uint32_t first, uint64_t off, uint64_t fend, uint64_t icount)
{
	const struct dgtypes *types = imp->pct->types;
	uint64_t end = off + d->size, pos = fend, o;
	uint32_t f, seen[IMP_COVER_MAX + 1];
	int k, n = 0, i;

	if (t->flat)
		return 0;
	seen[n++] = first;
	/* each field once, however many elements the access spans or bytes
	   the walk takes (field_end: one byte on where it is not known) */
	for (k = 0; pos < end && k < IMP_COVER_MAX; k++) {
		o = pos % t->size;      /* past the element: the next one's */
		f = dgtypes_field_at(types, t->type, o);
		pos += field_end(types, f, o) - o;
		for (i = 0; i < n && seen[i] != f; i++)
			;
		if (f == DGTYPES_NONE || i < n)
			continue;
		seen[n++] = f;
		if (imp_field_add_part(imp, d, how, t->type, f, imp->run_thread, icount) < 0)
			return -1;
	}
	return 0;
}

/* The site_fields entry of (x's site, field f of type ty), made on first
   use: its index, or -1 (out of memory). */
static long site_field(struct importer *imp, const struct imp_block *x, uint32_t ty, uint32_t f)
{
	struct imp_pctype *p = imp->pct;
	uint64_t key = dghash_mix((uint64_t)x->alloc_stack) ^ ((uint64_t)ty << 32 | f);
	uint32_t i = dghash_get(&p->sf_at, key);
	int added;

	/* the key is a hash: check the entry is ours, else search on */
	while (i != DGHASH_NONE && (p->sf[i].stack != x->alloc_stack || p->sf[i].type != ty
				    || p->sf[i].field != f))
		i = dghash_get(&p->sf_at, ++key);
	if (i != DGHASH_NONE)
		return i;
	if (dg_grow(&p->sf, &p->cap_sf, p->n_sf + 1, sizeof *p->sf) < 0
	    || dghash_put(&p->sf_at, key, (uint32_t)p->n_sf, &added) < 0)
		return -1;
	p->sf[p->n_sf] = (struct site_field){ x->alloc_stack, ty, f, 0, 0, 0 };
	return (long)p->n_sf++;
}

/* The field at each offset of type ty (size bytes, at most IMP_PCT_TABLE),
   or NULL (out of memory): blocks of one type come by the million. */
static const uint32_t *off_fields(struct imp_pctype *p, uint32_t ty, uint64_t size)
{
	size_t old = p->cap_off_fields;
	uint64_t k;

	if (ty >= old) {
		if (dg_grow((void **)&p->off_fields, &p->cap_off_fields, (size_t)ty + 1,
			    sizeof *p->off_fields) < 0)
			return NULL;
		memset(p->off_fields + old, 0, (p->cap_off_fields - old) * sizeof *p->off_fields);
	}
	if (!p->off_fields[ty]) {
		if (!(p->off_fields[ty] = malloc(size * sizeof **p->off_fields)))
			return NULL;
		for (k = 0; k < size; k++)
			p->off_fields[ty][k] = dgtypes_field_at(p->types, ty, k);
	}
	return p->off_fields[ty];
}

/* The histogram's counts by field of type ty into the site's totals. */
static int field_counts(struct importer *imp, const struct imp_block *x, uint32_t ty, uint64_t size)
{
	struct imp_pctype *p = imp->pct;
	const struct dgtypes_type *t = dgtypes_type(p->types, ty);
	size_t nf = (size_t)t->n_fields + 1, k;   /* the last: padding */
	const uint32_t *at = NULL;
	uint32_t i, f;
	long e;

	if (dg_grow(&p->touched, &p->cap_touched, nf, sizeof *p->touched) < 0
	    || (size <= IMP_PCT_TABLE && !(at = off_fields(p, ty, size))))
		return imp_fail(imp, "out of memory");
	memset(p->touched, 0, nf * sizeof *p->touched);
	for (i = 0; i < x->hist_n; i++) {
		if (!imp_block_hist(x, 2 * i) && !imp_block_hist(x, 2 * i + 1))
			continue;
		f = at ? at[i % size] : dgtypes_field_at(p->types, ty, i % size);
		k = f == DGTYPES_NONE ? nf - 1 : f - t->first_field;
		if (!p->touched[k]) {
			if ((e = site_field(imp, x, ty, f)) < 0)
				return imp_fail(imp, "out of memory");
			p->touched[k] = (uint32_t)e + 1;
			p->sf[e].blocks++;
		}
		p->sf[p->touched[k] - 1].reads += imp_block_hist(x, 2 * i);
		p->sf[p->touched[k] - 1].writes += imp_block_hist(x, 2 * i + 1);
	}
	return 0;
}

int imp_pctype_block(struct importer *imp, const struct imp_block *x)
{
	uint32_t v = imp->pct ? block_type(imp, x) : 0;
	const struct imp_pct *t;

	if (!v)
		return 0;
	t = &imp->pcts[v - 1];
	return x->hist && x->hist_shift == 0 ? field_counts(imp, x, t->type, t->size) : 0;
}

static int site_rows(struct importer *imp)
{
	struct imp_pctype *p = imp->pct;
	sqlite3_stmt *st = imp_db_stmt(imp, ST_SITETYPE,
		"INSERT INTO site_types VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
	size_t i;

	if (!st)
		return -1;
	for (i = 0; i < p->n_sites; i++) {
		const struct site_vote *s = &p->sites[i];
		uint32_t v = s->apct ? s->apct : s->pct;
		const struct imp_pct *t = v ? &imp->pcts[v - 1] : NULL;

		if (!t)
			continue;
		sqlite3_bind_text(st, 8, s->apct ? "alloc" : "votes", -1, SQLITE_STATIC);
		if (s->apct)
			sqlite3_bind_text(st, 9, p->alloc_ev[s->evidence - 1], -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(st, 9);
		sqlite3_bind_int64(st, 10, s->abase);
		sqlite3_bind_int64(st, 1, s->stack);
		sqlite3_bind_text(st, 2, dgtypes_type(p->types, t->type)->name, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, (int64_t)t->size);
		if (!s->mixed && s->elements)
			sqlite3_bind_int64(st, 4, (int64_t)s->elements);
		sqlite3_bind_int64(st, 5, (int64_t)s->voted);
		sqlite3_bind_int64(st, 6, (int64_t)s->by_site);
		sqlite3_bind_int64(st, 7, (int64_t)s->other);
		if (imp_db_step(imp, st) < 0)
			return -1;
	}
	return 0;
}

static int field_rows(struct importer *imp)
{
	struct imp_pctype *p = imp->pct;
	sqlite3_stmt *st = imp_db_stmt(imp, ST_SITEFIELD,
		"INSERT INTO site_fields VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
	size_t i;

	if (!st)
		return -1;
	for (i = 0; i < p->n_sf; i++) {
		const struct site_field *e = &p->sf[i];
		const struct dgtypes_field *fd = e->field == DGTYPES_NONE ? NULL
						 : dgtypes_field(p->types, e->field);

		if (e->stack >= 0)
			sqlite3_bind_int64(st, 1, e->stack);
		sqlite3_bind_text(st, 2, dgtypes_type(p->types, e->type)->name, -1, SQLITE_STATIC);
		if (fd) {
			sqlite3_bind_text(st, 3, fd->path, -1, SQLITE_STATIC);
			sqlite3_bind_int64(st, 4, (int64_t)fd->offset);
		}
		sqlite3_bind_int64(st, 5, (int64_t)e->blocks);
		sqlite3_bind_int64(st, 6, (int64_t)e->reads);
		sqlite3_bind_int64(st, 7, (int64_t)e->writes);
		if (imp_db_step(imp, st) < 0)
			return -1;
	}
	return 0;
}

int imp_pctype_finish(struct importer *imp)
{
	size_t i;

	if (!imp->pct)
		return 0;
	for (i = 0; i < imp->n_descs; i++)
		if (imp->descs[i].bt_n && batch_flush(imp, &imp->descs[i]) < 0)
			return -1;
	return site_rows(imp) < 0 || field_rows(imp) < 0 ? -1 : 0;
}
