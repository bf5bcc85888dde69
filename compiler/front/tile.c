/* The checked tile's derived quantities: its element size, its
 * footprint, and what its accesses ask of every layout.  Every stage
 * after the checker reads a tile through these, so they live apart from
 * the checker that builds it. */
#include "bankc.h"

int64_t tile_elem_bytes(const Tile *t)
{
	return tab_dtype[t->dtype].bytes;
}

int tile_elem_bits(const Tile *t)
{
	return tab_dtype[t->dtype].bits;
}

bool tile_wgmma(const Tile *t)
{
	for (int j = 0; j < t->nacc; j++)
		if (t->acc[j].op.kind == OP_WGMMA)
			return true;
	return false;
}

bool tile_umma(const Tile *t)
{
	for (int j = 0; j < t->nacc; j++)
		if (t->acc[j].op.kind == OP_UMMA)
			return true;
	return false;
}

const Access *tile_mma(const Tile *t)
{
	for (int j = 0; j < t->nacc; j++)
		if (op_is_mma(t->acc[j].op))
			return &t->acc[j];
	return NULL;
}

bool tile_walks_stages(const Tile *t)
{
	if (t->stages == 1)
		return false;
	for (int j = 0; j < t->nacc; j++)
		for (int i = 0; i < t->acc[j].ninst; i++)
			for (int n = 0; n < WARP; n++)
				if ((t->acc[j].inst[i].mask >> n & 1) &&
				    t->acc[j].inst[i].lane[n].row >= t->rows)
					return true;
	return false;
}

/* Row-major footprint of all stages, each stage starting aligned: the
 * least any layout needs, so a tile over the limits has no layout. */
int64_t tile_bytes(const Tile *t)
{
	int64_t stage = (int64_t)t->rows * t->cols * tile_elem_bytes(t);
	int64_t step = (stage + t->align - 1) / t->align * t->align;
	return step * (t->stages - 1) + stage;
}

int tile_granule(const Tile *t)
{
	int g = (int)tile_elem_bytes(t);
	for (int j = 0; j < t->nacc; j++) {
		int b = (int)(t->acc[j].vec * tile_elem_bytes(t));
		if (b > g)
			g = b;
	}
	return g;
}
