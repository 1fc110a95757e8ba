/* dgdb_fuzz.c: libFuzzer target for everything that reads a trace
 * database: the `accesses` virtual table (and through it lib/dgchunk's
 * decoder), dgsql's shell, canned queries, .stats, the filter compiler,
 * the SQL functions and the plotter.  In the manner of SQLite's dbsqlfuzz
 * the input is not a database but a recipe of tampering applied to a real
 * one, so that every run starts from a valid trace and goes deep.
 *
 * The seeds are databases dg-import made from the golden fixture logs
 * (build/fuzz/dgdb-seeds/NAME.db, built by tests/fuzz/dgdb.mk).  The first
 * input byte picks one; it is copied into an in-memory database, then the
 * rest of the input is read as operations, each an opcode byte and its
 * operands (a missing byte reads 0):
 *
 *   SET     table, row, column, value   one cell := a value of a kind:
 *                                       small, 64-bit, extreme, negative,
 *                                       text, blob, NULL, real
 *   CHUNK   row, how, position, byte    a chunks.data blob truncated, a
 *                                       byte flipped, or bytes inserted
 *   DELETE  table, row, count           rows deleted
 *   UNTYPE  table                       the table rebuilt with untyped
 *                                       columns (CREATE TABLE AS), so
 *                                       text fits where INTEGER was
 *   DUP     table, row                  a row inserted again
 *   DROP    table, how                  dropped, or replaced by a view
 *   FILTER  which                       the filter used below
 *   VERSION value                       PRAGMA user_version
 *
 * Tables and rows are chosen modulo what exists.  Then the real code runs
 * on it, as dgsql would (shell_attach, commands_run, shell_exec,
 * shell_set_filter, dgplot_draw writing the script and image to a
 * directory instead of running gnuplot): .stats, every canned query,
 * aggregates on accesses and filtered_accesses, exports of both (list
 * and json: the export fast path), and a plot, unfiltered and filtered.  Errors are the expected outcome for most inputs; a
 * crash, a leak or a sanitizer report is a bug.
 *
 * Built with DGDB_REPORT (the target dgreport, dgreport.mk) the same
 * recipes feed `dgsql --report` instead (report_write, under the recipe's
 * filter), its charts' gnuplot runs replaced by true(1): a report costs
 * a few hundred milliseconds, too much for every dgdb input, so it has
 * its own target and corpus.
 *
 * Build and run: make fuzz FUZZ=dgdb (tests/fuzz/fuzz.mk); make test
 * replays its corpus tests/fuzz/dgdb/ (tests/t0190-fuzz-corpus.sh).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "commands.h"
#include "dgplot.h"
#include "report.h"
#include "shell.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#ifndef DGDB_SEED_DIR
#error "DGDB_SEED_DIR: the directory of the seed databases (dgdb.mk)"
#endif
#ifndef DGDB_QUERIES
#error "DGDB_QUERIES: the canned queries' directory (dgdb.mk)"
#endif

static const char *const seed_names[] = {
	"writes-fill.db", "ranges-main.db", "threads-worker.db"
};
#define N_SEEDS (sizeof seed_names / sizeof seed_names[0])

static struct {
	unsigned char *data;
	size_t len;
} seeds[N_SEEDS];

static FILE *devnull;
static char plot_dir[64];

/* ------------------------------------------------------------ setup */

static void load_seed(size_t i)
{
	char path[4096];
	FILE *f;
	long n;

	snprintf(path, sizeof path, "%s/%s", DGDB_SEED_DIR, seed_names[i]);
	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) <= 0 ||
	    fseek(f, 0, SEEK_SET) != 0) {
		fprintf(stderr, "dgdb_fuzz: cannot read seed '%s' (make "
			"builds it)\n", path);
		exit(1);
	}
	seeds[i].data = malloc((size_t)n);
	if (!seeds[i].data || fread(seeds[i].data, 1, (size_t)n, f) != (size_t)n)
		exit(1);
	seeds[i].len = (size_t)n;
	fclose(f);
}

/* The plot directory goes when the process ends. */
static void remove_plot_dir(void)
{
	static const char *const files[] = {
		"data", "image.rgb", "plot.gp", "report/index.html",
		"report/report.md", "report/report.json", "report"
	};
	char path[128];
	size_t i;

	for (i = 0; i < sizeof files / sizeof files[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", plot_dir, files[i]);
		if (unlink(path) < 0)
			rmdir(path);
	}
	rmdir(plot_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	size_t i;

	for (i = 0; i < N_SEEDS; i++)
		load_seed(i);
	devnull = fopen("/dev/null", "w");
	snprintf(plot_dir, sizeof plot_dir, "/tmp/dgdb-fuzz.XXXXXX");
	if (!devnull || !mkdtemp(plot_dir))
		exit(1);
	atexit(remove_plot_dir);
#ifdef DGDB_REPORT
	setenv("DG_GNUPLOT", "/bin/true", 1);   /* charts: scripts only */
#endif
	/* no lookaside surprises between runs: every run starts afresh */
	sqlite3_config(SQLITE_CONFIG_LOOKASIDE, 0, 0);
	return 0;
}

/* ------------------------------------------------------------ the recipe */

struct recipe {
	const uint8_t *p, *end;
};

static unsigned byte(struct recipe *r)
{
	return r->p < r->end ? *r->p++ : 0;
}

static uint64_t u64(struct recipe *r)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | byte(r);
	return v;
}

/* The database to tamper with, and its tables. */
struct target {
	sqlite3 *db;
	char names[64][64];
	int n;
};

static void list_tables(struct target *t)
{
	sqlite3_stmt *st;

	t->n = 0;
	if (sqlite3_prepare_v2(t->db, "SELECT name FROM sqlite_schema WHERE "
			       "type IN ('table', 'view') AND name NOT LIKE "
			       "'sqlite%' ORDER BY name", -1, &st, NULL) != SQLITE_OK)
		return;
	while (t->n < 64 && sqlite3_step(st) == SQLITE_ROW)
		snprintf(t->names[t->n++], sizeof t->names[0], "%s",
			 (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

static const char *pick_table(struct target *t, struct recipe *r)
{
	unsigned k = byte(r);

	return t->n ? t->names[k % t->n] : "meta";
}

/* Runs SQL with ?1 and ?2 bound to the given values (errors ignored: a
   constraint may refuse the change, which is fine). */
static void run(struct target *t, const char *sql, sqlite3_value *v1,
		sqlite3_int64 v2)
{
	sqlite3_stmt *st;

	if (!sql || sqlite3_prepare_v2(t->db, sql, -1, &st, NULL) != SQLITE_OK)
		return;
	if (v1)
		sqlite3_bind_value(st, 1, v1);
	if (sqlite3_bind_parameter_count(st) >= 2)
		sqlite3_bind_int64(st, 2, v2);
	while (sqlite3_step(st) == SQLITE_ROW)
		;
	sqlite3_finalize(st);
}

/* The name of column k (modulo their number) of a table, or NULL. */
static char *pick_column(struct target *t, const char *table, unsigned k)
{
	char *sql = sqlite3_mprintf("SELECT name FROM pragma_table_info(%Q) "
				    "LIMIT 1 OFFSET %u % max(1, (SELECT count(*) "
				    "FROM pragma_table_info(%Q)))", table, k,
				    table);
	sqlite3_stmt *st;
	char *name = NULL;

	if (sqlite3_prepare_v2(t->db, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		name = sqlite3_mprintf("%s", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sqlite3_free(sql);
	return name;
}

/* A value of the kind the recipe says, bound through a statement. */
static sqlite3_value *make_value(struct target *t, struct recipe *r)
{
	static const int64_t extremes[] = {
		INT64_MAX, INT64_MIN, INT64_MAX - 1, INT64_MIN + 1, 1LL << 32,
		(1LL << 28), (1LL << 31) - 1, -1, 0, 255, 256, 65535, 65536
	};
	unsigned kind = byte(r) % 8, n, i;
	sqlite3_stmt *st;
	sqlite3_value *v = NULL;
	char buf[256];

	if (sqlite3_prepare_v2(t->db, "SELECT ?1", -1, &st, NULL) != SQLITE_OK)
		return NULL;
	switch (kind) {
	case 0: sqlite3_bind_int64(st, 1, (int8_t)byte(r)); break;
	case 1: sqlite3_bind_int64(st, 1, (int64_t)u64(r)); break;
	case 2: sqlite3_bind_int64(st, 1, extremes[byte(r) % 13]); break;
	case 3: sqlite3_bind_int64(st, 1, -(int64_t)(byte(r) + 1)); break;
	case 4:
	case 5:
		n = byte(r) % sizeof buf;
		for (i = 0; i < n; i++)
			buf[i] = (char)byte(r);
		if (kind == 4)
			sqlite3_bind_text(st, 1, buf, (int)n, SQLITE_TRANSIENT);
		else
			sqlite3_bind_blob(st, 1, buf, (int)n, SQLITE_TRANSIENT);
		break;
	case 6: sqlite3_bind_null(st, 1); break;
	default: sqlite3_bind_double(st, 1, (double)(int64_t)u64(r) / 7.0); break;
	}
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_value_dup(sqlite3_column_value(st, 0));
	sqlite3_finalize(st);
	return v;
}

/* The rows of a table are chosen by rowid order; WITHOUT ROWID tables
   (meta) by their first column. */
static char *row_where(struct target *t, const char *table)
{
	char *key = pick_column(t, table, 0);
	char *sql = sqlite3_mprintf("SELECT rowid FROM \"%w\" LIMIT 0", table);
	sqlite3_stmt *st;
	char *w;

	if (sqlite3_prepare_v2(t->db, sql, -1, &st, NULL) == SQLITE_OK)
		w = sqlite3_mprintf("rowid IN (SELECT rowid FROM \"%w\" LIMIT 1 "
				    "OFFSET ?2)", table);
	else
		w = sqlite3_mprintf("\"%w\" IN (SELECT \"%w\" FROM \"%w\" "
				    "LIMIT 1 OFFSET ?2)", key ? key : "key",
				    key ? key : "key", table);
	sqlite3_finalize(st);
	sqlite3_free(sql);
	sqlite3_free(key);
	return w;
}

static void op_set(struct target *t, struct recipe *r)
{
	const char *table = pick_table(t, r);
	unsigned row = byte(r), col = byte(r);
	char *column = pick_column(t, table, col), *where = row_where(t, table);
	sqlite3_value *v = make_value(t, r);
	char *sql = column && where && v ?
		sqlite3_mprintf("UPDATE \"%w\" SET \"%w\" = ?1 WHERE %s", table,
				column, where) : NULL;

	run(t, sql, v, row);
	sqlite3_free(sql);
	sqlite3_free(column);
	sqlite3_free(where);
	sqlite3_value_free(v);
}

/* One chunk's blob: truncated at a position, a byte xor'ed, or bytes
   inserted, then written back. */
static void op_chunk(struct target *t, struct recipe *r)
{
	unsigned row = byte(r), how = byte(r) % 3, pos = byte(r) << 8 | byte(r);
	unsigned x = byte(r) | 1;
	sqlite3_stmt *st;
	unsigned char *b = NULL;
	int64_t id = 0;
	size_t n = 0;

	if (sqlite3_prepare_v2(t->db, "SELECT id, data FROM chunks LIMIT 1 "
			       "OFFSET ?1", -1, &st, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_int(st, 1, (int)row);
	if (sqlite3_step(st) == SQLITE_ROW) {
		id = sqlite3_column_int64(st, 0);
		n = (size_t)sqlite3_column_bytes(st, 1);
		b = malloc(n + 8);
		if (b && n)
			memcpy(b, sqlite3_column_blob(st, 1), n);
	}
	sqlite3_finalize(st);
	if (!b)
		return;
	pos = n ? pos % (unsigned)n : 0;
	if (how == 0)
		n = pos;
	else if (how == 1 && n)
		b[pos] ^= (unsigned char)x;
	else if (how == 2) {
		memmove(b + pos + 8, b + pos, n - pos);
		memset(b + pos, (int)x, 8);
		n += 8;
	}
	if (sqlite3_prepare_v2(t->db, "UPDATE chunks SET data = ?1 WHERE id = ?2",
			       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_blob(st, 1, b, (int)n, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 2, id);
		sqlite3_step(st);
		sqlite3_finalize(st);
	}
	free(b);
}

static void op_delete(struct target *t, struct recipe *r)
{
	const char *table = pick_table(t, r);
	unsigned row = byte(r), count = byte(r) % 16 + 1, i;
	char *where = row_where(t, table);
	char *sql = where ? sqlite3_mprintf("DELETE FROM \"%w\" WHERE %s", table,
					    where) : NULL;

	for (i = 0; i < count; i++)
		run(t, sql, NULL, row);
	sqlite3_free(sql);
	sqlite3_free(where);
}

static void op_untype(struct target *t, struct recipe *r)
{
	const char *table = pick_table(t, r);
	char *sql = sqlite3_mprintf("CREATE TABLE dgdb_tmp AS SELECT * FROM "
		"\"%w\"; DROP TABLE \"%w\"; ALTER TABLE dgdb_tmp RENAME TO \"%w\"",
		table, table, table);

	sqlite3_exec(t->db, sql, NULL, NULL, NULL);
	sqlite3_exec(t->db, "DROP TABLE IF EXISTS dgdb_tmp", NULL, NULL, NULL);
	sqlite3_free(sql);
}

static void op_dup(struct target *t, struct recipe *r)
{
	const char *table = pick_table(t, r);
	char *sql = sqlite3_mprintf("INSERT INTO \"%w\" SELECT * FROM \"%w\" "
				    "LIMIT 1 OFFSET ?2", table, table);

	run(t, sql, NULL, byte(r));
	sqlite3_free(sql);
}

static void op_drop(struct target *t, struct recipe *r)
{
	static const char *const after[] = {
		"", "CREATE VIEW \"%w\" AS SELECT 1 AS id",
		"CREATE TABLE \"%w\"(id TEXT, x, y, z)"
	};
	const char *table = pick_table(t, r);
	char *drop = sqlite3_mprintf("DROP TABLE \"%w\"", table);
	char *make = sqlite3_mprintf(after[byte(r) % 3], table);

	sqlite3_exec(t->db, drop, NULL, NULL, NULL);
	sqlite3_exec(t->db, make, NULL, NULL, NULL);
	sqlite3_free(drop);
	sqlite3_free(make);
}

static const char *const filters[][2] = {
	{ NULL, NULL }, { NULL, "malloc" }, { "fn:fill", NULL },
	{ NULL, "range" }, { "user:loop", NULL }, { "fn:main", "malloc" },
	{ "dso:libc*", "range,malloc" }, { "file:writes.c", "fn:main" },
	{ NULL, "user:arr" }, { "fn:worker", NULL },
	{ NULL, "field:int.*" }, { "fn:main", "field:*.*,malloc" },
	{ "dso:libc*", NULL },      /* the class summaries (schema 8) */
};
#define N_FILTERS (sizeof filters / sizeof filters[0])

static unsigned filter_choice;

static void op_filter(struct target *t, struct recipe *r)
{
	filter_choice = byte(r) % N_FILTERS;
}

static void op_version(struct target *t, struct recipe *r)
{
	char sql[64];

	snprintf(sql, sizeof sql, "PRAGMA user_version = %d", (int)(byte(r) % 9));
	sqlite3_exec(t->db, sql, NULL, NULL, NULL);
}

static void (*const ops[])(struct target *, struct recipe *) = {
	op_set, op_set, op_set, op_chunk, op_chunk, op_delete, op_untype,
	op_dup, op_drop, op_filter, op_version,
};

/* ------------------------------------------------------------ the readers */

static const char *const canned[] = {
	".stats", ".tables", ".q by_function", ".q by_site", ".q by_block",
	".q by_range", ".q by_event", ".q by_thread", ".q hot_lines",
	".q hot_pages", ".q useless_allocs", ".q working_set",
	".q block_hist 1", ".q block_hist 2", ".q by_field int",
	".q field_layout int", ".q false_sharing",
};

/* The caches over tampered runs, instrs, events and blocks: every access
   (with I1: the runs and their instructions) for the recipes without a
   filter, the filtered path and the events for some of the others (each
   costs the replay about as much as everything else together). */
static const char cache_whole[] = ".cache I1=1k:2:64 D1=1k:2:64 LL=4k:4:64";
static const char cache_filtered[] = ".reuse 64 0.5";

static const char *const aggregates[] = {
	"SELECT count(*), sum(size), min(icount), max(icount), min(addr), "
	"max(addr), sum(is_write), count(DISTINCT context_id) FROM accesses",
	"SELECT count(block_id), max(aseq), max(chunk_id) FROM accesses "
	"WHERE icount > 100 AND addr >= 4096",
	"SELECT count(*), sum(size), max(block_id) FROM filtered_accesses",
	"SELECT count(*) FROM accesses WHERE block_id = 1",
	/* counted from sum_block_chunks, then decoded from the 4th row on */
	"SELECT rowid FROM accesses WHERE block_id = 1 LIMIT 2 OFFSET 3",
	"SELECT count(*) FROM accesses WHERE context_id IN (1, 2, 3)",
};

static void drain(char **err)
{
	sqlite3_free(*err);
	*err = NULL;
}

/* sql in list and json mode: SELECT * FROM accesses takes dgsql's export
   fast path (dgsql/export.h), decoding the tampered chunks itself. */
static void export(struct shell *sh, const char *sql)
{
	static const enum render_mode modes[] = { RENDER_LIST, RENDER_JSON };
	char *err = NULL;
	size_t i;

	for (i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		sh->mode = modes[i];
		shell_exec(sh, sql, NULL, 0, &err);
		drain(&err);
	}
	sh->mode = RENDER_LIST;
}

static void plot(struct shell *sh, int unfiltered)
{
	struct dgplot_opts o;
	char data[128], *err = NULL;

	dgplot_defaults(&o);
	snprintf(data, sizeof data, "%s/data", plot_dir);
	o.out = "fuzz.png";
	o.data_out = data;
	o.script_dir = plot_dir;
	o.title = "fuzz";
	o.width = 300;
	o.height = 200;
	o.unfiltered = unfiltered;
	dgplot_draw(sh->db, &o, &err);
	drain(&err);
}

/* --plot-fields int (the seeds' tracked int[64]), when a field filter
   made filtered_fields. */
static void fields_plot(struct shell *sh)
{
	struct dgplot_opts o;
	char *err = NULL;

	dgplot_defaults(&o);
	o.out = "fuzz.png";
	o.script_dir = plot_dir;
	o.width = 300;
	o.height = 200;
	dgplot_fields(sh->db, &o, "int", &err);
	drain(&err);
}

static void read_all(struct shell *sh)
{
	char *err = NULL;
	size_t i;

	for (i = 0; i < sizeof canned / sizeof canned[0]; i++) {
		commands_run(sh, canned[i], &err);
		drain(&err);
	}
	for (i = 0; i < sizeof aggregates / sizeof aggregates[0]; i++) {
		shell_exec(sh, aggregates[i], NULL, 0, &err);
		drain(&err);
	}
	export(sh, "SELECT * FROM accesses LIMIT 3000");
	export(sh, "SELECT * FROM filtered_accesses LIMIT 300");
	plot(sh, 1);
	if (filter_choice == 0) {
		commands_run(sh, cache_whole, &err);
		drain(&err);
		return;
	}
	if (shell_set_filter(sh, filters[filter_choice][0],
			     filters[filter_choice][1], &err) == 0) {
		shell_exec(sh, aggregates[2], NULL, 0, &err);
		drain(&err);
		export(sh, "SELECT * FROM filtered_accesses LIMIT 300");
		commands_run(sh, ".q by_function", &err);
		drain(&err);
		if (filter_choice == 1) {
			commands_run(sh, cache_filtered, &err);
			drain(&err);
		}
		plot(sh, 0);
		fields_plot(sh);
	}
	drain(&err);
}

/* dgsql --report under the recipe's filter, into the plot directory. */
static void report(struct shell *sh)
{
	struct report_opts o = { .top = 5 };
	char dir[128], *err = NULL;

	if (filter_choice && shell_set_filter(sh, filters[filter_choice][0],
					      filters[filter_choice][1], &err) == 0)
		o.filtered = 1;
	drain(&err);
	snprintf(dir, sizeof dir, "%s/report", plot_dir);
	o.dir = dir;
	report_write(sh->db, &o, &err);
	drain(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct recipe r = { data, data + size };
	struct target t = { NULL };
	struct shell sh = { .out = devnull, .bail = 1, .mode = RENDER_LIST };
	unsigned seed = byte(&r) % N_SEEDS;
	unsigned char *copy = sqlite3_malloc64(seeds[seed].len);
	char *err = NULL;
	int n_ops = 0;

	if (!copy || sqlite3_open(":memory:", &t.db) != SQLITE_OK) {
		sqlite3_free(copy);
		sqlite3_close(t.db);
		return 0;
	}
	memcpy(copy, seeds[seed].data, seeds[seed].len);
	sqlite3_deserialize(t.db, "main", copy, (sqlite3_int64)seeds[seed].len,
			    (sqlite3_int64)seeds[seed].len,
			    SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE);
	filter_choice = 0;
	list_tables(&t);
	while (r.p < r.end && n_ops++ < 64) {
		ops[byte(&r) % (sizeof ops / sizeof ops[0])](&t, &r);
		list_tables(&t);
	}
	sh.queries_dir = strdup(DGDB_QUERIES);
#ifdef DGDB_REPORT
	if (shell_attach(&sh, t.db, "fuzz", &err) == 0)
		report(&sh);
#else
	if (shell_attach(&sh, t.db, "fuzz", &err) == 0)
		read_all(&sh);
#endif
	else
		sh.db = t.db;
	sqlite3_free(err);
	sh.out = stdout;        /* shell_free closes any other */
	shell_free(&sh);
	return 0;
}
