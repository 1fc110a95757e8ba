/* aside.h: output directories built aside and renamed into place, as
 * --report and --export build them.
 *
 * Promise: aside_swap_in renames the finished directory tmp to dir; an
 * existing dir (which must be a directory) is moved away first and
 * removed after, and put back if the rename fails, so dir is either the
 * old one or the new one, never half of either.  aside_remove removes a
 * tree (files and directories, never following a symbolic link).
 * Nothing here prints; messages name the option (what) and the path.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSQL_ASIDE_H
#define DGSQL_ASIDE_H

/* 0, or -1 with *err (sqlite3_free). */
int aside_swap_in(const char *tmp, const char *dir, const char *what, char **err);
void aside_remove(const char *path);

#endif
