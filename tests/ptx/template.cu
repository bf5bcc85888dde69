// bankc scan's test of a template's instances: one plain name, two kernels.
template <int PAD>
__global__ void column(float* out)
{
	__shared__ float tile[32][32 + PAD];
	int t = threadIdx.x;
	for (int i = 0; i < 32; i++)
		tile[i][t] = (float)t;
	__syncthreads();
	out[t] = tile[t][0];
}
template __global__ void column<0>(float*);
template __global__ void column<1>(float*);
