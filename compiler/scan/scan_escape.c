/* Names as scan shows them: a PTX's .file names, and the file names the
 * user gives, may hold any byte.  An escape sequence (ESC, OSC, a C1
 * CSI) would reach the terminal, and a byte that is not UTF-8 would make
 * jansson refuse the string (an empty JSON, or an access dropped).  So
 * every such byte is written as \xNN; the result is printable UTF-8 and
 * escaping it again changes nothing. */
#include <stdio.h>
#include <string.h>

#include "scan/scan_source.h"

/* The length of the valid UTF-8 character at s that is not a control
 * (C0, DEL, C1), or 0. */
static int clean_char(const unsigned char *s)
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

bool scan_escape_clean(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		int k = clean_char(p);
		if (!k)
			return false;
		p += k;
	}
	return true;
}

char *scan_escape(const char *s, char *buf, size_t n)
{
	size_t o = 0;
	if (!n)
		return buf;
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		int k = clean_char(p);
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
