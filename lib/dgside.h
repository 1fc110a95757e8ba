/* dgside.h: a job on a side thread, with a read-only connection of its own.
 *
 * Promise: dgside_start runs job(db, arg) on a new thread, db a read-only
 * connection of that thread's own on the database file at path (the same
 * file the caller has open), closed when the job returns; dgside_join
 * waits for it.  Two threads then read one trace at once, each through a
 * connection of its own: the caller's connection is never touched from
 * the side thread.  What a job shares with the caller is the caller's
 * affair (dgplot, dgvt_scan: each side writes results of its own, added
 * after the join).
 *
 * dgside_open is that read-only open, for any thread that reads a trace
 * beside another (dgvt_par's workers, dgsql's DuckDB tables too).
 *
 * Ownership: the caller owns path and arg until the join, and the struct
 * dgside; dgside_join hands over the message of a failed open or of the
 * job (sqlite3_free).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSIDE_H
#define DGSIDE_H

#include <pthread.h>

#ifdef DGVTAB_EXTENSION
#include <sqlite3ext.h>
#else
#include <sqlite3.h>
#endif

/* A job: an SQLite code, and on failure, where it can, *msg (NULL on
   entry; sqlite3_malloc'd) says why. */
typedef int dgside_job(sqlite3 *db, void *arg, char **msg);

struct dgside {
	pthread_t t;
	const char *path;
	dgside_job *job;
	void *arg;
	int rc;                 /* the job's return, or the open's code */
	char *msg;              /* why the open or the job failed, or NULL */
};

/* 0: started; -1: no thread (nothing to join; run the job's share here). */
int dgside_start(struct dgside *s, const char *path, dgside_job *job, void *arg);
/* The job's return, or an SQLite code when the file did not open; *msg
   says why (the open's message, or the job's; NULL if it gave none), the
   caller's to sqlite3_free. */
int dgside_join(struct dgside *s, char **msg);

/* A read-only connection on path for the calling thread (no mutex: one
   thread uses it).  SQLITE_OK, or a code with *db NULL and *why saying
   why (sqlite3_malloc'd; NULL when out of memory). */
int dgside_open(const char *path, sqlite3 **db, char **why);

#endif
