/* Layouts: the map from a logical (row, col) to a place in the tile's
 * shared memory.  The solver chooses among them; everything that costs an
 * access goes through layout_inst_addrs, and the emitted indexing macros
 * compute the same function. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "bankc.h"

int tile_granule(const Tile *t)
{
	int g = (int)tile_elem_bytes(t);
	for (int j = 0; j < t->nacc; j++) {
		int b = (int)(t->acc[j].vec * tile_elem_bytes(t));
		if (b > g)
			g = b;
	}
	return g;
}

Layout layout_base(const Tile *t, LayoutKind kind, bool swap)
{
	Layout l = {0};
	l.kind = kind;
	l.swap = swap;
	l.srows = swap ? t->cols : t->rows;
	l.scols = swap ? t->rows : t->cols;
	l.pitch = l.scols;
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
	    a->nx != b->nx)
		return false;
	for (int i = 0; i < a->nx; i++)
		if (a->x[i] != b->x[i])
			return false;
	return true;
}

int64_t layout_stage_bytes(const Layout *l, const Tile *t)
{
	return (int64_t)l->srows * l->pitch * tile_elem_bytes(t);
}

int64_t layout_bytes(const Layout *l, const Tile *t)
{
	int64_t s = layout_stage_bytes(l, t);
	int64_t step = (s + t->align - 1) / t->align * t->align;
	return step * (t->stages - 1) + s;
}

static bool pow2(int64_t v)
{
	return v > 0 && (v & (v - 1)) == 0;
}

int layout_arith(const Layout *l)
{
	switch (l->kind) {
	case L_ROWMAJOR: return 0;
	case L_PAD: return pow2(l->pitch) ? 0 : 1;
	case L_SKEW: return 3;
	case L_SWIZZLE: return 3;
	case L_XOR: {
		int nnz = 0;
		for (int i = 0; i < l->nx; i++)
			nnz += l->x[i] != 0;
		return 1 + 2 * nnz;
	}
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
		snprintf(buf, n, "swizzle<%d,%d,%d>", l->B, l->M, l->S);
		break;
	case L_XOR: {
		k = snprintf(buf, n, "xor %dB:", (int)(l->gran * tile_elem_bytes(t)));
		for (int i = 0; i < l->nx && k > 0 && (size_t)k < n; i++)
			if (l->x[i])
				k += snprintf(buf + k, n - (size_t)k, " r%d>%u", i, l->x[i]);
		break;
	}
	}
}

json_t *layout_params_json(const Layout *l, const Tile *t)
{
	json_t *p = json_pack("{s:b, s:i}", "swap", l->swap, "pitch", l->pitch);
	int64_t es = tile_elem_bytes(t);
	switch (l->kind) {
	case L_ROWMAJOR:
		break;
	case L_PAD:
		json_object_set_new(p, "pad", json_integer(l->pitch - l->scols));
		break;
	case L_SKEW:
		json_object_set_new(p, "skew", json_integer(l->skew));
		json_object_set_new(p, "chunk_bytes", json_integer(l->gran * es));
		break;
	case L_SWIZZLE:
		json_object_set_new(p, "B", json_integer(l->B));
		json_object_set_new(p, "M", json_integer(l->M));
		json_object_set_new(p, "S", json_integer(l->S));
		break;
	case L_XOR: {
		json_t *x = json_array();
		for (int i = 0; i < l->nx; i++)
			json_array_append_new(x, json_integer(l->x[i]));
		json_object_set_new(p, "chunk_bytes", json_integer(l->gran * es));
		json_object_set_new(p, "row_bit_masks", x);
		break;
	}
	}
	return p;
}

static bool fail(const char **why, const char *msg)
{
	*why = msg;
	return false;
}

/* TMA writes only its own swizzle modes, on rows of exactly the span. */
static bool tma_ok(const Layout *l, const Tile *t)
{
	if (l->swap)
		return false;
	if (l->kind == L_ROWMAJOR)
		return true;
	return l->kind == L_SWIZZLE && l->M == 4 && l->S == 3 && l->B >= 1 &&
	       l->B <= 3 && l->scols * tile_elem_bytes(t) == (16 << l->B) &&
	       t->align >= (128 << l->B);
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
	if (l->pitch < l->scols || (l->pitch * es) % g)
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
		if (l->pitch != l->scols || (1 << l->M) < g || l->M < 2 ||
		    l->B < 1 || l->S < l->B ||
		    layout_stage_bytes(l, t) % (1LL << (l->M + l->B)))
			return fail(why, "the swizzle breaks the vectors or leaves the tile");
		break;
	case L_XOR: {
		/* the map flips the low chunk bits: they must stay in the row */
		int k = l->scols / l->gran;
		uint32_t all = 0;
		for (int i = 0; i < l->nx; i++)
			all |= l->x[i];
		uint32_t span = 1;
		while (span <= all)
			span <<= 1;
		if (l->pitch != l->scols || l->gran * es < g || l->scols % l->gran ||
		    l->nx > MAX_XOR_BITS)
			return fail(why, "the chunks break the vectors");
		if (k % span)
			return fail(why, "the map leaves the row");
		break;
	}
	}
	if (t->tma && !tma_ok(l, t))
		return fail(why, "not a layout TMA can write");
	if (layout_bytes(l, t) > budget)
		return fail(why, "over the footprint budget");
	return true;
}

int64_t layout_offset(const Layout *l, const Tile *t, int r, int c)
{
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
		int64_t o = (sr * l->pitch + sc) * es;
		o ^= ((o >> (l->M + l->S)) & ((1 << l->B) - 1)) << l->M;
		return o / es;
	}
	case L_XOR: {
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
 * arguments.  It computes exactly layout_offset. */
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
		/* Swizzle<B,M,S> on the byte offset o = (sr * pitch + sc) * E */
		char o[256];
		if (es == 1)
			snprintf(o, sizeof o, "(%s * %d + %s)", sr, l->pitch, sc);
		else
			snprintf(o, sizeof o, "(%s * %d + %s) * %d", sr, l->pitch, sc, es);
		if (es == 1)
			snprintf(buf, n, "(%s ^ ((%s >> %d & %d) << %d))", o, o,
			         l->M + l->S, (1 << l->B) - 1, l->M);
		else
			snprintf(buf, n, "(%s ^ ((%s >> %d & %d) << %d)) / %d", o, o,
			         l->M + l->S, (1 << l->B) - 1, l->M, es);
		return;
	}
	case L_XOR: {
		/* chunk sc / gran XOR the row bits' masks */
		char x[1024] = "";
		size_t k = 0;
		for (int i = 0; i < l->nx && k < sizeof x; i++)
			if (l->x[i])
				k += (size_t)snprintf(x + k, sizeof x - k, "%s(%s >> %d & 1) * %u",
				                      k ? " ^ " : "", sr, i, l->x[i]);
		if (!k)
			snprintf(x, sizeof x, "0");
		snprintf(buf, n, "%s * %d + ((%s / %d) ^ (%s)) * %d + %s %% %d", sr,
		         l->pitch, sc, l->gran, x, l->gran, sc, l->gran);
		return;
	}
	}
	snprintf(buf, n, "0");
}

/* The solver's inner loop: the common kinds get their own loops, with
 * the layout's constants hoisted; the rest go through layout_offset. */
void layout_inst_addrs(const Layout *l, const Tile *t, const Inst *in,
                       int64_t addr[WARP])
{
	int64_t es = tile_elem_bytes(t);
	uint32_t m = in->mask;
	if (!l->swap && (l->kind == L_ROWMAJOR || l->kind == L_PAD)) {
		for (int n = 0; n < WARP; n++)
			addr[n] = m >> n & 1 ? ((int64_t)in->lane[n].row * l->pitch +
			                        in->lane[n].col) * es : 0;
		return;
	}
	if (!l->swap && l->kind == L_SWIZZLE) {
		int sh = l->M + l->S, mask = (1 << l->B) - 1, m0 = l->M;
		for (int n = 0; n < WARP; n++) {
			int64_t o = ((int64_t)in->lane[n].row * l->pitch +
			             in->lane[n].col) * es;
			addr[n] = m >> n & 1 ? o ^ (((o >> sh) & mask) << m0) : 0;
		}
		return;
	}
	for (int n = 0; n < WARP; n++)
		addr[n] = m >> n & 1
		        ? layout_offset(l, t, in->lane[n].row, in->lane[n].col) * es
		        : 0;
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
	if (!sim_inst(g, a->op, bytes, in->mask, addr, r, &err)) {
		fprintf(stderr, "bankc: internal error: %s\n", err);
		abort();
	}
}
