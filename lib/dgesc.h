/* dgesc.h: making text from a trace inert before it reaches a terminal or
 * a script interpreter.
 *
 * Promise: labels, paths and symbol names come from the traced program and
 * may hold any bytes.  dgesc_text is the one escaping every reader program
 * uses before such text reaches a terminal or a gnuplot script: printable
 * UTF-8 passes unchanged; every byte a terminal or an interpreter could act
 * on is written as the four characters \xHH: C0 controls (0x00-0x1f), DEL,
 * the two bytes of a C1 control (U+0080-U+009F, which some terminals obey
 * like ESC [), and every byte that is not part of valid UTF-8 (overlong
 * forms, surrogates and code points past U+10FFFF included).  A backslash
 * is written \\ so that the result reads back unambiguously.  Options add
 * characters to escape: DGESC_DQUOTE '"' as \" (dg-dump's quoted strings).
 * DGESC_KEEP_LAYOUT keeps line feeds and tabs, for multi-line text the
 * reader expects as such (.schema's CREATE statements).
 *
 * dgesc_as is the same escaping for the other places trace text goes,
 * one flavour each, every one built on dgesc_text's (controls and invalid
 * UTF-8 as \xHH, a backslash as \\) except JSON, which keeps the bytes:
 *   DGESC_HTML     & < > " ' as entities (text and attribute values)
 *   DGESC_MD       GitHub Markdown inside a line: ` * _ [ ] < > | ~ & ! $
 *                  backslash-escaped (no emphasis, code, link, tag, entity,
 *                  cell border or math); not for the start of a line
 *   DGESC_GNUPLOT  the inside of a gnuplot single-quoted string (' doubled;
 *                  gnuplot interprets nothing else there)
 *   DGESC_JSON     the inside of a JSON string: controls and U+2028/2029 as
 *                  \u00XX, bytes outside valid UTF-8 as \udcXX (PEP 383)
 *
 * dgesc_utf8_len is the UTF-8 decoder behind them.
 *
 * Ownership: dgesc_text's and dgesc_as's result is malloc'd and the caller's (free).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGESC_H
#define DGESC_H

#include <stddef.h>
#include <stdint.h>

enum {
	DGESC_DQUOTE = 1,       /* '"' as \" */
	DGESC_KEEP_LAYOUT = 2,  /* '\n' and '\t' unchanged */
};

/* The escaped copy of s[0..n), NUL-terminated, or NULL when out of
   memory.  At most 4 n + 1 bytes. */
char *dgesc_text(const char *s, size_t n, unsigned flags);

enum dgesc_flavour {
	DGESC_TEXT, DGESC_HTML, DGESC_MD, DGESC_GNUPLOT, DGESC_JSON,
	DGESC_NFLAVOURS
};

/* s[0..n) escaped for FL (see above), NUL-terminated, or NULL when out
   of memory. */
char *dgesc_as(enum dgesc_flavour fl, const char *s, size_t n);

/* The number of bytes dgesc_text would write for s[0..n) (without the
   NUL); equal to n exactly when s needs no escaping. */
size_t dgesc_len(const char *s, size_t n, unsigned flags);

/* Escapes s[0..n) into dst, which holds at least dgesc_len + 1 bytes;
   returns the length written (dst is NUL-terminated). */
size_t dgesc_into(char *dst, const char *s, size_t n, unsigned flags);

/* 1..4: the length of the valid UTF-8 sequence at s[0..n) and its code
   point in *cp; 0 when s[0] starts none. */
int dgesc_utf8_len(const unsigned char *s, size_t n, uint32_t *cp);

#endif
