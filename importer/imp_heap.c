/* imp_heap.c: heap blocks, tracked ranges, user events and threads.
 *
 * Live blocks are found by address in three ways: a block of at most 256
 * bytes hangs off the hash entry of the 256-byte granule it starts in, one
 * of at most a page off the entry of its page (so the block holding an
 * address starts in its granule or page or the one before), a larger one is
 * kept in a sorted array.  Lists stay short: a page holds many small
 * blocks, a granule few.  A block's row is written when it is freed, so memory
 * holds only the live blocks' histograms.
 */
#include <stdlib.h>
#include <string.h>
#include "imp_heap.h"
#include "imp.h"
#include "imp_db.h"
#include "imp_sym.h"
#include "imp_field.h"
#include "imp_pctype.h"
#include "dgblockfns.h"
#include "dghist.h"
#include "dgmem.h"
#include "imp_hsum.h"

#define PAGE_SHIFT   12
#define SMALL_SHIFT  8
#define SMALL_TAG    (1ull << 63)     /* granule keys, apart from page keys */
#define HIST_MAX     1024


int imp_heap_init(struct importer *imp)
{
	if (dghash_init(&imp->page_blocks, 1024) < 0)
		return imp_fail(imp, "out of memory");
	return 0;
}

#define IMP_MAX_TID (1u << 20)   /* Valgrind's own limit is far below */

struct imp_thread *imp_thread(struct importer *imp, uint32_t tid)
{
	if (tid >= IMP_MAX_TID) {
		imp_fail(imp, "%s: byte %llu: thread id %u is not a Valgrind thread id",
		         imp->log_path, (unsigned long long)imp->log.rec_off, tid);
		return NULL;
	}
	if (tid >= imp->n_threads) {
		size_t n = tid + 16, k;
		struct imp_thread *t = realloc(imp->threads, n * sizeof *t);
		if (!t)
			return NULL;
		memset(t + imp->n_threads, 0, (n - imp->n_threads) * sizeof *t);
		for (k = imp->n_threads; k < n; k++)
			t[k].id = (uint32_t)k;    /* imp_run takes known slots directly */
		imp->threads = t;
		imp->n_threads = n;
	}
	return &imp->threads[tid];
}

/* ------------------------------------------------------------ lookup */

static int is_large(const struct imp_block *b) { return b->size > (1u << PAGE_SHIFT); }

/* The hash key a small or medium block hangs off. */
static uint64_t list_key(const struct imp_block *b)
{
	return b->size <= (1u << SMALL_SHIFT) ? SMALL_TAG | b->addr >> SMALL_SHIFT
	                                      : b->addr >> PAGE_SHIFT;
}

static size_t large_pos(const struct importer *imp, uint64_t addr)
{
	size_t lo = 0, hi = imp->n_large;     /* first with addr > target */

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (imp->blocks[imp->large[mid]].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static uint32_t list_find(const struct importer *imp, uint64_t key, uint64_t a)
{
	uint32_t b = dghash_get(&imp->page_blocks, key);

	while (b != IMP_NONE && b != 0) {
		const struct imp_block *x = &imp->blocks[b - 1];
		if (a - x->addr < x->size)
			return b - 1;
		b = x->next_in_page;
	}
	return IMP_NONE;
}

uint32_t imp_heap_find(struct importer *imp, uint64_t a)
{
	uint64_t page = a >> PAGE_SHIFT, g = a >> SMALL_SHIFT;
	uint32_t b;
	size_t k;

	/* stack and globals lie far from the heap: most misses end here */
	if (a < imp->heap_lo || a >= imp->heap_hi)
		return IMP_NONE;
	b = list_find(imp, SMALL_TAG | g, a);
	if (b == IMP_NONE && g)
		b = list_find(imp, SMALL_TAG | (g - 1), a);
	if (b == IMP_NONE)
		b = list_find(imp, page, a);
	if (b == IMP_NONE && page)
		b = list_find(imp, page - 1, a);
	if (b == IMP_NONE && imp->n_large && (k = large_pos(imp, a)) > 0) {
		const struct imp_block *x = &imp->blocks[imp->large[k - 1]];
		if (a - x->addr < x->size)
			b = imp->large[k - 1];
	}
	return b;
}

static int block_link(struct importer *imp, uint32_t b)
{
	struct imp_block *x = &imp->blocks[b];
	int added;
	long s;
	size_t k;

	if (is_large(x)) {
		if (dg_grow((void **)&imp->large, &imp->cap_large, imp->n_large + 1, sizeof *imp->large) < 0)
			return imp_fail(imp, "out of memory");
		k = large_pos(imp, x->addr);
		memmove(imp->large + k + 1, imp->large + k, (imp->n_large - k) * sizeof *imp->large);
		imp->large[k] = b;
		imp->n_large++;
		return 0;
	}
	s = dghash_put(&imp->page_blocks, list_key(x), 0, &added);
	if (s < 0)
		return imp_fail(imp, "out of memory");
	x->next_in_page = imp->page_blocks.vals[s];   /* 0 ends the list */
	imp->page_blocks.vals[s] = b + 1;
	return 0;
}

static void block_unlink(struct importer *imp, uint32_t b)
{
	struct imp_block *x = &imp->blocks[b];
	size_t k;

	if (is_large(x)) {
		for (k = 0; k < imp->n_large && imp->large[k] != b; k++)
			;
		if (k < imp->n_large) {
			memmove(imp->large + k, imp->large + k + 1,
			        (imp->n_large - k - 1) * sizeof *imp->large);
			imp->n_large--;
		}
		return;
	}
	{
		long s = dghash_slot(&imp->page_blocks, list_key(x));
		uint32_t *link;
		if (s < 0)
			return;     /* not linked: nothing to undo */
		link = &imp->page_blocks.vals[s];
		while (*link && *link != b + 1)
			link = &imp->blocks[*link - 1].next_in_page;
		if (*link)
			*link = x->next_in_page;
	}
}

/* ------------------------------------------------------------ blocks */

/* A sum_fn_block_rest row: the global table's at the end (imp_run.c),
   the accesses outside the heap and the pairs a block had no room for (a
   block's own go out in its blocks.fns). */
int imp_fn_block_row(struct importer *imp, uint32_t fn, uint32_t block_id,
                     int is_write, uint64_t n, uint64_t bytes)
{
	sqlite3_stmt *st = imp_db_stmt(imp, ST_FNBLOCK,
		"INSERT INTO sum_fn_block_rest VALUES (?1, ?2, ?3, ?4, ?5)");

	if (!st)
		return -1;
	if (fn)
		sqlite3_bind_int64(st, 1, fn);
	if (block_id)
		sqlite3_bind_int64(st, 2, block_id);
	sqlite3_bind_int(st, 3, is_write);
	sqlite3_bind_int64(st, 4, (int64_t)n);
	sqlite3_bind_int64(st, 5, (int64_t)bytes);
	return imp_db_step(imp, st);
}

static inline int fn_count(struct imp_block *x, struct imp_desc *d);

/* Entry i of the block's function counts: the first IMP_BLOCK_FNS in the
   block itself, the rest in its overflow array. */
static inline struct imp_fn_count *fn_entry(struct imp_block *x, unsigned i)
{
	return i < IMP_BLOCK_FNS ? &x->fns[i] : &x->more[i - IMP_BLOCK_FNS];
}

/* The block's histogram, made on its first access with a byte a counter
   (NULL if out of memory: the histogram is lost, for good, and the counts
   are not). */
static void *hist_of(struct imp_block *x)
{
	uint8_t shift = 0;

	if (x->hist_lost)
		return NULL;
	while ((x->size + (1ull << shift) - 1) >> shift > HIST_MAX)
		shift++;
	x->hist_shift = shift;
	x->hist_n = (uint32_t)((x->size + (1ull << shift) - 1) >> shift);
	x->hist_wide = 0;
	if (!(x->hist = calloc(2 * (size_t)x->hist_n, 1)))
		x->hist_lost = 1;
	return x->hist;
}

/* One more in counter j.  Counters are bytes until one overflows, then all
   of the block's become uint32_t: most stay below 256, and four bytes a
   counter made the histograms of a large live heap eight times its size
   (a block under 1 KiB has a bucket a byte).  Out of memory, the
   histogram is lost rather than wrong. */
static void hist_add(struct imp_block *x, size_t j)
{
	uint8_t *narrow = x->hist;
	uint32_t *wide;
	size_t i;

	if (x->hist_wide) {
		((uint32_t *)x->hist)[j]++;
		return;
	}
	if (++narrow[j] != 0)
		return;
	if (!(wide = malloc(2 * (size_t)x->hist_n * sizeof *wide))) {
		free(x->hist);
		x->hist = NULL;
		x->hist_lost = 1;
		return;
	}
	for (i = 0; i < 2 * (size_t)x->hist_n; i++)
		wide[i] = narrow[i];
	wide[j] = 256;
	free(x->hist);
	x->hist = wide;
	x->hist_wide = 1;
}

int imp_heap_touch(struct importer *imp, uint32_t b, uint64_t addr,
                   uint64_t icount, struct imp_desc *d)
{
	struct imp_block *x = &imp->blocks[b];
	uint64_t k;

	if (x->rw.n[0] + x->rw.n[1] == 0)
		x->first = icount;
	imp_rw_add(&x->rw, d->is_write, 1, d->size);
	x->last = icount;
	if (x->hist || hist_of(x)) {
		k = (addr - x->addr) >> x->hist_shift;
		if (k < x->hist_n)
			hist_add(x, 2 * k + d->is_write);
	}
	imp_pctype_vote(imp, x, d, addr);
	return fn_count(x, d);
}

/* The histogram's counters as uint32_t: its own, or copied into tmp
   (2 * HIST_MAX of them). */
static const uint32_t *hist_counts(const struct imp_block *x, uint32_t *tmp)
{
	size_t j;

	if (x->hist_wide)
		return x->hist;
	for (j = 0; j < 2 * (size_t)x->hist_n; j++)
		tmp[j] = ((const uint8_t *)x->hist)[j];
	return tmp;
}

/* The block's function counts as its blocks.fns blob (lib/dgblockfns.c),
   bound to parameter k of st. */
static int bind_fns(struct importer *imp, sqlite3_stmt *st, int k,
                    struct imp_block *x)
{
	struct dgbf_entry e[IMP_BLOCK_FNS_MAX];
	uint8_t *enc = malloc((size_t)x->n_fns * DGBF_ENTRY_MAX);
	uint8_t i;

	if (!enc)
		return imp_fail(imp, "out of memory");
	for (i = 0; i < x->n_fns; i++) {
		const struct imp_fn_count *c = fn_entry(x, i);

		e[i].fn = c->fn;
		e[i].is_write = c->is_write;
		e[i].accesses = c->n;
		e[i].bytes = c->bytes;
	}
	sqlite3_bind_blob(st, k, enc, (int)dgbf_encode(e, x->n_fns, enc), free);
	return 0;
}

static int block_write(struct importer *imp, uint32_t b)
{
	struct imp_block *x = &imp->blocks[b];
	sqlite3_stmt *st = imp_db_stmt(imp, ST_BLOCK,
		"INSERT INTO blocks VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11,"
		" ?12, ?13, ?14, ?15, ?16, ?17, ?18)");
	int touched = x->rw.n[0] || x->rw.n[1];
	uint32_t wide[2 * HIST_MAX];

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, x->id);
	sqlite3_bind_int64(st, 2, (int64_t)x->addr);
	sqlite3_bind_int64(st, 3, (int64_t)x->size);
	sqlite3_bind_int64(st, 4, (int64_t)x->alloc_icount);
	if (x->freed) {
		sqlite3_bind_int64(st, 5, (int64_t)x->free_icount);
		sqlite3_bind_int64(st, 7, x->free_thread);
		if (x->free_stack >= 0)
			sqlite3_bind_int64(st, 9, x->free_stack);
	}
	sqlite3_bind_int64(st, 6, x->alloc_thread);
	if (x->alloc_stack >= 0)
		sqlite3_bind_int64(st, 8, x->alloc_stack);
	imp_rw_bind(st, 10, &x->rw);
	if (touched) {
		sqlite3_bind_int64(st, 14, (int64_t)x->first);
		sqlite3_bind_int64(st, 15, (int64_t)x->last);
	}
	if (x->hist) {
		uint8_t *enc = malloc(DGHIST_MAX_BYTES(x->hist_n));
		size_t len = enc ? dghist_encode(hist_counts(x, wide), x->hist_n, enc) : 0;
		sqlite3_bind_int64(st, 16, 1ll << x->hist_shift);
		if (enc)
			sqlite3_bind_blob(st, 17, enc, (int)len, free);
	}
	if (x->n_fns && bind_fns(imp, st, 18, x) < 0)
		return -1;
	if (imp_db_step(imp, st) < 0 || imp_hsum_block(imp, x) < 0
	    || imp_pctype_block(imp, x) < 0)
		return -1;
	free(x->hist);
	x->hist = NULL;
	free(x->more);
	x->more = NULL;
	x->cap_more = 0;
	return 0;
}

/* Room for one more entry: the overflow array grown (4, 8, ... up to
   IMP_BLOCK_FNS_MAX in all), or 0 when there is none, from now on (a pair
   the global table counts must never be added here later, or it would
   have two rows). */
static int fn_room(struct imp_block *x)
{
	unsigned cap = IMP_BLOCK_FNS + x->cap_more, want;
	struct imp_fn_count *m;

	if (x->n_fns < cap)
		return 1;
	if (x->fns_full || cap == IMP_BLOCK_FNS_MAX)
		return 0;
	want = x->cap_more ? 2u * x->cap_more : 4u;
	if (want > IMP_BLOCK_FNS_MAX - IMP_BLOCK_FNS)
		want = IMP_BLOCK_FNS_MAX - IMP_BLOCK_FNS;
	if (!(m = realloc(x->more, want * sizeof *m))) {
		x->fns_full = 1;   /* counted in the global table instead */
		return 0;
	}
	x->more = m;
	x->cap_more = (uint8_t)want;
	return 1;
}

/* d's entry in the block's function counts; d remembers where it was (an
   entry keeps its index while its block lives, and block ids are not
   reused), or that the block's table is full without it (bf_i
   IMP_BLOCK_FNS_MAX: a full table stays full), so that the global table
   counts it: 1.  The big blocks of a real program are touched by more
   than IMP_BLOCK_FNS functions, and every access of the others walked the
   whole table.  Past IMP_BLOCK_FNS the entries go to an array of the
   block's own, written and freed with it: in the global table, which
   lives to the end of the import, the objects of an interpreter (a dozen
   functions and more each) had left 3.3 M entries and 250 MB. */
static inline int fn_count(struct imp_block *x, struct imp_desc *d)
{
	struct imp_fn_count *e;
	unsigned i;

	if (d->bf_id == x->id) {
		i = d->bf_i;
		if (i == IMP_BLOCK_FNS_MAX)
			return 1;
		e = fn_entry(x, i);
		e->n++;
		e->bytes += d->size;
		return 0;
	}
	for (i = 0; i < x->n_fns; i++) {
		e = fn_entry(x, i);
		if (e->fn == d->function && e->is_write == d->is_write)
			break;
	}
	d->bf_id = x->id;
	if (i == x->n_fns) {
		if (!fn_room(x)) {
			d->bf_i = IMP_BLOCK_FNS_MAX;
			return 1;
		}
		e = fn_entry(x, i);
		e->fn = d->function;
		e->is_write = d->is_write;
		e->n = e->bytes = 0;
		x->n_fns++;
	}
	d->bf_i = (uint8_t)i;
	e = fn_entry(x, i);
	e->n++;
	e->bytes += d->size;
	return 0;
}

/* A slot for a new block: a freed one, or a new one at the end. */
static int slot_take(struct importer *imp, uint32_t *b)
{
	if (imp->n_free_slots) {
		*b = imp->free_slots[--imp->n_free_slots];
		return 0;
	}
	if (dg_grow((void **)&imp->blocks, &imp->cap_blocks, imp->n_slots + 1, sizeof *imp->blocks) < 0)
		return imp_fail(imp, "out of memory");
	*b = (uint32_t)imp->n_slots++;
	return 0;
}

static int slot_give(struct importer *imp, uint32_t b)
{
	if (dg_grow((void **)&imp->free_slots, &imp->cap_free_slots, imp->n_free_slots + 1,
	         sizeof *imp->free_slots) < 0)
		return imp_fail(imp, "out of memory");
	imp->free_slots[imp->n_free_slots++] = b;
	return 0;
}

/* The live block that starts at a (zero-sized ones included). */
static uint32_t find_exact(struct importer *imp, uint64_t a)
{
	uint64_t keys[2] = { SMALL_TAG | a >> SMALL_SHIFT, a >> PAGE_SHIFT };
	size_t i, k;

	for (i = 0; i < 2; i++) {
		uint32_t b = dghash_get(&imp->page_blocks, keys[i]);
		while (b != IMP_NONE && b != 0) {
			if (imp->blocks[b - 1].addr == a)
				return b - 1;
			b = imp->blocks[b - 1].next_in_page;
		}
	}
	k = large_pos(imp, a);
	if (k > 0 && imp->blocks[imp->large[k - 1]].addr == a)
		return imp->large[k - 1];
	return IMP_NONE;
}

int imp_heap_malloc(struct importer *imp, const struct dglog_record *rec)
{
	struct imp_block *x;
	uint32_t b = 0;

	if (slot_take(imp, &b) < 0)
		return -1;
	x = &imp->blocks[b];
	memset(x, 0, sizeof *x);
	x->id = (uint32_t)++imp->n_blocks;
	x->addr = rec->u.block.addr;
	x->size = rec->u.block.size;
	x->alloc_icount = rec->icount;
	x->alloc_thread = rec->thread;
	x->free_stack = -1;
	x->live = 1;
	if (imp_sym_stack(imp, rec->u.block.ips, rec->u.block.n_ips, &x->alloc_stack) < 0
	    || imp_pctype_block_new(imp, x, rec->u.block.ips, rec->u.block.n_ips) < 0)
		return -1;
	if (imp->n_blocks == 1 || x->addr < imp->heap_lo)
		imp->heap_lo = x->addr;
	if (x->addr + x->size > imp->heap_hi)
		imp->heap_hi = x->addr + x->size;
	return block_link(imp, b);    /* size 0: linked, but holds nothing */
}

int imp_heap_free(struct importer *imp, const struct dglog_record *rec)
{
	uint32_t b = find_exact(imp, rec->u.block.addr);
	struct imp_block *x;

	if (b == IMP_NONE)
		return 0;        /* a free of nothing we know: ignored, as the tool does */
	x = &imp->blocks[b];
	block_unlink(imp, b);
	x->live = 0;
	x->freed = 1;
	x->free_icount = rec->icount;
	x->free_thread = rec->thread;
	if (imp_sym_stack(imp, rec->u.block.ips, rec->u.block.n_ips, &x->free_stack) < 0)
		return -1;
	imp_pctype_block_freed(imp, x);
	if (block_write(imp, b) < 0)
		return -1;
	return slot_give(imp, b);
}

/* ------------------------------------------------------------ ranges */

/* Live ranges and open events are kept as index lists, so that the
   per-access and per-run work is proportional to what is live now, not to
   every range or event there ever was. */
static int live_add(uint32_t **list, size_t *n, size_t *cap, uint32_t k)
{
	if (dg_grow((void **)list, cap, *n + 1, sizeof **list) < 0)
		return -1;
	(*list)[(*n)++] = k;
	return 0;
}

static void live_remove(uint32_t *list, size_t *n, size_t at)
{
	memmove(list + at, list + at + 1, (*n - at - 1) * sizeof *list);
	(*n)--;
}

int imp_heap_range(struct importer *imp, const struct dglog_record *rec)
{
	const struct dglog_range *r = &rec->u.range;
	struct imp_range *x;
	size_t k;

	if (rec->type == DG_R_UNTRACK_RANGE) {
		for (k = imp->n_live_ranges; k-- > 0; ) {
			x = &imp->ranges[imp->live_ranges[k]];
			if (x->addr == r->addr && x->len == r->len) {
				x->live = 0;
				x->end_icount = rec->icount;
				live_remove(imp->live_ranges, &imp->n_live_ranges, k);
				imp_field_untrack(imp, r->addr, r->len);
				break;
			}
		}
		return 0;
	}
	if (dg_grow((void **)&imp->ranges, &imp->cap_ranges, imp->n_ranges + 1, sizeof *imp->ranges) < 0)
		return imp_fail(imp, "out of memory");
	x = &imp->ranges[imp->n_ranges++];
	memset(x, 0, sizeof *x);
	x->addr = r->addr;
	x->len = r->len;
	x->start_icount = rec->icount;
	x->thread = rec->thread;
	x->type_name = strdup(r->type_name ? r->type_name : "");
	x->label = strdup(r->label ? r->label : "");
	x->live = 1;
	if (!x->type_name || !x->label
	    || live_add(&imp->live_ranges, &imp->n_live_ranges, &imp->cap_live_ranges,
	                (uint32_t)(imp->n_ranges - 1)) < 0)
		return imp_fail(imp, "out of memory");
	return imp_field_track(imp, x->addr, x->len, x->type_name, &x->type_id);
}

void imp_heap_ranges_touch(struct importer *imp, uint64_t a, const struct imp_desc *d)
{
	size_t k;

	for (k = 0; k < imp->n_live_ranges; k++) {
		struct imp_range *x = &imp->ranges[imp->live_ranges[k]];
		if (a - x->addr < x->len)
			imp_rw_add(&x->rw, d->is_write, 1, d->size);
	}
}

/* ------------------------------------------------------------ events */

int imp_heap_event(struct importer *imp, const struct dglog_record *rec)
{
	const char *label = rec->u.event.label ? rec->u.event.label : "";
	struct imp_event *e;
	size_t k;

	if (rec->type == DG_R_END_EVENT) {
		for (k = imp->n_open_events; k-- > 0; ) {
			e = &imp->events[imp->open_events[k]];
			if (strcmp(e->label, label) == 0) {
				e->open = 0;
				e->end_icount = rec->icount;
				live_remove(imp->open_events, &imp->n_open_events, k);
				break;
			}
		}
		return 0;
	}
	if (dg_grow((void **)&imp->events, &imp->cap_events, imp->n_events + 1, sizeof *imp->events) < 0)
		return imp_fail(imp, "out of memory");
	e = &imp->events[imp->n_events++];
	memset(e, 0, sizeof *e);
	e->label = strdup(label);
	e->thread = rec->thread;
	e->start_icount = rec->icount;
	e->open = 1;
	if (!e->label || live_add(&imp->open_events, &imp->n_open_events,
	                          &imp->cap_open_events, (uint32_t)(imp->n_events - 1)) < 0)
		return imp_fail(imp, "out of memory");
	return 0;
}

void imp_heap_events_add(struct importer *imp, const struct imp_rw *rw)
{
	size_t k;

	for (k = 0; k < imp->n_open_events; k++) {
		struct imp_event *e = &imp->events[imp->open_events[k]];
		imp_rw_add(&e->rw, 0, rw->n[0], rw->bytes[0]);
		imp_rw_add(&e->rw, 1, rw->n[1], rw->bytes[1]);
	}
}

/* ------------------------------------------------------------ finish */

static int write_ranges(struct importer *imp)
{
	sqlite3_stmt *st;
	size_t k;

	if (sqlite3_prepare_v2(imp->db, "INSERT INTO ranges VALUES (?1, ?2, ?3, ?4, ?5, ?6,"
	                       " ?7, ?8, ?9, ?10, ?11, ?12, ?13)", -1, &st, NULL) != SQLITE_OK)
		return imp_db_fail(imp, "prepare");
	for (k = 0; k < imp->n_ranges; k++) {
		const struct imp_range *x = &imp->ranges[k];
		sqlite3_bind_int64(st, 1, (int64_t)k + 1);
		sqlite3_bind_int64(st, 2, (int64_t)x->addr);
		sqlite3_bind_int64(st, 3, (int64_t)x->len);
		sqlite3_bind_text(st, 4, x->type_name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, x->label, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 6, x->thread);
		sqlite3_bind_int64(st, 7, (int64_t)x->start_icount);
		if (!x->live)
			sqlite3_bind_int64(st, 8, (int64_t)x->end_icount);
		imp_rw_bind(st, 9, &x->rw);
		if (x->type_id)
			sqlite3_bind_int64(st, 13, x->type_id);
		else
			sqlite3_bind_null(st, 13);
		if (imp_db_step(imp, st) < 0)
			goto fail;
	}
	sqlite3_finalize(st);
	return 0;
fail:
	sqlite3_finalize(st);
	return -1;
}

static int write_events(struct importer *imp)
{
	sqlite3_stmt *st;
	size_t k;

	if (sqlite3_prepare_v2(imp->db, "INSERT INTO events VALUES (?1, ?2, ?3, ?4, ?5, ?6,"
	                       " ?7, ?8, ?9)", -1, &st, NULL) != SQLITE_OK)
		return imp_db_fail(imp, "prepare");
	for (k = 0; k < imp->n_events; k++) {
		const struct imp_event *e = &imp->events[k];
		sqlite3_bind_int64(st, 1, (int64_t)k + 1);
		sqlite3_bind_text(st, 2, e->label, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, e->thread);
		sqlite3_bind_int64(st, 4, (int64_t)e->start_icount);
		if (!e->open)
			sqlite3_bind_int64(st, 5, (int64_t)e->end_icount);
		imp_rw_bind(st, 6, &e->rw);
		if (imp_db_step(imp, st) < 0) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	sqlite3_finalize(st);
	return 0;
}

static int write_threads(struct importer *imp)
{
	sqlite3_stmt *st;
	size_t k;

	if (sqlite3_prepare_v2(imp->db, "INSERT INTO threads VALUES (?1, ?2, ?3, ?4, ?5,"
	                       " ?6, ?7, ?8, ?9, ?10, ?11)", -1, &st, NULL) != SQLITE_OK)
		return imp_db_fail(imp, "prepare");
	for (k = 0; k < imp->n_threads; k++) {
		const struct imp_thread *t = &imp->threads[k];
		const struct imp_thread_runs *r = &t->r;
		if (!r->runs && !t->known)
			continue;
		sqlite3_bind_int64(st, 1, t->id);
		if (r->runs) {
			sqlite3_bind_int64(st, 2, (int64_t)r->first);
			sqlite3_bind_int64(st, 3, (int64_t)r->last);
		}
		sqlite3_bind_int64(st, 4, (int64_t)r->runs);
		sqlite3_bind_int64(st, 5, (int64_t)r->accesses);
		imp_rw_bind(st, 6, &r->rw);
		if (r->rw.n[0] || r->rw.n[1]) {
			sqlite3_bind_int64(st, 10, (int64_t)r->first_access);
			sqlite3_bind_int64(st, 11, (int64_t)r->last_access);
		}
		if (imp_db_step(imp, st) < 0) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	sqlite3_finalize(st);
	return 0;
}

int imp_heap_finish(struct importer *imp)
{
	size_t b;

	for (b = 0; b < imp->n_slots; b++)
		if (!imp->blocks[b].freed && block_write(imp, (uint32_t)b) < 0)
			return -1;
	return write_ranges(imp) < 0 || write_events(imp) < 0 || write_threads(imp) < 0
	       || imp_hsum_finish(imp) < 0 ? -1 : 0;
}

void imp_heap_release(struct importer *imp)
{
	size_t k;

	for (k = 0; k < imp->n_slots; k++) {
		free(imp->blocks[k].hist);
		free(imp->blocks[k].bc);
		free(imp->blocks[k].more);
	}
	free(imp->blocks);
	free(imp->free_slots);
	free(imp->large);
	imp->blocks = NULL;
	imp->free_slots = NULL;
	imp->large = NULL;
	imp->n_slots = imp->cap_blocks = 0;
	imp->n_free_slots = imp->cap_free_slots = 0;
	imp->n_large = imp->cap_large = 0;
	dghash_free(&imp->page_blocks);
}

void imp_heap_free_all(struct importer *imp)
{
	size_t k;

	imp_heap_release(imp);
	imp_hsum_free(imp);
	for (k = 0; k < imp->n_ranges; k++) {
		free(imp->ranges[k].type_name);
		free(imp->ranges[k].label);
	}
	for (k = 0; k < imp->n_events; k++)
		free(imp->events[k].label);
	free(imp->ranges);
	free(imp->live_ranges);
	free(imp->events);
	free(imp->open_events);
	free(imp->threads);
}
