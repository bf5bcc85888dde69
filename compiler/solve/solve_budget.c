/* The adaptive search budget (docs/solver.md, "The budget").
 *
 * Every tile is first searched with its base budget: 32768 units plus 32
 * per warp instruction, scaled down when its file's tiles together would
 * pass SOLVE_BUDGET_FILE (solve_budget_of).  Most tiles are decided well
 * within it and stop there.  A tile whose first search ended on that
 * budget with its choice above the bound (open: solve_unproven) is
 * searched again, from the start, with a larger budget: its file's
 * extension, SOLVE_BUDGET_TOTAL less the base budgets of all its tiles,
 * shared equally among the file's open tiles, each share at most
 * SOLVE_BUDGET_TILE_CAP.  A file whose base budgets were scaled down (one
 * at the limits) gets no extension, so such a file takes what it took.
 *
 * Every decision is made on work units, never on time, so a tile gets
 * the same layout on every machine and in every command: the second
 * search is exactly `--search-budget SHARE`, and compare, build and
 * explain --chosen plan a file alike (a ranking of more than one decides
 * which tiles are open by the ranking of one, as build searches).
 * solve_tile is one search: scan's fix notes, which solve each array's
 * spec on its own, keep the base budget, so that a kernel of many arrays
 * costs what it did. */
#include <stdlib.h>
#include <string.h>

#include "bankc.h"
#include "solve/solve.h"

/* The second search's budget for each open tile of a file whose tiles'
 * defaults add up to `defaults` and whose first searches left `open`
 * open; 0: none. */
static int64_t extension_share(int64_t defaults, int open)
{
	if (open == 0 || defaults > SOLVE_BUDGET_FILE ||
	    defaults >= SOLVE_BUDGET_TOTAL)
		return 0;
	int64_t share = (SOLVE_BUDGET_TOTAL - defaults) / open;
	return share < SOLVE_BUDGET_TILE_CAP ? share : SOLVE_BUDGET_TILE_CAP;
}

/* The first search of t, with its base budget, into s; whether it left
 * t open.  A ranking longer than one is open where the ranking of one
 * (build's search) is, which it runs only where the ranking itself left
 * the choice unproven: a ranking that decided its space or met the bound
 * holds a ranking of one that did. */
static bool first_search(const Tile *t, const Geom *g, const SolveOpts *o,
                         Solution *s)
{
	SolveOpts base = *o;
	base.budget = 0;
	solve_tile(t, g, &base, s);
	if (!s->found || !solve_unproven(s) || o->top == 1)
		return s->found && solve_unproven(s);
	Solution one;
	base.top = 1;
	solve_tile(t, g, &base, &one);
	bool open = one.found && solve_unproven(&one);
	solve_free(&one);
	return open;
}

/* The second search of an open tile, with `share` units, into s (which
 * held the first, freed); the work reported is both searches'. */
static void search_again(const Tile *t, const Geom *g, const SolveOpts *o,
                         int64_t share, Solution *s)
{
	int64_t work = s->work, allowed = s->work_budget;
	SolveOpts more = *o;
	more.budget = share;
	solve_free(s);
	solve_tile(t, g, &more, s);
	s->work += work;
	s->work_budget += allowed;
}

bool solve_tile_or_report(const Tile *t, const Src *src, FILE *diag,
                          const Geom *g, const SolveOpts *o, Solution *s)
{
	solve_tile(t, g, o, s);
	return s->found || solve_report_none(t, src, diag, s);
}

bool solve_unit(const Unit *u, const Src *src, FILE *diag, const Geom *g,
                const SolveOpts *o, const bool *want, Solution *sol)
{
	int n = u->ntiles;
	memset(sol, 0, (size_t)n * sizeof *sol);
	SolveOpts fo = *o;
	fo.file_defaults = solve_file_defaults(u);
	bool ok = true;
	if (o->budget > 0 || o->exhaustive) {
		for (int i = 0; i < n; i++)
			if (!want || want[i])
				ok &= solve_tile_or_report(&u->tiles[i], src, diag, g, &fo,
				                           &sol[i]);
		return ok;
	}
	/* every tile's first search: how many are open decides the share */
	bool *open = xcalloc((size_t)n + 1, sizeof *open);
	int nopen = 0;
	for (int i = 0; i < n; i++)
		nopen += open[i] = first_search(&u->tiles[i], g, &fo, &sol[i]);
	int64_t share = extension_share(fo.file_defaults, nopen);
	for (int i = 0; i < n; i++) {
		if (want && !want[i]) {
			solve_free(&sol[i]);
			memset(&sol[i], 0, sizeof sol[i]);
		} else if (!sol[i].found) {
			ok &= solve_report_none(&u->tiles[i], src, diag, &sol[i]);
		} else if (open[i] && share > sol[i].work_budget) {
			search_again(&u->tiles[i], g, &fo, share, &sol[i]);
		}
	}
	free(open);
	return ok;
}
