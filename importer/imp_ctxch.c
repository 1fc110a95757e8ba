/* imp_ctxch.c: the chunks of each context, held and written in context
 * order.  See imp_ctxch.h.
 *
 * A block holds IMP_CTXCH_BLK_DATA bytes of deltas and the index of the
 * next: 16 bytes, as most contexts of a trace with millions of them list
 * a few chunks (a compiler's: 8.7 on average, 15 bytes of deltas), and a
 * context listing one chunk takes no block at all.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdlib.h>
#include <string.h>

#include "imp_ctxch.h"
#include "dgctxch.h"
#include "dgmem.h"

#define IMP_CTXCH_BLK_DATA 11

struct imp_ctxch_blk {
	uint32_t next;               /* pool index + 1, 0: the last */
	uint8_t fill;
	uint8_t data[IMP_CTXCH_BLK_DATA];
};

void imp_ctxch_init(struct imp_ctxch *x, size_t budget)
{
	memset(x, 0, sizeof *x);
	x->max_blk = budget / sizeof(struct imp_ctxch_blk) + 1;
}

void imp_ctxch_free(struct imp_ctxch *x)
{
	free(x->ctx);
	free(x->pool);
	free(x->row);
	memset(x, 0, sizeof *x);
}

int imp_ctxch_full(const struct imp_ctxch *x)
{
	return x->n_blk >= x->max_blk;
}

/* A fresh block after c's tail (or as its head). */
static int blk_new(struct imp_ctxch *x, struct imp_ctxch_ctx *c)
{
	uint32_t b = (uint32_t)x->n_blk + 1;

	if (x->n_blk >= UINT32_MAX - 1
	    || dg_grow((void **)&x->pool, &x->cap_blk, x->n_blk + 1, sizeof *x->pool) < 0)
		return -1;
	x->pool[b - 1].next = 0;
	x->pool[b - 1].fill = 0;
	if (c->tail)
		x->pool[c->tail - 1].next = b;
	else
		c->head = b;
	c->tail = b;
	x->n_blk++;
	return 0;
}

int imp_ctxch_add(struct imp_ctxch *x, uint32_t ctx, uint32_t chunk)
{
	struct imp_ctxch_ctx *c;
	uint8_t d[DGC_LEB_MAX];
	size_t n, k;

	if (ctx >= x->cap_ctx) {
		size_t old = x->cap_ctx;
		if (dg_grow((void **)&x->ctx, &x->cap_ctx, (size_t)ctx + 1, sizeof *x->ctx) < 0)
			return -1;
		memset(x->ctx + old, 0, (x->cap_ctx - old) * sizeof *x->ctx);
	}
	if (ctx >= x->max_ctx)
		x->max_ctx = ctx + 1;
	c = &x->ctx[ctx];
	if (!c->lo) {
		c->lo = c->hi = chunk;
		return 0;
	}
	n = dgctxch_put(d, c->hi, chunk);
	for (k = 0; k < n; k++) {
		struct imp_ctxch_blk *b;
		if (!c->tail || x->pool[c->tail - 1].fill == IMP_CTXCH_BLK_DATA)
			if (blk_new(x, c) < 0)
				return -1;
		b = &x->pool[c->tail - 1];
		b->data[b->fill++] = d[k];
	}
	c->hi = chunk;
	return 0;
}

/* Context c's deltas, gathered into x->row; their length in *len. */
static int gather(struct imp_ctxch *x, const struct imp_ctxch_ctx *c, size_t *len)
{
	uint32_t b;

	*len = 0;
	for (b = c->head; b; b = x->pool[b - 1].next) {
		const struct imp_ctxch_blk *k = &x->pool[b - 1];
		if (dg_grow((void **)&x->row, &x->cap_row, *len + k->fill, 1) < 0)
			return -1;
		memcpy(x->row + *len, k->data, k->fill);
		*len += k->fill;
	}
	return 0;
}

int imp_ctxch_flush(struct imp_ctxch *x, imp_ctxch_row_fn *row, void *arg, int *oom)
{
	uint32_t i;
	size_t len;
	int rc = 0;

	*oom = 0;
	for (i = 0; i < x->max_ctx && rc == 0; i++) {
		struct imp_ctxch_ctx *c = &x->ctx[i];
		if (!c->lo)
			continue;
		if (gather(x, c, &len) < 0) {
			*oom = 1;
			return -1;
		}
		rc = row(arg, i, c->lo, c->hi, x->row, len);
		x->rows++;
		memset(c, 0, sizeof *c);
	}
	if (rc)
		return rc;
	x->n_blk = 0;
	x->max_ctx = 0;
	x->flushes++;
	return 0;
}
