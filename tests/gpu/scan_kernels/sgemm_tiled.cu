// The classic shared-memory tiled SGEMM (16 x 16 tiles, block (16, 16)):
// one block computes a 16 x 16 tile of C = A B over a runtime k (the
// program passes n = 16, k = 128: scan with --param 1=128).
#include "scan_kernel.cuh"

#define T 16

extern "C" __global__ void sgemm_tiled(int n, int k, const float *A, const float *B, float *C)
{
	__shared__ float As[T][T], Bs[T][T];
	int tx = threadIdx.x, ty = threadIdx.y;
	float acc = 0;
	for (int k0 = 0; k0 < k; k0 += T) {
		As[ty][tx] = A[ty * k + k0 + tx];
		Bs[ty][tx] = B[(k0 + ty) * n + tx];
		__syncthreads();
		for (int kk = 0; kk < T; kk++)
			acc += As[ty][kk] * Bs[kk][tx];
		__syncthreads();
	}
	C[ty * n + tx] = acc;
}

int main()
{
	const int n = T, k = 128;
	float *A = sk_alloc<float>(T * k), *B = sk_alloc<float>(k * n), *C = sk_alloc<float>(T * n);
	sgemm_tiled<<<1, dim3(T, T)>>>(n, k, A, B, C);
	return sk_done("sgemm_tiled");
}
