/* imp_chunk.c: the chunk writer thread (imp_chunk.h).
 *
 * A job is one chunk: its runs (context, shape, kinds of its accesses) and
 * all their addresses back to back with a heap bit each (1 byte: imp_win's
 * classes need it, and only the import thread knows the heap), plus the
 * shapes of the contexts defined while it was filled and, for the stages,
 * each one's words and the run it came before.  The jobs are a ring under
 * one mutex: the import thread fills job `filled` (mod IMP_CHUNK_JOBS) and
 * hands it over by counting it; each consumer (the writer, then the
 * stages) takes the jobs in order, counting in `taken` those it is done
 * with; a slot is filled again once every consumer is past it.  Consumer
 * threads run the consumers they are given (threads_plan), one job at a
 * time each (`busy`); the import thread, when it would wait for a slot,
 * runs a stage's next job itself, so the two cores stay busy whichever
 * side has more to do.  The writer takes a job once the lines stage has
 * counted its accesses by 64-byte line (imp_win: it hashes every access by
 * line for its windows anyway), encodes its runs, sorts the lines (radix,
 * by key) and derives from
 * that one sorted list the chunk's 256-byte cells (one chunk_cells row, a
 * blob of lib/dgcells) and 64 KiB regions, then writes the chunk's rows.
 * (sum_lines and sum_pages are imp_win's: its count by line and class over
 * the trace adds up to them, so the writer no longer keeps a table of
 * every line for them.)
 *
 * Rows of chunk_regions, keyed (region, chunk), would land all over its
 * b-tree if written chunk by chunk, and at 10^9 accesses that b-tree
 * outgrows SQLite's cache (the chunks' blobs stream through it too): each
 * insert then costs page misses.  So they wait in a bounded batch
 * (PENDING_MAX rows), sorted when it is full and written in key order, one
 * sweep over the b-tree.  The sorted batch is written a
 * slice per chunk (PENDING_SLICES slices) while the next one fills: written
 * at once, a batch held the writer for 0.2-0.5 s, and the import thread,
 * out of free chunks, waited as long (3 s of a 42 s import at 1.5 G
 * accesses).  The contexts of each chunk go to imp_ctxch, which writes
 * context_chunks a row per context, in context order, when its budget
 * (CTXCH_BUDGET) is spent and at the end: a compiler's trace has a few
 * thousand contexts a chunk, and a row a (context, chunk), as
 * chunk_contexts had until schema 11, cost a third of its import.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "imp.h"
#include "imp_db.h"
#include "imp_chunk.h"
#include "imp_ctxch.h"
#include "dgcells.h"
#include "dgmem.h"

#define ROWS_PER_LOCK 1024    /* rows written per hold of the database lock */
#define ROWS_PER_STMT 32      /* rows in one INSERT: fewer statement runs */
#define PENDING_MAX (1u << 19) /* rows of chunk_regions held */
#define CTXCH_BUDGET (64u << 20) /* bytes of context_chunks deltas held */
#define PENDING_SLICES 256    /* a sorted batch is written over this many chunks */
#define WRITEBACK_JOBS 64     /* chunks between two pushes to the disk */

/* An INSERT of rows of `cols` columns into `table`: one row a statement
   and ROWS_PER_STMT rows a statement. */
struct cw_insert {
	const char *table;
	int cols;
	sqlite3_stmt *one, *many;
};

/* Cache-line aligned, like the writer's own fields in struct imp_chunkw:
   the import thread writes the job it fills at every run, and must not share
   a line with what the writer reads meanwhile (false sharing cost a third of
   the import thread's time at 10^9 accesses). */
#define CW_LINE 64

/* The tables of imp_chunk_row, by enum imp_rows. */
static const struct { const char *table; int cols; } row_tables[IMP_ROWS_N] = {
	{ "contexts", 3 }, { "stacks", 3 }, { "callsites", 5 },
};

/* A job's rows of one of them: n values, cols a row. */
struct cw_rows {
	int64_t *v;
	size_t n, cap;
};

struct cw_job {
	struct imp_chunk_head head __attribute__((aligned(CW_LINE)));
	struct imp_chunk_run *runs;
	size_t n_runs, cap_runs;
	uint64_t *addrs;
	size_t n_addrs, cap_addrs;
	uint8_t *heap;                /* by address: in a live heap block */
	size_t cap_heap;
	uint32_t (*shapes)[2];        /* new contexts: n_instrs, n_accesses */
	size_t n_shapes, cap_shapes;
	struct imp_chunk_def *defs;   /* new contexts: the stages' words */
	size_t cap_defs;              /* (n_shapes of them) */
	uint32_t *words;
	size_t n_words, cap_words;
	struct imp_chunk_lines lines; /* the lines stage's, for the writer */
	struct cw_rows rows[IMP_ROWS_N];
};

/* Rows of (key, chunk) waiting to be written in key order. */
struct cw_pending {
	struct imp_chunk_line *rows;  /* key, n[0] the chunk */
	size_t n, cap;
	struct imp_chunk_line *drain; /* the batch before, sorted, being written */
	size_t n_drain, cap_drain, at, slice;   /* at: rows of it written */
	struct cw_insert *ins;
};

/* A consumer takes every job: the writer (number 0) or a stage. */
struct cw_consumer {
	struct imp_chunkw *cw;
	int k;                        /* its index in taken[] */
	struct imp_chunk_stage stage; /* a stage's */
	char err[512];                /* a stage's message (the writer's: cw->err) */
};

/* A consumer thread: it runs the next job of the first of its consumers
   that may go (consumer()); the import thread may run a stage's meanwhile. */
struct cw_thread {
	struct imp_chunkw *cw;
	int ks[1 + IMP_CHUNK_STAGES]; /* its consumers, in the order they run */
	int n_ks;
	pthread_t thread;
	int running;
};

struct imp_chunkw {
	struct importer *imp;
	pthread_mutex_t mu;           /* guards the counters and the flags */
	pthread_cond_t changed;       /* a job was handed over or done, or the end */
	struct cw_job *cur;
	struct cw_job jobs[IMP_CHUNK_JOBS];
	uint64_t filled;              /* jobs handed over */
	uint64_t taken[1 + IMP_CHUNK_STAGES];   /* jobs each consumer is done with */
	struct cw_consumer con[1 + IMP_CHUNK_STAGES];
	int n_con;
	int busy[1 + IMP_CHUNK_STAGES];   /* a thread runs consumer k's next job */
	struct cw_thread thr[1 + IMP_CHUNK_STAGES];
	int n_thr;
	int lines_k;                  /* the lines stage's index in taken[] */
	int done, stop;
	int failed;                   /* 1 + the consumer that failed first, 0 */
	char err[1024];

	/* the writer's own */
	struct dgchunk_codec codec __attribute__((aligned(CW_LINE)));
	struct dgchunk_buf buf;
	uint32_t chunk_id;
	uint32_t *ctx_chunk;          /* chunk in which a context was last listed */
	size_t n_ctx, cap_ctx;
	uint64_t *ctx_list;
	size_t n_ctx_list, cap_ctx_list;
	struct imp_chunk_line *tmp;   /* lines_sort's */
	size_t cap_tmp;
	struct dgcells_cell *cells;   /* 256-byte cells, from the lines */
	size_t n_cells, cap_cells;
	uint8_t *cells_blob;          /* their chunk_cells blob (dgcells.h) */
	size_t cap_cells_blob;        /* in entries of DGCELLS_ENTRY_MAX bytes */
	uint64_t *regions;
	size_t n_regions, cap_regions;
	sqlite3_stmt *st_chunk, *st_cells;
	struct cw_insert ins_region;
	struct cw_pending pend_region;
	struct imp_ctxch ctxch;
	sqlite3_stmt *st_ctxch;
	struct cw_insert ins_rows[IMP_ROWS_N];
	const int64_t *rowv;          /* the rows bind_row binds */
	int row_cols;
	int finished;                 /* imp_chunk_finish is past: no writer */
	const struct imp_chunk_line *pairs;   /* the rows bind_pair binds */
	int wb_fd;                    /* the database file, for writeback(); -1 */
	unsigned wb_jobs;             /* chunks since the last push */
};

static int cw_fail(struct imp_chunkw *cw, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int cw_fail(struct imp_chunkw *cw, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cw->err, sizeof cw->err, fmt, ap);
	va_end(ap);
	return -1;
}

/* With the database lock held. */
static int cw_db_fail(struct imp_chunkw *cw, const char *what)
{
	return cw_fail(cw, "%s: %s: %s", cw->imp->db_path, what, sqlite3_errmsg(cw->imp->db));
}

/* ------------------------------------------------------------ lines */

/* The lines by key (dgmem.h's radix sort: a chunk's lines share their
   high bytes, so most passes are skipped). */
static void lines_sort(struct imp_chunk_line *a, struct imp_chunk_line *tmp, size_t n)
{
	dg_radix_sort(a, tmp, n, sizeof *a);
}

static int cell_push(struct imp_chunkw *cw, const struct imp_chunk_line *c)
{
	if (dg_grow((void **)&cw->cells, &cw->cap_cells, cw->n_cells + 1, sizeof *cw->cells) < 0)
		return cw_fail(cw, "out of memory");
	cw->cells[cw->n_cells++] = (struct dgcells_cell){ c->key, c->n[0], c->n[1] };
	return 0;
}

static int region_push(struct imp_chunkw *cw, uint64_t region)
{
	if (cw->n_regions && cw->regions[cw->n_regions - 1] == region)
		return 0;
	if (dg_grow((void **)&cw->regions, &cw->cap_regions, cw->n_regions + 1,
	            sizeof *cw->regions) < 0)
		return cw_fail(cw, "out of memory");
	cw->regions[cw->n_regions++] = region;
	return 0;
}

/* The sorted lines into the chunk's cells (line >> 2) and regions
   (line >> 10), both in order. */
static int lines_fold(struct imp_chunkw *cw, const struct imp_chunk_line *lines, size_t n)
{
	struct imp_chunk_line cell = { UINT64_MAX, { 0, 0 } };
	size_t i;

	cw->n_cells = cw->n_regions = 0;
	for (i = 0; i < n; i++) {
		const struct imp_chunk_line *l = &lines[i];
		if (l->key >> 2 != cell.key) {
			if (i && cell_push(cw, &cell) < 0)
				return -1;
			cell.key = l->key >> 2;
			cell.n[0] = cell.n[1] = 0;
		}
		cell.n[0] += l->n[0];
		cell.n[1] += l->n[1];
		if (region_push(cw, l->key >> 10) < 0)
			return -1;
	}
	if (n && cell_push(cw, &cell) < 0)
		return -1;
	return 0;
}

/* ------------------------------------------------------------ one chunk */

static int shapes_add(struct imp_chunkw *cw, const struct cw_job *j)
{
	size_t k;

	for (k = 0; k < j->n_shapes; k++) {
		if (dgchunk_add_context(&cw->codec, j->shapes[k][0], j->shapes[k][1]) < 0
		    || dg_grow((void **)&cw->ctx_chunk, &cw->cap_ctx, cw->n_ctx + 1,
		               sizeof *cw->ctx_chunk) < 0)
			return cw_fail(cw, "out of memory");
		cw->ctx_chunk[cw->n_ctx++] = IMP_NONE;
	}
	return 0;
}

static int ctx_note(struct imp_chunkw *cw, uint64_t ctx)
{
	if (cw->ctx_chunk[ctx] == cw->chunk_id)
		return 0;
	cw->ctx_chunk[ctx] = cw->chunk_id;
	if (dg_grow((void **)&cw->ctx_list, &cw->cap_ctx_list, cw->n_ctx_list + 1,
	            sizeof *cw->ctx_list) < 0)
		return cw_fail(cw, "out of memory");
	cw->ctx_list[cw->n_ctx_list++] = ctx;
	return 0;
}

/* Encode the runs. */
static int job_encode(struct imp_chunkw *cw, const struct cw_job *j)
{
	const uint64_t *a = j->addrs;
	size_t r;

	cw->n_ctx_list = 0;
	cw->buf.len = 0;
	dgchunk_begin(&cw->codec);
	for (r = 0; r < j->n_runs; r++) {
		const struct imp_chunk_run *x = &j->runs[r];
		if (x->context >= cw->n_ctx)
			return cw_fail(cw, "chunk %u: context %llu is not defined (importer bug)",
			               cw->chunk_id, (unsigned long long)x->context);
		if (dgchunk_put_run(&cw->codec, &cw->buf, x->context, x->partial, x->n_instrs,
		                    a, x->n_addrs) < 0 || ctx_note(cw, x->context) < 0)
			return cw_fail(cw, "out of memory");
		a += x->n_addrs;
	}
	return 0;
}

static int step(struct imp_chunkw *cw, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : cw_db_fail(cw, "insert");
}

static int prepare(struct imp_chunkw *cw, sqlite3_stmt **st, const char *sql)
{
	if (!*st && sqlite3_prepare_v3(cw->imp->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
	                               st, NULL) != SQLITE_OK)
		return cw_db_fail(cw, "prepare");
	return 0;
}

/* "INSERT INTO table VALUES (?,...),..." with rows rows. */
static int insert_prepare(struct imp_chunkw *cw, sqlite3_stmt **st, const struct cw_insert *in,
                          int rows)
{
	sqlite3_str *q;
	char *sql;
	int r, c, rc;

	if (*st)
		return 0;
	q = sqlite3_str_new(cw->imp->db);
	sqlite3_str_appendf(q, "INSERT INTO %s VALUES ", in->table);
	for (r = 0; r < rows; r++)
		for (c = 0; c < in->cols; c++)
			sqlite3_str_appendall(q, c == 0 ? (r ? ",(?" : "(?") : c + 1 < in->cols ? ",?" : ",?)");
	if (!(sql = sqlite3_str_finish(q)))
		return cw_fail(cw, "out of memory");
	rc = prepare(cw, st, sql);
	sqlite3_free(sql);
	return rc;
}

/* An insert's two statements, of one row and of ROWS_PER_STMT. */
static int inserts_prepare(struct imp_chunkw *cw, struct cw_insert *in)
{
	return insert_prepare(cw, &in->one, in, 1) < 0
	       || insert_prepare(cw, &in->many, in, ROWS_PER_STMT) < 0 ? -1 : 0;
}

static void inserts_finalize(struct cw_insert *in)
{
	sqlite3_finalize(in->one);
	sqlite3_finalize(in->many);
	in->one = in->many = NULL;
}

static int statements(struct imp_chunkw *cw)
{
	int t;

	if (prepare(cw, &cw->st_chunk, "INSERT INTO chunks VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)") < 0
	    || prepare(cw, &cw->st_cells, "INSERT INTO chunk_cells VALUES (?1, ?2)") < 0
	    || prepare(cw, &cw->st_ctxch, "INSERT INTO context_chunks VALUES (?1, ?2, ?3, ?4)") < 0
	    || inserts_prepare(cw, &cw->ins_region) < 0)
		return -1;
	for (t = 0; t < IMP_ROWS_N; t++)
		if (inserts_prepare(cw, &cw->ins_rows[t]) < 0)
			return -1;
	return 0;
}

static int chunk_row(struct imp_chunkw *cw, const struct imp_chunk_head *h, size_t n_runs,
                     uint64_t lo, uint64_t hi)
{
	sqlite3_stmt *st;

	if (statements(cw) < 0)
		return -1;
	st = cw->st_chunk;
	sqlite3_bind_int64(st, 1, cw->chunk_id);
	sqlite3_bind_int64(st, 2, h->thread);
	sqlite3_bind_int64(st, 3, (int64_t)h->icount_lo);
	sqlite3_bind_int64(st, 4, (int64_t)h->icount_next);
	sqlite3_bind_int64(st, 5, h->accesses ? (int64_t)lo : 0);
	sqlite3_bind_int64(st, 6, (int64_t)hi);
	sqlite3_bind_int64(st, 7, (int64_t)n_runs);
	sqlite3_bind_int64(st, 8, (int64_t)h->accesses);
	sqlite3_bind_blob(st, 9, cw->buf.data, (int)cw->buf.len, SQLITE_STATIC);
	return step(cw, st);
}

/* Bind row k of a side table at parameter col + 1 on. */
static void bind_pair(struct imp_chunkw *cw, sqlite3_stmt *st, int col, size_t k)
{
	sqlite3_bind_int64(st, col + 1, (int64_t)cw->pairs[k].key);
	sqlite3_bind_int64(st, col + 2, cw->pairs[k].n[0]);
}

/* Bind row k of cw->rowv (cw->row_cols values a row). */
static void bind_row(struct imp_chunkw *cw, sqlite3_stmt *st, int col, size_t k)
{
	const int64_t *v = cw->rowv + k * (size_t)cw->row_cols;
	int c;

	for (c = 0; c < cw->row_cols; c++)
		if (v[c] == IMP_ROW_NULL)
			sqlite3_bind_null(st, col + c + 1);
		else
			sqlite3_bind_int64(st, col + c + 1, v[c]);
}

/* The chunk's cells as one chunk_cells row (dgcells.h): a row a chunk, so
   the whole-trace plot reads tens of thousands of rows, not tens of
   millions.  The blob is encoded before the database lock is taken. */
static int cells_encode(struct imp_chunkw *cw, size_t *len)
{
	if (dg_grow((void **)&cw->cells_blob, &cw->cap_cells_blob, cw->n_cells,
	            DGCELLS_ENTRY_MAX) < 0)
		return cw_fail(cw, "out of memory");
	*len = dgcells_encode(cw->cells, cw->n_cells, cw->cells_blob);
	return 0;
}

static int cells_row(struct imp_chunkw *cw, size_t len)
{
	if (cw->n_cells == 0)
		return 0;
	sqlite3_bind_int64(cw->st_cells, 1, cw->chunk_id);
	sqlite3_bind_blob(cw->st_cells, 2, cw->cells_blob, (int)len, SQLITE_STATIC);
	return step(cw, cw->st_cells);
}

/* The database lock let go and taken again when the rows written pass a
   multiple of ROWS_PER_LOCK (from `done` rows to `done + n`), so that the
   import thread's own inserts are not held up for long. */
static void let_go(struct imp_chunkw *cw, size_t done, size_t n)
{
	if (done / ROWS_PER_LOCK != (done + n) / ROWS_PER_LOCK) {
		imp_db_unlock(cw->imp);
		imp_db_lock(cw->imp);
	}
}

/* Rows 0..n-1 of a side table, ROWS_PER_STMT at a time, then one at a
   time, letting the database lock go between groups (let_go). */
static int side_rows(struct imp_chunkw *cw, const struct cw_insert *in, size_t n,
                     void (*bind)(struct imp_chunkw *, sqlite3_stmt *, int, size_t))
{
	size_t k = 0;
	int r;

	while (k < n) {
		sqlite3_stmt *st = n - k >= ROWS_PER_STMT ? in->many : in->one;
		int rows = st == in->many ? ROWS_PER_STMT : 1;
		for (r = 0; r < rows; r++)
			bind(cw, st, r * in->cols, k + r);
		if (step(cw, st) < 0)
			return -1;
		let_go(cw, k, (size_t)rows);
		k += rows;
	}
	return 0;
}

/* The job's rows of the definitions' tables (imp_chunk_row). */
static int job_def_rows(struct imp_chunkw *cw, struct cw_job *j)
{
	int t, rc = 0;

	for (t = 0; t < IMP_ROWS_N && rc == 0; t++) {
		if (j->rows[t].n == 0)
			continue;
		cw->rowv = j->rows[t].v;
		cw->row_cols = row_tables[t].cols;
		imp_db_lock(cw->imp);
		rc = statements(cw) < 0
		     || side_rows(cw, &cw->ins_rows[t], j->rows[t].n / (size_t)cw->row_cols,
		                  bind_row) < 0 ? -1 : 0;
		imp_db_unlock(cw->imp);
	}
	return rc;
}

/* Up to n more rows of the sorted batch written. */
static int pending_drain(struct imp_chunkw *cw, struct cw_pending *p, size_t n)
{
	int rc;

	if (n > p->n_drain - p->at)
		n = p->n_drain - p->at;
	if (n == 0)
		return 0;
	cw->pairs = p->drain + p->at;
	imp_db_lock(cw->imp);
	rc = statements(cw) < 0 || side_rows(cw, p->ins, n, bind_pair) < 0 ? -1 : 0;
	imp_db_unlock(cw->imp);
	p->at += n;
	return rc;
}

/* The held rows, sorted by key (stable: chunks stay in order within a
   key, so the rows come in primary key order), become the batch to write,
   once the one before is written; they are then written a slice per
   chunk, or all at once with `now` (at the end). */
static int pending_write(struct imp_chunkw *cw, struct cw_pending *p, int now)
{
	struct imp_chunk_line *v;
	size_t cap;

	if (pending_drain(cw, p, SIZE_MAX) < 0)
		return -1;
	if (p->n == 0)
		return 0;
	if (dg_grow((void **)&cw->tmp, &cw->cap_tmp, p->n, sizeof *cw->tmp) < 0)
		return cw_fail(cw, "out of memory");
	lines_sort(p->rows, cw->tmp, p->n);
	v = p->drain;                   /* swap: the written batch's array fills */
	cap = p->cap_drain;
	p->drain = p->rows;
	p->cap_drain = p->cap;
	p->n_drain = p->n;
	p->rows = v;
	p->cap = cap;
	p->n = p->at = 0;
	p->slice = p->n_drain / PENDING_SLICES + 1;
	return now ? pending_drain(cw, p, SIZE_MAX) : 0;
}

static int pending_add(struct imp_chunkw *cw, struct cw_pending *p, uint64_t key)
{
	if (p->n == PENDING_MAX && pending_write(cw, p, 0) < 0)
		return -1;
	if (dg_grow((void **)&p->rows, &p->cap, p->n + 1, sizeof *p->rows) < 0)
		return cw_fail(cw, "out of memory");
	p->rows[p->n].key = key;
	p->rows[p->n].n[0] = cw->chunk_id;
	p->rows[p->n].n[1] = 0;
	p->n++;
	return 0;
}

/* A context_chunks row (imp_ctxch's flush), with the database lock held,
   let go between groups of rows as side_rows does. */
static int ctxch_row(void *arg, uint32_t ctx, uint32_t lo, uint32_t hi, const uint8_t *data,
                     size_t len)
{
	struct imp_chunkw *cw = arg;
	sqlite3_stmt *st = cw->st_ctxch;

	sqlite3_bind_int64(st, 1, ctx);
	sqlite3_bind_int64(st, 2, lo);
	sqlite3_bind_int64(st, 3, hi);
	sqlite3_bind_blob(st, 4, len ? (const void *)data : "", (int)len, SQLITE_STATIC);
	if (step(cw, st) < 0)
		return -1;
	let_go(cw, cw->ctxch.rows, 1);
	return 0;
}

/* Every context_chunks row held. */
static int ctxch_flush(struct imp_chunkw *cw)
{
	int oom, rc;

	imp_db_lock(cw->imp);
	rc = statements(cw) < 0 ? -1 : imp_ctxch_flush(&cw->ctxch, ctxch_row, cw, &oom);
	imp_db_unlock(cw->imp);
	if (rc && oom)
		return cw_fail(cw, "out of memory");
	return rc ? -1 : 0;
}

static int job_rows(struct imp_chunkw *cw, const struct cw_job *j, uint64_t lo, uint64_t hi)
{
	size_t k, len = 0;
	int rc;

	if (cells_encode(cw, &len) < 0)
		return -1;
	for (k = 0; k < cw->n_regions; k++)
		if (pending_add(cw, &cw->pend_region, cw->regions[k]) < 0)
			return -1;
	if (imp_ctxch_full(&cw->ctxch) && ctxch_flush(cw) < 0)
		return -1;
	for (k = 0; k < cw->n_ctx_list; k++)
		if (imp_ctxch_add(&cw->ctxch, (uint32_t)cw->ctx_list[k], cw->chunk_id) < 0)
			return cw_fail(cw, "out of memory");
	if (pending_drain(cw, &cw->pend_region, cw->pend_region.slice) < 0)
		return -1;
	imp_db_lock(cw->imp);
	rc = chunk_row(cw, &j->head, j->n_runs, lo, hi) < 0
	  || cells_row(cw, len) < 0 ? -1 : 0;
	imp_db_unlock(cw->imp);
	return rc;
}

/* Start writing the database's dirty pages to the disk, without waiting
   (sync_file_range starts the write-out and returns): otherwise gigabytes
   are still dirty at the end, and the fsync before the rename (imp_db.c)
   waits for all of them on the import's critical path.  Best effort: an
   error only means the final fsync has more to do. */
static void writeback(struct imp_chunkw *cw)
{
	if (cw->wb_fd < 0 || ++cw->wb_jobs < WRITEBACK_JOBS)
		return;
	cw->wb_jobs = 0;
	(void)sync_file_range(cw->wb_fd, 0, 0, SYNC_FILE_RANGE_WRITE);
}

/* Job j, whose lines the lines stage has made (runnable() lets the
   writer start no sooner). */
static int job_do(struct imp_chunkw *cw, struct cw_job *j)
{
	struct imp_chunk_lines *l = &j->lines;

	if (shapes_add(cw, j) < 0 || job_def_rows(cw, j) < 0)
		return -1;
	if (j->n_runs == 0)
		return 0;
	cw->chunk_id++;
	if (job_encode(cw, j) < 0)
		return -1;
	if (dg_grow((void **)&cw->tmp, &cw->cap_tmp, l->n + 1, sizeof *cw->tmp) < 0)
		return cw_fail(cw, "out of memory");
	lines_sort(l->v, cw->tmp, l->n);
	if (lines_fold(cw, l->v, l->n) < 0 || job_rows(cw, j, l->lo, l->hi) < 0)
		return -1;
	writeback(cw);
	return 0;
}

/* ------------------------------------------------------------ the threads */

/* A stage's work on job j. */
static int stage_do(struct cw_consumer *c, struct cw_job *j)
{
	struct imp_chunk_view v = { &j->head, j->runs, j->n_runs, j->addrs, j->heap,
	                            j->defs, j->n_shapes, j->words,
	                            c->stage.makes_lines ? &j->lines : NULL };

	if (c->stage.makes_lines) {
		j->lines.n = 0;
		j->lines.lo = UINT64_MAX;
		j->lines.hi = 0;
	}
	if (j->n_runs == 0 && j->n_shapes == 0)
		return 0;
	return c->stage.chunk(c->stage.arg, &v, c->err, sizeof c->err);
}

/* The writer's work at the end of the log: the rows still held. */
static int writer_last(struct imp_chunkw *cw)
{
	return pending_write(cw, &cw->pend_region, 1) < 0 || ctxch_flush(cw) < 0 ? -1 : 0;
}

/* Consumer c's work on job j. */
static int consume(struct cw_consumer *c, struct cw_job *j)
{
	return c->k == 0 ? job_do(c->cw, j) : stage_do(c, j);
}

/* Whether consumer k's next job may start (cw->mu held): handed over, not
   under way in another thread, and for the writer, its lines made. */
static int runnable(const struct imp_chunkw *cw, int k)
{
	return !cw->busy[k] && cw->taken[k] < cw->filled
	       && (k != 0 || cw->taken[cw->lines_k] > cw->taken[0]);
}

/* Runs consumer k's next job, with cw->mu held on entry and on return
   (not meanwhile); after a failure the jobs only go round, so nobody
   waits forever.  Whichever thread runs it, a consumer does its jobs one
   at a time and in order. */
static void run_one(struct imp_chunkw *cw, int k)
{
	uint64_t job = cw->taken[k];
	int failed = cw->failed != 0;

	cw->busy[k] = 1;
	pthread_mutex_unlock(&cw->mu);
	failed = !failed && consume(&cw->con[k], &cw->jobs[job % IMP_CHUNK_JOBS]) < 0;
	pthread_mutex_lock(&cw->mu);
	if (failed && !cw->failed)
		cw->failed = 1 + k;
	cw->taken[k]++;
	cw->busy[k] = 0;
	pthread_cond_broadcast(&cw->changed);
}

/* A consumer thread: the first of its consumers that may go, in its
   order (the writer first, so that a chunk whose lines are made is
   written while its addresses are still in the cache). */
static void *consumer(void *arg)
{
	struct cw_thread *t = arg;
	struct imp_chunkw *cw = t->cw;
	int i, left, writes = 0;

	for (i = 0; i < t->n_ks; i++)
		writes |= t->ks[i] == 0;
	pthread_mutex_lock(&cw->mu);
	for (;;) {
		for (i = 0; i < t->n_ks && !runnable(cw, t->ks[i]); i++)
			;
		if (cw->stop)
			break;
		if (i < t->n_ks) {
			run_one(cw, t->ks[i]);
			continue;
		}
		for (i = left = 0; i < t->n_ks; i++)
			left |= cw->taken[t->ks[i]] < cw->filled;
		if (cw->done && !left)
			break;
		pthread_cond_wait(&cw->changed, &cw->mu);
	}
	writes = writes && !cw->stop && !cw->failed;
	pthread_mutex_unlock(&cw->mu);
	if (writes && writer_last(cw) < 0) {
		pthread_mutex_lock(&cw->mu);
		if (!cw->failed)
			cw->failed = 1;
		pthread_mutex_unlock(&cw->mu);
	}
	return NULL;
}

static void consumers_stop(struct imp_chunkw *cw, int drop)
{
	int k;

	pthread_mutex_lock(&cw->mu);
	if (drop)
		cw->stop = 1;
	cw->done = 1;
	pthread_cond_broadcast(&cw->changed);
	pthread_mutex_unlock(&cw->mu);
	for (k = 0; k < cw->n_thr; k++)
		if (cw->thr[k].running) {
			pthread_join(cw->thr[k].thread, NULL);
			cw->thr[k].running = 0;
		}
}

/* The consumers over n threads (clamped to 1..n_con): the writer, the
   other stages, the lines stage, cut into runs of about equal length; a
   thread gives its consumers' jobs in that order (consumer()).  More
   threads than cores only take turns on them, and the import thread,
   which sets the pace, waited its turn with the rest. */
static void threads_plan(struct imp_chunkw *cw, int n)
{
	int order[1 + IMP_CHUNK_STAGES], m = 0, k, i;

	order[m++] = 0;
	for (k = 1; k < cw->n_con; k++)
		if (k != cw->lines_k)
			order[m++] = k;
	order[m++] = cw->lines_k;
	n = n < 1 ? 1 : n > m ? m : n;
	cw->n_thr = n;
	for (i = 0; i < m; i++) {
		struct cw_thread *t = &cw->thr[i * n / m];
		t->cw = cw;
		t->ks[t->n_ks++] = order[i];
	}
}

int imp_chunk_start(struct importer *imp, const struct imp_chunk_stage *stages, int n_stages,
                    int n_threads)
{
	struct imp_chunkw *cw = NULL;
	int k;

	if (n_stages > IMP_CHUNK_STAGES)
		return imp_fail(imp, "%d chunk stages, at most %d (importer bug)", n_stages,
		                IMP_CHUNK_STAGES);
	for (k = 0; k < n_stages && !stages[k].makes_lines; k++)
		;
	if (k == n_stages)
		return imp_fail(imp, "no chunk stage makes the lines (importer bug)");
	if (posix_memalign((void **)&cw, CW_LINE, sizeof *cw) != 0)
		return imp_fail(imp, "out of memory");
	memset(cw, 0, sizeof *cw);
	cw->wb_fd = -1;
	imp->cw = cw;
	cw->imp = imp;
	cw->lines_k = 1 + k;
	cw->ins_region = (struct cw_insert){ "chunk_regions", 2, NULL, NULL };
	cw->pend_region.ins = &cw->ins_region;
	for (k = 0; k < IMP_ROWS_N; k++)
		cw->ins_rows[k] = (struct cw_insert){ row_tables[k].table, row_tables[k].cols,
		                                      NULL, NULL };
	imp_ctxch_init(&cw->ctxch, CTXCH_BUDGET);
	dgchunk_init(&cw->codec);
	dgchunk_set_coding(&cw->codec, IMP_CHUNK_CODING);
	pthread_mutex_init(&cw->mu, NULL);
	pthread_cond_init(&cw->changed, NULL);
	cw->cur = &cw->jobs[0];
	cw->wb_fd = open(imp->tmp_path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	cw->n_con = 1 + n_stages;
	for (k = 0; k < cw->n_con; k++) {
		cw->con[k].cw = cw;
		cw->con[k].k = k;
		if (k)
			cw->con[k].stage = stages[k - 1];
	}
	threads_plan(cw, n_threads);
	for (k = 0; k < cw->n_thr; k++) {
		struct cw_thread *t = &cw->thr[k];
		if (pthread_create(&t->thread, NULL, consumer, t) != 0)
			return imp_fail(imp, "cannot start a chunk consumer thread");
		t->running = 1;
	}
	return 0;
}

int imp_chunk_context(struct importer *imp, uint32_t n_instrs, uint32_t n_accesses,
                      const uint32_t *words, uint32_t n)
{
	struct cw_job *j = imp->cw->cur;

	if (dg_grow((void **)&j->shapes, &j->cap_shapes, j->n_shapes + 1, sizeof *j->shapes) < 0
	    || dg_grow((void **)&j->defs, &j->cap_defs, j->n_shapes + 1, sizeof *j->defs) < 0
	    || dg_grow((void **)&j->words, &j->cap_words, j->n_words + n, sizeof *j->words) < 0)
		return imp_fail(imp, "out of memory");
	j->shapes[j->n_shapes][0] = n_instrs;
	j->shapes[j->n_shapes][1] = n_accesses;
	j->defs[j->n_shapes] = (struct imp_chunk_def){ (uint32_t)j->n_runs,
	                                               (uint32_t)j->n_words, n };
	if (n)
		memcpy(j->words + j->n_words, words, n * sizeof *words);
	j->n_words += n;
	j->n_shapes++;
	return 0;
}

int imp_chunk_row(struct importer *imp, enum imp_rows table, const int64_t *vals)
{
	struct imp_chunkw *cw = imp->cw;
	struct cw_rows *r;
	int cols = row_tables[table].cols;

	if (cw->finished)       /* every definition comes from the log, read by then */
		return imp_fail(imp, "a %s row after the chunk writer finished (importer bug)",
		                row_tables[table].table);
	r = &cw->cur->rows[table];
	if (dg_grow((void **)&r->v, &r->cap, r->n + (size_t)cols, sizeof *r->v) < 0)
		return imp_fail(imp, "out of memory");
	memcpy(r->v + r->n, vals, (size_t)cols * sizeof *vals);
	r->n += (size_t)cols;
	return 0;
}

int imp_chunk_run(struct importer *imp, const struct dglog_run *run, const uint8_t *kinds,
                  uint32_t n_acc, uint64_t **addrs, uint8_t **heap)
{
	struct cw_job *j = imp->cw->cur;
	struct imp_chunk_run *x;

	/* + 1: never NULL, even for a chunk of runs without addresses */
	if (dg_grow((void **)&j->runs, &j->cap_runs, j->n_runs + 1, sizeof *j->runs) < 0
	    || dg_grow((void **)&j->addrs, &j->cap_addrs, j->n_addrs + run->n_addrs + 1,
	               sizeof *j->addrs) < 0
	    || dg_grow((void **)&j->heap, &j->cap_heap, j->n_addrs + run->n_addrs + 1,
	               sizeof *j->heap) < 0)
		return imp_fail(imp, "out of memory");
	*addrs = j->addrs + j->n_addrs;
	*heap = j->heap + j->n_addrs;
	x = &j->runs[j->n_runs++];
	x->context = run->context;
	x->icount_start = run->icount_start;
	x->kinds = kinds;
	x->n_acc = n_acc;
	x->n_instrs = run->n_instrs;
	x->n_addrs = run->n_addrs;
	x->partial = run->partial;
	j->n_addrs += run->n_addrs;
	return 0;
}

/* The message of the consumer that failed (with cw->mu held, or after the
   consumers stopped). */
static const char *failure(const struct imp_chunkw *cw)
{
	return cw->failed == 1 ? cw->err : cw->con[cw->failed - 1].err;
}

static uint64_t taken_min(const struct imp_chunkw *cw)
{
	uint64_t m = cw->taken[0];
	int k;

	for (k = 1; k < cw->n_con; k++)
		m = cw->taken[k] < m ? cw->taken[k] : m;
	return m;
}

/* A stage the import thread may run while it waits for a slot (cw->mu
   held), or 0: the one furthest behind, never the writer (SQLite is the
   writer's while the pipeline runs).  The stages then take both cores'
   spare time, whatever the consumer threads' plan. */
static int stage_to_help(const struct imp_chunkw *cw)
{
	int k, best = 0;

	for (k = 1; k < cw->n_con; k++)
		if (runnable(cw, k) && (!best || cw->taken[k] < cw->taken[best]))
			best = k;
	return best;
}

/* Hand over the current job, take the next slot (waiting until every
   consumer is past it, and running stages meanwhile). */
static int hand_over(struct importer *imp, struct imp_chunkw *cw)
{
	int failed, t;

	pthread_mutex_lock(&cw->mu);
	cw->filled++;
	pthread_cond_broadcast(&cw->changed);
	while (cw->filled - taken_min(cw) >= IMP_CHUNK_JOBS) {
		int k = stage_to_help(cw);

		if (k > 0)
			run_one(cw, k);
		else
			pthread_cond_wait(&cw->changed, &cw->mu);
	}
	cw->cur = &cw->jobs[cw->filled % IMP_CHUNK_JOBS];
	failed = cw->failed;
	if (failed)
		imp_fail(imp, "%s", failure(cw));
	pthread_mutex_unlock(&cw->mu);
	cw->cur->n_runs = cw->cur->n_addrs = cw->cur->n_shapes = cw->cur->n_words = 0;
	for (t = 0; t < IMP_ROWS_N; t++)
		cw->cur->rows[t].n = 0;
	return failed ? -1 : 0;
}

int imp_chunk_flush(struct importer *imp, const struct imp_chunk_head *h)
{
	struct imp_chunkw *cw = imp->cw;

	if (cw->cur->n_runs == 0)
		return 0;
	cw->cur->head = *h;
	return hand_over(imp, cw);
}

/* Before the database closes (it would not, with statements open). */
static void stmts_finalize(struct imp_chunkw *cw)
{
	int k;

	sqlite3_finalize(cw->st_chunk);
	sqlite3_finalize(cw->st_cells);
	sqlite3_finalize(cw->st_ctxch);
	cw->st_chunk = cw->st_cells = cw->st_ctxch = NULL;
	inserts_finalize(&cw->ins_region);
	for (k = 0; k < IMP_ROWS_N; k++)
		inserts_finalize(&cw->ins_rows[k]);
}

int imp_chunk_finish(struct importer *imp)
{
	struct imp_chunkw *cw = imp->cw;

	/* the shapes of contexts defined after the last run go too, and the
	   rows of definitions */
	if ((cw->cur->n_runs || cw->cur->n_shapes || cw->cur->rows[IMP_ROWS_STACKS].n
	     || cw->cur->rows[IMP_ROWS_CALLSITES].n) && hand_over(imp, cw) < 0)
		return -1;
	consumers_stop(cw, 0);
	stmts_finalize(cw);
	cw->finished = 1;
	if (cw->failed)
		return imp_fail(imp, "%s", failure(cw));
	return 0;
}

static void job_free(struct cw_job *j)
{
	int k;

	free(j->runs);
	free(j->addrs);
	free(j->heap);
	free(j->shapes);
	free(j->defs);
	free(j->words);
	free(j->lines.v);
	for (k = 0; k < IMP_ROWS_N; k++)
		free(j->rows[k].v);
}

void imp_chunk_free(struct importer *imp)
{
	struct imp_chunkw *cw = imp->cw;
	int k;

	if (!cw)
		return;
	consumers_stop(cw, 1);
	stmts_finalize(cw);
	for (k = 0; k < IMP_CHUNK_JOBS; k++)
		job_free(&cw->jobs[k]);
	if (cw->wb_fd >= 0)
		close(cw->wb_fd);
	dgchunk_free(&cw->codec);
	dgchunk_buf_free(&cw->buf);
	free(cw->ctx_chunk);
	free(cw->ctx_list);
	free(cw->tmp);
	free(cw->cells);
	free(cw->cells_blob);
	free(cw->regions);
	free(cw->pend_region.rows);
	free(cw->pend_region.drain);
	imp_ctxch_free(&cw->ctxch);
	pthread_mutex_destroy(&cw->mu);
	pthread_cond_destroy(&cw->changed);
	free(cw);
	imp->cw = NULL;
}
