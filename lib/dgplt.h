/* dgplt.h: names of PLT stubs ("memcpy@plt"), as objdump shows them.
 *
 * Promise: dgplt_load reads an x86-64 ELF file's .plt, .plt.sec and
 * .plt.got sections and names each stub after the symbol whose GOT slot it
 * jumps through (a JUMP_SLOT or GLOB_DAT relocation): the stub's
 * `jmp *slot(%rip)` is decoded, the slot matched to its relocation.  A slot
 * filled by an IRELATIVE relocation (an IFUNC the file resolves for itself,
 * as libc does for memcpy & co.) has no symbol: its stub is named, as
 * objdump names it, after the resolver's ELF address: "*ABS*+0x9f550" (the
 * stub "*ABS*+0x9f550@plt").  The PLT header (PLT0: the first entry of
 * .plt, which jumps through a GOT slot no relocation fills, to the dynamic
 * linker's lazy resolver) is a stub without a name, for the caller to name
 * after its module; any other stub whose slot has no relocation stays
 * unknown.  Other
 * machines, and files without those sections, give an empty table.  Every
 * length is checked against its section: a truncated or malformed file
 * gives fewer names, never a read out of bounds.
 *
 * Ownership: struct dgplt owns its stubs and their names until dgplt_free.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGPLT_H
#define DGPLT_H

#include <gelf.h>
#include <stddef.h>
#include <stdint.h>

struct dgplt_stub {
	uint64_t lo, hi;        /* ELF addresses, hi exclusive */
	char *name;             /* the symbol ("memcpy"; the stub is "memcpy@plt"),
				   or "*ABS*+0x9f550"; NULL: the PLT header */
};

struct dgplt {
	struct dgplt_stub *v;   /* sorted by lo, disjoint */
	size_t n, cap;
};

/* Fill p (zeroed by the caller) from e; 0, or -1 when out of memory. */
int dgplt_load(struct dgplt *p, Elf *e);

/* The stub holding ELF address a, or NULL. */
const struct dgplt_stub *dgplt_find(const struct dgplt *p, uint64_t a);

void dgplt_free(struct dgplt *p);

#endif /* DGPLT_H */
