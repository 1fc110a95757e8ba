/* fields.c: the struct-field oracle (issue 8, ways 3 and 4), built -O0 and
 * -O2 (build/tests/progs/pctype/fields-O0, fields-O2).
 *
 * struct rec { int a; int b; int c; } is 12 bytes.  What it provably does
 * to struct rec memory on the heap, with argv[1] = N (default 1000):
 *   - one 12-byte block `one` (allocated in main): N reads of one->a by
 *     read_a (struct rec * parameter), N/2 writes of one->b by write_b;
 *   - three 12-byte blocks from one allocation site in a loop (`more`):
 *     each gets 5 writes at byte 4 (field b) by poke_void, which only sees
 *     a void * and adds 4: no type of its own (the `void *` case); the
 *     first also gets one write_b, so it is typed by its own accesses and
 *     the other two by their allocation site;
 *   - one 8-element array block `arr` (96 bytes): sum_c reads arr[i].c,
 *     8 reads, once per call, called 3 times (24 reads of c).
 * Field c of `one` and the `more` blocks is never touched; nor is field a
 * of `arr` apart from the 8 writes of init_arr (arr[i].a = i).
 * On the stack: local_c writes a local struct rec's c once.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>

struct rec {
	int a;
	int b;
	int c;
};

volatile int sink;

__attribute__((noipa)) int read_a(const struct rec *p)
{
	return p->a;
}

__attribute__((noipa)) void write_b(struct rec *p, int v)
{
	p->b = v;
}

__attribute__((noipa)) void poke_void(void *v, int k)
{
	*(int *)((char *)v + 4) = k;
}

__attribute__((noipa)) void init_arr(struct rec *r, int n)
{
	for (int i = 0; i < n; i++)
		r[i].a = i;
}

__attribute__((noipa)) int sum_c(const struct rec *r, int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += r[i].c;
	return s;
}

__attribute__((noipa)) int local_c(int v)
{
	volatile struct rec local __attribute__((unused));

	local.c = v;
	return v;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;
	struct rec *one = malloc(sizeof *one), *arr;
	void *more[3];
	int i, k;

	if (!one)
		return 2;
	for (i = 0; i < n; i++)
		sink = read_a(one);
	for (i = 0; i < n / 2; i++)
		write_b(one, i);
	for (k = 0; k < 3; k++) {
		more[k] = malloc(sizeof(struct rec));
		if (!more[k])
			return 2;
		if (k == 0)
			write_b(more[k], -1);
		for (i = 0; i < 5; i++)
			poke_void(more[k], i);
	}
	arr = malloc(8 * sizeof *arr);
	if (!arr)
		return 2;
	init_arr(arr, 8);
	for (i = 0; i < 3; i++)
		sink = sum_c(arr, 8);
	sink = local_c(n);
	for (k = 0; k < 3; k++)
		free(more[k]);
	free(arr);
	free(one);
	return 0;
}
