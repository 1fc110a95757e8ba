/* dghash.c: 64-bit key hash map.  See dghash.h. */
#include <stdlib.h>
#include <string.h>
#include "dghash.h"

static int table_alloc(struct dghash *h, size_t cap)
{
	h->keys = malloc(cap * sizeof *h->keys);
	h->vals = malloc(cap * sizeof *h->vals);
	h->used = calloc(cap, 1);
	if (!h->keys || !h->vals || !h->used) {
		free(h->keys);
		free(h->vals);
		free(h->used);
		h->keys = NULL;
		h->vals = NULL;
		h->used = NULL;
		return -1;
	}
	h->cap = cap;
	h->n = 0;
	h->gen++;
	return 0;
}

int dghash_init(struct dghash *h, size_t cap_hint)
{
	size_t cap = 64;

	memset(h, 0, sizeof *h);
	while (cap < 2 * cap_hint)
		cap *= 2;
	return table_alloc(h, cap);
}

void dghash_free(struct dghash *h)
{
	free(h->keys);
	free(h->vals);
	free(h->used);
	memset(h, 0, sizeof *h);
}

static size_t probe(const struct dghash *h, uint64_t key)
{
	size_t mask = h->cap - 1, i = dghash_mix(key) & mask;

	while (h->used[i] && h->keys[i] != key)
		i = (i + 1) & mask;
	return i;
}

long dghash_slot(const struct dghash *h, uint64_t key)
{
	size_t i = probe(h, key);

	return h->used[i] ? (long)i : -1;
}

uint32_t dghash_get(const struct dghash *h, uint64_t key)
{
	size_t i = probe(h, key);

	return h->used[i] ? h->vals[i] : DGHASH_NONE;
}

static int grow(struct dghash *h)
{
	struct dghash old = *h;
	size_t i;

	if (table_alloc(h, old.cap * 2) < 0) {
		*h = old;
		return -1;
	}
	for (i = 0; i < old.cap; i++) {
		if (old.used[i]) {
			size_t j = probe(h, old.keys[i]);
			h->used[j] = 1;
			h->keys[j] = old.keys[i];
			h->vals[j] = old.vals[i];
			h->n++;
		}
	}
	free(old.keys);
	free(old.vals);
	free(old.used);
	return 0;
}

long dghash_put(struct dghash *h, uint64_t key, uint32_t v, int *added)
{
	size_t i = probe(h, key);

	*added = 0;
	if (h->used[i])
		return (long)i;
	if (2 * (h->n + 1) > h->cap) {
		if (grow(h) < 0)
			return -1;
		i = probe(h, key);
	}
	h->used[i] = 1;
	h->keys[i] = key;
	h->vals[i] = v;
	h->n++;
	*added = 1;
	return (long)i;
}
