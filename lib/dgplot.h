/* dgplot.h: the dg_view picture of a trace, drawn by gnuplot.
 *
 * Promise: dgplot_draw reads the view `filtered_accesses` (or the
 * relation given as `source`: any with the columns addr, icount, is_write,
 * and n, the accesses a row stands for) once to find the pages
 * used and once to bin the accesses to the plot's pixel grid, so gnuplot
 * receives at most one cell per pixel however many accesses there are.
 * X is the address with unused pages squeezed out (each discontinuity a
 * thin white line, ticks labelled with real hex addresses, regions named
 * heap / stack / module from `blocks` and `mappings`), Y the instruction
 * count growing downwards; reads green, writes red, both yellow, on black.
 * Page and cache-line boundaries are drawn when they are at least 4 pixels
 * apart.  The terminal follows the output's extension (.png, .svg, .pdf).
 * gnuplot runs as a child process (gnuplot-nox, else gnuplot, or
 * $DG_GNUPLOT); a missing one is an error naming the Debian package.
 *
 * Text from the trace (the executable's path, module names, the filter)
 * reaches the script only as inert single-quoted strings (controls and
 * invalid UTF-8 shown as \xHH, see dgesc.h), never as commands, and is
 * drawn noenhanced; a plot file name gnuplot would have to be given
 * altered (a control character, a backslash) is refused.  Numbers from the
 * database are used without signed overflow whatever their values.
 *
 * Threads: where the cells of chunk_cells are binned (a zoomed-out view,
 * a broad filter's whole chunks) or accesses decoded in C (a zoomed-in
 * view, a filter's partial chunks), a helper thread takes the chunks of
 * odd ids through a read-only connection of its own on the database's
 * file (with a copy of the call-stack filter's temp tables), and is
 * joined before the call returns; the caller's connection is used by the
 * calling thread alone.  A small trace, or one without a file, stays on
 * one thread (dgvtab_split_worth).
 *
 * Ownership: the options' strings belong to the caller.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGPLOT_H
#define DGPLOT_H

#include <stdint.h>
#include <stdio.h>
#include <sqlite3.h>

struct dgplot_opts {
	const char *out;        /* image file; NULL: only data_out */
	const char *data_out;   /* binned cells "x y reads writes", or NULL */
	const char *title;      /* extra title text (the filter), or NULL */
	int width, height;      /* pixels of the image */
	int has_addr, has_icount;
	int64_t addr_lo, addr_hi;       /* [lo, hi) zoom */
	int64_t icount_lo, icount_hi;
	int64_t page_size, line_size;
	int unfiltered;         /* filtered_accesses holds every access: the
				   whole-trace picture may come from the
				   chunk_cells summary */
	const char *source;     /* NULL: filtered_accesses.  Else SQL of a
				   relation (addr, icount, is_write, n),
				   our own text, never the trace's: dgsql's
				   .plot --misses draws temp.cache_map so */
	const char *source_name;        /* what --plot-data says it drew */
	const char *script_dir; /* NULL: run gnuplot.  Else an existing
				   directory: write the script plot.gp and
				   its image.rgb there and run nothing
				   (tests, fuzzing) */
};

void dgplot_defaults(struct dgplot_opts *o);

/* Sets option NAME ("size", "addr-range", "icount-range", "page-size",
   "line-size") from its text VALUE.  0, or -1 with *err (sqlite3_free). */
int dgplot_set(struct dgplot_opts *o, const char *name, const char *value,
	       char **err);

/* A view as a viewer asks for it (dgsql --serve's /grid): a grid of W x H
   cells, each from 1 to DGPLOT_GRID_MAX, and optionally the address and
   icount ranges as "addr-range" and "icount-range" take them (NULL: the
   whole trace on that axis).  0, or -1 with *err (sqlite3_free). */
#define DGPLOT_GRID_MAX 4096
int dgplot_view(struct dgplot_opts *o, const char *w, const char *h,
		const char *addr, const char *icount, char **err);

/* Draws; 0, or -1 with *err (sqlite3_free). */
int dgplot_draw(sqlite3 *db, const struct dgplot_opts *o, char **err);

/* The picture's cells without gnuplot, for a viewer that draws them
   itself: width x height cells (o's width and height are the grid's, no
   margins), binned as dgplot_draw bins them.  Column c covers addresses
   from col_addr[c] (pages squeezed out between columns), row r icounts
   from ylo + r (yhi - ylo) / h.  A view with no access in it is an empty
   grid (the zoom's ranges spread evenly), not an error.  The caller frees
   with dgplot_grid_free. */
struct dgplot_grid {
	int w, h;
	int64_t ylo, yhi;
	int64_t *col_addr;      /* w + 1: the last is the end of the last column */
	uint32_t *reads, *writes;       /* row-major, h x w */
	int summary;            /* 0 decoded, 1 chunk_cells, 2 both (dgplot.c) */
};
int dgplot_grid(sqlite3 *db, const struct dgplot_opts *o, struct dgplot_grid *g,
		char **err);
void dgplot_grid_free(struct dgplot_grid *g);

/* The pieces of drawing that other plots (dgsql's --compare and --report) share, so
   that gnuplot is found, run and given text one way only. */

/* Writes s to a script as an inert single-quoted gnuplot string. */
void dgplot_quote(FILE *f, const char *s);
/* 0 when PATH can be quoted unchanged, else -1 with *err naming WHAT. */
int dgplot_path_ok(const char *what, const char *path, char **err);
/* The terminal for OUT's extension (.png .svg .pdf), or NULL. */
const char *dgplot_terminal(const char *out);
/* The gnuplot to run ($DG_GNUPLOT, gnuplot-nox, gnuplot), or NULL. */
const char *dgplot_find_gnuplot(void);
/* Checks an image file name OUT (quotable, a known extension) and finds
   its terminal, and gnuplot when RUN; 0, or -1 with *err. */
int dgplot_output(const char *out, int run, const char **term,
		  const char **gp, char **err);
/* Runs GP on SCRIPT, its output to ERRFILE; 0, or -1 with *err. */
int dgplot_run_gnuplot(const char *gp, const char *script,
		       const char *errfile, char **err);

/* The fields picture of type `type` ("struct item" or "item"): its fields
 * down, in offset order, one row each (cold ones empty), the instruction
 * count across (the span of the type's accesses, or --icount-range);
 * colours as above.  Reads the TEMP VIEW filtered_fields, so a --ranges
 * filter with field:TYPE.* must be installed (dgfilter.h).  data_out gets
 * "row icount reads writes" cells.  0, or -1 with *err. */
int dgplot_fields(sqlite3 *db, const struct dgplot_opts *o, const char *type, char **err);

#endif
