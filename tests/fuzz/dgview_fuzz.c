/* dgview_fuzz.c: libFuzzer target for the plot options' parser and a
 * viewer's view (lib/dgplot.h: dgplot_set, dgplot_view).
 *
 * The input is up to five NUL-separated fields.  The first byte of the
 * first picks what is parsed: even, dgplot_set of one of the option names
 * (the next byte) with the second field as its value; odd, dgplot_view
 * with the next four fields as w, h, addr and icount (an empty field is
 * NULL, as a parameter left out).  A refusal must come with a message and
 * leave a view it refused no different in the fields it was given; an
 * acceptance must leave options a plot can use: the grid and image sizes
 * in their bounds, every range non-empty, the page and line sizes powers
 * of two.  A failed check is __builtin_trap().  make fuzz FUZZ=dgview;
 * make test replays tests/fuzz/dgview/.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dgplot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static const char *const names[] = {
	"size", "addr-range", "icount-range", "page-size", "line-size", "color",
};

static void check_usable(const struct dgplot_opts *o)
{
	CHECK(o->width >= 1 && o->height >= 1);
	CHECK(o->width <= 20000 && o->height <= 20000);
	CHECK(!o->has_addr || o->addr_lo < o->addr_hi);
	CHECK(!o->has_icount || o->icount_lo < o->icount_hi);
	CHECK(o->page_size >= 1 && (o->page_size & (o->page_size - 1)) == 0);
	CHECK(o->line_size >= 1 && (o->line_size & (o->line_size - 1)) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *field[5] = { NULL };
	struct dgplot_opts o;
	size_t i, n = 0;
	char *err = NULL;
	int rc;

	if (!text || size < 2) {
		free(text);
		return 0;
	}
	memcpy(text, data, size);
	text[size] = 0;
	field[n++] = text + 2;         /* bytes 0 and 1 choose; the rest is text */
	for (i = 2; i < size && n < 5; i++)
		if (text[i] == 0)
			field[n++] = text + i + 1;
	for (i = 1; i < 5; i++)
		if (field[i] && !*field[i])
			field[i] = NULL;
	dgplot_defaults(&o);
	if (data[0] % 2 == 0) {
		rc = dgplot_set(&o, names[data[1] % (sizeof names / sizeof *names)], field[0], &err);
	} else {
		struct dgplot_opts before = o;

		rc = dgplot_view(&o, field[1], field[2], field[3], field[4], &err);
		if (rc < 0)     /* what it refused did not change the ranges it kept */
			CHECK(before.has_addr == o.has_addr || field[3]);
		else
			CHECK(o.width <= DGPLOT_GRID_MAX && o.height <= DGPLOT_GRID_MAX);
	}
	if (rc < 0)
		CHECK(err != NULL && err[0]);
	else
		CHECK(err == NULL);
	check_usable(&o);
	sqlite3_free(err);
	free(text);
	return 0;
}
