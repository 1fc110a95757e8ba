/* dgcells.c: the chunk_cells blob (dgcells.h).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "dgcells.h"

#include <assert.h>
#include <stdio.h>

size_t dgcells_encode(const struct dgcells_cell *c, size_t n, uint8_t *out)
{
	uint8_t *o = out;
	uint64_t prev = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		assert(i == 0 || c[i].cell > prev);
		assert(c[i].cell <= DGCELLS_CELL_MAX && (c[i].reads || c[i].writes));
		o = dgc_put_uleb(o, c[i].cell - prev);
		o = dgc_put_uleb(o, c[i].reads);
		o = dgc_put_uleb(o, c[i].writes);
		prev = c[i].cell;
	}
	return (size_t)(o - out);
}

void dgcells_begin(struct dgcells_dec *d, const void *blob, size_t len)
{
	static const uint8_t none[1];

	/* SQLite gives an empty blob as NULL, and NULL + 0 is undefined */
	d->start = d->p = blob ? blob : none;
	d->end = d->p + (blob ? len : 0);
	d->cell = 0;
	d->at = 0;
	d->field = "cell delta";
}

/* One uleb field, its offset and name noted first for the error. */
static int field(struct dgcells_dec *d, const char *name, uint64_t *v)
{
	d->at = (size_t)(d->p - d->start);
	d->field = name;
	return dgc_get_uleb(&d->p, d->end, v);
}

int dgcells_next(struct dgcells_dec *d, struct dgcells_cell *c)
{
	uint64_t delta, r, w;
	int first = d->p == d->start, e;

	if (d->p >= d->end)
		return 0;
	if ((e = field(d, "cell delta", &delta)) < 0)
		return e;
	if (!first && delta == 0)
		return DGCELLS_E_ORDER;
	if (delta > DGCELLS_CELL_MAX - d->cell)
		return DGCELLS_E_CELL;
	d->cell += delta;
	if ((e = field(d, "reads", &r)) < 0)
		return e;
	if (r > UINT32_MAX)
		return DGCELLS_E_COUNT;
	if ((e = field(d, "writes", &w)) < 0)
		return e;
	if (w > UINT32_MAX)
		return DGCELLS_E_COUNT;
	if (r == 0 && w == 0)
		return DGCELLS_E_EMPTY;
	c->cell = d->cell;
	c->reads = (uint32_t)r;
	c->writes = (uint32_t)w;
	return 1;
}

void dgcells_error(const struct dgcells_dec *d, int e, const char *table,
		   int64_t chunk_id, char *buf, size_t size)
{
	static const struct dgc_what whats[] = {
		{ DGCELLS_E_ORDER, "a cell delta of 0 (cells must ascend)" },
		{ DGCELLS_E_CELL, "a cell beyond the address space" },
		{ DGCELLS_E_COUNT, "a count above 2^32 - 1" },
		{ DGCELLS_E_EMPTY, "a cell with no reads and no writes" },
	};
	const char *what = dgc_what_in(e, whats, sizeof whats / sizeof *whats);

	snprintf(buf, size, "%s: chunk %lld: byte %zu (%s): %s", table,
		 (long long)chunk_id, d->at, d->field, what);
}
