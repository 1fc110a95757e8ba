/* dgplt.c: PLT stub names (see dgplt.h).
 *
 * Two passes over the section headers: the relocations that fill GOT
 * slots give slot -> symbol name, or resolver address for an IRELATIVE one
 * (sorted, for a binary search); then each PLT entry's indirect jump gives
 * its slot.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "dgplt.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dgmem.h"

#ifndef R_X86_64_GLOB_DAT
#define R_X86_64_GLOB_DAT  6
#define R_X86_64_JUMP_SLOT 7
#endif
#ifndef R_X86_64_IRELATIVE
#define R_X86_64_IRELATIVE 37
#endif

/* A GOT slot and what fills it: a symbol, or (IRELATIVE: an IFUNC the file
 * resolves itself, with no symbol) the ELF address of the resolver. */
struct slot {
	uint64_t got;
	const char *name;       /* in the ELF string table; NULL: IRELATIVE */
	uint64_t resolver;
};

struct slots {
	struct slot *v;
	size_t n, cap;
};

static int slot_cmp(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	return x->got < y->got ? -1 : x->got > y->got;
}

/* The symbol name of relocation r of a section linked to symbol table
 * symscn, or NULL. */
static const char *reloc_name(Elf *e, Elf_Scn *symscn, const GElf_Rela *r)
{
	GElf_Shdr sh;
	GElf_Sym sym;
	Elf_Data *d = elf_getdata(symscn, NULL);
	size_t idx = GELF_R_SYM(r->r_info);

	if (!d || !gelf_getshdr(symscn, &sh) || !gelf_getsym(d, (int)idx, &sym))
		return NULL;
	return elf_strptr(e, sh.sh_link, sym.st_name);
}

/* The slot that relocation r fills, if it fills one for a PLT stub (a
 * JUMP_SLOT or GLOB_DAT with a named symbol, or an IRELATIVE); 1 or 0. */
static int reloc_slot(Elf *e, Elf_Scn *symscn, const GElf_Rela *r,
		      struct slot *out)
{
	unsigned type = GELF_R_TYPE(r->r_info);

	*out = (struct slot){ r->r_offset, NULL, (uint64_t)r->r_addend };
	if (type == R_X86_64_IRELATIVE)
		return 1;
	if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT)
		return 0;
	out->name = reloc_name(e, symscn, r);
	return out->name && out->name[0];
}

/* The GOT slots filled by the RELA section scn. */
static int slots_of(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh, struct slots *s)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	Elf_Scn *symscn = elf_getscn(e, sh->sh_link);
	size_t i, n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	GElf_Rela r;
	struct slot sl;

	for (i = 0; d && symscn && i < n && i <= INT32_MAX; i++) {
		if (!gelf_getrela(d, (int)i, &r))
			break;
		if (!reloc_slot(e, symscn, &r, &sl))
			continue;
		if (dg_grow(&s->v, &s->cap, s->n + 1, sizeof *s->v) < 0)
			return -1;
		s->v[s->n++] = sl;
	}
	return 0;
}

static const struct slot *slot_find(const struct slots *s, uint64_t got)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->v[mid].got == got)
			return &s->v[mid];
		if (s->v[mid].got < got)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The slot that the entry at bytes[0..len) (ELF address at) jumps
 * through: the target of its first `ff 25 disp32`, or 0. */
static uint64_t entry_slot(const unsigned char *bytes, size_t len, uint64_t at)
{
	size_t i;
	int32_t disp;

	for (i = 0; i + 6 <= len; i++) {
		if (bytes[i] != 0xff || bytes[i + 1] != 0x25)
			continue;
		memcpy(&disp, bytes + i + 2, 4);        /* x86-64: little-endian */
		return at + i + 6 + (uint64_t)(int64_t)disp;
	}
	return 0;
}

/* Name the stub [lo, hi) after the slot it jumps through: its symbol, or
 * as objdump does for an IRELATIVE slot, "*ABS*+0x9f550" (the resolver);
 * no slot: the PLT header, without a name. */
static int add_stub(struct dgplt *p, uint64_t lo, uint64_t hi,
		    const struct slot *sl)
{
	char abs[32], *name = NULL;

	if (sl && !sl->name)
		snprintf(abs, sizeof abs, "*ABS*+0x%" PRIx64, sl->resolver);
	if (sl)
		name = strdup(sl->name ? sl->name : abs);

	if ((sl && !name) || dg_grow(&p->v, &p->cap, p->n + 1, sizeof *p->v) < 0) {
		free(name);
		return -1;
	}
	p->v[p->n++] = (struct dgplt_stub){ lo, hi, name };
	return 0;
}

static int is_plt(const char *name)
{
	return name && (!strcmp(name, ".plt") || !strcmp(name, ".plt.sec") ||
			!strcmp(name, ".plt.got"));
}

/* Name the entries of one PLT section; header: it is .plt, whose first
 * entry is the PLT header when its jump's slot has no relocation. */
static int stubs_of(struct dgplt *p, Elf_Scn *scn, const GElf_Shdr *sh,
		    const struct slots *s, int header)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t ent = sh->sh_entsize >= 8 ? sh->sh_entsize : 16, off;
	const struct slot *sl;
	uint64_t got;

	if (!d || !d->d_buf || sh->sh_type != SHT_PROGBITS)
		return 0;
	for (off = 0; off + ent <= d->d_size; off += ent) {
		uint64_t at = sh->sh_addr + off;

		got = entry_slot((const unsigned char *)d->d_buf + off, ent, at);
		sl = slot_find(s, got);
		if ((sl || (header && off == 0 && got)) && add_stub(p, at, at + ent, sl) < 0)
			return -1;
	}
	return 0;
}

static int stub_cmp(const void *a, const void *b)
{
	const struct dgplt_stub *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Call fn on every section of type `type` (0: any); 0 or -1. */
static int each_section(Elf *e, unsigned type,
			int (*fn)(Elf *, Elf_Scn *, const GElf_Shdr *, void *),
			void *arg)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh))
			break;
		if ((!type || sh.sh_type == type) && fn(e, scn, &sh, arg) < 0)
			return -1;
	}
	return 0;
}

static int rela_cb(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh, void *arg)
{
	return slots_of(e, scn, sh, arg);
}

struct plt_arg {
	struct dgplt *p;
	const struct slots *s;
	size_t shstrndx;
};

static int plt_cb(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh, void *arg)
{
	struct plt_arg *a = arg;
	const char *name = elf_strptr(e, a->shstrndx, sh->sh_name);

	if (!(sh->sh_flags & SHF_EXECINSTR) || !is_plt(name))
		return 0;
	return stubs_of(a->p, scn, sh, a->s, strcmp(name, ".plt") == 0);
}

int dgplt_load(struct dgplt *p, Elf *e)
{
	struct slots s = { NULL, 0, 0 };
	struct plt_arg a = { p, &s, 0 };
	GElf_Ehdr eh;
	int rc = 0;

	if (!e || !gelf_getehdr(e, &eh) || eh.e_machine != EM_X86_64 ||
	    elf_getshdrstrndx(e, &a.shstrndx) != 0)
		return 0;
	if (each_section(e, SHT_RELA, rela_cb, &s) < 0)
		rc = -1;
	dg_sort(s.v, s.n, sizeof *s.v, slot_cmp);
	if (rc == 0 && s.n && each_section(e, 0, plt_cb, &a) < 0)
		rc = -1;
	free(s.v);
	dg_sort(p->v, p->n, sizeof *p->v, stub_cmp);
	return rc;
}

const struct dgplt_stub *dgplt_find(const struct dgplt *p, uint64_t a)
{
	size_t lo = 0, hi = p->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a < p->v[mid].lo)
			hi = mid;
		else if (a >= p->v[mid].hi)
			lo = mid + 1;
		else
			return &p->v[mid];
	}
	return NULL;
}

void dgplt_free(struct dgplt *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->v[i].name);
	free(p->v);
	memset(p, 0, sizeof *p);
}
