/* The one out-of-memory policy: an allocation that fails, or whose size
 * overflows, reports it and ends the program with status 1.  Nothing a
 * stage could do would make a layout or a scan correct without the memory
 * it asked for, so no caller checks.
 *
 * It ends with _exit, after flushing the diagnostics printed so far, not
 * with exit: standard output is not flushed, so a command that runs out
 * of memory half way through its report leaves none of it buffered to go
 * out.  A build has written nothing by then but temporaries, which the
 * next build into the folder removes (emit/outputs.c). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bankc.h"

static _Noreturn void xoom(void)
{
	fflush(stderr);
	fputs("bankc: error: out of memory\n", stderr);
	fflush(stderr);
	_exit(1);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		xoom();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		xoom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		xoom();
	return q;
}

void *xreallocarray(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		xoom();
	return xrealloc(p, n * size);
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

FILE *xmemstream(char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);
	if (!f)
		xoom();
	return f;
}
