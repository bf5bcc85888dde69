/* Unit tests of the block's scheduler (compiler/ptx/ptx_sched.c) and of
 * the costing that follows it (compiler/scan/scan_cost.c): threads in
 * lockstep by barrier interval, barriers with and without counts, arrivals
 * without waiting, a block that would hang, threads that end while others
 * wait, pauses after a chunk of accesses, barriers on the sides of
 * branches bankc cannot decide, warps run in groups, and the warp
 * instructions each interval makes. */
#include "testutil.h"

#include "scan/scan.h"

/* ---- helpers ------------------------------------------------------------------ */

typedef struct {
	Pool *pool;
	Src src;
	PtxModule m;
	bool ok;
} Ptx;

static Ptx *ptx(const char *text)
{
	Ptx *p = calloc(1, sizeof *p);
	p->pool = pool_new();
	size_t len = strlen(text);
	char *copy = malloc(len + 1);
	memcpy(copy, text, len + 1);
	p->src = (Src){"t.ptx", copy, len};
	char *diag = NULL;
	size_t dl = 0;
	FILE *f = open_memstream(&diag, &dl);
	Diag d = {.src = &p->src, .out = f};
	if (!setjmp(d.jb)) {
		ptx_read(p->pool, &d, &p->m);
		p->ok = true;
	}
	fclose(f);
	if (!p->ok)
		fail_msg("%s", diag);
	free(diag);
	return p;
}

static void ptx_free(Ptx *p)
{
	free((char *)p->src.text);
	pool_free(p->pool);
	free(p);
}

#define HEAD ".version 8.6\n.target sm_90\n.address_size 64\n"

/* What a run told its consumer. */
typedef struct {
	Interp *r;
	int accesses;
	int64_t max_interval;
	int paused;             /* warp_paused calls */
	int intervals;          /* interval_end calls */
	InterpInterval iv[16];
	int syncs, in_fork;
	int waiting_seen;       /* threads interp_waiting saw at interval ends */
	int gone;               /* threads released, as InterpInterval.go says */
	uint32_t max_occ;
	uint32_t floors[8];     /* lane 0's floor of slot 0 at each warp_paused */
	int nfloors;
} Log;

static void on_access(void *ctx, const InterpAccess *a)
{
	Log *g = ctx;
	g->accesses++;
	if (a->interval > g->max_interval)
		g->max_interval = a->interval;
	if (a->rec->occ > g->max_occ)
		g->max_occ = a->rec->occ;
}

static void on_paused(void *ctx, int w)
{
	Log *g = ctx;
	g->paused++;
	if (w == 0 && g->nfloors < 8)
		g->floors[g->nfloors++] = interp_floor(g->r, 0, 0);
}

static void on_sync(void *ctx, const InterpSync *s)
{
	Log *g = ctx;
	g->syncs++;
	g->in_fork += s->in_fork;
}

static void on_interval(void *ctx, const InterpInterval *iv)
{
	Log *g = ctx;
	if (g->intervals < 16)
		g->iv[g->intervals] = *iv;
	g->intervals++;
	for (int tid = iv->first_tid; tid < iv->first_tid + iv->ntids; tid++) {
		int inst, id, count;
		bool w = interp_waiting(g->r, tid, &inst, &id, &count);
		g->waiting_seen += w;
		g->gone += iv->go && iv->go[tid - iv->first_tid];
		/* only a waiting thread is released */
		if (iv->go && iv->go[tid - iv->first_tid] && !w)
			fail_msg("thread %d released without waiting", tid);
	}
}

/* Run kernel 0 of text over a block of bx threads, logging (keep: its
 * group_warps). */
static void run_block(const char *text, int bx, Log *g, Interp *keep)
{
	Ptx *p = ptx(text);
	InterpOpts o = {.block = {bx, 1, 1}, .max_steps = 1 << 24};
	Interp r;
	interp_init(&r, &p->m, 0, &o);
	memset(g, 0, sizeof *g);
	g->r = &r;
	InterpSink sink = {g, on_access, on_paused, on_sync, on_interval};
	interp_run(&r, &sink);
	for (int tid = 0; tid < bx; tid++)
		assert_int_equal(r.stop[tid].kind, STOP_NONE);
	if (keep)
		keep->group_warps = r.group_warps;
	interp_free(&r);
	ptx_free(p);
}

/* Scan kernel 0 of text over a block of bx threads. */
static void scan_block(const char *text, int bx, ScanKernel *k, Ptx **pp)
{
	Ptx *p = ptx(text);
	InterpOpts o = {.block = {bx, 1, 1}, .max_steps = 1 << 24};
	ScanOpts so = {true, sim_geom_default, true, NULL};
	scan_kernel(&p->m, 0, &o, &so, k);
	*pp = p;
}

/* ---- barriers ------------------------------------------------------------------- */

/* Three trips of a store and a barrier: each barrier ends an interval of
 * every thread, the counts start again from 0, and the end of the block
 * is one more. */
static void test_intervals(void **state)
{
	(void)state;
	Log g;
	run_block(HEAD ".visible .entry k()\n{\n\t.reg .b32 %r<6>;\n\t.reg .pred %p<2>;\n"
	          "\t.shared .align 4 .b8 s[1024];\n\tmov.u32 %r1, %tid.x;\n\tshl.b32 %r2, %r1, 2;\n"
	          "\tmov.u32 %r3, s;\n\tadd.s32 %r3, %r3, %r2;\n\tmov.u32 %r4, 0;\n$L:\n"
	          "\tst.shared.u32 [%r3], %r1;\n\tbar.sync 0;\n\tadd.u32 %r4, %r4, 1;\n"
	          "\tsetp.lt.u32 %p1, %r4, 3;\n\t@%p1 bra $L;\n\tret;\n}\n", 64, &g, NULL);
	assert_int_equal(g.accesses, 3 * 64);
	assert_int_equal(g.max_interval, 2);
	assert_int_equal(g.max_occ, 0);     /* each interval counts from 0 */
	assert_int_equal(g.intervals, 4);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(g.iv[i].released, 64);
		assert_int_equal(g.iv[i].waiting, 64);
		assert_false(g.iv[i].deadlock);
	}
	assert_int_equal(g.iv[3].waiting, 0);
	assert_int_equal(g.iv[3].ended, 64);
	assert_int_equal(g.waiting_seen, 3 * 64);
	assert_int_equal(g.gone, 3 * 64);
	assert_int_equal(g.syncs, 3 * 64);
}

/* Named barriers with counts: warps 0 and 1 at barrier 1 of 64 threads,
 * warps 2 and 3 at barrier 2 of 64: both complete at once. */
static void test_named(void **state)
{
	(void)state;
	Log g;
	run_block(HEAD ".visible .entry k()\n{\n\t.reg .b32 %r<6>;\n\t.reg .pred %p<2>;\n"
	          "\t.shared .align 4 .b8 s[1024];\n\tmov.u32 %r1, %tid.x;\n"
	          "\tsetp.lt.u32 %p1, %r1, 64;\n\t@%p1 bar.sync 1, 64;\n\t@!%p1 barrier.sync 2, 64;\n"
	          "\tshl.b32 %r2, %r1, 2;\n\tmov.u32 %r3, s;\n\tadd.s32 %r3, %r3, %r2;\n"
	          "\tst.shared.u32 [%r3], %r1;\n\tret;\n}\n", 128, &g, NULL);
	assert_int_equal(g.intervals, 2);
	assert_int_equal(g.iv[0].released, 128);
	assert_false(g.iv[0].deadlock);
	assert_int_equal(g.max_interval, 1);
}

/* Producers arrive (bar.arrive) and go on; consumers wait until the
 * barrier's 128 threads have arrived. */
static void test_arrive(void **state)
{
	(void)state;
	Log g;
	run_block(HEAD ".visible .entry k()\n{\n\t.reg .b32 %r<6>;\n\t.reg .pred %p<2>;\n"
	          "\t.shared .align 4 .b8 s[1024];\n\tmov.u32 %r1, %tid.x;\n"
	          "\tshl.b32 %r2, %r1, 2;\n\tmov.u32 %r3, s;\n\tadd.s32 %r3, %r3, %r2;\n"
	          "\tsetp.lt.u32 %p1, %r1, 64;\n\t@%p1 bra $C;\n"
	          "\tst.shared.u32 [%r3], %r1;\n\tbar.arrive 1, 128;\n\tret;\n"
	          "$C:\n\tbar.sync 1, 128;\n\tld.shared.u32 %r4, [%r3];\n\tret;\n}\n", 128, &g, NULL);
	assert_int_equal(g.intervals, 2);
	assert_int_equal(g.iv[0].waiting, 64);
	assert_int_equal(g.iv[0].ended, 64);
	assert_int_equal(g.iv[0].released, 64);
	assert_false(g.iv[0].deadlock);
	assert_int_equal(g.accesses, 128);
}

/* A barrier of 64 threads that only warp 0 reaches (warp 1 exits): the
 * block would hang; the scheduler says so and goes on. */
static void test_deadlock(void **state)
{
	(void)state;
	Log g;
	run_block(HEAD ".visible .entry k()\n{\n\t.reg .b32 %r<6>;\n\t.reg .pred %p<2>;\n"
	          "\t.shared .align 4 .b8 s[1024];\n\tmov.u32 %r1, %tid.x;\n"
	          "\tsetp.ge.u32 %p1, %r1, 32;\n\t@%p1 exit;\n\tbar.sync 1, 64;\n"
	          "\tshl.b32 %r2, %r1, 2;\n\tmov.u32 %r3, s;\n\tadd.s32 %r3, %r3, %r2;\n"
	          "\tst.shared.u32 [%r3], %r1;\n\tret;\n}\n", 64, &g, NULL);
	assert_int_equal(g.intervals, 2);
	assert_true(g.iv[0].deadlock);
	assert_int_equal(g.iv[0].released, 32);
	assert_int_equal(g.iv[0].ended, 32);
	assert_int_equal(g.gone, 32);
	assert_int_equal(g.accesses, 32);
}

/* __syncthreads after some threads returned: it completes with the
 * threads that are left. */
static void test_exited(void **state)
{
	(void)state;
	Log g;
	run_block(HEAD ".visible .entry k()\n{\n\t.reg .b32 %r<6>;\n\t.reg .pred %p<2>;\n"
	          "\t.shared .align 4 .b8 s[1024];\n\tmov.u32 %r1, %tid.x;\n"
	          "\tsetp.ge.u32 %p1, %r1, 40;\n\t@%p1 ret;\n\tbar.sync 0;\n"
	          "\tshl.b32 %r2, %r1, 2;\n\tmov.u32 %r3, s;\n\tadd.s32 %r3, %r3, %r2;\n"
	          "\tst.shared.u32 [%r3], %r1;\n\tret;\n}\n", 96, &g, NULL);
	assert_int_equal(g.intervals, 2);
	assert_false(g.iv[0].deadlock);
	assert_int_equal(g.iv[0].released, 40);
	assert_int_equal(g.iv[0].ended, 56);
	assert_int_equal(g.accesses, 40);
}

/* A barrier on a side of a branch bankc cannot decide is passed, not
 * waited at (the thread runs both sides first): no hang. */
static void test_fork_barrier(void **state)
{
	(void)state;
	Log g;
	run_block(HEAD ".visible .entry k(.param .u64 k_param_0)\n{\n\t.reg .b32 %r<6>;\n"
	          "\t.reg .b64 %rd<4>;\n\t.reg .pred %p<2>;\n\t.shared .align 4 .b8 s[1024];\n"
	          "\tld.param.u64 %rd1, [k_param_0];\n\tld.global.u32 %r5, [%rd1];\n"
	          "\tmov.u32 %r1, %tid.x;\n\tsetp.eq.u32 %p1, %r5, 0;\n\t@%p1 bra $L;\n"
	          "\tbar.sync 0;\n$L:\n\tbar.sync 0;\n\tshl.b32 %r2, %r1, 2;\n\tmov.u32 %r3, s;\n"
	          "\tadd.s32 %r3, %r3, %r2;\n\tst.shared.u32 [%r3], %r1;\n\tret;\n}\n", 64, &g,
	          NULL);
	assert_int_equal(g.in_fork, 64);
	assert_int_equal(g.syncs, 128);
	assert_int_equal(g.intervals, 2);
	assert_false(g.iv[0].deadlock);
	assert_int_equal(g.iv[0].released, 64);
}

/* ---- chunks ----------------------------------------------------------------------- */

/* 10000 stores of one warp: each lane pauses after every INTERP_CHUNK
 * accesses, the warp's instructions costed as every lane passes them;
 * lane 0 stands at 4096, 8192, 10000 (its end: no floor). */
static void test_chunks(void **state)
{
	(void)state;
	Log g;
	assert_int_equal(INTERP_CHUNK, 4096);
	run_block(HEAD ".visible .entry k()\n{\n\t.reg .b32 %r<6>;\n\t.reg .pred %p<2>;\n"
	          "\t.shared .align 4 .b8 s[1024];\n\tmov.u32 %r1, %tid.x;\n\tshl.b32 %r2, %r1, 2;\n"
	          "\tmov.u32 %r3, s;\n\tadd.s32 %r3, %r3, %r2;\n\tmov.u32 %r4, 0;\n$L:\n"
	          "\tst.shared.u32 [%r3], %r1;\n\tadd.u32 %r4, %r4, 1;\n"
	          "\tsetp.lt.u32 %p1, %r4, 10000;\n\t@%p1 bra $L;\n\tret;\n}\n", 32, &g, NULL);
	assert_int_equal(g.accesses, 10000 * 32);
	assert_int_equal(g.paused, 3);
	assert_int_equal(g.nfloors, 3);
	assert_int_equal(g.floors[0], INTERP_CHUNK);
	assert_int_equal(g.floors[1], 2 * INTERP_CHUNK);
	assert_int_equal(g.floors[2], UINT32_MAX);
	assert_int_equal(g.max_occ, 9999);
}

/* Lanes that pause at different places: lane l makes 100 (l + 1) stores,
 * each to its own word; the n-th of every lane that makes one is one warp
 * instruction, however the chunks fall: 3200 instructions of
 * 32, 31, ..., 1 lanes, one wavefront each. */
static void test_chunks_apart(void **state)
{
	(void)state;
	ScanKernel k;
	Ptx *p;
	scan_block(HEAD ".visible .entry k()\n{\n\t.reg .b32 %r<8>;\n\t.reg .pred %p<2>;\n"
	           "\t.shared .align 4 .b8 s[1024];\n\tmov.u32 %r1, %tid.x;\n\tshl.b32 %r2, %r1, 2;\n"
	           "\tmov.u32 %r3, s;\n\tadd.s32 %r3, %r3, %r2;\n\tmov.u32 %r4, 0;\n"
	           "\tadd.u32 %r5, %r1, 1;\n\tmul.lo.u32 %r5, %r5, 100;\n$L:\n"
	           "\tst.shared.u32 [%r3], %r1;\n\tadd.u32 %r4, %r4, 1;\n"
	           "\tsetp.lt.u32 %p1, %r4, %r5;\n\t@%p1 bra $L;\n\tret;\n}\n", 32, &k, &p);
	assert_true(k.complete);
	assert_int_equal(k.acc[0].count, 3200);
	assert_int_equal(k.acc[0].wave, 3200);
	/* its distinct warp instructions: one per number of lanes, each run
	 * 100 times, in the order they first ran */
	assert_int_equal(k.acc[0].nkept, 32);
	assert_int_equal(k.acc[0].kept, 3200);
	for (int j = 0; j < 32; j++) {
		assert_int_equal(k.acc[0].kcount[j], 100);
		assert_int_equal(k.acc[0].masks[j], (uint32_t)(0xffffffffull << j));
	}
	scan_kernel_free(&p->m, &k);
	ptx_free(p);
}

/* Lanes that store at different barrier intervals do not share a warp
 * instruction: trip i's store runs in lanes 0..i only, and each interval
 * is its own (the hardware's too). */
static void test_interval_instructions(void **state)
{
	(void)state;
	ScanKernel k;
	Ptx *p;
	scan_block(HEAD ".visible .entry k()\n{\n\t.reg .b32 %r<8>;\n\t.reg .pred %p<3>;\n"
	           "\t.shared .align 4 .b8 s[1024];\n\tmov.u32 %r1, %tid.x;\n\tshl.b32 %r2, %r1, 2;\n"
	           "\tmov.u32 %r3, s;\n\tadd.s32 %r3, %r3, %r2;\n\tmov.u32 %r4, 0;\n$L:\n"
	           "\tsetp.le.u32 %p2, %r1, %r4;\n\t@%p2 st.shared.u32 [%r3], %r1;\n"
	           "\tbar.sync 0;\n\tadd.u32 %r4, %r4, 1;\n"
	           "\tsetp.lt.u32 %p1, %r4, 4;\n\t@%p1 bra $L;\n\tret;\n}\n", 32, &k, &p);
	assert_true(k.complete);
	assert_int_equal(k.acc[0].count, 4);
	assert_int_equal(k.acc[0].nkept, 4);
	for (int j = 0; j < 4; j++)
		assert_int_equal(k.acc[0].masks[j], (1u << (j + 1)) - 1);
	scan_kernel_free(&p->m, &k);
	ptx_free(p);
}

/* ---- groups of warps ------------------------------------------------------------------ */

/* A kernel whose threads hold 9000 registers each: 1024 threads need
 * more than INTERP_STATE_BUDGET together, so its warps run in groups, one
 * after the other, each barrier completing within its group; the costs
 * are the same. */
static void test_groups(void **state)
{
	(void)state;
	size_t cap = 1 << 20, n = 0;
	char *text = malloc(cap);
	n += (size_t)snprintf(text + n, cap - n, HEAD ".visible .entry k()\n{\n"
	                      "\t.reg .b32 %%r<9000>;\n\t.shared .align 4 .b8 s[4096];\n"
	                      "\tmov.u32 %%r1, %%tid.x;\n\tand.b32 %%r1, %%r1, 31;\n");
	for (int i = 2; i < 9000; i++)
		n += (size_t)snprintf(text + n, cap - n, "\tmov.u32 %%r%d, %d;\n", i, i);
	n += (size_t)snprintf(text + n, cap - n, "\tshl.b32 %%r2, %%r1, 2;\n\tmov.u32 %%r3, s;\n"
	                      "\tadd.s32 %%r3, %%r3, %%r2;\n\tst.shared.u32 [%%r3], %%r1;\n"
	                      "\tbar.sync 0;\n\tld.shared.u32 %%r4, [%%r3+128];\n\tret;\n}\n");
	Log g;
	Interp kept = {0};
	run_block(text, 1024, &g, &kept);
	assert_true(kept.group_warps < 32);
	int groups = (32 + kept.group_warps - 1) / kept.group_warps;
	/* each group: one interval at its barrier, one at its end */
	assert_int_equal(g.intervals, 2 * groups);
	for (int i = 0; i < 2 * groups && i < 16; i += 2) {
		assert_false(g.iv[i].deadlock);
		assert_int_equal(g.iv[i].first_tid, i / 2 * kept.group_warps * 32);
	}
	ScanKernel k;
	Ptx *p;
	scan_block(text, 1024, &k, &p);
	assert_true(k.complete);
	assert_int_equal(k.acc[0].count, 32);
	assert_int_equal(k.acc[0].wave, 32);
	assert_int_equal(k.acc[1].count, 32);
	scan_kernel_free(&p->m, &k);
	ptx_free(p);
	free(text);
}

/* ---- another consumer ------------------------------------------------------------ */

/* What a check of races would read (ScanOpts.also): each access with its
 * thread, instruction and interval.  Thread t stores s[t], then (with or
 * without a barrier between) loads s[t ^ 1]: without it, a load and
 * another thread's store of one word share an interval. */
typedef struct {
	int tid;
	int64_t interval;
	uint32_t addr;
	bool store;
} Seen;

typedef struct {
	const PtxModule *m;
	int n;
	Seen a[256];
	int intervals, syncs;
} Check;

static void check_access(void *ctx, const InterpAccess *e)
{
	Check *k = ctx;
	if (k->n < 256)
		k->a[k->n++] = (Seen){e->tid, e->interval, e->rec->addr,
		                                  k->m->inst[e->inst].op.kind == PO_ST};
}

static void check_sync(void *ctx, const InterpSync *e)
{
	(void)e;
	((Check *)ctx)->syncs++;
}

static void check_interval(void *ctx, const InterpInterval *iv)
{
	(void)iv;
	((Check *)ctx)->intervals++;
}

/* Pairs of a store and another thread's load of one word in one interval. */
static int shared_intervals(bool barrier)
{
	char text[2048];
	snprintf(text, sizeof text, HEAD ".visible .entry k()\n{\n\t.reg .b32 %%r<8>;\n"
	         "\t.shared .align 4 .b8 s[1024];\n\tmov.u32 %%r1, %%tid.x;\n"
	         "\tshl.b32 %%r2, %%r1, 2;\n\tmov.u32 %%r3, s;\n\tadd.s32 %%r4, %%r3, %%r2;\n"
	         "\tst.shared.u32 [%%r4], %%r1;\n%s\txor.b32 %%r5, %%r2, 4;\n"
	         "\tadd.s32 %%r6, %%r3, %%r5;\n\tld.shared.u32 %%r7, [%%r6];\n\tret;\n}\n",
	         barrier ? "\tbar.sync 0;\n" : "");
	Ptx *p = ptx(text);
	Check k = {.m = &p->m};
	InterpSink also = {&k, check_access, NULL, check_sync, check_interval};
	InterpOpts o = {.block = {64, 1, 1}, .max_steps = 1 << 20};
	ScanOpts so = {true, sim_geom_default, true, &also};
	ScanKernel sk;
	scan_kernel(&p->m, 0, &o, &so, &sk);
	assert_true(sk.complete);
	assert_int_equal(sk.acc[0].count + sk.acc[1].count, 4);
	assert_int_equal(k.n, 128);
	assert_int_equal(k.syncs, barrier ? 64 : 0);
	assert_int_equal(k.intervals, barrier ? 2 : 1);
	int pairs = 0;
	for (int i = 0; i < k.n; i++)
		for (int j = 0; j < k.n; j++)
			pairs += k.a[i].store && !k.a[j].store && k.a[i].tid != k.a[j].tid &&
			         k.a[i].addr == k.a[j].addr && k.a[i].interval == k.a[j].interval;
	scan_kernel_free(&p->m, &sk);
	ptx_free(p);
	return pairs;
}

static void test_also(void **state)
{
	(void)state;
	assert_int_equal(shared_intervals(false), 64);
	assert_int_equal(shared_intervals(true), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intervals),
		cmocka_unit_test(test_named),
		cmocka_unit_test(test_arrive),
		cmocka_unit_test(test_deadlock),
		cmocka_unit_test(test_exited),
		cmocka_unit_test(test_fork_barrier),
		cmocka_unit_test(test_chunks),
		cmocka_unit_test(test_chunks_apart),
		cmocka_unit_test(test_interval_instructions),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_also),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
