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

void dg_pairmap_init(struct dg_pairmap *m, const HChar *cc);
UInt dg_pairmap_get(const struct dg_pairmap *m, ULong a, ULong b);
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
