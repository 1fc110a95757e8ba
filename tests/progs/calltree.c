/* calltree.c: a program with many distinct call stacks and few
 * functions, for the encoder's choice of loop (tool/dg_enc.c, raw_fast).
 *
 * Twelve levels of two functions each: main calls both of level 1, every
 * function of level K both of level K + 1, and those of level 12 call
 * leaf() from two sites, so leaf runs under 2^13 stacks, none recursive
 * (a recursive call would fold into its first frame), 4096 of them apart
 * in their innermost 12 frames (--num-callers' default).  The first walk
 * of the tree makes a new context for nearly every run, so the encoder's
 * lookups go past its caches to the map and it reads ahead; the walks
 * after find every context in its caches, and it goes back to one run at
 * a time.  Usage: calltree [WALKS] (8).  It prints a sum, so that nothing
 * is optimized away.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void leaf(unsigned path)
{
	unsigned i;

	for (i = 0; i < 4; i++)
		sink += i + (path & 1);
}

/* Level K's two functions, a and b, each calling level K + 1's (NEXT). */
#define LEVEL(K, NEXT_A, NEXT_B)                                        \
	__attribute__((noinline)) static void l##K##a(unsigned p)      \
	{ NEXT_A(p * 2); NEXT_B(p * 2 + 1); }                           \
	__attribute__((noinline)) static void l##K##b(unsigned p)      \
	{ NEXT_A(p * 2 + 1); NEXT_B(p * 2); }

LEVEL(12, leaf, leaf)
LEVEL(11, l12a, l12b)
LEVEL(10, l11a, l11b)
LEVEL(9, l10a, l10b)
LEVEL(8, l9a, l9b)
LEVEL(7, l8a, l8b)
LEVEL(6, l7a, l7b)
LEVEL(5, l6a, l6b)
LEVEL(4, l5a, l5b)
LEVEL(3, l4a, l4b)
LEVEL(2, l3a, l3b)
LEVEL(1, l2a, l2b)

int main(int argc, char **argv)
{
	unsigned w, walks = argc > 1 ? (unsigned)atoi(argv[1]) : 8;

	for (w = 0; w < walks; w++) {
		l1a(w);
		l1b(w);
	}
	printf("%lu\n", sink);
	return 0;
}
