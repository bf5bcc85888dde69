// bankc scan's test of a 4-byte cp.async: its spec says the width.
#include <cuda_pipeline.h>
__global__ void copy4(const float* g, float* out)
{
	__shared__ float s[256];
	int t = threadIdx.x;
	__pipeline_memcpy_async(&s[t * 2 % 256], &g[t], 4);
	__pipeline_commit();
	__pipeline_wait_prior(0);
	__syncthreads();
	out[t] = s[t];
}
