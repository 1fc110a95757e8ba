/* dg_blob.h: a growing byte string, written once and read back in order.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 *
 * A forked child's encoder starts from its parent's state (dg_enc.h): the
 * encoder and the modules under it (dg_stack.h, dg_pairmap.h) put their
 * state into a blob, which the helper hands to the tool (dg_hand.h), and
 * get it back from there in the same order.  The blob owns its bytes
 * (VG_(malloc)ed; the caller frees p when done); get returns pointers
 * into them and asserts that it stays inside: a blob is only ever read
 * by the code that wrote it, so running past its end is our bug.
 */
#ifndef DG_BLOB_H
#define DG_BLOB_H

#include "pub_tool_basics.h"

/* p[0, n) written, cap allocated, at: where the next get reads.  All zero
   is an empty blob. */
struct dg_blob { UChar *p; SizeT n, cap, at; };

void dg_blob_put(struct dg_blob *b, const void *p, SizeT n);
const void *dg_blob_get(struct dg_blob *b, SizeT n);
/* Arrays: a u64 count, then the elements; get (re)allocates *p with cost
   centre cc, copies the elements there and returns the count. */
void dg_blob_put_array(struct dg_blob *b, const void *p, SizeT n, SizeT size);
SizeT dg_blob_get_array(struct dg_blob *b, void **p, SizeT size, const HChar *cc);

#endif
