// Misaligned: a float4 at an offset of one float, ldmatrix rows 8 bytes
// off their 16, and a 16-byte cp.async to a destination 4 bytes off; each
// beside its fix.  The GPU faults on each (misaligned address).
// scan: --block 32
// expect: float4_bug 17 shared-align error
// expect: ldmatrix_bug 35 shared-align error
// expect: cpasync_bug 64 shared-align error
#include "safety.cuh"

extern "C" __global__ void float4_bug(const float *in, float *out)
{
	__shared__ __align__(16) float s[160];
	int t = threadIdx.x;
	for (int i = t; i < 160; i += 32)
		s[i] = in[i];
	__syncthreads();
	float4 v = *reinterpret_cast<const float4 *>(&s[t * 4 + 1]);
	out[t] = v.x + v.y + v.z + v.w;
}

extern "C" __global__ void float4_fixed(const float *in, float *out)
{
	__shared__ __align__(16) float s[160];
	int t = threadIdx.x;
	for (int i = t; i < 160; i += 32)
		s[i] = in[i];
	__syncthreads();
	float4 v = *reinterpret_cast<const float4 *>(&s[t * 4 + 4]);
	out[t] = v.x + v.y + v.z + v.w;
}

__device__ unsigned ldsm(const void *p)
{
	unsigned r, a = static_cast<unsigned>(__cvta_generic_to_shared(p));
	asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r) : "r"(a));
	return r;
}

extern "C" __global__ void ldmatrix_bug(const float *in, float *out)
{
	__shared__ __align__(16) unsigned short m[8 * 8 + 8];
	int t = threadIdx.x;
	m[t] = static_cast<unsigned short>(in[t]);
	m[t + 32] = static_cast<unsigned short>(in[t + 32]);
	__syncthreads();
	unsigned r = ldsm(&m[(t % 8) * 8 + 4]);     // rows 8 bytes off
	out[t] = static_cast<float>(r);
}

extern "C" __global__ void ldmatrix_fixed(const float *in, float *out)
{
	__shared__ __align__(16) unsigned short m[8 * 8 + 8];
	int t = threadIdx.x;
	m[t] = static_cast<unsigned short>(in[t]);
	m[t + 32] = static_cast<unsigned short>(in[t + 32]);
	__syncthreads();
	unsigned r = ldsm(&m[(t % 8) * 8]);
	out[t] = static_cast<float>(r);
}

__device__ void cp16(void *dst, const void *src)
{
	unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(d), "l"(src));
	asm volatile("cp.async.wait_all;");
}

extern "C" __global__ void cpasync_bug(const float *in, float *out)
{
	__shared__ __align__(16) float s[32 * 4 + 4];
	int t = threadIdx.x;
	cp16(&s[t * 4 + 1], &in[t * 4]);            // 4 bytes off its 16
	__syncthreads();
	out[t] = s[t * 4 + 1];
}

extern "C" __global__ void cpasync_fixed(const float *in, float *out)
{
	__shared__ __align__(16) float s[32 * 4 + 4];
	int t = threadIdx.x;
	cp16(&s[t * 4], &in[t * 4]);
	__syncthreads();
	out[t] = s[t * 4];
}

int main()
{
	SF_LAUNCH(float4_bug, 32, 0);
	SF_LAUNCH(float4_fixed, 32, 0);
	SF_LAUNCH(ldmatrix_bug, 32, 0);
	SF_LAUNCH(ldmatrix_fixed, 32, 0);
	SF_LAUNCH(cpasync_bug, 32, 0);
	SF_LAUNCH(cpasync_fixed, 32, 0);
	return 0;
}
