/* dgvt_live.c: the heap blocks live at a moving instant.  See dgvt_live.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdlib.h>
#include <string.h>

#include "dgvt_live.h"

/* Level L: regions of 1 << (6 + 3L) bytes, blocks of up to 16 of them. */
#define LEVEL_SHIFT(L) (6 + 3 * (L))
#define LEVEL_MAX_SIZE(L) ((int64_t)16 << LEVEL_SHIFT(L))

/* ------------------------------------------------------------ order */

static int by_alloc_cmp(const void *pa, const void *pb, void *arg)
{
	const struct dgvt_blk *blk = arg;
	int64_t a = blk[*(const uint32_t *)pa].alloc, b = blk[*(const uint32_t *)pb].alloc;

	return a < b ? -1 : a > b;
}

static int by_free_cmp(const void *pa, const void *pb, void *arg)
{
	const struct dgvt_blk *blk = arg;
	int64_t a = blk[*(const uint32_t *)pa].free, b = blk[*(const uint32_t *)pb].free;

	return a < b ? -1 : a > b;
}

int dgvt_live_order_make(const struct dgvt_model *m, struct dgvt_live_order *o)
{
	size_t i;

	memset(o, 0, sizeof *o);
	if (m->n_blk >= UINT32_MAX)
		return -1;
	o->by_alloc = malloc((m->n_blk + 1) * sizeof *o->by_alloc);
	o->by_free = malloc((m->n_blk + 1) * sizeof *o->by_free);
	if (!o->by_alloc || !o->by_free) {
		dgvt_live_order_free(o);
		return -1;
	}
	for (i = 0; i < m->n_blk; i++)
		o->by_alloc[i] = o->by_free[i] = (uint32_t)i;
	o->n = m->n_blk;
	qsort_r(o->by_alloc, o->n, sizeof *o->by_alloc, by_alloc_cmp, m->blk);
	qsort_r(o->by_free, o->n, sizeof *o->by_free, by_free_cmp, m->blk);
	return 0;
}

void dgvt_live_order_free(struct dgvt_live_order *o)
{
	free(o->by_alloc);
	free(o->by_free);
	memset(o, 0, sizeof *o);
}

/* ------------------------------------------------------------ the set */

void dgvt_live_init(struct dgvt_live *l, const struct dgvt_model *m, const struct dgvt_live_order *o)
{
	memset(l, 0, sizeof *l);
	l->m = m;
	l->o = o;
	l->t = INT64_MIN;
	if (!o->by_alloc)
		l->broken = 1;
	for (int i = 0; i < DGVT_LIVE_LEVELS; i++)
		if (dghash_init(&l->level[i].regions, 64) < 0)
			l->broken = 1;
}

void dgvt_live_free(struct dgvt_live *l)
{
	for (int i = 0; i < DGVT_LIVE_LEVELS; i++)
		dghash_free(&l->level[i].regions);
	free(l->nodes);
	free(l->big);
	memset(l, 0, sizeof *l);
}

/* The level of a block (DGVT_LIVE_LEVELS: the list of the largest). */
static int level_of(const struct dgvt_blk *k)
{
	int L = 0;

	while (L < DGVT_LIVE_LEVELS && k->end - k->addr > LEVEL_MAX_SIZE(L))
		L++;
	return L;
}

static uint32_t node_new(struct dgvt_live *l, uint32_t blk, uint32_t next)
{
	uint32_t n = l->free_node;

	if (n) {
		l->free_node = l->nodes[n - 1].next;
	} else {
		if (l->n_nodes == l->cap_nodes) {
			size_t cap = l->cap_nodes ? 2 * l->cap_nodes : 1024;
			struct dgvt_live_node *p = realloc(l->nodes, cap * sizeof *p);
			if (!p || cap >= UINT32_MAX)
				return 0;
			l->nodes = p, l->cap_nodes = cap;
		}
		n = (uint32_t)++l->n_nodes;
	}
	l->nodes[n - 1].blk = blk;
	l->nodes[n - 1].next = next;
	return n;
}

/* Whether c is more inner than the best so far (dgvtab.h's block_id: the
   highest start, then the latest allocated). */
static int inner(const struct dgvt_blk *c, const struct dgvt_blk *best)
{
	return !best || c->addr > best->addr || (c->addr == best->addr && c->alloc > best->alloc);
}

/* The innermost live block holding a (the set as it stands). */
static const struct dgvt_blk *lookup(struct dgvt_live *l, int64_t a, int *found)
{
	const struct dgvt_blk *blk = l->m->blk, *best = NULL;
	uint32_t n;
	size_t i;
	int L;

	for (L = 0; L < DGVT_LIVE_LEVELS; L++) {
		if (!l->level[L].live)
			continue;
		for (n = dghash_get(&l->level[L].regions, (uint64_t)(a >> LEVEL_SHIFT(L)));
		     n && n != DGHASH_NONE; n = l->nodes[n - 1].next) {
			const struct dgvt_blk *c = &blk[l->nodes[n - 1].blk];
			if (c->addr <= a && a < c->end && inner(c, best))
				best = c;
		}
		if (best && !l->nested)
			break;  /* live blocks do not overlap: it is the one */
	}
	for (i = 0; i < l->n_big && !(best && !l->nested); i++) {
		const struct dgvt_blk *c = &blk[l->big[i]];
		if (c->addr <= a && a < c->end && inner(c, best))
			best = c;
	}
	*found = best != NULL;
	return best;
}

static int add(struct dgvt_live *l, uint32_t b)
{
	const struct dgvt_blk *k = &l->m->blk[b];
	int64_t r;
	int L;

	if (k->end <= k->addr)
		return 0;       /* holds no address */
	if (!l->nested) {       /* it starts or ends inside a live block */
		int in_start, in_end;
		lookup(l, k->addr, &in_start);
		lookup(l, k->end - 1, &in_end);
		l->nested = in_start || in_end;
	}
	if ((L = level_of(k)) == DGVT_LIVE_LEVELS) {
		if (l->n_big == l->cap_big) {
			size_t cap = l->cap_big ? 2 * l->cap_big : 16;
			uint32_t *p = realloc(l->big, cap * sizeof *p);
			if (!p)
				return -1;
			l->big = p, l->cap_big = cap;
		}
		l->big[l->n_big++] = b;
		return 0;
	}
	for (r = k->addr >> LEVEL_SHIFT(L); r <= (k->end - 1) >> LEVEL_SHIFT(L); r++) {
		struct dghash *h = &l->level[L].regions;
		int added;
		long s = dghash_put(h, (uint64_t)r, 0, &added);
		uint32_t n;
		if (s < 0 || !(n = node_new(l, b, h->vals[s])))
			return -1;
		h->vals[s] = n;
	}
	l->level[L].live++;
	return 0;
}

static void del(struct dgvt_live *l, uint32_t b)
{
	const struct dgvt_blk *k = &l->m->blk[b];
	int64_t r;
	size_t i;
	int L;

	if (k->end <= k->addr)
		return;
	if ((L = level_of(k)) == DGVT_LIVE_LEVELS) {
		for (i = 0; i < l->n_big; i++)
			if (l->big[i] == b) {
				l->big[i] = l->big[--l->n_big];
				return;
			}
		return;
	}
	l->level[L].live--;
	for (r = k->addr >> LEVEL_SHIFT(L); r <= (k->end - 1) >> LEVEL_SHIFT(L); r++) {
		long s = dghash_slot(&l->level[L].regions, (uint64_t)r);
		uint32_t *link, n;
		if (s < 0)
			continue;
		for (link = &l->level[L].regions.vals[s]; (n = *link) != 0; link = &l->nodes[n - 1].next)
			if (l->nodes[n - 1].blk == b) {
				*link = l->nodes[n - 1].next;
				l->nodes[n - 1].next = l->free_node;
				l->free_node = n;
				break;
			}
	}
}

/* The set at instant t (>= l->t): frees at or before t out, then
   allocations at or before t in (a block both allocated and freed by t is
   never put in; realloc's new block, allocated at the instant the old one
   is freed, never meets it). */
static int advance(struct dgvt_live *l, int64_t t)
{
	const struct dgvt_blk *blk = l->m->blk;

	while (l->ifr < l->o->n && blk[l->o->by_free[l->ifr]].free <= t) {
		uint32_t b = l->o->by_free[l->ifr++];
		if (blk[b].alloc <= l->t)       /* put in at an earlier instant */
			del(l, b);
	}
	while (l->ia < l->o->n && blk[l->o->by_alloc[l->ia]].alloc <= t) {
		uint32_t b = l->o->by_alloc[l->ia++];
		if (blk[b].free > t && add(l, b) < 0)
			return -1;
	}
	l->t = t;
	return 0;
}


/* The range around a (in no block, now) that no block ever covers, from
   the model's blocks sorted by start: from the farthest end of those
   starting at or below a to the next start; none if a block starting
   below a reaches past it. */
static void set_gap(struct dgvt_live *l, int64_t a)
{
	const struct dgvt_model *m = l->m;
	size_t lo = dgvt_blocks_above(m, a);

	if (lo > 0 && m->maxend[lo - 1] > a) {
		l->span_lo = m->blk[lo - 1].addr;
		l->span_hi = lo < m->n_blk ? m->blk[lo].addr : INT64_MAX;
		return;
	}
	l->gap_lo[1] = l->gap_lo[0];
	l->gap_hi[1] = l->gap_hi[0];
	l->gap_lo[0] = lo > 0 ? m->maxend[lo - 1] : INT64_MIN;
	l->gap_hi[0] = lo < m->n_blk ? m->blk[lo].addr : INT64_MAX;
}

int64_t dgvt_live_block_at(struct dgvt_live *l, int64_t a, int64_t t, int *found)
{
	const struct dgvt_blk *c;

	if (l->broken || t < l->t)
		return dgvt_block_at(l->m, a, t, found);
	if ((a >= l->gap_lo[0] && a < l->gap_hi[0]) || (a >= l->gap_lo[1] && a < l->gap_hi[1])) {
		*found = 0;
		return -1;
	}
	if (t > l->t && advance(l, t) < 0) {
		l->broken = 1;
		return dgvt_block_at(l->m, a, t, found);
	}
	for (int i = 0; i < 2 && !l->nested; i++) {
		c = l->last[i];
		if (c && c->addr <= a && a < c->end && c->alloc <= t && t < c->free) {
			l->last[i] = l->last[0];
			l->last[0] = c;
			*found = 1;
			return c->id;
		}
	}
	if ((c = lookup(l, a, found))) {
		l->last[1] = l->last[0];
		l->last[0] = c;
		return c->id;
	}
	if (a < l->span_lo || a >= l->span_hi)
		set_gap(l, a);
	return -1;
}
