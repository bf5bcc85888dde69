// Bitonic sort of 1024 keys in shared memory, block 512: one
// compare-exchange per thread and step, written without a data-dependent
// branch (min/max, then both stores), so that every step's addresses
// depend on the thread index and loop counters only.
#include "scan_kernel.cuh"

#define N 1024

extern "C" __global__ void bitonic_sort(const unsigned *in, unsigned *out)
{
	__shared__ unsigned s[N];
	unsigned t = threadIdx.x;
	s[t] = in[t];
	s[t + N / 2] = in[t + N / 2];
	__syncthreads();
	for (unsigned k = 2; k <= N; k <<= 1)
		for (unsigned j = k >> 1; j > 0; j >>= 1) {
			unsigned i = 2 * t - (t & (j - 1));	// the pair's lower index: bit j clear
			bool up = (i & k) == 0;
			unsigned a = s[i], b = s[i + j];
			unsigned lo = min(a, b), hi = max(a, b);
			s[i] = up ? lo : hi;
			s[i + j] = up ? hi : lo;
			__syncthreads();
		}
	out[t] = s[t];
	out[t + N / 2] = s[t + N / 2];
}

int main()
{
	unsigned *in = sk_alloc<unsigned>(N), *out = sk_alloc<unsigned>(N);
	bitonic_sort<<<1, N / 2>>>(in, out);
	return sk_done("bitonic");
}
