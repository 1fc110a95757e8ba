/* tu.h: the few helpers the C unit tests share.  A test binary prints one
 * line per check, "ok - what" or "not ok - what", and exits 1 if any check
 * failed.  Checks that run thousands of times (every truncation point) are
 * summed up into one line by the caller.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef TU_H
#define TU_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int tu_failed;

static void tu_check(int good, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), unused));
static void tu_check(int good, const char *fmt, ...)
{
	va_list ap;

	printf("%s - ", good ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!good)
		tu_failed = 1;
}

static void tu_note(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), unused));
static void tu_note(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* system() of a formatted command line; its status. */
static int tu_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2), unused));
static int tu_sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	return system(cmd);
}

/* Write text to dir/name; 0, or -1 if it could not be written. */
static int tu_put(const char *dir, const char *name, const char *text) __attribute__((unused));
static int tu_put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f) == 0 ? 0 : -1;
}

/* A fixed pseudo-random sequence (xorshift64), the same every run, so a
   failure can be replayed; tu_rng may be saved and restored. */
static uint64_t tu_rng = 88172645463325252ULL;

static uint64_t tu_rand(void) __attribute__((unused));
static uint64_t tu_rand(void)
{
	tu_rng ^= tu_rng << 13;
	tu_rng ^= tu_rng >> 7;
	tu_rng ^= tu_rng << 17;
	return tu_rng;
}

#endif /* TU_H */
