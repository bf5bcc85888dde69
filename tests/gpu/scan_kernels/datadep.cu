// Shared accesses that depend on data, on branches bankc cannot decide,
// and the forms of shared atomic increments.  Each kernel is launched
// once with one block; the input (datadep_in.bin, 1024 ints read at run
// time) is the one `bankc scan --data` is given, so the histogram's and
// early exit's accesses are known with it and ranges without.
#include "scan_kernel.cuh"

#include <vector>

#define BINS 64

// ---- increments: which lanes share a word, and which PTX forms ptxas
// makes ATOMS.POPC.INC (an add of 1 whose result is unused)

// the 32 lanes on one word
extern "C" __global__ void inc_one_word(unsigned *out)
{
	__shared__ unsigned s[BINS];
	s[threadIdx.x] = 0;
	__syncthreads();
	atomicAdd(&s[0], 1u);
	__syncthreads();
	out[threadIdx.x] = s[threadIdx.x];
}

// the lanes on two words of bank 0
extern "C" __global__ void inc_two_words(unsigned *out)
{
	__shared__ unsigned s[BINS];
	s[threadIdx.x] = 0;
	s[threadIdx.x + 32] = 0;
	__syncthreads();
	atomicAdd(&s[(threadIdx.x % 2) * 32], 1u);
	__syncthreads();
	out[threadIdx.x] = s[threadIdx.x] + s[threadIdx.x + 32];
}

// the old value kept: a native atomic, every lane on its own
extern "C" __global__ void inc_used(unsigned *out)
{
	__shared__ unsigned s[BINS];
	s[threadIdx.x] = 0;
	__syncthreads();
	unsigned r = atomicAdd(&s[0], 1u);
	__syncthreads();
	out[threadIdx.x] = s[threadIdx.x] + r;
}

// red.shared.add of 1, written as such
extern "C" __global__ void red_one(unsigned *out)
{
	__shared__ unsigned s[BINS];
	s[threadIdx.x] = 0;
	__syncthreads();
	unsigned a = (unsigned)__cvta_generic_to_shared(&s[0]);
	asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(a) : "memory");
	__syncthreads();
	out[threadIdx.x] = s[threadIdx.x];
}

// an add of 2, of -1, and atomicInc: not an add of 1
extern "C" __global__ void add_two(unsigned *out)
{
	__shared__ unsigned s[BINS];
	s[threadIdx.x] = 0;
	__syncthreads();
	atomicAdd(&s[0], 2u);
	__syncthreads();
	out[threadIdx.x] = s[threadIdx.x];
}

extern "C" __global__ void sub_one(int *out)
{
	__shared__ int s[BINS];
	s[threadIdx.x] = 0;
	__syncthreads();
	atomicSub(&s[0], 1);
	__syncthreads();
	out[threadIdx.x] = s[threadIdx.x];
}

extern "C" __global__ void inc_wrap(unsigned *out)
{
	__shared__ unsigned s[BINS];
	s[threadIdx.x] = 0;
	__syncthreads();
	atomicInc(&s[0], 1000u);
	__syncthreads();
	out[threadIdx.x] = s[threadIdx.x];
}

// ---- data

// a 64-bin histogram of the input: 256 threads, one item each
extern "C" __global__ void hist_data(const int *in, unsigned *out)
{
	__shared__ unsigned bins[BINS];
	if (threadIdx.x < BINS)
		bins[threadIdx.x] = 0;
	__syncthreads();
	atomicAdd(&bins[(unsigned)in[threadIdx.x] % BINS], 1u);
	__syncthreads();
	if (threadIdx.x < BINS)
		out[threadIdx.x] = bins[threadIdx.x];
}

// a thread leaves early where its item is negative
extern "C" __global__ void early_exit(const int *in, int *out)
{
	__shared__ int s[32][32];
	if (in[threadIdx.x] < 0)
		return;
	s[threadIdx.x][0] = in[threadIdx.x];
	__syncthreads();
	out[threadIdx.x] = s[0][threadIdx.x];
}

// ---- branches bankc cannot decide

// a float test whose sides touch no shared memory
extern "C" __global__ void float_branch(const int *in, float *out)
{
	__shared__ float tile[32][33];
	float v = (float)in[threadIdx.x] * 0.25f;
	if (v > 0.5f)
		v = v * 2.0f;
	else
		v = v - 1.0f;
	tile[threadIdx.x][0] = v;
	__syncthreads();
	out[threadIdx.x] = tile[0][threadIdx.x];
}

// a sorting network's compare-and-exchange, on values in shared memory
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

// a spin lock taken by one lane of each warp
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

int main()
{
	std::vector<int> host(1024);
	FILE *f = std::fopen("tests/gpu/scan_kernels/datadep_in.bin", "rb");
	if (!f || std::fread(host.data(), sizeof(int), host.size(), f) != host.size()) {
		std::fprintf(stderr, "datadep: cannot read tests/gpu/scan_kernels/datadep_in.bin\n");
		return 1;
	}
	std::fclose(f);
	int *in = sk_alloc<int>(host.size());
	SK_CHECK(cudaMemcpy(in, host.data(), host.size() * sizeof(int), cudaMemcpyHostToDevice));
	unsigned *u = sk_alloc<unsigned>(1024);
	int *i = sk_alloc<int>(1024);
	float *fl = sk_alloc<float>(1024);
	inc_one_word<<<1, 32>>>(u);
	inc_two_words<<<1, 32>>>(u);
	inc_used<<<1, 32>>>(u);
	red_one<<<1, 32>>>(u);
	add_two<<<1, 32>>>(u);
	sub_one<<<1, 32>>>(i);
	inc_wrap<<<1, 32>>>(u);
	hist_data<<<1, 256>>>(in, u);
	early_exit<<<1, 32>>>(in, i);
	float_branch<<<1, 32>>>(in, fl);
	exchange<<<1, 32>>>(in, i);
	spin_lock<<<1, 256>>>(i);
	return sk_done("datadep");
}
