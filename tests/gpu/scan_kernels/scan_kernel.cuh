// scan_kernel.cuh: what the scan validation programs share.  Each program
// launches each of its kernels exactly once, with ONE block, so that
// Nsight Compute's per-launch counters are the per-block figures that
// `bankc scan` predicts.  Inputs are zeroed device buffers: no kernel's
// shared-memory addresses depend on the data.
#pragma once

#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#define SK_CHECK(x)                                                                  \
	do {                                                                             \
		cudaError_t err_ = (x);                                                      \
		if (err_ != cudaSuccess) {                                                   \
			std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x,          \
				     cudaGetErrorString(err_));                                      \
			std::exit(1);                                                            \
		}                                                                            \
	} while (0)

template <class T> T *sk_alloc(size_t n)
{
	T *p;
	SK_CHECK(cudaMalloc(&p, n * sizeof(T)));
	SK_CHECK(cudaMemset(p, 0, n * sizeof(T)));
	return p;
}

// After the launches: any launch or execution error fails the program.
inline int sk_done(const char *name)
{
	SK_CHECK(cudaGetLastError());
	SK_CHECK(cudaDeviceSynchronize());
	std::printf("%s: ok\n", name);
	return 0;
}
