/* shape.c: recognizing the statements dgsql answers itself.  See shape.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "shape.h"

const char *const shape_columns[SHAPE_NCOL] = {
	"icount", "addr", "size", "is_write", "pc", "thread", "context_id",
	"block_id", "aseq", "chunk_id", "module_id"
};

const char *shape_word(const char *s, const char *w)
{
	size_t n = strlen(w);

	while (isspace((unsigned char)*s))
		s++;
	if (strncasecmp(s, w, n) != 0)
		return NULL;
	if (isalnum((unsigned char)w[n - 1]) && (isalnum((unsigned char)s[n]) || s[n] == '_'))
		return NULL;
	return s + n;
}

const char *shape_table(const char *s, int *view)
{
	const char *t;

	if ((t = shape_word(s, "filtered_accesses")))
		return *view = 1, t;
	*view = 0;
	if ((t = shape_word(s, "main")) && (t = shape_word(t, ".")) && (t = shape_word(t, "accesses")))
		return t;
	return shape_word(s, "accesses");
}

int shape_end(const char *s)
{
	const char *t = shape_word(s, ";");

	if (t)
		s = t;
	while (isspace((unsigned char)*s))
		s++;
	return *s == 0;
}

/* The names SQLite looks at before the eponymous virtual table: temp's
   and main's; dgfilter.c's view text with no condition. */
int shape_table_is_ours(sqlite3 *db, int view)
{
	sqlite3_stmt *q = NULL;
	int ours;

	if (sqlite3_prepare_v2(db, "SELECT (SELECT count(*) FROM temp.sqlite_master"
			       " WHERE name = 'accesses' COLLATE NOCASE) + (SELECT count(*)"
			       " FROM main.sqlite_master WHERE name IN ('accesses', ?1) COLLATE NOCASE)"
			       " + (?1 IS NOT NULL AND NOT EXISTS (SELECT 1 FROM temp.sqlite_master"
			       " WHERE name = ?1 AND type = 'view' AND sql = 'CREATE VIEW "
			       "filtered_accesses AS SELECT * FROM accesses WHERE 1'))",
			       -1, &q, NULL) != SQLITE_OK)
		return 0;
	if (view)
		sqlite3_bind_text(q, 1, "filtered_accesses", -1, SQLITE_STATIC);
	ours = sqlite3_step(q) == SQLITE_ROW && sqlite3_column_int64(q, 0) == 0;
	sqlite3_finalize(q);
	return ours;
}
