/* dgtypes.c: types and variables from DWARF (see dgtypes.h for what it
 * promises).
 *
 * A type is a tree of levels.  A level is the items of one aggregate, its
 * nested aggregates flattened in (their members at their offsets), sorted
 * by offset: an item is a leaf (one field) or a fold (an array of
 * aggregates: [off, end) holds elements of `stride` bytes, each laid out
 * as the sub-level).  Finding the field at an offset is a binary search in
 * a level, and, in a fold, the offset modulo the stride in the sub-level.
 * Items may overlap (unions, bit-fields): `reach`, the largest end of the
 * items up to each one, bounds the walk back from the binary search.
 *
 * Fields are numbered in declaration order, so "first declared" is the
 * smallest number.  Paths and type names are our own copies; names of
 * variables and of the name index are libdw's strings, valid while its
 * Dwarf is.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "dgtypes.h"

#include <dwarf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dghash.h"
#include "dgmem.h"

#define MAX_DEPTH   24        /* nesting of members, arrays and typedefs */
#define MAX_FIELDS  65536     /* fields of one type; the rest left out */
#define NAME_MAX_LEN 512      /* printed type names and paths */

struct item {
	uint64_t off, end, stride, reach;
	uint32_t field;            /* leaf: its field; fold: its first one */
	uint32_t sub;              /* fold: the element's level; else NONE */
};

struct level { uint32_t first, n; };

struct nent { const char *name; Dwarf_Die die; };

struct tmod {
	int module;
	Dwarf *dw;
	uint64_t bias;
	struct nent *names;        /* named types, sorted by name, once */
	size_t n_names, cap_names;
	int names_made;
};

struct var {
	struct dgtypes_var v;
	Dwarf_Die type_die;
	int has_type, resolved;
	uint32_t tmod, type;
};

struct dgtypes {
	struct dgtypes_type *types;
	uint32_t *root;            /* root level of each type */
	size_t n_types, cap_types, cap_root;
	struct dgtypes_field *fields;
	size_t n_fields, cap_fields;
	struct item *items;
	size_t n_items, cap_items;
	struct level *levels;
	size_t n_levels, cap_levels;
	struct tmod *mods;
	size_t n_mods, cap_mods;
	struct var *vars;          /* in the order found: numbers are stable */
	size_t n_vars, cap_vars;
	uint32_t *order;           /* disjoint ones, by address */
	size_t n_order, cap_order;
	struct dghash by_die;      /* (tmod, unit kind, DIE offset) -> type */
	struct dghash by_name;     /* hash of the identity of a named type */
	char **strs;               /* strings we own */
	size_t n_strs, cap_strs;
	char err[256];
};

/* What is being built: the type, its field count, the nesting depth. */
struct build {
	uint32_t type;
	int truncated;
};

struct ilist { struct item *v; size_t n, cap; };

static uint32_t fail(struct dgtypes *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static uint32_t fail(struct dgtypes *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->err, sizeof t->err, fmt, ap);
	va_end(ap);
	return DGTYPES_NONE;
}

static const char *own(struct dgtypes *t, const char *s)
{
	char *c;

	if (dg_grow((void **)&t->strs, &t->cap_strs, t->n_strs + 1, sizeof *t->strs) < 0
	    || !(c = strdup(s)))
		return NULL;
	t->strs[t->n_strs++] = c;
	return c;
}

struct dgtypes *dgtypes_new(char *err, size_t errlen)
{
	struct dgtypes *t = calloc(1, sizeof *t);

	if (!t || dghash_init(&t->by_die, 64) < 0 || dghash_init(&t->by_name, 64) < 0) {
		if (t)
			dghash_free(&t->by_die);
		free(t);
		snprintf(err, errlen, "types: out of memory");
		return NULL;
	}
	return t;
}

void dgtypes_free(struct dgtypes *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->n_strs; i++)
		free(t->strs[i]);
	for (i = 0; i < t->n_mods; i++)
		free(t->mods[i].names);
	free(t->strs);
	free(t->types);
	free(t->root);
	free(t->fields);
	free(t->items);
	free(t->levels);
	free(t->mods);
	free(t->vars);
	free(t->order);
	dghash_free(&t->by_die);
	dghash_free(&t->by_name);
	free(t);
}

const char *dgtypes_errmsg(const struct dgtypes *t) { return t->err; }

/* ---------------------------------------------------------------- DIEs */

static int ref_die(Dwarf_Die *die, int at, Dwarf_Die *out)
{
	Dwarf_Attribute a;

	return dwarf_attr_integrate(die, at, &a) && dwarf_formref_die(&a, out) ? 0 : -1;
}

static int is_aggregate(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_class_type
	    || tag == DW_TAG_union_type;
}

static int is_qualifier(int tag)
{
	return tag == DW_TAG_typedef || tag == DW_TAG_const_type
	    || tag == DW_TAG_volatile_type || tag == DW_TAG_restrict_type
	    || tag == DW_TAG_atomic_type || tag == DW_TAG_immutable_type
	    || tag == DW_TAG_packed_type || tag == DW_TAG_shared_type;
}

/* die with typedefs and qualifiers looked through; *tdname the name of
   the outermost typedef, if any.  -1 for a loop or a missing target
   (a typedef of void). */
static int strip(Dwarf_Die *die, Dwarf_Die *out, const char **tdname)
{
	int k;

	*out = *die;
	for (k = 0; k < MAX_DEPTH && is_qualifier(dwarf_tag(out)); k++) {
		if (tdname && !*tdname && dwarf_tag(out) == DW_TAG_typedef)
			*tdname = dwarf_diename(out);
		if (ref_die(out, DW_AT_type, out) < 0)
			return -1;
	}
	return k < MAX_DEPTH ? 0 : -1;
}

/* The file die is declared in.  Not dwarf_decl_file: on a DIE of a split
   unit (-gsplit-dwarf) elfutils 0.188 fails an assertion there, because it
   asks for the file table of the skeleton and reads the split unit's. */
static const char *decl_file(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Word idx;
	Dwarf_Die cu;
	Dwarf_Files *files;
	size_t n;

	if (!dwarf_attr(die, DW_AT_decl_file, &a) || dwarf_formudata(&a, &idx) != 0
	    || !dwarf_diecu(die, &cu, NULL, NULL) || dwarf_getsrcfiles(&cu, &files, &n) != 0
	    || idx >= n)
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

static int die_size(Dwarf_Die *die, uint64_t *size)
{
	Dwarf_Word w;

	if (dwarf_aggregate_size(die, &w) != 0)
		return -1;
	*size = w;
	return 0;
}

static int flag(Dwarf_Die *die, int at)
{
	Dwarf_Attribute a;
	bool b = false;

	return dwarf_attr_integrate(die, at, &a) && dwarf_formflag(&a, &b) == 0 && b;
}

static void cat(char *buf, size_t len, const char *s)
{
	size_t n = strlen(buf);

	if (n < len)
		snprintf(buf + n, len - n, "%s", s);
}

static const char *tag_word(int tag)
{
	switch (tag) {
	case DW_TAG_structure_type: return "struct";
	case DW_TAG_union_type:     return "union";
	case DW_TAG_class_type:     return "class";
	case DW_TAG_enumeration_type: return "enum";
	default:                    return NULL;
	}
}

/* Elements of array die's dimensions, multiplied; 0 if unknown. */
static void array_dims(Dwarf_Die *die, char *buf, size_t len)
{
	Dwarf_Die c;
	Dwarf_Word n, ub;
	Dwarf_Attribute a;
	char d[32];

	if (dwarf_child(die, &c) != 0)
		return;
	do {
		if (dwarf_tag(&c) != DW_TAG_subrange_type)
			continue;
		if (dwarf_attr(&c, DW_AT_count, &a) && dwarf_formudata(&a, &n) == 0)
			snprintf(d, sizeof d, "[%llu]", (unsigned long long)n);
		else if (dwarf_attr(&c, DW_AT_upper_bound, &a) && dwarf_formudata(&a, &ub) == 0)
			snprintf(d, sizeof d, "[%llu]", (unsigned long long)ub + 1);
		else
			snprintf(d, sizeof d, "[]");
		cat(buf, len, d);
	} while (dwarf_siblingof(&c, &c) == 0);
}

/* The type die as C writes it, appended to buf. */
static void type_name(Dwarf_Die *die, char *buf, size_t len, int depth)
{
	Dwarf_Die to;
	const char *n = dwarf_diename(die), *w;
	int tag = dwarf_tag(die), has = ref_die(die, DW_AT_type, &to) == 0;

	if (depth > MAX_DEPTH) {
		cat(buf, len, "...");
		return;
	}
	switch (tag) {
	case DW_TAG_pointer_type: case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		if (has)
			type_name(&to, buf, len, depth + 1);
		else
			cat(buf, len, "void");
		cat(buf, len, tag == DW_TAG_pointer_type ? " *"
		    : tag == DW_TAG_reference_type ? " &" : " &&");
		return;
	case DW_TAG_const_type: case DW_TAG_volatile_type:
		cat(buf, len, tag == DW_TAG_const_type ? "const " : "volatile ");
		if (has)
			type_name(&to, buf, len, depth + 1);
		else
			cat(buf, len, "void");
		return;
	case DW_TAG_array_type:
		if (has)
			type_name(&to, buf, len, depth + 1);
		array_dims(die, buf, len);
		return;
	case DW_TAG_subroutine_type:
		cat(buf, len, "function");
		return;
	}
	if (n && tag != DW_TAG_typedef && tag != DW_TAG_base_type && (w = tag_word(tag))) {
		cat(buf, len, w);
		cat(buf, len, " ");
	}
	if (n)
		cat(buf, len, n);
	else if ((w = tag_word(tag))) {
		cat(buf, len, "<anonymous ");
		cat(buf, len, w);
		cat(buf, len, ">");
	} else if (has && depth < MAX_DEPTH)
		type_name(&to, buf, len, depth + 1);
	else
		cat(buf, len, "?");
}

/* ---------------------------------------------------------------- building */

static int push_item(struct ilist *l, const struct item *it)
{
	if (dg_grow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v) < 0)
		return -1;
	l->v[l->n++] = *it;
	return 0;
}

static uint32_t add_field(struct dgtypes *t, struct build *b, const char *path,
                          Dwarf_Die *type, uint64_t off, uint64_t size,
                          uint32_t bitoff, uint32_t bitsize, uint64_t stride)
{
	struct dgtypes_field *f;
	char tn[NAME_MAX_LEN] = "";

	if (t->n_fields - t->types[b->type].first_field >= MAX_FIELDS) {
		b->truncated = 1;
		return DGTYPES_NONE - 1;
	}
	if (dg_grow((void **)&t->fields, &t->cap_fields, t->n_fields + 1, sizeof *t->fields) < 0)
		return fail(t, "types: out of memory");
	type_name(type, tn, sizeof tn, 0);
	f = &t->fields[t->n_fields];
	f->type = b->type;
	f->path = own(t, path);
	f->type_name = own(t, tn);
	if (!f->path || !f->type_name)
		return fail(t, "types: out of memory");
	f->offset = off;
	f->size = size;
	f->bit_offset = bitoff;
	f->bit_size = bitsize;
	f->stride = stride;
	f->array_end = 0;
	t->types[b->type].n_fields++;
	return (uint32_t)t->n_fields++;
}

static uint32_t build_level(struct dgtypes *t, struct build *b, Dwarf_Die *type,
                            const char *path, uint64_t abs, uint64_t stride, int depth);

/* A member's path: parent "" gives name; "a" gives "a.name"; "a.Base::"
   gives "a.Base::name"; an anonymous member keeps the parent's path. */
static void join(char *out, size_t len, const char *parent, const char *name)
{
	size_t n = strlen(parent);

	if (!name)
		snprintf(out, len, "%s", parent);
	else if (n == 0 || (n >= 2 && strcmp(parent + n - 2, "::") == 0))
		snprintf(out, len, "%s%s", parent, name);
	else
		snprintf(out, len, "%s.%s", parent, name);
}

static int add_object(struct dgtypes *t, struct build *b, struct ilist *l, Dwarf_Die *type,
                      const char *path, uint64_t rel, uint64_t abs, uint64_t stride,
                      int depth);

/* Offset of member m in bytes, and its bits for bit-fields; -1 if it has
   no constant offset (a virtual base: left out). */
static int member_offset(Dwarf_Die *m, Dwarf_Die *type, uint64_t *off,
                         uint32_t *bitoff, uint32_t *bitsize)
{
	Dwarf_Attribute a;
	Dwarf_Word w, dbo, storage;
	Dwarf_Op *ops;
	size_t nops;
	int bs = dwarf_bitsize(m), bo;

	*off = 0;
	*bitoff = *bitsize = 0;
	if (dwarf_attr_integrate(m, DW_AT_data_member_location, &a)) {
		if (dwarf_formudata(&a, &w) == 0)
			*off = w;
		else if (dwarf_getlocation(&a, &ops, &nops) == 0 && nops == 1
		         && ops[0].atom == DW_OP_plus_uconst)
			*off = ops[0].number;
		else
			return -1;
	}
	if (bs <= 0)
		return 0;
	*bitsize = (uint32_t)bs;
	if (dwarf_attr(m, DW_AT_data_bit_offset, &a) && dwarf_formudata(&a, &dbo) == 0) {
		*off += dbo / 8;
		*bitoff = (uint32_t)(dbo % 8);
		return 0;
	}
	bo = dwarf_bitoffset(m);        /* DWARF 2/3: bits from the top of */
	if (bo < 0)                     /* the storage unit (little-endian) */
		return 0;
	if (dwarf_attr(m, DW_AT_byte_size, &a) && dwarf_formudata(&a, &storage) == 0)
		;
	else if (die_size(type, &storage) < 0)
		return -1;
	if ((uint64_t)bo + (uint64_t)bs > storage * 8)
		return -1;
	dbo = storage * 8 - (Dwarf_Word)bo - (Dwarf_Word)bs;
	*off += dbo / 8;
	*bitoff = (uint32_t)(dbo % 8);
	return 0;
}

/* The members (and base classes) of aggregate agg, into l. */
static int add_members(struct dgtypes *t, struct build *b, struct ilist *l, Dwarf_Die *agg,
                       const char *path, uint64_t rel, uint64_t abs, uint64_t stride,
                       int depth)
{
	Dwarf_Die c, mt, st;
	char p[NAME_MAX_LEN], bp[NAME_MAX_LEN];
	uint64_t off;
	uint32_t bitoff, bitsize;
	int tag;

	if (dwarf_child(agg, &c) != 0)
		return 0;
	do {
		tag = dwarf_tag(&c);
		if (tag != DW_TAG_member && tag != DW_TAG_inheritance)
			continue;
		if (tag == DW_TAG_member && flag(&c, DW_AT_external))
			continue;          /* a C++ static member: not in the object */
		if (ref_die(&c, DW_AT_type, &mt) < 0 || strip(&mt, &st, NULL) < 0)
			continue;          /* no type: left out */
		if (member_offset(&c, &st, &off, &bitoff, &bitsize) < 0)
			continue;
		if (tag == DW_TAG_inheritance) {
			const char *bn = dwarf_diename(&st);
			snprintf(bp, sizeof bp, "%s::", bn ? bn : "<base>");
			join(p, sizeof p, path, bp);
			if (add_members(t, b, l, &st, p, rel + off, abs + off, stride, depth + 1) < 0)
				return -1;
			continue;
		}
		join(p, sizeof p, path, dwarf_diename(&c));
		if (bitsize) {
			struct item it = { rel + off, rel + off + (bitoff + bitsize + 7) / 8, 0, 0, 0,
			                   DGTYPES_NONE };
			uint32_t f = add_field(t, b, p, &mt, abs + off, it.end - it.off, bitoff,
			                       bitsize, stride);
			if (f == DGTYPES_NONE)
				return -1;
			it.field = f;
			if (f != DGTYPES_NONE - 1 && push_item(l, &it) < 0)
				return fail(t, "types: out of memory"), -1;
			continue;
		}
		if (add_object(t, b, l, &mt, p, rel + off, abs + off, stride, depth + 1) < 0)
			return -1;
	} while (dwarf_siblingof(&c, &c) == 0);
	return 0;
}

/* agg is storage for a value of its template parameter's type, kept as
   raw bytes (libstdc++'s __aligned_buffer<T> in map, set, list and hash
   nodes): no member of type T, the size of T.  *value: T. */
static int storage_of(Dwarf_Die *agg, Dwarf_Die *value)
{
	Dwarf_Die c, ty, st;
	uint64_t asize, vsize;
	int found = 0;

	if (dwarf_child(agg, &c) != 0 || die_size(agg, &asize) < 0)
		return 0;
	do {
		if (dwarf_tag(&c) == DW_TAG_template_type_parameter && !found
		    && ref_die(&c, DW_AT_type, value) == 0)
			found = 1;
	} while (dwarf_siblingof(&c, &c) == 0);
	if (!found || strip(value, &st, NULL) < 0 || die_size(&st, &vsize) < 0 || vsize != asize)
		return 0;
	dwarf_child(agg, &c);
	do {
		if (dwarf_tag(&c) == DW_TAG_member && ref_die(&c, DW_AT_type, &ty) == 0
		    && strip(&ty, &ty, NULL) == 0 && dwarf_dieoffset(&ty) == dwarf_dieoffset(&st))
			return 0;       /* it holds a T: flattened as it is */
	} while (dwarf_siblingof(&c, &c) == 0);
	return 1;
}

/* An object of type `type` (as declared: its typedef names the field's
   type) at rel in the level being built, abs in the type. */
static int add_object(struct dgtypes *t, struct build *b, struct ilist *l, Dwarf_Die *type,
                      const char *path, uint64_t rel, uint64_t abs, uint64_t stride,
                      int depth)
{
	Dwarf_Die st, et, es;
	uint64_t size, esize;
	struct item it;
	size_t k;
	char p[NAME_MAX_LEN];

	if (depth > MAX_DEPTH) {
		b->truncated = 1;
		return 0;
	}
	if (strip(type, &st, NULL) < 0 || die_size(&st, &size) < 0 || size == 0)
		return 0;                  /* void, flexible or broken: left out */
	if (is_aggregate(dwarf_tag(&st)) && storage_of(&st, &et))
		return add_object(t, b, l, &et, path, rel, abs, stride, depth + 1);
	if (is_aggregate(dwarf_tag(&st)))
		return add_members(t, b, l, &st, path, rel, abs, stride, depth + 1);
	memset(&it, 0, sizeof it);
	it.off = rel;
	it.end = rel + size;
	it.sub = DGTYPES_NONE;
	if (dwarf_tag(&st) == DW_TAG_array_type && ref_die(&st, DW_AT_type, &et) == 0
	    && strip(&et, &es, NULL) == 0
	    && (is_aggregate(dwarf_tag(&es)) || dwarf_tag(&es) == DW_TAG_array_type)
	    && die_size(&es, &esize) == 0 && esize > 0 && esize <= size) {
		snprintf(p, sizeof p, "%s[]", path);
		it.stride = esize;
		it.field = (uint32_t)t->n_fields;
		it.sub = build_level(t, b, &et, p, abs, esize, depth + 1);
		if (it.sub == DGTYPES_NONE)
			return -1;
		for (k = it.field; k < t->n_fields; k++)   /* outer arrays last */
			t->fields[k].array_end = abs + size;
	} else {
		it.field = add_field(t, b, path, type, abs, size, 0, 0, stride);
		if (it.field == DGTYPES_NONE)
			return -1;
		if (it.field == DGTYPES_NONE - 1)
			return 0;
	}
	if (push_item(l, &it) < 0)
		return fail(t, "types: out of memory"), -1;
	return 0;
}

static int item_cmp(const void *x, const void *y)
{
	const struct item *a = x, *b = y;

	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	return a->field < b->field ? -1 : a->field > b->field;
}

/* A level for an object of type `type` at abs in the type: its items,
   sorted, appended to t->items.  Its index, or NONE (out of memory). */
static uint32_t build_level(struct dgtypes *t, struct build *b, Dwarf_Die *type,
                            const char *path, uint64_t abs, uint64_t stride, int depth)
{
	struct ilist l = { NULL, 0, 0 };
	uint64_t reach = 0;
	size_t i;
	uint32_t lv;

	if (add_object(t, b, &l, type, path, 0, abs, stride, depth) < 0) {
		free(l.v);
		return DGTYPES_NONE;
	}
	dg_sort(l.v, l.n, sizeof *l.v, item_cmp);
	for (i = 0; i < l.n; i++) {
		if (l.v[i].end > reach)
			reach = l.v[i].end;
		l.v[i].reach = reach;
	}
	if (dg_grow((void **)&t->items, &t->cap_items, t->n_items + l.n, sizeof *t->items) < 0
	    || dg_grow((void **)&t->levels, &t->cap_levels, t->n_levels + 1, sizeof *t->levels) < 0) {
		free(l.v);
		return fail(t, "types: out of memory");
	}
	if (l.n)
		memcpy(t->items + t->n_items, l.v, l.n * sizeof *l.v);
	free(l.v);
	lv = (uint32_t)t->n_levels++;
	t->levels[lv].first = (uint32_t)t->n_items;
	t->levels[lv].n = (uint32_t)l.n;
	t->n_items += l.n;
	return lv;
}

/* ---------------------------------------------------------------- types */

static long tmod_of(const struct dgtypes *t, int module)
{
	size_t i;

	for (i = 0; i < t->n_mods; i++)
		if (t->mods[i].module == module)
			return (long)i;
	return -1;
}

static uint64_t die_key(size_t tm, Dwarf_Die *die)
{
	Dwarf_Half ut = 0;
	uint64_t off = dwarf_dieoffset(die);

	/* .debug_types offsets may equal .debug_info ones */
	if (die->cu && dwarf_cu_info(die->cu, NULL, (uint8_t *)&ut, NULL, NULL, NULL, NULL, NULL) == 0)
		ut = ut == DW_UT_type || ut == DW_UT_split_type;
	return (uint64_t)tm << 48 | (uint64_t)(ut & 1) << 47 | (off & ((1ULL << 47) - 1));
}

static uint64_t fnv(uint64_t h, const char *s)
{
	for (; s && *s; s++)
		h = (h ^ (uint8_t)*s) * 0x100000001b3ULL;
	return h * 0x100000001b3ULL;
}

static int same_type(const struct dgtypes_type *a, const char *name, uint64_t size,
                     int module, const char *file, int line)
{
	return a->size == size && a->module == module && a->line == line
	    && strcmp(a->name, name) == 0
	    && ((!a->file && !file) || (a->file && file && strcmp(a->file, file) == 0));
}

/* A new type row, its name built from st (or the typedef's name). */
static uint32_t new_type(struct dgtypes *t, int module, Dwarf_Die *st, const char *name,
                         uint64_t size, const char *file, int line)
{
	struct dgtypes_type *ty;

	if (dg_grow((void **)&t->types, &t->cap_types, t->n_types + 1, sizeof *t->types) < 0
	    || dg_grow((void **)&t->root, &t->cap_root, t->n_types + 1, sizeof *t->root) < 0)
		return fail(t, "types: out of memory");
	ty = &t->types[t->n_types];
	memset(ty, 0, sizeof *ty);
	ty->name = own(t, name);
	ty->file = file ? own(t, file) : NULL;
	if (!ty->name || (file && !ty->file))
		return fail(t, "types: out of memory");
	ty->size = size;
	ty->module = module;
	ty->line = line;
	ty->first_field = (uint32_t)t->n_fields;
	return (uint32_t)t->n_types++;
}

uint32_t dgtypes_add_die(struct dgtypes *t, int module, Dwarf_Die *die)
{
	long tm = tmod_of(t, module);
	Dwarf_Die st;
	const char *td = NULL, *file;
	char name[NAME_MAX_LEN] = "";
	uint64_t size, key, nkey;
	uint32_t ty, v;
	long s;
	int added, line = 0;
	struct build b;

	if (tm < 0)
		return fail(t, "types: module %d has no DWARF added", module);
	key = die_key((size_t)tm, die);
	if ((v = dghash_get(&t->by_die, key)) != DGHASH_NONE)
		return v;
	if (strip(die, &st, &td) < 0 || die_size(&st, &size) < 0 || size == 0)
		return fail(t, "types: DIE 0x%llx: no type with a size",
		            (unsigned long long)dwarf_dieoffset(die));
	if (!dwarf_diename(&st) && td && tag_word(dwarf_tag(&st)))
		snprintf(name, sizeof name, "%s", td);     /* typedef struct {..} x */
	else
		type_name(&st, name, sizeof name, 0);
	file = decl_file(&st);
	dwarf_decl_line(&st, &line);
	nkey = dghash_mix(fnv(fnv(0xcbf29ce484222325ULL, name), file) ^ size
	                  ^ (uint64_t)module << 40 ^ (uint64_t)(unsigned)line << 20);
	s = dghash_put(&t->by_name, nkey, (uint32_t)t->n_types, &added);
	if (s < 0)
		return fail(t, "types: out of memory");
	if (!added && same_type(&t->types[t->by_name.vals[s]], name, size, module, file, line)) {
		ty = t->by_name.vals[s];
		goto known;
	}
	ty = new_type(t, module, &st, name, size, file, line);
	if (ty == DGTYPES_NONE)
		return DGTYPES_NONE;
	b.type = ty;
	b.truncated = 0;
	t->root[ty] = build_level(t, &b, &st, "", 0, 0, 0);
	if (t->root[ty] == DGTYPES_NONE)
		return DGTYPES_NONE;
known:
	if (dghash_put(&t->by_die, key, ty, &added) < 0)
		return fail(t, "types: out of memory");
	return ty;
}

uint32_t dgtypes_add_offset(struct dgtypes *t, int module, uint64_t off)
{
	long tm = tmod_of(t, module);
	Dwarf_Die die;

	if (tm < 0)
		return fail(t, "types: module %d has no DWARF added", module);
	if (!dwarf_offdie(t->mods[tm].dw, off, &die)
	    && !dwarf_offdie_types(t->mods[tm].dw, off, &die))
		return fail(t, "types: module %d: no DIE at offset 0x%llx", module,
		            (unsigned long long)off);
	return dgtypes_add_die(t, module, &die);
}

/* ---------------------------------------------------------------- lookup */

static uint32_t level_find(const struct dgtypes *t, uint32_t lv, uint64_t off, int depth)
{
	const struct level *L = &t->levels[lv];
	const struct item *v = t->items + L->first, *best = NULL;
	size_t lo = 0, hi = L->n;

	while (lo < hi) {                  /* first item starting after off */
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].off <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo-- > 0 && v[lo].reach > off)
		if (off < v[lo].end && (!best || v[lo].field < best->field))
			best = &v[lo];
	if (!best)
		return DGTYPES_NONE;
	if (best->sub == DGTYPES_NONE)
		return best->field;
	if (depth > MAX_DEPTH)
		return DGTYPES_NONE;
	return level_find(t, best->sub, (off - best->off) % best->stride, depth + 1);
}

uint32_t dgtypes_field_at(const struct dgtypes *t, uint32_t type, uint64_t off)
{
	if (type >= t->n_types || t->types[type].size == 0)
		return DGTYPES_NONE;
	return level_find(t, t->root[type], off % t->types[type].size, 0);
}

uint32_t dgtypes_n_types(const struct dgtypes *t) { return (uint32_t)t->n_types; }
uint32_t dgtypes_n_fields(const struct dgtypes *t) { return (uint32_t)t->n_fields; }
uint32_t dgtypes_n_vars(const struct dgtypes *t) { return (uint32_t)t->n_vars; }

const struct dgtypes_type *dgtypes_type(const struct dgtypes *t, uint32_t i)
{
	return i < t->n_types ? &t->types[i] : NULL;
}

const struct dgtypes_field *dgtypes_field(const struct dgtypes *t, uint32_t i)
{
	return i < t->n_fields ? &t->fields[i] : NULL;
}

const struct dgtypes_var *dgtypes_var(const struct dgtypes *t, uint32_t i)
{
	return i < t->n_vars ? &t->vars[i].v : NULL;
}

/* ---------------------------------------------------------------- names */

static int nent_cmp(const void *x, const void *y)
{
	return strcmp(((const struct nent *)x)->name, ((const struct nent *)y)->name);
}

static int name_add(struct dgtypes *t, struct tmod *m, const char *name, Dwarf_Die *die)
{
	if (dg_grow((void **)&m->names, &m->cap_names, m->n_names + 1, sizeof *m->names) < 0)
		return -1;
	m->names[m->n_names].name = name;
	m->names[m->n_names++].die = *die;
	return 0;
}

/* The named types among die's children, qualified by scope ("ns::"). */
static int names_walk(struct dgtypes *t, struct tmod *m, Dwarf_Die *die, const char *scope,
                      int depth)
{
	Dwarf_Die c;
	const char *n, *q;
	char buf[NAME_MAX_LEN];
	int tag;

	if (depth > MAX_DEPTH || dwarf_child(die, &c) != 0)
		return 0;
	do {
		tag = dwarf_tag(&c);
		n = dwarf_diename(&c);
		if (!n)
			continue;
		if (tag == DW_TAG_namespace) {
			snprintf(buf, sizeof buf, "%s%s::", scope, n);
			if (!(q = own(t, buf)) || names_walk(t, m, &c, q, depth + 1) < 0)
				return -1;
			continue;
		}
		if (!is_aggregate(tag) && tag != DW_TAG_typedef && tag != DW_TAG_base_type
		    && tag != DW_TAG_enumeration_type)
			continue;
		if (flag(&c, DW_AT_declaration))
			continue;
		if (name_add(t, m, n, &c) < 0)    /* "C", and "ns::C" */
			return -1;
		if (scope[0]) {
			snprintf(buf, sizeof buf, "%s%s", scope, n);
			if (!(q = own(t, buf)) || name_add(t, m, q, &c) < 0)
				return -1;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return 0;
}

static int names_make(struct dgtypes *t, struct tmod *m)
{
	Dwarf_CU *cu = NULL, *next;
	Dwarf_Die cudie, sub;
	uint8_t ut;

	m->names_made = 1;
	while (dwarf_get_units(m->dw, cu, &next, NULL, &ut, &cudie, &sub) == 0) {
		cu = next;
		if (names_walk(t, m, ut == DW_UT_skeleton ? &sub : &cudie, "", 0) < 0)
			return fail(t, "types: out of memory"), -1;
	}
	dg_sort(m->names, m->n_names, sizeof *m->names, nent_cmp);
	return 0;
}

/* name without a leading "struct ", "union ", "class " or "enum ". */
static const char *bare(const char *name)
{
	static const char *const words[] = { "struct ", "union ", "class ", "enum " };
	size_t i;

	while (*name == ' ')
		name++;
	for (i = 0; i < sizeof words / sizeof *words; i++)
		if (strncmp(name, words[i], strlen(words[i])) == 0)
			return bare(name + strlen(words[i]));
	return name;
}

uint32_t dgtypes_add_named(struct dgtypes *t, const char *name)
{
	char buf[NAME_MAX_LEN];
	const char *b = bare(name);
	size_t i, lo, hi, n;

	/* "int[64]", "struct item [4]": an array of the type, which is what
	   the field offsets are taken modulo anyway */
	snprintf(buf, sizeof buf, "%s", b);
	while ((n = strlen(buf)) > 0 && (buf[n - 1] == ' ' || buf[n - 1] == ']')) {
		char *open = strrchr(buf, '[');
		if (buf[n - 1] == ' ')
			buf[n - 1] = 0;
		else if (open)
			*open = 0;
		else
			break;
	}
	b = buf;

	for (i = 0; i < t->n_mods; i++) {
		struct tmod *m = &t->mods[i];
		if (!m->names_made && names_make(t, m) < 0)
			return DGTYPES_NONE;
		lo = 0;
		hi = m->n_names;
		while (lo < hi) {          /* first entry >= b */
			size_t mid = lo + (hi - lo) / 2;
			if (strcmp(m->names[mid].name, b) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < m->n_names && strcmp(m->names[lo].name, b) == 0; lo++) {
			uint32_t ty = dgtypes_add_die(t, m->module, &m->names[lo].die);
			if (ty != DGTYPES_NONE)
				return ty;
		}
	}
	return fail(t, "types: no module defines a type named '%s'", b);
}

/* ---------------------------------------------------------------- variables */

/* Address of variable die, if it is at a fixed one. */
static int var_addr(Dwarf_Die *die, uint64_t *addr)
{
	Dwarf_Attribute a, r;
	Dwarf_Op *ops;
	Dwarf_Addr x;
	size_t n;

	if (!dwarf_attr(die, DW_AT_location, &a) || dwarf_getlocation(&a, &ops, &n) != 0 || n != 1)
		return -1;
	if (ops[0].atom == DW_OP_addr) {
		*addr = ops[0].number;
		return 0;
	}
	if ((ops[0].atom == DW_OP_addrx || ops[0].atom == DW_OP_GNU_addr_index)
	    && dwarf_getlocation_attr(&a, &ops[0], &r) == 0 && dwarf_formaddr(&r, &x) == 0) {
		*addr = x;
		return 0;
	}
	return -1;
}

static int var_add(struct dgtypes *t, size_t tm, Dwarf_Die *die)
{
	struct tmod *m = &t->mods[tm];
	struct var *v;
	Dwarf_Die ty, st;
	Dwarf_Attribute a;
	uint64_t addr, size = 0;
	const char *name;

	if (flag(die, DW_AT_declaration) || var_addr(die, &addr) < 0)
		return 0;
	name = dwarf_attr_integrate(die, DW_AT_name, &a) ? dwarf_formstring(&a) : NULL;
	if (ref_die(die, DW_AT_type, &ty) < 0 || strip(&ty, &st, NULL) < 0
	    || die_size(&st, &size) < 0 || size == 0)
		return 0;          /* no extent: we cannot say what it covers */
	if (dg_grow((void **)&t->vars, &t->cap_vars, t->n_vars + 1, sizeof *t->vars) < 0)
		return -1;
	v = &t->vars[t->n_vars++];
	memset(v, 0, sizeof *v);
	v->v.lo = addr + m->bias;
	v->v.hi = v->v.lo + size;
	v->v.name = name ? name : "<unnamed>";
	v->v.module = m->module;
	v->type_die = ty;
	v->has_type = 1;
	v->tmod = (uint32_t)tm;
	v->type = DGTYPES_NONE;
	return 0;
}

static int vars_walk(struct dgtypes *t, size_t tm, Dwarf_Die *die, int depth)
{
	Dwarf_Die c;
	int tag;

	if (depth > MAX_DEPTH || dwarf_child(die, &c) != 0)
		return 0;
	do {
		tag = dwarf_tag(&c);
		if (tag == DW_TAG_variable) {
			if (var_add(t, tm, &c) < 0)
				return -1;
		} else if (tag == DW_TAG_namespace || tag == DW_TAG_subprogram
		           || tag == DW_TAG_lexical_block || tag == DW_TAG_inlined_subroutine) {
			if (vars_walk(t, tm, &c, depth + 1) < 0)
				return -1;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return 0;
}

static const struct var *cmp_vars;   /* qsort has no argument */

static int var_cmp(const void *x, const void *y)
{
	const struct var *a = &cmp_vars[*(const uint32_t *)x], *b = &cmp_vars[*(const uint32_t *)y];

	if (a->v.lo != b->v.lo)
		return a->v.lo < b->v.lo ? -1 : 1;
	return a->v.hi > b->v.hi ? -1 : a->v.hi < b->v.hi;   /* larger first */
}

/* The address order, disjoint: a variable overlapping an earlier one (an
   alias, a second definition of the same storage) is left out of it. */
static int vars_sort(struct dgtypes *t)
{
	size_t i, k = 0;

	if (dg_grow((void **)&t->order, &t->cap_order, t->n_vars + 1, sizeof *t->order) < 0)
		return -1;
	for (i = 0; i < t->n_vars; i++)
		t->order[i] = (uint32_t)i;
	cmp_vars = t->vars;
	dg_sort(t->order, t->n_vars, sizeof *t->order, var_cmp);
	for (i = 0; i < t->n_vars; i++)
		if (k == 0 || t->vars[t->order[i]].v.lo >= t->vars[t->order[k - 1]].v.hi)
			t->order[k++] = t->order[i];
	t->n_order = k;
	return 0;
}

int dgtypes_add_module(struct dgtypes *t, int module, Dwarf *dw, uint64_t bias)
{
	Dwarf_CU *cu = NULL, *next;
	Dwarf_Die cudie, sub;
	uint8_t ut;
	size_t tm;

	if (tmod_of(t, module) >= 0)
		return 0;
	if (dg_grow((void **)&t->mods, &t->cap_mods, t->n_mods + 1, sizeof *t->mods) < 0)
		return fail(t, "types: out of memory"), -1;
	tm = t->n_mods++;
	memset(&t->mods[tm], 0, sizeof t->mods[tm]);
	t->mods[tm].module = module;
	t->mods[tm].dw = dw;
	t->mods[tm].bias = bias;
	while (dwarf_get_units(dw, cu, &next, NULL, &ut, &cudie, &sub) == 0) {
		cu = next;
		if (ut == DW_UT_type || ut == DW_UT_split_type)
			continue;
		if (vars_walk(t, tm, ut == DW_UT_skeleton ? &sub : &cudie, 0) < 0)
			return fail(t, "types: out of memory"), -1;
	}
	if (vars_sort(t) < 0)
		return fail(t, "types: out of memory"), -1;
	return 0;
}

uint32_t dgtypes_var_at(const struct dgtypes *t, uint64_t a)
{
	uint64_t glo, ghi;

	return dgtypes_var_gap(t, a, &glo, &ghi);
}

uint32_t dgtypes_var_gap(const struct dgtypes *t, uint64_t a, uint64_t *gap_lo,
                         uint64_t *gap_hi)
{
	size_t lo = 0, hi = t->n_order;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->vars[t->order[mid]].v.lo <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || a >= t->vars[t->order[lo - 1]].v.hi) {
		*gap_lo = lo ? t->vars[t->order[lo - 1]].v.hi : 0;
		*gap_hi = lo < t->n_order ? t->vars[t->order[lo]].v.lo : UINT64_MAX;
		return DGTYPES_NONE;
	}
	return t->order[lo - 1];
}

void dgtypes_var_span(const struct dgtypes *t, uint64_t *lo, uint64_t *hi)
{
	*lo = t->n_order ? t->vars[t->order[0]].v.lo : 0;
	*hi = t->n_order ? t->vars[t->order[t->n_order - 1]].v.hi : 0;
}

int dgtypes_var_field(struct dgtypes *t, uint32_t i, uint64_t a, uint32_t *type,
                      uint32_t *field)
{
	struct var *v;
	Dwarf_Die st, et;
	int k;

	if (i >= t->n_vars)
		return -1;
	v = &t->vars[i];
	if (!v->resolved) {
		v->resolved = 1;
		/* an array variable is typed by its element */
		for (k = 0; k < MAX_DEPTH && strip(&v->type_die, &st, NULL) == 0
		     && dwarf_tag(&st) == DW_TAG_array_type && ref_die(&st, DW_AT_type, &et) == 0; k++)
			v->type_die = et;
		v->type = dgtypes_add_die(t, t->mods[v->tmod].module, &v->type_die);
	}
	if (v->type == DGTYPES_NONE)
		return -1;
	*type = v->type;
	*field = dgtypes_field_at(t, v->type, a - v->v.lo);
	return 0;
}
