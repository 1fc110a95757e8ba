/* cache.h: dgsql's .cache, a cache hierarchy simulated over the trace.
 *
 * Promise: cache_run simulates the levels it is given ("D1=32k:8:64",
 * then optionally "L2=..." and "LL=8M:16:64": each a lib/dgcache.h
 * geometry; and "I1=..." for the instruction fetches, below) over
 * filtered_accesses in the order they happened (the table's order:
 * chunks in execution order, every thread's, and a run's accesses in
 * instruction order), as cachegrind does: every access references the
 * first level, and an access that missed a level references the next
 * (the same address and size); a read-modify-write instruction's read
 * and write are two references, as the trace records them.  It then
 * refills the TEMP tables (cache_install makes them, empty, when a
 * session opens, so that queries over them answer before any .cache):
 *
 *   cache_levels(level, name, size, ways, line)          the hierarchy
 *   cache_pc(level, pc, module_id, reads, writes, read_misses, write_misses)
 *   cache_block(level, block_id, ...)                    heap blocks
 *   cache_page(level, page, ...)                         4 KiB pages
 *   cache_line(level, addr, ...)                         the first level's
 *                                                        lines (an access
 *                                                        counts where it
 *                                                        starts)
 *   cache_code(level, addr, fetches, misses)             with I1 (level 0)
 *   cache_map(level, addr, icount, read_misses, write_misses)
 *                            every level's misses (I1's too) by address
 *                            cell and icount bucket, at the cell's and the
 *                            bucket's start: what .plot --misses LEVEL
 *                            draws.  As fine as 2^18 cells allow: 256
 *                            bytes by an 8192th of the run at first, and
 *                            when full, twice as long, then twice as wide,
 *                            in turn ($DGSQL_MAP_CELLS sets fewer, for the
 *                            tests)
 *
 * reads and writes count the references a level got, misses those that
 * missed it; level 1 is D1.  With I1, every instruction of every run
 * (its context's bbdef's instrs, as many as the run executed) is fetched
 * before the run's data accesses of that instruction: through I1, and on
 * a miss through the levels below D1, as cachegrind's unified LL; it
 * needs the whole trace (dgvtab_scan_runs), not a filter.  Without a
 * filter the first level's references come from the summaries (sum_pc,
 * blocks, sum_pages, and sum_lines when the first level's lines are 64
 * bytes, else every access is tallied) less the merged writes, and only
 * misses are tallied.  The TEMP VIEW cache_fn(level, name,
 * function, reads, writes, read_misses, write_misses) sums cache_pc by
 * function (the innermost, inlined or not, at the pc), cache_src(level,
 * name, file, line, ...) by line of code (pcs.file, pcs.line: the pc's
 * own line, as cachegrind's), and cache_site
 * sums cache_block by allocation site (blocks.alloc_stack_id).  The canned
 * queries cache_misses, cache_by_block and cache_by_site read them.  An empty filter
 * gives empty tables.
 *
 * Ownership: the connection is the caller's; nothing is kept between
 * calls but the tables.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSQL_CACHE_H
#define DGSQL_CACHE_H

#include <stdint.h>
#include <sqlite3.h>

/* The empty tables and the view; 0, or -1 with *err (sqlite3_free). */
int cache_install(sqlite3 *db, char **err);

/* The levels' specifications ("D1=...", "LL=..."), n of them, over
   filtered_accesses (every access when !filtered: the table scanned
   without SQLite's row loop).  *accesses gets how many were simulated.
   0, or -1 with *err. */
int cache_run(sqlite3 *db, char *const *specs, int n, int filtered, int64_t *accesses,
	      char **err);

/* .reuse [LINE]: every access's reuse distance (lib/dgreuse.h: the
   distinct LINE-byte lines touched since its line's previous touch; an
   access over two lines takes the larger; the same merge and clamp as
   the simulation) over filtered_accesses, into TEMP tables:
     reuse_hist(lo, hi, reads, writes)       by log2 bucket [lo, hi) of
                                             distance; lo NULL: first touch
     reuse_pc(pc, module_id, lo, hi, accesses), view reuse_fn(function,
                                             lo, hi, accesses)
     reuse_block(block_id, lo, hi, accesses) heap blocks, and the view
                                             reuse_site(site, lo, hi,
                                             accesses) by allocation site
     reuse_thread(thread, lo, hi, accesses)
     reuse_event(event_id, lo, hi, accesses) the accesses of [start, end) of
                                             each event, any thread's (one
                                             never ended: to the end)
     reuse_mrc(lines, bytes, misses, miss_ratio)  the miss-ratio curve of
                                             a fully associative LRU cache:
                                             exact at every size where it
                                             drops up to 2^20 lines, and
                                             at powers of two beyond
   With rate < 1, SHARDS's hashed sampling (Waldspurger et al., FAST
   '15): only the lines whose hash falls under the rate are tracked, their
   distances scaled by 1 / rate; the tables then count the sampled
   accesses (about rate of them), and the curve's ratio estimates the
   exact one, SHARDS_adj's way: the references the rate leads one to
   expect less those sampled count as hits at the smallest distances, so
   that a few hot lines in or out of the sample do not tilt the curve.
   Sizes below 1 / rate lines are not resolved.  0, or -1 with *err. */
int cache_reuse(sqlite3 *db, unsigned line, double rate, int filtered, int64_t *accesses,
		char **err);

#endif
