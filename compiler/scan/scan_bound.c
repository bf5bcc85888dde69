/* What bounds a loop that ran out of --max-steps, and a value that fits.
 *
 * The loop is the innermost one whose back branch encloses where the
 * thread stopped (or the call it stopped in).  Its tests are its
 * conditional branches that leave it or go back; the kernel parameters
 * they come from are found by following the registers they read back to
 * their ld.param, through every instruction of the function that writes
 * them.  A parameter given with --param is then probed: the thread that
 * stopped is interpreted alone with the parameter at a, 2a and 4a (the
 * largest of 256, 64, 16, 4 that runs whole); where its instructions grow
 * by the same amount each time (a loop whose trips follow the
 * parameter), the largest multiple of a whose instructions fit in the
 * thread's share of --max-steps is the value that fits, and the same line
 * gives the --max-steps that the value given needs. */
#include <stdlib.h>
#include <string.h>

#include "scan/scan.h"

/* The innermost loop around instruction i: its back branch, or -1. */
static int loop_around(const PtxModule *m, int i)
{
	const PtxFunc *f = &m->func[m->inst[i].func];
	int best = -1, span = 0;
	for (int b = f->first; b < f->first + f->ninst; b++) {
		const PtxInst *in = &m->inst[b];
		if (in->op.kind != PO_BRA || in->opd[0].kind != OPD_LABEL)
			continue;
		int h = in->opd[0].sym;
		if (h <= i && i <= b && (best < 0 || b - h < span)) {
			best = b;
			span = b - h;
		}
	}
	return best;
}

/* Whether instruction in writes register r of its function. */
static bool writes_reg(const PtxModule *m, const PtxInst *in, int r)
{
	switch (in->op.kind) {
	case PO_ST: case PO_RED: case PO_STMATRIX: case PO_CPASYNC: case PO_BRA:
	case PO_RET: case PO_EXIT: case PO_TRAP: case PO_NOP: case PO_CALL:
		return false;
	default:
		break;
	}
	if (!in->nopd)
		return false;
	const PtxOpd *d = &in->opd[0];
	if (d->kind == OPD_REG || d->kind == OPD_SINK)
		return (d->kind == OPD_REG && d->reg == r) || d->reg2 == r;
	if (d->kind == OPD_VEC)
		for (int k = 0; k < d->nvec; k++)
			if (m->vec[d->sym + k].kind == OPD_REG && m->vec[d->sym + k].reg == r)
				return true;
	return false;
}

/* The registers an operand reads, onto the work list. */
static void reads(const PtxModule *m, const PtxOpd *o, bool *seen, int *work, int *nw)
{
	int r[PTX_MAX_VEC + 2], n = 0;
	if (o->kind == OPD_REG) {
		r[n++] = o->reg;
	} else if (o->kind == OPD_MEM && o->reg >= 0) {
		r[n++] = o->reg;
	} else if (o->kind == OPD_VEC) {
		for (int k = 0; k < o->nvec && n < PTX_MAX_VEC; k++)
			if (m->vec[o->sym + k].kind == OPD_REG)
				r[n++] = m->vec[o->sym + k].reg;
	}
	for (int k = 0; k < n; k++)
		if (r[k] >= 0 && !seen[r[k]]) {
			seen[r[k]] = true;
			work[(*nw)++] = r[k];
		}
}

/* The kernel parameters that the tests of the loop of back branch b come
 * from: cand[p] set. */
static void params_of(const PtxModule *m, int kernel, int b, bool *cand)
{
	const PtxInst *back = &m->inst[b];
	const PtxFunc *f = &m->func[back->func];
	if (back->func != kernel)
		return;     /* a callee's parameters are not the kernel's */
	int h = back->opd[0].sym;
	bool *seen = xcalloc((size_t)f->nregs + 1, sizeof *seen);
	int *work = xmalloc(((size_t)f->nregs + 1) * sizeof *work), nw = 0;
	for (int j = h; j <= b; j++) {
		const PtxInst *in = &m->inst[j];
		if (in->op.kind != PO_BRA || in->guard < 0 || in->opd[0].kind != OPD_LABEL)
			continue;
		int t = in->opd[0].sym;
		if ((j == b || t < h || t > b) && !seen[in->guard]) {
			seen[in->guard] = true;
			work[nw++] = in->guard;
		}
	}
	while (nw) {
		int r = work[--nw];
		for (int j = f->first; j < f->first + f->ninst; j++) {
			const PtxInst *in = &m->inst[j];
			if (!writes_reg(m, in, r))
				continue;
			if (in->op.kind == PO_LD && in->op.space == SP_PARAM && in->nopd >= 2 &&
			    in->opd[1].sym >= 0) {
				const PtxSym *y = &m->sym[in->opd[1].sym];
				if (y->kind == SYM_PARAM && y->formal >= 0 && y->func == kernel &&
				    y->formal < f->nparams)
					cand[y->formal] = true;
				continue;
			}
			for (int o = 1; o < in->nopd; o++)
				reads(m, &in->opd[o], seen, work, &nw);
			if (in->guard >= 0 && !seen[in->guard]) {
				seen[in->guard] = true;
				work[nw++] = in->guard;
			}
		}
	}
	free(seen);
	free(work);
}

/* Thread tid alone with parameter p at v: its instructions, or -1 where
 * its path stopped (past its share of --max-steps among them). */
static int64_t probe(const PtxModule *m, int kernel, const InterpOpts *ro, int p, uint64_t v,
                     int tid)
{
	InterpOpts *o = xmalloc(sizeof *o);
	*o = *ro;
	for (int j = 0; j < o->nparams; j++)
		if (o->param[j].index == p && o->param[j].bytes == 0)
			o->param[j].value = v;
	Interp r;
	interp_init(&r, m, kernel, o);
	InterpStop st;
	int64_t n = interp_thread_steps(&r, tid, &st);
	interp_free(&r);
	free(o);
	return st.kind == STOP_NONE ? n : -1;
}

/* Parameter p's value as given, if it was, whole. */
static bool given(const InterpOpts *ro, int p, uint64_t *v)
{
	for (int j = 0; j < ro->nparams; j++)
		if (ro->param[j].index == p && ro->param[j].bytes == 0) {
			*v = ro->param[j].value;
			return true;
		}
	return false;
}

/* The value of p that fits: *b filled where the thread's instructions
 * follow p in a line. */
static bool fit(const PtxModule *m, int kernel, const InterpOpts *ro, int p, int tid,
                int64_t share, int threads, ScanBound *b)
{
	static const uint64_t base[] = {256, 64, 16, 4};
	for (size_t i = 0; i < sizeof base / sizeof *base; i++) {
		uint64_t a = base[i];
		if (4 * a >= b->value)
			continue;
		int64_t s1 = probe(m, kernel, ro, p, a, tid);
		int64_t s2 = s1 < 0 ? -1 : probe(m, kernel, ro, p, 2 * a, tid);
		int64_t s4 = s2 < 0 ? -1 : probe(m, kernel, ro, p, 4 * a, tid);
		if (s4 < 0)
			continue;       /* does not run whole: smaller */
		int64_t d = s2 - s1;
		if (d <= 0 || s4 - s2 != 2 * d)
			return false;   /* its instructions do not follow it */
		/* s(v) = s1 + (v - a) d / a: the largest multiple of a that fits */
		int64_t per = d;    /* instructions per a of the parameter */
		if (share < s1)
			return false;
		uint64_t k = (uint64_t)((share - s1) / per) + 1;
		b->fits = k * a;
		if (b->fits >= b->value)
			return false;
		/* and what the value given needs, for the whole block (0: past
		 * what a number holds) */
		int64_t need;
		uint64_t trips = (b->value - a) / a;
		if (trips > (uint64_t)INT64_MAX / (uint64_t)per ||
		    __builtin_add_overflow(s1, (int64_t)trips * per, &need) ||
		    __builtin_mul_overflow(need, (int64_t)threads, &need))
			need = 0;
		b->steps_needed = need;
		b->fitted = true;
		return true;
	}
	return false;
}

void scan_bound_find(const PtxModule *m, int kernel, const InterpOpts *ro, const ScanStop *s,
                     ScanBound *b)
{
	memset(b, 0, sizeof *b);
	b->branch = -1;
	b->param = -1;
	int back = loop_around(m, s->inst);
	for (int j = 0; back < 0 && j < s->ncall; j++)
		back = loop_around(m, s->call[j]);
	if (back < 0)
		return;
	b->branch = back;
	const PtxFunc *k = &m->func[kernel];
	bool *cand = xcalloc((size_t)k->nparams + 1, sizeof *cand);
	params_of(m, kernel, back, cand);
	int threads = ro->block[0] * ro->block[1] * ro->block[2];
	int64_t share = ro->max_steps / (threads > 0 ? threads : 1);
	for (int p = 0; p < k->nparams; p++) {
		uint64_t v;
		if (!cand[p] || !given(ro, p, &v))
			continue;
		if (b->param < 0) {
			b->param = p;
			b->value = v;
		}
		ScanBound t = *b;
		t.param = p;
		t.value = v;
		if (fit(m, kernel, ro, p, s->first_tid, share, threads, &t)) {
			*b = t;
			break;
		}
	}
	free(cand);
}
