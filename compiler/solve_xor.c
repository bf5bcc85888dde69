/* The xor family: chunk' = chunk ^ f(r) on the stored row r's chunks of
 * g = max(granule, bank width) bytes, f GF(2)-linear from the row's bits
 * into the chunk bits that pick banks: f(r) = x_0 r_0 ^ x_1 r_1 ^ ...,
 * every x_i below the span (the power of two above them all, at most the
 * bank window's chunks and the row's).  The chunks of the row's whole
 * span-blocks move, within their block; any after them keep their place.
 *
 * There are (span)^(row bits) maps, far too many to cost one by one, so
 * the search is a branch and bound over the masks, row bit by row bit:
 * once x_0 .. x_{d-1} are chosen, f is known on rows below 2^d, and the
 * words those rows hold have known banks.  A phase's cost can only grow
 * as more of its words get banks, so what is known bounds it from below.
 *
 * Where a word's bank is linear in f (the row's words a power of two or a
 * multiple of the banks, no partial block), more is known: bank = b ^
 * (f(r) << k), so words of rows that agree above bit d differ in bank by
 * a known xor, and their collisions are already decided, whatever the
 * higher masks; and a phase whose rows are all moved by xor with one t
 * costs the same (every bank moves by f(t)), so phases are kept once per
 * such translate (canonical: rows and banks xor their first word's),
 * weights summed.  Elsewhere only rows below 2^d count, and phases merge
 * only when equal.
 *
 * Children are tried best bound first; a subtree is cut when its bound,
 * the least arithmetic of its maps and the first of them in the canonical
 * order (the masks, x_0 first) cannot enter the ranking.  Each leaf the
 * bound lets through is costed by the simulator itself, so the answer
 * rests on the simulator and on the bound being a lower bound (the tests
 * check both against costing every map of small tiles). */
#include <stdlib.h>
#include <string.h>

#include "bankc.h"

enum { XOR_MAX_PHASES = 1 << 16 };

typedef struct {
	uint32_t r;         /* stored row (linear: xor the phase's first word's) */
	uint32_t vr;        /* the same with its bits in the search's order */
	int32_t c;          /* generic: chunk */
	uint16_t bank;      /* linear: bank, xor the first word's */
	uint8_t boff;       /* generic: byte offset in the chunk */
	uint8_t bytes;      /* generic: bytes of the lane */
} Item;

typedef struct {
	int item, nitem;    /* items, sorted by row */
	int64_t weight;
	int pb;             /* aligned bound, the largest of its members' */
	bool cpasync;       /* generic: costed in 128-byte segments */
	bool byword;        /* generic: items are distinct words, not lanes */
	int cur;            /* cost of what is known so far */
	uint32_t active;    /* depths at which more becomes known */
} XPhase;

typedef struct {
	SolveSearch *se;
	const Tile *t;
	bool linear, noprune;
	bool dive;          /* the best child only, down to one map */
	int nb;             /* row bits */
	int span;           /* masks below it */
	int top;            /* a mask must have this bit (0: none) */
	bool tail;          /* this span leaves columns in place */
	int k;              /* linear: log2 of the words of a chunk */
	int bmask;          /* banks - 1 */
	int64_t pb_row;     /* generic: bytes of a stored row */
	int64_t pw_row;     /* ... and words, when whole */
	int gwords;         /* words of a chunk */
	int gbytes;         /* chunk bytes */
	int tchunks;        /* generic: chunks that move */
	Layout l;           /* the map being built */
	int sigma[MAX_XOR_BITS];    /* the row bit decided at each depth */
	uint32_t vx[MAX_XOR_BITS];  /* the masks in that order */
	XPhase *ph;
	int nph;
	Item *it;
	int *act[MAX_XOR_BITS], nact[MAX_XOR_BITS];
	int *saved[MAX_XOR_BITS];
	int64_t lb;         /* the node's bound */
	uint32_t forced;    /* row bits whose masks cannot be 0 (forced_bits) */
	int reforce;        /* times it was computed again this run */
	uint32_t tlo[256], thi[256];    /* f on row bits 0-7 and 8-15 */
	int64_t ops;        /* elementary steps, for the work count */
} Xor;

/* f of a row whose set bits are all decided. */
static inline uint32_t f_of(const Xor *x, uint32_t r)
{
	return x->tlo[r & 255] ^ x->thi[(r >> 8) & 255];
}

static void set_mask(Xor *x, int d, uint32_t v)
{
	x->vx[d] = v;
	x->l.x[x->sigma[d]] = v;
	if (d < 8)
		for (int j = 0; j < 1 << d; j++)
			x->tlo[(1 << d) + j] = x->tlo[j] ^ v;
	else
		for (int j = 0; j < 1 << (d - 8); j++)
			x->thi[(1 << (d - 8)) + j] = x->thi[j] ^ v;
}

/* ---- costs of what is known ------------------------------------------------ */

/* Linear: the most words of one bank in a group, rows whose bits above
 * d agree, banks under f on the bits below d. */
static int linear_initial(const Xor *x, const XPhase *p)
{
	int best = 0, cnt[64] = {0};
	const Item *it = x->it + p->item;
	for (int a = 0; a < p->nitem;) {
		int b = a;
		while (b < p->nitem && it[b].vr == it[a].vr)
			b++;
		for (int i = a; i < b; i++)
			if (++cnt[it[i].bank] > best)
				best = cnt[it[i].bank];
		for (int i = a; i < b; i++)
			cnt[it[i].bank] = 0;
		a = b;
	}
	return best;
}

/* Linear: deciding x_d merges the groups at depth d pairwise (bit d clear
 * and set); for each value v of x_d, out[v] is the phase's new bound. */
static void linear_children(Xor *x, const XPhase *p, int d, int nv, int v0,
                            int *out)
{
	const Item *it = x->it + p->item;
	uint32_t low = (1u << d) - 1;
	int cnt[64] = {0}, bcnt[64] = {0}, blist[32];
	for (int v = 0; v < nv; v++)
		out[v] = p->cur;
	for (int a = 0; a < p->nitem;) {
		uint32_t grp = it[a].vr >> (d + 1);
		int m = a, e = a;
		while (e < p->nitem && it[e].vr >> (d + 1) == grp)
			e++;
		while (m < e && !(it[m].vr >> d & 1))
			m++;
		if (m > a && m < e) {
			int nbl = 0;
			for (int i = a; i < m; i++)
				cnt[(it[i].bank ^ (f_of(x, it[i].vr & low) << x->k)) & x->bmask]++;
			for (int i = m; i < e; i++) {
				int b = (it[i].bank ^ (f_of(x, it[i].vr & low) << x->k)) &
				        x->bmask;
				if (!bcnt[b]++)
					blist[nbl++] = b;
			}
			for (int v = 0; v < nv; v++) {
				int y = (v0 + v) << x->k, best = out[v];
				for (int q = 0; q < nbl; q++) {
					int s = cnt[(blist[q] ^ y) & x->bmask] + bcnt[blist[q]];
					if (s > best)
						best = s;
				}
				out[v] = best;
			}
			x->ops += e - a + nv * nbl;
			for (int i = a; i < m; i++)
				cnt[(it[i].bank ^ (f_of(x, it[i].vr & low) << x->k)) & x->bmask] = 0;
			for (int q = 0; q < nbl; q++)
				bcnt[blist[q]] = 0;
		}
		a = e;
	}
}

/* A small set of word (or segment) numbers, emptied in O(1). */
typedef struct {
	int64_t v[256];
	uint32_t stamp[256], gen;
} WordSet;

static bool ws_add(WordSet *ws, int64_t w)
{
	unsigned h = (unsigned)(((uint64_t)w * 0x9E3779B97F4A7C15ull) >> 56);
	for (;; h = (h + 1) & 255) {
		if (ws->stamp[h] != ws->gen) {
			ws->stamp[h] = ws->gen;
			ws->v[h] = w;
			return true;
		}
		if (ws->v[h] == w)
			return false;
	}
}

static bool ws_has(const WordSet *ws, int64_t w)
{
	unsigned h = (unsigned)(((uint64_t)w * 0x9E3779B97F4A7C15ull) >> 56);
	for (;; h = (h + 1) & 255) {
		if (ws->stamp[h] != ws->gen)
			return false;
		if (ws->v[h] == w)
			return true;
	}
}

static void ws_clear(WordSet *ws)
{
	if (++ws->gen == 0) {
		memset(ws->stamp, 0, sizeof ws->stamp);
		ws->gen = 1;
	}
}

/* Generic: the words (segments for cp.async) of item i under mask value
 * f for its row; returns their number. */
static int item_words(const Xor *x, const XPhase *p, const Item *it,
                      uint32_t f, int64_t *w)
{
	int64_t c = it->c < x->tchunks ? (int64_t)(it->c ^ (int32_t)f) : it->c;
	int64_t a = it->r * x->pb_row + c * x->gbytes + it->boff;
	int64_t unit = p->cpasync ? 128 : x->se->g->bank_bytes;
	int n = 0;
	for (int64_t q = a / unit; q <= (a + it->bytes - 1) / unit; q++)
		w[n++] = q;
	return n;
}

/* Generic, rows of whole words (no word is in two rows), no cp.async:
 * the items are the phase's distinct words, so the counts need no set. */
static inline int word_bank(const Xor *x, const Item *it, uint32_t f)
{
	int64_t c = it->c < x->tchunks ? (int64_t)(it->c ^ (int32_t)f) : it->c;
	return (int)((it->r * x->pw_row + c * x->gwords + it->boff) & x->bmask);
}

static void word_children(Xor *x, const XPhase *p, int d, int nv, int v0,
                          int *out)
{
	const Item *it = x->it + p->item;
	int cnt[64] = {0}, base = 0, i = 0;
	for (; i < p->nitem && it[i].vr < 1u << d; i++) {
		int b = word_bank(x, &it[i], f_of(x, it[i].vr));
		if (++cnt[b] > base)
			base = cnt[b];
	}
	int first = i, last = i;
	while (last < p->nitem && it[last].vr < 2u << d)
		last++;
	uint32_t low = (1u << d) - 1;
	for (int v = 0; v < nv; v++) {
		int add[64] = {0}, best = base;
		for (i = first; i < last; i++) {
			uint32_t f = f_of(x, it[i].vr & low) ^ (uint32_t)(v0 + v);
			int b = word_bank(x, &it[i], f);
			if (cnt[b] + ++add[b] > best)
				best = cnt[b] + add[b];
		}
		out[v] = best > p->cur ? best : p->cur;
	}
	x->ops += (first + 1) + (int64_t)nv * (last - first + 1);
}

/* Generic: the rows below 2^d are known; deciding x_d adds those from
 * 2^d to 2^(d+1) (f = f(row - 2^d) ^ v).  The known part's words are
 * counted once, and each v adds its new rows' words that are not among
 * them (rows whose bytes are not whole words share a word; rows share
 * cp.async's segments): out[v] is the cost of the known part under v
 * (distinct words per bank; segments for cp.async). */
static void generic_children(Xor *x, const XPhase *p, int d, int nv, int v0,
                             int *out)
{
	static WordSet ws, wn;
	if (p->byword) {
		word_children(x, p, d, nv, v0, out);
		return;
	}
	const Item *it = x->it + p->item;
	int banks = x->se->g->banks;
	int cnt[64] = {0}, base = 0, nold = 0, i = 0;
	int64_t w[8];
	ws_clear(&ws);
	for (; i < p->nitem && it[i].vr < 1u << d; i++) {
		int n = item_words(x, p, &it[i], f_of(x, it[i].vr), w);
		for (int q = 0; q < n; q++)
			if (ws_add(&ws, w[q])) {
				nold++;
				int b = (int)(w[q] % banks);
				if (!p->cpasync && ++cnt[b] > base)
					base = cnt[b];
			}
	}
	if (p->cpasync)
		base = nold;
	int first = i, last = i;
	while (last < p->nitem && it[last].vr < 2u << d)
		last++;
	uint32_t low = (1u << d) - 1;
	for (int v = 0; v < nv; v++) {
		int add[64] = {0}, best = base, nnew = 0;
		ws_clear(&wn);
		for (i = first; i < last; i++) {
			uint32_t f = f_of(x, it[i].vr & low) ^ (uint32_t)(v0 + v);
			int n = item_words(x, p, &it[i], f, w);
			for (int q = 0; q < n; q++)
				if (!ws_has(&ws, w[q]) && ws_add(&wn, w[q])) {
					nnew++;
					int b = (int)(w[q] % banks);
					if (!p->cpasync && cnt[b] + ++add[b] > best)
						best = cnt[b] + add[b];
				}
		}
		if (p->cpasync)
			best = base + nnew;
		out[v] = best > p->cur ? best : p->cur;
	}
	x->ops += (first + 1) + (int64_t)nv * (last - first + 1);
}

/* The cost of the rows below 2^d, for the start. */
static int generic_initial(Xor *x, const XPhase *p)
{
	int out;
	if (p->nitem == 0)
		return 0;
	/* with d = 0 and v = 0, the rows below 2: a lower bound; the rows
	 * below 1 (row 0) is what is known */
	const Item *it = x->it + p->item;
	int banks = x->se->g->banks, cnt[64] = {0}, best = 0, n0 = 0;
	static WordSet ws;
	if (p->byword) {
		for (int i = 0; i < p->nitem && it[i].vr == 0; i++) {
			int b = word_bank(x, &it[i], 0);
			if (++cnt[b] > best)
				best = cnt[b];
		}
		return best;
	}
	int64_t w[8];
	ws_clear(&ws);
	for (int i = 0; i < p->nitem && it[i].vr == 0; i++) {
		int n = item_words(x, p, &it[i], 0, w);
		for (int q = 0; q < n; q++)
			if (ws_add(&ws, w[q])) {
				n0++;
				int b = (int)(w[q] % banks);
				if (++cnt[b] > best)
					best = cnt[b];
			}
	}
	out = p->cpasync ? n0 : best;
	return out;
}

static void phase_children(Xor *x, XPhase *p, int d, int nv, int v0, int *out)
{
	if (x->linear)
		linear_children(x, p, d, nv, v0, out);
	else
		generic_children(x, p, d, nv, v0, out);
}

/* ---- the phases ------------------------------------------------------------ */

static int log2floor(int64_t v)
{
	int k = 0;
	while ((2LL << k) <= v)
		k++;
	return k;
}

static int cmp_item(const void *a, const void *b)
{
	const Item *p = a, *q = b;
	if (p->vr != q->vr)
		return p->vr < q->vr ? -1 : 1;
	if (p->r != q->r)
		return p->r < q->r ? -1 : 1;
	if (p->c != q->c)
		return p->c < q->c ? -1 : 1;
	if (p->bank != q->bank)
		return p->bank < q->bank ? -1 : 1;
	if (p->boff != q->boff)
		return p->boff < q->boff ? -1 : 1;
	return (p->bytes > q->bytes) - (p->bytes < q->bytes);
}

static void sort_items(Item *it, int n)
{
	for (int i = 1; i < n; i++) {
		Item v = it[i];
		int j = i;
		while (j > 0 && cmp_item(&it[j - 1], &v) > 0) {
			it[j] = it[j - 1];
			j--;
		}
		it[j] = v;
	}
}

static uint64_t hash_items(const Item *it, int n, bool cp)
{
	uint64_t h = 0x9E3779B97F4A7C15ull ^ (uint64_t)n ^ (cp ? 1ull << 63 : 0);
	for (int i = 0; i < n; i++) {
		uint64_t v = (uint64_t)it[i].r << 40 ^ (uint64_t)(uint32_t)it[i].c << 8 ^
		             (uint64_t)it[i].bank << 20 ^ it[i].boff ^
		             (uint64_t)it[i].bytes << 58;
		h = (h ^ v) * 0xBF58476D1CE4E5B9ull;
		h ^= h >> 31;
	}
	return h;
}

static bool same_items(const Item *a, const Item *b, int n)
{
	for (int i = 0; i < n; i++)
		if (cmp_item(&a[i], &b[i]))
			return false;
	return true;
}

/* The order in which the row bits are decided.  Two words of a phase in
 * rows r and r' (the same bank under row-major, most likely to collide)
 * are set apart or not once every bit of r ^ r' is decided: the bits
 * that decide the most weight of such pairs, soonest, go first, so that
 * the bound rises near the root.  Any order is exact; this one is fast. */
typedef struct {
	uint32_t dr;
	int64_t w;
} Pair;

static int cmp_pair(const void *a, const void *b)
{
	const Pair *p = a, *q = b;
	if (p->w != q->w)
		return p->w > q->w ? -1 : 1;
	return (p->dr > q->dr) - (p->dr < q->dr);
}

static void order_bits(Xor *x)
{
	int nb = x->nb;
	int64_t *wd = calloc((size_t)1 << nb, sizeof *wd);
	if (!wd) {
		fputs("bankc: out of memory\n", stderr);
		abort();
	}
	int64_t pairs = 0;
	for (int p = 0; p < x->nph && pairs < 1 << 20; p++) {
		const XPhase *ph = &x->ph[p];
		const Item *it = x->it + ph->item;
		for (int i = 0; i < ph->nitem; i++)
			for (int j = i + 1; j < ph->nitem; j++) {
				uint32_t dr = it[i].r ^ it[j].r;
				if (dr)
					wd[dr] += ph->weight * (it[i].bank == it[j].bank ? 4 : 1);
			}
		pairs += (int64_t)ph->nitem * ph->nitem;
	}
	/* the row differences that weigh most, at most a few thousand */
	Pair *pl = malloc(((size_t)1 << nb) * sizeof *pl);
	if (!pl) {
		fputs("bankc: out of memory\n", stderr);
		abort();
	}
	int np = 0;
	for (uint32_t dr = 1; dr < 1u << nb; dr++)
		if (wd[dr])
			pl[np++] = (Pair){dr, wd[dr]};
	free(wd);
	if (np > 4096) {
		qsort(pl, (size_t)np, sizeof *pl, cmp_pair);
		np = 4096;
	}
	x->ops += pairs + ((int64_t)1 << nb) + (int64_t)nb * nb * np;
	uint32_t done = 0;
	for (int d = 0; d < nb; d++) {
		int best = -1;
		int64_t bc = -1, bp = -1;
		for (int b = 0; b < nb; b++) {
			if (done >> b & 1)
				continue;
			uint32_t with = done | 1u << b;
			int64_t complete = 0, part = 0;
			for (int q = 0; q < np; q++) {
				if (!(pl[q].dr >> b & 1))
					continue;
				if (!(pl[q].dr & ~with))
					complete += pl[q].w;
				else
					part += pl[q].w;
			}
			if (complete > bc || (complete == bc && part > bp))
				best = b, bc = complete, bp = part;
		}
		x->sigma[d] = best;
		done |= 1u << best;
	}
	free(pl);
}

/* Every phase of every instruction class as its words (linear) or lanes
 * (generic), merged; what cannot take part (cp.async whose segments the
 * maps cannot change, phases past the cap) is a constant of the bound. */
static bool build_phases(Xor *x)
{
	SolveSearch *se = x->se;
	const Tile *t = x->t;
	const Geom *g = se->g;
	bool swap = x->l.swap;
	int64_t es = tile_elem_bytes(t);
	int cap = 16;
	while (cap < 2 * XOR_MAX_PHASES)
		cap *= 2;
	int *slot = malloc((size_t)cap * sizeof *slot);
	x->ph = malloc(XOR_MAX_PHASES * sizeof *x->ph);
	int itcap = 1024;
	x->it = malloc((size_t)itcap * sizeof *x->it);
	if (!slot || !x->ph || !x->it) {
		fputs("bankc: out of memory\n", stderr);
		abort();
	}
	memset(slot, 0xff, (size_t)cap * sizeof *slot);
	x->nph = 0;
	int nit = 0;
	int64_t pw = x->pb_row / g->bank_bytes;
	for (int k = 0; k < se->exact.n; k++) {
		const SolveClass *cl = &se->exact.c[k];
		const Access *a = &t->acc[cl->acc];
		int bytes = (int)(a->vec * es);
		bool cp = a->op.kind == OP_CPASYNC;
		if (!solve_spend(se, 2)) {
			free(slot);
			return false;
		}
		for (int q = 0; q < cl->nph; q++) {
			const SolvePhase *sp = &se->exact.ph[cl->ph + q];
			uint32_t lanes = sp->lanes;
			if (!lanes)
				continue;
			int pbound = sp->bound;
			/* cp.async in the linear case: blocks of at most 128 bytes
			 * stay in their segment, so the cost is row-major's */
			if ((cp && x->linear) || x->nph == XOR_MAX_PHASES) {
				bool same = cp && x->span * x->gbytes <= 128;
				x->lb += cl->weight * (same ? sp->cost : pbound);
				continue;
			}
			Item tmp[WARP * 4];
			int n = 0;
			/* rows of whole words: the distinct words stand for the lanes */
			bool byword = !x->linear && !cp && x->pb_row % g->bank_bytes == 0;
			for (int ln = 0; ln < WARP; ln++) {
				if (!(lanes >> ln & 1))
					continue;
				int64_t sr = swap ? cl->in->lane[ln].col : cl->in->lane[ln].row;
				int64_t sc = swap ? cl->in->lane[ln].row : cl->in->lane[ln].col;
				int32_t c = (int32_t)(sc / x->l.gran);
				int boff = (int)(sc % x->l.gran * es);
				if (!x->linear && !byword) {
					tmp[n++] = (Item){.r = (uint32_t)sr, .vr = (uint32_t)sr, .c = c,
					                  .boff = (uint8_t)boff,
					                  .bytes = (uint8_t)bytes};
					continue;
				}
				int64_t rowbank = sr * pw;
				for (int wo = boff / g->bank_bytes;
				     wo <= (boff + bytes - 1) / g->bank_bytes; wo++) {
					Item w = {.r = (uint32_t)sr, .vr = (uint32_t)sr, .c = c,
					          .bank = (uint16_t)((rowbank ^ ((int64_t)c << x->k | wo)) &
					                             x->bmask),
					          .boff = (uint8_t)wo};
					int j;
					for (j = 0; j < n && (tmp[j].r != w.r || tmp[j].c != w.c ||
					                      tmp[j].boff != w.boff); j++)
						;
					if (j == n)
						tmp[n++] = w;
				}
			}
			if (x->linear) {
				/* canonical: rows and banks xor the first word's; the
				 * words' identity is no longer needed */
				uint32_t r0 = tmp[0].r;
				int b0 = tmp[0].bank;
				for (int i = 0; i < n; i++) {
					tmp[i].r ^= r0;
					tmp[i].vr = tmp[i].r;
					tmp[i].bank = (uint16_t)(tmp[i].bank ^ b0);
					tmp[i].c = 0;
					tmp[i].boff = 0;
				}
			} else if (!byword) {
				/* lanes on the same element are one */
				sort_items(tmp, n);
				int m = 0;
				for (int i = 0; i < n; i++)
					if (!m || cmp_item(&tmp[i], &tmp[m - 1]))
						tmp[m++] = tmp[i];
				n = m;
			}
			sort_items(tmp, n);
			uint64_t h = hash_items(tmp, n, cp);
			int s = (int)(h & (uint64_t)(cap - 1)), p;
			for (;; s = (s + 1) & (cap - 1)) {
				p = slot[s];
				if (p < 0 || (x->ph[p].nitem == n && x->ph[p].cpasync == cp &&
				              x->ph[p].byword == byword &&
				              same_items(x->it + x->ph[p].item, tmp, n)))
					break;
			}
			if (p < 0) {
				p = slot[s] = x->nph++;
				if (nit + n > itcap) {
					itcap = 2 * itcap + n;
					x->it = realloc(x->it, (size_t)itcap * sizeof *x->it);
					if (!x->it) {
						fputs("bankc: out of memory\n", stderr);
						abort();
					}
				}
				memcpy(x->it + nit, tmp, (size_t)n * sizeof *tmp);
				x->ph[p] = (XPhase){.item = nit, .nitem = n, .cpasync = cp,
				                    .byword = byword};
				nit += n;
			}
			x->ph[p].weight += cl->weight;
			if (pbound > x->ph[p].pb)
				x->ph[p].pb = pbound;
		}
	}
	free(slot);
	order_bits(x);
	/* what is known before any mask, and at which depths more is */
	for (int p = 0; p < x->nph; p++) {
		XPhase *ph = &x->ph[p];
		Item *it = x->it + ph->item;
		for (int i = 0; i < ph->nitem; i++) {
			uint32_t v = 0;
			for (int d = 0; d < x->nb; d++)
				v |= (it[i].r >> x->sigma[d] & 1) << d;
			it[i].vr = v;
		}
		sort_items(it, ph->nitem);
		ph->cur = x->linear ? linear_initial(x, ph) : generic_initial(x, ph);
		for (int i = 0; i < ph->nitem; i++) {
			/* generic: row i becomes known at the depth of its top bit;
			 * linear: two groups merge at the top bit where neighbouring
			 * rows (sorted) differ */
			uint32_t v = x->linear ? (i + 1 < ph->nitem ? it[i].vr ^ it[i + 1].vr : 0)
			                       : it[i].vr;
			if (v)
				ph->active |= 1u << log2floor(v);
		}
		int64_t best = ph->pb > ph->cur ? ph->pb : ph->cur;
		x->lb += ph->weight * best;
	}
	for (int d = 0; d < x->nb; d++) {
		x->act[d] = malloc((size_t)(x->nph ? x->nph : 1) * sizeof(int));
		x->saved[d] = malloc((size_t)(x->nph ? x->nph : 1) * sizeof(int));
		if (!x->act[d] || !x->saved[d]) {
			fputs("bankc: out of memory\n", stderr);
			abort();
		}
		x->nact[d] = 0;
		for (int p = 0; p < x->nph; p++)
			if (x->ph[p].active >> d & 1)
				x->act[d][x->nact[d]++] = p;
	}
	return true;
}

/* ---- the tree ---------------------------------------------------------------- */

static SolveCount128 pow128(int base, int e)
{
	SolveCount128 v = 1;
	while (e-- > 0)
		v *= (SolveCount128)base;
	return v;
}

/* Maps of this run whose masks begin with x_0 .. x_{len-1}. */
static SolveCount128 subtree(const Xor *x, int len)
{
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
		int e = 0;
		while ((1u << e) < l->x[i])
			e++;
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

/* Row bits whose mask cannot be 0 in any map that enters the ranking:
 * with x_b = 0 rows r and r ^ 2^b share f, and their words alone (in
 * the heaviest phases, as far as a fixed effort goes) already raise the
 * bound past the ranking's last.  Linear case only. */
static uint32_t forced_bits(Xor *x)
{
	const Solution *s = x->se->s;
	if (!x->linear || x->noprune || s->ntop < x->se->o->top)
		return 0;
	int64_t limit = s->top[s->ntop - 1].wave;
	uint32_t forced = 0;
	int cnt[64] = {0};
	for (int b = 0; b < x->nb; b++) {
		int64_t lb = x->lb, ops = 0;
		for (int p = 0; p < x->nph && ops < 1 << 16 && lb <= limit; p++) {
			const XPhase *ph = &x->ph[p];
			const Item *it = x->it + ph->item;
			int best = ph->cur;
			for (int i = 0; i < ph->nitem; i++) {
				int m = 0;
				uint32_t key = it[i].r & ~(1u << b);
				for (int j = 0; j < ph->nitem; j++)
					m += (it[j].r & ~(1u << b)) == key && it[j].bank == it[i].bank;
				if (m > best)
					best = m;
			}
			ops += ph->nitem * ph->nitem;
			int was = ph->pb > ph->cur ? ph->pb : ph->cur;
			lb += ph->weight * ((best > ph->pb ? best : ph->pb) - was);
		}
		(void)cnt;
		if (lb > limit)
			forced |= 1u << b;
		x->ops += ops;
	}
	return forced;
}

/* A candidate standing for every map with this prefix: the bound, the
 * least arithmetic of such maps, the first of them in the order. */
static bool subtree_can_enter(const Xor *x, int len, int64_t lb)
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
	probe.bytes = x->se->base_bytes;
	int cb = 0;
	while ((1 << cb) < x->span)
		cb++;
	probe.arith = least_arith(&probe.l, decided, x->forced, cb) + x->tail;
	probe.order = solve_order(&probe.l);
	return solve_ranks(x->se, &probe, lb);
}

static void leaf(Xor *x)
{
	SolveSearch *se = x->se;
	uint32_t all = 0;
	for (int i = 0; i < x->nb; i++)
		all |= x->l.x[i];
	if (!all || (x->top && !(all & (uint32_t)x->top)))
		return;                 /* not a map of this run */
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
		se->s->xor_searched++;
		return;
	}
	const char *why;
	if (!layout_legal(&x->l, x->t, se->s->budget, &why)) {
		se->s->illegal++;
		se->s->xor_searched++;
		return;
	}
	Cand c;
	if (solve_evaluate(se, &x->l, &se->exact, &c)) {
		se->s->evaluated++;
		se->s->xor_searched++;
		solve_keep(se, &c);
		/* a stricter ranking may force more masks (a few times a run) */
		if (x->reforce < 8) {
			x->reforce++;
			x->forced = forced_bits(x);
		}
	} else if (!se->stopped) {
		se->s->cut++;
		se->s->xor_searched++;
	}
}

static bool spend_ops(Xor *x)
{
	int64_t units = 1 + (x->ops >> 5);
	x->ops &= 31;
	return solve_spend(x->se, units);
}

static void dfs(Xor *x, int d)
{
	if (x->se->stopped)
		return;
	if (d == x->nb) {
		leaf(x);
		return;
	}
	int nv = x->span;
	int64_t lbv[64];
	int order[64], out[64];
	for (int v = 0; v < nv; v++)
		lbv[v] = x->lb;
	for (int q = 0; q < x->nact[d]; q++) {
		XPhase *p = &x->ph[x->act[d][q]];
		phase_children(x, p, d, nv, 0, out);
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
		set_mask(x, d, (uint32_t)v);
		if (!subtree_can_enter(x, d + 1, lbv[v])) {
			if (!x->dive)
				x->se->s->xor_searched += subtree(x, d + 1);
			continue;
		}
		/* descend: the phases active here take their bound for v */
		for (int i = 0; i < x->nact[d]; i++) {
			XPhase *p = &x->ph[x->act[d][i]];
			x->saved[d][i] = p->cur;
			phase_children(x, p, d, 1, v, out);
			set_mask(x, d, (uint32_t)v);
			p->cur = out[0];
		}
		x->lb = lbv[v];
		dfs(x, d + 1);
		x->lb = lb;
		for (int i = 0; i < x->nact[d]; i++)
			x->ph[x->act[d][i]].cur = x->saved[d][i];
	}
	set_mask(x, d, 0);
}

static void free_xor(Xor *x)
{
	free(x->ph);
	free(x->it);
	for (int d = 0; d < x->nb; d++) {
		free(x->act[d]);
		free(x->saved[d]);
	}
}

/* One run of the tree: maps below `span`, each having bit `top` in some
 * mask when top is not 0. */
static void run(SolveSearch *se, bool swap, int span, int top, bool noprune,
                bool dive)
{
	/* the dive's run, kept for the full search of the same run */
	Xor *x = se->xcache[swap];
	if (x && x->span == span && x->top == top) {
		x->noprune = noprune;
		x->dive = dive;
		x->forced = forced_bits(x);
		x->reforce = 0;
		if (!noprune && !subtree_can_enter(x, 0, x->lb)) {
			if (!dive)
				se->s->xor_searched += subtree(x, 0);
		} else {
			dfs(x, 0);
		}
		return;
	}
	x = calloc(1, sizeof *x);
	if (!x) {
		fputs("bankc: out of memory\n", stderr);
		abort();
	}
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
	x->nb = x->l.nx = log2floor(x->l.srows - 1) + (x->l.srows > 1);
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
	x->linear = !x->tail && x->pb_row % g->bank_bytes == 0 &&
	            (pw % g->banks == 0 || (pw & (pw - 1)) == 0);
	x->k = log2floor(gb / g->bank_bytes);
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
	if (build_phases(x)) {
		x->forced = forced_bits(x);
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
	free_xor(x);
	free(x);
}

void solve_xor_done(SolveSearch *se)
{
	for (int sw = 0; sw < 2; sw++)
		if (se->xcache[sw]) {
			free_xor(se->xcache[sw]);
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
	*nb = log2floor(l.srows - 1) + 1;
	if (*nb > MAX_XOR_BITS)
		return 0;
	int crow = log2floor(kc);
	*cmax = log2floor(window / gb);
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
