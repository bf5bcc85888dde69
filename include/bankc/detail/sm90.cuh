// bankc/detail/sm90.cuh: the Hopper instructions the GEMM uses, one inline
// function each: mbarriers, clusters, TMA loads (plain and multicast) and
// stores, wgmma descriptors and fences, stmatrix, named barriers.  sm_90a
// only (wgmma and setmaxnreg exist in no other target): the kernels call
// them only where __CUDA_ARCH_FEAT_SM90_ALL is defined, and a function that
// is never called is never emitted, so a build for another target compiles.
#ifndef BANKC_DETAIL_SM90_CUH
#define BANKC_DETAIL_SM90_CUH

#include <cstdint>

#include <cuda.h>	// CUtensorMap and its enums

namespace bankc {
namespace detail {
namespace sm90 {

__device__ __forceinline__ uint32_t smem_addr(const void *p)
{
	return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// ---- mbarriers ----------------------------------------------------------

__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}

// Makes the initialised barriers visible to the other CTAs of the cluster
// and to the TMA engine.
__device__ __forceinline__ void fence_mbar_init()
{
	asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

__device__ __forceinline__ void mbar_expect_tx(uint32_t bar, uint32_t bytes)
{
	asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}

__device__ __forceinline__ void mbar_arrive(uint32_t bar)
{
	asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}

// The same, by the threads where `pred` holds: a predicated instruction,
// not a branch, so that the warp stays converged for the .aligned
// instructions around it.
__device__ __forceinline__ void mbar_arrive_if(uint32_t bar, bool pred)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %1, 0;\n@p mbarrier.arrive.shared::cta.b64 _, [%0];\n}\n" ::"r"(bar),
		     "r"(static_cast<uint32_t>(pred))
		     : "memory");
}

// Arrival, where `pred` holds, on the barrier at the same offset in CTA
// `rank` of the cluster (this CTA's own included).  Its release is at CTA
// scope, the default: what it announces is that this warpgroup's wgmma
// (already waited for) has stopped reading a stage, and no write of this
// thread has to be seen by the peer.  Released at cluster scope it
// compiles to a GPU-wide fence (MEMBAR.ALL.GPU) before every arrival,
// which in the mainloop cost the cluster-2 kernel 40 % of its speed.
__device__ __forceinline__ void mbar_arrive_cluster_if(uint32_t bar, uint32_t rank, bool pred)
{
	asm volatile("{\n.reg .pred p;\n.reg .b32 remote;\nsetp.ne.b32 p, %2, 0;\n"
		     "mapa.shared::cluster.u32 remote, %0, %1;\n"
		     "@p mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n" ::"r"(bar),
		     "r"(rank), "r"(static_cast<uint32_t>(pred))
		     : "memory");
}

__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity)
{
	uint32_t done;
	do {
		asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
			     : "=r"(done)
			     : "r"(bar), "r"(parity)
			     : "memory");
	} while (!done);
}

// ---- clusters -----------------------------------------------------------

__device__ __forceinline__ uint32_t cluster_rank()
{
	uint32_t r;
	asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
	return r;
}

// Every thread of every CTA of the cluster.
__device__ __forceinline__ void cluster_sync()
{
	asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::: "memory");
}

// ---- TMA ----------------------------------------------------------------

// The box at (x = column, y = row) of the tensor map into shared memory;
// completion is counted in bytes on the mbarrier.
__device__ __forceinline__ void tma_load(uint32_t dst, const CUtensorMap *map, int x, int y, uint32_t bar)
{
	asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::"r"(dst),
		     "l"(reinterpret_cast<uint64_t>(map)), "r"(x), "r"(y), "r"(bar)
		     : "memory");
}

// The same box into the same offset of every CTA in `mask` (bit r: rank r),
// each counting the bytes on its own barrier at offset `bar`.
__device__ __forceinline__ void tma_load_multicast(uint32_t dst, const CUtensorMap *map, int x, int y, uint32_t bar,
						   uint16_t mask)
{
	asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
		     " [%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(dst),
		     "l"(reinterpret_cast<uint64_t>(map)), "r"(x), "r"(y), "r"(bar), "h"(mask)
		     : "memory");
}

// Shared memory at src to the box at (x, y); one bulk group per commit.
__device__ __forceinline__ void tma_store(const CUtensorMap *map, int x, int y, uint32_t src)
{
	asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];\n" ::"l"(
			     reinterpret_cast<uint64_t>(map)),
		     "r"(x), "r"(y), "r"(src)
		     : "memory");
}

__device__ __forceinline__ void bulk_commit() { asm volatile("cp.async.bulk.commit_group;\n" ::: "memory"); }

// Until at most N of this thread's bulk groups still read shared memory.
template <int N> __device__ __forceinline__ void bulk_wait_read()
{
	asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(N) : "memory");
}

// Until at most N of them are still incomplete (their writes included).
template <int N> __device__ __forceinline__ void bulk_wait()
{
	asm volatile("cp.async.bulk.wait_group %0;\n" ::"n"(N) : "memory");
}

// Orders this thread's earlier shared-memory writes before later reads by
// the async proxy (a TMA store of what stmatrix wrote).
__device__ __forceinline__ void fence_proxy_async()
{
	asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

__device__ __forceinline__ void prefetch_map(const CUtensorMap *map)
{
	asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<uint64_t>(map)) : "memory");
}

// ---- named barriers, stmatrix, registers ----------------------------------

// Barrier `id` (1 to 15; 0 is __syncthreads) over `threads` threads.
__device__ __forceinline__ void named_sync(int id, int threads)
{
	asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

// Four 8 x 8 matrices of 16-bit elements: lanes 8i..8i+7 give the row
// addresses of matrix i, r[i] holds this lane's two elements of it.
__device__ __forceinline__ void stmatrix_x4(uint32_t addr, uint32_t r0, uint32_t r1, uint32_t r2, uint32_t r3)
{
	asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(addr), "r"(r0), "r"(r1),
		     "r"(r2), "r"(r3)
		     : "memory");
}

template <int N> __device__ __forceinline__ void setmaxnreg_inc()
{
	asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(N));
}

template <int N> __device__ __forceinline__ void setmaxnreg_dec()
{
	asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(N));
}

// ---- wgmma --------------------------------------------------------------

// wgmma's descriptor names the swizzle by its own code.
__host__ __device__ constexpr uint64_t desc_swizzle(CUtensorMapSwizzle m)
{
	return m == CU_TENSOR_MAP_SWIZZLE_128B ? 1 : m == CU_TENSOR_MAP_SWIZZLE_64B ? 2 : m == CU_TENSOR_MAP_SWIZZLE_32B ? 3 : 0;
}

// K-major operand with 128-byte rows of K in the 128-byte swizzle: start
// address, leading byte offset (unused by swizzled K-major layouts; 16 by
// convention), stride byte offset 1024 (from one 8-row group to the next),
// swizzle mode; all in 16-byte units.  A step along K inside the row is a
// step of the start address (32 bytes per k16 of 16-bit or k32 of 8-bit
// elements).
template <CUtensorMapSwizzle MODE> __device__ __forceinline__ uint64_t kmajor_desc(uint32_t addr)
{
	static_assert(desc_swizzle(MODE) == 1, "these descriptors are written for CU_TENSOR_MAP_SWIZZLE_128B");
	return static_cast<uint64_t>((addr & 0x3FFFF) >> 4) | static_cast<uint64_t>(16 >> 4) << 16 |
	       static_cast<uint64_t>(1024 >> 4) << 32 | desc_swizzle(MODE) << 62;
}

__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N> __device__ __forceinline__ void wgmma_wait()
{
	asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}

// Keeps the compiler from moving the accumulators while wgmma owns them.
__device__ __forceinline__ void fence_acc(float (&d)[128])
{
#pragma unroll
	for (int i = 0; i < 128; i++)
		asm volatile("" : "+f"(d[i])::"memory");
}

#define BANKC_SM90_ACC_REGS \
	"{" \
	"%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, " \
	"%20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, " \
	"%38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, " \
	"%56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, " \
	"%74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, " \
	"%92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, " \
	"%108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, " \
	"%123, %124, %125, %126, %127" \
	"}"
#define BANKC_SM90_ACC_OPS(d) \
	"+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),  \
	"+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),  \
	"+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),  \
	"+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),  \
	"+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),  \
	"+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]),  \
	"+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]),  \
	"+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),  \
	"+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),  \
	"+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]),  \
	"+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]),  \
	"+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]),  \
	"+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]),  \
	"+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]),  \
	"+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]),  \
	"+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]),  \
	"+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),  \
	"+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]),  \
	"+f"(d[127])

// d (64 x 256, f32) = A (64 x K) B^T (256 x K) + (scale_d ? d : 0) for one
// K step, both operands K-major in shared memory: k16 for f16 and bf16,
// k32 for e4m3.  Accumulator i of a thread (warp w, lane l of its
// warpgroup): row 16 w + l / 4 + 8 ((i / 2) % 2), column 8 (i / 4) +
// 2 (l % 4) + i % 2.
#define BANKC_SM90_WGMMA_N256(name, types, tail)                                                            \
	__device__ __forceinline__ void name(float (&d)[128], uint64_t desc_a, uint64_t desc_b, uint32_t scale_d) \
	{                                                                                                    \
		asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"                                   \
			     "wgmma.mma_async.sync.aligned.m64n256" types " " BANKC_SM90_ACC_REGS ", %128, %129, p" tail \
			     ";\n}\n"                                                                        \
			     : BANKC_SM90_ACC_OPS(d)                                                               \
			     : "l"(desc_a), "l"(desc_b), "r"(scale_d));                                     \
	}

BANKC_SM90_WGMMA_N256(wgmma_f16, "k16.f32.f16.f16", ", 1, 1, 0, 0")
BANKC_SM90_WGMMA_N256(wgmma_bf16, "k16.f32.bf16.bf16", ", 1, 1, 0, 0")
BANKC_SM90_WGMMA_N256(wgmma_e4m3, "k32.f32.e4m3.e4m3", ", 1, 1")
// B MN-major (a row-major K x N B): the transpose flag of B set, which
// only the 16-bit types have.
BANKC_SM90_WGMMA_N256(wgmma_f16_bmn, "k16.f32.f16.f16", ", 1, 1, 0, 1")
BANKC_SM90_WGMMA_N256(wgmma_bf16_bmn, "k16.f32.bf16.bf16", ", 1, 1, 0, 1")

#undef BANKC_SM90_WGMMA_N256
#undef BANKC_SM90_ACC_REGS
#undef BANKC_SM90_ACC_OPS

} // namespace sm90
} // namespace detail
} // namespace bankc

#endif
