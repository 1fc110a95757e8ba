/* dgchunk.h: database chunks of runs.
 *
 * Promise: encodes and decodes sequences of runs exactly as a BBCHAINS
 * payload of docs/FORMAT.md §2.17 (or, for the databases of schema 8 and
 * older, a BBRUNS payload, §2.10), through the one run codec (dgcodec.h),
 * with `prev`, every context's successor and its prediction state reset at
 * every chunk start (schema/schema.sql, table chunks); in the coding of
 * schema 14 on ("chains-near"), a slot's first address in a chunk is
 * predicted as the address before it, not 0 (dgc_get_addrs_ref).  The encoder is used
 * by dg-import, the decoder by the `accesses` virtual table.
 *
 * The caller registers every context, in index order, with the shape of
 * its bbdef (dgchunk_add_context); the codec owns the prediction state and
 * resets it in O(1) per chunk.  A context's slots (last, stride) live in
 * an area taken afresh each chunk, given out as the chunk first meets the
 * context: memory follows the contexts one chunk meets, not all of them
 * (a compiler's 4 M contexts held 16 bytes a slot for good, per cursor).
 * Decoding checks every byte against the end of the blob and every count
 * against the context's shape, and returns -1 on a malformed blob, never
 * reading past it.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGCHUNK_H
#define DGCHUNK_H

#include <stddef.h>
#include <stdint.h>

#include "dgcodec.h"

#define DGCHUNK_NO_HEAD ((size_t)-1)

/* How a database's chunks are coded (meta chunk_coding, schema.sql). */
enum dgchunk_coding {
	DGCHUNK_CHAINS,         /* "chains": BBCHAINS payloads (schema 9-13; and
	                           a database of schema 9 on without the key) */
	DGCHUNK_RUNS,           /* BBRUNS payloads (schema 8 and older) */
	DGCHUNK_NEAR,           /* "chains-near": BBCHAINS, a slot's first address
	                           predicted from the one before (schema 14 on) */
};

struct dgchunk_shape {          /* per context: 24 bytes */
	uint32_t n_instrs;      /* of its bbdef */
	uint32_t n_accesses;
	uint32_t epoch;         /* chunk in which its state was last reset */
	uint32_t slot_off;      /* then: index of its first slot word in slots */
	struct dgc_next next;   /* the context and shape that last followed it */
};

struct dgchunk_codec {
	struct dgchunk_shape *ctx;
	size_t n_ctx, cap_ctx;
	uint64_t *slots;        /* this chunk's (last, stride) pairs */
	size_t n_slots, cap_slots;
	uint32_t epoch;
	enum dgchunk_coding coding;
	uint64_t prev;          /* previous run's context in this chunk */
	uint64_t ref;           /* DGCHUNK_NEAR: the chunk's last address */
	size_t head;            /* encoding: offset of the open chain's head
	                           byte, or DGCHUNK_NO_HEAD */
	/* decoding */
	uint64_t chain_left;    /* runs of the current chain still to come */
	const uint8_t *p, *end;
	uint64_t *addrs;        /* decoded addresses of the current run */
	size_t cap_addrs;
	const uint8_t *need;    /* dgchunk_skip_addrs's bitmap, or NULL */
	int skipping;           /* this chunk's addresses are skipped so far */
	const uint8_t *start;   /* the chunk's data, to decode it again */
	size_t len;
	uint32_t runs;          /* runs given out of this chunk */
};

struct dgchunk_run {
	uint64_t context;
	uint32_t n_instrs;
	uint32_t n_addrs;
	int partial;
	const uint64_t *addrs;  /* valid until the next dgchunk_next; NULL
	                           when skipped (dgchunk_skip_addrs) */
};

/* A growable byte buffer that the encoder appends to. */
struct dgchunk_buf {
	uint8_t *data;
	size_t len, cap;
};

/* The coding meta chunk_coding names ("chains", "chains-near"), and back
   (-1: no coding of that name; DGCHUNK_RUNS has no name). */
const char *dgchunk_coding_name(enum dgchunk_coding coding);
int dgchunk_coding_named(const char *name);

/* A codec for chunks coded DGCHUNK_CHAINS. */
void dgchunk_init(struct dgchunk_codec *c);
/* Code chunks another way (what dg-import writes: DGCHUNK_NEAR); before the
   first chunk. */
void dgchunk_set_coding(struct dgchunk_codec *c, enum dgchunk_coding coding);
void dgchunk_free(struct dgchunk_codec *c);
/* Register the next context (index = number registered so far).
   Returns 0, or -1 when out of memory. */
int dgchunk_add_context(struct dgchunk_codec *c, uint32_t n_instrs,
                        uint32_t n_accesses);

/* Encoding: start a chunk, append runs (n_addrs may be below n_accesses
   only when partial, and is below 2^23 then).  Returns 0, or -1 when out
   of memory (or n_addrs is out of range). */
void dgchunk_begin(struct dgchunk_codec *c);
int dgchunk_put_run(struct dgchunk_codec *c, struct dgchunk_buf *b,
                    uint64_t context, int partial, uint32_t n_instrs,
                    const uint64_t *addrs, uint32_t n_addrs);
void dgchunk_buf_free(struct dgchunk_buf *b);

/* Decoding: start on a chunk's data, then take runs: 1 a run, 0 the end,
   -1 malformed (a count or context out of range, a varint past the end),
   -2 out of memory. */
void dgchunk_decode_begin(struct dgchunk_codec *c, const void *data, size_t len);
int dgchunk_next(struct dgchunk_codec *c, struct dgchunk_run *run);

/* Decode the chunks begun from now on without their addresses (a run's
   addrs NULL), but for the runs of the contexts whose bit is set in need
   (bit k of need[k / 8], for every registered context; NULL: every run's
   addresses, the default).  A scan that reads no address skips them, at
   a fraction of a decode's cost, with the same errors on a malformed
   blob.  The first run that needs them decodes its chunk again from the
   start (under DGCHUNK_NEAR a run's first addresses are predicted from
   the run before, whatever its context), and the rest of that chunk is
   decoded in full; the caller keeps need for as long as it decodes. */
void dgchunk_skip_addrs(struct dgchunk_codec *c, const uint8_t *need);

#endif
