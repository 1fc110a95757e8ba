/* dgreuse.c: see dgreuse.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "dgreuse.h"

#include <stdlib.h>
#include <string.h>

static void add(struct dgreuse *r, uint32_t i, int32_t v)
{
	for (; i <= r->cap; i += i & -i)
		r->tree[i] = (uint32_t)((int32_t)r->tree[i] + v);
}

/* Marks in slots 1..i. */
static uint32_t prefix(const struct dgreuse *r, uint32_t i)
{
	uint32_t s = 0;

	for (; i; i -= i & -i)
		s += r->tree[i];
	return s;
}

/* Slots of at least twice the distinct lines, renumbered: the marks keep
   their order in slots 1..n, the rest free. */
static int renumber(struct dgreuse *r)
{
	uint32_t cap = r->cap, k = 0, t;

	if (r->n >= cap / 2) {
		uint64_t want = (uint64_t)cap * 2;
		uint32_t *o, *tr;

		if (want > UINT32_MAX / 2)
			return -1;
		o = realloc(r->owner, ((size_t)want + 1) * sizeof *o);
		if (!o)
			return -1;
		r->owner = o;
		tr = realloc(r->tree, ((size_t)want + 1) * sizeof *tr);
		if (!tr)
			return -1;
		r->tree = tr;
		memset(r->owner + cap + 1, 0, ((size_t)want - cap) * sizeof *o);
		cap = (uint32_t)want;
	}
	for (t = 1; t <= r->now; t++)
		if (r->owner[t]) {
			uint32_t idx = r->owner[t] - 1;

			r->owner[t] = 0;
			r->owner[++k] = idx + 1;
			r->last[idx] = k;
		}
	memset(r->owner + k + 1, 0, (size_t)(cap - k) * sizeof *r->owner);
	r->cap = cap;
	r->now = k;
	/* the tree of k marks in slots 1..k, built in O(cap) */
	memset(r->tree, 0, ((size_t)cap + 1) * sizeof *r->tree);
	for (t = 1; t <= cap; t++) {
		uint32_t up = t + (t & -t);

		r->tree[t] += t <= k;
		if (up <= cap)
			r->tree[up] += r->tree[t];
	}
	return 0;
}

int dgreuse_init(struct dgreuse *r)
{
	memset(r, 0, sizeof *r);
	r->cap = 1024;
	r->owner = calloc((size_t)r->cap + 1, sizeof *r->owner);
	r->tree = calloc((size_t)r->cap + 1, sizeof *r->tree);
	if (!r->owner || !r->tree || dghash_init(&r->at, 1024) < 0) {
		dgreuse_free(r);
		return -1;
	}
	return 0;
}

void dgreuse_free(struct dgreuse *r)
{
	dghash_free(&r->at);
	free(r->last);
	free(r->owner);
	free(r->tree);
	memset(r, 0, sizeof *r);
}

uint64_t dgreuse_touch(struct dgreuse *r, uint64_t line)
{
	int added;
	long slot;
	uint32_t idx;
	uint64_t d = DGREUSE_FIRST;

	/* the line touched last again: distance 0, nothing moves */
	if (r->n && line == r->last_line)
		return 0;
	if (r->now == r->cap && renumber(r) < 0)
		goto oom;
	slot = dghash_put(&r->at, line, r->n, &added);
	if (slot < 0)
		goto oom;
	if (added) {
		if (r->n == r->lcap) {          /* the lines' arrays, doubled */
			size_t want = r->lcap ? (size_t)r->lcap * 2 : 1024;
			uint32_t *la;

			if (want > UINT32_MAX || !(la = realloc(r->last, want * sizeof *la)))
				goto oom;
			r->last = la;
			r->lcap = (uint32_t)want;
		}
		idx = r->n++;
	} else {
		idx = r->at.vals[slot];
		/* every line has one mark, at or before now: n of them */
		d = r->n - prefix(r, r->last[idx]);
		add(r, r->last[idx], -1);
		r->owner[r->last[idx]] = 0;
	}
	r->now++;
	r->last[idx] = r->now;
	r->owner[r->now] = idx + 1;
	add(r, r->now, 1);
	r->last_line = line;
	return d;
oom:
	r->oom = 1;
	return DGREUSE_FIRST;
}
