/* shellctx.h: what the dot-commands see of a dgsql session and may ask
 * of the shell loop.
 *
 * Promise: struct shell is one session's state (connection, output mode
 * and destination, active filter, plot defaults, the input's position).
 * The dot-commands (commands.h) and the modules below them read and set
 * its settings directly, and reach the shell loop only through the four
 * operations of struct shell_ops that sh->ops points to, as SQLite's
 * sqlite3_file reaches its VFS through sqlite3_io_methods: run SQL and
 * print its rows, run a script, redirect the output, set the filter.
 * This header has no .c: shell.c (the only implementation) points
 * sh->ops at its functions in shell_attach, and everything above it
 * includes shell.h, which includes this.
 *
 * Ownership: the session owns db (closed by shell_free), duck, the output file
 * it opened, its filter strings and queries_dir (freed by shell_free);
 * the plot options' strings and `where` are borrowed.  exec, set_output
 * and set_filter return 0, or -1 with *err (sqlite3_free), never printed.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSQL_SHELLCTX_H
#define DGSQL_SHELLCTX_H

#include <stdio.h>
#include <sqlite3.h>

#include "dgplot.h"
#include "dgvtab.h"
#include "render.h"

struct shell;
struct duck;

/* Which engine runs a query (--engine, .engine): auto picks DuckDB for
   queries over the accesses whose meaning is the same in both (duck.h). */
enum shell_engine { ENGINE_AUTO, ENGINE_SQLITE, ENGINE_DUCKDB };

/* The shell loop's operations on a session (shell.h documents each as
   the shell_* function of the same name). */
struct shell_ops {
	/* Runs every statement of SQL, printing its rows in the session's
	   mode; args (n of them) bind to ?1.. of each statement. */
	int (*exec)(struct shell *sh, const char *sql, char *const *args,
		    int n, char **err);
	/* Runs a script from IN (name for messages); 0, or 1 when a
	   statement failed (reported by the loop, not returned). */
	int (*run_file)(struct shell *sh, FILE *in, const char *name);
	/* Points output to PATH ("" or NULL: stdout); once: for one
	   command. */
	int (*set_output)(struct shell *sh, const char *path, int once,
			  char **err);
	/* Sets the filter (either may be NULL) and rebuilds
	   filtered_accesses. */
	int (*set_filter)(struct shell *sh, const char *events,
			  const char *ranges, char **err);
};

struct shell {
	sqlite3 *db;
	char *db_path;
	enum render_mode mode;
	int headers;
	int timer;
	enum shell_engine engine;
	struct duck *duck;      /* DuckDB, opened on first use (NULL: not yet) */
	int duck_broken;        /* it could not open: SQLite alone from then on */
	struct dgvtab_probe probe;      /* how much SQLite's plan would read */
	int64_t n_chunks;       /* the trace's chunks (-1: not counted yet) */
	int bail;               /* stop at the first error */
	int interactive;
	int quit;               /* set by .quit */
	int depth;              /* .read nesting */
	FILE *out;              /* stdout, or a file we opened */
	int once;               /* restore stdout after the next command */
	char *events, *ranges;  /* the active filter (NULL: none) */
	char *queries_dir;      /* canned queries, NULL if none found */
	struct dgplot_opts plot;
	int zoom_queries;       /* plot's icount/addr ranges narrow the view */
	const char *where;      /* input name for messages */
	int lineno;
	const struct shell_ops *ops;    /* set by shell_attach */
};

#endif /* DGSQL_SHELLCTX_H */
