/* sweep.c: walks a heap array of WORDS 8-byte words PASSES times, reading
 * then writing each word, then reads it once more:
 *
 *     sweep [PASSES [WORDS]]        defaults 2 and 32768 (256 KiB)
 *
 * At -O0 a step of the walk is about ten accesses (the loop variables live
 * on the stack), so the defaults make some 0.85 M accesses: 13 chunks of
 * 65536, and one block of 5 x 32768 accesses, more than a chunk holds, met
 * in most of them.  That is what t1535, t1545, t1580 and t1585 need of it
 * (many chunks, a block with sum_block_chunks rows) at a tenth of the cost
 * of a bigger walk.
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	long passes = argc > 1 ? atol(argv[1]) : 2;
	long words = argc > 2 ? atol(argv[2]) : 1 << 15;
	long *a, sum = 0;

	if (passes < 0 || words <= 0 || !(a = calloc(words, sizeof *a)))
		return 1;
	for (long pass = 0; pass < passes; pass++)
		for (long i = 0; i < words; i++)
			a[i] = a[i] + pass;
	for (long i = 0; i < words; i++)
		sum += a[i];
	printf("%ld\n", sum);
	free(a);
	return 0;
}
