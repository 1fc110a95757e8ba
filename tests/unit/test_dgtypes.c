/* test_dgtypes.c: unit test of lib/dgtypes.c (types and variables from
 * DWARF).
 *
 * Compiles a small C program and a C++ one with the system compiler (-g,
 * DWARF 5, DWARF 4, DWARF 4 type units, -gz, -gsplit-dwarf), runs each: it prints, with offsetof and sizeof,
 * the layout the compiler chose ("path offset size" a line).  The same
 * types read from the DWARF must give exactly those fields; an offset
 * inside each field (and inside a later element of a folded array) must
 * name it; padding names none; globals are found by address.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdw.h>

#include "dgtypes.h"
#include "tu.h"

static char dir[64];

static const char prog_c[] =
	"#include <stddef.h>\n"
	"#include <stdio.h>\n"
	"struct hdr { short kind; int len; };\n"
	"struct slot { long key; char tag; };\n"
	"struct item {\n"
	"\tint a;\n"
	"\tchar pad_me;\n"
	"\tlong b;\n"
	"\tstruct hdr hdr;\n"
	"\tstruct slot slots[4];\n"
	"\tchar name[10];\n"
	"\tunsigned lo : 3, mid : 9, hi : 20;\n"
	"\tunion { int i; double d; } u;\n"
	"\tint c;\n"
	"};\n"
	"typedef struct { int x, y; } point_t;\n"
	"struct item items[3];\n"
	"point_t origin;\n"
	"static int counter;\n"
	"#define P(path, m) printf(\"%s %zu %zu\\n\", path, offsetof(struct item, m), sizeof(((struct item *)0)->m))\n"
	"int main(void)\n"
	"{\n"
	"\tcounter++;\n"
	"\tP(\"a\", a); P(\"pad_me\", pad_me); P(\"b\", b); P(\"hdr.kind\", hdr.kind);\n"
	"\tP(\"hdr.len\", hdr.len); P(\"slots[].key\", slots[0].key);\n"
	"\tP(\"slots[].tag\", slots[0].tag); P(\"name\", name); P(\"u.i\", u.i);\n"
	"\tP(\"u.d\", u.d); P(\"c\", c);\n"
	"\tprintf(\"sizeof %zu\\n\", sizeof(struct item));\n"
	"\tprintf(\"items %p\\norigin %p\\ncounter %p\\n\", (void *)items, (void *)&origin, (void *)&counter);\n"
	"\treturn 0;\n"
	"}\n";

static const char prog_cc[] =
	"#include <cstddef>\n"
	"#include <cstdio>\n"
	"namespace ns {\n"
	"struct Base { int id; };\n"
	"struct Node : Base { Node *next; int val; static int count; };\n"
	"int Node::count;\n"
	"}\n"
	"ns::Node head;\n"
	"int main()\n"
	"{\n"
	"\tns::Node n;\n"
	"\tstd::printf(\"Base::id %zu %zu\\n\", (size_t)((char *)&n.id - (char *)&n), sizeof n.id);\n"
	"\tstd::printf(\"next %zu %zu\\n\", offsetof(ns::Node, next), sizeof n.next);\n"
	"\tstd::printf(\"val %zu %zu\\n\", offsetof(ns::Node, val), sizeof n.val);\n"
	"\tstd::printf(\"sizeof %zu\\n\", sizeof(ns::Node));\n"
	"\treturn 0;\n"
	"}\n";

/* The field of type ty whose path is path, or NONE. */
static uint32_t by_path(struct dgtypes *t, uint32_t ty, const char *path)
{
	const struct dgtypes_type *T = dgtypes_type(t, ty);
	uint32_t i;

	for (i = 0; i < T->n_fields; i++)
		if (strcmp(dgtypes_field(t, T->first_field + i)->path, path) == 0)
			return T->first_field + i;
	return DGTYPES_NONE;
}

/* Every "path offset size" line of the program's output against the
   type's fields, and field_at inside each (and an element later). */
static void check_layout(struct dgtypes *t, uint32_t ty, FILE *out, const char *what)
{
	char path[128];
	unsigned long off, size;
	int lines = 0, good = 0;

	while (fscanf(out, "%127s %lu %lu", path, &off, &size) == 3) {
		uint32_t f = by_path(t, ty, path);
		const struct dgtypes_field *F = f == DGTYPES_NONE ? NULL : dgtypes_field(t, f);
		uint32_t at = dgtypes_field_at(t, ty, off);
		/* overlapping members (a union): the first declared wins */
		int ok = F && F->offset == off && F->size == size
		      && (at == f || (at < f && dgtypes_field(t, at)->offset == off));
		if (ok && F->stride)   /* the third element of a folded array */
			ok = dgtypes_field_at(t, ty, off + 2 * F->stride) == f;
		if (!ok)
			tu_note("%s: %s: expected offset %lu size %lu, got %s %llu %llu", what, path,
			        off, size, F ? "" : "none", F ? (unsigned long long)F->offset : 0,
			        F ? (unsigned long long)F->size : 0);
		lines++;
		good += ok;
	}
	tu_check(lines > 0 && good == lines, "%s: %d of %d fields as the compiler laid them out",
	         what, good, lines);
}

static Dwarf *open_dwarf(const char *exe, int *fd)
{
	char p[128];

	snprintf(p, sizeof p, "%s/%s", dir, exe);
	*fd = open(p, O_RDONLY);
	return *fd < 0 ? NULL : dwarf_begin(*fd, DWARF_C_READ);
}

static void test_c(const char *flags)
{
	char cmd[256], what[64], word[32];
	struct dgtypes *t;
	Dwarf *dw;
	FILE *out;
	int fd;
	uint32_t ty, ty2, f, v, vt, vf;
	unsigned long sz, items = 0, origin = 0, counter = 0, a;

	snprintf(what, sizeof what, "C %s", flags);
	if (tu_sh("cc -O0 -no-pie -fno-pie %s -o %s/progc %s/prog.c", flags, dir, dir) != 0) {
		tu_check(0, "%s: compiles", what);
		return;
	}
	dw = open_dwarf("progc", &fd);
	t = dgtypes_new(cmd, sizeof cmd);
	tu_check(dw && t && dgtypes_add_module(t, 7, dw, 0) == 0, "%s: module added", what);
	ty = dgtypes_add_named(t, "struct item");
	ty2 = dgtypes_add_named(t, "item");
	tu_check(ty != DGTYPES_NONE && ty == ty2, "%s: 'struct item' and 'item' are one type", what);
	if (ty == DGTYPES_NONE)
		return;
	tu_check(strcmp(dgtypes_type(t, ty)->name, "struct item") == 0
	         && dgtypes_type(t, ty)->module == 7 && dgtypes_type(t, ty)->line == 5,
	         "%s: named 'struct item', module 7, line 5 (%s, %d)", what,
	         dgtypes_type(t, ty)->name, dgtypes_type(t, ty)->line);
	snprintf(cmd, sizeof cmd, "%s/progc", dir);
	out = popen(cmd, "r");
	check_layout(t, ty, out, what);
	while (fscanf(out, "%31s %lx", word, &a) == 2) {
		if (strcmp(word, "items") == 0) items = a;
		if (strcmp(word, "origin") == 0) origin = a;
		if (strcmp(word, "counter") == 0) counter = a;
	}
	pclose(out);
	sz = dgtypes_type(t, ty)->size;
	f = by_path(t, ty, "mid");
	tu_check(f != DGTYPES_NONE && dgtypes_field(t, f)->bit_size == 9
	         && dgtypes_field(t, f)->bit_offset == 3, "%s: bit-field mid: 9 bits at bit 3", what);
	tu_check(dgtypes_field_at(t, ty, 5) == DGTYPES_NONE, "%s: offset 5 is padding", what);
	tu_check(dgtypes_field_at(t, ty, sz * 2 + 0) == by_path(t, ty, "a"),
	         "%s: offsets past the end wrap as in an array", what);
	tu_check(strcmp(dgtypes_field(t, by_path(t, ty, "hdr.kind"))->type_name, "short int") == 0
	         && strcmp(dgtypes_field(t, by_path(t, ty, "name"))->type_name, "char[10]") == 0,
	         "%s: field type names", what);
	/* globals */
	v = dgtypes_var_at(t, items + sz + 8);
	tu_check(v != DGTYPES_NONE && strcmp(dgtypes_var(t, v)->name, "items") == 0
	         && dgtypes_var_field(t, v, items + sz + 8, &vt, &vf) == 0 && vt == ty
	         && vf == by_path(t, ty, "b"), "%s: items[1].b found by address", what);
	v = dgtypes_var_at(t, origin + 4);
	tu_check(v != DGTYPES_NONE && dgtypes_var_field(t, v, origin + 4, &vt, &vf) == 0
	         && strcmp(dgtypes_type(t, vt)->name, "point_t") == 0
	         && strcmp(dgtypes_field(t, vf)->path, "y") == 0,
	         "%s: origin.y, a typedef of an anonymous struct", what);
	v = dgtypes_var_at(t, counter);
	tu_check(v != DGTYPES_NONE && strcmp(dgtypes_var(t, v)->name, "counter") == 0
	         && dgtypes_var_field(t, v, counter, &vt, &vf) == 0
	         && strcmp(dgtypes_field(t, vf)->path, "") == 0, "%s: a static int", what);
	tu_check(dgtypes_var_at(t, 16) == DGTYPES_NONE, "%s: no variable at 16", what);
	tu_check(dgtypes_add_named(t, "struct no_such") == DGTYPES_NONE
	         && strstr(dgtypes_errmsg(t), "no_such"), "%s: an unknown name: %s", what,
	         dgtypes_errmsg(t));
	tu_check(dgtypes_add_offset(t, 7, 1u << 30) == DGTYPES_NONE, "%s: a bogus DIE offset", what);
	dgtypes_free(t);
	dwarf_end(dw);
	close(fd);
}

static void test_cc(void)
{
	char cmd[256];
	struct dgtypes *t;
	Dwarf *dw;
	FILE *out;
	int fd;
	uint32_t ty;

	if (tu_sh("c++ -g -O0 -Wno-invalid-offsetof -o %s/progcc %s/prog.cc", dir, dir) != 0) {
		tu_check(0, "C++: compiles");
		return;
	}
	dw = open_dwarf("progcc", &fd);
	t = dgtypes_new(cmd, sizeof cmd);
	tu_check(dw && t && dgtypes_add_module(t, 0, dw, 0) == 0, "C++: module added");
	ty = dgtypes_add_named(t, "ns::Node");
	tu_check(ty != DGTYPES_NONE && ty == dgtypes_add_named(t, "struct Node"),
	         "C++: 'ns::Node' and 'struct Node' found (%s)", dgtypes_errmsg(t));
	if (ty != DGTYPES_NONE) {
		snprintf(cmd, sizeof cmd, "%s/progcc", dir);
		out = popen(cmd, "r");
		check_layout(t, ty, out, "C++");
		pclose(out);
		tu_check(dgtypes_type(t, ty)->n_fields == 3, "C++: the static member is not a field");
	}
	dgtypes_free(t);
	dwarf_end(dw);
	close(fd);
}

int main(void)
{
	snprintf(dir, sizeof dir, "/tmp/dgtypes-XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 2;
	}
	if (tu_put(dir, "prog.c", prog_c) < 0 || tu_put(dir, "prog.cc", prog_cc) < 0) {
		perror(dir);
		return 2;
	}
	test_c("-gdwarf-5");
	test_c("-gdwarf-4");
	test_c("-gdwarf-4 -fdebug-types-section");
	test_c("-gdwarf-5 -gz");               /* compressed sections */
	test_c("-gdwarf-5 -gsplit-dwarf");     /* a skeleton unit and its .dwo */
	test_cc();
	tu_sh("rm -rf %s", dir);
	return tu_failed;
}
