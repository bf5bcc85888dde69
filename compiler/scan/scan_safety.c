/* Shared-memory correctness, read from the block's run as a second
 * consumer beside the costing (ScanOpts.also): accesses outside the
 * array their address is made from, addresses not aligned to their
 * access, two threads touching one byte unordered (a race), and block
 * barriers that the threads meet at different instructions or never
 * complete (a hang).
 *
 * Races: the scheduler ends an interval only where every thread waits at
 * a barrier or has ended, so no access of one interval is ordered with
 * another's by anything but barriers; within one, two threads' accesses
 * are unordered unless they are lanes of one warp with a __syncwarp of
 * both between them.  (An interval end that releases only some threads,
 * at a named barrier, starts a new interval for every thread: a race
 * across it is missed, never invented.)  Each interval keeps, per 4-byte
 * word of shared memory, its last writer and up to three readers (one of
 * another warp than the first, one of the first's warp), each with the
 * bytes of the word it touched: a new access conflicts with those it
 * shares a byte with and is not ordered with.  Cells carry the interval's
 * generation, so an interval end forgets them all at once.  What bankc cannot order
 * (mbarrier waits, a barrier passed on a side of a branch it cannot
 * decide, atomics, two volatile accesses) is left out: silence, never a
 * guess.
 *
 * The array an access means is the one its address is made from: each
 * register's shared symbols followed through the arithmetic of its
 * function (one symbol: that array; none or several: only "outside every
 * array" can be said). */
#include <stdlib.h>
#include <string.h>

#include "scan/scan.h"

enum { PROV_NONE = -1, PROV_MANY = -2, PROV_PASSES = 32, FIND_CACHE = 4096 };

/* per access, the facts a race needs */
enum { AF_WRITE = 1, AF_STRONG = 2, AF_ATOMIC = 4, AF_MAYBE = 8,
	AF_UNSURE = 16 /* ordered by what bankc does not follow */,
	AF_PARTIAL = 32 /* after a __syncwarp of part of its warp */,
	AF_LOCK = 64 /* an atom.cas or atom.exch */ };

typedef struct {
	int32_t inst;
	uint16_t tid, sync;
	uint8_t flags;
	uint8_t mask;       /* the bytes of its word it touches */
} Who;

#define NOBODY 0xffffu

typedef struct {
	uint32_t gen;
	Who w;              /* the last writer */
	Who rd[3];          /* readers: the first, one of another warp, one of
	                     * the first's warp */
} Cell;

struct ScanSafety {
	const PtxModule *m;
	int kernel;
	int nthreads;
	int64_t dyn;            /* --dynamic-shared, -1: not given */
	int32_t *prov;          /* per instruction: the symbol its address is
	                         * made from, PROV_* */
	int8_t *width;          /* per instruction: bytes per lane, 0: none */
	uint8_t *iflags;        /* per instruction: AF_WRITE, AF_STRONG, AF_ATOMIC */
	/* per thread */
	uint16_t *wsync;        /* __syncwarps passed this interval */
	uint8_t *tflags;        /* AF_PARTIAL, AF_UNSURE this interval */
	bool *waiting;          /* at a block barrier */
	int32_t *bar_inst;
	int8_t *bar_id;
	int16_t *bar_count;
	int32_t *nbar;          /* block barriers it has waited at */
	/* the shadow of shared memory, a cell per 4-byte word */
	Cell *cell;
	int64_t ncell;
	uint32_t gen;
	bool touched;           /* accesses since the last interval end */
	bool grouped;           /* the block ran in groups: no cross-group order */
	bool forked_cta;        /* a block barrier passed on an undecided side */
	bool arrives;           /* bar.arrive met: producers and consumers */
	/* the kernel's shared arrays, [lo, hi) (an extern one without
	 * --dynamic-shared: no end) */
	struct { int sym; int64_t lo, hi; } *arr;
	int narr;
	/* per instruction: the bytes its array holds, where it has one and
	 * its end is known (else lo > hi: not checked against one array) */
	int64_t *blo, *bhi;
	ScanFinding *f;
	int nf, capf;
	int fcache[FIND_CACHE];     /* finding of a recent pair, + 1 */
	ScanFinding spare;          /* where findings past SCAN_SAFETY_MAX go */
	int64_t dropped;
	int64_t races_checked;
};

/* ---- what an instruction is ------------------------------------------------------- */

static bool text_has(const PtxInst *in, const char *lit)
{
	size_t k = strlen(lit);
	for (int i = 0; i + (int)k <= in->ntext; i++)
		if (memcmp(in->text + i, lit, k) == 0 &&
		    (i + (int)k == in->ntext || in->text[i + k] == '.'))
			return true;
	return false;
}

static void inst_facts(ScanSafety *s)
{
	const PtxModule *m = s->m;
	for (int i = 0; i < m->ninst; i++) {
		const PtxInst *in = &m->inst[i];
		if (in->slot < 0)
			continue;
		Op op;
		int bytes;
		const char *why;
		if (!scan_op_of(in, &op, &bytes, &why))
			continue;
		s->width[i] = (int8_t)bytes;
		uint8_t f = 0;
		switch (in->op.kind) {
		case PO_ST: case PO_STMATRIX: case PO_CPASYNC:
			f = AF_WRITE;
			break;
		case PO_ATOM: case PO_RED:
			f = AF_WRITE | AF_ATOMIC | AF_STRONG;
			if (text_has(in, ".cas") || text_has(in, ".exch"))
				f |= AF_LOCK;
			break;
		default:
			break;
		}
		if (text_has(in, ".volatile") || text_has(in, ".relaxed") ||
		    text_has(in, ".acquire") || text_has(in, ".release"))
			f |= AF_STRONG;
		s->iflags[i] = f;
	}
}

/* ---- which array an address is made from ------------------------------------------ */

static int32_t prov_join(int32_t a, int32_t b)
{
	if (a == PROV_NONE)
		return b;
	if (b == PROV_NONE || a == b)
		return a;
	return PROV_MANY;
}

static int32_t opd_prov(const PtxModule *m, const int32_t *reg, int nregs, const PtxOpd *o)
{
	int32_t p = PROV_NONE;
	if ((o->kind == OPD_SYM || o->kind == OPD_MEM) && o->sym >= 0 && o->sym < m->nsym &&
	    m->sym[o->sym].kind == SYM_SHARED)
		p = o->sym;
	if (o->kind == OPD_REG || o->kind == OPD_MEM) {
		if (o->reg >= 0)
			p = prov_join(p, o->reg < nregs ? reg[o->reg] : PROV_MANY);
		if (o->kind == OPD_REG && o->reg2 >= 0)
			p = prov_join(p, o->reg2 < nregs ? reg[o->reg2] : PROV_MANY);
	}
	return p;
}

/* Whether an instruction's first operand is a register it computes from
 * its others (an address's arithmetic), not one loaded or compared. */
static bool computes(const PtxInst *in)
{
	if (in->nopd < 2 || in->opd[0].kind != OPD_REG)
		return false;
	switch (in->op.kind) {
	case PO_OTHER: case PO_NOP: case PO_LD: case PO_ATOM: case PO_RED:
	case PO_LDMATRIX: case PO_SETP: case PO_SET: case PO_CALL: case PO_ELECT:
	case PO_SHARED_OTHER: case PO_POPC: case PO_CLZ: case PO_BFIND:
	case PO_ISSPACEP:
		return false;
	default:
		return true;
	}
}

static void provenance(ScanSafety *s)
{
	const PtxModule *m = s->m;
	for (int f = 0; f < m->nfunc; f++) {
		const PtxFunc *fn = &m->func[f];
		if (!fn->defined || fn->nregs <= 0)
			continue;
		int32_t *reg = xmalloc((size_t)fn->nregs * sizeof *reg);
		for (int r = 0; r < fn->nregs; r++)
			reg[r] = PROV_NONE;
		/* to a fixed point: a loop's induction register meets its start;
		 * a chain of copies written backwards takes a pass a link, so
		 * past PROV_PASSES the function's accesses name no one array
		 * (only "outside every array" is checked there) */
		bool changed = true;
		for (int pass = 0; changed && pass < PROV_PASSES; pass++) {
			changed = false;
			for (int i = fn->first; i < fn->first + fn->ninst; i++) {
				const PtxInst *in = &m->inst[i];
				if (!computes(in) || in->opd[0].reg < 0 || in->opd[0].reg >= fn->nregs)
					continue;
				int32_t p = reg[in->opd[0].reg];
				for (int o = 1; o < in->nopd; o++)
					p = prov_join(p, opd_prov(m, reg, fn->nregs, &in->opd[o]));
				if (p != reg[in->opd[0].reg]) {
					reg[in->opd[0].reg] = p;
					changed = true;
				}
			}
		}
		for (int i = fn->first; i < fn->first + fn->ninst; i++) {
			const PtxInst *in = &m->inst[i];
			if (in->slot < 0)
				continue;
			for (int o = 0; o < in->nopd; o++)
				if (in->opd[o].kind == OPD_MEM) {
					s->prov[i] = changed ? PROV_MANY : opd_prov(m, reg, fn->nregs, &in->opd[o]);
					break;
				}
		}
		free(reg);
	}
}

/* ---- findings ----------------------------------------------------------------------- */

/* One source position: an unrolled loop's copies of an access are one */
static bool same_pos(const PtxModule *m, int i, int j)
{
	if (i == j)
		return true;
	if (i < 0 || j < 0)
		return false;
	const PtxInst *a = &m->inst[i], *b = &m->inst[j];
	return a->line > 0 && a->file == b->file && a->line == b->line && a->col == b->col &&
	       a->inl == b->inl && a->op.kind == b->op.kind;
}

static ScanFinding *finding(ScanSafety *s, ScanFindingKind kind, int inst, int inst2,
                            bool *fresh)
{
	const PtxModule *m = s->m;
	/* the pair met last time, without a search (a race meets it per byte) */
	uint32_t h = ((uint32_t)inst * 65599u ^ (uint32_t)inst2 * 31u ^ (uint32_t)kind) &
	             (FIND_CACHE - 1);
	int c = s->fcache[h] - 1;
	if (c >= 0 && s->f[c].kind == kind &&
	    ((s->f[c].inst == inst && s->f[c].inst2 == inst2) ||
	     (s->f[c].inst == inst2 && s->f[c].inst2 == inst))) {
		s->f[c].count++;
		*fresh = false;
		return &s->f[c];
	}
	for (int i = 0; i < s->nf; i++)
		if (s->f[i].kind == kind &&
		    ((same_pos(m, s->f[i].inst, inst) && same_pos(m, s->f[i].inst2, inst2)) ||
		     (same_pos(m, s->f[i].inst, inst2) && same_pos(m, s->f[i].inst2, inst)))) {
			s->f[i].count++;
			s->fcache[h] = i + 1;
			*fresh = false;
			return &s->f[i];
		}
	if (s->nf == SCAN_SAFETY_MAX) {
		/* past the most a kernel reports: counted, not kept */
		s->dropped++;
		memset(&s->spare, 0, sizeof s->spare);
		*fresh = false;
		s->spare.certain = true;
		return &s->spare;
	}
	if (s->nf == s->capf) {
		s->capf = s->capf ? 2 * s->capf : 16;
		s->f = xrealloc(s->f, (size_t)s->capf * sizeof *s->f);
	}
	s->fcache[h] = s->nf + 1;
	ScanFinding *f = &s->f[s->nf++];
	memset(f, 0, sizeof *f);
	f->kind = kind;
	f->inst = inst;
	f->inst2 = inst2;
	f->tid = f->tid2 = -1;
	f->sym = f->sym2 = -1;
	f->count = 1;
	f->certain = true;
	*fresh = true;
	return f;
}

/* The array holding byte a (-1: none) among those the kernel sees. */
static int array_at(const ScanSafety *s, int64_t a)
{
	for (int i = 0; i < s->narr; i++)
		if (a >= s->arr[i].lo && a < s->arr[i].hi)
			return s->arr[i].sym;
	return -1;
}

/* The bytes array y holds, or -1 where the launch says none (an extern
 * array without --dynamic-shared). */
static int64_t array_size(const ScanSafety *s, int y)
{
	const PtxSym *sy = &s->m->sym[y];
	if (sy->size >= 0)
		return sy->size;
	if (s->dyn < 0)
		return -1;
	int64_t n = s->m->extern_base + s->dyn - sy->addr;
	return n > 0 ? n : 0;
}

/* The out-of-bounds finding of e's instruction, its access filled in;
 * NULL where one is kept already that says as much (certain, or this one
 * on a path that depends on data). */
static ScanFinding *bounds_finding(ScanSafety *s, const InterpAccess *e, int w, bool maybe)
{
	bool fresh;
	ScanFinding *f = finding(s, SF_BOUNDS, e->inst, -1, &fresh);
	if (!fresh && (f->certain || maybe))
		return NULL;
	f->certain = !maybe;
	f->maybe = maybe;
	f->tid = e->tid;
	f->addr = e->rec->addr;
	f->width = w;
	return f;
}

static void check_bounds(ScanSafety *s, const InterpAccess *e, int w)
{
	const InterpRec *r = e->rec;
	int64_t a = r->addr;
	int p = s->prov[e->inst];
	bool maybe = r->flags & REC_MAYBE;
	if (p >= 0) {
		if (a >= s->blo[e->inst] && a + w <= s->bhi[e->inst])
			return;
		int64_t size = array_size(s, p), base = s->m->sym[p].addr;
		if (size < 0)
			return;
		ScanFinding *f = bounds_finding(s, e, w, maybe);
		if (!f)
			return;
		f->sym = p;
		f->offset = a - base;
		f->size = size;
		int in = array_at(s, a + (a < base ? 0 : w - 1));
		f->sym2 = in != p ? in : -1;
		return;
	}
	/* no one array: only past every array the launch gives can be said */
	if (array_at(s, a) >= 0 && array_at(s, a + w - 1) >= 0)
		return;
	ScanFinding *f = bounds_finding(s, e, w, maybe);
	if (!f)
		return;
	f->offset = a;
	f->size = -1;
}

static void check_align(ScanSafety *s, const InterpAccess *e, int w)
{
	const InterpRec *r = e->rec;
	if (w <= 1 || r->addr % (uint32_t)w == 0)
		return;
	bool maybe = r->flags & REC_MAYBE;
	bool fresh;
	ScanFinding *f = finding(s, SF_ALIGN, e->inst, -1, &fresh);
	if (!fresh && (f->certain || maybe))
		return;
	f->certain = !maybe;
	f->maybe = maybe;
	f->tid = e->tid;
	f->addr = r->addr;
	f->width = w;
	int y = s->prov[e->inst] >= 0 ? s->prov[e->inst] : array_at(s, r->addr);
	f->sym = y;
	f->offset = y >= 0 ? r->addr - s->m->sym[y].addr : r->addr;
}

/* ---- races -------------------------------------------------------------------------- */

static bool conflicts(const ScanSafety *s, const Who *x, const Who *a, bool write_a)
{
	(void)s;
	if (x->tid == NOBODY || x->tid == a->tid || !(x->mask & a->mask))
		return false;
	if (!(write_a || (x->flags & AF_WRITE)))
		return false;
	/* atomics on one byte do not race; nor, in bankc's view, does an
	 * atomic with a plain access, nor two volatile ones */
	if ((x->flags | a->flags) & AF_ATOMIC)
		return false;
	if ((x->flags & AF_STRONG) && (a->flags & AF_STRONG))
		return false;
	if ((x->flags | a->flags) & AF_UNSURE)
		return false;
	/* one instruction's writes of one byte by two threads: a race only
	 * where they write different values, which bankc does not know */
	if (x->inst == a->inst && (x->flags & AF_WRITE) && write_a)
		return false;
	if (x->tid / WARP == a->tid / WARP) {
		/* lanes of one warp: ordered by a __syncwarp of both between
		 * them; one warp instruction's lanes are left out */
		if (x->sync != a->sync || ((x->flags | a->flags) & AF_PARTIAL) ||
		    x->inst == a->inst)
			return false;
	}
	return true;
}

static void race(ScanSafety *s, const Who *x, const Who *a, bool write_a, int64_t word)
{
	int64_t byte = word * 4 + __builtin_ctz((unsigned)(x->mask & a->mask));
	bool fresh;
	ScanFinding *f = finding(s, SF_RACE, x->inst, a->inst, &fresh);
	bool maybe = (x->flags | a->flags) & AF_MAYBE;
	if (!fresh && (f->certain || maybe))
		return;
	f->certain = !maybe;
	f->maybe = maybe;
	f->inst = x->inst;
	f->inst2 = a->inst;
	f->tid = x->tid;
	f->tid2 = a->tid;
	f->write = (x->flags & AF_WRITE) != 0;
	f->write2 = write_a;
	f->addr = byte;
	f->sym = array_at(s, byte);
	f->offset = f->sym >= 0 ? byte - s->m->sym[f->sym].addr : byte;
}

static void check_race(ScanSafety *s, const InterpAccess *e, int w)
{
	const InterpRec *r = e->rec;
	uint8_t fl = (uint8_t)((s->iflags[e->inst] & ~AF_LOCK) | s->tflags[e->tid]);
	if (r->flags & REC_MAYBE)
		fl |= AF_MAYBE;
	bool write = fl & AF_WRITE;
	Who a = {e->inst, (uint16_t)e->tid, s->wsync[e->tid], fl, 0};
	if (!s->cell) {
		s->cell = xcalloc((size_t)s->ncell, sizeof *s->cell);
		s->gen = 1;
	}
	s->touched = true;
	int64_t lo = r->addr, hi = (int64_t)r->addr + w;   /* bytes [lo, hi) */
	for (int64_t b = lo / 4; b * 4 < hi && b < s->ncell; b++) {
		/* the bytes of word b the access touches */
		int64_t from = lo > b * 4 ? lo - b * 4 : 0, to = hi < b * 4 + 4 ? hi - b * 4 : 4;
		a.mask = (uint8_t)(((1u << to) - 1) & ~((1u << from) - 1));
		Cell *c = &s->cell[b];
		if (c->gen != s->gen) {
			c->gen = s->gen;
			c->w.tid = NOBODY;
			c->rd[0].tid = c->rd[1].tid = c->rd[2].tid = NOBODY;
		}
		s->races_checked++;
		if (conflicts(s, &c->w, &a, write))
			race(s, &c->w, &a, write, b);
		if (write) {
			for (int k = 0; k < 3; k++)
				if (conflicts(s, &c->rd[k], &a, true))
					race(s, &c->rd[k], &a, true, b);
			c->w = a;
			/* readers of bytes it does not write stay */
			for (int k = 0; k < 3; k++)
				if (!(c->rd[k].mask & ~a.mask))
					c->rd[k].tid = NOBODY;
			continue;
		}
		if (c->rd[0].tid == NOBODY) {
			c->rd[0] = a;
		} else if (c->rd[0].tid == a.tid) {
			c->rd[0].mask |= a.mask;
		} else {
			int k = c->rd[0].tid / WARP != a.tid / WARP ? 1 : 2;
			if (c->rd[k].tid == NOBODY)
				c->rd[k] = a;
		}
	}
}

/* ---- the sink ------------------------------------------------------------------------ */

static void on_access(void *ctx, const InterpAccess *e)
{
	ScanSafety *s = ctx;
	const InterpRec *r = e->rec;
	int w = s->width[e->inst];
	if (!w || !r->active || (r->flags & REC_UNKNOWN))
		return;
	check_bounds(s, e, w);
	check_align(s, e, w);
	/* a compare-and-swap or an exchange may take a lock that orders what
	 * follows with other threads: bankc does not follow locks */
	if (s->iflags[e->inst] & AF_LOCK)
		s->tflags[e->tid] |= AF_UNSURE;
	if (!s->grouped && e->tid < s->nthreads)
		check_race(s, e, w);
}

static void on_sync(void *ctx, const InterpSync *e)
{
	ScanSafety *s = ctx;
	if (e->tid < 0 || e->tid >= s->nthreads)
		return;
	switch (e->kind) {
	case SYNC_CTA:
		if (e->in_fork) {
			/* passed, not waited at: what it orders bankc cannot say */
			s->tflags[e->tid] |= AF_UNSURE;
			s->forked_cta = true;
			break;
		}
		s->waiting[e->tid] = true;
		s->bar_inst[e->tid] = e->inst;
		s->bar_id[e->tid] = (int8_t)e->id;
		s->bar_count[e->tid] = (int16_t)e->count;
		break;
	case SYNC_CTA_ARRIVE:
		s->arrives = true;
		break;
	case SYNC_WARP: {
		int lanes = s->nthreads - e->tid / WARP * WARP;
		uint32_t full = lanes >= WARP ? 0xffffffffu : (1u << lanes) - 1;
		if (e->in_fork || (e->mask & full) != full)
			s->tflags[e->tid] |= AF_PARTIAL;
		if (s->wsync[e->tid] < 0xfffe)
			s->wsync[e->tid]++;
		break;
	}
	case SYNC_OTHER:
		/* an mbarrier or a cluster barrier: it may order this thread's
		 * accesses with others' in ways bankc does not follow */
		s->tflags[e->tid] |= AF_UNSURE;
		break;
	default:
		break;
	}
}

/* Threads waiting at barrier 0 of no count (__syncthreads) released
 * together from different instructions: they met one barrier at two
 * places of the code. */
static void check_divergent(ScanSafety *s, const InterpInterval *iv)
{
	int first = -1;
	for (int j = 0; j < iv->ntids; j++) {
		int tid = iv->first_tid + j;
		if (!iv->go[j] || !s->waiting[tid] || s->bar_id[tid] != 0 || s->bar_count[tid] != 0)
			continue;
		if (first < 0) {
			first = tid;
			continue;
		}
		if (s->bar_inst[tid] == s->bar_inst[first])
			continue;
		/* once per barrier: a loop's later trips say nothing new */
		for (int i = 0; i < s->nf; i++)
			if (s->f[i].kind == SF_BARRIER &&
			    (same_pos(s->m, s->f[i].inst, s->bar_inst[first]) ||
			     same_pos(s->m, s->f[i].inst2, s->bar_inst[first]) ||
			     same_pos(s->m, s->f[i].inst, s->bar_inst[tid]) ||
			     same_pos(s->m, s->f[i].inst2, s->bar_inst[tid])))
				return;
		bool fresh;
		ScanFinding *f = finding(s, SF_BARRIER, s->bar_inst[first], s->bar_inst[tid], &fresh);
		if (fresh) {
			f->tid = first;
			f->tid2 = tid;
			f->hang = false;
			f->waiting = s->nbar[first] + 1;    /* the n-th barrier each meets */
			f->ended = s->nbar[tid] + 1;
		}
		return;
	}
}

static void check_hang(ScanSafety *s, const InterpInterval *iv)
{
	int first = -1, ended = 0, waiting = 0, other = -1;
	for (int j = 0; j < iv->ntids; j++) {
		int tid = iv->first_tid + j;
		if (!s->waiting[tid]) {
			ended++;
			continue;
		}
		waiting++;
		if (first < 0)
			first = tid;
		else if (other < 0 && s->bar_inst[tid] != s->bar_inst[first])
			other = tid;
	}
	if (first < 0)
		return;
	bool fresh;
	ScanFinding *f = finding(s, SF_BARRIER, s->bar_inst[first],
	                         other >= 0 ? s->bar_inst[other] : -1, &fresh);
	if (!fresh)
		return;
	f->hang = true;
	f->tid = first;
	f->tid2 = other;
	f->waiting = waiting;
	f->ended = ended;
	f->bar_id = s->bar_id[first];
	f->bar_count = s->bar_count[first];
}

static void on_interval_end(void *ctx, const InterpInterval *iv)
{
	ScanSafety *s = ctx;
	if (iv->ntids < s->nthreads)
		s->grouped = true;  /* barriers complete within groups of warps */
	if (iv->go && !s->grouped) {
		if (iv->deadlock)
			check_hang(s, iv);
		else
			check_divergent(s, iv);
	}
	for (int j = 0; iv->go && j < iv->ntids; j++)
		if (iv->go[j]) {
			s->waiting[iv->first_tid + j] = false;
			s->nbar[iv->first_tid + j]++;
		}
	/* a new interval: every cell forgotten, every warp's syncs from 0 */
	if (s->touched) {
		s->gen++;
		s->touched = false;
	}
	memset(s->wsync, 0, (size_t)s->nthreads * sizeof *s->wsync);
	memset(s->tflags, 0, (size_t)s->nthreads);
}

/* ---- the consumer -------------------------------------------------------------------- */

ScanSafety *scan_safety_new(const PtxModule *m, int kernel, const InterpOpts *ro,
                            int64_t dynamic_shared)
{
	ScanSafety *s = xcalloc(1, sizeof *s);
	s->m = m;
	s->kernel = kernel;
	s->nthreads = ro->block[0] * ro->block[1] * ro->block[2];
	s->dyn = dynamic_shared;
	size_t ni = (size_t)m->ninst + 1, nt = (size_t)s->nthreads + 1;
	s->prov = xmalloc(ni * sizeof *s->prov);
	for (size_t i = 0; i < ni; i++)
		s->prov[i] = PROV_NONE;
	s->width = xcalloc(ni, 1);
	s->iflags = xcalloc(ni, 1);
	s->wsync = xcalloc(nt, sizeof *s->wsync);
	s->tflags = xcalloc(nt, 1);
	s->waiting = xcalloc(nt, sizeof *s->waiting);
	s->bar_inst = xcalloc(nt, sizeof *s->bar_inst);
	s->bar_id = xcalloc(nt, 1);
	s->bar_count = xcalloc(nt, sizeof *s->bar_count);
	s->nbar = xcalloc(nt, sizeof *s->nbar);
	/* the shadow: every byte the launch's arrays hold (an extern array
	 * without --dynamic-shared: SCAN_SAFETY_SHADOW past its start) */
	int64_t end = m->shared_static;
	for (int i = 0; i < m->nsym; i++) {
		const PtxSym *y = &m->sym[i];
		if (y->kind != SYM_SHARED ||
		    (y->func >= 0 && y->func != kernel && m->func[y->func].entry))
			continue;
		int64_t e = y->size >= 0 ? y->addr + y->size
		            : !ptx_names_sym(m, kernel, i) ? 0
		            : dynamic_shared >= 0 ? m->extern_base + dynamic_shared
		            : y->addr + SCAN_SAFETY_SHADOW;
		if (e > end)
			end = e;
	}
	s->ncell = ((end < SCAN_SAFETY_SHADOW ? end : SCAN_SAFETY_SHADOW) + 3) / 4;
	s->arr = xcalloc((size_t)m->nsym + 1, sizeof *s->arr);
	for (int i = 0; i < m->nsym; i++) {
		const PtxSym *y = &m->sym[i];
		/* the kernel's, the module's, and those of the functions it may
		 * call (another kernel's are not its) */
		if (y->kind != SYM_SHARED ||
		    (y->func >= 0 && y->func != kernel && m->func[y->func].entry))
			continue;
		if (y->size < 0 && !ptx_names_sym(m, kernel, i))
			continue;
		int64_t e = y->size >= 0 ? y->addr + y->size
		            : dynamic_shared >= 0 ? m->extern_base + dynamic_shared : INT64_MAX;
		s->arr[s->narr].sym = i;
		s->arr[s->narr].lo = y->addr;
		s->arr[s->narr++].hi = e;
	}
	inst_facts(s);
	provenance(s);
	s->blo = xmalloc(ni * sizeof *s->blo);
	s->bhi = xmalloc(ni * sizeof *s->bhi);
	for (size_t i = 0; i < ni; i++) {
		int p = s->prov[i];
		int64_t size = p >= 0 ? array_size(s, p) : -1;
		s->blo[i] = size < 0 ? INT64_MIN : m->sym[p].addr;
		s->bhi[i] = size < 0 ? INT64_MAX : m->sym[p].addr + size;
	}
	return s;
}

void scan_safety_sink(ScanSafety *s, InterpSink *sink)
{
	*sink = (InterpSink){.ctx = s, .access = on_access, .sync = on_sync,
	                     .interval_end = on_interval_end};
}

void scan_safety_finish(ScanSafety *s, const ScanKernel *k)
{
	/* a path bankc stopped, or a barrier it passed on an undecided side:
	 * where threads wait and whether the block hangs is not certain */
	for (int i = 0; i < s->nf; i++)
		if (s->f[i].kind == SF_BARRIER && (k->nstops || s->forked_cta || !k->complete ||
		                                   (s->f[i].hang && s->arrives)))
			s->f[i].certain = false;
}

const ScanFinding *scan_safety_findings(const ScanSafety *s, int *n)
{
	*n = s->nf;
	return s->f;
}

int64_t scan_safety_dynamic(const ScanSafety *s)
{
	return s->dyn;
}

bool scan_safety_has(const ScanSafety *s, int inst, ScanFindingKind kind)
{
	for (int i = 0; s && i < s->nf; i++)
		if (s->f[i].kind == kind && s->f[i].inst == inst)
			return true;
	return false;
}

int64_t scan_safety_dropped(const ScanSafety *s)
{
	return s->dropped;
}

void scan_safety_free(ScanSafety *s)
{
	if (!s)
		return;
	free(s->prov);
	free(s->width);
	free(s->iflags);
	free(s->wsync);
	free(s->tflags);
	free(s->waiting);
	free(s->bar_inst);
	free(s->bar_id);
	free(s->bar_count);
	free(s->nbar);
	free(s->cell);
	free(s->arr);
	free(s->blo);
	free(s->bhi);
	free(s->f);
	free(s);
}
