/* Room for a module's instructions, in the reader's pool: sized at the
 * start from the text's semicolons (every instruction has one), so that a
 * large module is neither grown by doubling nor copied into the pool at
 * the end; the pages that no instruction is read into are never touched.
 * A brx.idx table's expansion (ptx_brx.c) may still need more. */
#include <string.h>

#include "ptx/ptx_reader.h"

void rd_inst_start(Reader *r)
{
	const Src *src = r->d->src;
	int64_t semis = 0;
	for (const char *c = src->text; c && (c = memchr(c, ';', (size_t)(src->text + src->len - c)));
	     c++)
		if (++semis > MAX_PTX_INSTS)
			break;
	r->caps_inst = (int)semis + 16;
	r->m->inst = pool_alloc(r->pool, (size_t)r->caps_inst * sizeof *r->m->inst);
}

void rd_inst_room(Reader *r)
{
	PtxModule *m = r->m;
	if (m->ninst < r->caps_inst)
		return;
	/* a larger block of the pool (the old one goes with the pool) */
	int cap = r->caps_inst ? 2 * r->caps_inst : 16;
	PtxInst *n = pool_alloc(r->pool, (size_t)cap * sizeof *n);
	if (m->ninst)
		memcpy(n, m->inst, (size_t)m->ninst * sizeof *n);
	m->inst = n;
	r->caps_inst = cap;
}
