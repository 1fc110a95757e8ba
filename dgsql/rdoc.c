/* rdoc.c: the report document and its three writers (see rdoc.h).
 *
 * A writer is a table of five functions, one per item kind and one for
 * the page's start and end; rdoc_write runs the three over the same items,
 * so the three files cannot disagree on what they hold.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "rdoc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dgesc.h"

enum { I_PARA, I_WARN, I_IMAGE, I_TABLE };

struct ritem {
	int kind;
	char *text;             /* paragraph, warning, caption */
	char *file;             /* image */
	struct rtable *t;
};

struct rsection {
	char *id, *title;
	struct ritem *items;
	size_t n;
};

struct rdoc {
	struct rsection *secs;
	size_t n;
};

struct rdoc *rdoc_new(void)
{
	return calloc(1, sizeof(struct rdoc));
}

void rdoc_table_free(struct rtable *t)
{
	long i;
	int c;

	if (!t)
		return;
	for (i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i].s);
	for (c = 0; t->cols && c < t->ncols; c++)
		free(t->cols[c]);
	free(t->cols);
	free(t->cells);
	free(t->id);
	free(t);
}

void rdoc_free(struct rdoc *d)
{
	size_t i, k;

	if (!d)
		return;
	for (i = 0; i < d->n; i++) {
		struct rsection *s = &d->secs[i];

		for (k = 0; k < s->n; k++) {
			free(s->items[k].text);
			free(s->items[k].file);
			rdoc_table_free(s->items[k].t);
		}
		free(s->items);
		free(s->id);
		free(s->title);
	}
	free(d->secs);
	free(d);
}

/* ---------------------------------------------------------- building */

static char *sdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

int rdoc_section(struct rdoc *d, const char *id, const char *title)
{
	struct rsection *v = realloc(d->secs, (d->n + 1) * sizeof *v);

	if (!v)
		return -1;
	d->secs = v;
	memset(&v[d->n], 0, sizeof *v);
	v[d->n].id = sdup(id);
	v[d->n].title = sdup(title);
	if (!v[d->n].id || !v[d->n].title)
		return -1;
	d->n++;
	return 0;
}

/* A new item in the current section, or NULL. */
static struct ritem *add(struct rdoc *d, int kind)
{
	struct rsection *s;
	struct ritem *v;

	if (!d->n)
		return NULL;
	s = &d->secs[d->n - 1];
	v = realloc(s->items, (s->n + 1) * sizeof *v);
	if (!v)
		return NULL;
	s->items = v;
	memset(&v[s->n], 0, sizeof *v);
	v[s->n].kind = kind;
	return &v[s->n++];
}

static int add_text(struct rdoc *d, int kind, const char *text,
		    const char *file)
{
	struct ritem *it = add(d, kind);

	if (!it)
		return -1;
	it->text = sdup(text);
	it->file = sdup(file);
	return it->text ? 0 : -1;
}

int rdoc_para(struct rdoc *d, const char *text)
{
	return add_text(d, I_PARA, text, NULL);
}

int rdoc_warning(struct rdoc *d, const char *text)
{
	return add_text(d, I_WARN, text, NULL);
}

int rdoc_image(struct rdoc *d, const char *file, const char *caption)
{
	return add_text(d, I_IMAGE, caption, file);
}

static int grab_row(struct rtable *t, sqlite3_stmt *st)
{
	struct rcell *v = realloc(t->cells, (size_t)(t->nrows + 1) *
				  (size_t)t->ncols * sizeof *v);
	int c;

	if (!v)
		return -1;
	t->cells = v;
	v += t->nrows * t->ncols;
	memset(v, 0, (size_t)t->ncols * sizeof *v);
	t->nrows++;
	for (c = 0; c < t->ncols; c++) {
		const unsigned char *s = sqlite3_column_text(st, c);

		v[c].type = sqlite3_column_type(st, c);
		v[c].i = sqlite3_column_int64(st, c);
		v[c].d = sqlite3_column_double(st, c);
		if (v[c].type == SQLITE_NULL)
			continue;
		v[c].s = strndup(s ? (const char *)s : "",
				 (size_t)sqlite3_column_bytes(st, c));
		if (!v[c].s)
			return -1;
	}
	return 0;
}

struct rtable *rdoc_grab(const char *id, sqlite3_stmt *st, char **err)
{
	struct rtable *t = calloc(1, sizeof *t);
	int c, rc;

	if (!t || !(t->id = sdup(id)))
		goto oom;
	t->ncols = sqlite3_column_count(st);
	t->cols = calloc((size_t)t->ncols + 1, sizeof *t->cols);
	if (!t->cols)
		goto oom;
	for (c = 0; c < t->ncols; c++)
		if (!(t->cols[c] = sdup(sqlite3_column_name(st, c))))
			goto oom;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (grab_row(t, st) < 0)
			goto oom;
	if (rc == SQLITE_DONE)
		return t;
	*err = sqlite3_mprintf("table %s: %s", id,
			       sqlite3_errmsg(sqlite3_db_handle(st)));
	rdoc_table_free(t);
	return NULL;
oom:
	rdoc_table_free(t);
	*err = sqlite3_mprintf("table %s: out of memory", id);
	return NULL;
}

int rdoc_add_table(struct rdoc *d, struct rtable *t)
{
	struct ritem *it = add(d, I_TABLE);

	if (!it)
		return -1;
	it->t = t;
	return 0;
}

double rdoc_num(const struct rtable *t, long r, int c)
{
	const struct rcell *x = &t->cells[r * t->ncols + c];

	return x->type == SQLITE_INTEGER ? (double)x->i
	     : x->type == SQLITE_FLOAT ? x->d : 0;
}

const char *rdoc_text(const struct rtable *t, long r, int c)
{
	const char *s = t->cells[r * t->ncols + c].s;

	return s ? s : "";
}

/* ---------------------------------------------------------- writers */

struct wr {
	FILE *f;
	const char *dir;
	int first;              /* JSON: no comma before the next element */
};

/* Writes s escaped in flavour fl. */
static void put_esc(struct wr *w, enum dgesc_flavour fl, const char *s)
{
	char *e = dgesc_as(fl, s, strlen(s));

	fputs(e ? e : "?", w->f);
	free(e);
}

static int is_num(const struct rcell *x)
{
	return x->type == SQLITE_INTEGER || x->type == SQLITE_FLOAT;
}

/* The number as every writer prints it: integers exactly, reals with
   6 significant digits (the test compares the three files' numbers). */
static void put_num(struct wr *w, const struct rcell *x)
{
	if (x->type == SQLITE_INTEGER)
		fprintf(w->f, "%lld", (long long)x->i);
	else
		fprintf(w->f, "%.6g", x->d);
}

/* ---- HTML */

static const char html_head[] =
"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
"<title>Datagrind report</title>\n<style>\n"
"body { font-family: sans-serif; margin: 1em 2em; max-width: 80em; }\n"
"table { border-collapse: collapse; margin: .5em 0; }\n"
"td, th { border: 1px solid #ccc; padding: 2px 6px; }\n"
"td.n { text-align: right; font-variant-numeric: tabular-nums; }\n"
"td.s { font-family: monospace; max-width: 50em; overflow-wrap: anywhere; }\n"
"p.warning { background: #fdd; border: 1px solid #c00; padding: .5em; }\n"
"figure svg { max-width: 100%; height: auto; }\n"
"</style>\n</head>\n<body>\n<h1>Datagrind report</h1>\n";

static void html_start(struct wr *w, const struct rsection *s)
{
	fprintf(w->f, "<section id=\"%s\">\n<h2>", s->id);
	put_esc(w, DGESC_HTML, s->title);
	fputs("</h2>\n", w->f);
}

static void html_end(struct wr *w, const struct rsection *s)
{
	(void)s;
	fputs("</section>\n", w->f);
}

static void html_para(struct wr *w, const struct ritem *it)
{
	fputs(it->kind == I_WARN ? "<p class=\"warning\">" : "<p>", w->f);
	put_esc(w, DGESC_HTML, it->text);
	fputs("</p>\n", w->f);
}

/* The SVG gnuplot wrote, from its <svg element on (the XML declaration
   is not allowed inside HTML). */
static int html_svg(struct wr *w, const char *file)
{
	char path[4200], buf[65536];
	FILE *f;
	size_t n;
	int seen = 0;

	snprintf(path, sizeof path, "%s/%s", w->dir, file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while ((n = fread(buf, 1, sizeof buf - 1, f)) > 0) {
		char *p = buf;

		buf[n] = 0;
		if (!seen) {
			p = strstr(buf, "<svg");
			if (!p)
				continue;
			seen = 1;
		}
		fwrite(p, 1, n - (size_t)(p - buf), w->f);
	}
	fclose(f);
	return seen ? 0 : -1;
}

static void html_image(struct wr *w, const struct ritem *it)
{
	fputs("<figure>\n", w->f);
	if (html_svg(w, it->file) < 0)
		fputs("<p class=\"warning\">image missing</p>", w->f);
	fputs("<figcaption>", w->f);
	put_esc(w, DGESC_HTML, it->text);
	fputs("</figcaption>\n</figure>\n", w->f);
}

static void html_table(struct wr *w, const struct ritem *it)
{
	const struct rtable *t = it->t;
	long r;
	int c;

	fprintf(w->f, "<table id=\"t-%s\">\n<thead><tr>", t->id);
	for (c = 0; c < t->ncols; c++) {
		fputs("<th>", w->f);
		put_esc(w, DGESC_HTML, t->cols[c]);
		fputs("</th>", w->f);
	}
	fputs("</tr></thead>\n<tbody>\n", w->f);
	for (r = 0; r < t->nrows; r++) {
		fputs("<tr>", w->f);
		for (c = 0; c < t->ncols; c++) {
			const struct rcell *x = &t->cells[r * t->ncols + c];

			fputs(is_num(x) ? "<td class=\"n\">" : "<td class=\"s\">",
			      w->f);
			if (is_num(x))
				put_num(w, x);
			else if (x->s)
				put_esc(w, DGESC_HTML, x->s);
			fputs("</td>", w->f);
		}
		fputs("</tr>\n", w->f);
	}
	fputs("</tbody>\n</table>\n", w->f);
}

/* ---- Markdown */

static void md_start(struct wr *w, const struct rsection *s)
{
	fputs("## ", w->f);
	put_esc(w, DGESC_MD, s->title);
	fputs("\n\n", w->f);
}

static void md_end(struct wr *w, const struct rsection *s)
{
	(void)w, (void)s;
}

static void md_para(struct wr *w, const struct ritem *it)
{
	fputs(it->kind == I_WARN ? "> **Warning:** " : "", w->f);
	put_esc(w, DGESC_MD, it->text);
	fputs("\n\n", w->f);
}

static void md_image(struct wr *w, const struct ritem *it)
{
	fputs("![", w->f);
	put_esc(w, DGESC_MD, it->text);
	fprintf(w->f, "](%s)\n\n", it->file);
}

static void md_row_end(struct wr *w)
{
	fputs(" |\n", w->f);
}

static void md_table(struct wr *w, const struct ritem *it)
{
	const struct rtable *t = it->t;
	long r;
	int c;

	for (c = 0; c < t->ncols; c++) {
		fputs(c ? " | " : "| ", w->f);
		put_esc(w, DGESC_MD, t->cols[c]);
	}
	md_row_end(w);
	for (c = 0; c < t->ncols; c++)
		fputs(c ? " | ---" : "| ---", w->f);
	md_row_end(w);
	for (r = 0; r < t->nrows; r++) {
		for (c = 0; c < t->ncols; c++) {
			const struct rcell *x = &t->cells[r * t->ncols + c];

			fputs(c ? " | " : "| ", w->f);
			if (is_num(x))
				put_num(w, x);
			else if (x->s)
				put_esc(w, DGESC_MD, x->s);
		}
		md_row_end(w);
	}
	fputs("\n", w->f);
}

/* ---- JSON */

static void json_str(struct wr *w, const char *s)
{
	fputc('"', w->f);
	put_esc(w, DGESC_JSON, s);
	fputc('"', w->f);
}

static void json_sep(struct wr *w)
{
	fputs(w->first ? "\n" : ",\n", w->f);
	w->first = 0;
}

static void json_start(struct wr *w, const struct rsection *s)
{
	json_sep(w);
	fputs("{\"id\": ", w->f);
	json_str(w, s->id);
	fputs(", \"title\": ", w->f);
	json_str(w, s->title);
	fputs(", \"items\": [", w->f);
	w->first = 1;
}

static void json_end(struct wr *w, const struct rsection *s)
{
	(void)s;
	fputs("]}", w->f);
	w->first = 0;
}

/* {"type": TYPE, K1: V1[, K2: V2]} */
static void json_item(struct wr *w, const char *type, const char *k1,
		      const char *v1, const char *k2, const char *v2)
{
	json_sep(w);
	fprintf(w->f, "{\"type\": \"%s\", \"%s\": ", type, k1);
	json_str(w, v1);
	if (k2) {
		fprintf(w->f, ", \"%s\": ", k2);
		json_str(w, v2);
	}
	fputs("}", w->f);
}

static void json_para(struct wr *w, const struct ritem *it)
{
	json_item(w, it->kind == I_WARN ? "warning" : "text", "text", it->text,
		  NULL, NULL);
}

static void json_image(struct wr *w, const struct ritem *it)
{
	json_item(w, "image", "file", it->file, "caption", it->text);
}

static void json_cell(struct wr *w, const struct rcell *x)
{
	if (is_num(x))
		put_num(w, x);
	else if (x->s)
		json_str(w, x->s);
	else
		fputs("null", w->f);
}

static void json_table(struct wr *w, const struct ritem *it)
{
	const struct rtable *t = it->t;
	long r;
	int c;

	json_sep(w);
	fputs("{\"type\": \"table\", \"id\": ", w->f);
	json_str(w, t->id);
	fputs(", \"columns\": [", w->f);
	for (c = 0; c < t->ncols; c++) {
		fputs(c ? ", " : "", w->f);
		json_str(w, t->cols[c]);
	}
	fputs("], \"rows\": [", w->f);
	for (r = 0; r < t->nrows; r++) {
		fputs(r ? ",\n  [" : "\n  [", w->f);
		for (c = 0; c < t->ncols; c++) {
			fputs(c ? ", " : "", w->f);
			json_cell(w, &t->cells[r * t->ncols + c]);
		}
		fputs("]", w->f);
	}
	fputs("]}", w->f);
}

/* ---- driving */

struct writer {
	const char *file;
	const char *head, *foot;
	void (*start)(struct wr *, const struct rsection *);
	void (*end)(struct wr *, const struct rsection *);
	void (*item[4])(struct wr *, const struct ritem *);
};

static const struct writer writers[] = {
	{ "index.html", html_head, "</body>\n</html>\n", html_start, html_end,
	  { [I_PARA] = html_para, [I_WARN] = html_para,
	    [I_IMAGE] = html_image, [I_TABLE] = html_table } },
	{ "report.md", "# Datagrind report\n\n", "", md_start, md_end,
	  { [I_PARA] = md_para, [I_WARN] = md_para,
	    [I_IMAGE] = md_image, [I_TABLE] = md_table } },
	{ "report.json", "{\"report\": \"datagrind\", \"version\": 1, "
	  "\"sections\": [", "\n]}\n", json_start, json_end,
	  { [I_PARA] = json_para, [I_WARN] = json_para,
	    [I_IMAGE] = json_image, [I_TABLE] = json_table } },
};

static int write_one(const struct rdoc *d, const struct writer *wt,
		     const char *dir, char **err)
{
	char path[4200];
	struct wr w = { .dir = dir, .first = 1 };
	size_t i, k;
	int fd, bad;

	snprintf(path, sizeof path, "%s/%s", dir, wt->file);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || !(w.f = fdopen(fd, "w"))) {
		*err = sqlite3_mprintf("%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	fputs(wt->head, w.f);
	for (i = 0; i < d->n; i++) {
		wt->start(&w, &d->secs[i]);
		for (k = 0; k < d->secs[i].n; k++)
			wt->item[d->secs[i].items[k].kind](&w,
							   &d->secs[i].items[k]);
		wt->end(&w, &d->secs[i]);
	}
	fputs(wt->foot, w.f);
	bad = ferror(w.f);
	if (fclose(w.f) != 0 || bad) {
		*err = sqlite3_mprintf("%s: write failed", path);
		return -1;
	}
	return 0;
}

int rdoc_write(const struct rdoc *d, const char *dir, char **err)
{
	size_t i;

	for (i = 0; i < sizeof writers / sizeof writers[0]; i++)
		if (write_one(d, &writers[i], dir, err) < 0)
			return -1;
	return 0;
}
