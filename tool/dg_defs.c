/* dg_defs.c: block definitions.  See dg_defs.h. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "dg_format.h"
#include "dg_defs.h"
#include "dg_recs.h"
#include "dg_wr.h"
#include "dg_pairmap.h"

struct dg_bbdef *dg_bbdefs;
static void *bbdefs_block;         /* dg_bbdefs' allocation (dg_bbdefs is
                                      its first cache line boundary) */
static UInt n_bbdefs, cap_bbdefs;
static UInt *written;              /* ids in the order their records went out */
static UInt n_written, cap_written;

static void defs_write(const struct dg_bbdef *d)
{
	UInt i;
	SizeT len = 1 + sizeof(Addr) + d->n_instrs * (sizeof(Addr) + 1)
	          + d->n_acc * 4 + 1;

	if (len < 255)
		dg_wr_begin_short(DG_R_BBDEF);
	else
		dg_wr_begin_long(DG_R_BBDEF);
	dg_wr_u8(d->n_instrs);
	dg_wr_u64(d->n_acc);
	for (i = 0; i < d->n_instrs; i++) {
		dg_wr_u64(d->instrs[i].addr);
		dg_wr_u8(d->instrs[i].size);
	}
	for (i = 0; i < d->n_acc; i++) {
		dg_wr_u8(d->acc[i].dir);
		dg_wr_u8(d->acc[i].size);
		dg_wr_u8(d->acc[i].iseq);
	}
	for (i = 0; i < d->n_acc; i++)
		dg_wr_u8(d->acc[i].flags);
	dg_wr_u8(d->exit_kind);
	dg_wr_end();
}

/* A bbdef is one cache line, and each starts one: the encoder reads a
   run's bbdef at random, one miss rather than two.  (Prefetching the
   next run's bbdef, whose id the raw ring holds, cost more than it saved
   on sort: helper CPU +4 %.) */
STATIC_ASSERT(sizeof(struct dg_bbdef) == DG_DEFS_LINE);

static void table_grow(void)
{
	void *block;
	struct dg_bbdef *t;

	cap_bbdefs = cap_bbdefs ? 2 * cap_bbdefs : 4096;
	block = VG_(malloc)("dg.defs.table",
	                    cap_bbdefs * sizeof *dg_bbdefs + DG_DEFS_LINE);
	t = (struct dg_bbdef *)VG_ROUNDUP((Addr)block, DG_DEFS_LINE);
	if (n_bbdefs)
		VG_(memcpy)(t, dg_bbdefs, n_bbdefs * sizeof *dg_bbdefs);
	if (bbdefs_block)
		VG_(free)(bbdefs_block);
	bbdefs_block = block;
	dg_bbdefs = t;
}

UInt dg_defs_add(const struct dg_instr *instrs, UInt n_instrs,
                 const struct dg_access *acc, UInt n_acc,
                 UChar exit_kind, Bool fn_entry, UChar sp_flags)
{
	struct dg_bbdef *d;

	tl_assert(n_instrs >= 1 && n_instrs <= DG_MAX_INSTRS);
	if (n_bbdefs == cap_bbdefs)
		table_grow();
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
	d->sets_sp = (sp_flags & DG_DEFS_SETS_SP) != 0;
	d->writes_sp = (sp_flags & DG_DEFS_WRITES_SP) != 0;
	d->lean = (sp_flags & DG_DEFS_LEAN) != 0;
	d->n_extra = exit_kind == DG_EXIT_CALL ? 2 : 0;
	d->addr_off = DG_RAW_ADDRS - (d->writes_sp ? 0 : 8);
	tl_assert(d->addr_off + 8 * ((SizeT)n_acc + d->n_extra) <= DG_RAW_ENTRY_MAX);
	d->raw_size = d->addr_off + 8 * (n_acc + d->n_extra);
	d->cache_node = DG_PAIRMAP_NONE;
	d->cache_ctx = 0;
	d->call_memo.parent = DG_PAIRMAP_NONE;
	d->file_index = DG_DEFS_UNWRITTEN;
	return n_bbdefs++;
}

/* The DEF layout is dg_stream_def's; the tool wrote it, so a bad one is
   our bug, but it is checked against the end all the same. */
Bool dg_defs_learn(const UChar *p, const UChar *end)
{
	struct dg_instr ins[DG_MAX_INSTRS];
	UInt id, n_acc, i;
	UChar ni, kind, fn, ssp;

	if (end - p < 12)
		return False;
	VG_(memcpy)(&id, p, 4);
	ni = p[4];
	VG_(memcpy)(&n_acc, p + 5, 4);
	kind = p[9];
	fn = p[10];
	ssp = p[11];
	p += 12;
	if (ni < 1   /* (a u8 cannot pass DG_MAX_INSTRS) */
	    || (SizeT)(end - p) != 9 * (SizeT)ni + 4 * (SizeT)n_acc)
		return False;
	if (id < n_bbdefs)
		return True;           /* the tool's own, in this process */
	if (id != n_bbdefs)
		return False;
	for (i = 0; i < ni; i++, p += 9) {
		VG_(memcpy)(&ins[i].addr, p, 8);
		ins[i].size = p[8];
	}
	dg_defs_add(ins, ni, (const struct dg_access *)p, n_acc, kind, fn, ssp);
	return True;
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

const UInt *dg_defs_written(UInt *n)
{
	*n = n_written;
	return written;
}

void dg_defs_restore(const UInt *ids, UInt n)
{
	UInt i;

	for (i = 0; i < n_bbdefs; i++) {
		dg_bbdefs[i].file_index = DG_DEFS_UNWRITTEN;
		dg_bbdefs[i].cache_node = DG_PAIRMAP_NONE;
		dg_bbdefs[i].call_memo.parent = DG_PAIRMAP_NONE;
	}
	n_written = 0;
	for (i = 0; i < n; i++) {
		tl_assert(ids[i] < n_bbdefs);
		if (n_written == cap_written) {
			cap_written = cap_written ? 2 * cap_written : 4096;
			written = VG_(realloc)("dg.defs.written", written,
			                       cap_written * sizeof *written);
		}
		written[n_written] = ids[i];
		dg_bbdefs[ids[i]].file_index = n_written++;
	}
}
