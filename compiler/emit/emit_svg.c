/* NAME.svg: a title and a legend; the layout itself, row-major beside
 * the chosen one: the bank of each element of stage 0 (a window of it for
 * a large tile), coloured by bank; then for each access its totals over
 * all its instructions under both layouts, and the lane-to-bank map of
 * its worst warp instruction under row-major beside the same instruction
 * under the chosen layout.  Each phase is a band of one column per bank
 * (any bank count from 1 to 64, numbered along a bank axis); a bank's
 * distinct words stack downwards, labelled with a lane that wants each;
 * a bank serving more than one word (a conflict) is red.  cp.async is no
 * bank access: its panel shows the 128-byte segments its destinations
 * touch, a row each, in 16-byte columns. */
#include <string.h>

#include "bankc.h"

enum { CELL = 14, LABEL = 18, GAP = 30, AXIS = 12, LCELL = 14,
	LROWS = 32, LCOLS = 64 };

/* Text for an SVG element: layout names hold '<' and '>'. */
static void put_text(FILE *f, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		default: fputc(*s, f);
		}
}

typedef struct {
	int nwords[64];             /* distinct words per bank */
	int lane[64][WARP * 4];     /* a lane wanting each of them */
	int64_t word[64][WARP * 4];
} BankMap;

/* cp.async: the segments its destinations touch, and in each 16-byte
 * slot a lane that writes there. */
typedef struct {
	int nseg;
	int64_t seg[WARP * 2];
	int lane[WARP * 2][8];
} SegMap;

static int seg_map(const int64_t *addr, int bytes, uint32_t lanes, SegMap *m)
{
	m->nseg = 0;
	for (int n = 0; n < WARP; n++) {
		if (!(lanes >> n & 1))
			continue;
		for (int64_t b = addr[n]; b < addr[n] + bytes; b += 16) {
			int64_t sg = b / 128;
			int k;
			for (k = 0; k < m->nseg && m->seg[k] != sg; k++)
				;
			if (k == m->nseg) {
				if (k == WARP * 2)
					continue;
				m->seg[m->nseg++] = sg;
				for (int i = 0; i < 8; i++)
					m->lane[k][i] = -1;
			}
			if (m->lane[k][b % 128 / 16] < 0)
				m->lane[k][b % 128 / 16] = n;
		}
	}
	return m->nseg;
}

/* Distinct words per bank of one phase. */
static int bank_map(const Geom *g, const int64_t *addr, int bytes,
                    uint32_t lanes, BankMap *m)
{
	memset(m->nwords, 0, sizeof m->nwords);
	int depth = 0;
	for (int n = 0; n < WARP; n++) {
		if (!(lanes >> n & 1))
			continue;
		for (int64_t w = addr[n] / g->bank_bytes;
		     w <= (addr[n] + bytes - 1) / g->bank_bytes; w++) {
			int b = (int)(w % g->banks);
			int k;
			for (k = 0; k < m->nwords[b] && m->word[b][k] != w; k++)
				;
			if (k < m->nwords[b] || k == WARP * 4)
				continue;
			m->word[b][k] = w;
			m->lane[b][k] = n;
			if (++m->nwords[b] > depth)
				depth = m->nwords[b];
		}
	}
	return depth;
}

typedef struct {
	SimResult r;
	int64_t addr[WARP];
	int height;
} Panel;

static void panel_prepare(const Geom *g, const Layout *l, const Tile *t,
                          const Access *a, const Inst *in, Panel *p)
{
	layout_inst_addrs(l, t, in, p->addr);
	layout_sim_inst(g, l, t, a, in, &p->r);
	int bytes = (int)(a->vec * tile_elem_bytes(t));
	static BankMap m;
	static SegMap sm;
	p->height = LABEL;
	for (int k = 0; k < p->r.nphase; k++) {
		int d = a->op.kind == OP_CPASYNC
		      ? seg_map(p->addr, bytes, p->r.phase[k].lanes, &sm)
		      : bank_map(g, p->addr, bytes, p->r.phase[k].lanes, &m);
		p->height += (d ? d : 1) * CELL + 6;
	}
	p->height += LABEL + AXIS;
}

/* The bank numbers over a band of banks (every one up to 32 banks,
 * every other one above). */
static void bank_axis(FILE *f, const Geom *g, int x0, int y)
{
	int every = g->banks > 32 ? 2 : 1;
	fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"a\" style=\"text-anchor:"
	        "end\">bank</text>\n", x0 - 2, y + AXIS - 3);
	for (int b = 0; b < g->banks; b += every)
		fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"a\">%d</text>\n",
		        x0 + b * CELL + CELL / 2, y + AXIS - 3, b);
}

static void panel_draw(FILE *f, const Geom *g, const Tile *t, const Access *a,
                       const Panel *p, int x0, int y0, const char *title)
{
	int bytes = (int)(a->vec * tile_elem_bytes(t));
	fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"h\">", x0, y0 + 12);
	put_text(f, title);
	fputs("</text>\n", f);
	int y = y0 + LABEL;
	if (a->op.kind != OP_CPASYNC)
		bank_axis(f, g, x0, y);
	y += AXIS;
	static BankMap m;
	static SegMap sm;
	for (int k = 0; k < p->r.nphase; k++) {
		if (a->op.kind == OP_CPASYNC) {
			int d = seg_map(p->addr, bytes, p->r.phase[k].lanes, &sm);
			for (int sg = 0; sg < d; sg++)
				for (int i = 0; i < 8; i++) {
					int cx = x0 + i * CELL, cy = y + sg * CELL;
					int ln = sm.lane[sg][i];
					fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" "
					        "height=\"%d\" class=\"%s\"/>", cx, cy, CELL, CELL,
					        ln < 0 ? "e" : "s");
					if (ln >= 0)
						fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"l\">%d"
						        "</text>", cx + CELL / 2, cy + CELL - 4, ln);
					fputc('\n', f);
				}
			y += (d ? d : 1) * CELL + 6;
			continue;
		}
		int d = bank_map(g, p->addr, bytes, p->r.phase[k].lanes, &m);
		for (int b = 0; b < g->banks; b++) {
			const char *cls = m.nwords[b] > 1 ? "c" : "o";
			if (m.nwords[b] == 0)
				fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
				        "class=\"e\"/>\n", x0 + b * CELL, y, CELL, CELL);
			for (int w = 0; w < m.nwords[b]; w++) {
				int cx = x0 + b * CELL, cy = y + w * CELL;
				fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
				        "class=\"%s\"/><text x=\"%d\" y=\"%d\" class=\"l\">%d"
				        "</text>\n", cx, cy, CELL, CELL, cls, cx + CELL / 2,
				        cy + CELL - 4, m.lane[b][w]);
			}
		}
		y += (d ? d : 1) * CELL + 6;
	}
	if (a->op.kind == OP_CPASYNC)
		fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"h\">this instruction: "
		        "%d 128-byte segment%s (least %d); no bank access</text>\n", x0,
		        y + 12, p->r.wavefronts, p->r.wavefronts == 1 ? "" : "s",
		        p->r.ideal);
	else
		fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"h\">this instruction: "
		        "%d wavefront%s (ideal %d)</text>\n", x0, y + 12,
		        p->r.wavefronts, p->r.wavefronts == 1 ? "" : "s", p->r.ideal);
}

/* ---- the layout itself ------------------------------------------------- */

/* The window of stage 0 the layout picture shows. */
static int lay_rows(const Tile *t) { return t->rows < LROWS ? t->rows : LROWS; }
static int lay_cols(const Tile *t) { return t->cols < LCOLS ? t->cols : LCOLS; }

static int lay_height(const Tile *t)
{
	return LABEL + AXIS + lay_rows(t) * LCELL + LABEL;
}

/* The bank of each element of row r, columns 0.., under l (its first
 * byte's bank), through the instruction addresses: 32 elements a time. */
static void row_banks(const Geom *g, const Layout *l, const Tile *t, int r,
                      int ncols, int *bank)
{
	for (int c0 = 0; c0 < ncols; c0 += WARP) {
		Inst in = {0};
		for (int n = 0; n < WARP; n++) {
			int c = c0 + n < ncols ? c0 + n : c0;
			in.lane[n] = (Coord){r, c};
			in.mask |= 1u << n;
		}
		int64_t addr[WARP];
		layout_inst_addrs(l, t, &in, addr);
		for (int n = 0; n < WARP && c0 + n < ncols; n++)
			bank[c0 + n] = (int)(addr[n] / g->bank_bytes % g->banks);
	}
}

/* One layout's picture: an element a cell, its bank written in it and
 * coloured by it (a hue per bank), row and column numbers every 8. */
static void layout_draw(FILE *f, const Geom *g, const Layout *l,
                        const Tile *t, int x0, int y0, const char *title)
{
	int nr = lay_rows(t), nc = lay_cols(t);
	fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"h\">", x0, y0 + 12);
	put_text(f, title);
	fputs("</text>\n", f);
	int y = y0 + LABEL;
	for (int c = 0; c < nc; c += 8)
		fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"a\">%d</text>\n",
		        x0 + c * LCELL + LCELL / 2, y + AXIS - 3, c);
	y += AXIS;
	int bank[LCOLS];
	for (int r = 0; r < nr; r++) {
		row_banks(g, l, t, r, nc, bank);
		if (r % 8 == 0)
			fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"a\" style=\""
			        "text-anchor:end\">%d</text>\n", x0 - 2,
			        y + r * LCELL + LCELL - 4, r);
		for (int c = 0; c < nc; c++) {
			int cx = x0 + c * LCELL, cy = y + r * LCELL;
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
			        "style=\"fill:hsl(%d,70%%,%d%%)\"/><text x=\"%d\" y=\"%d\" "
			        "class=\"l\">%d</text>\n", cx, cy, LCELL, LCELL,
			        bank[c] * 360 / g->banks, bank[c] % 2 ? 72 : 84,
			        cx + LCELL / 2, cy + LCELL - 4, bank[c]);
		}
	}
}

/* The totals of an access's n instructions from its first's costs. */
static void access_totals(const int *wave, const int *ideal, int n,
                          int64_t *tw, int64_t *ti)
{
	*tw = *ti = 0;
	for (int i = 0; i < n; i++) {
		*tw += wave[i];
		*ti += ideal[i];
	}
}

/* ---- the picture --------------------------------------------------------- */

/* The title, and a legend of the colours, from y 0 to the returned y. */
static int draw_head(FILE *f, const Geom *g, const Tile *t, const char *lname)
{
	fprintf(f, "<text x=\"%d\" y=\"20\" class=\"t\">tile %s: row-major "
	        "(left) and ", GAP, t->name);
	put_text(f, lname);
	fputs(" (right)</text>\n", f);
	fprintf(f, "<text x=\"%d\" y=\"38\">%d %s, %d-byte banks%s</text>\n",
	        GAP, g->banks, g->banks == 1 ? "bank" : "banks", g->bank_bytes,
	        g->merge_loads ? "" : ", no load merging");
	static const struct { const char *cls, *text; } key[] = {
		{"o", "a bank serving one word"},
		{"c", "a bank serving several words: a conflict"},
		{"e", "a bank no lane asks"},
		{"s", "a 16-byte slot cp.async writes"},
	};
	int x = GAP;
	for (size_t i = 0; i < sizeof key / sizeof *key; i++) {
		fprintf(f, "<rect x=\"%d\" y=\"46\" width=\"%d\" height=\"%d\" "
		        "class=\"%s\"/><text x=\"%d\" y=\"57\">%s</text>\n", x, CELL,
		        CELL, key[i].cls, x + CELL + 4, key[i].text);
		x += CELL + 12 + 7 * (int)strlen(key[i].text);
	}
	fprintf(f, "<text x=\"%d\" y=\"76\">access panels: a band per phase, a "
	        "column per bank, each bank's distinct words stacked down, each "
	        "labelled with a lane that asks for it</text>\n", GAP);
	return 84;
}

void emit_svg(FILE *f, const Geom *g, const Tile *t, const Solution *s,
              const EmitCosts *c)
{
	Layout rm = layout_rowmajor(t);
	char lname[160];
	layout_describe(&s->best.l, t, lname, sizeof lname);
	/* wide enough for the banks, the layout window, cp.async's 8 slots,
	 * the title and the legend (monospace: about 7 px a character) */
	int cols = g->banks > 8 ? g->banks : 8;
	int pw = cols * CELL > lay_cols(t) * LCELL ? cols * CELL : lay_cols(t) * LCELL;
	int width = 2 * pw + 4 * GAP;
	/* the longest line of text: the title (14 px bold, 9 px a character)
	 * or an access's totals (12 px, 8 px a character) */
	int tw = 2 * GAP + 9 * (int)(strlen(t->name) + strlen(lname) + 40);
	int aw = 2 * GAP + 8 * (int)(strlen(lname) + 120);
	if (tw < aw)
		tw = aw;
	if (width < tw)
		width = tw;
	if (width < 1000)
		width = 1000;
	Panel pr[MAX_ACCESSES], pc[MAX_ACCESSES];
	int pick[MAX_ACCESSES];
	int height = 84 + LABEL + lay_height(t) + GAP;
	for (int j = 0, first = 0; j < t->nacc; first += t->acc[j++].ninst) {
		const Access *a = &t->acc[j];
		int nw = 2 * GAP + 9 * (int)(strlen(a->name) + 48);
		if (width < nw)
			width = nw;
		/* the instruction row-major serves worst, the first on ties */
		int best = 0, bw = -1;
		for (int i = 0; i < a->ninst; i++)
			if (c->wave_rm[first + i] > bw)
				bw = c->wave_rm[first + i], best = i;
		pick[j] = best;
		panel_prepare(g, &rm, t, a, &a->inst[best], &pr[j]);
		panel_prepare(g, &s->best.l, t, a, &a->inst[best], &pc[j]);
		int h = pr[j].height > pc[j].height ? pr[j].height : pc[j].height;
		height += 2 * LABEL + h + GAP;
	}
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	        "height=\"%d\" viewBox=\"0 0 %d %d\">\n", width, height, width,
	        height);
	fputs("<style>text{font-family:monospace;font-size:11px}"
	      ".h{font-size:12px}.t{font-size:14px;font-weight:bold}"
	      ".l{font-size:8px;text-anchor:middle}"
	      ".a{font-size:8px;text-anchor:middle;fill:#666}"
	      "rect{stroke:#888;stroke-width:0.5}.e{fill:#f4f4f4}"
	      ".o{fill:#b8e0b8}.c{fill:#f08080}.s{fill:#b8d0f0}</style>\n", f);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" "
	        "style=\"fill:white;stroke:none\"/>\n", width, height);
	int y = draw_head(f, g, t, lname);
	fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"h\">the layout: the bank of "
	        "each element of stage 0 (its first byte), coloured by bank",
	        GAP, y + 12);
	if (lay_rows(t) < t->rows || lay_cols(t) < t->cols)
		fprintf(f, "; rows 0-%d and columns 0-%d of %d x %d shown",
		        lay_rows(t) - 1, lay_cols(t) - 1, t->rows, t->cols);
	fputs("</text>\n", f);
	y += LABEL;
	layout_draw(f, g, &rm, t, GAP, y, "row-major");
	layout_draw(f, g, &s->best.l, t, 3 * GAP + pw, y, lname);
	y += lay_height(t) + GAP;
	for (int j = 0, first = 0; j < t->nacc; first += t->acc[j++].ninst) {
		const Access *a = &t->acc[j];
		char op[32];
		tab_op_name(a->op, op, sizeof op);
		/* the ideal (a wavefront per phase with a lane) is the same
		 * under both layouts */
		int64_t rw, ri, cw, ci;
		access_totals(c->wave_rm + first, c->ideal_rm + first, a->ninst, &rw, &ri);
		access_totals(c->wave + first, c->ideal + first, a->ninst, &cw, &ci);
		const char *unit = a->op.kind == OP_CPASYNC ? (rw == 1 ? "segment" : "segments")
		                   : rw == 1 ? "wavefront" : "wavefronts";
		fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"t\">access %s: %s, %d "
		        "instruction%s</text>\n", GAP, y + 12, a->name, op, a->ninst,
		        a->ninst == 1 ? "" : "s");
		fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"h\">all of them: "
		        "row-major %lld %s, ", GAP, y + LABEL + 12, (long long)rw, unit);
		put_text(f, lname);
		fprintf(f, " %lld, ideal %lld; below, instruction %d: the one "
		        "row-major serves worst</text>\n", (long long)cw, (long long)ri,
		        pick[j]);
		y += 2 * LABEL;
		panel_draw(f, g, t, a, &pr[j], GAP, y, "row-major");
		panel_draw(f, g, t, a, &pc[j], 3 * GAP + pw, y, lname);
		int h = pr[j].height > pc[j].height ? pr[j].height : pc[j].height;
		y += h + GAP;
	}
	fputs("</svg>\n", f);
}
