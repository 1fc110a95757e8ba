/* dghist.c: the blocks.hist codec (see dghist.h).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "dghist.h"

size_t dghist_encode(const uint32_t *counts, uint32_t n, uint8_t *out)
{
	uint8_t *o = out;
	uint32_t k, skipped = 0;

	*o++ = 0x80;
	*o++ = 0x00;
	for (k = 0; k < n; k++) {
		if (!counts[2 * k] && !counts[2 * k + 1]) {
			skipped++;
			continue;
		}
		o = dgc_put_uleb(o, skipped);
		o = dgc_put_uleb(o, counts[2 * k]);
		o = dgc_put_uleb(o, counts[2 * k + 1]);
		skipped = 0;
	}
	return (size_t)(o - out);
}

void dghist_begin(struct dghist_cur *c, const void *blob, size_t len)
{
	c->p = blob;
	c->end = len ? c->p + len : c->p;   /* SQLite's empty blob is NULL */
	c->sparse = len >= 2 && c->p[0] == 0x80 && c->p[1] == 0x00;
	if (c->sparse)
		c->p += 2;
	c->bucket = 0;
}

/* Two or three numbers of one bucket: 1, or a negative error. */
static int numbers(struct dghist_cur *c, uint64_t *v, int n)
{
	int i, rc;

	for (i = 0; i < n; i++)
		if ((rc = dgc_get_uleb(&c->p, c->end, &v[i])) < 0)
			return rc == DGC_E_END ? DGHIST_E_CUT : rc;
	return 1;
}

int dghist_next(struct dghist_cur *c, uint64_t *bucket, uint64_t *reads,
                uint64_t *writes)
{
	uint64_t v[3];
	int rc;

	while (c->p < c->end) {
		if (c->sparse) {
			if ((rc = numbers(c, v, 3)) < 0)
				return rc;
			/* c->bucket may be 2^32 already: checked before the
			   subtraction, which would wrap */
			if (c->bucket > UINT32_MAX || v[0] > UINT32_MAX - c->bucket)
				return DGHIST_E_FAR;
			if (!v[1] && !v[2])
				return DGHIST_E_EMPTY;  /* never written */
			c->bucket += v[0];
			v[0] = v[1];
			v[1] = v[2];
		} else if ((rc = numbers(c, v, 2)) < 0)
			return rc;
		if (c->bucket > UINT32_MAX)
			return DGHIST_E_FAR;
		*bucket = c->bucket++;
		if (v[0] || v[1]) {
			*reads = v[0];
			*writes = v[1];
			return 1;
		}
	}
	return 0;
}

const char *dghist_error(int e)
{
	switch (e) {
	case DGHIST_E_CUT: return "a bucket's numbers cut short";
	case DGHIST_E_FAR: return "a bucket past 2^32";
	case DGHIST_E_EMPTY: return "a bucket listed with neither reads nor writes";
	}
	return dgc_what(e);
}
