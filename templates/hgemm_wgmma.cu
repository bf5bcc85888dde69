// hgemm_wgmma.cu: Hopper tensor-core GEMM, f16 in, f32 accumulate, f16 out,
// on bankc-generated TMA tiles (specs/templates.tile: hgw_a, hgw_b), and its
// benchmark against cublasGemmEx.  Needs sm_90a (wgmma, setmaxnreg).
//
// C = A B^T: A is M x K and B is N x K, both row-major (K contiguous, the
// layout wgmma reads without a transpose; the weights of a linear layer are
// stored this way).  128 x 256 blocks of three warpgroups: one producer,
// whose first thread issues the TMA copies of each k-tile (64 wide) into a
// ring of four stages, and two consumers, each a 64 x 256 slab of
// wgmma.m64n256k16 with its 128 accumulators per thread.  Full and empty
// mbarriers hand the stages between them.  Neither side indexes shared
// memory itself: the TMA engine writes the tiles in the swizzle bankc chose
// (NAME_TMA_SWIZZLE) and wgmma reads them through descriptors that name the
// same swizzle, so the layout bankc chose is the one that runs.
#include "hgemm_host.cuh"

#include <cuda.h>	// CUtensorMap and its enums; the encoder comes through the runtime
#include <cudaTypedefs.h>

#include "hgw_a.cuh"
#include "hgw_b.cuh"

constexpr int BM = HGW_A_ROWS, BN = HGW_B_ROWS, BK = HGW_A_COLS, STAGES = HGW_A_STAGES;
constexpr int CONSUMERS = BM / 64, THREADS = 128 * (CONSUMERS + 1), GROUP_M = 16;
constexpr uint32_t A_STAGE = HGW_A_STAGE_ELEMS * 2, B_STAGE = HGW_B_STAGE_ELEMS * 2;
constexpr size_t SMEM_BYTES = HGW_A_BYTES + HGW_B_BYTES + 2 * STAGES * 8 + 1024;	// + barriers, alignment slack
static_assert(BN == 256 && BK * 2 == 128, "wgmma m64n256k16 over 128-byte rows of K");
static_assert(HGW_B_COLS == BK && HGW_B_STAGES == STAGES, "one pipeline");
static_assert(HGW_A_ELEM_BYTES == 2 && HGW_B_ELEM_BYTES == 2, "f16");
static_assert(HGW_A_ELEMS == BM * BK && HGW_B_ELEMS == BN * BK, "no padding: TMA writes dense boxes");
static_assert(HGW_A_ALIGN == 1024 && HGW_B_ALIGN == 1024 && A_STAGE % 1024 == 0 && B_STAGE % 1024 == 0,
	      "128-byte swizzle atoms are 1024-byte aligned");

// wgmma's descriptor names the swizzle by its own code.  For 128-byte rows
// of K, this kernel's descriptors (8-row groups 1024 bytes apart, k16 steps
// of 32 bytes inside the row) hold for the 128-byte swizzle only; a
// row-major tile would need the interleaved core-matrix form instead.
__host__ __device__ constexpr uint64_t desc_swizzle(CUtensorMapSwizzle m)
{
	return m == CU_TENSOR_MAP_SWIZZLE_128B ? 1 : m == CU_TENSOR_MAP_SWIZZLE_64B ? 2 : m == CU_TENSOR_MAP_SWIZZLE_32B ? 3 : 0;
}
static_assert(desc_swizzle(HGW_A_TMA_SWIZZLE) == 1 && desc_swizzle(HGW_B_TMA_SWIZZLE) == 1,
	      "the descriptors below are written for CU_TENSOR_MAP_SWIZZLE_128B");

__device__ __forceinline__ uint32_t smem_addr(const void *p)
{
	return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// K-major operand, 128-byte rows: start address, leading byte offset
// (unused by swizzled K-major layouts; 16 by convention), stride byte offset
// 1024 (from one 8-row group to the next), swizzle mode; all in 16-byte units.
template <CUtensorMapSwizzle MODE> __device__ __forceinline__ uint64_t smem_desc(uint32_t addr)
{
	return static_cast<uint64_t>((addr & 0x3FFFF) >> 4) | static_cast<uint64_t>(16 >> 4) << 16 |
	       static_cast<uint64_t>(1024 >> 4) << 32 | desc_swizzle(MODE) << 62;
}

__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}

__device__ __forceinline__ void mbar_expect_tx(uint32_t bar, uint32_t bytes)
{
	asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}

__device__ __forceinline__ void mbar_arrive(uint32_t bar)
{
	asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}

__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity)
{
	uint32_t done;
	do {
		asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
			     : "=r"(done)
			     : "r"(bar), "r"(parity)
			     : "memory");
	} while (!done);
}

// The box at (x = column, y = row) of the tensor map into shared memory;
// completion is counted in bytes on the mbarrier.
__device__ __forceinline__ void tma_load(uint32_t dst, const CUtensorMap *map, int x, int y, uint32_t bar)
{
	asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::"r"(dst),
		     "l"(reinterpret_cast<uint64_t>(map)), "r"(x), "r"(y), "r"(bar)
		     : "memory");
}

// Keeps the compiler from moving the accumulators while wgmma owns them.
__device__ __forceinline__ void fence_acc(float (&d)[128])
{
#pragma unroll
	for (int i = 0; i < 128; i++)
		asm volatile("" : "+f"(d[i])::"memory");
}

__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N> __device__ __forceinline__ void wgmma_wait()
{
	asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}

// d (64 x 256, f32) += A (64 x 16) B^T (256 x 16), both K-major in shared memory.
__device__ __forceinline__ void wgmma_m64n256k16(float (&d)[128], uint64_t desc_a, uint64_t desc_b)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
		     "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {"
		     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
		     "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
		     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
		     "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
		     "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
		     "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
		     "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
		     "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
		     "}, %128, %129, p, 1, 1, 0, 0;\n}\n"
		     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
		       "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
		       "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
		       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
		       "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
		       "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
		       "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
		       "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
		       "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
		       "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
		       "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
		       "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
		       "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
		       "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
		       "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
		       "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
		     : "l"(desc_a), "l"(desc_b), "r"(1));
}

// WAIT: wgmma groups left in flight when a k-tile's stage is released (0:
// each k-tile completes before the next is issued; 1: the next k-tile's
// wgmma is issued first and the previous stage released after it).
template <int WAIT>
__global__ void __launch_bounds__(THREADS, 1)
	hgemm_wgmma_tile(int M, int N, int K, const __grid_constant__ CUtensorMap map_a,
			 const __grid_constant__ CUtensorMap map_b, __half *__restrict__ C)
{
	extern __shared__ __align__(1024) unsigned char smem[];
	const uint32_t base = (smem_addr(smem) + 1023) & ~1023u;
	const uint32_t sA = base, sB = base + HGW_A_BYTES, bars = sB + HGW_B_BYTES;
	auto full = [&](int s) { return bars + 8 * s; };
	auto empty = [&](int s) { return bars + 8 * (STAGES + s); };

	// Grouped order: GROUP_M block rows share the B panels in L2.
	const int tiles_m = M / BM, tiles_n = N / BN;
	const int pid = blockIdx.x, group = GROUP_M * tiles_n;
	const int first_m = pid / group * GROUP_M, gm = min(tiles_m - first_m, GROUP_M);
	const int bm = (first_m + pid % group % gm) * BM, bn = pid % group / gm * BN;
	const int wg = threadIdx.x / 128, tid = threadIdx.x % 128, nk = K / BK;

	if (threadIdx.x == 0) {
		for (int s = 0; s < STAGES; s++) {
			mbar_init(full(s), 1);
			mbar_init(empty(s), CONSUMERS * 128);
		}
		asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
	}
	__syncthreads();

	if (wg == CONSUMERS) {
		// Producer: few registers, one thread.
		asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
		if (tid == 0)
			for (int kt = 0; kt < nk; kt++) {
				const int s = kt % STAGES;
				if (kt >= STAGES)
					mbar_wait(empty(s), (kt / STAGES - 1) & 1);
				mbar_expect_tx(full(s), A_STAGE + B_STAGE);
				tma_load(sA + s * A_STAGE, &map_a, kt * BK, bm, full(s));
				tma_load(sB + s * B_STAGE, &map_b, kt * BK, bn, full(s));
			}
		return;
	}
	asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
	float d[128];
#pragma unroll
	for (int i = 0; i < 128; i++)
		d[i] = 0.0f;
	for (int kt = 0; kt < nk; kt++) {
		const int s = kt % STAGES;
		mbar_wait(full(s), (kt / STAGES) & 1);
		const uint32_t a = sA + s * A_STAGE + wg * 64 * BK * 2, b = sB + s * B_STAGE;
		fence_acc(d);
		wgmma_fence();
#pragma unroll
		for (int kk = 0; kk < BK / 16; kk++)
			wgmma_m64n256k16(d, smem_desc<HGW_A_TMA_SWIZZLE>(a + 32 * kk),
					 smem_desc<HGW_B_TMA_SWIZZLE>(b + 32 * kk));
		wgmma_commit();
		wgmma_wait<WAIT>();
		fence_acc(d);
		if (WAIT == 0)
			mbar_arrive(empty(s));
		else if (kt > 0)
			mbar_arrive(empty((kt + STAGES - 1) % STAGES));
	}
	wgmma_wait<0>();
	fence_acc(d);

	// Accumulator 4 j + e: row 16 warp + lane / 4 (+ 8 for e >= 2), columns
	// 8 j + 2 (lane % 4) + {0, 1}, as mma.sync's m16n8 tiles side by side.
	const int warp = tid / 32, lane = tid % 32;
	const int r0 = bm + 64 * wg + 16 * warp + lane / 4, c0 = bn + 2 * (lane % 4);
#pragma unroll
	for (int j = 0; j < 32; j++)
#pragma unroll
		for (int h = 0; h < 2; h++)
			*reinterpret_cast<__half2 *>(C + static_cast<size_t>(r0 + 8 * h) * N + c0 + 8 * j) =
				__floats2half2_rn(d[4 * j + 2 * h], d[4 * j + 2 * h + 1]);
}

// Every element of one TMA box against the global matrix, read back
// through the generated index function: proves on the GPU that the engine
// writes the layout bankc's header describes.  One block; *bad counts
// differing elements.
template <int ROWS>
__global__ void tma_layout_probe(const __grid_constant__ CUtensorMap map, const __half *__restrict__ g, int K,
				 int (*idx)(int, int), unsigned *bad)
{
	extern __shared__ __align__(1024) unsigned char smem[];
	const uint32_t base = (smem_addr(smem) + 1023) & ~1023u, bar = base + ROWS * BK * 2;
	const __half *tile = reinterpret_cast<const __half *>(smem + (base - smem_addr(smem)));
	if (threadIdx.x == 0) {
		mbar_init(bar, 1);
		asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
	}
	__syncthreads();
	if (threadIdx.x == 0) {
		mbar_expect_tx(bar, ROWS * BK * 2);
		tma_load(base, &map, BK, ROWS, bar);	// the box at (row ROWS, column BK)
	}
	mbar_wait(bar, 0);
	unsigned n = 0;
	for (int i = threadIdx.x; i < ROWS * BK; i += blockDim.x) {
		const int r = i / BK, c = i % BK;
		n += __half_as_ushort(tile[idx(r, c)]) != __half_as_ushort(g[static_cast<size_t>(ROWS + r) * K + BK + c]);
	}
	atomicAdd(bad, n);
}

__device__ int a_idx(int r, int c) { return HGW_A_IDX(r, c); }
__device__ int b_idx(int r, int c) { return HGW_B_IDX(r, c); }
__device__ int (*const a_idx_ptr)(int, int) = a_idx;
__device__ int (*const b_idx_ptr)(int, int) = b_idx;

// A row-major rows x K f16 matrix as a TMA map of box_rows x BK boxes, in
// the tile's swizzle.
CUtensorMap make_map(const __half *p, int rows, int K, int box_rows, CUtensorMapSwizzle swizzle)
{
	static PFN_cuTensorMapEncodeTiled_v12000 encode = [] {
		void *f = nullptr;
		cudaDriverEntryPointQueryResult q;
		CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &q));
		if (!f || q != cudaDriverEntryPointSuccess) {
			std::fprintf(stderr, "hgemm_wgmma: the driver has no cuTensorMapEncodeTiled\n");
			std::exit(1);
		}
		return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(f);
	}();
	CUtensorMap m;
	const cuuint64_t dims[2] = {static_cast<cuuint64_t>(K), static_cast<cuuint64_t>(rows)};
	const cuuint64_t strides[1] = {static_cast<cuuint64_t>(K) * 2};
	const cuuint32_t box[2] = {BK, static_cast<cuuint32_t>(box_rows)}, step[2] = {1, 1};
	const CUresult r = encode(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, const_cast<__half *>(p), dims, strides, box, step,
				  CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
				  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
	if (r != CUDA_SUCCESS) {
		std::fprintf(stderr, "hgemm_wgmma: cuTensorMapEncodeTiled failed (%d)\n", static_cast<int>(r));
		std::exit(1);
	}
	return m;
}

// M multiple of 128, N of 256, K of 64 (the kernel has no edge tiles).
// The tensor maps are encoded on
// every call: microseconds of host time, hidden behind the asynchronous
// launches of the timing loop; a library would keep them per operand.
template <int WAIT> void hgemm_wgmma(int M, int N, int K, const __half *A, const __half *B, __half *C)
{
	static bool once = [] {
		CUDA_CHECK(cudaFuncSetAttribute(hgemm_wgmma_tile<WAIT>, cudaFuncAttributeMaxDynamicSharedMemorySize,
						static_cast<int>(SMEM_BYTES)));
		return true;
	}();
	(void)once;
	require_multiples("hgemm_wgmma", M, N, K, BM, BN, BK);
	const CUtensorMap ma = make_map(A, M, K, BM, HGW_A_TMA_SWIZZLE), mb = make_map(B, N, K, BN, HGW_B_TMA_SWIZZLE);
	hgemm_wgmma_tile<WAIT><<<(M / BM) * (N / BN), THREADS, SMEM_BYTES>>>(M, N, K, ma, mb, C);
}

// Differing elements of one A box and one B box against HGW_*_IDX.  The
// boxes are the second ones down and across, so that a layout that ignored
// the row or the column could not pass by luck.
unsigned probe_layouts(const __half *A, const __half *B, int M, int N, int K)
{
	if (M < 2 * BM || N < 2 * BN || K < 2 * BK) {
		std::fprintf(stderr, "hgemm_wgmma: the layout probe needs M >= %d, N >= %d, K >= %d\n", 2 * BM, 2 * BN, 2 * BK);
		std::exit(2);
	}
	unsigned *bad, n = 0;
	int (*ia)(int, int), (*ib)(int, int);
	CUDA_CHECK(cudaMemcpyFromSymbol(&ia, a_idx_ptr, sizeof ia));
	CUDA_CHECK(cudaMemcpyFromSymbol(&ib, b_idx_ptr, sizeof ib));
	CUDA_CHECK(cudaMalloc(&bad, sizeof *bad));
	CUDA_CHECK(cudaMemset(bad, 0, sizeof *bad));
	const size_t sa = BM * BK * 2 + 8 + 1024, sb = BN * BK * 2 + 8 + 1024;
	CUDA_CHECK(cudaFuncSetAttribute(tma_layout_probe<BM>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(sa)));
	CUDA_CHECK(cudaFuncSetAttribute(tma_layout_probe<BN>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(sb)));
	tma_layout_probe<BM><<<1, 256, sa>>>(make_map(A, M, K, BM, HGW_A_TMA_SWIZZLE), A, K, ia, bad);
	tma_layout_probe<BN><<<1, 256, sb>>>(make_map(B, N, K, BN, HGW_B_TMA_SWIZZLE), B, K, ib, bad);
	LAUNCH_CHECK();
	CUDA_CHECK(cudaMemcpy(&n, bad, sizeof n, cudaMemcpyDeviceToHost));
	CUDA_CHECK(cudaFree(bad));
	return n;
}

int main(int argc, char **argv)
{
	const bench::Args args(argc, argv);
	if (args.profile)
		return profile_once(args, hgemm_wgmma<1>);
	bench::print_device();
	bench::Table table(args.csv);
	cublasHandle_t blas;
	CUBLAS_CHECK(cublasCreate(&blas));

	for (int n : bench::gemm_sizes(args)) {
		const Problem p(n);
		const int M = p.M, N = p.N, K = p.K;
		const float one = 1, zero = 0;

		const unsigned off = probe_layouts(p.A, p.Bt, M, N, K);
		table.add({"hgemm", "TMA boxes against HGW_*_IDX", p.size, "-", off == 0 ? "ok" : "FAIL", 0, 0, "", 0,
			   static_cast<double>(off)});

		// Row-major C = A Bt^T is column-major C^T = Bt A^T: Bt's buffer
		// is column-major Bt^T (K x N), transposed by the first operand.
		// The same product with B = Bt^T (K x N, row-major) is cuBLAS's
		// no-transpose order; both are timed and the faster is the mark.
		auto blas_tn = [&] {
			CUBLAS_CHECK(cublasGemmEx(blas, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &one, p.Bt, CUDA_R_16F, K, p.A, CUDA_R_16F,
						  K, &zero, p.R, CUDA_R_16F, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
		};
		auto blas_nn = [&] {
			CUBLAS_CHECK(cublasGemmEx(blas, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, p.B, CUDA_R_16F, N, p.A, CUDA_R_16F,
						  K, &zero, p.C, CUDA_R_16F, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
		};
		CUDA_CHECK(cudaMemset(p.R, 0xff, p.nc * 2));
		CUDA_CHECK(cudaMemset(p.C, 0xff, p.nc * 2));
		blas_tn();
		blas_nn();
		CUDA_CHECK(cudaDeviceSynchronize());
		const double ref_err = sample_err(p.A, p.Bt, 1, K, p.R, M, N, K);	// f16 output rounding: ~3e-4
		const double nn_err = rel_err(p.C, p.R, p.nc, N);
		const double ms_tn = bench::median_ms(blas_tn), ms_nn = bench::median_ms(blas_nn);
		const double ref_tf = p.flop / (std::min(ms_tn, ms_nn) * 1e9);
		table.add({"hgemm", "cublasGemmEx f16 A B^T", p.size, "TFLOP/s", ref_err < 1e-2 ? "ok" : "FAIL", ms_tn,
			   p.flop / (ms_tn * 1e9), "", 0, ref_err});
		table.add({"hgemm", "cublasGemmEx f16 A B", p.size, "TFLOP/s", nn_err < 1e-2 ? "ok" : "FAIL", ms_nn,
			   p.flop / (ms_nn * 1e9), "", 0, nn_err});

		time_checked(table, "bankc wgmma 128x256x64 s4 w1", hgemm_wgmma<1>, M, N, K, p.A, p.Bt, p.C, p.R, ref_tf);
		time_checked(table, "bankc wgmma 128x256x64 s4 w0", hgemm_wgmma<0>, M, N, K, p.A, p.Bt, p.C, p.R, ref_tf);
	}
	CUBLAS_CHECK(cublasDestroy(blas));
	return table.finish();
}
