/* dg_pairmap.c: open-addressing pair -> UInt map.  See dg_pairmap.h. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "dg_pairmap.h"
#include "dg_blob.h"

static void pairmap_alloc(struct dg_pairmap *m, SizeT cap)
{
	SizeT i;

	m->slots = VG_(malloc)(m->cc, cap * sizeof *m->slots);
	for (i = 0; i < cap; i++)
		m->slots[i].value = DG_PAIRMAP_NONE;
	m->cap = cap;
	m->used = 0;
}

void dg_pairmap_init(struct dg_pairmap *m, const HChar *cc)
{
	m->cc = cc;
	pairmap_alloc(m, 1024);
}

UInt dg_pairmap_get(const struct dg_pairmap *m, ULong a, ULong b)
{
	SizeT mask = m->cap - 1, i = dg_pairmap_hash(a, b) & mask;

	for (;;) {
		const struct dg_pairmap_slot *s = &m->slots[i];
		if (s->value == DG_PAIRMAP_NONE)
			return DG_PAIRMAP_NONE;
		if (s->a == a && s->b == b)
			return s->value;
		i = (i + 1) & mask;
	}
}

static void pairmap_insert(struct dg_pairmap *m, ULong a, ULong b, UInt value)
{
	SizeT mask = m->cap - 1, i = dg_pairmap_hash(a, b) & mask;

	while (m->slots[i].value != DG_PAIRMAP_NONE)
		i = (i + 1) & mask;
	m->slots[i].a = a;
	m->slots[i].b = b;
	m->slots[i].value = value;
	m->used++;
}

/* Keep the load factor under 1/2 so that probes stay short. */
static void pairmap_grow(struct dg_pairmap *m)
{
	struct dg_pairmap_slot *old = m->slots;
	SizeT i, old_cap = m->cap;

	pairmap_alloc(m, old_cap * 2);
	for (i = 0; i < old_cap; i++)
		if (old[i].value != DG_PAIRMAP_NONE)
			pairmap_insert(m, old[i].a, old[i].b, old[i].value);
	VG_(free)(old);
}

void dg_pairmap_put(struct dg_pairmap *m, ULong a, ULong b, UInt value)
{
	tl_assert(value != DG_PAIRMAP_NONE);
	if (2 * (m->used + 1) > m->cap)
		pairmap_grow(m);
	pairmap_insert(m, a, b, value);
}

void dg_pairmap_set(struct dg_pairmap *m, ULong a, ULong b, UInt value)
{
	SizeT mask = m->cap - 1, i = dg_pairmap_hash(a, b) & mask;

	tl_assert(value != DG_PAIRMAP_NONE);
	for (; m->slots[i].value != DG_PAIRMAP_NONE; i = (i + 1) & mask)
		if (m->slots[i].a == a && m->slots[i].b == b) {
			m->slots[i].value = value;
			return;
		}
	dg_pairmap_put(m, a, b, value);
}

void dg_pairmap_dump(const struct dg_pairmap *m, struct dg_blob *b)
{
	ULong used = m->used;

	dg_blob_put(b, &used, 8);
	dg_blob_put_array(b, m->slots, m->cap, sizeof *m->slots);
}

void dg_pairmap_restore(struct dg_pairmap *m, struct dg_blob *b)
{
	ULong used;

	VG_(memcpy)(&used, dg_blob_get(b, 8), 8);
	m->cap = dg_blob_get_array(b, (void **)&m->slots, sizeof *m->slots, m->cc);
	m->used = used;
}
