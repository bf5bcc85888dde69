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
	if (!a->flat)       /* a one-dimensional array's: scan_fix_form's */
		out->extra_bytes = c->bytes - tile_bytes(t);
	out->blocks = blocks_with(m, k->kernel, t, out->extra_bytes);
	scan_say_layout(&c->l, t, out->layout, sizeof out->layout);
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

/* Why a spec may not reproduce cp.async's count: its 128-byte segments
 * depend on where the array starts, which a tile does not say. */
static const char *cpasync_note(const PtxModule *m, const ScanKernel *k, const ScanArray *a)
{
	(void)m;
	for (int s = 0; s < a->nslot; s++)
		if (k->acc[a->slot[s]].op.kind == OP_CPASYNC && a->base % 128)
			return ": its cp.async copies' 128-byte segments depend on where the array "
			       "starts, off a 128-byte boundary here, which a spec's tile does not say";
	return "";
}

/* The spec --emit-spec writes for array a, as text (malloc'ed). */
static char *array_spec(const PtxModule *m, const ScanKernel *k, const ScanCtx *c,
                        const ScanArray *a, size_t *len)
{
	char tname[600];
	scan_spec_tile_name(m, k, a, tname, sizeof tname);
	char *text = NULL;
	*len = 0;
	FILE *f = xmemstream(&text, len);
	scan_spec_write(f, m, k, a, tname, c);
	fclose(f);
	return text;
}

/* The fix of one array: solved, proven, said. */
static void fix_array(const PtxModule *m, const ScanKernel *k, const ScanCtx *c, ScanArray *a,
                      const Geom *g)
{
	ScanFix *x = &a->fix;
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
	size_t len;
	char *text = array_spec(m, k, c, a, &len);
	Pool *p = pool_new();
	Unit u;
	Solution s = {0};
	if (solve_spec(text, len, g, 0, 1, p, &u, &s, x->why, sizeof x->why)) {
		const Tile *t = &u.tiles[0];
		Layout rm = layout_rowmajor(t);
		int64_t before = scan_fix_prove(m, k, a, g, &rm, t);
		int64_t after = scan_fix_prove(m, k, a, g, &s.best.l, t);
		scan_say_layout(&s.best.l, t, x->layout, sizeof x->layout);
		if (before != a->wave || s.lower_bound != a->ideal)
			text_put(x->why, sizeof x->why, "its spec does not reproduce the scan's counts "
			         "(%lld wavefronts, the scan's %lld)%s", (long long)before,
			         (long long)a->wave, cpasync_note(m, k, a));
		else if (after != s.best.wave)
			text_put(x->why, sizeof x->why, "the layout %s was not proven: its remapped "
			         "addresses take %lld wavefronts, the solve said %lld%s", x->layout,
			         (long long)after, (long long)s.best.wave, cpasync_note(m, k, a));
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

/* ---- --data: a fix fitted to one input ------------------------------------------ */

enum { DATA_TRIES = 3 };

/* buf of len bytes shuffled by 4-byte words (bytes where it is no whole
 * number of them), the same for the same seed */
static uint8_t *shuffled(const uint8_t *buf, size_t len, uint32_t seed)
{
	uint8_t *b = xmalloc(len + 1);
	memcpy(b, buf, len);
	size_t w = len % 4 ? 1 : 4, n = len / w;
	uint64_t x = 0x9e3779b97f4a7c15ull * (seed + 1);
	for (size_t i = n; i > 1; i--) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		size_t j = (size_t)(x % i);
		for (size_t k = 0; k < w; k++) {
			uint8_t t = b[(i - 1) * w + k];
			b[(i - 1) * w + k] = b[j * w + k];
			b[j * w + k] = t;
		}
	}
	return b;
}

/* Do a's recorded accesses in k and k2 agree, instruction by instruction? */
static bool same_records(const ScanKernel *k, const ScanKernel *k2, const ScanArray *a)
{
	for (int s = 0; s < a->nslot; s++) {
		const ScanAcc *x = &k->acc[a->slot[s]], *y = &k2->acc[a->slot[s]];
		if (x->nkept != y->nkept || x->kept != y->kept || x->rcount != y->rcount ||
		    (x->nkept && (memcmp(x->masks, y->masks, (size_t)x->nkept * sizeof *x->masks) ||
		                  memcmp(x->kcount, y->kcount, (size_t)x->nkept * sizeof *x->kcount) ||
		                  memcmp(x->addrs, y->addrs, (size_t)x->nkept * WARP * sizeof *x->addrs))))
			return false;
	}
	return true;
}

void cmd_scan_fixes_data(const PtxModule *m, const ScanKernel *k, const ScanCtx *c,
                         ScanArrays *as, const Geom *g, const InterpOpts *ro,
                         const ScanOpts *so)
{
	bool any = false;
	for (int i = 0; i < as->n; i++)
		any |= as->a[i].fix.shown;
	if (!ro->ndata || !any)
		return;
	ScanKernel k2[DATA_TRIES];
	ScanArrays as2[DATA_TRIES];
	uint8_t *bufs[DATA_TRIES][PTX_MAX_DATA];
	for (int t = 0; t < DATA_TRIES; t++) {
		InterpOpts r2 = *ro;
		for (int d = 0; d < ro->ndata; d++) {
			bufs[t][d] = shuffled(ro->data[d].bytes, ro->data[d].len, (uint32_t)(t * 8 + d));
			r2.data[d].bytes = bufs[t][d];
		}
		scan_kernel(m, k->kernel, &r2, so, &k2[t]);
		memset(&as2[t], 0, sizeof as2[t]);
		if (k2[t].complete)
			scan_arrays_find(m, &k2[t], c, &as2[t]);
	}
	for (int i = 0; i < as->n; i++) {
		ScanArray *a = &as->a[i];
		ScanFix *x = &a->fix;
		if (!x->shown)
			continue;
		/* the layout's tile: the spec again, as fix_array wrote it */
		size_t len;
		char *text = array_spec(m, k, c, a, &len);
		Pool *p = pool_new();
		Unit u;
		Src src = {"<spec of the array>", text, len};
		FILE *diag = fopen("/dev/null", "w");
		bool ok = diag && frontend_run(p, diag, &src, &u) && u.ntiles == 1;
		if (diag)
			fclose(diag);
		bool depends = false;
		int helped = 0;
		for (int t = 0; t < DATA_TRIES && ok; t++) {
			ScanArray *b = NULL;
			for (int j = 0; j < as2[t].n; j++)
				if (as2[t].a[j].sym == a->sym)
					b = &as2[t].a[j];
			if (b && b->nslot == a->nslot && same_records(k, &k2[t], a))
				continue;
			depends = true;
			if (!b || !b->whole || b->rows != a->rows || b->cols != a->cols ||
			    b->elem != a->elem)
				continue;
			const Tile *tl = &u.tiles[0];
			Layout rm = layout_rowmajor(tl);
			int64_t before = scan_fix_prove(m, &k2[t], b, g, &rm, tl);
			int64_t after = scan_fix_prove(m, &k2[t], b, g, &x->l, tl);
			helped += before >= 0 && after >= 0 && after < before;
		}
		if (ok && depends) {
			x->data = true;
			x->data_tries = DATA_TRIES;
			x->data_helped = helped;
			if (helped < DATA_TRIES) {
				/* fitted to the input given alone: no fix */
				text_put(x->why, sizeof x->why, "the layout that saves on the input given, "
				         "%s (%lld -> %lld wavefronts), saves on %d of %d inputs made by "
				         "shuffling it: no layout helps these addresses in general",
				         x->layout, (long long)x->before, (long long)x->after, helped,
				         DATA_TRIES);
				x->shown = false;
				scan_fix_form_free(&x->pad);
				scan_fix_form_free(&x->index);
				memset(&x->pad, 0, sizeof x->pad);
				memset(&x->index, 0, sizeof x->index);
			}
		}
		pool_free(p);
		free(text);
	}
	for (int t = 0; t < DATA_TRIES; t++) {
		scan_arrays_free(&as2[t]);
		scan_kernel_free(m, &k2[t]);
		for (int d = 0; d < ro->ndata; d++)
			free(bufs[t][d]);
	}
}

void cmd_scan_fix_json(json_t *kernel, const PtxModule *m, const ScanKernel *k,
                       const ScanArrays *as)
{
	json_object_set_new(kernel, "arrays", scan_fix_json(as));
	/* each access names its array: the accesses are the slots that ran */
	json_t *acc = json_object_get(kernel, "accesses");
	size_t i = 0;
	for (int s = 0; s < m->nslots && acc; s++) {
		if (!k->acc[s].count && !k->acc[s].rcount)
			continue;
		const ScanArray *a = scan_array_of_slot(as, s);
		json_t *e = json_array_get(acc, i++);
		if (e)
			json_object_set_new(e, "array", a ? json_string(a->name) : json_null());
	}
}
