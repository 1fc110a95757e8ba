/* threads.c: NTHREADS threads, each writing its own heap block.
 *
 * Thread t (0..3) mallocs (K + t + 1) * 4 bytes (804, 808, 812, 816) and
 * writes its first K = 200 ints once each: exactly 200 writes of 4 bytes
 * per block, all by that thread.  The workers then wait for each other at
 * a barrier, so all are alive at once (Valgrind reuses the ids of threads
 * that have exited).  Main joins them; 5 threads in all.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NTHREADS 4
#define K 200

static pthread_barrier_t all_written;

void *worker(void *arg);

__attribute__((noinline)) void *worker(void *arg)
{
	long t = (long)arg;
	int *b = malloc((K + t + 1) * sizeof *b);

	if (!b)
		return NULL;
	for (int i = 0; i < K; i++)
		b[i] = i;
	pthread_barrier_wait(&all_written);
	return b;
}

int main(void)
{
	pthread_t th[NTHREADS];
	void *res[NTHREADS];

	if (pthread_barrier_init(&all_written, NULL, NTHREADS) != 0)
		return 2;
	for (long t = 0; t < NTHREADS; t++)
		if (pthread_create(&th[t], NULL, worker, (void *)t) != 0)
			return 2;
	for (int t = 0; t < NTHREADS; t++)
		if (pthread_join(th[t], &res[t]) != 0 || !res[t])
			return 2;
	for (int t = 0; t < NTHREADS; t++)
		free(res[t]);
	printf("%d threads done\n", NTHREADS);
	return 0;
}
