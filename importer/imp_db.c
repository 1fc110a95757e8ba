/* imp_db.c: the database being written.
 *
 * The database is built in a temporary file beside the target
 * (trace.db.tmp.PID), with journaling and syncing off — nobody else can see
 * it, and a crash leaves only the temporary file — then synced and renamed
 * over the target.  So an existing trace.db is either the old one or the
 * new one, never half of each.  Statements are prepared once per slot.
 *
 * Files: the temporary file is made here with O_EXCL and mode 0600 before
 * SQLite opens it (so it, the renamed database and any journal SQLite makes
 * beside it are 0600 whatever the umask), and SQLite must not follow a
 * symlink there.  It is never unlinked unless this process made it.  Its
 * name is kept for imp_db_signal_cleanup, which a signal handler calls.
 * Temporary files of imports that died (SIGKILL, a crash) are recognised
 * by the PID in their name and removed by the next import into the same
 * directory, if they are ours (same owner); others are reported.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "imp_db.h"
#include "imp.h"
#include "dgsumfnblock.h"
#include "schema_sql.h"      /* generated from schema/schema.sql */

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

/* Run the schema, except its CREATE INDEX statements, which are kept: the
   indexes are built at the end, in one pass over each filled table, rather
   than kept up to date row by row during the import. */
static int schema_exec(struct importer *imp)
{
	const char *sql = dg_schema_sql, *tail;

	imp->index_sql = sqlite3_str_new(imp->db);
	while (*sql) {
		sqlite3_stmt *st;
		if (sqlite3_prepare_v2(imp->db, sql, -1, &st, &tail) != SQLITE_OK)
			return imp_db_fail(imp, "schema");
		if (!st)            /* trailing comments and blanks */
			break;
		if (sqlite3_strnicmp(sql_start(sqlite3_sql(st)), "CREATE INDEX", 12) == 0)
			sqlite3_str_appendf(imp->index_sql, "%s;\n", sql_start(sqlite3_sql(st)));
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
	char *sql = sqlite3_str_finish(imp->index_sql);
	int rc;

	imp->index_sql = NULL;
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

void imp_say(const struct importer *imp, const char *fmt, ...)
{
	char text[1536];
	va_list ap;

	if (!imp->say)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	imp->say(text, imp->say_arg);
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

/* ------------------------------------------------------------ files */

/* The temporary file and its SQLite companions, for the signal handler:
   filled in once the file exists (with the signals blocked, so that no
   handler sees half of it), and read by the handler up to sig_n only. */
static const char *const companions[] = { "", "-journal", "-wal", "-shm" };
#define N_COMPANIONS (sizeof companions / sizeof *companions)
static char sig_paths[N_COMPANIONS][PATH_MAX];
static volatile sig_atomic_t sig_n;
static pid_t sig_pid;

void imp_db_signal_cleanup(void)
{
	sig_atomic_t i, n = sig_n;

	if (getpid() != sig_pid)     /* a forked decompressor before its exec */
		return;
	for (i = 0; i < n; i++)
		unlink(sig_paths[i]);
}

static void sig_block(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, old);
}

/* Announce (or, with path NULL, withdraw) the temporary file. */
static void sig_register(const char *path)
{
	size_t i;

	sig_n = 0;
	if (!path || strlen(path) + 16 > PATH_MAX)
		return;
	for (i = 0; i < N_COMPANIONS; i++)
		snprintf(sig_paths[i], PATH_MAX, "%s%s", path, companions[i]);
	sig_pid = getpid();
	sig_n = N_COMPANIONS;
}

static void companions_unlink(const char *path)
{
	char p[PATH_MAX];
	size_t i;

	for (i = 1; i < N_COMPANIONS; i++)
		if (snprintf(p, sizeof p, "%s%s", path, companions[i]) < (int)sizeof p)
			unlink(p);
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

static const char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* If name is BASE.tmp.PID with an optional companion suffix, the PID. */
static long tmp_pid(const char *name, const char *base)
{
	size_t n = strlen(base), i;
	const char *p;
	char *end;
	long pid;

	if (strncmp(name, base, n) != 0 || strncmp(name + n, ".tmp.", 5) != 0)
		return -1;
	p = name + n + 5;
	if (*p < '1' || *p > '9')
		return -1;
	pid = strtol(p, &end, 10);
	for (i = 0; i < N_COMPANIONS; i++)
		if (strcmp(end, companions[i]) == 0)
			return pid > 0 && pid <= INT_MAX ? pid : -1;
	return -1;
}

/* One leftover temporary file: removed if its process is gone and it is a
   file of ours; reported if its process is gone and it is not. */
static void stale_one(struct importer *imp, int dfd, const char *dir,
                      const char *name, long pid)
{
	struct stat st;

	if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
		return;            /* its import may still run */
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return;
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
		imp_say(imp, "dg-import: warning: %s/%s was left by process %ld, which no "
		        "longer runs, but is not our file: not removed\n", dir, name, pid);
		return;
	}
	if (unlinkat(dfd, name, 0) == 0)
		imp_say(imp, "dg-import: removed %s/%s, left by import process %ld, "
		        "which no longer runs\n", dir, name, pid);
}

/* Reclaim the temporary files that dead imports left beside the target. */
static void stale_reclaim(struct importer *imp)
{
	char *dir = dir_of(imp->db_path);
	const char *base = base_of(imp->db_path);
	struct dirent *e;
	DIR *d;
	long pid;

	d = dir ? opendir(dir) : NULL;
	if (d) {
		while ((e = readdir(d)) != NULL)
			if ((pid = tmp_pid(e->d_name, base)) > 0)
				stale_one(imp, dirfd(d), dir, e->d_name, pid);
		closedir(d);
	}
	free(dir);
}

/* The temporary file: made here, 0600, failing if the name exists. */
static int tmp_create(struct importer *imp)
{
	size_t n = strlen(imp->db_path) + 32;
	sigset_t old;
	int fd, e;

	imp->tmp_path = malloc(n);
	if (!imp->tmp_path)
		return imp_fail(imp, "out of memory");
	snprintf(imp->tmp_path, n, "%s.tmp.%ld", imp->db_path, (long)getpid());
	sig_block(&old);
	fd = open(imp->tmp_path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	e = errno;
	if (fd >= 0)
		sig_register(imp->tmp_path);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		free(imp->tmp_path);       /* not ours: never unlinked */
		imp->tmp_path = NULL;
		return imp_fail(imp, "%s.tmp.%ld: cannot create the temporary database: %s",
		                imp->db_path, (long)getpid(), strerror(e));
	}
	if (fstat(fd, &imp->tmp_st) < 0)
		memset(&imp->tmp_st, 0, sizeof imp->tmp_st);
	close(fd);
	return 0;
}

/* SQLite opened the file we made (not one put in its place). */
static int tmp_is_ours(struct importer *imp)
{
	struct stat st;

	return lstat(imp->tmp_path, &st) == 0 && st.st_dev == imp->tmp_st.st_dev
	    && st.st_ino == imp->tmp_st.st_ino;
}

static int same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

int imp_db_target_check(struct importer *imp)
{
	struct stat db, log;
	int have_log;

	if (stat(imp->db_path, &db) < 0)
		return 0;                 /* no such file: nothing to protect */
	have_log = strcmp(imp->log_path, "-") == 0 ? fstat(0, &log) == 0
	           : stat(imp->log_path, &log) == 0;
	if (have_log && same_file(&db, &log))
		return imp_fail(imp, "%s: is the log %s itself (the same file); "
		                "refusing to replace it, with or without --force",
		                imp->db_path, imp->log_path);
	if (!imp->force)
		return imp_fail(imp, "%s exists; use --force to replace it", imp->db_path);
	return 0;
}

int imp_db_open(struct importer *imp)
{
	stale_reclaim(imp);
	if (tmp_create(imp) < 0)
		return -1;
	if (sqlite3_open_v2(imp->tmp_path, &imp->db,
	                    SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW,
	                    NULL) != SQLITE_OK)
		return imp_fail(imp, "%s: cannot open: %s", imp->tmp_path,
		                imp->db ? sqlite3_errmsg(imp->db) : "out of memory");
	if (!tmp_is_ours(imp))
		return imp_fail(imp, "%s: the temporary file was replaced while it was "
		                "being opened", imp->tmp_path);
	/* the schema creates the virtual table sum_fn_block */
	if (dgsumfnblock_register(imp->db, NULL) != SQLITE_OK)
		return imp_db_fail(imp, "registering sum_fn_block");
	/* 16 MB of page cache: the tables fill in key order (chunks by rowid)
	   and the indexes are sorted at the end, so a larger cache (64 MB
	   until 2026-11-28) bought no speed (cc1: 130.5 s either way) and
	   cost its size in resident memory, twice over in the index sorter
	   (sqlrows: 303 -> 204 MB) */
	if (imp_db_exec(imp, "PRAGMA page_size = 16384; PRAGMA journal_mode = OFF;"
	                     "PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE;"
	                     "PRAGMA cache_size = -16384;") < 0
	    || imp_db_exec(imp, "BEGIN") < 0
	    || schema_exec(imp) < 0)
		return -1;
	return 0;
}

sqlite3_stmt *imp_db_stmt(struct importer *imp, int which, const char *sql)
{
	if (!imp->stmts[which]) {
		if (sqlite3_prepare_v3(imp->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
		                       &imp->stmts[which], NULL) != SQLITE_OK) {
			imp_db_fail(imp, "prepare");
			return NULL;
		}
	}
	return imp->stmts[which];
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

static void stmts_finalize(struct importer *imp)
{
	int i;

	for (i = 0; i < ST_N; i++) {
		sqlite3_finalize(imp->stmts[i]);
		imp->stmts[i] = NULL;
	}
}

void imp_db_lock(struct importer *imp)
{
	pthread_mutex_lock(&imp->db_lock);
}

void imp_db_unlock(struct importer *imp)
{
	pthread_mutex_unlock(&imp->db_lock);
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

int imp_db_finish(struct importer *imp)
{
	char *dir;

	stmts_finalize(imp);
	if (indexes_create(imp) < 0 || imp_db_exec(imp, "COMMIT") < 0
	    /* statistics from a sample of each index: a full ANALYZE reads every
	       b-tree (2.3 s of a 36 s import at 1.5 G accesses) */
	    || imp_db_exec(imp, "PRAGMA analysis_limit = 20000; ANALYZE") < 0)
		return -1;
	if (sqlite3_close(imp->db) != SQLITE_OK)
		return imp_db_fail(imp, "close");
	imp->db = NULL;
	if (sync_path(imp->tmp_path, 0) < 0)
		return imp_fail(imp, "%s: fsync: %s", imp->tmp_path, strerror(errno));
	if (!tmp_is_ours(imp))
		return imp_fail(imp, "%s: the temporary file was replaced during the import",
		                imp->tmp_path);
	if (rename(imp->tmp_path, imp->db_path) < 0)
		return imp_fail(imp, "%s: cannot rename %s over it: %s", imp->db_path,
		                imp->tmp_path, strerror(errno));
	sig_register(NULL);
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
	sqlite3_free(imp->index_sql ? sqlite3_str_finish(imp->index_sql) : NULL);
	imp->index_sql = NULL;
	stmts_finalize(imp);
	if (imp->db)
		sqlite3_close(imp->db);
	imp->db = NULL;
	if (imp->tmp_path) {         /* set only once we made the file */
		if (tmp_is_ours(imp))
			unlink(imp->tmp_path);
		companions_unlink(imp->tmp_path);
		sig_register(NULL);
	}
	free(imp->tmp_path);
	imp->tmp_path = NULL;
}
