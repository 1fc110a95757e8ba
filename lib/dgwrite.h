/* dgwrite.h: a small writer of Datagrind logs, for tests and fuzz seeds.
 *
 * Promise: writes logs of version 1 or 2, either byte order, 4- or 8-byte
 * words, exactly as docs/FORMAT.md lays them out, into memory; including
 * version 2 BBRUNS with the address prediction.  It writes what it is told:
 * it does not check references (tests use it to make bad logs too), only
 * the layout.  Not used by the Valgrind tool, which has its own writer.
 *
 * Ownership: struct dgwrite owns the log bytes in w->buf (w->len of them)
 * until dgwrite_release; dgwrite_save writes them to a file.
 *
 * Runs given to dgwrite_run are gathered into one BBRUNS record (BBCHAINS
 * when w->chains is set), which is closed by any other record, by
 * dgwrite_flush_runs, or by dgwrite_finish.
 *
 * Every function returns 0, or -1 when memory ran out (then w->failed is set
 * and every later call does nothing and returns -1).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGWRITE_H
#define DGWRITE_H

#include <stddef.h>
#include <stdint.h>
#include "dg_format.h"
#include "dgcodec.h"

struct dgwrite_bytes {
	uint8_t *p;
	size_t len, cap;
};

struct dgwrite {
	uint8_t *buf;           /* the log so far */
	size_t len;
	int version, endian, word_size;
	int long_lengths;       /* 1: every length in the long form */
	int chains;             /* 1: runs go into BBCHAINS records */
	int failed;
	uint64_t n_records;     /* records written, HEADER included */
	uint64_t n_runs, n_accesses;    /* runs and addresses written */

	/* private */
	struct dgwrite_bytes log, pl, runs;
	uint32_t *bbdef_nacc;   /* n_accesses of each bbdef */
	size_t n_bbdefs, bbdefs_cap;
	uint64_t **ctx_pred;    /* per context: last, stride per access */
	uint32_t *ctx_nacc;
	struct dgc_next *ctx_next;      /* BBCHAINS: per context's successor */
	size_t n_contexts, contexts_cap;
	uint64_t runs_prev;
	struct dgc_chain chain;         /* BBCHAINS: previous run, open chain */
};

struct dgwrite_instr { uint64_t addr; uint8_t size; };
struct dgwrite_access { uint8_t dir, size, iseq, flags; };

/* Start a log and write its HEADER. */
int dgwrite_init(struct dgwrite *w, int version, int endian, int word_size);
void dgwrite_release(struct dgwrite *w);
/* Close a pending BBRUNS; w->buf, w->len then hold the whole log. */
int dgwrite_finish(struct dgwrite *w);
/* dgwrite_finish, then write the log to path; -1 with errno on failure. */
int dgwrite_save(struct dgwrite *w, const char *path);

/* A record with any type and payload (short types get payload[0]). */
int dgwrite_raw(struct dgwrite *w, int type, const void *payload, size_t len);

/* Bytes appended as they are, with no framing: for broken logs. */
int dgwrite_append(struct dgwrite *w, const void *p, size_t n);

/* Payload building, for records not covered below: begin, put fields,
 * end with the type. */
void dgwrite_begin(struct dgwrite *w);
void dgwrite_u8(struct dgwrite *w, uint64_t v);
void dgwrite_u32(struct dgwrite *w, uint64_t v);
void dgwrite_u64(struct dgwrite *w, uint64_t v);
void dgwrite_word(struct dgwrite *w, uint64_t v);
void dgwrite_str(struct dgwrite *w, const char *s);
void dgwrite_uleb(struct dgwrite *w, uint64_t v);
void dgwrite_sleb(struct dgwrite *w, uint64_t v);   /* word-size zigzag */
void dgwrite_bytes(struct dgwrite *w, const void *p, size_t n);
int dgwrite_end(struct dgwrite *w, int type);

int dgwrite_bbdef(struct dgwrite *w, unsigned n_instrs,
		  const struct dgwrite_instr *instrs, unsigned n_accesses,
		  const struct dgwrite_access *acc, int exit_kind);
int dgwrite_context(struct dgwrite *w, uint64_t bbdef, unsigned depth,
		    const uint64_t *stack);
/* A CTXREF (FORMAT.md 2.18): the fields as given, delta[0..n_new]. */
int dgwrite_ctxref(struct dgwrite *w, uint64_t bbdef, uint64_t back,
		   uint64_t keep, unsigned n_new, const uint64_t *delta);
/* Version 1 BBRUN record. */
int dgwrite_bbrun(struct dgwrite *w, uint64_t ctx, unsigned n_instrs,
		  unsigned n_addrs, const uint64_t *addrs);
/* One run into the pending BBRUNS.  partial 0 writes n_addrs addresses
 * (the caller passes the bbdef's counts); partial 1 also writes n_instrs
 * and n_addrs.  The context must have been written by dgwrite_context. */
int dgwrite_run(struct dgwrite *w, uint64_t ctx, int partial,
		unsigned n_instrs, unsigned n_addrs, const uint64_t *addrs);
int dgwrite_flush_runs(struct dgwrite *w);

int dgwrite_malloc(struct dgwrite *w, uint64_t addr, uint64_t size,
		   unsigned n_ips, const uint64_t *ips);
/* Version 1 writes only addr. */
int dgwrite_free(struct dgwrite *w, uint64_t addr, unsigned n_ips,
		 const uint64_t *ips);
/* A HEAP_MALLOC or HEAP_FREE (type; FORMAT.md 2.19), the fields as
 * given: with stack DG_HEAP_NEW the definition parent, n_new and
 * delta[0..n_new) follows it (deltas as word-size values); size only for
 * HEAP_MALLOC. */
int dgwrite_heap(struct dgwrite *w, int type, uint64_t icount_delta,
		 uint64_t stack, uint64_t parent, unsigned n_new,
		 const uint64_t *delta, uint64_t addr_delta, uint64_t size);
int dgwrite_track(struct dgwrite *w, uint64_t addr, uint64_t len,
		  const char *type_name, const char *label);
int dgwrite_untrack(struct dgwrite *w, uint64_t addr, uint64_t len);
int dgwrite_event(struct dgwrite *w, int type, const char *label);
int dgwrite_text_avma(struct dgwrite *w, uint64_t addr, const char *path);
int dgwrite_thread(struct dgwrite *w, uint32_t tid);
int dgwrite_mmap(struct dgwrite *w, uint64_t start, uint64_t len,
		 uint64_t offset, uint64_t bias, unsigned prot,
		 unsigned build_id_len, const uint8_t *build_id,
		 const char *path);
int dgwrite_munmap(struct dgwrite *w, uint64_t start, uint64_t len);
int dgwrite_process(struct dgwrite *w, uint32_t pid, uint32_t ppid,
		    const char *tool, const char *exe, unsigned argc,
		    const char *const *argv);
int dgwrite_icount(struct dgwrite *w, uint64_t icount);
int dgwrite_trace_state(struct dgwrite *w, unsigned on, unsigned reason);
int dgwrite_fini(struct dgwrite *w, uint64_t icount, uint64_t runs,
		 uint64_t accesses, uint64_t records, uint64_t dropped);

#endif /* DGWRITE_H */
