/* dgchunk.h: database chunks of runs.
 *
 * Promise: encodes and decodes sequences of runs exactly as docs/FORMAT.md
 * §2.10 describes, through the one run codec (dgcodec.h), with the
 * prediction state reset at every chunk start (schema/schema.sql, table
 * chunks).  The encoder is used by dg-import, the decoder by the
 * `accesses` virtual table.
 *
 * The caller registers every context, in index order, with the shape of
 * its bbdef (dgchunk_add_context); the codec owns the prediction state and
 * resets it in O(1) per chunk.  Decoding checks every byte against the end
 * of the blob and every count against the context's shape, and returns -1
 * on a malformed blob, never reading past it.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGCHUNK_H
#define DGCHUNK_H

#include <stddef.h>
#include <stdint.h>

struct dgchunk_shape {          /* per context */
	uint32_t n_instrs;      /* of its bbdef */
	uint32_t n_accesses;
	uint32_t epoch;         /* chunk in which the slots were last reset */
	uint64_t slot_base;     /* index of its first (last, stride) pair */
};

struct dgchunk_codec {
	struct dgchunk_shape *ctx;
	size_t n_ctx, cap_ctx;
	uint64_t *slots;        /* (last, stride) pairs */
	size_t n_slots, cap_slots;
	uint32_t epoch;
	uint64_t prev;          /* previous run's context in this chunk */
	/* decoding */
	const uint8_t *p, *end;
	uint64_t *addrs;        /* decoded addresses of the current run */
	size_t cap_addrs;
};

struct dgchunk_run {
	uint64_t context;
	uint32_t n_instrs;
	uint32_t n_addrs;
	int partial;
	const uint64_t *addrs;  /* valid until the next dgchunk_next */
};

/* A growable byte buffer that the encoder appends to. */
struct dgchunk_buf {
	uint8_t *data;
	size_t len, cap;
};

void dgchunk_init(struct dgchunk_codec *c);
void dgchunk_free(struct dgchunk_codec *c);
/* Register the next context (index = number registered so far).
   Returns 0, or -1 when out of memory. */
int dgchunk_add_context(struct dgchunk_codec *c, uint32_t n_instrs,
                        uint32_t n_accesses);

/* Encoding: start a chunk, append runs (n_addrs may be below n_accesses
   only when partial).  Returns 0, or -1 when out of memory. */
void dgchunk_begin(struct dgchunk_codec *c);
int dgchunk_put_run(struct dgchunk_codec *c, struct dgchunk_buf *b,
                    uint64_t context, int partial, uint32_t n_instrs,
                    const uint64_t *addrs, uint32_t n_addrs);
void dgchunk_buf_free(struct dgchunk_buf *b);

/* Decoding: start on a chunk's data, then take runs: 1 a run, 0 the end,
   -1 malformed (a count or context out of range, a varint past the end). */
void dgchunk_decode_begin(struct dgchunk_codec *c, const void *data, size_t len);
int dgchunk_next(struct dgchunk_codec *c, struct dgchunk_run *run);

#endif
