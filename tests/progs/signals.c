/* signals.c: signal handlers writing globals.
 *
 * SIGUSR1 is raised 7 times with raise(), SIGALRM sent 5 times with kill().
 * Each handler call reads and writes its counter once (4 bytes each).  main
 * then reads each counter twice (printf, exit status).  So usr_hits: 7
 * writes, 9 reads; alrm_hits: 5 writes, 7 reads.  Exit status 0 iff the
 * counts are right.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

volatile int usr_hits;
volatile int alrm_hits;

void on_usr(int sig);
void on_alrm(int sig);

void on_usr(int sig __attribute__((unused)))
{
	usr_hits = usr_hits + 1;
}

void on_alrm(int sig __attribute__((unused)))
{
	alrm_hits = alrm_hits + 1;
}

int main(void)
{
	struct sigaction sa;
	int i;

	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_usr;
	if (sigaction(SIGUSR1, &sa, NULL) != 0)
		return 2;
	sa.sa_handler = on_alrm;
	if (sigaction(SIGALRM, &sa, NULL) != 0)
		return 2;
	for (i = 0; i < 7; i++)
		raise(SIGUSR1);
	for (i = 0; i < 5; i++)
		kill(getpid(), SIGALRM);
	printf("usr %d alrm %d\n", usr_hits, alrm_hits);
	return usr_hits == 7 && alrm_hits == 5 ? 0 : 1;
}
