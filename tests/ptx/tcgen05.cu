// A tcgen05 GEMM step and its epilogue (sm_100a): the allocator's slot,
// tcgen05.mma's operand reads and tcgen05.commit's mbarrier reach shared
// memory outside the LSU counters (noted, the totals stay exact);
// tcgen05.ld, wait, fence and dealloc touch none; the epilogue's 16-byte
// stores of tcgen05.ld.32x32b's rows, a row a lane, conflict.
#include <cstdint>
__global__ void umma_epilogue(float *out)
{
	__shared__ __align__(1024) unsigned char a[128 * 64 * 2];
	__shared__ __align__(1024) unsigned char b[256 * 64 * 2];
	__shared__ __align__(16) float epi[128][32];
	__shared__ uint32_t slot;
	__shared__ __align__(8) uint64_t bar;
	uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
	if (warp == 0) {
		uint32_t s = (uint32_t)__cvta_generic_to_shared(&slot);
		asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 256;" :: "r"(s));
		asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
	}
	asm volatile("tcgen05.fence::before_thread_sync;");
	__syncthreads();
	asm volatile("tcgen05.fence::after_thread_sync;");
	uint32_t tmem = slot;
	uint32_t sa = (uint32_t)__cvta_generic_to_shared(a);
	uint32_t sb = (uint32_t)__cvta_generic_to_shared(b);
	uint64_t da = ((sa & 0x3FFFF) >> 4) | 1ull << 16 | 64ull << 32 | 1ull << 46 | 2ull << 61;
	uint64_t db = ((sb & 0x3FFFF) >> 4) | 1ull << 16 | 64ull << 32 | 1ull << 46 | 2ull << 61;
	uint32_t idesc = 1u << 4 | 1u << 7 | 1u << 10 | (256u >> 3) << 17 | (128u >> 4) << 24;
	uint32_t mbar = (uint32_t)__cvta_generic_to_shared(&bar);
	if (threadIdx.x == 0) {
		asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %4, 0;\n"
		             "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n}"
		             :: "r"(tmem), "l"(da), "l"(db), "r"(idesc), "r"(0));
		asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];"
		             :: "r"(mbar));
	}
	__syncthreads();
	asm volatile("tcgen05.fence::after_thread_sync;");
	uint32_t r[4];
	asm volatile("tcgen05.ld.sync.aligned.32x32b.x4.b32 {%0, %1, %2, %3}, [%4];"
	             : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
	             : "r"(tmem + ((warp * 32) << 16)));
	asm volatile("tcgen05.wait::ld.sync.aligned;");
	float4 v = make_float4(__uint_as_float(r[0]), __uint_as_float(r[1]),
	                       __uint_as_float(r[2]), __uint_as_float(r[3]));
	*reinterpret_cast<float4 *>(&epi[32 * warp + lane][0]) = v;
	__syncthreads();
	out[threadIdx.x] = epi[threadIdx.x][lane];
	__syncthreads();
	if (warp == 0)
		asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 256;" :: "r"(tmem));
}
