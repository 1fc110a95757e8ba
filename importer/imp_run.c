/* imp_run.c: runs.  Each run is appended to the chunk being built (the
 * codec of lib/dgchunk) and each of its accesses is counted into the
 * summaries: per instruction, per heap block, per function x block, per
 * page and cache line, per tracked range and user event.  The per-desc
 * caches in struct imp_desc make the usual case cheap: an instruction tends
 * to hit the same block, page and line as the last time it ran.
 */
#include <stdlib.h>
#include <string.h>
#include "imp.h"
#include "imp_sum.h"
#include "dgmem.h"


/* A chunk table starts small and grows (cell_grow) to stay at most a
   quarter full: at most IMP_CHUNK_MAX keys a chunk, so at most
   4 * IMP_CHUNK_MAX slots, but a small log never pays for that. */
#define CELLS_INITIAL 1024

static int cells_alloc(struct imp_chunk_cells *cp, uint32_t cap)
{
	cp->cap = cap;
	cp->n_used = 0;
	cp->page = malloc(cap * sizeof *cp->page);
	cp->rw = calloc(cap, sizeof *cp->rw);
	cp->used = malloc(cap * sizeof *cp->used);
	if (!cp->page || !cp->rw || !cp->used)
		return -1;
	memset(cp->page, 0xFF, cap * sizeof *cp->page);   /* all empty */
	return 0;
}

static int cells_init(struct imp_chunk_cells *cp)
{
	return cells_alloc(cp, CELLS_INITIAL);
}

static void cells_free(struct imp_chunk_cells *cp)
{
	free(cp->page);
	free(cp->rw);
	free(cp->used);
}

int imp_run_init(struct importer *imp)
{
	if (cells_init(&imp->cells) < 0 || cells_init(&imp->cellagg) < 0)
		return imp_fail(imp, "out of memory");
	dgchunk_init(&imp->codec);
	if (dghash_init(&imp->pages, 1024) < 0 || dghash_init(&imp->lines, 4096) < 0
	    || dghash_init(&imp->fnblock, 1024) < 0)
		return imp_fail(imp, "out of memory");
	return 0;
}

void imp_run_free(struct importer *imp)
{
	imp_sum_free(imp);
	dgchunk_free(&imp->codec);
	dgchunk_buf_free(&imp->chunk);
	dghash_free(&imp->pages);
	dghash_free(&imp->lines);
	dghash_free(&imp->fnblock);
	free(imp->page_cnt);
	free(imp->line_cnt);
	free(imp->fb);
	free(imp->descs);
	free(imp->bbdef_desc);
	free(imp->ctx_bbdef);
	free(imp->ctx_chunk);
	free(imp->chunk_ctx_list);
	free(imp->chunk_regions);
	cells_free(&imp->cells);
	cells_free(&imp->cellagg);
}

/* ------------------------------------------------------------ definitions */

static int bbdef_rows(struct importer *imp, uint64_t idx, const struct dglog_bbdef *d)
{
	sqlite3_stmt *b = imp_db_stmt(imp, ST_BBDEF,
		"INSERT INTO bbdefs VALUES (?1, ?2, ?3, ?4, ?5)");
	sqlite3_stmt *in = imp_db_stmt(imp, ST_INSTR,
		"INSERT INTO instrs VALUES (?1, ?2, ?3, ?4)");
	sqlite3_stmt *ac = imp_db_stmt(imp, ST_DESC,
		"INSERT INTO access_descs VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
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
		if (imp_db_step(imp, ac) < 0)
			return -1;
	}
	return 0;
}

int imp_run_bbdef(struct importer *imp, const struct dglog_bbdef *d)
{
	uint64_t idx = imp->n_bbdefs;
	uint32_t i;

	/* a run must fit in one chunk (and the chunk's cell table) */
	if (d->n_accesses > IMP_CHUNK_MAX)
		return imp_fail(imp, "%s: byte %llu: bbdef %llu has %u accesses; "
		                "the importer takes at most %u a block", imp->log_path,
		                (unsigned long long)imp->log.rec_off,
		                (unsigned long long)idx, d->n_accesses, IMP_CHUNK_MAX);
	if (dg_grow((void **)&imp->bbdef_desc, &imp->cap_bbdefs, idx + 1, sizeof *imp->bbdef_desc) < 0
	    || dg_grow((void **)&imp->descs, &imp->cap_descs, imp->n_descs + d->n_accesses,
	            sizeof *imp->descs) < 0)
		return imp_fail(imp, "out of memory");
	imp->bbdef_desc[idx] = (uint32_t)imp->n_descs;
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
		x->region_chunk = IMP_NONE;
		x->cp_gen = IMP_NONE;
		if (imp_sym_pc(imp, x->pc, &x->function) < 0)
			return -1;
	}
	imp->n_descs += d->n_accesses;
	imp->n_bbdefs++;
	return bbdef_rows(imp, idx, d);
}

int imp_run_context(struct importer *imp, const struct dglog_context *c)
{
	sqlite3_stmt *st = imp_db_stmt(imp, ST_CONTEXT,
		"INSERT INTO contexts VALUES (?1, ?2, ?3)");
	const struct dglog_bbdef *d = dglog_bbdef(&imp->log, c->bbdef);
	uint64_t idx = imp->n_ctx;
	int64_t stack;

	if (!st)
		return -1;
	if (dg_grow((void **)&imp->ctx_bbdef, &imp->cap_ctx, idx + 1, sizeof *imp->ctx_bbdef) < 0)
		return imp_fail(imp, "out of memory");
	imp->ctx_chunk = realloc(imp->ctx_chunk, imp->cap_ctx * sizeof *imp->ctx_chunk);
	if (!imp->ctx_chunk || dgchunk_add_context(&imp->codec, d->n_instrs, d->n_accesses) < 0)
		return imp_fail(imp, "out of memory");
	imp->ctx_bbdef[idx] = c->bbdef;
	imp->ctx_chunk[idx] = IMP_NONE;
	imp->n_ctx++;
	if (imp_sym_stack(imp, c->stack, c->depth, &stack) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, (int64_t)idx);
	sqlite3_bind_int64(st, 2, c->bbdef);
	sqlite3_bind_int64(st, 3, stack);
	return imp_db_step(imp, st);
}

/* ------------------------------------------------------------ chunks */

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint32_t cell_insert(struct imp_chunk_cells *cp, uint64_t page)
{
	uint32_t mask = cp->cap - 1, i = (uint32_t)dghash_mix(page) & mask;

	while (cp->page[i] != page) {
		if (cp->page[i] == UINT64_MAX) {
			cp->page[i] = page;
			cp->used[cp->n_used++] = i;
			break;
		}
		i = (i + 1) & mask;
	}
	return i;
}

static void cells_free(struct imp_chunk_cells *cp);

/* Four times the slots, the keys and counts moved over.  Slots change, so
   the generation goes up: the descs' cached slots are stale. */
static int cell_grow(struct importer *imp, struct imp_chunk_cells *cp)
{
	struct imp_chunk_cells old = *cp;
	uint32_t k;

	if (cells_alloc(cp, old.cap * 4) < 0) {
		cells_free(cp);
		*cp = old;
		return imp_fail(imp, "out of memory");
	}
	for (k = 0; k < old.n_used; k++) {
		uint32_t i = old.used[k], j = cell_insert(cp, old.page[i]);
		cp->rw[j][0] = old.rw[i][0];
		cp->rw[j][1] = old.rw[i][1];
	}
	cells_free(&old);
	imp->cells_gen++;
	return 0;
}

/* Slot of a key (a 64-byte line or a 256-byte cell) in a chunk table, in
   *slot; keys are below 2^58, so the all-ones key marks an empty slot. */
static int cell_slot(struct importer *imp, struct imp_chunk_cells *cp, uint64_t page,
                     uint32_t *slot)
{
	if (4 * (cp->n_used + 1) > cp->cap && cell_grow(imp, cp) < 0)
		return -1;
	*slot = cell_insert(cp, page);
	return 0;
}

static int counter(struct importer *imp, struct dghash *h, uint64_t key,
                   uint64_t (**arr)[2], size_t *cap, uint32_t *slot);

/* Add a chunk line's counts to sum_lines and sum_pages, and to its 256-byte
   cell in the chunk's cell table. */
static int line_fold(struct importer *imp, uint64_t line, const uint64_t rw[2])
{
	uint32_t s;
	uint32_t c;

	if (counter(imp, &imp->lines, line, &imp->line_cnt, &imp->cap_line, &s) < 0)
		return -1;
	imp->line_cnt[imp->lines.vals[s]][0] += rw[0];
	imp->line_cnt[imp->lines.vals[s]][1] += rw[1];
	if (counter(imp, &imp->pages, line >> 6, &imp->page_cnt, &imp->cap_page, &s) < 0)
		return -1;
	imp->page_cnt[imp->pages.vals[s]][0] += rw[0];
	imp->page_cnt[imp->pages.vals[s]][1] += rw[1];
	if (cell_slot(imp, &imp->cellagg, line >> 2, &c) < 0)
		return -1;
	imp->cellagg.rw[c][0] += rw[0];
	imp->cellagg.rw[c][1] += rw[1];
	return 0;
}

static int cell_cmp(const void *a, const void *b, void *table)
{
	const struct imp_chunk_cells *cp = table;
	uint64_t x = cp->page[*(const uint32_t *)a], y = cp->page[*(const uint32_t *)b];

	return x < y ? -1 : x > y;
}

/* Empty a chunk table: its used slots back to empty. */
static void cells_clear(struct imp_chunk_cells *cp)
{
	uint32_t k;

	for (k = 0; k < cp->n_used; k++) {
		uint32_t i = cp->used[k];
		cp->page[i] = UINT64_MAX;
		cp->rw[i][0] = cp->rw[i][1] = 0;
	}
	cp->n_used = 0;
}

static int chunk_cells_rows(struct importer *imp)
{
	struct imp_chunk_cells *lines = &imp->cells, *cells = &imp->cellagg;
	sqlite3_stmt *st = imp_db_stmt(imp, ST_CHUNKPAGE,
		"INSERT INTO chunk_cells VALUES (?1, ?2, ?3, ?4)");
	uint32_t k;

	if (!st)
		return -1;
	for (k = 0; k < lines->n_used; k++) {
		uint32_t i = lines->used[k];
		if (line_fold(imp, lines->page[i], lines->rw[i]) < 0)
			return -1;
	}
	/* in key order, so that the rows append to the table's b-tree */
	qsort_r(cells->used, cells->n_used, sizeof *cells->used, cell_cmp, cells);
	for (k = 0; k < cells->n_used; k++) {
		uint32_t i = cells->used[k];
		sqlite3_bind_int64(st, 1, imp->chunk_id);
		sqlite3_bind_int64(st, 2, (int64_t)cells->page[i]);
		sqlite3_bind_int64(st, 3, (int64_t)cells->rw[i][0]);
		sqlite3_bind_int64(st, 4, (int64_t)cells->rw[i][1]);
		if (imp_db_step(imp, st) < 0)
			return -1;
	}
	cells_clear(lines);
	cells_clear(cells);
	return 0;
}

static int chunk_rows(struct importer *imp)
{
	sqlite3_stmt *r = imp_db_stmt(imp, ST_REGION, "INSERT OR IGNORE INTO chunk_regions VALUES (?1, ?2)");
	sqlite3_stmt *c = imp_db_stmt(imp, ST_CHUNKCTX, "INSERT INTO chunk_contexts VALUES (?1, ?2)");
	size_t i;

	if (!r || !c)
		return -1;
	if (imp->n_chunk_regions)      /* the array is NULL until first used */
		qsort(imp->chunk_regions, imp->n_chunk_regions, sizeof(uint64_t), u64_cmp);
	for (i = 0; i < imp->n_chunk_regions; i++) {
		if (i && imp->chunk_regions[i] == imp->chunk_regions[i - 1])
			continue;
		sqlite3_bind_int64(r, 1, (int64_t)imp->chunk_regions[i]);
		sqlite3_bind_int64(r, 2, imp->chunk_id);
		if (imp_db_step(imp, r) < 0)
			return -1;
	}
	for (i = 0; i < imp->n_chunk_ctx; i++) {
		sqlite3_bind_int64(c, 1, (int64_t)imp->chunk_ctx_list[i]);
		sqlite3_bind_int64(c, 2, imp->chunk_id);
		if (imp_db_step(imp, c) < 0)
			return -1;
	}
	return 0;
}

int imp_run_flush(struct importer *imp)
{
	sqlite3_stmt *st;

	if (imp->chunk_runs == 0)
		return 0;
	st = imp_db_stmt(imp, ST_CHUNK,
		"INSERT INTO chunks VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, imp->chunk_id);
	sqlite3_bind_int64(st, 2, imp->chunk_thread);
	sqlite3_bind_int64(st, 3, (int64_t)imp->chunk_icount_lo);
	sqlite3_bind_int64(st, 4, (int64_t)imp->chunk_icount_next);
	sqlite3_bind_int64(st, 5, imp->chunk_accesses ? (int64_t)imp->chunk_addr_lo : 0);
	sqlite3_bind_int64(st, 6, (int64_t)imp->chunk_addr_hi);
	sqlite3_bind_int64(st, 7, (int64_t)imp->chunk_runs);
	sqlite3_bind_int64(st, 8, (int64_t)imp->chunk_accesses);
	sqlite3_bind_blob(st, 9, imp->chunk.data, (int)imp->chunk.len, SQLITE_STATIC);
	if (imp_db_step(imp, st) < 0 || chunk_rows(imp) < 0 || chunk_cells_rows(imp) < 0)
		return -1;
	imp->chunk_runs = 0;
	return 0;
}

static int chunk_start(struct importer *imp, const struct dglog_run *run)
{
	imp->chunk_id++;
	imp->cells_gen++;          /* a new chunk: the cached slots are stale */
	imp->chunk_thread = run->thread;
	imp->chunk_icount_lo = run->icount_start;
	imp->chunk_accesses = 0;
	imp->chunk_addr_lo = UINT64_MAX;
	imp->chunk_addr_hi = 0;
	imp->chunk.len = 0;
	imp->n_chunk_ctx = 0;
	imp->n_chunk_regions = 0;
	dgchunk_begin(&imp->codec);
	return 0;
}

/* ------------------------------------------------------------ counters */

/* Counter slot for key in h, whose dense values index arr (pairs). */
static int counter(struct importer *imp, struct dghash *h, uint64_t key,
                   uint64_t (**arr)[2], size_t *cap, uint32_t *slot)
{
	int added;
	long s = dghash_put(h, key, (uint32_t)h->n, &added);

	if (s < 0)
		return imp_fail(imp, "out of memory");
	if (added) {
		if (dg_grow((void **)arr, cap, h->n, sizeof **arr) < 0)
			return imp_fail(imp, "out of memory");
		(*arr)[h->n - 1][0] = (*arr)[h->n - 1][1] = 0;
	}
	*slot = (uint32_t)s;
	return 0;
}

/* An access counts once, into the chunk's line table: small and in cache.
   The chunk's lines go into sum_lines, sum_pages and chunk_cells when it is
   flushed (chunk_cells_rows): a hash update per line a chunk touches, not
   per access. */
static inline int count_line(struct importer *imp, struct imp_desc *d, uint64_t a)
{
	if (d->cp_gen != imp->cells_gen || d->cell != a >> 6) {
		if (cell_slot(imp, &imp->cells, a >> 6, &d->cp_slot) < 0)
			return -1;
		d->cp_gen = imp->cells_gen;
		d->cell = a >> 6;
	}
	imp->cells.rw[d->cp_slot][d->is_write]++;
	return 0;
}

/* Accesses by function x block x direction: in the block's own record while
   it has room (so they go out with the block when it is freed), else in
   the global table, which also holds the accesses outside the heap. */
static int count_fn_block(struct importer *imp, struct imp_desc *d, uint32_t b)
{
	uint32_t bid = b == IMP_NONE ? 0 : imp->blocks[b].id;
	uint64_t key;
	long s;
	int added;

	if (b != IMP_NONE && imp_heap_fn_count(imp, b, d) == 0)
		return 0;
	if (d->fb_block != bid || d->fb_gen != imp->fnblock.gen) {
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
		d->fb_slot = (uint32_t)s;
		d->fb_block = bid;
		d->fb_gen = imp->fnblock.gen;
	}
	imp->fb[imp->fnblock.vals[d->fb_slot]].n++;
	imp->fb[imp->fnblock.vals[d->fb_slot]].bytes += d->size;
	return 0;
}

static int note_region(struct importer *imp, struct imp_desc *d, uint64_t a)
{
	uint64_t region = a >> 16;

	if (d->region == region && d->region_chunk == imp->chunk_id)
		return 0;
	d->region = region;
	d->region_chunk = imp->chunk_id;
	if (imp->n_chunk_regions && imp->chunk_regions[imp->n_chunk_regions - 1] == region)
		return 0;
	if (dg_grow((void **)&imp->chunk_regions, &imp->cap_chunk_regions,
	         imp->n_chunk_regions + 1, sizeof *imp->chunk_regions) < 0)
		return imp_fail(imp, "out of memory");
	imp->chunk_regions[imp->n_chunk_regions++] = region;
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

	d->count++;
	if (a < imp->chunk_addr_lo)
		imp->chunk_addr_lo = a;
	if (a > imp->chunk_addr_hi)
		imp->chunk_addr_hi = a;
	if (!block_has(imp, b, a)) {
		b = imp_heap_find(imp, a);
		d->block = b;
	}
	if (b != IMP_NONE)
		imp_heap_touch(imp, b, a, icount, d);
	if (imp->n_live_ranges)
		imp_heap_ranges_touch(imp, a, d);
	if (note_region(imp, d, a) < 0 || count_fn_block(imp, d, b) < 0)
		return -1;
	return count_line(imp, d, a);
}

int imp_run(struct importer *imp, const struct dglog_run *run)
{
	struct imp_desc *d = imp->descs + imp->bbdef_desc[run->bbdef];
	struct imp_thread *t = imp_thread(imp, run->thread);
	struct imp_rw rw = { { 0, 0 }, { 0, 0 } };
	uint64_t made = 0, first_ic = 0, last_ic = 0;
	uint32_t i;

	if (!t)
		return imp->err[0] ? -1 : imp_fail(imp, "out of memory");
	if (imp->chunk_runs && (run->thread != imp->chunk_thread
	    || run->icount_start != imp->chunk_icount_next
	    || imp->chunk_accesses + run->n_addrs > IMP_CHUNK_MAX))
		if (imp_run_flush(imp) < 0)
			return -1;
	if (imp->chunk_runs == 0)
		chunk_start(imp, run);
	if (dgchunk_put_run(&imp->codec, &imp->chunk, run->context, run->partial,
	                    run->n_instrs, run->addrs, run->n_addrs) < 0)
		return imp_fail(imp, "out of memory");
	if (imp->ctx_chunk[run->context] != imp->chunk_id) {
		imp->ctx_chunk[run->context] = imp->chunk_id;
		if (dg_grow((void **)&imp->chunk_ctx_list, &imp->cap_chunk_ctx,
		         imp->n_chunk_ctx + 1, sizeof *imp->chunk_ctx_list) < 0)
			return imp_fail(imp, "out of memory");
		imp->chunk_ctx_list[imp->n_chunk_ctx++] = run->context;
	}
	for (i = 0; i < run->n_addrs; i++) {
		uint64_t a = run->addrs[i];
		if (a == 0 && d[i].guarded)
			continue;
		if (access_count(imp, &d[i], a, run->icount_start + d[i].iseq) < 0)
			return -1;
		if (!made++)
			first_ic = run->icount_start + d[i].iseq;
		last_ic = run->icount_start + d[i].iseq;
		imp_rw_add(&rw, d[i].is_write, 1, d[i].size);
	}
	if (imp->n_open_events)
		imp_heap_events_add(imp, &rw);
	imp->chunk_runs++;
	imp->chunk_accesses += made;
	imp->chunk_icount_next = run->icount_start + run->n_instrs;
	imp->runs++;
	imp->accesses += made;
	if (!t->seen) {
		t->first = run->icount_start;
		t->seen = 1;
	}
	t->last = run->icount_start + run->n_instrs;
	t->runs++;
	if (made) {
		if (!t->rw.n[0] && !t->rw.n[1])
			t->first_access = first_ic;
		t->last_access = last_ic;
		imp_rw_add(&t->rw, 0, rw.n[0], rw.bytes[0]);
		imp_rw_add(&t->rw, 1, rw.n[1], rw.bytes[1]);
	}
	t->accesses += made;
	return imp_sum_run(imp, run, made);
}

/* ------------------------------------------------------------ summaries */

static int write_counts(struct importer *imp, const char *sql, struct dghash *h,
                        uint64_t (*cnt)[2])
{
	sqlite3_stmt *st;
	size_t i;

	if (sqlite3_prepare_v2(imp->db, sql, -1, &st, NULL) != SQLITE_OK)
		return imp_db_fail(imp, "prepare");
	for (i = 0; i < h->cap; i++) {
		if (!h->used[i])
			continue;
		sqlite3_bind_int64(st, 1, (int64_t)h->keys[i]);
		sqlite3_bind_int64(st, 2, (int64_t)cnt[h->vals[i]][0]);
		sqlite3_bind_int64(st, 3, (int64_t)cnt[h->vals[i]][1]);
		if (imp_db_step(imp, st) < 0) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	sqlite3_finalize(st);
	return 0;
}

int imp_fn_block_row(struct importer *imp, uint32_t fn, uint32_t block_id,
                     int is_write, uint64_t n, uint64_t bytes)
{
	sqlite3_stmt *st = imp_db_stmt(imp, ST_FNBLOCK,
		"INSERT INTO sum_fn_block VALUES (?1, ?2, ?3, ?4, ?5)");

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

static int write_fn_block(struct importer *imp)
{
	size_t i;

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

	if (imp_db_exec(imp, "CREATE TEMP TABLE desc_counts (pc, is_write, n, bytes)") < 0
	    || sqlite3_prepare_v2(imp->db, "INSERT INTO desc_counts VALUES (?1, ?2, ?3, ?4)",
	                          -1, &st, NULL) != SQLITE_OK)
		return imp_db_fail(imp, "prepare");
	for (i = 0; i < imp->n_descs; i++) {
		const struct imp_desc *d = &imp->descs[i];
		if (!d->count)
			continue;
		sqlite3_bind_int64(st, 1, (int64_t)d->pc);
		sqlite3_bind_int(st, 2, d->is_write);
		sqlite3_bind_int64(st, 3, (int64_t)d->count);
		sqlite3_bind_int64(st, 4, (int64_t)(d->count * d->size));
		if (imp_db_step(imp, st) < 0) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	sqlite3_finalize(st);
	return imp_db_exec(imp, "INSERT INTO sum_pc SELECT pc, is_write, sum(n), sum(bytes) "
	                        "FROM desc_counts GROUP BY pc, is_write; DROP TABLE desc_counts");
}

int imp_run_finish(struct importer *imp)
{
	if (imp_run_flush(imp) < 0)
		return -1;
	if (write_counts(imp, "INSERT INTO sum_pages VALUES (?1, ?2, ?3)", &imp->pages, imp->page_cnt) < 0
	    || write_counts(imp, "INSERT INTO sum_lines VALUES (?1, ?2, ?3)", &imp->lines, imp->line_cnt) < 0
	    || write_fn_block(imp) < 0 || write_sum_pc(imp) < 0 || imp_sum_finish(imp) < 0)
		return -1;
	return 0;
}
