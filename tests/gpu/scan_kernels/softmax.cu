// Softmax over the rows of an 8 x 256 f32 tile, block (32, 8): warp y
// owns row y.  The row is staged in shared memory; each lane's partial max
// and sum go through a scratch array indexed [lane][row] (column-major:
// lanes 8 words apart, an 8-way conflict) and are reduced by halving.
#include "scan_kernel.cuh"

#define ROWS 8
#define COLS 256

extern "C" __global__ void softmax_rows(const float *in, float *out)
{
	__shared__ float x[ROWS][COLS];
	__shared__ float part[32][ROWS];
	__shared__ float stat[2][ROWS];
	int lane = threadIdx.x, row = threadIdx.y;
	float m = -INFINITY;
	for (int c = lane; c < COLS; c += 32) {
		float v = in[row * COLS + c];
		x[row][c] = v;
		m = fmaxf(m, v);
	}
	part[lane][row] = m;
	__syncwarp();
	for (int s = 16; s > 0; s >>= 1) {
		if (lane < s)
			part[lane][row] = fmaxf(part[lane][row], part[lane + s][row]);
		__syncwarp();
	}
	if (lane == 0)
		stat[0][row] = part[0][row];
	__syncwarp();
	m = stat[0][row];
	float sum = 0;
	for (int c = lane; c < COLS; c += 32) {
		float e = __expf(x[row][c] - m);
		x[row][c] = e;
		sum += e;
	}
	part[lane][row] = sum;
	__syncwarp();
	for (int s = 16; s > 0; s >>= 1) {
		if (lane < s)
			part[lane][row] += part[lane + s][row];
		__syncwarp();
	}
	if (lane == 0)
		stat[1][row] = 1.0f / part[0][row];
	__syncwarp();
	float inv = stat[1][row];
	for (int c = lane; c < COLS; c += 32)
		out[row * COLS + c] = x[row][c] * inv;
}

int main()
{
	float *in = sk_alloc<float>(ROWS * COLS), *out = sk_alloc<float>(ROWS * COLS);
	softmax_rows<<<1, dim3(32, ROWS)>>>(in, out);
	return sk_done("softmax");
}
