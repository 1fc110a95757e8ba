/* shell.c: session state, script and interactive loops (see shell.h).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "shell.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "commands.h"
#include "complete.h"
#include "count.h"
#include "dgesc.h"
#include "dgfilter.h"
#include "dgfsum.h"
#include "dgsqlfn.h"
#include "dgstacks.h"
#include "dgvtab.h"
#include "duck.h"
#include "engine.h"
#include "export.h"
#include "cache.h"
#include "render.h"

/* The schema this dgsql reads: schema/schema.sql's PRAGMA user_version,
   passed in by dgsql.mk so the two cannot drift apart.  Older ones name
   code by pc alone (before 6), which every join on (pc, module_id) of the
   queries, filters and `accesses` needs: they are refused with a word on
   what to do rather than answered wrongly. */
#ifndef DG_SCHEMA_VERSION
#error "DG_SCHEMA_VERSION must come from schema/schema.sql (dgsql.mk)"
#endif
#define SCHEMA_NEWEST DG_SCHEMA_VERSION
#define SCHEMA_OLDEST 6

#define HISTORY_FILE ".dgsql_history"
#define HISTORY_MAX 2000

/* ---------------------------------------------------------- session */

/* A trace database: an SQLite file with dg-import's meta table and a
   schema version this program knows.  Anything else is refused here
   rather than answered with "?" and exit 0. */
static int check_trace_db(sqlite3 *db, const char *path, char **err)
{
	/* -1: the file is not a database at all */
	int64_t tables = dgsqlfn_int(db, "SELECT count(*) FROM sqlite_schema");
	int64_t meta = dgsqlfn_int(db, "SELECT count(*) FROM sqlite_schema "
				   "WHERE type = 'table' AND name = 'meta'");
	int64_t version = dgsqlfn_int(db, "PRAGMA user_version");

	if (tables < 0)
		*err = sqlite3_mprintf("cannot read '%s': %s", path,
				       sqlite3_errmsg(db));
	else if (tables == 0)
		*err = sqlite3_mprintf("'%s' is empty, not a Datagrind trace "
				       "database (make one with dg-import)", path);
	else if (meta != 1 || version < 1)
		*err = sqlite3_mprintf("'%s' is an SQLite database but not a "
			"Datagrind trace (no meta table or schema version %lld)",
			path, (long long)version);
	else if (version < SCHEMA_OLDEST)
		*err = sqlite3_mprintf("'%s' has schema version %lld, from an "
			"older dg-import; this dgsql reads versions %d to %d "
			"(import the log again)", path, (long long)version,
			SCHEMA_OLDEST, SCHEMA_NEWEST);
	else if (version > SCHEMA_NEWEST)
		*err = sqlite3_mprintf("'%s' has schema version %lld; this "
			"dgsql reads versions up to %d (use the dgsql of the "
			"dg-import that wrote it)", path, (long long)version,
			SCHEMA_NEWEST);
	else
		return 0;
	return -1;
}

/* What the dot-commands may ask of the loop (shellctx.h). */
static const struct shell_ops ops = {
	.exec = shell_exec,
	.run_file = shell_run_file,
	.set_output = shell_set_output,
	.set_filter = shell_set_filter,
};

/* The session on an open connection: the accesses table, dgsql's
   functions and dg_frames, the unfiltered view. */
int shell_attach(struct shell *sh, sqlite3 *db, const char *name, char **err)
{
	sh->ops = &ops;
	sh->db = db;
	sh->n_chunks = -1;
	sqlite3_extended_result_codes(sh->db, 1);
	if (check_trace_db(sh->db, name, err) < 0 ||
	    dgvtab_register_probe(sh->db, &sh->probe, err) != SQLITE_OK ||
	    dgsqlfn_register(sh->db, err) < 0 ||
	    dgstacks_register(sh->db, err) < 0 || dgfsum_register(sh->db, err) != SQLITE_OK
	    || cache_install(sh->db, err) < 0)
		return -1;
	return shell_set_filter(sh, NULL, NULL, err);
}

int shell_open(struct shell *sh, const char *path, int writable, char **err)
{
	/* NOMUTEX: one thread uses the connection, and every
	   sqlite3_column_* call of an export would otherwise take a lock. */
	int flags = (writable ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY)
		    | SQLITE_OPEN_NOMUTEX;

	if (access(path, F_OK) != 0) {
		*err = sqlite3_mprintf("cannot open '%s': %s", path,
				       strerror(errno));
		return -1;
	}
	sh->db_path = strdup(path);
	if (sqlite3_open_v2(path, &sh->db, flags, NULL) != SQLITE_OK) {
		*err = sqlite3_mprintf("cannot open '%s': %s", path,
				       sqlite3_errmsg(sh->db));
		return -1;
	}
	return shell_attach(sh, sh->db, path, err);
}

void shell_free(struct shell *sh)
{
	if (sh->out && sh->out != stdout)
		fclose(sh->out);
	duck_free(sh->duck);
	sqlite3_close(sh->db);
	free(sh->db_path);
	free(sh->events);
	free(sh->ranges);
	free(sh->queries_dir);
}

static char *dup_or_null(const char *s)
{
	return s && *s ? strdup(s) : NULL;
}

int shell_set_filter(struct shell *sh, const char *events, const char *ranges,
		     char **err)
{
	struct dgfilter *f = NULL;
	int zoom_ic = sh->zoom_queries && sh->plot.has_icount;
	int zoom_ad = sh->zoom_queries && sh->plot.has_addr;
	int rc;

	if ((events && *events) || (ranges && *ranges) || zoom_ic || zoom_ad) {
		if (dgfilter_parse(events, ranges, &f, err) < 0)
			return -1;
		if (zoom_ic)
			dgfilter_zoom(f, 0, sh->plot.icount_lo, sh->plot.icount_hi);
		if (zoom_ad)
			dgfilter_zoom(f, 1, sh->plot.addr_lo, sh->plot.addr_hi);
	}
	rc = dgfilter_install(sh->db, f, err);
	dgfilter_free(f);
	if (rc < 0)
		return -1;
	free(sh->events);
	free(sh->ranges);
	sh->events = dup_or_null(events);
	sh->ranges = dup_or_null(ranges);
	return 0;
}

int shell_set_output(struct shell *sh, const char *path, int once, char **err)
{
	FILE *f = stdout;

	if (path && *path && strcmp(path, "stdout") != 0) {
		f = fopen(path, "w");
		if (!f) {
			*err = sqlite3_mprintf("cannot write '%s': %s", path,
					       strerror(errno));
			return -1;
		}
	}
	if (sh->out && sh->out != stdout)
		fclose(sh->out);
	sh->out = f;
	sh->once = once && f != stdout;
	return 0;
}

/* ---------------------------------------------------------- SQL */

static double now_real(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void cpu_times(double *user, double *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	*user = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
	*sys = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/* Integers (decimal or 0x hex) bind as integers, the rest as text. */
static void bind_arg(sqlite3_stmt *st, int i, const char *a)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(a, &end, 0);
	if (*a && !*end && errno == 0)
		sqlite3_bind_int64(st, i, v);
	else
		sqlite3_bind_text(st, i, a, -1, SQLITE_TRANSIENT);
}

/* Parameters beyond the n values given stay NULL (queries default them);
   more values than parameters is an error. */
static int bind_args(sqlite3_stmt *st, char *const *args, int n, char **err)
{
	int i, np = sqlite3_bind_parameter_count(st);

	if (n > np && np > 0) {
		*err = sqlite3_mprintf("%d arguments given, the statement "
				       "takes %d", n, np);
		return -1;
	}
	for (i = 1; i <= np && i <= n; i++)
		bind_arg(st, i, args[i - 1]);
	return 0;
}

static int run_stmt(struct shell *sh, sqlite3_stmt *st, char *const *args, int n, char **err)
{
	double t0 = now_real(), u0, s0, u1, s1;
	sqlite3_stmt *answer = NULL;    /* count_try's or engine_try's, else NULL */
	const char *engine = "sqlite";
	sqlite3 *adb = sh->db;          /* answer's connection */
	long rows;
	int rc;

	cpu_times(&u0, &s0);
	if ((rc = count_try(st, &answer, err)) < 0)
		return -1;
	rc = rc ? 0 : export_try(st, sh->mode, sh->headers, sh->out, &rows, err);
	if (rc < 0)
		return -1;
	if (!rc && !answer) {
		if ((rc = engine_try(sh, st, args, n, &answer, err)) < 0)
			return -1;
		if (rc)
			engine = "duckdb", adb = sqlite3_db_handle(answer), rc = 0;
	}
	rc = rc ? SQLITE_DONE : render_stmt(answer ? answer : st, sh->mode, sh->headers, sh->out, &rows);
	if (rc != SQLITE_DONE)
		*err = sqlite3_mprintf("%s", sqlite3_errmsg(answer ? adb : sh->db));
	sqlite3_finalize(answer);
	fflush(sh->out);
	if (rc != SQLITE_DONE)
		return -1;
	if (sh->timer) {
		cpu_times(&u1, &s1);
		fprintf(sh->out, "Run Time: real %.3f user %.6f sys %.6f engine %s\n",
			now_real() - t0, u1 - u0, s1 - s0, engine);
	}
	return 0;
}

/* --engine duckdb: each statement's rows, as run_stmt prints them. */
struct duck_each {
	struct shell *sh;
	double t0, u0, s0;
};

static int print_duck(void *arg, sqlite3_stmt *answer, char **err)
{
	struct duck_each *e = arg;
	struct shell *sh = e->sh;
	double u1, s1, t1;
	long rows;
	int rc = render_stmt(answer, sh->mode, sh->headers, sh->out, &rows);

	fflush(sh->out);
	if (rc != SQLITE_DONE) {
		*err = sqlite3_mprintf("%s", sqlite3_errmsg(sqlite3_db_handle(answer)));
		return -1;
	}
	cpu_times(&u1, &s1);
	t1 = now_real();
	if (sh->timer)
		fprintf(sh->out, "Run Time: real %.3f user %.6f sys %.6f engine duckdb\n",
			t1 - e->t0, u1 - e->u0, s1 - e->s0);
	e->t0 = t1, e->u0 = u1, e->s0 = s1;
	return 0;
}

int shell_exec(struct shell *sh, const char *sql, char *const *args, int n,
	       char **err)
{
	const char *tail = sql;

	if (sh->engine == ENGINE_DUCKDB) {
		struct duck_each e = { .sh = sh, .t0 = now_real() };
		cpu_times(&e.u0, &e.s0);
		return engine_script(sh, sql, args, n, print_duck, &e, err);
	}

	while (tail && *tail) {
		sqlite3_stmt *st = NULL;
		int rc;

		if (sqlite3_prepare_v2(sh->db, tail, -1, &st, &tail)
		    != SQLITE_OK) {
			*err = sqlite3_mprintf("%s", sqlite3_errmsg(sh->db));
			return -1;
		}
		if (!st)        /* whitespace or a comment */
			continue;
		rc = bind_args(st, args, n, err);
		if (rc == 0)
			rc = run_stmt(sh, st, args, n, err);
		sqlite3_finalize(st);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* ---------------------------------------------------------- input */

void shell_error(const char *prefix, const char *msg)
{
	char *e = dgesc_text(msg, strlen(msg), 0);

	fprintf(stderr, "dgsql: %s%s\n", prefix, e ? e : "(out of memory)");
	free(e);
}

static void report(struct shell *sh, int line, const char *msg)
{
	char *where, *e;

	if (sh->interactive && sh->depth == 0) {
		e = dgesc_text(msg, strlen(msg), 0);
		fprintf(stderr, "error: %s\n", e ? e : "(out of memory)");
		free(e);
		return;
	}
	where = sqlite3_mprintf("%s:%d: error: ", sh->where, line);
	shell_error(where ? where : "", msg);
	sqlite3_free(where);
}

/* Runs one complete entry: a dot-command line or SQL text. */
static int run_entry(struct shell *sh, const char *text, int line)
{
	char *err = NULL;
	int rc;

	if (text[0] == '.')
		rc = commands_run(sh, text, &err);
	else
		rc = shell_exec(sh, text, NULL, 0, &err);
	if (rc < 0) {
		report(sh, line, err ? err : "failed");
		sqlite3_free(err);
	}
	if (sh->once && text[0] != '.') {
		shell_set_output(sh, NULL, 0, &err);
	}
	return rc;
}

/* A growing text buffer for a statement spread over lines. */
struct buf {
	char *s;
	size_t n, cap;
	int first_line;
};

static int buf_add(struct buf *b, const char *line)
{
	size_t l = strlen(line);

	if (b->n + l + 2 > b->cap) {
		size_t cap = (b->n + l + 2) * 2;
		char *s = realloc(b->s, cap);

		if (!s)
			return -1;
		b->s = s;
		b->cap = cap;
	}
	memcpy(b->s + b->n, line, l);
	b->n += l;
	b->s[b->n++] = '\n';
	b->s[b->n] = 0;
	return 0;
}

static int blank(const char *s)
{
	return s[strspn(s, " \t\r\n")] == 0;
}

/* Feeds one input line; runs what became complete.  -1 on a failure. */
static int feed(struct shell *sh, struct buf *b, char *line, int lineno)
{
	int rc = 0;

	if (b->n == 0) {
		line += strspn(line, " \t");
		if (line[0] == '.') {
			line[strcspn(line, "\r\n")] = 0;
			return run_entry(sh, line, lineno);
		}
		if (blank(line))
			return 0;
		b->first_line = lineno;
	}
	if (buf_add(b, line) < 0)
		return -1;
	if (sqlite3_complete(b->s)) {
		rc = run_entry(sh, b->s, b->first_line);
		b->n = 0;
	}
	return rc;
}

int shell_run_file(struct shell *sh, FILE *in, const char *name)
{
	struct buf b = { 0 };
	char *line = NULL;
	size_t cap = 0;
	const char *saved = sh->where;
	int lineno = 0, failed = 0;

	sh->where = name;
	while (!sh->quit && getline(&line, &cap, in) >= 0) {
		line[strcspn(line, "\n")] = 0;
		if (feed(sh, &b, line, ++lineno) < 0) {
			failed = 1;
			if (sh->bail)
				break;
		}
	}
	if (!failed && b.n && !blank(b.s) && !sh->quit &&
	    run_entry(sh, b.s, b.first_line) < 0)
		failed = 1;
	free(line);
	free(b.s);
	sh->where = saved;
	return failed;
}

/* ---------------------------------------------------------- readline */

static char *history_path(void)
{
	const char *home = getenv("HOME");
	char *p;

	if (!home || !*home)
		return NULL;
	p = malloc(strlen(home) + sizeof HISTORY_FILE + 2);
	if (p)
		sprintf(p, "%s/%s", home, HISTORY_FILE);
	return p;
}

int shell_interactive(struct shell *sh)
{
	struct buf b = { 0 };
	char *hist = history_path();
	int lineno = 0;

	complete_init(sh);
	using_history();
	stifle_history(HISTORY_MAX);
	if (hist)
		read_history(hist);
	sh->where = "stdin";
	while (!sh->quit) {
		char *line = readline(b.n ? "   ...> " : "dgsql> ");

		if (!line) {
			if (b.n == 0)
				putchar('\n');
			break;
		}
		if (!blank(line))
			add_history(line);
		feed(sh, &b, line, ++lineno);
		free(line);
	}
	if (hist && write_history(hist) == 0)
		history_truncate_file(hist, HISTORY_MAX);
	free(hist);
	free(b.s);
	return 0;
}
