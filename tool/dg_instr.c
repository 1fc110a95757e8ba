/* dg_instr.c: the instrumentation pass.  See dg_instr.h.
 *
 * For a superblock with accesses a0..an-1 the generated code is, in C terms:
 *
 *     if (end + entry size > limit) dg_out_raw_full();   (dg_out.h)
 *     p = end;  end = p + entry size;
 *     p->head = DG_RAW_HEAD_OPEN(ID);
 *     ... p->addr[i] = address of ai, just before ai ...
 *     before each side exit taken after k instructions and m accesses:
 *         p->info = k | m << 8 | 1 << 31;  [p->sp = SP]
 *     at the end:
 *         [for calls: p->addr[n] = SP after the call,
 *         p->addr[n+1] = its target;]  [p->sp = SP;]  p->head = ID (info 0);
 *
 * with p->sp only in blocks that write SP (dg_recs.h): the SP a run leaves
 * with is the next run's entry SP, which the shadow stacks compare with
 * their top frame, and most runs leave SP as they found it.
 * end and limit are the open RAW record's, in the guest state (dg_out.h).
 * The entry is claimed whole at the start, so a side exit costs one store
 * (its info word) and the end one more (the head, a 64-bit store of a
 * 32-bit immediate, as is the opening head): the encoder skips the unused
 * words of an entry left early.  A run cut short by a fault keeps the
 * opening head, which the encoder drops, as the run was dropped when the
 * entry was claimed at its end.  The stores before a side exit are
 * overwritten when the exit is not taken, so no branch is needed.  A
 * guarded access stores ITE(guard, addr, 0).
 */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_machine.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_seqmatch.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_guest.h"
#include "dg_format.h"
#include "dg_instr.h"
#include "dg_defs.h"
#include "dg_recs.h"
#include "dg_out.h"
#include "dg_stream.h"
#include "dg_maps.h"
#include "dg_calls.h"

static const HChar *trace_fn;
static Bool lean;
static Bool lean_unwind;     /* lean code makes no entries at all */

void dg_instr_set_trace_fn(const HChar *pattern) { trace_fn = pattern; }
void dg_instr_set_lean(Bool on, Bool unwind)
{
	lean = on;
	lean_unwind = on && unwind;
}
Bool dg_instr_lean_unwind(void) { return lean_unwind; }
Bool dg_instr_lean(void) { return lean; }

/* One data access found in the input block. */
struct found {
	IRExpr *addr;
	IRExpr *guard;        /* NULL if unconditional */
	UInt    size;
	UChar   dir;
	UInt    iseq;
	Int     stmt;         /* index of the statement in the input block */
};

/* Scratch arrays, grown as needed; instrumentation is single-threaded. */
static struct found     *found;
static struct dg_access *acc;
static UInt cap_found;
static struct dg_instr instrs[DG_MAX_INSTRS];

static Int cur_stmt;   /* statement being described, for found_add */

static void found_add(UInt *n, IRExpr *addr, IRExpr *guard, UInt size,
                      UChar dir, UInt iseq)
{
	if (*n == cap_found) {
		cap_found = cap_found ? 2 * cap_found : 256;
		found = VG_(realloc)("dg.instr.found", found, cap_found * sizeof *found);
		acc = VG_(realloc)("dg.instr.acc", acc, cap_found * sizeof *acc);
	}
	found[*n].addr = addr;
	found[*n].guard = guard;
	found[*n].size = size;
	found[*n].dir = dir;
	found[*n].iseq = iseq;
	found[*n].stmt = cur_stmt;
	(*n)++;
}

static IRExpr *guard_or_null(IRExpr *g)
{
	if (g->tag == Iex_Const && g->Iex.Const.con->tag == Ico_U1
	    && g->Iex.Const.con->Ico.U1)
		return NULL;
	return g;
}

/* Append the accesses statement st makes, in the order it makes them. */
static void stmt_accesses(IRSB *sb, IRStmt *st, UInt *n, UInt iseq)
{
	IRType tw, tn;

	switch (st->tag) {
	case Ist_WrTmp:
		if (st->Ist.WrTmp.data->tag == Iex_Load)
			found_add(n, st->Ist.WrTmp.data->Iex.Load.addr, NULL,
			          sizeofIRType(st->Ist.WrTmp.data->Iex.Load.ty),
			          DG_ACC_READ, iseq);
		break;
	case Ist_Store:
		found_add(n, st->Ist.Store.addr, NULL,
		          sizeofIRType(typeOfIRExpr(sb->tyenv, st->Ist.Store.data)),
		          DG_ACC_WRITE, iseq);
		break;
	case Ist_LoadG:
		typeOfIRLoadGOp(st->Ist.LoadG.details->cvt, &tw, &tn);
		found_add(n, st->Ist.LoadG.details->addr,
		          guard_or_null(st->Ist.LoadG.details->guard),
		          sizeofIRType(tn), DG_ACC_READ, iseq);
		break;
	case Ist_StoreG:
		found_add(n, st->Ist.StoreG.details->addr,
		          guard_or_null(st->Ist.StoreG.details->guard),
		          sizeofIRType(typeOfIRExpr(sb->tyenv, st->Ist.StoreG.details->data)),
		          DG_ACC_WRITE, iseq);
		break;
	case Ist_CAS: {
		IRCAS *c = st->Ist.CAS.details;
		UInt sz = sizeofIRType(typeOfIRExpr(sb->tyenv, c->dataLo));
		if (c->dataHi)
			sz *= 2;
		found_add(n, c->addr, NULL, sz, DG_ACC_READ, iseq);
		found_add(n, c->addr, NULL, sz, DG_ACC_WRITE, iseq);
		break;
	}
	case Ist_LLSC:
		if (st->Ist.LLSC.storedata == NULL)
			found_add(n, st->Ist.LLSC.addr, NULL,
			          sizeofIRType(typeOfIRTemp(sb->tyenv, st->Ist.LLSC.result)),
			          DG_ACC_READ, iseq);
		else
			found_add(n, st->Ist.LLSC.addr, NULL,
			          sizeofIRType(typeOfIRExpr(sb->tyenv, st->Ist.LLSC.storedata)),
			          DG_ACC_WRITE, iseq);
		break;
	case Ist_Dirty: {
		IRDirty *d = st->Ist.Dirty.details;
		if (d->mFx == Ifx_None)
			break;
		if (d->mFx == Ifx_Read || d->mFx == Ifx_Modify)
			found_add(n, d->mAddr, guard_or_null(d->guard), d->mSize,
			          DG_ACC_READ, iseq);
		if (d->mFx == Ifx_Write || d->mFx == Ifx_Modify)
			found_add(n, d->mAddr, guard_or_null(d->guard), d->mSize,
			          DG_ACC_WRITE, iseq);
		break;
	}
	default:
		break;
	}
}

static UChar exit_kind_of(IRJumpKind jk)
{
	switch (jk) {
	case Ijk_Boring:  return DG_EXIT_JUMP;
	case Ijk_Call:    return DG_EXIT_CALL;
	case Ijk_Ret:     return DG_EXIT_RETURN;
	case Ijk_Sys_syscall:
	case Ijk_Sys_int32:
	case Ijk_Sys_int128:
	case Ijk_Sys_int129:
	case Ijk_Sys_int130:
	case Ijk_Sys_int145:
	case Ijk_Sys_int210:
	case Ijk_Sys_sysenter: return DG_EXIT_SYSCALL;
	default:          return DG_EXIT_OTHER;
	}
}

static Bool is_trace_fn_entry(Addr a)
{
	const HChar *name;

	return trace_fn
	    && VG_(get_fnname_if_entry)(VG_(current_DiEpoch)(), a, &name)
	    && VG_(string_match)(trace_fn, name);
}

/* Pass 1: instructions and accesses of sb_in. */
static UInt describe(IRSB *sb, UInt *n_instrs)
{
	UInt n = 0, ni = 0;
	Int i;

	for (i = 0; i < sb->stmts_used; i++) {
		IRStmt *st = sb->stmts[i];
		if (st->tag == Ist_IMark) {
			tl_assert(ni < DG_MAX_INSTRS);
			instrs[ni].addr = st->Ist.IMark.addr + st->Ist.IMark.delta;
			instrs[ni].size = (UChar)st->Ist.IMark.len;
			ni++;
		} else if (ni > 0) {
			cur_stmt = i;
			stmt_accesses(sb, st, &n, ni - 1);
		}
	}
	*n_instrs = ni;
	return n;
}

/* Does sb set the stack pointer to a value not computed from it (SP plus,
   minus or masked by something)?  longjmp, setcontext and `leave` do;
   after such a block the stack may be another one (dg_stack.c). */
static UChar *from_sp;     /* per IR temp: computed from SP */
static Int cap_from_sp;

static Bool is_from_sp(const IRExpr *e)
{
	return e->tag == Iex_RdTmp && from_sp[e->Iex.RdTmp.tmp];
}

static Bool sp_computed(const IRExpr *e, Int sp_off)
{
	if (e->tag == Iex_Get)
		return e->Iex.Get.offset == sp_off;
	if (e->tag == Iex_Binop && (e->Iex.Binop.op == Iop_Add64
	    || e->Iex.Binop.op == Iop_Sub64 || e->Iex.Binop.op == Iop_And64))
		return is_from_sp(e->Iex.Binop.arg1) || is_from_sp(e->Iex.Binop.arg2);
	return False;
}

static Bool sets_sp_anew(const IRSB *sb, Int sp_off)
{
	Int i;

	if (sb->tyenv->types_used > cap_from_sp) {
		cap_from_sp = sb->tyenv->types_used;
		from_sp = VG_(realloc)("dg.instr.fromsp", from_sp, cap_from_sp);
	}
	VG_(memset)(from_sp, 0, sb->tyenv->types_used);
	for (i = 0; i < sb->stmts_used; i++) {
		const IRStmt *st = sb->stmts[i];
		if (st->tag == Ist_WrTmp)
			from_sp[st->Ist.WrTmp.tmp] = sp_computed(st->Ist.WrTmp.data, sp_off);
		else if (st->tag == Ist_Put && st->Ist.Put.offset == sp_off
		         && !is_from_sp(st->Ist.Put.data))
			return True;
	}
	return False;
}

/* Does sb write SP at all (push, pop, call, return, frame set-up)?  Most
   runs are of blocks that do not: their entries leave SP out, since the
   encoder knows it (dg_recs.h). */
static Bool overlaps_sp(Int off, Int size, Int sp_off)
{
	return off < sp_off + (Int)sizeof(Addr) && sp_off < off + size;
}

static Bool writes_sp(const IRSB *sb, Int sp_off)
{
	Int i, j;

	for (i = 0; i < sb->stmts_used; i++) {
		const IRStmt *st = sb->stmts[i];
		if (st->tag == Ist_Put
		    && overlaps_sp(st->Ist.Put.offset,
		                   sizeofIRType(typeOfIRExpr(sb->tyenv, st->Ist.Put.data)),
		                   sp_off))
			return True;
		if (st->tag == Ist_PutI)
			return True;         /* (not on amd64) whatever it writes */
		if (st->tag == Ist_Dirty) {
			const IRDirty *d = st->Ist.Dirty.details;
			for (j = 0; j < d->nFxState; j++)
				if (d->fxState[j].fx != Ifx_Read
				    && overlaps_sp(d->fxState[j].offset,
				                   d->fxState[j].size
				                   + d->fxState[j].nRepeats
				                     * d->fxState[j].repeatLen,
				                   sp_off))
					return True;
		}
	}
	return False;
}

/* ------------------------------------------------------------ IR helpers */

static IRTemp tmp_add(IRSB *sb, IRTemp base, ULong off)
{
	IRTemp t = newIRTemp(sb->tyenv, Ity_I64);

	addStmtToIRSB(sb, IRStmt_WrTmp(t, IRExpr_Binop(Iop_Add64,
	              IRExpr_RdTmp(base), IRExpr_Const(IRConst_U64(off)))));
	return t;
}

static void store_at(IRSB *sb, IRTemp base, ULong off, IRExpr *data)
{
	addStmtToIRSB(sb, IRStmt_Store(Iend_LE,
	              IRExpr_RdTmp(tmp_add(sb, base, off)), data));
}

/* Where the open RAW record's end and limit are while generated code
   runs: the guest state's first shadow area (dg_out.h). */
static Int raw_gs_ptr, raw_gs_limit;

static IRTemp get_word(IRSB *sb, Int offset)
{
	IRTemp t = newIRTemp(sb->tyenv, Ity_I64);

	addStmtToIRSB(sb, IRStmt_WrTmp(t, IRExpr_Get(offset, Ity_I64)));
	return t;
}

/* Before a side exit: how far the run got. */
static void commit_exit(IRSB *sb, IRTemp p, UInt info)
{
	store_at(sb, p, 4, IRExpr_Const(IRConst_U32(info)));
}

/* The block's prologue: flush if the entry may not fit, then claim it
   whole, with the head that says it is not finished. */
static IRTemp prologue(IRSB *sb, UInt id, ULong entry_size)
{
	IRTemp p0 = get_word(sb, raw_gs_ptr), full = newIRTemp(sb->tyenv, Ity_I1);
	IRTemp p, lim, fits, end0 = p0;
	IRDirty *d;

	/* full = end of the entry past the limit; the word in the guest
	   state is the limit less DG_RAW_SLACK, so that for most blocks the
	   test is one compare of the record's end with it (the GET folds
	   into the compare as its memory operand) */
	if (entry_size > DG_RAW_SLACK)
		end0 = tmp_add(sb, p0, entry_size - DG_RAW_SLACK);
	lim = get_word(sb, raw_gs_limit);
	fits = newIRTemp(sb->tyenv, Ity_I1);
	addStmtToIRSB(sb, IRStmt_WrTmp(fits, IRExpr_Binop(Iop_CmpLE64U,
	              IRExpr_RdTmp(end0), IRExpr_RdTmp(lim))));
	addStmtToIRSB(sb, IRStmt_WrTmp(full, IRExpr_Unop(Iop_Not1,
	              IRExpr_RdTmp(fits))));
	d = unsafeIRDirty_0_N(0, "dg_out_raw_full",
	                      VG_(fnptr_to_fnentry)(&dg_out_raw_full),
	                      mkIRExprVec_0());
	d->guard = IRExpr_RdTmp(full);
	/* it moves the end and the limit: the reload below is not CSE'd */
	d->nFxState = 1;
	d->fxState[0].fx = Ifx_Modify;
	d->fxState[0].offset = raw_gs_ptr;
	d->fxState[0].size = 2 * sizeof(Addr);
	d->fxState[0].nRepeats = 0;
	d->fxState[0].repeatLen = 0;
	addStmtToIRSB(sb, IRStmt_Dirty(d));
	p = get_word(sb, raw_gs_ptr);
	addStmtToIRSB(sb, IRStmt_Put(raw_gs_ptr,
	              IRExpr_RdTmp(tmp_add(sb, p, entry_size))));
	store_at(sb, p, 0, IRExpr_Const(IRConst_U64(DG_RAW_HEAD_OPEN(id))));
	return p;
}

/* A block that writes SP says where SP is when it leaves (side exit or
   end): the next run's entry SP. */
static void store_exit_sp(IRSB *sb, IRTemp p, Int sp_offset)
{
	store_at(sb, p, DG_RAW_ADDRS - 8,
	         IRExpr_RdTmp(get_word(sb, sp_offset)));
}

static UInt addr_off;     /* of the block being instrumented (dg_defs.h) */

static void store_address(IRSB *sb, IRTemp p, UInt k)
{
	IRExpr *a = found[k].addr;

	if (found[k].guard) {
		IRTemp t = newIRTemp(sb->tyenv, Ity_I64);
		addStmtToIRSB(sb, IRStmt_WrTmp(t, IRExpr_ITE(found[k].guard, a,
		              IRExpr_Const(IRConst_U64(0)))));
		a = IRExpr_RdTmp(t);
	}
	store_at(sb, p, addr_off + 8 * (ULong)k, a);
}

/* ------------------------------------------------------------ lean */

/* Lean code counts itself into dg_lean_counts (dg_out.h: two words of
   the guest state, one instruction each to reach) where a run's raw
   entry would say how far it got: before each side exit and at the end,
   as the counts at its start plus the instructions run and one run.  A
   run cut short by a fault before any exit counts as nothing, like its
   raw entry. */
static Int lean_gs;

static void lean_count(IRSB *sb, const IRTemp *c0, UInt n_instrs)
{
	addStmtToIRSB(sb, IRStmt_Put(lean_gs,
	              IRExpr_RdTmp(tmp_add(sb, c0[0], n_instrs))));
	addStmtToIRSB(sb, IRStmt_Put(lean_gs + 8,
	              IRExpr_RdTmp(tmp_add(sb, c0[1], 1))));
}

/* A call block's last instruction is the call (blocks are not chased
   across calls: dg_main.c); a direct call's target is a constant. */
static void note_call(IRSB *sb, UInt n_instrs)
{
	const struct dg_instr *call = &instrs[n_instrs - 1];
	Addr target = 0;

	if (sb->next->tag == Iex_Const && sb->next->Iex.Const.con->tag == Ico_U64)
		target = sb->next->Iex.Const.con->Ico.U64;
	dg_calls_add(call->addr + call->size, call->addr, target);
}

static UInt define_bbdef(IRSB *sb, UInt n_instrs, UInt n_acc, UChar sp_flags)
{
	UInt k, id;

	for (k = 0; k < n_acc; k++) {
		acc[k].dir = found[k].dir;
		acc[k].size = found[k].size >= 255 ? 255 : (UChar)found[k].size;
		acc[k].iseq = (UChar)found[k].iseq;
		acc[k].flags = (found[k].guard ? DG_AF_GUARDED : 0)
		             | (found[k].size >= 255 ? DG_AF_CLAMPED : 0);
	}
	id = dg_defs_add(instrs, n_instrs, acc, n_acc, exit_kind_of(sb->jumpkind),
	                 is_trace_fn_entry(instrs[0].addr), sp_flags);
	dg_stream_def(id, &dg_bbdefs[id]);
	return id;
}

IRSB *dg_instrument(VgCallbackClosure *closure, IRSB *sb_in,
                    const VexGuestLayout *layout,
                    const VexGuestExtents *vge,
                    const VexArchInfo *archinfo_host,
                    IRType gWordTy, IRType hWordTy)
{
	UInt n_instrs, n_acc, id, k = 0, ni = 0;
	ULong entry_size;
	UInt n_extra;
	UChar sp_flags = 0;
	Bool wsp, entry = True;
	IRSB *sb;
	IRTemp p = IRTemp_INVALID, c0[2] = { IRTemp_INVALID, IRTemp_INVALID };
	Int i;

	if (gWordTy != Ity_I64 || hWordTy != Ity_I64)
		VG_(tool_panic)("datagrind: only 64-bit guests and hosts are supported");
	tl_assert(layout->total_sizeB == sizeof(VexGuestArchState));
	raw_gs_ptr = layout->total_sizeB + DG_RAW_GS_OFF;
	raw_gs_limit = raw_gs_ptr + sizeof(Addr);
	lean_gs = layout->total_sizeB + DG_LEAN_GS_OFF;
	n_acc = describe(sb_in, &n_instrs);
	if (n_instrs == 0)
		return sb_in;
	/* Valgrind's malloc wrappers (the preload) only pass the request to
	   the tool, through the stack: their accesses are ours, not the
	   program's.  Their runs stay, for the call stacks and the count. */
	if (dg_maps_in_preload(instrs[0].addr))
		n_acc = 0;
	if (writes_sp(sb_in, layout->offset_SP))
		sp_flags |= DG_DEFS_WRITES_SP;
	if (sets_sp_anew(sb_in, layout->offset_SP))
		sp_flags |= DG_DEFS_SETS_SP;
	wsp = (sp_flags & DG_DEFS_WRITES_SP) != 0;
	/* Lean: no accesses; an entry only where the call stacks need one
	   (a block that writes SP: calls, returns, frames made and left; a
	   --trace-fn entry), so the encoder sees every change of SP and of
	   the stack as a full translation would show it.  Or none, when the
	   tool unwinds the stacks it needs: then each call site is noted for
	   the unwinder (dg_calls.h). */
	if (lean) {
		Bool call = exit_kind_of(sb_in->jumpkind) == DG_EXIT_CALL;
		n_acc = 0;
		sp_flags |= DG_DEFS_LEAN;
		entry = (!lean_unwind && (wsp || call))
		        || is_trace_fn_entry(instrs[0].addr);
		if (lean_unwind && call)
			note_call(sb_in, n_instrs);
	}
	id = entry ? define_bbdef(sb_in, n_instrs, n_acc, sp_flags) : 0;
	tl_assert(id <= DG_RAW_ID_MASK);      /* bit 31 of the head is the open flag */
	n_extra = entry ? dg_bbdefs[id].n_extra : 0;
	addr_off = entry ? dg_bbdefs[id].addr_off : 0;
	entry_size = entry ? dg_bbdefs[id].raw_size : 0;

	sb = deepCopyIRSBExceptStmts(sb_in);
	for (i = 0; i < sb_in->stmts_used; i++) {
		IRStmt *st = sb_in->stmts[i];

		if (st->tag == Ist_IMark) {
			addStmtToIRSB(sb, st);
			if (ni++ == 0 && entry)
				p = prologue(sb, id, entry_size);
			if (ni == 1 && lean) {
				c0[0] = get_word(sb, lean_gs);
				c0[1] = get_word(sb, lean_gs + 8);
			}
			continue;
		}
		if (ni == 0) {               /* preamble before the first IMark */
			addStmtToIRSB(sb, st);
			continue;
		}
		if (st->tag == Ist_Exit && entry) {
			commit_exit(sb, p, ni | k << 8 | 1u << 31);
			if (wsp)
				store_exit_sp(sb, p, layout->offset_SP);
		}
		if (st->tag == Ist_Exit && lean)
			lean_count(sb, c0, ni);
		for (; k < n_acc && found[k].stmt == i; k++)
			store_address(sb, p, k);
		addStmtToIRSB(sb, st);
	}
	tl_assert(k == n_acc);
	if (lean)
		lean_count(sb, c0, n_instrs);
	if (!entry)
		return sb;
	if (n_extra == 2) {    /* a call: the pushed frame and where it goes */
		IRTemp sp = get_word(sb, layout->offset_SP);
		store_at(sb, p, addr_off + 8 * (ULong)n_acc, IRExpr_RdTmp(sp));
		store_at(sb, p, addr_off + 8 + 8 * (ULong)n_acc, sb->next);
	}
	if (wsp)
		store_exit_sp(sb, p, layout->offset_SP);
	/* the run is complete: info 0 */
	store_at(sb, p, 0, IRExpr_Const(IRConst_U64(id)));
	return sb;
}
