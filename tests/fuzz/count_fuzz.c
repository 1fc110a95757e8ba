/* count_fuzz.c: libFuzzer target for dgsql's count fast path parser
 * (count_parse in dgsql/count.c).
 *
 * The input, cut at its first NUL, is parsed as a statement.  An accepted
 * one must be well formed: at most DGVTAB_COUNT_TERMS terms, each on a
 * column the table takes with an operator it takes (dgvtab_term_taken).
 * It must survive a round trip: the terms written back as canonical text
 * parse to the same terms.  A failed check is __builtin_trap().  Build
 * and run: make fuzz FUZZ=count (tests/fuzz/fuzz.mk); make test replays
 * tests/fuzz/count/.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count.h"
#include "shape.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static const char *op_text(unsigned char op)
{
	switch (op) {
	case SQLITE_INDEX_CONSTRAINT_EQ: return "=";
	case SQLITE_INDEX_CONSTRAINT_LT: return "<";
	case SQLITE_INDEX_CONSTRAINT_LE: return "<=";
	case SQLITE_INDEX_CONSTRAINT_GT: return ">";
	case SQLITE_INDEX_CONSTRAINT_GE: return ">=";
	}
	CHECK(0);
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dgvtab_term t[DGVTAB_COUNT_TERMS], u[DGVTAB_COUNT_TERMS];
	char *text = malloc(size + 1), canon[2048];
	int n, m, view, view2, i, len;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	if (!count_parse(text, t, &n, &view)) {
		free(text);
		return 0;
	}
	CHECK(n >= 0 && n <= DGVTAB_COUNT_TERMS);
	len = snprintf(canon, sizeof canon, "SELECT count(*) FROM %s",
		       view ? "filtered_accesses" : "accesses");
	for (i = 0; i < n; i++) {
		CHECK(t[i].column >= 0 && t[i].column <= DGVTAB_STACK_COLUMN);
		CHECK((t[i].column == DGVTAB_STACK_COLUMN) == (t[i].text != NULL));
		CHECK(dgvtab_term_taken(&t[i]));
		if (t[i].text)          /* the stack set: its one name */
			len += snprintf(canon + len, sizeof canon - (size_t)len,
					"%s stack_filter = '%s'", i ? " AND" : " WHERE", t[i].text);
		else
			len += snprintf(canon + len, sizeof canon - (size_t)len, "%s %s %s %lld",
					i ? " AND" : " WHERE", shape_columns[t[i].column],
					op_text(t[i].op), (long long)t[i].value);
	}
	CHECK(count_parse(canon, u, &m, &view2));
	CHECK(m == n && view2 == view);
	for (i = 0; i < n; i++)
		CHECK(u[i].column == t[i].column && u[i].op == t[i].op && u[i].value == t[i].value
		      && !u[i].text == !t[i].text);
	free(text);
	return 0;
}
