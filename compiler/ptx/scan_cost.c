/* From threads to warp instructions: the records of a warp's 32 threads,
 * grouped by (instruction, occurrence), are one warp instruction each
 * (threads that took different branches meet different occurrences, as
 * the hardware issues them), costed by the bank model (sim.c). */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"

enum {
	MAX_STOPS = 64,             /* distinct diagnostics kept per kernel */
	MAX_KEPT = 1 << 20,         /* warp instructions kept for --emit-spec */
};

/* Until the bank model has a measured rule for shared atomics, an atomic
 * costs as a store of its width: one phase of 32 lanes per 4 bytes,
 * never merged. */
Op scan_atomic_op(const PtxInst *in)
{
	(void)in;
	return (Op){OP_STORE, 0, false};
}

static bool has(const char *s, int n, const char *lit)
{
	int k = (int)strlen(lit);
	for (int i = 0; i + k <= n; i++)
		if (memcmp(s + i, lit, (size_t)k) == 0)
			return true;
	return false;
}

bool scan_op_of(const PtxInst *in, Op *op, int *bytes, const char **why)
{
	const PtxOpInfo *o = &in->op;
	*why = NULL;
	switch (o->kind) {
	case PO_LD:
	case PO_ST:
		*op = (Op){o->kind == PO_LD ? OP_LOAD : OP_STORE, 0, false};
		*bytes = o->ty.bytes * o->vec;
		break;
	case PO_ATOM:
	case PO_RED:
		*op = scan_atomic_op(in);
		*bytes = o->ty.bytes * o->vec;
		break;
	case PO_LDMATRIX:
	case PO_STMATRIX:
		if (!has(in->text, in->ntext, ".m8n8") || !o->nmat) {
			*why = "only the m8n8 forms of ldmatrix and stmatrix are modelled";
			return false;
		}
		*op = (Op){o->kind == PO_LDMATRIX ? OP_LDMATRIX : OP_STMATRIX, o->nmat,
		           (o->mods & M_TRANS) != 0};
		*bytes = 16;
		return true;
	case PO_CPASYNC:
		*op = (Op){OP_CPASYNC, 0, false};
		*bytes = in->nopd >= 3 && in->opd[2].kind == OPD_IMM ? (int)in->opd[2].imm : 0;
		if (*bytes != 4 && *bytes != 8 && *bytes != 16) {
			*why = "cp.async copies 4, 8 or 16 bytes";
			return false;
		}
		return true;
	default:
		*why = "not a shared-memory access";
		return false;
	}
	if (*bytes != 1 && *bytes != 2 && *bytes != 4 && *bytes != 8 && *bytes != 16) {
		*why = "only accesses of 1, 2, 4, 8 or 16 bytes per thread are modelled";
		return false;
	}
	return true;
}

static int rec_cmp(const void *a, const void *b)
{
	const RunRec *x = a, *y = b;
	if (x->slot != y->slot)
		return x->slot < y->slot ? -1 : 1;
	if (x->occ != y->occ)
		return x->occ < y->occ ? -1 : 1;
	return (int)x->lane - (int)y->lane;
}

static void add_stop(ScanKernel *k, const RunStop *s, int tid)
{
	for (int i = 0; i < k->nstops; i++) {
		ScanStop *o = &k->stops[i];
		if (o->kind == s->kind && o->inst == s->inst && o->why == s->why) {
			o->threads++;
			return;
		}
	}
	if (k->nstops == MAX_STOPS) {
		k->stops[MAX_STOPS - 1].threads++;
		return;
	}
	k->stops[k->nstops++] = (ScanStop){s->kind, s->inst, s->why, s->addr, 1, tid};
}

static void keep(ScanAcc *a, uint32_t mask, const int64_t *addr)
{
	if (a->nkept == a->capkept) {
		int64_t cap = a->capkept ? a->capkept * 2 : 64;
		uint32_t *m = realloc(a->masks, (size_t)cap * sizeof *m);
		int64_t *d = realloc(a->addrs, (size_t)cap * WARP * sizeof *d);
		if (!m || !d)
			abort();
		a->masks = m;
		a->addrs = d;
		a->capkept = cap;
	}
	a->masks[a->nkept] = mask;
	memcpy(a->addrs + a->nkept * WARP, addr, WARP * sizeof *addr);
	a->nkept++;
}

/* One warp instruction of slot s into its sums. */
static bool cost(const ScanOpts *so, ScanKernel *k, ScanAcc *a, uint32_t mask,
                 const int64_t *addr, int64_t *kept)
{
	SimResult r;
	const char *err;
	if (!sim_inst(&so->geom, a->op, a->bytes, mask, addr, &r, &err)) {
		if (!k->cost_error) {
			k->cost_error = err;
			k->cost_error_inst = a->inst;
		}
		return false;
	}
	if (a->count == 0 || r.wavefronts < a->min_wave) a->min_wave = r.wavefronts;
	if (a->count == 0 || r.wavefronts > a->max_wave) a->max_wave = r.wavefronts;
	if (a->count == 0 || r.ideal < a->min_ideal) a->min_ideal = r.ideal;
	if (a->count == 0 || r.ideal > a->max_ideal) a->max_ideal = r.ideal;
	if (a->count == 0 || r.wavefronts - r.ideal > a->worst_excess) {
		a->worst_excess = r.wavefronts - r.ideal;
		a->worst_mask = mask;
		memcpy(a->worst_addr, addr, sizeof a->worst_addr);
	}
	a->count++;
	a->wave += r.wavefronts;
	a->ideal += r.ideal;
	a->counted += r.counted;
	if (so->keep && *kept < MAX_KEPT) {
		keep(a, mask, addr);
		++*kept;
	}
	return true;
}

void scan_kernel(const PtxModule *m, int kernel, const RunOpts *ro,
                 const ScanOpts *so, ScanKernel *k)
{
	memset(k, 0, sizeof *k);
	k->kernel = kernel;
	memcpy(k->block, ro->block, sizeof k->block);
	k->acc = calloc((size_t)m->nslots + 1, sizeof *k->acc);
	k->stops = calloc(MAX_STOPS, sizeof *k->stops);
	if (!k->acc || !k->stops)
		abort();
	for (int i = 0; i < m->ninst; i++) {
		const PtxInst *in = &m->inst[i];
		if (in->slot < 0)
			continue;
		ScanAcc *a = &k->acc[in->slot];
		a->inst = i;
		const char *why;
		if (!scan_op_of(in, &a->op, &a->bytes, &why))
			a->bytes = 0;   /* not costable: its accesses are refused below */
	}
	Run r;
	run_init(&r, m, kernel, ro);
	int threads = ro->block[0] * ro->block[1] * ro->block[2];
	int64_t kept = 0;
	for (int w = 0; w * WARP < threads; w++) {
		r.nrec = 0;
		for (int lane = 0; lane < WARP && w * WARP + lane < threads; lane++) {
			RunStop st;
			if (!run_thread(&r, w * WARP + lane, &st))
				add_stop(k, &st, w * WARP + lane);
		}
		if (k->nstops || k->cost_error)
			continue;   /* no totals will be printed: only diagnostics */
		qsort(r.rec, r.nrec, sizeof *r.rec, rec_cmp);
		for (size_t i = 0; i < r.nrec;) {
			size_t j = i;
			uint32_t mask = 0;
			int64_t addr[WARP] = {0};
			while (j < r.nrec && r.rec[j].slot == r.rec[i].slot &&
			       r.rec[j].occ == r.rec[i].occ) {
				if (r.rec[j].active) {
					mask |= 1u << r.rec[j].lane;
					addr[r.rec[j].lane] = r.rec[j].addr;
				}
				j++;
			}
			ScanAcc *a = &k->acc[r.rec[i].slot];
			if (mask && !a->bytes && !k->cost_error) {
				const char *why;
				Op op;
				int b;
				scan_op_of(&m->inst[a->inst], &op, &b, &why);
				k->cost_error = why;
				k->cost_error_inst = a->inst;
			}
			if (mask && a->bytes)
				cost(so, k, a, mask, addr, &kept);
			i = j;
		}
	}
	k->steps = r.steps;
	k->unmodelled = r.unmodelled;
	k->complete = k->nstops == 0 && !k->cost_error;
	/* which unmodelled shared instructions ran: noted by the printer */
	k->noted = r.noted;
	r.noted = NULL;
	run_free(&r);
}

void scan_kernel_free(const PtxModule *m, ScanKernel *k)
{
	if (k->acc)
		for (int i = 0; i < m->nslots; i++) {
			free(k->acc[i].masks);
			free(k->acc[i].addrs);
		}
	free(k->acc);
	free(k->stops);
	free(k->noted);
	memset(k, 0, sizeof *k);
}
