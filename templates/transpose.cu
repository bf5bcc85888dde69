// transpose.cu: the benchmark of bankc::transpose (include/bankc/
// transpose.cuh, called as a user calls it) against the device copy
// (cudaMemcpy D2D, and a plain copy kernel whose DRAM traffic Nsight
// Compute can count), cublasSgeam and the textbook 32 x 33 / 32 x 32
// kernels; beside it the template's first kernel on every tile it was
// chosen from (transpose_tile.cuh), so that the two can be compared in
// one run.  f32 at 4096^2, 8192^2 and 16384^2; f64, f16 and i8 at 8192^2
// and 16384^2 (--quick: 2048^2).  Every result is checked bit for bit
// before it is timed; bandwidth counts bytes read and written.
//
// Build: nvcc -std=c++17 -O3 -arch=sm_90 $(pkg-config --cflags
// bankc-templates) -I GEN transpose.cu -lcublas, GEN holding bankc build's
// headers of specs/templates.tile (the first kernel's tiles).
#include "bench.cuh"
#include "transpose_tile.cuh"

#include <bankc/transpose.cuh>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <thread>

// Input element i of a run: random bits of the element's width; f32, f64
// and f16 as finite values in [-1, 1), so that cublasSgeam (1 * A + 0)
// reproduces them bit for bit.
template <class E> __host__ __device__ inline E gen(uint64_t seed, uint64_t i)
{
	if constexpr (sizeof(E) == 4) {
		const float f = bench::uniform(seed, i);
		uint32_t u;
		memcpy(&u, &f, 4);
		return u;
	} else if constexpr (sizeof(E) == 8) {
		const double d = static_cast<double>(bench::hash(seed, i) >> 11) * 0x1p-52 - 1.0;
		uint64_t u;
		memcpy(&u, &d, 8);
		return u;
	} else if constexpr (sizeof(E) == 2) {
		// sign, exponent 1..29, any mantissa: finite normal halves
		const uint64_t h = bench::hash(seed, i);
		return static_cast<uint16_t>((h & 0x83ff) | ((1 + (h >> 16) % 29) << 10));
	} else {
		return static_cast<E>(bench::hash(seed, i));
	}
}

template <class E> __global__ void fill(E *p, size_t n, uint64_t seed)
{
	for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += static_cast<size_t>(gridDim.x) * blockDim.x)
		p[i] = gen<E>(seed, i);
}

// The copy as a kernel: 16-byte loads and stores over the whole buffer
// (Nsight Compute counts a kernel's DRAM traffic; cudaMemcpy's it may not).
__global__ void copy_kernel(const uint4 *__restrict__ in, uint4 *__restrict__ out, size_t n)
{
	for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += static_cast<size_t>(gridDim.x) * blockDim.x)
		out[i] = __ldg(in + i);
}

// Four blocks of 512 threads per SM: every SM full.
inline void copy16(const void *in, void *out, size_t bytes)
{
	static const int sms = [] {
		int dev = 0, n = 0;
		CUDA_CHECK(cudaGetDevice(&dev));
		CUDA_CHECK(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev));
		return n;
	}();
	copy_kernel<<<4 * sms, 512>>>(static_cast<const uint4 *>(in), static_cast<uint4 *>(out), bytes / 16);
}

// The host's reference: out[c][r] must be input element r * cols + c.
// Returns the number of elements that differ.
template <class E> size_t check_transpose(const E *dout, int rows, int cols, uint64_t seed)
{
	std::vector<E> h(static_cast<size_t>(rows) * cols);
	CUDA_CHECK(cudaMemcpy(h.data(), dout, h.size() * sizeof(E), cudaMemcpyDeviceToHost));
	const int nt = std::max(1u, std::min(32u, std::thread::hardware_concurrency()));
	std::vector<size_t> bad(nt, 0), first(nt, SIZE_MAX);
	std::vector<std::thread> th;
	for (int t = 0; t < nt; t++)
		th.emplace_back([&, t] {
			for (int c = t; c < cols; c += nt)
				for (int r = 0; r < rows; r++) {
					const size_t o = static_cast<size_t>(c) * rows + r;
					if (h[o] != gen<E>(seed, static_cast<size_t>(r) * cols + c)) {
						bad[t]++;
						first[t] = std::min(first[t], o);
					}
				}
		});
	for (auto &x : th)
		x.join();
	size_t n = 0, f = SIZE_MAX;
	for (int t = 0; t < nt; t++)
		n += bad[t], f = std::min(f, first[t]);
	if (n)
		std::printf("    %zu elements differ; first: out[%zu][%zu]\n", n, f / rows, f % rows);
	return n;
}

struct Ctx {
	bench::Table &table;
	cublasHandle_t blas;
};

// Checks (output poisoned first) and times one transpose of a rows x cols
// matrix of E; launch(in, out) runs it.  Bandwidth counts bytes read plus
// bytes written.
template <class E, class F>
void run(Ctx &x, const std::string &kernel, int rows, int cols, const char *ref, double ref_gbs, F &&launch)
{
	if (!bench::selected(kernel))
		return;
	const size_t n = static_cast<size_t>(rows) * cols;
	E *in, *out;
	CUDA_CHECK(cudaMalloc(&in, n * sizeof(E)));
	CUDA_CHECK(cudaMalloc(&out, n * sizeof(E)));
	const uint64_t seed = bench::fresh_seed();
	fill<E><<<1024, 256>>>(in, n, seed);
	LAUNCH_CHECK();
	CUDA_CHECK(cudaMemset(out, 0x7f, n * sizeof(E)));
	launch(in, out);
	LAUNCH_CHECK();
	CUDA_CHECK(cudaDeviceSynchronize());
	const size_t bad = check_transpose<E>(out, rows, cols, seed);
	const double ms = bench::median_ms([&] { launch(in, out); });
	const double gbs = 2.0 * n * sizeof(E) / (ms * 1e6);
	x.table.add({"transpose", kernel, std::to_string(rows) + "^2 " + std::to_string(sizeof(E) * 8) + "b", "GB/s",
		     bad ? "FAIL" : "ok", ms, gbs, ref, ref_gbs, static_cast<double>(bad)});
	CUDA_CHECK(cudaFree(in));
	CUDA_CHECK(cudaFree(out));
}

// The first kernel on Tile, THREADS threads, NT tiles a block.
template <class Tile, int THREADS, int NT = 1> void run_tile(Ctx &x, int n, const char *ref, double ref_gbs)
{
	using E = typename Tile::E;
	std::string k = std::string("first kernel ") + Tile::name + " " + std::to_string(Tile::T) + "x" +
			std::to_string(Tile::T) + " t" + std::to_string(THREADS);
	if (NT > 1)
		k += " x" + std::to_string(NT) + " tiles";
	run<E>(x, k, n, n, ref, ref_gbs, [&](const E *in, E *out) { launch_tile<Tile, THREADS, NT>(in, out, n, n); });
}

// bankc::transpose on elements of type T (E: their bits); `also` tells
// apart a second row of the same call (a row is known by its name).
template <class T> void run_library(Ctx &x, const char *type, int n, const char *ref, double ref_gbs, const char *also = "")
{
	using C = bankc::detail::TransposeChoice<static_cast<int>(sizeof(T))>;
	using E = typename C::Tile::E;
	const std::string k = std::string("bankc::transpose ") + type + " (" + C::Tile::name + " " +
			      std::to_string(C::Tile::T) + "x" + std::to_string(C::Tile::T) + " t" + std::to_string(C::threads) +
			      ")" + also;
	run<E>(x, k, n, n, ref, ref_gbs, [&](const E *in, E *out) {
		CUDA_CHECK(bankc::transpose(reinterpret_cast<const T *>(in), reinterpret_cast<T *>(out), n, n));
	});
}

int main(int argc, char **argv)
{
	const bench::Args args(argc, argv);
	if (args.profile) {
		// Each kernel once, on 1024 x 1024 (--size N), for Nsight Compute:
		// the library's four, the first kernel's, and the copy kernel.
		const int n = args.profile_size(1024);
		const size_t bytes = static_cast<size_t>(n) * n * 8;
		void *in, *out;
		CUDA_CHECK(cudaMalloc(&in, bytes));
		CUDA_CHECK(cudaMalloc(&out, bytes));
		CUDA_CHECK(cudaMemset(in, 1, bytes));
		CUDA_CHECK(bankc::transpose(static_cast<const float *>(in), static_cast<float *>(out), n, n));
		CUDA_CHECK(bankc::transpose(static_cast<const double *>(in), static_cast<double *>(out), n, n));
		CUDA_CHECK(bankc::transpose(static_cast<const __half *>(in), static_cast<__half *>(out), n, n));
		CUDA_CHECK(bankc::transpose(static_cast<const int8_t *>(in), static_cast<int8_t *>(out), n, n));
		launch_tile<TpF32, 512>(in, out, n, n);
		launch_tile<TpF64, 256>(in, out, n, n);
		launch_tile<TpF16, 256>(in, out, n, n);
		launch_tile<TpI8, 256>(in, out, n, n);
		launch_tile<TpF32W, 512>(in, out, n, n);
		launch_tile<TpF16W, 256>(in, out, n, n);
		launch_tile<TpI8W, 256>(in, out, n, n);
		launch_tile<TpF32LW, 512>(in, out, n, n);
		launch_tile<TpF16L, 256>(in, out, n, n);
		launch_tile<TpI8L, 256>(in, out, n, n);
		copy16(in, out, static_cast<size_t>(n) * n * 4);
		LAUNCH_CHECK();
		CUDA_CHECK(cudaDeviceSynchronize());
		return 0;
	}
	bench::print_device();
	bench::Table table(args.csv);
	Ctx x{table, nullptr};
	CUBLAS_CHECK(cublasCreate(&x.blas));
	const std::vector<int> sizes = args.quick ? std::vector<int>{2048} : std::vector<int>{4096, 8192, 16384};
	for (int n : sizes) {
		// Baselines first: the copy is the ceiling, cublasSgeam the f32 target.
		double copy_gbs = 0, geam_gbs = 0;
		{
			const size_t bytes = static_cast<size_t>(n) * n * 4;
			float *a, *b;
			CUDA_CHECK(cudaMalloc(&a, bytes));
			CUDA_CHECK(cudaMalloc(&b, bytes));
			CUDA_CHECK(cudaMemset(a, 0x3f, bytes));
			const double ms = bench::median_ms([&] { CUDA_CHECK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice)); });
			copy_gbs = 2.0 * bytes / (ms * 1e6);
			table.add({"transpose", "cudaMemcpy D2D", std::to_string(n) + "^2 32b", "GB/s", "-", ms, copy_gbs, "", 0, 0});
			const double kms = bench::median_ms([&] { copy16(a, b, bytes); });
			table.add({"transpose", "copy kernel", std::to_string(n) + "^2 32b", "GB/s", "-", kms, 2.0 * bytes / (kms * 1e6),
				   "copy", copy_gbs, 0});
			CUDA_CHECK(cudaFree(a));
			CUDA_CHECK(cudaFree(b));
		}
		{
			const float one = 1, zero = 0;
			run<uint32_t>(x, "cublasSgeam", n, n, "copy", copy_gbs, [&](const uint32_t *in, uint32_t *out) {
				// column-major C = A^T; B = C with beta 0 (cuBLAS's in-place form)
				CUBLAS_CHECK(cublasSgeam(x.blas, CUBLAS_OP_T, CUBLAS_OP_N, n, n, &one,
							 reinterpret_cast<const float *>(in), n, &zero,
							 reinterpret_cast<const float *>(out), n, reinterpret_cast<float *>(out), n));
			});
			geam_gbs = table.last_rate();
		}
		const dim3 tb(32, 8), grid(n / 32, n / 32);
		run<uint32_t>(x, "textbook 32x33", n, n, "geam", geam_gbs, [&](const uint32_t *in, uint32_t *out) {
			transpose_textbook<1><<<grid, tb>>>(reinterpret_cast<const float *>(in), reinterpret_cast<float *>(out), n, n);
		});
		run<uint32_t>(x, "textbook 32x32 unpadded", n, n, "geam", geam_gbs, [&](const uint32_t *in, uint32_t *out) {
			transpose_textbook<0><<<grid, tb>>>(reinterpret_cast<const float *>(in), reinterpret_cast<float *>(out), n, n);
		});
		// The library (against cublasSgeam, and against the copy), then the
		// first kernel it came from and the kept variants: the wide drain,
		// on the same tile and on one of 128 x 128 (512-byte rows).
		run_library<float>(x, "float", n, "geam", geam_gbs);
		run_library<float>(x, "float", n, "copy", copy_gbs, ", against the copy");
		run_tile<TpF32, 512>(x, n, "geam", geam_gbs);
		run_tile<TpF32W, 512>(x, n, "geam", geam_gbs);
		run_tile<TpF32LW, 512>(x, n, "geam", geam_gbs);
		if (args.explore) {
			run_tile<TpF32, 256>(x, n, "geam", geam_gbs);	// same instructions, half the threads
			run_tile<TpF32, 512, 2>(x, n, "geam", geam_gbs);
			run_tile<TpF32W, 512, 2>(x, n, "geam", geam_gbs);
			run_tile<TpF32LW, 256>(x, n, "geam", geam_gbs);
		}
		if (n >= 8192 || args.quick) {
			// Other widths against the copy (the same bytes moved): the
			// library, then the first kernel on its tile with 128-byte rows
			// (scalar and wide drain) and on the one with 256-byte rows.
			run_library<double>(x, "double", n, "copy", copy_gbs);
			run_library<__half>(x, "__half", n, "copy", copy_gbs);
			run_library<int8_t>(x, "int8_t", n, "copy", copy_gbs);
			run_tile<TpF64, 256>(x, n, "copy", copy_gbs);
			run_tile<TpF16, 256>(x, n, "copy", copy_gbs);
			run_tile<TpF16W, 256>(x, n, "copy", copy_gbs);
			run_tile<TpF16L, 256>(x, n, "copy", copy_gbs);
			run_tile<TpI8, 256>(x, n, "copy", copy_gbs);
			run_tile<TpI8W, 256>(x, n, "copy", copy_gbs);
			run_tile<TpI8L, 256>(x, n, "copy", copy_gbs);
			if (args.explore) {
				run_tile<TpF64, 256, 2>(x, n, "copy", copy_gbs);
				run_tile<TpF16W, 256, 2>(x, n, "copy", copy_gbs);
				run_tile<TpI8W, 256, 2>(x, n, "copy", copy_gbs);
				run_tile<TpF16L, 512>(x, n, "copy", copy_gbs);
				run_tile<TpI8L, 512>(x, n, "copy", copy_gbs);
			}
		}
	}
	CUBLAS_CHECK(cublasDestroy(x.blas));
	return table.finish();
}
