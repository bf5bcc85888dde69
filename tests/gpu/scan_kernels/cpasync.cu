// cp.async into a 32 x 32 f32 tile, block 128: 16-byte copies (.cg) of
// the rows and 4-byte copies (.ca) of one more row, whose shared-memory
// side the wavefront counters do not show, then column reads (32-way
// conflicts) and row reads.
#include <cstdint>

#include "scan_kernel.cuh"

#define T 32

extern "C" __global__ void cpasync_tile(const float *in, float *out)
{
	__shared__ __align__(128) float t[T + 1][T];
	const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
	for (int q = tid; q < T * T / 4; q += blockDim.x) {
		uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(&t[0][0] + 4 * q));
		asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(in + 4 * q) : "memory");
	}
	if (tid < T) {
		uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(&t[T][tid]));
		asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(dst), "l"(in + tid) : "memory");
	}
	asm volatile("cp.async.commit_group;" ::: "memory");
	asm volatile("cp.async.wait_group 0;" ::: "memory");
	__syncthreads();
	float acc = 0;
	for (int c = warp; c < T; c += 4)
		acc += t[lane][c] + t[c][lane] + t[T][lane];
	out[tid] = acc;
}

int main()
{
	float *in = sk_alloc<float>(T * T), *out = sk_alloc<float>(128);
	cpasync_tile<<<1, 128>>>(in, out);
	return sk_done("cpasync");
}
