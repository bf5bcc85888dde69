/* { } blocks inside a function body: PTX scopes the labels, registers
 * and variables that a block declares to that block, so that code
 * pasted twice (two inline-asm mbarrier waits, each declaring its
 * predicate and its loop's label) declares the same names twice without
 * clashing, and each branch goes to the label of its own block.
 *
 * A name declared in a block hides an outer one until the block
 * closes; its prior entry is kept in an undo list.  A branch is resolved
 * when the innermost block that declares its label closes (labels may
 * come after the branch), so each pending branch waits until a block
 * that declares its name closes, or the function ends. */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_reader.h"

void rd_scope_put(Reader *r, const char *s, size_t n, int kind, int v)
{
	HEnt *e = names_entry(&r->local, s, n);
	if (r->nscope > 0) {
		GROW(r->undo, r->nundo, r->capundo);
		r->undo[r->nundo++] = (struct Undo){s, (uint32_t)n, e ? e->kind : 0,
		                                    e ? e->v : 0, e ? e->blk : 0};
	}
	names_put(&r->local, s, n, kind, v);
	names_entry(&r->local, s, n)->blk = r->blk;
}

void rd_scope_open(Reader *r)
{
	GROW(r->scope, r->nscope, r->capscope);
	r->scope[r->nscope++] = (struct Scope){r->blk, r->nundo, r->npend};
	r->blk = ++r->nblk;
}

void rd_resolve_labels(Reader *r, int from, bool all)
{
	int keep = from;
	for (int i = from; i < r->npend; i++) {
		Pending *p = &r->pend[i];
		HEnt *e = names_find(&r->local, p->name.s, p->name.n);
		bool here = e && e->kind == NK_LABEL && (all || e->blk == r->blk);
		if (!here && all)
			diag_error(r->d, p->name.pos, "'%.*s' is not declared",
			           (int)p->name.n, p->name.s);
		if (!here) {
			r->pend[keep++] = *p;
			continue;
		}
		if (p->opd >= 0) {
			PtxOpd *o = &r->m->inst[p->inst].opd[p->opd];
			o->kind = OPD_LABEL;
			o->sym = r->labels[e->v];
		}
	}
	r->npend = keep;
}

void rd_scope_close(Reader *r)
{
	struct Scope *s = &r->scope[r->nscope - 1];
	rd_resolve_labels(r, s->pend, false);
	/* newest first, so that a name declared twice in the block gets its
	 * entry from before the block back */
	for (int i = r->nundo - 1; i >= s->undo; i--) {
		struct Undo *u = &r->undo[i];
		HEnt *e = names_entry(&r->local, u->s, u->n);
		/* a call sequence's .param keeps its bytes for a later block */
		if (e && e->kind == NK_SYM && r->m->sym[e->v].kind == SYM_PARAM &&
		    r->m->sym[e->v].formal == -1)
			names_put(&r->retired, u->s, u->n, NK_SYM, e->v);
		names_put(&r->local, u->s, u->n, u->kind, u->v);
		names_entry(&r->local, u->s, u->n)->blk = u->blk;
	}
	r->nundo = s->undo;
	r->blk = s->blk;
	r->nscope--;
}

void rd_scope_reset(Reader *r)
{
	r->blk = r->nblk = 0;
	r->nscope = r->nundo = 0;
	names_clear(&r->retired);
}

void rd_scope_free(Reader *r)
{
	free(r->scope);
	free(r->undo);
	names_clear(&r->retired);
}
