/* dgpctype.c: the type an instruction accesses (see dgpctype.h).
 *
 * A function is handled once, at its first question: its code range is
 * read from the ELF file and decoded from its entry to its end, the
 * variables of all its scopes (inlined ones too) are listed with their
 * location attributes, and the instruction tracker runs over its basic
 * blocks to a fixpoint, recording for every instruction with a memory
 * operand that operand (base, index, displacement) and what the tracker
 * believes the base register holds just before it: a pointer to a type,
 * and how many bytes past the start of an element of that type it points
 * (a pointer stepped by the element size, `add $0x30,%rdi` at the end of a
 * loop, keeps its type; one moved into an element keeps it with a delta).
 * A block's entry state is the meet of its predecessors' exit states: a
 * register two paths disagree on is untyped there, never guessed.  At a
 * block's end a register the tracker knows nothing of takes the type of
 * the variable DWARF locates in it, so a parameter whose location list
 * ends inside a loop (gcc's -O1 stepping of `a[i]`) carries its type round
 * the back edge.  A question is then a binary search in that record, a
 * location-list look-up for the base register, or a frame-slot look-up.
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
/* rbx, rbp, r12-r15: what a call leaves as it was */
#define CALLEE_SAVED (1u << 3 | 1u << 6 | 1u << 12 | 1u << 13 | 1u << 14 | 1u << 15)
#define MAX_FN_BYTES (1u << 20) /* a bigger "function" is not decoded */
#define MAX_DEPTH 16            /* members nested deeper are not followed */

/* One instruction with a memory operand, and what the tracker believed. */
struct minsn {
	uint64_t addr;          /* session address */
	int64_t disp;
	int8_t base, index;     /* DWARF register numbers, REG_NONE */
	Dwarf_Off base_type;    /* tracked pointer type of base before it, 0 unknown */
	int64_t base_delta;     /* bytes past an element's start it points */
};

/* What the tracker believes a register holds: a value of pointer type
   `type` (a DIE offset; 0: unknown) pointing delta bytes past the start of
   an element of its pointee (0 <= delta < the pointee's size). */
struct rty {
	Dwarf_Off type;
	int64_t delta;
};
#define RTY_TOP ((Dwarf_Off)-1)  /* a block's entry not reached yet */

/* Where a variable is over [lo, hi) (DWARF addresses): in a register
   (DW_OP_regN, DW_OP_regx) or a frame slot (DW_OP_fbreg).  Location
   lists are read into these once per function: asking libdw at every pc
   parses the list again. */
struct vloc {
	Dwarf_Addr lo, hi;
	Dwarf_Op op;
	Dwarf_Off type;
	uint64_t size;          /* of the type: a frame slot's extent */
	Dwarf_Off var;          /* the variable's own DIE (its name) */
};

/* A decoded function range. */
struct fstate {
	Dwfl_Module *dm;
	Dwarf *dw;
	Dwarf_Addr cubias;      /* session address - DWARF address */
	Dwarf_Die fn;
	uint64_t lo, hi;        /* the range decoded (session addresses) */
	struct minsn *in;       /* by address */
	size_t nin;
	struct vloc *var;
	size_t nvar, capvar;
	uint32_t *in_reg;       /* indexes in var of the register locations, */
	uint32_t reg_first[NREG + 1];   /* ... by register: [reg_first[r], reg_first[r+1]) */
	unsigned gregs;         /* callee-saved registers the range sets once, */
	uint64_t gaddr[NREG];   /* ... to a global's address (lea sym(%rip)) */
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
		free(t->fs[i].in_reg);
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

/* type is a pointer (void * too), a reference. */
static int is_pointer(Dwarf_Die *type)
{
	Dwarf_Die p;
	int tag;

	if (!peel(type, &p))
		return 0;
	tag = dwarf_tag(&p);
	return tag == DW_TAG_pointer_type || tag == DW_TAG_reference_type
	    || tag == DW_TAG_rvalue_reference_type;
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
		    Dwarf_Die *type, Dwarf_Off var)
{
	if (!op_useful(op))
		return 0;
	if (dg_grow(&f->var, &f->capvar, f->nvar + 1, sizeof *f->var) < 0)
		return -1;
	f->var[f->nvar++] = (struct vloc){ lo, hi, *op, dwarf_dieoffset(type), size_of(type), var };
	return 0;
}

/* A location over [lo, hi): one operation, or a struct taken apart by the
   optimizer (scalar replacement: `struct pq q` as DW_OP_reg3 DW_OP_piece 8
   DW_OP_reg12 DW_OP_piece 4 ...), each register piece then holding the
   member at that offset, with the member's type. */
static int vloc_expr(struct fstate *f, Dwarf_Addr lo, Dwarf_Addr hi, const Dwarf_Op *expr,
		     size_t len, Dwarf_Die *type, Dwarf_Off var)
{
	uint64_t at = 0;
	size_t i, first = 0;
	Dwarf_Off mt;
	Dwarf_Die md;

	if (len == 1)
		return vloc_add(f, lo, hi, expr, type, var);
	for (i = 0; i < len; i++) {
		if (expr[i].atom == DW_OP_bit_piece)
			return 0;       /* offsets in bits: the rest is not followed */
		if (expr[i].atom != DW_OP_piece)
			continue;
		if (i == first + 1 && op_reg(&expr[first]) >= 0
		    && (mt = member_type_at(type, at, expr[i].number)) && die_at(f->dw, mt, &md)
		    && vloc_add(f, lo, hi, &expr[first], &md, var) < 0)
			return -1;
		at += expr[i].number;
		first = i + 1;
	}
	return 0;
}

/* The variable's locations (one expression, or each entry of its list). */
static int var_locs(struct fstate *f, Dwarf_Attribute *attr, Dwarf_Die *type, Dwarf_Off var)
{
	Dwarf_Addr base, lo, hi;
	Dwarf_Op *expr;
	size_t len;
	ptrdiff_t off = 0;

	if (dwarf_getlocation(attr, &expr, &len) == 0)
		return vloc_expr(f, 0, (Dwarf_Addr)-1, expr, len, type, var);
	while ((off = dwarf_getlocations(attr, off, &base, &lo, &hi, &expr, &len)) > 0)
		if (vloc_expr(f, lo, hi, expr, len, type, var) < 0)
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
			    && var_locs(f, &loc, &ty, dwarf_dieoffset(&c)) < 0)
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

/* The variables' register locations grouped by register (a counting
   sort), so that a question about one register reads only its own. */
static int reg_index(struct fstate *f)
{
	uint32_t at[NREG + 1] = { 0 };
	size_t i;
	int r;

	if (!(f->in_reg = malloc((f->nvar + 1) * sizeof *f->in_reg)))
		return -1;
	for (i = 0; i < f->nvar; i++)
		if ((r = op_reg(&f->var[i].op)) >= 0 && r < NREG)
			at[r + 1]++;
	for (r = 0; r < NREG; r++)
		at[r + 1] += at[r];
	memcpy(f->reg_first, at, sizeof at);
	for (i = 0; i < f->nvar; i++)
		if ((r = op_reg(&f->var[i].op)) >= 0 && r < NREG)
			f->in_reg[at[r]++] = (uint32_t)i;
	return 0;
}

/* The variable held in register r at DWARF address pc, or NULL. */
static const struct vloc *vloc_in_reg(const struct fstate *f, int r, Dwarf_Addr pc)
{
	uint32_t i;

	if (r < 0 || r >= NREG)
		return NULL;
	for (i = f->reg_first[r]; i < f->reg_first[r + 1]; i++)
		if (var_op(&f->var[f->in_reg[i]], pc))
			return &f->var[f->in_reg[i]];
	return NULL;
}

/* The type of the variable held in register r at DWARF address pc, 0. */
static Dwarf_Off var_in_reg(const struct fstate *f, int r, Dwarf_Addr pc)
{
	const struct vloc *v = vloc_in_reg(f, r, pc);

	return v ? v->type : 0;
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
/* As frame_slot, with the variable itself in *var. */
static int64_t frame_var(const struct fstate *f, int base, int64_t disp, Dwarf_Addr pc,
			 Dwarf_Off *type, const struct vloc **var)
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
			*var = &f->var[i];
			return rel - at;
		}
	}
	return -1;
}

static int64_t frame_slot(const struct fstate *f, int base, int64_t disp, Dwarf_Addr pc,
			  Dwarf_Off *type)
{
	const struct vloc *v;

	return frame_var(f, base, disp, pc, type, &v);
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

/* What register r holds before the instruction at DWARF address pc: the
   tracker's belief, else the variable DWARF locates there. */
static struct rty reg_type(const struct fstate *f, const struct rty *cur, int r, Dwarf_Addr pc)
{
	struct rty none = { 0, 0 };

	if (r < 0 || r >= NREG)
		return none;
	if (cur[r].type)
		return cur[r];
	none.type = var_in_reg(f, r, pc);
	return none;
}

/* The size of what pointer type ptr points to, 0 if not a pointer, void,
   or of no size. */
static uint64_t pointee_size(Dwarf *dw, Dwarf_Off ptr)
{
	Dwarf_Die pt;

	return ptr && pointee(dw, ptr, &pt) ? size_of(&pt) : 0;
}

/* p moved by `by` bytes: the delta stays inside an element (it is taken
   modulo the pointee's size); unknown when the pointee has no size. */
static struct rty rty_move(Dwarf *dw, struct rty p, int64_t by)
{
	uint64_t size = pointee_size(dw, p.type);
	struct rty none = { 0, 0 };

	if (!size)
		return none;
	p.delta = (int64_t)(((p.delta + by) % (int64_t)size + (int64_t)size) % (int64_t)size);
	return p;
}

/* The type of the size-byte value a load from mem reads. */
static Dwarf_Off load_type(const struct fstate *f, const struct rty *cur,
			   const struct minsn *m, Dwarf_Addr pc, uint64_t size)
{
	Dwarf_Off vt = 0;
	Dwarf_Die ty;
	struct rty bt;
	int64_t at;

	if (m->base < 0 || m->base >= NREG || m->index != REG_NONE)
		return 0;
	if ((at = frame_slot(f, m->base, m->disp, pc, &vt)) >= 0)
		return die_at(f->dw, vt, &ty) ? member_type_at(&ty, (uint64_t)at, size) : 0;
	bt = reg_type(f, cur, m->base, pc);
	if (!bt.type || !pointee(f->dw, bt.type, &ty) || m->disp + bt.delta < 0)
		return 0;
	return member_type_at(&ty, (uint64_t)(m->disp + bt.delta), size);
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
		m->base_delta = 0;
		return 1;
	}
	return 0;
}

/* The registers (bit r: DWARF register r < NREG) the instruction writes;
   all of them when capstone cannot tell. */
static unsigned written_regs(const struct dgpctype *t, const cs_insn *in)
{
	cs_regs rd, wr;
	uint8_t nr, nw, k;
	unsigned mask = 0;

	if (cs_regs_access(t->cs, in, rd, &nr, wr, &nw) != CS_ERR_OK)
		return (1u << NREG) - 1;
	for (k = 0; k < nw; k++) {
		int r = t->reg_of[wr[k]];

		if (r >= 0 && r < NREG)
			mask |= 1u << r;
	}
	return mask;
}

/* The registers in mask (written_regs) no longer hold what was tracked. */
static void kill_written(unsigned mask, struct rty *cur)
{
	int r;

	for (r = 0; r < NREG; r++)
		if (mask & 1u << r)
			cur[r] = (struct rty){ 0, 0 };
}

/* dst after dst += src (sub: dst -= src).  A constant moves a typed
   pointer by that many bytes; a register added to a pointer is an index
   times the element size, as compilers emit for p[i], and keeps it; a
   register added to a typed pointer takes it; two pointers make none. */
static struct rty pointer_add(const struct fstate *f, const struct rty *cur, int dst,
			      const cs_x86_op *src, int sub, Dwarf_Addr pc,
			      const struct dgpctype *t)
{
	struct rty d = reg_type(f, cur, dst, pc), s, none = { 0, 0 };
	Dwarf_Die pt;
	int dp;

	if (src->type == X86_OP_IMM)
		return d.type ? rty_move(f->dw, d, sub ? -src->imm : src->imm) : none;
	if (sub || src->type != X86_OP_REG || !t->is64[src->reg])
		return none;
	s = reg_type(f, cur, t->reg_of[src->reg], pc);
	dp = d.type && pointee(f->dw, d.type, &pt);
	if (dp)
		return s.type && pointee(f->dw, s.type, &pt) ? none : d;
	return s.type && pointee(f->dw, s.type, &pt) ? s : none;
}

/* dst after lea disp(base, index, scale): a typed base moved by disp (the
   index, as for add, a whole number of elements), else a typed index
   (scale 1) moved by disp. */
static struct rty lea_type(const struct fstate *f, const struct rty *cur, const cs_x86_op *o,
			   Dwarf_Addr pc, const struct dgpctype *t)
{
	struct rty b = { 0, 0 }, none = { 0, 0 };

	if (o->mem.segment != X86_REG_INVALID)
		return none;
	if (o->mem.base != X86_REG_INVALID && o->mem.base != X86_REG_RIP)
		b = reg_type(f, cur, t->reg_of[o->mem.base], pc);
	if (!b.type && o->mem.index != X86_REG_INVALID && o->mem.scale == 1)
		b = reg_type(f, cur, t->reg_of[o->mem.index], pc);
	return b.type ? rty_move(f->dw, b, o->mem.disp) : none;
}

/* One instruction's effect on the registers' types; wrote: the registers
   it writes (written_regs). */
static void track(struct dgpctype *t, const struct fstate *f, int mi, const cs_insn *in,
		  const struct minsn *m, int has_mem, unsigned wrote, struct rty *cur)
{
	static const int8_t clobbered[] = { 0, 1, 2, 4, 5, 8, 9, 10, 11 };
	const cs_x86 *x = &in->detail->x86;
	Dwarf_Addr pc = in->address - f->cubias;
	struct rty v = { 0, 0 };
	size_t k;
	int dst;

	if (in->id == X86_INS_CALL) {
		v.type = x->op_count == 1 && x->operands[0].type == X86_OP_IMM
		    ? return_type(t, f, mi, (uint64_t)x->operands[0].imm) : 0;
		for (k = 0; k < sizeof clobbered; k++)
			cur[clobbered[k]] = (struct rty){ 0, 0 };
		cur[0] = v;
		return;
	}
	if (in->id == X86_INS_XCHG && x->op_count == 2 && x->operands[0].type == X86_OP_REG
	    && x->operands[1].type == X86_OP_REG && x->operands[0].reg == x->operands[1].reg)
		return;         /* xchg %ax,%ax: a two-byte nop */
	if (x->op_count != 2 || x->operands[0].type != X86_OP_REG || !t->is64[x->operands[0].reg]) {
		kill_written(wrote, cur);
		return;
	}
	dst = t->reg_of[x->operands[0].reg];
	switch (in->id) {
	case X86_INS_MOV:
		if (x->operands[1].type == X86_OP_REG)
			v = reg_type(f, cur, t->reg_of[x->operands[1].reg], pc);
		else if (has_mem)
			v.type = load_type(f, cur, m, pc, 8);
		break;
	case X86_INS_ADD: case X86_INS_SUB:
		v = pointer_add(f, cur, dst, &x->operands[1], in->id == X86_INS_SUB, pc, t);
		break;
	case X86_INS_LEA:
		v = lea_type(f, cur, &x->operands[1], pc, t);
		break;
	default:                /* cmp, test...: dst may be read only */
		kill_written(wrote, cur);
		return;
	}
	kill_written(wrote, cur);
	cur[dst] = v;
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

/* ---------------------------------------------------------------- blocks */

/* How an instruction ends a basic block. */
enum { END_NONE, END_COND, END_JUMP };

static int insn_end(const struct dgpctype *t, const cs_insn *in, uint64_t *target)
{
	const cs_x86 *x = &in->detail->x86;
	int jump = cs_insn_group(t->cs, in, CS_GRP_JUMP);

	*target = 0;
	if (jump && x->op_count == 1 && x->operands[0].type == X86_OP_IMM)
		*target = (uint64_t)x->operands[0].imm;
	if (in->id == X86_INS_JMP || in->id == X86_INS_LJMP || in->id == X86_INS_UD2
	    || in->id == X86_INS_HLT || cs_insn_group(t->cs, in, CS_GRP_RET)
	    || cs_insn_group(t->cs, in, CS_GRP_IRET))
		return END_JUMP;
	return jump ? END_COND : END_NONE;
}

/* The function cut into basic blocks: block b is [addr[b], addr[b + 1])
   of the decoded range, with up to two successors (-1: none). */
struct cfg {
	uint64_t *addr;         /* nb + 1 entries: the last is the range's end */
	int32_t (*succ)[2];
	size_t nb;
	struct rty *entry;      /* nb x NREG: the meet of the predecessors */
};

static void cfg_free(struct cfg *g)
{
	free(g->addr);
	free(g->succ);
	free(g->entry);
}

static int addr_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The block starting at addr, or -1 (a jump into the middle of a block or
   of an instruction, or out of the range). */
static int32_t cfg_block(const struct cfg *g, uint64_t addr)
{
	const uint64_t *p = bsearch(&addr, g->addr, g->nb, sizeof *g->addr, addr_cmp);

	return p ? (int32_t)(p - g->addr) : -1;
}

/* A jump found by the first decoding: where it is, where it goes. */
struct jump {
	uint64_t addr, next, target;   /* target 0: none inside the range */
	int end;
};

/* Block b's successors from the jump (or plain instruction) ending it. */
static void cfg_succ(struct cfg *g, size_t b, const struct jump *j)
{
	g->succ[b][0] = (j && j->end == END_JUMP) || b + 1 >= g->nb ? -1 : (int32_t)(b + 1);
	g->succ[b][1] = j && j->target ? cfg_block(g, j->target) : -1;
}

/* Decode [lo, hi) once for its leaders (the entry, jump targets inside it,
   the instruction after each jump) and cut it into blocks with their
   successors. */
static int cfg_build(struct dgpctype *t, struct fstate *f, const uint8_t *code, uint64_t lo,
		     uint64_t hi, struct cfg *g)
{
	const uint8_t *c = code;
	size_t size = (size_t)(hi - lo), n = 0, cap = 0, nj = 0, capj = 0, i, k, b;
	uint64_t at = lo, target, *lead = NULL;
	struct jump *jumps = NULL;
	int end, after = 1;
	unsigned once = 0, more = 0;    /* registers written once, twice or more */

	memset(g, 0, sizeof *g);
	while (cs_disasm_iter(t->cs, &c, &size, &at, t->insn)) {
		unsigned w = written_regs(t, t->insn);
		const cs_x86 *x = &t->insn->detail->x86;

		if (t->insn->id == X86_INS_CALL)
			w |= ~CALLEE_SAVED & ((1u << NREG) - 1);
		if (t->insn->id == X86_INS_POP)
			w = 0;  /* the epilogue's restore: the function ends there */
		more |= once & w;
		once |= w;
		if (t->insn->id == X86_INS_LEA && x->operands[1].mem.base == X86_REG_RIP
		    && x->operands[1].mem.index == X86_REG_INVALID && t->is64[x->operands[0].reg])
			f->gaddr[t->reg_of[x->operands[0].reg]] = t->insn->address + t->insn->size
				+ (uint64_t)x->operands[1].mem.disp;
		else
			for (i = 0; i < NREG; i++)
				if (w & 1u << i)
					f->gaddr[i] = 0;
		if (dg_grow(&lead, &cap, n + 2, sizeof *lead) < 0)
			goto oom;
		if (after)
			lead[n++] = t->insn->address;
		end = insn_end(t, t->insn, &target);
		if (target < lo || target >= hi)
			target = 0;
		if (target)
			lead[n++] = target;
		if (end != END_NONE) {
			if (dg_grow(&jumps, &capj, nj + 1, sizeof *jumps) < 0)
				goto oom;
			jumps[nj++] = (struct jump){ t->insn->address, at, target, end };
		}
		after = end != END_NONE;
	}
	/* a register set once in the whole range, to a global's address, holds
	   it wherever it is read (compilers keep &table in %rbp for a loop) */
	for (i = 0; i < NREG; i++)
		if (once & ~more & CALLEE_SAVED & 1u << i && f->gaddr[i])
			f->gregs |= 1u << i;
	if (dg_grow(&lead, &cap, n + 1, sizeof *lead) < 0)
		goto oom;
	qsort(lead, n, sizeof *lead, addr_cmp);
	/* unique, and none past where decoding stopped (an instruction
	   capstone does not know): a block must end before the next starts */
	for (i = k = 0; i < n; i++)
		if ((k == 0 || lead[i] != lead[k - 1]) && lead[i] < at)
			lead[k++] = lead[i];
	lead[k] = at;
	g->addr = lead;
	g->nb = k;
	lead = NULL;
	if (!(g->succ = malloc((k + 1) * sizeof *g->succ))
	    || !(g->entry = malloc((k + 1) * NREG * sizeof *g->entry)))
		goto oom;
	/* a jump ends its block; a block ending without one falls through */
	for (b = 0, i = 0; b < g->nb; b++) {
		while (i < nj && jumps[i].addr < g->addr[b])
			i++;
		cfg_succ(g, b, i < nj && jumps[i].next == g->addr[b + 1] ? &jumps[i] : NULL);
	}
	free(jumps);
	return 0;
oom:
	free(lead);
	free(jumps);
	return -1;
}

/* Run block b from its entry state cur (changed in place to its exit
   state), recording its memory operands into f when record is set. */
static int block_run(struct dgpctype *t, struct fstate *f, int mi, const uint8_t *code,
		     struct cfg *g, size_t b, struct rty *cur, int record, size_t *capin)
{
	const uint8_t *c = code + (g->addr[b] - f->lo);
	size_t size = (size_t)(g->addr[b + 1] - g->addr[b]);
	uint64_t at = g->addr[b], last = g->addr[b];
	unsigned wrote = 0;
	int r;
	struct minsn m;

	while (size && cs_disasm_iter(t->cs, &c, &size, &at, t->insn)) {
		int has = mem_operand(t, t->insn, &m);

		if (record && has && t->insn->id != X86_INS_LEA && t->insn->id != X86_INS_NOP) {
			if (m.base >= 0 && m.base < NREG) {
				m.base_type = cur[m.base].type;
				m.base_delta = cur[m.base].delta;
			}
			if (dg_grow(&f->in, capin, f->nin + 1, sizeof *f->in) < 0)
				return -1;
			f->in[f->nin++] = m;
		}
		last = t->insn->address;
		wrote = written_regs(t, t->insn);
		track(t, f, mi, t->insn, &m, has, wrote, cur);
	}
	/* what DWARF says the untracked registers hold flows on, unless the
	   last instruction wrote them */
	for (r = 0; r < NREG; r++)
		if (!cur[r].type && !(wrote & 1u << r))
			cur[r].type = var_in_reg(f, r, last - f->cubias);
	return 0;
}

/* in = in meet out: a register the two disagree on is unknown.  1 if in
   changed. */
static int meet(struct rty *in, const struct rty *out)
{
	int r, changed = 0;

	for (r = 0; r < NREG; r++) {
		if (in[r].type == RTY_TOP) {
			in[r] = out[r];
			changed = 1;
		} else if (in[r].type && (in[r].type != out[r].type || in[r].delta != out[r].delta)) {
			in[r] = (struct rty){ 0, 0 };
			changed = 1;
		}
	}
	return changed;
}

/* Block b's entry state into cur, a register not reached yet unknown. */
static void entry_state(const struct cfg *g, size_t b, struct rty *cur)
{
	int r;

	memcpy(cur, &g->entry[b * NREG], NREG * sizeof *cur);
	for (r = 0; r < NREG; r++)
		if (cur[r].type == RTY_TOP)
			cur[r] = (struct rty){ 0, 0 };
}

/* Block visits allowed per block before the fixpoint is cut short (each
   entry state can only fall, 2 x NREG times at most; this bounds the work
   on code that decodes to nonsense). */
#define MAX_VISITS 64

/* Decode [lo, hi), run the tracker over its blocks to a fixpoint, then once
   more in address order recording the memory operands. */
static int fstate_build(struct dgpctype *t, struct fstate *f, int mi)
{
	const uint8_t *code = code_bytes(f->dm, f->lo, f->hi);
	struct cfg g;
	struct rty cur[NREG];
	size_t b, capin = 0, head = 0, tail = 0, visits = 0, *queue = NULL;
	uint8_t *queued = NULL, *reached = NULL;
	int rc = -1, s;

	if (!code)
		return 0;
	if (cfg_build(t, f, code, f->lo, f->hi, &g) < 0) {
		cfg_free(&g);
		return -1;
	}
	if (!(queue = malloc((g.nb + 1) * sizeof *queue)) || !(queued = calloc(g.nb + 1, 1))
	    || !(reached = calloc(g.nb + 1, 1)))
		goto out;
	for (b = 0; b < g.nb; b++)
		for (s = 0; s < 2; s++)
			if (g.succ[b][s] >= 0)
				reached[g.succ[b][s]] = 1;
	/* the entry, and blocks only an indirect jump reaches, start knowing
	   nothing; the rest wait for a predecessor */
	for (b = 0; b < g.nb; b++) {
		struct rty *e = &g.entry[b * NREG];
		int r, start = b == 0 || !reached[b];

		for (r = 0; r < NREG; r++)
			e[r] = (struct rty){ start ? 0 : RTY_TOP, 0 };
		if (start) {
			queue[tail++] = b;
			queued[b] = 1;
		}
	}
	while (head != tail && visits++ < MAX_VISITS * g.nb) {
		b = queue[head];
		head = (head + 1) % (g.nb + 1);
		queued[b] = 0;
		entry_state(&g, b, cur);
		if (block_run(t, f, mi, code, &g, b, cur, 0, &capin) < 0)
			goto out;
		for (s = 0; s < 2; s++) {
			int32_t n = g.succ[b][s];

			if (n >= 0 && meet(&g.entry[(size_t)n * NREG], cur) && !queued[n]) {
				queue[tail] = (size_t)n;
				tail = (tail + 1) % (g.nb + 1);
				queued[n] = 1;
			}
		}
	}
	for (b = 0; b < g.nb; b++) {
		entry_state(&g, b, cur);
		if (block_run(t, f, mi, code, &g, b, cur, 1, &capin) < 0)
			goto out;
	}
	rc = 0;
out:
	free(queue);
	free(queued);
	free(reached);
	cfg_free(&g);
	return rc;
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
	f->lo = lo;
	f->hi = hi;
	if (!f->dw || var_collect(f, fn, 0) < 0 || reg_index(f) < 0 || fstate_build(t, f, mi) < 0
	    || dghash_put(&t->fs_at, mod_key(mi, lo), (uint32_t)t->nfs, &added) < 0) {
		*oom = f->dw != NULL;
		free(f->in);
		free(f->var);
		free(f->in_reg);
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
		return answer(f, dwarf_dieoffset(&pt), m->disp + m->base_delta, DGPCTYPE_TRACKED, r);
	return DGPCTYPE_NONE;
}

/* ---------------------------------------------------------------- alloc */

#define ALLOC_SCAN   64         /* instructions followed after the call */
#define REG_RDI      5

/* What the code after one allocation call was seen to make of the new
   block's address. */
#define ALLOC_SLOTS 8

/* What the evidence says so far: the pointee (the larger, where one type
   is the start of the other), the byte of the block its pointer pointed
   at, where it was first seen. */
struct acand {
	Dwarf_Die type;
	int64_t base;
	int have, conflict;
	char ev[sizeof ((struct dgpctype_alloc *)0)->evidence];
};

struct ascan {
	const struct fstate *f;
	/* [0]: pointers to the block's start; [1]: into it, used only when
	   nothing points at its start (C++ new[]'s count comes first), since
	   a pointer to a member (&node->key) says what the member is */
	struct acand c[2];
	int up;
	/* frame slots holding the address (-O0 spills everything): base
	   register (rbp or rsp), displacement, distance from the block */
	struct { int8_t reg; int64_t disp, off; } slot[ALLOC_SLOTS];
	int nslots;
	uint64_t gaddr[NREG];   /* registers lea loaded with a global's address */
	unsigned gregs;
};

/* After in (which writes the registers in w): the registers that hold a
   global's address (lea sym(%rip)). */
static void globals_step(struct dgpctype *t, const cs_insn *in, struct ascan *s, unsigned w)
{
	const cs_x86 *x = &in->detail->x86;
	const cs_x86_op *o1 = &x->operands[1];

	if (in->id == X86_INS_CALL) {
		s->gregs &= CALLEE_SAVED;
		return;
	}
	s->gregs &= ~w;
	if (in->id == X86_INS_LEA && x->op_count == 2 && x->operands[0].type == X86_OP_REG
	    && t->is64[x->operands[0].reg] && o1->mem.base == X86_REG_RIP
	    && o1->mem.index == X86_REG_INVALID) {
		int d = t->reg_of[x->operands[0].reg];

		s->gaddr[d] = in->address + in->size + (uint64_t)o1->mem.disp;
		s->gregs |= 1u << d;
	}
}

/* The frame slot disp(reg) if it holds the address, else -1. */
static int slot_find(const struct ascan *s, int reg, int64_t disp)
{
	int i;

	for (i = 0; i < s->nslots; i++)
		if (s->slot[i].reg == reg && s->slot[i].disp == disp)
			return i;
	return -1;
}

/* disp(reg) now holds the address plus off (holds: 1) or something else. */
static void slot_set(struct ascan *s, int reg, int64_t disp, int64_t off, int holds)
{
	int i = slot_find(s, reg, disp);

	if (!holds) {
		if (i >= 0)
			s->slot[i] = s->slot[--s->nslots];
		return;
	}
	if (i < 0 && s->nslots < ALLOC_SLOTS)
		i = s->nslots++;
	if (i >= 0) {
		s->slot[i].reg = (int8_t)reg;
		s->slot[i].disp = disp;
		s->slot[i].off = off;
	}
}

static int same_type(Dwarf_Die *a, Dwarf_Die *b);

/* small is where big starts: big itself, its base class at offset 0, its
   first member, recursively (the tree code's node base in the node). */
static int starts_with(Dwarf_Die *big, Dwarf_Die *small)
{
	Dwarf_Die cur, p, m, mt;
	int depth;

	if (!peel(big, &cur))
		return 0;
	for (depth = 0; depth < MAX_DEPTH; depth++) {
		if (same_type(&cur, small))
			return 1;
		if (!is_aggregate(dwarf_tag(&cur)) || member_at(&cur, 0, &m, &mt) != 0
		    || !peel(&mt, &p))
			return 0;
		cur = p;
	}
	return 0;
}

/* One type, as two DIEs may say it (two units' copies of a struct). */
static int same_type(Dwarf_Die *a, Dwarf_Die *b)
{
	Dwarf_Die pa, pb;
	const char *na, *nb;

	if (!peel(a, &pa) || !peel(b, &pb))
		return 0;
	if (dwarf_dieoffset(&pa) == dwarf_dieoffset(&pb))
		return 1;
	na = dwarf_diename(&pa);
	nb = dwarf_diename(&pb);
	return na && nb && strcmp(na, nb) == 0 && dwarf_tag(&pa) == dwarf_tag(&pb)
	    && size_of(&pa) == size_of(&pb);
}

/* The address plus off became a value of pointer type ptr (a DIE offset)
   at addr: a piece of evidence.  void * and pointers to what has no size
   (a function, an incomplete struct) say nothing; two different types (or
   places) make the answer none, never one of them. */
static void evidence(struct ascan *s, Dwarf_Off ptr, int64_t off, uint64_t addr,
		     const char *what, const char *name)
{
	Dwarf_Die pt, fn = s->f->fn;
	Dwarf_Addr entry;
	const char *fname = dwarf_diename(&fn);
	struct acand *c = &s->c[off != 0];

	if (!ptr || off < 0 || !pointee(s->f->dw, ptr, &pt) || !size_of(&pt))
		return;
	if (c->have) {
		if (c->base != off)
			c->conflict = 1;
		else if (starts_with(&pt, &c->type))
			c->type = pt;   /* the larger: the node, not its base */
		else if (!starts_with(&c->type, &pt))
			c->conflict = 1;
		return;
	}
	c->type = pt;
	c->base = off;
	c->have = 1;
	if (dwarf_entrypc(&fn, &entry) != 0)
		entry = s->f->lo - s->f->cubias;   /* the part of it holding addr */
	snprintf(c->ev, sizeof c->ev, "%s %s at %s+0x%llx", what, name ? name : "?",
		 fname ? fname : "?", (unsigned long long)(addr - s->f->cubias - entry));
}

/* The DIE of the function whose entry is session address target. */
static int function_at(const struct fstate *f, uint64_t target, Dwarf_Die *out)
{
	Dwarf_Addr b, lo;
	Dwarf_Die *cu = dwfl_module_addrdie(f->dm, target, &b), *sc = NULL;
	int n = cu ? dwarf_getscopes(cu, target - b, &sc) : 0, k, found = 0;

	for (k = 0; k < n && !found; k++)
		if (dwarf_tag(&sc[k]) == DW_TAG_subprogram) {
			found = dwarf_entrypc(&sc[k], &lo) == 0 && lo == target - b;
			if (found)
				*out = sc[k];
			break;
		}
	free(sc);
	return found;
}

/* A direct call with the address in %rdi: the callee's first parameter
   (a constructor's `this`, or any T *). */
static void passed(struct ascan *s, uint64_t target, int64_t off, uint64_t addr)
{
	Dwarf_Die fn, c, ty, param;
	Dwarf_Attribute loc;
	Dwarf_Addr entry;
	Dwarf_Op *op;
	int found = 0;          /* 1: in %rdi; 2: the first in a frame slot */

	/* the parameter DWARF places in %rdi at the callee's entry: not the
	   first declared (a clone drops parameters; a callee returning a large
	   struct gets its hidden return pointer there).  At -O0 every
	   parameter is in its frame slot from the entry: the first, unless a
	   large struct comes back through a hidden pointer in %rdi. */
	if (!function_at(s->f, target, &fn) || dwarf_entrypc(&fn, &entry) != 0
	    || dwarf_child(&fn, &c) != 0)
		return;
	do {
		if (dwarf_tag(&c) != DW_TAG_formal_parameter || !dwarf_attr(&c, DW_AT_location, &loc)
		    || !(op = loc_op(&loc, entry)))
			continue;
		if (op_reg(op) == REG_RDI) {
			param = c;
			found = 1;
		} else if (op->atom == DW_OP_fbreg && !found) {
			param = c;
			found = 2;
		}
	} while (found != 1 && dwarf_siblingof(&c, &c) == 0);
	if (found == 2 && type_of(&fn, &ty) && peel(&ty, &ty) && is_aggregate(dwarf_tag(&ty))
	    && size_of(&ty) > 16)
		return;
	if (found && type_of(&param, &ty))
		evidence(s, dwarf_dieoffset(&ty), off, addr, "passed to", dwarf_diename(&fn));
}

/* Among parent's children (and, for a function, its blocks'), the variable
   with a fixed address whose bytes hold session address at (bias b): its
   DIE in *out and at's offset in it; -1 if none. */
static int64_t fixed_var_in(Dwarf_Die *parent, Dwarf_Addr b, uint64_t at, Dwarf_Die *out,
			    int depth)
{
	Dwarf_Die c, ty;
	Dwarf_Attribute loc;
	Dwarf_Op *expr;
	size_t len;
	int64_t r;

	if (depth > 4 || dwarf_child(parent, &c) != 0)
		return -1;
	do {
		int tag = dwarf_tag(&c);

		if (tag == DW_TAG_lexical_block && (r = fixed_var_in(&c, b, at, out, depth + 1)) >= 0)
			return r;
		if (tag != DW_TAG_variable || !dwarf_attr(&c, DW_AT_location, &loc)
		    || dwarf_getlocation(&loc, &expr, &len) != 0 || len != 1
		    || expr[0].atom != DW_OP_addr || !type_of(&c, &ty))
			continue;
		if (at - (expr[0].number + b) < size_of(&ty)) {
			*out = c;
			return (int64_t)(at - (expr[0].number + b));
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return -1;
}

/* The global or static variable holding session address at (the unit of
   code address addr, then the function's own statics): its DIE, and at's
   offset in it; -1 if none. */
static int64_t global_at(const struct fstate *f, uint64_t addr, uint64_t at, Dwarf_Die *var)
{
	Dwarf_Addr b;
	Dwarf_Die *cu = dwfl_module_addrdie(f->dm, addr, &b), fn = f->fn;
	int64_t r;

	if (!cu)
		return -1;
	if ((r = fixed_var_in(cu, b, at, var, 0)) >= 0)
		return r;
	return fixed_var_in(&fn, b, at, var, 1);
}

/* mov %reg, mem with the address in reg: the type of the 8-byte slot it
   lands in (a local, a global, a member through a typed pointer). */
static void stored(struct dgpctype *t, struct ascan *s, const cs_insn *in, int64_t off)
{
	const struct fstate *f = s->f;
	const struct minsn *tracked = minsn_find(f, in->address);
	const struct vloc *v;
	Dwarf_Addr pc = in->address - f->cubias;
	Dwarf_Off vt = 0;
	Dwarf_Die ty, p;
	struct rty bt = { 0, 0 };
	struct minsn m;
	int64_t at;

	if (!mem_operand(t, in, &m))
		return;
	/* a global: rip-relative, or through a register lea loaded with its
	   address (an index: a whole number of elements of an array) */
	if ((m.base == REG_RIP && m.index == REG_NONE)
	    || (m.base >= 0 && m.base < NREG && s->gregs & 1u << m.base)) {
		uint64_t g = (m.base == REG_RIP ? in->address + in->size : s->gaddr[m.base])
			     + (uint64_t)m.disp;
		Dwarf_Die var;

		if ((at = global_at(f, in->address, g, &var)) >= 0 && type_of(&var, &ty))
			evidence(s, member_type_at(&ty, (uint64_t)at, 8), off, in->address,
				 "stored to global", dwarf_diename(&var));
		return;
	}
	if (m.base < 0 || m.base >= NREG)
		return;
	if (m.index == REG_NONE && (at = frame_var(f, m.base, m.disp, pc, &vt, &v)) >= 0) {
		if (die_at(f->dw, vt, &ty) && die_at(f->dw, v->var, &p))
			evidence(s, member_type_at(&ty, (uint64_t)at, 8), off, in->address,
				 "stored to local", dwarf_diename(&p));
		return;
	}
	bt.type = var_in_reg(f, m.base, pc);
	if (!bt.type && tracked) {
		bt.type = tracked->base_type;
		bt.delta = tracked->base_delta;
	}
	if (!bt.type || !pointee(f->dw, bt.type, &ty) || !peel(&ty, &p) || m.disp + bt.delta < 0)
		return;
	if (m.index != REG_NONE && size_of(&p) > 8)
		return;         /* an aggregate indexed by a register: where? */
	evidence(s, member_type_at(&ty, (uint64_t)(m.disp + bt.delta), 8), off, in->address,
		 "stored into", dwarf_diename(&p));
}

/* One instruction's effect on which registers hold the address (and how
   far from the block's start): copies, lea and add/sub of a constant
   carry it, a store of it is evidence, any other write loses it. */
/* DWARF register r (-1 for a register that is none of the sixteen: %eip)
   is one of holders. */
static int holds(unsigned holders, int r)
{
	return r >= 0 && r < NREG && holders & 1u << r;
}

static unsigned alloc_step(struct dgpctype *t, const cs_insn *in, struct ascan *s,
			   unsigned holders, int64_t *off, unsigned w)
{
	const cs_x86 *x = &in->detail->x86;
	const cs_x86_op *o0 = &x->operands[0], *o1 = &x->operands[1];
	int d, r;

	if (x->op_count != 2)
		return holders & ~w;
	if (in->id == X86_INS_MOV && o0->type == X86_OP_MEM && o0->mem.index == X86_REG_INVALID
	    && (o0->mem.base == X86_REG_RBP || o0->mem.base == X86_REG_RSP)) {
		/* a spill of the address, or something else over a slot of it */
		r = o1->type == X86_OP_REG && t->is64[o1->reg] ? t->reg_of[o1->reg] : REG_NONE;
		slot_set(s, t->reg_of[o0->mem.base], o0->mem.disp, r >= 0 ? off[r] : 0,
			 r >= 0 && holders & 1u << r);
	}
	if (in->id == X86_INS_MOV && o1->type == X86_OP_REG && t->is64[o1->reg]
	    && holders & 1u << (r = t->reg_of[o1->reg])) {
		if (o0->type == X86_OP_MEM) {
			/* into the block itself (a string's pointer to its own
			   buffer) says what a member is, not the block */
			if (o0->mem.base == X86_REG_INVALID || o0->mem.base == X86_REG_RIP
			    || !holds(holders, t->reg_of[o0->mem.base]))
				stored(t, s, in, off[r]);
			return holders;
		}
		if (o0->type == X86_OP_REG && t->is64[o0->reg]) {
			d = t->reg_of[o0->reg];
			off[d] = off[r];
			return holders | 1u << d;
		}
	}
	if (o0->type != X86_OP_REG || !t->is64[o0->reg])
		return holders & ~w;
	d = t->reg_of[o0->reg];
	if (in->id == X86_INS_MOV && o1->type == X86_OP_MEM && o1->mem.index == X86_REG_INVALID
	    && o1->mem.base != X86_REG_INVALID && o1->mem.base != X86_REG_RIP
	    && (r = slot_find(s, t->reg_of[o1->mem.base], o1->mem.disp)) >= 0) {
		off[d] = s->slot[r].off;    /* the address, reloaded */
		return holders | 1u << d;
	}
	if (in->id == X86_INS_LEA && o1->mem.index == X86_REG_INVALID
	    && o1->mem.base != X86_REG_INVALID && o1->mem.base != X86_REG_RIP
	    && holds(holders, r = t->reg_of[o1->mem.base])) {
		off[d] = off[r] + o1->mem.disp;
		return holders | 1u << d;
	}
	if ((in->id == X86_INS_ADD || in->id == X86_INS_SUB) && o1->type == X86_OP_IMM
	    && holders & 1u << d) {
		off[d] += in->id == X86_INS_ADD ? o1->imm : -o1->imm;
		return holders;
	}
	return holders & ~w;
}

/* A pointer base bytes into the block can be to its first element only
   after C++ new[]'s element count (a size_t, or one aligned to 16): in C,
   and anywhere else, it points at a member. */
static int array_cookie(const struct fstate *f, int64_t base)
{
	Dwarf_Die cu;
	int lang;

	if (base != 8 && base != 16)
		return 0;
	if (!dwarf_diecu((Dwarf_Die *)&f->fn, &cu, NULL, NULL))
		return 0;
	lang = dwarf_srclang(&cu);
	return lang == DW_LANG_C_plus_plus || lang == DW_LANG_C_plus_plus_03
	    || lang == DW_LANG_C_plus_plus_11 || lang == DW_LANG_C_plus_plus_14;
}

int dgpctype_alloc_at(struct dgpctype *t, Dwfl_Module *dm, Dwarf_Die *fn, uint64_t call,
		      struct dgpctype_alloc *a)
{
	int oom, r, steps;
	struct fstate *f = fstate_of(t, dm, fn, call, &oom);
	struct ascan s;
	struct acand *best;
	const uint8_t *code, *c;
	uint64_t at = call, next, target;
	unsigned holders = 1, w;        /* %rax; what an instruction writes */
	int64_t off[NREG] = { 0 };      /* a holder's distance from the block */
	size_t size;
	Dwarf_Die ty;

	memset(a, 0, sizeof *a);
	if (!f)
		return oom ? -1 : DGPCTYPE_ALLOC_NONE;
	if (!(code = code_bytes(dm, f->lo, f->hi)))
		return DGPCTYPE_ALLOC_NONE;
	memset(&s, 0, sizeof s);
	s.f = f;
	s.gregs = f->gregs;
	memcpy(s.gaddr, f->gaddr, sizeof s.gaddr);
	/* the frame's pc is the call (the stack of a heap block names it), or
	   else the return address itself */
	c = code + (call - f->lo);
	size = (size_t)(f->hi - call);
	next = call;
	if (cs_disasm_iter(t->cs, &c, &size, &next, t->insn) && t->insn->id == X86_INS_CALL)
		at = next;
	for (steps = 0; steps < ALLOC_SCAN && (holders || s.nslots) && at >= f->lo && at < f->hi;
	     steps++) {
		const cs_x86 *x;
		Dwarf_Addr pc = at - f->cubias;

		c = code + (at - f->lo);
		size = (size_t)(f->hi - at);
		next = at;
		if (!cs_disasm_iter(t->cs, &c, &size, &next, t->insn))
			break;
		x = &t->insn->detail->x86;
		for (r = 0; r < NREG; r++) {      /* a variable DWARF places there */
			const struct vloc *v = holders & 1u << r ? vloc_in_reg(f, r, pc) : NULL;
			Dwarf_Die vd;

			if (v && die_at(f->dw, v->var, &vd))
				evidence(&s, v->type, off[r], at, "variable", dwarf_diename(&vd));
		}
		insn_end(t, t->insn, &target);
		w = written_regs(t, t->insn);
		if (t->insn->id == X86_INS_CALL) {
			if (holders & 1u << REG_RDI && x->op_count == 1 && x->operands[0].type == X86_OP_IMM)
				passed(&s, (uint64_t)x->operands[0].imm, off[REG_RDI], at);
			holders &= CALLEE_SAVED;
		} else if (cs_insn_group(t->cs, t->insn, CS_GRP_RET)) {
			int ptr = holders & 1u && type_of(&f->fn, &ty) && is_pointer(&ty);

			if (ptr)
				evidence(&s, dwarf_dieoffset(&ty), off[0], at, "returned by",
					 dwarf_diename(&f->fn));
			/* a wrapper returns what it got (a void *): ask its caller;
			   a function of no pointer type leaves %rax to chance */
			s.up = ptr && off[0] == 0 && !s.c[0].have && !s.c[1].have;
			break;
		} else if (t->insn->id == X86_INS_JMP) {
			if (!target || target < f->lo || target >= f->hi)
				break;  /* a tail call or an indirect jump: lost */
			next = target;
		} else {
			holders = alloc_step(t, t->insn, &s, holders, off, w);
			/* a slot is named by its base register: once that moves
			   (%rsp by a push, %rbp used as any register at -O2),
			   the slot is another */
			for (r = s.nslots - 1; r >= 0; r--)
				if (w & 1u << s.slot[r].reg)
					s.slot[r] = s.slot[--s.nslots];
		}
		globals_step(t, t->insn, &s, w);
		at = next;
	}
	best = s.c[0].have || !array_cookie(f, s.c[1].base) ? &s.c[0] : &s.c[1];
	if (best->have && !best->conflict) {
		a->type = dwarf_dieoffset(&best->type);
		a->size = size_of(&best->type);
		a->base = (uint64_t)best->base;
		memcpy(a->evidence, best->ev, sizeof a->evidence);
		return a->how = DGPCTYPE_ALLOC_TYPED;
	}
	return a->how = s.up ? DGPCTYPE_ALLOC_UP : DGPCTYPE_ALLOC_NONE;
}
