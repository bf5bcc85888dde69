/* The chosen layout as a CuTe layout, for C++ code that indexes the tile
 * through CuTe (CUTLASS 3 and later): a constexpr factory
 * name_cute_layout() in NAME.cuh whose result maps a logical (r, c) to the
 * element offset NAME_IDX(r, c) gives, within one stage.  It sits inside
 * `#if defined(__cplusplus) && defined(BANKC_CUTE)`, so C code and C++ code
 * that does not ask for it see nothing and need no CuTe.
 *
 * Row-major and padded layouts are plain CuTe Layouts (the swap is in the
 * strides); a swizzle is CuTe's own Swizzle, rescaled from bytes to
 * elements, composed with one.  Skew and xor have no CuTe form: they are a
 * ComposedLayout of a small functor over the stored row-major offset, which
 * CuTe evaluates like any of its own (tests/run_cute.sh checks every kind
 * against NAME_IDX with CUTLASS's headers). */
#include "bankc.h"

static int log2i(int64_t v)
{
	int k = 0;
	while ((1LL << k) < v)
		k++;
	return k;
}

/* The stored row-major offset of logical (r, c): a swap swaps strides. */
static void stored_layout(FILE *f, const Tile *t, const Layout *l)
{
	fprintf(f, "make_layout(make_shape(Int<%d>{}, Int<%d>{}), "
	        "make_stride(Int<%d>{}, Int<%d>{}))",
	        t->rows, t->cols, l->swap ? 1 : l->pitch, l->swap ? l->pitch : 1);
}

/* A functor from the stored row-major offset i to the layout's offset, for
 * the kinds CuTe has no form of; its body computes it from the stored row
 * and column sr and sc. */
static void functor_open(FILE *f, const char *type, const Layout *l)
{
	fprintf(f, "struct %s {\n"
	        "\tCUTE_HOST_DEVICE constexpr int operator()(int i) const\n\t{\n"
	        "\t\tint sr = i / %d, sc = i %% %d;\n", type, l->pitch, l->pitch);
}

static void functor_close(FILE *f, const char *type, const char *what)
{
	fprintf(f, "\t}\n\tCUTE_HOST_DEVICE friend void print(%s const &)\n"
	        "\t{\n\t\tcute::print(\"%s\");\n\t}\n};\n\n", type, what);
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
	switch (l->kind) {
	case L_ROWMAJOR:
	case L_PAD:
	case L_SWIZZLE:
		break;
	case L_SKEW:
		fprintf(f, "/* %s: chunks of %d element%s, rotated by %d chunk%s per "
		        "stored row */\n", what, l->gran, l->gran > 1 ? "s" : "",
		        l->skew, l->skew > 1 ? "s" : "");
		functor_open(f, type, l);
		if (l->gran > 1)
			fprintf(f, "\t\treturn sr * %d + (sc / %d + %d * sr) %% %d * %d + "
			        "sc %% %d;\n", l->pitch, l->gran, l->skew,
			        l->scols / l->gran, l->gran, l->gran);
		else
			fprintf(f, "\t\treturn sr * %d + (sc + %d * sr) %% %d;\n", l->pitch,
			        l->skew, l->scols);
		functor_close(f, type, what);
		break;
	case L_XOR: {
		fprintf(f, "/* %s: chunks of %d element%s, their index XORed with "
		        "a mask from the\n * stored row's bits */\n", what, l->gran,
		        l->gran > 1 ? "s" : "");
		functor_open(f, type, l);
		fputs("\t\tint x = 0", f);
		for (int i = 0; i < l->nx; i++)
			if (l->x[i])
				fprintf(f, " ^ ((sr >> %d) & 1) * %u", i, l->x[i]);
		fputs(";\n", f);
		if (l->gran > 1)
			fprintf(f, "\t\treturn sr * %d + ((sc / %d) ^ x) * %d + sc %% %d;\n",
			        l->pitch, l->gran, l->gran, l->gran);
		else
			fprintf(f, "\t\treturn sr * %d + (sc ^ x);\n", l->pitch);
		functor_close(f, type, what);
		break;
	}
	}
	fprintf(f, "/* Tile %s as a CuTe layout: (r, c) -> the element offset "
	        "%s_idx(r, c)\n * gives, within a stage. */\n"
	        "CUTE_HOST_DEVICE constexpr auto %s_cute_layout()\n{\n"
	        "\tusing namespace cute;\n\treturn ", lo, lo, lo);
	switch (l->kind) {
	case L_ROWMAJOR:
	case L_PAD:
		stored_layout(f, t, l);
		break;
	case L_SWIZZLE:
		/* on element offsets: the byte swizzle's base bits less the
		 * element's (every legal swizzle keeps whole elements) */
		fprintf(f, "composition(Swizzle<%d, %d, %d>{},\n\t\t",
		        l->B, l->M - log2i(tile_elem_bytes(t)), l->S);
		stored_layout(f, t, l);
		fputc(')', f);
		break;
	case L_SKEW:
	case L_XOR:
		fprintf(f, "make_composed_layout(%s{}, Int<0>{},\n\t\t",
		        type);
		stored_layout(f, t, l);
		fputc(')', f);
		break;
	}
	fputs(";\n}\n#endif\n", f);
}
