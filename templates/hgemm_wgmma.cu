// hgemm_wgmma.cu: the Hopper GEMM of bankc's library (bankc::gemm and
// bankc::gemm_ab, include/bankc/gemm.cuh, called as a user calls them),
// f16 and bf16 in, f32 accumulate, and its benchmark against
// cublasGemmEx.  Needs sm_90a (wgmma, setmaxnreg).
//
// C = A B^T: A is M x K and B is N x K, both row-major (K contiguous, the
// layout wgmma reads without a transpose; the weights of a linear layer are
// stored this way); bankc::gemm_ab: C = A B with B K x N row-major.  Rows:
//
// - bankc::gemm with C in the input's type against cublasGemmEx in the
//   faster of its two B orders, with C in f32 against cublasGemmEx with
//   an f32 C, and bankc::gemm_ab against cublasGemmEx's A B; at 4096^3,
//   8192^3 and on shapes whose M and N are not multiples of the tile
//   (4097^3, 1000 x 999 x 136: rows padded to 16 bytes as TMA needs, the
//   same for cuBLAS), then the shapes users run (M = N = 4096 over K, a
//   tall and a flat one);
// - on the cubes, the library's kernel in the other cluster size and
//   (--explore) the variants its configuration was chosen from
//   (gemm_sm90.cuh), and below the first Hopper kernel, kept as the
//   fallback: one 128 x 256 block per output tile, three warpgroups (one
//   producer issuing TMA copies into a ring of four stages, two consumers
//   of wgmma.m64n256k16), full and empty mbarriers per stage, the outputs
//   written from the accumulators straight to global memory.
//
// Neither operand tile is indexed by a thread: the TMA engine writes the
// tiles (hgw_a, hgw_b, hgw_bn) in the swizzle bankc chose
// (NAME_TMA_SWIZZLE) and wgmma reads them through descriptors that name
// the same swizzle, so the layout bankc chose is the one that runs.
#include "gemm_sm90.cuh"

using gemm90::EpiC128;
using gemm90::EpiC256;
using gemm90::GROUP_ROWS;
using gemm90::InBF16;
using gemm90::InF16;
using gemm90::InF16N;
using gemm90::Template;
using gemm90::Variant;
using gemm90::variants;

// ---- the first kernel: one block per tile ------------------------------------

namespace first {

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

// WAIT: wgmma groups left in flight when a k-tile's stage is released (0:
// each k-tile completes before the next is issued; 1: the next k-tile's
// wgmma is issued first and the previous stage released after it).
template <int WAIT>
__global__ void __launch_bounds__(THREADS, 1)
	hgemm_wgmma_tile(int M, int N, int K, const __grid_constant__ CUtensorMap map_a,
			 const __grid_constant__ CUtensorMap map_b, __half *__restrict__ C)
{
	using namespace bankc::detail::sm90;
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
		fence_mbar_init();
	}
	__syncthreads();

	if (wg == CONSUMERS) {
		// Producer: few registers, one thread.
		setmaxnreg_dec<40>();
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
	setmaxnreg_inc<232>();
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
			wgmma_f16(d, kmajor_desc<HGW_A_TMA_SWIZZLE>(a + 32 * kk), kmajor_desc<HGW_B_TMA_SWIZZLE>(b + 32 * kk), 1);
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

// M multiple of 128, N of 256, K of 64.
template <int WAIT> void hgemm_wgmma(int M, int N, int K, const __half *A, const __half *B, __half *C)
{
	static bool once = [] {
		CUDA_CHECK(cudaFuncSetAttribute(hgemm_wgmma_tile<WAIT>, cudaFuncAttributeMaxDynamicSharedMemorySize,
						static_cast<int>(SMEM_BYTES)));
		return true;
	}();
	(void)once;
	require_multiples("hgemm_wgmma", M, N, K, BM, BN, BK);
	const CUtensorMap ma = gemm90::map_of(A, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, M, K, BM, BK, HGW_A_TMA_SWIZZLE);
	const CUtensorMap mb = gemm90::map_of(B, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, N, K, BN, BK, HGW_B_TMA_SWIZZLE);
	hgemm_wgmma_tile<WAIT><<<(M / BM) * (N / BN), THREADS, SMEM_BYTES>>>(M, N, K, ma, mb, C);
}

} // namespace first

// ---- the benchmark ----------------------------------------------------------

struct Ctx {
	bench::Table &table;
	cublasHandle_t blas;
	bool explore;
};

template <class T> cudaDataType_t blas_type();
template <> cudaDataType_t blas_type<__half>() { return CUDA_R_16F; }
template <> cudaDataType_t blas_type<__nv_bfloat16>() { return CUDA_R_16BF; }
template <> cudaDataType_t blas_type<float>() { return CUDA_R_32F; }

// Row-major C = A Bt^T is column-major C^T = Bt A^T: Bt's buffer is
// column-major Bt^T (K x N), transposed by the first operand.  The same
// product with B = Bt^T (K x N, row-major) is cuBLAS's no-transpose
// order.  C of type Out (the input type or f32).
template <class T, class Out, class P> void blas_tn(cublasHandle_t h, const P &p, Out *C, int ldc)
{
	const float one = 1, zero = 0;
	CUBLAS_CHECK(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, p.N, p.M, p.K, &one, p.Bt, blas_type<T>(), p.lda, p.A,
				  blas_type<T>(), p.lda, &zero, C, blas_type<Out>(), ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}
template <class T, class Out, class P> void blas_nn(cublasHandle_t h, const P &p, Out *C, int ldc)
{
	const float one = 1, zero = 0;
	CUBLAS_CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, p.N, p.M, p.K, &one, p.B, blas_type<T>(), p.ldb_n, p.A,
				  blas_type<T>(), p.lda, &zero, C, blas_type<Out>(), ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

// One shape: cuBLAS in both B orders (the faster is the mark), then
// bankc::gemm, checked against cuBLAS's output before it is timed; C in
// f32 against cuBLAS with an f32 C; bankc::gemm_ab against cuBLAS's A B;
// on cubes also the variants and, for f16, the first kernel.
template <class In> void run_shape(Ctx &x, int M, int N, int K, bool cube)
{
	using T = typename In::T;
	static_assert(std::is_same<T, typename In::Out>::value, "16-bit in, the same type out");
	const std::string tn = std::string("cublasGemmEx ") + In::name + " A B^T", nn = std::string("cublasGemmEx ") + In::name + " A B";
	{
		const LibProblem<T, T> p(M, N, K, 8, true);
		p.poison();
		blas_tn<T>(x.blas, p, p.R, p.ldc);
		CUDA_CHECK(cudaDeviceSynchronize());
		// Output rounding against double: ~2e-4 for f16, ~1.5e-3 for bf16.
		const double ref_err = sample_err(p.A, p.lda, p.Bt, 1, p.lda, p.R, p.ldc, M, N, K);
		const double ms_tn = bench::median_ms([&] { blas_tn<T>(x.blas, p, p.R, p.ldc); });
		const double ms_nn = bench::median_ms([&] { blas_nn<T>(x.blas, p, p.C, p.ldc); });
		const double ref_tf = p.flop / (std::min(ms_tn, ms_nn) * 1e9), nn_tf = p.flop / (ms_nn * 1e9);
		const bench::Diff nn_diff = diff_2d(p.C, p.R, M, N, p.ldc);
		x.table.add(bench::Row{"hgemm", tn, p.size, "TFLOP/s", ref_err < 1e-2 ? "ok" : "FAIL", ms_tn,
				       p.flop / (ms_tn * 1e9), "", 0, ref_err});
		x.table.add(bench::Row{"hgemm", nn, p.size, "TFLOP/s", nn_diff.ok(1e-2) ? "ok" : "FAIL", ms_nn, nn_tf, "", 0,
				       nn_diff.rel});

		time_lib(x.table, "hgemm", std::string("bankc::gemm ") + In::name + ", C " + In::name, p, [&] {
			CUDA_CHECK(bankc::gemm(M, N, K, p.A, p.lda, p.Bt, p.lda, p.C, p.ldc));
		}, "cublas", ref_tf);
		time_lib(x.table, "hgemm", std::string("bankc::gemm_ab ") + In::name + " A B, C " + In::name, p, [&] {
			CUDA_CHECK(bankc::gemm_ab(M, N, K, p.A, p.lda, p.B, p.ldb_n, p.C, p.ldc));
		}, "cublas A B", nn_tf);

		if (cube)
			for (const Variant<In> &v : variants<In>(x.explore)) {
				const int group = std::max(1, v.group_rows / v.cluster);
				const bool persistent = v.persistent;
				auto f = [&](int m, int n, int k, const T *a, const T *b, T *c) { v.run(m, n, k, a, b, c, group, persistent); };
				time_checked_as(x.table, "hgemm", v.name, f, M, N, K, p.A, p.Bt, p.C, p.R, ref_tf);
			}
		if constexpr (std::is_same<In, InF16>::value)
			if (cube) {
				time_checked_as(x.table, "hgemm", "bankc wgmma f16 128x256x64 s4, one tile per block (first kernel) w1",
						first::hgemm_wgmma<1>, M, N, K, p.A, p.Bt, p.C, p.R, ref_tf);
				if (x.explore)
					time_checked_as(x.table, "hgemm", "bankc wgmma f16 128x256x64 s4, one tile per block (first kernel) w0",
							first::hgemm_wgmma<0>, M, N, K, p.A, p.Bt, p.C, p.R, ref_tf);
			}
	}
	{
		// C in f32, against cuBLAS with an f32 C
		const LibProblem<T, float> p(M, N, K, 8, false);
		p.poison();
		blas_tn<T>(x.blas, p, p.R, p.ldc);
		const double ms = bench::median_ms([&] { blas_tn<T>(x.blas, p, p.R, p.ldc); });
		x.table.add(bench::Row{"hgemm", tn + ", C f32", p.size, "TFLOP/s", "-", ms, p.flop / (ms * 1e9), "", 0, 0});
		time_lib(x.table, "hgemm", std::string("bankc::gemm ") + In::name + ", C f32", p, [&] {
			CUDA_CHECK(bankc::gemm(M, N, K, p.A, p.lda, p.Bt, p.lda, p.C, p.ldc));
		}, "cublas", p.flop / (ms * 1e9));
	}
}

// The layouts on the GPU, once: TMA's operand boxes against HGW_A_IDX,
// HGW_B_IDX and HGW_BN_IDX, and the staging tiles' TMA stores against
// HGW_C*_IDX (and the box formula).
void probe_layouts(bench::Table &table)
{
	const GemmProblem<__half, __half> p(512, 512, 512, false);
	const unsigned ops = gemm90::probe_operands<InF16>(p.A, p.Bt, p.M, p.N, p.K);
	table.add({"hgemm", "TMA boxes against HGW_A_IDX, HGW_B_IDX", "-", "-", ops == 0 ? "ok" : "FAIL", 0, 0, "", 0,
		   static_cast<double>(ops)});
	const unsigned bn = gemm90::probe_operands<InF16N>(p.A, p.Bt, p.M, p.N, p.K);
	table.add({"hgemm", "TMA boxes against HGW_A_IDX, HGW_BN_IDX", "-", "-", bn == 0 ? "ok" : "FAIL", 0, 0, "", 0,
		   static_cast<double>(bn)});
	const size_t c256 = gemm90::probe_staging<EpiC256>(), c128 = gemm90::probe_staging<EpiC128>();
	table.add({"hgemm", "TMA store of hgw_c256 against HGW_C256_IDX", "-", "-", c256 == 0 ? "ok" : "FAIL", 0, 0, "", 0,
		   static_cast<double>(c256)});
	table.add({"hgemm", "TMA store of hgw_c128 against HGW_C128_IDX", "-", "-", c128 == 0 ? "ok" : "FAIL", 0, 0, "", 0,
		   static_cast<double>(c128)});
}

int main(int argc, char **argv)
{
	const bench::Args args(argc, argv);
	if (args.profile) {
		// The library (f16, C f16) and the first kernel, once each.
		profile_once_as<__half, __half>(args, [](int m, int n, int k, const __half *a, const __half *b, __half *c) {
			CUDA_CHECK(bankc::gemm(m, n, k, a, k, b, k, c, n));
		});
		return profile_once(args, first::hgemm_wgmma<1>);
	}
	bench::print_device();
	bench::Table table(args.csv);
	Ctx x{table, nullptr, args.explore};
	CUBLAS_CHECK(cublasCreate(&x.blas));
	gemm90::require_sm90a<Template<InF16>>();
	probe_layouts(table);

	for (int n : bench::gemm_sizes(args)) {
		run_shape<InF16>(x, n, n, n, true);
		run_shape<InBF16>(x, n, n, n, true);
	}
	// M and N not multiples of the tile; then the shapes users run, for
	// the library only: M = N = 4096 over K, a tall and a flat one.
	const int ragged[][3] = {{4097, 4097, 4097}, {1000, 999, 136}};
	for (const auto &s : ragged) {
		run_shape<InF16>(x, s[0], s[1], s[2], false);
		run_shape<InBF16>(x, s[0], s[1], s[2], false);
	}
	if (!args.quick && !args.explore) {
		const int shapes[][3] = {{4096, 4096, 1024},  {4096, 4096, 2048}, {4096, 4096, 8192},
					 {4096, 4096, 16384}, {8192, 1024, 8192}, {16384, 16384, 1024}};
		for (const auto &s : shapes)
			run_shape<InF16>(x, s[0], s[1], s[2], false);
		for (const auto &s : shapes)
			run_shape<InBF16>(x, s[0], s[1], s[2], false);
	}
	CUBLAS_CHECK(cublasDestroy(x.blas));
	return table.finish();
}
