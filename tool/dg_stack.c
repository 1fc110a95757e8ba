/* dg_stack.c: shadow call stacks and calling-context nodes.  See dg_stack.h. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "dg_stack.h"
#include "dg_pairmap.h"
#include "dg_blob.h"
#include "dg_recs.h"

/* A node is (pc, rest): the call site pc on top of the stack `rest`.
   `shorter` is the same stack without its outermost frame, found lazily;
   it is how a push at full depth drops the outermost frame. */
struct node { Addr pc, fn; UInt rest; UInt shorter; UInt depth; };

#define NO_NODE     0xFFFFFFFFu

/* SLACK is how far above its highest frameless SP a stack may go (a
   makecontext function returning into __start_context goes 8 up). */
#define SLACK         512
#define MARKER_ALT    (~(Addr)0)   /* alt-stack marker, sp not known yet */
#define MAX_STACKS    1024

struct frame { Addr sp; UInt node; Bool marker; };

/* One shadow stack per stack the program runs on: each thread's, each
   coroutine's (makecontext, or stacks switched by hand).  A stack is
   current in at most one thread. */
struct shadow {
	struct frame *f;
	UInt n, cap;
	UInt fn_base;          /* depth+1 at --trace-fn entry; 0 = outside */
	Addr hi;               /* highest SP seen with no frame; 0 = none yet */
	Addr last_sp;          /* entry SP of its last block before a switch */
	ULong used;            /* when it was last switched to (for reuse) */
	Bool sp_set;           /* its last block set SP anew (while suspended) */
	Bool current;          /* some thread runs on it */
};

UInt dg_stack_cur_node;
Addr dg_stack_ref_sp;
Addr dg_stack_prev_sp;             /* entry SP of the previous block */

static struct node *nodes;
static UInt n_nodes, cap_nodes;
static struct dg_pairmap node_map;
static UInt max_depth;
static struct shadow *shadows;     /* the pool; never shrinks */
static UInt n_shadows;
static ULong switches;
static UInt *thread_shadow;        /* per thread id: index in shadows */
static UInt n_threads;
static struct shadow *cur;
static ThreadId cur_tid;
static Bool sp_set;                /* the previous block set SP anew */
#define prev_sp dg_stack_prev_sp

static UInt node_new(Addr pc, Addr fn, UInt rest, UInt depth)
{
	if (n_nodes == cap_nodes) {
		cap_nodes = cap_nodes ? 2 * cap_nodes : 4096;
		nodes = VG_(realloc)("dg.stack.nodes", nodes, cap_nodes * sizeof *nodes);
	}
	nodes[n_nodes].pc = pc;
	nodes[n_nodes].fn = fn;
	nodes[n_nodes].rest = rest;
	nodes[n_nodes].shorter = NO_NODE;
	nodes[n_nodes].depth = depth;
	return n_nodes++;
}

/* A node is keyed by its call site, the callee and the rest of the stack:
   an indirect call site reaching several functions makes several nodes, so
   that recursion folding sees the right function.  The callee goes in the
   top half of the first key word as a hash (rest fills the bottom half). */
static UInt node_intern(Addr pc, Addr fn, UInt rest)
{
	ULong a = (ULong)rest | (((ULong)fn * 0x9E3779B97F4A7C15ULL) & ~0xFFFFFFFFULL);
	UInt n = dg_pairmap_get(&node_map, a, pc);

	if (n == DG_PAIRMAP_NONE) {
		n = node_new(pc, fn, rest, nodes[rest].depth + 1);
		dg_pairmap_put(&node_map, a, pc, n);
	}
	return n;
}

/* The stack of node n without its outermost frame. */
static UInt node_shorter(UInt n)
{
	UInt s;

	if (nodes[n].shorter != NO_NODE)
		return nodes[n].shorter;
	/* node_intern may move the table: no pointer into it across calls */
	s = nodes[n].depth <= 1 ? 0
		: node_intern(nodes[n].pc, nodes[n].fn, node_shorter(nodes[n].rest));
	nodes[n].shorter = s;
	return s;
}

/* The node for a call at pc to fn from the stack `parent`.  Recursion is
   folded: if fn is already on the stack, the new frame gets the node of
   the frame that called it first, as if the cycle had returned.  Without
   this a recursive function multiplies contexts by every path through the
   recursion (a tree walk whose compiler-unrolled recursion has a dozen
   call sites made 40,000 contexts of free() in the benchmark), which
   nobody wants to read and the log pays for. */
static UInt node_child(UInt parent, Addr pc, Addr fn)
{
	UInt n;

	for (n = parent; n != 0; n = nodes[n].rest)
		if (nodes[n].fn == fn)
			return n;
	if (nodes[parent].depth >= max_depth)
		parent = node_shorter(parent);
	return node_intern(pc, fn, parent);
}

void dg_stack_init(UInt depth)
{
	max_depth = depth ? depth : 1;
	dg_pairmap_init(&node_map, "dg.stack.map");
	node_new(0, 0, 0, 0);             /* node 0: the empty stack */
	dg_stack_switch(1);
}

/* ------------------------------------------------------------ shadow stacks */

/* A shadow for a stack not seen before: the least recently used free one
   when the pool is full (its frames are stale by then anyway). */
static UInt shadow_new(void)
{
	UInt i, best = 0;

	if (n_shadows < MAX_STACKS) {
		shadows = VG_(realloc)("dg.stack.shadows", shadows,
		                       (n_shadows + 1) * sizeof *shadows);
		VG_(memset)(&shadows[n_shadows], 0, sizeof *shadows);
		best = n_shadows++;
	} else {
		for (i = 0; i < n_shadows; i++)
			if (!shadows[i].current && (shadows[best].current
			    || shadows[i].used < shadows[best].used))
				best = i;
		tl_assert(!shadows[best].current);
	}
	shadows[best].n = 0;
	shadows[best].fn_base = 0;
	shadows[best].hi = 0;
	shadows[best].last_sp = 0;
	shadows[best].sp_set = False;
	return best;
}

static struct shadow *thread_get(ThreadId tid)
{
	if (tid >= n_threads) {
		UInt i, n = tid + 8;
		Word cur_i = cur ? cur - shadows : -1;
		thread_shadow = VG_(realloc)("dg.stack.threads", thread_shadow,
		                             n * sizeof *thread_shadow);
		for (i = n_threads; i < n; i++)
			thread_shadow[i] = NO_NODE;
		n_threads = n;
		if (cur_i >= 0)
			cur = &shadows[cur_i];
	}
	if (thread_shadow[tid] == NO_NODE) {
		Word cur_i = cur ? cur - shadows : -1;
		thread_shadow[tid] = shadow_new();   /* may move the pool */
		shadows[thread_shadow[tid]].current = True;
		if (cur_i >= 0)
			cur = &shadows[cur_i];
	}
	return &shadows[thread_shadow[tid]];
}

static void cur_update(void)
{
	const struct frame *top = cur->n ? &cur->f[cur->n - 1] : NULL;

	dg_stack_cur_node = top ? top->node : 0;
	/* the reference the fast test in dg_stack_entry compares with; 0
	   sends the next block to the slow path (where hi gets set) */
	if (sp_set)
		dg_stack_ref_sp = 0;
	else if (top)
		dg_stack_ref_sp = top->sp;
	else
		dg_stack_ref_sp = cur->hi ? cur->hi + SLACK : 0;
}

void dg_stack_switch(ThreadId tid)
{
	if (cur) {
		cur->last_sp = prev_sp;
		cur->sp_set = sp_set;
	}
	cur = thread_get(tid);
	cur_tid = tid;
	prev_sp = cur->last_sp;
	sp_set = cur->sp_set;
	cur_update();
}

static void frame_push(struct shadow *t, Addr sp, UInt node, Bool marker)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->f = VG_(realloc)("dg.stack.frames", t->f, t->cap * sizeof *t->f);
	}
	t->f[t->n].sp = sp;
	t->f[t->n].node = node;
	t->f[t->n].marker = marker;
	t->n++;
}

/* Pop the frames that stack pointer sp has left: a frame whose return
   address lies below sp (callgrind's rule), a signal marker when sp is
   above the stack pointer the signal interrupted (the handler was left
   by a jump).  An alternate-stack marker is popped only by the return
   from its handler. */
static void unwind(struct shadow *t, Addr sp)
{
	while (t->n > 0) {
		const struct frame *top = &t->f[t->n - 1];
		if (top->sp >= sp || top->sp == MARKER_ALT)
			break;
		t->n--;
	}
	if (t->fn_base && t->n + 1 < t->fn_base)
		t->fn_base = 0;
}

/* The stack that sp moved to, other than cur: the one it was left on
   (sp at or a little above where its last block ran, and not above its
   base), or else a new one. */
static UInt shadow_find(Addr sp)
{
	UInt i, best = NO_NODE;

	for (i = 0; i < n_shadows; i++) {
		const struct shadow *s = &shadows[i];
		if (s->current || s->hi == 0 || sp < s->last_sp || sp > s->hi + SLACK)
			continue;
		if (best == NO_NODE || s->last_sp > shadows[best].last_sp)
			best = i;
	}
	return best != NO_NODE ? best : shadow_new();
}

static void switch_to(Addr sp)
{
	UInt from = cur - shadows, to;

	cur->last_sp = prev_sp;
	to = shadow_find(sp);         /* may move the pool */
	cur = &shadows[from];
	cur->current = False;
	cur = &shadows[to];
	cur->current = True;
	cur->used = ++switches;
	thread_shadow[cur_tid] = to;
	if (cur->hi == 0)
		cur->hi = sp;
}

/* Is sp on another stack?  Above this one's base, certainly.  Below
   where the last block ran, only if that block set SP anew (nothing else
   lowers SP but pushes, calls and subtractions) or if the drop is more
   than any frame (Valgrind's default --max-stackframe). */
static Bool elsewhere(Addr sp)
{
	if (sp > cur->hi + SLACK)
		return True;
	if (sp >= prev_sp)
		return False;
	return sp_set || prev_sp - sp >= DG_STACK_WINDOW;
}

/* The slow path of dg_stack_entry: sp is above the top frame, or far
   below it, or the stack has no base yet, or SP was set anew. */
static void entry_moved(Addr sp)
{
	if (cur->n > 0 && cur->f[cur->n - 1].sp == MARKER_ALT) {
		/* a handler's first block on its alternate stack */
		cur->f[cur->n - 1].sp = sp + SLACK;
		return;
	}
	if (cur->hi == 0) {
		cur->hi = sp;             /* the stack's first block */
		return;
	}
	if (elsewhere(sp))
		switch_to(sp);            /* the frames left behind stay */
	unwind(cur, sp);
	if (cur->n == 0 && sp > cur->hi)
		cur->hi = sp;
}

Bool dg_stack_entry_slow(Addr sp)
{
	UInt old = dg_stack_cur_node;

	entry_moved(sp);
	prev_sp = sp;
	sp_set = False;
	cur_update();
	return dg_stack_cur_node != old;
}

void dg_stack_sp_set(void)
{
	sp_set = True;
	dg_stack_ref_sp = 0;          /* the next block takes the slow path */
}

void dg_stack_call(const Addr *call_pc, Addr sp, Addr target,
                   struct dg_call_memo *m)
{
	UInt child;

	/* A frame at or below the new return address was abandoned (a jump
	   out of it that no block entry showed). */
	if (cur->n > 0 && cur->f[cur->n - 1].sp <= sp) {
		unwind(cur, sp + 1);
		cur_update();
	}
	if (m->parent == dg_stack_cur_node && m->target == target) {
		child = m->child;
	} else {
		child = node_child(dg_stack_cur_node, *call_pc, target);
		m->parent = dg_stack_cur_node;
		m->target = target;
		m->child = child;
	}
	frame_push(cur, sp, child, False);
	dg_stack_cur_node = child;
	dg_stack_ref_sp = sp;
}

/* The handler runs on top of the interrupted stack.  Frames the
   interrupted code had already left go first. */
void dg_stack_signal_enter(ThreadId tid, Addr sp, Bool alt)
{
	struct shadow *t = thread_get(tid);
	UInt node;

	unwind(t, sp);
	node = t->n ? t->f[t->n - 1].node : 0;
	frame_push(t, alt ? MARKER_ALT : sp, node, True);
	if (t == cur)
		cur_update();
}

void dg_stack_signal_exit(ThreadId tid)
{
	struct shadow *t = thread_get(tid);

	while (t->n > 0 && !t->f[t->n - 1].marker)
		t->n--;
	if (t->n > 0)
		t->n--;
	if (t->fn_base && t->n + 1 < t->fn_base)
		t->fn_base = 0;
	if (t == cur)
		cur_update();
}

void dg_stack_thread_reset(ThreadId tid)
{
	struct shadow *t = thread_get(tid);

	t->n = 0;
	t->fn_base = 0;
	t->hi = 0;
	t->last_sp = 0;
	t->sp_set = False;
	if (t == cur)
		cur_update();
}

void dg_stack_fn_enter(void)
{
	if (!cur->fn_base)
		cur->fn_base = cur->n + 1;
}

Bool dg_stack_in_fn(void) { return cur->fn_base != 0; }


UInt dg_stack_intern(UInt parent, const struct dg_frame_in *f, UInt n, UInt *out)
{
	UInt node = parent, k = 0;

	while (n-- > 0)
		out[k++] = node = node_child(node, f[n].pc, f[n].fn);
	return node;
}

/* The frames replace whatever the thread's shadow held (nothing was
   replayed); its base is where the outermost frame returns to. */
void dg_stack_seed(ThreadId tid, const struct dg_frame_in *f, UInt n)
{
	struct shadow *t = thread_get(tid);
	UInt node = 0, i;

	t->n = 0;
	t->fn_base = 0;
	t->last_sp = 0;
	t->sp_set = False;
	t->hi = n ? f[n - 1].sp + 8 : 0;
	for (i = n; i-- > 0; ) {
		node = node_child(node, f[i].pc, f[i].fn);
		frame_push(t, f[i].sp, node, False);
	}
	if (t == cur)
		cur_update();
}

UInt dg_stack_frames(UInt node, Addr *out, UInt max)
{
	UInt k = 0;

	while (node != 0 && k < max) {
		out[k++] = nodes[node].pc;
		node = nodes[node].rest;
	}
	return k;
}

Addr dg_stack_node_pc(UInt node)   { return nodes[node].pc; }
UInt dg_stack_node_rest(UInt node) { return nodes[node].rest; }
UInt dg_stack_n_nodes(void)        { return n_nodes; }

/* ------------------------------------------------------------ fork state */

struct scalars {
	UInt cur_node, max_depth, cur, cur_tid;
	Addr ref_sp, prev_sp;
	ULong switches;
	Bool sp_set;
};

void dg_stack_dump(struct dg_blob *b)
{
	struct scalars s = { dg_stack_cur_node, max_depth, cur - shadows,
	                     cur_tid, dg_stack_ref_sp, prev_sp, switches, sp_set };
	UInt i;

	dg_blob_put(b, &s, sizeof s);
	dg_blob_put_array(b, nodes, n_nodes, sizeof *nodes);
	dg_pairmap_dump(&node_map, b);
	dg_blob_put_array(b, thread_shadow, n_threads, sizeof *thread_shadow);
	dg_blob_put_array(b, shadows, n_shadows, sizeof *shadows);
	for (i = 0; i < n_shadows; i++)
		dg_blob_put_array(b, shadows[i].f, shadows[i].n, sizeof *shadows[i].f);
}

void dg_stack_restore(struct dg_blob *b)
{
	struct scalars s;
	UInt i;

	VG_(memcpy)(&s, dg_blob_get(b, sizeof s), sizeof s);
	n_nodes = cap_nodes = dg_blob_get_array(b, (void **)&nodes, sizeof *nodes,
	                                        "dg.stack.nodes");
	dg_pairmap_restore(&node_map, b);
	n_threads = dg_blob_get_array(b, (void **)&thread_shadow,
	                              sizeof *thread_shadow, "dg.stack.threads");
	for (i = 0; i < n_shadows; i++)
		VG_(free)(shadows[i].f);
	n_shadows = dg_blob_get_array(b, (void **)&shadows, sizeof *shadows,
	                              "dg.stack.shadows");
	for (i = 0; i < n_shadows; i++) {
		shadows[i].f = NULL;
		shadows[i].cap = dg_blob_get_array(b, (void **)&shadows[i].f,
		                                   sizeof *shadows[i].f,
		                                   "dg.stack.frames");
	}
	dg_stack_cur_node = s.cur_node;
	max_depth = s.max_depth;
	cur = &shadows[s.cur];
	cur_tid = s.cur_tid;
	dg_stack_ref_sp = s.ref_sp;
	prev_sp = s.prev_sp;
	switches = s.switches;
	sp_set = s.sp_set;
}
