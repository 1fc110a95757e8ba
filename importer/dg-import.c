/* dg-import: turn a Datagrind log into one indexed, symbolized SQLite file.
 *
 * The command line over imp_import_file (imp_import.c; see imp.h): options,
 * messages on standard error, exit status, and signals.  A SIGTERM, SIGINT
 * or SIGHUP removes the temporary database (imp_db_signal_cleanup) and
 * then kills the process with the same signal, so the status is 128+N.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "imp.h"

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
"      --no-fields  no struct-field attribution: no DWARF types are read and\n"
"                   types, fields, variables, pc_types, site_types,\n"
"                   site_fields and sum_field stay empty (meta fields_* are\n"
"                   absent); the import is faster on logs of many accesses\n"
"  -T, --threads N  use N threads in all (default: one per CPU dg-import may\n"
"                   run on, from its affinity mask): the thread reading the\n"
"                   log, and N-1 (at least 1, at most 3) that encode, write\n"
"                   and summarise the chunks; more threads than cores only\n"
"                   take turns on them\n"
"  -q, --quiet      no summary at the end\n"
"      --progress   show progress on standard error even if it is not a\n"
"                   terminal; --no-progress never shows it\n"
"      --debug-dir DIRS  look for separate debug files in DIRS (colon-\n"
"                   separated) before /usr/lib/debug; see README, \"Where\n"
"                   symbols come from\" (DEBUGINFOD_URLS: download them)\n"
"      --no-system-debug  separate debug files only from --debug-dir's\n"
"                   DIRS: not from /usr/lib/debug, beside the binary or\n"
"                   the debuginfod cache, so that the database does not\n"
"                   depend on the debug packages installed here (with\n"
"                   DEBUGINFOD_URLS set, libdw's client still asks the\n"
"                   servers, and answers from its cache what it has)\n"
"  -h, --help       this text\n"
"      --version    print the version\n"
"\n"
"exit status:\n"
"  0  imported (or, with --check, valid) and complete\n"
"  1  error: the log is malformed, corrupt or unreadable (a FINI record\n"
"     whose totals disagree with the log is corruption), DATABASE is the\n"
"     log itself, or the database could not be written; the message names\n"
"     the file, the byte offset, the record number and type; no database\n"
"     was written\n"
"  2  usage error\n"
"  3  the log was truncated or lacks its final record: everything complete\n"
"     was imported and meta.complete is 0 (with --strict: status 1)\n"
"  128+N  killed by signal N (TERM, INT, HUP remove the temporary file;\n"
"     after a KILL the next import into the same directory removes it)\n"
"\n"
"The database and its temporary file are created mode 0600.\n";


/* --threads N: a whole number from 1 to 1024. */
static int threads_arg(const char *arg, int *n)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 1 || v > 1024) {
		fprintf(stderr, "dg-import: --threads: '%s' is not a number of threads "
		        "from 1 to 1024\n", arg);
		return -1;
	}
	*n = (int)v;
	return 0;
}

static void say_stderr(const char *text, void *arg)
{
	(void)arg;
	fputs(text, stderr);
}

static void on_signal(int sig)
{
	imp_db_signal_cleanup();
	raise(sig);          /* the handler was reset: this kills us */
}

static void signals_catch(void)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof sigs / sizeof *sigs; i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	for (i = 0; i < sizeof sigs / sizeof *sigs; i++) {
		struct sigaction old;
		/* a signal ignored on entry stays ignored (nohup, a shell's
		   background job) */
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "force", no_argument, NULL, 'f' },
		{ "strict", no_argument, NULL, 'S' },
		{ "check", no_argument, NULL, 'C' },
		{ "no-fields", no_argument, NULL, 'F' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "progress", no_argument, NULL, 'P' },
		{ "no-progress", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "debug-dir", required_argument, NULL, 'D' },
		{ "no-system-debug", no_argument, NULL, 'Y' },
		{ "threads", required_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 }
	};
	struct imp_options o;
	char err[1024];
	int c, progress = -1, rc;

	/* Freed memory is kept, not handed back to the kernel: the chunk
	   writer's buffers come and go at every chunk, and each time their
	   pages were faulted in (and zeroed) again.  Setting the trim
	   threshold freezes glibc's mmap threshold at 128 KiB, under the
	   size of those buffers, so that one is raised as well: to 4 MiB,
	   above every per-chunk buffer, while the big tables (which grow by
	   doubling) still go back to the kernel when they move (32 MiB kept
	   20 MB more resident on a 147.6 M-access log).  */
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	mallopt(M_MMAP_THRESHOLD, 4 << 20);
	memset(&o, 0, sizeof o);
	while ((c = getopt_long(argc, argv, "fqhT:", opts, NULL)) != -1) {
		switch (c) {
		case 'f': o.force = 1; break;
		case 'S': o.strict = 1; break;
		case 'C': o.check_only = 1; break;
		case 'F': o.no_fields = 1; break;
		case 'q': o.quiet = 1; break;
		case 'P': progress = 1; break;
		case 'N': progress = 0; break;
		case 'D': o.debug_dirs = optarg; break;
		case 'Y': o.no_system_debug = 1; break;
		case 'T':
			if (threads_arg(optarg, &o.threads) < 0)
				return IMP_USAGE;
			break;
		case 'h': fputs(usage_text, stdout); return IMP_OK;
		case 'V': printf("dg-import %s\n", imp_version()); return IMP_OK;
		default:
			fputs("dg-import: try 'dg-import --help'\n", stderr);
			return IMP_USAGE;
		}
	}
	if (argc - optind != (o.check_only ? 1 : 2)) {
		fprintf(stderr, "dg-import: %s\nusage: dg-import [options] LOG DATABASE\n"
		        "       dg-import --check LOG\n",
		        argc - optind < (o.check_only ? 1 : 2) ? "missing arguments"
		        : "too many arguments");
		return IMP_USAGE;
	}
	o.log_path = argv[optind];
	o.db_path = o.check_only ? NULL : argv[optind + 1];
	o.progress = progress >= 0 ? progress : isatty(2) && !o.quiet;
	o.say = say_stderr;
	signals_catch();
	rc = imp_import_file(&o, err, sizeof err);
	if (rc == IMP_ERROR)
		fprintf(stderr, "dg-import: %s\n", err);
	return rc;
}
