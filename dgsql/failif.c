/* failif.c: parsing and judging --fail-if conditions (see failif.h).
 *
 * The text is read from its right end: the value, then the operator (the
 * last '<' or '>'), then the metric (the letters before it), and whatever
 * is left before a ':' is the scope.  So a function name in the scope can
 * hold '<', '>' and ':' without quoting.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "failif.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const failif_metric_names[CM_N] = {
	"accesses", "bytes", "lines", "pages", "heap_peak", "allocs",
	"instructions"
};
const char *const failif_kind_names[CK_N] = {
	"total", "fn", "site", "block", "event", "range", "thread"
};
const char *const failif_op_names[4] = { ">", ">=", "<", "<=" };

struct unit {
	const char *name;
	double factor;
};

/* Longest names first: "Mi" before "M". */
static const struct unit units[] = {
	{ "Ki", 1024.0 }, { "Mi", 1048576.0 }, { "Gi", 1073741824.0 },
	{ "Ti", 1099511627776.0 }, { "k", 1e3 }, { "K", 1e3 }, { "M", 1e6 },
	{ "G", 1e9 }, { "T", 1e12 }, { "", 1.0 },
};

static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* The length of the number at s[0..n): digits, at most one '.', and an
   exponent (e+20, as failif_format may write); 0 when none starts there. */
static size_t number_len(const char *s, size_t n)
{
	size_t i = 0, digits = 0;

	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++, digits++;
	if (i < n && s[i] == '.')
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			digits++;
	if (!digits)
		return 0;
	if (i + 1 < n && (s[i] == 'e' || s[i] == 'E')) {
		size_t j = i + 1 + (s[i + 1] == '+' || s[i + 1] == '-');

		if (j < n && s[j] >= '0' && s[j] <= '9') {
			while (j < n && s[j] >= '0' && s[j] <= '9')
				j++;
			i = j;
		}
	}
	return i;
}

static int parse_number(const char *s, size_t n, double *v)
{
	char buf[64];

	if (n == 0 || n >= sizeof buf)
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	*v = strtod(buf, NULL);
	return isfinite(*v) ? 0 : -1;
}

/* VALUE := [+-] NUMBER [UNIT] [%], in s[0..n) starting at byte `at`. */
static int parse_value(const char *s, size_t n, size_t at, struct failif *c,
		       char *err, size_t len)
{
	size_t i = 0, num, k;
	double sign = 1;

	if (i < n && (s[i] == '+' || s[i] == '-')) {
		sign = s[i] == '-' ? -1 : 1;
		c->change = 1;
		i++;
	}
	num = i;
	i += number_len(s + i, n - i);
	if (parse_number(s + num, i - num, &c->value) < 0)
		return fail(err, len, "at byte %zu: expected a number "
			    "(like 5, +5%%, +1MiB, 2.5M)", at + num);
	if (i < n && s[i] == '%') {
		if (!c->change)
			return fail(err, len, "at byte %zu: a percentage is a "
				    "change and needs a sign (+5%%)", at + i);
		c->percent = 1;
		i++;
	} else {
		for (k = 0; k < sizeof units / sizeof units[0]; k++) {
			size_t l = strlen(units[k].name);

			if (l <= n - i && !memcmp(s + i, units[k].name, l)) {
				c->value *= units[k].factor;
				i += l;
				break;
			}
		}
		if (i < n && s[i] == 'B')
			i++;
	}
	if (i != n)
		return fail(err, len, "at byte %zu: unexpected '%c' after the "
			    "value (units: k M G T, Ki Mi Gi Ti, B; or %%)",
			    at + i, s[i]);
	c->value = c->value * sign + 0.0;      /* -0 is 0 */
	if (!isfinite(c->value))
		return fail(err, len, "at byte %zu: the value is too large",
			    at + num);
	return 0;
}

static int lookup(const char *const *names, int n, const char *s, size_t l)
{
	int i;

	for (i = 0; i < n; i++)
		if (strlen(names[i]) == l && !memcmp(names[i], s, l))
			return i;
	return -1;
}

/* SCOPE := KIND ['=' NAME], s[0..n). */
static int parse_scope(const char *s, size_t n, struct failif *c, char *err,
		       size_t len)
{
	const char *eq = memchr(s, '=', n);
	size_t kl = eq ? (size_t)(eq - s) : n;
	int k = lookup(failif_kind_names, CK_N, s, kl);

	if (k < 0 && kl == 8 && !memcmp(s, "function", 8))
		k = CK_FN;
	if (k < 0)
		return fail(err, len, "at byte 0: unknown scope '%.*s' (total, "
			    "fn, site, block, event, range, thread)",
			    (int)(kl > 40 ? 40 : kl), s);
	c->kind = k;
	if (!eq)
		return 0;
	if (kl + 1 == n)
		return fail(err, len, "at byte %zu: an empty name after '='",
			    kl + 1);
	c->name = strndup(eq + 1, n - kl - 1);
	if (!c->name)
		return fail(err, len, "out of memory");
	return 0;
}

/* The operator: the last '<' or '>' of s[0..n); its offset, or -1. */
static long find_op(const char *s, size_t n, struct failif *c, size_t *oplen)
{
	size_t i = n;

	while (i-- > 0) {
		if (s[i] != '<' && s[i] != '>')
			continue;
		*oplen = i + 1 < n && s[i + 1] == '=' ? 2 : 1;
		c->op = s[i] == '>' ? (*oplen == 2 ? FO_GE : FO_GT)
				    : (*oplen == 2 ? FO_LE : FO_LT);
		return (long)i;
	}
	return -1;
}

int failif_parse(const char *text, struct failif *c, char *err, size_t len)
{
	size_t n = strlen(text), oplen = 0, v, m, e;
	long op;
	int metric;

	memset(c, 0, sizeof *c);
	if ((op = find_op(text, n, c, &oplen)) < 0)
		return fail(err, len, "no comparison (> >= < <=); like "
			    "'accesses>+5%%' or 'fn:heap_peak>+1MiB'");
	v = (size_t)op + oplen;
	while (v < n && is_space(text[v]))
		v++;
	e = n;
	while (e > v && is_space(text[e - 1]))
		e--;
	if (parse_value(text + v, e - v, v, c, err, len) < 0)
		return -1;
	e = (size_t)op;
	while (e > 0 && is_space(text[e - 1]))
		e--;
	m = e;
	while (m > 0 && ((text[m - 1] >= 'a' && text[m - 1] <= 'z') ||
			 text[m - 1] == '_'))
		m--;
	metric = lookup(failif_metric_names, CM_N, text + m, e - m);
	if (metric < 0)
		return fail(err, len, "at byte %zu: unknown metric '%.*s' "
			    "(accesses bytes lines pages heap_peak allocs "
			    "instructions)", m, (int)(e - m > 40 ? 40 : e - m),
			    text + m);
	c->metric = metric;
	if (m == 0)
		return 0;
	if (text[m - 1] != ':')
		return fail(err, len, "at byte %zu: expected ':' between the "
			    "scope and the metric", m - 1);
	if (parse_scope(text, m - 1, c, err, len) < 0) {
		failif_free(c);
		return -1;
	}
	return 0;
}

void failif_free(struct failif *c)
{
	free(c->name);
	c->name = NULL;
}

int failif_holds(const struct failif *c, double base, double head,
		 int has_base)
{
	double x;

	if (isnan(head) || (has_base && isnan(base)))
		return 0;
	if (!has_base)
		base = 0;
	if (c->percent) {
		if (!has_base || base == 0)
			return 0;
		x = (head - base) / fabs(base) * 100.0;
	} else {
		x = c->change ? head - base : head;
	}
	switch (c->op) {
	case FO_GT: return x > c->value;
	case FO_GE: return x >= c->value;
	case FO_LT: return x < c->value;
	default: return x <= c->value;
	}
}

void failif_format(const struct failif *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s%s%s%s%.17g%s",
		 c->kind != CK_TOTAL || c->name ? failif_kind_names[c->kind] : "",
		 c->name ? "=" : "", c->name ? c->name : "",
		 c->kind != CK_TOTAL || c->name ? ":" : "",
		 failif_metric_names[c->metric], failif_op_names[c->op],
		 c->change && c->value >= 0 ? "+" : "", c->value,
		 c->percent ? "%" : "");
}
