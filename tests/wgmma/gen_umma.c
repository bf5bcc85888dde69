/* Tile headers in tcgen05.mma's canonical layouts, written by hand rather
 * than chosen by the solver, for every legal (type, major, layout) and a
 * few shapes each: K-major and MN-major, no swizzle, the 32-, 64- and
 * 128-byte swizzles, the 128-byte swizzle on 32-byte atoms (MN-major
 * tf32's one layout), every operand type (packed fp4 K-major only),
 * operand A and B, one CTA and a CTA pair.  For each case, DIR/NAME.cuh
 * (the layout macros of a generated header and the UMMA part from
 * umma_emit), DIR/NAME_check.cu (the check program, as a generated one
 * calls runtime/bankc_umma.cuh) and, on standard output, a line
 * "NAME TYPE MAJOR LAYOUT_TYPE" (the CuTe test, tests/run_cute.sh, builds
 * the same layout with CUTLASS's atoms from it); DIR/all_check.cu runs
 * every case.
 *
 * It needs four of bankc's sources (no library): cc -std=c11
 * -D_POSIX_C_SOURCE=200809L -Icompiler tests/wgmma/gen_umma.c
 * compiler/model/umma.c compiler/model/mma_canon.c compiler/emit/emit_umma.c
 * compiler/base/tables.c
 *
 * usage: gen_umma DIR */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bankc.h"
#include "emit/emit.h"
#include "model/model.h"

typedef struct {
	char name[64];
	Dtype dt;
	bool operand_b, mn_major, atom32;
	int B, rows, cols, stages, cta;
} Case;

enum { MAX_CASES = 256 };
static Case cases[MAX_CASES];
static int ncases;

static int bits_of(Dtype dt)
{
	return tab_dtype[dt].bits;
}

/* The tile's bytes per row: sub-byte types are packed. */
static int row_bytes(const Case *k)
{
	return k->cols * bits_of(k->dt) / 8;
}

static void upper(char *dst, size_t n, const char *s)
{
	size_t i;
	for (i = 0; i + 1 < n && s[i]; i++)
		dst[i] = (char)toupper((unsigned char)s[i]);
	dst[i] = 0;
}

/* Add a case if the model takes it (each call names a legal one: a
 * refusal is this generator's bug). */
static void add(Dtype dt, bool b, bool mn, int B, bool atom32, int rows,
                int cols, int stages, int cta)
{
	Case k = {"", dt, b, mn, atom32, B, rows, cols, stages, cta};
	static const char *const lay[] = {"i", "s32", "s64", "s128"};
	snprintf(k.name, sizeof k.name, "um_%c_%s_%s_%s_%dx%d%s", b ? 'b' : 'a',
	         tab_dtype[dt].name, mn ? "mn" : "k", atom32 ? "a32" : lay[B], rows,
	         cols, cta == 2 ? "_pair" : "");
	UmmaDesc d;
	const char *why;
	int rb = row_bytes(&k);
	if (!umma_desc(B, atom32, rows, rb, bits_of(dt), b, mn, cta,
	               (int64_t)rows * rb, 1024, &d, &why)) {
		fprintf(stderr, "gen_umma: %s: %s\n", k.name, why);
		exit(1);
	}
	if (ncases == MAX_CASES) {
		fprintf(stderr, "gen_umma: too many cases\n");
		exit(1);
	}
	cases[ncases++] = k;
}

static void make_cases(void)
{
	static const Dtype types[] = {DT_F16, DT_BF16, DT_TF32, DT_FP8E4M3,
		DT_FP8E5M2, DT_I8, DT_U8, DT_FP4E2M1};
	for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
		Dtype dt = types[i];
		int bits = bits_of(dt);
		for (int B = 0; B < 4; B++) {
			int W = 16 << B, wide = W < 32 ? 32 : W;
			int kcols = wide * 8 / bits;    /* K of one box or two */
			/* K-major: A of M 128 (fp4 needs 128 in one CTA), B of N 64
			 * and 72, two stages */
			add(dt, false, false, B, false, 128, kcols, 2, 1);
			add(dt, false, false, B, false, 128, 2 * kcols, 1, 2);
			add(dt, true, false, B, false, 64, kcols, 2, 1);
			add(dt, true, false, B, false, 72, 2 * kcols, 1, 1);
			if (bits == 4 || bits == 32)
				continue;
			/* MN-major (not fp4, not tf32): rows K in 32-byte steps */
			int kin = 256 / bits;
			int mcols = (W < 64 ? 64 : W) * 8 / bits;   /* M/N */
			mcols = mcols < 64 ? 64 : mcols;
			add(dt, false, true, B, false, 2 * kin, mcols, 2, 1);
			add(dt, true, true, B, false, kin, W * 8 / bits, 1, 1);
			add(dt, true, true, B, false, 3 * kin, 2 * W * 8 / bits, 2, 2);
		}
		if (bits == 32) {
			/* MN-major tf32: the 32-byte-atom layout alone */
			add(dt, false, true, 2, true, 16, 64, 2, 1);
			add(dt, true, true, 2, true, 8, 256, 1, 1);
			add(dt, true, true, 2, true, 24, 96, 2, 2);
		}
	}
}

/* The box layout's element offset of (r, c) as one C expression (bytes for
 * packed fp4, whose element c starts in byte c / 2). */
static void idx_expr(char *buf, size_t n, const Case *k, const char *r,
                     const char *c)
{
	int E = tab_dtype[k->dt].bytes, W = k->atom32 ? 128 : 16 << k->B;
	char cb[128];
	if (bits_of(k->dt) == 4)
		snprintf(cb, sizeof cb, "((%s) / 2)", c);
	else
		snprintf(cb, sizeof cb, "((%s) * %d)", c, E);
	char o[256];
	snprintf(o, sizeof o, "((%s) * %d + %s %% %d)", r, W, cb, W);
	if (k->atom32)
		snprintf(buf, n, "(%s / %d * %d + (%s ^ (%s >> 7 & 3) << 5)) / %d", cb, W,
		         k->rows * W, o, o, E);
	else if (k->B)
		snprintf(buf, n, "(%s / %d * %d + (%s ^ (%s >> 7 & %d) << 4)) / %d", cb, W,
		         k->rows * W, o, o, (1 << k->B) - 1, E);
	else
		snprintf(buf, n, "(%s / %d * %d + %s) / %d", cb, W, k->rows * W, o, E);
}

static FILE *open_out(const char *dir, const char *name, const char *ext)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s%s", dir, name, ext);
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "gen_umma: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return f;
}

static void close_out(FILE *f)
{
	if (ferror(f) | fclose(f)) {
		fprintf(stderr, "gen_umma: write error\n");
		exit(1);
	}
}

static void header(const char *dir, const Case *k)
{
	char up[128];
	upper(up, sizeof up, k->name);
	int E = tab_dtype[k->dt].bytes;
	int64_t stage = (int64_t)k->rows * row_bytes(k);
	UmmaDesc d;
	const char *why;
	if (!umma_desc(k->B, k->atom32, k->rows, row_bytes(k), bits_of(k->dt),
	               k->operand_b, k->mn_major, k->cta, stage, 1024, &d, &why)) {
		fprintf(stderr, "gen_umma: %s: %s\n", k->name, why);
		exit(1);
	}
	FILE *f = open_out(dir, k->name, ".cuh");
	fprintf(f, "/* %s.cuh: a %d x %d %s tcgen05.mma operand in boxes of %d "
	        "bytes, written by\n * tests/wgmma/gen_umma.c as bankc's header "
	        "would give it. */\n#ifndef BANKC_TILE_%s_CUH\n#define "
	        "BANKC_TILE_%s_CUH\n\n", k->name, k->rows, k->cols,
	        tab_dtype[k->dt].name, d.box_bytes, up, up);
	fputs("#ifndef BANKC_FN\n#ifdef __CUDACC__\n"
	      "#define BANKC_FN static __host__ __device__ __forceinline__\n"
	      "#else\n#define BANKC_FN static inline\n#endif\n#endif\n\n", f);
	fprintf(f, "#define %s_ROWS %d\n#define %s_COLS %d\n#define %s_STAGES %d\n"
	        "#define %s_ELEM_BYTES %d\n#define %s_ELEMS %lld\n"
	        "#define %s_STAGE_ELEMS %lld\n#define %s_BYTES %lld\n"
	        "#define %s_ALIGN 1024\n", up, k->rows, up, k->cols, up, k->stages,
	        up, E, up, (long long)(stage / E), up, (long long)(stage / E), up,
	        (long long)(stage * k->stages), up);
	char fn[512], mac[512];
	idx_expr(fn, sizeof fn, k, "r", "c");
	idx_expr(mac, sizeof mac, k, "(r)", "(c)");
	fprintf(f, "#ifdef __cplusplus\nBANKC_FN constexpr int %s_idx(int r, int c)\n"
	        "{\n\treturn %s;\n}\n#define %s_IDX(r, c) %s_idx((r), (c))\n#else\n"
	        "BANKC_FN int %s_idx(int r, int c)\n{\n\treturn %s;\n}\n"
	        "#define %s_IDX(r, c) (%s)\n#endif\n", k->name, fn, up, k->name,
	        k->name, fn, up, mac);
	fprintf(f, "#define %s_SIDX(s, r, c) ((s) * %s_STAGE_ELEMS + %s_IDX(r, c))\n",
	        up, up, up);
	umma_emit(f, up, k->name, &d);
	fputs("\n#endif\n", f);
	close_out(f);
}

static void program(const char *dir, const Case *k)
{
	char up[128], name[160];
	upper(up, sizeof up, k->name);
	snprintf(name, sizeof name, "%s_check", k->name);
	FILE *f = open_out(dir, name, ".cu");
	fprintf(f, "/* %s_check.cu: the tcgen05.mma check of tile %s, as bankc's "
	        "check program calls it. */\n#include \"%s.cuh\"\n", k->name,
	        k->name, k->name);
	umma_emit_check(f, up, k->name, k->dt);
	fprintf(f, "\nint main(int argc, char **argv)\n{\n\treturn "
	        "bankc_umma_main<%s_umma>(argc, argv);\n}\n", k->name);
	close_out(f);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: gen_umma DIR\n");
		return 2;
	}
	const char *dir = argv[1];
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "gen_umma: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	make_cases();
	FILE *all = open_out(dir, "all_check", ".cu");
	fputs("/* all_check.cu: every case of tests/wgmma/gen_umma.c. */\n", all);
	for (int i = 0; i < ncases; i++) {
		const Case *k = &cases[i];
		header(dir, k);
		program(dir, k);
		char up[128];
		upper(up, sizeof up, k->name);
		fprintf(all, "#include \"%s.cuh\"\n", k->name);
		umma_emit_check(all, up, k->name, k->dt);
		UmmaDesc d;
		umma_desc(k->B, k->atom32, k->rows, row_bytes(k), bits_of(k->dt),
		          k->operand_b, k->mn_major, k->cta,
		          (int64_t)k->rows * row_bytes(k), 1024, &d, NULL);
		printf("%s %s %s %d\n", k->name, tab_dtype[k->dt].name,
		       k->mn_major ? "mn" : "k", d.layout_type);
	}
	fputs("\nint main(int argc, char **argv)\n{\n\tint rc = 0, r;\n", all);
	for (int i = 0; i < ncases; i++)
		fprintf(all, "\tr = bankc_umma_main<%s_umma>(argc, argv);\n"
		        "\trc = r > rc ? r : rc;\n", cases[i].name);
	fputs("\treturn rc;\n}\n", all);
	close_out(all);
	return 0;
}
