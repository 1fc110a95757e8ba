/* dgfsum.h: a filter's cache lines and working set, from the summaries
 * of the chunks it takes whole and the others decoded.
 *
 * Promise: after dgfsum_register(db), eponymous-only virtual tables
 * answer for the filter dgfilter installed, when that filter is
 * call-stack conditions alone (--events fn:, file:, dso:; its set
 * DGFILTER_STACK_SET, temp.dgf_ev_ctx): dgf_stack_lines and
 * dgf_stack_windows; or user: conditions alone in --events (its merged
 * intervals, temp.dgf_ev_iv): dgf_user_lines and dgf_user_windows, the
 * same columns:
 *
 *   dgf_stack_lines(line, reads, writes)
 *       filtered_accesses' reads and writes by 64-byte line (addr >> 6,
 *       where the access starts), as sum_lines holds the trace's; lines
 *       with neither left out; in line order.
 *   dgf_stack_windows(window_start, accesses, lines, pages)
 *       its working set by window of 100 000 instructions, as sum_windows
 *       holds the trace's; windows without accesses left out; in order.
 *
 * How: dgctxset (or, for user:, the chunk's icount span against the
 * intervals) says per chunk whether the filter takes it whole, in part
 * or not at all.  Lines: when the chunks taken whole hold more
 * accesses than those not taken, sum_lines less every access of the
 * chunks not taken whole, plus the passing accesses of the chunks taken
 * in part (a broad filter decodes few chunks); else the passing accesses
 * of the whole and part chunks.  Windows: one overlapped by chunks taken
 * whole alone is its sum_windows row; one overlapped only by chunks not
 * taken is empty; the rest ("mixed") are decoded, from the chunks taken
 * whole or in part that overlap them.  Where dgctxset cannot say (no
 * context_chunks), every chunk counts as taken in part: every access is
 * decoded, the answer the same.  Each scan computes it again (nothing is
 * kept between statements, so a new filter needs nothing cleared).  The
 * chunks are decoded in C (dgvtab_scan_picked: the set's term, or each
 * row's icount tested against the intervals); a window's line and page
 * sets live only while chunks overlapping it are being read.
 *
 * dgfilter's views filtered_lines, filtered_pages and filtered_windows
 * read these tables under such a filter (its dg_paged(), dg_windowed()).
 * Errors are SQL errors starting with the table's name, never a crash; a count below zero (the
 * summaries and the chunks disagree) is one.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGFSUM_H
#define DGFSUM_H

#include <sqlite3.h>

/* Register both tables on db.  Returns SQLITE_OK, or an SQLite error code
   with *errmsg (if errmsg is not NULL; sqlite3_free) set. */
int dgfsum_register(sqlite3 *db, char **errmsg);

#endif
