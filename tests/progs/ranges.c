/* ranges.c: a tracked static array and an event around a loop.
 *
 * arr[64] (int) traffic, in order:
 *   before TRACK_RANGE:            64 writes
 *   tracked, before START_EVENT:   64 writes
 *   inside event "loop":           64 reads + 64 writes   (arr[i] += i)
 *   after END_EVENT:               32 reads               (every other one)
 * then UNTRACK_RANGE.  Totals on arr: 192 writes, 96 reads, all 4 bytes.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdio.h>
#include "datagrind.h"

int arr[64];

int main(void)
{
	long s = 0;
	int i;

	for (i = 0; i < 64; i++)
		arr[i] = 1;
	DATAGRIND_TRACK_RANGE(arr, sizeof arr, "int[64]", "arr");
	for (i = 0; i < 64; i++)
		arr[i] = 2;
	DATAGRIND_START_EVENT("loop");
	for (i = 0; i < 64; i++)
		arr[i] += i;
	DATAGRIND_END_EVENT("loop");
	for (i = 0; i < 64; i += 2)
		s += arr[i];
	DATAGRIND_UNTRACK_RANGE(arr, sizeof arr);
	printf("%ld\n", s);
	return 0;
}
