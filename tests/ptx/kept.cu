// bankc scan's test of index rewrites where a use of the array issues no
// shared-memory access in the launch scanned (tests/run_scan.sh):
//   - kept_register: the compiler keeps the stored values in registers
//     and reads none back from t, so the read line has no shared access
//     at all; an index rewrite could make it load them, so none is
//     offered (a note says which use);
//   - kept_untaken: the read at the `if` is a shared load the launch does
//     not take (--param n=0); the rewrite covers it too.
// The stride of 32 floats puts a warp's rows on one bank either way.
extern "C" __global__ void kept_register(const float* in, float* out, int off)
{
	__shared__ float t[1024];
	int x = threadIdx.x;
#pragma unroll
	for (int c = 0; c < 32; c++)
		t[x * 32 + c + off] = in[c * 32 + x];
	float s = 0;
#pragma unroll
	for (int c = 0; c < 32; c++)
		s += t[x * 32 + c + off] * (c + 1);
	out[x] = s;
}

extern "C" __global__ void kept_untaken(const float* in, float* out, int n)
{
	__shared__ float t[1024];
	int x = threadIdx.x;
	for (int r = 0; r < 32; r++)
		t[r * 32 + x] = in[r * 32 + x];
	__syncthreads();
	float s = 0;
#pragma unroll 1
	for (int c = 0; c < 32; c++)
		s += t[x * 32 + c];
	if (n > 1000)
		s += t[x * 32 + n % 32];
	out[x] = s;
}
