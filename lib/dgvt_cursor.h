/* dgvt_cursor.h: an `accesses` cursor — the chunks it reads, decoded
 * run by run, and the accesses of each run that pass its filter.
 *
 * Promise: dgvt_cur_filter (xFilter) loads the model, builds the filter
 * (dgvt_filter.h), chooses the chunks (dgvt_source.h) and stands on the
 * first row; dgvt_cur_next (xNext) moves to the next, decoding the next
 * run when the current one is used up.  The current row is access
 * sel[k] of the current run: its address run.addrs[sel[k]], its
 * descriptor d[sel[k]], its icount run_icount + d[sel[k]].iseq; eof
 * set: no row.  Nothing is allocated per row.  A block_id = X plan that
 * reads no column, for a block with sum_block_chunks rows, counts
 * (`counting`): the rows are that table's counts and nothing is decoded
 * until a value is wanted (dgvt_cur_count_decode).  A malformed chunk
 * is an "accesses: chunk N: ..." SQLITE_CORRUPT_VTAB error in the table
 * object.  Uses every lower dgvt_ module and dgchunk; the table's
 * methods (dgvtab.c) and dgvt_scan.c call it, never the reverse.
 *
 * Ownership: the cursor owns its codec (every context of the model
 * registered, once), its filter, its source and the arrays sel points
 * into (a run that keeps every access selects the identity); dgvt_cur_close
 * frees them and the cursor.  The table object (base.pVtab, a struct
 * dgvt) owns the model the cursor reads.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGVT_CURSOR_H
#define DGVT_CURSOR_H

#include <stdint.h>
#include <sqlite3.h>

#include "dgchunk.h"
#include "dgvt_filter.h"
#include "dgvt_model.h"
#include "dgvt_source.h"

struct dgvt_cur {
	sqlite3_vtab_cursor base;
	struct dgchunk_codec codec;
	int codec_ready;
	struct dgvt_source s;
	/* Counting (a block_id = X plan reading no column): rows without
	   decoding, s.cnts[s.pos] for chunk s.ids[s.pos]; `done` of them
	   given. */
	int counting;
	int64_t done;
	struct dgvt_filter f;
	int eof, in_chunk;
	int64_t chunk, thread, next_icount, run_icount;
	uint32_t next_first, run_first, run_no;
	struct dgchunk_run run;
	const struct dgvt_desc *d;
	const uint32_t *sel;    /* the run's selected accesses: own or ident */
	uint32_t *own, *ident;  /* a buffer; 0, 1, 2, ... (every access) */
	uint32_t n_sel, k;
	int no_addrs;           /* set by the caller: it reads no address, so an
	                           open filter's chunks skip them (but for the
	                           guarded contexts', which select_run reads) */
};


/* xOpen, xClose, xFilter and xNext (base->pVtab: a struct dgvt). */
int dgvt_cur_open(sqlite3_vtab *vtab, sqlite3_vtab_cursor **out);
int dgvt_cur_close(sqlite3_vtab_cursor *base);
int dgvt_cur_filter(sqlite3_vtab_cursor *base, int idx_num, const char *plan,
		    int argc, sqlite3_value **argv);
int dgvt_cur_next(sqlite3_vtab_cursor *base);

/* Decode runs until one has a selected access (k 0), or the end (eof);
   with t->all_runs, the next run whatever it has. */
int dgvt_cur_run(struct dgvt *t, struct dgvt_cur *c);
/* The same for a cursor whose filter is open (c->f.open, no context set,
   not t->all_runs), leaner: a run of a context without a guarded access
   is every access it has, and one without any is passed over; the rest
   (a guarded context, the chunk's end, a malformed run) goes the general
   way, with its checks and messages. */
int dgvt_cur_run_open(struct dgvt *t, struct dgvt_cur *c);
/* A counting cursor that must give values after all: decode from the
   current chunk on, as if it had been decoding all along, and stand on
   the row counted last. */
int dgvt_cur_count_decode(struct dgvt *t, struct dgvt_cur *c);
/* *count = the rows the cursor, as dgvt_cur_filter left it, would give,
   summed run by run (or chunk by chunk when it counts a summed block),
   never stepping row by row; the cursor is then used up. */
int dgvt_cur_count(struct dgvt *t, struct dgvt_cur *c, int64_t *count);

#endif
