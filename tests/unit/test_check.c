/* Unit tests of the checker (compiler/front/check.c): expansion of accesses
 * into warp instructions, and the errors for what no layout can fix. */
#include "testutil.h"

#define TILE(body) "tile t { shape 32 x 32; dtype f32; arch sm_90; " body " }"

static void test_sweep_row(void **state)
{
	(void)state;
	Run *r = run("tile t { shape 4 x 16; dtype f32; arch sm_90; "
	             "access a: load vec 2 along row; }");
	assert_true(r->ok);
	Access *a = &r->unit.tiles[0].acc[0];
	assert_int_equal(a->ninst, 1);              /* 32 vectors, one warp */
	assert_int_equal(a->inst[0].mask, 0xffffffffu);
	assert_int_equal(a->inst[0].lane[9].row, 1);
	assert_int_equal(a->inst[0].lane[9].col, 2);
	run_free(r);
}

static void test_sweep_col_partial(void **state)
{
	(void)state;
	/* 40 rows down each 4-wide column: 320 vectors, 10 instructions,
	 * lanes walking down the rows first */
	Run *r = run("tile t { shape 40 x 32; dtype f32; arch sm_90; "
	             "access a: load vec 4 along col; }");
	assert_true(r->ok);
	Access *a = &r->unit.tiles[0].acc[0];
	assert_int_equal(a->ninst, 10);
	assert_int_equal(a->inst[1].lane[7].row, 39);
	assert_int_equal(a->inst[1].lane[7].col, 0);
	assert_int_equal(a->inst[1].lane[8].row, 0);
	assert_int_equal(a->inst[1].lane[8].col, 4);
	run_free(r);
	/* a partial last instruction */
	r = run("tile t { shape 3 x 16; dtype f32; arch sm_90; "
	        "access a: store along row; }");
	assert_true(r->ok);
	a = &r->unit.tiles[0].acc[0];
	assert_int_equal(a->ninst, 2);
	assert_int_equal(a->inst[1].mask, 0xffffu);
	run_free(r);
}

static void test_general_order_and_active(void **state)
{
	(void)state;
	Run *r = run(TILE("access a: load { for i in 0..2, j in 0..3; "
	                  "row = 10 * i + j; col = lane; active = lane % 2 == 0; }"));
	assert_true(r->ok);
	Access *a = &r->unit.tiles[0].acc[0];
	assert_int_equal(a->ninst, 6);
	assert_int_equal(a->inst[4].lane[0].row, 11);   /* i = 1, j = 1 */
	assert_int_equal(a->inst[0].mask, 0x55555555u);
	run_free(r);
}

static void test_matrix_lanes(void **state)
{
	(void)state;
	Run *r = run("tile t { shape 32 x 32; dtype f16; arch sm_80; "
	             "access a: ldmatrix.x2 { row = lane; col = 0; } }");
	assert_true(r->ok);
	Access *a = &r->unit.tiles[0].acc[0];
	assert_int_equal(a->inst[0].mask, 0xffffu);     /* .x2: lanes 0-15 */
	assert_int_equal(a->vec, 8);
	run_free(r);
}

static void test_tile_errors(void **state)
{
	(void)state;
	assert_error("tile t { dtype f32; arch sm_90; access a: load along row; }",
	             "t.tile:1:6: error: tile 't' has no 'shape'");
	assert_error("tile t { shape 0 x 32; dtype f32; arch sm_90; access a: load along row; }",
	             "t.tile:1:16: error: empty tile: shape 0 x 32");
	assert_error("tile t { shape 32 x 32; dtype f32; arch sm_90; }",
	             "t.tile:1:48: error: tile 't' has no accesses");
	assert_error("tile t { shape 256 x 128; dtype f32; arch sm_75; access a: load along row; }",
	             "t.tile:1:16: error: tile needs 131072 bytes of shared memory; sm_75 allows at most 65536 per block");
	assert_error(TILE("budget 1000; access a: load along row;"),
	             "t.tile:1:55: error: budget of 1000 bytes is less than the tile's own 4096 bytes");
	assert_error(TILE("align 24; access a: load along row;"),
	             "t.tile:1:54: error: alignment 24 must be a power of two from 4 (the element size) to 1024");
	assert_error(TILE("threads 100; access a: load along row;"),
	             "t.tile:1:56: error: threads per block must be a multiple of 32 from 32 to 1024, not 100");
	assert_error("tile t { shape 8 x 8; dtype f32; arch sm_80; tma yes; access a: load along row; }",
	             "t.tile:1:46: error: TMA needs sm_90 or later, not sm_80");
}

static void test_access_errors(void **state)
{
	(void)state;
	assert_error(TILE("access a: load { row = lane + 1; col = 0; }"),
	             "t.tile:1:71: error: access 'a' reaches row 32, outside the tile's rows 0..31 (lane 31)");
	assert_error(TILE("access a: load vec 4 { row = 0; col = 2; }"),
	             "t.tile:1:86: error: access 'a': column 2 is not a multiple of the vector width 4, so the vector is misaligned (lane 0)");
	assert_error(TILE("access a: load vec 3 along row;"),
	             "t.tile:1:67: error: load moves 1, 2, 4, 8 or 16 bytes per lane, not 12 (vec 3 of f32)");
	assert_error("tile t { shape 8 x 30; dtype f32; arch sm_90; access a: load vec 4 along row; }",
	             "t.tile:1:66: error: rows of 30 elements do not split into aligned vectors of 4");
	assert_error("tile t { shape 32 x 32; dtype f16; arch sm_70; access a: ldmatrix.x4 along row; }",
	             "t.tile:1:58: error: ldmatrix.x4 needs sm_75 or later, not sm_70");
	assert_error(TILE("access a: load { for i in 0..2; row = i / (lane - lane); col = 0; }"),
	             "t.tile:1:88: error: division by zero (lane 0, i = 0)");
	assert_error(TILE("access a: load { row = 65536 * 65536 * 65536 * 65536; col = 0; }"),
	             "t.tile:1:93: error: integer overflow (lane 0)");
	assert_error(TILE("access a: load { row = 1 << 63; col = 0; }"),
	             "t.tile:1:73: error: shift count not in 0..62 (lane 0)");
	assert_error(TILE("access a: load { row = 0; col = 0; active = 0; }"),
	             "t.tile:1:55: error: access 'a' has no active lane");
	assert_error("tile t { shape 32 x 32; dtype f16; arch sm_90; access a: ldmatrix.x4 vec 4 along row; }",
	             "t.tile:1:74: error: ldmatrix.x4 moves 16 bytes per row address: vec must be 8 for f16");
}

/* ?:, min, max, !, && and || as in C; the untaken side is not
 * evaluated for a lane (no division by zero from it). */
static void test_operators(void **state)
{
	(void)state;
	Run *r = run(TILE("access a: load { "
	                  "row = lane < 16 ? lane : 31 - (lane - 16); "
	                  "col = min(lane, 7) + max(0, lane - 30) + (!lane && 1) * 3 + "
	                  "(lane == 5 || 32 / (lane - 5) > 100) * 10; }"));
	assert_true(r->ok);
	Inst *in = &r->unit.tiles[0].acc[0].inst[0];
	assert_int_equal(in->lane[3].row, 3);
	assert_int_equal(in->lane[20].row, 27);
	assert_int_equal(in->lane[0].col, 3);       /* min 0, !0 && 1 */
	assert_int_equal(in->lane[5].col, 15);      /* 5 + || short-circuits */
	assert_int_equal(in->lane[31].col, 8);      /* 7 + max(0, 1) */
	run_free(r);
	r = run(TILE("access a: load { row = lane == 0 ? 0 : 31 / lane; col = 0; }"));
	assert_true(r->ok);
	assert_int_equal(r->unit.tiles[0].acc[0].inst[0].lane[2].row, 15);
	run_free(r);
	/* three arguments, nested conditions, right-associative ?: */
	r = run(TILE("access a: load { row = min(lane, 9, 4); "
	             "col = lane < 8 ? 1 : lane < 16 ? 2 : 3; }"));
	assert_true(r->ok);
	in = &r->unit.tiles[0].acc[0].inst[0];
	assert_int_equal(in->lane[31].row, 4);
	assert_int_equal(in->lane[9].col, 2);
	assert_int_equal(in->lane[17].col, 3);
	run_free(r);
}

/* Division and remainder truncate toward zero on every path the
 * evaluator takes: a power of two over non-negative values (shifts),
 * 32-bit values, 64-bit values, and INT32_MIN / -1, which overflows only
 * in 32 bits. */
static void test_division(void **state)
{
	(void)state;
	Run *r = run(TILE("access a: load { row = lane / 8 + lane % 8; "
	                  "col = (lane - 16) / 4 - (lane - 16) % 4 + 8; }"));
	assert_true(r->ok);
	Inst *in = &r->unit.tiles[0].acc[0].inst[0];
	assert_int_equal(in->lane[13].row, 1 + 5);
	assert_int_equal(in->lane[1].col, -3 + 3 + 8);      /* -15 / 4, -15 % 4 */
	assert_int_equal(in->lane[31].col, 3 - 3 + 8);
	run_free(r);
	r = run(TILE("access a: load { row = (lane - 7) / 3 + 2; "
	             "col = (lane + 2) % (0 - 5) + (lane - 12) % 7 + 6; }"));
	assert_true(r->ok);
	in = &r->unit.tiles[0].acc[0].inst[0];
	assert_int_equal(in->lane[0].row, 0);               /* -7 / 3 = -2 */
	assert_int_equal(in->lane[30].row, 9);
	assert_int_equal(in->lane[0].col, 2 + -5 + 6);      /* 2 % -5, -12 % 7 */
	assert_int_equal(in->lane[20].col, 2 + 1 + 6);
	run_free(r);
	r = run(TILE("access a: load { let big = 65536 * 65536; "
	             "let lo = lane - lane - 2147483647 - 1; "
	             "let w = (lane + 3 * big) / 3; let m = lo / (0 - 1) + lo % (0 - 1); "
	             "row = w - big; col = m - 2147483647 - 1 + lane % 4; }"));
	assert_true(r->ok);
	in = &r->unit.tiles[0].acc[0].inst[0];
	assert_int_equal(in->lane[31].row, 10);
	assert_int_equal(in->lane[7].col, 3);
	run_free(r);
}

/* let: named subexpressions, and lets that `active` needs. */
static void test_let(void **state)
{
	(void)state;
	Run *r = run(TILE("access a: load { for w in 0..2; let t = 32 * w + lane; "
	                  "let q = t / 8; row = q; col = t % 8; active = t < 40; }"));
	assert_true(r->ok);
	Access *a = &r->unit.tiles[0].acc[0];
	assert_int_equal(a->ninst, 2);
	assert_int_equal(a->inst[1].mask, 0xffu);   /* t = 32..39 */
	assert_int_equal(a->inst[1].lane[7].row, 4);
	assert_int_equal(a->inst[1].lane[7].col, 7);
	run_free(r);
	/* a let for active lanes only: lane 0 would divide by zero */
	r = run(TILE("access a: load { let k = 31 / lane; row = k; col = 0; "
	             "active = lane > 0; }"));
	assert_true(r->ok);
	run_free(r);
	assert_error(TILE("access a: load { row = k; let k = 1; col = 0; }"),
	             "t.tile:1:71: error: unknown variable 'k' (only 'lane' is defined; loop variables come from 'for', names from 'let')");
	assert_error(TILE("access a: load { let row = 1; row = 0; col = 0; }"),
	             "t.tile:1:69: error: 'row' is a word of the language and cannot name a let");
}

/* Ranges that depend on outer loop variables; per-instruction weight
 * (0 skips the instruction) and stage. */
static void test_ranges_weight_stage(void **state)
{
	(void)state;
	Run *r = run(TILE("access a: load { for i in 0..4, j in i..4; "
	                  "row = i; col = j; weight = j - i; }"));
	assert_true(r->ok);
	Access *a = &r->unit.tiles[0].acc[0];
	assert_int_equal(a->ninst, 6);              /* 10 pairs, 4 of weight 0 */
	assert_int_equal(a->inst[0].var[0], 0);
	assert_int_equal(a->inst[0].var[1], 1);
	assert_int_equal(a->inst[0].weight, 1);
	assert_int_equal(a->inst[2].weight, 3);     /* i = 0, j = 3 */
	run_free(r);
	/* a weight through lets: each instruction's own values, not the
	 * previous instruction's */
	r = run(TILE("access a: load { for i in 0..4; let k = i + 1; "
	             "let w = 2 * k; row = 0; col = lane; weight = w - 1; }"));
	assert_true(r->ok);
	a = &r->unit.tiles[0].acc[0];
	assert_int_equal(a->ninst, 4);
	for (int k = 0; k < 4; k++)
		assert_int_equal(a->inst[k].weight, 2 * (k + 1) - 1);
	run_free(r);
	r = run(TILE("access a: load { for i in 0..4; let k = 2 - i; row = 0; "
	             "col = lane; weight = k < 0 ? 0 : k; }"));
	assert_true(r->ok);
	a = &r->unit.tiles[0].acc[0];
	assert_int_equal(a->ninst, 2);              /* i = 0, 1 */
	assert_int_equal(a->inst[0].weight, 2);
	assert_int_equal(a->inst[1].weight, 1);
	run_free(r);
	r = run("tile t { shape 8 x 32; stages 3; dtype f32; arch sm_90; "
	        "access a: load { for s in 0..3; stage = s; row = 7; col = lane; } }");
	assert_true(r->ok);
	a = &r->unit.tiles[0].acc[0];
	assert_int_equal(a->inst[2].lane[0].row, 2 * 8 + 7);
	run_free(r);
	assert_error(TILE("access a: load { for i in 0..lane; row = 0; col = 0; }"),
	             "t.tile:1:77: error: a loop's range cannot depend on 'lane' (it is one per warp instruction)");
	assert_error(TILE("access a: load { for i in 0..4; row = 0; col = 0; weight = lane; }"),
	             "t.tile:1:98: error: 'weight' counts warp instructions: it cannot depend on 'lane'");
	assert_error(TILE("access a: load { for i in 0..4; row = 0; col = 0; weight = i - 2; }"),
	             "t.tile:1:107: error: weight -2 is negative (i = 0)");
	assert_error("tile t { shape 8 x 32; stages 2; dtype f32; arch sm_90; "
	             "access a: load { stage = lane; row = 0; col = 0; } }",
	             "t.tile:1:82: error: access 'a' reaches stage 2, outside the tile's stages 0..1 (lane 2)");
	assert_error(TILE("access a: load { for i in 0..4, j in 0..i; row = i; col = j; weight = 0; }"),
	             "t.tile:1:55: error: access 'a' has no active lane");
}

/* table NAME = {...}; and NAME[i]: addresses given lane by lane. */
static void test_tables(void **state)
{
	(void)state;
	Run *r = run(TILE("access a: load { for i in 0..2; "
	                  "table t = {5, -1, 7, 3}; row = t[2 * i + lane % 2]; col = lane; "
	                  "active = t[2 * i + lane % 2] >= 0; }"));
	assert_true(r->ok);
	Access *a = &r->unit.tiles[0].acc[0];
	assert_int_equal(a->inst[0].mask, 0x55555555u);
	assert_int_equal(a->inst[0].lane[0].row, 5);
	assert_int_equal(a->inst[1].lane[1].row, 3);
	run_free(r);
	assert_error(TILE("access a: load { table t = {1, 2}; row = t[lane]; col = 0; }"),
	             "t.tile:1:89: error: table index out of range (lane 2)");
	assert_error(TILE("access a: load { table t = {1}; row = t; col = 0; }"),
	             "t.tile:1:86: error: table 't' needs an index: 't[EXPR]'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sweep_row),
		cmocka_unit_test(test_sweep_col_partial),
		cmocka_unit_test(test_general_order_and_active),
		cmocka_unit_test(test_matrix_lanes),
		cmocka_unit_test(test_tile_errors),
		cmocka_unit_test(test_access_errors),
		cmocka_unit_test(test_operators),
		cmocka_unit_test(test_division),
		cmocka_unit_test(test_let),
		cmocka_unit_test(test_ranges_weight_stage),
		cmocka_unit_test(test_tables),
	};
	return cmocka_run_group_tests_name("checker", tests, NULL, NULL);
}
