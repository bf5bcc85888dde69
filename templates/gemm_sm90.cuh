// gemm_sm90.cuh: what the Hopper GEMM's benchmarks (hgemm_wgmma.cu,
// fp8gemm_wgmma.cu) add to the library's kernel (include/bankc/detail/
// gemm_sm90.cuh, behind bankc::gemm): the variants the library's
// configuration was chosen from, as table rows (the other cluster size,
// the 128 x 256 staging tile, one block per tile, other group sizes), and
// the on-GPU checks that the tiles hold the layouts the generated headers
// describe (TMA's operand boxes against NAME_IDX, the staging tiles' TMA
// stores against NAME_IDX and the box formula).  Needs sm_90a.
#pragma once

#include "bench.cuh"
#include "hgemm_host.cuh"

#include <bankc/gemm.cuh>

#include <type_traits>

#include "hgw_c256.cuh"

namespace gemm90 {

using namespace bankc::detail::gemm90;
using bankc::detail::tma_box_idx;
namespace sm90 = bankc::detail::sm90;

// The staging tile the library does not use: the whole 128 x 256 output
// tile as 4 boxes (kept as a variant).
BANKC_GEMM90_EPI(EpiC256, HGW_C256, "c256");

// NAME_IDX against the box formula over the whole tile: the number of
// elements where they differ (0: the kernel's stores and TMA's reads agree).
template <class Epi> int epi_layout_mismatches()
{
	int bad = 0;
	for (int r = 0; r < Epi::ROWS; r++)
		for (int c = 0; c < Epi::COLS; c++)
			bad += Epi::idx(r, c) != tma_box_idx(Epi::SWIZZLE, Epi::BOX_COLS, Epi::BOX_BYTES, Epi::ELEM, r, c);
	return bad;
}

// Exits with a message where the GPU or the build cannot run the sm_90a
// kernel (the library would answer cudaErrorNotSupported).
template <class G> void require_sm90a()
{
	int dev = 0;
	bool ok = false;
	CUDA_CHECK(cudaGetDevice(&dev));
	CUDA_CHECK(G::runs_here(dev, ok));
	if (!ok) {
		std::fprintf(stderr, "gemm_sm90: needs a compute capability 9.0 GPU and a build for sm_90a\n");
		std::exit(1);
	}
}

// One configuration's launch on M x N x K with packed rows (lda = ldb =
// K, ldc = N), as a benchmark runs it: any error exits.
template <class G>
void run_gemm(int M, int N, int K, const typename G::T *A, const typename G::T *B, typename G::Out *C, int group,
	      bool persistent)
{
	require_sm90a<G>();
	int dev = 0;
	CUDA_CHECK(cudaGetDevice(&dev));
	CUDA_CHECK(G::launch(dev, M, N, K, A, K, B, G::Input::B_MN ? N : K, C, N, nullptr, nullptr, group, persistent, 0));
}

// ---- layout probes ----------------------------------------------------------

// One TMA box (rows x cols elements of E) loaded from (x0, y0) of a
// row-major matrix with ld columns, compared element for element with the
// global matrix at the position Tile::idx gives (an operand tile: `A`
// selects a_idx, else b_idx).  *bad counts differing elements.
template <class In, bool A, class E>
__global__ void tma_load_probe(const __grid_constant__ CUtensorMap map, const E *__restrict__ g, int ld, int x0, int y0,
			       int rows, int cols, unsigned *bad)
{
#if BANKC_GEMM90_DEVICE
	using namespace sm90;
	extern __shared__ __align__(1024) unsigned char smem[];
	const uint32_t base = (smem_addr(smem) + 1023) & ~1023u, bar = base + rows * cols * sizeof(E);
	const E *tile = reinterpret_cast<const E *>(smem + (base - smem_addr(smem)));
	if (threadIdx.x == 0) {
		mbar_init(bar, 1);
		fence_mbar_init();
	}
	__syncthreads();
	if (threadIdx.x == 0) {
		mbar_expect_tx(bar, rows * cols * sizeof(E));
		tma_load(base, &map, x0, y0, bar);
	}
	mbar_wait(bar, 0);
	unsigned n = 0;
	for (int i = threadIdx.x; i < rows * cols; i += blockDim.x) {
		const int r = i / cols, c = i % cols;
		const int k = A ? In::a_idx(r, c) : In::b_idx(r, c);
		n += tile[k] != g[static_cast<size_t>(y0 + r) * ld + x0 + c];
	}
	atomicAdd(bad, n);
#endif
}

// The staging tile filled through Epi::idx with element (r, c) = r * COLS
// + c, then stored box by box by TMA at (x0, y0) of a matrix that was
// poisoned: the host then finds each value at its (r, c), or not.
template <class Epi> __global__ void tma_store_probe(const __grid_constant__ CUtensorMap map, int x0, int y0)
{
#if BANKC_GEMM90_DEVICE
	using namespace sm90;
	extern __shared__ __align__(1024) unsigned char smem[];
	const uint32_t base = (smem_addr(smem) + 1023) & ~1023u;
	uint16_t *tile = reinterpret_cast<uint16_t *>(smem + (base - smem_addr(smem)));
	for (int i = threadIdx.x; i < Epi::ROWS * Epi::COLS; i += blockDim.x)
		tile[Epi::idx(i / Epi::COLS, i % Epi::COLS)] = static_cast<uint16_t>(i);
	fence_proxy_async();
	__syncthreads();
	if (threadIdx.x == 0) {
		for (int b = 0; b < Epi::BOXES; b++)
			tma_store(&map, x0 + b * Epi::BOX_COLS, y0, base + b * Epi::BOX_BYTES);
		bulk_commit();
		bulk_wait<0>();
	}
#endif
}

inline CUtensorMap map_of(const void *p, CUtensorMapDataType type, int elem, int rows, int cols, int box_rows,
			  int box_cols, CUtensorMapSwizzle swizzle)
{
	CUtensorMap m;
	CUDA_CHECK(bankc::detail::gemm90::make_map(m, p, type, elem, rows, cols, cols, box_rows, box_cols, swizzle));
	return m;
}

// Differing elements of one A box and one B box against In's NAME_IDX, at
// the second box down and across (a layout that ignored the row or the
// column could not pass by luck).  A and B are M x K and N x K (K-major
// In), or B is K x N (an MN-major In: each of its boxes against b_idx at
// its column of the tile).
template <class In>
unsigned probe_operands(const typename In::T *A, const typename In::T *B, int M, int N, int K)
{
	using E = std::conditional_t<sizeof(typename In::T) == 1, uint8_t, uint16_t>;
	if (M < 2 * BM || N < 2 * BN || K < 2 * In::BK) {
		std::fprintf(stderr, "gemm_sm90: the layout probe needs M >= %d, N >= %d, K >= %d\n", 2 * BM, 2 * BN,
			     2 * In::BK);
		std::exit(2);
	}
	unsigned *bad, n = 0;
	CUDA_CHECK(cudaMalloc(&bad, sizeof *bad));
	CUDA_CHECK(cudaMemset(bad, 0, sizeof *bad));
	const int sa = BM * In::BK * sizeof(E) + 8 + 1024, sb = BN * In::BK * sizeof(E) + 8 + 1024;
	CUDA_CHECK(cudaFuncSetAttribute(tma_load_probe<In, true, E>, cudaFuncAttributeMaxDynamicSharedMemorySize, sa));
	CUDA_CHECK(cudaFuncSetAttribute(tma_load_probe<In, false, E>, cudaFuncAttributeMaxDynamicSharedMemorySize, sb));
	tma_load_probe<In, true, E><<<1, 256, sa>>>(map_of(A, In::TMA_IN, sizeof(E), M, K, BM, In::BK, In::A_SWIZZLE),
						    reinterpret_cast<const E *>(A), K, In::BK, BM, BM, In::BK, bad);
	if constexpr (In::B_MN) {
		// one box (BK rows of K, B_BOX_COLS of N) of the K x N matrix: the
		// tile's first box, whose columns b_idx places first
		tma_load_probe<In, false, E><<<1, 256, sb>>>(
			map_of(B, In::TMA_IN, sizeof(E), K, N, In::B_BOX_ROWS, In::B_BOX_COLS, In::B_SWIZZLE),
			reinterpret_cast<const E *>(B), N, In::B_BOX_COLS, In::BK, In::B_BOX_ROWS, In::B_BOX_COLS, bad);
	} else {
		tma_load_probe<In, false, E><<<1, 256, sb>>>(map_of(B, In::TMA_IN, sizeof(E), N, K, BN, In::BK, In::B_SWIZZLE),
							     reinterpret_cast<const E *>(B), K, In::BK, BN, BN, In::BK, bad);
	}
	LAUNCH_CHECK();
	CUDA_CHECK(cudaMemcpy(&n, bad, sizeof n, cudaMemcpyDeviceToHost));
	CUDA_CHECK(cudaFree(bad));
	return n;
}

// Elements wrong after the staging tile's TMA store into a poisoned
// 256 x 512 matrix at (box column 1, row 128), plus the host's comparison
// of Epi::idx with the box formula: 0 when the header, the kernel's
// stores and TMA's reads all agree.
template <class Epi> size_t probe_staging()
{
	constexpr int R = 2 * Epi::ROWS, Cn = 2 * Epi::COLS, x0 = Epi::BOX_COLS, y0 = Epi::ROWS;
	uint16_t *g;
	CUDA_CHECK(cudaMalloc(&g, R * Cn * 2));
	CUDA_CHECK(cudaMemset(g, 0xff, R * Cn * 2));
	const int smem = Epi::BYTES + 1024;
	CUDA_CHECK(cudaFuncSetAttribute(tma_store_probe<Epi>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
	tma_store_probe<Epi><<<1, 256, smem>>>(
		map_of(g, CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, R, Cn, Epi::BOX_ROWS, Epi::BOX_COLS, Epi::SWIZZLE), x0, y0);
	LAUNCH_CHECK();
	std::vector<uint16_t> h(R * Cn);
	CUDA_CHECK(cudaMemcpy(h.data(), g, h.size() * 2, cudaMemcpyDeviceToHost));
	CUDA_CHECK(cudaFree(g));
	size_t bad = epi_layout_mismatches<Epi>();
	for (int r = 0; r < R; r++)
		for (int c = 0; c < Cn; c++) {
			const bool in = r >= y0 && r < y0 + Epi::ROWS && c >= x0 && c < x0 + Epi::COLS;
			const uint16_t want = in ? static_cast<uint16_t>((r - y0) * Epi::COLS + c - x0) : 0xffff;
			bad += h[static_cast<size_t>(r) * Cn + c] != want;
		}
	return bad;
}

// ---- configurations for the benchmarks -------------------------------------

// The library's configuration (what bankc::gemm runs for a 16-bit C) and
// the other cluster size, timed beside it.
template <class In> using Template = Gemm<In, EpiC128, LIB_STAGES, LIB_CLUSTER>;

// A variant of the persistent kernel, as one table row (16-bit C).
template <class In> struct Variant {
	std::string name;
	void (*run)(int, int, int, const typename In::T *, const typename In::T *, typename In::Out *, int, bool);
	int cluster, group_rows;
	bool persistent;
};

template <class In, class Epi, int STAGES, int CLUSTER>
Variant<In> variant(int group_rows = GROUP_ROWS, bool persistent = true)
{
	char b[160];
	std::snprintf(b, sizeof b, "bankc wgmma %s 128x256x%d s%d %s, cluster %d, %s, group %d", In::name, In::BK, STAGES,
		      Epi::name, CLUSTER, persistent ? "persistent" : "one tile per block", group_rows);
	return {b, run_gemm<Gemm<In, Epi, STAGES, CLUSTER>>, CLUSTER, group_rows, persistent};
}

// The other cluster size, then (--explore) the variants the library's
// configuration was chosen from.  The library's own row is timed through
// bankc::gemm by the drivers.
template <class In> std::vector<Variant<In>> variants(bool explore)
{
	constexpr int other = 3 - LIB_CLUSTER;
	std::vector<Variant<In>> v{variant<In, EpiC128, LIB_STAGES, other>()};
	if (explore) {
		v.push_back(variant<In, EpiC256, 3, 1>());
		v.push_back(variant<In, EpiC256, 3, 2>());
		v.push_back(variant<In, EpiC128, 4, 1>(GROUP_ROWS, false));
		v.push_back(variant<In, EpiC128, 4, 2>(GROUP_ROWS, false));
		v.push_back(variant<In, EpiC128, 4, 1>(8));
		v.push_back(variant<In, EpiC128, 4, 2>(8));
		v.push_back(variant<In, EpiC128, 4, 1>(32));
		v.push_back(variant<In, EpiC128, 4, 2>(32));
	}
	return v;
}

} // namespace gemm90
