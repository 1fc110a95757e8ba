/* dgchunk.c: the run codec.  See dgchunk.h. */
#include <stdlib.h>
#include <string.h>
#include "dgchunk.h"
#include "dgcodec.h"
#include "dgmem.h"

void dgchunk_init(struct dgchunk_codec *c)
{
	memset(c, 0, sizeof *c);
	c->epoch = 1;
}

void dgchunk_free(struct dgchunk_codec *c)
{
	free(c->ctx);
	free(c->slots);
	free(c->addrs);
	memset(c, 0, sizeof *c);
}

void dgchunk_buf_free(struct dgchunk_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof *b);
}


int dgchunk_add_context(struct dgchunk_codec *c, uint32_t n_instrs,
                        uint32_t n_accesses)
{
	struct dgchunk_shape *s;

	if (dg_grow((void **)&c->ctx, &c->cap_ctx, c->n_ctx + 1, sizeof *c->ctx) < 0
	    || dg_grow((void **)&c->slots, &c->cap_slots,
	            c->n_slots + 2 * (size_t)n_accesses, sizeof *c->slots) < 0)
		return -1;
	s = &c->ctx[c->n_ctx++];
	s->n_instrs = n_instrs;
	s->n_accesses = n_accesses;
	s->epoch = 0;
	s->slot_base = c->n_slots;
	c->n_slots += 2 * (size_t)n_accesses;
	return 0;
}

/* The slots of context k, reset if this chunk has not used them yet. */
static uint64_t *slots_of(struct dgchunk_codec *c, uint64_t k)
{
	struct dgchunk_shape *s = &c->ctx[k];
	uint64_t *sl;

	if (s->n_accesses == 0)      /* no slots; c->slots may still be NULL */
		return NULL;
	sl = c->slots + s->slot_base;
	if (s->epoch != c->epoch) {
		memset(sl, 0, 2 * (size_t)s->n_accesses * sizeof *sl);
		s->epoch = c->epoch;
	}
	return sl;
}

void dgchunk_begin(struct dgchunk_codec *c)
{
	c->epoch++;
	c->prev = 0;
}

int dgchunk_put_run(struct dgchunk_codec *c, struct dgchunk_buf *b,
                    uint64_t context, int partial, uint32_t n_instrs,
                    const uint64_t *addrs, uint32_t n_addrs)
{
	uint64_t *sl = slots_of(c, context);
	uint8_t *o;

	if (dg_grow((void **)&b->data, &b->cap, b->len + DGC_RUN_MAX(n_addrs), 1) < 0)
		return -1;
	o = dgc_put_run(b->data + b->len, context, c->prev, partial, n_instrs,
	                sl, addrs, n_addrs, 64);
	b->len = o - b->data;
	c->prev = context;
	return 0;
}

void dgchunk_decode_begin(struct dgchunk_codec *c, const void *data, size_t len)
{
	dgchunk_begin(c);
	c->p = data;
	c->end = c->p + len;
}

int dgchunk_next(struct dgchunk_codec *c, struct dgchunk_run *r)
{
	const struct dgchunk_shape *s;
	const char *field;
	uint64_t k, n;

	if (c->p >= c->end)
		return 0;
	if (dgc_get_head(&c->p, c->end, c->prev, 64, &k, &r->partial) < 0
	    || k >= c->n_ctx)
		return -1;
	s = &c->ctx[k];
	r->context = k;
	r->n_instrs = s->n_instrs;
	r->n_addrs = s->n_accesses;
	if (r->partial) {
		if (dgc_get_counts(&c->p, c->end, &r->n_instrs, &n, &field) < 0
		    || n > s->n_accesses
		    || r->n_instrs == 0 || r->n_instrs > s->n_instrs)
			return -1;
		r->n_addrs = (uint32_t)n;
	}
	if (dg_grow((void **)&c->addrs, &c->cap_addrs, r->n_addrs + 1, sizeof *c->addrs) < 0
	    || dgc_get_addrs(&c->p, c->end, slots_of(c, k), c->addrs, r->n_addrs, 64) < 0)
		return -1;
	r->addrs = c->addrs;
	c->prev = k;
	return 1;
}
