/* render.c: output modes (see render.h).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "render.h"

#include <stdlib.h>
#include <string.h>

static const char *const mode_names[RENDER_NMODES] = {
	"list", "table", "column", "csv", "tsv", "json", "line"
};

int render_mode_by_name(const char *name)
{
	int i;

	for (i = 0; i < RENDER_NMODES; i++)
		if (strcmp(name, mode_names[i]) == 0)
			return i;
	if (strcmp(name, "tabs") == 0)
		return RENDER_TSV;
	return -1;
}

const char *render_mode_name(enum render_mode m)
{
	return mode_names[m];
}

/* ---------------------------------------------------------- values */

/* The text of column i; blobs as x'..' (caller frees with free()). */
static char *cell_text(sqlite3_stmt *st, int i)
{
	int t = sqlite3_column_type(st, i);

	if (t == SQLITE_NULL)
		return strdup("");
	if (t == SQLITE_BLOB) {
		const unsigned char *b = sqlite3_column_blob(st, i);
		int n = sqlite3_column_bytes(st, i), k;
		char *s = malloc(2 * (size_t)n + 4);

		if (!s)
			return NULL;
		s[0] = 'x';
		s[1] = '\'';
		for (k = 0; k < n; k++)
			sprintf(s + 2 + 2 * k, "%02x", b[k]);
		strcpy(s + 2 + 2 * n, "'");
		return s;
	}
	return strdup((const char *)sqlite3_column_text(st, i));
}

static int is_number(sqlite3_stmt *st, int i)
{
	int t = sqlite3_column_type(st, i);

	return t == SQLITE_INTEGER || t == SQLITE_FLOAT;
}

static void put_csv(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n") && *s != ' ') {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void put_json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void put_json_value(FILE *out, sqlite3_stmt *st, int i)
{
	char *s;

	switch (sqlite3_column_type(st, i)) {
	case SQLITE_NULL:
		fputs("null", out);
		return;
	case SQLITE_INTEGER:
	case SQLITE_FLOAT:
		fputs((const char *)sqlite3_column_text(st, i), out);
		return;
	default:
		s = cell_text(st, i);
		put_json_string(out, s ? s : "");
		free(s);
	}
}

/* ---------------------------------------------------------- streaming */

static void row_separated(FILE *out, sqlite3_stmt *st, enum render_mode m,
			  int names)
{
	int i, n = sqlite3_column_count(st);
	char sep = m == RENDER_LIST ? '|' : m == RENDER_CSV ? ',' : '\t';

	for (i = 0; i < n; i++) {
		char *s = names ? strdup(sqlite3_column_name(st, i))
				: cell_text(st, i);

		if (i)
			fputc(sep, out);
		if (m == RENDER_CSV)
			put_csv(out, s ? s : "");
		else
			fputs(s ? s : "", out);
		free(s);
	}
	fputc('\n', out);
}

static void row_json(FILE *out, sqlite3_stmt *st, long row)
{
	int i, n = sqlite3_column_count(st);

	fputs(row == 0 ? "[{" : ",\n{", out);
	for (i = 0; i < n; i++) {
		if (i)
			fputc(',', out);
		put_json_string(out, sqlite3_column_name(st, i));
		fputc(':', out);
		put_json_value(out, st, i);
	}
	fputc('}', out);
}

static void row_line(FILE *out, sqlite3_stmt *st, long row)
{
	int i, n = sqlite3_column_count(st), w = 0;

	for (i = 0; i < n; i++) {
		int l = (int)strlen(sqlite3_column_name(st, i));

		if (l > w)
			w = l;
	}
	if (row)
		fputc('\n', out);
	for (i = 0; i < n; i++) {
		char *s = cell_text(st, i);

		fprintf(out, "%*s = %s\n", w, sqlite3_column_name(st, i),
			s ? s : "");
		free(s);
	}
}

static int stream(sqlite3_stmt *st, enum render_mode m, int headers,
		  FILE *out, long *nrows)
{
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (m == RENDER_JSON)
			row_json(out, st, *nrows);
		else if (m == RENDER_LINE)
			row_line(out, st, *nrows);
		else {
			if (*nrows == 0 && headers)
				row_separated(out, st, m, 1);
			row_separated(out, st, m, 0);
		}
		++*nrows;
	}
	if (m == RENDER_JSON && *nrows)
		fputs("]\n", out);
	return rc;
}

/* ---------------------------------------------------------- buffered */

struct grid {
	int ncol;
	long nrow, cap;         /* rows of cells, row 0 the names */
	char **cell;
	unsigned char *num;     /* per cell: right-align */
	int *width;
};

static void grid_free(struct grid *g)
{
	long i;

	for (i = 0; i < g->nrow * g->ncol; i++)
		free(g->cell[i]);
	free(g->cell);
	free(g->num);
	free(g->width);
}

static int grid_add(struct grid *g, sqlite3_stmt *st, int names)
{
	int i;

	if (g->nrow == g->cap) {
		long cap = g->cap ? 2 * g->cap : 64;
		char **c = realloc(g->cell, cap * g->ncol * sizeof *c);
		unsigned char *nu;

		if (!c)
			return -1;
		g->cell = c;
		nu = realloc(g->num, cap * g->ncol);
		if (!nu)
			return -1;
		g->num = nu;
		g->cap = cap;
	}
	for (i = 0; i < g->ncol; i++) {
		long k = g->nrow * g->ncol + i;
		char *s = names ? strdup(sqlite3_column_name(st, i))
				: cell_text(st, i);
		int l;

		g->cell[k] = s ? s : strdup("");
		g->num[k] = !names && is_number(st, i);
		l = (int)strlen(g->cell[k]);
		if (l > g->width[i])
			g->width[i] = l;
	}
	g->nrow++;
	return 0;
}

static void rule(FILE *out, const struct grid *g, int boxed)
{
	int i, k;

	for (i = 0; i < g->ncol; i++) {
		if (boxed || i)
			fputs(boxed ? "+-" : "  ", out);
		for (k = 0; k < g->width[i]; k++)
			fputc('-', out);
		if (boxed)
			fputc('-', out);
	}
	fputs(boxed ? "+\n" : "\n", out);
}

static void grid_row(FILE *out, const struct grid *g, long r, int boxed)
{
	int i;

	for (i = 0; i < g->ncol; i++) {
		long k = r * g->ncol + i;
		int w = g->width[i];

		if (boxed || i)
			fputs(boxed ? "| " : "  ", out);
		if (g->num[k])
			fprintf(out, "%*s", w, g->cell[k]);
		else if (boxed || i + 1 < g->ncol)
			fprintf(out, "%-*s", w, g->cell[k]);
		else
			fputs(g->cell[k], out);
		if (boxed)
			fputc(' ', out);
	}
	fputs(boxed ? "|\n" : "\n", out);
}

static void grid_print(FILE *out, const struct grid *g, int headers,
		       int boxed)
{
	long r;

	if (g->nrow <= 1)
		return;
	if (boxed)
		rule(out, g, 1);
	if (headers) {
		grid_row(out, g, 0, boxed);
		rule(out, g, boxed);
	}
	for (r = 1; r < g->nrow; r++)
		grid_row(out, g, r, boxed);
	if (boxed)
		rule(out, g, 1);
}

static int buffered(sqlite3_stmt *st, enum render_mode m, int headers,
		    FILE *out, long *nrows)
{
	struct grid g = { .ncol = sqlite3_column_count(st) };
	int rc = SQLITE_NOMEM;

	g.width = calloc(g.ncol ? g.ncol : 1, sizeof *g.width);
	if (!g.width || grid_add(&g, st, 1) < 0)
		goto out;
	if (!headers)
		memset(g.width, 0, g.ncol * sizeof *g.width);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (grid_add(&g, st, 0) < 0) {
			rc = SQLITE_NOMEM;
			goto out;
		}
	*nrows = g.nrow - 1;
	grid_print(out, &g, headers, m == RENDER_TABLE);
out:
	grid_free(&g);
	return rc;
}

int render_stmt(sqlite3_stmt *st, enum render_mode mode, int headers,
		FILE *out, long *nrows)
{
	*nrows = 0;
	if (sqlite3_column_count(st) == 0) {
		int rc;

		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			;
		return rc;
	}
	if (mode == RENDER_TABLE || mode == RENDER_COLUMN)
		return buffered(st, mode, headers, out, nrows);
	return stream(st, mode, headers, out, nrows);
}
