/* From threads to warp instructions: the records of a warp's 32 threads,
 * grouped by (instruction, occurrence), are one warp instruction each
 * (threads that took different branches meet different occurrences, as
 * the hardware issues them), costed by the bank model (sim.c).  The
 * block's threads run in lockstep (ptx_sched.c): a warp's records are
 * grouped as they come, and a warp instruction is costed and dropped once
 * every lane of its warp has passed it, waits at a barrier or has ended.
 * Its sums do not depend on that order; where "the first" is kept (the
 * worst instruction, the first outside an array), the first warp by warp
 * is, as if the warps ran one after the other. */
#include <stdlib.h>
#include <string.h>

#include "scan/scan.h"

enum {
	MAX_STOPS = 64,             /* distinct diagnostics kept per kernel */
	MAX_KEPT = 1 << 18,         /* distinct warp instructions kept (--emit-spec, fixes) */
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

/* ---- the costing context ------------------------------------------------------------ */

/* A warp instruction as its lanes' records come: open until every lane
 * of its warp has passed it. */
typedef struct {
	uint32_t slot, occ;
	uint32_t mask;          /* lanes that surely run it, at known addresses */
	uint32_t maybe;         /* ... that may run it, at known addresses */
	uint32_t unk;           /* ... at unknown addresses, within [addr, hi] */
	uint32_t unk_sure;      /* of those, the ones that surely run it */
	uint32_t why;           /* the first lane's (with REC_UNKNOWN or MAYBE) */
	int8_t why_lane;
	bool varied;            /* a lane's atomic is not uniform (REC_UNIFORM) */
	uint8_t tz;             /* the alignment ptxas knows, its active lanes' least */
	bool dead;              /* costed: dropped at the next compaction */
	uint32_t addr[WARP];
	uint32_t *hi;           /* unknown lanes' highest addresses, or NULL */
} Open;

/* One warp instruction being costed. */
typedef struct {
	uint32_t slot, occ;
	uint32_t mask, maybe, unk, unk_sure;
	uint32_t why;
	bool varied;
	int tz;
	int64_t addr[WARP];
	int64_t hi[WARP];
} Group;

/* A warp's open warp instructions, in the order they were first met (the
 * costed ones dropped now and then), and an index of them by (slot, occ).
 * A lane counts a slot's executions from 0 in each interval, so the open
 * ones of slot s are occ [done[s], top[s]); the slots with any are listed
 * in `active`, and those met in this interval in `touched`. */
typedef struct {
	Open *g;
	int n, cap, dead;
	int32_t *ix;            /* (index + 1) by hash; 0: empty */
	uint32_t ixcap;
	int cursor[WARP];       /* per lane: where its next record likely goes */
	uint32_t *ord;          /* per slot: its warp instructions costed so far */
	uint32_t *done, *top;   /* per slot, in this interval */
	int *active, nactive;
	int *touched, ntouched;
} Warp;

typedef struct { int64_t lo, hi; } Range;

typedef struct {
	const PtxModule *m;
	const ScanOpts *so;
	ScanKernel *k;
	Interp *r;
	ScanMerge mg;
	int *win;               /* per slot: its window of candidates, or -1 */
	Range *arrays;
	int narrays;
	Warp *w;
	int nwarps;
	int64_t open;           /* open warp instructions, all warps */
	bool overflow;          /* past SCAN_MAX_OPEN: no more grouped */
	int64_t kept;           /* distinct warp instructions kept, all accesses */
	uint32_t *floor, *stamp;/* per slot, then per window: its lanes' least
	                         * interp_floor, this round */
	uint32_t *taken;        /* per window: the round finish took it */
	uint32_t round;
	Group *batch;
	int capbatch;
	/* the first refusal of the bank model: warp, slot, n-th */
	int64_t err_key[3];
} Cost;

/* Where a warp instruction comes, as the warps would one after another. */
static int64_t key_of(int warp, uint32_t n)
{
	return (int64_t)warp << 40 | (int64_t)n;
}

static void refuse(Cost *c, const char *err, int inst, int warp, uint32_t slot, uint32_t n)
{
	int64_t key[3] = {warp, slot, n};
	ScanKernel *k = c->k;
	for (int i = 0; k->cost_error && i < 3; i++) {
		if (key[i] > c->err_key[i])
			return;     /* a refusal that comes earlier is kept */
		if (key[i] < c->err_key[i])
			break;
	}
	if (k->cost_error && memcmp(key, c->err_key, sizeof key) == 0)
		return;
	k->cost_error = err;
	k->cost_error_inst = inst;
	memcpy(c->err_key, key, sizeof key);
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

/* ---- the warp instructions kept -------------------------------------------------------- */

/* An access's distinct warp instructions, found by a hash of their lanes,
 * each with the key of its first run. */
/* What the bank model says of a warp instruction: kept with it, so that
 * its repeats (a loop's trips) are not costed again. */
typedef struct {
	int wave, ideal, counted;
	int lwave, lideal, lcounted;    /* a compare-and-swap loop's load */
	int trips, tatom, tload;        /* ... its trips after the first, at most */
} Memo;

/* The last warp instruction of an access costed as a range, and what it
 * cost: a loop's trips under an undecided branch repeat it. */
typedef struct {
	Group g;
	int lo, hi, lo_counted, hi_counted, ideal;
} RangeMemo;

typedef struct ScanKeep {
	int64_t *ix;            /* (index + 1) by hash */
	int64_t cap;
	int64_t *first;
	Memo *memo;
	RangeMemo *range;       /* or NULL */
} ScanKeep;

static uint64_t inst_hash(uint32_t mask, const int64_t *addr)
{
	uint64_t h = 1469598103934665603ull ^ mask;
	for (uint32_t m = mask; m; m &= m - 1)
		h = (h ^ (uint64_t)addr[__builtin_ctz(m)]) * 1099511628211ull;
	return h ^ h >> 29;
}

static bool same_lanes(const ScanAcc *a, int64_t j, uint32_t mask, const int64_t *addr)
{
	if (a->masks[j] != mask)
		return false;
	for (uint32_t m = mask; m; m &= m - 1)
		if (a->addrs[j * WARP + __builtin_ctz(m)] != addr[__builtin_ctz(m)])
			return false;
	return true;
}

static void keep_grow(ScanAcc *a)
{
	ScanKeep *x = a->keep;
	int64_t cap = x->cap ? x->cap * 2 : 4;
	int64_t *ix = xcalloc((size_t)cap, sizeof *ix);
	for (int64_t j = 0; j < a->nkept; j++) {
		uint64_t at = inst_hash(a->masks[j], a->addrs + j * WARP) & (uint64_t)(cap - 1);
		while (ix[at])
			at = (at + 1) & (uint64_t)(cap - 1);
		ix[at] = j + 1;
	}
	free(x->ix);
	x->ix = ix;
	x->cap = cap;
}

/* The kept warp instruction equal to (mask, addr), or -1 (*at: where a
 * new one goes in the index). */
static int64_t keep_find(ScanAcc *a, uint32_t mask, const int64_t *addr, uint64_t *at)
{
	if (!a->keep)
		a->keep = xcalloc(1, sizeof *a->keep);
	ScanKeep *x = a->keep;
	if (2 * (a->nkept + 1) > x->cap)
		keep_grow(a);
	uint64_t h = inst_hash(mask, addr) & (uint64_t)(x->cap - 1);
	while (x->ix[h] && !same_lanes(a, x->ix[h] - 1, mask, addr))
		h = (h + 1) & (uint64_t)(x->cap - 1);
	*at = h;
	return x->ix[h] - 1;
}

/* One warp instruction that ran (j: its kept equal, or -1): counted with
 * its equal, or kept anew with what it costs while fewer than MAX_KEPT
 * are. */
static void keep(Cost *c, ScanAcc *a, int64_t j, uint64_t at, uint32_t mask,
                 const int64_t *addr, int64_t key, const Memo *memo)
{
	ScanKeep *x = a->keep;
	if (j >= 0) {
		a->kcount[j]++;
		a->kept++;
		if (key < x->first[j])
			x->first[j] = key;
		return;
	}
	if (c->kept >= MAX_KEPT)
		return;     /* not kept: the array is partial */
	if (a->nkept == a->capkept) {
		int64_t cap = a->capkept ? a->capkept * 2 : 1;
		a->masks = xrealloc(a->masks, (size_t)cap * sizeof *a->masks);
		a->addrs = xrealloc(a->addrs, (size_t)cap * WARP * sizeof *a->addrs);
		a->kcount = xrealloc(a->kcount, (size_t)cap * sizeof *a->kcount);
		x->first = xrealloc(x->first, (size_t)cap * sizeof *x->first);
		x->memo = xrealloc(x->memo, (size_t)cap * sizeof *x->memo);
		a->capkept = cap;
	}
	j = a->nkept++;
	a->masks[j] = mask;
	memcpy(a->addrs + j * WARP, addr, WARP * sizeof *addr);
	a->kcount[j] = 1;
	x->first[j] = key;
	x->memo[j] = *memo;
	x->ix[at] = j + 1;
	a->kept++;
	c->kept++;
}

static const int64_t *sort_first;

static int by_first(const void *x, const void *y)
{
	int64_t a = sort_first[*(const int64_t *)x], b = sort_first[*(const int64_t *)y];
	return (a > b) - (a < b);
}

/* The kept warp instructions in the order they first ran, warp by warp;
 * the index dropped. */
static void keep_finish(ScanAcc *a)
{
	ScanKeep *x = a->keep;
	if (!x)
		return;
	int64_t n = a->nkept;
	int64_t *order = xmalloc(((size_t)n + 1) * sizeof *order);
	for (int64_t j = 0; j < n; j++)
		order[j] = j;
	sort_first = x->first;
	qsort(order, (size_t)n, sizeof *order, by_first);
	sort_first = NULL;
	uint32_t *masks = xmalloc(((size_t)n + 1) * sizeof *masks);
	int64_t *addrs = xmalloc(((size_t)n + 1) * WARP * sizeof *addrs);
	int64_t *kcount = xmalloc(((size_t)n + 1) * sizeof *kcount);
	for (int64_t j = 0; j < n; j++) {
		masks[j] = a->masks[order[j]];
		memcpy(addrs + j * WARP, a->addrs + order[j] * WARP, WARP * sizeof *addrs);
		kcount[j] = a->kcount[order[j]];
	}
	free(a->masks);
	free(a->addrs);
	free(a->kcount);
	a->masks = masks;
	a->addrs = addrs;
	a->kcount = kcount;
	a->capkept = n;
	free(order);
	free(x->ix);
	free(x->first);
	free(x->memo);
	free(x->range);
	free(x);
	a->keep = NULL;
}

/* ---- costing one warp instruction -------------------------------------------------------- */

/* The trips after the first of a compare-and-swap loop, at most: of the
 * lanes on one word one succeeds a trip, so trip k retries (a load, a
 * compare-and-swap) the lanes ranked k or more on their word.  Other
 * warps' writes can add more; none of the warp's own can be fewer than
 * the first trip, which the sums count. */
static void loop_trips(const ScanOpts *so, const ScanAcc *a, uint32_t mask, const int64_t *addr,
                       Memo *mm)
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
		mm->trips++;
		mm->tatom += c.counted;
		mm->tload += r.counted;
	}
}

/* What the bank model says of warp instruction (mask, addr) of access a:
 * false (*err) where it cannot cost it. */
static bool simulate(const ScanOpts *so, const ScanAcc *a, uint32_t mask, const int64_t *addr,
                     Memo *mm, const char **err)
{
	SimResult r;
	memset(mm, 0, sizeof *mm);
	if (!sim_inst(&so->geom, a->op, a->bytes, mask, addr, &r, err))
		return false;
	mm->wave = r.wavefronts;
	mm->ideal = r.ideal;
	mm->counted = r.counted;
	if (a->loop) {
		/* the loop's first trip reads the old values: a load */
		if (!sim_inst(&so->geom, (Op){.kind = OP_LOAD}, a->bytes, mask, addr, &r, err))
			internal_error("a compare-and-swap loop's load: %s", *err);
		mm->lwave = r.wavefronts;
		mm->lideal = r.ideal;
		mm->lcounted = r.counted;
		loop_trips(so, a, mask, addr, mm);
	}
	return true;
}

/* One warp instruction of access a into its sums (key: where it comes,
 * for the firsts; warp, slot, n: for the first refusal); a kept one's
 * repeats are not costed again. */
static bool cost(Cost *c, ScanAcc *a, uint32_t mask, const int64_t *addr, int64_t key,
                 int warp, uint32_t slot, uint32_t n)
{
	const ScanOpts *so = c->so;
	Memo r;
	uint64_t at = 0;
	int64_t j = so->keep ? keep_find(a, mask, addr, &at) : -1;
	const char *err;
	if (j >= 0) {
		r = a->keep->memo[j];
	} else if (!simulate(so, a, mask, addr, &r, &err)) {
		refuse(c, err, a->inst, warp, slot, n);
		return false;
	}
	int excess = r.wave - r.ideal;
	if (a->count == 0 || r.wave < a->min_wave) a->min_wave = r.wave;
	if (a->count == 0 || r.wave > a->max_wave) a->max_wave = r.wave;
	if (a->count == 0 || r.ideal < a->min_ideal) a->min_ideal = r.ideal;
	if (a->count == 0 || r.ideal > a->max_ideal) a->max_ideal = r.ideal;
	if (a->count == 0 || excess > a->worst_excess ||
	    (excess == a->worst_excess && key < a->worst_key)) {
		a->worst_excess = excess;
		a->worst_mask = mask;
		a->worst_key = key;
		memcpy(a->worst_addr, addr, sizeof a->worst_addr);
	}
	a->count++;
	a->wave += r.wave;
	a->ideal += r.ideal;
	a->counted += r.counted;
	if (a->loop) {
		a->loop_wave += r.lwave;
		a->loop_ideal += r.lideal;
		a->loop_counted += r.lcounted;
		a->trips_hi += r.trips;
		a->trips_atom_hi += r.tatom;
		a->trips_load_hi += r.tload;
	}
	if (so->keep)
		keep(c, a, j, at, mask, addr, key, &r);
	return true;
}

/* A warp instruction whose cost depends on data, as a range: at least
 * what its surely-running known lanes cost (0 if none surely runs), at
 * most every lane that may run, each unknown one at an address of its
 * bounds in the bank the known lanes load most, on a word of its own. */
static bool same_range(const Group *x, const Group *y)
{
	if (x->mask != y->mask || x->maybe != y->maybe || x->unk != y->unk ||
	    x->unk_sure != y->unk_sure)
		return false;
	for (uint32_t m = x->mask | x->maybe | x->unk; m; m &= m - 1)
		if (x->addr[__builtin_ctz(m)] != y->addr[__builtin_ctz(m)])
			return false;
	for (uint32_t m = x->unk; m; m &= m - 1)
		if (x->hi[__builtin_ctz(m)] != y->hi[__builtin_ctz(m)])
			return false;
	return true;
}

/* A range's sums (from cost_range or its memo). */
static void add_range(Cost *c, ScanAcc *a, const Group *g, int64_t key, const RangeMemo *r)
{
	if (a->rcount == 0 || r->lo < a->rmin) a->rmin = r->lo;
	if (a->rcount == 0 || r->hi > a->rmax) a->rmax = r->hi;
	if (g->why && (!a->rwhy || key < a->rwhy_key)) {
		a->rwhy = g->why;
		a->rwhy_key = key;
	}
	a->runknown = a->runknown || g->unk;
	a->rcount++;
	a->rsure += (g->mask | g->unk_sure) != 0;
	a->rlo += r->lo;
	a->rhi += r->hi;
	a->rlo_counted += r->lo_counted;
	a->rhi_counted += r->hi_counted;
	a->rideal += r->ideal;
	c->k->ranged = true;
}

static void cost_range(Cost *c, ScanAcc *a, const Group *g, int64_t key, int warp,
                       uint32_t n)
{
	if (!a->keep)
		a->keep = xcalloc(1, sizeof *a->keep);
	RangeMemo *memo = a->keep->range;
	if (memo && same_range(&memo->g, g)) {
		add_range(c, a, g, key, memo);
		return;
	}
	SimResult r;
	const char *err;
	int lo = 0, lo_counted = 0;
	const Geom *geo = &c->so->geom;
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
	if (!memo)
		memo = a->keep->range = xmalloc(sizeof *memo);
	*memo = (RangeMemo){*g, lo, r.wavefronts > lo ? r.wavefronts : lo, lo_counted,
	                    r.counted > lo_counted ? r.counted : lo_counted, r.ideal};
	add_range(c, a, g, key, memo);
	return;
refused:
	refuse(c, err, a->inst, warp, g->slot, n);
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
static int arrays_of(const PtxModule *m, int kernel, Range **out)
{
	int n = 0;
	Range *r = xcalloc((size_t)m->nsym + 1, sizeof *r);
	for (int i = 0; i < m->nsym; i++) {
		const PtxSym *y = &m->sym[i];
		if (y->kind != SYM_SHARED || (y->func >= 0 && y->func != kernel))
			continue;
		if (y->size < 0 && !ptx_names_sym(m, kernel, i))
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

/* The whole warp instructions of warp w, in (slot, occ) order, into
 * their sums. */
static void cost_batch(Cost *c, int w, Group *gs, int ng)
{
	const PtxModule *m = c->m;
	ScanKernel *k = c->k;
	ScanMerge *mg = &c->mg;
	uint32_t *ord = c->w[w].ord;
	for (int gi = 0; gi < ng; gi++) {
		const Group *g = &gs[gi];
		ScanAcc *a = &k->acc[g->slot];
		uint32_t n = ord[g->slot]++;
		int64_t key = key_of(w, n);
		if ((g->mask | g->maybe | g->unk) && !a->bytes) {
			const char *why;
			Op op;
			int b;
			scan_op_of(&m->inst[a->inst], &op, &b, &why);
			refuse(c, why, a->inst, w, g->slot, n);
		}
		if (!a->bytes)
			continue;
		if (g->maybe | g->unk) {
			/* no vector merging: ptxas's choice needs every address */
			for (int j = 0; mg->nof && j < mg->nof[g->slot]; j++)
				mg->chunk[mg->of[g->slot][j]].ok = false;
			cost_range(c, a, g, key, w, n);
			continue;
		}
		if (!g->mask)
			continue;
		for (int l = 0; l < WARP; l++)
			if (g->mask >> l & 1 && !inside(c->arrays, c->narrays, g->addr[l], a->bytes)) {
				if (!a->outside++ || key < a->outside_key) {
					a->outside_warp = w;
					a->outside_lane = l;
					a->outside_addr = g->addr[l];
					a->outside_key = key;
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
		cost(c, a, lanes, g->addr, key, w, g->slot, n);
		for (int j = 0; mg->nof && j < mg->nof[g->slot]; j++) {
			MergeChunk *ch = &mg->chunk[mg->of[g->slot][j]];
			if (!ch->ok)
				continue;
			if (ch->slot[0] != (int)g->slot)
				/* a member without its leader: not one vector */
				ch->ok = find_group(gs, (size_t)ng, (uint32_t)ch->slot[0], g->occ) != NULL;
			else if (mergeable(gs, (size_t)ng, g, ch))
				cost(c, &ch->acc, g->mask, g->addr, key, w, g->slot, n);
			else
				ch->ok = false;
		}
	}
}

/* ---- a warp's open warp instructions ------------------------------------------------------- */

static uint32_t open_hash(uint32_t slot, uint32_t occ)
{
	uint64_t h = ((uint64_t)slot << 32 | occ) * 0x9e3779b97f4a7c15ull;
	return (uint32_t)(h >> 32);
}

static void index_build(Warp *w)
{
	uint32_t cap = 64;
	while (cap < 2u * (uint32_t)w->n + 2)
		cap *= 2;
	if (cap != w->ixcap) {
		free(w->ix);
		w->ix = xmalloc(cap * sizeof *w->ix);
		w->ixcap = cap;
	}
	memset(w->ix, 0, cap * sizeof *w->ix);
	for (int i = 0; i < w->n; i++) {
		if (w->g[i].dead)
			continue;
		uint32_t at = open_hash(w->g[i].slot, w->g[i].occ) & (w->ixcap - 1);
		while (w->ix[at])
			at = (at + 1) & (w->ixcap - 1);
		w->ix[at] = i + 1;
	}
}

/* Open warp instruction (slot, occ) of w, made if new. */
static Open *open_get(Cost *c, Warp *w, int lane, uint32_t slot, uint32_t occ)
{
	int cur = w->cursor[lane];
	if (cur < w->n && w->g[cur].slot == slot && w->g[cur].occ == occ && !w->g[cur].dead) {
		w->cursor[lane] = cur + 1;
		return &w->g[cur];
	}
	uint32_t at = open_hash(slot, occ) & (w->ixcap - 1);
	/* past the slot's last: new (no lookup) */
	while (occ < w->top[slot] && w->ix[at]) {
		Open *o = &w->g[w->ix[at] - 1];
		if (o->slot == slot && o->occ == occ && !o->dead) {
			w->cursor[lane] = w->ix[at];
			return o;
		}
		at = (at + 1) & (w->ixcap - 1);
	}
	while (w->ix[at])
		at = (at + 1) & (w->ixcap - 1);
	if (w->n == w->cap) {
		int cap = w->cap ? 2 * w->cap : 256;
		w->g = xrealloc(w->g, (size_t)cap * sizeof *w->g);
		w->cap = cap;
	}
	Open *o = &w->g[w->n++];
	memset(o, 0, sizeof *o);
	o->slot = slot;
	o->occ = occ;
	o->why_lane = -1;
	o->tz = 64;
	w->ix[at] = w->n;
	w->cursor[lane] = w->n;
	c->open++;
	if (!w->top[slot])
		w->touched[w->ntouched++] = (int)slot;
	if (w->done[slot] == w->top[slot])
		w->active[w->nactive++] = (int)slot;
	if (occ + 1 > w->top[slot])
		w->top[slot] = occ + 1;
	if (2u * (uint32_t)w->n + 2 > w->ixcap)
		index_build(w);
	return o;
}

static void group_access(Cost *c, const InterpAccess *e);

static void on_access(void *ctx, const InterpAccess *e)
{
	Cost *c = ctx;
	group_access(c, e);
	const InterpSink *also = c->so->also;
	if (also && also->access)
		also->access(also->ctx, e);
}

/* An access into its warp's open warp instruction. */
static void group_access(Cost *c, const InterpAccess *e)
{
	const InterpRec *rec = e->rec;
	if (c->overflow)
		return;
	if (c->open >= SCAN_MAX_OPEN) {
		/* lanes of a warp apart for this long: bankc stops pairing them */
		InterpStop st = {STOP_RECORDS, e->inst, 0, 0, {0}, 0};
		add_stop(c->k, &st, e->tid);
		c->overflow = true;
		return;
	}
	Warp *w = &c->w[e->warp];
	if (!w->top) {
		size_t ns = (size_t)c->m->nslots + 1;
		w->done = xcalloc(ns, sizeof *w->done);
		w->top = xcalloc(ns, sizeof *w->top);
		w->active = xmalloc(ns * sizeof *w->active);
		w->touched = xmalloc(ns * sizeof *w->touched);
		w->ord = xcalloc(ns, sizeof *w->ord);
		index_build(w);
	}
	Open *g = open_get(c, w, rec->lane, rec->slot, rec->occ);
	if (!rec->active)
		return;
	uint32_t bit = 1u << rec->lane;
	g->addr[rec->lane] = rec->addr;
	if (rec->flags & REC_UNKNOWN) {
		g->unk |= bit;
		if (!g->hi)
			g->hi = xcalloc(WARP, sizeof *g->hi);
		g->hi[rec->lane] = rec->hi;
		if (!(rec->flags & REC_MAYBE))
			g->unk_sure |= bit;
	} else if (rec->flags & REC_MAYBE) {
		g->maybe |= bit;
	} else {
		g->mask |= bit;
	}
	/* the reason of the lowest lane that has one (its first record) */
	if ((rec->flags & (REC_UNKNOWN | REC_MAYBE)) && rec->why &&
	    (g->why_lane < 0 || rec->lane < g->why_lane)) {
		g->why = rec->why;
		g->why_lane = (int8_t)rec->lane;
	}
	if (!(rec->flags & REC_UNIFORM))
		g->varied = true;
	if (rec->tz < g->tz)
		g->tz = rec->tz;
}

/* The least count of slot s among warp w's lanes that still run. */
static uint32_t lanes_floor(Cost *c, int w, int s)
{
	uint32_t least = UINT32_MAX;
	for (int l = 0; l < WARP && w * WARP + l < c->r->nthreads; l++) {
		uint32_t f = interp_floor(c->r, w * WARP + l, s);
		if (f < least)
			least = f;
	}
	return least;
}

/* The same for slot s and, where ptxas may merge s with others, the rest
 * of its window: a run is costed whole. */
static uint32_t floor_of(Cost *c, int w, uint32_t s)
{
	int win = c->win ? c->win[s] : -1;
	/* cached per slot, or per window (at nslots + window) */
	uint32_t at = win < 0 ? s : (uint32_t)c->m->nslots + (uint32_t)win;
	if (c->stamp[at] == c->round)
		return c->floor[at];
	uint32_t least = UINT32_MAX;
	if (win < 0) {
		least = lanes_floor(c, w, (int)s);
	} else {
		for (int p = c->mg.wfirst[win]; p < c->mg.wfirst[win + 1]; p++) {
			uint32_t f = lanes_floor(c, w, c->mg.wslot[p]);
			if (f < least)
				least = f;
		}
	}
	c->stamp[at] = c->round;
	c->floor[at] = least;
	return least;
}

static int group_cmp(const void *x, const void *y)
{
	const Group *a = x, *b = y;
	if (a->slot != b->slot)
		return a->slot < b->slot ? -1 : 1;
	return (a->occ > b->occ) - (a->occ < b->occ);
}

/* The open warp instruction (slot, occ) of w, or NULL. */
static Open *open_find(Warp *w, uint32_t slot, uint32_t occ)
{
	uint32_t at = open_hash(slot, occ) & (w->ixcap - 1);
	while (w->ix[at]) {
		Open *o = &w->g[w->ix[at] - 1];
		if (o->slot == slot && o->occ == occ)
			return o->dead ? NULL : o;
		at = (at + 1) & (w->ixcap - 1);
	}
	return NULL;
}

/* The costed ones dropped, once they are half (or all, at once). */
static void compact(Warp *w, bool now)
{
	if (!now && (w->dead < 256 || 2 * w->dead < w->n))
		return;
	int keep = 0;
	for (int i = 0; i < w->n; i++)
		if (!w->g[i].dead)
			w->g[keep++] = w->g[i];
	w->n = keep;
	w->dead = 0;
	index_build(w);
	memset(w->cursor, 0, sizeof w->cursor);
}

enum { BATCH = 4096 };     /* warp instructions costed together, at most about */

/* Open warp instruction (slot, occ) of w into the batch, dropped. */
static void take(Cost *c, Warp *wp, uint32_t slot, uint32_t occ, int *nb)
{
	Open *o = open_find(wp, slot, occ);
	if (!o)
		return;
	if (*nb == c->capbatch) {
		c->capbatch = c->capbatch ? 2 * c->capbatch : 64;
		c->batch = xrealloc(c->batch, (size_t)c->capbatch * sizeof *c->batch);
	}
	Group *g = &c->batch[(*nb)++];
	g->slot = o->slot;
	g->occ = o->occ;
	g->mask = o->mask;
	g->maybe = o->maybe;
	g->unk = o->unk;
	g->unk_sure = o->unk_sure;
	g->why = o->why;
	g->varied = o->varied;
	g->tz = o->tz;
	for (int l = 0; l < WARP; l++)
		g->addr[l] = o->addr[l];
	/* hi is read only for unknown lanes: there is one where o->hi is */
	for (int l = 0; o->hi && l < WARP; l++)
		g->hi[l] = o->hi[l];
	free(o->hi);
	o->hi = NULL;
	o->dead = true;
	wp->dead++;
	c->open--;
}

static void flush(Cost *c, int w, int *nb)
{
	if (!*nb)
		return;
	bool sorted = true;
	for (int i = 1; i < *nb && sorted; i++)
		sorted = group_cmp(&c->batch[i - 1], &c->batch[i]) < 0;
	if (!sorted)
		qsort(c->batch, (size_t)*nb, sizeof *c->batch, group_cmp);
	cost_batch(c, w, c->batch, *nb);
	*nb = 0;
}

/* Cost the warp instructions of w that every lane has passed (all, when
 * every thread waits or has ended), and drop them: slot by slot, or a
 * window of slots that ptxas may merge by occurrence, so that a run's
 * members are costed together; about BATCH at a time. */
static void finish(Cost *c, int w)
{
	Warp *wp = &c->w[w];
	if (!wp->nactive)
		return;
	if (++c->round == 0) {
		memset(c->stamp, 0, ((size_t)c->m->nslots + (size_t)c->mg.nwin) * sizeof *c->stamp);
		memset(c->taken, 0, ((size_t)c->mg.nwin + 1) * sizeof *c->taken);
		c->round = 1;
	}
	int nb = 0;
	for (int i = 0; i < wp->nactive; i++) {
		uint32_t s0 = (uint32_t)wp->active[i];
		int win = c->win ? c->win[s0] : -1;
		uint32_t f = floor_of(c, w, s0);
		/* its slots: s0 alone, or its window's, once a round */
		int first = win < 0 ? 0 : c->mg.wfirst[win], end = win < 0 ? 1 : c->mg.wfirst[win + 1];
		if (win >= 0) {
			if (c->taken[win] == c->round)
				continue;
			c->taken[win] = c->round;
		}
		uint32_t lo = UINT32_MAX, hi = 0;
		for (int p = first; p < end; p++) {
			uint32_t s = win < 0 ? s0 : (uint32_t)c->mg.wslot[p];
			uint32_t lim = f < wp->top[s] ? f : wp->top[s];
			if (wp->done[s] < lim) {
				lo = wp->done[s] < lo ? wp->done[s] : lo;
				hi = lim > hi ? lim : hi;
			}
		}
		uint32_t step = (uint32_t)(BATCH / (end - first)) + 1;
		for (; lo < hi; lo = hi - lo > step ? lo + step : hi) {
			uint32_t to = hi - lo > step ? lo + step : hi;
			for (int p = first; p < end; p++) {
				uint32_t s = win < 0 ? s0 : (uint32_t)c->mg.wslot[p];
				uint32_t lim = f < wp->top[s] ? f : wp->top[s];
				for (uint32_t occ = wp->done[s] > lo ? wp->done[s] : lo;
				     occ < to && occ < lim; occ++)
					take(c, wp, s, occ, &nb);
				if (wp->done[s] < lim)
					wp->done[s] = to < lim ? to : lim;
			}
			if (nb >= BATCH)
				flush(c, w, &nb);
		}
	}
	flush(c, w, &nb);
	/* the slots left open */
	int keep = 0;
	for (int i = 0; i < wp->nactive; i++)
		if (wp->done[wp->active[i]] < wp->top[wp->active[i]])
			wp->active[keep++] = wp->active[i];
	wp->nactive = keep;
	compact(wp, false);
}

static void on_warp_paused(void *ctx, int w)
{
	Cost *c = ctx;
	finish(c, w);
	const InterpSink *also = c->so->also;
	if (also && also->warp_paused)
		also->warp_paused(also->ctx, w);
}

static void on_sync(void *ctx, const InterpSync *e)
{
	Cost *c = ctx;
	const InterpSink *also = c->so->also;
	if (also && also->sync)
		also->sync(also->ctx, e);
}

/* Every thread waits or has ended: everything is whole; the threads that
 * go on count from 0 again. */
static void on_interval_end(void *ctx, const InterpInterval *iv)
{
	Cost *c = ctx;
	for (int w = iv->first_tid / WARP; w * WARP < iv->first_tid + iv->ntids; w++) {
		Warp *wp = &c->w[w];
		if (!wp->top)
			continue;   /* no access yet */
		finish(c, w);
		for (int i = 0; i < wp->ntouched; i++)
			wp->done[wp->touched[i]] = wp->top[wp->touched[i]] = 0;
		wp->ntouched = 0;
		if (wp->nactive || wp->dead != wp->n)
			internal_error("a warp instruction outlived its interval");
		compact(wp, true);
	}
	const InterpSink *also = c->so->also;
	if (also && also->interval_end)
		also->interval_end(also->ctx, iv);
}

/* ---- a kernel --------------------------------------------------------------------------- */

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
	Cost c = {.m = m, .so = so, .k = k};
	if (so->ptxas_merge)
		scan_merge_find(m, &c.mg);
	for (int i = 0; i < c.mg.nchunk; i++) {
		MergeChunk *ch = &c.mg.chunk[i];
		ch->acc = k->acc[ch->slot[0]];
		ch->acc.bytes *= ch->n;
	}
	if (c.mg.nwin) {
		c.win = xmalloc(((size_t)m->nslots + 1) * sizeof *c.win);
		for (int s = 0; s < m->nslots; s++)
			c.win[s] = -1;
		for (int w = 0; w < c.mg.nwin; w++)
			for (int p = c.mg.wfirst[w]; p < c.mg.wfirst[w + 1]; p++)
				c.win[c.mg.wslot[p]] = w;
	}
	c.narrays = arrays_of(m, kernel, &c.arrays);
	c.floor = xcalloc((size_t)m->nslots + (size_t)c.mg.nwin + 1, sizeof *c.floor);
	c.stamp = xcalloc((size_t)m->nslots + (size_t)c.mg.nwin + 1, sizeof *c.stamp);
	c.taken = xcalloc((size_t)c.mg.nwin + 1, sizeof *c.taken);
	Interp r;
	interp_init(&r, m, kernel, ro);
	c.r = &r;
	c.nwarps = (r.nthreads + WARP - 1) / WARP;
	c.w = xcalloc((size_t)c.nwarps + 1, sizeof *c.w);
	InterpSink sink = {.ctx = &c, .access = on_access, .warp_paused = on_warp_paused,
	                   .sync = on_sync, .interval_end = on_interval_end};
	interp_run(&r, &sink);
	/* the stops, thread by thread; a refusal counts only where the warps
	 * before the first that stopped made it, as when warps ran in turn */
	int stop_warp = c.nwarps;
	for (int tid = 0; tid < r.nthreads; tid++)
		if (r.stop[tid].kind != STOP_NONE) {
			add_stop(k, &r.stop[tid], tid);
			if (tid / WARP < stop_warp)
				stop_warp = tid / WARP;
		}
	if (k->cost_error && c.err_key[0] >= stop_warp && k->nstops)
		k->cost_error = NULL;
	for (int w = 0; w < c.nwarps; w++) {
		for (int i = 0; i < c.w[w].n; i++)
			free(c.w[w].g[i].hi);
		free(c.w[w].g);
		free(c.w[w].ix);
		free(c.w[w].ord);
		free(c.w[w].done);
		free(c.w[w].top);
		free(c.w[w].active);
		free(c.w[w].touched);
	}
	free(c.w);
	free(c.batch);
	free(c.floor);
	free(c.stamp);
	free(c.taken);
	free(c.arrays);
	free(c.win);
	for (int s = 0; s < m->nslots; s++)
		keep_finish(&k->acc[s]);
	for (int i = 0; i < c.mg.nchunk; i++)
		keep_finish(&c.mg.chunk[i].acc);
	/* the runs that every execution allowed replace their members */
	scan_merge_choose(m, &c.mg, k->acc);
	scan_merge_free(&c.mg);
	k->steps = r.steps;
	k->unmodelled = r.unmodelled;
	k->complete = k->nstops == 0 && !k->cost_error;
	k->partial = k->nstops > 0 && !k->cost_error;
	for (int i = 0; i < k->nstops; i++)
		k->partial &= k->stops[i].kind == STOP_STEPS;
	if (k->partial)
		scan_bound_find(m, kernel, ro, &k->stops[0], &k->bound);
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
			free(k->acc[i].kcount);
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
