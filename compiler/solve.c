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
 * in simulations (SolveOpts.budget; solve_default_budget):
 *
 * 1. the seeds, always costed in full: row-major, the baselines' layouts
 *    that the spec allows, and padding by one granule;
 * 2. the small families, cheap and likely good: the swizzles, padding,
 *    skews;
 * 3. the xor maps (solve_xor.c), a tree search whose bound cuts it.
 *
 * Pruning is only ever by bound: a candidate stops being simulated once
 * its partial cost plus the bound of the rest cannot enter the ranking,
 * a family is skipped when its best conceivable member could not either,
 * and so on down the xor tree.  When the budget runs out, the best found
 * is the answer, and the report says it is not proven optimal.
 * Instructions that cost alike under a family are simulated once
 * (solve_class.c). */
#include <stdlib.h>
#include <string.h>

#include "bankc.h"

static int log2ceil(int64_t v)
{
	int k = 0;
	while ((1LL << k) < v)
		k++;
	return k;
}

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
	__int128 ka = a->wave, kb = b->wave;
	if (t->tradeoff) {
		ka = (__int128)a->wave * t->tradeoff + a->bytes;
		kb = (__int128)b->wave * t->tradeoff + b->bytes;
	}
	if (ka != kb)
		return ka < kb ? -1 : 1;
	if (!t->tradeoff && a->bytes != b->bytes)
		return a->bytes < b->bytes ? -1 : 1;
	if (a->arith != b->arith)
		return a->arith < b->arith ? -1 : 1;
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

/* A candidate being costed, class by class, so that its costing can
 * stop and go on later. */
typedef struct {
	Cand c;
	const SolveClasses *cs;
	int k;              /* classes costed */
	int64_t rest;       /* the bound of the classes not yet costed */
} Partial;

static void eval_start(Partial *p, const SolveSearch *se, const Layout *l,
                       const SolveClasses *cs)
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

/* Cost classes up to `upto`.  Branch and bound: what is costed so far
 * plus the bound of what is not must stay within what the ranking keeps;
 * false once it cannot (or the budget ran out). */
static bool eval_run(SolveSearch *se, Partial *p, int upto)
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
	Partial p;
	eval_start(&p, se, l, cs);
	bool ok = eval_run(se, &p, cs->n);
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
			c->acc_wave[j] += r.wavefronts;
		}
	for (int j = 0; j < t->nacc; j++)
		c->wave += c->acc_wave[j] * t->acc[j].weight;
	c->blocks = solve_blocks(t, c->bytes);
}

/* ---- the classes each family is costed over -------------------------------- */

/* A family's merged classes pay for their building (one unit per exact
 * class) only when its candidates are costed deep; most are cut after a
 * few classes.  So a family is costed over the exact classes until that
 * has cost as much as building them would (a rent-or-buy rule, within
 * twice the better choice), and over its own classes from then on.
 * Slot 0 is row-major and pad, 1 + k the swizzles with M+S+B = k. */
static const SolveClasses *family_classes(SolveSearch *se, bool swap, int slot)
{
	SolveClasses *cs = slot ? &se->linear[swap][slot - 1] : &se->grid[swap];
	bool *have = slot ? &se->have_linear[swap][slot - 1] : &se->have_grid[swap];
	if (*have)
		return cs;
	if (se->rent[swap][slot] < se->exact.n)
		return &se->exact;
	if (!solve_spend(se, se->exact.n))
		return NULL;
	if (slot)
		solve_classes(se->t, se->g, KEY_LINEAR, swap, slot - 1, &se->exact, cs);
	else
		solve_classes(se->t, se->g, KEY_GRID, swap, 0, &se->exact, cs);
	*have = true;
	return cs;
}

/* The family slot of l (-1: the exact classes only). */
static int slot_of(const SolveSearch *se, const Layout *l)
{
	switch (l->kind) {
	case L_ROWMAJOR:
	case L_PAD:
		return 0;
	case L_SWIZZLE: {
		/* a period as large as the stage merges only equal instructions */
		int k = l->M + l->S + l->B;
		if (l->boxes > 1 || k + 1 >= SOLVE_MAX_K ||
		    k >= log2ceil(layout_stage_bytes(l, se->t)))
			return -1;
		return k + 1;
	}
	case L_SKEW:
	case L_XOR:
		break;
	}
	return -1;
}

static const SolveClasses *classes_for(SolveSearch *se, const Layout *l)
{
	int slot = slot_of(se, l);
	return slot < 0 ? &se->exact : family_classes(se, l->swap, slot);
}

/* Count what costing over the exact classes spent towards a slot's rent. */
static void pay_rent(SolveSearch *se, const Layout *l, const SolveClasses *cs,
                     int64_t units)
{
	int slot = slot_of(se, l);
	if (slot >= 0 && cs == &se->exact)
		se->rent[l->swap][slot] += units;
}

/* Candidates of the small families, gathered before any is costed. */
typedef struct {
	Layout *v;
	int n, cap;
	int64_t least_bytes;    /* the family's least footprint */
	int least_arith;        /* ... and arithmetic */
} List;

static void add(List *ls, const Layout *l)
{
	if (ls->n == ls->cap) {
		ls->cap = ls->cap ? 2 * ls->cap : 64;
		ls->v = realloc(ls->v, (size_t)ls->cap * sizeof *ls->v);
		if (!ls->v) {
			fputs("bankc: out of memory\n", stderr);
			abort();
		}
	}
	ls->v[ls->n++] = *l;
}

/* The least a partial candidate can still come to, as a candidate: its
 * place in the ranking at best. */
static int cmp_best(const SolveSearch *se, const Partial *a, const Partial *b)
{
	Cand x = a->c, y = b->c;
	x.wave += a->rest;
	y.wave += b->rest;
	return solve_cmp(se->t, &x, &y);
}

static void heap_push(const SolveSearch *se, Partial **h, int *n, Partial *p)
{
	int i = (*n)++;
	while (i > 0 && cmp_best(se, p, h[(i - 1) / 2]) < 0) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = p;
}

static Partial *heap_pop(const SolveSearch *se, Partial **h, int *n)
{
	Partial *top = h[0], *last = h[--*n];
	int i = 0;
	for (;;) {
		int c = 2 * i + 1;
		if (c >= *n)
			break;
		if (c + 1 < *n && cmp_best(se, h[c + 1], h[c]) < 0)
			c++;
		if (cmp_best(se, h[c], last) >= 0)
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n)
		h[i] = last;
	return top;
}

/* The small families, best first.  The heap holds candidates being
 * costed (a class at a time, the classes that conflict most under
 * row-major first) and families not yet opened, each standing for its
 * best conceivable member (the certified bound, the family's least
 * footprint and arithmetic, its first place in the order).  Whatever
 * ranks best is taken: a family is opened (its candidates costed on one
 * class each), a candidate is costed further (twice as many classes each
 * time) until it is done or cut.  Good candidates thus come first, the
 * rest are cut short, most after a class or two, and families whose best
 * could not enter the ranking are never opened; once the heap's best
 * cannot enter, nothing left can. */
typedef struct {
	Partial *v;
	Partial **heap;
	int n, cap, nh;
} Open;

static Partial *open_new(Open *op)
{
	if (op->n == op->cap) {
		fputs("bankc: internal error: too many candidates\n", stderr);
		abort();
	}
	return &op->v[op->n++];
}

/* Start costing l: its first class, then into the heap (or cut). */
static void open_candidate(SolveSearch *se, Open *op, const Layout *l)
{
	const char *why;
	if (se->stopped || solve_is_seed(se, l) || !solve_spend(se, 1))
		return;
	if (!layout_legal(l, se->t, se->s->budget, &why)) {
		se->s->illegal++;
		return;
	}
	const SolveClasses *cs = classes_for(se, l);
	if (!cs)
		return;
	Partial *p = open_new(op);
	eval_start(p, se, l, cs);
	bool ok = eval_run(se, p, 1);
	pay_rent(se, l, cs, p->k);
	if (ok)
		heap_push(se, op->heap, &op->nh, p);
	else if (!se->stopped)
		se->s->cut++;
}

static void search_families(SolveSearch *se, const List *fam, int nfam,
                            int total)
{
	Open op = {0};
	op.cap = total + nfam + 1;
	op.v = malloc((size_t)op.cap * sizeof *op.v);
	op.heap = malloc((size_t)op.cap * sizeof *op.heap);
	if (!op.v || !op.heap) {
		fputs("bankc: out of memory\n", stderr);
		abort();
	}
	/* a family's stand-in: no class costed, so cs is NULL */
	for (int f = 0; f < nfam; f++) {
		if (!fam[f].n)
			continue;
		Partial *p = open_new(&op);
		memset(p, 0, sizeof *p);
		p->c.l = fam[f].v[0];
		p->c.bytes = fam[f].least_bytes;
		p->c.arith = fam[f].least_arith;
		p->c.order = solve_order(&fam[f].v[0]) & ~((1L << 56) - 1);
		p->rest = se->s->aligned_bound;
		p->k = f;
		heap_push(se, op.heap, &op.nh, p);
	}
	while (op.nh && !se->stopped) {
		Partial *p = heap_pop(se, op.heap, &op.nh);
		if (!solve_can_enter(se, &p->c, p->c.wave + p->rest)) {
			heap_push(se, op.heap, &op.nh, p);
			break;
		}
		if (!p->cs) {
			const List *ls = &fam[p->k];
			if (ls->v[0].kind == L_XOR)     /* the tree's best branch */
				solve_xor_dive(se, ls->v[0].swap);
			else
				for (int i = 0; i < ls->n; i++)
					open_candidate(se, &op, &ls->v[i]);
			continue;
		}
		int k0 = p->k;
		bool ok = eval_run(se, p, 2 * p->k);
		pay_rent(se, &p->c.l, p->cs, p->k - k0);
		if (!ok) {
			if (!se->stopped)
				se->s->cut++;
		} else if (p->k == p->cs->n) {
			se->s->evaluated++;
			solve_keep(se, &p->c);
		} else {
			heap_push(se, op.heap, &op.nh, p);
		}
	}
	/* candidates left: cut short by the bound (or the budget); families
	 * never opened are not counted */
	if (!se->stopped)
		for (int i = 0; i < op.nh; i++)
			se->s->cut += op.heap[i]->cs != NULL;
	free(op.heap);
	free(op.v);
}

/* ---- the families ------------------------------------------------------------ */

static bool wants(const SolveSearch *se, LayoutKind kind, bool swap)
{
	static const unsigned need[] = {[L_ROWMAJOR] = 0, [L_PAD] = XF_PAD,
		[L_SKEW] = XF_SKEW, [L_SWIZZLE] = XF_SWIZZLE, [L_XOR] = XF_SWIZZLE};
	const Tile *t = se->t;
	if (se->o->families && !(se->o->families >> kind & 1))
		return false;
	if ((t->allow & need[kind]) != need[kind] ||
	    (swap && !(t->allow & XF_SWAP)))
		return false;
	/* TMA writes row-major or its swizzles, never swapped */
	if (t->tma && (swap || (kind != L_ROWMAJOR && kind != L_SWIZZLE)))
		return false;
	/* swapping moves single elements only */
	return !swap || tile_granule(t) == tile_elem_bytes(t);
}

static void list_pad(SolveSearch *se, bool swap, List *ls)
{
	const Tile *t = se->t;
	int es = (int)tile_elem_bytes(t);
	int gran = tile_granule(t);
	Layout l = layout_base(t, L_PAD, swap);
	/* Banks repeat every banks * bank_bytes of pitch: more padding than
	 * that only costs memory. */
	int window = se->g->banks * se->g->bank_bytes;
	for (int pb = gran; pb <= window; pb += gran) {
		if (pb % es)
			continue;
		l.pitch = l.scols + pb / es;
		add(ls, &l);
	}
}

static void list_skew(SolveSearch *se, bool swap, List *ls)
{
	Layout l = layout_base(se->t, L_SKEW, swap);
	int k = l.scols / l.gran;
	for (int s = 1; s < k && s <= 256; s++) {
		l.skew = s;
		add(ls, &l);
	}
}

/* Swizzle<B,M,S>: 2^M at least the granule and M+B within the bank
 * window (the bits that pick banks), S >= B, the source bits inside the
 * stage.  TMA tiles take the engine's own modes, in boxes of the span. */
static void list_swizzle(SolveSearch *se, bool swap, List *ls)
{
	const Tile *t = se->t;
	Layout l = layout_base(t, L_SWIZZLE, swap);
	if (t->tma) {
		int64_t rb = l.scols * tile_elem_bytes(t);
		for (int b = 1; b <= 3; b++) {
			int span = 16 << b;
			if (rb % span)
				continue;
			l.M = 4, l.B = b, l.S = 3;
			l.boxes = (int)(rb / span);
			l.pitch = l.scols / l.boxes;
			add(ls, &l);
		}
		return;
	}
	int window = log2ceil(se->g->banks * se->g->bank_bytes);
	int top = log2ceil(layout_stage_bytes(&l, t));
	int m0 = log2ceil(tile_granule(t));
	for (int m = m0 < 2 ? 2 : m0; m < window; m++)
		for (int b = 1; m + b <= window; b++)
			for (int s = b; m + s + b <= top; s++) {
				l.M = m, l.B = b, l.S = s;
				add(ls, &l);
			}
}

/* The seeds, costed before the search so that its bound cuts from the
 * start, whatever the budget: row-major, the baselines' layouts that this
 * spec allows and the space holds (an xor map in the family's chunks),
 * and padding by one granule, which often meets the bound or comes near. */
static void make_seeds(SolveSearch *se)
{
	const Tile *t = se->t;
	const char *why;
	Layout cand[MAX_BASELINES + 2];
	int n = baseline_layouts(t, cand);
	int es = (int)tile_elem_bytes(t), gran = tile_granule(t);
	Layout pad = layout_base(t, L_PAD, false);
	pad.pitch = pad.scols + (gran + es - 1) / es;
	cand[n++] = pad;
	int nb = log2ceil(t->rows);
	int cg = gran > se->g->bank_bytes ? gran : se->g->bank_bytes;
	for (int i = 0; i < n; i++) {
		Layout l = cand[i];
		if (l.kind == L_XOR) {
			/* the same map over the family's chunks, every row bit */
			int cb = (int)(l.gran * es), sh = 0;
			if (cb < cg || nb > MAX_XOR_BITS)
				continue;
			while ((cg << sh) < cb)
				sh++;
			Layout x = layout_base(t, L_XOR, false);
			x.gran = cg / es;
			x.nx = nb;
			bool any = false;
			for (int b = 0; b < nb; b++) {
				x.x[b] = b < l.nx ? l.x[b] << sh : 0;
				any |= x.x[b] != 0;
			}
			if (!any || layout_xor_span(&x) > se->g->banks *
			    se->g->bank_bytes / cg)
				continue;
			l = x;
		}
		if (l.kind == L_PAD && l.pitch - l.scols > 0 &&
		    ((l.pitch - l.scols) * es % gran ||
		     (l.pitch - l.scols) * es > se->g->banks * se->g->bank_bytes))
			continue;           /* not a pad the family holds */
		if (!wants(se, l.kind, l.swap) || solve_is_seed(se, &l) ||
		    !layout_legal(&l, t, se->s->budget, &why) ||
		    se->nseeds == SOLVE_MAX_SEEDS)
			continue;
		se->seeds[se->nseeds++] = l;
	}
}

/* Cost the seeds in full, whatever the budget. */
static void cost_seeds(SolveSearch *se)
{
	se->forced = true;
	for (int i = 0; i < se->nseeds; i++) {
		Partial p;
		if (se->seed_full[i]) {         /* costed in full before */
			solve_keep(se, &se->seed_c[i]);
			continue;
		}
		if (se->seeds[i].kind == L_ROWMAJOR && !se->seeds[i].swap) {
			/* costed already, with the classes */
			eval_start(&p, se, &se->seeds[i], &se->exact);
			for (int k = 0; k < se->exact.n; k++) {
				const SolveClass *x = &se->exact.c[k];
				p.c.wave += (int64_t)x->rm * x->weight;
				for (int q = 0; q < x->ncnt; q++)
					p.c.acc_wave[se->exact.cnt[x->cnt + q].acc] +=
						(int64_t)x->rm * se->exact.cnt[x->cnt + q].n;
			}
			se->s->evaluated++;
			solve_keep(se, &p.c);
			solve_seed_costed(se, i, &p.c);
			continue;
		}
		const SolveClasses *cs = classes_for(se, &se->seeds[i]);
		eval_start(&p, se, &se->seeds[i], cs);
		if (eval_run(se, &p, cs->n)) {
			se->s->evaluated++;
			solve_keep(se, &p.c);
			solve_seed_costed(se, i, &p.c);
		} else {
			se->s->cut++;
		}
		pay_rent(se, &p.c.l, cs, p.k);
	}
	se->forced = false;
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

/* The seeds, the small families and the xor tree's most promising
 * branch best first (search_families), then the xor tree in full. */
static void search(SolveSearch *se)
{
	const Tile *t = se->t;
	const SolveOpts *o = se->o;
	cost_seeds(se);
	List fam[9] = {{0}};
	int nfam = 0, total = 0;
	Layout swapped = layout_base(t, L_ROWMAJOR, true);
	if (wants(se, L_ROWMAJOR, true)) {
		add(&fam[nfam], &swapped);
		fam[nfam].least_bytes = se->base_bytes;
		fam[nfam++].least_arith = 0;
	}
	for (int sw = 0; sw < 2; sw++) {
		if (wants(se, L_SWIZZLE, sw)) {
			list_swizzle(se, sw, &fam[nfam]);
			fam[nfam].least_bytes = se->base_bytes;
			fam[nfam++].least_arith = 3;
		}
		if (wants(se, L_PAD, sw)) {
			list_pad(se, sw, &fam[nfam]);
			fam[nfam].least_bytes = se->base_bytes + 1;
			fam[nfam++].least_arith = 0;
		}
		if (wants(se, L_SKEW, sw)) {
			list_skew(se, sw, &fam[nfam]);
			fam[nfam].least_bytes = se->base_bytes;
			fam[nfam++].least_arith = 3;
		}
		if (wants(se, L_XOR, sw) && !o->exhaustive) {
			Layout x = layout_base(t, L_XOR, sw);
			add(&fam[nfam], &x);
			fam[nfam].least_bytes = se->base_bytes;
			fam[nfam++].least_arith = 3;
		}
	}
	for (int f = 0; f < nfam; f++)
		total += fam[f].n && fam[f].v[0].kind != L_XOR ? fam[f].n : 0;
	search_families(se, fam, nfam, total);
	for (int f = 0; f < nfam; f++)
		free(fam[f].v);
	for (int sw = 0; sw < 2; sw++)
		if (wants(se, L_XOR, sw))
			solve_xor(se, sw);
}

void solve_tile(const Tile *t, const Geom *g, const SolveOpts *o,
                Solution *s)
{
	memset(s, 0, sizeof *s);
	s->top = calloc((size_t)o->top, sizeof *s->top);
	SolveSearch *se = calloc(1, sizeof *se);
	if (!s->top || !se) {
		fputs("bankc: out of memory\n", stderr);
		abort();
	}
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
	make_seeds(se);
	/* a ranking longer than one first finds its best as the ranking of
	 * one does, so that both choose the same layout whatever the budget
	 * leaves for the rest */
	if (o->top > 1 && !o->exhaustive) {
		SolveOpts one = *o;
		one.top = 1;
		se->o = &one;
		search(se);
		se->o = o;
		if (s->ntop && se->nseeds < SOLVE_MAX_SEEDS &&
		    !solve_is_seed(se, &s->top[0].l)) {
			se->seeds[se->nseeds] = s->top[0].l;
			solve_seed_costed(se, se->nseeds++, &s->top[0]);
		}
		s->xor_total = s->xor_searched = 0;
	}
	search(se);

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

void solve_free(Solution *s)
{
	free(s->top);
	s->top = NULL;
}
