/* fold.h: call stacks folded by function name, for flame graphs (the
 * report's flame section and its --folded file).
 *
 * Promise: fold_load takes a set of weighted stacks -- the rows (stack_id,
 * accesses, bytes) of a SELECT -- and gives a line per distinct sequence
 * of frame names, outermost first, with the weights of its stacks summed.
 * A frame's name is that of its pc's function (pcs joined on pc, as the
 * report names frames: a pc with rows in two modules gives two names),
 * else the pc in hex ("0x401000"); a ';' in a name becomes ':', as the
 * folded format separates frames with ';'.  Stacks without frames are
 * left out.  Lines come in no particular order.
 *
 * On a call tree as dg-import writes it (schema 10: every node after its
 * parent and one deeper) the names are folded node by node, once per node
 * of the tree instead of once per frame of every stack; otherwise (schema
 * 9 and older, a damaged tree) in SQL over dg_frames.  The lines are the
 * same either way.
 *
 * The caller owns struct fold (zeroed before the first fold_load) and
 * frees what it holds with fold_free.  0, or -1 with *err (sqlite3_free).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef FOLD_H
#define FOLD_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

struct fold_line {
	const char **frames;    /* outermost first, into the fold's strings */
	int n;
	int64_t acc, bytes;
};

struct fold {
	struct fold_line *v;
	size_t n, cap;
	char **strs;            /* the strings the frames point into */
	size_t n_strs, cap_strs;
};

/* Appends the lines of the stacks of stacks_sql (columns stack_id,
   accesses, bytes; rows of one stack are summed).  `summed`: stacks_sql
   gives every context's accesses from the summaries (sum_ctx less
   sum_ctx_miss, by the context's stack, contexts with accesses); on a
   tree fold then computes them itself, in C, with the same lines. */
int fold_load(sqlite3 *db, const char *stacks_sql, int summed, struct fold *f,
	      char **err);
void fold_free(struct fold *f);

#endif
