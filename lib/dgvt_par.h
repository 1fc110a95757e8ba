/* dgvt_par.h: the `accesses` rows for several threads at once, column by
 * column — how another engine (dgsql's DuckDB scan, dgsql/duck.c) reads
 * a trace database without SQLite's row engine.
 *
 * Promise: the rows are SELECT * FROM accesses's (dgvtab.h), made by the
 * same model, cursor and decoder, in batches of whole chunks that the
 * workers of one scan take in turn (any order between batches; chunk
 * order within one).  A worker writes up to `max` rows a call into the
 * int64_t arrays of the columns it was asked for (cols[DGVT_COL_x], NULL:
 * not wanted; block_id's NULLs in block_null), so a column nobody reads
 * costs nothing, and block_id's lookup only when asked; a scan that reads
 * no address (addr, block_id, site_id) does not decode them
 * (dgchunk_skip_addrs), and takes whole runs a batch at a time.  Errors are the
 * table's ("accesses: chunk N: ..."), never a crash.
 *
 * Ownership and threads: dgvt_par_open opens its own read-only
 * connection on the file and loads the model there once; each worker
 * opens another, and borrows the model, read-only, so workers run on
 * threads of their own with nothing shared but the scan's next-batch
 * counter (atomic).  The caller opens a scan's workers after
 * dgvt_par_scan_begin and closes them before dgvt_par_scan_end, and ends
 * every scan before dgvt_par_close.  Error
 * messages are the caller's to sqlite3_free.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGVT_PAR_H
#define DGVT_PAR_H

#include <stddef.h>
#include <stdint.h>

#include "dgvt_plan.h"

/* Columns beyond the table's (after DGVT_COL_STACK): what a row needs
   beside it, resolved per access descriptor or block (export, joins):
   function_id: pcs.function_id of (pc, module_id); site_id: the block's
   alloc_stack_id; field_id: the field of the accessing instruction's type
   (pc_types: fields of the type of that name and size, by path). */
enum {
	DGVT_PAR_COL_FUNCTION = DGVT_N_COLS, DGVT_PAR_COL_SITE, DGVT_PAR_COL_FIELD,
	DGVT_PAR_N_COLS
};

struct dgvt_par;
struct dgvt_par_scan;
struct dgvt_par_worker;

/* The trace database at path (a file: workers open it again), its model
   loaded.  SQLITE_OK, or an SQLite error code with *errmsg. */
int dgvt_par_open(const char *path, struct dgvt_par **out, char **errmsg);
void dgvt_par_close(struct dgvt_par *p);

/* The rows in the database (chunks' n_accesses summed, guarded accesses
   that did not happen included: an estimate for a planner). */
int64_t dgvt_par_rows(const struct dgvt_par *p);

/* A scan over every chunk of the columns in `want` (bit c: column c);
   what they need (blocks, the per-descriptor ids) is loaded now, once a
   struct dgvt_par, before any worker runs.  Scans of one struct dgvt_par
   may run at once (a self-join); begin them from one thread at a time.
   dgvt_par_scan_end after its workers close. */
int dgvt_par_scan_begin(struct dgvt_par *p, uint32_t want, struct dgvt_par_scan **out,
			char **errmsg);
void dgvt_par_scan_end(struct dgvt_par_scan *s);

int dgvt_par_worker_open(struct dgvt_par_scan *s, struct dgvt_par_worker **out, char **errmsg);
void dgvt_par_worker_close(struct dgvt_par_worker *w);

/* Up to max rows into cols (DGVT_PAR_N_COLS entries, NULL: not wanted;
   stack_filter's is never written), *n of them, and for block_id and the
   three ids beyond the table's a NULL flag a row into nulls[c] (which
   must be there when cols[c] is); *n 0: the scan is done for every
   worker.  SQLITE_OK or an error code with *errmsg. */
int dgvt_par_fill(struct dgvt_par_worker *w, int64_t *const *cols, uint8_t *const *nulls,
		  size_t max, size_t *n, char **errmsg);

#endif
