/* sqlite_ceiling.c: SQLite's own bulk-insert ceiling, for bench/import.sh.
 *
 *     sqlite_ceiling N DATABASE
 *
 * Inserts N rows (icount, addr, size, is_write, pc, thread) into a bare
 * table (no index, no primary key) of a new DATABASE: journal off,
 * synchronous off, one transaction, one prepared 100-row INSERT statement
 * re-bound for every 100 rows.  The values look like a trace's (icount
 * increasing, addresses walking a few arrays and a stack, a few hundred
 * pcs).  Prints "rows N seconds S rows_per_s R bytes B" (wall clock,
 * including the commit; B the database's size).  It is the rate a plain
 * one-row-per-access database could reach at best on this machine; dg-import
 * stores accesses in compressed chunks and should beat it.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#define ROWS_PER_STMT 100
#define COLS 6

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int exec(sqlite3 *db, const char *sql)
{
	char *err = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
		fprintf(stderr, "sqlite_ceiling: %s: %s\n", sql, err ? err : "?");
		sqlite3_free(err);
		return -1;
	}
	return 0;
}

static sqlite3_stmt *prepare(sqlite3 *db, int rows)
{
	size_t cap = 64 + (size_t)rows * 16;
	char *sql = malloc(cap);
	size_t n;
	sqlite3_stmt *st = NULL;

	if (!sql)
		return NULL;
	n = (size_t)snprintf(sql, cap, "INSERT INTO a VALUES ");
	for (int r = 0; r < rows; r++)
		n += (size_t)snprintf(sql + n, cap - n, "%s(?,?,?,?,?,?)", r ? "," : "");
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "sqlite_ceiling: prepare: %s\n", sqlite3_errmsg(db));
		st = NULL;
	}
	free(sql);
	return st;
}

/* Row k's values: a made-up but trace-like access. */
static void row(uint64_t k, int64_t v[COLS])
{
	uint64_t h = k * 0x9E3779B97F4A7C15ull;

	v[0] = (int64_t)(k + k / 3);                          /* icount */
	switch (h >> 62) {                                    /* addr */
	case 0: v[1] = 0x1fff000000 - (int64_t)(h >> 56 & 0xf8); break;
	case 1: v[1] = 0x4a3a000 + (int64_t)(k % 65536) * 8; break;
	default: v[1] = 0x5000000 + (int64_t)(h >> 40 & 0xfffff8); break;
	}
	v[2] = 1 << (h >> 33 & 3);                            /* size */
	v[3] = (h >> 36 & 3) == 0;                            /* is_write */
	v[4] = 0x401000 + (int64_t)(h >> 44 & 0x3ff) * 4;     /* pc */
	v[5] = 1;                                             /* thread */
}

int main(int argc, char **argv)
{
	sqlite3 *db;
	sqlite3_stmt *st, *tail = NULL;
	uint64_t n, k = 0;
	int64_t v[COLS];
	double t0, t1;
	struct stat sb;

	if (argc != 3) {
		fprintf(stderr, "usage: sqlite_ceiling N DATABASE\n");
		return 2;
	}
	n = strtoull(argv[1], NULL, 10);
	unlink(argv[2]);
	if (sqlite3_open(argv[2], &db) != SQLITE_OK) {
		fprintf(stderr, "sqlite_ceiling: %s: %s\n", argv[2], sqlite3_errmsg(db));
		return 1;
	}
	t0 = now();
	if (exec(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
	             "CREATE TABLE a (icount INTEGER, addr INTEGER, size INTEGER,"
	             " is_write INTEGER, pc INTEGER, thread INTEGER); BEGIN") < 0)
		return 1;
	st = prepare(db, ROWS_PER_STMT);
	if (!st)
		return 1;
	for (; k + ROWS_PER_STMT <= n; k += ROWS_PER_STMT) {
		for (int r = 0; r < ROWS_PER_STMT; r++) {
			row(k + (uint64_t)r, v);
			for (int c = 0; c < COLS; c++)
				sqlite3_bind_int64(st, r * COLS + c + 1, v[c]);
		}
		if (sqlite3_step(st) != SQLITE_DONE) {
			fprintf(stderr, "sqlite_ceiling: insert: %s\n", sqlite3_errmsg(db));
			return 1;
		}
		sqlite3_reset(st);
	}
	if (k < n) {
		tail = prepare(db, (int)(n - k));
		if (!tail)
			return 1;
		for (int r = 0; k + (uint64_t)r < n; r++) {
			row(k + (uint64_t)r, v);
			for (int c = 0; c < COLS; c++)
				sqlite3_bind_int64(tail, r * COLS + c + 1, v[c]);
		}
		if (sqlite3_step(tail) != SQLITE_DONE) {
			fprintf(stderr, "sqlite_ceiling: insert: %s\n", sqlite3_errmsg(db));
			return 1;
		}
		sqlite3_finalize(tail);
	}
	sqlite3_finalize(st);
	if (exec(db, "COMMIT") < 0)
		return 1;
	sqlite3_close(db);
	t1 = now();
	if (stat(argv[2], &sb) < 0)
		sb.st_size = 0;
	printf("rows %llu seconds %.3f rows_per_s %.0f bytes %lld\n", (unsigned long long)n,
	       t1 - t0, n / (t1 - t0), (long long)sb.st_size);
	return 0;
}
