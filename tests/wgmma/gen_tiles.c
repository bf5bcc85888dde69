/* Tile headers in wgmma's canonical layouts, written by hand rather than
 * chosen by the solver, so that runtime/bankc_wgmma.cuh can be compiled
 * and run on all eight layouts (K- and MN-major, no swizzle and the 32-,
 * 64- and 128-byte swizzles) and on every operand type.  For each case,
 * DIR/NAME.cuh (the layout macros of a generated header and the wgmma
 * part from wgmma_emit) and DIR/NAME_check.cu (the check program, as a
 * generated one calls the check); DIR/all_check.cu runs every case.
 *
 * It needs only four of bankc's sources (no library), so that a GPU
 * machine can build it: cc -std=c11 -D_POSIX_C_SOURCE=200809L -Icompiler
 * tests/wgmma/gen_tiles.c compiler/model/wgmma.c compiler/model/mma_canon.c
 * compiler/emit/emit_wgmma.c compiler/base/tables.c
 *
 * usage: gen_tiles DIR (and the two parts alone, see part()) */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bankc.h"
#include "emit/emit.h"
#include "model/model.h"

typedef struct {
	const char *name;
	Dtype dt;
	bool operand_b, mn_major;
	int B, rows, cols, stages;
} Case;

/* rows x cols as the spec would give them: `major k` rows M or N, `major
 * mn` rows K */
static const Case cases[] = {
	{"wg_a_bf16_k128", DT_BF16, false, false, 3, 128, 64, 2},
	{"wg_b_bf16_k128", DT_BF16, true, false, 3, 256, 128, 1},
	{"wg_a_f16_mn64", DT_F16, false, true, 2, 32, 128, 2},
	{"wg_b_f16_mn128", DT_F16, true, true, 3, 64, 256, 2},
	{"wg_a_tf32_k32", DT_TF32, false, false, 1, 64, 32, 3},
	{"wg_b_e4m3_ki", DT_FP8E4M3, true, false, 0, 64, 64, 2},
	{"wg_a_e5m2_k64", DT_FP8E5M2, false, false, 2, 64, 128, 1},
	{"wg_b_i8_k128", DT_I8, true, false, 3, 128, 128, 2},
	{"wg_a_u8_ki", DT_U8, false, false, 0, 128, 64, 1},
	{"wg_a_f16_mni", DT_F16, false, true, 0, 32, 64, 2},
	{"wg_b_bf16_mn32", DT_BF16, true, true, 1, 32, 96, 1},
	{"wg_b_f16_k64", DT_F16, true, false, 2, 72, 64, 2},
	{"wg_a_bf16_mn128", DT_BF16, false, true, 3, 64, 128, 1},
	{"wg_b_tf32_k128", DT_TF32, true, false, 3, 64, 32, 2},
	{"wg_b_f16_mni", DT_F16, true, true, 0, 16, 40, 1},
	{"wg_b_bf16_k32", DT_BF16, true, false, 1, 8, 32, 2},
};

static void upper(char *dst, size_t n, const char *s)
{
	size_t i;
	for (i = 0; i + 1 < n && s[i]; i++)
		dst[i] = (char)toupper((unsigned char)s[i]);
	dst[i] = 0;
}

/* The box layout's element offset of (r, c) as one C expression. */
static void idx_expr(char *buf, size_t n, const Case *k, const char *r,
                     const char *c)
{
	int E = tab_dtype[k->dt].bytes, W = 16 << k->B, per = W / E;
	char o[256];
	snprintf(o, sizeof o, "((%s) * %d + (%s) %% %d * %d)", r, W, c, per, E);
	if (k->B)
		snprintf(buf, n, "((%s) / %d * %d + (%s ^ (%s >> 7 & %d) << 4)) / %d",
		         c, per, k->rows * W, o, o, (1 << k->B) - 1, E);
	else
		snprintf(buf, n, "((%s) / %d * %d + %s) / %d", c, per, k->rows * W, o,
		         E);
}

static FILE *open_out(const char *dir, const char *name, const char *ext)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s%s", dir, name, ext);
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "gen_tiles: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return f;
}

static void close_out(FILE *f)
{
	if (ferror(f) | fclose(f)) {
		fprintf(stderr, "gen_tiles: write error\n");
		exit(1);
	}
}

static void header(const char *dir, const Case *k)
{
	char up[128];
	upper(up, sizeof up, k->name);
	int E = tab_dtype[k->dt].bytes, W = 16 << k->B;
	int64_t stage = (int64_t)k->rows * k->cols * E;
	int align = k->B ? 8 * W : 128;
	WgmmaDesc d;
	const char *why;
	if (!wgmma_desc(k->B, k->rows, k->cols * E, E, k->operand_b, k->mn_major,
	                stage, align, &d, &why)) {
		fprintf(stderr, "gen_tiles: %s: %s\n", k->name, why);
		exit(1);
	}
	FILE *f = open_out(dir, k->name, ".cuh");
	fprintf(f, "/* %s.cuh: a %d x %d %s wgmma operand in boxes of %d bytes, "
	        "written by\n * tests/wgmma/gen_tiles.c as bankc's header would "
	        "give it. */\n#ifndef BANKC_TILE_%s_CUH\n#define BANKC_TILE_%s_CUH\n\n",
	        k->name, k->rows, k->cols, tab_dtype[k->dt].name, W, up, up);
	fputs("#ifndef BANKC_FN\n#ifdef __CUDACC__\n"
	      "#define BANKC_FN static __host__ __device__ __forceinline__\n"
	      "#else\n#define BANKC_FN static inline\n#endif\n#endif\n\n", f);
	fprintf(f, "#define %s_ROWS %d\n#define %s_COLS %d\n#define %s_STAGES %d\n"
	        "#define %s_ELEM_BYTES %d\n#define %s_ELEMS %lld\n"
	        "#define %s_STAGE_ELEMS %lld\n#define %s_BYTES %lld\n"
	        "#define %s_ALIGN %d\n", up, k->rows, up, k->cols, up, k->stages, up,
	        E, up, (long long)(stage / E), up, (long long)(stage / E), up,
	        (long long)(stage * k->stages), up, align);
	char fn[512], mac[512];
	idx_expr(fn, sizeof fn, k, "r", "c");
	idx_expr(mac, sizeof mac, k, "(r)", "(c)");
	fprintf(f, "#ifdef __cplusplus\nBANKC_FN constexpr int %s_idx(int r, int c)\n"
	        "{\n\treturn %s;\n}\n#define %s_IDX(r, c) %s_idx((r), (c))\n#else\n"
	        "BANKC_FN int %s_idx(int r, int c)\n{\n\treturn %s;\n}\n"
	        "#define %s_IDX(r, c) (%s)\n#endif\n", k->name, fn, up, k->name,
	        k->name, fn, up, mac);
	fprintf(f, "#define %s_OFF(r, c) (%s_IDX(r, c) * %d)\n"
	        "#define %s_SIDX(s, r, c) ((s) * %s_STAGE_ELEMS + %s_IDX(r, c))\n", up,
	        up, E, up, up, up);
	wgmma_emit(f, up, k->name, &d);
	fputs("\n#endif\n", f);
	close_out(f);
}

static void program(const char *dir, const Case *k)
{
	char up[128], name[160];
	upper(up, sizeof up, k->name);
	snprintf(name, sizeof name, "%s_check", k->name);
	FILE *f = open_out(dir, name, ".cu");
	fprintf(f, "/* %s_check.cu: the wgmma check of tile %s, as bankc's check "
	        "program calls it. */\n#include \"%s.cuh\"\n", k->name, k->name,
	        k->name);
	wgmma_emit_check(f, up, k->name, k->dt);
	fprintf(f, "\nint main(int argc, char **argv)\n{\n\treturn "
	        "bankc_wgmma_main<%s_wgmma>(argc, argv);\n}\n", k->name);
	close_out(f);
}

/* What bankc build adds for a wgmma tile, from emit/emit_wgmma.c, on standard
 * output: "--header NAME B ROWS ROW_BYTES ELEM_BYTES OPERAND_B MN_MAJOR
 * STAGE_BYTES ALIGN" the header's part, "--check NAME DTYPE" the check
 * program's. */
static int part(int argc, char **argv)
{
	char up[128];
	upper(up, sizeof up, argv[2]);
	if (strcmp(argv[1], "--check") == 0 && argc == 4) {
		int dt = tab_find_dtype(argv[3], strlen(argv[3]));
		if (dt < 0 || !wgmma_check_type((Dtype)dt)) {
			fprintf(stderr, "gen_tiles: %s is no wgmma type\n", argv[3]);
			return 1;
		}
		wgmma_emit_check(stdout, up, argv[2], (Dtype)dt);
		return 0;
	}
	if (strcmp(argv[1], "--header") != 0 || argc != 11) {
		fprintf(stderr, "usage: gen_tiles DIR | --header NAME B ROWS ROW_BYTES "
		        "ELEM_BYTES OPERAND_B MN_MAJOR STAGE_BYTES ALIGN | --check NAME "
		        "DTYPE\n");
		return 2;
	}
	int v[8];
	for (int i = 0; i < 8; i++)
		v[i] = atoi(argv[3 + i]);
	WgmmaDesc d;
	const char *why;
	if (!wgmma_desc(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], &d, &why)) {
		fprintf(stderr, "gen_tiles: %s: %s\n", argv[2], why);
		return 1;
	}
	wgmma_emit(stdout, up, argv[2], &d);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 2 && argv[1][0] == '-')
		return part(argc, argv);
	if (argc != 2) {
		fprintf(stderr, "usage: gen_tiles DIR | --header ... | --check ...\n");
		return 2;
	}
	const char *dir = argv[1];
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "gen_tiles: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	int n = (int)(sizeof cases / sizeof cases[0]);
	FILE *all = open_out(dir, "all", "_check.cu");
	fputs("/* all_check.cu: every case's wgmma check in one program. */\n", all);
	for (int i = 0; i < n; i++) {
		char up[128];
		upper(up, sizeof up, cases[i].name);
		header(dir, &cases[i]);
		program(dir, &cases[i]);
		fprintf(all, "#include \"%s.cuh\"\n", cases[i].name);
		if (i == 0)
			fputs("#include \"bankc_wgmma.cuh\"\n", all);
		fprintf(all, "BANKC_WGMMA_TILE(%s, %s, %s);\n", cases[i].name, up,
		        wgmma_check_type(cases[i].dt));
	}
	fputs("\nint main(int argc, char **argv)\n{\n\tint worst = 0, rc;\n", all);
	for (int i = 0; i < n; i++)
		fprintf(all, "\trc = bankc_wgmma_main<%s_wgmma>(argc, argv);\n"
		        "\tworst = rc > worst ? rc : worst;\n", cases[i].name);
	fputs("\treturn worst;\n}\n", all);
	close_out(all);
	for (int i = 0; i < n; i++)
		printf("%s\n", cases[i].name);
	return 0;
}
