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

/* A control, or a byte outside valid UTF-8 (len 0): every byte of it
   visible as \xHH, none of it acted on. */
static int is_inert(int len, uint32_t cp, unsigned flags)
{
	int layout = (cp == '\n' || cp == '\t') && (flags & DGESC_KEEP_LAYOUT);

	return len == 0 || (cp < 0x20 && !layout) || cp == 0x7f ||
	       (cp >= 0x80 && cp <= 0x9f);
}

static void put_bytes(struct out *o, const unsigned char *s, int len)
{
	while (len-- > 0)
		put(o, (char)*s++);
}

static void put_str(struct out *o, const char *s)
{
	while (*s)
		put(o, *s++);
}

/* One character (len bytes at s, code point cp; len 0: a byte outside
   valid UTF-8) in each flavour. */
static void ch_text(struct out *o, const unsigned char *s, int len,
		    uint32_t cp, unsigned flags)
{
	int k;

	if (is_inert(len, cp, flags)) {
		for (k = 0; k < (len ? len : 1); k++)
			put_hex(o, s[k]);
		return;
	}
	if (cp == '\\' || (cp == '"' && (flags & DGESC_DQUOTE)))
		put(o, '\\');
	put_bytes(o, s, len);
}

/* HTML text and attribute values: the five characters that mean markup
   as entities. */
static void ch_html(struct out *o, const unsigned char *s, int len,
		    uint32_t cp, unsigned flags)
{
	static const char *const ent[128] = {
		['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;",
		['"'] = "&quot;", ['\''] = "&#39;",
	};

	if (len && cp < 128 && ent[cp])
		put_str(o, ent[cp]);
	else
		ch_text(o, s, len, cp, flags);
}

/* GitHub-flavoured Markdown (a table cell included): the ASCII
   punctuation that can start markup anywhere in a line (emphasis, code,
   links, images, tags, entities, cell borders, strike-through, math)
   backslash-escaped.  Our text never starts a line (headings, list items
   and quotes need that), so the rest stays readable as it is. */
static void ch_md(struct out *o, const unsigned char *s, int len,
		  uint32_t cp, unsigned flags)
{
	if (len == 1 && cp && strchr("`*_[]<>|~&!$", (int)cp))
		put(o, '\\');
	ch_text(o, s, len, cp, flags);
}

/* A gnuplot single-quoted string's inside: its quote doubled. */
static void ch_gnuplot(struct out *o, const unsigned char *s, int len,
		       uint32_t cp, unsigned flags)
{
	if (len && cp == '\'')
		put(o, '\'');
	ch_text(o, s, len, cp, flags);
}

/* JSON keeps the data, as valid JSON in valid UTF-8: controls (C0,
   DEL, C1) and U+2028/2029 as \u00XX; a byte that is not part of valid
   UTF-8 as the lone surrogate \udcXX (Python's surrogateescape, PEP 383:
   json.loads then .encode('utf-8', 'surrogateescape') gives the bytes
   back; strict parsers read U+FFFD). */
static void ch_json(struct out *o, const unsigned char *s, int len,
		    uint32_t cp, unsigned flags)
{
	char esc[8];

	(void)flags;
	if (len == 0)
		snprintf(esc, sizeof esc, "\\udc%02x", s[0]), put_str(o, esc);
	else if (cp == '"' || cp == '\\')
		put(o, '\\'), put(o, (char)cp);
	else if (cp == '\n')
		put_str(o, "\\n");
	else if (cp == '\t')
		put_str(o, "\\t");
	else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x2028 ||
		 cp == 0x2029)
		snprintf(esc, sizeof esc, "\\u%04x", (unsigned)cp),
			put_str(o, esc);
	else
		put_bytes(o, s, len);
}

typedef void ch_fn(struct out *, const unsigned char *, int, uint32_t,
		   unsigned);

static ch_fn *const flavours[DGESC_NFLAVOURS] = {
	[DGESC_TEXT] = ch_text, [DGESC_HTML] = ch_html, [DGESC_MD] = ch_md,
	[DGESC_GNUPLOT] = ch_gnuplot, [DGESC_JSON] = ch_json,
};

static void escape_as(struct out *o, enum dgesc_flavour fl, const char *str,
		      size_t n, unsigned flags)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	while (i < n) {
		uint32_t cp = 0;
		int len = dgesc_utf8_len(s + i, n - i, &cp);

		flavours[fl](o, s + i, len, cp, flags);
		i += len ? (size_t)len : 1;
	}
}

static void escape(struct out *o, const char *s, size_t n, unsigned flags)
{
	escape_as(o, DGESC_TEXT, s, n, flags);
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

char *dgesc_as(enum dgesc_flavour fl, const char *s, size_t n)
{
	struct out o = { NULL, 0 };
	char *d;

	escape_as(&o, fl, s, n, 0);
	d = malloc(o.n + 1);
	if (!d)
		return NULL;
	o.dst = d;
	o.n = 0;
	escape_as(&o, fl, s, n, 0);
	d[o.n] = 0;
	return d;
}
