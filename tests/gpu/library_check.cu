// library_check.cu: the kernel library on a GPU, through its public API
// only (include/bankc/transpose.cuh, include/bankc/gemm.cuh, as installed):
//   - bankc::transpose for float, double, __half, __nv_bfloat16, int8_t,
//     uint8_t and int32_t on 30 shapes (one row, one column, ragged
//     edges, tall and skinny, up to 8192^2), and on 6 of them with each
//     pointer one element off 16 bytes: bit for bit against the host;
//   - bankc::gemm (C = A B^T) for f16, bf16 and e4m3 with C in the input's
//     type (bf16 for e4m3) and in f32, and bankc::gemm_ab (C = A B) for
//     f16 and bf16, on 30 shapes (square, ragged, K small, M = 1, N = 1):
//     element by element against cublasGemmEx with the same rows (e4m3
//     through f16, which holds every e4m3 value exactly), the tolerance
//     floored at the reference's rms; e4m3 also with per-tensor scales;
//     K = 0 (C zeroed), M or N = 0 (nothing written), and a call on a
//     stream of its own;
//   - refusals: arguments TMA cannot take give cudaErrorInvalidValue and
//     write nothing.
// On a GPU without sm_90a the GEMM rows must all be cudaErrorNotSupported
// (and are counted as passed, said so); the transposes run everywhere.
//
// usage: library_check [TSV]  (every check as a row of TSV; default none)
// Exit status 0 when every check passed.  Build: nvcc -std=c++17 -O2
// -gencode=arch=compute_90a,code=sm_90a $(pkg-config --cflags
// bankc-templates) library_check.cu -lcublas (tests/gpu/check_library.sh).
#include <bankc/gemm.cuh>
#include <bankc/transpose.cuh>

#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#define CUDA_OK(x)                                                                                     \
	do {                                                                                           \
		const cudaError_t e_ = (x);                                                            \
		if (e_ != cudaSuccess) {                                                               \
			std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
			std::exit(2);                                                                  \
		}                                                                                      \
	} while (0)
#define BLAS_OK(x)                                                                                     \
	do {                                                                                           \
		if ((x) != CUBLAS_STATUS_SUCCESS) {                                                    \
			std::fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #x);            \
			std::exit(2);                                                                  \
		}                                                                                      \
	} while (0)

static int passed = 0, failed = 0, unsupported = 0;
static FILE *tsv = nullptr;

static void record(const std::string &what, const std::string &shape, bool ok, const std::string &detail)
{
	(ok ? passed : failed)++;
	std::printf("%-4s %-44s %-18s %s\n", ok ? "ok" : "FAIL", what.c_str(), shape.c_str(), detail.c_str());
	if (tsv)
		std::fprintf(tsv, "%s\t%s\t%s\t%s\n", what.c_str(), shape.c_str(), ok ? "ok" : "FAIL", detail.c_str());
}

static std::string dims(long long a, long long b) { return std::to_string(a) + "x" + std::to_string(b); }
static std::string dims(long long a, long long b, long long c) { return dims(a, b) + "x" + std::to_string(c); }

// ---- transposes --------------------------------------------------------------

static const long long tshapes[30][2] = {
	{1, 1},	     {1, 5000},	  {5000, 1},   {2, 3},	     {31, 33},	   {64, 64},	 {65, 63},    {127, 129},
	{128, 128},  {255, 257},  {256, 256},  {257, 255},   {1000, 999},  {999, 1000},  {1024, 1024}, {3, 100000},
	{100000, 3}, {513, 2049}, {2049, 513}, {4096, 4096}, {4097, 4095}, {4095, 4097}, {8192, 8192}, {8, 65536},
	{65536, 8},  {300, 7000}, {7000, 300}, {1, 131072},  {131072, 1},  {2048, 6144},
};

// rows x cols of random bits, in and out `off` elements past 16 bytes
template <class T> static void transpose_case(const char *type, long long rows, long long cols, int off, cudaStream_t s)
{
	const size_t n = static_cast<size_t>(rows * cols), bytes = n * sizeof(T);
	std::vector<unsigned char> h(bytes), t(bytes);
	std::mt19937_64 rng(static_cast<uint64_t>(rows * 7919 + cols));
	for (size_t i = 0; i < bytes; i += 8) {
		const uint64_t v = rng();
		std::memcpy(&h[i], &v, std::min<size_t>(8, bytes - i));
	}
	unsigned char *din, *dout;
	CUDA_OK(cudaMalloc(&din, bytes + 16));
	CUDA_OK(cudaMalloc(&dout, bytes + 16));
	T *in = reinterpret_cast<T *>(din) + off, *out = reinterpret_cast<T *>(dout) + off;
	CUDA_OK(cudaMemcpy(in, h.data(), bytes, cudaMemcpyHostToDevice));
	CUDA_OK(cudaMemset(dout, 0xa5, bytes + 16));
	// the copy and the memset are the legacy default stream's, which does
	// not order with a non-blocking stream: done before the call (else
	// the memset may land on the transpose's output)
	CUDA_OK(cudaDeviceSynchronize());
	const cudaError_t e = bankc::transpose(static_cast<const T *>(in), out, rows, cols, s);
	CUDA_OK(cudaStreamSynchronize(s));
	CUDA_OK(cudaGetLastError());
	std::vector<unsigned char> all(bytes + 16);
	CUDA_OK(cudaMemcpy(all.data(), dout, bytes + 16, cudaMemcpyDeviceToHost));
	std::memcpy(t.data(), all.data() + off * sizeof(T), bytes);
	size_t bad = 0;
	for (long long r = 0; r < rows; r++)
		for (long long c = 0; c < cols; c++)
			bad += std::memcmp(&t[(c * rows + r) * sizeof(T)], &h[(r * cols + c) * sizeof(T)], sizeof(T)) != 0;
	// nothing written around out
	for (size_t i = 0; i < off * sizeof(T); i++)
		bad += all[i] != 0xa5;
	for (size_t i = off * sizeof(T) + bytes; i < bytes + 16; i++)
		bad += all[i] != 0xa5;
	CUDA_OK(cudaFree(din));
	CUDA_OK(cudaFree(dout));
	char d[96];
	std::snprintf(d, sizeof d, "%s, %zu wrong", e == cudaSuccess ? "launched" : cudaGetErrorName(e), bad);
	record(std::string("transpose ") + type + (off ? " (misaligned)" : ""), dims(rows, cols), e == cudaSuccess && bad == 0, d);
}

template <class T> static void transposes(const char *type, cudaStream_t s)
{
	for (int i = 0; i < 30; i++)
		transpose_case<T>(type, tshapes[i][0], tshapes[i][1], 0, s);
	for (int i : {5, 8, 12, 15, 19, 22})
		transpose_case<T>(type, tshapes[i][0], tshapes[i][1], 1, s);
}

// ---- GEMMs ----------------------------------------------------------------------

static const int gshapes[30][3] = {
	{128, 256, 64},	   {256, 256, 256},   {512, 512, 512},	   {1024, 1024, 1024}, {2048, 2048, 2048},
	{4096, 4096, 4096}, {4097, 4097, 4097}, {1000, 999, 136},   {1, 4096, 4096},	  {1, 1, 1},
	{1, 1000, 72},	   {4096, 1, 4096},   {3, 5, 7},	   {129, 257, 65},	  {333, 444, 555},
	{4096, 4096, 8},   {4096, 4096, 16},  {4096, 4096, 24},	   {100, 100, 10000},	  {8192, 256, 64},
	{256, 8192, 64},   {2, 16384, 128},   {16384, 2, 128},	   {777, 1555, 2048},	  {1536, 1536, 1536},
	{64, 64, 64},	   {255, 257, 128},   {4095, 4097, 200},   {8192, 8192, 8192},	  {3000, 40, 1000},
};

template <class T> struct Traits;
template <> struct Traits<__half> {
	static constexpr const char *name = "f16";
	static constexpr int align = 8;
	using Out = __half;
	static constexpr cudaDataType_t blas = CUDA_R_16F;
};
template <> struct Traits<__nv_bfloat16> {
	static constexpr const char *name = "bf16";
	static constexpr int align = 8;
	using Out = __nv_bfloat16;
	static constexpr cudaDataType_t blas = CUDA_R_16BF;
};
template <> struct Traits<__nv_fp8_e4m3> {
	static constexpr const char *name = "e4m3";
	static constexpr int align = 16;
	using Out = __nv_bfloat16;
	static constexpr cudaDataType_t blas = CUDA_R_16F;	// the reference runs on f16 copies
};

static float as_float(float x) { return x; }
static float as_float(__half x) { return __half2float(x); }
static float as_float(__nv_bfloat16 x) { return __bfloat162float(x); }
template <class T> __host__ __device__ T from_float(float x);
template <> __host__ __device__ __half from_float<__half>(float x) { return __float2half_rn(x); }
template <> __host__ __device__ __nv_bfloat16 from_float<__nv_bfloat16>(float x) { return __float2bfloat16_rn(x); }
template <> __host__ __device__ __nv_fp8_e4m3 from_float<__nv_fp8_e4m3>(float x) { return __nv_fp8_e4m3(x); }

// The GEMMs' inputs, made on the GPU (8192^3's on the host took most of
// the check's time): k / 16 for k in [-16, 16], from a hash of the
// index, into x and into the reference's copy rx.  Every such value is
// exact in e4m3, f16 and bf16, and f32 sums of their products are exact
// up to K of 2^16, so an f32 C must equal cuBLAS's whatever the order of
// its sums.
template <class T, class R> __global__ void fill_inputs(T *x, R *rx, size_t n, uint64_t seed)
{
	for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
	     i += static_cast<size_t>(gridDim.x) * blockDim.x) {
		uint64_t h = (i + seed) * 0x9e3779b97f4a7c15ull;
		h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
		h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
		h ^= h >> 31;
		const float v = static_cast<float>(static_cast<int>(h % 33) - 16) / 16.0f;
		x[i] = from_float<T>(v);
		rx[i] = from_float<R>(v);
	}
}

static int round_up(int x, int m) { return (x + m - 1) / m * m; }

// Elements of x (M x N, rows of ldx) off the reference r (rows of ldr) by
// more than tol (|r| + rms of r); NaN counts as off.
template <class X> static size_t off_count(const std::vector<X> &x, int ldx, const std::vector<float> &r, int M, int N,
					   double tol, double *rel)
{
	double s2 = 0, d2 = 0;
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			s2 += static_cast<double>(r[static_cast<size_t>(i) * N + j]) * r[static_cast<size_t>(i) * N + j];
	const double rms = M && N ? std::sqrt(s2 / (static_cast<double>(M) * N)) : 0;
	size_t off = 0;
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			const double a = as_float(x[static_cast<size_t>(i) * ldx + j]), b = r[static_cast<size_t>(i) * N + j];
			d2 += (a - b) * (a - b);
			off += !(std::fabs(a - b) <= tol * (std::fabs(b) + rms));
		}
	*rel = s2 > 0 ? std::sqrt(d2 / s2) : std::sqrt(d2);
	return off;
}

struct Gemm {
	cublasHandle_t blas;
	cudaStream_t stream;
	bool sm90a;	// the first GEMM call said whether this GPU runs it
	bool known = false;
};

// One call: C (Out, rows of ldc) from A (M x K) and B (N x K, or K x N
// with ab), checked against cuBLAS's f32 result of the same inputs.
template <class T, class Out>
static void gemm_case(Gemm &g, int M, int N, int K, bool ab, bool scaled)
{
	using Tr = Traits<T>;
	const int lda = round_up(std::max(K, 1), Tr::align), ldb = ab ? round_up(std::max(N, 1), Tr::align) : lda;
	// a 16-bit C: 8 columns of padding past the 16-byte rows TMA needs, which
	// nothing may write (TMA where N is a multiple of 8, the threads else)
	const int ldc = sizeof(Out) == 2 ? round_up(std::max(N, 1), 8) + 8 : std::max(N, 1);
	const size_t na = static_cast<size_t>(M) * lda, nb = static_cast<size_t>(ab ? K : N) * ldb, nc = static_cast<size_t>(M) * ldc;
	// the reference's inputs: the same values as f16 (exact for e4m3)
	using R = typename std::conditional<std::is_same<T, __nv_fp8_e4m3>::value, __half, T>::type;
	T *dA, *dB;
	R *rA, *rB;
	Out *dC;
	float *dR, *ds;
	CUDA_OK(cudaMalloc(&dA, std::max<size_t>(na, 1) * sizeof(T)));
	CUDA_OK(cudaMalloc(&dB, std::max<size_t>(nb, 1) * sizeof(T)));
	CUDA_OK(cudaMalloc(&rA, std::max<size_t>(na, 1) * sizeof(R)));
	CUDA_OK(cudaMalloc(&rB, std::max<size_t>(nb, 1) * sizeof(R)));
	CUDA_OK(cudaMalloc(&dC, std::max<size_t>(nc, 1) * sizeof(Out)));
	CUDA_OK(cudaMalloc(&dR, std::max<size_t>(static_cast<size_t>(M) * N, 1) * sizeof(float)));
	CUDA_OK(cudaMalloc(&ds, 2 * sizeof(float)));
	const float scales[2] = {0.5f, 3.0f};
	CUDA_OK(cudaMemcpy(ds, scales, sizeof scales, cudaMemcpyHostToDevice));
	const uint64_t seed = static_cast<uint64_t>(M) * 1000003u + static_cast<uint64_t>(N) * 7919u + K;
	if (na)
		fill_inputs<<<1024, 256>>>(dA, rA, na, seed);
	if (nb)
		fill_inputs<<<1024, 256>>>(dB, rB, nb, ~seed);
	CUDA_OK(cudaGetLastError());
	CUDA_OK(cudaMemset(dC, 0xff, std::max<size_t>(nc, 1) * sizeof(Out)));	// NaN: unwritten elements fail
	CUDA_OK(cudaDeviceSynchronize());	// the legacy stream's copies and memset, before g.stream's call
	cudaError_t e;
	if constexpr (std::is_same<T, __nv_fp8_e4m3>::value)
		e = bankc::gemm(M, N, K, dA, lda, dB, ldb, dC, ldc, g.stream, scaled ? ds : nullptr, scaled ? ds + 1 : nullptr);
	else if (ab)
		e = bankc::gemm_ab(M, N, K, dA, lda, dB, ldb, dC, ldc, g.stream);
	else
		e = bankc::gemm(M, N, K, dA, lda, dB, ldb, dC, ldc, g.stream);
	CUDA_OK(cudaStreamSynchronize(g.stream));
	CUDA_OK(cudaGetLastError());
	const std::string what = std::string(ab ? "gemm_ab " : "gemm ") + Tr::name + ", C " +
				 (sizeof(Out) == 4 ? "f32" : std::is_same<Out, __half>::value ? "f16" : "bf16") + (scaled ? ", scaled" : "");
	if (e == cudaErrorNotSupported && (!g.known || !g.sm90a)) {
		g.known = true, g.sm90a = false;
		unsupported++;
		record(what, dims(M, N, K), true, "cudaErrorNotSupported (no sm_90a here)");
	} else if (e != cudaSuccess) {
		record(what, dims(M, N, K), false, cudaGetErrorName(e));
	} else {
		if (M && N && K)
			g.known = true, g.sm90a = true;
		// row-major C = A B^T is column-major C^T = B A^T (B N x K: transposed
		// as column-major K x N); with ab, B K x N is column-major N x K
		const float alpha = scaled ? scales[0] * scales[1] : 1.0f, zero = 0;
		if (M && N && K)
			BLAS_OK(cublasGemmEx(g.blas, ab ? CUBLAS_OP_N : CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &alpha, rB, Tr::blas, ldb,
					     rA, Tr::blas, lda, &zero, dR, CUDA_R_32F, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
		else if (M && N)
			CUDA_OK(cudaMemset(dR, 0, static_cast<size_t>(M) * N * sizeof(float)));
		CUDA_OK(cudaStreamSynchronize(g.stream));
		std::vector<Out> c(nc);
		std::vector<float> r(static_cast<size_t>(M) * N);
		if (nc)
			CUDA_OK(cudaMemcpy(c.data(), dC, nc * sizeof(Out), cudaMemcpyDeviceToHost));
		if (M && N)
			CUDA_OK(cudaMemcpy(r.data(), dR, r.size() * sizeof(float), cudaMemcpyDeviceToHost));
		double rel = 0;
		// a 16-bit C rounds each element (2^-8 of bf16, 2^-11 of f16); an
		// f32 C from 16-bit inputs is exact (fill_inputs), so it must equal
		// cuBLAS's; e4m3's wgmma adds its products with fewer bits
		const double tol = sizeof(Out) == 4 && sizeof(T) == 2 ? 0 : 2e-2;
		const size_t off = off_count(c, ldc, r, M, N, tol, &rel);
		// nothing past N in a padded row of C
		size_t pad = 0;
		if (ldc > N) {
			std::vector<unsigned char> raw(nc * sizeof(Out));
			CUDA_OK(cudaMemcpy(raw.data(), dC, raw.size(), cudaMemcpyDeviceToHost));
			for (int i = 0; i < M; i++)
				for (size_t k = static_cast<size_t>(N) * sizeof(Out); k < static_cast<size_t>(ldc) * sizeof(Out); k++)
					pad += raw[static_cast<size_t>(i) * ldc * sizeof(Out) + k] != 0xff;
		}
		char d[128];
		std::snprintf(d, sizeof d, "%zu off, rel %.2e, %zu padding bytes written", off, rel, pad);
		record(what, dims(M, N, K), off == 0 && pad == 0 && rel < 1e-2, d);
	}
	for (void *p : {static_cast<void *>(dA), static_cast<void *>(dB), static_cast<void *>(rA), static_cast<void *>(rB),
			static_cast<void *>(dC), static_cast<void *>(dR), static_cast<void *>(ds)})
		CUDA_OK(cudaFree(p));
}

// Arguments the library refuses: cudaErrorInvalidValue, C untouched.
static void refusals(cudaStream_t s)
{
	__half *A, *B;
	float *C;
	CUDA_OK(cudaMalloc(&A, 1 << 20));
	CUDA_OK(cudaMalloc(&B, 1 << 20));
	CUDA_OK(cudaMalloc(&C, 1 << 20));
	CUDA_OK(cudaMemset(C, 0x7f, 1 << 20));
	CUDA_OK(cudaDeviceSynchronize());
	struct {
		const char *what;
		cudaError_t e;
	} cases[] = {
		{"lda of 100 halves (200 bytes)", bankc::gemm(64, 64, 100, A, 100, B, 104, C, 64, s)},
		{"A 8 bytes past 16", bankc::gemm(64, 64, 64, A + 4, 64, B, 64, C, 64, s)},
		{"lda below K", bankc::gemm(64, 64, 64, A, 56, B, 64, C, 64, s)},
		{"ldc below N", bankc::gemm(64, 64, 64, A, 64, B, 64, C, 32, s)},
		{"an f16 C with ldc of 60 (120 bytes)", bankc::gemm(64, 60, 64, A, 64, B, 64, A + 65536, 60, s)},
		{"C over A", bankc::gemm(64, 64, 64, A, 64, B, 64, reinterpret_cast<float *>(A), 64, s)},
		{"negative M", bankc::gemm(-1, 64, 64, A, 64, B, 64, C, 64, s)},
		{"transpose, in and out overlapping", bankc::transpose(C, C + 10, 64, 64, s)},
		{"transpose, negative rows", bankc::transpose(C, C + 8192, -5, 64, s)},
	};
	CUDA_OK(cudaStreamSynchronize(s));
	std::vector<unsigned> h((1 << 20) / 4);
	CUDA_OK(cudaMemcpy(h.data(), C, 1 << 20, cudaMemcpyDeviceToHost));
	const bool untouched = std::all_of(h.begin(), h.end(), [](unsigned v) { return v == 0x7f7f7f7fu; });
	for (const auto &c : cases)
		record(std::string("refused: ") + c.what, "-", c.e == cudaErrorInvalidValue && untouched, cudaGetErrorName(c.e));
	CUDA_OK(cudaFree(A));
	CUDA_OK(cudaFree(B));
	CUDA_OK(cudaFree(C));
}

int main(int argc, char **argv)
{
	if (argc > 2) {
		std::fprintf(stderr, "usage: library_check [TSV]\n");
		return 2;
	}
	if (argc == 2 && !(tsv = std::fopen(argv[1], "w"))) {
		std::perror(argv[1]);
		return 2;
	}
	int dev = 0;
	cudaDeviceProp p;
	CUDA_OK(cudaGetDevice(&dev));
	CUDA_OK(cudaGetDeviceProperties(&p, dev));
	std::printf("device: %s, sm_%d%d\n", p.name, p.major, p.minor);
	cudaStream_t s;
	CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

	transposes<float>("float", s);
	transposes<double>("double", s);
	transposes<__half>("__half", s);
	transposes<__nv_bfloat16>("__nv_bfloat16", s);
	transposes<int8_t>("int8_t", s);
	transposes<uint8_t>("uint8_t", s);
	transposes<int32_t>("int32_t", s);

	Gemm g{nullptr, s, false};
	BLAS_OK(cublasCreate(&g.blas));
	BLAS_OK(cublasSetStream(g.blas, s));
	for (const auto &sh : gshapes) {
		const int M = sh[0], N = sh[1], K = sh[2];
		gemm_case<__half, __half>(g, M, N, K, false, false);
		gemm_case<__half, float>(g, M, N, K, false, false);
		gemm_case<__nv_bfloat16, __nv_bfloat16>(g, M, N, K, false, false);
		gemm_case<__nv_bfloat16, float>(g, M, N, K, false, false);
		gemm_case<__half, __half>(g, M, N, K, true, false);
		gemm_case<__half, float>(g, M, N, K, true, false);
		gemm_case<__nv_bfloat16, __nv_bfloat16>(g, M, N, K, true, false);
		gemm_case<__nv_bfloat16, float>(g, M, N, K, true, false);
		gemm_case<__nv_fp8_e4m3, __nv_bfloat16>(g, M, N, K, false, false);
		gemm_case<__nv_fp8_e4m3, float>(g, M, N, K, false, false);
		gemm_case<__nv_fp8_e4m3, float>(g, M, N, K, false, true);
	}
	// K = 0 sets C to 0; M or N = 0 writes nothing
	gemm_case<__half, float>(g, 300, 200, 0, false, false);
	gemm_case<__nv_bfloat16, __nv_bfloat16>(g, 300, 200, 0, false, false);
	gemm_case<__half, float>(g, 0, 200, 64, false, false);
	gemm_case<__half, __half>(g, 300, 0, 64, false, false);
	refusals(s);
	BLAS_OK(cublasDestroy(g.blas));
	CUDA_OK(cudaStreamDestroy(s));
	std::printf("library check: %d passed, %d failed (%d GEMMs not supported on this GPU)\n", passed, failed, unsupported);
	if (tsv)
		std::fclose(tsv);
	return failed ? 1 : 0;
}
