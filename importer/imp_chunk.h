/* imp_chunk.h: the chunk writer, a second thread that turns whole chunks of
 * runs into the database's chunk tables, so that the import uses both cores;
 * and the chunk's other consumers (stages), each on a thread of its own
 * when there are cores enough for them (imp_chunk_start).
 *
 * The import thread (imp_run.c) decides where a chunk starts and ends and
 * copies each run's addresses into the chunk being filled (imp_chunk_run);
 * imp_chunk_flush hands the filled chunk over and takes an empty one.  The
 * hand-over is one lock per chunk of up to IMP_CHUNK_MAX accesses, not one
 * per record.
 *
 * Ownership, from imp_chunk_start to imp_chunk_finish: the writer thread
 * owns the run codec, the sorted lines of the chunk and the rows of chunks,
 * chunk_regions, context_chunks, chunk_cells, and the rows handed to it
 * (imp_chunk_row) of contexts, stacks and callsites; the import thread owns
 * everything else in struct importer.
 * The writer takes the database lock (imp_db_lock) around each batch of its
 * SQLite calls; the import thread takes it around every record handler but
 * the runs' (imp_import.c), so a per-run hook must not touch SQLite.
 * At most IMP_CHUNK_JOBS chunks exist at once: memory is bounded whatever
 * the log's length.  An error in the writer is kept and returned by the next
 * imp_chunk_flush or by imp_chunk_finish (as -1, the message in imp->err).
 *
 * Stages: a module that summarises whole chunks (imp_sum) hands
 * imp_chunk_start a stage; its function sees every chunk, in order, on a
 * consumer thread (or on the import thread while it waits for a free
 * chunk), alongside the writer (the chunks are shared, read-only, and
 * a chunk is refilled only once every stage and the writer are past it).
 * A stage owns its state until imp_chunk_finish (or imp_chunk_free) has
 * joined its thread; it must not touch SQLite or struct importer.  An
 * error in a stage is reported like the writer's.  What only the import
 * thread knows travels in the chunk: each access's heap bit, and words per
 * context defined (imp_chunk_context), placed among the runs where the
 * definition came, so that a stage sees the log's order.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef IMP_CHUNK_H
#define IMP_CHUNK_H

#include <stddef.h>
#include <stdint.h>
#include "dglog.h"

struct importer;

#define IMP_CHUNK_JOBS 8

/* Kinds of a bbdef's n_acc accesses, one byte each, followed by their
   instruction numbers (iseq), one byte each, and their sizes in bytes, one
   byte each, then (4-byte aligned, see imp_chunk_modules_off) their
   modules' ids, 4 bytes each, then (8-byte aligned, imp_chunk_totals_off)
   its totals, struct imp_chunk_totals (imp_run_bbdef makes them; the array
   must not change or go away before imp_chunk_free). */
#define IMP_K_WRITE    1
#define IMP_K_GUARDED  2      /* address 0 means "did not happen" */

/* Where the module ids start in a kinds array of n_acc accesses, and its
   bytes. */
static inline size_t imp_chunk_modules_off(uint32_t n_acc)
{
	return (3 * (size_t)n_acc + 4) & ~(size_t)3;
}

/* What a run that makes every access of its bbdef adds up to, so that
   the stages count it at once: reads and writes ([0], [1]) and their
   bytes; any_guarded says that some access may not happen (address 0),
   so a run must be looked at access by access to know it made them all. */
struct imp_chunk_totals {
	uint64_t bytes[2];
	uint32_t n[2];
	uint32_t any_guarded;
};

static inline size_t imp_chunk_totals_off(uint32_t n_acc)
{
	return (imp_chunk_modules_off(n_acc) + 4 * (size_t)n_acc + 7) & ~(size_t)7;
}

static inline size_t imp_chunk_kinds_size(uint32_t n_acc)
{
	return imp_chunk_totals_off(n_acc) + sizeof(struct imp_chunk_totals);
}

static inline const struct imp_chunk_totals *imp_chunk_totals(const uint8_t *kinds,
                                                              uint32_t n_acc)
{
	return (const struct imp_chunk_totals *)(const void *)(kinds + imp_chunk_totals_off(n_acc));
}

/* The chunk's header, known to the import thread. */
struct imp_chunk_head {
	uint32_t thread;
	uint64_t icount_lo, icount_next, accesses;
};

/* A run as the stages see it: its accesses are n_addrs addresses in the
   chunk's address array, after the earlier runs'. */
struct imp_chunk_run {
	uint64_t context, icount_start;
	const uint8_t *kinds;      /* its bbdef's: n_acc kinds, iseqs, sizes,
	                              modules, totals */
	uint32_t n_instrs, n_addrs;
	uint32_t n_acc;            /* accesses of its bbdef (n_addrs or more) */
	int partial;
};

/* A context defined while the chunk was filled, before its run at_run
   (n_runs: after the last): the n words its definer gave
   (imp_chunk_context), from words[off] of the chunk's. */
struct imp_chunk_def { uint32_t at_run, off, n; };

/* A chunk's accesses by 64-byte line, as the lines stage (see below) gives
   them to the writer: a line may come more than once (the writer sums
   them), in no order; lo and hi are the lowest and highest address (lo
   UINT64_MAX when no access happened). */
struct imp_chunk_line { uint64_t key; uint32_t n[2]; };     /* reads, writes */
struct imp_chunk_lines {
	struct imp_chunk_line *v;
	size_t n, cap;
	uint64_t lo, hi;
};

/* A chunk as the stages see it: the runs, their addresses back to back;
   by address, whether it was inside a live heap block when made (1 or 0;
   a guarded access that did not happen: 0); the contexts defined meanwhile,
   in index order; for the lines stage only, where its lines go (else
   NULL). */
struct imp_chunk_view {
	const struct imp_chunk_head *head;
	const struct imp_chunk_run *runs;
	size_t n_runs;
	const uint64_t *addrs;
	const uint8_t *heap;
	const struct imp_chunk_def *defs;
	size_t n_defs;
	const uint32_t *words;
	struct imp_chunk_lines *lines;
};

/* A stage: chunk() is called with every chunk, in order; 0, or -1 with a
   message in err (the import then fails with it).  Exactly one stage makes
   the lines: it fills v->lines (emptied for it) with every access that
   happened, and the writer waits for them before it writes the chunk (the
   lines stage hashes each access by line anyway, for its windows; the
   writer hashing them again cost a tenth of the import's CPU). */
struct imp_chunk_stage {
	int (*chunk)(void *arg, const struct imp_chunk_view *v, char *err, size_t errlen);
	void *arg;
	int makes_lines;
};

#define IMP_CHUNK_STAGES 2    /* at most, besides the writer */

/* Start the writer and the stages (after imp_db_open) on n_threads
   threads (at least one; at most one each): on fewer, a thread runs
   several of them, each chunk through one after the other. */
int  imp_chunk_start(struct importer *imp, const struct imp_chunk_stage *stages,
                     int n_stages, int n_threads);
/* A new context, in index order: its bbdef's shape, and n words for the
   stages (copied; they see them at the context's place among the runs). */
int  imp_chunk_context(struct importer *imp, uint32_t n_instrs, uint32_t n_accesses,
                       const uint32_t *words, uint32_t n);
/* Rows of the tables the import thread makes a definition at a time:
   contexts (id, bbdef_id, stack_id), stacks (id, depth, callsite_id) and
   callsites (id, parent_id, pc, module_id, depth), values as the tables'
   columns, IMP_ROW_NULL for NULL.  They travel with the chunk being filled
   and the writer writes them, ROWS_PER_STMT rows a statement: its thread
   has the time, where the import thread, one INSERT a row, spent a third
   of a compiler's import on them (12.8 M rows for 4.1 M contexts).  Not
   after imp_chunk_finish: an importer bug, an error.  0, or -1 (imp->err
   set). */
enum imp_rows { IMP_ROWS_CONTEXTS, IMP_ROWS_STACKS, IMP_ROWS_CALLSITES, IMP_ROWS_N };
#define IMP_ROW_NULL INT64_MIN
int  imp_chunk_row(struct importer *imp, enum imp_rows table, const int64_t *vals);
/* Append a run to the chunk being filled; *addrs and *heap are where its
   n_addrs addresses and heap bits go (the caller copies and fills them
   before the next call: in its own loop over the addresses, where the
   stores cost less than a copy here). */
int  imp_chunk_run(struct importer *imp, const struct dglog_run *run, const uint8_t *kinds,
                   uint32_t n_acc, uint64_t **addrs, uint8_t **heap);
/* Hand the chunk over (if it has runs) and start an empty one. */
int  imp_chunk_flush(struct importer *imp, const struct imp_chunk_head *h);
/* Hand over the last chunk, wait for the writer and the stages. */
int  imp_chunk_finish(struct importer *imp);
/* Stop the writer and the stages if they run (dropping what they have not
   done) and free everything. */
void imp_chunk_free(struct importer *imp);

#endif
