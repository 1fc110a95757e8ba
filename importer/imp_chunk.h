/* imp_chunk.h: the chunk writer, a second thread that turns whole chunks of
 * runs into the database's chunk tables, so that the import uses both cores.
 *
 * The import thread (imp_run.c) decides where a chunk starts and ends and
 * copies each run's addresses into the chunk being filled (imp_chunk_run);
 * imp_chunk_flush hands the filled chunk over and takes an empty one.  The
 * hand-over is one lock per chunk of up to IMP_CHUNK_MAX accesses, not one
 * per record.
 *
 * Ownership, from imp_chunk_start to imp_chunk_finish: the writer thread
 * owns the run codec, the chunk's counts by 64-byte line, the sum_lines and
 * sum_pages counters and the rows of chunks, chunk_regions, chunk_contexts,
 * chunk_cells; the import thread owns everything else in struct importer.
 * The writer takes the database lock (imp_db_lock) around each batch of its
 * SQLite calls; the import thread takes it around every record handler but
 * the runs' (imp_import.c), so a per-run hook must not touch SQLite.
 * At most IMP_CHUNK_JOBS chunks exist at once: memory is bounded whatever
 * the log's length.  An error in the writer is kept and returned by the next
 * imp_chunk_flush or by imp_chunk_finish (as -1, the message in imp->err).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef IMP_CHUNK_H
#define IMP_CHUNK_H

#include <stdint.h>
#include "dglog.h"

struct importer;

#define IMP_CHUNK_JOBS 8

/* Kinds of a bbdef's accesses, one byte each (imp_run_bbdef makes them; the
   array must not change or go away before imp_chunk_free). */
#define IMP_K_WRITE    1
#define IMP_K_GUARDED  2      /* address 0 means "did not happen" */

/* The chunk's header, known to the import thread. */
struct imp_chunk_head {
	uint32_t thread;
	uint64_t icount_lo, icount_next, accesses;
};

/* Start the writer (after imp_db_open). */
int  imp_chunk_start(struct importer *imp);
/* A new context, in index order: its bbdef's shape. */
int  imp_chunk_context(struct importer *imp, uint32_t n_instrs, uint32_t n_accesses);
/* Append a run to the chunk being filled. */
int  imp_chunk_run(struct importer *imp, const struct dglog_run *run, const uint8_t *kinds);
/* Hand the chunk over (if it has runs) and start an empty one. */
int  imp_chunk_flush(struct importer *imp, const struct imp_chunk_head *h);
/* Hand over the last chunk, wait for the writer, write sum_lines and
   sum_pages. */
int  imp_chunk_finish(struct importer *imp);
/* Stop the writer if it runs (dropping what it has not written) and free
   everything. */
void imp_chunk_free(struct importer *imp);

#endif
