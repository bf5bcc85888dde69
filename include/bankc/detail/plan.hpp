// bankc/detail/plan.hpp: the host logic of the kernel library, kept apart
// from CUDA so that it can be tested on any machine: which arguments a
// call accepts, how a matrix is cut into tiles (ragged edges included)
// and the order in which the GEMM's blocks walk its output tiles.  The
// kernels use the same functions (BANKC_HD), so the arithmetic the tests
// check is the arithmetic that runs.
#ifndef BANKC_DETAIL_PLAN_HPP
#define BANKC_DETAIL_PLAN_HPP

#include <cstdint>

#if defined(__CUDACC__)
#define BANKC_HD __host__ __device__ __forceinline__
#else
#define BANKC_HD inline
#endif

namespace bankc {
namespace detail {

// What a call's arguments ask for: work, nothing at all (an empty
// matrix), or something the library refuses (cudaErrorInvalidValue).
enum class Verdict { run, empty, invalid };

// ---- transposes ---------------------------------------------------------

// A rows x cols transpose of elem-byte elements on square tiles of
// `tile`, as two kinds of tiles, each with a kernel of its own: whole
// tiles with 16-byte global accesses (where rows and cols are multiples
// of 16 / elem and both pointers 16-byte aligned: `vec`), and the rest,
// which check every element against the edges.  Apart, the whole tiles'
// kernel keeps the registers (and the blocks per SM) of a kernel without
// edges.
struct TransposeGeom {
	int64_t rows, cols;
	int64_t full_r, full_c;	// whole tiles down and across (0 unless vec)
	int64_t edge_col;	// edge tiles in the last tile column, rows of whole tiles
	int64_t tiles_c;	// tiles across, whole or not
	bool vec;
};

struct TransposePlan {
	Verdict verdict;
	TransposeGeom geom;
	int64_t full_tiles, edge_tiles;	// tiles of each kernel, one block each
};

// The largest grid a launch may have along x: tiles of at least 32 x 32
// elements reach it only past 2^41 elements, which no GPU holds.
constexpr int64_t max_grid_x = 2147483647;

inline TransposePlan transpose_plan(int64_t rows, int64_t cols, uintptr_t in, uintptr_t out, int elem, int tile)
{
	TransposePlan p = {Verdict::invalid, {rows, cols, 0, 0, 0, 0, false}, 0, 0};
	if (rows < 0 || cols < 0 || elem <= 0 || tile <= 0)
		return p;
	if (rows == 0 || cols == 0) {
		p.verdict = Verdict::empty;
		return p;
	}
	if (!in || !out || in % static_cast<unsigned>(elem) || out % static_cast<unsigned>(elem))
		return p;
	// the bytes of one matrix, without overflow
	if (rows > INT64_MAX / cols || rows * cols > INT64_MAX / elem)
		return p;
	const uint64_t bytes = static_cast<uint64_t>(rows * cols * elem);
	if (in > UINTPTR_MAX - bytes || out > UINTPTR_MAX - bytes)
		return p;
	// out-of-place only: the two matrices may not share a byte
	if (in < out + bytes && out < in + bytes)
		return p;
	TransposeGeom &g = p.geom;
	const int64_t v = 16 / elem;
	g.vec = rows % v == 0 && cols % v == 0 && in % 16 == 0 && out % 16 == 0;
	const int64_t tiles_r = (rows + tile - 1) / tile;
	g.tiles_c = (cols + tile - 1) / tile;
	if (g.vec) {
		g.full_r = rows / tile;
		g.full_c = cols / tile;
		g.edge_col = cols % tile ? g.full_r : 0;
		p.full_tiles = g.full_r * g.full_c;
		p.edge_tiles = g.edge_col + (rows % tile ? g.tiles_c : 0);
	} else {
		p.edge_tiles = tiles_r * g.tiles_c;
	}
	if (p.full_tiles > max_grid_x || p.edge_tiles > max_grid_x)
		return p;
	p.verdict = Verdict::run;
	return p;
}

// Whole tile b's first row and column, along a tile row first (as the
// blocks of a 2-D grid would run).
BANKC_HD void transpose_full_origin(const TransposeGeom &g, int64_t b, int tile, int64_t &r0, int64_t &c0)
{
	r0 = b / g.full_c * tile;
	c0 = b % g.full_c * tile;
}

// Edge tile e's first row and column: with vec, the last tile column down
// the whole tiles' rows, then the last tile row; without, every tile.
BANKC_HD void transpose_edge_origin(const TransposeGeom &g, int64_t e, int tile, int64_t &r0, int64_t &c0)
{
	if (!g.vec) {
		r0 = e / g.tiles_c * tile;
		c0 = e % g.tiles_c * tile;
	} else if (e < g.edge_col) {
		r0 = e * tile;
		c0 = g.full_c * tile;
	} else {
		r0 = g.full_r * tile;
		c0 = (e - g.edge_col) * tile;
	}
}

// ---- GEMMs ----------------------------------------------------------------

// One GEMM call, as far as its validity goes: C (M x N) = A (M x K) times
// B^T (b_kmajor: B is N x K) or B (K x N), each matrix row-major with the
// given leading dimension (elements from one row to the next).
struct GemmArgs {
	int64_t M, N, K, lda, ldb, ldc;
	uintptr_t a, b, c;
	int in_bytes, out_bytes;
	bool b_kmajor;	// B is N x K (C = A B^T); else K x N (C = A B)
	bool tma_out;	// C is written by TMA (16-bit outputs)
};

// The TMA engine reads rows that start on 16 bytes: operands (and a C
// written by TMA) need 16-byte aligned bases and leading dimensions that
// are whole multiples of 16 bytes; dimensions and strides are bounded
// by the tensor map (2^32 elements, 2^40 bytes).  Returns why a call is
// refused, or nullptr.
inline const char *gemm_refusal(const GemmArgs &g)
{
	const int64_t max1 = 1;
	if (g.M < 0 || g.N < 0 || g.K < 0)
		return "M, N and K must not be negative";
	if (g.M > INT32_MAX || g.N > INT32_MAX || g.K > INT32_MAX)
		return "M, N and K must fit in an int";
	if (g.lda < (g.K > max1 ? g.K : max1))
		return "lda must be at least K (and 1)";
	const int64_t b_cols = g.b_kmajor ? g.K : g.N;
	if (g.ldb < (b_cols > max1 ? b_cols : max1))
		return g.b_kmajor ? "ldb must be at least K (and 1)" : "ldb must be at least N (and 1)";
	if (g.ldc < (g.N > max1 ? g.N : max1))
		return "ldc must be at least N (and 1)";
	if (g.M == 0 || g.N == 0)
		return nullptr;
	if (!g.c)
		return "C is null";
	if (g.c % static_cast<unsigned>(g.out_bytes))
		return "C is not aligned to its element";
	if (g.tma_out && (g.c % 16 || g.ldc * g.out_bytes % 16))
		return "a 16-bit C needs a 16-byte aligned base and ldc a multiple of 16 bytes";
	if (g.K == 0)
		return nullptr;
	if (!g.a || !g.b)
		return "A or B is null";
	if (g.a % 16 || g.b % 16)
		return "A and B need 16-byte aligned bases";
	if (g.lda * g.in_bytes % 16 || g.ldb * g.in_bytes % 16)
		return "lda and ldb must be multiples of 16 bytes";
	const int64_t max_stride = int64_t(1) << 40;
	if (g.lda * g.in_bytes >= max_stride || g.ldb * g.in_bytes >= max_stride ||
	    (g.tma_out && g.ldc * g.out_bytes >= max_stride))
		return "a leading dimension is 2^40 bytes or more";
	// C's extent (first to last element) may not meet A's or B's
	const uint64_t ea = static_cast<uint64_t>((g.M - 1) * g.lda + g.K) * g.in_bytes;
	const uint64_t eb = static_cast<uint64_t>(g.b_kmajor ? (g.N - 1) * g.ldb + g.K : (g.K - 1) * g.ldb + g.N) * g.in_bytes;
	const uint64_t ec = static_cast<uint64_t>((g.M - 1) * g.ldc + g.N) * g.out_bytes;
	if ((g.c < g.a + ea && g.a < g.c + ec) || (g.c < g.b + eb && g.b < g.c + ec))
		return "C overlaps A or B";
	return nullptr;
}

inline Verdict gemm_verdict(const GemmArgs &g)
{
	if (gemm_refusal(g))
		return Verdict::invalid;
	return g.M == 0 || g.N == 0 ? Verdict::empty : Verdict::run;
}

// Output tiles of BM x BN (BM * cluster rows per cluster tile) and k-tiles
// of BK, the last of each partial where the matrix ends there.
struct GemmGrid {
	int tiles_m, tiles_n, tiles, nk;
};

BANKC_HD GemmGrid gemm_grid(int M, int N, int K, int bm, int bn, int bk, int cluster)
{
	GemmGrid g;
	g.tiles_m = (M + bm * cluster - 1) / (bm * cluster);
	g.tiles_n = (N + bn - 1) / bn;
	g.tiles = g.tiles_m * g.tiles_n;
	g.nk = (K + bk - 1) / bk;
	return g;
}

// Cluster tile t in grouped order: `group` cluster rows at a time walk the
// columns, so that their B panels are read from L2, not DRAM; (bm, bn) is
// the first row and column of block `rank`'s tile of it.
BANKC_HD void gemm_tile_coords(int t, int tiles_m, int tiles_n, int group, int cluster, int rank, int bm_rows,
			       int bn_cols, int &bm, int &bn)
{
	const int per = group * tiles_n, first = t / per * group;
	const int gm = tiles_m - first < group ? tiles_m - first : group;
	bm = ((first + t % per % gm) * cluster + rank) * bm_rows;
	bn = t % per / gm * bn_cols;
}

// Whether the device and the kernel image can run the sm_90a GEMM:
// compute capability 9.0 exactly (an sm_90a image runs nowhere else), an
// image of the kernel for this device, and that image the real kernel,
// which alone allows `threads` threads a block (built for another target
// the kernel is a stub that allows 32).
inline bool gemm_sm90a_runs(int cc_major, int cc_minor, bool have_image, int max_threads, int threads)
{
	return cc_major == 9 && cc_minor == 0 && have_image && max_threads >= threads;
}

} // namespace detail
} // namespace bankc

#endif
