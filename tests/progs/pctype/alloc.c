/* alloc.c: struct fields of heap blocks typed where they are allocated
 * (issue 12, way 'alloc'), built -O0, -O1, -O2 and -O3
 * (build/tests/progs/pctype/alloc-O0 ... alloc-O3).
 *
 * struct acct is 48 bytes: id 0, balance 8, flags 16, name 20, next 40.
 * What it provably does, with argv[1] = N (default 1000):
 *   - `a`, an array of N struct acct (malloc(N * sizeof *a)): fill writes
 *     id and balance of each (N writes each), mark_odd does flags |= 4 for
 *     odd i (N/2 reads and N/2 writes), total reads each balance (N
 *     reads); name and next are never touched.  gcc -O1 and up step a
 *     pointer through these loops, -O3 vectorizes fill;
 *   - `copy`, 4 struct acct that only memset and memcpy touch (no
 *     instruction of the program has a type for it): 192 bytes written
 *     by memset, then 192 by memcpy, read back by memcmp (all three
 *     called through pointers, so that no level inlines them);
 *   - `p` (struct pt, 8 bytes) and `b` (struct big, 24 bytes) from one
 *     generic wrapper, xmalloc, which returns a void *: each is typed one
 *     level up, by its own caller's variable, never by the wrapper;
 *   - `buf`, one void * buffer of 24 bytes used first as a struct pt, then
 *     as a struct big: a wrong guess is worse than none, so it is left
 *     untyped by its site and by its votes;
 *   - `head`, a list of LIST nodes (struct acct), one malloc per node,
 *     each node's id and next written once: a per-row allocation;
 *   - `pts`, 2 struct pt grown to GROWN by vec_grow, a generic grower
 *     whose realloc says nothing of the type (it stores through a
 *     void **): the new block keeps the old one's type; set_ys writes y of
 *     each of the GROWN.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIST 50
#define GROWN 64

/* Called through pointers, so that no level inlines them into main: the
   writes are libc's, at every level. */
static void *(*volatile do_memset)(void *, int, size_t) = memset;
static void *(*volatile do_memcpy)(void *, const void *, size_t) = memcpy;
static int (*volatile do_memcmp)(const void *, const void *, size_t) = memcmp;

struct acct {
	long id;
	double balance;
	int flags;
	char name[20];
	struct acct *next;
};

struct pt {
	int x, y;
};

struct big {
	long a, b, c;
};

volatile long sink;

__attribute__((noipa)) void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p)
		abort();
	return p;
}

__attribute__((noipa)) void fill(struct acct *a, int n)
{
	for (int i = 0; i < n; i++) {
		a[i].id = i;
		a[i].balance = i * 1.5;
	}
}

__attribute__((noipa)) void mark_odd(struct acct *a, int n)
{
	for (int i = 1; i < n; i += 2)
		a[i].flags |= 4;
}

__attribute__((noipa)) double total(const struct acct *a, int n)
{
	double s = 0;

	for (int i = 0; i < n; i++)
		s += a[i].balance;
	return s;
}

__attribute__((noipa)) void set_pt(struct pt *p)
{
	p->x = 1;
	p->y = 2;
}

__attribute__((noipa)) void set_big(struct big *b)
{
	b->a = 1;
	b->c = 3;
}

__attribute__((noipa)) void vec_grow(void **data, size_t bytes)
{
	void *q = realloc(*data, bytes);

	if (!q)
		abort();
	*data = q;
}

__attribute__((noipa)) void set_ys(struct pt *p, int n)
{
	for (int i = 0; i < n; i++)
		p[i].y = i;
}

__attribute__((noipa)) struct acct *push(struct acct *head, long id)
{
	struct acct *node = malloc(sizeof *node);

	if (!node)
		abort();
	node->id = id;
	node->next = head;
	return node;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;
	struct acct *a = malloc(n * sizeof *a), *copy, *head = NULL, *next;
	struct pt *p, *pts;
	struct big *b;
	void *buf;
	int i;

	if (!a || n < 8)
		return 2;
	fill(a, n);
	mark_odd(a, n);
	sink = (long)total(a, n);

	copy = malloc(4 * sizeof *copy);
	if (!copy)
		return 2;
	do_memset(copy, 0xff, 4 * sizeof *copy);
	do_memcpy(copy, a + 2, 4 * sizeof *copy);
	sink = do_memcmp(copy, a + 2, 4 * sizeof *copy);

	p = xmalloc(sizeof *p);
	set_pt(p);
	b = xmalloc(sizeof *b);
	set_big(b);

	buf = malloc(sizeof(struct big));
	if (!buf)
		return 2;
	set_pt(buf);
	set_big(buf);

	pts = malloc(2 * sizeof *pts);
	if (!pts)
		return 2;
	vec_grow((void **)&pts, GROWN * sizeof *pts);
	set_ys(pts, GROWN);

	for (i = 0; i < LIST; i++)
		head = push(head, i);
	for (; head; head = next) {
		next = head->next;
		free(head);
	}
	printf("%ld\n", sink);
	free(pts);
	free(buf);
	free(b);
	free(p);
	free(copy);
	free(a);
	return 0;
}
