// bankc scan's test of a kernel parameter that is a struct: its fields
// are given as --param 0+OFFSET=VALUE.
struct Args { float* out; int n; int stride; };

__global__ void by_value(Args a)
{
	__shared__ float s[1024];
	int t = threadIdx.x;
	s[t] = t;
	__syncthreads();
	float acc = 0;
	for (int i = 0; i < a.n; i++)
		acc += s[(t * a.stride + i) % 1024];
	a.out[t] = acc;
}
