/* report.h: `dgsql DB --report DIR`, a trace as a page of plots and tables.
 *
 * Promise: report_write fills DIR with index.html (inline SVG, nothing
 * fetched, no script), report.md (GitHub Markdown, the SVGs beside it)
 * and report.json (the same tables as numbers), see rdoc.h, with: the
 * trace's header; the address x time plot (dgplot.h); the top functions,
 * heap blocks, allocation sites, pages and lines, each a table and a bar
 * chart; the working set per window; offset histograms of the top blocks;
 * flame graphs of accesses and bytes by call stack; the heap over time
 * (live bytes, its peak, the sites live at the peak); leaks, short-lived
 * (heaptrack's "temporary": freed before the next allocation) and useless
 * (never read) allocations; a section per user event label and tracked
 * range label.  A truncated trace (meta.complete = 0) is said at the top.
 *
 * Filters apply to everything: the session's filtered_accesses (--events,
 * --ranges) and the icount range (added here to filtered_accesses).
 * Without any filter every figure comes from the import's summaries
 * (sum_pc, blocks, sum_pages, sum_lines, sum_windows, sum_ctx), so
 * the report's time does not grow with the number of accesses; with one,
 * the filtered accesses are decoded a few times (one GROUP BY per
 * summary).  The heap sections take the blocks allocated inside the icount
 * range, or with --events/--ranges the blocks the filtered accesses touch.
 *
 * The directory is built aside (DIR.tmp-XXXXXX, beside DIR) and renamed
 * into place at the end; a DIR that exists is replaced only then.  On any
 * error nothing is left: neither the aside directory nor a changed DIR.
 * folded (or NULL) gets the call stacks in the folded format of flame
 * graph tools ("outer;inner;innermost COUNT", one per line), the same way.
 *
 * Ownership: the options' strings are the caller's; the connection is
 * the caller's (its filtered_accesses is redefined when an icount range is
 * given).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSQL_REPORT_H
#define DGSQL_REPORT_H

#include <stdint.h>
#include <sqlite3.h>

struct report_opts {
	const char *dir;
	const char *folded;     /* or NULL */
	const char *filter;     /* the filter as typed, for the header, or NULL */
	int filtered;           /* --events or --ranges given */
	int has_icount;
	int64_t icount_lo, icount_hi;   /* [lo, hi) */
	int top;                /* rows of each top-N table */
	int no_charts;          /* --no-charts: tables only, no gnuplot */
};

/* 0, or -1 with *err (sqlite3_free). */
int report_write(sqlite3 *db, const struct report_opts *o, char **err);

#endif
