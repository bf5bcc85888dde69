/* Snapshots of a thread, for the branches bankc cannot decide: the
 * state a branch was met in, to run its other side from, and the state
 * one side ended in, merged at the join with the other's (what they left
 * different becomes unknown).  A thread runs both sides of such a branch
 * before it pauses again, so only the running thread has snapshots. */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_interp.h"

void snap_take(Thread *t, Snap *s)
{
	const PtxModule *m = t->m;
	const Frame *f = &t->fr[t->depth];
	s->nreg = f->reg0 + (size_t)m->func[f->func].nregs;
	s->np = f->p0 + (size_t)m->func[f->func].psize;
	s->reg = xmalloc((s->nreg + 1) * sizeof *s->reg);
	memcpy(s->reg, t->stack, s->nreg * sizeof *s->reg);
	s->pv = xmalloc(s->np + 1);
	memcpy(s->pv, t->pstack, s->np);
	s->pw = xmalloc((s->np + 1) * sizeof *s->pw);
	memcpy(s->pw, t->pwhy, s->np * sizeof *s->pw);
	s->lv = NULL;
	s->lw = NULL;
	if (t->lval) {
		size_t lb = (size_t)m->local_bytes;
		s->lv = xmalloc(lb + 1);
		memcpy(s->lv, t->lval, lb);
		s->lw = xmalloc((lb + 1) * sizeof *s->lw);
		memcpy(s->lw, t->lwhy, lb * sizeof *s->lw);
	}
	s->occ = xmalloc(((size_t)m->nslots + 1) * sizeof *s->occ);
	for (int j = 0; j < m->nslots; j++)
		s->occ[j] = occ_get(t, j);
	memcpy(s->fr, t->fr, sizeof s->fr);
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
	memcpy(t->fr, s->fr, sizeof t->fr);
	t->depth = s->depth;
	t->cc = s->cc;
	t->cc_why = s->cc_why;
	t->maybe_why = s->maybe_why;
	t->sticky = s->sticky;
}

void snap_free(Snap *s)
{
	free(s->reg);
	free(s->pv);
	free(s->pw);
	free(s->lv);
	free(s->lw);
	free(s->occ);
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
