/* dgscope.c: what DWARF says at a code address.  See dgscope.h.
 *
 * libdw's dwfl_module_addrdie finds the compilation unit of an address
 * quickly, but finding the function inside it (dwarf_getscopes) walks every
 * top-level entry of the unit.  So the first lookup in a unit lists its
 * functions' address ranges once, sorted; a lookup then binary-searches that
 * list.  Walking down a function's DIEs through libdw at every lookup cost
 * 3 us (a lock and an abbreviation search per DIE and attribute, every
 * sibling at every level), so the first lookup in a function copies its
 * lexical blocks and inlined subroutines with their ranges into a flat
 * tree, and each scope's names are read once, at its first use.  A lookup
 * walks the copy exactly as it would walk the DIEs.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "dgscope.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dgframe.h"
#include "dgmem.h"

#define MAX_CHAIN   64          /* deepest inline chain followed */
#define MAX_DESCENT (4 * MAX_CHAIN) /* deepest scope (block, inline) */

/* One scope of a function's code as a lookup walks it: the function itself
 * (node 0), then the inlined subroutines and lexical blocks below it in DIE
 * order, each followed by its own (preorder): the children of node i are
 * i + 1, then each child's `end`, up to i's end. */
struct scope {
	Dwarf_Die die;
	uint32_t end;           /* one past its last descendant */
	uint32_t r0, nr;        /* its address ranges: fn->rng[r0, r0 + nr) */
	uint8_t inlined;        /* a DW_TAG_inlined_subroutine */
	uint8_t named;          /* fr is filled */
	struct dgsym_frame fr;  /* its names; if inlined, file and line are
				   those of its call */
};

struct addr_range {
	Dwarf_Addr lo, hi;      /* DWARF addresses, hi exclusive */
};

/* A function with code (DW_TAG_subprogram) of a unit. */
struct fn {
	Dwarf_Die die;
	struct scope *sc;       /* its scopes, made at its first lookup */
	struct addr_range *rng; /* the scopes' ranges */
	uint32_t nsc, nrng;
	int failed;             /* out of memory making them: DWARF unused */
};

struct fn_range {
	Dwarf_Addr lo, hi;      /* DWARF addresses, hi exclusive */
	size_t fn;              /* index in dgscope_unit.fn */
};

struct dgscope_unit {
	Dwarf_Off off;          /* the unit's DIE offset */
	struct fn_range *r;     /* sorted by lo */
	size_t nr;
	struct fn *fn;
	size_t nfn;
};

static void cu_release(struct dgscope_unit *c)
{
	size_t i;

	for (i = 0; i < c->nfn; i++) {
		free(c->fn[i].sc);
		free(c->fn[i].rng);
	}
	free(c->fn);
	free(c->r);
}

/* ---------------------------------------------------------------- CU index */

/* Give back what a growing array holds beyond its size (most functions
 * have a scope or two, arrays grow from 64). */
static void shrink(void **p, size_t size)
{
	void *q;

	if (size == 0) {
		free(*p);
		*p = NULL;
		return;
	}
	q = realloc(*p, size);
	if (q)
		*p = q;         /* else the bigger block stays: no harm */
}

static int fn_cmp(const void *a, const void *b)
{
	const struct fn_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Add function die, and its address ranges, to unit c. */
static int fn_add(struct dgscope_unit *c, size_t *capfn, size_t *capr, Dwarf_Die *die)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;

	if (dg_grow(&c->fn, capfn, c->nfn + 1, sizeof *c->fn) < 0)
		return -1;
	memset(&c->fn[c->nfn], 0, sizeof *c->fn);
	c->fn[c->nfn].die = *die;
	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (hi <= lo)
			continue;
		if (dg_grow(&c->r, capr, c->nr + 1, sizeof *c->r) < 0)
			return -1;
		c->r[c->nr++] = (struct fn_range){ lo, hi, c->nfn };
	}
	c->nfn++;
	return 0;
}

/* Is this a DIE whose children may hold out-of-line function bodies? */
static int holds_functions(int tag)
{
	return tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
	       tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_module;
}

/* List the functions with code among parent's children (and in namespaces
 * and classes below them), depth bounded against malformed DWARF. */
static int fn_collect(struct dgscope_unit *c, size_t cap[2], Dwarf_Die *parent,
		      int depth)
{
	Dwarf_Die die, next;
	int tag;

	if (depth > 16 || dwarf_child(parent, &die) != 0)
		return 0;
	for (;;) {
		tag = dwarf_tag(&die);
		if (tag == DW_TAG_subprogram && fn_add(c, &cap[0], &cap[1], &die) < 0)
			return -1;
		if (holds_functions(tag) && fn_collect(c, cap, &die, depth + 1) < 0)
			return -1;
		if (dwarf_siblingof(&die, &next) != 0)
			return 0;
		die = next;
	}
}

/* The function list of the unit cudie, made at its first use; NULL if out
 * of memory. */
static struct dgscope_unit *cu_fns_of(struct dgscope_cus *x, Dwarf_Die *cudie)
{
	Dwarf_Off off = dwarf_dieoffset(cudie);
	size_t lo = 0, hi = x->ncu, cap[2] = { 0, 0 };
	struct dgscope_unit c = { off, NULL, 0, NULL, 0 };

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->cu[mid].off == off)
			return &x->cu[mid];
		if (x->cu[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (fn_collect(&c, cap, cudie, 0) < 0 ||
	    dg_grow(&x->cu, &x->capcu, x->ncu + 1, sizeof *x->cu) < 0) {
		cu_release(&c);
		return NULL;
	}
	dg_sort(c.r, c.nr, sizeof *c.r, fn_cmp);
	shrink((void **)&c.r, c.nr * sizeof *c.r);
	shrink((void **)&c.fn, c.nfn * sizeof *c.fn);
	memmove(x->cu + lo + 1, x->cu + lo, (x->ncu - lo) * sizeof *x->cu);
	x->cu[lo] = c;
	x->ncu++;
	return &x->cu[lo];
}

/* The function whose code holds DWARF address a, or NULL. */
static struct fn *fn_find(struct dgscope_unit *c, Dwarf_Addr a)
{
	size_t lo = 0, hi = c->nr, k;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->r[mid].lo <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* lo is the first range starting after a; look back a little in
	 * case ranges overlap (they should not). */
	for (k = 0; k < 8 && k < lo; k++)
		if (a < c->r[lo - 1 - k].hi)
			return &c->fn[c->r[lo - 1 - k].fn];
	return NULL;
}

/* ---------------------------------------------------------------- scopes */

/* A function's scopes are read from its DIEs once, at its first lookup:
 * walking DIEs through libdw costs a lock and an abbreviation lookup per
 * attribute, and a lookup would otherwise walk every sibling at every level
 * down to the address. */

struct scopes_mk {
	struct fn *f;
	size_t capsc, caprng;
};

/* Append scope die (its ranges too, unless it is the function: its own
 * ranges are the unit's); its index, or -1 when out of memory. */
static long scope_add(struct scopes_mk *k, Dwarf_Die *die, int inlined,
		      int ranges)
{
	struct fn *f = k->f;
	struct scope *sc;
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;

	if (f->nsc >= UINT32_MAX - 1 ||
	    dg_grow(&f->sc, &k->capsc, f->nsc + 1, sizeof *f->sc) < 0)
		return -1;
	sc = &f->sc[f->nsc];
	memset(sc, 0, sizeof *sc);
	sc->die = *die;
	sc->inlined = (uint8_t)inlined;
	sc->r0 = f->nrng;
	while (ranges && (off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (hi <= lo)
			continue;       /* holds nothing */
		if (f->nrng >= UINT32_MAX - 1 ||
		    dg_grow(&f->rng, &k->caprng, f->nrng + 1, sizeof *f->rng) < 0)
			return -1;
		f->rng[f->nrng++] = (struct addr_range){ lo, hi };
	}
	sc->nr = f->nrng - sc->r0;
	return (long)f->nsc++;
}

/* Append die and, below it, the inlined subroutines and lexical blocks
 * (no deeper than a lookup descends); 0 or -1. */
static int scope_walk(struct scopes_mk *k, Dwarf_Die *die, int inlined,
		      int depth)
{
	Dwarf_Die child, next;
	long i = scope_add(k, die, inlined, depth > 0);
	int tag;

	if (i < 0)
		return -1;
	if (depth < MAX_DESCENT && dwarf_child(die, &child) == 0)
		for (;;) {
			tag = dwarf_tag(&child);
			if ((tag == DW_TAG_inlined_subroutine ||
			     tag == DW_TAG_lexical_block) &&
			    scope_walk(k, &child, tag == DW_TAG_inlined_subroutine,
				       depth + 1) < 0)
				return -1;
			if (dwarf_siblingof(&child, &next) != 0)
				break;
			child = next;
		}
	k->f->sc[i].end = k->f->nsc;
	return 0;
}

/* Make f's scopes if not yet; 0, or -1 when out of memory. */
static int fn_scopes(struct fn *f)
{
	struct scopes_mk k = { f, 0, 0 };

	if (f->sc || f->failed)
		return f->failed ? -1 : 0;
	if (scope_walk(&k, &f->die, 0, 0) == 0) {
		shrink((void **)&f->sc, f->nsc * sizeof *f->sc);
		shrink((void **)&f->rng, f->nrng * sizeof *f->rng);
		return 0;
	}
	free(f->sc);
	free(f->rng);
	f->sc = NULL;
	f->rng = NULL;
	f->nsc = f->nrng = 0;
	f->failed = 1;
	return -1;
}

static int scope_holds(const struct fn *f, const struct scope *sc,
		       Dwarf_Addr a)
{
	uint32_t i;

	for (i = sc->r0; i < sc->r0 + sc->nr; i++)
		if (a >= f->rng[i].lo && a < f->rng[i].hi)
			return 1;
	return 0;
}

/* The inline chain at a inside function f: chain[0] the innermost inlined
 * subroutine ... chain[n-1] the function.  At each level the first child
 * that holds a is taken.  Returns n (>= 1). */
static int inline_chain(struct fn *f, Dwarf_Addr a, struct scope **chain)
{
	struct scope *outer[MAX_CHAIN];
	uint32_t cur = 0, c;
	int n = 0, i;

	outer[n++] = &f->sc[0];
	for (i = 0; i < MAX_DESCENT; i++) {
		for (c = cur + 1; c < f->sc[cur].end; c = f->sc[c].end)
			if (scope_holds(f, &f->sc[c], a))
				break;
		if (c >= f->sc[cur].end)
			break;
		if (f->sc[c].inlined) {
			if (n == MAX_CHAIN)
				break;
			outer[n++] = &f->sc[c];
		}
		cur = c;
	}
	for (i = 0; i < n; i++)
		chain[i] = outer[n - 1 - i];
	return n;
}

/* ---------------------------------------------------------------- frames */

/* The caller's string pool (struct dgscope). */
static const char *intern(struct dgscope *s, const char *str)
{
	return s->intern(s->arg, str);
}

static const char *printable(struct dgscope *s, const char *name)
{
	return s->printable(s->arg, name);
}

static const char *attr_string(Dwarf_Die *die, unsigned int name)
{
	Dwarf_Attribute mem, *at = dwarf_attr_integrate(die, name, &mem);

	return at ? dwarf_formstring(at) : NULL;
}

/* The DIE that carries die's DW_AT_name, through abstract origins and
 * specifications (a bounded walk: DWARF may be malformed). */
static int named_die(Dwarf_Die *die, Dwarf_Die *out)
{
	static const unsigned int via[] = { DW_AT_abstract_origin,
					    DW_AT_specification };
	Dwarf_Attribute mem;
	Dwarf_Die cur = *die, next;
	int hop, i, moved;

	for (hop = 0; hop < 16; hop++) {
		if (dwarf_hasattr(&cur, DW_AT_name)) {
			*out = cur;
			return 0;
		}
		for (i = moved = 0; i < 2 && !moved; i++)
			moved = dwarf_formref_die(dwarf_attr(&cur, via[i], &mem),
						  &next) != NULL;
		if (!moved)
			return -1;
		cur = next;
	}
	return -1;
}

/* Is the unit of die C++ (whose names need their enclosing scopes)? */
static int is_cxx(Dwarf_Die *die)
{
	Dwarf_Die cu;
	int lang;

	if (!dwarf_diecu(die, &cu, NULL, NULL))
		return 0;
	lang = dwarf_srclang(&cu);
	return lang == DW_LANG_C_plus_plus || lang == DW_LANG_C_plus_plus_03 ||
	       lang == DW_LANG_C_plus_plus_11 || lang == DW_LANG_C_plus_plus_14;
}

/* "ns::Class::name" for a C++ function without a linkage name: the names
 * of the namespaces and classes that hold its declaration.  Walking to them
 * costs a pass over the unit, so the result is cached per declaration. */
static const char *qualified(struct dgscope *s, Dwarf_Die *named)
{
	Dwarf_Die *scopes = NULL;
	char buf[4096];
	size_t len = 0;
	int n = dwarf_getscopes_die(named, &scopes), i;

	for (i = n - 1; i >= 1; i--) {
		int tag = dwarf_tag(&scopes[i]);
		const char *nm = dwarf_diename(&scopes[i]);

		if (tag != DW_TAG_namespace && tag != DW_TAG_class_type &&
		    tag != DW_TAG_structure_type && tag != DW_TAG_union_type)
			continue;
		if (!nm)
			nm = tag == DW_TAG_namespace ? "(anonymous namespace)"
						     : "{anonymous}";
		len += snprintf(buf + len, sizeof buf - len, "%s::", nm);
		if (len >= sizeof buf)
			break;
	}
	free(scopes);
	if (len < sizeof buf)
		snprintf(buf + len, sizeof buf - len, "%s", dwarf_diename(named));
	return len < sizeof buf ? intern(s, buf) : intern(s, dwarf_diename(named));
}

static size_t phash(const void *key, size_t cap)
{
	uint64_t h = (uint64_t)(uintptr_t)key * 0x9e3779b97f4a7c15ull;

	return (size_t)(h ^ h >> 32) & (cap - 1);
}

static int pmap_grow(struct dgscope_pmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 256, i, j;
	struct dgscope_pent *v = calloc(cap, sizeof *v);

	if (!v)
		return -1;
	for (i = 0; i < m->cap; i++) {
		if (!m->v[i].key)
			continue;
		for (j = phash(m->v[i].key, cap); v[j].key; j = (j + 1) & (cap - 1))
			;
		v[j] = m->v[i];
	}
	free(m->v);
	m->v = v;
	m->cap = cap;
	return 0;
}

/* The slot of key (made empty if new), or NULL if out of memory. */
static const char **pmap_slot(struct dgscope_pmap *m, const void *key)
{
	size_t j;

	if ((m->n + 1) * 2 > m->cap && pmap_grow(m) < 0)
		return NULL;
	for (j = phash(key, m->cap); m->v[j].key; j = (j + 1) & (m->cap - 1))
		if (m->v[j].key == key)
			return &m->v[j].name;
	m->v[j].key = key;
	m->v[j].name = NULL;
	m->n++;
	return &m->v[j].name;
}

/* The printable name of a function that has no linkage name. */
static const char *plain_name(struct dgscope *s, Dwarf_Die *die)
{
	Dwarf_Die named;
	const void *key;
	const char **slot;

	if (named_die(die, &named) != 0)
		return NULL;
	if (!is_cxx(&named))
		return intern(s, dwarf_diename(&named));
	key = named.addr;
	slot = pmap_slot(&s->qual, key);
	if (!slot)
		return intern(s, dwarf_diename(&named));
	if (!*slot)
		*slot = qualified(s, &named);
	return *slot;
}

/* Names and declaration of the function of scope die (an inlined
 * subroutine or a subprogram, through its abstract origin and
 * specification). */
static void frame_names(struct dgscope *s, Dwarf_Die *die, struct dgsym_frame *f)
{
	const char *link = attr_string(die, DW_AT_linkage_name);

	if (!link)
		link = attr_string(die, DW_AT_MIPS_linkage_name);
	f->linkage_name = intern(s, link);
	f->function = link ? printable(s, link) : NULL;
	if (!f->function)
		f->function = plain_name(s, die);
	f->decl_file = intern(s, dwarf_decl_file(die));
	if (dwarf_decl_line(die, &f->decl_line) != 0)
		f->decl_line = 0;
}

/* The position of the call of inlined subroutine die. */
static void call_site(struct dgscope *s, Dwarf_Die *cudie, Dwarf_Die *die,
		      struct dgsym_frame *f)
{
	Dwarf_Attribute mem;
	Dwarf_Word idx, line;
	Dwarf_Files *files;
	size_t nfiles;

	f->file = NULL;
	f->line = 0;
	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &mem), &idx) == 0 &&
	    dwarf_getsrcfiles(cudie, &files, &nfiles) == 0 && idx < nfiles)
		f->file = intern(s, dwarf_filesrc(files, idx, NULL, NULL));
	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &mem), &line) == 0 &&
	    line <= INT32_MAX)
		f->line = (int)line;
}

/* The interned copy of a file name of libdw's line tables: by its pointer,
 * as most lookups meet a name already seen. */
static const char *src_name(struct dgscope *s, const char *name)
{
	const char **slot;

	if (!name)
		return NULL;
	slot = pmap_slot(&s->src, name);
	if (!slot)
		return intern(s, name);
	if (!*slot)
		*slot = intern(s, name);
	return *slot;
}

/* The source position of DWARF address a. */
void dgscope_position(struct dgscope *s, Dwarf_Die *cudie, Dwarf_Addr a,
			struct dgsym_frame *f)
{
	Dwarf_Line *l = dwarf_getsrc_die(cudie, a);
	int line = 0;

	f->file = NULL;
	f->line = 0;
	if (!l)
		return;
	f->file = src_name(s, dwarf_linesrc(l, NULL, NULL));
	if (dwarf_lineno(l, &line) == 0)
		f->line = line;
}

/* The names of scope sc and, if inlined, the position of its call; read
 * at its first use. */
static const struct dgsym_frame *scope_frame(struct dgscope *s, Dwarf_Die *cudie,
					     struct scope *sc)
{
	if (!sc->named) {
		frame_names(s, &sc->die, &sc->fr);
		sc->fr.origin = DGSYM_BY_DWARF;
		if (sc->inlined)
			call_site(s, cudie, &sc->die, &sc->fr);
		sc->named = 1;
	}
	return &sc->fr;
}

int dgscope_frames(struct dgscope *s, struct dgscope_cus *cus, Dwfl_Module *dm,
		   Dwarf_Addr addr, struct dgsym_frame *fr, int max)
{
	Dwarf_Addr cubias;
	Dwarf_Die *cudie = dwfl_module_addrdie(dm, addr, &cubias);
	struct scope *chain[MAX_CHAIN];
	struct dgscope_unit *c;
	struct fn *fn;
	int n, i;

	if (!cudie || !(c = cu_fns_of(cus, cudie)))
		return 0;
	fn = fn_find(c, addr - cubias);
	if (!fn || fn_scopes(fn) < 0)
		return 0;
	n = inline_chain(fn, addr - cubias, chain);
	if (n > max)
		n = max;
	for (i = 0; i < n; i++) {
		fr[i] = *scope_frame(s, cudie, chain[i]);
		if (i == 0) {
			dgscope_position(s, cudie, addr - cubias, &fr[i]);
		} else {
			fr[i].file = chain[i - 1]->fr.file;
			fr[i].line = chain[i - 1]->fr.line;
		}
	}
	return n;
}

int dgscope_function(struct dgscope_cus *cus, Dwarf_Die *cudie, Dwarf_Addr a,
		     Dwarf_Die *fn)
{
	struct dgscope_unit *c;
	struct fn *f;

	if (!(c = cu_fns_of(cus, cudie)) || !(f = fn_find(c, a)))
		return 0;
	*fn = f->die;
	return 1;
}

/* ---------------------------------------------------------------- life */

void dgscope_cus_free(struct dgscope_cus *cus)
{
	size_t i;

	for (i = 0; i < cus->ncu; i++)
		cu_release(&cus->cu[i]);
	free(cus->cu);
}

void dgscope_free(struct dgscope *s)
{
	free(s->qual.v);
	free(s->src.v);
}
