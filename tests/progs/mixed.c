/* mixed.c: a loop of reads, writes and read-modify-writes of several sizes,
 * for the per-instruction comparison with Lackey.
 *
 * Per iteration of mix(): plain loads and stores of 1, 2, 4, 8 bytes, a
 * memory-destination add (one read + one write), an atomic fetch-add
 * (lock add/xadd), a compare-and-swap (lock cmpxchg), an xchg with memory,
 * a 32-byte struct copy and a `rep movsb` of 16 bytes.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdio.h>
#include <string.h>

struct blob {
	long w[4];
};

#define N 40

char c8[N];
short c16[N];
int c32[N];
long c64[N];
long counter;
long swapped;
struct blob src[N], dst[N];
char rsrc[16], rdst[16];

void mix(int n);

__attribute__((noinline)) void mix(int n)
{
	for (int i = 0; i < n; i++) {
		c8[i] = (char)i;
		c16[i] = (short)(c8[i] + 1);
		c32[i] = c16[i] * 2;
		c64[i] = c32[i] + c64[i];
		__asm__ volatile("addl $1, %0" : "+m"(c32[i]));
		__atomic_fetch_add(&counter, 1, __ATOMIC_SEQ_CST);
		long old = __atomic_fetch_add(&counter, 2, __ATOMIC_SEQ_CST);
		long expect = old + 2;
		__atomic_compare_exchange_n(&counter, &expect, expect + 1, 0,
					    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
		swapped = __atomic_exchange_n(&c64[i], (long)i, __ATOMIC_SEQ_CST);
		dst[i] = src[i];
		void *d = rdst, *s = rsrc;
		unsigned long cnt = sizeof rdst;
		__asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(cnt) : : "memory");
	}
}

int main(void)
{
	memset(rsrc, 7, sizeof rsrc);
	mix(N);
	printf("counter %ld c32 %d rdst %d\n", counter, c32[N - 1], rdst[15]);
	return 0;
}
