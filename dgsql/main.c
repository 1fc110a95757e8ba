/* main.c: dgsql, the SQL shell of Datagrind trace databases.
 *
 * The command line only: options into a struct shell, then the shell's
 * loops (shell.c) do the work.  Exit codes (documented in --help):
 *   0 success, 1 a statement/command/plot failed, 2 bad usage,
 *   3 the database cannot be opened or is not a trace database of a
 *     schema version this dgsql reads.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "compare.h"
#include "duck.h"
#include "parquet.h"
#include "serve.h"
#include "queries.h"
#include "report.h"
#include "shell.h"

#ifndef DG_VERSION
#define DG_VERSION "0.1.0"
#endif

enum { EXIT_FAILED = 1, EXIT_USAGE = 2, EXIT_OPEN = 3 };

static const char usage_text[] =
"usage: dgsql [OPTIONS] TRACE.db [SQL | .COMMAND]...\n"
"\n"
"Query a Datagrind trace database (made by dg-import) with SQL.\n"
"\n"
"With SQL arguments, runs each (a statement, several separated by ';', or\n"
"a dot-command such as .stats) and exits.  Without, reads a script from\n"
"standard input when it is not a terminal, else starts an interactive\n"
"shell (readline; history in ~/.dgsql_history; TAB completes SQL, tables,\n"
"columns, dot-commands, and functions, files, modules and labels after\n"
"fn: file: dso: user:).  '.help' lists the dot-commands.  Scripts and\n"
"arguments stop at the first error.\n"
"\n"
"Accesses are the virtual table `accesses` (icount, addr, size, is_write,\n"
"pc, thread, context_id, block_id, aseq, chunk_id, module_id: the module\n"
"mapped at pc then; join pcs and sum_pc on pc and module_id); the view\n"
"`filtered_accesses` holds those that pass the filter (all without one).\n"
"Tables and their meaning: schema/schema.sql, or '.schema'.\n"
"\n"
"Output:\n"
"  -m, --mode MODE      list (default for scripts), table (default when\n"
"                       interactive), column, csv, tsv, json, line\n"
"  -c, --csv            --mode csv\n"
"      --json           --mode json\n"
"      --header         print column names (--no-header: don't)\n"
"  -w, --write          open the database read-write (default read-only)\n"
"\n"
"Export: SELECT * FROM accesses [LIMIT n], written exactly so, in list,\n"
"csv, tsv or json mode is decoded straight to the output, the same bytes\n"
"SQLite would print, 3.5 times as fast (and filtered_accesses too while\n"
"no filter is set).  SELECT count(*) FROM accesses [WHERE TERM [AND\n"
"TERM]...], each TERM `column = integer` on icount, addr, is_write,\n"
"thread, context_id, block_id or chunk_id, or < <= > >= on icount, addr\n"
"or chunk_id, is counted without SQLite's row loop (a big block from\n"
"its summary).\n"
"\n"
"Engines: a query over accesses or filtered_accesses (no filter set)\n"
"that calls only functions meaning the same in both runs in DuckDB\n"
"(columnar, parallel; the chunks decoded straight into it); any other\n"
"statement, and any DuckDB cannot run, in SQLite.  Answers are SQLite's:\n"
"integer division, NULLs first, LIKE ignoring ASCII case, the column\n"
"names SQLite gives.  '.timer on' says which engine ran.\n"
"      --engine E       auto (default), sqlite (SQLite alone, for\n"
"                       comparison), duckdb (every statement in DuckDB;\n"
"                       its errors are reported, not retried in SQLite)\n"
"\n"
"Filters (dg_view's), comma-separated conditions:\n"
"  -e, --events LIST    the accessing code: fn:NAME, file:PATH, dso:PATH\n"
"                       anywhere on the access's call stack, user:LABEL\n"
"                       inside a START/END_EVENT interval\n"
"  -r, --ranges LIST    the memory: malloc (a live heap block), range (a\n"
"                       tracked range), user:LABEL (a range so labelled),\n"
"                       fn:/file:/dso: on the block's allocation stack,\n"
"                       field:TYPE.PATH (field PATH, a glob too, of TYPE\n"
"                       where a typed range or a variable put it)\n"
"                       An access passes when it matches one condition of\n"
"                       each given list.  NAME may be qualified\n"
"                       (ns::C::m), without arguments, or a glob (qsort*);\n"
"                       PATH matches as a suffix (file:foo.c).\n"
"\n"
"Plot (gnuplot, Debian package gnuplot-nox):\n"
"  -p, --plot FILE      draw filtered_accesses to FILE (.png .svg .pdf):\n"
"                       address (unused pages squeezed out) across,\n"
"                       instruction count down; reads green, writes red,\n"
"                       both yellow\n"
"      --plot-fields TYPE FILE\n"
"                       draw the fields of TYPE (\"struct item\" or \"item\")\n"
"                       to FILE: one row per field in offset order,\n"
"                       instruction count across; the accesses are those\n"
"                       --ranges field:TYPE.* selects (with --events)\n"
"      --plot-data FILE write the binned cells (x y reads writes; with\n"
"                       --plot-fields: row icount reads writes)\n"
"      --size WxH       image size in pixels [1024x768]\n"
"      --addr-range LO:HI, --icount-range LO:HI   zoom (hex or decimal;\n"
"                       LO included, HI not); without --plot or --report\n"
"                       they narrow filtered_accesses (SQL, canned queries)\n"
"      --page-size N, --line-size N   boundaries drawn when zoomed [4096, 64]\n"
"\n"
"Report (a directory a CI job keeps; gnuplot draws the charts):\n"
"      --report DIR     write DIR/index.html (one page, charts inline SVG,\n"
"                       no script, nothing fetched), DIR/report.md (GitHub\n"
"                       Markdown, the charts as .svg files beside it) and\n"
"                       DIR/report.json (the same tables as numbers): the\n"
"                       trace's header; address x time; top functions,\n"
"                       heap blocks, allocation sites, pages, cache lines\n"
"                       (tables and bar charts); working set; offset\n"
"                       histograms of the top blocks; flame graphs of\n"
"                       accesses and bytes by call stack; heap over time\n"
"                       and its peak; leaks, short-lived and useless\n"
"                       allocations; a section per event and range label.\n"
"                       --events, --ranges and --icount-range apply to all\n"
"                       of it.  DIR is built aside and renamed into place\n"
"                       (an existing DIR is replaced only on success)\n"
"      --folded FILE    with --report: the call stacks, folded (\"a;b;c N\"\n"
"                       per line, N accesses), for flame-graph tools\n"
"      --top N          rows of each top table [20]\n"
"      --no-charts      with --report: no charts, gnuplot not run; the\n"
"                       report is the same less its images (a gate that\n"
"                       reads report.json needs no more, and the address x\n"
"                       time chart is the one part that decodes every\n"
"                       access)\n"
"\n"
"Viewer (dg_view in the browser):\n"
"      --serve          serve the picture on 127.0.0.1 and print its URL,\n"
"                       which carries a random token (other users of the\n"
"                       machine get 403); open it in a browser: wheel to\n"
"                       zoom, drag to pan, double click for the whole trace;\n"
"                       each view is binned afresh to the canvas's pixels,\n"
"                       under --events and --ranges.  Ctrl-C stops it\n"
"      --port N         listen on port N [0: any free port]\n"
"      --snapshot DIR   write the page with the whole trace's picture (binned\n"
"                       to 1800 x 1200 cells), events, ranges and busiest\n"
"                       functions and blocks into DIR (index.html, opened\n"
"                       from the disk, no server: a CI job's artifact); it\n"
"                       zooms and pans within those cells\n"
"\n"
"Caches (commands, given after DB as statements are; '.help' lists all):\n"
"  .cache [I1=S:W:L] D1=S:W:L [L2=..] [LL=..]\n"
"                       simulate caches (SIZE:WAYS:LINE, as 32k:8:64) over\n"
"                       filtered_accesses in execution order, with\n"
"                       cachegrind's rules; tables cache_pc, cache_fn,\n"
"                       cache_block, cache_page, cache_line, cache_code\n"
"                       (I1), cache_map (misses by time and address)\n"
"  .reuse [LINE [RATE]] every access's reuse distance (LINE bytes [64];\n"
"                       RATE < 1 samples lines, SHARDS); tables reuse_hist,\n"
"                       reuse_fn, reuse_block, reuse_thread, reuse_event\n"
"                       and reuse_mrc, the miss-ratio curve of every size\n"
"  .plot FILE --misses LEVEL\n"
"                       the last .cache's misses of LEVEL (I1 D1 L2 LL) over\n"
"                       the address x time picture\n"
"\n"
"  -h, --help           this text\n"
"  -V, --version        the version\n"
"\n"
"Canned queries: '.queries' lists them, '.q NAME ARGS' runs one; they are\n"
"read from $DGSQL_QUERIES, else the build tree's queries/, else\n"
"PREFIX/share/datagrind/queries.\n"
"\n"
"Exit status: 0 success; 1 a statement, command, plot or report failed; 2 bad\n"
"usage (options, filter); 3 the database cannot be opened, or is not a\n"
"Datagrind trace database this dgsql reads (empty, not SQLite, a newer\n"
"schema version, or an older one: import the log again).\n"
"\n"
"Examples:\n"
"  dgsql trace.db                                     interactive\n"
"  dgsql trace.db .stats\n"
"  dgsql -c trace.db 'SELECT * FROM sum_fn' > fn.csv\n"
"  dgsql trace.db --events fn:main --ranges malloc --plot main.png\n"
"  dgsql trace.db --report report --folded stacks.folded\n"
"  dgsql trace.db --events fn:main --serve              open the URL it prints\n"
"  dgsql trace.db < report.sql\n";

struct args {
	const char *events, *ranges;
	const char *fields_type;        /* --plot-fields TYPE */
	char *fields_ranges;            /* --ranges with field:TYPE.* added */
	int writable, mode, headers, plot;
	struct report_opts report;
	struct parquet_opts pq;         /* --export parquet (path NULL: none) */
	const char *partition;
	int serve, port;                /* --serve [--port N] */
	const char *snapshot;           /* --snapshot DIR */
};

enum {
	O_JSON = 256, O_HEADER, O_NOHEADER, O_PLOTDATA, O_PFIELDS, O_SIZE, O_ADDR,
	O_ICOUNT, O_PAGE, O_LINE, O_REPORT, O_FOLDED, O_TOP,
	O_NOCHARTS, O_ENGINE, O_EXPORT, O_PARTITION, O_WINDOW, O_SERVE, O_PORT, O_SNAPSHOT
};

static const struct option longopts[] = {
	{ "mode", required_argument, NULL, 'm' },
	{ "csv", no_argument, NULL, 'c' },
	{ "json", no_argument, NULL, O_JSON },
	{ "header", no_argument, NULL, O_HEADER },
	{ "headers", no_argument, NULL, O_HEADER },
	{ "no-header", no_argument, NULL, O_NOHEADER },
	{ "write", no_argument, NULL, 'w' },
	{ "events", required_argument, NULL, 'e' },
	{ "ranges", required_argument, NULL, 'r' },
	{ "plot", required_argument, NULL, 'p' },
	{ "plot-data", required_argument, NULL, O_PLOTDATA },
	{ "plot-fields", required_argument, NULL, O_PFIELDS },
	{ "size", required_argument, NULL, O_SIZE },
	{ "addr-range", required_argument, NULL, O_ADDR },
	{ "icount-range", required_argument, NULL, O_ICOUNT },
	{ "page-size", required_argument, NULL, O_PAGE },
	{ "line-size", required_argument, NULL, O_LINE },
	{ "report", required_argument, NULL, O_REPORT },
	{ "folded", required_argument, NULL, O_FOLDED },
	{ "top", required_argument, NULL, O_TOP },
	{ "no-charts", no_argument, NULL, O_NOCHARTS },
	{ "engine", required_argument, NULL, O_ENGINE },
	{ "export", required_argument, NULL, O_EXPORT },
	{ "partition", required_argument, NULL, O_PARTITION },
	{ "window-size", required_argument, NULL, O_WINDOW },
	{ "serve", no_argument, NULL, O_SERVE },
	{ "port", required_argument, NULL, O_PORT },
	{ "snapshot", required_argument, NULL, O_SNAPSHOT },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static const char *const plot_names[] = {
	[O_SIZE - O_SIZE] = "size", [O_ADDR - O_SIZE] = "addr-range",
	[O_ICOUNT - O_SIZE] = "icount-range", [O_PAGE - O_SIZE] = "page-size",
	[O_LINE - O_SIZE] = "line-size",
};

static int usage_error(const char *msg, const char *what)
{
	shell_error(msg, what ? what : "");
	fprintf(stderr, "try 'dgsql --help'\n");
	return EXIT_USAGE;
}

/* One option; returns -1 to go on, else an exit status. */
static int option(int c, struct args *a, struct shell *sh)
{
	char *err = NULL;

	switch (c) {
	case 'm':
		a->mode = render_mode_by_name(optarg);
		if (a->mode < 0)
			return usage_error("unknown --mode ", optarg);
		return -1;
	case 'c': a->mode = RENDER_CSV; return -1;
	case O_JSON: a->mode = RENDER_JSON; return -1;
	case O_HEADER: a->headers = 1; return -1;
	case O_NOHEADER: a->headers = 0; return -1;
	case 'w': a->writable = 1; return -1;
	case 'e': a->events = optarg; return -1;
	case 'r': a->ranges = optarg; return -1;
	case 'p': sh->plot.out = optarg; a->plot = 1; return -1;
	case O_PLOTDATA: sh->plot.data_out = optarg; a->plot = 1; return -1;
	case O_PFIELDS: a->fields_type = optarg; a->plot = 1; return -1;
	case O_REPORT: a->report.dir = optarg; return -1;
	case O_FOLDED: a->report.folded = optarg; return -1;
	case O_NOCHARTS: a->report.no_charts = 1; return -1;
	case O_EXPORT:
		if (strcmp(optarg, "parquet") != 0)
			return usage_error("--export: the format is parquet, not ", optarg);
		return -1;
	case O_PARTITION: a->partition = optarg; return -1;
	case O_SERVE: a->serve = 1; return -1;
	case O_SNAPSHOT: a->snapshot = optarg; return -1;
	case O_PORT: {
		char *end;
		long n;
		errno = 0;
		n = strtol(optarg, &end, 10);
		if (errno || *end || !*optarg || n < 0 || n > 65535)
			return usage_error("--port: expected 0 to 65535, not ", optarg);
		a->port = (int)n;
		return -1;
	}
	case O_WINDOW: {
		char *end;
		errno = 0;
		a->pq.window_size = strtoll(optarg, &end, 0);
		if (errno || *end || a->pq.window_size < 1)
			return usage_error("--window-size: expected a positive number of instructions, not ", optarg);
		return -1;
	}
	case O_ENGINE: {
		int e = shell_engine_by_name(optarg);
		if (e < 0)
			return usage_error("--engine: expected auto, sqlite or duckdb, not ", optarg);
		sh->engine = (enum shell_engine)e;
		return -1;
	}
	case O_TOP:
		a->report.top = atoi(optarg);
		if (a->report.top < 1 || a->report.top > 1000 ||
		    strspn(optarg, "0123456789") != strlen(optarg))
			return usage_error("--top: expected 1 to 1000, not ",
					   optarg);
		return -1;
	case 'h': fputs(usage_text, stdout); return 0;
	case 'V':
		if (duck_version())
			printf("dgsql %s (SQLite %s, DuckDB %s)\n", DG_VERSION, sqlite3_libversion(), duck_version());
		else
			printf("dgsql %s (SQLite %s)\n", DG_VERSION, sqlite3_libversion());
		return 0;
	case O_SIZE: case O_ADDR: case O_ICOUNT: case O_PAGE: case O_LINE:
		if (dgplot_set(&sh->plot, plot_names[c - O_SIZE], optarg,
			       &err) == 0)
			return -1;
		{
			char where[32];

			snprintf(where, sizeof where, "--%s: ",
				 plot_names[c - O_SIZE]);
			shell_error(where, err ? err : "bad value");
		}
		sqlite3_free(err);
		return EXIT_USAGE;
	default:
		return usage_error("bad usage", NULL);
	}
}

/* --snapshot's picture: twice the page's canvas each way, so that the
   page zooms in once before its cells show. */
#define SNAPSHOT_W 1800
#define SNAPSHOT_H 1200

/* Runs the SQL / dot-command arguments; stops at the first error. */
static int run_args(struct shell *sh, char **argv, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		char *err = NULL;
		const char *s = argv[i] + strspn(argv[i], " \t\n");
		int rc = s[0] == '.' ? commands_run(sh, s, &err)
				     : shell_exec(sh, s, NULL, 0, &err);

		if (rc < 0) {
			char where[48];

			snprintf(where, sizeof where, "argument %d: error: ",
				 i + 1);
			shell_error(where, err ? err : "failed");
			sqlite3_free(err);
			return EXIT_FAILED;
		}
	}
	return 0;
}

/* Prints what failed (err: sqlite3_free'd here); EXIT_FAILED. */
static int failed(const char *what, char *err)
{
	shell_error(what, err ? err : "failed");
	sqlite3_free(err);
	return EXIT_FAILED;
}

/* The filter as typed, for a plot's title and the report's header
   (sqlite3_free). */
static char *filter_text(const struct args *a)
{
	return sqlite3_mprintf("%s%s%s%s", a->events ? "--events " : "",
			       a->events ? a->events : "",
			       a->ranges ? " --ranges " : "",
			       a->ranges ? a->ranges : "");
}

static int plot(struct shell *sh, const struct args *a)
{
	char *err = NULL, *title = filter_text(a);
	int rc;

	sh->plot.title = title;
	sh->plot.unfiltered = !sh->events && !sh->ranges;
	rc = a->fields_type ? dgplot_fields(sh->db, &sh->plot, a->fields_type, &err)
			    : dgplot_draw(sh->db, &sh->plot, &err);
	sh->plot.title = NULL;
	sqlite3_free(title);
	return rc == 0 ? 0 : failed("plot: ", err);
}

static int report(struct shell *sh, struct args *a)
{
	struct report_opts *o = &a->report;
	char *err = NULL, *filter = filter_text(a);
	int rc;

	if (filter && sh->plot.has_icount) {
		char *f = sqlite3_mprintf("%s%s--icount-range %lld:%lld",
			filter, *filter ? " " : "",
			(long long)sh->plot.icount_lo,
			(long long)sh->plot.icount_hi);
		sqlite3_free(filter);
		filter = f;
	}
	o->filter = filter && *filter ? filter : NULL;
	o->filtered = a->events || a->ranges;
	o->has_icount = sh->plot.has_icount;
	o->icount_lo = sh->plot.icount_lo;
	o->icount_hi = sh->plot.icount_hi;
	if (!o->top)
		o->top = 20;
	rc = report_write(sh->db, o, &err);
	sqlite3_free(filter);
	return rc == 0 ? 0 : failed("report: ", err);
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* --export parquet: the accesses and tables through DuckDB (parquet.h). */
static int export_parquet(struct shell *sh, struct args *a)
{
	char *err = NULL;
	double t0 = now_seconds();
	int64_t rows = 0;

	if (a->events || a->ranges || sh->plot.has_icount || sh->plot.has_addr)
		return usage_error("--export: every access is exported; filters and ranges do not apply", NULL);
	if (a->partition && parquet_partition(&a->pq, a->partition, &err) < 0) {
		int rc = usage_error("", err);
		sqlite3_free(err);
		return rc;
	}
	if (!a->pq.window_size)
		a->pq.window_size = 100000000;
	if (!sh->duck && !(sh->duck = duck_open(sh->db_path, &err)))
		return failed("--export: ", err);
	if (parquet_export(sh->duck, sh->db, &a->pq, &rows, &err) < 0)
		return failed("", err);
	if (isatty(2)) {
		double dt = now_seconds() - t0;
		fprintf(stderr, "dgsql: %lld accesses to %s in %.1f s (%.1f M rows/s)\n", (long long)rows,
			a->pq.path, dt, dt > 0 ? rows / dt / 1e6 : 0.0);
	}
	return 0;
}

static int run(struct shell *sh, struct args *a, char **rest, int nrest)
{
	char *err = NULL;

	if (shell_open(sh, rest[0], a->writable, &err) < 0) {
		shell_error("", err ? err : "cannot open the database");
		sqlite3_free(err);
		return EXIT_OPEN;
	}
	/* a plot or report zooms by itself; queries see the zoom as a filter */
	sh->zoom_queries = !a->plot && !a->report.dir && (sh->plot.has_icount || sh->plot.has_addr);
	if (!a->pq.path && (a->events || a->ranges || a->fields_ranges || sh->zoom_queries) &&
	    shell_set_filter(sh, a->events, a->fields_ranges ? a->fields_ranges : a->ranges,
			     &err) < 0) {
		shell_error("filter: ", err ? err : "failed");
		sqlite3_free(err);
		return EXIT_USAGE;
	}
	if (nrest > 1 && run_args(sh, rest + 1, nrest - 1))
		return EXIT_FAILED;
	if (a->pq.path) {
		int rc = export_parquet(sh, a);

		if (rc || (!a->plot && !a->report.dir))
			return rc;
	}
	if (a->plot) {
		int rc = plot(sh, a);

		if (rc || !a->report.dir)
			return rc;
	}
	if (a->report.dir)
		return report(sh, a);
	if (a->serve)
		return serve_run(sh, a->port, &err) == 0 ? 0 : failed("", err);
	if (a->snapshot)
		return serve_snapshot(sh, a->snapshot, SNAPSHOT_W, SNAPSHOT_H, &err) == 0 ? 0
			: failed("", err);
	if (nrest > 1 || a->pq.path)
		return 0;
	if (sh->interactive)
		return shell_interactive(sh);
	return shell_run_file(sh, stdin, "stdin") ? EXIT_FAILED : 0;
}

int main(int argc, char **argv)
{
	struct shell sh = { .out = stdout, .bail = 1 };
	struct args a = { .mode = -1, .headers = -1 };
	int c, rc;

	if (compare_wanted(argc, argv))
		return compare_main(argc, argv);
	dgplot_defaults(&sh.plot);
	while ((c = getopt_long(argc, argv, "m:cwe:r:p:hV", longopts,
				NULL)) != -1)
		if ((rc = option(c, &a, &sh)) >= 0)
			return rc;
		else if (c == O_PFIELDS) {  /* TYPE FILE: FILE is the next word */
			if (optind >= argc)
				return usage_error("--plot-fields TYPE FILE: ", "no FILE");
			sh.plot.out = argv[optind++];
		} else if (c == O_EXPORT) {  /* parquet PATH */
			if (optind >= argc)
				return usage_error("--export parquet PATH: ", "no PATH");
			a.pq.path = argv[optind++];
		}
	if (optind >= argc)
		return usage_error("no database given", NULL);
	if (a.fields_type && !(a.fields_ranges = sqlite3_mprintf("%s%sfield:%s.*",
			a.ranges ? a.ranges : "", a.ranges ? "," : "", a.fields_type)))
		return usage_error("out of memory", NULL);
	if (a.report.folded && !a.report.dir)
		return usage_error("--folded needs --report", NULL);
	if (a.report.no_charts && !a.report.dir)
		return usage_error("--no-charts needs --report", NULL);
	if (a.port && !a.serve)
		return usage_error("--port needs --serve", NULL);
	if ((a.serve || a.snapshot) && (a.plot || a.report.dir || a.pq.path))
		return usage_error(a.serve ? "--serve: not with --plot, --report or --export"
				   : "--snapshot: not with --plot, --report or --export", NULL);
	if (a.serve && a.snapshot)
		return usage_error("--snapshot: the page without a server, not with --serve", NULL);
	if ((a.serve || a.snapshot) && (sh.plot.has_addr || sh.plot.has_icount))
		return usage_error("--serve, --snapshot: zoom in the page, not with --addr-range or "
				   "--icount-range", NULL);
	sh.interactive = optind + 1 == argc && !a.plot && !a.report.dir &&
			 !a.serve && !a.snapshot && isatty(0);
	sh.bail = !sh.interactive;
	sh.mode = a.mode >= 0 ? a.mode
		: sh.interactive ? RENDER_TABLE : RENDER_LIST;
	sh.headers = a.headers >= 0 ? a.headers : sh.interactive ||
		sh.mode == RENDER_TABLE || sh.mode == RENDER_COLUMN;
	sh.queries_dir = queries_find_dir();
	rc = run(&sh, &a, argv + optind, argc - optind);
	sqlite3_free(a.fields_ranges);
	shell_free(&sh);
	return rc;
}
