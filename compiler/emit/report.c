/* The JSON documents bankc writes (docs/json.md), in one place: the
 * envelope every document starts with, and the parts several documents
 * share: the bank geometry, a layout's parameters, and a tile's solution
 * (compare --json's tiles, NAME.json's "solution").  Keys are sorted and
 * the text indented, so that outputs diff well and never depend on the
 * order a document was built in. */
#include <jansson.h>
#include <stdlib.h>

#include "bankc.h"

json_t *report_new(void)
{
	return json_pack("{s:i, s:s}", "schema", BANKC_JSON_SCHEMA, "bankc",
	                 BANKC_VERSION);
}

json_t *report_string(const char *s)
{
	char *u = esc_utf8(s);
	json_t *j = json_string(u);
	free(u);
	return j;
}

json_t *report_doc(json_t *body)
{
	json_t *root = report_new();
	/* json_pack gives NULL for a part it cannot make: never a document
	 * with parts missing (a user's text goes through report_string) */
	if (!body || json_object_update_new(root, body) != 0)
		internal_error("a JSON document with a part missing");
	return root;
}

void report_write(FILE *f, json_t *doc)
{
	json_dumpf(doc, f, JSON_INDENT(2) | JSON_SORT_KEYS);
	fputc('\n', f);
	json_decref(doc);
}

json_t *report_layout(const Layout *l, const Tile *t)
{
	json_t *p = json_pack("{s:b, s:i}", "swap", l->swap, "pitch", l->pitch);
	int64_t es = tile_elem_bytes(t);
	switch (l->kind) {
	case L_ROWMAJOR:
		break;
	case L_PAD:
		json_object_set_new(p, "pad", json_integer(l->pitch - l->scols));
		break;
	case L_SKEW:
		json_object_set_new(p, "skew", json_integer(l->skew));
		json_object_set_new(p, "chunk_bytes", json_integer(l->gran * es));
		break;
	case L_SWIZZLE:
		json_object_set_new(p, "B", json_integer(l->B));
		json_object_set_new(p, "M", json_integer(l->M));
		json_object_set_new(p, "S", json_integer(l->S));
		json_object_set_new(p, "boxes", json_integer(l->boxes));
		if (l->flip)
			json_object_set_new(p, "flip", json_true());
		break;
	case L_XOR: {
		json_t *x = json_array();
		for (int i = 0; i < l->nx; i++)
			json_array_append_new(x, json_integer(l->x[i]));
		json_object_set_new(p, "chunk_bytes", json_integer(l->gran * es));
		json_object_set_new(p, "row_bit_masks", x);
		json_object_set_new(p, "xor_cols", json_integer(layout_xor_cols(l)));
		break;
	}
	}
	return p;
}

static json_t *cand_json(const Tile *t, const Solution *s, const Cand *c)
{
	char name[160];
	layout_describe(&c->l, t, name, sizeof name);
	json_t *acc = json_array();
	for (int j = 0; j < t->nacc; j++)
		json_array_append_new(acc, json_pack("{s:s, s:I, s:I, s:I}", "name",
		                      t->acc[j].name, "wavefronts",
		                      (json_int_t)c->acc_wave[j], "ideal",
		                      (json_int_t)s->acc_ideal[j], "bound",
		                      (json_int_t)s->acc_bound[j]));
	return json_pack("{s:s, s:s, s:o, s:I, s:I, s:b, s:i, s:i, s:o}",
	                 "layout", layout_kind_name(&c->l), "describe", name,
	                 "params", report_layout(&c->l, t), "wavefronts",
	                 (json_int_t)c->wave, "footprint_bytes",
	                 (json_int_t)c->bytes, "optimal",
	                 c->wave == s->aligned_bound, "arith", c->arith,
	                 "blocks_per_sm", c->blocks, "accesses", acc);
}

/* A count that may pass 2^63: an integer where it fits, else a real. */
static json_t *count_json(SolveCount128 v)
{
	if (v <= (SolveCount128)INT64_MAX)
		return json_integer((json_int_t)v);
	return json_real((double)v);
}

/* A tcgen05.mma descriptor's fields (model/umma.c), as NAME.json's
 * "descriptor": the word for shared address 0, to which a sub-block's
 * (addr & 0x3FFFF) >> 4 is added. */
static json_t *umma_json(const UmmaDesc *d)
{
	static const char *const sw[] = {"none", "128B_BASE32B", "128B", "", "64B",
		"", "32B", ""};
	char bits[32];
	snprintf(bits, sizeof bits, "0x%016llx",
	         (unsigned long long)umma_desc_word(d, 0));
	return json_pack("{s:s, s:s, s:s, s:i, s:s, s:i, s:i, s:b, s:i, s:i, s:i, "
	                 "s:i, s:s}", "instruction", "tcgen05.mma", "operand",
	                 d->operand_b ? "b" : "a", "major", d->mn_major ? "mn" : "k",
	                 "layout_type", d->layout_type, "swizzle",
	                 sw[d->layout_type & 7], "lbo", d->lbo, "sbo", d->sbo,
	                 "lbo_used", d->lbo_used, "base_offset", d->base_offset,
	                 "version", 1, "cta_group", d->cta_group, "k", d->k_elems,
	                 "bits", bits);
}

json_t *report_solution(const Tile *t, const Solution *s,
                        const Baseline *b, int nb)
{
	json_t *cands = json_array();
	for (int i = 0; i < s->ntop; i++)
		json_array_append_new(cands, cand_json(t, s, &s->top[i]));
	json_t *bases = json_array();
	for (int i = 0; i < nb; i++) {
		json_t *o = b[i].legal ? cand_json(t, s, &b[i].c) : json_object();
		json_object_set_new(o, "name", json_string(b[i].name));
		json_object_set_new(o, "note", json_string(b[i].note));
		json_object_set_new(o, "legal", json_boolean(b[i].legal));
		json_array_append_new(bases, o);
	}
	json_t *o = json_pack("{s:s, s:I, s:I, s:i, s:o, s:o, s:{s:I, s:I, s:I, "
	                      "s:i, s:I, s:I, s:b, s:b, s:i, s:o, s:o}}", "name",
	                      t->name, "lower_bound", (json_int_t)s->lower_bound,
	                      "aligned_bound", (json_int_t)s->aligned_bound,
	                      "rowmajor_blocks_per_sm", s->blocks_rowmajor,
	                      "candidates", cands, "baselines", bases, "search",
	                      "costed", (json_int_t)s->evaluated, "cut",
	                      (json_int_t)s->cut, "illegal", (json_int_t)s->illegal,
	                      "instruction_classes", s->classes,
	                      "work", (json_int_t)s->work,
	                      "work_budget", (json_int_t)s->work_budget,
	                      "budget_reached", s->budget_reached,
	                      "not_proven_optimal", solve_unproven(s),
	                      "xor_row_bits", s->xor_bits,
	                      "xor_maps", count_json(s->xor_total),
	                      "xor_maps_searched", count_json(s->xor_searched));
	json_object_set_new(o, "chosen", s->found ? cand_json(t, s, &s->best)
	                                          : json_null());
	if (s->found && t->tma) {
		const char *mode = layout_tma_mode(&s->best.l);
		if (mode)
			json_object_set_new(o, "tma_swizzle", json_pack("s+",
			                    "CU_TENSOR_MAP_SWIZZLE_", mode));
	}
	UmmaDesc ud;
	const Layout *l = &s->best.l;
	if (s->found && tile_umma(t) &&
	    umma_tile_desc(t, l->B, l->M == 5, layout_stage_step(l, t) *
	                   tile_elem_bytes(t), &ud, NULL))
		json_object_set_new(o, "descriptor", umma_json(&ud));
	return o;
}

json_t *report_geometry(const Geom *g)
{
	return json_pack("{s:i, s:i, s:b}", "banks", g->banks, "bank_bytes",
	                 g->bank_bytes, "merge_loads", g->merge_loads);
}
