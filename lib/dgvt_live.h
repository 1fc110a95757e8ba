/* dgvt_live.h: the heap blocks live at an instant that moves forward —
 * block_id for a reader that goes through the accesses in time order.
 *
 * Promise: dgvt_live_block_at answers what dgvt_block_at (dgvt_model.h)
 * answers, the innermost block holding address a at icount t, by keeping
 * the set of blocks live at the last t asked and moving it forward by the
 * allocations and frees in between (dgvt_live_order: the blocks in
 * allocation and in free order, made once a model).  A live block is
 * found through the regions it covers, in the level for its size: level
 * L cuts memory in regions of 64 << 3L bytes and holds the blocks of up
 * to 16 of them, so live blocks (which do not overlap but where a pool
 * nests them) are a few a region; the largest are kept in one list.  A
 * lookup costs a hash probe a level that holds a live block (from the
 * smallest blocks' up to the first that holds the address, while no live
 * blocks overlap) and a short walk, whatever the address history (the
 * search of sorted blocks walks back over every block that ever covered
 * the address).  Most lookups
 * cost less: a range of addresses (the stack) that no block ever covers
 * answers them, or one of the two blocks found last (a copy goes back and
 * forth between two) while no block was ever made
 * live with its first or last byte in a live block (a pool's
 * VALGRIND_MALLOCLIKE_BLOCK inside its malloc'd arena: from then on
 * every lookup walks the levels).  A block made live wholly inside one
 * made live later, with neither end in it (a pool described after its
 * pieces), is the one case the last-found shortcut does not see.  An instant before the last one
 * (threads' chunks interleave) is asked of dgvt_block_at instead.
 *
 * Ownership: the order is shared read-only by any number of struct
 * dgvt_live (one a thread); each owns its hash and lists.  Out of memory
 * inside, a struct dgvt_live falls back to dgvt_block_at for good (the
 * answers stay right).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGVT_LIVE_H
#define DGVT_LIVE_H

#include <stddef.h>
#include <stdint.h>

#include "dghash.h"
#include "dgvt_model.h"

struct dgvt_live_order {
	uint32_t *by_alloc, *by_free;   /* indexes into the model's blk */
	size_t n;
};

/* The order of m's blocks (loaded): 0, or -1 when out of memory. */
int dgvt_live_order_make(const struct dgvt_model *m, struct dgvt_live_order *o);
void dgvt_live_order_free(struct dgvt_live_order *o);

struct dgvt_live_node {
	uint32_t blk, next;     /* next: node index + 1, 0 ends */
};

#define DGVT_LIVE_LEVELS 9

struct dgvt_live {
	const struct dgvt_model *m;
	const struct dgvt_live_order *o;
	size_t ia, ifr;         /* the next allocation and free to apply */
	int64_t t;              /* the instant the set is at */
	int broken;             /* out of memory: dgvt_block_at from now on */
	struct {
		struct dghash regions;  /* region -> first node + 1 (0: none) */
		size_t live;            /* blocks in the level */
	} level[DGVT_LIVE_LEVELS];
	struct dgvt_live_node *nodes;
	size_t n_nodes, cap_nodes;
	uint32_t free_node;     /* a free list of nodes, index + 1 */
	uint32_t *big;          /* live blocks too large for every level */
	size_t n_big, cap_big;
	/* Shortcuts: the block found last (while no block was ever
	   allocated inside a live one, it is the answer wherever it holds
	   the address and is live), and the two ranges no block ever covers
	   found last (the stack's and the globals' accesses take turns
	   between the heap's: with one, each turn searched the blocks). */
	const struct dgvt_blk *last[2];  /* the two found last, newest first */
	int nested;
	int64_t gap_lo[2], gap_hi[2];   /* newest first; empty: lo == hi */
	int64_t span_lo, span_hi;       /* between two starts, where the last
	                                   gap looked for was not */
};

void dgvt_live_init(struct dgvt_live *l, const struct dgvt_model *m, const struct dgvt_live_order *o);
void dgvt_live_free(struct dgvt_live *l);

int64_t dgvt_live_block_at(struct dgvt_live *l, int64_t a, int64_t t, int *found);

#endif
