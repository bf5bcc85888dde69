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
#define _DEFAULT_SOURCE     /* madvise */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bankc.h"

static _Noreturn void xoom(void)
{
	fflush(stderr);
	fputs("bankc: error: out of memory\n", stderr);
	fflush(stderr);
	_exit(1);
}

/* Blocks of megabytes (a large tile's instruction classes, its costs)
 * ask for huge pages where the system has them: fewer faults and TLB
 * misses on arrays that each pass of the search walks whole. */
static void *huge(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	if (n >= (size_t)4 << 20) {
		uintptr_t a = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
		madvise((void *)a, n - 4096, MADV_HUGEPAGE);
	}
#else
	(void)n;
#endif
	return p;
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		xoom();
	return huge(p, n);
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		xoom();
	return huge(p, n * size);
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
