/* failif.h: the conditions of `dgsql --compare --fail-if COND`.
 *
 * Promise: failif_parse reads one condition of this grammar (spaces
 * around the operator are allowed):
 *
 *   COND   := [SCOPE ':'] METRIC OP VALUE
 *   SCOPE  := KIND | KIND '=' NAME      KIND: total fn site block event
 *                                       range thread (function = fn)
 *   METRIC := accesses bytes lines pages heap_peak allocs instructions
 *   OP     := '>' | '>=' | '<' | '<='
 *   VALUE  := ['+'|'-'] NUMBER [UNIT] ['%']
 *   UNIT   := k M G T (powers of 1000) | Ki Mi Gi Ti (of 1024), and an
 *             optional B after either (1MiB, 500kB)
 *
 * A signed VALUE is a change from BASE to HEAD (+5% relative, +1MiB
 * absolute); an unsigned one is HEAD's own value; '%' needs a sign.
 * Without a SCOPE the condition is on the totals; KIND alone means every
 * entity of that kind, KIND=NAME those whose name matches NAME (a glob;
 * the caller matches).  The operator is the last '<' or '>' of the text,
 * so NAME may hold any character, C++ templates and '::' included.
 *
 * failif_holds says whether one entity's BASE and HEAD values make the
 * condition true (a regression).  Pure code, no allocation but NAME's copy.
 *
 * Ownership: a parsed struct failif owns its name (failif_free).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSQL_FAILIF_H
#define DGSQL_FAILIF_H

#include <stddef.h>

/* What --compare measures, in its table's column order. */
enum cmp_metric {
	CM_ACCESSES, CM_BYTES, CM_LINES, CM_PAGES, CM_HEAP_PEAK, CM_ALLOCS,
	CM_INSTRUCTIONS, CM_N
};

/* What it matches by name across the two traces. */
enum cmp_kind {
	CK_TOTAL, CK_FN, CK_SITE, CK_BLOCK, CK_EVENT, CK_RANGE, CK_THREAD, CK_N
};

enum failif_op { FO_GT, FO_GE, FO_LT, FO_LE };

struct failif {
	enum cmp_kind kind;
	char *name;             /* NULL: every entity of the kind */
	enum cmp_metric metric;
	enum failif_op op;
	int change;             /* signed VALUE: HEAD - BASE */
	int percent;            /* change relative to BASE, in % */
	double value;
};

extern const char *const failif_metric_names[CM_N];
extern const char *const failif_kind_names[CK_N];
extern const char *const failif_op_names[4];

/* 0, or -1 with a message in err[0..errlen) saying what is wrong where. */
int failif_parse(const char *text, struct failif *c, char *err,
		 size_t errlen);
void failif_free(struct failif *c);

/* 1 when the condition holds for an entity with these values (has_base 0:
   the entity is only in HEAD; a percentage then never holds). */
int failif_holds(const struct failif *c, double base, double head,
		 int has_base);

/* The condition in canonical form (the grammar above) into buf. */
void failif_format(const struct failif *c, char *buf, size_t len);

#endif
