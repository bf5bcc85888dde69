/* Layouts: the map from a logical (row, col) to a byte address in the
 * tile's shared memory.  The solver chooses among them; everything that
 * costs an access goes through layout_inst_addrs. */
#include <stdlib.h>

#include "bankc.h"

Layout layout_rowmajor(const Tile *t)
{
	return (Layout){L_ROWMAJOR, t->cols};
}

const char *layout_name(const Layout *l)
{
	switch (l->kind) {
	case L_ROWMAJOR: return "row-major";
	}
	return "?";
}

int64_t layout_offset(const Layout *l, const Tile *t, int r, int c)
{
	(void)t;
	return (int64_t)r * l->pitch + c;
}

void layout_inst_addrs(const Layout *l, const Tile *t, const Inst *in,
                       int64_t addr[WARP])
{
	int64_t es = tile_elem_bytes(t);
	for (int n = 0; n < WARP; n++)
		addr[n] = in->mask >> n & 1
		        ? layout_offset(l, t, in->lane[n].row, in->lane[n].col) * es
		        : 0;
}

void layout_sim_inst(const Geom *g, const Layout *l, const Tile *t,
                     const Access *a, const Inst *in, SimResult *r)
{
	int64_t addr[WARP];
	const char *err;
	layout_inst_addrs(l, t, in, addr);
	int bytes = (int)(a->vec * tile_elem_bytes(t));
	/* the checker has made every vector aligned and the op's width legal */
	if (!sim_inst(g, a->op, bytes, in->mask, addr, r, &err)) {
		fprintf(stderr, "bankc: internal error: %s\n", err);
		abort();
	}
}
