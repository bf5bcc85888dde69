/* bankc_wgmma.cuh: the GPU check of a wgmma operand tile.
 *
 * A tile with a `wgmma.a` or `wgmma.b` access is read by wgmma.mma_async
 * through a matrix descriptor, not by lanes; its header gives the
 * descriptor (NAME_WGMMA_*, name_wgmma_desc()).  This check proves both on
 * the GPU:
 *   1. it fills every stage of the tile, in dynamic shared memory poisoned
 *      with 0xFF (a NaN in every float type), through NAME_SIDX with random
 *      small integers, and builds the other operand itself, K-major, with
 *      the 128-byte swizzle where K allows (the layout the Hopper GEMM
 *      template runs: a known-good partner) or else without, and its own
 *      descriptor;
 *   2. one warpgroup issues real wgmma.mma_async over the whole tile (every
 *      64-row block of operand A's M, or operand B's N in chunks of 256 down
 *      to 8, and every K step), the tile's operands through
 *      name_wgmma_desc() at NAME_WGMMA_START, with the transpose flag for
 *      `major mn`; for stage 0 and for the last stage;
 *   3. it compares the whole product with the host's, element by element:
 *      exactly for integers, and for floats within K * |a||b| * 2^-p, p the
 *      accumulator's trusted bits (22 for f32 from 16-bit and tf32 inputs,
 *      13 from fp8): 0 while every partial sum is an integer below 2^p, which
 *      the chosen ranges ensure for the tile sizes shared memory allows;
 *   4. it corrupts the tile's descriptor on purpose (each other swizzle
 *      mode, SBO halved, LBO halved where an instruction steps by it) and
 *      requires every such run to fail the comparison, so that a check that
 *      cannot see a wrong field does not pass; a non-zero base offset is
 *      tried too and reported (the PTX ISA only says when it must be 0).
 * The same plan also runs on a host model of how the PTX ISA says wgmma
 * reads a descriptor (`--emulate`, no GPU needed), which tells a wrong
 * reading of the rules from a wrong layout.
 *
 * Use, in the tile's check program (nvcc -std=c++17
 * -gencode=arch=compute_90a,code=sm_90a):
 *
 *     #include "NAME.cuh"
 *     #include "bankc_wgmma.cuh"
 *     BANKC_WGMMA_TILE(name, NAME, BANKC_WG_BF16);  // the tile's element type
 *     ... return bankc_wgmma_main<name_wgmma>(argc, argv);
 *
 * It prints what it ran and a last line "wgmma NAME: ok", "... FAILED ..."
 * or "... NOT RUN ...", and returns 0, 1 or 2.  `--count` (the counters'
 * run of bankc_check.cuh) does nothing and returns 0.
 *
 * wgmma exists only in sm_90a: the device code is compiled only where
 * __CUDA_ARCH_FEAT_SM90_ALL is defined (compute_90a); built for any other
 * target the kernel does nothing but say so, and the check reports NOT RUN. */
#ifndef BANKC_WGMMA_CUH
#define BANKC_WGMMA_CUH

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

/* The element types wgmma multiplies, as BANKC_WGMMA_TILE names them. */
enum { BANKC_WG_NONE = -1, BANKC_WG_F16, BANKC_WG_BF16, BANKC_WG_TF32,
	BANKC_WG_E4M3, BANKC_WG_E5M2, BANKC_WG_S8, BANKC_WG_U8 };

__host__ __device__ constexpr int bankc_wg_elem_bytes(int t)
{
	return t == BANKC_WG_F16 || t == BANKC_WG_BF16 ? 2
	       : t == BANKC_WG_TF32 ? 4 : t >= BANKC_WG_E4M3 ? 1 : 0;
}

__host__ __device__ constexpr bool bankc_wg_integer(int t)
{
	return t == BANKC_WG_S8 || t == BANKC_WG_U8;
}

/* The tile as this check reads it, from its generated header. */
#define BANKC_WGMMA_TILE(lo, UP, TYPE)                                         \
	struct lo##_wgmma {                                                        \
		static constexpr const char *name = #lo;                               \
		static constexpr int type = TYPE;                                      \
		static constexpr int rows = UP##_ROWS, cols = UP##_COLS;               \
		static constexpr int stages = UP##_STAGES, elem = UP##_ELEM_BYTES;     \
		static constexpr long long bytes = UP##_BYTES;                         \
		static constexpr int swizzle = UP##_WGMMA_SWIZZLE;                     \
		static constexpr int lbo = UP##_WGMMA_LBO, sbo = UP##_WGMMA_SBO;       \
		static constexpr int operand_b = UP##_WGMMA_B;                         \
		static constexpr int mn_major = UP##_WGMMA_MAJOR_MN;                   \
		__host__ __device__ static long long sidx(int s, int r, int c)         \
		{                                                                      \
			return UP##_SIDX(s, r, c);                                         \
		}                                                                      \
		__host__ __device__ static long long start(int s, int r, int c)        \
		{                                                                      \
			return UP##_WGMMA_START(s, r, c);                                  \
		}                                                                      \
		__host__ __device__ static unsigned long long desc(unsigned a, int s)  \
		{                                                                      \
			return lo##_wgmma_desc(a, s);                                      \
		}                                                                      \
	};                                                                         \
	static_assert(bankc_wg_elem_bytes(TYPE) == UP##_ELEM_BYTES,                \
	              "BANKC_WGMMA_TILE: the element type is not the tile's")

/* ---- the instruction ------------------------------------------------------- */

/* Operands of one wgmma: %0 and %1 the descriptors of A and B, %2 the
 * scale-d flag, then the accumulators: BANKC_WG_R<N> names the N / 2
 * registers of an m64nN shape. */
#define BANKC_WG_R8 "%3, %4, %5, %6"
#define BANKC_WG_R16 BANKC_WG_R8 ", %7, %8, %9, %10"
#define BANKC_WG_R32 BANKC_WG_R16 ", %11, %12, %13, %14, %15, %16, %17, %18"
#define BANKC_WG_R64 BANKC_WG_R32 ", %19, %20, %21, %22, %23, %24, %25, %26, " \
	"%27, %28, %29, %30, %31, %32, %33, %34"
#define BANKC_WG_R128 BANKC_WG_R64 ", %35, %36, %37, %38, %39, %40, %41, %42, " \
	"%43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, "    \
	"%57, %58, %59, %60, %61, %62, %63, %64, %65, %66"
#define BANKC_WG_R256 BANKC_WG_R128 ", %67, %68, %69, %70, %71, %72, %73, "    \
	"%74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, "    \
	"%88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, "  \
	"%102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, "  \
	"%114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, "  \
	"%126, %127, %128, %129, %130"
#define BANKC_WG_O4(c, d) c((d)[0]), c((d)[1]), c((d)[2]), c((d)[3])
#define BANKC_WG_O8(c, d) BANKC_WG_O4(c, d), BANKC_WG_O4(c, (d) + 4)
#define BANKC_WG_O16(c, d) BANKC_WG_O8(c, d), BANKC_WG_O8(c, (d) + 8)
#define BANKC_WG_O32(c, d) BANKC_WG_O16(c, d), BANKC_WG_O16(c, (d) + 16)
#define BANKC_WG_O64(c, d) BANKC_WG_O32(c, d), BANKC_WG_O32(c, (d) + 32)
#define BANKC_WG_O128(c, d) BANKC_WG_O64(c, d), BANKC_WG_O64(c, (d) + 64)
#define BANKC_WG_OPS_8(c, d) BANKC_WG_O4(c, d)
#define BANKC_WG_OPS_16(c, d) BANKC_WG_O8(c, d)
#define BANKC_WG_OPS_32(c, d) BANKC_WG_O16(c, d)
#define BANKC_WG_OPS_64(c, d) BANKC_WG_O32(c, d)
#define BANKC_WG_OPS_128(c, d) BANKC_WG_O64(c, d)
#define BANKC_WG_OPS_256(c, d) BANKC_WG_O128(c, d)

/* d (64 x N) = A B^T (+ d when sc), both operands by descriptor; TAIL is
 * what follows scale-d: the immediate scales and transposes. */
#define BANKC_WG_MMA(N, K, TYPES, TAIL, C)                                     \
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %2, 0;\n"                   \
	             "wgmma.mma_async.sync.aligned.m64n" #N K TYPES " {"          \
	             BANKC_WG_R##N "}, %0, %1, p" TAIL ";\n}\n"                    \
	             : "+l"(da), "+l"(db), "+r"(sc), BANKC_WG_OPS_##N(C, d)        \
	             :                                                             \
	             : "memory")
#define BANKC_WG_EACH_N(K, TYPES, TAIL, C)                                     \
	if constexpr (N == 8) BANKC_WG_MMA(8, K, TYPES, TAIL, C);                  \
	else if constexpr (N == 16) BANKC_WG_MMA(16, K, TYPES, TAIL, C);           \
	else if constexpr (N == 32) BANKC_WG_MMA(32, K, TYPES, TAIL, C);           \
	else if constexpr (N == 64) BANKC_WG_MMA(64, K, TYPES, TAIL, C);           \
	else if constexpr (N == 128) BANKC_WG_MMA(128, K, TYPES, TAIL, C);         \
	else BANKC_WG_MMA(256, K, TYPES, TAIL, C)

template <int N>
struct bankc_wg_n_ok {
	static constexpr bool value = N == 8 || N == 16 || N == 32 || N == 64 ||
	                              N == 128 || N == 256;
};

/* One wgmma.mma_async of shape m64nNk(32 bytes), element type T; TA, TB
 * the transpose flags (16-bit types only: 1 = M- or N-major). */
template <int T, int TA, int TB, int N, class Acc>
__device__ __forceinline__ void bankc_wg_mma(Acc (&d)[N / 2],
                                             unsigned long long da,
                                             unsigned long long db,
                                             unsigned sc)
{
	static_assert(bankc_wg_n_ok<N>::value, "N: 8, 16, 32, 64, 128 or 256");
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
	if constexpr (T == BANKC_WG_F16 && TA == 1) {
		BANKC_WG_EACH_N("k16", ".f32.f16.f16", ", 1, 1, 1, 0", "+f");
	} else if constexpr (T == BANKC_WG_F16 && TB == 1) {
		BANKC_WG_EACH_N("k16", ".f32.f16.f16", ", 1, 1, 0, 1", "+f");
	} else if constexpr (T == BANKC_WG_F16) {
		BANKC_WG_EACH_N("k16", ".f32.f16.f16", ", 1, 1, 0, 0", "+f");
	} else if constexpr (T == BANKC_WG_BF16 && TA == 1) {
		BANKC_WG_EACH_N("k16", ".f32.bf16.bf16", ", 1, 1, 1, 0", "+f");
	} else if constexpr (T == BANKC_WG_BF16 && TB == 1) {
		BANKC_WG_EACH_N("k16", ".f32.bf16.bf16", ", 1, 1, 0, 1", "+f");
	} else if constexpr (T == BANKC_WG_BF16) {
		BANKC_WG_EACH_N("k16", ".f32.bf16.bf16", ", 1, 1, 0, 0", "+f");
	} else if constexpr (T == BANKC_WG_TF32) {
		BANKC_WG_EACH_N("k8", ".f32.tf32.tf32", ", 1, 1", "+f");
	} else if constexpr (T == BANKC_WG_E4M3) {
		BANKC_WG_EACH_N("k32", ".f32.e4m3.e4m3", ", 1, 1", "+f");
	} else if constexpr (T == BANKC_WG_E5M2) {
		BANKC_WG_EACH_N("k32", ".f32.e5m2.e5m2", ", 1, 1", "+f");
	} else if constexpr (T == BANKC_WG_S8) {
		BANKC_WG_EACH_N("k32", ".s32.s8.s8", "", "+r");
	} else {
		BANKC_WG_EACH_N("k32", ".s32.u8.u8", "", "+r");
	}
#else
	(void)d, (void)da, (void)db, (void)sc;
#endif
}

/* Keeps the compiler from moving accumulator reads or writes across the
 * asynchronous wgmma that owns the registers. */
template <int R, class Acc>
__device__ __forceinline__ void bankc_wg_fence_acc(Acc (&d)[R])
{
#pragma unroll
	for (int i = 0; i < R; i++) {
		if constexpr (std::is_same<Acc, float>::value)
			asm volatile("" : "+f"(d[i])::"memory");
		else
			asm volatile("" : "+r"(d[i])::"memory");
	}
}

/* The other operand, built by this check: K-major, P rows (M or N) of K,
 * with the 128-byte swizzle where its rows are whole 128-byte boxes (the
 * layout include/bankc/detail/gemm_sm90.cuh runs on an H200: a known-good partner),
 * else without swizzle.  Byte of (p, k byte kb): swizzled, kb / 128 boxes
 * of P * 128 bytes, then rows of 128 bytes under Swizzle<3,4,3>, the
 * descriptor LBO 16 (not read), SBO 1024; without swizzle, kb / 16 boxes
 * of P * 16 bytes, then rows of 16 bytes, LBO P * 16 (the next box), SBO
 * 128 (the next 8 rows). */
__host__ __device__ inline long long bankc_wg_other_off(int P, bool sw, int p,
                                                        int kb)
{
	if (!sw)
		return (long long)(kb / 16) * P * 16 + p * 16 + kb % 16;
	long long o = (long long)p * 128 + kb % 128;
	return (long long)(kb / 128) * P * 128 + (o ^ ((o >> 7 & 7) << 4));
}

__host__ __device__ inline unsigned long long bankc_wg_other_desc(unsigned a,
                                                                  int P,
                                                                  bool sw)
{
	return (unsigned long long)((a & 0x3FFFFu) >> 4) |
	       (unsigned long long)((unsigned)(sw ? 16 : P * 16) >> 4) << 16 |
	       (unsigned long long)((sw ? 1024 : 128) >> 4) << 32 |
	       (unsigned long long)(sw ? 1 : 0) << 62;
}

/* The other operand's descriptor for K step kk (32 bytes of K), its
 * shared memory at `at`: the sub-block's corner, unswizzled. */
__host__ __device__ inline unsigned long long bankc_wg_other_step(unsigned at,
                                                                  int P, bool sw,
                                                                  int kk)
{
	return bankc_wg_other_desc(at + (unsigned)bankc_wg_other_off(P, sw, 0, kk * 32),
	                           P, sw);
}

/* One launch: the whole fill, then one warpgroup's wgmma over the tile. */
struct bankc_wg_args {
	const unsigned char *vals;  /* stages x rows x cols elements, row-major */
	const unsigned char *other; /* the other operand, in its layout */
	int other_bytes;
	long long tile_span;        /* bytes from the tile's base to the other's */
	long long smem;             /* the dynamic shared memory */
	int stage;
	int mblocks;                /* operand A: 64-row blocks of M; B: 1 */
	int n0;                     /* operand B: the chunk's first N */
	int ksteps;
	int P;                      /* the other operand's rows (N or 64) */
	int other_sw;               /* its layout: 1 128-byte swizzle, 0 none */
	unsigned long long clr, set;    /* applied to the tile's descriptors */
	void *d;                    /* the product, row-major, ldd a row */
	int ldd;
	int *done;                  /* 1: ran; -1: built without sm_90a */
};

/* Where instruction (mb, kk) of the plan starts in the tile: operand A
 * block mb of 64 rows of M, operand B the chunk at n0; K step kk of 32
 * bytes (16 rows when MN-major). */
template <class Tile>
__host__ __device__ inline long long bankc_wg_tile_start(int s, int mb, int n0,
                                                         int kk)
{
	constexpr int KI = 32 / Tile::elem;
	int mn = Tile::operand_b ? n0 : 64 * mb;
	return Tile::mn_major ? Tile::start(s, kk * KI, mn)
	                      : Tile::start(s, mn, kk * KI);
}

template <class Tile, int N>
__global__ void __launch_bounds__(128) bankc_wg_kernel(bankc_wg_args a)
{
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
	using Acc = typename std::conditional<bankc_wg_integer(Tile::type), int,
	                                      float>::type;
	constexpr int E = Tile::elem;
	constexpr int TA = Tile::operand_b ? 0 : Tile::mn_major;
	constexpr int TB = Tile::operand_b ? Tile::mn_major : 0;
	extern __shared__ __align__(1024) unsigned char bankc_wg_smem[];
	const int tid = threadIdx.x;
	unsigned raw = (unsigned)__cvta_generic_to_shared(bankc_wg_smem);
	unsigned pad = (1024u - (raw & 1023u)) & 1023u;
	unsigned char *base = bankc_wg_smem + pad;
	for (long long i = tid; i < a.smem - pad; i += 128)
		base[i] = 0xFF;
	__syncthreads();
	const long long rc = (long long)Tile::rows * Tile::cols;
	for (long long i = tid; i < Tile::stages * rc; i += 128) {
		int s = (int)(i / rc), r = (int)(i % rc / Tile::cols);
		int c = (int)(i % Tile::cols);
		unsigned char *p = base + Tile::sidx(s, r, c) * E;
		for (int e = 0; e < E; e++)
			p[e] = a.vals[i * E + e];
	}
	for (int i = tid; i < a.other_bytes; i += 128)
		base[a.tile_span + i] = a.other[i];
	/* generic-proxy writes, then wgmma's async-proxy reads */
	asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
	__syncthreads();
	const unsigned tb = raw + pad, ob = tb + (unsigned)a.tile_span;
	const int w = tid / 32, l = tid % 32;
	for (int mb = 0; mb < a.mblocks; mb++) {
		Acc d[N / 2];
#pragma unroll
		for (int i = 0; i < N / 2; i++)
			d[i] = 0;
		bankc_wg_fence_acc(d);
		/* each wgmma in a group of its own, fenced and committed, and a
		 * loop that runs at least once (ksteps >= 1): no branch falls
		 * between a fence and its commit, so ptxas adds no
		 * warpgroup.arrive of its own (its note C7519); the accumulators
		 * chain through the groups in order */
		int kk = 0;
		do {
			asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
			long long ts = bankc_wg_tile_start<Tile>(a.stage, mb, a.n0, kk);
			unsigned long long td =
				(Tile::desc(tb + (unsigned)ts, a.stage) & ~a.clr) | a.set;
			unsigned long long od = bankc_wg_other_step(ob, a.P, a.other_sw, kk);
			bankc_wg_mma<Tile::type, TA, TB, N>(d, Tile::operand_b ? od : td,
			                                    Tile::operand_b ? td : od,
			                                    kk > 0 ? 1u : 0u);
			asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
		} while (++kk < a.ksteps);
		asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
		bankc_wg_fence_acc(d);
		/* accumulator i of thread (warp w, lane l): row 16 w + l / 4 +
		 * 8 ((i / 2) % 2), column 8 (i / 4) + 2 (l % 4) + i % 2 */
		Acc *out = (Acc *)a.d;
#pragma unroll
		for (int i = 0; i < N / 2; i++) {
			int row = 64 * mb + 16 * w + l / 4 + 8 * (i / 2 % 2);
			int col = a.n0 + 8 * (i / 4) + 2 * (l % 4) + i % 2;
			out[(long long)row * a.ldd + col] = d[i];
		}
	}
	if (tid == 0)
		*a.done = 1;
#else
	if (threadIdx.x == 0)
		*a.done = -1;
#endif
}

/* ---- host side: values, the plan, the reference ------------------------- */

struct bankc_wg_fmt {
	const char *name;
	int ebits, mbits, bias;     /* float types; 0 ebits: integers */
	bool ieee;                  /* all-ones exponent: inf and NaN */
	int range;                  /* largest magnitude used */
	int acc_bits;               /* accumulator bits trusted (see the top) */
};

static inline bankc_wg_fmt bankc_wg_format(int t)
{
	switch (t) {
	case BANKC_WG_F16: return {"f16", 5, 10, 15, true, 8, 22};
	case BANKC_WG_BF16: return {"bf16", 8, 7, 127, true, 8, 22};
	case BANKC_WG_TF32: return {"tf32", 8, 23, 127, true, 8, 22};
	case BANKC_WG_E4M3: return {"e4m3", 4, 3, 7, false, 8, 13};
	case BANKC_WG_E5M2: return {"e5m2", 5, 2, 15, true, 4, 13};
	case BANKC_WG_S8: return {"s8", 0, 0, 0, false, 128, 31};
	default: return {"u8", 0, 0, 0, false, 255, 31};
	}
}

/* The bits of a small integer v in type t (exact: |v| <= 2^(mbits + 1)). */
static inline unsigned bankc_wg_encode(int t, int v)
{
	bankc_wg_fmt f = bankc_wg_format(t);
	if (f.ebits == 0)
		return (unsigned)v & 0xFFu;
	if (v == 0)
		return 0;
	unsigned sign = v < 0, m = (unsigned)(v < 0 ? -v : v);
	int e = 0;
	while ((m >> (e + 1)) != 0)
		e++;
	unsigned frac = (m - (1u << e)) << (f.mbits - e);
	return sign << (f.ebits + f.mbits) | (unsigned)(e + f.bias) << f.mbits |
	       frac;
}

/* The value of E bytes of type t (NaN for NaN and infinity). */
static inline double bankc_wg_decode(int t, const unsigned char *p)
{
	bankc_wg_fmt f = bankc_wg_format(t);
	int E = bankc_wg_elem_bytes(t);
	unsigned u = 0;
	for (int i = 0; i < E; i++)
		u |= (unsigned)p[i] << (8 * i);
	if (t == BANKC_WG_S8)
		return (double)(signed char)(u & 0xFF);
	if (t == BANKC_WG_U8)
		return (double)u;
	unsigned sign = u >> (f.ebits + f.mbits) & 1;
	unsigned ex = u >> f.mbits & ((1u << f.ebits) - 1);
	unsigned mant = u & ((1u << f.mbits) - 1);
	if ((f.ieee && ex == (1u << f.ebits) - 1) ||
	    (!f.ieee && ex == (1u << f.ebits) - 1 && mant == (1u << f.mbits) - 1))
		return NAN;
	double v = ex ? std::ldexp(1.0 + std::ldexp((double)mant, -f.mbits),
	                           (int)ex - f.bias)
	              : std::ldexp((double)mant, 1 - f.bias - f.mbits);
	return sign ? -v : v;
}

static inline unsigned long long bankc_wg_mix(unsigned long long *s)
{
	unsigned long long z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* What one check of tile Tile runs: the shapes, the values and the
 * product the host expects. */
struct bankc_wg_plan {
	int M, K;           /* the tile's M or N extent, and its K */
	int KI, ksteps;     /* K of one instruction, instructions along K */
	int P;              /* the other operand's rows */
	bool other_sw;      /* its layout (see bankc_wg_other_off) */
	int drows, dcols;   /* the product */
	std::vector<int> chunks;    /* operand B: N of each instruction */
	std::vector<int> vals;      /* stages x rows x cols */
	std::vector<int> other;     /* P x K */
	std::vector<unsigned char> vbytes, obytes;
	long long tile_span, smem;
};

static inline long long bankc_wg_up(long long v, long long a)
{
	return (v + a - 1) / a * a;
}

template <class Tile>
static bool bankc_wg_make_plan(bankc_wg_plan &p, int other_n, const char **why)
{
	constexpr int E = Tile::elem, T = Tile::type;
	p.M = Tile::mn_major ? Tile::cols : Tile::rows;
	p.K = Tile::mn_major ? Tile::rows : Tile::cols;
	p.KI = 32 / E;
	if (p.K % p.KI) {
		*why = "K is not a whole number of the instruction's K steps";
		return false;
	}
	if (!Tile::operand_b && p.M % 64) {
		*why = "operand A's M is not a whole number of 64";
		return false;
	}
	if (p.M % 8) {
		*why = "M or N is not a whole number of 8";
		return false;
	}
	p.ksteps = p.K / p.KI;
	p.P = Tile::operand_b ? 64 : other_n;
	p.other_sw = p.K * E % 128 == 0;
	p.drows = Tile::operand_b ? 64 : p.M;
	p.dcols = Tile::operand_b ? p.M : other_n;
	p.chunks.clear();
	if (Tile::operand_b)
		for (int n = p.M, c = 256; n > 0; c /= 2)
			while (n >= c) {
				p.chunks.push_back(c);
				n -= c;
			}
	bankc_wg_fmt f = bankc_wg_format(T);
	int range = f.range;
	if (!bankc_wg_integer(T)) {
		/* every partial sum an integer below 2^acc_bits: exact */
		while (range > 1 &&
		       (double)p.K * range * range >= std::ldexp(1.0, f.acc_bits))
			range--;
	}
	unsigned long long seed = 0x62616e6b63ull;
	for (const char *c = Tile::name; *c; c++)
		seed = seed * 131 + (unsigned char)*c;
	auto draw = [&]() {
		unsigned long long z = bankc_wg_mix(&seed);
		if (T == BANKC_WG_U8)
			return (int)(z % 256);
		if (T == BANKC_WG_S8)
			return (int)(z % 256) - 128;
		return (int)(z % (2 * range + 1)) - range;
	};
	size_t n = (size_t)Tile::stages * Tile::rows * Tile::cols;
	p.vals.resize(n);
	p.vbytes.resize(n * E);
	for (size_t i = 0; i < n; i++) {
		p.vals[i] = draw();
		unsigned b = bankc_wg_encode(T, p.vals[i]);
		for (int e = 0; e < E; e++)
			p.vbytes[i * E + e] = (unsigned char)(b >> (8 * e));
	}
	p.other.resize((size_t)p.P * p.K);
	p.obytes.assign((size_t)p.P * p.K * E, 0);
	for (int q = 0; q < p.P; q++)
		for (int k = 0; k < p.K; k++) {
			int v = draw();
			p.other[(size_t)q * p.K + k] = v;
			unsigned b = bankc_wg_encode(T, v);
			long long o = bankc_wg_other_off(p.P, p.other_sw, q, k * E);
			for (int e = 0; e < E; e++)
				p.obytes[(size_t)o + e] = (unsigned char)(b >> (8 * e));
		}
	/* the tile, the other operand, and room for a corrupted descriptor's
	 * reads past them (a swizzle or a larger base offset reaches up to a
	 * pattern further) */
	p.tile_span = bankc_wg_up(Tile::bytes, 1024);
	p.smem = 1024 + p.tile_span + bankc_wg_up((long long)p.obytes.size(), 1024) +
	         4096;
	return true;
}

/* The tile's value at (m or n, k) of stage s. */
template <class Tile>
static inline int bankc_wg_tile_val(const bankc_wg_plan &p, int s, int mn, int k)
{
	int r = Tile::mn_major ? k : mn, c = Tile::mn_major ? mn : k;
	return p.vals[((size_t)s * Tile::rows + r) * Tile::cols + c];
}

/* The product the host expects for stage s, and per element the sum of
 * |a b| (for the tolerance). */
template <class Tile>
static void bankc_wg_reference(const bankc_wg_plan &p, int s,
                               std::vector<double> &ref,
                               std::vector<double> &mag)
{
	ref.assign((size_t)p.drows * p.dcols, 0);
	mag.assign(ref.size(), 0);
	for (int i = 0; i < p.drows; i++)
		for (int j = 0; j < p.dcols; j++) {
			long long acc = 0, m = 0;
			for (int k = 0; k < p.K; k++) {
				long long a = Tile::operand_b ? p.other[(size_t)i * p.K + k]
				                              : bankc_wg_tile_val<Tile>(p, s, i, k);
				long long b = Tile::operand_b ? bankc_wg_tile_val<Tile>(p, s, j, k)
				                              : p.other[(size_t)j * p.K + k];
				acc += a * b;
				m += a * b < 0 ? -a * b : a * b;
			}
			ref[(size_t)i * p.dcols + j] = (double)acc;
			mag[(size_t)i * p.dcols + j] = (double)m;
		}
}

/* Elements of got that differ from ref beyond the tolerance; the first
 * few printed when `show`. */
template <class Tile>
static long bankc_wg_compare(const bankc_wg_plan &p, const std::vector<double> &got,
                             const std::vector<double> &ref,
                             const std::vector<double> &mag, bool show,
                             double *tol_max)
{
	bankc_wg_fmt f = bankc_wg_format(Tile::type);
	long bad = 0;
	*tol_max = 0;
	for (size_t i = 0; i < ref.size(); i++) {
		double tol = 0;
		if (!bankc_wg_integer(Tile::type) && mag[i] >= std::ldexp(1.0, f.acc_bits))
			tol = p.K * mag[i] * std::ldexp(1.0, -f.acc_bits);
		if (tol > *tol_max)
			*tol_max = tol;
		if (!(std::fabs(got[i] - ref[i]) <= tol)) {
			if (show && bad < 5)
				printf("    D[%d][%d] = %.17g, expected %.17g (tolerance %g)\n",
				       (int)(i / p.dcols), (int)(i % p.dcols), got[i], ref[i],
				       tol);
			bad++;
		}
	}
	return bad;
}

/* ---- the host model: how the PTX ISA says wgmma reads a descriptor ---------- */

/* Byte address of element (mn, k) of the matrix descriptor dsc names,
 * transposed (MN-major) or not; -1 for a base offset the model does not
 * know.  The canonical forms of "Shared Memory Matrix Layout", the
 * swizzle applied to the whole shared address. */
static inline long long bankc_wg_model_addr(unsigned long long dsc, bool mn_major,
                                            int E, int mn, int k)
{
	long long start = (long long)(dsc & 0x3FFF) << 4;
	long long lbo = (long long)(dsc >> 16 & 0x3FFF) << 4;
	long long sbo = (long long)(dsc >> 32 & 0x3FFF) << 4;
	int mode = (int)(dsc >> 62), B = mode ? 4 - mode : 0, W = 16 << B;
	if (dsc >> 49 & 7)
		return -1;
	long long a;
	if (!mn_major) {
		long long kb = (long long)k * E;
		a = mode == 0 ? start + mn / 8 * sbo + mn % 8 * 16 + kb / 16 * lbo + kb % 16
		              : start + mn / 8 * sbo + mn % 8 * W + kb;
	} else {
		long long mb = (long long)mn * E;
		a = mode == 0 ? start + mb / 16 * sbo + mb % 16 + k / 8 * lbo + k % 8 * 16
		              : start + mb / W * lbo + mb % W + k / 8 * sbo + k % 8 * W;
	}
	return B ? a ^ ((a >> 7 & ((1 << B) - 1)) << 4) : a;
}

/* The shared memory a launch fills, as a host array from address `at`. */
template <class Tile>
static std::vector<unsigned char> bankc_wg_model_smem(const bankc_wg_plan &p)
{
	std::vector<unsigned char> m((size_t)p.smem, 0xFF);
	const int E = Tile::elem;
	for (int s = 0; s < Tile::stages; s++)
		for (int r = 0; r < Tile::rows; r++)
			for (int c = 0; c < Tile::cols; c++) {
				size_t i = ((size_t)s * Tile::rows + r) * Tile::cols + c;
				memcpy(&m[(size_t)(Tile::sidx(s, r, c) * E)], &p.vbytes[i * E],
				       (size_t)E);
			}
	memcpy(&m[(size_t)p.tile_span], p.obytes.data(), p.obytes.size());
	return m;
}

/* The plan on the model; false when the model cannot say (a base
 * offset).  *reach: one past the last tile byte the tile's descriptors
 * name, from the tile's base (a read past the memory gives NaN). */
template <class Tile>
static bool bankc_wg_model_run(const bankc_wg_plan &p, int s,
                               unsigned long long clr, unsigned long long set,
                               std::vector<double> &got, long long *reach)
{
	const unsigned at = 1024;   /* where the model's shared memory starts */
	const int E = Tile::elem, T = Tile::type;
	std::vector<unsigned char> m = bankc_wg_model_smem<Tile>(p);
	got.assign((size_t)p.drows * p.dcols, 0);
	*reach = 0;
	const unsigned tb = at, ob = at + (unsigned)p.tile_span;
	std::vector<int> ns = Tile::operand_b ? p.chunks : std::vector<int>{p.P};
	int mblocks = Tile::operand_b ? 1 : p.M / 64;
	bool ta = !Tile::operand_b && Tile::mn_major;
	bool tbt = Tile::operand_b && Tile::mn_major;
	bool known = true;
	auto val = [&](unsigned long long d, bool mn, int i, int k, bool tile) {
		long long a = bankc_wg_model_addr(d, mn, E, i, k);
		if (a < 0) {
			known = false;
			return (double)NAN;
		}
		a -= at;
		if (tile && a + E > *reach)
			*reach = a + E;
		if (a < 0 || a + E > (long long)m.size())
			return (double)NAN;
		return bankc_wg_decode(T, &m[(size_t)a]);
	};
	for (int mb = 0; mb < mblocks && known; mb++)
		for (size_t ci = 0, n0 = 0; ci < ns.size(); n0 += ns[ci], ci++) {
			int N = ns[ci];
			int c0 = Tile::operand_b ? (int)n0 : 0;
			for (int kk = 0; kk < p.ksteps; kk++) {
				long long ts = bankc_wg_tile_start<Tile>(s, mb, c0, kk);
				unsigned long long td = (Tile::desc(tb + (unsigned)ts, s) & ~clr) |
				                        set;
				unsigned long long od = bankc_wg_other_step(ob, p.P, p.other_sw, kk);
				unsigned long long da = Tile::operand_b ? od : td;
				unsigned long long db = Tile::operand_b ? td : od;
				for (int i = 0; i < 64; i++)
					for (int j = 0; j < N; j++) {
						double acc = 0;
						for (int k = 0; k < p.KI; k++)
							acc += val(da, ta, i, k, !Tile::operand_b) *
							       val(db, tbt, j, k, Tile::operand_b);
						got[(size_t)(64 * mb + i) * p.dcols + c0 + j] += acc;
					}
			}
		}
	return known;
}

/* ---- the GPU run ---------------------------------------------------------- */

struct bankc_wg_dev {
	unsigned char *vals = nullptr, *other = nullptr;
	void *d = nullptr;
	int *done = nullptr;
};

#define BANKC_WG_CUDA(call)                                                    \
	do {                                                                       \
		cudaError_t e_ = (call);                                               \
		if (e_ != cudaSuccess) {                                               \
			fprintf(stderr, "%s:%d: CUDA error in %s: %s\n", __FILE__,         \
			        __LINE__, #call, cudaGetErrorString(e_));                  \
			exit(1);                                                           \
		}                                                                      \
	} while (0)

template <class Tile, int N>
static void bankc_wg_launch(bankc_wg_args a)
{
	BANKC_WG_CUDA(cudaFuncSetAttribute(bankc_wg_kernel<Tile, N>,
	              cudaFuncAttributeMaxDynamicSharedMemorySize, (int)a.smem));
	bankc_wg_kernel<Tile, N><<<1, 128, (size_t)a.smem>>>(a);
	BANKC_WG_CUDA(cudaGetLastError());
}

/* The N of the instructions Tile's check can issue, at compile time, so
 * only those kernels are built: operand A 64 (or 8 when shared memory is
 * short), operand B the chunks of its N. */
template <class Tile>
constexpr bool bankc_wg_uses(int N)
{
	constexpr int mn = Tile::mn_major ? Tile::cols : Tile::rows;
	return Tile::operand_b ? (N == 256 ? mn >= 256 : (mn % 256 & N) != 0)
	                       : N == 64 || N == 8;
}

template <class Tile>
static void bankc_wg_launch_n(int N, const bankc_wg_args &a)
{
	if constexpr (bankc_wg_uses<Tile>(8))
		if (N == 8)
			bankc_wg_launch<Tile, 8>(a);
	if constexpr (bankc_wg_uses<Tile>(16))
		if (N == 16)
			bankc_wg_launch<Tile, 16>(a);
	if constexpr (bankc_wg_uses<Tile>(32))
		if (N == 32)
			bankc_wg_launch<Tile, 32>(a);
	if constexpr (bankc_wg_uses<Tile>(64))
		if (N == 64)
			bankc_wg_launch<Tile, 64>(a);
	if constexpr (bankc_wg_uses<Tile>(128))
		if (N == 128)
			bankc_wg_launch<Tile, 128>(a);
	if constexpr (bankc_wg_uses<Tile>(256))
		if (N == 256)
			bankc_wg_launch<Tile, 256>(a);
}

/* The plan on the GPU: *ran is false when the kernel was built without
 * sm_90a. */
template <class Tile>
static void bankc_wg_gpu_run(const bankc_wg_plan &p, bankc_wg_dev &dv, int s,
                             unsigned long long clr, unsigned long long set,
                             std::vector<double> &got, bool *ran)
{
	const bool integer = bankc_wg_integer(Tile::type);
	size_t nd = (size_t)p.drows * p.dcols;
	if (!dv.vals) {
		BANKC_WG_CUDA(cudaMalloc(&dv.vals, p.vbytes.size()));
		BANKC_WG_CUDA(cudaMalloc(&dv.other, p.obytes.size()));
		BANKC_WG_CUDA(cudaMalloc(&dv.d, nd * 4));
		BANKC_WG_CUDA(cudaMalloc(&dv.done, sizeof(int)));
		BANKC_WG_CUDA(cudaMemcpy(dv.vals, p.vbytes.data(), p.vbytes.size(),
		                         cudaMemcpyHostToDevice));
		BANKC_WG_CUDA(cudaMemcpy(dv.other, p.obytes.data(), p.obytes.size(),
		                         cudaMemcpyHostToDevice));
	}
	BANKC_WG_CUDA(cudaMemset(dv.d, 0xFF, nd * 4));  /* NaN, or -1 */
	BANKC_WG_CUDA(cudaMemset(dv.done, 0, sizeof(int)));
	bankc_wg_args a;
	a.vals = dv.vals;
	a.other = dv.other;
	a.other_bytes = (int)p.obytes.size();
	a.tile_span = p.tile_span;
	a.smem = p.smem;
	a.stage = s;
	a.ksteps = p.ksteps;
	a.P = p.P;
	a.other_sw = p.other_sw;
	a.clr = clr;
	a.set = set;
	a.d = dv.d;
	a.ldd = p.dcols;
	a.done = dv.done;
	if (Tile::operand_b) {
		a.mblocks = 1;
		int n0 = 0;
		for (int n : p.chunks) {
			a.n0 = n0;
			bankc_wg_launch_n<Tile>(n, a);
			n0 += n;
		}
	} else {
		a.mblocks = p.M / 64;
		a.n0 = 0;
		bankc_wg_launch_n<Tile>(p.P, a);
	}
	BANKC_WG_CUDA(cudaDeviceSynchronize());
	int done = 0;
	BANKC_WG_CUDA(cudaMemcpy(&done, dv.done, sizeof done, cudaMemcpyDeviceToHost));
	*ran = done == 1;
	std::vector<unsigned> raw(nd);
	BANKC_WG_CUDA(cudaMemcpy(raw.data(), dv.d, nd * 4, cudaMemcpyDeviceToHost));
	got.resize(nd);
	for (size_t i = 0; i < nd; i++) {
		if (integer) {
			got[i] = (double)(int)raw[i];
		} else {
			float f;
			memcpy(&f, &raw[i], 4);
			got[i] = f;
		}
	}
}

/* ---- the check ------------------------------------------------------------- */

struct bankc_wg_mutation {
	char what[64];
	unsigned long long clr, set;
	bool required;      /* a check blind to it must not pass */
	bool tried = true;  /* its reads fit the shared memory */
};

template <class Tile>
static std::vector<bankc_wg_mutation> bankc_wg_mutations(const bankc_wg_plan &p)
{
	std::vector<bankc_wg_mutation> v;
	static const int width[] = {16, 128, 64, 32};
	static const char *const mode[] = {"none", "128B", "64B", "32B"};
	for (int sw = 0; sw < 4; sw++)
		if (sw != Tile::swizzle) {
			bankc_wg_mutation m;
			snprintf(m.what, sizeof m.what, "swizzle %s->%s", mode[Tile::swizzle],
			         mode[sw]);
			m.clr = 3ull << 62;
			m.set = (unsigned long long)sw << 62;
			m.required = true;
			v.push_back(m);
		}
	/* which strides the instructions step by: M/N of one instruction in
	 * bytes (64 rows for A, the widest chunk for B), K 32 bytes */
	int W = width[Tile::swizzle];
	int mnb = (Tile::operand_b ? p.chunks[0] : 64) * Tile::elem;
	bool sbo_used = Tile::mn_major ? (Tile::swizzle != 0 || mnb > 16)
	                               : mnb > 8 * Tile::elem;
	bool lbo_used = Tile::mn_major ? (Tile::swizzle == 0 || mnb > W)
	                               : Tile::swizzle == 0;
	if (sbo_used) {
		bankc_wg_mutation m;
		snprintf(m.what, sizeof m.what, "SBO %d->%d", Tile::sbo, Tile::sbo / 2);
		m.clr = 0x3FFFull << 32;
		m.set = (unsigned long long)(Tile::sbo / 2 >> 4) << 32;
		m.required = true;
		v.push_back(m);
	}
	if (lbo_used) {
		bankc_wg_mutation m;
		snprintf(m.what, sizeof m.what, "LBO %d->%d", Tile::lbo, Tile::lbo / 2);
		m.clr = 0x3FFFull << 16;
		m.set = (unsigned long long)(Tile::lbo / 2 >> 4) << 16;
		m.required = true;
		v.push_back(m);
	}
	if (Tile::swizzle != 0) {
		bankc_wg_mutation m;
		snprintf(m.what, sizeof m.what, "base offset 0->1");
		m.clr = 7ull << 49;
		m.set = 1ull << 49;
		m.required = false;
		v.push_back(m);
	}
	return v;
}

template <class Tile>
static int bankc_wgmma_main(int argc, char **argv)
{
	bool emulate = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--count") == 0)
			return 0;           /* the counters' run: no extra launches */
		if (strcmp(argv[i], "--emulate") == 0)
			emulate = true;
	}
	static const char *const mode[] = {"no swizzle", "128-byte swizzle",
		"64-byte swizzle", "32-byte swizzle"};
	bankc_wg_fmt f = bankc_wg_format(Tile::type);
	printf("wgmma %s: operand %c, %s-major, %s (LBO %d, SBO %d), %s, %d x %d, "
	       "%d stage%s\n", Tile::name, Tile::operand_b ? 'B' : 'A',
	       Tile::mn_major ? "MN" : "K", mode[Tile::swizzle], Tile::lbo,
	       Tile::sbo, f.name, Tile::rows, Tile::cols, Tile::stages,
	       Tile::stages > 1 ? "s" : "");
	long long smem_max = 232448;    /* sm_90's opt-in per block */
	cudaDeviceProp prop;
	if (!emulate) {
		int ndev = 0;
		if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
			printf("wgmma %s: NOT RUN (no CUDA device; --emulate runs the host "
			       "model)\n", Tile::name);
			return 2;
		}
		BANKC_WG_CUDA(cudaGetDeviceProperties(&prop, 0));
		if (prop.major != 9 || prop.minor != 0) {
			printf("wgmma %s: NOT RUN (wgmma needs sm_90a; %s is sm_%d%d)\n",
			       Tile::name, prop.name, prop.major, prop.minor);
			return 2;
		}
		smem_max = (long long)prop.sharedMemPerBlockOptin;
	}
	bankc_wg_plan p;
	const char *why = "";
	int other_n = 64;
	if (!bankc_wg_make_plan<Tile>(p, other_n, &why)) {
		printf("wgmma %s: FAILED (%s)\n", Tile::name, why);
		return 1;
	}
	if (p.smem > smem_max && !Tile::operand_b) {
		other_n = 8;
		bankc_wg_make_plan<Tile>(p, other_n, &why);
	}
	if (p.smem > smem_max) {
		printf("wgmma %s: NOT RUN (the tile and the other operand need %lld "
		       "bytes of shared memory, more than %lld)\n", Tile::name, p.smem,
		       smem_max);
		return 2;
	}
	char shape[96];
	int kd = p.KI;
	if (Tile::operand_b) {
		int k = snprintf(shape, sizeof shape, "m64n");
		for (size_t i = 0; i < p.chunks.size() && k > 0 && k < (int)sizeof shape; i++)
			k += snprintf(shape + k, sizeof shape - k, "%s%d", i ? "+" : "",
			              p.chunks[i]);
		snprintf(shape + k, sizeof shape - k, "k%d", kd);
	} else {
		snprintf(shape, sizeof shape, "%d x m64n%dk%d", p.M / 64, p.P, kd);
	}
	printf("  %s, %d K steps, the other operand K-major, %s; %lld bytes of "
	       "shared memory\n", shape, p.ksteps,
	       p.other_sw ? "128-byte swizzle" : "no swizzle", p.smem);

	/* corrupted descriptors, each tried only where the shared memory can
	 * hold all it reads (the host model says how far that is) */
	std::vector<bankc_wg_mutation> muts = bankc_wg_mutations<Tile>(p);
	std::vector<double> ref, mag, got;
	long long base_smem = p.smem;
	for (bankc_wg_mutation &m : muts) {
		long long reach;
		m.tried = true;
		if (!bankc_wg_model_run<Tile>(p, 0, m.clr, m.set, got, &reach))
			continue;   /* a base offset: its reads stay near the others' */
		long long need = 1024 + bankc_wg_up(reach, 1024) + 4096;
		if (need > smem_max)
			m.tried = false;
		else if (need > p.smem)
			p.smem = need;
	}
	if (p.smem > base_smem)
		printf("  %lld bytes of shared memory for the corrupted descriptors' "
		       "reads\n", p.smem);

	bankc_wg_dev dv;
	bool not_built = false, failed = false, model_off = false;
	int last = Tile::stages - 1;
	for (int s = 0; s <= last; s += last > 0 ? last : 1) {
		bankc_wg_reference<Tile>(p, s, ref, mag);
		double tol;
		long long reach;
		/* the host model first: it says whether the rules, as read, hold */
		bankc_wg_model_run<Tile>(p, s, 0, 0, got, &reach);
		long mbad = bankc_wg_compare<Tile>(p, got, ref, mag, emulate, &tol);
		if (mbad != 0)
			model_off = true;
		if (emulate) {
			printf("  stage %d (host model): %s\n", s,
			       mbad == 0 ? "every product element exact"
			                 : "the model's product differs");
			failed |= mbad != 0;
			continue;
		}
		bool ran;
		bankc_wg_gpu_run<Tile>(p, dv, s, 0, 0, got, &ran);
		if (!ran) {
			not_built = true;
			break;
		}
		long bad = bankc_wg_compare<Tile>(p, got, ref, mag, true, &tol);
		printf("  stage %d: %ld of %zu product elements %s (tolerance %g)%s\n", s,
		       (long)ref.size() - bad, ref.size(),
		       tol > 0 ? "within tolerance" : "exact", tol,
		       mbad == 0 ? "" : "; the host model differs too");
		failed |= bad != 0;
	}
	if (not_built) {
		printf("wgmma %s: NOT RUN (built without sm_90a: compile with "
		       "-gencode=arch=compute_90a,code=sm_90a)\n", Tile::name);
		return 2;
	}
	bankc_wg_reference<Tile>(p, 0, ref, mag);
	int caught = 0, required = 0, blind = 0;
	char missed[256] = "", info[256] = "", skipped[256] = "";
	for (const bankc_wg_mutation &m : muts) {
		double tol;
		long long reach;
		bool seen;
		if (!m.tried) {
			size_t k = strlen(skipped);
			snprintf(skipped + k, sizeof skipped - k, "%s%s", k ? ", " : "",
			         m.what);
			continue;
		}
		if (emulate) {
			if (!bankc_wg_model_run<Tile>(p, 0, m.clr, m.set, got, &reach))
				continue;       /* the model knows no base offset */
			seen = bankc_wg_compare<Tile>(p, got, ref, mag, false, &tol) != 0;
		} else {
			bool ran;
			bankc_wg_gpu_run<Tile>(p, dv, 0, m.clr, m.set, got, &ran);
			seen = bankc_wg_compare<Tile>(p, got, ref, mag, false, &tol) != 0;
		}
		if (!m.required) {
			size_t k = strlen(info);
			snprintf(info + k, sizeof info - k, "%s%s: %s", k ? "; " : "", m.what,
			         seen ? "the product changed" : "no change");
			continue;
		}
		required++;
		if (seen) {
			caught++;
		} else {
			blind++;
			size_t k = strlen(missed);
			snprintf(missed + k, sizeof missed - k, "%s%s", k ? ", " : "", m.what);
		}
	}
	printf("  corrupted descriptors caught: %d of %d%s%s\n", caught, required,
	       blind ? "; NOT caught: " : "", missed);
	if (skipped[0])
		printf("  not tried (they would read past shared memory): %s\n",
		       skipped);
	if (info[0])
		printf("  %s\n", info);
	if (!emulate && model_off)
		printf("  the host model of the PTX ISA's rules disagrees\n");
	if (dv.vals) {
		BANKC_WG_CUDA(cudaFree(dv.vals));
		BANKC_WG_CUDA(cudaFree(dv.other));
		BANKC_WG_CUDA(cudaFree(dv.d));
		BANKC_WG_CUDA(cudaFree(dv.done));
	}
	bool ok = !failed && !blind;
	printf("wgmma %s: %s%s\n", Tile::name, ok ? "ok" : "FAILED",
	       emulate ? " (host model)" : "");
	return ok ? 0 : 1;
}

#endif
