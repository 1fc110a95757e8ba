/* heaplive.h: the live heap bytes over allocations and frees, and their
 * peak, for the report's heap section and compare's sites and totals.
 *
 * Promise: heaplive_events reads the rows (alloc_icount, free_icount,
 * size) of a query and gives its events: an allocation (+size) a row and
 * a free (-size) a row with a free_icount, sorted by icount, frees first
 * among the events of one icount (ORDER BY icount, delta).  heaplive_add
 * adds the events, in that order, to a running sum and keeps its peak:
 * the most live bytes after any event, and the first icount reaching it.
 * A sum past 2^63 is an error (a damaged blocks table), never undefined
 * arithmetic.  One mechanism, so that the report and compare mean the same
 * by a peak (a window function over the 1.55 M events of a compiler's
 * trace took 1.3 s, and a partitioned one 9.5 s for a Python program's).
 *
 * Ownership: the caller frees the events with free() and owns its struct
 * heaplive (zeroed to start a sum).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef HEAPLIVE_H
#define HEAPLIVE_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

struct heaplive_ev {
	int64_t i, d;           /* icount, +size or -size */
};

struct heaplive {
	int64_t live, peak, peak_at;
	int any;                /* an event added */
};

/* The events of sql's rows, sorted, into *ev (n of them).  0, or -1 with
   *err "WHAT: ..." (sqlite3_free) when the query fails or memory runs out. */
int heaplive_events(sqlite3 *db, const char *sql, const char *what,
                    struct heaplive_ev **ev, size_t *n, char **err);

/* Adds the event (icount i, delta d).  0, or -1 when the live bytes would
   pass 2^63 (h is then left as it was). */
static inline int heaplive_add(struct heaplive *h, int64_t i, int64_t d)
{
	int64_t live;

	if (__builtin_add_overflow(h->live, d, &live))
		return -1;
	h->live = live;
	if (!h->any || live > h->peak)
		h->peak = live, h->peak_at = i;
	h->any = 1;
	return 0;
}

#endif
