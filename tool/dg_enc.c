/* dg_enc.c: raw run buffer and encoder.  See dg_enc.h. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "dg_format.h"
#include "dg_enc.h"
#include "dg_defs.h"
#include "dg_stack.h"
#include "dg_out.h"
#include "dg_pairmap.h"
#include "dg_wr.h"

#define RAW_SIZE        (1u << 16)   /* small: the encoder reads it from cache
					(1 MiB measured 7 % slower) */
#if DG_RAW_ENTRY_MAX > RAW_SIZE / 2
#error "a block's raw entry must fit in the raw buffer"
#endif
#define BATCH_MAX       (64u << 10)  /* close a BBRUNS record past this:
					dg_out hands over half buffers */
#define MAX_CTX_DEPTH   255      /* CONTEXT depth is a byte */

Addr dg_raw_ptr;
Addr dg_raw_limit_base;
static UChar *raw_base;

/* A context: a bbdef reached with a call stack (a dg_stack node).  Its
   prediction state is the writer's (dg_wr.c). */
struct context { UInt bbdef, node; };

static struct context *ctxs;
static UInt n_ctxs, cap_ctxs;
static struct dg_pairmap ctx_map;
static UInt max_depth;

static struct {
	ULong icount;         /* guest instructions executed, exact */
	ULong reader_icount;  /* what a reader of the log has counted */
	ULong runs, accesses, dropped;
	Bool  use_window;     /* --trace-icount given */
	struct dg_enc_options o;
	Bool  client_on;      /* DATAGRIND_START/STOP_TRACING */
	Bool  in_window;
	Bool  tracing;        /* effective: all conditions hold */
	Bool  use_fn;         /* --trace-fn given */
	Bool  batch_open;
	ThreadId tid;
} E;

/* ------------------------------------------------------------ batches */

static void batch_close(void)
{
	if (E.batch_open)
		dg_out_end_or_drop_empty();
	E.batch_open = False;
}

static void batch_open(void)
{
	dg_out_begin_long(DG_R_RAWRUNS);   /* the writer makes it a BBRUNS */
	E.batch_open = True;
}

static void icount_sync(void)
{
	if (E.reader_icount == E.icount)
		return;
	dg_out_begin_short(DG_R_ICOUNT);
	dg_out_u64(E.icount);
	dg_out_end();
	E.reader_icount = E.icount;
}

/* ------------------------------------------------------------ tracing state */

static void tracing_update(UChar reason)
{
	Bool on = E.client_on && E.in_window && (!E.use_fn || dg_stack_in_fn());

	if (on == E.tracing)
		return;
	batch_close();
	icount_sync();
	E.tracing = on;
	dg_out_begin_short(DG_R_TRACE_STATE);
	dg_out_u8(on);
	dg_out_u8(reason);
	dg_out_end();
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
   returns the new info word (0 if unchanged). */
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

static void context_write(UInt c)
{
	Addr frames[MAX_CTX_DEPTH];
	const struct context *x = &ctxs[c];
	UInt i, n;

	frames[0] = dg_bbdefs[x->bbdef].instrs[0].addr;
	tl_assert(dg_bbdefs[x->bbdef].file_index != DG_DEFS_UNWRITTEN);
	n = 1 + dg_stack_frames(x->node, frames + 1, max_depth - 1);
	if (sizeof(Addr) * (n + 1) + 1 < 255)
		dg_out_begin_short(DG_R_CONTEXT);
	else
		dg_out_begin_long(DG_R_CONTEXT);
	dg_out_word(dg_bbdefs[x->bbdef].file_index);
	dg_out_u8((UChar)n);
	for (i = 0; i < n; i++)
		dg_out_word(frames[i]);
	dg_out_end();
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

static inline UInt context_of(UInt id, struct dg_bbdef *bb)
{
	UInt node = dg_stack_cur_node, c;

	if (bb->cache_node == node)
		return bb->cache_ctx;
	c = dg_pairmap_get(&ctx_map, id, node);
	if (c == DG_PAIRMAP_NONE)
		c = context_new(id, node);
	bb->cache_node = node;
	bb->cache_ctx = c;
	return c;
}

/* ------------------------------------------------------------ runs */

/* Append the run to the open RAWRUNS record (dg_wr.h has its layout). */
static void run_emit(UInt id, struct dg_bbdef *bb, UInt info,
                     UInt n_instrs, const ULong *addrs, UInt n_addrs)
{
	UInt c = context_of(id, bb), i;
	SizeT n = DG_RAWRUN_HEAD + 8 * (SizeT)n_addrs;
	UInt *h;
	ULong *a;

	if (E.batch_open && dg_out_open_len() > BATCH_MAX)
		batch_close();
	if (!E.batch_open) {
		icount_sync();
		batch_open();
	}
	if (!dg_out_has_room(n))
		dg_out_reserve(n);
	h = (UInt *)dg_out_cursor();
	h[0] = c;
	h[1] = info;
	a = (ULong *)(h + 2);
	for (i = 0; i < n_addrs; i++)     /* mostly 0 to 2: no call */
		a[i] = addrs[i];
	dg_out_advance((UChar *)(a + n_addrs));
	E.reader_icount += n_instrs;
	E.runs++;
	E.accesses += n_addrs;
}

/* Decode one raw entry at p, emit it if tracing, replay its call or
   return; returns the next entry. */
static const UChar *run_process(const UChar *p)
{
	UInt id = *(const UInt *)p, info = *(const UInt *)(p + 4);
	struct dg_bbdef *bb = &dg_bbdefs[id];
	const ULong *addrs = (const ULong *)(p + DG_RAW_ADDRS);
	UInt n_instrs = bb->n_instrs, n_addrs = bb->n_acc;

	if (info) {
		n_instrs = info & 0xFF;
		n_addrs = (info >> 8) & 0x7FFFFF;
	}
	if (dg_stack_entry(*(const ULong *)(p + 8)) && E.use_fn)
		tracing_update(DG_TRACE_FN);
	if (bb->fn_entry && !dg_stack_in_fn()) {
		dg_stack_fn_enter();
		tracing_update(DG_TRACE_FN);
	}
	if (E.use_window)
		window_check(n_instrs);
	if (E.tracing) {
		UInt ni = n_instrs, na = n_addrs;
		UInt inf = E.use_window ? run_clip(bb, info, &ni, &na) : info;
		run_emit(id, bb, inf, ni, addrs, na);
	} else {
		E.dropped++;
	}
	E.icount += n_instrs;
	if (info) {
		if (bb->sets_sp)
			dg_stack_sp_set();
		return (const UChar *)(addrs + n_addrs);
	}
	/* Returns need nothing here: the next block's entry pops. */
	if (bb->exit_kind == DG_EXIT_CALL)
		dg_stack_call(bb->instrs[bb->n_instrs - 1].addr, addrs[n_addrs],
		              addrs[n_addrs + 1], &bb->call_memo);
	if (bb->sets_sp)
		dg_stack_sp_set();
	return (const UChar *)(addrs + n_addrs + bb->n_extra);
}

static void raw_encode(void)
{
	const UChar *p = raw_base, *end = (const UChar *)dg_raw_ptr;

	if (dg_out_error()) {      /* the log is lost: stop spending on it */
		dg_raw_ptr = (Addr)raw_base;
		return;
	}
	while (p < end)
		p = run_process(p);
	tl_assert(p == end);
	dg_raw_ptr = (Addr)raw_base;
	batch_close();        /* nobody else writes while a batch is open */
}

VG_REGPARM(0) void dg_enc_raw_overflow(void)
{
	raw_encode();
}

void dg_enc_side_begin(void)
{
	raw_encode();
	icount_sync();
}

/* ------------------------------------------------------------ events */

void dg_enc_thread(ThreadId tid)
{
	if (tid == E.tid)
		return;
	dg_enc_side_begin();
	E.tid = tid;
	dg_out_begin_short(DG_R_THREAD);
	dg_out_u32(tid);
	dg_out_end();
	dg_stack_switch(tid);
	if (E.use_fn)
		tracing_update(DG_TRACE_FN);
}

/* Valgrind reuses the ids of exited threads: a new thread starts with an
   empty shadow stack, after the runs of whatever used the id before. */
void dg_enc_thread_created(ThreadId child)
{
	raw_encode();
	dg_stack_thread_reset(child);
}

void dg_enc_signal(ThreadId tid, Bool enter, Addr sp, Bool alt)
{
	raw_encode();
	if (enter)
		dg_stack_signal_enter(tid, sp, alt);
	else
		dg_stack_signal_exit(tid);
	if (E.use_fn)
		tracing_update(DG_TRACE_FN);
}

void dg_enc_client_tracing(Bool on)
{
	raw_encode();
	E.client_on = on;
	tracing_update(DG_TRACE_REQUEST);
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
	raw_base = VG_(malloc)("dg.enc.raw", RAW_SIZE);
	dg_raw_ptr = (Addr)raw_base;
	dg_raw_limit_base = (Addr)raw_base + RAW_SIZE;
}

/* Called once the log has its preamble, so that a TRACE_STATE for a
   window starting later lands after the header records. */
void dg_enc_start(Bool use_fn)
{
	E.use_fn = use_fn;
	dg_out_begin_short(DG_R_THREAD);
	dg_out_u32(1);
	dg_out_end();
	E.use_window = E.o.icount_from > 0 || E.o.icount_to != ~0ULL;
	E.in_window = !E.use_window || E.o.icount_from == 0;
	tracing_update(DG_TRACE_START);
}

void dg_enc_fini(UChar end, UInt status)
{
	dg_enc_side_begin();
	dg_out_begin_short(DG_R_FINI);
	dg_out_u64(E.icount);
	dg_out_u64(E.runs);
	dg_out_u64(E.accesses);
	dg_out_u64(dg_out_records());
	dg_out_u64(E.dropped);
	dg_out_u8(end);
	dg_out_u32(status);
	dg_out_end();
}

void dg_enc_replay(void)
{
	UInt c;

	for (c = 0; c < n_ctxs; c++)
		context_write(c);
	E.runs = E.accesses = E.dropped = 0;
	E.reader_icount = 0;   /* the child's reader starts from zero */
	dg_out_begin_short(DG_R_THREAD);
	dg_out_u32(E.tid);
	dg_out_end();
	E.tracing = True;
	tracing_update(DG_TRACE_START);
}

ULong dg_enc_icount(void)   { return E.icount; }
ULong dg_enc_accesses(void) { return E.accesses; }
