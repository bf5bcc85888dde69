// The project's tensor-core GEMM template (templates/hgemm.cu: cp.async
// into four stages, ldmatrix.x4 and .x4.trans, mma.sync) on its generated
// tiles, one 128 x 128 block: hgemm_tile<Hg> with M = N = 128, K = 128
// (scan with --param 0=128 --param 1=128 --param 2=128).  Build as
// tpl_transpose.cu.
#define main hgemm_template_main
#include "../../../templates/hgemm.cu"
#undef main

int main()
{
	const int M = 128, N = 128, K = 128;
	__half *A, *B, *C;
	CUDA_CHECK(cudaMalloc(&A, M * K * 2));
	CUDA_CHECK(cudaMalloc(&B, K * N * 2));
	CUDA_CHECK(cudaMalloc(&C, M * N * 2));
	CUDA_CHECK(cudaMemset(A, 0, M * K * 2));
	CUDA_CHECK(cudaMemset(B, 0, K * N * 2));
	hgemm(M, N, K, A, B, C);
	LAUNCH_CHECK();
	CUDA_CHECK(cudaDeviceSynchronize());
	std::printf("tpl_hgemm: ok\n");
	return 0;
}
