/* dgdebugf.h: where a module's separate debug file comes from (the
 * find_debuginfo callback of the symbolizer's libdw sessions).
 *
 * Promise: dgdebugf_find looks, in this order, in the directories given to
 * dgdebugf_set_dirs (DIR/<name>.debug and DIR/<name>, name being the file's
 * base name or its .gnu_debuglink; each candidate must carry the module's
 * build-id), in the debuginfod client's cache (CACHE/<build-id>/debuginfo,
 * read without any server), then hands over to libdw's own
 * dwfl_standard_find_debuginfo: build-id and debuglink under the debuginfo
 * path (the given directories, then /usr/lib/debug), and last libdw's
 * debuginfod client when DEBUGINFOD_URLS is set.  Each module asks once:
 * libdw calls the hook again for the symbol table after the DWARF search
 * failed, and a second network round would only wait again.  With
 * dgdebugf_set_system(f, 0) the search is the given directories and the
 * servers alone.
 *
 * Bounded waits: a server that gives no answer (the search took at least
 * DEBUGINFOD_TIMEOUT, default 90 s, and found nothing) is recorded in the
 * module's problem and not asked again by this dgdebugf: later modules
 * search with DEBUGINFOD_URLS unset for the length of the libdw call (the
 * environment is libdw's only switch; not thread-safe, as dgsym is not).
 *
 * Ownership: struct dgdebugf owns the directory list and libdw's debuginfo
 * path string; each module's struct dgdebugf_req is its caller's, attached
 * to the libdw module (its userdata) for the life of the session.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGDEBUGF_H
#define DGDEBUGF_H

#include <elfutils/libdwfl.h>

/* How a module's debug file was found. */
enum dgdebugf_route {
	DGDF_NONE = 0,       /* not found (or not looked for) */
	DGDF_DIR,            /* in a directory of dgdebugf_set_dirs */
	DGDF_CACHE,          /* in the debuginfod cache, no server asked */
	DGDF_LOCAL,          /* by libdw: build-id or debuglink on disk */
	DGDF_DEBUGINFOD      /* downloaded by libdw's debuginfod client */
};

struct dgdebugf;

/* What one module's search did. */
struct dgdebugf_req {
	struct dgdebugf *f;
	int asked;                  /* the hook ran for this module */
	enum dgdebugf_route route;
	char file[512];             /* the debug file, "" if not known */
	char problem[256];          /* why nothing usable, "" if no problem */
};

/* A new configuration (no extra directories); NULL if out of memory. */
struct dgdebugf *dgdebugf_new(void);
void dgdebugf_free(struct dgdebugf *f);

/* Colon-separated directories (made absolute); 0, or -1 if out of memory. */
int dgdebugf_set_dirs(struct dgdebugf *f, const char *dirs);

/* on 0: the given directories alone: not the file's own directory,
   /usr/lib/debug or the debuginfod cache, so that what is found does not
   depend on the debug packages or the downloads of this machine.  With
   DEBUGINFOD_URLS set, libdw's client still asks the servers, and answers
   from its own cache what it has there.  on 1 (the default): those too.  0, or
   -1 if out of memory. */
int dgdebugf_set_system(struct dgdebugf *f, int on);

/* The debuginfo_path for Dwfl_Callbacks (NULL inside: libdw's default). */
char **dgdebugf_path(struct dgdebugf *f);

/* Attach req (req->f set by the caller) to a module just reported. */
void dgdebugf_attach(Dwfl_Module *mod, struct dgdebugf_req *req);

/* The Dwfl_Callbacks.find_debuginfo hook (see above). */
int dgdebugf_find(Dwfl_Module *mod, void **userdata, const char *modname,
		  Dwarf_Addr base, const char *file_name,
		  const char *debuglink_file, GElf_Word debuglink_crc,
		  char **debuginfo_file_name);

#endif /* DGDEBUGF_H */
