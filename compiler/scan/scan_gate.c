/* bankc scan --max-excess: a kernel's wavefronts above the ideal, summed
 * over the counters the totals print (loads, stores, atomics,
 * reductions; cp.async is in none of them), so CI can hold a kernel's
 * bank conflicts under a bound as bankc build --max-excess holds a
 * tile's; a conflict the user accepted (scan_suppress.c) is not in it. */
#include "scan/scan.h"

int64_t scan_excess(const PtxModule *m, const ScanKernel *k, const ScanCtx *c,
                    int64_t *wave, int64_t *ideal)
{
	int64_t w = 0, id = 0;
	for (int s = 0; s < m->nslots; s++) {
		const ScanAcc *a = &k->acc[s];
		if (!a->count || a->op.kind == OP_CPASYNC)
			continue;
		/* an accepted conflict: its wavefronts count as their ideal */
		if (c && a->wave > a->ideal &&
		    scan_accepted(m, &m->inst[a->inst], c, DW_BANK_CONFLICT) != ACCEPT_NONE) {
			w += a->ideal + (a->loop ? a->loop_ideal : 0);
			id += a->ideal + (a->loop ? a->loop_ideal : 0);
			continue;
		}
		w += a->counted;
		id += a->ideal;
		if (a->loop) {
			w += a->loop_counted;
			id += a->loop_ideal;
		}
	}
	*wave = w;
	*ideal = id;
	return w - id;
}
