/* dg_defs.c: block definitions.  See dg_defs.h. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "dg_format.h"
#include "dg_defs.h"
#include "dg_out.h"
#include "dg_pairmap.h"

struct dg_bbdef *dg_bbdefs;
static UInt n_bbdefs, cap_bbdefs;
static UInt *written;              /* ids in the order their records went out */
static UInt n_written, cap_written;

static void defs_write(const struct dg_bbdef *d)
{
	UInt i;
	SizeT len = 1 + sizeof(Addr) + d->n_instrs * (sizeof(Addr) + 1)
	          + d->n_acc * 4 + 1;

	if (len < 255)
		dg_out_begin_short(DG_R_BBDEF);
	else
		dg_out_begin_long(DG_R_BBDEF);
	dg_out_u8(d->n_instrs);
	dg_out_word(d->n_acc);
	for (i = 0; i < d->n_instrs; i++) {
		dg_out_word(d->instrs[i].addr);
		dg_out_u8(d->instrs[i].size);
	}
	for (i = 0; i < d->n_acc; i++) {
		dg_out_u8(d->acc[i].dir);
		dg_out_u8(d->acc[i].size);
		dg_out_u8(d->acc[i].iseq);
	}
	for (i = 0; i < d->n_acc; i++)
		dg_out_u8(d->acc[i].flags);
	dg_out_u8(d->exit_kind);
	dg_out_end();
}

UInt dg_defs_add(const struct dg_instr *instrs, UInt n_instrs,
                 const struct dg_access *acc, UInt n_acc,
                 UChar exit_kind, Bool fn_entry)
{
	struct dg_bbdef *d;

	tl_assert(n_instrs >= 1 && n_instrs <= DG_MAX_INSTRS);
	if (n_bbdefs == cap_bbdefs) {
		cap_bbdefs = cap_bbdefs ? 2 * cap_bbdefs : 4096;
		dg_bbdefs = VG_(realloc)("dg.defs.table", dg_bbdefs,
		                         cap_bbdefs * sizeof *dg_bbdefs);
	}
	d = &dg_bbdefs[n_bbdefs];
	d->instrs = VG_(malloc)("dg.defs.instrs", n_instrs * sizeof *instrs);
	VG_(memcpy)(d->instrs, instrs, n_instrs * sizeof *instrs);
	d->acc = n_acc ? VG_(malloc)("dg.defs.acc", n_acc * sizeof *acc) : NULL;
	if (n_acc)
		VG_(memcpy)(d->acc, acc, n_acc * sizeof *acc);
	d->n_acc = n_acc;
	d->n_instrs = (UChar)n_instrs;
	d->exit_kind = exit_kind;
	d->fn_entry = fn_entry;
	d->sets_sp = False;
	d->n_extra = exit_kind == DG_EXIT_CALL ? 2 : 0;
	d->cache_node = DG_PAIRMAP_NONE;
	d->cache_ctx = 0;
	d->call_memo.parent = DG_PAIRMAP_NONE;
	d->file_index = DG_DEFS_UNWRITTEN;
	return n_bbdefs++;
}

UInt dg_defs_emit(UInt id)
{
	struct dg_bbdef *d = &dg_bbdefs[id];

	if (d->file_index != DG_DEFS_UNWRITTEN)
		return d->file_index;
	if (n_written == cap_written) {
		cap_written = cap_written ? 2 * cap_written : 4096;
		written = VG_(realloc)("dg.defs.written", written,
		                       cap_written * sizeof *written);
	}
	defs_write(d);
	written[n_written] = id;
	d->file_index = n_written;
	return n_written++;
}

void dg_defs_replay(void)
{
	UInt i;

	for (i = 0; i < n_written; i++)
		defs_write(&dg_bbdefs[written[i]]);
}
