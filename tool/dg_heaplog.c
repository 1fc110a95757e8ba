/* dg_heaplog.c: the log's heap records.  See dg_heaplog.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "dg_format.h"
#include "dg_heaplog.h"
#include "dg_stack.h"
#include "dg_wr.h"

#define MAX_FRAMES  256     /* of a stack: a node's depth is at most 255 */

static Bool compact;
static UInt *stack_of;      /* per node: its heap stack + 1, 0 if unwritten */
static UInt n_stack_of;
static UInt *next_of;       /* per heap stack: the one predicted after it */
static UInt n_stacks, cap_stacks;
static UInt prev;           /* heap stack of the last record */
static Addr last_addr;      /* and its address */

void dg_heaplog_init(Bool c)
{
	compact = c;
	dg_heaplog_reset();
}

/* Heap stack 0 is the empty stack, the stack of node 0, predicted to
   follow itself like every stack at first. */
void dg_heaplog_reset(void)
{
	if (stack_of)
		VG_(memset)(stack_of, 0, n_stack_of * sizeof *stack_of);
	if (!next_of) {
		cap_stacks = 1024;
		next_of = VG_(malloc)("dg.heaplog.next", cap_stacks * sizeof *next_of);
	}
	next_of[0] = 0;
	n_stacks = 1;
	prev = 0;
	last_addr = 0;
}

static void node_room(UInt node)
{
	UInt n = n_stack_of;

	if (node < n_stack_of)
		return;
	n_stack_of = dg_stack_n_nodes() > 2 * n ? dg_stack_n_nodes() : 2 * n;
	tl_assert(node < n_stack_of);
	stack_of = VG_(realloc)("dg.heaplog.nodes", stack_of,
	                        n_stack_of * sizeof *stack_of);
	VG_(memset)(stack_of + n, 0, (n_stack_of - n) * sizeof *stack_of);
}

static void stacks_room(UInt n)
{
	if (n <= cap_stacks)
		return;
	cap_stacks = n > 2 * cap_stacks ? n : 2 * cap_stacks;
	next_of = VG_(realloc)("dg.heaplog.next", next_of,
	                       cap_stacks * sizeof *next_of);
}

/* MALLOC_BLOCK and FREE_BLOCK: the stack as n_ips and ips[]. */
static void write_full(Bool is_malloc, Addr a, SizeT size, UInt node)
{
	Addr f[MAX_FRAMES];
	UInt i, n = dg_stack_frames(node, f, MAX_FRAMES);

	dg_wr_begin_long(is_malloc ? DG_R_MALLOC_BLOCK : DG_R_FREE_BLOCK);
	dg_wr_u64(a);
	if (is_malloc)
		dg_wr_u64(size);
	dg_wr_u64(n);
	for (i = 0; i < n; i++)
		dg_wr_u64(f[i]);
	dg_wr_end();
}

/* The new frames of node's stack (FORMAT.md 2.19): the nodes from node
   outwards whose stacks the log does not have yet, fresh[0..k), each
   becoming a heap stack, the outermost first; *parent is the heap stack
   they sit on. */
static UInt stack_fresh(UInt node, UInt *fresh, UInt *parent, Addr *base)
{
	UInt k = 0, m = node;

	node_room(node);
	while (m != 0 && !stack_of[m]) {
		tl_assert(k < MAX_FRAMES);
		fresh[k++] = m;
		m = dg_stack_node_rest(m);
	}
	*parent = m ? stack_of[m] - 1 : 0;
	*base = dg_stack_node_pc(m);    /* the parent's innermost frame */
	return k;
}

void dg_heaplog_write(Bool is_malloc, ULong icount_delta, Addr a, SizeT size,
                      UInt node)
{
	UInt fresh[MAX_FRAMES], k, parent, s, i;
	UChar type = is_malloc ? DG_R_HEAP_MALLOC : DG_R_HEAP_FREE;
	Addr base;

	if (!compact) {
		tl_assert(icount_delta == 0);
		write_full(is_malloc, a, size, node);
		return;
	}
	k = stack_fresh(node, fresh, &parent, &base);
	if (6 * DGC_LEB_MAX + DGC_LEB_MAX * k < 255)
		dg_wr_begin_short(type);
	else
		dg_wr_begin_long(type);
	dg_wr_uleb(icount_delta);
	if (k) {
		dg_wr_uleb(DG_HEAP_NEW);
		dg_wr_uleb(parent);
		dg_wr_uleb(k);
		for (i = 0; i < k; i++) {
			Addr pc = dg_stack_node_pc(fresh[i]);
			dg_wr_uleb(dgc_zigzag(pc - base, 64));
			base = pc;
		}
		stacks_room(n_stacks + k);
		for (i = k; i-- > 0; n_stacks++) {
			stack_of[fresh[i]] = n_stacks + 1;
			next_of[n_stacks] = n_stacks;
		}
		s = n_stacks - 1;
	} else {
		s = parent;
		dg_wr_uleb(s == next_of[prev] ? DG_HEAP_PREDICTED : DG_HEAP_INDEX + s);
	}
	next_of[prev] = s;
	prev = s;
	dg_wr_uleb(dgc_zigzag(a - last_addr, 64));
	last_addr = a;
	if (is_malloc)
		dg_wr_uleb(size);
	dg_wr_end();
}
