#include "colsum.cuh"

extern "C" __global__ void incl(const float *in, float *out)
{
	out[threadIdx.x] = col_sum(in, threadIdx.x);
}
