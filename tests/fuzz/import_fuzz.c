/* import_fuzz.c: libFuzzer target for the whole import path.  The input
 * bytes are written as a log file into a private temporary directory, the
 * real importer (every importer/ file but dg-import.c, the main, through
 * imp_import_file) turns it into a database beside it, symbols included
 * (logs whose MMAP records name real binaries make libdw run; separate
 * debug files are not looked for: --no-system-debug), and the result is
 * checked:
 *
 *   - an error (IMP_ERROR) has a message and leaves no database and no
 *     temporary file; anything else must be IMP_OK or IMP_INCOMPLETE
 *   - a database says complete = 1 exactly when the import said IMP_OK
 *   - meta runs and accesses equal the sums over chunks and over threads
 *   - every chunk decodes (lib/dgchunk, the coding meta chunk_coding names,
 *     the contexts and bbdefs of the same database) into exactly its n_runs runs and n_accesses accesses
 *     (guarded accesses that were not made do not count)
 *
 * A failed check is __builtin_trap(), like a crash.  Inputs the importer
 * rejects are fine; a crash, a sanitizer report or a broken database are
 * not.
 *
 * Build and run: make fuzz FUZZ=import (tests/fuzz/fuzz.mk); make test
 * replays its corpus tests/fuzz/import/ (tests/t0190-fuzz-corpus.sh).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sqlite3.h>

#include "imp.h"
#include "dgchunk.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[PATH_MAX], log_path[PATH_MAX], db_path[PATH_MAX], tmp_path[PATH_MAX];

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static void cleanup(void)
{
	unlink(log_path);
	unlink(db_path);
	rmdir(dir);
}

/* A private directory on tmpfs when there is one: the importer syncs. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";

	(void)argc;
	(void)argv;
	unsetenv("DEBUGINFOD_URLS");     /* no downloads (as dg-import) */
	snprintf(dir, sizeof dir, "%s/dg-import-fuzz.XXXXXX", base);
	if (!mkdtemp(dir)) {
		perror("import_fuzz: mkdtemp");
		exit(1);
	}
	snprintf(log_path, sizeof log_path, "%s/in.dg", dir);
	snprintf(db_path, sizeof db_path, "%s/out.db", dir);
	snprintf(tmp_path, sizeof tmp_path, "%s.tmp.%ld", db_path, (long)getpid());
	atexit(cleanup);
	return 0;
}

static int64_t one(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -1;

	CHECK(sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* The guarded flag of every access of every bbdef, and each context's
   bbdef registered with the codec in index order. */
struct shapes {
	uint8_t **guarded;       /* by bbdef */
	int64_t n_bbdefs;
	int64_t *ctx_bbdef;      /* by context */
	int64_t n_ctx;
};

static void shapes_load(sqlite3 *db, struct dgchunk_codec *c, struct shapes *s)
{
	sqlite3_stmt *st;

	s->n_bbdefs = one(db, "SELECT count(*) FROM bbdefs");
	s->n_ctx = one(db, "SELECT count(*) FROM contexts");
	CHECK(s->n_bbdefs == one(db, "SELECT coalesce(max(id) + 1, 0) FROM bbdefs"));
	CHECK(s->n_ctx == one(db, "SELECT coalesce(max(id) + 1, 0) FROM contexts"));
	s->guarded = calloc((size_t)s->n_bbdefs + 1, sizeof *s->guarded);
	s->ctx_bbdef = calloc((size_t)s->n_ctx + 1, sizeof *s->ctx_bbdef);
	CHECK(s->guarded && s->ctx_bbdef);
	CHECK(sqlite3_prepare_v2(db, "SELECT id, n_accesses FROM bbdefs ORDER BY id",
	                         -1, &st, NULL) == SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0), n = sqlite3_column_int64(st, 1);
		CHECK(id >= 0 && id < s->n_bbdefs && n >= 0 && n <= IMP_CHUNK_MAX);
		s->guarded[id] = calloc((size_t)n + 1, 1);
		CHECK(s->guarded[id]);
	}
	sqlite3_finalize(st);
	CHECK(sqlite3_prepare_v2(db, "SELECT a.bbdef_id, a.aseq, a.flags, b.n_accesses "
	                         "FROM access_descs a JOIN bbdefs b ON b.id = a.bbdef_id",
	                         -1, &st, NULL) == SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t b = sqlite3_column_int64(st, 0), i = sqlite3_column_int64(st, 1);
		CHECK(b >= 0 && b < s->n_bbdefs && i >= 0 && i < sqlite3_column_int64(st, 3));
		s->guarded[b][i] = (sqlite3_column_int(st, 2) & DG_AF_GUARDED) != 0;
	}
	sqlite3_finalize(st);
	CHECK(sqlite3_prepare_v2(db, "SELECT c.id, c.bbdef_id, b.n_instrs, b.n_accesses FROM "
	                         "contexts c JOIN bbdefs b ON b.id = c.bbdef_id ORDER BY c.id",
	                         -1, &st, NULL) == SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		CHECK(sqlite3_column_int64(st, 0) == (int64_t)c->n_ctx);
		s->ctx_bbdef[c->n_ctx] = sqlite3_column_int64(st, 1);
		CHECK(dgchunk_add_context(c, (uint32_t)sqlite3_column_int64(st, 2),
		                          (uint32_t)sqlite3_column_int64(st, 3)) == 0);
	}
	sqlite3_finalize(st);
	CHECK((int64_t)c->n_ctx == s->n_ctx);
}

static void shapes_free(struct shapes *s)
{
	for (int64_t i = 0; i < s->n_bbdefs; i++)
		free(s->guarded[i]);
	free(s->guarded);
	free(s->ctx_bbdef);
}

/* Decode every chunk: its runs and made accesses match its row. */
static void chunks_check(sqlite3 *db)
{
	struct dgchunk_codec c;
	struct dgchunk_run run;
	struct shapes s;
	sqlite3_stmt *st;

	int coding;

	dgchunk_init(&c);
	CHECK(sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = 'chunk_coding'",
	                         -1, &st, NULL) == SQLITE_OK);
	CHECK(sqlite3_step(st) == SQLITE_ROW);
	coding = dgchunk_coding_named((const char *)sqlite3_column_text(st, 0));
	CHECK(coding >= 0);
	sqlite3_finalize(st);
	dgchunk_set_coding(&c, (enum dgchunk_coding)coding);
	shapes_load(db, &c, &s);
	CHECK(sqlite3_prepare_v2(db, "SELECT n_runs, n_accesses, data FROM chunks",
	                         -1, &st, NULL) == SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t runs = 0, made = 0;
		int n;
		dgchunk_decode_begin(&c, sqlite3_column_blob(st, 2),
		                     (size_t)sqlite3_column_bytes(st, 2));
		while ((n = dgchunk_next(&c, &run)) > 0) {
			const uint8_t *g = s.guarded[s.ctx_bbdef[run.context]];
			runs++;
			for (uint32_t i = 0; i < run.n_addrs; i++)
				made += !(run.addrs[i] == 0 && g[i]);
		}
		CHECK(n == 0);
		CHECK(runs == sqlite3_column_int64(st, 0));
		CHECK(made == sqlite3_column_int64(st, 1));
	}
	sqlite3_finalize(st);
	shapes_free(&s);
	dgchunk_free(&c);
}

static void db_check(int rc)
{
	sqlite3 *db;
	int64_t acc, runs;

	CHECK(sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
	CHECK(one(db, "SELECT value FROM meta WHERE key = 'complete'") == (rc == IMP_OK));
	acc = one(db, "SELECT value FROM meta WHERE key = 'accesses'");
	runs = one(db, "SELECT value FROM meta WHERE key = 'runs'");
	CHECK(acc == one(db, "SELECT coalesce(sum(n_accesses), 0) FROM chunks"));
	CHECK(runs == one(db, "SELECT coalesce(sum(n_runs), 0) FROM chunks"));
	CHECK(acc == one(db, "SELECT coalesce(sum(accesses), 0) FROM threads"));
	CHECK(runs == one(db, "SELECT coalesce(sum(runs), 0) FROM threads"));
	chunks_check(db);
	sqlite3_close(db);
}

static int write_log(const uint8_t *data, size_t size)
{
	int fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	size_t done = 0;

	if (fd < 0)
		return -1;
	while (done < size) {
		ssize_t w = write(fd, data + done, size - done);
		if (w <= 0) {
			close(fd);
			return -1;
		}
		done += (size_t)w;
	}
	return close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct imp_options o;
	char err[1024] = "";
	int rc;

	if (write_log(data, size) < 0)
		return 0;
	unlink(db_path);
	memset(&o, 0, sizeof o);
	o.log_path = log_path;
	o.db_path = db_path;
	o.quiet = 1;
	/* The corpus is the input, not this machine's debug packages: with
	   libc6-dbg installed, inflating libc's compressed debug file for
	   every input that maps libc took two thirds of the replay. */
	o.no_system_debug = 1;
	rc = imp_import_file(&o, err, sizeof err);
	CHECK(access(tmp_path, F_OK) != 0);        /* never a temporary file left */
	if (rc == IMP_ERROR) {
		CHECK(err[0] != 0);
		CHECK(access(db_path, F_OK) != 0);
		return 0;
	}
	CHECK(rc == IMP_OK || rc == IMP_INCOMPLETE);
	db_check(rc);
	unlink(db_path);
	return 0;
}
