/* dgstacks.c: the call stacks of a trace database.  See dgstacks.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "dgstacks.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dgmem.h"

int dgstacks_is_tree(sqlite3 *db)
{
	sqlite3_stmt *st;
	int tree = 0;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM main.sqlite_schema WHERE "
			       "type = 'table' AND name = 'callsites'", -1, &st,
			       NULL) != SQLITE_OK)
		return 0;
	tree = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return tree;
}

/* ------------------------------------------------- stacks with a frame */

/* The call tree in id order, as the walk below needs it: the ids apart,
   to search them. */
struct node {
	int64_t parent, depth;
	unsigned flag;          /* F_HIT | F_BELOW | F_DONE | F_ROOT */
};

struct tree {
	int64_t *id;
	struct node *node;
	size_t n, cap_id, cap_node;
};

/* F_HIT: the node's (pc, module_id) is in the set; F_BELOW: a node above
   it is; F_DONE: F_BELOW is known; F_ROOT: no parent to walk to (NULL, or
   a parent or depth that is not an integer); F_NODEPTH: its depth is not
   an integer, so no child walks to it (SQL ranks text above integers). */
enum { F_HIT = 1, F_BELOW = 2, F_DONE = 4, F_ROOT = 8, F_NODEPTH = 16 };

static int tree_push(struct tree *t, int64_t id, int64_t parent,
		     int64_t depth, unsigned flag)
{
	if (dg_grow(&t->id, &t->cap_id, t->n + 1, sizeof *t->id) < 0 ||
	    dg_grow(&t->node, &t->cap_node, t->n + 1, sizeof *t->node) < 0)
		return -1;
	t->id[t->n] = id;
	t->node[t->n].parent = parent;
	t->node[t->n].depth = depth;
	t->node[t->n].flag = flag;
	t->n++;
	return 0;
}

static void tree_free(struct tree *t)
{
	free(t->id);
	free(t->node);
}

/* The index of node `id`, or -1.  Ids ascend; usually they are dense. */
static int64_t tree_find(const struct tree *t, int64_t id)
{
	size_t k;

	if (t->n && id >= t->id[0] && (uint64_t)id - (uint64_t)t->id[0] < t->n &&
	    t->id[id - t->id[0]] == id)
		return id - t->id[0];
	k = dg_lower_bound(t->id, t->n, id);
	return k < t->n && t->id[k] == id ? (int64_t)k : -1;
}

/* The index of node i's parent if the view would walk to it (a parent
   above its child), else -1. */
static int64_t tree_up(const struct tree *t, size_t i)
{
	int64_t p = t->node[i].flag & F_ROOT ? -1 :
		tree_find(t, t->node[i].parent);

	return p >= 0 && !(t->node[p].flag & F_NODEPTH) &&
		t->node[p].depth < t->node[i].depth ? p : -1;
}

/* Sets F_BELOW on every node with a proper ancestor marked F_HIT: in id
   order a parent (usually below its child in id) is done first; where it
   is not, the chain up to a done node is walked and done from the top.
   Depth falls strictly up a chain, so every walk ends. */
static int tree_mark(struct tree *t)
{
	size_t *chain = NULL, nchain, cap = 0, i;

	for (i = 0; i < t->n; i++) {
		size_t k = i;
		int64_t p;

		nchain = 0;
		while (!(t->node[k].flag & F_DONE)) {
			if (dg_grow(&chain, &cap, nchain + 1, sizeof *chain) < 0) {
				free(chain);
				return -1;
			}
			chain[nchain++] = k;
			p = tree_up(t, k);
			if (p < 0)
				break;
			k = (size_t)p;
		}
		while (nchain--) {
			struct node *c = &t->node[chain[nchain]];

			p = tree_up(t, chain[nchain]);
			if (p >= 0 && (t->node[p].flag & (F_HIT | F_BELOW)))
				c->flag |= F_BELOW;
			c->flag |= F_DONE;
		}
	}
	free(chain);
	return 0;
}

static int tree_fail(sqlite3 *db, struct tree *t, sqlite3_stmt *st, char **err)
{
	*err = sqlite3_mprintf("stacks: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	tree_free(t);
	return -1;
}

static int tree_oom(struct tree *t, sqlite3_stmt *st, char **err)
{
	*err = sqlite3_mprintf("out of memory");
	sqlite3_finalize(st);
	tree_free(t);
	return -1;
}

/* The set of code addresses, (pc, module_id) pairs sorted. */
struct pcset {
	int64_t *v;             /* pc, module_id, pc, module_id ... */
	size_t n, cap;
};

static int pcset_has(const struct pcset *s, int64_t pc, int64_t module)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const int64_t *e = s->v + 2 * mid;

		if (e[0] < pc || (e[0] == pc && e[1] < module))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->n && s->v[2 * lo] == pc && s->v[2 * lo + 1] == module;
}

/* Reads table `pcs` in key order, each pair once. */
static int pcset_load(sqlite3 *db, const char *pcs, struct pcset *s,
		      char **err)
{
	/* integers only: SQL sorts text after them, and no integer pc
	   equals a text one (in a damaged table) */
	char *sql = sqlite3_mprintf("SELECT DISTINCT pc, module_id FROM %s "
				    "WHERE typeof(pc) = 'integer' AND "
				    "typeof(module_id) = 'integer' "
				    "ORDER BY pc, module_id", pcs);
	sqlite3_stmt *st = NULL;
	int rc;

	memset(s, 0, sizeof *s);
	rc = sql ? sqlite3_prepare_v2(db, sql, -1, &st, NULL) : SQLITE_NOMEM;
	sqlite3_free(sql);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (dg_grow(&s->v, &s->cap, 2 * s->n + 2, sizeof *s->v) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		s->v[2 * s->n] = sqlite3_column_int64(st, 0);
		s->v[2 * s->n + 1] = sqlite3_column_int64(st, 1);
		s->n++;
		rc = SQLITE_OK;
	}
	if (rc != SQLITE_DONE) {
		*err = rc == SQLITE_NOMEM ? sqlite3_mprintf("out of memory") :
			sqlite3_mprintf("stacks: %s", sqlite3_errmsg(db));
		free(s->v);
		s->v = NULL;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Reads the tree with each node's match against the set. */
static int tree_load(sqlite3 *db, const struct pcset *set, struct tree *t,
		     char **err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	/* A value that is not an integer (a damaged table) matches nothing
	   and links nothing, as SQL's comparisons with integers have it for
	   NULL and text (a real depth, which SQL would compare as a number,
	   ends the walk here too); a node without an integer id cannot be
	   named at all. */
	if (sqlite3_prepare_v2(db, "SELECT id, parent_id, depth, pc, module_id "
			       "FROM callsites WHERE typeof(id) = 'integer' "
			       "ORDER BY id", -1, &st, NULL) != SQLITE_OK)
		return tree_fail(db, t, st, err);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int linked = sqlite3_column_type(st, 1) == SQLITE_INTEGER &&
			sqlite3_column_type(st, 2) == SQLITE_INTEGER;
		int coded = sqlite3_column_type(st, 3) == SQLITE_INTEGER &&
			sqlite3_column_type(st, 4) == SQLITE_INTEGER;
		unsigned flag = (linked ? 0 : F_ROOT) |
			(sqlite3_column_type(st, 2) == SQLITE_INTEGER ? 0 : F_NODEPTH) |
			(coded && pcset_has(set, sqlite3_column_int64(st, 3),
					    sqlite3_column_int64(st, 4)) ? F_HIT : 0);

		if (tree_push(t, sqlite3_column_int64(st, 0),
			      sqlite3_column_int64(st, 1),
			      sqlite3_column_int64(st, 2), flag) < 0)
			return tree_oom(t, st, err);
	}
	if (rc != SQLITE_DONE)
		return tree_fail(db, t, st, err);
	sqlite3_finalize(st);
	return 0;
}

/* temp.`table`(id) := the stacks whose leaf has a node of the set at its
   depth or above (min_depth 0), or strictly above (1).  Frees the tree. */
static int tree_fill(sqlite3 *db, struct tree *t, int min_depth,
		     const char *table, char **err)
{
	unsigned want = min_depth ? F_BELOW : F_HIT | F_BELOW;
	char *make = sqlite3_mprintf("CREATE TEMP TABLE %s(id INTEGER PRIMARY "
				     "KEY)", table);
	/* OR IGNORE: a damaged stacks table may repeat an id */
	char *sql = sqlite3_mprintf("INSERT OR IGNORE INTO temp.%s VALUES "
				    "(?1)", table);
	sqlite3_stmt *st = NULL, *ins = NULL;
	int rc = make && sql ? sqlite3_exec(db, make, NULL, NULL, NULL) :
		SQLITE_NOMEM;

	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db, sql, -1, &ins, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db, "SELECT id, callsite_id FROM stacks "
					"ORDER BY id", -1, &st, NULL);
	sqlite3_free(make);
	sqlite3_free(sql);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t k = sqlite3_column_type(st, 1) != SQLITE_INTEGER ? -1 :
			tree_find(t, sqlite3_column_int64(st, 1));

		rc = SQLITE_OK;
		if (k < 0 || !(t->node[k].flag & want))
			continue;
		sqlite3_bind_int64(ins, 1, sqlite3_column_int64(st, 0));
		if ((rc = sqlite3_step(ins)) == SQLITE_DONE)
			rc = sqlite3_reset(ins);
	}
	sqlite3_finalize(ins);
	if (rc != SQLITE_DONE)
		return tree_fail(db, t, st, err);
	sqlite3_finalize(st);
	tree_free(t);
	return 0;
}

/* temp.`table`(id) := the stacks of a tree with a frame of `pcs` at
   min_depth or deeper.  The whole tree is read in id order and marked in
   one pass: the recursive SQL that did it visited a node once for every
   matching node above it, so the whole tree many times over when a filter
   matches most frames (dso:lib*). */
static int tree_stacks(sqlite3 *db, const char *pcs, int min_depth,
		       const char *table, char **err)
{
	struct pcset set;
	struct tree t;
	int rc;

	memset(&t, 0, sizeof t);
	if (pcset_load(db, pcs, &set, err) < 0)
		return -1;
	rc = tree_load(db, &set, &t, err);
	free(set.v);
	if (rc < 0)
		return -1;
	if (tree_mark(&t) < 0)
		return tree_oom(&t, NULL, err);
	return tree_fill(db, &t, min_depth, table, err);
}

char *dgstacks_with_frame_sql(sqlite3 *db, const char *pcs, int min_depth,
			      const char *table, char **err)
{
	char *sql;

	if (!dgstacks_is_tree(db))
		sql = sqlite3_mprintf("SELECT stack_id FROM stack_frames WHERE "
			"depth >= %d AND (pc, module_id) IN (SELECT pc, module_id "
			"FROM %s)", min_depth, pcs);
	else if (tree_stacks(db, pcs, min_depth, table, err) < 0)
		return NULL;
	else
		sql = sqlite3_mprintf("SELECT id FROM temp.%s", table);
	if (!sql)
		*err = sqlite3_mprintf("out of memory");
	return sql;
}
/* ---------------------------------------------------------- dg_frames */

enum { F_DEPTH, F_PC, F_MODULE, F_STACK };

struct fvt {
	sqlite3_vtab base;
	sqlite3 *db;
	int tree;               /* -1: not known yet */
	sqlite3_stmt *leaf;     /* tree: the stack's leaf */
	sqlite3_stmt *up;       /* tree: a node, if above its child */
	sqlite3_stmt *rows;     /* schema 9 and older: stack_frames' rows */
};

struct fcur {
	sqlite3_vtab_cursor base;
	sqlite3_int64 stack;
	sqlite3_int64 *v;       /* depth, pc, module_id a frame */
	int n, cap, k;
};

static int f_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
		     sqlite3_vtab **vt, char **err)
{
	struct fvt *t;
	int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(depth, pc, "
				      "module_id, stack_id HIDDEN)");

	(void)aux;
	(void)argc;
	(void)argv;
	(void)err;
	if (rc != SQLITE_OK)
		return rc;
	t = sqlite3_malloc(sizeof *t);
	if (!t)
		return SQLITE_NOMEM;
	memset(t, 0, sizeof *t);
	t->db = db;
	t->tree = -1;
	*vt = &t->base;
	return SQLITE_OK;
}

static int f_disconnect(sqlite3_vtab *vt)
{
	struct fvt *t = (struct fvt *)vt;

	sqlite3_finalize(t->leaf);
	sqlite3_finalize(t->up);
	sqlite3_finalize(t->rows);
	sqlite3_free(t);
	return SQLITE_OK;
}

/* stack_id must be given, as an equality; rows come in depth order. */
static int f_best_index(sqlite3_vtab *vt, sqlite3_index_info *ii)
{
	int i, have = 0;

	for (i = 0; i < ii->nConstraint; i++) {
		const struct sqlite3_index_constraint *c = &ii->aConstraint[i];

		if (c->iColumn != F_STACK || c->op != SQLITE_INDEX_CONSTRAINT_EQ)
			continue;
		if (!c->usable)
			return SQLITE_CONSTRAINT;
		ii->aConstraintUsage[i].argvIndex = 1;
		ii->aConstraintUsage[i].omit = 1;
		have = 1;
	}
	if (!have) {
		sqlite3_free(vt->zErrMsg);
		vt->zErrMsg = sqlite3_mprintf("dg_frames: usage: dg_frames(stack_id)");
		return SQLITE_ERROR;
	}
	if (ii->nOrderBy == 1 && ii->aOrderBy[0].iColumn == F_DEPTH
	    && !ii->aOrderBy[0].desc)
		ii->orderByConsumed = 1;
	ii->estimatedCost = 20;
	ii->estimatedRows = 20;
	return SQLITE_OK;
}

static int f_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **cur)
{
	struct fcur *c = sqlite3_malloc(sizeof *c);

	(void)vt;
	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof *c);
	*cur = &c->base;
	return SQLITE_OK;
}

static int f_close(sqlite3_vtab_cursor *cur)
{
	struct fcur *c = (struct fcur *)cur;

	sqlite3_free(c->v);
	sqlite3_free(c);
	return SQLITE_OK;
}

static int f_push(struct fcur *c, sqlite3_int64 depth, sqlite3_int64 pc,
		  sqlite3_int64 module)
{
	if (c->n == c->cap) {
		int cap = c->cap ? 2 * c->cap : 32;
		sqlite3_int64 *v = sqlite3_realloc64(c->v, 3 * sizeof *v * (sqlite3_uint64)cap);

		if (!v)
			return SQLITE_NOMEM;
		c->v = v;
		c->cap = cap;
	}
	c->v[3 * c->n] = depth;
	c->v[3 * c->n + 1] = pc;
	c->v[3 * c->n + 2] = module;
	c->n++;
	return SQLITE_OK;
}

static int f_prepare(struct fvt *t, sqlite3_stmt **st, const char *sql)
{
	if (*st)
		return SQLITE_OK;
	if (sqlite3_prepare_v3(t->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st,
			       NULL) == SQLITE_OK)
		return SQLITE_OK;
	sqlite3_free(t->base.zErrMsg);
	t->base.zErrMsg = sqlite3_mprintf("dg_frames: %s", sqlite3_errmsg(t->db));
	return SQLITE_ERROR;
}

/* Schema 10: the leaf, then each parent whose depth is below its child's
   (?3 for the leaf: no child). */
static int f_walk(struct fvt *t, struct fcur *c)
{
	sqlite3_int64 node;
	int rc, k;

	if ((rc = f_prepare(t, &t->leaf, "SELECT callsite_id FROM main.stacks "
			    "WHERE id = ?1")) != SQLITE_OK
	    || (rc = f_prepare(t, &t->up, "SELECT parent_id, pc, module_id, "
				"depth FROM main.callsites WHERE id = ?1 AND "
				"(?3 OR depth < ?2)")) != SQLITE_OK)
		return rc;
	sqlite3_bind_int64(t->leaf, 1, c->stack);
	rc = sqlite3_step(t->leaf);
	if (rc != SQLITE_ROW || sqlite3_column_type(t->leaf, 0) == SQLITE_NULL) {
		sqlite3_reset(t->leaf);
		return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
	}
	node = sqlite3_column_int64(t->leaf, 0);
	sqlite3_reset(t->leaf);
	sqlite3_bind_int(t->up, 3, 1);
	for (k = 0;; k++) {
		sqlite3_value *depth;
		int root;

		sqlite3_bind_int64(t->up, 1, node);
		if ((rc = sqlite3_step(t->up)) != SQLITE_ROW)
			break;
		if ((rc = f_push(c, k, sqlite3_column_int64(t->up, 1),
				 sqlite3_column_int64(t->up, 2))) != SQLITE_OK)
			break;
		root = sqlite3_column_type(t->up, 0) == SQLITE_NULL;
		node = sqlite3_column_int64(t->up, 0);
		depth = sqlite3_value_dup(sqlite3_column_value(t->up, 3));
		sqlite3_reset(t->up);
		if (root || !depth) {
			sqlite3_value_free(depth);
			rc = root ? SQLITE_DONE : SQLITE_NOMEM;
			break;
		}
		sqlite3_bind_value(t->up, 2, depth);
		sqlite3_bind_int(t->up, 3, 0);
		sqlite3_value_free(depth);
	}
	sqlite3_reset(t->up);
	sqlite3_clear_bindings(t->up);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Schema 9 and older: the table's rows. */
static int f_rows(struct fvt *t, struct fcur *c)
{
	int rc = f_prepare(t, &t->rows, "SELECT depth, pc, module_id FROM "
			   "main.stack_frames WHERE stack_id = ?1 ORDER BY depth");

	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_int64(t->rows, 1, c->stack);
	while ((rc = sqlite3_step(t->rows)) == SQLITE_ROW
	       && (rc = f_push(c, sqlite3_column_int64(t->rows, 0),
			       sqlite3_column_int64(t->rows, 1),
			       sqlite3_column_int64(t->rows, 2))) == SQLITE_OK)
		;
	sqlite3_reset(t->rows);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int f_filter(sqlite3_vtab_cursor *cur, int idx, const char *idxs,
		    int argc, sqlite3_value **argv)
{
	struct fcur *c = (struct fcur *)cur;
	struct fvt *t = (struct fvt *)cur->pVtab;
	int rc;

	(void)idx;
	(void)idxs;
	c->n = c->k = 0;
	if (argc < 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL)
		return SQLITE_OK;
	c->stack = sqlite3_value_int64(argv[0]);
	if (t->tree < 0)
		t->tree = dgstacks_is_tree(t->db);
	rc = t->tree ? f_walk(t, c) : f_rows(t, c);
	if (rc != SQLITE_OK && !t->base.zErrMsg)
		t->base.zErrMsg = sqlite3_mprintf("dg_frames: %s",
						  sqlite3_errmsg(t->db));
	return rc;
}

static int f_next(sqlite3_vtab_cursor *cur)
{
	((struct fcur *)cur)->k++;
	return SQLITE_OK;
}

static int f_eof(sqlite3_vtab_cursor *cur)
{
	const struct fcur *c = (const struct fcur *)cur;

	return c->k >= c->n;
}

static int f_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	const struct fcur *c = (const struct fcur *)cur;

	if (col == F_STACK)
		sqlite3_result_int64(ctx, c->stack);
	else
		sqlite3_result_int64(ctx, c->v[3 * c->k + col]);
	return SQLITE_OK;
}

static int f_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
	*rowid = ((const struct fcur *)cur)->k;
	return SQLITE_OK;
}

static const sqlite3_module frames_module = {
	.xConnect = f_connect,
	.xBestIndex = f_best_index,
	.xDisconnect = f_disconnect,
	.xOpen = f_open,
	.xClose = f_close,
	.xFilter = f_filter,
	.xNext = f_next,
	.xEof = f_eof,
	.xColumn = f_column,
	.xRowid = f_rowid,
};

int dgstacks_register(sqlite3 *db, char **err)
{
	if (sqlite3_create_module(db, "dg_frames", &frames_module, NULL) == SQLITE_OK)
		return 0;
	*err = sqlite3_mprintf("dg_frames: %s", sqlite3_errmsg(db));
	return -1;
}
