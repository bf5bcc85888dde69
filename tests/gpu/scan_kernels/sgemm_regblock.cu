// A register-blocked SGEMM (2-D block tiling, the kind many tutorials
// build up to): a 128 x 128 block tile, k-tiles of 8, 256 threads of
// 8 x 8 results each.  Each k-tile, every thread loads a float4 of A and
// stores it transposed into As[k][m] (four scalar stores), a float4 of B
// into Bs[k][n], and for each of the 8 k reads 8 consecutive floats of
// As and of Bs (scalar loads that ptxas merges into 16-byte ones).
//
// The program launches one block of the real problem, M = N = 128 of a
// K = 4096 product (each block of a 4096^3 SGEMM runs this k loop):
// scan with --param 2=4096.  Its per-trip pattern is the same at every K,
// so the scan's totals at K are those at 8 plus (K / 8 - 1) trips'
// (tests/run_scan_kernels.sh checks it).
#include "scan_kernel.cuh"

#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8

extern "C" __global__ void sgemm_regblock(int M, int N, int K, const float *A, const float *B,
                                          float *C)
{
	__shared__ float As[BK][BM];
	__shared__ float Bs[BK][BN];
	const int tid = threadIdx.x;
	const int ty = tid / (BN / TN), tx = tid % (BN / TN);
	// which float4 of the k-tile this thread copies
	const int ar = tid / (BK / 4), ac = tid % (BK / 4) * 4;
	const int br = tid / (BN / 4), bc = tid % (BN / 4) * 4;
	const float *a = A + (size_t)blockIdx.y * BM * K;
	const float *b = B + (size_t)blockIdx.x * BN;
	float acc[TM][TN] = {};
	float rm[TM], rn[TN];
	for (int k0 = 0; k0 < K; k0 += BK) {
		const float4 va = *reinterpret_cast<const float4 *>(&a[(size_t)ar * K + k0 + ac]);
		As[ac + 0][ar] = va.x;
		As[ac + 1][ar] = va.y;
		As[ac + 2][ar] = va.z;
		As[ac + 3][ar] = va.w;
		*reinterpret_cast<float4 *>(&Bs[br][bc]) =
			*reinterpret_cast<const float4 *>(&b[(size_t)(k0 + br) * N + bc]);
		__syncthreads();
#pragma unroll
		for (int k = 0; k < BK; k++) {
#pragma unroll
			for (int i = 0; i < TM; i++)
				rm[i] = As[k][ty * TM + i];
#pragma unroll
			for (int j = 0; j < TN; j++)
				rn[j] = Bs[k][tx * TN + j];
#pragma unroll
			for (int i = 0; i < TM; i++)
#pragma unroll
				for (int j = 0; j < TN; j++)
					acc[i][j] += rm[i] * rn[j];
		}
		__syncthreads();
	}
	float *c = C + ((size_t)blockIdx.y * BM + ty * TM) * N + blockIdx.x * BN + tx * TN;
#pragma unroll
	for (int i = 0; i < TM; i++)
#pragma unroll
		for (int j = 0; j < TN; j++)
			c[(size_t)i * N + j] = acc[i][j];
}

int main()
{
	const int M = BM, N = BN, K = 4096;
	float *A = sk_alloc<float>((size_t)M * K), *B = sk_alloc<float>((size_t)K * N);
	float *C = sk_alloc<float>((size_t)M * N);
	sgemm_regblock<<<1, (BM / TM) * (BN / TN)>>>(M, N, K, A, B, C);
	return sk_done("sgemm_regblock");
}
