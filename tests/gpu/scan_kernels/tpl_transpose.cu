// The project's transpose template (templates/transpose.cu) on its
// bankc-generated tiles, one block each: transpose_tile<TpF32, 512, 1> on a
// 64 x 64 matrix and transpose_tile<TpI8, 256, 1> on a 128 x 128 one.  The
// template's benchmark driver is compiled in under another name; only the
// kernels are used.  Build with -Iruntime -I GEN (bankc build
// specs/templates.tile -o GEN) and -lcublas.
#define main transpose_template_main
#include "../../../templates/transpose.cu"
#undef main

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
