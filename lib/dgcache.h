/* dgcache.h: a set-associative LRU cache, simulated as cachegrind does.
 *
 * Promise: dgcache_parse reads a geometry "SIZE:WAYS:LINE" (SIZE with an
 * optional k/K or m/M: KiB, MiB; every figure a power of two, LINE at
 * most SIZE / WAYS) or refuses it with a message naming the parameter.
 * A cache made from it starts empty and answers dgcache_ref with 1 for a
 * miss, 0 for a hit, the modelling of cachegrind's cg_sim.c: the set is
 * (address / LINE) modulo the sets, replacement is least recently used,
 * a miss allocates (reads and writes alike: write-allocate), and an
 * access that straddles lines touches each of them (all of them updated)
 * and is one miss if any of them missed.
 *
 * Ownership: the caller owns a struct dgcache (dgcache_free).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGCACHE_H
#define DGCACHE_H

#include <stdint.h>
#include <string.h>

struct dgcache_geom {
	uint64_t size;          /* bytes */
	unsigned ways, line;    /* lines a set, bytes a line */
};

struct dgcache {
	struct dgcache_geom g;
	unsigned line_bits;
	uint64_t set_mask;      /* sets - 1 */
	uint64_t *tags;         /* sets x ways: line number + 1, most recent
				   first; 0 an empty way */
};

/* "32k:8:64" into *g; 0, or -1 with *err (sqlite3_free) naming what
   (the name: "D1", "LL" ... for the message). */
int dgcache_parse(const char *name, const char *spec, struct dgcache_geom *g, char **err);

/* 0, or -1 (out of memory). */
int dgcache_init(struct dgcache *c, const struct dgcache_geom *g);
void dgcache_free(struct dgcache *c);

/* Line `line` looked up in its set and made the most recent: 1 if it was
   not there. */
static inline int dgcache_line(struct dgcache *c, uint64_t line)
{
	uint64_t *set = c->tags + (line & c->set_mask) * c->g.ways, tag = line + 1;
	unsigned i;

	if (set[0] == tag)
		return 0;
	for (i = 1; i < c->g.ways; i++)
		if (set[i] == tag) {
			memmove(set + 1, set, i * sizeof *set);
			set[0] = tag;
			return 0;
		}
	memmove(set + 1, set, (c->g.ways - 1) * sizeof *set);
	set[0] = tag;
	return 1;
}

/* An access of size bytes (>= 1) at addr: 1 if it missed. */
static inline int dgcache_ref(struct dgcache *c, uint64_t addr, uint64_t size)
{
	uint64_t l = addr >> c->line_bits, last = (addr + size - 1) >> c->line_bits;
	int miss = dgcache_line(c, l);

	while (l != last)       /* every line is looked up: each is updated */
		miss |= dgcache_line(c, ++l);
	return miss;
}

#endif
