/* dgpctype_fuzz.c: libFuzzer target for the code analysis of lib/dgpctype
 * (the type tracker's fixpoint over basic blocks and the allocation scan):
 * machine code from the traced program's own files is input too.
 *
 * Each input replaces the code of the oracle tests/progs/pctype/alloc.c
 * (built -O2, its path compiled in as DGPCTYPE_FUZZ_PROG) from `main` on
 * (main, then the functions after it), up to 4 KiB, in a private copy of
 * the file; the DWARF stays
 * the real one, so variables, location lists and frame bases still
 * describe code that is no longer there.  Every byte address of the
 * patched span is then asked for its accessed type (dgpctype_at) and as
 * an allocation call (dgpctype_alloc_at).  Checked: no crash, no read
 * outside a buffer (ASAN, UBSan), and every answer in range: a type's
 * offset below its size, an allocation's evidence a terminated string.
 *
 * A failed check is __builtin_trap().  Build and run: make fuzz
 * FUZZ=dgpctype (tests/fuzz/fuzz.mk); make test replays tests/fuzz/dgpctype/.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dgpctype.h"
#include "dgsym.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)
#define BIAS     0x555555554000ull
#define SPAN     4096

static uint8_t *image;          /* the oracle file */
static size_t image_len;
static uint64_t code_vaddr, code_off, code_len;   /* `main` on, in the file */
static char path[64];           /* the private copy */

/* The oracle read once, and where `main` starts in it. */
static void setup(void)
{
	struct stat st;
	Elf *e;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	int fd = open(DGPCTYPE_FUZZ_PROG, O_RDONLY);

	CHECK(fd >= 0 && fstat(fd, &st) == 0);
	image_len = (size_t)st.st_size;
	CHECK((image = malloc(image_len)) && read(fd, image, image_len) == (ssize_t)image_len);
	elf_version(EV_CURRENT);
	CHECK((e = elf_memory((char *)image, image_len)) != NULL);
	while ((scn = elf_nextscn(e, scn)) && !code_len) {
		Elf_Data *d;
		GElf_Sym sym;
		size_t i;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !(d = elf_getdata(scn, NULL)))
			continue;
		for (i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			const char *name;

			if (!gelf_getsym(d, (int)i, &sym)
			    || !(name = elf_strptr(e, sh.sh_link, sym.st_name)) || strcmp(name, "main"))
				continue;
			code_vaddr = sym.st_value;
			break;
		}
	}
	scn = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_EXECINSTR)
		    && code_vaddr >= sh.sh_addr && code_vaddr < sh.sh_addr + sh.sh_size) {
			code_off = sh.sh_offset + (code_vaddr - sh.sh_addr);
			code_len = sh.sh_addr + sh.sh_size - code_vaddr;
		}
	}
	elf_end(e);
	close(fd);
	CHECK(code_vaddr && code_len);
	snprintf(path, sizeof path, "/tmp/dgpctype-fuzz.%ld", (long)getpid());
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dgpctype_res r;
	struct dgpctype_alloc al;
	struct dgsym *s;
	struct dgpctype *t;
	Dwfl_Module *dm;
	Dwarf_Die fn;
	uint64_t a, addr, n;
	FILE *f;

	if (!image)
		setup();
	n = size < SPAN ? size : SPAN;
	if (n > code_len)
		n = code_len;
	CHECK((f = fopen(path, "wb")) != NULL);
	CHECK(fwrite(image, 1, code_off, f) == code_off);
	CHECK(fwrite(data, 1, n, f) == n);
	CHECK(fwrite(image + code_off + n, 1, image_len - code_off - n, f)
	      == image_len - code_off - n);
	CHECK(fclose(f) == 0);
	s = dgsym_new(NULL, 0);
	t = dgpctype_new(NULL, 0);
	CHECK(s && t);
	dgsym_add_mapping(s, BIAS, 0x200000, 0, BIAS, 5, NULL, 0, path);
	for (a = code_vaddr; a < code_vaddr + (n ? n : 1); a++) {
		if (!dgsym_function_at(s, a + BIAS, &dm, &addr, &fn))
			continue;
		if (dgpctype_at(t, dm, &fn, addr, &r) > 0)
			CHECK(r.size && r.offset < r.size && r.type);
		if (dgpctype_alloc_at(t, dm, &fn, addr, &al) == DGPCTYPE_ALLOC_TYPED)
			CHECK(al.size && al.type && memchr(al.evidence, 0, sizeof al.evidence));
	}
	dgpctype_free(t);
	dgsym_free(s);
	unlink(path);
	return 0;
}
