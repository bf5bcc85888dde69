// Tree reductions of 256 ints, block 256, the loops bounded by blockDim:
// interleaved addressing (sdata[2 s tid] += sdata[2 s tid + s]: 2- to
// 16-way conflicts), on dynamic shared memory, and sequential addressing
// (sdata[tid] += sdata[tid + s]: conflict-free) on a static array.
#include "scan_kernel.cuh"

#define THREADS 256

extern "C" __global__ void reduce_interleaved(const int *in, int *out)
{
	extern __shared__ int sdata[];
	unsigned tid = threadIdx.x;
	sdata[tid] = in[tid];
	__syncthreads();
	for (unsigned s = 1; s < blockDim.x; s *= 2) {
		unsigned index = 2 * s * tid;
		if (index < blockDim.x)
			sdata[index] += sdata[index + s];
		__syncthreads();
	}
	if (tid == 0)
		out[0] = sdata[0];
}

extern "C" __global__ void reduce_sequential(const int *in, int *out)
{
	__shared__ int sdata[THREADS];
	unsigned tid = threadIdx.x;
	sdata[tid] = in[tid];
	__syncthreads();
	for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
		if (tid < s)
			sdata[tid] += sdata[tid + s];
		__syncthreads();
	}
	if (tid == 0)
		out[1] = sdata[0];
}

int main()
{
	int *in = sk_alloc<int>(THREADS), *out = sk_alloc<int>(2);
	reduce_interleaved<<<1, THREADS, THREADS * sizeof(int)>>>(in, out);
	reduce_sequential<<<1, THREADS>>>(in, out);
	return sk_done("reduce");
}
