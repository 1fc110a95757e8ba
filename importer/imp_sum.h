/* imp_sum.h: the per-context summaries of the import (sum_ctx,
 * sum_ctx_miss in schema/schema.sql), and each thread's counts.
 *
 * Promise: fed every run (as a stage of the chunk pipeline, imp_chunk.h,
 * on a thread of its own), imp_sum_finish writes how many runs each context had in each
 * thread, and for the accesses a run did not make (a partial run's tail,
 * a guarded access whose guard was false) how many times each was missed;
 * and it gives each thread of imp->threads its first and last icount, its
 * runs, and its accesses by direction with their bytes and first and last
 * icounts (the threads table; counted here, off the import thread).
 * From them and access_descs, a filter on call stacks (a set of contexts,
 * and pcs inside them) gets its exact counts by pc, thread and direction
 * without decoding a chunk.  (The working set, sum_windows, is
 * imp_win.h's.)
 *
 * Cost: one array increment per run when each context runs in one thread
 * (a hash look-up per run for the contexts that run in several); the
 * thread's counts, a few additions per run that made every access of its
 * bbdef (the bbdef's totals, imp_chunk_totals), a few per access of the
 * others (partial runs, guarded accesses).
 *
 * Ownership: the state hangs off struct importer (imp->sum), made by
 * imp_sum_init; the stage's thread counts into it until imp_chunk_finish
 * joins that thread; imp_sum_finish and imp_sum_free release it.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef IMP_SUM_H
#define IMP_SUM_H

#include <stdint.h>

struct importer;
struct imp_chunk_stage;

/* Make the state (imp->sum) and the stage that counts every run, for
   imp_chunk_start.  0, or -1 (imp_fail). */
int imp_sum_init(struct importer *imp, struct imp_chunk_stage *stage);

/* Writes sum_ctx and sum_ctx_miss, fills imp->threads' counts (before
   they are written), then frees the state.  0 or -1. */
int imp_sum_finish(struct importer *imp);

void imp_sum_free(struct importer *imp);

#endif
