/* dg_blob.c: a growing byte string.  See dg_blob.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "dg_blob.h"

void dg_blob_put(struct dg_blob *b, const void *p, SizeT n)
{
	if (b->n + n > b->cap) {
		while (b->n + n > b->cap)
			b->cap = b->cap ? 2 * b->cap : 65536;
		b->p = VG_(realloc)("dg.enc.blob", b->p, b->cap);
	}
	VG_(memcpy)(b->p + b->n, p, n);
	b->n += n;
}

/* The blob is our own, made by its reader's writer: running past it is
   our bug. */
const void *dg_blob_get(struct dg_blob *b, SizeT n)
{
	const void *p = b->p + b->at;

	tl_assert(n <= b->n - b->at);
	b->at += n;
	return p;
}

void dg_blob_put_array(struct dg_blob *b, const void *p, SizeT n, SizeT size)
{
	ULong k = n;

	dg_blob_put(b, &k, 8);
	dg_blob_put(b, p, n * size);
}

SizeT dg_blob_get_array(struct dg_blob *b, void **p, SizeT size, const HChar *cc)
{
	ULong k;

	VG_(memcpy)(&k, dg_blob_get(b, 8), 8);
	*p = VG_(realloc)(cc, *p, k * size > 0 ? k * size : 1);
	VG_(memcpy)(*p, dg_blob_get(b, k * size), k * size);
	return k;
}
