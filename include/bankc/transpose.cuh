// bankc/transpose.cuh: out-of-place matrix transposes on bankc's
// conflict-free shared-memory tiles.  Include it from CUDA sources (.cu,
// compiled by nvcc, C++17).
//
//     #include <bankc/transpose.cuh>
//
//     cudaError_t bankc::transpose(const T *in, T *out, int64_t rows, int64_t cols,
//                                  cudaStream_t stream = 0);
//
// in is a rows x cols row-major matrix, out becomes its cols x rows
// transpose, row-major: out[c * rows + r] = in[r * cols + c].  T is any
// trivially copyable type of 1, 2, 4 or 8 bytes (float, double, __half,
// __nv_bfloat16, int8_t, uint8_t, int32_t, ...): elements move as raw
// bits, so every value (NaN payloads, negative zeros) arrives unchanged.
// Any rows and cols: ragged edges, one row, one column, tall and skinny.
//
// The tiles (specs/templates.tile, laid out by bankc at build time):
// 4-byte elements on tp_f32 (64 x 64, 512 threads, one shared load per
// element), 8-byte on tp_f64 (32 x 32, 256 threads), 2-byte on tp_f16l
// (128 x 128, 256 threads, 4-byte shared loads transposed in registers),
// 1-byte on tp_i8l (256 x 256, 256 threads, 4-byte shared loads, 64 KiB
// of dynamic shared memory).  Global memory is read and written in
// 16-byte vectors where rows and cols are multiples of 16 / sizeof(T)
// and both pointers are 16-byte aligned; otherwise, and in the tiles
// that reach past an edge, element by element (slower, same result).
//
// Rules, as cuBLAS states its own:
//   - Streams: the transpose is one or two kernel launches on `stream`
//     (0: the default stream, legacy or per-thread as the program is
//     built: the whole tiles, then the tiles at the edges); the call
//     returns once they are enqueued, before they run.  It does not
//     synchronize, allocate, copy between host and device, or use a
//     workspace.  The stream must belong to the current device (as set by
//     cudaSetDevice), and in and out must be device memory it can reach.
//   - Graphs: the launches may be captured into a CUDA graph (for 1-byte
//     elements, after a first call on the device outside the capture,
//     which sets the kernels' attributes).
//   - Threads: the function may be called from several host threads at
//     once.  The first call for a kernel on a device sets its maximum
//     dynamic shared memory (cudaFuncSetAttribute; the 1-byte tile only);
//     later calls do not.
//   - Results: cudaSuccess when the kernels were launched (an error while
//     they run shows at a later synchronizing call, as for any kernel);
//     cudaErrorInvalidValue, with nothing launched, when rows or cols is
//     negative, in or out is null or not aligned to T, the byte count
//     overflows, or in and out overlap (the transpose is out of place);
//     otherwise the CUDA runtime's error (no device, no kernel image for
//     it, ...).  Nothing is done, and cudaSuccess returned, when rows or
//     cols is 0.
//   - Requirements: any GPU the program is built for (plain CUDA: no
//     instruction of a particular architecture).
#ifndef BANKC_TRANSPOSE_CUH
#define BANKC_TRANSPOSE_CUH

#include <atomic>
#include <cstdint>
#include <type_traits>

#include <cuda_runtime.h>

#include "detail/plan.hpp"
#include "detail/transpose_kernel.cuh"

#include <bankc/tiles/tp_f16l.cuh>
#include <bankc/tiles/tp_f32.cuh>
#include <bankc/tiles/tp_f64.cuh>
#include <bankc/tiles/tp_i8l.cuh>

namespace bankc {
namespace detail {

BANKC_TRANSPOSE_TILE(TpLibF32, TP_F32, uint32_t, 4, "f32");
BANKC_TRANSPOSE_TILE(TpLibF64, TP_F64, uint64_t, 8, "f64");
BANKC_TRANSPOSE_TILE(TpLibF16L, TP_F16L, uint16_t, 4, "f16 wide");
BANKC_TRANSPOSE_TILE(TpLibI8L, TP_I8L, uint8_t, 4, "i8 wide");

// The tile and block size for each element width (docs/performance.md:
// the fastest of each width on the H200).
template <int BYTES> struct TransposeChoice;
template <> struct TransposeChoice<4> {
	using Tile = TpLibF32;
	static constexpr int threads = 512;
};
template <> struct TransposeChoice<8> {
	using Tile = TpLibF64;
	static constexpr int threads = 256;
};
template <> struct TransposeChoice<2> {
	using Tile = TpLibF16L;
	static constexpr int threads = 256;
};
template <> struct TransposeChoice<1> {
	using Tile = TpLibI8L;
	static constexpr int threads = 256;
};

// Sets a kernel's maximum dynamic shared memory once per device
// (devices 0-63; beyond, on every call).
template <class Tile, class K> cudaError_t transpose_smem_once(K kernel, std::atomic<uint64_t> &done, int dev)
{
	const uint64_t bit = dev >= 0 && dev < 64 ? uint64_t(1) << dev : 0;
	if (bit && (done.load(std::memory_order_acquire) & bit))
		return cudaSuccess;
	const cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Tile::BYTES);
	if (e == cudaSuccess && bit)
		done.fetch_or(bit, std::memory_order_acq_rel);
	return e;
}

// The transpose of a rows x cols matrix of Tile::E on Tile with THREADS
// threads a block (what bankc::transpose runs; the benchmarks run
// others): the whole tiles' kernel, then the edge tiles', each where it
// has tiles.
template <class Tile, int THREADS>
cudaError_t transpose_run(const typename Tile::E *in, typename Tile::E *out, int64_t rows, int64_t cols,
			  cudaStream_t stream)
{
	using E = typename Tile::E;
	const TransposePlan p = transpose_plan(rows, cols, reinterpret_cast<uintptr_t>(in), reinterpret_cast<uintptr_t>(out),
					       sizeof(E), Tile::T);
	if (p.verdict == Verdict::invalid)
		return cudaErrorInvalidValue;
	if (p.verdict == Verdict::empty)
		return cudaSuccess;
	constexpr bool dynamic = tile_dynamic<Tile>();
	if (dynamic) {
		static std::atomic<uint64_t> full_done{0}, edge_done{0};
		int dev = 0;
		cudaError_t e = cudaGetDevice(&dev);
		if (e == cudaSuccess && p.full_tiles)
			e = transpose_smem_once<Tile>(transpose_full_kernel<Tile, THREADS>, full_done, dev);
		if (e == cudaSuccess && p.edge_tiles)
			e = transpose_smem_once<Tile>(transpose_edge_kernel<Tile, THREADS>, edge_done, dev);
		if (e != cudaSuccess)
			return e;
	}
	cudaLaunchConfig_t cfg = {};
	cfg.blockDim = dim3(THREADS);
	cfg.dynamicSmemBytes = dynamic ? Tile::BYTES : 0;
	cfg.stream = stream;
	if (p.full_tiles) {
		cfg.gridDim = dim3(static_cast<unsigned>(p.full_tiles));
		const cudaError_t e = cudaLaunchKernelEx(&cfg, transpose_full_kernel<Tile, THREADS>, in, out, p.geom);
		if (e != cudaSuccess)
			return e;
	}
	if (p.edge_tiles) {
		cfg.gridDim = dim3(static_cast<unsigned>(p.edge_tiles));
		return cudaLaunchKernelEx(&cfg, transpose_edge_kernel<Tile, THREADS>, in, out, p.geom);
	}
	return cudaSuccess;
}

} // namespace detail

template <class T> cudaError_t transpose(const T *in, T *out, int64_t rows, int64_t cols, cudaStream_t stream = 0)
{
	static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
		      "bankc::transpose: elements of 1, 2, 4 or 8 bytes");
	static_assert(std::is_trivially_copyable<T>::value, "bankc::transpose: elements move as raw bits");
	using C = detail::TransposeChoice<static_cast<int>(sizeof(T))>;
	using E = typename C::Tile::E;
	return detail::transpose_run<typename C::Tile, C::threads>(reinterpret_cast<const E *>(in), reinterpret_cast<E *>(out),
								   rows, cols, stream);
}

} // namespace bankc

#endif
