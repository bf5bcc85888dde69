// The project's transpose template (templates/transpose_tile.cuh, the
// kernel the library's transpose runs on whole tiles) on its
// bankc-generated tiles, one block each: transpose_tile<TpF32, 512, 1> on a
// 64 x 64 matrix and transpose_tile<TpI8, 256, 1> on a 128 x 128 one.
// Build with -Iruntime -I GEN (bankc build specs/templates.tile -o GEN) and
// -lcublas.
#include "../../../templates/transpose_tile.cuh"

int main()
{
	void *in, *out;
	CUDA_CHECK(cudaMalloc(&in, 128 * 128 * 4));
	CUDA_CHECK(cudaMalloc(&out, 128 * 128 * 4));
	CUDA_CHECK(cudaMemset(in, 0, 128 * 128 * 4));
	launch_tile<TpF32, 512>(in, out, 64, 64);
	launch_tile<TpI8, 256>(in, out, 128, 128);
	LAUNCH_CHECK();
	CUDA_CHECK(cudaDeviceSynchronize());
	std::printf("tpl_transpose: ok\n");
	return 0;
}
