/* vtabgen.c: a synthetic trace database for bench/vtab.sh.
 *
 *     vtabgen SCHEMA.SQL OUT.DB [MILLION_ACCESSES]
 *
 * Makes OUT.DB from schema/schema.sql with about MILLION_ACCESSES (50)
 * million accesses in chunks encoded by lib/dgchunk, the way dg-import
 * lays them out: 2 threads taking turns, chunks of 4096 runs, one row per
 * 64 KiB region and per context in chunk_regions / context_chunks (a row a chunk).  The
 * program: 256 bbdefs of 1 to 12 instructions and 0 to 8 accesses (a
 * quarter writes, some guarded), 2048 contexts, each access walking its own
 * array with a fixed stride (stack, globals or the heap: a window of
 * 128 KiB that moves over the heap once in the trace, so a 64 KiB range is
 * in few chunks); the heap has
 * 100 000 blocks of 16 to 4096 bytes, each address reused by successive
 * blocks.  Deterministic: the same arguments give the same database.
 * Prints "accesses N chunks N blocks N".
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dgchunk.h"
#include "dgsumfnblock.h"

#define N_BB 256
#define N_CTX 2048
#define N_BLOCKS 100000
#define SLOTS 2000              /* heap addresses reused by the blocks */
#define HEAP 0x4000000LL

struct bb { int n_instrs, n_acc, iseq[8], size[8], is_write[8], guarded[8]; };

static struct bb bbs[N_BB];
static int ctx_bb[N_CTX];
static uint64_t cursor_addr[N_CTX][8], stride[N_CTX][8];
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static int64_t phase, phases = 1; /* heap slots in use drift with time */

static uint64_t rnd(uint64_t n)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return rng % n;
}

static void die(sqlite3 *db, const char *what)
{
	fprintf(stderr, "vtabgen: %s: %s\n", what, db ? sqlite3_errmsg(db) : "out of memory");
	exit(1);
}

static void exec(sqlite3 *db, const char *sql)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		die(db, sql);
}

static sqlite3_stmt *prep(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		die(db, sql);
	return st;
}

static void step(sqlite3 *db, sqlite3_stmt *st)
{
	if (sqlite3_step(st) != SQLITE_DONE)
		die(db, "insert");
	sqlite3_reset(st);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	long n;
	char *s;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)
	    || !(s = malloc(n + 1)) || fread(s, 1, n, f) != (size_t)n) {
		fprintf(stderr, "vtabgen: cannot read %s\n", path);
		exit(1);
	}
	s[n] = 0;
	fclose(f);
	return s;
}

/* Where each access of a context walks: stack, globals or a heap slot. */
static uint64_t start_addr(int kind)
{
	switch (kind) {
	case 0: return 0x1ffefff000ULL + 8 * rnd(512);
	case 1: return 0x600000 + 8 * rnd(8192);
	default: return HEAP + 4096 * ((phase * (SLOTS - 32) / phases + rnd(32)) % SLOTS);
	}
}

static void make_defs(sqlite3 *db, struct dgchunk_codec *c)
{
	sqlite3_stmt *bi = prep(db, "INSERT INTO bbdefs VALUES (?1, ?2, ?3, ?4, 0)");
	sqlite3_stmt *ai = prep(db, "INSERT INTO access_descs VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 0)");
	sqlite3_stmt *ci = prep(db, "INSERT INTO contexts VALUES (?1, ?2, 0)");
	int b, i, k;

	for (b = 0; b < N_BB; b++) {
		struct bb *d = &bbs[b];
		d->n_instrs = 1 + (int)rnd(12);
		d->n_acc = (int)rnd(9);
		sqlite3_bind_int(bi, 1, b);
		sqlite3_bind_int64(bi, 2, 0x400000 + 64 * b);
		sqlite3_bind_int(bi, 3, d->n_instrs);
		sqlite3_bind_int(bi, 4, d->n_acc);
		step(db, bi);
		for (i = 0; i < d->n_acc; i++) {
			d->iseq[i] = (int)((int64_t)i * d->n_instrs / (d->n_acc ? d->n_acc : 1));
			d->size[i] = 1 << rnd(4);
			d->is_write[i] = rnd(4) == 0;
			d->guarded[i] = rnd(32) == 0;
			sqlite3_bind_int(ai, 1, b);
			sqlite3_bind_int(ai, 2, i);
			sqlite3_bind_int(ai, 3, d->iseq[i]);
			sqlite3_bind_int64(ai, 4, 0x400000 + 64 * b + 4 * d->iseq[i]);
			sqlite3_bind_int(ai, 5, d->is_write[i]);
			sqlite3_bind_int(ai, 6, d->size[i]);
			sqlite3_bind_int(ai, 7, d->guarded[i]);
			step(db, ai);
		}
	}
	for (k = 0; k < N_CTX; k++) {
		ctx_bb[k] = (int)rnd(N_BB);
		sqlite3_bind_int(ci, 1, k);
		sqlite3_bind_int(ci, 2, ctx_bb[k]);
		step(db, ci);
		if (dgchunk_add_context(c, bbs[ctx_bb[k]].n_instrs, bbs[ctx_bb[k]].n_acc) < 0)
			die(NULL, "codec");
		for (i = 0; i < 8; i++) {
			cursor_addr[k][i] = start_addr((int)rnd(3));
			stride[k][i] = 8 * rnd(3);
		}
	}
	sqlite3_finalize(bi);
	sqlite3_finalize(ai);
	sqlite3_finalize(ci);
}

/* Blocks: each of SLOTS heap slots of 4 KiB is reused by successive blocks
   over the whole trace. */
static void make_blocks(sqlite3 *db, int64_t icount_end)
{
	sqlite3_stmt *st = prep(db, "INSERT INTO blocks (id, addr, size, alloc_icount, free_icount)"
	                            " VALUES (?1, ?2, ?3, ?4, ?5)");
	int64_t per = N_BLOCKS / SLOTS, span = icount_end / per, id = 1;
	int s, j;

	for (s = 0; s < SLOTS; s++)
		for (j = 0; j < per; j++) {
			sqlite3_bind_int64(st, 1, id++);
			sqlite3_bind_int64(st, 2, HEAP + 4096LL * s);
			sqlite3_bind_int64(st, 3, 16 << rnd(9));
			sqlite3_bind_int64(st, 4, j * span + (int64_t)rnd(span / 4 + 1));
			if (j == per - 1)
				sqlite3_bind_null(st, 5);
			else
				sqlite3_bind_int64(st, 5, (j + 1) * span - (int64_t)rnd(span / 4 + 1));
			step(db, st);
		}
	sqlite3_finalize(st);
}

struct chunk {
	int64_t id, thread, icount_lo, icount, addr_lo, addr_hi, runs, acc;
	uint8_t ctx_used[N_CTX];
	int64_t regions[65536];
	int n_regions;
};

static void note_region(struct chunk *k, int64_t r)
{
	int i;

	for (i = k->n_regions - 1; i >= 0 && i >= k->n_regions - 8; i--)
		if (k->regions[i] == r)
			return;
	if (k->n_regions < 65536)
		k->regions[k->n_regions++] = r;
}

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static void store_chunk(sqlite3 *db, sqlite3_stmt *ins, sqlite3_stmt *reg, sqlite3_stmt *cc,
                        struct chunk *k, const struct dgchunk_buf *b)
{
	int i;

	sqlite3_bind_int64(ins, 1, k->id);
	sqlite3_bind_int64(ins, 2, k->thread);
	sqlite3_bind_int64(ins, 3, k->icount_lo);
	sqlite3_bind_int64(ins, 4, k->icount);
	sqlite3_bind_int64(ins, 5, k->addr_lo);
	sqlite3_bind_int64(ins, 6, k->addr_hi);
	sqlite3_bind_int64(ins, 7, k->runs);
	sqlite3_bind_int64(ins, 8, k->acc);
	sqlite3_bind_blob(ins, 9, b->data, (int)b->len, SQLITE_STATIC);
	step(db, ins);
	qsort(k->regions, k->n_regions, sizeof *k->regions, cmp64);
	for (i = 0; i < k->n_regions; i++)
		if (i == 0 || k->regions[i] != k->regions[i - 1]) {
			sqlite3_bind_int64(reg, 1, k->regions[i]);
			sqlite3_bind_int64(reg, 2, k->id);
			step(db, reg);
		}
	for (i = 0; i < N_CTX; i++)
		if (k->ctx_used[i]) {
			sqlite3_bind_int(cc, 1, i);
			sqlite3_bind_int64(cc, 2, k->id);
			sqlite3_bind_int64(cc, 3, k->id);
			step(db, cc);
		}
}

/* One run of context x: each access one stride further. */
static void put_run(struct dgchunk_codec *c, struct dgchunk_buf *b, struct chunk *k, int x)
{
	const struct bb *d = &bbs[ctx_bb[x]];
	uint64_t a[8];
	int i;

	for (i = 0; i < d->n_acc; i++) {
		uint64_t *p = &cursor_addr[x][i];
		*p += stride[x][i];
		if (rnd(64) == 0)
			*p = start_addr((int)rnd(3));
		a[i] = d->guarded[i] && rnd(2) ? 0 : *p;
		if (a[i]) {
			if ((int64_t)a[i] < k->addr_lo) k->addr_lo = (int64_t)a[i];
			if ((int64_t)a[i] > k->addr_hi) k->addr_hi = (int64_t)a[i];
			note_region(k, (int64_t)(a[i] >> 16));
			k->acc++;
		}
	}
	if (dgchunk_put_run(c, b, x, 0, d->n_instrs, a, d->n_acc) < 0)
		die(NULL, "encode");
	k->ctx_used[x] = 1;
	k->icount += d->n_instrs;
	k->runs++;
}

static int64_t make_chunks(sqlite3 *db, struct dgchunk_codec *c, int64_t want)
{
	sqlite3_stmt *ins = prep(db, "INSERT INTO chunks VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
	sqlite3_stmt *reg = prep(db, "INSERT INTO chunk_regions VALUES (?1, ?2)");
	sqlite3_stmt *cc = prep(db, "INSERT INTO context_chunks VALUES (?1, ?2, ?3, x'')");
	static struct chunk k;
	struct dgchunk_buf b = { 0 };
	int64_t total = 0, icount = 0, id = 1;

	phases = want / 15000 + 1;      /* about the number of chunks */

	while (total < want) {
		int r, x = (int)rnd(N_CTX);
		memset(&k, 0, sizeof k);
		k.id = id++;
		phase = k.id;
		k.thread = 1 + (id & 1);
		k.icount_lo = k.icount = icount;
		k.addr_lo = INT64_MAX, k.addr_hi = INT64_MIN;
		b.len = 0;
		dgchunk_begin(c);
		for (r = 0; r < 4096; r++) {
			x = rnd(4) ? (x + 1) % N_CTX : (int)rnd(N_CTX);   /* loops, mostly */
			put_run(c, &b, &k, x);
		}
		store_chunk(db, ins, reg, cc, &k, &b);
		total += k.acc;
		icount = k.icount;
	}
	dgchunk_buf_free(&b);
	sqlite3_finalize(ins);
	sqlite3_finalize(reg);
	sqlite3_finalize(cc);
	printf("accesses %lld chunks %lld ", (long long)total, (long long)id - 1);
	return icount;
}

int main(int argc, char **argv)
{
	struct dgchunk_codec c;
	sqlite3 *db;
	char *schema;
	int64_t icount;

	if (argc < 3) {
		fprintf(stderr, "usage: vtabgen SCHEMA.SQL OUT.DB [MILLION_ACCESSES]\n");
		return 2;
	}
	schema = slurp(argv[1]);
	remove(argv[2]);
	if (sqlite3_open(argv[2], &db) != SQLITE_OK)
		die(db, argv[2]);
	exec(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN");
	if (dgsumfnblock_register(db, NULL) != SQLITE_OK)   /* the schema's virtual table */
		die(db, argv[2]);
	exec(db, schema);
	dgchunk_init(&c);
	make_defs(db, &c);
	icount = make_chunks(db, &c, (int64_t)((argc > 3 ? atof(argv[3]) : 50) * 1e6));
	make_blocks(db, icount);
	exec(db, "COMMIT");
	printf("blocks %d\n", N_BLOCKS);
	dgchunk_free(&c);
	free(schema);
	return sqlite3_close(db) == SQLITE_OK ? 0 : 1;
}
