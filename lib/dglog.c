/* dglog.c: the streaming log reader; see dglog.h for the contract and
 * docs/FORMAT.md for the bytes.
 *
 * Layout of the work: dglog_next frames one record (type, length, payload)
 * out of the buffer, then hands the payload to the handler for its type
 * through a table.  A handler reads fields through a cursor that knows the
 * payload's end, so no field is read past it (dglog_cur.h).  BBRUNS is the
 * exception to "one record, one call": its handler only remembers where
 * the runs are, and each later call decodes one run until the payload is
 * used up.  The runs are decoded here, next to dglog_next, so that the
 * hot loop stays in one file; the other records' handlers are in
 * dglog_rec.c.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "dglog.h"
#include "dgcodec.h"
#include "dglog_cur.h"
#include "dglog_rec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The read buffer's first size; tests and the fuzzer build with a tiny one
 * (-DDGLOG_BUF_INITIAL=64) so that refilling and growing run all the time. */
#ifndef DGLOG_BUF_INITIAL
#define DGLOG_BUF_INITIAL (1u << 20)
#endif
#define BUF_INITIAL   DGLOG_BUF_INITIAL

const char *dglog_type_name(int file_type)
{
	const char *name = dglog_known_type_name(file_type);

	return name ? name : "unknown";
}

/* ------------------------------------------------------------ input */

/* Make at least n bytes available at r->data + r->pos.  Returns 1 when
 * they are, 0 when the input ends first (what there is stays available),
 * -1 on a read error.  The buffer grows only as data arrives, so a bogus
 * length in a short file costs no more memory than the file. */
static int fill(struct dglog *r, size_t n)
{
	while (r->end - r->pos < n) {
		if (r->mem || r->eof)
			return 0;
		if (r->pos > 0) {
			memmove(r->buf, r->buf + r->pos, r->end - r->pos);
			r->base += r->pos;
			r->end -= r->pos;
			r->pos = 0;
		}
		if (r->end == r->bufcap) {
			size_t cap = r->bufcap * 2;
			uint8_t *nb = realloc(r->buf, cap);
			if (!nb)
				return dglog_fail(r, "out of memory for a %zu-byte record", n);
			r->buf = nb;
			r->bufcap = cap;
		}
		r->data = r->buf;
		ssize_t got = read(r->fd, r->buf + r->end, r->bufcap - r->end);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return dglog_fail(r, "read error at byte %llu: %s",
					  (unsigned long long)(r->base + r->end),
					  strerror(errno));
		if (got == 0)
			r->eof = 1;
		r->end += (size_t)got;
	}
	return 1;
}

/* ------------------------------------------------------------ runs */

/* The decoding state of a run's context: NULL (a message) if undefined. */
static struct dglog_ctx_state *run_state(struct dglog *r, uint64_t ctx)
{
	if (ctx >= r->n_contexts) {
		dglog_fail(r, "refers to context %llu, only %llu defined",
			   (unsigned long long)ctx, (unsigned long long)r->n_contexts);
		return NULL;
	}
	return &r->ctx_state[ctx];
}

/* Check a run's counts against its bbdef (version 2 rules). */
static int check_counts(struct dglog *r, const struct dglog_bbdef *d,
			uint64_t n_instrs, uint64_t n_addrs)
{
	if (n_instrs == 0 || n_instrs > d->n_instrs)
		return dglog_fail(r, "runs %llu instructions of a block of %u",
				  (unsigned long long)n_instrs, d->n_instrs);
	if (n_addrs > d->n_accesses)
		return dglog_fail(r, "has %llu addresses, the block makes %u accesses",
				  (unsigned long long)n_addrs, d->n_accesses);
	if (n_addrs > 0 && d->accesses[n_addrs - 1].iseq >= n_instrs)
		return dglog_fail(r, "access %llu is made by instruction %u, but only %llu ran",
				  (unsigned long long)(n_addrs - 1),
				  d->accesses[n_addrs - 1].iseq,
				  (unsigned long long)n_instrs);
	return 0;
}

/* 2010 logs: n_instrs is unreliable, the addresses say what ran.  Keep the
 * stored count when it is plausible, else the whole block, and never fewer
 * instructions than the last access needs. */
static uint32_t v1_instrs(const struct dglog_bbdef *d, uint64_t n_instrs,
			  uint64_t n_addrs)
{
	if (n_instrs == 0 || n_instrs > d->n_instrs)
		n_instrs = d->n_instrs;
	if (n_addrs > 0 && d->accesses[n_addrs - 1].iseq >= n_instrs)
		n_instrs = d->accesses[n_addrs - 1].iseq + 1u;
	return (uint32_t)n_instrs;
}

static void deliver_run(struct dglog *r, struct dglog_record *rec,
			uint64_t ctx, uint32_t n_instrs, uint32_t n_addrs,
			int partial)
{
	struct dglog_run *u = &rec->u.run;

	rec->type = DGLOG_RUN;
	rec->icount = r->icount;
	u->thread = r->thread;
	u->icount_start = r->icount;
	u->context = ctx;
	u->bbdef = r->ctx_state[ctx].bbdef;
	u->n_instrs = n_instrs;
	u->n_addrs = n_addrs;
	u->partial = partial;
	u->addrs = r->scratch;
	u->index = r->n_runs++;
	r->n_accesses += n_addrs;
	r->icount += n_instrs;
}

static int rd_bbrun(struct dglog_cur *c, struct dglog_record *rec)
{
	struct dglog *r = c->r;
	uint64_t ctx, n, left;
	uint8_t n_instrs;
	const struct dglog_ctx_state *x;
	const struct dglog_bbdef *d;
	const uint64_t *addrs;

	if (cur_word(c, &ctx, "context_index") < 0
	    || cur_u8(c, &n_instrs, "n_instrs") < 0)
		return -1;
	left = (uint64_t)(c->end - c->p);
	if (left % r->word_size)
		return dglog_fail(r, "%llu bytes of addresses is not a whole number of words",
				  (unsigned long long)left);
	n = left / r->word_size;
	if (!(x = run_state(r, ctx)))
		return -1;
	d = r->bbdefs[x->bbdef];
	if (n > d->n_accesses)
		return dglog_fail(r, "has %llu addresses, the block makes %u accesses",
				  (unsigned long long)n, d->n_accesses);
	if (r->version < 2)
		n_instrs = (uint8_t)v1_instrs(d, n_instrs, n);
	else if (check_counts(r, d, n_instrs, n) < 0)
		return -1;
	if (cur_words(c, n, &addrs, "addrs") < 0)
		return -1;
	deliver_run(r, rec, ctx, n_instrs, (uint32_t)n,
		    n < d->n_accesses || n_instrs < d->n_instrs);
	return 1;
}

/* Runs follow: from the payload, one at a time.  BBCHAINS keeps the
   previous run's context from the last record, BBRUNS starts from 0; an
   open chain never carries over. */
static int runs_start(struct dglog_cur *c, int type)
{
	struct dglog *r = c->r;

	r->runs = c->p;
	r->runs_end = c->end;
	r->runs_n = 0;
	r->runs_type = type;
	r->chain_left = 0;
	if (type == DG_R_BBRUNS)
		r->runs_prev = 0;
	return 2;
}

static int rd_bbruns(struct dglog_cur *c, struct dglog_record *rec)
{
	(void)rec;
	return runs_start(c, DG_R_BBRUNS);
}

static int rd_bbchains(struct dglog_cur *c, struct dglog_record *rec)
{
	(void)rec;
	return runs_start(c, DG_R_BBCHAINS);
}

/* Decode n addresses of context x through its predictor. */
static int predict(struct dglog *r, struct dglog_cur *c,
		   struct dglog_ctx_state *x, uint32_t n_acc, uint32_t n)
{
	int e;

	if (n == 0)
		return 0;
	if (!x->pred && !(x->pred = calloc(2 * (size_t)n_acc, sizeof *x->pred)))
		return dglog_fail(r, "out of memory");
	if (grow_scratch(r, n) < 0)
		return -1;
	/* two copies, each with a constant word size: the masks fold away */
	if (r->word_size == 8)
		e = dgc_get_addrs(&c->p, c->end, x->pred, r->scratch, n, 64);
	else
		e = dgc_get_addrs(&c->p, c->end, x->pred, r->scratch, n, 32);
	return e < 0 ? dglog_fail_codec(r, e, "addr_delta") : 0;
}

/* A BBRUNS head: the run's context, and its counts when partial. */
static int plain_head(struct dglog *r, struct dglog_cur *c, uint64_t *ctx,
		      uint32_t *n_instrs, uint64_t *n_addrs, int *partial)
{
	const char *field;
	int e;

	if (r->word_size == 8)
		e = dgc_get_head(&c->p, c->end, r->runs_prev, 64, ctx, partial);
	else
		e = dgc_get_head(&c->p, c->end, r->runs_prev, 32, ctx, partial);
	if (e < 0)
		return dglog_fail_codec(r, e, "run head");
	if (*partial && (e = dgc_get_counts(&c->p, c->end, n_instrs, n_addrs, &field)) < 0)
		return dglog_fail_codec(r, e, field);
	return 0;
}

/* A BBCHAINS run: the next of an open chain, or a new head's first. */
static int chained_head(struct dglog *r, struct dglog_cur *c, uint64_t *ctx,
			uint32_t *n_instrs, uint64_t *n_addrs, int *partial)
{
	const struct dgc_next *nx;
	const char *field;
	uint64_t k;
	int e;

	if (!r->chain_left) {
		if (r->word_size == 8)
			e = dgc_get_chain_head(&c->p, c->end, r->runs_prev, 64, &k, ctx, partial);
		else
			e = dgc_get_chain_head(&c->p, c->end, r->runs_prev, 32, &k, ctx, partial);
		if (e < 0)
			return dglog_fail_codec(r, e, "run head");
		if (!k) {
			if (*partial && (e = dgc_get_counts(&c->p, c->end, n_instrs,
							    n_addrs, &field)) < 0)
				return dglog_fail_codec(r, e, field);
			return 0;
		}
		if (k > DGC_CHAIN_MAX)  /* else 3 bytes could stand for 2^62 runs */
			return dglog_fail(r, "a chain of %llu runs, at most %d",
					  (unsigned long long)k, DGC_CHAIN_MAX);
		r->chain_left = k;
	}
	if (!run_state(r, r->runs_prev))
		return -1;
	r->chain_left--;
	nx = &r->ctx_state[r->runs_prev].next;
	*ctx = nx->ctx;
	*partial = nx->info != 0;
	*n_instrs = dgc_info_instrs(nx->info);
	*n_addrs = dgc_info_addrs(nx->info);
	return 0;
}

/* One run out of the current BBRUNS or BBCHAINS payload. */
static int next_run(struct dglog *r, struct dglog_record *rec)
{
	struct dglog_cur c = { r, r->runs, r->runs_end };
	uint64_t ctx, n_addrs;
	uint32_t n_instrs;
	struct dglog_ctx_state *x;
	int partial;

	r->run_off = r->base + (uint64_t)(r->runs - r->data);
	if ((r->runs_type == DG_R_BBCHAINS ? chained_head : plain_head)
	    (r, &c, &ctx, &n_instrs, &n_addrs, &partial) < 0)
		return -1;
	if (!(x = run_state(r, ctx)))
		return -1;
	if (!partial) {
		n_instrs = x->n_instrs;
		n_addrs = x->n_accesses;
	} else if (check_counts(r, r->bbdefs[x->bbdef], n_instrs, n_addrs) < 0) {
		return -1;
	}
	if (predict(r, &c, x, x->n_accesses, (uint32_t)n_addrs) < 0)
		return -1;
	if (r->runs_type == DG_R_BBCHAINS)
		r->ctx_state[r->runs_prev].next = (struct dgc_next){
			(uint32_t)ctx, dgc_info(partial, n_instrs, n_addrs) };
	r->runs = c.p;
	r->runs_prev = ctx;
	r->runs_n++;
	rec->file_type = r->runs_type;
	rec->offset = r->run_off;
	rec->number = r->rec_number;
	rec->thread = r->thread;
	deliver_run(r, rec, ctx, n_instrs, (uint32_t)n_addrs, partial);
	return 1;
}

/* ------------------------------------------------------------ framing */

/* A HEADER record anywhere but first (read_header reads the first). */
static int rd_header_again(struct dglog_cur *c, struct dglog_record *rec)
{
	struct dglog *r = c->r;
	(void)rec;
	return dglog_fail(r, "a second header (the header is the first record only)");
}

typedef int (*handler_fn)(struct dglog_cur *, struct dglog_record *);

static const handler_fn handlers[DG_R_MAX_KNOWN + 1] = {
	[DG_R_HEADER] = rd_header_again,
	[DG_R_TRACK_RANGE] = dglog_rd_range,
	[DG_R_UNTRACK_RANGE] = dglog_rd_range,
	[DG_R_START_EVENT] = dglog_rd_event,
	[DG_R_END_EVENT] = dglog_rd_event,
	[DG_R_TEXT_AVMA] = dglog_rd_text_avma,
	[DG_R_MALLOC_BLOCK] = dglog_rd_malloc,
	[DG_R_FREE_BLOCK] = dglog_rd_free,
	[DG_R_BBDEF] = dglog_rd_bbdef,
	[DG_R_BBRUN] = rd_bbrun,
	[DG_R_CONTEXT] = dglog_rd_context,
	[DG_R_BBRUNS] = rd_bbruns,
	[DG_R_BBCHAINS] = rd_bbchains,
	[DG_R_CTXREF] = dglog_rd_ctxref,
	[DG_R_HEAP_MALLOC] = dglog_rd_heap,
	[DG_R_HEAP_FREE] = dglog_rd_heap,
	[DG_R_THREAD] = dglog_rd_thread,
	[DG_R_MMAP] = dglog_rd_mmap,
	[DG_R_MUNMAP] = dglog_rd_mmap,
	[DG_R_PROCESS] = dglog_rd_process,
	[DG_R_ICOUNT] = dglog_rd_icount,
	[DG_R_TRACE_STATE] = dglog_rd_trace_state,
	[DG_R_FINI] = dglog_rd_fini,
};

static int rd_unknown(struct dglog_cur *c, struct dglog_record *rec)
{
	struct dglog *r = c->r;
	rec->type = DGLOG_UNKNOWN;
	rec->u.unknown.len = (uint64_t)(c->end - c->p);
	rec->u.unknown.payload = c->p;
	if (r->n_unknown++ == 0) {
		r->unknown_off = r->rec_off;
		r->unknown_type = r->rec_type;
	}
	return 1;
}

/* The largest payload each record type can legitimately have (docs/FORMAT.md
 * section 5, "Record sizes"): what the writers produce, with room for
 * trailing fields a later writer may add.  A record claiming more is
 * corrupt; the bound also caps what a reader buffers for one record. */
#define KIB ((uint64_t)1 << 10)
#define MIB ((uint64_t)1 << 20)
#define MAX_UNKNOWN  (16 * MIB)                 /* a future record type */
static const uint64_t max_payload[DG_R_MAX_KNOWN + 1] = {
	[DG_R_HEADER] = 254,
	[DG_R_TRACK_RANGE] = 64 * KIB,
	[DG_R_UNTRACK_RANGE] = 4 * KIB,
	[DG_R_START_EVENT] = 64 * KIB,
	[DG_R_END_EVENT] = 64 * KIB,
	[DG_R_TEXT_AVMA] = 64 * KIB,
	[DG_R_MALLOC_BLOCK] = 64 * KIB,
	[DG_R_FREE_BLOCK] = 64 * KIB,
	[DG_R_BBDEF] = 1 * MIB,
	[DG_R_BBRUN] = 1 * MIB,
	[DG_R_CONTEXT] = 4 * KIB,
	[DG_R_BBRUNS] = 16 * MIB,
	[DG_R_BBCHAINS] = 16 * MIB,
	[DG_R_CTXREF] = 4 * KIB,
	[DG_R_HEAP_MALLOC] = 8 * KIB,
	[DG_R_HEAP_FREE] = 8 * KIB,
	[DG_R_THREAD] = 4 * KIB,
	[DG_R_MMAP] = 64 * KIB,
	[DG_R_MUNMAP] = 4 * KIB,
	[DG_R_PROCESS] = 64 * MIB,
	[DG_R_ICOUNT] = 4 * KIB,
	[DG_R_TRACE_STATE] = 4 * KIB,
	[DG_R_FINI] = 4 * KIB,
};

static uint64_t payload_limit(int type)
{
	if (type <= DG_R_MAX_KNOWN && max_payload[type])
		return max_payload[type];
	return MAX_UNKNOWN;
}

/* Types no writer of any version uses (FORMAT.md section 2): a record of one
 * of these is damage, not a record to skip. */
static int reserved_type(int type)
{
	return type == 1 || type == 2 || type == 7;
}

/* Refresh what is known of the input's size (a log still being written
 * grows).  Memory input never changes. */
static void input_size(struct dglog *r)
{
	struct stat st;
	off_t at;

	if (r->mem)
		return;
	if (fstat(r->fd, &st) < 0 || !S_ISREG(st.st_mode))
		return;
	if (!r->size_known) {
		at = lseek(r->fd, 0, SEEK_CUR);
		if (at < 0 || at > st.st_size)
			return;
		r->fd_start = at;
	}
	r->size_known = 1;
	r->size = (uint64_t)(st.st_size - r->fd_start);
}

/* Does the input end with a FINI record (the last record a writer puts
 * out)?  Then the file was written to its end, and a record that seems to
 * run past the end is damaged, not cut.  Sets *off to the FINI's offset.
 * The FINI's length is not assumed (a later writer may add fields): every
 * length that fits is tried, and the records count must be plausible. */
static int tail_fini(struct dglog *r, uint64_t *off)
{
	uint8_t tail[2 + 254];
	size_t n;

	if (!r->size_known || r->size < 16 + 2 + 40)
		return 0;
	n = r->size - 16 < sizeof tail ? (size_t)(r->size - 16) : sizeof tail;
	if (r->mem)
		memcpy(tail, r->mem + r->size - n, n);
	else if (pread(r->fd, tail, n, r->fd_start + (off_t)(r->size - n)) != (ssize_t)n)
		return 0;
	for (size_t len = 40; len + 2 <= n && len < DG_LONG_LENGTH; len++) {
		const uint8_t *p = tail + n - len - 2;
		uint64_t records = dglog_get_u(r, p + 2 + 24, 8);
		if (p[0] == DG_R_FINI && p[1] == len && records > r->rec_number
		    && records <= r->size / 2) {
			*off = r->size - len - 2;
			return 1;
		}
	}
	return 0;
}

static int truncated(struct dglog *r, uint64_t need, uint64_t left)
{
	r->truncated = 1;
	return dglog_fail(r, "truncated: the record needs %llu bytes, the file has %llu left",
			  (unsigned long long)need, (unsigned long long)left);
}

/* The record at r->rec_off needs `need` bytes and the input has fewer.
 * Truncated, unless the input ends with a FINI: then the length is bad. */
static int overrun(struct dglog *r, uint64_t need, uint64_t left)
{
	uint64_t fini;

	if (tail_fini(r, &fini))
		return dglog_fail(r, "corrupt: the record needs %llu bytes, the file has %llu left, "
				  "yet the log goes on to its fini record at byte %llu (a damaged "
				  "length or type)", (unsigned long long)need,
				  (unsigned long long)left, (unsigned long long)fini);
	return truncated(r, need, left);
}

/* Bytes the input holds from the record being framed on, if known. */
static int input_left(struct dglog *r, uint64_t need, uint64_t *left)
{
	if (!r->size_known)
		return 0;
	if (r->rec_off + need > r->size)
		input_size(r);
	*left = r->rec_off < r->size ? r->size - r->rec_off : 0;
	return 1;
}

/* Make the record's first `need` bytes available: 1, or -1 (error, or the
 * input ends first). */
static int need_bytes(struct dglog *r, uint64_t need)
{
	uint64_t left;
	int n;

	if (input_left(r, need, &left) && left < need)
		return overrun(r, need, left);
	if ((n = fill(r, (size_t)need)) < 0)
		return -1;
	if (n == 0)
		return overrun(r, need, r->end - r->pos);
	return 1;
}

/* Find the record at r->pos: *hdr bytes of type and length, *len of
 * payload, all present in the buffer.  1, 0 at clean end, -1 error.  The
 * length is judged (against the type's bound and what the input holds)
 * before the payload is read, so a bogus length costs no memory. */
static int frame(struct dglog *r, size_t *hdr, uint64_t *len)
{
	int n = fill(r, 1);
	uint8_t type;

	if (n <= 0)
		return n;
	type = r->data[r->pos];
	r->rec_type = type;
	if (reserved_type(type))
		return dglog_fail(r, "corrupt: type %u is reserved, no writer uses it", type);
	if (type >= DG_R_SHORT_FIRST) {
		*hdr = 1;
		*len = 1;
	} else {
		if (need_bytes(r, 2) < 0)
			return -1;
		*hdr = 2;
		*len = r->data[r->pos + 1];
		if (*len == DG_LONG_LENGTH) {
			if (need_bytes(r, 10) < 0)
				return -1;
			*hdr = 10;
			*len = dglog_get_u(r, r->data + r->pos + 2, 8);
		}
	}
	if (*len > payload_limit(type))
		return dglog_fail(r, "corrupt: payload length %llu is over the limit of %llu "
				  "for this record type", (unsigned long long)*len,
				  (unsigned long long)payload_limit(type));
	return need_bytes(r, *hdr + *len);
}

/* Read one file record: 1 delivered, 2 a BBRUNS to expand, 0 end, -1. */
static int next_record(struct dglog *r, struct dglog_record *rec)
{
	size_t hdr = 0;
	uint64_t len = 0;
	handler_fn h;
	int n;

	r->rec_off = r->base + r->pos;
	r->rec_number = r->n_records;
	r->rec_type = -1;
	if ((n = frame(r, &hdr, &len)) <= 0)
		return n;
	if (r->saw_fini)
		return dglog_fail(r, "a record after fini (fini is the last record)");
	r->rec_bytes = hdr + len;
	struct dglog_cur c = { r, r->data + r->pos + hdr,
			       r->data + r->pos + hdr + len };
	r->pos += hdr + (size_t)len;
	memset(rec, 0, sizeof *rec);
	rec->type = rec->file_type = r->rec_type;
	rec->offset = r->rec_off;
	rec->number = r->rec_number;
	rec->thread = r->thread;
	rec->icount = r->icount;
	h = r->rec_type <= DG_R_MAX_KNOWN ? handlers[r->rec_type] : NULL;
	n = h ? h(&c, rec) : rd_unknown(&c, rec);
	r->n_records++;
	return n;
}

static void header_record(struct dglog *r, struct dglog_record *rec)
{
	memset(rec, 0, sizeof *rec);
	rec->type = rec->file_type = DG_R_HEADER;
	rec->u.header.version = r->version;
	rec->u.header.endian = r->endian;
	rec->u.header.word_size = r->word_size;
	r->header_sent = 1;
}

int dglog_next(struct dglog *r, struct dglog_record *rec)
{
	int n;

	if (r->failed)
		return -1;
	if (!r->header_sent) {
		header_record(r, rec);
		return 1;
	}
	if (r->has_pending) {           /* a heap record after its ICOUNT */
		*rec = r->pending;
		r->has_pending = 0;
		return 1;
	}
	for (;;) {
		if (r->runs && (r->runs < r->runs_end || r->chain_left)) {
			n = next_run(r, rec);
			break;
		}
		r->runs = NULL;
		if ((n = next_record(r, rec)) != 2)
			break;
	}
	if (n < 0)
		r->failed = 1;
	return n;
}

/* A FINI whose totals disagree: the log is corrupt somewhere before it.  A
 * skipped record of an unknown type is the likely place, so say where the
 * first one was. */
static int fini_mismatch(struct dglog *r, const struct dglog_where *w, const char *what,
			 uint64_t fini, uint64_t seen)
{
	char hint[128] = "";

	if (r->n_unknown)
		snprintf(hint, sizeof hint, " (the first record of an unknown type, %d, "
			 "is at byte %llu)", r->unknown_type,
			 (unsigned long long)r->unknown_off);
	return dglog_fail_at(r, w, "fini counts %llu %s, the log has %llu: corrupt%s",
			     (unsigned long long)fini, what,
			     (unsigned long long)seen, hint);
}

int dglog_check_complete(struct dglog *r)
{
	struct dglog_where w = { r->base + r->pos, r->n_records, 0,
				 DG_R_FINI, 0 };
	const struct dglog_fini *f = &r->fini;
	uint64_t fini_off;

	r->truncated = 0;
	if (r->version < 2) {
		w.type = DG_R_HEADER;
		w.off = w.number = 0;
		return dglog_fail_at(r, &w, "a version 1 log has no fini record");
	}
	if (!r->saw_fini) {
		if (tail_fini(r, &fini_off))
			return dglog_fail_file(r, "byte %llu: corrupt: the file ends with a fini "
					       "record at byte %llu that reading never reached (a "
					       "damaged length or type)", (unsigned long long)w.off,
					       (unsigned long long)fini_off);
		r->truncated = 1;
		return dglog_fail_file(r, "byte %llu: the log ends without a fini record (truncated)",
				       (unsigned long long)w.off);
	}
	w.off = r->fini_off;
	w.number = r->n_records - 1;
	if (f->records != r->n_records - 1)
		return fini_mismatch(r, &w, "records", f->records, r->n_records - 1);
	if (f->runs != r->n_runs)
		return fini_mismatch(r, &w, "runs", f->runs, r->n_runs);
	if (f->accesses != r->n_accesses)
		return fini_mismatch(r, &w, "accesses", f->accesses, r->n_accesses);
	return 0;
}

/* ------------------------------------------------------------ definitions */

/* Stored by dglog_rec.c; the reader owns them until dglog_close. */
const struct dglog_bbdef *dglog_bbdef(const struct dglog *r, uint64_t idx)
{
	return idx < r->n_bbdefs ? r->bbdefs[idx] : NULL;
}

const struct dglog_context *dglog_context(const struct dglog *r, uint64_t idx)
{
	struct dglog_ctx_view *v = r->ctx_view;
	unsigned i, depth;

	if (idx >= r->n_contexts || !v)
		return NULL;
	depth = r->contexts[idx].depth;
	for (i = 0; i < depth; i++)
		v->stack[i] = dglog_ctx_frame(r, idx, i);
	v->c = (struct dglog_context){ r->ctx_state[idx].bbdef, depth, v->stack };
	return &v->c;
}

/* ------------------------------------------------------------ open, close */

static int read_header(struct dglog *r)
{
	static const uint8_t sig[DG_SIGNATURE_LEN] = DG_SIGNATURE;
	size_t have, nsig;
	int n;

	r->rec_type = DG_R_HEADER;
	if ((n = fill(r, 2 + DG_HEADER_LEN)) < 0)
		return -1;
	have = r->end - r->pos;
	nsig = have < 2 ? 0 : have - 2;
	if (nsig > sizeof sig)
		nsig = sizeof sig;
	if ((have >= 1 && r->data[0] != DG_R_HEADER)
	    || (have >= 2 && (r->data[1] < DG_HEADER_LEN
			      || r->data[1] == DG_LONG_LENGTH))
	    || memcmp(r->data + 2, sig, nsig) != 0)
		return dglog_fail(r, "not a datagrind log (bad signature)");
	if (n == 0) {
		r->truncated = 1;
		return dglog_fail(r, "truncated: the file ends inside the header, after %zu bytes",
				  have);
	}
	r->version = r->data[13];
	r->endian = r->data[14];
	r->word_size = r->data[15];
	if (r->version < 1 || r->version > DG_VERSION)
		return dglog_fail(r, "version %u, this reader knows 1 and 2", r->version);
	if (r->endian > 1)
		return dglog_fail(r, "endian byte %u is neither 0 (little) nor 1 (big)",
				  r->endian);
	if (r->word_size != 4 && r->word_size != 8)
		return dglog_fail(r, "word size %u, not 4 or 8", r->word_size);
	if ((n = fill(r, 2 + (size_t)r->data[1])) <= 0)
		return n < 0 ? -1 : truncated(r, 2 + (size_t)r->data[1], r->end - r->pos);
	r->pos = 2 + (size_t)r->data[1];
	r->rec_bytes = r->pos;
	r->n_records = 1;
	return 0;
}

static int open_common(struct dglog *r, char *err, size_t errlen)
{
	if (!r->mem) {
		r->bufcap = BUF_INITIAL;
		if (!(r->buf = malloc(r->bufcap))) {
			dglog_fail_file(r, "out of memory");
			goto bad;
		}
		r->data = r->buf;
	}
	if (read_header(r) == 0)
		return 0;
bad:
	r->failed = 1;
	if (err && errlen)
		snprintf(err, errlen, "%s", r->err);
	return -1;
}

static void set_name(struct dglog *r, const char *name)
{
	memset(r, 0, sizeof *r);
	snprintf(r->name, sizeof r->name, "%s", name);
	r->fd = -1;
}

int dglog_open_fd(struct dglog *r, int fd, const char *name,
		  char *err, size_t errlen)
{
	set_name(r, name);
	r->fd = fd;
	input_size(r);
	return open_common(r, err, errlen);
}

int dglog_open_mem(struct dglog *r, const void *data, size_t len,
		   const char *name, char *err, size_t errlen)
{
	static const uint8_t empty[1];

	set_name(r, name);
	r->mem = data ? data : empty;
	r->data = r->mem;
	r->end = len;
	r->eof = 1;
	r->size_known = 1;
	r->size = len;
	return open_common(r, err, errlen);
}

int dglog_open(struct dglog *r, const char *path, char *err, size_t errlen)
{
	int fd;

	if (strcmp(path, "-") == 0)
		return dglog_open_fd(r, 0, "stdin", err, errlen);
	set_name(r, path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		dglog_fail_file(r, "cannot open: %s", strerror(errno));
		r->failed = 1;
		if (err && errlen)
			snprintf(err, errlen, "%s", r->err);
		return -1;
	}
	if (dglog_open_fd(r, fd, path, err, errlen) < 0) {
		r->own_fd = 1;
		return -1;
	}
	r->own_fd = 1;
	return 0;
}

void dglog_close(struct dglog *r)
{
	for (uint64_t i = 0; i < r->n_bbdefs; i++)
		free(r->bbdefs[i]);
	for (uint64_t i = 0; i < r->n_contexts; i++)
		free(r->ctx_state[i].pred);
	free(r->bbdefs);
	free(r->contexts);
	free(r->ctx_frames);
	free(r->ctx_view);
	free(r->ctx_state);
	free(r->buf);
	free(r->scratch);
	free(r->argv);
	free(r->hstacks);
	if (r->own_fd && r->fd >= 0)
		close(r->fd);
	r->bbdefs = NULL;
	r->contexts = NULL;
	r->ctx_frames = NULL;
	r->ctx_frames_n = r->ctx_frames_cap = 0;
	r->ctx_view = NULL;
	r->contexts_cap = 0;
	r->ctx_state = NULL;
	r->ctx_state_cap = 0;
	r->buf = NULL;
	r->scratch = NULL;
	r->argv = NULL;
	r->hstacks = NULL;
	r->n_hstacks = r->hstacks_cap = 0;
	r->n_bbdefs = r->n_contexts = 0;
	r->own_fd = 0;
}
