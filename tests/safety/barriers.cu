// Divergent barriers: a __syncthreads() inside a branch only some threads
// take (they meet the block's next barrier elsewhere), one reached a
// different number of times (a loop whose trips depend on the warp), and a
// named barrier whose count its threads never fill (the block hangs: not
// launched); each beside its fix.
// scan: --block 128
// expect: branch_bug 18 barrier-divergence error 20
// expect: count_bug 40 barrier-divergence error 40
// expect: hang_bug 62 barrier-divergence error
#include "safety.cuh"

extern "C" __global__ void branch_bug(const float *in, float *out)
{
	__shared__ float s[128];
	int t = threadIdx.x;
	if (t < 64) {
		s[t] = in[t];
		__syncthreads();                    // only threads 0 to 63 wait here
	}
	__syncthreads();
	out[t] = s[t % 64];
}

extern "C" __global__ void branch_fixed(const float *in, float *out)
{
	__shared__ float s[128];
	int t = threadIdx.x;
	if (t < 64)
		s[t] = in[t];
	__syncthreads();
	out[t] = s[t % 64];
}

extern "C" __global__ void count_bug(const float *in, float *out)
{
	__shared__ float s[128];
	int t = threadIdx.x;
	s[t] = in[t];
	for (int i = 0; i <= t / 32; i++)       // warp w waits w + 1 times
		__syncthreads();
	__syncthreads();
	out[t] = s[127 - t];
}

extern "C" __global__ void count_fixed(const float *in, float *out)
{
	__shared__ float s[128];
	int t = threadIdx.x;
	s[t] = in[t];
	for (int i = 0; i < 4; i++)
		__syncthreads();
	__syncthreads();
	out[t] = s[127 - t];
}

extern "C" __global__ void hang_bug(const float *in, float *out)
{
	__shared__ float s[128];
	int t = threadIdx.x;
	s[t] = in[t];
	if (t < 64)
		asm volatile("bar.sync 1, 128;");   // 64 threads come, 128 counted
	out[t] = s[t];
}

extern "C" __global__ void hang_fixed(const float *in, float *out)
{
	__shared__ float s[128];
	int t = threadIdx.x;
	s[t] = in[t];
	if (t < 64)
		asm volatile("bar.sync 1, 64;");
	out[t] = s[t];
}

int main()
{
	SF_LAUNCH(branch_bug, 128, 0);
	SF_LAUNCH(branch_fixed, 128, 0);
	SF_LAUNCH(count_bug, 128, 0);
	SF_LAUNCH(count_fixed, 128, 0);
	// hang_bug is not launched: the block would wait forever
	SF_LAUNCH(hang_fixed, 128, 0);
	return 0;
}
