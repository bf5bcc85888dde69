/* A proposed layout for a shared array, proven and said in the source's
 * terms.  The proof does not trust the spec: every address the scan
 * recorded for the array is remapped under the layout (element e of the
 * array's view, row e / C and column e % C, moved where the layout puts
 * it) and each warp instruction costed again by the bank model; a fix is
 * shown only when that total equals the solve's (cmd/cmd_scan_fix.c
 * solves, fills ScanFix and checks).
 *
 * A form says the layout in the array's own declared type and shape: a
 * padded declaration, or every subscript of the array rewritten (its
 * columns permuted, or the tile stored transposed), and the diff that
 * makes it.  A form is offered only where every access of the array is
 * an indexing it rewrites (scan_array.c's check of the records,
 * scan_decl.c's of the source); else it says what stops it.  Here too:
 * the notes printed after a warning, --fix's diffs, and the JSON. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "scan/scan.h"
#include "scan/scan_ctext.h"
#include "scan/scan_source.h"

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

/* ---- the forms ------------------------------------------------------------------- */

void scan_fix_form_free(ScanForm *f)
{
	for (int i = 0; i < f->nedit; i++)
		free(f->edit[i].before), free(f->edit[i].after);
	free(f->edit);
	free(f->diff);
	for (int i = 0; i < f->nrepl; i++)
		free(f->repl[i].text);
	free(f->repl);
	f->edit = NULL;
	f->diff = NULL;
	f->nedit = 0;
	f->repl = NULL;
	f->nrepl = 0;
}

static bool digits(const char *s)
{
	bool d = *s != 0;
	for (; *s; s++)
		d &= isdigit((unsigned char)*s) != 0;
	return d;
}

/* The text of a dimension grown by `by` elements, in its own words. */
static void grown(const char *dim, int64_t to, int64_t by, char *buf, size_t n)
{
	if (digits(dim) || !dim[0]) {
		text_put(buf, n, "%lld", (long long)to);
		return;
	}
	if (!by) {
		text_put(buf, n, "%s", dim);
		return;
	}
	char *op = xmalloc(strlen(dim) + 3);
	scan_say_operand(dim, op, strlen(dim) + 3);
	text_put(buf, n, "%s + %lld", op, (long long)by);
	free(op);
}

/* A subscript the rewrite would write more than once, that does
 * something (an increment, an assignment, a call): the text where it is,
 * or NULL. */
static bool side_effect(const CText *t, int a, int b)
{
	static const char *const ops[] = {"++", "--", "=", "+=", "-=", "*=", "/=", "%=",
	                                  "&=", "|=", "^=", "<<=", ">>="};
	for (int i = a; i < b; i++) {
		for (size_t k = 0; k < sizeof ops / sizeof *ops; k++)
			if (t->tok[i].kind == CT_PUNCT && ctok_is(t, i, ops[k]))
				return true;
		/* a call: a name and '(' (not sizeof, not a cast's keyword) */
		if (t->tok[i].kind == CT_ID && ctok_is(t, i + 1, "(") && !ctok_is(t, i, "sizeof") &&
		    !ctok_is(t, i, "static_cast") && !ctok_is(t, i, "int") &&
		    !ctok_is(t, i, "unsigned"))
			return true;
	}
	return false;
}

static void repl_tokens(const CText *t, int a, int b, const char *text, CRepl *r)
{
	r->off = t->tok[a].off;
	r->len = t->tok[b - 1].off + t->tok[b - 1].len - r->off;
	r->text = xstrdup(text);
}

static void sub_text(const CText *t, const COcc *o, int i, char *buf, size_t n)
{
	ctext_span(t, o->sub[i][0], o->sub[i][1], buf, n);
}

/* An occurrence whose subscripts are constants (sdata[0], t[3][5]): its
 * new place as numbers.  1 if it made r, 0 if the subscripts are not all
 * constants (or need no change), -1 never. */
static int const_subscripts(const CText *ct, const CDecl *src, const COcc *o,
                            const ScanSayMap *m, const ScanArray *a, int C, int64_t P,
                            CRepl *r)
{
	int64_t v[DECL_MAX_DIMS];
	CChoice ch = {0};
	for (int j = 0; j < o->nsub; j++) {
		size_t s = ct->tok[o->sub[j][0]].off;
		size_t e = ct->tok[o->sub[j][1] - 1].off + ct->tok[o->sub[j][1] - 1].len;
		if (o->sub[j][0] >= o->sub[j][1] ||
		    !ctext_eval(ct, ct->text + s, e - s, &src->bind, &ch, &v[j]) || ch.n || v[j] < 0)
			return 0;
	}
	char text[200], col[200], rr[32], cc[32];
	CBind b = {.name = {"r", "c"}, .n = 2};
	int64_t row, c;
	if (a->flat) {
		row = v[0] / C, c = v[0] % C;
	} else {
		row = v[0];
		for (int j = 1; j + 1 < o->nsub; j++)
			row = row * src->dimv[j] + v[j];
		c = v[o->nsub - 1];
	}
	int64_t sr = m->swap ? c : row, sc = m->swap ? row : c;
	b.value[0] = sr, b.value[1] = sc;
	snprintf(rr, sizeof rr, "r");
	snprintf(cc, sizeof cc, "c");
	scan_say_col(m, rr, cc, col, sizeof col);
	int64_t nc;
	if (!ctext_eval(NULL, col, strlen(col), &b, &ch, &nc))
		return 0;
	if (a->flat)
		snprintf(text, sizeof text, "%lld", (long long)(sr * P + nc));
	else if (m->swap)
		snprintf(text, sizeof text, "[%lld][%lld]", (long long)sr, (long long)nc);
	else if (nc == c)
		return 0;
	else
		snprintf(text, sizeof text, "%lld", (long long)nc);
	if (a->flat) {
		r->off = ct->tok[o->sub[0][0]].off;
		r->len = ct->tok[o->sub[0][1] - 1].off + ct->tok[o->sub[0][1] - 1].len - r->off;
	} else if (m->swap) {
		r->off = ct->tok[o->sub[0][0] - 1].off;
		r->len = ct->tok[o->sub[1][1]].off + 1 - r->off;
	} else {
		int last = o->nsub - 1;
		r->off = ct->tok[o->sub[last][0]].off;
		r->len = ct->tok[o->sub[last][1] - 1].off + ct->tok[o->sub[last][1] - 1].len - r->off;
	}
	r->text = xstrdup(text);
	return 1;
}

bool scan_fix_form(ScanArray *a, const Layout *l, const Tile *t, bool pad, ScanForm *form)
{
	memset(form, 0, sizeof *form);
	form->l = *l;
	const ScanDecl *d = &a->decl;
	CDecl *src = d->src;
#define STOP(...) (text_put(form->stop, sizeof form->stop, __VA_ARGS__), false)
	if (!src)
		return STOP("%s", d->why[0] ? d->why : "its declaration was not found in the "
		            "sources bankc may read (the .cu, its folder, --source-dir)");
	if (!a->k)
		return STOP("its accesses are not in whole elements of its declared type '%s'",
		            d->type);
	ScanSayMap m;
	if (!scan_say_map(l, t, a->k, a->vec, &m) || !scan_say_check(&m, l, t, a->k))
		return STOP("the layout moves elements between rows or splits them: it has no "
		            "form in '%s' subscripts", d->type);
	bool resized = m.pitch != m.cols || m.swap;
	if (m.kind == SAY_SAME && !resized)
		return STOP("the layout is the declaration's own");
	if (pad != (m.kind == SAY_SAME && !m.swap))
		return STOP("not a padding");
	if (!a->view_decl && !a->flat)
		return STOP("its %d-dimensional declaration is not read as rows bankc can "
		            "rewrite", d->ndims);
	if (m.swap && (a->flat || d->ndims != 2))
		return STOP("only a two-dimensional array can be stored transposed");
	for (int i = 0; i < d->ndims; i++)
		if (d->dimv[i] <= 0 && !(d->is_extern && i == 0))
			return STOP("its dimension '%s' has no value bankc can be sure of", d->dim[i]);
	if (resized && d->is_extern)
		return STOP("its size is the launch's (extern __shared__): a padding needs "
		            "the launch to grow too");
	if (!pad && d->in_template)
		return STOP("its declaration serves every instance of the template: rewrite "
		            "the indices by hand for this instance");
	if (src->stop[0])
		return STOP("%s:%d: %s", d->path, src->stop_line, src->stop);
	if (a->reach[0])
		return STOP("%s", a->reach);
	/* an index rewritten (any form but a two-dimensional padding) */
	if (a->split[0] && (a->flat || m.kind != SAY_SAME || m.swap))
		return STOP("%s", a->split);
	/* the declaration and every occurrence */
	const CText *ct = src->t;
	for (int i = 0; i < src->nocc && (a->flat || m.kind != SAY_SAME || m.swap); i++)
		for (int j = 0; j < src->occ[i].nsub; j++)
			if (side_effect(ct, src->occ[i].sub[j][0], src->occ[i].sub[j][1])) {
				char sub[200];
				ctext_span(ct, src->occ[i].sub[j][0], src->occ[i].sub[j][1], sub, sizeof sub);
				return STOP("%s:%d: its subscript '%s' does something (an increment, an "
				            "assignment, a call) that the rewritten index would do "
				            "more than once: give it a variable first",
				            d->path, src->occ[i].line, esc_shown(sub));
			}
	if (a->kept[0] && (a->flat || m.kind != SAY_SAME || m.swap))
		return STOP("%s", a->kept);
	char buf[2048], s0[1200], s1[1200], col[1600], dt[DECL_MAX_DIMS][1024];
	for (int i = 0; i < d->ndims; i++)     /* each dimension's whole text */
		ctext_span(ct, src->dims[i][0], src->dims[i][1], dt[i], sizeof dt[i]);
	int C = m.swap ? m.rows : m.cols;      /* declared columns */
	int64_t P = m.pitch;
	/* a one-dimensional array: its rows of C, the last one perhaps short */
	int64_t N = a->flat ? (d->dimv[0] > 0 ? d->dimv[0] : a->bytes / a->elem) : 0;
	int64_t rows = a->flat ? (N + C - 1) / C : 0, N2 = resized ? rows * P : N;
	if (a->flat) {
		scan_say_flat(&m, "i", buf, sizeof buf);
		text_put(form->index, sizeof form->index, "%s[%s]", a->name, buf);
		if (!scan_say_check_flat(&m, l, t, N, N2))
			return STOP("the layout moves elements of its last row, of %lld elements not "
			            "a whole row of %d, past the array's end", (long long)(N % C), C);
		form->extra_bytes = (N2 - N) * (a->k * a->elem);
	} else if (m.swap) {
		scan_say_col(&m, "c", "r", col, sizeof col);
		text_put(form->index, sizeof form->index, "%s[c][%s]", a->name, col);
	} else if (m.kind != SAY_SAME) {
		scan_say_col(&m, "r", "c", col, sizeof col);
		text_put(form->index, sizeof form->index, "%s[r][%s]", a->name, col);
	}
	CRepl *r = xcalloc((size_t)src->nocc + 2, sizeof *r);
	int nr = 0;
	if (resized) {
		if (a->flat) {
			if (digits(dt[0]) || !dt[0][0])
				text_put(s0, sizeof s0, "%lld", (long long)N2);
			else if (N % C == 0)
				text_put(s0, sizeof s0, "(%s) / %d * %lld", dt[0], C, (long long)P);
			else
				text_put(s0, sizeof s0, "((%s) + %d) / %d * %lld", dt[0], C - 1, C,
				         (long long)P);
			repl_tokens(ct, src->dims[0][0], src->dims[0][1], s0, &r[nr++]);
		} else if (m.swap) {
			/* [R][C] -> [C][R + pad] */
			grown(dt[0], P, P - d->dimv[0], s1, sizeof s1);
			text_put(buf, sizeof buf, "[%s][%s]", dt[1], s1);
			CRepl *x = &r[nr++];
			x->off = ct->tok[src->dims[0][0] - 1].off;
			x->len = ct->tok[src->dims[1][1]].off + 1 - x->off;
			x->text = xstrdup(buf);
		} else {
			int last = d->ndims - 1;
			grown(dt[last], P, P - d->dimv[last], s0, sizeof s0);
			repl_tokens(ct, src->dims[last][0], src->dims[last][1], s0, &r[nr++]);
		}
		/* the declaration as the note says it */
		text_put(form->decl, sizeof form->decl, "%s %s", d->type, a->name);
		for (int i = 0; i < d->ndims; i++) {
			int64_t v = m.swap ? (i == 0 ? d->dimv[1] : P) :
			            i + 1 < d->ndims ? d->dimv[i] : a->flat ? N2 : P;
			size_t o = strlen(form->decl);
			text_put(form->decl + o, sizeof form->decl - o, "[%lld]", (long long)v);
		}
	}
	form->transposed = m.swap;
	for (int i = 0; i < src->nocc; i++) {
		const COcc *o = &src->occ[i];
		if (o->kind == OCC_SIZEOF)
			continue;
		if (const_subscripts(ct, src, o, &m, a, C, P, &r[nr]) > 0) {
			nr++;
			continue;
		}
		if (a->flat) {
			if (P == C && m.kind == SAY_SAME)
				continue;
			sub_text(ct, o, 0, s0, sizeof s0);
			scan_say_flat(&m, s0, buf, sizeof buf);
			repl_tokens(ct, o->sub[0][0], o->sub[0][1], buf, &r[nr++]);
		} else if (m.swap) {
			sub_text(ct, o, 0, s0, sizeof s0);
			sub_text(ct, o, 1, s1, sizeof s1);
			scan_say_col(&m, s1, s0, col, sizeof col);
			text_put(buf, sizeof buf, "[%s][%s]", s1, col);
			CRepl *x = &r[nr++];
			x->off = ct->tok[o->sub[0][0] - 1].off;
			x->len = ct->tok[o->sub[1][1]].off + 1 - x->off;
			x->text = xstrdup(buf);
		} else if (m.kind != SAY_SAME) {
			/* the row: the subscripts before the last, one after another */
			int last = d->ndims - 1;
			sub_text(ct, o, 0, s0, sizeof s0);
			for (int j = 1; j < last; j++) {
				char sj[600], op0[620], opj[620];
				sub_text(ct, o, j, sj, sizeof sj);
				scan_say_operand(s0, op0, sizeof op0);
				scan_say_operand(sj, opj, sizeof opj);
				text_put(s0, sizeof s0, "%s * %lld + %s", op0, (long long)d->dimv[j], opj);
			}
			sub_text(ct, o, last, s1, sizeof s1);
			scan_say_col(&m, s0, s1, col, sizeof col);
			repl_tokens(ct, o->sub[last][0], o->sub[last][1], col, &r[nr++]);
		}
	}
	char why[200];
	bool ok = crewrite_apply(ct, r, nr, &form->edit, &form->nedit, &form->diff, why, sizeof why);
	if (!ok) {
		for (int i = 0; i < nr; i++)
			free(r[i].text);
		free(r);
		return STOP("%s", why);
	}
	/* kept (a replacement by the same text was dropped: its text NULL) */
	form->src = ct;
	form->repl = r;
	for (int i = 0; i < nr; i++)
		if (r[i].text)
			r[form->nrepl++] = r[i];
	form->ok = true;
	return true;
#undef STOP
}

/* ---- the notes ------------------------------------------------------------------ */

ScanArray *scan_array_of_slot(const ScanArrays *as, int slot)
{
	if (!as || !as->of_slot || slot < 0 || as->of_slot[slot] < 0)
		return NULL;
	return &as->a[as->of_slot[slot]];
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
	scan_show_source(f, d->text, strlen(d->text), d->col);
}

static void show_text(FILE *f, const char *s)
{
	char buf[2048];
	fputs(scan_escape(s, buf, sizeof buf), f);
}

/* The places a form changes, each line as it becomes. */
static void show_edits(FILE *f, const ScanForm *x)
{
	for (int i = 0; i < x->nedit; i++) {
		const char *s = x->edit[i].after;
		while (*s == ' ' || *s == '\t')
			s++;
		fprintf(f, "    %-44s ", x->edit[i].where);
		/* the first line of it, cut where it is long */
		char line[400];
		snprintf(line, sizeof line, "%.*s%s", (int)strcspn(s, "\n"), s,
		         strchr(s, '\n') ? " ..." : "");
		show_text(f, line);
		fputc('\n', f);
	}
}

/* The form --fix prints: the padding where it reaches the best (it
 * changes no index, so ptxas's code stays as it is), else the rewrite,
 * else a padding that helps less. */
static const ScanForm *applied(const ScanFix *x)
{
	if (x->pad.ok && x->pad.diff && x->pad.after == x->after)
		return &x->pad;
	if (x->index.ok && x->index.diff)
		return &x->index;
	if (x->pad.ok && x->pad.diff)
		return &x->pad;
	return NULL;
}

static void print_fix(FILE *f, const ScanArray *a, const char *at)
{
	const ScanFix *x = &a->fix;
	char n[32];
	snprintf(n, sizeof n, a->nstmt == 1 ? "its statement" : "its %d statements together",
	         a->nstmt);
	const char *how = x->data ? "fitted to the addresses of the --data given" :
	                  "proven: its recorded addresses remapped and costed again";
	fprintf(f, "%s: note: '%s' takes %lld wavefronts per block, ideal %lld; the best "
	        "layout bankc finds for %s, %s, takes %lld, %s (%s)\n", at, a->name,
	        (long long)x->before, (long long)x->ideal, n, x->layout, (long long)x->after,
	        x->optimal ? "the lower bound (optimal)" : "above the lower bound", how);
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
	if (x->data)
		fprintf(f, "    (on %d inputs made by shuffling the --data given, it saves wavefronts "
		        "on %d)\n", x->data_tries, x->data_helped);
	if (x->unsaid[0])
		fprintf(f, "    (%s)\n", esc_shown(x->unsaid));
	const ScanForm *ap = applied(x);
	const char *e = ap ? "; bankc scan --fix prints the diff" : "";
	if (x->pad.ok)
		fprintf(f, "%s: note: padding %s (%lld wavefronts): declare %s (%+lld "
		        "bytes; blocks per SM by shared memory: %d -> %d)%s\n", at,
		        x->pad.after == x->after ? "reaches it" : "helps", (long long)x->pad.after,
		        esc_shown(x->pad.decl), (long long)x->pad.extra_bytes, x->blocks_before,
		        x->pad.blocks,
		        ap == &x->pad ? e : "");
	const ScanForm *ix = &x->index;
	if (ix->ok || (ix->stop[0] && !x->pad.ok) || x->cute[0]) {
		const char *lay = ix->ok ? ix->layout : x->layout;
		fprintf(f, "%s: note: %s%s (", at, x->pad.ok ? "or " : "", lay);
		if (ix->ok && ix->after != x->after)
			fprintf(f, "%lld wavefronts, ", (long long)ix->after);
		fprintf(f, "%+lld bytes; blocks per SM by shared memory: %d -> %d)",
		        (long long)(ix->ok ? ix->extra_bytes : 0), x->blocks_before,
		        ix->ok ? ix->blocks : x->blocks_before);
		if (ix->ok && ix->transposed)
			fprintf(f, ": declare %s and index %s[r][c] as %s%s\n", esc_shown(ix->decl),
			        a->name, esc_shown(ix->index), ap == ix ? e : "");
		else if (ix->ok && a->flat)
			fprintf(f, ": index %s[i] as %s%s\n", a->name, esc_shown(ix->index),
			        ap == ix ? e : "");
		else if (ix->ok)
			fprintf(f, ": index %s[r][c] as %s%s\n", a->name, esc_shown(ix->index),
			        ap == ix ? e : "");
		else
			fprintf(f, "\n");
		if (ix->ok)
			show_edits(f, ix);
		if (ix->ok && a->vector)
			fprintf(f, "    (counted with the vector accesses ptxas makes of its scalar ones "
			        "now, kept by the index above; scan the edited kernel again)\n");
		if (!ix->ok && ix->stop[0])
			fprintf(f, "    (no rewrite of its indices: %s)\n", esc_shown(ix->stop));
		if (x->cute[0])
			fprintf(f, "    in CuTe: %s\n", x->cute);
	}
	/* a padding that would help, refused for a reason of its own: why
	 * (else the note is silent on it) */
	if (!x->pad.ok && x->pad.stop[0] && strcmp(x->pad.stop, ix->stop) != 0)
		fprintf(f, "    (no padding: %s)\n", esc_shown(x->pad.stop));
	if (!ap && (x->pad.ok || ix->ok))
		fprintf(f, "    (no diff: %s)\n", esc_shown(x->pad.ok ? x->pad.stop : ix->stop));
	if (x->header_use[0])
		fprintf(f, "    through bankc build: the spec --emit-spec writes (%s.tile) built, "
		        "#include \"%s.cuh\",\n    %s\n", x->header, x->header, esc_shown(x->header_use));
	else
		fprintf(f, "    through bankc build: the spec --emit-spec writes (%s.tile) built "
		        "(its header indexes %d-byte units, not '%s' elements)\n", x->header, a->elem,
		        a->decl.found ? esc_shown(a->decl.type) : "the array's");
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
			char shown[1024];
			snprintf(at, sizeof at, "%s:%d:%d", scan_escape(a->decl.path, shown, sizeof shown),
			         a->decl.line, a->decl.col);
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

/* Byte o of t as a line (from 1, lines ending at LF, as the diff counts
 * them) and a column in code points (from 1). */
static void text_pos(const CText *t, size_t o, int *line, int *col)
{
	int l = 1;
	size_t start = 0;
	for (size_t i = 0; i < o && i < t->len; i++)
		if (t->text[i] == '\n')
			l++, start = i + 1;
	*line = l;
	*col = diag_cp_col(t->text + start, t->len - start, (int)(o - start) + 1);
}

void scan_fix_sarif(int rec, const ScanAcc **g, int n, const ScanCtx *c)
{
	if (rec < 0)
		return;
	bool fixed = false;     /* one fix a result */
	for (int i = 0; i < n; i++) {
		const ScanArray *a = array_of(c, g[i]);
		if (!a)
			continue;
		if (a->decl.found) {
			char *msg = diag_format("'%s' (%lld byte%s) is declared here", a->name,
			                        (long long)a->bytes, text_plural(a->bytes));
			diag_record_related(rec, a->decl.path, a->decl.line, a->decl.col, a->decl.text,
			                    strlen(a->decl.text), msg);
			free(msg);
		}
		/* the fix --fix prints as a diff: the same replacements */
		const ScanForm *ap = a->fix.shown && !fixed ? applied(&a->fix) : NULL;
		if (!ap || !ap->src || !ap->nrepl)
			continue;
		fixed = true;
		char *desc = ap == &a->fix.pad ?
			diag_format("Declare %s: the layout bankc proves best for '%s' (%s), %lld "
			            "wavefronts per block instead of %lld", ap->decl, a->name, a->kernel,
			            (long long)ap->after, (long long)a->fix.before) :
			diag_format("Index '%s' (%s) as %s: %s, %lld wavefronts per block instead "
			            "of %lld", a->name, a->kernel, ap->index, ap->layout,
			            (long long)ap->after, (long long)a->fix.before);
		diag_record_fix(rec, desc, ap->src->path);
		free(desc);
		for (int k = 0; k < ap->nrepl; k++) {
			const CRepl *r = &ap->repl[k];
			int l0, c0, l1, c1;
			text_pos(ap->src, r->off, &l0, &c0);
			text_pos(ap->src, r->off + r->len, &l1, &c1);
			diag_record_repl(rec, l0, c0, l1, c1, r->text);
		}
	}
}

/* One source file's replacements, and whose they are. */
typedef struct {
	const CText *src;
	CRepl *r;
	int n, cap;
	char **whose;           /* "'name' (kernel)" of each replacement */
} FileDiff;

struct ScanDiffs {
	FileDiff *f;
	int n;
};

ScanDiffs *scan_diffs_new(void)
{
	return xcalloc(1, sizeof(ScanDiffs));
}

static FileDiff *file_of(ScanDiffs *d, const CText *src)
{
	for (int i = 0; i < d->n; i++)
		if (d->f[i].src == src)
			return &d->f[i];
	d->f = xrealloc(d->f, (size_t)(d->n + 1) * sizeof *d->f);
	FileDiff *f = &d->f[d->n++];
	memset(f, 0, sizeof *f);
	f->src = src;
	return f;
}

static bool repl_same(const CRepl *a, const CRepl *b)
{
	return a->off == b->off && a->len == b->len && strcmp(a->text, b->text) == 0;
}

/* Add a form's replacements to its file's, unless one changes text that
 * an earlier fix changes differently (an index inside another array's
 * subscript): then none, and *with says whose.  The same replacement
 * twice (an array two kernels share, fixed alike) is one. */
static bool file_add(FileDiff *f, const ScanForm *x, const char *who, const char **with)
{
	for (int i = 0; i < x->nrepl; i++)
		for (int j = 0; j < f->n; j++) {
			const CRepl *a = &x->repl[i], *b = &f->r[j];
			if (repl_same(a, b))
				continue;
			if (a->off < b->off + b->len && b->off < a->off + a->len) {
				*with = f->whose[j];
				return false;
			}
		}
	for (int i = 0; i < x->nrepl; i++) {
		bool dup = false;
		for (int j = 0; j < f->n && !dup; j++)
			dup = repl_same(&x->repl[i], &f->r[j]);
		if (dup)
			continue;
		if (f->n == f->cap) {
			f->cap = f->cap ? 2 * f->cap : 16;
			f->r = xrealloc(f->r, (size_t)f->cap * sizeof *f->r);
			f->whose = xrealloc(f->whose, (size_t)f->cap * sizeof *f->whose);
		}
		f->r[f->n] = x->repl[i];
		f->r[f->n].text = xstrdup(x->repl[i].text);
		f->whose[f->n++] = xstrdup(who);
	}
	return true;
}

static void fix_where(const ScanArray *a, char *where, size_t n)
{
	if (a->decl.found) {
		char shown[1024];
		snprintf(where, n, "%s:%d:%d", scan_escape(a->decl.path, shown, sizeof shown),
		         a->decl.line, a->decl.col);
	} else {
		snprintf(where, n, "%s", a->stmt[0].where);
	}
}

int scan_diffs_add(ScanDiffs *d, FILE *err, const ScanArrays *as)
{
	int n = 0;
	for (int i = 0; as && i < as->n; i++) {
		const ScanArray *a = &as->a[i];
		if (!a->fix.shown)
			continue;
		char where[1100];
		fix_where(a, where, sizeof where);
		const ScanForm *ap = applied(&a->fix);
		if (ap && ap->src) {
			char who[600];
			const char *with = NULL;
			snprintf(who, sizeof who, "'%s' (%s)", a->name, a->kernel);
			if (file_add(file_of(d, ap->src), ap, who, &with))
				n++;
			else
				fprintf(err, "%s: note: --fix: no diff for %s: it changes text that the "
				        "fix of %s changes too; apply the diff, then scan again\n", where,
				        who, with);
			continue;
		}
		const char *why = a->fix.pad.stop[0] && !a->fix.index.stop[0] ? a->fix.pad.stop :
		                  a->fix.index.stop;
		fprintf(err, "%s: note: --fix: no diff for '%s' (%s): %s; apply the layout %s by "
		        "hand\n", where, a->name, a->kernel, why[0] ? esc_shown(why) : "no form of it "
		        "in the source", a->fix.layout);
	}
	return n;
}

int scan_diffs_print(ScanDiffs *d, FILE *out, FILE *err)
{
	int n = 0;
	for (int i = 0; d && i < d->n; i++) {
		FileDiff *f = &d->f[i];
		if (!f->n)
			continue;
		ScanEdit *ed;
		int ned;
		char *diff, why[200];
		/* each alone made a diff, and none overlaps: together they do */
		if (crewrite_apply(f->src, f->r, f->n, &ed, &ned, &diff, why, sizeof why)) {
			fputs(diff, out);
			n++;
			for (int k = 0; k < ned; k++)
				free(ed[k].before), free(ed[k].after);
			free(ed);
			free(diff);
		} else {
			char shown[1024];
			fprintf(err, "%s: note: --fix: no diff: %s\n", scan_escape(f->src->path, shown,
			        sizeof shown), why);
		}
		for (int k = 0; k < f->n; k++)
			free(f->r[k].text), free(f->whose[k]);
		free(f->r);
		free(f->whose);
	}
	if (d)
		free(d->f);
	free(d);
	return n;
}

/* ---- JSON ------------------------------------------------------------------------- */

static json_t *form_json(const ScanForm *x)
{
	if (!x->ok)
		return x->stop[0] ? json_pack("{s:s}", "stopped", x->stop) : NULL;
	json_t *o = json_pack("{s:s,s:I,s:I,s:i,s:b}", "layout", x->layout, "after",
	                      (json_int_t)x->after, "extra_bytes", (json_int_t)x->extra_bytes,
	                      "blocks_after", x->blocks, "transposed", x->transposed);
	if (x->decl[0])
		json_object_set_new(o, "declaration", json_string(x->decl));
	if (x->index[0])
		json_object_set_new(o, "index", json_string(x->index));
	json_t *ed = json_array();
	for (int i = 0; i < x->nedit; i++)
		json_array_append_new(ed, json_pack("{s:s,s:s,s:s}", "where", x->edit[i].where,
		                      "before", x->edit[i].before, "after", x->edit[i].after));
	json_object_set_new(o, "edits", ed);
	json_object_set_new(o, "diff", x->diff ? json_string(x->diff) : json_null());
	if (x->stop[0])
		json_object_set_new(o, "stopped", json_string(x->stop));
	return o;
}

json_t *scan_fix_json(const ScanArrays *as)
{
	json_t *arr = json_array();
	for (int i = 0; as && i < as->n; i++) {
		const ScanArray *a = &as->a[i];
		const ScanFix *x = &a->fix;
		json_t *o = json_pack("{s:s,s:s,s:I,s:s,s:i,s:i,s:i,s:b,s:I,s:I}", "name", a->name,
		                      "kernel", a->kernel, "bytes", (json_int_t)a->bytes, "dtype",
		                      tab_dtype[a->dtype].name, "unit_bytes", a->elem, "rows", a->rows,
		                      "cols", a->cols, "view_from_declaration", a->view_decl,
		                      "wavefronts", (json_int_t)a->wave, "ideal", (json_int_t)a->ideal);
		if (a->decl.found)
			json_object_set_new(o, "declared", json_pack("{s:s,s:i,s:i,s:s,s:s,s:i}", "file",
			                    a->decl.path, "line", a->decl.line, "col", a->decl.col,
			                    "text", a->decl.text, "type", a->decl.type, "type_bytes",
			                    a->decl.type_bytes));
		else if (a->decl.why[0])
			json_object_set_new(o, "not_declared", json_string(a->decl.why));
		if (a->reach[0])
			json_object_set_new(o, "reached_otherwise", json_string(a->reach));
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
			json_t *fx = json_pack("{s:s,s:I,s:I,s:I,s:I,s:b,s:i,s:b}", "layout",
			                       x->layout, "before", (json_int_t)x->before, "after",
			                       (json_int_t)x->after, "lower_bound", (json_int_t)x->ideal,
			                       "aligned_bound", (json_int_t)x->bound, "optimal",
			                       x->optimal, "blocks_before", x->blocks_before, "proven",
			                       !x->data);
			if (x->data)
				json_object_set_new(fx, "data", json_pack("{s:i,s:i}", "shuffled_inputs",
				                    x->data_tries, "helped", x->data_helped));
			if (x->cute[0])
				json_object_set_new(fx, "cute", json_string(x->cute));
			json_object_set_new(fx, "header", json_string(x->header));
			if (x->unsaid[0])
				json_object_set_new(fx, "unsaid", json_string(x->unsaid));
			json_t *p = form_json(&x->pad), *ix = form_json(&x->index);
			if (p)
				json_object_set_new(fx, "padding", p);
			if (ix)
				json_object_set_new(fx, "rewrite", ix);
			const ScanForm *ap = applied(x);
			json_object_set_new(fx, "applied", json_string(ap == &x->pad ? "padding" :
			                    ap == &x->index ? "rewrite" : "none"));
			json_object_set_new(o, "fix", fx);
		} else if (x->why[0]) {
			json_object_set_new(o, "no_fix", json_string(x->why));
		}
		json_array_append_new(arr, o);
	}
	return arr;
}
