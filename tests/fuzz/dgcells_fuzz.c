/* dgcells_fuzz.c: libFuzzer target for the chunk_cells blob (lib/dgcells).
 *
 * Each input is used twice:
 *
 *   1. decoded as a blob: the cells the decoder gives must ascend, stay
 *      within DGCELLS_CELL_MAX and hold an access each; it must end in 0
 *      or an error after at most one cell per 3 bytes, never reading past
 *      the input (ASAN), and an error's offset must lie inside the input
 *      and its message name the table, the chunk and the byte;
 *   2. read as a list of cells, encoded, decoded back: the cells must come
 *      out exactly as they went in, in exactly the bytes the encoder said.
 *      Per cell: u8 d, the cell delta d + 1 (0xFF: the next 8 bytes, and a
 *      list stops where a delta would pass DGCELLS_CELL_MAX); u8 r and u8 w,
 *      the counts r and w, or when both are 0xFF the next 8 bytes as
 *      two 32-bit counts (0, 0 becomes 0, 1).
 *
 * A failed check is __builtin_trap().  Build and run: make fuzz FUZZ=dgcells
 * (tests/fuzz/fuzz.mk); make test replays tests/fuzz/dgcells/.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dgcells.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)
#define MAX_CELLS 8192

/* 1: arbitrary bytes as a blob. */
static void decode_any(const uint8_t *p, size_t len)
{
	struct dgcells_dec d;
	struct dgcells_cell c;
	uint64_t prev = 0;
	size_t n = 0;
	int e;

	dgcells_begin(&d, p, len);
	while ((e = dgcells_next(&d, &c)) > 0) {
		CHECK(n == 0 || c.cell > prev);
		CHECK(c.cell <= DGCELLS_CELL_MAX && (c.reads || c.writes));
		CHECK(++n * 3 <= len);
		prev = c.cell;
	}
	if (e < 0) {
		char msg[256];

		CHECK(d.at <= len);
		dgcells_error(&d, e, "chunk_cells", 7, msg, sizeof msg);
		CHECK(strncmp(msg, "chunk_cells: chunk 7: byte ", 27) == 0);
	}
}

/* The next byte of the description, or 0 past its end. */
static uint8_t take(const uint8_t **p, const uint8_t *end)
{
	return *p < end ? *(*p)++ : 0;
}

static uint64_t take64(const uint8_t **p, const uint8_t *end)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | take(p, end);
	return v;
}

/* Read the cells described by p; returns how many. */
static size_t describe(const uint8_t *p, size_t len, struct dgcells_cell *cells)
{
	const uint8_t *end = p + len;
	uint64_t cell = 0;
	size_t k = 0;

	while (p < end && k < MAX_CELLS) {
		uint8_t d = take(&p, end), r, w;
		uint64_t delta = d == 0xFF ? take64(&p, end) : (uint64_t)d + 1;

		if (k == 0 && d != 0xFF)
			delta = d;
		if (delta > DGCELLS_CELL_MAX - cell || (k && delta == 0))
			break;
		cells[k].cell = cell += delta;
		r = take(&p, end);
		w = take(&p, end);
		if (r == 0xFF && w == 0xFF) {
			uint64_t v = take64(&p, end);
			cells[k].reads = (uint32_t)(v >> 32);
			cells[k].writes = (uint32_t)v;
		} else {
			cells[k].reads = r;
			cells[k].writes = w;
		}
		if (!cells[k].reads && !cells[k].writes)
			cells[k].writes = 1;
		k++;
	}
	return k;
}

/* 2: encode the described cells, decode, compare. */
static void round_trip(const uint8_t *p, size_t len)
{
	static struct dgcells_cell in[MAX_CELLS];
	static uint8_t blob[MAX_CELLS * DGCELLS_ENTRY_MAX];
	struct dgcells_dec d;
	struct dgcells_cell out;
	size_t n = describe(p, len, in), bytes = dgcells_encode(in, n, blob);

	CHECK(bytes <= n * DGCELLS_ENTRY_MAX);
	dgcells_begin(&d, blob, bytes);
	for (size_t k = 0; k < n; k++) {
		CHECK(dgcells_next(&d, &out) == 1);
		CHECK(out.cell == in[k].cell && out.reads == in[k].reads
		      && out.writes == in[k].writes);
	}
	CHECK(dgcells_next(&d, &out) == 0);
	CHECK(d.p == blob + bytes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	decode_any(data, size);
	round_trip(data, size);
	return 0;
}
