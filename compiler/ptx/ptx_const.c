/* PTX integer constant expressions (PTX ISA, "Constant Expressions"):
 * literals, the predefined constant WARP_SZ (32: what nvcc writes for
 * warpSize), parentheses, C's unary and binary operators and ?:, with
 * C's precedence, on signed 64-bit integers.  They may stand wherever an
 * immediate, an address offset or an array size may.
 *
 * The lexer makes "<<" two '<' tokens and "%" part of a name, so the
 * two-character operators are two adjacent tokens here and the remainder
 * is a name "%" (or "%7" with its right operand). */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_reader.h"

enum { MAX_NEST = 64 };     /* parentheses and unary operators, nested */

static bool is_warp_sz(const PtxTok *t)
{
	return t->kind == PT_NAME && rd_tok_is(t, "WARP_SZ");
}

static bool opens(const PtxTok *t)
{
	return t->kind == PT_INT || t->kind == PT_LPAREN || t->kind == PT_MINUS ||
	       t->kind == PT_PLUS || t->kind == PT_TILDE || t->kind == PT_BANG ||
	       is_warp_sz(t);
}

bool rd_const_starts(Reader *r)
{
	const PtxTok *t = &r->tok;
	if (t->kind == PT_INT || is_warp_sz(t))
		return true;
	if (t->kind == PT_LPAREN || t->kind == PT_MINUS || t->kind == PT_PLUS ||
	    t->kind == PT_TILDE || t->kind == PT_BANG)
		return opens(rd_peek(r)) && rd_peek(r)->kind != PT_PLUS;
	return false;
}

/* The binary operator at the current token: its precedence (0: none)
 * and how many tokens it spans. */
typedef enum { B_NONE, B_OROR, B_ANDAND, B_OR, B_XOR, B_AND, B_EQ, B_NE,
	B_LT, B_GT, B_LE, B_GE, B_SHL, B_SHR, B_ADD, B_SUB, B_MUL, B_DIV,
	B_REM } BinOp;

static int prec_of(BinOp b)
{
	static const int p[] = {0, 2, 3, 4, 5, 6, 7, 7, 8, 8, 8, 8, 9, 9, 10, 10,
		11, 11, 11};
	return p[b];
}

static BinOp binop(Reader *r, int *ntok)
{
	const PtxTok *t = &r->tok;
	*ntok = 1;
	PtxTokKind k = t->kind;
	bool two = false;
	PtxTokKind k2 = PT_EOF;
	if (k == PT_PIPE || k == PT_AMP || k == PT_LT || k == PT_GT || k == PT_EQ ||
	    k == PT_BANG) {
		const PtxTok *u = rd_peek(r);
		if (u->pos.off == t->pos.off + 1) {
			k2 = u->kind;
			two = true;
		}
	}
	if (two && ((k == PT_PIPE && k2 == PT_PIPE) || (k == PT_AMP && k2 == PT_AMP) ||
	            (k == PT_LT && (k2 == PT_LT || k2 == PT_EQ)) ||
	            (k == PT_GT && (k2 == PT_GT || k2 == PT_EQ)) ||
	            (k == PT_EQ && k2 == PT_EQ) || (k == PT_BANG && k2 == PT_EQ))) {
		*ntok = 2;
		switch (k) {
		case PT_PIPE: return B_OROR;
		case PT_AMP: return B_ANDAND;
		case PT_LT: return k2 == PT_LT ? B_SHL : B_LE;
		case PT_GT: return k2 == PT_GT ? B_SHR : B_GE;
		case PT_EQ: return B_EQ;
		default: return B_NE;
		}
	}
	switch (k) {
	case PT_PIPE: return B_OR;
	case PT_CARET: return B_XOR;
	case PT_AMP: return B_AND;
	case PT_LT: return B_LT;
	case PT_GT: return B_GT;
	case PT_PLUS: return B_ADD;
	case PT_MINUS: return B_SUB;
	case PT_STAR: return B_MUL;
	case PT_SLASH: return B_DIV;
	case PT_NAME:
		if (t->s[0] == '%' && (t->n == 1 || (t->s[1] >= '0' && t->s[1] <= '9')))
			return B_REM;
		return B_NONE;
	default: return B_NONE;
	}
}

static int64_t apply(Reader *r, Pos at, BinOp b, int64_t x, int64_t y)
{
	uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
	switch (b) {
	case B_OROR: return x || y;
	case B_ANDAND: return x && y;
	case B_OR: return (int64_t)(ux | uy);
	case B_XOR: return (int64_t)(ux ^ uy);
	case B_AND: return (int64_t)(ux & uy);
	case B_EQ: return x == y;
	case B_NE: return x != y;
	case B_LT: return x < y;
	case B_GT: return x > y;
	case B_LE: return x <= y;
	case B_GE: return x >= y;
	case B_SHL: return uy > 63 ? 0 : (int64_t)(ux << uy);
	case B_SHR: return uy > 63 ? (x < 0 ? -1 : 0) : x >> uy;
	case B_ADD: return (int64_t)(ux + uy);
	case B_SUB: return (int64_t)(ux - uy);
	case B_MUL: return (int64_t)(ux * uy);
	case B_DIV: case B_REM:
		if (y == 0)
			diag_error(r->d, at, "division by zero in a constant expression");
		if (x == INT64_MIN && y == -1)
			return b == B_DIV ? x : 0;
		return b == B_DIV ? x / y : x % y;
	default: return 0;
	}
}

static int64_t expr(Reader *r, int min_prec, int nest);

static int64_t unary(Reader *r, int nest)
{
	if (nest > MAX_NEST)
		diag_error(r->d, r->tok.pos, "a constant expression nested more than %d deep",
		           MAX_NEST);
	PtxTok t = r->tok;
	switch (t.kind) {
	case PT_INT: {
		rd_next(r);
		return (int64_t)t.num;
	}
	case PT_MINUS: case PT_PLUS: case PT_TILDE: case PT_BANG: {
		rd_next(r);
		int64_t v = unary(r, nest + 1);
		return t.kind == PT_MINUS ? (int64_t)(0 - (uint64_t)v) : t.kind == PT_PLUS
		       ? v : t.kind == PT_TILDE ? ~v : !v;
	}
	case PT_LPAREN: {
		rd_next(r);
		int64_t v = expr(r, 1, nest + 1);
		rd_expect(r, PT_RPAREN);
		return v;
	}
	default:
		if (is_warp_sz(&t)) {
			rd_next(r);
			return 32;
		}
		rd_expected(r, "an integer constant");
	}
}

/* Precedence climbing; "%7" carries its right operand in the token. */
static int64_t expr(Reader *r, int min_prec, int nest)
{
	int64_t x = unary(r, nest);
	for (;;) {
		int ntok;
		BinOp b = binop(r, &ntok);
		if (b == B_NONE || prec_of(b) < min_prec)
			break;
		PtxTok op = r->tok;
		for (int i = 0; i < ntok; i++)
			rd_next(r);
		int64_t y;
		if (b == B_REM && op.n > 1) {
			y = 0;
			for (size_t i = 1; i < op.n; i++) {
				if (op.s[i] < '0' || op.s[i] > '9' || y > (INT64_MAX - 9) / 10)
					diag_error(r->d, op.pos, "invalid number '%.*s'",
					           (int)(op.n - 1), op.s + 1);
				y = y * 10 + (op.s[i] - '0');
			}
		} else {
			y = expr(r, prec_of(b) + 1, nest + 1);
		}
		x = apply(r, op.pos, b, x, y);
	}
	if (min_prec <= 1 && r->tok.kind == PT_QUESTION) {
		rd_next(r);
		int64_t a = expr(r, 1, nest + 1);
		rd_expect(r, PT_COLON);
		int64_t c = expr(r, 1, nest + 1);
		x = x ? a : c;
	}
	return x;
}

int64_t rd_const_expr(Reader *r)
{
	return expr(r, 1, 0);
}

int64_t rd_const_term(Reader *r)
{
	return expr(r, prec_of(B_MUL), 0);
}
