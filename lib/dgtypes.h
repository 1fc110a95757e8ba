/* dgtypes.h: data types from DWARF: a type DIE becomes a flattened field
 * list, and (type, offset) names the field there; the global and static
 * variables of a module, by address, name the variable and its type.
 *
 * Promise.  dgtypes_add_die turns a struct, union, class, array, base,
 * pointer or enum type DIE (typedefs and cv-qualifiers looked through) into
 * a type with its fields: nested members flattened ("hdr.len"), arrays of
 * aggregates folded ("slots[].key": the offset is the first element's, and
 * dgtypes_field_at reduces an offset in any element to it), arrays of
 * scalars one field ("buf", the whole array), bit-fields with their bit
 * offset and width, C++ base classes as "Base::member", anonymous members
 * without a name of their own.  A type that is not an aggregate has one
 * field with the empty path.  The same named type (name, size, module,
 * declaration) seen in several units or DIEs is one type.  Nothing is read
 * until asked: only the types the caller attributes accesses to, and the
 * types reachable from them, are made, so a trace database stays small.
 *
 * Variables: dgtypes_add_module lists a module's variables with a fixed
 * address (globals, file and function statics; DW_OP_addr or DW_OP_addrx
 * locations, not thread-locals), at run-time addresses, numbered in the
 * order found (numbers never change); dgtypes_var_at finds one by binary
 * search in the address order (where two overlap, the one starting first,
 * else the larger, holds the bytes); its type is made at
 * the first dgtypes_var_field.  Names of types are looked up (for
 * DATAGRIND_TRACK_RANGE) in the modules added, first added first, by an
 * index of each module's named types made at the first look-up.
 *
 * Bad DWARF (no type, no size, an expression for an offset, a loop of
 * typedefs, absurd nesting) leaves a member out or a type unusable: never
 * a crash, never an unbounded walk.  Names from the trace are only compared.
 *
 * Ownership: struct dgtypes owns every type, field, variable and string;
 * pointers it returns are valid until dgtypes_free; it keeps the Dwarf
 * handles it is given (the caller keeps them open as long).  Not
 * thread-safe.  Link with -ldw -lelf.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGTYPES_H
#define DGTYPES_H

#include <stddef.h>
#include <stdint.h>
#include <elfutils/libdw.h>

#define DGTYPES_NONE UINT32_MAX

struct dgtypes;

struct dgtypes_type {
	const char *name;        /* "struct item", "union u", "class C",
	                            "item_t" (typedef of an anonymous struct),
	                            "int"; "<anonymous struct>" */
	uint64_t size;
	int module;              /* the caller's module number */
	const char *file;        /* declaration, or NULL/0 */
	int line;
	uint32_t first_field, n_fields;   /* dgtypes_field(first_field + i) */
};

struct dgtypes_field {
	uint32_t type;           /* the type it belongs to */
	const char *path;        /* "hdr.len", "slots[].key", "Base::x", "" */
	const char *type_name;   /* its own type, as C writes it: "int",
	                            "struct hdr *", "char[16]" */
	uint64_t offset, size;   /* bytes, from the start of the type */
	uint32_t bit_offset;     /* bit-fields: first bit from offset (0..7 */
	uint32_t bit_size;       /* and the width; 0: not a bit-field */
	uint64_t stride;         /* inside a folded array: the element size
	                            of the innermost one; else 0 */
	uint64_t array_end;      /* inside a folded array: the end of the
	                            outermost one (for holes); else 0 */
};

struct dgtypes_var {
	uint64_t lo, hi;         /* run-time addresses [lo, hi) */
	const char *name;
	int module;
};

/* A new, empty table; NULL with a message in err if out of memory. */
struct dgtypes *dgtypes_new(char *err, size_t errlen);
void dgtypes_free(struct dgtypes *t);
const char *dgtypes_errmsg(const struct dgtypes *t);

/* Module `module` (the caller's number, >= 0) has DWARF dw; bias is the
 * run-time address minus the DWARF address.  Lists its variables with a
 * fixed address.  A module added twice is listed once.  0, or -1 (see
 * dgtypes_errmsg) when out of memory. */
int dgtypes_add_module(struct dgtypes *t, int module, Dwarf *dw, uint64_t bias);

/* The type of DIE die (of module `module`, already added): its index, or
 * DGTYPES_NONE (and a message) if it is no usable type: no size, not a
 * type, broken.  Out of memory is DGTYPES_NONE too, with that message. */
uint32_t dgtypes_add_die(struct dgtypes *t, int module, Dwarf_Die *die);
/* The same, for the DIE at offset off of module's .debug_info (or, if
 * none is there, .debug_types). */
uint32_t dgtypes_add_offset(struct dgtypes *t, int module, uint64_t off);
/* The type named name ("struct item", "item", "union u", "ns::C", a
 * typedef name; "T[N]" is taken as T), searched in the modules in the order they were added;
 * DGTYPES_NONE if no module defines it. */
uint32_t dgtypes_add_named(struct dgtypes *t, const char *name);

/* The field at byte offset off of type `type` (offsets past the end are
 * taken modulo the size, as in an array of the type), or DGTYPES_NONE for
 * padding.  Where members overlap (unions, bit-fields sharing a byte) the
 * first declared one holding the byte. */
uint32_t dgtypes_field_at(const struct dgtypes *t, uint32_t type, uint64_t off);

uint32_t dgtypes_n_types(const struct dgtypes *t);
const struct dgtypes_type *dgtypes_type(const struct dgtypes *t, uint32_t i);
uint32_t dgtypes_n_fields(const struct dgtypes *t);
const struct dgtypes_field *dgtypes_field(const struct dgtypes *t, uint32_t i);

/* Variables with a fixed address: the one holding run-time address a, or
 * DGTYPES_NONE.  dgtypes_var_field gives its type (arrays: the element
 * type, the offset taken in the element) and the field at a, making the
 * type the first time: 0, or -1 if its type is unknown or unusable. */
uint32_t dgtypes_var_at(const struct dgtypes *t, uint64_t a);
/* The same; when no variable holds a, [*gap_lo, *gap_hi) is the gap
 * between variables around it, where no other address has one either (a
 * caller may remember it: the gaps change only when a module is added). */
uint32_t dgtypes_var_gap(const struct dgtypes *t, uint64_t a, uint64_t *gap_lo,
                         uint64_t *gap_hi);
uint32_t dgtypes_n_vars(const struct dgtypes *t);
const struct dgtypes_var *dgtypes_var(const struct dgtypes *t, uint32_t i);
int dgtypes_var_field(struct dgtypes *t, uint32_t var, uint64_t a,
                      uint32_t *type, uint32_t *field);
/* The span [lo, hi) of every variable, for a quick test (0, 0 if none). */
void dgtypes_var_span(const struct dgtypes *t, uint64_t *lo, uint64_t *hi);

#endif /* DGTYPES_H */
