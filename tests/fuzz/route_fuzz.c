/* route_fuzz.c: libFuzzer target for dgsql's engine router (route_query
 * and route_rewrite in dgsql/route.c).
 *
 * The input, cut at its first NUL, is routed with and without a filter
 * and rewritten.  The verdicts must be ones route.h names, the same twice,
 * and a filter may only take text from DuckDB, never give it; the
 * rewrite must exist, keep every byte of the input in order (it only
 * inserts: "I" before LIKE, an ORDER BY), and be the input itself when
 * there is no LIKE and no GROUP to act on.  A failed check is
 * __builtin_trap().  Build and run: make fuzz FUZZ=route
 * (tests/fuzz/fuzz.mk); make test replays tests/fuzz/route/.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sqlite3.h>

#include "route.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

/* Whether a is b with bytes inserted (b a subsequence of a). */
static int has_in_order(const char *a, const char *b)
{
	for (; *b; b++) {
		while (*a && *a != *b)
			a++;
		if (!*a)
			return 0;
		a++;
	}
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *out;
	enum route_verdict v, w, f;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	v = route_query(text, 0);
	w = route_query(text, 0);
	f = route_query(text, 1);
	CHECK(v == w);
	CHECK(v == ROUTE_SQLITE || v == ROUTE_DUCKDB || v == ROUTE_UNSAFE);
	CHECK(f != ROUTE_DUCKDB || v == ROUTE_DUCKDB);
	out = route_rewrite(text);
	CHECK(out != NULL);
	CHECK(has_in_order(out, text));
	if (!strcasestr(text, "like") && !strcasestr(text, "group"))
		CHECK(strcmp(out, text) == 0);
	sqlite3_free(out);
	free(text);
	return 0;
}
