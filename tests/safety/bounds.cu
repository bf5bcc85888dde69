// Out of bounds: an index one row past a tile, an overrun into the next
// array, and dynamic shared memory read past the launch's size (scanned
// with --dynamic-shared 256, as main launches it); each beside its fix.
// scan: --block 32,8 --dynamic-shared 256
// expect: row_past_bug 16 shared-bounds error
// expect: into_next_bug 34 shared-bounds error
// expect: dynamic_past_bug 55 shared-bounds error
#include "safety.cuh"

extern "C" __global__ void row_past_bug(const float *in, float *out)
{
	__shared__ float tile[8][32];
	int x = threadIdx.x, y = threadIdx.y;
	tile[y][x] = in[y * 32 + x];
	__syncthreads();
	out[y * 32 + x] = tile[y + 1][x];       // row 8 is past the tile
}

extern "C" __global__ void row_past_fixed(const float *in, float *out)
{
	__shared__ float tile[8][32];
	int x = threadIdx.x, y = threadIdx.y;
	tile[y][x] = in[y * 32 + x];
	__syncthreads();
	out[y * 32 + x] = y + 1 < 8 ? tile[y + 1][x] : 0.0f;
}

extern "C" __global__ void into_next_bug(const float *in, float *out)
{
	__shared__ float a[128];
	__shared__ float b[128];
	int t = threadIdx.y * 32 + threadIdx.x;
	b[t % 128] = 1.0f;
	a[t] = in[t];                           // t up to 255: into b
	__syncthreads();
	out[t] = a[t % 128] + b[t % 128];
}

extern "C" __global__ void into_next_fixed(const float *in, float *out)
{
	__shared__ float a[256];
	__shared__ float b[128];
	int t = threadIdx.y * 32 + threadIdx.x;
	b[t % 128] = 1.0f;
	a[t] = in[t];
	__syncthreads();
	out[t] = a[t % 128] + b[t % 128];
}

extern "C" __global__ void dynamic_past_bug(const float *in, float *out)
{
	extern __shared__ float dyn[];
	int t = threadIdx.y * 32 + threadIdx.x;
	if (t < 64)
		dyn[t + 8] = in[t];                 // 256 bytes hold 64 floats
	__syncthreads();
	out[t] = dyn[t % 64];
}

extern "C" __global__ void dynamic_past_fixed(const float *in, float *out)
{
	extern __shared__ float dyn[];
	int t = threadIdx.y * 32 + threadIdx.x;
	if (t < 64)
		dyn[t] = in[t];
	__syncthreads();
	out[t] = dyn[t % 64];
}

int main()
{
	dim3 b(32, 8);
	SF_LAUNCH(row_past_bug, b, 0);
	SF_LAUNCH(row_past_fixed, b, 0);
	SF_LAUNCH(into_next_bug, b, 0);
	SF_LAUNCH(into_next_fixed, b, 0);
	SF_LAUNCH(dynamic_past_bug, b, 256);
	SF_LAUNCH(dynamic_past_fixed, b, 256);
	return 0;
}
