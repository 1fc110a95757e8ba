/* dgchunk.c: the run codec.  See dgchunk.h. */
#include <stdlib.h>
#include <string.h>
#include "dgchunk.h"
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

static inline uint64_t zigzag(uint64_t v) { return (v << 1) ^ (uint64_t)((int64_t)v >> 63); }
static inline uint64_t unzigzag(uint64_t v) { return (v >> 1) ^ (0 - (v & 1)); }

static inline uint8_t *put_uleb(uint8_t *o, uint64_t v)
{
	while (v >= 0x80) {
		*o++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*o++ = (uint8_t)v;
	return o;
}

int dgchunk_put_run(struct dgchunk_codec *c, struct dgchunk_buf *b,
                    uint64_t context, int partial, uint32_t n_instrs,
                    const uint64_t *addrs, uint32_t n_addrs)
{
	uint64_t *sl = slots_of(c, context);
	uint8_t *o;
	uint32_t i;

	if (dg_grow((void **)&b->data, &b->cap, b->len + 22 + 10 * (size_t)n_addrs, 1) < 0)
		return -1;
	o = b->data + b->len;
	o = put_uleb(o, zigzag(context - c->prev) << 1 | (partial ? 1 : 0));
	if (partial) {
		*o++ = (uint8_t)n_instrs;
		o = put_uleb(o, n_addrs);
	}
	for (i = 0; i < n_addrs; i++, sl += 2) {
		uint64_t a = addrs[i];
		o = put_uleb(o, zigzag(a - (sl[0] + sl[1])));
		sl[1] = sl[0] ? a - sl[0] : 0;
		sl[0] = a;
	}
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

static inline int get_uleb(struct dgchunk_codec *c, uint64_t *v)
{
	uint64_t x = 0;
	unsigned shift = 0;

	while (c->p < c->end) {
		uint8_t byte = *c->p++;
		if (shift == 63 && byte > 1)
			return -1;
		x |= (uint64_t)(byte & 0x7F) << shift;
		if (!(byte & 0x80)) {
			*v = x;
			return 0;
		}
		shift += 7;
		if (shift > 63)
			return -1;
	}
	return -1;
}

int dgchunk_next(struct dgchunk_codec *c, struct dgchunk_run *r)
{
	const struct dgchunk_shape *s;
	uint64_t head, k, n, *sl;
	uint32_t i;

	if (c->p >= c->end)
		return 0;
	if (get_uleb(c, &head) < 0)
		return -1;
	k = c->prev + unzigzag(head >> 1);
	if (k >= c->n_ctx)
		return -1;
	s = &c->ctx[k];
	r->context = k;
	r->partial = head & 1;
	r->n_instrs = s->n_instrs;
	r->n_addrs = s->n_accesses;
	if (r->partial) {
		if (c->p >= c->end)
			return -1;
		r->n_instrs = *c->p++;
		if (get_uleb(c, &n) < 0 || n > s->n_accesses
		    || r->n_instrs == 0 || r->n_instrs > s->n_instrs)
			return -1;
		r->n_addrs = (uint32_t)n;
	}
	if (dg_grow((void **)&c->addrs, &c->cap_addrs, r->n_addrs + 1, sizeof *c->addrs) < 0)
		return -1;
	sl = slots_of(c, k);
	for (i = 0; i < r->n_addrs; i++, sl += 2) {
		uint64_t d, a;
		if (get_uleb(c, &d) < 0)
			return -1;
		a = sl[0] + sl[1] + unzigzag(d);
		sl[1] = sl[0] ? a - sl[0] : 0;
		sl[0] = a;
		c->addrs[i] = a;
	}
	r->addrs = c->addrs;
	c->prev = k;
	return 1;
}
