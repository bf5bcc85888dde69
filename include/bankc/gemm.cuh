// bankc/gemm.cuh: matrix products on the Hopper tensor cores (sm_90a:
// TMA and wgmma), on bankc's operand and staging tiles.  Include it from
// CUDA sources (.cu, compiled by nvcc, C++17).
//
//     #include <bankc/gemm.cuh>
//
// C = A B^T, A M x K, B N x K (both K-major, as a linear layer's weight
// is), C M x N, every matrix row-major with its leading dimension (lda,
// ldb, ldc: elements from one row to the next), accumulated in f32:
//
//     cudaError_t bankc::gemm(int M, int N, int K, const T *A, int lda,
//                             const T *B, int ldb, float *C, int ldc,
//                             cudaStream_t stream = 0);
//         T: __half, __nv_bfloat16; C in f32.
//     cudaError_t bankc::gemm(int M, int N, int K, const T *A, int lda,
//                             const T *B, int ldb, T *C, int ldc,
//                             cudaStream_t stream = 0);
//         the same with C in T (rounded to nearest even).
//     cudaError_t bankc::gemm(int M, int N, int K, const __nv_fp8_e4m3 *A, int lda,
//                             const __nv_fp8_e4m3 *B, int ldb, float *C or __nv_bfloat16 *C,
//                             int ldc, cudaStream_t stream = 0,
//                             const float *scale_a = nullptr, const float *scale_b = nullptr);
//         FP8 (e4m3) inputs, C in f32 or bf16; C = scale_a * scale_b * A B^T
//         with the per-tensor scales read from device memory when the
//         kernel runs (a null pointer: 1).  Every k32 product is added
//         into the f32 accumulators for the whole K (what cuBLASLt calls
//         fast accumulation).
//
// C = A B with B K x N, row-major (N contiguous), for the 16-bit types:
//
//     cudaError_t bankc::gemm_ab(int M, int N, int K, const T *A, int lda,
//                                const T *B, int ldb, float *C or T *C, int ldc,
//                                cudaStream_t stream = 0);
//         T: __half, __nv_bfloat16; ldb >= N.
//
// Any M, N, K >= 0: the tensor maps have the matrices' true sizes, so
// tiles that reach past an edge read zeros there and store nothing past
// it.  M or N = 0: nothing is done; K = 0: C is set to 0.  Nothing of C
// past column N is written, in any row: TMA stores a row's last 16 bytes
// whole, so a 16-bit C whose N is not a multiple of 8 is stored by the
// threads (element pairs, as an f32 C is) instead of through TMA.
//
// Rules, as cuBLAS states its own:
//   - Arguments (cudaErrorInvalidValue, nothing launched): M, N, K >= 0;
//     lda >= max(1, K), ldb >= max(1, K) (gemm) or max(1, N) (gemm_ab),
//     ldc >= max(1, N).  The TMA engine reads and writes rows that start
//     on 16 bytes: A and B must be 16-byte aligned and lda, ldb multiples
//     of 16 bytes (8 elements of 16 bits, 16 of FP8); a 16-bit C (T or
//     bf16) likewise with ldc; an f32 C needs only 4-byte alignment (the
//     threads store it themselves, two columns at once where ldc is even
//     and C 8-byte aligned).  C must not overlap A or B.
//   - Hardware (cudaErrorNotSupported, nothing launched): a GPU of
//     compute capability 9.0 (H100, H200, GH200), and code built for it
//     as sm_90a (nvcc -gencode=arch=compute_90a,code=sm_90a, or CMake's
//     CUDA_ARCHITECTURES 90a).  Built for other targets these functions
//     still compile and link, and return cudaErrorNotSupported at run
//     time; so does any other GPU, whatever the binary holds.  Never a
//     wrong answer.
//   - Streams: each call is one kernel launch on `stream` (0: the default
//     stream), or for K = 0 one cudaMemset2DAsync; it returns once that is
//     enqueued.  It does not synchronize, allocate, or copy between host
//     and device; it needs no workspace.  The stream must belong to the
//     current device.  The scales, when given, are read by the kernel,
//     so they may be written earlier on the same stream.
//   - Graphs: the launch may be captured into a CUDA graph (the tensor
//     maps, which hold the matrices' addresses and sizes, are kernel
//     parameters: a graph replays the call with the same matrices).  Make
//     the first call of each function on a device outside a capture: it
//     queries the device and sets the kernel's attributes, which may load
//     the kernel's module.
//   - Threads: the functions may be called from several host threads at
//     once.  The first call on a device queries it (compute capability,
//     the kernel image, how many blocks fit) and sets the kernel's
//     maximum dynamic shared memory; later calls reuse the answers.  The
//     kernel holds one block per SM (about 225 KiB of shared memory and
//     384 threads each) and walks the output tiles from there: other work
//     on the GPU at the same time slows it, and it slows that work.
//   - Results: cudaSuccess when the work was enqueued (an error while it
//     runs shows at a later synchronizing call, as for any kernel);
//     otherwise the CUDA runtime's error (no device, ...).
#ifndef BANKC_GEMM_CUH
#define BANKC_GEMM_CUH

#include <cstdint>
#include <type_traits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include "detail/gemm_sm90.cuh"
#include "detail/plan.hpp"

namespace bankc {
namespace detail {

// One public call: In the inputs (and B's order), Out f32 or In::Out.
template <class In, class Out>
cudaError_t gemm_call(int M, int N, int K, const typename In::T *A, int lda, const typename In::T *B, int ldb, Out *C,
		      int ldc, cudaStream_t stream, const float *scale_a = nullptr, const float *scale_b = nullptr)
{
	using G = gemm90::LibGemm<In, Out>;
	static_assert(std::is_same<Out, float>::value || std::is_same<Out, typename In::Out>::value, "C's type");
	GemmArgs g;
	g.M = M, g.N = N, g.K = K, g.lda = lda, g.ldb = ldb, g.ldc = ldc;
	g.a = reinterpret_cast<uintptr_t>(A), g.b = reinterpret_cast<uintptr_t>(B), g.c = reinterpret_cast<uintptr_t>(C);
	g.in_bytes = sizeof(typename In::T), g.out_bytes = sizeof(Out);
	g.b_kmajor = !In::B_MN;
	g.tma_out = G::EpiTile::TMA;
	const Verdict v = gemm_verdict(g);
	if (v == Verdict::invalid)
		return cudaErrorInvalidValue;
	if (v == Verdict::empty)
		return cudaSuccess;
	int dev = 0;
	cudaError_t e = cudaGetDevice(&dev);
	bool ok = false;
	if (e == cudaSuccess)
		e = G::runs_here(dev, ok);
	if (e != cudaSuccess)
		return e;
	if (!ok)
		return cudaErrorNotSupported;
	if (K == 0)	// all-bits-zero is 0.0 in f32, f16 and bf16
		return cudaMemset2DAsync(C, static_cast<size_t>(ldc) * sizeof(Out), 0, static_cast<size_t>(N) * sizeof(Out),
					 static_cast<size_t>(M), stream);
	// TMA stores whole 16-byte chunks of a row: a 16-bit C whose rows end
	// inside one is stored by the threads instead, so that nothing past
	// column N is written
	if constexpr (G::EpiTile::TMA) {
		if (static_cast<int64_t>(N) * sizeof(Out) % 16 != 0)
			return gemm90::LibGemmEdge<In>::launch(dev, M, N, K, A, lda, B, ldb, C, ldc, scale_a, scale_b,
								gemm90::GROUP_ROWS, true, stream);
	}
	return G::launch(dev, M, N, K, A, lda, B, ldb, C, ldc, scale_a, scale_b, gemm90::GROUP_ROWS, true, stream);
}

} // namespace detail

// ---- C = A B^T ----------------------------------------------------------------

inline cudaError_t gemm(int M, int N, int K, const __half *A, int lda, const __half *B, int ldb, float *C, int ldc,
			cudaStream_t stream = 0)
{
	return detail::gemm_call<detail::gemm90::InF16>(M, N, K, A, lda, B, ldb, C, ldc, stream);
}

inline cudaError_t gemm(int M, int N, int K, const __half *A, int lda, const __half *B, int ldb, __half *C, int ldc,
			cudaStream_t stream = 0)
{
	return detail::gemm_call<detail::gemm90::InF16>(M, N, K, A, lda, B, ldb, C, ldc, stream);
}

inline cudaError_t gemm(int M, int N, int K, const __nv_bfloat16 *A, int lda, const __nv_bfloat16 *B, int ldb, float *C,
			int ldc, cudaStream_t stream = 0)
{
	return detail::gemm_call<detail::gemm90::InBF16>(M, N, K, A, lda, B, ldb, C, ldc, stream);
}

inline cudaError_t gemm(int M, int N, int K, const __nv_bfloat16 *A, int lda, const __nv_bfloat16 *B, int ldb,
			__nv_bfloat16 *C, int ldc, cudaStream_t stream = 0)
{
	return detail::gemm_call<detail::gemm90::InBF16>(M, N, K, A, lda, B, ldb, C, ldc, stream);
}

inline cudaError_t gemm(int M, int N, int K, const __nv_fp8_e4m3 *A, int lda, const __nv_fp8_e4m3 *B, int ldb, float *C,
			int ldc, cudaStream_t stream = 0, const float *scale_a = nullptr, const float *scale_b = nullptr)
{
	return detail::gemm_call<detail::gemm90::InE4M3>(M, N, K, A, lda, B, ldb, C, ldc, stream, scale_a, scale_b);
}

inline cudaError_t gemm(int M, int N, int K, const __nv_fp8_e4m3 *A, int lda, const __nv_fp8_e4m3 *B, int ldb,
			__nv_bfloat16 *C, int ldc, cudaStream_t stream = 0, const float *scale_a = nullptr,
			const float *scale_b = nullptr)
{
	return detail::gemm_call<detail::gemm90::InE4M3>(M, N, K, A, lda, B, ldb, C, ldc, stream, scale_a, scale_b);
}

// ---- C = A B, B row-major K x N -------------------------------------------------

inline cudaError_t gemm_ab(int M, int N, int K, const __half *A, int lda, const __half *B, int ldb, float *C, int ldc,
			   cudaStream_t stream = 0)
{
	return detail::gemm_call<detail::gemm90::InF16N>(M, N, K, A, lda, B, ldb, C, ldc, stream);
}

inline cudaError_t gemm_ab(int M, int N, int K, const __half *A, int lda, const __half *B, int ldb, __half *C, int ldc,
			   cudaStream_t stream = 0)
{
	return detail::gemm_call<detail::gemm90::InF16N>(M, N, K, A, lda, B, ldb, C, ldc, stream);
}

inline cudaError_t gemm_ab(int M, int N, int K, const __nv_bfloat16 *A, int lda, const __nv_bfloat16 *B, int ldb,
			   float *C, int ldc, cudaStream_t stream = 0)
{
	return detail::gemm_call<detail::gemm90::InBF16N>(M, N, K, A, lda, B, ldb, C, ldc, stream);
}

inline cudaError_t gemm_ab(int M, int N, int K, const __nv_bfloat16 *A, int lda, const __nv_bfloat16 *B, int ldb,
			   __nv_bfloat16 *C, int ldc, cudaStream_t stream = 0)
{
	return detail::gemm_call<detail::gemm90::InBF16N>(M, N, K, A, lda, B, ldb, C, ldc, stream);
}

} // namespace bankc

#endif
