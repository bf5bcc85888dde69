// main.cu: a program that uses bankc's kernel library as installed: a
// transpose of floats and one of bytes with ragged edges, then a GEMM
// (f16 in, f32 out) with ragged M, N and K, each checked on the host.
//
// Exit status: 0 when every result is right (a GEMM the GPU cannot run
// says so and counts as right: bankc::gemm refuses rather than answer
// wrong); 1 when one is wrong or a call fails; 77 without a CUDA device.
#include <bankc/gemm.cuh>
#include <bankc/transpose.cuh>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#define CHECK(x)                                                                                  \
	do {                                                                                      \
		const cudaError_t e_ = (x);                                                       \
		if (e_ != cudaSuccess) {                                                          \
			std::printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
			return 1;                                                                 \
		}                                                                                 \
	} while (0)

// in (rows x cols) transposed by bankc::transpose, compared bit for bit.
template <class T> static int transpose_check(const char *name, int rows, int cols)
{
	const size_t n = static_cast<size_t>(rows) * cols;
	std::vector<T> h(n), t(n);
	for (size_t i = 0; i < n; i++)
		h[i] = static_cast<T>(i * 2654435761u % 251);
	T *in, *out;
	CHECK(cudaMalloc(&in, n * sizeof(T)));
	CHECK(cudaMalloc(&out, n * sizeof(T)));
	CHECK(cudaMemcpy(in, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
	CHECK(bankc::transpose(in, out, rows, cols));
	CHECK(cudaMemcpy(t.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost));
	CHECK(cudaFree(in));
	CHECK(cudaFree(out));
	size_t bad = 0;
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++)
			bad += t[static_cast<size_t>(c) * rows + r] != h[static_cast<size_t>(r) * cols + c];
	std::printf("transpose %s %d x %d: %s\n", name, rows, cols, bad ? "WRONG" : "ok");
	return bad ? 1 : 0;
}

// C (M x N, f32) = A (M x K) B^T (B N x K), f16 in, against the host.
static int gemm_check(int M, int N, int K)
{
	const int ld = (K + 7) / 8 * 8;	// rows on 16 bytes, as TMA reads them
	std::vector<__half> a(static_cast<size_t>(M) * ld), b(static_cast<size_t>(N) * ld);
	for (size_t i = 0; i < a.size(); i++)
		a[i] = __float2half(static_cast<float>(static_cast<int>(i % 7) - 3) / 4);
	for (size_t i = 0; i < b.size(); i++)
		b[i] = __float2half(static_cast<float>(static_cast<int>(i % 5) - 2) / 2);
	__half *A, *B;
	float *C;
	CHECK(cudaMalloc(&A, a.size() * sizeof(__half)));
	CHECK(cudaMalloc(&B, b.size() * sizeof(__half)));
	CHECK(cudaMalloc(&C, static_cast<size_t>(M) * N * sizeof(float)));
	CHECK(cudaMemcpy(A, a.data(), a.size() * sizeof(__half), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(B, b.data(), b.size() * sizeof(__half), cudaMemcpyHostToDevice));
	const cudaError_t e = bankc::gemm(M, N, K, A, ld, B, ld, C, N);
	int rc = 0;
	if (e == cudaErrorNotSupported) {
		std::printf("gemm %d x %d x %d: not supported here (it needs sm_90a code on a compute capability 9.0 GPU)\n",
			    M, N, K);
	} else if (e != cudaSuccess) {
		std::printf("gemm %d x %d x %d: %s\n", M, N, K, cudaGetErrorString(e));
		rc = 1;
	} else {
		std::vector<float> c(static_cast<size_t>(M) * N);
		CHECK(cudaMemcpy(c.data(), C, c.size() * sizeof(float), cudaMemcpyDeviceToHost));
		size_t bad = 0;
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++) {
				double ref = 0;
				for (int k = 0; k < K; k++)
					ref += static_cast<double>(__half2float(a[static_cast<size_t>(i) * ld + k])) *
					       __half2float(b[static_cast<size_t>(j) * ld + k]);
				// exact: small multiples of 1/8 summed in f32
				bad += std::fabs(c[static_cast<size_t>(i) * N + j] - ref) > 1e-3;
			}
		std::printf("gemm %d x %d x %d: %s\n", M, N, K, bad ? "WRONG" : "ok");
		rc = bad ? 1 : 0;
	}
	CHECK(cudaFree(A));
	CHECK(cudaFree(B));
	CHECK(cudaFree(C));
	return rc;
}

int main()
{
	int devices = 0;
	if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
		std::printf("no CUDA device: nothing to run\n");
		return 77;
	}
	int fail = 0;
	fail |= transpose_check<float>("float", 1000, 999);
	fail |= transpose_check<uint8_t>("uint8_t", 257, 4096);
	fail |= gemm_check(300, 200, 72);
	return fail;
}
