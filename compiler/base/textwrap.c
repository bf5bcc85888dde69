/* Text output that fits a terminal: a line broken at its spaces. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bankc.h"

void text_wrap(FILE *out, const char *text, int col, int width, int indent)
{
	const char *p = text;
	for (;;) {
		/* the longest run of words from p that ends by width */
		size_t n = strlen(p), room = width > col ? (size_t)(width - col) : 0;
		size_t cut = n;
		if (n > room) {
			/* a space inside [...] (a usage line's option) is no break */
			cut = 0;
			int depth = 0;
			for (size_t i = 0; i <= room && i < n; i++) {
				depth += (p[i] == '[') - (p[i] == ']');
				if (p[i] == ' ' && i && depth <= 0)
					cut = i;
			}
			if (!cut) /* one word longer than the room: whole */
				for (depth = 0, cut = 0; cut < n; cut++) {
					depth += (p[cut] == '[') - (p[cut] == ']');
					if (p[cut] == ' ' && cut && depth <= 0)
						break;
				}
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
