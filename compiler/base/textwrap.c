/* Text output that fits a terminal: a line broken at its spaces. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bankc.h"

/* Where p (n bytes) may break: the last space at or before room that
 * follows a word (first: the first such space, wherever it is), outside
 * [...] where brackets count; 0 if there is none. */
static size_t find_break(const char *p, size_t n, size_t room, bool brackets,
                         bool first)
{
	size_t cut = 0;
	int depth = 0;
	bool word = false;
	for (size_t i = 0; i < n && (first || i <= room); i++) {
		if (brackets)
			depth += (p[i] == '[') - (p[i] == ']');
		if (p[i] != ' ') {
			word = true;
		} else if (word && depth <= 0) {
			cut = i;
			if (first)
				break;
		}
	}
	return cut;
}

void text_wrap(FILE *out, const char *text, int col, int width, int indent)
{
	const char *p = text;
	for (;;) {
		/* the longest run of words from p that ends by width; else the
		 * first word, whole; a [bracketed] group stays together unless
		 * its bracket is never closed */
		size_t n = strlen(p), room = width > col ? (size_t)(width - col) : 0;
		size_t cut = n;
		if (n > room) {
			int open = 0;
			for (size_t i = 0; i < n; i++)
				open += (p[i] == '[') - (p[i] == ']');
			bool br = open <= 0;
			cut = find_break(p, n, room, br, false);
			if (!cut)
				cut = find_break(p, n, room, br, true);
			if (!cut)
				cut = n;
		}
		size_t end = cut; /* no trailing spaces */
		while (end > 0 && p[end - 1] == ' ')
			end--;
		fwrite(p, 1, end, out);
		fputc('\n', out);
		p += cut;
		while (*p == ' ')
			p++;
		if (!*p)
			return;
		fprintf(out, "%*s", indent, "");
		col = indent;
	}
}

const char *text_plural(int64_t n)
{
	return n == 1 ? "" : "s";
}

void text_wrapf(FILE *out, int col, int width, int indent, const char *fmt,
                ...)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = xmemstream(&buf, &len);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(m, fmt, ap);
	va_end(ap);
	fclose(m);
	text_wrap(out, buf, col, width, indent);
	free(buf);
}

void text_put(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, n, fmt, ap);
	va_end(ap);
}
