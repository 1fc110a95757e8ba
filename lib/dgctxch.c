/* dgctxch.c: the context_chunks blob codec.  See dgctxch.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdio.h>

#include "dgctxch.h"

void dgctxch_begin(struct dgctxch_dec *d, int64_t lo, int64_t hi, const void *data,
                   size_t len)
{
	static const uint8_t none[1];

	/* SQLite gives an empty blob as NULL, and NULL + 0 is undefined */
	d->start = d->p = data ? data : none;
	d->end = d->start + (data ? len : 0);
	d->id = lo;
	d->hi = hi;
	d->started = 0;
	d->at = 0;
}

int dgctxch_next(struct dgctxch_dec *d, int64_t *id)
{
	uint64_t delta;
	int e;

	if (!d->started) {
		if (d->id < 1 || d->hi < d->id)
			return DGCTXCH_E_RANGE;
		d->started = 1;
		*id = d->id;
		return 1;
	}
	d->at = (size_t)(d->p - d->start);
	if (d->p >= d->end)
		return d->id == d->hi ? 0 : DGCTXCH_E_HI;
	if ((e = dgc_get_uleb(&d->p, d->end, &delta)) < 0)
		return e;
	if (delta == 0)
		return DGCTXCH_E_ORDER;
	if (delta > (uint64_t)(d->hi - d->id))
		return DGCTXCH_E_HI;
	d->id += (int64_t)delta;
	*id = d->id;
	return 1;
}

void dgctxch_error(const struct dgctxch_dec *d, int e, int64_t context_id, char *buf,
                   size_t size)
{
	static const struct dgc_what whats[] = {
		{ DGCTXCH_E_ORDER, "a delta of 0 (chunk ids must ascend)" },
		{ DGCTXCH_E_HI, "the ids do not end at chunk_hi" },
		{ DGCTXCH_E_RANGE, "chunk_lo below 1 or above chunk_hi" },
	};
	const char *what = dgc_what_in(e, whats, sizeof whats / sizeof *whats);

	if (context_id >= 0)
		snprintf(buf, size, "context_chunks: context %lld: byte %zu: %s",
			 (long long)context_id, d->at, what);
	else
		snprintf(buf, size, "context_chunks: byte %zu: %s", d->at, what);
}
