/* exitcode.c: output, arguments, stdin and exit status to be preserved.
 *
 * Prints its arguments (one per line, bracketed) and the number of bytes on
 * stdin to stdout, a line to stderr, and exits 3.  With argv[1] == "abort"
 * it aborts instead (status 134 from the shell), with "segv" it dies of
 * SIGSEGV.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	long n = 0;
	int i;

	for (i = 1; i < argc; i++)
		printf("arg %d [%s]\n", i, argv[i]);
	while (getchar() != EOF)
		n++;
	printf("stdin %ld bytes\n", n);
	fprintf(stderr, "exitcode: a line on stderr\n");
	fflush(NULL);
	if (argc > 1 && strcmp(argv[1], "abort") == 0)
		abort();
	if (argc > 1 && strcmp(argv[1], "segv") == 0) {
		signal(SIGSEGV, SIG_DFL);
		raise(SIGSEGV);
	}
	return 3;
}
