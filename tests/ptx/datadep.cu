// Kernels whose shared accesses depend on data or on branches bankc
// cannot decide: scan costs them as ranges, runs both sides of a branch,
// and with --data reads the input a histogram counts.
#define BINS 64

// A histogram of 4-byte items: the bins come from the input.
extern "C" __global__ void hist(const unsigned *in, unsigned *out)
{
	__shared__ unsigned bins[BINS];
	if (threadIdx.x < BINS)
		bins[threadIdx.x] = 0;
	__syncthreads();
	atomicAdd(&bins[in[threadIdx.x] % BINS], 1u);
	__syncthreads();
	if (threadIdx.x < BINS)
		out[threadIdx.x] = bins[threadIdx.x];
}

// A float test that libdevice-like code makes: neither side touches
// shared memory, and they meet again before the store.
extern "C" __global__ void float_branch(const float *in, float *out)
{
	__shared__ float tile[32][33];
	float v = in[threadIdx.x];
	if (v > 0.5f)
		v = v * 2.0f;
	else
		v = v - 1.0f;
	tile[threadIdx.x][0] = v;
	__syncthreads();
	out[threadIdx.x] = tile[0][threadIdx.x];
}

// A compare-and-exchange of a sorting network: which lane writes where
// depends on the data.
extern "C" __global__ void exchange(const int *in, int *out)
{
	__shared__ int s[64];
	int t = threadIdx.x;
	s[t] = in[t];
	s[t + 32] = in[t + 32];
	__syncthreads();
	int a = s[2 * t], b = s[2 * t + 1];
	if (a > b) {
		s[2 * t] = b;
		s[2 * t + 1] = a;
	}
	__syncthreads();
	out[t] = s[t];
}

// A spin lock on a shared word: how often the loop runs depends on the
// other threads.
extern "C" __global__ void spin_lock(int *out)
{
	__shared__ int lock;
	__shared__ int count[32];
	if (threadIdx.x == 0)
		lock = 0;
	count[threadIdx.x % 32] = 0;
	__syncthreads();
	if (threadIdx.x % 32 == 0) {
		while (atomicCAS(&lock, 0, 1) != 0)
			;
		count[threadIdx.x / 32] += 1;
		atomicExch(&lock, 0);
	}
	__syncthreads();
	out[threadIdx.x] = count[threadIdx.x % 32];
}

// A thread that leaves early on data: what follows may not run.
extern "C" __global__ void early_exit(const int *in, int *out)
{
	__shared__ int s[32][32];
	if (in[threadIdx.x] < 0)
		return;
	s[threadIdx.x][0] = in[threadIdx.x];
	__syncthreads();
	out[threadIdx.x] = s[0][threadIdx.x];
}
