/* NAME.svg: for each access, the lane-to-bank map of its worst warp
 * instruction under row-major beside the same instruction under the chosen
 * layout.  Each phase is a band of one column per bank (any bank count
 * from 1 to 64); a bank's distinct words stack downwards, labelled with a
 * lane that wants each; a bank serving more than one word (a conflict) is
 * red.  cp.async is no bank access: its panel shows the 128-byte segments
 * its destinations touch, a row each, in 16-byte columns. */
#include <string.h>

#include "bankc.h"

enum { CELL = 14, LABEL = 18, GAP = 30 };

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
	p->height += LABEL;
}

static void panel_draw(FILE *f, const Geom *g, const Tile *t, const Access *a,
                       const Panel *p, int x0, int y0, const char *title)
{
	int bytes = (int)(a->vec * tile_elem_bytes(t));
	fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"h\">", x0, y0 + 12);
	put_text(f, title);
	fputs("</text>\n", f);
	int y = y0 + LABEL;
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
		fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"h\">%d 128-byte "
		        "segment%s (least %d); no bank access</text>\n", x0, y + 12,
		        p->r.wavefronts, p->r.wavefronts == 1 ? "" : "s", p->r.ideal);
	else
		fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"h\">%d wavefront%s "
		        "(ideal %d)</text>\n", x0, y + 12, p->r.wavefronts,
		        p->r.wavefronts == 1 ? "" : "s", p->r.ideal);
}

void emit_svg(FILE *f, const Geom *g, const Tile *t, const Solution *s)
{
	Layout rm = layout_rowmajor(t);
	/* wide enough for the banks, the title and cp.async's 8 slots */
	int cols = g->banks > 8 ? g->banks : 8;
	int width = 2 * cols * CELL + 3 * GAP;
	if (width < 900)
		width = 900;
	Panel pr[MAX_ACCESSES], pc[MAX_ACCESSES];
	int pick[MAX_ACCESSES];
	int height = GAP;
	for (int j = 0; j < t->nacc; j++) {
		const Access *a = &t->acc[j];
		/* the instruction row-major serves worst, the first on ties */
		int best = 0, bw = -1;
		for (int i = 0; i < a->ninst; i++) {
			SimResult r;
			layout_sim_inst(g, &rm, t, a, &a->inst[i], &r);
			if (r.wavefronts > bw)
				bw = r.wavefronts, best = i;
		}
		pick[j] = best;
		panel_prepare(g, &rm, t, a, &a->inst[best], &pr[j]);
		panel_prepare(g, &s->best.l, t, a, &a->inst[best], &pc[j]);
		int h = pr[j].height > pc[j].height ? pr[j].height : pc[j].height;
		height += LABEL + h + GAP;
	}
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	        "height=\"%d\" viewBox=\"0 0 %d %d\">\n", width, height + LABEL,
	        width, height + LABEL);
	fputs("<style>text{font-family:monospace;font-size:11px}"
	      ".h{font-size:12px}.t{font-size:14px;font-weight:bold}"
	      ".l{font-size:8px;text-anchor:middle}"
	      "rect{stroke:#888;stroke-width:0.5}.e{fill:#f4f4f4}"
	      ".o{fill:#b8e0b8}.c{fill:#f08080}.s{fill:#b8d0f0}</style>\n", f);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" "
	        "style=\"fill:white;stroke:none\"/>\n", width, height + LABEL);
	char lname[160];
	layout_describe(&s->best.l, t, lname, sizeof lname);
	fprintf(f, "<text x=\"%d\" y=\"20\" class=\"t\">tile %s: row-major (left) "
	        "and ", GAP, t->name);
	put_text(f, lname);
	if (g->banks == 1)
		fputs(" (right); the column is bank 0", f);
	else
		fprintf(f, " (right); columns are banks 0-%d", g->banks - 1);
	fputs(", red: a bank serving several words</text>\n", f);
	int y = GAP + 6;
	for (int j = 0; j < t->nacc; j++) {
		const Access *a = &t->acc[j];
		char op[32], title[200];
		tab_op_name(a->op, op, sizeof op);
		fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"h\">access %s: %s, "
		        "instruction %d of %d</text>\n", GAP, y + 12, a->name, op,
		        pick[j], a->ninst);
		y += LABEL;
		snprintf(title, sizeof title, "row-major");
		panel_draw(f, g, t, a, &pr[j], GAP, y, title);
		panel_draw(f, g, t, a, &pc[j], 2 * GAP + cols * CELL, y, lname);
		int h = pr[j].height > pc[j].height ? pr[j].height : pc[j].height;
		y += h + GAP;
	}
	fputs("</svg>\n", f);
}
