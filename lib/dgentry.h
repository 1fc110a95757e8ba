/* dgentry.h: function entry addresses of an ELF file, from its unwind
 * table, for code that no symbol names.
 *
 * Promise: dgentry_load reads the binary-search table of .eh_frame_hdr
 * (the PT_GNU_EH_FRAME segment, present in stripped files too): the start
 * address of every FDE, which for compiled code is a function's entry (GCC
 * gives the cold part of a split function a record, and so an entry, of
 * its own), with the program's entry point and the start of each code
 * section (.init, .fini: code without unwind records).  dgentry_find gives the nearest entry at or before an address,
 * so code reached only by jumps goes to the function it is in.  A table in
 * an encoding other than the one every linker writes (datarel sdata4), a
 * truncated segment or a missing one gives an empty table; every read is
 * checked against the segment's end.
 *
 * Ownership: struct dgentry owns its array until dgentry_free.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGENTRY_H
#define DGENTRY_H

#include <gelf.h>
#include <stddef.h>
#include <stdint.h>

struct dgentry {
	uint64_t *v;            /* ELF addresses, sorted */
	size_t n;
};

/* Fill t (zeroed by the caller) from e; 0, or -1 when out of memory. */
int dgentry_load(struct dgentry *t, Elf *e);

/* The greatest entry <= a in *entry: 0, or -1 if there is none. */
int dgentry_find(const struct dgentry *t, uint64_t a, uint64_t *entry);

void dgentry_free(struct dgentry *t);

#endif /* DGENTRY_H */
