/* Integer expressions of the general access form, evaluated for all the
 * lanes of a warp instruction at once.  Every step is checked in 64 bits
 * (overflow, division by zero, shifts outside 0..62), so a spec can never
 * make bankc compute a wrapped-around address; a subtree that does not
 * depend on the lane is computed once, not once per lane; and the untaken
 * side of ?:, && and || is not evaluated for a lane, as in C. */
#include <string.h>

#include "bankc.h"
#include "front/front.h"

static bool fail(EvalCtx *cx, const Expr *e, const char *msg, int lane)
{
	cx->err = msg;
	cx->at = e->pos;
	cx->lane = lane;
	return false;
}

/* One binary operator on one pair of values. */
static bool binop(EvalCtx *cx, const Expr *e, int64_t a, int64_t b,
                  int64_t *out, int lane)
{
	switch (e->op) {
	case T_PLUS:
		if (__builtin_add_overflow(a, b, out))
			return fail(cx, e, "integer overflow", lane);
		return true;
	case T_MINUS:
		if (__builtin_sub_overflow(a, b, out))
			return fail(cx, e, "integer overflow", lane);
		return true;
	case T_STAR:
		if (__builtin_mul_overflow(a, b, out))
			return fail(cx, e, "integer overflow", lane);
		return true;
	case T_SLASH:
	case T_PERCENT:
		if (b == 0)
			return fail(cx, e, "division by zero", lane);
		if (a == INT64_MIN && b == -1)
			return fail(cx, e, "integer overflow", lane);
		*out = e->op == T_SLASH ? a / b : a % b;   /* C's rounding, as CUDA */
		return true;
	case T_SHL:
	case T_SHR:
		if (b < 0 || b > 62)
			return fail(cx, e, "shift count not in 0..62", lane);
		if (e->op == T_SHR) {
			/* arithmetic shift, defined here rather than by the compiler */
			*out = a >= 0 ? a >> b : -((-(a + 1)) >> b) - 1;
			return true;
		}
		if (__builtin_mul_overflow(a, (int64_t)1 << b, out))
			return fail(cx, e, "integer overflow", lane);
		return true;
	case T_LT: *out = a < b; return true;
	case T_LE: *out = a <= b; return true;
	case T_GT: *out = a > b; return true;
	case T_GE: *out = a >= b; return true;
	case T_EQ: *out = a == b; return true;
	case T_NE: *out = a != b; return true;
	case T_AMP: *out = a & b; return true;
	case T_CARET: *out = a ^ b; return true;
	case T_PIPE: *out = a | b; return true;
	default:
		return fail(cx, e, "bad operator", lane);
	}
}

/* A binary operator on all 32 lanes at once, the switch outside the lane
 * loop so the loops vectorise; faults are collected as a lane mask and
 * only lanes in `mask` count (the others hold whatever they hold). */
static bool vbin(EvalCtx *cx, const Expr *e, uint32_t mask,
                 const int64_t *a, const int64_t *b, int64_t *out)
{
	/* computed into t, then blended: lanes outside the mask keep their
	 * values (the other side of a ?: may have put them there) */
	int64_t t[WARP], *o = t;
	uint32_t bad = 0;
	const char *msg = "integer overflow";
	switch (e->op) {
	case T_PLUS:
		for (int n = 0; n < WARP; n++)
			bad |= (uint32_t)__builtin_add_overflow(a[n], b[n], &o[n]) << n;
		break;
	case T_MINUS:
		for (int n = 0; n < WARP; n++)
			bad |= (uint32_t)__builtin_sub_overflow(a[n], b[n], &o[n]) << n;
		break;
	case T_STAR:
		for (int n = 0; n < WARP; n++)
			bad |= (uint32_t)__builtin_mul_overflow(a[n], b[n], &o[n]) << n;
		break;
	case T_SLASH:
	case T_PERCENT: {
		uint32_t zero = 0;
		for (int n = 0; n < WARP; n++) {
			zero |= (uint32_t)(b[n] == 0) << n;
			bad |= (uint32_t)(a[n] == INT64_MIN && b[n] == -1) << n;
		}
		if (zero & mask)
			return fail(cx, e, "division by zero", __builtin_ctz(zero & mask));
		if (bad & mask)
			break;
		/* lanes outside the mask may hold anything: keep them harmless */
		int64_t x[WARP], d[WARP];
		bool pow2 = true, narrow = true;
		for (int n = 0; n < WARP; n++) {
			d[n] = (mask >> n & 1) ? b[n] : 1;
			x[n] = (mask >> n & 1) ? a[n] : 0;
			pow2 &= x[n] >= 0 && d[n] > 0 && (d[n] & (d[n] - 1)) == 0;
			narrow &= x[n] == (int32_t)x[n] && d[n] == (int32_t)d[n];
		}
		/* the common cases without a 64-bit divide, which was most of
		 * the evaluator's time: a non-negative value over a power of two
		 * (a shift and a mask, vectorised), and values that fit 32 bits
		 * (INT32_MIN / -1 overflows there only: its answer by hand) */
		if (pow2)
			for (int n = 0; n < WARP; n++)
				o[n] = e->op == T_SLASH ? x[n] >> __builtin_ctzll((uint64_t)d[n])
				                        : x[n] & (d[n] - 1);
		else if (narrow)
			for (int n = 0; n < WARP; n++) {
				int32_t x32 = (int32_t)x[n], d32 = (int32_t)d[n];
				if (x32 == INT32_MIN && d32 == -1)
					o[n] = e->op == T_SLASH ? -(int64_t)INT32_MIN : 0;
				else
					o[n] = e->op == T_SLASH ? x32 / d32 : x32 % d32;
			}
		else
			for (int n = 0; n < WARP; n++)
				o[n] = e->op == T_SLASH ? x[n] / d[n] : x[n] % d[n];
		break;
	}
	case T_SHL:
	case T_SHR:
		for (int n = 0; n < WARP; n++)
			if ((mask >> n & 1) && (b[n] < 0 || b[n] > 62))
				return fail(cx, e, "shift count not in 0..62", n);
		for (int n = 0; n < WARP; n++) {
			if (!(mask >> n & 1))
				continue;
			if (e->op == T_SHR)
				o[n] = a[n] >= 0 ? a[n] >> b[n] : -((-(a[n] + 1)) >> b[n]) - 1;
			else
				bad |= (uint32_t)__builtin_mul_overflow(a[n], (int64_t)1 << b[n],
				                                        &o[n]) << n;
		}
		break;
	case T_LT: for (int n = 0; n < WARP; n++) o[n] = a[n] < b[n]; break;
	case T_LE: for (int n = 0; n < WARP; n++) o[n] = a[n] <= b[n]; break;
	case T_GT: for (int n = 0; n < WARP; n++) o[n] = a[n] > b[n]; break;
	case T_GE: for (int n = 0; n < WARP; n++) o[n] = a[n] >= b[n]; break;
	case T_EQ: for (int n = 0; n < WARP; n++) o[n] = a[n] == b[n]; break;
	case T_NE: for (int n = 0; n < WARP; n++) o[n] = a[n] != b[n]; break;
	case T_AMP: for (int n = 0; n < WARP; n++) o[n] = a[n] & b[n]; break;
	case T_CARET: for (int n = 0; n < WARP; n++) o[n] = a[n] ^ b[n]; break;
	case T_PIPE: for (int n = 0; n < WARP; n++) o[n] = a[n] | b[n]; break;
	default:
		return fail(cx, e, "bad operator", __builtin_ctz(mask));
	}
	if (bad & mask)
		return fail(cx, e, msg, __builtin_ctz(bad & mask));
	for (int n = 0; n < WARP; n++)
		out[n] = (mask >> n & 1) ? t[n] : out[n];
	return true;
}

static bool unop(EvalCtx *cx, const Expr *e, int64_t a, int64_t *out, int lane)
{
	switch (e->kind) {
	case E_NEG:
		if (a == INT64_MIN)
			return fail(cx, e, "integer overflow", lane);
		*out = -a;
		return true;
	case E_NOT:
		*out = ~a;
		return true;
	default:
		*out = !a;
		return true;
	}
}

static bool table_at(EvalCtx *cx, const Expr *e, int64_t i, int64_t *out,
                     int lane)
{
	const Table *t = &cx->tables[e->var];
	if (i < 0 || i >= t->n)
		return fail(cx, e, "table index out of range", lane);
	*out = t->v[i];
	return true;
}

/* Scalar evaluation: no lane (lane-free subtrees and per-instruction
 * expressions such as loop bounds, weight and stage). */
bool expr_eval_scalar(const Expr *e, EvalCtx *cx, int64_t *out)
{
	int64_t a, b;
	switch (e->kind) {
	case E_NUM:
		*out = e->num;
		return true;
	case E_VAR:
		*out = cx->vars[e->var];
		return true;
	case E_LET:
		*out = cx->lets[e->var][0];
		return true;
	case E_TABLE:
		return expr_eval_scalar(e->l, cx, &a) && table_at(cx, e, a, out, -1);
	case E_NEG:
	case E_NOT:
	case E_LNOT:
		return expr_eval_scalar(e->l, cx, &a) && unop(cx, e, a, out, -1);
	case E_COND:
		if (!expr_eval_scalar(e->c, cx, &a))
			return false;
		return expr_eval_scalar(a ? e->l : e->r, cx, out);
	case E_MIN:
	case E_MAX:
		if (!expr_eval_scalar(e->l, cx, &a) || !expr_eval_scalar(e->r, cx, &b))
			return false;
		*out = (e->kind == E_MIN) == (a < b) ? a : b;
		return true;
	case E_BIN:
		break;
	}
	if (!expr_eval_scalar(e->l, cx, &a))
		return false;
	if (e->op == T_ANDAND || e->op == T_OROR) {
		if ((e->op == T_ANDAND) != (a != 0)) {
			*out = a != 0;
			return true;
		}
		if (!expr_eval_scalar(e->r, cx, &b))
			return false;
		*out = b != 0;
		return true;
	}
	return expr_eval_scalar(e->r, cx, &b) && binop(cx, e, a, b, out, -1);
}

/* A lane-free value met inside a lane expression is no lane's fault: the
 * error names the lowest lane that needed it. */
static bool scalar_for(const Expr *e, EvalCtx *cx, uint32_t mask, int64_t *v)
{
	if (expr_eval_scalar(e, cx, v))
		return true;
	cx->lane = __builtin_ctz(mask);
	return false;
}

#define EACH_LANE(mask, n) \
	for (uint32_t m_ = (mask); m_; m_ &= m_ - 1) \
		for (int n = __builtin_ctz(m_), once_ = 1; once_; once_ = 0)

bool expr_eval_lanes(const Expr *e, EvalCtx *cx, uint32_t mask,
                     int64_t out[WARP])
{
	if (!mask)
		return true;
	if (!e->lane) {
		int64_t v;
		if (!scalar_for(e, cx, mask, &v))
			return false;
		EACH_LANE(mask, n)
			out[n] = v;
		return true;
	}
	int64_t r[WARP];
	switch (e->kind) {
	case E_NUM:
		EACH_LANE(mask, n)
			out[n] = e->num;
		return true;
	case E_VAR:                     /* only `lane` depends on the lane */
		EACH_LANE(mask, n)
			out[n] = n;
		return true;
	case E_LET:
		EACH_LANE(mask, n)
			out[n] = cx->lets[e->var][n];
		return true;
	case E_TABLE:
		if (!expr_eval_lanes(e->l, cx, mask, r))
			return false;
		EACH_LANE(mask, n)
			if (!table_at(cx, e, r[n], &out[n], n))
				return false;
		return true;
	case E_NEG:
	case E_NOT:
	case E_LNOT:
		if (!expr_eval_lanes(e->l, cx, mask, r))
			return false;
		EACH_LANE(mask, n)
			if (!unop(cx, e, r[n], &out[n], n))
				return false;
		return true;
	case E_COND: {
		if (!expr_eval_lanes(e->c, cx, mask, r))
			return false;
		uint32_t yes = 0;
		EACH_LANE(mask, n)
			if (r[n])
				yes |= 1u << n;
		return expr_eval_lanes(e->l, cx, yes, out) &&
		       expr_eval_lanes(e->r, cx, mask & ~yes, out);
	}
	case E_MIN:
	case E_MAX:
		if (!expr_eval_lanes(e->l, cx, mask, out) ||
		    !expr_eval_lanes(e->r, cx, mask, r))
			return false;
		EACH_LANE(mask, n)
			if ((e->kind == E_MIN) != (out[n] < r[n]))
				out[n] = r[n];
		return true;
	case E_BIN:
		break;
	}
	if (!expr_eval_lanes(e->l, cx, mask, out))
		return false;
	if (e->op == T_ANDAND || e->op == T_OROR) {
		uint32_t more = 0;          /* lanes whose result needs the right */
		EACH_LANE(mask, n) {
			if ((e->op == T_ANDAND) == (out[n] != 0))
				more |= 1u << n;
			out[n] = out[n] != 0;
		}
		if (!expr_eval_lanes(e->r, cx, more, r))
			return false;
		EACH_LANE(more, n)
			out[n] = r[n] != 0;
		return true;
	}
	if (!e->r->lane) {
		int64_t b, bv[WARP];
		if (!scalar_for(e->r, cx, mask, &b))
			return false;
		for (int n = 0; n < WARP; n++)
			bv[n] = b;
		return vbin(cx, e, mask, out, bv, out);
	}
	if (!expr_eval_lanes(e->r, cx, mask, r))
		return false;
	return vbin(cx, e, mask, out, r, out);
}

int expr_size(const Expr *e)
{
	if (!e)
		return 0;
	return 1 + expr_size(e->l) + expr_size(e->r) + expr_size(e->c);
}

/* ---- printing ---------------------------------------------------------------- */

/* Binding strength, as in C: higher binds tighter; -1 if k is no binary
 * operator.  ?: is below all of them. */
int expr_prec(TokKind k)
{
	switch (k) {
	case T_STAR: case T_SLASH: case T_PERCENT: return 10;
	case T_PLUS: case T_MINUS: return 9;
	case T_SHL: case T_SHR: return 8;
	case T_LT: case T_LE: case T_GT: case T_GE: return 7;
	case T_EQ: case T_NE: return 6;
	case T_AMP: return 5;
	case T_CARET: return 4;
	case T_PIPE: return 3;
	case T_ANDAND: return 2;
	case T_OROR: return 1;
	default: return -1;
	}
}

enum { PREC_COND = 0, PREC_ATOM = 20 };

static int prec(const Expr *e)
{
	return e->kind == E_BIN ? expr_prec(e->op)
	     : e->kind == E_COND ? PREC_COND : PREC_ATOM;
}

static const char *opstr(TokKind k)
{
	switch (k) {
	case T_PLUS: return "+";
	case T_MINUS: return "-";
	case T_STAR: return "*";
	case T_SLASH: return "/";
	case T_PERCENT: return "%";
	case T_SHL: return "<<";
	case T_SHR: return ">>";
	case T_AMP: return "&";
	case T_CARET: return "^";
	case T_LT: return "<";
	case T_LE: return "<=";
	case T_GT: return ">";
	case T_GE: return ">=";
	case T_EQ: return "==";
	case T_NE: return "!=";
	case T_ANDAND: return "&&";
	case T_OROR: return "||";
	default: return "|";
	}
}

static void print_sub(FILE *f, const Expr *e, const Access *a, bool paren)
{
	if (paren)
		fputc('(', f);
	expr_print(f, e, a);
	if (paren)
		fputc(')', f);
}

void expr_print(FILE *f, const Expr *e, const Access *a)
{
	switch (e->kind) {
	case E_NUM:
		fprintf(f, "%lld", (long long)e->num);
		return;
	case E_VAR:
		fputs(e->var == 0 ? "lane" : a->loops[e->var - 1].name, f);
		return;
	case E_LET:
		fputs(a->lets[e->var].name, f);
		return;
	case E_TABLE:
		fprintf(f, "%s[", a->tables[e->var].name);
		expr_print(f, e->l, a);
		fputc(']', f);
		return;
	case E_NEG:
	case E_NOT:
	case E_LNOT:
		fputc(e->kind == E_NEG ? '-' : e->kind == E_NOT ? '~' : '!', f);
		/* "--x" would read as a decrement to C eyes */
		print_sub(f, e->l, a, prec(e->l) < PREC_ATOM ||
		          (e->kind == E_NEG && (e->l->kind == E_NEG ||
		                                (e->l->kind == E_NUM && e->l->num < 0))));
		return;
	case E_MIN:
	case E_MAX:
		fputs(e->kind == E_MIN ? "min(" : "max(", f);
		expr_print(f, e->l, a);
		fputs(", ", f);
		expr_print(f, e->r, a);
		fputc(')', f);
		return;
	case E_COND:
		/* right-associative: a ?: as the condition needs parentheses */
		print_sub(f, e->c, a, prec(e->c) <= PREC_COND);
		fputs(" ? ", f);
		expr_print(f, e->l, a);
		fputs(" : ", f);
		expr_print(f, e->r, a);
		return;
	case E_BIN:
		/* operators are left-associative: a right operand of equal
		 * strength needs parentheses, a left one does not */
		print_sub(f, e->l, a, prec(e->l) < prec(e));
		fprintf(f, " %s ", opstr(e->op));
		print_sub(f, e->r, a, prec(e->r) <= prec(e));
		return;
	}
}
