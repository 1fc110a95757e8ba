/* dgentry.c: entry addresses from .eh_frame_hdr (see dgentry.h).
 *
 * The segment (LSB "Exception Frame Header"): version 1, three encoding
 * bytes (eh_frame_ptr, fde_count, table), the encoded eh_frame pointer and
 * FDE count, then fde_count pairs (initial location, FDE address), each a
 * signed 4-byte offset from the segment's start when the table encoding is
 * DW_EH_PE_datarel | DW_EH_PE_sdata4 (0x3b), sorted by initial location.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "dgentry.h"
#include "dgmem.h"

#include <stdlib.h>
#include <string.h>

#define PE_OMIT    0xff
#define PE_TABLE   0x3b         /* datarel | sdata4 */

/* Bytes of a pointer in encoding enc (its low nibble), 0 if unknown. */
static size_t enc_size(unsigned enc)
{
	switch (enc & 0x0f) {
	case 0x00: case 0x04: case 0x0c: return 8;     /* absptr, (s|u)data8 */
	case 0x03: case 0x0b: return 4;                /* (s|u)data4 */
	case 0x02: case 0x0a: return 2;                /* (s|u)data2 */
	default: return 0;
	}
}

static uint64_t read_u(const unsigned char *p, size_t n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];              /* little-endian */
	return v;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Parse the header at p[0..len) found at ELF address vaddr. */
static int parse(struct dgentry *t, const unsigned char *p, size_t len,
		 uint64_t vaddr)
{
	size_t ptr_n, cnt_n, off, i, n;

	if (len < 4 || p[0] != 1 || p[3] != PE_TABLE || p[1] == PE_OMIT ||
	    p[2] == PE_OMIT)
		return 0;
	ptr_n = enc_size(p[1]);
	cnt_n = enc_size(p[2]);
	if (!ptr_n || !cnt_n || len < 4 + ptr_n + cnt_n)
		return 0;
	off = 4 + ptr_n;
	n = (size_t)read_u(p + off, cnt_n);
	off += cnt_n;
	if (n > (len - off) / 8)
		n = (len - off) / 8;            /* truncated: what is there */
	t->v = malloc((n ? n : 1) * sizeof *t->v);
	if (!t->v)
		return -1;
	for (i = 0; i < n; i++) {
		int32_t rel = (int32_t)(uint32_t)read_u(p + off + 8 * i, 4);

		t->v[i] = vaddr + (uint64_t)(int64_t)rel;
	}
	t->n = n;
	return 0;
}

/* Add a; 0, or -1 when out of memory. */
static int add(struct dgentry *t, size_t *cap, uint64_t a)
{
	if (t->n == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		uint64_t *v = realloc(t->v, c * sizeof *v);

		if (!v)
			return -1;
		t->v = v;
		*cap = c;
	}
	t->v[t->n++] = a;
	return 0;
}

/* Entries no unwind record gives: the program's entry point and the start
 * of every code section (.init and .fini hold code without CFI). */
static int add_section_starts(struct dgentry *t, Elf *e)
{
	size_t cap = t->n;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Ehdr eh;

	if (gelf_getehdr(e, &eh) && eh.e_entry && add(t, &cap, eh.e_entry) < 0)
		return -1;
	while ((scn = elf_nextscn(e, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR) &&
		    sh.sh_size && add(t, &cap, sh.sh_addr) < 0)
			return -1;
	return 0;
}

/* Sort and drop duplicates. */
static void tidy(struct dgentry *t)
{
	size_t i, k = 0;

	if (!t->n)
		return;
	dg_sort(t->v, t->n, sizeof *t->v, u64_cmp);
	for (i = 1; i < t->n; i++)
		if (t->v[i] != t->v[k])
			t->v[++k] = t->v[i];
	t->n = k + 1;
}

/* The FDE starts of the PT_GNU_EH_FRAME segment, if any. */
static int load_hdr(struct dgentry *t, Elf *e)
{
	size_t nph, i;
	GElf_Phdr ph;
	Elf_Data *d;

	if (elf_getphdrnum(e, &nph) != 0)
		return 0;
	for (i = 0; i < nph; i++) {
		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_GNU_EH_FRAME)
			continue;
		d = elf_getdata_rawchunk(e, (int64_t)ph.p_offset, ph.p_filesz,
					 ELF_T_BYTE);
		if (!d || !d->d_buf)
			return 0;
		return parse(t, d->d_buf, d->d_size, ph.p_vaddr);
	}
	return 0;
}

int dgentry_load(struct dgentry *t, Elf *e)
{
	if (!e)
		return 0;
	if (load_hdr(t, e) < 0 || add_section_starts(t, e) < 0)
		return -1;
	tidy(t);
	return 0;
}

int dgentry_find(const struct dgentry *t, uint64_t a, uint64_t *entry)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {               /* first entry > a */
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid] <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -1;
	*entry = t->v[lo - 1];
	return 0;
}

void dgentry_free(struct dgentry *t)
{
	free(t->v);
	memset(t, 0, sizeof *t);
}
