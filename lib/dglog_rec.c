/* dglog_rec.c: the log reader's decoders of side, definition and heap
 * records; see dglog_rec.h.  lib/dglog.c calls them through its table of
 * handlers, one call a record: none of them is on the runs' hot path.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "dglog_rec.h"
#include "dgmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ side records */

int dglog_rd_range(struct dglog_cur *c, struct dglog_record *rec)
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

int dglog_rd_event(struct dglog_cur *c, struct dglog_record *rec)
{
	return cur_str(c, &rec->u.event.label, "label") < 0 ? -1 : 1;
}

int dglog_rd_text_avma(struct dglog_cur *c, struct dglog_record *rec)
{
	if (cur_word(c, &rec->u.text_avma.addr, "text_avma") < 0)
		return -1;
	return cur_str(c, &rec->u.text_avma.path, "path") < 0 ? -1 : 1;
}

static int rd_stack(struct dglog_cur *c, struct dglog_block *b)
{
	if (cur_word(c, &b->n_ips, "n_ips") < 0)
		return -1;
	return cur_words(c, b->n_ips, &b->ips, "ips");
}

int dglog_rd_malloc(struct dglog_cur *c, struct dglog_record *rec)
{
	struct dglog_block *b = &rec->u.block;

	memset(b, 0, sizeof *b);
	if (cur_word(c, &b->addr, "addr") < 0 || cur_word(c, &b->size, "size") < 0)
		return -1;
	return rd_stack(c, b) < 0 ? -1 : 1;
}

int dglog_rd_free(struct dglog_cur *c, struct dglog_record *rec)
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

int dglog_rd_thread(struct dglog_cur *c, struct dglog_record *rec)
{
	struct dglog *r = c->r;
	if (cur_u32(c, &rec->u.thread.tid, "tid") < 0)
		return -1;
	r->thread = rec->thread = rec->u.thread.tid;
	return 1;
}

int dglog_rd_mmap(struct dglog_cur *c, struct dglog_record *rec)
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
		return dglog_fail(r, "build_id of %u bytes runs past the payload",
				  m->build_id_len);
	m->build_id = c->p;
	c->p += m->build_id_len;
	return cur_str(c, &m->path, "path") < 0 ? -1 : 1;
}

static int rd_argv(struct dglog *r, struct dglog_cur *c, uint32_t argc)
{
	char what[32];

	if (argc > (uint64_t)(c->end - c->p))
		return dglog_fail(r, "argc %u exceeds the %zu bytes left", argc,
				  (size_t)(c->end - c->p));
	if (argc > r->argv_cap) {
		const char **a = realloc(r->argv, (size_t)argc * sizeof *a);
		if (!a)
			return dglog_fail(r, "out of memory");
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

int dglog_rd_process(struct dglog_cur *c, struct dglog_record *rec)
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

int dglog_rd_icount(struct dglog_cur *c, struct dglog_record *rec)
{
	struct dglog *r = c->r;
	if (cur_u(c, &rec->u.icount.icount, 8, "icount") < 0)
		return -1;
	r->icount = rec->icount = rec->u.icount.icount;
	return 1;
}

int dglog_rd_trace_state(struct dglog_cur *c, struct dglog_record *rec)
{
	struct dglog_trace_state *t = &rec->u.trace_state;

	if (cur_u8(c, &t->on, "on") < 0 || cur_u8(c, &t->reason, "reason") < 0)
		return -1;
	return 1;
}

/* FINI's end and status came later in version 2: absent means unknown. */
static int rd_fini_end(struct dglog_cur *c, struct dglog_fini *f)
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

int dglog_rd_fini(struct dglog_cur *c, struct dglog_record *rec)
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
static int rd_bbdef_body(struct dglog *r, struct dglog_cur *c,
			 struct dglog_bbdef *d)
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
			return dglog_fail(r, "access %u: direction %u is neither read (0) nor write (1)",
					  i, a->dir);
		if (a->iseq >= d->n_instrs)
			return dglog_fail(r, "access %u: iseq %u, the block has %u instructions",
					  i, a->iseq, d->n_instrs);
		if (i > 0 && a->iseq < d->accesses[i - 1].iseq)
			return dglog_fail(r, "access %u: iseq %u comes before the previous access's %u",
					  i, a->iseq, d->accesses[i - 1].iseq);
	}
	if (r->version < 2)
		return 0;
	for (uint32_t i = 0; i < d->n_accesses; i++)
		(void)cur_u8(c, &d->accesses[i].flags, "access_flags");
	return cur_u8(c, &d->exit_kind, "exit_kind");
}

int dglog_rd_bbdef(struct dglog_cur *c, struct dglog_record *rec)
{
	struct dglog *r = c->r;
	uint8_t n_instrs;
	uint64_t n_acc, left, per = r->version < 2 ? 3 : 4;
	struct dglog_bbdef *d;

	if (cur_u8(c, &n_instrs, "n_instrs") < 0
	    || cur_word(c, &n_acc, "n_accesses") < 0)
		return -1;
	if (n_instrs == 0)
		return dglog_fail(r, "a block of 0 instructions");
	left = (uint64_t)(c->end - c->p);
	if (left < (uint64_t)n_instrs * (r->word_size + 1)
	    || n_acc > (left - (uint64_t)n_instrs * (r->word_size + 1)) / per)
		return dglog_fail(r, "%u instructions and %llu accesses do not fit in %llu bytes",
				  n_instrs, (unsigned long long)n_acc,
				  (unsigned long long)left);
	d = calloc(1, sizeof *d + n_instrs * sizeof *d->instrs
		   + n_acc * sizeof *d->accesses);
	if (!d)
		return dglog_fail(r, "out of memory");
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
		return dglog_fail(r, "out of memory");
	}
	rec->u.def.index = r->n_bbdefs++;
	rec->u.def.bbdef = d;
	return 1;
}

/* A new context of bbdef bb with the given stack (depth frames), numbered
   next; its first n_own frames are its own, the rest frames 1.. of context
   ref (n_own == depth: none), which it keeps by reference unless the chain
   of references is already DGLOG_CTX_HOPS long. */
static int add_context(struct dglog *r, struct dglog_record *rec, uint64_t bb,
		       unsigned depth, const uint64_t *stack, unsigned n_own, uint64_t ref)
{
	struct dglog_ctx_store *x;
	struct dglog_ctx_view *v;

	if (bb >= r->n_bbdefs)
		return dglog_fail(r, "refers to bbdef %llu, only %llu defined",
				  (unsigned long long)bb, (unsigned long long)r->n_bbdefs);
	if (n_own < depth && r->contexts[ref].hops >= DGLOG_CTX_HOPS)
		n_own = depth;
	if ((!r->ctx_view && !(r->ctx_view = malloc(sizeof *r->ctx_view)))
	    || dg_grow(&r->ctx_state, &r->ctx_state_cap, r->n_contexts + 1,
		       sizeof *r->ctx_state) < 0
	    || dg_grow(&r->contexts, &r->contexts_cap, r->n_contexts + 1, sizeof *r->contexts) < 0
	    || dg_grow(&r->ctx_frames, &r->ctx_frames_cap, r->ctx_frames_n + n_own + 1,
		       sizeof *r->ctx_frames) < 0)
		return dglog_fail(r, "out of memory");
	x = &r->contexts[r->n_contexts];
	*x = (struct dglog_ctx_store){ r->ctx_frames_n, 0, (uint8_t)n_own, (uint8_t)depth, 0 };
	if (n_own < depth) {
		x->ref = (uint32_t)ref;
		x->hops = (uint8_t)(r->contexts[ref].hops + 1);
	}
	if (n_own)
		memcpy(r->ctx_frames + r->ctx_frames_n, stack, n_own * sizeof *stack);
	r->ctx_frames_n += n_own;
	r->ctx_state[r->n_contexts] = (struct dglog_ctx_state){
		(uint32_t)bb, r->bbdefs[bb]->n_instrs, r->bbdefs[bb]->n_accesses,
		dgc_next_init(r->n_contexts), NULL };
	v = r->ctx_view;
	v->c = (struct dglog_context){ (uint32_t)bb, depth, v->stack };
	if (depth)
		memcpy(v->stack, stack, depth * sizeof *stack);
	rec->type = DG_R_CONTEXT;       /* a CTXREF reads as a CONTEXT */
	rec->u.def.index = r->n_contexts++;
	rec->u.def.context = &v->c;
	return 1;
}

int dglog_rd_context(struct dglog_cur *c, struct dglog_record *rec)
{
	struct dglog *r = c->r;
	uint64_t bb;
	uint8_t depth;
	const uint64_t *stack;

	if (cur_word(c, &bb, "bbdef_index") < 0 || cur_u8(c, &depth, "depth") < 0)
		return -1;
	if (bb >= r->n_bbdefs)
		return dglog_fail(r, "refers to bbdef %llu, only %llu defined",
				  (unsigned long long)bb, (unsigned long long)r->n_bbdefs);
	if (cur_words(c, depth, &stack, "stack") < 0)
		return -1;
	return add_context(r, rec, bb, depth, stack, depth, 0);
}

/* CTXREF: stack[0] and the new frames as deltas, then keep frames of the
   reference context's stack from its stack[1]. */
int dglog_rd_ctxref(struct dglog_cur *c, struct dglog_record *rec)
{
	struct dglog *r = c->r;
	const struct dglog_ctx_store *ref = NULL;
	uint64_t bb, back, keep, z, stack[256], refi = 0;
	uint8_t n_new;
	unsigned i;

	if (cur_uleb(c, &bb, "bbdef_index") < 0 || cur_uleb(c, &back, "back") < 0
	    || cur_uleb(c, &keep, "keep") < 0 || cur_u8(c, &n_new, "n_new") < 0)
		return -1;
	if (back > r->n_contexts)
		return dglog_fail(r, "refers back %llu contexts, only %llu defined",
				  (unsigned long long)back,
				  (unsigned long long)r->n_contexts);
	if (back)
		ref = &r->contexts[refi = r->n_contexts - back];
	if (keep > (ref && ref->depth ? ref->depth - 1u : 0) || 1 + n_new + keep > 255)
		return dglog_fail(r, "keeps %llu frames of a reference with %u and adds %u: "
				  "more than the reference has or than 255",
				  (unsigned long long)keep, ref ? ref->depth : 0, n_new);
	for (i = 0; i <= n_new; i++) {
		if (cur_sleb(c, &z, "frame") < 0)
			return -1;
		stack[i] = (i ? stack[i - 1] : ref && ref->depth ? dglog_ctx_frame(r, refi, 0) : 0) + z;
		stack[i] &= dgc_mask(8 * r->word_size);
	}
	for (i = 0; i < keep; i++)
		stack[1 + n_new + i] = dglog_ctx_frame(r, refi, 1 + i);
	return add_context(r, rec, bb, 1 + n_new + (unsigned)keep, stack, 1u + n_new, refi);
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
			return dglog_fail(r, "out of memory");
		r->hstacks[0] = (struct dglog_hstack){ 0, 0, 0, 0 };
		r->n_hstacks = 1;
	}
	if (dg_grow(&r->hstacks, &r->hstacks_cap, r->n_hstacks + 1,
		    sizeof *r->hstacks) < 0)
		return dglog_fail(r, "out of memory");
	return 0;
}

/* New stacks: n_new frames (innermost first, as deltas from the parent's
   innermost frame, then each from the one before) on top of an earlier
   stack.  Each frame makes a stack, the outermost first; *s is the last,
   the whole stack. */
static int hstack_define(struct dglog_cur *c, uint64_t *s)
{
	struct dglog *r = c->r;
	uint64_t parent, n_new, d, i;
	uint32_t depth;

	if (cur_uleb(c, &parent, "parent") < 0 || cur_uleb(c, &n_new, "n_new") < 0)
		return -1;
	if (parent >= r->n_hstacks)
		return dglog_fail(r, "a new heap stack on heap stack %llu, only %llu defined",
				  (unsigned long long)parent, (unsigned long long)r->n_hstacks);
	depth = r->hstacks[parent].depth;
	if (n_new == 0 || n_new > DG_HEAP_MAX_DEPTH - depth)
		return dglog_fail(r, "%llu new frames on a heap stack of %u: at least 1, at most %d in all",
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
static int heap_stack(struct dglog_cur *c, uint64_t *s)
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
		return dglog_fail(r, "refers to heap stack %llu, only %llu defined",
				  (unsigned long long)*s,
				  (unsigned long long)r->n_hstacks);
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
int dglog_rd_heap(struct dglog_cur *c, struct dglog_record *rec)
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
