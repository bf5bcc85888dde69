/* Names as scan shows them: a PTX's .file names, and the file names the
 * user gives, may hold any byte.  An escape sequence (ESC, OSC, a C1
 * CSI) would reach the terminal, and a byte that is not UTF-8 would make
 * jansson refuse the string (an empty JSON, or an access dropped).  So
 * every such byte is written as \xNN; the result is printable UTF-8 and
 * escaping it again changes nothing. */
#include <stdio.h>
#include <stdlib.h>
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

/* Wide enough for a statement, narrow enough that a minified line of
 * megabytes is not printed whole under every warning. */
enum { SHOW_WIDTH = 200 };

void scan_show_source(FILE *f, const char *p, size_t n, int col)
{
	/* the window: the whole line, or SHOW_WIDTH bytes around the column */
	size_t ws = 0, we = n;
	if (n > SHOW_WIDTH) {
		size_t c = col > 0 ? (size_t)col - 1 : 0;
		ws = c > SHOW_WIDTH / 2 ? c - SHOW_WIDTH / 2 : 0;
		we = ws + SHOW_WIDTH < n ? ws + SHOW_WIDTH : n;
		while (ws > 0 && ((unsigned char)p[ws] & 0xc0) == 0x80)
			ws--;   /* whole characters */
		while (we < n && ((unsigned char)p[we] & 0xc0) == 0x80)
			we++;
	}
	/* the caret's offset in what is printed, column by column */
	char *caret = xmalloc(4 * (we - ws) + 8);
	size_t nc = 0;
	fputs("    ", f);
	if (ws > 0) {
		fputs("...", f);
		memcpy(caret, "   ", 3);
		nc = 3;
	}
	size_t at = col > 0 ? (size_t)col - 1 : (size_t)-1;
	bool placed = false;    /* the caret's column reached */
	char buf[5];
	for (size_t i = ws; i < we;) {
		if (i == at)
			placed = true;
		unsigned char c = (unsigned char)p[i];
		int k;
		if (c == '\t') {
			fputc('\t', f);
			if (!placed)
				caret[nc++] = '\t';
			i++;
			continue;
		}
		/* a character of up to 4 bytes, copied so clean_char stops in it */
		unsigned char ch[5] = {0};
		for (size_t j = 0; j < 4 && i + j < we; j++)
			ch[j] = (unsigned char)p[i + j];
		k = c ? clean_char(ch) : 0;
		if (k) {
			fwrite(p + i, 1, (size_t)k, f);
			if (!placed)
				caret[nc++] = ' ';
			i += (size_t)k;
		} else {
			snprintf(buf, sizeof buf, "\\x%02x", c);
			fputs(buf, f);
			if (!placed) {
				memcpy(caret + nc, "    ", 4);
				nc += 4;
			}
			i++;
		}
	}
	if (we < n)
		fputs("...", f);
	fputc('\n', f);
	if (col > 0)
		fprintf(f, "    %.*s^\n", (int)nc, caret);
	else
		fputs("    \n", f);
	free(caret);
}
