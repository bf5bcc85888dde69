/* The layout header NAME.cuh: macros and functions that compute the
 * chosen layout, valid as C11 (host code) and as CUDA, with the solver's
 * account of the choice in its opening comment. */
#include <ctype.h>
#include <string.h>

#include "bankc.h"

void emit_upper(char *dst, size_t n, const char *s)
{
	size_t i;
	for (i = 0; i + 1 < n && s[i]; i++)
		dst[i] = (char)toupper((unsigned char)s[i]);
	dst[i] = 0;
}

static int log2i(int64_t v)
{
	int k = 0;
	while ((1LL << k) < v)
		k++;
	return k;
}

/* An xor map: the chunk's XOR mask from the row's bits (one shift and
 * mask where the map is one, a term per row bit otherwise), then the
 * chunk moved within its block; columns past the last whole block stay. */
static void xor_body(FILE *f, const Layout *l, const char *sr, const char *sc)
{
	int a, n, b;
	if (layout_xor_shift(l, &a, &n, &b)) {
		fprintf(f, "\tint x = ((%s >> %d) & %d) << %d;\t/* chunk XOR mask: row "
		        "bits %d-%d */\n", sr, a, (1 << n) - 1, b, a, a + n - 1);
	} else {
		fprintf(f, "\tint x = 0;\t/* chunk XOR mask from the row's bits */\n");
		for (int i = 0; i < l->nx; i++)
			if (l->x[i])
				fprintf(f, "\tx ^= ((%s >> %d) & 1) * %u;\n", sr, i, l->x[i]);
	}
	int cols = layout_xor_cols(l);
	if (cols < l->scols)
		fprintf(f, "\tif (%s >= %d)\t/* past the last whole block of %d "
		        "chunks */\n\t\treturn %s * %d + %s;\n", sc, cols,
		        layout_xor_span(l), sr, l->pitch, sc);
	if (l->gran == 1)
		fprintf(f, "\treturn %s * %d + (%s ^ x);\n", sr, l->pitch, sc);
	else
		fprintf(f, "\treturn %s * %d + ((%s / %d) ^ x) * %d + %s %% %d;\n", sr,
		        l->pitch, sc, l->gran, l->gran, sc, l->gran);
}

/* The body of NAME_idx(r, c): statements computing `o`, then its return.
 * The logical (r, c) become the stored (sr, sc) first when swapped. */
static void idx_body(FILE *f, const Layout *l, const Tile *t)
{
	const char *sr = l->swap ? "c" : "r", *sc = l->swap ? "r" : "c";
	int es = (int)tile_elem_bytes(t);
	switch (l->kind) {
	case L_ROWMAJOR:
	case L_PAD:
		fprintf(f, "\treturn %s * %d + %s;\n", sr, l->pitch, sc);
		break;
	case L_SKEW:
		fprintf(f, "\t/* rotate chunks of %d elements by %d per row */\n",
		        l->gran, l->skew);
		fprintf(f, "\treturn %s * %d + (%s / %d + %d * %s) %% %d * %d + %s %% %d;\n",
		        sr, l->pitch, sc, l->gran, l->skew, sr, l->scols / l->gran,
		        l->gran, sc, l->gran);
		break;
	case L_SWIZZLE:
		if (l->boxes > 1) {
			/* box b holds columns b * BC .. b * BC + BC - 1, one after
			 * another, each swizzled on its own */
			fprintf(f, "\tint b = %s / %d;\t/* the box */\n", sc, l->pitch);
			fprintf(f, "\tint o = (%s * %d + %s %% %d) * %d;\t/* byte offset in "
			        "it */\n", sr, l->pitch, sc, l->pitch, es);
			fprintf(f, "\to ^= ((o >> %d) & %d) << %d;\t/* Swizzle<%d,%d,%d> */\n",
			        l->M + l->S, (1 << l->B) - 1, l->M, l->B, l->M, l->S);
			fprintf(f, "\treturn b * %d + o / %d;\n", l->srows * l->pitch, es);
			break;
		}
		fprintf(f, "\tint o = (%s * %d + %s) * %d;\t/* byte offset */\n", sr,
		        l->pitch, sc, es);
		fprintf(f, "\to ^= ((o >> %d) & %d) << %d;\t/* Swizzle<%d,%d,%d> */\n",
		        l->M + l->S, (1 << l->B) - 1, l->M, l->B, l->M, l->S);
		fprintf(f, "\treturn o / %d;\n", es);
		break;
	case L_XOR:
		xor_body(f, l, sr, sc);
		break;
	}
}

/* The same as an expression in which each argument appears once, where
 * the layout has one; NULL otherwise (the macro then calls the function,
 * which evaluates its arguments once). */
static bool idx_expr(char *buf, size_t n, const Layout *l)
{
	if (l->kind != L_ROWMAJOR && l->kind != L_PAD)
		return false;
	snprintf(buf, n, "((%s) * %d + (%s))", l->swap ? "c" : "r", l->pitch,
	         l->swap ? "r" : "c");
	return true;
}

/* A TMA tile's boxes, for cuTensorMapEncodeTiled: every box is BOX_ROWS
 * x BOX_COLS elements in the mode's swizzle, box b holding columns
 * b * BOX_COLS.. from byte b * BOX_BYTES of the stage. */
static void emit_tma(FILE *f, const Tile *t, const Layout *l, const char *up)
{
	int es = (int)tile_elem_bytes(t);
	const char *mode = l->kind == L_SWIZZLE
		? (l->B == 1 ? "32B" : l->B == 2 ? "64B" : "128B") : "NONE";
	fprintf(f, "#define %s_TMA_SWIZZLE CU_TENSOR_MAP_SWIZZLE_%s\n", up, mode);
	fprintf(f, "#define %s_TMA_BOX_ROWS %d\n", up, l->srows);
	fprintf(f, "#define %s_TMA_BOX_COLS %d\n", up, l->pitch);
	fprintf(f, "#define %s_TMA_BOXES %d\t/* boxes per stage */\n", up,
	        l->boxes);
	fprintf(f, "#define %s_TMA_BOX_BYTES %d\t/* box b starts at byte b * "
	        "BOX_BYTES of its stage */\n", up, l->srows * l->pitch * es);
}

static void account(FILE *f, const Tile *t, const Solution *s,
                    const char *spec)
{
	const Cand *c = &s->best;
	char name[160];
	layout_describe(&c->l, t, name, sizeof name);
	fprintf(f, " * spec:    %s, tile %s: %d x %d %s", spec, t->name, t->rows,
	        t->cols, tab_dtype[t->dtype].name);
	if (t->stages > 1)
		fprintf(f, ", %d stages", t->stages);
	fprintf(f, ", %s", tab_arch[t->arch].name);
	if (t->threads)
		fprintf(f, ", %d threads", t->threads);
	fprintf(f, "\n * layout:  %s\n", name);
	for (int j = 0; j < t->nacc; j++) {
		const Access *a = &t->acc[j];
		char op[32];
		tab_op_name(a->op, op, sizeof op);
		fprintf(f, " * access %s: %s, %lld bytes per lane, weight %lld, %d "
		        "instructions: %lld wavefronts (ideal %lld)\n", a->name, op,
		        (long long)(a->vec * tile_elem_bytes(t)), (long long)a->weight,
		        a->ninst, (long long)c->acc_wave[j], (long long)s->acc_ideal[j]);
	}
	fprintf(f, " * weighted wavefronts %lld, lower bound %lld: %s\n",
	        (long long)c->wave, (long long)s->aligned_bound,
	        c->wave == s->aligned_bound ? "optimal"
	        : solve_unproven(s) ? "not proven optimal: search budget reached"
	        : "best found");
	Layout rm = layout_rowmajor(t);
	fprintf(f, " * footprint %lld bytes (row-major %lld), %d blocks per SM "
	        "(row-major %d)\n", (long long)c->bytes,
	        (long long)layout_bytes(&rm, t), c->blocks, s->blocks_rowmajor);
}

void emit_header(FILE *f, const Tile *t, const Solution *s, const char *spec)
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
	account(f, t, s, spec);
	fprintf(f, " */\n#ifndef BANKC_TILE_%s_CUH\n#define BANKC_TILE_%s_CUH\n\n",
	        up, up);
	fputs("#ifndef BANKC_FN\n#ifdef __CUDACC__\n"
	      "#define BANKC_FN static __host__ __device__ __forceinline__\n"
	      "#else\n#define BANKC_FN static inline\n#endif\n#endif\n\n", f);
	fprintf(f, "#define %s_ROWS %d\n", up, t->rows);
	fprintf(f, "#define %s_COLS %d\n", up, t->cols);
	fprintf(f, "#define %s_STAGES %d\n", up, t->stages);
	fprintf(f, "#define %s_ELEM_BYTES %d\n", up, es);
	fprintf(f, "#define %s_PITCH %d\t/* elements per stored row */\n", up,
	        l->pitch);
	fprintf(f, "#define %s_ELEMS %lld\t/* elements of one stage, padding "
	        "included */\n", up, (long long)(stage / es));
	fprintf(f, "#define %s_STAGE_ELEMS %lld\t/* elements from one stage to "
	        "the next */\n", up, (long long)(step / es));
	fprintf(f, "#define %s_BYTES %lld\t/* all stages */\n", up,
	        (long long)layout_bytes(l, t));
	fprintf(f, "#define %s_ALIGN %d\t/* base alignment in bytes */\n", up,
	        t->align);
	if (t->tma)
		emit_tma(f, t, l, up);
	if (l->kind == L_SWIZZLE && l->boxes > 1) {
		int eb = log2i(es);
		fprintf(f, "/* CuTe, on element offsets: tile_to_shape(composition("
		        "Swizzle<%d,%d,%d>{},\n *     make_layout(make_shape(_8{}, "
		        "_%d{}), make_stride(_%d{}, _1{}))),\n *     make_shape(_%d{}, "
		        "_%d{})) */\n", l->B, l->M - eb, l->S, l->pitch, l->pitch,
		        t->rows, t->cols);
	} else if (l->kind == L_SWIZZLE) {
		int eb = log2i(es);
		char stride[48];
		snprintf(stride, sizeof stride, l->swap ? "_1{}, %d" : "%d, _1{}",
		         l->pitch);
		fprintf(f, "/* CuTe, on element offsets: composition(Swizzle<%d,%d,%d>{},\n"
		        " *     make_layout(make_shape(%d, %d), make_stride(%s))) */\n",
		        l->B, l->M - eb, l->S, t->rows, t->cols, stride);
	}
	fputc('\n', f);
	fprintf(f, "/* Element offset of logical (r, c) within a stage. */\n");
	fprintf(f, "BANKC_FN int %s_idx(int r, int c)\n{\n", lo);
	idx_body(f, l, t);
	fputs("}\n\n", f);
	char ex[128];
	if (idx_expr(ex, sizeof ex, l))
		fprintf(f, "#define %s_IDX(r, c) %s\n", up, ex);
	else
		fprintf(f, "#define %s_IDX(r, c) %s_idx((r), (c))\n", up, lo);
	fprintf(f, "#define %s_OFF(r, c) (%s_IDX(r, c) * %d)\t/* bytes */\n", up,
	        up, es);
	fprintf(f, "#define %s_SIDX(s, r, c) ((s) * %s_STAGE_ELEMS + %s_IDX(r, c))\n",
	        up, up, up);
	fprintf(f, "\n#endif\n");
}
