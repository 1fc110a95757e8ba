/* dg_pairmap.h: an open-addressing hash map from a pair of words to a UInt.
 *
 * Used to intern calling contexts (parent node, call site) -> node and
 * (bbdef, node) -> context, and a live heap block -> its allocation
 * stack (dg_pairmap_set replaces).  Keys are never removed.  The map owns its
 * table, which lives as long as the tool.  Values are whatever the caller stores;
 * DG_PAIRMAP_NONE is returned for a missing key and must not be stored.
 */
#ifndef DG_PAIRMAP_H
#define DG_PAIRMAP_H

#include "pub_tool_basics.h"

#define DG_PAIRMAP_NONE 0xFFFFFFFFu

struct dg_pairmap_slot { ULong a, b; UInt value; };

struct dg_pairmap {
	struct dg_pairmap_slot *slots;
	SizeT cap;        /* power of two */
	SizeT used;
	const HChar *cc;  /* cost centre for VG_(malloc) */
};

static inline SizeT dg_pairmap_hash(ULong a, ULong b)
{
	ULong h = a * 0x9E3779B97F4A7C15ULL ^ (b + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
	return (SizeT)(h ^ (h >> 29));
}

void dg_pairmap_init(struct dg_pairmap *m, const HChar *cc);
UInt dg_pairmap_get(const struct dg_pairmap *m, ULong a, ULong b);
/* Start loading the line at p without waiting for it.  An asm, since
   GCC 12 at -O2 dropped __builtin_prefetch from the encoder's loop (no
   prefetcht0 in the object). */
static inline void dg_prefetch(const void *p)
{
#if defined(__x86_64__)
	__asm__ volatile("prefetcht0 %0" :: "m"(*(const char *)p));
#else
	__builtin_prefetch(p);
#endif
}

/* Start loading the slot where a lookup of (a, b) begins: a map of
   millions of keys misses the cache on nearly every lookup, and a caller
   that knows its next keys early overlaps those misses. */
static inline void dg_pairmap_prefetch(const struct dg_pairmap *m, ULong a, ULong b)
{
	dg_prefetch(&m->slots[dg_pairmap_hash(a, b) & (m->cap - 1)]);
}
/* Store value for (a, b), which must not be present yet. */
void dg_pairmap_put(struct dg_pairmap *m, ULong a, ULong b, UInt value);
/* Store value for (a, b), replacing any. */
void dg_pairmap_set(struct dg_pairmap *m, ULong a, ULong b, UInt value);
/* The whole map into a blob (dg_blob.h) and back: a forked child's
   encoder. */
struct dg_blob;
void dg_pairmap_dump(const struct dg_pairmap *m, struct dg_blob *b);
void dg_pairmap_restore(struct dg_pairmap *m, struct dg_blob *b);

#endif
