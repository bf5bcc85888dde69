/* Where the two sides of a branch meet again: a function's basic blocks
 * and their immediate post-dominators (Cooper, Harvey and Kennedy's
 * iterative algorithm, on the reversed graph).  The interpreter runs both
 * sides of a branch it cannot decide and continues, once, where they
 * meet. */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"

typedef struct {
	int first, last;        /* instructions */
	int succ[2], nsucc;     /* blocks; nb (the exit) for a return */
	int *pred, npred;
} Block;

static bool ends_block(const PtxInst *in)
{
	PtxOpKind k = in->op.kind;
	return k == PO_BRA || k == PO_RET || k == PO_EXIT || k == PO_TRAP;
}

/* The blocks of function f; *nb of them, block_of[i - first]. */
static Block *blocks_of(const PtxModule *m, const PtxFunc *f, int *block_of, int *nbp)
{
	int n = f->ninst;
	bool *lead = xcalloc((size_t)n + 1, 1);
	lead[0] = true;
	for (int j = 0; j < n; j++) {
		const PtxInst *in = &m->inst[f->first + j];
		if (ends_block(in) && j + 1 < n)
			lead[j + 1] = true;
		if (in->op.kind == PO_BRA && in->nopd && in->opd[0].kind == OPD_LABEL) {
			int t = in->opd[0].sym - f->first;
			if (t >= 0 && t < n)
				lead[t] = true;
		}
	}
	int nb = 0;
	for (int j = 0; j < n; j++)
		nb += lead[j];
	Block *b = xcalloc((size_t)nb + 1, sizeof *b);
	nb = -1;
	for (int j = 0; j < n; j++) {
		if (lead[j])
			b[++nb].first = j;
		b[nb].last = j;
		block_of[j] = nb;
	}
	nb++;
	free(lead);
	for (int i = 0; i < nb; i++) {
		const PtxInst *in = &m->inst[f->first + b[i].last];
		bool guarded = in->guard >= 0;
		int next = i + 1 < nb ? i + 1 : nb;
		PtxOpKind k = in->op.kind;
		if (k == PO_BRA) {
			int t = in->nopd && in->opd[0].kind == OPD_LABEL ? in->opd[0].sym - f->first : -1;
			b[i].succ[b[i].nsucc++] = t >= 0 && t < n ? block_of[t] : nb;
			if (guarded && b[i].succ[0] != next)
				b[i].succ[b[i].nsucc++] = next;
		} else if (k == PO_RET || k == PO_EXIT || k == PO_TRAP) {
			b[i].succ[b[i].nsucc++] = nb;
			if (guarded && next != nb)
				b[i].succ[b[i].nsucc++] = next;
		} else {
			b[i].succ[b[i].nsucc++] = next;
		}
	}
	*nbp = nb;
	return b;
}

/* Postorder of the reversed graph from the exit (node nb). */
static void postorder(Block *b, int nb, int *order, int *num)
{
	int *stack = xmalloc(((size_t)nb + 1) * sizeof *stack);
	int *edge = xcalloc((size_t)nb + 1, sizeof *edge);
	bool *seen = xcalloc((size_t)nb + 1, 1);
	int sp = 0, k = 0;
	stack[sp++] = nb;
	seen[nb] = true;
	while (sp) {
		int v = stack[sp - 1];
		int npred = v == nb ? b[nb].npred : b[v].npred;
		if (edge[v] < npred) {
			int u = b[v].pred[edge[v]++];
			if (!seen[u]) {
				seen[u] = true;
				stack[sp++] = u;
			}
			continue;
		}
		sp--;
		num[v] = k;
		order[k++] = v;
	}
	for (int v = 0; v <= nb; v++)
		if (!seen[v])
			num[v] = -1;    /* never reaches the exit */
	free(stack);
	free(edge);
	free(seen);
}

void ptx_flow_joins(const PtxModule *m, int fi, int32_t *join)
{
	const PtxFunc *f = &m->func[fi];
	if (f->ninst <= 0)
		return;
	int *block_of = xmalloc((size_t)f->ninst * sizeof *block_of);
	int nb;
	Block *b = blocks_of(m, f, block_of, &nb);
	/* predecessors (the exit's too, as node nb) */
	Block *all = xrealloc(b, ((size_t)nb + 1) * sizeof *b);
	b = all;
	memset(&b[nb], 0, sizeof b[nb]);
	int *cnt = xcalloc((size_t)nb + 1, sizeof *cnt);
	for (int i = 0; i < nb; i++)
		for (int s = 0; s < b[i].nsucc; s++)
			cnt[b[i].succ[s]]++;
	for (int v = 0; v <= nb; v++) {
		b[v].pred = xmalloc(((size_t)cnt[v] + 1) * sizeof *b[v].pred);
		b[v].npred = 0;
	}
	for (int i = 0; i < nb; i++)
		for (int s = 0; s < b[i].nsucc; s++) {
			Block *t = &b[b[i].succ[s]];
			t->pred[t->npred++] = i;
		}
	int *order = xmalloc(((size_t)nb + 1) * sizeof *order);
	int *num = xmalloc(((size_t)nb + 1) * sizeof *num);
	postorder(b, nb, order, num);
	/* ipdom[v]: over the reversed graph, the exit is the root */
	int *ipdom = xmalloc(((size_t)nb + 1) * sizeof *ipdom);
	for (int v = 0; v <= nb; v++)
		ipdom[v] = -1;
	ipdom[nb] = nb;
	int nreach = num[nb] + 1;
	for (bool changed = true; changed;) {
		changed = false;
		for (int k = nreach - 2; k >= 0; k--) {
			int v = order[k], nd = -1;
			for (int s = 0; s < b[v].nsucc; s++) {
				int u = b[v].succ[s];
				if (num[u] < 0 || ipdom[u] < 0)
					continue;
				if (nd < 0) {
					nd = u;
					continue;
				}
				int x = u, y = nd;
				while (x != y) {
					while (num[x] < num[y]) x = ipdom[x];
					while (num[y] < num[x]) y = ipdom[y];
				}
				nd = x;
			}
			if (nd >= 0 && ipdom[v] != nd) {
				ipdom[v] = nd;
				changed = true;
			}
		}
	}
	for (int i = 0; i < nb; i++) {
		int at = f->first + b[i].last;
		if (m->inst[at].op.kind != PO_BRA || m->inst[at].guard < 0)
			continue;
		int d = num[i] < 0 ? -1 : ipdom[i];
		join[at] = d < 0 ? FLOW_NONE : d == nb ? FLOW_EXIT : f->first + b[d].first;
	}
	for (int v = 0; v <= nb; v++)
		free(b[v].pred);
	free(b);
	free(cnt);
	free(order);
	free(num);
	free(ipdom);
	free(block_of);
}
