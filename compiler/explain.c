/* bankc explain: every warp instruction of a spec's accesses, with its
 * wavefronts, its ideal, and the banks that make it conflict. */
#include <string.h>

#include "bankc.h"

static void print_vars(const Access *a, int i)
{
	if (a->place != PL_GENERAL || a->nloops == 0) {
		printf("  %6d  %-18s", i, "");
		return;
	}
	char buf[128];
	int k = 0;
	int64_t rest = i;
	int64_t vals[MAX_LOOPS];
	for (int v = a->nloops - 1; v >= 0; v--) {
		int64_t span = a->loops[v].hi - a->loops[v].lo;
		vals[v] = a->loops[v].lo + rest % span;
		rest /= span;
	}
	buf[0] = 0;
	for (int v = 0; v < a->nloops && k < (int)sizeof buf; v++)
		k += snprintf(buf + k, sizeof buf - (size_t)k, "%s%s=%lld",
		              v ? " " : "", a->loops[v].name, (long long)vals[v]);
	printf("  %6d  %-18s", i, buf);
}

static void explain_access(const Geom *g, const Layout *l, const Tile *t,
                           const Access *a)
{
	char opn[32], lname[160];
	tab_op_name(a->op, opn, sizeof opn);
	layout_describe(l, t, lname, sizeof lname);
	printf("tile %s, access %s: %s, %lld bytes per lane, %d instructions, "
	       "layout %s\n", t->name, a->name, opn,
	       (long long)(a->vec * tile_elem_bytes(t)), a->ninst, lname);
	printf("  %6s  %-18s  %10s  %5s  %s\n", "inst", "vars", "wavefronts",
	       "ideal", "conflicting banks (phase: bank x distinct words)");
	int64_t tw = 0, ti = 0;
	for (int i = 0; i < a->ninst; i++) {
		SimResult r;
		layout_sim_inst(g, l, t, a, &a->inst[i], &r);
		tw += r.wavefronts;
		ti += r.ideal;
		print_vars(a, i);
		printf("  %10d  %5d ", r.wavefronts, r.ideal);
		bool any = false;
		for (int k = 0; k < r.nphase; k++)
			if (r.phase[k].wavefronts > 1) {
				printf(" %d: bank %d x %d", k, r.phase[k].bank,
				       r.phase[k].wavefronts);
				any = true;
			}
		if (!any)
			printf(" none");
		putchar('\n');
	}
	printf("  total %lld wavefronts, ideal %lld%s\n\n", (long long)tw,
	       (long long)ti, tw == ti ? " (conflict-free)" : "");
}

/* One line per access: its totals under the layout. */
static void summary_access(const Geom *g, const Layout *l, const Tile *t,
                           const Access *a)
{
	int64_t tw = 0, ti = 0;
	for (int i = 0; i < a->ninst; i++) {
		SimResult r;
		layout_sim_inst(g, l, t, a, &a->inst[i], &r);
		tw += r.wavefronts;
		ti += r.ideal;
	}
	char opn[32];
	tab_op_name(a->op, opn, sizeof opn);
	printf("%-18s %-16s %-18s %6d %10lld %8lld %7.2fx\n", t->name, a->name,
	       opn, a->ninst, (long long)tw, (long long)ti,
	       ti ? (double)tw / (double)ti : 1.0);
}

static int explain_file(const Geom *g, const char *file, const char *tname,
                        const char *aname, bool summary, bool chosen,
                        int64_t work)
{
	Pool *p = pool_new();
	Src src;
	Unit u;
	int rc = 1;
	if (!frontend_file(file, p, stderr, &src, &u))
		goto out;
	int shown = 0;
	for (int i = 0; i < u.ntiles; i++) {
		const Tile *t = &u.tiles[i];
		if (tname && strcmp(tname, t->name) != 0)
			continue;
		Layout l = layout_rowmajor(t);
		if (chosen) {
			SolveOpts o = {.top = 1, .budget = work};
			Solution s;
			solve_tile(t, g, &o, &s);
			bool found = s.found;
			if (found)
				l = s.best.l;
			solve_free(&s);
			if (!found) {
				diag_report(stderr, &src, t->pos, "tile '%s' has no legal "
				            "layout within its budget and restrictions",
				            t->name);
				goto out;
			}
		}
		for (int j = 0; j < t->nacc; j++)
			if (!aname || strcmp(aname, t->acc[j].name) == 0) {
				if (summary)
					summary_access(g, &l, t, &t->acc[j]);
				else
					explain_access(g, &l, t, &t->acc[j]);
				shown++;
			}
	}
	if (!shown && (tname || aname)) {
		if (aname)
			fprintf(stderr, "bankc: error: no access '%s'%s%s%s in '%s'\n",
			        aname, tname ? " in tile '" : "", tname ? tname : "",
			        tname ? "'" : "", file);
		else
			fprintf(stderr, "bankc: error: no tile '%s' in '%s'\n", tname,
			        file);
		goto out;
	}
	rc = 0;
out:
	src_free(&src);
	pool_free(p);
	return rc;
}

int cmd_explain(int argc, char **argv)
{
	Geom g = sim_geom_default;
	const char *tname = NULL, *aname = NULL;
	bool summary = false, chosen = false;
	int nfiles = 0;
	int64_t work = 0;
	for (int i = 0; i < argc; i++) {
		int rc;
		if (cli_geom_option(argc, argv, &i, &g, &rc)) {
			if (rc)
				return rc;
			continue;
		}
		const char **slot = strcmp(argv[i], "--tile") == 0 ? &tname
		                  : strcmp(argv[i], "--access") == 0 ? &aname : NULL;
		if (slot) {
			if (i + 1 >= argc)
				return cli_usage_error("%s needs a value", argv[i]);
			*slot = argv[++i];
		} else if (strcmp(argv[i], "--summary") == 0) {
			summary = true;
		} else if (strcmp(argv[i], "--chosen") == 0) {
			chosen = true;
		} else if (strcmp(argv[i], "--search-budget") == 0) {
			if (i + 1 >= argc)
				return cli_usage_error("%s needs a value", argv[i]);
			if (!solve_parse_budget(argv[++i], &work))
				return cli_usage_error("--search-budget takes 1 to 10^15 work "
				                       "units, not '%s'", argv[i]);
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return cli_usage_error("unknown option '%s' for explain", argv[i]);
		} else {
			argv[nfiles++] = argv[i];   /* files, in order, at the front */
		}
	}
	if (nfiles == 0)
		return cli_usage_error("%s", "explain needs a FILE");
	if (summary)
		printf("%-18s %-16s %-18s %6s %10s %8s %8s\n", "tile", "access", "op",
		       "insts", "wavefronts", "ideal", "ratio");
	int rc = 0;
	for (int i = 0; i < nfiles; i++)
		if (explain_file(&g, argv[i], tname, aname, summary, chosen, work))
			rc = 1;
	return rc;
}
