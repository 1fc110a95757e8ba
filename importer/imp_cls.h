/* imp_cls.h: access classes (sum_class_modules in schema/schema.sql).
 *
 * Promise: the class of an access is the set of modules on its call stack
 * (the modules.id of its context's caller frames, depth >= 1, and of its
 * own pc, as dgsql's dso: filter reads them) plus one bit: inside a live
 * heap block.  Class id = set id << 1 | heap bit.  Sets are interned: the
 * same modules, the same id; the union of two classes is a class too
 * (imp_cls_union, memoized), which is what the working set by class needs.
 * A context's set is computed once, when it is defined (imp_cls_words on
 * the import thread, which alone knows stacks and modules; imp_cls_define
 * where it is interned); an access's is then one array read, or a memoized
 * union for the rare context whose block has code in more than one module.
 *
 * Threads: no lock.  The state belongs to one thread at a time: imp_win's
 * stage thread (imp_win.h) interns every set while the chunk pipeline runs,
 * the import thread after imp_chunk_finish has joined it.  Set ids are the
 * order of first interning, which is then the log's order (a context's set
 * at its definition, a union at the access or window that needs it) as
 * when everything ran on the import thread, so the ids, and the tables
 * keyed by them, do not depend on how the threads interleave.
 *
 * Ownership: the state hangs off struct importer (imp->cls, made by
 * imp_win_init with imp_cls_new); imp_cls_write writes sum_class_modules,
 * imp_cls_free releases it.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef IMP_CLS_H
#define IMP_CLS_H

#include <stddef.h>
#include <stdint.h>
#include "dghash.h"

struct importer;
struct imp_desc;

#define IMP_CLS_MIXED 0x80000000u   /* ctx_set: add each access's module */

struct imp_cls {
	uint32_t *ctx_set;          /* by context: set id, | IMP_CLS_MIXED */
	size_t cap_ctx;
	uint32_t *words;            /* the sets' module ids, sorted, back to back */
	size_t n_words, cap_words;
	struct imp_cls_set { size_t off; uint32_t n; } *sets;
	size_t n_sets, cap_sets;
	struct dghash by_words;    /* hash of a set's ids (+k) -> set id */
	struct dghash unions;       /* a << 32 | b, a < b -> set id */
	uint32_t *tmp;              /* a set being built */
	size_t cap_tmp;
};

/* A new, empty state; NULL when out of memory. */
struct imp_cls *imp_cls_new(void);

/* On the import thread, for context ctx (defined in index order) running
   bbdef with call stack `stack` (imp_sym_stack's id): the words that
   imp_cls_define takes, in imp->cls_words (valid until the next call).
   0 or -1 (imp_fail). */
int imp_cls_words(struct importer *imp, uint32_t bbdef, int64_t stack,
                  const uint32_t **words, uint32_t *n);

/* On the thread that owns c: context ctx (the next in index order) has the
   set of imp_cls_words' n words.  0, or -1 when out of memory. */
int imp_cls_define(struct imp_cls *c, uint64_t ctx, const uint32_t *words, uint32_t n);

/* The set id of the union of sets a and b.  Returns UINT32_MAX when out of
   memory. */
uint32_t imp_cls_set_union(struct imp_cls *c, uint32_t a, uint32_t b);

/* The set id of {module}: UINT32_MAX when out of memory. */
uint32_t imp_cls_single(struct imp_cls *c, uint32_t module);

/* The class of the union of classes a and b (UINT32_MAX: out of memory). */
static inline uint32_t imp_cls_union(struct imp_cls *c, uint32_t a, uint32_t b)
{
	uint32_t s;

	if (a == b)
		return a;
	s = (a >> 1) == (b >> 1) ? a >> 1 : imp_cls_set_union(c, a >> 1, b >> 1);
	return s == UINT32_MAX ? s : s << 1 | ((a | b) & 1);
}

/* Writes sum_class_modules.  0 or -1 (imp_fail). */
int imp_cls_write(struct importer *imp);

void imp_cls_free(struct importer *imp);

#endif
