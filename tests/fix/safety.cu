// Fixes that must not change what a kernel computes: bankc scan --fix
// must offer none of these, and say why (tests/run_fix.sh).

// Two kernels, each with its own `tile`: the first reads its tile
// through a pointer and has no conflict; the second reads down a column.
// A fix of the second is the second's alone.
extern "C" __global__ void same_name_flat(const float *in, float *out)
{
	__shared__ float tile[32][32];
	int x = threadIdx.x;
	for (int r = 0; r < 32; r++)
		tile[r][x] = in[r * 32 + x];
	__syncthreads();
	const float *p = &tile[0][0];
	for (int r = 0; r < 32; r++)
		out[r * 32 + x] = p[r * 32 + x];
}

extern "C" __global__ void same_name_col(const float *in, float *out)
{
	__shared__ float tile[32][32];
	int x = threadIdx.x;
	for (int r = 0; r < 32; r++)
		tile[r][x] = in[r * 32 + x];
	__syncthreads();
	for (int c = 0; c < 32; c++)
		out[c * 32 + x] = tile[x][c];
}

// A column read, and a flat pointer into the same array: a padding would
// move what the pointer reads.
extern "C" __global__ void flat_pointer(const float *in, float *out)
{
	__shared__ float tile[32][32];
	int x = threadIdx.x;
	for (int r = 0; r < 32; r++)
		tile[r][x] = in[r * 32 + x];
	__syncthreads();
	float *flat = &tile[0][0];
	float acc = 0;
	for (int r = 0; r < 32; r++)
		acc += flat[x * 32 + r];
	out[x] = acc + tile[x][0];
}

// The dimensions under an #if that nvcc leaves out: 32 x 32, not 64 x 64.
#if 0
#define DIM 64
#else
#define DIM 32
#endif
extern "C" __global__ void dims_under_if(const float *in, float *out)
{
	__shared__ float s[DIM][DIM];
	int x = threadIdx.x;
	for (int r = 0; r < DIM; r++)
		s[r][x] = in[r * DIM + x];
	__syncthreads();
	for (int c = 0; c < DIM; c++)
		out[c * DIM + x] = s[x][c];
}

// An element's address passed to a helper that reads the next one too.
__device__ __forceinline__ float two(const float *p) { return p[0] + p[1]; }
extern "C" __global__ void helper_reads_past(const float *in, float *out)
{
	__shared__ float h[32][32];
	int x = threadIdx.x;
	for (int r = 0; r < 32; r++)
		h[r][x] = in[r * 32 + x];
	__syncthreads();
	float acc = 0;
	for (int c = 0; c < 31; c++)
		acc += two(&h[x][c]);
	out[x] = acc;
}

// The name declared again inside its scope.
extern "C" __global__ void shadowed(const float *in, float *out)
{
	__shared__ float s[32][32];
	int x = threadIdx.x;
	for (int r = 0; r < 32; r++)
		s[r][x] = in[r * 32 + x];
	__syncthreads();
	float acc = 0;
	for (int c = 0; c < 32; c++)
		acc += s[x][c];
	{
		float s = acc;
		out[x] = s;
	}
}

// Two arrays indexed on one line: their fixes are one diff, or patch
// rejects the second array's hunk of that line.
extern "C" __global__ void two_on_a_line(const float *in, float *out)
{
	__shared__ float qa[32][32], kb[32][32];
	int x = threadIdx.x;
	for (int r = 0; r < 32; r++) {
		qa[r][x] = in[r * 32 + x];
		kb[r][x] = in[1024 + r * 32 + x];
	}
	__syncthreads();
	float acc = 0;
	for (int c = 0; c < 32; c++)
		acc += qa[x][c] * kb[x][c];
	out[x] = acc;
}
