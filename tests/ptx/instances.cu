// bankc scan's test of template kernels: instances named with their
// template arguments (integers, types, bools, in a namespace), one
// selected by --kernel 'NAME<ARGS>', all of them by the plain name.
namespace tiles {
template <int PAD, typename T, bool ROWS>
__global__ void tile(T *out)
{
	__shared__ T s[32][32 + PAD];
	int t = threadIdx.x;
	for (int i = 0; i < 4; i++)
		s[i][t] = (T)t;
	__syncthreads();
	out[t] = ROWS ? s[0][t] : s[t][0];
}
template __global__ void tile<0, float, false>(float *);
template __global__ void tile<1, float, false>(float *);
template __global__ void tile<0, double, true>(double *);
}

template <unsigned N>
__global__ void stride(int *out)
{
	__shared__ int s[32 * N];
	s[threadIdx.x * N] = threadIdx.x;
	__syncthreads();
	out[threadIdx.x] = s[threadIdx.x];
}
template __global__ void stride<2u>(int *);
