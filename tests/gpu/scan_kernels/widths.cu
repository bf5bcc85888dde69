// Every access width, block 64 (two warps), on dynamic shared memory
// (2048 bytes, carved into typed views): 16-byte float4 loads down a
// column (4-way), 8-byte double loads where lane pairs share an address
// (merged into one phase), 1-byte loads down a column of 32-byte rows
// (four lanes' bytes per bank word), 2-byte halves along a row, 8-byte
// and 16-byte stores, odd lanes only (predicated), and a non-inlined
// function reading shared memory through a generic pointer.
#include <cstdint>

#include "scan_kernel.cuh"

extern __shared__ __align__(16) unsigned char dyn[];

__device__ __noinline__ float generic_read(const float *p, int i) { return p[i]; }

extern "C" __global__ void widths_mix(const float4 *in, float *out)
{
	float4 *v4 = reinterpret_cast<float4 *>(dyn);		// 128 float4 = 2048 bytes
	double *d = reinterpret_cast<double *>(dyn);
	unsigned char *b = dyn;
	unsigned short *h = reinterpret_cast<unsigned short *>(dyn);
	float *f = reinterpret_cast<float *>(dyn);
	const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
	v4[tid] = in[tid];
	v4[tid + 64] = in[tid + 64];
	__syncthreads();
	float acc = 0;
	float4 x = v4[lane * 4 + warp];
	acc += x.x + x.y + x.z + x.w;
	acc += static_cast<float>(d[lane / 2 + 16 * warp]);
	acc += b[lane * 32 + warp];
	acc += h[lane + 32 * warp];
	if (lane & 1)
		acc += f[lane * 2];
	__syncthreads();
	d[tid * 3 % 64] = acc;
	if (lane & 1)
		v4[64 + lane] = make_float4(acc, acc, acc, acc);
	__syncthreads();
	// called with a shared and a global pointer, so that it keeps a generic one
	out[tid] = acc + generic_read(f, (tid * 5) % 512) + generic_read(reinterpret_cast<const float *>(in), tid);
}

int main()
{
	float4 *in = sk_alloc<float4>(128);
	float *out = sk_alloc<float>(64);
	widths_mix<<<1, 64, 2048>>>(in, out);
	return sk_done("widths");
}
