// wmma through shared memory: not counted, and said so (text and JSON).
#include <mma.h>
using namespace nvcuda;
__global__ void wm(const half *a, float *c) {
	__shared__ half s[16 * 16];
	s[threadIdx.x * 8] = a[threadIdx.x];
	__syncthreads();
	wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
	wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
	wmma::fill_fragment(acc, 0.0f);
	wmma::load_matrix_sync(fa, s, 16);
	wmma::load_matrix_sync(fb, s, 16);
	wmma::mma_sync(acc, fa, fb, acc);
	wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}
