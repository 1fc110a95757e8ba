/* dgchunk_fuzz.c: libFuzzer target for the chunk codec (lib/dgchunk).
 *
 * The input's first bytes give the contexts' shapes:
 *
 *     u8 n                      1 + n % 16 contexts; n >> 4 & 3: the
 *                               chunks' coding, 0 BBCHAINS, 1 BBRUNS
 *                               (schema 8 and older), 2 and 3 BBCHAINS with
 *                               a slot's first address predicted from the
 *                               one before ("chains-near", schema 14 on)
 *     { u8 instrs; u8 acc; }    n_instrs 1 + instrs % 255, n_accesses acc % 64
 *
 * and the rest, P, is used twice:
 *
 *   1. decoded as a chunk: every run the decoder gives must fit its
 *      context (context registered, 1 <= n_instrs <= the shape's, n_addrs
 *      <= its accesses, a whole run when not partial) and it must end in 0
 *      or -1 after at most one run per byte (BBRUNS) or 64 (a BBCHAINS
 *      chain head byte), never reading past P (ASAN);
 *   2. read as a description of runs, which are encoded into chunks and
 *      decoded back: the runs must come out exactly as they went in.
 *      Per run: u8 k (0xFE starts a new chunk instead), context k % n;
 *      u8 f, partial f & 1; if partial, u8 n_instrs and u8 n_addrs (reduced
 *      to the shape); then per address u8 d: 0xFF takes the next 8 bytes
 *      as the address, else the address is the previous one plus
 *      (int8_t)d * 8 (strides, which the predictor makes small).
 *
 * Both are done again with the addresses skipped (dgchunk_skip_addrs) but
 * for the contexts of odd instrs byte: the runs, their order and the
 * decoder's last answer must be the same, and a run's addrs exact, or
 * NULL for a context not needed (after a needed one, a chunk is decoded
 * in full).
 *
 * A failed check is __builtin_trap().  Build and run: make fuzz FUZZ=dgchunk
 * (tests/fuzz/fuzz.mk); make test replays tests/fuzz/dgchunk/.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dgchunk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)
#define MAX_RUNS 4096

struct shape { uint32_t n_instrs, n_acc; };

struct in_run {
	uint32_t chunk, context, n_instrs, n_addrs;
	int partial;
	uint64_t addrs[64];
};

static void contexts_add(struct dgchunk_codec *c, const struct shape *sh, int n)
{
	for (int i = 0; i < n; i++)
		CHECK(dgchunk_add_context(c, sh[i].n_instrs, sh[i].n_acc) == 0);
}

/* need: the contexts whose addresses a skipping decoder keeps. */
static int needed(const uint8_t *need, uint64_t k)
{
	return need[k >> 3] >> (k & 7) & 1;
}

/* 1: arbitrary bytes as a chunk, in full and skipping addresses. */
static void decode_any(const struct shape *sh, int n, enum dgchunk_coding coding, const uint8_t *p,
                       size_t len, const uint8_t *need)
{
	static struct in_run seen[MAX_RUNS];
	struct dgchunk_codec c, s;
	struct dgchunk_run r;
	size_t runs = 0, j;
	int k, ks;

	dgchunk_init(&c);
	dgchunk_set_coding(&c, coding);
	contexts_add(&c, sh, n);
	dgchunk_decode_begin(&c, p, len);
	while ((k = dgchunk_next(&c, &r)) > 0) {
		const struct shape *sp;
		CHECK(++runs <= (coding == DGCHUNK_RUNS ? 1 : DGC_CHAIN_MAX) * len);
		CHECK(r.context < (uint64_t)n);
		sp = &sh[r.context];
		CHECK(r.n_instrs >= 1 && r.n_instrs <= sp->n_instrs && r.n_addrs <= sp->n_acc);
		CHECK(r.partial || (r.n_instrs == sp->n_instrs && r.n_addrs == sp->n_acc));
		if (runs <= MAX_RUNS) {
			struct in_run *x = &seen[runs - 1];
			x->context = (uint32_t)r.context;
			x->n_instrs = r.n_instrs;
			x->n_addrs = r.n_addrs;
			x->partial = r.partial;
			memcpy(x->addrs, r.addrs, r.n_addrs * sizeof *r.addrs);
		}
	}
	CHECK(k == 0 || k == -1 || k == -2);
	dgchunk_init(&s);
	dgchunk_set_coding(&s, coding);
	contexts_add(&s, sh, n);
	dgchunk_skip_addrs(&s, need);
	dgchunk_decode_begin(&s, p, len);
	for (j = 0; (ks = dgchunk_next(&s, &r)) > 0; j++) {
		const struct in_run *x;
		CHECK(j < runs);
		if (j >= MAX_RUNS)
			continue;
		x = &seen[j];
		CHECK(r.context == x->context && r.n_instrs == x->n_instrs
		      && r.n_addrs == x->n_addrs && r.partial == x->partial);
		CHECK(r.addrs || !needed(need, r.context));
		CHECK(!r.addrs || r.n_addrs == 0
		      || memcmp(r.addrs, x->addrs, r.n_addrs * sizeof *r.addrs) == 0);
	}
	CHECK(j == runs && (ks == k || (ks < 0 && k < 0)));
	dgchunk_free(&s);
	dgchunk_free(&c);
}

/* The next byte of the description, or 0 past its end. */
static uint8_t take(const uint8_t **p, const uint8_t *end)
{
	return *p < end ? *(*p)++ : 0;
}

static uint64_t take_addr(const uint8_t **p, const uint8_t *end, uint64_t prev)
{
	uint8_t d = take(p, end);
	uint64_t a = 0;

	if (d != 0xFF)
		return prev + (uint64_t)((int64_t)(int8_t)d * 8);
	for (int i = 0; i < 8; i++)
		a = a << 8 | take(p, end);
	return a;
}

/* Read the runs described by p; returns how many. */
static size_t describe(const struct shape *sh, int n, const uint8_t *p, size_t len,
                       struct in_run *runs)
{
	const uint8_t *end = p + len;
	uint32_t chunk = 0;
	uint64_t prev = 0x10000;
	size_t k = 0;

	while (p < end && k < MAX_RUNS) {
		uint8_t b = take(&p, end);
		struct in_run *r = &runs[k];
		const struct shape *s;
		if (b == 0xFE) {
			chunk++;
			continue;
		}
		r->chunk = chunk;
		r->context = b % (uint32_t)n;
		s = &sh[r->context];
		r->partial = take(&p, end) & 1;
		r->n_instrs = s->n_instrs;
		r->n_addrs = s->n_acc;
		if (r->partial) {
			r->n_instrs = 1 + take(&p, end) % s->n_instrs;
			r->n_addrs = take(&p, end) % (s->n_acc + 1);
		}
		for (uint32_t i = 0; i < r->n_addrs; i++)
			r->addrs[i] = prev = take_addr(&p, end, prev);
		k++;
	}
	return k;
}

/* 2: encode the described runs chunk by chunk, decode (skipping the
   addresses not needed when need is set), compare. */
static void round_trip(const struct shape *sh, int n, enum dgchunk_coding coding, const uint8_t *p,
                       size_t len, const uint8_t *need)
{
	static struct in_run runs[MAX_RUNS];
	struct dgchunk_codec enc, dec;
	struct dgchunk_buf buf = { NULL, 0, 0 };
	struct dgchunk_run out;
	size_t n_runs = describe(sh, n, p, len, runs), k = 0;

	dgchunk_init(&enc);
	dgchunk_init(&dec);
	dgchunk_set_coding(&enc, coding);
	dgchunk_set_coding(&dec, coding);
	contexts_add(&enc, sh, n);
	contexts_add(&dec, sh, n);
	dgchunk_skip_addrs(&dec, need);
	while (k < n_runs) {
		size_t first = k;
		buf.len = 0;
		dgchunk_begin(&enc);
		for (; k < n_runs && runs[k].chunk == runs[first].chunk; k++)
			CHECK(dgchunk_put_run(&enc, &buf, runs[k].context, runs[k].partial,
			                      runs[k].n_instrs, runs[k].addrs,
			                      runs[k].n_addrs) == 0);
		dgchunk_decode_begin(&dec, buf.data, buf.len);
		for (size_t j = first; j < k; j++) {
			const struct in_run *r = &runs[j];
			CHECK(dgchunk_next(&dec, &out) == 1);
			CHECK(out.context == r->context && out.partial == r->partial
			      && out.n_instrs == r->n_instrs && out.n_addrs == r->n_addrs);
			CHECK(out.addrs || (need && !needed(need, r->context)));
			CHECK(!out.addrs || r->n_addrs == 0
			      || memcmp(out.addrs, r->addrs, r->n_addrs * sizeof *r->addrs) == 0);
		}
		CHECK(dgchunk_next(&dec, &out) == 0);
	}
	dgchunk_buf_free(&buf);
	dgchunk_free(&enc);
	dgchunk_free(&dec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum dgchunk_coding codings[4] = {
		DGCHUNK_CHAINS, DGCHUNK_RUNS, DGCHUNK_NEAR, DGCHUNK_NEAR
	};
	struct shape sh[16];
	uint8_t need[2] = { 0, 0 };
	enum dgchunk_coding coding;
	int n;
	size_t at;

	if (size < 1)
		return 0;
	n = 1 + data[0] % 16;
	if (size < 1 + 2 * (size_t)n)
		return 0;
	for (int i = 0; i < n; i++) {
		sh[i].n_instrs = 1 + data[1 + 2 * i] % 255;
		sh[i].n_acc = data[2 + 2 * i] % 64;
		need[i >> 3] |= (uint8_t)((data[1 + 2 * i] & 1) << (i & 7));
	}
	at = 1 + 2 * (size_t)n;
	coding = codings[data[0] >> 4 & 3];
	decode_any(sh, n, coding, data + at, size - at, need);
	round_trip(sh, n, coding, data + at, size - at, NULL);
	round_trip(sh, n, coding, data + at, size - at, need);
	return 0;
}
