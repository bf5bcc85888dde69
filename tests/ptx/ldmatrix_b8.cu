// An RTX 50 FP8 GEMM step (sm_120a): B read transposed by the 8-bit
// ldmatrix (m16n16 and m8n16), the output written by the 8-bit stmatrix
// (m16n8), costed by the documented rule (assumed until measured).
#include <cstdint>
__global__ void fp8_tile(const uint4 *g, uint4 *out, float *acc_out)
{
	__shared__ __align__(128) unsigned char b[64 * 64];
	__shared__ __align__(128) unsigned char c[64 * 64];
	int t = threadIdx.x, lane = t % 32, warp = t / 32;
	for (int i = t; i < 64 * 64 / 16; i += blockDim.x)
		reinterpret_cast<uint4 *>(b)[i] = g[i];
	__syncthreads();
	unsigned r0, r1, r2, r3;
	unsigned addr = (unsigned)__cvta_generic_to_shared(b + (16 * warp + lane % 16) * 64 + 16 * (lane / 16));
	asm volatile("ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8 {%0, %1, %2, %3}, [%4];"
	             : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
	unsigned q;
	unsigned a2 = (unsigned)__cvta_generic_to_shared(b + (lane % 8) * 64 + 16 * warp);
	asm volatile("ldmatrix.sync.aligned.m8n16.x1.shared.b8x16.b6x16_p32 {%0}, [%1];" : "=r"(q) : "r"(a2));
	float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
	unsigned a0 = r0 ^ q, a1 = r1, aa2 = r2, a3 = r3;
	asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
	             : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(a0), "r"(a1), "r"(aa2), "r"(a3), "r"(r0), "r"(r1));
	unsigned s = (unsigned)__cvta_generic_to_shared(c + (16 * warp + lane % 8 + 8 * (lane / 8 % 2)) * 64 + 16 * (lane / 16));
	asm volatile("stmatrix.sync.aligned.m16n8.x4.trans.shared.b8 [%0], {%1, %2, %3, %4};"
	             :: "r"(s), "r"(r0), "r"(r1), "r"(r2), "r"(r3));
	__syncthreads();
	for (int i = t; i < 64 * 64 / 16; i += blockDim.x)
		out[i] = reinterpret_cast<uint4 *>(c)[i];
	acc_out[t] = d0 + d1 + d2 + d3;
}
