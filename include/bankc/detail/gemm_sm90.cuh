// bankc/detail/gemm_sm90.cuh: the persistent Hopper GEMM (sm_90a) on
// bankc's tiles, for f16, bf16 and e4m3 inputs with f32 accumulation.
//
// C = A B^T: A is M x K and B is N x K, both row-major (K contiguous); or,
// for the 16-bit types, C = A B with B K x N row-major (N contiguous).
// C is M x N row-major: f32, or 16-bit (f16 for f16 inputs, bf16
// otherwise).  One block per SM (or per SM pair: clusters of 2) stays
// resident and walks the output tiles of 128 x 256 in grouped order.  Each
// block has three warpgroups:
//
// - a producer, whose first thread issues the TMA copies of every k-tile
//   (A 128 x BK, B 256 x BK; BK fills a 128-byte row) into a ring of
//   stages, tile after tile, as fast as the consumers free them: it runs
//   into the next tile while the consumers finish and store this one;
// - two consumers, each a 64 x 256 slab of wgmma.m64n256 with its 128 f32
//   accumulators per thread, which hand the stages back through mbarriers
//   and then write the tile out: a 16-bit C with stmatrix into a staging
//   tile (bankc's hgw_c256 or hgw_c128, `tma yes`: column boxes in the TMA
//   swizzle) and a TMA store per box, which runs while the next tile's
//   mainloop starts; an f32 C straight from the accumulators.
//
// Edges: the tensor maps have the matrices' true sizes, so the TMA engine
// fills with zeros what a box reads past an edge (a ragged M, N or K adds
// nothing to the sums) and clips what a store writes past one; the f32
// stores check their bounds.  A box counts its full bytes on the barrier
// either way.
//
// In a cluster of 2 the two blocks take two tiles one above the other,
// which share their B panel: each block loads half of it and the TMA
// engine multicasts that half into both blocks' shared memory.  A stage is
// free only when the consumers of both blocks are done with it, so each
// consumer warpgroup arrives on the empty barrier of both.
//
// Neither operand tile is indexed by a thread: TMA writes them in the
// swizzle bankc chose (NAME_TMA_SWIZZLE) and wgmma reads them through
// descriptors that name the same swizzle (an MN-major B through the
// descriptor bankc's header gives).  The staging tile is written through
// the generated NAME_IDX and read by TMA in the mode of its
// NAME_TMA_SWIZZLE, box by box as NAME_TMA_BOX_* say.
#ifndef BANKC_DETAIL_GEMM_SM90_CUH
#define BANKC_DETAIL_GEMM_SM90_CUH

#include <atomic>
#include <cstdint>

#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>
#include <cudaTypedefs.h>

#include "plan.hpp"
#include "sm90.cuh"

#include <bankc/tiles/f8w_a.cuh>
#include <bankc/tiles/f8w_b.cuh>
#include <bankc/tiles/hgw_a.cuh>
#include <bankc/tiles/hgw_b.cuh>
#include <bankc/tiles/hgw_bn.cuh>
#include <bankc/tiles/hgw_c128.cuh>

// The real kernel exists only in code built for sm_90a; built for any
// other target it is a stub that allows 32 threads a block, so that the
// host, which launches 384, can tell the two apart (cudaFuncGetAttributes)
// and refuse instead of launching it.
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define BANKC_GEMM90_DEVICE 1
#define BANKC_GEMM90_BOUND 384
#else
#define BANKC_GEMM90_DEVICE 0
#define BANKC_GEMM90_BOUND 32
#endif

namespace bankc {
namespace detail {

// Element offset of (r, c) in a tile of column boxes, as the generated
// NAME_TMA_BOX_* describe them and the kernel's TMA stores read them:
// box c / box_cols at byte (c / box_cols) * box_bytes, each box row-major
// with rows of box_cols elements, in the TMA engine's swizzle `mode`: the
// 16-byte chunk index (byte offset bits 4-6) XOR bits 7-9, 3, 2 or 1 of
// them for the 128-, 64- and 32-byte modes (CuTe's Swizzle<3,4,3>, <2,4,3>,
// <1,4,3>).  The benchmarks compare NAME_IDX with it over the whole tile.
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
static_assert(BANKC_GEMM90_BOUND == THREADS || BANKC_GEMM90_BOUND == 32, "the kernel's bound");

// ---- inputs: element type, k-tile, tiles, wgmma ---------------------------

// f16, B K-major (N x K).
struct InF16 {
	using T = __half;
	using Out = __half;
	static constexpr const char *name = "f16";
	static constexpr bool B_MN = false, SCALED = false;
	static constexpr int BK = HGW_A_COLS, KSTEP = 16, MAX_STAGES = HGW_A_STAGES;
	static constexpr uint32_t A_STAGE = HGW_A_STAGE_ELEMS * HGW_A_ELEM_BYTES, B_STAGE = HGW_B_STAGE_ELEMS * HGW_B_ELEM_BYTES;
	static constexpr CUtensorMapSwizzle A_SWIZZLE = HGW_A_TMA_SWIZZLE, B_SWIZZLE = HGW_B_TMA_SWIZZLE;
	static constexpr CUtensorMapDataType TMA_IN = CU_TENSOR_MAP_DATA_TYPE_FLOAT16, TMA_OUT = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
	// B's TMA box: rows x columns of its global matrix, and boxes per stage
	static constexpr int B_BOX_ROWS = BN, B_BOX_COLS = HGW_B_COLS, B_BOXES = 1, B_BOX_BYTES = B_STAGE;
	static __host__ __device__ int a_idx(int r, int c) { return HGW_A_IDX(r, c); }
	static __host__ __device__ int b_idx(int r, int c) { return HGW_B_IDX(r, c); }
	static __device__ __forceinline__ void mma(float (&d)[128], uint64_t a, uint64_t b, uint32_t scale_d)
	{
		sm90::wgmma_f16(d, a, b, scale_d);
	}
	// B's descriptor for K step kk of the stage at shared address b.
	static __device__ __forceinline__ uint64_t b_desc(uint32_t b, int kk)
	{
		return sm90::kmajor_desc<B_SWIZZLE>(b + 32 * kk);
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

// f16 with B MN-major (K x N, N contiguous: C = A B): bankc's hgw_bn, a
// 64 x 256 tile of four 64 x 64 boxes, read by wgmma with B's transpose
// flag through the descriptor its header gives; K steps of 16 rows.
struct InF16N : InF16 {
	static constexpr const char *name = "f16, B row-major";
	static constexpr bool B_MN = true;
	static constexpr int MAX_STAGES = HGW_A_STAGES < HGW_BN_STAGES ? HGW_A_STAGES : HGW_BN_STAGES;
	static constexpr uint32_t B_STAGE = HGW_BN_STAGE_ELEMS * HGW_BN_ELEM_BYTES;
	static constexpr CUtensorMapSwizzle B_SWIZZLE = HGW_BN_TMA_SWIZZLE;
	static constexpr int B_BOX_ROWS = HGW_BN_TMA_BOX_ROWS, B_BOX_COLS = HGW_BN_TMA_BOX_COLS, B_BOXES = HGW_BN_TMA_BOXES,
			     B_BOX_BYTES = HGW_BN_TMA_BOX_BYTES;
	static __host__ __device__ int b_idx(int r, int c) { return HGW_BN_IDX(r, c); }
	static __device__ __forceinline__ void mma(float (&d)[128], uint64_t a, uint64_t b, uint32_t scale_d)
	{
		sm90::wgmma_f16_bmn(d, a, b, scale_d);
	}
	static __device__ __forceinline__ uint64_t b_desc(uint32_t b, int kk)
	{
		return hgw_bn_wgmma_desc(b + HGW_BN_WGMMA_START(0, KSTEP * kk, 0), 0);
	}
	static_assert(HGW_BN_ELEM_BYTES == 2 && HGW_BN_ROWS == BK && HGW_BN_COLS == BN && HGW_BN_WGMMA_B == 1 &&
			      HGW_BN_WGMMA_MAJOR_MN == 1 && HGW_BN_TMA_BOX_ROWS == BK &&
			      HGW_BN_TMA_BOXES * HGW_BN_TMA_BOX_COLS == BN &&
			      HGW_BN_TMA_BOXES * HGW_BN_TMA_BOX_BYTES == HGW_BN_STAGE_ELEMS * 2 &&
			      HGW_BN_STAGE_ELEMS == HGW_BN_ELEMS,
		      "hgw_bn: one BK x 256 stage of 2-byte elements in whole TMA boxes, an MN-major wgmma B");
};

struct InBF16N : InF16N {
	using T = __nv_bfloat16;
	using Out = __nv_bfloat16;
	static constexpr const char *name = "bf16, B row-major";
	static constexpr CUtensorMapDataType TMA_IN = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
					     TMA_OUT = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
	static __device__ __forceinline__ void mma(float (&d)[128], uint64_t a, uint64_t b, uint32_t scale_d)
	{
		sm90::wgmma_bf16_bmn(d, a, b, scale_d);
	}
	static __device__ __forceinline__ uint32_t pack(float lo, float hi) { return InBF16::pack(lo, hi); }
};

// e4m3 in, f32 accumulation, bf16 (or f32) out; per-tensor scales.
struct InE4M3 {
	using T = __nv_fp8_e4m3;
	using Out = __nv_bfloat16;
	static constexpr const char *name = "e4m3";
	static constexpr bool B_MN = false, SCALED = true;
	static constexpr int BK = F8W_A_COLS, KSTEP = 32, MAX_STAGES = F8W_A_STAGES;
	static constexpr uint32_t A_STAGE = F8W_A_STAGE_ELEMS * F8W_A_ELEM_BYTES, B_STAGE = F8W_B_STAGE_ELEMS * F8W_B_ELEM_BYTES;
	static constexpr CUtensorMapSwizzle A_SWIZZLE = F8W_A_TMA_SWIZZLE, B_SWIZZLE = F8W_B_TMA_SWIZZLE;
	static constexpr CUtensorMapDataType TMA_IN = CU_TENSOR_MAP_DATA_TYPE_UINT8, TMA_OUT = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
	static constexpr int B_BOX_ROWS = BN, B_BOX_COLS = F8W_B_COLS, B_BOXES = 1, B_BOX_BYTES = B_STAGE;
	static __host__ __device__ int a_idx(int r, int c) { return F8W_A_IDX(r, c); }
	static __host__ __device__ int b_idx(int r, int c) { return F8W_B_IDX(r, c); }
	static __device__ __forceinline__ void mma(float (&d)[128], uint64_t a, uint64_t b, uint32_t scale_d)
	{
		sm90::wgmma_e4m3(d, a, b, scale_d);
	}
	static __device__ __forceinline__ uint64_t b_desc(uint32_t b, int kk)
	{
		return sm90::kmajor_desc<B_SWIZZLE>(b + 32 * kk);
	}
	static __device__ __forceinline__ uint32_t pack(float lo, float hi) { return InBF16::pack(lo, hi); }
	static_assert(F8W_A_ELEM_BYTES == 1 && F8W_B_ELEM_BYTES == 1 && F8W_B_COLS == BK && F8W_B_STAGES == MAX_STAGES &&
			      F8W_A_ROWS == BM && F8W_B_ROWS == BN,
		      "f8w_a, f8w_b: 128 x BK and 256 x BK tiles of 1-byte elements");
};

// ---- the epilogues ----------------------------------------------------------

// A staging tile of 16-bit outputs that TMA stores box by box.
#define BANKC_GEMM90_EPI(Name, NAME, label)                                                                    \
	struct Name {                                                                                          \
		static constexpr const char *name = label;                                                     \
		static constexpr bool TMA = true, NARROW = true;                                               \
		static constexpr int ROWS = NAME##_ROWS, COLS = NAME##_COLS, ELEM = NAME##_ELEM_BYTES;         \
		static constexpr int BOX_ROWS = NAME##_TMA_BOX_ROWS, BOX_COLS = NAME##_TMA_BOX_COLS;           \
		static constexpr int BOXES = NAME##_TMA_BOXES, BOX_BYTES = NAME##_TMA_BOX_BYTES;               \
		static constexpr uint32_t BYTES = NAME##_BYTES;                                                \
		static constexpr CUtensorMapSwizzle SWIZZLE = NAME##_TMA_SWIZZLE;                              \
		static __host__ __device__ int idx(int r, int c) { return NAME##_IDX(r, c); }                  \
		static_assert(NAME##_STAGES == 1 && ELEM == 2 && ROWS == bankc::detail::gemm90::BM &&           \
				      bankc::detail::gemm90::BN % COLS == 0,                                   \
			      #NAME ": one stage of 2-byte outputs, 128 rows");                                \
		static_assert(BOX_ROWS == ROWS && BOXES * BOX_COLS == COLS && BOX_COLS % 16 == 0 &&             \
				      BOXES * BOX_BYTES == ROWS * COLS * ELEM && BYTES == BOXES * BOX_BYTES,    \
			      #NAME ": column boxes of whole 16-column stmatrix steps, no padding");           \
		static_assert(NAME##_ALIGN >= 1024 && BOX_BYTES % 1024 == 0, #NAME ": boxes on swizzle atoms"); \
	}

BANKC_GEMM90_EPI(EpiC128, HGW_C128, "c128");

// f32 outputs, stored by each thread straight from its accumulators (no
// staging tile: no shared memory to lay out).
struct EpiF32 {
	static constexpr const char *name = "f32 direct";
	static constexpr bool TMA = false, NARROW = false;
	static constexpr uint32_t BYTES = 0;
};

// 16-bit outputs stored as EpiF32 stores its f32 ones, for a C whose rows
// are not whole 16-byte chunks (N * 2 bytes not a multiple of 16): TMA
// writes a row's last chunk whole, past N into the row's padding, which
// the caller may own (measured on an H200: every padding byte of such a
// C written).
struct Epi16Direct {
	static constexpr const char *name = "16-bit direct";
	static constexpr bool TMA = false, NARROW = true;
	static constexpr uint32_t BYTES = 0;
};

// What the epilogue needs besides the tensor maps: a C stored by the
// threads, and the per-tensor scales (device pointers, null for 1) of an
// e4m3 GEMM.
struct EpiArgs {
	void *c;		// direct epilogues: C (f32, or In::Out where NARROW)
	int64_t ldc;		// direct epilogues: C's leading dimension
	const float *scale_a, *scale_b;
};

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
	static_assert(CLUSTER == 1 || !In::B_MN, "an MN-major B is not multicast");
	static_assert(!Epi::NARROW || sizeof(typename In::Out) == 2, "16-bit outputs");
};

template <class In, class Epi, int STAGES, int CLUSTER>
__global__ void __launch_bounds__(BANKC_GEMM90_BOUND, 1)
	gemm_sm90_tile(int M, int N, int K, int group, const __grid_constant__ CUtensorMap map_a,
		       const __grid_constant__ CUtensorMap map_b, const __grid_constant__ CUtensorMap map_c, EpiArgs ep)
{
#if BANKC_GEMM90_DEVICE
	using namespace sm90;
	using C = Cfg<In, Epi, STAGES, CLUSTER>;
	constexpr int BK = C::BK;
	constexpr uint32_t A_STAGE = C::A_STAGE, B_STAGE = C::B_STAGE;
	extern __shared__ __align__(1024) unsigned char smem[];
	const uint32_t base = (smem_addr(smem) + 1023) & ~1023u;
	const uint32_t sA = base, sB = sA + STAGES * A_STAGE, sC = sB + STAGES * B_STAGE, bars = sC + Epi::BYTES;
	auto full = [&](int s) { return bars + 8 * s; };
	auto empty = [&](int s) { return bars + 8 * (STAGES + s); };

	const int rank = CLUSTER > 1 ? static_cast<int>(cluster_rank()) : 0;
	const int cluster = blockIdx.x / CLUSTER, clusters = gridDim.x / CLUSTER;
	const GemmGrid gg = gemm_grid(M, N, K, BM, BN, BK, CLUSTER);
	const int tiles = gg.tiles, nk = gg.nk;
	auto coords = [&](int t, int &bm, int &bn) { gemm_tile_coords(t, gg.tiles_m, gg.tiles_n, group, CLUSTER, rank, BM, BN, bm, bn); };
	const int wg = threadIdx.x / 128, tid = threadIdx.x % 128;
	if (nk == 0)
		return;	// K = 0: the host writes C instead

	if (threadIdx.x == 0) {
		for (int s = 0; s < STAGES; s++) {
			mbar_init(full(s), 1);
			mbar_init(empty(s), CONSUMERS * CLUSTER);
		}
		fence_mbar_init();
	} else if (threadIdx.x == 32) {
		prefetch_map(&map_a);
		prefetch_map(&map_b);
		if constexpr (Epi::TMA)
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
					if constexpr (In::B_MN) {
						// B is K x N: the stage's boxes side by side along N
#pragma unroll
						for (int x = 0; x < In::B_BOXES; x++)
							tma_load(sB + s * B_STAGE + x * In::B_BOX_BYTES, &map_b,
								 bn + x * In::B_BOX_COLS, kt * BK, full(s));
					} else if constexpr (CLUSTER == 1) {
						tma_load(sB + s * B_STAGE, &map_b, kt * BK, bn, full(s));
					} else {
						tma_load_multicast(sB + s * B_STAGE + rank * (B_STAGE / CLUSTER), &map_b, kt * BK,
								   bn + rank * (BN / CLUSTER), full(s),
								   static_cast<uint16_t>((1 << CLUSTER) - 1));
					}
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
		// The product's scale: 1, or an e4m3 GEMM's per-tensor scales.
		float scale = 1.0f;
		if constexpr (In::SCALED) {
			if (ep.scale_a)
				scale *= __ldg(ep.scale_a);
			if (ep.scale_b)
				scale *= __ldg(ep.scale_b);
		}
		float d[128];
#pragma unroll
		for (int i = 0; i < 128; i++)
			d[i] = 0.0f;
		const int warp = tid / 32, lane = tid % 32;
		// The thread's stmatrix row and column offset (lanes 16-31: the
		// second 8 columns of each 16-column step).
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
					In::mma(d, kmajor_desc<In::A_SWIZZLE>(a + 32 * kk), In::b_desc(b, kk), (kt | kk) != 0);
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
			if constexpr (In::SCALED) {
#pragma unroll
				for (int i = 0; i < 128; i++)
					d[i] *= scale;
			}

			if constexpr (Epi::TMA) {
				// The 256 columns in chunks of one box, through the ring
				// of the staging tile's boxes.  A box is written again
				// only once TMA has read its previous chunk; at most
				// BOXES - 1 stores are then still reading.  TMA clips
				// what lies past M and N.
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
							    In::pack(d[8 * jj + 4], d[8 * jj + 5]),
							    In::pack(d[8 * jj + 6], d[8 * jj + 7]));
					}
					fence_proxy_async();
					named_sync(1, 128 * CONSUMERS);
					if (storer) {
						tma_store(&map_c, bn + q * BOXC, bm, sC + box * Epi::BOX_BYTES);
						bulk_commit();
					}
				}
			} else {
				// Accumulator 4 j + 2 h + e: row 16 warp + lane / 4 + 8 h,
				// column 8 j + 2 (lane % 4) + e of the warpgroup's 64 x 256.
				// Columns c and c + 1 (c even) are stored as one pair where
				// the row starts on a pair's alignment: every row when ldc
				// is even, every other one when it is odd (half the store
				// instructions of an f32 C with N = 999).
				const int r0 = bm + 64 * wg + 16 * warp + lane / 4, c0 = bn + 2 * (lane % 4);
#pragma unroll
				for (int h = 0; h < 2; h++) {
					const int r = r0 + 8 * h;
					if (r >= M)
						continue;
					// C's elements: 16-bit ones as raw bits, or f32
					using O = typename std::conditional<Epi::NARROW, uint16_t, float>::type;
					O *const row = static_cast<O *>(ep.c) + static_cast<int64_t>(r) * ep.ldc;
					const bool pairs = reinterpret_cast<uintptr_t>(row) % (2 * sizeof(O)) == 0;
#pragma unroll
					for (int j = 0; j < 32; j++) {
						const int c = c0 + 8 * j;
						const float x0 = d[4 * j + 2 * h], x1 = d[4 * j + 2 * h + 1];
						if constexpr (Epi::NARROW) {
							const uint32_t two = In::pack(x0, x1);	// x0 in the low half
							if (pairs && c + 1 < N) {
								*reinterpret_cast<uint32_t *>(row + c) = two;
							} else {
								if (c < N)
									row[c] = static_cast<uint16_t>(two);
								if (c + 1 < N)
									row[c + 1] = static_cast<uint16_t>(two >> 16);
							}
						} else {
							if (pairs && c + 1 < N) {
								*reinterpret_cast<float2 *>(row + c) = make_float2(x0, x1);
							} else {
								if (c < N)
									row[c] = x0;
								if (c + 1 < N)
									row[c + 1] = x1;
							}
						}
					}
				}
			}
		}
		if constexpr (Epi::TMA) {
			if (storer)
				bulk_wait<0>();
		}
	}
	// No block leaves while its peer may still multicast into it or
	// arrive on its barriers.
	if constexpr (CLUSTER > 1) {
		__syncwarp();
		cluster_sync();
	}
#else
	(void)M, (void)N, (void)K, (void)group, (void)map_a, (void)map_b, (void)map_c, (void)ep;
#endif
}

// ---- host side ------------------------------------------------------------

// cuTensorMapEncodeTiled from the driver, through the runtime (no -lcuda);
// null where the driver has none.
inline PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder()
{
	static const PFN_cuTensorMapEncodeTiled_v12000 encode = [] {
		void *f = nullptr;
		cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
		if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &q) != cudaSuccess)
			f = nullptr;
#else
		if (cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &f, cudaEnableDefault, &q) != cudaSuccess)
			f = nullptr;
#endif
		if (q != cudaDriverEntryPointSuccess) {
			f = nullptr;
			(void)cudaGetLastError();	// the failed query's error is not the caller's
		}
		return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(f);
	}();
	return encode;
}

// A row-major rows x cols matrix of elem-byte elements, ld elements from
// one row to the next, as a TMA map of box_rows x box_cols boxes in the
// given swizzle; out-of-bounds reads fill zeros.
inline cudaError_t make_map(CUtensorMap &m, const void *p, CUtensorMapDataType type, int elem, int64_t rows,
			    int64_t cols, int64_t ld, int box_rows, int box_cols, CUtensorMapSwizzle swizzle)
{
	const PFN_cuTensorMapEncodeTiled_v12000 encode = tensor_map_encoder();
	if (!encode)
		return cudaErrorNotSupported;
	const cuuint64_t dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
	const cuuint64_t strides[1] = {static_cast<cuuint64_t>(ld) * elem};
	const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_cols), static_cast<cuuint32_t>(box_rows)}, step[2] = {1, 1};
	const CUresult r = encode(&m, type, 2, const_cast<void *>(p), dims, strides, box, step, CU_TENSOR_MAP_INTERLEAVE_NONE,
				  swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
	return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

// A per-device memo of small non-negative values (devices 0-63; others
// are computed on every call): 0 unknown, else value + 1.
struct DeviceMemo {
	std::atomic<int> v[64];
	template <class F> cudaError_t get(int dev, int &out, F &&compute)
	{
		if (dev >= 0 && dev < 64) {
			const int x = v[dev].load(std::memory_order_acquire);
			if (x > 0) {
				out = x - 1;
				return cudaSuccess;
			}
		}
		const cudaError_t e = compute(out);
		if (e == cudaSuccess && dev >= 0 && dev < 64)
			v[dev].store(out + 1, std::memory_order_release);
		return e;
	}
};

// One GEMM configuration: inputs, epilogue, stages, cluster size; the
// launch is persistent (one block per SM that can hold one, clusters
// permitting) or one block per output tile.  The tensor maps are encoded
// on every call (microseconds of host time).
template <class In, class Epi, int STAGES, int CLUSTER> struct Gemm {
	using T = typename In::T;
	using Out = typename std::conditional<Epi::NARROW, typename In::Out, float>::type;
	using Cf = Cfg<In, Epi, STAGES, CLUSTER>;
	using EpiTile = Epi;
	using Input = In;
	static constexpr int stages = STAGES, cluster = CLUSTER;
	static constexpr auto kernel = gemm_sm90_tile<In, Epi, STAGES, CLUSTER>;

	// Whether this device can run the kernel as built: 1 yes, 0 no
	// (compute capability 9.0 and the sm_90a kernel in the image).
	static cudaError_t runs_here(int dev, bool &ok)
	{
		static DeviceMemo memo;
		int v = 0;
		const cudaError_t e = memo.get(dev, v, [dev](int &out) {
			int major = 0, minor = 0;
			cudaError_t e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
			if (e == cudaSuccess)
				e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
			if (e != cudaSuccess)
				return e;
			cudaFuncAttributes fa = {};
			const cudaError_t fe = cudaFuncGetAttributes(&fa, kernel);
			if (fe != cudaSuccess)
				(void)cudaGetLastError();	// no image for this device: ours to clear
			out = gemm_sm90a_runs(major, minor, fe == cudaSuccess, fa.maxThreadsPerBlock, THREADS) ? 1 : 0;
			return cudaSuccess;
		});
		ok = v == 1;
		return e;
	}

	// Blocks that can be resident at once: one per SM, or as many clusters
	// as the GPCs hold; the kernel's shared-memory size set on the way.
	static cudaError_t resident_blocks(int dev, int &n)
	{
		static DeviceMemo memo;
		return memo.get(dev, n, [dev](int &out) {
			cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(Cf::SMEM));
			int sms = 0, per_sm = 0;
			if (e == cudaSuccess)
				e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
			if (e != cudaSuccess)
				return e;
			if (CLUSTER == 1) {
				e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, THREADS, Cf::SMEM);
				out = per_sm * sms;
				return e;
			}
			cudaLaunchAttribute attr;
			cudaLaunchConfig_t cfg = launch_config(sms / CLUSTER * CLUSTER, attr, 0);
			int clusters = 0;
			e = cudaOccupancyMaxActiveClusters(&clusters, kernel, &cfg);
			out = clusters * CLUSTER;
			return e;
		});
	}

	// blocks in clusters of CLUSTER (no cluster attribute for 1).
	static cudaLaunchConfig_t launch_config(int blocks, cudaLaunchAttribute &attr, cudaStream_t stream)
	{
		cudaLaunchConfig_t cfg = {};
		attr.id = cudaLaunchAttributeClusterDimension;
		attr.val.clusterDim.x = CLUSTER;
		attr.val.clusterDim.y = 1;
		attr.val.clusterDim.z = 1;
		cfg.gridDim = dim3(blocks);
		cfg.blockDim = dim3(THREADS);
		cfg.dynamicSmemBytes = Cf::SMEM;
		cfg.stream = stream;
		cfg.attrs = &attr;
		cfg.numAttrs = CLUSTER > 1 ? 1 : 0;
		return cfg;
	}

	// C = A B^T (or A B for an MN-major In) on valid arguments (the public
	// functions check them), M, N, K > 0, on a device where runs_here.
	// C is Out: In::Out through TMA, or f32.
	static cudaError_t launch(int dev, int M, int N, int K, const T *A, int64_t lda, const T *B, int64_t ldb, Out *C,
				  int64_t ldc, const float *scale_a, const float *scale_b, int group, bool persistent,
				  cudaStream_t stream)
	{
		int resident = 0;
		cudaError_t e = resident_blocks(dev, resident);
		if (e != cudaSuccess)
			return e;
		if (resident < CLUSTER)
			return cudaErrorNotSupported;	// not one cluster fits
		const GemmGrid gg = gemm_grid(M, N, K, BM, BN, In::BK, CLUSTER);
		const int blocks = (persistent && gg.tiles > resident / CLUSTER ? resident / CLUSTER : gg.tiles) * CLUSTER;
		CUtensorMap ma, mb, mc;
		e = make_map(ma, A, In::TMA_IN, sizeof(T), M, K, lda, BM, In::BK, In::A_SWIZZLE);
		if (e == cudaSuccess) {
			if (In::B_MN)
				e = make_map(mb, B, In::TMA_IN, sizeof(T), K, N, ldb, In::B_BOX_ROWS, In::B_BOX_COLS, In::B_SWIZZLE);
			else
				e = make_map(mb, B, In::TMA_IN, sizeof(T), N, K, ldb, BN / CLUSTER, In::BK, In::B_SWIZZLE);
		}
		EpiArgs ep = {nullptr, 0, scale_a, scale_b};
		if constexpr (Epi::TMA) {
			if (e == cudaSuccess)
				e = make_map(mc, C, In::TMA_OUT, sizeof(Out), M, N, ldc, Epi::BOX_ROWS, Epi::BOX_COLS, Epi::SWIZZLE);
		} else {
			mc = ma;	// unused
			ep.c = C;
			ep.ldc = ldc;
		}
		if (e != cudaSuccess)
			return e;
		cudaLaunchAttribute attr;
		const cudaLaunchConfig_t cfg = launch_config(blocks, attr, stream);
		return cudaLaunchKernelEx(&cfg, kernel, M, N, K, group, ma, mb, mc, ep);
	}
};

// The library's configuration: 4 stages, the 128 x 128 staging tile as a
// ring of two boxes (16-bit C), persistent, 16 block rows per group,
// clusters of 1 (clusters of 2 ran 0.8 to 1.4 % slower on the H200:
// docs/performance.md).
constexpr int LIB_STAGES = 4, LIB_CLUSTER = 1, GROUP_ROWS = 16;
template <class In, class Out>
using LibGemm = Gemm<In, typename std::conditional<std::is_same<Out, float>::value, EpiF32, EpiC128>::type, LIB_STAGES,
		     LIB_CLUSTER>;
// A 16-bit C whose rows are not whole 16-byte chunks: stored by the threads.
template <class In> using LibGemmEdge = Gemm<In, Epi16Direct, LIB_STAGES, LIB_CLUSTER>;

} // namespace gemm90
} // namespace detail
} // namespace bankc

#endif
