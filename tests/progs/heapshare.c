/* heapshare.c: NTHREADS threads sweeping one shared heap block, each its
 * own interleaved share of it, and each writing a block of its own.
 *
 * The shared block holds WORDS longs (64 KiB); thread t (0..2) reads and
 * writes a[i] for every i with i % NTHREADS == t, PASSES times: 2 * WORDS
 * * PASSES = 131072 accesses to the shared block in all, from three
 * threads, over many chunks (more than the 65536 that give a block its
 * sum_block_chunks rows).  Each worker also mallocs K ints and writes each
 * once.  Main joins them and prints the sum, so the output is fixed.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NTHREADS 3
#define WORDS 8192
#define PASSES 8
#define K 100

static long *shared;

void *worker(void *arg);

__attribute__((noinline)) void *worker(void *arg)
{
	long t = (long)arg;
	int *own = malloc(K * sizeof *own);

	if (!own)
		return NULL;
	for (int i = 0; i < K; i++)
		own[i] = i;
	for (int p = 0; p < PASSES; p++)
		for (long i = t; i < WORDS; i += NTHREADS)
			shared[i] = shared[i] + p;
	return own;
}

int main(void)
{
	pthread_t th[NTHREADS];
	void *res[NTHREADS];
	long sum = 0;

	shared = calloc(WORDS, sizeof *shared);
	if (!shared)
		return 1;
	for (long t = 0; t < NTHREADS; t++)
		if (pthread_create(&th[t], NULL, worker, (void *)t) != 0)
			return 1;
	for (int t = 0; t < NTHREADS; t++) {
		pthread_join(th[t], &res[t]);
		free(res[t]);
	}
	for (int i = 0; i < WORDS; i++)
		sum += shared[i];
	printf("%ld\n", sum);
	free(shared);
	return 0;
}
