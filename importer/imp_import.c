/* imp_import.c: the import as a function, imp_import_file (imp.h); the
 * program dg-import (dg-import.c) is a thin shell over it, and so is the
 * fuzz target tests/fuzz/import_fuzz.c.
 *
 * The log is read as a stream (lib/dglog), each record handed to the module
 * that owns its table (handler() maps a record type to it); the database is
 * written aside and renamed into place at the end (imp_db.c).  Nothing here
 * prints: text for a person (the summary, warnings, progress) goes to the
 * caller's `say` callback.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "imp.h"
#include "imp_db.h"
#include "imp_heap.h"
#include "imp_run.h"
#include "imp_sym.h"
#include "imp_field.h"
#include "imp_pctype.h"
#include "dgsym.h"

#define DG_IMPORT_VERSION "0.1.0"

/* ------------------------------------------------------------ records */

typedef int (*rec_fn)(struct importer *, const struct dglog_record *);

static int on_header(struct importer *imp, const struct dglog_record *r)
{
	return imp_db_meta(imp, "format_version", NULL, r->u.header.version) < 0
	    || imp_db_meta(imp, "word_size", NULL, r->u.header.word_size) < 0
	    || imp_db_meta(imp, "endian", r->u.header.endian ? "big" : "little", 0) < 0 ? -1 : 0;
}

/* argv as a JSON array of strings */
static char *json_argv(const char *const *argv, uint32_t argc)
{
	size_t cap = 16, len = 0, i;
	char *s = malloc(cap);
	uint32_t k;

	if (!s)
		return NULL;
	s[len++] = '[';
	for (k = 0; k < argc; k++) {
		const char *a = argv[k];
		if (cap < len + 6 * strlen(a) + 8) {
			char *t;
			cap = 2 * (len + 6 * strlen(a) + 8);
			if (!(t = realloc(s, cap))) {
				free(s);
				return NULL;
			}
			s = t;
		}
		if (k)
			s[len++] = ',';
		s[len++] = '"';
		for (i = 0; a[i]; i++) {
			unsigned char c = (unsigned char)a[i];
			if (c == '"' || c == '\\')
				len += sprintf(s + len, "\\%c", c);
			else if (c < 0x20)
				len += sprintf(s + len, "\\u%04x", c);
			else
				s[len++] = (char)c;
		}
		s[len++] = '"';
	}
	s[len++] = ']';
	s[len] = 0;
	return s;
}

static int on_process(struct importer *imp, const struct dglog_record *r)
{
	const struct dglog_process *p = &r->u.process;
	char *argv = json_argv(p->argv, p->argc);
	int rc;

	if (!argv)
		return imp_fail(imp, "out of memory");
	rc = imp_db_meta(imp, "pid", NULL, p->pid) < 0 || imp_db_meta(imp, "ppid", NULL, p->ppid) < 0
	  || imp_db_meta(imp, "tool", p->tool, 0) < 0 || imp_db_meta(imp, "exe", p->exe, 0) < 0
	  || imp_db_meta(imp, "argv", argv, 0) < 0 ? -1 : 0;
	free(argv);
	return rc;
}

static int on_bbdef(struct importer *imp, const struct dglog_record *r)
{
	return imp_run_bbdef(imp, r->u.def.bbdef);
}

static int on_context(struct importer *imp, const struct dglog_record *r)
{
	return imp_run_context(imp, r->u.def.context);
}

static int on_run(struct importer *imp, const struct dglog_record *r)
{
	return imp_run(imp, &r->u.run);
}

static int on_trace_state(struct importer *imp, const struct dglog_record *r)
{
	sqlite3_stmt *st = imp_db_stmt(imp, ST_TRACE, "INSERT INTO trace_states VALUES (?1, ?2, ?3, ?4)");

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, (int64_t)r->icount);
	sqlite3_bind_int64(st, 2, r->thread);
	sqlite3_bind_int(st, 3, r->u.trace_state.on);
	sqlite3_bind_int(st, 4, r->u.trace_state.reason);
	return imp_db_step(imp, st);
}

static int on_unknown(struct importer *imp, const struct dglog_record *r)
{
	return 0;        /* counted by the reader (meta unknown_records) */
}

static int on_thread(struct importer *imp, const struct dglog_record *r)
{
	struct imp_thread *t = imp_thread(imp, r->u.thread.tid);

	if (!t)
		return imp->err[0] ? -1 : imp_fail(imp, "out of memory");
	t->known = 1;    /* a row even if none of its code was traced */
	return 0;
}

static int on_nothing(struct importer *imp, const struct dglog_record *r)
{
	return 0;    /* ICOUNT, FINI: the reader keeps their state */
}

static rec_fn handler(int type)
{
	switch (type) {
	case DG_R_HEADER:        return on_header;
	case DG_R_PROCESS:       return on_process;
	case DG_R_BBDEF:         return on_bbdef;
	case DG_R_CONTEXT:       return on_context;
	case DGLOG_RUN:          return on_run;
	case DG_R_MALLOC_BLOCK:  return imp_heap_malloc;
	case DG_R_FREE_BLOCK:    return imp_heap_free;
	case DG_R_TRACK_RANGE:
	case DG_R_UNTRACK_RANGE: return imp_heap_range;
	case DG_R_START_EVENT:
	case DG_R_END_EVENT:     return imp_heap_event;
	case DG_R_TEXT_AVMA:     return imp_sym_text_avma;
	case DG_R_MMAP:          return imp_sym_mmap;
	case DG_R_MUNMAP:        return imp_sym_munmap;
	case DG_R_TRACE_STATE:   return on_trace_state;
	case DG_R_THREAD:        return on_thread;
	case DGLOG_UNKNOWN:      return on_unknown;
	default:                 return on_nothing;
	}
}

/* A record to its handler.  Runs, the hot path, touch no SQLite; every
   other handler may, so it holds the database lock (the chunk writer thread
   shares the connection). */
static int call(struct importer *imp, const struct dglog_record *r)
{
	int rc;

	if (r->type == DGLOG_RUN)
		return on_run(imp, r);
	imp_db_lock(imp);
	rc = handler(r->type)(imp, r);
	imp_db_unlock(imp);
	return rc;
}

/* ------------------------------------------------------------ 2010 logs */

/* The 2010 tool wrote a block's run when the next block started, but side
 * records (heap blocks, ranges, events) at once: so a side record stands
 * before the run that happened before it.  For version 1 logs the importer
 * holds side records back until the next run has been counted.  A held
 * record is a deep copy: the reader reuses its buffers. */
struct imp_held {
	struct dglog_record rec;
	uint64_t *ips;
	char *s1, *s2;
};

static int is_side(int type)
{
	return type == DG_R_MALLOC_BLOCK || type == DG_R_FREE_BLOCK
	    || type == DG_R_TRACK_RANGE || type == DG_R_UNTRACK_RANGE
	    || type == DG_R_START_EVENT || type == DG_R_END_EVENT;
}

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

static int hold(struct importer *imp, const struct dglog_record *r)
{
	struct imp_held *h;

	if (imp->n_held == imp->cap_held) {
		size_t n = imp->cap_held ? 2 * imp->cap_held : 16;
		struct imp_held *p = realloc(imp->held, n * sizeof *p);
		if (!p)
			return imp_fail(imp, "out of memory");
		imp->held = p;
		imp->cap_held = n;
	}
	h = &imp->held[imp->n_held++];
	memset(h, 0, sizeof *h);
	h->rec = *r;
	if (r->type == DG_R_MALLOC_BLOCK || r->type == DG_R_FREE_BLOCK) {
		h->ips = malloc((r->u.block.n_ips + 1) * sizeof *h->ips);
		if (!h->ips)
			return imp_fail(imp, "out of memory");
		if (r->u.block.n_ips)       /* ips may be NULL then */
			memcpy(h->ips, r->u.block.ips, r->u.block.n_ips * sizeof *h->ips);
		h->rec.u.block.ips = h->ips;
	} else if (r->type == DG_R_TRACK_RANGE) {
		h->rec.u.range.type_name = h->s1 = dup_or_null(r->u.range.type_name);
		h->rec.u.range.label = h->s2 = dup_or_null(r->u.range.label);
	} else if (r->type == DG_R_START_EVENT || r->type == DG_R_END_EVENT) {
		h->rec.u.event.label = h->s1 = dup_or_null(r->u.event.label);
	}
	return 0;
}

/* Hand the held records over, as happening at icount; with rc < 0 (an
 * error already) only free them. */
static int release(struct importer *imp, uint64_t icount, int rc)
{
	struct imp_held *h;
	size_t k;

	for (k = 0; k < imp->n_held; k++) {
		h = &imp->held[k];
		h->rec.icount = icount;
		if (rc == 0 && call(imp, &h->rec) < 0)
			rc = -1;
		free(h->ips);
		free(h->s1);
		free(h->s2);
	}
	imp->n_held = 0;
	return rc;
}

static int dispatch(struct importer *imp, const struct dglog_record *r)
{
	if (imp->log.version != DG_VERSION_2010)
		return call(imp, r);
	if (is_side(r->type))
		return hold(imp, r);
	if (call(imp, r) < 0)
		return -1;
	return r->type == DGLOG_RUN && imp->n_held ? release(imp, imp->log.icount, 0) : 0;
}

/* ------------------------------------------------------------ progress */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void progress_show(struct importer *imp, double t0, int final)
{
	uint64_t at = imp->log.base + imp->log.pos;
	double dt = now() - t0, rate = dt > 0 ? imp->accesses / dt : 0;

	if (imp->log_bytes) {
		double frac = (double)at / imp->log_bytes;
		double eta = frac > 0.001 ? dt / frac - dt : 0;
		imp_say(imp, "\rdg-import: %5.1f%%  %llu MB of %llu MB  %.1f M accesses/s  ETA %.0f s   ",
		        100 * frac, (unsigned long long)(at >> 20),
		        (unsigned long long)(imp->log_bytes >> 20), rate / 1e6, eta);
	} else {
		imp_say(imp, "\rdg-import: %llu MB  %.1f M accesses/s   ",
		        (unsigned long long)(at >> 20), rate / 1e6);
	}
	if (final)
		imp_say(imp, "\n");
}

static int read_all(struct importer *imp, int *truncated)
{
	struct dglog_record rec;
	double t0 = now(), last = t0;
	unsigned tick = 0;
	int n;

	*truncated = 0;
	while ((n = dglog_next(&imp->log, &rec)) > 0) {
		if (imp->db && dispatch(imp, &rec) < 0)
			return -1;
		if (imp->progress && ++tick % 65536 == 0 && now() - last > 0.25) {
			last = now();
			progress_show(imp, t0, 0);
		}
	}
	if (imp->progress)
		progress_show(imp, t0, 1);
	if (imp->n_held && release(imp, imp->log.icount, 0) < 0)
		return -1;
	if (n < 0) {
		if (!imp->log.truncated)
			return imp_fail(imp, "%s", imp->log.err);
		*truncated = 1;
		snprintf(imp->incomplete_reason, sizeof imp->incomplete_reason, "%s", imp->log.err);
		return 0;
	}
	if (imp->log.version >= DG_VERSION && dglog_check_complete(&imp->log) < 0) {
		if (!imp->log.truncated)      /* a FINI that disagrees: corrupt */
			return imp_fail(imp, "%s", imp->log.err);
		*truncated = 1;
		snprintf(imp->incomplete_reason, sizeof imp->incomplete_reason, "%s", imp->log.err);
	}
	return 0;
}

static int write_meta(struct importer *imp, int incomplete)
{
	char when[64];
	time_t t = time(NULL);
	struct tm tm;

	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
	if (imp_db_meta(imp, "source", imp->log_path, 0) < 0
	    || imp_db_meta(imp, "source_bytes", NULL, (int64_t)(imp->log.base + imp->log.pos)) < 0
	    || imp_db_meta(imp, "importer", "dg-import " DG_IMPORT_VERSION, 0) < 0
	    || imp_db_meta(imp, "import_time", when, 0) < 0
	    || imp_db_meta(imp, "chunk_coding", dgchunk_coding_name(IMP_CHUNK_CODING), 0) < 0
	    || imp_db_meta(imp, "complete", NULL, !incomplete) < 0
	    || imp_db_meta(imp, "icount", NULL, (int64_t)(imp->log.saw_fini
	                   ? imp->log.fini.icount : imp->log.icount)) < 0
	    || imp_db_meta(imp, "runs", NULL, (int64_t)imp->runs) < 0
	    || imp_db_meta(imp, "accesses", NULL, (int64_t)imp->accesses) < 0
	    || imp_db_meta(imp, "unknown_records", NULL, (int64_t)imp->log.n_unknown) < 0)
		return -1;
	if (incomplete && imp_db_meta(imp, "incomplete_reason", imp->incomplete_reason, 0) < 0)
		return -1;
	return 0;
}

static int finish(struct importer *imp, int incomplete)
{
	if (imp_run_finish(imp) < 0 || imp_heap_finish(imp) < 0 || imp_pctype_finish(imp) < 0
	    || imp_sym_finish(imp) < 0 || imp_field_finish(imp) < 0
	    || write_meta(imp, incomplete) < 0)
		return -1;
	/* Everything is written but the indexes, whose sort is the import's
	   last peak of memory: the live blocks' state and the log's contexts
	   (a program with millions of call stacks keeps them all) go first. */
	imp_heap_release(imp);
	dglog_close(&imp->log);
	return imp_db_finish(imp);
}

static void summary(const struct importer *imp, double secs, int incomplete)
{
	struct stat st;
	long long dbsize = stat(imp->db_path, &st) == 0 ? (long long)st.st_size : -1;

	imp_say(imp,
	        "dg-import: %s -> %s: %llu accesses in %llu runs, %llu heap blocks, "
	        "%zu ranges, %zu events, %llu functions, %llu modules; %.2f s "
	        "(%.1f M accesses/s); %.2f bytes/access%s%s\n",
	        imp->log_path, imp->db_path, (unsigned long long)imp->accesses,
	        (unsigned long long)imp->runs, (unsigned long long)imp->n_blocks,
	        imp->n_ranges, imp->n_events, (unsigned long long)imp->n_functions,
	        (unsigned long long)dgsym_n_modules(imp->sym), secs,
	        secs > 0 ? imp->accesses / secs / 1e6 : 0,
	        imp->accesses ? (double)dbsize / imp->accesses : 0,
	        incomplete ? "; the log is INCOMPLETE: " : "",
	        incomplete ? imp->incomplete_reason : "");
	if (imp->log.n_unknown)
		imp_say(imp, "dg-import: %llu records of unknown types were skipped\n",
		        (unsigned long long)imp->log.n_unknown);
}

/* ------------------------------------------------------------ compressed logs */

/* A compressed log is read through its decompressor, run as a program
   (the Debian packages gzip, zstd, xz-utils): no library to link, and the
   decompressor runs on the other core.  Returns its pid, or 0 for a plain
   file; -1 on error. */
static const struct { const char *suffix, *prog, *package; } decompressors[] = {
	{ ".gz", "gzip", "gzip" },
	{ ".zst", "zstd", "zstd" },
	{ ".xz", "xz", "xz-utils" },
};

static pid_t decompressor_start(struct importer *imp, int *fd)
{
	size_t n = strlen(imp->log_path), i, k;
	int p[2], probe[2];
	pid_t pid;
	char c;

	for (i = 0; i < sizeof decompressors / sizeof *decompressors; i++) {
		k = strlen(decompressors[i].suffix);
		if (n > k && strcmp(imp->log_path + n - k, decompressors[i].suffix) == 0)
			break;
	}
	if (i == sizeof decompressors / sizeof *decompressors)
		return 0;
	if (access(imp->log_path, R_OK) < 0)
		return imp_fail(imp, "%s: %s", imp->log_path, strerror(errno));
	if (pipe(p) < 0)
		return imp_fail(imp, "pipe: %s", strerror(errno));
	if (pipe2(probe, O_CLOEXEC) < 0) {
		close(p[0]);
		close(p[1]);
		return imp_fail(imp, "pipe: %s", strerror(errno));
	}
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		close(probe[0]);
		close(probe[1]);
		return imp_fail(imp, "fork: %s", strerror(errno));
	}
	if (pid == 0) {
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		execlp(decompressors[i].prog, decompressors[i].prog, "-dc", "--", imp->log_path,
		       (char *)NULL);
		(void)!write(probe[1], "x", 1);   /* tell the parent exec failed */
		_exit(127);
	}
	close(p[1]);
	close(probe[1]);
	if (read(probe[0], &c, 1) == 1) {
		close(probe[0]);
		close(p[0]);
		waitpid(pid, NULL, 0);
		return imp_fail(imp, "%s: cannot run %s to decompress it; install the "
		                "Debian package %s", imp->log_path, decompressors[i].prog,
		                decompressors[i].package);
	}
	close(probe[0]);
	*fd = p[0];
	return pid;
}

/* After reading: a decompressor that failed means the log is damaged.  If
   the reading stopped early (an error), the decompressor is stopped. */
static void decompressor_finish(struct importer *imp, pid_t pid, int fd, int early,
                                int *truncated)
{
	int status;

	close(fd);
	if (early)
		kill(pid, SIGTERM);
	if (waitpid(pid, &status, 0) < 0 || early)
		return;
	if (WIFEXITED(status) && WEXITSTATUS(status) != 0 && !*truncated) {
		*truncated = 1;
		snprintf(imp->incomplete_reason, sizeof imp->incomplete_reason,
		         "%s: the decompressor failed (exit status %d): the file is damaged",
		         imp->log_path, WEXITSTATUS(status));
	}
}

static int log_open(struct importer *imp, pid_t *pid, int *fd)
{
	char err[DGLOG_ERRLEN];
	struct stat st;

	*pid = decompressor_start(imp, fd);
	if (*pid < 0)
		return -1;
	if (*pid > 0) {
		if (dglog_open_fd(&imp->log, *fd, imp->log_path, err, sizeof err) < 0) {
			int t = 0;
			decompressor_finish(imp, *pid, *fd, 0, &t);
			return imp_fail(imp, "%s", t ? imp->incomplete_reason : err);
		}
		return 0;
	}
	if (dglog_open(&imp->log, imp->log_path, err, sizeof err) < 0)
		return imp_fail(imp, "%s", err);
	if (strcmp(imp->log_path, "-") != 0 && stat(imp->log_path, &st) == 0 && S_ISREG(st.st_mode))
		imp->log_bytes = (uint64_t)st.st_size;
	return 0;
}

/* ------------------------------------------------------------ the import */

static int import(struct importer *imp)
{
	double t0 = now();
	int truncated = 0, fd = -1;
	pid_t pid;

	if (log_open(imp, &pid, &fd) < 0)
		return -1;
	if ((!imp->check_only && (imp_db_open(imp) < 0 || imp_run_init(imp) < 0
	                          || imp_heap_init(imp) < 0 || imp_sym_init(imp) < 0
	                          || (!imp->no_fields && (imp_field_init(imp) < 0
	                                                  || imp_pctype_init(imp) < 0))))
	    || read_all(imp, &truncated) < 0) {
		if (pid > 0)
			decompressor_finish(imp, pid, fd, 1, &truncated);
		return -1;
	}
	if (pid > 0)
		decompressor_finish(imp, pid, fd, 0, &truncated);
	if (truncated && imp->strict)
		return imp_fail(imp, "%s (--strict)", imp->incomplete_reason);
	if (imp->check_only) {
		if (truncated)
			imp_say(imp, "dg-import: %s\n", imp->incomplete_reason);
		return truncated ? IMP_INCOMPLETE : IMP_OK;
	}
	if (finish(imp, truncated) < 0)
		return -1;
	if (imp->sym_info && !imp->quiet && imp->say)
		imp->say(imp->sym_info, imp->say_arg);
	if (imp->sym_warn && imp->say)
		imp->say(imp->sym_warn, imp->say_arg);
	if (imp->fld_warn && imp->say)
		imp->say(imp->fld_warn, imp->say_arg);
	if (!imp->quiet)
		summary(imp, now() - t0, truncated);
	else if (truncated)
		imp_say(imp, "dg-import: warning: %s\n", imp->incomplete_reason);
	return truncated ? IMP_INCOMPLETE : IMP_OK;
}

/* The CPUs this process may run on (its affinity mask: taskset, a
   container's cpuset), at least 1. */
static int cpus_usable(void)
{
	cpu_set_t set;
	int n;

	if (sched_getaffinity(0, sizeof set, &set) == 0 && (n = CPU_COUNT(&set)) > 0)
		return n;
	n = (int)sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? n : 1;
}

static void importer_free(struct importer *imp)
{
	release(imp, 0, -1);
	free(imp->held);
	imp_run_free(imp);         /* first: it stops the chunk writer */
	imp_db_abort(imp);
	imp_heap_free_all(imp);
	imp_pctype_free(imp);      /* before imp_field's types it names through */
	imp_field_free(imp);       /* before the symbolizer: it holds libdw's */
	imp_sym_free(imp);
	dglog_close(&imp->log);
}

/* ------------------------------------------------------------ the entry */

int imp_import_file(const struct imp_options *o, char *err, size_t errlen)
{
	struct importer *imp = NULL;
	int rc;

	/* aligned: the database lock keeps a cache line of its own (imp.h) */
	if (posix_memalign((void **)&imp, 64, sizeof *imp) != 0) {
		snprintf(err, errlen, "out of memory");
		return IMP_ERROR;
	}
	memset(imp, 0, sizeof *imp);
	imp->log_path = o->log_path;
	imp->db_path = o->check_only ? NULL : o->db_path;
	imp->debug_dirs = o->debug_dirs;
	imp->no_system_debug = o->no_system_debug;
	imp->force = o->force;
	imp->strict = o->strict;
	imp->check_only = o->check_only;
	imp->no_fields = o->no_fields;
	imp->use_threads = o->threads > 0 ? o->threads : cpus_usable();
	imp->quiet = o->quiet;
	imp->progress = o->progress;
	imp->say = o->say;
	imp->say_arg = o->say_arg;
	pthread_mutex_init(&imp->db_lock, NULL);
	rc = (imp->db_path && imp_db_target_check(imp) < 0) ? -1 : import(imp);
	if (rc < 0) {
		snprintf(err, errlen, "%s", imp->err);
		rc = IMP_ERROR;
	}
	importer_free(imp);
	pthread_mutex_destroy(&imp->db_lock);
	free(imp);
	return rc;
}

const char *imp_version(void)
{
	return DG_IMPORT_VERSION;
}
