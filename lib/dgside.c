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

static void *side_main(void *v)
{
	struct dgside *s = v;
	sqlite3 *db = NULL;

	s->rc = sqlite3_open_v2(s->path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL);
	if (s->rc != SQLITE_OK)
		s->msg = sqlite3_mprintf("opening %s again: %s", s->path,
					 db ? sqlite3_errmsg(db) : sqlite3_errstr(s->rc));
	else
		s->rc = s->job(db, s->arg);
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
