/* dgscope.h: what DWARF says at a code address of a module — the
 * function holding it, the chain of inlined calls down to it, and their
 * names and source positions (lib/dgsym.h's frames, from debug
 * information).
 *
 * Promise: dgscope_frames gives the inline chain at a session address of
 * a libdwfl module, innermost first, as `addr2line -f -i -C` names it
 * (dgsym.h); 0 frames when DWARF does not say.  A module's functions are
 * indexed a compilation unit at a time, at the first lookup in that unit,
 * and a function's lexical blocks and inlined calls at the first lookup in
 * it; each scope's names are read once.  Malformed DWARF is walked with
 * bounded depth, and out of memory only means fewer frames.  Calls no
 * other module of the symbolizer: strings are interned through the
 * caller's functions (struct dgscope), so dgsym.c, above, owns them.
 *
 * Ownership: struct dgscope (one per symbolizer) holds the caller's
 * interning functions and two caches of interned names by libdw pointer;
 * struct dgscope_cus (one per module) owns the units' function lists and
 * the functions' scopes.  dgscope_free and dgscope_cus_free release what
 * they own (not the objects).  Frames point at the caller's interned
 * strings; the libdw data they were read from must outlive both objects.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSCOPE_H
#define DGSCOPE_H

#include <elfutils/libdwfl.h>
#include <stddef.h>

#include "dgframe.h"

/* A map from pointers into libdw's data (which stays put while the
 * module's session lives) to interned strings: open addressing, cap a
 * power of 2. */
struct dgscope_pent {
	const void *key;
	const char *name;
};

struct dgscope_pmap {
	struct dgscope_pent *v;
	size_t n, cap;
};

struct dgscope {
	/* the caller's: str's interned copy (NULL for NULL or when out of
	   memory), and a symbol name's printable form (demangled) */
	const char *(*intern)(void *arg, const char *str);
	const char *(*printable)(void *arg, const char *name);
	void *arg;
	struct dgscope_pmap qual;       /* C++ qualified names by declaration DIE */
	struct dgscope_pmap src;        /* source file names by libdw's string */
};

/* A module's units, each with its functions, made at first need. */
struct dgscope_cus {
	struct dgscope_unit *cu;        /* sorted by the unit's DIE offset */
	size_t ncu, capcu;
};

/* Up to max frames of the inline chain at session address addr of dm
   (whose units cus indexes), innermost first; 0 if DWARF does not say. */
int dgscope_frames(struct dgscope *s, struct dgscope_cus *cus, Dwfl_Module *dm,
		   Dwarf_Addr addr, struct dgsym_frame *fr, int max);
/* f's file and line: the source position of DWARF address a of unit
   cudie (NULL and 0 if the line table does not say). */
void dgscope_position(struct dgscope *s, Dwarf_Die *cudie, Dwarf_Addr a,
		      struct dgsym_frame *f);
/* The DIE of the out-of-line function of unit cudie whose code holds
   DWARF address a: 1, or 0 if none. */
int dgscope_function(struct dgscope_cus *cus, Dwarf_Die *cudie, Dwarf_Addr a,
		     Dwarf_Die *fn);

void dgscope_cus_free(struct dgscope_cus *cus);
void dgscope_free(struct dgscope *s);

#endif
