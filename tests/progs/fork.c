/* fork.c: fork without exec; parent and child write known heap traffic.
 *
 * Before the fork main mallocs 222 bytes and writes its first 11 bytes.
 * The child writes the first 22 bytes of that block, mallocs 333 bytes,
 * writes its first 33 bytes, frees it and exits 0.  The parent writes the
 * child's pid to ./child.pid, waits for it, mallocs 444 bytes, writes its
 * first 44 bytes and prints the child's exit status.  All writes are 1 byte.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

void touch(char *p, int n);

__attribute__((noinline)) void touch(char *p, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (char)i;
}

int main(void)
{
	char *pre = malloc(222);
	int status;
	pid_t pid;

	if (!pre)
		return 2;
	touch(pre, 11);
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		char *c = malloc(333);

		touch(pre, 22);
		if (!c)
			exit(2);
		touch(c, 33);
		free(c);
		exit(0);
	}
	FILE *f = fopen("child.pid", "w");
	if (!f)
		return 2;
	fprintf(f, "%ld\n", (long)pid);
	fclose(f);
	if (waitpid(pid, &status, 0) != pid)
		return 2;
	char *p = malloc(444);
	if (!p)
		return 2;
	touch(p, 44);
	printf("child status %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	free(p);
	free(pre);
	return 0;
}
