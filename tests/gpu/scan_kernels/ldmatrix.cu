// Tensor-core fragment loads from a 16 x 64 f16 tile, one warp:
// ldmatrix.x4 (and .x4.trans, .x2, .x1) on 128-byte rows (the 8 row
// addresses of a matrix share their banks: 8 wavefronts per matrix), and
// ldmatrix.x4 plus stmatrix.x4 on rows padded to 144 bytes
// (conflict-free).
#include <cstdint>

#include "scan_kernel.cuh"

#define ROWS 16
#define COLS 64
#define PADDED (COLS + 8)

__device__ __forceinline__ uint32_t saddr(const void *p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

extern "C" __global__ void ldsm_rowmajor(const uint4 *in, uint4 *out)
{
	__shared__ __align__(128) unsigned short a[ROWS * COLS];
	const int lane = threadIdx.x;
	for (int q = lane; q < ROWS * COLS / 8; q += 32)
		*reinterpret_cast<uint4 *>(&a[q * 8]) = in[q];
	__syncwarp();
	uint32_t acc = 0;
#pragma unroll
	for (int kb = 0; kb < COLS / 16; kb++) {
		uint32_t r0, r1, r2, r3;
		uint32_t p = saddr(&a[(lane % 16) * COLS + 16 * kb + 8 * (lane / 16)]);
		asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
			     : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(p));
		acc ^= r0 ^ r1 ^ r2 ^ r3;
		asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
			     : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(p));
		acc ^= r0 ^ r1 ^ r2 ^ r3;
	}
	uint32_t r0, r1;
	asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
		     : "=r"(r0), "=r"(r1) : "r"(saddr(&a[(lane % 16) * COLS])));
	acc ^= r0 ^ r1;
	asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
		     : "=r"(r0) : "r"(saddr(&a[(lane % 8) * COLS + 8])));
	acc ^= r0;
	out[lane] = make_uint4(acc, 0, 0, 0);
}

extern "C" __global__ void ldsm_padded(const uint4 *in, uint4 *out)
{
	__shared__ __align__(128) unsigned short a[ROWS * PADDED];
	const int lane = threadIdx.x;
	for (int q = lane; q < ROWS * COLS / 8; q += 32)
		*reinterpret_cast<uint4 *>(&a[q / 8 * PADDED + q % 8 * 8]) = in[q];
	__syncwarp();
	uint32_t f[COLS / 16][4];
#pragma unroll
	for (int kb = 0; kb < COLS / 16; kb++) {
		uint32_t p = saddr(&a[(lane % 16) * PADDED + 16 * kb + 8 * (lane / 16)]);
		asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
			     : "=r"(f[kb][0]), "=r"(f[kb][1]), "=r"(f[kb][2]), "=r"(f[kb][3]) : "r"(p));
	}
	__syncwarp();
	// The fragments back, each 16 x 16 block moved one block to the right.
#pragma unroll
	for (int kb = 0; kb < COLS / 16; kb++) {
		uint32_t p = saddr(&a[(lane % 16) * PADDED + 16 * ((kb + 1) % (COLS / 16)) + 8 * (lane / 16)]);
		asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"
			     :: "r"(p), "r"(f[kb][0]), "r"(f[kb][1]), "r"(f[kb][2]), "r"(f[kb][3]) : "memory");
	}
	__syncwarp();
	for (int q = lane; q < ROWS * COLS / 8; q += 32)
		out[q] = *reinterpret_cast<const uint4 *>(&a[q / 8 * PADDED + q % 8 * 8]);
}

int main()
{
	uint4 *in = sk_alloc<uint4>(ROWS * COLS / 8), *out = sk_alloc<uint4>(ROWS * COLS / 8);
	ldsm_rowmajor<<<1, 32>>>(in, out);
	ldsm_padded<<<1, 32>>>(in, out);
	return sk_done("ldmatrix");
}
