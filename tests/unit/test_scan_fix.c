/* Unit tests of bankc scan's arrays and fixes (compiler/scan/scan_array.c,
 * scan_fix.c): the source names of arrays, the arrays a kernel touched
 * with their element type and statements, and the proof that remaps
 * every recorded address under a layout and costs it again. */
#include "testutil.h"

#include "scan/scan.h"

/* A kernel of a 32 x 32 f32 array `tile` (after an 8-byte array `pre`, so
 * that its base is not 0): lane l stores row 0's element l, then loads
 * column 0's element of row l (a 32-way conflict). */
static const char kernel[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".visible .entry k()\n{\n\t.reg .b32 %r<8>;\n\t.reg .f32 %f<2>;\n"
	"\t.shared .align 4 .b8 _ZZ1kvE3pre[8];\n"
	"\t.shared .align 4 .b8 _ZZ1kvE4tile[4096];\n"
	"\tmov.u32 %r1, %tid.x;\n\tshl.b32 %r2, %r1, 2;\n\tmov.u32 %r3, _ZZ1kvE4tile;\n"
	"\tadd.s32 %r4, %r3, %r2;\n\tst.shared.f32 [%r4], %f1;\n"
	"\tshl.b32 %r5, %r1, 7;\n\tadd.s32 %r6, %r3, %r5;\n\tld.shared.f32 %f1, [%r6];\n"
	"\tret;\n}\n";

typedef struct {
	Pool *pool;
	Src src;
	PtxModule m;
	ScanKernel k;
	ScanArrays as;
	ScanCtx c;
} Fx;

static Fx *scan_fx(void)
{
	Fx *x = calloc(1, sizeof *x);
	x->pool = pool_new();
	x->src = (Src){"t.ptx", strdup(kernel), strlen(kernel)};
	Diag d = {.src = &x->src, .out = stderr};
	if (setjmp(d.jb))
		fail_msg("the test's PTX does not read");
	ptx_read(x->pool, &d, &x->m);
	InterpOpts ro = {.block = {32, 1, 1}, .max_steps = 1 << 20};
	ScanOpts so = {true, sim_geom_default, true, NULL};
	scan_kernel(&x->m, 0, &ro, &so, &x->k);
	assert_true(x->k.complete);
	x->c = (ScanCtx){"t.ptx", NULL, &ro, sim_geom_default, NULL, NULL};
	scan_arrays_find(&x->m, &x->k, &x->c, &x->as);
	x->c.arrays = &x->as;
	return x;
}

static void fx_free(Fx *x)
{
	scan_arrays_free(&x->as);
	scan_kernel_free(&x->m, &x->k);
	pool_free(x->pool);
	free((char *)x->src.text);
	free(x);
}

static void test_array_name(void **state)
{
	(void)state;
	char b[64];
	scan_array_name("_ZZ15transpose_naivePKfPfE4tile", b, sizeof b);
	assert_string_equal(b, "tile");
	scan_array_name("_ZZ1kvE3pre", b, sizeof b);
	assert_string_equal(b, "pre");
	scan_array_name("smem", b, sizeof b);         /* not mangled */
	assert_string_equal(b, "smem");
	scan_array_name("_ZZ1kvE9ab", b, sizeof b);   /* a length past the end */
	assert_string_equal(b, "_ZZ1kvE9ab");
}

static void test_arrays_found(void **state)
{
	(void)state;
	Fx *x = scan_fx();
	assert_int_equal(x->as.n, 1);       /* pre is never touched */
	const ScanArray *a = &x->as.a[0];
	assert_string_equal(a->name, "tile");
	assert_string_equal(a->kernel, "k");
	assert_int_equal(a->base, x->m.sym[a->sym].addr);
	assert_true(a->base >= 8);                      /* after pre */
	assert_int_equal(a->bytes, 4096);
	assert_int_equal(a->elem, 4);
	assert_int_equal(a->dtype, DT_F32);             /* from st/ld.shared.f32 */
	assert_false(a->view_decl);                     /* no source: 128-byte rows */
	assert_int_equal(a->rows, 32);
	assert_int_equal(a->cols, 32);
	assert_true(a->whole);
	assert_int_equal(a->nstmt, 2);                  /* no .loc: one per line */
	assert_int_equal(a->wave, 1 + 32);
	assert_int_equal(a->ideal, 2);
	assert_string_equal(a->stmt[0].op, "store");
	assert_string_equal(a->stmt[1].op, "load");
	assert_ptr_equal(scan_array_of_slot(&x->as, a->slot[1]), a);
	char label[128];
	scan_fix_label(&x->c, &x->k.acc[a->slot[0]], label, sizeof label);
	assert_string_equal(label, " of 'tile' (k)");
	fx_free(x);
}

/* The proof, under layouts of the array's 32 x 32 view. */
static void test_prove(void **state)
{
	(void)state;
	Fx *x = scan_fx();
	ScanArray *a = &x->as.a[0];
	Run *r = run("tile t { shape 32 x 32; dtype f32; arch sm_90;\n"
	             "access a: load along col; }\n");
	assert_true(r->ok);
	const Tile *t = &r->unit.tiles[0];
	Layout rm = layout_rowmajor(t);
	const Geom *g = &sim_geom_default;
	/* row-major: what the scan counted */
	assert_int_equal(scan_fix_prove(&x->m, &x->k, a, g, &rm, t), 33);
	assert_int_equal(a->stmt[0].after, 1);
	assert_int_equal(a->stmt[1].after, 32);
	/* a pad of one: the column read is conflict-free */
	Layout pad = layout_base(t, L_PAD, false);
	pad.pitch = 33;
	assert_int_equal(scan_fix_prove(&x->m, &x->k, a, g, &pad, t), 2);
	assert_int_equal(a->stmt[1].after, 1);
	/* a pad of 32 words keeps the conflict */
	pad.pitch = 64;
	assert_int_equal(scan_fix_prove(&x->m, &x->k, a, g, &pad, t), 33);
	/* Swizzle<5,2,5>: column c of row r at c ^ r */
	Layout sw = layout_base(t, L_SWIZZLE, false);
	sw.B = 5, sw.M = 2, sw.S = 5;
	assert_int_equal(scan_fix_prove(&x->m, &x->k, a, g, &sw, t), 2);
	/* the axis swap turns the conflict onto the store */
	Layout swap = layout_base(t, L_ROWMAJOR, true);
	assert_int_equal(scan_fix_prove(&x->m, &x->k, a, g, &swap, t), 33);
	assert_int_equal(a->stmt[0].after, 32);
	assert_int_equal(a->stmt[1].after, 1);
	run_free(r);
	fx_free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_array_name),
		cmocka_unit_test(test_arrays_found),
		cmocka_unit_test(test_prove),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
