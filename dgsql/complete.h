/* complete.h: tab completion for dgsql's readline prompt.
 *
 * Promise: after complete_init, TAB completes dot-commands at the start of
 * a line; their arguments (modes, on/off, query names, filter conditions,
 * file names for .read .output .once .plot); after fn:, file:, dso: and
 * user: the functions (without argument lists), source files (full paths
 * and base names), modules and labels of the open trace; elsewhere SQL
 * keywords, tables, views and their columns.  The SQL words are read from
 * the database once, at init.  The command names come from commands.h's
 * table, the database and the canned queries' directory from the session
 * (shellctx.h); completion knows nothing of the input loop.
 *
 * Ownership: the completer borrows the session (its pointer is kept until
 * exit) and owns its word and candidate lists.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSQL_COMPLETE_H
#define DGSQL_COMPLETE_H

struct shell;

/* Installs the completer for this shell (kept until exit). */
void complete_init(struct shell *sh);

#endif
