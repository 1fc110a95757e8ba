/* sweep.c: walks a 1 MiB heap array 10 times, reading then writing each
 * 8-byte word: 20 x 131072 accesses to the array over a long stretch of
 * instructions, so that the trace has many chunks (t1545).
 */
#include <stdio.h>
#include <stdlib.h>

#define WORDS (1 << 17)

int main(void)
{
	long *a = calloc(WORDS, sizeof *a), sum = 0;

	if (!a)
		return 1;
	for (int pass = 0; pass < 10; pass++)
		for (int i = 0; i < WORDS; i++)
			a[i] = a[i] + pass;
	for (int i = 0; i < WORDS; i++)
		sum += a[i];
	printf("%ld\n", sum);
	free(a);
	return 0;
}
