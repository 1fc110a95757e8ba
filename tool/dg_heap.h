/* dg_heap.h: heap blocks.
 *
 * Replaces malloc and friends (through the vgpreload library) so that every
 * allocation and free is written to the log with its call stack, in order
 * with the accesses around it.  Also takes MALLOCLIKE/FREELIKE client
 * requests.  Owns the table of live blocks, which a forked child writes
 * again so that its log knows the blocks it inherited.
 */
#ifndef DG_HEAP_H
#define DG_HEAP_H

#include "pub_tool_basics.h"

void dg_heap_init(void);            /* registers the replacement functions */
void dg_heap_client_alloc(Addr a, SizeT n);   /* MALLOCLIKE_BLOCK */
void dg_heap_client_free(Addr a);             /* FREELIKE_BLOCK */
void dg_heap_replay(void);
/* depth > 0: unwind each malloc's and free's stack, up to depth frames
   (dg_calls.h), as long as the encoder replays no calls; 0: stop. */
void dg_heap_set_unwind(UInt depth);          /* MALLOC_BLOCK for every live block */
ULong dg_heap_allocs(void);

#endif
