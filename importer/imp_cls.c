/* imp_cls.c: access classes (see imp_cls.h).
 *
 * A set is its module ids sorted, interned like imp_sym's call-tree nodes:
 * the hash of the ids is the key, bumped past other sets that share it.
 * Programs have tens of modules and their contexts a few hundred distinct
 * sets, so none of this is on the per-access path but the union memo.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "imp_cls.h"

#include <stdlib.h>
#include <string.h>

#include "dgmem.h"
#include "imp.h"

struct imp_cls *imp_cls_new(void)
{
	struct imp_cls *c = calloc(1, sizeof *c);

	if (!c || dghash_init(&c->by_words, 64) < 0 || dghash_init(&c->unions, 64) < 0) {
		if (c)
			dghash_free(&c->by_words);
		free(c);
		return NULL;
	}
	return c;
}

static uint64_t words_key(const uint32_t *w, uint32_t n)
{
	uint64_t h = n * 0x9E3779B97F4A7C15ULL;
	uint32_t i;

	for (i = 0; i < n; i++)
		h = dghash_mix(h ^ w[i]);
	return h;
}

static int set_is(const struct imp_cls *c, uint32_t id, const uint32_t *w, uint32_t n)
{
	const struct imp_cls_set *s = &c->sets[id];

	return s->n == n && (n == 0 || memcmp(c->words + s->off, w, n * sizeof *w) == 0);
}

/* The id of the set of the n sorted, distinct ids w (not inside c->words). */
static uint32_t intern(struct imp_cls *c, const uint32_t *w, uint32_t n)
{
	uint64_t key;
	long slot;
	int added;

	if (c->n_sets >= 0x7fffffff
	    || dg_grow((void **)&c->sets, &c->cap_sets, c->n_sets + 1, sizeof *c->sets) < 0
	    || dg_grow((void **)&c->words, &c->cap_words, c->n_words + n, sizeof *c->words) < 0)
		return UINT32_MAX;
	for (key = words_key(w, n);; key++) {
		slot = dghash_put(&c->by_words, key, (uint32_t)c->n_sets, &added);
		if (slot < 0)
			return UINT32_MAX;
		if (added || set_is(c, c->by_words.vals[slot], w, n))
			break;
	}
	if (!added)
		return c->by_words.vals[slot];
	if (n)
		memcpy(c->words + c->n_words, w, n * sizeof *w);
	c->sets[c->n_sets].off = c->n_words;
	c->sets[c->n_sets].n = n;
	c->n_words += n;
	return (uint32_t)c->n_sets++;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Sorts the n ids of c->tmp, drops repeats, interns them. */
static uint32_t intern_tmp(struct imp_cls *c, size_t n)
{
	size_t i, k = 0;

	dg_sort(c->tmp, n, sizeof *c->tmp, cmp_u32);
	for (i = 0; i < n; i++)
		if (k == 0 || c->tmp[k - 1] != c->tmp[i])
			c->tmp[k++] = c->tmp[i];
	return intern(c, c->tmp, (uint32_t)k);
}

static int tmp_push(struct imp_cls *c, size_t *n, uint32_t id)
{
	if (dg_grow((void **)&c->tmp, &c->cap_tmp, *n + 1, sizeof *c->tmp) < 0)
		return -1;
	c->tmp[(*n)++] = id;
	return 0;
}

uint32_t imp_cls_set_union(struct imp_cls *c, uint32_t a, uint32_t b)
{
	uint64_t key = a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
	uint32_t v = dghash_get(&c->unions, key), i, u;
	size_t n = 0;
	int added;

	if (v != DGHASH_NONE)
		return v;
	for (i = 0; i < c->sets[a].n; i++)
		if (tmp_push(c, &n, c->words[c->sets[a].off + i]) < 0)
			return UINT32_MAX;
	for (i = 0; i < c->sets[b].n; i++)
		if (tmp_push(c, &n, c->words[c->sets[b].off + i]) < 0)
			return UINT32_MAX;
	u = intern_tmp(c, n);
	if (u == UINT32_MAX || dghash_put(&c->unions, key, u, &added) < 0)
		return UINT32_MAX;
	return u;
}

uint32_t imp_cls_single(struct imp_cls *c, uint32_t module)
{
	return intern(c, &module, 1);
}

/* Appends id to the import thread's words (imp->cls_words). */
static int word_push(struct importer *imp, size_t *n, uint32_t id)
{
	if (dg_grow((void **)&imp->cls_words, &imp->cap_cls_words, *n + 1,
		    sizeof *imp->cls_words) < 0)
		return -1;
	imp->cls_words[(*n)++] = id;
	return 0;
}

/* On the import thread: the modules of the caller frames, and of the
   block's accesses when they are all in one; the stage interns them. */
int imp_cls_words(struct importer *imp, uint32_t bbdef, int64_t stack,
		  const uint32_t **words, uint32_t *n_words)
{
	uint32_t node = imp->stack_leaf[stack - 1];
	const struct imp_desc *d = imp->descs + imp->bbdef_desc[bbdef];
	uint32_t nd = (bbdef + 1 < imp->n_bbdefs ? imp->bbdef_desc[bbdef + 1]
		       : (uint32_t)imp->n_descs) - imp->bbdef_desc[bbdef], i;
	size_t n = 0;
	int mixed = 0;

	for (i = 0; i < nd; i++)
		mixed |= d[i].module != d[0].module;
	if (word_push(imp, &n, mixed) < 0)
		return imp_fail(imp, "out of memory");
	/* the caller frames: the leaf's ancestors */
	for (node = node ? imp->callsites[node - 1].parent : 0; node;
	     node = imp->callsites[node - 1].parent)
		if (word_push(imp, &n, imp->callsites[node - 1].module) < 0)
			return imp_fail(imp, "out of memory");
	if (nd && !mixed && word_push(imp, &n, d[0].module) < 0)
		return imp_fail(imp, "out of memory");
	*words = imp->cls_words;
	*n_words = (uint32_t)n;
	return 0;
}

/* On the stage: the context's set, IMP_CLS_MIXED with the frames' alone
   when its block's accesses are in more than one module (each access then
   adds its own). */
int imp_cls_define(struct imp_cls *c, uint64_t ctx, const uint32_t *words, uint32_t n)
{
	uint32_t set;

	if (n == 0 || ctx >= UINT32_MAX
	    || dg_grow((void **)&c->ctx_set, &c->cap_ctx, ctx + 1, sizeof *c->ctx_set) < 0
	    || dg_grow((void **)&c->tmp, &c->cap_tmp, n, sizeof *c->tmp) < 0)
		return -1;
	memcpy(c->tmp, words + 1, (n - 1) * sizeof *words);
	set = intern_tmp(c, n - 1);
	if (set == UINT32_MAX)
		return -1;
	c->ctx_set[ctx] = set | (words[0] ? IMP_CLS_MIXED : 0);
	return 0;
}

int imp_cls_write(struct importer *imp)
{
	struct imp_cls *c = imp->cls;
	sqlite3_stmt *st;
	size_t s;
	uint32_t i;
	int rc = SQLITE_OK;

	if (!c)
		return 0;
	if (sqlite3_prepare_v2(imp->db, "INSERT INTO sum_class_modules VALUES (?1, ?2)",
			       -1, &st, NULL) != SQLITE_OK)
		return imp_fail(imp, "%s: writing sum_class_modules: %s", imp->db_path,
				sqlite3_errmsg(imp->db));
	for (s = 0; s < c->n_sets && rc == SQLITE_OK; s++)
		for (i = 0; i < c->sets[s].n && rc == SQLITE_OK; i++) {
			sqlite3_bind_int64(st, 1, (sqlite3_int64)s);
			sqlite3_bind_int64(st, 2, c->words[c->sets[s].off + i]);
			rc = sqlite3_step(st) == SQLITE_DONE ? sqlite3_reset(st) : SQLITE_ERROR;
		}
	sqlite3_finalize(st);
	return rc == SQLITE_OK ? 0 : imp_fail(imp, "%s: writing sum_class_modules: %s",
					      imp->db_path, sqlite3_errmsg(imp->db));
}

void imp_cls_free(struct importer *imp)
{
	struct imp_cls *c = imp->cls;

	free(imp->cls_words);
	imp->cls_words = NULL;
	if (!c)
		return;
	free(c->ctx_set);
	free(c->words);
	free(c->sets);
	free(c->tmp);
	dghash_free(&c->by_words);
	dghash_free(&c->unions);
	free(c);
	imp->cls = NULL;
}
