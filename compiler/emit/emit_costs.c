/* Every warp instruction's cost under the chosen layout, row-major and
 * any other layouts asked for (the baselines'), simulated once for the
 * check program's tables, the picture's totals and the report's
 * baselines, which simulated a tile at the limits eight times over
 * (two tiles of 262144 instructions: 4 million simulations a file).
 * Each instruction is read once for all the layouts: at the limits the
 * instructions are 157 MB, and a pass per layout waited on memory. */
#include <stdlib.h>

#include "bankc.h"

void emit_costs(EmitCosts *c, const Geom *g, const Tile *t, const Solution *s,
                const Layout *extra, int nextra)
{
	size_t n = 0;
	for (int j = 0; j < t->nacc; j++)
		n += (size_t)t->acc[j].ninst;
	*c = (EmitCosts){0};
	c->wave = xcalloc(n + 1, sizeof *c->wave);
	c->ideal = xcalloc(n + 1, sizeof *c->ideal);
	c->wave_rm = xcalloc(n + 1, sizeof *c->wave_rm);
	c->ideal_rm = xcalloc(n + 1, sizeof *c->ideal_rm);
	/* the check's row-major is r * COLS + c through all the rows: stages
	 * packed, which the tile's alignment may not give */
	bool walks = tile_walks_stages(t);
	Tile packed = *t;
	packed.align = (int)tile_elem_bytes(t);
	c->wave_packed = walks ? xcalloc(n + 1, sizeof *c->wave_packed) : c->wave_rm;
	c->nextra = nextra < EMIT_MAX_EXTRA ? nextra : EMIT_MAX_EXTRA;
	for (int x = 0; x < c->nextra; x++) {
		c->extra[x] = extra[x];
		c->wave_extra[x] = xcalloc(n + 1, sizeof *c->wave_extra[x]);
	}
	Layout rm = layout_rowmajor(t);
	size_t k = 0;
	for (int j = 0; j < t->nacc; j++)
		for (int i = 0; i < t->acc[j].ninst; i++, k++) {
			const Access *a = &t->acc[j];
			const Inst *in = &a->inst[i];
			SimResult r;
			layout_sim_inst(g, &s->best.l, t, a, in, &r);
			c->wave[k] = r.wavefronts;
			c->ideal[k] = r.ideal;
			layout_sim_inst(g, &rm, t, a, in, &r);
			c->wave_rm[k] = r.wavefronts;
			c->ideal_rm[k] = r.ideal;
			if (walks) {
				layout_sim_inst(g, &rm, &packed, a, in, &r);
				c->wave_packed[k] = r.wavefronts;
			}
			for (int x = 0; x < c->nextra; x++) {
				layout_sim_inst(g, &c->extra[x], t, a, in, &r);
				c->wave_extra[x][k] = r.wavefronts;
			}
		}
}

void emit_costs_free(EmitCosts *c)
{
	if (c->wave_packed != c->wave_rm)
		free(c->wave_packed);
	free(c->wave);
	free(c->ideal);
	free(c->wave_rm);
	free(c->ideal_rm);
	for (int x = 0; x < c->nextra; x++)
		free(c->wave_extra[x]);
	*c = (EmitCosts){0};
}

void emit_costs_check_only(EmitCosts *c)
{
	free(c->ideal);
	free(c->ideal_rm);
	c->ideal = c->ideal_rm = NULL;
	if (c->wave_packed != c->wave_rm) {
		free(c->wave_rm);
		c->wave_rm = NULL;
	}
	for (int x = 0; x < c->nextra; x++)
		free(c->wave_extra[x]);
	c->nextra = 0;
}
