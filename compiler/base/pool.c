/* Pools: every allocation of one compilation is freed together, so an
 * error that longjmps out of the front end leaks nothing (QBE style). */
#define _DEFAULT_SOURCE     /* madvise */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bankc.h"

typedef struct Blk Blk;
struct Blk {
	Blk *next;
	max_align_t data[];
};

struct Pool {
	Blk *head;
};

Pool *pool_new(void)
{
	Pool *p = xcalloc(1, sizeof *p);
	return p;
}

void pool_free(Pool *p)
{
	if (!p)
		return;
	for (Blk *b = p->head, *n; b; b = n) {
		n = b->next;
		free(b);
	}
	free(p);
}

/* One block per allocation keeps this simple; the front end makes few,
 * mostly large (instruction arrays), allocations.  Those of megabytes
 * ask for huge pages where the system has them: a file at the limits
 * has 157 MB of instructions, and faulting them in 4 KB at a time took
 * a tenth of a build. */
void *pool_alloc(Pool *p, size_t n)
{
	Blk *b = xcalloc(1, sizeof *b + (n ? n : 1));
#ifdef MADV_HUGEPAGE
	if (n >= (size_t)4 << 20) {
		uintptr_t a = ((uintptr_t)b + 4095) & ~(uintptr_t)4095;
		madvise((void *)a, n - 8192, MADV_HUGEPAGE);
	}
#endif
	b->next = p->head;
	p->head = b;
	return b->data;
}

char *pool_strndup(Pool *p, const char *s, size_t n)
{
	char *r = pool_alloc(p, n + 1);
	memcpy(r, s, n);
	r[n] = 0;
	return r;
}
