/* dgiv.h: the icount intervals of --events user:, in C.
 *
 * Promise: dgiv_load reads the merged intervals dgfilter installed for
 * --events user: (temp.dgf_ev_iv(lo, hi): [lo, hi), ascending, disjoint)
 * into a struct dgiv; dgiv_has says whether an access at an icount is in
 * one, as the view's condition DGFILTER_USER_COND does in SQL;
 * dgiv_classify says of every chunk whether its icount span puts it
 * whole, in part or not at all inside them (dgctxset.h's kinds, with
 * dgctxset_classify's contract), so that questions
 * under such a filter read the whole chunks' summaries and decode only
 * the chunks an interval's end falls in (lib/dgfsum.c, lib/dgplot.c).
 * Lookups go in nearly increasing order (a chunk's rows): the last
 * answer is tried first.
 *
 * Ownership: the struct is the caller's, freed with dgiv_free.  Errors
 * are messages the caller frees with sqlite3_free.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGIV_H
#define DGIV_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

struct dgiv {
	int64_t *lo, *hi;
	size_t n, cap_lo, cap_hi;
	size_t last;                /* where the last lookup ended */
};

/* 0, or -1 with *err naming who. */
int dgiv_load(sqlite3 *db, const char *who, struct dgiv *v, char **err);
void dgiv_free(struct dgiv *v);
/* Whether icount t is inside an interval. */
int dgiv_has(struct dgiv *v, int64_t t);
/* The kind, DGCTXSET_WHOLE, _PART or _NONE, of a chunk whose accesses'
   icounts lie in [lo, hi). */
uint8_t dgiv_kind(struct dgiv *v, int64_t lo, int64_t hi);
/* Every chunk's kind by id (dgiv_kind of its icount span): 1 with
   *kinds (malloc'ed, *n_ids entries; the caller frees it), 0 when there
   are no chunks (or ids past 2^31), -1 with *err. */
int dgiv_classify(sqlite3 *db, struct dgiv *v, uint8_t **kinds, int64_t *n_ids, char **err);

#endif
