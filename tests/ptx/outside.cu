// bankc scan's test of an access beyond its array: s has 48 elements,
// the block 64 threads.
__global__ void overrun(float* out)
{
	__shared__ float s[48];
	int t = threadIdx.x;
	s[t] = (float)t;
	__syncthreads();
	out[t] = s[47 - t % 48];
}

extern __shared__ float dyn[];
__global__ void dynamic(float* out)
{
	int t = threadIdx.x;
	dyn[t] = (float)t;
	__syncthreads();
	out[t] = dyn[t ^ 1];
}
