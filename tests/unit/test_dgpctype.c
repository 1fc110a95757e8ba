/* test_dgpctype.c: unit test of the accessing instruction's type
 * (lib/dgpctype.c) on the field oracle tests/progs/pctype/fields.c, built
 * -O0 and -O2 (paths in $DGPCTYPE_PROGS, colon-separated).
 *
 * Every byte address of each oracle function (nm -S gives its extent) is
 * asked; the instructions that are loads or stores answer.  Checked: read_a
 * reads struct rec field a (through the parameter's location list at -O2,
 * through its stack slot followed by the tracker at -O0), write_b writes
 * field b, local_c writes field c of a local (a frame slot), init_arr and
 * sum_c's loops (a pointer stepped by the element size at -O2, followed
 * round the back edge) write a and read c, and poke_void, which only sees
 * a void *, gets no struct type at all.  Then bad input:
 * an address outside any function, a file with no DWARF.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dgpctype.h"
#include "dgsym.h"
#include "dgtypes.h"
#include "tu.h"

#define BIAS 0x555555554000ull

static const char *how_name[] = { "none", "register", "stack", "tracked" };

/* The ELF address and size of function fn in file, from nm -S. */
static int fn_extent(const char *file, const char *fn, uint64_t *lo, uint64_t *size)
{
	char cmd[512], line[512], name[256], type;
	FILE *p;
	int found = 0;

	snprintf(cmd, sizeof cmd, "nm -S '%s'", file);
	if (!(p = popen(cmd, "r")))
		return 0;
	while (fgets(line, sizeof line, p))
		if (sscanf(line, "%" SCNx64 " %" SCNx64 " %c %255s", lo, size, &type, name) == 4
		    && strcmp(name, fn) == 0) {
			found = 1;
			break;
		}
	pclose(p);
	return found;
}

static struct dgtypes *ty;    /* the types of the program under test */

/* The type and field lib/dgtypes names for r. */
static void name_of(const struct dgpctype_res *r, const char **type, const char **field)
{
	uint32_t i, f;

	*type = *field = "?";
	if (!ty || (i = dgtypes_add_offset(ty, 0, r->type)) == DGTYPES_NONE)
		return;
	*type = dgtypes_type(ty, i)->name;
	f = dgtypes_field_at(ty, i, r->offset);
	*field = f == DGTYPES_NONE ? "-" : dgtypes_field(ty, f)->path;
	if (!**field)
		*field = "-";
}

/* Every typed access of fn: "how type +offset field" lines into out. */
static int typed_in(struct dgsym *s, struct dgpctype *t, const char *file, const char *fn,
		    char *out, size_t len)
{
	const char *type, *field;
	uint64_t lo, size, a, addr;
	Dwfl_Module *dm;
	Dwarf_Die die;
	struct dgpctype_res r;
	size_t used = 0;
	int n = 0;

	out[0] = 0;
	if (!fn_extent(file, fn, &lo, &size))
		return -1;
	for (a = lo; a < lo + size; a++) {
		if (!dgsym_function_at(s, a + BIAS, &dm, &addr, &die)
		    || dgpctype_at(t, dm, &die, addr, &r) <= 0)
			continue;
		name_of(&r, &type, &field);
		used += (size_t)snprintf(out + used, len - used, "%s %s +%" PRIu64 " %s; ",
					 how_name[r.how], type, r.offset, field);
		n++;
		if (used >= len)
			break;
	}
	return n;
}

static void expect(struct dgsym *s, struct dgpctype *t, const char *file, const char *tag,
		   const char *fn, const char *want)
{
	char got[2048];
	int n = typed_in(s, t, file, fn, got, sizeof got);

	tu_check(n > 0 && strstr(got, want) != NULL, "%s %s: \"%s\" among %s", tag, fn, want, got);
}

static void check_prog(const char *file)
{
	char err[256];
	struct dgsym *s = dgsym_new(err, sizeof err);
	struct dgpctype *t = dgpctype_new(err, sizeof err);
	const char *tag = strstr(file, "-O0") ? "-O0" : "-O2";
	const char *via = strcmp(tag, "-O0") == 0 ? "tracked" : "register";
	char want[64], got[2048];
	Dwfl_Module *dm;
	Dwarf_Die die;
	uint64_t addr, bias;
	void *dw;

	if (!s || !t) {
		tu_check(0, "%s: new: %s", file, err);
		return;
	}
	dgsym_add_mapping(s, BIAS, 0x200000, 0, BIAS, 5, NULL, 0, file);
	if ((ty = dgtypes_new(err, sizeof err)) && (dw = dgsym_module_dwarf(s, 0, &bias)))
		dgtypes_add_module(ty, 0, dw, bias);
	snprintf(want, sizeof want, "%s struct rec +0 a;", via);
	expect(s, t, file, tag, "read_a", want);
	snprintf(want, sizeof want, "%s struct rec +4 b;", via);
	expect(s, t, file, tag, "write_b", want);
	expect(s, t, file, tag, "local_c", "stack struct rec +8 c;");
	tu_check(typed_in(s, t, file, "poke_void", got, sizeof got) >= 0
		 && !strstr(got, "struct rec"), "%s poke_void: no struct type (%s)", tag, got);
	/* at -O2 both loops step a pointer no variable names: followed round
	   the back edge from the parameter */
	expect(s, t, file, tag, "init_arr", "tracked struct rec +0 a;");
	expect(s, t, file, tag, "sum_c", "tracked struct rec +8 c;");
	tu_check(!dgsym_function_at(s, BIAS + 0x1fffff, &dm, &addr, &die),
		 "%s: no function past the code", tag);
	dgtypes_free(ty);
	ty = NULL;
	dgpctype_free(t);
	dgsym_free(s);
}

/* A module without DWARF: nothing to ask, and no crash. */
static void check_no_dwarf(void)
{
	struct dgsym *s = dgsym_new(NULL, 0);
	Dwfl_Module *dm;
	Dwarf_Die die;
	uint64_t addr;

	dgsym_add_mapping(s, 0x10000, 0x1000, 0, 0x10000, 5, NULL, 0, "/bin/true");
	tu_check(!dgsym_function_at(s, 0x10010, &dm, &addr, &die),
		 "a stripped binary has no function to type");
	dgsym_free(s);
}

int main(void)
{
	const char *progs = getenv("DGPCTYPE_PROGS");
	char buf[4096], *p, *save = NULL;

	if (!progs) {
		fprintf(stderr, "test_dgpctype: set DGPCTYPE_PROGS to the oracle builds\n");
		return 2;
	}
	snprintf(buf, sizeof buf, "%s", progs);
	for (p = strtok_r(buf, ":", &save); p; p = strtok_r(NULL, ":", &save))
		check_prog(p);
	check_no_dwarf();
	return tu_failed;
}
