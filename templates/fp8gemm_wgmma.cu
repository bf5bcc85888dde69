// fp8gemm_wgmma.cu: the persistent Hopper GEMM of gemm_sm90.cuh with FP8
// inputs (e4m3), f32 accumulation and bf16 output, on bankc's tiles f8w_a,
// f8w_b (k-tiles of 128 one-byte elements: 128-byte rows) and the staging
// tile of the f16 GEMM, and its benchmark against cublasLtMatmul's FP8
// path.  Needs sm_90a.
//
// C = A B^T with A (M x K) and B (N x K) both K-major: the only operand
// order wgmma (and cuBLASLt) takes for 8-bit inputs.  The kernel adds
// every k32 product into its wgmma accumulators for the whole K, which is
// what cuBLASLt calls fast accumulation (CUBLASLT_MATMUL_DESC_FAST_ACCUM);
// cuBLASLt is timed with it and without it (then it adds partial sums into
// a separate f32 accumulator now and then, slower and more precise), and
// the faster is the mark.
#include "gemm_sm90.cuh"

#include <cublasLt.h>

using gemm90::InE4M3;
using gemm90::Template;
using gemm90::Variant;
using gemm90::variants;

#define CUBLASLT_CHECK(x) CUBLAS_CHECK(x)

using Fp8 = __nv_fp8_e4m3;
using Bf16 = __nv_bfloat16;

// cuBLASLt's FP8 GEMM of the same product into D (bf16), fast
// accumulation on or off; the algorithm its heuristic ranks first.
class LtFp8 {
      public:
	LtFp8(cublasLtHandle_t lt, int M, int N, int K, bool fast, void *ws, size_t ws_bytes)
		: lt_(lt), ws_(ws), ws_bytes_(ws_bytes)
	{
		CUBLASLT_CHECK(cublasLtMatmulDescCreate(&op_, CUBLAS_COMPUTE_32F, CUDA_R_32F));
		const cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
		const int8_t f = fast ? 1 : 0;
		CUBLASLT_CHECK(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
		CUBLASLT_CHECK(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
		CUBLASLT_CHECK(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &f, sizeof f));
		// Row-major C = A Bt^T is column-major C^T (N x M) = Bt A^T: the
		// first operand is Bt's buffer as a column-major K x N matrix,
		// transposed; the second A's as a column-major K x M one.
		CUBLASLT_CHECK(cublasLtMatrixLayoutCreate(&la_, CUDA_R_8F_E4M3, K, N, K));
		CUBLASLT_CHECK(cublasLtMatrixLayoutCreate(&lb_, CUDA_R_8F_E4M3, K, M, K));
		CUBLASLT_CHECK(cublasLtMatrixLayoutCreate(&lc_, CUDA_R_16BF, N, M, N));
		cublasLtMatmulPreference_t pref;
		CUBLASLT_CHECK(cublasLtMatmulPreferenceCreate(&pref));
		CUBLASLT_CHECK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws_bytes_,
								    sizeof ws_bytes_));
		int found = 0;
		CUBLASLT_CHECK(cublasLtMatmulAlgoGetHeuristic(lt_, op_, la_, lb_, lc_, lc_, pref, 1, &heur_, &found));
		CUBLASLT_CHECK(cublasLtMatmulPreferenceDestroy(pref));
		if (found < 1) {
			std::fprintf(stderr, "fp8gemm: cuBLASLt has no FP8 algorithm for %d x %d x %d\n", M, N, K);
			std::exit(1);
		}
	}
	~LtFp8()
	{
		cublasLtMatrixLayoutDestroy(la_);
		cublasLtMatrixLayoutDestroy(lb_);
		cublasLtMatrixLayoutDestroy(lc_);
		cublasLtMatmulDescDestroy(op_);
	}
	LtFp8(const LtFp8 &) = delete;
	LtFp8 &operator=(const LtFp8 &) = delete;
	void operator()(const Fp8 *A, const Fp8 *Bt, Bf16 *D) const
	{
		const float one = 1, zero = 0;
		CUBLASLT_CHECK(cublasLtMatmul(lt_, op_, &one, Bt, la_, A, lb_, &zero, D, lc_, D, lc_, &heur_.algo, ws_, ws_bytes_,
					      nullptr));
	}

      private:
	cublasLtHandle_t lt_;
	void *ws_;
	size_t ws_bytes_;
	cublasLtMatmulDesc_t op_;
	cublasLtMatrixLayout_t la_, lb_, lc_;
	cublasLtMatmulHeuristicResult_t heur_ = {};
};

struct Ctx {
	bench::Table &table;
	cublasLtHandle_t lt;
	void *ws;
	size_t ws_bytes;
	bool explore;
};

void run_shape(Ctx &x, int M, int N, int K)
{
	const GemmProblem<Fp8, Bf16> p(M, N, K, false);
	const LtFp8 precise(x.lt, M, N, K, false, x.ws, x.ws_bytes), fast(x.lt, M, N, K, true, x.ws, x.ws_bytes);
	// R: the precise result, the reference of every check; C: the fast one.
	CUDA_CHECK(cudaMemset(p.R, 0xff, p.nc * 2));
	CUDA_CHECK(cudaMemset(p.C, 0xff, p.nc * 2));
	precise(p.A, p.Bt, p.R);
	fast(p.A, p.Bt, p.C);
	CUDA_CHECK(cudaDeviceSynchronize());
	// Against double: the bf16 rounding of the output, ~1.5e-3.
	const double ref_err = sample_err(p.A, p.Bt, 1, K, p.R, M, N, K);
	const bench::Diff fast_diff = diff_of(p.C, p.R, p.nc, N);
	const double ms_p = bench::median_ms([&] { precise(p.A, p.Bt, p.R); });
	const double ms_f = bench::median_ms([&] { fast(p.A, p.Bt, p.C); });
	const double ref_tf = p.flop / (std::min(ms_p, ms_f) * 1e9);
	const std::string ok_p = ref_err < 1e-2 ? "ok" : "FAIL", ok_f = fast_diff.ok(1e-2) ? "ok" : "FAIL";
	x.table.add(bench::Row{"fp8gemm", "cublasLtMatmul e4m3, bf16 out", p.size, "TFLOP/s", ok_p, ms_p,
			       p.flop / (ms_p * 1e9), "", 0, ref_err});
	x.table.add(bench::Row{"fp8gemm", "cublasLtMatmul e4m3, bf16 out, fast accumulation", p.size, "TFLOP/s", ok_f,
			       ms_f, p.flop / (ms_f * 1e9), "", 0, fast_diff.rel});
	for (const Variant<InE4M3> &v : variants<InE4M3>(x.explore)) {
		const int group = std::max(1, v.group_rows / v.cluster);
		const bool persistent = v.persistent;
		auto f = [&](int m, int n, int k, const Fp8 *a, const Fp8 *b, Bf16 *c) { v.run(m, n, k, a, b, c, group, persistent); };
		time_checked_as(x.table, "fp8gemm", v.name, f, M, N, K, p.A, p.Bt, p.C, p.R, ref_tf);
	}
}

int main(int argc, char **argv)
{
	const bench::Args args(argc, argv);
	if (args.profile)
		return profile_once_as<Fp8, Bf16>(args, [](int m, int n, int k, const Fp8 *a, const Fp8 *b, Bf16 *c) {
			Template<InE4M3>::run(m, n, k, a, b, c, gemm90::GROUP_ROWS / Template<InE4M3>::cluster, true);
		});
	bench::print_device();
	bench::Table table(args.csv);
	{
		const GemmProblem<Fp8, Bf16> p(512, 512, 512, false);
		const unsigned ops = gemm90::probe_operands<InE4M3>(p.A, p.Bt, p.M, p.N, p.K);
		table.add({"fp8gemm", "TMA boxes against F8W_A_IDX, F8W_B_IDX", "-", "-", ops == 0 ? "ok" : "FAIL", 0, 0, "", 0,
			   static_cast<double>(ops)});
	}
	Ctx x{table, nullptr, nullptr, 64u << 20, args.explore};
	CUBLASLT_CHECK(cublasLtCreate(&x.lt));
	CUDA_CHECK(cudaMalloc(&x.ws, x.ws_bytes));
	for (int n : bench::gemm_sizes(args))
		run_shape(x, n, n, n);
	CUDA_CHECK(cudaFree(x.ws));
	CUBLASLT_CHECK(cublasLtDestroy(x.lt));
	return table.finish();
}
