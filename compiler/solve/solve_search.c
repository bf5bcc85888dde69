/* The solver: the legal layouts of the space, costed by simulating warp
 * instructions, ranked by the spec's objective, with a lower bound that
 * certifies the choice (the objective and the ranking: solve_rank.c).
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
 * (solve_class.c); a candidate is costed in solve_cost.c, and a
 * one-dimensional tile is searched fold by fold (solve_fold.c).  This
 * file: the budget, the certificate, and the two passes of a ranking
 * longer than one. */
#include <stdlib.h>
#include <string.h>

#include "bankc.h"
#include "solve/solve.h"

int64_t solve_default_budget(const Tile *t)
{
	int64_t n = 0;
	for (int j = 0; j < t->nacc; j++)
		n += t->acc[j].ninst;
	return SOLVE_BUDGET_BASE + SOLVE_BUDGET_PER_INST * n;
}

int64_t solve_file_defaults(const Unit *u)
{
	int64_t n = 0;
	for (int i = 0; i < u->ntiles; i++)
		n += solve_default_budget(&u->tiles[i]);
	return n;
}

int64_t solve_budget_of(const Tile *t, const SolveOpts *o)
{
	int64_t d = solve_default_budget(t);
	if (o->file_defaults > SOLVE_BUDGET_FILE)
		d = (int64_t)((__int128)d * SOLVE_BUDGET_FILE / o->file_defaults);
	return d > 0 ? d : 1;
}

bool solve_unproven(const Solution *s)
{
	return s->found && s->budget_reached && s->best.wave > s->aligned_bound;
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
	               : o->exhaustive ? SOLVE_BUDGET_MAX : solve_budget_of(t, o);
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
