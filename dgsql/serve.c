/* serve.c: dgsql --serve.  See serve.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <microhttpd.h>
#include <pthread.h>
#include <netinet/in.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aside.h"
#include "dgesc.h"
#include "dgfilter.h"
#include "dgplot.h"
#include "dgsqlfn.h"
#include "serve.h"

/* The page's files, compiled in from viewer/ (dgsql.mk makes them). */
extern const unsigned char viewer_index_html[], viewer_viewer_js[], viewer_viewer_css[];
extern const unsigned long viewer_index_html_len, viewer_viewer_js_len, viewer_viewer_css_len;

static const struct asset {
	const char *path, *type;
	const unsigned char *data;
	const unsigned long *len;
} assets[] = {
	{ "/", "text/html; charset=utf-8", viewer_index_html, &viewer_index_html_len },
	{ "/viewer.js", "text/javascript; charset=utf-8", viewer_viewer_js, &viewer_viewer_js_len },
	{ "/viewer.css", "text/css; charset=utf-8", viewer_viewer_css, &viewer_viewer_css_len },
};

#define TOKEN_BYTES 16

struct server {
	struct shell *sh;
	char token[2 * TOKEN_BYTES + 1];
	char *events0, *ranges0;        /* the filter dgsql was started with */
	char *at_sql;                   /* /at's, with or without the fields */
};

static const char *arg(struct MHD_Connection *c, const char *name)
{
	return MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, name);
}

static int same_text(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* The filter a request asks for (events=, ranges=: the page's boxes;
   absent: the one dgsql was started with; empty: none), installed unless
   it is the one in place.  Requests run one at a time, so the shell's
   filtered_accesses is this request's until it is answered.  0, or -1
   with *err (the filter compiler's message: it names the condition). */
static int use_filter(struct server *sv, struct MHD_Connection *c, char **err)
{
	struct shell *sh = sv->sh;
	const char *ev = arg(c, "events"), *rg = arg(c, "ranges");

	ev = ev ? ev : sv->events0;
	rg = rg ? rg : sv->ranges0;
	ev = ev && *ev ? ev : NULL;
	rg = rg && *rg ? rg : NULL;
	if (same_text(ev, sh->events) && same_text(rg, sh->ranges))
		return 0;
	if (sh->ops->set_filter(sh, ev, rg, err) < 0)
		return -1;
	sh->plot.unfiltered = !sh->events && !sh->ranges;
	return 0;
}

static int token_make(char *hex, char **err)
{
	unsigned char b[TOKEN_BYTES];
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC), i;
	ssize_t n = fd >= 0 ? read(fd, b, sizeof b) : -1;

	if (fd >= 0)
		close(fd);
	if (n != (ssize_t)sizeof b) {
		*err = sqlite3_mprintf("--serve: cannot read /dev/urandom for the token");
		return -1;
	}
	for (i = 0; i < TOKEN_BYTES; i++)
		sprintf(hex + 2 * i, "%02x", b[i]);
	return 0;
}

/* Equal, in a time that does not depend on where they differ. */
static int token_ok(const char *want, const char *got)
{
	size_t i, n = strlen(want);
	unsigned char d = 0;

	if (!got || strlen(got) != n)
		return 0;
	for (i = 0; i < n; i++)
		d |= (unsigned char)(want[i] ^ got[i]);
	return d == 0;
}

/* ------------------------------------------------------------ replies */

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status, const char *type,
			     const void *data, size_t len, enum MHD_ResponseMemoryMode mode,
			     const char *cookie)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *)data, mode);
	enum MHD_Result rc;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type", type);
	MHD_add_response_header(r, "Cache-Control", "no-store");
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
	/* the page's own script and style only: no inline code, no other origin */
	MHD_add_response_header(r, "Content-Security-Policy",
				"default-src 'none'; script-src 'self'; style-src 'self'; "
				"connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'");
	if (cookie)
		MHD_add_response_header(r, "Set-Cookie", cookie);
	rc = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return rc;
}

/* A plain-text message (sqlite3_free'd here). */
static enum MHD_Result reply_msg(struct MHD_Connection *c, unsigned status, char *msg)
{
	enum MHD_Result rc;

	if (!msg)
		return MHD_NO;
	rc = reply(c, status, "text/plain; charset=utf-8", msg, strlen(msg), MHD_RESPMEM_MUST_COPY, NULL);
	sqlite3_free(msg);
	return rc;
}

/* A JSON body built in s (finished and freed here). */
static enum MHD_Result reply_json(struct MHD_Connection *c, sqlite3_str *s)
{
	int n = sqlite3_str_length(s);
	char *body = sqlite3_str_finish(s);
	enum MHD_Result rc;

	if (!body)
		return reply_msg(c, 500, sqlite3_mprintf("out of memory\n"));
	rc = reply(c, 200, "application/json", body, (size_t)n, MHD_RESPMEM_MUST_COPY, NULL);
	sqlite3_free(body);
	return rc;
}

/* ------------------------------------------------------------ /grid */

/* The JSON of the grid of view o (sqlite3_free), or NULL with *err. */
static char *grid_json(struct server *sv, const struct dgplot_opts *o, int *len, char **err)
{
	struct dgplot_grid g;
	sqlite3_str *s;
	char *body;
	int i, r, col;

	if (dgplot_grid(sv->sh->db, o, &g, err) < 0)
		return NULL;
	s = sqlite3_str_new(NULL);
	sqlite3_str_appendf(s, "{\"w\":%d,\"h\":%d,\"ylo\":%lld,\"yhi\":%lld,\"from\":\"%s\",\"cols\":[",
			    g.w, g.h, (long long)g.ylo, (long long)g.yhi,
			    g.summary == 1 ? "summary" : g.summary == 2 ? "mixed" : "accesses");
	for (i = 0; i <= g.w; i++)
		sqlite3_str_appendf(s, "%s%lld", i ? "," : "", (long long)g.col_addr[i]);
	sqlite3_str_appendall(s, "],\"cells\":[");
	for (r = 0, i = 0; r < g.h; r++)
		for (col = 0; col < g.w; col++) {
			size_t k = (size_t)r * g.w + col;
			if (!g.reads[k] && !g.writes[k])
				continue;
			sqlite3_str_appendf(s, "%s%d,%d,%u,%u", i++ ? "," : "", col, r,
					    g.reads[k], g.writes[k]);
		}
	sqlite3_str_appendall(s, "]}");
	dgplot_grid_free(&g);
	*len = sqlite3_str_length(s);
	if (!(body = sqlite3_str_finish(s)))
		*err = sqlite3_mprintf("out of memory");
	return body;
}

/* The views answered last, by what defines them: a page's reset, a zoom
   out to where it was, and the first view (made before the URL is
   printed) come back at once.  Bounded by count and by bytes.  A whole-
   trace view (no ranges: the page's home, which its reset returns to)
   goes last: with the least recently used first, a session of 16 zooms
   pushed it out, and each reset binned the whole trace again (~1 s on
   a 1.5 G-access trace). */
#define CACHE_N      16
#define CACHE_BYTES  (64u << 20)

static struct cached {
	char *key, *body;
	int len;
	int home;               /* a whole-trace view */
	uint64_t used;
} cache[CACHE_N];
static uint64_t cache_clock;

/* A view: its size, its ranges and the filter in place (a NUL cannot
   be in either list, so \1 separates them). */
static char *view_key(const struct shell *sh, const struct dgplot_opts *o)
{
	return sqlite3_mprintf("%d %d %d %lld %lld %d %lld %lld\1%s\1%s", o->width, o->height,
			       o->has_addr, (long long)o->addr_lo, (long long)o->addr_hi,
			       o->has_icount, (long long)o->icount_lo, (long long)o->icount_hi,
			       sh->events ? sh->events : "", sh->ranges ? sh->ranges : "");
}

static struct cached *cache_find(const char *key)
{
	int i;

	for (i = 0; i < CACHE_N; i++)
		if (cache[i].key && strcmp(cache[i].key, key) == 0) {
			cache[i].used = ++cache_clock;
			return &cache[i];
		}
	return NULL;
}

/* Which entry goes first: a free one (unless used_only: -1 when there is
   none in use), else a zoomed view before a home view, the least
   recently used first. */
static int cache_victim(int used_only)
{
	int i, v = -1;

	for (i = 0; i < CACHE_N; i++) {
		if (!cache[i].key) {
			if (!used_only)
				return i;
			continue;
		}
		if (v < 0 || cache[i].home < cache[v].home
		    || (cache[i].home == cache[v].home && cache[i].used < cache[v].used))
			v = i;
	}
	return v;
}

static void cache_drop(int i, size_t *bytes)
{
	*bytes -= (size_t)cache[i].len;
	sqlite3_free(cache[i].key);
	sqlite3_free(cache[i].body);
	cache[i].key = NULL;
}

/* Keeps key and body (sqlite3_malloc'd), dropping views (cache_victim)
   while the bytes would pass the bound, and one when no entry is free. */
static void cache_put(char *key, char *body, int len, int home)
{
	size_t bytes = (size_t)len;
	int i;

	for (i = 0; i < CACHE_N; i++)
		bytes += cache[i].key ? (size_t)cache[i].len : 0;
	while (bytes > CACHE_BYTES && (i = cache_victim(1)) >= 0)
		cache_drop(i, &bytes);
	if (bytes > CACHE_BYTES) {      /* a view bigger than the bound itself */
		sqlite3_free(key);
		sqlite3_free(body);
		return;
	}
	i = cache_victim(0);
	if (cache[i].key)
		cache_drop(i, &bytes);
	cache[i] = (struct cached){ key, body, len, home, ++cache_clock };
}

static void cache_free(void)
{
	int i;

	for (i = 0; i < CACHE_N; i++) {
		sqlite3_free(cache[i].key);
		sqlite3_free(cache[i].body);
		cache[i].key = NULL;
	}
}

static enum MHD_Result grid(struct server *sv, struct MHD_Connection *c)
{
	struct dgplot_opts o = sv->sh->plot;
	const struct cached *hit;
	char *err = NULL, *key, *body;
	int len;

	if (dgplot_view(&o, MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "w"),
			MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "h"),
			MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "addr"),
			MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "icount"), &err) < 0) {
		enum MHD_Result rc = reply_msg(c, 400, sqlite3_mprintf("%s\n", err ? err : "bad view"));
		sqlite3_free(err);
		return rc;
	}
	if (!(key = view_key(sv->sh, &o)))
		return reply_msg(c, 500, sqlite3_mprintf("out of memory\n"));
	if ((hit = cache_find(key))) {
		sqlite3_free(key);
		return reply(c, 200, "application/json", hit->body, (size_t)hit->len,
			     MHD_RESPMEM_MUST_COPY, NULL);
	}
	if (!(body = grid_json(sv, &o, &len, &err))) {
		enum MHD_Result rc = reply_msg(c, 500, sqlite3_mprintf("grid: %s\n", err ? err : "failed"));
		sqlite3_free(err);
		sqlite3_free(key);
		return rc;
	}
	enum MHD_Result rc = reply(c, 200, "application/json", body, (size_t)len,
				   MHD_RESPMEM_MUST_COPY, NULL);
	cache_put(key, body, len, !o.has_addr && !o.has_icount);
	return rc;
}

/* ------------------------------------------------------------ /meta */

/* "KEY": after a comma, unless it opens the object: the fields of an
   answer are written one call each, in any order of kinds. */
static void json_key(sqlite3_str *s, const char *key)
{
	int n = sqlite3_str_length(s);
	const char *v = sqlite3_str_value(s);

	sqlite3_str_appendf(s, "%s\"%s\":", n > 0 && v && v[n - 1] != '{' ? "," : "", key);
}

static void json_text(sqlite3_str *s, const char *key, const char *text)
{
	char *e = text ? dgesc_as(DGESC_JSON, text, strlen(text)) : NULL;

	json_key(s, key);
	if (e)
		sqlite3_str_appendf(s, "\"%s\"", e);
	else
		sqlite3_str_appendall(s, "null");
	free(e);
}

static void meta_json(struct server *sv, sqlite3_str *s)
{
	struct shell *sh = sv->sh;
	sqlite3_stmt *st = NULL;
	char *filter = sqlite3_mprintf("%s%s%s%s", sv->events0 ? "--events " : "",
				       sv->events0 ? sv->events0 : "", sv->ranges0 ? " --ranges " : "",
				       sv->ranges0 ? sv->ranges0 : "");

	sqlite3_str_appendall(s, "{");
	if (sqlite3_prepare_v2(sh->db, "SELECT value FROM meta WHERE key = 'exe'", -1, &st,
			       NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		json_text(s, "trace", (const char *)sqlite3_column_text(st, 0));
	else
		json_text(s, "trace", NULL);
	sqlite3_finalize(st);
	json_text(s, "filter", filter && *filter ? filter : NULL);
	sqlite3_free(filter);
	json_text(s, "events", sv->events0);
	json_text(s, "ranges", sv->ranges0);
	sqlite3_str_appendf(s, ",\"accesses\":%lld}",
			    (long long)dgsqlfn_int(sh->db, "SELECT value FROM meta WHERE key = 'accesses'"));
}

static enum MHD_Result meta(struct server *sv, struct MHD_Connection *c)
{
	sqlite3_str *s = sqlite3_str_new(NULL);

	meta_json(sv, s);
	return reply_json(c, s);
}

/* ------------------------------------------------------------ rows as JSON */

/* Writes one row of a statement as a JSON object. */
typedef void row_fn(sqlite3_str *s, sqlite3_stmt *st);

/* A JSON answer: what, the SQL that gives its rows (parameters ?1..
   bound to v[0..n)), the list's name, how a row is written, and what
   follows the list. */
struct rows {
	const char *what, *sql;
	const int64_t *v;
	int n;
	const char *list;
	row_fn *row;
	const char *tail;
};

/* {"LIST":[row, row ...]TAIL} in s; 0, or -1 with *err naming what. */
static int rows_json(sqlite3 *db, const struct rows *q, sqlite3_str *s, char **err)
{
	sqlite3_stmt *st = NULL;
	int i, rc, k = 0;

	if (sqlite3_prepare_v2(db, q->sql, -1, &st, NULL) != SQLITE_OK) {
		*err = sqlite3_mprintf("%s: %s", q->what, sqlite3_errmsg(db));
		return -1;
	}
	for (i = 0; i < q->n; i++)
		sqlite3_bind_int64(st, i + 1, q->v[i]);
	sqlite3_str_appendf(s, "{\"%s\":[", q->list);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		sqlite3_str_appendall(s, k++ ? ",{" : "{");
		q->row(s, st);
		sqlite3_str_appendall(s, "}");
	}
	sqlite3_str_appendf(s, "]%s}", q->tail);
	if (rc != SQLITE_DONE)
		*err = sqlite3_mprintf("%s: %s", q->what, sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* The reply of rows_json; 500 with its message on an SQL error. */
static enum MHD_Result rows_reply(struct server *sv, struct MHD_Connection *c, const struct rows *q)
{
	sqlite3_str *s = sqlite3_str_new(NULL);
	char *err = NULL;

	if (rows_json(sv->sh->db, q, s, &err) < 0) {
		sqlite3_free(sqlite3_str_finish(s));
		return reply_msg(c, 500, sqlite3_mprintf("%s\n", err ? err : "out of memory"));
	}
	return reply_json(c, s);
}

/* A column as a JSON number, or null. */
static void json_int(sqlite3_str *s, const char *key, sqlite3_stmt *st, int col)
{
	json_key(s, key);
	if (sqlite3_column_type(st, col) == SQLITE_INTEGER)
		sqlite3_str_appendf(s, "%lld", (long long)sqlite3_column_int64(st, col));
	else
		sqlite3_str_appendall(s, "null");
}

/* The allocating function of heap block b (blocks b), as SQL. */
#define SITE_SQL "(SELECT sf.name FROM dg_frames(b.alloc_stack_id) fr" \
	" JOIN pcs sp ON sp.pc = fr.pc AND sp.module_id = fr.module_id" \
	" JOIN functions sf ON sf.id = sp.function_id ORDER BY fr.depth LIMIT 1)"

/* ------------------------------------------------------------ /at */

/* What made the accesses of one cell of the picture (the page sends its
   address and instruction-count ranges): the busiest code addresses
   there, each with its function, file:line, reads and writes, heap block
   (size, allocating function) and one call stack.  Only so many
   accesses are looked at, so that a cell of a zoomed-out view answers as
   fast as one of a close-up (the rows say when the scan was cut); at
   most 8 rows. */
#define AT_SCAN "200000"       /* accesses looked at, as SQL text and JSON */

static const char at_sql_fmt[] =
	"WITH a AS (SELECT pc, module_id, is_write, block_id, context_id FROM filtered_accesses"
	"  WHERE addr >= ?1 AND addr < ?2 AND icount >= ?3 AND icount < ?4 LIMIT " AT_SCAN "),"
	" g AS (SELECT pc, module_id, block_id, sum(NOT is_write) AS r, sum(is_write) AS w,"
	"  min(context_id) AS ctx, count(*) AS n FROM a GROUP BY pc, module_id, block_id"
	"  ORDER BY n DESC LIMIT 8)"
	" SELECT f.name, p.file, p.line, g.r, g.w, g.block_id, b.size, " SITE_SQL ","
	"  (SELECT group_concat(coalesce(sf.name, printf('0x%%x', fr.pc)), char(10)) FROM"
	"    (SELECT * FROM dg_frames((SELECT stack_id FROM contexts WHERE id = g.ctx))"
	"     ORDER BY depth) fr LEFT JOIN pcs sp ON sp.pc = fr.pc AND sp.module_id = fr.module_id"
	"    LEFT JOIN functions sf ON sf.id = sp.function_id),"
	"  g.pc, (SELECT count(*) FROM a),"
	"  %s"
	" FROM g LEFT JOIN pcs p ON p.pc = g.pc AND p.module_id = g.module_id"
	" LEFT JOIN functions f ON f.id = p.function_id LEFT JOIN blocks b ON b.id = g.block_id"
	" ORDER BY g.n DESC";

static int range_of(struct MHD_Connection *c, const char *name, int64_t *lo, int64_t *hi)
{
	const char *v = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, name);
	struct dgplot_opts o;
	char *err = NULL;

	dgplot_defaults(&o);
	if (!v || dgplot_set(&o, name[0] == 'a' ? "addr-range" : "icount-range", v, &err) < 0) {
		sqlite3_free(err);
		return -1;
	}
	*lo = name[0] == 'a' ? o.addr_lo : o.icount_lo;
	*hi = name[0] == 'a' ? o.addr_hi : o.icount_hi;
	return 0;
}

static void at_row(sqlite3_str *s, sqlite3_stmt *st)
{
	json_text(s, "function", (const char *)sqlite3_column_text(st, 0));
	json_text(s, "file", (const char *)sqlite3_column_text(st, 1));
	json_int(s, "line", st, 2);
	json_int(s, "reads", st, 3);
	json_int(s, "writes", st, 4);
	json_int(s, "pc", st, 9);
	if (sqlite3_column_type(st, 5) == SQLITE_INTEGER) {
		json_int(s, "block", st, 5);
		json_int(s, "block_size", st, 6);
	}
	json_text(s, "site", (const char *)sqlite3_column_text(st, 7));
	json_text(s, "stack", (const char *)sqlite3_column_text(st, 8));
	json_int(s, "scanned", st, 10);
	json_text(s, "field", (const char *)sqlite3_column_text(st, 11));
}

static enum MHD_Result at(struct server *sv, struct MHD_Connection *c)
{
	int64_t v[4];

	if (range_of(c, "addr", &v[0], &v[1]) < 0 || range_of(c, "icount", &v[2], &v[3]) < 0)
		return reply_msg(c, 400, sqlite3_mprintf("addr and icount: expected LO:HI with LO < HI\n"));
	return rows_reply(sv, c, &(struct rows){ "at", sv->at_sql, v, 4, "rows", at_row,
						 ",\"limit\":" AT_SCAN });
}

/* ------------------------------------------------------------ /events */

/* The user events (DATAGRIND_START/END_EVENT) that overlap an icount
   window (all without one), first to start first, at most 1000: the
   page draws them as bands along the time axis.  An event never ended
   runs to the end of the trace (end null). */
static const char events_sql[] =
	"SELECT label, thread, start_icount, end_icount FROM events"
	" WHERE start_icount < ?2 AND coalesce(end_icount, ?2) >= ?1"
	" ORDER BY start_icount, id LIMIT 1000";

static void event_row(sqlite3_str *s, sqlite3_stmt *st)
{
	json_text(s, "label", (const char *)sqlite3_column_text(st, 0));
	json_int(s, "thread", st, 1);
	json_int(s, "start", st, 2);
	json_int(s, "end", st, 3);
}

static enum MHD_Result events(struct server *sv, struct MHD_Connection *c)
{
	int64_t v[2] = { INT64_MIN, INT64_MAX };

	if (MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "icount") &&
	    range_of(c, "icount", &v[0], &v[1]) < 0)
		return reply_msg(c, 400, sqlite3_mprintf("icount: expected LO:HI with LO < HI\n"));
	return rows_reply(sv, c, &(struct rows){ "events", events_sql, v, 2, "events", event_row, "" });
}

/* ------------------------------------------------------------ /regions */

/* What lies along the address axis of a view: the tracked ranges
   (DATAGRIND_TRACK_RANGE) and the busiest heap blocks (at most 200) that
   overlap it in address and in time, for the page's bands under the
   picture.  Without ranges given, the whole trace. */
static const char regions_sql[] =
	"SELECT 'range', label, type_name, addr, len, start_icount, end_icount, reads + writes"
	" FROM ranges WHERE addr < ?2 AND addr + len > ?1 AND start_icount < ?4"
	"  AND coalesce(end_icount, ?4) >= ?3"
	" UNION ALL SELECT * FROM (SELECT 'block', b.id, " SITE_SQL ","
	"  b.addr, b.size, b.alloc_icount, b.free_icount, b.reads + b.writes"
	" FROM blocks b WHERE b.addr < ?2 AND b.addr + b.size > ?1 AND b.alloc_icount < ?4"
	"  AND coalesce(b.free_icount, ?4) >= ?3 ORDER BY b.reads + b.writes DESC, b.id LIMIT 200)";

static void region_row(sqlite3_str *s, sqlite3_stmt *st)
{
	json_text(s, "kind", sqlite3_column_text(st, 0)[0] == 'r' ? "range" : "block");
	json_text(s, "name", (const char *)sqlite3_column_text(st, 1));
	json_text(s, "what", (const char *)sqlite3_column_text(st, 2));
	json_int(s, "addr", st, 3);
	json_int(s, "size", st, 4);
	json_int(s, "start", st, 5);
	json_int(s, "end", st, 6);
	json_int(s, "accesses", st, 7);
}

static enum MHD_Result regions(struct server *sv, struct MHD_Connection *c)
{
	int64_t v[4] = { INT64_MIN, INT64_MAX, INT64_MIN, INT64_MAX };

	if ((MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "addr") &&
	     range_of(c, "addr", &v[0], &v[1]) < 0) ||
	    (MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "icount") &&
	     range_of(c, "icount", &v[2], &v[3]) < 0))
		return reply_msg(c, 400, sqlite3_mprintf("addr and icount: expected LO:HI with LO < HI\n"));
	return rows_reply(sv, c, &(struct rows){ "regions", regions_sql, v, 4, "regions", region_row, "" });
}

/* ------------------------------------------------------------ /names */

/* Completion for the page's filter boxes: text is the condition being
   typed ("fn:lzma_"), list "events" or "ranges"; the answer is at most
   NAMES_MAX conditions that start with it (case aside), sorted: the
   words a list takes ("fn:", "malloc" ...), or after one that takes a
   value, that word and the names the trace has (lib/dgfilter.h). */
#define NAMES_MAX 50

static int cmp_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void names_add(char **v, int *n, const char *word, size_t wl, const char *name,
		      const char *text)
{
	char *c;

	if (*n >= 4 * NAMES_MAX || !name)
		return;
	c = sqlite3_mprintf("%.*s%s", (int)wl, word, name);
	if (c && strncasecmp(c, text, strlen(text)) == 0)
		v[(*n)++] = c;
	else
		sqlite3_free(c);
}

static enum MHD_Result names(struct server *sv, struct MHD_Connection *c)
{
	const char *text = arg(c, "text"), *list = arg(c, "list"), *sql, *w;
	char *v[4 * NAMES_MAX];
	size_t wl;
	int n = 0, i, k, base;
	sqlite3_stmt *st = NULL;
	sqlite3_str *s;

	if (!text || !list || (strcmp(list, "events") != 0 && strcmp(list, "ranges") != 0))
		return reply_msg(c, 400, sqlite3_mprintf("names: expected text=... and "
							 "list=events or list=ranges\n"));
	if ((sql = dgfilter_names_sql(text, &wl, &base)) &&
	    sqlite3_prepare_v2(sv->sh->db, sql, -1, &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW && n < 4 * NAMES_MAX) {
			const char *name = (const char *)sqlite3_column_text(st, 0), *slash;

			names_add(v, &n, text, wl, name, text);
			if (base && name && (slash = strrchr(name, '/')))
				names_add(v, &n, text, wl, slash + 1, text);
		}
	}
	sqlite3_finalize(st);
	for (i = 0; !sql && (w = dgfilter_word((size_t)i, list[0] == 'e')); i++)
		names_add(v, &n, "", 0, w, text);
	qsort(v, (size_t)n, sizeof *v, cmp_text);
	s = sqlite3_str_new(NULL);
	sqlite3_str_appendall(s, "{\"names\":[");
	for (i = 0, k = 0; i < n; i++) {
		if (k < NAMES_MAX && (i == 0 || strcmp(v[i], v[i - 1]) != 0)) {
			char *e = dgesc_as(DGESC_JSON, v[i], strlen(v[i]));

			if (e)
				sqlite3_str_appendf(s, "%s\"%s\"", k++ ? "," : "", e);
			free(e);
		}
		sqlite3_free(v[i]);
	}
	sqlite3_str_appendf(s, "],\"more\":%s}", n > k ? "true" : "false");
	return reply_json(c, s);
}

/* ------------------------------------------------------------ /top */

/* The functions and heap blocks that made the most accesses of a view
   (addr=, icount=: absent, the whole trace), under the filter: the side
   panel.  The whole trace unfiltered is counted exactly from the
   summaries (sum_pc, blocks); any other view from its accesses, at most
   TOP_SCAN of them, first in time ("scanned" says how many were, "exact"
   whether that was all of them). */
#define TOP_SCAN "250000"     /* 0.16 s on xz's trace through the row loop */
#define TOP_N    "10"

static const char top_scan_sql[] =
	"WITH a AS MATERIALIZED (SELECT pc, module_id, is_write, block_id FROM filtered_accesses"
	"  WHERE addr >= ?1 AND addr < ?2 AND icount >= ?3 AND icount < ?4 LIMIT " TOP_SCAN "),"
	" bypc AS (SELECT pc, module_id, sum(NOT is_write) AS r, sum(is_write) AS w FROM a"
	"  GROUP BY pc, module_id),"
	" byblock AS (SELECT block_id, sum(NOT is_write) AS r, sum(is_write) AS w FROM a"
	"  WHERE block_id IS NOT NULL GROUP BY block_id)"
	" SELECT * FROM (SELECT 'fn', f.name, NULL, NULL, sum(g.r), sum(g.w) FROM bypc g"
	"  LEFT JOIN pcs p ON p.pc = g.pc AND p.module_id = g.module_id"
	"  LEFT JOIN functions f ON f.id = p.function_id GROUP BY p.function_id"
	"  ORDER BY sum(g.r + g.w) DESC LIMIT " TOP_N ")"
	" UNION ALL SELECT * FROM (SELECT 'block', k.block_id, b.size, " SITE_SQL ", k.r, k.w FROM byblock k"
	"  JOIN blocks b ON b.id = k.block_id ORDER BY k.r + k.w DESC, k.block_id LIMIT " TOP_N ")"
	" UNION ALL SELECT 'scanned', NULL, NULL, NULL, (SELECT count(*) FROM a), " TOP_SCAN;

static const char top_sum_sql[] =
	"SELECT * FROM (SELECT 'fn', f.name, NULL, NULL, sum(accesses) FILTER (WHERE NOT s.is_write),"
	"  sum(accesses) FILTER (WHERE s.is_write) FROM sum_pc s"
	"  LEFT JOIN pcs p ON p.pc = s.pc AND p.module_id = s.module_id"
	"  LEFT JOIN functions f ON f.id = p.function_id GROUP BY p.function_id"
	"  ORDER BY sum(accesses) DESC LIMIT " TOP_N ")"
	" UNION ALL SELECT * FROM (SELECT 'block', b.id, b.size, " SITE_SQL ", b.reads, b.writes FROM blocks b"
	"  ORDER BY b.reads + b.writes DESC, b.id LIMIT " TOP_N ")";

static void top_row(sqlite3_str *s, sqlite3_stmt *st)
{
	const char *kind = (const char *)sqlite3_column_text(st, 0);

	json_text(s, "kind", kind[0] == 'f' ? "fn" : kind[0] == 'b' ? "block" : "scanned");
	json_text(s, "name", (const char *)sqlite3_column_text(st, 1));
	json_int(s, "size", st, 2);
	json_text(s, "site", (const char *)sqlite3_column_text(st, 3));
	json_int(s, "reads", st, 4);
	json_int(s, "writes", st, 5);
}

/* The whole view unfiltered from the summaries, else scanned. */
static struct rows top_rows(const struct server *sv, int whole, const int64_t *v)
{
	whole = whole && sv->sh->plot.unfiltered;
	return (struct rows){ "top", whole ? top_sum_sql : top_scan_sql, v, whole ? 0 : 4,
			      "top", top_row, whole ? ",\"exact\":true" : "" };
}

static enum MHD_Result top(struct server *sv, struct MHD_Connection *c)
{
	int64_t v[4] = { INT64_MIN, INT64_MAX, INT64_MIN, INT64_MAX };
	struct rows q = top_rows(sv, !arg(c, "addr") && !arg(c, "icount"), v);

	if ((arg(c, "addr") && range_of(c, "addr", &v[0], &v[1]) < 0) ||
	    (arg(c, "icount") && range_of(c, "icount", &v[2], &v[3]) < 0))
		return reply_msg(c, 400, sqlite3_mprintf("addr and icount: expected LO:HI with LO < HI\n"));
	return rows_reply(sv, c, &q);
}

/* ------------------------------------------------------------ requests */

/* The answers to requests, by path; filtered: the request may carry its
   filter (events=, ranges=), installed before it is answered. */
static const struct route {
	const char *path;
	enum MHD_Result (*fn)(struct server *sv, struct MHD_Connection *c);
	int filtered;
} routes[] = {
	{ "/grid", grid, 1 },
	{ "/at", at, 1 },
	{ "/top", top, 1 },
	{ "/meta", meta, 0 },
	{ "/events", events, 0 },
	{ "/regions", regions, 0 },
	{ "/names", names, 0 },
};


static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *upload,
			      size_t *upload_size, void **state)
{
	struct server *sv = cls;
	const char *q = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "token");
	char cookie[128];
	size_t i;

	(void)version;
	(void)upload;
	if (!*state) {          /* the headers: answer when the request is whole */
		*state = sv;
		return MHD_YES;
	}
	if (*upload_size)
		return reply_msg(c, 400, sqlite3_mprintf("no request body is expected\n"));
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return reply_msg(c, 405, sqlite3_mprintf("only GET and HEAD\n"));
	if (!token_ok(sv->token, q) &&
	    !token_ok(sv->token, MHD_lookup_connection_value(c, MHD_COOKIE_KIND, "dgtoken")))
		return reply_msg(c, 403, sqlite3_mprintf("forbidden: open the URL dgsql printed "
							 "(it carries the session's token)\n"));
	for (i = 0; i < sizeof routes / sizeof *routes; i++)
		if (strcmp(url, routes[i].path) == 0) {
			char *err = NULL;

			if (routes[i].filtered && use_filter(sv, c, &err) < 0) {
				enum MHD_Result rc = reply_msg(c, 400, sqlite3_mprintf("filter: %s\n",
						err ? err : "cannot install it"));
				sqlite3_free(err);
				return rc;
			}
			return routes[i].fn(sv, c);
		}
	if (strcmp(url, "/favicon.ico") == 0)   /* none: say so without an error */
		return reply(c, 204, "image/x-icon", "", 0, MHD_RESPMEM_PERSISTENT, NULL);
	snprintf(cookie, sizeof cookie, "dgtoken=%s; Path=/; HttpOnly; SameSite=Strict", sv->token);
	for (i = 0; i < sizeof assets / sizeof *assets; i++)
		if (strcmp(url, assets[i].path) == 0)
			return reply(c, 200, assets[i].type, assets[i].data, *assets[i].len,
				     MHD_RESPMEM_PERSISTENT, i == 0 && token_ok(sv->token, q) ? cookie : NULL);
	return reply_msg(c, 404, sqlite3_mprintf("not found\n"));
}

/* The page's first view (its canvas, the whole trace), made before the
   URL is printed, so that the first load does not wait for it. */
#define PAGE_W  900
#define PAGE_H  600

static void warm(struct server *sv)
{
	struct dgplot_opts o = sv->sh->plot;
	char *err = NULL, *key, *body;
	int len;

	o.width = PAGE_W;
	o.height = PAGE_H;
	if (!(key = view_key(sv->sh, &o)))
		return;
	if ((body = grid_json(sv, &o, &len, &err)))
		cache_put(key, body, len, !o.has_addr && !o.has_icount);
	else
		sqlite3_free(key);
	sqlite3_free(err);
}

/* What the server and the snapshot need of the session: the filter it
   was started with, /at's SQL; the plot options made a view's. */
static int server_init(struct server *sv, struct shell *sh, char **err)
{
	sv->sh = sh;
	/* the struct field of the instruction (pc_types), on a trace that has them */
	sv->at_sql = sqlite3_mprintf(at_sql_fmt, dgsqlfn_int(sh->db, "SELECT count(*) FROM sqlite_schema"
		" WHERE name = 'pc_types'") == 1 ? "(SELECT t.type || CASE WHEN t.field IS NULL"
		" THEN ' (padding)' WHEN t.field = '' THEN '' ELSE '.' || t.field END"
		" FROM pc_types t WHERE t.pc = g.pc AND t.module_id = g.module_id)" : "NULL");
	sv->events0 = sh->events ? sqlite3_mprintf("%s", sh->events) : NULL;
	sv->ranges0 = sh->ranges ? sqlite3_mprintf("%s", sh->ranges) : NULL;
	if (!sv->at_sql || (sh->events && !sv->events0) || (sh->ranges && !sv->ranges0)) {
		*err = sqlite3_mprintf("out of memory");
		return -1;
	}
	/* every view is the shell's plot options zoomed: no file, the filter's */
	sh->plot.out = sh->plot.data_out = sh->plot.title = NULL;
	sh->plot.unfiltered = !sh->events && !sh->ranges;
	sh->plot.has_addr = sh->plot.has_icount = 0;
	return 0;
}

static void server_free(struct server *sv)
{
	cache_free();
	sqlite3_free(sv->at_sql);
	sqlite3_free(sv->events0);
	sqlite3_free(sv->ranges0);
}

/* ------------------------------------------------------------ --snapshot */

/* Writes len bytes of data to DIR/name, 0600; 0, or -1 with *err. */
static int write_in(const char *dir, const char *name, const void *data, size_t len, char **err)
{
	char *path = sqlite3_mprintf("%s/%s", dir, name);
	int fd = path ? open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600) : -1;
	int ok = fd >= 0 && write(fd, data, len) == (ssize_t)len;

	if (fd >= 0 && close(fd) < 0)
		ok = 0;
	if (!ok)
		*err = sqlite3_mprintf("--snapshot: cannot write '%s': %s", path ? path : name,
				       strerror(errno));
	sqlite3_free(path);
	return ok ? 0 : -1;
}

/* snapshot.js: the answers the page would fetch for the whole trace, as
   one object the page reads instead (viewer.js: window.DG_SNAPSHOT). */
static char *snapshot_js(struct server *sv, int w, int h, char **err)
{
	static const int64_t all[4] = { INT64_MIN, INT64_MAX, INT64_MIN, INT64_MAX };
	struct dgplot_opts o = sv->sh->plot;
	sqlite3_str *s = sqlite3_str_new(NULL);
	struct rows top = top_rows(sv, 1, all);
	char *grid;
	int len;

	o.width = w;
	o.height = h;
	if (!(grid = grid_json(sv, &o, &len, err))) {
		sqlite3_free(sqlite3_str_finish(s));
		return NULL;
	}
	sqlite3_str_appendall(s, "/* dgsql --snapshot: the trace's whole view for viewer.js */\n"
			      "window.DG_SNAPSHOT = {\"meta\":");
	meta_json(sv, s);
	sqlite3_str_appendf(s, ",\n\"grid\":%s,\n\"events\":", grid);
	sqlite3_free(grid);
	if (rows_json(sv->sh->db, &(struct rows){ "events", events_sql, all + 2, 2, "events",
						  event_row, "" }, s, err) < 0 ||
	    (sqlite3_str_appendall(s, ",\n\"regions\":"),
	     rows_json(sv->sh->db, &(struct rows){ "regions", regions_sql, all, 4, "regions",
						   region_row, "" }, s, err) < 0) ||
	    (sqlite3_str_appendall(s, ",\n\"top\":"), rows_json(sv->sh->db, &top, s, err) < 0)) {
		sqlite3_free(sqlite3_str_finish(s));
		return NULL;
	}
	sqlite3_str_appendall(s, "};\n");
	return sqlite3_str_finish(s);
}

/* The page reads snapshot.js first: a script element before viewer.js. */
static char *snapshot_index(void)
{
	static const char at[] = "<script src=\"viewer.js\"";
	const char *page = (const char *)viewer_index_html;
	const char *p = strstr(page, at);

	if (!p || (unsigned long)(p - page) > viewer_index_html_len)
		return NULL;
	return sqlite3_mprintf("%.*s<script src=\"snapshot.js\"></script>\n%s", (int)(p - page), page, p);
}

int serve_snapshot(struct shell *sh, const char *dir, int w, int h, char **err)
{
	struct server sv = { 0 };
	char *tmp = sqlite3_mprintf("%s.tmp-XXXXXX", dir), *js = NULL, *index = NULL;
	int rc = -1;

	if (!tmp || server_init(&sv, sh, err) < 0)
		goto out;
	if (!mkdtemp(tmp)) {
		*err = sqlite3_mprintf("--snapshot: cannot make '%s': %s", tmp, strerror(errno));
		goto out;
	}
	if (!(js = snapshot_js(&sv, w, h, err)))
		goto fail;
	if (!(index = snapshot_index())) {
		*err = sqlite3_mprintf("--snapshot: out of memory");
		goto fail;
	}
	if (write_in(tmp, "index.html", index, strlen(index), err) < 0 ||
	    write_in(tmp, "viewer.js", viewer_viewer_js, viewer_viewer_js_len, err) < 0 ||
	    write_in(tmp, "viewer.css", viewer_viewer_css, viewer_viewer_css_len, err) < 0 ||
	    write_in(tmp, "snapshot.js", js, strlen(js), err) < 0 ||
	    aside_swap_in(tmp, dir, "--snapshot", err) < 0)
		goto fail;
	rc = 0;
	goto out;
fail:
	aside_remove(tmp);
out:
	sqlite3_free(js);
	sqlite3_free(index);
	sqlite3_free(tmp);
	server_free(&sv);
	return rc;
}

int serve_run(struct shell *sh, int port, char **err)
{
	struct server sv = { 0 };
	struct sockaddr_in sin;
	struct MHD_Daemon *d;
	const union MHD_DaemonInfo *info;
	sigset_t set, old;
	int sig = 0, rc = -1;

	if (server_init(&sv, sh, err) < 0 || token_make(sv.token, err) < 0)
		goto out;
	warm(&sv);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	/* the server's thread must not take the signals the wait below takes */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL, (uint16_t)port,
			     NULL, NULL, handle, &sv,
			     MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sin,
			     MHD_OPTION_CONNECTION_LIMIT, (unsigned)2048,
			     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30,
			     MHD_OPTION_LISTENING_ADDRESS_REUSE, (unsigned)0,
			     MHD_OPTION_END);
	if (!d) {
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		*err = sqlite3_mprintf("--serve: cannot listen on 127.0.0.1:%d%s", port,
				       port ? " (in use?)" : "");
		goto out;
	}
	info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	printf("http://127.0.0.1:%u/?token=%s\n", info ? info->port : (unsigned)port, sv.token);
	fflush(stdout);
	if (isatty(2))
		fprintf(stderr, "dgsql: serving the viewer; Ctrl-C stops\n");
	while (sigwait(&set, &sig) != 0)
		;
	/* a view still being made (a wide window decoded) stops now, rather
	   than holding the stop up until it is done */
	sqlite3_interrupt(sh->db);
	MHD_stop_daemon(d);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	rc = 0;
out:
	server_free(&sv);
	return rc;
}
