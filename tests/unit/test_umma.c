/* Unit tests of tcgen05.mma's shared-memory descriptor (compiler/model/
 * umma.c, on the canonical layouts of compiler/model/mma_canon.c): the
 * known values of each layout, the descriptor word and its fixed bits,
 * what is refused (and what the PTX ISA forbids in a word), the base
 * offset, the emitted header text, and, for many shapes and types, that
 * the addresses the descriptor's canonical form names are exactly where
 * bankc's box layout puts each byte every instruction reads, and that
 * each field the instructions use matters. */
#include "testutil.h"
#include "emit/emit.h"
#include "model/model.h"

static UmmaDesc desc_ok(int B, bool atom32, int rows, int row_bytes,
                        int bits, bool b, bool mn)
{
	UmmaDesc d;
	const char *why = NULL;
	if (!umma_desc(B, atom32, rows, row_bytes, bits, b, mn, 1,
	               (int64_t)rows * row_bytes, 1024, &d, &why))
		fail_msg("B=%d%s rows=%d row_bytes=%d: %s", B, atom32 ? "+32B" : "",
		         rows, row_bytes, why);
	return d;
}

/* Each layout's fields: K-major 128 x 64 bf16 (rows M, K contiguous),
 * MN-major 64 x 128 bf16 (rows K, M contiguous), and MN-major tf32 on
 * 32-byte atoms, 32 x 64 (rows K). */
static void test_known_values(void **state)
{
	(void)state;
	static const struct {
		int B;
		bool atom32, mn;
		int bits, rows, rb;
		int type, lbo, sbo;
		bool lbo_used;
	} want[] = {
		{0, false, false, 16, 128, 128, 0, 128 * 16, 128, true},
		{1, false, false, 16, 128, 128, 6, 16, 256, false},
		{2, false, false, 16, 128, 128, 4, 16, 512, false},
		{3, false, false, 16, 128, 128, 2, 16, 1024, false},
		{0, false, true, 16, 64, 256, 0, 128, 64 * 16, true},
		{1, false, true, 16, 64, 256, 6, 64 * 32, 256, true},
		{2, false, true, 16, 64, 256, 4, 64 * 64, 512, true},
		{3, false, true, 16, 64, 256, 2, 64 * 128, 1024, true},
		/* CUTLASS's SW128_32B: LBO the next 128-byte box, SBO 4 rows */
		{2, true, true, 32, 32, 256, 1, 32 * 128, 512, true},
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		UmmaDesc d = desc_ok(want[i].B, want[i].atom32, want[i].rows,
		                     want[i].rb, want[i].bits, false, want[i].mn);
		assert_int_equal(d.layout_type, want[i].type);
		assert_int_equal(d.lbo, want[i].lbo);
		assert_int_equal(d.sbo, want[i].sbo);
		assert_int_equal(d.lbo_used, want[i].lbo_used);
		assert_int_equal(d.box_bytes, want[i].atom32 ? 128 : 16 << want[i].B);
		assert_int_equal(d.base_offset, 0);
		assert_int_equal(d.k_elems, 256 / want[i].bits);
	}
	/* packed fp4: 32 bytes of K are 64 elements; M 128 in a CTA */
	UmmaDesc d = desc_ok(3, false, 128, 128, 4, false, false);
	assert_int_equal(d.k_elems, 64);
	assert_int_equal(d.m_cta, 128);
	d = desc_ok(3, false, 64, 128, 8, false, false);
	assert_int_equal(d.k_elems, 32);
	assert_int_equal(d.m_cta, 64);
}

/* The 64-bit word: CUTLASS's make_umma_desc writes version 1 (bit 46),
 * LBO mode 0, base offset 0; a K-major 128-byte swizzle at 0x400 is start
 * 0x40, LBO 1, SBO 64, layout 2. */
static void test_word(void **state)
{
	(void)state;
	UmmaDesc d = desc_ok(3, false, 64, 128, 16, false, false);
	assert_int_equal(umma_desc_word(&d, 0x400), 0x4000404000010040ull);
	assert_int_equal(umma_desc_word(&d, 0x40400) & 0x3FFF, 0x40);
	assert_int_equal(umma_desc_word(&d, 0x3FFF0) & 0x3FFF, 0x3FFF);
	/* bits 46-48: 0b001; 52 and 53-60: 0 */
	uint64_t w = umma_desc_word(&d, 0x12340);
	assert_int_equal(w >> 46 & 7, 1);
	assert_int_equal(w >> 52 & 0x1FF, 0);
	d = desc_ok(2, true, 32, 256, 32, true, true);
	w = umma_desc_word(&d, 0x800);
	assert_int_equal(w >> 61, 1);
	assert_int_equal(w >> 16 & 0x3FFF, 32 * 128 >> 4);
	assert_int_equal(w >> 32 & 0x3FFF, 512 >> 4);
	static const int types[4] = {0, 6, 4, 2};
	for (int B = 0; B < 4; B++) {
		d = desc_ok(B, false, 64, 128, 8, true, false);
		assert_int_equal(umma_desc_word(&d, 0) >> 61, types[B]);
		assert_int_equal(umma_layout_type(B, false), types[B]);
	}
	/* and every word bankc writes reads back as the PTX ISA allows */
	UmmaFields f;
	const char *why = NULL;
	assert_true(umma_desc_read(umma_desc_word(&d, 0x3000), false, &f, &why));
	assert_int_equal(f.start, 0x3000);
	assert_int_equal(f.sbo, d.sbo);
	assert_int_equal(f.layout_type, 2);
}

static void refused(int B, bool atom32, int rows, int rb, int bits, bool b,
                    bool mn, int cta, int64_t stage, int64_t align,
                    const char *why_part)
{
	UmmaDesc d;
	const char *why = NULL;
	if (umma_desc(B, atom32, rows, rb, bits, b, mn, cta, stage, align, &d,
	              &why))
		fail_msg("B=%d rows=%d row_bytes=%d accepted", B, rows, rb);
	assert_non_null(why);
	if (!strstr(why, why_part))
		fail_msg("'%s' does not say '%s'", why, why_part);
}

static void test_refused(void **state)
{
	(void)state;
	refused(4, false, 64, 128, 16, false, false, 1, 8192, 1024, "swizzles");
	refused(3, true, 32, 256, 32, true, true, 1, 8192, 1024, "swizzles");
	refused(3, false, 64, 128, 64, false, false, 1, 8192, 1024, "4 (packed");
	refused(3, false, 64, 128, 6, false, false, 1, 8192, 1024, "4 (packed");
	refused(3, false, 64, 128, 16, false, false, 3, 8192, 1024, "cta_group");
	refused(3, false, 64, 128, 4, false, true, 1, 8192, 1024, "K-major");
	/* CUTLASS: MN-major tf32 has the 32-byte-atom layout alone, and that
	 * layout is given to nothing else; it is MN-major only */
	refused(3, false, 32, 256, 32, true, true, 1, 8192, 1024, "32-byte atoms");
	refused(2, true, 64, 256, 16, true, true, 1, 16384, 1024, "tf32");
	refused(2, true, 64, 128, 32, true, false, 1, 8192, 1024, "MN-major");
	refused(0, false, 60, 128, 16, true, false, 1, 7680, 1024, "core matrices");
	refused(3, false, 64, 64, 16, false, false, 1, 4096, 1024, "whole boxes");
	refused(0, false, 64, 16, 16, true, false, 1, 1024, 1024, "32-byte K steps");
	refused(0, false, 8, 128, 16, true, true, 1, 1024, 1024, "K steps");
	refused(2, true, 4, 128, 32, true, true, 1, 1024, 1024, "core matrices");
	refused(0, false, 16, 128, 8, true, true, 1, 2048, 1024, "K steps");
	refused(3, false, 32, 128, 16, false, false, 1, 4096, 1024, "64");
	refused(3, false, 64, 128, 4, false, false, 1, 8192, 1024, "kind::mxf4");
	refused(0, false, 32, 40, 16, true, true, 1, 1280, 1024, "core matrices");
	/* a base off the swizzle's alignment, or a stage off its boundary: the
	 * pattern would start inside a K step's reads */
	refused(3, false, 64, 128, 16, false, false, 1, 8192, 512, "alignment");
	refused(2, true, 32, 256, 32, true, true, 1, 8192, 512, "alignment");
	refused(1, false, 64, 32, 16, true, false, 1, 2048, 128, "alignment");
	refused(3, false, 64, 128, 16, false, false, 1, 8192 + 512, 1024,
	        "boundary");
	refused(0, false, 16384, 32, 8, true, false, 1, 16384 * 32, 1024, "14-bit");
	/* a CTA pair: the same rules in each CTA, fp4's M 64 a CTA there */
	UmmaDesc d;
	const char *why = NULL;
	assert_true(umma_desc(3, false, 64, 128, 4, false, false, 2, 8192, 1024,
	                      &d, &why));
	assert_int_equal(d.cta_group, 2);
	assert_int_equal(d.m_cta, 64);
}

/* What the PTX ISA forbids in a descriptor word, and the base offset. */
static void test_word_rules(void **state)
{
	(void)state;
	UmmaDesc d = desc_ok(3, false, 64, 128, 16, false, false);
	uint64_t w = umma_desc_word(&d, 0x400);
	UmmaFields f;
	const char *why = NULL;
	for (uint64_t t = 0; t < 8; t++) {
		uint64_t x = (w & ~(7ull << 61)) | t << 61;
		bool ok = umma_desc_read(x, false, &f, &why);
		assert_int_equal(ok, t != 3 && t != 5 && t != 7);
		if (!ok)
			assert_non_null(strstr(why, "3, 5 and 7"));
	}
	/* a wgmma word (no fixed bits) is not a tcgen05 one */
	assert_false(umma_desc_read(w & ~(7ull << 46), false, &f, &why));
	assert_non_null(strstr(why, "0b001"));
	assert_false(umma_desc_read(w | 2ull << 46, false, &f, &why));
	assert_false(umma_desc_read(w | 1ull << 14, false, &f, &why));
	assert_false(umma_desc_read(w | 1ull << 55, false, &f, &why));
	assert_non_null(strstr(why, "reserved"));
	/* the absolute LBO address: sm_103a's, 128-byte swizzle, offset 0 */
	assert_false(umma_desc_read(w | 1ull << 52, false, &f, &why));
	assert_true(umma_desc_read(w | 1ull << 52, true, &f, &why));
	assert_true(f.lbo_absolute);
	assert_false(umma_desc_read((w | 1ull << 52 | 1ull << 49), true, &f, &why));
	UmmaDesc e = desc_ok(2, false, 64, 128, 16, false, false);
	assert_false(umma_desc_read(umma_desc_word(&e, 0) | 1ull << 52, true, &f,
	                            &why));
	/* the base offset is the pattern's, not a K step's: a K step 32 bytes
	 * into a 128-byte row whose pattern starts at 0x400 keeps 0 */
	assert_int_equal(umma_base_offset(0x400, 2), 0);
	assert_int_equal(umma_base_offset(0x400, 4), 0);
	assert_int_equal(umma_base_offset(0x480, 2), 1);
	assert_int_equal(umma_base_offset(0x780, 2), 7);
	assert_int_equal(umma_base_offset(0x280, 4), 5);
	assert_int_equal(umma_base_offset(0x100, 6), 0);
	assert_int_equal(umma_base_offset(0x180, 6), 3);
	assert_int_equal(umma_base_offset(0x480, 0), 0);
	/* bankc's K steps: from a 1024-aligned tile, every stage and every
	 * sub-block an instruction starts at lies in a pattern that starts on
	 * its boundary, so the field bankc writes, 0, is the right one */
	assert_int_equal(umma_desc_word(&d, 0x400 + 32) >> 49 & 7, 0);
}

/* ---- the descriptor's reads against bankc's box layout ------------------ */

/* The box layout's swizzle on a byte offset: Swizzle<B,4,3>, or
 * Swizzle<2,5,2> on 32-byte atoms. */
static int64_t swz(int B, bool atom32, int64_t o)
{
	if (atom32)
		return o ^ ((o >> 7 & 3) << 5);
	return B ? o ^ (((o >> 7) & ((1 << B) - 1)) << 4) : o;
}

/* Byte offset of row r, byte column cb in the box layout, in a stage. */
static int64_t box_off(int B, bool atom32, int rows, int r, int64_t cb)
{
	int W = atom32 ? 128 : 16 << B;
	return cb / W * rows * W + swz(B, atom32, (int64_t)r * W + cb % W);
}

/* The byte the descriptor names for byte `kb` of K (K-major) or `mb` of
 * M/N (MN-major) at M/N element mn or K element k of an instruction
 * whose sub-block starts at `start`: the canonical forms of the PTX ISA
 * and CUTLASS in bytes, the swizzle applied to the whole address (the
 * tile's base is aligned, here at 0).  type: the layout code. */
static int64_t desc_addr(bool mn_major, int lbo, int sbo, int type,
                         int64_t start, int mn, int64_t kb, int k, int64_t mb)
{
	bool atom32 = type == 1;
	int B = type == 2 ? 3 : type == 4 ? 2 : type == 6 ? 1 : atom32 ? 2 : 0;
	int W = atom32 ? 128 : 16 << B;
	int64_t a;
	if (!mn_major)
		a = type == 0 ? start + mn / 8 * sbo + mn % 8 * 16 + kb / 16 * lbo + kb % 16
		              : start + mn / 8 * sbo + mn % 8 * W + kb;
	else if (type == 0)
		a = start + mb / 16 * sbo + mb % 16 + k / 8 * lbo + k % 8 * 16;
	else if (atom32)
		a = start + mb / W * lbo + mb % W + k / 4 * sbo + k % 4 * W;
	else
		a = start + mb / W * lbo + mb % W + k / 8 * sbo + k % 8 * W;
	return swz(B, atom32, a);
}

/* Every byte of every instruction over the tile (operand A: blocks of M
 * of one instruction; B: N in blocks up to 256) in every stage, read with
 * the fields given; the bytes not where the box layout put them. */
static long reads_wrong(const UmmaDesc *d, int lbo, int sbo, int type,
                        int rows, int row_bytes, int bits, int stages)
{
	int64_t stage = (int64_t)rows * row_bytes;
	bool mn = d->mn_major;
	/* K of one instruction: 32 bytes (K-major) or 256 / bits rows */
	int kin = mn ? 256 / bits : 32;
	int Mb = mn ? row_bytes : rows;     /* M/N: bytes (MN-major) or rows */
	int mnb = mn ? (d->operand_b ? (Mb < 256 * bits / 8 ? Mb : 256 * bits / 8)
	                             : (Mb < 128 * bits / 8 ? Mb : 128 * bits / 8))
	             : (d->operand_b ? (Mb < 256 ? Mb : 256) : (Mb < 128 ? Mb : 128));
	int K = mn ? rows : row_bytes;
	long wrong = 0;
	for (int s = 0; s < stages; s++)
		for (int m0 = 0; m0 < Mb; m0 += mnb)
			for (int k0 = 0; k0 < K; k0 += kin) {
				int r0 = mn ? k0 : m0;
				int64_t c0 = mn ? m0 : k0;
				int64_t start = s * stage + box_off(d->B, d->atom32, rows, r0,
				                                    c0);
				for (int i = 0; i < mnb && m0 + i < Mb; i++)
					for (int k = 0; k < kin; k++) {
						int r = mn ? k0 + k : m0 + i;
						int64_t cb = mn ? m0 + i : k0 + k;
						int64_t want = s * stage + box_off(d->B, d->atom32, rows,
						                                   r, cb);
						int64_t got = mn ? desc_addr(true, lbo, sbo, type, start,
						                             0, 0, k, i)
						                 : desc_addr(false, lbo, sbo, type, start,
						                             i, k, 0, 0);
						if (got != want)
							wrong++;
					}
			}
	return wrong;
}

static void check_reads(int B, bool atom32, int rows, int row_bytes, int bits,
                        bool b, bool mn, int stages)
{
	UmmaDesc d = desc_ok(B, atom32, rows, row_bytes, bits, b, mn);
	long w = reads_wrong(&d, d.lbo, d.sbo, d.layout_type, rows, row_bytes,
	                     bits, stages);
	if (w)
		fail_msg("B=%d%s %s-major %c, %d x %d bytes, %d bits: %ld bytes "
		         "misread", B, atom32 ? "+32B" : "", mn ? "MN" : "K",
		         b ? 'B' : 'A', rows, row_bytes, bits, w);
	/* every other layout code misreads (3, 5, 7 do not exist) */
	static const int codes[] = {0, 1, 2, 4, 6};
	for (size_t i = 0; i < 5; i++)
		if (codes[i] != d.layout_type &&
		    reads_wrong(&d, d.lbo, d.sbo, codes[i], rows, row_bytes, bits,
		                stages) == 0)
			fail_msg("B=%d%s: layout %d reads as well as %d", B,
			         atom32 ? "+32B" : "", codes[i], d.layout_type);
	/* a halved stride misreads where the instructions step by it: M/N of
	 * one instruction (mnb bytes MN-major, rows K-major), K of one (32
	 * bytes, or kin rows MN-major) */
	int kin = mn ? 256 / bits : 32;
	int Mb = mn ? row_bytes : rows;
	int mnb = b ? (mn ? (Mb < 32 * bits ? Mb : 32 * bits) : (Mb < 256 ? Mb : 256))
	            : (mn ? (Mb < 16 * bits ? Mb : 16 * bits) : (Mb < 128 ? Mb : 128));
	bool lbo_used = !mn ? d.B == 0 : d.B == 0 && !atom32 ? kin > 8
	                : mnb > d.box_bytes;
	bool sbo_used = !mn ? mnb > 8 : d.B == 0 && !atom32 ? mnb > 16
	                : kin > (atom32 ? 4 : 8);
	assert_int_equal(d.lbo_used, lbo_used);
	assert_int_equal(d.sbo_used, sbo_used);
	if (lbo_used && reads_wrong(&d, d.lbo / 2, d.sbo, d.layout_type, rows,
	                            row_bytes, bits, stages) == 0)
		fail_msg("B=%d%s: a wrong LBO reads right", B, atom32 ? "+32B" : "");
	if (!lbo_used && reads_wrong(&d, 1 << 16, d.sbo, d.layout_type, rows,
	                             row_bytes, bits, stages) != 0)
		fail_msg("B=%d: an LBO no instruction needs is read", B);
	if (sbo_used && reads_wrong(&d, d.lbo, d.sbo / 2, d.layout_type, rows,
	                            row_bytes, bits, stages) == 0)
		fail_msg("B=%d%s %s-major: a wrong SBO reads right", B,
		         atom32 ? "+32B" : "", mn ? "MN" : "K");
	if (!sbo_used && reads_wrong(&d, d.lbo, 1 << 16, d.layout_type, rows,
	                             row_bytes, bits, stages) != 0)
		fail_msg("B=%d: an SBO no instruction needs is read", B);
}

static void test_reads_box_layout(void **state)
{
	(void)state;
	for (int B = 0; B < 4; B++) {
		int W = 16 << B;
		int rb0 = W < 32 ? 32 : W;
		/* K-major: 8-, 16- and 32-bit types, packed fp4 */
		for (int bits = 8; bits <= 32; bits *= 2) {
			check_reads(B, false, 64, rb0, bits, false, false, 2);
			check_reads(B, false, 128, 2 * rb0, bits, false, false, 1);
			check_reads(B, false, 8, rb0, bits, true, false, 2);
			check_reads(B, false, 72, 4 * rb0, bits, true, false, 1);
			check_reads(B, false, 256, rb0, bits, true, false, 1);
		}
		check_reads(B, false, 128, 2 * rb0, 4, false, false, 2);
		check_reads(B, false, 64, rb0, 4, true, false, 1);
		/* MN-major: 8- and 16-bit types */
		check_reads(B, false, 16, 128, 16, false, true, 2);
		check_reads(B, false, 32, 256, 16, false, true, 1);
		check_reads(B, false, 64, W < 64 ? 64 : W, 16, true, true, 2);
		check_reads(B, false, 48, 384, 16, true, true, 1);
		check_reads(B, false, 32, W < 64 ? 64 : W, 8, false, true, 2);
		check_reads(B, false, 64, W < 64 ? 64 : W, 8, true, true, 1);
	}
	/* MN-major tf32 on 32-byte atoms */
	check_reads(2, true, 8, 256, 32, false, true, 2);
	check_reads(2, true, 32, 256, 32, true, true, 1);
	check_reads(2, true, 16, 1024, 32, true, true, 2);
	check_reads(2, true, 64, 512, 32, false, true, 1);
}

/* ---- the header text and the JSON ----------------------------------------- */

static char *emitted(const UmmaDesc *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	umma_emit(f, "OPA", "opa", d);
	fclose(f);
	return buf;
}

static void test_emit(void **state)
{
	(void)state;
	UmmaDesc d = desc_ok(3, false, 128, 128, 16, false, false);
	char *h = emitted(&d);
	static const char *const lines[] = {
		"#define OPA_UMMA_LAYOUT_TYPE 2\t",
		"#define OPA_UMMA_LBO 16\t",
		"#define OPA_UMMA_SBO 1024\t",
		"#define OPA_UMMA_MAJOR_MN 0\n",
		"#define OPA_UMMA_B 0\t",
		"#define OPA_UMMA_CTA_GROUP 1\n",
		"#define OPA_UMMA_K 16\t",
		"#define OPA_UMMA_START(s, row, col) (OPA_SIDX(s, row, col) * "
		"OPA_ELEM_BYTES)\n",
		"#define OPA_UMMA_KSTEP(s, mn, kk) OPA_UMMA_START(s, mn, (kk) * "
		"OPA_UMMA_K)\n",
		"BANKC_FN unsigned long long opa_umma_desc(unsigned smem_addr, int s)\n",
		"(unsigned long long)((smem_addr & 0x3FFFFu) >> 4) |",
		"(unsigned long long)(OPA_UMMA_LBO >> 4) << 16 |",
		"(unsigned long long)(OPA_UMMA_SBO >> 4) << 32 |",
		"(unsigned long long)1 << 46 |",
		"(unsigned long long)0 << 49 |",
		"(unsigned long long)OPA_UMMA_LAYOUT_TYPE << 61;",
		"operand A, K-major, 128-byte swizzle in boxes of 128 bytes",
	};
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
		if (!strstr(h, lines[i]))
			fail_msg("missing: %s\nin:\n%s", lines[i], h);
	free(h);
	d = desc_ok(2, true, 32, 256, 32, true, true);
	d.cta_group = 2;
	h = emitted(&d);
	assert_non_null(strstr(h, "#define OPA_UMMA_LAYOUT_TYPE 1\t"));
	assert_non_null(strstr(h, "#define OPA_UMMA_SBO 512\t/* bytes, along K: "
	                          "from one 4-row group"));
	assert_non_null(strstr(h, "#define OPA_UMMA_KSTEP(s, mn, kk) "
	                          "OPA_UMMA_START(s, (kk) * OPA_UMMA_K, mn)\n"));
	assert_non_null(strstr(h, "#define OPA_UMMA_CTA_GROUP 2\n"));
	assert_non_null(strstr(h, "128-byte swizzle on 32-byte atoms"));
	free(h);

	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	umma_emit_check(f, "OPA", "opa", DT_FP4E2M1);
	fclose(f);
	assert_non_null(strstr(buf, "#include \"bankc_umma.cuh\"\n"));
	assert_non_null(strstr(buf, "BANKC_UMMA_TILE(opa, OPA, BANKC_UM_E2M1);\n"));
	free(buf);
	assert_string_equal(umma_check_type(DT_BF16), "BANKC_WG_BF16");
	assert_null(umma_check_type(DT_F32));
}

/* From checked tiles: the operand, major axis and CTA group from the
 * access; the layouts the tile's legality keeps. */
static void test_tile(void **state)
{
	(void)state;
	Run *r = run("tile b { shape 32 x 256; dtype tf32; arch sm_100a;\n"
	             "  access w: umma.b major mn cta_group 2; }\n"
	             "tile a { shape 128 x 64; dtype bf16; arch sm_103a;\n"
	             "  access x: umma.a major k; }\n"
	             "tile n { shape 64 x 64; dtype f16; arch sm_100a;\n"
	             "  access x: load along row; }\n");
	assert_true(r->ok);
	UmmaDesc d;
	const char *why = NULL;
	Tile *t = &r->unit.tiles[0];
	assert_int_equal(t->align, 1024);
	assert_true(umma_tile_desc(t, 2, true, 32 * 1024, &d, &why));
	assert_true(d.operand_b && d.mn_major && d.atom32);
	assert_int_equal(d.cta_group, 2);
	assert_false(umma_tile_desc(t, 3, false, 32 * 1024, &d, &why));
	/* legal layouts: the 32-byte-atom swizzle in 128-byte boxes alone */
	Layout l = layout_base(t, L_SWIZZLE, false);
	l.B = 2, l.M = 5, l.S = 2, l.boxes = 8, l.pitch = 32;
	assert_true(layout_legal(&l, t, 1 << 20, &why));
	l.M = 4, l.S = 3;
	l.pitch = 16, l.boxes = 16;
	assert_false(layout_legal(&l, t, 1 << 20, &why));
	Layout rm = layout_rowmajor(t);
	assert_false(layout_legal(&rm, t, 1 << 20, &why));
	t = &r->unit.tiles[1];
	assert_true(umma_tile_desc(t, 3, false, 128 * 128, &d, &why));
	assert_false(d.operand_b);
	assert_int_equal(d.cta_group, 1);
	assert_false(umma_tile_desc(t, 2, true, 128 * 128, &d, &why));
	assert_false(umma_tile_desc(&r->unit.tiles[2], 0, false, 64 * 128, &d,
	                            &why));
	assert_non_null(strstr(why, "no tcgen05.mma access"));
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_values),
		cmocka_unit_test(test_word),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_word_rules),
		cmocka_unit_test(test_reads_box_layout),
		cmocka_unit_test(test_emit),
		cmocka_unit_test(test_tile),
	};
	return cmocka_run_group_tests_name("umma", tests, NULL, NULL);
}
