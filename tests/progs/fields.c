/* fields.c: known accesses to known fields, through tracked ranges (way 1)
 * and globals (way 2), and a two-thread false-sharing pair.
 *
 * `fields R` (R rounds, default 3), in order:
 *   range_work:  a malloc'd `struct item heap_items[8]`, tracked with type
 *                "struct item": per round and item, 1 read of `a`, 1 write
 *                of `b`, 1 write of `pos.y`, 1 read of `slots[].key` of
 *                slots[1] and slots[2] (2 reads), 1 write of bit-field
 *                `flags` (a read and a write of its byte);
 *                `c`, `pos.x`, `name` never.
 *   global_work: the same on the global `struct item g_items[8]` (untracked).
 *   one_global:  reads `g_one.a` once, writes `g_one.b` twice; `g_count`
 *                (a static long) written 4 times.
 *   bogus:       a 64-byte block tracked as "struct no_such_type" (twice,
 *                at two addresses): 16 int writes into each; a warning once.
 * So per field, through each way: a 8R reads, b 8R writes, pos.y 8R
 * writes, slots[].key 16R reads, flags 8R reads + 8R writes (R = rounds).
 *
 * `fields share` / `fields padded`: two threads each write their own
 * counter 1000 times: `g_shared.c0`/`c1` (same 64-byte line) or
 * `g_padded.c0`/`c1` (64 bytes apart, the struct aligned to 64).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "datagrind.h"

struct slot { long key; int val; };

struct item {
	int a;
	long b;
	int c;
	struct { short x, y; } pos;
	struct slot slots[3];
	unsigned flags : 3, mode : 5;
	char name[6];
};

struct item g_items[8];
struct item g_one;
static long g_count;

struct shared { long c0; long c1; };
struct padded { long c0; char pad[56]; long c1; } __attribute__((aligned(64)));
struct shared g_shared;
struct padded g_padded;

static long sink;

__attribute__((noinline)) static void touch(struct item *v, int n, int rounds)
{
	int r, i;

	for (r = 0; r < rounds; r++)
		for (i = 0; i < n; i++) {
			sink += v[i].a;
			v[i].b = i;
			v[i].pos.y = (short)r;
			sink += v[i].slots[1].key + v[i].slots[2].key;
			v[i].flags = 5;
		}
}

__attribute__((noinline)) static void range_work(int rounds)
{
	struct item *heap_items = calloc(8, sizeof *heap_items);

	DATAGRIND_TRACK_RANGE(heap_items, 8 * sizeof *heap_items, "struct item", "items");
	touch(heap_items, 8, rounds);
	DATAGRIND_UNTRACK_RANGE(heap_items, 8 * sizeof *heap_items);
	free(heap_items);
}

__attribute__((noinline)) static void global_work(int rounds)
{
	touch(g_items, 8, rounds);
}

__attribute__((noinline)) static void one_global(void)
{
	int k;

	sink += g_one.a;
	g_one.b = 1;
	g_one.b = 2;
	for (k = 0; k < 4; k++)
		g_count = k;
}

__attribute__((noinline)) static void bogus(void)
{
	int *p = malloc(64), *q = malloc(64), i;

	DATAGRIND_TRACK_RANGE(p, 64, "struct no_such_type", "bogus");
	DATAGRIND_TRACK_RANGE(q, 64, "struct no_such_type", "bogus");
	for (i = 0; i < 16; i++)
		p[i] = i;
	for (i = 0; i < 16; i++)
		q[i] = i;
	DATAGRIND_UNTRACK_RANGE(q, 64);
	DATAGRIND_UNTRACK_RANGE(p, 64);
	free(q);
	free(p);
}

static long *counter_of(int padded, int which)
{
	if (padded)
		return which ? &g_padded.c1 : &g_padded.c0;
	return which ? &g_shared.c1 : &g_shared.c0;
}

static int padded_mode;
static pthread_barrier_t both;

/* Both alive from start to end: Valgrind reuses an exited thread's id. */
static void *writer(void *arg)
{
	long *c = counter_of(padded_mode, (int)(long)arg);
	int k;

	pthread_barrier_wait(&both);
	for (k = 0; k < 1000; k++)
		*c = k;
	pthread_barrier_wait(&both);
	return NULL;
}

static int sharing(int padded)
{
	pthread_t t[2];
	long k;

	padded_mode = padded;
	pthread_barrier_init(&both, NULL, 2);
	for (k = 0; k < 2; k++)
		if (pthread_create(&t[k], NULL, writer, (void *)k) != 0)
			return 1;
	for (k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	printf("%ld %ld\n", *counter_of(padded, 0), *counter_of(padded, 1));
	return 0;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 3;

	if (argc > 1 && strcmp(argv[1], "share") == 0)
		return sharing(0);
	if (argc > 1 && strcmp(argv[1], "padded") == 0)
		return sharing(1);
	range_work(rounds);
	global_work(rounds);
	one_global();
	bogus();
	printf("%ld\n", sink);
	return 0;
}
