// Shared-memory histograms, block 256: 16 items per thread whose bins are
// a multiplicative hash of the item's index (a fixed, irregular input),
// counted with shared atomics: 32-bit without a result (red), 32-bit with
// the old count kept (atom), and 64-bit counters.
#include "scan_kernel.cuh"

#define THREADS 256
#define BINS 256
#define ITEMS 16

__device__ __forceinline__ unsigned bin_of(unsigned i) { return (i * 2654435761u) >> 24; }

extern "C" __global__ void histogram_red(unsigned *out)
{
	__shared__ unsigned bins[BINS];
	for (int i = threadIdx.x; i < BINS; i += blockDim.x)
		bins[i] = 0;
	__syncthreads();
	for (int k = 0; k < ITEMS; k++)
		atomicAdd(&bins[bin_of(k * blockDim.x + threadIdx.x)], 1u);
	__syncthreads();
	for (int i = threadIdx.x; i < BINS; i += blockDim.x)
		out[i] = bins[i];
}

extern "C" __global__ void histogram_atom(unsigned *out, unsigned *ranks)
{
	__shared__ unsigned bins[BINS];
	for (int i = threadIdx.x; i < BINS; i += blockDim.x)
		bins[i] = 0;
	__syncthreads();
	for (int k = 0; k < ITEMS; k++) {
		unsigned i = k * blockDim.x + threadIdx.x;
		ranks[i] = atomicAdd(&bins[bin_of(i)], 1u);
	}
	__syncthreads();
	for (int i = threadIdx.x; i < BINS; i += blockDim.x)
		out[i] = bins[i];
}

extern "C" __global__ void histogram_u64(unsigned long long *out)
{
	__shared__ unsigned long long bins[BINS];
	for (int i = threadIdx.x; i < BINS; i += blockDim.x)
		bins[i] = 0;
	__syncthreads();
	for (int k = 0; k < ITEMS; k++)
		atomicAdd(&bins[bin_of(k * blockDim.x + threadIdx.x)], 1ull);
	__syncthreads();
	for (int i = threadIdx.x; i < BINS; i += blockDim.x)
		out[i] = bins[i];
}

int main()
{
	unsigned *out = sk_alloc<unsigned>(BINS), *ranks = sk_alloc<unsigned>(THREADS * ITEMS);
	unsigned long long *out64 = sk_alloc<unsigned long long>(BINS);
	histogram_red<<<1, THREADS>>>(out);
	histogram_atom<<<1, THREADS>>>(out, ranks);
	histogram_u64<<<1, THREADS>>>(out64);
	return sk_done("histogram");
}
