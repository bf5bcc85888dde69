/* Unit tests of the solver (compiler/solve/) and the baselines: the
 * seeds' answers, agreement with a search that prunes nothing, and the
 * lower bound holding for every layout costed. */
#include "model/model.h"
#include "testutil.h"
#include "solve/solve.h"

static const Geom *geom = &sim_geom_default;

static Solution solve(const Tile *t, int top, bool exhaustive)
{
	SolveOpts o = {.top = top, .exhaustive = exhaustive};
	Solution s;
	solve_tile(t, geom, &o, &s);
	return s;
}

static Tile *tile_named(Run *r, const char *name)
{
	for (int i = 0; i < r->unit.ntiles; i++)
		if (strcmp(r->unit.tiles[i].name, name) == 0)
			return &r->unit.tiles[i];
	fail_msg("no tile %s", name);
	return NULL;
}

static Run *run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	static char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	Run *r = run_n(buf, n);
	assert_true(r->ok);
	return r;
}

/* The seed: a 32 x 32 f32 tile read down columns takes 1 wavefront per
 * instruction; row-major takes 32. */
static void test_transpose_seed(void **state)
{
	(void)state;
	Run *r = run_file("specs/seeds.tile");
	Tile *t = tile_named(r, "transpose_f32");
	Solution s = solve(t, 1, false);
	assert_true(s.found);
	assert_int_equal(s.lower_bound, 64);
	assert_int_equal(s.best.wave, 64);
	assert_int_equal(s.best.acc_wave[1], 32);           /* drain */
	assert_int_equal(s.best.bytes, 4096);               /* no padding */
	Baseline b[MAX_BASELINES];
	int nb = baseline_all(t, &sim_geom_default, s.budget, b);
	assert_int_equal(nb, 3);
	assert_int_equal(b[0].c.acc_wave[1], 1024);         /* row-major */
	assert_int_equal(b[1].c.wave, 64);                  /* pad by one */
	assert_int_equal(b[1].c.bytes, 4224);
	assert_int_equal(b[2].c.acc_wave[1], 128);          /* CuTe SW128 */
	solve_free(&s);
	run_free(r);
}

/* float4 read down columns: conflict-free, and not "pad by one" (which
 * cannot hold 16-byte vectors). */
static void test_float4_columns(void **state)
{
	(void)state;
	Run *r = run_file("specs/transpose.tile");
	Tile *t = tile_named(r, "col_float4");
	Solution s = solve(t, 1, false);
	assert_int_equal(s.best.wave, s.lower_bound);
	assert_false(s.best.l.kind == L_PAD && s.best.l.pitch == t->cols + 1);
	const char *why;
	assert_true(layout_legal(&s.best.l, t, s.budget, &why));
	Baseline b[MAX_BASELINES];
	baseline_all(t, &sim_geom_default, s.budget, b);
	assert_false(b[1].legal);                           /* pad by one */
	solve_free(&s);
	run_free(r);
}

/* Bytes down columns with 16-byte vectors: the plain bound (1 per phase)
 * is out of reach; the alignment-aware one is 4 and is met. */
static void test_aligned_bound(void **state)
{
	(void)state;
	Run *r = run_file("specs/transpose.tile");
	Tile *t = tile_named(r, "transpose_i8");
	Solution s = solve(t, 1, false);
	assert_int_equal(s.acc_ideal[1], 128);
	assert_int_equal(s.acc_bound[1], 512);
	assert_int_equal(s.best.acc_wave[1], 512);
	assert_int_equal(s.best.wave, s.aligned_bound);
	solve_free(&s);
	run_free(r);
}

static void test_tma_and_occupancy(void **state)
{
	(void)state;
	Run *r = run_file("specs/gemm.tile");
	Tile *t = tile_named(r, "tma_b_bf16");
	Solution s = solve(t, 1, false);
	assert_int_equal(s.best.l.kind, L_SWIZZLE);
	assert_int_equal(s.best.l.B, 3);
	assert_int_equal(s.best.l.M, 4);
	assert_int_equal(s.best.l.S, 3);
	assert_int_equal(s.best.wave, s.lower_bound);
	solve_free(&s);
	/* sm_90: 233472 bytes per SM, 1024 reserved per block, at most 32 */
	assert_int_equal(solve_blocks(t, 8192), 25);
	assert_int_equal(solve_blocks(t, 4096), 32);
	assert_int_equal(solve_blocks(t, 300000), 0);
	t = tile_named(r, "gemm_a_f16");                    /* 128 threads */
	assert_int_equal(solve_blocks(t, 1024), 16);
	run_free(r);
}

/* The objective's own keys must come out the same with and without
 * pruning: the same layout, the same cost. */
static void agree(const Tile *t)
{
	Solution full = solve(t, 1, true);
	Solution fast = solve(t, 1, false);
	Solution ranked = solve(t, 4, false);
	assert_true(full.found);
	assert_int_equal(full.best.wave, fast.best.wave);
	assert_int_equal(full.best.bytes, fast.best.bytes);
	assert_int_equal(full.best.arith, fast.best.arith);
	assert_int_equal(full.best.order, fast.best.order);
	assert_int_equal(full.best.order, ranked.best.order);
	assert_true(full.best.wave >= full.aligned_bound);
	assert_true(full.aligned_bound >= full.lower_bound);
	/* an independent recount of the chosen layout */
	Cand c;
	solve_cost(solution_tile(&fast, t), geom, &fast.best.l, &c);
	assert_int_equal(c.wave, fast.best.wave);
	solve_free(&full);
	solve_free(&fast);
	solve_free(&ranked);
}

static void test_bruteforce_specs(void **state)
{
	(void)state;
	static const char *const files[] = {"specs/seeds.tile",
		"specs/transpose.tile", "specs/reduce.tile", "specs/sgemm.tile",
		"specs/gemm.tile", "specs/templates.tile", "specs/kernels.tile"};
	for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
		Run *r = run_file(files[f]);
		for (int i = 0; i < r->unit.ntiles; i++)
			agree(&r->unit.tiles[i]);
		run_free(r);
	}
}

/* splitmix64 for reproducible random tiles */
static uint64_t seed = 12345;
static uint64_t rnd(void)
{
	uint64_t z = (seed += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Random small tiles with random affine accesses: pruning never changes
 * the answer, and no layout costed beats the bound. */
static void test_bruteforce_random(void **state)
{
	(void)state;
	static const char *const dts[] = {"i8", "f16", "f32", "f64"};
	static const int es[] = {1, 2, 4, 8};
	int done = 0;
	for (int it = 0; done < 60 && it < 1000; it++) {
		int d = (int)(rnd() % 4);
		int rows = 4 << (rnd() % 3), cols = (16 / es[d]) << (rnd() % 3);
		int vec = 1 << (rnd() % 3);
		while (vec * es[d] > 16 || cols % vec)
			vec /= 2;
		int a = 1 + (int)(rnd() % 5), b = 1 + (int)(rnd() % 5);
		char text[1024];
		snprintf(text, sizeof text,
		         "tile r { shape %d x %d; dtype %s; arch sm_90;\n"
		         "  access w: store vec %d along %s;\n"
		         "  access x: load vec %d { for i in 0..%d;\n"
		         "    row = (%d * lane + i) %% %d;\n"
		         "    col = %d * ((%d * lane / %d + i) %% %d); }\n"
		         "}\n",
		         rows, cols, dts[d], vec, rnd() % 2 ? "row" : "col", vec,
		         1 + (int)(rnd() % 4), a, rows, vec, b, 1 + (int)(rnd() % 8),
		         cols / vec);
		Run *r = run(text);
		if (!r->ok) {           /* e.g. a width the op cannot move */
			run_free(r);
			continue;
		}
		agree(&r->unit.tiles[0]);
		Solution all = solve(&r->unit.tiles[0], 64, true);
		for (int i = 0; i < all.ntop; i++)
			assert_true(all.top[i].wave >= all.aligned_bound);
		solve_free(&all);
		run_free(r);
		done++;
	}
	assert_int_equal(done, 60);
}

/* cp.async lanes sharing a destination: the bound counts distinct bytes,
 * so it stays below every layout's cost and pruning keeps the best. */
static void test_cpasync_duplicates(void **state)
{
	(void)state;
	Run *r = run("tile c { shape 32 x 32; dtype f32; arch sm_80;\n"
	             "  access fill: cp.async vec 4 { for i in 0..16; row = 0; col = 0; }\n"
	             "  access drain: load { row = lane; col = 0; } }");
	assert_true(r->ok);
	agree(&r->unit.tiles[0]);
	Solution s = solve(&r->unit.tiles[0], 1, false);
	assert_true(s.best.wave >= s.aligned_bound);
	assert_int_equal(s.best.bytes, 4096);
	assert_int_equal(s.best.acc_wave[1], s.acc_bound[1]);
	solve_free(&s);
	run_free(r);
}

/* Weights and a tradeoff whose product passes 2^63 still rank right. */
static void test_tradeoff_overflow(void **state)
{
	(void)state;
	Run *r = run("tile t { shape 32 x 32; dtype f32; arch sm_90;\n"
	             "  tradeoff 1000000000;\n"
	             "  access fill: store weight 10000000 along row;\n"
	             "  access drain: load weight 10000000 along col; }");
	assert_true(r->ok);
	Solution s = solve(&r->unit.tiles[0], 1, false);
	assert_int_equal(s.best.wave, s.aligned_bound);
	solve_free(&s);
	agree(&r->unit.tiles[0]);
	run_free(r);
}

/* Other bank geometries: the bound holds and pruning changes nothing. */
static void test_geometries(void **state)
{
	(void)state;
	static const Geom gs[] = {{8, 4, true}, {16, 4, true}, {64, 4, true},
		{32, 8, true}, {16, 8, false}};
	Run *r = run_file("specs/transpose.tile");
	for (size_t k = 0; k < sizeof gs / sizeof *gs; k++) {
		geom = &gs[k];
		for (int i = 0; i < r->unit.ntiles; i++) {
			agree(&r->unit.tiles[i]);
			Solution all = solve(&r->unit.tiles[i], 64, true);
			for (int j = 0; j < all.ntop; j++)
				assert_true(all.top[j].wave >= all.aligned_bound);
			solve_free(&all);
		}
	}
	geom = &sim_geom_default;
	run_free(r);
}

/* ---- the xor family against every one of its maps ------------------------ */

static int log2floor_(int64_t v)
{
	int k = 0;
	while ((2LL << k) <= v)
		k++;
	return k;
}

/* The rank of n vectors over GF(2). */
static int gf2_rank(const uint64_t *v, int n)
{
	uint64_t b[64] = {0};
	int r = 0;
	for (int i = 0; i < n; i++) {
		uint64_t x = v[i];
		for (int t = 63; t >= 0 && x; t--)
			if (x >> t & 1) {
				if (!b[t]) {
					b[t] = x;
					r++;
					x = 0;
				} else {
					x ^= b[t];
				}
			}
	}
	return r;
}

/* Is there an invertible A of the chunk values that keeps every value of
 * `fixed` and takes m[i] to y[i] (i < n)?  Exactly when the pairs (kept
 * values to themselves, m to y) have as many independent pairs as
 * independent sources and images: a well-defined, one-to-one map. */
static bool twin_exists(const XorTwins *tw, const uint32_t *m, const uint32_t *y,
                        int n)
{
	uint64_t u[80], w[80], p[80];
	int k = 0;
	for (uint32_t v = 1; v < 64; v++)
		if (tw->fixed >> v & 1) {
			u[k] = w[k] = v;
			p[k++] = (uint64_t)v << 32 | v;
		}
	for (int i = 0; i < n; i++) {
		u[k] = m[i];
		w[k] = y[i];
		p[k++] = (uint64_t)m[i] << 32 | y[i];
	}
	int rp = gf2_rank(p, k);
	return gf2_rank(u, k) == rp && gf2_rank(w, k) == rp;
}

/* The twin of masks m that ranks first, found apart from the solver's
 * way: a shift and mask on m's run of nonzero masks if one is a twin
 * (the least arithmetic, 3), with the least shift; else the masks chosen
 * one by one, each the least value some twin agrees with. */
static void best_twin_of(const XorTwins *tw, const uint32_t *m, int n,
                         uint32_t *out)
{
	int lo = 0, hi = n - 1, nnz = 0;
	for (int b = 0; b < n; b++)
		nnz += m[b] != 0;
	while (lo < n && !m[lo])
		lo++;
	while (hi > lo && !m[hi])
		hi--;
	bool run = nnz >= 2 && nnz == hi - lo + 1 && nnz <= tw->cbits;
	for (int s = 0; run && s + nnz <= tw->cbits; s++) {
		for (int b = 0; b < n; b++)
			out[b] = b < lo || b > hi ? 0 : 1u << (s + b - lo);
		if (twin_exists(tw, m, out, n))
			return;
	}
	for (int b = 0; b < n; b++)
		for (out[b] = 0; !twin_exists(tw, m, out, b + 1); out[b]++)
			;
}

static long xor_brute(const Tile *t, const Geom *g, bool swap,
                      const XorTwins *twins, int top, Cand *out, int *nout,
                      long limit)
{
	Layout l = layout_base(t, L_XOR, swap);
	int64_t es = tile_elem_bytes(t);
	int gb = tile_granule(t) > g->bank_bytes ? tile_granule(t) : g->bank_bytes;
	l.gran = (int)(gb / es);
	int kc = l.scols / l.gran, window = g->banks * g->bank_bytes;
	if (l.srows < 2 || kc < 2 || 2 * gb > window)
		return 0;
	int nb = log2floor_(l.srows - 1) + 1;
	int cb = log2floor_(window / gb);
	if (log2floor_(kc) < cb)
		cb = log2floor_(kc);
	if ((long)cb * nb > 30 || (1L << (cb * nb)) - 1 > limit)
		return -1;
	l.nx = nb;
	/* rows of a power of two of words below the banks: the masks of
	 * the row bits inside the bank number change no collision, so such
	 * a map costs what it costs with them 0 (checked here) and is
	 * listed once, as that map */
	int64_t pb = l.scols * es, pw = pb / g->bank_bytes;
	long idle = 0;
	if (pb % g->bank_bytes == 0 && !(pw & (pw - 1)) && pw < g->banks &&
	    (!tile_walks_stages(t) || layout_stage_step(&l, t) * es % window == 0))
		for (int b = 0; b < nb && (pw << b) < g->banks; b++)
			idle |= ((1L << cb) - 1) << (b * cb);
	long n = 0;
	for (long code = 1; code < 1L << (cb * nb); code++) {
		for (int b = 0; b < nb; b++)
			l.x[b] = (uint32_t)(code >> (b * cb) & ((1 << cb) - 1));
		const char *why;
		assert_true(layout_legal(&l, t, 1 << 30, &why));
		Cand c;
		solve_cost(t, g, &l, &c);
		n++;
		if (twins->on && layout_xor_cols(&l) == l.scols) {
			/* the search took the maps of its first run for twins:
			 * each costs what its best twin does, and is listed
			 * once, as that twin */
			Layout z = l;
			best_twin_of(twins, l.x, nb, z.x);
			if (memcmp(z.x, l.x, (size_t)nb * sizeof *z.x)) {
				Cand cz;
				solve_cost(t, g, &z, &cz);
				assert_int_equal(c.wave, cz.wave);
				assert_true(c.arith >= cz.arith);
				continue;
			}
		}
		if (code & idle) {
			Layout z = l;
			Cand cz;
			for (int b = 0; b < nb; b++)
				if (idle >> (b * cb) & 1)
					z.x[b] = 0;
			solve_cost(t, g, &z, &cz);
			assert_int_equal(c.wave, cz.wave);
			assert_true(c.arith >= cz.arith);
			continue;
		}
		int i = *nout;
		if (i == top) {
			if (solve_cmp(t, &c, &out[top - 1]) >= 0)
				continue;
			i--;
		}
		while (i > 0 && solve_cmp(t, &c, &out[i - 1]) < 0) {
			out[i] = out[i - 1];
			i--;
		}
		out[i] = c;
		if (*nout < top)
			++*nout;
	}
	return n;
}

/* The search over the xor family alone against xor_brute: the same
 * ranking, map for map, and every map of the family searched. */
static bool xor_agree(const Tile *t, const Geom *g, int top, long limit)
{
	Cand *want = calloc((size_t)top, sizeof *want);
	int nwant = 0;
	long maps = 0;
	SolveOpts o = {.top = top, .families = 1u << L_XOR, .budget = 1 << 30};
	Solution s;
	solve_tile(t, g, &o, &s);
	for (int sw = 0; sw < 2; sw++) {
		if (sw && (!(t->allow & XF_SWAP) ||
		           tile_granule(t) != tile_elem_bytes(t)))
			continue;
		long n = xor_brute(t, g, sw, &s.xor_twins[sw], top, want, &nwant, limit);
		if (n < 0) {
			free(want);
			solve_free(&s);
			return false;
		}
		maps += n;
	}
	assert_int_equal(s.ntop, nwant);
	for (int i = 0; i < nwant; i++) {
		if (s.top[i].wave != want[i].wave ||
		    !layout_same(&s.top[i].l, &want[i].l)) {
			char a[160], b[160];
			layout_describe(&s.top[i].l, t, a, sizeof a);
			layout_describe(&want[i].l, t, b, sizeof b);
			fail_msg("tile %s rank %d: search %s (%lld), every map %s (%lld)",
			         t->name, i + 1, a, (long long)s.top[i].wave, b,
			         (long long)want[i].wave);
		}
		assert_int_equal(s.top[i].arith, want[i].arith);
		for (int j = 0; j < t->nacc; j++)
			assert_int_equal(s.top[i].acc_wave[j], want[i].acc_wave[j]);
	}
	assert_false(s.budget_reached);
	assert_true(s.xor_total == (SolveCount128)maps);
	assert_true(s.xor_searched == s.xor_total);
	solve_free(&s);
	free(want);
	return true;
}

/* Random small tiles whose xor family can be costed map by map: rows
 * that are and are not powers of two, rows whose chunks leave a tail,
 * several widths, broadcasts and masks, the other bank geometries. */
static void test_xor_exhaustive_random(void **state)
{
	(void)state;
	static const char *const dts[] = {"i8", "f16", "f32", "f64"};
	static const int es[] = {1, 2, 4, 8};
	static const Geom gs[] = {{32, 4, true}, {32, 4, true}, {16, 4, true},
		{32, 8, true}, {8, 4, false}};
	int done = 0, tails = 0, nonlinear = 0;
	for (int it = 0; done < 48 && it < 4000; it++) {
		const Geom *g = &gs[rnd() % 5];
		int d = (int)(rnd() % 4);
		int rows = 2 + (int)(rnd() % 15);
		int vec = 1 << (rnd() % 3);
		while (vec * es[d] > 16)
			vec /= 2;
		int chunk = vec * es[d] > g->bank_bytes ? vec * es[d] : g->bank_bytes;
		int kc = 2 + (int)(rnd() % 11);
		int cols = kc * chunk / es[d] + (rnd() % 3 == 0 ? vec : 0);
		int a = 1 + (int)(rnd() % 7), b = (int)(rnd() % 5);
		int ni = 1 + (int)(rnd() % 6);
		char text[1024];
		snprintf(text, sizeof text,
		         "tile r { shape %d x %d; dtype %s; arch sm_90; allow %s;\n"
		         "  access w: store vec %d along %s;\n"
		         "  access x: load vec %d weight %d { for i in 0..%d;\n"
		         "    row = (%d * lane + i) %% %d;\n"
		         "    col = %d * ((%d * lane / %d + 3 * i) %% %d);\n"
		         "    active = lane %% %d != 1; }\n"
		         "}\n",
		         rows, cols, dts[d], rnd() % 2 ? "swizzle swap" : "swizzle",
		         vec, rnd() % 2 ? "row" : "col", vec, 1 + (int)(rnd() % 3), ni,
		         a, rows, vec, b + 1, 1 + (int)(rnd() % 4), cols / vec,
		         2 + (int)(rnd() % 5));
		Run *r = run(text);
		if (!r->ok) {
			run_free(r);
			continue;
		}
		const Tile *t = &r->unit.tiles[0];
		geom = g;
		if (xor_agree(t, g, 1 + (int)(rnd() % 4), 1 << 13)) {
			done++;
			int64_t rb = (int64_t)t->cols * es[d];
			tails += t->cols % (chunk / es[d]) != 0 ||
			         (kc & (kc - 1)) != 0;
			nonlinear += rb % (g->banks * g->bank_bytes) != 0 &&
			             (rb & (rb - 1)) != 0;
		}
		geom = &sim_geom_default;
		run_free(r);
	}
	assert_int_equal(done, 48);
	assert_true(tails >= 8);
	assert_true(nonlinear >= 8);
}

/* Tiles whose accesses walk the stages (`stage =`, views over several
 * stages): the xor family is theirs too, each stage mapped alike and
 * placed one after another.  Stages a multiple of the bank window apart
 * (align 128) keep banks linear in the map; others (align 16 and odd
 * rows) take the generic bound. */
static void test_xor_exhaustive_stages(void **state)
{
	(void)state;
	static const char *const dts[] = {"i8", "f16", "f32", "f64"};
	static const int es[] = {1, 2, 4, 8};
	static const Geom gs[] = {{32, 4, true}, {32, 4, true}, {16, 4, true},
		{32, 8, true}, {64, 4, false}};
	int done = 0, linear = 0, generic = 0;
	for (int it = 0; done < 32 && it < 4000; it++) {
		const Geom *g = &gs[rnd() % 5];
		int d = (int)(rnd() % 4);
		int rows = 2 + (int)(rnd() % 7);
		int vec = 1 << (rnd() % 3);
		while (vec * es[d] > 16)
			vec /= 2;
		int chunk = vec * es[d] > g->bank_bytes ? vec * es[d] : g->bank_bytes;
		int kc = 2 + (int)(rnd() % 7);
		int cols = kc * chunk / es[d] + (rnd() % 3 == 0 ? vec : 0);
		int stages = 2 + (int)(rnd() % 2), align = rnd() % 2 ? 128 : 16;
		int a = 1 + (int)(rnd() % 7), b = (int)(rnd() % 5);
		int ni = 1 + (int)(rnd() % 5);
		char text[1024];
		snprintf(text, sizeof text,
		         "tile r { shape %d x %d; dtype %s; arch sm_90; allow %s;\n"
		         "  stages %d; align %d;\n"
		         "  access w: store vec %d along %s;\n"
		         "  access x: load vec %d weight %d { for i in 0..%d;\n"
		         "    row = (%d * lane + i) %% %d;\n"
		         "    col = %d * ((%d * lane / %d + 3 * i) %% %d);\n"
		         "    stage = (lane / %d + i) %% %d; }\n"
		         "}\n",
		         rows, cols, dts[d], rnd() % 2 ? "swizzle swap" : "swizzle",
		         stages, align, vec, rnd() % 2 ? "row" : "col", vec,
		         1 + (int)(rnd() % 3), ni, a, rows, vec, b + 1,
		         1 + (int)(rnd() % 4), cols / vec, 1 << (rnd() % 4), stages);
		Run *r = run(text);
		if (!r->ok) {
			run_free(r);
			continue;
		}
		const Tile *t = &r->unit.tiles[0];
		assert_true(tile_walks_stages(t));
		geom = g;
		if (xor_agree(t, g, 1 + (int)(rnd() % 3), 1 << 12)) {
			done++;
			int64_t rb = (int64_t)t->cols * es[d];
			int64_t st = (rb * rows + align - 1) / align * align;
			bool lin = t->cols % (chunk / es[d]) == 0 && (kc & (kc - 1)) == 0 &&
			           (rb % (g->banks * g->bank_bytes) == 0 || (rb & (rb - 1)) == 0) &&
			           st % (g->banks * g->bank_bytes) == 0;
			linear += lin;
			generic += !lin;
		}
		geom = &sim_geom_default;
		run_free(r);
	}
	assert_int_equal(done, 32);
	assert_true(linear >= 4);
	assert_true(generic >= 8);
	/* a view of bytes over both stages of an f32 tile */
	Run *r = run("tile v { shape 4 x 32; stages 2; dtype f32; arch sm_90;\n"
	             "  access fill: store vec 4 along row; }\n"
	             "view b of v { shape 8 x 32; dtype f32;\n"
	             "  access diag: load { for i in 0..8; row = lane / 4;\n"
	             "    col = 4 * ((lane + i) % 8) + lane % 4; } }\n");
	assert_true(r->ok);
	assert_true(tile_walks_stages(&r->unit.tiles[0]));
	assert_true(xor_agree(&r->unit.tiles[0], geom, 2, 1 << 12));
	run_free(r);
}

/* Phases of several accesses that want the same words but differ in
 * what they must cost: an atomic's lanes on one word serialise where a
 * load's share it, so the two do not share a bound. */
static void test_xor_atomic_and_load(void **state)
{
	(void)state;
	static const Geom gs[] = {{32, 4, true}, {32, 8, true}};
	Run *r = run("tile a { shape 8 x 32; dtype f32; arch sm_90; allow swizzle;\n"
	             "  access hist: atom.add { row = lane % 8; col = 0; }\n"
	             "  access sums: load weight 10 { row = lane % 8; col = 0; }\n"
	             "  access rows: load { for i in 0..8; row = i; col = lane; } }");
	assert_true(r->ok);
	for (int k = 0; k < 2; k++) {
		geom = &gs[k];
		assert_true(xor_agree(&r->unit.tiles[0], &gs[k], 1, 1 << 16));
	}
	geom = &sim_geom_default;
	run_free(r);
}

/* A hash table probed by 8-byte compare-and-swap: the tree counts an
 * atomic phase as the simulator does (every lane's words, lanes on one
 * word each, twice for compare-and-swap), so its bound at a leaf is the
 * map's cost and no leaf is simulated in vain.  It agrees with costing
 * every map, and the default budget decides all 4095 maps (counting
 * words once, as for a load, it decided 3672 of them in 33153 units). */
static void test_xor_atomic_lanes(void **state)
{
	(void)state;
	char text[4096];
	int n = snprintf(text, sizeof text,
	                 "tile h { shape 16 x 32; dtype u64; arch sm_90;\n"
	                 "  access insert: atom.cas { for i in 0..4;\n"
	                 "    table h = {");
	/* rows and columns from a fixed scramble, some slots probed twice */
	for (int i = 0; i < 128; i++)
		n += snprintf(text + n, sizeof text - (size_t)n, "%s%d", i ? ", " : "",
		              (i * 197 + (i / 7) * 31 + (i % 5 == 0 ? 0 : i * i)) % 512);
	snprintf(text + n, sizeof text - (size_t)n,
	         "};\n    row = h[32 * i + lane] / 32; col = h[32 * i + lane] %% 32; }\n"
	         "  access scan: load vec 2 { for i in 0..8; row = 2 * i + lane / 16;\n"
	         "    col = 2 * (lane %% 16); } }");
	Run *r = run(text);
	assert_true(r->ok);
	const Tile *t = &r->unit.tiles[0];
	assert_true(xor_agree(t, geom, 1, 1 << 13));
	agree(t);
	Solution s = solve(t, 1, false);
	assert_false(s.budget_reached);
	assert_true(s.xor_searched == s.xor_total);
	solve_free(&s);
	run_free(r);
}

/* The solver's best twin against best_twin_of's own search, on random
 * masks and random kept subspaces of 1 to 5 chunk bits: the same masks
 * (the least arithmetic, then the first), which are a twin. */
static void test_best_twin(void **state)
{
	(void)state;
	int shifts = 0;
	for (int it = 0; it < 4000; it++) {
		XorTwins tw = {.on = true, .cbits = 1 + (int)(rnd() % 5), .fixed = 1};
		int span = 1 << tw.cbits, n = 1 + (int)(rnd() % 6);
		for (int k = (int)(rnd() % tw.cbits); k > 0; k--)
			solve_twin_keep(&tw, (uint32_t)(rnd() % (uint64_t)span));
		uint32_t m[MAX_XOR_BITS] = {0}, a[MAX_XOR_BITS], b[MAX_XOR_BITS];
		for (int i = 0; i < n; i++)
			m[i] = rnd() % 3 ? (uint32_t)(rnd() % (uint64_t)span) : 0;
		solve_best_twin(&tw, m, n, a);
		best_twin_of(&tw, m, n, b);
		for (int i = 0; i < n; i++)
			if (a[i] != b[i])
				fail_msg("case %d: mask %d is %u, the best twin's %u", it, i, a[i], b[i]);
		assert_true(twin_exists(&tw, m, a, n));
		Layout l = {.kind = L_XOR, .nx = n};
		memcpy(l.x, m, sizeof m);
		int was = layout_xor_map_arith(&l);
		memcpy(l.x, a, sizeof a);
		shifts += layout_xor_map_arith(&l) < was;
	}
	assert_true(shifts > 50);   /* twins that trade masks for a shift */
}

/* Gathers of one column per instruction through an index table: a
 * word's chunk part is the same for every lane, so maps that differ by
 * an invertible map of the chunk values (twins) meet the same words, and
 * the family is listed one map per class, as the twin that ranks first;
 * with two columns a chunk apart, the twin maps are those that keep 1.
 * The search agrees, ranking for ranking, with costing every map (which
 * checks each map against its best twin) in rows of 64 and 128 bytes. */
static void test_xor_twins(void **state)
{
	(void)state;
	static const char *const specs[] = {
		"tile g { shape 16 x 16; dtype f32; arch sm_90;\n"
		"  access fill: store vec 4 { for i in 0..2; row = 8 * i + lane / 4;\n"
		"    col = 4 * (lane % 4); }\n"
		"  access gather: load { for e in 0..4, k in 0..2;\n"
		"    table nbr = {3, 9, 14, 0, 7, 7, 12, 5, 1, 10, 15, 2, 8, 4, 11, 6,\n"
		"                 13, 0, 9, 3, 5, 14, 2, 12, 6, 1, 8, 15, 10, 4, 7, 11};\n"
		"    row = nbr[(8 * e + lane) % 32]; col = 8 * k + e; } }",
		"tile h { shape 32 x 32; dtype f32; arch sm_90;\n"
		"  access fill: store vec 4 { for i in 0..8; row = 4 * i + lane / 8;\n"
		"    col = 4 * (lane % 8); }\n"
		"  access gather: load weight 2 { for e in 0..8;\n"
		"    table nbr = {5, 17, 30, 2, 9, 22, 13, 27, 0, 19, 8, 31, 24, 6, 15, 11,\n"
		"                 28, 3, 20, 14, 25, 1, 10, 29, 7, 18, 23, 4, 16, 12, 26, 21};\n"
		"    row = (nbr[lane] * (e + 1) + e) % 32; col = 4 * e + e % 4; } }",
		/* two columns a chunk apart per instruction: twins keep 1 */
		"tile k { shape 16 x 32; dtype f32; arch sm_90;\n"
		"  access fill: store vec 4 { for i in 0..4; row = 4 * i + lane / 8;\n"
		"    col = 4 * (lane % 8); }\n"
		"  access gather: load { for e in 0..4, h in 0..2;\n"
		"    table nbr = {3, 9, 14, 0, 7, 7, 12, 5, 1, 10, 15, 2, 8, 4, 11, 6,\n"
		"                 13, 0, 9, 3, 5, 14, 2, 12, 6, 1, 8, 15, 10, 4, 7, 11};\n"
		"    row = nbr[(lane + 5 * e + h) % 32];\n"
		"    col = 16 * h + 4 * (lane / 16) + e; } }",
	};
	static const uint64_t kept[] = {1, 1, 3};
	for (size_t k = 0; k < sizeof specs / sizeof *specs; k++) {
		Run *r = run(specs[k]);
		assert_true(r->ok);
		const Tile *t = &r->unit.tiles[0];
		for (int top = 1; top <= 4; top += 3)
			assert_true(xor_agree(t, geom, top, 1 << 16));
		/* other geometries: twins or not, the same as every map */
		static const Geom gs[] = {{16, 4, true}, {32, 8, true}, {64, 4, true}};
		for (size_t q = 0; q < sizeof gs / sizeof *gs; q++) {
			geom = &gs[q];
			assert_true(xor_agree(t, geom, 3, 1 << 16));
			agree(t);
		}
		geom = &sim_geom_default;
		agree(t);
		/* the xor family alone: searched up to twins, and decided */
		SolveOpts o = {.top = 1, .families = 1u << L_XOR};
		Solution s;
		solve_tile(t, geom, &o, &s);
		assert_true(s.xor_twins[0].on);
		assert_true(s.xor_twins[0].fixed == kept[k]);
		assert_false(s.budget_reached);
		assert_true(s.xor_searched == s.xor_total);
		solve_free(&s);
		run_free(r);
	}
}

/* Random gathers, scatters and atomics through index tables (rows from
 * a table, one to three columns an instruction), under six bank
 * geometries: the search agrees with costing every map, twins or not,
 * ranking for ranking, and its pruned search with the full one. */
static void test_xor_random_gathers(void **state)
{
	(void)state;
	static const Geom gs[] = {{32, 4, true}, {16, 4, true}, {32, 8, true},
		{64, 4, true}, {8, 4, true}, {4, 4, true}};
	static const char *const dts[] = {"f16", "f32", "u64", "i8"};
	static const int es[] = {2, 4, 8, 1};
	int done = 0, twins = 0, kept = 0;
	for (int it = 0; done < 120 && it < 4000; it++) {
		const Geom *g = &gs[rnd() % 6];
		int d = (int)(rnd() % 4), kind = (int)(rnd() % 4);
		int rows = 1 << (1 + rnd() % 4), cols = (32 << (rnd() % 3)) / es[d];
		const char *op = kind == 0 ? "load" : kind == 1 ? "store"
		               : d == 2 || (d == 1 && kind == 3) ? "atom.cas"
		               : d == 1 ? "atom.add" : "load";
		int vec = strncmp(op, "atom", 4) ? 1 << (rnd() % 3) : 1;
		while (vec * es[d] > 16 || cols % vec)
			vec /= 2;
		char tab[512], text[2048];
		int n = 0;
		for (int i = 0; i < 64; i++)
			n += snprintf(tab + n, sizeof tab - (size_t)n, "%s%d", i ? ", " : "",
			              (int)(rnd() % (uint64_t)rows));
		snprintf(text, sizeof text,
		         "tile s { shape %d x %d; dtype %s; arch sm_90; allow swizzle%s;\n"
		         "  access fill: store vec %d along row;\n"
		         "  access g: %s vec %d { for e in 0..2;\n"
		         "    table t = {%s};\n"
		         "    row = t[(lane + 32 * e) %% 64];\n"
		         "    col = %d * ((%d * e + %d * (lane / %d)) %% %d); } }\n",
		         rows, cols, dts[d], rnd() % 2 ? " swap" : "", vec, op, vec, tab,
		         vec, 1 + (int)(rnd() % 3), 1 + (int)(rnd() % 3),
		         32 / (1 + (int)(rnd() % 3)), cols / vec);
		Run *r = run(text);
		if (!r->ok) {
			run_free(r);
			continue;
		}
		const Tile *t = &r->unit.tiles[0];
		geom = g;
		if (xor_agree(t, g, 1 + (int)(rnd() % 4), 1 << 14)) {
			done++;
			SolveOpts o = {.top = 1, .families = 1u << L_XOR};
			Solution s;
			solve_tile(t, g, &o, &s);
			twins += s.xor_twins[0].on;
			kept += s.xor_twins[0].on && s.xor_twins[0].fixed != 1;
			solve_free(&s);
			agree(t);
		}
		geom = &sim_geom_default;
		run_free(r);
	}
	assert_int_equal(done, 120);
	assert_true(twins >= 30 && kept >= 10);
}

/* cp.async under the swapped family: its segments are the swapped
 * row-major's, whichever map, not the unswapped ones. */
static void test_xor_swapped_cpasync(void **state)
{
	(void)state;
	Run *r = run("tile c { shape 32 x 8; dtype f32; arch sm_90; allow swizzle swap;\n"
	             "  access fill: cp.async vec 1 along col;\n"
	             "  access rows: load { for i in 0..4; row = lane % 8 + 8 * i;\n"
	             "    col = lane / 8 + 4 * (i % 2); } }");
	assert_true(r->ok);
	assert_true(xor_agree(&r->unit.tiles[0], geom, 2, 1 << 16));
	run_free(r);
}

/* Small instances of the kernels of specs/kernels.tile, whose xor
 * families can be costed map by map. */
static void test_xor_exhaustive_kernels(void **state)
{
	(void)state;
	static const char *const specs[] = {
		/* bitonic sort of 128 keys: 64 threads, steps j = 1 .. 64 */
		"tile s { shape 4 x 32; dtype f32; arch sm_90;\n"
		"  access j1: load weight 7 { for h in 0..2, w in 0..2;\n"
		"    row = (2 * (32 * w + lane) + h) / 32; col = (2 * (32 * w + lane) + h) % 32; }\n"
		"  access j4: load weight 5 { for h in 0..2, w in 0..2;\n"
		"    row = ((32 * w + lane) >> 2 << 3 | (32 * w + lane) & 3 | h << 2) / 32;\n"
		"    col = ((32 * w + lane) >> 2 << 3 | (32 * w + lane) & 3 | h << 2) % 32; }\n"
		"  access j32: load weight 2 { for h in 0..2, w in 0..2;\n"
		"    row = ((32 * w + lane) >> 5 << 6 | (32 * w + lane) & 31 | h << 5) / 32;\n"
		"    col = ((32 * w + lane) >> 5 << 6 | (32 * w + lane) & 31 | h << 5) % 32; } }",
		/* Blelloch scan of 128: levels 0-6 */
		"tile b { shape 4 x 32; dtype f32; arch sm_90;\n"
		"  access up: load { for l in 0..7, h in 0..2, w in 0..2;\n"
		"    row = (((2 * (32 * w + lane) + 1 + h) << l) - 1) / 32;\n"
		"    col = (((2 * (32 * w + lane) + 1 + h) << l) - 1) % 32;\n"
		"    active = 32 * w + lane < 64 >> l; } }",
		/* stride-2 convolution input, 1 x 8 outputs */
		"tile c { shape 3 x 17; dtype f32; arch sm_90;\n"
		"  access fill: store along row;\n"
		"  access taps: load { for dy in 0..3, dx in 0..3;\n"
		"    row = dy; col = 2 * (lane % 8) + dx; active = lane < 8; } }",
		/* four-step FFT transpose, 8 x 8 complex */
		"tile f { shape 8 x 16; dtype f32; arch sm_90;\n"
		"  access write: store vec 2 { for k in 0..8; row = k; col = 2 * (lane % 8);\n"
		"    active = lane < 8; }\n"
		"  access read: load vec 2 { for n in 0..8; row = lane % 8; col = 2 * n;\n"
		"    active = lane < 8; } }",
		/* per-thread stacks, 8 threads of 8 entries */
		"tile p { shape 8 x 8; dtype i32; arch sm_90;\n"
		"  access push: store { for d in 0..8; row = lane % 8; col = d; active = lane < 8; }\n"
		"  access apart: load { for d in 0..8; row = lane % 8; col = (d + lane / 2) % 8;\n"
		"    active = lane < 8; } }",
		/* cp.async fills and ldmatrix reads: rows of 64 bytes (banks
		 * linear in the map), and of 48 bytes with a tail */
		"tile g { shape 8 x 32; dtype f16; arch sm_90;\n"
		"  access fill: cp.async vec 8 along col;\n"
		"  access frag: ldmatrix.x4 { row = lane % 8; col = 8 * (lane / 8); } }",
		"tile h { shape 16 x 24; dtype f16; arch sm_90;\n"
		"  access fill: cp.async vec 8 along col;\n"
		"  access frag: ldmatrix.x2 { for k in 0..2; row = 8 * k + lane % 8;\n"
		"    col = 8 * (lane / 8); } }",
		/* float4 columns and block diagonals */
		"tile q { shape 8 x 32; dtype f32; arch sm_90;\n"
		"  access fill: store vec 4 along row;\n"
		"  access columns: load vec 4 { for c in 0..8; row = lane % 8; col = 4 * c;\n"
		"    active = lane < 8; }\n"
		"  access diagonals: load vec 4 { for c in 0..8; row = lane % 8;\n"
		"    col = 4 * ((lane + c) % 8); active = lane < 8; } }",
	};
	for (size_t k = 0; k < sizeof specs / sizeof *specs; k++) {
		Run *r = run(specs[k]);
		assert_true(r->ok);
		for (int top = 1; top <= 3; top += 2)
			assert_true(xor_agree(&r->unit.tiles[0], geom, top, 1 << 13));
		agree(&r->unit.tiles[0]);
		run_free(r);
	}
}

/* The budget: a search cut short keeps the best it found, says so, and
 * does the same on every run; a larger budget never does worse; and the
 * kernels' tiles need a small part of the default. */
static void test_budget(void **state)
{
	(void)state;
	Run *r = run_file("specs/kernels.tile");
	for (int i = 0; i < r->unit.ntiles; i++) {
		const Tile *t = &r->unit.tiles[i];
		SolveOpts o = {.top = 1};
		Solution full;
		solve_tile(t, geom, &o, &full);
		assert_false(full.budget_reached);
		assert_true(full.work * 4 < full.work_budget);
		assert_int_equal(full.work_budget, solve_default_budget(t));
		/* every tile reaches its bound but one, whose maps were all
		 * searched */
		if (strcmp(t->name, "float4_col_diag") == 0) {
			assert_int_equal(full.best.wave, 224);
			assert_true(full.xor_searched == full.xor_total);
		} else {
			assert_int_equal(full.best.wave, full.aligned_bound);
		}
		int64_t last = -1;
		for (int64_t b = 1; b < full.work * 2; b = b * 4 + 1) {
			o.budget = b;
			Solution s1, s2;
			solve_tile(t, geom, &o, &s1);
			solve_tile(t, geom, &o, &s2);
			assert_true(s1.found);
			assert_int_equal(s1.best.wave, s2.best.wave);
			assert_int_equal(s1.work, s2.work);
			assert_true(layout_same(&s1.best.l, &s2.best.l));
			assert_int_equal(s1.budget_reached, b < full.work);
			assert_int_equal(solve_unproven(&s1),
			                 s1.budget_reached && s1.best.wave > s1.aligned_bound);
			if (last >= 0)
				assert_true(s1.best.wave <= last);
			last = s1.best.wave;
			if (!s1.budget_reached) {
				assert_int_equal(s1.best.wave, full.best.wave);
				assert_true(layout_same(&s1.best.l, &full.best.l));
			}
			solve_free(&s1);
			solve_free(&s2);
		}
		solve_free(&full);
	}
	run_free(r);
}

/* Small tiles of the kinds whose addresses come from data: gathers and
 * scatters through index tables, hash probes by 8-byte compare-and-swap
 * (on a 1-D buffer and in buckets), radix counters, 1-D strided buffers
 * and a pipeline of gathered rows.  The search under the default budget
 * agrees with the one that prunes nothing (every fold of a 1-D tile
 * searched in full), and, where the xor family is small enough to cost
 * map by map, with that brute force too. */
static void test_data_addressed_kinds(void **state)
{
	(void)state;
	static const char *const specs[] = {
		"tile g { shape 8 x 32; dtype f32; arch sm_90;\n"
		"  access fill: store vec 4 along row;\n"
		"  access gather: load { for k in 0..4;\n"
		"    table nbr = {3, 5, 0, 7, 7, 2, 1, 6, 4, 0, 3, 3, 5, 1, 6, 2,\n"
		"                 0, 4, 7, 1, 2, 6, 5, 3, 1, 1, 4, 0, 6, 7, 2, 5};\n"
		"    row = nbr[lane]; col = 8 * k + lane % 8; } }",
		"tile s { shape 4 x 32; dtype f32; arch sm_90;\n"
		"  access scatter: red.add { for i in 0..2;\n"
		"    table dst = {2, 0, 3, 3, 1, 0, 2, 1, 0, 3, 2, 2, 1, 1, 0, 3,\n"
		"                 3, 1, 0, 2, 2, 3, 1, 0, 0, 2, 3, 1, 1, 0, 2, 3};\n"
		"    row = (dst[lane] + i) % 4; col = (lane * 5 + i) % 32; }\n"
		"  access drain: load along row; }",
		"tile h { shape 128; dtype u64; arch sm_90;\n"
		"  access insert: atom.cas { for p in 0..2;\n"
		"    table h = {17, 99, 3, 64, 64, 120, 5, 33, 81, 2, 47, 47, 110, 9, 70, 28,\n"
		"               0, 127, 56, 19, 90, 43, 12, 101, 66, 38, 7, 85, 24, 115, 51, 76};\n"
		"    idx = (h[lane] + p) % 128; weight = 2 - p; }\n"
		"  access clear: store { for i in 0..4; idx = 32 * i + lane; } }",
		"tile b { shape 8 x 8; dtype u64; arch sm_90;\n"
		"  access insert: atom.cas {\n"
		"    table h = {9, 60, 33, 2, 18, 47, 51, 12, 63, 0, 25, 38, 7, 44, 29, 56,\n"
		"               14, 3, 41, 22, 58, 35, 10, 49, 27, 5, 62, 16, 31, 53, 20, 45};\n"
		"    row = h[lane] / 8; col = h[lane] % 8; }\n"
		"  access scan: load along col; }",
		"tile r { shape 4 x 32; dtype u32; arch sm_90;\n"
		"  access count: atom.add {\n"
		"    table d = {1, 3, 0, 0, 2, 1, 3, 3, 0, 2, 1, 1, 2, 0, 3, 2,\n"
		"               1, 0, 0, 3, 2, 2, 1, 3, 0, 1, 3, 2, 2, 0, 1, 3};\n"
		"    row = d[lane]; col = lane; }\n"
		"  access raking: load { for j in 0..4; row = (4 * lane + j) / 32;\n"
		"    col = (4 * lane + j) % 32; } }",
		"tile d { shape 256; dtype f32; arch sm_90;\n"
		"  access fill: store { for i in 0..8; idx = 32 * i + lane; }\n"
		"  access stride: load { for i in 0..8; idx = 8 * lane + i; } }",
		"tile q { shape 64; dtype u64; arch sm_90;\n"
		"  access probe: load { for p in 0..3;\n"
		"    table h = {5, 40, 40, 12, 63, 0, 27, 33, 8, 51, 19, 19, 60, 2, 44, 30,\n"
		"               11, 57, 23, 36, 6, 48, 15, 62, 29, 1, 54, 38, 20, 9, 45, 31};\n"
		"    idx = (h[lane] + p * (p + 1) / 2) % 64; }\n"
		"  access claim: atom.cas { idx = (lane * 7) % 64; } }",
		"tile c { shape 8 x 32; dtype f16; arch sm_90; stages 2;\n"
		"  access fill: cp.async vec 8 { for s in 0..2;\n"
		"    table src = {5, 2, 7, 0, 3, 6, 1, 4, 2, 7, 4, 1, 0, 5, 6, 3};\n"
		"    row = src[8 * s + lane / 4]; col = 8 * (lane % 4); stage = s; }\n"
		"  access frag: ldmatrix.x4 { for s in 0..2; row = lane % 8;\n"
		"    col = 8 * (lane / 8); stage = s; } }",
	};
	for (size_t k = 0; k < sizeof specs / sizeof *specs; k++) {
		Run *r = run(specs[k]);
		assert_true(r->ok);
		const Tile *t = &r->unit.tiles[0];
		agree(t);
		if (!t->len) {
			for (int top = 1; top <= 3; top += 2)
				assert_true(xor_agree(t, geom, top, 1 << 13));
		} else {
			/* the folds whose xor family is small enough, map by map
			 * (xor_agree checks those and says which it did) */
			int checked = 0;
			for (int cols = 8; cols <= t->len / 2; cols *= 2) {
				Tile *f = fold_make(t, cols);
				f->len = 0;     /* searched as the 2-D tile it is */
				checked += xor_agree(f, geom, 1, 1 << 13);
				fold_free(f);
			}
			assert_true(checked >= 2);
		}
		/* a budget of 2^22 proves each of them, and the answer is the
		 * default budget's or better */
		SolveOpts o = {.top = 1, .budget = 1 << 22};
		Solution s, d = solve(t, 1, false);
		solve_tile(t, geom, &o, &s);
		if (s.budget_reached)
			fail_msg("tile %s: budget reached", t->name);
		assert_true(s.best.wave <= d.best.wave);
		solve_free(&s);
		solve_free(&d);
		run_free(r);
	}
}

/* The skews the search leaves out (solve_skew_period): on random tiles
 * of loads, stores, cp.async and atomics, in one stage or three, under
 * five bank geometries, every skew from the period on costs, access by
 * access, what the skew it repeats does (row-major for a multiple of the
 * period), so it could only tie and follow it. */
/* The xor tree's pigeonhole floor: a map moves a word's bank only within
 * the banks f << k reaches, so the 32 words of rows of one parity and one
 * word offset, 64-byte rows, share 4 banks under every map.  The floor is
 * a lower bound (the tree agrees with costing every map) and decides the
 * whole family near its root (it took 1402 units without the floor). */
static void test_xor_pigeon(void **state)
{
	(void)state;
	Run *r = run("tile pg { shape 16 x 16; dtype f32; arch sm_90;\n"
	             "  access gather: load vec 4 { for i in 0..2;\n"
	             "    table tab = {0, 6, 2, 14, 8, 4, 12, 10, 6, 0, 14, 2, 4, 10, 8, 12,\n"
	             "                 2, 8, 0, 6, 10, 12, 4, 14, 12, 14, 6, 4, 0, 2, 8, 10};\n"
	             "    row = tab[lane]; col = 4 * (lane % 4); } }");
	assert_true(r->ok);
	const Tile *t = &r->unit.tiles[0];
	for (int top = 1; top <= 3; top += 2)
		assert_true(xor_agree(t, geom, top, 1 << 13));
	Solution s = solve(t, 1, false);
	assert_false(s.budget_reached);
	assert_true(s.xor_searched == s.xor_total);
	assert_true(s.work < 400);
	solve_free(&s);
	run_free(r);
}

static void test_skew_period(void **state)
{
	(void)state;
	static const Geom geoms[] = {{32, 4, true}, {1, 4, true}, {4, 4, true},
	                             {16, 8, true}, {64, 4, false}};
	static const char *const ops[] = {"load", "store", "cp.async", "atom.add"};
	static const char *const dts[] = {"f16", "f32", "f64", "i8"};
	int checked = 0;
	for (int it = 0; it < 200; it++) {
		int d = (int)(rnd() % 4), op = (int)(rnd() % 4);
		if (op == 3)
			d = 1;              /* 4-byte atomics */
		int es = d == 0 ? 2 : d == 1 ? 4 : d == 2 ? 8 : 1;
		int vec = op == 2 ? 16 / es : 1;
		int rows = 4 << (rnd() % 3), cols = (64 / es) << (rnd() % 2);
		int stages = rnd() % 2 ? 3 : 1;
		int a = 1 + (int)(rnd() % 7), b = 1 + (int)(rnd() % 9);
		char text[1024];
		snprintf(text, sizeof text,
		         "tile k { shape %d x %d; dtype %s; arch sm_90; stages %d;\n"
		         "  access x: %s vec %d { for s in 0..%d, i in 0..3;\n"
		         "    row = (%d * lane + i) %% %d;\n"
		         "    col = %d * ((%d * lane + i) %% %d); stage = s; } }\n",
		         rows, cols, dts[d], stages, ops[op], vec, stages, a, rows,
		         vec, b, cols / vec);
		Run *r = run(text);
		if (!r->ok) {
			run_free(r);
			continue;
		}
		const Tile *t = &r->unit.tiles[0];
		const Geom *g = &geoms[it % 5];
		Layout l = layout_base(t, L_SKEW, false);
		int k = l.scols / l.gran, p = solve_skew_period(t, g, &l);
		for (int sk = p; p > 0 && sk < k && sk <= 256; sk++) {
			Layout x = l, y = l;
			x.skew = sk;
			y.skew = sk % p;
			if (!y.skew)
				y = layout_rowmajor(t);
			Cand cx, cy;
			solve_cost(t, g, &x, &cx);
			solve_cost(t, g, &y, &cy);
			assert_int_equal(cx.wave, cy.wave);
			for (int j = 0; j < t->nacc; j++)
				assert_int_equal(cx.acc_wave[j], cy.acc_wave[j]);
			checked++;
		}
		run_free(r);
	}
	assert_true(checked > 1000);
}

/* A file's tiles share SOLVE_BUDGET_FILE units by default: a file within
 * it leaves each tile its own default, a file past it scales each down in
 * proportion, and a budget given on the command line is kept as it is. */
static void test_file_budget(void **state)
{
	(void)state;
	Run *r = run_file("specs/kernels.tile");
	int64_t sum = solve_file_defaults(&r->unit);
	assert_true(sum > 0 && sum <= SOLVE_BUDGET_FILE);
	for (int i = 0; i < r->unit.ntiles; i++) {
		const Tile *t = &r->unit.tiles[i];
		SolveOpts o = {.top = 1, .file_defaults = sum};
		assert_int_equal(solve_budget_of(t, &o), solve_default_budget(t));
		o.file_defaults = 4 * SOLVE_BUDGET_FILE;
		assert_int_equal(solve_budget_of(t, &o), solve_default_budget(t) / 4);
		Solution s;
		solve_tile(t, geom, &o, &s);
		assert_int_equal(s.work_budget, solve_default_budget(t) / 4);
		solve_free(&s);
		o.budget = 12345;
		solve_tile(t, geom, &o, &s);
		assert_int_equal(s.work_budget, 12345);
		solve_free(&s);
	}
	run_free(r);
}

/* The same search as an explicit budget of `budget` units, by layout,
 * cost, ranking and units spent. */
static void same_as_budget(const Tile *t, const Solution *s, int top,
                           int64_t budget)
{
	SolveOpts o = {.top = top, .budget = budget};
	Solution e;
	solve_tile(t, geom, &o, &e);
	assert_true(e.found && s->found);
	assert_true(layout_same(&s->best.l, &e.best.l));
	assert_int_equal(s->best.wave, e.best.wave);
	assert_int_equal(s->ntop, e.ntop);
	for (int k = 0; k < e.ntop; k++)
		assert_true(layout_same(&s->top[k].l, &e.top[k].l));
	assert_int_equal(s->budget_reached, e.budget_reached);
	assert_true(s->work >= e.work);
	solve_free(&e);
}

/* t solved as a file of that one tile (solve_unit). */
static void alone(const Tile *t, const SolveOpts *o, Solution *s)
{
	Unit one = {NULL, (Tile *)t, 1};
	assert_true(solve_unit(&one, NULL, stderr, geom, o, NULL, s));
}

/* The adaptive budget (solve_budget.c): a tile its base budget decides
 * is searched once, as an explicit budget of its default; a tile it
 * leaves open is searched again, exactly as `--search-budget SHARE`,
 * SHARE the file's extension split equally among its open tiles, at most
 * SOLVE_BUDGET_TILE_CAP; a ranking longer than one chooses what the
 * ranking of one does; a file whose defaults pass SOLVE_BUDGET_FILE gets
 * no extension; and the result is the same on every run. */
static void test_adaptive_budget(void **state)
{
	(void)state;
	Run *r = run_file("tests/hard/hard.tile");
	Tile *proven = tile_named(r, "gnn_gather");
	Tile *open2 = tile_named(r, "hash_cas64_2d");
	Tile *open1 = tile_named(r, "feature_gather_1d");
	SolveOpts o = {.top = 1};
	Solution s;

	/* alone: proven by the base, or searched again with the whole share;
	 * solve_tile is the one search */
	alone(proven, &o, &s);
	assert_false(s.budget_reached);
	assert_int_equal(s.work_budget, solve_default_budget(proven));
	same_as_budget(proven, &s, 1, solve_default_budget(proven));
	solve_free(&s);
	const Tile *opens[2] = {open2, open1};
	for (int k = 0; k < 2; k++) {
		const Tile *t = opens[k];
		int64_t d = solve_default_budget(t);
		Solution base;
		SolveOpts b = {.top = 1, .budget = d};
		solve_tile(t, geom, &b, &base);
		assert_true(solve_unproven(&base));
		int64_t share = SOLVE_BUDGET_TOTAL - d < SOLVE_BUDGET_TILE_CAP
		              ? SOLVE_BUDGET_TOTAL - d : SOLVE_BUDGET_TILE_CAP;
		Solution s2, once;
		alone(t, &o, &s);
		alone(t, &o, &s2);
		solve_tile(t, geom, &o, &once);
		assert_true(layout_same(&once.best.l, &base.best.l));
		assert_int_equal(once.work, base.work);
		solve_free(&once);
		assert_int_equal(s.work_budget, d + share);
		same_as_budget(t, &s, 1, share);
		assert_true(s.best.wave < base.best.wave);
		assert_false(s.budget_reached);     /* these two: proven then */
		assert_true(layout_same(&s.best.l, &s2.best.l));
		assert_int_equal(s.work, s2.work);
		/* a ranking of three: the same choice, from the same budget */
		SolveOpts three = {.top = 3};
		Solution t3;
		alone(t, &three, &t3);
		assert_true(layout_same(&t3.best.l, &s.best.l));
		assert_int_equal(t3.work_budget, d + share);
		same_as_budget(t, &t3, 3, share);
		solve_free(&t3);
		solve_free(&s2);
		solve_free(&s);
		solve_free(&base);
	}

	/* a file of five, four open: each of those gets a quarter of the
	 * extension, under the cap, whichever of them a command shows */
	Tile tiles[5] = {*proven, *open2, *open1, *open2, *open1};
	Unit u = {r->unit.src, tiles, 5};
	Solution sol[5], one[5];
	int64_t sum = solve_file_defaults(&u);
	int64_t share = (SOLVE_BUDGET_TOTAL - sum) / 4;
	assert_true(share < SOLVE_BUDGET_TILE_CAP);
	assert_true(solve_unit(&u, r->unit.src, stderr, geom, &o, NULL, sol));
	bool want[5] = {false, false, true, false, false};
	assert_true(solve_unit(&u, r->unit.src, stderr, geom, &o, want, one));
	assert_false(one[0].found || one[1].found);
	int64_t total = 0;
	for (int i = 0; i < 5; i++) {
		total += sol[i].work_budget;
		if (i == 0) {
			assert_int_equal(sol[i].work_budget, solve_default_budget(&tiles[i]));
			continue;
		}
		assert_int_equal(sol[i].work_budget, solve_default_budget(&tiles[i]) + share);
		same_as_budget(&tiles[i], &sol[i], 1, share);
	}
	assert_true(total <= SOLVE_BUDGET_TOTAL);
	assert_true(layout_same(&one[2].best.l, &sol[2].best.l));
	assert_int_equal(one[2].work, sol[2].work);
	for (int i = 0; i < 5; i++) {
		solve_free(&sol[i]);
		solve_free(&one[i]);
	}

	/* a file at the limits of the budget (its defaults scaled down, here
	 * by a tile of 262144 instructions, 32 of them distinct): no second
	 * search */
	Run *rb = run("tile big { shape 32 x 32; dtype f32; arch sm_90;\n"
	              "  access a: load { for i in 0..65536; row = lane; col = i % 32; }\n"
	              "  access b: load { for i in 0..65536; row = lane; col = i % 32; }\n"
	              "  access c: load { for i in 0..65536; row = lane; col = i % 32; }\n"
	              "  access d: load { for i in 0..65536; row = lane; col = i % 32; } }");
	assert_true(rb->ok);
	Tile pair[2] = {*open2, rb->unit.tiles[0]};
	Unit big = {r->unit.src, pair, 2};
	int64_t scaled = solve_budget_of(open2, &(SolveOpts){
	                                 .file_defaults = solve_file_defaults(&big)});
	assert_true(scaled < solve_default_budget(open2));
	Solution bs[2];
	assert_true(solve_unit(&big, r->unit.src, stderr, geom, &o, NULL, bs));
	assert_int_equal(bs[0].work_budget, scaled);
	assert_true(solve_unproven(&bs[0]));
	solve_free(&bs[0]);
	solve_free(&bs[1]);
	run_free(rb);
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_transpose_seed),
		cmocka_unit_test(test_float4_columns),
		cmocka_unit_test(test_aligned_bound),
		cmocka_unit_test(test_tma_and_occupancy),
		cmocka_unit_test(test_bruteforce_specs),
		cmocka_unit_test(test_bruteforce_random),
		cmocka_unit_test(test_cpasync_duplicates),
		cmocka_unit_test(test_tradeoff_overflow),
		cmocka_unit_test(test_geometries),
		cmocka_unit_test(test_xor_exhaustive_random),
		cmocka_unit_test(test_xor_exhaustive_kernels),
		cmocka_unit_test(test_xor_exhaustive_stages),
		cmocka_unit_test(test_xor_atomic_and_load),
		cmocka_unit_test(test_xor_atomic_lanes),
		cmocka_unit_test(test_best_twin),
		cmocka_unit_test(test_xor_twins),
		cmocka_unit_test(test_xor_random_gathers),
		cmocka_unit_test(test_xor_swapped_cpasync),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_data_addressed_kinds),
		cmocka_unit_test(test_xor_pigeon),
		cmocka_unit_test(test_skew_period),
		cmocka_unit_test(test_file_budget),
		cmocka_unit_test(test_adaptive_budget),
	};
	/* BANKC_TEST=NAME runs the tests matching NAME only */
	if (getenv("BANKC_TEST"))
		cmocka_set_test_filter(getenv("BANKC_TEST"));
	return cmocka_run_group_tests_name("solver", tests, NULL, NULL);
}
