/* dg-dump.h: what the files of dg-dump share: the output buffer and the
 * modes.  Each mode reads the whole log through dglog and prints to the
 * output buffer; it returns 0, or -1 when the log is bad (the message is
 * then in r->err, and what was decoded before has been printed).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DG_DUMP_H
#define DG_DUMP_H

#include <stdint.h>
#include "dglog.h"

/* Output: a large buffer written to stdout when full and by out_flush. */
void out_bytes(const char *s, size_t n);
void out_str(const char *s);
void out_char(char c);
void out_dec(uint64_t v);
void out_hex(uint64_t v);               /* 0x%lx */
int out_flush(void);                    /* -1 on a write error */

/* Direct formatting: out_reserve(n) gives room for n bytes, the fmt_*
 * functions write at p and return the end, out_commit(end) keeps them. */
char *out_reserve(size_t n);
void out_commit(char *p);
char *fmt_dec(char *p, uint64_t v);
char *fmt_hex(char *p, uint64_t v);     /* 0x%lx */

int dump_blocks(struct dglog *r);

#endif /* DG_DUMP_H */
