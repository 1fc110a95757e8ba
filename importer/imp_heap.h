/* imp_heap.h: heap blocks, tracked ranges, user events and threads
 * (imp_heap.c).
 *
 * Promise: the heap as the log's records make it, at every point of the
 * log: imp_heap_find answers which live block holds an address; a block's
 * row (blocks, with its histogram and its function counts in blocks.fns)
 * is written when it is freed, and the live ones by imp_heap_finish, so
 * memory follows the live blocks.  The state hangs off struct importer
 * (imp->blocks, ranges, events, threads) and is freed by
 * imp_heap_free_all.  0 or -1 with the message in imp->err.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef IMP_HEAP_H
#define IMP_HEAP_H

#include "imp.h"

int  imp_heap_init(struct importer *imp);
int  imp_heap_malloc(struct importer *imp, const struct dglog_record *rec);
int  imp_heap_free(struct importer *imp, const struct dglog_record *rec);
int  imp_heap_range(struct importer *imp, const struct dglog_record *rec);
int  imp_heap_event(struct importer *imp, const struct dglog_record *rec);
uint32_t imp_heap_find(struct importer *imp, uint64_t addr);
/* Count an access of d into block b, and d's function into the block's
   function counts: 0 if those had room, 1 if the caller must count the
   function in the global table. */
int  imp_heap_touch(struct importer *imp, uint32_t b, uint64_t addr,
                    uint64_t icount, struct imp_desc *d);
int  imp_fn_block_row(struct importer *imp, uint32_t fn, uint32_t block_id,
                      int is_write, uint64_t n, uint64_t bytes);
void imp_heap_ranges_touch(struct importer *imp, uint64_t addr, const struct imp_desc *d);
void imp_heap_events_add(struct importer *imp, const struct imp_rw *rw);
struct imp_thread *imp_thread(struct importer *imp, uint32_t tid);
int  imp_heap_finish(struct importer *imp);
/* The live blocks' state (slots, histograms, the address index), once
   every block is written (imp_heap_finish): its memory is back before
   the indexes are built.  imp_heap_free_all calls it too. */
void imp_heap_release(struct importer *imp);
void imp_heap_free_all(struct importer *imp);

#endif
