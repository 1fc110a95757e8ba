/* compare.h: `dgsql HEAD.db --compare BASE.db`, two traces side by side.
 *
 * Promise: compare_main runs the comparison mode of dgsql (main.c hands
 * it the whole command line when --compare is on it).  It opens both
 * databases read-only as the shell does, reads their summaries (never the
 * accesses themselves, so it takes seconds on a 10^9-access trace), and
 * matches by NAME, never by id or address, so two builds of a program
 * compare:
 *
 *   total     the whole trace
 *   fn        functions by name (sum_fn_block)
 *   site      allocation sites by their stack's function names, innermost
 *             first ("make_index < main < ...")
 *   block     heap blocks by site and order: the Nth block of a site (the
 *             first 1000 of each site)
 *   event     user events by label, range tracked ranges by label (else
 *             type name), thread threads by order of their first run
 *
 * For each: accesses, bytes accessed, distinct 64-byte lines and 4 KiB
 * pages (totals from sum_lines/sum_pages; blocks and sites from the
 * blocks' offset histograms, block-relative), heap peak (live bytes at
 * the peak; a block's size), allocations (blocks; an event's or range's
 * instances) and instructions (the trace's; the time inside an event).
 * The table is sorted by the size of the change (--sort METRIC, accesses
 * by default) and written as text, Markdown or JSON; gnuplot draws the
 * two traces side by side (--plot) and the change per function
 * (--plot-change).  --fail-if conditions (failif.h) decide the exit
 * status: 0 no regression, 1 a condition held, 2 bad usage or input
 * (a database that cannot be read, nothing matched at all).
 *
 * Text from the traces (names, labels, paths) reaches SQL only as values
 * read, and output only through lib/dgesc (text, Markdown, JSON) or
 * dgplot_quote (gnuplot).  Output files are written aside and renamed
 * into place, mode 0600.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSQL_COMPARE_H
#define DGSQL_COMPARE_H

/* 1 when the command line asks for a comparison (--compare before "--"). */
int compare_wanted(int argc, char **argv);

/* The comparison mode's main: parses argv, prints, returns the exit
   status (0, 1 or 2). */
int compare_main(int argc, char **argv);

#endif
