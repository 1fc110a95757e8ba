/* ends.c: a process that ends in a chosen way after known traffic.
 *
 * main mallocs 400 bytes, `fill` writes its 100 ints once, `sum` reads them
 * once (100 W + 100 R of 4 bytes in the block, never freed), prints
 * "sum 4950", and then, by argv[1]:
 *   exit     returns from main with status 5
 *   _exit    _exit(7)
 *   abort    abort() (SIGABRT)
 *   segv     stores through a null pointer (SIGSEGV)
 *   exec     execv(argv[2], argv + 2)
 *   badexec  execv of a file that does not exist, which fails; then `fill`
 *            once more (100 more W) and returns 0
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void __attribute__((noinline)) fill(int *a, int n)
{
	int i;

	for (i = 0; i < n; i++)
		a[i] = i;
}

static long __attribute__((noinline)) sum(const int *a, int n)
{
	long s = 0;
	int i;

	for (i = 0; i < n; i++)
		s += a[i];
	return s;
}

int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "exit";
	int *a = malloc(100 * sizeof *a);
	char *missing[] = { "/nonexistent/ends-no-such-program", NULL };

	if (!a)
		return 1;
	fill(a, 100);
	printf("sum %ld\n", sum(a, 100));
	fflush(stdout);
	if (strcmp(how, "_exit") == 0)
		_exit(7);
	if (strcmp(how, "abort") == 0)
		abort();
	if (strcmp(how, "segv") == 0) {
		signal(SIGSEGV, SIG_DFL);
		*(volatile int *)0 = 1;
	}
	if (strcmp(how, "exec") == 0 && argc > 2) {
		execv(argv[2], argv + 2);
		perror("execv");
		return 1;
	}
	if (strcmp(how, "badexec") == 0) {
		execv(missing[0], missing);
		fill(a, 100);
		return 0;
	}
	return 5;
}
