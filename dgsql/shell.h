/* shell.h: dgsql's session state and its input loops.
 *
 * Promise: one struct shell holds a session (connection, output mode and
 * destination, active filter, plot defaults) and runs text through it:
 * SQL statements and dot-commands, from a script (a file, a pipe, a -c
 * argument) or interactively with readline.  Errors are printed here (the
 * loop is the one place besides main that prints them), as
 * "dgsql: WHERE: error: MESSAGE"; with `bail` the first one stops the
 * input and makes the result 1.
 *
 * struct shell, and the operations the dot-commands reach it by, are in
 * shellctx.h; shell_attach points sh->ops at the functions below.
 *
 * Ownership: as shellctx.h says (the session owns db, the output file it
 * opened, its filter strings and queries_dir; shell_free frees them).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSQL_SHELL_H
#define DGSQL_SHELL_H

#include <stdio.h>
#include <sqlite3.h>

#include "shellctx.h"

/* Opens PATH (read-only unless writable) and prepares the session:
   registers the accesses table and dgsql's functions, installs the
   unfiltered view.  0, or -1 with *err (sqlite3_free). */
int shell_open(struct shell *sh, const char *path, int writable, char **err);
void shell_free(struct shell *sh);

/* The same on a connection already open (the fuzz target's in-memory
   copy), which the shell then owns; NAME names it in messages.  Refuses
   what is not a trace database of a schema version this dgsql reads. */
int shell_attach(struct shell *sh, sqlite3 *db, const char *name, char **err);

/* Sets the filter (either may be NULL) and rebuilds filtered_accesses. */
int shell_set_filter(struct shell *sh, const char *events, const char *ranges,
		     char **err);

/* Runs every statement of SQL, printing results; args (n of them) are
   bound to ?1.. of each statement.  0, or -1 with *err. */
int shell_exec(struct shell *sh, const char *sql, char *const *args, int n,
	       char **err);

/* Runs a script from IN (name for messages).  0, or 1 when a statement
   failed (with bail: the first failure stops it). */
int shell_run_file(struct shell *sh, FILE *in, const char *name);

/* The readline loop; returns 0 (errors are reported and skipped). */
int shell_interactive(struct shell *sh);

/* Prints "dgsql: PREFIXMSG" on stderr with MSG escaped (dgesc.h): error
   messages may quote trace data (a label, a path) or typed text. */
void shell_error(const char *prefix, const char *msg);

/* Points output to PATH ("" or NULL: stdout); once: for one command. */
int shell_set_output(struct shell *sh, const char *path, int once, char **err);

#endif
