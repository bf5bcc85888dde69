/* bankc explain: every warp instruction of a spec's accesses, with its
 * wavefronts, its ideal, and the banks that make it conflict. */
#include <getopt.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "bankc.h"
#include "cmd/cmd.h"

/* The instruction's number and loop variables; the columns printed. */
static int print_vars(const Access *a, int i)
{
	if (a->place != PL_GENERAL || a->nloops == 0)
		return printf("  %6d  %-18s", i, "");
	char buf[128];
	int k = 0;
	buf[0] = 0;
	for (int v = 0; v < a->nloops && k < (int)sizeof buf; v++)
		k += snprintf(buf + k, sizeof buf - (size_t)k, "%s%s=%d",
		              v ? " " : "", a->loops[v].name, a->inst[i].var[v]);
	return printf("  %6d  %-18s", i, buf);
}

/* Lines of explain's table fit TEXT_W columns: the conflicts, last,
 * continue under their column, a phase to a line where they need more. */
enum { CONFLICT_COL = 48 };

/* Every bank that serves more than one word, phase by phase, from column
 * col on (CONFLICT_COL unless the variables took more). */
static void print_conflicts(const Geom *g, const Layout *l, const Tile *t,
                            const Access *a, const Inst *in,
                            const SimResult *r, int col)
{
	char piece[SIM_MAX_PHASES][560];
	int np = 0;
	if (a->op.kind != OP_CPASYNC) {
		int64_t addr[WARP];
		layout_inst_addrs(l, t, in, addr);
		int bytes = (int)(a->vec * tile_elem_bytes(t));
		for (int k = 0; k < r->nphase; k++) {
			if (r->phase[k].wavefronts <= 1)
				continue;
			int count[64];
			char text[512];
			sim_phase_banks(g, a->op, bytes, r->phase[k].lanes, addr, count);
			sim_conflict_text(count, g->banks, text, sizeof text);
			snprintf(piece[np++], sizeof piece[0], " %d: %s", k, text);
		}
	}
	if (!np) {
		puts(" none");
		return;
	}
	/* each phase but the last ends with ';'; col: where the line is,
	 * held: whether it holds a phase */
	bool held = false;
	for (int i = 0; i < np; i++) {
		if (i + 1 < np)
			strcat(piece[i], ";");
		int n = (int)strlen(piece[i]);
		if (held && col + n > TEXT_W) {
			printf("\n%*s", CONFLICT_COL, "");
			col = CONFLICT_COL;
			held = false;
		}
		if (col + n <= TEXT_W) {
			fputs(piece[i], stdout);
			col += n;
			held = true;
			continue;
		}
		/* one phase wider than the column: broken at its spaces, from
		 * the column's start */
		if (col > CONFLICT_COL) {
			printf("\n%*s", CONFLICT_COL, "");
			col = CONFLICT_COL;
		}
		putchar(' ');
		text_wrap(stdout, piece[i] + 1, col + 1, TEXT_W, CONFLICT_COL + 1);
		col = -1; /* the line is ended */
		held = false;
		if (i + 1 < np) {
			printf("%*s", CONFLICT_COL, "");
			col = CONFLICT_COL;
		}
	}
	if (col >= 0)
		putchar('\n');
}

static void explain_access(const Geom *g, const Layout *l, const Tile *t,
                           const Access *a)
{
	char opn[32], lname[160];
	tab_op_name(a->op, opn, sizeof opn);
	layout_describe(l, t, lname, sizeof lname);
	int64_t lb = a->vec * tile_elem_bytes(t);
	text_wrapf(stdout, 0, TEXT_W, 4, "tile %s, access %s: %s, %lld byte%s per "
	           "lane, %d instruction%s, layout %s", t->name, a->name, opn,
	           (long long)lb, text_plural(lb), a->ninst, text_plural(a->ninst),
	           lname);
	printf("  %6s  %-18s  %10s  %5s  %s\n", "inst", "vars", "wavefronts",
	       "ideal", "conflicting banks (phase: banks x distinct words)");
	int64_t tw = 0, ti = 0;
	for (int i = 0; i < a->ninst; i++) {
		SimResult r;
		layout_sim_inst(g, l, t, a, &a->inst[i], &r);
		tw += r.wavefronts;
		ti += r.ideal;
		int col = print_vars(a, i);
		col += printf("  %10d  %5d ", r.wavefronts, r.ideal);
		print_conflicts(g, l, t, a, &a->inst[i], &r, col);
	}
	printf("  total %lld wavefront%s, ideal %lld%s\n\n", (long long)tw,
	       tw == 1 ? "" : "s", (long long)ti, tw == ti ? " (conflict-free)" : "");
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
	printf("%-18s %-16s %-24s %6d %10lld %8lld %7.2fx\n", t->name, a->name,
	       opn, a->ninst, (long long)tw, (long long)ti,
	       ti ? (double)tw / (double)ti : 1.0);
}

/* explain --json's per-instruction objects, 2 GB of them for a file at
 * the limits: written straight into a buffer, byte for byte what
 * js_value gives for the jansson object (keys sorted, two spaces an
 * indent, "[]" and "{}" for empty ones), where building each through
 * jansson took most of the command's 30 s. */
typedef struct {
	char *p;
	size_t n, cap;
} Text;

static void text_room(Text *b, size_t more)
{
	if (b->n + more <= b->cap)
		return;
	while (b->n + more > b->cap)
		b->cap = b->cap ? 2 * b->cap : 65536;
	b->p = xrealloc(b->p, b->cap);
}

static void text_add(Text *b, const char *s, size_t k)
{
	text_room(b, k);
	memcpy(b->p + b->n, s, k);
	b->n += k;
}

#define TEXT_LIT(b, s) text_add(b, s, sizeof s - 1)

/* A newline, then depth levels of indent. */
static void text_line(Text *b, int depth)
{
	text_room(b, 1 + 2 * (size_t)depth);
	b->p[b->n++] = '\n';
	memset(b->p + b->n, ' ', 2 * (size_t)depth);
	b->n += 2 * (size_t)depth;
}

static void text_int(Text *b, long long v)
{
	char d[24];
	int k = 0;
	unsigned long long u = v < 0 ? 0ull - (unsigned long long)v
	                             : (unsigned long long)v;
	do
		d[k++] = (char)('0' + u % 10);
	while (u /= 10);
	text_room(b, (size_t)k + 1);
	if (v < 0)
		b->p[b->n++] = '-';
	while (k)
		b->p[b->n++] = d[--k];
}

/* "key": at depth, after a newline (first: no comma before it). */
static void text_key(Text *b, int depth, const char *key, bool first)
{
	if (!first)
		text_add(b, ",", 1);
	text_line(b, depth);
	text_add(b, "\"", 1);
	text_add(b, key, strlen(key));
	TEXT_LIT(b, "\": ");
}

/* The loop variables' names in sorted order (report_write's), as
 * indexes; identifiers, so nothing to escape. */
static int vars_order(const Access *a, int order[MAX_LOOPS])
{
	if (a->place != PL_GENERAL)
		return 0;
	for (int v = 0; v < a->nloops; v++) {
		int k = v;
		while (k > 0 && strcmp(a->loops[order[k - 1]].name, a->loops[v].name) > 0) {
			order[k] = order[k - 1];
			k--;
		}
		order[k] = v;
	}
	return a->nloops;
}

/* Instruction i of access a (an object at depth): its cost, phase by
 * phase. */
static void inst_text(Text *b, int depth, const Geom *g, const Layout *l,
                      const Tile *t, const Access *a, int i,
                      const SimResult *r, const int *order, int nvars)
{
	int bytes = (int)(a->vec * tile_elem_bytes(t));
	int64_t addr[WARP];
	layout_inst_addrs(l, t, &a->inst[i], addr);
	text_add(b, "{", 1);
	text_key(b, depth + 1, "counted", true);
	text_int(b, r->counted);
	text_key(b, depth + 1, "ideal", false);
	text_int(b, r->ideal);
	text_key(b, depth + 1, "index", false);
	text_int(b, i);
	text_key(b, depth + 1, "merged", false);
	if (r->merged)
		TEXT_LIT(b, "true");
	else
		TEXT_LIT(b, "false");
	text_key(b, depth + 1, "phases", false);
	text_add(b, "[", 1);
	for (int k = 0; k < r->nphase; k++) {
		if (k)
			text_add(b, ",", 1);
		text_line(b, depth + 2);
		text_add(b, "{", 1);
		text_key(b, depth + 3, "conflicts", true);
		text_add(b, "[", 1);
		int nc = 0;
		if (a->op.kind != OP_CPASYNC && r->phase[k].wavefronts > 1) {
			int count[64];
			sim_phase_banks(g, a->op, bytes, r->phase[k].lanes, addr, count);
			for (int bk = 0; bk < g->banks; bk++) {
				if (count[bk] <= 1)
					continue;
				if (nc++)
					text_add(b, ",", 1);
				text_line(b, depth + 4);
				text_add(b, "{", 1);
				text_key(b, depth + 5, "bank", true);
				text_int(b, bk);
				text_key(b, depth + 5, "words", false);
				text_int(b, count[bk]);
				text_line(b, depth + 4);
				text_add(b, "}", 1);
			}
		}
		if (nc)
			text_line(b, depth + 3);
		text_add(b, "]", 1);
		text_key(b, depth + 3, "ideal", false);
		text_int(b, r->phase[k].ideal);
		text_key(b, depth + 3, "lanes", false);
		char lanes[16];
		snprintf(lanes, sizeof lanes, "\"%08x\"", r->phase[k].lanes);
		text_add(b, lanes, 10);
		text_key(b, depth + 3, "wavefronts", false);
		text_int(b, r->phase[k].wavefronts);
		text_line(b, depth + 2);
		text_add(b, "}", 1);
	}
	if (r->nphase)
		text_line(b, depth + 1);
	text_add(b, "]", 1);
	text_key(b, depth + 1, "vars", false);
	text_add(b, "{", 1);
	for (int v = 0; v < nvars; v++) {
		text_key(b, depth + 2, a->loops[order[v]].name, v == 0);
		text_int(b, a->inst[i].var[order[v]]);
	}
	if (nvars)
		text_line(b, depth + 1);
	text_add(b, "}", 1);
	text_key(b, depth + 1, "wavefronts", false);
	text_int(b, r->wavefronts);
	text_line(b, depth);
	text_add(b, "}", 1);
}

/* explain --json: the same facts as the text, per access (an object at
 * depth), streamed: the totals first, then each instruction as it is
 * costed, so memory stays that of one instruction; with --summary only
 * the totals.  Keys in sorted order, as report_write writes them. */
static void access_json(FILE *f, int depth, const Geom *g, const Layout *l,
                        const Tile *t, const Access *a, bool summary)
{
	char opn[32];
	tab_op_name(a->op, opn, sizeof opn);
	int64_t tw = 0, ti = 0, tc = 0;
	for (int i = 0; i < a->ninst; i++) {
		SimResult r;
		layout_sim_inst(g, l, t, a, &a->inst[i], &r);
		tw += r.wavefronts;
		ti += r.ideal;
		tc += r.counted;
	}
	JsLevel o;
	js_open(f, &o, '{');
	js_next(f, &o, depth, "bytes_per_lane");
	js_value(f, depth + 1, json_integer(a->vec * tile_elem_bytes(t)));
	js_next(f, &o, depth, "counted");
	js_value(f, depth + 1, json_integer(tc));
	js_next(f, &o, depth, "ideal");
	js_value(f, depth + 1, json_integer(ti));
	js_next(f, &o, depth, "instructions");
	js_value(f, depth + 1, json_integer(a->ninst));
	js_next(f, &o, depth, "name");
	js_value(f, depth + 1, json_string(a->name));
	js_next(f, &o, depth, "op");
	js_value(f, depth + 1, json_string(opn));
	if (!summary) {
		js_next(f, &o, depth, "per_instruction");
		JsLevel v;
		js_open(f, &v, '[');
		int order[MAX_LOOPS];
		int nvars = vars_order(a, order);
		Text b = {0};
		for (int i = 0; i < a->ninst; i++) {
			SimResult r;
			layout_sim_inst(g, l, t, a, &a->inst[i], &r);
			js_next(f, &v, depth + 1, NULL);
			b.n = 0;
			inst_text(&b, depth + 2, g, l, t, a, i, &r, order, nvars);
			fwrite(b.p, 1, b.n, f);
		}
		free(b.p);
		js_close(f, &v, depth + 1);
	}
	js_next(f, &o, depth, "wavefronts");
	js_value(f, depth + 1, json_integer(tw));
	js_close(f, &o, depth);
}

/* What explain shows of one file: its tiles and accesses that --tile and
 * --access select, each tile under row-major or, with --chosen, its
 * solved layout (sol[i], for the i-th tile of the file). */
typedef struct {
	const Geom *g;
	const char *tname, *aname;
	bool summary, chosen;
	int64_t work;
} Shown;

static bool tile_shown(const Shown *w, const Tile *t)
{
	return !w->tname || strcmp(w->tname, t->name) == 0;
}

/* Does the file have what --tile and --access name?  Its error if not. */
static bool file_selects(const Shown *w, const char *file, const Unit *u)
{
	if (!w->tname && !w->aname)
		return true;
	for (int i = 0; i < u->ntiles; i++)
		for (int j = 0; tile_shown(w, &u->tiles[i]) && j < u->tiles[i].nacc; j++)
			if (!w->aname || strcmp(w->aname, u->tiles[i].acc[j].name) == 0)
				return true;
	if (w->aname)
		fprintf(stderr, "bankc: error: no access '%s'%s%s%s in '%s'\n",
		        w->aname, w->tname ? " in tile '" : "", w->tname ? w->tname : "",
		        w->tname ? "'" : "", file);
	else
		fprintf(stderr, "bankc: error: no tile '%s' in '%s'\n", w->tname, file);
	return false;
}

/* With --chosen, every shown tile of the file solved into sol (as many
 * as its tiles); false (its diagnostic printed) where one has no
 * layout. */
static bool file_solve(const Shown *w, const Src *src, const Unit *u,
                       Solution *sol)
{
	if (!w->chosen)
		return true;
	/* the file's tiles share its adaptive budget, those not shown too */
	bool *want = xcalloc((size_t)u->ntiles + 1, sizeof *want);
	for (int i = 0; i < u->ntiles; i++)
		want[i] = tile_shown(w, &u->tiles[i]);
	SolveOpts o = {.top = 1, .budget = w->work};
	bool ok = solve_unit(u, src, stderr, w->g, &o, want, sol);
	free(want);
	return ok;
}

/* The file's tiles: printed, or with js as elements of "tiles" (each an
 * object at depth 2). */
static void file_print(const Shown *w, const Src *src, const Unit *u,
                       Solution *sol, FILE *f, JsLevel *tiles)
{
	const Geom *g = w->g;
	for (int i = 0; i < u->ntiles; i++) {
		const Tile *t = &u->tiles[i];
		if (!tile_shown(w, t))
			continue;
		Layout l = layout_rowmajor(t);
		if (w->chosen) {
			l = sol[i].best.l;
			t = solution_tile(&sol[i], t);   /* a 1-D tile: the view chosen */
		}
		JsLevel to, accs;
		if (f) {
			js_next(f, tiles, 1, NULL);
			js_open(f, &to, '{');
			js_next(f, &to, 2, "accesses");
			js_open(f, &accs, '[');
		}
		for (int j = 0; j < t->nacc; j++) {
			if (w->aname && strcmp(w->aname, t->acc[j].name) != 0)
				continue;
			if (f) {
				js_next(f, &accs, 3, NULL);
				access_json(f, 4, g, &l, t, &t->acc[j], w->summary);
			} else if (w->summary) {
				summary_access(g, &l, t, &t->acc[j]);
			} else {
				explain_access(g, &l, t, &t->acc[j]);
			}
		}
		if (f) {
			js_close(f, &accs, 3);
			char lname[160];
			layout_describe(&l, t, lname, sizeof lname);
			js_next(f, &to, 2, "layout");
			js_value(f, 3, json_string(lname));
			js_next(f, &to, 2, "name");
			js_value(f, 3, json_string(t->name));
			js_next(f, &to, 2, "params");
			js_value(f, 3, report_layout(&l, t));
			js_next(f, &to, 2, "spec");
			js_value(f, 3, report_string(src->name));
			js_close(f, &to, 2);
		}
	}
}

static void file_free(const Unit *u, Solution *sol)
{
	for (int i = 0; sol && i < u->ntiles; i++)
		solve_free(&sol[i]);
	free(sol);
}

/* The text: file after file, each printed once it is read (and solved);
 * an error in one file does not stop the others. */
static int explain_text(const Shown *w, char **files, int nfiles)
{
	int rc = 0;
	for (int i = 0; i < nfiles; i++) {
		Pool *p = pool_new();
		Src src;
		Unit u;
		Solution *sol = NULL;
		if (!frontend_file(files[i], p, stderr, &src, &u)) {
			rc = 1;
		} else {
			sol = xcalloc((size_t)u.ntiles + 1, sizeof *sol);
			if (file_selects(w, files[i], &u) && file_solve(w, &src, &u, sol))
				file_print(w, &src, &u, sol, NULL, NULL);
			else
				rc = 1;
			file_free(&u, sol);
		}
		src_free(&src);
		pool_free(p);
	}
	return rc;
}

/* The JSON, 2 GB for a file at the limits: every file read, checked and
 * (with --chosen) solved first, so that nothing can fail once the first
 * byte is out; then written straight to standard output as it is made
 * (where it once went through a temporary file, copied out at the end:
 * 2 GB written twice and read once). */
static int explain_json(const Shown *w, char **files, int nfiles)
{
	Pool *p = pool_new();
	Src *src = xcalloc((size_t)nfiles, sizeof *src);
	Unit *u = xcalloc((size_t)nfiles, sizeof *u);
	Solution **sol = xcalloc((size_t)nfiles, sizeof *sol);
	int rc = frontend_files(files, nfiles, p, stderr, src, u) ? 0 : 1;
	for (int i = 0; rc == 0 && i < nfiles; i++)
		if (!file_selects(w, files[i], &u[i]))
			rc = 1;
	for (int i = 0; rc == 0 && i < nfiles; i++) {
		sol[i] = xcalloc((size_t)u[i].ntiles + 1, sizeof **sol);
		if (!file_solve(w, &src[i], &u[i], sol[i]))
			rc = 1;
	}
	if (rc == 0) {
		FILE *f = stdout;
		static char buf[1 << 20];
		setvbuf(f, buf, _IOFBF, sizeof buf);
		json_t *root = report_new();
		json_object_set_new(root, "geometry", report_geometry(w->g));
		char *head = json_dumps(root, JSON_INDENT(2) | JSON_SORT_KEYS);
		json_decref(root);
		/* "tiles" sorts last: the root without it, less its "\n}" */
		fwrite(head, 1, strlen(head) - 2, f);
		free(head);
		fputs(",\n  \"tiles\": ", f);
		JsLevel tiles;
		js_open(f, &tiles, '[');
		for (int i = 0; i < nfiles; i++)
			file_print(w, &src[i], &u[i], sol[i], f, &tiles);
		js_close(f, &tiles, 1);
		fputs("\n}\n", f);
	}
	for (int i = 0; i < nfiles; i++) {
		if (sol[i])
			file_free(&u[i], sol[i]);
		src_free(&src[i]);
	}
	free(sol);
	free(u);
	free(src);
	pool_free(p);
	return rc;
}

int cmd_explain(int argc, char **argv)
{
	enum { O_TILE = OPT_CMD, O_ACCESS, O_SUMMARY, O_CHOSEN, O_JSON };
	static const struct option lo[] = {
		{"json", no_argument, NULL, O_JSON},
		{"tile", required_argument, NULL, O_TILE},
		{"access", required_argument, NULL, O_ACCESS},
		{"summary", no_argument, NULL, O_SUMMARY},
		{"chosen", no_argument, NULL, O_CHOSEN},
		CLI_GEOM_OPTIONS, CLI_BUDGET_OPTION, CLI_HELP_OPTION, {0}};
	Geom g = sim_geom_default;
	int64_t work = 0;
	Cli cl = {"explain", argc, argv, ":h", lo, .geom = &g, .work = &work};
	Shown w = {&g, NULL, NULL, false, false, 0};
	bool json = false;
	char *arg;
	int ch, rc;
	while ((ch = cli_next(&cl, &arg, &rc)) != -1) {
		if (ch == CLI_STOP)
			return rc;
		if (ch == O_TILE)
			w.tname = arg;
		else if (ch == O_ACCESS)
			w.aname = arg;
		else if (ch == O_SUMMARY)
			w.summary = true;
		else if (ch == O_CHOSEN)
			w.chosen = true;
		else if (ch == O_JSON)
			json = true;
	}
	w.work = work;
	int nfiles = argc - optind;
	argv += optind;
	if (nfiles == 0)
		return cli_usage_error("%s", "explain needs a FILE");
	if (json)
		return explain_json(&w, argv, nfiles);
	if (w.summary)
		printf("%-18s %-16s %-24s %6s %10s %8s %8s\n", "tile", "access", "op",
		       "insts", "wavefronts", "ideal", "ratio");
	return explain_text(&w, argv, nfiles);
}
