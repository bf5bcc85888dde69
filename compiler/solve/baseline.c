/* Baselines: the layouts other systems would pick for the same tile,
 * from their public rules, costed by the same model so a user sees what
 * bankc gains over each.
 *
 * - row-major: no transform;
 * - pad by one element: the textbook (and XLA's 32 x 33) choice;
 * - CuTe: CUTLASS 3's selector takes the largest Swizzle<B,4,3> atom
 *   (SW128, SW64, SW32) whose span divides the row; TileLang and
 *   ThunderKittens follow the same rule.  An atom is 8 rows of 16 << B
 *   bytes, and Swizzle<B,4,3> XORs byte-offset bits 7.. into bits 4..: in
 *   rows of 16 << B bytes those are row bits 3-B .. 2 into the 16-byte
 *   chunk's bits 0 .. B-1.  Atoms tiled along a wider row put the same
 *   words in the same banks as this map on the whole row.  For a wgmma
 *   operand the atoms' order matters too (the descriptor reads it): the
 *   GMMA atoms fill the rows first, wgmma's boxes of 16 << B bytes;
 * - Triton (tiles read by ldmatrix, i.e. MMA operands): 16-byte vectors,
 *   perPhase = max(1, 128 / row bytes), maxPhase = max(1, 8 / perPhase),
 *   chunk ^= (row / perPhase) % maxPhase. */
#include <string.h>

#include "bankc.h"
#include "solve/solve.h"

/* b->c from each instruction's wavefronts under its layout (wave, the
 * accesses' instructions in order), as solve_cost would cost them. */
static void cost_from(const Tile *t, const int *wave, Cand *c)
{
	Layout l = c->l;
	memset(c, 0, sizeof *c);
	c->l = l;
	c->bytes = layout_bytes(&l, t);
	c->arith = layout_arith(&l);
	c->order = solve_order(&l);
	for (int j = 0, k = 0; j < t->nacc; j++)
		for (int i = 0; i < t->acc[j].ninst; i++, k++)
			c->acc_wave[j] += wave[k] * t->acc[j].inst[i].weight;
	for (int j = 0; j < t->nacc; j++)
		c->wave += c->acc_wave[j] * t->acc[j].weight;
	c->blocks = solve_blocks(t, c->bytes);
}

static void finish(const Tile *t, const Geom *g, int64_t budget, Baseline *b,
                   const Layout *known, const int *const *wave, int nknown)
{
	/* judge legality by vectors and memory only: another system would not
	 * know this spec's `allow` or `tma` */
	Tile free = *t;
	free.allow = XF_ALL;
	free.tma = false;
	const char *why;
	b->legal = layout_legal(&b->c.l, &free, budget, &why);
	if (!b->legal) {
		size_t n = strlen(b->note);
		snprintf(b->note + n, sizeof b->note - n, "%s%s", n ? ": " : "", why);
		return;
	}
	for (int i = 0; i < nknown; i++)
		if (layout_same(&b->c.l, &known[i])) {
			cost_from(t, wave[i], &b->c);
			return;
		}
	solve_cost(t, g, &b->c.l, &b->c);
}

static bool has_ldmatrix(const Tile *t)
{
	for (int j = 0; j < t->nacc; j++)
		if (t->acc[j].op.kind == OP_LDMATRIX)
			return true;
	return false;
}

/* A row-bit to chunk-bit map over 16-byte chunks. */
static Layout chunk_xor(const Tile *t, int first_bit, int nbits)
{
	Layout l = layout_base(t, L_XOR, false);
	int es = (int)tile_elem_bytes(t);
	l.gran = es >= 16 ? 1 : 16 / es;
	l.nx = first_bit + nbits;
	for (int i = 0; i < nbits && first_bit + i < MAX_XOR_BITS; i++)
		l.x[first_bit + i] = 1u << i;
	return l;
}

/* Each baseline's name, note and layout, not yet costed. */
static int propose(const Tile *t, Baseline out[MAX_BASELINES])
{
	int n = 0;
	int64_t rb = (int64_t)t->cols * tile_elem_bytes(t);
	memset(out, 0, MAX_BASELINES * sizeof *out);

	Baseline *b = &out[n++];
	b->name = "row-major";
	b->c.l = layout_rowmajor(t);

	b = &out[n++];
	b->name = "pad by one";
	b->c.l = layout_base(t, L_PAD, false);
	b->c.l.pitch = t->cols + 1;
	snprintf(b->note, sizeof b->note, "pitch %d", t->cols + 1);

	b = &out[n++];
	b->name = "CuTe";
	int bits = rb % 128 == 0 ? 3 : rb % 64 == 0 ? 2 : rb % 32 == 0 ? 1 : 0;
	const Access *mma = tile_mma(t);
	if (mma && mma->op.kind == OP_UMMA && mma->op.mn_major &&
	    tile_elem_bytes(t) == 4 && rb % 128 == 0) {
		/* CUTLASS's sm100_smem_selector: an MN-major tf32 UMMA operand
		 * has one layout, SW128_32B (Swizzle<2,5,2> on 128-byte boxes) */
		snprintf(b->note, sizeof b->note, "UMMA SW128_32B atom");
		b->c.l = layout_base(t, L_SWIZZLE, false);
		b->c.l.M = 5, b->c.l.S = 2, b->c.l.B = 2;
		b->c.l.boxes = (int)(rb / 128);
		b->c.l.pitch = b->c.l.scols / b->c.l.boxes;
	} else if (mma) {
		/* a GMMA or UMMA operand: CUTLASS's atoms tiled down the rows
		 * first, then along them, which are the canonical boxes (the
		 * interleave where no swizzle atom divides the row) */
		const char *who = mma->op.kind == OP_UMMA ? "UMMA" : "GMMA";
		if (bits)
			snprintf(b->note, sizeof b->note, "%s SW%d atom", who, 16 << bits);
		else
			snprintf(b->note, sizeof b->note, "%s INTER atom", who);
		b->c.l = layout_base(t, L_SWIZZLE, false);
		b->c.l.M = 4, b->c.l.S = 3, b->c.l.B = bits;
		b->c.l.boxes = (int)(rb / (16 << bits));
		b->c.l.pitch = b->c.l.scols / b->c.l.boxes;
	} else if (bits) {
		snprintf(b->note, sizeof b->note, "SW%d atom, Swizzle<%d,4,3>",
		         16 << bits, bits);
		b->c.l = chunk_xor(t, 3 - bits, bits);
	} else {
		snprintf(b->note, sizeof b->note, "no swizzle atom divides a "
		         "%lld-byte row", (long long)rb);
		b->c.l = layout_rowmajor(t);
	}

	if (has_ldmatrix(t)) {
		b = &out[n++];
		b->name = "Triton";
		int per_phase = rb >= 128 ? 1 : (int)(128 / rb);
		int max_phase = 8 / per_phase > 1 ? 8 / per_phase : 1;
		int pp = log2_ceil(per_phase), mp = log2_ceil(max_phase);
		snprintf(b->note, sizeof b->note, "vec %d, perPhase %d, maxPhase %d",
		         (int)(16 / tile_elem_bytes(t)), per_phase, max_phase);
		b->c.l = chunk_xor(t, pp, mp);
	}
	return n;
}

int baseline_all(const Tile *t, const Geom *g, int64_t budget,
                 Baseline out[MAX_BASELINES])
{
	return baseline_all_costed(t, g, budget, NULL, NULL, 0, out);
}

int baseline_all_costed(const Tile *t, const Geom *g, int64_t budget,
                        const Layout *known, const int *const *wave,
                        int nknown, Baseline out[MAX_BASELINES])
{
	int n = propose(t, out);
	for (int i = 0; i < n; i++)
		finish(t, g, budget, &out[i], known, wave, nknown);
	return n;
}

int baseline_layouts(const Tile *t, Layout out[MAX_BASELINES])
{
	Baseline b[MAX_BASELINES];
	int n = propose(t, b);
	for (int i = 0; i < n; i++)
		out[i] = b[i].c.l;
	return n;
}
