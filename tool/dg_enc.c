/* dg_enc.c: the encoder.  See dg_enc.h. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "dg_format.h"
#include "dg_enc.h"
#include "dg_blob.h"
#include "dg_defs.h"
#include "dg_stack.h"
#include "dg_recs.h"
#include "dg_pairmap.h"
#include "dg_hand.h"
#include "dg_heaplog.h"
#include "dg_wr.h"

#define BATCH_RUNS      16384    /* runs in a BBRUNS record, at most */
#define MAX_CTX_DEPTH   255      /* CONTEXT depth is a byte */
#define MAX_PRELOAD     8

/* A context: a bbdef reached with a call stack (a dg_stack node).  Its
   prediction state is the writer's (dg_wr.c). */
struct context { UInt bbdef, node; };

static struct context *ctxs;
static UInt n_ctxs, cap_ctxs;
static struct dg_pairmap ctx_map;
static struct dg_pairmap ctx_of_node;  /* (node, 0) -> last context written */
static struct dg_pairmap heap_nodes;   /* (addr, table) -> allocation node */
static UInt max_depth;
static struct { Addr start, end; } preload[MAX_PRELOAD];
static UInt n_preload;

static struct {
	ULong icount;         /* guest instructions executed, exact */
	ULong reader_icount;  /* what a reader of the log has counted */
	ULong runs, accesses, dropped;
	ULong map_lookups;    /* contexts looked up past both caches */
	Bool  ahead;          /* raw_fast: the look-ahead loop */
	UInt  choose_runs, choose_map;   /* raw_fast: runs and map lookups
	                                    since it last chose */
	Bool  use_window;     /* --trace-icount given */
	struct dg_enc_options o;
	Bool  client_on;      /* DATAGRIND_START/STOP_TRACING */
	Bool  in_window;
	Bool  tracing;        /* effective: all conditions hold */
	Bool  batch_open;
	UInt  batch_runs;     /* in the open batch */
	ThreadId tid;
	Addr  sp;             /* SP at the next run's entry (dg_recs.h) */
	UInt  heap_node;      /* the node of the last STACK of kind HEAP */
	UInt  heap_prefix[DG_STACK_MAX_FRAMES + 1];   /* its outermost k frames' */
	UInt  heap_depth;     /* its frames */
} E;

/* ------------------------------------------------------------ batches */

static void batch_close(void)
{
	if (E.batch_open)
		dg_wr_runs_end();
	E.batch_open = False;
}

static void icount_sync(void)
{
	if (E.reader_icount == E.icount)
		return;
	dg_wr_begin_short(DG_R_ICOUNT);
	dg_wr_u64(E.icount);
	dg_wr_end();
	E.reader_icount = E.icount;
}

/* Before any record that is not a run: the runs before it, then the
   instruction count a reader needs there. */
static void side_begin(void)
{
	batch_close();
	icount_sync();
}

/* ------------------------------------------------------------ tracing state */

static void tracing_update(UChar reason)
{
	Bool on = E.client_on && E.in_window && (!E.o.use_fn || dg_stack_in_fn());

	if (on == E.tracing)
		return;
	side_begin();
	E.tracing = on;
	dg_wr_begin_short(DG_R_TRACE_STATE);
	dg_wr_u8(on);
	dg_wr_u8(reason);
	dg_wr_end();
}

/* A run is in the --trace-icount window [from, to) if any of its
   instructions is; run_clip cuts off the part past `to`. */
static void window_check(UInt n_instrs)
{
	Bool in = E.icount < E.o.icount_to && E.icount + n_instrs > E.o.icount_from;

	if (in != E.in_window) {
		E.in_window = in;
		tracing_update(DG_TRACE_ICOUNT);
	}
}

/* Shorten a run that crosses the window's end to the instructions inside;
   returns the new info word (info if unchanged). */
static UInt run_clip(const struct dg_bbdef *bb, UInt info, UInt *n_instrs,
                     UInt *n_addrs)
{
	ULong keep = E.o.icount_to - E.icount;
	UInt k = 0;

	if (E.icount + *n_instrs <= E.o.icount_to)
		return info;
	while (k < *n_addrs && bb->acc[k].iseq < keep)
		k++;
	*n_instrs = (UInt)keep;
	*n_addrs = k;
	return 1u << 31 | (UInt)keep | k << 8;
}

/* ------------------------------------------------------------ contexts */

/* A context's stack: the block's first instruction, then the call sites
   of its node, innermost first; returns the depth. */
static UInt context_frames(UInt c, Addr *frames)
{
	const struct context *x = &ctxs[c];

	frames[0] = dg_bbdefs[x->bbdef].instrs[0].addr;
	return 1 + dg_stack_frames(x->node, frames + 1, max_depth - 1);
}

/* How many of f[1..n)'s frames, from the innermost, come before the part
   that ref's stack r[1..m) starts with (the rest, *keep of them, is taken
   from the ref).  A context with the ref's node takes all its frames. */
static UInt frames_new(const Addr *f, UInt n, const Addr *r, UInt m, UInt *keep)
{
	UInt k, i;

	for (k = 0; k + 1 < n; k++) {
		UInt len = n - 1 - k;
		if (len > m - 1)
			continue;
		for (i = 0; i < len && f[1 + k + i] == r[1 + i]; i++)
			;
		if (i == len) {
			*keep = len;
			return k;
		}
	}
	*keep = 0;
	return n - 1;
}

static void context_write_full(UInt c, const Addr *frames, UInt n)
{
	UInt i;

	if (sizeof(Addr) * (n + 1) + 1 < 255)
		dg_wr_begin_short(DG_R_CONTEXT);
	else
		dg_wr_begin_long(DG_R_CONTEXT);
	dg_wr_u64(dg_bbdefs[ctxs[c].bbdef].file_index);
	dg_wr_u8((UChar)n);
	for (i = 0; i < n; i++)
		dg_wr_u64(frames[i]);
	dg_wr_end();
}

/* CTXREF (docs/FORMAT.md 2.18): the stack by reference to the last
   context written with the same node, else to the one written before. */
static void context_write(UInt c)
{
	Addr frames[MAX_CTX_DEPTH], rf[MAX_CTX_DEPTH];
	const struct context *x = &ctxs[c];
	UInt n, m, ref, keep, k, i;

	tl_assert(dg_bbdefs[x->bbdef].file_index != DG_DEFS_UNWRITTEN);
	n = context_frames(c, frames);
	if (!E.o.compact || c == 0) {
		context_write_full(c, frames, n);
		dg_pairmap_set(&ctx_of_node, x->node, 0, c);
		return;
	}
	ref = dg_pairmap_get(&ctx_of_node, x->node, 0);
	if (ref == DG_PAIRMAP_NONE || ref >= c)
		ref = c - 1;
	m = context_frames(ref, rf);
	k = frames_new(frames, n, rf, m, &keep);
	if (3 * DGC_LEB_MAX + 1 + DGC_LEB_MAX * (k + 1) < 255)
		dg_wr_begin_short(DG_R_CTXREF);
	else
		dg_wr_begin_long(DG_R_CTXREF);
	dg_wr_uleb(dg_bbdefs[x->bbdef].file_index);
	dg_wr_uleb(c - ref);
	dg_wr_uleb(keep);
	dg_wr_u8((UChar)k);
	for (i = 0; i <= k; i++)
		dg_wr_uleb(dgc_zigzag(frames[i] - (i ? frames[i - 1] : rf[0]), 64));
	dg_wr_end();
	dg_pairmap_set(&ctx_of_node, x->node, 0, c);
}

static UInt context_new(UInt bbdef, UInt node)
{
	if (n_ctxs == cap_ctxs) {
		cap_ctxs = cap_ctxs ? 2 * cap_ctxs : 4096;
		ctxs = VG_(realloc)("dg.enc.ctxs", ctxs, cap_ctxs * sizeof *ctxs);
	}
	ctxs[n_ctxs].bbdef = bbdef;
	ctxs[n_ctxs].node = node;
	dg_pairmap_put(&ctx_map, bbdef, node, n_ctxs);
	batch_close();          /* definitions go before the runs using them */
	dg_defs_emit(bbdef);
	context_write(n_ctxs);
	return n_ctxs++;
}

/* Past each bbdef's own one-context cache: a direct-mapped cache of
   (bbdef, node) -> context in front of ctx_map.  A block run under many
   call stacks (a helper called from everywhere, the malloc wrappers)
   misses its own cache on a third of the runs of sqlite inserting row
   by row (85 M of 246 M); the map's random probes over megabytes then
   cost a tenth of the helper's time.  Its slots are prefetched with
   the map's (raw_fast), so it need not stay in the L2 cache: at 2^18
   slots (3 MB) it takes 245 M of cc1's 344 M lookups past the bbdefs'
   caches (200 M at 2^15), and the helper's CPU on cc1 went from
   50.4-65.6 s to 47.5-59.1 s (sqlrows: the same, 9.05-9.36 s).
   Contexts are never removed, so an entry stays true. */
#define CTX_CACHE_BITS  18
static struct ctx_slot { UInt bbdef, node, ctx; } ctx_cache[1u << CTX_CACHE_BITS];

static void ctx_cache_clear(void)
{
	UInt i;

	for (i = 0; i < (1u << CTX_CACHE_BITS); i++)
		ctx_cache[i].node = DG_PAIRMAP_NONE;
}

static inline struct ctx_slot *ctx_cache_slot(UInt id, UInt node)
{
	return &ctx_cache[(id * 0x9E3779B1u ^ node * 0x85EBCA77u)
	                  >> (32 - CTX_CACHE_BITS)];
}

/* The context of bbdef id run under node. */
static inline UInt context_of(UInt id, struct dg_bbdef *bb, UInt node)
{
	struct ctx_slot *s = ctx_cache_slot(id, node);
	UInt c;

	if (bb->cache_node == node)
		return bb->cache_ctx;
	if (s->bbdef == id && s->node == node) {
		c = s->ctx;
	} else {
		E.map_lookups++;
		c = dg_pairmap_get(&ctx_map, id, node);
		if (c == DG_PAIRMAP_NONE)
			c = context_new(id, node);
		s->bbdef = id;
		s->node = node;
		s->ctx = c;
	}
	bb->cache_node = node;
	bb->cache_ctx = c;
	return c;
}

/* context_of's lookup is coming: start loading what it will read past
   the bbdef's own cache, without waiting for either. */
static inline void context_prefetch(UInt id, const struct dg_bbdef *bb, UInt node)
{
	if (bb->cache_node == node)
		return;
	dg_prefetch(ctx_cache_slot(id, node));
	dg_pairmap_prefetch(&ctx_map, id, node);
}

/* ------------------------------------------------------------ runs */

/* Before a run when no batch is open or the open one is full. */
static void batch_roll(void)
{
	if (E.batch_open && ++E.batch_runs > BATCH_RUNS)
		batch_close();
	if (!E.batch_open) {
		E.batch_runs = 0;
		icount_sync();
		dg_wr_runs_begin();
		E.batch_open = True;
	}
}

/* Inline in both loops below: a call per run is measurable.  k is the
   writer's state, kept by the caller (dg_wr.h); what may write records
   (a new context, a batch's end) has it put back first. */
static inline __attribute__((always_inline))
void run_emit(struct dg_wr_cur *k, UInt id, struct dg_bbdef *bb, UInt node,
              UInt info, UInt n_instrs, const ULong *addrs, UInt n_addrs)
{
	UInt c = bb->cache_ctx;

	if (__builtin_expect(bb->cache_node != node
	                     || !E.batch_open || E.batch_runs >= BATCH_RUNS, 0)) {
		dg_wr_cur_put(k);
		c = context_of(id, bb, node);
		batch_roll();
		dg_wr_cur_get(k);
	} else {
		E.batch_runs++;
	}
	dg_wr_run_cur(k, c, info, addrs, n_addrs);
	E.reader_icount += n_instrs;
	E.runs++;
	E.accesses += n_addrs;
}

/* After a run: replay its call, note an SP set anew. */
static inline __attribute__((always_inline))
void run_after(struct dg_bbdef *bb, UInt info, const ULong *addrs,
               UInt n_addrs)
{
	/* Returns need nothing here: the next block's entry pops. */
	if (!info && bb->exit_kind == DG_EXIT_CALL)
		dg_stack_call(&bb->instrs[bb->n_instrs - 1].addr, addrs[n_addrs],
		              addrs[n_addrs + 1], &bb->call_memo);
	if (bb->sets_sp)
		dg_stack_sp_set();
}

/* The entry after the one at p: every entry has its bbdef's full size. */
static inline __attribute__((always_inline))
const UChar *raw_next(const UChar *p, const struct dg_bbdef *bb)
{
	return p + bb->raw_size;
}

/* The head of the raw entry at p: its bbdef id and info word, and the
   instructions and addresses it holds (the bbdef's, unless info says the
   run left its block early).  Inline: both loops below are hot. */
static inline __attribute__((always_inline))
struct dg_bbdef *raw_head(const UChar *p, UInt *id, UInt *info,
			  UInt *n_instrs, UInt *n_addrs)
{
	struct dg_bbdef *bb;
	ULong head = *(const ULong *)p;

	*id = (UInt)head & DG_RAW_ID_MASK;
	*info = (UInt)(head >> 32);
	bb = &dg_bbdefs[*id];
	*n_instrs = bb->n_instrs;
	*n_addrs = bb->n_acc;
	if (*info) {
		*n_instrs = dgc_info_instrs(*info);
		*n_addrs = dgc_info_addrs(*info);
	}
	return bb;
}

/* Decode one raw entry at p, emit it if tracing, replay its call or
   return; returns the next entry. */
static const UChar *run_process(const UChar *p)
{
	UInt id, info, n_instrs, n_addrs;
	struct dg_bbdef *bb = raw_head(p, &id, &info, &n_instrs, &n_addrs);
	const ULong *addrs = (const ULong *)(p + bb->addr_off);

	if (info == DG_RAW_UNFINISHED)
		return raw_next(p, bb);
	if (dg_stack_entry(E.sp) && E.o.use_fn)
		tracing_update(DG_TRACE_FN);
	if (bb->fn_entry && !dg_stack_in_fn()) {
		dg_stack_fn_enter();
		tracing_update(DG_TRACE_FN);
	}
	if (bb->lean) {         /* the call stacks only: DG_CTL_COUNTS counts */
		tl_assert(!E.tracing);
		run_after(bb, info, addrs, n_addrs);
		if (bb->writes_sp)
			E.sp = *(const ULong *)(p + 8);
		return raw_next(p, bb);
	}
	if (E.use_window)
		window_check(n_instrs);
	if (E.tracing) {
		UInt ni = n_instrs, na = n_addrs;
		UInt inf = E.use_window ? run_clip(bb, info, &ni, &na) : info;
		struct dg_wr_cur k;
		dg_wr_cur_get(&k);
		run_emit(&k, id, bb, dg_stack_cur_node, inf, ni, addrs, na);
		dg_wr_cur_put(&k);
	} else {
		E.dropped++;
	}
	E.icount += n_instrs;
	run_after(bb, info, addrs, n_addrs);
	if (bb->writes_sp)
		E.sp = *(const ULong *)(p + 8);
	return raw_next(p, bb);
}

/* The common case, apart from run_process: tracing on, no --trace-icount
   window and no --trace-fn.  Only a CTL record or those options change
   the tracing state, so it holds for a whole RAW record, and the per-run
   tests of the rare cases are left out (bb->fn_entry is never set without
   --trace-fn).  Each entry has the same effect as through run_process
   (t0845 compares the two).

   Two loops do it, each at most `runs` entries at a time.  raw_one takes
   one run after another.  raw_ahead goes LOOKAHEAD runs at a time, in
   two passes: the first replays their calls and returns, which give each
   run its call stack (node), and starts loading the context each will
   look up; the second emits them.  A program with millions of contexts
   (cc1: 4.09 M) goes past both context caches on one run in eight, and
   one at a time those misses were half the encoder's time; there the
   look-ahead saves a tenth of it (real.sh's cc1: 49.0 against 54.0 s).
   Where contexts are few it only costs: each run's head read twice and
   queued (sort -n: 1.92 against 1.38 s).  raw_fast picks the loop by how
   many runs went to the context map in the last RAW_CHOOSE.  The first
   pass writes no record, so the log is the same either way. */
#define LOOKAHEAD   32
#define RAW_CHOOSE  4096     /* runs between choices of the loop */
#define RAW_AHEAD_MAP_SHARE 32   /* ahead when over 1/32 went to the map */

static const UChar *raw_one(const UChar *p, const UChar *end, UInt runs)
{
	Addr sp = E.sp;     /* in a register: the calls below may write E */
	struct dg_wr_cur k;
	UInt id, info, n_instrs, n_addrs;

	dg_wr_cur_get(&k);
	for (; p < end && runs > 0; runs--) {
		struct dg_bbdef *bb = raw_head(p, &id, &info, &n_instrs, &n_addrs);
		if (__builtin_expect(info != DG_RAW_UNFINISHED, 1)) {
			const ULong *a = (const ULong *)(p + bb->addr_off);
			dg_stack_entry(sp);
			run_emit(&k, id, bb, dg_stack_cur_node, info, n_instrs, a, n_addrs);
			E.icount += n_instrs;
			run_after(bb, info, a, n_addrs);
			if (bb->writes_sp)
				sp = *(const ULong *)(p + 8);
		}
		p = raw_next(p, bb);
	}
	dg_wr_cur_put(&k);
	E.sp = sp;
	return p;
}

static const UChar *raw_ahead(const UChar *p, const UChar *end, UInt runs)
{
	Addr sp = E.sp;
	struct dg_wr_cur k;
	struct { const UChar *p; UInt node; } q[LOOKAHEAD];
	UInt n, i, id, info, n_instrs, n_addrs;

	dg_wr_cur_get(&k);
	while (p < end && runs > 0) {
		for (n = 0; p < end && n < LOOKAHEAD && runs > 0; runs--) {
			struct dg_bbdef *bb = raw_head(p, &id, &info, &n_instrs, &n_addrs);
			if (__builtin_expect(info != DG_RAW_UNFINISHED, 1)) {
				dg_stack_entry(sp);
				q[n].p = p;
				q[n++].node = dg_stack_cur_node;
				context_prefetch(id, bb, dg_stack_cur_node);
				run_after(bb, info, (const ULong *)(p + bb->addr_off), n_addrs);
				if (bb->writes_sp)
					sp = *(const ULong *)(p + 8);
			}
			p = raw_next(p, bb);
		}
		for (i = 0; i < n; i++) {
			struct dg_bbdef *bb = raw_head(q[i].p, &id, &info, &n_instrs, &n_addrs);
			run_emit(&k, id, bb, q[i].node, info, n_instrs,
			         (const ULong *)(q[i].p + bb->addr_off), n_addrs);
			E.icount += n_instrs;
		}
	}
	dg_wr_cur_put(&k);
	E.sp = sp;
	return p;
}

static const UChar *raw_fast(const UChar *p, const UChar *end)
{
	while (p < end) {
		ULong runs = E.runs, looked = E.map_lookups;
		Bool ahead = E.o.loop == DG_ENC_LOOP_AUTO ? E.ahead
		           : E.o.loop == DG_ENC_LOOP_AHEAD;
		UInt left = RAW_CHOOSE - E.choose_runs;
		p = ahead ? raw_ahead(p, end, left) : raw_one(p, end, left);
		/* RAW records are often short (any other record ends one): the
		   choice is made over RAW_CHOOSE runs, however many records */
		E.choose_runs += (UInt)(E.runs - runs);
		E.choose_map += (UInt)(E.map_lookups - looked);
		if (E.choose_runs >= RAW_CHOOSE) {
			E.ahead = (ULong)E.choose_map * RAW_AHEAD_MAP_SHARE > E.choose_runs;
			E.choose_runs = E.choose_map = 0;
		}
	}
	return p;
}

static void raw_process(const UChar *p, const UChar *end)
{
	if (E.tracing && !E.use_window && !E.o.use_fn)
		p = raw_fast(p, end);
	while (p < end)
		p = run_process(p);
	tl_assert(p == end);    /* the tool's own entries */
}

/* ------------------------------------------------------------ heap stacks */

static Bool in_preload(Addr a)
{
	UInt i;

	for (i = 0; i < n_preload; i++)
		if (a >= preload[i].start && a < preload[i].end)
			return True;
	return False;
}

/* A malloc or free with the stack of node, less Valgrind's malloc
   wrappers on top.  A compact record carries the instructions run since
   the reader's count, which an ICOUNT would say otherwise. */
static void heap_write(Bool is_malloc, Addr a, SizeT size, UInt node)
{
	while (node != 0 && in_preload(dg_stack_node_pc(node)))
		node = dg_stack_node_rest(node);
	if (!E.o.compact) {
		side_begin();
		dg_heaplog_write(is_malloc, 0, a, size, node);
		return;
	}
	batch_close();
	dg_heaplog_write(is_malloc, E.icount - E.reader_icount, a, size, node);
	E.reader_icount = E.icount;
}

/* ------------------------------------------------------------ events */

static void ctl_sync(const ULong *a) { side_begin(); }

static void ctl_thread(const ULong *a)
{
	E.sp = a[1];
	if (a[0] == E.tid)
		return;
	side_begin();
	E.tid = (ThreadId)a[0];
	dg_wr_begin_short(DG_R_THREAD);
	dg_wr_u32(E.tid);
	dg_wr_end();
	dg_stack_switch(E.tid);
	if (E.o.use_fn)
		tracing_update(DG_TRACE_FN);
}

/* Valgrind reuses the ids of exited threads: a new thread starts with an
   empty shadow stack, after the runs of whatever used the id before. */
static void ctl_thread_new(const ULong *a)
{
	batch_close();
	dg_stack_thread_reset((ThreadId)a[0]);
}

static void ctl_signal_enter(const ULong *a)
{
	batch_close();
	dg_stack_signal_enter((ThreadId)a[0], a[1], a[2] != 0);
	if (E.o.use_fn)
		tracing_update(DG_TRACE_FN);
}

static void ctl_signal_exit(const ULong *a)
{
	batch_close();
	dg_stack_signal_exit((ThreadId)a[0]);
	if (E.o.use_fn)
		tracing_update(DG_TRACE_FN);
}

static void ctl_tracing(const ULong *a)
{
	batch_close();
	E.client_on = a[0] != 0;
	tracing_update(DG_TRACE_REQUEST);
}

static void ctl_fini(const ULong *a)
{
	struct dg_wr_state *w = dg_wr_state();

	side_begin();
	dg_wr_begin_short(DG_R_FINI);
	dg_wr_u64(E.icount);
	dg_wr_u64(E.runs);
	dg_wr_u64(E.accesses);
	dg_wr_u64(w->records);
	dg_wr_u64(E.dropped);
	dg_wr_u8((UChar)a[0]);
	dg_wr_u32((UInt)a[1]);
	dg_wr_end();
	w->icount = E.icount;
	w->accesses = E.accesses;
}

/* The first THREAD and the initial tracing state, after the preamble,
   so that a TRACE_STATE for a window starting later lands after it. */
static void ctl_start(const ULong *a)
{
	dg_wr_begin_short(DG_R_THREAD);
	dg_wr_u32(1);
	dg_wr_end();
	E.use_window = E.o.icount_from > 0 || E.o.icount_to != ~0ULL;
	E.in_window = !E.use_window || E.o.icount_from == 0;
	tracing_update(DG_TRACE_START);
}

static void enc_dump(struct dg_blob *b);

static void ctl_fork(const ULong *a)
{
	struct dg_blob b = { 0 };

	batch_close();
	if (!dg_hand_in_helper())
		return;            /* the state is the tool's own already */
	enc_dump(&b);
	dg_hand_reply(b.p, b.n);
	VG_(free)(b.p);
}

/* A forked child's log: contexts again, prediction from zero. */
static void ctl_replay(const ULong *a)
{
	UInt c;

	batch_close();
	dg_defs_replay();
	/* refs only to contexts and heap stacks of this log: they start
	   again */
	VG_(free)(ctx_of_node.slots);
	dg_pairmap_init(&ctx_of_node, "dg.enc.ctxnode");
	dg_heaplog_reset();
	for (c = 0; c < n_ctxs; c++)
		context_write(c);
	E.runs = E.accesses = E.dropped = 0;
	E.reader_icount = 0;   /* the child's reader starts from zero */
	dg_wr_begin_short(DG_R_THREAD);
	dg_wr_u32(E.tid);
	dg_wr_end();
	E.tracing = True;
	tracing_update(DG_TRACE_START);
}

static void ctl_preload(const ULong *a)
{
	if (n_preload < MAX_PRELOAD) {
		preload[n_preload].start = a[0];
		preload[n_preload].end = a[1];
		n_preload++;
	}
}

/* The stack of a MALLOC or FREE: the shadow stack's, or the one the
   tool unwound just before (stack_process). */
static UInt heap_node(const ULong *a)
{
	return a[2] & DG_CTL_UNWOUND ? E.heap_node : dg_stack_cur_node;
}

static void ctl_malloc(const ULong *a)
{
	UInt node = heap_node(a);

	dg_pairmap_set(&heap_nodes, a[0], a[2] & ~(ULong)DG_CTL_UNWOUND, node);
	heap_write(True, a[0], a[1], node);
}

static void ctl_free(const ULong *a)
{
	heap_write(False, a[0], 0, heap_node(a));
}

static void ctl_heap_replay(const ULong *a)
{
	UInt node = dg_pairmap_get(&heap_nodes, a[0], a[2]);

	heap_write(True, a[0], a[1], node == DG_PAIRMAP_NONE ? 0 : node);
}

/* Lean code's runs, which made no entries (dg_out.h): all left out. */
static void ctl_counts(const ULong *a)
{
	E.icount += a[0];
	E.dropped += a[1];
}

static void (*const ctl_ops[DG_CTL_N])(const ULong *) = {
	[DG_CTL_SYNC]         = ctl_sync,
	[DG_CTL_START]        = ctl_start,
	[DG_CTL_THREAD]       = ctl_thread,
	[DG_CTL_THREAD_NEW]   = ctl_thread_new,
	[DG_CTL_SIGNAL_ENTER] = ctl_signal_enter,
	[DG_CTL_SIGNAL_EXIT]  = ctl_signal_exit,
	[DG_CTL_TRACING]      = ctl_tracing,
	[DG_CTL_FINI]         = ctl_fini,
	[DG_CTL_FORK]         = ctl_fork,
	[DG_CTL_REPLAY]       = ctl_replay,
	[DG_CTL_PRELOAD]      = ctl_preload,
	[DG_CTL_MALLOC]       = ctl_malloc,
	[DG_CTL_FREE]         = ctl_free,
	[DG_CTL_HEAP_REPLAY]  = ctl_heap_replay,
	[DG_CTL_COUNTS]       = ctl_counts,
};

static void ctl_process(const UChar *p, SizeT len)
{
	ULong a[3];

	tl_assert(len == 25 && p[0] < DG_CTL_N);   /* dg_stream_ctl's */
	VG_(memcpy)(a, p + 1, sizeof a);
	ctl_ops[p[0]](a);
}

/* A STACK record (dg_recs.h): a heap block's stack for the MALLOC or
   FREE that follows, or a thread's shadow stack when tracing starts. */
static void stack_process(const UChar *p, SizeT len)
{
	struct dg_frame_in f[DG_STACK_MAX_FRAMES];
	UInt tid, keep, n;

	tl_assert(len >= 13);
	VG_(memcpy)(&tid, p + 1, 4);
	VG_(memcpy)(&keep, p + 5, 4);
	VG_(memcpy)(&n, p + 9, 4);
	tl_assert(keep <= E.heap_depth && keep + n <= DG_STACK_MAX_FRAMES
	          && len == 13 + n * sizeof *f);
	VG_(memcpy)(f, p + 13, n * sizeof *f);
	if (p[0] == DG_STACK_SEED) {
		dg_stack_seed(tid, f, n);
		return;
	}
	E.heap_node = dg_stack_intern(E.heap_prefix[keep], f, n, E.heap_prefix + keep + 1);
	E.heap_depth = keep + n;
}

/* ------------------------------------------------------------ the stream */

/* The payload length of the record at p, and its header's (*hdr).  The
   tool frames whole records: one running past end is our bug. */
static SizeT rec_len(const UChar *p, const UChar *end, SizeT *hdr)
{
	SizeT len = 0;
	ULong l;

	*hdr = 1;
	if (p[0] < DG_R_SHORT_FIRST) {
		*hdr = 2;
		len = p[1];
		if (len == DG_LONG_LENGTH) {
			VG_(memcpy)(&l, p + 2, 8);
			len = l;
			*hdr = 10;
		}
	}
	tl_assert(*hdr + len <= (SizeT)(end - p));
	return len;
}

/* One record at p; returns its length. */
static SizeT record_process(const UChar *p, const UChar *end)
{
	SizeT hdr, len = rec_len(p, end, &hdr);

	switch (p[0]) {
	case DG_S_RAW:
		raw_process(p + hdr, p + hdr + len);
		break;
	case DG_S_DEF:
		tl_assert(dg_defs_learn(p + hdr, p + hdr + len));
		break;
	case DG_S_CTL:
		ctl_process(p + hdr, len);
		break;
	case DG_S_STACK:
		stack_process(p + hdr, len);
		break;
	case DG_S_PAD:
		break;
	case DG_R_HEADER:
		/* a forked child's log begins: no ICOUNT before it, nor
		   before its PROCESS and MMAPs; its count starts at the
		   REPLAY (ctl_replay) */
		batch_close();
		E.reader_icount = E.icount;
		dg_wr_copy(p, hdr + len);
		break;
	default:
		side_begin();
		dg_wr_copy(p, hdr + len);
	}
	return hdr + len;
}

static SizeT fork_only(const UChar *p, const UChar *end)
{
	SizeT hdr, len = rec_len(p, end, &hdr);

	if (p[0] == DG_S_CTL && len == 25 && p[hdr] == DG_CTL_FORK)
		ctl_fork(NULL);
	return hdr + len;
}

void dg_enc_consume(const UChar *buf, SizeT n)
{
	const UChar *p = buf, *end = buf + n;

	while (p < end && !dg_wr_state()->err)
		p += record_process(p, end);
	while (p < end)            /* the log is lost: answer a fork only */
		p += fork_only(p, end);
	batch_close();
	dg_wr_flush_maybe();
}

void dg_enc_init(const struct dg_enc_options *o)
{
	E.o = *o;
	E.client_on = o->trace_at_start;
	E.tracing = True;       /* what a reader assumes at the start */
	E.tid = 1;
	max_depth = VG_(clo_backtrace_size) > 0 ? VG_(clo_backtrace_size) : 1;
	if (max_depth > MAX_CTX_DEPTH)
		max_depth = MAX_CTX_DEPTH;
	dg_stack_init(max_depth);
	dg_pairmap_init(&ctx_map, "dg.enc.ctxmap");
	ctx_cache_clear();
	dg_pairmap_init(&ctx_of_node, "dg.enc.ctxnode");
	dg_pairmap_init(&heap_nodes, "dg.enc.heap");
	dg_heaplog_init(o->compact);
}

/* ------------------------------------------------------------ fork state */

static void enc_dump(struct dg_blob *b)
{
	UInt n;
	const UInt *w = dg_defs_written(&n);

	dg_blob_put(b, &E, sizeof E);
	dg_blob_put(b, &max_depth, sizeof max_depth);
	dg_blob_put(b, preload, sizeof preload);
	dg_blob_put(b, &n_preload, sizeof n_preload);
	dg_blob_put_array(b, ctxs, n_ctxs, sizeof *ctxs);
	dg_pairmap_dump(&ctx_map, b);
	dg_pairmap_dump(&heap_nodes, b);
	dg_blob_put_array(b, w, n, sizeof *w);
	dg_stack_dump(b);
}

void dg_enc_restore(struct dg_blob *b)
{
	UInt *w = NULL, n;

	VG_(memcpy)(&E, dg_blob_get(b, sizeof E), sizeof E);
	VG_(memcpy)(&max_depth, dg_blob_get(b, sizeof max_depth), sizeof max_depth);
	VG_(memcpy)(preload, dg_blob_get(b, sizeof preload), sizeof preload);
	VG_(memcpy)(&n_preload, dg_blob_get(b, sizeof n_preload), sizeof n_preload);
	n_ctxs = cap_ctxs = dg_blob_get_array(b, (void **)&ctxs, sizeof *ctxs,
	                                      "dg.enc.ctxs");
	dg_pairmap_restore(&ctx_map, b);
	ctx_cache_clear();
	dg_pairmap_restore(&heap_nodes, b);
	n = dg_blob_get_array(b, (void **)&w, sizeof *w, "dg.enc.written");
	dg_defs_restore(w, n);
	VG_(free)(w);
	dg_stack_restore(b);
	tl_assert(b->at == b->n);
}
