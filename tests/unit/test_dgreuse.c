/* test_dgreuse.c: lib/dgreuse's distances against an LRU stack kept the
 * slow, obvious way (an array searched and shifted), on sequences made to
 * reach every path: the same line again, the recent lines, lines retired
 * from them, renumbering without and with growth, first touches, and line
 * numbers over 2^32.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dgreuse.h"
#include "tu.h"

/* The LRU stack, most recent first. */
static uint64_t *stack;
static size_t depth;

static uint64_t naive(uint64_t line)
{
	size_t i;
	uint64_t d = DGREUSE_FIRST;

	for (i = 0; i < depth && stack[i] != line; i++)
		;
	if (i < depth)
		d = i;
	else
		depth++;
	memmove(stack + 1, stack, (i < depth ? i : depth - 1) * sizeof *stack);
	stack[0] = line;
	return d;
}

/* n touches of lines drawn by `kind`; the number that differed. */
static long run(int kind, long n, uint64_t lines)
{
	struct dgreuse r;
	long i, bad = 0;

	depth = 0;
	if (dgreuse_init(&r) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		uint64_t l, a, b;

		switch (kind) {
		case 0:         /* uniform over `lines` */
			l = tu_rand() % lines;
			break;
		case 1:         /* mostly a few recent ones, now and then far */
			l = tu_rand() % 8 ? tu_rand() % 20 : tu_rand() % lines;
			break;
		case 2:         /* sweeps that grow, with repeats */
			l = (uint64_t)(i / 3) % (1 + (uint64_t)i / 50);
			break;
		default:        /* lines above 2^32 */
			l = (tu_rand() % lines) << 33 | 5;
			break;
		}
		a = dgreuse_touch(&r, l);
		b = naive(l);
		if (a != b && bad++ < 5)
			tu_note("kind %d touch %ld line %llu: %llu, expected %llu", kind, i,
				(unsigned long long)l, (unsigned long long)a, (unsigned long long)b);
	}
	if (r.oom)
		bad++;
	dgreuse_free(&r);
	return bad;
}

int main(void)
{
	static const struct { int kind; long n; uint64_t lines; } cases[] = {
		{ 0, 100000, 10 }, { 0, 100000, 17 }, { 0, 60000, 3000 },
		{ 0, 40000, 9000 }, { 1, 200000, 5000 }, { 2, 60000, 0 },
		{ 3, 40000, 2000 },
	};
	size_t c;

	stack = malloc(400000 * sizeof *stack);
	if (!stack)
		return 2;
	for (c = 0; c < sizeof cases / sizeof *cases; c++) {
		long bad = run(cases[c].kind, cases[c].n, cases[c].lines);

		tu_check(bad == 0, "dgreuse: kind %d, %ld touches over %llu lines: as the LRU stack",
			 cases[c].kind, cases[c].n, (unsigned long long)cases[c].lines);
	}
	free(stack);
	return tu_failed;
}
