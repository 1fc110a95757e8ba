/* dg_imp.c: record straight into a database.  See dg_imp.h. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_libcsignal.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "dg_imp.h"
#include "dg_proc.h"

#ifndef DG_IMPORTER
#define DG_IMPORTER "/usr/local/bin/dg-import"
#endif
#define EXIT_INCOMPLETE  3      /* dg-import: the log ended early */
#define EXIT_NOT_RUN     127

static const HChar *prog;        /* the importer program */
static Int   watcher = -1;       /* its exit status is the importer's */
static HChar *db_path;

/* ------------------------------------------------------------ which program */

static Bool executable(const HChar *path)
{
	struct vg_stat st;

	return !sr_isError(VG_(stat)(path, &st)) && VKI_S_ISREG(st.mode)
	    && (st.mode & 0111);
}

/* VG_(libdir) is build/lib/valgrind in the build tree, where dg-import is
   build/bin/dg-import. */
static HChar *beside_tool(void)
{
	HChar *p = VG_(malloc)("dg.imp.prog", VG_(strlen)(VG_(libdir)) + 32);

	VG_(sprintf)(p, "%s/../../bin/dg-import", VG_(libdir));
	return p;
}

/* The first dg-import in $PATH (an install under another prefix than
   the build's), or NULL. */
static HChar *in_path(void)
{
	const HChar *dirs = VG_(getenv)("PATH"), *end;
	HChar *p;
	SizeT n;

	for (; dirs && *dirs; dirs = *end ? end + 1 : end) {
		end = VG_(strchr)(dirs, ':');
		if (!end)
			end = dirs + VG_(strlen)(dirs);
		n = end - dirs;
		if (n == 0)
			continue;
		p = VG_(malloc)("dg.imp.prog", n + 16);
		VG_(memcpy)(p, dirs, n);
		VG_(strcpy)(p + n, "/dg-import");
		if (executable(p))
			return p;
		VG_(free)(p);
	}
	return NULL;
}

const HChar *dg_imp_setup(const HChar *given)
{
	HChar *b;

	if (given)
		prog = executable(given) ? given : NULL;
	else if (executable(b = beside_tool()))
		prog = b;
	else if (executable(DG_IMPORTER))
		prog = DG_IMPORTER;
	else
		prog = in_path();
	return prog;
}

/* ------------------------------------------------------------ the importer */

/* In the importer: its input is the pipe, its messages go to the
   program's stderr, nothing else stays open.  (Valgrind keeps only a few
   fds for itself above the program's limit: none is spent on a copy of
   stderr or on a status pipe; the watcher's exit status says it all.) */
static void importer_exec(Int data_r, const HChar *db)
{
	const HChar *argv[] = { prog, "--quiet", "--no-progress", "--force",
	                        "-", db, NULL };
	vki_sigset_t none;
	SysRes r;

	VG_(dup2)(data_r, 0);
	r = VG_(open)("/dev/null", VKI_O_WRONLY, 0);
	if (!sr_isError(r))
		VG_(dup2)(sr_Res(r), 1);
	dg_proc_close_range(3, ~0U >> 1);
	DG_SYS2(__NR_setpgid, 0, 0);     /* a ^C for the program is not ours */
	VG_(memset)(&none, 0, sizeof none);
	VG_(sigprocmask)(VKI_SIG_SETMASK, &none, NULL);
	VG_(execv)(prog, argv);
	VG_(exit)(EXIT_NOT_RUN);         /* (VG_(execv) said why) */
}

/* Whatever the importer left in the pipe: the writers must not block. */
static void drain(Int fd)
{
	static UChar buf[1 << 16];

	while (VG_(read)(fd, buf, sizeof buf) > 0)
		;
}

/* Exits with the importer's status, 128+N if signal N killed it. */
static void watcher_main(Int data_r, const HChar *db)
{
	vki_sigset_t all;
	Int pid, st = EXIT_NOT_RUN << 8;

	VG_(memset)(&all, 0xFF, sizeof all);
	VG_(sigprocmask)(VKI_SIG_SETMASK, &all, NULL);
	pid = VG_(fork)();
	if (pid == 0)
		importer_exec(data_r, db);
	dg_proc_quiet();
	if (pid > 0)
		while (VG_(waitpid)(pid, &st, 0) == -VKI_EINTR)
			;
	drain(data_r);
	VG_(exit)(st & 0x7F ? 128 + (st & 0x7F) : (st >> 8) & 0xFF);
}

Int dg_imp_start(const HChar *db)
{
	Int data[2], pid;

	tl_assert(prog && watcher < 0);
	if (!dg_proc_pipe(data))
		return -VKI_EMFILE;
	pid = dg_proc_clone();
	if (pid == 0) {
		VG_(close)(data[1]);     /* else the importer never sees the end */
		watcher_main(data[0], db);
	}
	VG_(close)(data[0]);
	if (pid < 0) {
		VG_(close)(data[1]);
		return -VKI_EAGAIN;
	}
	watcher = pid;
	db_path = VG_(strdup)("dg.imp.db", db);
	return data[1];
}

/* ------------------------------------------------------------ the end */

static Bool report(Int code)
{
	if (code > 128 && code != EXIT_NOT_RUN)
		VG_(umsg)("datagrind: the importer of '%s' was killed by signal "
		          "%d: no database was written\n", db_path, code - 128);
	else if (code == EXIT_INCOMPLETE)
		VG_(umsg)("datagrind: the database '%s' is incomplete: its log "
		          "ended early (meta.complete is 0)\n", db_path);
	else if (code == EXIT_NOT_RUN)
		VG_(umsg)("datagrind: the importer '%s' could not be run: no "
		          "database '%s' was written\n", prog, db_path);
	else if (code)
		VG_(umsg)("datagrind: the import into '%s' failed (dg-import exit "
		          "status %d; its message is above): no database was "
		          "written; the program ran to its end\n", db_path, code);
	return code == 0;
}

Bool dg_imp_finish(void)
{
	Int w = 0, r;
	Bool ok;

	if (watcher < 0)
		return True;
	while ((r = VG_(waitpid)(watcher, &w, DG_WCLONE)) == -VKI_EINTR)
		;
	if (r != watcher || (w & 0x7F)) {
		VG_(umsg)("datagrind: the importer's watcher for '%s' was lost: "
		          "the database may be missing\n", db_path);
		ok = False;
	} else
		ok = report((w >> 8) & 0xFF);
	dg_imp_forget();
	return ok;
}

void dg_imp_forget(void)
{
	watcher = -1;
}
