/* The solver: every legal layout of the space, costed by simulating every
 * warp instruction of every access, ranked by the spec's objective, with a
 * lower bound that certifies the choice.
 *
 * Objective (lexicographic unless the spec gives a tradeoff): weighted
 * wavefronts, then footprint bytes, then index arithmetic, then the order
 * of enumeration (so ties resolve the same way on every run).
 *
 * Pruning is only ever by bound: a candidate stops being simulated once its
 * partial cost is worse than the last of the ranking kept, and a family is
 * skipped when the best any member could reach (the certified bound, the
 * smallest footprint, the family's least arithmetic) cannot beat that
 * either.  SolveOpts.exhaustive turns both off. */
#include <stdlib.h>
#include <string.h>

#include "bankc.h"

/* Members of the xor family searched: see enumerate_xor. */
enum { XOR_LIMIT = 16384 };

static int log2ceil(int64_t v)
{
	int k = 0;
	while ((1LL << k) < v)
		k++;
	return k;
}

/* ---- the certificate ------------------------------------------------------- */

static int gcd(int a, int b)
{
	while (b) {
		int r = a % b;
		a = b;
		b = r;
	}
	return a;
}

/* Words an instruction's phase wants, grouped by their place inside the
 * granule (the largest vector, which every legal layout keeps whole and
 * aligned): a layout can move granules, never words within them, so words
 * of one class can only reach banks/(granule/bank_bytes) banks. */
static int phase_bound(const Geom *g, int gran, int bytes,
                       const int64_t *addr, uint32_t lanes)
{
	if (!lanes)
		return 0;
	int per_word = gran / g->bank_bytes;
	if (per_word < 2)
		return 1;
	int reach = g->banks / gcd(g->banks, per_word);    /* banks a class
	                                                     * can use */
	int64_t words[WARP * 4];
	int nw = 0, best = 1;
	int count[32] = {0};
	for (int n = 0; n < WARP; n++) {
		if (!(lanes >> n & 1))
			continue;
		for (int64_t w = addr[n] / g->bank_bytes;
		     w <= (addr[n] + bytes - 1) / g->bank_bytes; w++) {
			int k;
			for (k = 0; k < nw && words[k] != w; k++)
				;
			if (k < nw || nw == WARP * 4)
				continue;
			words[nw++] = w;
			int cls = (int)(w % per_word);
			int need = (++count[cls % 32] + reach - 1) / reach;
			if (need > best)
				best = need;
		}
	}
	return best;
}

/* Ideal and alignment-aware bound of every access, from the row-major
 * layout (a granule-preserving one: its phases and words stand for every
 * legal layout's). */
static void bounds(const Geom *g, const Tile *t, Solution *s)
{
	Layout rm = layout_rowmajor(t);
	int gran = tile_granule(t);
	int64_t excess[MAX_ACCESSES];
	for (int j = 0; j < t->nacc; j++) {
		const Access *a = &t->acc[j];
		int bytes = (int)(a->vec * tile_elem_bytes(t));
		int64_t ideal = 0, bound = 0, rmw = 0;
		s->inst_bound[j] = calloc((size_t)a->ninst, sizeof(int));
		s->inst_order[j] = calloc((size_t)a->ninst, sizeof(int));
		if (!s->inst_bound[j] || !s->inst_order[j]) {
			fputs("bankc: out of memory\n", stderr);
			abort();
		}
		for (int i = 0; i < a->ninst; i++) {
			SimResult r;
			int64_t addr[WARP];
			int ib = 0;
			layout_inst_addrs(&rm, t, &a->inst[i], addr);
			layout_sim_inst(g, &rm, t, a, &a->inst[i], &r);
			ideal += r.ideal;
			rmw += r.wavefronts;
			if (a->op.kind == OP_CPASYNC)
				ib = r.ideal;
			else
				for (int k = 0; k < r.nphase; k++)
					ib += phase_bound(g, gran, bytes, addr, r.phase[k].lanes);
			s->inst_bound[j][i] = ib;
			bound += ib;
		}
		/* bit-reversed order: neighbouring instructions of a loop are
		 * alike, so a spread sample meets a layout's conflicts sooner */
		int bits = 0, k = 0;
		while ((1 << bits) < a->ninst)
			bits++;
		for (int x = 0; x < (1 << bits); x++) {
			int rev = 0;
			for (int b = 0; b < bits; b++)
				rev |= (x >> b & 1) << (bits - 1 - b);
			if (rev < a->ninst)
				s->inst_order[j][k++] = rev;
		}
		s->acc_ideal[j] = ideal;
		s->acc_bound[j] = bound;
		s->lower_bound += ideal * a->weight;
		s->aligned_bound += bound * a->weight;
		excess[j] = (rmw - bound) * a->weight;
	}
	/* cost the accesses that conflict most under row-major first: a bad
	 * candidate shows itself soonest there */
	for (int j = 0; j < t->nacc; j++) {
		int k = j;
		while (k > 0 && excess[s->acc_order[k - 1]] < excess[j]) {
			s->acc_order[k] = s->acc_order[k - 1];
			k--;
		}
		s->acc_order[k] = j;
	}
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
static int cmp_cand(const Tile *t, const Cand *a, const Cand *b)
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
	return a->order < b->order ? -1 : a->order > b->order;
}

typedef struct {
	const Tile *t;
	const Geom *g;
	const SolveOpts *o;
	Solution *s;
	long order;         /* index of the next layout considered */
	bool count_only;    /* count the layouts, cost none */
	long counted;
	const Layout *target;   /* count_only: find this layout's index */
	long target_index;
	const Layout *seeds;    /* costed before the enumeration: skip them */
	int nseeds;
} Search;

static void keep(Search *se, const Cand *c)
{
	Solution *s = se->s;
	int top = se->o->top;
	int i = s->ntop;
	if (i == top) {
		if (cmp_cand(se->t, c, &s->top[top - 1]) >= 0)
			return;
		i--;
	}
	while (i > 0 && cmp_cand(se->t, c, &s->top[i - 1]) < 0) {
		s->top[i] = s->top[i - 1];
		i--;
	}
	s->top[i] = *c;
	if (s->ntop < top)
		s->ntop++;
}

/* Can a candidate whose final wavefronts will be at least `wave` still be
 * kept?  Not once the ranking is full and the last kept one beats it; a
 * candidate with the same key loses the tie, being enumerated later. */
static bool worse_than_kept(const Search *se, const Cand *c, int64_t wave)
{
	const Solution *s = se->s;
	if (se->o->exhaustive || s->ntop < se->o->top)
		return false;
	Cand probe = *c;
	probe.wave = wave;
	return cmp_cand(se->t, &probe, &s->top[s->ntop - 1]) > 0;
}

/* Cost a legal layout, enumerated as the order-th; stops early (returns
 * false) once it cannot be kept. */
static bool evaluate(Search *se, const Layout *l, long order, Cand *c)
{
	const Tile *t = se->t;
	Layout copy = *l;           /* l may point into c */
	memset(c, 0, sizeof *c);
	c->l = copy;
	l = &c->l;
	c->bytes = layout_bytes(l, t);
	c->arith = layout_arith(l);
	c->order = order;
	/* branch and bound: what is costed so far plus the bound of what is
	 * not yet costed must stay within what the ranking keeps */
	int64_t rest = se->s->aligned_bound;
	for (int jj = 0; jj < t->nacc; jj++) {
		int j = se->s->acc_order[jj];
		const Access *a = &t->acc[j];
		const int *ib = se->s->inst_bound[j];
		for (int ii = 0; ii < a->ninst; ii++) {
			int i = se->s->inst_order[j][ii];
			SimResult r;
			layout_sim_inst(se->g, l, t, a, &a->inst[i], &r);
			c->acc_wave[j] += r.wavefronts;
			c->wave += (int64_t)r.wavefronts * a->weight;
			rest -= (int64_t)ib[i] * a->weight;
			if ((ii == 0 || r.wavefronts > ib[i]) &&
			    worse_than_kept(se, c, c->wave + rest))
				return false;
		}
	}
	c->blocks = solve_blocks(t, c->bytes);
	return true;
}

void solve_cost(const Tile *t, const Geom *g, const Layout *l, Cand *c)
{
	SolveOpts o = {1, true};
	Solution s = {0};
	bounds(g, t, &s);
	Search se = {.t = t, .g = g, .o = &o, .s = &s};
	evaluate(&se, l, 0, c);
	solve_free(&s);
}

static void consider(Search *se, const Layout *l)
{
	const char *why;
	long order = se->order++;
	if (se->count_only) {
		se->counted++;
		if (se->target && se->target_index < 0 &&
		    layout_same(l, se->target))
			se->target_index = order;
		return;
	}
	for (int i = 0; i < se->nseeds; i++)
		if (layout_same(l, &se->seeds[i]))
			return;                 /* costed already */
	if (!layout_legal(l, se->t, se->s->budget, &why)) {
		se->s->illegal++;
		return;
	}
	Cand c;
	if (evaluate(se, l, order, &c)) {
		se->s->evaluated++;
		keep(se, &c);
	} else {
		se->s->cut++;
	}
}

/* Can any layout of a family with at least `arith` operations and `bytes`
 * of footprint still be kept?  The best it could do is the certified
 * bound. */
static bool family_can_help(const Search *se, int64_t bytes, int arith)
{
	const Solution *s = se->s;
	if (se->count_only || se->o->exhaustive || s->ntop < se->o->top)
		return true;
	Cand ideal = {0};
	ideal.wave = s->aligned_bound;
	ideal.bytes = bytes;
	ideal.arith = arith;
	ideal.order = se->order;    /* it would come later, losing ties */
	return cmp_cand(se->t, &ideal, &s->top[s->ntop - 1]) < 0;
}

/* ---- the families ------------------------------------------------------------ */

static void enumerate_pad(Search *se, bool swap)
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
		consider(se, &l);
	}
}

static void enumerate_skew(Search *se, bool swap)
{
	Layout l = layout_base(se->t, L_SKEW, swap);
	int k = l.scols / l.gran;
	for (int s = 1; s < k && s <= 256; s++) {
		l.skew = s;
		consider(se, &l);
	}
}

static void enumerate_swizzle(Search *se, bool swap)
{
	const Tile *t = se->t;
	Layout l = layout_base(t, L_SWIZZLE, swap);
	int window = log2ceil(se->g->banks * se->g->bank_bytes);
	int top = log2ceil(layout_stage_bytes(&l, t));
	int m0 = log2ceil(tile_granule(t));
	for (int m = m0 < 2 ? 2 : m0; m < window; m++)
		for (int b = 1; m + b <= window; b++)
			for (int s = b; m + s + b <= top; s++) {
				l.M = m, l.B = b, l.S = s;
				consider(se, &l);
			}
}

/* GF(2)-linear maps from row bits into the chunk bits that pick banks:
 * chunk' = chunk ^ (x[0] * r0 ^ x[1] * r1 ^ ...).  Every map is searched
 * when there are at most XOR_LIMIT; otherwise each row bit maps to one
 * chunk bit or none (the family CuTe's and Triton's swizzles belong to),
 * over as many low row bits as that limit allows. */
static void enumerate_xor(Search *se, bool swap)
{
	const Tile *t = se->t;
	Layout l = layout_base(t, L_XOR, swap);
	int k = l.scols / l.gran;
	int chunk_bytes = (int)(l.gran * tile_elem_bytes(t));
	int window = se->g->banks * se->g->bank_bytes;
	if (l.scols % l.gran)
		return;
	/* the chunk bits that may flip: the power of two dividing the row's
	 * chunk count, no wider than the bank window */
	int span = 1;
	while (k % (span * 2) == 0 && span * 2 * chunk_bytes <= window)
		span *= 2;
	int cb = log2ceil(span);
	if (cb == 0)
		return;
	int nb = log2ceil(l.srows);
	if (nb > MAX_XOR_BITS)
		nb = MAX_XOR_BITS;
	bool full = true;
	int radix = 1 << cb;
	double count = 1;
	for (int i = 0; i < nb; i++)
		count *= radix;
	if (count > XOR_LIMIT) {
		full = false;
		radix = cb + 1;
		for (count = 1; nb > 0; nb--) {
			count = 1;
			for (int i = 0; i < nb; i++)
				count *= radix;
			if (count <= XOR_LIMIT)
				break;
		}
	}
	l.nx = nb;
	int digit[MAX_XOR_BITS] = {0};
	se->s->xor_full = full;
	se->s->xor_bits = nb;
	for (;;) {
		int i = 0;                      /* next map, mixed radix */
		while (i < nb && ++digit[i] == radix)
			digit[i++] = 0;
		if (i == nb)
			return;                     /* back at the all-zero map */
		for (int b = 0; b < nb; b++)
			l.x[b] = full ? (uint32_t)digit[b]
			     : digit[b] ? 1u << (digit[b] - 1) : 0;
		consider(se, &l);
	}
}

static void enumerate_all(Search *se);

/* A layout costed before the search, so that the bound cuts from the
 * start: padding by one granule, which often meets the bound or comes
 * near it.  It keeps its place in the enumeration order, so ties resolve
 * as without it.  (The swizzles, enumerated first, need no seed.) */
static int make_seeds(const Tile *t, int64_t budget, Layout *out)
{
	const char *why;
	int es = (int)tile_elem_bytes(t), gran = tile_granule(t);
	Layout l = layout_base(t, L_PAD, false);
	l.pitch = l.scols + (gran + es - 1) / es;
	if (!layout_legal(&l, t, budget, &why))
		return 0;
	out[0] = l;
	return 1;
}

void solve_layout(const Tile *t, const Geom *g, const SolveOpts *o,
                  Solution *s)
{
	memset(s, 0, sizeof *s);
	s->top = calloc((size_t)o->top, sizeof *s->top);
	if (!s->top) {
		fputs("bankc: out of memory\n", stderr);
		abort();
	}
	s->budget = (t->given & (1u << K_BUDGET)) ? t->budget
	                                           : tab_arch[t->arch].smem_block;
	bounds(g, t, s);
	Layout rm = layout_rowmajor(t);
	s->blocks_rowmajor = solve_blocks(t, layout_bytes(&rm, t));
	Layout seeds[1];
	int nseeds = o->exhaustive ? 0 : make_seeds(t, s->budget, seeds);
	Search se = {.t = t, .g = g, .o = o, .s = s, .seeds = seeds};
	for (int i = 0; i < nseeds; i++) {
		Search find = {.t = t, .g = g, .o = o, .s = s, .count_only = true,
		               .target = &seeds[i], .target_index = -1};
		enumerate_all(&find);
		Cand c;
		if (find.target_index >= 0 &&
		    evaluate(&se, &seeds[i], find.target_index, &c)) {
			s->evaluated++;
			keep(&se, &c);
		}
		se.nseeds = i + 1;
	}
	enumerate_all(&se);
	s->found = s->ntop > 0;
	if (s->found)
		s->best = s->top[0];
}

bool solve_feasible(const Tile *t, const Src *src, const Geom *g, FILE *diag)
{
	SolveOpts o = {1, true};
	Solution s = {0};
	Search se = {.t = t, .g = g, .o = &o, .s = &s, .count_only = true};
	enumerate_all(&se);
	double insts = 0;
	for (int j = 0; j < t->nacc; j++)
		insts += t->acc[j].ninst;
	if (insts * (double)se.counted <= SOLVE_WORK_LIMIT)
		return true;
	diag_report(diag, src, t->pos, "tile '%s' is too large to search: %.0f "
	            "warp instructions x %ld layouts could take %.0f simulations "
	            "(limit %.0f); narrow it with 'allow' (for example 'allow pad "
	            "swizzle;') or fewer instructions", t->name, insts, se.counted,
	            insts * (double)se.counted, SOLVE_WORK_LIMIT);
	return false;
}

bool solve_feasible_all(const Unit *u, const Src *src, int n, const Geom *g,
                        FILE *diag)
{
	bool ok = true;
	for (int i = 0; i < n; i++)
		for (int k = 0; k < u[i].ntiles; k++)
			ok &= solve_feasible(&u[i].tiles[k], &src[i], g, diag);
	return ok;
}

/* Every family; the order decides ties (the earlier wins) and how soon
 * the bound starts cutting. */
static void enumerate_all(Search *se)
{
	const Tile *t = se->t;
	Layout rm = layout_rowmajor(t);
	int64_t base = layout_bytes(&rm, t);
	consider(se, &rm);
	Layout swapped = layout_base(t, L_ROWMAJOR, true);
	consider(se, &swapped);
	/* the swizzles first: small, and where most tiles find their bound,
	 * after which the larger families are cut short or skipped */
	for (int sw = 0; sw < 2; sw++)
		if (family_can_help(se, base, 3))
			enumerate_swizzle(se, sw);
	for (int sw = 0; sw < 2; sw++) {
		if (family_can_help(se, base, 3))
			enumerate_xor(se, sw);
		if (family_can_help(se, base, 3))
			enumerate_skew(se, sw);
	}
	for (int sw = 0; sw < 2; sw++)
		if (family_can_help(se, base + 1, 0))
			enumerate_pad(se, sw);
}

void solve_free(Solution *s)
{
	view_free(s->view);
	s->view = NULL;
	free(s->top);
	s->top = NULL;
	for (int j = 0; j < MAX_ACCESSES; j++) {
		free(s->inst_bound[j]);
		free(s->inst_order[j]);
		s->inst_bound[j] = NULL;
		s->inst_order[j] = NULL;
	}
}
