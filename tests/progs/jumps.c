/* jumps.c: control transfers that leave frames without returning, for the
 * shadow call stacks.  By argv[1]:
 *   longjmp   main setjmps, calls jmp1 -> jmp2 -> jmp3, which longjmps back to
 *             main; main then calls after_jump, which writes 555 ints into
 *             a malloc'd block
 *   signal    main sigsetjmps, calls s1 -> s2, which raises SIGUSR1; the
 *             handler (on the normal stack) siglongjmps back to main, which
 *             calls after_jump
 *   fault     main sigsetjmps, calls f1 -> f2, which writes through a null
 *             pointer; the SIGSEGV handler siglongjmps back to main, which
 *             calls after_jump (the run cut short by the fault is not
 *             logged, nor the write that was not made)
 *   coro      two coroutines (makecontext) on stacks carved from one
 *             malloc'd area, co_b's below co_a's; 3 rounds of main -> co_a
 *             -> co_b -> main, each coroutine calling co_work, which writes
 *             10 ints into the coroutine's own 40-byte block (30 writes per
 *             block); then main calls after_jump
 * In every mode after_jump makes exactly 555 writes of 4 bytes into its
 * 2220-byte block, called from main.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#define NOINLINE __attribute__((noinline))
#define CO_STACK (64 * 1024)

static jmp_buf env;
static sigjmp_buf senv;
static ucontext_t main_ctx, ctx_a, ctx_b;
static int *block_a, *block_b;

static void NOINLINE after_jump(int *p)
{
	int i;

	for (i = 0; i < 555; i++)
		p[i] = i;
}

static void NOINLINE jmp3(void) { longjmp(env, 1); }
static void NOINLINE jmp2(void) { jmp3(); }
static void NOINLINE jmp1(void) { jmp2(); }

static void handler(int sig) { siglongjmp(senv, sig); }
static void NOINLINE s2(void) { raise(SIGUSR1); }
static void NOINLINE s1(void) { s2(); }

static int *volatile nowhere;     /* null: the write faults */
static void NOINLINE f2(void) { *nowhere = 1; }
static void NOINLINE f1(void) { f2(); }

static void NOINLINE co_work(int *p)
{
	int i;

	for (i = 0; i < 10; i++)
		p[i] = i;
}

static void NOINLINE co_a(void)
{
	for (;;) {
		co_work(block_a);
		swapcontext(&ctx_a, &ctx_b);
	}
}

static void NOINLINE co_b(void)
{
	for (;;) {
		co_work(block_b);
		swapcontext(&ctx_b, &main_ctx);
	}
}

static void co_make(ucontext_t *c, char *stack, void (*fn)(void))
{
	getcontext(c);
	c->uc_stack.ss_sp = stack;
	c->uc_stack.ss_size = CO_STACK;
	c->uc_link = &main_ctx;
	makecontext(c, fn, 0);
}

static void NOINLINE coroutines(void)
{
	char *stacks = malloc(2 * CO_STACK);
	int r;

	block_a = malloc(10 * sizeof(int));
	block_b = malloc(10 * sizeof(int));
	co_make(&ctx_a, stacks + CO_STACK, co_a);
	co_make(&ctx_b, stacks, co_b);
	for (r = 0; r < 3; r++)
		swapcontext(&main_ctx, &ctx_a);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "longjmp";
	int *p = malloc(555 * sizeof *p);

	if (strcmp(mode, "longjmp") == 0) {
		if (setjmp(env) == 0)
			jmp1();
	} else if (strcmp(mode, "signal") == 0) {
		signal(SIGUSR1, handler);
		if (sigsetjmp(senv, 1) == 0)
			s1();
	} else if (strcmp(mode, "fault") == 0) {
		signal(SIGSEGV, handler);
		if (sigsetjmp(senv, 1) == 0)
			f1();
	} else if (strcmp(mode, "coro") == 0) {
		coroutines();
	} else {
		return 2;
	}
	after_jump(p);
	printf("%s done\n", mode);
	return 0;
}
