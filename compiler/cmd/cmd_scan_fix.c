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
                       int top, Pool *p, Unit *u, Solution *s, char *why, size_t nwhy)
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
	SolveOpts o = {.top = top, .families = families};
	solve_tile(&u->tiles[0], g, &o, s);
	if (!s->found) {
		snprintf(why, nwhy, "no layout of bankc's holds it");
		return false;
	}
	return true;
}

/* Blocks per SM that shared memory alone allows: the kernel's arrays,
 * one grown by extra (the threads' limit is another matter). */
static int blocks_with(const PtxModule *m, int kernel, const Tile *t, int64_t extra)
{
	int64_t bytes = extra;
	for (int i = 0; i < m->nsym; i++)
		if (m->sym[i].kind == SYM_SHARED && (m->sym[i].func < 0 || m->sym[i].func == kernel) &&
		    m->sym[i].size > 0)
			bytes += m->sym[i].size;
	Tile alone = *t;
	alone.threads = 0;
	return solve_blocks(&alone, bytes);
}

/* A form of candidate c, proven on the records: it must take what the
 * solve said. */
static bool try_form(const PtxModule *m, const ScanKernel *k, ScanArray *a, const Geom *g,
                     const Tile *t, const Cand *c, bool pad, ScanForm *out)
{
	memset(out, 0, sizeof *out);
	int64_t *keep = xmalloc(((size_t)a->nstmt + 1) * sizeof *keep);
	for (int i = 0; i < a->nstmt; i++)
		keep[i] = a->stmt[i].after;
	bool ok = scan_fix_prove(m, k, a, g, &c->l, t) == c->wave;
	if (!ok)
		snprintf(out->stop, sizeof out->stop, "its remapped addresses do not take what "
		         "the search said");
	else
		ok = scan_fix_form(a, &c->l, t, pad, out);
	for (int i = 0; i < a->nstmt; i++)
		a->stmt[i].after = keep[i];
	free(keep);
	if (!ok)
		return false;
	out->after = c->wave;
	out->extra_bytes = c->bytes - tile_bytes(t);
	out->blocks = blocks_with(m, k->kernel, t, out->extra_bytes);
	layout_describe(&c->l, t, out->layout, sizeof out->layout);
	return true;
}

/* The best padding that saves anything, said as a declaration. */
static void try_pad(const PtxModule *m, const ScanKernel *k, ScanArray *a, const char *text,
                    size_t len, const Geom *g)
{
	ScanFix *x = &a->fix;
	Pool *p = pool_new();
	Unit u;
	Solution s = {0};
	char why[256];
	if (solve_spec(text, len, g, 1u << L_PAD, 1, p, &u, &s, why, sizeof why) &&
	    s.best.l.kind == L_PAD && !s.best.l.swap && s.best.wave < x->before &&
	    s.best.l.pitch != u.tiles[0].cols) {
		ScanForm f;
		if (try_form(m, k, a, g, &u.tiles[0], &s.best, true, &f))
			x->pad = f;
		else
			snprintf(x->pad.stop, sizeof x->pad.stop, "%s", f.stop);
	}
	solve_free(&s);
	pool_free(p);
}

/* Where the best layout is a swizzle of the array's rows: CuTe's
 * Swizzle on the declared element's offsets, and on bytes. */
static void cute_line(ScanArray *a, const Tile *t)
{
	ScanFix *x = &a->fix;
	const Layout *l = &x->l;
	int E = a->decl.found ? a->decl.type_bytes : (int)tile_elem_bytes(t);
	if (l->kind != L_SWIZZLE || l->swap || l->boxes != 1 || E <= 0 || (E & (E - 1)) ||
	    l->M < log2_floor(E))
		return;
	char of[160];
	if (a->decl.found)
		text_put(of, sizeof of, "of '%s'", a->decl.type);
	else
		text_put(of, sizeof of, "of its %d-byte elements", E);
	text_put(x->cute, sizeof x->cute, "Swizzle<%d,%d,%d> on the element offsets %s "
	         "(Swizzle<%d,%d,%d> on bytes)", l->B, l->M - log2_floor(E), l->S, of, l->B,
	         l->M, l->S);
}

/* The header bankc build writes for the spec, as the array uses it:
 * only where the spec counts in the declared element. */
static void header_use(ScanArray *a)
{
	ScanFix *x = &a->fix;
	const ScanDecl *d = &a->decl;
	if (!d->found || a->k != 1)
		return;
	char idx[400];
	if (a->view_decl && d->ndims == 2)
		text_put(idx, sizeof idx, "%s[%s_IDX(r, c)] for %s[r][c]", a->name, x->macro, a->name);
	else if (a->view_decl)
		text_put(idx, sizeof idx, "%s[%s_IDX(r, c)] with r the row of the last dimension's "
		         "rows one after another, c the last subscript", a->name, x->macro);
	else
		text_put(idx, sizeof idx, "%s[%s_IDX(i / %d, i %% %d)] for %s[i]", a->name, x->macro,
		         a->cols, a->cols, a->name);
	text_put(x->header_use, sizeof x->header_use, "declare %s %s[%s_BYTES / sizeof(%s)] "
	         "and index it %s", d->type, a->name, x->macro, d->type, idx);
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
	if (solve_spec(text, len, g, 0, 1, p, &u, &s, x->why, sizeof x->why)) {
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
			x->blocks_before = blocks_with(m, k->kernel, t, 0);
			snprintf(x->header, sizeof x->header, "%s", tname);
			emit_upper(x->macro, sizeof x->macro, tname);
			x->vector = a->vector;
			cute_line(a, t);
			header_use(a);
			/* the rewrite: the best layout where it has a form in the
			 * source and is not a padding; else the best-ranked one that
			 * has (a second search, which keeps more of the ranking) */
			char first_stop[400] = "";
			bool best_said = false;
			bool best_pad = s.best.l.kind == L_PAD && !s.best.l.swap;
			if (!best_pad) {
				ScanForm fm;
				if (try_form(m, k, a, g, t, &s.best, false, &fm)) {
					x->index = fm;
					best_said = true;
				} else {
					snprintf(first_stop, sizeof first_stop, "%s", fm.stop);
				}
			}
			if (!best_said) {
				Pool *p2 = pool_new();
				Unit u2;
				Solution s2 = {0};
				char why2[320];
				if (solve_spec(text, len, g, 0, 8, p2, &u2, &s2, why2, sizeof why2))
					for (int i = 0; i < s2.ntop && !x->index.ok; i++) {
						const Cand *cd = &s2.top[i];
						ScanForm fm;
						if (cd->wave >= before || (cd->l.kind == L_PAD && !cd->l.swap) ||
						    layout_same(&cd->l, &s.best.l))
							continue;
						if (try_form(m, k, a, g, t, cd, false, &fm))
							x->index = fm;
						else if (!first_stop[0])
							snprintf(first_stop, sizeof first_stop, "%s", fm.stop);
					}
				solve_free(&s2);
				pool_free(p2);
			}
			if (!x->index.ok)
				snprintf(x->index.stop, sizeof x->index.stop, "%s", first_stop);
			try_pad(m, k, a, text, len, g);
			if (!best_said && !(best_pad && x->pad.ok && x->pad.after == after) &&
			    (x->index.ok || x->pad.ok))
				text_put(x->unsaid, sizeof x->unsaid, "the best, %s, has no form in the "
				         "source's terms: %s", x->layout, best_pad ? x->pad.stop : first_stop);
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
