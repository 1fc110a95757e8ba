/* imp_db.c: the database being written.
 *
 * The database is built in a temporary file beside the target
 * (trace.db.tmp.PID), with journaling and syncing off — nobody else can see
 * it, and a crash leaves only the temporary file — then synced and renamed
 * over the target.  So an existing trace.db is either the old one or the
 * new one, never half of each.  Statements are prepared once per slot.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "imp.h"
#include "schema_sql.h"      /* generated from schema/schema.sql */

static sqlite3_stmt *stmts[ST_N];

/* The statement's first keyword, past blanks and -- comments. */
static const char *sql_start(const char *s)
{
	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
			s++;
		if (s[0] != '-' || s[1] != '-')
			return s;
		while (*s && *s != '\n')
			s++;
	}
}

/* The schema's CREATE INDEX statements, kept for the end of the import. */
static sqlite3_str *index_sql;

/* Run the schema, except its CREATE INDEX statements, which are kept: the
   indexes are built at the end, in one pass over each filled table, rather
   than kept up to date row by row during the import. */
static int schema_exec(struct importer *imp)
{
	const char *sql = dg_schema_sql, *tail;

	index_sql = sqlite3_str_new(imp->db);
	while (*sql) {
		sqlite3_stmt *st;
		if (sqlite3_prepare_v2(imp->db, sql, -1, &st, &tail) != SQLITE_OK)
			return imp_db_fail(imp, "schema");
		if (!st)            /* trailing comments and blanks */
			break;
		if (sqlite3_strnicmp(sql_start(sqlite3_sql(st)), "CREATE INDEX", 12) == 0)
			sqlite3_str_appendf(index_sql, "%s;\n", sql_start(sqlite3_sql(st)));
		else if (sqlite3_step(st) != SQLITE_DONE) {
			sqlite3_finalize(st);
			return imp_db_fail(imp, "schema");
		}
		sqlite3_finalize(st);
		sql = tail;
	}
	return 0;
}

static int indexes_create(struct importer *imp)
{
	char *sql = sqlite3_str_finish(index_sql);
	int rc;

	index_sql = NULL;
	if (!sql)
		return imp_fail(imp, "out of memory");
	rc = imp_db_exec(imp, sql);
	sqlite3_free(sql);
	return rc;
}

int imp_fail(struct importer *imp, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(imp->err, sizeof imp->err, fmt, ap);
	va_end(ap);
	return -1;
}

int imp_db_fail(struct importer *imp, const char *what)
{
	return imp_fail(imp, "%s: %s: %s", imp->db_path, what,
	                imp->db ? sqlite3_errmsg(imp->db) : "cannot open");
}

int imp_db_exec(struct importer *imp, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(imp->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		imp_fail(imp, "%s: %s", imp->db_path, msg ? msg : "sql error");
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

int imp_db_open(struct importer *imp)
{
	size_t n = strlen(imp->db_path) + 32;

	imp->tmp_path = malloc(n);
	if (!imp->tmp_path)
		return imp_fail(imp, "out of memory");
	snprintf(imp->tmp_path, n, "%s.tmp.%ld", imp->db_path, (long)getpid());
	unlink(imp->tmp_path);
	if (sqlite3_open_v2(imp->tmp_path, &imp->db,
	                    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
	                    NULL) != SQLITE_OK)
		return imp_fail(imp, "%s: cannot create: %s", imp->tmp_path,
		                imp->db ? sqlite3_errmsg(imp->db) : "out of memory");
	if (imp_db_exec(imp, "PRAGMA page_size = 16384; PRAGMA journal_mode = OFF;"
	                     "PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE;"
	                     "PRAGMA cache_size = -65536;") < 0
	    || imp_db_exec(imp, "BEGIN") < 0
	    || schema_exec(imp) < 0)
		return -1;
	return 0;
}

sqlite3_stmt *imp_db_stmt(struct importer *imp, int which, const char *sql)
{
	if (!stmts[which]) {
		if (sqlite3_prepare_v3(imp->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
		                       &stmts[which], NULL) != SQLITE_OK) {
			imp_db_fail(imp, "prepare");
			return NULL;
		}
	}
	return stmts[which];
}

int imp_db_step(struct importer *imp, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return imp_db_fail(imp, "insert");
	return 0;
}

int imp_db_meta(struct importer *imp, const char *key, const char *text, int64_t num)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(imp->db, "INSERT OR REPLACE INTO meta VALUES (?1, ?2)",
	                       -1, &st, NULL) != SQLITE_OK)
		return imp_db_fail(imp, "meta");
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	if (text)
		sqlite3_bind_text(st, 2, text, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_int64(st, 2, num);
	if (sqlite3_step(st) != SQLITE_DONE) {
		sqlite3_finalize(st);
		return imp_db_fail(imp, "meta");
	}
	sqlite3_finalize(st);
	return 0;
}

static void stmts_finalize(void)
{
	int i;

	for (i = 0; i < ST_N; i++) {
		sqlite3_finalize(stmts[i]);
		stmts[i] = NULL;
	}
}

static int sync_path(const char *path, int dir)
{
	int fd = open(path, dir ? O_RDONLY | O_DIRECTORY : O_RDONLY), rc;

	if (fd < 0)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *d;

	if (!slash)
		return strdup(".");
	d = strndup(path, slash == path ? 1 : (size_t)(slash - path));
	return d;
}

int imp_db_finish(struct importer *imp)
{
	char *dir;

	stmts_finalize();
	if (indexes_create(imp) < 0 || imp_db_exec(imp, "COMMIT") < 0
	    || imp_db_exec(imp, "ANALYZE") < 0)
		return -1;
	if (sqlite3_close(imp->db) != SQLITE_OK)
		return imp_db_fail(imp, "close");
	imp->db = NULL;
	if (sync_path(imp->tmp_path, 0) < 0)
		return imp_fail(imp, "%s: fsync: %s", imp->tmp_path, strerror(errno));
	if (rename(imp->tmp_path, imp->db_path) < 0)
		return imp_fail(imp, "%s: cannot rename %s over it: %s", imp->db_path,
		                imp->tmp_path, strerror(errno));
	dir = dir_of(imp->db_path);
	if (dir)
		sync_path(dir, 1);
	free(dir);
	free(imp->tmp_path);
	imp->tmp_path = NULL;
	return 0;
}

void imp_db_abort(struct importer *imp)
{
	sqlite3_free(index_sql ? sqlite3_str_finish(index_sql) : NULL);
	index_sql = NULL;
	stmts_finalize();
	if (imp->db)
		sqlite3_close(imp->db);
	imp->db = NULL;
	if (imp->tmp_path)
		unlink(imp->tmp_path);
	free(imp->tmp_path);
	imp->tmp_path = NULL;
}
