/* dgstacks.h: the call stacks of a trace database, whichever schema
 * wrote them.
 *
 * Schema 10 stores stacks as a call tree (schema.sql: callsites, a stack
 * its innermost frame's node) and stack_frames is a recursive view over
 * it, which SQLite computes whole whatever the WHERE: slow on a trace of
 * millions of stacks.  Schema 9 and older have a real stack_frames table.
 * What dgsql asks of stacks goes through here and reads either at the
 * cost of the stacks it names:
 *
 *   dg_frames(STACK_ID)   table-valued: the frames of stack STACK_ID,
 *                         innermost first, the rows stack_frames has for
 *                         it: columns depth (0 innermost), pc, module_id
 *                         (stack_id hidden).  From the stack's leaf up
 *                         through parent_id, a lookup a frame (schema 10),
 *                         or stack_frames' rows.  No row for an unknown
 *                         stack or NULL.  A damaged tree (a parent not
 *                         above its child) ends the walk there, as it ends
 *                         the view's.
 *
 *   dgstacks_with_frame_sql  the stacks holding a frame of a set of code
 *                         addresses: the tree read once in id order, each
 *                         node marked from its parent, into a temp table;
 *                         or through stack_frames' pc index.
 *
 * Nothing here owns the connection; the table keeps its prepared
 * statements until the connection closes.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSTACKS_H
#define DGSTACKS_H

#include <sqlite3.h>

/* Registers dg_frames; 0, or -1 with *err (sqlite3_free). */
int dgstacks_register(sqlite3 *db, char **err);

/* 1 when the main database stores stacks as a tree (callsites), else 0. */
int dgstacks_is_tree(sqlite3 *db);

/* The text (sqlite3_free) of a SELECT of one column: the ids of the stacks
   with a frame at depth min_depth or deeper (0 or 1: 1 leaves out frame 0)
   whose (pc, module_id) is a row of table `pcs` (columns pc, module_id),
   for the main database's schema.  On a call tree it first reads the tree
   once and fills the new table temp.`table`(id) with those stacks, which
   the SELECT reads (the caller drops it with its other temp tables).
   NULL with *err (sqlite3_free) on an error. */
char *dgstacks_with_frame_sql(sqlite3 *db, const char *pcs, int min_depth,
			      const char *table, char **err);

#endif
