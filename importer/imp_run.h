/* imp_run.h: runs, the definitions they refer to, and the per-access
 * summaries that follow the heap (imp_run.c).
 *
 * Promise: each run is copied into the chunk being filled (imp_chunk.h:
 * the writer and the stage threads take it from there) and each of its
 * accesses is counted, on the import thread, into sum_pc, the heap blocks,
 * sum_fn_block, the tracked ranges and the open user events, with the heap
 * as it was at the access.  bbdefs and contexts are written and kept
 * (imp->descs, imp->bbdef_kinds, imp->ctx_bbdef: owned by the importer,
 * freed by imp_run_free).  0 or -1 with the message in imp->err.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef IMP_RUN_H
#define IMP_RUN_H

#include "imp.h"

int  imp_run_init(struct importer *imp);
/* A run: counted into the summaries and handed to the chunk pipeline.
   Called without the database lock: nothing in it may touch SQLite. */
int  imp_run(struct importer *imp, const struct dglog_run *run);
int  imp_run_flush(struct importer *imp);      /* close the chunk */
/* After the last record: the writer joined, the summaries written. */
int  imp_run_finish(struct importer *imp);
int  imp_run_bbdef(struct importer *imp, const struct dglog_bbdef *d);
int  imp_run_context(struct importer *imp, const struct dglog_context *c);
void imp_run_free(struct importer *imp);

#endif
