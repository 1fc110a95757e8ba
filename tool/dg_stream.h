/* dg_stream.h: the tool's side of the record stream to the encoder.
 *
 * Everything the encoder must know besides the runs goes in the stream as
 * internal records (their format is dg_recs.h), framed in dg_out's buffer
 * in order with the runs around them: a new bbdef as a DEF record, an
 * event as a CTL record, a stack the tool unwound as a STACK record.
 *
 * This module owns nothing but the writing of DEF, CTL and STACK records.
 */
#ifndef DG_STREAM_H
#define DG_STREAM_H

#include "pub_tool_basics.h"
#include "dg_recs.h"          /* enum dg_ctl, for the callers */

struct dg_bbdef;

void dg_stream_ctl(UChar op, ULong a, ULong b, ULong c);
void dg_stream_def(UInt id, const struct dg_bbdef *d);
/* kind: enum dg_stack_kind; f innermost first, on the last HEAP stack's
   outermost keep frames (dg_recs.h) */
void dg_stream_stack(UChar kind, ThreadId tid, UInt keep,
                     const struct dg_frame_in *f, UInt n);

#endif
