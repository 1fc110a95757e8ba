/* regress.c: a program and its worse build, for dgsql --compare.
 *
 * main allocates three blocks from three functions, in this order:
 *   make_table  malloc(4096 * 4)   filled by fill (4096 4-byte writes)
 *   make_index  malloc(1024 * 4)   filled by fill (1024 4-byte writes)
 *   make_note   malloc(64)         one 8-byte write
 * then scan_index reads every element of the index block once, sum_table
 * every element of the table block once, and frees all three.
 *
 * Built with -DWORSE (build/tests/progs/regress-worse, tests.mk),
 * scan_index reads the index block twice: 1024 more 4-byte reads of that
 * block by that function, and nothing else changes but the code's
 * addresses.  t1700 checks that dgsql --compare puts scan_index and the
 * block at the top and fails on it.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>

#ifdef WORSE
#define PASSES 2
#else
#define PASSES 1
#endif

static void fill(int *v, int n)
{
	for (int i = 0; i < n; i++)
		v[i] = i * 7 + 1;
}

static int *make_table(void)
{
	int *t = malloc(4096 * sizeof *t);

	if (t)
		fill(t, 4096);
	return t;
}

static int *make_index(void)
{
	int *x = malloc(1024 * sizeof *x);

	if (x)
		fill(x, 1024);
	return x;
}

static long *make_note(void)
{
	long *n = malloc(64);

	if (n)
		n[0] = 42;
	return n;
}

static long scan_index(const int *x)
{
	long s = 0;

	for (int p = 0; p < PASSES; p++)
		for (int i = 0; i < 1024; i++)
			s += x[i];
	return s / PASSES;
}

static long sum_table(const int *t)
{
	long s = 0;

	for (int i = 0; i < 4096; i++)
		s += t[i];
	return s;
}

int main(void)
{
	int *t = make_table(), *x = make_index();
	long *n = make_note();

	if (!t || !x || !n)
		return 2;
	printf("%ld %ld\n", scan_index(x), sum_table(t));
	free(n);
	free(x);
	free(t);
	return 0;
}
