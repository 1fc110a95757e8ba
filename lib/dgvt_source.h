/* dgvt_source.h: which chunks an `accesses` cursor reads, and in what
 * order — the chunk rows it decodes.
 *
 * Promise: from a filter (dgvt_filter.h), dgvt_source_choose lists the
 * candidate chunk ids, sorted and unique: those of context_chunks (schema
 * 10 and older: chunk_contexts) for the context_id set; those of sum_block_chunks for a summed block (with each
 * chunk's count of the block's accesses in cnts), else those of
 * chunk_regions for an address range of at most 4096 64 KiB regions from
 * 0 up, unless they far outnumber the contexts' chunks; the intersection
 * when both apply.  It reads the list by id, or, when an icount range
 * holds fewer chunks than a list of more than 16, scans chunks by icount
 * keeping the list as the ids allowed; with no list, it scans by icount
 * or by id.  dgvt_source_next then gives the chunk rows (id, thread, icount_lo,
 * icount_hi, addr_lo, addr_hi, data) in chunk id = icount order, leaving
 * out those that cannot hold a row the filter lets through.  A scan's
 * caller that picked its chunks (struct dgvt's pick) has them listed in
 * place of the contexts' chunks.  Uses dgvt_db
 * (the statements, the errors) and the model's context count.
 *
 * Ownership: the source owns its statements and arrays, kept across
 * xFilter calls and released by dgvt_source_free; a row dgvt_source_next
 * gives is valid until the next call.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGVT_SOURCE_H
#define DGVT_SOURCE_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#include "dgvt_filter.h"
#include "dgvt_model.h"

struct dgvt_source {
	sqlite3_stmt *scan_id, *scan_ic, *fetch, *src;
	int64_t *ids;           /* chunk ids to visit (list mode) or allow */
	size_t n_ids, cap_ids, pos;
	int list_mode, use_allow;
	int64_t *cnts;          /* a summed block: its accesses in ids[i] */
	size_t cap_cnts;
};

/* The list of candidate chunks alone (list_mode 0: no list applies). */
int dgvt_source_list(struct dgvt *t, struct dgvt_source *s, const struct dgvt_filter *f);
/* The list, then how to read: the list, a scan by icount or by id. */
int dgvt_source_choose(struct dgvt *t, struct dgvt_source *s, const struct dgvt_filter *f);
/* Read the listed chunks by id from pos on. */
int dgvt_source_fetch_list(struct dgvt *t, struct dgvt_source *s);
/* The next chunk row that may hold a row of f; *st NULL at the end. */
int dgvt_source_next(struct dgvt *t, struct dgvt_source *s, const struct dgvt_filter *f,
		     sqlite3_stmt **st);
/* What s owns (not s itself). */
/* *chunks = how many chunks s, as dgvt_source_choose left it, would visit
   at most (a thread constraint not counted in), none read. */
int dgvt_source_estimate(struct dgvt *t, const struct dgvt_source *s,
			 const struct dgvt_filter *f, int64_t *chunks);
void dgvt_source_free(struct dgvt_source *s);

#endif
