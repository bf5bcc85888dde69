/* The interpreter: a thread's integer and predicate instructions,
 * recording the address of each shared-memory access.  Threads do not see
 * each other's values (shared memory reads are unknown); a thread runs
 * until it arrives at a barrier or has made INTERP_CHUNK accesses, and
 * the scheduler (ptx_sched.c) runs the others before it goes on.  A value
 * is known or unknown; an unknown remembers where it came from (a kernel
 * parameter, a global load, a float), so that when it reaches a shared
 * address, a branch or a guard, the path stops with a diagnostic that
 * says what to pass. */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_interp.h"

/* ---- one instruction ------------------------------------------------------------ */

static void sync_op(Thread *t, int i, const PtxInst *in, bool in_fork);

static bool is_float(const PtxInst *in)
{
	return in->op.ty.kind == TY_F || in->op.ty2.kind == TY_F ||
	       ((in->op.mods & M_FLOATOP) && in->op.kind != PO_CVT);
}

/* What ptxas knows of an integer result: constants fold, and the low
 * zero bits of an address pass through the arithmetic that builds it
 * (a shift or a multiply adds them, a sum keeps the fewer). */
static uint8_t arith_ct(const PtxInst *in, Val a, Val b, Val c, Val d)
{
	const PtxOpInfo *op = &in->op;
	int n = in->nopd;
	bool ca = n < 2 || a.ct == CT_CONST, cb = n < 3 || b.ct == CT_CONST;
	bool cc = n < 4 || c.ct == CT_CONST, cd = n < 5 || d.ct == CT_CONST;
	if (ca && cb && cc && cd && op->kind != PO_ADDC && op->kind != PO_SUBC)
		return CT_CONST;
	int64_t ta = ct_tz(a), tb = ct_tz(b), tc = ct_tz(c);
	switch (op->kind) {
	case PO_MOV: case PO_NEG:
		return ct_bits(ta);
	case PO_ADD: case PO_SUB: case PO_OR: case PO_XOR: case PO_MIN: case PO_MAX:
		return (op->mods & M_SAT) ? 0 : ct_bits(ta < tb ? ta : tb);
	case PO_AND:
		return ct_bits(ta > tb ? ta : tb);
	case PO_MUL: case PO_MUL24:
		return (op->mods & M_HI) ? 0 : ct_bits(ta + tb);
	case PO_MAD: case PO_MAD24:
		return (op->mods & M_HI) ? 0 : ct_bits(ta + tb < tc ? ta + tb : tc);
	case PO_SHL:
		return ct_bits(cb ? ta + (b.v > 64 ? 64 : (int64_t)b.v) : ta);
	case PO_SHR:
		return cb ? ct_bits(ta - (b.v > 64 ? 64 : (int64_t)b.v)) : 0;
	case PO_SELP:
		return c.ct == CT_CONST ? (c.v ? a.ct : b.ct) : ct_bits(ta < tb ? ta : tb);
	default:
		return 0;
	}
}

/* Integer and predicate arithmetic: false if the instruction is not one
 * (the caller then makes its results unknown). */
static bool arith(Thread *t, int i, const PtxInst *in)
{
	const PtxOpInfo *op = &in->op;
	int w = op->ty.bytes ? op->ty.bytes : 4;
	if (w > 8)
		return false;   /* .b128 holds no integer arithmetic */
	bool sgn = op->ty.kind == TY_S;
	const PtxOpd *o = in->opd;
	int n = in->nopd;
	Val a = {0}, b = {0}, c = {0}, d = {0};
	uint64_t m = mask_of(w);
	/* sources are of the type's width, but for shift counts and bit-field
	 * positions and lengths (32-bit) and mad.wide's addend (twice) */
	if (n >= 2) a = ir_get(t, i, &o[1], w);
	if (n >= 3) b = ir_get(t, i, &o[2], op->kind == PO_SHL || op->kind == PO_SHR ||
	                   op->kind == PO_BFE || op->kind == PO_SHF ? 4 : w);
	if (n >= 4) c = ir_get(t, i, &o[3], op->kind == PO_BFE || op->kind == PO_BFI ||
	                   ((op->kind == PO_MAD) && (op->mods & M_WIDE)) ? (op->kind == PO_MAD ? 2 * w : 4) : w);
	if (n >= 5) d = ir_get(t, i, &o[4], 4);
	if (op->kind == PO_SELP)
		c = ir_get(t, i, &o[3], 1);
	uint32_t why = pick(pick(a.why, b.why), pick(c.why, d.why));
	Val r = known(0);
	int rw = w;
	switch (op->kind) {
	case PO_MOV:
		if (n != 2)
			return false;
		if (o[1].kind == OPD_VEC || o[0].kind == OPD_VEC)
			return false;   /* packing: below */
		a = ir_get(t, i, &o[1], w);
		r = a;
		why = a.why;
		break;
	case PO_ADD: r.v = a.v + b.v; if ((op->mods & M_SAT) && w < 8) { int64_t s = sext(a.v, w) + sext(b.v, w); int64_t hi = (int64_t)(m >> 1); r.v = (uint64_t)(s > hi ? hi : s < -hi - 1 ? -hi - 1 : s); }
		if (op->mods & M_CC) { t->cc = w >= 8 ? (r.v < a.v) : ((a.v + b.v) >> (8 * w)) & 1; t->cc_why = why; }
		break;
	case PO_SUB: r.v = a.v - b.v;
		if (op->mods & M_CC) { t->cc = a.v < b.v; t->cc_why = why; }
		break;
	case PO_ADDC: r.v = a.v + b.v + t->cc; why = pick(why, t->cc_why);
		if (op->mods & M_CC) { uint64_t s = a.v + b.v; t->cc = w >= 8 ? (s < a.v || s + t->cc < s) : ((a.v + b.v + t->cc) >> (8 * w)) & 1; t->cc_why = why; }
		break;
	case PO_SUBC: r.v = a.v - b.v - t->cc; why = pick(why, t->cc_why);
		if (op->mods & M_CC) { t->cc = a.v < b.v + t->cc || (t->cc && b.v == m); t->cc_why = why; }
		break;
	case PO_MUL:
		if (op->mods & M_HI) r.v = arith_mulhi(a.v, b.v, sgn, w);
		else if ((op->mods & M_WIDE) && w < 8) { rw = 2 * w; r.v = sgn ? (uint64_t)(sext(a.v, w) * sext(b.v, w)) : a.v * b.v; }
		else r.v = a.v * b.v;
		if (!why) break;
		if ((!a.why && (a.v & m) == 0) || (!b.why && (b.v & m) == 0)) { r.v = 0; why = 0; }
		break;
	case PO_MAD:
		if (op->mods & M_HI) r.v = arith_mulhi(a.v, b.v, sgn, w) + c.v;
		else if ((op->mods & M_WIDE) && w < 8) { rw = 2 * w; r.v = (sgn ? (uint64_t)(sext(a.v, w) * sext(b.v, w)) : a.v * b.v) + c.v; }
		else r.v = a.v * b.v + c.v;
		break;
	case PO_MUL24: case PO_MAD24: {
		int64_t x = sgn ? sext(a.v, 3) : (int64_t)(a.v & 0xffffff);
		int64_t y = sgn ? sext(b.v, 3) : (int64_t)(b.v & 0xffffff);
		int64_t p = x * y;
		r.v = (op->mods & M_HI) ? (uint64_t)p >> 16 : (uint64_t)p;
		if (op->kind == PO_MAD24) r.v += c.v;
		break;
	}
	case PO_SAD: {
		bool lt = sgn ? sext(a.v, w) < sext(b.v, w) : a.v < b.v;
		r.v = (lt ? b.v - a.v : a.v - b.v) + c.v;
		break;
	}
	case PO_DIV: case PO_REM:
		if (why)
			break;
		if ((b.v & m) == 0)
			return why = WHY_INST + (uint32_t)i, ir_put(t, &o[0], unknown(why), w), true;
		if (sgn) {
			int64_t x = sext(a.v, w), y = sext(b.v, w);
			if (y == -1)
				r.v = op->kind == PO_DIV ? (uint64_t)0 - (uint64_t)x : 0;
			else
				r.v = (uint64_t)(op->kind == PO_DIV ? x / y : x % y);
		} else {
			r.v = op->kind == PO_DIV ? a.v / b.v : a.v % b.v;
		}
		break;
	case PO_ABS: { int64_t x = sext(a.v, w); r.v = (uint64_t)(x < 0 ? -(uint64_t)x : (uint64_t)x); break; }
	case PO_NEG: r.v = (uint64_t)0 - a.v; break;
	case PO_MIN: case PO_MAX: {
		bool lt = sgn ? sext(a.v, w) < sext(b.v, w) : a.v < b.v;
		r.v = (op->kind == PO_MIN) == lt ? a.v : b.v;
		break;
	}
	case PO_POPC: r.v = (uint64_t)arith_popcount64(a.v); rw = 4; break;
	case PO_CLZ: { int k = 0; for (int j = 8 * w - 1; j >= 0 && !(a.v >> j & 1); j--) k++; r.v = (uint64_t)k; rw = 4; break; }
	case PO_BFIND: {
		int64_t k = -1;
		uint64_t x = sgn && sext(a.v, w) < 0 ? ~a.v & m : a.v;
		for (int j = 8 * w - 1; j >= 0; j--) if (x >> j & 1) { k = j; break; }
		if (k >= 0 && (op->mods & M_SHIFTAMT)) k = 8 * w - 1 - k;
		r.v = (uint64_t)k;
		rw = 4;
		break;
	}
	case PO_BREV: { uint64_t x = 0; for (int j = 0; j < 8 * w; j++) x |= (a.v >> j & 1) << (8 * w - 1 - j); r.v = x; break; }
	case PO_BFE: r.v = arith_bfe(a.v, b.v, c.v, sgn, w); break;
	case PO_BFI: r.v = arith_bfi(a.v, b.v, c.v, d.v, w); break;
	case PO_AND:
		r.v = a.v & b.v;
		if (why && ((!a.why && !a.v) || (!b.why && !b.v))) why = 0, r.v = 0;
		break;
	case PO_OR:
		r.v = a.v | b.v;
		if (why && ((!a.why && a.v == m) || (!b.why && b.v == m))) why = 0, r.v = m;
		break;
	case PO_XOR: r.v = a.v ^ b.v; break;
	case PO_NOT: r.v = op->ty.kind == TY_PRED ? !a.v : ~a.v; break;
	case PO_CNOT: r.v = a.v == 0; break;
	case PO_LOP3: if (n != 5) return false; r.v = arith_lop3(a.v, b.v, c.v, d.v & 0xff); why = pick(pick(a.why, b.why), c.why); if (d.why) why = d.why; break;
	case PO_SHF: {
		uint64_t k = c.v & 0xffffffff;
		k = (op->mods & M_CLAMP) ? (k > 32 ? 32 : k) : k & 31;
		uint64_t cat = (b.v & 0xffffffff) << 32 | (a.v & 0xffffffff);
		r.v = (op->mods & M_LEFT) ? (cat << k) >> 32 : cat >> k;
		rw = 4;
		break;
	}
	case PO_SHL: r.v = b.v >= (uint64_t)(8 * w) || b.v >= 64 ? 0 : a.v << b.v; break;
	case PO_SHR:
		if (sgn) { int64_t x = sext(a.v, w); r.v = (uint64_t)(b.v >= (uint64_t)(8 * w) || b.v >= 64 ? (x < 0 ? -1 : 0) : x >> b.v); }
		else r.v = b.v >= (uint64_t)(8 * w) || b.v >= 64 ? 0 : a.v >> b.v;
		break;
	case PO_PRMT: r.v = arith_prmt(a.v, b.v, c.v, op->prmt_mode); rw = 4; break;
	case PO_SELP:
		if (c.why) {
			if (!a.why && !b.why && a.v == b.v) { r = a; why = 0; }
			else why = c.why;
		} else {
			r = c.v ? a : b;
			why = r.why;
		}
		break;
	case PO_SLCT: {
		if (op->ty2.kind == TY_F) return false;
		Val s = ir_get(t, i, &o[3], 4);
		why = s.why ? s.why : 0;
		if (!s.why) { r = sext(s.v, 4) >= 0 ? a : b; why = r.why; }
		break;
	}
	case PO_SZEXT: r.v = (uint64_t)arith_bfe(a.v, 0, b.v, sgn, 4); rw = 4; break;
	case PO_BMSK: { uint64_t p = a.v & 0xff, k = b.v & 0xff; uint64_t mk = k >= 32 ? ~0ull : (1ull << k) - 1; r.v = p >= 32 ? 0 : (mk << p); rw = 4; break; }
	case PO_DP4A: case PO_DP2A: return false;
	default:
		return false;
	}
	/* what ptxas knows does not depend on what bankc knows */
	uint8_t ct = arith_ct(in, a, b, c, d);
	uint8_t uni = (n < 2 || a.uni) && (n < 3 || b.uni) && (n < 4 || c.uni) &&
	              (n < 5 || d.uni);
	if (op->kind == PO_MOV)
		uni = a.uni;
	if (why)
		r = ir_bounds(in, why, a, b, c, rw);
	r.ct = ct;
	r.uni = uni;
	ir_put(t, &o[0], r, rw);
	return true;
}

/* setp.CMP[.BOOL].type p[|q], a, b[, c] */
static void setp(Thread *t, int i, const PtxInst *in)
{
	const PtxOpd *o = in->opd;
	int w = in->op.ty.bytes;
	Val a = ir_get(t, i, &o[1], w), b = ir_get(t, i, &o[2], w);
	uint32_t why = pick(a.why, b.why);
	bool v = arith_cmp(in->op.cmp, a.v, b.v, in->op.ty.kind == TY_S, w);
	bool q = !v;
	if (in->op.ty.kind == TY_F || in->op.cmp == CMP_FLOAT)
		why = WHY_INST + (uint32_t)i;
	if (in->op.boolop && in->nopd >= 4) {
		Val c = ir_get(t, i, &o[3], 1);
		why = pick(why, c.why);
		switch (in->op.boolop) {
		case BOOL_AND: v = v && c.v; q = q && c.v; break;
		case BOOL_OR: v = v || c.v; q = q || c.v; break;
		default: v = v != (c.v != 0); q = q != (c.v != 0); break;
		}
	}
	Val pv = why ? unknown(why) : known(v), qv = why ? unknown(why) : known(q);
	pv.uni = qv.uni = a.uni && b.uni;
	if (o[0].kind == OPD_REG)
		*ir_reg(t, o[0].reg) = pv;
	if ((o[0].kind == OPD_REG || o[0].kind == OPD_SINK) && o[0].reg2 >= 0)
		*ir_reg(t, o[0].reg2) = qv;
}

/* mov with a vector on one side: pack or unpack elements, low first. */
static void mov_vec(Thread *t, int i, const PtxInst *in)
{
	const PtxOpd *d = &in->opd[0], *s = &in->opd[1];
	int w = in->op.ty.bytes;
	const PtxModule *m = t->m;
	if (s->kind == OPD_VEC && d->kind != OPD_VEC) {
		int ew = w / (s->nvec ? s->nvec : 1);
		uint64_t v = 0;
		uint32_t why = 0;
		for (int k = 0; k < s->nvec; k++) {
			Val e = ir_get(t, i, &m->vec[s->sym + k], ew);
			why = pick(why, e.why);
			if (8 * ew * k < 64)
				v |= (e.v & mask_of(ew)) << (8 * ew * k);
		}
		ir_put(t, d, why ? unknown(why) : known(v), w);
	} else if (d->kind == OPD_VEC && s->kind != OPD_VEC) {
		int ew = w / (d->nvec ? d->nvec : 1);
		Val v = ir_get(t, i, s, w);
		for (int k = 0; k < d->nvec; k++)
			ir_put(t, &m->vec[d->sym + k], v.why ? v : known(8 * ew * k < 64 ? v.v >> (8 * ew * k) : 0), ew);
	} else {
		ir_put_unknown(t, d, WHY_INST + (uint32_t)i);
	}
}

/* cvt, cvta, isspacep, set */
static void convert_op(Thread *t, int i, const PtxInst *in)
{
	const PtxOpInfo *op = &in->op;
	const PtxOpd *o = in->opd;
	if (op->kind == PO_CVT) {
		if (op->ty.kind == TY_F || op->ty2.kind == TY_F || op->ty2.kind == TY_NONE) {
			ir_put_unknown(t, &o[0], WHY_INST + (uint32_t)i);
			return;
		}
		Val a = ir_get(t, i, &o[1], op->ty2.bytes);
		/* a narrow signed result is sign-extended to its register */
		int rw = op->ty.bytes;
		if (o[0].kind == OPD_REG) {
			int dw = t->m->func[t->fr[t->depth].func].regty[o[0].reg].bytes;
			rw = dw > rw ? dw : rw;
		}
		uint64_t v = arith_convert(a.v, op->ty, op->ty2, op->mods & M_SAT);
		if (op->ty.kind == TY_S)
			v = (uint64_t)sext(v, op->ty.bytes);
		Val r = known(v);
		r.ct = (op->mods & M_SAT) && a.ct != CT_CONST ? 0 : a.ct;
		r = a.why ? ir_bounds(in, a.why, a, a, a, rw) : r;
		r.uni = a.uni;
		ir_put(t, &o[0], r, rw);
		return;
	}
	int w = op->ty.bytes ? op->ty.bytes : 8;
	Val a = ir_get(t, i, &o[1], w);
	if (op->kind == PO_ISSPACEP) {
		/* a known generic address outside the shared and local windows is
		 * global memory, as an access through it is taken to be (a
		 * pointer passed with --param; -G code asserts __isGlobal) */
		bool in_win = !a.why && w == 8 && a.v >= WINDOW && a.v - WINDOW < PTX_SHARED_LIMIT;
		bool in_loc = !a.why && w == 8 && a.v >= LWINDOW && a.v - LWINDOW < PTX_LOCAL_LIMIT;
		Val r = a.why ? a : op->space == SP_SHARED ? known(in_win)
		        : w != 8 ? unknown_at(i)
		        : op->space == SP_GLOBAL ? known(!in_win && !in_loc)
		        : op->space == SP_LOCAL ? known(in_loc)
		        : in_win || in_loc ? known(0) : unknown_at(i);
		ir_put(t, &o[0], r, 1);
		return;
	}
	if (op->kind == PO_SET) {
		Val b = ir_get(t, i, &o[2], op->ty2.bytes);
		Val sa = ir_get(t, i, &o[1], op->ty2.bytes);
		uint32_t why = pick(sa.why, b.why);
		if (op->ty2.kind == TY_F || op->cmp == CMP_FLOAT || op->boolop)
			why = WHY_INST + (uint32_t)i;
		bool v = arith_cmp(op->cmp, sa.v, b.v, op->ty2.kind == TY_S, op->ty2.bytes);
		uint64_t r = op->ty.kind == TY_F ? (v ? 0x3f800000u : 0) : (v ? ~0ull : 0);
		ir_put(t, &o[0], why ? unknown(why) : known(r), op->ty.bytes);
		return;
	}
	/* cvta: shared offsets to the generic window and back */
	if (a.why || op->space != SP_SHARED) {
		ir_put(t, &o[0], a, w);
		return;
	}
	/* the window's base is aligned far beyond any access */
	if (op->mods & M_TO) {
		uint64_t base = w == 8 ? WINDOW : 0;
		if (a.v >= base && a.v - base < PTX_SHARED_LIMIT)
			ir_put(t, &o[0], (Val){a.v - base, 0, a.ct, a.v - base, a.v - base, a.uni}, w);
		else
			ir_put(t, &o[0], unknown_at(i), w);
	} else {
		uint64_t g = w == 8 ? a.v + WINDOW : a.v;
		ir_put(t, &o[0], (Val){g, 0, a.ct, g, g, a.uni}, w);
	}
}

/* ld/st of the thread's local memory; false if the address is not in it
 * (the caller then goes on as for any other space). */

/* An instruction under a guard bankc cannot decide: a branch is forked
 * by the caller; a shared access is recorded as one that may not run; a
 * register it writes becomes unknown; a return or exit may end the
 * thread, so what follows may not run. */
static bool exec_maybe(Thread *t, int i, const PtxInst *in, Val g, bool *done)
{
	PtxOpKind k = in->op.kind;
	if (k == PO_CALL)
		return ir_stop(t, STOP_UNKNOWN_BRANCH, i, g.why, 0);
	if (k == PO_RET || k == PO_EXIT) {
		t->sticky = true;
		if (!t->maybe_why)
			t->maybe_why = g.why;
		(void)done;
		return true;
	}
	if (t->r->sync[i])
		sync_op(t, i, in, true);    /* passed: it may not run */
	if (k == PO_TRAP || k == PO_NOP)
		return true;    /* taken not to trap */
	uint32_t saved = t->maybe_why;
	if (!saved)
		t->maybe_why = g.why;
	bool ok = true;
	if (in->slot >= 0) {
		bool sh = false;
		ok = ir_access(t, i, in, &sh);
	}
	t->maybe_why = saved;
	/* a register result that may or may not be written */
	if (in->nopd && k != PO_ST && k != PO_RED && k != PO_STMATRIX &&
	    k != PO_CPASYNC)
		ir_put_unknown(t, &in->opd[0], g.why);
	return ok;
}

static bool exec(Thread *t, int i, bool *done)
{
	const PtxModule *m = t->m;
	const PtxInst *in = &m->inst[i];
	Frame *f = &t->fr[t->depth];
	f->pc = i + 1;
	Val g = konst(1);
	if (in->guard >= 0) {
		g = *ir_reg(t, in->guard);
		if (!g.why && in->guard_neg)
			g.v = !g.v;
	}
	if (!g.why && !g.v)
		return true;    /* guarded off */
	PtxOpKind k = in->op.kind;
	if (g.why)
		return exec_maybe(t, i, in, g, done);
	if (t->r->sync[i])
		sync_op(t, i, in, t->nfork > 0);
	switch (k) {
	case PO_NOP:
		if (in->ntext >= 3 && memcmp(in->text, "bar", 3) == 0)
			t->barriers++;
		return true;
	case PO_BRA:
		f->pc = in->opd[0].sym;
		return true;
	case PO_RET:
		if (t->depth == 0) {
			*done = true;
			return true;
		}
		t->depth--;
		return true;
	case PO_EXIT:
		*done = true;
		return true;
	case PO_TRAP:
		return ir_stop(t, STOP_TRAP, i, 0, 0);
	case PO_CALL:
		return ir_call(t, i, in);
	case PO_LD:
	case PO_ST: {
		if (in->op.space == SP_PARAM)
			return ir_param_move(t, i, in);
		bool done = false;
		if (!ir_local_move(t, i, in, &done))
			return false;
		if (done)
			return true;
	}
		/* fall through */
	case PO_LDMATRIX: case PO_STMATRIX: case PO_CPASYNC: case PO_ATOM:
	case PO_RED: {
		bool sh;
		if (!ir_access(t, i, in, &sh))
			return false;
		if (k == PO_LD && !sh && ir_data_load(t, i, in))
			return true;
		if (k == PO_LD && !sh)
			ir_load_unknown(t, i, in);
		else if (k == PO_LD || k == PO_LDMATRIX || k == PO_ATOM)
			ir_put_unknown(t, &in->opd[0], WHY_INST + (uint32_t)i);
		return true;
	}
	case PO_SETP:
		setp(t, i, in);
		return true;
	case PO_CVT: case PO_CVTA: case PO_ISSPACEP: case PO_SET:
		convert_op(t, i, in);
		return true;
	case PO_SHARED_OTHER:
		t->r->unmodelled++;
		if (t->r->noted)
			t->r->noted[i] = true;
		if ((in->op.mods & M_WAITOK) && in->nopd && in->opd[0].kind == OPD_REG) {
			/* a wait on an mbarrier: it completes, eventually */
			*ir_reg(t, in->opd[0].reg) = known(1);
			return true;
		}
		if (in->nopd && in->opd[0].kind != OPD_MEM)
			ir_put_unknown(t, &in->opd[0], WHY_INST + (uint32_t)i);
		return true;
	case PO_ELECT: {
		/* elect.sync d|p, membermask: the lowest lane of the mask (every
		 * lane of it taken to be there) is the leader */
		Val mk = in->nopd >= 2 ? ir_get(t, i, &in->opd[1], 4) : unknown_at(i);
		int threads = t->r->o->block[0] * t->r->o->block[1] * t->r->o->block[2];
		uint32_t here = threads - t->warp * WARP >= WARP ? 0xffffffffu
		                : (1u << (threads - t->warp * WARP)) - 1;
		uint32_t lanes = (uint32_t)mk.v & here;
		Val lead = mk.why ? mk : lanes ? known((uint64_t)__builtin_ctz(lanes))
		           : unknown_at(i);
		if (in->nopd && in->opd[0].kind == OPD_REG) {
			*ir_reg(t, in->opd[0].reg) = lead;
			if (in->opd[0].reg2 >= 0)
				*ir_reg(t, in->opd[0].reg2) = lead.why ? lead : known(lead.v == (uint64_t)t->lane);
		} else if (in->nopd && in->opd[0].kind == OPD_SINK && in->opd[0].reg2 >= 0) {
			*ir_reg(t, in->opd[0].reg2) = lead.why ? lead : known(lead.v == (uint64_t)t->lane);
		}
		return true;
	}
	case PO_OTHER:
		/* wmma.load and wmma.store through a generic address that is
		 * shared memory: not counted, and said so (their .shared forms
		 * decode as PO_SHARED_OTHER) */
		for (int o = 0; o < in->nopd && in->ntext > 5 &&
		                memcmp(in->text, "wmma.", 5) == 0; o++) {
			bool sh = false;
			if (in->opd[o].kind != OPD_MEM)
				continue;
			Val a = ir_address(t, i, in, &in->opd[o], &sh);
			if (!a.why && sh) {
				t->r->unmodelled++;
				if (t->r->noted)
					t->r->noted[i] = true;
			}
		}
		if (in->nopd && in->opd[0].kind != OPD_MEM)
			ir_put_unknown(t, &in->opd[0], WHY_INST + (uint32_t)i);
		return true;
	default:
		break;
	}
	if (k == PO_MOV && in->nopd == 2 && (in->opd[0].kind == OPD_VEC || in->opd[1].kind == OPD_VEC)) {
		mov_vec(t, i, in);
		return true;
	}
	bool bits = k == PO_MOV || k == PO_SELP;
	if ((!bits && is_float(in)) || !arith(t, i, in))
		if (in->nopd)
			ir_put_unknown(t, &in->opd[0], WHY_INST + (uint32_t)i);
	return true;
}

/* ---- branches bankc cannot decide ---------------------------------------------------- */

/* RUN_PAUSE: at a barrier or after a chunk of accesses, outside every
 * undecided branch (the scheduler runs other threads before it goes on) */
typedef enum { RUN_DONE, RUN_JOIN, RUN_STOP, RUN_PAUSE } RunEnd;

static RunEnd run(Thread *t, int join, int jdepth);

static void fork_note(Thread *t, int i, int kind, uint32_t why)
{
	Interp *r = t->r;
	if (!r->fork_kind[i])
		r->fork_why[i] = why;
	r->fork_kind[i] |= (uint8_t)kind;
	r->fork_threads[i]++;
}

/* Branch i's guard g is unknown.  A loop's test (a branch back, or one
 * met again while its sides run) leaves the loop: its body counts once.
 * Otherwise both sides run to where they meet; the thread goes on from
 * there with what they wrote unknown, and the shared accesses of each
 * side recorded as ones that may not run. */
static RunEnd fork_branch(Thread *t, int i, Val g)
{
	const PtxModule *m = t->m;
	Interp *r = t->r;
	const PtxInst *in = &m->inst[i];
	Frame *f = &t->fr[t->depth];
	int target = in->opd[0].sym, fall = i + 1;
	bool again = false;
	for (int j = 0; j < t->nfork; j++)
		again = again || t->fork[j] == i;
	int fn = f->func;
	if (!r->flow_done[fn]) {
		ptx_flow_joins(m, fn, r->join);
		r->flow_done[fn] = true;
	}
	int join = r->join[i];
	if (target <= i || again) {
		fork_note(t, i, FORK_LOOP, g.why);
		f->pc = target <= i ? fall : join == target || target > i ? target : fall;
		return RUN_JOIN;
	}
	if (t->nfork >= PTX_MAX_FORKS) {
		fork_note(t, i, FORK_DEEP, g.why);
		ir_stop(t, STOP_UNKNOWN_BRANCH, i, g.why, 0);
		return RUN_STOP;
	}
	int depth = t->depth;
	int64_t rec0 = t->nrec;
	int64_t bar0 = t->barriers;
	uint32_t saved = t->maybe_why;
	Snap s0;
	snap_take(t, &s0);
	t->fork[t->nfork++] = i;
	t->maybe_why = saved ? saved : g.why;
	f->pc = target;
	RunEnd ea = run(t, join, depth);
	Snap sa;     /* taken where side a met the join */
	if (ea == RUN_JOIN)
		snap_take(t, &sa);
	RunEnd eb = ea;
	if (ea != RUN_STOP) {
		snap_put(t, &s0);
		t->maybe_why = saved ? saved : g.why;
		t->fr[t->depth].pc = fall;
		eb = run(t, join, depth);
	}
	t->nfork--;
	bool touched = t->nrec != rec0 || t->barriers != bar0;
	RunEnd end = RUN_JOIN;
	if (ea == RUN_STOP || eb == RUN_STOP) {
		end = RUN_STOP;
	} else if (ea == RUN_JOIN && eb == RUN_JOIN) {
		snap_merge(t, &sa, g.why);
		t->maybe_why = t->sticky ? t->maybe_why : saved;
	} else if (ea == RUN_JOIN) {
		snap_put(t, &sa);       /* the fall-through side ended the thread */
		t->sticky = true;
		touched = true;
	} else if (eb == RUN_JOIN) {
		t->sticky = true;
		touched = true;
	} else {
		end = RUN_DONE;
	}
	if (end == RUN_JOIN && !t->sticky)
		t->maybe_why = saved;
	if (end != RUN_STOP)
		fork_note(t, i, touched ? FORK_SIDES : FORK_JOIN, g.why);
	snap_free(t, &s0);
	if (ea == RUN_JOIN)
		snap_free(t, &sa);
	return end;
}

/* Run from the current pc until the thread ends, or until it reaches
 * instruction join in frame jdepth (FLOW_EXIT: returns from it; -3:
 * never). */
static RunEnd run(Thread *t, int join, int jdepth)
{
	const PtxModule *m = t->m;
	Interp *r = t->r;
	for (;;) {
		if (t->depth < jdepth)
			return join == FLOW_EXIT ? RUN_JOIN : RUN_DONE;
		Frame *f = &t->fr[t->depth];
		if (t->depth == jdepth && f->pc == join)
			return RUN_JOIN;
		const PtxFunc *fn = &m->func[f->func];
		if (f->pc >= fn->first + fn->ninst) {
			/* ran off the end: an implicit return */
			if (t->depth == 0)
				return RUN_DONE;
			t->depth--;
			continue;
		}
		if (t->steps >= r->steps_per_thread) {
			ir_stop(t, STOP_STEPS, f->pc, 0, 0);
			return RUN_STOP;
		}
		t->steps++;
		r->steps++;
		int i = f->pc;
		const PtxInst *in = &m->inst[i];
		if (in->op.kind == PO_BRA && in->guard >= 0) {
			Val g = *ir_reg(t, in->guard);
			if (g.why) {
				f->pc = i + 1;
				RunEnd e = fork_branch(t, i, g);
				if (e != RUN_JOIN)
					return e;
				continue;
			}
		}
		bool done = false;
		if (!exec(t, i, &done))
			return RUN_STOP;
		if (done)
			return RUN_DONE;
		/* the sides of an undecided branch run whole: a thread pauses
		 * only outside them */
		if (t->nfork == 0 && (t->pause || t->chunk >= INTERP_CHUNK))
			return RUN_PAUSE;
	}
}

ResumeEnd interp_resume(Thread *t)
{
	RunEnd e = run(t, -3, 0);
	return e == RUN_PAUSE ? RESUME_PAUSE : e == RUN_STOP ? RESUME_STOP : RESUME_DONE;
}


/* ---- the block's shared parts -------------------------------------------------------- */

enum {  /* Interp.sync: a SyncKind, and this flag */
	SYNC_KIND_MASK = 15,
	SYNC_RED = 16,      /* bar.red, barrier.red: the barrier is operand 1 */
};

static bool starts(const char *s, int n, const char *lit)
{
	int k = (int)strlen(lit);
	return n >= k && memcmp(s, lit, (size_t)k) == 0;
}

static bool holds(const char *s, int n, const char *lit)
{
	int k = (int)strlen(lit);
	for (int i = 0; i + k <= n; i++)
		if (memcmp(s + i, lit, (size_t)k) == 0 && (i + k == n || s[i + k] == '.'))
			return true;
	return false;
}

/* What a barrier or an mbarrier instruction does to the threads; *red:
 * bar.red and barrier.red, whose barrier is their second operand. */
static SyncKind sync_kind_of(const PtxInst *in, bool *red)
{
	const char *s = in->text;
	int n = in->ntext;
	*red = false;
	if (in->op.kind == PO_SHARED_OTHER && starts(s, n, "mbarrier."))
		return SYNC_OTHER;
	if ((in->op.kind != PO_NOP && in->op.kind != PO_OTHER) ||
	    (!starts(s, n, "bar.") && !starts(s, n, "barrier.")))
		return SYNC_NONE;
	if (holds(s, n, ".cluster"))
		return SYNC_OTHER;
	if (holds(s, n, ".warp"))
		return SYNC_WARP;
	if (holds(s, n, ".arrive"))
		return SYNC_CTA_ARRIVE;
	*red = holds(s, n, ".red");
	if (*red || holds(s, n, ".sync"))
		return SYNC_CTA;
	return SYNC_NONE;
}

/* A barrier, a warp's sync or an mbarrier instruction: told to the
 * consumer; a block barrier met outside the sides of undecided branches
 * makes the thread wait (t->pause) or arrive (an arrival the scheduler
 * counts).  One met on such a side is passed: the thread runs both sides
 * before it can wait anywhere, and a wait there would wait for itself. */
static void sync_op(Thread *t, int i, const PtxInst *in, bool in_fork)
{
	Interp *r = t->r;
	SyncKind kind = (SyncKind)(r->sync[i] & SYNC_KIND_MASK);
	bool red = r->sync[i] & SYNC_RED;
	InterpSync e = {.kind = kind, .tid = t->tid, .inst = i, .in_fork = in_fork,
	                .interval = t->interval};
	if (kind == SYNC_CTA || kind == SYNC_CTA_ARRIVE) {
		int a = red ? 1 : 0;
		/* bar.red's operands: d, a{, b}, {!}c */
		bool has_count = red ? in->nopd >= 4 : in->nopd >= 2;
		Val id = in->nopd > a ? ir_get(t, i, &in->opd[a], 4) : konst(0);
		e.id = id.why ? 0 : (int)(id.v % 16);
		if (has_count) {
			Val c = ir_get(t, i, &in->opd[a + 1], 4);
			e.count = c.why || c.v > PTX_MAX_THREADS ? 0 : (int)c.v;
		}
	} else if (kind == SYNC_WARP) {
		Val mk = in->nopd ? ir_get(t, i, &in->opd[0], 4) : unknown_at(i);
		e.mask = mk.why ? 0xffffffffu : (uint32_t)mk.v;
	}
	if (r->sink && r->sink->sync)
		r->sink->sync(r->sink->ctx, &e);
	if (in_fork)
		return;
	if (kind == SYNC_CTA) {
		t->pause = true;
		t->bar_inst = i;
		t->bar_id = e.id;
		t->bar_count = e.count;
	} else if (kind == SYNC_CTA_ARRIVE) {
		if (r->npending == r->cappending) {
			int cap = r->cappending ? 2 * r->cappending : 64;
			r->pending = xrealloc(r->pending, (size_t)cap * sizeof *r->pending);
			r->cappending = cap;
		}
		r->pending[r->npending++] = (InterpArrival){t->tid, e.id, e.count, r->seq++};
	}
}

void interp_init(Interp *r, const PtxModule *m, int kernel, const InterpOpts *o)
{
	memset(r, 0, sizeof *r);
	r->m = m;
	r->kernel = kernel;
	r->o = o;
	int threads = o->block[0] * o->block[1] * o->block[2];
	r->nthreads = threads > 0 ? threads : 0;
	r->steps_per_thread = o->max_steps / (threads > 0 ? threads : 1);
	if (r->steps_per_thread < 1)
		r->steps_per_thread = 1;
	r->stop = xcalloc((size_t)r->nthreads + 1, sizeof *r->stop);
	r->thread = xcalloc((size_t)r->nthreads + 1, sizeof *r->thread);
	r->noted = xcalloc((size_t)m->ninst + 1, sizeof *r->noted);
	size_t ni = (size_t)m->ninst + 1;
	r->join = xcalloc(ni, sizeof *r->join);
	r->flow_done = xcalloc((size_t)m->nfunc + 1, sizeof *r->flow_done);
	r->fork_kind = xcalloc(ni, sizeof *r->fork_kind);
	r->fork_threads = xcalloc(ni, sizeof *r->fork_threads);
	r->fork_why = xcalloc(ni, sizeof *r->fork_why);
	r->load_from = xcalloc(ni, sizeof *r->load_from);
	r->load_past = xcalloc(ni, sizeof *r->load_past);
	r->sync = xcalloc(ni, sizeof *r->sync);
	r->arrivals = xcalloc(ni, sizeof *r->arrivals);
	for (int i = 0; i < m->ninst; i++) {
		bool red;
		r->sync[i] = (uint8_t)sync_kind_of(&m->inst[i], &red);
		if (red)
			r->sync[i] |= SYNC_RED;
	}
	/* the kernel's parameters: --param values, a --data buffer's
	 * address, others unknown */
	const PtxFunc *k = &m->func[kernel];
	int64_t kp = 0;
	for (int i = 0; i < k->nparams; i++)
		kp += m->sym[k->params[i]].size;
	r->kparams = kp;
	r->kpv = xcalloc((size_t)kp + 1, 1);
	r->kpw = xcalloc((size_t)kp + 1, sizeof *r->kpw);
	int64_t off = 0;
	for (int i = 0; i < k->nparams; i++) {
		const PtxSym *y = &m->sym[k->params[i]];
		bool given = false;
		uint64_t v = 0;
		for (int j = 0; j < o->nparams; j++)
			if (o->param[j].index == i && o->param[j].bytes == 0)
				given = true, v = o->param[j].value;
		for (int j = 0; j < o->ndata; j++)
			if (o->data[j].index == i)
				given = true, v = PTX_DATA_BASE + (uint64_t)j * PTX_DATA_STRIDE;
		for (int64_t b = 0; b < y->size; b++) {
			r->kpv[off + b] = (uint8_t)(given && b < 8 ? v >> (8 * b) : 0);
			r->kpw[off + b] = given ? 0 : 1 + (uint32_t)i;
		}
		/* fields of an aggregate: their bytes known, the rest not */
		for (int j = 0; j < o->nparams; j++) {
			int64_t fo = o->param[j].off;
			if (o->param[j].index != i || o->param[j].bytes == 0)
				continue;
			for (int b = 0; b < o->param[j].bytes && fo + b < y->size; b++) {
				r->kpv[off + fo + b] = (uint8_t)(o->param[j].value >> (8 * b));
				r->kpw[off + fo + b] = 0;
			}
		}
		off += y->size;
	}
}

void interp_free(Interp *r)
{
	for (int i = 0; r->thread && i < r->nthreads; i++)
		if (r->thread[i])
			internal_error("a thread outlived its block");
	snap_spare_free(r);
	free(r->thread);
	free(r->stop);
	free(r->spare_stack);
	free(r->spare_pv);
	free(r->spare_pw);
	free(r->rec);
	free(r->noted);
	free(r->join);
	free(r->flow_done);
	free(r->fork_kind);
	free(r->fork_threads);
	free(r->fork_why);
	free(r->load_from);
	free(r->load_past);
	free(r->sync);
	free(r->arrivals);
	free(r->pending);
	free(r->kpv);
	free(r->kpw);
	memset(r, 0, sizeof *r);
}
