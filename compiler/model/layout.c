/* Layouts: the map from a logical (row, col) to a place in the tile's
 * shared memory.  The solver chooses among them; everything that costs an
 * access goes through layout_inst_addrs, and the emitted indexing macros
 * compute the same function. */
#include <stdlib.h>
#include <string.h>

#include "bankc.h"
#include "model/model.h"

Layout layout_base(const Tile *t, LayoutKind kind, bool swap)
{
	Layout l = {0};
	l.kind = kind;
	l.swap = swap;
	l.srows = swap ? t->cols : t->rows;
	l.scols = swap ? t->rows : t->cols;
	l.pitch = l.scols;
	l.boxes = 1;
	int es = (int)tile_elem_bytes(t);
	int g = tile_granule(t);
	if (kind == L_XOR && g < 4)
		g = 4;          /* permuting bytes inside a word moves no bank */
	l.gran = g / es > 0 ? g / es : 1;
	return l;
}

Layout layout_rowmajor(const Tile *t)
{
	return layout_base(t, L_ROWMAJOR, false);
}

/* Field by field: struct padding is not part of a layout. */
bool layout_same(const Layout *a, const Layout *b)
{
	if (a->kind != b->kind || a->swap != b->swap || a->srows != b->srows ||
	    a->scols != b->scols || a->pitch != b->pitch || a->gran != b->gran ||
	    a->skew != b->skew || a->B != b->B || a->M != b->M || a->S != b->S ||
	    a->flip != b->flip || a->boxes != b->boxes || a->nx != b->nx)
		return false;
	for (int i = 0; i < a->nx; i++)
		if (a->x[i] != b->x[i])
			return false;
	return true;
}

int64_t layout_stage_bytes(const Layout *l, const Tile *t)
{
	return (int64_t)l->srows * l->pitch * l->boxes * tile_elem_bytes(t);
}

int64_t layout_bytes(const Layout *l, const Tile *t)
{
	int64_t s = layout_stage_bytes(l, t);
	int64_t step = (s + t->align - 1) / t->align * t->align;
	return step * (t->stages - 1) + s;
}

int layout_xor_span(const Layout *l)
{
	uint32_t all = 0;
	for (int i = 0; i < l->nx; i++)
		all |= l->x[i];
	int span = 1;
	while ((uint32_t)span <= all)
		span <<= 1;
	return span;
}

int layout_xor_cols(const Layout *l)
{
	int span = layout_xor_span(l), k = l->scols / l->gran;
	return k / span * span * l->gran;
}

bool layout_xor_shift(const Layout *l, int *a, int *n, int *b)
{
	int i = 0;
	while (i < l->nx && !l->x[i])
		i++;
	if (i == l->nx || !is_pow2(l->x[i]))
		return false;
	int k = 1;
	while (i + k < l->nx && l->x[i + k] == l->x[i] << k)
		k++;
	for (int j = i + k; j < l->nx; j++)
		if (l->x[j])
			return false;
	*a = i;
	*n = k;
	for (*b = 0; (1u << *b) < l->x[i]; ++*b)
		;
	return true;
}

int layout_xor_map_arith(const Layout *l)
{
	int nnz = 0;
	for (int i = 0; i < l->nx; i++)
		nnz += l->x[i] != 0;
	int a, n, b;
	return layout_xor_shift(l, &a, &n, &b) || nnz < 2 ? 3 : 1 + 2 * nnz;
}

int layout_arith(const Layout *l)
{
	switch (l->kind) {
	case L_ROWMAJOR: return 0;
	case L_PAD: return is_pow2(l->pitch) ? 0 : 1;
	case L_SKEW: return 3;
	case L_SWIZZLE:     /* a box: divide, rest; the flip: three more */
		return (l->boxes > 1 ? 5 : 3) + (l->flip ? 3 : 0);
	case L_XOR:
		/* columns past the last whole block: one compare */
		return layout_xor_map_arith(l) + (layout_xor_cols(l) < l->scols);
	}
	return 0;
}

const char *layout_kind_name(const Layout *l)
{
	static const char *const names[] = {"row-major", "pad", "skew",
		"swizzle", "xor"};
	return names[l->kind];
}

void layout_describe(const Layout *l, const Tile *t, char *buf, size_t n)
{
	int k = snprintf(buf, n, "%s", l->swap ? "swap + " : "");
	if (k < 0 || (size_t)k >= n)
		return;
	buf += k, n -= (size_t)k;
	switch (l->kind) {
	case L_ROWMAJOR:
		snprintf(buf, n, "row-major");
		break;
	case L_PAD:
		snprintf(buf, n, "pad +%d (pitch %d)", l->pitch - l->scols, l->pitch);
		break;
	case L_SKEW:
		snprintf(buf, n, "skew %d x %dB", l->skew,
		         (int)(l->gran * tile_elem_bytes(t)));
		break;
	case L_SWIZZLE:
		if (l->B == 0)  /* the tensor cores' no-swizzle boxes */
			snprintf(buf, n, "interleave in %d box%s of %d columns",
			         l->boxes, l->boxes > 1 ? "es" : "", l->pitch);
		else if (l->boxes > 1)
			snprintf(buf, n, "swizzle<%d,%d,%d>%s in %d boxes of %d columns",
			         l->B, l->M, l->S, l->flip ? " + flip8" : "", l->boxes,
			         l->pitch);
		else
			snprintf(buf, n, "swizzle<%d,%d,%d>%s", l->B, l->M, l->S,
			         l->flip ? " + flip8" : "");
		break;
	case L_XOR: {
		k = snprintf(buf, n, "xor %dB:", (int)(l->gran * tile_elem_bytes(t)));
		for (int i = 0; i < l->nx && k > 0 && (size_t)k < n; i++)
			if (l->x[i])
				k += snprintf(buf + k, n - (size_t)k, " r%d>%u", i, l->x[i]);
		int cols = layout_xor_cols(l);
		if (cols < l->scols && k > 0 && (size_t)k < n)
			snprintf(buf + k, n - (size_t)k, " (columns 0-%d)", cols - 1);
		break;
	}
	}
}

static bool fail(const char **why, const char *msg)
{
	*why = msg;
	return false;
}

const char *layout_tma_mode(const Layout *l)
{
	if (l->kind == L_ROWMAJOR)
		return "NONE";
	if (l->kind != L_SWIZZLE)
		return NULL;
	if (l->M == 4 && l->S == 3 && !l->flip)
		return l->B == 1 ? "32B" : l->B == 2 ? "64B" : l->B == 3 ? "128B"
		       : NULL;
	if (l->B == 2 && l->M == 5 && l->S == 2)
		return l->flip ? "128B_ATOM_32B_FLIP_8B" : "128B_ATOM_32B";
	if (l->B == 1 && l->M == 6 && l->S == 1 && !l->flip)
		return "128B_ATOM_64B";
	return NULL;
}

/* TMA moves boxes of at most 256 x 256 elements whose rows are a
 * multiple of 16 bytes, densely, box after box: row-major in one box, or
 * its own swizzle modes in boxes of exactly the span's width, each box
 * starting where the mode's pattern starts (8 rows of the span; the base
 * aligned to the pattern).  The modes (CUDA 13's cuda.h, CUtensorMapSwizzle;
 * PTX ISA, "Swizzling Modes"): Swizzle<B,4,3>, B = 1, 2, 3 (32, 64 and
 * 128 bytes, 16-byte atoms), and the 128-byte swizzle's sub-modes with
 * 32-byte atoms (Swizzle<2,5,2>), 32-byte atoms with the 8-byte halves of
 * odd lines swapped (loads only, global to shared), and 64-byte atoms
 * (Swizzle<1,6,1>), which Blackwell has (sm_100 and later; on sm_120 its
 * loads take no swizzle atomicity, PTX ISA, cp.async.bulk.tensor's
 * restrictions for sm_120a, so there only a TMA store may use them). */
static bool tma_ok(const Layout *l, const Tile *t)
{
	int64_t es = tile_elem_bytes(t);
	if (l->swap || l->srows > 256)
		return false;
	if (l->kind == L_ROWMAJOR)
		return l->scols <= 256 && l->scols * es % 16 == 0;
	const char *mode = layout_tma_mode(l);
	if (!mode)
		return false;
	int span = l->M == 4 ? 16 << l->B : 128;
	if (l->pitch * es != span || t->align < 8 * span ||
	    (l->boxes > 1 && l->srows % 8))
		return false;
	if (l->M != 4) {
		const ArchInfo *ar = &tab_arch[t->arch];
		if (ar->cc < 100 || (ar->cc >= 120 && (t->tma & TMA_LOAD)))
			return false;
		/* the flip moves 8-byte halves: wider vectors break; a TMA
		 * store cannot write it */
		if (l->flip && ((t->tma & TMA_STORE) || tile_granule(t) > 8))
			return false;
	}
	return true;
}

/* The tensor cores read their canonical layouts (model/mma_canon.c):
 * core matrices of 8 rows of 16 bytes in column blocks of 16 << B bytes,
 * each block in Swizzle<B,4,3> (B = 0: no swizzle, the interleave), or,
 * tcgen05.mma alone, in blocks of 128 bytes in Swizzle<2,5,2>; the tile
 * aligned to the swizzle's repeat. */
static bool mma_ok(const Layout *l, const Tile *t)
{
	int64_t es = tile_elem_bytes(t);
	if (l->swap || l->kind != L_SWIZZLE || l->flip || l->srows % 8)
		return false;
	if (l->M == 4 && l->S == 3 && l->B >= 0 && l->B <= 3)
		return l->pitch * es == (16 << l->B);
	return tile_umma(t) && l->B == 2 && l->M == 5 && l->S == 2 &&
	       l->pitch * es == 128;
}

/* Swizzle<B,M,S> with S >= B flips bits M.. M+B-1 by bits M+S.., which
 * it leaves alone: it is an involution that keeps every aligned
 * 2^(M+B)-byte block, so on n bytes it is a bijection iff the addresses
 * of the last, partial block stay below n. */
static bool swizzle_within(const Layout *l, int64_t n, int64_t es)
{
	int64_t block = 1LL << (l->M + l->B), base = n / block * block;
	int64_t v = ((base >> (l->M + l->S)) & ((1LL << l->B) - 1)) << l->M;
	for (int64_t o = base; v && o < n; o += es)
		if ((o ^ v) >= n)
			return false;
	return true;
}

bool layout_legal(const Layout *l, const Tile *t, int64_t budget,
                  const char **why)
{
	int64_t es = tile_elem_bytes(t);
	int g = tile_granule(t);
	static const unsigned need[] = {[L_ROWMAJOR] = 0, [L_PAD] = XF_PAD,
		[L_SKEW] = XF_SKEW, [L_SWIZZLE] = XF_SWIZZLE, [L_XOR] = XF_SWIZZLE};
	if ((t->allow & need[l->kind]) != need[l->kind] ||
	    (l->swap && !(t->allow & XF_SWAP)))
		return fail(why, "not allowed by the spec");
	if (l->swap && g != es)
		return fail(why, "swapping the axes breaks the vectors");
	if ((int64_t)l->pitch * l->boxes < l->scols || (l->pitch * es) % g)
		return fail(why, "the pitch breaks the vectors' alignment");
	switch (l->kind) {
	case L_ROWMAJOR:
		break;
	case L_PAD:
		if (l->pitch == l->scols)
			return fail(why, "no padding");
		break;
	case L_SKEW:
		if (l->pitch != l->scols || l->gran * es < g ||
		    l->scols % l->gran || l->skew < 1 ||
		    l->skew >= l->scols / l->gran)
			return fail(why, "bad skew");
		break;
	case L_SWIZZLE:
		/* B = 0 only as the tensor cores' interleave: boxes of 16
		 * bytes; the flip keeps 8-byte halves of 128-byte lines */
		if (l->boxes < 1 || l->scols % l->boxes ||
		    l->pitch != l->scols / l->boxes || (1 << l->M) < g ||
		    l->B < (tile_mma(t) ? 0 : 1) || l->S < l->B ||
		    l->M + l->S + l->B > 40 ||
		    (l->flip && (g > 8 || l->M + l->S != 7 ||
		                 (l->pitch * es) % 128)))
			return fail(why, "the swizzle breaks the vectors");
		if (!swizzle_within(l, (int64_t)l->srows * l->pitch * es, es))
			return fail(why, "the swizzle leaves the tile");
		break;
	case L_XOR:
		/* whole chunks move within whole blocks of their own row */
		if (l->pitch != l->scols || l->gran * es < g || l->nx < 0 ||
		    l->nx > MAX_XOR_BITS)
			return fail(why, "the chunks break the vectors");
		if (layout_xor_span(l) > l->scols / l->gran)
			return fail(why, "the map leaves the row");
		break;
	}
	if (t->tma && !tma_ok(l, t))
		return fail(why, "not a layout TMA can write");
	if (tile_wgmma(t)) {
		WgmmaDesc wd;
		if (!mma_ok(l, t) || l->M != 4 || !wgmma_tile_desc(t, l->B,
		    layout_stage_step(l, t) * es, &wd, NULL))
			return fail(why, "not a layout wgmma can read");
	}
	if (tile_umma(t)) {
		UmmaDesc ud;
		if (!mma_ok(l, t) || !umma_tile_desc(t, l->B, l->M == 5,
		    layout_stage_step(l, t) * es, &ud, NULL))
			return fail(why, "not a layout tcgen05.mma can read");
	}
	if (layout_bytes(l, t) > budget)
		return fail(why, "over the footprint budget");
	return true;
}

/* Elements from one stage to the next (each stage aligned). */
int64_t layout_stage_step(const Layout *l, const Tile *t)
{
	int64_t st = layout_stage_bytes(l, t);
	return (st + t->align - 1) / t->align * t->align / tile_elem_bytes(t);
}

int64_t layout_offset(const Layout *l, const Tile *t, int r, int c)
{
	/* rows count through the stages: stage s's row r is s * rows + r */
	if (r >= t->rows)
		return r / t->rows * layout_stage_step(l, t) + layout_offset(l, t,
		       r % t->rows, c);
	int64_t sr = l->swap ? c : r, sc = l->swap ? r : c;
	switch (l->kind) {
	case L_ROWMAJOR:
	case L_PAD:
		return sr * l->pitch + sc;
	case L_SKEW: {
		int64_t k = l->scols / l->gran;
		return sr * l->pitch + (sc / l->gran + l->skew * sr) % k * l->gran +
		       sc % l->gran;
	}
	case L_SWIZZLE: {
		int64_t es = tile_elem_bytes(t);
		int64_t box = sc / l->pitch, in = sc % l->pitch;
		int64_t o = (sr * l->pitch + in) * es;
		o ^= ((o >> (l->M + l->S)) & ((1 << l->B) - 1)) << l->M;
		if (l->flip)
			o ^= (o >> 7 & 1) << 3;
		return box * l->srows * l->pitch + o / es;
	}
	case L_XOR: {
		if (sc >= layout_xor_cols(l))
			return sr * l->pitch + sc;
		uint32_t f = 0;
		for (int i = 0; i < l->nx; i++)
			if (sr >> i & 1)
				f ^= l->x[i];
		return sr * l->pitch + ((sc / l->gran) ^ f) * l->gran + sc % l->gran;
	}
	}
	return 0;
}

/* The layout as one C expression in the names r and c (which may be
 * parenthesised macro arguments): the body of NAME_idx and, in C, of the
 * NAME_IDX macro, so both are constant expressions for constant
 * arguments.  It computes exactly layout_offset within a stage. */
void layout_c_expr(const Layout *l, const Tile *t, const char *r,
                   const char *c, char *buf, size_t n)
{
	const char *sr = l->swap ? c : r, *sc = l->swap ? r : c;
	int es = (int)tile_elem_bytes(t);
	switch (l->kind) {
	case L_ROWMAJOR:
	case L_PAD:
		snprintf(buf, n, "%s * %d + %s", sr, l->pitch, sc);
		return;
	case L_SKEW:
		snprintf(buf, n, "%s * %d + (%s / %d + %d * %s) %% %d * %d + %s %% %d",
		         sr, l->pitch, sc, l->gran, l->skew, sr, l->scols / l->gran,
		         l->gran, sc, l->gran);
		return;
	case L_SWIZZLE: {
		/* Swizzle<B,M,S> on the byte offset o within a box; box b holds
		 * columns b * pitch .. and starts at element b * rows * pitch */
		char o[512], in[256], box[256] = "", sw[1800];
		if (l->boxes > 1) {
			snprintf(in, sizeof in, "%s %% %d", sc, l->pitch);
			snprintf(box, sizeof box, "%s / %d * %d + ", sc, l->pitch,
			         l->srows * l->pitch);
		} else {
			snprintf(in, sizeof in, "%s", sc);
		}
		snprintf(o, sizeof o, "(%s * %d + %s)", sr, l->pitch, in);
		if (es > 1) {
			size_t k = strlen(o);
			snprintf(o + k, sizeof o - k, " * %d", es);
		}
		if (l->B == 0)          /* the interleave: no swizzle */
			snprintf(sw, sizeof sw, "(%s)", o);
		else if (l->flip)       /* bit 7 also flips bit 3 */
			snprintf(sw, sizeof sw, "(%s ^ ((%s >> %d & %d) << %d) ^ (%s >> 7 & "
			         "1) << 3)", o, o, l->M + l->S, (1 << l->B) - 1, l->M, o);
		else
			snprintf(sw, sizeof sw, "(%s ^ ((%s >> %d & %d) << %d))", o, o,
			         l->M + l->S, (1 << l->B) - 1, l->M);
		if (es > 1)
			snprintf(buf, n, "%s%s / %d", box, sw, es);
		else
			snprintf(buf, n, "%s%s", box, sw);
		return;
	}
	case L_XOR: {
		/* chunk sc / gran XOR the row bits' masks (one shift and mask
		 * where the map is one); columns past the whole blocks stay */
		char x[1024] = "", body[2048];
		int a, nb, b;
		if (layout_xor_shift(l, &a, &nb, &b))
			snprintf(x, sizeof x, "(%s >> %d & %d) << %d", sr, a,
			         (1 << nb) - 1, b);
		for (int i = 0; !x[0] && i < l->nx; i++)
			if (l->x[i]) {
				for (int k = i; k < l->nx; k++)
					if (l->x[k]) {
						size_t m = strlen(x);
						snprintf(x + m, sizeof x - m, "%s(%s >> %d & 1) * %u",
						         m ? " ^ " : "", sr, k, l->x[k]);
					}
				break;
			}
		if (!x[0])
			snprintf(x, sizeof x, "0");
		if (l->gran == 1)
			snprintf(body, sizeof body, "%s * %d + (%s ^ (%s))", sr, l->pitch,
			         sc, x);
		else
			snprintf(body, sizeof body, "%s * %d + ((%s / %d) ^ (%s)) * %d + "
			         "%s %% %d", sr, l->pitch, sc, l->gran, x, l->gran, sc,
			         l->gran);
		int cols = layout_xor_cols(l);
		if (cols < l->scols)
			snprintf(buf, n, "(%s >= %d ? %s * %d + %s : %s)", sc, cols, sr,
			         l->pitch, sc, body);
		else
			snprintf(buf, n, "%s", body);
		return;
	}
	}
	snprintf(buf, n, "0");
}

/* The solver's inner loop: each kind has its own loop, with the
 * layout's constants hoisted out of it (the same function as
 * layout_offset, which the tests hold it to). */
static void addrs_in_stage(const Layout *l, const Tile *t, const Inst *in,
                           int64_t addr[WARP]);

void layout_inst_addrs(const Layout *l, const Tile *t, const Inst *in,
                       int64_t addr[WARP])
{
	if (t->stages == 1) {
		addrs_in_stage(l, t, in, addr);
		return;
	}
	/* rows through the stages: each lane's stage, then its row in it */
	Inst in1 = *in;
	int64_t step = layout_stage_step(l, t) * tile_elem_bytes(t), off[WARP];
	for (int n = 0; n < WARP; n++) {
		off[n] = in->lane[n].row / t->rows * step;
		in1.lane[n].row = in->lane[n].row % t->rows;
	}
	addrs_in_stage(l, t, &in1, addr);
	for (int n = 0; n < WARP; n++)
		if (in->mask >> n & 1)
			addr[n] += off[n];
}

static void addrs_in_stage(const Layout *l, const Tile *t, const Inst *in,
                           int64_t addr[WARP])
{
	int64_t es = tile_elem_bytes(t);
	uint32_t m = in->mask;
	int64_t pitch = l->pitch;
	for (int n = 0; n < WARP; n++) {
		if (!(m >> n & 1)) {
			addr[n] = 0;
			continue;
		}
		int64_t sr = l->swap ? in->lane[n].col : in->lane[n].row;
		int64_t sc = l->swap ? in->lane[n].row : in->lane[n].col;
		addr[n] = (sr * pitch + sc) * es;
	}
	switch (l->kind) {
	case L_ROWMAJOR:
	case L_PAD:
		return;
	case L_SWIZZLE:
		if (l->boxes == 1) {
			int sh = l->M + l->S, mask = (1 << l->B) - 1, m0 = l->M;
			for (int n = 0; n < WARP; n++)
				addr[n] ^= ((addr[n] >> sh) & mask) << m0 |
				           (l->flip ? (addr[n] >> 7 & 1) << 3 : 0);
			return;
		}
		break;
	case L_XOR: {
		if (!is_pow2(l->gran))
			break;
		int64_t cols = layout_xor_cols(l), g = l->gran;
		int gs = log2_floor(l->gran);     /* a power of two: shifts */
		uint32_t f[256];
		int lo = l->nx < 8 ? l->nx : 8;
		f[0] = 0;
		for (int b = 0; b < lo; b++)
			for (int j = 0; j < 1 << b; j++)
				f[(1 << b) + j] = f[j] ^ l->x[b];
		for (int n = 0; n < WARP; n++) {
			if (!(m >> n & 1))
				continue;
			int64_t sr = l->swap ? in->lane[n].col : in->lane[n].row;
			int64_t sc = l->swap ? in->lane[n].row : in->lane[n].col;
			if (sc >= cols)
				continue;
			uint32_t x = f[sr & ((1 << lo) - 1)];
			for (int b = 8; b < l->nx; b++)
				if (sr >> b & 1)
					x ^= l->x[b];
			addr[n] = (sr * pitch + ((sc >> gs) ^ x) * g + (sc & (g - 1))) * es;
		}
		return;
	}
	case L_SKEW: {
		if (!is_pow2(l->gran))
			break;      /* layout_offset below */
		/* the granule is a power of two, and the chunk index fits 32
		 * bits (columns and rows below 2^16, skews below 2^9): shifts
		 * and one 32-bit modulo, not three 64-bit divisions, since the
		 * search simulates skews by the hundred thousand */
		int gs = log2_floor(l->gran);
		uint32_t k = (uint32_t)(l->scols >> gs), s = (uint32_t)l->skew;
		uint32_t gm = (uint32_t)l->gran - 1;
		for (int n = 0; n < WARP; n++) {
			if (!(m >> n & 1))
				continue;
			uint32_t sr = (uint32_t)(l->swap ? in->lane[n].col : in->lane[n].row);
			uint32_t sc = (uint32_t)(l->swap ? in->lane[n].row : in->lane[n].col);
			int64_t chunk = ((sc >> gs) + s * sr) % k;
			addr[n] = ((int64_t)sr * pitch + (chunk << gs) + (sc & gm)) * es;
		}
		return;
	}
	}
	for (int n = 0; n < WARP; n++)
		if (m >> n & 1)
			addr[n] = layout_offset(l, t, in->lane[n].row, in->lane[n].col) * es;
}

void layout_sim_inst(const Geom *g, const Layout *l, const Tile *t,
                     const Access *a, const Inst *in, SimResult *r)
{
	int64_t addr[WARP];
	const char *err;
	layout_inst_addrs(l, t, in, addr);
	int bytes = (int)(a->vec * tile_elem_bytes(t));
	/* the checker made every vector aligned and the op's width legal, and
	 * every legal layout keeps them so */
	if (!sim_inst(g, a->op, bytes, in->mask, addr, r, &err))
		internal_error("%s", err);
}
