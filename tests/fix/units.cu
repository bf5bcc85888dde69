// bankc scan --fix in the array's own units: one kernel per element
// width and access width (tests/run_fix.sh applies each fix, compiles the
// fixed source and scans it again).
#include <cuda_fp16.h>
#include <stdint.h>

// 1-byte elements, 1-byte accesses: a column of bytes, 16 ways.
extern "C" __global__ void u8_col(const uint8_t *in, uint8_t *out)
{
	__shared__ uint8_t t[64][64];
	int x = threadIdx.x;
	for (int r = 0; r < 64; r++) {
		t[r][x] = in[r * 64 + x];
		t[r][x + 32] = in[r * 64 + x + 32];
	}
	__syncthreads();
	uint8_t acc = 0;
	for (int c = 0; c < 64; c++)
		acc ^= t[x][c];
	out[x] = acc;
}

// 1-byte elements read four at a time (uchar4): a column of words.
extern "C" __global__ void u8_vec4(const uchar4 *in, uchar4 *out)
{
	__shared__ uint8_t t[32][128];
	int x = threadIdx.x;
	for (int r = 0; r < 32; r++)
		*(uchar4 *)&t[r][4 * x] = in[r * 32 + x];
	__syncthreads();
	uchar4 acc = make_uchar4(0, 0, 0, 0);
	for (int c = 0; c < 32; c++) {
		uchar4 v = *(const uchar4 *)&t[x][4 * c];
		acc.x ^= v.x, acc.y ^= v.y, acc.z ^= v.z, acc.w ^= v.w;
	}
	out[x] = acc;
}

// 2-byte elements read as half2 down a column.
extern "C" __global__ void half_col(const __half2 *in, __half2 *out)
{
	__shared__ __half t[64][64];
	int x = threadIdx.x;
	for (int r = 0; r < 64; r++)
		*(__half2 *)&t[r][2 * x] = in[r * 32 + x];
	__syncthreads();
	__half2 acc = __float2half2_rn(0.f);
	for (int c = 0; c < 32; c++)
		acc = __hadd2(acc, *(__half2 *)&t[x][2 * c]);
	out[x] = acc;
}

// 2-byte elements filled by 16-byte cp.async, read by ldmatrix: a GEMM
// operand tile.
extern "C" __global__ void half_ldmatrix(const __half *in, float *out)
{
	__shared__ __align__(128) __half sa[64][64];
	int tid = threadIdx.x;
	for (int i = tid; i < 64 * 8; i += 128) {
		int r = i / 8, c = (i % 8) * 8;
		unsigned dst = (unsigned)__cvta_generic_to_shared(&sa[r][c]);
		asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst),
		             "l"(in + r * 64 + c));
	}
	asm volatile("cp.async.wait_all;\n");
	__syncthreads();
	int lane = tid % 32, w = tid / 32;
	unsigned a0, a1, a2, a3;
	float s = 0;
	for (int k = 0; k < 4; k++) {
		unsigned addr = (unsigned)__cvta_generic_to_shared(
			&sa[w * 16 + lane % 16][k * 16 + (lane / 16) * 8]);
		asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
		             : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3)
		             : "r"(addr));
		s += __uint_as_float(a0 ^ a1 ^ a2 ^ a3);
	}
	out[tid] = s;
}

// 2-byte elements written by stmatrix (an epilogue), read by rows: only
// the 16 columns it wrote (an unwritten one reads whatever the block
// before left, which a layout moves).
extern "C" __global__ void half_stmatrix(const unsigned *in, __half *out)
{
	__shared__ __align__(128) __half sc[32][64];
	int lane = threadIdx.x;
	for (int k = 0; k < 2; k++) {
		unsigned v0 = in[k * 128 + lane], v1 = in[k * 128 + 32 + lane];
		unsigned v2 = in[k * 128 + 64 + lane], v3 = in[k * 128 + 96 + lane];
		unsigned addr = (unsigned)__cvta_generic_to_shared(
			&sc[(lane % 8) + 8 * (lane / 16) + 16 * k][8 * ((lane / 8) % 2)]);
		asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};\n"
		             ::"r"(addr), "r"(v0), "r"(v1), "r"(v2), "r"(v3));
	}
	__syncthreads();
	for (int r = 0; r < 32; r++)
		out[r * 64 + lane] = sc[r][lane % 16] + sc[r][(lane + 8) % 16];
}

// 8-byte elements read down a column.
extern "C" __global__ void f64_col(const double *in, double *out)
{
	__shared__ double d[32][32];
	int x = threadIdx.x;
	for (int r = 0; r < 32; r++)
		d[r][x] = in[r * 32 + x];
	__syncthreads();
	double acc = 0;
	for (int c = 0; c < 32; c++)
		acc += d[x][c];
	out[x] = acc;
}

// 16-byte elements (float4) read down a column.
extern "C" __global__ void f4_col(const float4 *in, float4 *out)
{
	__shared__ float4 v[32][8];
	int x = threadIdx.x;
	for (int r = 0; r < 32; r += 4)
		v[r + x / 8][x % 8] = in[(r + x / 8) * 8 + x % 8];
	__syncthreads();
	float4 acc = make_float4(0, 0, 0, 0);
	for (int c = 0; c < 8; c++) {
		float4 e = v[x][c];
		acc.x += e.x, acc.y += e.y, acc.z += e.z, acc.w += e.w;
	}
	out[x] = acc;
}

// 8-byte structs, one field read at a time: 4-byte accesses in 8-byte
// elements.
struct Pair { float a, b; };
extern "C" __global__ void pair_col(const Pair *in, float *out)
{
	__shared__ Pair p[32][32];
	int x = threadIdx.x;
	for (int r = 0; r < 32; r++)
		p[r][x] = in[r * 32 + x];
	__syncthreads();
	float acc = 0;
	for (int c = 0; c < 32; c++)
		acc += p[x][c].a;
	out[x] = acc;
}

// Each lane writes and reads its own row, one element at a time: stored
// transposed, both are rows of the warp.
extern "C" __global__ void own_rows(const float *in, float *out)
{
	__shared__ float t[32][32];
	int x = threadIdx.x;
#pragma unroll 1
	for (int c = 0; c < 32; c++)
		t[x][c] = in[c * 32 + x];
	__syncthreads();
	float acc = 0;
#pragma unroll 1
	for (int c = 0; c < 32; c++)
		acc += t[x][c] * c;
	out[x] = acc;
}

// A template: one declaration for every instance.
template <int N>
__global__ void tpl_col(const float *in, float *out)
{
	__shared__ float s[N][N];
	int x = threadIdx.x;
	for (int r = 0; r < N; r++)
		s[r][x] = in[r * N + x];
	__syncthreads();
	for (int c = 0; c < N; c++)
		out[c * N + x] = s[x][c];
}
template __global__ void tpl_col<32>(const float *, float *);

// A histogram of 1-byte items: the bins come from the input (--data).
extern "C" __global__ void hist256(const unsigned char *in, unsigned *out)
{
	__shared__ unsigned bins[256];
	int x = threadIdx.x;
	for (int i = x; i < 256; i += blockDim.x)
		bins[i] = 0;
	__syncthreads();
	for (int i = x; i < 4096; i += blockDim.x)
		atomicAdd(&bins[in[i]], 1u);
	__syncthreads();
	for (int i = x; i < 256; i += blockDim.x)
		out[i] = bins[i];
}
