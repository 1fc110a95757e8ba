/* test_dgvtab.c: unit tests of the `accesses` virtual table (lib/dgvtab).
 *
 * Databases are made from schema/schema.sql (path in argv[1], default
 * "schema/schema.sql") with chunks encoded by lib/dgchunk, while the test
 * keeps its own list of the accesses it encoded.  Checked: every column of
 * a full scan against that list (guarded zeros left out, block_id by brute
 * force over the blocks, nested and reused addresses included); random
 * constraints pushed down give the rows of the same WHERE on a plain copy
 * of the table; the plans use the pushed-down constraints and the natural
 * order; a hand-made block history; malformed blobs give an error naming
 * the chunk, and chunks a constraint excludes are not even decoded.
 *
 *     test_dgvtab [schema.sql [seed]]
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dgchunk.h"
#include "dgvtab.h"
#include "dgvt_par.h"
#include "tu.h"

/* ------------------------------------------------------------ a database maker */

struct desc { int64_t pc; int iseq, size, is_write, flags; };
struct bb { int n_instrs, n_acc; struct desc d[8]; };
struct row { int64_t icount, addr, size, is_write, pc, thread, ctx, block, aseq, chunk; };
struct block { int64_t id, addr, size, alloc, free; };        /* free -1: never */

struct mk {
	sqlite3 *db;
	struct dgchunk_codec codec;
	struct bb bbs[64];
	int n_bb, ctx_bb[256], n_ctx;
	struct block blocks[256];
	int n_blocks;
	struct row *rows;
	size_t n_rows, cap_rows;
	/* the chunk being made */
	struct dgchunk_buf buf;
	int64_t chunk, thread, icount_lo, icount, addr_lo, addr_hi, n_runs, n_acc;
	int64_t regions[4096];
	int n_regions, ctx_used[256];
};

static void exec(sqlite3 *db, const char *sql)
{
	char *err = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
		fprintf(stderr, "test_dgvtab: %s: %s\n", sql, err);
		exit(2);
	}
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fprintf(stderr, "test_dgvtab: cannot read %s\n", path);
		exit(2);
	}
	s = malloc(n + 1);
	if (!s || fread(s, 1, n, f) != (size_t)n)
		exit(2);
	s[n] = 0;
	fclose(f);
	return s;
}

static const char *schema_path = "schema/schema.sql";

static void mk_open(struct mk *m)
{
	char *schema = slurp(schema_path), *err = NULL;

	memset(m, 0, sizeof *m);
	if (sqlite3_open(":memory:", &m->db) != SQLITE_OK)
		exit(2);
	/* before the schema: it creates the virtual table sum_fn_block */
	if (dgvtab_register(m->db, &err) != SQLITE_OK) {
		fprintf(stderr, "test_dgvtab: %s\n", err);
		exit(2);
	}
	exec(m->db, schema);
	free(schema);
	dgchunk_init(&m->codec);
	m->chunk = 1;
}

static void mk_close(struct mk *m)
{
	sqlite3_close(m->db);
	dgchunk_free(&m->codec);
	dgchunk_buf_free(&m->buf);
	free(m->rows);
}

static void sqlf(struct mk *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void sqlf(struct mk *m, const char *fmt, ...)
{
	va_list ap;
	char *sql;

	va_start(ap, fmt);
	sql = sqlite3_vmprintf(fmt, ap);
	va_end(ap);
	exec(m->db, sql);
	sqlite3_free(sql);
}

static int mk_bbdef(struct mk *m, int n_instrs, int n_acc, const struct desc *d)
{
	int id = m->n_bb++, i;
	struct bb *b = &m->bbs[id];

	b->n_instrs = n_instrs;
	b->n_acc = n_acc;
	sqlf(m, "INSERT INTO bbdefs VALUES (%d, %d, %d, %d, 0)", id, 0x400000 + 64 * id, n_instrs, n_acc);
	for (i = 0; i < n_acc; i++) {
		b->d[i] = d[i];
		sqlf(m, "INSERT INTO access_descs VALUES (%d, %d, %d, %lld, %d, %d, %d, 0)", id, i,
		     d[i].iseq, (long long)d[i].pc, d[i].is_write, d[i].size, d[i].flags);
	}
	return id;
}

static int mk_context(struct mk *m, int bb)
{
	int id = m->n_ctx++;

	m->ctx_bb[id] = bb;
	sqlf(m, "INSERT INTO contexts VALUES (%d, %d, 0)", id, bb);
	if (dgchunk_add_context(&m->codec, m->bbs[bb].n_instrs, m->bbs[bb].n_acc) < 0)
		exit(2);
	return id;
}

static void mk_block(struct mk *m, int64_t addr, int64_t size, int64_t alloc, int64_t free_ic)
{
	struct block *k = &m->blocks[m->n_blocks++];

	k->id = m->n_blocks * 10;       /* ids unlike indexes */
	k->addr = addr, k->size = size, k->alloc = alloc, k->free = free_ic;
	if (free_ic < 0)
		sqlf(m, "INSERT INTO blocks (id, addr, size, alloc_icount) VALUES (%lld, %lld, %lld, %lld)",
		     (long long)k->id, (long long)addr, (long long)size, (long long)alloc);
	else
		sqlf(m, "INSERT INTO blocks (id, addr, size, alloc_icount, free_icount) VALUES (%lld, %lld, %lld, %lld, %lld)",
		     (long long)k->id, (long long)addr, (long long)size, (long long)alloc, (long long)free_ic);
}

/* The block the table must name: innermost (highest start, then latest
   allocated, then highest id) of those holding a at t. */
static int64_t block_of(const struct mk *m, int64_t a, int64_t t)
{
	const struct block *best = NULL;
	int i;

	for (i = 0; i < m->n_blocks; i++) {
		const struct block *k = &m->blocks[i];
		if (a < k->addr || a >= k->addr + k->size || t < k->alloc || (k->free >= 0 && t >= k->free))
			continue;
		if (!best || k->addr > best->addr || (k->addr == best->addr
		    && (k->alloc > best->alloc || (k->alloc == best->alloc && k->id > best->id))))
			best = k;
	}
	return best ? best->id : -1;
}

static void mk_chunk_begin(struct mk *m, int64_t thread, int64_t icount)
{
	m->thread = thread;
	m->icount_lo = m->icount = icount;
	m->addr_lo = INT64_MAX, m->addr_hi = INT64_MIN;
	m->n_runs = m->n_acc = 0;
	m->n_regions = 0;
	memset(m->ctx_used, 0, sizeof m->ctx_used);
	m->buf.len = 0;
	dgchunk_begin(&m->codec);
}

static void note_region(struct mk *m, int64_t region)
{
	int i;

	for (i = 0; i < m->n_regions; i++)
		if (m->regions[i] == region)
			return;
	m->regions[m->n_regions++] = region;
}

static void mk_run(struct mk *m, int ctx, int partial, int n_instrs, const uint64_t *addrs, int n)
{
	const struct bb *b = &m->bbs[m->ctx_bb[ctx]];
	int i;

	if (!partial)
		n_instrs = b->n_instrs, n = b->n_acc;
	if (dgchunk_put_run(&m->codec, &m->buf, ctx, partial, n_instrs, addrs, n) < 0)
		exit(2);
	for (i = 0; i < n; i++) {
		struct row *r;
		int64_t a = (int64_t)addrs[i];
		if (a == 0 && (b->d[i].flags & 1))
			continue;
		if (m->n_rows == m->cap_rows) {
			m->cap_rows = m->cap_rows ? 2 * m->cap_rows : 1024;
			m->rows = realloc(m->rows, m->cap_rows * sizeof *m->rows);
		}
		r = &m->rows[m->n_rows++];
		r->icount = m->icount + b->d[i].iseq;
		r->addr = a, r->size = b->d[i].size, r->is_write = b->d[i].is_write;
		r->pc = b->d[i].pc, r->thread = m->thread, r->ctx = ctx;
		r->block = -1;          /* filled in by mk_blocks_done */
		r->aseq = i, r->chunk = m->chunk;
		if (a < m->addr_lo) m->addr_lo = a;
		if (a > m->addr_hi) m->addr_hi = a;
		note_region(m, a >> 16);
	}
	m->ctx_used[ctx] = 1;
	m->icount += n_instrs;
	m->n_runs++;
	m->n_acc += n;
}

/* Store the chunk, with blob bytes as given (data NULL: as encoded). */
static int64_t mk_chunk_end_data(struct mk *m, const void *data, size_t len)
{
	sqlite3_stmt *st;
	int i;

	if (!data)
		data = m->buf.data, len = m->buf.len;
	if (m->addr_lo > m->addr_hi)
		m->addr_lo = m->addr_hi = 0;
	sqlite3_prepare_v2(m->db, "INSERT INTO chunks VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)", -1, &st, NULL);
	sqlite3_bind_int64(st, 1, m->chunk);
	sqlite3_bind_int64(st, 2, m->thread);
	sqlite3_bind_int64(st, 3, m->icount_lo);
	sqlite3_bind_int64(st, 4, m->icount);
	sqlite3_bind_int64(st, 5, m->addr_lo);
	sqlite3_bind_int64(st, 6, m->addr_hi);
	sqlite3_bind_int64(st, 7, m->n_runs);
	sqlite3_bind_int64(st, 8, m->n_acc);
	sqlite3_bind_blob(st, 9, data ? data : "", (int)len, SQLITE_TRANSIENT);
	if (sqlite3_step(st) != SQLITE_DONE)
		exit(2);
	sqlite3_finalize(st);
	for (i = 0; i < m->n_regions; i++)
		sqlf(m, "INSERT INTO chunk_regions VALUES (%lld, %lld)", (long long)m->regions[i], (long long)m->chunk);
	for (i = 0; i < m->n_ctx; i++)
		if (m->ctx_used[i])
			sqlf(m, "INSERT INTO context_chunks VALUES (%d, %lld, %lld, x'')", i, (long long)m->chunk, (long long)m->chunk);
	return m->chunk++;
}

static int64_t mk_chunk_end(struct mk *m)
{
	return mk_chunk_end_data(m, NULL, 0);
}

static void mk_blocks_done(struct mk *m)
{
	size_t i;

	for (i = 0; i < m->n_rows; i++)
		m->rows[i].block = block_of(m, m->rows[i].addr, m->rows[i].icount);
}

/* ------------------------------------------------------------ queries */

static char *row_text(sqlite3_stmt *st)
{
	static char buf[512];
	char *p = buf;
	int i, n = sqlite3_column_count(st);

	for (i = 0; i < n; i++) {
		const unsigned char *s = sqlite3_column_text(st, i);
		p += snprintf(p, buf + sizeof buf - p, "%s%s", i ? " " : "", s ? (const char *)s : "-");
	}
	return buf;
}

/* All rows of a query, one line each; NULL with *err set on an error. */
static char *query_text(sqlite3 *db, const char *sql, char **err)
{
	sqlite3_stmt *st;
	char *out = NULL;
	size_t len = 0, cap = 0;
	int rc;

	*err = NULL;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		*err = strdup(sqlite3_errmsg(db));
		return NULL;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *r = row_text(st);
		size_t n = strlen(r);
		if (len + n + 2 > cap) {
			cap = 2 * (len + n + 2);
			out = realloc(out, cap);
		}
		memcpy(out + len, r, n);
		len += n;
		out[len++] = '\n';
		out[len] = 0;
	}
	if (rc != SQLITE_DONE) {
		*err = strdup(sqlite3_errmsg(db));
		free(out);
		out = NULL;
	} else if (!out) {
		out = strdup("");
	}
	sqlite3_finalize(st);
	return out;
}

static char *query1(sqlite3 *db, const char *sql)
{
	char *err, *s = query_text(db, sql, &err);

	if (!s)
		return err;
	if (*s && s[strlen(s) - 1] == '\n')
		s[strlen(s) - 1] = 0;
	return s;
}

/* The expected text of a full scan. */
static char *expected_text(const struct mk *m)
{
	char *out = malloc(m->n_rows * 160 + 1), *p = out;
	size_t i;

	*p = 0;
	for (i = 0; i < m->n_rows; i++) {
		const struct row *r = &m->rows[i];
		char blk[24];
		if (r->block < 0)
			strcpy(blk, "-");
		else
			snprintf(blk, sizeof blk, "%lld", (long long)r->block);
		p += sprintf(p, "%lld %lld %lld %lld %lld %lld %lld %s %lld %lld\n",
		             (long long)r->icount, (long long)r->addr, (long long)r->size,
		             (long long)r->is_write, (long long)r->pc, (long long)r->thread,
		             (long long)r->ctx, blk, (long long)r->aseq, (long long)r->chunk);
	}
	return out;
}

/* ------------------------------------------------------------ the random trace */

static uint64_t rng = 88172645463325252ull;
static uint64_t rnd(uint64_t n)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return n ? rng % n : 0;
}

#define HEAP 0x10000000LL

static void random_defs(struct mk *m)
{
	int b, i;

	for (b = 0; b < 12; b++) {
		struct desc d[8];
		int ni = 1 + (int)rnd(10), na = b == 0 ? 0 : (int)rnd(9);
		int iseq = 0;
		for (i = 0; i < na; i++) {
			iseq += (int)rnd(2);
			if (iseq >= ni)
				iseq = ni - 1;
			d[i].iseq = iseq;
			d[i].pc = 0x400000 + 64 * b + 4 * iseq;
			d[i].size = 1 << rnd(4);
			d[i].is_write = (int)rnd(2);
			d[i].flags = rnd(4) == 0;       /* guarded */
		}
		mk_bbdef(m, ni, na, d);
	}
	for (i = 0; i < 40; i++)
		mk_context(m, (int)rnd(12));
}

/* Blocks: reuse of one address by successive blocks of different sizes, a
   pool with objects nested inside, blocks that overlap an earlier freed
   bigger block, never-freed ones, a zero-size one, and blocks in several
   64 KiB regions. */
static void random_blocks(struct mk *m, int64_t span)
{
	int i;

	for (i = 0; i < 6; i++)       /* successive at HEAP */
		mk_block(m, HEAP, 16 + 16 * (i % 3), i * span / 6, (i + 1) * span / 6);
	mk_block(m, HEAP + 0x1000, 4096, 0, span / 2);              /* pool */
	mk_block(m, HEAP + 0x1000, 64, span / 8, span / 4);         /* nested at its start */
	mk_block(m, HEAP + 0x1100, 64, span / 8, -1);               /* nested, outlives pool */
	mk_block(m, HEAP + 0x1000 + 2048, 32, span / 4, span / 3);
	mk_block(m, HEAP + 0x4000, 0x8000, 0, span / 3);            /* big, then reused */
	for (i = 0; i < 8; i++)
		mk_block(m, HEAP + 0x4000 + 0x1000 * i, 256, span / 3 + i, span / 3 + span / 4 + i);
	mk_block(m, HEAP + 0x20000, 0, 0, -1);                      /* empty */
	mk_block(m, HEAP + 0x30000, 0x30000, span / 5, -1);         /* spans regions */
	mk_block(m, HEAP + 0x90000, 100, 3, span - 3);
	mk_block(m, HEAP + 0x90000 + 50, 2000, span / 2, -1);      /* overlaps it, a level up */
}

static uint64_t random_addr(struct mk *m)
{
	switch (rnd(8)) {
	case 0: return HEAP + rnd(64);
	case 1: return HEAP + 0x1000 + rnd(4200);
	case 2: return HEAP + 0x4000 + rnd(0x8100);
	case 3: return HEAP + 0x20000 + rnd(0x50000);
	case 4: return HEAP + 0x90000 + rnd(120);
	case 5: return 0x7ff000000ULL + 8 * rnd(512);       /* stack */
	case 6: return 0x600000 + rnd(4096);                /* globals */
	default: return HEAP - 64 + rnd(128);
	}
}

static void random_trace(struct mk *m, int n_chunks)
{
	int64_t icount = 5;
	int c;

	for (c = 0; c < n_chunks; c++) {
		int r, n_runs = 1 + (int)rnd(60);
		mk_chunk_begin(m, 1 + (int64_t)rnd(3), icount);
		for (r = 0; r < n_runs; r++) {
			int ctx = (int)rnd(m->n_ctx);
			const struct bb *b = &m->bbs[m->ctx_bb[ctx]];
			uint64_t addrs[8];
			int i, partial = b->n_instrs > 1 && rnd(6) == 0;
			int ni = partial ? 1 + (int)rnd(b->n_instrs) : b->n_instrs;
			int na = b->n_acc;
			if (partial) {          /* only accesses of the executed instructions */
				for (na = 0; na < b->n_acc && b->d[na].iseq < ni; na++)
					;
				na = (int)rnd(na + 1);
			}
			for (i = 0; i < na; i++)
				addrs[i] = (b->d[i].flags & 1) && rnd(2) ? 0 : random_addr(m);
			mk_run(m, ctx, partial, ni, addrs, na);
		}
		mk_chunk_end(m);
		icount = m->icount + (rnd(4) == 0 ? 1000 : 0);   /* tracing gaps */
	}
}

/* ------------------------------------------------------------ tests */

static const char cols[] = "icount, addr, size, is_write, pc, thread, context_id, block_id, aseq, chunk_id";

static void test_full_scan(struct mk *m)
{
	char sql[256], *got, *err, *want = expected_text(m);

	snprintf(sql, sizeof sql, "SELECT %s FROM accesses", cols);
	got = query_text(m->db, sql, &err);
	tu_check(got && !strcmp(got, want), "full scan: every column of %zu accesses in execution order%s%s",
	         m->n_rows, err ? ": " : "", err ? err : "");
	if (got && strcmp(got, want)) {
		size_t i = 0;
		while (got[i] && got[i] == want[i])
			i++;
		while (i > 0 && want[i - 1] != '\n')
			i--;
		tu_note("first difference: want %.80s", want + i);
		tu_note("                  got  %.80s", got + i);
	}
	free(got);
	free(err);
	free(want);
	got = query1(m->db, "SELECT count(*) FROM accesses");
	snprintf(sql, sizeof sql, "%zu", m->n_rows);
	tu_check(!strcmp(got, sql), "count(*) skips guarded zeros: %s", got);
	free(got);
}

/* A random WHERE clause over the columns. */
static void random_where(struct mk *m, char *w, size_t cap, int64_t icount_end)
{
	static const char *const ops[] = { "=", "<", "<=", ">", ">=" };
	int n = 1 + (int)rnd(3) / 2 + (rnd(4) == 0), i;
	char *p = w;

	*p = 0;
	for (i = 0; i < n; i++) {
		int64_t a = (int64_t)rnd(icount_end), b = a + (int64_t)rnd(icount_end / 8 + 1);
		int64_t x = (int64_t)random_addr(m);
		const char *op = ops[rnd(5)];
		const struct block *k = &m->blocks[rnd(m->n_blocks)];
		p += snprintf(p, w + cap - p, "%s", i ? (rnd(5) ? " AND " : " OR ") : "");
		switch (rnd(16)) {
		case 0: p += snprintf(p, w + cap - p, "icount %s %lld", op, (long long)a); break;
		case 1: p += snprintf(p, w + cap - p, "icount BETWEEN %lld AND %lld", (long long)a, (long long)b); break;
		case 2: p += snprintf(p, w + cap - p, "addr %s %lld", op, (long long)x); break;
		case 3: p += snprintf(p, w + cap - p, "addr BETWEEN %lld AND %lld", (long long)x, (long long)x + (int64_t)rnd(1 << (2 * rnd(10)))); break;
		case 4: p += snprintf(p, w + cap - p, "thread = %d", 1 + (int)rnd(4)); break;
		case 5: p += snprintf(p, w + cap - p, "context_id = %d", (int)rnd(m->n_ctx + 2)); break;
		case 6: p += snprintf(p, w + cap - p, "context_id IN (%d, %d, %d)", (int)rnd(m->n_ctx), (int)rnd(m->n_ctx), (int)rnd(m->n_ctx)); break;
		case 7: p += snprintf(p, w + cap - p, "block_id = %lld", (long long)k->id); break;
		case 8: p += snprintf(p, w + cap - p, "chunk_id %s %d", op, 1 + (int)rnd(m->chunk)); break;
		case 9: p += snprintf(p, w + cap - p, "is_write = %d", (int)rnd(3)); break;
		case 10: p += snprintf(p, w + cap - p, "icount %s %lld.5", op, (long long)a); break;
		case 11: p += snprintf(p, w + cap - p, "addr %s '%lld'", op, (long long)x); break;
		case 12: p += snprintf(p, w + cap - p, "icount %s NULL", op); break;
		case 13: p += snprintf(p, w + cap - p, "addr %s 'text'", op); break;
		case 14: p += snprintf(p, w + cap - p, "block_id = %lld AND icount >= %lld", (long long)k->id, (long long)a); break;
		default: p += snprintf(p, w + cap - p, "addr >= %lld AND addr < %lld", (long long)k->addr, (long long)(k->addr + k->size)); break;
		}
	}
}

static void test_random_constraints(struct mk *m, int n)
{
	char w[512], sql[1024], bad[600] = "";
	int i, fails = 0, nonempty = 0;

	exec(m->db, "CREATE TEMP TABLE ref AS SELECT * FROM accesses");
	for (i = 0; i < n; i++) {
		char *e1, *e2, *a, *b;
		random_where(m, w, sizeof w, m->icount + 10);
		snprintf(sql, sizeof sql, "SELECT %s FROM accesses WHERE %s ORDER BY icount, aseq", cols, w);
		a = query_text(m->db, sql, &e1);
		snprintf(sql, sizeof sql, "SELECT %s FROM ref WHERE %s ORDER BY icount, aseq", cols, w);
		b = query_text(m->db, sql, &e2);
		if (!a || !b || strcmp(a, b)) {
			if (!fails++)
				snprintf(bad, sizeof bad, "%s%s%s%s%s (%zu vs %zu bytes)", w, e1 ? ": " : "", e1 ? e1 : "",
				         e2 ? ": " : "", e2 ? e2 : "", a ? strlen(a) : 0, b ? strlen(b) : 0);
		} else if (*a) {
			nonempty++;
		}
		free(a), free(b), free(e1), free(e2);
	}
	tu_check(fails == 0, "%d random WHERE clauses (%d with rows): same rows as on a plain copy%s%s",
	         n, nonempty, fails ? "; first failure: " : "", bad);
	tu_check(nonempty > n / 3, "most random clauses select rows (%d of %d)", nonempty, n);
}

/* EXPLAIN QUERY PLAN text of a query. */
static char *plan_of(sqlite3 *db, const char *q)
{
	char sql[512], *err, *s;

	snprintf(sql, sizeof sql, "EXPLAIN QUERY PLAN %s", q);
	s = query_text(db, sql, &err);
	return s ? s : err;
}

static void test_plans(struct mk *m)
{
	static const struct { const char *q, *want, *not; } cases[] = {
		{ "SELECT * FROM accesses WHERE block_id = 10", "INDEX 1:7=", NULL },
		{ "SELECT * FROM accesses WHERE icount BETWEEN 5 AND 9", "0g0l", NULL },
		{ "SELECT * FROM accesses WHERE addr > 5 AND thread = 2 AND is_write = 1", "1>", NULL },
		{ "SELECT * FROM accesses WHERE context_id IN (1, 2)", "6I", NULL },
		{ "SELECT * FROM accesses ORDER BY icount", "VIRTUAL TABLE", "ORDER BY" },
		{ "SELECT * FROM accesses ORDER BY chunk_id, icount, aseq", "VIRTUAL TABLE", "ORDER BY" },
		{ "SELECT * FROM accesses ORDER BY icount DESC", "ORDER BY", NULL },
		{ "SELECT * FROM accesses ORDER BY addr", "ORDER BY", NULL },
		{ "SELECT a.icount FROM blocks b JOIN accesses a ON a.block_id = b.id WHERE b.addr = 268435456", "7=", NULL },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *p = plan_of(m->db, cases[i].q);
		int good = strstr(p, cases[i].want) && !(cases[i].not && strstr(p, cases[i].not));
		tu_check(good, "plan of %s", cases[i].q);
		if (!good)
			tu_note("%s", p);
		free(p);
	}
}

static void test_rowids(struct mk *m)
{
	char *a = query1(m->db, "SELECT count(*), count(DISTINCT rowid) FROM accesses");
	char *b = query1(m->db, "SELECT group_concat(r) FROM (SELECT rowid AS r FROM accesses WHERE chunk_id = 3)");
	char *c = query1(m->db, "SELECT group_concat(r) FROM (SELECT rowid AS r FROM ref_rowids WHERE chunk_id = 3)");
	char *parts = strchr(a, ' ');

	tu_check(parts && !strncmp(a, parts + 1, parts - a) && strlen(parts + 1) == (size_t)(parts - a),
	         "rowids are unique: %s", a);
	tu_check(!strcmp(b, c), "rowids do not depend on the constraints");
	free(a), free(b), free(c);
}

/* The rows lib/dgvt_par gives one worker for the columns in want, as text
   in the order of SQLite's "icount, addr, size, is_write, block_id" (a
   column not wanted: '.'), or NULL on an error. */
static char *par_rows(const char *path, uint32_t want)
{
	static const int order[] = { DGVT_COL_ICOUNT, DGVT_COL_ADDR, DGVT_COL_SIZE,
		DGVT_COL_IS_WRITE, DGVT_COL_BLOCK };
	int64_t buf[DGVT_PAR_N_COLS][300], *col[DGVT_PAR_N_COLS] = { 0 };
	uint8_t nul[DGVT_PAR_N_COLS][300], *nulls[DGVT_PAR_N_COLS] = { 0 };
	struct dgvt_par *p = NULL;
	struct dgvt_par_scan *sc = NULL;
	struct dgvt_par_worker *w = NULL;
	char *out = NULL, *msg = NULL;
	size_t len = 0, cap = 0, n, i, k;

	for (k = 0; k < DGVT_PAR_N_COLS; k++)
		if (want & 1u << k)
			col[k] = buf[k], nulls[k] = nul[k];
	if (dgvt_par_open(path, &p, &msg) != SQLITE_OK
	    || dgvt_par_scan_begin(p, want, &sc, &msg) != SQLITE_OK
	    || dgvt_par_worker_open(sc, &w, &msg) != SQLITE_OK)
		goto done;
	do {
		if (dgvt_par_fill(w, col, nulls, 300, &n, &msg) != SQLITE_OK)
			goto done;
		for (i = 0; i < n; i++) {
			char row[200];
			int m = 0;
			for (k = 0; k < 5; k++) {
				int c = order[k];
				const char *sep = k ? "|" : "";
				if (!col[c])
					m += sprintf(row + m, "%s.", sep);
				else if (c == DGVT_COL_BLOCK && nulls[c][i])
					m += sprintf(row + m, "%s", sep);
				else
					m += sprintf(row + m, "%s%lld", sep, (long long)col[c][i]);
			}
			row[m++] = '\n';
			if (len + m + 1 > cap && !(out = realloc(out, cap = 2 * cap + m + 4096)))
				exit(2);
			memcpy(out + len, row, m);
			len += m;
		}
	} while (n);
	if (!out && !(out = malloc(1)))
		exit(2);
	out[len] = 0;
done:
	if (msg)
		tu_note("dgvt_par: %s", msg);
	sqlite3_free(msg);
	if (w)
		dgvt_par_worker_close(w);
	if (sc)
		dgvt_par_scan_end(sc);
	if (p)
		dgvt_par_close(p);
	return out;
}

/* Where a and b part (a note), for a failed comparison. */
static void note_diff(const char *what, const char *a, const char *b)
{
	size_t i = 0, line = 1;

	if (!a || !b) {
		tu_note("%s: %s", what, a ? "no rows from dgvt_par" : "no rows from the table");
		return;
	}
	while (a[i] && a[i] == b[i])
		line += a[i++] == '\n';
	tu_note("%s: line %zu: table '%.40s' par '%.40s'", what, line, a + i, b + i);
}

/* lib/dgvt_par's rows against the table's: with the addresses (block_id
   by dgvt_live's moving set of live blocks, the table's by its search of
   the sorted blocks) and without them (the chunks' addresses skipped,
   but for the guarded contexts'). */
static void test_par_scan(struct mk *m)
{
	const char *path = "test_dgvtab_par.db";
	char sql[128], *want, *got, *e = NULL;

	remove(path);
	snprintf(sql, sizeof sql, "VACUUM INTO '%s'", path);
	if (sqlite3_exec(m->db, sql, NULL, NULL, &e) != SQLITE_OK) {
		tu_check(0, "par scan: the database is written out: %s", e);
		sqlite3_free(e);
		return;
	}
	want = query_text(m->db, "SELECT icount || '|' || addr || '|' || size || '|' || is_write "
	                         "|| '|' || coalesce(block_id, '') FROM accesses", &e);
	got = par_rows(path, 1u << DGVT_COL_ICOUNT | 1u << DGVT_COL_ADDR | 1u << DGVT_COL_SIZE
	                     | 1u << DGVT_COL_IS_WRITE | 1u << DGVT_COL_BLOCK);
	tu_check(got && want && !strcmp(got, want), "par scan: every row, block_id by the live set");
	if (!got || !want || strcmp(got, want))
		note_diff("par scan", want, got);
	free(e);
	e = NULL;
	free(want);
	free(got);
	want = query_text(m->db, "SELECT icount || '|.|' || size || '|' || is_write || '|.' FROM accesses", &e);
	got = par_rows(path, 1u << DGVT_COL_ICOUNT | 1u << DGVT_COL_SIZE | 1u << DGVT_COL_IS_WRITE);
	tu_check(got && want && !strcmp(got, want), "par scan without addresses: the same rows, guarded zeros left out");
	if (!got || !want || strcmp(got, want))
		note_diff("par scan without addresses", want, got);
	free(e);
	free(want);
	free(got);
	remove(path);
}

static void test_random_db(void)
{
	struct mk m;

	mk_open(&m);
	random_defs(&m);
	random_trace(&m, 120);
	random_blocks(&m, m.icount);
	mk_blocks_done(&m);
	tu_note("random trace: %zu accesses in %lld chunks, %d blocks", m.n_rows, (long long)m.chunk - 1, m.n_blocks);
	test_full_scan(&m);
	test_par_scan(&m);
	exec(m.db, "CREATE TEMP TABLE ref_rowids AS SELECT rowid AS rowid, chunk_id FROM accesses");
	if (getenv("DGVTAB_SAVE")) {
		char *e = NULL;
		sqlite3_exec(m.db, "VACUUM INTO 'random.db'", NULL, NULL, &e);
	}
	test_random_constraints(&m, 600);
	test_plans(&m);
	test_rowids(&m);
	mk_close(&m);
}

/* A database of schema 8: chunks coded as BBRUNS payloads, no meta key
   chunk_coding; one coded "chains-near" (schema 14 on); then one whose
   chunk_coding no reader knows. */
static void test_schema8_db(void)
{
	static const struct {
		enum dgchunk_coding coding;
		const char *label, *sql;        /* how the database says so */
	} codings[] = {
		{ DGCHUNK_RUNS, "schema 8", "PRAGMA user_version = 8" },
		{ DGCHUNK_NEAR, "chains-near", "INSERT INTO meta VALUES ('chunk_coding', 'chains-near')" },
	};
	struct mk m;
	char *got;
	size_t i;

	for (i = 0; i < sizeof codings / sizeof *codings; i++) {
		mk_open(&m);
		dgchunk_set_coding(&m.codec, codings[i].coding);
		exec(m.db, codings[i].sql);
		random_defs(&m);
		random_trace(&m, 30);
		random_blocks(&m, m.icount);
		mk_blocks_done(&m);
		tu_note("%s: %zu accesses in %lld chunks", codings[i].label, m.n_rows,
		        (long long)m.chunk - 1);
		test_full_scan(&m);
		mk_close(&m);
	}

	mk_open(&m);
	exec(m.db, "INSERT INTO meta VALUES ('chunk_coding', 'zip')");
	random_defs(&m);
	random_trace(&m, 2);
	got = query1(m.db, "SELECT count(*) FROM accesses");
	tu_check(strstr(got, "chunk_coding is 'zip'") != NULL,
	         "an unknown chunk_coding is an error that names it: %s", got);
	free(got);
	mk_close(&m);
}

/* A hand-made history at one address: block 10 [0x1000,+64) lives 0..100,
   block 20 [0x1000,+32) 100..200, block 30 [0x1000,+64) from 200 on; pool
   block 40 [0x2000,+256) 0..300 holds block 50 [0x2040,+16) 10..20. */
static void test_block_history(void)
{
	static const struct { int64_t icount, addr; const char *want; } probes[] = {
		{ 50, 0x1030, "10" }, { 99, 0x103f, "10" }, { 100, 0x1030, "-" }, { 150, 0x1010, "20" },
		{ 199, 0x1000, "20" }, { 250, 0x1030, "30" }, { 250, 0x1040, "-" }, { 15, 0x2040, "50" },
		{ 15, 0x2050, "40" }, { 25, 0x2040, "40" }, { 300, 0x2040, "-" }, { 5, 0x0fff, "-" },
	};
	struct desc d = { 0x400000, 0, 8, 1, 0 };
	struct mk m;
	size_t i;
	char want[512] = "", *p = want, *got;

	mk_open(&m);
	mk_bbdef(&m, 1, 1, &d);
	mk_context(&m, 0);
	mk_block(&m, 0x1000, 64, 0, 100);
	mk_block(&m, 0x1000, 32, 100, 200);
	mk_block(&m, 0x1000, 64, 200, -1);
	mk_block(&m, 0x2000, 256, 0, 300);
	mk_block(&m, 0x2040, 16, 10, 20);
	for (i = 0; i < sizeof probes / sizeof *probes; i++) {
		uint64_t a = (uint64_t)probes[i].addr;
		mk_chunk_begin(&m, 1, probes[i].icount);
		mk_run(&m, 0, 0, 1, &a, 1);
		mk_chunk_end(&m);
		p += sprintf(p, "%s%s", i ? "," : "", probes[i].want);
	}
	got = query1(m.db, "SELECT group_concat(coalesce(block_id, '-')) FROM accesses");
	tu_check(!strcmp(got, want), "block_id with reuse and nesting: %s", got);
	free(got);
	got = query1(m.db, "SELECT group_concat(icount) FROM accesses WHERE block_id = 40");
	tu_check(!strcmp(got, "15,25"), "block_id = pool leaves out its nested block: %s", got);
	free(got);
	got = query1(m.db, "SELECT group_concat(icount) FROM accesses WHERE block_id = 20");
	tu_check(!strcmp(got, "150,199"), "block_id = a reused address's second block: %s", got);
	free(got);
	got = query1(m.db, "SELECT count(*) FROM accesses WHERE block_id = 999");
	tu_check(!strcmp(got, "0"), "block_id = no such block: no rows");
	free(got);
	mk_close(&m);
}

/* Chunk 2 of 3 is damaged in several ways in turn. */
static void test_corrupt(void)
{
	static const struct { const char *what; const uint8_t *data; size_t len; } bad[] = {
		{ "truncated varint", (const uint8_t *)"\x00\x80", 2 },
		{ "context out of range", (const uint8_t *)"\x40\x01", 2 },
		{ "partial run past the end", (const uint8_t *)"\x02", 1 },
		{ "chain to an undefined context", (const uint8_t *)"\x01", 1 },
		{ "chain of 65 runs", (const uint8_t *)"\x81\x01", 2 },
		{ "overlong varint", (const uint8_t *)"\x00\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f", 11 },
	};
	struct desc d = { 0x400000, 0, 4, 0, 0 };
	size_t i;

	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		struct mk m;
		uint64_t a = 0x5000;
		char *got;
		int c;

		mk_open(&m);
		mk_bbdef(&m, 2, 1, &d);
		mk_context(&m, 0);
		for (c = 1; c <= 3; c++) {
			mk_chunk_begin(&m, 1, 10 * c);
			mk_run(&m, 0, 0, 2, &a, 1);
			if (c == 2)
				mk_chunk_end_data(&m, bad[i].data, bad[i].len);
			else
				mk_chunk_end(&m);
		}
		got = query1(m.db, "SELECT count(*) FROM accesses");
		tu_check(strstr(got, "chunk 2") && strstr(got, "malformed"), "%s: error names the chunk: %s",
		         bad[i].what, got);
		free(got);
		got = query1(m.db, "SELECT count(*) FROM accesses WHERE icount >= 30");
		tu_check(!strcmp(got, "1"), "%s: an icount range past it does not decode it: %s", bad[i].what, got);
		free(got);
		got = query1(m.db, "SELECT count(*) FROM accesses WHERE chunk_id = 1");
		tu_check(!strcmp(got, "1"), "%s: chunk_id = 1 does not decode it: %s", bad[i].what, got);
		free(got);
		mk_close(&m);
	}
}

static void test_bad_definitions(void)
{
	struct mk m;
	char *got;

	mk_open(&m);
	exec(m.db, "INSERT INTO bbdefs VALUES (0, 0, 1, 2, 0); INSERT INTO access_descs VALUES (0, 0, 0, 0, 0, 4, 0, 0);"
	     "INSERT INTO contexts VALUES (0, 0, 0)");
	got = query1(m.db, "SELECT count(*) FROM accesses");
	tu_check(strstr(got, "bbdef 0") != NULL, "missing access_descs: %s", got);
	free(got);
	mk_close(&m);

	mk_open(&m);
	exec(m.db, "INSERT INTO bbdefs VALUES (0, 0, 1, 0, 0); INSERT INTO contexts VALUES (0, 7, 0)");
	got = query1(m.db, "SELECT count(*) FROM accesses");
	tu_check(strstr(got, "context 0: no bbdef 7") != NULL, "context without bbdef: %s", got);
	free(got);
	mk_close(&m);

	{
		sqlite3 *db;
		sqlite3_open(":memory:", &db);
		dgvtab_register(db, NULL);
		got = query1(db, "SELECT count(*) FROM accesses");
		tu_check(strstr(got, "accesses: ") && strstr(got, "no such table"), "not a trace database: %s", got);
		free(got);
		exec(db, "ATTACH ':memory:' AS aux");
		got = query1(db, "CREATE VIRTUAL TABLE temp.x USING accesses");
		tu_check(!strcmp(got, ""), "CREATE VIRTUAL TABLE ... USING accesses: %s", got);
		free(got);
		sqlite3_close(db);
	}
}

/* Self-join: two cursors decode at once. */
static void test_self_join(void)
{
	struct desc d[2] = { { 0x400000, 0, 4, 0, 0 }, { 0x400004, 1, 4, 1, 0 } };
	struct mk m;
	char *got;
	int c;

	mk_open(&m);
	mk_bbdef(&m, 2, 2, d);
	mk_context(&m, 0);
	for (c = 0; c < 4; c++) {
		uint64_t a[2] = { 0x5000 + 8 * c, 0x6000 + 8 * c };
		mk_chunk_begin(&m, 1, 10 * c);
		mk_run(&m, 0, 0, 2, a, 2);
		mk_run(&m, 0, 0, 2, a, 2);
		mk_chunk_end(&m);
	}
	got = query1(m.db, "SELECT count(*) FROM accesses r JOIN accesses w ON w.addr = r.addr + 0x1000 AND w.icount = r.icount + 1");
	tu_check(!strcmp(got, "8"), "self-join: %s", got);
	free(got);
	mk_close(&m);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		schema_path = argv[1];
	if (argc > 2)           /* another random trace: a seed */
		rng = strtoull(argv[2], NULL, 0) | 1;
	test_random_db();
	test_schema8_db();
	test_block_history();
	test_corrupt();
	test_bad_definitions();
	test_self_join();
	return tu_failed;
}
