// Attention forward as a minimal flash attention does it (the style of
// llm.c's attention_forward_kernel2): one block of Br = 32 threads owns
// 32 query rows of one head, a row each, and walks the keys in tiles of
// Bc = 32; head size d = 64.  Each key tile: every thread copies its row
// of K and V into shared memory (rows of 64 floats: the lanes of a warp on
// one bank), and its query row; computes its row of S = Q K^T / sqrt(d)
// into shared memory, its running maximum and sum, and then P V, updating
// its row of O, m and l in global memory.
//
// The program launches one block: a row of 32 queries against n = 8192
// keys (scan with --param 3=8192).  The per-tile pattern is the same for
// every tile, so the scan's totals at n are those at 32 plus (n / 32 - 1)
// tiles' (tests/run_scan_kernels.sh checks it).
#include "scan_kernel.cuh"

#define D 64
#define BC 32
#define BR 32

extern "C" __global__ void attention_row(const float *Q, const float *K, const float *V, int n,
                                         float scale, float *m, float *l, float *O)
{
	__shared__ float Qi[BR * D], Kj[BC * D], Vj[BC * D], S[BR * BC];
	const int tx = threadIdx.x;
	const int tc = n / BC;
	for (int j = 0; j < tc; j++) {
		for (int x = 0; x < D; x++) {
			Kj[tx * D + x] = K[(size_t)(j * BC + tx) * D + x];
			Vj[tx * D + x] = V[(size_t)(j * BC + tx) * D + x];
		}
		__syncthreads();
		for (int x = 0; x < D; x++)
			Qi[tx * D + x] = Q[tx * D + x];
		const float m_prev = m[tx], l_prev = l[tx];
		// S = Q K^T, its row maximum
		float row_m = -INFINITY;
		for (int y = 0; y < BC; y++) {
			float sum = 0;
			for (int x = 0; x < D; x++)
				sum += Qi[tx * D + x] * Kj[y * D + x];
			sum *= scale;
			S[BC * tx + y] = sum;
			row_m = fmaxf(row_m, sum);
		}
		// P = exp(S - row_m), its row sum
		float row_l = 0;
		for (int y = 0; y < BC; y++) {
			S[BC * tx + y] = __expf(S[BC * tx + y] - row_m);
			row_l += S[BC * tx + y];
		}
		const float m_new = fmaxf(m_prev, row_m);
		const float l_new = __expf(m_prev - m_new) * l_prev + __expf(row_m - m_new) * row_l;
		// O = (l_prev e^(m_prev - m_new) O + e^(row_m - m_new) P V) / l_new
		for (int x = 0; x < D; x++) {
			float pv = 0;
			for (int y = 0; y < BC; y++)
				pv += S[BC * tx + y] * Vj[y * D + x];
			O[tx * D + x] = (1 / l_new) * (l_prev * __expf(m_prev - m_new) * O[tx * D + x] +
			                               __expf(row_m - m_new) * pv);
		}
		m[tx] = m_new;
		l[tx] = l_new;
		__syncthreads();
	}
}

int main()
{
	const int n = 8192;
	float *Q = sk_alloc<float>(BR * D), *K = sk_alloc<float>((size_t)n * D);
	float *V = sk_alloc<float>((size_t)n * D), *O = sk_alloc<float>(BR * D);
	float *m = sk_alloc<float>(BR), *l = sk_alloc<float>(BR);
	attention_row<<<1, BR>>>(Q, K, V, n, 0.125f, m, l, O);
	return sk_done("attention");
}
