// Races: a store and another warp's load with no __syncthreads between
// them, the write-after-read at the end of a reduction's step (the next
// step's store before every thread has read), and lanes of one warp
// exchanging through shared memory without __syncwarp; each beside its
// fix.
// scan: --block 128
// expect: missing_sync_bug 18 shared-race error 16
// expect: reduce_war_bug 39 shared-race error 36
// expect: intra_warp_bug 67 shared-race error 66
#include "safety.cuh"

extern "C" __global__ void missing_sync_bug(const float *in, float *out)
{
	__shared__ float s[128];
	int t = threadIdx.x;
	s[t] = in[t];
	// a __syncthreads() belongs here
	out[t] = s[(t + 32) % 128];
}

extern "C" __global__ void missing_sync_fixed(const float *in, float *out)
{
	__shared__ float s[128];
	int t = threadIdx.x;
	s[t] = in[t];
	__syncthreads();
	out[t] = s[(t + 32) % 128];
}

extern "C" __global__ void reduce_war_bug(const float *in, float *out)
{
	__shared__ float s[128];
	int t = threadIdx.x;
	float v = in[t];
	for (int stride = 64; stride > 0; stride >>= 1) {
		s[t] = v;
		__syncthreads();
		if (t < stride)
			v += s[t + stride];
		// the next step's s[t] = v overwrites what others still read
	}
	if (t == 0)
		out[0] = v;
}

extern "C" __global__ void reduce_war_fixed(const float *in, float *out)
{
	__shared__ float s[128];
	int t = threadIdx.x;
	float v = in[t];
	for (int stride = 64; stride > 0; stride >>= 1) {
		s[t] = v;
		__syncthreads();
		if (t < stride)
			v += s[t + stride];
		__syncthreads();
	}
	if (t == 0)
		out[0] = v;
}

extern "C" __global__ void intra_warp_bug(const float *in, float *out)
{
	__shared__ float s[4][32];
	int lane = threadIdx.x % 32, w = threadIdx.x / 32;
	s[w][lane] = in[threadIdx.x];
	out[threadIdx.x] = s[w][(lane + 1) % 32];  // no __syncwarp() between
}

extern "C" __global__ void intra_warp_fixed(const float *in, float *out)
{
	__shared__ float s[4][32];
	int lane = threadIdx.x % 32, w = threadIdx.x / 32;
	s[w][lane] = in[threadIdx.x];
	__syncwarp();
	out[threadIdx.x] = s[w][(lane + 1) % 32];
}

// The same race, accepted where it is: no finding.
extern "C" __global__ void accepted_race(const float *in, float *out)
{
	__shared__ float s[128];
	int t = threadIdx.x;
	s[t] = in[t];
	out[t] = s[(t + 32) % 128];     // bankc: allow shared-race
}

int main()
{
	SF_LAUNCH(missing_sync_bug, 128, 0);
	SF_LAUNCH(missing_sync_fixed, 128, 0);
	SF_LAUNCH(reduce_war_bug, 128, 0);
	SF_LAUNCH(reduce_war_fixed, 128, 0);
	SF_LAUNCH(intra_warp_bug, 128, 0);
	SF_LAUNCH(intra_warp_fixed, 128, 0);
	SF_LAUNCH(accepted_race, 128, 0);
	return 0;
}
