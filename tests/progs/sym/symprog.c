/* symprog: the program of the symbol tests (t1600, t1610), built with -g as
 * a PIE, then stripped by the tests.  Exact work, by function:
 *   prog_fill   writes 300 ints of a[]       (static: only in .symtab/DWARF)
 *   prog_sum    reads them                   (static)
 *   lib_touch   (libsymlib.so) writes 400 ints through its static lib_fill
 *   lib_sum     (libsymlib.so, called through the PLT) reads 500 ints
 *   plug        of argv[1] (dlopen'ed, used, dlclose'd): writes 70 shorts,
 *               then plug of argv[2], mapped where argv[1] was: 90 shorts.
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <dlfcn.h>
#include <stdio.h>

int lib_touch(int *a, int n);
int lib_sum(const int *a, int n);

static int a[1000];
static short s[1000];

static void prog_fill(int *p, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = i;
}

static int prog_sum(const int *p, int n)
{
	int t = 0;

	for (int i = 0; i < n; i++)
		t += p[i];
	return t;
}

/* dlopen path, call its plug(), dlclose; 0 or 1. */
static int use_plugin(const char *path)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	void (*plug)(short *);

	if (!h) {
		fprintf(stderr, "symprog: %s\n", dlerror());
		return 1;
	}
	*(void **)&plug = dlsym(h, "plug");
	if (!plug)
		return 1;
	plug(s);
	return dlclose(h) != 0;
}

int main(int argc, char **argv)
{
	int t;

	prog_fill(a, 300);
	t = prog_sum(a, 300);
	lib_touch(a, 400);
	t += lib_sum(a, 500);
	printf("%d\n", t);
	if (argc == 3 && (use_plugin(argv[1]) || use_plugin(argv[2])))
		return 1;
	return 0;
}
