/* libFuzzer harness over the whole pipeline: spec text is parsed and
 * checked; every tile that passes is searched (where small enough), and
 * its header, check program, picture and report are emitted into memory.
 * Any crash, sanitizer report, leak or hang is a bug. */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bankc.h"

/* Searches bigger than this would make the fuzzer slow, not find bugs. */
#define FUZZ_WORK (64.0 * 1024 * 1024)

static FILE *sink;

/* A ranking beyond the first is exact, so it prunes less: it is
 * exercised on small tiles only, where it stays quick.  A small search
 * budget keeps each input fast and exercises the budget's end too. */
static void emit_all(const Tile *t, const Src *src, double insts)
{
	SolveOpts o = {.top = insts <= 64 ? 2 : 1, .budget = 1 << 16};
	Solution s;
	const Geom *g = &sim_geom_default;
	solve_tile(t, g, &o, &s);
	if (s.found) {
		emit_header(sink, g, t, &s, src->name);
		EmitCosts c;
		emit_costs(&c, g, t, &s, NULL, 0);
		emit_check(sink, t, &s.best.l, &c);
		emit_svg(sink, g, t, &s, &c);
		emit_costs_free(&c);
		Baseline b[MAX_BASELINES];
		int nb = baseline_all(t, g, s.budget, b);
		json_t *j = report_solution(t, &s, b, nb);
		json_dumpf(j, sink, JSON_INDENT(2) | JSON_SORT_KEYS);
		json_decref(j);
	}
	solve_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!sink)
		sink = fopen("/dev/null", "w");
	if (size > 1 << 16)
		return 0;
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	Src src = {"fuzz.tile", text, size};
	Pool *p = pool_new();
	Unit u;
	if (frontend_run(p, sink, &src, &u)) {
		dump_text(sink, &u);
		dump_json(sink, &u);
		for (int i = 0; i < u.ntiles; i++) {
			const Tile *t = &u.tiles[i];
			double insts = 0;
			for (int j = 0; j < t->nacc; j++)
				insts += t->acc[j].ninst;
			if (insts * 20000 <= FUZZ_WORK)
				emit_all(t, &src, insts);
		}
	}
	pool_free(p);
	free(text);
	return 0;
}
