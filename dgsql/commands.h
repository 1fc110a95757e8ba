/* commands.h: dgsql's dot-commands, one table of them.
 *
 * Promise: commands_run executes one ".name args" line on a shell; each
 * command is a short function in the table of commands.c, which also
 * feeds .help and tab completion.  Arguments are split on blanks, with
 * '...' and "..." quoting.  Commands print their results to the shell's
 * output and return errors (never print them).  They see the session
 * through shellctx.h only: its fields, and sh->ops to run SQL or a script
 * (.q, .modules, .read), redirect the output and set the filter; never
 * the input loop of shell.h, which calls them.
 *
 * Ownership: the table is static and read-only; commands_run works on a
 * copy of the line, and the commands borrow the session.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSQL_COMMANDS_H
#define DGSQL_COMMANDS_H

struct shell;

/* What a command's arguments complete to (complete.c). */
enum command_args {
	ARGS_NONE,              /* nothing of the trace's: file names */
	ARGS_MODE,              /* an output mode */
	ARGS_ONOFF,             /* on or off */
	ARGS_QUERY,             /* a canned query's name */
	ARGS_FILTER,            /* a filter condition (fn:, file:, ...) */
};

struct command {
	const char *name;       /* without the dot */
	const char *usage;      /* arguments, for .help */
	const char *help;       /* one line */
	int (*run)(struct shell *sh, int argc, char **argv, char **err);
	enum command_args args;
};

/* 0, or -1 with *err (sqlite3_free). */
int commands_run(struct shell *sh, const char *line, char **err);

/* The engine named auto, sqlite or duckdb (enum shell_engine), or -1. */
int shell_engine_by_name(const char *name);

/* The table and its length, for completion. */
const struct command *commands_table(int *n);

#endif
