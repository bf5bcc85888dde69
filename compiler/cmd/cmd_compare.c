/* bankc compare: per tile, the layouts ranked by the objective, with the
 * certificate (lower bound, and whether the choice reaches it), the
 * baselines of other systems, and occupancy; as text or JSON. */
#include <getopt.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "bankc.h"
#include "cmd/cmd.h"

static void describe(const Cand *c, const Tile *t, char *buf, size_t n)
{
	layout_describe(&c->l, t, buf, n);
}

/* Every line of the tables fits TEXT_W columns: the ranking holds the
 * totals, one line a layout (a longer name takes a line of its own), and
 * the wavefronts of each access follow in a second table, its columns cut
 * into as many blocks as the width needs. */
enum { LAYOUT_W = 44, LABEL_MIN = 6 };

static void print_header(void)
{
	printf("  %4s  %-*s  %8s  %7s  %7s  %6s  %5s\n", "rank", LAYOUT_W,
	       "layout", "weighted", "bytes", "over", "blk/SM", "arith");
}

static void print_row(const Tile *t, const char *rank, const char *name,
                      const Cand *c)
{
	Layout rm = layout_rowmajor(t);
	int64_t base = layout_bytes(&rm, t);
	if ((int)strlen(name) > LAYOUT_W) {
		printf("  %4s  %s\n", rank, name);
		rank = name = "";
	}
	printf("  %4s  %-*s  %8lld  %7lld  %+6.1f%%  %6d  %5d\n", rank, LAYOUT_W,
	       name, (long long)c->wave, (long long)c->bytes,
	       100.0 * (double)(c->bytes - base) / (double)base, c->blocks,
	       c->arith);
}

/* The rows of the per-access table: the ranked layouts by rank, then the
 * legal baselines by name. */
typedef struct {
	char label[16];
	const Cand *c;
} AccRow;

/* A cell of the per-access table: costed/ideal. */
static int acc_cell(const AccRow *r, const Solution *s, int j, char *buf,
                    size_t n)
{
	return snprintf(buf, n, "%lld/%lld", (long long)r->c->acc_wave[j],
	                (long long)s->acc_ideal[j]);
}

static void print_access_table(const Tile *t, const Solution *s,
                               const AccRow *row, int nrow)
{
	int lw = LABEL_MIN;
	for (int i = 0; i < nrow; i++)
		if ((int)strlen(row[i].label) > lw)
			lw = (int)strlen(row[i].label);
	/* each column as wide as its name or its widest cell, 11 at least */
	int *cw = xcalloc((size_t)t->nacc, sizeof *cw);
	for (int j = 0; j < t->nacc; j++) {
		char cell[48];
		cw[j] = (int)strlen(t->acc[j].name);
		if (cw[j] < 11)
			cw[j] = 11;
		for (int i = 0; i < nrow; i++) {
			int n = acc_cell(&row[i], s, j, cell, sizeof cell);
			if (n > cw[j])
				cw[j] = n;
		}
	}
	printf("  wavefronts per access (costed/ideal):\n");
	for (int j0 = 0; j0 < t->nacc;) {
		int j1 = j0, w = 4 + lw;
		do
			w += 2 + cw[j1++];
		while (j1 < t->nacc && w + 2 + cw[j1] <= TEXT_W);
		printf("    %-*s", lw, "layout");
		for (int j = j0; j < j1; j++)
			printf("  %*s", cw[j], t->acc[j].name);
		printf("\n");
		for (int i = 0; i < nrow; i++) {
			printf("    %-*s", lw, row[i].label);
			for (int j = j0; j < j1; j++) {
				char cell[48];
				acc_cell(&row[i], s, j, cell, sizeof cell);
				printf("  %*s", cw[j], cell);
			}
			printf("\n");
		}
		j0 = j1;
	}
	free(cw);
}

static bool tile_has_atomics(const Tile *t)
{
	for (int j = 0; j < t->nacc; j++)
		if (t->acc[j].op.kind == OP_ATOM)
			return true;
	return false;
}

/* Decimal digits of v into buf (at least 40 bytes). */
static const char *u128_text(SolveCount128 v, char *buf)
{
	char tmp[48];
	int n = 0;
	do {
		tmp[n++] = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v);
	for (int i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = 0;
	return buf;
}

static void print_tile(const Tile *t, const Solution *s, const Baseline *b,
                       int nb, int show)
{
	char *head = NULL;
	size_t hlen = 0;
	FILE *m = xmemstream(&head, &hlen);
	if (t->len)
		fprintf(m, "%d %s (as %d x %d)", t->elen, tab_dtype[t->dtype].name,
		        t->rows, t->cols);
	else
		fprintf(m, "%d x %d %s", t->rows, t->ecols, tab_dtype[t->dtype].name);
	if (tile_elem_bits(t) < 8)
		fprintf(m, " (%d byte%s a row)", t->cols, text_plural(t->cols));
	if (t->stages > 1)
		fprintf(m, " x %d stages", t->stages);
	fprintf(m, ", %s", tab_arch[t->arch].name);
	if (t->threads)
		fprintf(m, ", %d threads", t->threads);
	fclose(m);
	/* "tile NAME:" stays whole; where the line would pass the width,
	 * the shape goes on the next */
	int col = printf("tile %s:", t->name);
	if (col + 1 + (int)strlen(head) > TEXT_W) {
		printf("\n    ");
		col = 4;
	} else {
		putchar(' ');
		col++;
	}
	text_wrap(stdout, head, col, TEXT_W, 4);
	free(head);
	if (tab_arch[t->arch].cc >= 100)
		printf("  bank model: assumed: the sm_90 bank rules, measured on an "
		       "H200 (no %s measured)\n", tab_arch[t->arch].name);
	else if (!tab_arch[t->arch].measured)
		printf("  bank model: assumed for %s (measured on sm_90)\n",
		       tab_arch[t->arch].name);
	if (!s->found) {
		printf("  no legal layout (see the error)\n\n");
		return;
	}
	char name[160];
	const Cand *c = &s->best;
	describe(c, t, name, sizeof name);
	int64_t gap = c->wave - s->aligned_bound;
	text_wrapf(stdout, 0, TEXT_W, 4, "  chosen: %s: %lld weighted wavefront%s, "
	           "%lld byte%s, %d block%s/SM (row-major %d)", name,
	           (long long)c->wave, text_plural(c->wave), (long long)c->bytes,
	           text_plural(c->bytes), c->blocks, text_plural(c->blocks),
	           s->blocks_rowmajor);
	char *line = NULL;
	size_t len = 0;
	m = xmemstream(&line, &len);
	fprintf(m, "  lower bound %lld (sum of ideal)", (long long)s->lower_bound);
	if (s->aligned_bound != s->lower_bound)
		fprintf(m, ", %lld knowing that %d-byte vectors stay whole and "
		        "aligned%s", (long long)s->aligned_bound, tile_granule(t),
		        tile_has_atomics(t) ? " and that atomics on one word serialise"
		                            : "");
	if (gap == 0)
		fprintf(m, ": optimal");
	else if (solve_unproven(s))
		fprintf(m, ": not proven optimal: search budget reached, %lld above "
		        "the bound", (long long)gap);
	else
		fprintf(m, ": best found, %lld above the bound", (long long)gap);
	fclose(m);
	text_wrap(stdout, line, 0, TEXT_W, 4);
	free(line);
	int shown = s->ntop < show ? s->ntop : show;
	AccRow *row = xcalloc((size_t)(shown + nb), sizeof *row);
	int nrow = 0;
	print_header();
	for (int i = 0; i < shown; i++) {
		AccRow *r = &row[nrow++];
		snprintf(r->label, sizeof r->label, "%d", i + 1);
		r->c = &s->top[i];
		describe(&s->top[i], t, name, sizeof name);
		print_row(t, r->label, name, &s->top[i]);
	}
	printf("  baselines:\n");
	for (int i = 0; i < nb; i++) {
		char label[160];
		snprintf(label, sizeof label, "%s%s%s%s", b[i].name,
		         b[i].note[0] ? " (" : "", b[i].note, b[i].note[0] ? ")" : "");
		if (!b[i].legal) {
			printf("  %4s  %s: cannot hold this tile\n", "", label);
			continue;
		}
		print_row(t, "", label, &b[i].c);
		AccRow *r = &row[nrow++];
		snprintf(r->label, sizeof r->label, "%s", b[i].name);
		r->c = &b[i].c;
	}
	print_access_table(t, s, row, nrow);
	free(row);
	char xs[128] = "";
	if (s->xor_total) {
		char a[48], b[48];
		snprintf(xs, sizeof xs, "; %s of %s xor maps",
		         u128_text(s->xor_searched, a), u128_text(s->xor_total, b));
	}
	text_wrapf(stdout, 0, TEXT_W, 4, "  searched: %ld layout%s costed, %ld "
	           "cut short by the bound, %ld illegal%s; %lld of %lld work "
	           "units%s", s->evaluated, text_plural(s->evaluated), s->cut,
	           s->illegal, xs, (long long)s->work, (long long)s->work_budget,
	           s->budget_reached ? ", search budget reached" : "");
	putchar('\n');
}

int cmd_compare(int argc, char **argv)
{
	enum { O_JSON = OPT_CMD, O_TOP };
	static const struct option lo[] = {
		{"json", no_argument, NULL, O_JSON},
		{"top", required_argument, NULL, O_TOP},
		CLI_GEOM_OPTIONS, CLI_BUDGET_OPTION, CLI_HELP_OPTION, {0}};
	Geom g = sim_geom_default;
	int64_t work = 0;
	Cli cl = {"compare", argc, argv, ":h", lo, .geom = &g, .work = &work};
	bool json = false;
	long top = 5;
	char *arg;
	int ch, rc;
	while ((ch = cli_next(&cl, &arg, &rc)) != -1) {
		if (ch == CLI_STOP)
			return rc;
		if (ch == O_JSON)
			json = true;
		else if (ch == O_TOP && !cli_number("--top", arg, 1, 1000, &top, &rc))
			return rc;
	}
	int nfiles = argc - optind;
	argv += optind;
	if (!nfiles)
		return cli_usage_error("%s", "compare needs a FILE");
	/* all files are checked before anything is printed */
	Pool *p = pool_new();
	Src *src = xcalloc((size_t)nfiles, sizeof *src);
	Unit *u = xcalloc((size_t)nfiles, sizeof *u);
	rc = frontend_files(argv, nfiles, p, stderr, src, u) ? 0 : 1;
	if (rc == 0) {
		json_t *tiles = json ? json_array() : NULL;
		SolveOpts o = {.top = (int)top, .budget = work};
		for (int i = 0; i < nfiles; i++) {
			/* a file's tiles share its adaptive budget: solved together */
			Solution *sol = xcalloc((size_t)u[i].ntiles + 1, sizeof *sol);
			if (!solve_unit(&u[i], &src[i], stderr, &g, &o, NULL, sol))
				rc = 1;
			for (int k = 0; k < u[i].ntiles; k++) {
				Solution *s = &sol[k];
				Baseline b[MAX_BASELINES];
				const Tile *vt = solution_tile(s, &u[i].tiles[k]);
				int nb = baseline_all(vt, &g, s->budget, b);
				if (json) {
					json_t *tj = report_solution(vt, s, b, nb);
					json_object_set_new(tj, "spec", report_string(src[i].name));
					json_array_append_new(tiles, tj);
				}
				else
					print_tile(vt, s, b, nb, top);
				solve_free(s);
			}
			free(sol);
		}
		if (json) {
			report_write(stdout, report_doc(json_pack("{s:o, s:o}",
			             "geometry", report_geometry(&g), "tiles", tiles)));
		}
	}
	for (int i = 0; i < nfiles; i++)
		src_free(&src[i]);
	free(src);
	free(u);
	pool_free(p);
	return rc;
}
