/* The interpreter's operands: a thread's registers and special
 * registers read and written at the operand's width, and the stop that
 * ends a thread's path.  The instructions (ptx_interp.c) and the memory
 * and frames (ptx_frame.c) both go through these. */
#include "ptx/ptx_interp.h"

/* ---- operands ---------------------------------------------------------------- */

Val *ir_reg(Thread *t, int i)
{
	return &t->stack[t->fr[t->depth].reg0 + (size_t)i];
}

static Val special(Thread *t, int sr, int inst)
{
	int c = sr % 4;
	const int *b = t->r->o->block;
	int id[3] = {t->x, t->y, t->z};
	uint64_t lt = (1ull << t->lane) - 1;
	switch (sr / 4) {
	case SR_TID: return known((uint64_t)id[c]);
	case SR_NTID: return uniform(known((uint64_t)b[c]));
	case SR_CTAID: return uniform(known((uint64_t)t->r->o->ctaid[c]));
	case SR_NCTAID: return uniform(known((uint64_t)(t->r->o->grid[c] > 0 ? t->r->o->grid[c] : 1)));
	case SR_LANEID: return known((uint64_t)t->lane);
	case SR_WARPID: return known((uint64_t)t->warp);
	case SR_LANEMASK_EQ: return known(1ull << t->lane);
	case SR_LANEMASK_LT: return known(lt);
	case SR_LANEMASK_LE: return known(lt | 1ull << t->lane);
	case SR_LANEMASK_GE: return known(~lt & 0xffffffffull);
	case SR_LANEMASK_GT: return known(~(lt | 1ull << t->lane) & 0xffffffffull);
	default: return unknown_at(inst);
	}
}

/* ptxas places the shared arrays itself, each at its declared alignment
 * and at least 16 bytes (as bankc lays them out), so it knows that many
 * low bits of an array's address, plus an offset into it. */
uint8_t ct_shared(const PtxSym *y, int64_t off)
{
	int a = y->align > 16 ? y->align : 16, tz = 0;
	while ((1 << (tz + 1)) <= a && tz < 16)
		tz++;
	if (off && __builtin_ctzll((uint64_t)off) < tz)
		tz = __builtin_ctzll((uint64_t)off);
	return (uint8_t)tz;
}

/* Operand o of instruction i read as `bytes` bytes (zero-extended). */
Val ir_get(Thread *t, int i, const PtxOpd *o, int bytes)
{
	const PtxModule *m = t->m;
	Val v;
	switch (o->kind) {
	case OPD_REG: v = *ir_reg(t, o->reg); break;
	case OPD_IMM: v = konst((uint64_t)o->imm); break;
	case OPD_SPECIAL: v = special(t, o->special, i); break;
	case OPD_SYM: {
		const PtxSym *y = &m->sym[o->sym];
		if (y->kind == SYM_SHARED) {
			v = uniform(known((uint64_t)(y->addr + o->imm)));
			v.ct = ct_shared(y, o->imm);
		} else if (y->kind == SYM_LOCAL && y->addr >= 0)
			v = uniform(known(LWINDOW + (uint64_t)(y->addr + o->imm)));
		else
			v = unknown_at(i);
		break;
	}
	default: v = unknown_at(i); break;
	}
	if (o->neg)
		v.v = !v.v;
	if (o->neg && v.why)
		v.lo = 0, v.hi = 1;
	v.v &= mask_of(bytes);
	if (v.why && v.hi > mask_of(bytes))
		v.lo = 0, v.hi = mask_of(bytes);
	if (!v.why)
		v.lo = v.hi = v.v;
	return v;
}

void ir_put(Thread *t, const PtxOpd *o, Val v, int bytes)
{
	if (o->kind == OPD_REG) {
		if (!v.why) {
			v.v &= mask_of(bytes);
			v.lo = v.hi = v.v;
		} else {
			v.v = 0;
			if (v.hi > mask_of(bytes))
				v.lo = 0, v.hi = mask_of(bytes);
		}
		*ir_reg(t, o->reg) = v;
	}
}

/* ---- bounds of unknown values ------------------------------------------------- */

static bool add_ok(uint64_t a, uint64_t b, uint64_t *r) { return !__builtin_add_overflow(a, b, r); }
static bool mul_ok(uint64_t a, uint64_t b, uint64_t *r) { return !__builtin_mul_overflow(a, b, r); }

/* The smallest 2^k - 1 at or above v. */
static uint64_t ones_above(uint64_t v)
{
	return v ? ~0ull >> __builtin_clzll(v) : 0;
}

Val ir_bounds(const PtxInst *in, uint32_t why, Val a, Val b, Val c, int bytes)
{
	uint64_t al = val_lo(a), ah = val_hi(a), bl = val_lo(b), bh = val_hi(b);
	uint64_t cl = val_lo(c), ch = val_hi(c), lo = 0, hi = ~0ull, x, y;
	uint64_t m = mask_of(bytes);
	bool sgn = in->op.ty.kind == TY_S;
	/* a signed operand counts as unsigned only while it is not negative */
	uint64_t pos = mask_of(in->op.ty.bytes ? in->op.ty.bytes : 4) >> 1;
	if (sgn && (ah > pos || bh > pos))
		return unknown(why);
	switch (in->op.kind) {
	case PO_MOV: lo = al, hi = ah; break;
	case PO_ADD:
		if (!(in->op.mods & (M_SAT | M_CC)) && add_ok(al, bl, &x) && add_ok(ah, bh, &y))
			lo = x, hi = y;
		break;
	case PO_SUB:
		if (al >= bh)
			lo = al - bh, hi = ah - bl;
		break;
	case PO_MUL:
		if (!(in->op.mods & M_HI) && mul_ok(al, bl, &x) && mul_ok(ah, bh, &y))
			lo = x, hi = y;
		break;
	case PO_MAD:
		if (!(in->op.mods & M_HI) && mul_ok(al, bl, &x) && mul_ok(ah, bh, &y) &&
		    add_ok(x, cl, &x) && add_ok(y, ch, &y))
			lo = x, hi = y;
		break;
	case PO_AND: hi = ah < bh ? ah : bh; break;
	case PO_OR: lo = al > bl ? al : bl; hi = ones_above(ah | bh); break;
	case PO_XOR: hi = ones_above(ah | bh); break;
	case PO_SHL:
		if (!b.why && b.v < 64 && (ah << b.v) >> b.v == ah)
			lo = al << b.v, hi = ah << b.v;
		break;
	case PO_SHR:
		if (!b.why && b.v < 64)
			lo = al >> b.v, hi = ah >> b.v;
		break;
	case PO_REM:
		if (!b.why && b.v)
			hi = ah < b.v - 1 ? ah : b.v - 1;
		break;
	case PO_DIV:
		if (!b.why && b.v)
			lo = al / b.v, hi = ah / b.v;
		break;
	case PO_MIN: lo = al < bl ? al : bl; hi = ah < bh ? ah : bh; break;
	case PO_MAX: lo = al > bl ? al : bl; hi = ah > bh ? ah : bh; break;
	case PO_BFE:
		if (!sgn && !c.why && c.v < 64)
			hi = c.v ? (1ull << c.v) - 1 : 0;
		break;
	case PO_SELP:
		lo = al < bl ? al : bl;
		hi = ah > bh ? ah : bh;
		break;
	case PO_CVT:
		lo = al, hi = ah;
		if (in->op.ty2.kind == TY_S && ah > mask_of(in->op.ty2.bytes) >> 1)
			hi = ~0ull;     /* a negative source sign-extends */
		break;
	case PO_SETP: case PO_SET: case PO_NOT:
		if (in->op.ty.kind == TY_PRED)
			hi = 1;
		break;
	default: break;
	}
	if (hi > m)
		lo = 0, hi = m;
	return unknown_in(why, lo, hi);
}

/* Every register an operand names (a vector's elements too) unknown. */
void ir_put_unknown(Thread *t, const PtxOpd *o, uint32_t why)
{
	if (o->kind == OPD_REG || o->kind == OPD_SINK) {
		if (o->kind == OPD_REG)
			*ir_reg(t, o->reg) = unknown(why);
		if (o->reg2 >= 0)
			*ir_reg(t, o->reg2) = unknown(why);
	} else if (o->kind == OPD_VEC) {
		for (int k = 0; k < o->nvec; k++)
			ir_put_unknown(t, &t->m->vec[o->sym + k], why);
	}
}

/* Registers of a new frame: unknown until written. */
void ir_unset(Val *v, size_t n)
{
	for (size_t j = 0; j < n; j++)
		v[j] = unknown(WHY_UNSET);
}

/* ---- stops ------------------------------------------------------------------- */

bool ir_stop(Thread *t, StopKind k, int inst, uint32_t why, int64_t addr)
{
	InterpStop *s = t->stop;
	*s = (InterpStop){k, inst, why, addr, {0}, 0};
	/* the calls it was in: the three innermost (a recursion's repeats as
	 * one) and the kernel's own */
	for (int d = t->depth; d > 0; d--) {
		int c = t->fr[d].call;
		if (s->ncall && s->call[s->ncall - 1] == c)
			continue;
		if (s->ncall == 4)
			s->ncall = 3;
		s->call[s->ncall++] = c;
	}
	return false;
}
