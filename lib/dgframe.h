/* dgframe.h: one frame of a symbolized code address — a function (perhaps
 * inlined) and the source position in it — as lib/dgsym.h's lookups give
 * them.
 *
 * Promise: the type alone (header-only), so that the modules that fill
 * frames (dgsym.c, and dgscope.c for what DWARF says) and their callers
 * share it without including each other; dgsym.h includes it, and its
 * users need nothing else.
 *
 * Ownership: a frame's strings belong to the symbolizer that filled it
 * (interned, valid until dgsym_free); the frame itself is the caller's.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGFRAME_H
#define DGFRAME_H

/* One level of an inline chain. */
struct dgsym_frame {
	const char *function;     /* printable name: demangled (C++: qualified,
				     with arguments, as c++filt prints), or the
				     plain name (C++ without a linkage name,
				     as some inlined templates: qualified by
				     its namespaces and classes, no
				     arguments); NULL if unknown */
	const char *linkage_name; /* mangled or ELF symbol name, or NULL */
	const char *decl_file;    /* where the function is: DW_AT_decl_file/line */
	int decl_line;            /* of its definition, else of its declaration
				     (C++ methods: the out-of-line body, not
				     the line in the class); NULL/0 if unknown */
	const char *file;         /* depth 0: the position of pc itself; */
	int line;                 /* depth k > 0: the position of the call that
				     inlined depth k-1; NULL/0 if unknown */
	int origin;               /* enum dgsym_origin: what named it */
};

/* What named a frame's function. */
enum dgsym_origin {
	DGSYM_BY_DWARF = 1,  /* debug information */
	DGSYM_BY_SYMTAB,     /* an ELF symbol table (or a PLT relocation) */
	DGSYM_BY_ENTRY       /* its entry address only ("0x10ee88") */
};

#endif
