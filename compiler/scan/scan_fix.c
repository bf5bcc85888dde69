/* A proposed layout for a shared array, proven and said in the source's
 * terms.  The proof does not trust the spec: every address the scan
 * recorded for the array is remapped under the layout (element e of the
 * array's view, row e / C and column e % C, moved where the layout puts
 * it) and each warp instruction costed again by the bank model; a fix is
 * shown only when that total equals the solve's (cmd/cmd_scan_fix.c
 * solves, fills ScanFix and checks).  Here too: the notes printed after
 * a warning, the unified diff of a padded declaration (--fix), and the
 * JSON of the arrays. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "scan/scan.h"

int64_t scan_fix_prove(const PtxModule *m, const ScanKernel *k, ScanArray *a,
                       const Geom *g, const Layout *l, const Tile *t)
{
	(void)m;
	int64_t total = 0, lo = a->base, hi = a->base + a->bytes;
	for (int s = 0; s < a->nstmt; s++) {
		ScanStmt *st = &a->stmt[s];
		st->after = 0;
		for (int q = st->first; q < st->first + st->n; q++) {
			const ScanAcc *x = &k->acc[a->slot[q]];
			for (int64_t j = 0; j < x->nkept; j++) {
				const int64_t *addr = x->addrs + j * WARP;
				Inst in = {.mask = 0, .weight = 1};
				int64_t rem[WARP] = {0}, moved[WARP];
				for (int n = 0; n < WARP; n++) {
					if (!(x->masks[j] >> n & 1) || addr[n] < lo || addr[n] >= hi)
						continue;
					int64_t e = (addr[n] - lo) / a->elem;
					rem[n] = (addr[n] - lo) % a->elem;
					in.mask |= 1u << n;
					in.lane[n] = (Coord){(int32_t)(e / a->cols), (int32_t)(e % a->cols)};
				}
				layout_inst_addrs(l, t, &in, moved);
				for (int n = 0; n < WARP; n++)
					moved[n] = in.mask >> n & 1 ? lo + moved[n] + rem[n] : addr[n];
				SimResult r;
				const char *err;
				if (!sim_inst(g, x->op, x->bytes, x->masks[j], moved, &r, &err))
					return -1;
				/* each distinct warp instruction as often as it ran */
				st->after += r.wavefronts * x->kcount[j];
				if (x->loop) {
					if (!sim_inst(g, (Op){.kind = OP_LOAD}, x->bytes, x->masks[j], moved, &r,
					              &err))
						return -1;
					st->after += r.wavefronts * x->kcount[j];
				}
			}
		}
		total += st->after;
	}
	return total;
}

/* ---- the notes ------------------------------------------------------------------ */

ScanArray *scan_array_of_slot(const ScanArrays *as, int slot)
{
	for (int i = 0; as && i < as->n; i++)
		for (int j = 0; j < as->a[i].nslot; j++)
			if (as->a[i].slot[j] == slot)
				return &as->a[i];
	return NULL;
}


static const ScanArray *array_of(const ScanCtx *c, const ScanAcc *acc)
{
	if (!c->arrays || !c->arrays->k)
		return NULL;
	return scan_array_of_slot(c->arrays, (int)(acc - c->arrays->k->acc));
}

void scan_fix_label(const ScanCtx *c, const ScanAcc *acc, char *buf, size_t n)
{
	const ScanArray *a = array_of(c, acc);
	if (a)
		snprintf(buf, n, " of '%s' (%s)", a->name, a->kernel);
	else
		buf[0] = 0;
}

/* The line of a declaration, with a caret under its name. */
static void show_decl(FILE *f, const ScanDecl *d)
{
	fprintf(f, "    %s\n    ", d->text);
	for (int i = 1; i < d->col && d->text[i - 1]; i++)
		fputc(d->text[i - 1] == '\t' ? '\t' : ' ', f);
	fputs("^\n", f);
}

static void print_fix(FILE *f, const ScanArray *a, const char *at)
{
	const ScanFix *x = &a->fix;
	char n[32];
	snprintf(n, sizeof n, a->nstmt == 1 ? "its statement" : "its %d statements together",
	         a->nstmt);
	fprintf(f, "%s: note: '%s' takes %lld wavefronts per block, ideal %lld; the best "
	        "layout bankc finds for %s, %s, takes %lld, %s (proven: its recorded "
	        "addresses remapped and costed again)\n", at, a->name, (long long)x->before,
	        (long long)x->ideal, n, x->layout, (long long)x->after, x->optimal ? "the lower bound (optimal)"
	        : "above the lower bound");
	if (x->bound != x->ideal)
		fprintf(f, "    (the lower bound knowing the vectors' alignment: %lld)\n",
		        (long long)x->bound);
	for (int s = 0; s < a->nstmt; s++) {
		const ScanStmt *st = &a->stmt[s];
		fprintf(f, "    %-44s %-8s %8lld -> %lld wavefronts (%lld instruction%s)\n", st->where,
		        st->op, (long long)st->wave, (long long)st->after, (long long)st->count,
		        st->count == 1 ? "" : "s");
	}
	fprintf(f, "    %-44s %-8s %8lld -> %lld wavefronts\n", "total", "", (long long)x->before,
	        (long long)x->after);
	if (x->pad)
		fprintf(f, "%s: note: padding reaches it (%lld wavefronts): declare %s (%+lld "
		        "bytes; blocks per SM by shared memory: %d -> %d)%s\n", at,
		        (long long)x->pad_after, x->pad_decl, (long long)x->pad_bytes,
		        x->blocks_before, x->pad_blocks, x->diff ? "; bankc scan --fix prints "
		        "the diff" : "");
	if (x->l.kind == L_PAD && !x->l.swap)
		return;
	fprintf(f, "%s: note: %s%s (%+lld bytes; blocks per SM by shared memory: %d -> %d)", at,
	        x->pad ? "or " : "", x->layout, (long long)(x->bytes_after - x->bytes_before),
	        x->blocks_before, x->blocks_after);
	if (x->col_expr[0] && a->flat) {
		fprintf(f, ": index %s[i] as %s[%s]\n", a->name, a->name, x->col_expr);
		for (int s = 0; s < a->nstmt; s++)
			if (a->stmt[s].rewrite[0])
				fprintf(f, "    %-44s %s\n", a->stmt[s].where, a->stmt[s].rewrite);
	} else if (x->col_expr[0]) {
		fprintf(f, ": index %s[r][c] as %s[r][%s]\n", a->name, a->name, x->col_expr);
		for (int s = 0; s < a->nstmt; s++)
			if (a->stmt[s].rewrite[0])
				fprintf(f, "    %-44s %s\n", a->stmt[s].where, a->stmt[s].rewrite);
	} else {
		fprintf(f, "\n");
	}
	if (x->col_expr[0] && a->vector)
		fprintf(f, "    (counted with the vector accesses ptxas makes of its scalar ones now; "
		        "an index it cannot prove\n    contiguous splits them: scan the edited "
		        "kernel again)\n");
	if (x->cute[0])
		fprintf(f, "    in CuTe: %s\n", x->cute);
	char size[96];
	if (a->decl.found && a->decl.type_bytes == a->elem)
		snprintf(size, sizeof size, "sizeof(%s)", a->decl.type);
	else
		snprintf(size, sizeof size, "%d", a->elem);
	fprintf(f, "    through bankc build: the spec --emit-spec writes (%s.tile) built, "
	        "#include \"%s.cuh\",\n    declare %s %s[%s_BYTES / %s] and index it "
	        "%s[%s_IDX(r, c)]\n", x->header, x->header, a->decl.found ? a->decl.type : "T",
	        a->name, x->macro, size, a->name, x->macro);
}

void scan_fix_after_warning(FILE *f, const PtxModule *m, const ScanAcc **g, int n,
                            const ScanCtx *c)
{
	(void)m;
	for (int i = 0; i < n; i++) {
		ScanArray *a = (ScanArray *)array_of(c, g[i]);
		if (!a || a->noted)
			continue;
		a->noted = true;
		char at[1100];
		if (a->decl.found) {
			snprintf(at, sizeof at, "%s:%d:%d", a->decl.path, a->decl.line, a->decl.col);
			fprintf(f, "%s: note: '%s' (%lld byte%s) is declared here\n", at, a->name,
			        (long long)a->bytes, text_plural(a->bytes));
			show_decl(f, &a->decl);
		} else {
			snprintf(at, sizeof at, "%s", a->stmt[0].where);
		}
		if (a->fix.shown)
			print_fix(f, a, at);
		else if (a->fix.why[0])
			fprintf(f, "%s: note: no fix proposed for '%s': %s\n", at, a->name, a->fix.why);
	}
}

void scan_fix_print_diffs(FILE *f, const ScanArrays *as)
{
	for (int i = 0; as && i < as->n; i++)
		if (as->a[i].fix.shown && as->a[i].fix.diff)
			fputs(as->a[i].fix.diff, f);
}

/* ---- JSON ------------------------------------------------------------------------- */

json_t *scan_fix_json(const ScanArrays *as)
{
	json_t *arr = json_array();
	for (int i = 0; as && i < as->n; i++) {
		const ScanArray *a = &as->a[i];
		const ScanFix *x = &a->fix;
		json_t *o = json_pack("{s:s,s:s,s:I,s:s,s:i,s:i,s:b,s:I,s:I}", "name", a->name,
		                      "kernel", a->kernel, "bytes", (json_int_t)a->bytes, "dtype",
		                      tab_dtype[a->dtype].name, "rows", a->rows, "cols", a->cols,
		                      "view_from_declaration", a->view_decl, "wavefronts",
		                      (json_int_t)a->wave, "ideal", (json_int_t)a->ideal);
		if (a->decl.found)
			json_object_set_new(o, "declared", json_pack("{s:s,s:i,s:i,s:s}", "file",
			                    a->decl.path, "line", a->decl.line, "col", a->decl.col,
			                    "text", a->decl.text));
		json_t *stmts = json_array();
		for (int s = 0; s < a->nstmt; s++) {
			const ScanStmt *st = &a->stmt[s];
			json_t *e = json_pack("{s:s,s:I,s:I}", "where", st->where, "instructions",
			                      (json_int_t)st->count, "before", (json_int_t)st->wave);
			if (x->shown)
				json_object_set_new(e, "after", json_integer(st->after));
			json_array_append_new(stmts, e);
		}
		json_object_set_new(o, "statements", stmts);
		if (x->shown) {
			json_t *fx = json_pack("{s:s,s:I,s:I,s:I,s:I,s:b,s:I,s:i,s:i}", "layout",
			                       x->layout, "before", (json_int_t)x->before, "after",
			                       (json_int_t)x->after, "lower_bound", (json_int_t)x->ideal,
			                       "aligned_bound", (json_int_t)x->bound, "optimal",
			                       x->optimal, "extra_bytes",
			                       (json_int_t)(x->bytes_after - x->bytes_before),
			                       "blocks_before", x->blocks_before, "blocks_after",
			                       x->blocks_after);
			if (x->col_expr[0])
				json_object_set_new(fx, "column", json_string(x->col_expr));
			if (x->cute[0])
				json_object_set_new(fx, "cute", json_string(x->cute));
			json_object_set_new(fx, "header", json_string(x->header));
			if (x->pad) {
				json_t *p = json_pack("{s:s,s:i,s:I,s:I,s:i}", "declaration", x->pad_decl,
				                      "pitch", x->pad_pitch, "after", (json_int_t)x->pad_after,
				                      "extra_bytes", (json_int_t)x->pad_bytes, "blocks_after",
				                      x->pad_blocks);
				json_object_set_new(p, "diff", x->diff ? json_string(x->diff) : json_null());
				json_object_set_new(fx, "padding", p);
			}
			json_object_set_new(o, "fix", fx);
		} else if (x->why[0]) {
			json_object_set_new(o, "no_fix", json_string(x->why));
		}
		json_array_append_new(arr, o);
	}
	return arr;
}
