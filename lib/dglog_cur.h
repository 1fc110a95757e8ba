/* dglog_cur.h: the log reader's internals, shared by its two decoding
 * modules (lib/dglog.c: framing and runs; lib/dglog_rec.c: the other
 * records) and by nothing else: the types its private fields point to,
 * its error messages, and the cursor a decoder reads a payload through.
 *
 * Promise: a cursor read never goes past the payload's end: it fails
 * instead ("payload ends inside FIELD").  Every dglog_fail* puts the
 * message in r->err ("FILE: byte N: record #K (TYPE): ...", or "FILE: ..."
 * for dglog_fail_file) and returns -1, so `return dglog_fail(r, ...)` is a
 * decoder's error return.  The cursor's readers and grow_scratch are
 * static inline, so that both decoding files inline them: they run for
 * every field, grow_scratch for every run of the hot loop; only the
 * failing paths are calls into dglog_cur.c.
 *
 * Ownership: a cursor borrows the reader and the payload's bytes.  The
 * scratch array the readers fill (cur_words, grow_scratch) is the
 * reader's, valid until the next record; dglog_close frees it.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGLOG_CUR_H
#define DGLOG_CUR_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dgcodec.h"
#include "dglog_types.h"

/* A context's stack as stored (struct dglog's contexts): n_own frames at
   ctx_frames[own], then frames 1.. of context ref (depth in all); a chain
   of references is cut at DGLOG_CTX_HOPS (the frames are copied). */
struct dglog_ctx_store {
	uint64_t own;
	uint32_t ref;
	uint8_t n_own, depth, hops;
};
#define DGLOG_CTX_HOPS 8

/* One context as struct dglog_context, with room for its frames. */
struct dglog_ctx_view {
	struct dglog_context c;
	uint64_t stack[256];
};

/* Frame i (< depth) of context idx's stack. */
static inline uint64_t dglog_ctx_frame(const struct dglog *r, uint64_t idx, unsigned i)
{
	for (;;) {
		const struct dglog_ctx_store *c = &r->contexts[idx];

		if (i < c->n_own)
			return r->ctx_frames[c->own + i];
		i = 1 + i - c->n_own;
		idx = c->ref;
	}
}

/* A context's decoding state (struct dglog's ctx_state).  pred: the
   BBRUNS/BBCHAINS predictor, last[i], stride[i] pairs, NULL until the
   context's first run with addresses; next: the BBCHAINS successor. */
struct dglog_ctx_state {
	uint32_t bbdef, n_instrs, n_accesses;
	struct dgc_next next;
	uint64_t *pred;
};

/* A heap stack (HEAP_MALLOC, HEAP_FREE): its innermost frame on top of
   its parent, the stack of the frames outside it (0, the empty stack,
   for a stack of one frame); next: the stack predicted to follow it. */
struct dglog_hstack {
	uint64_t pc;
	uint32_t parent, depth, next;
};

/* ------------------------------------------------------------ messages */

/* A place in the log, for a message: the record's offset, number and
   type; when in_run, run is the run's number in its record and off the
   run's offset. */
struct dglog_where {
	uint64_t off, number, run;
	int type, in_run;
};

/* Fail on the record (or run) being read; returns -1.  The inline
   readers below return -1 themselves after a failure: from another file
   the compiler cannot see that these return it, and would warn that what
   a reader sets may be unset. */
int dglog_fail(struct dglog *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Fail at a given place; returns -1. */
int dglog_fail_at(struct dglog *r, const struct dglog_where *w,
		  const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Fail with a message not tied to a record (open, I/O); returns -1. */
int dglog_fail_file(struct dglog *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A run codec error e (DGC_E_*, dgcodec.h) in field what; returns -1. */
int dglog_fail_codec(struct dglog *r, int e, const char *what);

/* "bbdef", "bbruns", ... for a file record type this reader knows, else
   NULL (a message then says "type N", dglog_type_name "unknown"). */
const char *dglog_known_type_name(int file_type);

/* ------------------------------------------------------------ the cursor */

/* A cursor over one payload: every read checks the payload's end. */
struct dglog_cur {
	struct dglog *r;
	const uint8_t *p, *end;
};

/* The size-byte unsigned integer at p, in the log's byte order. */
static inline uint64_t dglog_get_u(const struct dglog *r, const uint8_t *p,
				   int size)
{
	uint64_t v = 0;
	int i;

	if (r->endian == 0)
		for (i = size - 1; i >= 0; i--)
			v = v << 8 | p[i];
	else
		for (i = 0; i < size; i++)
			v = v << 8 | p[i];
	return v;
}

/* Room for n words in the scratch array (what cur_words and the run
   decoders fill); 0, or -1 out of memory. */
static inline int grow_scratch(struct dglog *r, size_t n)
{
	if (n <= r->scratch_cap)
		return 0;
	size_t cap = n < 64 ? 64 : n;
	uint64_t *s = realloc(r->scratch, cap * sizeof *s);
	if (!s) {
		dglog_fail(r, "out of memory");
		return -1;
	}
	r->scratch = s;
	r->scratch_cap = cap;
	return 0;
}

static inline int cur_u(struct dglog_cur *c, uint64_t *v, int size,
			const char *what)
{
	if (c->end - c->p < size) {
		dglog_fail(c->r, "payload ends inside %s", what);
		return -1;
	}
	*v = dglog_get_u(c->r, c->p, size);
	c->p += size;
	return 0;
}

static inline int cur_u8(struct dglog_cur *c, uint8_t *v, const char *what)
{
	uint64_t x;

	if (cur_u(c, &x, 1, what) < 0)
		return -1;
	*v = (uint8_t)x;
	return 0;
}

static inline int cur_u32(struct dglog_cur *c, uint32_t *v, const char *what)
{
	uint64_t x;

	if (cur_u(c, &x, 4, what) < 0)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

static inline int cur_word(struct dglog_cur *c, uint64_t *v, const char *what)
{
	return cur_u(c, v, c->r->word_size, what);
}

static inline int cur_str(struct dglog_cur *c, const char **s,
			  const char *what)
{
	const uint8_t *nul = memchr(c->p, 0, c->end - c->p);

	if (!nul) {
		dglog_fail(c->r, "string %s not terminated inside the payload",
			   what);
		return -1;
	}
	*s = (const char *)c->p;
	c->p = nul + 1;
	return 0;
}

/* Read n words into the scratch array; n was checked against the payload. */
static inline int cur_words(struct dglog_cur *c, uint64_t n,
			    const uint64_t **out, const char *what)
{
	struct dglog *r = c->r;

	if (n > (uint64_t)(c->end - c->p) / r->word_size) {
		dglog_fail(r, "%s: %llu words do not fit in the %zu bytes left",
			   what, (unsigned long long)n, (size_t)(c->end - c->p));
		return -1;
	}
	if (grow_scratch(r, (size_t)n) < 0)
		return -1;
	for (uint64_t i = 0; i < n; i++) {
		r->scratch[i] = dglog_get_u(r, c->p, r->word_size);
		c->p += r->word_size;
	}
	*out = r->scratch;
	return 0;
}

/* A uleb field of a record, with the codec's error as a message. */
static inline int cur_uleb(struct dglog_cur *c, uint64_t *v, const char *what)
{
	int e = dgc_get_uleb(&c->p, c->end, v);

	if (e < 0) {
		dglog_fail_codec(c->r, e, what);
		return -1;
	}
	return 0;
}

/* A sleb field: a signed word-size value (two's complement, modulo the
   word), as a uleb of its zigzag form. */
static inline int cur_sleb(struct dglog_cur *c, uint64_t *v, const char *what)
{
	uint64_t z;

	if (cur_uleb(c, &z, what) < 0)
		return -1;
	*v = c->r->word_size == 8 ? dgc_unzigzag(z, 64) : dgc_unzigzag(z, 32);
	return 0;
}

#endif /* DGLOG_CUR_H */
