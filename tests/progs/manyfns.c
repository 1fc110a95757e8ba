/* manyfns.c: heap blocks touched by many functions, for the importer's
 * function x block counts (sum_fn_block), which it keeps with each block:
 * eight (function, direction) pairs in the block, then an array of the
 * block's own up to 64, then a table shared by all blocks.
 *
 * Block `wide` (40 ints) is touched by each of the 40 functions f00..f39:
 * fK reads wide[K] K + 1 times and writes it once, and main reads every
 * element once, so the block has 81 pairs (past 64).  Block `mid` (40
 * ints) by the first 12 functions: fK reads mid[K] once and writes it
 * twice (24 pairs).  Block `few` by f00 (a read and a write) and by main,
 * which reads it 300 times: more than a byte counts, for the importer's
 * histogram counters.  Built -O0, so each access is one 4-byte access of
 * the function's own code.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>

#define NF 40
#define NMID 12

typedef void touch_fn(int *wide, int *mid, int *few);

/* fK: wide[K] read K + 1 times then written; mid[K] (K < NMID) read once,
   written twice; few[0] (K = 0) read and written. */
#define F(K)                                                            \
	__attribute__((noinline)) static void f##K(int *wide, int *mid, int *few) \
	{                                                               \
		int i, s = 0;                                           \
		for (i = 0; i <= K; i++)                                \
			s += wide[K];                                   \
		wide[K] = s;                                            \
		if (K < NMID) {                                         \
			s = mid[K];                                     \
			mid[K] = s + 1;                                 \
			mid[K] = s + 2;                                 \
		}                                                       \
		if (K == 0)                                             \
			few[0] = few[0] + 1;                            \
	}
F(0) F(1) F(2) F(3) F(4) F(5) F(6) F(7) F(8) F(9)
F(10) F(11) F(12) F(13) F(14) F(15) F(16) F(17) F(18) F(19)
F(20) F(21) F(22) F(23) F(24) F(25) F(26) F(27) F(28) F(29)
F(30) F(31) F(32) F(33) F(34) F(35) F(36) F(37) F(38) F(39)

static touch_fn *const fns[NF] = {
	f0, f1, f2, f3, f4, f5, f6, f7, f8, f9,
	f10, f11, f12, f13, f14, f15, f16, f17, f18, f19,
	f20, f21, f22, f23, f24, f25, f26, f27, f28, f29,
	f30, f31, f32, f33, f34, f35, f36, f37, f38, f39,
};

int main(void)
{
	int *wide = calloc(NF, sizeof *wide), *mid = calloc(NF, sizeof *mid);
	int *few = calloc(1, sizeof *few), k;
	long total = 0;

	if (!wide || !mid || !few)
		return 1;
	for (k = 0; k < NF; k++)
		fns[k](wide, mid, few);
	for (k = 0; k < NF; k++)
		total += wide[k];
	for (k = 0; k < 300; k++)
		total += few[0];
	printf("%ld\n", total);
	free(few);
	free(mid);
	free(wide);
	return 0;
}
