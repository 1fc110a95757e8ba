/* route.c: which engine a statement's text is for.  See route.h.
 *
 * A tokenizer over the text (words, quoted names, strings, numbers,
 * comments, punctuation), and the two passes over its tokens.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <ctype.h>
#include <sqlite3.h>
#include <string.h>
#include <strings.h>

#include "route.h"


/* Functions that mean the same in SQLite and DuckDB on the values of a
   trace database (integers, text, reals), called with the arguments they
   take in both (min and max with one: with two, SQLite's are scalar). */
static const char *const same_fns[] = {
	"abs", "avg", "coalesce", "count", "ifnull", "lower", "max", "min",
	"nullif", "sum", "upper", "length", "substr", "replace", "trim",
	"ltrim", "rtrim", "instr", "round", "cast", NULL
};

/* Keywords that may stand before '(' without being a function. */
static const char *const paren_words[] = {
	"in", "as", "from", "join", "on", "exists", "and", "or", "not",
	"where", "select", "values", "over", "using", "when", "then",
	"else", "case", "by", "having", "with", "all", "any", "union",
	"except", "intersect", "filter", "between", "is", NULL
};

static int in_list(const char *const *list, const char *w, size_t n)
{
	for (; *list; list++)
		if (strlen(*list) == n && strncasecmp(*list, w, n) == 0)
			return 1;
	return 0;
}

/* One token of SQL: a word (identifier or keyword, or a "quoted" or
   [bracketed] or `quoted` identifier: quoted set), a string or number
   (literal), or one punctuation character.  *s moves past it and past
   comments and blanks before it; 0 at the end. */
struct tok {
	const char *p;
	size_t n;
	int word, quoted;
};

static const char *skip_blank(const char *s)
{
	for (;;) {
		while (isspace((unsigned char)*s))
			s++;
		if (s[0] == '-' && s[1] == '-') {
			while (*s && *s != '\n')
				s++;
		} else if (s[0] == '/' && s[1] == '*') {
			const char *e = strstr(s + 2, "*/");
			s = e ? e + 2 : s + strlen(s);
		} else
			return s;
	}
}

static const char *skip_quoted(const char *s, char close)
{
	for (s++; *s; s++)
		if (*s == close) {
			if (s[1] != close || close == ']')
				return s + 1;
			s++;
		}
	return s;
}

static int next_tok(const char **s, struct tok *t)
{
	const char *p = skip_blank(*s);

	memset(t, 0, sizeof *t);
	t->p = p;
	if (!*p)
		return 0;
	if (*p == '\'') {
		p = skip_quoted(p, '\'');
	} else if (*p == '"' || *p == '`' || *p == '[') {
		p = skip_quoted(p, *p == '[' ? ']' : *p);
		t->word = t->quoted = 1;
	} else if (isalpha((unsigned char)*p) || *p == '_' || (unsigned char)*p >= 0x80) {
		while (isalnum((unsigned char)*p) || *p == '_' || *p == '$' || (unsigned char)*p >= 0x80)
			p++;
		t->word = 1;
	} else if (isdigit((unsigned char)*p)) {
		while (isalnum((unsigned char)*p) || *p == '.')
			p++;
	} else
		p++;
	t->n = (size_t)(p - t->p);
	*s = p;
	return 1;
}

static int tok_is(const struct tok *t, const char *w)
{
	return t->word && !t->quoted && strlen(w) == t->n && strncasecmp(t->p, w, t->n) == 0;
}

/* The name a word token stands for: quoted ones without their quotes
   (only the plain names below matter, so doubled quotes need no undoing). */
static int name_is(const struct tok *t, const char *name)
{
	size_t n = strlen(name);

	if (!t->word)
		return 0;
	if (t->quoted)
		return t->n == n + 2 && strncasecmp(t->p + 1, name, n) == 0;
	return t->n == n && strncasecmp(t->p, name, n) == 0;
}

/* Arguments of the call whose '(' is at s: 1 + commas at its depth
   (0 for "()"). */
static int call_args(const char *s)
{
	struct tok t;
	int depth = 0, args = 0, seen = 0;

	while (next_tok(&s, &t)) {
		if (t.n == 1 && *t.p == '(') {
			if (depth++ == 0)
				continue;
		} else if (t.n == 1 && *t.p == ')') {
			if (--depth == 0)
				return seen ? args + 1 : 0;
		} else if (depth == 1 && t.n == 1 && *t.p == ',')
			args++;
		seen = 1;
	}
	return args + 1;
}

/* Aggregates that, at the top level, make the answer one row a group. */
static const char *const aggregates[] = { "avg", "count", "max", "min", "sum", NULL };

enum route_verdict route_query(const char *sql, int filtered)
{
	const char *s = sql, *after;
	struct tok t, u;
	int reads = 0, first = 1, query = 0, depth = 0, grouped = 0;

	while (next_tok(&s, &t)) {
		if (first) {
			query = tok_is(&t, "select") || tok_is(&t, "with");
			first = 0;
		}
		if (t.n == 1 && *t.p == '(')
			depth++;
		else if (t.n == 1 && *t.p == ')')
			depth--;
		if (name_is(&t, "accesses"))
			reads = 1;
		else if (name_is(&t, "filtered_accesses")) {
			if (filtered)
				return ROUTE_SQLITE;
			reads = 1;
		}
		if (t.n == 1 && *t.p == ';') {
			if (next_tok(&s, &u))
				return ROUTE_SQLITE;         /* one statement at a time */
			break;
		}
		if (!t.word || t.quoted)
			continue;
		if (tok_is(&t, "over"))
			return ROUTE_UNSAFE;    /* a window: rows in SQLite's order */
		after = s;
		if (depth == 0 && tok_is(&t, "group") && next_tok(&after, &u) && tok_is(&u, "by"))
			grouped = 1;
		after = s;
		if (!next_tok(&after, &u) || !(u.n == 1 && *u.p == '('))
			continue;
		if (in_list(paren_words, t.p, t.n))
			continue;
		if (!in_list(same_fns, t.p, t.n))
			return ROUTE_UNSAFE;
		if ((tok_is(&t, "min") || tok_is(&t, "max")) && call_args(u.p) != 1)
			return ROUTE_UNSAFE;
		if (depth == 0 && in_list(aggregates, t.p, t.n))
			grouped = 1;
	}
	if (!reads)
		return ROUTE_SQLITE;
	/* Rows that are not one a group come in SQLite's order (a scan's is
	   the trace's, and ties under ORDER BY keep it): SQLite's to give. */
	return query && grouped ? ROUTE_DUCKDB : ROUTE_UNSAFE;
}

/* The top level's GROUP BY terms, as text: [*lo, *hi) of sql, and *ins,
   where an ORDER BY would go (before a top-level LIMIT, else at the end
   or a closing ';'); 0 when the top level has no GROUP BY, has its own
   ORDER BY, or is a compound (UNION ...). */
static int top_group(const char *sql, const char **lo, const char **hi, const char **ins)
{
	const char *s = sql;
	struct tok t;
	int depth = 0, in_group = 0;

	*lo = *hi = *ins = NULL;
	while (next_tok(&s, &t)) {
		if (t.n == 1 && *t.p == '(')
			depth++;
		else if (t.n == 1 && *t.p == ')')
			depth--;
		if (depth != 0 || (t.n == 1 && *t.p == ')'))
			continue;
		if (tok_is(&t, "order") || tok_is(&t, "union") || tok_is(&t, "except")
		    || tok_is(&t, "intersect"))
			return 0;
		if (in_group && (tok_is(&t, "having") || tok_is(&t, "window") || tok_is(&t, "limit")
				 || (t.n == 1 && *t.p == ';'))) {
			in_group = 0;
			*hi = t.p;
		}
		if (tok_is(&t, "limit") || (t.n == 1 && *t.p == ';')) {
			if (!*ins)
				*ins = t.p;
		} else if (tok_is(&t, "group")) {
			const char *after = s;
			struct tok u;
			if (next_tok(&after, &u) && tok_is(&u, "by")) {
				s = after;
				*lo = after;
				in_group = 1;
			}
		}
	}
	if (in_group)
		*hi = s;
	if (!*ins)
		*ins = s;
	return *lo && *hi && *hi > *lo && *ins >= *hi;
}

/* sql as DuckDB should run it to give SQLite's answer, or NULL when out
   of memory: every LIKE as ILIKE (SQLite's LIKE folds ASCII case), and a
   top-level GROUP BY without ORDER BY ordered by its terms (SQLite gives
   the groups in that order, and users and scripts count on it). */
char *route_rewrite(const char *sql)
{
	sqlite3_str *o = sqlite3_str_new(NULL);
	const char *s = sql, *from = sql, *glo, *ghi, *ins;
	int order = top_group(sql, &glo, &ghi, &ins);
	struct tok t;

	while (next_tok(&s, &t)) {
		if (order && t.p >= ins) {
			sqlite3_str_append(o, from, (int)(ins - from));
			sqlite3_str_appendall(o, " ORDER BY ");
			sqlite3_str_append(o, glo, (int)(ghi - glo));
			sqlite3_str_appendall(o, " ");
			from = ins;
			order = 0;
		}
		if (tok_is(&t, "like")) {      /* LIKE -> ILIKE, by an I before it */
			sqlite3_str_append(o, from, (int)(t.p - from));
			sqlite3_str_appendall(o, "I");
			from = t.p;
		}
	}
	sqlite3_str_appendall(o, from);
	if (order) {
		sqlite3_str_appendall(o, " ORDER BY ");
		sqlite3_str_append(o, glo, (int)(ghi - glo));
	}
	return sqlite3_str_finish(o);
}

