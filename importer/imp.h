/* imp.h: the importer's state, shared by its modules.
 *
 *   dg-import.c  the command line and signals: a shell over imp_import_file
 *   imp_import.c the import as a function: record type -> handler,
 *                progress, summary, compressed logs
 *   imp_db.c     the database: the target checked, written aside (0600,
 *                O_EXCL), schema, statements, rename; temporary files of
 *                dead imports reclaimed, ours removed on a signal
 *   imp_run.c    runs: where chunks start and end, per-access summaries
 *   imp_chunk.c  the chunk pipeline: whole chunks of runs handed to the
 *                writer thread (chunks encoded and written, with their
 *                cells, regions and contexts) and to the stages, each on
 *                a thread of its own
 *   imp_sum.c    a stage: sum_ctx, sum_ctx_miss
 *   imp_heap.c   heap blocks, tracked ranges, user events, threads
 *   imp_hsum.c   heap summaries: sum_heap, sum_heap_threads, sum_block_chunks
 *   imp_cls.c    access classes (modules on the stack, heap bit): the keys
 *                of sum_line_class and sum_window_class
 *   imp_win.c    a stage: the working set per window (sum_windows), and by
 *                class (it owns imp_cls's state while the pipeline runs);
 *                accesses by line (and class, page): sum_line_class,
 *                sum_lines, sum_pages
 *   imp_sym.c    modules, symbols (libdw through lib/dgsym), stacks
 *   imp_field.c  accesses to fields of types (lib/dgtypes): sum_field
 *   imp_pctype.c struct fields from the accessing instruction and the heap
 *                block (pc_types, site_types, site_fields)
 *
 * Calls go one way: imp_import -> imp_run -> imp_chunk, imp_sum, imp_heap ->
 * imp_sym -> imp_field -> imp_db; nothing calls back up (sum_fn_block_rest
 * rows are written by imp_heap's imp_fn_block_row, for imp_run's table;
 * imp_sym tells imp_field of a module whose code runs).
 *
 * This header holds what they share: struct importer and the records it
 * keeps (descriptors, blocks, ranges, events, threads), and the error
 * helpers below.  Each module's functions are in its own header
 * (imp_db.h, imp_run.h, imp_heap.h, imp_sym.h, imp_chunk.h, ...).
 *
 * One struct importer owns everything; importer_free (imp_import.c)
 * releases it.  Every function that can fail returns -1 and leaves a
 * message in imp->err ("trace.out: byte 8312: record #77 (bbdef): ..."
 * where the log is at fault, "trace.db: ..." where the database is).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef IMP_H
#define IMP_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sqlite3.h>
#include "dglog.h"
#include "dgchunk.h"
#include "dghash.h"

#define IMP_NONE       UINT32_MAX
#define IMP_CHUNK_MAX  65536       /* accesses in one chunk */
#define IMP_CHUNK_CODING DGCHUNK_NEAR   /* how they are coded (meta chunk_coding) */

/* One access descriptor of a bbdef, with the caches that make the common
   case (the same instruction hitting the same block, page and line as last
   time) cost a few compares. */
struct imp_desc {
	uint64_t pc;
	uint64_t count;            /* accesses made: sum_pc */
	uint32_t function;         /* functions.id, 0 if unknown */
	uint32_t module;           /* modules.id mapped at pc when defined, 0: none */
	uint8_t  is_write, size, iseq, guarded;
	uint32_t block;            /* last block hit */
	uint32_t fb_idx, fb_block; /* imp->fb[fb_idx] counts it while its
	                              block id is fb_block */
	uint64_t fb_n;             /* its accesses not yet added there */
	uint32_t bf_id;            /* block id (0: none) whose entry bf_i counts it
	                              (bf_i IMP_BLOCK_FNS_MAX: none, it is full) */
	uint8_t  bf_i;
	/* imp_field: the sum_field row (+1; 0 none) of its last access typed
	   by a range or a variable, for that type, field, variable, way and
	   thread */
	uint8_t  fld_how;
	uint32_t fld_row1, fld_type, fld_field, fld_var, fld_thread;
	uint64_t fld_gap_lo, fld_gap_hi;   /* no variable there (0, 0: unknown) */
	uint32_t fld_gen;          /* imp->fld_gen when the gap was found */
	uint32_t heap_thread;      /* heap_n counts its heap accesses in this
	                              thread (imp_hsum.c; 0: none yet) */
	uint64_t heap_n;
	uint32_t pct;              /* imp->pcts index + 1 of its pc's type, 0 none */
	/* imp_pctype: its accesses by way 'alloc', 'insn' (way 3, if pct) or
	   'heap' (way 4) not yet in sum_field (bt_how, enum imp_how): bt_n of
	   field bt_field of type bt_type, by thread bt_thread, the first and
	   last at these icounts */
	uint32_t bt_type, bt_field, bt_thread;
	uint8_t  bt_how;
	uint32_t heap_type;        /* the type (+1; 0: none yet) and the offset */
	uint64_t heap_off;         /* in it of its last block-typed access, */
	uint32_t heap_field;       /* its field there, ending at heap_fend, */
	uint64_t heap_fend;
	uint8_t  heap_raw;         /* raw bytes (char[N]) or not */
	uint64_t bt_n, bt_first, bt_last;
};

#define IMP_BLOCK_FNS 8     /* (function, direction) pairs counted inside a block */
#define IMP_BLOCK_FNS_MAX 64    /* ... and in its overflow array, at most */

/* Accesses counted by direction: blocks, ranges and events keep one. */
struct imp_rw { uint64_t n[2], bytes[2]; };   /* [0] reads, [1] writes */

static inline void imp_rw_add(struct imp_rw *rw, int is_write, uint64_t n, uint64_t bytes)
{
	rw->n[is_write] += n;
	rw->bytes[is_write] += bytes;
}

/* Bind reads, writes, read_bytes, write_bytes to parameters col..col+3. */
static inline void imp_rw_bind(sqlite3_stmt *st, int col, const struct imp_rw *rw)
{
	sqlite3_bind_int64(st, col, (int64_t)rw->n[0]);
	sqlite3_bind_int64(st, col + 1, (int64_t)rw->n[1]);
	sqlite3_bind_int64(st, col + 2, (int64_t)rw->bytes[0]);
	sqlite3_bind_int64(st, col + 3, (int64_t)rw->bytes[1]);
}

struct imp_fn_count { uint32_t fn; uint8_t is_write; uint64_t n, bytes; };

/* A heap block while it lives.  Its slot in imp->blocks is reused once its
   row is written (at free), so memory follows the live blocks, not all the
   blocks ever made; `id` is its row id in `blocks`. */
struct imp_block {
	uint64_t addr, size, alloc_icount, free_icount;
	uint32_t id;
	uint8_t n_fns;             /* used entries of fns, then of more */
	uint8_t cap_more, fns_full;    /* fns_full: no entry is added any more */
	struct imp_fn_count fns[IMP_BLOCK_FNS];
	struct imp_fn_count *more; /* entries IMP_BLOCK_FNS.. (malloc'ed on use) */
	struct imp_rw rw;
	uint64_t first, last;
	int64_t  alloc_stack, free_stack;
	uint32_t alloc_thread, free_thread;
	uint32_t next_in_page;     /* small blocks: list by start page */
	void    *hist;             /* 2 counters a bucket, allocated on use:
	                              bytes until one overflows, then
	                              uint32_t (hist_wide); see imp_block_hist */
	uint32_t hist_n;
	uint8_t  hist_shift, hist_wide, hist_lost, live, freed;
	uint32_t bc_chunk, bc_n;   /* accesses in chunk bc_chunk (imp_hsum.c) */
	struct imp_bc { uint32_t chunk, n; } *bc;   /* earlier chunks' */
	size_t n_bc, cap_bc;
	uint32_t vtype, votes;     /* imp_pctype: leading pcts index + 1, margin */
	uint8_t  vmixed;           /* votes for two types came: no type by votes */
	uint32_t apct, abase;      /* its allocation site's type (pcts index + 1,
	                              0: none) for the bytes [abase, abase + alimit) */
	uint64_t alimit;
};

/* Counter j of a block's histogram (2k: reads of bucket k, 2k + 1: writes). */
static inline uint32_t imp_block_hist(const struct imp_block *x, size_t j)
{
	return x->hist_wide ? ((const uint32_t *)x->hist)[j] : ((const uint8_t *)x->hist)[j];
}

struct imp_range {
	uint64_t addr, len, start_icount, end_icount;
	struct imp_rw rw;
	uint32_t thread;
	char *type_name, *label;
	uint32_t type_id;          /* types.id its type name gave, or 0 */
	int live;
};

struct imp_event {
	char *label;
	uint32_t thread;
	uint64_t start_icount, end_icount;
	struct imp_rw rw;
	int open;
};

/* A thread's runs and accesses, counted by the sum stage (imp_sum.h). */
struct imp_thread_runs {
	uint64_t first, last;      /* valid when it has runs */
	uint64_t runs, accesses;
	struct imp_rw rw;
	uint64_t first_access, last_access;   /* valid when rw has any */
};

struct imp_thread {
	uint32_t id;
	struct imp_thread_runs r;  /* filled by imp_sum_finish */
	uint64_t heap_n, heap_first, heap_last;   /* accesses in heap blocks */
	int known;                 /* named by a THREAD record */
};

/* ------------------------------------------------------------ the import */

/* What to import and how (dg-import's command line). */
struct imp_options {
	const char *log_path;      /* "-" for standard input */
	const char *db_path;       /* ignored with check_only */
	const char *debug_dirs;    /* --debug-dir: colon-separated, or NULL */
	int no_system_debug;       /* --no-system-debug: debug_dirs alone */
	int force, strict, check_only, quiet, progress;
	int no_fields;             /* --no-fields: imp->fld and imp->pct stay NULL */
	int threads;               /* --threads: threads in all, with the import
	                              thread (0: one per CPU it may run on) */
	/* Text meant for a person (summary, warnings, progress; lines end in
	   '\n', progress lines start with '\r'), or NULL to drop it. */
	void (*say)(const char *text, void *arg);
	void *say_arg;
};

enum { IMP_OK = 0, IMP_ERROR = 1, IMP_USAGE = 2, IMP_INCOMPLETE = 3 };

/* Import the log into the database (or only check it): IMP_OK, or
   IMP_INCOMPLETE (a truncated log: what was complete is imported), or
   IMP_ERROR with the message in err (no database was written, an existing
   one is untouched).  Allocates and frees everything it uses; may be called
   again in the same process. */
int imp_import_file(const struct imp_options *o, char *err, size_t errlen);
const char *imp_version(void);

/* Remove the temporary files of the import under way, if any (async-signal-
   safe: for a signal handler, which then re-raises the signal). */
void imp_db_signal_cleanup(void);

/* ------------------------------------------------------------ state */

struct imp_held;             /* a version 1 side record held back */

/* A function's identity (imp_sym.c); strings are dgsym's, interned. */
struct imp_fn {
	const char *name, *linkage, *decl_file;
	int decl_line, module, origin;
};

/* A node of the call tree: a frame, under its caller's frame's node. */
struct imp_callsite {
	uint64_t pc;
	uint32_t parent;           /* callsites.id of the caller's, 0: a root */
	uint32_t module;           /* modules.id mapped at pc then, 0: none */
	uint32_t next;             /* the next node in its hash bucket, 0: none */
	uint32_t stack;            /* the stack whose leaf it is, 0: none */
};

/* A frame of imp->path, and its node. */
struct imp_path { uint64_t pc; uint32_t module, node; };

struct imp_chunkw;           /* imp_chunk.c */

/* Statement slots for imp_db_stmt. */
enum {
	ST_BBDEF, ST_INSTR, ST_DESC,
	ST_BLOCK, ST_MAPPING, ST_MODULE, ST_FUNCTION,
	ST_PC, ST_INLINE, ST_TRACE, ST_MAPPING_UNMAP, ST_FNBLOCK,
	ST_PCTYPE, ST_SITETYPE, ST_SITEFIELD, ST_N
};

struct importer {
	/* options */
	const char *log_path, *db_path;
	const char *debug_dirs;    /* --debug-dir: colon-separated, or NULL */
	int no_system_debug;       /* --no-system-debug */
	int force, quiet, strict, check_only, progress, no_fields;
	int use_threads;           /* imp_options' threads, never 0 */
	void (*say)(const char *text, void *arg);
	void *say_arg;
	/* state */
	struct dglog log;
	sqlite3 *db;
	/* Held around every SQLite call once the chunk writer runs (two
	   threads share the connection, one at a time). */
	pthread_mutex_t db_lock __attribute__((aligned(64)));   /* a line of its own */
	sqlite3_stmt *stmts[ST_N] __attribute__((aligned(64)));   /* imp_db_stmt's, prepared on first use */
	sqlite3_str *index_sql;    /* the schema's CREATE INDEX, for the end */
	char *tmp_path;            /* set once we made the file */
	struct stat tmp_st;        /* its identity */
	char err[1024];
	uint64_t log_bytes;        /* size of the log, 0 if unknown (pipe) */

	/* definitions */
	struct imp_desc *descs;
	size_t n_descs, cap_descs;
	uint32_t *bbdef_desc;      /* first desc of each bbdef */
	uint8_t **bbdef_kinds;     /* IMP_K_* of each bbdef's n accesses, then
	                              their n iseqs, then their modules
	                              (imp_chunk.h), for the chunk writer and
	                              stages: never changed once made */
	size_t n_bbdefs, cap_bbdefs, cap_bbdef_kinds;
	uint32_t *ctx_bbdef;       /* bbdef of each context */
	size_t n_ctx, cap_ctx;

	/* runs and chunks (the chunk writer has the rest) */
	struct imp_chunkw *cw;
	uint32_t chunk_thread;
	uint64_t chunk_icount_lo, chunk_icount_next;
	uint64_t chunk_runs, chunk_accesses;
	uint64_t runs, accesses;
	uint64_t heap_accesses, heap_typed;   /* in live blocks; given a field */
	uint32_t chunk_id;         /* chunks.id of the chunk being filled */
	uint32_t run_thread;       /* the thread of the run being counted */
	struct imp_thread *run_t;  /* and its record */

	/* summaries */
	struct dghash fnblock;
	struct imp_sum *sum;       /* imp_sum.c: sum_ctx, sum_ctx_miss (the
	                              stage thread's while the pipeline runs) */
	struct imp_hsum *hsum;     /* imp_hsum.c: sum_heap, sum_heap_threads, sum_block_chunks */
	struct imp_cls *cls;       /* imp_cls.c: access classes, sum_class_modules
	                              (imp_win's stage thread's while the pipeline runs) */
	uint32_t *cls_words;       /* imp_cls_words' answer (the import thread's) */
	size_t cap_cls_words;
	struct imp_win *win;       /* imp_win.c: sum_windows, sum_window_class, sum_line_class */
	struct { uint32_t fn, block_id; uint8_t is_write; uint64_t n, bytes; } *fb;
	size_t cap_fb;

	/* heap, ranges, events, threads */
	struct imp_block *blocks;
	size_t n_blocks;            /* blocks made (the last id) */
	size_t n_slots, cap_blocks; /* slots of `blocks` in use or free */
	uint32_t *free_slots;
	size_t n_free_slots, cap_free_slots;
	struct dghash page_blocks;  /* start page -> first small block */
	uint64_t heap_lo, heap_hi;  /* span of every block ever allocated */
	uint32_t *large;           /* live blocks over a page, by address */
	size_t n_large, cap_large;
	struct imp_range *ranges;
	size_t n_ranges, cap_ranges, n_live_ranges, cap_live_ranges;
	uint32_t *live_ranges;     /* indexes of the tracked ranges */
	struct imp_event *events;
	size_t n_events, cap_events, n_open_events, cap_open_events;
	uint32_t *open_events;     /* indexes of the open events */
	struct imp_thread *threads;
	size_t n_threads;

	/* symbols and stacks (imp_sym.c) */
	struct dgsym *sym;
	struct dghash pc_fn;       /* pc_key -> function id (0: no function),
	                              once its `pcs` row is written */
	struct imp_fn *fns;        /* by function id - 1 */
	size_t cap_fns;
	/* Stacks as a call tree (imp_sym_stack): a node (`callsites` row) per
	   distinct caller's node, pc and module, the outermost frame a root;
	   a stack is its innermost frame's node, its leaf. */
	struct imp_callsite *callsites;   /* by callsites.id - 1 */
	size_t n_callsites, cap_callsites;
	uint32_t *callsite_heads;  /* hash of (parent, pc, module) -> the
	                              first node of the bucket, 0: none */
	size_t n_callsite_heads;   /* a power of two, >= n_callsites */
	uint32_t *stack_leaf;      /* by stack id - 1: its leaf, 0: no frames */
	size_t cap_stack_leaf;
	uint64_t n_stacks;
	uint32_t empty_stack;      /* the stack without frames, 0: none yet */
	struct imp_path *path;     /* the last stack interned, outermost frame
	                              first: a new one mostly shares its callers */
	size_t n_path, cap_path;
	struct dghash fn_ids;      /* hash of a function's identity -> id */
	uint64_t n_functions;
	uint64_t n_mappings;
	char *sym_info, *sym_warn; /* per-module lines for the user, or NULL */
	uint8_t *mod_used;         /* dgsym module -> has a symbolized pc */
	size_t cap_mod_used;

	/* fields of types (imp_field.c) */
	struct imp_field *fld;
	uint64_t fld_lo, fld_span;  /* the variables' span: imp_field_wanted */
	uint32_t fld_ranges;        /* live tracked ranges with a type name */
	uint32_t fld_gen;           /* bumped when variables are added */
	char *fld_warn;             /* lines for the user, or NULL */

	/* struct fields, ways 3 and 4 (imp_pctype.c) */
	struct imp_pctype *pct;
	struct imp_pct *pcts;      /* typed pcs; imp_desc.pct and votes index it */
	size_t n_pcts;

	/* version 1 side records held back (imp_import.c) */
	struct imp_held *held;
	size_t n_held, cap_held;

	/* meta */
	int complete;
	char incomplete_reason[512];
	struct dglog_process process;
	char *exe, *argv_json, *tool;
	uint32_t pid, ppid;
	int have_process;
};

/* The error helpers of every module (imp_db.c): a message in imp->err,
   and -1 to return. */
int  imp_fail(struct importer *imp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Text for a person through imp->say (nothing without one). */
void imp_say(const struct importer *imp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int  imp_db_fail(struct importer *imp, const char *what);

#endif
