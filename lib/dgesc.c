/* dgesc.c: escaping untrusted text (see dgesc.h).
 *
 * One pass decides, character by character, whether to copy or escape;
 * dgesc_len and dgesc_into share it through a writer that either counts
 * or stores, so the two can never disagree about the size.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "dgesc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int dgesc_utf8_len(const unsigned char *s, size_t n, uint32_t *cp)
{
	static const uint32_t min_of[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	uint32_t c = s[0];
	int len, i;

	if (c < 0x80)
		len = 1;
	else if (c >= 0xc2 && c <= 0xdf)
		len = 2, c &= 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, c &= 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, c &= 0x07;
	else
		return 0;       /* a continuation byte, or never valid */
	if ((size_t)len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min_of[len] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;       /* overlong, past Unicode, or a surrogate */
	*cp = c;
	return len;
}

/* Either counts (dst NULL) or stores. */
struct out {
	char *dst;
	size_t n;
};

static void put(struct out *o, char c)
{
	if (o->dst)
		o->dst[o->n] = c;
	o->n++;
}

static void put_hex(struct out *o, unsigned char b)
{
	static const char digits[] = "0123456789abcdef";

	put(o, '\\');
	put(o, 'x');
	put(o, digits[b >> 4]);
	put(o, digits[b & 15]);
}

static void escape(struct out *o, const char *str, size_t n, unsigned flags)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	while (i < n) {
		uint32_t cp;
		int len = dgesc_utf8_len(s + i, n - i, &cp);

		int layout = (cp == '\n' || cp == '\t')
			     && (flags & DGESC_KEEP_LAYOUT);

		if (len == 0 || (cp < 0x20 && !layout) || cp == 0x7f
		    || (cp >= 0x80 && cp <= 0x9f)) {
			/* a control, or a byte outside valid UTF-8: every
			   byte of it visible, none of it acted on */
			int k, m = len ? len : 1;
			for (k = 0; k < m; k++)
				put_hex(o, s[i + k]);
			i += (size_t)m;
			continue;
		}
		if (cp == '\\' || (cp == '"' && (flags & DGESC_DQUOTE)) ||
		    ((flags & DGESC_MARKDOWN) && cp && cp < 0x80 &&
		     strchr("`*_{}[]<>#|~&!", (int)cp)))
			put(o, '\\');
		while (len--)
			put(o, (char)s[i++]);
	}
}

size_t dgesc_len(const char *s, size_t n, unsigned flags)
{
	struct out o = { NULL, 0 };

	escape(&o, s, n, flags);
	return o.n;
}

size_t dgesc_into(char *dst, const char *s, size_t n, unsigned flags)
{
	struct out o = { dst, 0 };

	escape(&o, s, n, flags);
	dst[o.n] = 0;
	return o.n;
}

char *dgesc_text(const char *s, size_t n, unsigned flags)
{
	char *d = malloc(dgesc_len(s, n, flags) + 1);

	if (d)
		dgesc_into(d, s, n, flags);
	return d;
}

/* JSON keeps the data, as valid JSON in valid UTF-8: controls (C0, DEL,
   C1) and U+2028/2029 as \u00XX; a byte that is not part of valid UTF-8 as
   the lone surrogate \udcXX (Python's surrogateescape, PEP 383: json.loads
   then .encode('utf-8', 'surrogateescape') gives the bytes back; strict
   parsers read U+FFFD).  Counts (dst NULL) or stores, like escape. */
static void json(struct out *o, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	char esc[8];
	size_t i = 0, k;

	put(o, '"');
	while (i < n) {
		uint32_t cp;
		int len = dgesc_utf8_len(s + i, n - i, &cp);

		esc[0] = 0;
		if (len == 0)
			snprintf(esc, sizeof esc, "\\udc%02x", s[i]);
		else if (cp == '"' || cp == '\\')
			snprintf(esc, sizeof esc, "\\%c", (char)cp);
		else if (cp == '\n')
			snprintf(esc, sizeof esc, "\\n");
		else if (cp == '\t')
			snprintf(esc, sizeof esc, "\\t");
		else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
			 cp == 0x2028 || cp == 0x2029)
			snprintf(esc, sizeof esc, "\\u%04x", (unsigned)cp);
		for (k = 0; esc[k]; k++)
			put(o, esc[k]);
		if (!esc[0])
			for (k = 0; k < (size_t)len; k++)
				put(o, (char)s[i + k]);
		i += len ? (size_t)len : 1;
	}
	put(o, '"');
}

char *dgesc_json(const char *s, size_t n)
{
	struct out o = { NULL, 0 };
	char *d;

	json(&o, s, n);
	d = malloc(o.n + 1);
	if (!d)
		return NULL;
	o.dst = d;
	o.n = 0;
	json(&o, s, n);
	d[o.n] = 0;
	return d;
}
