// bankc scan's test of a read of another block's shared memory (a
// cluster's distributed shared memory, through mapa): a note, not counted.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) dsmem(int* out)
{
	__shared__ int s[128];
	cg::cluster_group cl = cg::this_cluster();
	int t = threadIdx.x;
	s[t] = t;
	cl.sync();
	int* remote = cl.map_shared_rank(s, (cl.block_rank() + 1) % 2);
	out[t] = remote[(t * 2) % 128] + s[(t * 2) % 128];
	cl.sync();
}
