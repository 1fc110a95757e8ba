/* dgfilter_fuzz.c: libFuzzer target for dg_view's filter lists as typed
 * (lib/dgfilter.h: dgfilter_parse), which reach dgsql from its command
 * line, .filter, and the viewer's boxes over HTTP (events=, ranges=), and
 * for the completion's lookup (dgfilter_names_sql, dgfilter_word); and the
 * first field as a cache geometry, .cache's "SIZE:WAYS:LINE"
 * (lib/dgcache.h: dgcache_parse), also typed text.
 *
 * The input is the --events list, a NUL, then the --ranges list (an empty
 * one is NULL: not given).  A refusal must come with a message and an
 * acceptance without one (a geometry accepted: every figure a power of
 * two, a line in a way); dgfilter_names_sql of either list must give SQL
 * with a word length inside the text, or NULL; the words are finite.  A
 * failed check is __builtin_trap().  make fuzz FUZZ=dgfilter; make test
 * replays tests/fuzz/dgfilter/.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dgcache.h"
#include "dgfilter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static void check_names(const char *text)
{
	size_t wl = 0;
	int base = -1;
	const char *sql = dgfilter_names_sql(text, &wl, &base);

	if (sql)
		CHECK(wl >= 1 && wl <= strlen(text) && (base == 0 || base == 1) && sql[0]);
}

static int pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static void check_geometry(const char *text)
{
	struct dgcache_geom g;
	char *err = NULL;

	if (dgcache_parse("D1", text, &g, &err) < 0) {
		CHECK(err && err[0]);
		sqlite3_free(err);
		return;
	}
	CHECK(!err && pow2(g.size) && pow2(g.ways) && pow2(g.line) && g.line <= g.size / g.ways);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *ranges, *err = NULL;
	struct dgfilter *f = NULL;
	size_t i;
	int rc;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	ranges = text + strlen(text);
	ranges += (size_t)(ranges - text) < size;       /* past the NUL, if any */
	rc = dgfilter_parse(*text ? text : NULL, *ranges ? ranges : NULL, &f, &err);
	if (rc < 0)
		CHECK(err != NULL && err[0] && f == NULL);
	else
		CHECK(err == NULL);
	dgfilter_free(f);
	sqlite3_free(err);
	check_names(text);
	check_names(ranges);
	check_geometry(text);
	for (i = 0; dgfilter_word(i, 0); i++)
		CHECK(i < 64);
	free(text);
	return 0;
}
