/* dg_instr.h: the instrumentation pass.
 *
 * dg_instrument describes each superblock as a bbdef and adds IR that
 * appends one raw entry per run to the encoder's buffer (layout in
 * dg_recs.h): the bbdef id at the start, each access's address as the access
 * happens, and the run's length before every exit.  No C call on the hot
 * path; one guarded call per block when the buffer is full.  Owns only
 * the --trace-fn pattern, whether translations are lean, and the scratch
 * arrays of the superblock being instrumented; the bbdefs it makes belong to dg_defs.h, and it sends
 * each on to the encoder (dg_stream.h).
 */
#ifndef DG_INSTR_H
#define DG_INSTR_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

/* --trace-fn pattern (Valgrind wildcards), or NULL. */
void dg_instr_set_trace_fn(const HChar *pattern);

/* Lean translations, for while tracing is off: no access is stored and
   most runs make no entry, only count themselves (dg_out.h's
   dg_lean_counts); the blocks that write SP (calls and returns among
   them) and --trace-fn entries make entries of lean bbdefs, without
   addresses, so that the encoder replays the call stacks exactly; or,
   with unwind, only --trace-fn entries do, and each call block is noted
   in dg_calls.h's table, for the stacks the tool unwinds instead.  The
   caller switches before translations are made, and discards those made
   the other way. */
void dg_instr_set_lean(Bool on, Bool unwind);
Bool dg_instr_lean(void);
Bool dg_instr_lean_unwind(void);    /* lean, and the stacks unwound */

IRSB *dg_instrument(VgCallbackClosure *closure, IRSB *sb_in,
                    const VexGuestLayout *layout,
                    const VexGuestExtents *vge,
                    const VexArchInfo *archinfo_host,
                    IRType gWordTy, IRType hWordTy);

#endif
