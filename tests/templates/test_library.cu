// test_library.cu: the kernel library's host logic, on the host (no GPU):
//   - transpose_plan: which calls are refused, empty or run; whole tiles
//     and edge tiles covering the matrix once;
//   - the transposes' own steps (load, fill, drain of TransposeSteps, as
//     both kernels call them) run block by block, thread by thread, on
//     every tile of the library, for every element width and many shapes
//     (ragged edges, one row, one column, tall and skinny, misaligned
//     pointers): the result bit for bit, nothing written outside it;
//   - gemm_refusal on the TMA's alignment rules, gemm_grid and the
//     grouped tile order covering every output tile once (clusters of 1
//     and 2, ragged M and N);
//   - gemm_sm90a_runs;
//   - the public functions: arguments refused with cudaErrorInvalidValue
//     before any device is asked, on a machine with or without a GPU.
// Built by nvcc against the library's headers and cmocka; run by
// tests/run_nvcc.sh.
#include <bankc/gemm.cuh>
#include <bankc/transpose.cuh>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

extern "C" {	// this cmocka's header declares C functions without saying so
#include <cmocka.h>
}

using namespace bankc::detail;

// ---- transpose_plan -------------------------------------------------------

static TransposePlan plan(int64_t rows, int64_t cols, uintptr_t in, uintptr_t out, int elem, int tile = 64)
{
	return transpose_plan(rows, cols, in, out, elem, tile);
}

static void test_plan_refusals(void **)
{
	const uintptr_t a = 0x100000, b = 0x900000;
	assert_true(plan(-1, 4, a, b, 4).verdict == Verdict::invalid);
	assert_true(plan(4, -1, a, b, 4).verdict == Verdict::invalid);
	assert_true(plan(0, 4, a, b, 4).verdict == Verdict::empty);
	assert_true(plan(4, 0, 0, 0, 4).verdict == Verdict::empty);	// nothing to do: pointers unused
	assert_true(plan(4, 4, 0, b, 4).verdict == Verdict::invalid);
	assert_true(plan(4, 4, a, 0, 4).verdict == Verdict::invalid);
	assert_true(plan(4, 4, a + 2, b, 4).verdict == Verdict::invalid);	// not aligned to its element
	assert_true(plan(4, 4, a, b + 1, 2).verdict == Verdict::invalid);
	assert_true(plan(4, 4, a + 1, b + 1, 1).verdict == Verdict::run);
	// overlap: a byte shared refuses, the very next byte does not
	assert_true(plan(16, 16, a, a + 16 * 16 * 4 - 4, 4).verdict == Verdict::invalid);
	assert_true(plan(16, 16, a, a, 4).verdict == Verdict::invalid);
	assert_true(plan(16, 16, a + 1020, a, 4).verdict == Verdict::invalid);
	assert_true(plan(16, 16, a, a + 16 * 16 * 4, 4).verdict == Verdict::run);
	assert_true(plan(16, 16, a + 16 * 16 * 4, a, 4).verdict == Verdict::run);
	// sizes whose bytes overflow, or past the address space
	assert_true(plan(INT64_MAX / 2, 3, a, b, 1).verdict == Verdict::invalid);
	assert_true(plan(int64_t(1) << 31, int64_t(1) << 31, a, b, 4).verdict == Verdict::invalid);
	assert_true(plan(1024, 1024, UINTPTR_MAX - 4096, b, 4).verdict == Verdict::invalid);
}

static void test_plan_vec(void **)
{
	const uintptr_t a = 0x100000, b = 0x900000;
	assert_true(plan(64, 64, a, b, 4).geom.vec);
	assert_true(plan(4, 8, a, b, 4).geom.vec);
	assert_false(plan(63, 64, a, b, 4).geom.vec);	// rows of 4 bytes
	assert_false(plan(64, 62, a, b, 4).geom.vec);
	assert_false(plan(64, 64, a + 4, b, 4).geom.vec);	// 4-byte aligned only
	assert_false(plan(64, 64, a, b + 8, 4).geom.vec);
	assert_true(plan(2, 2, a, b, 8).geom.vec);
	assert_false(plan(3, 2, a, b, 8).geom.vec);
	assert_true(plan(16, 32, a, b, 1).geom.vec);
	assert_false(plan(16, 24, a, b, 1).geom.vec);
	assert_true(plan(8, 8, a, b, 2).geom.vec);
	assert_false(plan(8, 12, a, b, 2).geom.vec);
}

// Every tile of the tiles_r x tiles_c grid exactly once, whole tiles
// whole, edge tiles (with vec) not.
static void check_cover(int64_t rows, int64_t cols, uintptr_t in, int elem, int tile)
{
	const TransposePlan p = plan(rows, cols, in, 0x40000000000ull, elem, tile);
	assert_true(p.verdict == Verdict::run);
	const int64_t tr = (rows + tile - 1) / tile, tc = (cols + tile - 1) / tile;
	assert_int_equal(p.full_tiles + p.edge_tiles, tr * tc);
	std::set<std::pair<int64_t, int64_t>> seen;
	for (int64_t b = 0; b < p.full_tiles; b++) {
		int64_t r0, c0;
		transpose_full_origin(p.geom, b, tile, r0, c0);
		assert_true(r0 % tile == 0 && c0 % tile == 0 && r0 + tile <= rows && c0 + tile <= cols);
		assert_true(seen.insert({r0, c0}).second);
	}
	for (int64_t e = 0; e < p.edge_tiles; e++) {
		int64_t r0, c0;
		transpose_edge_origin(p.geom, e, tile, r0, c0);
		assert_true(r0 % tile == 0 && c0 % tile == 0 && r0 < rows && c0 < cols);
		if (p.geom.vec)
			assert_true(r0 + tile > rows || c0 + tile > cols);
		assert_true(seen.insert({r0, c0}).second);
	}
	assert_int_equal(static_cast<int64_t>(seen.size()), tr * tc);
}

static void test_plan_cover(void **)
{
	const int64_t sizes[] = {1, 3, 4, 63, 64, 65, 128, 200, 256, 1000, 1024, 4097};
	for (int64_t r : sizes)
		for (int64_t c : sizes)
			for (int elem : {1, 2, 4, 8}) {
				check_cover(r, c, 0x100000, elem, 64);
				check_cover(r, c, 0x100000 + elem, elem, 32);	// no vec: every tile an edge tile
			}
	// tall and skinny, and the reverse
	check_cover(1000000, 3, 0x100000, 4, 64);
	check_cover(3, 1000000, 0x100000, 4, 64);
	check_cover(1 << 20, 64, 0x100000, 4, 64);
}

// ---- the transposes, block by block on the host ----------------------------

// Runs Tile's two kernels' steps over the whole matrix, as the GPU would:
// per block, every thread's loads and fills, then every thread's drains.
template <class Tile, int THREADS>
static int64_t emulate(const typename Tile::E *in, typename Tile::E *out, int64_t rows, int64_t cols)
{
	using E = typename Tile::E;
	using S = TransposeSteps<Tile, THREADS>;
	const TransposePlan p = transpose_plan(rows, cols, reinterpret_cast<uintptr_t>(in), reinterpret_cast<uintptr_t>(out),
					       sizeof(E), Tile::T);
	if (p.verdict != Verdict::run)
		return -1;
	std::vector<uint4> smem((Tile::BYTES + 15) / 16);
	E *tile = reinterpret_cast<E *>(smem.data());
	for (int kind = 0; kind < 2; kind++) {
		const bool full = kind == 0;
		for (int64_t b = 0; b < (full ? p.full_tiles : p.edge_tiles); b++) {
			int64_t r0, c0;
			if (full)
				transpose_full_origin(p.geom, b, Tile::T, r0, c0);
			else
				transpose_edge_origin(p.geom, b, Tile::T, r0, c0);
			// a stale tile must not show through: poison it first
			std::memset(smem.data(), 0xa5, smem.size() * 16);
			for (int tid = 0; tid < THREADS; tid++)
				for (int j = 0; j < S::NV; j++)
					S::fill(tile, tid, j,
						full ? S::template load<true>(in, rows, cols, r0, c0, tid, j)
						     : S::template load<false>(in, rows, cols, r0, c0, tid, j));
			for (int tid = 0; tid < THREADS; tid++)
				for (int k = 0; k < S::NG; k++) {
					if (full)
						S::template drain<true>(tile, out, rows, cols, r0, c0, tid, k);
					else
						S::template drain<false>(tile, out, rows, cols, r0, c0, tid, k);
				}
		}
	}
	return p.full_tiles;
}

// One transpose of random bits, in and out at byte offsets of a 16-byte
// aligned buffer, with guard bytes around out: the number of elements
// wrong, plus every guard byte touched.
template <class T> static size_t check_transpose(int64_t rows, int64_t cols, int in_off, int out_off, int64_t *full)
{
	using C = TransposeChoice<static_cast<int>(sizeof(T))>;
	using Tile = typename C::Tile;
	using E = typename Tile::E;
	const size_t n = static_cast<size_t>(rows * cols), guard = 64;
	std::vector<uint4> ibuf((n * sizeof(E) + in_off + 15) / 16 + 1), obuf((n * sizeof(E) + out_off + 2 * guard + 15) / 16 + 1);
	unsigned char *ib = reinterpret_cast<unsigned char *>(ibuf.data()) + in_off;
	unsigned char *ob = reinterpret_cast<unsigned char *>(obuf.data());
	std::mt19937_64 rng(static_cast<uint64_t>(rows * 1000003 + cols));
	for (size_t i = 0; i < n * sizeof(E); i++)
		ib[i] = static_cast<unsigned char>(rng());
	std::memset(ob, 0x5a, obuf.size() * 16);
	E *out = reinterpret_cast<E *>(ob + guard + out_off);
	*full = emulate<Tile, C::threads>(reinterpret_cast<const E *>(ib), out, rows, cols);
	size_t bad = 0;
	const E *in = reinterpret_cast<const E *>(ib);
	for (int64_t r = 0; r < rows; r++)
		for (int64_t c = 0; c < cols; c++)
			bad += std::memcmp(&out[c * rows + r], &in[r * cols + c], sizeof(E)) != 0;
	const unsigned char *o = ob + guard + out_off;
	for (size_t i = 0; i < guard + out_off; i++)
		bad += ob[i] != 0x5a;
	for (size_t i = n * sizeof(E); i < n * sizeof(E) + guard; i++)
		bad += o[i] != 0x5a;
	return bad;
}

static const int64_t shapes[][2] = {
	{1, 1},	    {1, 7},	{7, 1},	   {1, 4096},  {4096, 1},   {2, 2},     {16, 16},   {32, 32},   {64, 64},
	{128, 128}, {256, 256}, {65, 63},  {63, 65},   {127, 129},  {255, 257}, {257, 255}, {300, 20},  {20, 300},
	{512, 8},   {8, 512},   {1000, 999}, {999, 1000}, {3000, 5}, {5, 3000}, {96, 160}, {160, 96},  {384, 640},
	{640, 384}, {33, 1025}, {513, 17}, {264, 520}, {520, 264},
};

template <class T> static void check_type(const char *name)
{
	int64_t full_tiles = 0, edge_only = 0;
	for (const auto &s : shapes)
		for (int off : {0, static_cast<int>(sizeof(T))}) {
			int64_t full = 0;
			const size_t bad = check_transpose<T>(s[0], s[1], off, off, &full);
			if (bad)
				fail_msg("%s %lld x %lld (offset %d): %zu elements or guard bytes wrong", name,
					 static_cast<long long>(s[0]), static_cast<long long>(s[1]), off, bad);
			full_tiles += full;
			edge_only += full == 0;
		}
	// both kernels ran: whole tiles somewhere, edge tiles alone elsewhere
	assert_true(full_tiles > 0);
	assert_true(edge_only > 0);
}

static void test_transpose_f32(void **) { check_type<float>("float"); }
static void test_transpose_i32(void **) { check_type<int32_t>("int32_t"); }
static void test_transpose_f64(void **) { check_type<double>("double"); }
static void test_transpose_f16(void **) { check_type<__half>("__half"); }
static void test_transpose_bf16(void **) { check_type<__nv_bfloat16>("__nv_bfloat16"); }
static void test_transpose_i8(void **) { check_type<int8_t>("int8_t"); }
static void test_transpose_u8(void **) { check_type<uint8_t>("uint8_t"); }

// Two tiles' worth of whole tiles with one input pointer off by an
// element: every tile goes to the edge kernel, and the answer is the same.
static void test_transpose_misaligned(void **)
{
	int64_t full = 0;
	assert_int_equal(check_transpose<float>(128, 128, 4, 0, &full), 0);
	assert_int_equal(full, 0);
	assert_int_equal(check_transpose<uint8_t>(512, 256, 0, 3, &full), 0);
	assert_int_equal(full, 0);
	assert_int_equal(check_transpose<float>(128, 128, 0, 0, &full), 0);
	assert_int_equal(full, 4);
}

static void test_byte_perm(void **)
{
	// the host's PRMT against its definition
	assert_int_equal(byte_perm(0x33221100u, 0x77665544u, 0x5410), 0x55441100u);
	assert_int_equal(byte_perm(0x33221100u, 0x77665544u, 0x7632), 0x77663322u);
	assert_int_equal(byte_perm(0x33221100u, 0x77665544u, 0x5140), 0x55114400u);
}

// ---- GEMMs ----------------------------------------------------------------------

static GemmArgs args(int64_t M, int64_t N, int64_t K, int in_bytes, int out_bytes, bool kmajor, bool tma)
{
	GemmArgs g;
	g.M = M, g.N = N, g.K = K;
	g.lda = K, g.ldb = kmajor ? K : N, g.ldc = N;
	g.a = 0x100000, g.b = 0x200000, g.c = 0x300000;
	g.in_bytes = in_bytes, g.out_bytes = out_bytes;
	g.b_kmajor = kmajor, g.tma_out = tma;
	return g;
}

static void test_gemm_refusals(void **)
{
	GemmArgs g = args(128, 256, 64, 2, 4, true, false);
	assert_null(gemm_refusal(g));
	assert_true(gemm_verdict(g) == Verdict::run);
	g = args(-1, 256, 64, 2, 4, true, false);
	assert_non_null(gemm_refusal(g));
	g = args(1, 1, 1, 2, 4, true, false);	// lda of 1 element: not 16 bytes
	assert_non_null(gemm_refusal(g));
	g.lda = g.ldb = 8;
	assert_null(gemm_refusal(g));
	g.a += 8;	// A on 8 bytes
	assert_non_null(gemm_refusal(g));
	g = args(100, 100, 100, 2, 4, true, false);	// ld of 200 bytes
	assert_non_null(gemm_refusal(g));
	g.lda = g.ldb = 104;
	assert_null(gemm_refusal(g));	// f32 C: any ldc, 4-byte alignment
	g.c += 4;
	assert_null(gemm_refusal(g));
	g.c += 2;
	assert_non_null(gemm_refusal(g));
	g = args(100, 104, 96, 2, 2, true, true);
	assert_null(gemm_refusal(g));
	g.ldc = 108;	// 16-bit C through TMA: ldc of 216 bytes
	assert_non_null(gemm_refusal(g));
	g.ldc = 112;
	assert_null(gemm_refusal(g));
	g.c += 8;
	assert_non_null(gemm_refusal(g));
	g = args(100, 104, 96, 2, 2, true, true);
	g.lda = 95;	// below K
	assert_non_null(gemm_refusal(g));
	g = args(100, 104, 96, 2, 2, false, true);	// B K x N: ldb >= N
	g.ldb = 96;
	assert_non_null(gemm_refusal(g));
	g.ldb = 104;
	assert_null(gemm_refusal(g));
	g = args(64, 64, 16, 1, 2, true, true);	// FP8: 16 elements per 16 bytes
	assert_null(gemm_refusal(g));
	g = args(64, 64, 24, 1, 2, true, true);
	assert_non_null(gemm_refusal(g));
	g.lda = g.ldb = 32;
	assert_null(gemm_refusal(g));
	// empty, and K = 0 (A and B unused, C must be valid)
	g = args(0, 64, 64, 2, 4, true, false);
	g.a = g.b = g.c = 0;
	assert_true(gemm_verdict(g) == Verdict::empty);
	g = args(64, 64, 0, 2, 4, true, false);
	assert_true(gemm_verdict(g) == Verdict::invalid);	// lda, ldb of 0
	g.lda = g.ldb = 1;
	g.a = g.b = 0;
	assert_true(gemm_verdict(g) == Verdict::run);
	g.c = 0;
	assert_true(gemm_verdict(g) == Verdict::invalid);
	g = args(64, 64, 64, 2, 4, true, false);
	g.b = 0;
	assert_true(gemm_verdict(g) == Verdict::invalid);
	g = args(int64_t(1) << 31, 64, 64, 2, 4, true, false);
	assert_true(gemm_verdict(g) == Verdict::invalid);
	// C overlapping an operand
	g = args(64, 64, 64, 2, 4, true, false);
	g.c = g.a + 64;
	assert_true(gemm_verdict(g) == Verdict::invalid);
	g.c = g.a + 64 * 64 * 2;	// just past A
	assert_true(gemm_verdict(g) == Verdict::run);
	g.c = g.b - 4;	// its last element would be B's first
	assert_true(gemm_verdict(g) == Verdict::invalid);
	g.c = g.b - 64 * 64 * 4;	// ends just before B
	assert_true(gemm_verdict(g) == Verdict::run);
}

// Every block tile of M x N exactly once over the cluster tiles and the
// ranks, for the grouped order.
static void check_order(int M, int N, int group, int cluster)
{
	const int BM = 128, BN = 256;
	const GemmGrid gg = gemm_grid(M, N, 64, BM, BN, 64, cluster);
	assert_int_equal(gg.tiles_n, (N + BN - 1) / BN);
	std::set<std::pair<int, int>> seen;
	for (int t = 0; t < gg.tiles; t++)
		for (int rank = 0; rank < cluster; rank++) {
			int bm, bn;
			gemm_tile_coords(t, gg.tiles_m, gg.tiles_n, group, cluster, rank, BM, BN, bm, bn);
			assert_true(bm % BM == 0 && bn % BN == 0 && bn < N);
			if (bm >= M) {
				assert_true(cluster > 1);	// a cluster's second block past M
				continue;
			}
			assert_true(seen.insert({bm, bn}).second);
		}
	assert_int_equal(static_cast<int>(seen.size()), (M + BM - 1) / BM * gg.tiles_n);
}

static void test_gemm_order(void **)
{
	const int sizes[] = {1, 100, 128, 129, 256, 1000, 4096, 4097, 8192};
	for (int M : sizes)
		for (int N : sizes)
			for (int group : {1, 8, 16})
				for (int cluster : {1, 2})
					check_order(M, N, group, cluster);
	const GemmGrid g = gemm_grid(1000, 999, 136, 128, 256, 64, 1);
	assert_int_equal(g.tiles_m, 8);
	assert_int_equal(g.tiles_n, 4);
	assert_int_equal(g.nk, 3);
}

static void test_gemm_support(void **)
{
	assert_true(gemm_sm90a_runs(9, 0, true, 384, 384));
	assert_false(gemm_sm90a_runs(9, 0, true, 32, 384));	// the stub of another target
	assert_false(gemm_sm90a_runs(9, 0, false, 0, 384));	// no image for the device
	assert_false(gemm_sm90a_runs(8, 0, true, 1024, 384));
	assert_false(gemm_sm90a_runs(10, 0, true, 1024, 384));
	assert_false(gemm_sm90a_runs(12, 0, true, 1024, 384));
}

// ---- the public functions ---------------------------------------------------------

// Refused arguments are refused before any device is asked: the same
// answer with a GPU or without one.
static void test_api_refusals(void **)
{
	float *f = reinterpret_cast<float *>(0x100000);
	__half *h = reinterpret_cast<__half *>(0x200000);
	__nv_bfloat16 *b = reinterpret_cast<__nv_bfloat16 *>(0x300000);
	__nv_fp8_e4m3 *q = reinterpret_cast<__nv_fp8_e4m3 *>(0x400000);
	assert_int_equal(bankc::transpose(f, f, 8, 8), cudaErrorInvalidValue);
	assert_int_equal(bankc::transpose(f, f + 1, -1, 8), cudaErrorInvalidValue);
	assert_int_equal(bankc::transpose<float>(nullptr, f, 8, 8), cudaErrorInvalidValue);
	assert_int_equal(bankc::transpose(f, f + 64, 0, 8), cudaSuccess);
	// each element width's kernels (and run_nvcc.sh's look at their stores)
	double *d = reinterpret_cast<double *>(0x500000);
	int8_t *i8 = reinterpret_cast<int8_t *>(0x600000);
	assert_int_equal(bankc::transpose(d, d + 4, 8, 8), cudaErrorInvalidValue);
	assert_int_equal(bankc::transpose(h, h + 4, 8, 8), cudaErrorInvalidValue);
	assert_int_equal(bankc::transpose(i8, i8 + 4, 8, 8), cudaErrorInvalidValue);
	assert_int_equal(bankc::gemm(-1, 8, 8, h, 8, h, 8, f, 8), cudaErrorInvalidValue);
	assert_int_equal(bankc::gemm(8, 8, 8, h, 4, h, 8, f, 8), cudaErrorInvalidValue);
	assert_int_equal(bankc::gemm(8, 8, 12, h, 12, h, 12, f, 12), cudaErrorInvalidValue);
	assert_int_equal(bankc::gemm(8, 8, 8, h + 1, 8, h + 64, 8, f, 8), cudaErrorInvalidValue);
	assert_int_equal(bankc::gemm(8, 8, 8, h, 8, h + 64, 8, h + 1, 8), cudaErrorInvalidValue);
	assert_int_equal(bankc::gemm(8, 8, 8, b, 8, b + 64, 8, b + 128, 4), cudaErrorInvalidValue);
	assert_int_equal(bankc::gemm(8, 8, 8, q, 8, q + 128, 8, f, 8), cudaErrorInvalidValue);
	assert_int_equal(bankc::gemm_ab(8, 16, 8, h, 8, h + 64, 8, f, 16), cudaErrorInvalidValue);
	assert_int_equal(bankc::gemm(0, 8, 8, h, 8, h, 8, f, 8), cudaSuccess);
	assert_int_equal(bankc::gemm(8, 0, 8, h, 8, h, 8, f, 1), cudaSuccess);
}

// Accepted arguments reach the device: without one, its error, never
// success and never cudaErrorInvalidValue.
static void test_api_no_device(void **)
{
	int n = 0;
	if (cudaGetDeviceCount(&n) == cudaSuccess && n > 0) {
		(void)cudaGetLastError();
		skip();
	}
	(void)cudaGetLastError();
	float *f = reinterpret_cast<float *>(0x100000);
	__half *h = reinterpret_cast<__half *>(0x200000);
	const cudaError_t t = bankc::transpose(f, f + 4096, 64, 64);
	const cudaError_t g = bankc::gemm(64, 64, 64, h, 64, h + 8192, 64, f, 64);
	assert_int_not_equal(t, cudaSuccess);
	assert_int_not_equal(t, cudaErrorInvalidValue);
	assert_int_not_equal(g, cudaSuccess);
	assert_int_not_equal(g, cudaErrorInvalidValue);
	(void)cudaGetLastError();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_refusals),	cmocka_unit_test(test_plan_vec),
		cmocka_unit_test(test_plan_cover),	cmocka_unit_test(test_byte_perm),
		cmocka_unit_test(test_transpose_f32),	cmocka_unit_test(test_transpose_i32),
		cmocka_unit_test(test_transpose_f64),	cmocka_unit_test(test_transpose_f16),
		cmocka_unit_test(test_transpose_bf16),	cmocka_unit_test(test_transpose_i8),
		cmocka_unit_test(test_transpose_u8),	cmocka_unit_test(test_transpose_misaligned),
		cmocka_unit_test(test_gemm_refusals),	cmocka_unit_test(test_gemm_order),
		cmocka_unit_test(test_gemm_support),	cmocka_unit_test(test_api_refusals),
		cmocka_unit_test(test_api_no_device),
	};
	return cmocka_run_group_tests_name("templates", tests, NULL, NULL);
}
