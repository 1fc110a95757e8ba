/* imp_run.c: runs.  Each run is copied into the chunk being filled, which
 * the chunk writer thread encodes and writes (imp_chunk.c, with the counts
 * by line, page and cell), imp_sum's stage thread counts by context and
 * imp_win's by window and class (from the heap bit of each access, which
 * this loop stores beside the addresses), and each of its accesses is
 * counted here into the summaries that follow the heap's records: per
 * instruction, per heap block, per function x block, per tracked range and
 * user event (they need the heap as it was at the access, so they stay on
 * the import thread).  The per-desc caches in struct imp_desc make the
 * usual case cheap: an instruction tends to hit the same block as the last
 * time it ran.
 */
#include <stdlib.h>
#include <string.h>
#include "imp_run.h"
#include "imp.h"
#include "imp_db.h"
#include "imp_heap.h"
#include "imp_sym.h"
#include "imp_chunk.h"
#include "imp_field.h"
#include "imp_hsum.h"
#include "imp_pctype.h"
#include "imp_sum.h"
#include "imp_cls.h"
#include "imp_win.h"
#include "dgmem.h"


int imp_run_init(struct importer *imp)
{
	struct imp_chunk_stage stages[2];

	memset(stages, 0, sizeof stages);     /* a stage says what it sets */
	/* descs is never NULL: a bbdef without accesses, defined first, still
	   takes imp->descs + its offset (UBSan: an offset on a null pointer) */
	if (dghash_init(&imp->fnblock, 1024) < 0
	    || dg_grow((void **)&imp->descs, &imp->cap_descs, 1, sizeof *imp->descs) < 0)
		return imp_fail(imp, "out of memory");
	if (imp_sum_init(imp, &stages[0]) < 0 || imp_win_init(imp, &stages[1]) < 0)
		return -1;
	/* the import thread is one of them: the rest consume the chunks */
	return imp_chunk_start(imp, stages, 2, imp->use_threads - 1);
}

void imp_run_free(struct importer *imp)
{
	size_t i;

	imp_chunk_free(imp);       /* first: the writer and stages read the kinds */
	imp_sum_free(imp);
	imp_win_free(imp);
	imp_cls_free(imp);
	dghash_free(&imp->fnblock);
	free(imp->fb);
	free(imp->descs);
	free(imp->bbdef_desc);
	for (i = 0; i < imp->n_bbdefs; i++)
		free(imp->bbdef_kinds[i]);
	free(imp->bbdef_kinds);
	free(imp->ctx_bbdef);
}

/* ------------------------------------------------------------ definitions */

/* The rows of bbdef idx; its descriptors (with their modules) are made. */
static int bbdef_rows(struct importer *imp, uint64_t idx, const struct dglog_bbdef *d)
{
	const struct imp_desc *x = &imp->descs[imp->bbdef_desc[idx]];
	sqlite3_stmt *b = imp_db_stmt(imp, ST_BBDEF,
		"INSERT INTO bbdefs VALUES (?1, ?2, ?3, ?4, ?5)");
	sqlite3_stmt *in = imp_db_stmt(imp, ST_INSTR,
		"INSERT INTO instrs VALUES (?1, ?2, ?3, ?4)");
	sqlite3_stmt *ac = imp_db_stmt(imp, ST_DESC,
		"INSERT INTO access_descs VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
	uint32_t i;

	if (!b || !in || !ac)
		return -1;
	sqlite3_bind_int64(b, 1, (int64_t)idx);
	sqlite3_bind_int64(b, 2, (int64_t)d->instrs[0].addr);
	sqlite3_bind_int(b, 3, (int)d->n_instrs);
	sqlite3_bind_int(b, 4, (int)d->n_accesses);
	sqlite3_bind_int(b, 5, d->exit_kind);
	if (imp_db_step(imp, b) < 0)
		return -1;
	for (i = 0; i < d->n_instrs; i++) {
		sqlite3_bind_int64(in, 1, (int64_t)idx);
		sqlite3_bind_int(in, 2, (int)i);
		sqlite3_bind_int64(in, 3, (int64_t)d->instrs[i].addr);
		sqlite3_bind_int(in, 4, d->instrs[i].size);
		if (imp_db_step(imp, in) < 0)
			return -1;
	}
	for (i = 0; i < d->n_accesses; i++) {
		const struct dglog_access *a = &d->accesses[i];
		sqlite3_bind_int64(ac, 1, (int64_t)idx);
		sqlite3_bind_int(ac, 2, (int)i);
		sqlite3_bind_int(ac, 3, a->iseq);
		sqlite3_bind_int64(ac, 4, (int64_t)dglog_pc(d, i));
		sqlite3_bind_int(ac, 5, a->dir == DG_ACC_WRITE);
		sqlite3_bind_int(ac, 6, a->size);
		sqlite3_bind_int(ac, 7, a->flags);
		sqlite3_bind_int64(ac, 8, x[i].module);
		if (imp_db_step(imp, ac) < 0)
			return -1;
	}
	return 0;
}

int imp_run_bbdef(struct importer *imp, const struct dglog_bbdef *d)
{
	uint64_t idx = imp->n_bbdefs;
	uint8_t *kinds;
	uint32_t *mods, i;
	struct imp_chunk_totals *tot;

	/* a run must fit in one chunk (and the chunk's cell table) */
	if (d->n_accesses > IMP_CHUNK_MAX)
		return imp_fail(imp, "%s: byte %llu: bbdef %llu has %u accesses; "
		                "the importer takes at most %u a block", imp->log_path,
		                (unsigned long long)imp->log.rec_off,
		                (unsigned long long)idx, d->n_accesses, IMP_CHUNK_MAX);
	if (dg_grow((void **)&imp->bbdef_desc, &imp->cap_bbdefs, idx + 1, sizeof *imp->bbdef_desc) < 0
	    || dg_grow((void **)&imp->bbdef_kinds, &imp->cap_bbdef_kinds, idx + 1,
	               sizeof *imp->bbdef_kinds) < 0
	    || dg_grow((void **)&imp->descs, &imp->cap_descs, imp->n_descs + d->n_accesses,
	            sizeof *imp->descs) < 0
	    || !(kinds = malloc(imp_chunk_kinds_size(d->n_accesses))))
		return imp_fail(imp, "out of memory");
	mods = (uint32_t *)(void *)(kinds + imp_chunk_modules_off(d->n_accesses));
	tot = (struct imp_chunk_totals *)(void *)(kinds + imp_chunk_totals_off(d->n_accesses));
	memset(tot, 0, sizeof *tot);
	imp->bbdef_desc[idx] = (uint32_t)imp->n_descs;
	imp->bbdef_kinds[idx] = kinds;
	imp->n_bbdefs++;           /* from here on, imp_run_free frees kinds */
	for (i = 0; i < d->n_accesses; i++) {
		struct imp_desc *x = &imp->descs[imp->n_descs + i];
		memset(x, 0, sizeof *x);
		x->pc = dglog_pc(d, i);
		x->is_write = d->accesses[i].dir == DG_ACC_WRITE;
		x->size = d->accesses[i].size;
		x->iseq = d->accesses[i].iseq;
		x->guarded = (d->accesses[i].flags & DG_AF_GUARDED) != 0;
		x->block = IMP_NONE;
		x->fb_block = IMP_NONE;
		kinds[i] = (x->is_write ? IMP_K_WRITE : 0) | (x->guarded ? IMP_K_GUARDED : 0);
		kinds[d->n_accesses + i] = x->iseq;     /* the iseqs follow the kinds */
		kinds[2 * d->n_accesses + i] = x->size; /* then the sizes */
		if (imp_sym_pc(imp, x->pc, &x->function, &x->module) < 0
		    || imp_pctype_desc(imp, x) < 0)
			return -1;
		mods[i] = x->module;
		tot->n[x->is_write]++;
		tot->bytes[x->is_write] += x->size;
		tot->any_guarded |= x->guarded;
	}
	imp->n_descs += d->n_accesses;
	return bbdef_rows(imp, idx, d);
}

int imp_run_context(struct importer *imp, const struct dglog_context *c)
{
	const struct dglog_bbdef *d = dglog_bbdef(&imp->log, c->bbdef);
	uint64_t idx = imp->n_ctx;
	int64_t stack;
	const uint32_t *words = NULL;
	uint32_t n_words = 0;

	if (dg_grow((void **)&imp->ctx_bbdef, &imp->cap_ctx, idx + 1, sizeof *imp->ctx_bbdef) < 0)
		return imp_fail(imp, "out of memory");
	if (imp_sym_stack(imp, c->stack, c->depth, &stack) < 0
	    || imp_cls_words(imp, c->bbdef, stack, &words, &n_words) < 0
	    || imp_chunk_context(imp, d->n_instrs, d->n_accesses, words, n_words) < 0)
		return -1;
	imp->ctx_bbdef[idx] = c->bbdef;
	imp->n_ctx++;
	return imp_chunk_row(imp, IMP_ROWS_CONTEXTS,
	                     (const int64_t[]){ (int64_t)idx, (int64_t)c->bbdef, stack });
}

/* ------------------------------------------------------------ chunks */

int imp_run_flush(struct importer *imp)
{
	struct imp_chunk_head h;

	if (imp->chunk_runs == 0)
		return 0;
	h.thread = imp->chunk_thread;
	h.icount_lo = imp->chunk_icount_lo;
	h.icount_next = imp->chunk_icount_next;
	h.accesses = imp->chunk_accesses;
	imp->chunk_runs = 0;
	return imp_chunk_flush(imp, &h);
}

static void chunk_start(struct importer *imp, const struct dglog_run *run)
{
	imp->chunk_thread = run->thread;
	imp->chunk_id++;           /* as the writer numbers them: from 1 */
	imp->chunk_icount_lo = run->icount_start;
	imp->chunk_accesses = 0;
}

/* ------------------------------------------------------------ counters */

/* d's accesses counted in d->fb_n into its entry of the global table. */
static void fn_block_flush(struct importer *imp, struct imp_desc *d)
{
	imp->fb[d->fb_idx].n += d->fb_n;
	imp->fb[d->fb_idx].bytes += d->fb_n * d->size;
	d->fb_n = 0;
}

/* Accesses by function x block x direction: in the block's own record while
   it has room (so they go out with the block when it is freed), else in
   the global table, which also holds the accesses outside the heap.  There
   they are counted in the descriptor while its block stays the same, and
   added on a change and at the end: the table's entry, the same for one
   function's run of accesses, was a chain of dependent increments. */
static int count_fn_block(struct importer *imp, struct imp_desc *d, uint32_t b)
{
	uint32_t bid = b == IMP_NONE ? 0 : imp->blocks[b].id;
	uint64_t key;
	long s;
	int added;

	if (d->fb_block != bid) {
		if (d->fb_n)
			fn_block_flush(imp, d);
		key = (uint64_t)d->function << 33 | (uint64_t)bid << 1 | d->is_write;
		s = dghash_put(&imp->fnblock, key, (uint32_t)imp->fnblock.n, &added);
		if (s < 0)
			return imp_fail(imp, "out of memory");
		if (added) {
			size_t k = imp->fnblock.n - 1;
			if (dg_grow((void **)&imp->fb, &imp->cap_fb, k + 1, sizeof *imp->fb) < 0)
				return imp_fail(imp, "out of memory");
			imp->fb[k].fn = d->function;
			imp->fb[k].block_id = bid;
			imp->fb[k].is_write = d->is_write;
			imp->fb[k].n = imp->fb[k].bytes = 0;
		}
		d->fb_idx = imp->fnblock.vals[s];   /* dense: stays valid */
		d->fb_block = bid;
	}
	d->fb_n++;
	return 0;
}

static inline int block_has(const struct importer *imp, uint32_t b, uint64_t a)
{
	return b != IMP_NONE && imp->blocks[b].live
	    && a - imp->blocks[b].addr < imp->blocks[b].size;
}

/* Count one access into every summary. */
static int access_count(struct importer *imp, struct imp_desc *d, uint64_t a,
                        uint64_t icount)
{
	uint32_t b = d->block;
	int typed;

	d->count++;
	if (!block_has(imp, b, a)) {
		b = imp_heap_find(imp, a);
		d->block = b;
	}
	if (imp->n_live_ranges)
		imp_heap_ranges_touch(imp, a, d);
	typed = imp_field_wanted(imp, d, a) ? imp_field_access(imp, d, a, icount) : 0;
	if (!typed)
		typed = imp_pctype_access(imp, d, b, a, icount);
	if (typed < 0)
		return -1;
	if (b != IMP_NONE) {       /* meta fields_heap_*: bench/fields.sh's share */
		imp->heap_accesses++;
		imp->heap_typed += (uint64_t)typed;
	}
	if (b != IMP_NONE && imp_hsum_touch(imp, &imp->blocks[b], d, icount) < 0)
		return -1;
	if (b != IMP_NONE && imp_heap_touch(imp, b, a, icount, d) == 0)
		return 0;
	return count_fn_block(imp, d, b);
}

/* The run's accesses into the user events open now. */
static void events_add(struct importer *imp, const struct dglog_run *run,
                       const struct imp_desc *d)
{
	struct imp_rw rw = { { 0, 0 }, { 0, 0 } };
	uint32_t i;

	for (i = 0; i < run->n_addrs; i++)
		if (run->addrs[i] != 0 || !d[i].guarded)
			imp_rw_add(&rw, d[i].is_write, 1, d[i].size);
	imp_heap_events_add(imp, &rw);
}

/* A run: its accesses into the chunk and the summaries that need the heap
   as it is now.  Its thread's counts (the threads table) are the sum
   stage's (imp_sum.h): this thread sets the import's pace. */
int imp_run(struct importer *imp, const struct dglog_run *run)
{
	struct imp_desc *d = imp->descs + imp->bbdef_desc[run->bbdef];
	uint32_t n_acc = (run->bbdef + 1 < imp->n_bbdefs ? imp->bbdef_desc[run->bbdef + 1]
	                  : (uint32_t)imp->n_descs) - imp->bbdef_desc[run->bbdef];
	struct imp_thread *t = run->thread < imp->n_threads ? &imp->threads[run->thread]
	                       : imp_thread(imp, run->thread);
	uint64_t made = 0, *addrs = NULL;
	uint8_t *heap = NULL;
	uint32_t i;

	if (!t)
		return imp->err[0] ? -1 : imp_fail(imp, "out of memory");
	imp->run_thread = run->thread;
	imp->run_t = t;
	if (imp->chunk_runs && (run->thread != imp->chunk_thread
	    || run->icount_start != imp->chunk_icount_next
	    || imp->chunk_accesses + run->n_addrs > IMP_CHUNK_MAX))
		if (imp_run_flush(imp) < 0)
			return -1;
	if (imp->chunk_runs == 0)
		chunk_start(imp, run);
	if (imp_chunk_run(imp, run, imp->bbdef_kinds[run->bbdef], n_acc, &addrs, &heap) < 0)
		return -1;
	imp->run_thread = run->thread;
	for (i = 0; i < run->n_addrs; i++) {
		uint64_t a = run->addrs[i];
		addrs[i] = a;
		heap[i] = 0;
		if (a == 0 && d[i].guarded)
			continue;
		if (access_count(imp, &d[i], a, run->icount_start + d[i].iseq) < 0)
			return -1;
		heap[i] = d[i].block != IMP_NONE;      /* the class's heap bit (imp_win) */
		made++;
	}
	if (imp->n_open_events)
		events_add(imp, run, d);
	imp->chunk_runs++;
	imp->chunk_accesses += made;
	imp->chunk_icount_next = run->icount_start + run->n_instrs;
	imp->runs++;
	imp->accesses += made;
	return 0;
}

/* ------------------------------------------------------------ summaries */

static int write_fn_block(struct importer *imp)
{
	size_t i;

	for (i = 0; i < imp->n_descs; i++)
		if (imp->descs[i].fb_n)
			fn_block_flush(imp, &imp->descs[i]);
	for (i = 0; i < imp->fnblock.n; i++)
		if (imp_fn_block_row(imp, imp->fb[i].fn, imp->fb[i].block_id, imp->fb[i].is_write,
		                     imp->fb[i].n, imp->fb[i].bytes) < 0)
			return -1;
	return 0;
}

static int write_sum_pc(struct importer *imp)
{
	sqlite3_stmt *st;
	size_t i;

	if (imp_db_exec(imp, "CREATE TEMP TABLE desc_counts (pc, module_id, is_write, n, bytes)") < 0
	    || sqlite3_prepare_v2(imp->db, "INSERT INTO desc_counts VALUES (?1, ?2, ?3, ?4, ?5)",
	                          -1, &st, NULL) != SQLITE_OK)
		return imp_db_fail(imp, "prepare");
	for (i = 0; i < imp->n_descs; i++) {
		const struct imp_desc *d = &imp->descs[i];
		if (!d->count)
			continue;
		sqlite3_bind_int64(st, 1, (int64_t)d->pc);
		sqlite3_bind_int64(st, 2, d->module);
		sqlite3_bind_int(st, 3, d->is_write);
		sqlite3_bind_int64(st, 4, (int64_t)d->count);
		sqlite3_bind_int64(st, 5, (int64_t)(d->count * d->size));
		if (imp_db_step(imp, st) < 0) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	sqlite3_finalize(st);
	return imp_db_exec(imp, "INSERT INTO sum_pc SELECT pc, module_id, is_write, sum(n), "
	                        "sum(bytes) FROM desc_counts GROUP BY pc, module_id, is_write; "
	                        "DROP TABLE desc_counts");
}

int imp_run_finish(struct importer *imp)
{
	if (imp_run_flush(imp) < 0 || imp_chunk_finish(imp) < 0)
		return -1;
	if (write_fn_block(imp) < 0 || write_sum_pc(imp) < 0 || imp_sum_finish(imp) < 0
	    || imp_win_finish(imp) < 0 || imp_cls_write(imp) < 0)
		return -1;
	return 0;
}
