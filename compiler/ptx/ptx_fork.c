/* Snapshots of a thread, for the branches bankc cannot decide: the
 * state a branch was met in, to run its other side from, and the state
 * one side ended in, merged at the join with the other's (what they left
 * different becomes unknown).  A thread runs both sides of such a branch
 * before it pauses again, so only the running thread has snapshots, and
 * their buffers serve the next ones. */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_interp.h"

enum { MAX_SPARE = 2 * PTX_MAX_FORKS + 2 };

void snap_take(Thread *t, Snap *s)
{
	const PtxModule *m = t->m;
	Interp *r = t->r;
	const Frame *f = &t->fr[t->depth];
	/* a freed snapshot's buffers, where there is one */
	SnapBufs none = {0};
	const SnapBufs *b = r->nspare ? &r->spare[--r->nspare] : &none;
	s->reg = b->reg, s->cap_reg = b->cap_reg;
	s->pv = b->pv, s->pw = b->pw, s->cap_p = b->cap_p;
	s->lv = b->lv, s->lw = b->lw;
	s->occ = b->occ;
	s->nreg = f->reg0 + (size_t)m->func[f->func].nregs;
	s->np = f->p0 + (size_t)m->func[f->func].psize;
	if (s->nreg + 1 > s->cap_reg) {
		s->cap_reg = s->nreg + 1;
		s->reg = xrealloc(s->reg, s->cap_reg * sizeof *s->reg);
	}
	memcpy(s->reg, t->stack, s->nreg * sizeof *s->reg);
	if (s->np + 1 > s->cap_p) {
		s->cap_p = s->np + 1;
		s->pv = xrealloc(s->pv, s->cap_p);
		s->pw = xrealloc(s->pw, s->cap_p * sizeof *s->pw);
	}
	memcpy(s->pv, t->pstack, s->np);
	memcpy(s->pw, t->pwhy, s->np * sizeof *s->pw);
	size_t lb = (size_t)m->local_bytes;
	if (t->lval) {
		if (!s->lv) {
			s->lv = xmalloc(lb + 1);
			s->lw = xmalloc((lb + 1) * sizeof *s->lw);
		}
		memcpy(s->lv, t->lval, lb);
		memcpy(s->lw, t->lwhy, lb * sizeof *s->lw);
	} else if (s->lv) {
		free(s->lv);    /* NULL says: no local memory yet */
		free(s->lw);
		s->lv = NULL;
		s->lw = NULL;
	}
	if (!s->occ)
		s->occ = xmalloc(((size_t)m->nslots + 1) * sizeof *s->occ);
	for (int j = 0; j < m->nslots; j++)
		s->occ[j] = occ_get(t, j);
	memcpy(s->fr, t->fr, ((size_t)t->depth + 1) * sizeof *s->fr);
	s->depth = t->depth;
	s->cc = t->cc;
	s->cc_why = t->cc_why;
	s->maybe_why = t->maybe_why;
	s->sticky = t->sticky;
}

void snap_put(Thread *t, const Snap *s)
{
	const PtxModule *m = t->m;
	memcpy(t->stack, s->reg, s->nreg * sizeof *s->reg);
	memcpy(t->pstack, s->pv, s->np);
	memcpy(t->pwhy, s->pw, s->np * sizeof *s->pw);
	size_t lb = (size_t)m->local_bytes;
	if (s->lv) {
		memcpy(t->lval, s->lv, lb);
		memcpy(t->lwhy, s->lw, lb * sizeof *s->lw);
	} else if (t->lval) {
		/* touched since: untouched local memory reads as known zeros */
		memset(t->lval, 0, lb);
		memset(t->lwhy, 0, lb * sizeof *t->lwhy);
	}
	for (int j = 0; j < m->nslots; j++)
		occ_set(t, j, s->occ[j]);
	memcpy(t->fr, s->fr, ((size_t)s->depth + 1) * sizeof *t->fr);
	t->depth = s->depth;
	t->cc = s->cc;
	t->cc_why = s->cc_why;
	t->maybe_why = s->maybe_why;
	t->sticky = s->sticky;
}

void snap_free(Thread *t, Snap *s)
{
	Interp *r = t->r;
	if (!r->spare)
		r->spare = xcalloc(MAX_SPARE, sizeof *r->spare);
	if (r->nspare < MAX_SPARE) {
		r->spare[r->nspare++] = (SnapBufs){s->reg, s->cap_reg, s->pv, s->pw, s->cap_p, s->lv,
		                                   s->lw, s->occ};
	} else {
		free(s->reg);
		free(s->pv);
		free(s->pw);
		free(s->lv);
		free(s->lw);
		free(s->occ);
	}
	s->reg = NULL;
	s->pv = NULL;
	s->pw = NULL;
	s->lv = NULL;
	s->lw = NULL;
	s->occ = NULL;
}

void snap_spare_free(Interp *r)
{
	for (int i = 0; i < r->nspare; i++) {
		SnapBufs *s = &r->spare[i];
		free(s->reg);
		free(s->pv);
		free(s->pw);
		free(s->lv);
		free(s->lw);
		free(s->occ);
	}
	free(r->spare);
	r->spare = NULL;
	r->nspare = 0;
}

/* Two sides' values at their join: equal ones stay, the others become
 * unknown (for why), between both. */
static Val either(Val a, Val b, uint32_t why)
{
	if (!a.why && !b.why && a.v == b.v)
		return a;
	if (a.why == b.why && a.why && a.lo == b.lo && a.hi == b.hi)
		return a.uni == b.uni ? a : unknown_in(a.why, a.lo, a.hi);
	uint64_t lo = val_lo(a) < val_lo(b) ? val_lo(a) : val_lo(b);
	uint64_t hi = val_hi(a) > val_hi(b) ? val_hi(a) : val_hi(b);
	return unknown_in(why, lo, hi);
}

void snap_merge(Thread *t, const Snap *a, uint32_t why)
{
	const PtxModule *m = t->m;
	size_t nreg = a->nreg;
	for (size_t j = 0; j < nreg; j++)
		t->stack[j] = either(t->stack[j], a->reg[j], why);
	for (size_t j = 0; j < a->np; j++)
		if (t->pstack[j] != a->pv[j] || t->pwhy[j] != a->pw[j])
			t->pwhy[j] = why;
	/* local memory that a side never touched reads as zeros (a side
	 * that touched it left it allocated: t->lval) */
	for (size_t j = 0; t->lval && j < (size_t)m->local_bytes; j++) {
		uint8_t tv = t->lval ? t->lval[j] : 0, av = a->lv ? a->lv[j] : 0;
		uint32_t tw = t->lval ? t->lwhy[j] : 0, aw = a->lv ? a->lw[j] : 0;
		if (tv != av || tw != aw)
			t->lwhy[j] = why;
	}
	for (int j = 0; j < m->nslots; j++)
		if (a->occ[j] > occ_get(t, j))
			occ_set(t, j, a->occ[j]);
	if (t->cc != a->cc || t->cc_why != a->cc_why)
		t->cc_why = why;
	t->sticky = t->sticky || a->sticky;
	if (t->sticky && !t->maybe_why)
		t->maybe_why = a->maybe_why ? a->maybe_why : why;
}
