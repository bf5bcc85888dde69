/* Twins in the xor family: maps f and A f, for an invertible map A of
 * the chunk values that keeps a subspace of them (XorTwins.fixed) value
 * by value, cost alike where solve_xor.c says so, and the family lists
 * each class of them once, as the member that ranks first.  Subspaces of
 * at most 64 values are sets of values here (bit v: v is in it). */
#include <string.h>

#include "bankc.h"
#include "model/model.h"
#include "solve/solve.h"

/* The smallest value outside a subspace (a set of values): always a
 * power of two, since the subspace holds every value below it. */
uint32_t solve_twin_outside(uint64_t set)
{
	uint32_t v = 1;
	while (v < 64 && (set >> v & 1))
		v <<= 1;
	return v;
}

uint64_t solve_twin_span(uint64_t set, uint32_t v)
{
	/* {u ^ v : u in set}: for each bit of v, swap the blocks of values
	 * that differ in that bit */
	static const uint64_t low[6] = {
		0x5555555555555555ull, 0x3333333333333333ull, 0x0f0f0f0f0f0f0f0full,
		0x00ff00ff00ff00ffull, 0x0000ffff0000ffffull, 0x00000000ffffffffull};
	uint64_t moved = set;
	for (int k = 0; k < 6; k++)
		if (v >> k & 1)
			moved = (moved & low[k]) << (1 << k) | (moved >> (1 << k) & low[k]);
	return set | moved;
}

void solve_twin_keep(XorTwins *tw, uint32_t v)
{
	if (tw->fixed >> v & 1)
		return;
	for (int i = 0; i < tw->dim; i++)
		if ((v ^ tw->basis[i]) < v)
			v ^= tw->basis[i];
	/* reduced: its top bit is no other's */
	for (int i = 0; i < tw->dim; i++)
		if ((tw->basis[i] ^ v) < tw->basis[i])
			tw->basis[i] ^= v;
	tw->basis[tw->dim++] = v;
	tw->fixed = solve_twin_span(tw->fixed, v);
}

/* The twin that comes first in the order: row bit by row bit, a mask in
 * the span of the kept values and the earlier masks becomes what those
 * became, one outside it the least value outside their images' span. */
static void first_twin(const XorTwins *tw, const uint32_t *in, int n,
                       uint32_t *out)
{
	uint32_t vec[32] = {0}, img[32] = {0};     /* by top bit */
	uint64_t images = tw->fixed | 1;
	for (int i = 0; i < tw->dim; i++) {         /* kept: themselves */
		uint32_t r = tw->basis[i];
		vec[31 - __builtin_clz(r)] = r;
		img[31 - __builtin_clz(r)] = r;
	}
	for (int b = 0; b < n; b++) {
		uint32_t v = in[b], im = 0;
		for (int t = tw->cbits - 1; t >= 0 && v; t--)
			if ((v >> t & 1) && vec[t]) {
				v ^= vec[t];
				im ^= img[t];
			}
		if (v) {
			uint32_t nw = solve_twin_outside(images);
			vec[31 - __builtin_clz(v)] = v;
			img[31 - __builtin_clz(v)] = im ^ nw;
			images = solve_twin_span(images, nw);
			im = nw;
		}
		out[b] = im;
	}
}

/* Can an A that keeps the fixed values take the masks g_0 .. g_(len-1)
 * to 2^s, 2^(s+1), ...?  Exactly when they are independent and, for
 * every u in their span, u kept implies A u = u and A u kept implies u
 * kept. */
static bool shift_fits(const XorTwins *tw, const uint32_t *g, int len, int s)
{
	for (uint32_t c = 1; c < 1u << len; c++) {
		uint32_t u = 0, au = c << s;
		for (int i = 0; i < len; i++)
			if (c >> i & 1)
				u ^= g[i];
		bool ku = tw->fixed >> u & 1, kau = tw->fixed >> au & 1;
		if (!u || (ku && au != u) || (kau && !ku))
			return false;
	}
	return true;
}

uint32_t solve_twin_shifts(const XorTwins *tw, const uint32_t *g, int len,
                           uint32_t shifts)
{
	uint32_t out = 0;
	for (int s = 0; s + len <= tw->cbits; s++)
		if ((shifts >> s & 1) && shift_fits(tw, g, len, s))
			out |= 1u << s;
	return out;
}

/* The first twin that is a shift and mask (masks 2^s, 2^(s+1), ... on a
 * run of row bits, 0 elsewhere), if the class holds one. */
static bool shift_twin(const XorTwins *tw, const uint32_t *in, int n,
                       uint32_t *out)
{
	int lo = 0, hi = n - 1;
	while (lo < n && !in[lo])
		lo++;
	while (hi > lo && !in[hi])
		hi--;
	int len = hi - lo + 1;
	if (lo == n || len > tw->cbits)
		return false;
	for (int i = lo; i <= hi; i++)
		if (!in[i])
			return false;
	for (int s = 0; s + len <= tw->cbits; s++) {
		if (!shift_fits(tw, in + lo, len, s))
			continue;
		memset(out, 0, (size_t)n * sizeof *out);
		for (int i = 0; i < len; i++)
			out[lo + i] = 1u << (s + i);
		return true;
	}
	return false;
}

void solve_best_twin(const XorTwins *tw, const uint32_t *in, int n,
                     uint32_t *out)
{
	Layout l;               /* the map's masks are all layout_xor_map_arith reads */
	l.kind = L_XOR;
	l.nx = n;
	first_twin(tw, in, n, out);
	memcpy(l.x, out, (size_t)n * sizeof *out);
	/* arithmetic first: a shift and mask (3) beats 1 + 2 per mask */
	if (layout_xor_map_arith(&l) > 3)
		shift_twin(tw, in, n, out);
}
