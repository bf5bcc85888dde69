// safety.cuh: what the planted-bug programs share.  Each program launches
// each kernel of its file once, with one block, on zeroed buffers, so that
// compute-sanitizer (tests/gpu/sanitize_check.sh) sees the launch that
// `bankc scan` interprets; SF_KERNEL=NAME launches kernel NAME alone.  A
// kernel that would hang is not launched.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <cuda_runtime.h>

#define SF_CHECK(x)                                                                  \
	do {                                                                             \
		cudaError_t err_ = (x);                                                      \
		if (err_ != cudaSuccess) {                                                   \
			std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x,          \
				     cudaGetErrorString(err_));                                      \
			std::exit(1);                                                            \
		}                                                                            \
	} while (0)

inline float *sf_buf()
{
	float *p;
	SF_CHECK(cudaMalloc(&p, 4096 * sizeof(float)));
	SF_CHECK(cudaMemset(p, 0, 4096 * sizeof(float)));
	return p;
}

// Whether a kernel is launched: all of them, or only the one the
// environment's SF_KERNEL names (compute-sanitizer's memcheck may stop
// launching after a kernel's first error, so each is checked on its own).
inline bool sf_selected(const char *kernel)
{
	const char *only = std::getenv("SF_KERNEL");
	return !only || !*only || std::strcmp(only, kernel) == 0;
}

// One launch, its errors reported but not fatal: a planted bug may fault,
// and the next kernel still runs (on a fresh context where it did).
#define SF_LAUNCH(kernel, block, dyn)                                                \
	do {                                                                             \
		if (!sf_selected(#kernel))                                                   \
			break;                                                                   \
		float *in_ = sf_buf(), *out_ = sf_buf();                                     \
		kernel<<<1, (block), (dyn)>>>(in_, out_);                                     \
		cudaError_t e_ = cudaDeviceSynchronize();                                    \
		std::printf("%s: %s\n", #kernel, cudaGetErrorString(e_));                   \
		if (e_ != cudaSuccess)                                                       \
			cudaDeviceReset();                                                       \
		else {                                                                       \
			cudaFree(in_);                                                           \
			cudaFree(out_);                                                          \
		}                                                                            \
	} while (0)
