/* Unit tests of the parser (compiler/front/parse.c) and the canonical dump. */
#include "testutil.h"
#include "front/front.h"

static const char base[] =
	"tile t {\n"
	"    shape 16 x 64; stages 2; dtype f16; arch sm_80;\n"
	"    allow pad swap; budget 8 KiB; align 128; threads 128;\n"
	"    access a: load vec 8 weight 3 along col;\n"
	"    access b: ldmatrix.x2.trans {\n"
	"        for i in 0..2, j in 1..3;\n"
	"        row = (lane % 8) + 8 * i;\n"
	"        col = 8 * (j - 1) + 0x10 * 0;\n"
	"    }\n"
	"}\n";

static void test_fields(void **state)
{
	(void)state;
	Run *r = run(base);
	assert_true(r->ok);
	assert_int_equal(r->unit.ntiles, 1);
	Tile *t = &r->unit.tiles[0];
	assert_string_equal(t->name, "t");
	assert_int_equal(t->rows, 16);
	assert_int_equal(t->cols, 64);
	assert_int_equal(t->stages, 2);
	assert_int_equal(t->dtype, DT_F16);
	assert_int_equal(t->arch, ARCH_SM80);
	assert_int_equal(t->allow, XF_PAD | XF_SWAP);
	assert_int_equal(t->budget, 8192);
	assert_int_equal(t->align, 128);
	assert_int_equal(t->threads, 128);
	assert_int_equal(t->nacc, 2);
	assert_int_equal(t->acc[0].place, PL_COL);
	assert_int_equal(t->acc[0].vec, 8);
	assert_int_equal(t->acc[0].weight, 3);
	Access *b = &t->acc[1];
	assert_int_equal(b->op.kind, OP_LDMATRIX);
	assert_int_equal(b->op.nmat, 2);
	assert_true(b->op.trans);
	assert_int_equal(b->nloops, 2);
	assert_int_equal(b->loops[1].lo->num, 1);
	assert_int_equal(b->loops[1].hi->num, 3);
	assert_int_equal(b->vec, 8);                /* 16 bytes of f16 */
	run_free(r);
}

static void test_defaults(void **state)
{
	(void)state;
	Run *r = run("tile d { shape 4 x 32; dtype f32; arch sm_90; "
	             "access s: store along row; }");
	assert_true(r->ok);
	Tile *t = &r->unit.tiles[0];
	assert_int_equal(t->stages, 1);
	assert_int_equal(t->allow, XF_ALL);
	assert_int_equal(t->align, 16);
	assert_false(t->tma);
	assert_int_equal(t->acc[0].vec, 1);
	assert_int_equal(t->acc[0].weight, 1);
	run_free(r);
}

static char *dump_of(const Unit *u)
{
	char *buf;
	size_t n;
	FILE *m = open_memstream(&buf, &n);
	dump_text(m, u);
	fclose(m);
	return buf;
}

static void test_dump_round_trip(void **state)
{
	(void)state;
	Run *r = run(base);
	assert_true(r->ok);
	char *d1 = dump_of(&r->unit);
	Run *r2 = run(d1);
	assert_true(r2->ok);
	char *d2 = dump_of(&r2->unit);
	assert_string_equal(d1, d2);
	assert_non_null(strstr(d1, "row = lane % 8 + 8 * i;"));
	assert_non_null(strstr(d1, "col = 8 * (j - 1) + 16 * 0;"));
	assert_non_null(strstr(d1, "budget 8192;"));
	free(d1);
	free(d2);
	run_free(r);
	run_free(r2);
}

/* Parenthesise only where needed, and keep the tree. */
static void test_expr_print(void **state)
{
	(void)state;
	static const char *const cases[][2] = {
		{"lane - (lane - 1)", "lane - (lane - 1)"},
		{"(lane - 1) - 1", "lane - 1 - 1"},
		{"lane ^ (lane >> 3) & 7", "lane ^ lane >> 3 & 7"},
		{"(lane ^ 1) & 7", "(lane ^ 1) & 7"},
		{"-(lane + 1) * 2", "-(lane + 1) * 2"},
		{"~-lane | 0", "~-lane | 0"},
		{"lane < 16 == 1", "lane < 16 == 1"},
		{"lane / (2 * 2)", "lane / (2 * 2)"},
		/* "--" would read as C's decrement */
		{"-(-lane)", "-(-lane)"},
		{"- -lane", "-(-lane)"},
		{"-(-1)", "-(-1)"},
		{"lane - -1", "lane - -1"},
		{"~-(-lane)", "~-(-lane)"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char text[256];
		snprintf(text, sizeof text, "tile e { shape 64 x 32; dtype f32; "
		         "arch sm_90; access a: load { row = 0; col = 0; active = %s; } }",
		         cases[i][0]);
		Run *r = run(text);
		assert_true(r->ok);
		char *buf;
		size_t n;
		FILE *m = open_memstream(&buf, &n);
		expr_print(m, r->unit.tiles[0].acc[0].active, NULL);
		fclose(m);
		assert_string_equal(buf, cases[i][1]);
		free(buf);
		run_free(r);
	}
}

static void test_syntax_errors(void **state)
{
	(void)state;
	assert_error("tile t {\n shape 4 x 4;\n",
	             "t.tile:2:14: error: expected '}' to close '{' at line 1, found end of file");
	assert_error("tile t { shap 4 x 4; }",
	             "t.tile:1:10: error: unknown key 'shap' (did you mean 'shape'?)");
	assert_error("tile t { dtype f32; dtype f16; }",
	             "t.tile:1:21: error: 'dtype' given twice in tile 't' (first at line 1)");
	assert_error("tile t { dtype f33; }",
	             "t.tile:1:16: error: unknown element type 'f33' (did you mean 'f32'?)");
	assert_error("tile t { arch sm_91; }",
	             "t.tile:1:15: error: unknown architecture 'sm_91' (did you mean 'sm_90'?)");
	assert_error("tile t { shape 4 4; }",
	             "t.tile:1:18: error: expected 'x' between rows and columns, or ';', found '4'");
	assert_error("",
	             "t.tile:1:1: error: no tiles in file");
	assert_error("tile t { access a: load { row = (lane; } }",
	             "t.tile:1:38: error: expected ')' to close '(' at column 33, found ';'");
	assert_error("tile t { access a: load { for i in 0..4; row = k; } }",
	             "t.tile:1:48: error: unknown variable 'k' (defined: lane, i)");
	assert_error("tile t { access a: load { row = 1; for i in 0..4; } }",
	             "t.tile:1:36: error: 'for' must come before the other statements of an access");
	assert_error("tile t { access a: load { for lane in 0..4; } }",
	             "t.tile:1:31: error: 'lane' is the lane number and cannot be a loop variable");
	assert_error("tile t { access a: load { row = 0; } }",
	             "t.tile:1:36: error: access 'a' gives no 'col ='");
	assert_error("tile t { access a: lod along row; }",
	             "t.tile:1:20: error: unknown operation 'lod' (did you mean 'load'?)");
	assert_error("tile t { access a: load along diagonal; }",
	             "t.tile:1:31: error: expected 'row' or 'col' after 'along', found 'diagonal'");
	assert_error("tile t { } tile t { }",
	             "t.tile:1:17: error: tile 't' defined twice (first at line 1)");
}

static void test_depth_limit(void **state)
{
	(void)state;
	char text[1024];
	int k = snprintf(text, sizeof text, "tile t { access a: load { row = ");
	for (int i = 0; i < 70; i++)
		text[k++] = '(';
	text[k] = 0;
	Run *r = run(text);
	assert_false(r->ok);
	assert_non_null(strstr(r->diag, "expression nested too deeply (limit 64)"));
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_dump_round_trip),
		cmocka_unit_test(test_expr_print),
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_depth_limit),
	};
	return cmocka_run_group_tests_name("parser", tests, NULL, NULL);
}
