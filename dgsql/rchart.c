/* rchart.c: the report's charts (see rchart.h).
 *
 * Every chart is a script and a data file written side by side in the
 * report's directory, then gnuplot run on them: open_chart writes the
 * frame common to all (terminal, output, title, axis labels), each chart
 * its own lines, finish_chart runs gnuplot and removes the two files; or,
 * in a batch, the scripts follow each other in one file, each closing its
 * image and resetting gnuplot, and rchart_batch_run runs them at once.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "rchart.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dgmem.h"
#include "dgplot.h"

#define MAX_BAR_LABEL 48        /* characters of a bar's name shown */
#define MAX_FLAME_LABELS 400
#define MIN_FLAME_BOX 0.0002   /* of the width, a quarter of a pixel */

struct chart {
	const struct rchart *c;
	char scr[4200], dat[4200], errf[4200];
	FILE *s, *d;
};

struct rchart_batch {
	char scr[4200], errf[4200];
	FILE *s;
	char **dat;             /* the charts' data files, to remove */
	size_t ndat, cap;
};

/* A name cut to at most max characters (UTF-8 aware), "..." added when
   cut; the caller frees. */
static char *cut(const char *s, size_t max)
{
	size_t i = 0, chars = 0;
	char *r;

	while (s[i] && chars < max) {
		i++;
		while (((unsigned char)s[i] & 0xc0) == 0x80)
			i++;
		chars++;
	}
	r = malloc(i + 4);
	if (r) {
		memcpy(r, s, i);
		strcpy(r + i, s[i] ? "..." : "");
	}
	return r;
}

static void put_cut(FILE *f, const char *s, size_t max)
{
	char *t = cut(s, max);

	dgplot_quote(f, t ? t : "");
	free(t);
}

static void axis_label(FILE *f, const char *cmd, const char *text)
{
	if (!text)
		return;
	fprintf(f, "set %s ", cmd);
	dgplot_quote(f, text);
	fputc('\n', f);
}

/* ---------------------------------------------------------- batch */

struct rchart_batch *rchart_batch_new(const char *dir, char **err)
{
	struct rchart_batch *b = calloc(1, sizeof *b);

	if (!b) {
		*err = sqlite3_mprintf("out of memory");
		return NULL;
	}
	snprintf(b->scr, sizeof b->scr, "%s/.charts.gp", dir);
	snprintf(b->errf, sizeof b->errf, "%s/.charts.err", dir);
	if (!(b->s = fopen(b->scr, "w"))) {
		*err = sqlite3_mprintf("%s: %s", dir, strerror(errno));
		free(b);
		return NULL;
	}
	return b;
}

void rchart_batch_free(struct rchart_batch *b)
{
	size_t i;

	if (!b)
		return;
	if (b->s)
		fclose(b->s);
	for (i = 0; i < b->ndat; i++) {
		unlink(b->dat[i]);
		free(b->dat[i]);
	}
	free(b->dat);
	unlink(b->scr);
	unlink(b->errf);
	free(b);
}

int rchart_batch_run(struct rchart_batch *b, char **err)
{
	const char *gp = dgplot_find_gnuplot();
	int bad = ferror(b->s) != 0;

	bad |= fclose(b->s) != 0;
	b->s = NULL;
	if (bad) {
		*err = sqlite3_mprintf("writing the charts' script failed");
		return -1;
	}
	if (!gp) {
		*err = sqlite3_mprintf("gnuplot not found; install the Debian "
				       "package gnuplot-nox");
		return -1;
	}
	return dgplot_run_gnuplot(gp, b->scr, b->errf, err);
}

/* Keeps the name of a batch's data file, to remove after the run. */
static int batch_keep(struct rchart_batch *b, const char *dat, char **err)
{
	if (dg_grow(&b->dat, &b->cap, b->ndat + 1, sizeof *b->dat) < 0 ||
	    !(b->dat[b->ndat] = strdup(dat))) {
		*err = sqlite3_mprintf("out of memory");
		return -1;
	}
	b->ndat++;
	return 0;
}

/* ---------------------------------------------------------- a chart */

static int open_chart(struct chart *ch, const struct rchart *c, int w, int h,
		      char **err)
{
	ch->c = c;
	snprintf(ch->scr, sizeof ch->scr, "%s/.%s.gp", c->dir, c->file);
	snprintf(ch->dat, sizeof ch->dat, "%s/.%s.dat", c->dir, c->file);
	snprintf(ch->errf, sizeof ch->errf, "%s/.%s.err", c->dir, c->file);
	ch->s = c->batch ? c->batch->s : fopen(ch->scr, "w");
	ch->d = fopen(ch->dat, "w");
	if (!ch->s || !ch->d || (c->batch && batch_keep(c->batch, ch->dat,
							 err) < 0)) {
		if (!ch->s || !ch->d)
			*err = sqlite3_mprintf("%s: %s", c->dir,
					       strerror(errno));
		if (ch->s && !c->batch)
			fclose(ch->s);
		if (ch->d)
			fclose(ch->d);
		if (!c->batch)
			unlink(ch->scr);
		unlink(ch->dat);
		return -1;
	}
	fprintf(ch->s, "set terminal svg size %d,%d noenhanced "
		"font 'sans,10' background rgb 'white'\nset output ", w, h);
	{
		char out[4300];

		snprintf(out, sizeof out, "%s/%s", c->dir, c->file);
		dgplot_quote(ch->s, out);
	}
	fputs("\nunset key\nset grid\n", ch->s);
	axis_label(ch->s, "title", c->title);
	axis_label(ch->s, "xlabel", c->xlabel);
	axis_label(ch->s, "ylabel", c->ylabel);
	axis_label(ch->s, "y2label", c->y2label);
	return 0;
}

/* In a batch: the chart's image closed and gnuplot's settings reset for
   the next; else gnuplot run on this chart alone. */
static int finish_chart(struct chart *ch, char **err)
{
	const char *gp = dgplot_find_gnuplot();
	int bad = ferror(ch->s) || ferror(ch->d);
	int rc;

	if (ch->c->batch) {
		/* the shared script's errors are rchart_batch_run's to say */
		fputs("unset output\nreset\n", ch->s);
		bad = ferror(ch->d) != 0;
		bad |= fclose(ch->d) != 0;
		if (bad)
			*err = sqlite3_mprintf("%s: writing the chart's data "
					       "failed", ch->c->file);
		return bad ? -1 : 0;
	}

	bad |= fclose(ch->s) != 0;
	bad |= fclose(ch->d) != 0;
	if (bad) {
		*err = sqlite3_mprintf("%s: writing the chart's script failed",
				       ch->c->file);
		rc = -1;
	} else if (!gp) {
		*err = sqlite3_mprintf("gnuplot not found; install the Debian "
				       "package gnuplot-nox");
		rc = -1;
	} else
		rc = dgplot_run_gnuplot(gp, ch->scr, ch->errf, err);
	unlink(ch->scr);
	unlink(ch->dat);
	unlink(ch->errf);
	return rc;
}

static void plot_data(struct chart *ch)
{
	fputs("plot ", ch->s);
	dgplot_quote(ch->s, ch->dat);
}

/* ---------------------------------------------------------- bars */

int rchart_bars(const struct rchart *c, const struct rtable *t, int lc,
		int vc, char **err)
{
	struct chart ch;
	long r;

	if (open_chart(&ch, c, 900, 120 + 22 * (int)(t->nrows ? t->nrows : 1),
		       err) < 0)
		return -1;
	fprintf(ch.s, "set lmargin at screen 0.38\nset yrange [%ld.5:-0.5]\n"
		"set xrange [0:*]\nset grid noytics\nset ytics (", t->nrows - 1);
	for (r = 0; r < t->nrows; r++) {
		fputs(r ? ", " : "", ch.s);
		put_cut(ch.s, rdoc_text(t, r, lc), MAX_BAR_LABEL);
		fprintf(ch.s, " %ld", r);
		fprintf(ch.d, "%ld %.17g\n", r, rdoc_num(t, r, vc));
	}
	fputs(")\n", ch.s);
	if (!t->nrows)
		fputs("0 0\n", ch.d);
	plot_data(&ch);
	fputs(" using (0.5*$2):1:(0.5*$2):(0.38) with boxxyerror "
	      "fs solid 0.8 noborder lc rgb '#4477aa'\n", ch.s);
	return finish_chart(&ch, err);
}

/* ---------------------------------------------------------- lines */

int rchart_lines(const struct rchart *c, const struct rtable *t, int xc,
		 int yc, int y2c, long mark_row, char **err)
{
	struct chart ch;
	long r;

	if (open_chart(&ch, c, 900, 400, err) < 0)
		return -1;
	for (r = 0; r < t->nrows; r++)
		fprintf(ch.d, "%.17g %.17g %.17g\n", rdoc_num(t, r, xc),
			rdoc_num(t, r, yc), y2c >= 0 ? rdoc_num(t, r, y2c) : 0);
	if (!t->nrows)
		fputs("0 0 0\n", ch.d);
	fputs("set yrange [0:*]\nset format x '%.3s%c'\nset key top right\n",
	      ch.s);
	if (y2c >= 0)
		fputs("set y2range [0:*]\nset y2tics\nset ytics nomirror\n",
		      ch.s);
	if (mark_row >= 0 && mark_row < t->nrows)
		fprintf(ch.s, "set label 1 'peak %.17g' at %.17g,%.17g "
			"point pt 7 ps 1.5 lc rgb '#cc3311' offset 1,0.5\n",
			rdoc_num(t, mark_row, yc), rdoc_num(t, mark_row, xc),
			rdoc_num(t, mark_row, yc));
	plot_data(&ch);
	fputs(" using 1:2 with steps lw 2 lc rgb '#4477aa' title ", ch.s);
	dgplot_quote(ch.s, t->cols[yc]);
	if (y2c >= 0) {
		fputs(", '' using 1:3 axes x1y2 with steps lw 2 "
		      "lc rgb '#ee7733' title ", ch.s);
		dgplot_quote(ch.s, t->cols[y2c]);
	}
	fputc('\n', ch.s);
	return finish_chart(&ch, err);
}

/* ---------------------------------------------------------- histogram */

int rchart_hist(const struct rchart *c, const struct rtable *t, int oc,
		int rc, int wc, char **err)
{
	struct chart ch;
	double w = 1;
	long r;

	if (open_chart(&ch, c, 900, 300, err) < 0)
		return -1;
	if (t->nrows > 1)       /* the bucket size: the smallest step */
		w = rdoc_num(t, 1, oc) - rdoc_num(t, 0, oc);
	for (r = 0; r < t->nrows; r++) {
		if (r && rdoc_num(t, r, oc) - rdoc_num(t, r - 1, oc) < w)
			w = rdoc_num(t, r, oc) - rdoc_num(t, r - 1, oc);
		fprintf(ch.d, "%.17g %.17g %.17g\n", rdoc_num(t, r, oc),
			rdoc_num(t, r, rc), rdoc_num(t, r, wc));
	}
	if (!t->nrows)
		fputs("0 0 0\n", ch.d);
	fprintf(ch.s, "set key top right\nset yrange [0:*]\nset boxwidth %.17g "
		"absolute\nset style fill solid 0.8 noborder\n",
		(w > 0 ? w : 1) / 2);
	plot_data(&ch);
	fprintf(ch.s, " using ($1+%.17g):2 with boxes lc rgb '#228833' "
		"title 'reads', '' using ($1+%.17g):3 with boxes "
		"lc rgb '#cc3311' title 'writes'\n", (w > 0 ? w : 1) / 4,
		3 * (w > 0 ? w : 1) / 4);
	return finish_chart(&ch, err);
}

/* ---------------------------------------------------------- flame */

/* A warm colour from the name, so a function keeps its colour. */
static unsigned colour_of(const char *s)
{
	unsigned h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return (200u + h % 56u) << 16 | (80u + (h >> 8) % 120u) << 8 |
	       (h >> 16) % 50u;
}

int rchart_flame(const struct rchart *c, const struct rflame_box *b,
		 size_t n, double total, char **err)
{
	struct chart ch;
	int depth = 1, labels = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i].depth + 1 > depth)
			depth = b[i].depth + 1;
	if (open_chart(&ch, c, 1200, 80 + 16 * (depth < 8 ? 8 : depth),
		       err) < 0)
		return -1;
	fprintf(ch.s, "set xrange [0:%.17g]\nset yrange [0:%d]\nunset ytics\n"
		"unset grid\nset format x '%%.3s%%c'\nset style fill solid 1 "
		"border lc rgb 'white'\n", total > 0 ? total : 1, depth);
	for (i = 0; i < n; i++) {
		double wfrac = total > 0 ? (b[i].x1 - b[i].x0) / total : 0;

		if (wfrac < MIN_FLAME_BOX)
			continue;       /* under a pixel: left out */
		fprintf(ch.d, "%.17g %.17g %.17g %u\n", (b[i].x0 + b[i].x1) / 2,
			(b[i].x1 - b[i].x0) / 2, b[i].depth + 0.5,
			colour_of(b[i].name));
		if (wfrac < 0.02 || labels >= MAX_FLAME_LABELS)
			continue;
		fprintf(ch.s, "set label %d ", ++labels);
		put_cut(ch.s, b[i].name, (size_t)(wfrac * 1100 / 6.5));
		fprintf(ch.s, " at %.17g,%.17g left front font ',8'\n",
			b[i].x0 + total * 0.002, b[i].depth + 0.5);
	}
	if (!n)
		fputs("0 0 0.5 0\n", ch.d);
	plot_data(&ch);
	fputs(" using 1:3:2:(0.5):4 with boxxyerror lc rgb variable\n", ch.s);
	return finish_chart(&ch, err);
}
