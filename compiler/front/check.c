/* The checker: gives each tile its meaning and expands every access into
 * the warp instructions the simulator will cost.  Everything a layout
 * cannot fix (an element outside the tile, a vector that leaves its row
 * or breaks alignment, an operation the GPU lacks) is an error here. */
#include <string.h>

#include "bankc.h"
#include "front/front.h"

/* Sub-byte types: a tile of them is a tile of bytes, rows whole bytes. */
static void to_bytes(Diag *d, Tile *t)
{
	int bits = tile_elem_bits(t);
	t->ecols = t->cols;
	t->elen = t->len;
	if (bits >= 8)
		return;
	if ((int64_t)t->cols * bits % 8)
		diag_error(d, t->key[K_SHAPE], "rows of %d %s elements (%d bits "
		           "each) do not end on a byte", t->cols,
		           tab_dtype[t->dtype].name, bits);
	t->cols = t->cols * bits / 8;
	if (t->len)
		t->len = t->cols;
}

static const char *const key_word[K_COUNT] = {
	[K_SHAPE] = "shape", [K_DTYPE] = "dtype", [K_ARCH] = "arch",
};

static void check_tile_keys(Diag *d, Tile *t)
{
	static const TileKey required[] = {K_SHAPE, K_DTYPE, K_ARCH};
	for (size_t i = 0; i < sizeof required / sizeof *required; i++)
		if (!(t->given & (1u << required[i])))
			diag_error(d, t->pos, "tile '%s' has no '%s'", t->name,
			           key_word[required[i]]);
	const ArchInfo *ar = &tab_arch[t->arch];
	int64_t es = tile_elem_bytes(t);
	to_bytes(d, t);
	if (t->len == 0 && t->cols == 0 && t->rows == 1)
		diag_error(d, t->key[K_SHAPE], "empty tile: shape 0");
	if (t->len > MAX_LEN)
		diag_error(d, t->key[K_SHAPE], "shape %d is too large (at most %d "
		           "elements)", t->len, MAX_LEN);
	if (t->rows == 0 || t->cols == 0)
		diag_error(d, t->key[K_SHAPE], "empty tile: shape %d x %d", t->rows,
		           t->cols);
	if (!t->len && (t->rows > MAX_DIM || t->cols > MAX_DIM))
		diag_error(d, t->key[K_SHAPE], "shape %d x %d is too large (at most "
		           "%d rows and %d columns)", t->rows, t->cols, MAX_DIM, MAX_DIM);
	if (t->stages < 1 || t->stages > MAX_STAGES)
		diag_error(d, t->key[K_STAGES], "stages must be from 1 to %d",
		           MAX_STAGES);
	/* the swizzles TMA writes and wgmma reads repeat every 256 to 1024
	 * bytes, from an aligned base: such a tile without `align` gets the
	 * alignment that lets the solver take any of them */
	if (!(t->given & (1u << K_ALIGN)) && (t->tma || tile_mma(t)))
		t->align = 1024;
	if (!is_pow2(t->align) || t->align < es || t->align > 1024)
		diag_error(d, t->key[K_ALIGN], "alignment %d must be a power of two "
		           "from %lld (the element size) to 1024", t->align,
		           (long long)es);
	int64_t bytes = tile_bytes(t);
	char how[96] = "";
	if (t->stages > 1)
		snprintf(how, sizeof how, " (%d stages of %lld bytes, each aligned to "
		         "%d)", t->stages, (long long)t->rows * t->cols * es, t->align);
	if (bytes > ar->smem_block)
		diag_error(d, t->key[K_SHAPE], "tile needs %lld bytes of shared "
		           "memory%s; %s allows at most %d per block", (long long)bytes,
		           how, ar->name, ar->smem_block);
	if (t->given & (1u << K_BUDGET)) {
		if (t->budget > ar->smem_block)
			diag_error(d, t->key[K_BUDGET], "budget of %lld bytes is more than "
			           "%s allows per block (%d)", (long long)t->budget,
			           ar->name, ar->smem_block);
		if (t->budget < bytes)
			diag_error(d, t->key[K_BUDGET], "budget of %lld bytes is less than "
			           "the tile's own %lld bytes", (long long)t->budget,
			           (long long)bytes);
	}
	if ((t->given & (1u << K_THREADS)) &&
	    (t->threads < 32 || t->threads > 1024 || t->threads % 32))
		diag_error(d, t->key[K_THREADS], "threads per block must be a multiple "
		           "of 32 from 32 to 1024, not %d", t->threads);
	if (t->tma && ar->cc < 90)
		diag_error(d, t->key[K_TMA], "TMA needs sm_90 or later, not %s",
		           ar->name);
	if ((t->given & (1u << K_TRADEOFF)) && t->tradeoff < 1)
		diag_error(d, t->key[K_TRADEOFF], "tradeoff must be at least 1 byte "
		           "per wavefront");
	if (t->nacc == 0)
		diag_error(d, t->end, "tile '%s' has no accesses", t->name);
}

/* The leftmost source position of an expression, where a caret reads
 * best for a fault of its value. */
static Pos expr_start(const Expr *e)
{
	while (e->kind == E_BIN)
		e = e->l;
	return e->pos;
}

/* Vector width: its default, and the widths each operation can move. */
static void check_vec(Diag *d, const Tile *t, Access *a)
{
	int es = (int)tile_elem_bytes(t);
	char opn[32];
	tab_op_name(a->op, opn, sizeof opn);
	const ArchInfo *ar = &tab_arch[t->arch];
	/* the architecture-specific ones say which targets they need below
	 * (UMMA: expand_mma) */
	bool specific = a->op.kind == OP_UMMA ||
	                (op_is_matrix(a->op) && a->op.shape != MAT_M8N8);
	if (ar->cc < op_min_cc(a->op) && !specific)
		diag_error(d, a->op_pos, "%s needs sm_%d or later, not %s", opn,
		           op_min_cc(a->op), ar->name);
	if (op_is_matrix(a->op) && a->op.shape != MAT_M8N8) {
		/* PTX ISA: the 8-bit forms exist on sm_100a, sm_103a and sm_120a
		 * (and their families); like m8n8, they move rows of 16 bytes
		 * whatever the tile's element type */
		if (!ar->matrix_b8)
			diag_error(d, a->op_pos, "%s needs sm_100a, sm_103a or sm_120a (the "
			           "8-bit matrix forms are architecture-specific), not %s",
			           opn, ar->name);
	}
	if (op_is_mma(a->op)) {
		/* a descriptor reads the tile: no lanes, no vectors (16 bytes a
		 * core-matrix row); the operand's own rules are expand_mma's */
		a->vec = 16 / es;
		a->evec = a->vec;
		a->vec_pos = a->op_pos;
		return;
	}
	if (!a->vec_given) {
		if (op_is_matrix(a->op) || a->op.kind == OP_CPASYNC)
			a->vec = 16 / es;
		else
			a->vec = 1;
		a->vec_pos = a->op_pos;
	}
	if (a->vec < 1)
		diag_error(d, a->vec_pos, "vector width must be at least 1");
	int bits = tile_elem_bits(t);
	a->evec = a->vec;
	if (bits < 8) {
		/* a lane moves whole bytes: vec counts elements, then bytes */
		if (!a->vec_given && !op_is_matrix(a->op) && a->op.kind != OP_CPASYNC)
			a->evec = a->vec = 8 / gcd_int(8, bits);
		else if (!a->vec_given)
			a->evec = a->vec = 16 * 8 / bits;
		if (bits == 6)
			diag_error(d, a->vec_pos, "no whole number of %s elements (6 bits) "
			           "fills the 1, 2, 4, 8 or 16 bytes a lane moves: describe "
			           "packed 6-bit data as a tile of bytes (dtype u8)",
			           tab_dtype[t->dtype].name);
		if ((int64_t)a->evec * bits % 8)
			diag_error(d, a->vec_pos, "a lane moves whole bytes: %d %s "
			           "elements are %lld bits", a->evec,
			           tab_dtype[t->dtype].name, (long long)a->evec * bits);
		a->vec = (int)((int64_t)a->evec * bits / 8);
	}
	int64_t bytes = (int64_t)a->vec * es;
	if (op_is_matrix(a->op)) {
		if (bytes != 16)
			diag_error(d, a->vec_pos, "%s moves 16 bytes per row address: "
			           "vec must be %d for %s", opn, 16 * 8 / tile_elem_bits(t),
			           tab_dtype[t->dtype].name);
	} else if (a->op.kind == OP_ATOM) {
		if (bytes == 8 && a->op.aop != AOP_CAS)
			diag_error(d, a->vec_pos, "%s of 8 bytes runs as a compare-and-swap "
			           "loop whose length depends on timing; bankc models "
			           "'atom.cas' of 8 bytes (write the loop's expected tries "
			           "as its weight)", opn);
		if (bytes != 4 && bytes != 8)
			diag_error(d, a->vec_pos, "shared atomics move 4 bytes per lane "
			           "(8 for atom.cas), not %lld (vec %d of %s)",
			           (long long)bytes, a->evec, tab_dtype[t->dtype].name);
	} else if (a->op.kind == OP_CPASYNC) {
		if (bytes != 4 && bytes != 8 && bytes != 16)
			diag_error(d, a->vec_pos, "cp.async copies 4, 8 or 16 bytes per "
			           "lane, not %lld (vec %d of %s)", (long long)bytes,
			           a->evec, tab_dtype[t->dtype].name);
	} else if (!is_pow2(bytes) || bytes > 16) {
		diag_error(d, a->vec_pos, "%s moves 1, 2, 4, 8 or 16 bytes per lane, "
		           "not %lld (vec %d of %s)", opn, (long long)bytes, a->evec,
		           tab_dtype[t->dtype].name);
	}
	/* sub-byte: vec and cols count bytes here, evec and ecols elements */
	int ecols = bits < 8 ? t->ecols : t->cols;
	if (a->vec > t->cols)
		diag_error(d, a->vec_pos, "a vector of %d elements is wider than the "
		           "row (%d columns)", a->evec, ecols);
	if (bytes > t->align)
		diag_error(d, a->vec_pos, "vectors of %lld bytes need the tile "
		           "aligned to %lld bytes, but align is %d", (long long)bytes,
		           (long long)bytes, t->align);
	if (t->cols % a->vec)
		diag_error(d, a->vec_pos, "rows of %d elements do not split into "
		           "aligned vectors of %d", ecols, a->evec);
	if (a->weight < 1)
		diag_error(d, a->weight_pos, "weight must be at least 1");
	if (op_is_matrix(a->op) && a->active)
		diag_error(d, expr_start(a->active), "%s is warp-synchronous: every lane "
		           "takes part, so 'active' is not allowed", opn);
}

/* " (lane 5, mi = 1, ki = 0)"; lane < 0: none */
static void where(char *buf, size_t n, const Access *a, int lane,
                  const int64_t *vars, int nvars)
{
	buf[0] = 0;
	int k = lane >= 0 ? snprintf(buf, n, " (lane %d", lane)
	                  : nvars ? snprintf(buf, n, " (") : 0;
	for (int i = 0; i < nvars && k > 0 && (size_t)k < n; i++)
		k += snprintf(buf + k, n - (size_t)k, "%s%s = %lld",
		              i || lane >= 0 ? ", " : "", a->loops[i].name,
		              (long long)vars[i + 1]);
	if (k > 0 && (size_t)k < n)
		snprintf(buf + k, n - (size_t)k, ")");
}

/* An evaluation failed: the error at its operator, with the lane and the
 * loop values that led there. */
_Noreturn static void eval_failed(Diag *d, const Access *a, const EvalCtx *cx,
                                  int nvars)
{
	char w[256];
	where(w, sizeof w, a, cx->lane, cx->vars, nvars);
	diag_error(d, cx->at, "%s%s", cx->err, w);
}

/* Check one lane's first element and vector against the tile. */
static void check_coord(Diag *d, const Tile *t, const Access *a,
                        int64_t r, int64_t c, int lane, const int64_t *vars)
{
	if (r >= 0 && r < t->rows && c >= 0 && c < t->cols && c % a->vec == 0)
		return;         /* the common case: no message to format */
	char w[256] = "";
	if (vars)
		where(w, sizeof w, a, lane, vars, a->nloops);
	const char *kind = t->view_of ? "view" : "tile";
	if (a->idx) {       /* a 1-D tile: one index */
		Pos ip = expr_start(a->idx);
		if (c < 0 || c >= t->cols)
			diag_error(d, ip, "access '%s' reaches element %lld, outside the "
			           "%s's elements 0..%d%s", a->name, (long long)c, kind,
			           t->cols - 1, w);
		diag_error(d, ip, "access '%s': element %lld is not a multiple of "
		           "the vector width %d, so the vector is misaligned%s",
		           a->name, (long long)c, a->vec, w);
	}
	Pos rp = a->row ? expr_start(a->row) : a->pos;
	Pos cp = a->col ? expr_start(a->col) : a->pos;
	if (r < 0 || r >= t->rows)
		diag_error(d, rp, "access '%s' reaches row %lld, outside the %s's "
		           "rows 0..%d%s", a->name, (long long)r, kind, t->rows - 1, w);
	if (c < 0 || c >= t->cols)
		diag_error(d, cp, "access '%s' reaches column %lld, outside the "
		           "%s's columns 0..%d%s", a->name, (long long)c, kind,
		           t->cols - 1, w);
	diag_error(d, cp, "access '%s': column %lld is not a multiple of the "
	           "vector width %d, so the vector is misaligned%s", a->name,
	           (long long)c, a->vec, w);
}

/* A sub-byte element's column, as the column of the byte it starts: it
 * must start one (vectors of whole bytes, aligned as their elements). */
static int64_t sub_byte_col(Diag *d, const Tile *t, const Access *a,
                            int64_t c, int lane, const int64_t *vars, int bits)
{
	if (c >= 0 && c < t->ecols && c * bits % 8 == 0 && c % a->evec == 0)
		return c * bits / 8;
	char w[256] = "";
	where(w, sizeof w, a, lane, vars, a->nloops);
	Pos cp = expr_start(a->idx ? a->idx : a->col);
	if (c < 0 || c >= t->ecols)
		diag_error(d, cp, "access '%s' reaches %s %lld, outside the tile's "
		           "%s 0..%d%s", a->name, a->idx ? "element" : "column",
		           (long long)c, a->idx ? "elements" : "columns", t->ecols - 1, w);
	diag_error(d, cp, "access '%s': %s %lld is not a multiple of the vector "
	           "width %d, so the vector is misaligned%s", a->name,
	           a->idx ? "element" : "column", (long long)c, a->evec, w);
}

/* Shorthand: lanes take consecutive vectors of the tile in row-major
 * order (along row) or column-major order (along col), a warp
 * instruction per op_lanes() vectors, swept over the whole tile. */
static void expand_sweep(Pool *p, Diag *d, const Tile *t, Access *a)
{
	if (t->len && a->place == PL_COL)
		diag_error(d, a->pos, "access '%s': a one-dimensional tile has no "
		           "columns to sweep; use 'along row'", a->name);
	int64_t per_row = t->cols / a->vec;
	int64_t total = (int64_t)t->rows * per_row;
	int lanes = op_lanes(a->op);
	int64_t n = (total + lanes - 1) / lanes;
	if (n > MAX_INSTS)
		diag_error(d, a->pos, "access '%s' sweeps %lld warp instructions "
		           "(limit %d)", a->name, (long long)n, MAX_INSTS);
	a->ninst = (int)n;
	a->inst = pool_alloc(p, (size_t)n * sizeof *a->inst);
	for (int64_t i = 0; i < n; i++) {
		Inst *in = &a->inst[i];
		in->weight = 1;
		for (int l = 0; l < lanes; l++) {
			int64_t k = i * lanes + l;
			if (k >= total)
				break;
			int64_t r, c;
			if (a->place == PL_ROW)
				r = k / per_row, c = (k % per_row) * a->vec;
			else
				r = k % t->rows, c = (k / t->rows) * a->vec;
			in->mask |= 1u << l;
			in->lane[l] = (Coord){(int32_t)r, (int32_t)c};
		}
	}
}

/* wgmma's operand rules (PTX ISA, wgmma.mma_async: its shapes, types and
 * transposes). */
static void check_wgmma_operand(Diag *d, const Tile *t, const Access *a)
{
	const ArchInfo *ar = &tab_arch[t->arch];
	int64_t es = tile_elem_bytes(t), rb = t->cols * es;
	Dtype dt = t->dtype;
	bool b16 = dt == DT_F16 || dt == DT_BF16;
	bool b8 = dt == DT_FP8E4M3 || dt == DT_FP8E5M2 || dt == DT_I8 ||
	          dt == DT_U8;
	char opn[32];
	tab_op_name(a->op, opn, sizeof opn);
	if (ar->cc >= 100 && ar->tcgen05)
		diag_error(d, a->op_pos, "%s needs sm_90a, not %s: Blackwell's tensor "
		           "cores take their operands through tcgen05.mma (umma.a, "
		           "umma.b)", opn, ar->name);
	if (ar->cc != 90 || !ar->specific)
		diag_error(d, a->op_pos, "%s needs sm_90a (wgmma is Hopper's and "
		           "architecture-specific), not %s", opn, ar->name);
	if (!b16 && !b8 && dt != DT_TF32)
		diag_error(d, a->op_pos, "%s takes f16, bf16, tf32, fp8e4m3, fp8e5m2, "
		           "i8 or u8 operands, not %s", opn, tab_dtype[dt].name);
	if (a->op.mn_major && !b16)
		diag_error(d, a->op_pos, "%s of %s must be 'major k': only 16-bit "
		           "operands can be M- or N-major", opn, tab_dtype[dt].name);
	if (t->len)
		diag_error(d, a->op_pos, "%s needs a tile with rows and columns",
		           opn);
	if (t->rows % 8 || rb % 16)
		diag_error(d, t->key[K_SHAPE], "a wgmma operand is made of core "
		           "matrices of 8 rows of 16 bytes: %d rows of %lld bytes are "
		           "not", t->rows, (long long)rb);
	if (!a->op.mma_b && !a->op.mn_major && t->rows % 64)
		diag_error(d, t->key[K_SHAPE], "wgmma.a major k: the tile's rows are "
		           "M, which wgmma takes 64 at a time; %d is not a multiple of "
		           "64", t->rows);
	if (!a->op.mma_b && a->op.mn_major && t->cols % 64)
		diag_error(d, t->key[K_SHAPE], "wgmma.a major mn: the tile's columns "
		           "are M, which wgmma takes 64 at a time; %d is not a "
		           "multiple of 64", t->cols);
	/* one instruction takes 32 bytes of K: k16 of 16-bit types, k8 of
	 * tf32, k32 of 8-bit ones */
	if (!a->op.mn_major && rb % 32 == 16)
		diag_error(d, t->key[K_SHAPE], "%s: the tile's columns are K, which "
		           "wgmma takes 32 bytes at a time; rows of %lld bytes are not "
		           "a multiple of 32", opn, (long long)rb);
	if (a->op.mn_major && t->rows % 16 == 8)
		diag_error(d, t->key[K_SHAPE], "%s: the tile's rows are K, which "
		           "wgmma takes 16 at a time; %d is not a multiple of 16", opn,
		           t->rows);
}

/* tcgen05.mma's operand rules (PTX ISA, tcgen05: "Matrix Shape", the
 * instruction descriptor's types and transpose bits): kind::f16 (f16,
 * bf16), kind::tf32, kind::f8f6f4 (fp8 here; its 6- and 4-bit operands sit
 * in 16-byte containers, a tile of bytes), kind::i8, all four K- or
 * MN-major; kind::mxf4 (packed fp4e2m1), K-major only.  One instruction
 * takes 32 bytes of K; M is 64 or 128 a CTA (128 for kind::mxf4 alone;
 * a CTA pair's M of 128 or 256 is half in each); N a multiple of 8. */
static void check_umma_operand(Diag *d, const Tile *t, const Access *a)
{
	const ArchInfo *ar = &tab_arch[t->arch];
	int64_t es = tile_elem_bytes(t), rb = t->cols * es;
	Dtype dt = t->dtype;
	char opn[32];
	tab_op_name(a->op, opn, sizeof opn);
	if (!ar->tcgen05) {
		if (ar->cc >= 120)
			diag_error(d, a->op_pos, "%s needs tcgen05, which %s does not have "
			           "(consumer Blackwell: no tcgen05, wgmma or tensor "
			           "memory; its mma.sync reads registers, filled by "
			           "ldmatrix): use sm_100a or sm_103a", opn, ar->name);
		else if (ar->cc >= 100)
			diag_error(d, a->op_pos, "%s needs sm_100a or sm_103a (tcgen05 is "
			           "architecture-specific), not %s", opn, ar->name);
		else
			diag_error(d, a->op_pos, "%s needs sm_100a or sm_103a (tcgen05 is "
			           "Blackwell's), not %s", opn, ar->name);
	}
	bool fp4 = dt == DT_FP4E2M1;
	if (dt == DT_FP6E2M3 || dt == DT_FP6E3M2)
		diag_error(d, a->op_pos, "%s reads 6-bit operands unpacked, 16 to a "
		           "16-byte container (kind::f8f6f4; TMA's 16U6_ALIGN16B): "
		           "describe such a tile as bytes (dtype u8, a byte per "
		           "element)", opn);
	if (dt != DT_F16 && dt != DT_BF16 && dt != DT_TF32 && dt != DT_FP8E4M3 &&
	    dt != DT_FP8E5M2 && dt != DT_I8 && dt != DT_U8 && !fp4)
		diag_error(d, a->op_pos, "%s takes f16, bf16, tf32, fp8e4m3, fp8e5m2, "
		           "i8, u8 or (packed) fp4e2m1 operands, not %s", opn,
		           tab_dtype[dt].name);
	if (fp4 && a->op.mn_major)
		diag_error(d, a->op_pos, "%s of packed fp4e2m1 (kind::mxf4) must be "
		           "'major k': the instruction cannot transpose it", opn);
	if (t->len)
		diag_error(d, a->op_pos, "%s needs a tile with rows and columns",
		           opn);
	if (t->rows % 8 || rb % 16)
		diag_error(d, t->key[K_SHAPE], "a tcgen05.mma operand is made of core "
		           "matrices of 8 rows of 16 bytes: %d rows of %lld bytes are "
		           "not", t->rows, (long long)rb);
	int m = fp4 && a->op.cta_group == 1 ? 128 : 64;
	int mn = a->op.mn_major ? t->ecols : t->rows;
	if (!a->op.mma_b && mn % m)
		diag_error(d, t->key[K_SHAPE], "umma.a major %s: the tile's %s are M, "
		           "which tcgen05.mma%s takes %d at a time %s; %d is not a "
		           "multiple of %d", a->op.mn_major ? "mn" : "k",
		           a->op.mn_major ? "columns" : "rows", fp4 ? " (kind::mxf4)" : "",
		           m, a->op.cta_group == 2 ? "in each CTA of the pair" : "in a CTA",
		           mn, m);
	if (a->op.mma_b && a->op.mn_major && t->ecols % 8)
		diag_error(d, t->key[K_SHAPE], "umma.b major mn: the tile's columns are "
		           "N, which tcgen05.mma takes in eights; %d is not a multiple "
		           "of 8", t->ecols);
	/* one instruction takes 32 bytes of K: k16 of 16-bit types, k8 of
	 * tf32, k32 of 8-bit ones, k64 of packed fp4 */
	if (!a->op.mn_major && rb % 32 == 16)
		diag_error(d, t->key[K_SHAPE], "%s: the tile's columns are K, which "
		           "tcgen05.mma takes 32 bytes at a time; rows of %lld bytes "
		           "are not a multiple of 32", opn, (long long)rb);
	/* MN-major tf32 has one layout, the 128-byte swizzle on 32-byte atoms,
	 * whose pattern starts on 1024-byte boundaries (model/umma.c) */
	if (a->op.mn_major && dt == DT_TF32 && t->align < 1024)
		diag_error(d, t->key[K_ALIGN], "%s of tf32, MN-major, is read in the "
		           "128-byte swizzle on 32-byte atoms alone, whose pattern starts "
		           "on a 1024-byte boundary: align %d is below it", opn,
		           t->align);
	if (a->op.mn_major && t->rows % (32 / es))
		diag_error(d, t->key[K_SHAPE], "%s: the tile's rows are K, which "
		           "tcgen05.mma takes %lld at a time for %s; %d is not a "
		           "multiple of %lld", opn, (long long)(32 / es),
		           tab_dtype[dt].name, t->rows, (long long)(32 / es));
}

/* A tensor core's operand: the instruction reads every core matrix (8
 * rows of 16 bytes) of the tile; four make one instruction here, each
 * one phase.  What it may be checked against: the operand's shape and
 * type rules. */
static void expand_mma(Pool *p, Diag *d, const Tile *t, Access *a)
{
	if (a->op.kind == OP_WGMMA)
		check_wgmma_operand(d, t, a);
	else
		check_umma_operand(d, t, a);
	int64_t es = tile_elem_bytes(t), rb = t->cols * es;
	int64_t n = (int64_t)t->stages * (t->rows / 8) * (rb / 16);
	n = (n + 3) / 4;
	if (n > MAX_INSTS)
		diag_error(d, a->pos, "access '%s' has %lld instructions (limit %d)",
		           a->name, (long long)n, MAX_INSTS);
	a->ninst = (int)n;
	a->inst = pool_alloc(p, (size_t)n * sizeof *a->inst);
	/* a phase: a core matrix, 8 rows of 16 bytes; MN-major tf32, which
	 * tcgen05.mma reads in 32-byte atoms (its one layout, Swizzle<2,5,2>),
	 * 4 rows of 32 bytes */
	bool atoms32 = a->op.kind == OP_UMMA && a->op.mn_major && es == 4;
	int gr = atoms32 ? 4 : 8, gb = atoms32 ? 32 : 16;
	int64_t k = 0, per_row = rb / gb;
	for (int s = 0; s < t->stages; s++)
		for (int g = 0; g < t->rows / gr; g++)
			for (int64_t q = 0; q < per_row; q++, k++) {
				Inst *in = &a->inst[k / 4];
				in->weight = 1;
				for (int i = 0; i < 8; i++) {
					int lane = (int)(k % 4) * 8 + i;
					int r = atoms32 ? i / 2 : i;
					int64_t b = q * gb + (atoms32 ? 16 * (i % 2) : 0);
					in->mask |= 1u << lane;
					in->lane[lane] = (Coord){s * t->rows + gr * g + r,
					                         (int32_t)(b / es)};
				}
			}
}

/* ---- the general form ------------------------------------------------------ */

/* Mark the lets an expression needs, directly or through other lets:
 * those of `active` (for_all) are evaluated for every lane, the others
 * for the active lanes only; those of `weight` (for_weight) cannot depend
 * on the lane (nor can the weight) and are evaluated once, before the
 * weight, for each combination of the loop variables. */
static void mark_lets(Access *a, const Expr *e, bool weight)
{
	if (!e)
		return;
	if (e->kind == E_LET) {
		bool *m = weight ? &a->lets[e->var].for_weight : &a->lets[e->var].for_all;
		if (!*m) {
			*m = true;
			mark_lets(a, a->lets[e->var].e, weight);
		}
	}
	mark_lets(a, e->l, weight);
	mark_lets(a, e->r, weight);
	mark_lets(a, e->c, weight);
}

/* Walking the loop nest: every combination of the loop variables (the
 * first outermost), each range evaluated at its outer variables' values. */
typedef struct Walk Walk;
struct Walk {
	Diag *d;
	const Tile *t;
	Access *a;
	EvalCtx cx;
	int64_t vars[MAX_LOOPS + 1];
	int64_t steps;          /* loop values visited, at every level */
	int64_t count;          /* instructions (with a nonzero weight) */
	bool fill;              /* second pass: make the instructions */
	int64_t lets[MAX_LETS][WARP];
};

/* Loop values visited at all levels of one access: a nest of empty inner
 * ranges makes no instruction but still takes time. */
enum { MAX_LOOP_STEPS = 1 << 22 };

static int64_t scalar(Walk *w, const Expr *e, int nvars)
{
	int64_t v;
	if (!expr_eval_scalar(e, &w->cx, &v)) {
		w->cx.lane = -1;
		eval_failed(w->d, w->a, &w->cx, nvars);
	}
	return v;
}

static void lanes_eval(Walk *w, const Expr *e, uint32_t mask, int64_t *out)
{
	if (!expr_eval_lanes(e, &w->cx, mask, out))
		eval_failed(w->d, w->a, &w->cx, w->a->nloops);
}

/* One combination of the loop variables: its weight, then (second pass)
 * its lanes' elements. */
static void visit(Walk *w)
{
	Access *a = w->a;
	const Tile *t = w->t;
	int64_t weight = 1;
	if (a->weight_e) {
		/* in order: a let reads only the lets before it */
		for (int i = 0; i < a->nlets; i++)
			if (a->lets[i].for_weight)
				w->lets[i][0] = scalar(w, a->lets[i].e, a->nloops);
		weight = scalar(w, a->weight_e, a->nloops);
		if (weight < 0) {
			char at[256];
			where(at, sizeof at, a, -1, w->vars, a->nloops);
			diag_error(w->d, expr_start(a->weight_e), "weight %lld is "
			           "negative%s", (long long)weight, at);
		}
		if (weight == 0)
			return;             /* the instruction does not run */
	}
	if (++w->count > MAX_INSTS)
		diag_error(w->d, a->loops[0].pos, "access '%s' has more than %d warp "
		           "instructions (the limit)", a->name, MAX_INSTS);
	if (!w->fill)
		return;
	Inst *in = &a->inst[w->count - 1];
	in->weight = weight;
	for (int i = 0; i < a->nloops; i++)
		in->var[i] = (int32_t)w->vars[i + 1];
	int lanes = op_lanes(a->op);
	uint32_t all = lanes == WARP ? 0xffffffffu : (1u << lanes) - 1;
	uint32_t mask = all;
	/* lanes that `active` needs are computed for every lane first */
	for (int i = 0; i < a->nlets; i++)
		if (a->lets[i].for_all)
			lanes_eval(w, a->lets[i].e, all, w->lets[i]);
	int64_t v[WARP];
	if (a->active) {
		lanes_eval(w, a->active, all, v);
		mask = 0;
		for (int n = 0; n < lanes; n++)
			if (v[n])
				mask |= 1u << n;
	}
	if (!mask)
		return;
	for (int i = 0; i < a->nlets; i++)
		if (!a->lets[i].for_all)
			lanes_eval(w, a->lets[i].e, mask, w->lets[i]);
	int64_t r[WARP], c[WARP], st[WARP];
	if (a->idx) {
		lanes_eval(w, a->idx, mask, c);
		for (int n = 0; n < WARP; n++)
			r[n] = 0;
	} else {
		lanes_eval(w, a->row, mask, r);
		lanes_eval(w, a->col, mask, c);
	}
	if (a->stage_e)
		lanes_eval(w, a->stage_e, mask, st);
	int bits = tile_elem_bits(t);
	for (int n = 0; n < lanes; n++) {
		if (!(mask >> n & 1))
			continue;
		if (bits < 8)
			c[n] = sub_byte_col(w->d, t, a, c[n], n, w->vars, bits);
		check_coord(w->d, t, a, r[n], c[n], n, w->vars);
		int64_t s = a->stage_e ? st[n] : 0;
		if (s < 0 || s >= t->stages) {
			char at[256];
			where(at, sizeof at, a, n, w->vars, a->nloops);
			diag_error(w->d, expr_start(a->stage_e), "access '%s' reaches "
			           "stage %lld, outside the tile's stages 0..%d%s",
			           a->name, (long long)s, t->stages - 1, at);
		}
		in->mask |= 1u << n;
		in->lane[n] = (Coord){(int32_t)(s * t->rows + r[n]), (int32_t)c[n]};
	}
}

static void walk(Walk *w, int level)
{
	Access *a = w->a;
	if (level == a->nloops) {
		visit(w);
		return;
	}
	const Loop *l = &a->loops[level];
	int64_t lo = scalar(w, l->lo, level), hi = scalar(w, l->hi, level);
	if (lo < INT32_MIN || hi > (int64_t)INT32_MAX + 1) {
		char at[256];
		where(at, sizeof at, a, -1, w->vars, level);
		diag_error(w->d, l->pos, "the range of '%s' is %lld..%lld, beyond "
		           "the 32-bit integers%s", l->name, (long long)lo,
		           (long long)hi, at);
	}
	for (int64_t v = lo; v < hi; v++) {
		if (++w->steps > MAX_LOOP_STEPS)
			diag_error(w->d, l->pos, "access '%s' loops over more than %d "
			           "values in all (the limit)", a->name, MAX_LOOP_STEPS);
		w->vars[level + 1] = v;
		walk(w, level + 1);
	}
}

/* General form: every combination of the loop variables is one warp
 * instruction (unless its weight is 0); each lane evaluates the lets,
 * row, col (or idx), stage and active.  A first walk counts them, so the
 * limits hold before any memory is taken; `work` accumulates the
 * evaluation work, instructions times expression sizes. */
static void expand_general(Pool *p, Diag *d, const Tile *t, Access *a,
                           int64_t *work)
{
	const char *kind = t->view_of ? "view" : "tile";
	if (t->len && !a->idx)
		diag_error(d, a->end, "access '%s' of one-dimensional %s '%s' "
		           "needs 'idx =' instead of 'row' and 'col'", a->name, kind,
		           t->name);
	if (!t->len && a->idx)
		diag_error(d, a->end, "access '%s': 'idx' is for one-dimensional "
		           "tiles ('shape N;'); %s '%s' has rows and columns",
		           a->name, kind, t->name);
	if (a->stage_e && t->view_of)
		diag_error(d, expr_start(a->stage_e), "access '%s' gives a stage, but "
		           "view '%s' has none: its rows run on through the stages of "
		           "tile '%s'", a->name, t->name, t->view_of);
	if (a->stage_e && t->stages == 1)
		diag_error(d, expr_start(a->stage_e), "access '%s' gives a stage, but "
		           "tile '%s' has one stage", a->name, t->name);
	/* constant ranges: the count is known before walking, and says so */
	int64_t n = 1;
	bool constant = true, huge = false;
	for (int i = 0; i < a->nloops; i++) {
		constant &= a->loops[i].lo->kind == E_NUM && a->loops[i].hi->kind == E_NUM;
		if (constant)
			huge |= __builtin_mul_overflow(n, a->loops[i].hi->num -
			                               a->loops[i].lo->num, &n);
	}
	if (constant && (huge || n > MAX_INSTS)) {
		char count[32] = "more than 2^63";
		if (!huge)
			snprintf(count, sizeof count, "%lld", (long long)n);
		diag_error(d, a->loops[0].pos, "access '%s' has %s warp instructions "
		           "(limit %d)", a->name, count, MAX_INSTS);
	}
	mark_lets(a, a->active, false);
	mark_lets(a, a->weight_e, true);
	Walk *w = pool_alloc(p, sizeof *w);
	w->d = d;
	w->t = t;
	w->a = a;
	w->cx.vars = w->vars;
	w->cx.lets = w->lets;
	w->cx.tables = a->tables;
	walk(w, 0);
	int64_t size = expr_size(a->row) + expr_size(a->col) + expr_size(a->idx) +
	               expr_size(a->active) + expr_size(a->stage_e) +
	               expr_size(a->weight_e);
	for (int i = 0; i < a->nlets; i++)
		size += expr_size(a->lets[i].e);
	*work += w->count * size;
	if (*work > MAX_EVAL_WORK)
		diag_error(d, a->pos, "access '%s' takes the file past %d expression "
		           "evaluations per lane (warp instructions times the size of "
		           "their expressions: here %lld x %lld); simplify or split "
		           "the file", a->name, MAX_EVAL_WORK, (long long)w->count,
		           (long long)size);
	a->ninst = (int)w->count;
	a->inst = pool_alloc(p, (size_t)(w->count ? w->count : 1) * sizeof *a->inst);
	w->fill = true;
	w->count = 0;
	w->steps = 0;
	walk(w, 0);
}

/* ldmatrix and stmatrix are warp-synchronous: every lane that gives a
 * row address must have one. */
static void check_matrix_lanes(Diag *d, const Access *a)
{
	if (!op_is_matrix(a->op) || op_is_mma(a->op))
		return;
	int lanes = op_lanes(a->op);
	uint32_t full = lanes == WARP ? 0xffffffffu : (1u << lanes) - 1;
	for (int k = 0; k < a->ninst; k++)
		if (a->inst[k].mask != full) {
			char op[32];
			tab_op_name(a->op, op, sizeof op);
			diag_error(d, a->pos, "%s takes a row address from each of lanes "
			           "0-%d, but instruction %d of access '%s' leaves some "
			           "without one", op, lanes - 1, k, a->name);
		}
}

/* A view's shape and element type, as a tile of their own for checking
 * its accesses: one stage, the tile's arch. */
static Tile view_tile(Diag *d, const Tile *t, View *v)
{
	if (!v->dtype_given)
		v->dtype = t->dtype;
	Tile vt = *t;
	vt.name = v->name;
	vt.rows = v->rows;
	vt.cols = v->cols;
	vt.len = v->len;
	vt.dtype = v->dtype;
	vt.stages = 1;
	vt.view_of = t->name;
	vt.key[K_SHAPE] = v->shape_pos;
	int64_t ev = tab_dtype[v->dtype].bytes, eb = tile_elem_bytes(t);
	if (tab_dtype[v->dtype].bits < 8 || tile_elem_bits(t) < 8)
		diag_error(d, v->dtype_pos.line ? v->dtype_pos : v->pos, "view '%s' "
		           "of %s over tile '%s' of %s: views of sub-byte element "
		           "types are not supported", v->name,
		           tab_dtype[v->dtype].name, t->name, tab_dtype[t->dtype].name);
	if (ev % eb)
		diag_error(d, v->dtype_pos.line ? v->dtype_pos : v->pos, "view '%s': "
		           "its %s elements (%lld bytes) are not whole %s elements of "
		           "tile '%s'; make the tile the one with the smaller element",
		           v->name, tab_dtype[v->dtype].name, (long long)ev,
		           tab_dtype[t->dtype].name, t->name);
	if (v->rows < 1 || v->cols < 1 || (!v->len && (v->rows > MAX_DIM ||
	                                              v->cols > MAX_DIM)))
		diag_error(d, v->shape_pos, "view '%s': shape %d x %d is empty or "
		           "too large", v->name, v->rows, v->cols);
	int64_t vbytes = (int64_t)v->rows * v->cols * ev;
	int64_t tbytes = (int64_t)t->stages * t->rows * t->cols * eb;
	if (vbytes > tbytes)
		diag_error(d, v->shape_pos, "view '%s' is %lld bytes, more than the "
		           "%lld of tile '%s'%s", v->name, (long long)vbytes,
		           (long long)tbytes, t->name, t->stages > 1 ? " (all stages)"
		           : "");
	return vt;
}

/* A view access's instructions in the tile's elements: view element
 * (r, c) is byte (r * cols + c) * E' of the tile read row by row, stage
 * after stage. */
static void view_to_tile(Diag *d, const Tile *t, const Tile *vt, Access *a)
{
	int64_t ev = tile_elem_bytes(vt), eb = tile_elem_bytes(t);
	int64_t vb = a->vec * ev, stage = (int64_t)t->rows * t->cols;
	if ((t->cols * eb) % vb)
		diag_error(d, a->vec_pos, "view access '%s': its %lld-byte vectors "
		           "do not fit whole into the %lld-byte rows of tile '%s'",
		           a->name, (long long)vb, (long long)(t->cols * eb), t->name);
	for (int i = 0; i < a->ninst; i++)
		for (int n = 0; n < WARP; n++) {
			if (!(a->inst[i].mask >> n & 1))
				continue;
			Coord *c = &a->inst[i].lane[n];
			int64_t e = ((int64_t)c->row * vt->cols + c->col) * ev / eb;
			int64_t s = e / stage, w = e % stage;
			c->row = (int32_t)(s * t->rows + w / t->cols);
			c->col = (int32_t)(w % t->cols);
		}
	a->vec = (int)(vb / eb);   /* evec keeps the view's count, for dump */
}

static void check_access(Pool *p, Diag *d, Tile *t, Access *a, int64_t *work)
{
	check_vec(d, t, a);
	if (a->place == PL_GENERAL)
		expand_general(p, d, t, a, work);
	else if (a->place == PL_MMA)
		expand_mma(p, d, t, a);
	else
		expand_sweep(p, d, t, a);
	check_matrix_lanes(d, a);
	bool any = false;
	for (int k = 0; k < a->ninst && !any; k++)
		any = a->inst[k].mask != 0;
	if (!any)
		diag_error(d, a->pos, "access '%s' has no active lane", a->name);
}

/* One access checked as a job of its own, so that an error in it leaves
 * the other accesses (and tiles) to be checked. */
typedef struct {
	Pool *p;
	Tile *t;
	Access *a;
	int64_t *work;
} AccessJob;

static void check_job(Diag *d, AccessJob *j)
{
	Access *a = j->a;
	if (a->view) {
		Tile *t = j->t;
		View *v = &t->views[a->view - 1];
		Tile vt = view_tile(d, t, v);
		if (op_is_mma(a->op)) {
			char opn[32];
			tab_op_name(a->op, opn, sizeof opn);
			diag_error(d, a->op_pos, "%s in view '%s': %s reads its "
			           "operand through a descriptor of the tile's own rows "
			           "and columns; give the access in tile '%s'", opn,
			           v->name, a->op.kind == OP_WGMMA ? "wgmma" : "tcgen05.mma",
			           t->name);
		}
		check_access(j->p, d, &vt, a, j->work);
		view_to_tile(d, t, &vt, a);
	} else {
		check_access(j->p, d, j->t, a, j->work);
	}
}

/* Run the keys' check (a NULL access) or one access's under a jump of
 * their own; false after an error, which has been reported.  Past
 * -fmax-errors the jump goes on out. */
static bool attempt(Diag *d, AccessJob *j)
{
	jmp_buf outer;
	memcpy(outer, d->jb, sizeof outer);
	if (setjmp(d->jb) == 0) {
		if (j->a)
			check_job(d, j);
		else
			check_tile_keys(d, j->t);
		memcpy(d->jb, outer, sizeof outer);
		return true;
	}
	memcpy(d->jb, outer, sizeof outer);
	if (d->stopped)
		longjmp(d->jb, 1);
	return false;
}

/* Every tile the parser left whole: its keys, then each access; an error
 * in one access does not stop the next, nor the next tile. */
void check_unit(Pool *p, Diag *d, Unit *u)
{
	int64_t file_insts = 0, work = 0;
	for (int i = 0; i < u->ntiles; i++) {
		Tile *t = &u->tiles[i];
		if (t->broken || !attempt(d, &(AccessJob){p, t, NULL, &work}))
			continue;
		int64_t tile_insts = 0, tile_weight = 0;
		for (int j = 0; j < t->nacc; j++) {
			Access *a = &t->acc[j];
			if (!attempt(d, &(AccessJob){p, t, a, &work}))
				continue;
			tile_insts += a->ninst;
			file_insts += a->ninst;
			for (int k = 0; k < a->ninst; k++) {
				int64_t w;
				if (__builtin_mul_overflow(a->inst[k].weight, a->weight, &w) ||
				    __builtin_add_overflow(tile_weight, w, &tile_weight) ||
				    tile_weight > MAX_TILE_WEIGHT)
					diag_error(d, a->weight_e ? expr_start(a->weight_e)
					           : a->weight_pos.line ? a->weight_pos : a->pos,
					           "the weights of tile '%s' pass the limit of "
					           "2^40 with access '%s' (its weight times each "
					           "instruction's, summed over the tile's "
					           "instructions); weights are relative: scale "
					           "them down", t->name, a->name);
			}
			if (tile_insts > MAX_TILE_INSTS)
				diag_error(d, a->pos, "tile '%s' has more warp instructions "
				           "than the limit of %d a tile", t->name,
				           MAX_TILE_INSTS);
			if (file_insts > MAX_FILE_INSTS)
				diag_error(d, a->pos, "this file has more warp instructions "
				           "than the limit of %d a file; split it",
				           MAX_FILE_INSTS);
		}
	}
}
