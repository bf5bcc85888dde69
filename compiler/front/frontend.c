/* Reading a spec file and running the front end over it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bankc.h"

enum { MAX_SPEC_BYTES = 16 << 20 };

/* The whole file plus a NUL sentinel for the lexer. */
static bool read_all(const char *path, Src *s, FILE *diag)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (!f) {
		fprintf(diag, "bankc: error: cannot open '%s': %s\n", path,
		        strerror(errno));
		return false;
	}
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	for (;;) {
		if (!buf) {
			fprintf(diag, "bankc: error: out of memory reading '%s'\n", path);
			break;
		}
		n += fread(buf + n, 1, cap - 1 - n, f);
		if (n > MAX_SPEC_BYTES) {
			fprintf(diag, "bankc: error: '%s' is larger than %d bytes\n", path,
			        MAX_SPEC_BYTES);
			free(buf);
			buf = NULL;
			break;
		}
		if (n < cap - 1)
			break;
		char *nb = realloc(buf, cap * 2);
		if (!nb)
			free(buf);
		buf = nb;
		cap *= 2;
	}
	bool bad = buf && ferror(f);
	if (bad)
		fprintf(diag, "bankc: error: cannot read '%s': %s\n", path,
		        strerror(errno));
	if (f != stdin)
		fclose(f);
	if (!buf || bad) {
		free(buf);
		return false;
	}
	buf[n] = 0;
	s->name = strcmp(path, "-") == 0 ? "<stdin>" : path;
	s->text = buf;
	s->len = n;
	return true;
}

void src_free(Src *s)
{
	free((char *)s->text);
	s->text = NULL;
}

bool frontend_file(const char *path, Pool *p, FILE *diag, Src *src, Unit *u)
{
	memset(src, 0, sizeof *src);
	if (!read_all(path, src, diag))
		return false;
	return frontend_run(p, diag, src, u);
}

bool frontend_run(Pool *p, FILE *diag, const Src *src, Unit *u)
{
	Diag d = {.src = src, .out = diag};
	if (setjmp(d.jb))
		return false;
	parse_unit(p, &d, u);
	check_unit(p, &d, u);
	return true;
}

bool frontend_files(char **paths, int n, Pool *p, FILE *diag, Src *src,
                    Unit *u)
{
	bool ok = true;
	for (int i = 0; i < n; i++)     /* every file, so every error shows */
		ok &= frontend_file(paths[i], p, diag, &src[i], &u[i]);
	return ok;
}
