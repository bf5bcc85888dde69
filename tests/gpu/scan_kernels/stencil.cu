// A 5-point stencil on a 32 x 8 block tile with a one-element halo
// (a 10 x 34 f32 tile), block (32, 8); the halo rows and columns are
// loaded by the edge threads only (divergent, partial warps).  The grid
// is width floats wide (the program passes 64: scan with --param 2=64;
// it only moves global addresses).
#include "scan_kernel.cuh"

#define BX 32
#define BY 8

extern "C" __global__ void stencil5(const float *in, float *out, int width)
{
	__shared__ float t[BY + 2][BX + 2];
	int tx = threadIdx.x, ty = threadIdx.y;
	int gx = tx + 1, gy = ty + 1;
	t[ty + 1][tx + 1] = in[gy * width + gx];
	if (ty == 0)
		t[0][tx + 1] = in[(gy - 1) * width + gx];
	if (ty == BY - 1)
		t[BY + 1][tx + 1] = in[(gy + 1) * width + gx];
	if (tx == 0)
		t[ty + 1][0] = in[gy * width + gx - 1];
	if (tx == BX - 1)
		t[ty + 1][BX + 1] = in[gy * width + gx + 1];
	__syncthreads();
	out[gy * width + gx] = 0.25f * (t[ty][tx + 1] + t[ty + 2][tx + 1] + t[ty + 1][tx] + t[ty + 1][tx + 2]) -
			       t[ty + 1][tx + 1];
}

int main()
{
	const int width = 64;
	float *in = sk_alloc<float>(width * (BY + 2)), *out = sk_alloc<float>(width * (BY + 2));
	stencil5<<<1, dim3(BX, BY)>>>(in, out, width);
	return sk_done("stencil");
}
