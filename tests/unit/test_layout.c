/* Unit tests of the layouts (compiler/model/layout.c): legality is what the
 * layout is, a bijection of the stage that keeps every vector whole and
 * aligned, checked here element by element; the solver's address loop
 * computes the same function as layout_offset; one arithmetic count for
 * one function. */
#include "testutil.h"
#include "model/model.h"

static Tile *first_tile(Run *r)
{
	assert_true(r->ok);
	return &r->unit.tiles[0];
}

/* Element by element: every (r, c) lands inside the stage, no two on one
 * place, and every granule (the largest vector) stays whole and aligned. */
static bool bijective(const Layout *l, const Tile *t)
{
	int64_t es = tile_elem_bytes(t), n = layout_stage_bytes(l, t) / es;
	int ge = tile_granule(t) / (int)es;
	char *seen = calloc((size_t)n, 1);
	bool ok = true;
	for (int r = 0; r < t->rows && ok; r++)
		for (int c = 0; c < t->cols && ok; c++) {
			int64_t o = layout_offset(l, t, r, c);
			if (o < 0 || o >= n || seen[o]++)
				ok = false;
			else if (c % ge == 0 &&
			         (o * es % tile_granule(t) ||
			          (c + ge <= t->cols && layout_offset(l, t, r, c + ge - 1) != o + ge - 1)))
				ok = false;
		}
	free(seen);
	return ok;
}

/* Swizzle<B,M,S> with 2^M at least the granule is legal exactly when it
 * is a bijection of the stage: on odd pitches and partial last blocks
 * too, swapped or not. */
static void test_swizzle_legal_iff_bijective(void **state)
{
	(void)state;
	static const char *const specs[] = {
		"tile a { shape 17 x 65; dtype f32; arch sm_90; access x: load along row; }",
		"tile a { shape 13 x 33; dtype f16; arch sm_90; access x: load along row; }",
		"tile a { shape 7 x 24; dtype f32; arch sm_90; access x: load vec 4 along row; }",
		"tile a { shape 9 x 9; dtype f64; arch sm_90; access x: load along col; }",
		"tile a { shape 5 x 48; dtype i8; arch sm_90; access x: load vec 16 along row; }",
		"tile a { shape 32 x 32; dtype f32; arch sm_90; access x: load along row; }",
	};
	int legal = 0, refused = 0, partial = 0;
	for (size_t k = 0; k < sizeof specs / sizeof *specs; k++) {
		Run *r = run(specs[k]);
		Tile *t = first_tile(r);
		int m0 = 0;
		while ((1 << m0) < tile_granule(t))
			m0++;
		for (int sw = 0; sw < 2; sw++)
			for (int m = m0; m <= 7; m++)
				for (int b = 1; b <= 4; b++)
					for (int s = b; s <= 12; s++) {
						Layout l = layout_base(t, L_SWIZZLE, sw);
						l.M = m, l.B = b, l.S = s;
						const char *why;
						bool ok = layout_legal(&l, t, 1 << 30, &why);
						if (sw && tile_granule(t) != tile_elem_bytes(t)) {
							assert_false(ok);
							continue;
						}
						assert_int_equal(ok, bijective(&l, t));
						legal += ok;
						refused += !ok;
						partial += ok && layout_stage_bytes(&l, t) % (1 << (m + b));
					}
		run_free(r);
	}
	assert_true(legal > 100);
	assert_true(refused > 10);
	assert_true(partial > 20);      /* the old rule refused these */
}

/* Every xor map the family holds is a bijection: rows whose chunks fill
 * whole blocks, rows with a tail of chunks, rows ending in part of one. */
static void test_xor_maps_bijective(void **state)
{
	(void)state;
	static const char *const specs[] = {
		"tile a { shape 17 x 65; dtype f32; arch sm_90; access x: load along row; }",
		"tile a { shape 12 x 65; dtype f16; arch sm_90; access x: load along row; }",
		"tile a { shape 8 x 48; dtype f32; arch sm_90; access x: load vec 2 along row; }",
		"tile a { shape 6 x 20; dtype f64; arch sm_90; access x: load along col; }",
	};
	uint64_t seed = 7;
	int maps = 0, tails = 0;
	for (size_t k = 0; k < sizeof specs / sizeof *specs; k++) {
		Run *r = run(specs[k]);
		Tile *t = first_tile(r);
		for (int sw = 0; sw < 2; sw++) {
			Layout l = layout_base(t, L_XOR, sw);
			int kc = l.scols / l.gran;
			l.nx = 0;
			while ((1 << l.nx) < l.srows)
				l.nx++;
			for (int it = 0; it < 200; it++) {
				int span = 2;
				while (span * 2 <= kc && span < 32 && (seed >> 7) % 3)
					span *= 2, seed = seed * 6364136223846793005ull + 1;
				for (int i = 0; i < l.nx; i++) {
					seed = seed * 6364136223846793005ull + 1442695040888963407ull;
					l.x[i] = (uint32_t)(seed >> 33) % (uint32_t)span;
				}
				const char *why;
				if (!layout_legal(&l, t, 1 << 30, &why))
					continue;
				assert_true(bijective(&l, t));
				maps++;
				tails += layout_xor_cols(&l) < l.scols;
			}
		}
		run_free(r);
	}
	assert_true(maps > 500);
	assert_true(tails > 100);
}

/* The solver's address loop and layout_offset agree on every kind. */
static void test_addrs_match_offset(void **state)
{
	(void)state;
	Run *r = run("tile a { shape 64 x 128; dtype bf16; arch sm_90;\n"
	             "  access x: load { for i in 0..64; row = (lane * 5 + i) % 64;\n"
	             "    col = (lane * 11 + 3 * i) % 128; } }");
	Tile *t = first_tile(r);
	Layout ls[12];
	int n = 0;
	ls[n++] = layout_rowmajor(t);
	ls[n] = layout_base(t, L_PAD, true), ls[n].pitch += 3, n++;
	ls[n] = layout_base(t, L_SKEW, false), ls[n].skew = 5, n++;
	ls[n] = layout_base(t, L_SKEW, true), ls[n].skew = 3, n++;
	ls[n] = layout_base(t, L_SWIZZLE, false);
	ls[n].M = 1, ls[n].B = 3, ls[n].S = 6, n++;
	ls[n] = layout_base(t, L_SWIZZLE, false);
	ls[n].M = 4, ls[n].B = 3, ls[n].S = 3, ls[n].boxes = 2, ls[n].pitch = 64, n++;
	ls[n] = layout_base(t, L_SWIZZLE, false);       /* TMA's 32-byte atoms */
	ls[n].M = 5, ls[n].B = 2, ls[n].S = 2, n++;
	ls[n] = ls[n - 1], ls[n].flip = true, n++;      /* ... with the 8-byte flip */
	ls[n] = layout_base(t, L_SWIZZLE, false);       /* ... and 64-byte atoms */
	ls[n].M = 6, ls[n].B = 1, ls[n].S = 1, ls[n].boxes = 2, ls[n].pitch = 64, n++;
	ls[n] = ls[n - 3], ls[n].boxes = 2, ls[n].pitch = 64, ls[n].flip = true, n++;
	ls[n] = layout_base(t, L_XOR, false), ls[n].nx = 6;
	ls[n].x[0] = 31, ls[n].x[2] = 5, ls[n].x[5] = 17, n++;
	ls[n] = layout_base(t, L_XOR, true), ls[n].nx = 7;
	ls[n].x[1] = 3, ls[n].x[6] = 9, n++;
	for (int k = 0; k < n; k++) {
		const char *why;
		assert_true(layout_legal(&ls[k], t, 1 << 30, &why));
		assert_true(bijective(&ls[k], t));
		for (int i = 0; i < t->acc[0].ninst; i++) {
			const Inst *in = &t->acc[0].inst[i];
			int64_t addr[WARP];
			layout_inst_addrs(&ls[k], t, in, addr);
			for (int l = 0; l < WARP; l++)
				assert_int_equal(addr[l], 2 * layout_offset(&ls[k], t,
				                 in->lane[l].row, in->lane[l].col));
		}
	}
	run_free(r);
}

/* One count for one function: CuTe's SW128 atom, bankc's Swizzle<3,4,3>
 * and the same map as an xor of rows into chunks all count 3. */
static void test_one_arith_per_function(void **state)
{
	(void)state;
	Run *r = run("tile a { shape 64 x 64; dtype f16; arch sm_90;\n"
	             "  access x: ldmatrix.x4 { for i in 0..4; row = 16 * i + lane % 16;\n"
	             "    col = 8 * (lane / 16); } }");
	Tile *t = first_tile(r);
	Layout sw = layout_base(t, L_SWIZZLE, false);
	sw.M = 4, sw.B = 3, sw.S = 3;
	Layout x = layout_base(t, L_XOR, false);
	x.gran = 8, x.nx = 6, x.x[0] = 1, x.x[1] = 2, x.x[2] = 4;
	for (int r2 = 0; r2 < 64; r2++)
		for (int c = 0; c < 64; c++)
			assert_int_equal(layout_offset(&sw, t, r2, c),
			                 layout_offset(&x, t, r2, c));
	assert_int_equal(layout_arith(&sw), 3);
	assert_int_equal(layout_arith(&x), 3);
	Baseline b[MAX_BASELINES];
	int nb = baseline_all(t, &sim_geom_default, 1 << 20, b);
	assert_true(nb >= 3);
	assert_string_equal(b[2].name, "CuTe");
	assert_int_equal(b[2].c.arith, 3);
	/* a general map costs per nonzero mask; a tail costs a compare */
	x.x[3] = 5;
	assert_int_equal(layout_arith(&x), 1 + 2 * 4);
	run_free(r);
}

/* TMA tiles: row-major in one box of at most 256 x 256 whose rows are a
 * multiple of 16 bytes, or the engine's swizzles in boxes of the span,
 * 8-row aligned patterns, the base aligned. */
static void test_tma_boxes(void **state)
{
	(void)state;
	Run *r = run("tile e { shape 64 x 128; dtype bf16; arch sm_90; align 1024;\n"
	             "  tma yes; access x: load along row; }");
	Tile *t = first_tile(r);
	const char *why;
	Layout rm = layout_rowmajor(t);
	assert_true(layout_legal(&rm, t, 1 << 20, &why));
	for (int b = 1; b <= 3; b++) {
		Layout l = layout_base(t, L_SWIZZLE, false);
		l.M = 4, l.B = b, l.S = 3;
		assert_false(layout_legal(&l, t, 1 << 20, &why));  /* wider than 2^B x 16 */
		l.boxes = 256 / (16 << b);
		l.pitch = 128 / l.boxes;
		assert_true(layout_legal(&l, t, 1 << 20, &why));
		assert_true(bijective(&l, t));
		assert_int_equal(layout_stage_bytes(&l, t), 16384);
	}
	Layout l = layout_base(t, L_SWIZZLE, false);
	l.M = 4, l.B = 3, l.S = 4, l.boxes = 2, l.pitch = 64;
	assert_false(layout_legal(&l, t, 1 << 20, &why));      /* not a TMA mode */
	run_free(r);
	r = run("tile e { shape 64 x 512; dtype f16; arch sm_90; align 1024;\n"
	        "  tma yes; access x: load along row; }");
	t = first_tile(r);
	rm = layout_rowmajor(t);
	assert_false(layout_legal(&rm, t, 1 << 20, &why));     /* 512 > 256 */
	run_free(r);
	r = run("tile e { shape 12 x 128; dtype bf16; arch sm_90; align 1024;\n"
	        "  tma yes; access x: load along row; }");
	t = first_tile(r);
	l = layout_base(t, L_SWIZZLE, false);
	l.M = 4, l.B = 3, l.S = 3, l.boxes = 2, l.pitch = 64;
	assert_false(layout_legal(&l, t, 1 << 20, &why));      /* boxes of 12 rows */
	run_free(r);
}

/* Blackwell's TMA modes (CUDA 13): the 128-byte swizzle on 32-byte atoms
 * (Swizzle<2,5,2>), with the 8-byte halves of odd lines swapped (loads
 * only, vectors of at most 8 bytes), on 64-byte atoms (Swizzle<1,6,1>),
 * each in boxes of 128 bytes; on sm_100 and later, on sm_120 for a store
 * alone; and the header's name of each mode. */
static void test_tma_blackwell(void **state)
{
	(void)state;
	static const struct {
		const char *spec;
		bool atom32, flip, atom64;      /* legal: ... */
	} cases[] = {
		{"tile e { shape 64 x 64; dtype f32; arch sm_100a; tma load;\n"
		 "  access x: load vec 2 along row; }", true, true, true},
		{"tile e { shape 64 x 64; dtype f32; arch sm_100a; tma store;\n"
		 "  access x: store vec 2 along row; }", true, false, true},
		{"tile e { shape 64 x 64; dtype f32; arch sm_100a; tma load;\n"
		 "  access x: load vec 4 along row; }", true, false, true},
		{"tile e { shape 64 x 64; dtype f32; arch sm_90a; tma load;\n"
		 "  access x: load vec 2 along row; }", false, false, false},
		{"tile e { shape 64 x 64; dtype f32; arch sm_120a; tma load;\n"
		 "  access x: load vec 2 along row; }", false, false, false},
		{"tile e { shape 64 x 64; dtype f32; arch sm_120a; tma store;\n"
		 "  access x: store vec 2 along row; }", true, false, true},
		{"tile e { shape 64 x 64; dtype f32; arch sm_100a; tma load; align 512;\n"
		 "  access x: load vec 2 along row; }", false, false, false},
	};
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
		Run *r = run(cases[k].spec);
		Tile *t = first_tile(r);
		const char *why;
		Layout a = layout_base(t, L_SWIZZLE, false);
		a.M = 5, a.B = 2, a.S = 2, a.boxes = 2, a.pitch = 32;
		Layout f = a;
		f.flip = true;
		Layout b = layout_base(t, L_SWIZZLE, false);
		b.M = 6, b.B = 1, b.S = 1, b.boxes = 2, b.pitch = 32;
		if (layout_legal(&a, t, 1 << 20, &why) != cases[k].atom32 ||
		    layout_legal(&f, t, 1 << 20, &why) != cases[k].flip ||
		    layout_legal(&b, t, 1 << 20, &why) != cases[k].atom64)
			fail_msg("case %zu: 32B %d flip %d 64B %d expected", k,
			         cases[k].atom32, cases[k].flip, cases[k].atom64);
		if (cases[k].atom32) {
			assert_true(bijective(&a, t));
			assert_string_equal(layout_tma_mode(&a), "128B_ATOM_32B");
			assert_string_equal(layout_tma_mode(&b), "128B_ATOM_64B");
		}
		if (cases[k].flip) {
			assert_true(bijective(&f, t));
			assert_string_equal(layout_tma_mode(&f), "128B_ATOM_32B_FLIP_8B");
			/* the flip: byte bit 3 flipped on odd 128-byte lines */
			assert_int_equal(layout_offset(&f, t, 1, 0) * 4 % 128, 32 + 8);
			assert_int_equal(layout_offset(&f, t, 2, 0) * 4 % 128, 64);
		}
		/* a box narrower than 128 bytes is no 128-byte mode */
		a.boxes = 4, a.pitch = 16;
		assert_false(layout_legal(&a, t, 1 << 20, &why));
		run_free(r);
	}
	Layout rm = {0};
	assert_string_equal(layout_tma_mode(&rm), "NONE");
	Layout x = {.kind = L_SWIZZLE, .M = 4, .B = 2, .S = 3};
	assert_string_equal(layout_tma_mode(&x), "64B");
	x.S = 4;
	assert_null(layout_tma_mode(&x));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_swizzle_legal_iff_bijective),
		cmocka_unit_test(test_xor_maps_bijective),
		cmocka_unit_test(test_addrs_match_offset),
		cmocka_unit_test(test_one_arith_per_function),
		cmocka_unit_test(test_tma_boxes),
		cmocka_unit_test(test_tma_blackwell),
	};
	return cmocka_run_group_tests_name("layout", tests, NULL, NULL);
}
