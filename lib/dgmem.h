/* dgmem.h: growing and sorting arrays.
 *
 * dg_grow makes the array *pp (of elements of `elem` bytes, capacity *cap)
 * hold at least `need` elements, doubling; 0, or -1 when out of memory or
 * when the size would overflow (the array is then unchanged).  The caller
 * owns the array and frees it.
 *
 * dg_sort is qsort for the arrays dg_grow makes: one that never grew is
 * NULL with no elements, and qsort's base is declared nonnull even then
 * (UBSan reports it), so fewer than two elements are left as they are.
 *
 * dg_radix_sort sorts elements led by a uint64_t key, stably, in linear
 * time.  dg_lower_bound finds in a sorted array of int64_t the index of
 * the first element not below a key (n when there is none).
 *
 * Header-only: one definition for every program and module that grows,
 * sorts or searches arrays.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGMEM_H
#define DGMEM_H

#include <stdint.h>
#include <stdlib.h>

static inline int dg_grow(void *pp, size_t *cap, size_t need, size_t elem)
{
	void **p = pp;
	size_t n = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return -1;
		n *= 2;
	}
	if (elem && n > SIZE_MAX / elem)
		return -1;
	q = realloc(*p, n * elem);
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

static inline void dg_sort(void *base, size_t n, size_t elem,
			   int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, elem, cmp);
}

/* dg_radix_sort sorts n elements of `elem` bytes that each begin with a
   uint64_t key, by that key, stably (least significant byte first, a
   pass a byte; a pass where every key has the same byte is skipped: keys
   that share their high bytes cost few passes), using tmp (n elements)
   as scratch.  Inline, so that a constant elem makes the copies plain
   moves. */
static inline void dg_radix_sort(void *base, void *tmp, size_t n, size_t elem)
{
	unsigned char *a = base, *t = tmp;
	size_t count[256], i;
	int shift;

	for (shift = 0; shift < 64 && n > 1; shift += 8) {
		size_t sum = 0;
		uint64_t k;

		for (i = 0; i < 256; i++)
			count[i] = 0;
		for (i = 0; i < n; i++) {
			__builtin_memcpy(&k, a + i * elem, sizeof k);
			count[(k >> shift) & 0xFF]++;
		}
		__builtin_memcpy(&k, a, sizeof k);
		if (count[(k >> shift) & 0xFF] == n)
			continue;
		for (i = 0; i < 256; i++) {
			size_t c = count[i];
			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++) {
			__builtin_memcpy(&k, a + i * elem, sizeof k);
			__builtin_memcpy(t + count[(k >> shift) & 0xFF]++ * elem, a + i * elem, elem);
		}
		__builtin_memcpy(a, t, n * elem);
	}
}

static inline size_t dg_lower_bound(const int64_t *v, size_t n, int64_t key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#endif
