/* dgblockfns.c: the blob of blocks.fns.  See dgblockfns.h. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include "dgblockfns.h"

static uint64_t key_of(const struct dgbf_entry *e)
{
	return (uint64_t)e->fn << 1 | (e->is_write != 0);
}

static int by_key(const void *a, const void *b)
{
	uint64_t x = key_of(a), y = key_of(b);

	return (x > y) - (x < y);
}

size_t dgbf_encode(struct dgbf_entry *e, size_t n, uint8_t *out)
{
	uint8_t *o = out;
	uint64_t prev = 0, k;
	size_t i;

	qsort(e, n, sizeof *e, by_key);
	for (i = 0; i < n; i++) {
		assert(e[i].accesses >= 1 && e[i].accesses <= DGBF_COUNT_MAX
		       && e[i].bytes <= DGBF_COUNT_MAX);
		assert(i == 0 || key_of(&e[i]) > prev);
		k = key_of(&e[i]);
		o = dgc_put_uleb(o, k - prev);
		prev = k;
		o = dgc_put_uleb(o, e[i].accesses);
		/* one size for every access: its size, doubled, else the bytes */
		if (e[i].bytes % e[i].accesses == 0 && e[i].bytes / e[i].accesses < 64)
			o = dgc_put_uleb(o, e[i].bytes / e[i].accesses << 1);
		else
			o = dgc_put_uleb(o, e[i].bytes << 1 | 1);
	}
	return (size_t)(o - out);
}

void dgbf_begin(struct dgbf_dec *d, const void *blob, size_t len)
{
	d->start = d->p = blob;
	d->end = len ? d->p + len : d->p;   /* SQLite's empty blob is NULL */
	d->key = 0;
	d->at = 0;
	d->field = "key delta";
}

static int field(struct dgbf_dec *d, const char *name, uint64_t *v)
{
	d->at = (size_t)(d->p - d->start);
	d->field = name;
	return dgc_get_uleb(&d->p, d->end, v);
}

int dgbf_next(struct dgbf_dec *d, struct dgbf_entry *e)
{
	uint64_t delta, n, size;
	int first = d->p == d->start, e_;

	if (d->p >= d->end)
		return 0;
	if ((e_ = field(d, "key delta", &delta)) < 0)
		return e_;
	if (!first && delta == 0)
		return DGBF_E_ORDER;
	if (delta > ((uint64_t)DGBF_FN_MAX << 1 | 1) - d->key)
		return DGBF_E_FN;
	d->key += delta;
	if ((e_ = field(d, "accesses", &n)) < 0)
		return e_;
	if (n == 0 || n > DGBF_COUNT_MAX)
		return DGBF_E_COUNT;
	if ((e_ = field(d, "size", &size)) < 0)
		return e_;
	if (size & 1) {
		if ((size >>= 1) > DGBF_COUNT_MAX)
			return DGBF_E_COUNT;
	} else if ((size >>= 1) > DGBF_COUNT_MAX / n)
		return DGBF_E_COUNT;
	else
		size *= n;
	e->fn = (uint32_t)(d->key >> 1);
	e->is_write = (uint8_t)(d->key & 1);
	e->accesses = n;
	e->bytes = size;
	return 1;
}

void dgbf_error(const struct dgbf_dec *d, int e, int64_t block_id, char *buf,
                size_t size)
{
	static const struct dgc_what whats[] = {
		{ DGBF_E_ORDER, "a key delta of 0 (functions and directions must ascend)" },
		{ DGBF_E_FN, "a function id above 2^32 - 1" },
		{ DGBF_E_COUNT, "no accesses, or a count above 2^62" },
	};
	const char *what = dgc_what_in(e, whats, sizeof whats / sizeof *whats);

	snprintf(buf, size, "blocks.fns: block %lld: byte %zu (%s): %s",
	         (long long)block_id, d->at, d->field, what);
}
