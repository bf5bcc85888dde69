/* The PTX reader's token cursor: the current token, one token of
 * lookahead, and the small readers every declaration and operand uses
 * (an expected token, an integer, a count within its limit), with the
 * errors they give. */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_reader.h"

void rd_next(Reader *r)
{
	if (r->have_peek) {
		r->tok = r->peek;
		r->have_peek = false;
	} else {
		r->tok = ptx_lex_next(&r->lx);
	}
}

PtxTok *rd_peek(Reader *r)
{
	if (!r->have_peek) {
		r->peek = ptx_lex_next(&r->lx);
		r->have_peek = true;
	}
	return &r->peek;
}

bool rd_tok_is(const PtxTok *t, const char *s)
{
	return strlen(s) == t->n && memcmp(t->s, s, t->n) == 0;
}

_Noreturn void rd_expected(Reader *r, const char *what)
{
	if (r->tok.kind == PT_EOF)
		diag_error(r->d, r->tok.pos, "expected %s before the end of the file", what);
	diag_error(r->d, r->tok.pos, "expected %s, found '%.*s'", what,
	           (int)(r->tok.n > 40 ? 40 : r->tok.n), r->tok.s);
}

void rd_expect(Reader *r, PtxTokKind k)
{
	if (r->tok.kind != k)
		rd_expected(r, ptx_tok_name(k));
	rd_next(r);
}

char *rd_dup_tok(Reader *r, const PtxTok *t)
{
	return pool_strndup(r->pool, t->s, t->n);
}

/* An integer, optionally negative. */
int64_t rd_integer(Reader *r)
{
	bool neg = false;
	if (r->tok.kind == PT_MINUS) {
		neg = true;
		rd_next(r);
	}
	if (r->tok.kind != PT_INT)
		rd_expected(r, "an integer");
	uint64_t v = r->tok.num;
	rd_next(r);
	return neg ? (int64_t)(0 - v) : (int64_t)v;
}

/* A count or size: a non-negative integer below `limit`. */
int64_t rd_count(Reader *r, int64_t limit, const char *what)
{
	PtxTok t = r->tok;
	int64_t v = rd_integer(r);
	if (v < 0 || v > limit)
		diag_error(r->d, t.pos, "%s %lld is out of range (0 to %lld)", what,
		           (long long)v, (long long)limit);
	return v;
}

/* Skip to the ';' that ends a statement, over balanced braces. */
void rd_skip_statement(Reader *r)
{
	int depth = 0;
	while (r->tok.kind != PT_EOF) {
		if (r->tok.kind == PT_LBRACE)
			depth++;
		else if (r->tok.kind == PT_RBRACE && depth > 0)
			depth--;
		else if (r->tok.kind == PT_SEMI && depth == 0) {
			rd_next(r);
			return;
		}
		rd_next(r);
	}
	rd_expected(r, "';'");
}

void rd_skip_braces(Reader *r)
{
	Pos open = r->tok.pos;
	rd_expect(r, PT_LBRACE);
	for (int depth = 1; depth > 0; rd_next(r)) {
		if (r->tok.kind == PT_EOF)
			diag_error(r->d, open, "'{' not closed");
		if (r->tok.kind == PT_LBRACE)
			depth++;
		else if (r->tok.kind == PT_RBRACE)
			depth--;
	}
}
