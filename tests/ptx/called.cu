// bankc scan's test of a path that stops in a called (not inlined)
// function: the error names the call too.
__device__ __noinline__ float pick(const float* s, int n)
{
	return s[(threadIdx.x * n) & 255];
}

__global__ void caller(float* out, int n)
{
	__shared__ float s[256];
	s[threadIdx.x] = 1.f;
	__syncthreads();
	out[threadIdx.x] = pick(s, n);
}
