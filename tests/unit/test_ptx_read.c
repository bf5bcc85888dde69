/* Unit tests of the PTX reader's syntax (compiler/ptx/): constant
 * expressions and WARP_SZ, { } blocks that scope labels and registers,
 * .branchtargets with brx.idx, and the errors of each; kernel names
 * with their template arguments.  A kernel's
 * shared stores reveal the values the reader gave: each thread's
 * addresses are read back from the interpreter. */
#include "testutil.h"

#include "scan/scan.h"

typedef struct {
	Pool *pool;
	Src src;
	PtxModule m;
	char *diag;
	size_t diag_len;
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
	FILE *f = open_memstream(&p->diag, &p->diag_len);
	Diag d = {.src = &p->src, .out = f};
	if (!setjmp(d.jb)) {
		ptx_read(p->pool, &d, &p->m);
		p->ok = true;
	}
	fclose(f);
	return p;
}

static void ptx_free(Ptx *p)
{
	free((char *)p->src.text);
	free(p->diag);
	pool_free(p->pool);
	free(p);
}

static const char head[] = ".version 8.7\n.target sm_90\n.address_size 64\n";

/* The kernel k(.param .u32 n) with BODY, its registers %p, %r, %rd and a
 * shared array s: the shared addresses thread tid stores to, in order
 * (up to max; -1 ends them; -2 if the path stopped). */
static int addrs(const char *body, int tid, int64_t n, int64_t *out, int max)
{
	char text[8192];
	snprintf(text, sizeof text,
	         "%s.visible .entry k(.param .u32 n)\n{\n\t.reg .pred %%p<8>;\n"
	         "\t.reg .b32 %%r<32>;\n\t.reg .b64 %%rd<8>;\n"
	         "\t.shared .align 16 .b8 s[65536];\n%s\n\tret;\n}\n", head, body);
	Ptx *p = ptx(text);
	if (!p->ok)
		fail_msg("%s", p->diag);
	InterpOpts o = {.block = {64, 1, 1}, .max_steps = 1 << 20};
	o.nparams = 1;
	o.param[0].index = 0;
	o.param[0].value = (uint64_t)n;
	Interp r;
	interp_init(&r, &p->m, 0, &o);
	InterpStop st;
	int k = 0;
	if (interp_thread(&r, tid, &st)) {
		for (size_t i = 0; i < r.nrec && k < max - 1; i++)
			out[k++] = r.rec[i].addr;
		out[k] = -1;
	} else {
		out[k++] = -2;
	}
	interp_free(&r);
	ptx_free(p);
	return k;
}

static int64_t addr1(const char *body, int tid)
{
	int64_t a[4];
	addrs(body, tid, 0, a, 4);
	return a[0];
}

#define assert_read_error(text, expect) do { \
		Ptx *p_ = ptx(text); \
		assert_false(p_->ok); \
		char first_[512] = ""; \
		size_t n_ = strcspn(p_->diag ? p_->diag : "", "\n"); \
		snprintf(first_, sizeof first_, "%.*s", (int)n_, p_->diag ? p_->diag : ""); \
		assert_string_equal(first_, expect); \
		ptx_free(p_); \
	} while (0)

/* ---- constant expressions and WARP_SZ -------------------------------------------- */

static void test_const_expr(void **state)
{
	(void)state;
	/* WARP_SZ is 32 as an operand, in an expression, in an address */
	assert_int_equal(addr1("\tmov.u32 %r1, WARP_SZ;\n\tst.shared.u8 [%r1], 0;", 0), 32);
	assert_int_equal(addr1("\tmov.u32 %r1, s;\n\tst.shared.u8 [%r1+WARP_SZ*2], 0;", 0), 64);
	assert_int_equal(addr1("\tst.shared.u8 [s+(WARP_SZ-1)], 0;", 0), 31);
	assert_int_equal(addr1("\tst.shared.u8 [WARP_SZ], 0;", 0), 32);
	assert_int_equal(addr1("\trem.u32 %r1, %tid.x, WARP_SZ;\n\tst.shared.u8 [%r1], 0;", 37), 5);
	/* C's precedence and operators */
	assert_int_equal(addr1("\tmov.u32 %r1, 1 + 2 * 3 << 1;\n\tst.shared.u8 [%r1], 0;", 0), 14);
	assert_int_equal(addr1("\tmov.u32 %r1, (1 + 2) * 3;\n\tst.shared.u8 [%r1], 0;", 0), 9);
	assert_int_equal(addr1("\tmov.u32 %r1, 0 ? 4 : 1 ? 5 : 6;\n\tst.shared.u8 [%r1], 0;", 0), 5);
	assert_int_equal(addr1("\tmov.u32 %r1, -(-7) % 4 + (~0 & 0x10) + !0 + (3 != 3);\n"
	                       "\tst.shared.u8 [%r1], 0;", 0), 3 + 16 + 1);
	assert_int_equal(addr1("\tmov.u32 %r1, (8 >> 2) + (1 <= 1) + (2 >= 3) + (1 == 1) + "
	                       "(0 || 4) + (2 && 0) + (6 ^ 3) + (6 | 1) + 17 / 5;\n"
	                       "\tst.shared.u8 [%r1], 0;", 0), 2 + 1 + 0 + 1 + 1 + 0 + 5 + 7 + 3);
	/* an offset's terms, in order: a - 4 + 8 is a + 4 */
	assert_int_equal(addr1("\tst.shared.u8 [s+16-4+8], 0;", 0), 20);
	assert_int_equal(addr1("\tmov.u32 %r1, s;\n\tst.shared.u8 [%r1+-4+12], 0;", 0), 8);
	/* a symbol and its offset outside brackets */
	assert_int_equal(addr1("\tmov.u32 %r1, s+WARP_SZ/2;\n\tst.shared.u8 [%r1], 0;", 0), 16);
	/* in vectors and initialisers */
	assert_int_equal(addr1("\tmov.b64 %rd1, {WARP_SZ, (2)};\n\tcvt.u32.u64 %r1, %rd1;\n"
	                       "\tst.shared.u8 [%r1], 0;", 0), 32);
	Ptx *p = ptx(".version 8.7\n.target sm_90\n.address_size 64\n"
	             ".global .align 4 .u32 g[4] = {1, WARP_SZ, (1 << 4) | 1, -2};\n"
	             ".global .align 8 .u64 gp[2] = {generic(g)+4, g};\n"
	             ".shared .align 4 .b8 t[2 * 8];\n");
	if (!p->ok)
		fail_msg("%s", p->diag);
	assert_int_equal(p->m.sym[2].size, 16);
	ptx_free(p);
	/* a predicate's negation is not an expression; a call's list is not */
	p = ptx(".version 8.7\n.target sm_90\n.address_size 64\n"
	        ".func (.param .b32 r) f(.param .b32 a)\n{\n\tret;\n}\n"
	        ".visible .entry k()\n{\n\t.reg .pred %p<3>;\n"
	        "\tsetp.eq.and.u32 %p1, 1, (2), !%p2;\n"
	        "\t{ .param .b32 a0; .param .b32 r0;\n\tcall.uni (r0), f, (a0); }\n\tret;\n}\n");
	if (!p->ok)
		fail_msg("%s", p->diag);
	ptx_free(p);
	assert_read_error(".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, 4 / (2 - 2);\n}\n",
	                  "t.ptx:4:17: error: division by zero in a constant expression");
	assert_read_error(".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, (1 + );\n}\n",
	                  "t.ptx:4:20: error: expected an integer constant, found ')'");
	char deep[400];
	snprintf(deep, sizeof deep, ".visible .entry k()\n{\n\t.reg .b32 %%r<2>;\n\tmov.u32 %%r1, "
	         "%.*s1;\n}\n", 80, "--------------------------------------------------------"
	         "--------------------------------------------------");
	assert_read_error(deep, "t.ptx:4:80: error: a constant expression nested more than 64 deep");
}

/* ---- { } blocks ------------------------------------------------------------------ */

static const char two_waits[] =
	"\tmov.u32 %r1, %tid.x;\n"
	"\t{\n\t.reg .pred P1;\n\tsetp.lt.u32 P1, %r1, 100;\n"
	"LAB_WAIT:\n\t@P1 bra DONE;\n\tbra LAB_WAIT;\nDONE:\n\t}\n"
	"\tst.shared.u8 [%r1], 0;\n"
	"\t{\n\t.reg .pred P1;\n\tsetp.lt.u32 P1, %r1, 100;\n"
	"LAB_WAIT:\n\t@P1 bra DONE;\n\tbra LAB_WAIT;\nDONE:\n\t}\n"
	"\tst.shared.u8 [%r1+1000], 0;\n";

static void test_blocks(void **state)
{
	(void)state;
	/* two blocks declare the same label and register: each branch goes to
	 * its own block's label (a wrong one would skip a store or loop) */
	int64_t a[8];
	assert_int_equal(addrs(two_waits, 3, 0, a, 8), 2);
	assert_int_equal(a[0], 3);
	assert_int_equal(a[1], 1003);
	/* a block's register hides the function's until the block closes */
	assert_int_equal(addr1("\tmov.u32 %r1, 8;\n\t{ .reg .b32 %r1;\n\tmov.u32 %r1, 4;\n"
	                       "\tst.shared.u8 [%r1], 0; }\n\tst.shared.u8 [%r1+100], 0;", 0), 4);
	addrs("\tmov.u32 %r1, 8;\n\t{ .reg .b32 %r1;\n\tmov.u32 %r1, 4;\n"
	      "\tst.shared.u8 [%r1], 0; }\n\tst.shared.u8 [%r1+100], 0;", 0, 0, a, 8);
	assert_int_equal(a[1], 108);
	/* an inner branch to a label of the enclosing block, before and after */
	addrs("\tmov.u32 %r1, 0;\n$Lback:\n\tadd.u32 %r1, %r1, 1;\n"
	      "\t{ setp.lt.u32 %p1, %r1, 3;\n\t@%p1 bra $Lback;\n\tbra $Lout; }\n"
	      "\tst.shared.u8 [500], 0;\n$Lout:\n\tst.shared.u8 [%r1], 0;", 0, 0, a, 8);
	assert_int_equal(a[0], 3);
	assert_int_equal(a[1], -1);
	/* the innermost declaring block wins, even when it declares the label
	 * after the branch and an outer block declared it before */
	addrs("$L:\n\tst.shared.u8 [1], 0;\n\tsetp.eq.u32 %p1, %r9, 7;\n\t@%p1 bra $Lend;\n"
	      "\tmov.u32 %r9, 7;\n\t{ bra $L;\n\tst.shared.u8 [2], 0;\n"
	      "$L:\n\tst.shared.u8 [3], 0; }\n$Lend:", 0, 0, a, 8);
	assert_int_equal(a[0], 1);
	assert_int_equal(a[1], 3);
	assert_int_equal(a[2], -1);
	/* a call sequence's .params, block after block */
	Ptx *p = ptx(".version 8.7\n.target sm_90\n.address_size 64\n"
	             ".func (.param .b32 r) f(.param .b32 a)\n{\n\tret;\n}\n"
	             ".visible .entry k()\n{\n"
	             "\t{ .param .b32 param0; .param .b32 retval0;\n\tcall.uni (retval0), f, (param0); }\n"
	             "\t{ .param .b64 param0; .param .b32 retval0;\n\tcall.uni (retval0), f, (param0); }\n"
	             "\tret;\n}\n");
	if (!p->ok)
		fail_msg("%s", p->diag);
	int k = ptx_find_func(&p->m, "k");
	/* the same two, param0 placed again where it grows: 8 + 8 + 8 bytes */
	assert_int_equal(p->m.func[k].psize, 24);
	ptx_free(p);
	assert_read_error(".visible .entry k()\n{\n\t{\n$L1:\n$L1:\n\t}\n\tret;\n}\n",
	                  "t.ptx:5:1: error: '$L1' is declared twice");
	assert_read_error(".visible .entry k()\n{\n\t{\n$L1:\n\t}\n\tbra $L1;\n}\n",
	                  "t.ptx:6:6: error: '$L1' is not declared");
	assert_read_error(".visible .entry k()\n{\n\t{ .reg .b32 %q;\n\t}\n\tmov.u32 %q, 1;\n}\n",
	                  "t.ptx:5:10: error: '%q' is not declared");
}

/* ---- brx.idx ----------------------------------------------------------------------- */

static const char brx[] =
	"\tand.b32 %r1, %tid.x, 3;\n\tld.param.u32 %r2, [n];\n\tsetp.ne.u32 %p1, %r2, 0;\n"
	"$tbl: .branchtargets $L0, $L1, $L2;\n"
	"\t@%p1 brx.idx %r1, $tbl;\n\tst.shared.u8 [90], 0;\n\tbra $Lend;\n"
	"$L0:\n\tst.shared.u8 [10], 0;\n\tbra $Lend;\n"
	"$L1:\n\tst.shared.u8 [11], 0;\n\tbra $Lend;\n"
	"$L2:\n\tst.shared.u8 [12], 0;\n$Lend:";

static void test_brx(void **state)
{
	(void)state;
	int64_t a[4];
	for (int tid = 0; tid < 4; tid++) {
		addrs(brx, tid, 1, a, 4);
		/* an index past the table falls through */
		assert_int_equal(a[0], tid < 3 ? 10 + tid : 90);
		addrs(brx, tid, 0, a, 4);   /* guarded off */
		assert_int_equal(a[0], 90);
	}
	/* an index bankc cannot know: each target runs, as any branch bankc
	 * cannot decide, and the path goes on where they meet */
	addrs("\tld.shared.u32 %r1, [s];\n$t: .branchtargets $L0, $L1;\n\tbrx.idx %r1, $t;\n"
	      "$L0:\n\tst.shared.u8 [20], 0;\n\tbra $Le;\n$L1:\n\tst.shared.u8 [21], 0;\n$Le:\n"
	      "\tst.shared.u8 [30], 0;", 0, 0, a, 4);
	assert_int_not_equal(a[0], -2);
	assert_read_error(".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tbrx.idx %r1, $t;\n"
	                  "$t: .branchtargets $L0;\n$L0:\n\tret;\n}\n",
	                  "t.ptx:4:15: error: '$t' is not a .branchtargets table declared before "
	                  "this branch");
	assert_read_error(".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n$t: .branchtargets $L0;\n"
	                  "\tbrx.idx %r1, $t;\n\tret;\n}\n",
	                  "t.ptx:4:20: error: '$L0' is not declared");
	assert_read_error(".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tbrx.idx %r1;\n}\n",
	                  "t.ptx:4:2: error: 'brx.idx' needs an index and a label of .branchtargets");
}

/* ---- the rest of the ISA's syntax --------------------------------------------------- */

static void test_syntax(void **state)
{
	(void)state;
	/* a forward call with a prototype after it; tables of call targets;
	 * an instruction bankc does not know, read with unknown results */
	Ptx *p = ptx(".version 8.7\n.target sm_90\n.address_size 64\n"
	             ".visible .entry k()\n{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<2>;\n"
	             "\tproto : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
	             "\t$ct: .calltargets later;\n"
	             "\tnewop.sync.aligned.m8.b32 %r1, {%r2, _}, [%rd1], 3;\n"
	             "\t{ .param .b32 a0; .param .b32 r0;\n"
	             "\tcall (r0), later, (a0), proto;\n"
	             "\tcall (r0), %rd1, (a0), proto;\n"
	             "\tcall (r0), %rd1, (a0), $ct; }\n\tret;\n}\n"
	             ".func (.param .b32 r) later(.param .b32 a)\n{\n\tret;\n}\n");
	if (!p->ok)
		fail_msg("%s", p->diag);
	int k = ptx_find_func(&p->m, "k");
	const PtxInst *in = &p->m.inst[p->m.func[k].first];
	assert_int_equal(in[0].op.kind, PO_OTHER);
	assert_int_equal(in[1].op.kind, PO_CALL);
	assert_int_equal(in[1].opd[0].kind, OPD_FUNC);
	assert_string_equal(p->m.func[in[1].opd[0].sym].name, "later");
	assert_int_equal(in[2].opd[0].kind, OPD_REG);
	ptx_free(p);
	/* vector registers: elements by .x .y .z .w or .r .g .b .a, the whole
	 * as a list of them */
	assert_int_equal(addr1("\t{ .reg .v4 .b32 %v;\n\tmov.u32 %v.z, 12;\n\tmov.u32 %r1, %v.b;\n"
	                       "\tst.shared.u8 [%r1], 0; }", 0), 12);
	int64_t a[4];
	addrs("\t{ .reg .v2 .b32 %v;\n\tld.shared.v2.u32 %v, [s];\n\tmov.u32 %v.x, 40;\n"
	      "\tmov.u32 %r1, %v.r;\n\tst.shared.v2.u32 [%r1], %v; }", 0, 0, a, 4);
	assert_int_equal(a[0], 0);      /* the load, then the store */
	assert_int_equal(a[1], 40);
	assert_read_error(".visible .entry k()\n{\n\t.reg .v2 .b32 %v;\n\tmov.u32 %v.z, 1;\n}\n",
	                  "t.ptx:4:10: error: '%v.z' is not declared");
	/* an extern (dynamic) shared array declared in the body */
	assert_int_equal(addr1("\t{ .extern .shared .align 16 .b8 dyn[];\n\tmov.u32 %r1, dyn;\n"
	                       "\tst.shared.u8 [%r1+3], 0; }", 0), 65536 + 3);
	/* a function's attributes */
	p = ptx(".version 8.7\n.target sm_90\n.address_size 64\n"
	        ".func .attribute(.unified(0x1234, 0x5678)) uf()\n{\n\tret;\n}\n");
	if (!p->ok)
		fail_msg("%s", p->diag);
	assert_string_equal(p->m.func[0].name, "uf");
	ptx_free(p);
	assert_read_error(".func .attribute(.unified(1, 2) uf()\n{\n\tret;\n}\n",
	                  "t.ptx:1:17: error: '(' not closed");
	/* sparse wgmma's ten operands: the results kept, all read */
	p = ptx(".version 8.7\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n"
	        "\t.reg .f32 %f<5>;\n\t.reg .b64 %rd<3>;\n\t.reg .b32 %r<2>;\n"
	        "\twgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {%f1, %f2, %f3, %f4}, "
	        "%rd1, %rd2, %r1, 0, 1, 1, 1, 0, 0;\n\tret;\n}\n");
	if (!p->ok)
		fail_msg("%s", p->diag);
	assert_int_equal(p->m.inst[0].nopd, 8);
	assert_int_equal(p->m.inst[0].opd[0].kind, OPD_VEC);
	ptx_free(p);
	assert_read_error(".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n"
	                  "\tadd.u32 %r1, 1, 2, 3, 4, 5, 6, 7, 8;\n}\n",
	                  "t.ptx:4:36: error: more than 8 operands");
}

/* ---- kernel names with template arguments ------------------------------------------- */

static void test_demangle(void **state)
{
	(void)state;
	static const char *const cases[][2] = {
		{"_Z6columnILi1EEvPf", "column<1>"},
		{"_ZN5tiles4tileILi0EfLb0EEEvPT0_", "tiles::tile<0, float, false>"},
		{"_ZN2ns4tileILi32EdLb1EEEvv", "ns::tile<32, double, true>"},
		{"_Z1kILin5ELj7ELm9ELx3ELy4ELc65EEvv", "k<-5, 7u, 9ul, 3ll, 4ull, (char)65>"},
		{"_Z6strideILj2EEvPi", "stride<2u>"},
		{"_Z1fIL5Order0ELN2ns5OrderE1EEvv", "f<(Order)0, (ns::Order)1>"},
		{"_Z3fooIPKcRiEvv", "foo<char const*, int&>"},
		{"_Z3fooIN4cute5tupleIJiiEEENS1_IJfEEEEvv",
		 "foo<cute::tuple<int, int>, cute::tuple<float>>"},
		{"_Z3fooIS_Evv", "foo<foo>"},
		/* a substitution used again is no new candidate (as c++filt reads it) */
		{"_ZN3cub6detail10radix_sort6SingleINS0_5radix3hubIfNS_8NullTypeEyE1PELNS_5OrderE0EfS6_yEEvv",
		 "cub::detail::radix_sort::Single<cub::detail::radix::hub<float, cub::NullType, "
		 "unsigned long long>::P, (cub::Order)0, float, cub::detail::radix::hub<float, "
		 "cub::NullType, unsigned long long>, unsigned long long>"},
		{"_ZN3cub6detail10radix_sort6SingleINS0_5radix3hubIfNS_8NullTypeEyE1PELNS_5OrderE0EfS5_yEEvv",
		 "cub::detail::radix_sort::Single<cub::detail::radix::hub<float, cub::NullType, "
		 "unsigned long long>::P, (cub::Order)0, float, cub::NullType, unsigned long long>"},
		{"_ZNSt3fooIiEEvv", "std::foo<int>"},
		{"_Z4kernI13__nv_bfloat16Lb0EEvPT_", "kern<__nv_bfloat16, false>"},
		{"_Z13trimul_globalIXadL_Z11matmul_tri3PfiPKfiS2_iiifEEEvS0_S2_iii",
		 "trimul_global<&matmul_tri3>"},
		/* not templates: the plain name; not mangled: as it is */
		{"_Z9transposePfS_", "transpose"},
		{"_ZN2ns4kernEv", "ns::kern"},
		{"plain_kernel", "plain_kernel"},
		/* what it does not know: the plain name, never a wrong one */
		{"_Z3fooIXplLi1ELi2EEEvv", "foo"},
		{"_Z3fooIZ4mainEUlvE_Evv", "foo"},
		{"_Z3fooIS4_Evv", "foo"},
		{"_Z3fooILf3f800000EEvv", "foo"},
	};
	char buf[512];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ptx_kernel_name(cases[i][0], buf, sizeof buf);
		assert_string_equal(buf, cases[i][1]);
	}
	/* a small buffer cuts, and terminates */
	ptx_kernel_name("_ZN5tiles4tileILi0EfLb0EEEvPT0_", buf, 8);
	assert_string_equal(buf, "tiles::");
	/* every prefix of each, and garbage: an answer, no crash, no overread
	 * (the sanitizer and valgrind runs of the units check the last) */
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t n = strlen(cases[i][0]);
		for (size_t k = 0; k <= n; k++) {
			char *pre = malloc(k + 1);
			memcpy(pre, cases[i][0], k);
			pre[k] = 0;
			ptx_kernel_name(pre, buf, sizeof buf);
			assert_true(buf[0] || k == 0);
			free(pre);
		}
	}
	uint32_t seed = 12345;
	static const char alphabet[] = "_ZNIEJLSXKPRabcdfijlmnstvxy0123456789_";
	for (int t = 0; t < 20000; t++) {
		char g[64] = "_Z";
		int len = 2 + (int)(seed % 60);
		for (int k = 2; k < len; k++) {
			seed = seed * 1103515245u + 12345u;
			g[k] = alphabet[(seed >> 16) % (sizeof alphabet - 1)];
		}
		g[len] = 0;
		ptx_kernel_name(g, buf, sizeof buf);
		assert_true(strlen(buf) < sizeof buf);
	}
	/* deep nesting stops at the bound */
	char deep[4096] = "_Z1f";
	for (int k = 0; k < 500; k++)
		strcat(deep, "I1a");
	ptx_kernel_name(deep, buf, sizeof buf);
	assert_string_equal(buf, "f");
	/* names compared without their spaces */
	assert_true(ptx_name_matches("tile<0, float>", "tile<0,float>"));
	assert_true(ptx_name_matches("a<b<c> >", "a<b<c>>"));
	assert_false(ptx_name_matches("tile<0, float>", "tile<1,float>"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_const_expr),
		cmocka_unit_test(test_blocks),
		cmocka_unit_test(test_brx),
		cmocka_unit_test(test_syntax),
		cmocka_unit_test(test_demangle),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
