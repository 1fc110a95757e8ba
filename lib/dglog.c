/* dglog.c: the streaming log reader; see dglog.h for the contract and
 * docs/FORMAT.md for the bytes.
 *
 * Layout of the work: dglog_next frames one record (type, length, payload)
 * out of the buffer, then hands the payload to the handler for its type
 * through a table.  A handler reads fields through a cursor that knows the
 * payload's end, so no field is read past it.  BBRUNS is the exception to
 * "one record, one call": its handler only remembers where the runs are, and
 * each later call decodes one run until the payload is used up.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "dglog.h"
#include "dgcodec.h"
#include "dgmem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
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

static const char *const type_names[DG_R_MAX_KNOWN + 1] = {
	[DG_R_HEADER] = "header",
	[DG_R_TRACK_RANGE] = "track_range",
	[DG_R_UNTRACK_RANGE] = "untrack_range",
	[DG_R_START_EVENT] = "start_event",
	[DG_R_END_EVENT] = "end_event",
	[DG_R_TEXT_AVMA] = "text_avma",
	[DG_R_MALLOC_BLOCK] = "malloc_block",
	[DG_R_FREE_BLOCK] = "free_block",
	[DG_R_BBDEF] = "bbdef",
	[DG_R_BBRUN] = "bbrun",
	[DG_R_CONTEXT] = "context",
	[DG_R_BBRUNS] = "bbruns",
	[DG_R_BBCHAINS] = "bbchains",
	[DG_R_CTXREF] = "ctxref",
	[DG_R_HEAP_MALLOC] = "heap_malloc",
	[DG_R_HEAP_FREE] = "heap_free",
	[DG_R_THREAD] = "thread",
	[DG_R_MMAP] = "mmap",
	[DG_R_MUNMAP] = "munmap",
	[DG_R_PROCESS] = "process",
	[DG_R_ICOUNT] = "icount",
	[DG_R_TRACE_STATE] = "trace_state",
	[DG_R_FINI] = "fini",
};

const char *dglog_type_name(int file_type)
{
	if (file_type < 0 || file_type > DG_R_MAX_KNOWN
	    || !type_names[file_type])
		return "unknown";
	return type_names[file_type];
}

/* State of the record being read, for messages. */
struct where {
	uint64_t off, number, run;
	int type, in_run;
};

static struct where cur_where(const struct dglog *r);

static int vfail(struct dglog *r, const struct where *w,
		 const char *fmt, va_list ap)
{
	char tname[32];
	int n;

	if (w->type >= 0 && w->type <= DG_R_MAX_KNOWN && type_names[w->type])
		snprintf(tname, sizeof tname, "%s", type_names[w->type]);
	else
		snprintf(tname, sizeof tname, "type %d", w->type);
	n = snprintf(r->err, sizeof r->err, "%s: byte %llu: record #%llu (%s): ",
		     r->name, (unsigned long long)w->off,
		     (unsigned long long)w->number, tname);
	if (w->in_run && n >= 0 && (size_t)n < sizeof r->err)
		n += snprintf(r->err + n, sizeof r->err - n, "run %llu: ",
			      (unsigned long long)w->run);
	if (n >= 0 && (size_t)n < sizeof r->err)
		vsnprintf(r->err + n, sizeof r->err - n, fmt, ap);
	return -1;
}

/* Fail on the record being read; returns -1. */
static int fail(struct dglog *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int fail(struct dglog *r, const char *fmt, ...)
{
	struct where w = cur_where(r);
	va_list ap;

	va_start(ap, fmt);
	vfail(r, &w, fmt, ap);
	va_end(ap);
	return -1;
}

/* Fail at a given place; returns -1. */
static int vfail_l(struct dglog *r, const struct where *w, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int vfail_l(struct dglog *r, const struct where *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(r, w, fmt, ap);
	va_end(ap);
	return -1;
}

/* Fail with a message not tied to a record (open, I/O). */
static int fail_file(struct dglog *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int fail_file(struct dglog *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(r->err, sizeof r->err, "%s: ", r->name);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < sizeof r->err)
		vsnprintf(r->err + n, sizeof r->err - n, fmt, ap);
	va_end(ap);
	return -1;
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
				return fail(r, "out of memory for a %zu-byte record", n);
			r->buf = nb;
			r->bufcap = cap;
		}
		r->data = r->buf;
		ssize_t got = read(r->fd, r->buf + r->end, r->bufcap - r->end);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return fail(r, "read error at byte %llu: %s",
				    (unsigned long long)(r->base + r->end),
				    strerror(errno));
		if (got == 0)
			r->eof = 1;
		r->end += (size_t)got;
	}
	return 1;
}

static uint64_t get_u(const struct dglog *r, const uint8_t *p, int size)
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

/* A cursor over one payload: every read checks the payload's end. */
struct cur {
	struct dglog *r;
	const uint8_t *p, *end;
};

static int cur_u(struct cur *c, uint64_t *v, int size, const char *what)
{
	if (c->end - c->p < size)
		return fail(c->r, "payload ends inside %s", what);
	*v = get_u(c->r, c->p, size);
	c->p += size;
	return 0;
}

static int cur_u8(struct cur *c, uint8_t *v, const char *what)
{
	uint64_t x;

	if (cur_u(c, &x, 1, what) < 0)
		return -1;
	*v = (uint8_t)x;
	return 0;
}

static int cur_u32(struct cur *c, uint32_t *v, const char *what)
{
	uint64_t x;

	if (cur_u(c, &x, 4, what) < 0)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

static int cur_word(struct cur *c, uint64_t *v, const char *what)
{
	return cur_u(c, v, c->r->word_size, what);
}

static int cur_str(struct cur *c, const char **s, const char *what)
{
	const uint8_t *nul = memchr(c->p, 0, c->end - c->p);

	if (!nul)
		return fail(c->r, "string %s not terminated inside the payload", what);
	*s = (const char *)c->p;
	c->p = nul + 1;
	return 0;
}

/* A run codec error (dgcodec.h) in field what, as a message. */
static int codec_fail(struct dglog *r, int e, const char *what)
{
	static const char *const text[] = {
		[-DGC_E_END] = "payload ends inside %s",
		[-DGC_E_OVERFLOW] = "%s: leb128 overflows 64 bits",
		[-DGC_E_LONG] = "%s: leb128 longer than 10 bytes",
	};

	return fail(r, text[-e], what);
}

/* Read n words into the scratch array; n was checked against the payload. */
static int cur_words(struct cur *c, uint64_t n, const uint64_t **out,
		     const char *what)
{
	struct dglog *r = c->r;

	if (n > (uint64_t)(c->end - c->p) / r->word_size)
		return fail(r, "%s: %llu words do not fit in the %zu bytes left",
			    what, (unsigned long long)n, (size_t)(c->end - c->p));
	if (n > r->scratch_cap) {
		size_t cap = n < 64 ? 64 : n;
		uint64_t *s = realloc(r->scratch, cap * sizeof *s);
		if (!s)
			return fail(r, "out of memory");
		r->scratch = s;
		r->scratch_cap = cap;
	}
	for (uint64_t i = 0; i < n; i++) {
		r->scratch[i] = get_u(r, c->p, r->word_size);
		c->p += r->word_size;
	}
	*out = r->scratch;
	return 0;
}

/* ------------------------------------------------------------ where */

static struct where cur_where(const struct dglog *r)
{
	struct where w;

	w.off = r->rec_off;
	w.number = r->rec_number;
	w.type = r->rec_type;
	w.in_run = r->runs != NULL;
	w.run = r->runs_n;
	if (w.in_run)
		w.off = r->run_off;
	return w;
}

/* ------------------------------------------------------------ side records */

static int rd_range(struct cur *c, struct dglog_record *rec)
{
	struct dglog_range *g = &rec->u.range;

	memset(g, 0, sizeof *g);
	if (cur_word(c, &g->addr, "addr") < 0 || cur_word(c, &g->len, "len") < 0)
		return -1;
	if (rec->file_type == DG_R_UNTRACK_RANGE)
		return 1;
	if (cur_str(c, &g->type_name, "type_name") < 0)
		return -1;
	return cur_str(c, &g->label, "label") < 0 ? -1 : 1;
}

static int rd_event(struct cur *c, struct dglog_record *rec)
{
	return cur_str(c, &rec->u.event.label, "label") < 0 ? -1 : 1;
}

static int rd_text_avma(struct cur *c, struct dglog_record *rec)
{
	if (cur_word(c, &rec->u.text_avma.addr, "text_avma") < 0)
		return -1;
	return cur_str(c, &rec->u.text_avma.path, "path") < 0 ? -1 : 1;
}

static int rd_stack(struct cur *c, struct dglog_block *b)
{
	if (cur_word(c, &b->n_ips, "n_ips") < 0)
		return -1;
	return cur_words(c, b->n_ips, &b->ips, "ips");
}

static int rd_malloc(struct cur *c, struct dglog_record *rec)
{
	struct dglog_block *b = &rec->u.block;

	memset(b, 0, sizeof *b);
	if (cur_word(c, &b->addr, "addr") < 0 || cur_word(c, &b->size, "size") < 0)
		return -1;
	return rd_stack(c, b) < 0 ? -1 : 1;
}

static int rd_free(struct cur *c, struct dglog_record *rec)
{
	struct dglog *r = c->r;
	struct dglog_block *b = &rec->u.block;

	memset(b, 0, sizeof *b);
	if (cur_word(c, &b->addr, "addr") < 0)
		return -1;
	if (r->version < 2)
		return 1;
	return rd_stack(c, b) < 0 ? -1 : 1;
}

static int rd_thread(struct cur *c, struct dglog_record *rec)
{
	struct dglog *r = c->r;
	if (cur_u32(c, &rec->u.thread.tid, "tid") < 0)
		return -1;
	r->thread = rec->thread = rec->u.thread.tid;
	return 1;
}

static int rd_mmap(struct cur *c, struct dglog_record *rec)
{
	struct dglog *r = c->r;
	struct dglog_mmap *m = &rec->u.mmap;

	memset(m, 0, sizeof *m);
	if (cur_word(c, &m->start, "start") < 0 || cur_word(c, &m->len, "len") < 0)
		return -1;
	if (rec->file_type == DG_R_MUNMAP)
		return 1;
	if (cur_word(c, &m->offset, "offset") < 0
	    || cur_word(c, &m->bias, "bias") < 0
	    || cur_u8(c, &m->prot, "prot") < 0
	    || cur_u8(c, &m->build_id_len, "build_id_len") < 0)
		return -1;
	if (c->end - c->p < m->build_id_len)
		return fail(r, "build_id of %u bytes runs past the payload",
			    m->build_id_len);
	m->build_id = c->p;
	c->p += m->build_id_len;
	return cur_str(c, &m->path, "path") < 0 ? -1 : 1;
}

static int rd_argv(struct dglog *r, struct cur *c, uint32_t argc)
{
	char what[32];

	if (argc > (uint64_t)(c->end - c->p))
		return fail(r, "argc %u exceeds the %zu bytes left", argc,
			    (size_t)(c->end - c->p));
	if (argc > r->argv_cap) {
		const char **a = realloc(r->argv, (size_t)argc * sizeof *a);
		if (!a)
			return fail(r, "out of memory");
		r->argv = a;
		r->argv_cap = argc;
	}
	for (uint32_t i = 0; i < argc; i++) {
		snprintf(what, sizeof what, "argv[%u]", i);
		if (cur_str(c, &r->argv[i], what) < 0)
			return -1;
	}
	return 0;
}

static int rd_process(struct cur *c, struct dglog_record *rec)
{
	struct dglog *r = c->r;
	struct dglog_process *p = &rec->u.process;

	memset(p, 0, sizeof *p);
	if (cur_u32(c, &p->pid, "pid") < 0 || cur_u32(c, &p->ppid, "ppid") < 0
	    || cur_str(c, &p->tool, "tool") < 0 || cur_str(c, &p->exe, "exe") < 0
	    || cur_u32(c, &p->argc, "argc") < 0 || rd_argv(r, c, p->argc) < 0)
		return -1;
	p->argv = r->argv;
	return 1;
}

static int rd_icount(struct cur *c, struct dglog_record *rec)
{
	struct dglog *r = c->r;
	if (cur_u(c, &rec->u.icount.icount, 8, "icount") < 0)
		return -1;
	r->icount = rec->icount = rec->u.icount.icount;
	return 1;
}

static int rd_trace_state(struct cur *c, struct dglog_record *rec)
{
	struct dglog_trace_state *t = &rec->u.trace_state;

	if (cur_u8(c, &t->on, "on") < 0 || cur_u8(c, &t->reason, "reason") < 0)
		return -1;
	return 1;
}

/* FINI's end and status came later in version 2: absent means unknown. */
static int rd_fini_end(struct cur *c, struct dglog_fini *f)
{
	uint64_t status;

	f->end = DG_END_UNKNOWN;
	f->status = 0;
	if (c->p == c->end)
		return 0;
	if (cur_u8(c, &f->end, "end") < 0 || cur_u(c, &status, 4, "status") < 0)
		return -1;
	f->status = (uint32_t)status;
	return 0;
}

static int rd_fini(struct cur *c, struct dglog_record *rec)
{
	struct dglog *r = c->r;
	struct dglog_fini *f = &rec->u.fini;

	if (cur_u(c, &f->icount, 8, "icount") < 0
	    || cur_u(c, &f->runs, 8, "runs") < 0
	    || cur_u(c, &f->accesses, 8, "accesses") < 0
	    || cur_u(c, &f->records, 8, "records") < 0
	    || cur_u(c, &f->dropped_runs, 8, "dropped_runs") < 0)
		return -1;
	if (rd_fini_end(c, f) < 0)
		return -1;
	r->fini = *f;
	r->fini_off = r->rec_off;
	r->saw_fini = 1;
	return 1;
}

static int rd_header_again(struct cur *c, struct dglog_record *rec)
{
	struct dglog *r = c->r;
	(void)rec;
	return fail(r, "a second header (the header is the first record only)");
}

/* ------------------------------------------------------------ definitions */

static int table_push(void ***tab, size_t *cap, uint64_t n, void *item)
{
	if (n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 256;
		void **t = realloc(*tab, ncap * sizeof *t);
		if (!t)
			return -1;
		*tab = t;
		*cap = ncap;
	}
	(*tab)[n] = item;
	return 0;
}

/* Instructions and accesses of a bbdef, read into storage already sized. */
static int rd_bbdef_body(struct dglog *r, struct cur *c, struct dglog_bbdef *d)
{
	char what[48];

	for (uint32_t i = 0; i < d->n_instrs; i++) {
		snprintf(what, sizeof what, "instrs[%u]", i);
		if (cur_word(c, &d->instrs[i].addr, what) < 0
		    || cur_u8(c, &d->instrs[i].size, what) < 0)
			return -1;
	}
	for (uint32_t i = 0; i < d->n_accesses; i++) {
		struct dglog_access *a = &d->accesses[i];
		a->dir = c->p[0];       /* room checked by rd_bbdef */
		a->size = c->p[1];
		a->iseq = c->p[2];
		c->p += 3;
		if (a->dir > DG_ACC_WRITE)
			return fail(r, "access %u: direction %u is neither read (0) nor write (1)",
				    i, a->dir);
		if (a->iseq >= d->n_instrs)
			return fail(r, "access %u: iseq %u, the block has %u instructions",
				    i, a->iseq, d->n_instrs);
		if (i > 0 && a->iseq < d->accesses[i - 1].iseq)
			return fail(r, "access %u: iseq %u comes before the previous access's %u",
				    i, a->iseq, d->accesses[i - 1].iseq);
	}
	if (r->version < 2)
		return 0;
	for (uint32_t i = 0; i < d->n_accesses; i++)
		(void)cur_u8(c, &d->accesses[i].flags, "access_flags");
	return cur_u8(c, &d->exit_kind, "exit_kind");
}

static int rd_bbdef(struct cur *c, struct dglog_record *rec)
{
	struct dglog *r = c->r;
	uint8_t n_instrs;
	uint64_t n_acc, left, per = r->version < 2 ? 3 : 4;
	struct dglog_bbdef *d;

	if (cur_u8(c, &n_instrs, "n_instrs") < 0
	    || cur_word(c, &n_acc, "n_accesses") < 0)
		return -1;
	if (n_instrs == 0)
		return fail(r, "a block of 0 instructions");
	left = (uint64_t)(c->end - c->p);
	if (left < (uint64_t)n_instrs * (r->word_size + 1)
	    || n_acc > (left - (uint64_t)n_instrs * (r->word_size + 1)) / per)
		return fail(r, "%u instructions and %llu accesses do not fit in %llu bytes",
			    n_instrs, (unsigned long long)n_acc,
			    (unsigned long long)left);
	d = calloc(1, sizeof *d + n_instrs * sizeof *d->instrs
		   + n_acc * sizeof *d->accesses);
	if (!d)
		return fail(r, "out of memory");
	d->n_instrs = n_instrs;
	d->n_accesses = (uint32_t)n_acc;
	d->instrs = (struct dglog_instr *)(d + 1);
	d->accesses = (struct dglog_access *)(d->instrs + n_instrs);
	if (rd_bbdef_body(r, c, d) < 0) {
		free(d);
		return -1;
	}
	if (table_push((void ***)&r->bbdefs, &r->bbdefs_cap, r->n_bbdefs, d) < 0) {
		free(d);
		return fail(r, "out of memory");
	}
	rec->u.def.index = r->n_bbdefs++;
	rec->u.def.bbdef = d;
	return 1;
}

/* A new context of bbdef bb with the given stack, numbered next. */
static int add_context(struct dglog *r, struct dglog_record *rec, uint64_t bb,
		       unsigned depth, const uint64_t *stack)
{
	struct dglog_context *x;

	if (bb >= r->n_bbdefs)
		return fail(r, "refers to bbdef %llu, only %llu defined",
			    (unsigned long long)bb, (unsigned long long)r->n_bbdefs);
	x = calloc(1, sizeof *x + depth * sizeof *x->stack);
	if (!x)
		return fail(r, "out of memory");
	x->bbdef = (uint32_t)bb;
	x->depth = depth;
	x->stack = (uint64_t *)(x + 1);
	if (depth)
		memcpy(x->stack, stack, depth * sizeof *stack);
	if (dg_grow(&r->ctx_state, &r->ctx_state_cap, r->n_contexts + 1,
		    sizeof *r->ctx_state) < 0) {
		free(x);
		return fail(r, "out of memory");
	}
	if (table_push((void ***)&r->contexts, &r->contexts_cap, r->n_contexts, x) < 0) {
		free(x);
		return fail(r, "out of memory");
	}
	r->ctx_state[r->n_contexts] = (struct dglog_ctx_state){
		(uint32_t)bb, r->bbdefs[bb]->n_instrs, r->bbdefs[bb]->n_accesses,
		dgc_next_init(r->n_contexts), NULL };
	rec->type = DG_R_CONTEXT;       /* a CTXREF reads as a CONTEXT */
	rec->u.def.index = r->n_contexts++;
	rec->u.def.context = x;
	return 1;
}

static int rd_context(struct cur *c, struct dglog_record *rec)
{
	struct dglog *r = c->r;
	uint64_t bb;
	uint8_t depth;
	const uint64_t *stack;

	if (cur_word(c, &bb, "bbdef_index") < 0 || cur_u8(c, &depth, "depth") < 0)
		return -1;
	if (bb >= r->n_bbdefs)
		return fail(r, "refers to bbdef %llu, only %llu defined",
			    (unsigned long long)bb, (unsigned long long)r->n_bbdefs);
	if (cur_words(c, depth, &stack, "stack") < 0)
		return -1;
	return add_context(r, rec, bb, depth, stack);
}

/* A uleb field of a record, with the codec's error as a message. */
static int cur_uleb(struct cur *c, uint64_t *v, const char *what)
{
	int e = dgc_get_uleb(&c->p, c->end, v);

	return e < 0 ? codec_fail(c->r, e, what) : 0;
}

/* A sleb field: a signed word-size value (two's complement, modulo the
   word), as a uleb of its zigzag form. */
static int cur_sleb(struct cur *c, uint64_t *v, const char *what)
{
	uint64_t z;

	if (cur_uleb(c, &z, what) < 0)
		return -1;
	*v = c->r->word_size == 8 ? dgc_unzigzag(z, 64) : dgc_unzigzag(z, 32);
	return 0;
}

/* CTXREF: stack[0] and the new frames as deltas, then keep frames of the
   reference context's stack from its stack[1]. */
static int rd_ctxref(struct cur *c, struct dglog_record *rec)
{
	struct dglog *r = c->r;
	const struct dglog_context *ref = NULL;
	uint64_t bb, back, keep, z, stack[256];
	uint8_t n_new;
	unsigned i;

	if (cur_uleb(c, &bb, "bbdef_index") < 0 || cur_uleb(c, &back, "back") < 0
	    || cur_uleb(c, &keep, "keep") < 0 || cur_u8(c, &n_new, "n_new") < 0)
		return -1;
	if (back > r->n_contexts)
		return fail(r, "refers back %llu contexts, only %llu defined",
			    (unsigned long long)back, (unsigned long long)r->n_contexts);
	if (back)
		ref = r->contexts[r->n_contexts - back];
	if (keep > (ref && ref->depth ? ref->depth - 1u : 0) || 1 + n_new + keep > 255)
		return fail(r, "keeps %llu frames of a reference with %u and adds %u: "
			    "more than the reference has or than 255",
			    (unsigned long long)keep, ref ? ref->depth : 0, n_new);
	for (i = 0; i <= n_new; i++) {
		if (cur_sleb(c, &z, "frame") < 0)
			return -1;
		stack[i] = (i ? stack[i - 1] : ref && ref->depth ? ref->stack[0] : 0) + z;
		stack[i] &= dgc_mask(8 * r->word_size);
	}
	for (i = 0; i < keep; i++)
		stack[1 + n_new + i] = ref->stack[1 + i];
	return add_context(r, rec, bb, 1 + n_new + (unsigned)keep, stack);
}

const struct dglog_bbdef *dglog_bbdef(const struct dglog *r, uint64_t idx)
{
	return idx < r->n_bbdefs ? r->bbdefs[idx] : NULL;
}

const struct dglog_context *dglog_context(const struct dglog *r, uint64_t idx)
{
	return idx < r->n_contexts ? r->contexts[idx] : NULL;
}

/* ------------------------------------------------------------ runs */

static int grow_scratch(struct dglog *r, size_t n)
{
	if (n <= r->scratch_cap)
		return 0;
	size_t cap = n < 64 ? 64 : n;
	uint64_t *s = realloc(r->scratch, cap * sizeof *s);
	if (!s)
		return fail(r, "out of memory");
	r->scratch = s;
	r->scratch_cap = cap;
	return 0;
}

/* ------------------------------------------------------------ heap records */

/* HEAP_MALLOC and HEAP_FREE (FORMAT.md 2.19): the stacks they define are
   kept as a tree, one frame a node, so that memory follows the log's
   bytes (a new stack costs a byte a frame at least), never depth times
   the records. */

/* Room for one more heap stack; stack 0, the empty one, comes first. */
static int hstack_room(struct dglog *r)
{
	if (!r->hstacks) {
		if (dg_grow(&r->hstacks, &r->hstacks_cap, 1, sizeof *r->hstacks) < 0)
			return fail(r, "out of memory");
		r->hstacks[0] = (struct dglog_hstack){ 0, 0, 0, 0 };
		r->n_hstacks = 1;
	}
	if (dg_grow(&r->hstacks, &r->hstacks_cap, r->n_hstacks + 1,
		    sizeof *r->hstacks) < 0)
		return fail(r, "out of memory");
	return 0;
}

/* New stacks: n_new frames (innermost first, as deltas from the parent's
   innermost frame, then each from the one before) on top of an earlier
   stack.  Each frame makes a stack, the outermost first; *s is the last,
   the whole stack. */
static int hstack_define(struct cur *c, uint64_t *s)
{
	struct dglog *r = c->r;
	uint64_t parent, n_new, d, i;
	uint32_t depth;

	if (cur_uleb(c, &parent, "parent") < 0 || cur_uleb(c, &n_new, "n_new") < 0)
		return -1;
	if (parent >= r->n_hstacks)
		return fail(r, "a new heap stack on heap stack %llu, only %llu defined",
			    (unsigned long long)parent, (unsigned long long)r->n_hstacks);
	depth = r->hstacks[parent].depth;
	if (n_new == 0 || n_new > DG_HEAP_MAX_DEPTH - depth)
		return fail(r, "%llu new frames on a heap stack of %u: at least 1, at most %d in all",
			    (unsigned long long)n_new, depth, DG_HEAP_MAX_DEPTH);
	if (grow_scratch(r, (size_t)n_new) < 0)
		return -1;
	for (i = 0; i < n_new; i++) {
		if (cur_sleb(c, &d, "frame") < 0)
			return -1;
		r->scratch[i] = ((i ? r->scratch[i - 1] : r->hstacks[parent].pc) + d)
				& dgc_mask(8 * r->word_size);
	}
	for (i = n_new; i-- > 0;) {
		if (hstack_room(r) < 0)
			return -1;
		r->hstacks[r->n_hstacks] = (struct dglog_hstack){ r->scratch[i],
			(uint32_t)parent, ++depth, (uint32_t)r->n_hstacks };
		parent = r->n_hstacks++;
	}
	*s = parent;
	return 0;
}

/* The stack field: predicted, defined here, or an index. */
static int heap_stack(struct cur *c, uint64_t *s)
{
	struct dglog *r = c->r;
	uint64_t ref;

	if (cur_uleb(c, &ref, "stack") < 0 || hstack_room(r) < 0)
		return -1;
	if (ref == DG_HEAP_NEW) {
		if (hstack_define(c, s) < 0)
			return -1;
	} else if (ref == DG_HEAP_PREDICTED) {
		*s = r->hstacks[r->heap_prev].next;
	} else if ((*s = ref - DG_HEAP_INDEX) >= r->n_hstacks) {
		return fail(r, "refers to heap stack %llu, only %llu defined",
			    (unsigned long long)*s, (unsigned long long)r->n_hstacks);
	}
	r->hstacks[r->heap_prev].next = (uint32_t)*s;
	r->heap_prev = (uint32_t)*s;
	return 0;
}

/* Stack s's frames, innermost first, into the scratch array. */
static int heap_frames(struct dglog *r, uint64_t s, struct dglog_block *b)
{
	uint32_t k = 0, n = r->hstacks[s].depth;

	if (grow_scratch(r, n) < 0)
		return -1;
	for (; k < n; s = r->hstacks[s].parent)
		r->scratch[k++] = r->hstacks[s].pc;
	b->n_ips = n;
	b->ips = r->scratch;
	return 0;
}

/* A heap record reads as a MALLOC_BLOCK or FREE_BLOCK; with an icount
   delta, as an ICOUNT first, the block after it on the next call. */
static int rd_heap(struct cur *c, struct dglog_record *rec)
{
	struct dglog *r = c->r;
	struct dglog_block *b = &rec->u.block;
	uint64_t dic, s = 0, d;

	memset(b, 0, sizeof *b);
	if (cur_uleb(c, &dic, "icount_delta") < 0 || heap_stack(c, &s) < 0
	    || cur_sleb(c, &d, "addr_delta") < 0)
		return -1;
	b->addr = r->heap_addr = (r->heap_addr + d) & dgc_mask(8 * r->word_size);
	if (rec->file_type == DG_R_HEAP_MALLOC && cur_uleb(c, &b->size, "size") < 0)
		return -1;
	if (heap_frames(r, s, b) < 0)
		return -1;
	rec->type = rec->file_type == DG_R_HEAP_MALLOC ? DG_R_MALLOC_BLOCK
						       : DG_R_FREE_BLOCK;
	if (!dic)
		return 1;
	r->icount = rec->icount = r->icount + dic;
	r->pending = *rec;
	r->has_pending = 1;
	rec->type = DG_R_ICOUNT;
	rec->u.icount.icount = r->icount;
	return 1;
}

/* The decoding state of a run's context: NULL (a message) if undefined. */
static struct dglog_ctx_state *run_state(struct dglog *r, uint64_t ctx)
{
	if (ctx >= r->n_contexts) {
		fail(r, "refers to context %llu, only %llu defined",
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
		return fail(r, "runs %llu instructions of a block of %u",
			    (unsigned long long)n_instrs, d->n_instrs);
	if (n_addrs > d->n_accesses)
		return fail(r, "has %llu addresses, the block makes %u accesses",
			    (unsigned long long)n_addrs, d->n_accesses);
	if (n_addrs > 0 && d->accesses[n_addrs - 1].iseq >= n_instrs)
		return fail(r, "access %llu is made by instruction %u, but only %llu ran",
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

static int rd_bbrun(struct cur *c, struct dglog_record *rec)
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
		return fail(r, "%llu bytes of addresses is not a whole number of words",
			    (unsigned long long)left);
	n = left / r->word_size;
	if (!(x = run_state(r, ctx)))
		return -1;
	d = r->bbdefs[x->bbdef];
	if (n > d->n_accesses)
		return fail(r, "has %llu addresses, the block makes %u accesses",
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
static int runs_start(struct cur *c, int type)
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

static int rd_bbruns(struct cur *c, struct dglog_record *rec)
{
	(void)rec;
	return runs_start(c, DG_R_BBRUNS);
}

static int rd_bbchains(struct cur *c, struct dglog_record *rec)
{
	(void)rec;
	return runs_start(c, DG_R_BBCHAINS);
}

/* Decode n addresses of context x through its predictor. */
static int predict(struct dglog *r, struct cur *c, struct dglog_ctx_state *x,
		   uint32_t n_acc, uint32_t n)
{
	int e;

	if (n == 0)
		return 0;
	if (!x->pred && !(x->pred = calloc(2 * (size_t)n_acc, sizeof *x->pred)))
		return fail(r, "out of memory");
	if (grow_scratch(r, n) < 0)
		return -1;
	/* two copies, each with a constant word size: the masks fold away */
	if (r->word_size == 8)
		e = dgc_get_addrs(&c->p, c->end, x->pred, r->scratch, n, 64);
	else
		e = dgc_get_addrs(&c->p, c->end, x->pred, r->scratch, n, 32);
	return e < 0 ? codec_fail(r, e, "addr_delta") : 0;
}

/* A BBRUNS head: the run's context, and its counts when partial. */
static int plain_head(struct dglog *r, struct cur *c, uint64_t *ctx,
		      uint32_t *n_instrs, uint64_t *n_addrs, int *partial)
{
	const char *field;
	int e;

	if (r->word_size == 8)
		e = dgc_get_head(&c->p, c->end, r->runs_prev, 64, ctx, partial);
	else
		e = dgc_get_head(&c->p, c->end, r->runs_prev, 32, ctx, partial);
	if (e < 0)
		return codec_fail(r, e, "run head");
	if (*partial && (e = dgc_get_counts(&c->p, c->end, n_instrs, n_addrs, &field)) < 0)
		return codec_fail(r, e, field);
	return 0;
}

/* A BBCHAINS run: the next of an open chain, or a new head's first. */
static int chained_head(struct dglog *r, struct cur *c, uint64_t *ctx,
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
			return codec_fail(r, e, "run head");
		if (!k) {
			if (*partial && (e = dgc_get_counts(&c->p, c->end, n_instrs,
							    n_addrs, &field)) < 0)
				return codec_fail(r, e, field);
			return 0;
		}
		if (k > DGC_CHAIN_MAX)  /* else 3 bytes could stand for 2^62 runs */
			return fail(r, "a chain of %llu runs, at most %d",
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
	struct cur c = { r, r->runs, r->runs_end };
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

typedef int (*handler_fn)(struct cur *, struct dglog_record *);

static const handler_fn handlers[DG_R_MAX_KNOWN + 1] = {
	[DG_R_HEADER] = rd_header_again,
	[DG_R_TRACK_RANGE] = rd_range,
	[DG_R_UNTRACK_RANGE] = rd_range,
	[DG_R_START_EVENT] = rd_event,
	[DG_R_END_EVENT] = rd_event,
	[DG_R_TEXT_AVMA] = rd_text_avma,
	[DG_R_MALLOC_BLOCK] = rd_malloc,
	[DG_R_FREE_BLOCK] = rd_free,
	[DG_R_BBDEF] = rd_bbdef,
	[DG_R_BBRUN] = rd_bbrun,
	[DG_R_CONTEXT] = rd_context,
	[DG_R_BBRUNS] = rd_bbruns,
	[DG_R_BBCHAINS] = rd_bbchains,
	[DG_R_CTXREF] = rd_ctxref,
	[DG_R_HEAP_MALLOC] = rd_heap,
	[DG_R_HEAP_FREE] = rd_heap,
	[DG_R_THREAD] = rd_thread,
	[DG_R_MMAP] = rd_mmap,
	[DG_R_MUNMAP] = rd_mmap,
	[DG_R_PROCESS] = rd_process,
	[DG_R_ICOUNT] = rd_icount,
	[DG_R_TRACE_STATE] = rd_trace_state,
	[DG_R_FINI] = rd_fini,
};

static int rd_unknown(struct cur *c, struct dglog_record *rec)
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
		uint64_t records = get_u(r, p + 2 + 24, 8);
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
	return fail(r, "truncated: the record needs %llu bytes, the file has %llu left",
		    (unsigned long long)need, (unsigned long long)left);
}

/* The record at r->rec_off needs `need` bytes and the input has fewer.
 * Truncated, unless the input ends with a FINI: then the length is bad. */
static int overrun(struct dglog *r, uint64_t need, uint64_t left)
{
	uint64_t fini;

	if (tail_fini(r, &fini))
		return fail(r, "corrupt: the record needs %llu bytes, the file has %llu left, "
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
		return fail(r, "corrupt: type %u is reserved, no writer uses it", type);
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
			*len = get_u(r, r->data + r->pos + 2, 8);
		}
	}
	if (*len > payload_limit(type))
		return fail(r, "corrupt: payload length %llu is over the limit of %llu "
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
		return fail(r, "a record after fini (fini is the last record)");
	r->rec_bytes = hdr + len;
	struct cur c = { r, r->data + r->pos + hdr, r->data + r->pos + hdr + len };
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
static int fini_mismatch(struct dglog *r, const struct where *w, const char *what,
			 uint64_t fini, uint64_t seen)
{
	char hint[128] = "";

	if (r->n_unknown)
		snprintf(hint, sizeof hint, " (the first record of an unknown type, %d, "
			 "is at byte %llu)", r->unknown_type,
			 (unsigned long long)r->unknown_off);
	return vfail_l(r, w, "fini counts %llu %s, the log has %llu: corrupt%s",
		       (unsigned long long)fini, what, (unsigned long long)seen, hint);
}

int dglog_check_complete(struct dglog *r)
{
	struct where w = { r->base + r->pos, r->n_records, 0, DG_R_FINI, 0 };
	const struct dglog_fini *f = &r->fini;
	uint64_t fini_off;

	r->truncated = 0;
	if (r->version < 2) {
		w.type = DG_R_HEADER;
		w.off = w.number = 0;
		return vfail_l(r, &w, "a version 1 log has no fini record");
	}
	if (!r->saw_fini) {
		if (tail_fini(r, &fini_off))
			return fail_file(r, "byte %llu: corrupt: the file ends with a fini "
					 "record at byte %llu that reading never reached (a "
					 "damaged length or type)", (unsigned long long)w.off,
					 (unsigned long long)fini_off);
		r->truncated = 1;
		return fail_file(r, "byte %llu: the log ends without a fini record (truncated)",
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
		return fail(r, "not a datagrind log (bad signature)");
	if (n == 0) {
		r->truncated = 1;
		return fail(r, "truncated: the file ends inside the header, after %zu bytes",
			    have);
	}
	r->version = r->data[13];
	r->endian = r->data[14];
	r->word_size = r->data[15];
	if (r->version < 1 || r->version > DG_VERSION)
		return fail(r, "version %u, this reader knows 1 and 2", r->version);
	if (r->endian > 1)
		return fail(r, "endian byte %u is neither 0 (little) nor 1 (big)",
			    r->endian);
	if (r->word_size != 4 && r->word_size != 8)
		return fail(r, "word size %u, not 4 or 8", r->word_size);
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
			fail_file(r, "out of memory");
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
		fail_file(r, "cannot open: %s", strerror(errno));
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
	for (uint64_t i = 0; i < r->n_contexts; i++) {
		free(r->ctx_state[i].pred);
		free(r->contexts[i]);
	}
	free(r->bbdefs);
	free(r->contexts);
	free(r->ctx_state);
	free(r->buf);
	free(r->scratch);
	free(r->argv);
	free(r->hstacks);
	if (r->own_fd && r->fd >= 0)
		close(r->fd);
	r->bbdefs = NULL;
	r->contexts = NULL;
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
