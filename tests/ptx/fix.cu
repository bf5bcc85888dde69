// bankc scan's test of fixes in the source's terms: the declarations
// below (a literal size, a constexpr, a 64 x 16 tile whose rows are not
// the bank period) are what the fix notes and `--fix` rewrite.
#define ROWS 64

constexpr int N = 32;

// 32 x 32 floats written by rows, read by columns: padding to 33 or an
// XOR swizzle reaches the bound.
extern "C" __global__ void fix_literal(const float* in, float* out)
{
	__shared__ float t[32][32];
	int x = threadIdx.x;
	for (int r = 0; r < 32; r++)
		t[r][x] = in[r * 32 + x];
	__syncthreads();
	for (int c = 0; c < 32; c++)
		out[c * 32 + x] = t[x][c];
}

// 64 rows of 16 floats: a warp reads a column of 32 rows (16-way).
extern "C" __global__ void fix_narrow(const float* in, float* out)
{
	__shared__ float s[ROWS][16];
	int x = threadIdx.x;
	for (int i = x; i < ROWS * 16; i += 32)
		s[i / 16][i % 16] = in[i];
	__syncthreads();
	float acc = 0;
	for (int c = 0; c < 16; c++)
		acc += s[x][c] + s[x + 32][c];
	out[x] = acc;
}

// doubles, N x N, read down a column.
extern "C" __global__ void fix_double(const double* in, double* out)
{
	__shared__ double d[N][N];
	int x = threadIdx.x;
	for (int r = 0; r < N; r++)
		d[r][x] = in[r * N + x];
	__syncthreads();
	for (int c = 0; c < N; c++)
		out[c * N + x] = d[x][c];
}
