/* imp_db.h: the database being written (imp_db.c).
 *
 * Promise: the target is checked before anything is read; the database is
 * built in a temporary file beside it (0600, O_EXCL) and renamed over it
 * only by imp_db_finish, once complete and synced, so an existing database
 * is the old one or the new one, never half of each; imp_db_abort removes
 * the temporary file.  Statements are prepared once per slot (ST_*, imp.h)
 * and owned here.  Once the chunk writer runs, two threads share the
 * connection: every SQLite call is made between imp_db_lock and
 * imp_db_unlock.  Functions return 0 or -1 with the message in imp->err.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef IMP_DB_H
#define IMP_DB_H

#include "imp.h"

/* Before anything is read: the target may be written (not the log itself,
   not an existing file without force). */
int  imp_db_target_check(struct importer *imp);
int  imp_db_open(struct importer *imp);
int  imp_db_exec(struct importer *imp, const char *sql);
sqlite3_stmt *imp_db_stmt(struct importer *imp, int which, const char *sql);
int  imp_db_step(struct importer *imp, sqlite3_stmt *st);
int  imp_db_finish(struct importer *imp);
void imp_db_abort(struct importer *imp);
int  imp_db_meta(struct importer *imp, const char *key, const char *text, int64_t num);
void imp_db_lock(struct importer *imp);
void imp_db_unlock(struct importer *imp);

#endif
