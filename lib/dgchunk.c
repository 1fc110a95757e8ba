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
	c->head = DGCHUNK_NO_HEAD;
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

	if (c->n_ctx >= UINT32_MAX
	    || dg_grow((void **)&c->ctx, &c->cap_ctx, c->n_ctx + 1, sizeof *c->ctx) < 0)
		return -1;
	s = &c->ctx[c->n_ctx++];
	s->n_instrs = n_instrs;
	s->n_accesses = n_accesses;
	s->epoch = 0;
	s->slot_off = 0;
	return 0;
}

/* Context k's state as the chunk starts: its successor, and its slots,
   zeroed, taken from this chunk's area.  0, or -1 when the area cannot
   grow. */
static __attribute__((noinline)) int state_reset(struct dgchunk_codec *c,
                                                 struct dgchunk_shape *s, uint64_t k)
{
	size_t words = 2 * (size_t)s->n_accesses;

	if (c->n_slots + words > UINT32_MAX
	    || dg_grow((void **)&c->slots, &c->cap_slots, c->n_slots + words + 1,
	               sizeof *c->slots) < 0)
		return -1;
	memset(c->slots + c->n_slots, 0, words * sizeof *c->slots);
	s->slot_off = (uint32_t)c->n_slots;
	c->n_slots += words;
	s->next = dgc_next_init(k);
	s->epoch = c->epoch;
	return 0;
}

/* Context k's state, reset if this chunk has not used it yet; NULL when
   out of memory. */
static inline struct dgchunk_shape *state_of(struct dgchunk_codec *c, uint64_t k)
{
	struct dgchunk_shape *s = &c->ctx[k];

	if (__builtin_expect(s->epoch != c->epoch, 0) && state_reset(c, s, k) < 0)
		return NULL;
	return s;
}

/* Its slots: valid until the next state_of (the area may move). */
static uint64_t *slots_of(struct dgchunk_codec *c, const struct dgchunk_shape *s)
{
	return c->slots + s->slot_off;
}

static const char *const coding_names[] = {
	[DGCHUNK_CHAINS] = "chains",
	[DGCHUNK_NEAR] = "chains-near",
};

const char *dgchunk_coding_name(enum dgchunk_coding coding)
{
	return (size_t)coding < sizeof coding_names / sizeof *coding_names
	       ? coding_names[coding] : NULL;
}

int dgchunk_coding_named(const char *name)
{
	size_t i;

	for (i = 0; name && i < sizeof coding_names / sizeof *coding_names; i++)
		if (coding_names[i] && strcmp(name, coding_names[i]) == 0)
			return (int)i;
	return -1;
}

void dgchunk_set_coding(struct dgchunk_codec *c, enum dgchunk_coding coding)
{
	c->coding = coding;
}

void dgchunk_begin(struct dgchunk_codec *c)
{
	c->epoch++;
	c->n_slots = 0;
	c->prev = 0;
	c->ref = 0;
	c->head = DGCHUNK_NO_HEAD;
	c->chain_left = 0;
}

int dgchunk_put_run(struct dgchunk_codec *c, struct dgchunk_buf *b,
                    uint64_t context, int partial, uint32_t n_instrs,
                    const uint64_t *addrs, uint32_t n_addrs)
{
	struct dgchunk_shape *s;
	struct dgc_chain ch;
	uint8_t *o;

	if (partial && n_addrs > DGC_INFO_ADDRS_MAX)
		return -1;
	if (dg_grow((void **)&b->data, &b->cap, b->len + DGC_RUN_MAX(n_addrs), 1) < 0)
		return -1;
	o = b->data + b->len;
	if (c->coding == DGCHUNK_RUNS) {
		if (!(s = state_of(c, context)))
			return -1;
		o = dgc_put_run(o, context, c->prev, partial, n_instrs, slots_of(c, s),
		                addrs, n_addrs, 64);
	} else {
		struct dgchunk_shape *p = state_of(c, c->prev);

		if (!p || !(s = state_of(c, context)))
			return -1;
		/* the head byte is kept as an offset: the buffer may move */
		ch.head = c->head == DGCHUNK_NO_HEAD ? NULL : b->data + c->head;
		ch.prev = c->prev;
		o = dgc_put_chain_head(o, &ch, &p->next, context,
		                       dgc_info(partial, n_instrs, n_addrs), n_addrs, 64);
		c->head = ch.head ? (size_t)(ch.head - b->data) : DGCHUNK_NO_HEAD;
		o = c->coding == DGCHUNK_NEAR
		    ? dgc_put_addrs_ref(o, slots_of(c, s), addrs, n_addrs, &c->ref, 64)
		    : dgc_put_addrs(o, slots_of(c, s), addrs, n_addrs, 64);
	}
	b->len = o - b->data;
	c->prev = context;
	return 0;
}

void dgchunk_decode_begin(struct dgchunk_codec *c, const void *data, size_t len)
{
	dgchunk_begin(c);
	c->p = c->start = data;
	c->end = len ? c->p + len : c->p;   /* SQLite's empty blob is NULL */
	c->len = len;
	c->runs = 0;
	c->skipping = c->need != NULL;
}

void dgchunk_skip_addrs(struct dgchunk_codec *c, const uint8_t *need)
{
	c->need = need;
}

/* The next run's context and shape: from an explicit head (BBRUNS, or a
   BBCHAINS item without a chain), or as the successor of the previous
   run's context.  0, or -1 malformed, -2 out of memory. */
static inline __attribute__((always_inline)) int next_head(struct dgchunk_codec *c,
                                                        struct dgchunk_run *r)
{
	const struct dgchunk_shape *s;
	struct dgchunk_shape *p;
	struct dgc_next nx;
	const char *field;
	uint64_t k, n, chain = 0;

	if (c->chain_left == 0) {
		if (c->coding == DGCHUNK_RUNS ? dgc_get_head(&c->p, c->end, c->prev, 64, &k, &r->partial) < 0
		    : dgc_get_chain_head(&c->p, c->end, c->prev, 64, &chain, &k, &r->partial) < 0)
			return -1;
		if (chain > DGC_CHAIN_MAX)
			return -1;
		c->chain_left = chain;
	}
	if (c->chain_left) {            /* a chained run: prev's successor */
		c->chain_left--;
		if (!(p = state_of(c, c->prev)))
			return -2;
		nx = p->next;
		if (nx.ctx >= c->n_ctx)
			return -1;
		r->context = nx.ctx;
		r->partial = nx.info != 0;
		s = &c->ctx[nx.ctx];
		r->n_instrs = r->partial ? dgc_info_instrs(nx.info) : s->n_instrs;
		r->n_addrs = r->partial ? dgc_info_addrs(nx.info) : s->n_accesses;
		return 0;               /* the shape was checked when stored */
	}
	if (k >= c->n_ctx)
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
	if (c->coding != DGCHUNK_RUNS) {
		if (!(p = state_of(c, c->prev)))
			return -2;
		p->next = (struct dgc_next){
			(uint32_t)k, dgc_info(r->partial, r->n_instrs, r->n_addrs) };
	}
	return 0;
}

/* A run that needs its addresses, in a chunk decoded without them so far:
   the chunk again from its start, in full, to that run (the same one: the
   decoding is a function of the bytes). */
static int decode_again(struct dgchunk_codec *c, struct dgchunk_run *r)
{
	uint32_t k, n = c->runs;
	int e;

	dgchunk_begin(c);
	c->p = c->start;
	c->runs = 0;
	c->skipping = 0;
	for (k = 0; k <= n; k++)
		if ((e = dgchunk_next(c, r)) <= 0)
			return e < 0 ? e : -1;
	return 1;
}

int dgchunk_next(struct dgchunk_codec *c, struct dgchunk_run *r)
{
	const struct dgchunk_shape *s;
	int e;

	if (c->chain_left == 0 && c->p >= c->end)
		return 0;
	if ((e = next_head(c, r)) < 0)
		return e;
	if (c->skipping && !(c->need[r->context >> 3] & (1u << (r->context & 7)))) {
		if (dgc_skip_ulebs(&c->p, c->end, r->n_addrs) < 0)
			return -1;
		r->addrs = NULL;
		c->prev = r->context;
		c->runs++;
		return 1;
	}
	if (c->skipping)
		return decode_again(c, r);
	if (!(s = state_of(c, r->context))
	    || dg_grow((void **)&c->addrs, &c->cap_addrs, r->n_addrs + 1, sizeof *c->addrs) < 0)
		return -2;
	if ((c->coding == DGCHUNK_NEAR
	     ? dgc_get_addrs_ref(&c->p, c->end, slots_of(c, s), c->addrs, r->n_addrs, &c->ref, 64)
	     : dgc_get_addrs(&c->p, c->end, slots_of(c, s), c->addrs, r->n_addrs, 64)) < 0)
		return -1;
	r->addrs = c->addrs;
	c->prev = r->context;
	c->runs++;
	return 1;
}
