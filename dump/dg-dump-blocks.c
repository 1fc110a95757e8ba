/* dg-dump-blocks.c: the --blocks mode of dg-dump.
 *
 * Every MALLOC_BLOCK makes a block; a FREE_BLOCK of its address ends its
 * life.  Each access made while blocks are live is charged to the live block
 * whose [addr, addr + size) holds the address.  Live blocks do not overlap,
 * so the block holding an address is the live block with the greatest start
 * not above it: a treap keyed by start address finds it in O(log n), and a
 * one-entry cache catches the common case of runs touching the same block
 * again.  A MALLOC_BLOCK at the address of a live block replaces it (the old
 * one keeps "-" as its free count: the log never freed it).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dg-dump.h"
#include "dgmem.h"

struct block {
	uint64_t addr, size, alloc_icount, free_icount;
	uint64_t reads, writes, read_bytes, write_bytes;
	uint64_t frames, n_frames;      /* into the frame pool */
	int freed;
};

/* Treap node: nodes live in one array, linked by index; 0 is "none". */
struct node {
	uint64_t key, end;
	uint64_t block;
	uint32_t prio, left, right;
};

struct blocks {
	struct block *b;
	size_t n, cap;
	uint64_t *frames;
	size_t n_frames, frames_cap;
	struct node *t;
	size_t t_n, t_cap;
	uint32_t root, free_list, rng;
	uint32_t cache;                 /* node of the last hit, or 0 */
	int oom;
};


/* ------------------------------------------------------------ treap */

static uint32_t node_new(struct blocks *s, uint64_t key, uint64_t end,
			 uint64_t block)
{
	uint32_t i;

	if (s->free_list) {
		i = s->free_list;
		s->free_list = s->t[i].left;
	} else {
		if (dg_grow((void **)&s->t, &s->t_cap, s->t_n + 1, sizeof *s->t) < 0)
			return 0;
		if (s->t_n == 0)
			s->t_n = 1;             /* index 0 means none */
		i = (uint32_t)s->t_n++;
	}
	s->rng = s->rng * 1103515245u + 12345u;
	s->t[i] = (struct node){ key, end, block, s->rng >> 1, 0, 0 };
	return i;
}

/* Split tree i into keys < key (*l) and keys >= key (*r). */
static void split(struct node *t, uint32_t i, uint64_t key,
		  uint32_t *l, uint32_t *r)
{
	if (!i) {
		*l = *r = 0;
	} else if (t[i].key < key) {
		split(t, t[i].right, key, &t[i].right, r);
		*l = i;
	} else {
		split(t, t[i].left, key, l, &t[i].left);
		*r = i;
	}
}

/* Join two trees, every key of l below every key of r. */
static uint32_t merge(struct node *t, uint32_t l, uint32_t r)
{
	if (!l || !r)
		return l ? l : r;
	if (t[l].prio > t[r].prio) {
		t[l].right = merge(t, t[l].right, r);
		return l;
	}
	t[r].left = merge(t, l, t[r].left);
	return r;
}

/* Remove the node with this key (if any); returns its block or -1. */
static int64_t tree_remove(struct blocks *s, uint64_t key)
{
	uint32_t l, mid, r;
	int64_t block = -1;

	split(s->t, s->root, key, &l, &mid);
	split(s->t, mid, key + 1, &mid, &r);
	if (mid) {
		block = (int64_t)s->t[mid].block;
		s->t[mid].left = s->free_list;
		s->free_list = mid;
		if (s->cache == mid)
			s->cache = 0;
	}
	s->root = merge(s->t, l, r);
	return block;
}

static int tree_insert(struct blocks *s, uint64_t key, uint64_t end,
		       uint64_t block)
{
	uint32_t l, r, i = node_new(s, key, end, block);

	if (!i)
		return -1;
	split(s->t, s->root, key, &l, &r);
	s->root = merge(s->t, merge(s->t, l, i), r);
	return 0;
}

/* The node with the greatest key <= addr whose range holds addr, or 0. */
static uint32_t tree_find(struct blocks *s, uint64_t addr)
{
	uint32_t i = s->cache, best = 0;

	if (i && s->t[i].key <= addr && addr < s->t[i].end)
		return i;
	for (i = s->root; i; )
		if (s->t[i].key <= addr) {
			best = i;
			i = s->t[i].right;
		} else {
			i = s->t[i].left;
		}
	if (best && addr < s->t[best].end)
		return s->cache = best;
	return 0;
}

/* ------------------------------------------------------------ records */

static void on_malloc(struct blocks *s, const struct dglog_record *rec)
{
	const struct dglog_block *m = &rec->u.block;
	struct block *b;

	if (dg_grow((void **)&s->b, &s->cap, s->n + 1, sizeof *s->b) < 0
	    || dg_grow((void **)&s->frames, &s->frames_cap,
		    s->n_frames + m->n_ips, sizeof *s->frames) < 0) {
		s->oom = 1;
		return;
	}
	b = &s->b[s->n];
	memset(b, 0, sizeof *b);
	b->addr = m->addr;
	b->size = m->size;
	b->alloc_icount = rec->icount;
	b->frames = s->n_frames;
	b->n_frames = m->n_ips;
	if (m->n_ips)
		memcpy(s->frames + s->n_frames, m->ips, m->n_ips * sizeof *m->ips);
	s->n_frames += m->n_ips;
	tree_remove(s, m->addr);
	uint64_t end = m->addr + m->size < m->addr ? UINT64_MAX : m->addr + m->size;
	if (tree_insert(s, m->addr, end, s->n) < 0)
		s->oom = 1;
	s->n++;
}

static void on_free(struct blocks *s, const struct dglog_record *rec)
{
	int64_t i = tree_remove(s, rec->u.block.addr);

	if (i >= 0) {
		s->b[i].freed = 1;
		s->b[i].free_icount = rec->icount;
	}
}

static void on_run(struct dglog *r, struct blocks *s, const struct dglog_run *u)
{
	const struct dglog_bbdef *d = dglog_bbdef(r, u->bbdef);

	if (!s->root)
		return;
	for (uint32_t k = 0; k < u->n_addrs; k++) {
		const struct dglog_access *a = &d->accesses[k];
		uint32_t i;
		if (u->addrs[k] == 0 && (a->flags & DG_AF_GUARDED))
			continue;
		if (!(i = tree_find(s, u->addrs[k])))
			continue;
		struct block *b = &s->b[s->t[i].block];
		if (a->dir == DG_ACC_WRITE) {
			b->writes++;
			b->write_bytes += a->size;
		} else {
			b->reads++;
			b->read_bytes += a->size;
		}
	}
}

/* ------------------------------------------------------------ output */

static void print_block(const struct blocks *s, const struct block *b)
{
	out_hex(b->addr);
	out_char(' ');
	out_dec(b->size);
	out_char(' ');
	out_dec(b->alloc_icount);
	out_char(' ');
	if (b->freed)
		out_dec(b->free_icount);
	else
		out_char('-');
	out_char(' ');
	out_dec(b->reads);
	out_char(' ');
	out_dec(b->writes);
	out_char(' ');
	out_dec(b->read_bytes);
	out_char(' ');
	out_dec(b->write_bytes);
	out_char(' ');
	for (uint64_t i = 0; i < b->n_frames; i++) {
		if (i)
			out_char(',');
		out_hex(s->frames[b->frames + i]);
	}
	if (b->n_frames == 0)
		out_char('-');
	out_char('\n');
}

int dump_blocks(struct dglog *r)
{
	struct dglog_record rec;
	struct blocks s;
	int n;

	memset(&s, 0, sizeof s);
	s.rng = 2463534242u;
	while ((n = dglog_next(r, &rec)) > 0 && !s.oom) {
		if (rec.type == DGLOG_RUN)
			on_run(r, &s, &rec.u.run);
		else if (rec.type == DG_R_MALLOC_BLOCK)
			on_malloc(&s, &rec);
		else if (rec.type == DG_R_FREE_BLOCK)
			on_free(&s, &rec);
	}
	if (s.oom) {
		snprintf(r->err, sizeof r->err, "%s: out of memory for heap blocks",
			 r->name);
		n = -1;
	}
	for (size_t i = 0; i < s.n; i++)
		print_block(&s, &s.b[i]);
	free(s.b);
	free(s.frames);
	free(s.t);
	return n;
}
