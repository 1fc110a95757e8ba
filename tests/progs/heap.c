/* heap.c: every C allocation function, called from main.
 *
 * With argv[1] == "1" (the default) main makes, in order:
 *   malloc(100)  calloc(10, 20)  realloc(100-block, 300)
 *   memalign(64, 128)  posix_memalign(256, 512)  aligned_alloc(32, 96)
 *   realloc(NULL, 50)  free(NULL)
 * and frees all six live blocks: 7 allocations + 1 for the realloc, and
 * 7 frees (1 by realloc, 6 by free; free(NULL) frees nothing).
 * Each live block gets one 1-byte write (the 100-byte block none).
 * With "0" it does none of that; the output is the same.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	int on = argc > 1 ? atoi(argv[1]) : 1;
	char *a, *b, *c, *d, *e, *f;
	void *pm = NULL;

	if (on) {
		a = malloc(100);
		b = calloc(10, 20);
		a = realloc(a, 300);
		c = memalign(64, 128);
		if (posix_memalign(&pm, 256, 512) != 0)
			return 2;
		d = pm;
		e = aligned_alloc(32, 96);
		f = realloc(NULL, 50);
		free(NULL);
		if (!a || !b || !c || !d || !e || !f)
			return 2;
		if (((unsigned long)c & 63) || ((unsigned long)d & 255) ||
		    ((unsigned long)e & 31))
			return 3;
		a[0] = 1;
		b[0] = 2;
		c[0] = 3;
		d[0] = 4;
		e[0] = 5;
		f[0] = 6;
		free(a);
		free(b);
		free(c);
		free(d);
		free(e);
		free(f);
	}
	printf("heap done\n");
	return 0;
}
