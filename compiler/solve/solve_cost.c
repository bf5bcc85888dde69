/* Costing a candidate: its instructions' classes simulated one by one
 * under its layout, each simulation paid for from the search's work
 * budget, and stopped as soon as what is costed plus the bound of the
 * rest cannot enter the ranking.  Also the full costing of one layout
 * (the baselines'), the occupancy a footprint allows, and which layouts
 * are the search's seeds. */
#include <string.h>

#include "bankc.h"
#include "solve/solve.h"

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

bool solve_spend(SolveSearch *se, int64_t units)
{
	se->s->work += units;
	if (se->forced && !se->o->seeds_in_budget)
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
