/* The solver's small families (row-major swapped, swizzles, pads, skews)
 * and its seeds, searched best first: the classes each family is costed
 * over, the candidates of each, and the heap that takes whichever could
 * still rank best, families not yet opened included. */
#include <stdlib.h>
#include <string.h>

#include "bankc.h"
#include "solve/solve.h"

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
		    k >= log2_ceil(layout_stage_bytes(l, se->t)))
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
		ls->v = xrealloc(ls->v, (size_t)ls->cap * sizeof *ls->v);
	}
	ls->v[ls->n++] = *l;
}

/* The least a partial candidate can still come to, as a candidate: its
 * place in the ranking at best. */
static int cmp_best(const SolveSearch *se, const SolvePartial *a, const SolvePartial *b)
{
	Cand x = a->c, y = b->c;
	x.wave += a->rest;
	y.wave += b->rest;
	return solve_cmp(se->t, &x, &y);
}

static void heap_push(const SolveSearch *se, SolvePartial **h, int *n, SolvePartial *p)
{
	int i = (*n)++;
	while (i > 0 && cmp_best(se, p, h[(i - 1) / 2]) < 0) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = p;
}

static SolvePartial *heap_pop(const SolveSearch *se, SolvePartial **h, int *n)
{
	SolvePartial *top = h[0], *last = h[--*n];
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
	SolvePartial *v;
	SolvePartial **heap;
	int n, cap, nh;
} Open;

static SolvePartial *open_new(Open *op)
{
	if (op->n == op->cap)
		internal_error("too many candidates");
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
	SolvePartial *p = open_new(op);
	solve_partial_start(p, se, l, cs);
	bool ok = solve_partial_run(se, p, 1);
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
	op.v = xmalloc((size_t)op.cap * sizeof *op.v);
	op.heap = xmalloc((size_t)op.cap * sizeof *op.heap);
	/* a family's stand-in: no class costed, so cs is NULL */
	for (int f = 0; f < nfam; f++) {
		if (!fam[f].n)
			continue;
		SolvePartial *p = open_new(&op);
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
		SolvePartial *p = heap_pop(se, op.heap, &op.nh);
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
		bool ok = solve_partial_run(se, p, 2 * p->k);
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
	/* the tensor cores read their canonical layouts only: boxed swizzles */
	if (tile_mma(t) && (swap || kind != L_SWIZZLE))
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

/* Skews that cost alike: when a row's chunks fill whole bank windows
 * (W bytes, and 128 for cp.async, whose cost is its 128-byte segments), a
 * skew of s + W / (chunk bytes) puts every element in the same bank, the
 * same word and the same segment as a skew of s does (the rotation moves
 * each row by a whole number of windows more), so it can only tie with s
 * and follows it in the order: the skews from W / (chunk bytes) on are
 * never costed.  The period, or 0 when rows are not whole windows. */
int solve_skew_period(const Tile *t, const Geom *g, const Layout *l)
{
	int64_t w = (int64_t)g->banks * g->bank_bytes;
	for (int j = 0; j < t->nacc; j++)
		if (t->acc[j].op.kind == OP_CPASYNC && w < 128)
			w = 128;
	int64_t cb = l->gran * tile_elem_bytes(t), k = l->scols / l->gran;
	if (cb <= 0 || w % cb || (k * cb) % w)
		return 0;
	return (int)(w / cb);
}

static void list_skew(SolveSearch *se, bool swap, List *ls)
{
	Layout l = layout_base(se->t, L_SKEW, swap);
	int k = l.scols / l.gran;
	int period = solve_skew_period(se->t, se->g, &l);
	if (period > 0 && period < k)
		k = period;
	for (int s = 1; s < k && s <= 256; s++) {
		l.skew = s;
		add(ls, &l);
	}
}

/* Swizzle<B,M,S>: 2^M at least the granule and M+B within the bank
 * window (the bits that pick banks), S >= B, the source bits inside the
 * stage.  TMA and tensor-core tiles take the engines' own modes, in boxes
 * of the span: Swizzle<B,4,3>, and Blackwell's 128-byte swizzles on 32-
 * and 64-byte atoms (layout_legal keeps those the engines and the arch
 * have). */
static void list_swizzle(SolveSearch *se, bool swap, List *ls)
{
	const Tile *t = se->t;
	Layout l = layout_base(t, L_SWIZZLE, swap);
	if (t->tma || tile_mma(t)) {
		static const struct { int B, M, S; bool flip; } modes[] = {
			{0, 4, 3, false}, {1, 4, 3, false}, {2, 4, 3, false},
			{3, 4, 3, false}, {2, 5, 2, false}, {2, 5, 2, true},
			{1, 6, 1, false},
		};
		int64_t rb = l.scols * tile_elem_bytes(t);
		for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) {
			/* the tensor cores also read the interleave (B = 0), TMA
			 * does not; the 32-byte-atom swizzle is tcgen05's too */
			if (modes[i].B == 0 && !tile_mma(t))
				continue;
			if (modes[i].M != 4 && tab_arch[t->arch].cc < 100)
				continue;
			int span = modes[i].M == 4 ? 16 << modes[i].B : 128;
			if (rb % span)
				continue;
			l.M = modes[i].M, l.B = modes[i].B, l.S = modes[i].S;
			l.flip = modes[i].flip;
			l.boxes = (int)(rb / span);
			l.pitch = l.scols / l.boxes;
			add(ls, &l);
		}
		return;
	}
	int window = log2_ceil(se->g->banks * se->g->bank_bytes);
	int top = log2_ceil(layout_stage_bytes(&l, t));
	int m0 = log2_ceil(tile_granule(t));
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
void solve_make_seeds(SolveSearch *se)
{
	const Tile *t = se->t;
	const char *why;
	Layout cand[MAX_BASELINES + 2];
	int n = baseline_layouts(t, cand);
	int es = (int)tile_elem_bytes(t), gran = tile_granule(t);
	Layout pad = layout_base(t, L_PAD, false);
	pad.pitch = pad.scols + (gran + es - 1) / es;
	cand[n++] = pad;
	int nb = log2_ceil(t->rows);
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
			/* listed as the family lists it: idle masks 0 */
			uint32_t idle = solve_xidle(&x, t, se->g);
			any = false;
			for (int b = 0; b < nb; b++) {
				if (idle >> b & 1)
					x.x[b] = 0;
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
		SolvePartial p;
		if (se->seed_full[i]) {         /* costed in full before */
			solve_keep(se, &se->seed_c[i]);
			continue;
		}
		if (se->seeds[i].kind == L_ROWMAJOR && !se->seeds[i].swap) {
			/* costed already, with the classes */
			solve_partial_start(&p, se, &se->seeds[i], &se->exact);
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
		if (!cs) {      /* seeds within the budget, and it is spent */
			se->s->cut++;
			continue;
		}
		solve_partial_start(&p, se, &se->seeds[i], cs);
		if (solve_partial_run(se, &p, cs->n)) {
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

/* The seeds, the small families and the xor tree's most promising
 * branch best first (search_families), then the xor tree in full. */
void solve_search(SolveSearch *se)
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
