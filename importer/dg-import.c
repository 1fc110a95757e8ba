/* dg-import: turn a Datagrind log into one indexed, symbolized SQLite file.
 *
 * The log is read as a stream (lib/dglog), each record handed to the module
 * that owns its table (handler() maps a record type to it); the database is written
 * aside and renamed into place at the end (imp_db.c).  See imp.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <errno.h>
#include <getopt.h>
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
#include "dgsym.h"

#define DG_IMPORT_VERSION "0.1.0"

enum { EXIT_OK = 0, EXIT_ERROR = 1, EXIT_USAGE = 2, EXIT_INCOMPLETE = 3 };

static const char usage_text[] =
"usage: dg-import [options] LOG DATABASE\n"
"       dg-import --check LOG\n"
"\n"
"Read a Datagrind log (LOG, or - for standard input; a LOG ending in .gz,\n"
".zst or .xz is decompressed with gzip, zstd or xz) and write it as one\n"
"SQLite database: the runs and accesses, heap blocks, tracked ranges, user\n"
"events, threads and modules, every code address resolved to function, file,\n"
"line and inline chain with libdw, and summaries by function, heap block,\n"
"allocation site, page and cache line.  Logs of the 2010 Datagrind tool\n"
"(format version 1) are read too.  Query the result with dgsql or, after\n"
"`.load dgaccess`, with sqlite3.\n"
"\n"
"The database is written beside DATABASE under a temporary name and renamed\n"
"over it at the end, so an existing file is never left half-written.\n"
"\n"
"options:\n"
"  -f, --force      replace DATABASE if it exists (otherwise refuse)\n"
"      --strict     a truncated or incomplete log is an error: no database\n"
"      --check      validate LOG only; write nothing\n"
"  -q, --quiet      no summary at the end\n"
"      --progress   show progress on standard error even if it is not a\n"
"                   terminal; --no-progress never shows it\n"
"      --debug-dir DIRS  look for separate debug files in DIRS (colon-\n"
"                   separated) before /usr/lib/debug; see README, \"Where\n"
"                   symbols come from\" (DEBUGINFOD_URLS: download them)\n"
"  -h, --help       this text\n"
"      --version    print the version\n"
"\n"
"exit status:\n"
"  0  imported (or, with --check, valid) and complete\n"
"  1  error: the log is malformed or unreadable, or the database could not\n"
"     be written; the message names the file, the byte offset, the record\n"
"     number and type; no database was written\n"
"  2  usage error\n"
"  3  the log was truncated or lacks its final record: everything complete\n"
"     was imported and meta.complete is 0 (with --strict: status 1)\n";

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

/* ------------------------------------------------------------ 2010 logs */

/* The 2010 tool wrote a block's run when the next block started, but side
 * records (heap blocks, ranges, events) at once: so a side record stands
 * before the run that happened before it.  For version 1 logs the importer
 * holds side records back until the next run has been counted.  A held
 * record is a deep copy: the reader reuses its buffers. */
struct held {
	struct dglog_record rec;
	uint64_t *ips;
	char *s1, *s2;
};

static struct held *held;
static size_t n_held, cap_held;

static int is_side(int type)
{
	return type == DG_R_MALLOC_BLOCK || type == DG_R_FREE_BLOCK
	    || type == DG_R_TRACK_RANGE || type == DG_R_UNTRACK_RANGE
	    || type == DG_R_START_EVENT || type == DG_R_END_EVENT;
}

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

static int hold(struct importer *imp, const struct dglog_record *r)
{
	struct held *h;

	if (n_held == cap_held) {
		size_t n = cap_held ? 2 * cap_held : 16;
		struct held *p = realloc(held, n * sizeof *p);
		if (!p)
			return imp_fail(imp, "out of memory");
		held = p;
		cap_held = n;
	}
	h = &held[n_held++];
	memset(h, 0, sizeof *h);
	h->rec = *r;
	if (r->type == DG_R_MALLOC_BLOCK || r->type == DG_R_FREE_BLOCK) {
		h->ips = malloc((r->u.block.n_ips + 1) * sizeof *h->ips);
		if (!h->ips)
			return imp_fail(imp, "out of memory");
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

/* Hand the held records over, as happening at icount. */
static int release(struct importer *imp, uint64_t icount)
{
	size_t k;
	int rc = 0;

	for (k = 0; k < n_held; k++) {
		held[k].rec.icount = icount;
		if (rc == 0 && handler(held[k].rec.type)(imp, &held[k].rec) < 0)
			rc = -1;
		free(held[k].ips);
		free(held[k].s1);
		free(held[k].s2);
	}
	n_held = 0;
	return rc;
}

static int dispatch(struct importer *imp, const struct dglog_record *r)
{
	if (imp->log.version != DG_VERSION_2010)
		return handler(r->type)(imp, r);
	if (is_side(r->type))
		return hold(imp, r);
	if (handler(r->type)(imp, r) < 0)
		return -1;
	return r->type == DGLOG_RUN && n_held ? release(imp, imp->log.icount) : 0;
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
		fprintf(stderr, "\rdg-import: %5.1f%%  %llu MB of %llu MB  %.1f M accesses/s  ETA %.0f s   ",
		        100 * frac, (unsigned long long)(at >> 20),
		        (unsigned long long)(imp->log_bytes >> 20), rate / 1e6, eta);
	} else {
		fprintf(stderr, "\rdg-import: %llu MB  %.1f M accesses/s   ",
		        (unsigned long long)(at >> 20), rate / 1e6);
	}
	if (final)
		fputc('\n', stderr);
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
	if (n_held && release(imp, imp->log.icount) < 0)
		return -1;
	if (n < 0) {
		if (!imp->log.truncated)
			return imp_fail(imp, "%s", imp->log.err);
		*truncated = 1;
		snprintf(imp->incomplete_reason, sizeof imp->incomplete_reason, "%s", imp->log.err);
		return 0;
	}
	if (imp->log.version >= DG_VERSION && dglog_check_complete(&imp->log) < 0) {
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
	if (imp_run_finish(imp) < 0 || imp_heap_finish(imp) < 0 || imp_sym_finish(imp) < 0
	    || write_meta(imp, incomplete) < 0)
		return -1;
	return imp_db_finish(imp);
}

static void summary(const struct importer *imp, double secs, int incomplete)
{
	struct stat st;
	long long dbsize = stat(imp->db_path, &st) == 0 ? (long long)st.st_size : -1;

	fprintf(stderr,
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
		fprintf(stderr, "dg-import: %llu records of unknown types were skipped\n",
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
	int truncated, fd = -1;
	pid_t pid;

	if (log_open(imp, &pid, &fd) < 0)
		return -1;
	if ((!imp->check_only && (imp_db_open(imp) < 0 || imp_run_init(imp) < 0
	                          || imp_heap_init(imp) < 0 || imp_sym_init(imp) < 0))
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
			fprintf(stderr, "dg-import: %s\n", imp->incomplete_reason);
		return truncated ? EXIT_INCOMPLETE : EXIT_OK;
	}
	if (finish(imp, truncated) < 0)
		return -1;
	if (imp->sym_info && !imp->quiet)
		fputs(imp->sym_info, stderr);
	if (imp->sym_warn)
		fputs(imp->sym_warn, stderr);
	if (!imp->quiet)
		summary(imp, now() - t0, truncated);
	else if (truncated)
		fprintf(stderr, "dg-import: warning: %s\n", imp->incomplete_reason);
	return truncated ? EXIT_INCOMPLETE : EXIT_OK;
}

static void importer_free(struct importer *imp)
{
	imp_db_abort(imp);
	imp_run_free(imp);
	imp_heap_free_all(imp);
	imp_sym_free(imp);
	dglog_close(&imp->log);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "force", no_argument, NULL, 'f' },
		{ "strict", no_argument, NULL, 'S' },
		{ "check", no_argument, NULL, 'C' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "progress", no_argument, NULL, 'P' },
		{ "no-progress", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "debug-dir", required_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 }
	};
	struct importer imp;
	int c, force = 0, progress = -1, rc;

	memset(&imp, 0, sizeof imp);
	while ((c = getopt_long(argc, argv, "fqh", opts, NULL)) != -1) {
		switch (c) {
		case 'f': force = 1; break;
		case 'S': imp.strict = 1; break;
		case 'C': imp.check_only = 1; break;
		case 'q': imp.quiet = 1; break;
		case 'P': progress = 1; break;
		case 'N': progress = 0; break;
		case 'D': imp.debug_dirs = optarg; break;
		case 'h': fputs(usage_text, stdout); return EXIT_OK;
		case 'V': puts("dg-import " DG_IMPORT_VERSION); return EXIT_OK;
		default:
			fputs("dg-import: try 'dg-import --help'\n", stderr);
			return EXIT_USAGE;
		}
	}
	if (argc - optind != (imp.check_only ? 1 : 2)) {
		fprintf(stderr, "dg-import: %s\nusage: dg-import [options] LOG DATABASE\n"
		        "       dg-import --check LOG\n",
		        argc - optind < (imp.check_only ? 1 : 2) ? "missing arguments"
		        : "too many arguments");
		return EXIT_USAGE;
	}
	imp.log_path = argv[optind];
	imp.db_path = imp.check_only ? NULL : argv[optind + 1];
	imp.progress = progress >= 0 ? progress : isatty(2) && !imp.quiet;
	if (imp.db_path && !force && access(imp.db_path, F_OK) == 0) {
		fprintf(stderr, "dg-import: %s exists; use --force to replace it\n", imp.db_path);
		return EXIT_ERROR;
	}
	rc = import(&imp);
	if (rc < 0) {
		fprintf(stderr, "dg-import: %s\n", imp.err);
		rc = EXIT_ERROR;
	}
	importer_free(&imp);
	return rc;
}
