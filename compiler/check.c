/* The checker: gives each tile its meaning and expands every access into
 * the warp instructions the simulator will cost.  Everything a layout
 * cannot fix (an element outside the tile, a vector that leaves its row
 * or breaks alignment, an operation the GPU lacks) is an error here. */
#include <string.h>

#include "bankc.h"

int64_t tile_elem_bytes(const Tile *t)
{
	return tab_dtype[t->dtype].bytes;
}

/* Row-major footprint of all stages, each stage starting aligned: the
 * least any layout needs, so a tile over the limits has no layout. */
int64_t tile_bytes(const Tile *t)
{
	int64_t stage = (int64_t)t->rows * t->cols * tile_elem_bytes(t);
	int64_t step = (stage + t->align - 1) / t->align * t->align;
	return step * (t->stages - 1) + stage;
}

static bool pow2(int64_t v)
{
	return v > 0 && (v & (v - 1)) == 0;
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
	if (t->rows == 0 || t->cols == 0)
		diag_error(d, t->key[K_SHAPE], "empty tile: shape %d x %d", t->rows,
		           t->cols);
	if (t->rows > MAX_DIM || t->cols > MAX_DIM)
		diag_error(d, t->key[K_SHAPE], "shape %d x %d is too large (at most "
		           "%d rows and %d columns)", t->rows, t->cols, MAX_DIM, MAX_DIM);
	if (t->stages < 1 || t->stages > MAX_STAGES)
		diag_error(d, t->key[K_STAGES], "stages must be from 1 to %d",
		           MAX_STAGES);
	if (!pow2(t->align) || t->align < es || t->align > 1024)
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
	if (ar->cc < op_min_cc(a->op))
		diag_error(d, a->op_pos, "%s needs sm_%d or later, not %s", opn,
		           op_min_cc(a->op), ar->name);
	if (!a->vec_given) {
		if (op_is_matrix(a->op) || a->op.kind == OP_CPASYNC)
			a->vec = 16 / es;
		else
			a->vec = 1;
		a->vec_pos = a->op_pos;
	}
	if (a->vec < 1)
		diag_error(d, a->vec_pos, "vector width must be at least 1");
	int64_t bytes = (int64_t)a->vec * es;
	if (op_is_matrix(a->op)) {
		if (bytes != 16)
			diag_error(d, a->vec_pos, "%s moves 16 bytes per row address: "
			           "vec must be %d for %s", opn, 16 / es,
			           tab_dtype[t->dtype].name);
	} else if (a->op.kind == OP_CPASYNC) {
		if (bytes != 4 && bytes != 8 && bytes != 16)
			diag_error(d, a->vec_pos, "cp.async copies 4, 8 or 16 bytes per "
			           "lane, not %lld (vec %d of %s)", (long long)bytes,
			           a->vec, tab_dtype[t->dtype].name);
	} else if (!pow2(bytes) || bytes > 16) {
		diag_error(d, a->vec_pos, "%s moves 1, 2, 4, 8 or 16 bytes per lane, "
		           "not %lld (vec %d of %s)", opn, (long long)bytes, a->vec,
		           tab_dtype[t->dtype].name);
	}
	if (a->vec > t->cols)
		diag_error(d, a->vec_pos, "a vector of %d elements is wider than the "
		           "row (%d columns)", a->vec, t->cols);
	if (bytes > t->align)
		diag_error(d, a->vec_pos, "vectors of %lld bytes need the tile "
		           "aligned to %lld bytes, but align is %d", (long long)bytes,
		           (long long)bytes, t->align);
	if (t->cols % a->vec)
		diag_error(d, a->vec_pos, "rows of %d elements do not split into "
		           "aligned vectors of %d", t->cols, a->vec);
	if (a->weight < 1)
		diag_error(d, a->weight_pos, "weight must be at least 1");
	if (op_is_matrix(a->op) && a->active)
		diag_error(d, expr_start(a->active), "%s is warp-synchronous: every lane "
		           "takes part, so 'active' is not allowed", opn);
}

/* " (lane 5, mi = 1, ki = 0)" */
static void where(char *buf, size_t n, const Access *a, const int64_t *vars)
{
	int k = snprintf(buf, n, " (lane %lld", (long long)vars[0]);
	for (int i = 0; i < a->nloops && k > 0 && (size_t)k < n; i++)
		k += snprintf(buf + k, n - (size_t)k, ", %s = %lld", a->loops[i].name,
		              (long long)vars[i + 1]);
	if (k > 0 && (size_t)k < n)
		snprintf(buf + k, n - (size_t)k, ")");
}

static int64_t eval_at(Diag *d, const Expr *e, const Access *a,
                       const int64_t *vars)
{
	int64_t v;
	const char *err;
	Pos at;
	if (!expr_eval(e, vars, &v, &err, &at)) {
		char w[160];
		where(w, sizeof w, a, vars);
		diag_error(d, at, "%s%s", err, w);
	}
	return v;
}

/* Check one lane's first element and vector against the tile. */
static void check_coord(Diag *d, const Tile *t, const Access *a,
                        int64_t r, int64_t c, const int64_t *vars)
{
	if (r >= 0 && r < t->rows && c >= 0 && c < t->cols && c % a->vec == 0)
		return;         /* the common case: no message to format */
	char w[160] = "";
	if (vars)
		where(w, sizeof w, a, vars);
	Pos rp = a->row ? expr_start(a->row) : a->pos;
	Pos cp = a->col ? expr_start(a->col) : a->pos;
	if (r < 0 || r >= t->rows)
		diag_error(d, rp, "access '%s' reaches row %lld, outside the tile's "
		           "rows 0..%d%s", a->name, (long long)r, t->rows - 1, w);
	if (c < 0 || c >= t->cols)
		diag_error(d, cp, "access '%s' reaches column %lld, outside the "
		           "tile's columns 0..%d%s", a->name, (long long)c, t->cols - 1, w);
	diag_error(d, cp, "access '%s': column %lld is not a multiple of the "
	           "vector width %d, so the vector is misaligned%s", a->name,
	           (long long)c, a->vec, w);
}

/* Shorthand: lanes take consecutive vectors of the tile in row-major
 * order (along row) or column-major order (along col), a warp
 * instruction per op_lanes() vectors, swept over the whole tile. */
static void expand_sweep(Pool *p, Diag *d, const Tile *t, Access *a)
{
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

/* General form: every combination of the loop variables (the first
 * outermost) is one warp instruction; each lane evaluates row, col and
 * active. */
static void expand_general(Pool *p, Diag *d, const Tile *t, Access *a)
{
	int64_t n = 1;
	bool huge = false;          /* ranges are < 2^31, but their product... */
	for (int i = 0; i < a->nloops; i++)
		huge |= __builtin_mul_overflow(n, a->loops[i].hi - a->loops[i].lo, &n);
	if (huge || n > MAX_INSTS) {
		char count[32] = "more than 2^63";
		if (!huge)
			snprintf(count, sizeof count, "%lld", (long long)n);
		diag_error(d, a->loops[0].pos, "access '%s' has %s warp instructions "
		           "(limit %d)", a->name, count, MAX_INSTS);
	}
	a->ninst = (int)n;
	a->inst = pool_alloc(p, (size_t)n * sizeof *a->inst);
	int lanes = op_lanes(a->op);
	int64_t vars[MAX_LOOPS + 1];
	for (int64_t i = 0; i < n; i++) {
		int64_t rest = i;
		for (int v = a->nloops - 1; v >= 0; v--) {
			int64_t span = a->loops[v].hi - a->loops[v].lo;
			vars[v + 1] = a->loops[v].lo + rest % span;
			rest /= span;
		}
		Inst *in = &a->inst[i];
		for (int l = 0; l < lanes; l++) {
			vars[0] = l;
			if (a->active && eval_at(d, a->active, a, vars) == 0)
				continue;
			int64_t r = eval_at(d, a->row, a, vars);
			int64_t c = eval_at(d, a->col, a, vars);
			check_coord(d, t, a, r, c, vars);
			in->mask |= 1u << l;
			in->lane[l] = (Coord){(int32_t)r, (int32_t)c};
		}
	}
}

/* ldmatrix and stmatrix are warp-synchronous: every lane that gives a
 * row address must have one. */
static void check_matrix_lanes(Diag *d, const Access *a)
{
	if (!op_is_matrix(a->op))
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

void check_unit(Pool *p, Diag *d, Unit *u)
{
	int64_t file_insts = 0;
	for (int i = 0; i < u->ntiles; i++) {
		Tile *t = &u->tiles[i];
		check_tile_keys(d, t);
		int64_t tile_insts = 0;
		for (int j = 0; j < t->nacc; j++) {
			Access *a = &t->acc[j];
			check_vec(d, t, a);
			if (a->place == PL_GENERAL)
				expand_general(p, d, t, a);
			else
				expand_sweep(p, d, t, a);
			bool any = false;
			for (int k = 0; k < a->ninst && !any; k++)
				any = a->inst[k].mask != 0;
			check_matrix_lanes(d, a);
			tile_insts += a->ninst;
			file_insts += a->ninst;
			if (tile_insts > MAX_TILE_INSTS)
				diag_error(d, a->pos, "tile '%s' has more warp instructions "
				           "than the limit of %d a tile", t->name,
				           MAX_TILE_INSTS);
			if (file_insts > MAX_FILE_INSTS)
				diag_error(d, a->pos, "this file has more warp instructions "
				           "than the limit of %d a file; split it",
				           MAX_FILE_INSTS);
			if (!any)
				diag_error(d, a->pos, "access '%s' has no active lane",
				           a->name);
		}
	}
}
