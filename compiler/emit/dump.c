/* The checked tiles printed back: as canonical spec text (every default
 * spelled out, so the dump parses back to the same dump) and as JSON. */
#include <jansson.h>

#include "bankc.h"
#include "front/front.h"

static const char *const xf_names[] = {"pad", "skew", "swap", "swizzle"};

static void dump_access(FILE *f, const Access *a)
{
	char op[32];
	tab_op_name(a->op, op, sizeof op);
	if (a->place == PL_MMA) {
		fprintf(f, "    access %s: %s major %s", a->name, op,
		        a->op.mn_major ? "mn" : "k");
		if (a->op.kind == OP_UMMA)
			fprintf(f, " cta_group %d", a->op.cta_group);
		fprintf(f, " weight %lld;\n", (long long)a->weight);
		return;
	}
	fprintf(f, "    access %s: %s vec %d weight %lld", a->name, op, a->evec,
	        (long long)a->weight);
	if (a->place != PL_GENERAL) {
		fprintf(f, " along %s;\n", a->place == PL_ROW ? "row" : "col");
		return;
	}
	fputs(" {\n", f);
	for (int i = 0; i < a->nloops; i++) {
		fprintf(f, "%s%s in ", i ? ", " : "        for ", a->loops[i].name);
		expr_print(f, a->loops[i].lo, a);
		fputs("..", f);
		expr_print(f, a->loops[i].hi, a);
	}
	if (a->nloops)
		fputs(";\n", f);
	/* tables, then lets in their order: each uses only what is above it */
	for (int i = 0; i < a->ntables; i++) {
		const Table *t = &a->tables[i];
		fprintf(f, "        table %s = {", t->name);
		for (int k = 0; k < t->n; k++)
			fprintf(f, "%s%lld", k == 0 ? "" : k % 16 ? ", " : ",\n            ",
			        (long long)t->v[k]);
		fputs("};\n", f);
	}
	for (int i = 0; i < a->nlets; i++) {
		fprintf(f, "        let %s = ", a->lets[i].name);
		expr_print(f, a->lets[i].e, a);
		fputs(";\n", f);
	}
	const Expr *ex[6] = {a->row, a->col, a->idx, a->active, a->weight_e,
		a->stage_e};
	const char *lhs[6] = {"row", "col", "idx", "active", "weight", "stage"};
	for (int i = 0; i < 6; i++) {
		if (!ex[i])
			continue;
		fprintf(f, "        %s = ", lhs[i]);
		expr_print(f, ex[i], a);
		fputs(";\n", f);
	}
	fputs("    }\n", f);
}

void dump_text(FILE *f, const Unit *u)
{
	for (int i = 0; i < u->ntiles; i++) {
		const Tile *t = &u->tiles[i];
		fprintf(f, "%stile %s {\n", i ? "\n" : "", t->name);
		if (t->len)
			fprintf(f, "    shape %d;\n    stages %d;\n", t->elen, t->stages);
		else
			fprintf(f, "    shape %d x %d;\n    stages %d;\n", t->rows, t->ecols,
			        t->stages);
		fprintf(f, "    dtype %s;\n    arch %s;\n", tab_dtype[t->dtype].name,
		        tab_arch[t->arch].name);
		fputs("    allow", f);
		for (int b = 0; b < 4; b++)
			if (t->allow & (1u << b))
				fprintf(f, " %s", xf_names[b]);
		fputs(t->allow ? ";\n" : " none;\n", f);
		if (t->given & (1u << K_BUDGET))
			fprintf(f, "    budget %lld;\n", (long long)t->budget);
		fprintf(f, "    align %d;\n", t->align);
		if (t->tma)
			fprintf(f, "    tma %s;\n", t->tma == TMA_LOAD ? "load"
			        : t->tma == TMA_STORE ? "store" : "load store");
		if (t->threads)
			fprintf(f, "    threads %d;\n", t->threads);
		if (t->tradeoff)
			fprintf(f, "    tradeoff %lld;\n", (long long)t->tradeoff);
		for (int j = 0; j < t->nacc; j++)
			if (!t->acc[j].view)
				dump_access(f, &t->acc[j]);
		fputs("}\n", f);
		for (int k = 0; k < t->nviews; k++) {
			const View *v = &t->views[k];
			fprintf(f, "\nview %s of %s {\n", v->name, t->name);
			if (v->len)
				fprintf(f, "    shape %d;\n", v->len);
			else
				fprintf(f, "    shape %d x %d;\n", v->rows, v->cols);
			fprintf(f, "    dtype %s;\n", tab_dtype[v->dtype].name);
			for (int j = v->first; j < v->first + v->nacc; j++)
				dump_access(f, &t->acc[j]);
			fputs("}\n", f);
		}
	}
}

/* An expression as a JSON string, printed the canonical way. */
static json_t *expr_json(const Expr *e, const Access *a)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *m = xmemstream(&buf, &n);
	expr_print(m, e, a);
	fclose(m);
	json_t *s = json_string(buf);
	free(buf);
	return s;
}

static json_t *access_json(const Access *a)
{
	char op[32];
	tab_op_name(a->op, op, sizeof op);
	int lanes = 0;
	for (int k = 0; k < a->ninst; k++)
		lanes += __builtin_popcount(a->inst[k].mask);
	json_t *j = json_pack("{s:s, s:s, s:i, s:I, s:s, s:i, s:i}", "name",
	                      a->name, "op", op, "vec", a->evec, "weight",
	                      (json_int_t)a->weight, "placement",
	                      a->place == PL_ROW ? "row" :
	                      a->place == PL_COL ? "col" :
	                      a->place == PL_MMA ? (a->op.kind == OP_WGMMA ?
	                      "wgmma" : "umma") : "general",
	                      "instructions", a->ninst, "active_lanes", lanes);
	if (a->place == PL_MMA)
		json_object_set_new(j, "major", json_string(a->op.mn_major ? "mn" : "k"));
	if (a->op.kind == OP_UMMA)
		json_object_set_new(j, "cta_group", json_integer(a->op.cta_group));
	if (a->place == PL_GENERAL) {
		json_t *loops = json_array();
		for (int i = 0; i < a->nloops; i++)
			json_array_append_new(loops, json_pack("{s:s, s:o, s:o}", "var",
			                      a->loops[i].name, "from",
			                      expr_json(a->loops[i].lo, a), "to",
			                      expr_json(a->loops[i].hi, a)));
		json_object_set_new(j, "loops", loops);
		json_t *lets = json_array();
		for (int i = 0; i < a->nlets; i++)
			json_array_append_new(lets, json_pack("{s:s, s:o}", "name",
			                      a->lets[i].name, "value",
			                      expr_json(a->lets[i].e, a)));
		json_object_set_new(j, "lets", lets);
		json_t *tables = json_array();
		for (int i = 0; i < a->ntables; i++) {
			json_t *v = json_array();
			for (int k = 0; k < a->tables[i].n; k++)
				json_array_append_new(v, json_integer(a->tables[i].v[k]));
			json_array_append_new(tables, json_pack("{s:s, s:o}", "name",
			                      a->tables[i].name, "values", v));
		}
		json_object_set_new(j, "tables", tables);
		const Expr *ex[6] = {a->row, a->col, a->idx, a->active, a->weight_e,
			a->stage_e};
		const char *key[6] = {"row", "col", "idx", "active", "weight_expr",
			"stage"};
		for (int i = 0; i < 6; i++)
			if (ex[i])
				json_object_set_new(j, key[i], expr_json(ex[i], a));
	}
	return j;
}

json_t *dump_tile_json(const Tile *t)
{
	json_t *allow = json_array();
	for (int b = 0; b < 4; b++)
		if (t->allow & (1u << b))
			json_array_append_new(allow, json_string(xf_names[b]));
	json_t *acc = json_array();
	for (int j = 0; j < t->nacc; j++)
		json_array_append_new(acc, access_json(&t->acc[j]));
	json_t *o = json_pack("{s:s, s:i, s:i, s:i, s:s, s:I, s:s, s:o, s:i, "
	                      "s:b, s:I, s:o}", "name", t->name, "rows", t->rows,
	                      "cols", t->ecols, "stages", t->stages, "dtype",
	                      tab_dtype[t->dtype].name, "elem_bytes",
	                      (json_int_t)tile_elem_bytes(t), "arch",
	                      tab_arch[t->arch].name, "allow", allow, "align",
	                      t->align, "tma", t->tma, "bytes",
	                      (json_int_t)tile_bytes(t), "accesses", acc);
	json_t *views = json_array();
	for (int k = 0; k < t->nviews; k++) {
		const View *v = &t->views[k];
		json_t *va = json_array();
		for (int j = v->first; j < v->first + v->nacc; j++)
			json_array_append_new(va, json_string(t->acc[j].name));
		json_array_append_new(views, json_pack("{s:s, s:i, s:i, s:s, s:o}",
		                      "name", v->name, "rows", v->rows, "cols", v->cols,
		                      "dtype", tab_dtype[v->dtype].name, "accesses", va));
	}
	json_object_set_new(o, "views", views);
	if (t->given & (1u << K_BUDGET))
		json_object_set_new(o, "budget", json_integer(t->budget));
	if (t->threads)
		json_object_set_new(o, "threads", json_integer(t->threads));
	if (t->tradeoff)
		json_object_set_new(o, "tradeoff", json_integer(t->tradeoff));
	if (t->tma)
		json_object_set_new(o, "tma_direction", json_string(t->tma == TMA_LOAD
		                    ? "load" : t->tma == TMA_STORE ? "store"
		                    : "load store"));
	return o;
}

void dump_json(FILE *f, const Unit *u)
{
	json_t *tiles = json_array();
	for (int i = 0; i < u->ntiles; i++)
		json_array_append_new(tiles, dump_tile_json(&u->tiles[i]));
	report_write(f, report_doc(json_pack("{s:o, s:o}", "file",
	             report_string(u->src->name), "tiles", tiles)));
}
