// bankc scan's test of what nvcc writes for common idioms: warpSize (the
// PTX constant WARP_SZ), and an mbarrier wait in inline asm pasted twice
// into one kernel, each copy declaring the same label and predicate in
// its own { } block.
__global__ void lanes(int *out)
{
	__shared__ int s[8][33];
	int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
	s[warp][lane] = lane;
	__syncthreads();
	out[threadIdx.x] = s[lane % 8][warp * 4];
}

__device__ __forceinline__ void wait(unsigned bar, unsigned phase)
{
	asm volatile("{\n\t.reg .pred P1;\n"
	             "LAB_WAIT:\n\t"
	             "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n\t"
	             "@P1 bra DONE;\n\t"
	             "bra LAB_WAIT;\n"
	             "DONE:\n\t}" :: "r"(bar), "r"(phase));
}

__global__ void two_waits(float *out)
{
	__shared__ unsigned long long bar;
	__shared__ float s[128];
	unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
	if (threadIdx.x == 0)
		asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(blockDim.x));
	__syncthreads();
	s[threadIdx.x] = threadIdx.x;
	asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(b));
	wait(b, 0);
	out[threadIdx.x] = s[threadIdx.x * 2 % 128];
	asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(b));
	wait(b, 1);
	out[threadIdx.x + 128] = s[threadIdx.x * 4 % 128];
}
