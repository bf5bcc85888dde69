// fix_run: a kernel of tests/fix/ and its fixed version, run on the GPU.
//
//     fix_run cmp BEFORE.ptx AFTER.ptx KERNEL BLOCK [DATA]
//         loads both modules, runs KERNEL (its PTX name) of each once, one
//         block of BLOCK (X[,Y,Z]) threads, on the same input (DATA's
//         bytes, else bytes of a fixed pseudo-random sequence) and a
//         zeroed output; prints "same" when the outputs agree byte for
//         byte, else the first byte that differs, and fails.
//     fix_run one AFTER.ptx KERNEL BLOCK [DATA]
//         one launch of AFTER's KERNEL alone: what Nsight Compute counts.
//
// Every kernel of tests/fix/ takes (const T *in, T *out); both buffers
// are 1 MiB, more than any of them reads or writes.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda.h>

#define CK(x)                                                                       \
	do {                                                                            \
		CUresult r_ = (x);                                                          \
		if (r_ != CUDA_SUCCESS) {                                                   \
			const char *s_ = "";                                                    \
			cuGetErrorString(r_, &s_);                                              \
			std::fprintf(stderr, "fix_run: %s: %s\n", #x, s_);                      \
			std::exit(1);                                                           \
		}                                                                           \
	} while (0)

enum { BYTES = 1 << 20 };

static std::vector<char> slurp(const char *path)
{
	std::vector<char> b;
	FILE *f = std::fopen(path, "rb");
	if (!f) {
		std::perror(path);
		std::exit(1);
	}
	char buf[65536];
	size_t n;
	while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
		b.insert(b.end(), buf, buf + n);
	std::fclose(f);
	return b;
}

static std::vector<unsigned char> run(const char *ptx, const char *kernel, const unsigned blk[3],
                                      const std::vector<unsigned char> &in)
{
	std::vector<char> text = slurp(ptx);
	text.push_back(0);
	CUmodule mod;
	CUfunction fn;
	CK(cuModuleLoadData(&mod, text.data()));
	CK(cuModuleGetFunction(&fn, mod, kernel));
	CUdeviceptr din, dout;
	CK(cuMemAlloc(&din, BYTES));
	CK(cuMemAlloc(&dout, BYTES));
	CK(cuMemcpyHtoD(din, in.data(), BYTES));
	CK(cuMemsetD8(dout, 0, BYTES));
	void *args[] = {&din, &dout};
	CK(cuLaunchKernel(fn, 1, 1, 1, blk[0], blk[1], blk[2], 0, 0, args, 0));
	CK(cuCtxSynchronize());
	std::vector<unsigned char> out(BYTES);
	CK(cuMemcpyDtoH(out.data(), dout, BYTES));
	CK(cuMemFree(din));
	CK(cuMemFree(dout));
	CK(cuModuleUnload(mod));
	return out;
}

int main(int argc, char **argv)
{
	bool cmp = argc >= 6 && std::strcmp(argv[1], "cmp") == 0;
	bool one = argc >= 5 && std::strcmp(argv[1], "one") == 0;
	if (!cmp && !one) {
		std::fprintf(stderr, "usage: fix_run cmp BEFORE.ptx AFTER.ptx KERNEL BLOCK [DATA]\n"
		                     "       fix_run one AFTER.ptx KERNEL BLOCK [DATA]\n");
		return 2;
	}
	int a = cmp ? 4 : 3;
	const char *kernel = argv[a], *data = argc > a + 2 ? argv[a + 2] : nullptr;
	unsigned blk[3] = {1, 1, 1};
	std::sscanf(argv[a + 1], "%u,%u,%u", &blk[0], &blk[1], &blk[2]);
	std::vector<unsigned char> in(BYTES);
	uint64_t x = 0x9e3779b97f4a7c15ull;
	for (auto &b : in) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		b = (unsigned char)x;
	}
	if (data) {
		std::vector<char> d = slurp(data);
		std::memcpy(in.data(), d.data(), d.size() < in.size() ? d.size() : in.size());
	}
	CK(cuInit(0));
	CUdevice dev;
	CUcontext ctx;
	CK(cuDeviceGet(&dev, 0));
	CK(cuDevicePrimaryCtxRetain(&ctx, dev));
	CK(cuCtxSetCurrent(ctx));
	if (one) {
		run(argv[2], kernel, blk, in);
		std::printf("ran\n");
		return 0;
	}
	std::vector<unsigned char> before = run(argv[2], kernel, blk, in);
	std::vector<unsigned char> after = run(argv[3], kernel, blk, in);
	for (size_t i = 0; i < before.size(); i++)
		if (before[i] != after[i]) {
			std::printf("DIFFERENT at byte %zu: %u before, %u after\n", i, before[i], after[i]);
			return 1;
		}
	std::printf("same\n");
	return 0;
}
