/* dgctxch_fuzz.c: libFuzzer target for the context_chunks blob
 * (lib/dgctxch).
 *
 * Each input is used twice:
 *
 *   1. as a row: the first 2 bytes give chunk_lo and chunk_hi - chunk_lo
 *      (chunk_lo 0 and a chunk_hi below chunk_lo reachable), the rest is
 *      the blob; the ids the decoder gives must start at chunk_lo, ascend
 *      and stay within chunk_hi, at most one a byte after the first, and
 *      reach chunk_hi when it ends in 0; an error's offset lies inside the
 *      blob and its message names the table, the context and the byte;
 *   2. as a list of chunk ids (each byte + 1 the delta from the one
 *      before, from 1), encoded with dgctxch_put and decoded back: the ids
 *      come out exactly as they went in.
 *
 * A failed check is __builtin_trap().  Build and run: make fuzz
 * FUZZ=dgctxch (tests/fuzz/fuzz.mk); make test replays tests/fuzz/dgctxch/.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dgctxch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)
#define MAX_IDS 4096

/* 1: arbitrary bytes as a row. */
static void decode_any(const uint8_t *p, size_t len)
{
	struct dgctxch_dec d;
	int64_t lo, hi, id, prev = 0;
	size_t n = 0;
	int e;

	if (len < 2)
		return;
	lo = p[0];
	hi = lo + (int8_t)p[1];
	dgctxch_begin(&d, lo, hi, p + 2, len - 2);
	while ((e = dgctxch_next(&d, &id)) > 0) {
		CHECK(n == 0 ? id == lo : id > prev);
		CHECK(id <= hi && id >= 1);
		CHECK(n <= len - 2);
		prev = id;
		n++;
	}
	if (e == 0)
		CHECK(n >= 1 && prev == hi);
	else {
		char msg[160];

		CHECK(d.at <= len - 2);
		dgctxch_error(&d, e, 7, msg, sizeof msg);
		CHECK(strncmp(msg, "context_chunks: context 7: byte ", 32) == 0);
	}
}

/* 2: a list of ids, encoded and decoded back. */
static void round_trip(const uint8_t *p, size_t len)
{
	static int64_t ids[MAX_IDS];
	static uint8_t blob[MAX_IDS * DGC_LEB_MAX];
	struct dgctxch_dec d;
	size_t n = 0, k, blen = 0;
	int64_t id = 1, got;

	ids[n++] = id;
	for (k = 0; k < len && n < MAX_IDS; k++) {
		int64_t next = id + 1 + (int64_t)p[k] * (p[k] > 250 ? 1000003 : 1);
		blen += dgctxch_put(blob + blen, (uint64_t)id, (uint64_t)next);
		ids[n++] = id = next;
	}
	dgctxch_begin(&d, ids[0], ids[n - 1], blob, blen);
	for (k = 0; k < n; k++) {
		CHECK(dgctxch_next(&d, &got) == 1);
		CHECK(got == ids[k]);
	}
	CHECK(dgctxch_next(&d, &got) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	decode_any(data, size);
	round_trip(data, size);
	return 0;
}
