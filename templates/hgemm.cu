// hgemm.cu: tensor-core GEMM, f16 in, f32 accumulate, f16 out, on
// bankc-generated swizzled tiles (specs/templates.tile: hg128k32_a,
// hg128k32_b), and its benchmark against cublasGemmEx.
//
// C = A B, all row-major: A is M x K (K contiguous), B is K x N (N
// contiguous).  128 x 128 blocks of 4 warps, each a 64 x 64 warp tile of
// mma.sync.m16n8k16; 255 registers, so two blocks per SM.  cp.async fills
// each of the four stages 16 bytes per thread in row-major vector order;
// ldmatrix.x4 reads A's 16 x 16 fragments and ldmatrix.x4.trans B's, two
// n8 tiles at a time.  The pipeline is CUTLASS's multistage one: three
// k-tiles in flight, one barrier per k-tile, fragments double-buffered in
// registers so that each k16 step's ldmatrix overlaps the previous step's
// mma.  Every shared-memory offset comes from the generated NAME_SIDX; the
// per-thread offsets stay loop-invariant, so the compiler hoists them and
// the swizzle costs nothing inside the loop.
#include "hgemm_host.cuh"

#include "hg128k32_a.cuh"
#include "hg128k32_b.cuh"

struct Hg {
	static constexpr int BN = HG128K32_B_COLS, BK = HG128K32_A_COLS, STAGES = HG128K32_A_STAGES;
	static constexpr int THREADS = 32 * 2 * (BN / 64);
	static constexpr int A_BYTES = HG128K32_A_BYTES, B_BYTES = HG128K32_B_BYTES;
	static __device__ __forceinline__ int a(int s, int r, int c) { return HG128K32_A_SIDX(s, r, c); }
	static __device__ __forceinline__ int b(int s, int r, int c) { return HG128K32_B_SIDX(s, r, c); }
	static_assert(HG128K32_A_ROWS == 128 && HG128K32_B_ROWS == BK, "A: 128 x BK, B: BK x BN");
	static_assert(HG128K32_B_STAGES == STAGES, "one pipeline");
	static_assert(HG128K32_A_ELEM_BYTES == 2 && HG128K32_B_ELEM_BYTES == 2, "f16");
	static_assert(HG128K32_A_ALIGN <= 128 && HG128K32_B_ALIGN <= 128 && A_BYTES % 128 == 0, "alignment");
};

constexpr int BM = 128, GROUP_M = 16;

__device__ __forceinline__ uint32_t smem_addr(const void *p)
{
	return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void cp_async16(uint32_t dst, const void *src)
{
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src) : "memory");
}

__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

template <int N> __device__ __forceinline__ void cp_async_wait()
{
	asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t addr)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
		     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
		     : "r"(addr));
}

__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t (&r)[4], uint32_t addr)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
		     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
		     : "r"(addr));
}

__device__ __forceinline__ void mma16816(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1)
{
	asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
	    "{%0, %1, %2, %3};\n"
	    : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
	    : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

template <class L>
__global__ void __launch_bounds__(L::THREADS, 2)
	hgemm_tile(int M, int N, int K, const __half *__restrict__ A, const __half *__restrict__ B, __half *__restrict__ C)
{
	constexpr int BN = L::BN, BK = L::BK, S = L::STAGES, KS = BK / 16, THREADS = L::THREADS, WN = BN / 64;
	constexpr int AV = BM * BK / 8 / THREADS, BV = BK * BN / 8 / THREADS;	// 16-byte copies per thread
	constexpr int AVR = BK / 8, BVR = BN / 8;				// 16-byte vectors per row
	static_assert(KS >= 2 && AV * THREADS * 8 == BM * BK && BV * THREADS * 8 == BK * BN, "tile shape");
	extern __shared__ __align__(128) unsigned char smem[];
	__half *sA = reinterpret_cast<__half *>(smem);
	__half *sB = reinterpret_cast<__half *>(smem + L::A_BYTES);

	// Grouped order: GROUP_M block rows share the B panels in L2.
	const int tiles_m = M / BM, tiles_n = N / BN;
	const int pid = blockIdx.x, group = GROUP_M * tiles_n;
	const int first_m = pid / group * GROUP_M, gm = min(tiles_m - first_m, GROUP_M);
	const int bm = (first_m + pid % group % gm) * BM, bn = pid % group / gm * BN;

	const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
	const int wm = warp / WN, wn = warp % WN;
	const __half *gA = A + static_cast<size_t>(bm) * K;
	const __half *gB = B + bn;

	// k-tile kt into stage s (its own commit group).
	auto load_stage = [&](int s, int kt) {
		const int k0 = kt * BK;
#pragma unroll
		for (int j = 0; j < AV; j++) {
			const int q = tid + j * THREADS, r = q / AVR, c = q % AVR * 8;
			cp_async16(smem_addr(sA + L::a(s, r, c)), gA + static_cast<size_t>(r) * K + k0 + c);
		}
#pragma unroll
		for (int j = 0; j < BV; j++) {
			const int q = tid + j * THREADS, r = q / BVR, c = q % BVR * 8;
			cp_async16(smem_addr(sB + L::b(s, r, c)), gB + static_cast<size_t>(k0 + r) * N + c);
		}
	};
	// Fragments of k16 step ks: a[mi] for rows 64 wm + 16 mi, b[nj] for
	// columns 64 wn + 16 nj (two n8 tiles: {b[nj][0], b[nj][1]} and
	// {b[nj][2], b[nj][3]}).
	uint32_t fa[2][4][4], fb[2][4][4];
	auto load_frag = [&](int buf, int s, int ks) {
#pragma unroll
		for (int mi = 0; mi < 4; mi++)
			ldmatrix_x4(fa[buf][mi], smem_addr(sA + L::a(s, 64 * wm + 16 * mi + lane % 16, 16 * ks + 8 * (lane / 16))));
#pragma unroll
		for (int nj = 0; nj < 4; nj++)
			ldmatrix_x4_trans(fb[buf][nj], smem_addr(sB + L::b(s, 16 * ks + lane % 16, 64 * wn + 16 * nj + 8 * (lane / 16))));
	};

	float acc[4][8][4];
#pragma unroll
	for (int mi = 0; mi < 4; mi++)
#pragma unroll
		for (int ni = 0; ni < 8; ni++)
#pragma unroll
			for (int e = 0; e < 4; e++)
				acc[mi][ni][e] = 0.0f;

	const int nk = K / BK;
#pragma unroll
	for (int s = 0; s < S - 1; s++) {
		if (s < nk)
			load_stage(s, s);
		cp_async_commit();
	}
	cp_async_wait<S - 2>();
	__syncthreads();

	// One k-tile: kt in stage rs; tile kt + S - 1 goes into stage ws, which
	// held tile kt - 1, whose last reads were before the previous barrier.
	// The barrier at step KS - 2 publishes tile kt + 1 (stage rs1), whose
	// first fragments are loaded during the last step.
	auto k_tile = [&](int kt, int rs, int rs1, int ws) {
#pragma unroll
		for (int ks = 0; ks < KS; ks++) {
			const int cur = ks & 1;
			if (ks < KS - 1)
				load_frag(cur ^ 1, rs, ks + 1);
			else if (kt + 1 < nk)
				load_frag(cur ^ 1, rs1, 0);
			if (ks == 0 && kt + S - 1 < nk)
				load_stage(ws, kt + S - 1);
			if (ks == KS - 2) {
				cp_async_commit();
				cp_async_wait<S - 2>();	// tile kt + 1 has landed
				__syncthreads();
			}
#pragma unroll
			for (int mi = 0; mi < 4; mi++)
#pragma unroll
				for (int ni = 0; ni < 8; ni++)
					mma16816(acc[mi][ni], fa[cur][mi], fb[cur][ni / 2][2 * (ni % 2)], fb[cur][ni / 2][2 * (ni % 2) + 1]);
		}
	};
	// (Unrolling this loop by S, to make the stage indices constants,
	// measured slower: 378 against 397 TFLOP/s at 8192^3.)
	load_frag(0, 0, 0);
	for (int kt = 0, rs = 0; kt < nk; kt++, rs = rs + 1 == S ? 0 : rs + 1)
		k_tile(kt, rs, rs + 1 == S ? 0 : rs + 1, rs == 0 ? S - 1 : rs - 1);
	cp_async_wait<0>();

	// Accumulator e of tile (mi, ni): row g (+8 for e >= 2), columns 2t, 2t + 1.
	const int g = lane / 4, t = lane % 4;
#pragma unroll
	for (int mi = 0; mi < 4; mi++)
#pragma unroll
		for (int ni = 0; ni < 8; ni++)
#pragma unroll
			for (int h = 0; h < 2; h++) {
				const int r = bm + 64 * wm + 16 * mi + g + 8 * h, c = bn + 64 * wn + 8 * ni + 2 * t;
				*reinterpret_cast<__half2 *>(C + static_cast<size_t>(r) * N + c) =
					__floats2half2_rn(acc[mi][ni][2 * h], acc[mi][ni][2 * h + 1]);
			}
}

// M, N multiples of 128, K of 32.
void hgemm(int M, int N, int K, const __half *A, const __half *B, __half *C)
{
	constexpr int bytes = Hg::A_BYTES + Hg::B_BYTES;
	static bool once = [] {
		CUDA_CHECK(cudaFuncSetAttribute(hgemm_tile<Hg>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
		return true;
	}();
	(void)once;
	require_multiples("hgemm", M, N, K, BM, Hg::BN, Hg::BK);
	hgemm_tile<Hg><<<(M / BM) * (N / Hg::BN), Hg::THREADS, bytes>>>(M, N, K, A, B, C);
}

// The instruction's own ceiling: every warp issues mma.sync.m16n8k16
// back to back on fragments held in registers (random f16 values; 8
// independent accumulators, so that no mma waits for the one before), no
// memory traffic at all.  What this reaches is the most any mma.sync
// kernel can reach on this GPU.
__global__ void __launch_bounds__(128) mma_sync_ceiling(float *out, int iters, uint64_t seed)
{
	uint32_t a[4], b[2];
	for (int i = 0; i < 4; i++)
		a[i] = static_cast<uint32_t>(bench::hash(seed, 6 * threadIdx.x + i)) & 0x3bff3bffu;	// |x| < 1
	for (int i = 0; i < 2; i++)
		b[i] = static_cast<uint32_t>(bench::hash(seed, 6 * threadIdx.x + 4 + i)) & 0x3bff3bffu;
	float c[8][4] = {};
	for (int it = 0; it < iters; it++)
#pragma unroll
		for (int j = 0; j < 8; j++)
			mma16816(c[j], a, b[0], b[1]);
	float s = 0;
	for (int j = 0; j < 8; j++)
		s += c[j][0] + c[j][1] + c[j][2] + c[j][3];
	out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// TFLOP/s of mma_sync_ceiling with 4 warps per block and `blocks_per_sm`
// blocks on every SM.
double mma_sync_peak(int blocks_per_sm)
{
	int sms = 0;
	CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	const int blocks = sms * blocks_per_sm, iters = 4096;
	float *out;
	CUDA_CHECK(cudaMalloc(&out, static_cast<size_t>(blocks) * 128 * sizeof(float)));
	const double ms = bench::median_ms([&] { mma_sync_ceiling<<<blocks, 128>>>(out, iters, 5); });
	CUDA_CHECK(cudaFree(out));
	return 2.0 * 16 * 8 * 16 * 8 * iters * 4.0 * blocks / (ms * 1e9);
}

int main(int argc, char **argv)
{
	const bench::Args args(argc, argv);
	if (args.profile)
		return profile_once(args, hgemm);
	bench::print_device();
	bench::Table table(args.csv);
	cublasHandle_t blas;
	CUBLAS_CHECK(cublasCreate(&blas));

	for (int n : bench::gemm_sizes(args)) {
		const Problem p(n);
		const int M = p.M, N = p.N, K = p.K;
		const float one = 1, zero = 0;
		// Row-major C = A B is column-major C^T = B^T A^T.
		auto blas_gemm = [&] {
			CUBLAS_CHECK(cublasGemmEx(blas, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, p.B, CUDA_R_16F, N, p.A, CUDA_R_16F,
						  K, &zero, p.R, CUDA_R_16F, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
		};
		CUDA_CHECK(cudaMemset(p.R, 0xff, p.nc * 2));
		blas_gemm();
		CUDA_CHECK(cudaDeviceSynchronize());
		const double ref_err = sample_err(p.A, K, p.B, N, 1, p.R, N, M, N, K);	// f16 output rounding: ~3e-4
		const double ms_ref = bench::median_ms(blas_gemm);
		const double ref_tf = p.flop / (ms_ref * 1e9);
		table.add({"hgemm", "cublasGemmEx f16, f32 acc", p.size, "TFLOP/s", ref_err < 1e-2 ? "ok" : "FAIL", ms_ref,
			   ref_tf, "", 0, ref_err});

		time_checked(table, "bankc hgemm 128x128x32 s4", hgemm, M, N, K, p.A, p.B, p.C, p.R, ref_tf);
		if (n == bench::gemm_sizes(args).back())
			for (int per_sm : {2, 4}) {
				const double tf = mma_sync_peak(per_sm);
				table.add({"hgemm", "mma.sync m16n8k16 from registers, " + std::to_string(4 * per_sm) + " warps/SM",
					   "-", "TFLOP/s", "-", 0, tf, "cublas", ref_tf, 0});
			}
	}
	CUBLAS_CHECK(cublasDestroy(blas));
	return table.finish();
}
