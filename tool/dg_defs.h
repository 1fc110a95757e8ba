/* dg_defs.h: block definitions (bbdefs).
 *
 * Every translated superblock gets a bbdef: its instructions and its data
 * accesses in program order.  The table owns the definitions for the life of
 * the process (a run in the raw buffer names its bbdef by id, and a forked
 * child must write them all again).  The tool adds them (dg_defs_add) and
 * sends each to the encoder in a DEF record (dg_stream_def: the caller's
 * part, so that the table knows nothing of the stream above it); an
 * encoder in another process learns them from there (dg_defs_learn), with
 * the same ids.  The encoder's fields (file index, caches) are the
 * encoder's only.  A BBDEF record is written (by the encoder, dg_wr.h)
 * only when a run of the block is first written (dg_defs_emit), so a log
 * traced through a window does not carry every block the program
 * translated; the log's bbdef index is the order of writing, as the
 * format requires, and differs from the id.
 */
#ifndef DG_DEFS_H
#define DG_DEFS_H

#include "pub_tool_basics.h"
#include "dg_stack.h"

struct dg_instr  { Addr addr; UChar size; };
struct dg_access { UChar dir, size, iseq, flags; };

struct dg_bbdef {
	struct dg_instr  *instrs;
	struct dg_access *acc;
	UInt  n_acc;
	UChar n_instrs;
	UChar exit_kind;      /* enum dg_exit_kind */
	Bool  fn_entry;       /* first instruction starts a --trace-fn function */
	Bool  sets_sp;        /* sets SP to a value not computed from SP
	                         (longjmp, a context switch, `leave`) */
	Bool  writes_sp;      /* writes SP: its raw entries say SP at its exit */
	UChar n_extra;        /* words after the addresses in a full raw run:
	                         2 (SP, target) for calls, else 0 */
	UShort addr_off;      /* offset of the addresses in its raw entries */
	UShort raw_size;      /* size of its raw entries (dg_recs.h) */
	UInt  cache_node;     /* encoder: context of the last run of this bbdef */
	UInt  cache_ctx;
	struct dg_call_memo call_memo;   /* for call blocks */
	UInt  file_index;     /* index in the log, DG_DEFS_UNWRITTEN if none */
	Bool  lean;           /* a lean translation's (dg_instr.h): no
	                         accesses; its runs are counted by the tool */
};

#define DG_DEFS_UNWRITTEN 0xFFFFFFFFu
#define DG_DEFS_LINE      64     /* a bbdef's size and the table's alignment */

extern struct dg_bbdef *dg_bbdefs;     /* indexed by bbdef id */

/* What a block does to SP, and whether it is lean (the flags byte of a
   DEF record). */
#define DG_DEFS_SETS_SP    1     /* sets_sp */
#define DG_DEFS_WRITES_SP  2     /* writes_sp */
#define DG_DEFS_LEAN       4     /* lean */

/* A new bbdef; returns its id.  The tool's caller sends it on to the
   encoder (dg_stream_def); dg_defs_learn adds the ones it learns. */
UInt dg_defs_add(const struct dg_instr *instrs, UInt n_instrs,
                 const struct dg_access *acc, UInt n_acc,
                 UChar exit_kind, Bool fn_entry, UChar sp_flags);
/* The encoder: the payload of a DEF record [p, end); a bbdef the table
   has already (the tool's own, in the same process) is skipped.  Returns
   False if the record is malformed. */
Bool dg_defs_learn(const UChar *p, const UChar *end);
/* Write bbdef id's record now unless it was; returns its log index.  Call
   only between records. */
UInt dg_defs_emit(UInt id);
void dg_defs_replay(void);    /* write every written BBDEF again (forked child) */
/* The encoder's part of the table for a forked child (dg_enc.c): the ids
   in the order they were written.  Restoring resets the caches. */
const UInt *dg_defs_written(UInt *n);
void dg_defs_restore(const UInt *ids, UInt n);

#endif
