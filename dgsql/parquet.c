/* parquet.c: dgsql --export parquet.  See parquet.h.
 *
 * DuckDB does the work: its COPY ... TO (FORMAT parquet) over the engine's
 * views (duck.h), the accesses decoded in parallel by dg_accesses and
 * joined there with pcs, blocks and the per-pc field table made first.
 * Paths reach DuckDB's SQL only as quoted string literals ('%q'); table
 * names only when they are plain identifiers (the schema's), quoted too.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <errno.h>
#include <malloc.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aside.h"
#include "duck.h"
#include "parquet.h"

/* The chunk storage and its indexes: the export's accesses are them,
   decoded; nothing outside dgsql reads them.  And sum_fn_block_rest, whose
   rows the view sum_fn_block gives with the blocks'. */
static const char *const storage_tables[] = {
	"chunks", "chunk_regions", "chunk_cells", "context_chunks",
	"sum_block_chunks", "bbdefs", "instrs", "access_descs",
	"sum_fn_block_rest", NULL
};

int parquet_partition(struct parquet_opts *o, const char *list, char **err)
{
	const char *s = list;

	o->by_thread = o->by_window = 0;
	while (*s) {
		size_t n = strcspn(s, ",");
		if (n == 6 && strncmp(s, "thread", 6) == 0)
			o->by_thread = 1;
		else if (n == 6 && strncmp(s, "window", 6) == 0)
			o->by_window = 1;
		else {
			*err = sqlite3_mprintf("--partition: '%.*s' is not thread or window", (int)n, s);
			return -1;
		}
		s += n + (s[n] == ',');
	}
	if (!o->by_thread && !o->by_window) {
		*err = sqlite3_mprintf("--partition: expected thread, window or thread,window");
		return -1;
	}
	return 0;
}

static int is_file_path(const char *path)
{
	size_t n = strlen(path);

	return n > 8 && strcasecmp(path + n - 8, ".parquet") == 0;
}

static int plain_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

static int is_storage(const char *name)
{
	const char *const *t;

	for (t = storage_tables; *t; t++)
		if (strcmp(*t, name) == 0)
			return 1;
	return 0;
}

/* DuckDB's Parquet writer builds each column chunk in fresh vectors of a
   few hundred KB (the values' levels, the encoded pages), frees them and
   builds the next.  glibc's defaults hand such memory back to the kernel
   on each free (its threads' arenas with madvise) and fault it in again
   on the next use: 40 % of an export's time went to page faults (sys
   4.9 s of 12.6 s wall, sort's 106 M rows).  Kept here instead; the
   process ends with the export, or goes on with the shell, whose peak
   memory is not raised (150 MB either way). */
static void keep_freed_memory(void)
{
#ifdef M_TRIM_THRESHOLD
	mallopt(M_MMAP_THRESHOLD, 32 << 20);      /* glibc's largest */
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

/* The accesses, with function_id, site_id and field_id, to target. */
static int export_accesses(struct duck *d, const struct parquet_opts *o, const char *target,
			   int64_t *rows, char **err)
{
	char *sql, *win = o->by_window ? sqlite3_mprintf(", a.icount // %lld AS \"window\"", (long long)o->window_size)
				       : sqlite3_mprintf("");
	int rc;

	if (!win) {
		*err = sqlite3_mprintf("out of memory");
		return -1;
	}
	/* No dictionary pages (DICTIONARY_SIZE_LIMIT 1): on these integer
	   columns DuckDB's dictionary analysis cost 15 % of the export for
	   files 13 % smaller; Snappy, which every Parquet reader takes. */
	sql = sqlite3_mprintf(
		"COPY (SELECT a.icount, a.addr, a.size, a.is_write, a.pc, a.thread, a.context_id,"
		" a.block_id, a.module_id, a.function_id, a.site_id, a.field_id%s"
		" FROM dg_accesses() a)"
		" TO '%q' (FORMAT parquet, PARQUET_VERSION v2, COMPRESSION snappy,"
		" DICTIONARY_SIZE_LIMIT 1%s%s%s%s)",
		win, target,
		o->by_thread || o->by_window ? ", PARTITION_BY (" : "",
		o->by_thread ? "thread" : "",
		o->by_thread && o->by_window ? ", " : "",
		o->by_window ? "\"window\")" : o->by_thread ? ")" : "");
	sqlite3_free(win);
	if (!sql) {
		*err = sqlite3_mprintf("out of memory");
		return -1;
	}
	/* Rows in any order: DuckDB then writes row groups from every thread. */
	keep_freed_memory();
	rc = duck_exec(d, "SET preserve_insertion_order = false", NULL, err);
	if (rc == 0)
		rc = duck_exec(d, sql, rows, err);
	duck_exec(d, "RESET preserve_insertion_order", NULL, NULL);
	sqlite3_free(sql);
	return rc;
}

/* Every other table and view of main, one file each, into dir. */
static int export_tables(struct duck *d, sqlite3 *db, const char *dir, char **err)
{
	sqlite3_stmt *st = NULL;
	int rc = 0;

	if (sqlite3_prepare_v2(db, "SELECT name FROM main.sqlite_schema WHERE type IN ('table', 'view')"
			       " AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name", -1, &st, NULL) != SQLITE_OK) {
		*err = sqlite3_mprintf("listing the tables: %s", sqlite3_errmsg(db));
		return -1;
	}
	while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		char *sql;
		if (!name || !plain_name(name) || is_storage(name))
			continue;
		sql = sqlite3_mprintf("COPY (SELECT * FROM \"%w\") TO '%q/%q.parquet' (FORMAT parquet, PARQUET_VERSION v2)",
				      name, dir, name);
		rc = sql ? duck_exec(d, sql, NULL, err) : (*err = sqlite3_mprintf("out of memory"), -1);
		sqlite3_free(sql);
	}
	sqlite3_finalize(st);
	return rc;
}

int parquet_export(struct duck *d, sqlite3 *db, const struct parquet_opts *o, int64_t *rows, char **err)
{
	int file = is_file_path(o->path), rc = -1;
	char *tmp = sqlite3_mprintf("%s.tmp-XXXXXX", o->path), *target = NULL;
	mode_t old_mask;

	*rows = 0;
	if (file && (o->by_thread || o->by_window)) {
		sqlite3_free(tmp);
		*err = sqlite3_mprintf("--export parquet %s: partitions need a directory, not a .parquet file", o->path);
		return -1;
	}
	old_mask = umask(077);
	if (!tmp) {
		*err = sqlite3_mprintf("out of memory");
	} else if (!mkdtemp(tmp)) {
		*err = sqlite3_mprintf("--export parquet %s: cannot create a directory beside it: %s",
				       o->path, strerror(errno));
	} else if (!(target = sqlite3_mprintf(o->by_thread || o->by_window ? "%s/accesses" : "%s/accesses.parquet", tmp))) {
		*err = sqlite3_mprintf("out of memory");
	} else {
		rc = export_accesses(d, o, target, rows, err);
		if (rc == 0 && !file)
			rc = export_tables(d, db, tmp, err);
		if (rc == 0 && file && rename(target, o->path) < 0) {
			*err = sqlite3_mprintf("--export parquet %s: %s", o->path, strerror(errno));
			rc = -1;
		}
		if (rc == 0 && !file)
			rc = aside_swap_in(tmp, o->path, "--export parquet", err);
		if (rc < 0 || file)
			aside_remove(tmp);
	}
	umask(old_mask);
	sqlite3_free(target);
	sqlite3_free(tmp);
	return rc;
}
