/* reuse_events.c: reuse distances known in advance, inside events.
 *
 * lines[] is 200 distinct 64-byte lines.  Event "first" writes a byte of
 * each in turn: 200 first touches.  Event "again" reads them in the same
 * order: each read's line was last touched one pass ago, with the other
 * 199 lines and the loop's own stack line or two in between, so each of
 * the 200 reads is at distance 200 or so, in [128, 256), and nothing else
 * in the event is that far.  Event "both" holds the two; event "open" is
 * started and never ended (it lasts to the end of the trace).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdio.h>
#include "datagrind.h"

#define LINES 200

static char lines[LINES][64] __attribute__((aligned(64)));

int main(void)
{
	long s = 0;
	int i;

	DATAGRIND_START_EVENT("both");
	DATAGRIND_START_EVENT("first");
	for (i = 0; i < LINES; i++)
		lines[i][0] = (char)i;
	DATAGRIND_END_EVENT("first");
	DATAGRIND_START_EVENT("again");
	for (i = 0; i < LINES; i++)
		s += lines[i][0];
	DATAGRIND_END_EVENT("again");
	DATAGRIND_END_EVENT("both");
	DATAGRIND_START_EVENT("open");
	printf("%ld\n", s);
	return 0;
}
