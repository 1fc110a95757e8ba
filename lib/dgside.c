/* dgside.c: a job on a side thread.  See dgside.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifdef DGVTAB_EXTENSION
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3
#else
#include <sqlite3.h>
#endif

#include <stddef.h>
#include "dgside.h"

int dgside_open(const char *path, sqlite3 **db, char **why)
{
	int rc = sqlite3_open_v2(path, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL);

	*why = NULL;
	if (rc != SQLITE_OK) {
		*why = sqlite3_mprintf("%s", *db ? sqlite3_errmsg(*db) : sqlite3_errstr(rc));
		sqlite3_close(*db);
		*db = NULL;
	}
	return rc;
}

static void *side_main(void *v)
{
	struct dgside *s = v;
	sqlite3 *db;
	char *why;

	s->rc = dgside_open(s->path, &db, &why);
	if (s->rc != SQLITE_OK)
		s->msg = sqlite3_mprintf("opening %s again: %s", s->path, why ? why : "out of memory");
	else
		s->rc = s->job(db, s->arg, &s->msg);
	sqlite3_free(why);
	sqlite3_close(db);
	return NULL;
}

int dgside_start(struct dgside *s, const char *path, dgside_job *job, void *arg)
{
	s->path = path;
	s->job = job;
	s->arg = arg;
	s->rc = 0;
	s->msg = NULL;
	return pthread_create(&s->t, NULL, side_main, s) == 0 ? 0 : -1;
}

int dgside_join(struct dgside *s, char **msg)
{
	pthread_join(s->t, NULL);
	*msg = s->msg;
	s->msg = NULL;
	return s->rc;
}
