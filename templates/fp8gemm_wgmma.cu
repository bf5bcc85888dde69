// fp8gemm_wgmma.cu: bankc::gemm (include/bankc/gemm.cuh, called as a user
// calls it) with FP8 inputs (e4m3), f32 accumulation and a bf16 or f32 C,
// on bankc's tiles f8w_a, f8w_b (k-tiles of 128 one-byte elements:
// 128-byte rows) and the staging tile of the f16 GEMM, and its benchmark
// against cublasLtMatmul's FP8 path at 4096^3, 8192^3, 4097^3 and
// 1000 x 999 x 136 (rows padded to 16 bytes, as TMA and cuBLASLt both
// need); on the cubes also the other cluster size and (--explore) the
// variants of gemm_sm90.cuh.  Needs sm_90a.
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

// cuBLASLt's FP8 GEMM of the same product into D (bf16, or f32 with
// `f32`), rows of lda bytes for A and Bt and of ldc elements for D, fast
// accumulation on or off; the algorithm its heuristic ranks first (none:
// found() is false).
class LtFp8 {
      public:
	LtFp8(cublasLtHandle_t lt, int M, int N, int K, int lda, int ldc, bool fast, bool f32, void *ws, size_t ws_bytes)
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
		CUBLASLT_CHECK(cublasLtMatrixLayoutCreate(&la_, CUDA_R_8F_E4M3, K, N, lda));
		CUBLASLT_CHECK(cublasLtMatrixLayoutCreate(&lb_, CUDA_R_8F_E4M3, K, M, lda));
		CUBLASLT_CHECK(cublasLtMatrixLayoutCreate(&lc_, f32 ? CUDA_R_32F : CUDA_R_16BF, N, M, ldc));
		cublasLtMatmulPreference_t pref;
		CUBLASLT_CHECK(cublasLtMatmulPreferenceCreate(&pref));
		CUBLASLT_CHECK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws_bytes_,
								    sizeof ws_bytes_));
		int found = 0;
		if (cublasLtMatmulAlgoGetHeuristic(lt_, op_, la_, lb_, lc_, lc_, pref, 1, &heur_, &found) != CUBLAS_STATUS_SUCCESS)
			found = 0;
		CUBLASLT_CHECK(cublasLtMatmulPreferenceDestroy(pref));
		found_ = found > 0;
		if (!found_)
			std::printf("    cuBLASLt has no FP8 algorithm for %d x %d x %d with a %s D\n", M, N, K, f32 ? "f32" : "bf16");
	}
	bool found() const { return found_; }
	~LtFp8()
	{
		cublasLtMatrixLayoutDestroy(la_);
		cublasLtMatrixLayoutDestroy(lb_);
		cublasLtMatrixLayoutDestroy(lc_);
		cublasLtMatmulDescDestroy(op_);
	}
	LtFp8(const LtFp8 &) = delete;
	LtFp8 &operator=(const LtFp8 &) = delete;
	void operator()(const Fp8 *A, const Fp8 *Bt, void *D) const
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
	bool found_ = false;
};

struct Ctx {
	bench::Table &table;
	cublasLtHandle_t lt;
	void *ws;
	size_t ws_bytes;
	bool explore;
};

// One shape: cuBLASLt precise and fast (the faster is the mark, the
// precise one the reference of every check), then bankc::gemm with a bf16
// C against them, and with an f32 C against cuBLASLt's f32 D; on cubes
// the variants.
void run_shape(Ctx &x, int M, int N, int K, bool cube)
{
	{
		const LibProblem<Fp8, Bf16> p(M, N, K, 16, false);
		const LtFp8 precise(x.lt, M, N, K, p.lda, p.ldc, false, false, x.ws, x.ws_bytes),
			fast(x.lt, M, N, K, p.lda, p.ldc, true, false, x.ws, x.ws_bytes);
		if (!precise.found() || !fast.found())
			return;
		// R: the precise result, the reference of every check; C: the fast one.
		p.poison();
		precise(p.A, p.Bt, p.R);
		fast(p.A, p.Bt, p.C);
		CUDA_CHECK(cudaDeviceSynchronize());
		// Against double: the bf16 rounding of the output, ~1.5e-3.
		const double ref_err = sample_err(p.A, p.lda, p.Bt, 1, p.lda, p.R, p.ldc, M, N, K);
		const bench::Diff fast_diff = diff_2d(p.C, p.R, M, N, p.ldc);
		const double ms_p = bench::median_ms([&] { precise(p.A, p.Bt, p.R); });
		const double ms_f = bench::median_ms([&] { fast(p.A, p.Bt, p.C); });
		const double ref_tf = p.flop / (std::min(ms_p, ms_f) * 1e9);
		const std::string ok_p = ref_err < 1e-2 ? "ok" : "FAIL", ok_f = fast_diff.ok(1e-2) ? "ok" : "FAIL";
		x.table.add(bench::Row{"fp8gemm", "cublasLtMatmul e4m3, bf16 out", p.size, "TFLOP/s", ok_p, ms_p,
				       p.flop / (ms_p * 1e9), "", 0, ref_err});
		x.table.add(bench::Row{"fp8gemm", "cublasLtMatmul e4m3, bf16 out, fast accumulation", p.size, "TFLOP/s", ok_f,
				       ms_f, p.flop / (ms_f * 1e9), "", 0, fast_diff.rel});
		time_lib(x.table, "fp8gemm", "bankc::gemm e4m3, C bf16", p, [&] {
			CUDA_CHECK(bankc::gemm(M, N, K, p.A, p.lda, p.Bt, p.lda, p.C, p.ldc));
		}, "cublasLt", ref_tf);
		if (cube)
			for (const Variant<InE4M3> &v : variants<InE4M3>(x.explore)) {
				const int group = std::max(1, v.group_rows / v.cluster);
				const bool persistent = v.persistent;
				auto f = [&](int m, int n, int k, const Fp8 *a, const Fp8 *b, Bf16 *c) { v.run(m, n, k, a, b, c, group, persistent); };
				time_checked_as(x.table, "fp8gemm", v.name, f, M, N, K, p.A, p.Bt, p.C, p.R, ref_tf);
			}
	}
	{
		const LibProblem<Fp8, float> p(M, N, K, 16, false);
		const LtFp8 precise(x.lt, M, N, K, p.lda, p.ldc, false, true, x.ws, x.ws_bytes),
			fast(x.lt, M, N, K, p.lda, p.ldc, true, true, x.ws, x.ws_bytes);
		if (!precise.found() || !fast.found())
			return;
		p.poison();
		precise(p.A, p.Bt, p.R);
		const double ms_p = bench::median_ms([&] { precise(p.A, p.Bt, p.R); });
		const double ms_f = bench::median_ms([&] { fast(p.A, p.Bt, p.C); });
		const double ref_tf = p.flop / (std::min(ms_p, ms_f) * 1e9);
		x.table.add(bench::Row{"fp8gemm", "cublasLtMatmul e4m3, f32 out, faster of precise and fast", p.size, "TFLOP/s",
				       "-", std::min(ms_p, ms_f), ref_tf, "", 0, 0});
		time_lib(x.table, "fp8gemm", "bankc::gemm e4m3, C f32", p, [&] {
			CUDA_CHECK(bankc::gemm(M, N, K, p.A, p.lda, p.Bt, p.lda, p.C, p.ldc));
		}, "cublasLt", ref_tf);
	}
}

int main(int argc, char **argv)
{
	const bench::Args args(argc, argv);
	if (args.profile)
		return profile_once_as<Fp8, Bf16>(args, [](int m, int n, int k, const Fp8 *a, const Fp8 *b, Bf16 *c) {
			CUDA_CHECK(bankc::gemm(m, n, k, a, k, b, k, c, n));
		});
	bench::print_device();
	bench::Table table(args.csv);
	gemm90::require_sm90a<Template<InE4M3>>();
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
		run_shape(x, n, n, n, true);
	const int ragged[][3] = {{4097, 4097, 4097}, {1000, 999, 136}};
	for (const auto &r : ragged)
		run_shape(x, r[0], r[1], r[2], false);
	CUDA_CHECK(cudaFree(x.ws));
	CUBLASLT_CHECK(cublasLtDestroy(x.lt));
	return table.finish();
}
