/* dgreuse.h: exact reuse distances, Olken's way.
 *
 * Promise: dgreuse_touch(r, line) returns how many distinct lines were
 * touched since the previous touch of `line` (its LRU stack distance: 0
 * when it was the last line touched), or DGREUSE_FIRST on its first
 * touch, and makes it the most recent.  Exact, O(log n) a touch for n
 * distinct lines, O(1) for the most recent DGREUSE_RECENT ones.
 *
 * How: the DGREUSE_RECENT most recent lines are a small array in LRU
 * order, where a line's distance is its position.  Every older line's
 * last touch is a mark in a bitmap over touch times, counted by a Fenwick
 * tree over the bitmap's 64-bit words (64 times smaller than a tree over
 * the times, so its walks stay in the cache); its distance is the marks
 * after its own plus the recent ones.  The times are renumbered in place
 * when the bitmap fills, so memory is a few bytes a distinct line however
 * long the trace.
 *
 * Ownership: the caller owns a struct dgreuse (dgreuse_free).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGREUSE_H
#define DGREUSE_H

#include <stdint.h>

#include "dghash.h"

#define DGREUSE_FIRST  UINT64_MAX
#define DGREUSE_RECENT 16

struct dgreuse {
	struct dghash at;       /* line -> index in last[] */
	uint32_t *last;         /* index -> its mark's time, or DGREUSE_RECENT_T */
	uint64_t *bits;         /* a bit per time slot: a line's mark */
	uint32_t *tree;         /* Fenwick tree over bits' words: marks */
	uint32_t cap, now;      /* time slots (a multiple of 64), the next free */
	uint32_t n;             /* distinct lines */
	size_t lcap;            /* room in last */
	uint32_t nrecent;       /* lines in recent[] */
	uint64_t recent[DGREUSE_RECENT];        /* most recent first */
	uint32_t recent_idx[DGREUSE_RECENT];    /* and their indexes */
	int oom;
};

/* 0, or -1 (out of memory). */
int dgreuse_init(struct dgreuse *r);
void dgreuse_free(struct dgreuse *r);

/* The distance of this touch of line (above); DGREUSE_FIRST also when out
   of memory, with r->oom set. */
uint64_t dgreuse_touch(struct dgreuse *r, uint64_t line);

/* A touch of line is coming soon: its hash slot toward the cache. */
static inline void dgreuse_prefetch(const struct dgreuse *r, uint64_t line)
{
	dghash_prefetch(&r->at, line);
}

#endif
