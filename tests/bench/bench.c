/* bankc's solver benchmark: the time to solve every tile of the given
 * spec files (median of repeated runs), and a sweep of square tiles from
 * 32 x 32 to 256 x 256 with every transform allowed, against the number
 * of instructions and candidates, so growth can be read off.
 *
 * usage: bench [-r REPEATS] FILE... */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bankc.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Median seconds of solving t; s receives the last solution's counts. */
static double time_solve(const Tile *t, int reps, Solution *out)
{
	double *dt = malloc((size_t)reps * sizeof *dt);
	SolveOpts o = {.top = 1};
	for (int i = 0; i < reps; i++) {
		Solution s;
		double t0 = now();
		solve_tile(t, &sim_geom_default, &o, &s);
		dt[i] = now() - t0;
		if (i == reps - 1)
			*out = s;
		else
			solve_free(&s);
	}
	qsort(dt, (size_t)reps, sizeof *dt, cmp_double);
	double m = dt[reps / 2];
	free(dt);
	return m;
}

static int instructions(const Tile *t)
{
	int n = 0;
	for (int j = 0; j < t->nacc; j++)
		n += t->acc[j].ninst;
	return n;
}

static void row(const char *name, const Tile *t, double sec, Solution *s)
{
	long cands = s->evaluated + s->cut;
	int insts = instructions(t);
	printf("%-22s %6d %8ld %8ld %10.3f %10.1f\n", name, insts, s->evaluated,
	       s->cut, sec * 1e3,
	       cands ? sec * 1e9 / ((double)insts * (double)cands) : 0.0);
	solve_free(s);
}

int main(int argc, char **argv)
{
	int reps = 21, first = 1;
	if (argc > 2 && strcmp(argv[1], "-r") == 0)
		reps = atoi(argv[2]), first = 3;
	if (reps < 1)
		reps = 1;
	printf("%-22s %6s %8s %8s %10s %10s\n", "tile", "insts", "costed", "cut",
	       "median ms", "ns/inst/cand");
	double total = 0, worst = 0;
	for (int f = first; f < argc; f++) {
		Pool *p = pool_new();
		Src src;
		Unit u;
		if (!frontend_file(argv[f], p, stderr, &src, &u))
			return 1;
		for (int i = 0; i < u.ntiles; i++) {
			Solution s;
			double sec = time_solve(&u.tiles[i], reps, &s);
			total += sec;
			worst = sec > worst ? sec : worst;
			row(u.tiles[i].name, &u.tiles[i], sec, &s);
		}
		src_free(&src);
		pool_free(p);
	}
	printf("corpus: %.3f ms in all (sum of medians), slowest tile %.3f ms\n\n",
	       total * 1e3, worst * 1e3);

	/* the sweep: a transpose tile and an ldmatrix operand tile per size */
	for (int n = 32; n <= 256; n *= 2) {
		for (int k = 0; k < 2; k++) {
			char text[512], name[64];
			if (k == 0)
				snprintf(text, sizeof text, "tile t { shape %d x %d; dtype f16; "
				         "arch sm_90; access w: store vec 2 along row; "
				         "access r: load along col; }", n, n);
			else
				snprintf(text, sizeof text, "tile t { shape %d x %d; dtype f16; "
				         "arch sm_90; access w: store vec 8 along row; "
				         "access r: ldmatrix.x4 along col; }", n, n);
			snprintf(name, sizeof name, "%s %dx%d", k ? "f16 ldmatrix" : "f16 transpose",
			         n, n);
			Pool *p = pool_new();
			Src src = {name, text, strlen(text)};
			Unit u;
			if (!frontend_run(p, stderr, &src, &u))
				return 1;
			Solution s;
			double sec = time_solve(&u.tiles[0], reps > 5 ? 5 : reps, &s);
			row(name, &u.tiles[0], sec, &s);
			pool_free(p);
		}
	}
	return 0;
}
