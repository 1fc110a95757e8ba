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
#include <stdio.h>

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

#endif /* TU_H */
