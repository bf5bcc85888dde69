/* bankc check harness: the body of every generated NAME_check.cu.
 *
 * A generated program describes its tile (accesses, each lane's element of
 * each warp instruction, the predicted wavefronts) and calls
 * bankc_check_main<Layout>().  That
 *   1. checks on the host that the layout is a bijection onto its footprint
 *      and keeps every lane's vector whole and aligned;
 *   2. writes a known pattern through the store accesses into poisoned
 *      shared memory, and reads a known tile back through the load
 *      accesses, comparing with the host's logical tile;
 *   3. times each access with 32 warps issuing it in a loop and compares
 *      cycles per warp instruction with the predicted wavefronts, for the
 *      chosen layout and for row-major;
 * and prints a table and one JSON line.  `--count` instead launches, for
 * each access and each of the two layouts, one warp issuing every
 * instruction once, for Nsight Compute's wavefront counters
 * (tests/gpu/gpu_check.sh compares them with the predictions). */
#ifndef BANKC_CHECK_CUH
#define BANKC_CHECK_CUH

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define BANKC_CUDA(call)                                                    \
	do {                                                                    \
		cudaError_t e_ = (call);                                            \
		if (e_ != cudaSuccess) {                                            \
			fprintf(stderr, "%s:%d: CUDA error in %s: %s\n", __FILE__,      \
			        __LINE__, #call, cudaGetErrorString(e_));               \
			exit(2);                                                        \
		}                                                                   \
	} while (0)

/* The exit status of a check that could not run for want of a CUDA device
 * (automake's and CTest's convention, SKIP_RETURN_CODE): a machine without
 * a GPU skips the check rather than failing it. */
#define BANKC_SKIP 77

/* Is there a CUDA device?  If not, say so (for a tile named): the check
 * is not run. */
static inline bool bankc_have_device(const char *tile)
{
	int n = 0;
	cudaError_t e = cudaGetDeviceCount(&n);
	if (e == cudaSuccess && n > 0)
		return true;
	if (tile)
		printf("tile %s: NOT RUN (no CUDA device: %s); exit %d, skipped\n", tile,
		       e == cudaSuccess ? "none found" : cudaGetErrorString(e), BANKC_SKIP);
	return false;
}

/* BANKC_ATOM is any 4-byte shared atomic but compare-and-swap (they
 * cost the same: issued as atom.add), BANKC_ATOMCAS compare-and-swap of
 * 4 or 8 bytes.  BANKC_WGMMA reads (wgmma's descriptor reads) are not in
 * the LSU counters: bankc_wgmma.cuh checks them with real wgmma.
 * BANKC_ADD1 adds 1 and keeps no result (red.add1: ATOMS.POPC.INC). */
enum { BANKC_LOAD, BANKC_STORE, BANKC_LDMATRIX, BANKC_STMATRIX,
	BANKC_CPASYNC, BANKC_ATOM, BANKC_ATOMCAS, BANKC_WGMMA, BANKC_ADD1 };

/* A matrix access's nmat: its count (1, 2, 4), and 16 times its shape
 * for the 8-bit forms of sm_100a, sm_103a and sm_120a (their instructions
 * are built only for those targets, BANKC_MATRIX_B8).  BANKC_WGMMA also
 * stands for tcgen05.mma's reads (bankc_umma.cuh checks them). */
enum { BANKC_M8N8, BANKC_M16N16, BANKC_M8N16, BANKC_M16N8 };
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000 && \
	(defined(__CUDA_ARCH_SPECIFIC__) || defined(__CUDA_ARCH_FAMILY_SPECIFIC__))
#define BANKC_MATRIX_B8 1
#else
#define BANKC_MATRIX_B8 0
#endif

struct bankc_access {
	const char *name;
	int op, nmat, trans;
	int vec, bytes;     /* elements and bytes per lane */
	int ninst, first;   /* its instructions in the tile's arrays */
};

struct bankc_tile {
	const char *name, *layout;
	int rows, cols, elem;
	long long stage_bytes;      /* chosen layout, one stage */
	int nacc;
	const bankc_access *acc;
	const int *coord;           /* [inst][lane][2]: row, col; -1 inactive */
	const unsigned *mask;       /* [inst] */
	const unsigned short *pred; /* [inst] predicted wavefronts, chosen */
	const unsigned short *pred_rm;  /* [inst] the same, row-major */
};

/* The value of logical element (r, c), as E little-endian bytes. */
__host__ __device__ inline unsigned long long bankc_value(int r, int c)
{
	unsigned long long x = (unsigned long long)(r * 7919 + c * 104729 + 1) *
	                       0x9E3779B97F4A7C15ull;
	return x ^ (x >> 29);
}

__host__ __device__ inline void bankc_put(unsigned char *p, int e,
                                          unsigned long long v)
{
	for (int i = 0; i < e; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

__host__ __device__ inline bool bankc_is_store(int op)
{
	return op == BANKC_STORE || op == BANKC_STMATRIX || op == BANKC_CPASYNC ||
	       op == BANKC_ATOM || op == BANKC_ATOMCAS || op == BANKC_ADD1;
}

/* Row-major, for the comparison. */
struct bankc_rowmajor {
	int cols;
	__host__ __device__ long long idx(int r, int c) const
	{
		return (long long)r * cols + c;
	}
};

/* Call f(k, lane, r, c) for every active lane of every instruction of x
 * (k: the instruction's index in the tile's arrays). */
template <class F>
static void bankc_each_lane(const bankc_tile &t, const bankc_access &x, F f)
{
	for (int i = 0; i < x.ninst; i++) {
		int k = x.first + i;
		for (int l = 0; l < 32; l++)
			if (t.mask[k] >> l & 1)
				f(k, l, t.coord[(k * 32 + l) * 2], t.coord[(k * 32 + l) * 2 + 1]);
	}
}

/* ---- device side ----------------------------------------------------------- */

/* One access's instructions, as the round trip replays them. */
struct bankc_dev_access {
	int op, vec, bytes, ninst, first;
};

template <class L>
__global__ void bankc_store_pass(L lay, int elem, long long stage_bytes,
                                 const bankc_dev_access *acc, int nacc,
                                 const int *coord, const unsigned *mask,
                                 const unsigned char *logical, int cols,
                                 unsigned char *out)
{
	extern __shared__ __align__(128) unsigned char smem[];
	int lane = threadIdx.x;
	for (long long i = lane; i < stage_bytes; i += 32)
		smem[i] = 0xA5;
	__syncthreads();
	for (int a = 0; a < nacc; a++) {
		const bankc_dev_access &x = acc[a];
		if (!bankc_is_store(x.op))
			continue;
		for (int i = 0; i < x.ninst; i++) {
			int k = x.first + i;
			if (mask[k] >> lane & 1) {
				int r = coord[(k * 32 + lane) * 2];
				int c = coord[(k * 32 + lane) * 2 + 1];
				unsigned char *p = smem + lay.idx(r, c) * elem;
				if (x.op == BANKC_CPASYNC) {
					const unsigned char *src =
						logical + ((long long)r * cols + c) * elem;
#if __CUDA_ARCH__ >= 800
					unsigned dst = (unsigned)__cvta_generic_to_shared(p);
					if (x.bytes == 16)
						asm volatile("cp.async.ca.shared.global [%0], [%1], 16;"
						             :: "r"(dst), "l"(src) : "memory");
					else if (x.bytes == 8)
						asm volatile("cp.async.ca.shared.global [%0], [%1], 8;"
						             :: "r"(dst), "l"(src) : "memory");
					else
						asm volatile("cp.async.ca.shared.global [%0], [%1], 4;"
						             :: "r"(dst), "l"(src) : "memory");
#else
					memcpy(p, src, x.bytes);
#endif
				} else if (x.op == BANKC_ATOM || x.op == BANKC_ATOMCAS ||
				           x.op == BANKC_ADD1) {
					/* an atomic writes its element the atomic way: the
					 * exchange, or the swap of the poison */
					unsigned long long v = bankc_value(r, c);
					if (x.bytes == 8)
						atomicCAS((unsigned long long *)p, 0xA5A5A5A5A5A5A5A5ull,
						          v);
					else if (x.op == BANKC_ATOMCAS)
						atomicCAS((unsigned *)p, 0xA5A5A5A5u, (unsigned)v);
					else
						atomicExch((unsigned *)p, (unsigned)v);
				} else {
					/* one vector store of the lane's elements */
					unsigned char v[16];
					for (int e = 0; e < x.vec; e++)
						bankc_put(v + e * elem, elem, bankc_value(r, c + e));
					switch (x.bytes) {
					case 1: *p = v[0]; break;
					case 2: { unsigned short w; memcpy(&w, v, 2);
						*(unsigned short *)p = w; break; }
					case 4: { unsigned w; memcpy(&w, v, 4);
						*(unsigned *)p = w; break; }
					case 8: { uint2 w; memcpy(&w, v, 8);
						*(uint2 *)p = w; break; }
					default: { uint4 w; memcpy(&w, v, 16);
						*(uint4 *)p = w; break; }
					}
				}
			}
			__syncwarp();
		}
	}
#if __CUDA_ARCH__ >= 800
	asm volatile("cp.async.wait_all;" ::: "memory");
#endif
	__syncthreads();
	for (long long i = lane; i < stage_bytes; i += 32)
		out[i] = smem[i];
}

template <class L>
__global__ void bankc_load_pass(L lay, int elem, long long stage_bytes,
                                int rows, int cols,
                                const bankc_dev_access *acc, int nacc,
                                const int *coord, const unsigned *mask,
                                unsigned char *out)
{
	extern __shared__ __align__(128) unsigned char smem[];
	int lane = threadIdx.x;
	for (long long i = lane; i < stage_bytes; i += 32)
		smem[i] = 0xA5;
	__syncthreads();
	for (long long e = lane; e < (long long)rows * cols; e += 32) {
		int r = (int)(e / cols), c = (int)(e % cols);
		bankc_put(smem + lay.idx(r, c) * elem, elem, bankc_value(r, c));
	}
	__syncthreads();
	for (int a = 0; a < nacc; a++) {
		const bankc_dev_access &x = acc[a];
		if (x.op != BANKC_LOAD && x.op != BANKC_LDMATRIX)
			continue;
		for (int i = 0; i < x.ninst; i++) {
			int k = x.first + i;
			unsigned char *o = out + (long long)(k * 32 + lane) * 16;
			if (mask[k] >> lane & 1) {
				int r = coord[(k * 32 + lane) * 2];
				int c = coord[(k * 32 + lane) * 2 + 1];
				const unsigned char *p = smem + lay.idx(r, c) * elem;
				switch (x.bytes) {
				case 1: o[0] = *p; break;
				case 2: { unsigned short w = *(const unsigned short *)p;
					memcpy(o, &w, 2); break; }
				case 4: { unsigned w = *(const unsigned *)p;
					memcpy(o, &w, 4); break; }
				case 8: { uint2 w = *(const uint2 *)p;
					memcpy(o, &w, 8); break; }
				default: { uint4 w = *(const uint4 *)p;
					memcpy(o, &w, 16); break; }
				}
			}
			__syncwarp();
		}
	}
}

/* One warp instruction of the kind given, at shared address a; loads
 * return something that depends on what they read. */
template <int OP, int BYTES, int NMAT, int TRANS>
__device__ __forceinline__ unsigned bankc_issue(unsigned a, unsigned v)
{
	unsigned x = 0, y = 0, z = 0, w = 0;
	/* NMAT: the matrix count, and the shape above it (BANKC_M16N16, ...) */
	constexpr int SHAPE = NMAT >> 4, NM = NMAT & 15;
	if (OP == BANKC_LOAD) {
		if (BYTES == 1) {
			unsigned short h;
			asm volatile("ld.shared.u8 %0, [%1];" : "=h"(h) : "r"(a) : "memory");
			x = h;
		} else if (BYTES == 2) {
			unsigned short h;
			asm volatile("ld.shared.u16 %0, [%1];" : "=h"(h) : "r"(a) : "memory");
			x = h;
		} else if (BYTES == 4) {
			asm volatile("ld.shared.u32 %0, [%1];" : "=r"(x) : "r"(a) : "memory");
		} else if (BYTES == 8) {
			asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];"
			             : "=r"(x), "=r"(y) : "r"(a) : "memory");
		} else {
			asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
			             : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(a)
			             : "memory");
		}
	} else if (OP == BANKC_STORE) {
		/* volatile: ptxas would otherwise drop repeated stores to one
		 * address as dead */
		if (BYTES == 1)
			asm volatile("st.volatile.shared.u8 [%0], %1;"
			             :: "r"(a), "h"((unsigned short)v) : "memory");
		else if (BYTES == 2)
			asm volatile("st.volatile.shared.u16 [%0], %1;"
			             :: "r"(a), "h"((unsigned short)v) : "memory");
		else if (BYTES == 4)
			asm volatile("st.volatile.shared.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory");
		else if (BYTES == 8)
			asm volatile("st.volatile.shared.v2.u32 [%0], {%1, %1};"
			             :: "r"(a), "r"(v) : "memory");
		else
			asm volatile("st.volatile.shared.v4.u32 [%0], {%1, %1, %1, %1};"
			             :: "r"(a), "r"(v) : "memory");
	} else if (OP == BANKC_LDMATRIX && SHAPE != 0) {
#if BANKC_MATRIX_B8
		/* the 8-bit forms: m16n16 (transposed), m8n16 (6-bit data in
		 * 16-byte containers; the 4-bit form reads the same rows) */
		if (SHAPE == BANKC_M16N16 && NM == 1)
			asm volatile("ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%0, %1}, [%2];"
			             : "=r"(x), "=r"(y) : "r"(a) : "memory");
		else if (SHAPE == BANKC_M16N16)
			asm volatile("ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8 {%0, %1, %2, %3}, [%4];"
			             : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(a) : "memory");
		else if (NM == 1)
			asm volatile("ldmatrix.sync.aligned.m8n16.x1.shared.b8x16.b6x16_p32 {%0}, [%1];"
			             : "=r"(x) : "r"(a) : "memory");
		else if (NM == 2)
			asm volatile("ldmatrix.sync.aligned.m8n16.x2.shared.b8x16.b6x16_p32 {%0, %1}, [%2];"
			             : "=r"(x), "=r"(y) : "r"(a) : "memory");
		else
			asm volatile("ldmatrix.sync.aligned.m8n16.x4.shared.b8x16.b6x16_p32 {%0, %1, %2, %3}, [%4];"
			             : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(a) : "memory");
#endif
	} else if (OP == BANKC_LDMATRIX) {
#if __CUDA_ARCH__ >= 750
		if (NM == 1 && !TRANS)
			asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
			             : "=r"(x) : "r"(a) : "memory");
		else if (NM == 1)
			asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];"
			             : "=r"(x) : "r"(a) : "memory");
		else if (NM == 2 && !TRANS)
			asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
			             : "=r"(x), "=r"(y) : "r"(a) : "memory");
		else if (NM == 2)
			asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
			             : "=r"(x), "=r"(y) : "r"(a) : "memory");
		else if (!TRANS)
			asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
			             : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(a) : "memory");
		else
			asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
			             : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(a) : "memory");
#endif
	} else if (OP == BANKC_ATOM) {
		asm volatile("atom.shared.add.u32 %0, [%1], %2;"
		             : "=r"(x) : "r"(a), "r"(v) : "memory");
	} else if (OP == BANKC_ADD1) {
		asm volatile("red.shared.add.u32 [%0], 1;" :: "r"(a) : "memory");
	} else if (OP == BANKC_ATOMCAS) {
		if (BYTES == 8) {
			unsigned long long o;
			asm volatile("atom.shared.cas.b64 %0, [%1], %2, %3;"
			             : "=l"(o) : "r"(a), "l"((unsigned long long)v),
			               "l"((unsigned long long)v + 1) : "memory");
			x = (unsigned)o;
		} else {
			asm volatile("atom.shared.cas.b32 %0, [%1], %2, %3;"
			             : "=r"(x) : "r"(a), "r"(v), "r"(v + 1) : "memory");
		}
	} else if (OP == BANKC_STMATRIX && SHAPE != 0) {
#if BANKC_MATRIX_B8
		if (NM == 1)
			asm volatile("stmatrix.sync.aligned.m16n8.x1.trans.shared.b8 [%0], {%1};"
			             :: "r"(a), "r"(v) : "memory");
		else if (NM == 2)
			asm volatile("stmatrix.sync.aligned.m16n8.x2.trans.shared.b8 [%0], {%1, %1};"
			             :: "r"(a), "r"(v) : "memory");
		else
			asm volatile("stmatrix.sync.aligned.m16n8.x4.trans.shared.b8 [%0], {%1, %1, %1, %1};"
			             :: "r"(a), "r"(v) : "memory");
#endif
	} else if (OP == BANKC_STMATRIX) {
#if __CUDA_ARCH__ >= 900
		if (NM == 1 && !TRANS)
			asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};"
			             :: "r"(a), "r"(v) : "memory");
		else if (NM == 1)
			asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};"
			             :: "r"(a), "r"(v) : "memory");
		else if (NM == 2 && !TRANS)
			asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %1};"
			             :: "r"(a), "r"(v) : "memory");
		else if (NM == 2)
			asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %1};"
			             :: "r"(a), "r"(v) : "memory");
		else if (!TRANS)
			asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %1, %1, %1};"
			             :: "r"(a), "r"(v) : "memory");
		else
			asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %1, %1, %1};"
			             :: "r"(a), "r"(v) : "memory");
#endif
	}
	return x ^ y ^ z ^ w;
}

/* 32 warps, each lane issuing its instruction `iters` times; a load's
 * next address depends on what it read (through `zero`, which is 0), so
 * the loop cannot be collapsed. */
template <int OP, int BYTES, int NMAT, int TRANS>
__global__ void bankc_time_kernel(const int *off, unsigned mask, int iters,
                                  unsigned zero, long long *cycles,
                                  unsigned *sink)
{
	extern __shared__ __align__(128) unsigned char smem[];
	unsigned base = (unsigned)__cvta_generic_to_shared(smem);
	int lane = threadIdx.x & 31;
	unsigned a = base + (unsigned)off[lane];
	bool on = (mask >> lane & 1) || OP == BANKC_LDMATRIX ||
	          OP == BANKC_STMATRIX;
	unsigned acc = lane;
	__syncthreads();
	long long t0 = clock64();
	if (on) {
		for (int i = 0; i < iters; i += 8) {
#pragma unroll
			for (int u = 0; u < 8; u++)
				acc += bankc_issue<OP, BYTES, NMAT, TRANS>(a + (acc & zero), acc);
		}
	}
	/* Stores retire after they issue: a load behind them in the same
	 * pipe, whose value is used before the barrier, makes the clock wait
	 * for them. */
	acc += bankc_issue<BANKC_LOAD, 4, 0, 0>(base + ((unsigned)off[lane] & ~3u), 0);
	if (acc == 0x9e3779b9u)
		sink[threadIdx.x] = acc;
	__syncthreads();
	long long t1 = clock64();
	if (threadIdx.x == 0)
		*cycles = t1 - t0;
	if (acc == 0x9e3779b9u)
		sink[threadIdx.x] = acc;
}

/* One warp issuing every instruction of an access once: what Nsight
 * Compute's counters see is exactly this access's wavefronts. */
template <int OP, int BYTES, int NMAT, int TRANS>
__global__ void bankc_count_kernel(const int *off, const unsigned *mask,
                                   int ninst, unsigned zero, unsigned *sink,
                                   const unsigned char *gsrc)
{
	extern __shared__ __align__(128) unsigned char smem[];
	unsigned base = (unsigned)__cvta_generic_to_shared(smem);
	int lane = threadIdx.x;
	unsigned acc = lane;
	for (int i = 0; i < ninst; i++) {
		unsigned a = base + (unsigned)off[i * 32 + lane];
		bool on = (mask[i] >> lane & 1) || OP == BANKC_LDMATRIX ||
		          OP == BANKC_STMATRIX;
		if (on) {
			if (OP == BANKC_CPASYNC) {
#if __CUDA_ARCH__ >= 800
				const unsigned char *src = gsrc + (off[i * 32 + lane] & 4095);
				if (BYTES == 16)
					asm volatile("cp.async.ca.shared.global [%0], [%1], 16;"
					             :: "r"(a), "l"(src) : "memory");
				else if (BYTES == 8)
					asm volatile("cp.async.ca.shared.global [%0], [%1], 8;"
					             :: "r"(a), "l"(src) : "memory");
				else
					asm volatile("cp.async.ca.shared.global [%0], [%1], 4;"
					             :: "r"(a), "l"(src) : "memory");
#endif
			} else {
				acc += bankc_issue<OP, BYTES, NMAT, TRANS>(a + (acc & zero), acc);
			}
		}
	}
#if __CUDA_ARCH__ >= 800
	if (OP == BANKC_CPASYNC)
		asm volatile("cp.async.wait_all;" ::: "memory");
#endif
	if (acc == 0x9e3779b9u)
		sink[lane] = acc;
}

/* ---- host side ------------------------------------------------------------- */

typedef void (*bankc_time_fn)(const int *, unsigned, int, unsigned,
                              long long *, unsigned *);
typedef void (*bankc_count_fn)(const int *, const unsigned *, int, unsigned,
                               unsigned *, const unsigned char *);

#define BANKC_KINDS(X)                                                       \
	X(BANKC_LOAD, 1, 0, 0) X(BANKC_LOAD, 2, 0, 0) X(BANKC_LOAD, 4, 0, 0)     \
	X(BANKC_LOAD, 8, 0, 0) X(BANKC_LOAD, 16, 0, 0)                           \
	X(BANKC_STORE, 1, 0, 0) X(BANKC_STORE, 2, 0, 0) X(BANKC_STORE, 4, 0, 0)  \
	X(BANKC_STORE, 8, 0, 0) X(BANKC_STORE, 16, 0, 0)                         \
	X(BANKC_LDMATRIX, 16, 1, 0) X(BANKC_LDMATRIX, 16, 2, 0)                  \
	X(BANKC_LDMATRIX, 16, 4, 0) X(BANKC_LDMATRIX, 16, 1, 1)                  \
	X(BANKC_LDMATRIX, 16, 2, 1) X(BANKC_LDMATRIX, 16, 4, 1)                  \
	X(BANKC_STMATRIX, 16, 1, 0) X(BANKC_STMATRIX, 16, 2, 0)                  \
	X(BANKC_STMATRIX, 16, 4, 0) X(BANKC_STMATRIX, 16, 1, 1)                  \
	X(BANKC_STMATRIX, 16, 2, 1) X(BANKC_STMATRIX, 16, 4, 1)                  \
	X(BANKC_LDMATRIX, 16, 0x11, 1) X(BANKC_LDMATRIX, 16, 0x12, 1)            \
	X(BANKC_LDMATRIX, 16, 0x21, 0) X(BANKC_LDMATRIX, 16, 0x22, 0)            \
	X(BANKC_LDMATRIX, 16, 0x24, 0) X(BANKC_STMATRIX, 16, 0x31, 1)            \
	X(BANKC_STMATRIX, 16, 0x32, 1) X(BANKC_STMATRIX, 16, 0x34, 1)            \
	X(BANKC_CPASYNC, 4, 0, 0) X(BANKC_CPASYNC, 8, 0, 0)                      \
	X(BANKC_CPASYNC, 16, 0, 0) X(BANKC_ATOM, 4, 0, 0)                        \
	X(BANKC_ATOMCAS, 4, 0, 0) X(BANKC_ATOMCAS, 8, 0, 0)                      \
	X(BANKC_ADD1, 4, 0, 0)

static bankc_time_fn bankc_time_for(const bankc_access &a)
{
#define X(O, B, N, T)                                                        \
	if (a.op == O && a.bytes == B && a.nmat == N && a.trans == T)            \
		return O == BANKC_CPASYNC ? nullptr : bankc_time_kernel<O, B, N, T>;
	BANKC_KINDS(X)
#undef X
	return nullptr;
}

static bankc_count_fn bankc_count_for(const bankc_access &a)
{
#define X(O, B, N, T)                                                        \
	if (a.op == O && a.bytes == B && a.nmat == N && a.trans == T)            \
		return bankc_count_kernel<O, B, N, T>;
	BANKC_KINDS(X)
#undef X
	return nullptr;
}

/* Host checks of a layout: a bijection onto [0, stage_bytes), and every
 * lane's vector contiguous and aligned.  Returns the number of faults. */
template <class L>
static int bankc_host_layout_check(const bankc_tile &t, const L &lay,
                                   const char *what)
{
	int faults = 0;
	long long n = t.stage_bytes / t.elem;
	std::vector<char> seen((size_t)n, 0);
	for (int r = 0; r < t.rows; r++)
		for (int c = 0; c < t.cols; c++) {
			long long k = lay.idx(r, c);
			if (k < 0 || k >= n || seen[(size_t)k]++) {
				if (faults++ < 5)
					printf("  %s layout: element (%d, %d) -> %lld: outside the "
					       "tile or taken twice\n", what, r, c, k);
			}
		}
	for (int a = 0; a < t.nacc; a++) {
		const bankc_access &x = t.acc[a];
		bankc_each_lane(t, x, [&](int, int l, int r, int c) {
			long long b = lay.idx(r, c);
			bool ok = (b * t.elem) % x.bytes == 0;
			for (int e = 1; e < x.vec; e++)
				ok &= lay.idx(r, c + e) == b + e;
			if (!ok && faults++ < 5)
				printf("  %s layout: access %s, lane %d at (%d, %d): vector "
				       "split or misaligned\n", what, x.name, l, r, c);
		});
	}
	return faults;
}

/* Byte offsets of each lane of every instruction under a layout. */
template <class L>
static std::vector<int> bankc_offsets(const bankc_tile &t, const L &lay,
                                      int ninst_all)
{
	std::vector<int> off((size_t)ninst_all * 32, 0);
	for (int k = 0; k < ninst_all; k++) {
		int first = -1;
		for (int l = 0; l < 32; l++)
			if (t.mask[k] >> l & 1) {
				off[(size_t)k * 32 + l] = (int)(lay.idx(t.coord[(k * 32 + l) * 2],
				                                t.coord[(k * 32 + l) * 2 + 1]) *
				                                t.elem);
				if (first < 0)
					first = l;
			}
		for (int l = 0; l < 32; l++)    /* idle lanes repeat an active one */
			if (!(t.mask[k] >> l & 1) && first >= 0)
				off[(size_t)k * 32 + l] = off[(size_t)k * 32 + first];
	}
	return off;
}

static int bankc_total_insts(const bankc_tile &t)
{
	int n = 0;
	for (int a = 0; a < t.nacc; a++)
		n = std::max(n, t.acc[a].first + t.acc[a].ninst);
	return n;
}

/* Round trip through the layout L on the GPU; returns faults. */
template <class L>
static int bankc_round_trip(const bankc_tile &t, const L &lay)
{
	int nall = bankc_total_insts(t);
	std::vector<bankc_dev_access> da((size_t)t.nacc);
	for (int a = 0; a < t.nacc; a++)
		da[(size_t)a] = {t.acc[a].op, t.acc[a].vec, t.acc[a].bytes,
		                 t.acc[a].ninst, t.acc[a].first};
	bankc_dev_access *d_acc;
	int *d_coord;
	unsigned *d_mask;
	unsigned char *d_out, *d_logical;
	size_t out_bytes = std::max<size_t>((size_t)t.stage_bytes,
	                                    (size_t)nall * 32 * 16);
	size_t logical_bytes = (size_t)t.rows * t.cols * t.elem;
	std::vector<unsigned char> logical(logical_bytes);
	for (int r = 0; r < t.rows; r++)
		for (int c = 0; c < t.cols; c++)
			bankc_put(&logical[((size_t)r * t.cols + c) * t.elem], t.elem,
			          bankc_value(r, c));
	BANKC_CUDA(cudaMalloc(&d_acc, da.size() * sizeof da[0]));
	BANKC_CUDA(cudaMalloc(&d_coord, (size_t)nall * 64 * sizeof(int)));
	BANKC_CUDA(cudaMalloc(&d_mask, (size_t)nall * sizeof(unsigned)));
	BANKC_CUDA(cudaMalloc(&d_out, out_bytes));
	BANKC_CUDA(cudaMalloc(&d_logical, logical_bytes));
	BANKC_CUDA(cudaMemcpy(d_acc, da.data(), da.size() * sizeof da[0],
	                      cudaMemcpyHostToDevice));
	BANKC_CUDA(cudaMemcpy(d_coord, t.coord, (size_t)nall * 64 * sizeof(int),
	                      cudaMemcpyHostToDevice));
	BANKC_CUDA(cudaMemcpy(d_mask, t.mask, (size_t)nall * sizeof(unsigned),
	                      cudaMemcpyHostToDevice));
	BANKC_CUDA(cudaMemcpy(d_logical, logical.data(), logical_bytes,
	                      cudaMemcpyHostToDevice));
	int smem = (int)t.stage_bytes;
	BANKC_CUDA(cudaFuncSetAttribute(bankc_store_pass<L>,
	           cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
	BANKC_CUDA(cudaFuncSetAttribute(bankc_load_pass<L>,
	           cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
	int faults = 0;
	std::vector<unsigned char> out(out_bytes);

	/* stores: every element they write holds its value, and nothing else
	 * of the poisoned tile changed */
	bool any_store = false;
	for (int a = 0; a < t.nacc; a++)
		any_store |= bankc_is_store(t.acc[a].op);
	if (any_store) {
		BANKC_CUDA(cudaMemset(d_out, 0, out_bytes));
		bankc_store_pass<L><<<1, 32, smem>>>(lay, t.elem, t.stage_bytes, d_acc,
		                                     t.nacc, d_coord, d_mask, d_logical,
		                                     t.cols, d_out);
		BANKC_CUDA(cudaGetLastError());
		BANKC_CUDA(cudaDeviceSynchronize());
		BANKC_CUDA(cudaMemcpy(out.data(), d_out, out_bytes,
		                      cudaMemcpyDeviceToHost));
		std::vector<char> written((size_t)t.stage_bytes, 0);
		for (int a = 0; a < t.nacc; a++) {
			const bankc_access &x = t.acc[a];
			if (!bankc_is_store(x.op))
				continue;
			bankc_each_lane(t, x, [&](int, int, int r, int c) {
				for (int e = 0; e < x.vec; e++) {
					long long b = lay.idx(r, c + e) * t.elem;
					unsigned char want[8];
					bankc_put(want, t.elem, bankc_value(r, c + e));
					if (memcmp(&out[(size_t)b], want, (size_t)t.elem) &&
					    faults++ < 5)
						printf("  store %s: element (%d, %d) not written "
						       "where the layout puts it\n", x.name, r, c + e);
					memset(&written[(size_t)b], 1, (size_t)t.elem);
				}
			});
		}
		for (long long b = 0; b < t.stage_bytes; b++)
			if (!written[(size_t)b] && out[(size_t)b] != 0xA5 && faults++ < 5)
				printf("  stores wrote byte %lld, which holds no element they "
				       "store\n", b);
	}

	/* loads: each lane reads its elements' values */
	BANKC_CUDA(cudaMemset(d_out, 0, out_bytes));
	bankc_load_pass<L><<<1, 32, smem>>>(lay, t.elem, t.stage_bytes, t.rows,
	                                    t.cols, d_acc, t.nacc, d_coord, d_mask,
	                                    d_out);
	BANKC_CUDA(cudaGetLastError());
	BANKC_CUDA(cudaDeviceSynchronize());
	BANKC_CUDA(cudaMemcpy(out.data(), d_out, out_bytes, cudaMemcpyDeviceToHost));
	for (int a = 0; a < t.nacc; a++) {
		const bankc_access &x = t.acc[a];
		if (x.op != BANKC_LOAD && x.op != BANKC_LDMATRIX)
			continue;
		bankc_each_lane(t, x, [&](int k, int l, int r, int c) {
			for (int e = 0; e < x.vec; e++) {
				unsigned char want[8];
				bankc_put(want, t.elem, bankc_value(r, c + e));
				if (memcmp(&out[((size_t)k * 32 + l) * 16 + (size_t)e * t.elem],
				           want, (size_t)t.elem) && faults++ < 5)
					printf("  load %s: lane %d of instruction %d read the "
					       "wrong value for (%d, %d)\n", x.name, l,
					       k - x.first, r, c + e);
			}
		});
	}
	BANKC_CUDA(cudaFree(d_acc));
	BANKC_CUDA(cudaFree(d_coord));
	BANKC_CUDA(cudaFree(d_mask));
	BANKC_CUDA(cudaFree(d_out));
	BANKC_CUDA(cudaFree(d_logical));
	return faults;
}

/* Cycles per warp instruction of access x under the given offsets, over up
 * to 8 of its instructions; also their mean predicted wavefronts. */
static double bankc_time_access(const bankc_tile &t, const bankc_access &x,
                                const std::vector<int> &off,
                                const unsigned short *pred, long long smem,
                                double *pred_mean)
{
	bankc_time_fn fn = bankc_time_for(x);
	if (!fn)
		return -1;
	BANKC_CUDA(cudaFuncSetAttribute((const void *)fn,
	           cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
	int *d_off;
	long long *d_cycles;
	unsigned *d_sink;
	BANKC_CUDA(cudaMalloc(&d_off, 32 * sizeof(int)));
	BANKC_CUDA(cudaMalloc(&d_cycles, sizeof(long long)));
	BANKC_CUDA(cudaMalloc(&d_sink, 1024 * sizeof(unsigned)));
	const int iters = 512, samples = std::min(8, x.ninst);
	double cyc = 0, pw = 0;
	for (int s = 0; s < samples; s++) {
		int k = x.first + (int)((long long)s * x.ninst / samples);
		BANKC_CUDA(cudaMemcpy(d_off, &off[(size_t)k * 32], 32 * sizeof(int),
		                      cudaMemcpyHostToDevice));
		long long best = -1;
		for (int rep = 0; rep < 3; rep++) {     /* the least of 3 runs */
			fn<<<1, 1024, smem>>>(d_off, t.mask[k], iters, 0u, d_cycles, d_sink);
			BANKC_CUDA(cudaGetLastError());
			long long c;
			BANKC_CUDA(cudaMemcpy(&c, d_cycles, sizeof c, cudaMemcpyDeviceToHost));
			if (best < 0 || c < best)
				best = c;
		}
		cyc += (double)best / (32.0 * iters);
		pw += pred[k];
	}
	BANKC_CUDA(cudaFree(d_off));
	BANKC_CUDA(cudaFree(d_cycles));
	BANKC_CUDA(cudaFree(d_sink));
	*pred_mean = pw / samples;
	return cyc / samples;
}

/* --count: one launch per access and layout, in a fixed order that
 * gpu_check.sh pairs with the printed predictions. */
static void bankc_count_launch(const bankc_tile &t, const bankc_access &x,
                               const std::vector<int> &off, long long smem)
{
	bankc_count_fn fn = bankc_count_for(x);
	int *d_off;
	unsigned *d_mask, *d_sink;
	unsigned char *d_src;
	BANKC_CUDA(cudaFuncSetAttribute((const void *)fn,
	           cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
	BANKC_CUDA(cudaMalloc(&d_off, (size_t)x.ninst * 32 * sizeof(int)));
	BANKC_CUDA(cudaMalloc(&d_mask, (size_t)x.ninst * sizeof(unsigned)));
	BANKC_CUDA(cudaMalloc(&d_sink, 32 * sizeof(unsigned)));
	BANKC_CUDA(cudaMalloc(&d_src, 4096 + 16));
	BANKC_CUDA(cudaMemcpy(d_off, &off[(size_t)x.first * 32],
	                      (size_t)x.ninst * 32 * sizeof(int),
	                      cudaMemcpyHostToDevice));
	BANKC_CUDA(cudaMemcpy(d_mask, &t.mask[x.first],
	                      (size_t)x.ninst * sizeof(unsigned),
	                      cudaMemcpyHostToDevice));
	fn<<<1, 32, smem>>>(d_off, d_mask, x.ninst, 0u, d_sink, d_src);
	BANKC_CUDA(cudaGetLastError());
	BANKC_CUDA(cudaDeviceSynchronize());
	BANKC_CUDA(cudaFree(d_off));
	BANKC_CUDA(cudaFree(d_mask));
	BANKC_CUDA(cudaFree(d_sink));
	BANKC_CUDA(cudaFree(d_src));
}

static long long bankc_sum(const unsigned short *p, const bankc_access &x)
{
	long long s = 0;
	for (int i = 0; i < x.ninst; i++)
		s += p[x.first + i];
	return s;
}

static bool bankc_supported(const bankc_access &x, int cc)
{
	return x.op != BANKC_WGMMA && !(x.nmat >> 4 && cc < 100) &&
	       !(x.op == BANKC_STMATRIX && cc < 90) &&
	       !(x.op == BANKC_LDMATRIX && cc < 75) &&
	       !(x.op == BANKC_CPASYNC && cc < 80);
}

template <class L>
static int bankc_check_main(const bankc_tile &t, const L &lay, int argc,
                            char **argv)
{
	bool count = argc > 1 && strcmp(argv[1], "--count") == 0;
	bankc_rowmajor rm = {t.cols};
	bankc_tile trm = t;
	trm.stage_bytes = (long long)t.rows * t.cols * t.elem;
	int faults = bankc_host_layout_check(t, lay, "chosen");
	faults += bankc_host_layout_check(trm, rm, "row-major");
	if (!bankc_have_device(t.name))
		return faults ? 1 : BANKC_SKIP;     /* the host's checks did run */
	int dev;
	cudaDeviceProp prop;
	BANKC_CUDA(cudaGetDevice(&dev));
	BANKC_CUDA(cudaGetDeviceProperties(&prop, dev));
	int cc = prop.major * 10 + prop.minor;
	int nall = bankc_total_insts(t);
	std::vector<int> off = bankc_offsets(t, lay, nall);
	std::vector<int> off_rm = bankc_offsets(trm, rm, nall);
	long long smem = std::max(t.stage_bytes, trm.stage_bytes);
	if (count) {
		/* "count ACCESS LAYOUT PREDICTED" per launch, in launch order;
		 * cp.async shows 0 in the wavefront counters */
		for (int a = 0; a < t.nacc; a++) {
			const bankc_access &x = t.acc[a];
			if (!bankc_supported(x, cc))
				continue;
			bool cp = x.op == BANKC_CPASYNC;
			bankc_count_launch(t, x, off, smem);
			printf("count %s %s chosen %lld\n", t.name, x.name,
			       cp ? 0 : bankc_sum(t.pred, x));
			bankc_count_launch(t, x, off_rm, smem);
			printf("count %s %s row-major %lld\n", t.name, x.name,
			       cp ? 0 : bankc_sum(t.pred_rm, x));
		}
		return faults ? 1 : 0;
	}
	if (faults == 0) {
		faults += bankc_round_trip(t, lay);
		faults += bankc_round_trip(trm, rm);
	}
	printf("tile %s on %s (sm_%d), layout %s: round trip %s\n", t.name,
	       prop.name, cc, t.layout, faults ? "FAILED" : "ok");
	printf("  %-16s %-18s %6s %10s %10s %10s %10s  %s\n", "access", "op",
	       "insts", "pred", "cyc/inst", "pred rm", "cyc rm", "verdict");
	int slow = 0;
	char json[8192];
	int jn = snprintf(json, sizeof json, "{\"tile\":\"%s\",\"gpu\":\"%s\","
	                  "\"round_trip\":%s,\"accesses\":[", t.name, prop.name,
	                  faults ? "false" : "true");
	for (int a = 0; a < t.nacc; a++) {
		const bankc_access &x = t.acc[a];
		static const char *const opn[] = {"load", "store", "ldmatrix",
			"stmatrix", "cp.async", "atom", "atom.cas", "wgmma"};
		static const char *const shape[] = {"", ".m16n16", ".m8n16", ".m16n8"};
		int nm = x.nmat & 15;
		char op[40];
		snprintf(op, sizeof op, "%s%s%s%s", opn[x.op], shape[x.nmat >> 4 & 3],
		         nm ? (nm == 1 ? ".x1" : nm == 2 ? ".x2" : ".x4") : "",
		         x.trans ? ".trans" : "");
		double pc = 0, pr = 0, cc_ch = -1, cc_rm = -1;
		const char *verdict = "not timed";
		if (bankc_supported(x, cc) && x.op != BANKC_CPASYNC) {
			cc_ch = bankc_time_access(t, x, off, t.pred, smem, &pc);
			cc_rm = bankc_time_access(trm, x, off_rm, t.pred_rm, smem, &pr);
			verdict = "ok";
			/* where row-major conflicts and the choice does not, the
			 * choice must be measurably faster */
			if (pr >= 1.5 * pc && cc_ch >= cc_rm) {
				verdict = "SLOWER than row-major";
				slow++;
			}
		}
		printf("  %-16s %-18s %6d %10.2f %10.2f %10.2f %10.2f  %s\n", x.name, op,
		       x.ninst, pc, cc_ch, pr, cc_rm, verdict);
		if (jn > 0 && (size_t)jn < sizeof json)
			jn += snprintf(json + jn, sizeof json - (size_t)jn,
			               "%s{\"name\":\"%s\",\"pred\":%.3f,\"cycles\":%.3f,"
			               "\"pred_rowmajor\":%.3f,\"cycles_rowmajor\":%.3f}",
			               a ? "," : "", x.name, pc, cc_ch, pr, cc_rm);
	}
	if (jn > 0 && (size_t)jn < sizeof json)
		snprintf(json + jn, sizeof json - (size_t)jn, "],\"ok\":%s}",
		         faults || slow ? "false" : "true");
	printf("%s\n", json);
	return faults || slow ? 1 : 0;
}

/* ---- TMA tiles ------------------------------------------------------------- */

#ifdef BANKC_TMA
/* A tile the TMA engine writes (`tma yes`): the generated header's box
 * shape, count and swizzle mode, which a kernel passes to
 * cuTensorMapEncodeTiled.  The check encodes such a map of a global
 * matrix twice the tile's size, loads the tile's boxes from its second
 * position down and across (box b at byte b * box_bytes, columns
 * b * box_cols.. of the tile), and compares every element with where the
 * layout says it is, as templates/hgemm_wgmma.cu checks its tiles. */
#include <cuda.h>
#include <cudaTypedefs.h>

struct bankc_tma {
	int box_rows, box_cols, boxes, box_bytes;
	CUtensorMapSwizzle swizzle;
	int stage_rows;     /* the load fills stage 0: rows of one stage */
	int load, store;    /* the directions the tile is moved in (NAME_TMA_*) */
};

/* The swizzle's name as cuda.h spells it after CU_TENSOR_MAP_SWIZZLE_. */
static inline const char *bankc_tma_mode_name(CUtensorMapSwizzle m)
{
	switch (m) {
	case CU_TENSOR_MAP_SWIZZLE_32B: return "32B";
	case CU_TENSOR_MAP_SWIZZLE_64B: return "64B";
	case CU_TENSOR_MAP_SWIZZLE_128B: return "128B";
#if CUDA_VERSION >= 12080
	case CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B: return "128B_ATOM_32B";
	case CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B: return "128B_ATOM_32B_FLIP_8B";
	case CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B: return "128B_ATOM_64B";
#endif
	default: return "NONE";
	}
}

/* The TMA store: the tile written through the layout into shared memory,
 * then stored box by box into its place in a global matrix twice its
 * size (box b at columns b * box_cols..), and every element compared
 * there: what a kernel's epilogue does with a `tma store` tile. */
template <class L>
__global__ void bankc_tma_store_kernel(const __grid_constant__ CUtensorMap map,
                                       L lay, int rows, int cols, int elem,
                                       int boxes, int box_cols, int box_bytes)
{
#if __CUDA_ARCH__ >= 900
	extern __shared__ __align__(128) unsigned char smem[];
	unsigned s0 = (unsigned)__cvta_generic_to_shared(smem);
	unsigned base = (s0 + 1023) & ~1023u;
	unsigned char *tile = smem + (base - s0);
	for (int i = threadIdx.x; i < rows * cols; i += blockDim.x) {
		int r = i / cols, c = i % cols;
		bankc_put(tile + lay.idx(r, c) * elem, elem, bankc_value(rows + r, cols + c));
	}
	/* generic-proxy writes, then the TMA engine's async-proxy reads */
	asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
	__syncthreads();
	if (threadIdx.x == 0) {
		for (int b = 0; b < boxes; b++)
			asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
			             " [%0, {%1, %2}], [%3];"
			             :: "l"(reinterpret_cast<unsigned long long>(&map)),
			                "r"(cols + b * box_cols), "r"(rows),
			                "r"(base + (unsigned)(b * box_bytes))
			             : "memory");
		asm volatile("cp.async.bulk.commit_group;" ::: "memory");
		asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
	}
#endif
}

template <class L>
__global__ void bankc_tma_kernel(const __grid_constant__ CUtensorMap map, L lay,
                                 int rows, int cols, int elem, int boxes,
                                 int box_cols, int box_bytes,
                                 const unsigned char *g, unsigned *bad)
{
#if __CUDA_ARCH__ >= 900
	extern __shared__ __align__(128) unsigned char smem[];
	/* the swizzle patterns start at 1024-byte boundaries */
	unsigned s0 = (unsigned)__cvta_generic_to_shared(smem);
	unsigned base = (s0 + 1023) & ~1023u;
	const unsigned char *tile = smem + (base - s0);
	unsigned bar = base + (unsigned)(boxes * box_bytes);
	if (threadIdx.x == 0) {
		asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar) : "memory");
		asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
	}
	__syncthreads();
	if (threadIdx.x == 0) {
		asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
		             :: "r"(bar), "r"(boxes * box_bytes) : "memory");
		for (int b = 0; b < boxes; b++)
			asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile"
			             ".mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
			             :: "r"(base + (unsigned)(b * box_bytes)),
			                "l"(reinterpret_cast<unsigned long long>(&map)),
			                "r"(cols + b * box_cols), "r"(rows), "r"(bar)
			             : "memory");
	}
	unsigned done = 0;
	while (!done)
		asm volatile("{\n.reg .pred p;\n"
		             "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n"
		             "selp.u32 %0, 1, 0, p;\n}" : "=r"(done) : "r"(bar) : "memory");
	unsigned n = 0;
	for (int i = threadIdx.x; i < rows * cols; i += blockDim.x) {
		int r = i / cols, c = i % cols;
		const unsigned char *a = tile + lay.idx(r, c) * elem;
		const unsigned char *w = g + ((size_t)(rows + r) * 2 * cols + cols + c) * elem;
		for (int e = 0; e < elem; e++)
			n += a[e] != w[e];
	}
	atomicAdd(bad, n);
#endif
}

/* Differing bytes after the load (or, `store`, the store), or -1 where
 * it could not run. */
template <class L>
static long long bankc_tma_run(const bankc_tile &t, const L &lay,
                               const bankc_tma &m, bool store)
{
	void *fn = nullptr;
	cudaDriverEntryPointQueryResult q;
	if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000,
	                                     cudaEnableDefault, &q) != cudaSuccess ||
	    !fn || q != cudaDriverEntryPointSuccess)
		return -1;
	auto encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
	int h = 2 * t.rows, w = 2 * t.cols;
	size_t bytes = (size_t)h * w * t.elem;
	std::vector<unsigned char> host(bytes);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			bankc_put(&host[((size_t)y * w + x) * t.elem], t.elem,
			          bankc_value(y, x));
	unsigned char *g;
	unsigned *bad;
	BANKC_CUDA(cudaMalloc(&g, bytes));
	BANKC_CUDA(cudaMalloc(&bad, sizeof *bad));
	BANKC_CUDA(cudaMemcpy(g, host.data(), bytes, cudaMemcpyHostToDevice));
	BANKC_CUDA(cudaMemset(bad, 0, sizeof *bad));
	CUtensorMapDataType type = t.elem == 1 ? CU_TENSOR_MAP_DATA_TYPE_UINT8
	                         : t.elem == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16
	                         : t.elem == 4 ? CU_TENSOR_MAP_DATA_TYPE_UINT32
	                                       : CU_TENSOR_MAP_DATA_TYPE_UINT64;
	const cuuint64_t dims[2] = {(cuuint64_t)w, (cuuint64_t)h};
	const cuuint64_t strides[1] = {(cuuint64_t)w * t.elem};
	const cuuint32_t box[2] = {(cuuint32_t)m.box_cols, (cuuint32_t)m.box_rows};
	const cuuint32_t step[2] = {1, 1};
	CUtensorMap map;
	long long n = -1;
	if (encode(&map, type, 2, g, dims, strides, box, step,
	           CU_TENSOR_MAP_INTERLEAVE_NONE, m.swizzle,
	           CU_TENSOR_MAP_L2_PROMOTION_NONE,
	           CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS) {
		int smem = m.boxes * m.box_bytes + 8 + 1024;
		if (store) {
			/* the matrix poisoned: the store alone puts values back */
			BANKC_CUDA(cudaMemset(g, 0xA5, bytes));
			BANKC_CUDA(cudaFuncSetAttribute(bankc_tma_store_kernel<L>,
			           cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
			bankc_tma_store_kernel<L><<<1, 256, smem>>>(map, lay, t.rows, t.cols,
			                                             t.elem, m.boxes,
			                                             m.box_cols, m.box_bytes);
			BANKC_CUDA(cudaGetLastError());
			BANKC_CUDA(cudaDeviceSynchronize());
			/* every element of the tile's place holds its value, and
			 * nothing else was written */
			std::vector<unsigned char> back(bytes);
			BANKC_CUDA(cudaMemcpy(back.data(), g, bytes, cudaMemcpyDeviceToHost));
			n = 0;
			for (int y = 0; y < h; y++)
				for (int x = 0; x < w; x++) {
					bool in = y >= t.rows && x >= t.cols;
					for (int e = 0; e < t.elem; e++) {
						size_t i = ((size_t)y * w + x) * t.elem + e;
						n += back[i] != (in ? host[i] : 0xA5);
					}
				}
		} else {
			BANKC_CUDA(cudaFuncSetAttribute(bankc_tma_kernel<L>,
			           cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
			bankc_tma_kernel<L><<<1, 256, smem>>>(map, lay, t.rows, t.cols, t.elem,
			                                       m.boxes, m.box_cols, m.box_bytes,
			                                       g, bad);
			BANKC_CUDA(cudaGetLastError());
			BANKC_CUDA(cudaDeviceSynchronize());
			unsigned b;
			BANKC_CUDA(cudaMemcpy(&b, bad, sizeof b, cudaMemcpyDeviceToHost));
			n = b;
		}
	}
	BANKC_CUDA(cudaFree(g));
	BANKC_CUDA(cudaFree(bad));
	return n;
}

/* bankc_check_main, with the TMA load checked first (not under --count,
 * whose launches are paired with Nsight Compute's counters). */
template <class L>
static int bankc_check_main_tma(const bankc_tile &t, const L &lay,
                                const bankc_tma &m, int argc, char **argv)
{
	bool count = argc > 1 && strcmp(argv[1], "--count") == 0;
	int fail = 0;
	if (!count && bankc_have_device(NULL)) {   /* else bankc_check_main says */
		int dev;
		cudaDeviceProp prop;
		BANKC_CUDA(cudaGetDevice(&dev));
		BANKC_CUDA(cudaGetDeviceProperties(&prop, dev));
		bankc_tile one = t;     /* t's rows may stack the stages */
		one.rows = m.stage_rows;
		for (int st = 0; st < 2; st++) {
			if (!(st ? m.store : m.load))
				continue;
			printf("tile %s: TMA %s of %d box%s of %d x %d, swizzle %s: ",
			       t.name, st ? "store" : "load", m.boxes,
			       m.boxes > 1 ? "es" : "", m.box_rows, m.box_cols,
			       bankc_tma_mode_name(m.swizzle));
			bool blackwell = m.swizzle != CU_TENSOR_MAP_SWIZZLE_NONE &&
			                 m.swizzle != CU_TENSOR_MAP_SWIZZLE_32B &&
			                 m.swizzle != CU_TENSOR_MAP_SWIZZLE_64B &&
			                 m.swizzle != CU_TENSOR_MAP_SWIZZLE_128B;
			if (prop.major < 9 || (blackwell && prop.major < 10)) {
				printf("not checked (needs sm_%d)\n", blackwell ? 100 : 90);
				continue;
			}
			long long n = bankc_tma_run(one, lay, m, st == 1);
			if (n < 0)
				printf("FAILED (cuTensorMapEncodeTiled refused the box or is "
				       "missing)\n");
			else if (n)
				printf("FAILED (%lld bytes not where the layout puts them)\n", n);
			else
				printf("ok, every element where the layout puts it\n");
			fail |= n != 0;
		}
	}
	int rc = bankc_check_main(t, lay, argc, argv);
	return rc ? rc : fail;
}
#endif

#endif
