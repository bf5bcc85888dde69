/* The xor family: chunk' = chunk ^ f(r) on the stored row r's chunks of
 * g = max(granule, bank width) bytes, f GF(2)-linear from the row's bits
 * into the chunk bits that pick banks: f(r) = x_0 r_0 ^ x_1 r_1 ^ ...,
 * every x_i below the span (the power of two above them all, at most the
 * bank window's chunks and the row's).  The chunks of the row's whole
 * span-blocks move, within their block; any after them keep their place.
 *
 * There are (span)^(row bits) maps, far too many to cost one by one, so
 * the search is a branch and bound over the masks, one row bit after
 * another (in the order solve_xbound.c picks): what is known once some
 * masks are chosen bounds every map that shares them from below.
 * Children are tried best bound first; a subtree is cut when its bound,
 * the least arithmetic of its maps and the first of them in the canonical
 * order (the masks, x_0 first) cannot enter the ranking.  Each leaf the
 * bound lets through is costed by the simulator itself, so the answer
 * rests on the simulator and on the bound being a lower bound (the tests
 * check both against costing every map of small tiles).  The tree counts
 * the maps it decides, pruned or costed, for the report. */
#include <stdlib.h>
#include <string.h>

#include "bankc.h"
#include "solve/solve.h"

/* ---- the tree ---------------------------------------------------------------- */

static SolveCount128 pow128(int base, int e)
{
	SolveCount128 v = 1;
	while (e-- > 0)
		v *= (SolveCount128)base;
	return v;
}

/* Maps of this run whose masks begin with x_0 .. x_{len-1}; with twins
 * (x->sym), those that the twins beginning so, with `rank` new directions
 * past the kept values' m, stand for: every prefix that a twin map takes
 * to it ((2^c - 2^m)(2^c - 2^(m+1)) ... of them), any masks after it and
 * any idle masks in it. */
static SolveCount128 subtree(const SolveXor *x, int len, int rank)
{
	if (x->sym) {
		SolveCount128 n = 1;
		bool zero = true;
		for (int i = 0; i < rank; i++)
			n *= (SolveCount128)(x->span - (1 << (x->mfixed + i)));
		for (int i = 0; i < len; i++)
			zero &= !x->vx[i];
		int fixed = x->left[0] - x->left[len];  /* masks not idle so far */
		return n * pow128(x->span, x->nb - fixed) - zero;
	}
	uint32_t all = 0;
	for (int i = 0; i < len; i++)
		all |= x->vx[i];
	int rest = x->nb - len;
	SolveCount128 n = pow128(x->span, rest);
	if (x->top)
		return all & (uint32_t)x->top ? n : n - pow128(x->span / 2, rest);
	return all ? n : n - 1;
}

/* The least arithmetic of the maps that agree with l on the decided row
 * bits and have a nonzero mask on every bit of `forced`: 3 if one of
 * them could be a shift and mask (a run of at most cb masks, x[a+i] =
 * x[a] << i) or has one nonzero mask; else 1 + 2 per nonzero mask. */
static int least_arith(const Layout *l, uint32_t decided, uint32_t forced,
                       int cb)
{
	int nnz = 0, lo = -1, hi = -1, sh = 0;
	bool shift = true;
	for (int i = 0; i < l->nx; i++) {
		bool on = (decided >> i & 1) ? l->x[i] != 0 : (forced >> i & 1);
		if (!on)
			continue;
		nnz++;
		if (lo < 0)
			lo = i;
		hi = i;
		if (!(decided >> i & 1))
			continue;
		int e = log2_ceil(l->x[i]);
		if (l->x[i] & (l->x[i] - 1))
			shift = false;
		else if (sh != 0 && e - i + 64 != sh)
			shift = false;
		sh = e - i + 64;
	}
	for (int i = lo + 1; shift && i < hi; i++)
		if ((decided >> i & 1) && !l->x[i])
			shift = false;      /* a run has no zero inside */
	if (hi - lo + 1 > cb)
		shift = false;
	if (shift || nnz < 2)
		return 3;
	return 1 + 2 * nnz;
}

/* A candidate standing for every map with this prefix: the bound, the
 * least arithmetic of such maps, the first of them in the order. */
static bool subtree_can_enter(SolveXor *x, int len, int64_t lb)
{
	if (x->noprune)
		return true;
	Cand probe = {0};
	probe.l = x->l;
	uint32_t decided = 0;
	for (int i = 0; i < len; i++)
		decided |= 1u << x->sigma[i];
	for (int i = len; i < x->nb; i++)
		probe.l.x[x->sigma[i]] = 0;
	if (x->sym && len == x->nb) {
		uint32_t tw[MAX_XOR_BITS] = {0};
		solve_best_twin(&x->tw, probe.l.x, x->nb, tw);  /* the leaf's */
		memcpy(probe.l.x, tw, sizeof tw);
		x->ops += 4 * x->nb;
	}
	probe.bytes = x->se->base_bytes;
	probe.arith = least_arith(&probe.l, decided, x->forced, log2_ceil(x->span)) +
	              x->tail;
	if (x->sym && len < x->nb) {
		/* the maps stand for their best twins: a shift and mask if the
		 * run of masks so far may have such a twin (the rows are
		 * decided in order, x->run), and then the first twin, whose
		 * masks on the rows decided so far are the chosen ones */
		int nnz = 0;
		for (int i = 0; i < x->nb; i++) {
			bool dec = decided >> i & 1;
			nnz += dec ? probe.l.x[i] != 0 : (x->forced >> i & 1);
			probe.l.x[i] = 0;
		}
		bool shift = x->run[len].shifts || nnz < 2;
		probe.arith = (shift ? 3 : 1 + 2 * nnz) + x->tail;
		/* a shift's masks are at least 1 where the chosen are not 0 */
		for (int i = 0; i < x->nb; i++)
			if (decided >> i & 1)
				probe.l.x[i] = shift ? x->l.x[i] != 0 : x->l.x[i];
	}
	probe.order = solve_order(&probe.l);
	return solve_ranks(x->se, &probe, lb);
}

/* The row bits inside the bank number (solve.h says why they are idle). */
uint32_t solve_xidle(const Layout *l, const Tile *t, const Geom *g)
{
	int64_t es = tile_elem_bytes(t), pb = l->scols * es;
	int64_t pw = pb / g->bank_bytes, window = (int64_t)g->banks * g->bank_bytes;
	if (pb % g->bank_bytes || (pw & (pw - 1)) || pw >= g->banks ||
	    (tile_walks_stages(t) && layout_stage_step(l, t) * es % window))
		return 0;
	uint32_t idle = 0;
	for (int b = 0; b < l->nx && (pw << b) < g->banks; b++)
		idle |= 1u << b;
	return idle;
}

static void leaf_one(SolveXor *x);

/* The tree of a family whose maps are twins (solve_xtwins): the ranking
 * keeps twins once from now on, and the echelon form starts from the
 * kept values. */
static void symmetry(SolveXor *x)
{
	if (!x->sym)
		return;
	solve_twins_known(x->se, x->l.swap, &x->tw);
	x->rank[0] = 0;
	x->wset[0] = x->tw.fixed;
	x->run[0].lo = -1;
	x->run[0].len = 0;
	x->run[0].closed = false;
	x->run[0].shifts = (1u << x->cbits) - 1;
	x->left[x->nb] = 0;
	for (int d = x->nb - 1; d >= 0; d--)
		x->left[d] = x->left[d + 1] + !(x->idle >> x->sigma[d] & 1);
}

static void leaf(SolveXor *x)
{
	if (!x->sym) {
		leaf_one(x);
		return;
	}
	uint32_t was[MAX_XOR_BITS], tw[MAX_XOR_BITS];
	memcpy(was, x->l.x, sizeof was);
	solve_best_twin(&x->tw, was, x->nb, tw);
	memcpy(x->l.x, tw, sizeof tw);
	leaf_one(x);
	memcpy(x->l.x, was, sizeof was);
}

static void leaf_one(SolveXor *x)
{
	SolveSearch *se = x->se;
	uint32_t all = 0;
	for (int i = 0; i < x->nb; i++)
		all |= x->l.x[i];
	/* the maps this leaf stands for */
	SolveCount128 maps = x->sym ? subtree(x, x->nb, x->rank[x->nb]) : 1;
	if (!all || (x->top && !(all & (uint32_t)x->top))) {
		if (x->sym && !x->dive)
			se->s->xor_searched += maps;    /* twins of row-major's */
		return;                 /* not a map of this run */
	}
	if (x->dive) {
		/* costed once, here; the full search counts it among the seeds */
		Cand c;
		if (se->nseeds == SOLVE_MAX_SEEDS || solve_is_seed(se, &x->l) ||
		    !subtree_can_enter(x, x->nb, x->lb))
			return;
		bool full = solve_evaluate(se, &x->l, &se->exact, &c);
		if (full) {
			se->s->evaluated++;
			solve_keep(se, &c);
		} else if (se->stopped) {
			return;
		} else {
			se->s->cut++;
		}
		se->seeds[se->nseeds] = x->l;
		if (full)
			solve_seed_costed(se, se->nseeds, &c);
		se->nseeds++;
		return;
	}
	if (solve_is_seed(se, &x->l) || !subtree_can_enter(x, x->nb, x->lb)) {
		se->s->xor_searched += maps;
		return;
	}
	const char *why;
	if (!layout_legal(&x->l, x->t, se->s->budget, &why)) {
		se->s->illegal++;
		se->s->xor_searched += maps;
		return;
	}
	Cand c;
	if (solve_evaluate(se, &x->l, &se->exact, &c)) {
		se->s->evaluated++;
		se->s->xor_searched += maps;
		solve_keep(se, &c);
		/* a stricter ranking may force more masks (a few times a run) */
		if (x->reforce < 8) {
			x->reforce++;
			x->forced = solve_xforced(x);
		}
	} else if (!se->stopped) {
		se->s->cut++;
		se->s->xor_searched += maps;
	}
}

/* The child's run of masks (x->run[d + 1]) when mask d is v: a zero
 * closes the run, a mask after a closed run breaks it (no shifts), and
 * one that extends it keeps the shifts its twins may still have. */
static void run_grows(SolveXor *x, int d, uint32_t v)
{
	x->run[d + 1] = x->run[d];
	if (!v) {
		x->run[d + 1].closed |= x->run[d].lo >= 0;
		return;
	}
	if (x->run[d].closed) {
		x->run[d + 1].shifts = 0;
		return;
	}
	if (x->run[d].lo < 0)
		x->run[d + 1].lo = d;
	int lo = x->run[d + 1].lo, len = ++x->run[d + 1].len;
	if (len > x->tw.cbits) {
		x->run[d + 1].shifts = 0;
		return;
	}
	x->run[d + 1].shifts = solve_twin_shifts(&x->tw, x->l.x + lo, len,
	                                         x->run[d].shifts);
	x->ops += (int64_t)x->tw.cbits << len;
}

static bool spend_ops(SolveXor *x)
{
	int64_t units = 1 + (x->ops >> 5);
	x->ops &= 31;
	return solve_spend(x->se, units);
}

static void dfs(SolveXor *x, int d)
{
	if (x->se->stopped)
		return;
	if (d == x->nb) {
		leaf(x);
		return;
	}
	/* an idle bit's values all cost as 0 does and follow it in the
	 * order: 0 stands for them, the rest are decided with it */
	bool idle = x->idle >> x->sigma[d] & 1;
	int nv = idle ? 1 : x->span;
	int rank = x->rank[d];
	uint64_t w = x->wset[d];
	uint32_t fresh = 0;
	if (x->sym && !idle) {
		/* a mask in the span W so far, or the least value outside it */
		fresh = solve_twin_outside(w);
		int top = 63 - __builtin_clzll(w);
		int most = (int)fresh > top ? (int)fresh : top;
		if (most + 1 < nv)
			nv = most + 1;
	}
	if (idle && !x->dive && !x->sym)  /* twins count them (subtree) */
		for (int v = 1; v < x->span; v++) {
			solve_xset(x, d, (uint32_t)v);
			x->se->s->xor_searched += subtree(x, d + 1, 0);
		}
	int64_t lbv[64];
	int order[64];
	for (int v = 0; v < nv; v++)
		lbv[v] = x->lb;
	/* each phase's bound per child, kept for the descent */
	for (int q = 0; q < x->nact[d]; q++) {
		SolveXPhase *p = &x->ph[x->act[d][q]];
		int *out = x->kids[d] + q * nv;
		solve_xchildren(x, p, d, nv, 0, out);
		int64_t was = p->pb > p->cur ? p->pb : p->cur;
		for (int v = 0; v < nv; v++)
			lbv[v] += p->weight * ((out[v] > p->pb ? out[v] : p->pb) - was);
		if (x->ops >= 1 << 10 && !spend_ops(x))
			return;
	}
	if (!spend_ops(x))
		return;
	/* best bound first, then the canonical order */
	for (int v = 0; v < nv; v++) {
		int j = v;
		while (j > 0 && lbv[order[j - 1]] > lbv[v]) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = v;
	}
	int64_t lb = x->lb;
	for (int q = 0; q < (x->dive ? 1 : nv) && !x->se->stopped; q++) {
		int v = order[q];
		bool grows = x->sym && !idle && !(w >> v & 1);
		if (grows && (uint32_t)v != fresh)
			continue;           /* not in echelon form: a twin's */
		solve_xset(x, d, (uint32_t)v);
		int r1 = rank + grows;
		if (x->sym)
			run_grows(x, d, (uint32_t)v);
		if (!subtree_can_enter(x, d + 1, lbv[v])) {
			if (!x->dive)
				x->se->s->xor_searched += subtree(x, d + 1, r1);
			continue;
		}
		/* descend: the phases active here take their bound for v */
		for (int i = 0; i < x->nact[d]; i++) {
			SolveXPhase *p = &x->ph[x->act[d][i]];
			x->saved[d][i] = p->cur;
			p->cur = x->kids[d][i * nv + v];
		}
		x->lb = lbv[v];
		x->rank[d + 1] = r1;
		x->wset[d + 1] = grows ? solve_twin_span(w, (uint32_t)v) : w;
		dfs(x, d + 1);
		x->lb = lb;
		for (int i = 0; i < x->nact[d]; i++)
			x->ph[x->act[d][i]].cur = x->saved[d][i];
	}
	solve_xset(x, d, 0);
}

/* One run of the tree: maps below `span`, each having bit `top` in some
 * mask when top is not 0. */
static void run(SolveSearch *se, bool swap, int span, int top, bool noprune,
                bool dive)
{
	/* the dive's run, kept for the full search of the same run */
	SolveXor *x = se->xcache[swap];
	if (x && x->span == span && x->top == top) {
		x->noprune = noprune;
		x->dive = dive;
		x->forced = solve_xforced(x);
		x->reforce = 0;
		if (!noprune && !subtree_can_enter(x, 0, x->lb)) {
			if (!dive)
				se->s->xor_searched += subtree(x, 0, 0);
		} else {
			dfs(x, 0);
		}
		return;
	}
	x = xcalloc(1, sizeof *x);
	const Tile *t = se->t;
	const Geom *g = se->g;
	int64_t es = tile_elem_bytes(t);
	x->se = se;
	x->t = t;
	x->noprune = noprune;
	x->dive = dive;
	x->l = layout_base(t, L_XOR, swap);
	int gb = tile_granule(t) > g->bank_bytes ? tile_granule(t) : g->bank_bytes;
	x->l.gran = (int)(gb / es);
	x->gbytes = gb;
	x->nb = x->l.nx = log2_floor(x->l.srows - 1) + (x->l.srows > 1);
	x->span = span;
	x->top = top;
	int kc = x->l.scols / x->l.gran;
	x->tchunks = kc / span * span;
	x->tail = x->tchunks * x->l.gran < x->l.scols;
	x->pb_row = (int64_t)x->l.scols * es;
	x->pw_row = x->pb_row / g->bank_bytes;
	x->gwords = gb / g->bank_bytes;
	x->bmask = g->banks - 1;
	int64_t pw = x->pb_row / g->bank_bytes;
	x->sb_step = layout_stage_step(&x->l, t) * es;
	/* a lane past stage 0 is sb_step bytes on: banks stay linear in f
	 * only where that moves no bank */
	x->linear = !x->tail && x->pb_row % g->bank_bytes == 0 &&
	            (pw % g->banks == 0 || (pw & (pw - 1)) == 0) &&
	            (!tile_walks_stages(t) ||
	             x->sb_step % (g->banks * g->bank_bytes) == 0);
	x->k = log2_floor(gb / g->bank_bytes);
	x->idle = solve_xidle(&x->l, t, g);
	/* the family's first map in the order, with the least arithmetic:
	 * if even that cannot enter, nothing here can */
	SolveCount128 all = pow128(span, x->nb) -
	                    (top ? pow128(span / 2, x->nb) : 1);
	if (!noprune && !subtree_can_enter(x, 0, se->s->aligned_bound)) {
		if (!dive)
			se->s->xor_searched += all;
		free(x);
		return;
	}
	if (solve_xphases(x)) {
		symmetry(x);
		x->forced = solve_xforced(x);
		if (!noprune && !subtree_can_enter(x, 0, x->lb)) {
			if (!dive)
				se->s->xor_searched += all;
		} else {
			dfs(x, 0);
		}
		if (dive && !se->stopped && !se->xcache[swap]) {
			se->xcache[swap] = x;
			return;
		}
	}
	solve_xfree(x);
	free(x);
}

void solve_xor_done(SolveSearch *se)
{
	for (int sw = 0; sw < 2; sw++)
		if (se->xcache[sw]) {
			solve_xfree(se->xcache[sw]);
			free(se->xcache[sw]);
			se->xcache[sw] = NULL;
		}
}

/* The family's runs: spans that divide the row's chunks make one (their
 * maps move every chunk), each larger span its own (the tail stays).
 * Returns the number of runs, 0 when the family is empty. */
static int runs(const SolveSearch *se, bool swap, int *c0, int *cmax, int *nb,
                SolveCount128 *total)
{
	const Tile *t = se->t;
	const Geom *g = se->g;
	Layout l = layout_base(t, L_XOR, swap);
	int64_t es = tile_elem_bytes(t);
	int gb = tile_granule(t) > g->bank_bytes ? tile_granule(t) : g->bank_bytes;
	int kc = (int)(l.scols * es / gb);
	int window = g->banks * g->bank_bytes;
	if (l.srows < 2 || kc < 2 || gb * 2 > window)
		return 0;
	*nb = log2_floor(l.srows - 1) + 1;
	if (*nb > MAX_XOR_BITS)
		return 0;
	int crow = log2_floor(kc);
	*cmax = log2_floor(window / gb);
	if (crow < *cmax)
		*cmax = crow;
	*c0 = 0;
	while (*c0 < *cmax && kc % (2 << *c0) == 0)
		++*c0;
	*total = 0;
	for (int c = 1; c <= *cmax; c++)
		*total += pow128(1 << c, *nb) - pow128(1 << (c - 1), *nb);
	return (*c0 > 0) + (*cmax - *c0);
}

void solve_xor(SolveSearch *se, bool swap)
{
	int c0, cmax, nb;
	SolveCount128 total;
	if (!runs(se, swap, &c0, &cmax, &nb, &total))
		return;
	se->s->xor_bits = nb;
	se->s->xor_total += total;
	bool noprune = se->o->exhaustive && total <= SOLVE_XOR_ENUM;
	if (c0 > 0)
		run(se, swap, 1 << c0, 0, noprune, false);
	for (int c = c0 + 1; c <= cmax && !se->stopped; c++)
		run(se, swap, 1 << c, 1 << (c - 1), noprune, false);
}

void solve_xor_dive(SolveSearch *se, bool swap)
{
	int c0, cmax, nb;
	SolveCount128 total;
	if (se->o->exhaustive || !runs(se, swap, &c0, &cmax, &nb, &total))
		return;
	if (c0 > 0)
		run(se, swap, 1 << c0, 0, false, true);
	else
		run(se, swap, 1 << cmax, 1 << (cmax - 1), false, true);
}
