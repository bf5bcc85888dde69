// Blelloch's work-efficient exclusive scan of 512 floats, block 256 (two
// elements per thread), as in GPU Gems 3 chapter 39: the plain version,
// whose up- and down-sweeps hit 2- to 16-way conflicts, and the version
// padded by one word every 32 (CONFLICT_FREE_OFFSET).
#include "scan_kernel.cuh"

#define N 512
#define LOG_BANKS 5
#define PAD(n) ((n) >> LOG_BANKS)

extern "C" __global__ void blelloch_scan(const float *in, float *out)
{
	__shared__ float temp[N];
	int thid = threadIdx.x, offset = 1;
	temp[2 * thid] = in[2 * thid];
	temp[2 * thid + 1] = in[2 * thid + 1];
	for (int d = N >> 1; d > 0; d >>= 1) {
		__syncthreads();
		if (thid < d) {
			int ai = offset * (2 * thid + 1) - 1, bi = offset * (2 * thid + 2) - 1;
			temp[bi] += temp[ai];
		}
		offset *= 2;
	}
	if (thid == 0)
		temp[N - 1] = 0;
	for (int d = 1; d < N; d *= 2) {
		offset >>= 1;
		__syncthreads();
		if (thid < d) {
			int ai = offset * (2 * thid + 1) - 1, bi = offset * (2 * thid + 2) - 1;
			float t = temp[ai];
			temp[ai] = temp[bi];
			temp[bi] += t;
		}
	}
	__syncthreads();
	out[2 * thid] = temp[2 * thid];
	out[2 * thid + 1] = temp[2 * thid + 1];
}

extern "C" __global__ void blelloch_scan_padded(const float *in, float *out)
{
	__shared__ float temp[N + PAD(N)];
	int thid = threadIdx.x, offset = 1;
	int ai = thid, bi = thid + N / 2;
	temp[ai + PAD(ai)] = in[ai];
	temp[bi + PAD(bi)] = in[bi];
	for (int d = N >> 1; d > 0; d >>= 1) {
		__syncthreads();
		if (thid < d) {
			int a = offset * (2 * thid + 1) - 1, b = offset * (2 * thid + 2) - 1;
			temp[b + PAD(b)] += temp[a + PAD(a)];
		}
		offset *= 2;
	}
	if (thid == 0)
		temp[N - 1 + PAD(N - 1)] = 0;
	for (int d = 1; d < N; d *= 2) {
		offset >>= 1;
		__syncthreads();
		if (thid < d) {
			int a = offset * (2 * thid + 1) - 1, b = offset * (2 * thid + 2) - 1;
			a += PAD(a);
			b += PAD(b);
			float t = temp[a];
			temp[a] = temp[b];
			temp[b] += t;
		}
	}
	__syncthreads();
	out[ai] = temp[ai + PAD(ai)];
	out[bi] = temp[bi + PAD(bi)];
}

int main()
{
	float *in = sk_alloc<float>(N), *out = sk_alloc<float>(N);
	blelloch_scan<<<1, N / 2>>>(in, out);
	blelloch_scan_padded<<<1, N / 2>>>(in, out);
	return sk_done("blelloch");
}
