/* The solver: the legal layouts of the space, costed by simulating warp
 * instructions, ranked by the spec's objective, with a lower bound that
 * certifies the choice.
 *
 * Objective (lexicographic unless the spec gives a tradeoff): weighted
 * wavefronts, then footprint bytes, then index arithmetic, then the
 * layout's canonical place in the space (solve_order; xor maps of one
 * family by their masks), so ties resolve the same way on every run,
 * whatever the ranking's length and however much the search pruned.
 *
 * The search is an anytime branch and bound under a work budget counted
 * in simulations (SolveOpts.budget; solve_default_budget), in the files
 * of the solve_ prefix:
 *
 * 1. the seeds, always costed in full: row-major, the baselines' layouts
 *    that the spec allows, and padding by one granule (solve_family.c);
 * 2. the small families (swizzles, pads, skews, the swap) and the xor
 *    tree's most promising branch, best first (solve_family.c);
 * 3. the xor maps in full, a tree whose bound cuts it (solve_xor.c, its
 *    bound solve_xbound.c).
 *
 * Pruning is only ever by bound: a candidate stops being simulated once
 * its partial cost plus the bound of the rest cannot enter the ranking,
 * a family is skipped when its best conceivable member could not either,
 * and so on down the xor tree.  When the budget runs out, the best found
 * is the answer, and the report says it is not proven optimal.
 * Instructions that cost alike under a family are simulated once
 * (solve_class.c).  This file: the objective, the ranking, the budget,
 * costing a candidate, the certificate, and the two passes of a ranking
 * longer than one. */
#include <stdlib.h>
#include <string.h>

#include "bankc.h"

int64_t solve_default_budget(const Tile *t)
{
	int64_t n = 0;
	for (int j = 0; j < t->nacc; j++)
		n += t->acc[j].ninst;
	return SOLVE_BUDGET_BASE + SOLVE_BUDGET_PER_INST * n;
}

bool solve_parse_budget(const char *s, int64_t *out)
{
	int64_t v = 0;
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > SOLVE_BUDGET_MAX / 10)
			return false;
		v = v * 10 + (*s - '0');
	}
	if (v < 1 || v > SOLVE_BUDGET_MAX)
		return false;
	*out = v;
	return true;
}

const char *solve_u128(SolveCount128 v, char *buf)
{
	char tmp[48];
	int n = 0;
	do {
		tmp[n++] = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v);
	for (int i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = 0;
	return buf;
}

bool solve_unproven(const Solution *s)
{
	return s->found && s->budget_reached && s->best.wave > s->aligned_bound;
}

/* ---- ranking --------------------------------------------------------------- */

int solve_blocks(const Tile *t, int64_t bytes)
{
	const ArchInfo *ar = &tab_arch[t->arch];
	if (bytes > ar->smem_block)
		return 0;
	int64_t b = ar->smem_sm / (bytes + ar->smem_reserved);
	if (b > ar->blocks_sm)
		b = ar->blocks_sm;
	if (t->threads && ar->threads_sm / t->threads < b)
		b = ar->threads_sm / t->threads;
	return (int)b;
}

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

void solve_keep(SolveSearch *se, const Cand *c)
{
	Solution *s = se->s;
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

bool solve_spend(SolveSearch *se, int64_t units)
{
	se->s->work += units;
	if (se->forced)
		return true;
	if (se->stopped || se->s->work > se->s->work_budget) {
		se->stopped = true;
		se->s->budget_reached = true;
		return false;
	}
	return true;
}

void solve_seed_costed(SolveSearch *se, int i, const Cand *c)
{
	se->seed_c[i] = *c;
	se->seed_full[i] = true;
}

bool solve_is_seed(const SolveSearch *se, const Layout *l)
{
	for (int i = 0; i < se->nseeds; i++)
		if (layout_same(l, &se->seeds[i]))
			return true;
	return false;
}

/* A candidate is costed class by class, so that its costing can stop
 * and go on later. */
void solve_partial_start(SolvePartial *p, const SolveSearch *se,
                         const Layout *l, const SolveClasses *cs)
{
	const Tile *t = se->t;
	memset(&p->c, 0, sizeof p->c);
	p->c.l = *l;
	p->c.bytes = layout_bytes(l, t);
	p->c.arith = layout_arith(l);
	p->c.order = solve_order(l);
	p->c.blocks = solve_blocks(t, p->c.bytes);
	p->cs = cs;
	p->k = 0;
	p->rest = cs->bound;
}

/* Branch and bound: what is costed so far plus the bound of what is not
 * must stay within what the ranking keeps. */
bool solve_partial_run(SolveSearch *se, SolvePartial *p, int upto)
{
	const Tile *t = se->t;
	const SolveClasses *cs = p->cs;
	Cand *c = &p->c;
	if (upto > cs->n)
		upto = cs->n;
	for (; p->k < upto; p->k++) {
		const SolveClass *x = &cs->c[p->k];
		if (!solve_spend(se, x->units))
			return false;
		SimResult r;
		layout_sim_inst(se->g, &c->l, t, &t->acc[x->acc], x->in, &r);
		int64_t w = r.wavefronts;
		c->wave += w * x->weight;
		p->rest -= x->bound;
		for (int q = 0; q < x->ncnt; q++)
			c->acc_wave[cs->cnt[x->cnt + q].acc] += w * cs->cnt[x->cnt + q].n;
		if ((p->k == 0 || w * x->weight > x->bound) &&
		    !solve_can_enter(se, c, c->wave + p->rest)) {
			p->k++;
			return false;
		}
	}
	return true;
}

bool solve_evaluate(SolveSearch *se, const Layout *l, const SolveClasses *cs,
                    Cand *c)
{
	SolvePartial p;
	solve_partial_start(&p, se, l, cs);
	bool ok = solve_partial_run(se, &p, cs->n);
	*c = p.c;
	return ok;
}

void solve_cost(const Tile *t, const Geom *g, const Layout *l, Cand *c)
{
	Layout copy = *l;           /* l may point into c */
	memset(c, 0, sizeof *c);
	c->l = copy;
	l = &c->l;
	c->bytes = layout_bytes(l, t);
	c->arith = layout_arith(l);
	c->order = solve_order(l);
	for (int j = 0; j < t->nacc; j++)
		for (int i = 0; i < t->acc[j].ninst; i++) {
			SimResult r;
			layout_sim_inst(g, l, t, &t->acc[j], &t->acc[j].inst[i], &r);
			c->acc_wave[j] += r.wavefronts * t->acc[j].inst[i].weight;
		}
	for (int j = 0; j < t->nacc; j++)
		c->wave += c->acc_wave[j] * t->acc[j].weight;
	c->blocks = solve_blocks(t, c->bytes);
}

/* The certificate: ideal and alignment-aware bound of every access, from
 * the exact classes (costed under row-major, a granule-preserving layout
 * whose phases and words stand for every legal layout's). */
static void bounds(SolveSearch *se)
{
	const Tile *t = se->t;
	Solution *s = se->s;
	for (int k = 0; k < se->exact.n; k++) {
		const SolveClass *x = &se->exact.c[k];
		for (int q = 0; q < x->ncnt; q++) {
			const SolveAccCount *a = &se->exact.cnt[x->cnt + q];
			s->acc_ideal[a->acc] += (int64_t)x->ideal * a->n;
			s->acc_bound[a->acc] += (int64_t)x->ib * a->n;
		}
	}
	for (int j = 0; j < t->nacc; j++) {
		s->lower_bound += s->acc_ideal[j] * t->acc[j].weight;
		s->aligned_bound += s->acc_bound[j] * t->acc[j].weight;
	}
}

void solve_layout(const Tile *t, const Geom *g, const SolveOpts *o,
                  Solution *s)
{
	memset(s, 0, sizeof *s);
	s->top = xcalloc((size_t)o->top, sizeof *s->top);
	SolveSearch *se = xcalloc(1, sizeof *se);
	s->budget = (t->given & (1u << K_BUDGET)) ? t->budget
	                                           : tab_arch[t->arch].smem_block;
	/* no pruning, no budget either, unless one is given */
	s->work_budget = o->budget > 0 ? o->budget
	               : o->exhaustive ? SOLVE_BUDGET_MAX : solve_default_budget(t);
	*se = (SolveSearch){.t = t, .g = g, .o = o, .s = s};
	Layout rm = layout_rowmajor(t);
	se->base_bytes = layout_bytes(&rm, t);
	s->blocks_rowmajor = solve_blocks(t, se->base_bytes);

	se->forced = true;      /* the classes and the bound: always */
	for (int j = 0; j < t->nacc; j++)
		solve_spend(se, t->acc[j].ninst);
	solve_classes(t, g, KEY_EXACT, false, 0, NULL, &se->exact);
	solve_spend(se, 2 * (int64_t)se->exact.n);    /* each costed once */
	s->classes = se->exact.n;
	bounds(se);
	se->forced = false;
	solve_make_seeds(se);
	/* a ranking longer than one first finds its best as the ranking of
	 * one does, so that both choose the same layout whatever the budget
	 * leaves for the rest */
	if (o->top > 1 && !o->exhaustive) {
		SolveOpts one = *o;
		one.top = 1;
		se->o = &one;
		solve_search(se);
		se->o = o;
		if (s->ntop && se->nseeds < SOLVE_MAX_SEEDS &&
		    !solve_is_seed(se, &s->top[0].l)) {
			se->seeds[se->nseeds] = s->top[0].l;
			solve_seed_costed(se, se->nseeds++, &s->top[0]);
		}
		s->xor_total = s->xor_searched = 0;
	}
	solve_search(se);

	s->found = s->ntop > 0;
	if (s->found)
		s->best = s->top[0];
	solve_xor_done(se);
	solve_classes_free(&se->exact);
	for (int sw = 0; sw < 2; sw++) {
		solve_classes_free(&se->grid[sw]);
		for (int k = 0; k < SOLVE_MAX_K; k++)
			solve_classes_free(&se->linear[sw][k]);
	}
	free(se);
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

void solve_free(Solution *s)
{
	view_free(s->view);
	s->view = NULL;
	free(s->top);
	s->top = NULL;
}
