/* dg_imp.h: record straight into a database (--db): the importer process.
 *
 * With --db the log goes into a pipe that dg-import reads on another core
 * (`dg-import - DATABASE`), instead of into a file.  This module starts
 * that importer, hands back the pipe's write end, and at the end waits for
 * it and says how it went; the database is complete when the tool exits.
 *
 * Who owns what: the tool owns the pipe's write end (dg_out.c writes it,
 * through the log helper); a watcher process owns the importer.  The
 * watcher is cloned without an exit signal (like the log helper's starter,
 * dg_hand.c), so the program's wait() and SIGCHLD never see it; it forks
 * and execs dg-import, waits for it, reads and drops whatever is left in
 * the pipe if the importer ended early (so that the program never blocks
 * or fails on a full pipe: it runs to its end whatever the importer does),
 * then exits with the importer's exit status (128+N if signal N killed
 * it), which the tool collects with waitpid.  The watcher blocks every
 * signal; the importer gets its own process group, so a ^C
 * meant for the program does not reach it: it ends when its input ends.
 * A killed run closes the pipe early; dg-import then writes what it got,
 * marked incomplete (meta.complete = 0), by its usual atomic rename; a
 * killed importer leaves only its temporary file (see dg-import --help).
 *
 * A forked child starts an importer of its own (dg_imp_forget drops the
 * parent's first).  Before an exec the tool finishes its importer and
 * waits for it (dg_main.c), as at exit.
 */
#ifndef DG_IMP_H
#define DG_IMP_H

#include "pub_tool_basics.h"

/* The importer program: prog if given, else beside the tool's build
   (VG_(libdir)/../../bin/dg-import), else the installed one (PREFIX/bin),
   else the first in $PATH.  Returns
   the path it will run, or NULL if none is executable.  Called once at
   start-up, before any fork. */
const HChar *dg_imp_setup(const HChar *prog);
/* Start an importer into db; returns the pipe's write end, or -errno. */
Int  dg_imp_start(const HChar *db);
/* After the pipe's write end is closed (every copy): wait for the
   importer and say what went wrong, if anything.  Returns True if the
   database is complete. */
Bool dg_imp_finish(void);
/* In a forked child: the parent's importer is the parent's. */
void dg_imp_forget(void);

#endif
