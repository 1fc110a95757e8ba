/* dgreuse.h: exact reuse distances, Olken's way.
 *
 * Promise: dgreuse_touch(r, line) returns how many distinct lines were
 * touched since the previous touch of `line` (its LRU stack distance: 0
 * when it was the last line touched), or DGREUSE_FIRST on its first
 * touch, and makes it the most recent.  Exact, O(log n) a touch for n
 * distinct lines: each line's last touch is a mark in a Fenwick tree over
 * touch times, and the distance is the marks after the line's own; the
 * times are renumbered in place when the tree fills, so memory stays a
 * few words a distinct line however long the trace.
 *
 * Ownership: the caller owns a struct dgreuse (dgreuse_free).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGREUSE_H
#define DGREUSE_H

#include <stdint.h>

#include "dghash.h"

#define DGREUSE_FIRST UINT64_MAX

struct dgreuse {
	struct dghash at;       /* line -> index in last[] */
	uint32_t *last;         /* index -> its mark's time (1-based slot) */
	uint32_t *owner;        /* time slot -> index + 1 (0: no mark) */
	uint32_t *tree;         /* Fenwick tree over the slots: marks */
	uint32_t cap, now;      /* slots, the last one used */
	uint32_t n, lcap;       /* distinct lines; room in last */
	uint64_t last_line;     /* the line touched last */
	int oom;
};

/* 0, or -1 (out of memory). */
int dgreuse_init(struct dgreuse *r);
void dgreuse_free(struct dgreuse *r);

/* The distance of this touch of line (above); DGREUSE_FIRST also when out
   of memory, with r->oom set. */
uint64_t dgreuse_touch(struct dgreuse *r, uint64_t line);

#endif
