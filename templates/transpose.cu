// transpose.cu: tiled out-of-place transpose for f32, f64, f16 and i8 on
// bankc-generated tiles (specs/templates.tile: tp_f32, tp_f64, tp_f16,
// tp_i8, the wide-drain tiles tp_f32w, tp_f16w, tp_i8w, and the tiles
// with twice as many bytes per row, tp_f32lw, tp_f16l, tp_i8l),
// and its benchmark against cudaMemcpy D2D, cublasSgeam and the textbook
// 32 x 33 / 32 x 32 kernels.
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
#include "bench.cuh"

#include <thread>

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
void run(Ctx &x, const char *kernel, int rows, int cols, const char *ref, double ref_gbs, F &&launch)
{
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

template <class Tile, int THREADS, int NT = 1> void run_tile(Ctx &x, int n, const char *ref, double ref_gbs)
{
	using E = typename Tile::E;
	std::string k = std::string("bankc ") + Tile::name + " " + std::to_string(Tile::T) + "x" + std::to_string(Tile::T) +
			" t" + std::to_string(THREADS);
	if (NT > 1)
		k += " x" + std::to_string(NT) + " tiles";
	run<E>(x, k.c_str(), n, n, ref, ref_gbs, [&](const E *in, E *out) { launch_tile<Tile, THREADS, NT>(in, out, n, n); });
}

int main(int argc, char **argv)
{
	const bench::Args args(argc, argv);
	if (args.profile) {
		// Each template kernel once, on 1024 x 1024, for Nsight Compute.
		const int n = args.profile_size(1024);
		const size_t bytes = static_cast<size_t>(n) * n * 8;
		void *in, *out;
		CUDA_CHECK(cudaMalloc(&in, bytes));
		CUDA_CHECK(cudaMalloc(&out, bytes));
		CUDA_CHECK(cudaMemset(in, 1, bytes));
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
		// Baselines first: the copy is the ceiling, cublasSgeam the target.
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
		// The template (64 x 64, 512 threads: the spec's), then the kept
		// variants: the wide drain, on the same tile and on one of 128 x 128
		// (512-byte rows).
		run_tile<TpF32, 512>(x, n, "geam", geam_gbs);
		run_tile<TpF32W, 512>(x, n, "geam", geam_gbs);
		run_tile<TpF32LW, 512>(x, n, "geam", geam_gbs);
		if (args.explore) {
			run_tile<TpF32, 256>(x, n, "geam", geam_gbs);	// same instructions, half the threads
			run_tile<TpF32, 512, 2>(x, n, "geam", geam_gbs);
			run_tile<TpF32W, 512, 2>(x, n, "geam", geam_gbs);
			run_tile<TpF32LW, 256>(x, n, "geam", geam_gbs);
		}
		if (n == sizes.back()) {
			// Other widths: against the copy, the same bytes moved; each
			// on its 128-byte-row tile (scalar and wide drain) and on its
			// tile with 256-byte rows.
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
