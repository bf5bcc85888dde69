// transpose_tile.cuh: the transpose template's first kernel, kept for
// comparison beside the library's (include/bankc/transpose.cuh, which
// runs the same instructions on whole tiles and adds the edges): a
// tiled out-of-place transpose for f32, f64, f16 and i8 on
// bankc-generated tiles (specs/templates.tile: tp_f32, tp_f64, tp_f16,
// tp_i8, the wide-drain tiles tp_f32w, tp_f16w, tp_i8w, and the tiles
// with twice as many bytes per row, tp_f32lw, tp_f16l, tp_i8l), square
// matrices of whole tiles only; and the textbook 32 x 33 / 32 x 32
// kernels.  templates/transpose.cu times them; the scan validation
// kernels (tests/gpu/scan_kernels/tpl_transpose.cu) scan two of them.
//
// Each block moves NT tiles of T x T with 16-byte global accesses (V = 16 /
// E elements of E bytes per vector).  Fill: each thread loads 16-byte
// vectors of input rows and stores them whole into the tile.  Drain: the
// tile is read in words of W bytes (G = W / E elements of one input row,
// i.e. of G output rows); warp group g takes, for word column wc = 4 (g /
// NS) + lane / 8 and row block rb = 8 (g % NS) + lane % 8 (NS = T / (8 V)),
// the V words of input rows V rb + i, i < V, one shared load each,
// transposes that V x G block in registers (byte permutes for E < 4) and
// stores G output vectors, one per output row G wc + j: 8 lanes write 128
// contiguous bytes of an output row.  W = E is the plain scalar gather;
// W = 4 or 8 gathers G elements per load.  With NT > 1 the loads of the
// next tile are in flight while this one drains.  The spec's accesses are
// exactly these instructions.
#pragma once

#include "bench.cuh"

#include "tp_f16.cuh"
#include "tp_f16l.cuh"
#include "tp_f16w.cuh"
#include "tp_f32.cuh"
#include "tp_f32lw.cuh"
#include "tp_f32w.cuh"
#include "tp_f64.cuh"
#include "tp_i8.cuh"
#include "tp_i8l.cuh"
#include "tp_i8w.cuh"

// Tile traits: the kernel reaches shared memory only through these, which
// are the generated macros; W is the drain's word width in the spec.
// Elements move as raw bits of their width.
#define TILE_TRAITS(Name, NAME, Elem, Wbytes, label)                                      \
	struct Name {                                                                          \
		using E = Elem;                                                                    \
		static constexpr int T = NAME##_ROWS;                                              \
		static constexpr int W = Wbytes;                                                   \
		static constexpr int ELEMS = NAME##_ELEMS;                                         \
		static constexpr int BYTES = NAME##_BYTES;                                         \
		static constexpr int ALIGN = NAME##_ALIGN;                                         \
		static constexpr const char *name = label;                                         \
		static __device__ __forceinline__ int idx(int r, int c) { return NAME##_IDX(r, c); } \
		static_assert(NAME##_ROWS == NAME##_COLS, "a transpose tile is square");           \
		static_assert(NAME##_ELEM_BYTES == sizeof(Elem), "element width");                 \
		static_assert(NAME##_STAGES == 1, "one stage");                                    \
		static_assert(NAME##_BYTES == NAME##_ELEMS * NAME##_ELEM_BYTES, "footprint");       \
	}

TILE_TRAITS(TpF32, TP_F32, uint32_t, 4, "f32");
TILE_TRAITS(TpF64, TP_F64, uint64_t, 8, "f64");
TILE_TRAITS(TpF16, TP_F16, uint16_t, 2, "f16");
TILE_TRAITS(TpI8, TP_I8, uint8_t, 1, "i8");
TILE_TRAITS(TpF32W, TP_F32W, uint32_t, 8, "f32 wide");
TILE_TRAITS(TpF16W, TP_F16W, uint16_t, 4, "f16 wide");
TILE_TRAITS(TpI8W, TP_I8W, uint8_t, 4, "i8 wide");
TILE_TRAITS(TpF32LW, TP_F32LW, uint32_t, 8, "f32 wide");
TILE_TRAITS(TpF16L, TP_F16L, uint16_t, 4, "f16 wide");
TILE_TRAITS(TpI8L, TP_I8L, uint8_t, 4, "i8 wide");

// The tile's shared memory: a static array up to the 48 KiB that static
// shared memory may hold, dynamic shared memory (sized by the launch)
// above that.
constexpr int STATIC_SMEM_MAX = 48 * 1024;
template <class Tile, bool DYNAMIC = (Tile::BYTES > STATIC_SMEM_MAX)> struct TileMem {
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
		extern __shared__ uint4 transpose_dynamic_smem[];
		return reinterpret_cast<typename Tile::E *>(transpose_dynamic_smem);
	}
};

// A W-byte shared-memory word, as 32-bit pieces (one 64-bit piece for f64).
template <int W, class E> struct Word;
template <class E> struct Word<1, E> { using type = uint8_t; };
template <class E> struct Word<2, E> { using type = uint16_t; };
template <class E> struct Word<4, E> { using type = uint32_t; };
template <class E> struct Word<8, E> { using type = std::conditional_t<sizeof(E) == 8, uint64_t, uint2>; };

// V scalars of E bytes, in order, as one 16-byte vector.
template <class E, int V> __device__ __forceinline__ uint4 pack(const E (&e)[V])
{
	uint32_t w[4] = {0, 0, 0, 0};
	if constexpr (sizeof(E) == 8) {
#pragma unroll
		for (int i = 0; i < V; i++) {
			w[2 * i] = static_cast<uint32_t>(e[i]);
			w[2 * i + 1] = static_cast<uint32_t>(e[i] >> 32);
		}
	} else {
#pragma unroll
		for (int i = 0; i < V; i++)
			w[i * sizeof(E) / 4] |= static_cast<uint32_t>(e[i]) << (8 * (i * sizeof(E) % 4));
	}
	return make_uint4(w[0], w[1], w[2], w[3]);
}

// The V x G block of words w (word i: G elements of input row i) as G
// output vectors (vector j: element j of every word, in row order).
template <class E, int W, int V, int G, class Wd> __device__ __forceinline__ void transpose_block(const Wd (&w)[V], uint4 (&out)[G])
{
	if constexpr (G == 1) {
		E e[V];
#pragma unroll
		for (int i = 0; i < V; i++)
			e[i] = static_cast<E>(w[i]);
		out[0] = pack<E, V>(e);
	} else if constexpr (sizeof(E) == 4) {	// f32, 8-byte words: G = 2, V = 4
		out[0] = make_uint4(w[0].x, w[1].x, w[2].x, w[3].x);
		out[1] = make_uint4(w[0].y, w[1].y, w[2].y, w[3].y);
	} else if constexpr (sizeof(E) == 2) {	// f16, 4-byte words: G = 2, V = 8
		uint32_t a[4], b[4];
#pragma unroll
		for (int k = 0; k < 4; k++) {
			a[k] = __byte_perm(w[2 * k], w[2 * k + 1], 0x5410);	// low halves: output row 0
			b[k] = __byte_perm(w[2 * k], w[2 * k + 1], 0x7632);	// high halves: output row 1
		}
		out[0] = make_uint4(a[0], a[1], a[2], a[3]);
		out[1] = make_uint4(b[0], b[1], b[2], b[3]);
	} else {	// i8, 4-byte words: G = 4, V = 16, four 4 x 4 byte transposes
		uint32_t o[4][4];
#pragma unroll
		for (int k = 0; k < 4; k++) {
			const uint32_t t0 = __byte_perm(w[4 * k], w[4 * k + 1], 0x5140);	// bytes 0, 1 interleaved
			const uint32_t t1 = __byte_perm(w[4 * k], w[4 * k + 1], 0x7362);	// bytes 2, 3 interleaved
			const uint32_t t2 = __byte_perm(w[4 * k + 2], w[4 * k + 3], 0x5140);
			const uint32_t t3 = __byte_perm(w[4 * k + 2], w[4 * k + 3], 0x7362);
			o[0][k] = __byte_perm(t0, t2, 0x5410);
			o[1][k] = __byte_perm(t0, t2, 0x7632);
			o[2][k] = __byte_perm(t1, t3, 0x5410);
			o[3][k] = __byte_perm(t1, t3, 0x7632);
		}
#pragma unroll
		for (int j = 0; j < 4; j++)
			out[j] = make_uint4(o[j][0], o[j][1], o[j][2], o[j][3]);
	}
}

template <class Tile, int THREADS, int NT>
__global__ void __launch_bounds__(THREADS)
	transpose_tile(const typename Tile::E *__restrict__ in, typename Tile::E *__restrict__ out, int rows, int cols)
{
	using E = typename Tile::E;
	constexpr int T = Tile::T, W = Tile::W;
	constexpr int V = 16 / sizeof(E);	// elements per 16-byte vector
	constexpr int G = W / sizeof(E);	// elements per drain word
	constexpr int VPR = T / V;		// vectors per tile row
	constexpr int NV = T * VPR / THREADS;	// fill vectors per thread
	constexpr int NS = VPR / 8;		// 128-byte segments per output row
	constexpr int NW = THREADS / 32;
	constexpr int NG = T / G / 4 * NS / NW;	// drain groups per warp
	static_assert(W % sizeof(E) == 0 && (G == 1 || W == 4 || (W == 8 && sizeof(E) == 4)), "drain word");
	static_assert(T * VPR % THREADS == 0 && VPR % 8 == 0 && T / G / 4 * NS % NW == 0, "tile shape");
	using Wd = typename Word<W, E>::type;

	E *const tile = TileMem<Tile>::get();
	const int r0 = blockIdx.y * T;
	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

	// All loads first, so that each thread has NV 16-byte loads in flight;
	// later tiles' loads are issued before the previous tile drains.
	uint4 v[NV];
	auto load = [&](int c0) {
#pragma unroll
		for (int j = 0; j < NV; j++) {
			const int q = threadIdx.x + j * THREADS, r = q / VPR, c = q % VPR * V;
			v[j] = __ldg(reinterpret_cast<const uint4 *>(in + static_cast<size_t>(r0 + r) * cols + c0 + c));
		}
	};
	load(blockIdx.x * NT * T);
#pragma unroll 1
	for (int t = 0; t < NT; t++) {
		const int c0 = (blockIdx.x * NT + t) * T;
		if (t > 0)
			__syncthreads();	// the previous tile's drain is done
#pragma unroll
		for (int j = 0; j < NV; j++) {
			const int q = threadIdx.x + j * THREADS, r = q / VPR, c = q % VPR * V;
			*reinterpret_cast<uint4 *>(&tile[Tile::idx(r, c)]) = v[j];
		}
		__syncthreads();
		if (t + 1 < NT)
			load(c0 + T);
#pragma unroll
		for (int k = 0; k < NG; k++) {
			const int g = warp + k * NW;
			const int wc = 4 * (g / NS) + lane / 8;		// word column: output rows G wc + j
			const int ir = V * (8 * (g % NS) + lane % 8);	// first input row
			Wd w[V];
#pragma unroll
			for (int i = 0; i < V; i++)
				w[i] = *reinterpret_cast<const Wd *>(&tile[Tile::idx(ir + i, G * wc)]);
			uint4 o[G];
			transpose_block<E, W, V, G>(w, o);
#pragma unroll
			for (int j = 0; j < G; j++)
				*reinterpret_cast<uint4 *>(out + static_cast<size_t>(c0 + G * wc + j) * rows + r0 + ir) = o[j];
		}
	}
}

// Baselines: the textbook kernel, 32 x 8 threads over a 32 x 32 tile, with
// the pad-by-one row (32 x 33) and without (32 x 32).
template <int PAD> __global__ void transpose_textbook(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
	__shared__ float tile[32][32 + PAD];
	int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
#pragma unroll
	for (int j = 0; j < 32; j += 8)
		tile[threadIdx.y + j][threadIdx.x] = in[static_cast<size_t>(y + j) * cols + x];
	__syncthreads();
	x = blockIdx.y * 32 + threadIdx.x;
	y = blockIdx.x * 32 + threadIdx.y;
#pragma unroll
	for (int j = 0; j < 32; j += 8)
		out[static_cast<size_t>(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

// rows a multiple of the tile, cols of NT tiles.
template <class Tile, int THREADS, int NT = 1> void launch_tile(const void *in, void *out, int rows, int cols)
{
	using E = typename Tile::E;
	constexpr bool dynamic = Tile::BYTES > STATIC_SMEM_MAX;
	static const bool once = [] {
		if (dynamic)
			CUDA_CHECK(cudaFuncSetAttribute(transpose_tile<Tile, THREADS, NT>,
							cudaFuncAttributeMaxDynamicSharedMemorySize, Tile::BYTES));
		return true;
	}();
	(void)once;
	const dim3 grid(cols / Tile::T / NT, rows / Tile::T);
	transpose_tile<Tile, THREADS, NT><<<grid, THREADS, dynamic ? Tile::BYTES : 0>>>(static_cast<const E *>(in),
											    static_cast<E *>(out), rows, cols);
}
