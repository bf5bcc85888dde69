/* One-dimensional tiles.  A `shape N;` tile (an array such as
 * `__shared__ float s[2048]`) has no rows of its own, and which rows it
 * is given decides which layouts exist: a transpose folded into rows of
 * 33 is a padded one, into rows of 32 a conflicted one.  So the solver
 * tries every fold of it into rows (row lengths C that divide N, hold whole
 * vectors and make rows of 4 to 8192 bytes), searches each, and keeps the
 * best by the spec's objective, with the index arithmetic of the fold
 * itself (i / C and i % C) counted; ties go to rows of 128 bytes (one
 * bank period), then to the shorter rows.  At most MAX_FOLDS folds are
 * tried (the first in that order), sharing the tile's search budget:
 * half for the first, the rest evenly.  ("Fold", not "view": a view is
 * the spec language's other shape over a tile's bytes.) */
#include <stdlib.h>
#include <string.h>

#include "bankc.h"
#include "solve/solve.h"

/* The folds tried, in the order below; the tile's search budget is
 * shared among them. */
enum { MAX_FOLDS = 24, MAX_ROW_BYTES = 8192 };

/* The row lengths to try, in tie-break order. */
static int candidates(const Tile *t, int *cols)
{
	int64_t es = tile_elem_bytes(t), n = t->len;
	int vec = 1;
	for (int j = 0; j < t->nacc; j++)
		if (t->acc[j].vec > vec)
			vec = t->acc[j].vec;
	int k = 0;
	/* rows of one bank period first, then powers of two, then the rest */
	for (int pass = 0; pass < 3; pass++)
		for (int64_t c = 1; c <= n && k < MAX_FOLDS; c++) {
			int64_t rb = c * es;
			if (n % c || c % vec || rb < 4 || rb > MAX_ROW_BYTES ||
			    c > MAX_DIM || n / c > MAX_DIM)
				continue;
			bool period = rb == 128, p2 = is_pow2(c);
			if ((pass == 0 && period) || (pass == 1 && p2 && !period) ||
			    (pass == 2 && !p2 && !period))
				cols[k++] = (int)c;
		}
	if (k == 0)                 /* no fold fits: the array as one row */
		cols[k++] = (int)n;
	return k;
}

Tile *fold_make(const Tile *t, int cols)
{
	Tile *f = xmalloc(sizeof *f);
	Access *acc = xcalloc((size_t)t->nacc, sizeof *acc);
	*f = *t;
	f->cols = cols;
	f->rows = t->len / cols;
	f->acc = acc;
	for (int j = 0; j < t->nacc; j++) {
		acc[j] = t->acc[j];
		Inst *in = xcalloc((size_t)acc[j].ninst, sizeof *in);
		memcpy(in, t->acc[j].inst, (size_t)acc[j].ninst * sizeof *in);
		/* (stage, i) of the 1 x N tile to (stage * rows + i / C, i % C) */
		for (int i = 0; i < acc[j].ninst; i++)
			for (int n = 0; n < WARP; n++)
				if (in[i].mask >> n & 1) {
					Coord *c = &in[i].lane[n];
					int s = c->row, e = c->col;
					c->row = s * f->rows + e / cols;
					c->col = e % cols;
				}
		acc[j].inst = in;
	}
	return f;
}

void fold_free(Tile *f)
{
	if (!f)
		return;
	for (int j = 0; j < f->nacc; j++)
		free(f->acc[j].inst);
	free(f->acc);
	free(f);
}

int fold_arith(const Tile *f)
{
	return f && f->len && !is_pow2(f->cols) ? 2 : 0;
}

void solve_tile(const Tile *t, const Geom *g, const SolveOpts *o,
                Solution *s)
{
	if (!t->len) {
		solve_layout(t, g, o, s);
		return;
	}
	int cols[MAX_FOLDS];
	int n = candidates(t, cols);
	bool have = false, cut = false;
	SolveOpts fo = *o;
	int64_t total = o->budget ? o->budget : solve_default_budget(t);
	for (int i = 0; i < n; i++) {
		/* the first fold (rows of one bank period, where most tiles
		 * find their best) takes half the budget, the others share the
		 * rest */
		int64_t share = n == 1 ? total : i == 0 ? total / 2
		              : total / 2 / (n - 1);
		fo.budget = share > 0 ? share : 1;
		Tile *f = fold_make(t, cols[i]);
		Solution fs;
		solve_layout(f, g, &fo, &fs);
		cut |= fs.budget_reached;
		fs.fold = f;
		if (fs.found) {
			fs.best.arith += fold_arith(f);
			for (int k = 0; k < fs.ntop; k++)
				fs.top[k].arith += fold_arith(f);
		}
		/* a fold wins only by the objective; on a tie the earlier stays */
		bool better = !have || (fs.found && (!s->found ||
		              solve_cmp_key(f, &fs.best, &s->best) < 0));
		if (better) {
			if (have)
				solve_free(s);
			*s = fs;
			have = true;
		} else {
			solve_free(&fs);
		}
	}
	/* a fold searched short may have held a better layout */
	s->budget_reached |= cut;
}

bool solve_tile_or_report(const Tile *t, const Src *src, FILE *diag,
                          const Geom *g, const SolveOpts *o, Solution *s)
{
	solve_tile(t, g, o, s);
	if (s->found)
		return true;
	/* every candidate failed; the simplest one's reason is the one a user
	 * can act on (a budget, `tma`, a vector) */
	const Tile *st = solution_tile(s, t);
	Layout rm = layout_rowmajor(st);
	const char *why = "refused";
	layout_legal(&rm, st, s->budget, &why);
	diag_report_rule(diag, src, t->pos, "no-layout",
	            "tile '%s' has no legal layout within its "
	            "budget and restrictions (row-major: %s)", t->name, why);
	return false;
}

void solve_free(Solution *s)
{
	fold_free(s->fold);
	s->fold = NULL;
	free(s->top);
	s->top = NULL;
}
