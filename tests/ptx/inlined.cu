// bankc scan's test of inlined helpers: one warning per call.
__device__ __forceinline__ float row_of(const float* s, int r, int c)
{
	return s[r * 32 + c];
}

__global__ void inlined_twice(float* out)
{
	__shared__ float s[32 * 32];
	int t = threadIdx.x;
	for (int i = 0; i < 32; i++)
		s[i * 32 + t] = (float)t;
	__syncthreads();
	float a = row_of(s, t, 0);      /* a column: 32 ways */
	float b = row_of(s, 0, t);      /* a row: none */
	out[t] = a + b;
}

__global__ void shuffled(float* out)
{
	__shared__ float s[32];
	int i = __shfl_sync(0xffffffff, threadIdx.x, 0);
	out[threadIdx.x] = s[i & 31];
}
