/* fold.c: call stacks folded by function name (see fold.h).
 *
 * On a call tree the names of a node's frames are those of its parent's
 * and one more (or more, for a pc with pcs rows in several modules), so
 * every node gets a "name path": an id in a trie of (parent path, name)
 * pairs, interned.  Nodes are read in id order, parents first, so each
 * node's path is its parent's plus its own names: a lookup per node.  A
 * stack's line is its leaf's path; stacks whose leaves share a path share
 * a line.  Only then are the lines' frames spelled out, once per line.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "fold.h"

#include <stdlib.h>
#include <string.h>

#include "dghash.h"
#include "dgmem.h"
#include "dgsqlfn.h"
#include "dgstacks.h"

/* db's error, or without db running out of memory. */
static int fail(sqlite3 *db, char **err)
{
	*err = sqlite3_mprintf("flame graph: %s", db ? sqlite3_errmsg(db)
						      : "out of memory");
	return -1;
}

static struct fold_line *line_new(struct fold *f)
{
	struct fold_line *l;

	if (dg_grow(&f->v, &f->cap, f->n + 1, sizeof *f->v) < 0)
		return NULL;
	l = &f->v[f->n++];
	memset(l, 0, sizeof *l);
	return l;
}

/* s becomes the fold's to free (frames point into its strings). */
static int own(struct fold *f, char *s)
{
	if (!s || dg_grow((void **)&f->strs, &f->cap_strs, f->n_strs + 1, sizeof *f->strs) < 0) {
		free(s);
		return -1;
	}
	f->strs[f->n_strs++] = s;
	return 0;
}

void fold_free(struct fold *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->v[i].frames);
	for (i = 0; i < f->n_strs; i++)
		free(f->strs[i]);
	free(f->v);
	free(f->strs);
	memset(f, 0, sizeof *f);
}

/* ---------------------------------------------------------- in SQL */

static const char folded_sql[] =
	"WITH c AS (%s), "
	"fr AS (SELECT s.stack_id, coalesce(f.name, dg_hex(sf.pc)) AS name "
	"  FROM (SELECT DISTINCT stack_id FROM c) s, dg_frames(s.stack_id) sf "
	"  LEFT JOIN pcs p ON p.pc = sf.pc "
	"  LEFT JOIN functions f ON f.id = p.function_id "
	"  ORDER BY s.stack_id, sf.depth DESC), "
	"st AS (SELECT stack_id, group_concat(replace(name, ';', ':'), ';') "
	"  AS stack FROM fr GROUP BY stack_id) "
	"SELECT st.stack, sum(c.accesses), sum(c.bytes) FROM c "
	"JOIN st USING (stack_id) GROUP BY st.stack";

/* The line's frames: a copy of s, cut at each ';'. */
static int split(struct fold *f, struct fold_line *l, const char *s)
{
	char *c = strdup(s), *p;
	int n = 1;

	if (own(f, c) < 0)
		return -1;
	for (p = c; *p; p++)
		n += *p == ';';
	if (!(l->frames = calloc((size_t)n, sizeof *l->frames)))
		return -1;
	for (p = c; l->n < n; p += strlen(p) + 1) {
		l->frames[l->n++] = p;
		p[strcspn(p, ";")] = '\0';
	}
	return 0;
}

static int fold_sql(sqlite3 *db, const char *stacks_sql, struct fold *f,
		    char **err)
{
	char *sql = sqlite3_mprintf(folded_sql, stacks_sql);
	sqlite3_stmt *st;
	int rc;

	if (!sql)
		return fail(NULL, err);
	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return fail(db, err);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *s = (const char *)sqlite3_column_text(st, 0);
		struct fold_line *l = line_new(f);

		if (!l)
			break;
		l->acc = sqlite3_column_int64(st, 1);
		l->bytes = sqlite3_column_int64(st, 2);
		if (split(f, l, s ? s : "?") < 0)
			break;
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return 0;
	return rc == SQLITE_ROW ? fail(NULL, err)
				: fail(db, err);
}

/* ---------------------------------------------------------- the tree */

struct tree {
	sqlite3 *db;
	char **err;
	char **name;            /* interned names */
	size_t n_name, cap_name;
	struct dghash name_at;  /* hash of a name (+k) -> index */
	struct pcnames { uint32_t first, n; } *pcs;   /* each distinct pc's */
	size_t n_pcs, cap_pcs;
	struct dghash pc_at;    /* pc -> index in pcs */
	uint32_t *pcn;          /* the pcs' names, back to back */
	size_t n_pcn, cap_pcn;
	struct ppath { uint32_t parent, name; } *path;  /* by path id - 1 */
	size_t n_path, cap_path;
	struct dghash path_at;  /* parent path << 32 | name -> path id */
	uint32_t *node_path;    /* by callsites.id (0: not read) */
	uint32_t *node_depth;
	struct dghash line_at;  /* path id -> index in the fold's lines */
};

/* Not the tree dg-import writes: the caller folds in SQL instead. */
#define NOT_TREE 1

static uint64_t text_key(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

static int name_of(struct tree *t, const char *s, uint32_t *id)
{
	uint64_t key;
	int added;
	long i;

	if (dg_grow(&t->name, &t->cap_name, t->n_name + 1, sizeof *t->name) < 0)
		return -1;
	for (key = text_key(s);; key++) {
		if ((i = dghash_put(&t->name_at, key, (uint32_t)t->n_name, &added)) < 0)
			return -1;
		if (added || strcmp(t->name[t->name_at.vals[i]], s) == 0)
			break;
	}
	if (added && !(t->name[t->n_name++] = strdup(s)))
		return -1;
	*id = t->name_at.vals[i];
	return 0;
}

static int path_of(struct tree *t, uint32_t parent, uint32_t name, uint32_t *id)
{
	int added;
	long i;

	if (t->n_path >= UINT32_MAX - 1
	    || dg_grow(&t->path, &t->cap_path, t->n_path + 1, sizeof *t->path) < 0
	    || (i = dghash_put(&t->path_at, (uint64_t)parent << 32 | name,
			       (uint32_t)t->n_path + 1, &added)) < 0)
		return -1;
	if (added)
		t->path[t->n_path++] = (struct ppath){ parent, name };
	*id = t->path_at.vals[i];
	return 0;
}

/* The names of every pc of the tree, as the SQL names frames.  A pc's
   rows come together (the outer loop is over pcs). */
static int load_names(struct tree *t)
{
	sqlite3_stmt *st;
	int rc, added;
	int64_t last = 0;
	uint32_t name;
	long i;

	if (sqlite3_prepare_v2(t->db, "SELECT c.pc, replace(coalesce(f.name, "
		"dg_hex(c.pc)), ';', ':') FROM (SELECT DISTINCT pc FROM "
		"callsites) c LEFT JOIN pcs p ON p.pc = c.pc LEFT JOIN "
		"functions f ON f.id = p.function_id", -1, &st, NULL) != SQLITE_OK)
		return fail(t->db, t->err);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t pc = sqlite3_column_int64(st, 0);
		const char *s = (const char *)sqlite3_column_text(st, 1);

		if (!s || name_of(t, s, &name) < 0
		    || dg_grow(&t->pcn, &t->cap_pcn, t->n_pcn + 1, sizeof *t->pcn) < 0
		    || dg_grow(&t->pcs, &t->cap_pcs, t->n_pcs + 1, sizeof *t->pcs) < 0)
			break;
		if (!t->n_pcs || pc != last) {
			if ((i = dghash_put(&t->pc_at, (uint64_t)pc, (uint32_t)t->n_pcs,
					    &added)) < 0)
				break;
			if (!added) {   /* not together after all */
				sqlite3_finalize(st);
				return NOT_TREE;
			}
			t->pcs[t->n_pcs++] = (struct pcnames){ (uint32_t)t->n_pcn, 0 };
			last = pc;
		}
		t->pcn[t->n_pcn++] = name;
		t->pcs[t->n_pcs - 1].n++;
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return 0;
	return rc == SQLITE_ROW ? fail(NULL, t->err)
				: fail(t->db, t->err);
}

/* Every node's path, in id order: a root's its own names, another's its
   parent's and its own.  NOT_TREE unless ids run 1..n, each node comes
   after its parent and is one deeper. */
static int load_nodes(struct tree *t, int64_t n)
{
	sqlite3_stmt *st;
	int rc, bad = 0;

	t->node_path = calloc((size_t)n + 1, sizeof *t->node_path);
	t->node_depth = calloc((size_t)n + 1, sizeof *t->node_depth);
	if (!t->node_path || !t->node_depth)
		return fail(NULL, t->err);
	if (sqlite3_prepare_v2(t->db, "SELECT id, parent_id, depth, pc FROM "
			       "callsites ORDER BY id", -1, &st, NULL) != SQLITE_OK)
		return fail(t->db, t->err);
	while (!bad && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		int64_t parent = sqlite3_column_int64(st, 1);
		int64_t depth = sqlite3_column_int64(st, 2);
		uint32_t path = 0, k;
		long pi = dghash_slot(&t->pc_at, (uint64_t)sqlite3_column_int64(st, 3));
		const struct pcnames *pn = pi < 0 ? NULL : &t->pcs[t->pc_at.vals[pi]];

		if (sqlite3_column_type(st, 1) == SQLITE_NULL)
			bad = depth != 0;
		else if (sqlite3_column_type(st, 1) != SQLITE_INTEGER
			 || parent < 1 || parent >= id)
			bad = 1;
		else {
			bad = depth != (int64_t)t->node_depth[parent] + 1;
			path = t->node_path[parent];
		}
		bad |= id < 1 || id > n || !pn
		       || sqlite3_column_type(st, 2) != SQLITE_INTEGER
		       || depth >= UINT32_MAX;
		for (k = 0; !bad && k < pn->n; k++)
			if (path_of(t, path, t->pcn[pn->first + k], &path) < 0) {
				sqlite3_finalize(st);
				return fail(NULL, t->err);
			}
		if (!bad) {
			t->node_path[id] = path;
			t->node_depth[id] = (uint32_t)depth;
		}
	}
	sqlite3_finalize(st);
	if (bad)
		return NOT_TREE;
	return rc == SQLITE_DONE ? 0 : fail(t->db, t->err);
}

/* A stack's weight added to the line of its leaf's path: 0, -1 (out of
   memory) or NOT_TREE (a leaf out of the tree). */
static int add_leaf(struct tree *t, struct fold *f, int64_t leaf, int64_t n,
		    int64_t acc, int64_t bytes)
{
	struct fold_line *l;
	int added;
	long i;

	if (leaf < 1 || leaf > n)
		return NOT_TREE;
	if ((i = dghash_put(&t->line_at, t->node_path[leaf], (uint32_t)f->n,
			    &added)) < 0 || (added && !line_new(f)))
		return fail(NULL, t->err);
	l = &f->v[t->line_at.vals[i]];
	l->acc += acc;
	l->bytes += bytes;
	return 0;
}

/* ---------------------------------------------------------- summed weights */

/* Every context's accesses from the summaries, by stack id (fold_load's
   `summed`): sum_ctx's runs times the accesses and bytes of the context's
   bbdef, less sum_ctx_miss's, each a sequential pass in C.  SQLite joining
   every context with its descriptors took 6 s at 4 M contexts. */
struct sums {
	int64_t *acc, *bytes;   /* by stacks.id */
	int64_t n;              /* the largest stack id */
	int64_t *bb_n, *bb_size;   /* by bbdef id: its accesses, their bytes */
	int64_t n_bb;
};

/* An id beyond what dg-import writes for `count` rows: the SQL then. */
static int sparse(int64_t max, int64_t count)
{
	return max < 0 || max > 4 * count + 65536 || max >= INT32_MAX;
}

/* For each row of sql, adds sign * column 1 times (1, column 2) to the
   accesses and bytes of the stack of column 0; with `by_bbdef`, times
   (the count, the size) of the bbdef of column 2 instead. */
static int sums_add(struct tree *t, struct sums *w, const char *sql, int by_bbdef, int sign)
{
	sqlite3_stmt *st;
	int rc, bad = 0;

	if (sqlite3_prepare_v2(t->db, sql, -1, &st, NULL) != SQLITE_OK)
		return fail(t->db, t->err);
	while (!bad && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t stack = sqlite3_column_int64(st, 0), k = sqlite3_column_int64(st, 1);
		int64_t a, b;

		if (by_bbdef) {
			int64_t bb = sqlite3_column_int64(st, 2);
			if (bb < 0 || bb > w->n_bb)
				continue;       /* no descriptors: no accesses */
			a = w->bb_n[bb], b = w->bb_size[bb];
		} else
			a = 1, b = sqlite3_column_int64(st, 2);
		/* out of range or overflowing: the SQL, which says so */
		if (stack < 1 || stack > w->n || __builtin_mul_overflow(k, sign, &k)
		    || __builtin_mul_overflow(k, a, &a) || __builtin_mul_overflow(k, b, &b)
		    || __builtin_add_overflow(w->acc[stack], a, &w->acc[stack])
		    || __builtin_add_overflow(w->bytes[stack], b, &w->bytes[stack])) {
			bad = 1;
			break;
		}
	}
	sqlite3_finalize(st);
	if (bad)
		return NOT_TREE;
	return rc == SQLITE_DONE ? 0 : fail(t->db, t->err);
}

static int load_sums(struct tree *t, struct sums *w)
{
	int64_t stacks = dgsqlfn_int(t->db, "SELECT count(*) FROM stacks");
	int64_t bbs = dgsqlfn_int(t->db, "SELECT count(DISTINCT bbdef_id) FROM access_descs");
	sqlite3_stmt *st;
	int rc;

	w->n = dgsqlfn_int(t->db, "SELECT coalesce(max(id), 0) FROM stacks");
	w->n_bb = dgsqlfn_int(t->db, "SELECT coalesce(max(bbdef_id), 0) FROM access_descs");
	if (sparse(w->n, stacks) || sparse(w->n_bb, bbs))
		return NOT_TREE;
	w->acc = calloc((size_t)w->n + 1, sizeof *w->acc);
	w->bytes = calloc((size_t)w->n + 1, sizeof *w->bytes);
	w->bb_n = calloc((size_t)w->n_bb + 1, sizeof *w->bb_n);
	w->bb_size = calloc((size_t)w->n_bb + 1, sizeof *w->bb_size);
	if (!w->acc || !w->bytes || !w->bb_n || !w->bb_size)
		return fail(NULL, t->err);
	if (sqlite3_prepare_v2(t->db, "SELECT bbdef_id, count(*), sum(size) FROM "
			       "access_descs GROUP BY bbdef_id", -1, &st, NULL) != SQLITE_OK)
		return fail(t->db, t->err);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t bb = sqlite3_column_int64(st, 0);
		if (bb < 0 || bb > w->n_bb)
			break;
		w->bb_n[bb] = sqlite3_column_int64(st, 1);
		w->bb_size[bb] = sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return NOT_TREE;
	if (rc != SQLITE_DONE)
		return fail(t->db, t->err);
	if ((rc = sums_add(t, w, "SELECT c.stack_id, s.runs, c.bbdef_id FROM sum_ctx s "
			   "JOIN contexts c ON c.id = s.context_id", 1, 1)) != 0)
		return rc;
	return sums_add(t, w, "SELECT c.stack_id, m.missed, d.size FROM sum_ctx_miss m "
			"JOIN contexts c ON c.id = m.context_id JOIN access_descs d "
			"ON d.bbdef_id = c.bbdef_id AND d.aseq = m.aseq", 0, -1);
}

/* The summed weights, by their leaves' paths into lines: a stack with
   accesses, as the SQL keeps contexts with accesses. */
static int load_summed(struct tree *t, int64_t n, struct fold *f)
{
	struct sums w = { 0 };
	sqlite3_stmt *st = NULL;
	int rc = load_sums(t, &w), step = SQLITE_DONE;

	if (rc == 0 && sqlite3_prepare_v2(t->db, "SELECT id, callsite_id FROM stacks",
					  -1, &st, NULL) != SQLITE_OK)
		rc = fail(t->db, t->err);
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);

		if (id < 1 || id > w.n)
			rc = NOT_TREE;
		else if (w.acc[id] > 0 && sqlite3_column_type(st, 1) != SQLITE_NULL)
			rc = add_leaf(t, f, sqlite3_column_int64(st, 1), n, w.acc[id],
				      w.bytes[id]);
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = fail(t->db, t->err);
	sqlite3_finalize(st);
	free(w.acc);
	free(w.bytes);
	free(w.bb_n);
	free(w.bb_size);
	return rc;
}

/* The stacks' weights, summed by their leaves' paths into lines. */
static int load_weights(struct tree *t, const char *stacks_sql, int64_t n,
			struct fold *f)
{
	char *sql = sqlite3_mprintf("SELECT s.callsite_id, w.accesses, w.bytes "
		"FROM (%s) w JOIN stacks s ON s.id = w.stack_id", stacks_sql);
	sqlite3_stmt *st;
	int rc, bad = 0;

	if (!sql)
		return fail(NULL, t->err);
	rc = sqlite3_prepare_v2(t->db, sql, -1, &st, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return fail(t->db, t->err);
	while (!bad && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int r;

		if (sqlite3_column_type(st, 0) == SQLITE_NULL)
			continue;       /* no frames */
		if (sqlite3_column_type(st, 0) != SQLITE_INTEGER) {
			bad = 1;
			break;
		}
		r = add_leaf(t, f, sqlite3_column_int64(st, 0), n,
			     sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2));
		if (r < 0) {
			sqlite3_finalize(st);
			return -1;
		}
		bad = r == NOT_TREE;
	}
	sqlite3_finalize(st);
	if (bad)
		return NOT_TREE;
	return rc == SQLITE_DONE ? 0 : fail(t->db, t->err);
}

/* Each line's frames, from its path (the line_at key) up to the root. */
static int spell(struct tree *t, struct fold *f)
{
	size_t s;

	for (s = 0; s < t->line_at.cap; s++) {
		struct fold_line *l;
		uint32_t p, n = 0;

		if (!t->line_at.used[s])
			continue;
		l = &f->v[t->line_at.vals[s]];
		for (p = (uint32_t)t->line_at.keys[s]; p; p = t->path[p - 1].parent)
			n++;
		if (!(l->frames = calloc(n, sizeof *l->frames)))
			return -1;
		l->n = (int)n;
		for (p = (uint32_t)t->line_at.keys[s]; p; p = t->path[p - 1].parent)
			l->frames[--n] = t->name[t->path[p - 1].name];
	}
	return 0;
}

/* 0, -1, or NOT_TREE (f then left empty). */
static int fold_tree(sqlite3 *db, const char *stacks_sql, int summed,
		     struct fold *f, char **err)
{
	struct tree t = { .db = db, .err = err };
	sqlite3_stmt *st;
	int64_t n = -1, lo = 0, hi = 0;
	size_t i;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT count(*), min(id), max(id) FROM "
			       "callsites", -1, &st, NULL) != SQLITE_OK)
		return fail(db, err);
	if (sqlite3_step(st) == SQLITE_ROW) {
		n = sqlite3_column_int64(st, 0);
		lo = sqlite3_column_int64(st, 1);
		hi = sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	if (n < 0 || n >= UINT32_MAX || (n && (lo != 1 || hi != n)))
		return NOT_TREE;
	if (dghash_init(&t.name_at, 1024) < 0 || dghash_init(&t.pc_at, 1024) < 0
	    || dghash_init(&t.path_at, 1024) < 0 || dghash_init(&t.line_at, 1024) < 0)
		rc = fail(NULL, err);
	else if ((rc = load_names(&t)) == 0 && (rc = load_nodes(&t, n)) == 0
		 && (rc = summed ? load_summed(&t, n, f)
			    : load_weights(&t, stacks_sql, n, f)) == 0
		 && spell(&t, f) < 0)
		rc = fail(NULL, err);
	if (rc == NOT_TREE)
		fold_free(f);
	/* the lines' frames point at the names: the fold owns them now */
	for (i = 0; i < t.n_name; i++) {
		if (rc == NOT_TREE)
			free(t.name[i]);
		else if (own(f, t.name[i]) < 0 && rc == 0)
			rc = fail(NULL, err);
	}
	free(t.name);
	free(t.pcs);
	free(t.pcn);
	free(t.path);
	free(t.node_path);
	free(t.node_depth);
	dghash_free(&t.name_at);
	dghash_free(&t.pc_at);
	dghash_free(&t.path_at);
	dghash_free(&t.line_at);
	return rc;
}

int fold_load(sqlite3 *db, const char *stacks_sql, int summed, struct fold *f,
	      char **err)
{
	int rc = dgstacks_is_tree(db) ? fold_tree(db, stacks_sql, summed, f, err) : NOT_TREE;

	return rc == NOT_TREE ? fold_sql(db, stacks_sql, f, err) : rc;
}
