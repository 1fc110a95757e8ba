/* dgcache.c: see dgcache.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "dgcache.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdlib.h>

static int pow2(uint64_t v)
{
	return v && (v & (v - 1)) == 0;
}

/* One figure of the spec at *s, with a k or m suffix when allowed. */
static int figure(const char **s, int suffix, uint64_t *v)
{
	char *end;
	unsigned long long n;

	if (**s < '0' || **s > '9')
		return -1;
	errno = 0;
	n = strtoull(*s, &end, 10);
	if (errno || end == *s)
		return -1;
	if (suffix && (*end == 'k' || *end == 'K'))
		n = n > (UINT64_MAX >> 10) ? 0 : n << 10, end++;
	else if (suffix && (*end == 'm' || *end == 'M'))
		n = n > (UINT64_MAX >> 20) ? 0 : n << 20, end++;
	*s = end;
	*v = n;
	return 0;
}

int dgcache_parse(const char *name, const char *spec, struct dgcache_geom *g, char **err)
{
	const char *s = spec;
	uint64_t size, ways, line;

	if (figure(&s, 1, &size) < 0 || *s++ != ':' || figure(&s, 0, &ways) < 0 ||
	    *s++ != ':' || figure(&s, 0, &line) < 0 || *s) {
		*err = sqlite3_mprintf("%s=%s: expected SIZE:WAYS:LINE, as 32k:8:64", name, spec);
		return -1;
	}
	if (!pow2(size))
		*err = sqlite3_mprintf("%s=%s: the size, %llu bytes, is not a power of two", name,
				       spec, (unsigned long long)size);
	else if (ways == 0)
		*err = sqlite3_mprintf("%s=%s: zero ways", name, spec);
	else if (!pow2(ways) || ways > 1024)
		*err = sqlite3_mprintf("%s=%s: the ways, %llu, are not a power of two up to 1024",
				       name, spec, (unsigned long long)ways);
	else if (!pow2(line) || line < 4)
		*err = sqlite3_mprintf("%s=%s: the line, %llu bytes, is not a power of two of 4 "
				       "or more", name, spec, (unsigned long long)line);
	else if (line > size / ways)
		*err = sqlite3_mprintf("%s=%s: a line of %llu bytes in %llu ways is larger than "
				       "the cache", name, spec, (unsigned long long)line,
				       (unsigned long long)ways);
	else {
		*g = (struct dgcache_geom){ size, (unsigned)ways, (unsigned)line };
		return 0;
	}
	return -1;
}

int dgcache_init(struct dgcache *c, const struct dgcache_geom *g)
{
	uint64_t sets = g->size / g->ways / g->line;

	c->g = *g;
	c->line_bits = (unsigned)__builtin_ctzll(g->line);
	c->set_mask = sets - 1;
	c->tags = calloc(sets * g->ways, sizeof *c->tags);
	return c->tags ? 0 : -1;
}

void dgcache_free(struct dgcache *c)
{
	free(c->tags);
	c->tags = NULL;
}
