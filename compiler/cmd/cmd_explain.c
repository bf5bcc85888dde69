/* bankc explain: every warp instruction of a spec's accesses, with its
 * wavefronts, its ideal, and the banks that make it conflict. */
#include <errno.h>
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

/* The loop variables' values of instruction i, as JSON. */
static json_t *vars_json(const Access *a, int i)
{
	json_t *o = json_object();
	if (a->place != PL_GENERAL)
		return o;
	for (int v = 0; v < a->nloops; v++)
		json_object_set_new(o, a->loops[v].name,
		                    json_integer(a->inst[i].var[v]));
	return o;
}

/* Instruction i of access a as JSON: its cost, phase by phase. */
static json_t *inst_json(const Geom *g, const Layout *l, const Tile *t,
                         const Access *a, int i, const SimResult *r)
{
	int bytes = (int)(a->vec * tile_elem_bytes(t));
	int64_t addr[WARP];
	layout_inst_addrs(l, t, &a->inst[i], addr);
	json_t *phases = json_array();
	for (int k = 0; k < r->nphase; k++) {
		json_t *conf = json_array();
		if (a->op.kind != OP_CPASYNC && r->phase[k].wavefronts > 1) {
			int count[64];
			sim_phase_banks(g, a->op, bytes, r->phase[k].lanes, addr, count);
			for (int b = 0; b < g->banks; b++)
				if (count[b] > 1)
					json_array_append_new(conf, json_pack("{s:i, s:i}",
					                      "bank", b, "words", count[b]));
		}
		char lanes[16];
		snprintf(lanes, sizeof lanes, "%08x", r->phase[k].lanes);
		json_array_append_new(phases, json_pack("{s:s, s:i, s:i, s:o}",
		                      "lanes", lanes, "wavefronts",
		                      r->phase[k].wavefronts, "ideal",
		                      r->phase[k].ideal, "conflicts", conf));
	}
	return json_pack("{s:i, s:o, s:i, s:i, s:i, s:b, s:o}", "index", i,
	                 "vars", vars_json(a, i), "wavefronts", r->wavefronts,
	                 "ideal", r->ideal, "counted", r->counted, "merged",
	                 r->merged, "phases", phases);
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
		for (int i = 0; i < a->ninst; i++) {
			SimResult r;
			layout_sim_inst(g, l, t, a, &a->inst[i], &r);
			js_next(f, &v, depth + 1, NULL);
			js_value(f, depth + 2, inst_json(g, l, t, a, i, &r));
		}
		js_close(f, &v, depth + 1);
	}
	js_next(f, &o, depth, "wavefronts");
	js_value(f, depth + 1, json_integer(tw));
	js_close(f, &o, depth);
}

/* One tile of explain --json, an element of "tiles" (an object at depth
 * 2); the accesses shown are those access_ok takes. */
typedef struct {
	FILE *f;            /* NULL: text */
	JsLevel tiles;
} JsOut;

static int explain_file(const Geom *g, const char *file, const char *tname,
                        const char *aname, bool summary, bool chosen,
                        JsOut *js, int64_t work)
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
		Solution s = {0};
		if (chosen) {
			SolveOpts o = {.top = 1, .budget = work,
			               .file_defaults = solve_file_defaults(&u)};
			if (!solve_tile_or_report(t, &src, stderr, g, &o, &s)) {
				solve_free(&s);
				goto out;
			}
			l = s.best.l;
			t = solution_tile(&s, t);   /* a 1-D tile: the view chosen */
		}
		FILE *f = js ? js->f : NULL;
		JsLevel to, accs;
		if (f) {
			js_next(f, &js->tiles, 1, NULL);
			js_open(f, &to, '{');
			js_next(f, &to, 2, "accesses");
			js_open(f, &accs, '[');
		}
		for (int j = 0; j < t->nacc; j++)
			if (!aname || strcmp(aname, t->acc[j].name) == 0) {
				if (f) {
					js_next(f, &accs, 3, NULL);
					access_json(f, 4, g, &l, t, &t->acc[j], summary);
				} else if (summary) {
					summary_access(g, &l, t, &t->acc[j]);
				} else {
					explain_access(g, &l, t, &t->acc[j]);
				}
				shown++;
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
			char *spec = esc_utf8(src.name);     /* JSON holds UTF-8 */
			js_value(f, 3, json_string(spec));
			free(spec);
			js_close(f, &to, 2);
		}
		solve_free(&s);
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
	const char *tname = NULL, *aname = NULL;
	bool summary = false, chosen = false, json = false;
	char *arg;
	int ch, rc;
	while ((ch = cli_next(&cl, &arg, &rc)) != -1) {
		if (ch == CLI_STOP)
			return rc;
		if (ch == O_TILE)
			tname = arg;
		else if (ch == O_ACCESS)
			aname = arg;
		else if (ch == O_SUMMARY)
			summary = true;
		else if (ch == O_CHOSEN)
			chosen = true;
		else if (ch == O_JSON)
			json = true;
	}
	int nfiles = argc - optind;
	argv += optind;
	if (nfiles == 0)
		return cli_usage_error("%s", "explain needs a FILE");
	if (summary && !json)
		printf("%-18s %-16s %-24s %6s %10s %8s %8s\n", "tile", "access", "op",
		       "insts", "wavefronts", "ideal", "ratio");
	/* the document is written as it is made, into a temporary file,
	 * and copied out only when every file went well: no partial output */
	JsOut js = {0};
	if (json && !(js.f = tmpfile())) {
		fprintf(stderr, "bankc: error: cannot make a temporary file: %s\n",
		        strerror(errno));
		return 1;
	}
	if (json) {
		json_t *root = report_new();
		json_object_set_new(root, "geometry", report_geometry(&g));
		char *head = json_dumps(root, JSON_INDENT(2) | JSON_SORT_KEYS);
		json_decref(root);
		/* "tiles" sorts last: the root without it, less its "\n}" */
		fwrite(head, 1, strlen(head) - 2, js.f);
		free(head);
		fputs(",\n  \"tiles\": ", js.f);
		js_open(js.f, &js.tiles, '[');
	}
	rc = 0;
	for (int i = 0; i < nfiles; i++)
		if (explain_file(&g, argv[i], tname, aname, summary, chosen,
		                 json ? &js : NULL, work))
			rc = 1;
	if (json) {
		js_close(js.f, &js.tiles, 1);
		fputs("\n}\n", js.f);
		if (rc == 0 && (fflush(js.f) != 0 || ferror(js.f))) {
			fprintf(stderr, "bankc: error: cannot write a temporary file: "
			        "%s\n", strerror(errno));
			rc = 1;
		}
		rewind(js.f);
		char buf[65536];
		size_t n;
		while (rc == 0 && (n = fread(buf, 1, sizeof buf, js.f)) > 0)
			fwrite(buf, 1, n, stdout);
		fclose(js.f);
	}
	return rc;
}
