/* cachesim.c: accesses whose cache behaviour cachegrind and dgsql's .cache
 * must count alike (t1800), under D1 = 1 KiB, 2 ways, 64-byte lines (8
 * sets).  Every function works on static arrays (the same addresses under
 * both tools; the heap and the stack are not: datagrind replaces malloc and
 * its preload moves the stack) and keeps its counters in registers (-O2);
 * they run on a stack of their own, a static array too, so that their
 * calls' and returns' accesses fall on the same lines under both.
 * The read-modify-write, locked, straddling and dirty-helper (fxsave)
 * instructions are cachegrind's modelling rules, one function each; the
 * sweeps and the transpose are ordinary misses by the thousand.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdio.h>

#define N 1000

static char buf[16384] __attribute__((aligned(4096)));
static char area[512] __attribute__((aligned(64)));
static double ma[64][64] __attribute__((aligned(64))), mb[64][64] __attribute__((aligned(64)));
static long sweep_area[8192] __attribute__((aligned(64)));
static char own_stack[1 << 16] __attribute__((aligned(64)));

__attribute__((noinline)) static void rmw_add(char *p)      /* addl $1,(p): one read */
{
	for (int i = 0; i < N; i++)
		asm volatile("addl $1,(%0)" :: "r"(p) : "memory");
}

__attribute__((noinline)) static void rmw_lock_add(char *p) /* a load, then a CAS */
{
	for (int i = 0; i < N; i++)
		asm volatile("lock addl $1,(%0)" :: "r"(p) : "memory");
}

__attribute__((noinline)) static void rmw_straddle(char *p) /* addq across two lines */
{
	for (int i = 0; i < N; i++)
		asm volatile("addq $1,60(%0)" :: "r"(p) : "memory");
}

__attribute__((noinline)) static void store_straddle(char *p)
{
	for (int i = 0; i < N; i++)
		asm volatile("movq %0,60(%1)" :: "r"((long)i), "r"(p) : "memory");
}

/* a load across sets 0 and 1, then two more lines in each: both halves
   miss every time, one miss an access */
__attribute__((noinline)) static void straddle_both_miss(char *p)
{
	long a, b, c, d, e;

	/* outputs in any register: the byte registers would need %rbx saved on
	   the stack, whose address differs between the two tools */
	for (int i = 0; i < N; i++)
		asm volatile("movq 60(%5),%0; movzbl 512(%5),%k1; movzbl 1024(%5),%k2;"
			     " movzbl 576(%5),%k3; movzbl 1088(%5),%k4"
			     : "=r"(a), "=r"(b), "=r"(c), "=r"(d), "=r"(e) : "r"(p) : "memory");
}

/* only set 0 thrashed: the straddle misses its first line, hits its second */
__attribute__((noinline)) static void straddle_one_miss(char *p)
{
	long a, b, c;

	for (int i = 0; i < N; i++)
		asm volatile("movq 60(%3),%0; movzbl 512(%3),%k1; movzbl 1024(%3),%k2"
			     : "=r"(a), "=r"(b), "=r"(c) : "r"(p) : "memory");
}

__attribute__((noinline)) static void do_fxsave(char *a)   /* a 512-byte dirty helper */
{
	for (int i = 0; i < N; i++)
		asm volatile("fxsave64 (%0)" :: "r"(a) : "memory");
}

__attribute__((noinline)) static void do_xchg(char *p)     /* xchg with memory: locked */
{
	long x = 1;

	for (int i = 0; i < N; i++)
		asm volatile("xchgq %0,(%1)" : "+r"(x) : "r"(p) : "memory");
}

__attribute__((noinline)) static void transpose(void)      /* column writes: a miss each */
{
	for (int i = 0; i < 64; i++)
		for (int j = 0; j < 64; j++)
			mb[j][i] = ma[i][j];
}

__attribute__((noinline)) static void fill(void)
{
	for (int i = 0; i < 64; i++)
		for (int j = 0; j < 64; j++)
			ma[i][j] = i * 64 + j;
}

__attribute__((noinline)) static long sweep(int stride)    /* one pass, lines in turn */
{
	long s = 0;

	for (int i = 0; i < 8192; i += stride)
		s += ((volatile long *)sweep_area)[i];
	return s;
}

__attribute__((noinline, used)) static void run_all(void)
{
	long s;

	rmw_add(buf + 4096 + 256);
	rmw_lock_add(buf + 4096 + 320);
	rmw_straddle(buf + 4096 + 3072);
	store_straddle(buf + 4096 + 2048);
	straddle_both_miss(buf);
	straddle_one_miss(buf + 12288);
	do_fxsave(area);
	do_xchg(buf + 8192 + 512);
	fill();
	transpose();
	s = sweep(1) + sweep(8) + sweep(3);
	printf("%ld %g\n", s, mb[5][7]);
}

int main(void)
{
	/* run_all on own_stack: %rsp kept in %rbx (callee-saved) meanwhile */
	asm volatile("mov %%rsp, %%rbx\n\tmov %0, %%rsp\n\tcall run_all\n\tmov %%rbx, %%rsp"
		     :: "r"(own_stack + sizeof own_stack)
		     : "rbx", "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11",
		       "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
		       "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15",
		       "cc", "memory");
	return 0;
}
