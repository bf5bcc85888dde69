/* The scalar shared accesses that ptxas merges into one vector access.
 *
 * ptxas turns shared loads (or stores) of one base register at
 * consecutive offsets into one access: two or four of 4 bytes into 8 or
 * 16, two of 8 into 16 (LDS.64, LDS.128, STS.64, STS.128 in the SASS).
 * It looks within a basic block, across the arithmetic and the other
 * loads between them, but not across a barrier, a call, another access
 * that may write the same memory (for loads) or touch it (for stores),
 * an access of the other direction through the same base register
 * within the 16 bytes around, or a new value of the base register; and
 * it merges only where it can prove the vector aligned: from where it placed the array and from the
 * arithmetic of the address (InterpRec.tz), never from the values that
 * the thread index or a parameter take.  Measured on an H200
 * (docs/validation.md): the tiled SGEMM's row of As read as 16-byte
 * loads, the bitonic sort's and the Blelloch scan's neighbours as 8-byte
 * ones, the FFT's first stage as 16-byte ones, in arrays declared with
 * 4- and 8-byte alignment.
 *
 * Here: the windows of candidates are found in the PTX (scan_merge_find),
 * every run of 2 or 4 members at consecutive offsets is costed as the
 * vector while the warps run (scan_cost.c, which costs a window's warp
 * instructions of one occurrence together, once every lane has passed
 * all of the window's), and at the end each window
 * keeps, from its lowest offset up, the widest runs that every execution
 * allowed (scan_merge_choose). */
#include <stdlib.h>
#include <string.h>

#include "scan/scan.h"

enum { WINDOW_SPAN = 256 };     /* instructions a window looks ahead */

static bool has(const PtxInst *in, const char *lit)
{
	int k = (int)strlen(lit);
	for (int i = 0; i + k <= in->ntext; i++)
		if (memcmp(in->text + i, lit, (size_t)k) == 0)
			return true;
	return false;
}

/* Ordered and volatile accesses are left as they are. */
static bool ordered(const PtxInst *in)
{
	return has(in, ".volatile") || has(in, ".relaxed") || has(in, ".acquire") ||
	       has(in, ".release") || has(in, ".mmio");
}

static const PtxOpd *mem_of(const PtxInst *in)
{
	return &in->opd[in->op.kind == PO_LD ? 1 : 0];
}

/* A plain ld/st.shared of 4 or 8 bytes per thread (a scalar, or a v2 of
 * 4-byte elements). */
static bool candidate(const PtxInst *in)
{
	const PtxOpInfo *o = &in->op;
	int e = o->ty.bytes * o->vec;
	if ((o->kind != PO_LD && o->kind != PO_ST) || o->space != SP_SHARED ||
	    o->ty.bytes < 4 || (e != 4 && e != 8) || in->slot < 0 || ordered(in))
		return false;
	const PtxOpd *a = mem_of(in);
	return a->kind == OPD_MEM && !a->nvec && (a->reg >= 0 || a->sym >= 0);
}

static bool same_base(const PtxInst *a, const PtxInst *b)
{
	const PtxOpd *x = mem_of(a), *y = mem_of(b);
	return y->kind == OPD_MEM && !y->nvec && x->reg == y->reg && x->sym == y->sym;
}

/* Whether b's bytes, through a's base, lie within 16 bytes of a's
 * offset either way: inside a vector that a's window could make. */
static bool near(const PtxInst *a, const PtxInst *b)
{
	int64_t x = mem_of(a)->imm, y = mem_of(b)->imm;
	int64_t yb = (int64_t)b->op.ty.bytes * (b->op.vec ? b->op.vec : 1);
	return y + yb > x - 16 && y < x + 16;
}

/* Whether instruction in writes register r. */
static bool writes(const PtxModule *m, const PtxInst *in, int r)
{
	switch (in->op.kind) {
	case PO_ST: case PO_RED: case PO_STMATRIX: case PO_CPASYNC: case PO_BRA:
	case PO_RET: case PO_EXIT: case PO_TRAP: case PO_NOP:
		return false;
	default:
		break;
	}
	if (!in->nopd || r < 0)
		return false;
	const PtxOpd *d = &in->opd[0];
	if (d->kind == OPD_REG)
		return d->reg == r || d->reg2 == r;
	if (d->kind == OPD_SINK)
		return d->reg2 == r;
	if (d->kind == OPD_VEC)
		for (int k = 0; k < d->nvec; k++)
			if (m->vec[d->sym + k].kind == OPD_REG && m->vec[d->sym + k].reg == r)
				return true;
	return false;
}

static bool has_mem(const PtxInst *in)
{
	for (int k = 0; k < in->nopd; k++)
		if (in->opd[k].kind == OPD_MEM)
			return true;
	return false;
}

typedef enum { GO_ON, MEMBER, MEMBER_LAST, STOP } Step;

/* What instruction b, met after leader a in its block, does to a's
 * window of candidates. */
static Step step(const PtxModule *m, const PtxInst *a, const PtxInst *b)
{
	PtxOpKind k = b->op.kind;
	const PtxOpd *ma = mem_of(a);
	bool load = a->op.kind == PO_LD;
	switch (k) {
	case PO_BRA: case PO_RET: case PO_EXIT: case PO_CALL: case PO_TRAP:
	case PO_NOP: case PO_SHARED_OTHER: case PO_ELECT: case PO_ATOM: case PO_RED:
	case PO_LDMATRIX: case PO_STMATRIX: case PO_CPASYNC:
		return STOP;
	case PO_LD: case PO_ST: {
		Space sp = b->op.space;
		if (sp == SP_PARAM || sp == SP_LOCAL || sp == SP_CONST || sp == SP_GLOBAL)
			break;
		bool mine = candidate(b) && b->op.kind == a->op.kind &&
		            b->op.ty.bytes * b->op.vec == a->op.ty.bytes * a->op.vec &&
		            same_base(a, b) && b->guard == a->guard &&
		            b->guard_neg == a->guard_neg;
		if (mine)
			return load && writes(m, b, ma->reg) ? MEMBER_LAST : MEMBER;
		if (ordered(b))
			return STOP;
		/* the same base the other way within the bytes a vector of
		 * the window could span (a store between the window's loads, a
		 * load between its stores, each at one of their elements):
		 * ptxas keeps the two in order and the window ends there
		 * (attention's S[i] = __expf(S[i] - m), unrolled: no vector on
		 * the H200); further off, ptxas knows they are apart */
		if (same_base(a, b) && b->op.kind != a->op.kind && near(a, b))
			return STOP;
		/* the same base at another offset: ptxas knows where it goes;
		 * through another register it may alias */
		if (!same_base(a, b) && (k == PO_ST || !load))
			return STOP;
		break;
	}
	default:
		if (has_mem(b))
			return STOP;
		break;
	}
	if (writes(m, b, ma->reg) || writes(m, b, a->guard))
		return STOP;
	return GO_ON;
}

static void push_chunk(ScanMerge *g, const int *slots, int n, int bytes, int win)
{
	if (g->nchunk == g->capchunk) {
		int cap = g->capchunk ? g->capchunk * 2 : 64;
		MergeChunk *c = xrealloc(g->chunk, (size_t)cap * sizeof *c);
		g->chunk = c;
		g->capchunk = cap;
	}
	MergeChunk *c = &g->chunk[g->nchunk];
	memset(c, 0, sizeof *c);
	c->n = n;
	c->bytes = bytes;
	c->win = win;
	c->ok = true;
	memcpy(c->slot, slots, (size_t)n * sizeof *slots);
	for (int j = 0; j < n; j++) {
		int s = slots[j];
		if (g->nof[s] < MERGE_PER_SLOT)
			g->of[s][g->nof[s]++] = g->nchunk;
		else
			c->ok = false;  /* more runs than kept: left unmerged */
	}
	g->nchunk++;
}

static int off_cmp(const void *x, const void *y)
{
	const int64_t *a = x, *b = y;
	return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : (a[1] > b[1]) - (a[1] < b[1]);
}

void scan_merge_find(const PtxModule *m, ScanMerge *g)
{
	memset(g, 0, sizeof *g);
	g->of = xcalloc((size_t)m->nslots + 1, sizeof *g->of);
	g->nof = xcalloc((size_t)m->nslots + 1, sizeof *g->nof);
	g->wfirst = xcalloc((size_t)m->nslots + 2, sizeof *g->wfirst);
	g->wslot = xcalloc((size_t)m->nslots + 1, sizeof *g->wslot);
	g->woff = xcalloc((size_t)m->nslots + 1, sizeof *g->woff);
	bool *target = xcalloc((size_t)m->ninst + 1, sizeof *target);
	bool *taken = xcalloc((size_t)m->ninst + 1, sizeof *taken);
	int *inst = xcalloc((size_t)m->nslots + 1, sizeof *inst);
	int64_t (*off)[2] = xcalloc((size_t)m->nslots + 1, sizeof *off);
	/* a branch target starts a basic block */
	for (int i = 0; i < m->ninst; i++)
		for (int k = 0; k < m->inst[i].nopd; k++)
			if (m->inst[i].opd[k].kind == OPD_LABEL && m->inst[i].op.kind != PO_CALL &&
			    m->inst[i].opd[k].sym >= 0 && m->inst[i].opd[k].sym < m->ninst)
				target[m->inst[i].opd[k].sym] = true;
	int used = 0;
	for (int i = 0; i < m->ninst; i++) {
		const PtxInst *a = &m->inst[i];
		if (taken[i] || !candidate(a))
			continue;
		const PtxFunc *f = &m->func[a->func];
		int end = f->first + f->ninst, n = 0;
		inst[n++] = i;
		for (int k = i + 1; k < end && k <= i + WINDOW_SPAN; k++) {
			if (target[k])
				break;
			Step st = step(m, a, &m->inst[k]);
			if (st == STOP)
				break;
			if (st == MEMBER || st == MEMBER_LAST) {
				if (!taken[k])
					inst[n++] = k;
				if (st == MEMBER_LAST)
					break;
			}
		}
		if (n < 2)
			continue;
		/* the window's members by offset; a repeated offset stays alone */
		for (int j = 0; j < n; j++) {
			off[j][0] = mem_of(&m->inst[inst[j]])->imm;
			off[j][1] = inst[j];
		}
		qsort(off, (size_t)n, sizeof *off, off_cmp);
		int w = g->nwin, first = used, e = a->op.ty.bytes * a->op.vec;
		for (int j = 0; j < n; j++) {
			if (j && off[j][0] == off[j - 1][0])
				continue;
			taken[off[j][1]] = true;
			g->woff[used] = off[j][0];
			g->wslot[used++] = m->inst[off[j][1]].slot;
		}
		if (used - first < 2) {
			used = first;
			continue;
		}
		g->wfirst[g->nwin++] = first;
		/* every run of 2 (and of 4, for 4-byte members) */
		for (int p = first; p < used; p++) {
			for (int len = e == 4 ? 4 : 2; len >= 2; len -= 2) {
				if (p + len > used)
					continue;
				bool run = true;
				for (int j = 1; j < len && run; j++)
					run = g->woff[p + j] == g->woff[p] + (int64_t)j * e;
				if (run)
					push_chunk(g, &g->wslot[p], len, e, w);
			}
		}
	}
	g->wfirst[g->nwin] = used;
	free(target);
	free(taken);
	free(inst);
	free(off);
}

void scan_merge_choose(const PtxModule *m, ScanMerge *g, ScanAcc *acc)
{
	(void)m;
	for (int w = 0; w < g->nwin; w++) {
		for (int p = g->wfirst[w]; p < g->wfirst[w + 1];) {
			int s = g->wslot[p], best = -1;
			for (int j = 0; j < g->nof[s]; j++) {
				MergeChunk *c = &g->chunk[g->of[s][j]];
				if (c->slot[0] == s && c->ok && c->acc.count &&
				    c->acc.count == acc[s].count && (best < 0 || c->n > g->chunk[best].n))
					best = g->of[s][j];
			}
			if (best < 0) {
				p++;
				continue;
			}
			MergeChunk *c = &g->chunk[best];
			free(acc[s].masks);
			free(acc[s].addrs);
			free(acc[s].kcount);
			acc[s] = c->acc;
			acc[s].merged_from = c->n;
			c->acc.masks = NULL;
			c->acc.addrs = NULL;
			c->acc.kcount = NULL;
			for (int j = 1; j < c->n; j++) {
				ScanAcc *b = &acc[c->slot[j]];
				free(b->masks);
				free(b->addrs);
				free(b->kcount);
				b->masks = NULL;
				b->addrs = NULL;
				b->kcount = NULL;
				b->nkept = b->capkept = b->kept = b->count = b->wave = b->ideal = b->counted = 0;
			}
			p += c->n;
		}
	}
}

void scan_merge_free(ScanMerge *g)
{
	for (int i = 0; i < g->nchunk; i++) {
		free(g->chunk[i].acc.masks);
		free(g->chunk[i].acc.addrs);
		free(g->chunk[i].acc.kcount);
	}
	free(g->chunk);
	free(g->of);
	free(g->nof);
	free(g->wfirst);
	free(g->wslot);
	free(g->woff);
	memset(g, 0, sizeof *g);
}
