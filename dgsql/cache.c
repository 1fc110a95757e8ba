/* cache.c: see cache.h.
 *
 * One pass over the accesses; each is counted against its code address,
 * its heap block and its cache line (a hash each, lib/dghash.h, to an
 * array of tallies; pages are their lines' sums), at every level it
 * reaches, and each miss in the map of misses over time and address.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "cache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "dgcache.h"
#include "dgreuse.h"
#include "dghash.h"
#include "dgmem.h"
#include "dgsqlfn.h"
#include "dgvtab.h"
#include "terms.h"

#define MAX_LEVELS 3
#define RBUCKETS   34           /* reuse distances: first touch, 0, then
				   [2^k, 2^(k+1)) for k < 32 */
#define EXACT      (1u << 20)   /* distances counted one by one below */
#define MAP_ROWS   8192         /* the misses' map at first: icount buckets
				   a run, */
#define MAP_CELL   8            /* 256-byte address cells (chunk_cells'), */
#define MAP_MAX    (1u << 18)   /* and at most this many cells (the tests
				   set fewer: $DGSQL_MAP_CELLS) */

/* The references and misses of one code address, block, page or line, by
   level and direction (0 read, 1 write). */
struct tally {
	int64_t a, b;                   /* what it counts (pc and module_id, ...) */
	uint64_t ref[MAX_LEVELS][2], miss[MAX_LEVELS][2];
	uint64_t merged;                /* writes merged into the read before */
};

#define MEMO 1024
#define RMEMO 256

struct tallies {
	struct dghash idx;              /* key -> index in t */
	struct tally *t;
	size_t n, cap;
	struct {                        /* the keys met lately, direct-mapped: */
		uint64_t key1;          /* key + 1 (0: none), */
		uint32_t i;             /* its index in t */
	} memo[MEMO];                   /* most accesses need no hash lookup */
};

struct sim {
	struct dgcache c[MAX_LEVELS];
	const char *name[MAX_LEVELS];
	int levels;
	struct tallies pc, block, page, line;
	unsigned line_bits;             /* the first level's line: cache_line's */
	uint64_t max_size;              /* the smallest line: larger is clamped */
	int summed;                     /* the first level's references come from
					   the summaries (sum_pc, blocks,
					   sum_pages, sum_lines): only misses
					   are tallied */
	struct {                        /* the access before, for the merge */
		int64_t icount, pc;
		uint64_t addr, size;
		int read;
	} prev;
	int64_t accesses;
	int oom;
	/* each level's misses by icount bucket and address cell, for the
	   plot of misses over the address x time picture: as fine as
	   MAP_MAX cells allow (map_coarsen) */
	struct {
		struct dghash idx;      /* key -> index in t */
		struct mcell {
			uint64_t key;   /* cell << 16 | bucket << 2 | level */
			uint64_t n[2];  /* read and write misses */
		} *t;
		size_t n, cap;
		int64_t base;           /* the trace's first icount */
		unsigned shift;         /* bucket = (icount - base) >> shift */
		unsigned cell_bits;     /* cell = addr >> cell_bits */
		int wider_next;         /* map_coarsen's next step */
		size_t max;             /* MAP_MAX */
		uint64_t last_key;      /* the last key + 1, and its index */
		uint32_t last_i;
	} map;
	/* I1=: instruction fetches, before each instruction's data accesses;
	   an I1 miss goes to the level below D1, as cachegrind's LL */
	struct {
		int on;
		struct dgcache c;
		struct tallies code;    /* by instruction address: ref/miss[0]
					   I1's, [l >= 1] level l's */
		uint32_t *ctx_bb;       /* context -> bbdef */
		uint64_t n_ctx;
		uint32_t *bb_first, *bb_n;      /* bbdef -> its instructions */
		uint64_t n_bb;
		uint64_t *addr;         /* the instructions, bbdef by bbdef */
		uint8_t *size;
		const uint64_t *run_addr;       /* the current run's */
		const uint8_t *run_size;
		uint32_t run_n, fetched;
		int64_t run_icount;
	} i;
	/* .reuse: each access's reuse distance instead of a cache */
	struct {
		int on;
		unsigned line_bits;
		uint64_t sample;        /* 0: every line; else lines whose hash's
					   top 24 bits are below it */
		double scale;           /* 1 / the rate */
		uint64_t refs;          /* references met, sampled or not */
		struct dgreuse r;
		uint64_t *exact;        /* accesses at distance d < EXACT */
		uint64_t hist[RBUCKETS][2];     /* by bucket and direction */
		struct {                /* by event: what each got is the counts at
					   its end less those at its start */
			struct rbound {
				int64_t t;      /* an icount where an event */
				uint32_t ev;    /* starts or ends */
				int end;
			} *b;
			size_t nb, at;          /* bounds, the next one */
			struct rtally *e;       /* (event id, 0) */
			size_t ne;
		} ev;
		struct rtallies {       /* by code address, block, thread */
			struct dghash idx;      /* key -> index in t */
			struct rtally {
				int64_t a, b;   /* (pc, module), (block, 0), ... */
				uint64_t n[RBUCKETS];
			} *t;
			size_t n, cap;
			struct {                /* keys met lately, direct-mapped */
				uint64_t key1;  /* key + 1 (0: none) */
				uint32_t i;     /* its index in t */
			} memo[RMEMO];
		} by[3];
	} ru;
};

static const char schema_sql[] =
	"CREATE TEMP TABLE IF NOT EXISTS cache_levels(level INTEGER, name TEXT, size INTEGER,"
	" ways INTEGER, line INTEGER);"
	"CREATE TEMP TABLE IF NOT EXISTS cache_pc(level INTEGER, pc INTEGER, module_id INTEGER,"
	" reads INTEGER, writes INTEGER, read_misses INTEGER, write_misses INTEGER);"
	"CREATE TEMP TABLE IF NOT EXISTS cache_block(level INTEGER, block_id INTEGER,"
	" reads INTEGER, writes INTEGER, read_misses INTEGER, write_misses INTEGER);"
	"CREATE TEMP TABLE IF NOT EXISTS cache_page(level INTEGER, page INTEGER,"
	" reads INTEGER, writes INTEGER, read_misses INTEGER, write_misses INTEGER);"
	"CREATE TEMP TABLE IF NOT EXISTS cache_line(level INTEGER, addr INTEGER,"
	" reads INTEGER, writes INTEGER, read_misses INTEGER, write_misses INTEGER);"
	"CREATE TEMP TABLE IF NOT EXISTS cache_code(level INTEGER, addr INTEGER,"
	" fetches INTEGER, misses INTEGER);"
	"CREATE TEMP TABLE IF NOT EXISTS cache_map(level INTEGER, addr INTEGER, icount INTEGER,"
	" read_misses INTEGER, write_misses INTEGER);"
	"CREATE TEMP TABLE IF NOT EXISTS reuse_hist(lo INTEGER, hi INTEGER, reads INTEGER,"
	" writes INTEGER);"
	"CREATE TEMP TABLE IF NOT EXISTS reuse_pc(pc INTEGER, module_id INTEGER, lo INTEGER,"
	" hi INTEGER, accesses INTEGER);"
	"CREATE TEMP TABLE IF NOT EXISTS reuse_block(block_id INTEGER, lo INTEGER, hi INTEGER,"
	" accesses INTEGER);"
	"CREATE TEMP TABLE IF NOT EXISTS reuse_thread(thread INTEGER, lo INTEGER, hi INTEGER,"
	" accesses INTEGER);"
	"CREATE TEMP TABLE IF NOT EXISTS reuse_event(event_id INTEGER, lo INTEGER, hi INTEGER,"
	" accesses INTEGER);"
	"CREATE TEMP TABLE IF NOT EXISTS reuse_mrc(lines INTEGER, bytes INTEGER, misses INTEGER,"
	" miss_ratio REAL);"
	"CREATE TEMP VIEW IF NOT EXISTS reuse_fn AS SELECT coalesce(f.name, '?') AS function,"
	" r.lo, r.hi, sum(r.accesses) AS accesses FROM temp.reuse_pc r"
	" LEFT JOIN pcs p ON p.pc = r.pc AND p.module_id = r.module_id"
	" LEFT JOIN functions f ON f.id = p.function_id GROUP BY f.id, r.lo;"
	"CREATE TEMP VIEW IF NOT EXISTS reuse_site AS SELECT b.alloc_stack_id AS site, r.lo, r.hi,"
	" sum(r.accesses) AS accesses FROM temp.reuse_block r JOIN blocks b ON b.id = r.block_id"
	" GROUP BY b.alloc_stack_id, r.lo;"
	"CREATE TEMP VIEW IF NOT EXISTS cache_src AS SELECT c.level, l.name, p.file, p.line,"
	" sum(c.reads) AS reads, sum(c.writes) AS writes, sum(c.read_misses) AS read_misses,"
	" sum(c.write_misses) AS write_misses FROM temp.cache_pc c"
	" JOIN temp.cache_levels l ON l.level = c.level"
	" LEFT JOIN pcs p ON p.pc = c.pc AND p.module_id = c.module_id"
	" GROUP BY c.level, p.file, p.line;"
	"CREATE TEMP VIEW IF NOT EXISTS cache_site AS SELECT c.level, b.alloc_stack_id AS site,"
	" count(*) AS blocks, sum(c.reads) AS reads, sum(c.writes) AS writes,"
	" sum(c.read_misses) AS read_misses, sum(c.write_misses) AS write_misses"
	" FROM temp.cache_block c JOIN blocks b ON b.id = c.block_id"
	" GROUP BY c.level, b.alloc_stack_id;"
	"CREATE TEMP VIEW IF NOT EXISTS cache_fn AS SELECT c.level, l.name,"
	" coalesce(f.name, '?') AS function, sum(c.reads) AS reads, sum(c.writes) AS writes,"
	" sum(c.read_misses) AS read_misses, sum(c.write_misses) AS write_misses"
	" FROM temp.cache_pc c JOIN temp.cache_levels l ON l.level = c.level"
	" LEFT JOIN pcs p ON p.pc = c.pc AND p.module_id = c.module_id"
	" LEFT JOIN functions f ON f.id = p.function_id GROUP BY c.level, f.id;";

int cache_install(sqlite3 *db, char **err)
{
	char *msg = NULL;

	if (sqlite3_exec(db, schema_sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	*err = sqlite3_mprintf("cache tables: %s", msg ? msg : sqlite3_errmsg(db));
	sqlite3_free(msg);
	return -1;
}

/* ------------------------------------------------------------ counting */

/* A code address and its module as one key: code addresses are
   user-space (< 2^48), module ids small (the hand-over, struct acc,
   carries them so too). */
#define PC_BITS 48

static uint64_t pc_key(int64_t pc, int64_t module)
{
	return ((uint64_t)pc & ((1ULL << PC_BITS) - 1)) | (uint64_t)module << PC_BITS;
}

/* The index of key in an array of elem-byte elements (*t, *n of them, room
   for *cap) that idx keys, the element made, zeroed, on first sight
   (*added); -1 when out of memory. */
static long keyed_slot(struct dghash *idx, void *t, size_t *n, size_t *cap, size_t elem,
		       uint64_t key, int *added)
{
	long slot = dghash_put(idx, key, (uint32_t)*n, added);

	if (slot < 0)
		return -1;
	if (!*added)
		return (long)idx->vals[slot];
	if (*n >= DGHASH_NONE - 1 || dg_grow(t, cap, *n + 1, elem) < 0)
		return -1;
	memset((char *)*(void **)t + *n * elem, 0, elem);
	return (long)(*n)++;
}

/* The tally of key (a, b), made on first sight; NULL when out of memory. */
static struct tally *tally_of(struct tallies *ts, uint64_t key, int64_t a, int64_t b)
{
	unsigned m = (unsigned)(dghash_mix(key) & (MEMO - 1));
	int added;
	long i;

	if (ts->memo[m].key1 == key + 1)
		return &ts->t[ts->memo[m].i];
	if ((i = keyed_slot(&ts->idx, &ts->t, &ts->n, &ts->cap, sizeof *ts->t, key, &added)) < 0)
		return NULL;
	if (added) {
		ts->t[i].a = a;
		ts->t[i].b = b;
	}
	ts->memo[m].key1 = key + 1;
	ts->memo[m].i = (uint32_t)i;
	return &ts->t[i];
}

/* The tallies of an access: its code address, its line (where it
   starts), its block, and its page when a line can cross pages (else
   pages_of_lines sums the lines after the scan, one lookup fewer an
   access); how many (0 when out of memory, which stops the scan). */
static int tallies_of(struct sim *s, struct tally **t, uint64_t addr, int64_t pc, int64_t module,
		      int has_block, int64_t block)
{
	int n = 0, page = s->line_bits > 12;

	t[n] = tally_of(&s->pc, pc_key(pc, module), pc, module);
	n += t[n] != NULL;
	if (page) {
		t[n] = tally_of(&s->page, addr >> 12, (int64_t)(addr >> 12), 0);
		n += t[n] != NULL;
	}
	t[n] = tally_of(&s->line, addr >> s->line_bits,
			(int64_t)(addr >> s->line_bits << s->line_bits), 0);
	n += t[n] != NULL;
	if (has_block) {
		t[n] = tally_of(&s->block, (uint64_t)block, block, 0);
		n += t[n] != NULL;
	}
	if (n == 2 + page + has_block)
		return n;
	__atomic_store_n(&s->oom, 1, __ATOMIC_RELAXED);   /* read by the decoding thread */
	return 0;
}

/* The pages' tallies as the sums of their lines'; 0, or -1 out of memory. */
static int pages_of_lines(struct sim *s)
{
	size_t i;
	int l, w;

	if (s->line_bits > 12)          /* tallied access by access */
		return 0;
	for (i = 0; i < s->line.n; i++) {
		const struct tally *ln = &s->line.t[i];
		uint64_t page = (uint64_t)ln->a >> 12;
		struct tally *pg = tally_of(&s->page, page, (int64_t)page, 0);

		if (!pg)
			return -1;
		for (l = 0; l < MAX_LEVELS; l++)
			for (w = 0; w < 2; w++) {
				pg->ref[l][w] += ln->ref[l][w];
				pg->miss[l][w] += ln->miss[l][w];
			}
		pg->merged += ln->merged;
	}
	return 0;
}

/* The map's key of a miss: cell << 16 | bucket << 2 | level.  Cells of
   user space (addresses < 2^48) have a key each; a kernel address may
   share one. */
static uint64_t map_key(const struct sim *s, int level, uint64_t addr, int64_t icount)
{
	uint64_t bucket = icount > s->map.base ? (uint64_t)(icount - s->map.base) >> s->map.shift : 0;

	return (addr >> s->map.cell_bits) << 16 | (bucket < 0x3fff ? bucket : 0x3fff) << 2 |
	       (uint64_t)level;
}

/* The map full: its cells twice as long in time, or (every other time)
   twice as wide, their counts merged; 0, or -1 out of memory.  So a long
   run or a wide one keeps a map of at most MAP_MAX cells, at the finest
   resolution that fits. */
static int map_coarsen(struct sim *s)
{
	int wider = s->map.wider_next;
	size_t i, k = 0;
	struct dghash idx;

	if (dghash_init(&idx, s->map.max / 2) < 0)
		return -1;
	s->map.cell_bits += wider;
	s->map.shift += !wider;
	s->map.wider_next = !wider;
	for (i = 0; i < s->map.n; i++) {
		uint64_t key = s->map.t[i].key, cell = key >> 16, rest = key & 0xffff;
		int added;
		long slot;

		/* the bucket (bits 2-15) or the cell halved */
		key = wider ? (cell >> 1) << 16 | rest : cell << 16 | (rest >> 3) << 2 | (rest & 3);
		if ((slot = dghash_put(&idx, key, (uint32_t)k, &added)) < 0) {
			dghash_free(&idx);
			return -1;
		}
		if (added) {
			s->map.t[k] = (struct mcell){ key, { s->map.t[i].n[0], s->map.t[i].n[1] } };
			k++;
		} else {
			s->map.t[idx.vals[slot]].n[0] += s->map.t[i].n[0];
			s->map.t[idx.vals[slot]].n[1] += s->map.t[i].n[1];
		}
	}
	dghash_free(&s->map.idx);
	s->map.idx = idx;
	s->map.n = k;
	s->map.last_key = 0;
	return 0;
}

/* A miss of level (0 I1, 1 D1, ...) at addr and icount into the map;
   0, or -1 out of memory. */
static int map_miss(struct sim *s, int level, uint64_t addr, int64_t icount, int w)
{
	uint64_t key = map_key(s, level, addr, icount);
	int added;
	long i;

	if (s->map.last_key != key + 1) {
		if (s->map.n >= s->map.max) {
			if (map_coarsen(s) < 0)
				return -1;
			key = map_key(s, level, addr, icount);
		}
		if ((i = keyed_slot(&s->map.idx, &s->map.t, &s->map.n, &s->map.cap,
				    sizeof *s->map.t, key, &added)) < 0)
			return -1;
		s->map.t[i].key = key;
		s->map.last_key = key + 1;
		s->map.last_i = (uint32_t)i;
	}
	s->map.t[s->map.last_i].n[w]++;
	return 0;
}

/* Instructions of the current run up to iseq `upto` (excluded) fetched:
   through I1, and a miss through the levels below D1. */
static void fetch_upto(struct sim *s, uint32_t upto)
{
	for (; s->i.fetched < upto && s->i.fetched < s->i.run_n; s->i.fetched++) {
		uint64_t a = s->i.run_addr[s->i.fetched], size = s->i.run_size[s->i.fetched];
		int64_t icount = s->i.run_icount + s->i.fetched;
		struct tally *t = tally_of(&s->i.code, a, (int64_t)a, 0);
		int miss, l;

		if (!t)
			goto oom;
		size = size ? size : 1;
		miss = dgcache_ref(&s->i.c, a, size);
		t->ref[0][0]++;
		t->miss[0][0] += (uint64_t)miss;
		if (miss && map_miss(s, 0, a, icount, 0) < 0)
			goto oom;
		for (l = 1; miss && l < s->levels; l++) {
			miss = dgcache_ref(&s->c[l], a, size);
			t->ref[l][0]++;
			t->miss[l][0] += (uint64_t)miss;
			if (miss && map_miss(s, l + 1, a, icount, 0) < 0)
				goto oom;
		}
	}
	return;
oom:
	__atomic_store_n(&s->oom, 1, __ATOMIC_RELAXED);
}

/* A run begins (dgvtab_scan_runs' marker): the last one's instructions
   fetched to its end, then this one's from its start. */
static void run_begins(struct sim *s, int64_t icount, uint64_t context, uint32_t n_instrs)
{
	uint32_t bb;

	fetch_upto(s, s->i.run_n);
	s->i.run_n = 0;
	s->i.fetched = 0;
	s->i.run_icount = icount;
	if (context >= s->i.n_ctx || (bb = s->i.ctx_bb[context]) >= s->i.n_bb)
		return;         /* the model checked them: cannot happen */
	s->i.run_addr = s->i.addr + s->i.bb_first[bb];
	s->i.run_size = s->i.size + s->i.bb_first[bb];
	s->i.run_n = n_instrs < s->i.bb_n[bb] ? n_instrs : s->i.bb_n[bb];
}

/* The bucket of distance d (DGREUSE_FIRST: 0). */
static int bucket(uint64_t d)
{
	int b;

	if (d == DGREUSE_FIRST)
		return 0;
	if (d == 0)
		return 1;
	b = 2 + (63 - __builtin_clzll(d));     /* 2^(b-2) <= d < 2^(b-1) */
	return b < RBUCKETS ? b : RBUCKETS - 1;
}

/* Bucket b of key (a, b2) counted once more; 0, or -1 out of memory. */
static int rtally_add(struct rtallies *r, uint64_t key, int64_t a, int64_t b2, int b)
{
	unsigned m = (unsigned)(key ^ key >> 8 ^ key >> 16) & (RMEMO - 1);
	int added;
	long i;

	if (r->memo[m].key1 != key + 1) {       /* met lately: no lookup */
		if ((i = keyed_slot(&r->idx, &r->t, &r->n, &r->cap, sizeof *r->t, key, &added)) < 0)
			return -1;
		if (added) {
			r->t[i].a = a;
			r->t[i].b = b2;
		}
		r->memo[m].key1 = key + 1;
		r->memo[m].i = (uint32_t)i;
	}
	r->t[r->memo[m].i].n[b]++;
	return 0;
}

/* The events starting or ending at or before icount take the counts so
   far (not the access at icount): an event's accesses are those of
   [start, end), whatever their thread. */
static void events_to(struct sim *s, int64_t icount)
{
	for (; s->ru.ev.at < s->ru.ev.nb && s->ru.ev.b[s->ru.ev.at].t <= icount; s->ru.ev.at++) {
		const struct rbound *bd = &s->ru.ev.b[s->ru.ev.at];
		uint64_t *n = s->ru.ev.e[bd->ev].n;
		int b;

		/* modulo 2^64: exact once the end is added (events_load keeps
		   no event that ends before it starts) */
		for (b = 0; b < RBUCKETS; b++) {
			uint64_t sofar = s->ru.hist[b][0] + s->ru.hist[b][1];

			n[b] += bd->end ? sofar : -sofar;
		}
	}
}

/* An access's reuse distance: its lines touched in turn, the largest of
   their distances (a fully associative LRU cache of C lines misses it iff
   that is >= C, or a first touch: the straddle rule), counted by
   direction, bucket, and code address, heap block and thread. */
static void reuse_one(struct sim *s, uint64_t addr, uint64_t size, int w, int64_t icount,
		      int64_t pc, int64_t module, int has_block, int64_t block, int64_t thread)
{
	uint64_t l = addr >> s->ru.line_bits, last = (addr + size - 1) >> s->ru.line_bits, d = 0;
	int b, any = 0;

	s->ru.refs++;
	for (;; l++) {
		/* sampled (SHARDS): only the lines whose hash falls under the
		   rate; a distance among them stands for 1/rate times as many */
		if (!s->ru.sample || (dghash_mix(l) >> 40) < s->ru.sample) {
			uint64_t dl = dgreuse_touch(&s->ru.r, l);

			if (s->ru.sample && dl != DGREUSE_FIRST)
				dl = (uint64_t)((double)dl * s->ru.scale);
			d = dl > d ? dl : d;
			any = 1;
		}
		if (l == last)
			break;
	}
	if (s->ru.r.oom)
		goto oom;
	if (!any)               /* none of its lines sampled */
		return;
	if (s->ru.ev.at < s->ru.ev.nb && s->ru.ev.b[s->ru.ev.at].t <= icount)
		events_to(s, icount);
	b = bucket(d);
	s->ru.hist[b][w]++;
	if (d < EXACT)
		s->ru.exact[d]++;
	if (rtally_add(&s->ru.by[0], pc_key(pc, module), pc, module, b) < 0 ||
	    (has_block && rtally_add(&s->ru.by[1], (uint64_t)block, block, 0, b) < 0) ||
	    rtally_add(&s->ru.by[2], (uint64_t)thread, thread, 0, b) < 0)
		goto oom;
	return;
oom:
	__atomic_store_n(&s->oom, 1, __ATOMIC_RELAXED);
}

/* One access through the levels, counted where it went.  As cachegrind:
   an access wider than the smallest line counts as that wide (its dirty
   helpers: FXSAVE's 512 bytes), and the write of a read-modify-write (the
   same instruction's next access, same address and size) is no reference
   of its own: the read stands for both (its line is the most recent
   then, so the write could only hit). */
static void one(struct sim *s, uint64_t addr, uint64_t size, int w, int64_t icount, int64_t pc,
		int64_t module, int has_block, int64_t block, int64_t thread)
{
	struct tally *t[4];
	int n = 0, i, l, miss;

	if (s->i.on)            /* its instruction fetched first */
		fetch_upto(s, (uint32_t)(icount - s->i.run_icount) + 1);
	if (size == 0)
		size = 1;
	if (size > s->max_size)
		size = s->max_size;
	s->accesses++;
	if (w && s->prev.read && s->prev.icount == icount && s->prev.pc == pc &&
	    s->prev.addr == addr && s->prev.size == size) {
		s->prev.read = 0;
		/* the summaries count it: it is taken off them */
		n = s->summed ? tallies_of(s, t, addr, pc, module, has_block, block) : 0;
		for (i = 0; i < n; i++)
			t[i]->merged++;
		return;
	}
	s->prev.icount = icount;
	s->prev.pc = pc;
	s->prev.addr = addr;
	s->prev.size = size;
	s->prev.read = !w;
	if (s->ru.on) {
		reuse_one(s, addr, size, w, icount, pc, module, has_block, block, thread);
		return;
	}

	/* most accesses hit the first level: with the summaries, no tally */
	miss = dgcache_ref(&s->c[0], addr, size);
	if (!s->summed || miss)
		n = tallies_of(s, t, addr, pc, module, has_block, block);
	for (i = 0; i < n; i++) {
		t[i]->ref[0][w] += !s->summed;
		t[i]->miss[0][w] += (uint64_t)miss;
	}
	if (miss && map_miss(s, 1, addr, icount, w) < 0)
		goto oom;
	for (l = 1; miss && l < s->levels; l++) {
		miss = dgcache_ref(&s->c[l], addr, size);
		for (i = 0; i < n; i++) {
			t[i]->ref[l][w]++;
			t[i]->miss[l][w] += (uint64_t)miss;
		}
		if (miss && map_miss(s, l + 1, addr, icount, w) < 0)
			goto oom;
	}
	return;
oom:
	__atomic_store_n(&s->oom, 1, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------ the pipeline */

/* The accesses are decoded on the calling thread and simulated on another
   (the simulation is one sequence; decoding it is 40 % of the time), in
   batches handed over through a ring of BATCHES. */
#define BATCH   16384
#define BATCHES 4
#define PREFETCH 8

/* 32 bytes: handing a batch to the other core costs as many bytes as it
   holds (96-byte rows made sort's .cache 1.4 times as slow as 48-byte
   ones), so each field is narrowed to what it can be:
   - the code address and its module in one word, as the tallies key
     them (code above 2^48 is counted at its low 48 bits);
   - the block id + 1 (0: none; an id from 2^32 - 1 on shares the last);
   - the size (clamped below anyway), and the flags above it;
   - the thread modulo 2^16.
   A run marker holds its context in block and its instructions in size. */
struct acc {
	uint64_t addr;
	int64_t icount;
	uint64_t pcm;           /* pc | module << 48 */
	uint32_t block1;
	uint16_t size_f;        /* size | ACC_WRITE | ACC_RUN */
	uint16_t thread;
};

_Static_assert(sizeof(struct acc) == 32, "struct acc: 32 bytes");

#define ACC_SIZE  0x3fff
#define ACC_WRITE 0x4000
#define ACC_RUN   0x8000

/* Sizes beyond the smallest line are clamped anyway (one()): 4096 at most. */
static uint16_t narrow_size(int64_t size)
{
	return (uint16_t)(size < 0 || size > ACC_SIZE ? ACC_SIZE : size);
}

static uint32_t narrow_block(int has_block, int64_t block)
{
	return !has_block ? 0 : block < 0 || block >= (int64_t)UINT32_MAX - 1 ? UINT32_MAX
		: (uint32_t)block + 1;
}

static struct acc make_acc(int64_t addr, int64_t size, int w, int64_t icount, int64_t pc,
			   int64_t module, int has_block, int64_t block, int64_t thread)
{
	return (struct acc){ (uint64_t)addr, icount, pc_key(pc, module),
			     narrow_block(has_block, block),
			     (uint16_t)(narrow_size(size) | (w ? ACC_WRITE : 0)), (uint16_t)thread };
}

struct pipe {
	struct sim *s;
	struct acc *b[BATCHES];
	size_t len[BATCHES];
	unsigned filled, done;          /* batches handed over, simulated */
	int end;                        /* no more batches */
	size_t at;                      /* accesses in batch `filled` so far */
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

static void *simulate(void *arg)
{
	struct pipe *p = arg;

	for (;;) {
		struct acc *a;
		size_t i, n;

		pthread_mutex_lock(&p->mu);
		while (p->done == p->filled && !p->end)
			pthread_cond_wait(&p->cv, &p->mu);
		if (p->done == p->filled) {
			pthread_mutex_unlock(&p->mu);
			return NULL;
		}
		a = p->b[p->done % BATCHES];
		n = p->len[p->done % BATCHES];
		pthread_mutex_unlock(&p->mu);
		for (i = 0; i < n && !__atomic_load_n(&p->s->oom, __ATOMIC_RELAXED); i++) {
			/* reuse: the line PREFETCH accesses on, whose lookup
			   misses the cache when it is not a recent one */
			if (p->s->ru.on && i + PREFETCH < n)
				dgreuse_prefetch(&p->s->ru.r, a[i + PREFETCH].addr >> p->s->ru.line_bits);
			if (a[i].size_f & ACC_RUN)
				run_begins(p->s, a[i].icount, a[i].block1, a[i].size_f & ACC_SIZE);
			else
				one(p->s, a[i].addr, a[i].size_f & ACC_SIZE, !!(a[i].size_f & ACC_WRITE),
				    a[i].icount, (int64_t)(a[i].pcm & ((1ULL << PC_BITS) - 1)),
				    (int64_t)(a[i].pcm >> PC_BITS), a[i].block1 != 0,
				    (int64_t)a[i].block1 - 1, a[i].thread);
		}
		pthread_mutex_lock(&p->mu);
		p->done++;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
}

/* Hands the batch being filled over (waits for a free one). */
static void hand_over(struct pipe *p)
{
	pthread_mutex_lock(&p->mu);
	p->len[p->filled % BATCHES] = p->at;
	p->filled++;
	pthread_cond_broadcast(&p->cv);
	while (p->filled - p->done == BATCHES)
		pthread_cond_wait(&p->cv, &p->mu);
	pthread_mutex_unlock(&p->mu);
	p->at = 0;
}

static struct acc *next_acc(struct pipe *p)
{
	if (p->at == BATCH)
		hand_over(p);
	return &p->b[p->filled % BATCHES][p->at++];
}

static int scan_rows(void *arg, const struct dgvtab_row *r, size_t n)
{
	struct pipe *p = arg;
	size_t i;

	for (i = 0; i < n; i++)
		*next_acc(p) = r[i].aseq < 0    /* a run marker (dgvtab_scan_runs) */
			? (struct acc){ 0, r[i].icount, 0, (uint32_t)r[i].context_id,
					(uint16_t)(narrow_size(r[i].size) | ACC_RUN), 0 }
			: make_acc(r[i].addr, r[i].size, r[i].is_write != 0, r[i].icount, r[i].pc,
				   r[i].module_id, r[i].has_block, r[i].block_id, r[i].thread);
	return __atomic_load_n(&p->s->oom, __ATOMIC_RELAXED);
}

/* filtered_accesses through SQLite, in the table's order. */
static int scan_filtered(sqlite3 *db, struct pipe *p, char **err)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT addr, size, is_write, icount, pc, module_id, block_id,"
			       " thread FROM filtered_accesses", -1, &st, NULL) != SQLITE_OK) {
		*err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && !__atomic_load_n(&p->s->oom, __ATOMIC_RELAXED))
		*next_acc(p) = make_acc(sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
					sqlite3_column_int(st, 2) != 0, sqlite3_column_int64(st, 3),
					sqlite3_column_int64(st, 4), sqlite3_column_int64(st, 5),
					sqlite3_column_type(st, 6) != SQLITE_NULL,
					sqlite3_column_int64(st, 6), sqlite3_column_int64(st, 7));
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		*err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

/* Every access of the table (or of filtered_accesses: in C when its
   condition is terms the table takes, terms.h) through s. */
static int scan(sqlite3 *db, struct sim *s, int filtered, char **err)
{
	struct dgvtab_term terms[DGVTAB_COUNT_TERMS];
	struct pipe p = { .s = s };
	pthread_t t;
	char *msg = NULL;
	int i, n = 0, rc = -1;

	for (i = 0; i < BATCHES; i++)
		if (!(p.b[i] = malloc(BATCH * sizeof *p.b[i]))) {
			*err = sqlite3_mprintf("out of memory");
			goto out;
		}
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	if (pthread_create(&t, NULL, simulate, &p) != 0) {
		*err = sqlite3_mprintf("cannot start the simulation's thread");
		goto destroy;
	}
	if (s->i.on)            /* never filtered (cache_run) */
		rc = dgvtab_scan_runs(db, "main", scan_rows, &p, &msg) == SQLITE_OK ? 0 : -1;
	else if (!filtered || terms_of_filter(db, terms, &n) == TERMS_ALL)
		rc = dgvtab_scan(db, "main", terms, n, -1, scan_rows, &p, &msg) == SQLITE_OK
		     ? 0 : -1;
	else                    /* SQL the table does not take */
		rc = scan_filtered(db, &p, err);
	if (rc < 0 && msg)
		*err = msg;
	else if (rc == 0 && s->oom) {   /* a tally could not grow: stopped */
		*err = sqlite3_mprintf("out of memory");
		rc = -1;
	}
	pthread_mutex_lock(&p.mu);
	p.len[p.filled % BATCHES] = p.at;
	p.filled++;
	p.end = 1;
	pthread_cond_broadcast(&p.cv);
	pthread_mutex_unlock(&p.mu);
	pthread_join(t, NULL);
	if (s->i.on)            /* the last run's instructions after its accesses */
		fetch_upto(s, s->i.run_n);
destroy:
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.cv);
out:
	for (i = 0; i < BATCHES; i++)
		free(p.b[i]);
	return rc;
}

/* ------------------------------------------------------------ the tables */

/* The instructions of every bbdef and the bbdef of every context, for
   the fetches. */
static int load_code(sqlite3 *db, struct sim *s, char **err)
{
	int64_t n_ctx = dgsqlfn_int(db, "SELECT coalesce(max(id), -1) + 1 FROM contexts");
	int64_t n_bb = dgsqlfn_int(db, "SELECT coalesce(max(id), -1) + 1 FROM bbdefs");
	int64_t n_ins = dgsqlfn_int(db, "SELECT count(*) FROM instrs");
	sqlite3_stmt *st = NULL;
	int64_t k = 0;
	int rc;

	if (n_ctx < 0 || n_bb < 0 || n_ins < 0) {
		*err = sqlite3_mprintf("I1: cannot read contexts, bbdefs and instrs: %s",
				       sqlite3_errmsg(db));
		return -1;
	}
	/* (a tampered id would make the arrays' sizes wrap) */
	if (n_ctx > UINT32_MAX || n_bb > UINT32_MAX || n_ins > UINT32_MAX) {
		*err = sqlite3_mprintf("I1: contexts, bbdefs or instrs: ids past 2^32 "
				       "(contexts to %lld, bbdefs to %lld)", (long long)n_ctx - 1,
				       (long long)n_bb - 1);
		return -1;
	}
	s->i.n_ctx = (uint64_t)n_ctx;
	s->i.n_bb = (uint64_t)n_bb;
	s->i.ctx_bb = malloc(((size_t)n_ctx + 1) * sizeof *s->i.ctx_bb);
	s->i.bb_first = calloc((size_t)n_bb + 1, sizeof *s->i.bb_first);
	s->i.bb_n = calloc((size_t)n_bb + 1, sizeof *s->i.bb_n);
	s->i.addr = malloc(((size_t)n_ins + 1) * sizeof *s->i.addr);
	s->i.size = malloc((size_t)n_ins + 1);
	if (!s->i.ctx_bb || !s->i.bb_first || !s->i.bb_n || !s->i.addr || !s->i.size) {
		*err = sqlite3_mprintf("I1: out of memory");
		return -1;
	}
	memset(s->i.ctx_bb, 0xff, ((size_t)n_ctx + 1) * sizeof *s->i.ctx_bb);
	if (sqlite3_prepare_v2(db, "SELECT id, bbdef_id FROM contexts", -1, &st, NULL) != SQLITE_OK)
		goto sql;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0), bb = sqlite3_column_int64(st, 1);

		if (id >= 0 && id < n_ctx && bb >= 0 && bb < n_bb)
			s->i.ctx_bb[id] = (uint32_t)bb;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE ||
	    sqlite3_prepare_v2(db, "SELECT bbdef_id, iseq, addr, size FROM instrs"
			       " ORDER BY bbdef_id, iseq", -1, &st, NULL) != SQLITE_OK)
		goto sql;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && k < n_ins) {
		int64_t bb = sqlite3_column_int64(st, 0), iseq = sqlite3_column_int64(st, 1);

		if (bb < 0 || bb >= n_bb || iseq != s->i.bb_n[bb]) {
			sqlite3_finalize(st);
			*err = sqlite3_mprintf("I1: instrs: bbdef %lld: instruction %lld out of "
					       "order", (long long)bb, (long long)iseq);
			return -1;
		}
		if (iseq == 0)
			s->i.bb_first[bb] = (uint32_t)k;
		s->i.bb_n[bb]++;
		s->i.addr[k] = (uint64_t)sqlite3_column_int64(st, 2);
		s->i.size[k++] = (uint8_t)sqlite3_column_int(st, 3);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE || rc == SQLITE_ROW)
		return 0;
sql:
	*err = sqlite3_mprintf("I1: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return -1;
}

/* cache_code: I1's fetches and misses (level 0), and those of the levels
   below D1 (level l + 1). */
static int put_code(sqlite3 *db, const struct sim *s, char **err)
{
	sqlite3_stmt *st = NULL;
	size_t i;
	int l, rc = SQLITE_OK;

	if (!s->i.on)
		return 0;
	if (sqlite3_prepare_v2(db, "INSERT INTO temp.cache_code VALUES (?, ?, ?, ?)", -1, &st,
			       NULL) != SQLITE_OK) {
		*err = sqlite3_mprintf("cache_code: %s", sqlite3_errmsg(db));
		return -1;
	}
	for (l = 0; l < s->levels && rc == SQLITE_OK; l++)
		for (i = 0; i < s->i.code.n && rc == SQLITE_OK; i++) {
			const struct tally *t = &s->i.code.t[i];

			if (!t->ref[l][0])
				continue;
			sqlite3_bind_int(st, 1, l ? l + 1 : 0);
			sqlite3_bind_int64(st, 2, t->a);
			sqlite3_bind_int64(st, 3, (int64_t)t->ref[l][0]);
			sqlite3_bind_int64(st, 4, (int64_t)t->miss[l][0]);
			rc = sqlite3_step(st) == SQLITE_DONE ? sqlite3_reset(st) : sqlite3_errcode(db);
		}
	if (rc != SQLITE_OK)
		*err = sqlite3_mprintf("cache_code: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc == SQLITE_OK ? 0 : -1;
}

/* Levels from `from` (0: the first) of the tallies ts into table. */
static int put(sqlite3 *db, const char *table, const char *cols, int two_keys, int from,
	       const struct sim *s, const struct tallies *ts, char **err)
{
	char *sql = sqlite3_mprintf("INSERT INTO temp.%s(level, %s, reads, writes, read_misses,"
				    " write_misses) VALUES (?, ?, %s?, ?, ?, ?)", table, cols,
				    two_keys ? "?, " : "");
	sqlite3_stmt *st = NULL;
	size_t i;
	int l, k, rc = SQLITE_OK;

	if (!sql || sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		*err = sqlite3_mprintf("%s: %s", table, sql ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_free(sql);
		return -1;
	}
	sqlite3_free(sql);
	for (l = from; l < s->levels && rc == SQLITE_OK; l++)
		for (i = 0; i < ts->n && rc == SQLITE_OK; i++) {
			const struct tally *t = &ts->t[i];

			if (!t->ref[l][0] && !t->ref[l][1])
				continue;
			k = 1;
			sqlite3_bind_int(st, k++, l + 1);
			sqlite3_bind_int64(st, k++, t->a);
			if (two_keys)
				sqlite3_bind_int64(st, k++, t->b);
			sqlite3_bind_int64(st, k++, (int64_t)t->ref[l][0]);
			sqlite3_bind_int64(st, k++, (int64_t)t->ref[l][1]);
			sqlite3_bind_int64(st, k++, (int64_t)t->miss[l][0]);
			sqlite3_bind_int64(st, k++, (int64_t)t->miss[l][1]);
			rc = sqlite3_step(st) == SQLITE_DONE ? sqlite3_reset(st) : sqlite3_errcode(db);
		}
	if (rc != SQLITE_OK)
		*err = sqlite3_mprintf("%s: %s", table, sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc == SQLITE_OK ? 0 : -1;
}

/* The first level from the summaries: each code address's, block's,
   page's and 64-byte line's accesses (less the writes merged into a
   read), with the misses tallied (temp.dgc_first: kind 0 pc, 1 block,
   2 page, 3 line). */
static const char first_sql[] =
	"INSERT INTO temp.cache_pc SELECT 1, s.pc, s.module_id, s.r, s.w - coalesce(t.merged, 0),"
	"  coalesce(t.rm, 0), coalesce(t.wm, 0)"
	" FROM (SELECT pc, module_id, sum(accesses * (is_write = 0)) AS r,"
	"  sum(accesses * is_write) AS w FROM sum_pc GROUP BY pc, module_id) s"
	" LEFT JOIN temp.dgc_first t ON t.kind = 0 AND t.a = s.pc AND t.b = s.module_id;"
	"INSERT INTO temp.cache_block SELECT 1, b.id, b.reads, b.writes - coalesce(t.merged, 0),"
	"  coalesce(t.rm, 0), coalesce(t.wm, 0)"
	" FROM blocks b LEFT JOIN temp.dgc_first t ON t.kind = 1 AND t.a = b.id AND t.b = 0"
	" WHERE b.reads + b.writes > 0;"
	"INSERT INTO temp.cache_page SELECT 1, p.page, p.reads, p.writes - coalesce(t.merged, 0),"
	"  coalesce(t.rm, 0), coalesce(t.wm, 0)"
	" FROM sum_pages p LEFT JOIN temp.dgc_first t ON t.kind = 2 AND t.a = p.page AND t.b = 0;"
	"INSERT INTO temp.cache_line SELECT 1, l.line * 64, l.reads, l.writes - coalesce(t.merged, 0),"
	"  coalesce(t.rm, 0), coalesce(t.wm, 0)"
	" FROM sum_lines l LEFT JOIN temp.dgc_first t ON t.kind = 3 AND t.a = l.line * 64"
	"  AND t.b = 0;"
	"DROP TABLE temp.dgc_first;";

static int first_level(sqlite3 *db, const struct sim *s, char **err)
{
	const struct tallies *ts[4] = { &s->pc, &s->block, &s->page, &s->line };
	sqlite3_stmt *st = NULL;
	int k, rc = SQLITE_OK;
	size_t i;

	if (sqlite3_exec(db, "CREATE TEMP TABLE dgc_first(kind INTEGER, a INTEGER, b INTEGER,"
			 " merged INTEGER, rm INTEGER, wm INTEGER, PRIMARY KEY (kind, a, b))"
			 " WITHOUT ROWID", NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO temp.dgc_first VALUES (?, ?, ?, ?, ?, ?)", -1,
			       &st, NULL) != SQLITE_OK) {
		*err = sqlite3_mprintf("cache tables: %s", sqlite3_errmsg(db));
		sqlite3_finalize(st);
		return -1;
	}
	for (k = 0; k < 4 && rc == SQLITE_OK; k++)
		for (i = 0; i < ts[k]->n && rc == SQLITE_OK; i++) {
			const struct tally *t = &ts[k]->t[i];

			sqlite3_bind_int(st, 1, k);
			sqlite3_bind_int64(st, 2, t->a);
			sqlite3_bind_int64(st, 3, t->b);
			sqlite3_bind_int64(st, 4, (int64_t)t->merged);
			sqlite3_bind_int64(st, 5, (int64_t)t->miss[0][0]);
			sqlite3_bind_int64(st, 6, (int64_t)t->miss[0][1]);
			rc = sqlite3_step(st) == SQLITE_DONE ? sqlite3_reset(st) : sqlite3_errcode(db);
		}
	sqlite3_finalize(st);
	if (rc != SQLITE_OK || sqlite3_exec(db, first_sql, NULL, NULL, NULL) != SQLITE_OK) {
		*err = sqlite3_mprintf("cache tables: %s", sqlite3_errmsg(db));
		return -1;
	}
	return 0;
}

/* cache_map: the misses by level, icount bucket and cell. */
static int put_map(sqlite3 *db, const struct sim *s, char **err)
{
	sqlite3_stmt *st = NULL;
	size_t i;
	int rc = SQLITE_OK;

	if (sqlite3_prepare_v2(db, "INSERT INTO temp.cache_map VALUES (?, ?, ?, ?, ?)", -1, &st,
			       NULL) != SQLITE_OK) {
		*err = sqlite3_mprintf("cache_map: %s", sqlite3_errmsg(db));
		return -1;
	}
	for (i = 0; i < s->map.n && rc == SQLITE_OK; i++) {
		const struct mcell *c = &s->map.t[i];

		sqlite3_bind_int(st, 1, (int)(c->key & 3));
		sqlite3_bind_int64(st, 2, (int64_t)(c->key >> 16 << s->map.cell_bits));
		sqlite3_bind_int64(st, 3, s->map.base + (int64_t)((c->key >> 2 & 0x3fff) << s->map.shift));
		sqlite3_bind_int64(st, 4, (int64_t)c->n[0]);
		sqlite3_bind_int64(st, 5, (int64_t)c->n[1]);
		rc = sqlite3_step(st) == SQLITE_DONE ? sqlite3_reset(st) : sqlite3_errcode(db);
	}
	if (rc != SQLITE_OK)
		*err = sqlite3_mprintf("cache_map: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc == SQLITE_OK ? 0 : -1;
}

static int store(sqlite3 *db, const struct sim *s, char **err)
{
	sqlite3_stmt *st = NULL;
	int l, rc = 0;

	if (sqlite3_exec(db, "SAVEPOINT dgcache; DELETE FROM temp.cache_levels;"
			 " DELETE FROM temp.cache_pc; DELETE FROM temp.cache_block;"
			 " DELETE FROM temp.cache_page; DELETE FROM temp.cache_code;"
			 " DELETE FROM temp.cache_line; DELETE FROM temp.cache_map;", NULL, NULL,
			 NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO temp.cache_levels VALUES (?, ?, ?, ?, ?)", -1,
			       &st, NULL) != SQLITE_OK) {
		*err = sqlite3_mprintf("cache tables: %s", sqlite3_errmsg(db));
		sqlite3_finalize(st);
		sqlite3_exec(db, "ROLLBACK TO dgcache; RELEASE dgcache;", NULL, NULL, NULL);
		return -1;
	}
	for (l = 0; l < s->levels && rc == 0; l++) {
		sqlite3_bind_int(st, 1, l + 1);
		sqlite3_bind_text(st, 2, s->name[l], -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, (int64_t)s->c[l].g.size);
		sqlite3_bind_int(st, 4, (int)s->c[l].g.ways);
		sqlite3_bind_int(st, 5, (int)s->c[l].g.line);
		rc = sqlite3_step(st) == SQLITE_DONE && sqlite3_reset(st) == SQLITE_OK ? 0 : -1;
	}
	if (rc == 0 && s->i.on) {
		sqlite3_bind_int(st, 1, 0);
		sqlite3_bind_text(st, 2, "I1", -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, (int64_t)s->i.c.g.size);
		sqlite3_bind_int(st, 4, (int)s->i.c.g.ways);
		sqlite3_bind_int(st, 5, (int)s->i.c.g.line);
		rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	}
	sqlite3_finalize(st);
	if (rc < 0)
		*err = sqlite3_mprintf("cache_levels: %s", sqlite3_errmsg(db));
	if (rc < 0 || (s->summed && first_level(db, s, err) < 0) ||
	    put(db, "cache_pc", "pc, module_id", 1, s->summed, s, &s->pc, err) < 0 ||
	    put(db, "cache_block", "block_id", 0, s->summed, s, &s->block, err) < 0 ||
	    put(db, "cache_page", "page", 0, s->summed, s, &s->page, err) < 0 ||
	    put(db, "cache_line", "addr", 0, s->summed, s, &s->line, err) < 0 ||
	    put_code(db, s, err) < 0 || put_map(db, s, err) < 0) {
		sqlite3_exec(db, "ROLLBACK TO dgcache; RELEASE dgcache;", NULL, NULL, NULL);
		return -1;
	}
	sqlite3_exec(db, "RELEASE dgcache;", NULL, NULL, NULL);
	return 0;
}

/* ------------------------------------------------------------ the command */

static void tallies_free(struct tallies *ts)
{
	dghash_free(&ts->idx);
	free(ts->t);
}

static void sim_free(struct sim *s)
{
	int l;

	for (l = 0; l < s->levels; l++)
		dgcache_free(&s->c[l]);
	tallies_free(&s->pc);
	tallies_free(&s->block);
	tallies_free(&s->page);
	tallies_free(&s->line);
	dghash_free(&s->map.idx);
	free(s->map.t);
	dgcache_free(&s->i.c);
	tallies_free(&s->i.code);
	free(s->i.ctx_bb);
	free(s->i.bb_first);
	free(s->i.bb_n);
	free(s->i.addr);
	free(s->i.size);
	dgreuse_free(&s->ru.r);
	for (l = 0; l < 3; l++) {
		dghash_free(&s->ru.by[l].idx);
		free(s->ru.by[l].t);
	}
	free(s->ru.exact);
	free(s->ru.ev.b);
	free(s->ru.ev.e);
}

/* The map's buckets: at most MAP_ROWS over the trace's icounts. */
static void map_span(sqlite3 *db, struct sim *s)
{
	int64_t lo = dgsqlfn_int(db, "SELECT coalesce(min(icount_lo), 0) FROM chunks");
	int64_t hi = dgsqlfn_int(db, "SELECT coalesce(max(icount_hi), 0) FROM chunks");

	s->map.base = lo > 0 ? lo : 0;
	s->map.cell_bits = MAP_CELL;
	s->map.max = getenv("DGSQL_MAP_CELLS") ? strtoul(getenv("DGSQL_MAP_CELLS"), NULL, 10) : 0;
	s->map.max = s->map.max >= 4 && s->map.max < MAP_MAX ? s->map.max : MAP_MAX;
	while (hi > s->map.base && s->map.shift < 62 &&
	       (uint64_t)(hi - s->map.base) >> s->map.shift >= MAP_ROWS)
		s->map.shift++;
}

/* "NAME=SIZE:WAYS:LINE", the next level: D1 first, then L2 and LL in
   that order, either left out. */
static int level(struct sim *s, const char *spec, int *last, char **err)
{
	static const char *const names[] = { "D1", "L2", "LL" };
	const char *eq = strchr(spec, '=');
	struct dgcache_geom g;
	int i;

	for (i = 0; eq && i < 3; i++)
		if ((size_t)(eq - spec) == strlen(names[i]) && !strncmp(spec, names[i], strlen(names[i])))
			break;
	if (!eq || i == 3 || (s->levels == 0) != (i == 0) || i <= *last) {
		*err = sqlite3_mprintf("'%s': expected D1=SIZE:WAYS:LINE, then L2= and LL= in that "
				       "order (as D1=32k:8:64 LL=8M:16:64)", spec);
		return -1;
	}
	if (dgcache_parse(names[i], eq + 1, &g, err) < 0)
		return -1;
	if (dgcache_init(&s->c[s->levels], &g) < 0) {
		*err = sqlite3_mprintf("'%s': out of memory", spec);
		return -1;
	}
	*last = i;
	s->name[s->levels++] = names[i];
	return 0;
}

int cache_run(sqlite3 *db, char *const *specs, int n, int filtered, int64_t *accesses,
	      char **err)
{
	struct sim s;
	struct dgcache_geom g;
	int i, rc = -1, last = -1;

	memset(&s, 0, sizeof s);
	if (n < 1 || n > MAX_LEVELS + 1) {
		*err = sqlite3_mprintf("expected 1 to %d levels: [I1=SIZE:WAYS:LINE] D1=... [L2=...] "
				       "[LL=...]", MAX_LEVELS + 1);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (!strncmp(specs[i], "I1=", 3)) {
			if (s.i.on) {
				*err = sqlite3_mprintf("'%s': I1 given twice", specs[i]);
				goto out;
			}
			if (dgcache_parse("I1", specs[i] + 3, &g, err) < 0)
				goto out;
			if (dgcache_init(&s.i.c, &g) < 0) {
				*err = sqlite3_mprintf("out of memory");
				goto out;
			}
			s.i.on = 1;
		} else if (level(&s, specs[i], &last, err) < 0)
			goto out;
	if (!s.levels) {
		*err = sqlite3_mprintf("expected D1=SIZE:WAYS:LINE: the data levels start with D1");
		goto out;
	}
	if (s.i.on && filtered) {
		*err = sqlite3_mprintf("I1: instruction fetches need the whole trace, not a filter");
		goto out;
	}
	/* every access: the first level's references are the summaries'
	   (sum_lines' are 64 bytes) */
	s.line_bits = (unsigned)__builtin_ctz(s.c[0].g.line);
	s.summed = !filtered && s.line_bits == 6 &&
		   dgsqlfn_int(db, "SELECT count(*) FROM sqlite_schema WHERE type = 'table'"
			       " AND name IN ('sum_pc', 'sum_pages', 'sum_lines')") == 3;
	s.max_size = s.c[0].g.line;
	for (i = 1; i < s.levels; i++)
		s.max_size = s.c[i].g.line < s.max_size ? s.c[i].g.line : s.max_size;
	if (s.i.on && load_code(db, &s, err) < 0)
		goto out;
	if (dghash_init(&s.pc.idx, 1 << 12) < 0 || dghash_init(&s.block.idx, 1 << 12) < 0 ||
	    dghash_init(&s.page.idx, 1 << 12) < 0 || dghash_init(&s.i.code.idx, 1 << 12) < 0 ||
	    dghash_init(&s.line.idx, 1 << 12) < 0 || dghash_init(&s.map.idx, 1 << 12) < 0) {
		*err = sqlite3_mprintf("out of memory");
		goto out;
	}
	map_span(db, &s);
	if (scan(db, &s, filtered, err) < 0)
		goto out;
	if (pages_of_lines(&s) < 0) {
		*err = sqlite3_mprintf("out of memory");
		goto out;
	}
	rc = store(db, &s, err);
	*accesses = s.accesses;
out:
	sim_free(&s);
	return rc;
}

/* ------------------------------------------------------------ .reuse */

/* A bucket's distances [lo, hi) as SQL values (the first touch: NULLs). */
static void bind_bucket(sqlite3_stmt *st, int col, int b)
{
	if (b == 0) {
		sqlite3_bind_null(st, col);
		sqlite3_bind_null(st, col + 1);
	} else if (b == 1) {
		sqlite3_bind_int64(st, col, 0);
		sqlite3_bind_int64(st, col + 1, 1);
	} else {
		sqlite3_bind_int64(st, col, (int64_t)1 << (b - 2));
		sqlite3_bind_int64(st, col + 1, (int64_t)1 << (b - 1));
	}
}

/* The n tallies t into table (its key columns, one or two), bucket by
   bucket; an SQLite result code. */
static int rtally_put(sqlite3 *db, const char *table, int two_keys, const struct rtally *t,
		      size_t n)
{
	char *sql = sqlite3_mprintf("INSERT INTO temp.%s VALUES (?, %s?, ?, ?)", table,
				    two_keys ? "?, " : "");
	sqlite3_stmt *st = NULL;
	int b, k, rc = sql ? sqlite3_prepare_v2(db, sql, -1, &st, NULL) : SQLITE_NOMEM;
	size_t i;

	sqlite3_free(sql);
	for (i = 0; i < n && rc == SQLITE_OK; i++)
		for (b = 0; b < RBUCKETS && rc == SQLITE_OK; b++) {
			if (!t[i].n[b])
				continue;
			k = 1;
			sqlite3_bind_int64(st, k++, t[i].a);
			if (two_keys)
				sqlite3_bind_int64(st, k++, t[i].b);
			bind_bucket(st, k, b);
			sqlite3_bind_int64(st, k + 2, (int64_t)t[i].n[b]);
			rc = sqlite3_step(st) == SQLITE_DONE ? sqlite3_reset(st) : SQLITE_ERROR;
		}
	sqlite3_finalize(st);
	return rc;
}

static int cmp_bound(const void *a, const void *b)
{
	const struct rbound *x = a, *y = b;

	return x->t < y->t ? -1 : x->t > y->t;
}

/* The events' starts and ends, in icount order (an event still open at
   the end ends with the trace; one that ends before it starts holds no
   access, and no bound). */
static int events_load(sqlite3 *db, struct sim *s, char **err)
{
	sqlite3_stmt *st;
	int64_t n = dgsqlfn_int(db, "SELECT count(*) FROM events");
	int rc;

	if (n <= 0)
		return 0;
	if ((uint64_t)n > SIZE_MAX / (2 * sizeof *s->ru.ev.b) ||
	    !(s->ru.ev.e = calloc((size_t)n, sizeof *s->ru.ev.e)) ||
	    !(s->ru.ev.b = malloc((size_t)n * 2 * sizeof *s->ru.ev.b))) {
		*err = sqlite3_mprintf("events: out of memory");
		return -1;
	}
	if (sqlite3_prepare_v2(db, "SELECT id, start_icount, coalesce(end_icount, 9223372036854775807)"
			       " FROM events", -1, &st, NULL) != SQLITE_OK) {
		*err = sqlite3_mprintf("events: %s", sqlite3_errmsg(db));
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && s->ru.ev.ne < (size_t)n) {
		size_t i = s->ru.ev.ne++;
		int64_t start = sqlite3_column_int64(st, 1), end = sqlite3_column_int64(st, 2);

		s->ru.ev.e[i].a = sqlite3_column_int64(st, 0);
		if (end < start)
			continue;
		s->ru.ev.b[s->ru.ev.nb++] = (struct rbound){ start, (uint32_t)i, 0 };
		s->ru.ev.b[s->ru.ev.nb++] = (struct rbound){ end, (uint32_t)i, 1 };
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		*err = sqlite3_mprintf("events: %s", sqlite3_errmsg(db));
		return -1;
	}
	qsort(s->ru.ev.b, s->ru.ev.nb, sizeof *s->ru.ev.b, cmp_bound);
	return 0;
}

static int reuse_store(sqlite3 *db, const struct sim *s, char **err)
{
	sqlite3_stmt *h = NULL, *m = NULL;
	uint64_t total = 0, beyond, d, misses, curve, cut;
	int64_t adj;
	int b, rc = SQLITE_OK;

	for (b = 0; b < RBUCKETS; b++)
		total += s->ru.hist[b][0] + s->ru.hist[b][1];
	if (sqlite3_exec(db, "SAVEPOINT dgreuse; DELETE FROM temp.reuse_hist;"
			 " DELETE FROM temp.reuse_pc; DELETE FROM temp.reuse_mrc;"
			 " DELETE FROM temp.reuse_block; DELETE FROM temp.reuse_thread;"
			 " DELETE FROM temp.reuse_event;", NULL, NULL,
			 NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO temp.reuse_hist VALUES (?, ?, ?, ?)", -1, &h,
			       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO temp.reuse_mrc VALUES (?, ?, ?, ?)", -1, &m,
			       NULL) != SQLITE_OK)
		goto fail;
	for (b = 0; b < RBUCKETS && rc == SQLITE_OK; b++) {
		if (!s->ru.hist[b][0] && !s->ru.hist[b][1])
			continue;
		bind_bucket(h, 1, b);
		sqlite3_bind_int64(h, 3, (int64_t)s->ru.hist[b][0]);
		sqlite3_bind_int64(h, 4, (int64_t)s->ru.hist[b][1]);
		rc = sqlite3_step(h) == SQLITE_DONE ? sqlite3_reset(h) : SQLITE_ERROR;
	}
	if (rc == SQLITE_OK)
		rc = rtally_put(db, "reuse_pc", 1, s->ru.by[0].t, s->ru.by[0].n);
	if (rc == SQLITE_OK)
		rc = rtally_put(db, "reuse_block", 0, s->ru.by[1].t, s->ru.by[1].n);
	if (rc == SQLITE_OK)
		rc = rtally_put(db, "reuse_thread", 0, s->ru.by[2].t, s->ru.by[2].n);
	if (rc == SQLITE_OK)
		rc = rtally_put(db, "reuse_event", 0, s->ru.ev.e, s->ru.ev.ne);
	/* the miss-ratio curve of a fully associative LRU cache of C lines:
	   the accesses at distance >= C or first; a row at every C the curve
	   drops at below EXACT, and at every power of two.  Sampled, the
	   curve is SHARDS_adj's (Waldspurger et al., FAST '15, 4.2): the
	   references the rate leads one to expect less those sampled are
	   counted as hits at the smallest distances, added or taken off, so
	   that a few hot lines in or out of the sample (a -O0 program's stack
	   line) do not tilt the whole curve */
	adj = s->ru.sample ? (int64_t)((double)s->ru.refs / s->ru.scale + 0.5) - (int64_t)total : 0;
	cut = adj < 0 ? (uint64_t)-adj : 0;
	curve = adj < 0 && cut > total ? 0 : (uint64_t)((int64_t)total + adj);
	misses = curve;
	beyond = total;
	for (d = 0; d < EXACT; d++)
		beyond -= s->ru.exact[d];
	for (d = 1; d <= EXACT && rc == SQLITE_OK; d++) {
		uint64_t kept = s->ru.exact[d - 1] + (d == 1 && adj > 0 ? (uint64_t)adj : 0);
		uint64_t off = kept < cut ? kept : cut;

		kept -= off;
		cut -= off;
		misses -= kept < misses ? kept : misses;        /* a cache of d lines keeps those */
		if (!kept && (d & (d - 1)))
			continue;
		sqlite3_bind_int64(m, 1, (int64_t)d);
		sqlite3_bind_int64(m, 2, (int64_t)d << s->ru.line_bits);
		sqlite3_bind_int64(m, 3, (int64_t)misses);
		sqlite3_bind_double(m, 4, curve ? (double)misses / (double)curve : 0.0);
		rc = sqlite3_step(m) == SQLITE_DONE ? sqlite3_reset(m) : SQLITE_ERROR;
	}
	/* past EXACT lines, by the log2 buckets */
	for (b = 2 + 21; b < RBUCKETS && rc == SQLITE_OK; b++) {
		beyond -= s->ru.hist[b - 1][0] + s->ru.hist[b - 1][1];
		sqlite3_bind_int64(m, 1, (int64_t)1 << (b - 2));
		sqlite3_bind_int64(m, 2, (int64_t)1 << (b - 2 + (int)s->ru.line_bits));
		sqlite3_bind_int64(m, 3, (int64_t)beyond);
		sqlite3_bind_double(m, 4, curve ? (double)beyond / (double)curve : 0.0);
		rc = sqlite3_step(m) == SQLITE_DONE ? sqlite3_reset(m) : SQLITE_ERROR;
	}
	if (rc != SQLITE_OK)
		goto fail;
	sqlite3_finalize(h);
	sqlite3_finalize(m);
	sqlite3_exec(db, "RELEASE dgreuse;", NULL, NULL, NULL);
	return 0;
fail:
	*err = sqlite3_mprintf("reuse tables: %s", sqlite3_errmsg(db));
	sqlite3_finalize(h);
	sqlite3_finalize(m);
	sqlite3_exec(db, "ROLLBACK TO dgreuse; RELEASE dgreuse;", NULL, NULL, NULL);
	return -1;
}

int cache_reuse(sqlite3 *db, unsigned line, double rate, int filtered, int64_t *accesses,
		char **err)
{
	struct sim s;
	int rc = -1;

	memset(&s, 0, sizeof s);
	if (line < 4 || line > 4096 || (line & (line - 1))) {
		*err = sqlite3_mprintf("the line, %u bytes, is not a power of two from 4 to 4096", line);
		return -1;
	}
	if (!(rate > 0 && rate <= 1)) {
		*err = sqlite3_mprintf("the sampling rate, %g, is not in (0, 1]", rate);
		return -1;
	}
	s.ru.on = 1;
	if (rate < 1) {
		s.ru.sample = (uint64_t)(rate * (double)(1 << 24));
		s.ru.sample += !s.ru.sample;
		s.ru.scale = (double)(1 << 24) / (double)s.ru.sample;
	}
	s.ru.line_bits = (unsigned)__builtin_ctz(line);
	s.max_size = line;
	if (dgreuse_init(&s.ru.r) < 0 || dghash_init(&s.ru.by[0].idx, 1 << 12) < 0 ||
	    dghash_init(&s.ru.by[1].idx, 1 << 12) < 0 || dghash_init(&s.ru.by[2].idx, 16) < 0 ||
	    !(s.ru.exact = calloc(EXACT, sizeof *s.ru.exact))) {
		*err = sqlite3_mprintf("out of memory");
		goto out;
	}
	if (events_load(db, &s, err) < 0 || scan(db, &s, filtered, err) < 0)
		goto out;
	events_to(&s, INT64_MAX);      /* the rest end after the last access */
	rc = reuse_store(db, &s, err);
	*accesses = s.accesses;
out:
	sim_free(&s);
	return rc;
}
