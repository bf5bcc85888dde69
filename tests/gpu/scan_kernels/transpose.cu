// The three textbook transposes of a 32 x 32 f32 tile, block (32, 8):
// unpadded (a warp reads a column: 32-way conflicts), padded to 33
// columns, and XOR-swizzled (column c of row r stored at c ^ r).
#include "scan_kernel.cuh"

#define TILE 32
#define ROWS 8

extern "C" __global__ void transpose_naive(const float *in, float *out)
{
	__shared__ float tile[TILE][TILE];
	int x = threadIdx.x, y = threadIdx.y;
	for (int j = 0; j < TILE; j += ROWS)
		tile[y + j][x] = in[(y + j) * TILE + x];
	__syncthreads();
	for (int j = 0; j < TILE; j += ROWS)
		out[(y + j) * TILE + x] = tile[x][y + j];
}

extern "C" __global__ void transpose_padded(const float *in, float *out)
{
	__shared__ float tile[TILE][TILE + 1];
	int x = threadIdx.x, y = threadIdx.y;
	for (int j = 0; j < TILE; j += ROWS)
		tile[y + j][x] = in[(y + j) * TILE + x];
	__syncthreads();
	for (int j = 0; j < TILE; j += ROWS)
		out[(y + j) * TILE + x] = tile[x][y + j];
}

extern "C" __global__ void transpose_swizzled(const float *in, float *out)
{
	__shared__ float tile[TILE][TILE];
	int x = threadIdx.x, y = threadIdx.y;
	for (int j = 0; j < TILE; j += ROWS)
		tile[y + j][x ^ (y + j)] = in[(y + j) * TILE + x];
	__syncthreads();
	for (int j = 0; j < TILE; j += ROWS)
		out[(y + j) * TILE + x] = tile[x][(y + j) ^ x];
}

int main()
{
	float *in = sk_alloc<float>(TILE * TILE), *out = sk_alloc<float>(TILE * TILE);
	const dim3 block(TILE, ROWS);
	transpose_naive<<<1, block>>>(in, out);
	transpose_padded<<<1, block>>>(in, out);
	transpose_swizzled<<<1, block>>>(in, out);
	return sk_done("transpose");
}
