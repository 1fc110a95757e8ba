/* badfree.c: frees of what is not a live block.
 *
 * main mallocs 100 bytes and frees them twice; mallocs 200 bytes, frees a
 * pointer 8 bytes into them, the address of a local, the address of a
 * static array, then the 200 bytes themselves; prints "badfree done" and
 * returns 5.  So 2 blocks, each freed once (and stdout's buffer, which
 * printf allocates and nobody frees); the 4 other frees free nothing.  Natively glibc aborts at the double free; under Valgrind's
 * malloc replacement the program goes on (memcheck reports the frees).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>

static char buf[64];

int main(void)
{
	char local[16];
	char *a = malloc(100), *b;
	char *volatile p;

	if (!a)
		return 2;
	a[0] = 1;
	p = a;
	free(a);
	free(p);                /* again */
	b = malloc(200);
	if (!b)
		return 2;
	b[0] = 2;
	p = b + 8;
	free(p);                /* inside a block */
	p = local;
	free(p);                /* the stack */
	p = buf;
	free(p);                /* a static array */
	free(b);
	printf("badfree done\n");
	return 5;
}
