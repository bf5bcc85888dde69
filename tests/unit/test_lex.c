/* Unit tests of the lexer (compiler/front/lex.re). */
#include "testutil.h"
#include "front/front.h"

typedef struct {
	Tok tok[64];
	int n;
	char *diag;
	size_t dlen;
	bool ok;
} Lexed;

static void lex_text(const char *text, size_t len, Lexed *out)
{
	char *copy = malloc(len + 1);
	memcpy(copy, text, len);
	copy[len] = 0;
	Src src = {"t.tile", copy, len};
	FILE *m = open_memstream(&out->diag, &out->dlen);
	Diag d = {.src = &src, .out = m};
	Lexer lx;
	out->n = 0;
	out->ok = false;
	if (!setjmp(d.jb)) {
		lex_init(&lx, &d);
		do
			out->tok[out->n++] = lex_next(&lx);
		while (out->tok[out->n - 1].kind != T_EOF && out->n < 64);
		out->ok = true;
	}
	fclose(m);
	free(copy);
}

static void done(Lexed *l)
{
	free(l->diag);
}

static void test_kinds(void **state)
{
	(void)state;
	Lexed l;
	const char *s = "tile a.b { 0..8 0x1F; } ( ) : , = + - * / % << >> & ^ | ~ < <= > >= == !=";
	lex_text(s, strlen(s), &l);
	assert_true(l.ok);
	TokKind want[] = {T_IDENT, T_IDENT, T_LBRACE, T_NUM, T_DOTDOT, T_NUM,
		T_NUM, T_SEMI, T_RBRACE, T_LPAREN, T_RPAREN, T_COLON, T_COMMA,
		T_ASSIGN, T_PLUS, T_MINUS, T_STAR, T_SLASH, T_PERCENT, T_SHL, T_SHR,
		T_AMP, T_CARET, T_PIPE, T_TILDE, T_LT, T_LE, T_GT, T_GE, T_EQ, T_NE,
		T_EOF};
	assert_int_equal(l.n, sizeof want / sizeof *want);
	for (int i = 0; i < l.n; i++)
		assert_int_equal(l.tok[i].kind, want[i]);
	assert_int_equal(l.tok[1].n, 3);            /* a.b is one name */
	assert_int_equal(l.tok[3].num, 0);
	assert_int_equal(l.tok[5].num, 8);
	assert_int_equal(l.tok[6].num, 31);
	done(&l);
}

static void test_dotted_ops(void **state)
{
	(void)state;
	Lexed l;
	const char *s = "ldmatrix.x4.trans cp.async sm_90";
	lex_text(s, strlen(s), &l);
	assert_true(l.ok);
	assert_int_equal(l.n, 4);
	assert_int_equal(l.tok[0].n, strlen("ldmatrix.x4.trans"));
	assert_int_equal(l.tok[1].n, strlen("cp.async"));
	assert_int_equal(l.tok[2].n, strlen("sm_90"));
	done(&l);
}

static void test_positions_and_comments(void **state)
{
	(void)state;
	Lexed l;
	const char *s = "# comment\r\n  a // more\r\n\tb";
	lex_text(s, strlen(s), &l);
	assert_true(l.ok);
	assert_int_equal(l.n, 3);
	assert_int_equal(l.tok[0].pos.line, 2);
	assert_int_equal(l.tok[0].pos.col, 3);
	assert_int_equal(l.tok[1].pos.line, 3);
	assert_int_equal(l.tok[1].pos.col, 2);
	done(&l);
}

static void test_nul_byte(void **state)
{
	(void)state;
	Lexed l;
	lex_text("a\0b", 3, &l);
	assert_false(l.ok);
	assert_non_null(strstr(l.diag, "t.tile:1:2: error: null character in file"));
	done(&l);
}

static void test_number_errors(void **state)
{
	(void)state;
	Lexed l;
	lex_text("32x32", 5, &l);
	assert_false(l.ok);
	assert_non_null(strstr(l.diag, "invalid suffix 'x32' on number '32'"));
	done(&l);
	lex_text("0x1fg", 5, &l);
	assert_false(l.ok);
	assert_non_null(strstr(l.diag, "invalid suffix 'g' on number '0x1f'"));
	done(&l);
	lex_text("2147483648", 10, &l);
	assert_false(l.ok);
	assert_non_null(strstr(l.diag, "is too large"));
	done(&l);
	lex_text("2147483647", 10, &l);
	assert_true(l.ok);
	assert_int_equal(l.tok[0].num, 2147483647);
	done(&l);
}

static void test_bad_chars(void **state)
{
	(void)state;
	Lexed l;
	lex_text("a @", 3, &l);
	assert_false(l.ok);
	assert_non_null(strstr(l.diag, "1:3: error: unexpected character '@'"));
	done(&l);
	lex_text("\xc3\xa9", 2, &l);
	assert_false(l.ok);
	assert_non_null(strstr(l.diag, "unexpected byte 0xc3"));
	done(&l);
	lex_text("# caf\xc3\xa9\nx", 9, &l);       /* bytes in comments are fine */
	assert_true(l.ok);
	done(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_dotted_ops),
		cmocka_unit_test(test_positions_and_comments),
		cmocka_unit_test(test_nul_byte),
		cmocka_unit_test(test_number_errors),
		cmocka_unit_test(test_bad_chars),
	};
	return cmocka_run_group_tests_name("lexer", tests, NULL, NULL);
}
