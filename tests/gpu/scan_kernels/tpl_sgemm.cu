// The project's SIMT SGEMM template (templates/sgemm.cu) on its generated
// tiles, one 128 x 128 block: sgemm_tile<Sg8, 0> with M = N = 128, K = 64
// (scan with --param 0=128 --param 1=128 --param 2=64).  Build as
// tpl_transpose.cu.
#define main sgemm_template_main
#include "../../../templates/sgemm.cu"
#undef main

int main()
{
	const int N = 128, K = 64;
	float *A, *B, *C;
	CUDA_CHECK(cudaMalloc(&A, BM * K * 4));
	CUDA_CHECK(cudaMalloc(&B, K * N * 4));
	CUDA_CHECK(cudaMalloc(&C, BM * N * 4));
	CUDA_CHECK(cudaMemset(A, 0, BM * K * 4));
	CUDA_CHECK(cudaMemset(B, 0, K * N * 4));
	sgemm(BM, N, K, A, B, C);
	LAUNCH_CHECK();
	CUDA_CHECK(cudaDeviceSynchronize());
	std::printf("tpl_sgemm: ok\n");
	return 0;
}
