/* imp_field.h: accesses to fields of data types (sum_field, types, fields,
 * variables).
 *
 * Each access is given a field by the most certain way that knows it:
 *   range   a live DATAGRIND_TRACK_RANGE with a type name: the offset in the
 *           range modulo the type's size;
 *   global  a variable with a fixed address (lib/dgtypes' interval table of
 *           each module's globals and statics): the offset in it (in the
 *           element, for an array);
 *   insn, heap  (ways 3 and 4, from the accessing instruction and from the
 *           heap block's allocation site: imp_field_add_n is their entry).
 * An access the way knows the place of but not the type of (a type name no
 * module defines, a variable whose type DWARF lacks) is counted as
 * `unknown`; each such name is warned about once.  Accesses no way covers
 * are not counted here (meta fields_untyped has their number).
 *
 * Owns: struct imp_field (imp->fld) with the lib/dgtypes table, the typed
 * live ranges and the counts; written by imp_field_finish.  Called by
 * imp_run (each access), imp_heap (TRACK/UNTRACK_RANGE) and imp_sym (a
 * module whose code runs for the first time: its variables are listed).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef IMP_FIELD_H
#define IMP_FIELD_H

#include <stdint.h>
#include "imp.h"

/* How an access got its field: sum_field.how. */
enum imp_how { IMP_HOW_RANGE, IMP_HOW_GLOBAL, IMP_HOW_ALLOC, IMP_HOW_INSN, IMP_HOW_HEAP,
               IMP_HOW_UNKNOWN, IMP_HOW_N };

int  imp_field_init(struct importer *imp);
void imp_field_free(struct importer *imp);

/* Module m's code ran for the first time: list its variables if it has
   DWARF.  0, or -1 (out of memory). */
int  imp_field_module(struct importer *imp, int m);

/* A TRACK_RANGE with type name `type_name` (NULL or "": untyped, ignored)
   and its UNTRACK.  *type_id: the types.id of the name, 0 if none. */
int  imp_field_track(struct importer *imp, uint64_t addr, uint64_t len,
                     const char *type_name, uint32_t *type_id);
void imp_field_untrack(struct importer *imp, uint64_t addr, uint64_t len);

/* Worth a call to imp_field_access: a typed range is live, or a is within
   the span of the variables and not in the gap between two that d's last
   access fell in (the heap, mostly).  Inline: every access asks. */
static inline int imp_field_wanted(const struct importer *imp, const struct imp_desc *d,
                                   uint64_t a)
{
	return imp->fld_ranges || (a - imp->fld_lo < imp->fld_span
	       && !(d->fld_gen == imp->fld_gen && a - d->fld_gap_lo < d->fld_gap_hi - d->fld_gap_lo));
}

/* Give the access of d at a (icount, thread imp->run_thread) its field,
   if a range or a variable knows it, and count it: 1 if counted, 0 if
   neither knows (ways 3 and 4 may: imp_pctype_access), -1 (memory). */
int  imp_field_access(struct importer *imp, struct imp_desc *d, uint64_t a,
                      uint64_t icount);

/* The type table, for ways 3 and 4: dgtypes_add_die / dgtypes_add_offset
   with a dgsym module number whose code ran (its DWARF is added then), then
   dgtypes_field_at; NULL with --check. */
struct dgtypes *imp_field_types(struct importer *imp);

/* Count n accesses of d by thread `thread`, the first at icount first and
   the last at last, as field `field` (DGTYPES_NONE: padding or not known)
   of type `type` by way `how`: ways 3 and 4 count in the descriptor while
   the field and thread stay the same, and add the batch here on a change
   and at the end (imp_pctype_finish).  0, or -1 (out of memory). */
int  imp_field_add_n(struct importer *imp, const struct imp_desc *d, int how, uint32_t type,
                     uint32_t field, uint32_t thread, uint64_t n, uint64_t first,
                     uint64_t last);
/* One access of d (at icount) that covers field `field` of type `type`
   past the field it starts in (counted there, with its bytes): one read or
   write of this field too, no bytes, not in meta fields_*.  0, or -1. */
int  imp_field_add_part(struct importer *imp, const struct imp_desc *d, int how, uint32_t type,
                        uint32_t field, uint32_t thread, uint64_t icount);

/* Write types, fields, variables and sum_field, meta fields_*; fill
   imp->fld_warn (one line per unknown type name), for main to print. */
int  imp_field_finish(struct importer *imp);

#endif
