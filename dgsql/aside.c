/* aside.c: output directories built aside.  See aside.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <dirent.h>
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aside.h"

void aside_remove(const char *path)
{
	struct stat sb;
	DIR *d;
	struct dirent *e;

	if (lstat(path, &sb) < 0)
		return;
	if (!S_ISDIR(sb.st_mode)) {
		unlink(path);
		return;
	}
	if ((d = opendir(path))) {
		while ((e = readdir(d))) {
			char *sub;
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			if ((sub = sqlite3_mprintf("%s/%s", path, e->d_name)))
				aside_remove(sub);
			sqlite3_free(sub);
		}
		closedir(d);
	}
	rmdir(path);
}

int aside_swap_in(const char *tmp, const char *dir, const char *what, char **err)
{
	char *old = NULL;
	struct stat sb;
	int rc;

	if (lstat(dir, &sb) == 0) {
		if (!S_ISDIR(sb.st_mode)) {
			*err = sqlite3_mprintf("%s %s: exists and is not a directory", what, dir);
			return -1;
		}
		old = sqlite3_mprintf("%s.old-%ld", dir, (long)getpid());
		if (!old || rename(dir, old) < 0) {
			*err = sqlite3_mprintf("%s %s: cannot replace it: %s", what, dir, strerror(errno));
			sqlite3_free(old);
			return -1;
		}
	}
	rc = rename(tmp, dir);
	if (rc < 0) {
		*err = sqlite3_mprintf("%s %s: %s", what, dir, strerror(errno));
		if (old)
			rename(old, dir);
	} else if (old)
		aside_remove(old);
	sqlite3_free(old);
	return rc;
}
