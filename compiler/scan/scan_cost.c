/* From threads to warp instructions: the records of a warp's 32 threads,
 * grouped by (instruction, occurrence), are one warp instruction each
 * (threads that took different branches meet different occurrences, as
 * the hardware issues them), costed by the bank model (sim.c). */
#include <stdlib.h>
#include <string.h>

#include "scan/scan.h"

enum {
	MAX_STOPS = 64,             /* distinct diagnostics kept per kernel */
	MAX_KEPT = 1 << 18,         /* warp instructions kept for --emit-spec */
};

/* The bank model's atomic for a shared atom/red (rule 10, measured on an
 * H200): 4-byte integer operations and 4- or 8-byte compare-and-swap are
 * one instruction each.  The others (floating-point add, 8-byte add, min,
 * max, ...) ptxas compiles to a loop: a load of the old values, then a
 * compare-and-swap (ATOMS.CAST.SPIN) until every lane has succeeded, the
 * load again before each retry.  Its trips depend on timing (which lanes
 * collide, in which order): bankc costs one, its load with the loads and
 * its compare-and-swap with the atomics (scan_atomic_is_loop says which),
 * and says so at the line. */
bool scan_atomic_is_loop(const PtxInst *in)
{
	const PtxOpInfo *o = &in->op;
	const char *name = ptx_atom_names[o->atom_op];
	if (strcmp(name, "cas") == 0)
		return false;
	return o->ty.bytes != 4 || o->ty.kind == TY_F;
}

Op scan_atomic_op(const PtxInst *in)
{
	static const struct { const char *name; AtomOp aop; } ops[] = {
		{"add", AOP_ADD}, {"inc", AOP_INC}, {"dec", AOP_DEC},
		{"min", AOP_MIN}, {"max", AOP_MAX}, {"and", AOP_AND},
		{"or", AOP_OR}, {"xor", AOP_XOR}, {"exch", AOP_EXCH},
		{"cas", AOP_CAS},
	};
	Op op = {.kind = OP_ATOM, .red = in->op.kind == PO_RED};
	const char *name = ptx_atom_names[in->op.atom_op];
	for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
		if (strcmp(name, ops[i].name) == 0)
			op.aop = ops[i].aop;
	if (scan_atomic_is_loop(in))
		op.aop = AOP_CAS;
	return op;
}

static bool has(const char *s, int n, const char *lit)
{
	int k = (int)strlen(lit);
	for (int i = 0; i + k <= n; i++)
		if (memcmp(s + i, lit, (size_t)k) == 0)
			return true;
	return false;
}

/* Whether register r of instruction i's function is read anywhere in it
 * (as a source, an address, a guard, a vector element). */
static bool reg_read(const PtxModule *m, int i, int r)
{
	const PtxFunc *f = &m->func[m->inst[i].func];
	for (int j = f->first; j < f->first + f->ninst; j++) {
		const PtxInst *in = &m->inst[j];
		if (in->guard == r)
			return true;
		PtxOpKind k = in->op.kind;
		bool writes0 = k != PO_ST && k != PO_RED && k != PO_STMATRIX &&
		               k != PO_CPASYNC && k != PO_BRA && k != PO_CALL;
		for (int o = 0; o < in->nopd; o++) {
			const PtxOpd *d = &in->opd[o];
			if (d->kind == OPD_MEM && d->reg == r)
				return true;
			if (d->kind == OPD_REG && (d->reg == r || d->reg2 == r) &&
			    (o > 0 || !writes0))
				return true;
			if (d->kind == OPD_VEC && (o > 0 || !writes0))
				for (int e = 0; e < d->nvec; e++)
					if (m->vec[d->sym + e].kind == OPD_REG && m->vec[d->sym + e].reg == r)
						return true;
		}
	}
	return false;
}

/* atom.add or red.add of the constant 1 to a 4-byte integer, its result
 * unused: ptxas makes it ATOMS.POPC.INC on sm_90, which the bank model
 * costs as red.add1. */
bool scan_atomic_is_inc1(const PtxModule *m, int i)
{
	const PtxInst *in = &m->inst[i];
	const PtxOpInfo *o = &in->op;
	if ((o->kind != PO_ATOM && o->kind != PO_RED) ||
	    strcmp(ptx_atom_names[o->atom_op], "add") != 0 || o->ty.bytes != 4 ||
	    o->ty.kind == TY_F || o->vec != 1)
		return false;
	int src = o->kind == PO_RED ? 1 : 2;
	if (in->nopd <= src || in->opd[src].kind != OPD_IMM || in->opd[src].imm != 1)
		return false;
	if (o->kind == PO_RED || in->opd[0].kind == OPD_SINK)
		return true;
	return in->opd[0].kind == OPD_REG && !reg_read(m, i, in->opd[0].reg);
}

bool scan_op_of(const PtxInst *in, Op *op, int *bytes, const char **why)
{
	const PtxOpInfo *o = &in->op;
	*why = NULL;
	switch (o->kind) {
	case PO_LD:
	case PO_ST:
		*op = (Op){.kind = o->kind == PO_LD ? OP_LOAD : OP_STORE};
		*bytes = o->ty.bytes * o->vec;
		break;
	case PO_ATOM:
	case PO_RED:
		*op = scan_atomic_op(in);
		*bytes = o->ty.bytes * o->vec;
		break;
	case PO_LDMATRIX:
	case PO_STMATRIX: {
		/* PTX ISA: m8n8, and Blackwell's 8-bit m16n16 (ldmatrix, .trans,
		 * .x1 or .x2), m8n16 (ldmatrix, 6- and 4-bit data in 16-byte
		 * containers) and m16n8 (stmatrix, .trans); every form moves rows
		 * of 16 bytes, 8 row addresses a phase (the documented rule; the
		 * 8-bit forms are unmeasured) */
		bool ld = o->kind == PO_LDMATRIX, tr = (o->mods & M_TRANS) != 0;
		MatShape sh = (MatShape)o->mshape;
		bool known = o->xnum &&
		             (sh == MAT_M8N8 ? has(in->text, in->ntext, ".m8n8")
		              : sh == MAT_M16N16 ? ld && tr && o->xnum != 4
		              : sh == MAT_M8N16 ? ld && !tr : !ld && tr);
		if (!known) {
			*why = "not an ldmatrix or stmatrix form of the PTX ISA";
			return false;
		}
		*op = (Op){.kind = ld ? OP_LDMATRIX : OP_STMATRIX, .nmat = o->xnum,
		           .shape = sh, .trans = tr};
		*bytes = 16;
		return true;
	}
	case PO_CPASYNC:
		*op = (Op){.kind = OP_CPASYNC};
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
	const InterpRec *x = a, *y = b;
	if (x->slot != y->slot)
		return x->slot < y->slot ? -1 : 1;
	if (x->occ != y->occ)
		return x->occ < y->occ ? -1 : 1;
	return (int)x->lane - (int)y->lane;
}

static void add_stop(ScanKernel *k, const InterpStop *s, int tid)
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
	ScanStop *n = &k->stops[k->nstops++];
	*n = (ScanStop){s->kind, s->inst, s->why, s->addr, 1, tid, {0}, s->ncall};
	memcpy(n->call, s->call, sizeof n->call);
}

static void keep(ScanAcc *a, uint32_t mask, const int64_t *addr)
{
	if (a->nkept == a->capkept) {
		int64_t cap = a->capkept ? a->capkept * 2 : 64;
		uint32_t *m = xrealloc(a->masks, (size_t)cap * sizeof *m);
		int64_t *d = xrealloc(a->addrs, (size_t)cap * WARP * sizeof *d);
		a->masks = m;
		a->addrs = d;
		a->capkept = cap;
	}
	a->masks[a->nkept] = mask;
	memcpy(a->addrs + a->nkept * WARP, addr, WARP * sizeof *addr);
	a->nkept++;
}

/* The trips after the first of a compare-and-swap loop, at most: of the
 * lanes on one word one succeeds a trip, so trip k retries (a load, a
 * compare-and-swap) the lanes ranked k or more on their word.  Other
 * warps' writes can add more; none of the warp's own can be fewer than
 * the first trip, which the sums count. */
static void loop_trips(const ScanOpts *so, ScanAcc *a, uint32_t mask, const int64_t *addr)
{
	int rank[WARP] = {0};
	for (int l = 0; l < WARP; l++)
		for (int j = 0; j < l; j++)
			if ((mask >> l & 1) && (mask >> j & 1) && addr[j] == addr[l])
				rank[l]++;
	for (int k = 1; k < WARP; k++) {
		uint32_t left = 0;
		for (int l = 0; l < WARP; l++)
			if ((mask >> l & 1) && rank[l] >= k)
				left |= 1u << l;
		if (!left)
			break;
		SimResult c, r;
		const char *err;
		if (!sim_inst(&so->geom, a->op, a->bytes, left, addr, &c, &err) ||
		    !sim_inst(&so->geom, (Op){.kind = OP_LOAD}, a->bytes, left, addr, &r, &err))
			internal_error("a compare-and-swap loop's trip: %s", err);
		a->trips_hi++;
		a->trips_atom_hi += c.counted;
		a->trips_load_hi += r.counted;
	}
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
	if (a->loop) {
		/* the loop's first trip reads the old values: a load */
		if (!sim_inst(&so->geom, (Op){.kind = OP_LOAD}, a->bytes, mask, addr, &r, &err))
			internal_error("a compare-and-swap loop's load: %s", err);
		a->loop_wave += r.wavefronts;
		a->loop_ideal += r.ideal;
		a->loop_counted += r.counted;
		loop_trips(so, a, mask, addr);
	}
	if (so->keep && *kept < MAX_KEPT) {
		keep(a, mask, addr);
		++*kept;
	}
	return true;
}

/* One warp instruction as the records of its lanes. */
typedef struct {
	uint32_t slot, occ;
	uint32_t mask;          /* lanes that surely run it, at known addresses */
	uint32_t maybe;         /* ... that may run it, at known addresses */
	uint32_t unk;           /* ... at unknown addresses, within [addr, hi] */
	uint32_t unk_sure;      /* of those, the ones that surely run it */
	uint32_t why;
	bool varied;            /* a lane's atomic is not uniform (REC_UNIFORM) */
	int tz;                 /* the alignment ptxas knows, its active lanes' least */
	int64_t addr[WARP];
	int64_t hi[WARP];
} Group;

/* A warp instruction whose cost depends on data, as a range: at least
 * what its surely-running known lanes cost (0 if none surely runs), at
 * most every lane that may run, each unknown one at an address of its
 * bounds in the bank the known lanes load most, on a word of its own. */
static void cost_range(const ScanOpts *so, ScanKernel *k, ScanAcc *a, const Group *g)
{
	SimResult r;
	const char *err;
	int lo = 0, lo_counted = 0;
	const Geom *geo = &so->geom;
	if (g->mask) {
		if (!sim_inst(geo, a->op, a->bytes, g->mask, g->addr, &r, &err))
			goto refused;
		lo = r.wavefronts;
		lo_counted = r.counted;
	} else if (g->unk_sure) {
		lo = lo_counted = 1;
	}
	uint32_t known = g->mask | g->maybe, all = known | g->unk;
	int64_t addr[WARP];
	memcpy(addr, g->addr, sizeof addr);
	int bank = 0;
	if (known) {
		int count[64];
		sim_phase_banks(geo, a->op, a->bytes, known, addr, count);
		for (int b = 1; b < geo->banks; b++)
			if (count[b] > count[bank])
				bank = b;
	} else {
		int low = __builtin_ctz(g->unk);
		bank = (int)(g->addr[low] / geo->bank_bytes % geo->banks);
	}
	int64_t row = (int64_t)geo->banks * geo->bank_bytes, align = a->bytes > 0 ? a->bytes : 1;
	int nth = 0;
	for (int l = 0; l < WARP; l++) {
		if (!(g->unk >> l & 1))
			continue;
		int64_t lo_a = g->addr[l], hi_a = g->hi[l];
		/* the first address of the bank at or above lo_a, aligned */
		int64_t first = lo_a - lo_a % row + (int64_t)bank * geo->bank_bytes;
		first -= first % align;
		if (first < lo_a)
			first += row;
		int64_t rows = first <= hi_a ? (hi_a - first) / row + 1 : 0;
		if (rows <= 0)
			addr[l] = lo_a - lo_a % align;
		else
			addr[l] = first + (int64_t)(nth % rows) * row;
		nth++;
	}
	if (!sim_inst(geo, a->op, a->bytes, all, addr, &r, &err))
		goto refused;
	int hi = r.wavefronts > lo ? r.wavefronts : lo;
	if (a->rcount == 0 || lo < a->rmin) a->rmin = lo;
	if (a->rcount == 0 || hi > a->rmax) a->rmax = hi;
	if (!a->rwhy)
		a->rwhy = g->why;
	a->runknown = a->runknown || g->unk;
	a->rcount++;
	a->rsure += (g->mask | g->unk_sure) != 0;
	a->rlo += lo;
	a->rhi += hi;
	a->rlo_counted += lo_counted;
	a->rhi_counted += r.counted > lo_counted ? r.counted : lo_counted;
	a->rideal += r.ideal;
	k->ranged = true;
	return;
refused:
	if (!k->cost_error) {
		k->cost_error = err;
		k->cost_error_inst = a->inst;
	}
}

static const Group *find_group(const Group *g, size_t n, uint32_t slot, uint32_t occ)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (g[mid].slot < slot || (g[mid].slot == slot && g[mid].occ < occ))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && g[lo].slot == slot && g[lo].occ == occ ? &g[lo] : NULL;
}

/* The warp instructions of run c, led by g, are one vector access: the
 * same lanes, each member at the leader's address plus its offset, at an
 * address that ptxas knows to be aligned to the vector. */
static bool mergeable(const Group *gs, size_t n, const Group *g, const MergeChunk *c)
{
	int total = c->bytes * c->n;
	if ((1 << (g->tz < 8 ? g->tz : 8)) < total)
		return false;
	for (int l = 0; l < WARP; l++)
		if ((g->mask >> l & 1) && g->addr[l] % total)
			return false;
	for (int j = 1; j < c->n; j++) {
		const Group *h = find_group(gs, n, (uint32_t)c->slot[j], g->occ);
		if (!h || h->mask != g->mask)
			return false;
		for (int l = 0; l < WARP; l++)
			if ((g->mask >> l & 1) && h->addr[l] != g->addr[l] + j * c->bytes)
				return false;
	}
	return true;
}

/* The shared arrays kernel may touch, as byte ranges (an extern array
 * has no end); how many. */
typedef struct { int64_t lo, hi; } Range;

/* Whether kernel, or any .func, names symbol s: every kernel of a file
 * sees its extern arrays, but only one that names them gets dynamic
 * shared memory for them. */
static bool names_sym(const PtxModule *m, int kernel, int s)
{
	for (int i = 0; i < m->ninst; i++) {
		const PtxInst *in = &m->inst[i];
		if (in->func != kernel && m->func[in->func].entry)
			continue;
		for (int o = 0; o < in->nopd; o++)
			if ((in->opd[o].kind == OPD_SYM || in->opd[o].kind == OPD_MEM) &&
			    in->opd[o].sym == s)
				return true;
	}
	return false;
}

static int arrays_of(const PtxModule *m, int kernel, Range **out)
{
	int n = 0;
	Range *r = xcalloc((size_t)m->nsym + 1, sizeof *r);
	for (int i = 0; i < m->nsym; i++) {
		const PtxSym *y = &m->sym[i];
		if (y->kind != SYM_SHARED || (y->func >= 0 && y->func != kernel))
			continue;
		if (y->size < 0 && !names_sym(m, kernel, i))
			continue;
		r[n++] = (Range){y->addr, y->size >= 0 ? y->addr + y->size : INT64_MAX};
	}
	*out = r;
	return n;
}

static bool inside(const Range *r, int n, int64_t a, int bytes)
{
	for (int i = 0; i < n; i++)
		if (a >= r[i].lo && a < r[i].hi && r[i].hi - a >= bytes)
			return true;
	return false;
}

void scan_kernel(const PtxModule *m, int kernel, const InterpOpts *ro,
                 const ScanOpts *so, ScanKernel *k)
{
	memset(k, 0, sizeof *k);
	k->kernel = kernel;
	memcpy(k->block, ro->block, sizeof k->block);
	k->acc = xcalloc((size_t)m->nslots + 1, sizeof *k->acc);
	k->stops = xcalloc(MAX_STOPS, sizeof *k->stops);
	for (int i = 0; i < m->ninst; i++) {
		const PtxInst *in = &m->inst[i];
		if (in->slot < 0)
			continue;
		ScanAcc *a = &k->acc[in->slot];
		a->inst = i;
		const char *why;
		if (!scan_op_of(in, &a->op, &a->bytes, &why))
			a->bytes = 0;   /* not costable: its accesses are refused below */
		else if (a->op.kind == OP_ATOM && scan_atomic_is_inc1(m, i))
			a->op.aop = AOP_ADD1, a->op.red = true;
		a->loop = (in->op.kind == PO_ATOM || in->op.kind == PO_RED) &&
		          scan_atomic_is_loop(in);
	}
	ScanMerge mg = {0};
	if (so->ptxas_merge)
		scan_merge_find(m, &mg);
	for (int i = 0; i < mg.nchunk; i++) {
		MergeChunk *c = &mg.chunk[i];
		c->acc = k->acc[c->slot[0]];
		c->acc.bytes *= c->n;
	}
	Range *arrays;
	int narrays = arrays_of(m, kernel, &arrays);
	Interp r;
	interp_init(&r, m, kernel, ro);
	Group *groups = NULL;
	size_t capg = 0;
	int threads = ro->block[0] * ro->block[1] * ro->block[2];
	int64_t kept = 0;
	for (int w = 0; w * WARP < threads; w++) {
		r.nrec = 0;
		for (int lane = 0; lane < WARP && w * WARP + lane < threads; lane++) {
			InterpStop st;
			if (!interp_thread(&r, w * WARP + lane, &st))
				add_stop(k, &st, w * WARP + lane);
		}
		if (k->nstops || k->cost_error)
			continue;   /* no totals will be printed: only diagnostics */
		if (r.nrec)
			qsort(r.rec, r.nrec, sizeof *r.rec, rec_cmp);
		size_t ng = 0;
		for (size_t i = 0; i < r.nrec; i++)
			if (i == 0 || r.rec[i].slot != r.rec[i - 1].slot ||
			    r.rec[i].occ != r.rec[i - 1].occ)
				ng++;
		if (ng > capg) {
			free(groups);
			capg = ng * 2;
			groups = xmalloc(capg * sizeof *groups);
		}
		ng = 0;
		for (size_t i = 0; i < r.nrec;) {
			Group *g = &groups[ng++];
			memset(g, 0, sizeof *g);
			g->slot = r.rec[i].slot;
			g->occ = r.rec[i].occ;
			g->tz = 64;
			while (i < r.nrec && r.rec[i].slot == g->slot && r.rec[i].occ == g->occ) {
				const InterpRec *e = &r.rec[i++];
				if (!e->active)
					continue;
				uint32_t bit = 1u << e->lane;
				g->addr[e->lane] = e->addr;
				if (e->flags & REC_UNKNOWN) {
					g->unk |= bit;
					g->hi[e->lane] = e->hi;
					if (!(e->flags & REC_MAYBE))
						g->unk_sure |= bit;
				} else if (e->flags & REC_MAYBE) {
					g->maybe |= bit;
				} else {
					g->mask |= bit;
				}
				if ((e->flags & (REC_UNKNOWN | REC_MAYBE)) && !g->why)
					g->why = e->why;
				if (!(e->flags & REC_UNIFORM))
					g->varied = true;
				if (e->tz < g->tz)
					g->tz = e->tz;
			}
		}
		for (size_t gi = 0; gi < ng; gi++) {
			const Group *g = &groups[gi];
			ScanAcc *a = &k->acc[g->slot];
			if ((g->mask | g->maybe | g->unk) && !a->bytes && !k->cost_error) {
				const char *why;
				Op op;
				int b;
				scan_op_of(&m->inst[a->inst], &op, &b, &why);
				k->cost_error = why;
				k->cost_error_inst = a->inst;
			}
			if (!a->bytes)
				continue;
			if (g->maybe | g->unk) {
				/* no vector merging: ptxas's choice needs every address */
				for (int j = 0; mg.nof && j < mg.nof[g->slot]; j++)
					mg.chunk[mg.of[g->slot][j]].ok = false;
				cost_range(so, k, a, g);
				continue;
			}
			if (!g->mask)
				continue;
			for (int l = 0; l < WARP; l++)
				if (g->mask >> l & 1 && !inside(arrays, narrays, g->addr[l], a->bytes)) {
					if (!a->outside++) {
						a->outside_warp = w;
						a->outside_lane = l;
						a->outside_addr = g->addr[l];
					}
					break;
				}
			/* an add at an address and of a value the same in every lane:
			 * ptxas has one lane add for the warp (measured on an H200:
			 * 1 wavefront, where 32 lanes on one word take 32) */
			uint32_t lanes = g->mask;
			if (!g->varied && a->op.kind == OP_ATOM && !a->loop &&
			    (a->op.aop == AOP_ADD || a->op.aop == AOP_ADD1))
				lanes &= -lanes;
			cost(so, k, a, lanes, g->addr, &kept);
			for (int j = 0; mg.nof && j < mg.nof[g->slot]; j++) {
				MergeChunk *c = &mg.chunk[mg.of[g->slot][j]];
				if (!c->ok)
					continue;
				if (c->slot[0] != (int)g->slot)
					/* a member without its leader: not one vector */
					c->ok = find_group(groups, ng, (uint32_t)c->slot[0], g->occ) != NULL;
				else if (mergeable(groups, ng, g, c))
					cost(so, k, &c->acc, g->mask, g->addr, &kept);
				else
					c->ok = false;
			}
		}
	}
	free(groups);
	free(arrays);
	/* the runs that every execution allowed replace their members */
	scan_merge_choose(m, &mg, k->acc);
	scan_merge_free(&mg);
	k->steps = r.steps;
	k->unmodelled = r.unmodelled;
	k->complete = k->nstops == 0 && !k->cost_error;
	/* which unmodelled shared instructions ran, and which loops: noted by
	 * the printer */
	k->noted = r.noted;
	r.noted = NULL;
	k->fork_kind = r.fork_kind, r.fork_kind = NULL;
	k->fork_threads = r.fork_threads, r.fork_threads = NULL;
	k->fork_why = r.fork_why, r.fork_why = NULL;
	k->load_from = r.load_from, r.load_from = NULL;
	k->load_past = r.load_past, r.load_past = NULL;
	for (int s2 = 0; s2 < m->nslots && k->noted; s2++)
		if (k->acc[s2].loop && k->acc[s2].count)
			k->noted[k->acc[s2].inst] = true;
	interp_free(&r);
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
	free(k->fork_kind);
	free(k->fork_threads);
	free(k->fork_why);
	free(k->load_from);
	free(k->load_past);
	memset(k, 0, sizeof *k);
}
