/* tracing.c: START/STOP_TRACING around a loop.
 *
 * g[100] (int):  30 writes; START_TRACING; 50 writes; STOP_TRACING;
 * 70 writes; 100 reads.  With --trace-at-start=no only the 50 middle writes
 * are traced; with tracing on at start the first 80 writes are.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdio.h>
#include "datagrind.h"

int g[100];

int main(void)
{
	long s = 0;
	int i;

	for (i = 0; i < 30; i++)
		g[i] = i;
	DATAGRIND_START_TRACING;
	for (i = 0; i < 50; i++)
		g[i] = 2 * i;
	DATAGRIND_STOP_TRACING;
	for (i = 0; i < 70; i++)
		g[i] = 3 * i;
	for (i = 0; i < 100; i++)
		s += g[i];
	printf("%ld\n", s);
	return 0;
}
