// hgemm_host.cuh: what the two tensor-core GEMM drivers (hgemm.cu,
// hgemm_wgmma.cu) share: f16 inputs, the check of a result against the
// cuBLAS reference, and the check of that reference against double.
#pragma once

#include "bench.cuh"

#include <cuda_fp16.h>

__global__ void fill_uniform(__half *p, size_t n, uint64_t seed)
{
	for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += static_cast<size_t>(gridDim.x) * blockDim.x)
		p[i] = __float2half_rn(bench::uniform(seed, i));
}

// ||x - r|| / ||r|| over n elements of a matrix with `cols` columns; the
// first element off by more than 2e-2 (relative, plus 1) is printed.
inline double rel_err(const __half *dx, const __half *dref, size_t n, size_t cols)
{
	std::vector<__half> x(n), r(n);
	CUDA_CHECK(cudaMemcpy(x.data(), dx, n * 2, cudaMemcpyDeviceToHost));
	CUDA_CHECK(cudaMemcpy(r.data(), dref, n * 2, cudaMemcpyDeviceToHost));
	double num = 0, den = 0;
	size_t bad = 0, first = 0;
	for (size_t i = 0; i < n; i++) {
		const double a = __half2float(x[i]), b = __half2float(r[i]);
		num += (a - b) * (a - b);
		den += b * b;
		if (!(std::fabs(a - b) <= 2e-2 * (std::fabs(b) + 1)) && !bad++)
			first = i;
	}
	if (bad)
		std::printf("    %zu elements off; first C[%zu][%zu] = %g, reference %g\n", bad, first / cols, first % cols,
			    __half2float(x[first]), __half2float(r[first]));
	return std::sqrt(num / den);
}

// 256 random entries of C (M x N, row-major) against dot products in
// double.  A is M x K row-major; element (k, j) of B is at
// B[k * b_k + j * b_j] (b_k = N, b_j = 1 for a K x N row-major B; b_k = 1,
// b_j = K for an N x K one).
inline double sample_err(const __half *dA, const __half *dB, size_t b_k, size_t b_j, const __half *dC, int M, int N,
			 int K)
{
	std::vector<__half> a(static_cast<size_t>(M) * K), b(static_cast<size_t>(K) * N), c(static_cast<size_t>(M) * N);
	CUDA_CHECK(cudaMemcpy(a.data(), dA, a.size() * 2, cudaMemcpyDeviceToHost));
	CUDA_CHECK(cudaMemcpy(b.data(), dB, b.size() * 2, cudaMemcpyDeviceToHost));
	CUDA_CHECK(cudaMemcpy(c.data(), dC, c.size() * 2, cudaMemcpyDeviceToHost));
	double num = 0, den = 0;
	for (int s = 0; s < 256; s++) {
		const int i = static_cast<int>(bench::hash(7, s) % M), j = static_cast<int>(bench::hash(8, s) % N);
		double ref = 0;
		for (int k = 0; k < K; k++)
			ref += static_cast<double>(__half2float(a[static_cast<size_t>(i) * K + k])) *
			       __half2float(b[k * b_k + j * b_j]);
		const double d = __half2float(c[static_cast<size_t>(i) * N + j]) - ref;
		num += d * d;
		den += ref * ref;
	}
	return std::sqrt(num / den);
}

// B (K x N) = Bt^T, Bt N x K: the other storage order of the same operand.
__global__ void transpose_half(const __half *__restrict__ bt, __half *__restrict__ b, int N, int K)
{
	for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < static_cast<size_t>(N) * K;
	     i += static_cast<size_t>(gridDim.x) * blockDim.x)
		b[i] = bt[i % N * K + i / N];
}

// One n x n x n problem on the device: random A (M x K), B in both
// storage orders (Bt N x K, B = Bt^T K x N), the output C and the
// reference R, all row-major.
struct Problem {
	int M, N, K;
	size_t nc;
	double flop;
	std::string size;
	__half *A, *B, *Bt, *C, *R;
	explicit Problem(int n) : M(n), N(n), K(n), nc(static_cast<size_t>(n) * n), flop(2.0 * n * n * n),
				  size(std::to_string(n) + "^3")
	{
		const size_t na = static_cast<size_t>(M) * K, nb = static_cast<size_t>(N) * K;
		CUDA_CHECK(cudaMalloc(&A, na * 2));
		CUDA_CHECK(cudaMalloc(&B, nb * 2));
		CUDA_CHECK(cudaMalloc(&Bt, nb * 2));
		CUDA_CHECK(cudaMalloc(&C, nc * 2));
		CUDA_CHECK(cudaMalloc(&R, nc * 2));
		const uint64_t seed = bench::fresh_seed();
		fill_uniform<<<1024, 256>>>(A, na, seed);
		fill_uniform<<<1024, 256>>>(Bt, nb, seed ^ 1);
		transpose_half<<<1024, 256>>>(Bt, B, N, K);
		LAUNCH_CHECK();
	}
	~Problem()
	{
		for (__half *p : {A, B, Bt, C, R})
			CUDA_CHECK(cudaFree(p));
	}
	Problem(const Problem &) = delete;
	Problem &operator=(const Problem &) = delete;
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

// The drivers' kernels: C (M x N) from A and B on the device.
using GemmFn = void (*)(int M, int N, int K, const __half *A, const __half *B, __half *C);

// --profile: f once on n x n x n (--size N, default 512) random inputs, for
// a profiler.
inline int profile_once(const bench::Args &args, GemmFn f)
{
	const int n = args.profile_size(512);
	const size_t bytes = static_cast<size_t>(n) * n * 2;
	__half *a, *b, *c;
	CUDA_CHECK(cudaMalloc(&a, bytes));
	CUDA_CHECK(cudaMalloc(&b, bytes));
	CUDA_CHECK(cudaMalloc(&c, bytes));
	fill_uniform<<<256, 256>>>(a, static_cast<size_t>(n) * n, 1);
	fill_uniform<<<256, 256>>>(b, static_cast<size_t>(n) * n, 2);
	f(n, n, n, a, b, c);
	LAUNCH_CHECK();
	CUDA_CHECK(cudaDeviceSynchronize());
	return 0;
}

// One table row: f into NaN-poisoned C (unwritten results fail), checked
// against the reference R, then timed; the ratio is against ref_tflops.
inline void time_checked(bench::Table &table, const char *name, GemmFn f, int M, int N, int K, const __half *A,
			 const __half *B, __half *C, const __half *R, double ref_tflops)
{
	const size_t nc = static_cast<size_t>(M) * N;
	const double flop = 2.0 * M * N * K;
	CUDA_CHECK(cudaMemset(C, 0xff, nc * 2));
	f(M, N, K, A, B, C);
	LAUNCH_CHECK();
	CUDA_CHECK(cudaDeviceSynchronize());
	const double err = rel_err(C, R, nc, N);
	const double ms = bench::median_ms([&] { f(M, N, K, A, B, C); });
	table.add({"hgemm", name, std::to_string(M) + "^3", "TFLOP/s", err < 1e-2 ? "ok" : "FAIL", ms, flop / (ms * 1e9),
		   "cublas", ref_tflops, err});
}
