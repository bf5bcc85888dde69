// hgemm_host.cuh: what the tensor-core GEMM drivers (hgemm.cu,
// hgemm_wgmma.cu, fp8gemm_wgmma.cu) share: random inputs of f16, bf16 or
// e4m3, the check of a result against the cuBLAS reference, the check of
// that reference against double, and the timed table row.
#pragma once

#include "bench.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

// Host and device conversions of the element types.
inline float to_float(float x) { return x; }
inline float to_float(__half x) { return __half2float(x); }
inline float to_float(__nv_bfloat16 x) { return __bfloat162float(x); }
inline float to_float(__nv_fp8_e4m3 x) { return static_cast<float>(x); }
template <class T> __device__ inline T from_float(float x);
template <> __device__ inline __half from_float<__half>(float x) { return __float2half_rn(x); }
template <> __device__ inline __nv_bfloat16 from_float<__nv_bfloat16>(float x) { return __float2bfloat16_rn(x); }
template <> __device__ inline __nv_fp8_e4m3 from_float<__nv_fp8_e4m3>(float x) { return __nv_fp8_e4m3(x); }

template <class T> __global__ void fill_uniform(T *p, size_t n, uint64_t seed)
{
	for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += static_cast<size_t>(gridDim.x) * blockDim.x)
		p[i] = from_float<T>(bench::uniform(seed, i));
}

// x against the reference r (device matrices of n elements, `cols`
// columns): bench::compare with the per-element tolerance tol; the first
// element off is printed.
template <class T> bench::Diff diff_of(const T *dx, const T *dref, size_t n, size_t cols, double tol = 2e-2)
{
	std::vector<T> x(n), r(n);
	CUDA_CHECK(cudaMemcpy(x.data(), dx, n * sizeof(T), cudaMemcpyDeviceToHost));
	CUDA_CHECK(cudaMemcpy(r.data(), dref, n * sizeof(T), cudaMemcpyDeviceToHost));
	const bench::Diff d = bench::compare(x, r, tol, [](T v) { return static_cast<double>(to_float(v)); });
	if (d.off)
		std::printf("    %zu elements off by more than %g (|reference| + rms %.3g); first C[%zu][%zu] = %g, reference %g\n",
			    d.off, tol, d.rms, d.first / cols, d.first % cols, to_float(x[d.first]), to_float(r[d.first]));
	return d;
}

// 256 random entries of C (M x N, rows of ldc) against dot products in
// double.  A is M x K with rows of lda; element (k, j) of B is at
// B[k * b_k + j * b_j] (b_k = ldb, b_j = 1 for a K x N row-major B;
// b_k = 1, b_j = ldb for an N x K one).
template <class In, class Out>
double sample_err(const In *dA, size_t lda, const In *dB, size_t b_k, size_t b_j, const Out *dC, size_t ldc, int M, int N,
		  int K)
{
	std::vector<In> a(static_cast<size_t>(M - 1) * lda + K), b((K - 1) * b_k + (N - 1) * b_j + 1);
	CUDA_CHECK(cudaMemcpy(a.data(), dA, a.size() * sizeof(In), cudaMemcpyDeviceToHost));
	CUDA_CHECK(cudaMemcpy(b.data(), dB, b.size() * sizeof(In), cudaMemcpyDeviceToHost));
	double num = 0, den = 0;
	for (int s = 0; s < 256; s++) {
		const int i = static_cast<int>(bench::hash(7, s) % M), j = static_cast<int>(bench::hash(8, s) % N);
		double ref = 0;
		for (int k = 0; k < K; k++)
			ref += static_cast<double>(to_float(a[static_cast<size_t>(i) * lda + k])) * to_float(b[k * b_k + j * b_j]);
		Out c;	// the one entry, not the whole of C
		CUDA_CHECK(cudaMemcpy(&c, dC + static_cast<size_t>(i) * ldc + j, sizeof c, cudaMemcpyDeviceToHost));
		const double d = to_float(c) - ref;
		num += d * d;
		den += ref * ref;
	}
	return std::sqrt(num / den);
}

// B (K x N) = Bt^T, Bt N x K: the other storage order of the same operand.
template <class T> __global__ void transpose_matrix(const T *__restrict__ bt, T *__restrict__ b, int N, int K)
{
	for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < static_cast<size_t>(N) * K;
	     i += static_cast<size_t>(gridDim.x) * blockDim.x)
		b[i] = bt[i % N * K + i / N];
}

// "n^3" for cubes, "M x N x K" otherwise.
inline std::string gemm_size(int M, int N, int K)
{
	if (M == N && N == K)
		return std::to_string(M) + "^3";
	return std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
}

// One M x N x K problem on the device: random A (M x K), B as Bt (N x K)
// and, when asked, also as B = Bt^T (K x N), the output C and the
// reference R, all row-major.
template <class In, class Out> struct GemmProblem {
	int M, N, K;
	size_t nc;
	double flop;
	std::string size;
	In *A = nullptr, *B = nullptr, *Bt = nullptr;
	Out *C = nullptr, *R = nullptr;
	GemmProblem(int m, int n, int k, bool both_orders)
		: M(m), N(n), K(k), nc(static_cast<size_t>(m) * n), flop(2.0 * m * n * k), size(gemm_size(m, n, k))
	{
		const size_t na = static_cast<size_t>(M) * K, nb = static_cast<size_t>(N) * K;
		CUDA_CHECK(cudaMalloc(&A, na * sizeof(In)));
		CUDA_CHECK(cudaMalloc(&Bt, nb * sizeof(In)));
		CUDA_CHECK(cudaMalloc(&C, nc * sizeof(Out)));
		CUDA_CHECK(cudaMalloc(&R, nc * sizeof(Out)));
		const uint64_t seed = bench::fresh_seed();
		fill_uniform<<<1024, 256>>>(A, na, seed);
		fill_uniform<<<1024, 256>>>(Bt, nb, seed ^ 1);
		if (both_orders) {
			CUDA_CHECK(cudaMalloc(&B, nb * sizeof(In)));
			transpose_matrix<<<1024, 256>>>(Bt, B, N, K);
		}
		LAUNCH_CHECK();
	}
	~GemmProblem()
	{
		for (void *p : {static_cast<void *>(A), static_cast<void *>(B), static_cast<void *>(Bt), static_cast<void *>(C),
				static_cast<void *>(R)})
			if (p)
				CUDA_CHECK(cudaFree(p));
	}
	GemmProblem(const GemmProblem &) = delete;
	GemmProblem &operator=(const GemmProblem &) = delete;
};

// The f16 cube of the mma.sync and first wgmma drivers: both B orders.
struct Problem : GemmProblem<__half, __half> {
	explicit Problem(int n) : GemmProblem(n, n, n, true) {}
};

// The kernels cover whole block tiles only: other shapes are refused, not
// half computed.
inline void require_multiples(const char *kernel, int M, int N, int K, int bm, int bn, int bk)
{
	if (M <= 0 || N <= 0 || K <= 0 || M % bm || N % bn || K % bk) {
		std::fprintf(stderr, "%s: M, N, K must be positive multiples of %d, %d, %d (got %d, %d, %d)\n", kernel, bm,
			     bn, bk, M, N, K);
		std::exit(2);
	}
}

// The f16 drivers' kernels: C (M x N) from A and B on the device.
using GemmFn = void (*)(int M, int N, int K, const __half *A, const __half *B, __half *C);

// --profile: f once on n x n x n (--size N, default 512) random inputs, for
// a profiler.
template <class In, class Out, class F> int profile_once_as(const bench::Args &args, F &&f)
{
	const int n = args.profile_size(512);
	const size_t elems = static_cast<size_t>(n) * n;
	In *a, *b;
	Out *c;
	CUDA_CHECK(cudaMalloc(&a, elems * sizeof(In)));
	CUDA_CHECK(cudaMalloc(&b, elems * sizeof(In)));
	CUDA_CHECK(cudaMalloc(&c, elems * sizeof(Out)));
	fill_uniform<<<256, 256>>>(a, elems, 1);
	fill_uniform<<<256, 256>>>(b, elems, 2);
	f(n, n, n, a, b, c);
	LAUNCH_CHECK();
	CUDA_CHECK(cudaDeviceSynchronize());
	return 0;
}

inline int profile_once(const bench::Args &args, GemmFn f) { return profile_once_as<__half, __half>(args, f); }

// One table row: f into NaN-poisoned C (unwritten results fail), checked
// against the reference R (relative error under 1e-2 and no element off),
// then timed; the ratio is against ref_tflops.
template <class In, class Out, class F>
void time_checked_as(bench::Table &table, const char *bench, const std::string &name, F &&f, int M, int N, int K,
		     const In *A, const In *B, Out *C, const Out *R, double ref_tflops)
{
	if (!bench::selected(name))
		return;
	const size_t nc = static_cast<size_t>(M) * N;
	const double flop = 2.0 * M * N * K;
	// Named first: a kernel that faults or hangs is then known by the log.
	std::printf("  (%s %s)\n", name.c_str(), gemm_size(M, N, K).c_str());
	std::fflush(stdout);
	CUDA_CHECK(cudaMemset(C, 0xff, nc * sizeof(Out)));
	f(M, N, K, A, B, C);
	LAUNCH_CHECK();
	CUDA_CHECK(cudaDeviceSynchronize());
	const bench::Diff d = diff_of(C, R, nc, N);
	const double ms = bench::median_ms([&] { f(M, N, K, A, B, C); });
	table.add({bench, name, gemm_size(M, N, K), "TFLOP/s", d.ok(1e-2) ? "ok" : "FAIL", ms, flop / (ms * 1e9),
		   "cublas", ref_tflops, d.rel});
}

inline void time_checked(bench::Table &table, const char *name, GemmFn f, int M, int N, int K, const __half *A,
			 const __half *B, __half *C, const __half *R, double ref_tflops)
{
	time_checked_as(table, "hgemm", name, f, M, N, K, A, B, C, R, ref_tflops);
}

// ---- the library's GEMMs: any shape, padded rows ----------------------------

inline int round_up(int x, int m) { return (x + m - 1) / m * m; }

// B (K x N, ldb_n) = Bt^T, Bt N x K with rows of ldb_t: the other storage
// order of the same operand, padding columns left as they are.
template <class T>
__global__ void transpose_padded(const T *__restrict__ bt, int ldb_t, T *__restrict__ b, int ldb_n, int N, int K)
{
	for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < static_cast<size_t>(N) * K;
	     i += static_cast<size_t>(gridDim.x) * blockDim.x) {
		const size_t k = i / N, j = i % N;
		b[k * ldb_n + j] = bt[j * ldb_t + k];
	}
}

// One M x N x K problem as the library takes it: random A (M x K) and Bt
// (N x K) with rows of lda = K rounded up to `align` elements (TMA reads
// rows on 16 bytes), B = Bt^T (K x N, rows of N rounded up likewise), and
// outputs C and reference R of Out with rows of ldc (N rounded up to 8
// for a 16-bit C, N for f32).
template <class In, class Out> struct LibProblem {
	int M, N, K, lda, ldb_n, ldc;
	double flop;
	std::string size;
	In *A = nullptr, *Bt = nullptr, *B = nullptr;
	Out *C = nullptr, *R = nullptr;
	LibProblem(int m, int n, int k, int align, bool both_orders)
		: M(m), N(n), K(k), lda(round_up(k, align)), ldb_n(round_up(n, align)),
		  ldc(sizeof(Out) == 2 ? round_up(n, 8) : n), flop(2.0 * m * n * k), size(gemm_size(m, n, k))
	{
		const size_t na = static_cast<size_t>(M) * lda, nb = static_cast<size_t>(N) * lda, nc = static_cast<size_t>(M) * ldc;
		CUDA_CHECK(cudaMalloc(&A, na * sizeof(In)));
		CUDA_CHECK(cudaMalloc(&Bt, nb * sizeof(In)));
		CUDA_CHECK(cudaMalloc(&C, nc * sizeof(Out)));
		CUDA_CHECK(cudaMalloc(&R, nc * sizeof(Out)));
		const uint64_t seed = bench::fresh_seed();
		fill_uniform<<<1024, 256>>>(A, na, seed);
		fill_uniform<<<1024, 256>>>(Bt, nb, seed ^ 1);
		if (both_orders) {
			CUDA_CHECK(cudaMalloc(&B, static_cast<size_t>(K) * ldb_n * sizeof(In)));
			CUDA_CHECK(cudaMemset(B, 0, static_cast<size_t>(K) * ldb_n * sizeof(In)));
			transpose_padded<<<1024, 256>>>(Bt, lda, B, ldb_n, N, K);
		}
		LAUNCH_CHECK();
	}
	~LibProblem()
	{
		for (void *p : {static_cast<void *>(A), static_cast<void *>(B), static_cast<void *>(Bt), static_cast<void *>(C),
				static_cast<void *>(R)})
			if (p)
				CUDA_CHECK(cudaFree(p));
	}
	LibProblem(const LibProblem &) = delete;
	LibProblem &operator=(const LibProblem &) = delete;
	// C and R poisoned (NaN in every float type): an element left unwritten fails
	void poison() const
	{
		CUDA_CHECK(cudaMemset(C, 0xff, static_cast<size_t>(M) * ldc * sizeof(Out)));
		CUDA_CHECK(cudaMemset(R, 0xff, static_cast<size_t>(M) * ldc * sizeof(Out)));
	}
};

// x against the reference r, both M x N with rows of ld: diff_of on their
// M x N elements.
template <class T> bench::Diff diff_2d(const T *dx, const T *dr, int M, int N, int ld, double tol = 2e-2)
{
	T *px, *pr;
	const size_t n = static_cast<size_t>(M) * N;
	CUDA_CHECK(cudaMalloc(&px, n * sizeof(T)));
	CUDA_CHECK(cudaMalloc(&pr, n * sizeof(T)));
	CUDA_CHECK(cudaMemcpy2D(px, N * sizeof(T), dx, ld * sizeof(T), N * sizeof(T), M, cudaMemcpyDeviceToDevice));
	CUDA_CHECK(cudaMemcpy2D(pr, N * sizeof(T), dr, ld * sizeof(T), N * sizeof(T), M, cudaMemcpyDeviceToDevice));
	const bench::Diff d = diff_of(px, pr, n, N, tol);
	CUDA_CHECK(cudaFree(px));
	CUDA_CHECK(cudaFree(pr));
	return d;
}

// One table row of a library call: f into poisoned C, checked against R
// (relative error under 1e-2 and no element off), then timed against
// ref_tflops.
template <class In, class Out, class F>
void time_lib(bench::Table &table, const char *bench, const std::string &name, const LibProblem<In, Out> &p, F &&f,
	      const std::string &ref, double ref_tflops)
{
	if (!bench::selected(name))
		return;
	std::printf("  (%s %s)\n", name.c_str(), p.size.c_str());
	std::fflush(stdout);
	CUDA_CHECK(cudaMemset(p.C, 0xff, static_cast<size_t>(p.M) * p.ldc * sizeof(Out)));
	f();
	LAUNCH_CHECK();
	CUDA_CHECK(cudaDeviceSynchronize());
	const bench::Diff d = diff_2d(p.C, p.R, p.M, p.N, p.ldc);
	const double ms = bench::median_ms(f);
	table.add(bench::Row{bench, name, p.size, "TFLOP/s", d.ok(1e-2) ? "ok" : "FAIL", ms, p.flop / (ms * 1e9), ref,
			     ref_tflops, d.rel});
}
