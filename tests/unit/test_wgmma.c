/* Unit tests of the wgmma descriptor fields (compiler/model/wgmma.c):
 * the known values of the eight layouts, the descriptor word, what is refused, the
 * emitted header text, and, for many shapes, that the addresses the
 * descriptor's canonical form names are exactly where bankc's box layout
 * puts each element every instruction reads. */
#include "testutil.h"
#include "emit/emit.h"
#include "model/model.h"

static WgmmaDesc desc_ok(int B, int rows, int row_bytes, int es, bool b,
                         bool mn)
{
	WgmmaDesc d;
	const char *why = NULL;
	if (!wgmma_desc(B, rows, row_bytes, es, b, mn, (int64_t)rows * row_bytes,
	                1024, &d, &why))
		fail_msg("B=%d rows=%d row_bytes=%d: %s", B, rows, row_bytes, why);
	return d;
}

/* The eight layouts' fields: K-major 128 x 64 f16 (rows M, K contiguous),
 * MN-major 64 x 128 f16 (rows K, M contiguous). */
static void test_known_values(void **state)
{
	(void)state;
	static const struct {
		int B;
		bool mn;
		int swizzle, lbo, sbo;
		bool lbo_used;
	} want[] = {
		/* K-major: 128 rows of 128 bytes */
		{0, false, 0, 128 * 16, 128, true},     /* LBO: the next 16-byte box */
		{1, false, 3, 16, 256, false},
		{2, false, 2, 16, 512, false},
		{3, false, 1, 16, 1024, false},         /* CUTLASS: LBO 1, SBO 64 units */
		/* MN-major: 64 rows (K) of 256 bytes (M) */
		{0, true, 0, 128, 64 * 16, true},       /* SBO: the next 16-byte box */
		{1, true, 3, 64 * 32, 256, true},
		{2, true, 2, 64 * 64, 512, true},
		{3, true, 1, 64 * 128, 1024, true},
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		int rows = want[i].mn ? 64 : 128, rb = want[i].mn ? 256 : 128;
		WgmmaDesc d = desc_ok(want[i].B, rows, rb, 2, false, want[i].mn);
		assert_int_equal(d.swizzle, want[i].swizzle);
		assert_int_equal(d.lbo, want[i].lbo);
		assert_int_equal(d.sbo, want[i].sbo);
		assert_int_equal(d.lbo_used, want[i].lbo_used);
		assert_int_equal(d.box_bytes, 16 << want[i].B);
		assert_int_equal(d.base_offset, 0);
		assert_int_equal(d.mn_major, want[i].mn);
	}
	/* element size does not change the K-major fields; the rows do */
	WgmmaDesc d = desc_ok(0, 64, 64, 1, true, false);
	assert_int_equal(d.lbo, 64 * 16);
	assert_int_equal(d.sbo, 128);
	d = desc_ok(1, 64, 128, 4, true, false);
	assert_int_equal(d.lbo, 16);
	assert_int_equal(d.sbo, 256);
	assert_true(d.operand_b);
}

/* The 64-bit word: CUTLASS's (and templates/sm90.cuh's kmajor_desc, run
 * on an H200) K-major 128-byte swizzle descriptor at shared address
 * 0x400 is start 0x40, LBO 1, SBO 64, mode 1. */
static void test_word(void **state)
{
	(void)state;
	WgmmaDesc d = desc_ok(3, 64, 128, 2, false, false);
	assert_int_equal(wgmma_desc_word(&d, 0x400), 0x4000004000010040ull);
	/* the address is encoded as (x & 0x3FFFF) >> 4 */
	assert_int_equal(wgmma_desc_word(&d, 0x40400) & 0x3FFF, 0x40);
	assert_int_equal(wgmma_desc_word(&d, 0x3FFF0) & 0x3FFF, 0x3FFF);
	d = desc_ok(0, 64, 64, 2, true, true);
	uint64_t w = wgmma_desc_word(&d, 0x1230);
	assert_int_equal(w & 0x3FFF, 0x123);
	assert_int_equal(w >> 16 & 0x3FFF, 128 >> 4);
	assert_int_equal(w >> 32 & 0x3FFF, 64 * 16 >> 4);
	assert_int_equal(w >> 49 & 7, 0);
	assert_int_equal(w >> 62, 0);
	d = desc_ok(1, 64, 64, 2, true, true);
	assert_int_equal(wgmma_desc_word(&d, 0) >> 62, 3);
	d = desc_ok(2, 64, 64, 2, false, false);
	assert_int_equal(wgmma_desc_word(&d, 0) >> 62, 2);
}

static void refused(int B, int rows, int rb, int es, bool b, bool mn,
                    int64_t stage, int64_t align, const char *why_part)
{
	WgmmaDesc d;
	const char *why = NULL;
	if (wgmma_desc(B, rows, rb, es, b, mn, stage, align, &d, &why))
		fail_msg("B=%d rows=%d row_bytes=%d accepted", B, rows, rb);
	assert_non_null(why);
	if (!strstr(why, why_part))
		fail_msg("'%s' does not say '%s'", why, why_part);
}

static void test_refused(void **state)
{
	(void)state;
	refused(4, 64, 128, 2, false, false, 8192, 1024, "swizzles");
	refused(-1, 64, 128, 2, false, false, 8192, 1024, "swizzles");
	refused(3, 64, 128, 8, false, false, 8192, 1024, "1, 2 or 4 bytes");
	refused(3, 64, 128, 1, false, true, 8192, 1024, "16-bit");
	refused(3, 64, 128, 4, true, true, 8192, 1024, "16-bit");
	refused(0, 60, 128, 2, true, false, 7680, 1024, "core matrices");
	refused(0, 64, 40, 2, true, false, 2560, 1024, "core matrices");
	refused(3, 64, 64, 2, false, false, 4096, 1024, "whole boxes");
	refused(2, 64, 96, 2, false, false, 6144, 1024, "whole boxes");
	refused(0, 64, 16, 2, true, false, 1024, 1024, "32-byte K steps");
	refused(0, 8, 128, 2, true, true, 1024, 1024, "16-row K steps");
	refused(3, 32, 128, 2, false, false, 4096, 1024, "64 rows");
	refused(0, 16, 64, 2, false, true, 1024, 1024, "64 rows");
	refused(3, 64, 128, 2, false, false, 8192, 512, "alignment");
	refused(1, 64, 32, 2, true, false, 2048, 128, "alignment");
	refused(0, 64, 32, 2, true, false, 2048, 8, "alignment");
	refused(3, 64, 128, 2, false, false, 8192 + 512, 1024, "boundary");
	refused(3, 64, 128, 2, false, false, 4096, 1024, "boundary");
	/* a box of 16384 rows of 16 bytes: 262144 bytes, past the field */
	refused(0, 16384, 32, 1, true, false, 16384 * 32, 1024, "14-bit");
	refused(3, 2048, 256, 2, true, true, 2048 * 256, 1024, "14-bit");
	/* and just below it, accepted */
	WgmmaDesc d = desc_ok(0, 16376, 32, 1, true, false);
	assert_int_equal(d.lbo, 16376 * 16);
}

/* ---- the descriptor's reads against bankc's box layout -------------------- */

static int64_t swz(int B, int64_t o)
{
	return B ? o ^ (((o >> 7) & ((1 << B) - 1)) << 4) : o;
}

/* Byte offset of (r, c)'s byte e in the box layout, within a stage. */
static int64_t box_off(int B, int rows, int es, int r, int c, int e)
{
	int W = 16 << B;
	int64_t cb = (int64_t)c * es + e;
	return cb / W * rows * W + swz(B, (int64_t)r * W + cb % W);
}

/* The byte the descriptor d names for element (mn, k) of an instruction
 * whose sub-block starts at `start` (byte e of the element), read as the
 * canonical forms of the PTX ISA and CUTLASS say, the swizzle applied to
 * the whole address (the tile's base is aligned, here at 0). */
static int64_t desc_addr(const WgmmaDesc *d, int lbo, int sbo, int swizzle,
                         int64_t start, int es, int mn, int k, int e)
{
	int W = swizzle == 0 ? 16 : 256 >> swizzle;   /* 1: 128, 2: 64, 3: 32 */
	int B = swizzle == 0 ? 0 : 4 - swizzle;
	int64_t a;
	if (!d->mn_major) {
		int64_t kb = (int64_t)k * es + e;
		if (swizzle == 0)
			a = start + mn / 8 * sbo + mn % 8 * 16 + kb / 16 * lbo + kb % 16;
		else
			a = start + mn / 8 * sbo + mn % 8 * W + kb;
	} else {
		int64_t mb = (int64_t)mn * es + e;
		if (swizzle == 0)
			a = start + mb / 16 * sbo + mb % 16 + k / 8 * lbo + k % 8 * 16;
		else
			a = start + mb / W * lbo + mb % W + k / 8 * sbo + k % 8 * W;
	}
	return swz(B, a);
}

/* Every element of every instruction over the tile (operand A: blocks of
 * 64 rows of M; B: the whole N at once, up to 256) in every stage.  With
 * lbo, sbo and swizzle as d has them, each must be where the box layout
 * put it; returns the number of elements that are not. */
static long reads_wrong(const WgmmaDesc *d, int lbo, int sbo, int swizzle,
                        int rows, int row_bytes, int es, int stages)
{
	int64_t stage = (int64_t)rows * row_bytes;
	int cols = row_bytes / es;
	int kin = 32 / es;                      /* K of one instruction */
	int M = d->mn_major ? cols : rows, K = d->mn_major ? rows : cols;
	int mni = d->operand_b ? (M < 256 ? M : 256) : 64;
	long wrong = 0;
	for (int s = 0; s < stages; s++)
		for (int m0 = 0; m0 < M; m0 += mni)
			for (int k0 = 0; k0 < K; k0 += kin) {
				int r0 = d->mn_major ? k0 : m0, c0 = d->mn_major ? m0 : k0;
				int64_t start = s * stage + box_off(d->B, rows, es, r0, c0, 0);
				for (int mn = 0; mn < mni && m0 + mn < M; mn++)
					for (int k = 0; k < kin; k++)
						for (int e = 0; e < es; e++) {
							int r = d->mn_major ? k0 + k : m0 + mn;
							int c = d->mn_major ? m0 + mn : k0 + k;
							int64_t want = s * stage +
							               box_off(d->B, rows, es, r, c, e);
							if (desc_addr(d, lbo, sbo, swizzle, start, es, mn,
							              k, e) != want)
								wrong++;
						}
			}
	return wrong;
}

static void check_reads(int B, int rows, int row_bytes, int es, bool b,
                        bool mn, int stages)
{
	WgmmaDesc d = desc_ok(B, rows, row_bytes, es, b, mn);
	long w = reads_wrong(&d, d.lbo, d.sbo, d.swizzle, rows, row_bytes, es,
	                     stages);
	if (w)
		fail_msg("B=%d %s-major %c, %d x %d bytes: %ld bytes misread", B,
		         mn ? "MN" : "K", b ? 'B' : 'A', rows, row_bytes, w);
	/* and each field the instructions use matters: a wrong value
	 * misreads something (M/N of one instruction: 64 for A, N up to 256
	 * for B; K: 32 bytes, or 16 rows MN-major) */
	int M = mn ? row_bytes / es : rows;
	int mnb = (b ? (M < 256 ? M : 256) : 64) * es;      /* bytes of M/N */
	int W = 16 << B;
	bool sbo_used = mn ? (B > 0 || mnb > 16) : mnb > 8 * es;
	bool lbo_used = mn && B > 0 ? mnb > W : !mn ? B == 0 : true;
	assert_int_equal(lbo_used && !mn, d.lbo_used && !mn);
	if (sbo_used && reads_wrong(&d, d.lbo, d.sbo / 2, d.swizzle, rows,
	                            row_bytes, es, stages) == 0)
		fail_msg("B=%d %s-major: a wrong SBO reads right", B, mn ? "MN" : "K");
	if (lbo_used && reads_wrong(&d, d.lbo / 2, d.sbo, d.swizzle, rows,
	                            row_bytes, es, stages) == 0)
		fail_msg("B=%d %s-major: a wrong LBO reads right", B, mn ? "MN" : "K");
	if (!lbo_used && reads_wrong(&d, 1 << 16, d.sbo, d.swizzle, rows,
	                             row_bytes, es, stages) != 0)
		fail_msg("B=%d %s-major: an LBO no instruction needs is read", B,
		         mn ? "MN" : "K");
	if (!sbo_used && reads_wrong(&d, d.lbo, 1 << 16, d.swizzle, rows,
	                             row_bytes, es, stages) != 0)
		fail_msg("B=%d %s-major: an SBO no instruction needs is read", B,
		         mn ? "MN" : "K");
	for (int sw = 0; sw < 4; sw++)
		if (sw != d.swizzle &&
		    reads_wrong(&d, d.lbo, d.sbo, sw, rows, row_bytes, es, stages) == 0)
			fail_msg("B=%d: swizzle mode %d reads as well as %d", B, sw,
			         d.swizzle);
}

static void test_reads_box_layout(void **state)
{
	(void)state;
	for (int B = 0; B < 4; B++) {
		int W = 16 << B;
		/* K-major, every element size, one box and several */
		for (int es = 1; es <= 4; es *= 2) {
			int rb0 = W < 32 ? 32 : W;
			check_reads(B, 64, rb0, es, false, false, 2);
			check_reads(B, 128, 2 * rb0, es, false, false, 1);
			check_reads(B, 8, rb0, es, true, false, 2);
			check_reads(B, 72, 4 * rb0, es, true, false, 1);
			check_reads(B, 256, rb0, es, true, false, 1);
		}
		/* MN-major, 16-bit */
		check_reads(B, 16, 128, 2, false, true, 2);
		check_reads(B, 32, 256, 2, false, true, 1);
		check_reads(B, 64, W < 64 ? 64 : W, 2, true, true, 2);
		check_reads(B, 16, 512, 2, true, true, 1);
		check_reads(B, 48, 384, 2, true, true, 1);
	}
}

/* ---- the header text ------------------------------------------------------ */

static char *emitted(const WgmmaDesc *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	wgmma_emit(f, "OPA", "opa", d);
	fclose(f);
	return buf;
}

static void test_emit(void **state)
{
	(void)state;
	WgmmaDesc d = desc_ok(3, 128, 128, 2, false, false);
	char *h = emitted(&d);
	static const char *const lines[] = {
		"#define OPA_WGMMA_SWIZZLE 1\t",
		"#define OPA_WGMMA_LBO 16\t",
		"#define OPA_WGMMA_SBO 1024\t",
		"#define OPA_WGMMA_MAJOR_MN 0\n",
		"#define OPA_WGMMA_B 0\t",
		"#define OPA_WGMMA_START(s, row, col) (OPA_SIDX(s, row, col) * "
		"OPA_ELEM_BYTES)\n",
		"BANKC_FN unsigned long long opa_wgmma_desc(unsigned smem_addr, int s)\n",
		"(unsigned long long)((smem_addr & 0x3FFFFu) >> 4) |",
		"(unsigned long long)(OPA_WGMMA_LBO >> 4) << 16 |",
		"(unsigned long long)(OPA_WGMMA_SBO >> 4) << 32 |",
		"(unsigned long long)0 << 49 |",
		"(unsigned long long)OPA_WGMMA_SWIZZLE << 62;",
		"operand A, K-major, 128-byte swizzle in boxes of 128 bytes",
	};
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
		if (!strstr(h, lines[i]))
			fail_msg("missing: %s\nin:\n%s", lines[i], h);
	free(h);
	d = desc_ok(0, 64, 64, 2, true, true);
	h = emitted(&d);
	assert_non_null(strstr(h, "#define OPA_WGMMA_LBO 128\t"));
	assert_non_null(strstr(h, "#define OPA_WGMMA_SBO 1024\t"));
	assert_non_null(strstr(h, "#define OPA_WGMMA_MAJOR_MN 1\n"));
	assert_non_null(strstr(h, "#define OPA_WGMMA_B 1\t"));
	assert_non_null(strstr(h, "MN-major, no swizzle (interleave)"));
	free(h);

	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	wgmma_emit_check(f, "OPA", "opa", DT_FP8E4M3);
	fclose(f);
	assert_non_null(strstr(buf, "#include \"bankc_wgmma.cuh\"\n"));
	assert_non_null(strstr(buf, "BANKC_WGMMA_TILE(opa, OPA, BANKC_WG_E4M3);\n"));
	free(buf);
	assert_string_equal(wgmma_check_type(DT_BF16), "BANKC_WG_BF16");
	assert_string_equal(wgmma_check_type(DT_U8), "BANKC_WG_U8");
	assert_string_equal(wgmma_check_type(DT_I8), "BANKC_WG_S8");
	assert_null(wgmma_check_type(DT_F32));
}

/* From a checked tile: the operand and major axis come from its access. */
static void test_tile(void **state)
{
	(void)state;
	Run *r = run("tile b { shape 64 x 128; dtype f16; arch sm_90a; align 1024;\n"
	             "  access w: wgmma.b major mn; }\n"
	             "tile n { shape 64 x 64; dtype f16; arch sm_90a;\n"
	             "  access x: load along row; }\n");
	assert_true(r->ok);
	WgmmaDesc d;
	const char *why = NULL;
	assert_true(wgmma_tile_desc(&r->unit.tiles[0], 3, 64 * 256, &d, &why));
	assert_true(d.operand_b);
	assert_true(d.mn_major);
	assert_int_equal(d.lbo, 64 * 128);
	assert_int_equal(d.sbo, 1024);
	/* the default alignment (16) is below the 128-byte swizzle's 1024 */
	r->unit.tiles[0].align = 16;
	assert_false(wgmma_tile_desc(&r->unit.tiles[0], 3, 64 * 256, &d, &why));
	assert_non_null(strstr(why, "alignment"));
	assert_true(wgmma_tile_desc(&r->unit.tiles[0], 0, 64 * 256, &d, &why));
	assert_false(wgmma_tile_desc(&r->unit.tiles[1], 0, 64 * 128, &d, &why));
	assert_non_null(strstr(why, "no wgmma access"));
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_values),
		cmocka_unit_test(test_word),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_reads_box_layout),
		cmocka_unit_test(test_emit),
		cmocka_unit_test(test_tile),
	};
	return cmocka_run_group_tests_name("wgmma", tests, NULL, NULL);
}
