/* commands.c: the dot-commands (see commands.h).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "commands.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "dgesc.h"
#include "dgplot.h"
#include "modules.h"
#include "queries.h"
#include "render.h"
#include "shellctx.h"
#include "stats.h"

#define MAX_ARGS 64

/* ---------------------------------------------------------- helpers */

/* Splits line (modified in place) into argv; quotes group words. */
static int split(char *s, char **argv, char **err)
{
	int argc = 0;

	for (;;) {
		char *w;

		s += strspn(s, " \t\r\n");
		if (!*s)
			return argc;
		if (argc == MAX_ARGS) {
			*err = sqlite3_mprintf("more than %d arguments",
					       MAX_ARGS);
			return -1;
		}
		if (*s == '"' || *s == '\'') {
			char q = *s++;

			w = s;
			s = strchr(s, q);
			if (!s) {
				*err = sqlite3_mprintf("unterminated %c", q);
				return -1;
			}
		} else {
			w = s;
			s += strcspn(s, " \t\r\n");
		}
		argv[argc++] = w;
		if (*s)
			*s++ = 0;
	}
}

static int parse_bool(const char *s, int *v, char **err)
{
	if (!strcmp(s, "on") || !strcmp(s, "yes") || !strcmp(s, "1")) {
		*v = 1;
		return 0;
	}
	if (!strcmp(s, "off") || !strcmp(s, "no") || !strcmp(s, "0")) {
		*v = 0;
		return 0;
	}
	*err = sqlite3_mprintf("expected on or off, not '%s'", s);
	return -1;
}

static int want_args(int argc, int lo, int hi, const char *usage, char **err)
{
	if (argc - 1 >= lo && argc - 1 <= hi)
		return 0;
	*err = sqlite3_mprintf("usage: %s", usage);
	return -1;
}

/* Prints the first column of each row of st, then SUFFIX, escaped
   (dgesc.h): names in the schema are anybody's text. */
static void print_rows(FILE *out, sqlite3_stmt *st, const char *suffix,
		       unsigned flags)
{
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(st, 0);
		char *e = v ? dgesc_text(v, (size_t)sqlite3_column_bytes(st, 0),
					 flags) : NULL;

		fprintf(out, "%s%s\n", e ? e : "", suffix);
		free(e);
	}
}

/* Prints typed text (a filter) escaped: it may hold any byte. */
static void print_escaped(FILE *out, const char *s)
{
	char *e = dgesc_text(s, strlen(s), 0);

	fputs(e ? e : "", out);
	free(e);
}

/* ---------------------------------------------------------- settings */

static int c_headers(struct shell *sh, int argc, char **argv, char **err)
{
	if (want_args(argc, 1, 1, ".headers on|off", err) < 0)
		return -1;
	return parse_bool(argv[1], &sh->headers, err);
}

static int c_timer(struct shell *sh, int argc, char **argv, char **err)
{
	if (want_args(argc, 1, 1, ".timer on|off", err) < 0)
		return -1;
	return parse_bool(argv[1], &sh->timer, err);
}

/* The engine by name (shellctx.h's enum shell_engine), or -1. */
int shell_engine_by_name(const char *name)
{
	static const char *const names[] = { "auto", "sqlite", "duckdb" };
	int i;

	for (i = 0; i < 3; i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}

static int c_engine(struct shell *sh, int argc, char **argv, char **err)
{
	static const char *const names[] = { "auto", "sqlite", "duckdb" };
	int e;

	if (want_args(argc, 0, 1, ".engine [auto|sqlite|duckdb]", err) < 0)
		return -1;
	if (argc == 1) {
		fprintf(sh->out, "%s\n", names[sh->engine]);
		return 0;
	}
	if ((e = shell_engine_by_name(argv[1])) < 0) {
		*err = sqlite3_mprintf("unknown engine '%s' (auto, sqlite or duckdb)", argv[1]);
		return -1;
	}
	sh->engine = (enum shell_engine)e;
	return 0;
}

static int c_bail(struct shell *sh, int argc, char **argv, char **err)
{
	if (want_args(argc, 1, 1, ".bail on|off", err) < 0)
		return -1;
	return parse_bool(argv[1], &sh->bail, err);
}

static int c_mode(struct shell *sh, int argc, char **argv, char **err)
{
	int m;

	if (want_args(argc, 0, 1, ".mode [MODE]", err) < 0)
		return -1;
	if (argc == 1) {
		fprintf(sh->out, "current output mode: %s\n",
			render_mode_name(sh->mode));
		return 0;
	}
	m = render_mode_by_name(argv[1]);
	if (m < 0) {
		*err = sqlite3_mprintf("unknown mode '%s' (list, table, "
			"column, csv, tsv, json, line)", argv[1]);
		return -1;
	}
	sh->mode = m;
	if (m == RENDER_TABLE || m == RENDER_COLUMN)
		sh->headers = 1;
	return 0;
}

static int c_output(struct shell *sh, int argc, char **argv, char **err)
{
	if (want_args(argc, 0, 1, ".output [FILE]", err) < 0)
		return -1;
	return sh->ops->set_output(sh, argc > 1 ? argv[1] : NULL, 0, err);
}

static int c_once(struct shell *sh, int argc, char **argv, char **err)
{
	if (want_args(argc, 1, 1, ".once FILE", err) < 0)
		return -1;
	return sh->ops->set_output(sh, argv[1], 1, err);
}

static int c_read(struct shell *sh, int argc, char **argv, char **err)
{
	FILE *f;
	int rc;

	if (want_args(argc, 1, 1, ".read FILE", err) < 0)
		return -1;
	if (sh->depth >= 16) {
		*err = sqlite3_mprintf(".read nested too deeply");
		return -1;
	}
	f = fopen(argv[1], "r");
	if (!f) {
		*err = sqlite3_mprintf("cannot read '%s': %s", argv[1],
				       strerror(errno));
		return -1;
	}
	sh->depth++;
	rc = sh->ops->run_file(sh, f, argv[1]);
	sh->depth--;
	fclose(f);
	if (rc) {
		*err = sqlite3_mprintf("'%s' failed", argv[1]);
		return -1;
	}
	return 0;
}

static int c_quit(struct shell *sh, int argc, char **argv, char **err)
{
	sh->quit = 1;
	return 0;
}

/* ---------------------------------------------------------- schema */

static int can_prepare(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int ok = sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK;

	sqlite3_finalize(st);
	return ok;
}

static int c_tables(struct shell *sh, int argc, char **argv, char **err)
{
	char *sql;
	sqlite3_stmt *st;
	int rc;

	if (want_args(argc, 0, 1, ".tables [PATTERN]", err) < 0)
		return -1;
	sql = sqlite3_mprintf(
		"SELECT name FROM (SELECT name, type FROM sqlite_schema "
		"UNION SELECT name, type FROM sqlite_temp_schema "
		"UNION SELECT 'accesses', 'table' WHERE %d) "
		"WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%%' "
		"AND name NOT LIKE 'dgf\\_%%' ESCAPE '\\' AND name LIKE %Q "
		"ORDER BY name",
		can_prepare(sh->db, "SELECT * FROM accesses LIMIT 0"),
		argc > 1 ? argv[1] : "%");
	rc = sqlite3_prepare_v2(sh->db, sql, -1, &st, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK) {
		*err = sqlite3_mprintf("%s", sqlite3_errmsg(sh->db));
		return -1;
	}
	print_rows(sh->out, st, "", 0);
	sqlite3_finalize(st);
	return 0;
}

static int c_schema(struct shell *sh, int argc, char **argv, char **err)
{
	char *sql;
	sqlite3_stmt *st;
	int rc;

	if (want_args(argc, 0, 1, ".schema [TABLE]", err) < 0)
		return -1;
	sql = sqlite3_mprintf(
		"SELECT sql FROM (SELECT * FROM sqlite_schema UNION ALL "
		"SELECT * FROM sqlite_temp_schema) WHERE sql IS NOT NULL "
		"AND name NOT LIKE 'sqlite_%%' AND (%Q IS NULL OR "
		"tbl_name LIKE %Q) ORDER BY tbl_name, type DESC, name",
		argc > 1 ? argv[1] : NULL, argc > 1 ? argv[1] : "%");
	rc = sqlite3_prepare_v2(sh->db, sql, -1, &st, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK) {
		*err = sqlite3_mprintf("%s", sqlite3_errmsg(sh->db));
		return -1;
	}
	print_rows(sh->out, st, ";", DGESC_KEEP_LAYOUT);
	sqlite3_finalize(st);
	return 0;
}

/* ---------------------------------------------------------- datagrind */

static int c_stats(struct shell *sh, int argc, char **argv, char **err)
{
	if (want_args(argc, 0, 0, ".stats", err) < 0)
		return -1;
	return stats_print(sh->db, sh->out, err);
}

/* .cache D1=SIZE:WAYS:LINE [L2=...] [LL=...]: simulated over the filter's
   accesses (cache.h), then each level's totals. */
static int c_cache(struct shell *sh, int argc, char **argv, char **err)
{
	int64_t n = 0;
	int filtered = sh->events || sh->ranges || sh->zoom_queries;

	if (argc < 2) {
		*err = sqlite3_mprintf("usage: .cache [I1=SIZE:WAYS:LINE] D1=SIZE:WAYS:LINE [L2=...] "
				       "[LL=...] (as .cache I1=32k:8:64 D1=32k:8:64 LL=8M:16:64)");
		return -1;
	}
	if (cache_run(sh->db, argv + 1, argc - 1, filtered, &n, err) < 0)
		return -1;
	return sh->ops->exec(sh, "SELECT l.level, l.name, printf('%d:%d:%d', l.size, l.ways, l.line)"
			     " AS geometry, coalesce(d.r, 0) AS reads, coalesce(d.w, 0) AS writes,"
			     " coalesce(d.rm, 0) AS read_misses, coalesce(d.wm, 0) AS write_misses,"
			     " coalesce(c.f, 0) AS fetches, coalesce(c.m, 0) AS fetch_misses,"
			     " printf('%.2f%%', 100.0 * (coalesce(d.rm, 0) + coalesce(d.wm, 0) + coalesce(c.m, 0))"
			     "  / max(1, coalesce(d.r, 0) + coalesce(d.w, 0) + coalesce(c.f, 0))) AS miss_rate"
			     " FROM temp.cache_levels l LEFT JOIN (SELECT level, sum(reads) AS r,"
			     "  sum(writes) AS w, sum(read_misses) AS rm, sum(write_misses) AS wm"
			     "  FROM temp.cache_pc GROUP BY level) d ON d.level = l.level"
			     " LEFT JOIN (SELECT level, sum(fetches) AS f, sum(misses) AS m"
			     "  FROM temp.cache_code GROUP BY level) c ON c.level = l.level"
			     " ORDER BY l.level", NULL, 0, err);
}

/* .reuse [LINE [RATE]]: reuse distances over the filter's accesses
   (cache.h; RATE < 1: sampled), then their histogram. */
static int c_reuse(struct shell *sh, int argc, char **argv, char **err)
{
	int64_t n = 0;
	long line = 64;
	double rate = 1;
	char *end = NULL;
	int filtered = sh->events || sh->ranges || sh->zoom_queries;

	if (want_args(argc, 0, 2, ".reuse", err) < 0)
		return -1;
	if (argc >= 2 && ((line = strtol(argv[1], &end, 10)) <= 0 || *end || line > 4096)) {
		*err = sqlite3_mprintf(".reuse LINE: a line size in bytes, not '%s'", argv[1]);
		return -1;
	}
	if (argc == 3 && (!((rate = strtod(argv[2], &end)) > 0) || *end || rate > 1)) {
		*err = sqlite3_mprintf(".reuse LINE RATE: a sampling rate in (0, 1], not '%s'",
				       argv[2]);
		return -1;
	}
	if (cache_reuse(sh->db, (unsigned)line, rate, filtered, &n, err) < 0)
		return -1;
	return sh->ops->exec(sh, "SELECT lo, hi, reads, writes, printf('%.2f%%', 100.0 * (reads + writes)"
			     " / max(1, (SELECT sum(reads + writes) FROM temp.reuse_hist))) AS share"
			     " FROM temp.reuse_hist ORDER BY lo IS NOT NULL, lo", NULL, 0, err);
}

static int c_modules(struct shell *sh, int argc, char **argv, char **err)
{
	if (want_args(argc, 0, 0, ".modules", err) < 0)
		return -1;
	return modules_print(sh, err);
}

static void show_filter(struct shell *sh)
{
	const char *sep = "";
	int ic = sh->zoom_queries && sh->plot.has_icount;
	int ad = sh->zoom_queries && sh->plot.has_addr;

	if (!sh->events && !sh->ranges && !ic && !ad) {
		fprintf(sh->out, "no filter: filtered_accesses is every "
			"access\n");
		return;
	}
	if (sh->events) {
		fputs("--events ", sh->out);
		print_escaped(sh->out, sh->events);
		sep = " ";
	}
	if (sh->ranges) {
		fprintf(sh->out, "%s--ranges ", sep);
		print_escaped(sh->out, sh->ranges);
		sep = " ";
	}
	/* the zoom comes from the command line and stays */
	if (ic)
		fprintf(sh->out, "%s--icount-range %lld:%lld", sep,
			(long long)sh->plot.icount_lo, (long long)sh->plot.icount_hi), sep = " ";
	if (ad)
		fprintf(sh->out, "%s--addr-range 0x%llx:0x%llx", sep,
			(unsigned long long)sh->plot.addr_lo, (unsigned long long)sh->plot.addr_hi);
	fputc('\n', sh->out);
}

static int c_filter(struct shell *sh, int argc, char **argv, char **err)
{
	const char *ev = NULL, *rg = NULL;
	int i;

	if (argc == 1) {
		show_filter(sh);
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "off") == 0)
		return sh->ops->set_filter(sh, NULL, NULL, err);
	for (i = 1; i < argc; i++) {
		const char **slot = !strncmp(argv[i], "--events", 8) ? &ev
				  : !strncmp(argv[i], "--ranges", 8) ? &rg : NULL;
		const char *v = slot ? argv[i] + 8 : NULL;

		if (!slot || (*v && *v != '=') || (!*v && i + 1 == argc)) {
			*err = sqlite3_mprintf("usage: .filter [off | "
				"--events LIST] [--ranges LIST]");
			return -1;
		}
		*slot = *v ? v + 1 : argv[++i];
	}
	return sh->ops->set_filter(sh, ev, rg, err);
}

static int c_queries(struct shell *sh, int argc, char **argv, char **err)
{
	if (want_args(argc, 0, 0, ".queries", err) < 0)
		return -1;
	return queries_list(sh->queries_dir, sh->out, err);
}

static int c_q(struct shell *sh, int argc, char **argv, char **err)
{
	char *sql;
	int rc;

	if (argc < 2) {
		*err = sqlite3_mprintf("usage: .q NAME [ARGS...]");
		return -1;
	}
	sql = queries_load(sh->queries_dir, argv[1], err);
	if (!sql)
		return -1;
	rc = sh->ops->exec(sh, sql, argv + 2, argc - 2, err);
	if (rc < 0) {
		char *m = sqlite3_mprintf("query %s: %s", argv[1], *err);

		sqlite3_free(*err);
		*err = m;
	}
	free(sql);
	return rc;
}

/* .plot --misses LEVEL: the last .cache's misses of that level (a name in
   temp.cache_levels) as the relation drawn; the source SQL into *src. */
static int misses_source(struct shell *sh, const char *name, char **src, char **err)
{
	sqlite3_stmt *st;
	int level = -1;

	if (sqlite3_prepare_v2(sh->db, "SELECT level FROM temp.cache_levels WHERE name = ?1", -1,
			       &st, NULL) != SQLITE_OK) {
		*err = sqlite3_mprintf("--misses: %s", sqlite3_errmsg(sh->db));
		return -1;
	}
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		level = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (level < 0) {
		*err = sqlite3_mprintf("--misses: no level '%s' in the last .cache (run .cache "
				       "first; its levels are named I1, D1, L2, LL)", name);
		return -1;
	}
	*src = sqlite3_mprintf("(SELECT addr, icount, 0 AS is_write, read_misses AS n"
			       " FROM temp.cache_map WHERE level = %d AND read_misses > 0"
			       " UNION ALL SELECT addr, icount, 1, write_misses"
			       " FROM temp.cache_map WHERE level = %d AND write_misses > 0)",
			       level, level);
	if (!*src) {
		*err = sqlite3_mprintf("out of memory");
		return -1;
	}
	return 0;
}

static int c_plot(struct shell *sh, int argc, char **argv, char **err)
{
	struct dgplot_opts o = sh->plot;
	char *title, *src = NULL;
	const char *misses = NULL;
	int i, rc;

	if (argc < 2) {
		*err = sqlite3_mprintf("usage: .plot FILE [--size WxH] "
			"[--addr-range LO:HI] [--icount-range LO:HI] [--misses LEVEL] ...");
		return -1;
	}
	o.out = argv[1];
	for (i = 2; i < argc; i++) {
		const char *name = argv[i] + 2;

		if (strncmp(argv[i], "--", 2) != 0 || i + 1 == argc) {
			*err = sqlite3_mprintf("expected --OPTION VALUE, not "
					       "'%s'", argv[i]);
			return -1;
		}
		if (strcmp(name, "plot-data") == 0)
			o.data_out = argv[++i];
		else if (strcmp(name, "misses") == 0)
			misses = argv[++i];
		else if (dgplot_set(&o, name, argv[++i], err) < 0)
			return -1;
	}
	if (misses && misses_source(sh, misses, &src, err) < 0)
		return -1;
	title = sqlite3_mprintf("%s%s%s%s%s%s", misses ? misses : "", misses ? " misses" : "",
				sh->events ? (misses ? "  --events " : "--events ") : "",
				sh->events ? sh->events : "",
				sh->ranges ? " --ranges " : "",
				sh->ranges ? sh->ranges : "");
	o.title = title;
	o.unfiltered = !sh->events && !sh->ranges;
	o.source = src;
	o.source_name = src ? "temp.cache_map (.cache's misses)" : NULL;
	rc = dgplot_draw(sh->db, &o, err);
	sqlite3_free(title);
	sqlite3_free(src);
	return rc;
}

static int c_help(struct shell *sh, int argc, char **argv, char **err);

static const struct command table[] = {
	{ "bail", "on|off", "stop at the first error", c_bail, ARGS_ONOFF },
	{ "reuse", "[LINE [RATE]]",
	  "reuse distances of the filter's accesses (tables reuse_*)", c_reuse, ARGS_NONE },
	{ "cache", "[I1=S:W:L] D1=S:W:L [L2=..] [LL=..]",
	  "simulate caches over the filter's accesses (tables cache_*)", c_cache, ARGS_NONE },
	{ "engine", "[auto|sqlite|duckdb]",
	  "which engine runs queries over the accesses", c_engine, ARGS_NONE },
	{ "exit", "", "leave dgsql", c_quit, ARGS_NONE },
	{ "filter", "[off | --events L] [--ranges L]",
	  "show or set the filter behind filtered_accesses",
	  c_filter, ARGS_FILTER },
	{ "headers", "on|off", "column names above results",
	  c_headers, ARGS_ONOFF },
	{ "help", "", "this list", c_help, ARGS_NONE },
	{ "modules", "", "how well each module is symbolized",
	  c_modules, ARGS_NONE },
	{ "mode", "[MODE]", "list table column csv tsv json line",
	  c_mode, ARGS_MODE },
	{ "once", "FILE", "send the next result to FILE", c_once, ARGS_NONE },
	{ "output", "[FILE]", "send results to FILE (none: stdout)",
	  c_output, ARGS_NONE },
	{ "plot", "FILE [--size WxH ...] [--misses LEVEL]",
	  "draw filtered_accesses (or .cache's misses) to FILE (.png .svg .pdf)",
	  c_plot, ARGS_NONE },
	{ "q", "NAME [ARGS...]", "run canned query NAME with ?1 ?2 ...",
	  c_q, ARGS_QUERY },
	{ "queries", "", "list the canned queries", c_queries, ARGS_NONE },
	{ "quit", "", "leave dgsql", c_quit, ARGS_NONE },
	{ "read", "FILE", "run the SQL and commands of FILE",
	  c_read, ARGS_NONE },
	{ "schema", "[TABLE]", "CREATE statements (LIKE pattern)",
	  c_schema, ARGS_NONE },
	{ "stats", "", "what the trace contains", c_stats, ARGS_NONE },
	{ "tables", "[PATTERN]", "list tables and views", c_tables, ARGS_NONE },
	{ "timer", "on|off", "time each statement", c_timer, ARGS_ONOFF },
};

#define N_COMMANDS (int)(sizeof table / sizeof table[0])

static int c_help(struct shell *sh, int argc, char **argv, char **err)
{
	int i;

	for (i = 0; i < N_COMMANDS; i++) {
		char head[64];

		snprintf(head, sizeof head, ".%s %s", table[i].name,
			 table[i].usage);
		fprintf(sh->out, "%-40s %s\n", head, table[i].help);
	}
	return 0;
}

const struct command *commands_table(int *n)
{
	*n = N_COMMANDS;
	return table;
}

int commands_run(struct shell *sh, const char *line, char **err)
{
	char *copy = strdup(line + 1), *argv[MAX_ARGS];
	int argc, i, rc = -1;

	if (!copy) {
		*err = sqlite3_mprintf("out of memory");
		return -1;
	}
	argc = split(copy, argv, err);
	if (argc == 0)
		*err = sqlite3_mprintf("empty command");
	for (i = 0; argc > 0 && i < N_COMMANDS; i++)
		if (strcmp(argv[0], table[i].name) == 0)
			break;
	if (argc > 0 && i == N_COMMANDS)
		*err = sqlite3_mprintf("unknown command '.%s' (.help lists "
				       "them)", argv[0]);
	else if (argc > 0)
		rc = table[i].run(sh, argc, argv, err);
	free(copy);
	if (sh->once && strcmp(line + 1, "once") &&
	    strncmp(line + 1, "once ", 5)) {
		char *e2 = NULL;

		sh->ops->set_output(sh, NULL, 0, &e2);
	}
	return rc;
}
