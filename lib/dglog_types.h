/* dglog_types.h: the types of the log reader (lib/dglog.h): the records
 * dglog_next fills in, and struct dglog, the reader itself.
 *
 * Promise: types and constants only; lib/dglog.h, which includes this,
 * declares the functions and says what a reader promises.  They stand in
 * a header of their own, below the reader's three modules (dglog_cur,
 * dglog_rec, dglog), so that all three read the reader's state with no
 * circle of includes.
 *
 * Ownership: as lib/dglog.h says: struct dglog owns everything it points
 * to; what a record points to is the reader's, valid until the next
 * dglog_next.  The private fields of struct dglog are the reader's
 * modules' alone; lib/dglog_cur.h defines the types they point to.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGLOG_TYPES_H
#define DGLOG_TYPES_H

#include <stddef.h>
#include <stdint.h>
#include "dg_format.h"

/* rec->type is a DG_R_* record type, or DGLOG_RUN for one run of a BBRUN or
 * BBRUNS record (rec->file_type then tells which), or DGLOG_UNKNOWN for a
 * record whose type this reader does not know (rec->file_type has it).
 * Compact records read as the records they stand for (rec->file_type
 * says which came): a CTXREF as a CONTEXT, a HEAP_MALLOC or HEAP_FREE as
 * an ICOUNT when it carries instructions, then, on the next call, as the
 * MALLOC_BLOCK or FREE_BLOCK (its ips stay valid until the call after). */
#define DGLOG_RUN      256
#define DGLOG_UNKNOWN  257

#define DGLOG_ERRLEN   512

struct dglog_instr {
	uint64_t addr;
	uint8_t size;
};

struct dglog_access {
	uint8_t dir;            /* DG_ACC_READ or DG_ACC_WRITE */
	uint8_t size;           /* bytes; 255 with DG_AF_CLAMPED */
	uint8_t iseq;           /* index in instrs, always < n_instrs */
	uint8_t flags;          /* DG_AF_*; 0 in version 1 */
};

struct dglog_bbdef {
	uint32_t n_instrs;      /* 1..255 */
	uint32_t n_accesses;
	uint8_t exit_kind;      /* DG_EXIT_*; 0 in version 1 */
	struct dglog_instr *instrs;
	struct dglog_access *accesses;
};

struct dglog_context {
	uint32_t bbdef;         /* bbdef index, always < number of bbdefs */
	uint32_t depth;
	uint64_t *stack;        /* stack[0] the block's first instruction */
};

/* One run of a context's block.  addrs[i] belongs to accesses[i] of the
 * bbdef; n_addrs <= its n_accesses and n_instrs <= its n_instrs.  The
 * instruction count of access i is icount_start + accesses[i].iseq, and
 * iseq < n_instrs for every access that ran. */
struct dglog_run {
	uint32_t thread;
	uint64_t icount_start;
	uint64_t context;
	uint32_t bbdef;
	uint32_t n_instrs;
	uint32_t n_addrs;
	int partial;            /* block left early (BBRUNS partial bit, or a
				   version 1 run with fewer addresses) */
	const uint64_t *addrs;
	uint64_t index;         /* run number in the file, from 0 */
};

struct dglog_header { uint8_t version, endian, word_size; };
struct dglog_range { uint64_t addr, len; const char *type_name, *label; };
struct dglog_event { const char *label; };
struct dglog_text_avma { uint64_t addr; const char *path; };
struct dglog_block {            /* MALLOC_BLOCK and FREE_BLOCK */
	uint64_t addr, size;    /* size 0 for FREE_BLOCK */
	uint64_t n_ips;         /* FREE_BLOCK: 0 in version 1 */
	const uint64_t *ips;
};
struct dglog_def {              /* BBDEF, CONTEXT */
	uint64_t index;
	const struct dglog_bbdef *bbdef;        /* BBDEF: the new one */
	const struct dglog_context *context;    /* CONTEXT: the new one */
};
struct dglog_thread { uint32_t tid; };
struct dglog_mmap {
	uint64_t start, len, offset, bias;
	uint8_t prot, build_id_len;
	const uint8_t *build_id;
	const char *path;
};
struct dglog_process {
	uint32_t pid, ppid, argc;
	const char *tool, *exe;
	const char *const *argv;
};
struct dglog_icount { uint64_t icount; };
struct dglog_trace_state { uint8_t on, reason; };
struct dglog_fini {
	uint64_t icount, runs, accesses, records, dropped_runs;
	uint8_t end;            /* DG_END_*; DG_END_UNKNOWN when absent */
	uint32_t status;
};
struct dglog_unknown { uint64_t len; const uint8_t *payload; };

struct dglog_record {
	int type;               /* DG_R_*, DGLOG_RUN or DGLOG_UNKNOWN */
	int file_type;          /* the type byte in the file */
	uint64_t offset;        /* byte offset of the record (of the run) */
	uint64_t number;        /* record number in the file, HEADER is 0 */
	uint32_t thread;        /* current thread (THREAD records) */
	uint64_t icount;        /* instruction count at this record */
	union {
		struct dglog_header header;
		struct dglog_range range;       /* TRACK/UNTRACK_RANGE */
		struct dglog_event event;       /* START/END_EVENT */
		struct dglog_text_avma text_avma;
		struct dglog_block block;       /* MALLOC/FREE_BLOCK */
		struct dglog_def def;           /* BBDEF/CONTEXT */
		struct dglog_run run;
		struct dglog_thread thread;
		struct dglog_mmap mmap;         /* MMAP/MUNMAP (start, len) */
		struct dglog_process process;
		struct dglog_icount icount;
		struct dglog_trace_state trace_state;
		struct dglog_fini fini;
		struct dglog_unknown unknown;
	} u;
};

struct dglog {
	/* public, read-only */
	char name[256];         /* file name used in messages */
	char err[DGLOG_ERRLEN]; /* the last error */
	int truncated;          /* the error was a log cut short */
	uint8_t version, endian, word_size;
	uint32_t thread;        /* current thread, 0 before any THREAD */
	uint64_t icount;        /* instructions counted so far */
	uint64_t n_records;     /* file records read (BBRUNS counts once) */
	uint64_t n_runs;
	uint64_t n_accesses;    /* addresses delivered, guarded zeros too */
	uint64_t n_unknown;     /* records skipped as unknown */
	uint64_t n_bbdefs, n_contexts;
	uint64_t rec_bytes;     /* file bytes of the last record read: type,
				   length and payload (of the BBRUNS a run
				   came from) */
	int saw_fini;
	struct dglog_fini fini; /* valid when saw_fini */

	/* private */
	int fd, own_fd, eof, failed;
	uint64_t rec_off, rec_number, run_off, fini_off;
	int rec_type;
	const uint8_t *mem;     /* memory input, or NULL */
	uint8_t *buf;           /* read buffer (fd input) */
	size_t bufcap, pos, end;
	const uint8_t *data;    /* buf or mem */
	uint64_t base;          /* file offset of data[0] */
	const uint8_t *runs, *runs_end;     /* inside a BBRUNS payload */
	uint64_t runs_prev, run_rec_off, runs_n;
	int runs_type;          /* DG_R_BBRUNS or DG_R_BBCHAINS */
	uint64_t chain_left;    /* runs of the open chain not yet delivered */
	struct dglog_bbdef **bbdefs;     /* one allocation each */
	/* contexts' stacks, as the log gives them: each its own frames
	   (ctx_frames[own..own + n_own)) and the rest those of an earlier
	   context from its frame 1 (a CTXREF), so that memory follows the
	   log's bytes, not contexts times depth; struct dglog_context is
	   made on demand in ctx_view (dglog_context, a CONTEXT record) */
	struct dglog_ctx_store *contexts;
	uint64_t *ctx_frames;
	size_t ctx_frames_n, ctx_frames_cap;
	struct dglog_ctx_view *ctx_view;
	/* per context, in one array: what decoding its runs reads (its
	   bbdef's counts, the run that last followed it, its predictor
	   slots), one cache line instead of three objects to chase */
	struct dglog_ctx_state *ctx_state;
	size_t bbdefs_cap, contexts_cap, ctx_state_cap;
	uint64_t *scratch;      /* addresses, frames of the record */
	size_t scratch_cap;
	/* heap records: the stacks they defined, the stack and address of
	   the last one, and a block waiting behind its ICOUNT */
	struct dglog_hstack *hstacks;
	size_t hstacks_cap;
	uint64_t n_hstacks;
	uint32_t heap_prev;
	uint64_t heap_addr;
	struct dglog_record pending;
	int has_pending;
	const char **argv;
	size_t argv_cap;
	int header_sent;
	/* where the input ends, when that is known (a regular file, memory):
	   a record claiming more is judged before anything is buffered */
	int size_known;
	uint64_t size;          /* bytes from the reader's start */
	int64_t fd_start;       /* file offset of the reader's byte 0 */
	uint64_t unknown_off;   /* the first unknown record, for messages */
	int unknown_type;
};

#endif /* DGLOG_TYPES_H */
