/* dgdebugf.c: finding separate debug files (see dgdebugf.h).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "dgdebugf.h"

#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_DIRS 16

struct dgdebugf {
	char *dirs[MAX_DIRS];
	int ndirs;
	char *path;             /* libdw's debuginfo_path, or NULL */
	int no_system;          /* not beside the file, /usr/lib/debug, cache */
	int dead;               /* the debuginfod server gave no answer */
	char dead_urls[160];
};

struct dgdebugf *dgdebugf_new(void)
{
	return calloc(1, sizeof(struct dgdebugf));
}

void dgdebugf_free(struct dgdebugf *f)
{
	int i;

	if (!f)
		return;
	for (i = 0; i < f->ndirs; i++)
		free(f->dirs[i]);
	free(f->path);
	free(f);
}

char **dgdebugf_path(struct dgdebugf *f)
{
	return &f->path;
}

/* Add one directory (absolute: libdw ignores relative build-id roots). */
static int add_dir(struct dgdebugf *f, const char *d, size_t len)
{
	char rel[4096], *abs;

	if (len == 0 || len >= sizeof rel || f->ndirs == MAX_DIRS)
		return 0;
	memcpy(rel, d, len);
	rel[len] = '\0';
	abs = realpath(rel, NULL);
	if (!abs)
		abs = strdup(rel);      /* gone: it will find nothing */
	if (!abs)
		return -1;
	f->dirs[f->ndirs++] = abs;
	return 0;
}

/* libdw's path: ours before its default ("+:.debug:/usr/lib/debug"), or
   ours alone.  libdw takes an empty entry (the one after "+") as the
   file's own directory, where a debuglink names a file that is not
   checked by build-id; alone, the path starts with an absolute entry, a
   directory that cannot exist, so that libdw never looks there. */
static int make_path(struct dgdebugf *f)
{
	static const char sys_head[] = "+:.debug", sys_tail[] = ":/usr/lib/debug",
	                  own_head[] = "+/nonexistent/dg-no-system-debug";
	size_t len = sizeof sys_head + sizeof sys_tail + sizeof own_head;
	int i;

	for (i = 0; i < f->ndirs; i++)
		len += strlen(f->dirs[i]) + 1;
	free(f->path);
	f->path = malloc(len);
	if (!f->path)
		return -1;
	strcpy(f->path, f->no_system ? own_head : sys_head);
	for (i = 0; i < f->ndirs; i++)
		strcat(strcat(f->path, ":"), f->dirs[i]);
	if (!f->no_system)
		strcat(f->path, sys_tail);
	return 0;
}

int dgdebugf_set_dirs(struct dgdebugf *f, const char *dirs)
{
	const char *p = dirs, *colon;

	while (p && *p) {
		colon = strchr(p, ':');
		if (add_dir(f, p, colon ? (size_t)(colon - p) : strlen(p)) < 0)
			return -1;
		p = colon ? colon + 1 : NULL;
	}
	return make_path(f);
}

int dgdebugf_set_system(struct dgdebugf *f, int on)
{
	f->no_system = !on;
	return make_path(f);
}

void dgdebugf_attach(Dwfl_Module *mod, struct dgdebugf_req *req)
{
	void **ud = NULL;

	dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL);
	if (ud)
		*ud = req;
}

/* ------------------------------------------------------------ candidates */

/* Does the ELF file open on fd carry build-id id (len bytes)? */
static int has_id(int fd, const unsigned char *id, int len)
{
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	const void *bits;
	ssize_t n = e ? dwelf_elf_gnu_build_id(e, &bits) : -1;
	int same = n > 0 && n == len && memcmp(bits, id, (size_t)len) == 0;

	if (e)
		elf_end(e);
	return same;
}

/* fd of dir/name if it is a regular file other than the module's own file
 * (st) carrying the module's build-id; -1 otherwise. */
static int try_candidate(const char *dir, const char *name, const char *suffix,
			 const struct stat *st, const unsigned char *id, int len,
			 struct dgdebugf_req *req)
{
	struct stat cs;
	int fd;

	if (snprintf(req->file, sizeof req->file, "%s/%s%s", dir, name, suffix)
	    >= (int)sizeof req->file)
		return -1;
	fd = open(req->file, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -1;
	if (fstat(fd, &cs) == 0 && S_ISREG(cs.st_mode) &&
	    !(cs.st_dev == st->st_dev && cs.st_ino == st->st_ino) &&
	    has_id(fd, id, len))
		return fd;
	close(fd);
	return -1;
}

/* The named directories: by the file's name, then by its debuglink. */
static int in_dirs(struct dgdebugf_req *req, const char *file_name,
		   const char *debuglink, const unsigned char *id, int len)
{
	struct dgdebugf *f = req->f;
	static const char *const suffix[] = { ".debug", "" };
	const char *names[2];
	char copy[4096];
	struct stat st;
	int i, j, k, fd;

	memset(&st, 0, sizeof st);
	names[0] = NULL;
	if (file_name && snprintf(copy, sizeof copy, "%s", file_name)
	    < (int)sizeof copy) {
		names[0] = basename(copy);
		if (stat(file_name, &st) != 0)
			memset(&st, 0, sizeof st);
	}
	names[1] = debuglink;
	for (i = 0; i < f->ndirs; i++)
		for (j = 0; j < 2; j++)
			for (k = 0; k < 2 && names[j] && names[j][0]; k++) {
				fd = try_candidate(f->dirs[i], names[j],
						   suffix[k], &st, id, len, req);
				if (fd >= 0)
					return fd;
			}
	return -1;
}

/* The debuginfod client's cache directory, as the client chooses it. */
static int cache_dir(char *buf, size_t len)
{
	const char *p = getenv("DEBUGINFOD_CACHE_PATH"), *base;

	if (p && p[0])
		return snprintf(buf, len, "%s", p) < (int)len ? 0 : -1;
	base = getenv("XDG_CACHE_HOME");
	if (base && base[0])
		return snprintf(buf, len, "%s/debuginfod_client", base) < (int)len
		       ? 0 : -1;
	base = getenv("HOME");
	if (!base || !base[0])
		return -1;
	return snprintf(buf, len, "%s/.cache/debuginfod_client", base) < (int)len
	       ? 0 : -1;
}

/* CACHE/<hex id> in buf, the client's directory for that build-id; 0 or
 * -1 ("" in buf). */
static int cache_id_dir(char *buf, size_t size, const unsigned char *id, int len)
{
	size_t n;
	int i;

	buf[0] = '\0';
	if (len > 64 || cache_dir(buf, size) < 0 ||
	    (n = strlen(buf)) + 2 * (size_t)len + 2 >= size) {
		buf[0] = '\0';
		return -1;
	}
	buf[n++] = '/';
	for (i = 0; i < len; i++)
		snprintf(buf + n + 2 * i, 3, "%02x", id[i]);
	return 0;
}

/* Where the client stores the debug file of that build-id. */
static void cache_file(char *buf, size_t size, const unsigned char *id, int len)
{
	if (cache_id_dir(buf, size, id, len) == 0 &&
	    strlen(buf) + sizeof "/debuginfo" <= size)
		strcat(buf, "/debuginfo");
	else
		buf[0] = '\0';
}

/* CACHE/<hex id>/debuginfo, a download of an earlier run. */
static int in_cache(struct dgdebugf_req *req, const unsigned char *id, int len)
{
	char dir[4096];
	struct stat st = { 0 };

	if (cache_id_dir(dir, sizeof dir, id, len) < 0)
		return -1;
	return try_candidate(dir, "debuginfo", "", &st, id, len, req);
}

/* ------------------------------------------------------------ libdw */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The client's DEBUGINFOD_TIMEOUT (seconds without progress). */
static long timeout_s(void)
{
	const char *t = getenv("DEBUGINFOD_TIMEOUT");
	long v = t ? atol(t) : 90;

	return v > 0 ? v : 90;
}

/* libdw's own search, with DEBUGINFOD_URLS hidden once the server is
 * known not to answer.  Sets the route and, for a silent server, the
 * problem. */
static int standard(struct dgdebugf_req *req, Dwfl_Module *mod, void **ud,
		    const char *modname, Dwarf_Addr base, const char *file_name,
		    const char *debuglink, GElf_Word crc, char **out)
{
	const char *urls = getenv("DEBUGINFOD_URLS");
	char *saved = urls && urls[0] ? strdup(urls) : NULL;
	int dead = req->f->dead, fd;
	double t0 = now();

	if (saved && dead)
		unsetenv("DEBUGINFOD_URLS");
	fd = dwfl_standard_find_debuginfo(mod, ud, modname, base, file_name,
					  debuglink, crc, out);
	if (saved && dead)
		setenv("DEBUGINFOD_URLS", saved, 1);
	if (fd >= 0 && *out)
		req->route = DGDF_LOCAL;
	else if (fd >= 0)
		req->route = DGDF_DEBUGINFOD;
	else if (saved && dead)
		snprintf(req->problem, sizeof req->problem, "debuginfod at %s "
			 "not asked: it gave no answer for an earlier module",
			 req->f->dead_urls);
	else if (saved && now() - t0 >= timeout_s()) {
		req->f->dead = 1;
		snprintf(req->f->dead_urls, sizeof req->f->dead_urls, "%s", saved);
		snprintf(req->problem, sizeof req->problem, "debuginfod at %s: "
			 "no answer within %ld s (not asked again)",
			 req->f->dead_urls, timeout_s());
	} else if (saved) {
		snprintf(req->problem, sizeof req->problem, "debuginfod at %s "
			 "has no debug file for it", saved);
	}
	free(saved);
	return fd;
}

int dgdebugf_find(Dwfl_Module *mod, void **userdata, const char *modname,
		  Dwarf_Addr base, const char *file_name,
		  const char *debuglink_file, GElf_Word debuglink_crc,
		  char **debuginfo_file_name)
{
	struct dgdebugf_req *req = userdata ? *userdata : NULL;
	const unsigned char *id = NULL;
	GElf_Addr vaddr;
	int len, fd = -1;

	if (!req)       /* not one of ours: libdw's search alone */
		return dwfl_standard_find_debuginfo(mod, userdata, modname,
			base, file_name, debuglink_file, debuglink_crc,
			debuginfo_file_name);
	if (req->asked)
		return -1;
	req->asked = 1;
	len = dwfl_module_build_id(mod, &id, &vaddr);
	if (len > 0 && (fd = in_dirs(req, file_name, debuglink_file, id, len)) >= 0)
		req->route = DGDF_DIR;
	else if (len > 0 && !req->f->no_system && (fd = in_cache(req, id, len)) >= 0)
		req->route = DGDF_CACHE;
	if (fd >= 0) {
		free(*debuginfo_file_name);
		*debuginfo_file_name = strdup(req->file);
		return fd;
	}
	req->file[0] = '\0';
	fd = standard(req, mod, userdata, modname, base, file_name,
		      debuglink_file, debuglink_crc, debuginfo_file_name);
	if (fd >= 0 && *debuginfo_file_name)
		snprintf(req->file, sizeof req->file, "%s", *debuginfo_file_name);
	else if (fd >= 0 && len > 0)    /* the client's download: its cache */
		cache_file(req->file, sizeof req->file, id, len);
	return fd;
}
