/* dgwrite.c: the test log writer; see dgwrite.h.
 *
 * Every record is built as a payload in w->pl, then framed into w->log by
 * put_record.  Runs go to w->runs and become one BBRUNS when flushed.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "dgwrite.h"
#include "dgcodec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ bytes */

static int bytes_add(struct dgwrite *w, struct dgwrite_bytes *b,
		     const void *p, size_t n)
{
	if (w->failed)
		return -1;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->len + n)
			cap *= 2;
		uint8_t *np = realloc(b->p, cap);
		if (!np) {
			w->failed = 1;
			return -1;
		}
		b->p = np;
		b->cap = cap;
	}
	if (n && p)             /* p NULL: bytes_room only makes room */
		memcpy(b->p + b->len, p, n);
	b->len += n;
	return 0;
}

static void put_uint(struct dgwrite *w, struct dgwrite_bytes *b,
		     uint64_t v, int size)
{
	uint8_t tmp[8];

	for (int i = 0; i < size; i++) {
		int shift = w->endian ? 8 * (size - 1 - i) : 8 * i;
		tmp[i] = (uint8_t)(v >> shift);
	}
	bytes_add(w, b, tmp, size);
}

/* Room for n more bytes at the end of b, or NULL once failed. */
static uint8_t *bytes_room(struct dgwrite *w, struct dgwrite_bytes *b, size_t n)
{
	if (bytes_add(w, b, NULL, n) < 0)
		return NULL;
	b->len -= n;
	return b->p + b->len;
}

static void put_uleb(struct dgwrite *w, struct dgwrite_bytes *b, uint64_t v)
{
	uint8_t tmp[DGC_LEB_MAX];

	bytes_add(w, b, tmp, (size_t)(dgc_put_uleb(tmp, v) - tmp));
}

static unsigned bits(const struct dgwrite *w)
{
	return 8 * w->word_size;
}

/* ------------------------------------------------------------ records */

static int put_record(struct dgwrite *w, int type, const void *p, size_t n)
{
	uint8_t t = (uint8_t)type;

	bytes_add(w, &w->log, &t, 1);
	if (type >= DG_R_SHORT_FIRST) {
		uint8_t b = n ? *(const uint8_t *)p : 0;
		bytes_add(w, &w->log, &b, 1);
	} else if (n < DG_LONG_LENGTH && !w->long_lengths) {
		uint8_t l = (uint8_t)n;
		bytes_add(w, &w->log, &l, 1);
		bytes_add(w, &w->log, p, n);
	} else {
		uint8_t l = DG_LONG_LENGTH;
		bytes_add(w, &w->log, &l, 1);
		put_uint(w, &w->log, n, 8);
		bytes_add(w, &w->log, p, n);
	}
	w->buf = w->log.p;
	w->len = w->log.len;
	w->n_records++;
	return w->failed ? -1 : 0;
}

int dgwrite_flush_runs(struct dgwrite *w)
{
	if (w->runs.len == 0)
		return w->failed ? -1 : 0;
	put_record(w, w->chains ? DG_R_BBCHAINS : DG_R_BBRUNS, w->runs.p, w->runs.len);
	w->runs.len = 0;
	w->runs_prev = 0;
	w->chain.head = NULL;
	return w->failed ? -1 : 0;
}

int dgwrite_raw(struct dgwrite *w, int type, const void *payload, size_t len)
{
	dgwrite_flush_runs(w);
	return put_record(w, type, payload, len);
}

int dgwrite_append(struct dgwrite *w, const void *p, size_t n)
{
	dgwrite_flush_runs(w);
	bytes_add(w, &w->log, p, n);
	w->buf = w->log.p;
	w->len = w->log.len;
	return w->failed ? -1 : 0;
}

void dgwrite_begin(struct dgwrite *w)
{
	w->pl.len = 0;
}

void dgwrite_u8(struct dgwrite *w, uint64_t v) { put_uint(w, &w->pl, v, 1); }
void dgwrite_u32(struct dgwrite *w, uint64_t v) { put_uint(w, &w->pl, v, 4); }
void dgwrite_u64(struct dgwrite *w, uint64_t v) { put_uint(w, &w->pl, v, 8); }
void dgwrite_uleb(struct dgwrite *w, uint64_t v) { put_uleb(w, &w->pl, v); }

void dgwrite_word(struct dgwrite *w, uint64_t v)
{
	put_uint(w, &w->pl, v, w->word_size);
}

void dgwrite_sleb(struct dgwrite *w, uint64_t v)
{
	put_uleb(w, &w->pl, dgc_zigzag(v, bits(w)));
}

void dgwrite_str(struct dgwrite *w, const char *s)
{
	bytes_add(w, &w->pl, s, strlen(s) + 1);
}

void dgwrite_bytes(struct dgwrite *w, const void *p, size_t n)
{
	bytes_add(w, &w->pl, p, n);
}

int dgwrite_end(struct dgwrite *w, int type)
{
	return dgwrite_raw(w, type, w->pl.p, w->pl.len);
}

/* ------------------------------------------------------------ lifecycle */

int dgwrite_init(struct dgwrite *w, int version, int endian, int word_size)
{
	static const uint8_t sig[DG_SIGNATURE_LEN] = DG_SIGNATURE;
	int long_lengths;

	memset(w, 0, sizeof *w);
	w->version = version;
	w->endian = endian;
	w->word_size = word_size;
	dgwrite_begin(w);
	dgwrite_bytes(w, sig, sizeof sig);
	dgwrite_u8(w, version);
	dgwrite_u8(w, endian);
	dgwrite_u8(w, word_size);
	long_lengths = w->long_lengths;         /* the header is always short */
	w->long_lengths = 0;
	dgwrite_end(w, DG_R_HEADER);
	w->long_lengths = long_lengths;
	return w->failed ? -1 : 0;
}

void dgwrite_release(struct dgwrite *w)
{
	for (size_t i = 0; i < w->n_contexts; i++)
		free(w->ctx_pred[i]);
	free(w->ctx_pred);
	free(w->ctx_nacc);
	free(w->ctx_next);
	free(w->bbdef_nacc);
	free(w->log.p);
	free(w->pl.p);
	free(w->runs.p);
	memset(w, 0, sizeof *w);
}

int dgwrite_finish(struct dgwrite *w)
{
	return dgwrite_flush_runs(w);
}

int dgwrite_save(struct dgwrite *w, const char *path)
{
	FILE *f;
	int ok;

	if (dgwrite_finish(w) < 0) {
		errno = ENOMEM;
		return -1;
	}
	if (!(f = fopen(path, "wb")))
		return -1;
	ok = fwrite(w->buf, 1, w->len, f) == w->len;
	if (fclose(f) != 0)
		ok = 0;
	return ok ? 0 : -1;
}

/* ------------------------------------------------------------ definitions */

static int grow(struct dgwrite *w, void **p, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return 0;
	size_t ncap = *cap ? *cap * 2 : 64;
	void *np = realloc(*p, ncap * size);
	if (!np) {
		w->failed = 1;
		return -1;
	}
	*p = np;
	*cap = ncap;
	return 0;
}

int dgwrite_bbdef(struct dgwrite *w, unsigned n_instrs,
		  const struct dgwrite_instr *instrs, unsigned n_accesses,
		  const struct dgwrite_access *acc, int exit_kind)
{
	if (grow(w, (void **)&w->bbdef_nacc, &w->bbdefs_cap, w->n_bbdefs,
		 sizeof *w->bbdef_nacc) < 0)
		return -1;
	w->bbdef_nacc[w->n_bbdefs++] = n_accesses;
	dgwrite_begin(w);
	dgwrite_u8(w, n_instrs);
	dgwrite_word(w, n_accesses);
	for (unsigned i = 0; i < n_instrs; i++) {
		dgwrite_word(w, instrs[i].addr);
		dgwrite_u8(w, instrs[i].size);
	}
	for (unsigned i = 0; i < n_accesses; i++) {
		dgwrite_u8(w, acc[i].dir);
		dgwrite_u8(w, acc[i].size);
		dgwrite_u8(w, acc[i].iseq);
	}
	if (w->version >= 2) {
		for (unsigned i = 0; i < n_accesses; i++)
			dgwrite_u8(w, acc[i].flags);
		dgwrite_u8(w, exit_kind);
	}
	return dgwrite_end(w, DG_R_BBDEF);
}

/* The writer's state for the next context, of bbdef. */
static int context_add(struct dgwrite *w, uint64_t bbdef)
{
	size_t cap = w->contexts_cap;
	uint32_t nacc = bbdef < w->n_bbdefs ? w->bbdef_nacc[bbdef] : 0;

	if (grow(w, (void **)&w->ctx_pred, &cap, w->n_contexts,
		 sizeof *w->ctx_pred) < 0)
		return -1;
	cap = w->contexts_cap;
	if (grow(w, (void **)&w->ctx_nacc, &cap, w->n_contexts,
		 sizeof *w->ctx_nacc) < 0)
		return -1;
	cap = w->contexts_cap;
	if (grow(w, (void **)&w->ctx_next, &cap, w->n_contexts,
		 sizeof *w->ctx_next) < 0)
		return -1;
	w->contexts_cap = cap;
	w->ctx_next[w->n_contexts] = dgc_next_init(w->n_contexts);
	w->ctx_pred[w->n_contexts] = calloc(2 * (size_t)nacc + 1, sizeof(uint64_t));
	if (!w->ctx_pred[w->n_contexts]) {
		w->failed = 1;
		return -1;
	}
	w->ctx_nacc[w->n_contexts++] = nacc;
	return 0;
}

int dgwrite_context(struct dgwrite *w, uint64_t bbdef, unsigned depth,
		    const uint64_t *stack)
{
	if (context_add(w, bbdef) < 0)
		return -1;
	dgwrite_begin(w);
	dgwrite_word(w, bbdef);
	dgwrite_u8(w, depth);
	for (unsigned i = 0; i < depth; i++)
		dgwrite_word(w, stack[i]);
	return dgwrite_end(w, DG_R_CONTEXT);
}

int dgwrite_ctxref(struct dgwrite *w, uint64_t bbdef, uint64_t back,
		   uint64_t keep, unsigned n_new, const uint64_t *delta)
{
	if (context_add(w, bbdef) < 0)
		return -1;
	dgwrite_begin(w);
	dgwrite_uleb(w, bbdef);
	dgwrite_uleb(w, back);
	dgwrite_uleb(w, keep);
	dgwrite_u8(w, n_new);
	for (unsigned i = 0; i <= n_new; i++)
		dgwrite_sleb(w, delta[i]);
	return dgwrite_end(w, DG_R_CTXREF);
}

/* ------------------------------------------------------------ runs */

int dgwrite_bbrun(struct dgwrite *w, uint64_t ctx, unsigned n_instrs,
		  unsigned n_addrs, const uint64_t *addrs)
{
	dgwrite_begin(w);
	dgwrite_word(w, ctx);
	dgwrite_u8(w, n_instrs);
	for (unsigned i = 0; i < n_addrs; i++)
		dgwrite_word(w, addrs[i]);
	w->n_runs++;
	w->n_accesses += n_addrs;
	return dgwrite_end(w, DG_R_BBRUN);
}

/* Addresses past the context's slots (a test's malformed run) are coded
   against a prediction of 0 and leave no state. */
int dgwrite_run(struct dgwrite *w, uint64_t ctx, int partial,
		unsigned n_instrs, unsigned n_addrs, const uint64_t *addrs)
{
	uint64_t *pred = ctx < w->n_contexts ? w->ctx_pred[ctx] : NULL;
	uint32_t nacc = ctx < w->n_contexts ? w->ctx_nacc[ctx] : 0;
	unsigned i = pred ? (n_addrs < nacc ? n_addrs : nacc) : 0;
	size_t head_at = w->chain.head ? (size_t)(w->chain.head - w->runs.p) : 0;
	uint8_t *o = bytes_room(w, &w->runs, DGC_RUN_MAX(n_addrs));
	struct dgc_next none = { UINT32_MAX, 0 }, *next = &none;

	if (!o)
		return -1;
	if (w->chain.head)      /* the room may have moved the open chain */
		w->chain.head = w->runs.p + head_at;
	if (w->chains && w->chain.prev < w->n_contexts)
		next = &w->ctx_next[w->chain.prev];
	if (w->chains)
		o = dgc_put_chain_head(o, &w->chain, next, ctx,
				       dgc_info(partial, n_instrs, n_addrs), n_addrs, bits(w));
	else
		o = dgc_put_head(o, ctx, w->runs_prev, partial, n_instrs, n_addrs, bits(w));
	o = dgc_put_addrs(o, pred, addrs, i, bits(w));
	for (; i < n_addrs; i++)
		o = dgc_put_uleb(o, dgc_zigzag(addrs[i], bits(w)));
	w->runs.len = (size_t)(o - w->runs.p);
	w->runs_prev = ctx;
	w->n_runs++;
	w->n_accesses += n_addrs;
	return 0;
}

/* ------------------------------------------------------------ side records */

static void put_words(struct dgwrite *w, unsigned n, const uint64_t *v)
{
	dgwrite_word(w, n);
	for (unsigned i = 0; i < n; i++)
		dgwrite_word(w, v[i]);
}

int dgwrite_malloc(struct dgwrite *w, uint64_t addr, uint64_t size,
		   unsigned n_ips, const uint64_t *ips)
{
	dgwrite_begin(w);
	dgwrite_word(w, addr);
	dgwrite_word(w, size);
	put_words(w, n_ips, ips);
	return dgwrite_end(w, DG_R_MALLOC_BLOCK);
}

int dgwrite_free(struct dgwrite *w, uint64_t addr, unsigned n_ips,
		 const uint64_t *ips)
{
	dgwrite_begin(w);
	dgwrite_word(w, addr);
	if (w->version >= 2)
		put_words(w, n_ips, ips);
	return dgwrite_end(w, DG_R_FREE_BLOCK);
}

int dgwrite_heap(struct dgwrite *w, int type, uint64_t icount_delta,
		 uint64_t stack, uint64_t parent, unsigned n_new,
		 const uint64_t *delta, uint64_t addr_delta, uint64_t size)
{
	dgwrite_begin(w);
	dgwrite_uleb(w, icount_delta);
	dgwrite_uleb(w, stack);
	if (stack == DG_HEAP_NEW) {
		dgwrite_uleb(w, parent);
		dgwrite_uleb(w, n_new);
		for (unsigned i = 0; i < n_new; i++)
			dgwrite_sleb(w, delta[i]);
	}
	dgwrite_sleb(w, addr_delta);
	if (type == DG_R_HEAP_MALLOC)
		dgwrite_uleb(w, size);
	return dgwrite_end(w, type);
}

int dgwrite_track(struct dgwrite *w, uint64_t addr, uint64_t len,
		  const char *type_name, const char *label)
{
	dgwrite_begin(w);
	dgwrite_word(w, addr);
	dgwrite_word(w, len);
	dgwrite_str(w, type_name);
	dgwrite_str(w, label);
	return dgwrite_end(w, DG_R_TRACK_RANGE);
}

int dgwrite_untrack(struct dgwrite *w, uint64_t addr, uint64_t len)
{
	dgwrite_begin(w);
	dgwrite_word(w, addr);
	dgwrite_word(w, len);
	return dgwrite_end(w, DG_R_UNTRACK_RANGE);
}

int dgwrite_event(struct dgwrite *w, int type, const char *label)
{
	dgwrite_begin(w);
	dgwrite_str(w, label);
	return dgwrite_end(w, type);
}

int dgwrite_text_avma(struct dgwrite *w, uint64_t addr, const char *path)
{
	dgwrite_begin(w);
	dgwrite_word(w, addr);
	dgwrite_str(w, path);
	return dgwrite_end(w, DG_R_TEXT_AVMA);
}

int dgwrite_thread(struct dgwrite *w, uint32_t tid)
{
	dgwrite_begin(w);
	dgwrite_u32(w, tid);
	return dgwrite_end(w, DG_R_THREAD);
}

int dgwrite_mmap(struct dgwrite *w, uint64_t start, uint64_t len,
		 uint64_t offset, uint64_t bias, unsigned prot,
		 unsigned build_id_len, const uint8_t *build_id,
		 const char *path)
{
	dgwrite_begin(w);
	dgwrite_word(w, start);
	dgwrite_word(w, len);
	dgwrite_word(w, offset);
	dgwrite_word(w, bias);
	dgwrite_u8(w, prot);
	dgwrite_u8(w, build_id_len);
	dgwrite_bytes(w, build_id, build_id_len);
	dgwrite_str(w, path);
	return dgwrite_end(w, DG_R_MMAP);
}

int dgwrite_munmap(struct dgwrite *w, uint64_t start, uint64_t len)
{
	dgwrite_begin(w);
	dgwrite_word(w, start);
	dgwrite_word(w, len);
	return dgwrite_end(w, DG_R_MUNMAP);
}

int dgwrite_process(struct dgwrite *w, uint32_t pid, uint32_t ppid,
		    const char *tool, const char *exe, unsigned argc,
		    const char *const *argv)
{
	dgwrite_begin(w);
	dgwrite_u32(w, pid);
	dgwrite_u32(w, ppid);
	dgwrite_str(w, tool);
	dgwrite_str(w, exe);
	dgwrite_u32(w, argc);
	for (unsigned i = 0; i < argc; i++)
		dgwrite_str(w, argv[i]);
	return dgwrite_end(w, DG_R_PROCESS);
}

int dgwrite_icount(struct dgwrite *w, uint64_t icount)
{
	dgwrite_begin(w);
	dgwrite_u64(w, icount);
	return dgwrite_end(w, DG_R_ICOUNT);
}

int dgwrite_trace_state(struct dgwrite *w, unsigned on, unsigned reason)
{
	dgwrite_begin(w);
	dgwrite_u8(w, on);
	dgwrite_u8(w, reason);
	return dgwrite_end(w, DG_R_TRACE_STATE);
}

int dgwrite_fini(struct dgwrite *w, uint64_t icount, uint64_t runs,
		 uint64_t accesses, uint64_t records, uint64_t dropped)
{
	dgwrite_begin(w);
	dgwrite_u64(w, icount);
	dgwrite_u64(w, runs);
	dgwrite_u64(w, accesses);
	dgwrite_u64(w, records);
	dgwrite_u64(w, dropped);
	return dgwrite_end(w, DG_R_FINI);
}
