/* test_dgsym.c: unit test of the symbolizer (lib/dgsym.c).
 *
 * Builds small programs with the system compiler into a temporary directory
 * (a C program with a forced-inline helper, as a PIE and with -no-pie; a
 * C++ program with a namespaced method; a shared library, stripped), maps
 * them at chosen biases, and checks function, file, line and the inline
 * chain against `addr2line -f -i -C`, PLT stubs of IFUNCs against objdump
 * (in a library of ours and in libc).  Then the failure paths (build-id
 * mismatch, missing, non-ELF, truncated files, a FIFO, unmapping), and libc
 * of this very process.  `test_dgsym --bench` also times lookups.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <dlfcn.h>
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dgsym.h"
#include "tu.h"

static char dir[64];

static const char prog_c[] =
	"volatile int counter;\n"
	"static inline __attribute__((always_inline)) int inl_helper(int x)\n"
	"{\n"
	"\tcounter += x;\n"
	"\t__asm__ volatile(\".globl dg_mark_inl\\ndg_mark_inl:\");\n"
	"\tcounter = counter * 3;\n"
	"\treturn counter;\n"
	"}\n"
	"__attribute__((noinline)) int outer_fn(int x)\n"
	"{\n"
	"\treturn inl_helper(x) + 1;\n"
	"}\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"\t(void)argv;\n"
	"\treturn outer_fn(argc);\n"
	"}\n";

static const char prog_cc[] =
	"namespace ns {\n"
	"struct Widget {\n"
	"\tint v;\n"
	"\tint compute(int k);\n"
	"};\n"
	"__attribute__((noinline)) int Widget::compute(int k)\n"
	"{\n"
	"\treturn v * k + 7;\n"
	"}\n"
	"template <typename T> inline __attribute__((always_inline)) T twice(T x)\n"
	"{\n"
	"\t__asm__ volatile(\".globl dg_mark_tpl\\ndg_mark_tpl:\");\n"
	"\treturn x + x * x;\n"
	"}\n"
	"__attribute__((noinline)) long use_twice(long x)\n"
	"{\n"
	"\treturn twice(x) + 3;\n"
	"}\n"
	"}\n"
	"int main(int argc, char **)\n"
	"{\n"
	"\tns::Widget w{argc};\n"
	"\treturn w.compute(argc) + (int)ns::use_twice(argc);\n"
	"}\n";

static const char lib_c[] =
	"int dg_lib_fn(int x)\n"
	"{\n"
	"\treturn x * 5 + 1;\n"
	"}\n";

/* A library whose own call to a hidden IFUNC goes through a PLT stub with
 * an IRELATIVE slot and no symbol, as libc's calls to memcpy & co. do. */
static const char ifunc_c[] =
	"static int impl(int x) { return x * 5 + 1; }\n"
	"static int (*resolve(void))(int) { return impl; }\n"
	"__attribute__((visibility(\"hidden\"))) int dg_ifn(int)\n"
	"\t__attribute__((ifunc(\"resolve\")));\n"
	"int dg_lib_fn(int x) { return dg_ifn(x) + 2; }\n";

/* ---------------------------------------------------------------- helpers */

/* The value of symbol name in file (nm; -D for the dynamic table). */
static uint64_t sym_addr(const char *file, const char *name, int dynamic)
{
	char cmd[512], line[512], sname[256], type;
	unsigned long long a;
	uint64_t found = 0;
	FILE *p;

	snprintf(cmd, sizeof cmd, "nm %s %s/%s", dynamic ? "-D" : "", dir, file);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	while (fgets(line, sizeof line, p))
		if (sscanf(line, "%llx %c %255s", &a, &type, sname) == 3 &&
		    !strcmp(sname, name))
			found = a;
	pclose(p);
	return found;
}

/* The GNU build-id of a file; its length, 0 if none. */
static size_t file_build_id(const char *path, uint8_t *id, size_t max)
{
	int fd = open(path, O_RDONLY);
	const void *p;
	ssize_t n = 0;
	Elf *e;

	if (fd < 0)
		return 0;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e) {
		n = dwelf_elf_gnu_build_id(e, &p);
		if (n > 0 && (size_t)n <= max)
			memcpy(id, p, n);
		else
			n = 0;
		elf_end(e);
	}
	close(fd);
	return n;
}

/* addr2line's view of an ELF address: up to max (function, "file:line")
 * pairs, innermost first; the count. */
static int addr2line(const char *file, uint64_t a, char fn[][256],
		     char pos[][512], int max)
{
	char cmd[512], l1[256], l2[512];
	int n = 0;
	FILE *p;

	snprintf(cmd, sizeof cmd, "addr2line -f -i -C -e %s/%s 0x%" PRIx64,
		 dir, file, a);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	while (n < max && fgets(l1, sizeof l1, p) && fgets(l2, sizeof l2, p)) {
		l1[strcspn(l1, "\n")] = 0;
		l2[strcspn(l2, " \n")] = 0;     /* drop " (discriminator N)" */
		snprintf(fn[n], 256, "%s", l1);
		snprintf(pos[n], 512, "%s", l2);
		n++;
	}
	pclose(p);
	return n;
}

static int ends_with(const char *s, const char *tail)
{
	size_t n = s ? strlen(s) : 0, t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

/* objdump's first PLT stub of path named "*ABS*+0x...@plt": its ELF
 * address and name; 0, or -1 if there is none. */
static int objdump_abs_stub(const char *path, uint64_t *at, char *name,
			    size_t len)
{
	char cmd[512], line[512], nm[256];
	unsigned long long a;
	int found = -1;
	FILE *p;

	snprintf(cmd, sizeof cmd, "objdump -d -j .plt %s", path);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof line, p))
		if (found < 0 && sscanf(line, "%llx <%255[^>]>:", &a, nm) == 2 &&
		    !strncmp(nm, "*ABS*+0x", 8) && ends_with(nm, "@plt")) {
			*at = a;
			snprintf(name, len, "%s", nm);
			found = 0;
		}
	pclose(p);
	return found;
}

/* Is the stub at ELF address at of the module mapped at bias named as
 * objdump names it? */
static void check_abs_stub(struct dgsym *s, const char *what, const char *path,
			   uint64_t bias)
{
	struct dgsym_frame fr[4];
	char name[256];
	uint64_t at = 0;
	int n, mod;

	if (objdump_abs_stub(path, &at, name, sizeof name) < 0) {
		tu_note("%s: objdump shows no *ABS* PLT stub", what);
		return;
	}
	n = dgsym_lookup(s, at + bias + 6, &mod, fr, 4);
	tu_check(n == 1 && fr[0].function && !strcmp(fr[0].function, name) &&
		 fr[0].origin == DGSYM_BY_SYMTAB,
		 "%s: IFUNC PLT stub at 0x%" PRIx64 " named %s as objdump does (%s)",
		 what, at, name, n > 0 && fr[0].function ? fr[0].function : "-");
}

static const char *base(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;

	return s ? s + 1 : path ? path : "(null)";
}

/* Do our frames agree with addr2line at ELF address a of file? */
static void check_vs_addr2line(const char *what, const char *file, uint64_t a,
			       struct dgsym_frame *fr, int n)
{
	char fn[8][256], pos[8][512], mine[600];
	int k = addr2line(file, a, fn, pos, 8), i, same = k == n;

	for (i = 0; same && i < n; i++) {
		snprintf(mine, sizeof mine, "%s:%d", base(fr[i].file), fr[i].line);
		if (!fr[i].function || strcmp(fn[i], fr[i].function) ||
		    strcmp(base(pos[i]), mine))
			same = 0;
	}
	tu_check(same, "%s: %d frames agree with addr2line", what, n);
	if (!same)
		for (i = 0; i < (k > n ? k : n); i++)
			tu_note("  %d: addr2line %s %s | dgsym %s %s:%d", i,
				i < k ? fn[i] : "-", i < k ? pos[i] : "-",
				i < n ? fr[i].function : "-",
				i < n ? fr[i].file : "-", i < n ? fr[i].line : 0);
}

static int map_file(struct dgsym *s, const char *file, uint64_t lo,
		    uint64_t bias, const uint8_t *id, size_t id_len)
{
	char path[256];

	snprintf(path, sizeof path, "%s/%s", dir, file);
	return dgsym_add_mapping(s, lo + bias, 0x200000, 0, bias, 5, id, id_len,
				 path);
}

/* ---------------------------------------------------------------- checks */

static void check_c_prog(const char *file, uint64_t link_lo, uint64_t bias)
{
	char path[256], what[64];
	uint8_t id[64];
	size_t id_len;
	struct dgsym_frame fr[8];
	struct dgsym *s = dgsym_new(NULL, 0);
	uint64_t inl = sym_addr(file, "dg_mark_inl", 0);
	uint64_t outer = sym_addr(file, "outer_fn", 0);
	int m, mod = -2, n;

	snprintf(path, sizeof path, "%s/%s", dir, file);
	id_len = file_build_id(path, id, sizeof id);
	m = map_file(s, file, link_lo, bias, id, id_len);
	tu_check(m == 0 && inl && outer, "%s: mapped, symbols found", file);
	n = dgsym_lookup(s, inl + bias, &mod, fr, 8);
	tu_check(mod == 0, "%s: module of the pc", file);
	tu_check(n == 2 && fr[0].function && !strcmp(fr[0].function, "inl_helper") &&
		 fr[1].function && !strcmp(fr[1].function, "outer_fn"),
		 "%s: inline chain inl_helper <- outer_fn (%d frames, %s)", file,
		 n, n > 0 && fr[0].function ? fr[0].function : "-");
	tu_check(n == 2 && ends_with(fr[0].file, "/prog.c") && fr[0].line == 6 &&
		 fr[1].line == 11 && fr[0].decl_line == 2 && fr[1].decl_line == 9 &&
		 ends_with(fr[0].decl_file, "/prog.c"),
		 "%s: lines: pc at 6, call at 11, declared at 2 and 9 (%d %d %d %d)",
		 file, n > 0 ? fr[0].line : 0, n > 1 ? fr[1].line : 0,
		 n > 0 ? fr[0].decl_line : 0, n > 1 ? fr[1].decl_line : 0);
	snprintf(what, sizeof what, "%s inline mark", file);
	check_vs_addr2line(what, file, inl, fr, n);
	n = dgsym_lookup(s, outer + bias, &mod, fr, 8);
	snprintf(what, sizeof what, "%s outer_fn entry", file);
	check_vs_addr2line(what, file, outer, fr, n);
	n = dgsym_lookup(s, inl + bias, &mod, fr, 1);
	tu_check(n == 1 && !strcmp(fr[0].function, "inl_helper"),
		 "%s: max 1 gives the innermost frame", file);
	tu_check(dgsym_module_state(s, 0) == DGSYM_DWARF &&
		 !strcmp(dgsym_module_debug_file(s, 0), path),
		 "%s: DWARF from the file itself", file);
	tu_check(dgsym_module_bias(s, 0) == bias &&
		 dgsym_module_lo(s, 0) == link_lo + bias &&
		 dgsym_module_build_id(s, 0) && strlen(dgsym_module_build_id(s, 0)) == 2 * id_len,
		 "%s: module facts", file);
	dgsym_free(s);
}

static void check_cxx(void)
{
	struct dgsym *s = dgsym_new(NULL, 0);
	uint64_t f = sym_addr("cxx", "_ZN2ns6Widget7computeEi", 0), bias = 0x7f0000000000;
	struct dgsym_frame fr[8];
	int n, mod;

	map_file(s, "cxx", 0, bias, NULL, 0);
	n = dgsym_lookup(s, f + 3 + bias, &mod, fr, 8);
	tu_check(n == 1 && fr[0].function &&
		 !strcmp(fr[0].function, "ns::Widget::compute(int)") &&
		 fr[0].linkage_name && !strcmp(fr[0].linkage_name, "_ZN2ns6Widget7computeEi"),
		 "c++: demangled qualified name (%s)",
		 n && fr[0].function ? fr[0].function : "-");
	tu_check(n == 1 && ends_with(fr[0].decl_file, "/cxx.cc") && fr[0].decl_line == 6,
		 "c++: defined at line 6 (%d)", n ? fr[0].decl_line : 0);
	check_vs_addr2line("c++ method", "cxx", f + 3, fr, n);
	f = sym_addr("cxx", "dg_mark_tpl", 0);
	n = dgsym_lookup(s, f + bias, &mod, fr, 8);
	tu_check(n == 2 && fr[0].function && strstr(fr[0].function, "ns::twice<long") &&
		 fr[1].function && !strcmp(fr[1].function, "ns::use_twice(long)") &&
		 fr[1].line == 17,
		 "c++: inlined template qualified (%s) in ns::use_twice(long), called at 17",
		 n > 0 && fr[0].function ? fr[0].function : "-");
	dgsym_free(s);
}

/* Without DWARF: .symtab of a debug-stripped copy, .dynsym of a stripped
 * shared library, a PLT stub of an IFUNC (no symbol at all). */
static void check_symtab(void)
{
	struct dgsym *s = dgsym_new(NULL, 0);
	uint64_t outer = sym_addr("pie", "outer_fn", 0);
	uint64_t libfn = sym_addr("lib.so", "dg_lib_fn", 1);
	struct dgsym_frame fr[8];
	char path[256];
	int n, mod;

	map_file(s, "pie-nodebug", 0, 0x10000000, NULL, 0);
	map_file(s, "lib.so", 0, 0x20000000, NULL, 0);
	n = dgsym_lookup(s, outer + 1 + 0x10000000, &mod, fr, 8);
	tu_check(n == 1 && !strcmp(fr[0].function, "outer_fn") && !fr[0].file &&
		 dgsym_module_state(s, mod) == DGSYM_SYMTAB &&
		 !dgsym_module_debug_file(s, mod),
		 ".symtab fallback: outer_fn, no file");
	n = dgsym_lookup(s, libfn + 2 + 0x20000000, &mod, fr, 8);
	tu_check(n == 1 && !strcmp(fr[0].function, "dg_lib_fn") &&
		 !strcmp(fr[0].linkage_name, "dg_lib_fn"),
		 ".dynsym fallback of a stripped library: dg_lib_fn");
	snprintf(path, sizeof path, "%s/ifunc.so", dir);
	map_file(s, "ifunc.so", 0, 0x30000000, NULL, 0);
	check_abs_stub(s, "ifunc.so", path, 0x30000000);
	dgsym_free(s);
}

static void check_bad_files(void)
{
	struct dgsym *s = dgsym_new(NULL, 0);
	uint64_t outer = sym_addr("pie", "outer_fn", 0);
	struct dgsym_frame fr[8];
	char path[256];
	uint8_t id[64];
	size_t id_len;
	int m, mod, n;
	enum dgsym_state st;
	static const char *const bad[] = {
		"missing", "prog.c", "truncated", "fifo", "empty", "/dev/zero",
		"/proc/self/mem", ""
	};
	unsigned i;

	snprintf(path, sizeof path, "%s/pie", dir);
	id_len = file_build_id(path, id, sizeof id);
	id[0] ^= 0xff;
	m = map_file(s, "pie", 0, 0x10000000, id, id_len);
	n = dgsym_lookup(s, outer + 0x10000000, &mod, fr, 8);
	tu_check(m == 0 && mod == 0 && n == 0 &&
		 dgsym_module_state(s, 0) == DGSYM_MISMATCH &&
		 !dgsym_module_debug_file(s, 0),
		 "build-id mismatch: module known, no symbols");
	id[0] ^= 0xff;
	m = map_file(s, "pie", 0, 0x30000000, id, id_len);
	n = dgsym_lookup(s, outer + 0x30000000, &mod, fr, 8);
	tu_check(m == 1 && n > 0 && dgsym_module_state(s, 1) == DGSYM_DWARF,
		 "the right build-id at another bias: a second module, symbols");
	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		uint64_t at = 0x40000000 + (uint64_t)i * 0x1000000;

		if (bad[i][0] == '/' || !bad[i][0])
			m = dgsym_add_mapping(s, at, 0x10000, 0, at, 5, NULL, 0, bad[i]);
		else
			m = map_file(s, bad[i], 0, at, NULL, 0);
		n = dgsym_lookup(s, at + 0x1000, &mod, fr, 8);
		st = dgsym_module_state(s, m);
		tu_check(m >= 0 && mod == m && n == 0 &&
			 (st == DGSYM_MISSING || (!strcmp(bad[i], "truncated") &&
						 st == DGSYM_SYMTAB)),
			 "bad file '%s': module %d, no symbols (state %d)", bad[i],
			 m, st);
	}
	dgsym_free(s);
}

static void check_map(void)
{
	struct dgsym *s = dgsym_new(NULL, 0);
	uint8_t id[3] = { 1, 2, 3 };
	struct dgsym_frame fr[2];
	int a, b, c, mod;

	a = dgsym_add_mapping(s, 0x1000, 0x3000, 0, 0, 5, id, 3, "/x/a");
	b = dgsym_add_mapping(s, 0x5000, 0x1000, 0x4000, 0, 1, id, 3, "/x/a");
	c = dgsym_add_mapping(s, 0x2000, 0x1000, 0, 0x2000, 5, NULL, 0, "/x/c");
	tu_check(a == 0 && b == 0 && c == 1 && dgsym_n_modules(s) == 2,
		 "two mappings of one file are one module");
	tu_check(dgsym_module_lo(s, 0) == 0x1000 && dgsym_module_hi(s, 0) == 0x6000 &&
		 !strcmp(dgsym_module_build_id(s, 0), "010203") &&
		 !dgsym_module_build_id(s, 1),
		 "module span and build-id hex");
	dgsym_lookup(s, 0x1fff, &a, fr, 2);
	dgsym_lookup(s, 0x2000, &b, fr, 2);
	dgsym_lookup(s, 0x3000, &c, fr, 2);
	tu_check(a == 0 && b == 1 && c == 0, "a newer mapping hides the older");
	dgsym_unmap(s, 0x2800, 0x1000);
	dgsym_lookup(s, 0x27ff, &a, fr, 2);
	dgsym_lookup(s, 0x2800, &b, fr, 2);
	dgsym_lookup(s, 0x37ff, &c, fr, 2);
	dgsym_lookup(s, 0x3800, &mod, fr, 2);
	tu_check(a == 1 && b == -1 && c == -1 && mod == 0, "unmap cuts the range");
	dgsym_add_mapping(s, UINT64_MAX - 10, 100, 0, 0, 5, NULL, 0, "/x/top");
	dgsym_lookup(s, UINT64_MAX - 1, &a, fr, 2);
	dgsym_lookup(s, 0, &b, fr, 2);
	tu_check(a == 2 && b == -1, "a mapping past the top is clamped");
	dgsym_free(s);
}

/* ---------------------------------------------------------------- libc */

struct obj {
	const char *name;
	uint64_t bias, lo, hi;  /* executable segment, run-time */
};

static int find_obj(struct dl_phdr_info *info, size_t size, void *data)
{
	struct obj *o = data;
	int i;

	(void)size;
	if (!strstr(info->dlpi_name, o->name))
		return 0;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
			o->lo = info->dlpi_addr + ph->p_vaddr;
			o->hi = o->lo + ph->p_memsz;
		}
	}
	o->bias = info->dlpi_addr;
	o->name = info->dlpi_name;
	return 1;
}

static void check_libc(int bench)
{
	struct obj o = { "libc.so", 0, 0, 0 };
	struct dgsym *s = dgsym_new(NULL, 0);
	struct dgsym_frame fr[16];
	void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	uint64_t pc = libc ? (uint64_t)(uintptr_t)dlsym(libc, "malloc") : 0, a;
	uint8_t id[64];
	size_t id_len;
	int m, n, mod;
	struct timespec t0, t1;
	long count = 0, found = 0;
	int pass;

	dl_iterate_phdr(find_obj, &o);
	id_len = file_build_id(o.name, id, sizeof id);
	m = dgsym_add_mapping(s, o.lo, o.hi - o.lo, 0, o.bias, 5, id, id_len, o.name);
	n = dgsym_lookup(s, pc + 4, &mod, fr, 16);
	tu_check(m == 0 && n > 0 && strstr(fr[n - 1].function, "malloc"),
		 "libc: malloc+4 is in %s", n > 0 ? fr[n - 1].function : "-");
	if (libc)
		dlclose(libc);
	check_abs_stub(s, "libc", o.name, o.bias);
	tu_note("libc: %s, symbols from %s", o.name,
		dgsym_module_debug_file(s, 0) ? dgsym_module_debug_file(s, 0)
					      : "its symbol table");
	for (pass = 0; bench && pass < 2; pass++) {
		count = found = 0;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (a = o.lo; a < o.hi; a += 7, count++)
			found += dgsym_lookup(s, a, &mod, fr, 16) > 0;
		clock_gettime(CLOCK_MONOTONIC, &t1);
		tu_note("bench libc %s: %ld lookups (%ld named) in %.3f s: %.0f/s",
			pass ? "warm" : "cold", count, found,
			(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
			count / ((t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9));
	}
	dgsym_free(s);
}

/* Time lookups over every byte of a -g binary's text. */
static void bench_file(const char *path, uint64_t bias)
{
	struct dgsym *s = dgsym_new(NULL, 0);
	struct dgsym_frame fr[16];
	struct timespec t0, t1;
	uint64_t lo = 0, hi = 0, a;
	long count = 0, found = 0;
	int fd = open(path, O_RDONLY), mod, pass;
	Elf *e;
	size_t i, nph;

	elf_version(EV_CURRENT);
	e = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ, NULL);
	for (i = 0; e && elf_getphdrnum(e, &nph) == 0 && i < nph; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, i, &ph) && ph.p_type == PT_LOAD && (ph.p_flags & PF_X)) {
			lo = ph.p_vaddr;
			hi = lo + ph.p_memsz;
		}
	}
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
	dgsym_add_mapping(s, lo + bias, hi - lo, 0, bias, 5, NULL, 0, path);
	for (pass = 0; pass < 2; pass++) {
		count = found = 0;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (a = lo; a < hi; a++, count++)
			found += dgsym_lookup(s, a + bias, &mod, fr, 16) > 0;
		clock_gettime(CLOCK_MONOTONIC, &t1);
		tu_note("bench %s %s: %ld lookups (%ld named) in %.3f s: %.0f/s",
			path, pass ? "warm" : "cold", count, found,
			(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
			count / ((t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9));
	}
	dgsym_free(s);
}

/* ---------------------------------------------------------------- main */

static int build(void)
{
	tu_put(dir, "prog.c", prog_c);
	tu_put(dir, "cxx.cc", prog_cc);
	tu_put(dir, "lib.c", lib_c);
	tu_put(dir, "ifunc.c", ifunc_c);
	tu_put(dir, "empty", "");
	return tu_sh("cd %s && cc -g -O2 -fPIE -pie -o pie prog.c && "
		   "cc -g -O2 -fno-pie -no-pie -o nopie prog.c && "
		   "c++ -g -O2 -fPIE -pie -o cxx cxx.cc && "
		   "cc -g -O2 -fPIC -shared -o lib.so.g lib.c && "
		   "strip -s -o lib.so lib.so.g && "
		   "cc -g -O2 -fPIC -shared -o ifunc.so ifunc.c && "
		   "strip --strip-debug -o pie-nodebug pie && "
		   "head -c 5000 pie >truncated && mkfifo fifo", dir);
}

int main(int argc, char **argv)
{
	char keep[128];
	int bench = argc > 1 && !strcmp(argv[1], "--bench");

	snprintf(dir, sizeof dir, "%s/dgsymXXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (strlen(dir) > 40 || !mkdtemp(dir)) {
		printf("not ok - temporary directory\n");
		return 1;
	}
	tu_check(build() == 0, "test programs build");
	if (!tu_failed) {
		check_c_prog("pie", 0, 0x555555554000);
		check_c_prog("nopie", 0x400000, 0);
		check_cxx();
		check_symtab();
		check_bad_files();
	}
	check_map();
	check_libc(bench);
	if (bench) {
		bench_file(argv[0], 0x560000000000);
		if (argc > 2)
			bench_file(argv[2], 0x560000000000);
	}
	snprintf(keep, sizeof keep, "rm -rf %s", dir);
	if (!tu_failed)
		tu_sh("%s", keep);
	else
		tu_note("test files kept in %s", dir);
	return tu_failed;
}
