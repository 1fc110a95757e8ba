/* rchart.h: the report's charts, drawn by gnuplot as SVG.
 *
 * Promise: each function writes DIR/FILE (an .svg) from numbers the caller
 * gives (a report table's columns, or flame-graph boxes): the numbers go
 * to gnuplot in a data file of numbers only; names (bar labels, flame
 * frames, titles: trace text) reach its script only through
 * dgplot_put_quoted (inert, noenhanced), and gnuplot's SVG terminal
 * escapes them for XML.  gnuplot is run with dgplot's runner, once a
 * chart or once a batch; its script, data and error files are removed
 * afterwards, the image stays.  DIR must
 * be a path gnuplot can be given unchanged (the caller checks).
 *
 * Ownership: nothing is kept but by a batch, which owns its script and
 * the names of its data files; the caller's strings and tables stay its.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSQL_RCHART_H
#define DGSQL_RCHART_H

#include <stddef.h>
#include <stdint.h>

#include "rdoc.h"

/* A batch of charts drawn by one gnuplot: each chart given it writes its
   data file and appends its script to the batch's, and rchart_batch_run
   draws them all (a gnuplot started a chart was most of a small report's
   time: 14 starts, 0.9 of 1.1 s). */
struct rchart_batch;

struct rchart {
	const char *dir;        /* where the images go */
	const char *file;       /* this image's name in dir ("x.svg") */
	const char *title;
	const char *xlabel, *ylabel, *y2label;
	struct rchart_batch *batch;     /* NULL: drawn before returning */
};

/* A batch writing its script in dir; NULL with *err. */
struct rchart_batch *rchart_batch_new(const char *dir, char **err);
/* Runs gnuplot on the batch's charts, then removes their scripts and data
   files; 0, or -1 with *err (gnuplot's first line of complaint). */
int rchart_batch_run(struct rchart_batch *b, char **err);
/* Removes what the batch left and frees it (NULL is fine). */
void rchart_batch_free(struct rchart_batch *b);

/* Horizontal bars, one per row of t, the first at the top: the label
   column lc, the value column vc. */
int rchart_bars(const struct rchart *c, const struct rtable *t, int lc,
		int vc, char **err);

/* Lines over x (column xc): y (yc) on the left axis, y2 (y2c, or -1) on
   the right; mark_row >= 0 marks that row's y with a point and its value
   (the heap's peak). */
int rchart_lines(const struct rchart *c, const struct rtable *t, int xc,
		 int yc, int y2c, long mark_row, char **err);

/* An offset histogram: reads (rc) and writes (wc) per offset (oc), as
   bars side by side. */
int rchart_hist(const struct rchart *c, const struct rtable *t, int oc,
		int rc, int wc, char **err);

struct rflame_box {
	double x0, x1;          /* in units of the total */
	int depth;              /* 0: the outermost frame, at the bottom */
	const char *name;
};

/* A flame graph: boxes stacked by depth, labelled where wide enough. */
int rchart_flame(const struct rchart *c, const struct rflame_box *b,
		 size_t n, double total, char **err);

#endif
