/* The front end's own declarations: the spec language's tokens and
 * expressions, and the parser and checker that frontend.c runs.  The
 * stages after it see a checked tile (bankc.h), never these. */
#ifndef BANKC_FRONT_H
#define BANKC_FRONT_H

#include "bankc.h"

/* ---- lex.re: tokens ------------------------------------------------------ */

typedef enum {
	T_EOF, T_IDENT, T_NUM,
	T_LBRACE, T_RBRACE, T_LPAREN, T_RPAREN, T_LBRACKET, T_RBRACKET,
	T_SEMI, T_COLON, T_COMMA, T_ASSIGN, T_DOTDOT, T_QUESTION,
	T_PLUS, T_MINUS, T_STAR, T_SLASH, T_PERCENT, T_SHL, T_SHR,
	T_AMP, T_CARET, T_PIPE, T_TILDE, T_BANG, T_ANDAND, T_OROR,
	T_LT, T_LE, T_GT, T_GE, T_EQ, T_NE,
} TokKind;

typedef struct {
	TokKind kind;
	Pos pos;
	const char *s;      /* points into the source */
	size_t n;
	int64_t num;        /* T_NUM */
} Tok;

typedef struct {
	Diag *d;
	const char *cur;    /* next byte */
	const char *line0;  /* start of the current line */
	int line;
} Lexer;

void lex_init(Lexer *lx, Diag *d);
Tok lex_next(Lexer *lx);
const char *lex_kind_name(TokKind k);

/* ---- expr.c: integer expressions over lane and loop variables ------------- */

typedef enum {
	E_NUM, E_VAR,       /* var: 0 = lane, 1.. = loop variables */
	E_LET,              /* var: index of the access's let */
	E_TABLE,            /* var: index of the access's table; l: the index */
	E_NEG, E_NOT, E_LNOT,
	E_BIN,              /* op: the operator token; && and || short-circuit */
	E_COND,             /* c ? l : r */
	E_MIN, E_MAX,
} ExprKind;

struct Expr {
	ExprKind kind;
	TokKind op;         /* E_BIN: the operator token */
	Pos pos;            /* the operator, number or name */
	int64_t num;        /* E_NUM */
	int var;
	bool lane;          /* depends on the lane, directly or through a let */
	Expr *l, *r, *c;
};

/* What expressions see while one warp instruction is evaluated: the loop
 * variables' values, the lets' values per lane, the tables.  On failure
 * err names the fault, at where, lane the first lane it happened in. */
typedef struct {
	const int64_t *vars;        /* [0] unused, [1..] the loop variables */
	int64_t (*lets)[WARP];
	const Table *tables;
	const char *err;
	Pos at;
	int lane;
} EvalCtx;

/* Evaluate e for the lanes in mask (lanes outside it are left alone),
 * every step checked for overflow, division by zero and bad shifts; the
 * untaken side of ?:, && and || is not evaluated for a lane. */
bool expr_eval_lanes(const Expr *e, EvalCtx *cx, uint32_t mask,
                     int64_t out[WARP]);
/* The same for an expression that does not depend on the lane. */
bool expr_eval_scalar(const Expr *e, EvalCtx *cx, int64_t *out);
/* Numbers, names and operators of e (the work one evaluation takes). */
int expr_size(const Expr *e);
int expr_prec(TokKind k);
/* Print with the fewest parentheses that parse back to the same tree;
 * names[0] is "lane", then the loop variables; lets and tables by the
 * access's names. */
void expr_print(FILE *f, const Expr *e, const Access *a);

/* ---- parse.c, check.c ------------------------------------------------------ */

/* Parse a whole file into u (allocating from p); errors longjmp to d->jb. */
void parse_unit(Pool *p, Diag *d, Unit *u);
/* Check every tile and expand each access into warp instructions. */
void check_unit(Pool *p, Diag *d, Unit *u);

#endif
