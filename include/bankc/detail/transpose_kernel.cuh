// bankc/detail/transpose_kernel.cuh: the tiled transpose on bankc's tiles.
//
// A block moves T x T tiles with 16-byte global accesses (V = 16 / E
// elements of E bytes per vector).  Fill: each thread loads 16-byte
// vectors of input rows and stores them whole into the tile.  Drain: the
// tile is read in words of W bytes (G = W / E elements of one input row,
// i.e. of G output rows); warp group g takes, for word column wc = 4 (g /
// NS) + lane / 8 and row block rb = 8 (g % NS) + lane % 8 (NS = T / (8 V)),
// the V words of input rows V rb + i, i < V, one shared load each,
// transposes that V x G block in registers (byte permutes for E < 4) and
// stores G output vectors, one per output row G wc + j: 8 lanes write 128
// contiguous bytes of an output row.  The tile's spec
// (specs/templates.tile) holds exactly these shared-memory instructions.
//
// Tiles that reach past the matrix's edge, and every tile of a matrix
// whose rows cannot start on 16 bytes, run the same shared-memory
// instructions with element-wise, bounds-checked global loads and stores
// (elements outside the matrix are zeros in the tile and never stored),
// in a kernel of their own (plan.hpp says which tiles are which).
//
// The steps are host-and-device functions of (thread, tile) so that a
// host program can run a whole block thread by thread and check the
// result (tests/templates/); only the kernels themselves are device code.
#ifndef BANKC_DETAIL_TRANSPOSE_KERNEL_CUH
#define BANKC_DETAIL_TRANSPOSE_KERNEL_CUH

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <cuda_runtime.h>

#include "plan.hpp"

// Tile traits: the kernel reaches shared memory only through these, which
// are the generated macros; W is the drain's word width in the spec.
// Elements move as raw bits of their width.
#define BANKC_TRANSPOSE_TILE(Name, NAME, Elem, Wbytes, label)                                   \
	struct Name {                                                                          \
		using E = Elem;                                                                    \
		static constexpr int T = NAME##_ROWS;                                              \
		static constexpr int W = Wbytes;                                                   \
		static constexpr int ELEMS = NAME##_ELEMS;                                         \
		static constexpr int BYTES = NAME##_BYTES;                                         \
		static constexpr int ALIGN = NAME##_ALIGN;                                         \
		static constexpr const char *name = label;                                         \
		static __host__ __device__ __forceinline__ int idx(int r, int c) { return NAME##_IDX(r, c); } \
		static_assert(NAME##_ROWS == NAME##_COLS, "a transpose tile is square");           \
		static_assert(NAME##_ELEM_BYTES == sizeof(Elem), "element width");                 \
		static_assert(NAME##_STAGES == 1, "one stage");                                    \
		static_assert(NAME##_BYTES == NAME##_ELEMS * NAME##_ELEM_BYTES, "footprint");       \
	}

// Unrolled in device code; host compilers do not know the pragma.
#if defined(__CUDA_ARCH__)
#define BANKC_UNROLL _Pragma("unroll")
#else
#define BANKC_UNROLL
#endif

namespace bankc {
namespace detail {

// The tile's shared memory: a static array up to the 48 KiB that static
// shared memory may hold, dynamic shared memory (sized by the launch)
// above that.
constexpr int static_smem_max = 48 * 1024;
template <class Tile> constexpr bool tile_dynamic() { return Tile::BYTES > static_smem_max; }

template <class Tile, bool DYNAMIC = tile_dynamic<Tile>()> struct TileMem {
	static __device__ __forceinline__ typename Tile::E *get()
	{
		__shared__ alignas(Tile::ALIGN < 16 ? 16 : Tile::ALIGN) typename Tile::E tile[Tile::ELEMS];
		return tile;
	}
};
template <class Tile> struct TileMem<Tile, true> {
	static_assert(Tile::ALIGN <= 16, "dynamic shared memory starts 16-byte aligned");
	static __device__ __forceinline__ typename Tile::E *get()
	{
		extern __shared__ uint4 bankc_transpose_smem[];
		return reinterpret_cast<typename Tile::E *>(bankc_transpose_smem);
	}
};

// A W-byte shared-memory word, as 32-bit pieces (one 64-bit piece for f64).
template <int W, class E> struct Word;
template <class E> struct Word<1, E> { using type = uint8_t; };
template <class E> struct Word<2, E> { using type = uint16_t; };
template <class E> struct Word<4, E> { using type = uint32_t; };
template <class E> struct Word<8, E> { using type = typename std::conditional<sizeof(E) == 8, uint64_t, uint2>::type; };

// PRMT: byte i of the result is byte (s >> 4 i) & 7 of the 8 bytes y:x.
BANKC_HD uint32_t byte_perm(uint32_t x, uint32_t y, uint32_t s)
{
#if defined(__CUDA_ARCH__)
	return __byte_perm(x, y, s);
#else
	const uint64_t v = static_cast<uint64_t>(y) << 32 | x;
	uint32_t r = 0;
	for (int i = 0; i < 4; i++)
		r |= static_cast<uint32_t>(v >> 8 * (s >> 4 * i & 7) & 0xff) << 8 * i;
	return r;
#endif
}

// A 16-byte load through the read-only path.
BANKC_HD uint4 load16(const void *p)
{
#if defined(__CUDA_ARCH__)
	return __ldg(reinterpret_cast<const uint4 *>(p));
#else
	uint4 v;
	std::memcpy(&v, p, 16);
	return v;
#endif
}

// A 16-byte store, as one instruction.  A plain uint4 store may reach the
// PTX as four 4-byte stores (the f32 and f16 drains did, the f64 one as
// two 4-byte and an 8-byte one: checked by tests/run_nvcc.sh), each then
// writing a quarter of every segment it touches.
BANKC_HD void store16(void *p, const uint4 &v)
{
#if defined(__CUDA_ARCH__)
	__stwb(reinterpret_cast<uint4 *>(p), v);
#else
	std::memcpy(p, &v, 16);
#endif
}

// V scalars of E bytes, in order, as one 16-byte vector, and back.
template <class E, int V> BANKC_HD uint4 pack(const E (&e)[V])
{
	uint32_t w[4] = {0, 0, 0, 0};
	if constexpr (sizeof(E) == 8) {
BANKC_UNROLL
		for (int i = 0; i < V; i++) {
			w[2 * i] = static_cast<uint32_t>(static_cast<uint64_t>(e[i]));
			w[2 * i + 1] = static_cast<uint32_t>(static_cast<uint64_t>(e[i]) >> 32);
		}
	} else {
BANKC_UNROLL
		for (int i = 0; i < V; i++)
			w[i * sizeof(E) / 4] |= static_cast<uint32_t>(e[i]) << (8 * (i * sizeof(E) % 4));
	}
	return make_uint4(w[0], w[1], w[2], w[3]);
}

template <class E, int V> BANKC_HD void unpack(const uint4 &v, E (&e)[V])
{
	const uint32_t w[4] = {v.x, v.y, v.z, v.w};
	if constexpr (sizeof(E) == 8) {
BANKC_UNROLL
		for (int i = 0; i < V; i++)
			e[i] = static_cast<E>(static_cast<uint64_t>(w[2 * i + 1]) << 32 | w[2 * i]);
	} else {
BANKC_UNROLL
		for (int i = 0; i < V; i++)
			e[i] = static_cast<E>(w[i * sizeof(E) / 4] >> (8 * (i * sizeof(E) % 4)));
	}
}

// The V x G block of words w (word i: G elements of input row i) as G
// output vectors (vector j: element j of every word, in row order).
template <class E, int V, int G> struct Block;
// G = 1: the plain drain, one element per word.
template <class E, int V> struct Block<E, V, 1> {
	template <class Wd> static BANKC_HD void run(const Wd (&w)[V], uint4 (&out)[1])
	{
		E e[V];
BANKC_UNROLL
		for (int i = 0; i < V; i++)
			e[i] = static_cast<E>(w[i]);
		out[0] = pack<E, V>(e);
	}
};
// f32, 8-byte words: G = 2, V = 4.
template <> struct Block<uint32_t, 4, 2> {
	static BANKC_HD void run(const uint2 (&w)[4], uint4 (&out)[2])
	{
		out[0] = make_uint4(w[0].x, w[1].x, w[2].x, w[3].x);
		out[1] = make_uint4(w[0].y, w[1].y, w[2].y, w[3].y);
	}
};
// f16, 4-byte words: G = 2, V = 8.
template <> struct Block<uint16_t, 8, 2> {
	static BANKC_HD void run(const uint32_t (&w)[8], uint4 (&out)[2])
	{
		uint32_t a[4], b[4];
BANKC_UNROLL
		for (int k = 0; k < 4; k++) {
			a[k] = byte_perm(w[2 * k], w[2 * k + 1], 0x5410);	// low halves: output row 0
			b[k] = byte_perm(w[2 * k], w[2 * k + 1], 0x7632);	// high halves: output row 1
		}
		out[0] = make_uint4(a[0], a[1], a[2], a[3]);
		out[1] = make_uint4(b[0], b[1], b[2], b[3]);
	}
};
// i8, 4-byte words: G = 4, V = 16, four 4 x 4 byte transposes.
template <> struct Block<uint8_t, 16, 4> {
	static BANKC_HD void run(const uint32_t (&w)[16], uint4 (&out)[4])
	{
		uint32_t o[4][4];
BANKC_UNROLL
		for (int k = 0; k < 4; k++) {
			const uint32_t t0 = byte_perm(w[4 * k], w[4 * k + 1], 0x5140);	// bytes 0, 1 interleaved
			const uint32_t t1 = byte_perm(w[4 * k], w[4 * k + 1], 0x7362);	// bytes 2, 3 interleaved
			const uint32_t t2 = byte_perm(w[4 * k + 2], w[4 * k + 3], 0x5140);
			const uint32_t t3 = byte_perm(w[4 * k + 2], w[4 * k + 3], 0x7362);
			o[0][k] = byte_perm(t0, t2, 0x5410);
			o[1][k] = byte_perm(t0, t2, 0x7632);
			o[2][k] = byte_perm(t1, t3, 0x5410);
			o[3][k] = byte_perm(t1, t3, 0x7632);
		}
BANKC_UNROLL
		for (int j = 0; j < 4; j++)
			out[j] = make_uint4(o[j][0], o[j][1], o[j][2], o[j][3]);
	}
};

// One block's work on one tile, step by step, for one thread `tid` of
// THREADS: load (global to registers: vector j of the thread's NV),
// fill (a vector to the tile), drain (group k of the thread's NG: V
// words of the tile to G output vectors).  `full`: 16-byte global
// accesses of a whole tile; else each element checked against the edges.
template <class Tile, int THREADS> struct TransposeSteps {
	using E = typename Tile::E;
	static constexpr int T = Tile::T, W = Tile::W;
	static constexpr int V = 16 / sizeof(E);	// elements per 16-byte vector
	static constexpr int G = W / sizeof(E);		// elements per drain word
	static constexpr int VPR = T / V;		// vectors per tile row
	static constexpr int NV = T * VPR / THREADS;	// fill vectors per thread
	static constexpr int NS = VPR / 8;		// 128-byte segments per output row
	static constexpr int NW = THREADS / 32;
	static constexpr int NG = T / G / 4 * NS / NW;	// drain groups per warp
	static_assert(W % sizeof(E) == 0 && (G == 1 || W == 4 || (W == 8 && sizeof(E) == 4)), "drain word");
	static_assert(T * VPR % THREADS == 0 && VPR % 8 == 0 && T / G / 4 * NS % NW == 0 && THREADS % 32 == 0,
		      "tile shape");
	using Wd = typename Word<W, E>::type;

	template <bool FULL>
	static BANKC_HD uint4 load(const E *in, int64_t rows, int64_t cols, int64_t r0, int64_t c0, int tid, int j)
	{
		const int q = tid + j * THREADS, r = q / VPR, c = q % VPR * V;
		const E *p = in + (r0 + r) * cols + c0 + c;
		if constexpr (FULL) {
			return load16(p);
		} else {
			E e[V];
			BANKC_UNROLL
			for (int i = 0; i < V; i++)
				e[i] = r0 + r < rows && c0 + c + i < cols ? p[i] : E(0);
			return pack<E, V>(e);
		}
	}

	static BANKC_HD void fill(E *tile, int tid, int j, const uint4 &v)
	{
		const int q = tid + j * THREADS, r = q / VPR, c = q % VPR * V;
		*reinterpret_cast<uint4 *>(&tile[Tile::idx(r, c)]) = v;
	}

	// Output element (c, r) = input (r, c), for the tile at (r0, c0).
	template <bool FULL>
	static BANKC_HD void drain(const E *tile, E *out, int64_t rows, int64_t cols, int64_t r0, int64_t c0, int tid, int k)
	{
		const int lane = tid % 32, warp = tid / 32, g = warp + k * NW;
		const int wc = 4 * (g / NS) + lane / 8;		// word column: output rows G wc + j
		const int ir = V * (8 * (g % NS) + lane % 8);	// first input row
		Wd w[V];
		BANKC_UNROLL
		for (int i = 0; i < V; i++)
			w[i] = *reinterpret_cast<const Wd *>(&tile[Tile::idx(ir + i, G * wc)]);
		uint4 o[G];
		Block<E, V, G>::run(w, o);
		BANKC_UNROLL
		for (int j = 0; j < G; j++) {
			const int64_t orow = c0 + G * wc + j;
			E *p = out + orow * rows + r0 + ir;
			if constexpr (FULL) {
				store16(p, o[j]);
			} else if (orow < cols) {
				E e[V];
				unpack<E, V>(o[j], e);
				BANKC_UNROLL
				for (int i = 0; i < V; i++)
					if (r0 + ir + i < rows)
						p[i] = e[i];
			}
		}
	}
};

// The whole tiles: every load of a tile in flight before its fill (the
// instructions of the template's benchmarks), one tile per block.
template <class Tile, int THREADS>
__global__ void __launch_bounds__(THREADS)
	transpose_full_kernel(const typename Tile::E *__restrict__ in, typename Tile::E *__restrict__ out,
			      TransposeGeom geom)
{
	using S = TransposeSteps<Tile, THREADS>;
	typename Tile::E *const tile = TileMem<Tile>::get();
	int64_t r0, c0;
	transpose_full_origin(geom, blockIdx.x, Tile::T, r0, c0);
	uint4 v[S::NV];
#pragma unroll
	for (int j = 0; j < S::NV; j++)
		v[j] = S::template load<true>(in, geom.rows, geom.cols, r0, c0, threadIdx.x, j);
#pragma unroll
	for (int j = 0; j < S::NV; j++)
		S::fill(tile, threadIdx.x, j, v[j]);
	__syncthreads();
#pragma unroll
	for (int k = 0; k < S::NG; k++)
		S::template drain<true>(tile, out, geom.rows, geom.cols, r0, c0, threadIdx.x, k);
}

// The edge tiles (every tile without vec), one per block: vector by
// vector, element by element, so that few registers are live.
template <class Tile, int THREADS>
__global__ void __launch_bounds__(THREADS)
	transpose_edge_kernel(const typename Tile::E *__restrict__ in, typename Tile::E *__restrict__ out,
			      TransposeGeom geom)
{
	using S = TransposeSteps<Tile, THREADS>;
	typename Tile::E *const tile = TileMem<Tile>::get();
	int64_t r0, c0;
	transpose_edge_origin(geom, blockIdx.x, Tile::T, r0, c0);
#pragma unroll 1
	for (int j = 0; j < S::NV; j++)
		S::fill(tile, threadIdx.x, j, S::template load<false>(in, geom.rows, geom.cols, r0, c0, threadIdx.x, j));
	__syncthreads();
#pragma unroll 1
	for (int k = 0; k < S::NG; k++)
		S::template drain<false>(tile, out, geom.rows, geom.cols, r0, c0, threadIdx.x, k);
}

} // namespace detail
} // namespace bankc

#endif
