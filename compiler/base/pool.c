/* Pools: every allocation of one compilation is freed together, so an
 * error that longjmps out of the front end leaks nothing (QBE style). */
#include <stdlib.h>
#include <string.h>

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
 * mostly large (instruction arrays), allocations. */
void *pool_alloc(Pool *p, size_t n)
{
	Blk *b = xcalloc(1, sizeof *b + (n ? n : 1));
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
