// bench.cuh: what the template benchmarks share: error checks, random
// inputs, event timing (median of many samples) and the result table/CSV.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <thread>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#define CUDA_CHECK(x)                                                                      \
	do {                                                                                   \
		cudaError_t err_ = (x);                                                            \
		if (err_ != cudaSuccess) {                                                         \
			std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x,                \
				     cudaGetErrorString(err_));                                            \
			std::exit(1);                                                                  \
		}                                                                                  \
	} while (0)

#define CUBLAS_CHECK(x)                                                                    \
	do {                                                                                   \
		cublasStatus_t st_ = (x);                                                          \
		if (st_ != CUBLAS_STATUS_SUCCESS) {                                                \
			std::fprintf(stderr, "%s:%d: %s: cuBLAS status %d\n", __FILE__, __LINE__, #x,  \
				     static_cast<int>(st_));                                               \
			std::exit(1);                                                                  \
		}                                                                                  \
	} while (0)

// A launch error shows at once; an execution error at the next sync.
#define LAUNCH_CHECK() CUDA_CHECK(cudaGetLastError())

namespace bench {

// Counter-based hash (splitmix64 finaliser): input element i of a run with
// seed s is hash(s, i), so the host can recompute any element it checks.
__host__ __device__ inline uint64_t hash(uint64_t seed, uint64_t i)
{
	uint64_t z = seed + 0x9e3779b97f4a7c15ull * (i + 1);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

// Uniform in [-1, 1), on a 2^-23 grid: exact in f32, never -0.
__host__ __device__ inline float uniform(uint64_t seed, uint64_t i)
{
	return static_cast<float>(hash(seed, i) >> 40) * (1.0f / 8388608.0f) - 1.0f;
}

inline uint64_t fresh_seed()
{
	static uint64_t n = 0;
	return hash(static_cast<uint64_t>(std::time(nullptr)), n++);
}

// Median time of one call of f, in ms: warm-up, then samples of `inner`
// back-to-back calls between two events, inner chosen so that a sample
// lasts about a millisecond (launch gaps stay out of short kernels).
template <class F> double median_ms(F &&f, int samples = 21)
{
	cudaEvent_t a, b;
	CUDA_CHECK(cudaEventCreate(&a));
	CUDA_CHECK(cudaEventCreate(&b));
	for (int i = 0; i < 3; i++)
		f();
	LAUNCH_CHECK();
	CUDA_CHECK(cudaEventRecord(a));
	f();
	CUDA_CHECK(cudaEventRecord(b));
	CUDA_CHECK(cudaEventSynchronize(b));
	float one = 0;
	CUDA_CHECK(cudaEventElapsedTime(&one, a, b));
	const int inner = std::max(1, std::min(200, static_cast<int>(1.0f / std::max(one, 1e-4f))));
	std::vector<double> t;
	for (int s = 0; s < samples; s++) {
		CUDA_CHECK(cudaEventRecord(a));
		for (int i = 0; i < inner; i++)
			f();
		CUDA_CHECK(cudaEventRecord(b));
		CUDA_CHECK(cudaEventSynchronize(b));
		float ms = 0;
		CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
		t.push_back(static_cast<double>(ms) / inner);
	}
	LAUNCH_CHECK();
	CUDA_CHECK(cudaEventDestroy(a));
	CUDA_CHECK(cudaEventDestroy(b));
	std::sort(t.begin(), t.end());
	return t[t.size() / 2];
}

// Host work split over the machine's cores: f(t, nt) for t < nt.
template <class F> void parallel(F &&f)
{
	const int nt = static_cast<int>(std::max(1u, std::min(32u, std::thread::hardware_concurrency())));
	std::vector<std::thread> th;
	for (int t = 0; t < nt; t++)
		th.emplace_back([&f, t, nt] { f(t, nt); });
	for (auto &x : th)
		x.join();
}

// A result against its reference.  rel is ||x - r|| / ||r|| (NaN if any
// element is NaN); off counts the elements with |x - r| > tol (|r| + rms),
// rms the root mean square of r, and first is the lowest such index.  A
// K-long dot product rounds in proportion to the size of its terms, which
// the matrix's rms measures, not to its own value, which may be near 0:
// the floor is rms, not a constant.  A wrong or unwritten element is off by
// about rms or more (NaN always counts as off).
struct Diff {
	double rel = 0, rms = 0;
	size_t off = 0, first = 0;
	bool ok(double max_rel) const { return rel < max_rel && off == 0; }
};

template <class T, class F> Diff compare(const std::vector<T> &x, const std::vector<T> &r, double tol, F &&to_double)
{
	const size_t n = r.size();
	std::vector<double> num(32, 0), den(32, 0);
	std::vector<size_t> off(32, 0), first(32, SIZE_MAX);
	parallel([&](int t, int nt) {
		for (size_t i = n * t / nt; i < n * (t + 1) / nt; i++)
			den[t] += to_double(r[i]) * to_double(r[i]);
	});
	double sum_r2 = 0, sum_d2 = 0;
	for (double d : den)
		sum_r2 += d;
	const double rms = std::sqrt(sum_r2 / static_cast<double>(n));
	parallel([&](int t, int nt) {
		for (size_t i = n * t / nt; i < n * (t + 1) / nt; i++) {
			const double b = to_double(r[i]), d = to_double(x[i]) - b;
			num[t] += d * d;
			if (!(std::fabs(d) <= tol * (std::fabs(b) + rms)) && !off[t]++)
				first[t] = i;
		}
	});
	Diff df;
	size_t f = SIZE_MAX;
	for (int t = 0; t < 32; t++) {
		sum_d2 += num[t];
		df.off += off[t];
		f = std::min(f, first[t]);
	}
	df.first = df.off ? f : 0;
	df.rms = rms;
	df.rel = std::sqrt(sum_d2 / sum_r2);
	return df;
}

struct Row {
	std::string bench, kernel, size, unit, check;
	double ms, rate;
	std::string ref;	// what the ratio compares with ("" for none)
	double ref_rate;
	double err;		// relative error, or mismatching elements
};

inline std::string ratio(const Row &r)
{
	if (r.ref_rate <= 0)
		return "-";
	char b[64];
	std::snprintf(b, sizeof b, "%.3f x %s", r.rate / r.ref_rate, r.ref.c_str());
	return b;
}

class Table {
      public:
	explicit Table(const char *csv) : csv_(csv) {}
	void add(const Row &r)
	{
		rows_.push_back(r);
		std::printf("  %-9s %-30s %-14s %10.4f ms %8.1f %-7s %-22s %s (%.3g)\n", r.bench.c_str(),
			    r.kernel.c_str(), r.size.c_str(), r.ms, r.rate, r.unit.c_str(), ratio(r).c_str(),
			    r.check.c_str(), r.err);
		std::fflush(stdout);
		if (r.check == "FAIL")
			failed_ = true;
	}
	bool failed() const { return failed_; }
	double last_rate() const { return rows_.empty() ? 0 : rows_.back().rate; }
	// Prints the table again (the end of a log is what gets read) and
	// writes the CSV.
	int finish() const
	{
		std::printf("\n| bench | kernel | size | ms | rate | unit | ratio | check | err |\n"
			    "| --- | --- | --- | ---: | ---: | --- | ---: | --- | ---: |\n");
		for (const Row &r : rows_)
			std::printf("| %s | %s | %s | %.4f | %.1f | %s | %s | %s | %.3g |\n", r.bench.c_str(),
				    r.kernel.c_str(), r.size.c_str(), r.ms, r.rate, r.unit.c_str(), ratio(r).c_str(),
				    r.check.c_str(), r.err);
		if (csv_) {
			FILE *f = std::fopen(csv_, "w");
			if (!f) {
				std::perror(csv_);
				return 1;
			}
			std::fprintf(f, "bench,kernel,size,ms,rate,unit,ref,vs_ref,check,err\n");
			for (const Row &r : rows_)
				// Kernel names hold commas: quoted, as RFC 4180 has it.
				std::fprintf(f, "%s,\"%s\",%s,%.6f,%.3f,%s,%s,%.4f,%s,%.6g\n", r.bench.c_str(),
					     r.kernel.c_str(), r.size.c_str(), r.ms, r.rate, r.unit.c_str(), r.ref.c_str(),
					     r.ref_rate > 0 ? r.rate / r.ref_rate : 0.0, r.check.c_str(), r.err);
			std::fclose(f);
		}
		return failed_ ? 1 : 0;
	}

      private:
	const char *csv_;
	std::vector<Row> rows_;
	bool failed_ = false;
};

// --only TEXT: the GEMM drivers time only the kernels whose row names
// contain TEXT (the references always run).
inline std::string &only_filter()
{
	static std::string s;
	return s;
}
inline bool selected(const std::string &kernel) { return kernel.find(only_filter()) != std::string::npos; }

// Command line shared by the drivers: --csv FILE, --profile (each template
// kernel once, for Nsight Compute, on a small size or --size N), --quick
// (small sizes), --explore (also the variants kept beside the template,
// each a row of its own), --only TEXT.
struct Args {
	const char *csv = nullptr;
	bool profile = false, quick = false, explore = false;
	int size = 0;
	Args(int argc, char **argv)
	{
		for (int i = 1; i < argc; i++) {
			if (!std::strcmp(argv[i], "--csv") && i + 1 < argc)
				csv = argv[++i];
			else if (!std::strcmp(argv[i], "--profile"))
				profile = true;
			else if (!std::strcmp(argv[i], "--quick"))
				quick = true;
			else if (!std::strcmp(argv[i], "--explore"))
				explore = true;
			else if (!std::strcmp(argv[i], "--only") && i + 1 < argc)
				only_filter() = argv[++i];
			else if (!std::strcmp(argv[i], "--size") && i + 1 < argc)
				size = std::atoi(argv[++i]);
			else {
				std::fprintf(stderr, "usage: %s [--csv FILE] [--profile [--size N]] [--quick] [--explore] [--only TEXT]\n", argv[0]);
				std::exit(2);
			}
		}
	}
	int profile_size(int small) const { return size > 0 ? size : small; }
};

// The GEMM drivers' cube sizes: 4096 and 8192 (docs/performance.md), 1024 for
// --quick.
inline std::vector<int> gemm_sizes(const Args &args)
{
	return args.quick ? std::vector<int>{1024} : std::vector<int>{4096, 8192};
}

inline void print_device()
{
	int dev = 0, drv = 0, rt = 0;
	cudaDeviceProp p;
	CUDA_CHECK(cudaGetDevice(&dev));
	CUDA_CHECK(cudaGetDeviceProperties(&p, dev));
	CUDA_CHECK(cudaDriverGetVersion(&drv));
	CUDA_CHECK(cudaRuntimeGetVersion(&rt));
	std::printf("device: %s, sm_%d%d, %d SMs, %.0f MB L2; CUDA driver %d, runtime %d\n", p.name, p.major,
		    p.minor, p.multiProcessorCount, p.l2CacheSize / 1e6, drv, rt);
}

} // namespace bench
