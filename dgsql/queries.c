/* queries.c: see queries.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "queries.h"
#include "dgmem.h"

#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#ifndef DGSQL_QUERYDIR
#define DGSQL_QUERYDIR "/usr/local/share/datagrind/queries"
#endif

static int is_dir(const char *p)
{
	struct stat s;

	return stat(p, &s) == 0 && S_ISDIR(s.st_mode);
}

char *queries_find_dir(void)
{
	static const char *const rel[] = {
		"../../queries", "../share/datagrind/queries"
	};
	char exe[PATH_MAX], path[PATH_MAX + 64];
	const char *env = getenv("DGSQL_QUERIES");
	ssize_t n;
	size_t i;

	if (env && *env)
		return strdup(env);
	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		const char *bin;

		exe[n] = 0;
		bin = dirname(exe);
		for (i = 0; i < sizeof rel / sizeof rel[0]; i++) {
			snprintf(path, sizeof path, "%s/%s", bin, rel[i]);
			if (is_dir(path))
				return realpath(path, NULL);
		}
	}
	return is_dir(DGSQL_QUERYDIR) ? strdup(DGSQL_QUERYDIR) : NULL;
}

static int valid_name(const char *name)
{
	return *name && strspn(name, "abcdefghijklmnopqrstuvwxyz"
			       "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
		== strlen(name);
}

/* The first line of a file's leading comment, without "-- ". */
static void first_comment(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");

	buf[0] = 0;
	if (!f)
		return;
	if (fgets(buf, (int)n, f) && strncmp(buf, "--", 2) == 0) {
		size_t skip = 2 + strspn(buf + 2, " ");

		memmove(buf, buf + skip, strlen(buf + skip) + 1);
		buf[strcspn(buf, "\r\n")] = 0;
	} else
		buf[0] = 0;
	fclose(f);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int queries_list(const char *dir, FILE *out, char **err)
{
	DIR *d;
	struct dirent *e;
	char *names[512];
	int n = 0, i;

	if (!dir || !(d = opendir(dir))) {
		*err = sqlite3_mprintf("no queries directory (set "
				       "DGSQL_QUERIES)");
		return -1;
	}
	while ((e = readdir(d)) && n < 512) {
		size_t l = strlen(e->d_name);

		if (l > 4 && strcmp(e->d_name + l - 4, ".sql") == 0)
			names[n++] = strndup(e->d_name, l - 4);
	}
	closedir(d);
	dg_sort(names, n, sizeof names[0], cmp_str);
	for (i = 0; i < n; i++) {
		char path[PATH_MAX], what[256];

		snprintf(path, sizeof path, "%s/%s.sql", dir, names[i]);
		first_comment(path, what, sizeof what);
		fprintf(out, "%-20s %s\n", names[i], what);
		free(names[i]);
	}
	return 0;
}

char *queries_load(const char *dir, const char *name, char **err)
{
	char path[PATH_MAX];
	FILE *f;
	char *text = NULL;
	size_t len = 0;

	if (!valid_name(name)) {
		*err = sqlite3_mprintf("bad query name '%s'", name);
		return NULL;
	}
	if (!dir) {
		*err = sqlite3_mprintf("no queries directory (set "
				       "DGSQL_QUERIES)");
		return NULL;
	}
	snprintf(path, sizeof path, "%s/%s.sql", dir, name);
	f = fopen(path, "r");
	if (!f) {
		*err = sqlite3_mprintf("no query '%s' (.queries lists them)",
				       name);
		return NULL;
	}
	if (getdelim(&text, &len, 0, f) < 0) {
		free(text);
		text = NULL;
		*err = sqlite3_mprintf("cannot read '%s': %s", path,
				       strerror(errno));
	}
	fclose(f);
	return text;
}
