/* dg_stack.c: shadow call stacks and calling-context nodes.  See dg_stack.h. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "dg_stack.h"
#include "dg_pairmap.h"

/* A node is (pc, rest): the call site pc on top of the stack `rest`.
   `shorter` is the same stack without its outermost frame, found lazily;
   it is how a push at full depth drops the outermost frame. */
struct node { Addr pc, fn; UInt rest; UInt shorter; UInt depth; };

#define NO_NODE     0xFFFFFFFFu
#define MARKER_SP   (~(Addr)0)

struct frame { Addr sp; UInt node; Bool marker; };

struct thread_stack {
	struct frame *f;
	UInt n, cap;
	UInt fn_base;          /* depth+1 at --trace-fn entry; 0 = outside */
};

UInt dg_stack_cur_node;

static struct node *nodes;
static UInt n_nodes, cap_nodes;
static struct dg_pairmap node_map;
static UInt max_depth;
static struct thread_stack *threads;
static UInt n_threads;
static struct thread_stack *cur;
static ThreadId cur_tid;

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

static struct thread_stack *thread_get(ThreadId tid)
{
	if (tid >= n_threads) {
		UInt n = tid + 8;
		threads = VG_(realloc)("dg.stack.threads", threads, n * sizeof *threads);
		VG_(memset)(threads + n_threads, 0, (n - n_threads) * sizeof *threads);
		n_threads = n;
		cur = &threads[cur_tid];    /* the array moved */
	}
	return &threads[tid];
}

static void cur_node_update(void)
{
	dg_stack_cur_node = cur->n ? cur->f[cur->n - 1].node : 0;
}

void dg_stack_switch(ThreadId tid)
{
	cur = thread_get(tid);
	cur_tid = tid;
	cur_node_update();
}

static void frame_push(struct thread_stack *t, Addr sp, UInt node, Bool marker)
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

void dg_stack_call(Addr call_pc, Addr sp, Addr target, struct dg_call_memo *m)
{
	UInt child;

	if (m->parent == dg_stack_cur_node && m->target == target) {
		child = m->child;
	} else {
		child = node_child(dg_stack_cur_node, call_pc, target);
		m->parent = dg_stack_cur_node;
		m->target = target;
		m->child = child;
	}
	frame_push(cur, sp, child, False);
	dg_stack_cur_node = child;
}

/* Pop the frames a return at stack pointer sp leaves.  A signal marker
   stops the popping unless the return goes above the stack pointer the
   signal interrupted: then the handler was left by longjmp and the marker
   is stale. */
void dg_stack_ret(Addr sp)
{
	while (cur->n > 0) {
		struct frame *top = &cur->f[cur->n - 1];
		if (top->marker ? sp <= top->sp : top->sp >= sp)
			break;
		cur->n--;
	}
	if (cur->fn_base && cur->n + 1 < cur->fn_base)
		cur->fn_base = 0;
	cur_node_update();
}

void dg_stack_signal_enter(ThreadId tid, Addr sp)
{
	struct thread_stack *t = thread_get(tid);
	UInt node = t->n ? t->f[t->n - 1].node : 0;

	frame_push(t, sp, node, True);
}

void dg_stack_signal_exit(ThreadId tid)
{
	struct thread_stack *t = thread_get(tid);

	while (t->n > 0 && !t->f[t->n - 1].marker)
		t->n--;
	if (t->n > 0)
		t->n--;
	if (t->fn_base && t->n + 1 < t->fn_base)
		t->fn_base = 0;
	cur_node_update();
}

void dg_stack_thread_reset(ThreadId tid)
{
	struct thread_stack *t = thread_get(tid);

	t->n = 0;
	t->fn_base = 0;
	if (t == cur)
		cur_node_update();
}

void dg_stack_fn_enter(void)
{
	if (!cur->fn_base)
		cur->fn_base = cur->n + 1;
}

Bool dg_stack_in_fn(void) { return cur->fn_base != 0; }


UInt dg_stack_frames(UInt node, Addr *out, UInt max)
{
	UInt k = 0;

	while (node != 0 && k < max) {
		out[k++] = nodes[node].pc;
		node = nodes[node].rest;
	}
	return k;
}
