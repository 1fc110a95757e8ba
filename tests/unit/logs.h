/* logs.h: sample logs the unit tests and the seed maker build with dgwrite.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef LOGS_H
#define LOGS_H

#include "dgwrite.h"

/* A log with every record type the version has (and two unknown records),
 * in the given version, byte order, word size and length form.  With fini 0
 * a version 2 log stops before FINI. */
int logs_full(struct dgwrite *w, int version, int endian, int word_size,
	      int long_lengths, int fini);

/* The text the reader gives for logs_full, one line per record, as
 * tests/unit/test_dglog.c prints them. */
extern const char *const logs_full_v1[];
extern const char *const logs_full_v2[];

#endif /* LOGS_H */
