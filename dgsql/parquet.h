/* parquet.h: dgsql --export parquet, the hand-off to other engines.
 *
 * Promise: parquet_export writes the accesses of a trace database, with
 * what a question needs beside them resolved per row (function_id from
 * pcs, site_id: the block's allocation stack, field_id: the field the
 * accessing instruction's type gives, pc_types and fields), as Parquet
 * through DuckDB (duck.h), and where the path is a directory the trace's
 * other tables too, one file each, so that a query over the export
 * needs nothing else:
 *
 *   PATH ends in .parquet   that one file, the accesses alone;
 *   else PATH is a directory  PATH/accesses.parquet, or with partitions
 *                           PATH/accesses/thread=T/window=W/data_N.parquet
 *                           (Hive's layout: Spark, Trino, ClickHouse and
 *                           DuckDB read it in parallel), and
 *                           PATH/TABLE.parquet for each other table but
 *                           the chunk storage and its indexes.
 *
 * Parquet format 2 (delta and byte-stream encodings: the accesses of a
 * 10^9-access trace in 2-3 bytes a row, against 6-9 in format 1; every
 * engine above reads it).  window is icount / window_size.  Everything is written aside
 * (PATH.tmp-XXXXXX) and renamed into place only when complete; an
 * existing PATH is replaced then, never left half-written.  Files are
 * created mode 0600 (umask 077 while writing).
 *
 * Ownership: the caller owns the engine and the options; *err is the
 * caller's to sqlite3_free.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSQL_PARQUET_H
#define DGSQL_PARQUET_H

#include <stdint.h>
#include <sqlite3.h>

struct duck;

struct parquet_opts {
	const char *path;
	int by_thread, by_window;       /* partitions (a directory only) */
	int64_t window_size;            /* instructions a window [10^8] */
};

/* "thread", "window" or "thread,window" into o; 0, or -1 with *err. */
int parquet_partition(struct parquet_opts *o, const char *list, char **err);

/* Writes the export of the trace db is open on (its tables listed
   there); *rows gets the accesses written.  0, or -1 with *err. */
int parquet_export(struct duck *d, sqlite3 *db, const struct parquet_opts *o, int64_t *rows,
		   char **err);

#endif
