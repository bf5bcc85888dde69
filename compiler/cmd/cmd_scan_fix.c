/* bankc scan's fixes: each shared array with excess wavefronts has its
 * spec written in memory (scan_spec_write, what --emit-spec writes),
 * checked by the front end and solved by the same search as `bankc
 * compare`, all its statements together, weighted by how often each ran.
 * The best layout, and the best padding where it reaches the same total,
 * are proven on the scan's own records (scan_fix_prove) and put in the
 * source's terms: a declaration and its diff, an index expression, a
 * CuTe swizzle, the header bankc build writes.  A fix whose proven total
 * differs from the solve's is not shown: the note says why.  Here rather
 * than in scan/ because scan may not call the front end or the solver. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "scan/scan.h"
#include "cmd/cmd.h"
#include "model/model.h"
#include "solve/solve.h"

#include <jansson.h>

enum { MAX_FIX_STMTS = 64 };     /* a tile's accesses (the spec language's limit) */

/* The array's spec, checked and solved (families: 0 for all). */
static bool solve_spec(const char *text, size_t len, const Geom *g, unsigned families,
                       Pool *p, Unit *u, Solution *s, char *why, size_t nwhy)
{
	Src src = {"<spec of the array>", text, len};
	char *dt = NULL;
	size_t dl = 0;
	FILE *diag = xmemstream(&dt, &dl);
	bool ok = frontend_run(p, diag, &src, u) && u->ntiles == 1;
	fclose(diag);
	if (!ok) {
		snprintf(why, nwhy, "its spec does not check (%.*s)", (int)strcspn(dt ? dt : "",
		         "\n"), dt ? dt : "");
		free(dt);
		return false;
	}
	free(dt);
	SolveOpts o = {.top = 1, .families = families};
	solve_tile(&u->tiles[0], g, &o, s);
	if (!s->found) {
		snprintf(why, nwhy, "no layout of bankc's holds it");
		return false;
	}
	return true;
}

/* An expression as an operand: parenthesized unless a name or a number. */
static void operand(const char *e, char *buf, size_t n)
{
	bool simple = *e != 0;
	for (const char *p = e; *p; p++)
		simple &= isalnum((unsigned char)*p) || *p == '_';
	snprintf(buf, n, simple ? "%s" : "(%s)", e);
}

/* The stored column of (r, c) for a layout that keeps every element in its
 * row, as an expression of r and c; false for one that moves rows. */
static bool col_expr(const Layout *l, const Tile *t, const char *r0, const char *c0,
                     char *buf, size_t n)
{
	char r[160], c[160];
	operand(r0, r, sizeof r);
	operand(c0, c, sizeof c);
	int E = (int)tile_elem_bytes(t), lgE = log2_floor(E);
	if (l->swap || l->pitch != t->cols)
		return false;
	if (l->kind == L_SKEW) {
		int chunks = t->cols / l->gran;
		if (l->gran == 1)
			snprintf(buf, n, "(%s + %d * %s) %% %d", c, l->skew, r, chunks);
		else
			snprintf(buf, n, "((%s / %d + %d * %s) %% %d) * %d + %s %% %d", c, l->gran, l->skew,
			         r, chunks, l->gran, c, l->gran);
		return true;
	}
	if (l->kind == L_SWIZZLE && l->boxes == 1) {
		int64_t rowb = (int64_t)t->cols * E;
		if (!is_pow2(rowb) || l->M < lgE)
			return false;
		int k = log2_floor(rowb);
		if (l->M + l->B > k || l->M + l->S < k)
			return false;
		char rs[200], ms[240] = "";
		int sh = l->M + l->S - k, up = l->M - lgE;
		if (sh)
			snprintf(rs, sizeof rs, "(%s >> %d)", r, sh);
		else
			snprintf(rs, sizeof rs, "%s", r);
		snprintf(ms, sizeof ms, "%s & %d", rs, (1 << l->B) - 1);
		if (up)
			snprintf(buf, n, "%s ^ ((%s) << %d)", c, ms, up);
		else
			snprintf(buf, n, "%s ^ (%s)", c, ms);
		return true;
	}
	if (l->kind == L_XOR && layout_xor_cols(l) == t->cols) {
		/* the chunk c / gran XOR the row bits' masks, as layout_c_expr */
		char x[1024] = "";
		int a, nb, b;
		if (layout_xor_shift(l, &a, &nb, &b))
			snprintf(x, sizeof x, "((%s >> %d) & %d) << %d", r, a, (1 << nb) - 1, b);
		for (int k = 0; !x[0] && k < l->nx; k++)
			if (l->x[k]) {
				for (int q = k; q < l->nx; q++)
					if (l->x[q]) {
						size_t m = strlen(x);
						snprintf(x + m, sizeof x - m, "%s((%s >> %d) & 1) * %u",
						         m ? " ^ " : "", r, q, l->x[q]);
					}
			}
		if (!x[0])
			return false;
		if (l->gran == 1)
			snprintf(buf, n, "%s ^ (%s)", c, x);
		else
			snprintf(buf, n, "((%s / %d) ^ (%s)) * %d + %s %% %d", c, l->gran, x, l->gran,
			         c, l->gran);
		return true;
	}
	return false;
}

/* A one-dimensional array NAME[I]: row I / C, column I % C of the view,
 * so I becomes I / C * C + the column; the note's form is in i. */
static void flat_exprs(ScanArray *a, const Tile *t)
{
	ScanFix *x = &a->fix;
	char r[300], c[300], ce[1024], op[200];
	snprintf(r, sizeof r, "i / %d", a->cols);
	snprintf(c, sizeof c, "i %% %d", a->cols);
	if (!col_expr(&x->l, t, r, c, ce, sizeof ce))
		return;
	snprintf(x->col_expr, sizeof x->col_expr, "i / %d * %d + (%s)", a->cols, a->cols, ce);
	for (int i = 0; i < a->nstmt; i++) {
		ScanStmt *st = &a->stmt[i];
		if (st->nindex != 1)
			continue;
		operand(st->index[0], op, sizeof op);
		snprintf(r, sizeof r, "%s / %d", op, a->cols);
		snprintf(c, sizeof c, "%s %% %d", op, a->cols);
		if (col_expr(&x->l, t, r, c, ce, sizeof ce))
			snprintf(st->rewrite, sizeof st->rewrite, "%s[%s / %d * %d + (%s)]", a->name, op,
			         a->cols, a->cols, ce);
	}
}

/* Blocks per SM by shared memory: the kernel's arrays, one grown by extra. */
static int blocks_with(const PtxModule *m, int kernel, const Tile *t, int64_t extra)
{
	int64_t bytes = extra;
	for (int i = 0; i < m->nsym; i++)
		if (m->sym[i].kind == SYM_SHARED && (m->sym[i].func < 0 || m->sym[i].func == kernel) &&
		    m->sym[i].size > 0)
			bytes += m->sym[i].size;
	return solve_blocks(t, bytes);
}

/* The declaration with its last dimension `pitch`: its text, its diff. */
static void pad_decl(ScanArray *a, int pitch)
{
	ScanFix *x = &a->fix;
	const ScanDecl *d = &a->decl;
	size_t o = (size_t)snprintf(x->pad_decl, sizeof x->pad_decl, "%s %s", d->type, a->name);
	for (int i = 0; i < d->ndims && o < sizeof x->pad_decl; i++)
		o += (size_t)snprintf(x->pad_decl + o, sizeof x->pad_decl - o, "[%lld]",
		                      (long long)(i + 1 < d->ndims ? d->dimv[i] : pitch));
	/* the new last dimension, in the declaration's own words */
	char dim[160], op[140];
	const char *old = d->dim[d->ndims - 1];
	bool digits = *old != 0;
	for (const char *p = old; *p; p++)
		digits &= isdigit((unsigned char)*p) != 0;
	operand(old, op, sizeof op);
	if (digits)
		snprintf(dim, sizeof dim, "%d", pitch);
	else
		snprintf(dim, sizeof dim, "%s + %d", op, pitch - a->cols);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = xmemstream(&buf, &len);
	fprintf(f, "--- %s\n+++ %s\n@@ -%d +%d @@\n-%s\n+%.*s%s%s\n", d->path, d->path, d->line,
	        d->line, d->text, d->dlo, d->text, dim, d->text + d->dhi);
	fclose(f);
	x->diff = buf;
}

/* The best padding, when it reaches the best layout's total. */
static void try_pad(const PtxModule *m, const ScanKernel *k, ScanArray *a, const char *text,
                    size_t len, const Geom *g)
{
	ScanFix *x = &a->fix;
	if (!a->view_decl || (x->l.kind == L_PAD && !x->l.swap && x->l.pitch == a->cols))
		return;
	/* proving the padding rewrites the statements' counts: keep the best's */
	int64_t *keep = xmalloc(((size_t)a->nstmt + 1) * sizeof *keep);
	for (int i = 0; i < a->nstmt; i++)
		keep[i] = a->stmt[i].after;
	Pool *p = pool_new();
	Unit u;
	Solution s = {0};
	char why[256];
	if (solve_spec(text, len, g, 1u << L_PAD, p, &u, &s, why, sizeof why) &&
	    s.best.l.kind == L_PAD && !s.best.l.swap && s.best.wave == x->after &&
	    scan_fix_prove(m, k, a, g, &s.best.l, &u.tiles[0]) == s.best.wave) {
		x->pad = true;
		x->pad_pitch = s.best.l.pitch;
		x->pad_after = s.best.wave;
		x->pad_bytes = s.best.bytes - tile_bytes(&u.tiles[0]);
		x->pad_blocks = blocks_with(m, k->kernel, &u.tiles[0], x->pad_bytes);
		pad_decl(a, s.best.l.pitch);
	}
	solve_free(&s);
	pool_free(p);
	for (int i = 0; i < a->nstmt; i++)
		a->stmt[i].after = keep[i];
	free(keep);
}

/* The fix of one array: solved, proven, said. */
static void fix_array(const PtxModule *m, const ScanKernel *k, const ScanCtx *c, ScanArray *a,
                      const Geom *g)
{
	ScanFix *x = &a->fix;
	int64_t loops = 0, loop_ideal = 0;
	for (int s = 0; s < a->nslot; s++)
		if (k->acc[a->slot[s]].loop) {
			loops += k->acc[a->slot[s]].loop_wave;
			loop_ideal += k->acc[a->slot[s]].loop_ideal;
		}
	if (!a->whole) {
		snprintf(x->why, sizeof x->why, "%s", a->partial ? "it ran more warp instructions "
		         "than a scan keeps" : "some of its instructions also reach outside it");
		return;
	}
	if (a->rows > MAX_DIM) {
		snprintf(x->why, sizeof x->why, "%d rows is beyond a tile's %d", a->rows, MAX_DIM);
		return;
	}
	/* a spec holds 64 accesses (one per statement): past that no solve,
	 * which also keeps the scan's time linear in its statements */
	if (a->nstmt > MAX_FIX_STMTS) {
		snprintf(x->why, sizeof x->why, "its %d statements are more than the %d accesses "
		         "of a tile", a->nstmt, MAX_FIX_STMTS);
		return;
	}
	char tname[600];
	scan_spec_tile_name(m, k, a, tname, sizeof tname);
	char *text = NULL;
	size_t len = 0;
	FILE *f = xmemstream(&text, &len);
	scan_spec_write(f, m, k, a, tname, c);
	fclose(f);
	Pool *p = pool_new();
	Unit u;
	Solution s = {0};
	if (solve_spec(text, len, g, 0, p, &u, &s, x->why, sizeof x->why)) {
		const Tile *t = &u.tiles[0];
		Layout rm = layout_rowmajor(t);
		int64_t before = scan_fix_prove(m, k, a, g, &rm, t);
		int64_t after = scan_fix_prove(m, k, a, g, &s.best.l, t);
		layout_describe(&s.best.l, t, x->layout, sizeof x->layout);
		if (before != a->wave + loops || s.lower_bound != a->ideal + loop_ideal)
			snprintf(x->why, sizeof x->why, "its spec does not reproduce the scan's counts "
			         "(%lld wavefronts, the scan's %lld)", (long long)before,
			         (long long)(a->wave + loops));
		else if (after != s.best.wave)
			snprintf(x->why, sizeof x->why, "the layout %s was not proven: its remapped "
			         "addresses take %lld wavefronts, the solve said %lld", x->layout,
			         (long long)after, (long long)s.best.wave);
		else if (after >= before)
			snprintf(x->why, sizeof x->why, "no layout of bankc's takes fewer wavefronts");
		else {
			x->shown = true;
			x->l = s.best.l;
			x->before = before;
			x->after = after;
			x->ideal = s.lower_bound;
			x->bound = s.aligned_bound > s.lower_bound ? s.aligned_bound : s.lower_bound;
			x->optimal = after == x->bound;
			x->bytes_before = tile_bytes(t);
			x->bytes_after = s.best.bytes;
			x->blocks_before = blocks_with(m, k->kernel, t, 0);
			x->blocks_after = blocks_with(m, k->kernel, t, s.best.bytes - x->bytes_before);
			snprintf(x->header, sizeof x->header, "%s", tname);
			emit_upper(x->macro, sizeof x->macro, tname);
			int E = (int)tile_elem_bytes(t);
			if (x->l.kind == L_SWIZZLE && !x->l.swap && x->l.boxes == 1 &&
			    x->l.M >= log2_floor(E))
				snprintf(x->cute, sizeof x->cute, "Swizzle<%d,%d,%d> on element offsets "
				         "(Swizzle<%d,%d,%d> on bytes)", x->l.B, x->l.M - log2_floor(E),
				         x->l.S, x->l.B, x->l.M, x->l.S);
			if (a->view_decl && col_expr(&x->l, t, "r", "c", x->col_expr, sizeof x->col_expr))
				for (int i = 0; i < a->nstmt; i++) {
					ScanStmt *st = &a->stmt[i];
					char ce[1024];
					if (st->nindex == 2 && a->decl.ndims == 2 &&
					    col_expr(&x->l, t, st->index[0], st->index[1], ce, sizeof ce))
						snprintf(st->rewrite, sizeof st->rewrite, "%s[%s][%s]", a->name,
						         st->index[0], ce);
				}
			if (a->flat)
				flat_exprs(a, t);
			try_pad(m, k, a, text, len, g);
		}
	}
	solve_free(&s);
	pool_free(p);
	free(text);
}

void cmd_scan_fixes(const PtxModule *m, const ScanKernel *k, const ScanCtx *c,
                    ScanArrays *as, const Geom *g)
{
	for (int i = 0; i < as->n; i++)
		if (as->a[i].wave > as->a[i].ideal)
			fix_array(m, k, c, &as->a[i], g);
}

void cmd_scan_fix_json(json_t *kernel, const PtxModule *m, const ScanKernel *k,
                       const ScanArrays *as)
{
	json_object_set_new(kernel, "arrays", scan_fix_json(as));
	/* each access names its array: the accesses are the slots that ran */
	json_t *acc = json_object_get(kernel, "accesses");
	size_t i = 0;
	for (int s = 0; s < m->nslots && acc; s++) {
		if (!k->acc[s].count)
			continue;
		const ScanArray *a = scan_array_of_slot(as, s);
		json_t *e = json_array_get(acc, i++);
		if (e)
			json_object_set_new(e, "array", a ? json_string(a->name) : json_null());
	}
}
