/* Where the interpreter's values live outside registers: the parameters
 * of the kernel and of call sequences (byte by byte, each byte known or
 * not), call frames, each thread's local memory, and the shared-memory
 * accesses it records. */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_interp.h"

/* ---- parameters ---------------------------------------------------------------- */

/* Where the bytes of parameter symbol s live in the current frame; false
 * if the access [off, off + n) falls outside it. */
static bool param_at(Thread *t, int s, int64_t off, int n, uint8_t **val,
                     uint32_t **why)
{
	const PtxModule *m = t->m;
	Interp *r = t->r;
	const PtxSym *y = &m->sym[s];
	if (off < 0 || off + n > y->size)
		return false;
	const Frame *f = &t->fr[t->depth];
	if (y->formal == -1) {
		/* a local .param of a call sequence in this function */
		*val = t->pstack + f->p0 + y->poff + off;
		*why = t->pwhy + f->p0 + y->poff + off;
		return true;
	}
	if (f->call < 0) {
		/* the kernel's own parameters */
		if (y->formal < 0 || y->func != r->kernel)
			return false;
		const PtxFunc *k = &m->func[r->kernel];
		int64_t base = 0;
		for (int i = 0; i < y->formal; i++)
			base += m->sym[k->params[i]].size;
		*val = t->pstack + base + off;
		*why = t->pwhy + base + off;
		return true;
	}
	/* a callee's formal parameter or return value: the caller's local */
	const PtxInst *call = &m->inst[f->call];
	int a;
	if (y->formal == -2) {
		if (call->ncall_ret < 1)
			return false;
		a = m->vec[call->call_ret].sym;
	} else {
		if (y->formal >= call->ncall_args)
			return false;
		a = m->vec[call->call_args + y->formal].sym;
	}
	const PtxSym *ay = &m->sym[a];
	if (off + n > ay->size)
		return false;
	const Frame *pf = &t->fr[t->depth - 1];
	*val = t->pstack + pf->p0 + ay->poff + off;
	*why = t->pwhy + pf->p0 + ay->poff + off;
	return true;
}

/* ---- shared accesses ------------------------------------------------------------ */

/* The address of memory operand o, as the instruction's space reads it;
 * *shared says whether it is a shared-memory address. */
Val ir_address(Thread *t, int i, const PtxInst *in, const PtxOpd *o,
                   bool *shared)
{
	Val base;
	if (o->nvec)
		return unknown_at(i);
	if (o->reg >= 0)
		base = *ir_reg(t, o->reg);
	else if (o->sym >= 0)
		base = ir_get(t, i, &(PtxOpd){.kind = OPD_SYM, .sym = o->sym}, 8);
	else
		base = konst(0);
	if (base.why) {
		/* its bounds, moved by the offset (a 32-bit register's wrap
		 * makes them unknown) */
		uint64_t lo, hi;
		bool narrow = o->reg >= 0 &&
		              t->m->func[t->fr[t->depth].func].regty[o->reg].bytes <= 4;
		if (__builtin_add_overflow(base.lo, (uint64_t)o->imm, &lo) ||
		    __builtin_add_overflow(base.hi, (uint64_t)o->imm, &hi) ||
		    (narrow && hi > 0xffffffffull) || o->imm < 0)
			lo = 0, hi = ~0ull;
		Val u = unknown_in(base.why, lo, hi);
		int tz = ct_tz(base);
		if (o->imm && __builtin_ctzll((uint64_t)o->imm) < tz)
			tz = __builtin_ctzll((uint64_t)o->imm);
		u.ct = ct_bits(tz);
		return u;
	}
	uint64_t a = base.v + (uint64_t)o->imm;
	/* a 32-bit register's address wraps at 32 bits, as the hardware adds
	 * it: [%r+252] with %r = -36 is byte 216 */
	if (o->reg >= 0 && t->m->func[t->fr[t->depth].func].regty[o->reg].bytes <= 4)
		a &= 0xffffffffull;
	/* what ptxas knows of the address's alignment */
	int tz = ct_tz(base);
	if (o->imm && __builtin_ctzll((uint64_t)o->imm) < tz)
		tz = __builtin_ctzll((uint64_t)o->imm);
	uint8_t uni = base.uni;
	*shared = in->op.space == SP_SHARED;
	if (in->op.space == SP_GENERIC) {
		if (a >= WINDOW && a - WINDOW < PTX_SHARED_LIMIT) {
			*shared = true;
			a -= WINDOW;
		} else if (o->sym >= 0 && t->m->sym[o->sym].kind == SYM_SHARED) {
			*shared = true;     /* a shared variable named directly */
		}
	}
	return (Val){a, 0, ct_bits(tz), a, a, uni};
}

/* flags REC_UNKNOWN: the address is within [a, hi], for why */
static bool record(Thread *t, const PtxInst *in, int i, uint64_t a, int tz, bool active,
                   int flags, uint64_t hi, uint32_t why)
{
	Interp *r = t->r;
	if (active && a >= PTX_SHARED_LIMIT && !(flags & REC_UNKNOWN))
		return ir_stop(t, STOP_BAD_ADDR, i, 0, (int64_t)a);
	if (flags & REC_UNKNOWN) {
		if (a >= PTX_SHARED_LIMIT)
			a = 0;
		if (hi >= PTX_SHARED_LIMIT)
			hi = PTX_SHARED_LIMIT - 1;
	}
	if (t->maybe_why) {
		flags |= REC_MAYBE;
		if (!(flags & REC_UNKNOWN))
			why = t->maybe_why;
	}
	uint32_t n = occ_get(t, in->slot);
	occ_set(t, in->slot, n + 1);
	InterpRec rec = {(uint32_t)in->slot, n, (uint32_t)(active ? a : 0), (uint8_t)t->lane,
	                 active, (uint8_t)tz, (uint8_t)flags, (uint32_t)hi, why};
	t->nrec++;
	t->chunk++;
	if (r->sink && r->sink->access) {
		InterpAccess e = {t->tid, t->warp, i, t->interval, &rec};
		r->sink->access(r->sink->ctx, &e);
	}
	return true;
}

/* A load, store, atomic, matrix or cp.async access: false if the path
 * stopped.  *done: it was a shared access (recorded). */
bool ir_access(Thread *t, int i, const PtxInst *in, bool *shared)
{
	int a = in->op.kind == PO_ST || in->op.kind == PO_RED ||
	        in->op.kind == PO_STMATRIX || in->op.kind == PO_CPASYNC ? 0 : 1;
	*shared = false;
	bool matrix = in->op.kind == PO_LDMATRIX || in->op.kind == PO_STMATRIX;
	int nmat = in->op.nmat ? in->op.nmat : 1;
	bool active = !matrix || t->lane < 8 * nmat;
	Val v = ir_address(t, i, in, &in->opd[a], shared);
	if (in->op.space != SP_SHARED && in->op.space != SP_GENERIC)
		return true;
	if (v.why >= WHY_INST && v.why - WHY_INST < (uint32_t)t->m->ninst) {
		/* another block's shared memory (mapa: distributed shared memory
		 * of a cluster): not modelled, said in a note */
		const PtxInst *o = &t->m->inst[v.why - WHY_INST];
		if (o->ntext >= 4 && memcmp(o->text, "mapa", 4) == 0 &&
		    (o->ntext == 4 || o->text[4] == '.')) {
			if (t->r->noted)
				t->r->noted[i] = true;
			return true;
		}
	}
	if (v.why) {
		if (in->op.space == SP_GENERIC && !matrix)
			return true;    /* a generic address bankc cannot know: global */
		if (!active)
			return record(t, in, i, 0, 0, false, 0, 0, 0);
		/* recorded as depending on data: costed as a range */
		*shared = true;
		return record(t, in, i, v.lo, ct_tz(v), true, REC_UNKNOWN, v.hi, v.why);
	}
	if (!*shared)
		return true;
	/* an atomic at an address and of a value the same in every lane:
	 * ptxas has one lane do it for the warp (scan_cost.c) */
	int flags = 0;
	if ((in->op.kind == PO_ATOM || in->op.kind == PO_RED) && v.uni) {
		int src = in->op.kind == PO_RED ? 1 : 2;
		if (in->nopd > src && ir_get(t, i, &in->opd[src], in->op.ty.bytes).uni)
			flags |= REC_UNIFORM;
	}
	return record(t, in, i, v.v, ct_tz(v), active, flags, 0, 0);
}

/* One element of w bytes between a register and frame bytes (little
 * endian, each byte with the reason it is unknown, 0 if known). */
static void move_bytes(Thread *t, int i, const PtxOpd *e, uint8_t *val, uint32_t *why,
                       int w, bool load)
{
	if (load) {
		uint64_t v = 0;
		uint32_t wy = 0;
		for (int j = 0; j < w && j < 8; j++) {
			v |= (uint64_t)val[j] << (8 * j);
			wy = pick(wy, why[j]);
		}
		ir_put(t, e, wy ? unknown(wy) : known(v), w);
	} else {
		Val v = ir_get(t, i, e, w);
		for (int j = 0; j < w; j++) {
			val[j] = (uint8_t)(j < 8 ? v.v >> (8 * j) : 0);
			why[j] = v.why;
		}
	}
}

bool ir_local_move(Thread *t, int i, const PtxInst *in, bool *done)
{
	bool load = in->op.kind == PO_LD;
	const PtxOpd *mo = &in->opd[load ? 1 : 0], *ro = &in->opd[load ? 0 : 1];
	*done = false;
	if (in->op.space != SP_LOCAL && in->op.space != SP_GENERIC)
		return true;
	bool sh = false;
	Val a = ir_address(t, i, in, mo, &sh);
	int w = in->op.ty.bytes ? in->op.ty.bytes : 4;
	int nel = ro->kind == OPD_VEC ? ro->nvec : 1;
	if (a.why || sh || a.v < LWINDOW ||
	    a.v - LWINDOW + (uint64_t)(w * nel) > (uint64_t)t->m->local_bytes)
		return true;
	if (!t->lval) {
		/* a thread's local memory exists once touched: zeros, known */
		size_t lb = (size_t)t->m->local_bytes;
		if (!ir_hold(t, (int64_t)lb * 5, i))
			return false;
		t->lval = xcalloc(lb + 1, 1);
		t->lwhy = xcalloc(lb + 1, sizeof *t->lwhy);
	}
	*done = true;
	uint64_t off = a.v - LWINDOW;
	for (int k = 0; k < nel; k++) {
		const PtxOpd *e = ro->kind == OPD_VEC ? &t->m->vec[ro->sym + k] : ro;
		uint8_t *val = t->lval + off + (uint64_t)(k * w);
		uint32_t *why = t->lwhy + off + (uint64_t)(k * w);
		move_bytes(t, i, e, val, why, w, load);
	}
	return true;
}

/* ld.param / st.param: bytes of the frame's parameters. */
bool ir_param_move(Thread *t, int i, const PtxInst *in)
{
	bool load = in->op.kind == PO_LD;
	const PtxOpd *mo = &in->opd[load ? 1 : 0], *ro = &in->opd[load ? 0 : 1];
	if (mo->sym < 0 || t->m->sym[mo->sym].kind != SYM_PARAM) {
		if (load)
			ir_put_unknown(t, ro, WHY_INST + (uint32_t)i);
		return true;
	}
	int w = in->op.ty.bytes ? in->op.ty.bytes : 4;
	int nel = ro->kind == OPD_VEC ? ro->nvec : 1;
	for (int k = 0; k < nel; k++) {
		const PtxOpd *e = ro->kind == OPD_VEC ? &t->m->vec[ro->sym + k] : ro;
		uint8_t *val;
		uint32_t *why;
		if (!param_at(t, mo->sym, mo->imm + (int64_t)k * w, w, &val, &why))
			return ir_stop(t, STOP_UNSUPPORTED, i, 0, 0);
		move_bytes(t, i, e, val, why, w, load);
		/* the kernel's parameters are the same in every lane */
		if (load && e->kind == OPD_REG && t->fr[t->depth].call < 0 &&
		    t->m->sym[mo->sym].formal >= 0)
			ir_reg(t, e->reg)->uni = 1;
	}
	return true;
}

bool ir_call(Thread *t, int i, const PtxInst *in)
{
	const PtxModule *m = t->m;
	Interp *r = t->r;
	if (in->opd[0].kind != OPD_FUNC)
		return ir_stop(t, STOP_CALL, i, 0, 0);     /* an indirect call */
	int f = in->opd[0].sym;
	if (!m->func[f].defined || m->func[f].first < 0) {
		/* a function without a body here (vprintf, __assertfail): taken
		 * to touch no shared memory; what it returns is unknown */
		if (r->noted)
			r->noted[i] = true;
		const Frame *cur = &t->fr[t->depth];
		for (int k = 0; k < in->ncall_ret; k++) {
			const PtxSym *y = &m->sym[m->vec[in->call_ret + k].sym];
			for (int64_t b = 0; b < y->size; b++)
				t->pwhy[cur->p0 + (size_t)y->poff + (size_t)b] = WHY_INST + (uint32_t)i;
		}
		return true;
	}
	if (t->depth + 1 >= PTX_MAX_DEPTH)
		return ir_stop(t, STOP_DEPTH, i, 0, 0);
	const Frame *cur = &t->fr[t->depth];
	size_t reg0 = cur->reg0 + (size_t)m->func[cur->func].nregs;
	size_t p0 = cur->p0 + (size_t)m->func[cur->func].psize;
	size_t nr = reg0 + (size_t)m->func[f].nregs, np = p0 + (size_t)m->func[f].psize;
	/* the frames' registers and parameters stay within bounds too */
	if (nr > (1u << 22) || np > (1u << 24))
		return ir_stop(t, STOP_DEPTH, i, 0, 0);
	if (nr > t->cap_stack) {
		size_t cap = nr * 2;
		if (!ir_hold(t, (int64_t)((cap - t->cap_stack) * sizeof *t->stack), i))
			return false;
		Val *s = xrealloc(t->stack, cap * sizeof *s);
		t->stack = s;
		t->cap_stack = cap;
	}
	if (np > t->cap_pstack) {
		size_t cap = np * 2;
		if (!ir_hold(t, (int64_t)((cap - t->cap_pstack) * (1 + sizeof *t->pwhy)), i))
			return false;
		uint8_t *v = xrealloc(t->pstack, cap);
		uint32_t *w = xrealloc(t->pwhy, cap * sizeof *w);
		t->pstack = v;
		t->pwhy = w;
		t->cap_pstack = cap;
	}
	ir_unset(t->stack + reg0, nr - reg0);
	memset(t->pstack + p0, 0, np - p0);
	memset(t->pwhy + p0, 0, (np - p0) * sizeof *t->pwhy);
	t->depth++;
	t->fr[t->depth] = (Frame){f, m->func[f].first, reg0, p0, i, t->depth - 1};
	return true;
}

bool ir_hold(Thread *t, int64_t n, int i)
{
	Interp *r = t->r;
	if (r->live_bytes + n > INTERP_STATE_CAP)
		return ir_stop(t, STOP_MEMORY, i, 0, 0);
	r->live_bytes += n;
	t->bytes += n;
	if (r->live_bytes > r->peak_bytes)
		r->peak_bytes = r->live_bytes;
	return true;
}

/* ---- global loads ----------------------------------------------------------------- */

/* The destination of a load: every element, each of w bytes. */
static void load_put(Thread *t, const PtxInst *in, const uint8_t *bytes, Val un)
{
	const PtxOpd *d = &in->opd[0];
	int w = in->op.ty.bytes ? in->op.ty.bytes : 4;
	int nel = d->kind == OPD_VEC ? d->nvec : 1;
	for (int k = 0; k < nel; k++) {
		const PtxOpd *e = d->kind == OPD_VEC ? &t->m->vec[d->sym + k] : d;
		if (!bytes) {
			ir_put(t, e, un, w);
			continue;
		}
		uint64_t v = 0;
		for (int j = 0; j < w && j < 8; j++)
			v |= (uint64_t)bytes[k * w + j] << (8 * j);
		if (in->op.ty.kind == TY_S)
			v = (uint64_t)sext(v, w);
		/* a narrow load into a wider register: signed ones extend */
		int rw = w;
		if (e->kind == OPD_REG) {
			int dw = t->m->func[t->fr[t->depth].func].regty[e->reg].bytes;
			rw = dw > rw ? dw : rw;
		}
		ir_put(t, e, known(v), rw);
	}
}

/* Which --data buffer holds a (its index, or -1), and where in it. */
static int data_at(const InterpOpts *o, uint64_t a, uint64_t *off)
{
	for (int j = 0; j < o->ndata; j++) {
		uint64_t base = PTX_DATA_BASE + (uint64_t)j * PTX_DATA_STRIDE;
		if (a >= base && a - base < PTX_DATA_STRIDE) {
			*off = a - base;
			return j;
		}
	}
	return -1;
}

bool ir_data_load(Thread *t, int i, const PtxInst *in)
{
	const InterpOpts *o = t->r->o;
	if (!o->ndata || in->op.space == SP_SHARED || in->op.space == SP_LOCAL ||
	    in->op.space == SP_PARAM || in->nopd < 2)
		return false;
	bool sh = false;
	Val a = ir_address(t, i, in, &in->opd[1], &sh);
	uint64_t off;
	int j = a.why || sh ? -1 : data_at(o, a.v, &off);
	if (j < 0)
		return false;
	int w = in->op.ty.bytes ? in->op.ty.bytes : 4;
	int nel = in->opd[0].kind == OPD_VEC ? in->opd[0].nvec : 1;
	if (off + (uint64_t)(w * nel) > o->data[j].len) {
		/* past the buffer's end: unknown, and said so */
		t->r->load_from[i] = (int16_t)(1 + o->data[j].index);
		t->r->load_past[i] = 1;
		return false;
	}
	load_put(t, in, o->data[j].bytes + off, known(0));
	return true;
}

void ir_load_unknown(Thread *t, int i, const PtxInst *in)
{
	int w = in->op.ty.bytes ? in->op.ty.bytes : 4;
	Val un = unknown_at(i);
	if (in->op.ty.kind != TY_S && in->op.ty.kind != TY_F && w < 8)
		un = unknown_in(WHY_INST + (uint32_t)i, 0, mask_of(w));
	/* the address came from a kernel parameter: its buffer could be given */
	if (in->nopd >= 2 && in->opd[1].kind == OPD_MEM && !t->r->load_from[i]) {
		bool sh = false;
		Val a = ir_address(t, i, in, &in->opd[1], &sh);
		if (a.why && a.why < WHY_INST)
			t->r->load_from[i] = (int16_t)a.why;
	}
	load_put(t, in, NULL, un);
}
