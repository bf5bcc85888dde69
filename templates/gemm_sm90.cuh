// gemm_sm90.cuh: the persistent Hopper GEMM (sm_90a) on bankc's tiles, for
// f16, bf16 and e4m3 inputs with f32 accumulation, and the on-GPU checks
// that its tiles hold the layouts the generated headers describe.
//
// C = A B^T: A is M x K and B is N x K, both row-major (K contiguous); C is
// M x N row-major, f16 for f16 inputs, bf16 otherwise.  One block per SM
// (or per SM pair: clusters of 2) stays resident and walks the output
// tiles of 128 x 256 in grouped order.  Each block has three warpgroups:
//
// - a producer, whose first thread issues the TMA copies of every k-tile
//   (A 128 x BK, B 256 x BK; BK fills a 128-byte row) into a ring of
//   stages, tile after tile, as fast as the consumers free them: it runs
//   into the next tile while the consumers finish and store this one;
// - two consumers, each a 64 x 256 slab of wgmma.m64n256 with its 128 f32
//   accumulators per thread, which hand the stages back through mbarriers
//   and then write the tile out: stmatrix into a staging tile (bankc's
//   hgw_c256 or hgw_c128, `tma yes`: column boxes in the TMA swizzle) and a
//   TMA store per box, which runs while the next tile's mainloop starts.
//
// In a cluster of 2 the two blocks take two tiles one above the other,
// which share their B panel: each block loads half of it and the TMA
// engine multicasts that half into both blocks' shared memory, so the
// L2-to-SM traffic per tile falls from A + B to A + B / 2.  A stage is free
// only when the consumers of both blocks are done with it, so each
// consumer warpgroup arrives on the empty barrier of both.
//
// Neither operand tile is indexed by a thread: TMA writes them in the
// swizzle bankc chose (NAME_TMA_SWIZZLE) and wgmma reads them through
// descriptors that name the same swizzle.  The staging tile is written
// through the generated NAME_IDX and read by TMA in the mode of its
// NAME_TMA_SWIZZLE, box by box as NAME_TMA_BOX_* say.
#pragma once

#include "hgemm_host.cuh"
#include "sm90.cuh"

#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cudaTypedefs.h>

#include <type_traits>

#include "f8w_a.cuh"
#include "f8w_b.cuh"
#include "hgw_a.cuh"
#include "hgw_b.cuh"
#include "hgw_c128.cuh"
#include "hgw_c256.cuh"

// Element offset of (r, c) in a tile of column boxes, as the generated
// NAME_TMA_BOX_* describe them and the kernel's TMA stores read them: the
// host compares NAME_IDX with it over the whole tile before any timing,
// so the kernel cannot silently diverge from the header.  Box c / box_cols at
// byte (c / box_cols) * box_bytes, each box row-major with rows of
// box_cols elements, in the TMA engine's swizzle `mode`: the 16-byte chunk
// index (byte offset bits 4-6) XOR bits 7-9, 3, 2 or 1 of them for the
// 128-, 64- and 32-byte modes (CuTe's Swizzle<3,4,3>, <2,4,3>, <1,4,3>).
__host__ __device__ constexpr int tma_box_idx(CUtensorMapSwizzle mode, int box_cols, int box_bytes, int elem, int r,
					      int c)
{
	const int mask = mode == CU_TENSOR_MAP_SWIZZLE_128B ? 7 : mode == CU_TENSOR_MAP_SWIZZLE_64B ? 3 : mode == CU_TENSOR_MAP_SWIZZLE_32B ? 1 : 0;
	int o = r * box_cols * elem + c % box_cols * elem;
	o ^= ((o >> 7) & mask) << 4;
	return (c / box_cols * box_bytes + o) / elem;
}

namespace gemm90 {

constexpr int BM = 128, BN = 256, CONSUMERS = 2, THREADS = 128 * (CONSUMERS + 1);

// ---- inputs: element type, k-tile, tiles, wgmma ---------------------------

struct InF16 {
	using T = __half;
	using Out = __half;
	static constexpr const char *name = "f16";
	static constexpr int BK = HGW_A_COLS, KSTEP = 16, MAX_STAGES = HGW_A_STAGES;
	static constexpr uint32_t A_STAGE = HGW_A_STAGE_ELEMS * HGW_A_ELEM_BYTES, B_STAGE = HGW_B_STAGE_ELEMS * HGW_B_ELEM_BYTES;
	static constexpr CUtensorMapSwizzle A_SWIZZLE = HGW_A_TMA_SWIZZLE, B_SWIZZLE = HGW_B_TMA_SWIZZLE;
	static constexpr CUtensorMapDataType TMA_IN = CU_TENSOR_MAP_DATA_TYPE_FLOAT16, TMA_OUT = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
	static __host__ __device__ int a_idx(int r, int c) { return HGW_A_IDX(r, c); }
	static __host__ __device__ int b_idx(int r, int c) { return HGW_B_IDX(r, c); }
	static __device__ __forceinline__ void mma(float (&d)[128], uint64_t a, uint64_t b, uint32_t scale_d)
	{
		sm90::wgmma_f16(d, a, b, scale_d);
	}
	static __device__ __forceinline__ uint32_t pack(float lo, float hi)
	{
		const __half2 h = __floats2half2_rn(lo, hi);
		return *reinterpret_cast<const uint32_t *>(&h);
	}
	static_assert(HGW_A_ELEM_BYTES == 2 && HGW_B_ELEM_BYTES == 2 && HGW_B_COLS == BK && HGW_B_STAGES == MAX_STAGES &&
			      HGW_A_ROWS == BM && HGW_B_ROWS == BN,
		      "hgw_a, hgw_b: 128 x BK and 256 x BK tiles of 2-byte elements");
};

// bf16 has the element width of f16, so the same tiles and layouts.
struct InBF16 : InF16 {
	using T = __nv_bfloat16;
	using Out = __nv_bfloat16;
	static constexpr const char *name = "bf16";
	static constexpr CUtensorMapDataType TMA_IN = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
					     TMA_OUT = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
	static __device__ __forceinline__ void mma(float (&d)[128], uint64_t a, uint64_t b, uint32_t scale_d)
	{
		sm90::wgmma_bf16(d, a, b, scale_d);
	}
	static __device__ __forceinline__ uint32_t pack(float lo, float hi)
	{
		const __nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
		return *reinterpret_cast<const uint32_t *>(&h);
	}
};

struct InE4M3 {
	using T = __nv_fp8_e4m3;
	using Out = __nv_bfloat16;
	static constexpr const char *name = "e4m3";
	static constexpr int BK = F8W_A_COLS, KSTEP = 32, MAX_STAGES = F8W_A_STAGES;
	static constexpr uint32_t A_STAGE = F8W_A_STAGE_ELEMS * F8W_A_ELEM_BYTES, B_STAGE = F8W_B_STAGE_ELEMS * F8W_B_ELEM_BYTES;
	static constexpr CUtensorMapSwizzle A_SWIZZLE = F8W_A_TMA_SWIZZLE, B_SWIZZLE = F8W_B_TMA_SWIZZLE;
	static constexpr CUtensorMapDataType TMA_IN = CU_TENSOR_MAP_DATA_TYPE_UINT8, TMA_OUT = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
	static __host__ __device__ int a_idx(int r, int c) { return F8W_A_IDX(r, c); }
	static __host__ __device__ int b_idx(int r, int c) { return F8W_B_IDX(r, c); }
	static __device__ __forceinline__ void mma(float (&d)[128], uint64_t a, uint64_t b, uint32_t scale_d)
	{
		sm90::wgmma_e4m3(d, a, b, scale_d);
	}
	static __device__ __forceinline__ uint32_t pack(float lo, float hi) { return InBF16::pack(lo, hi); }
	static_assert(F8W_A_ELEM_BYTES == 1 && F8W_B_ELEM_BYTES == 1 && F8W_B_COLS == BK && F8W_B_STAGES == MAX_STAGES &&
			      F8W_A_ROWS == BM && F8W_B_ROWS == BN,
		      "f8w_a, f8w_b: 128 x BK and 256 x BK tiles of 1-byte elements");
};

// ---- the staging tile of the epilogue -------------------------------------

#define GEMM90_EPI(Name, NAME, label)                                                                          \
	struct Name {                                                                                          \
		static constexpr const char *name = label;                                                     \
		static constexpr int ROWS = NAME##_ROWS, COLS = NAME##_COLS, ELEM = NAME##_ELEM_BYTES;         \
		static constexpr int BOX_ROWS = NAME##_TMA_BOX_ROWS, BOX_COLS = NAME##_TMA_BOX_COLS;           \
		static constexpr int BOXES = NAME##_TMA_BOXES, BOX_BYTES = NAME##_TMA_BOX_BYTES;               \
		static constexpr uint32_t BYTES = NAME##_BYTES;                                                \
		static constexpr CUtensorMapSwizzle SWIZZLE = NAME##_TMA_SWIZZLE;                              \
		static __host__ __device__ int idx(int r, int c) { return NAME##_IDX(r, c); }                  \
		static_assert(NAME##_STAGES == 1 && ELEM == 2 && ROWS == BM && BN % COLS == 0,                  \
			      #NAME ": one stage of 2-byte outputs, 128 rows");                                \
		static_assert(BOX_ROWS == ROWS && BOXES * BOX_COLS == COLS && BOX_COLS % 16 == 0 &&             \
				      BOXES * BOX_BYTES == ROWS * COLS * ELEM && BYTES == BOXES * BOX_BYTES,    \
			      #NAME ": column boxes of whole 16-column stmatrix steps, no padding");           \
		static_assert(NAME##_ALIGN >= 1024 && BOX_BYTES % 1024 == 0, #NAME ": boxes on swizzle atoms"); \
	}

GEMM90_EPI(EpiC256, HGW_C256, "c256");
GEMM90_EPI(EpiC128, HGW_C128, "c128");

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

// ---- the kernel -------------------------------------------------------------

template <class In, class Epi, int STAGES, int CLUSTER> struct Cfg {
	static constexpr int BK = In::BK;
	static constexpr uint32_t A_STAGE = In::A_STAGE, B_STAGE = In::B_STAGE;
	// + full and empty barriers, + slack to align the base to 1024
	static constexpr size_t SMEM = STAGES * (A_STAGE + B_STAGE) + Epi::BYTES + 2 * STAGES * 8 + 1024;
	static_assert(STAGES >= 2 && STAGES <= In::MAX_STAGES, "stages of the bankc tiles");
	static_assert(SMEM <= 232448, "227 KiB of shared memory per block");
	static_assert(A_STAGE % 1024 == 0 && B_STAGE % (1024 * CLUSTER) == 0 && Epi::BYTES % 1024 == 0,
		      "128-byte swizzle atoms are 1024-byte aligned (B halves too)");
	static_assert(In::A_SWIZZLE == CU_TENSOR_MAP_SWIZZLE_128B && In::B_SWIZZLE == CU_TENSOR_MAP_SWIZZLE_128B,
		      "wgmma descriptors below are written for 128-byte rows in the 128-byte swizzle");
	static_assert(CLUSTER == 1 || CLUSTER == 2, "clusters of 1 or 2");
};

template <class In, class Epi, int STAGES, int CLUSTER>
__global__ void __launch_bounds__(THREADS, 1)
	gemm_sm90_tile(int M, int N, int K, int group, const __grid_constant__ CUtensorMap map_a,
		       const __grid_constant__ CUtensorMap map_b, const __grid_constant__ CUtensorMap map_c)
{
	using namespace sm90;
	using C = Cfg<In, Epi, STAGES, CLUSTER>;
	constexpr int BK = C::BK;
	constexpr uint32_t A_STAGE = C::A_STAGE, B_STAGE = C::B_STAGE;
	extern __shared__ __align__(1024) unsigned char smem[];
	const uint32_t base = (smem_addr(smem) + 1023) & ~1023u;
	const uint32_t sA = base, sB = sA + STAGES * A_STAGE, sC = sB + STAGES * B_STAGE, bars = sC + Epi::BYTES;
	auto full = [&](int s) { return bars + 8 * s; };
	auto empty = [&](int s) { return bars + 8 * (STAGES + s); };

	const uint32_t rank = CLUSTER > 1 ? cluster_rank() : 0;
	const int cluster = blockIdx.x / CLUSTER, clusters = gridDim.x / CLUSTER;
	const int tiles_m = M / (BM * CLUSTER), tiles_n = N / BN, tiles = tiles_m * tiles_n, nk = K / BK;
	// Cluster tile t in grouped order: `group` cluster rows at a time walk
	// the columns, so that their B panels are read from L2, not DRAM.
	auto coords = [&](int t, int &bm, int &bn) {
		const int per = group * tiles_n, first = t / per * group, gm = min(tiles_m - first, group);
		bm = ((first + t % per % gm) * CLUSTER + static_cast<int>(rank)) * BM;
		bn = t % per / gm * BN;
	};
	const int wg = threadIdx.x / 128, tid = threadIdx.x % 128;

	if (threadIdx.x == 0) {
		for (int s = 0; s < STAGES; s++) {
			mbar_init(full(s), 1);
			mbar_init(empty(s), CONSUMERS * CLUSTER);
		}
		fence_mbar_init();
	} else if (threadIdx.x == 32) {
		prefetch_map(&map_a);
		prefetch_map(&map_b);
		prefetch_map(&map_c);
	}
	// The peer's barriers must exist before anything multicasts or arrives
	// on them.  (The cluster barrier is .aligned: the warps reconverge first.)
	if constexpr (CLUSTER > 1) {
		__syncwarp();
		cluster_sync();
	} else {
		__syncthreads();
	}

	if (wg == CONSUMERS) {
		// Producer: few registers, one thread.
		setmaxnreg_dec<40>();
		if (tid == 0) {
			int it = 0;
			for (int t = cluster; t < tiles; t += clusters) {
				int bm, bn;
				coords(t, bm, bn);
				for (int kt = 0; kt < nk; kt++, it++) {
					const int s = it % STAGES;
					// Acquired at CTA scope: the wait guards the TMA
					// writes that follow, not data of the peer's.
					if (it >= STAGES)
						mbar_wait(empty(s), (it / STAGES - 1) & 1);
					mbar_expect_tx(full(s), A_STAGE + B_STAGE);
					tma_load(sA + s * A_STAGE, &map_a, kt * BK, bm, full(s));
					if constexpr (CLUSTER == 1)
						tma_load(sB + s * B_STAGE, &map_b, kt * BK, bn, full(s));
					else
						tma_load_multicast(sB + s * B_STAGE + rank * (B_STAGE / CLUSTER), &map_b, kt * BK,
								   bn + static_cast<int>(rank) * (BN / CLUSTER), full(s),
								   static_cast<uint16_t>((1 << CLUSTER) - 1));
				}
			}
		}
	} else {
		setmaxnreg_inc<232>();
		// One arrival per consumer warpgroup and block of the cluster: a
		// warpgroup's wgmma is one operation, complete for all its warps
		// once this thread's wait returns.
		auto release = [&](int s) {
			if constexpr (CLUSTER == 1)
				mbar_arrive_if(empty(s), tid == 0);
			else
#pragma unroll
				for (int r = 0; r < CLUSTER; r++)
					mbar_arrive_cluster_if(empty(s), r, tid == 0);
		};
		float d[128];
#pragma unroll
		for (int i = 0; i < 128; i++)
			d[i] = 0.0f;
		// The thread's stmatrix row and column offset (lanes 16-31: the
		// second 8 columns of each 16-column step).
		const int warp = tid / 32, lane = tid % 32;
		const int er = 64 * wg + 16 * warp + lane % 16, ec = 8 * (lane / 16);
		const bool storer = threadIdx.x == 0;
		int it = 0;
		for (int t = cluster; t < tiles; t += clusters) {
			int bm, bn;
			coords(t, bm, bn);
			for (int kt = 0; kt < nk; kt++, it++) {
				const int s = it % STAGES;
				mbar_wait(full(s), (it / STAGES) & 1);
				const uint32_t a = sA + s * A_STAGE + wg * 64 * 128, b = sB + s * B_STAGE;
				fence_acc(d);
				wgmma_fence();
#pragma unroll
				for (int kk = 0; kk < BK / In::KSTEP; kk++)
					In::mma(d, kmajor_desc<In::A_SWIZZLE>(a + 32 * kk), kmajor_desc<In::B_SWIZZLE>(b + 32 * kk),
						(kt | kk) != 0);
				wgmma_commit();
				// One k-tile's wgmma stays in flight: the previous one's
				// stage is released once it is done.
				wgmma_wait<1>();
				fence_acc(d);
				if (kt > 0)
					release((it - 1) % STAGES);
			}
			wgmma_wait<0>();
			fence_acc(d);
			release((it - 1) % STAGES);

			// Epilogue: the 256 columns in chunks of one box, through the
			// ring of the staging tile's boxes.  A box is written again only
			// once TMA has read its previous chunk; at most BOXES - 1 stores
			// are then still reading.
			constexpr int BOXC = Epi::BOX_COLS, CHUNKS = BN / BOXC, NB = Epi::BOXES;
#pragma unroll
			for (int q = 0; q < CHUNKS; q++) {
				const int box = q % NB;
				if (storer)
					bulk_wait_read<NB - 1>();
				named_sync(1, 128 * CONSUMERS);
#pragma unroll
				for (int j = 0; j < BOXC / 16; j++) {
					const int jj = q * (BOXC / 16) + j;	// 16-column step of the 256
					stmatrix_x4(sC + Epi::ELEM * Epi::idx(er, box * BOXC + 16 * j + ec),
						    In::pack(d[8 * jj], d[8 * jj + 1]), In::pack(d[8 * jj + 2], d[8 * jj + 3]),
						    In::pack(d[8 * jj + 4], d[8 * jj + 5]), In::pack(d[8 * jj + 6], d[8 * jj + 7]));
				}
				fence_proxy_async();
				named_sync(1, 128 * CONSUMERS);
				if (storer) {
					tma_store(&map_c, bn + q * BOXC, bm, sC + box * Epi::BOX_BYTES);
					bulk_commit();
				}
			}
		}
		if (storer)
			bulk_wait<0>();
	}
	// No block leaves while its peer may still multicast into it or
	// arrive on its barriers.
	if constexpr (CLUSTER > 1) {
		__syncwarp();
		cluster_sync();
	}
}

// ---- host side ------------------------------------------------------------

inline PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder()
{
	static PFN_cuTensorMapEncodeTiled_v12000 encode = [] {
		void *f = nullptr;
		cudaDriverEntryPointQueryResult q;
		CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &q));
		if (!f || q != cudaDriverEntryPointSuccess) {
			std::fprintf(stderr, "gemm_sm90: the driver has no cuTensorMapEncodeTiled\n");
			std::exit(1);
		}
		return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(f);
	}();
	return encode;
}

// A row-major rows x cols matrix of elem-byte elements as a TMA map of
// box_rows x box_cols boxes in the given swizzle.
inline CUtensorMap make_map(const void *p, CUtensorMapDataType type, int elem, int rows, int cols, int box_rows,
			    int box_cols, CUtensorMapSwizzle swizzle)
{
	CUtensorMap m;
	const cuuint64_t dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
	const cuuint64_t strides[1] = {static_cast<cuuint64_t>(cols) * elem};
	const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_cols), static_cast<cuuint32_t>(box_rows)}, step[2] = {1, 1};
	const CUresult r = tensor_map_encoder()(&m, type, 2, const_cast<void *>(p), dims, strides, box, step,
						CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
						CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
	if (r != CUDA_SUCCESS) {
		std::fprintf(stderr, "gemm_sm90: cuTensorMapEncodeTiled failed (%d)\n", static_cast<int>(r));
		std::exit(1);
	}
	return m;
}

// One GEMM configuration: inputs, staging tile, stages, cluster size; the
// launch is persistent (one block per SM that can hold one, clusters
// permitting) or one block per output tile.  M must be a multiple of
// 128 * CLUSTER, N of 256, K of BK (the kernel has no edge tiles).  The
// tensor maps are encoded on every call: microseconds of host time, hidden
// behind the asynchronous launches of a timing loop; a library would keep
// them per operand.
template <class In, class Epi, int STAGES, int CLUSTER> struct Gemm {
	using T = typename In::T;
	using Out = typename In::Out;
	using Cf = Cfg<In, Epi, STAGES, CLUSTER>;
	using EpiTile = Epi;
	static constexpr int stages = STAGES, cluster = CLUSTER;

	// Blocks that can be resident at once: one per SM, or as many clusters
	// as the GPCs hold.
	static int resident_blocks()
	{
		static int n = [] {
			auto k = gemm_sm90_tile<In, Epi, STAGES, CLUSTER>;
			CUDA_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(Cf::SMEM)));
			int dev = 0, sms = 0, per_sm = 0;
			CUDA_CHECK(cudaGetDevice(&dev));
			CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
			if (CLUSTER == 1) {
				CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, THREADS, Cf::SMEM));
				return per_sm * sms;
			}
			cudaLaunchAttribute attr;
			cudaLaunchConfig_t cfg = launch_config(sms / CLUSTER * CLUSTER, attr);
			int clusters = 0;
			CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, k, &cfg));
			return clusters * CLUSTER;
		}();
		return n;
	}

	// blocks in clusters of CLUSTER (no cluster attribute for 1).
	static cudaLaunchConfig_t launch_config(int blocks, cudaLaunchAttribute &attr)
	{
		cudaLaunchConfig_t cfg = {};
		attr.id = cudaLaunchAttributeClusterDimension;
		attr.val.clusterDim.x = CLUSTER;
		attr.val.clusterDim.y = 1;
		attr.val.clusterDim.z = 1;
		cfg.gridDim = dim3(blocks);
		cfg.blockDim = dim3(THREADS);
		cfg.dynamicSmemBytes = Cf::SMEM;
		cfg.attrs = &attr;
		cfg.numAttrs = CLUSTER > 1 ? 1 : 0;
		return cfg;
	}

	static void run(int M, int N, int K, const T *A, const T *B, Out *C, int group, bool persistent)
	{
		require_multiples("gemm_sm90", M, N, K, BM * CLUSTER, BN, In::BK);
		const int resident = resident_blocks();
		if (resident < CLUSTER) {
			std::fprintf(stderr, "gemm_sm90: not one cluster of %d fits the GPU\n", CLUSTER);
			std::exit(1);
		}
		const int tiles = (M / BM) * (N / BN);
		const int blocks = persistent ? std::min(tiles, resident) : tiles;
		const CUtensorMap ma = make_map(A, In::TMA_IN, sizeof(T), M, K, BM, In::BK, In::A_SWIZZLE);
		const CUtensorMap mb = make_map(B, In::TMA_IN, sizeof(T), N, K, BN / CLUSTER, In::BK, In::B_SWIZZLE);
		const CUtensorMap mc = make_map(C, In::TMA_OUT, sizeof(Out), M, N, Epi::BOX_ROWS, Epi::BOX_COLS, Epi::SWIZZLE);
		cudaLaunchAttribute attr;
		const cudaLaunchConfig_t cfg = launch_config(blocks / CLUSTER * CLUSTER, attr);
		CUDA_CHECK(cudaLaunchKernelEx(&cfg, gemm_sm90_tile<In, Epi, STAGES, CLUSTER>, M, N, K, group, ma, mb, mc));
	}
};

// ---- layout probes ----------------------------------------------------------

// One TMA box (rows x cols elements of E) loaded from (x0, y0) of a
// row-major matrix with ld columns, compared element for element with the
// global matrix at the position Tile::idx gives (an operand tile: `A`
// selects a_idx, else b_idx).  *bad counts differing elements.
template <class In, bool A, class E>
__global__ void tma_load_probe(const __grid_constant__ CUtensorMap map, const E *__restrict__ g, int ld, int x0, int y0,
			       int rows, int cols, unsigned *bad)
{
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
}

// The staging tile filled through Epi::idx with element (r, c) = r * COLS
// + c, then stored box by box by TMA at (x0, y0) of a matrix that was
// poisoned: the host then finds each value at its (r, c), or not.
template <class Epi>
__global__ void tma_store_probe(const __grid_constant__ CUtensorMap map, int x0, int y0)
{
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
}

// Differing elements of one A box and one B box against In's NAME_IDX, at
// the second box down and across (a layout that ignored the row or the
// column could not pass by luck).  A and B are M x K and N x K.
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
	tma_load_probe<In, true, E><<<1, 256, sa>>>(make_map(A, In::TMA_IN, sizeof(E), M, K, BM, In::BK, In::A_SWIZZLE),
						    reinterpret_cast<const E *>(A), K, In::BK, BM, BM, In::BK, bad);
	tma_load_probe<In, false, E><<<1, 256, sb>>>(make_map(B, In::TMA_IN, sizeof(E), N, K, BN, In::BK, In::B_SWIZZLE),
						     reinterpret_cast<const E *>(B), K, In::BK, BN, BN, In::BK, bad);
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
	tma_store_probe<Epi><<<1, 256, smem>>>(make_map(g, CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, R, Cn, Epi::BOX_ROWS,
							Epi::BOX_COLS, Epi::SWIZZLE),
					       x0, y0);
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

// The template's configuration: 4 stages, the 128 x 128 staging tile as a
// ring of two boxes, persistent, 16 block rows per group, clusters of
// TEMPLATE_CLUSTER.  The other cluster size is timed beside it.
constexpr int TEMPLATE_CLUSTER = 1;
template <class In> using Template = Gemm<In, EpiC128, 4, TEMPLATE_CLUSTER>;
constexpr int GROUP_ROWS = 16;	// 128-row block rows per group

// A variant of the persistent kernel, as one table row.
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
	return {b, Gemm<In, Epi, STAGES, CLUSTER>::run, CLUSTER, group_rows, persistent};
}

// The template and the same kernel in the other cluster size, then
// (--explore) the variants they were chosen from.
template <class In> std::vector<Variant<In>> variants(bool explore)
{
	using G = Template<In>;
	constexpr int other = 3 - G::cluster;
	std::vector<Variant<In>> v{variant<In, typename G::EpiTile, G::stages, G::cluster>(),
				   variant<In, typename G::EpiTile, G::stages, other>()};
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
