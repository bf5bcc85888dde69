/* Unit tests of the bank model (compiler/model/sim.c): every measured row of
 * the committed tables, hand-worked cases, and properties the rules
 * imply for any pattern. */
#include "testutil.h"
#include "cmd/cmd.h"

static const Op LOAD = {.kind = OP_LOAD}, STORE = {.kind = OP_STORE};

static SimResult sim(const Geom *g, Op op, int bytes, uint32_t mask,
                     const int64_t *addr)
{
	SimResult r;
	const char *err = NULL;
	assert_true(sim_inst(g, op, bytes, mask, addr, &r, &err));
	return r;
}

/* Every row of a measured table must be predicted exactly. */
static void check_table(const char *path, int min_rows)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int rows = 0, lineno = 0;
	while ((len = getline(&line, &cap, f)) != -1) {
		lineno++;
		SimRow row;
		const char *err;
		int k = sim_parse_row(line, (size_t)len, &row, &err);
		if (k == 1)
			continue;
		if (k < 0)
			fail_msg("%s:%d: %s", path, lineno, err);
		assert_true(row.measured >= 0);
		SimResult r = sim(&sim_geom_default, row.op, row.width, row.mask,
		                  row.addr);
		if (r.counted != row.measured)
			fail_msg("%s:%d: %s: predicted %d, measured %ld", path, lineno,
			         row.name, r.counted, row.measured);
		rows++;
	}
	free(line);
	fclose(f);
	assert_true(rows >= min_rows);
}

static void test_table_sm90(void **state)
{
	(void)state;
	check_table("tests/data/sm90_wavefronts.tsv", 113);
}

static void test_table_probe(void **state)
{
	(void)state;
	check_table("tests/data/probe_h200.tsv", 200);
}

/* Shared atomics, measured on the H200: every native atomic row. */
static void test_table_atomics(void **state)
{
	(void)state;
	check_table("tests/data/probe_h200_atom.tsv", 100);
}

static void fill(int64_t *a, int64_t base, int64_t stride)
{
	for (int i = 0; i < WARP; i++)
		a[i] = base + i * stride;
}

static void test_hand_cases(void **state)
{
	(void)state;
	int64_t a[WARP];
	const Geom *g = &sim_geom_default;
	fill(a, 0, 128);                            /* a column of f32 */
	SimResult r = sim(g, LOAD, 4, ~0u, a);
	assert_int_equal(r.wavefronts, 32);
	assert_int_equal(r.ideal, 1);
	assert_int_equal(r.phase[0].bank, 0);
	fill(a, 0, 132);                            /* padded by one */
	assert_int_equal(sim(g, LOAD, 4, ~0u, a).wavefronts, 1);
	assert_int_equal(sim(g, LOAD, 4, 0, a).wavefronts, 0);     /* no lane */
	fill(a, 0, 16);                             /* float4 row: 4 phases */
	r = sim(g, LOAD, 16, ~0u, a);
	assert_int_equal(r.nphase, 4);
	assert_int_equal(r.wavefronts, 4);
	/* Kepler's 8-byte banks: doubles down a 33-double pitch */
	Geom k8 = {32, 8, true};
	fill(a, 0, 8 * 33);
	r = sim(&k8, LOAD, 8, ~0u, a);
	assert_int_equal(r.nphase, 1);
	assert_int_equal(r.wavefronts, 1);
	fill(a, 0, 8 * 32);
	assert_int_equal(sim(&k8, LOAD, 8, ~0u, a).wavefronts, 32);
	/* cp.async: 128-byte segments, invisible to the counters */
	fill(a, 0, 144);
	r = sim(g, (Op){.kind = OP_CPASYNC}, 16, ~0u, a);
	assert_int_equal(r.wavefronts, 32);
	assert_int_equal(r.counted, 0);
	/* rule 4 can be switched off for other hardware */
	Geom nm = {32, 4, false};
	for (int i = 0; i < WARP; i++)
		a[i] = 0;
	assert_int_equal(sim(&nm, LOAD, 16, ~0u, a).wavefronts, 4);
	assert_int_equal(sim(g, LOAD, 16, ~0u, a).wavefronts, 2);
}

/* The atomic rules by hand: lanes on one address are not merged, each
 * lane counts in its bank; compare-and-swap counts twice; 8-byte CAS in
 * two phases of 16 lanes; widths other than 4 (8 for CAS) refused. */
static void test_atomic_rules(void **state)
{
	(void)state;
	const Geom *g = &sim_geom_default;
	Op atom = {.kind = OP_ATOM, .aop = AOP_ADD};
	Op cas = {.kind = OP_ATOM, .aop = AOP_CAS};
	int64_t a[WARP];
	fill(a, 0, 0);                              /* one address */
	assert_int_equal(sim(g, atom, 4, 0xffffffffu, a).wavefronts, 32);
	assert_int_equal(sim(g, LOAD, 4, 0xffffffffu, a).wavefronts, 1);
	fill(a, 0, 4);
	assert_int_equal(sim(g, atom, 4, 0xffffffffu, a).wavefronts, 1);
	assert_int_equal(sim(g, cas, 4, 0xffffffffu, a).wavefronts, 2);
	for (int n = 0; n < WARP; n++)
		a[n] = (n / 4) * 4;                     /* 4 lanes a word */
	assert_int_equal(sim(g, atom, 4, 0xffffffffu, a).wavefronts, 4);
	fill(a, 0, 8);
	SimResult r = sim(g, cas, 8, 0xffffffffu, a);
	assert_int_equal(r.nphase, 2);
	assert_int_equal(r.wavefronts, 4);
	assert_int_equal(r.ideal, 4);
	const char *err;
	assert_false(sim_inst(g, atom, 8, 0xffffffffu, a, &r, &err));
	assert_false(sim_inst(g, atom, 2, 0xffffffffu, a, &r, &err));
}

static void test_rejects(void **state)
{
	(void)state;
	int64_t a[WARP];
	SimResult r;
	const char *err = NULL;
	fill(a, 4, 16);
	assert_false(sim_inst(&sim_geom_default, LOAD, 16, ~0u, a, &r, &err));
	assert_string_equal(err, "address not aligned to the access width");
	assert_false(sim_inst(&sim_geom_default, LOAD, 12, ~0u, a, &r, &err));
	fill(a, 0, 4);
	a[3] = -4;
	assert_false(sim_inst(&sim_geom_default, STORE, 4, ~0u, a, &r, &err));
	a[3] = 0;
	assert_true(sim_inst(&sim_geom_default, STORE, 4, ~0u & ~8u, a, &r, &err));
}

/* splitmix64: the properties run on fixed pseudo-random patterns */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static const int widths[] = {1, 2, 4, 8, 16};

static void random_pattern(int w, int64_t *a, uint32_t *mask)
{
	int64_t span = (rnd() % 3 == 0) ? 512 : 4096;
	for (int i = 0; i < WARP; i++)
		a[i] = (int64_t)(rnd() % (uint64_t)(span / w)) * w;
	*mask = rnd() % 4 ? 0xffffffffu : (uint32_t)rnd();
}

/* Permuting lanes inside a phase cannot change its cost: a phase is a
 * set of words.  For loads that merge pairs, swapping whole pairs keeps
 * the pairs; so test stores of every width and loads with merging off. */
static void test_prop_permute(void **state)
{
	(void)state;
	Geom nm = {32, 4, false};
	for (int it = 0; it < 3000; it++) {
		int w = widths[it % 5];
		bool store = it % 2;
		const Geom *g = store ? &sim_geom_default : &nm;
		Op op = store ? STORE : LOAD;
		int64_t a[WARP], b[WARP];
		uint32_t mask, mb = 0;
		random_pattern(w, a, &mask);
		int per = w <= 4 ? 32 : 128 / w;
		int perm[WARP];
		for (int i = 0; i < WARP; i++)
			perm[i] = i;
		for (int p0 = 0; p0 < WARP; p0 += per)
			for (int i = per - 1; i > 0; i--) {
				int j = (int)(rnd() % (uint64_t)(i + 1));
				int t = perm[p0 + i];
				perm[p0 + i] = perm[p0 + j];
				perm[p0 + j] = t;
			}
		for (int i = 0; i < WARP; i++) {
			b[perm[i]] = a[i];
			mb |= (mask >> i & 1u) << perm[i];
		}
		SimResult ra = sim(g, op, w, mask, a), rb = sim(g, op, w, mb, b);
		assert_int_equal(ra.wavefronts, rb.wavefronts);
		assert_int_equal(ra.ideal, rb.ideal);
	}
}

/* Renaming banks: adding the same multiple of 4 bytes (and of the width)
 * to every address changes no answer, merged loads included. */
static void test_prop_shift(void **state)
{
	(void)state;
	for (int it = 0; it < 3000; it++) {
		int w = widths[it % 5];
		Op op = it % 3 ? LOAD : STORE;
		int64_t a[WARP], b[WARP];
		uint32_t mask;
		random_pattern(w, a, &mask);
		int64_t unit = w < 4 ? 4 : w;
		int64_t shift = (int64_t)(rnd() % 64) * unit;
		for (int i = 0; i < WARP; i++)
			b[i] = a[i] + shift;
		SimResult ra = sim(&sim_geom_default, op, w, mask, a);
		SimResult rb = sim(&sim_geom_default, op, w, mask, b);
		assert_int_equal(ra.wavefronts, rb.wavefronts);
		assert_int_equal(ra.ideal, rb.ideal);
		assert_int_equal(ra.merged, rb.merged);
	}
}

/* Duplicating an address: when lane m takes lane n's address in the same
 * phase, the phase loses m's words and gains none, so the cost cannot
 * rise and the ideal stays; a whole warp on one address is one wavefront
 * per phase (rule 3, broadcast), and for loads merging halves the phases
 * of wide accesses (rule 4) while stores keep them (rule 5). */
static void test_prop_duplicate(void **state)
{
	(void)state;
	Geom nm = {32, 4, false};
	for (int it = 0; it < 3000; it++) {
		int w = widths[it % 5];
		Op op = it % 2 ? LOAD : STORE;
		int64_t a[WARP];
		uint32_t mask;
		random_pattern(w, a, &mask);
		mask = 0xffffffffu;
		int per = w <= 4 ? 32 : 128 / w;
		int n = (int)(rnd() % WARP);
		int m = (n / per) * per + (int)(rnd() % (uint64_t)per);
		SimResult before = sim(&nm, op, w, mask, a);
		a[m] = a[n];
		SimResult after = sim(&nm, op, w, mask, a);
		assert_true(after.wavefronts <= before.wavefronts);
		assert_int_equal(after.ideal, before.ideal);
	}
	for (int wi = 0; wi < 5; wi++) {
		int w = widths[wi];
		int64_t a[WARP];
		fill(a, 256, 0);
		int phases = w <= 4 ? 1 : w / 4;
		assert_int_equal(sim(&sim_geom_default, STORE, w, ~0u, a).wavefronts,
		                 phases);
		assert_int_equal(sim(&sim_geom_default, LOAD, w, ~0u, a).wavefronts,
		                 w <= 4 ? 1 : phases / 2);
	}
}

/* cp.async's segments and its ideal, against counting them pair by pair:
 * random destinations of every width, shared ones and masks. */
static void test_cpasync_segments(void **state)
{
	(void)state;
	const Geom *g = &sim_geom_default;
	for (int it = 0; it < 2000; it++) {
		int bytes = 4 << (rnd() % 3);
		int span = 1 << (4 + rnd() % 9);        /* 16 B .. 4 KiB */
		uint32_t mask = rnd() % 4 ? 0xffffffffu : (uint32_t)rnd() | 1;
		int64_t a[WARP];
		for (int n = 0; n < WARP; n++)
			a[n] = rnd() % 3 == 0 && n ? a[rnd() % n]
			                           : (int64_t)(rnd() % (uint32_t)span) / bytes * bytes;
		int segs = 0, distinct = 0;
		for (int n = 0; n < WARP; n++) {
			if (!(mask >> n & 1))
				continue;
			int seen = 0, same = 0;
			for (int m = 0; m < n; m++)
				if (mask >> m & 1) {
					seen |= a[m] / 128 == a[n] / 128;
					same |= a[m] == a[n];
				}
			segs += !seen;
			distinct += !same;
		}
		SimResult r = sim(g, (Op){.kind = OP_CPASYNC}, bytes, mask, a);
		assert_int_equal(r.wavefronts, segs);
		assert_int_equal(r.ideal, (distinct * bytes + 127) / 128);
		assert_int_equal(r.counted, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_sm90),
		cmocka_unit_test(test_table_probe),
		cmocka_unit_test(test_table_atomics),
		cmocka_unit_test(test_atomic_rules),
		cmocka_unit_test(test_hand_cases),
		cmocka_unit_test(test_rejects),
		cmocka_unit_test(test_prop_permute),
		cmocka_unit_test(test_prop_shift),
		cmocka_unit_test(test_prop_duplicate),
		cmocka_unit_test(test_cpasync_segments),
	};
	return cmocka_run_group_tests_name("simulator", tests, NULL, NULL);
}
