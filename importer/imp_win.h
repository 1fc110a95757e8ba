/* imp_win.h: the working set and the accesses by cache line and class
 * (sum_windows, sum_window_class, sum_line_class in schema/schema.sql).
 *
 * Promise: as a stage of the chunk pipeline (imp_chunk.h), on a thread of
 * its own, fed every chunk's context definitions and runs in log order,
 * with each access's heap bit (whether it was inside a live heap block,
 * which only the import thread knows: imp_run stores it beside the
 * addresses), imp_win_finish writes
 *   - sum_windows: per window of IMP_WIN_LEN instructions, its accesses
 *     and distinct 64-byte lines and 4 KiB pages;
 *   - sum_window_class: the same window split by class (imp_cls.h): the
 *     accesses of each class, and the lines (pages) whose accesses' classes
 *     together make each class, so that the working set under a dso: or
 *     malloc filter is a sum over the rows whose class matches;
 *   - sum_line_class: reads and writes by line and class over the trace,
 *     which hot_lines and hot_pages under such a filter sum likewise.
 * If the log's icounts ever go back, none of them is written (dgsql then
 * decodes).
 *
 * Cost: per access a compare when it hits the line and class of the access
 * before, else a probe of a table the size of the window's working set;
 * per window, one update of the trace-wide table for each distinct (line,
 * class) of the window (about 30 times fewer than accesses).
 *
 * Ownership: the state hangs off struct importer (imp->win, and the
 * classes imp->cls, both made by imp_win_init); the stage's thread owns
 * them until imp_chunk_finish (or imp_chunk_free) joins it.  imp_win_finish
 * and imp_win_free release imp->win; imp->cls outlives it for imp_cls_write.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef IMP_WIN_H
#define IMP_WIN_H

struct importer;
struct imp_chunk_stage;

#define IMP_WIN_LEN 100000

/* Make the state (imp->win, imp->cls) and the stage, for imp_chunk_start.
   0, or -1 (imp_fail). */
int imp_win_init(struct importer *imp, struct imp_chunk_stage *stage);

/* Writes the three tables, then frees the state.  0 or -1. */
int imp_win_finish(struct importer *imp);

void imp_win_free(struct importer *imp);

#endif
