/* Unit tests of scan's shared-memory correctness checks
 * (compiler/scan/scan_safety.c) on hand-written PTX: what is a race and
 * what orders it (a block barrier, a named barrier of both threads, a
 * __syncwarp of the whole warp), what bankc leaves out rather than guess
 * (atomics, two volatile accesses, a __syncwarp of part of the warp, an
 * access on an undecided side: a warning), accesses past their array or
 * into the next, misaligned ones, and barriers met at two places or never
 * completed.  tests/safety/ holds the same bugs in CUDA (make check-safety). */
#include "testutil.h"

#include "scan/scan.h"

typedef struct {
	int n[4];       /* findings per ScanFindingKind */
	int errors, warnings;
	ScanFinding first;
} Found;

/* Scan kernel 0 of the kernel body over a block of bx threads. */
static Found scan_body(const char *body, int bx, int64_t dyn)
{
	char text[4096];
	snprintf(text, sizeof text, ".version 8.6\n.target sm_90\n.address_size 64\n"
	         ".visible .entry k(.param .u64 k_param_0)\n{\n\t.reg .b32 %%r<16>;\n"
	         "\t.reg .b64 %%rd<8>;\n\t.reg .pred %%p<4>;\n"
	         "\t.shared .align 16 .b8 s[1024];\n\t.shared .align 16 .b8 t[64];\n"
	         "\tmov.u32 %%r1, %%tid.x;\n\tshl.b32 %%r2, %%r1, 2;\n\tmov.u32 %%r3, s;\n"
	         "\tadd.s32 %%r4, %%r3, %%r2;\n%s\tret;\n}\n", body);
	Pool *pool = pool_new();
	Src src = {"t.ptx", text, strlen(text)};
	char *diag = NULL;
	size_t dl = 0;
	FILE *f = open_memstream(&diag, &dl);
	Diag d = {.src = &src, .out = f};
	PtxModule m;
	bool ok = false;
	if (!setjmp(d.jb)) {
		ptx_read(pool, &d, &m);
		ok = true;
	}
	fclose(f);
	if (!ok)
		fail_msg("%s", diag);
	free(diag);
	InterpOpts o = {.block = {bx, 1, 1}, .max_steps = 1 << 22};
	ScanSafety *sf = scan_safety_new(&m, 0, &o, dyn);
	InterpSink also;
	scan_safety_sink(sf, &also);
	ScanOpts so = {false, sim_geom_default, true, &also};
	ScanKernel k;
	scan_kernel(&m, 0, &o, &so, &k);
	scan_safety_finish(sf, &k);
	Found r = {{0}, 0, 0, {0}};
	int n;
	const ScanFinding *x = scan_safety_findings(sf, &n);
	for (int i = 0; i < n; i++) {
		r.n[x[i].kind]++;
		r.errors += x[i].certain;
		r.warnings += !x[i].certain;
	}
	if (n)
		r.first = x[0];
	scan_kernel_free(&m, &k);
	scan_safety_free(sf);
	pool_free(pool);
	return r;
}

/* a store of the thread's word, then a load of thread (t ^ X)'s */
#define STORE_LOAD(x, between) \
	"\tst.shared.u32 [%r4], %r1;\n" between "\txor.b32 %r5, %r2, " #x ";\n" \
	"\tadd.s32 %r6, %r3, %r5;\n\tld.shared.u32 %r7, [%r6];\n"

static void test_race_across_warps(void **state)
{
	(void)state;
	Found f = scan_body(STORE_LOAD(128, ""), 64, -1);
	assert_int_equal(f.n[SF_RACE], 1);
	assert_int_equal(f.errors, 1);
	assert_int_not_equal(f.first.tid / 32, f.first.tid2 / 32);
	f = scan_body(STORE_LOAD(128, "\tbar.sync 0;\n"), 64, -1);
	assert_int_equal(f.n[SF_RACE], 0);
	/* a named barrier of both warps orders them too */
	f = scan_body(STORE_LOAD(128, "\tbar.sync 1, 64;\n"), 64, -1);
	assert_int_equal(f.n[SF_RACE], 0);
}

static void test_race_in_warp(void **state)
{
	(void)state;
	Found f = scan_body(STORE_LOAD(4, ""), 32, -1);
	assert_int_equal(f.n[SF_RACE], 1);
	assert_int_equal(f.errors, 1);
	f = scan_body(STORE_LOAD(4, "\tbar.warp.sync -1;\n"), 32, -1);
	assert_int_equal(f.n[SF_RACE], 0);
	/* a __syncwarp of part of the warp: not followed, not guessed */
	f = scan_body(STORE_LOAD(4, "\tbar.warp.sync 65535;\n"), 32, -1);
	assert_int_equal(f.n[SF_RACE], 0);
}

static void test_not_races(void **state)
{
	(void)state;
	/* atomics on one word */
	Found f = scan_body("\tatom.shared.add.u32 %r5, [%r3], 1;\n"
	                    "\tatom.shared.add.u32 %r6, [%r3], 2;\n", 64, -1);
	assert_int_equal(f.n[SF_RACE], 0);
	/* two volatile accesses */
	f = scan_body("\tst.volatile.shared.u32 [%r4], %r1;\n\txor.b32 %r5, %r2, 4;\n"
	              "\tadd.s32 %r6, %r3, %r5;\n\tld.volatile.shared.u32 %r7, [%r6];\n", 32, -1);
	assert_int_equal(f.n[SF_RACE], 0);
	/* one store's threads writing one word: a race only where the values
	 * differ, which bankc does not know */
	f = scan_body("\tst.shared.u32 [%r3], 1;\n", 64, -1);
	assert_int_equal(f.n[SF_RACE], 0);
	/* each thread its own word */
	f = scan_body("\tst.shared.u32 [%r4], %r1;\n\tld.shared.u32 %r7, [%r4];\n", 64, -1);
	assert_int_equal(f.n[SF_RACE] + f.n[SF_BOUNDS] + f.n[SF_ALIGN] + f.n[SF_BARRIER], 0);
}

/* A store whose running depends on data (a value loaded from global
 * memory): a warning, not an error. */
static void test_race_maybe(void **state)
{
	(void)state;
	Found f = scan_body("\tld.param.u64 %rd1, [k_param_0];\n\tcvta.to.global.u64 %rd2, %rd1;\n"
	                    "\tld.global.u32 %r8, [%rd2];\n\tsetp.ne.u32 %p1, %r8, 0;\n"
	                    "\t@%p1 st.shared.u32 [%r4], %r1;\n\txor.b32 %r5, %r2, 128;\n"
	                    "\tadd.s32 %r6, %r3, %r5;\n\tld.shared.u32 %r7, [%r6];\n", 64, -1);
	assert_int_equal(f.n[SF_RACE], 1);
	assert_int_equal(f.warnings, 1);
	assert_true(f.first.maybe);
}

static void test_bounds(void **state)
{
	(void)state;
	/* 256 threads of 4 bytes in s[1024]: inside */
	Found f = scan_body("\tst.shared.u32 [%r4], %r1;\n", 256, -1);
	assert_int_equal(f.n[SF_BOUNDS], 0);
	/* 272: past s's end, into t */
	f = scan_body("\tst.shared.u32 [%r4], %r1;\n", 272, -1);
	assert_int_equal(f.n[SF_BOUNDS], 1);
	assert_int_equal(f.first.offset, 1024);
	assert_int_equal(f.first.size, 1024);
	assert_true(f.first.sym2 >= 0);
	assert_true(f.first.certain);
}

static void test_align(void **state)
{
	(void)state;
	Found f = scan_body("\tst.shared.u32 [%r3+2], %r1;\n", 32, -1);
	assert_int_equal(f.n[SF_ALIGN], 1);
	assert_int_equal(f.first.width, 4);
	assert_int_equal(f.first.offset, 2);
	f = scan_body("\tshl.b32 %r5, %r1, 4;\n\tadd.s32 %r6, %r3, %r5;\n"
	              "\tld.shared.v4.u32 {%r7, %r8, %r9, %r10}, [%r6+8];\n", 32, -1);
	assert_int_equal(f.n[SF_ALIGN], 1);
	assert_int_equal(f.first.width, 16);
}

static void test_barriers(void **state)
{
	(void)state;
	/* warp 1 exits; warp 0 waits at a barrier of 64 threads: a hang */
	Found f = scan_body("\tsetp.ge.u32 %p1, %r1, 32;\n\t@%p1 bra $E;\n\tbar.sync 1, 64;\n$E:\n",
	                    64, -1);
	assert_int_equal(f.n[SF_BARRIER], 1);
	assert_true(f.first.hang);
	assert_true(f.first.certain);
	/* warp 0 meets __syncthreads at one place, warp 1 at another */
	f = scan_body("\tsetp.ge.u32 %p1, %r1, 32;\n\t@%p1 bra $B;\n\tbar.sync 0;\n\tbra $E;\n"
	              "$B:\n\tbar.sync 0;\n$E:\n", 64, -1);
	assert_int_equal(f.n[SF_BARRIER], 1);
	assert_false(f.first.hang);
	/* threads that return before a __syncthreads do not make it hang */
	f = scan_body("\tsetp.ge.u32 %p1, %r1, 32;\n\t@%p1 bra $E;\n\tbar.sync 0;\n$E:\n", 64, -1);
	assert_int_equal(f.n[SF_BARRIER], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_race_across_warps),
		cmocka_unit_test(test_race_in_warp),
		cmocka_unit_test(test_not_races),
		cmocka_unit_test(test_race_maybe),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_align),
		cmocka_unit_test(test_barriers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
