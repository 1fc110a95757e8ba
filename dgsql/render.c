/* render.c: output modes (see render.h).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "render.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dgesc.h"

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

/* The text of column i, all of its bytes (an embedded NUL included, *len
   its length); blobs as x'..' (caller frees with free()). */
static char *cell_bytes(sqlite3_stmt *st, int i, size_t *len)
{
	int t = sqlite3_column_type(st, i);
	const unsigned char *v;
	char *s;

	*len = 0;
	if (t == SQLITE_NULL)
		return strdup("");
	if (t == SQLITE_BLOB) {
		const unsigned char *b = sqlite3_column_blob(st, i);
		int n = sqlite3_column_bytes(st, i), k;
		char *hex = malloc(2 * (size_t)n + 4);

		if (!hex)
			return NULL;
		hex[0] = 'x';
		hex[1] = '\'';
		for (k = 0; k < n; k++)
			sprintf(hex + 2 + 2 * k, "%02x", b[k]);
		strcpy(hex + 2 + 2 * n, "'");
		*len = 2 * (size_t)n + 3;
		return hex;
	}
	v = sqlite3_column_text(st, i);
	*len = (size_t)sqlite3_column_bytes(st, i);
	s = malloc(*len + 1);
	if (s && v) {
		memcpy(s, v, *len);
		s[*len] = 0;
	}
	return s;
}

/* For the modes read on a terminal (list, table, column, line, tsv):
   the value with controls and invalid UTF-8 escaped (dgesc.h), so that
   a label from the trace cannot drive the terminal or break the layout. */
static char *cell_text(sqlite3_stmt *st, int i)
{
	size_t n;
	char *raw = cell_bytes(st, i, &n), *e;

	if (!raw)
		return NULL;
	e = dgesc_text(raw, n, 0);
	free(raw);
	return e;
}

/* A column name, escaped the same way (names are SQL text: `AS` aliases,
   expressions quoting trace data). */
static char *name_text(sqlite3_stmt *st, int i)
{
	const char *s = sqlite3_column_name(st, i);

	return s ? dgesc_text(s, strlen(s), 0) : strdup("");
}

/* Terminal columns of an escaped (valid UTF-8) string: its characters. */
static int text_width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void put_padded(FILE *out, const char *s, int w, int right)
{
	int pad = w - text_width(s);

	if (right)
		fprintf(out, "%*s", pad > 0 ? pad : 0, "");
	fputs(s, out);
	if (!right)
		fprintf(out, "%*s", pad > 0 ? pad : 0, "");
}

static int is_number(sqlite3_stmt *st, int i)
{
	int t = sqlite3_column_type(st, i);

	return t == SQLITE_INTEGER || t == SQLITE_FLOAT;
}

/* ---------------------------------------------------------- row buffer */

/* The streaming modes build each row in one buffer and write it with one
   fwrite: an export of a billion accesses spends its time in SQLite, not
   in a stdio call per field.  Integers, most of every export, are
   formatted here without going through text. */
struct obuf {
	char *p;
	size_t n, cap;
	int oom;
};

static inline int ob_room(struct obuf *b, size_t more)
{
	size_t cap;
	char *p;

	if (b->n + more <= b->cap)
		return 1;
	cap = b->cap ? b->cap : 4096;
	while (cap < b->n + more)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		b->oom = 1;
		return 0;
	}
	b->p = p;
	b->cap = cap;
	return 1;
}

static inline void ob_put(struct obuf *b, const void *s, size_t n)
{
	if (n && ob_room(b, n)) {      /* n 0: the buffer may not exist yet */
		memcpy(b->p + b->n, s, n);
		b->n += n;
	}
}

static inline void ob_putc(struct obuf *b, char c)
{
	if (ob_room(b, 1))
		b->p[b->n++] = c;
}

static void ob_puts(struct obuf *b, const char *s)
{
	ob_put(b, s, strlen(s));
}

/* How many decimal digits u has: from its bit length (log10(2) is about
   1233/4096), corrected by one compare, instead of a loop per digit. */
static inline size_t digits(uint64_t u)
{
	static const uint64_t pow10[20] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
		10000000ull, 100000000ull, 1000000000ull, 10000000000ull,
		100000000000ull, 1000000000000ull, 10000000000000ull,
		100000000000000ull, 1000000000000000ull, 10000000000000000ull,
		100000000000000000ull, 1000000000000000000ull,
		10000000000000000000ull
	};
	unsigned g = (unsigned)(64 - __builtin_clzll(u | 1)) * 1233 >> 12;

	return g + (u >= pow10[g]) + !u;   /* 0 has one digit */
}

/* Decimal digits of v, as SQLite prints an INTEGER; written in place,
   two digits a step. */
static void ob_int(struct obuf *b, sqlite3_int64 v)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324252627282930"
		"31323334353637383940414243444546474849505152535455565758596061"
		"6263646566676869707172737475767778798081828384858687888990919293"
		"949596979899";
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	size_t len = (v < 0) + digits(u);
	char *q;

	if (!ob_room(b, len))
		return;
	if (v < 0)
		b->p[b->n] = '-';
	q = b->p + b->n + len;
	b->n += len;
	while (u >= 100) {
		unsigned d = (unsigned)(u % 100) * 2;

		u /= 100;
		*--q = pairs[d + 1];
		*--q = pairs[d];
	}
	if (u >= 10) {
		*--q = pairs[u * 2 + 1];
		*--q = pairs[u * 2];
	} else
		*--q = (char)('0' + u);
}

static void ob_flush(struct obuf *b, FILE *out)
{
	if (b->n)               /* b->p is NULL before the first byte */
		fwrite(b->p, 1, b->n, out);
	b->n = 0;
}

/* CSV keeps every byte of the data (RFC 4180): a field holding a comma,
   a quote, CR or LF, or starting or ending with a blank, is quoted. */
static void put_csv(struct obuf *b, const char *s, size_t n)
{
	size_t i;

	if (n && !memchr(s, ',', n) && !memchr(s, '"', n) && !memchr(s, '\r', n)
	    && !memchr(s, '\n', n) && s[0] != ' ' && s[n - 1] != ' ') {
		ob_put(b, s, n);
		return;
	}
	ob_putc(b, '"');
	for (i = 0; i < n; i++) {
		if (s[i] == '"')
			ob_putc(b, '"');
		ob_putc(b, s[i]);
	}
	ob_putc(b, '"');
}

/* JSON keeps the data too (dgesc.h's DGESC_JSON flavour). */
static void put_json_string(struct obuf *b, const char *str, size_t n)
{
	char *e = dgesc_as(DGESC_JSON, str, n);

	ob_putc(b, '"');
	ob_puts(b, e ? e : "");
	ob_putc(b, '"');
	free(e);
}

/* ---------------------------------------------------------- streaming */

/* A column name in a header row of mode m (not json): csv keeps its
   bytes, the others escape it as name_text does. */
static void put_name(struct obuf *b, const char *name, enum render_mode m)
{
	char *e;

	name = name ? name : "";
	if (m == RENDER_CSV) {
		put_csv(b, name, strlen(name));
		return;
	}
	e = dgesc_text(name, strlen(name), 0);
	ob_puts(b, e ? e : "");
	free(e);
}

/* Column i of the current row, or its name, in mode m (not json). */
static void put_field(struct obuf *b, sqlite3_stmt *st, int i,
		      enum render_mode m, int names)
{
	size_t len = 0;
	char *s;

	/* one sqlite3_column_* call for the common case: each costs more
	   than the formatting */
	sqlite3_value *v = names ? NULL : sqlite3_column_value(st, i);

	if (v && sqlite3_value_type(v) == SQLITE_INTEGER) {
		ob_int(b, sqlite3_value_int64(v));
		return;
	}
	if (v && sqlite3_value_type(v) == SQLITE_NULL) {
		if (m == RENDER_CSV)
			ob_puts(b, "\"\"");   /* as an empty text, since 0.1 */
		return;
	}
	if (names) {
		put_name(b, sqlite3_column_name(st, i), m);
		return;
	}
	if (m == RENDER_CSV) {
		s = cell_bytes(st, i, &len);
		put_csv(b, s ? s : "", s ? len : 0);
	} else {
		s = cell_text(st, i);
		ob_puts(b, s ? s : "");
	}
	free(s);
}

static void row_separated(struct obuf *b, sqlite3_stmt *st,
			  enum render_mode m, int names)
{
	int i, n = sqlite3_column_count(st);
	char sep = m == RENDER_LIST ? '|' : m == RENDER_CSV ? ',' : '\t';

	for (i = 0; i < n; i++) {
		if (i)
			ob_putc(b, sep);
		put_field(b, st, i, m, names);
	}
	ob_putc(b, '\n');
}

static void put_json_value(struct obuf *b, sqlite3_stmt *st, int i)
{
	sqlite3_value *v = sqlite3_column_value(st, i);
	size_t n;
	char *s;

	switch (sqlite3_value_type(v)) {
	case SQLITE_NULL:
		ob_puts(b, "null");
		return;
	case SQLITE_INTEGER:
		ob_int(b, sqlite3_value_int64(v));
		return;
	case SQLITE_FLOAT:
		ob_puts(b, (const char *)sqlite3_column_text(st, i));
		return;
	default:
		s = cell_bytes(st, i, &n);
		put_json_string(b, s ? s : "", s ? n : 0);
		free(s);
	}
}

/* A JSON key, "name": (NULL when out of memory). */
static char *json_key(const char *name)
{
	struct obuf b = { 0 };

	name = name ? name : "";
	put_json_string(&b, name, strlen(name));
	ob_putc(&b, ':');
	ob_putc(&b, 0);
	if (b.oom)
		free(b.p);
	return b.oom ? NULL : b.p;
}

/* The JSON keys of st (made once per statement). */
static char **json_keys(sqlite3_stmt *st)
{
	int i, n = sqlite3_column_count(st);
	char **k = calloc((size_t)n + 1, sizeof *k);

	for (i = 0; k && i < n; i++)
		k[i] = json_key(sqlite3_column_name(st, i));
	return k;
}

static void row_json(struct obuf *b, sqlite3_stmt *st, char **keys,
		     long row)
{
	int i, n = sqlite3_column_count(st);

	ob_puts(b, row == 0 ? "[{" : ",\n{");
	for (i = 0; i < n; i++) {
		if (i)
			ob_putc(b, ',');
		ob_puts(b, keys && keys[i] ? keys[i] : "\"\":");
		put_json_value(b, st, i);
	}
	ob_putc(b, '}');
}

static void row_line(FILE *out, sqlite3_stmt *st, long row)
{
	int i, n = sqlite3_column_count(st), w = 0;

	for (i = 0; i < n; i++) {
		char *name = name_text(st, i);
		int l = name ? text_width(name) : 0;

		if (l > w)
			w = l;
		free(name);
	}
	if (row)
		fputc('\n', out);
	for (i = 0; i < n; i++) {
		char *name = name_text(st, i), *s = cell_text(st, i);

		put_padded(out, name ? name : "", w, 1);
		fprintf(out, " = %s\n", s ? s : "");
		free(name);
		free(s);
	}
}

static void free_keys(char **keys)
{
	char **k;

	for (k = keys; k && *k; k++)
		free(*k);
	free(keys);
}

/* Rows are gathered into b and written once it holds 64 KiB. */
static int stream(sqlite3_stmt *st, enum render_mode m, int headers,
		  FILE *out, long *nrows)
{
	struct obuf b = { 0 };
	char **keys = m == RENDER_JSON ? json_keys(st) : NULL;
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (m == RENDER_JSON)
			row_json(&b, st, keys, *nrows);
		else if (m == RENDER_LINE)
			row_line(out, st, *nrows);
		else {
			if (*nrows == 0 && headers)
				row_separated(&b, st, m, 1);
			row_separated(&b, st, m, 0);
		}
		++*nrows;
		if (b.n >= 65536)
			ob_flush(&b, out);
		if (b.oom) {
			rc = SQLITE_NOMEM;
			break;
		}
	}
	if (m == RENDER_JSON && *nrows)
		ob_puts(&b, "]\n");
	ob_flush(&b, out);
	free(b.p);
	free_keys(keys);
	return rc;
}

/* ---------------------------------------------------------- integers */

/* Keys this long or shorter are copied as one fixed-size move. */
#define KEY_PAD 16

struct render_ints {
	enum render_mode m;
	int headers, ncol;
	FILE *out;
	const char *const *names;
	char **keys;            /* json: ",\"name\":" (the first without the
				   comma), each padded to KEY_PAD bytes */
	size_t *key_len;
	struct obuf b;
	long nrows;
};

/* json_key of name, after a comma unless first, in at least KEY_PAD
   bytes (zeros after it); *len its length. */
static char *row_key(const char *name, int comma, size_t *len)
{
	char *k = json_key(name), *p;

	if (!k)
		return NULL;
	*len = strlen(k) + (comma != 0);
	p = calloc(*len > KEY_PAD ? *len + 1 : KEY_PAD, 1);
	if (p) {
		p[0] = ',';
		memcpy(p + (comma != 0), k, *len - (comma != 0));
	}
	free(k);
	return p;
}

/* A key of at most KEY_PAD bytes in one fixed-size copy (keys are padded
   to it), longer ones as they are. */
static inline void ob_key(struct obuf *b, const char *k, size_t n)
{
	if (n > KEY_PAD) {
		ob_put(b, k, n);
	} else if (ob_room(b, KEY_PAD)) {
		memcpy(b->p + b->n, k, KEY_PAD);
		b->n += n;
	}
}

int render_ints_mode(enum render_mode m)
{
	return m == RENDER_LIST || m == RENDER_CSV || m == RENDER_TSV
	       || m == RENDER_JSON;
}

struct render_ints *render_ints_begin(enum render_mode m, int headers, FILE *out,
				      const char *const *names, int ncol)
{
	struct render_ints *r = calloc(1, sizeof *r);
	int i;

	if (!r)
		return NULL;
	*r = (struct render_ints){ .m = m, .headers = headers, .ncol = ncol,
				   .out = out, .names = names };
	if (m == RENDER_JSON) {
		r->keys = calloc((size_t)ncol + 1, sizeof *r->keys);
		r->key_len = calloc((size_t)ncol + 1, sizeof *r->key_len);
		for (i = 0; r->keys && r->key_len && i < ncol; i++)
			if (!(r->keys[i] = row_key(names[i], i > 0, &r->key_len[i])))
				r->b.oom = 1;
		r->b.oom |= !r->keys || !r->key_len;
	}
	return r;
}

/* One separated row: names, or the values (NULL where null[i]), as
   row_separated and put_field print them. */
static void ints_separated(struct render_ints *r, const int64_t *v,
			   const unsigned char *null)
{
	char sep = r->m == RENDER_LIST ? '|' : r->m == RENDER_CSV ? ',' : '\t';
	int i;

	for (i = 0; i < r->ncol; i++) {
		if (i)
			ob_putc(&r->b, sep);
		if (!v)
			put_name(&r->b, r->names[i], r->m);
		else if (!null[i])
			ob_int(&r->b, v[i]);
		else if (r->m == RENDER_CSV)
			ob_puts(&r->b, "\"\"");
	}
	ob_putc(&r->b, '\n');
}

static void ints_json(struct render_ints *r, const int64_t *v,
		      const unsigned char *null)
{
	int i;

	ob_puts(&r->b, r->nrows == 0 ? "[{" : ",\n{");
	for (i = 0; i < r->ncol; i++) {
		ob_key(&r->b, r->keys[i], r->key_len[i]);
		if (null[i])
			ob_puts(&r->b, "null");
		else
			ob_int(&r->b, v[i]);
	}
	ob_putc(&r->b, '}');
}

int render_ints_row(struct render_ints *r, const int64_t *v,
		    const unsigned char *null)
{
	if (r->b.oom)
		return -1;
	if (r->m == RENDER_JSON)
		ints_json(r, v, null);
	else {
		if (r->nrows == 0 && r->headers)
			ints_separated(r, NULL, NULL);
		ints_separated(r, v, null);
	}
	r->nrows++;
	if (r->b.n >= 65536)
		ob_flush(&r->b, r->out);
	return r->b.oom ? -1 : 0;
}

int render_ints_end(struct render_ints *r, long *nrows)
{
	int rc;

	if (!r)
		return -1;
	if (r->m == RENDER_JSON && r->nrows)
		ob_puts(&r->b, "]\n");
	rc = r->b.oom ? -1 : 0;
	ob_flush(&r->b, r->out);
	*nrows = r->nrows;
	free(r->b.p);
	free_keys(r->keys);
	free(r->key_len);
	free(r);
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
		char *s = names ? name_text(st, i) : cell_text(st, i);
		int l;

		g->cell[k] = s ? s : strdup("");
		g->num[k] = !names && is_number(st, i);
		l = g->cell[k] ? text_width(g->cell[k]) : 0;
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
			put_padded(out, g->cell[k], w, 1);
		else if (boxed || i + 1 < g->ncol)
			put_padded(out, g->cell[k], w, 0);
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
