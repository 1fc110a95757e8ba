/* dgpctype.c: the type an instruction accesses (see dgpctype.h).
 *
 * A function is handled once, at its first question: its code range is
 * read from the ELF file and decoded from its entry to its end, the
 * variables of all its scopes (inlined ones too) are listed with their
 * location attributes, and the instruction tracker runs over it in address
 * order, recording for every instruction with a memory operand that
 * operand (base, index, displacement) and the type the tracker believes the
 * base register holds just before it.  The tracker ignores branches (it is
 * what perf does within a basic block, stretched over the function): at
 * -O0, where every pointer goes through a stack slot, that is exact; at
 * -O2 most pointers are named by location lists, which are asked first.
 * A question is then a binary search in that record, a location-list
 * look-up for the base register, or a frame-slot look-up.
 *
 * Types are kept as DIE offsets (0: unknown) and turned back into DIEs with
 * dwarf_offdie; a type in a type unit is not found that way and so stays
 * unknown, like anything else this cannot read.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "dgpctype.h"

#include <capstone/capstone.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dghash.h"
#include "dgmem.h"

#define NREG      16            /* rax..r15, DWARF numbers 0..15 */
#define REG_RSP   7
#define REG_RBP   6
#define REG_RIP   16
#define REG_NONE  (-1)
#define MAX_FN_BYTES (1u << 20) /* a bigger "function" is not decoded */
#define MAX_DEPTH 16            /* members nested deeper are not followed */

/* One instruction with a memory operand, and what the tracker believed. */
struct minsn {
	uint64_t addr;          /* session address */
	int64_t disp;
	int8_t base, index;     /* DWARF register numbers, REG_NONE */
	Dwarf_Off base_type;    /* tracked type of base before it, 0 unknown */
};

/* Where a variable is over [lo, hi) (DWARF addresses): in a register
   (DW_OP_regN, DW_OP_regx) or a frame slot (DW_OP_fbreg).  Location
   lists are read into these once per function: asking libdw at every pc
   parses the list again. */
struct vloc {
	Dwarf_Addr lo, hi;
	Dwarf_Op op;
	Dwarf_Off type;
	uint64_t size;          /* of the type: a frame slot's extent */
};

/* A decoded function range. */
struct fstate {
	Dwfl_Module *dm;
	Dwarf *dw;
	Dwarf_Addr cubias;      /* session address - DWARF address */
	Dwarf_Die fn;
	struct minsn *in;       /* by address */
	size_t nin;
	struct vloc *var;
	size_t nvar, capvar;
};

struct dgpctype {
	csh cs;
	cs_insn *insn;
	int8_t reg_of[X86_REG_ENDING];   /* capstone register -> DWARF, or -1 */
	uint8_t is64[X86_REG_ENDING];
	struct fstate *fs;
	size_t nfs, capfs;
	struct dghash fs_at;    /* range start ^ module -> index in fs */
	Dwfl_Module **mods;
	size_t nmods, capmods;
	struct dghash ret_at;   /* call target ^ module -> index in rets */
	Dwarf_Off *rets;
	size_t nrets, caprets;
};

/* ---------------------------------------------------------------- setup */

/* Capstone's names of the sixteen integer registers, in DWARF order, by
   width: 64, 32, 16, 8 bits. */
static const x86_reg gpr[NREG][4] = {
	{ X86_REG_RAX, X86_REG_EAX, X86_REG_AX, X86_REG_AL },
	{ X86_REG_RDX, X86_REG_EDX, X86_REG_DX, X86_REG_DL },
	{ X86_REG_RCX, X86_REG_ECX, X86_REG_CX, X86_REG_CL },
	{ X86_REG_RBX, X86_REG_EBX, X86_REG_BX, X86_REG_BL },
	{ X86_REG_RSI, X86_REG_ESI, X86_REG_SI, X86_REG_SIL },
	{ X86_REG_RDI, X86_REG_EDI, X86_REG_DI, X86_REG_DIL },
	{ X86_REG_RBP, X86_REG_EBP, X86_REG_BP, X86_REG_BPL },
	{ X86_REG_RSP, X86_REG_ESP, X86_REG_SP, X86_REG_SPL },
	{ X86_REG_R8, X86_REG_R8D, X86_REG_R8W, X86_REG_R8B },
	{ X86_REG_R9, X86_REG_R9D, X86_REG_R9W, X86_REG_R9B },
	{ X86_REG_R10, X86_REG_R10D, X86_REG_R10W, X86_REG_R10B },
	{ X86_REG_R11, X86_REG_R11D, X86_REG_R11W, X86_REG_R11B },
	{ X86_REG_R12, X86_REG_R12D, X86_REG_R12W, X86_REG_R12B },
	{ X86_REG_R13, X86_REG_R13D, X86_REG_R13W, X86_REG_R13B },
	{ X86_REG_R14, X86_REG_R14D, X86_REG_R14W, X86_REG_R14B },
	{ X86_REG_R15, X86_REG_R15D, X86_REG_R15W, X86_REG_R15B },
};

static void reg_table(struct dgpctype *t)
{
	int r, w;

	memset(t->reg_of, -1, sizeof t->reg_of);
	for (r = 0; r < NREG; r++)
		for (w = 0; w < 4; w++)
			t->reg_of[gpr[r][w]] = (int8_t)r;
	t->reg_of[X86_REG_AH] = 0;
	t->reg_of[X86_REG_DH] = 1;
	t->reg_of[X86_REG_CH] = 2;
	t->reg_of[X86_REG_BH] = 3;
	t->reg_of[X86_REG_RIP] = REG_RIP;
	for (r = 0; r < NREG; r++)
		t->is64[gpr[r][0]] = 1;
}

struct dgpctype *dgpctype_new(char *err, size_t errlen)
{
	struct dgpctype *t = calloc(1, sizeof *t);

	if (!t) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &t->cs) != CS_ERR_OK) {
		snprintf(err, errlen, "capstone: cannot open an x86-64 disassembler");
		free(t);
		return NULL;
	}
	cs_option(t->cs, CS_OPT_DETAIL, CS_OPT_ON);
	t->insn = cs_malloc(t->cs);
	if (!t->insn || dghash_init(&t->fs_at, 256) < 0 || dghash_init(&t->ret_at, 256) < 0) {
		snprintf(err, errlen, "out of memory");
		dgpctype_free(t);
		return NULL;
	}
	reg_table(t);
	return t;
}

void dgpctype_free(struct dgpctype *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nfs; i++) {
		free(t->fs[i].in);
		free(t->fs[i].var);
	}
	free(t->fs);
	free(t->mods);
	free(t->rets);
	dghash_free(&t->fs_at);
	dghash_free(&t->ret_at);
	if (t->insn)
		cs_free(t->insn, 1);
	cs_close(&t->cs);
	free(t);
}

/* ---------------------------------------------------------------- types */

static int die_at(Dwarf *dw, Dwarf_Off off, Dwarf_Die *out)
{
	return off && dwarf_offdie(dw, off, out) != NULL;
}

/* The type of die (variable, member, pointer...), 0 if none. */
static int type_of(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute a;

	return dwarf_attr_integrate(die, DW_AT_type, &a) && dwarf_formref_die(&a, out);
}

/* die with typedefs and qualifiers looked through. */
static int peel(Dwarf_Die *die, Dwarf_Die *out)
{
	return dwarf_peel_type(die, out) == 0;
}

static int is_aggregate(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type
	    || tag == DW_TAG_class_type;
}

static uint64_t size_of(Dwarf_Die *type)
{
	Dwarf_Word n;

	return dwarf_aggregate_size(type, &n) == 0 ? n : 0;
}

/* Byte offset of member m in its aggregate (bit-fields: the byte holding
   its first bit); -1 if not a constant. */
static int64_t member_offset(Dwarf_Die *m)
{
	Dwarf_Attribute a;
	Dwarf_Word w;

	if (dwarf_attr(m, DW_AT_data_member_location, &a))
		return dwarf_formudata(&a, &w) == 0 ? (int64_t)w : -1;
	if (dwarf_attr(m, DW_AT_data_bit_offset, &a))
		return dwarf_formudata(&a, &w) == 0 ? (int64_t)(w / 8) : -1;
	return 0;               /* union members */
}

/* The member of aggregate agg (peeled) holding byte off: its DIE in *m,
   its type in *mt, its offset returned; -1 if none. */
static int64_t member_at(Dwarf_Die *agg, uint64_t off, Dwarf_Die *m, Dwarf_Die *mt)
{
	int64_t mo;
	uint64_t ms;

	if (dwarf_child(agg, m) != 0)
		return -1;
	do {
		int tag = dwarf_tag(m);

		if (tag != DW_TAG_member && tag != DW_TAG_inheritance)
			continue;
		if ((mo = member_offset(m)) < 0 || !type_of(m, mt))
			continue;
		ms = size_of(mt);
		if ((uint64_t)mo <= off && off < (uint64_t)mo + ms)
			return mo;
	} while (dwarf_siblingof(m, m) == 0);
	return -1;
}

/* The type of the size-byte member starting at off inside type (peeled
   aggregates and arrays descended), for loads out of a struct or a frame
   slot; 0 if none. */
static Dwarf_Off member_type_at(Dwarf_Die *type, uint64_t off, uint64_t size)
{
	Dwarf_Die cur = *type, m, mt, p;
	int depth;

	for (depth = 0; depth < MAX_DEPTH; depth++) {
		int64_t mo;
		uint64_t es;
		int tag;

		if (!peel(&cur, &p))
			return 0;
		tag = dwarf_tag(&p);
		if (off == 0 && size_of(&p) == size && !is_aggregate(tag)
		    && tag != DW_TAG_array_type)
			return dwarf_dieoffset(&cur);
		if (is_aggregate(tag)) {
			if ((mo = member_at(&p, off, &m, &mt)) < 0)
				return 0;
			off -= (uint64_t)mo;
		} else if (tag == DW_TAG_array_type) {
			if (!type_of(&p, &mt) || !(es = size_of(&mt)))
				return 0;
			off %= es;
		} else {
			return 0;
		}
		cur = mt;
	}
	return 0;
}

/* What a pointer-typed value points to; 0 if not a pointer, or void *. */
static int pointee(Dwarf *dw, Dwarf_Off ptr, Dwarf_Die *out)
{
	Dwarf_Die d, p;
	int tag;

	if (!die_at(dw, ptr, &d) || !peel(&d, &p))
		return 0;
	tag = dwarf_tag(&p);
	if (tag != DW_TAG_pointer_type && tag != DW_TAG_reference_type
	    && tag != DW_TAG_rvalue_reference_type)
		return 0;
	return type_of(&p, out);
}

/* ---------------------------------------------------------------- variables */

static int op_reg(const Dwarf_Op *op);

/* op says where the variable is (not what it computes), so it is kept. */
static int op_useful(const Dwarf_Op *op)
{
	return op->atom == DW_OP_fbreg || op_reg(op) >= 0;
}

static int vloc_add(struct fstate *f, Dwarf_Addr lo, Dwarf_Addr hi, const Dwarf_Op *op,
		    Dwarf_Die *type)
{
	if (!op_useful(op))
		return 0;
	if (dg_grow(&f->var, &f->capvar, f->nvar + 1, sizeof *f->var) < 0)
		return -1;
	f->var[f->nvar++] = (struct vloc){ lo, hi, *op, dwarf_dieoffset(type), size_of(type) };
	return 0;
}

/* The variable's locations (one expression, or each entry of its list). */
static int var_locs(struct fstate *f, Dwarf_Attribute *attr, Dwarf_Die *type)
{
	Dwarf_Addr base, lo, hi;
	Dwarf_Op *expr;
	size_t len;
	ptrdiff_t off = 0;

	if (dwarf_getlocation(attr, &expr, &len) == 0)
		return len == 1 ? vloc_add(f, 0, (Dwarf_Addr)-1, expr, type) : 0;
	while ((off = dwarf_getlocations(attr, off, &base, &lo, &hi, &expr, &len)) > 0)
		if (len == 1 && vloc_add(f, lo, hi, expr, type) < 0)
			return -1;
	return 0;
}

static int var_collect(struct fstate *f, Dwarf_Die *parent, int depth)
{
	Dwarf_Die c, ty;
	Dwarf_Attribute loc;

	if (depth > MAX_DEPTH || dwarf_child(parent, &c) != 0)
		return 0;
	do {
		switch (dwarf_tag(&c)) {
		case DW_TAG_variable: case DW_TAG_formal_parameter:
			if (dwarf_attr(&c, DW_AT_location, &loc) && type_of(&c, &ty)
			    && var_locs(f, &loc, &ty) < 0)
				return -1;
			break;
		case DW_TAG_lexical_block: case DW_TAG_inlined_subroutine:
			if (var_collect(f, &c, depth + 1) < 0)
				return -1;
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return 0;
}

/* The one operation of attr's location at DWARF address pc, or NULL. */
static Dwarf_Op *loc_op(Dwarf_Attribute *attr, Dwarf_Addr pc)
{
	Dwarf_Op *expr;
	size_t len;

	if (dwarf_getlocation_addr(attr, pc, &expr, &len, 1) != 1 || len != 1)
		return NULL;
	return expr;
}

/* v's operation if it holds at DWARF address pc, else NULL. */
static const Dwarf_Op *var_op(const struct vloc *v, Dwarf_Addr pc)
{
	return v->lo <= pc && pc < v->hi ? &v->op : NULL;
}

/* DWARF register that op names (DW_OP_regN, DW_OP_regx), or REG_NONE. */
static int op_reg(const Dwarf_Op *op)
{
	if (op->atom >= DW_OP_reg0 && op->atom <= DW_OP_reg31)
		return op->atom - DW_OP_reg0;
	if (op->atom == DW_OP_regx)
		return (int)op->number;
	return REG_NONE;
}

/* Register + offset that op names (DW_OP_bregN, DW_OP_bregx); 0 if not. */
static int op_breg(const Dwarf_Op *op, int *reg, int64_t *off)
{
	if (op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31) {
		*reg = op->atom - DW_OP_breg0;
		*off = (int64_t)op->number;
		return 1;
	}
	if (op->atom == DW_OP_bregx) {
		*reg = (int)op->number;
		*off = (int64_t)op->number2;
		return 1;
	}
	return 0;
}

/* The type of the variable held in register r at DWARF address pc, 0. */
static Dwarf_Off var_in_reg(const struct fstate *f, int r, Dwarf_Addr pc)
{
	size_t i;

	for (i = 0; i < f->nvar; i++) {
		const Dwarf_Op *op = var_op(&f->var[i], pc);

		if (op && op_reg(op) == r)
			return f->var[i].type;
	}
	return 0;
}

/* The frame base at DWARF address pc as register + offset, from the
   function's DW_AT_frame_base and, when that is the CFA, the CFI. */
static int frame_base(const struct fstate *f, Dwarf_Addr pc, int *reg, int64_t *off)
{
	Dwarf_Attribute a;
	Dwarf_Die fn = f->fn;
	Dwarf_Op *op, *ops;
	Dwarf_CFI *cfi;
	Dwarf_Frame *fr;
	Dwarf_Addr cbias;
	size_t nops;
	int ok = 0;

	if (!dwarf_attr(&fn, DW_AT_frame_base, &a) || !(op = loc_op(&a, pc)))
		return 0;
	if ((*reg = op_reg(op)) != REG_NONE) {
		*off = 0;
		return 1;
	}
	if (op_breg(op, reg, off))
		return 1;
	if (op->atom != DW_OP_call_frame_cfa)
		return 0;
	cfi = dwfl_module_dwarf_cfi(f->dm, &cbias);
	if (!cfi)
		cfi = dwfl_module_eh_cfi(f->dm, &cbias);
	if (!cfi || dwarf_cfi_addrframe(cfi, pc + f->cubias - cbias, &fr) != 0)
		return 0;
	if (dwarf_frame_cfa(fr, &ops, &nops) == 0 && nops == 1)
		ok = op_breg(&ops[0], reg, off);
	free(fr);
	return ok;
}

/* The local variable whose frame slot holds base + disp at DWARF address
   pc: its type in *type, the offset inside it returned; -1 if none. */
static int64_t frame_slot(const struct fstate *f, int base, int64_t disp, Dwarf_Addr pc,
			  Dwarf_Off *type)
{
	int fbreg;
	int64_t fboff, rel;
	size_t i;

	if ((base != REG_RBP && base != REG_RSP) || !frame_base(f, pc, &fbreg, &fboff)
	    || fbreg != base)
		return -1;
	rel = disp - fboff;
	for (i = 0; i < f->nvar; i++) {
		const Dwarf_Op *op = var_op(&f->var[i], pc);
		int64_t at;

		if (!op || op->atom != DW_OP_fbreg)
			continue;
		at = (int64_t)op->number;
		if (at <= rel && rel < at + (int64_t)f->var[i].size) {
			*type = f->var[i].type;
			return rel - at;
		}
	}
	return -1;
}

/* ---------------------------------------------------------------- tracker */

static int mod_index(struct dgpctype *t, Dwfl_Module *dm)
{
	size_t i;

	for (i = 0; i < t->nmods; i++)
		if (t->mods[i] == dm)
			return (int)i;
	if (dg_grow(&t->mods, &t->capmods, t->nmods + 1, sizeof *t->mods) < 0)
		return -1;
	t->mods[t->nmods] = dm;
	return (int)t->nmods++;
}

static uint64_t mod_key(int mi, uint64_t addr)
{
	return addr ^ (uint64_t)(mi + 1) << 56;
}

/* The return type of the function at session address target (a direct
   call), 0 if unknown; asked once per target. */
static Dwarf_Off return_type(struct dgpctype *t, const struct fstate *f, int mi,
			     uint64_t target)
{
	uint64_t key = mod_key(mi, target);
	uint32_t i = dghash_get(&t->ret_at, key);
	Dwarf_Addr b;
	Dwarf_Die *cu, *sc = NULL, ty;
	Dwarf_Off off = 0;
	int n, k, added;

	if (i != DGHASH_NONE)
		return t->rets[i];
	cu = dwfl_module_addrdie(f->dm, target, &b);
	n = cu ? dwarf_getscopes(cu, target - b, &sc) : 0;
	for (k = 0; k < n; k++)
		if (dwarf_tag(&sc[k]) == DW_TAG_subprogram) {
			Dwarf_Addr lo;

			if (dwarf_entrypc(&sc[k], &lo) == 0 && lo == target - b
			    && type_of(&sc[k], &ty))
				off = dwarf_dieoffset(&ty);
			break;
		}
	free(sc);
	if (dg_grow(&t->rets, &t->caprets, t->nrets + 1, sizeof *t->rets) == 0
	    && dghash_put(&t->ret_at, key, (uint32_t)t->nrets, &added) >= 0)
		t->rets[t->nrets++] = off;
	return off;
}

/* The type register r holds before the instruction at DWARF address pc. */
static Dwarf_Off reg_type(const struct fstate *f, const Dwarf_Off *cur, int r, Dwarf_Addr pc)
{
	if (r < 0 || r >= NREG)
		return 0;
	return cur[r] ? cur[r] : var_in_reg(f, r, pc);
}

/* The type of the size-byte value a load from mem reads. */
static Dwarf_Off load_type(const struct fstate *f, const Dwarf_Off *cur,
			   const struct minsn *m, Dwarf_Addr pc, uint64_t size)
{
	Dwarf_Off vt = 0, bt;
	Dwarf_Die ty;
	int64_t at;

	if (m->base < 0 || m->base >= NREG || m->index != REG_NONE)
		return 0;
	if ((at = frame_slot(f, m->base, m->disp, pc, &vt)) >= 0)
		return die_at(f->dw, vt, &ty) ? member_type_at(&ty, (uint64_t)at, size) : 0;
	bt = reg_type(f, cur, m->base, pc);
	if (!bt || !pointee(f->dw, bt, &ty) || m->disp < 0)
		return 0;
	return member_type_at(&ty, (uint64_t)m->disp, size);
}

/* The instruction's first memory operand in m; 0 if none. */
static int mem_operand(const struct dgpctype *t, const cs_insn *in, struct minsn *m)
{
	const cs_x86 *x = &in->detail->x86;
	int k;

	for (k = 0; k < x->op_count; k++) {
		const cs_x86_op *o = &x->operands[k];

		if (o->type != X86_OP_MEM)
			continue;
		if (o->mem.segment != X86_REG_INVALID)
			return 0;       /* %fs: thread-local, not ours */
		m->addr = in->address;
		m->disp = o->mem.disp;
		m->base = o->mem.base == X86_REG_INVALID ? REG_NONE : t->reg_of[o->mem.base];
		m->index = o->mem.index == X86_REG_INVALID ? REG_NONE : t->reg_of[o->mem.index];
		m->base_type = 0;
		return 1;
	}
	return 0;
}

static void kill_written(const struct dgpctype *t, const cs_insn *in, Dwarf_Off *cur)
{
	cs_regs rd, wr;
	uint8_t nr, nw, k;

	if (cs_regs_access(t->cs, in, rd, &nr, wr, &nw) != CS_ERR_OK) {
		memset(cur, 0, NREG * sizeof *cur);   /* cannot tell: forget all */
		return;
	}
	for (k = 0; k < nw; k++) {
		int r = t->reg_of[wr[k]];

		if (r >= 0 && r < NREG)
			cur[r] = 0;
	}
}

/* The type of dst after dst += src: pointer arithmetic that stays on
   whole elements (a register added to a pointer: an index times the size,
   as compilers emit for p[i]; a constant multiple of the pointee's size)
   keeps the pointer's type; a register added to a typed pointer takes it. */
static Dwarf_Off pointer_add(const struct fstate *f, const Dwarf_Off *cur, int dst,
			     const cs_x86_op *src, Dwarf_Addr pc, const struct dgpctype *t)
{
	Dwarf_Off d = reg_type(f, cur, dst, pc), s;
	Dwarf_Die pt;
	uint64_t size;

	if (src->type == X86_OP_IMM) {
		if (!d || !pointee(f->dw, d, &pt) || !(size = size_of(&pt)))
			return 0;
		return (uint64_t)(src->imm < 0 ? -src->imm : src->imm) % size == 0 ? d : 0;
	}
	if (src->type != X86_OP_REG || !t->is64[src->reg])
		return 0;
	s = reg_type(f, cur, t->reg_of[src->reg], pc);
	if (d && pointee(f->dw, d, &pt))
		return s && pointee(f->dw, s, &pt) ? 0 : d;   /* two pointers: no */
	return s && pointee(f->dw, s, &pt) ? s : 0;
}

/* One instruction's effect on the registers' types. */
static void track(struct dgpctype *t, const struct fstate *f, int mi, const cs_insn *in,
		  const struct minsn *m, int has_mem, Dwarf_Off *cur)
{
	static const int8_t clobbered[] = { 0, 1, 2, 4, 5, 8, 9, 10, 11 };
	const cs_x86 *x = &in->detail->x86;
	Dwarf_Addr pc = in->address - f->cubias;
	Dwarf_Off v;
	size_t k;
	int dst;

	if (in->id == X86_INS_CALL) {
		v = x->op_count == 1 && x->operands[0].type == X86_OP_IMM
		    ? return_type(t, f, mi, (uint64_t)x->operands[0].imm) : 0;
		for (k = 0; k < sizeof clobbered; k++)
			cur[clobbered[k]] = 0;
		cur[0] = v;
		return;
	}
	if (in->id == X86_INS_MOV && x->op_count == 2 && x->operands[0].type == X86_OP_REG
	    && t->is64[x->operands[0].reg]) {
		dst = t->reg_of[x->operands[0].reg];
		if (x->operands[1].type == X86_OP_REG)
			v = reg_type(f, cur, t->reg_of[x->operands[1].reg], pc);
		else if (has_mem)
			v = load_type(f, cur, m, pc, 8);
		else
			v = 0;
		cur[dst] = v;
		return;
	}
	if (in->id == X86_INS_ADD && x->op_count == 2 && x->operands[0].type == X86_OP_REG
	    && t->is64[x->operands[0].reg]) {
		dst = t->reg_of[x->operands[0].reg];
		v = pointer_add(f, cur, dst, &x->operands[1], pc, t);
		kill_written(t, in, cur);
		cur[dst] = v;
		return;
	}
	kill_written(t, in, cur);
}

/* The code bytes [lo, hi) (session addresses) from the module's file. */
static const uint8_t *code_bytes(Dwfl_Module *dm, uint64_t lo, uint64_t hi)
{
	Dwarf_Addr ebias;
	Elf *e = dwfl_module_getelf(dm, &ebias);
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf_Data *d;

	if (!e)
		return NULL;
	while ((scn = elf_nextscn(e, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS
		    || !(sh.sh_flags & SHF_EXECINSTR))
			continue;
		if (lo - ebias < sh.sh_addr || hi - ebias > sh.sh_addr + sh.sh_size)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || d->d_size < sh.sh_size)
			return NULL;
		return (const uint8_t *)d->d_buf + (lo - ebias - sh.sh_addr);
	}
	return NULL;
}

/* Decode [lo, hi) and run the tracker over it. */
static int fstate_build(struct dgpctype *t, struct fstate *f, int mi, uint64_t lo, uint64_t hi)
{
	const uint8_t *code = code_bytes(f->dm, lo, hi);
	size_t size = (size_t)(hi - lo), cap = 0;
	uint64_t at = lo;
	Dwarf_Off cur[NREG] = { 0 };
	struct minsn m;

	if (!code)
		return 0;
	while (cs_disasm_iter(t->cs, &code, &size, &at, t->insn)) {
		int has = mem_operand(t, t->insn, &m);

		if (has && t->insn->id != X86_INS_LEA && t->insn->id != X86_INS_NOP) {
			if (m.base >= 0 && m.base < NREG)
				m.base_type = cur[m.base];
			if (dg_grow(&f->in, &cap, f->nin + 1, sizeof *f->in) < 0)
				return -1;
			f->in[f->nin++] = m;
		}
		track(t, f, mi, t->insn, &m, has, cur);
	}
	return 0;
}

/* The range of fn holding session address addr, or 0. */
static int fn_range(Dwarf_Die *fn, Dwarf_Addr cubias, uint64_t addr, uint64_t *lo, uint64_t *hi)
{
	Dwarf_Addr base, s, e;
	ptrdiff_t off = 0;

	while ((off = dwarf_ranges(fn, off, &base, &s, &e)) > 0)
		if (s + cubias <= addr && addr < e + cubias) {
			*lo = s + cubias;
			*hi = e + cubias;
			return *hi - *lo <= MAX_FN_BYTES;
		}
	return 0;
}

/* The decoded range of fn holding addr (made at its first question), or
   NULL (unreadable; *oom set when out of memory). */
static struct fstate *fstate_of(struct dgpctype *t, Dwfl_Module *dm, Dwarf_Die *fn,
				uint64_t addr, int *oom)
{
	int mi = mod_index(t, dm), added;
	Dwarf_Addr cubias;
	uint64_t lo, hi;
	uint32_t i;
	struct fstate *f;

	*oom = mi < 0;
	if (mi < 0 || !dwfl_module_addrdie(dm, addr, &cubias)
	    || !fn_range(fn, cubias, addr, &lo, &hi))
		return NULL;
	i = dghash_get(&t->fs_at, mod_key(mi, lo));
	if (i != DGHASH_NONE)
		return &t->fs[i];
	if (dg_grow(&t->fs, &t->capfs, t->nfs + 1, sizeof *t->fs) < 0) {
		*oom = 1;
		return NULL;
	}
	f = &t->fs[t->nfs];
	memset(f, 0, sizeof *f);
	f->dm = dm;
	f->fn = *fn;
	f->cubias = cubias;
	f->dw = dwfl_module_getdwarf(dm, &cubias);
	if (!f->dw || var_collect(f, fn, 0) < 0 || fstate_build(t, f, mi, lo, hi) < 0
	    || dghash_put(&t->fs_at, mod_key(mi, lo), (uint32_t)t->nfs, &added) < 0) {
		*oom = f->dw != NULL;
		free(f->in);
		free(f->var);
		return NULL;
	}
	return &t->fs[t->nfs++];
}

static const struct minsn *minsn_find(const struct fstate *f, uint64_t addr)
{
	size_t lo = 0, hi = f->nin;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->in[mid].addr == addr)
			return &f->in[mid];
		if (f->in[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* ---------------------------------------------------------------- answer */

/* r for an access at byte off of the type at DIE offset type. */
static int answer(const struct fstate *f, Dwarf_Off type, int64_t off, int how,
		  struct dgpctype_res *r)
{
	Dwarf_Die ty;
	uint64_t size;

	if (!die_at(f->dw, type, &ty) || !(size = size_of(&ty)))
		return DGPCTYPE_NONE;
	r->type = type;
	r->size = size;
	r->offset = (uint64_t)(off % (int64_t)size + (int64_t)size) % size;
	r->how = how;
	return how;
}

int dgpctype_at(struct dgpctype *t, Dwfl_Module *dm, Dwarf_Die *fn, uint64_t addr,
		struct dgpctype_res *r)
{
	int oom;
	struct fstate *f = fstate_of(t, dm, fn, addr, &oom);
	const struct minsn *m;
	Dwarf_Addr pc;
	Dwarf_Off vt = 0, bt;
	Dwarf_Die pt;
	int64_t at;

	memset(r, 0, sizeof *r);
	if (!f)
		return oom ? -1 : DGPCTYPE_NONE;
	if (!(m = minsn_find(f, addr)) || m->base < 0 || m->base >= NREG)
		return DGPCTYPE_NONE;
	pc = addr - f->cubias;
	if ((bt = var_in_reg(f, m->base, pc)) && pointee(f->dw, bt, &pt))
		return answer(f, dwarf_dieoffset(&pt), m->disp, DGPCTYPE_REGISTER, r);
	if (m->index == REG_NONE && (at = frame_slot(f, m->base, m->disp, pc, &vt)) >= 0)
		return answer(f, vt, at, DGPCTYPE_STACK, r);
	if (m->base_type && pointee(f->dw, m->base_type, &pt))
		return answer(f, dwarf_dieoffset(&pt), m->disp, DGPCTYPE_TRACKED, r);
	return DGPCTYPE_NONE;
}
