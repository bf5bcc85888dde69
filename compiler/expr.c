/* Integer expressions of the general access form.  Evaluation is in 64
 * bits with every step checked, so a spec can never make bankc compute a
 * wrapped-around address. */
#include "bankc.h"

static bool fail(const Expr *e, const char *msg, const char **err, Pos *at)
{
	*err = msg;
	*at = e->pos;
	return false;
}

bool expr_eval(const Expr *e, const int64_t *vars, int64_t *out,
               const char **err, Pos *at)
{
	int64_t a, b;
	switch (e->kind) {
	case E_NUM:
		*out = e->num;
		return true;
	case E_VAR:
		*out = vars[e->var];
		return true;
	case E_NEG:
		if (!expr_eval(e->l, vars, &a, err, at))
			return false;
		if (a == INT64_MIN)
			return fail(e, "integer overflow", err, at);
		*out = -a;
		return true;
	case E_NOT:
		if (!expr_eval(e->l, vars, &a, err, at))
			return false;
		*out = ~a;
		return true;
	case E_BIN:
		break;
	}
	if (!expr_eval(e->l, vars, &a, err, at) ||
	    !expr_eval(e->r, vars, &b, err, at))
		return false;
	switch (e->op) {
	case T_PLUS:
		if (__builtin_add_overflow(a, b, out))
			return fail(e, "integer overflow", err, at);
		return true;
	case T_MINUS:
		if (__builtin_sub_overflow(a, b, out))
			return fail(e, "integer overflow", err, at);
		return true;
	case T_STAR:
		if (__builtin_mul_overflow(a, b, out))
			return fail(e, "integer overflow", err, at);
		return true;
	case T_SLASH:
	case T_PERCENT:
		if (b == 0)
			return fail(e, "division by zero", err, at);
		if (a == INT64_MIN && b == -1)
			return fail(e, "integer overflow", err, at);
		*out = e->op == T_SLASH ? a / b : a % b;   /* C's rounding, as CUDA */
		return true;
	case T_SHL:
	case T_SHR:
		if (b < 0 || b > 62)
			return fail(e, "shift count not in 0..62", err, at);
		if (e->op == T_SHR) {
			/* arithmetic shift, defined here rather than by the C compiler */
			*out = a >= 0 ? a >> b : -((-(a + 1)) >> b) - 1;
			return true;
		}
		if (__builtin_mul_overflow(a, (int64_t)1 << b, out))
			return fail(e, "integer overflow", err, at);
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
		return fail(e, "bad operator", err, at);
	}
}

/* Binding strength, as in C: higher binds tighter; -1 if k is no binary
 * operator. */
int expr_prec(TokKind k)
{
	switch (k) {
	case T_STAR: case T_SLASH: case T_PERCENT: return 7;
	case T_PLUS: case T_MINUS: return 6;
	case T_SHL: case T_SHR: return 5;
	case T_LT: case T_LE: case T_GT: case T_GE: return 4;
	case T_EQ: case T_NE: return 3;
	case T_AMP: return 2;
	case T_CARET: return 1;
	case T_PIPE: return 0;
	default: return -1;
	}
}

static int prec(const Expr *e)
{
	return e->kind == E_BIN ? expr_prec(e->op) : 10;
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
	default: return "|";
	}
}

static void print_sub(FILE *f, const Expr *e, char *const *names, bool paren)
{
	if (paren)
		fputc('(', f);
	expr_print(f, e, names);
	if (paren)
		fputc(')', f);
}

void expr_print(FILE *f, const Expr *e, char *const *names)
{
	switch (e->kind) {
	case E_NUM:
		fprintf(f, "%lld", (long long)e->num);
		return;
	case E_VAR:
		fputs(e->var == 0 ? "lane" : names[e->var - 1], f);
		return;
	case E_NEG:
	case E_NOT:
		fputc(e->kind == E_NEG ? '-' : '~', f);
		print_sub(f, e->l, names, e->l->kind == E_BIN);
		return;
	case E_BIN:
		/* operators are left-associative: a right operand of equal
		 * strength needs parentheses, a left one does not */
		print_sub(f, e->l, names, prec(e->l) < prec(e));
		fprintf(f, " %s ", opstr(e->op));
		print_sub(f, e->r, names, prec(e->r) <= prec(e));
		return;
	}
}
