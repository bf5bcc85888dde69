/* The layout header NAME.cuh: macros and functions that compute the
 * chosen layout, valid as C11 (host code) and as CUDA, with the solver's
 * account of the choice in its opening comment. */
#include <ctype.h>
#include <string.h>

#include "bankc.h"
#include "emit/emit.h"

void emit_upper(char *dst, size_t n, const char *s)
{
	size_t i;
	for (i = 0; i + 1 < n && s[i]; i++)
		dst[i] = (char)toupper((unsigned char)s[i]);
	dst[i] = 0;
}

/* A TMA tile's boxes, for cuTensorMapEncodeTiled: every box is BOX_ROWS
 * x BOX_COLS elements in the mode's swizzle, box b holding columns
 * b * BOX_COLS.. from byte b * BOX_BYTES of the stage. */
static void emit_tma(FILE *f, const Tile *t, const Layout *l, const char *up)
{
	int es = (int)tile_elem_bytes(t);
	const char *mode = layout_tma_mode(l);
	if (!mode)
		internal_error("a TMA tile's layout has no TMA mode");
	fprintf(f, "#define %s_TMA_SWIZZLE CU_TENSOR_MAP_SWIZZLE_%s\n", up, mode);
	fprintf(f, "#define %s_TMA_LOAD %d\t/* the engine fills the tile */\n", up,
	        (t->tma & TMA_LOAD) != 0);
	fprintf(f, "#define %s_TMA_STORE %d\t/* the engine writes it out */\n", up,
	        (t->tma & TMA_STORE) != 0);
	fprintf(f, "#define %s_TMA_BOX_ROWS %d\n", up, l->srows);
	fprintf(f, "#define %s_TMA_BOX_COLS %d\n", up, l->pitch);
	fprintf(f, "#define %s_TMA_BOXES %d\t/* boxes per stage */\n", up,
	        l->boxes);
	fprintf(f, "#define %s_TMA_BOX_BYTES %d\t/* box b starts at byte b * "
	        "BOX_BYTES of its stage */\n", up, l->srows * l->pitch * es);
}

static void account(FILE *f, const Geom *g, const Tile *t,
                    const Solution *s, const char *spec)
{
	const Cand *c = &s->best;
	char name[160];
	layout_describe(&c->l, t, name, sizeof name);
	/* the path as esc_text writes it: no name can end this comment */
	fputs(" * spec:    ", f);
	esc_text(f, spec);
	fprintf(f, ", tile %s: %d x %d %s", t->name, t->rows, t->cols,
	        tab_dtype[t->dtype].name);
	if (t->stages > 1)
		fprintf(f, ", %d stages", t->stages);
	fprintf(f, ", %s", tab_arch[t->arch].name);
	if (t->threads)
		fprintf(f, ", %d threads", t->threads);
	fprintf(f, "\n * geometry: %d bank%s of %d bytes, broadcast loads %s",
	        g->banks, text_plural(g->banks), g->bank_bytes,
	        g->merge_loads ? "merged" : "not merged");
	if (g->banks != sim_geom_default.banks ||
	    g->bank_bytes != sim_geom_default.bank_bytes)
		fprintf(f, " (--banks %d --bank-bytes %d%s)", g->banks, g->bank_bytes,
		        g->merge_loads ? "" : " --no-merge");
	else if (!g->merge_loads)
		fputs(" (--no-merge)", f);
	fprintf(f, "\n * layout:  %s\n", name);
	for (int j = 0; j < t->nacc; j++) {
		const Access *a = &t->acc[j];
		char op[32];
		tab_op_name(a->op, op, sizeof op);
		int64_t lb = a->vec * tile_elem_bytes(t);
		fprintf(f, " * access %s: %s, %lld byte%s per lane, weight %lld, %d "
		        "instruction%s: %lld wavefront%s (ideal %lld)\n", a->name, op,
		        (long long)lb, text_plural(lb), (long long)a->weight, a->ninst,
		        text_plural(a->ninst), (long long)c->acc_wave[j],
		        text_plural(c->acc_wave[j]), (long long)s->acc_ideal[j]);
	}
	if (tab_arch[t->arch].cc >= 100)
		fprintf(f, " * bank model: assumed: the sm_90 bank rules, measured on "
		        "an H200 (no %s measured)\n", tab_arch[t->arch].name);
	else if (!tab_arch[t->arch].measured)
		fprintf(f, " * bank model: assumed for %s (measured on sm_90)\n",
		        tab_arch[t->arch].name);
	fprintf(f, " * weighted wavefronts %lld, lower bound %lld: %s\n",
	        (long long)c->wave, (long long)s->aligned_bound,
	        c->wave == s->aligned_bound ? "optimal"
	        : solve_unproven(s) ? "not proven optimal: search budget reached"
	        : "best found");
	Layout rm = layout_rowmajor(t);
	fprintf(f, " * footprint %lld byte%s (row-major %lld), %d block%s per SM "
	        "(row-major %d)\n", (long long)c->bytes, text_plural(c->bytes),
	        (long long)layout_bytes(&rm, t), c->blocks, text_plural(c->blocks),
	        s->blocks_rowmajor);
}

const char *const emit_view_macros[] = {"ROWS", "COLS", "ELEM_BYTES", "OFF",
	"IDX", NULL};

/* A view's macros (emit_view_macros): its element (r, c) is byte (r * COLS + c) * E' of the
 * tile read row by row and stage after stage; OFF gives that byte's
 * place under the tile's layout, IDX the same in the view's elements. */
static void emit_view(FILE *f, const Tile *t, const Layout *l, const View *v,
                      const char *tup)
{
	char up[256];
	emit_upper(up, sizeof up, v->name);
	int64_t ev = tab_dtype[v->dtype].bytes, eb = tile_elem_bytes(t);
	int64_t k = ev / eb, se = (int64_t)t->rows * t->cols;
	bool staged = (int64_t)v->rows * v->cols * k > se;
	char e[160], rr[256], cc[256], ex[2048];
	snprintf(e, sizeof e, "(((r) * %d + (c)) * %lld)", v->cols, (long long)k);
	snprintf(rr, sizeof rr, "(%s %% %lld / %d)", e, (long long)se, t->cols);
	snprintf(cc, sizeof cc, "(%s %% %lld %% %d)", e, (long long)se, t->cols);
	layout_c_expr(l, t, rr, cc, ex, sizeof ex);
	fprintf(f, "\n/* View %s of this tile: %d x %d %s over the same bytes. */\n",
	        v->name, v->rows, v->cols, tab_dtype[v->dtype].name);
	fprintf(f, "#define %s_ROWS %d\n#define %s_COLS %d\n#define %s_ELEM_BYTES "
	        "%lld\n", up, v->rows, up, v->cols, up, (long long)ev);
	if (staged)
		fprintf(f, "#define %s_OFF(r, c) (%s / %lld * %s_STAGE_ELEMS * %lld + "
		        "(%s) * %lld)\t/* bytes */\n", up, e, (long long)se, tup,
		        (long long)eb, ex, (long long)eb);
	else
		fprintf(f, "#define %s_OFF(r, c) ((%s) * %lld)\t/* bytes */\n", up, ex,
		        (long long)eb);
	fprintf(f, "#define %s_IDX(r, c) (%s_OFF(r, c) / %lld)\t/* %s elements */\n",
	        up, up, (long long)ev, tab_dtype[v->dtype].name);
}

void emit_header(FILE *f, const Geom *g, const Tile *t, const Solution *s,
                 const char *spec)
{
	const Layout *l = &s->best.l;
	char up[256];
	emit_upper(up, sizeof up, t->name);
	const char *lo = t->name;
	int es = (int)tile_elem_bytes(t);
	int64_t stage = layout_stage_bytes(l, t);
	int64_t step = (stage + t->align - 1) / t->align * t->align;

	fprintf(f, "/* %s.cuh: the shared-memory layout of tile %s, generated by "
	        "bankc %s.\n * Do not edit: change the spec and rebuild.\n *\n",
	        t->name, t->name, BANKC_VERSION);
	account(f, g, t, s, spec);
	fprintf(f, " */\n#ifndef BANKC_TILE_%s_CUH\n#define BANKC_TILE_%s_CUH\n\n",
	        up, up);
	fputs("#ifndef BANKC_FN\n#ifdef __CUDACC__\n"
	      "#define BANKC_FN static __host__ __device__ __forceinline__\n"
	      "#else\n#define BANKC_FN static inline\n#endif\n#endif\n\n", f);
	int bits = tile_elem_bits(t);
	fprintf(f, "#define %s_ROWS %d\n", up, t->rows);
	if (bits < 8) {
		/* sub-byte elements: the layout moves bytes; an index names the
		 * byte an element starts, for elements that start one */
		fprintf(f, "#define %s_COLS %d\t/* elements of %d bits */\n", up,
		        t->cols * 8 / bits, bits);
		fprintf(f, "#define %s_ELEM_BITS %d\n", up, bits);
		fprintf(f, "#define %s_COL_STEP %d\t/* elements per byte boundary */\n",
		        up, 8 / (bits == 4 ? 4 : 2));
	} else {
		fprintf(f, "#define %s_COLS %d\n", up, t->cols);
		fprintf(f, "#define %s_COL_STEP 1\n", up);
	}
	if (t->len) {
		fprintf(f, "#define %s_LEN %d\t/* one-dimensional: %s_IDX1(i) */\n",
		        up, bits < 8 ? t->len * 8 / bits : t->len, up);
	}
	fprintf(f, "#define %s_STAGES %d\n", up, t->stages);
	fprintf(f, "#define %s_ELEM_BYTES %d\n", up, es);
	const char *unit = bits < 8 ? "bytes" : "elements";
	fprintf(f, "#define %s_PITCH %d\t/* %s per stored row */\n", up,
	        l->pitch, unit);
	fprintf(f, "#define %s_ELEMS %lld\t/* %s of one stage, padding "
	        "included */\n", up, (long long)(stage / es), unit);
	fprintf(f, "#define %s_STAGE_ELEMS %lld\t/* %s from one stage to "
	        "the next */\n", up, (long long)(step / es), unit);
	fprintf(f, "#define %s_BYTES %lld\t/* all stages */\n", up,
	        (long long)layout_bytes(l, t));
	fprintf(f, "#define %s_ALIGN %d\t/* base alignment in bytes */\n", up,
	        t->align);
	if (t->tma)
		emit_tma(f, t, l, up);
	fputc('\n', f);
	/* One expression in both languages: a constexpr function in C++ and
	 * CUDA, a macro in C, so NAME_IDX is a constant expression for
	 * constant arguments whatever layout the solver chose. */
	char fn[2048], mac[2048], cf[64], cm[64];
	snprintf(cf, sizeof cf, bits < 8 ? "(c * %d / 8)" : "c", bits);
	snprintf(cm, sizeof cm, bits < 8 ? "((c) * %d / 8)" : "(c)", bits);
	layout_c_expr(l, t, "r", cf, fn, sizeof fn);
	layout_c_expr(l, t, "(r)", cm, mac, sizeof mac);
	fprintf(f, "/* Element offset of logical (r, c) within a stage: a constant "
	        "expression\n * for constant arguments.  In C, %s_IDX evaluates "
	        "its arguments more\n * than once; %s_idx() evaluates them once. */\n",
	        up, lo);
	fprintf(f, "#ifdef __cplusplus\n");
	fprintf(f, "BANKC_FN constexpr int %s_idx(int r, int c)\n{\n\treturn %s;\n}\n",
	        lo, fn);
	fprintf(f, "#define %s_IDX(r, c) %s_idx((r), (c))\n", up, lo);
	fprintf(f, "#else\n");
	fprintf(f, "BANKC_FN int %s_idx(int r, int c)\n{\n\treturn %s;\n}\n", lo, fn);
	fprintf(f, "#define %s_IDX(r, c) (%s)\n", up, mac);
	fprintf(f, "#endif\n");
	fprintf(f, "#define %s_OFF(r, c) (%s_IDX(r, c) * %d)\t/* bytes */\n", up,
	        up, es);
	fprintf(f, "#define %s_SIDX(s, r, c) ((s) * %s_STAGE_ELEMS + %s_IDX(r, c))\n",
	        up, up, up);
	if (bits < 8) {
		char bm[2048];
		layout_c_expr(l, t, "(r)", "(b)", bm, sizeof bm);
		fprintf(f, "/* The same by byte column b. */\n#define %s_BIDX(r, b) (%s)\n",
		        up, bm);
	}
	if (t->len) {
		int per = bits < 8 ? t->cols * 8 / bits : t->cols;
		fprintf(f, "/* One-dimensional index i: the view bankc chose has rows of "
		        "%d. */\n#define %s_IDX1(i) %s_IDX((i) / %d, (i) %% %d)\n", per,
		        up, up, per, per);
	}
	if (tile_wgmma(t)) {
		/* legal layouts of a wgmma tile are the ones a descriptor reads */
		WgmmaDesc wd;
		const char *why = "";
		if (wgmma_tile_desc(t, l->B, step, &wd, &why))
			wgmma_emit(f, up, lo, &wd);
		else
			fprintf(f, "#error \"bankc: no wgmma descriptor: %s\"\n", why);
	}
	if (tile_umma(t)) {
		/* and of a UMMA tile, the ones tcgen05.mma's descriptor reads */
		UmmaDesc ud;
		const char *why = "";
		if (umma_tile_desc(t, l->B, l->M == 5, step, &ud, &why))
			umma_emit(f, up, lo, &ud);
		else
			fprintf(f, "#error \"bankc: no tcgen05.mma descriptor: %s\"\n",
			        why);
	}
	for (int k = 0; k < t->nviews; k++)
		emit_view(f, t, l, &t->views[k], up);
	emit_cute(f, t, l);
	fprintf(f, "\n#endif\n");
}
