// bankc scan's test of accepting a known conflict: a comment on the
// line, or on the line above it, names the warning's flag; the other
// conflict of the kernel still warns.
#define TILE 32
#define ROWS 8

extern "C" __global__ void accepted(const float *in, float *out)
{
	__shared__ float tile[TILE][TILE];
	int x = threadIdx.x, y = threadIdx.y;
	for (int j = 0; j < TILE; j += ROWS)
		tile[y + j][x] = in[(y + j) * TILE + x];
	__syncthreads();
	for (int j = 0; j < TILE; j += ROWS)
		// a column read kept on purpose: bankc: allow bank-conflict
		out[(y + j) * TILE + x] = tile[x][y + j];
	__syncthreads();
	for (int j = 0; j < TILE; j += ROWS)
		out[TILE * TILE + (y + j) * TILE + x] = tile[x][(y + j + 1) % TILE];
}
