/* dhatprog.c: heap traffic from three allocation sites, for the comparison
 * with DHAT.  All heap accesses are made by this file's code.
 *
 *   mk_small: 10 blocks of 24 bytes, each written fully (3 longs)
 *             -> 10 blocks, 240 bytes, 240 bytes written, 0 read
 *   mk_big:   1 block of 4000 bytes, 1000 ints written, 500 read
 *             -> 1 block, 4000 bytes, 4000 written, 2000 read
 *   main:     malloc(64): 8 longs written, 8 read; calloc(5, 16): 5 ints
 *             read -> 2 blocks, 144 bytes, 64 written, 84 read
 * (main's printf may allocate a stdio buffer too; DHAT sees it the same way.)
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>

long **mk_small(void);
int *mk_big(long *acc);

__attribute__((noinline)) long **mk_small(void)
{
	static long *v[10];

	for (int i = 0; i < 10; i++) {
		v[i] = malloc(3 * sizeof(long));
		if (!v[i])
			exit(2);
		v[i][0] = i;
		v[i][1] = i + 1;
		v[i][2] = i + 2;
	}
	return v;
}

__attribute__((noinline)) int *mk_big(long *acc)
{
	int *q = malloc(1000 * sizeof *q);

	if (!q)
		exit(2);
	for (int i = 0; i < 1000; i++)
		q[i] = i;
	for (int i = 0; i < 1000; i += 2)
		*acc += q[i];
	return q;
}

int main(void)
{
	long acc = 0;
	long **v = mk_small();
	int *q = mk_big(&acc);
	long *m = malloc(8 * sizeof *m);
	int *z = calloc(5, 16);

	if (!m || !z)
		return 2;
	for (int i = 0; i < 8; i++)
		m[i] = i;
	for (int i = 0; i < 8; i++)
		acc += m[i];
	for (int i = 0; i < 5; i++)
		acc += z[i];
	for (int i = 0; i < 10; i++)
		free(v[i]);
	free(q);
	free(m);
	free(z);
	printf("acc %ld\n", acc);
	return 0;
}
