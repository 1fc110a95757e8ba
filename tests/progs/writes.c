/* writes.c: a heap block written and read back with known traffic.
 *
 * p = malloc(400) in main; fill() writes p[i] = i for i < 100, `rounds`
 * times (argv[1], default 1): 100 * rounds writes of 4 bytes, one per
 * offset 0, 4, ..., 396 and round; then sum() reads each p[i] once: exactly
 * 100 reads of 4 bytes.  No other code touches the block.  Prints the sum.
 * Built -O0 (see tests/tests.mk) so each p[i] is one 4-byte access.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>

#define N 100

void fill(int *p, int n);
long sum(const int *p, int n);

__attribute__((noinline)) void fill(int *p, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = i;
}

__attribute__((noinline)) long sum(const int *p, int n)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		s += p[i];
	return s;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 1;
	int *p = malloc(N * sizeof *p);

	if (!p)
		return 2;
	for (int r = 0; r < rounds; r++)
		fill(p, N);
	long s = sum(p, N);
	printf("sum %ld\n", s);
	free(p);
	return 0;
}
