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
 * dgesc_json is the JSON flavour (dgsql's json mode, --compare's JSON):
 * it keeps valid characters and encodes the rest; dgesc_utf8_len is the
 * UTF-8 decoder behind both.
 *
 * Ownership: dgesc_text's result is malloc'd and the caller's (free).
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
	DGESC_MARKDOWN = 4,     /* ` * _ { } [ ] < > # | ~ & ! backslashed:
				   literal text in a GitHub Markdown table
				   cell (CommonMark backslash escapes) */
};

/* The escaped copy of s[0..n), NUL-terminated, or NULL when out of
   memory.  At most 4 n + 1 bytes. */
char *dgesc_text(const char *s, size_t n, unsigned flags);

/* The number of bytes dgesc_text would write for s[0..n) (without the
   NUL); equal to n exactly when s needs no escaping. */
size_t dgesc_len(const char *s, size_t n, unsigned flags);

/* Escapes s[0..n) into dst, which holds at least dgesc_len + 1 bytes;
   returns the length written (dst is NUL-terminated). */
size_t dgesc_into(char *dst, const char *s, size_t n, unsigned flags);

/* s[0..n) as a JSON string with its quotes, malloc'd (NULL when out of
   memory): valid UTF-8 kept, controls as \u00XX, bytes outside valid
   UTF-8 as \udcXX (Python's surrogateescape gives them back). */
char *dgesc_json(const char *s, size_t n);

/* 1..4: the length of the valid UTF-8 sequence at s[0..n) and its code
   point in *cp; 0 when s[0] starts none. */
int dgesc_utf8_len(const unsigned char *s, size_t n, uint32_t *cp);

#endif
