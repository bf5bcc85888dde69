/* Instruction classes: warp instructions that cost the same under every
 * layout of a family, merged so that the search simulates one of them for
 * all.  Loops make many instructions alike: the same instruction issued
 * again (KEY_EXACT, true for every layout), or the same pattern moved by
 * whole rows and columns.  A layout that maps such a move to a constant
 * shift of every address by a multiple of the bank width (of 128 bytes for
 * cp.async, whose cost is its 128-byte segments) rotates the banks and
 * keeps which lanes share a word, so the cost is the same:
 *
 * - row-major and pad (KEY_GRID): offset r * P + c moves by (i P + j) E
 *   bytes for a move of i rows and j columns, a multiple of Q whenever i
 *   and j are multiples of Q / E (any move when E >= Q);
 * - Swizzle<B,M,S> (KEY_LINEAR): it changes bits below M+S+B from bits
 *   below M+S+B only, so a move of the linear byte offset by a multiple of
 *   2^(M+S+B) moves the swizzled offset by the same.
 *
 * The classes also carry what the search needs to cut a candidate short:
 * each one's aligned bound and its row-major excess over it (costed most
 * conflicted first). */
#include <stdlib.h>
#include <string.h>

#include "bankc.h"
#include "solve/solve.h"

/* Words an instruction's phase wants, grouped by their place inside the
 * granule (the largest vector, which every legal layout keeps whole and
 * aligned): a layout can move granules, never words within them, so words
 * of one class can only reach banks/(granule/bank_bytes) banks. */
int solve_phase_bound(const Geom *g, int gran, int bytes, const int64_t *addr,
                      uint32_t lanes)
{
	if (!lanes)
		return 0;
	int per_word = gran / g->bank_bytes;
	if (per_word < 2)
		return 1;
	int reach = g->banks / gcd_int(g->banks, per_word);    /* banks a class
	                                                     * can use */
	/* the distinct words: a small open-addressed set (at most 128) */
	int64_t set[256];
	uint8_t used[256] = {0};
	int best = 1;
	int count[32] = {0};
	for (int n = 0; n < WARP; n++) {
		if (!(lanes >> n & 1))
			continue;
		for (int64_t w = addr[n] / g->bank_bytes;
		     w <= (addr[n] + bytes - 1) / g->bank_bytes; w++) {
			unsigned h = (unsigned)(((uint64_t)w * 0x9E3779B97F4A7C15ull) >> 56);
			while (used[h] && set[h] != w)
				h = (h + 1) & 255;
			if (used[h])
				continue;
			used[h] = 1;
			set[h] = w;
			int cls = (int)(w % per_word);
			int need = (++count[cls % 32] + reach - 1) / reach;
			if (need > best)
				best = need;
		}
	}
	return best;
}

enum { KEY_MAX = 4 + 2 * WARP };

/* The key of one instruction: equal keys, equal cost under the family. */
static int key_of(const Tile *t, const Geom *g, SolveKey key, bool swap,
                  int k, int acc, const Inst *in, int64_t *b)
{
	const Access *a = &t->acc[acc];
	int64_t es = tile_elem_bytes(t);
	int bytes = (int)(a->vec * es);
	int n = 0;
	/* a matrix op's cost: its phases of 8 row addresses (an m16n16
	 * matrix has two) */
	b[n++] = a->op.kind | (op_is_matrix(a->op) ? op_rows8(a->op) : 0) << 4 |
	         (int64_t)bytes << 8;
	b[n++] = in->mask;
	int64_t q = a->op.kind == OP_CPASYNC ? 128 : g->bank_bytes;
	int first = -1;
	int64_t r0 = 0, c0 = 0, o0 = 0;
	int64_t scols = swap ? t->rows : t->cols;
	/* rows count through the stages (stage s's row r is s * rows + r):
	 * a move keeps the cost only within the stages, so each lane's stage
	 * is part of the key and the move is of the rows within them */
	bool staged = t->stages > 1 && key != KEY_EXACT;
	for (int l = 0; l < WARP; l++) {
		if (!(in->mask >> l & 1))
			continue;
		int64_t row = in->lane[l].row % t->rows;
		if (staged)
			b[n++] = in->lane[l].row / t->rows;
		int64_t sr = swap ? in->lane[l].col : row;
		int64_t sc = swap ? row : in->lane[l].col;
		int64_t o = (sr * scols + sc) * es;
		if (first < 0) {
			first = l;
			r0 = sr, c0 = sc, o0 = o;
			if (key == KEY_GRID) {
				int64_t per = q > es ? q / es : 1;
				b[n++] = sr % per;
				b[n++] = sc % per;
			} else if (key == KEY_LINEAR) {
				int64_t period = (int64_t)1 << k;
				if (period < q)
					period = q;
				b[n++] = o % period;
			}
		}
		switch (key) {
		case KEY_EXACT:
			b[n++] = (int64_t)in->lane[l].row << 32 | (uint32_t)in->lane[l].col;
			break;
		case KEY_GRID:
			b[n++] = (sr - r0) * 4 * MAX_DIM + (sc - c0);
			break;
		case KEY_LINEAR:
			b[n++] = o - o0;
			break;
		}
	}
	return n;
}

static uint64_t hash_key(const int64_t *b, int n)
{
	uint64_t h = 0x9E3779B97F4A7C15ull ^ (uint64_t)n;
	for (int i = 0; i < n; i++) {
		h ^= (uint64_t)b[i];
		h *= 0xBF58476D1CE4E5B9ull;
		h ^= h >> 29;
	}
	return h;
}

typedef struct {
	int cls, acc;
	int64_t n;
} Triple;

static int cmp_triple(const void *x, const void *y)
{
	const Triple *a = x, *b = y;
	if (a->cls != b->cls)
		return a->cls < b->cls ? -1 : 1;
	return (a->acc > b->acc) - (a->acc < b->acc);
}

typedef struct {
	SolveClass c;
	int first;          /* the first member's place, for a stable order */
	uint32_t spread;    /* the same, bit-reversed */
} Ranked;

static uint32_t bitrev(uint32_t v)
{
	v = (v >> 1 & 0x55555555u) | (v & 0x55555555u) << 1;
	v = (v >> 2 & 0x33333333u) | (v & 0x33333333u) << 2;
	v = (v >> 4 & 0x0f0f0f0fu) | (v & 0x0f0f0f0fu) << 4;
	v = (v >> 8 & 0x00ff00ffu) | (v & 0x00ff00ffu) << 8;
	return v >> 16 | v << 16;
}

static int cmp_ranked(const void *x, const void *y)
{
	const Ranked *a = x, *b = y;
	if (a->c.excess != b->c.excess)
		return a->c.excess > b->c.excess ? -1 : 1;
	if (a->c.weight != b->c.weight)
		return a->c.weight > b->c.weight ? -1 : 1;
	/* bit-reversed: neighbouring instructions of a loop are alike, so a
	 * spread sample meets a layout's conflicts sooner */
	return (a->spread > b->spread) - (a->spread < b->spread);
}

/* One instruction under row-major: its phases, cost, ideal and aligned
 * bound (the phases stored from out->ph[out->nph] on). */
/* Atomics serialise the lanes on one address (rule 10), which no layout
 * can part: a phase takes at least the most lanes on one word, twice for
 * compare-and-swap. */
static int atom_bound(Op op, const int64_t *addr, uint32_t lanes)
{
	if (op.aop == AOP_ADD1)
		return lanes != 0;  /* lanes on one word count once */
	int most = 0;
	for (int n = 0; n < WARP; n++) {
		if (!(lanes >> n & 1))
			continue;
		int same = 0;
		for (int m = 0; m < WARP; m++)
			same += (lanes >> m & 1) && addr[m] == addr[n];
		if (same > most)
			most = same;
	}
	return (op.aop == AOP_CAS ? 2 : 1) * most;
}

static void rm_cost(const Tile *t, const Geom *g, int acc, const Inst *in,
                    SolveClasses *out, SolveClass *x, int *cost)
{
	const Access *a = &t->acc[acc];
	Layout rm = layout_rowmajor(t);
	int64_t addr[WARP];
	SimResult r;
	layout_inst_addrs(&rm, t, in, addr);
	layout_sim_inst(g, &rm, t, a, in, &r);
	*cost = x->rm = r.wavefronts;
	int gran = tile_granule(t);
	int bytes = (int)(a->vec * tile_elem_bytes(t));
	if (out->nph + r.nphase > out->phcap) {
		out->phcap = 2 * out->phcap + r.nphase;
		out->ph = xrealloc(out->ph, (size_t)out->phcap * sizeof *out->ph);
	}
	x->ph = out->nph;
	x->nph = 0;
	x->ib = 0;
	x->ideal = r.ideal;
	for (int k = 0; k < r.nphase; k++) {
		const Phase *p = &r.phase[k];
		int b = a->op.kind == OP_CPASYNC ? p->ideal
		      : a->op.kind == OP_ATOM ? atom_bound(a->op, addr, p->lanes)
		      : solve_phase_bound(g, gran, bytes, addr, p->lanes);
		out->ph[out->nph++] = (SolvePhase){p->lanes, p->wavefronts, p->ideal, b};
		x->nph++;
		x->ib += b;
	}
}

void solve_classes(const Tile *t, const Geom *g, SolveKey key, bool swap,
                   int k, const SolveClasses *from, SolveClasses *out)
{
	/* the members: every instruction, or the classes of `from` */
	int nin = 0;
	if (from)
		nin = from->n;
	else
		for (int j = 0; j < t->nacc; j++)
			nin += t->acc[j].ninst;
	int cap = 16;
	while (cap < 2 * nin)
		cap *= 2;
	int *slot = xcalloc((size_t)cap, sizeof *slot);
	memset(slot, 0xff, (size_t)cap * sizeof *slot);
	Ranked *cl = xcalloc((size_t)nin, sizeof *cl);
	Triple *tr = NULL;
	int ntr = 0, ncl = 0, trcap = 0;
	int64_t kb[KEY_MAX], kc[KEY_MAX];
	for (int m = 0, j = 0, i = 0; m < nin; m++) {
		int acc;
		const Inst *in;
		if (from) {
			acc = from->c[m].acc;
			in = from->c[m].in;
		} else {
			while (i == t->acc[j].ninst)
				j++, i = 0;
			acc = j;
			in = &t->acc[j].inst[i++];
			if (!in->mask)
				continue;           /* no phase: no cost, no ideal */
		}
		int n = key_of(t, g, key, swap, k, acc, in, kb);
		uint64_t h = hash_key(kb, n);
		int s = (int)(h & (uint64_t)(cap - 1)), c;
		for (;; s = (s + 1) & (cap - 1)) {
			c = slot[s];
			if (c < 0)
				break;
			if (cl[c].c.hash != h)
				continue;
			int n2 = key_of(t, g, key, swap, k, cl[c].c.acc, cl[c].c.in, kc);
			if (n2 == n && memcmp(kb, kc, (size_t)n * sizeof *kb) == 0)
				break;
		}
		if (c < 0) {
			c = slot[s] = ncl++;
			/* a simulation's time follows the words it looks at */
			const Access *ac = &t->acc[acc];
			int units = ac->op.kind == OP_CPASYNC ? 1
			          : (int)((ac->vec * tile_elem_bytes(t) + 3) / 4);
			cl[c].c = (SolveClass){.acc = acc, .in = in, .hash = h,
			                       .units = units};
			cl[c].first = m;
			cl[c].spread = bitrev((uint32_t)m);
		}
		if (from) {
			const SolveClass *f = &from->c[m];
			cl[c].c.weight += f->weight;
			cl[c].c.bound += f->bound;
			cl[c].c.excess += f->excess;
		}
		int add = from ? from->c[m].ncnt : 1;
		if (ntr + add > trcap) {
			trcap = trcap ? 2 * trcap + add : 64 + add;
			tr = xrealloc(tr, (size_t)trcap * sizeof *tr);
		}
		if (from)
			for (int q = 0; q < add; q++)
				tr[ntr++] = (Triple){c, from->cnt[from->c[m].cnt + q].acc,
				                     from->cnt[from->c[m].cnt + q].n};
		else    /* an instruction counts as often as it runs */
			tr[ntr++] = (Triple){c, acc, in->weight};
	}
	free(slot);
	/* members per access, merged */
	if (ntr)
		qsort(tr, (size_t)ntr, sizeof *tr, cmp_triple);
	out->cnt = xcalloc((size_t)ntr, sizeof *out->cnt);
	out->ncnt = 0;
	for (int q = 0; q < ntr; q++) {
		Ranked *r = &cl[tr[q].cls];
		if (q == 0 || tr[q].cls != tr[q - 1].cls) {
			r->c.cnt = out->ncnt;
			r->c.ncnt = 0;
		}
		if (q > 0 && tr[q].cls == tr[q - 1].cls && tr[q].acc == tr[q - 1].acc) {
			out->cnt[out->ncnt - 1].n += tr[q].n;
			continue;
		}
		out->cnt[out->ncnt++] = (SolveAccCount){tr[q].acc, tr[q].n};
		r->c.ncnt++;
	}
	free(tr);
	out->ph = NULL;
	out->nph = out->phcap = 0;
	if (!from) {        /* the exact classes: phases, weights, bounds */
		for (int c = 0; c < ncl; c++) {
			SolveClass *x = &cl[c].c;
			int cost;
			rm_cost(t, g, x->acc, x->in, out, x, &cost);
			for (int q = 0; q < x->ncnt; q++)
				x->weight += out->cnt[x->cnt + q].n *
				             t->acc[out->cnt[x->cnt + q].acc].weight;
			x->bound = x->weight * x->ib;
			x->excess = x->weight * (cost - x->ib);
		}
	}
	qsort(cl, (size_t)ncl, sizeof *cl, cmp_ranked);
	out->c = xcalloc((size_t)ncl, sizeof *out->c);
	out->n = ncl;
	out->bound = 0;
	for (int c = 0; c < ncl; c++) {
		out->c[c] = cl[c].c;
		out->bound += cl[c].c.bound;
	}
	free(cl);
}

void solve_classes_free(SolveClasses *c)
{
	free(c->c);
	free(c->cnt);
	free(c->ph);
	memset(c, 0, sizeof *c);
}
