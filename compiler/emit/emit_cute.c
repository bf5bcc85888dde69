/* The chosen layout as a CuTe layout, for C++ code that indexes the tile
 * through CuTe (CUTLASS 3 and later): a constexpr factory
 * name_cute_layout() in NAME.cuh whose result maps a logical (r, c) to the
 * element offset NAME_IDX(r, c) gives, within one stage.  It sits inside
 * `#if defined(__cplusplus) && defined(BANKC_CUTE)`, so C code and C++ code
 * that does not ask for it see nothing and need no CuTe.
 *
 * A tile of sub-byte elements is laid out byte by byte: its CuTe layout
 * maps (r, byte column) to the byte, as NAME_BIDX does.
 *
 * Row-major and padded layouts are plain CuTe Layouts (the swap is in the
 * strides); a swizzle is CuTe's own Swizzle, rescaled from bytes to
 * elements, composed with one.  Skew, xor, boxed swizzles, TMA's 8-byte
 * flip and the tensor cores' interleave have no CuTe form: they are a ComposedLayout of a small
 * functor over the logical row-major offset, computing the same expression
 * as NAME_IDX, which CuTe evaluates like any of its own (tests/run_cute.sh
 * checks every kind against NAME_IDX with CUTLASS's headers). */
#include "bankc.h"
#include "emit/emit.h"

/* The stored row-major offset of logical (r, c): a swap swaps strides. */
static void stored_layout(FILE *f, const Tile *t, const Layout *l)
{
	fprintf(f, "make_layout(make_shape(Int<%d>{}, Int<%d>{}), "
	        "make_stride(Int<%d>{}, Int<%d>{}))",
	        t->rows, t->cols, l->swap ? 1 : l->pitch, l->swap ? l->pitch : 1);
}

/* Does CuTe have this layout's own form (a Layout, or a Swizzle composed
 * with one)?  Otherwise a functor computes it. */
static bool native(const Layout *l)
{
	return l->kind == L_ROWMAJOR || l->kind == L_PAD ||
	       (l->kind == L_SWIZZLE && l->boxes == 1 && l->B >= 1 && !l->flip);
}

void emit_cute(FILE *f, const Tile *t, const Layout *l)
{
	const char *lo = t->name;
	char type[300], what[160];
	snprintf(type, sizeof type, "%s_cute_fn", lo);
	layout_describe(l, t, what, sizeof what);

	fputs("\n#if defined(__cplusplus) && defined(BANKC_CUTE)\n"
	      "#include <cute/layout.hpp>\n#include <cute/swizzle.hpp>\n"
	      "#include <cute/swizzle_layout.hpp>\n\n", f);
	if (!native(l)) {
		/* the functor takes the logical row-major offset i = r * COLS + c
		 * and computes the layout's own expression of (r, c) */
		char ex[2048];
		layout_c_expr(l, t, "r", "c", ex, sizeof ex);
		fprintf(f, "/* %s: no CuTe form of its own; a functor over the "
		        "logical\n * row-major offset, composed with it */\n", what);
		fprintf(f, "struct %s {\n"
		        "\tCUTE_HOST_DEVICE constexpr int operator()(int i) const\n\t{\n"
		        "\t\tint r = i / %d, c = i %% %d;\n\t\treturn %s;\n\t}\n",
		        type, t->cols, t->cols, ex);
		fprintf(f, "\tCUTE_HOST_DEVICE friend void print(%s const &)\n"
		        "\t{\n\t\tcute::print(\"%s\");\n\t}\n};\n\n", type, what);
	}
	fprintf(f, "/* Tile %s as a CuTe layout: (r, c) -> the element offset "
	        "%s_idx(r, c)\n * gives, within a stage. */\n"
	        "CUTE_HOST_DEVICE constexpr auto %s_cute_layout()\n{\n"
	        "\tusing namespace cute;\n\treturn ", lo, lo, lo);
	if (!native(l))
		fprintf(f, "make_composed_layout(%s{}, Int<0>{},\n\t\tmake_layout("
		        "make_shape(Int<%d>{}, Int<%d>{}), make_stride(Int<%d>{}, "
		        "Int<1>{})))", type, t->rows, t->cols, t->cols);
	else if (l->kind == L_SWIZZLE) {
		/* on element offsets: the byte swizzle's base bits less the
		 * element's (every legal swizzle keeps whole elements) */
		fprintf(f, "composition(Swizzle<%d, %d, %d>{},\n\t\t",
		        l->B, l->M - log2_ceil(tile_elem_bytes(t)), l->S);
		stored_layout(f, t, l);
		fputc(')', f);
	} else {
		stored_layout(f, t, l);
	}
	fputs(";\n}\n#endif\n", f);
}
