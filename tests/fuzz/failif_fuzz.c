/* failif_fuzz.c: libFuzzer target for dgsql's --fail-if parser
 * (dgsql/failif.c).
 *
 * The input, cut at its first NUL, is parsed as a condition.  A refused
 * one must come with a message.  An accepted one must be well formed (its
 * kind, metric and operator in range, a percentage only as a change, a
 * finite value, a name only when non-empty), and must survive a round trip:
 * failif_format's canonical text parses back to the same condition, and
 * judging it on a few value pairs must give the same answers both times.
 * A failed check is __builtin_trap().  Build and run: make fuzz
 * FUZZ=failif (tests/fuzz/fuzz.mk); make test replays tests/fuzz/failif/.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "failif.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static void check_shape(const struct failif *c)
{
	CHECK((unsigned)c->kind < CK_N);
	CHECK((unsigned)c->metric < CM_N);
	CHECK((unsigned)c->op <= FO_LE);
	CHECK(!c->percent || c->change);
	CHECK(isfinite(c->value));
	CHECK(!c->name || c->name[0]);
}

static void same_answers(const struct failif *a, const struct failif *b)
{
	static const double pairs[][2] = {
		{ 0, 0 }, { 100, 105 }, { 100, 106 }, { 100, 94 },
		{ 1e6, 3e6 }, { 5, 0 }, { 1e12, 1e12 + 1 },
	};
	size_t i;

	for (i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
		CHECK(failif_holds(a, pairs[i][0], pairs[i][1], 1) ==
		      failif_holds(b, pairs[i][0], pairs[i][1], 1));
		CHECK(failif_holds(a, 0, pairs[i][1], 0) ==
		      failif_holds(b, 0, pairs[i][1], 0));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[256], canon[1024];
	struct failif c, d;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	err[0] = 0;
	if (failif_parse(text, &c, err, sizeof err) < 0) {
		CHECK(err[0] != 0);
		free(text);
		return 0;
	}
	check_shape(&c);
	failif_format(&c, canon, sizeof canon);
	/* a name longer than the buffer is cut: no round trip to check */
	if (strlen(canon) + 1 < sizeof canon) {
		CHECK(failif_parse(canon, &d, err, sizeof err) == 0);
		check_shape(&d);
		CHECK(d.kind == c.kind && d.metric == c.metric &&
		      d.op == c.op && d.change == c.change &&
		      d.percent == c.percent && d.value == c.value);
		CHECK((!d.name && !c.name) ||
		      (d.name && c.name && !strcmp(d.name, c.name)));
		same_answers(&c, &d);
		failif_free(&d);
	}
	failif_free(&c);
	free(text);
	return 0;
}
