/* dghash.h: an open-addressing hash map from 64-bit keys to 32-bit values.
 *
 * For the importer's counters (pages, cache lines, function x block) and
 * interning (stacks).  Keys are never removed.  The map owns its table.
 * dghash_put and dghash_slot give the slot index of a key, stable until an
 * insertion grows the table (h->gen changes then), so callers can cache it.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGHASH_H
#define DGHASH_H

#include <stddef.h>
#include <stdint.h>

#define DGHASH_NONE UINT32_MAX

struct dghash {
	uint64_t *keys;
	uint32_t *vals;
	uint8_t *used;
	size_t cap, n;      /* cap a power of two */
	uint32_t gen;       /* bumped whenever the table is rebuilt */
};

int  dghash_init(struct dghash *h, size_t cap_hint);      /* 0 or -1 (memory) */
void dghash_free(struct dghash *h);
/* Value of key, or DGHASH_NONE. */
uint32_t dghash_get(const struct dghash *h, uint64_t key);
/* Slot of key (its value is h->vals[slot]), or -1 if absent. */
long dghash_slot(const struct dghash *h, uint64_t key);
/* Slot of key, inserting it with value v if absent (*added set); -1 when
   out of memory.  The value lives in h->vals[slot]. */
long dghash_put(struct dghash *h, uint64_t key, uint32_t v, int *added);

static inline uint64_t dghash_mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ULL;
	k ^= k >> 33;
	return k;
}

/* Brings key's first slot toward the cache ahead of a lookup that will
   miss it there (a stream of lookups, a few keys ahead). */
static inline void dghash_prefetch(const struct dghash *h, uint64_t key)
{
	size_t i = dghash_mix(key) & (h->cap - 1);

	__builtin_prefetch(h->used + i);
	__builtin_prefetch(h->keys + i);
	__builtin_prefetch(h->vals + i);
}

#endif
