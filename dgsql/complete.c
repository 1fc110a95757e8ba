/* complete.c: see complete.h.
 *
 * Candidates for one TAB are collected into a sorted list `cand`, then
 * handed out by readline's generator protocol.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "complete.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <readline/readline.h>

#include "commands.h"
#include "dgesc.h"
#include "dgfilter.h"
#include "dgmem.h"
#include "shellctx.h"

struct list {
	char **s;
	size_t n, cap;
};

static struct shell *shell;
static struct list sql_words;   /* keywords, tables, columns */
static struct list cand;        /* this completion's candidates */
static size_t cand_next;

static void list_add(struct list *l, const char *s, size_t len)
{
	char *d;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 256;
		char **p = realloc(l->s, cap * sizeof *p);

		if (!p)
			return;
		l->s = p;
		l->cap = cap;
	}
	d = strndup(s, len);
	if (d)
		l->s[l->n++] = d;
}

static void list_clear(struct list *l)
{
	while (l->n)
		free(l->s[--l->n]);
}

/* Adds PREFIX+word for each word starting with `text` (after PREFIX).
   A word that dgesc would escape (a control character, invalid UTF-8:
   trace data) is never offered: readline would put it raw on the
   terminal and into the line. */
static void offer(const char *prefix, const char *word, size_t len,
		  const char *text)
{
	char buf[1024];
	size_t lp = strlen(prefix);

	if (lp + len >= sizeof buf || dgesc_len(word, len, 0) != len)
		return;
	memcpy(buf, prefix, lp);
	memcpy(buf + lp, word, len);
	buf[lp + len] = 0;
	if (strncasecmp(buf, text, strlen(text)) == 0)
		list_add(&cand, buf, lp + len);
}

/* Each first column of SQL's rows, as offer() candidates. */
static void offer_sql(const char *prefix, const char *sql, const char *text,
		      int base_names)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(shell->db, sql, -1, &st, NULL) != SQLITE_OK)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *s = (const char *)sqlite3_column_text(st, 0);
		const char *slash;

		if (!s)
			continue;
		offer(prefix, s, strlen(s), text);
		if (base_names && (slash = strrchr(s, '/')))
			offer(prefix, slash + 1, strlen(slash + 1), text);
	}
	sqlite3_finalize(st);
}

/* A filter condition: its word, or after fn:, file:, dso:, user: or
   field: the names the trace has (lib/dgfilter.h says which). */
static void offer_condition(const char *text)
{
	static const char *const opts[] = { "--events", "--ranges", "off" };
	const char *sql, *w;
	size_t i, wl;
	int base;

	if ((sql = dgfilter_names_sql(text, &wl, &base))) {
		char word[16];

		snprintf(word, sizeof word, "%.*s", (int)wl, text);
		offer_sql(word, sql, text, base);
		return;
	}
	for (i = 0; (w = dgfilter_word(i, 0)); i++)
		offer("", w, strlen(w), text);
	for (i = 0; i < sizeof opts / sizeof opts[0]; i++)
		offer("", opts[i], strlen(opts[i]), text);
}

static void offer_queries(const char *text)
{
	DIR *d = shell->queries_dir ? opendir(shell->queries_dir) : NULL;
	struct dirent *e;

	while (d && (e = readdir(d))) {
		size_t l = strlen(e->d_name);

		if (l > 4 && !strcmp(e->d_name + l - 4, ".sql"))
			offer("", e->d_name, l - 4, text);
	}
	if (d)
		closedir(d);
}

static void offer_words(const char *const *w, const char *text)
{
	for (; *w; w++)
		offer("", *w, strlen(*w), text);
}

/* ---------------------------------------------------------- SQL words */

static void load_sql_words(void)
{
	sqlite3_stmt *st;
	int i, n;

	for (i = 0; i < sqlite3_keyword_count(); i++) {
		const char *k;

		sqlite3_keyword_name(i, &k, &n);
		list_add(&sql_words, k, n);
	}
	if (sqlite3_prepare_v2(shell->db,
	    "SELECT name FROM sqlite_schema WHERE type IN ('table','view') "
	    "UNION SELECT name FROM sqlite_temp_schema WHERE type = 'view' "
	    "UNION SELECT 'accesses' UNION SELECT 'dg_hist' "
	    "UNION SELECT DISTINCT p.name FROM sqlite_schema s, "
	    "pragma_table_info(s.name) p WHERE s.type IN ('table','view') "
	    "UNION SELECT 'icount' UNION SELECT 'addr' UNION SELECT 'is_write' "
	    "UNION SELECT 'context_id' UNION SELECT 'block_id' "
	    "UNION SELECT 'chunk_id' UNION SELECT 'aseq'",
	    -1, &st, NULL) != SQLITE_OK)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *w = (const char *)sqlite3_column_text(st, 0);
		size_t len = (size_t)sqlite3_column_bytes(st, 0);

		if (w && dgesc_len(w, len, 0) == len)       /* as in offer() */
			list_add(&sql_words, w, len);
	}
	sqlite3_finalize(st);
}

static void offer_sql_words(const char *text)
{
	size_t i;
	int lower = islower((unsigned char)text[0]);

	for (i = 0; i < sql_words.n; i++) {
		char buf[128];
		size_t k, l = strlen(sql_words.s[i]);

		if (l >= sizeof buf || strncasecmp(sql_words.s[i], text,
						   strlen(text)))
			continue;
		for (k = 0; k <= l; k++)
			buf[k] = lower ? tolower((unsigned char)sql_words.s[i][k])
				       : sql_words.s[i][k];
		list_add(&cand, buf, l);
	}
}

/* ---------------------------------------------------------- readline */

static char *generate(const char *text, int state)
{
	(void)text;
	if (state == 0)
		cand_next = 0;
	while (cand_next < cand.n)
		return strdup(cand.s[cand_next++]);
	return NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Drops adjacent duplicates of a sorted list. */
static void dedupe(struct list *l)
{
	size_t i, k = 0;

	for (i = 0; i < l->n; i++) {
		if (k && strcmp(l->s[k - 1], l->s[i]) == 0)
			free(l->s[i]);
		else
			l->s[k++] = l->s[i];
	}
	l->n = k;
}

static const char *const modes[] = {
	"list", "table", "column", "csv", "tsv", "json", "line", NULL
};
static const char *const onoff[] = { "on", "off", NULL };

/* Arguments of dot-command CMD; returns 0 to fall back on file names. */
static void offer_modes(const char *text) { offer_words(modes, text); }
static void offer_onoff(const char *text) { offer_words(onoff, text); }

/* Offers what the arguments of the command named cmd[0..len) complete to
   (its table entry says); 0 when they are nothing of the trace's. */
static int offer_args(const char *cmd, size_t len, const char *text)
{
	static void (*const offer_kind[])(const char *) = {
		[ARGS_MODE] = offer_modes, [ARGS_ONOFF] = offer_onoff,
		[ARGS_QUERY] = offer_queries, [ARGS_FILTER] = offer_condition,
	};
	const struct command *c;
	int i, n;

	c = commands_table(&n);
	for (i = 0; i < n; i++)
		if (strlen(c[i].name) == len && !strncmp(c[i].name, cmd, len))
			break;
	if (i == n || c[i].args == ARGS_NONE)
		return 0;
	offer_kind[c[i].args](text);
	return 1;
}

static char **attempt(const char *text, int start, int end)
{
	(void)end;
	const char *line = rl_line_buffer + strspn(rl_line_buffer, " \t");
	int i, n;

	list_clear(&cand);
	rl_attempted_completion_over = 1;
	if (line[0] == '.' && start == (int)(line - rl_line_buffer)) {
		const struct command *c = commands_table(&n);

		for (i = 0; i < n; i++)
			offer(".", c[i].name, strlen(c[i].name), text);
	} else if (line[0] == '.') {
		size_t len = strcspn(line + 1, " \t");

		if (!offer_args(line + 1, len, text) &&
		    strncmp(text, "fn:", 3) && strncmp(text, "file:", 5) &&
		    strncmp(text, "dso:", 4) && strncmp(text, "user:", 5)) {
			rl_attempted_completion_over = 0;
			return NULL;
		}
		if (cand.n == 0)
			offer_condition(text);
	} else if (strchr(text, ':'))
		offer_condition(text);
	else
		offer_sql_words(text);
	dg_sort(cand.s, cand.n, sizeof cand.s[0], cmp_str);
	dedupe(&cand);
	return rl_completion_matches(text, generate);
}

void complete_init(struct shell *sh)
{
	shell = sh;
	load_sql_words();
	rl_readline_name = "dgsql";
	rl_attempted_completion_function = attempt;
	rl_basic_word_break_characters = " \t\n\"'`@$><=;|&{(,";
	rl_completer_word_break_characters = rl_basic_word_break_characters;
}
