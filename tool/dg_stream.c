/* dg_stream.c: the tool's internal records.  See dg_stream.h. */
#include "pub_tool_basics.h"
#include "dg_stream.h"
#include "dg_defs.h"
#include "dg_out.h"

void dg_stream_ctl(UChar op, ULong a, ULong b, ULong c)
{
	dg_out_begin_short(DG_S_CTL);
	dg_out_u8(op);
	dg_out_u64(a);
	dg_out_u64(b);
	dg_out_u64(c);
	dg_out_end();
}

void dg_stream_def(UInt id, const struct dg_bbdef *d)
{
	UInt i;

	dg_out_begin_long(DG_S_DEF);
	dg_out_u32(id);
	dg_out_u8(d->n_instrs);
	dg_out_u32(d->n_acc);
	dg_out_u8(d->exit_kind);
	dg_out_u8(d->fn_entry);
	dg_out_u8((d->sets_sp ? DG_DEFS_SETS_SP : 0)
	          | (d->writes_sp ? DG_DEFS_WRITES_SP : 0)
	          | (d->lean ? DG_DEFS_LEAN : 0));
	for (i = 0; i < d->n_instrs; i++) {
		dg_out_u64(d->instrs[i].addr);
		dg_out_u8(d->instrs[i].size);
	}
	for (i = 0; i < d->n_acc; i++)
		dg_out_bytes_raw(&d->acc[i], sizeof d->acc[i]);
	dg_out_end();
}

void dg_stream_stack(UChar kind, ThreadId tid, UInt keep,
                     const struct dg_frame_in *f, UInt n)
{
	dg_out_begin_long(DG_S_STACK);
	dg_out_u8(kind);
	dg_out_u32(tid);
	dg_out_u32(keep);
	dg_out_u32(n);
	dg_out_bytes_raw(f, n * sizeof *f);
	dg_out_end();
}
