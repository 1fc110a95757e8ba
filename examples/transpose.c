/* transpose.c: the demo program.  Transposes a matrix twice, naively and
 * in cache-sized tiles, so that the plot shows two access patterns: long
 * strided columns, then compact squares.  The matrix is marked with
 * DATAGRIND_TRACK_RANGE and each phase with an event.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>
#include "datagrind.h"

#define N     96
#define TILE  16

static void transpose_naive(double *dst, const double *src)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			dst[j * N + i] = src[i * N + j];
}

static void transpose_tiled(double *dst, const double *src)
{
	for (int ii = 0; ii < N; ii += TILE)
		for (int jj = 0; jj < N; jj += TILE)
			for (int i = ii; i < ii + TILE; i++)
				for (int j = jj; j < jj + TILE; j++)
					dst[j * N + i] = src[i * N + j];
}

int main(void)
{
	double *a = malloc(N * N * sizeof *a), *b = malloc(N * N * sizeof *b);
	double sum = 0;

	if (!a || !b)
		return 1;
	DATAGRIND_TRACK_RANGE(a, N * N * sizeof *a, "double[]", "a");
	DATAGRIND_TRACK_RANGE(b, N * N * sizeof *b, "double[]", "b");
	for (int i = 0; i < N * N; i++)
		a[i] = i;
	DATAGRIND_START_EVENT("naive");
	transpose_naive(b, a);
	DATAGRIND_END_EVENT("naive");
	DATAGRIND_START_EVENT("tiled");
	transpose_tiled(a, b);
	DATAGRIND_END_EVENT("tiled");
	for (int i = 0; i < N * N; i++)
		sum += a[i];
	printf("checksum %.0f\n", sum);
	DATAGRIND_UNTRACK_RANGE(a, N * N * sizeof *a);
	DATAGRIND_UNTRACK_RANGE(b, N * N * sizeof *b);
	free(a);
	free(b);
	return 0;
}
