// sgemm.cu: SIMT SGEMM (fp32 FFMA, no tensor cores, no TF32) on
// bankc-generated tiles (specs/templates.tile: sg8_a, sg8_b; sg8q_a,
// sg8q_b for a variant), and its
// benchmark against cublasSgemm.
//
// C = A B, all row-major: A is M x K, B is K x N.  A 128 x 128 block tile,
// k-tile 8, 256 threads, 8 x 8 results per thread.  Warps form a 4 (M) x 2
// (N) grid of 32 x 64 warp tiles; lane (lm, ln) of a 4 x 8 lane grid owns
// rows 4 lm + {0..3} + {0, 16} and columns 4 ln + {0..3} + {0, 32} of its
// warp tile, so each k step reads two float4s of A and two of B from
// shared memory (16-byte loads) for 64 FFMAs.  lm takes lane bits 1 and 3,
// ln bits 0, 2 and 4: lanes n and n ^ 1 share A's float4s, n and n ^ 2
// B's, which lets the hardware serve each load in two 16-lane phases.
//
// Two shared stages and one barrier per k-tile: the next k-tile's global
// loads are in flight in registers while the current one is multiplied.
// A is stored transposed (As[k][m]) so that its fragments are float4s
// along m; a warp's transposing stores cover 32 consecutive m, which is
// what lets bankc keep both tiles row-major (no conflict to remove, no
// swizzle arithmetic in the inner loop).  128 registers: two blocks per SM.
//
// The kernel is a template over the warp grid and each lane's share
// (SGEMM_CFG below) and the block order.  The template walks its blocks in
// the grouped order of the tensor-core GEMMs (8 block rows at a time,
// their B panels shared in L2); the plain row-major order is timed beside
// it, and --explore adds 4 warps of 64 x 64 on their own tiles (sg8q_a,
// sg8q_b) and groups of 16.
#include "bench.cuh"

#include "sg8_a.cuh"
#include "sg8_b.cuh"
#include "sg8q_a.cuh"
#include "sg8q_b.cuh"

constexpr int BM = 128, BN = 128;

// A kernel configuration: its tiles and the thread grid the tiles' specs
// were written for.  Warps form a WM x WN grid of warp tiles; a lane owns
// QM x QN 4 x 4 quarters, QM along M 16 rows apart, QN along N 32 columns
// apart: a warp tile of 16 QM x 32 QN.
#define SGEMM_CFG(Name, NAME_A, NAME_B, threads, wm, wn, qm, qn, minb)                                            \
	struct Name {                                                                                            \
		static constexpr int THREADS = threads, WM = wm, WN = wn, QM = qm, QN = qn, MIN_BLOCKS = minb;       \
		static constexpr int BK = NAME_A##_ROWS;                                                         \
		static constexpr int A_FLOATS = NAME_A##_BYTES / 4, B_FLOATS = NAME_B##_BYTES / 4;               \
		static constexpr int A_ALIGN = NAME_A##_ALIGN < 16 ? 16 : NAME_A##_ALIGN;                         \
		static constexpr int B_ALIGN = NAME_B##_ALIGN < 16 ? 16 : NAME_B##_ALIGN;                         \
		static __device__ __forceinline__ int a(int s, int k, int m) { return NAME_A##_SIDX(s, k, m); }   \
		static __device__ __forceinline__ int b(int s, int k, int n) { return NAME_B##_SIDX(s, k, n); }   \
		static_assert(NAME_A##_ROWS == NAME_B##_ROWS && NAME_A##_COLS == BM && NAME_B##_COLS == BN,       \
			      "BK x 128 tiles");                                                                 \
		static_assert(NAME_A##_STAGES == 2 && NAME_B##_STAGES == 2, "two stages");                     \
		static_assert(NAME_A##_ELEM_BYTES == 4 && NAME_B##_ELEM_BYTES == 4, "f32");                     \
		static_assert(WM * 16 * QM == BM && WN * 32 * QN == BN && WM * WN * 32 == THREADS, "warp grid");  \
	}

// The template: 8 warps of 32 x 64 (8 x 8 per thread), two blocks per SM.
SGEMM_CFG(Sg8, SG8_A, SG8_B, 256, 4, 2, 2, 2, 2);
// 4 warps of 64 x 64 (16 x 8 per thread, 128 accumulators): more FFMAs
// per shared load and fewer warps; 241 registers, two blocks per SM (at
// three, 168 registers, it spills).
SGEMM_CFG(Sg8q, SG8Q_A, SG8Q_B, 128, 2, 2, 4, 2, 2);

// GROUP_M: block rows walked together (0: the plain row-major grid).
template <class L, int GROUP_M>
__global__ void __launch_bounds__(L::THREADS, L::MIN_BLOCKS)
	sgemm_tile(int M, int N, int K, const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C)
{
	constexpr int BK = L::BK, THREADS = L::THREADS, QM = L::QM, QN = L::QN;
	constexpr int TM = 4 * QM, TN = 4 * QN;		// results per thread
	constexpr int NA = BM * BK / 4 / THREADS;	// float4s of A per thread per k-tile
	constexpr int NB = BK * BN / 4 / THREADS;
	constexpr int BQ = BN / 4;			// float4s per row of the B block
	static_assert(NA >= 1 && NB >= 1 && NA * THREADS * 4 == BM * BK && NB * THREADS * 4 == BK * BN, "tile shape");
	__shared__ alignas(L::A_ALIGN) float sA[L::A_FLOATS];
	__shared__ alignas(L::B_ALIGN) float sB[L::B_FLOATS];

	int by = blockIdx.y, bx = blockIdx.x;
	if (GROUP_M > 0) {
		// Grouped order: GROUP_M block rows share the B panels in L2.
		const int tiles_m = M / BM, tiles_n = N / BN, pid = blockIdx.y * gridDim.x + blockIdx.x;
		const int group = GROUP_M * tiles_n, first = pid / group * GROUP_M, gm = min(tiles_m - first, GROUP_M);
		by = first + pid % group % gm;
		bx = pid % group / gm;
	}

	const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
	const int wm = warp % L::WM, wn = warp / L::WM;
	const int lm = ((lane >> 1) & 1) | ((lane >> 2) & 2);
	const int ln = (lane & 1) | ((lane >> 1) & 2) | ((lane >> 2) & 4);
	const int am = 16 * QM * wm + 4 * lm, bn = 32 * QN * wn + 4 * ln;	// fragment columns, h = 0

	const float *gA = A + static_cast<size_t>(by) * BM * K;
	const float *gB = B + static_cast<size_t>(bx) * BN;
	float4 ra[NA], rb[NB];
	// Thread q of a k-tile: A's row q % BM, k-quad q / BM; B's row q / BQ.
	auto load_global = [&](int k0) {
#pragma unroll
		for (int j = 0; j < NA; j++) {
			const int q = tid + j * THREADS;
			ra[j] = __ldg(reinterpret_cast<const float4 *>(gA + static_cast<size_t>(q % BM) * K + k0 + q / BM * 4));
		}
#pragma unroll
		for (int j = 0; j < NB; j++) {
			const int q = tid + j * THREADS;
			rb[j] = __ldg(reinterpret_cast<const float4 *>(gB + static_cast<size_t>(k0 + q / BQ) * N + q % BQ * 4));
		}
	};
	auto store_shared = [&](int s) {
#pragma unroll
		for (int j = 0; j < NA; j++) {
			const int q = tid + j * THREADS, m = q % BM, k = q / BM * 4;
			sA[L::a(s, k + 0, m)] = ra[j].x;
			sA[L::a(s, k + 1, m)] = ra[j].y;
			sA[L::a(s, k + 2, m)] = ra[j].z;
			sA[L::a(s, k + 3, m)] = ra[j].w;
		}
#pragma unroll
		for (int j = 0; j < NB; j++) {
			const int q = tid + j * THREADS;
			*reinterpret_cast<float4 *>(&sB[L::b(s, q / BQ, q % BQ * 4)]) = rb[j];
		}
	};

	float acc[TM][TN];
#pragma unroll
	for (int i = 0; i < TM; i++)
#pragma unroll
		for (int j = 0; j < TN; j++)
			acc[i][j] = 0.0f;

	const int nk = K / BK;
	load_global(0);
	store_shared(0);
	__syncthreads();
	for (int kt = 0; kt < nk; kt++) {
		const int s = kt & 1;
		const bool more = kt + 1 < nk;
		if (more)
			load_global((kt + 1) * BK);
#pragma unroll
		for (int k = 0; k < BK; k++) {
			// Fragments loaded just before use (other warps cover the
			// latency; double-buffering them measured slower).
			float a[TM], b[TN];
#pragma unroll
			for (int h = 0; h < QM; h++) {
				const float4 x = *reinterpret_cast<const float4 *>(&sA[L::a(s, k, am + 16 * h)]);
				a[4 * h] = x.x, a[4 * h + 1] = x.y, a[4 * h + 2] = x.z, a[4 * h + 3] = x.w;
			}
#pragma unroll
			for (int h = 0; h < QN; h++) {
				const float4 y = *reinterpret_cast<const float4 *>(&sB[L::b(s, k, bn + 32 * h)]);
				b[4 * h] = y.x, b[4 * h + 1] = y.y, b[4 * h + 2] = y.z, b[4 * h + 3] = y.w;
			}
#pragma unroll
			for (int i = 0; i < TM; i++)
#pragma unroll
				for (int j = 0; j < TN; j++)
					acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
		}
		if (more) {
			// Stage s ^ 1 was last read before the previous barrier.
			store_shared(s ^ 1);
			__syncthreads();
		}
	}

	// Rows 4 lm + i + 16 h, columns 4 ln + 32 h2 (+0..3) of the warp tile.
	float *gC = C + (static_cast<size_t>(by) * BM + am) * N + static_cast<size_t>(bx) * BN + bn;
#pragma unroll
	for (int h = 0; h < QM; h++)
#pragma unroll
		for (int i = 0; i < 4; i++)
#pragma unroll
			for (int h2 = 0; h2 < QN; h2++) {
				const float *v = &acc[4 * h + i][4 * h2];
				*reinterpret_cast<float4 *>(gC + static_cast<size_t>(16 * h + i) * N + 32 * h2) =
					make_float4(v[0], v[1], v[2], v[3]);
			}
}

// M, N multiples of 128, K of 8.
template <class L = Sg8, int GROUP_M = 0> void sgemm(int M, int N, int K, const float *A, const float *B, float *C)
{
	const dim3 grid(N / BN, M / BM);
	sgemm_tile<L, GROUP_M><<<grid, L::THREADS>>>(M, N, K, A, B, C);
}

__global__ void fill_uniform(float *p, size_t n, uint64_t seed)
{
	for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += static_cast<size_t>(gridDim.x) * blockDim.x)
		p[i] = bench::uniform(seed, i);
}

// x against the reference (n device floats, `cols` columns): bench::compare
// with 1e-3 per element; the first element off is printed.
bench::Diff diff_of(const float *dx, const float *dref, size_t n, size_t cols)
{
	std::vector<float> x(n), r(n);
	CUDA_CHECK(cudaMemcpy(x.data(), dx, n * 4, cudaMemcpyDeviceToHost));
	CUDA_CHECK(cudaMemcpy(r.data(), dref, n * 4, cudaMemcpyDeviceToHost));
	const bench::Diff d = bench::compare(x, r, 1e-3, [](float v) { return static_cast<double>(v); });
	if (d.off)
		std::printf("    %zu elements off by more than 1e-3 (|reference| + rms %.3g); first C[%zu][%zu] = %g, reference %g\n",
			    d.off, d.rms, d.first / cols, d.first % cols, x[d.first], r[d.first]);
	return d;
}

// A few entries of C against a dot product in double on the host: checks
// the reference itself (and that no TF32 crept into it).
double sample_err(const float *dA, const float *dB, const float *dC, int M, int N, int K)
{
	std::vector<float> a(static_cast<size_t>(M) * K), b(static_cast<size_t>(K) * N), c(static_cast<size_t>(M) * N);
	CUDA_CHECK(cudaMemcpy(a.data(), dA, a.size() * 4, cudaMemcpyDeviceToHost));
	CUDA_CHECK(cudaMemcpy(b.data(), dB, b.size() * 4, cudaMemcpyDeviceToHost));
	CUDA_CHECK(cudaMemcpy(c.data(), dC, c.size() * 4, cudaMemcpyDeviceToHost));
	double num = 0, den = 0;
	for (int s = 0; s < 256; s++) {
		const int i = static_cast<int>(bench::hash(7, s) % M), j = static_cast<int>(bench::hash(8, s) % N);
		double ref = 0;
		for (int k = 0; k < K; k++)
			ref += static_cast<double>(a[static_cast<size_t>(i) * K + k]) * b[static_cast<size_t>(k) * N + j];
		const double d = c[static_cast<size_t>(i) * N + j] - ref;
		num += d * d;
		den += ref * ref;
	}
	return std::sqrt(num / den);
}

int main(int argc, char **argv)
{
	const bench::Args args(argc, argv);
	if (args.profile) {
		const int n = args.profile_size(512);
		const size_t bytes = static_cast<size_t>(n) * n * 4;
		float *a, *b, *c;
		CUDA_CHECK(cudaMalloc(&a, bytes));
		CUDA_CHECK(cudaMalloc(&b, bytes));
		CUDA_CHECK(cudaMalloc(&c, bytes));
		fill_uniform<<<256, 256>>>(a, static_cast<size_t>(n) * n, 1);
		fill_uniform<<<256, 256>>>(b, static_cast<size_t>(n) * n, 2);
		sgemm<Sg8, 8>(n, n, n, a, b, c);
		sgemm<Sg8q>(n, n, n, a, b, c);
		LAUNCH_CHECK();
		CUDA_CHECK(cudaDeviceSynchronize());
		return 0;
	}
	if (const char *o = std::getenv("NVIDIA_TF32_OVERRIDE"); o && std::strcmp(o, "0") != 0) {
		std::fprintf(stderr, "sgemm: NVIDIA_TF32_OVERRIDE=%s would let cuBLAS use TF32; unset it\n", o);
		return 2;
	}
	bench::print_device();
	bench::Table table(args.csv);
	// Two handles: default math (plain fp32 for Sgemm: TF32 needs
	// CUBLAS_TF32_TENSOR_OP_MATH or the override refused above) and
	// pedantic.  The faster of the two is the reference.
	cublasHandle_t blas, pedantic;
	CUBLAS_CHECK(cublasCreate(&blas));
	CUBLAS_CHECK(cublasSetMathMode(blas, CUBLAS_DEFAULT_MATH));
	CUBLAS_CHECK(cublasCreate(&pedantic));
	CUBLAS_CHECK(cublasSetMathMode(pedantic, CUBLAS_PEDANTIC_MATH));

	for (int n : bench::gemm_sizes(args)) {
		const int M = n, N = n, K = n;
		const size_t na = static_cast<size_t>(M) * K, nb = static_cast<size_t>(K) * N, nc = static_cast<size_t>(M) * N;
		float *A, *B, *C, *R;
		CUDA_CHECK(cudaMalloc(&A, na * 4));
		CUDA_CHECK(cudaMalloc(&B, nb * 4));
		CUDA_CHECK(cudaMalloc(&C, nc * 4));
		CUDA_CHECK(cudaMalloc(&R, nc * 4));
		const uint64_t seed = bench::fresh_seed();
		fill_uniform<<<1024, 256>>>(A, na, seed);
		fill_uniform<<<1024, 256>>>(B, nb, seed ^ 1);
		LAUNCH_CHECK();
		const double flop = 2.0 * M * N * K;
		const std::string size = std::to_string(n) + "^3";
		const float one = 1, zero = 0;
		// Row-major C = A B is column-major C^T = B^T A^T.
		double ref_tf = 0;
		for (cublasHandle_t h : {blas, pedantic}) {
			auto blas_gemm = [&] {
				CUBLAS_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, R, N));
			};
			CUDA_CHECK(cudaMemset(R, 0xff, nc * 4));
			blas_gemm();
			CUDA_CHECK(cudaDeviceSynchronize());
			const double err = sample_err(A, B, R, M, N, K);	// TF32 would show as ~1e-4
			const double ms = bench::median_ms(blas_gemm);
			ref_tf = std::max(ref_tf, flop / (ms * 1e9));
			table.add({"sgemm", h == blas ? "cublasSgemm (default math)" : "cublasSgemm (pedantic math)", size,
				   "TFLOP/s", err < 1e-5 ? "ok" : "FAIL", ms, flop / (ms * 1e9), "", 0, err});
		}
		// R now holds the pedantic result: the reference below.

		auto run = [&](const char *name, void (*f)(int, int, int, const float *, const float *, float *)) {
			CUDA_CHECK(cudaMemset(C, 0xff, nc * 4));	// NaN: unwritten results fail
			f(M, N, K, A, B, C);
			LAUNCH_CHECK();
			CUDA_CHECK(cudaDeviceSynchronize());
			const bench::Diff d = diff_of(C, R, nc, N);
			const double ms = bench::median_ms([&] { f(M, N, K, A, B, C); });
			table.add({"sgemm", name, size, "TFLOP/s", d.ok(1e-4) ? "ok" : "FAIL", ms, flop / (ms * 1e9),
				   "cublas", ref_tf, d.rel});
		};
		// The template (grouped order 8), then the same kernel in the plain
		// row-major block order, the template before grouping.
		run("bankc sgemm 128x128x8, grouped order 8", sgemm<Sg8, 8>);
		run("bankc sgemm 128x128x8", sgemm<Sg8>);
		if (args.explore) {
			run("bankc sgemm 128x128x8, grouped order 16", sgemm<Sg8, 16>);
			run("bankc sgemm 128x128x8, 4 warps of 64x64", sgemm<Sg8q>);
			run("bankc sgemm 128x128x8, 4 warps of 64x64, grouped order 8", sgemm<Sg8q, 8>);
		}
		CUDA_CHECK(cudaFree(A));
		CUDA_CHECK(cudaFree(B));
		CUDA_CHECK(cudaFree(C));
		CUDA_CHECK(cudaFree(R));
	}
	CUBLAS_CHECK(cublasDestroy(blas));
	CUBLAS_CHECK(cublasDestroy(pedantic));
	return table.finish();
}
