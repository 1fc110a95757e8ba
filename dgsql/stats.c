/* stats.c: see stats.h.  One row of `facts` per printed line.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "stats.h"
#include "modules.h"

#include <stdlib.h>
#include <string.h>

#include "dgesc.h"

struct fact {
	const char *name;
	const char *sql;        /* one row, one value */
};

#define META(k) "SELECT value FROM meta WHERE key = '" k "'"

static const struct fact facts[] = {
	{ "program", META("exe") },
	{ "arguments", META("argv") },
	{ "pid", META("pid") },
	{ "log", META("source") },
	{ "log format", META("format_version") },
	{ "written by", META("tool") },
	{ "imported by", "SELECT (" META("importer") ") || ' at ' || ("
	  META("import_time") ")" },
	{ "complete", "SELECT CASE (" META("complete") ") WHEN 1 THEN 'yes' "
	  "ELSE 'no: ' || coalesce((" META("incomplete_reason") "), "
	  "'reason unknown') END" },
	{ "instructions", META("icount") },
	{ "icount span", "SELECT min(icount_lo) || ' .. ' || max(icount_hi) "
	  "FROM chunks" },
	{ "accesses", META("accesses") },
	{ "reads", "SELECT sum(accesses) || ' (' || sum(bytes) || ' bytes)' "
	  "FROM sum_pc WHERE is_write = 0" },
	{ "writes", "SELECT sum(accesses) || ' (' || sum(bytes) || ' bytes)' "
	  "FROM sum_pc WHERE is_write = 1" },
	{ "runs", META("runs") },
	{ "chunks", "SELECT count(*) FROM chunks" },
	{ "threads", "SELECT count(*) FROM threads" },
	{ "heap blocks", "SELECT count(*) || ' (' || coalesce(sum(size), 0) "
	  "|| ' bytes, ' || count(free_icount) || ' freed, ' || "
	  "count(DISTINCT alloc_stack_id) || ' allocation sites)' "
	  "FROM blocks" },
	{ "tracked ranges", "SELECT count(*) || ' (' || count(DISTINCT label) "
	  "|| ' labels)' FROM ranges" },
	{ "user events", "SELECT count(*) || ' (' || count(DISTINCT label) "
	  "|| ' labels)' FROM events" },
	{ "modules", "SELECT count(*) FROM modules" },
	{ "functions", "SELECT count(*) FROM functions" },
	{ "symbols", modules_stats_sql },
	{ "pages touched", "SELECT count(*) FROM sum_pages" },
	{ "cache lines", "SELECT count(*) FROM sum_lines" },
};

static void print_fact(sqlite3 *db, FILE *out, const struct fact *f)
{
	sqlite3_stmt *st = NULL;
	const unsigned char *v = NULL;

	char *e = NULL;

	if (sqlite3_prepare_v2(db, f->sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_text(st, 0);
	if (v)          /* the program's path, arguments: trace data */
		e = dgesc_text((const char *)v,
			       (size_t)sqlite3_column_bytes(st, 0), 0);
	fprintf(out, "%s\n", e ? e : "?");
	free(e);
	sqlite3_finalize(st);
}

int stats_print(sqlite3 *db, FILE *out, char **err)
{
	size_t i;

	(void)err;
	for (i = 0; i < sizeof facts / sizeof facts[0]; i++) {
		char label[32];

		snprintf(label, sizeof label, "%s:", facts[i].name);
		fprintf(out, "%-16s", label);
		print_fact(db, out, &facts[i]);
	}
	return 0;
}
