/* dgreuse.c: see dgreuse.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "dgreuse.h"
#include "dgmem.h"

#include <stdlib.h>
#include <string.h>

#define IN_RECENT UINT32_MAX    /* last[] of a line in recent[]: no mark */

/* Word w's count changes by v. */
static void add(struct dgreuse *r, uint32_t w, int32_t v)
{
	uint32_t i, nw = r->cap / 64;

	for (i = w + 1; i <= nw; i += i & -i)
		r->tree[i] = (uint32_t)((int32_t)r->tree[i] + v);
}

/* Marks in slots 0..t. */
static uint32_t prefix(const struct dgreuse *r, uint32_t t)
{
	uint32_t s = (uint32_t)__builtin_popcountll(r->bits[t / 64] & (~0ULL >> (63 - t % 64)));
	uint32_t i;

	for (i = t / 64; i; i -= i & -i)
		s += r->tree[i];
	return s;
}

/* The tree of the words' counts, built in O(words). */
static void build(struct dgreuse *r)
{
	uint32_t i, nw = r->cap / 64;

	memset(r->tree, 0, ((size_t)nw + 1) * sizeof *r->tree);
	for (i = 1; i <= nw; i++) {
		uint32_t up = i + (i & -i);

		r->tree[i] += (uint32_t)__builtin_popcountll(r->bits[i - 1]);
		if (up <= nw)
			r->tree[up] += r->tree[i];
	}
}

/* The slots full: the marks keep their order in slots 0..k-1, the rest
   free, in twice as many slots when half were marks.  A mark's new slot
   is its rank: the marks of the words before (a running sum) and of its
   own word below it. */
static int renumber(struct dgreuse *r)
{
	uint32_t cap = r->cap, nw = cap / 64, w, i, k = 0, *before;

	if (!(before = malloc(((size_t)nw + 1) * sizeof *before)))
		return -1;
	for (w = 0; w < nw; w++) {
		before[w] = k;
		k += (uint32_t)__builtin_popcountll(r->bits[w]);
	}
	for (i = 0; i < r->n; i++) {
		uint32_t t = r->last[i];

		if (t != IN_RECENT)
			r->last[i] = before[t / 64] + (uint32_t)__builtin_popcountll(
				r->bits[t / 64] & ((1ULL << (t % 64)) - 1));
	}
	free(before);
	if (k >= cap / 2) {
		uint64_t want = (uint64_t)cap * 2;
		uint64_t *b;
		uint32_t *tr;

		if (want > UINT32_MAX / 2)
			return -1;
		if (!(b = realloc(r->bits, (size_t)want / 8)))
			return -1;
		r->bits = b;
		if (!(tr = realloc(r->tree, ((size_t)want / 64 + 1) * sizeof *tr)))
			return -1;
		r->tree = tr;
		cap = (uint32_t)want;
	}
	r->cap = cap;
	r->now = k;
	memset(r->bits, 0, (size_t)cap / 8);
	for (w = 0; w < k / 64; w++)
		r->bits[w] = ~0ULL;
	if (k % 64)
		r->bits[k / 64] = (1ULL << (k % 64)) - 1;
	build(r);
	return 0;
}

int dgreuse_init(struct dgreuse *r)
{
	memset(r, 0, sizeof *r);
	r->cap = 1024;
	r->bits = calloc(r->cap / 64, sizeof *r->bits);
	r->tree = calloc(r->cap / 64 + 1, sizeof *r->tree);
	if (!r->bits || !r->tree || dghash_init(&r->at, 1024) < 0) {
		dgreuse_free(r);
		return -1;
	}
	return 0;
}

void dgreuse_free(struct dgreuse *r)
{
	dghash_free(&r->at);
	free(r->last);
	free(r->bits);
	free(r->tree);
	memset(r, 0, sizeof *r);
}

/* The least recent of recent[] leaves it: a mark at the next slot, after
   every other mark since it is more recent than they are. */
static int retire(struct dgreuse *r, uint32_t idx)
{
	if (r->now == r->cap && renumber(r) < 0)
		return -1;
	r->bits[r->now / 64] |= 1ULL << (r->now % 64);
	add(r, r->now / 64, 1);
	r->last[idx] = r->now++;
	return 0;
}

/* recent[0..p-1] one place down, line at the front. */
static void to_front(struct dgreuse *r, uint32_t p, uint64_t line, uint32_t idx)
{
	for (; p; p--) {
		r->recent[p] = r->recent[p - 1];
		r->recent_idx[p] = r->recent_idx[p - 1];
	}
	r->recent[0] = line;
	r->recent_idx[0] = idx;
}

uint64_t dgreuse_touch(struct dgreuse *r, uint64_t line)
{
	uint32_t p, idx;
	int added;
	long slot;
	uint64_t d = DGREUSE_FIRST;

	/* one of the most recent: its place is its distance */
	for (p = 0; p < r->nrecent; p++)
		if (r->recent[p] == line) {
			if (p)
				to_front(r, p, line, r->recent_idx[p]);
			return p;
		}
	slot = dghash_put(&r->at, line, r->n, &added);
	if (slot < 0)
		goto oom;
	if (added) {
		if (r->n >= IN_RECENT - 1 ||
		    dg_grow(&r->last, &r->lcap, (size_t)r->n + 1, sizeof *r->last) < 0)
			goto oom;
		idx = r->n++;
	} else {
		uint32_t t;

		idx = r->at.vals[slot];
		t = r->last[idx];
		/* every other line is a mark or recent: n - 1 of them; those
		   after t are n - 1 less the marks up to t, its own excluded */
		d = r->n - prefix(r, t);
		r->bits[t / 64] &= ~(1ULL << (t % 64));
		add(r, t / 64, -1);
	}
	r->last[idx] = IN_RECENT;       /* before a renumbering reads it */
	if (r->nrecent == DGREUSE_RECENT) {
		if (retire(r, r->recent_idx[DGREUSE_RECENT - 1]) < 0)
			goto oom;
		r->nrecent--;
	}
	to_front(r, r->nrecent++, line, idx);
	return d;
oom:
	r->oom = 1;
	return DGREUSE_FIRST;
}
