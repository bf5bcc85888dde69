// A radix-2 decimation-in-time FFT of 1024 complex f32 (float2, 8-byte
// accesses) in shared memory, block 512: a bit-reversed load, then ten
// stages of one butterfly per thread.  Stages with half-size below 16
// stride the lanes' pairs and conflict.
#include "scan_kernel.cuh"

#define N 1024
#define LOGN 10

extern "C" __global__ void fft_radix2(const float2 *in, float2 *out)
{
	__shared__ float2 s[N];
	unsigned t = threadIdx.x;
	s[__brev(t) >> (32 - LOGN)] = in[t];
	s[__brev(t + N / 2) >> (32 - LOGN)] = in[t + N / 2];
	__syncthreads();
	for (unsigned h = 1; h < N; h <<= 1) {
		unsigned pos = t & (h - 1);
		unsigned i = ((t - pos) << 1) + pos, j = i + h;
		float sn, cs;
		__sincosf(-3.14159265f * pos / h, &sn, &cs);
		float2 a = s[i], b = s[j];
		float2 w = make_float2(b.x * cs - b.y * sn, b.x * sn + b.y * cs);
		s[i] = make_float2(a.x + w.x, a.y + w.y);
		s[j] = make_float2(a.x - w.x, a.y - w.y);
		__syncthreads();
	}
	out[t] = s[t];
	out[t + N / 2] = s[t + N / 2];
}

int main()
{
	float2 *in = sk_alloc<float2>(N), *out = sk_alloc<float2>(N);
	fft_radix2<<<1, N / 2>>>(in, out);
	return sk_done("fft");
}
