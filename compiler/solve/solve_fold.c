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
 * half for the first, and for each later one an even part of what the
 * earlier ones left, its classes and seeds included; a fold that cannot
 * beat the best found is skipped.  ("Fold", not "view": a view is the
 * spec language's other shape over a tile's bytes.) */
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

/* The work the exact classes of a fold take before its search (see
 * solve_layout): a later fold is searched only if what is left of the
 * tile's budget pays for them. */
static int64_t classes_work(const Tile *t)
{
	int64_t n = 0;
	for (int j = 0; j < t->nacc; j++)
		n += t->acc[j].ninst;
	return 3 * n;
}

/* Could some layout of fold f still beat s's best?  Row-major of every
 * fold is the same map of the buffer, so the alignment-aware bound (costed
 * under it) is every fold's, as is row-major's footprint, the least of
 * any layout; f's own index arithmetic comes on top of each of its
 * layouts.  A fold whose best conceivable member does not beat the best
 * found (ties go to the earlier fold) is skipped, which proves nothing
 * less: it held no better layout. */
static bool cannot_lose(const Tile *f, const Solution *s)
{
	Layout rm = layout_rowmajor(f);
	Cand probe = {.wave = s->aligned_bound, .bytes = layout_bytes(&rm, f),
	              .arith = fold_arith(f)};
	return solve_cmp_key(f, &probe, &s->best) < 0;
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
	int64_t total = o->budget ? o->budget : solve_budget_of(t, o);
	int64_t spent = 0;
	for (int i = 0; i < n; i++) {
		/* the first fold (rows of one bank period, where most tiles
		 * find their best) takes half the budget, its seeds besides, as
		 * a 2-D tile does; each later one an even part of what is left,
		 * its classes and seeds included, so that a fold that ends early
		 * leaves its units to the next and the folds together stay
		 * within the tile's budget */
		int64_t left = total - spent, share;
		if (i == 0) {
			share = n == 1 ? total : total / 2;
		} else {
			if (!o->exhaustive && left < classes_work(t)) {
				cut = true;     /* the folds not searched */
				break;
			}
			share = left / (n - i);
			fo.seeds_in_budget = !o->exhaustive;
		}
		fo.budget = o->exhaustive ? o->budget : share > 0 ? share : 1;
		Tile *f = fold_make(t, cols[i]);
		if (have && s->found && !cannot_lose(f, s)) {
			fold_free(f);   /* no layout of this fold can win */
			continue;
		}
		Solution fs;
		solve_layout(f, g, &fo, &fs);
		spent += fs.work;
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
	/* a fold searched short, or not at all, may have held a better
	 * layout; the work is the tile's, every fold's together */
	s->budget_reached |= cut;
	s->work = spent;
	if (!o->exhaustive)
		s->work_budget = total;
}

bool solve_report_none(const Tile *t, const Src *src, FILE *diag,
                       const Solution *s)
{
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
