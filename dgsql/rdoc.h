/* rdoc.h: the report as a document, written three ways.
 *
 * Promise: a struct rdoc is a list of sections (a heading, an id), each a
 * list of items: paragraphs, warnings, tables (copied out of an SQL
 * statement, cell by cell, with their types) and images (an SVG file in
 * the report's directory).  rdoc_write puts the same document into
 *   index.html  one page, each image's SVG inline, no script, nothing
 *               fetched; tables <table id="t-ID"> with plain numbers
 *   report.md   GitHub-flavoured Markdown, images as ![...](FILE.svg)
 *   report.json {"sections": [{"id", "title", "items": [...]}]}, tables
 *               as {"id", "columns", "rows"} with numbers as numbers
 * Every string from the trace is escaped for its destination by dgesc
 * (HTML, Markdown, JSON flavours); the SVG images are gnuplot's and are
 * copied as they are (their text was quoted for gnuplot by dgplot).
 * Files are created mode 0600.
 *
 * Ownership: the document owns everything added to it (rdoc_free);
 * a table added stays readable by the caller (rdoc_num...) until then.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSQL_RDOC_H
#define DGSQL_RDOC_H

#include <stdint.h>
#include <sqlite3.h>

struct rdoc;

struct rcell {
	int type;               /* SQLITE_INTEGER, _FLOAT, _TEXT, _NULL */
	int64_t i;
	double d;
	char *s;                /* text (TEXT and BLOB as text), else NULL */
};

struct rtable {
	char *id;
	int ncols;
	char **cols;
	long nrows;
	struct rcell *cells;    /* nrows x ncols */
};

struct rdoc *rdoc_new(void);
void rdoc_free(struct rdoc *d);

/* Starts a section (the items below go into it); ID is [a-z0-9-]. */
int rdoc_section(struct rdoc *d, const char *id, const char *title);
int rdoc_para(struct rdoc *d, const char *text);
int rdoc_warning(struct rdoc *d, const char *text);
/* FILE: an .svg in the report's directory; CAPTION may be trace text. */
int rdoc_image(struct rdoc *d, const char *file, const char *caption);

/* Steps st to its end into a table ID (finalizes nothing).  The table
   (the caller's until added), or NULL with *err (out of memory, or the
   statement's error). */
struct rtable *rdoc_grab(const char *id, sqlite3_stmt *st, char **err);
void rdoc_table_free(struct rtable *t);
/* Adds t to the current section, which then owns it; 0, or -1 (t is
   still the caller's). */
int rdoc_add_table(struct rdoc *d, struct rtable *t);

/* Cell (r, c) as a number (0 when NULL or text) or text ("" when NULL). */
double rdoc_num(const struct rtable *t, long r, int c);
const char *rdoc_text(const struct rtable *t, long r, int c);

/* Writes index.html, report.md and report.json into DIR, which holds the
   images.  0, or -1 with *err. */
int rdoc_write(const struct rdoc *d, const char *dir, char **err);

#endif
