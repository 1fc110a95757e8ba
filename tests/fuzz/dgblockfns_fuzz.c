/* dgblockfns_fuzz.c: libFuzzer target for the blocks.fns blob
 * (lib/dgblockfns).
 *
 * Each input is used twice:
 *
 *   1. decoded as a blob: the entries the decoder gives must have keys
 *      (function << 1 | is_write) strictly ascending, functions within
 *      DGBF_FN_MAX, at least one access and counts within DGBF_COUNT_MAX;
 *      it must end in 0 or an error after at most one entry per 3 bytes,
 *      never reading past the input (ASAN), and an error's offset must lie
 *      inside the input and its message name the block and the byte;
 *   2. read as a list of entries, encoded (in shuffled order: the encoder
 *      sorts), decoded back: the entries must come out exactly, sorted, in
 *      exactly the bytes the encoder said.  Per entry: u8 f, the key delta
 *      f + 1 (f for the first; 0xFF: the next 4 bytes v give key v * 2 + 1,
 *      a list stops where keys would not ascend); u8 n, accesses n + 1;
 *      u8 s: below 0x80, bytes = (s % 9) * accesses + (s >> 4), else the
 *      next 8 bytes, reduced to DGBF_COUNT_MAX.
 *
 * A failed check is __builtin_trap().  Build and run: make fuzz
 * FUZZ=dgblockfns (tests/fuzz/fuzz.mk); make test replays
 * tests/fuzz/dgblockfns/.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dgblockfns.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)
#define MAX_ENTRIES 1024

static uint64_t key_of(const struct dgbf_entry *e)
{
	return (uint64_t)e->fn << 1 | e->is_write;
}

/* 1: arbitrary bytes as a blob. */
static void decode_any(const uint8_t *p, size_t len)
{
	struct dgbf_dec d;
	struct dgbf_entry e;
	uint64_t prev = 0;
	size_t n = 0;
	int r;

	dgbf_begin(&d, p, len);
	while ((r = dgbf_next(&d, &e)) > 0) {
		CHECK(n == 0 || key_of(&e) > prev);
		CHECK(e.accesses >= 1 && e.accesses <= DGBF_COUNT_MAX && e.bytes <= DGBF_COUNT_MAX);
		CHECK(e.is_write <= 1);
		CHECK(++n * 3 <= len);
		prev = key_of(&e);
	}
	if (r < 0) {
		char msg[256];

		CHECK(d.at <= len);
		dgbf_error(&d, r, 7, msg, sizeof msg);
		CHECK(strncmp(msg, "blocks.fns: block 7: byte ", 26) == 0);
	}
}

static uint8_t take(const uint8_t **p, const uint8_t *end)
{
	return *p < end ? *(*p)++ : 0;
}

static uint64_t take_n(const uint8_t **p, const uint8_t *end, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v = v << 8 | take(p, end);
	return v;
}

/* Read the entries described by p, keys ascending; returns how many. */
static size_t describe(const uint8_t *p, size_t len, struct dgbf_entry *out)
{
	const uint8_t *end = p + len;
	uint64_t key = 0;
	size_t k = 0;

	while (p < end && k < MAX_ENTRIES) {
		uint8_t f = take(&p, end), n, s;
		uint64_t next = f == 0xFF ? take_n(&p, end, 4) << 1 | 1
		                          : key + (k ? 1 : 0) + f;

		if (next > ((uint64_t)DGBF_FN_MAX << 1 | 1) || (k && next <= key))
			break;
		key = next;
		out[k].fn = (uint32_t)(key >> 1);
		out[k].is_write = (uint8_t)(key & 1);
		n = take(&p, end);
		out[k].accesses = (uint64_t)n + 1;
		s = take(&p, end);
		out[k].bytes = s < 0x80 ? (s % 9) * out[k].accesses + (s >> 4)
		                        : take_n(&p, end, 8) & DGBF_COUNT_MAX;
		k++;
	}
	return k;
}

/* 2: entries encoded in a shuffled order, then decoded back sorted. */
static void round_trip(const uint8_t *p, size_t len)
{
	static struct dgbf_entry want[MAX_ENTRIES], in[MAX_ENTRIES];
	static uint8_t buf[MAX_ENTRIES * DGBF_ENTRY_MAX];
	struct dgbf_dec d;
	struct dgbf_entry e;
	size_t n = describe(p, len, want), i, bytes;

	for (i = 0; i < n; i++)     /* reversed pairs: not in key order */
		in[i] = want[(i ^ 1) < n ? i ^ 1 : i];
	bytes = dgbf_encode(in, n, buf);
	CHECK(bytes <= n * DGBF_ENTRY_MAX);
	dgbf_begin(&d, buf, bytes);
	for (i = 0; i < n; i++) {
		CHECK(dgbf_next(&d, &e) == 1);
		CHECK(e.fn == want[i].fn && e.is_write == want[i].is_write
		      && e.accesses == want[i].accesses && e.bytes == want[i].bytes);
	}
	CHECK(dgbf_next(&d, &e) == 0);
	CHECK(d.p == buf + bytes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	decode_any(data, size);
	round_trip(data, size);
	return 0;
}
