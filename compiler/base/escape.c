/* Text from the user (a spec's path, a kernel's name) written into a
 * generated file, where it must not end the comment, string or line it
 * sits in, nor, read back (the manifest), be taken for something else.
 *
 * One rule for every text context bankc writes (C comments, '#' comments,
 * the manifest): printable ASCII stays as it is, but for the backslash
 * and the slash of a "*" "/" pair either way round; those and every other
 * byte (control bytes, DEL, anything past ASCII) are written \xNN, two
 * lower-case hex digits.
 * So the result has no line break, cannot close or open a C comment,
 * cannot continue a line with a trailing backslash, and decodes back to
 * the bytes it came from (esc_decode).
 *
 * JSON wants UTF-8: esc_utf8 keeps well-formed UTF-8 and writes each byte
 * of a malformed sequence as U+FFFD, as the Unicode standard recommends
 * for a decoder that replaces. */
#include <stdlib.h>
#include <string.h>

#include "bankc.h"

static bool plain(const char *s, const char *p)
{
	unsigned char c = (unsigned char)*p;
	if (c < 0x20 || c > 0x7e || c == '\\')
		return false;
	if (c == '/')
		return !(p > s && p[-1] == '*') && p[1] != '*';
	return true;
}

void esc_text(FILE *f, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	for (const char *p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (plain(s, p)) {
			fputc(c, f);
		} else {
			fputs("\\x", f);
			fputc(hex[c >> 4], f);
			fputc(hex[c & 15], f);
		}
	}
}

char *esc_text_dup(const char *s)
{
	char *buf;
	size_t len;
	FILE *f = xmemstream(&buf, &len);
	esc_text(f, s);
	fclose(f);
	return buf;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

char *esc_decode(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;
	for (const char *p = s; *p; p++) {
		if (p[0] != '\\') {
			*o++ = *p;
		} else if (p[1] == 'x' && hexval(p[2]) >= 0 && hexval(p[3]) >= 0 &&
		           16 * hexval(p[2]) + hexval(p[3]) != 0) {
			*o++ = (char)(16 * hexval(p[2]) + hexval(p[3]));
			p += 3;
		} else {
			free(out);
			return NULL;        /* not something esc_text writes */
		}
	}
	*o = 0;
	return out;
}

/* The length of the well-formed UTF-8 sequence at p, 0 if none. */
int esc_utf8_len(const unsigned char *p)
{
	unsigned c = p[0];
	int n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef
	        ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
	for (int i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	/* no overlong forms, surrogates, or code points past U+10FFFF */
	if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] > 0x9f) ||
	    (c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] > 0x8f))
		return 0;
	return n;
}

char *esc_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char *out = xmalloc(3 * strlen(s) + 1), *o = out;
	while (*p) {
		int n = esc_utf8_len(p);
		if (n) {
			memcpy(o, p, (size_t)n);
			o += n, p += n;
		} else {
			memcpy(o, "\xef\xbf\xbd", 3);       /* U+FFFD */
			o += 3, p++;
		}
	}
	*o = 0;
	return out;
}

/* ---- the terminal ---------------------------------------------------------- */

/* What bankc prints to a terminal (names, paths, source lines, PTX
 * tokens, messages) may hold any byte; an escape sequence (ESC, OSC, a
 * C1 CSI) would reach the terminal, and a byte that is not UTF-8 would
 * make a JSON string invalid.  So every such byte is written \xNN; the
 * result is printable UTF-8, and escaping it again changes nothing. */

/* The length of the valid UTF-8 character at s that is not a control
 * (C0, DEL, C1), or 0. */
int esc_term_len(const unsigned char *s)
{
	unsigned c = s[0];
	if (c >= 0x20 && c < 0x7f)
		return 1;
	if (c < 0xc2 || c > 0xf4)
		return 0;
	int n = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	unsigned lo = 0x80, hi = 0xbf;
	if (c == 0xc2)
		lo = 0xa0;              /* U+0080..U+009F: the C1 controls */
	else if (c == 0xe0)
		lo = 0xa0;              /* overlong */
	else if (c == 0xed)
		hi = 0x9f;              /* surrogates */
	else if (c == 0xf0)
		lo = 0x90;              /* overlong */
	else if (c == 0xf4)
		hi = 0x8f;              /* past U+10FFFF */
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (int i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

bool esc_term_clean(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		int k = esc_term_len(p);
		if (!k)
			return false;
		p += k;
	}
	return true;
}

char *esc_term(const char *s, char *buf, size_t n)
{
	size_t o = 0;
	if (!n)
		return buf;
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		int k = esc_term_len(p);
		if (k) {
			if (o + (size_t)k >= n)
				break;
			memcpy(buf + o, p, (size_t)k);
			o += (size_t)k;
			p += k;
		} else {
			if (o + 4 >= n)
				break;
			snprintf(buf + o, 5, "\\x%02x", *p);
			o += 4;
			p++;
		}
	}
	buf[o] = 0;
	return buf;
}


char *esc_term_dup(const char *s)
{
	size_t n = 4 * strlen(s) + 1;
	return esc_term(s, xmalloc(n), n);
}

const char *esc_shown(const char *s)
{
	/* a few at once: one message may name two paths */
	static char ring[4][4096];
	static int next;
	char *b = ring[next];
	next = (next + 1) % 4;
	return esc_term(s, b, sizeof ring[0]);
}
