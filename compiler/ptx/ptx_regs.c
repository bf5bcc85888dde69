/* The interpreter's operands: a thread's registers and special
 * registers read and written at the operand's width, and the stop that
 * ends a thread's path.  The instructions (ptx_interp.c) and the memory
 * and frames (ptx_frame.c) both go through these. */
#include "ptx/ptx_interp.h"

/* ---- operands ---------------------------------------------------------------- */

Val *ir_reg(Thread *t, int i)
{
	return &t->r->stack[t->fr[t->depth].reg0 + (size_t)i];
}

static Val special(Thread *t, int sr, int inst)
{
	int c = sr % 4;
	const int *b = t->r->o->block;
	int id[3] = {t->x, t->y, t->z};
	uint64_t lt = (1ull << t->lane) - 1;
	switch (sr / 4) {
	case SR_TID: return known((uint64_t)id[c]);
	case SR_NTID: return known((uint64_t)b[c]);
	case SR_CTAID: return known((uint64_t)t->r->o->ctaid[c]);
	case SR_NCTAID: return known((uint64_t)(t->r->o->grid[c] > 0 ? t->r->o->grid[c] : 1));
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
			v = known((uint64_t)(y->addr + o->imm));
			v.ct = ct_shared(y, o->imm);
		} else if (y->kind == SYM_LOCAL && y->addr >= 0)
			v = known(LWINDOW + (uint64_t)(y->addr + o->imm));
		else
			v = unknown_at(i);
		break;
	}
	default: v = unknown_at(i); break;
	}
	if (o->neg)
		v.v = !v.v;
	v.v &= mask_of(bytes);
	return v;
}

void ir_put(Thread *t, const PtxOpd *o, Val v, int bytes)
{
	if (o->kind == OPD_REG) {
		if (!v.why)
			v.v &= mask_of(bytes);
		else
			v.v = 0;
		*ir_reg(t, o->reg) = v;
	}
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
