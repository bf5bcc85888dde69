// Block shapes and element types the other programs do not use: a 3-D
// block (8, 4, 4) over a 4 x 4 x 32 f32 box read along each axis, a
// block of 48 threads (its second warp half full) storing down columns,
// and 2-byte halves and 1-byte chars read down the columns of their tiles.
#include <cuda_fp16.h>

#include "scan_kernel.cuh"

extern "C" __global__ void box3d(const float *in, float *out)
{
	__shared__ float s[4][4][33];
	int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
	for (int i = 0; i < 4; i++)
		s[z][y][x + 8 * i] = in[((z * 4 + y) * 32) + x + 8 * i];
	__syncthreads();
	float a = s[x % 4][y][z * 8 + x];      // along x within rows of another plane
	float b = s[z][x % 4][y * 8];          // broadcast-heavy
	float c = s[y][z][x * 4];              // stride 4 words
	out[(z * 4 + y) * 8 + x] = a + b + c;
}

extern "C" __global__ void partial_warp(const float *in, float *out)
{
	__shared__ float s[48][17];
	int t = threadIdx.x;
	for (int j = 0; j < 16; j++)
		s[t][j] = in[t * 16 + j];          // a column per thread: 17-word pitch
	__syncthreads();
	float acc = 0;
	for (int j = 0; j < 16; j++)
		acc += s[j * 3][t % 16];
	out[t] = acc;
}

extern "C" __global__ void narrow_columns(const __half *in, const char *cin, float *out)
{
	__shared__ __half h[32][32];
	__shared__ char c[32][64];
	int t = threadIdx.x, w = threadIdx.y;
	h[w][t] = in[w * 32 + t];
	c[w][t] = cin[w * 64 + t];
	c[w][t + 32] = cin[w * 64 + t + 32];
	__syncthreads();
	float acc = __half2float(h[t][w]);     // 2-byte column: 64-byte pitch
	acc += c[t][w] + c[t][w + 32];         // 1-byte column: 64-byte pitch
	out[w * 32 + t] = acc;
}

int main()
{
	float *in = sk_alloc<float>(48 * 16), *out = sk_alloc<float>(1024);
	__half *hin = sk_alloc<__half>(32 * 32);
	char *cin = sk_alloc<char>(32 * 64);
	box3d<<<1, dim3(8, 4, 4)>>>(in, out);
	partial_warp<<<1, 48>>>(in, out);
	narrow_columns<<<1, dim3(32, 32)>>>(hin, cin, out);
	return sk_done("misc");
}
