/* The solver's objective and its ranking.
 *
 * Lexicographic unless the spec gives a tradeoff: weighted wavefronts,
 * then footprint bytes, then index arithmetic, then the layout's
 * canonical place in the space (solve_order; xor maps of one family by
 * their masks), so ties resolve the same way on every run, whatever the
 * ranking's length and however much the search pruned.  The ranking keeps
 * the best SolveOpts.top candidates, best first; a candidate that cannot
 * enter it is not costed further (solve_can_enter).  Where the xor family
 * lists twins once, a map of it is kept as its first twin. */
#include <stdlib.h>
#include <string.h>

#include "bankc.h"
#include "solve/solve.h"

/* The families in their canonical order (the old enumeration's), then
 * each family's parameters. */
long solve_order(const Layout *l)
{
	static const int rank[2][5] = {
		[0] = {[L_ROWMAJOR] = 0, [L_SWIZZLE] = 2, [L_XOR] = 4, [L_SKEW] = 5,
		       [L_PAD] = 8},
		[1] = {[L_ROWMAJOR] = 1, [L_SWIZZLE] = 3, [L_XOR] = 6, [L_SKEW] = 7,
		       [L_PAD] = 9},
	};
	long o = (long)rank[l->swap][l->kind] << 56;
	switch (l->kind) {
	case L_ROWMAJOR:
	case L_XOR:
		break;
	case L_PAD:
		o |= l->pitch - l->scols;
		break;
	case L_SKEW:
		o |= l->skew;
		break;
	case L_SWIZZLE:
		/* TMA boxes: the fewest first (fewer copies, the widest mode) */
		o |= (long)(l->boxes & 0xff) << 48 | (long)l->M << 40 |
		     (long)l->B << 32 | (long)l->S << 16;
		break;
	}
	return o;
}

/* <0 when a ranks before b by the objective alone (weighted wavefronts,
 * or the tradeoff's key, then bytes, then arithmetic), 0 when tied. */
int solve_cmp_key(const Tile *t, const Cand *a, const Cand *b)
{
	__int128 ka = a->wave, kb = b->wave;
	if (t->tradeoff) {
		ka = (__int128)a->wave * t->tradeoff + a->bytes;
		kb = (__int128)b->wave * t->tradeoff + b->bytes;
	}
	if (ka != kb)
		return ka < kb ? -1 : 1;
	if (!t->tradeoff && a->bytes != b->bytes)
		return a->bytes < b->bytes ? -1 : 1;
	return a->arith < b->arith ? -1 : a->arith > b->arith;
}

/* <0 when a ranks before b.  Keys are 128-bit: weighted wavefronts
 * times a tradeoff can pass 2^63. */
int solve_cmp(const Tile *t, const Cand *a, const Cand *b)
{
	int k = solve_cmp_key(t, a, b);
	if (k)
		return k;
	if (a->order != b->order)
		return a->order < b->order ? -1 : 1;
	if (a->l.kind == L_XOR && b->l.kind == L_XOR)
		for (int i = 0; i < a->l.nx && i < b->l.nx; i++)
			if (a->l.x[i] != b->l.x[i])
				return a->l.x[i] < b->l.x[i] ? -1 : 1;
	return 0;
}

static void twin(const SolveSearch *se, Cand *c)
{
	Layout *l = &c->l;
	const XorTwins *tw = &se->s->xor_twins[l->swap];
	if (l->kind != L_XOR || !tw->on || layout_xor_cols(l) < l->scols)
		return;
	uint32_t best[MAX_XOR_BITS] = {0};
	int extra = c->arith - layout_arith(l);
	solve_best_twin(tw, l->x, l->nx, best);
	memcpy(l->x, best, sizeof best);
	c->arith = layout_arith(l) + extra;
}

void solve_keep(SolveSearch *se, const Cand *in)
{
	Solution *s = se->s;
	Cand tw = *in;
	const Cand *c = &tw;
	twin(se, &tw);              /* a map stands for its twins */
	int top = se->o->top;
	int i = s->ntop;
	for (int k = 0; k < s->ntop; k++)
		if (solve_cmp(se->t, c, &s->top[k]) == 0)
			return;             /* kept already (one layout, one place) */
	if (i == top) {
		if (solve_cmp(se->t, c, &s->top[top - 1]) >= 0)
			return;
		i--;
	}
	while (i > 0 && solve_cmp(se->t, c, &s->top[i - 1]) < 0) {
		s->top[i] = s->top[i - 1];
		i--;
	}
	s->top[i] = *c;
	if (s->ntop < top)
		s->ntop++;
}

bool solve_ranks(const SolveSearch *se, const Cand *c, int64_t wave)
{
	const Solution *s = se->s;
	if (s->ntop < se->o->top)
		return true;
	Cand probe = *c;
	probe.wave = wave;
	return solve_cmp(se->t, &probe, &s->top[s->ntop - 1]) < 0;
}

bool solve_can_enter(const SolveSearch *se, const Cand *c, int64_t wave)
{
	return se->o->exhaustive || solve_ranks(se, c, wave);
}

/* The family lists twins once from now on: the ranking's maps of it
 * become their first twins (a seed may not be one), kept again in order. */
void solve_twins_known(SolveSearch *se, bool swap, const XorTwins *tw)
{
	Solution *s = se->s;
	if (s->xor_twins[swap].on)
		return;
	s->xor_twins[swap] = *tw;
	int n = s->ntop;
	Cand *was = xmalloc((size_t)(n ? n : 1) * sizeof *was);
	memcpy(was, s->top, (size_t)n * sizeof *was);
	s->ntop = 0;
	for (int i = 0; i < n; i++)
		solve_keep(se, &was[i]);
	free(was);
}
