/* Reading an input file whole, as the lexers want it: the bytes and a NUL
 * after them.  Specs and PTX are read the same way, each with its own
 * limit, so a huge or endless input (a FIFO, /dev/zero) ends in an error
 * instead of taking all memory. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bankc.h"

bool read_file(const char *path, const char *name, size_t limit, FILE *diag,
               Src *s)
{
	bool is_stdin = strcmp(path, "-") == 0;
	if (!name)
		name = path;
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	if (!f) {
		fprintf(diag, "bankc: error: cannot open '%s': %s\n", esc_shown(name),
		        strerror(errno));
		return false;
	}
	files_used_fd(fileno(f));
	size_t cap = 4096, n = 0;
	char *buf = xmalloc(cap);
	bool ok = true;
	for (;;) {
		n += fread(buf + n, 1, cap - 1 - n, f);
		if (n > limit) {
			fprintf(diag, "bankc: error: '%s' is larger than %zu bytes\n",
			        esc_shown(name), limit);
			ok = false;
			break;
		}
		if (n < cap - 1)
			break;
		buf = xrealloc(buf, cap * 2);
		cap *= 2;
	}
	if (ok && ferror(f)) {
		fprintf(diag, "bankc: error: cannot read '%s': %s\n", esc_shown(name),
		        strerror(errno));
		ok = false;
	}
	if (!is_stdin)
		fclose(f);
	if (!ok) {
		free(buf);
		return false;
	}
	buf[n] = 0;
	s->name = is_stdin ? "<stdin>" : name;
	s->text = buf;
	s->len = n;
	return true;
}

void src_free(Src *s)
{
	free((char *)s->text);
	s->text = NULL;
}
