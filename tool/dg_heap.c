/* dg_heap.c: heap blocks.  See dg_heap.h. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_poolalloc.h"
#include "pub_tool_replacemalloc.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_options.h"
#include "dg_format.h"
#include "dg_heap.h"
#include "pub_tool_threadstate.h"
#include "dg_stream.h"
#include "dg_calls.h"

struct block {
	struct block *next;   /* VgHashNode layout: next, key */
	UWord addr;
	SizeT size;
};

/* The encoder keeps their allocation stacks, by (address, table: 1 for
   client_blocks): the tool has no shadow stack.  While no call is
   replayed (dg_calls.h) the tool unwinds each MALLOC's and FREE's stack
   and sends it just before. */

static VgHashTable *blocks;         /* from the malloc replacement */
static VgHashTable *client_blocks;  /* announced by MALLOCLIKE_BLOCK: never
				       Valgrind's to free, and may lie inside
				       a malloc'd pool */
static PoolAlloc   *block_pool;    /* block records: one malloc each is dear */
static ULong n_allocs;
static UInt unwind_depth;          /* 0: the encoder's shadow stacks */
/* The last stack sent: the next shares its outer frames (most heap calls
   of a stretch of the program come from the same few callers). */
static struct dg_frame_in last[DG_STACK_MAX_FRAMES];
static UInt n_last;
static ThreadId last_tid;

void dg_heap_set_unwind(UInt depth) { unwind_depth = depth; }

/* A MALLOC or FREE: with the stack unwound here, or the shadow stack's. */
static void heap_ctl(UChar op, Addr a, SizeT n, Bool client)
{
	struct dg_frame_in f[DG_STACK_MAX_FRAMES];
	ThreadId tid;
	UInt nf, keep = 0;

	if (!unwind_depth) {
		dg_stream_ctl(op, a, n, client);
		return;
	}
	tid = VG_(get_running_tid)();
	nf = dg_calls_unwind(tid, f, unwind_depth);
	if (tid == last_tid)
		while (keep < nf && keep < n_last
		       && f[nf - 1 - keep].pc == last[n_last - 1 - keep].pc
		       && f[nf - 1 - keep].fn == last[n_last - 1 - keep].fn)
			keep++;
	dg_stream_stack(DG_STACK_HEAP, tid, keep, f, nf - keep);
	VG_(memcpy)(last, f, nf * sizeof *f);
	n_last = nf;
	last_tid = tid;
	dg_stream_ctl(op, a, n, client | DG_CTL_UNWOUND);
}

static void block_add(VgHashTable *table, Addr a, SizeT n)
{
	struct block *b = VG_(allocEltPA)(block_pool);

	b->addr = a;
	b->size = n;
	VG_(HT_add_node)(table, b);
	heap_ctl(DG_CTL_MALLOC, a, n, table == client_blocks);
	n_allocs++;
}

/* Returns False if a is not a live block of table (the free is ignored). */
static Bool block_remove(VgHashTable *table, Addr a)
{
	struct block *b = VG_(HT_remove)(table, a);

	if (!b)
		return False;
	heap_ctl(DG_CTL_FREE, a, 0, table == client_blocks);
	VG_(freeEltPA)(block_pool, b);
	return True;
}

static void *heap_alloc(SizeT n, SizeT align, Bool zero)
{
	void *p = VG_(cli_malloc)(align, n);

	if (!p)
		return NULL;
	if (zero)
		VG_(memset)(p, 0, n);
	block_add(blocks, (Addr)p, n);
	return p;
}

static void heap_free(void *p)
{
	if (p && block_remove(blocks, (Addr)p))
		VG_(cli_free)(p);
}

static void *dg_malloc(ThreadId tid, SizeT n)
{
	return heap_alloc(n, VG_(clo_alignment), False);
}

static void *dg_new_aligned(ThreadId tid, SizeT n, SizeT align)
{
	return heap_alloc(n, align, False);
}

static void *dg_memalign(ThreadId tid, SizeT align, SizeT n)
{
	return heap_alloc(n, align, False);
}

static void *dg_calloc(ThreadId tid, SizeT nmemb, SizeT size)
{
	if (size && nmemb > (SizeT)-1 / size)
		return NULL;   /* overflow: calloc fails as glibc's does */
	return heap_alloc(nmemb * size, VG_(clo_alignment), True);
}

static void dg_free(ThreadId tid, void *p) { heap_free(p); }
static void dg_free_aligned(ThreadId tid, void *p, SizeT align) { heap_free(p); }

/* realloc is a free of the old block and a malloc of the new one. */
static void *dg_realloc(ThreadId tid, void *old, SizeT n)
{
	struct block *b;
	void *p;

	if (!old)
		return heap_alloc(n, VG_(clo_alignment), False);
	b = VG_(HT_lookup)(blocks, (UWord)old);
	if (!b)
		return NULL;       /* not ours: refuse rather than corrupt */
	p = VG_(cli_malloc)(VG_(clo_alignment), n);
	if (!p)
		return NULL;
	VG_(memcpy)(p, old, b->size < n ? b->size : n);
	heap_free(old);
	block_add(blocks, (Addr)p, n);
	return p;
}

static SizeT dg_usable_size(ThreadId tid, void *p)
{
	struct block *b = VG_(HT_lookup)(blocks, (UWord)p);

	return b ? b->size : 0;
}

void dg_heap_init(void)
{
	blocks = VG_(HT_construct)("dg.heap.blocks");
	client_blocks = VG_(HT_construct)("dg.heap.client");
	block_pool = VG_(newPA)(sizeof(struct block), 1000, VG_(malloc),
	                        "dg.heap.pool", VG_(free));
	VG_(needs_malloc_replacement)(dg_malloc, dg_malloc, dg_new_aligned,
	                              dg_malloc, dg_new_aligned, dg_memalign,
	                              dg_calloc, dg_free, dg_free, dg_free_aligned,
	                              dg_free, dg_free_aligned, dg_realloc,
	                              dg_usable_size, 0);
}

void dg_heap_client_alloc(Addr a, SizeT n)
{
	if (VG_(HT_lookup)(client_blocks, a))
		return;   /* already announced; a second time changes nothing */
	block_add(client_blocks, a, n);
}

void dg_heap_client_free(Addr a) { block_remove(client_blocks, a); }

static void replay_table(VgHashTable *table)
{
	struct block *b;

	VG_(HT_ResetIter)(table);
	while ((b = VG_(HT_Next)(table)) != NULL)
		dg_stream_ctl(DG_CTL_HEAP_REPLAY, b->addr, b->size,
		              table == client_blocks);
}

void dg_heap_replay(void)
{
	replay_table(blocks);
	replay_table(client_blocks);
}

ULong dg_heap_allocs(void) { return n_allocs; }
