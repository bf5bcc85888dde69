/* The xor tree's bound: what the masks chosen so far tell about a
 * phase's cost.  Once the masks of some row bits are chosen, f is known on
 * the rows made of those bits, and the words those rows hold have known
 * banks; a phase's cost can only grow as more of its words get banks, so
 * what is known bounds it from below.  A phase counts what the simulator
 * counts: distinct words per bank, or for atomics every lane's words
 * (lanes on one word serialise), its weight doubled for compare-and-swap,
 * so a leaf's bound is the map's cost wherever banks are linear in f.
 *
 * Where a word's bank is linear in f (the row's words a power of two or a
 * multiple of the banks, no partial block), more is known: bank = b ^
 * (f(r) << k), so words of rows that differ only in chosen bits differ in
 * bank by a known xor, and their collisions are already decided, whatever
 * the other masks; and a phase whose rows are all moved by xor with one t
 * costs the same (every bank moves by f(t)), so phases are kept once per
 * such translate (canonical: rows and banks xor their first word's),
 * weights summed.  Elsewhere only the rows made of chosen bits count, and
 * phases merge only when equal.
 *
 * Rows are relabelled so that the row bits are decided in order 0, 1, ...
 * (vr): the groups of rows that agree on the undecided bits are then
 * runs of a phase's words sorted by vr. */
#include <stdlib.h>
#include <string.h>

#include "bankc.h"
#include "solve/solve.h"

/* f of a row whose set bits are all decided. */
static inline uint32_t f_of(const SolveXor *x, uint32_t r)
{
	return x->tlo[r & 255] ^ x->thi[(r >> 8) & 255];
}

void solve_xset(SolveXor *x, int d, uint32_t v)
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
static int linear_initial(const SolveXor *x, const SolveXPhase *p)
{
	int best = 0, cnt[64] = {0};
	const SolveXItem *it = x->it + p->item;
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

/* Linear: a map moves a word's bank only by f << k, so words whose
 * banks differ outside those bits never meet, and those that agree there
 * share the 2^(bits) banks f can reach: every map of the run puts at
 * least ceil(n / 2^bits) of such n words in one bank. */
static int linear_pigeon(SolveXor *x, const SolveXPhase *p)
{
	const SolveXItem *it = x->it + p->item;
	uint32_t moved = ((uint32_t)(x->span - 1) << x->k) & (uint32_t)x->bmask;
	int reach = 1, cnt[64] = {0}, best = 0;
	for (uint32_t m = moved; m; m &= m - 1)
		reach *= 2;
	for (int i = 0; i < p->nitem; i++) {
		int c = it[i].bank & ~(int)moved;
		if (++cnt[c] > best)
			best = cnt[c];
	}
	x->ops += p->nitem;
	return (best + reach - 1) / reach;
}

/* Linear: deciding x_d merges the groups at depth d pairwise (bit d clear
 * and set); for each value v of x_d, out[v] is the phase's new bound. */
static void linear_children(SolveXor *x, const SolveXPhase *p, int d, int nv, int v0,
                            int *out)
{
	const SolveXItem *it = x->it + p->item;
	uint32_t low = (1u << d) - 1;
	int cnt[64] = {0}, bcnt[64] = {0}, blist[64];
	int floor = p->pb > p->cur ? p->pb : p->cur;
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
			int nbl = 0, most = 0, bmost = 0;
			for (int i = a; i < m; i++) {
				int b = (it[i].bank ^ (f_of(x, it[i].vr & low) << x->k)) &
				        x->bmask;
				if (++cnt[b] > most)
					most = cnt[b];
			}
			for (int i = m; i < e; i++) {
				int b = (it[i].bank ^ (f_of(x, it[i].vr & low) << x->k)) &
				        x->bmask;
				if (!bcnt[b]++)
					blist[nbl++] = b;
				if (bcnt[b] > bmost)
					bmost = bcnt[b];
			}
			x->ops += e - a;
			/* no value of x_d can raise the phase past what it has */
			if (most + bmost <= floor) {
				for (int i = a; i < m; i++)
					cnt[(it[i].bank ^ (f_of(x, it[i].vr & low) << x->k)) & x->bmask] = 0;
				for (int q = 0; q < nbl; q++)
					bcnt[blist[q]] = 0;
				a = e;
				continue;
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
			x->ops += nv * nbl;
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

/* Adds w and returns how many times it has been added since the last
 * clear (cnt: one counter per slot). */
static int ws_count(WordSet *ws, int64_t w, int *cnt)
{
	unsigned h = (unsigned)(((uint64_t)w * 0x9E3779B97F4A7C15ull) >> 56);
	for (;; h = (h + 1) & 255) {
		if (ws->stamp[h] != ws->gen) {
			ws->stamp[h] = ws->gen;
			ws->v[h] = w;
			return cnt[h] = 1;
		}
		if (ws->v[h] == w)
			return ++cnt[h];
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
static int item_words(const SolveXor *x, const SolveXPhase *p, const SolveXItem *it,
                      uint32_t f, int64_t *w)
{
	int64_t c = it->c < x->tchunks ? (int64_t)(it->c ^ (int32_t)f) : it->c;
	int64_t a = it->st * x->sb_step + it->r * x->pb_row + c * x->gbytes +
	            it->boff;
	int64_t unit = p->cpasync ? 128 : x->se->g->bank_bytes;
	int n = 0;
	for (int64_t q = a / unit; q <= (a + it->bytes - 1) / unit; q++)
		w[n++] = q;
	return n;
}

/* Generic, rows of whole words (no word is in two rows), no cp.async:
 * the items are the phase's distinct words, so the counts need no set. */
static inline int word_bank(const SolveXor *x, const SolveXItem *it, uint32_t f)
{
	int64_t c = it->c < x->tchunks ? (int64_t)(it->c ^ (int32_t)f) : it->c;
	return (int)((it->st * (x->sb_step / x->se->g->bank_bytes) +
	              it->r * x->pw_row + c * x->gwords + it->boff) & x->bmask);
}

static void word_children(SolveXor *x, const SolveXPhase *p, int d, int nv, int v0,
                          int *out)
{
	const SolveXItem *it = x->it + p->item;
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
static void generic_children(SolveXor *x, const SolveXPhase *p, int d, int nv, int v0,
                             int *out)
{
	static WordSet ws, wn;
	if (p->byword) {
		word_children(x, p, d, nv, v0, out);
		return;
	}
	const SolveXItem *it = x->it + p->item;
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
static int generic_initial(SolveXor *x, const SolveXPhase *p)
{
	int out;
	if (p->nitem == 0)
		return 0;
	/* with d = 0 and v = 0, the rows below 2: a lower bound; the rows
	 * below 1 (row 0) is what is known */
	const SolveXItem *it = x->it + p->item;
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

void solve_xchildren(SolveXor *x, SolveXPhase *p, int d, int nv, int v0, int *out)
{
	if (x->linear)
		linear_children(x, p, d, nv, v0, out);
	else
		generic_children(x, p, d, nv, v0, out);
}

/* ---- the phases ------------------------------------------------------------ */

static int cmp_item(const void *a, const void *b)
{
	const SolveXItem *p = a, *q = b;
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
	if (p->st != q->st)
		return p->st < q->st ? -1 : 1;
	return (p->bytes > q->bytes) - (p->bytes < q->bytes);
}

static void sort_items(SolveXItem *it, int n)
{
	for (int i = 1; i < n; i++) {
		SolveXItem v = it[i];
		int j = i;
		while (j > 0 && cmp_item(&it[j - 1], &v) > 0) {
			it[j] = it[j - 1];
			j--;
		}
		it[j] = v;
	}
}

static uint64_t hash_items(const SolveXItem *it, int n, bool cp)
{
	uint64_t h = 0x9E3779B97F4A7C15ull ^ (uint64_t)n ^ (cp ? 1ull << 63 : 0);
	for (int i = 0; i < n; i++) {
		uint64_t v = (uint64_t)it[i].r << 40 ^ (uint64_t)(uint32_t)it[i].c << 8 ^
		             (uint64_t)it[i].bank << 20 ^ it[i].boff ^
		             (uint64_t)it[i].bytes << 58 ^ (uint64_t)it[i].st << 32;
		h = (h ^ v) * 0xBF58476D1CE4E5B9ull;
		h ^= h >> 31;
	}
	return h;
}

static bool same_items(const SolveXItem *a, const SolveXItem *b, int n)
{
	for (int i = 0; i < n; i++)
		if (cmp_item(&a[i], &b[i]))
			return false;
	return true;
}

/* Linear runs (bank = place ^ (f(r) << k)): two words of one phase at
 * one place outside the chunk bits meet exactly when f(r ^ r') is the
 * difference of their chunk parts, d.  Let D be the span of every such d
 * of words in two rows (one row's words never meet by f).  An invertible
 * map A of the chunk values that keeps D value by value meets the same
 * words under A f as f does: A f(r ^ r') = d exactly when f(r ^ r') =
 * A^-1 d = d.  So f and A f cost alike (the twins), and the tree keeps
 * one map per class: each mask in the span W of D and the masks before
 * it, or the least value outside W (echelon form), every leaf standing
 * for its class as the twin that ranks first (solve_best_twin), the row
 * bits decided in their order.  In a
 * gather of one column through a table D = {0}, and every invertible A
 * makes a twin.  Only the first run's maps, which move every chunk, and
 * only where the bound follows every phase a map can change. */
bool solve_xtwins(SolveXor *x)
{
	x->sym = false;
	x->cbits = log2_floor(x->span);
	if (!x->linear || x->top || x->unfollowed)
		return false;
	uint32_t moved = ((uint32_t)(x->span - 1) << x->k) & (uint32_t)x->bmask;
	uint32_t vec[32] = {0};
	int dim = 0;
	for (int q = 0; q < x->nph && dim < x->cbits; q++) {
		const SolveXPhase *p = &x->ph[q];
		const SolveXItem *it = x->it + p->item;
		/* per place outside the moved bits: the first word there; with
		 * words of two rows at it, every word's chunk part differs from
		 * the first's by a value of D */
		int first[64];
		bool rows2[64] = {false};
		memset(first, 0xff, sizeof first);
		for (int i = 0; i < p->nitem; i++) {
			int u = it[i].bank & ~(int)moved;
			if (first[u] < 0)
				first[u] = i;
			else
				rows2[u] |= it[i].r != it[first[u]].r;
		}
		for (int i = 0; i < p->nitem; i++) {
			int u = it[i].bank & ~(int)moved;
			if (!rows2[u])
				continue;
			uint32_t d = (uint32_t)((it[i].bank ^ it[first[u]].bank) &
			                        (int)moved) >> x->k;
			for (int t = 31; t >= 0 && d; t--)
				if ((d >> t & 1) && vec[t])
					d ^= vec[t];
			if (d) {
				vec[31 - __builtin_clz(d)] = d;
				dim++;
			}
		}
		x->ops += 2 * p->nitem;
	}
	if (dim >= x->cbits)
		return false;       /* only the identity keeps every value */
	x->sym = true;
	x->tw = (XorTwins){.on = true, .cbits = x->cbits, .fixed = 1};
	for (int t = 0; t < 32; t++)
		if (vec[t])
			solve_twin_keep(&x->tw, vec[t]);
	x->mfixed = dim;
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

static void order_bits(SolveXor *x)
{
	int nb = x->nb;
	if (x->sym) {
		/* twins: in order, so that a prefix of the tree's masks is a
		 * prefix of the first twin's, which the order compares */
		for (int d = 0; d < nb; d++)
			x->sigma[d] = d;
		return;
	}
	int64_t *wd = xcalloc((size_t)1 << nb, sizeof *wd);
	int64_t pairs = 0;
	for (int p = 0; p < x->nph && pairs < 1 << 20; p++) {
		const SolveXPhase *ph = &x->ph[p];
		const SolveXItem *it = x->it + ph->item;
		for (int i = 0; i < ph->nitem; i++)
			for (int j = i + 1; j < ph->nitem; j++) {
				uint32_t dr = it[i].r ^ it[j].r;
				if (dr)
					wd[dr] += ph->weight * (it[i].bank == it[j].bank ? 4 : 1);
			}
		pairs += (int64_t)ph->nitem * ph->nitem;
	}
	/* the row differences that weigh most, at most a few thousand */
	Pair *pl = xmalloc(((size_t)1 << nb) * sizeof *pl);
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

/* cp.async's 128-byte segments under the swapped row-major layout, which
 * every map of the swapped family keeps (the classes were costed
 * unswapped). */
static int swapped_segments(const Tile *t, const Inst *in, uint32_t lanes,
                            int bytes)
{
	Layout rm = layout_base(t, L_ROWMAJOR, true);
	int64_t addr[WARP], seg[2 * WARP];
	int ns = 0;
	layout_inst_addrs(&rm, t, in, addr);
	for (int n = 0; n < WARP; n++) {
		if (!(lanes >> n & 1))
			continue;
		for (int64_t q = addr[n] / 128; q <= (addr[n] + bytes - 1) / 128; q++) {
			int k = 0;
			while (k < ns && seg[k] != q)
				k++;
			if (k == ns)
				seg[ns++] = q;
		}
	}
	return ns;
}

/* Every phase of every instruction class as its words (linear) or lanes
 * (generic), merged; what cannot take part (cp.async whose segments the
 * maps cannot change, phases past the cap) is a constant of the bound. */
bool solve_xphases(SolveXor *x)
{
	SolveSearch *se = x->se;
	const Tile *t = x->t;
	const Geom *g = se->g;
	bool swap = x->l.swap;
	int64_t es = tile_elem_bytes(t);
	int cap = 16;
	while (cap < 2 * SOLVE_XOR_PHASES)
		cap *= 2;
	int *slot = xmalloc((size_t)cap * sizeof *slot);
	x->ph = xmalloc(SOLVE_XOR_PHASES * sizeof *x->ph);
	int itcap = 1024;
	x->it = xmalloc((size_t)itcap * sizeof *x->it);
	memset(slot, 0xff, (size_t)cap * sizeof *slot);
	x->nph = 0;
	int nit = 0;
	int64_t pw = x->pb_row / g->bank_bytes;
	for (int k = 0; k < se->exact.n; k++) {
		const SolveClass *cl = &se->exact.c[k];
		const Access *a = &t->acc[cl->acc];
		int bytes = (int)(a->vec * es);
		bool cp = a->op.kind == OP_CPASYNC;
		/* atomics serialise: every lane's words count, lanes on one
		 * word too, twice for compare-and-swap (sim.c) */
		bool lanes_count = a->op.kind == OP_ATOM && a->op.aop != AOP_ADD1;
		int mult = a->op.kind == OP_ATOM && a->op.aop == AOP_CAS ? 2 : 1;
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
			if ((cp && x->linear) || x->nph == SOLVE_XOR_PHASES) {
				bool same = cp && x->span * x->gbytes <= 128;
				x->unfollowed |= !same;     /* its cost may vary */
				x->lb += cl->weight * (!same ? pbound : swap ?
				         swapped_segments(t, cl->in, lanes, bytes) : sp->cost);
				continue;
			}
			/* the tree counts words (lanes for atomics) per bank: the
			 * phase's floor in those, its weight in wavefronts */
			pbound = (pbound + mult - 1) / mult;
			SolveXItem tmp[WARP * 4];
			int n = 0;
			/* rows of whole words: the distinct words stand for the lanes */
			bool byword = !x->linear && !cp && x->pb_row % g->bank_bytes == 0 &&
			              x->sb_step % g->bank_bytes == 0;
			for (int ln = 0; ln < WARP; ln++) {
				if (!(lanes >> ln & 1))
					continue;
				/* rows count through the stages: the stage, then the
				 * row in it, which the map reads */
				int64_t row = cl->in->lane[ln].row % t->rows;
				int st = cl->in->lane[ln].row / t->rows;
				int64_t sr = swap ? cl->in->lane[ln].col : row;
				int64_t sc = swap ? row : cl->in->lane[ln].col;
				int32_t c = (int32_t)(sc / x->l.gran);
				int boff = (int)(sc % x->l.gran * es);
				if (!x->linear && !byword) {
					tmp[n++] = (SolveXItem){.r = (uint32_t)sr, .vr = (uint32_t)sr, .c = c,
					                  .boff = (uint8_t)boff,
					                  .bytes = (uint8_t)bytes, .st = (uint8_t)st};
					continue;
				}
				int64_t rowbank = sr * pw;
				for (int wo = boff / g->bank_bytes;
				     wo <= (boff + bytes - 1) / g->bank_bytes; wo++) {
					SolveXItem w = {.r = (uint32_t)sr, .vr = (uint32_t)sr, .c = c,
					          .bank = (uint16_t)((rowbank ^ ((int64_t)c << x->k | wo)) &
					                             x->bmask),
					          .boff = (uint8_t)wo, .st = (uint8_t)st};
					int j = 0;
					while (j < n && !lanes_count &&
					       (tmp[j].r != w.r || tmp[j].c != w.c ||
					        tmp[j].boff != w.boff || tmp[j].st != w.st))
						j++;
					if (j == n || lanes_count)
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
					tmp[i].st = 0;
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
			/* phases merge only with their aligned bound equal: it is
			 * a floor of each one's cost (an atomic's lanes on one word
			 * serialise, a load's share it), not of the others' */
			uint64_t h = hash_items(tmp, n, cp) ^ (uint64_t)pbound * 0x2545F4914F6CDD1Dull;
			int s = (int)(h & (uint64_t)(cap - 1)), p;
			for (;; s = (s + 1) & (cap - 1)) {
				p = slot[s];
				if (p < 0 || (x->ph[p].nitem == n && x->ph[p].cpasync == cp &&
				              x->ph[p].byword == byword && x->ph[p].pb == pbound &&
				              same_items(x->it + x->ph[p].item, tmp, n)))
					break;
			}
			if (p < 0) {
				p = slot[s] = x->nph++;
				if (nit + n > itcap) {
					itcap = 2 * itcap + n;
					x->it = xrealloc(x->it, (size_t)itcap * sizeof *x->it);
				}
				memcpy(x->it + nit, tmp, (size_t)n * sizeof *tmp);
				x->ph[p] = (SolveXPhase){.item = nit, .nitem = n, .cpasync = cp,
				                    .byword = byword, .pb = pbound};
				nit += n;
			}
			x->ph[p].weight += cl->weight * mult;
		}
	}
	free(slot);
	solve_xtwins(x);
	order_bits(x);
	/* what is known before any mask, and at which depths more is */
	for (int p = 0; p < x->nph; p++) {
		SolveXPhase *ph = &x->ph[p];
		SolveXItem *it = x->it + ph->item;
		for (int i = 0; i < ph->nitem; i++) {
			uint32_t v = 0;
			for (int d = 0; d < x->nb; d++)
				v |= (it[i].r >> x->sigma[d] & 1) << d;
			it[i].vr = v;
		}
		sort_items(it, ph->nitem);
		ph->cur = x->linear ? linear_initial(x, ph) : generic_initial(x, ph);
		if (x->linear) {
			int pg = linear_pigeon(x, ph);
			if (pg > ph->pb)
				ph->pb = pg;
		}
		for (int i = 0; i < ph->nitem; i++) {
			/* generic: row i becomes known at the depth of its top bit;
			 * linear: two groups merge at the top bit where neighbouring
			 * rows (sorted) differ */
			uint32_t v = x->linear ? (i + 1 < ph->nitem ? it[i].vr ^ it[i + 1].vr : 0)
			                       : it[i].vr;
			if (v)
				ph->active |= 1u << log2_floor(v);
		}
		int64_t best = ph->pb > ph->cur ? ph->pb : ph->cur;
		x->lb += ph->weight * best;
	}
	for (int d = 0; d < x->nb; d++) {
		x->act[d] = xmalloc((size_t)(x->nph ? x->nph : 1) * sizeof(int));
		x->saved[d] = xmalloc((size_t)(x->nph ? x->nph : 1) * sizeof(int));
		x->nact[d] = 0;
		for (int p = 0; p < x->nph; p++)
			if (x->ph[p].active >> d & 1)
				x->act[d][x->nact[d]++] = p;
		x->kids[d] = xmalloc((size_t)(x->nact[d] ? x->nact[d] : 1) *
		                     (size_t)x->span * sizeof(int));
	}
	return true;
}

/* Row bits whose mask cannot be 0 in any map that enters the ranking:
 * with x_b = 0 rows r and r ^ 2^b share f, and their words alone (in
 * the heaviest phases, as far as a fixed effort goes) already raise the
 * bound past the ranking's last.  Linear case only. */
uint32_t solve_xforced(SolveXor *x)
{
	const Solution *s = x->se->s;
	if (!x->linear || x->noprune || s->ntop < x->se->o->top)
		return 0;
	int64_t limit = s->top[s->ntop - 1].wave;
	uint32_t forced = 0;
	static WordSet ws;
	static int cnt[256];
	for (int b = 0; b < x->nb; b++) {
		int64_t lb = x->lb, ops = 0;
		for (int p = 0; p < x->nph && ops < 1 << 16 && lb <= limit; p++) {
			const SolveXPhase *ph = &x->ph[p];
			const SolveXItem *it = x->it + ph->item;
			int best = ph->cur;
			/* words per (row without bit b, bank), counted in a table */
			ws_clear(&ws);
			for (int i = 0; i < ph->nitem; i++) {
				int64_t key = (int64_t)(it[i].r & ~(1u << b)) << 8 | it[i].bank;
				int m = ws_count(&ws, key, cnt);
				if (m > best)
					best = m;
			}
			ops += ph->nitem;
			int was = ph->pb > ph->cur ? ph->pb : ph->cur;
			lb += ph->weight * ((best > ph->pb ? best : ph->pb) - was);
		}
		if (lb > limit)
			forced |= 1u << b;
		x->ops += ops;
	}
	return forced;
}

void solve_xfree(SolveXor *x)
{
	free(x->ph);
	free(x->it);
	for (int d = 0; d < x->nb; d++) {
		free(x->act[d]);
		free(x->saved[d]);
		free(x->kids[d]);
	}
}
