/* The parser: recursive descent over the tokens of one .tile file, with a
 * grammar comment above each function.  It only builds the tree and
 * rejects what is malformed; meaning is checked in check.c. */
#include <string.h>

#include "bankc.h"
#include "front/front.h"

enum { MAX_TILES = 1024 };

typedef struct {
	Pool *p;
	Diag *d;
	Lexer lx;
	Tok tok;            /* the current token */
	Tok prev;           /* the previous token */
	Pos prev_end;       /* just after it */
	int depth;          /* expression nesting */
	int nodes;          /* size of the expression being parsed */
	Access *acc;        /* the access whose body is being parsed */
	bool in_bound;      /* parsing a loop's range */
	Unit *unit;
	Tile *cur;          /* the tile of the tile or view being parsed */
	bool no_skip;       /* the error was a missing ';': nothing to skip */
	bool eof_error;     /* an error reached the end of the file: the
	                     * blocks left open there need no error each */
	int cap;            /* room in unit->tiles */
} Parser;

static void next(Parser *ps)
{
	Tok t = ps->tok;
	ps->prev = t;
	ps->prev_end = (Pos){t.pos.line, t.pos.col + (int)t.n, t.pos.off + t.n};
	ps->tok = lex_next(&ps->lx);
}

static bool is(const Parser *ps, const char *word)
{
	return ps->tok.kind == T_IDENT && strlen(word) == ps->tok.n &&
	       memcmp(ps->tok.s, word, ps->tok.n) == 0;
}

/* "found 'xyz'" or "found end of file", for error messages */
static const char *found(const Parser *ps, char *buf, size_t n)
{
	if (ps->tok.kind == T_EOF)
		return "end of file";
	if (ps->tok.kind == T_IDENT || ps->tok.kind == T_NUM) {
		snprintf(buf, n, "'%.*s'", ps->tok.n > 40 ? 40 : (int)ps->tok.n,
		         ps->tok.s);
		return buf;
	}
	return lex_kind_name(ps->tok.kind);
}

/* At the end of the file the caret goes just after the last token, where
 * the missing text belongs, rather than on an empty line. */
_Noreturn static void expected(Parser *ps, const char *what)
{
	char buf[64];
	if (ps->tok.kind == T_EOF && ps->eof_error)
		longjmp(ps->d->jb, 1);
	Pos at = ps->tok.kind == T_EOF && ps->prev_end.line ? ps->prev_end
	                                                    : ps->tok.pos;
	diag_error(ps->d, at, "expected %s, found %s", what,
	           found(ps, buf, sizeof buf));
}

static Tok expect(Parser *ps, TokKind k)
{
	if (k == T_SEMI && ps->tok.kind != T_SEMI) {
		/* a forgotten ';' is noticed on the next token, often on the
		 * next line; the caret belongs after the token it should follow */
		char buf[64];
		const Tok *pv = &ps->prev;
		/* the statement is whole where what follows can begin the
		 * next one; otherwise its rest is skipped */
		ps->no_skip = ps->tok.kind == T_IDENT || ps->tok.kind == T_RBRACE;
		diag_error(ps->d, ps->prev_end, "expected ';' after %s%.*s%s, found %s",
		           pv->kind == T_IDENT || pv->kind == T_NUM ? "'" : "",
		           pv->kind == T_IDENT || pv->kind == T_NUM ? (int)pv->n : 0,
		           pv->s,
		           pv->kind == T_IDENT || pv->kind == T_NUM ? "'" :
		           lex_kind_name(pv->kind), found(ps, buf, sizeof buf));
	}
	if (ps->tok.kind != k)
		expected(ps, lex_kind_name(k));
	Tok t = ps->tok;
	next(ps);
	return t;
}

/* A name the user gives (tile, access, loop variable): bounded, since
 * files and macros are named after it. */
static Tok expect_name(Parser *ps, const char *what)
{
	Tok t = expect(ps, T_IDENT);
	if (t.n > MAX_NAME)
		diag_error(ps->d, t.pos, "%s name '%.20s...' is too long (%zu "
		           "characters; the limit is %d)", what, t.s, t.n, MAX_NAME);
	return t;
}

static Tok expect_word(Parser *ps, const char *word)
{
	if (!is(ps, word)) {
		char what[32];
		snprintf(what, sizeof what, "'%s'", word);
		expected(ps, what);
	}
	Tok t = ps->tok;
	next(ps);
	return t;
}

static Tok expect_num(Parser *ps, const char *what)
{
	if (ps->tok.kind != T_NUM)
		expected(ps, what);
	Tok t = ps->tok;
	next(ps);
	return t;
}

/* Name the closest of words (NULL-terminated) if it is close enough and
 * no other word is as close: a hint between equals would be a guess. */
static const char *closest(const Tok *t, const char *const *words)
{
	const char *best = NULL;
	int bd = 3;
	bool tie = false;
	for (; *words; words++) {
		int dd = text_distance(t->s, t->n, *words);
		if (dd >= (int)t->n)        /* 'k' for 'i' would be no hint */
			continue;
		if (dd < bd)
			bd = dd, best = *words, tie = false;
		else if (dd == bd && best)
			tie = true;
	}
	return tie ? NULL : best;
}

/* A block's end is missing: name the '{' it should close. */
_Noreturn static void expected_close(Parser *ps, Tok open)
{
	char what[64];
	snprintf(what, sizeof what, "'}' to close '{' at line %d", open.pos.line);
	expected(ps, what);
}

/* "unknown WHAT 'x'", with a hint, or the list of choices (which
 * `choices` gives in words where the list is long). */
_Noreturn static void unknown_of(Parser *ps, const char *what,
                                 const char *const *words, const char *choices)
{
	const char *hint = closest(&ps->tok, words);
	char list[256] = "";
	size_t k = 0;
	for (const char *const *w = words; *w && k < sizeof list; w++)
		k += (size_t)snprintf(list + k, sizeof list - k, "%s%s",
		                      w == words ? "" : (w[1] ? ", " : " or "), *w);
	if (choices)
		snprintf(list, sizeof list, "%s", choices);
	if (hint)
		diag_error(ps->d, ps->tok.pos, "unknown %s '%.*s' (did you mean '%s'?)",
		           what, (int)ps->tok.n, ps->tok.s, hint);
	diag_error(ps->d, ps->tok.pos, "unknown %s '%.*s' (expected %s)", what,
	           (int)ps->tok.n, ps->tok.s, list);
}

_Noreturn static void unknown(Parser *ps, const char *what,
                              const char *const *words)
{
	unknown_of(ps, what, words, NULL);
}

/* The first token: a lexer error there is recovered from like any. */
static void next_first(Parser *ps, void *arg)
{
	(void)arg;
	next(ps);
}

/* ---- recovery: more than one error a file ---------------------------------- */

/* After an error in a statement that began at offset start: skip past
 * its ';', or past its block when it has one, or up to the '}' that
 * closes the block around it or a word that begins a tile, a view or
 * (inside a tile) an access, where the caller carries on.  At least one
 * token goes, so the same error cannot come back forever. */
static void skip_statement(Parser *ps, size_t start, bool top)
{
	int depth = 0;
	if (ps->tok.pos.off == start && ps->tok.kind != T_EOF)
		next(ps);
	for (; ps->tok.kind != T_EOF; next(ps)) {
		TokKind k = ps->tok.kind;
		if (k == T_SEMI && !depth) {
			next(ps);
			return;
		}
		if (k == T_LBRACE)
			depth++;
		if (k == T_RBRACE && !depth && !top)
			return;
		if (k == T_RBRACE && depth && --depth == 0) {
			next(ps);
			return;
		}
		if (!depth && (is(ps, "tile") || is(ps, "view") ||
		               (!top && is(ps, "access"))))
			return;
	}
}

/* Run fn(ps, arg) as one statement: on an error, skip the rest of it
 * (unless the error was a missing ';') and return false, so the caller
 * goes on with the next statement.  Errors while skipping (the lexer's)
 * come back here and skip on.  Past -fmax-errors the error goes on out
 * to the caller's own jump. */
static bool guarded(Parser *ps, void (*fn)(Parser *, void *), void *arg,
                    bool top)
{
	Diag *d = ps->d;
	jmp_buf outer;
	memcpy(outer, d->jb, sizeof outer);
	size_t start = ps->tok.pos.off;
	ps->no_skip = false;
	if (setjmp(d->jb) == 0) {
		fn(ps, arg);
		memcpy(d->jb, outer, sizeof outer);
		return true;
	}
	if (d->stopped) {
		memcpy(d->jb, outer, sizeof outer);
		longjmp(d->jb, 1);
	}
	ps->depth = ps->nodes = 0;
	ps->in_bound = false;
	if (ps->cur)
		ps->cur->broken = true;
	if (!ps->no_skip)
		skip_statement(ps, start, top);
	ps->no_skip = false;
	ps->eof_error |= ps->tok.kind == T_EOF;
	memcpy(d->jb, outer, sizeof outer);
	return false;
}

/* ---- expressions ---------------------------------------------------------- */

static Expr *expr(Parser *ps);
static Expr *ternary(Parser *ps);

static Expr *new_expr(Parser *ps, ExprKind k, Pos pos)
{
	if (++ps->nodes > MAX_EXPR_NODES)
		diag_error(ps->d, pos, "expression too long (limit %d numbers, "
		           "names and operators)", MAX_EXPR_NODES);
	Expr *e = pool_alloc(ps->p, sizeof *e);
	e->kind = k;
	e->pos = pos;
	return e;
}

static bool tok_is(const Tok *t, const char *w)
{
	return strlen(w) == t->n && memcmp(t->s, w, t->n) == 0;
}

/* Words an access body gives meaning to: no variable may be called so. */
static const char *const reserved[] = {"lane", "min", "max", "for", "in",
	"let", "table", "row", "col", "idx", "active", "weight", "stage", NULL};

/* A name in an expression: `lane`, a loop variable, a let or a table
 * defined before it; in a loop bound only the outer loop variables. */
static Expr *name_ref(Parser *ps, Tok t)
{
	const Access *a = ps->acc;
	bool bound = ps->in_bound;
	if (tok_is(&t, "lane")) {
		if (bound)
			diag_error(ps->d, t.pos, "a loop's range cannot depend on "
			           "'lane' (it is one per warp instruction)");
		Expr *e = new_expr(ps, E_VAR, t.pos);
		e->var = 0;
		e->lane = true;
		return e;
	}
	for (int i = 0; i < a->nloops - (bound ? 1 : 0); i++)
		if (tok_is(&t, a->loops[i].name)) {
			Expr *e = new_expr(ps, E_VAR, t.pos);
			e->var = i + 1;
			return e;
		}
	if (bound && a->nloops && tok_is(&t, a->loops[a->nloops - 1].name))
		diag_error(ps->d, t.pos, "the range of '%.*s' cannot depend on "
		           "'%.*s' itself", (int)t.n, t.s, (int)t.n, t.s);
	for (int i = 0; i < a->nlets && !bound; i++)
		if (tok_is(&t, a->lets[i].name)) {
			Expr *e = new_expr(ps, E_LET, t.pos);
			e->var = i;
			e->lane = a->lets[i].e->lane;
			return e;
		}
	for (int i = 0; i < a->ntables; i++)
		if (tok_is(&t, a->tables[i].name)) {
			if (ps->tok.kind != T_LBRACKET)
				diag_error(ps->d, t.pos, "table '%.*s' needs an index: "
				           "'%.*s[EXPR]'", (int)t.n, t.s, (int)t.n, t.s);
			next(ps);
			Expr *e = new_expr(ps, E_TABLE, t.pos);
			e->var = i;
			e->l = expr(ps);
			e->lane = e->l->lane;
			if (ps->tok.kind != T_RBRACKET)
				expected(ps, "']' after the table index");
			next(ps);
			return e;
		}
	const char *names[MAX_LOOPS + MAX_LETS + MAX_TABLES + 2] = {"lane"};
	int nn = 1;
	for (int i = 0; i < a->nloops; i++)
		names[nn++] = a->loops[i].name;
	for (int i = 0; i < a->nlets; i++)
		names[nn++] = a->lets[i].name;
	for (int i = 0; i < a->ntables; i++)
		names[nn++] = a->tables[i].name;
	names[nn] = NULL;
	const char *hint = closest(&t, names);
	if (hint)
		diag_error(ps->d, t.pos, "unknown variable '%.*s' (did you mean "
		           "'%s'?)", (int)t.n, t.s, hint);
	if (nn == 1)
		diag_error(ps->d, t.pos,
		           "unknown variable '%.*s' (only 'lane' is defined; loop "
		           "variables come from 'for', names from 'let')", (int)t.n,
		           t.s);
	char list[512] = "";
	size_t k = 0;
	for (int i = 1; i < nn && k < sizeof list; i++)
		k += (size_t)snprintf(list + k, sizeof list - k, ", %s", names[i]);
	diag_error(ps->d, t.pos, "unknown variable '%.*s' (defined: lane%s)",
	           (int)t.n, t.s, list);
}

static Expr *combine(Parser *ps, ExprKind k, Pos pos, Expr *l, Expr *r)
{
	Expr *e = new_expr(ps, k, pos);
	e->l = l;
	e->r = r;
	e->lane = l->lane || r->lane;
	return e;
}

/* primary = NUM | NAME | NAME "[" expr "]" | ("min" | "max") "(" expr
 *           ("," expr)+ ")" | "(" expr ")" | ("-" | "~" | "!") primary */
static Expr *primary(Parser *ps)
{
	Tok t = ps->tok;
	bool nests = t.kind == T_LPAREN || t.kind == T_MINUS ||
	             t.kind == T_TILDE || t.kind == T_BANG;
	if (nests && ++ps->depth > MAX_EXPR_DEPTH)
		diag_error(ps->d, t.pos, "expression nested too deeply (limit %d)",
		           MAX_EXPR_DEPTH);
	Expr *e;
	switch (t.kind) {
	case T_NUM:
		next(ps);
		e = new_expr(ps, E_NUM, t.pos);
		e->num = t.num;
		break;
	case T_IDENT:
		next(ps);
		if ((tok_is(&t, "min") || tok_is(&t, "max")) &&
		    ps->tok.kind == T_LPAREN) {
			if (++ps->depth > MAX_EXPR_DEPTH)
				diag_error(ps->d, t.pos, "expression nested too deeply "
				           "(limit %d)", MAX_EXPR_DEPTH);
			ExprKind k = tok_is(&t, "min") ? E_MIN : E_MAX;
			next(ps);
			e = expr(ps);
			if (ps->tok.kind != T_COMMA)
				expected(ps, "',' and a second argument");
			while (ps->tok.kind == T_COMMA) {
				next(ps);
				e = combine(ps, k, t.pos, e, expr(ps));
			}
			if (ps->tok.kind != T_RPAREN)
				expected(ps, "',' or ')'");
			next(ps);
			ps->depth--;
			break;
		}
		e = name_ref(ps, t);
		break;
	case T_LPAREN:
		next(ps);
		e = expr(ps);
		if (ps->tok.kind != T_RPAREN) {
			char what[64];
			if (t.pos.line == ps->tok.pos.line)
				snprintf(what, sizeof what, "')' to close '(' at column %d",
				         t.pos.col);
			else
				snprintf(what, sizeof what, "')' to close '(' at line %d, "
				         "column %d", t.pos.line, t.pos.col);
			expected(ps, what);
		}
		next(ps);
		break;
	case T_MINUS:
	case T_TILDE:
	case T_BANG:
		next(ps);
		e = new_expr(ps, t.kind == T_MINUS ? E_NEG : t.kind == T_TILDE
		             ? E_NOT : E_LNOT, t.pos);
		e->l = primary(ps);
		e->lane = e->l->lane;
		break;
	default:
		expected(ps, "an expression");
	}
	if (nests)
		ps->depth--;
	return e;
}

/* binary = primary (OP primary)*, by precedence climbing; C's operator
 * strengths, all left-associative; comparisons and && || give 0 or 1. */
static Expr *binary(Parser *ps, int minprec)
{
	Expr *l = primary(ps);
	for (;;) {
		int pr = expr_prec(ps->tok.kind);
		if (pr < minprec)
			return l;
		Tok op = ps->tok;
		next(ps);
		Expr *e = combine(ps, E_BIN, op.pos, l, binary(ps, pr + 1));
		e->op = op.kind;
		l = e;
	}
}

/* ternary = binary ["?" expr ":" ternary]   (right-associative, as in C) */
static Expr *ternary(Parser *ps)
{
	Expr *c = binary(ps, 1);
	if (ps->tok.kind != T_QUESTION)
		return c;
	Tok q = ps->tok;
	if (++ps->depth > MAX_EXPR_DEPTH)
		diag_error(ps->d, q.pos, "expression nested too deeply (limit %d)",
		           MAX_EXPR_DEPTH);
	next(ps);
	Expr *e = new_expr(ps, E_COND, q.pos);
	e->c = c;
	e->l = expr(ps);
	if (ps->tok.kind != T_COLON)
		expected(ps, "':' of the '?' before it");
	next(ps);
	e->r = ternary(ps);
	e->lane = c->lane || e->l->lane || e->r->lane;
	ps->depth--;
	return e;
}

static Expr *expr(Parser *ps)
{
	return ternary(ps);
}

/* A whole expression: its own node budget and nesting. */
static Expr *top_expr(Parser *ps)
{
	ps->depth = 0;
	ps->nodes = 0;
	return expr(ps);
}

/* ---- accesses -------------------------------------------------------------- */

static int small_num(Parser *ps, const char *what)
{
	return (int)expect_num(ps, what).num;
}

/* A variable the access defines: not a reserved word, not twice. */
static Tok new_name(Parser *ps, Access *a, const char *what)
{
	Tok name = expect_name(ps, what);
	if (memchr(name.s, '.', name.n))
		diag_error(ps->d, name.pos, "'%.*s' is not a variable name",
		           (int)name.n, name.s);
	if (tok_is(&name, "lane"))
		diag_error(ps->d, name.pos, "'lane' is the lane number and cannot "
		           "be a %s", what);
	for (const char *const *w = reserved; *w; w++)
		if (tok_is(&name, *w))
			diag_error(ps->d, name.pos, "'%s' is a word of the language and "
			           "cannot name a %s", *w, what);
	for (int i = 0; i < a->nloops; i++)
		if (tok_is(&name, a->loops[i].name))
			diag_error(ps->d, name.pos, "'%.*s' is already a loop variable",
			           (int)name.n, name.s);
	for (int i = 0; i < a->nlets; i++)
		if (tok_is(&name, a->lets[i].name))
			diag_error(ps->d, name.pos, "'%.*s' is already defined by 'let' "
			           "(line %d)", (int)name.n, name.s, a->lets[i].pos.line);
	for (int i = 0; i < a->ntables; i++)
		if (tok_is(&name, a->tables[i].name))
			diag_error(ps->d, name.pos, "'%.*s' is already a table (line %d)",
			           (int)name.n, name.s, a->tables[i].pos.line);
	return name;
}

/* loops = "for" NAME "in" expr ".." expr ("," NAME "in" expr ".." expr)* ";"
 * A range's ends may use the variables before it (`for i in 0..8, j in
 * i..8`); they are evaluated once per value of those. */
static void loops(Parser *ps, Access *a, Tok kw, bool other_first)
{
	/* reported, and the variables still defined, so that their uses
	 * are not errors too */
	if (a->nloops)
		diag_error_cont(ps->d, kw.pos, "'for' given twice in access '%s'",
		                a->name);
	else if (other_first)
		diag_error_cont(ps->d, kw.pos, "'for' must come before the other "
		                "statements of an access");
	if ((a->nloops || other_first) && ps->cur)
		ps->cur->broken = true;
	do {
		Tok name = new_name(ps, a, "loop variable");
		if (a->nloops == MAX_LOOPS)
			diag_error(ps->d, name.pos, "too many loop variables (limit %d)",
			           MAX_LOOPS);
		Loop *l = &a->loops[a->nloops++];
		l->name = pool_strndup(ps->p, name.s, name.n);
		l->pos = name.pos;
		expect_word(ps, "in");
		ps->in_bound = true;
		if (ps->tok.kind == T_DOTDOT)
			expected(ps, "the start of a range");
		l->lo = top_expr(ps);
		expect(ps, T_DOTDOT);
		if (ps->tok.kind == T_SEMI || ps->tok.kind == T_COMMA)
			expected(ps, "the end of a range");
		l->hi = top_expr(ps);
		ps->in_bound = false;
		if (l->lo->kind == E_NUM && l->hi->kind == E_NUM &&
		    l->hi->num <= l->lo->num)
			diag_error(ps->d, l->hi->pos, "empty range %lld..%lld (the end "
			           "is not included)", (long long)l->lo->num,
			           (long long)l->hi->num);
	} while (ps->tok.kind == T_COMMA && (next(ps), 1));
	expect(ps, T_SEMI);
}

/* let = "let" NAME "=" expr ";" */
static void let(Parser *ps, Access *a)
{
	Tok name = new_name(ps, a, "let");
	if (a->nlets == MAX_LETS)
		diag_error(ps->d, name.pos, "too many lets in access '%s' (limit %d)",
		           a->name, MAX_LETS);
	expect(ps, T_ASSIGN);
	Expr *e = top_expr(ps);
	Let *l = &a->lets[a->nlets++];
	l->name = pool_strndup(ps->p, name.s, name.n);
	l->pos = name.pos;
	l->e = e;
	expect(ps, T_SEMI);
}

/* table = "table" NAME "=" "{" ["-"] NUM ("," ["-"] NUM)* "}" ";" */
static void table(Parser *ps, Access *a)
{
	Tok name = new_name(ps, a, "table");
	if (a->ntables == MAX_TABLES)
		diag_error(ps->d, name.pos, "too many tables in access '%s' (limit "
		           "%d)", a->name, MAX_TABLES);
	expect(ps, T_ASSIGN);
	Tok open = expect(ps, T_LBRACE);
	int cap = 64, n = 0;
	int64_t *v = pool_alloc(ps->p, (size_t)cap * sizeof *v);
	for (;;) {
		bool neg = ps->tok.kind == T_MINUS;
		if (neg)
			next(ps);
		Tok num = expect_num(ps, "a number of the table");
		if (n == MAX_TABLE_LEN)
			diag_error(ps->d, num.pos, "table '%.*s' is too long (limit %d "
			           "numbers)", (int)name.n, name.s, MAX_TABLE_LEN);
		if (n == cap) {
			int64_t *nv = pool_alloc(ps->p, (size_t)cap * 2 * sizeof *nv);
			memcpy(nv, v, (size_t)n * sizeof *v);
			v = nv;
			cap *= 2;
		}
		v[n++] = neg ? -num.num : num.num;
		if (ps->tok.kind != T_COMMA)
			break;
		next(ps);
	}
	if (ps->tok.kind != T_RBRACE) {
		char what[64];
		snprintf(what, sizeof what, "',' or '}' to close '{' at line %d",
		         open.pos.line);
		expected(ps, what);
	}
	next(ps);
	Table *t = &a->tables[a->ntables++];
	t->name = pool_strndup(ps->p, name.s, name.n);
	t->pos = name.pos;
	t->v = v;
	t->n = n;
	expect(ps, T_SEMI);
}

/* body = "{" (loops | let | table | ("row" | "col" | "idx" | "active" |
 *        "weight" | "stage") "=" expr ";")* "}" */
typedef struct {
	Access *a;
	bool other;         /* a statement other than 'for' came */
} BodyState;

static void body_stmt(Parser *ps, void *arg)
{
	static const char *const words[] = {"for", "let", "table", "row", "col",
		"idx", "active", "weight", "stage", NULL};
	BodyState *st = arg;
	Access *a = st->a;
	if (ps->tok.kind != T_IDENT)
		expected(ps, "a statement ('for', 'let', 'row', 'col', 'idx', ...) or '}'");
	Tok kw = ps->tok;
	Expr **slot;
	if (is(ps, "for")) {
		next(ps);
		loops(ps, a, kw, st->other);
		return;
	}
	st->other = true;
	if (is(ps, "let")) {
		next(ps);
		let(ps, a);
		return;
	}
	if (is(ps, "table")) {
		next(ps);
		table(ps, a);
		return;
	}
	if (is(ps, "row"))
		slot = &a->row;
	else if (is(ps, "col"))
		slot = &a->col;
	else if (is(ps, "idx"))
		slot = &a->idx;
	else if (is(ps, "active"))
		slot = &a->active;
	else if (is(ps, "weight"))
		slot = &a->weight_e;
	else if (is(ps, "stage"))
		slot = &a->stage_e;
	else
		unknown(ps, "statement", words);
	if (*slot)
		diag_error(ps->d, kw.pos, "'%.*s' given twice in access '%s'",
		           (int)kw.n, kw.s, a->name);
	next(ps);
	expect(ps, T_ASSIGN);
	*slot = top_expr(ps);
	if (slot == &a->weight_e && a->weight_e->lane)
		diag_error(ps->d, kw.pos, "'weight' counts warp instructions: it "
		           "cannot depend on 'lane'");
	expect(ps, T_SEMI);
}

static void body(Parser *ps, Access *a)
{
	Tok open = expect(ps, T_LBRACE);
	a->place = PL_GENERAL;
	ps->acc = a;
	BodyState st = {a, false};
	bool whole = true;      /* no statement lost to an error */
	while (ps->tok.kind != T_RBRACE) {
		if (ps->tok.kind == T_EOF)
			expected_close(ps, open);
		if (is(ps, "access") || is(ps, "tile") || is(ps, "view"))
			expected_close(ps, open);
		whole &= guarded(ps, body_stmt, &st, false);
	}
	a->end = ps->tok.pos;
	next(ps);
	if (!whole)
		return;
	int before = ps->d->errors;
	/* the first that applies: the others would say the same again */
	if (a->idx && (a->row || a->col))
		diag_error_cont(ps->d, a->end, "access '%s' gives 'idx' and "
		                "'row'/'col': 'idx' is for one-dimensional tiles, "
		                "'row' and 'col' for two", a->name);
	else if (!a->idx && !a->row)
		diag_error_cont(ps->d, a->end, "access '%s' gives no 'row =' (or 'idx "
		                "=' for a one-dimensional tile)", a->name);
	else if (!a->idx && !a->col)
		diag_error_cont(ps->d, a->end, "access '%s' gives no 'col ='", a->name);
	if (ps->d->errors != before && ps->cur)
		ps->cur->broken = true;
}

/* access = "access" NAME ":" OP ("vec" NUM | "weight" NUM | "major" ("k" |
 *          "mn") | "cta_group" NUM)* ("along" ("row" | "col") ";" | body | ";")
 * (";" alone, and "major" and "cta_group", for the tensor cores' operands) */
static void access(Parser *ps, Tile *t)
{
	Tok name = expect_name(ps, "access");
	for (int i = 0; i < t->nacc; i++)
		if (strlen(t->acc[i].name) == name.n &&
		    memcmp(t->acc[i].name, name.s, name.n) == 0)
			diag_error(ps->d, name.pos, "access '%.*s' defined twice "
			           "(first at line %d)", (int)name.n, name.s,
			           t->acc[i].pos.line);
	if (t->nacc == MAX_ACCESSES)
		diag_error(ps->d, name.pos, "too many accesses in tile '%s' (limit %d)",
		           t->name, MAX_ACCESSES);
	Access *a = &t->acc[t->nacc++];
	a->name = pool_strndup(ps->p, name.s, name.n);
	a->pos = name.pos;
	a->weight = 1;
	expect(ps, T_COLON);
	if (ps->tok.kind != T_IDENT)
		expected(ps, "an operation");
	a->op_pos = ps->tok.pos;
	if (!tab_parse_op(ps->tok.s, ps->tok.n, &a->op)) {
		if ((ps->tok.n == 7 && memcmp(ps->tok.s, "red.cas", 7) == 0) ||
		    (ps->tok.n == 8 && memcmp(ps->tok.s, "red.exch", 8) == 0))
			diag_error(ps->d, ps->tok.pos, "'%.*s' does not exist: a reduction "
			           "returns nothing, so it cannot compare-and-swap or "
			           "exchange (use atom%.*s)", (int)ps->tok.n, ps->tok.s,
			           (int)ps->tok.n - 3, ps->tok.s + 3);
		static const char *const ops[] = {
			"load", "store", "cp.async", "ldmatrix.x1", "ldmatrix.x2",
			"ldmatrix.x4", "ldmatrix.x1.trans", "ldmatrix.x2.trans",
			"ldmatrix.x4.trans", "stmatrix.x1", "stmatrix.x2",
			"stmatrix.x4", "stmatrix.x1.trans", "stmatrix.x2.trans",
			"stmatrix.x4.trans", "atom", "atom.add", "atom.min", "atom.max",
			"atom.inc", "atom.dec", "atom.and", "atom.or", "atom.xor",
			"atom.exch", "atom.cas", "red", "red.add", "red.min", "red.max",
			"red.inc", "red.dec", "red.and", "red.or", "red.xor", "wgmma.a",
			"wgmma.b", "umma.a", "umma.b", "ldmatrix.m16n16.x1.trans",
			"ldmatrix.m16n16.x2.trans", "ldmatrix.m8n16.x1",
			"ldmatrix.m8n16.x2", "ldmatrix.m8n16.x4",
			"stmatrix.m16n8.x1.trans", "stmatrix.m16n8.x2.trans",
			"stmatrix.m16n8.x4.trans", NULL};
		unknown_of(ps, "operation", ops, "load, store, cp.async, "
		           "ldmatrix/stmatrix .x1, .x2 or .x4 (optionally .trans), "
		           "the 8-bit ldmatrix.m16n16, ldmatrix.m8n16 and "
		           "stmatrix.m16n8 forms, atom[.OP], red[.OP], wgmma.a, "
		           "wgmma.b, umma.a or umma.b");
	}
	next(ps);
	bool weight_given = false;
	for (;;) {
		Tok kw = ps->tok;
		if (is(ps, "vec")) {
			if (a->vec_given)
				diag_error(ps->d, kw.pos, "'vec' given twice in access '%s'",
				           a->name);
			next(ps);
			a->vec_pos = ps->tok.pos;
			a->vec = small_num(ps, "the number of elements per lane");
			a->vec_given = true;
		} else if (is(ps, "weight")) {
			if (weight_given)
				diag_error(ps->d, kw.pos, "'weight' given twice in access '%s'",
				           a->name);
			next(ps);
			a->weight_pos = ps->tok.pos;
			a->weight = small_num(ps, "a weight");
			weight_given = true;
		} else if (is(ps, "major")) {
			if (!op_is_mma(a->op))
				diag_error(ps->d, kw.pos, "'major' is for the tensor cores' "
				           "operands wgmma.a, wgmma.b, umma.a and umma.b");
			if (a->major_given)
				diag_error(ps->d, kw.pos, "'major' given twice in access '%s'",
				           a->name);
			next(ps);
			if (is(ps, "k"))
				a->op.mn_major = false;
			else if (is(ps, "mn"))
				a->op.mn_major = true;
			else
				expected(ps, "'k' or 'mn' after 'major'");
			a->major_given = true;
			next(ps);
		} else if (is(ps, "cta_group")) {
			if (a->op.kind != OP_UMMA)
				diag_error(ps->d, kw.pos, "'cta_group' is for tcgen05.mma's "
				           "operands umma.a and umma.b");
			if (a->cta_group_given)
				diag_error(ps->d, kw.pos, "'cta_group' given twice in access "
				           "'%s'", a->name);
			next(ps);
			if (ps->tok.kind != T_NUM ||
			    (ps->tok.num != 1 && ps->tok.num != 2))
				expected(ps, "1 or 2 after 'cta_group' (one CTA's MMA, or a "
				         "CTA pair's)");
			a->op.cta_group = (int)ps->tok.num;
			a->cta_group_given = true;
			next(ps);
		} else {
			break;
		}
	}
	if (op_is_mma(a->op)) {
		/* the instruction reads the whole tile, core matrix by core
		 * matrix, through a descriptor: no lanes to describe */
		if (!a->major_given)
			expected(ps, "'major k' or 'major mn' (which dimension of the "
			         "operand is contiguous)");
		a->place = PL_MMA;
		expect(ps, T_SEMI);
		return;
	}
	if (is(ps, "along")) {
		next(ps);
		if (is(ps, "row"))
			a->place = PL_ROW;
		else if (is(ps, "col"))
			a->place = PL_COL;
		else
			expected(ps, "'row' or 'col' after 'along'");
		next(ps);
		expect(ps, T_SEMI);
	} else if (ps->tok.kind == T_LBRACE) {
		body(ps, a);
	} else {
		expected(ps, "'vec', 'weight', 'major', 'cta_group', 'along' or '{'");
	}
}

/* ---- tiles ----------------------------------------------------------------- */

static const char *const key_names[K_COUNT] = {
	[K_SHAPE] = "shape", [K_STAGES] = "stages", [K_DTYPE] = "dtype",
	[K_ARCH] = "arch", [K_ALLOW] = "allow", [K_BUDGET] = "budget",
	[K_ALIGN] = "align", [K_TMA] = "tma", [K_THREADS] = "threads",
	[K_TRADEOFF] = "tradeoff",
};

/* The names the tables know, for "did you mean" and the list of
 * choices: one source of truth. */
static const char *const *dtype_names(void)
{
	static const char *names[DT_COUNT + 1];
	for (int i = 0; i < DT_COUNT; i++)
		names[i] = tab_dtype[i].name;
	return names;
}

static const char *const *arch_names(void)
{
	static const char *names[ARCH_COUNT + 1];
	for (int i = 0; i < ARCH_COUNT; i++)
		names[i] = tab_arch[i].name;
	return names;
}

/* allow = "allow" ("none" | ("pad" | "skew" | "swap" | "swizzle")+) ";" */
static void allow(Parser *ps, Tile *t)
{
	static const char *const words[] = {"pad", "skew", "swap", "swizzle",
		"none", NULL};
	t->allow = 0;
	if (is(ps, "none")) {
		next(ps);
		expect(ps, T_SEMI);
		return;
	}
	do {
		if (ps->tok.kind != T_IDENT)
			expected(ps, "a transform (pad, skew, swap, swizzle or none)");
		unsigned bit;
		if (is(ps, "access") || is(ps, "tile"))
			expect(ps, T_SEMI);     /* "expected ';' after 'pad'" */
		for (int k = 0; t->allow && k < K_COUNT; k++)
			if (is(ps, key_names[k]))
				expect(ps, T_SEMI);
		if (is(ps, "none"))
			diag_error(ps->d, ps->tok.pos, "'none' cannot be combined with "
			           "other transforms");
		if (is(ps, "pad")) bit = XF_PAD;
		else if (is(ps, "skew")) bit = XF_SKEW;
		else if (is(ps, "swap")) bit = XF_SWAP;
		else if (is(ps, "swizzle")) bit = XF_SWIZZLE;
		else unknown(ps, "transform", words);
		if (t->allow & bit)
			diag_error(ps->d, ps->tok.pos, "transform '%.*s' listed twice",
			           (int)ps->tok.n, ps->tok.s);
		t->allow |= bit;
		next(ps);
	} while (ps->tok.kind != T_SEMI);
	next(ps);
}

/* item = "shape" NUM "x" NUM ";" | "stages" NUM ";" | "dtype" NAME ";"
 *      | "arch" NAME ";" | allow | "budget" NUM ["B" | "KiB"] ";"
 *      | "align" NUM ";" | "tma" ("yes" | "no" | "load" ["store"] | "store") ";"
 *      | "threads" NUM ";"
 *      | "tradeoff" NUM ";" */
static void item(Parser *ps, Tile *t)
{
	Tok kw = ps->tok;
	int k;
	for (k = 0; k < K_COUNT; k++)
		if (is(ps, key_names[k]))
			break;
	if (k == K_COUNT) {
		static const char *const words[] = {"shape", "stages", "dtype",
			"arch", "allow", "budget", "align", "tma", "threads", "tradeoff",
			"access", NULL};
		unknown(ps, "key", words);
	}
	if (t->given & (1u << k))
		diag_error(ps->d, kw.pos, "'%s' given twice in tile '%s' (first at "
		           "line %d)", key_names[k], t->name, t->key[k].line);
	t->given |= 1u << k;
	t->key[k] = kw.pos;
	next(ps);
	switch ((TileKey)k) {
	case K_SHAPE:
		/* "shape R x C;" or, one-dimensional, "shape N;" */
		t->key[k] = ps->tok.pos;
		t->rows = small_num(ps, "the number of rows");
		if (ps->tok.kind == T_SEMI) {
			t->len = t->cols = t->rows;
			t->rows = 1;
			break;
		}
		if (!is(ps, "x"))
			expected(ps, "'x' between rows and columns, or ';'");
		next(ps);
		t->cols = small_num(ps, "the number of columns");
		break;
	case K_STAGES:
		t->key[k] = ps->tok.pos;
		t->stages = small_num(ps, "the number of stages");
		break;
	case K_DTYPE: {
		t->key[k] = ps->tok.pos;
		if (ps->tok.kind != T_IDENT)
			expected(ps, "an element type");
		int dt = tab_find_dtype(ps->tok.s, ps->tok.n);
		if (dt < 0)
			unknown(ps, "element type", dtype_names());
		t->dtype = (Dtype)dt;
		next(ps);
		break;
	}
	case K_ARCH: {
		t->key[k] = ps->tok.pos;
		if (ps->tok.kind != T_IDENT)
			expected(ps, "an architecture");
		int ar = tab_find_arch(ps->tok.s, ps->tok.n);
		if (ar < 0)
			unknown(ps, "architecture", arch_names());
		t->arch = (Arch)ar;
		next(ps);
		break;
	}
	case K_ALLOW:
		allow(ps, t);
		return;
	case K_BUDGET: {
		t->key[k] = ps->tok.pos;
		int64_t v = expect_num(ps, "a size in bytes").num;
		if (is(ps, "KiB"))
			v *= 1024, next(ps);
		else if (is(ps, "B"))
			next(ps);
		else if (ps->tok.kind != T_SEMI)
			expected(ps, "'B', 'KiB' or ';' after the budget");
		t->budget = v;
		break;
	}
	case K_ALIGN:
		t->key[k] = ps->tok.pos;
		t->align = small_num(ps, "an alignment in bytes");
		break;
	case K_TMA:
		/* yes: the engine's load (global to shared), as on Hopper */
		if (is(ps, "yes") || is(ps, "load"))
			t->tma = TMA_LOAD;
		else if (is(ps, "no"))
			t->tma = 0;
		else if (is(ps, "store"))
			t->tma = TMA_STORE;
		else
			expected(ps, "'yes', 'no', 'load' or 'store'");
		next(ps);
		/* `load store`: the engine fills the tile and writes it back */
		if (t->tma == TMA_LOAD && is(ps, "store"))
			t->tma |= TMA_STORE, next(ps);
		break;
	case K_THREADS:
		t->key[k] = ps->tok.pos;
		t->threads = small_num(ps, "the number of threads per block");
		break;
	case K_TRADEOFF:
		t->key[k] = ps->tok.pos;
		t->tradeoff = small_num(ps, "bytes worth one wavefront");
		break;
	case K_COUNT:
		break;
	}
	expect(ps, T_SEMI);
}

static bool same_name(const char *s, Tok name)
{
	return strlen(s) == name.n && memcmp(s, name.s, name.n) == 0;
}

/* The tile that has a view of this name, if one has. */
static const Tile *view_named(const Unit *u, Tok name)
{
	for (int i = 0; i < u->ntiles; i++)
		for (int k = 0; k < u->tiles[i].nviews; k++)
			if (same_name(u->tiles[i].views[k].name, name))
				return &u->tiles[i];
	return NULL;
}

static int view_line(const Tile *t, Tok name)
{
	for (int k = 0; k < t->nviews; k++)
		if (same_name(t->views[k].name, name))
			return t->views[k].pos.line;
	return 0;
}

static void tile_stmt(Parser *ps, void *arg)
{
	Tile *t = arg;
	if (ps->tok.kind != T_IDENT)
		expected(ps, "a key or 'access'");
	if (is(ps, "access")) {
		next(ps);
		access(ps, t);
	} else {
		item(ps, t);
	}
}

/* tile = "tile" NAME "{" (item | "access" access)* "}" */
static void tile(Parser *ps, Unit *u, Tile *t)
{
	expect_word(ps, "tile");
	Tok name = expect_name(ps, "tile");
	if (memchr(name.s, '.', name.n))
		diag_error(ps->d, name.pos, "'%.*s' is not a valid tile name (no dots)",
		           (int)name.n, name.s);
	for (int i = 0; i < u->ntiles; i++)
		if (strlen(u->tiles[i].name) == name.n &&
		    memcmp(u->tiles[i].name, name.s, name.n) == 0)
			diag_error(ps->d, name.pos, "tile '%.*s' defined twice (first at "
			           "line %d)", (int)name.n, name.s, u->tiles[i].pos.line);
	const Tile *vt = view_named(u, name);
	if (vt)
		diag_error(ps->d, name.pos, "tile '%.*s' has the name of a view of "
		           "tile '%s' (line %d): tiles and views share their names "
		           "(and macros)", (int)name.n, name.s, vt->name,
		           view_line(vt, name));
	t->name = pool_strndup(ps->p, name.s, name.n);
	t->pos = name.pos;
	t->stages = 1;
	t->allow = XF_ALL;
	t->align = 16;
	t->acc = pool_alloc(ps->p, MAX_ACCESSES * sizeof *t->acc);
	/* in the unit from here on, errors or not: a later tile of the same
	 * name is still "defined twice", and a view of it still finds it */
	u->ntiles++;
	ps->cur = t;
	Tok open = expect(ps, T_LBRACE);
	while (ps->tok.kind != T_RBRACE) {
		if (ps->tok.kind == T_EOF)
			expected_close(ps, open);
		if (is(ps, "tile") || is(ps, "view"))
			expected_close(ps, open);
		guarded(ps, tile_stmt, t, false);
	}
	t->end = ps->tok.pos;
	next(ps);
}

typedef struct {
	Tile *t;
	View *v;
	bool shape;         /* 'shape' given */
} ViewState;

static void view_stmt(Parser *ps, void *arg)
{
	ViewState *st = arg;
	Tile *t = st->t;
	View *v = st->v;
	Tok kw = ps->tok;
	if (is(ps, "access")) {
		next(ps);
		access(ps, t);
		t->acc[t->nacc - 1].view = t->nviews + 1;
		return;
	}
	if (is(ps, "shape")) {
		if (st->shape)
			diag_error(ps->d, kw.pos, "'shape' given twice in view '%s'",
			           v->name);
		st->shape = true;
		next(ps);
		v->shape_pos = ps->tok.pos;
		v->rows = small_num(ps, "the number of rows");
		if (ps->tok.kind == T_SEMI) {
			v->len = v->cols = v->rows;
			v->rows = 1;
		} else {
			if (!is(ps, "x"))
				expected(ps, "'x' between rows and columns, or ';'");
			next(ps);
			v->cols = small_num(ps, "the number of columns");
		}
	} else if (is(ps, "dtype")) {
		if (v->dtype_given)
			diag_error(ps->d, kw.pos, "'dtype' given twice in view '%s'",
			           v->name);
		next(ps);
		v->dtype_pos = ps->tok.pos;
		if (ps->tok.kind != T_IDENT)
			expected(ps, "an element type");
		int dt = tab_find_dtype(ps->tok.s, ps->tok.n);
		if (dt < 0)
			unknown(ps, "element type", dtype_names());
		v->dtype = (Dtype)dt;
		v->dtype_given = true;
		next(ps);
	} else {
		static const char *const words[] = {"shape", "dtype", "access",
			NULL};
		if (ps->tok.kind != T_IDENT)
			expected(ps, "'shape', 'dtype', 'access' or '}'");
		unknown(ps, "key of a view", words);
	}
	expect(ps, T_SEMI);
}

/* view = "view" NAME "of" NAME "{" ("shape" NUM ["x" NUM] ";" |
 *        "dtype" NAME ";" | "access" access)* "}"
 * The tile must come before it in the file. */
static void view(Parser *ps, Unit *u)
{
	expect_word(ps, "view");
	Tok name = expect_name(ps, "view");
	expect_word(ps, "of");
	Tok of = expect(ps, T_IDENT);
	Tile *t = NULL;
	for (int i = 0; i < u->ntiles; i++)
		if (same_name(u->tiles[i].name, of))
			t = &u->tiles[i];
	if (!t) {
		const Tile *vt = view_named(u, of);
		if (vt)
			diag_error(ps->d, of.pos, "view '%.*s' is of '%.*s', which is "
			           "a view of tile '%s': a view is of a tile (view "
			           "%.*s of %s)", (int)name.n, name.s, (int)of.n, of.s,
			           vt->name, (int)name.n, name.s, vt->name);
		diag_error(ps->d, of.pos, "view '%.*s' is of tile '%.*s', which is "
		           "not defined before it in this file", (int)name.n, name.s,
		           (int)of.n, of.s);
	}
	/* tiles and views share one set of names: a header defines the
	 * macros of its tile and of the tile's views */
	for (int i = 0; i < u->ntiles; i++)
		if (same_name(u->tiles[i].name, name))
			diag_error(ps->d, name.pos, "view '%.*s' has the name of tile "
			           "'%s' (line %d): tiles and views share their names "
			           "(and macros)", (int)name.n, name.s, u->tiles[i].name,
			           u->tiles[i].pos.line);
	const Tile *vt = view_named(u, name);
	if (vt)
		diag_error(ps->d, name.pos, "tile '%s' has a view '%.*s' already "
		           "(line %d)", vt->name, (int)name.n, name.s,
		           view_line(vt, name));
	if (t->nviews == MAX_VIEWS)
		diag_error(ps->d, name.pos, "too many views of tile '%s' (limit %d)",
		           t->name, MAX_VIEWS);
	ps->cur = t;
	View *v = &t->views[t->nviews];
	memset(v, 0, sizeof *v);
	v->name = pool_strndup(ps->p, name.s, name.n);
	v->pos = name.pos;
	v->first = t->nacc;
	Tok open = expect(ps, T_LBRACE);
	ViewState st = {t, v, false};
	bool whole = true;
	while (ps->tok.kind != T_RBRACE) {
		if (ps->tok.kind == T_EOF)
			expected_close(ps, open);
		whole &= guarded(ps, view_stmt, &st, false);
	}
	next(ps);
	if (!whole)
		return;
	v->nacc = t->nacc - v->first;
	int before = ps->d->errors;
	if (!st.shape)
		diag_error_cont(ps->d, v->pos, "view '%s' has no 'shape'", v->name);
	else if (!v->nacc)
		diag_error_cont(ps->d, v->pos, "view '%s' has no accesses", v->name);
	if (ps->d->errors != before)
		t->broken = true;
	t->nviews++;
}

static void unit_item(Parser *ps, void *arg)
{
	(void)arg;
	Unit *u = ps->unit;
	if (is(ps, "view")) {
		view(ps, u);
		return;
	}
	if (!is(ps, "tile"))
		expected(ps, "'tile' or 'view'");
	if (u->ntiles == MAX_TILES)
		diag_error(ps->d, ps->tok.pos, "too many tiles in one file (limit %d)",
		           MAX_TILES);
	if (u->ntiles == ps->cap) {
		ps->cap = ps->cap ? 2 * ps->cap : 4;
		Tile *nt = pool_alloc(ps->p, (size_t)ps->cap * sizeof *nt);
		if (u->ntiles)
			memcpy(nt, u->tiles, (size_t)u->ntiles * sizeof *nt);
		u->tiles = nt;
	}
	Tile *t = &u->tiles[u->ntiles];
	memset(t, 0, sizeof *t);
	tile(ps, u, t);
}

/* unit = (tile | view)* EOF
 * Each tile and view is a statement of its own: an error in one is
 * reported and the next is parsed; a tile with an error is marked
 * broken and left unchecked. */
void parse_unit(Pool *p, Diag *d, Unit *u)
{
	Parser ps = {.p = p, .d = d, .unit = u};
	memset(u, 0, sizeof *u);
	u->src = d->src;
	lex_init(&ps.lx, d);
	while (!guarded(&ps, next_first, NULL, true))
		;
	while (ps.tok.kind != T_EOF) {
		ps.cur = NULL;
		guarded(&ps, unit_item, NULL, true);
	}
	if (u->ntiles == 0 && d->errors == 0)
		diag_error(d, ps.tok.pos, "no tiles in file");
}
