/* imp_pctype.h: struct fields from the accessing instruction (way 3:
 * pc_types) and from the heap block (way 'alloc', then way 4: site_types,
 * site_fields).
 *
 * A heap block's allocation site is asked once (lib/dgpctype's
 * dgpctype_alloc_at, once per call-site pc, going up the stack past
 * wrappers that return the block as they got it): the type the caller's
 * code makes of the new address.  Every access to a block so typed gets
 * its field from its offset modulo the type's size, whatever instruction
 * made it (memset, memcpy, vector code, code without DWARF): how 'alloc',
 * ranked before 'insn' when the type is an aggregate (after it for a
 * scalar: a char buffer carved into structs keeps their fields).
 *
 * Each distinct pc is resolved once, when its bbdef arrives (lib/dgpctype,
 * named through imp_field's lib/dgtypes table), and its descriptor
 * remembers the answer (imp_desc.pct): an access then costs a count in
 * the descriptor (its field is its pc's, always), added to sum_field (how
 * 'insn', imp_field_add_n) when the thread changes and at the end.  A
 * heap access by a typed pc costs a division while its block is
 * undecided: it votes for the pc's type in the block when the offsets
 * agree; a block's first leader votes in its allocation site, and a new
 * block starts with its site's type.  A heap access by an untyped pc
 * (void *, container_of) takes its block's type (how 'heap'), counted in
 * the descriptor too while its type, field and thread stay those of the
 * pc's last heap access (a pc walks the same field of many blocks, or the
 * elements of an array of double).
 * When a block is written its type (its votes' winner, else its site's)
 * and its accesses by field (from its offset histogram) are added to its
 * allocation site's totals, written at the end: a row per site, not per
 * block (a program makes millions of blocks).
 *
 * Owns: struct imp_pctype (imp->pct): the resolver, the type table, the
 * per-pc answers and the per-site votes.  Called by imp_run (a new
 * descriptor), imp_heap (an access to a block, a block written) and
 * imp_import (init, free).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef IMP_PCTYPE_H
#define IMP_PCTYPE_H

#include <stdint.h>
#include "imp.h"
#include "imp_field.h"

/* A typed pc: the type (lib/dgtypes index) its operand touches and where. */
struct imp_pct {
	uint32_t type, field;      /* field: DGTYPES_NONE for padding */
	uint64_t size, offset;
	uint64_t fend;             /* where field ends (offset + 1: padding) */
	int flat;                  /* no fields (double, int *): every offset
	                              is field DGTYPES_NONE */
};

int  imp_pctype_init(struct importer *imp);
void imp_pctype_free(struct importer *imp);

/* Resolve d's pc (once per pc; writes its pc_types row) and set d->pct. */
int  imp_pctype_desc(struct importer *imp, struct imp_desc *d);

/* A block stops voting once one type leads by this much. */
#define IMP_PCT_DECIDED 64

/* A new block allocated by the stack frames[0..n) (innermost first): its
   site's type by allocation (asked at the site's first block), else, for
   realloc's new block, the old one's; and its site's vote so far, until
   its own accesses vote.  0, or -1 (memory). */
int  imp_pctype_block_new(struct importer *imp, struct imp_block *x, const uint64_t *frames,
			  uint64_t n);
/* Block x is freed (before it is written): realloc frees the old block and
   allocates the new one at the same instruction, from the same stack. */
void imp_pctype_block_freed(struct importer *imp, const struct imp_block *x);
/* Block x has a new leading type: a vote in its site; x's votes named two
   types: its vote in its site is taken back. */
void imp_pctype_site_vote(struct importer *imp, const struct imp_block *x);
void imp_pctype_site_unvote(struct importer *imp, const struct imp_block *x);
/* A vote for pct (index + 1) in block x, whose leader is another type. */
void imp_pctype_vote_other(struct importer *imp, struct imp_block *x, uint32_t pct);

/* An access of d at addr in block x: a vote, if d's pc is typed. */
static inline void imp_pctype_vote(struct importer *imp, struct imp_block *x,
				   const struct imp_desc *d, uint64_t addr)
{
	const struct imp_pct *p;

	if (!d->pct || x->votes >= IMP_PCT_DECIDED)
		return;
	p = &imp->pcts[d->pct - 1];
	if ((addr - x->addr) % p->size != p->offset)
		return;
	if (x->votes == 0 && !x->vmixed) {
		x->vtype = d->pct;
		x->votes = 1;
		imp_pctype_site_vote(imp, x);
	} else if (x->vtype && imp->pcts[x->vtype - 1].type == p->type) {
		x->votes++;
	} else {
		imp_pctype_vote_other(imp, x, d->pct);
	}
}

/* Out of line, for imp_pctype_access: the field at offset off of pcts
   entry t (remembered in d, with its end in d->heap_fend), a new batch in
   d (the last added first), and the fields after the first that an
   access of d at offset off of type t, ending past fend, covers. */
uint32_t imp_pctype_field_at(struct importer *imp, struct imp_desc *d, const struct imp_pct *t,
			     uint64_t off);
int  imp_pctype_cover(struct importer *imp, struct imp_desc *d, int how, const struct imp_pct *t,
		      uint32_t first, uint64_t off, uint64_t fend, uint64_t icount);
int  imp_pctype_batch(struct importer *imp, struct imp_desc *d, int how, uint32_t type,
		      uint32_t field, uint64_t icount);

/* Give the access of d at a (in block b, or IMP_NONE) a field by its
   block's allocation ('alloc'), way 3 (d's pc is typed: 'insn') or way 4
   (its block is: 'heap').  For accesses no range or variable gave a field.
   An access wider than its field (memset's vector stores, a struct copy)
   counts in every field it covers, its bytes where it starts.  Inline:
   the usual access only counts in d's batch.  1 if given a field, 0 if
   not, -1 (memory). */
static inline int imp_pctype_access(struct importer *imp, struct imp_desc *d, uint32_t b,
				    uint64_t a, uint64_t icount)
{
	const struct imp_block *x = b != IMP_NONE ? &imp->blocks[b] : NULL;
	const struct imp_pct *t = NULL;
	uint32_t f = UINT32_MAX;        /* DGTYPES_NONE */
	uint64_t off = 0, fend = UINT64_MAX;
	int how = IMP_HOW_ALLOC;

	if (x && x->apct && a - x->addr < x->abase)
		return 0;               /* before the elements: new[]'s count */
	if (x && x->apct && a - x->addr - x->abase < x->alimit
	    && (!d->pct || !imp->pcts[x->apct - 1].flat)) {
		t = &imp->pcts[x->apct - 1];
		if (!t->flat) {
			off = (a - x->addr - x->abase) % t->size;
			f = imp_pctype_field_at(imp, d, t, off);
			fend = d->heap_fend;
			/* raw bytes in the block's type (a node's value storage):
			   the instruction's type says what value lies there */
			if (d->heap_raw && d->pct)
				how = IMP_HOW_INSN;
		}
	} else if (d->pct) {
		how = IMP_HOW_INSN;
	} else if (x && x->vtype) {
		how = IMP_HOW_HEAP;
		t = &imp->pcts[x->vtype - 1];
		if (!t->flat) {
			off = (a - x->addr) % t->size;
			f = imp_pctype_field_at(imp, d, t, off);
			fend = d->heap_fend;
		}
	} else {
		return 0;
	}
	if (how == IMP_HOW_INSN) {      /* its field is its pc's, always */
		t = &imp->pcts[d->pct - 1];
		f = t->field;
		off = t->offset;
		fend = t->fend;
	}
	if (off + d->size > fend && imp_pctype_cover(imp, d, how, t, f, off, fend, icount) < 0)
		return -1;
	if (d->bt_n && d->bt_field == f && d->bt_type == t->type && d->bt_how == how
	    && d->bt_thread == imp->run_thread) {
		d->bt_n++;
		d->bt_last = icount;
		return 1;
	}
	return imp_pctype_batch(imp, d, how, t->type, f, icount) < 0 ? -1 : 1;
}

/* Block x is written: its type and its accesses by field into its site's
   totals. */
int  imp_pctype_block(struct importer *imp, const struct imp_block *x);

/* After the last block: the descriptors' batches into sum_field (so before
   imp_field_finish), the site_types and site_fields rows. */
int  imp_pctype_finish(struct importer *imp);

#endif
