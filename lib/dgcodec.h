/* dgcodec.h: the run codec of BBRUNS records and database chunks, once.
 *
 * Promise: the bytes of a run exactly as docs/FORMAT.md §2.10 describes
 * them (a uleb head holding the zigzag context delta and the partial bit;
 * n_instrs and n_addrs when partial; each address as the zigzag error of
 * a per-slot stride prediction), and of BBCHAINS (§2.17: the same runs,
 * those that follow the way their predecessor's last successor did
 * counted in a one-byte chain head), encoded and decoded by the same static
 * inline functions for every user: the tool's writer (tool/dg_wr.h, no
 * libc), the log reader (lib/dglog.c), the database chunks (lib/dgchunk.c)
 * and the test log writer (lib/dgwrite.c).  It includes only <stdint.h>
 * (a freestanding header) and calls nothing.
 *
 * Ownership: the caller owns the output room, the prediction slots (two
 * words, last and stride, per access slot of a context, zero before first
 * use), the contexts' shapes and the count checks against them.  The codec
 * owns nothing (BBCHAINS: the caller keeps a struct dgc_next per context,
 * and the encoder a struct dgc_chain).  Encoders write without checking room: the caller makes
 * DGC_RUN_MAX(n_addrs) bytes first.  Decoders check every byte against
 * `end`, never read past it, and return 0 or a negative DGC_E_* code.
 *
 * `bits` is the log's word size in bits (64 or 32): deltas and addresses
 * are two's complement words of that size.  Callers pass a constant where
 * they can, so the masks fold away.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGCODEC_H
#define DGCODEC_H

#include <stdint.h>

#define DGC_LEB_MAX       10       /* bytes of the longest uleb */
#define DGC_HEAD_MAX      (2 * DGC_LEB_MAX + 1)   /* head, n_instrs, n_addrs */
#define DGC_RUN_MAX(n)    (DGC_HEAD_MAX + DGC_LEB_MAX * (uint64_t)(n))

enum {
	DGC_E_END      = -1,       /* the bytes end inside a field */
	DGC_E_OVERFLOW = -2,       /* a uleb above 2^64 */
	DGC_E_LONG     = -3,       /* a uleb longer than 10 bytes */
};

/* ------------------------------------------------------------ words */

static inline uint64_t dgc_mask(unsigned bits)
{
	return bits >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
}

/* 0,-1,1,-2 -> 0,1,2,3 on a word of `bits` bits. */
static inline uint64_t dgc_zigzag(uint64_t v, unsigned bits)
{
	v &= dgc_mask(bits);
	return ((v << 1) ^ (0 - (v >> (bits - 1)))) & dgc_mask(bits);
}

static inline uint64_t dgc_unzigzag(uint64_t z, unsigned bits)
{
	z &= dgc_mask(bits);
	return ((z >> 1) ^ (0 - (z & 1))) & dgc_mask(bits);
}

/* What a DGC_E_* code means, for a message about a blob; NULL for any
   other code (a codec's own, which its caller names). */
static inline const char *dgc_what(int e)
{
	switch (e) {
	case DGC_E_END:      return "the blob ends inside the number";
	case DGC_E_OVERFLOW: return "a number above 2^64";
	case DGC_E_LONG:     return "a number longer than 10 bytes";
	}
	return NULL;
}

/* A blob codec's own error codes and what they mean (its table, beside
   dgc_what's): e's meaning, else "malformed". */
struct dgc_what { int e; const char *what; };

static inline const char *dgc_what_in(int e, const struct dgc_what *table, unsigned n)
{
	const char *what = dgc_what(e);
	unsigned i;

	for (i = 0; !what && i < n; i++)
		if (table[i].e == e)
			what = table[i].what;
	return what ? what : "malformed";
}

/* ------------------------------------------------------------ uleb */

static inline uint8_t *dgc_put_uleb(uint8_t *o, uint64_t v)
{
	while (v >= 0x80) {
		*o++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*o++ = (uint8_t)v;
	return o;
}

/* The rare case of dgc_get_uleb: more than one byte, or the end. */
static inline int dgc_get_uleb_slow(const uint8_t **pp, const uint8_t *end,
                                    uint64_t *v)
{
	const uint8_t *p = *pp;
	uint64_t x = 0;
	unsigned shift;

	for (shift = 0; shift < 70; shift += 7) {
		uint8_t b;
		if (p >= end)
			return DGC_E_END;
		b = *p++;
		if (shift == 63 && (b & 0x7e))
			return DGC_E_OVERFLOW;
		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = x;
			*pp = p;
			return 0;
		}
	}
	return DGC_E_LONG;
}

static inline int dgc_get_uleb(const uint8_t **pp, const uint8_t *end,
                               uint64_t *v)
{
	if (*pp < end && **pp < 0x80) {     /* most values take one byte */
		*v = *(*pp)++;
		return 0;
	}
	return dgc_get_uleb_slow(pp, end, v);
}

/* Past n values as dgc_get_uleb reads them, with its errors, without
   their values (a scan that wants no address). */
static inline int dgc_skip_ulebs(const uint8_t **pp, const uint8_t *end, uint64_t n)
{
	const uint8_t *p = *pp;
	uint64_t v;
	int e;

	for (; n; n--) {
		if (p < end && *p < 0x80) {
			p++;
			continue;
		}
		if ((e = dgc_get_uleb_slow(&p, end, &v)) < 0)
			return e;
	}
	*pp = p;
	return 0;
}

/* ------------------------------------------------------------ runs */

/* The head of a run of context ctx after a run of context prev, and when
   partial the counts that follow it. */
static inline uint8_t *dgc_put_head(uint8_t *o, uint64_t ctx, uint64_t prev,
                                    int partial, uint32_t n_instrs,
                                    uint64_t n_addrs, unsigned bits)
{
	o = dgc_put_uleb(o, dgc_zigzag(ctx - prev, bits) << 1 | (partial != 0));
	if (partial) {
		*o++ = (uint8_t)n_instrs;
		o = dgc_put_uleb(o, n_addrs);
	}
	return o;
}

/* One address through its slot sl (last, stride). */
static inline uint8_t *dgc_put_addr(uint8_t *o, uint64_t *sl, uint64_t a,
                                    unsigned bits)
{
	a &= dgc_mask(bits);
	o = dgc_put_uleb(o, dgc_zigzag(a - (sl[0] + sl[1]), bits));
	sl[1] = sl[0] ? (a - sl[0]) & dgc_mask(bits) : 0;
	sl[0] = a;
	return o;
}

static inline uint8_t *dgc_put_addrs(uint8_t *o, uint64_t *sl,
                                     const uint64_t *a, uint64_t n,
                                     unsigned bits)
{
	uint64_t i;

	for (i = 0; i < n; i++, sl += 2)
		o = dgc_put_addr(o, sl, a[i], bits);
	return o;
}

/* A whole run; sl is the context's first slot. */
static inline uint8_t *dgc_put_run(uint8_t *o, uint64_t ctx, uint64_t prev,
                                   int partial, uint32_t n_instrs,
                                   uint64_t *sl, const uint64_t *a,
                                   uint64_t n_addrs, unsigned bits)
{
	o = dgc_put_head(o, ctx, prev, partial, n_instrs, n_addrs, bits);
	return dgc_put_addrs(o, sl, a, n_addrs, bits);
}

/* The head: the run's context (unchecked: the caller knows how many there
   are) and its partial bit. */
static inline int dgc_get_head(const uint8_t **pp, const uint8_t *end,
                               uint64_t prev, unsigned bits,
                               uint64_t *ctx, int *partial)
{
	uint64_t head;
	int e = dgc_get_uleb(pp, end, &head);

	if (e < 0)
		return e;
	*partial = (int)(head & 1);
	*ctx = (prev + dgc_unzigzag(head >> 1, bits)) & dgc_mask(bits);
	return 0;
}

/* A partial run's counts (unchecked against the block).  On an error
   *field names the field. */
static inline int dgc_get_counts(const uint8_t **pp, const uint8_t *end,
                                 uint32_t *n_instrs, uint64_t *n_addrs,
                                 const char **field)
{
	*field = "n_instrs";
	if (*pp >= end)
		return DGC_E_END;
	*n_instrs = *(*pp)++;
	*field = "n_addrs";
	return dgc_get_uleb(pp, end, n_addrs);
}

/* n addresses through the slots from sl into out. */
static inline int dgc_get_addrs(const uint8_t **pp, const uint8_t *end,
                                uint64_t *sl, uint64_t *out, uint64_t n,
                                unsigned bits)
{
	uint64_t i, z, a;
	int e;

	for (i = 0; i < n; i++, sl += 2) {
		if ((e = dgc_get_uleb(pp, end, &z)) < 0)
			return e;
		a = (sl[0] + sl[1] + dgc_unzigzag(z, bits)) & dgc_mask(bits);
		sl[1] = sl[0] ? (a - sl[0]) & dgc_mask(bits) : 0;
		sl[0] = a;
		out[i] = a;
	}
	return 0;
}

/* The database chunks' variant (meta chunk_coding "chains-near"): a slot
   not used yet in the chunk (last 0) predicts the address decoded just
   before it in the chunk, *ref, instead of 0; every address becomes the
   next *ref.  A chunk starts with every slot at 0, so its first sighting
   of a context would otherwise cost a whole address: on a compiler's
   trace, with millions of contexts, half a chunk's bytes.  Nearby is
   what a run's first access usually is to the access before it (the same
   frame, the same object). */
static inline uint8_t *dgc_put_addrs_ref(uint8_t *o, uint64_t *sl,
                                         const uint64_t *a, uint64_t n,
                                         uint64_t *ref, unsigned bits)
{
	uint64_t i, x, pred;

	for (i = 0; i < n; i++, sl += 2) {
		x = a[i] & dgc_mask(bits);
		pred = sl[0] ? sl[0] + sl[1] : *ref;
		o = dgc_put_uleb(o, dgc_zigzag(x - pred, bits));
		sl[1] = sl[0] ? (x - sl[0]) & dgc_mask(bits) : 0;
		sl[0] = x;
		*ref = x;
	}
	return o;
}

static inline int dgc_get_addrs_ref(const uint8_t **pp, const uint8_t *end,
                                    uint64_t *sl, uint64_t *out, uint64_t n,
                                    uint64_t *ref, unsigned bits)
{
	uint64_t i, z, a, r = *ref;
	int e;

	for (i = 0; i < n; i++, sl += 2) {
		if ((e = dgc_get_uleb(pp, end, &z)) < 0)
			return e;
		a = ((sl[0] ? sl[0] + sl[1] : r) + dgc_unzigzag(z, bits)) & dgc_mask(bits);
		sl[1] = sl[0] ? (a - sl[0]) & dgc_mask(bits) : 0;
		sl[0] = a;
		out[i] = r = a;
	}
	*ref = r;
	return 0;
}

/* ------------------------------------------------------------ chains */

/* A run's shape as one word: 0 for the whole block, else n_instrs |
   n_addrs << 8 | 1 << 31 (the tool's raw entries use the same word). */
#define DGC_PARTIAL       (1u << 31)
#define DGC_CHAIN_MAX     64         /* runs a chain head counts, at most */

#define DGC_INFO_ADDRS_MAX 0x7FFFFFu   /* the n_addrs a shape word holds */

static inline uint32_t dgc_info(int partial, uint32_t n_instrs, uint64_t n_addrs)
{
	return partial ? DGC_PARTIAL | (uint32_t)(n_addrs << 8) | (n_instrs & 0xFF) : 0;
}

/* A partial run's counts, out of its shape word (info != 0). */
static inline uint32_t dgc_info_instrs(uint32_t info)
{
	return info & 0xFF;
}

static inline uint32_t dgc_info_addrs(uint32_t info)
{
	return info >> 8 & DGC_INFO_ADDRS_MAX;
}

/* Per context: the context and shape of the run that last followed it.
   Before that, the next context index with the whole block (contexts are
   numbered in the order they first run, so a new one is often next). */
struct dgc_next { uint32_t ctx, info; };

static inline struct dgc_next dgc_next_init(uint64_t ctx)
{
	struct dgc_next n = { (uint32_t)ctx + 1, 0 };
	return n;
}

/* The encoder's state between runs of a BBCHAINS record: the previous
   run's context (kept across records: a record starts from the last run
   of the one before) and the open chain's head byte (NULL at a record's
   start: a chain never spans records). */
struct dgc_chain { uint8_t *head; uint64_t prev; };

/* The head of a run of context ctx with shape info (n_addrs addresses);
   next is the previous run's context's dgc_next.  The run's addresses
   follow (dgc_put_addrs), as in BBRUNS. */
static inline uint8_t *dgc_put_chain_head(uint8_t *o, struct dgc_chain *ch,
                                          struct dgc_next *next, uint64_t ctx,
                                          uint32_t info, uint64_t n_addrs,
                                          unsigned bits)
{
	if (next->ctx == ctx && next->info == info) {
		if (ch->head && *ch->head < 2 * DGC_CHAIN_MAX - 1)
			*ch->head += 2;
		else
			*(ch->head = o++) = 1;
	} else {
		ch->head = 0;
		o = dgc_put_uleb(o, dgc_zigzag(ctx - ch->prev, bits) << 2
		                    | (uint64_t)(info != 0) << 1);
		if (info) {
			*o++ = (uint8_t)info;
			o = dgc_put_uleb(o, n_addrs);
		}
		next->ctx = (uint32_t)ctx;
		next->info = info;
	}
	ch->prev = ctx;
	return o;
}

/* The decoder's side of a head: a chain of *chain runs (as predicted), or
   one explicit run of context *ctx, partial or not (then *chain is 0).
   The caller reads a partial run's counts (dgc_get_counts), checks the
   context and counts, and records what followed (dgc_next). */
static inline int dgc_get_chain_head(const uint8_t **pp, const uint8_t *end,
                                     uint64_t prev, unsigned bits,
                                     uint64_t *chain, uint64_t *ctx,
                                     int *partial)
{
	uint64_t head;
	int e = dgc_get_uleb(pp, end, &head);

	if (e < 0)
		return e;
	*chain = head & 1 ? (head >> 1) + 1 : 0;
	*partial = (int)(head >> 1 & 1);
	*ctx = (prev + dgc_unzigzag(head >> 2, bits)) & dgc_mask(bits);
	return 0;
}

#endif
