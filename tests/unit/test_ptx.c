/* Unit tests of bankc scan (compiler/ptx/, compiler/scan/): the PTX
 * lexer, the reader, the interpreter's instructions one by one (each
 * computes a value that a one-byte shared store then uses as its
 * address), the diagnostics of values it cannot know, the limits, warp
 * grouping and costing. */
#include "testutil.h"

#include "scan/scan.h"

/* ---- helpers ------------------------------------------------------------------ */

typedef struct {
	Pool *pool;
	Src src;
	PtxModule m;
	char *diag;
	size_t diag_len;
	bool ok;
} Ptx;

static Ptx *ptx_n(const char *text, size_t len)
{
	Ptx *p = calloc(1, sizeof *p);
	p->pool = pool_new();
	char *copy = malloc(len + 1);
	memcpy(copy, text, len);
	copy[len] = 0;
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

static Ptx *ptx(const char *text)
{
	return ptx_n(text, strlen(text));
}

static void ptx_free(Ptx *p)
{
	free((char *)p->src.text);
	free(p->diag);
	pool_free(p->pool);
	free(p);
}

static char *first_diag(const Ptx *p)
{
	static char buf[512];
	size_t n = strcspn(p->diag ? p->diag : "", "\n");
	if (n >= sizeof buf)
		n = sizeof buf - 1;
	memcpy(buf, p->diag ? p->diag : "", n);
	buf[n] = 0;
	return buf;
}

#define assert_read_error(text, expect) do { \
		Ptx *p_ = ptx(text); \
		assert_false(p_->ok); \
		assert_string_equal(first_diag(p_), expect); \
		ptx_free(p_); \
	} while (0)

static const char head[] =
	".version 9.0\n.target sm_90\n.address_size 64\n";

static int last_tz;     /* the store's address: the low bits ptxas knows */

/* A kernel of one thread whose BODY leaves a value in %r9 (or %rd9 when
 * wide); a one-byte store to that shared address reveals it.  Returns
 * the value, or -1 if the path stopped. */
static int64_t value_at(const char *body, const char *mem);

static int64_t value(const char *body, bool wide)
{
	return value_at(body, wide ? "%rd9" : "%r9");
}

/* The same, the store's address operand being MEM. */
static int64_t value_at(const char *body, const char *mem)
{
	char text[8192];
	snprintf(text, sizeof text,
	         "%s.visible .entry k(.param .u32 k_param_0)\n{\n"
	         "\t.reg .pred %%p<8>;\n\t.reg .b16 %%rs<8>;\n\t.reg .b32 %%r<16>;\n"
	         "\t.reg .b64 %%rd<16>;\n\t.shared .align 16 .b8 s[16777216];\n"
	         "%s\n\tst.shared.u8 [%s], 0;\n\tret;\n}\n", head, body, mem);
	Ptx *p = ptx(text);
	if (!p->ok)
		fail_msg("%s", p->diag);
	InterpOpts o = {.block = {1, 1, 1}, .max_steps = 100000};
	o.nparams = 1;
	o.param[0].index = 0;
	o.param[0].value = 77;
	Interp r;
	interp_init(&r, &p->m, 0, &o);
	InterpStop st;
	int64_t v = -1;
	if (interp_thread(&r, 0, &st)) {
		assert_int_equal(r.nrec, 1);
		v = r.rec[0].addr;
		last_tz = r.rec[0].tz;
	}
	interp_free(&r);
	ptx_free(p);
	return v;
}

#define V32(body, expect) assert_int_equal(value(body, false), (expect))
#define V64(body, expect) assert_int_equal(value(body, true), (expect))

/* Scan a whole kernel (the first .entry) over a block. */
typedef struct {
	Ptx *p;
	ScanKernel k;
	InterpOpts ro;
} Scan;

static Scan *scan(const char *text, int bx, int by, int64_t max_steps, bool merge)
{
	Scan *s = calloc(1, sizeof *s);
	s->p = ptx(text);
	if (!s->p->ok)
		fail_msg("%s", s->p->diag);
	s->ro = (InterpOpts){.block = {bx, by, 1}, .max_steps = max_steps};
	ScanOpts so = {true, sim_geom_default, merge, NULL};
	int k = -1;
	for (int i = 0; i < s->p->m.nfunc && k < 0; i++)
		if (s->p->m.func[i].entry)
			k = i;
	scan_kernel(&s->p->m, k, &s->ro, &so, &s->k);
	return s;
}

static void scan_free(Scan *s)
{
	scan_kernel_free(&s->p->m, &s->k);
	ptx_free(s->p);
	free(s);
}

static int64_t total(const Scan *s, bool loads)
{
	int64_t w = 0;
	for (int i = 0; i < s->p->m.nslots; i++) {
		const ScanAcc *a = &s->k.acc[i];
		if (a->count && op_is_load(a->op) == loads)
			w += a->counted;
	}
	return w;
}

/* ---- the lexer ------------------------------------------------------------------- */

static void lex_all(const char *text, PtxTok *out, int max, int *n)
{
	Src src = {"t.ptx", text, strlen(text)};
	Diag d = {.src = &src, .out = stderr};
	PtxLexer lx;
	ptx_lex_init(&lx, &d);
	*n = 0;
	if (setjmp(d.jb))
		fail_msg("lexer error on '%s'", text);
	for (;;) {
		PtxTok t = ptx_lex_next(&lx);
		if (*n < max)
			out[(*n)++] = t;
		if (t.kind == PT_EOF)
			break;
	}
}

static void test_lex_tokens(void **state)
{
	(void)state;
	PtxTok t[32];
	int n;
	lex_all("@!%p1 bra.uni $L__BB0_2; // c\n ld.shared::cta.v4.f32 {%f1,_}, [%rd1+-4];", t, 32, &n);
	PtxTokKind want[] = {PT_AT, PT_BANG, PT_NAME, PT_NAME, PT_NAME, PT_SEMI,
		PT_NAME, PT_LBRACE, PT_NAME, PT_COMMA, PT_NAME, PT_RBRACE, PT_COMMA,
		PT_LBRACK, PT_NAME, PT_PLUS, PT_MINUS, PT_INT, PT_RBRACK, PT_SEMI, PT_EOF};
	assert_int_equal(n, (int)(sizeof want / sizeof want[0]));
	for (int i = 0; i < n; i++)
		assert_int_equal(t[i].kind, want[i]);
	assert_int_equal(t[6].n, strlen("ld.shared::cta.v4.f32"));
	assert_int_equal(t[6].pos.line, 2);
	assert_int_equal(t[6].pos.col, 2);
	lex_all(".reg .b32 %r<22>; %tid.x 0x1F 017 0b101 42U 0f3F800000 0d3FF0000000000000 1.5", t, 32, &n);
	assert_int_equal(t[0].kind, PT_DIR);
	assert_int_equal(t[3].kind, PT_LT);
	assert_int_equal(t[4].num, 22);
	assert_int_equal(t[7].kind, PT_NAME);
	assert_int_equal(t[7].n, 6);
	assert_int_equal(t[8].num, 31);
	assert_int_equal(t[9].num, 15);
	assert_int_equal(t[10].num, 5);
	assert_int_equal(t[11].num, 42);
	assert_int_equal(t[12].kind, PT_FLOAT);
	assert_int_equal(t[12].num, 0x3F800000);
	assert_int_equal(t[13].kind, PT_FLOAT);
	assert_int_equal(t[14].kind, PT_FLOAT);
	lex_all("/* a\n b */ x \"str\\\"ing\"", t, 32, &n);
	assert_int_equal(t[0].kind, PT_NAME);
	assert_int_equal(t[0].pos.line, 2);
	assert_int_equal(t[1].kind, PT_STRING);
}

static void test_lex_errors(void **state)
{
	(void)state;
	assert_read_error("/* open", "t.ptx:1:1: error: comment not closed");
	assert_read_error(".version 9.0\n#", "t.ptx:2:1: error: unexpected character '#'");
	assert_read_error("99999999999999999999", "t.ptx:1:1: error: integer "
	                  "'99999999999999999999' does not fit in 64 bits");
	assert_read_error("\"abc\n", "t.ptx:1:1: error: string not closed on its line");
	assert_read_error("12abc", "t.ptx:1:1: error: invalid number '12abc'");
	Ptx *p = ptx_n(".version 9.0 \0b", 15);
	assert_false(p->ok);
	assert_string_equal(first_diag(p), "t.ptx:1:14: error: null character in file");
	ptx_free(p);
	assert_read_error("\xc3\xa9", "t.ptx:1:1: error: unexpected byte 0xc3 (text "
	                  "outside ASCII is allowed only in comments and strings)");
}

/* ---- the reader ------------------------------------------------------------------- */

static void test_read_module(void **state)
{
	(void)state;
	Ptx *p = ptx(".version 9.0\n.target sm_90\n.address_size 64\n"
	             ".extern .shared .align 16 .b8 dyn[];\n"
	             ".shared .align 4 .b8 a[6];\n"
	             ".global .align 4 .u32 g[4] = {1, 2, 3, 4};\n"
	             ".func (.param .b32 func_retval0) f(.param .b32 f_param_0)\n"
	             "{\n\t.reg .b32 %r<3>;\n\tld.param.u32 %r1, [f_param_0];\n"
	             "\tst.param.b32 [func_retval0+0], %r1;\n\tret;\n}\n"
	             ".visible .entry k(.param .u64 k_param_0)\n.reqntid 64, 2\n{\n"
	             "\t.reg .b32 %r<5>;\n\t.shared .align 128 .b8 t[256];\n"
	             "\t.loc 1 7 3\n$L1:\n\tmov.u32 %r1, t;\n"
	             "\t{ .param .b32 param0; .param .b32 retval0;\n"
	             "\tst.param.b32 [param0+0], %r1;\n"
	             "\tcall.uni (retval0), f, (param0);\n"
	             "\tld.param.b32 %r2, [retval0+0]; }\n"
	             "\tbra $L1;\n}\n"
	             ".file 1 \"/src/k.cu\", 1700000000, 100\n"
	             ".section .debug_str { $L__info: .b8 95, 0 }\n");
	if (!p->ok)
		fail_msg("%s", p->diag);
	const PtxModule *m = &p->m;
	assert_int_equal(m->nfunc, 2);
	int k = ptx_find_func(m, "k");
	assert_true(k >= 0);
	assert_true(m->func[k].entry);
	assert_int_equal(m->func[k].reqntid[0], 64);
	assert_int_equal(m->func[k].reqntid[1], 2);
	assert_int_equal(m->func[k].nparams, 1);
	/* a at 0 (6 bytes), t 128-aligned, dyn after both */
	int64_t at = -1, tt = -1, dt = -1;
	for (int i = 0; i < m->nsym; i++) {
		if (strcmp(m->sym[i].name, "a") == 0) at = m->sym[i].addr;
		if (strcmp(m->sym[i].name, "t") == 0) tt = m->sym[i].addr;
		if (strcmp(m->sym[i].name, "dyn") == 0) dt = m->sym[i].addr;
	}
	assert_int_equal(at, 0);
	assert_int_equal(tt, 128);
	assert_int_equal(dt, 384);
	const PtxInst *mv = &m->inst[m->func[k].first];
	assert_int_equal(mv->op.kind, PO_MOV);
	assert_int_equal(mv->line, 7);
	assert_int_equal(mv->col, 3);
	assert_string_equal(ptx_file_path(m, 1), "/src/k.cu");
	const PtxInst *br = &m->inst[m->func[k].first + m->func[k].ninst - 1];
	assert_int_equal(br->op.kind, PO_BRA);
	assert_int_equal(br->opd[0].sym, m->func[k].first);
	char sn[64];
	ptx_short_name("_Z9transposePfS_", sn, sizeof sn);
	assert_string_equal(sn, "transpose");
	ptx_short_name("_ZN2ns4kernEv", sn, sizeof sn);
	assert_string_equal(sn, "ns::kern");
	ptx_free(p);
	/* performance directives, a pragma among them, before the body */
	p = ptx(".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n"
	        ".maxntid 64, 1, 1\n.pragma \"nounroll\";\n.explicitcluster\n"
	        ".reqnctapercluster 2, 1, 1\n{\n\tret;\n}\n");
	assert_true(p->ok);
	assert_int_equal(p->m.func[0].ninst, 1);
	assert_int_equal(p->m.func[0].reqntid[0], 0);
	ptx_free(p);
}

static void test_read_errors(void **state)
{
	(void)state;
	assert_read_error(".visible .entry k()\n{\n\tfoo.bar %r1;\n}\n",
	                  "t.ptx:3:10: error: '%r1' is not declared");
	assert_read_error(".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r2, 1;\n}\n",
	                  "t.ptx:4:10: error: '%r2' is not declared");
	assert_read_error(".visible .entry k()\n{\n\tbra $L9;\n}\n",
	                  "t.ptx:3:6: error: '$L9' is not declared");
	assert_read_error(".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tld.shared.u32 %r1, %r0;\n}\n",
	                  "t.ptx:4:2: error: 'ld.shared.u32' needs an address in brackets as operand 2");
	assert_read_error(".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, 1\n",
	                  "t.ptx:5:1: error: expected ',' or ';' before the end of the file");
	assert_read_error(".visible .entry k()\n{\n\t{\n", "t.ptx:2:1: error: function body not closed");
	assert_read_error(".visible .entry k()\n{\n\tCALL %r1;\n}\n",
	                  "t.ptx:3:2: error: unknown instruction 'CALL'");
	assert_read_error(".shared .align 3 .b8 x[4];\n", "t.ptx:1:16: error: alignment must be a power of two");
	assert_read_error(".visible .entry k()\n{\n\t.reg .b32 %r<99999999>;\n}\n",
	                  "t.ptx:3:15: error: register count 99999999 is out of range (0 to 1048576)");
	assert_read_error(".visible .entry k()\n{\n}\n.visible .entry k()\n{\n}\n",
	                  "t.ptx:4:17: error: function 'k' is defined twice");
	assert_read_error("mov.u32 %r1, 1;\n", "t.ptx:1:1: error: expected a directive, found 'mov.u32'");
	assert_read_error(".visible .entry k()\n{\n\tcall.uni g, ();\n}\n",
	                  "t.ptx:3:11: error: 'g' is not a declared function");
}

/* ---- instructions ------------------------------------------------------------------- */

static void test_integer_ops(void **state)
{
	(void)state;
	V32("mov.u32 %r9, 12345;", 12345);
	V32("mov.u32 %r1, 7; add.s32 %r9, %r1, 5;", 12);
	V32("mov.u32 %r1, 7; sub.s32 %r2, %r1, 9; add.s32 %r9, %r2, 100;", 98);
	V32("mov.u32 %r1, 300; mul.lo.s32 %r9, %r1, 7;", 2100);
	V32("mov.u32 %r1, -1; mul.hi.u32 %r2, %r1, %r1; shr.u32 %r9, %r2, 8;", 0xffffff);
	V32("mov.u32 %r1, -3; mul.hi.s32 %r2, %r1, 5; add.s32 %r9, %r2, 10;", 9);
	V64("mov.u32 %r1, -2; mul.wide.s32 %rd1, %r1, 3; add.s64 %rd9, %rd1, 100;", 94);
	V64("mov.u32 %r1, 65536; mul.wide.u32 %rd1, %r1, 200;"
	    "shr.u64 %rd9, %rd1, 8;", 65536 * 200 / 256);
	V32("mov.u32 %r1, 6; mad.lo.s32 %r9, %r1, 7, 8;", 50);
	V64("mov.u32 %r1, 6; mov.u64 %rd1, 1000; mad.wide.u32 %rd9, %r1, 7, %rd1;", 1042);
	V32("mov.u32 %r1, 0x1000001; mul24.lo.u32 %r9, %r1, 3;", 3);
	V32("mov.u32 %r1, 10; mad24.lo.u32 %r9, %r1, 3, 1;", 31);
	V32("mov.u32 %r1, 3; sad.u32 %r9, %r1, 10, 5;", 12);
	V32("mov.u32 %r1, -7; div.s32 %r2, %r1, 2; add.s32 %r9, %r2, 10;", 7);
	V32("mov.u32 %r1, -7; rem.s32 %r2, %r1, 2; add.s32 %r9, %r2, 10;", 9);
	V32("mov.u32 %r1, 100; div.u32 %r9, %r1, 7;", 14);
	/* a known generic address outside the shared and local windows is global */
	V32("mov.u64 %rd1, 0x7f0000000000; isspacep.global %p1, %rd1; selp.u32 %r9, 1, 2, %p1;", 1);
	V32("mov.u64 %rd1, 0x700000000010; isspacep.global %p1, %rd1; selp.u32 %r9, 1, 2, %p1;", 2);
	V32("mov.u64 %rd1, 0x600000000010; isspacep.global %p1, %rd1; selp.u32 %r9, 1, 2, %p1;", 2);
	V32("mov.u64 %rd1, 0x600000000010; isspacep.local %p1, %rd1; selp.u32 %r9, 1, 2, %p1;", 1);
	V32("mov.u64 %rd1, 0x7f0000000000; isspacep.local %p1, %rd1; selp.u32 %r9, 1, 2, %p1;", 2);
	V32("mov.u64 %rd1, 0x700000000010; isspacep.shared %p1, %rd1; selp.u32 %r9, 1, 2, %p1;", 1);
	/* a 32-bit register's address wraps: [%r9+252] with %r9 = -36 */
	assert_int_equal(value_at("mov.u32 %r9, -36;", "%r9+252"), 216);
	assert_int_equal(value_at("mov.u64 %rd9, -36;", "%rd9+252"), 216);
	V32("mov.u32 %r1, 100; rem.u32 %r9, %r1, 7;", 2);
	V32("mov.u32 %r1, -5; abs.s32 %r9, %r1;", 5);
	V32("mov.u32 %r1, -5; neg.s32 %r9, %r1;", 5);
	V32("mov.u32 %r1, -5; min.s32 %r2, %r1, 3; add.s32 %r9, %r2, 10;", 5);
	V32("mov.u32 %r1, -5; min.u32 %r9, %r1, 3;", 3);
	V32("mov.u32 %r1, -5; max.s32 %r9, %r1, 3;", 3);
	V32("mov.u32 %r1, 0xf0f0; popc.b32 %r9, %r1;", 8);
	V32("mov.u32 %r1, 0x00ff0000; clz.b32 %r9, %r1;", 8);
	V32("mov.u32 %r1, 0x00ff0000; bfind.u32 %r9, %r1;", 23);
	V32("mov.u32 %r1, 0x00ff0000; bfind.shiftamt.u32 %r9, %r1;", 8);
	V32("mov.u32 %r1, 0; bfind.u32 %r2, %r1; add.s32 %r9, %r2, 2;", 1);
	V32("mov.u32 %r1, 3; brev.b32 %r2, %r1; shr.u32 %r9, %r2, 22;", 0x300);
	V32("mov.u32 %r1, 0xabcd; bfe.u32 %r9, %r1, 4, 8;", 0xbc);
	V32("mov.u32 %r1, 0xa0; bfe.s32 %r2, %r1, 4, 4; add.s32 %r9, %r2, 100;", 94);
	V32("mov.u32 %r1, 0xff; bfe.u32 %r9, %r1, 0, 0;", 0);
	V32("mov.u32 %r1, 0xf000; bfi.b32 %r9, 5, %r1, 4, 3;", 0xf050);
	V32("mov.u32 %r1, 0xf0f0; and.b32 %r9, %r1, 0x0ff0;", 0x00f0);
	V32("mov.u32 %r1, 0xf000; or.b32 %r9, %r1, 0x000f;", 0xf00f);
	V32("mov.u32 %r1, 0xff00; xor.b32 %r9, %r1, 0x0ff0;", 0xf0f0);
	V32("mov.u32 %r1, 0xffff0000; not.b32 %r9, %r1;", 0xffff);
	V32("mov.u32 %r1, 0; cnot.b32 %r9, %r1;", 1);
	V32("mov.u32 %r1, 0xf00; mov.u32 %r2, 0x0f0; mov.u32 %r3, 0x00f;"
	    "lop3.b32 %r9, %r1, %r2, %r3, 0xfe;", 0xfff);
	V32("mov.u32 %r1, 0xff0; mov.u32 %r2, 0x0ff; mov.u32 %r3, 0xf0f;"
	    "lop3.b32 %r9, %r1, %r2, %r3, 0x96;", 0);
	V32("mov.u32 %r1, 0x80000000; mov.u32 %r2, 1; shf.l.wrap.b32 %r9, %r1, %r2, 4;", 0x18);
	V32("mov.u32 %r1, 0x100; mov.u32 %r2, 1; shf.r.clamp.b32 %r9, %r1, %r2, 12;", 0x100000);
	V32("mov.u32 %r1, 3; shl.b32 %r9, %r1, 4;", 48);
	V32("mov.u32 %r1, 3; shl.b32 %r2, %r1, 40; add.s32 %r9, %r2, 1;", 1);
	V32("mov.u32 %r1, -64; shr.s32 %r2, %r1, 4; add.s32 %r9, %r2, 10;", 6);
	V32("mov.u32 %r1, -64; shr.s32 %r2, %r1, 99; add.s32 %r9, %r2, 10;", 9);
	V32("mov.u32 %r1, 0x12345678; mov.u32 %r2, 0x9abcdef0; prmt.b32 %r3, %r1, %r2, 0x3210;"
	    "shr.u32 %r9, %r3, 8;", 0x123456);
	V32("mov.u32 %r1, 0x12345678; mov.u32 %r2, 0x9abcdef0; prmt.b32 %r3, %r1, %r2, 0x7654;"
	    "shr.u32 %r9, %r3, 8;", 0x9abcde);
	V32("mov.u32 %r1, 0x00000080; prmt.b32 %r3, %r1, 0, 0x8880; shr.u32 %r9, %r3, 8;", 0xffffff);
	V32("mov.u32 %r1, 0x44332211; prmt.b32.f4e %r3, %r1, 0, 1; and.b32 %r9, %r3, 0xffffff;", 0x443322);
}

/* What ptxas knows of an address: its value where it comes from
 * immediates, else the low zero bits that the arithmetic makes. */
#define TZ(body, expect) (value(body, false), assert_int_equal(last_tz, (expect)))

static void test_alignment_known(void **state)
{
	(void)state;
	TZ("mov.u32 %r9, 48;", 4);
	TZ("mov.u32 %r9, 0;", 64);
	TZ("mov.u32 %r1, %tid.x; mov.u32 %r9, %r1;", 0);
	TZ("mov.u32 %r1, %tid.x; shl.b32 %r9, %r1, 3;", 3);
	TZ("mov.u32 %r1, %tid.x; mul.lo.s32 %r9, %r1, 12;", 2);
	TZ("mov.u32 %r1, %tid.x; mad.lo.s32 %r9, %r1, 64, 16;", 4);
	TZ("mov.u32 %r1, %tid.x; and.b32 %r9, %r1, -8;", 3);
	TZ("mov.u32 %r1, %tid.x; shl.b32 %r2, %r1, 5; shr.u32 %r9, %r2, 2;", 3);
	/* the array, placed at 16 bytes or more, plus an offset */
	TZ("mov.u32 %r1, s; add.s32 %r9, %r1, 64;", 4);
	TZ("mov.u32 %r1, s; add.s32 %r9, %r1, 8;", 3);
	TZ("mov.u32 %r1, %tid.x; shl.b32 %r2, %r1, 4; mov.u32 %r3, s; add.s32 %r4, %r3, %r2;"
	   "cvt.u64.u32 %rd1, %r4; cvt.u32.u64 %r9, %rd1;", 4);
	/* a parameter's value is bankc's (77), not ptxas's */
	TZ("ld.param.u32 %r1, [k_param_0]; shl.b32 %r9, %r1, 1;", 1);
	TZ("mov.u32 %r1, %tid.x; ld.param.u32 %r2, [k_param_0]; shl.b32 %r3, %r2, 3;"
	   "shl.b32 %r9, %r1, %r3;", 0);
	TZ("mov.u32 %r1, 8; mov.u32 %r2, %tid.x; selp.u32 %r9, %r1, 16, %p1;", 3);
}

static void test_compare_convert(void **state)
{
	(void)state;
	V32("mov.u32 %r1, -1; setp.lt.s32 %p1, %r1, 0; selp.u32 %r9, 10, 20, %p1;", 10);
	V32("mov.u32 %r1, -1; setp.lo.u32 %p1, %r1, 0; selp.u32 %r9, 10, 20, %p1;", 20);
	V32("mov.u32 %r1, 5; setp.hs.u32 %p1, %r1, 5; selp.u32 %r9, 1, 2, %p1;", 1);
	V32("mov.u32 %r1, 5; setp.ne.s32 %p1|%p2, %r1, 5; selp.u32 %r9, 1, 2, %p2;", 1);
	V32("mov.u32 %r1, 5; setp.eq.s32 %p3, %r1, 5; setp.gt.and.s32 %p1, %r1, 9, %p3;"
	    "selp.u32 %r9, 1, 2, %p1;", 2);
	V32("mov.u32 %r1, 5; setp.eq.s32 %p3, %r1, 6; setp.gt.or.s32 %p1, %r1, 9, !%p3;"
	    "selp.u32 %r9, 1, 2, %p1;", 1);
	V32("mov.u32 %r1, 5; set.gt.u32.s32 %r2, %r1, 1; and.b32 %r9, %r2, 0xff;", 0xff);
	V32("mov.u32 %r1, 3; slct.u32.s32 %r9, 7, 8, %r1;", 7);
	V32("mov.u32 %r1, 0x12345; cvt.u16.u32 %rs1, %r1; cvt.u32.u16 %r9, %rs1;", 0x2345);
	V32("mov.u32 %r1, 0xfff0; cvt.u16.u32 %rs1, %r1; cvt.s32.s16 %r2, %rs1; add.s32 %r9, %r2, 20;", 4);
	V32("mov.u32 %r1, 300; cvt.sat.u8.s32 %r9, %r1;", 255);
	V32("mov.u32 %r1, -300; cvt.sat.s8.s32 %r2, %r1; add.s32 %r9, %r2, 200;", 72);
	V64("mov.u32 %r1, -1; cvt.u64.u32 %rd1, %r1; shr.u64 %rd9, %rd1, 12;", 0xfffff);
	V64("mov.u32 %r1, -1; cvt.s64.s32 %rd1, %r1; add.s64 %rd9, %rd1, 2;", 1);
	V64("mov.u64 %rd1, s; add.s64 %rd1, %rd1, 40; cvta.shared.u64 %rd2, %rd1;"
	    "cvta.to.shared.u64 %rd9, %rd2;", 40);
	V32("mov.u32 %r1, s; add.s32 %r9, %r1, 1;", 1);
	V32("mov.u32 %r9, s+24;", 24);
	V32("mov.u32 %r1, 5; setp.gt.s32 %p1, %r1, 3; @%p1 mov.u32 %r1, 9; mov.u32 %r9, %r1;", 9);
	V32("mov.u32 %r1, 5; setp.gt.s32 %p1, %r1, 3; @!%p1 mov.u32 %r1, 9; mov.u32 %r9, %r1;", 5);
	V32("mov.u32 %r1, 0x30002; mov.b32 {%rs1, %rs2}, %r1; cvt.u32.u16 %r2, %rs1;"
	    "cvt.u32.u16 %r3, %rs2; mad.lo.s32 %r9, %r3, 100, %r2;", 302);
	V64("mov.u32 %r1, 3; mov.u32 %r2, 0; mov.b64 %rd9, {%r1, %r2};", 3);
	V64("mov.u32 %r1, -1; mov.u32 %r2, 0; add.cc.u32 %r3, %r1, 2; addc.u32 %r4, %r2, 0;"
	    "mov.b64 %rd1, {%r3, %r4}; shr.u64 %rd9, %rd1, 12;", 0x100000);
	V32("ld.param.u32 %r9, [k_param_0];", 77);
	/* local memory: each thread's own, through local and generic addresses */
	V32(".local .align 8 .b8 dep[16]; mov.u64 %rd1, dep; mov.u32 %r1, 42;"
	    "st.local.u32 [%rd1+8], %r1; ld.local.u32 %r9, [%rd1+8];", 42);
	V32(".local .align 8 .b8 dep[16]; mov.u64 %rd1, dep; cvta.local.u64 %rd2, %rd1;"
	    "st.u32 [%rd2+4], 7; ld.local.u32 %r9, [%rd1+4];", 7);
	V32(".local .align 8 .b8 dep[16]; mov.u64 %rd1, dep; mov.u32 %r1, 5; mov.u32 %r2, 6;"
	    "st.local.v2.u32 [%rd1], {%r1, %r2}; ld.local.u32 %r3, [%rd1+4];"
	    "ld.local.u32 %r4, [%rd1]; mad.lo.s32 %r9, %r3, 10, %r4;", 65);
}

static void test_control(void **state)
{
	(void)state;
	/* a loop: 10 iterations of += 3 */
	V32("mov.u32 %r1, 0; mov.u32 %r2, 0;\n$L1:\n add.s32 %r1, %r1, 3; add.s32 %r2, %r2, 1;"
	    "setp.lt.u32 %p1, %r2, 10; @%p1 bra $L1; mov.u32 %r9, %r1;", 30);
	V32("mov.u32 %r1, 4; bra.uni $L2; mov.u32 %r1, 5;\n$L2:\n mov.u32 %r9, %r1;", 4);
	V32("mov.u32 %r9, %tid.x;", 0);
	V32("mov.u32 %r1, %ntid.x; mov.u32 %r2, %nctaid.x; add.s32 %r9, %r1, %r2;", 2);
	V32("mov.u32 %r9, %laneid;", 0);
	V32("elect.sync %r1|%p1, -1; selp.u32 %r2, 10, 20, %p1; add.s32 %r9, %r2, %r1;", 10);
	V32("elect.sync _|%p1, 1; selp.u32 %r9, 10, 20, %p1;", 10);
	V32("mov.u32 %r1, 3; setp.eq.s32 _|%p1, %r1, 4; selp.u32 %r9, 10, 20, %p1;", 10);
	V32("mov.u32 %r1, %lanemask_gt; shr.u32 %r9, %r1, 12;", 0xfffff);
}

/* ---- a whole kernel: calls, warps, diagnostics, limits ----------------------------------- */

static const char calls[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".shared .align 16 .b8 s[8192];\n"
	".func (.param .b32 func_retval0) idx(.param .b32 idx_param_0, .param .b64 idx_param_1)\n"
	"{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<3>;\n"
	"\tld.param.u32 %r1, [idx_param_0];\n\tld.param.u64 %rd1, [idx_param_1];\n"
	"\tshl.b32 %r2, %r1, 7;\n\tcvt.u64.u32 %rd2, %r2;\n\tadd.s64 %rd1, %rd1, %rd2;\n"
	"\tst.u32 [%rd1], %r1;\n"   /* a generic store into the shared window */
	"\tst.param.b32 [func_retval0+0], %r2;\n\tret;\n}\n"
	".visible .entry k()\n{\n\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<4>;\n"
	"\tmov.u32 %r1, %tid.x;\n\tmov.u64 %rd1, s;\n\tcvta.shared.u64 %rd2, %rd1;\n"
	"\t{ .param .b32 param0; .param .b64 param1; .param .b32 retval0;\n"
	"\tst.param.b32 [param0+0], %r1;\n\tst.param.b64 [param1+0], %rd2;\n"
	"\tcall.uni (retval0), idx, (param0, param1);\n\tld.param.b32 %r2, [retval0+0]; }\n"
	"\tmov.u32 %r3, s;\n\tadd.s32 %r4, %r3, %r2;\n\tld.shared.u32 %r5, [%r4+4];\n\tret;\n}\n";

static void test_calls_and_generic(void **state)
{
	(void)state;
	Scan *s = scan(calls, 32, 1, 1 << 20, true);
	assert_true(s->k.complete);
	/* lane n at byte 128 n + 0 (generic store) and + 4 (load): 32-way */
	assert_int_equal(total(s, false), 32);
	assert_int_equal(total(s, true), 32);
	scan_free(s);
}

/* 32 lanes of 4-byte stores 128 bytes apart, then a divergent loop:
 * lanes n < 16 run the store once, the others twice. */
static const char warps[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".visible .entry k()\n{\n\t.reg .pred %p<3>;\n\t.reg .b32 %r<8>;\n"
	"\t.shared .align 16 .b8 s[8192];\n"
	"\tmov.u32 %r1, %tid.x;\n\tand.b32 %r6, %r1, 31;\n\tshl.b32 %r2, %r6, 7;\n"
	"\tmov.u32 %r3, s;\n\tadd.s32 %r4, %r3, %r2;\n\tst.shared.u32 [%r4], 0;\n"
	"\tmov.u32 %r5, 0;\n$L1:\n\tshl.b32 %r7, %r6, 2;\n\tadd.s32 %r7, %r7, %r3;\n"
	"\tst.shared.u32 [%r7], 1;\n\tadd.s32 %r5, %r5, 1;\n"
	"\tsetp.lt.u32 %p1, %r6, 16;\n\t@%p1 bra $L2;\n"
	"\tsetp.lt.u32 %p2, %r5, 2;\n\t@%p2 bra $L1;\n$L2:\n\tret;\n}\n";

static void test_warps_and_divergence(void **state)
{
	(void)state;
	Scan *s = scan(warps, 64, 1, 1 << 20, true);
	assert_true(s->k.complete);
	const ScanAcc *a = &s->k.acc[0], *b = &s->k.acc[1];
	assert_int_equal(a->count, 2);          /* one per warp */
	assert_int_equal(a->wave, 64);
	assert_int_equal(b->count, 4);          /* two occurrences per warp */
	assert_int_equal(b->wave, 4);
	assert_int_equal(b->ideal, 4);
	scan_free(s);
}

static const char vec4[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".visible .entry k()\n{\n\t.reg .b32 %r<8>;\n\t.reg .f32 %f<2>;\n"
	"\t.shared .align 16 .b8 s[8192];\n"
	"\tmov.u32 %r1, %tid.x;\n\tshl.b32 %r2, %r1, %ALIGN;\n\tmov.u32 %r3, s;\n"
	"\tadd.s32 %r4, %r3, %r2;\n\tst.shared.f32 [%r4], %f1;\n\tst.shared.f32 [%r4+4], %f1;\n"
	"\tst.shared.f32 [%r4+8], %f1;\n\tst.shared.f32 [%r4+12], %f1;\n\tret;\n}\n";

static void test_ptxas_merge(void **state)
{
	(void)state;
	char text[sizeof vec4 + 8];
	/* 16-byte aligned: one 16-byte store of 4 phases (4 wavefronts) */
	snprintf(text, sizeof text, "%s", vec4);
	memcpy(strstr(text, "%ALIGN"), "4     ", 6);
	Scan *s = scan(text, 32, 1, 1 << 20, true);
	assert_int_equal(total(s, false), 4);
	assert_int_equal(s->k.acc[0].merged_from, 4);
	assert_int_equal(s->k.acc[1].count, 0);
	scan_free(s);
	/* without the model: four 4-way stores */
	s = scan(text, 32, 1, 1 << 20, false);
	assert_int_equal(total(s, false), 16);
	scan_free(s);
	/* 4-byte steps: not aligned to 16, not merged; each 1 wavefront */
	memcpy(strstr(text, "4     "), "2     ", 6);
	s = scan(text, 32, 1, 1 << 20, true);
	assert_int_equal(total(s, false), 4);
	assert_int_equal(s->k.acc[0].merged_from, 0);
	assert_int_equal(s->k.acc[1].count, 1);
	scan_free(s);
}

static const char matrix[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".visible .entry k(.param .u64 k_param_0)\n{\n\t.reg .pred %p<2>;\n"
	"\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<4>;\n\t.shared .align 128 .b8 s[8192];\n"
	"\tmov.u32 %r1, %tid.x;\n\tshl.b32 %r2, %r1, 7;\n\tmov.u32 %r3, s;\n"
	"\tadd.s32 %r4, %r3, %r2;\n"
	/* lanes 8-31 give addresses that depend on a parameter: unused by .x1 */
	"\tld.param.u64 %rd1, [k_param_0];\n\tcvt.u32.u64 %r5, %rd1;\n"
	"\tsetp.lt.u32 %p1, %r1, 8;\n\tselp.b32 %r6, %r4, %r5, %p1;\n"
	"\tldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r7}, [%r6];\n"
	"\tatom.shared.add.u32 %r8, [%r4], 1;\n"
	"\tred.shared.add.u32 [%r3], 1;\n"
	"\tatom.shared.add.u64 %rd2, [%r4], 1;\n"
	"\tatom.shared.add.u32 %r9, [%r3], 2;\n"
	"\tatom.shared.add.u32 %r10, [%r4], 2;\n\tret;\n}\n";

/* ptxas's merging (scan_merge.c): a kernel of one warp over two arrays
 * of 4-byte alignment whose BODY has %r5 = &a[lane / 16][0] (rows of 64
 * bytes), %r9 = &b[0][lane % 16], %r4 = &a[8 * lane], %r12 = &a[16 *
 * lane] and %r13 = &a[lane / 16 * pitch], pitch from parameter 0. */
static const char merges[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".visible .entry k(.param .u32 k_param_0)\n{\n\t.reg .pred %p<2>;\n"
	"\t.reg .b32 %r<20>;\n\t.reg .f32 %f<16>;\n"
	"\t.shared .align 4 .b8 a[8192];\n\t.shared .align 4 .b8 b[8192];\n"
	"\tmov.u32 %r1, %tid.x;\n\tshr.u32 %r2, %r1, 4;\n\tshl.b32 %r3, %r2, 6;\n"
	"\tmov.u32 %r6, a;\n\tadd.s32 %r5, %r6, %r3;\n\tand.b32 %r7, %r1, 15;\n"
	"\tshl.b32 %r8, %r7, 2;\n\tmov.u32 %r10, b;\n\tadd.s32 %r9, %r10, %r8;\n"
	"\tshl.b32 %r11, %r1, 3;\n\tadd.s32 %r4, %r6, %r11;\n"
	"\tshl.b32 %r14, %r1, 4;\n\tadd.s32 %r12, %r6, %r14;\n"
	"\tld.param.u32 %r15, [k_param_0];\n\tmul.lo.s32 %r16, %r2, %r15;\n"
	"\tadd.s32 %r13, %r6, %r16;\n"
	"%BODY\n\tret;\n}\n";

/* The wavefronts of loads (or stores) of BODY, and the first access's
 * merged_from; the parameter is 64. */
static int64_t merged(const char *body, bool loads, int *from)
{
	char text[8192];
	snprintf(text, sizeof text, "%.*s%s%s", (int)(strstr(merges, "%BODY") - merges),
	         merges, body, strstr(merges, "%BODY") + 5);
	Scan *s = calloc(1, sizeof *s);
	s->p = ptx(text);
	if (!s->p->ok)
		fail_msg("%s", s->p->diag);
	s->ro = (InterpOpts){.block = {32, 1, 1}, .max_steps = 1 << 20};
	s->ro.nparams = 1;
	s->ro.param[0].index = 0;
	s->ro.param[0].value = 64;
	ScanOpts so = {true, sim_geom_default, true, NULL};
	scan_kernel(&s->p->m, 0, &s->ro, &so, &s->k);
	assert_true(s->k.complete);
	int64_t w = total(s, loads);
	*from = s->k.acc[0].merged_from;
	scan_free(s);
	return w;
}

static void test_ptxas_merge_window(void **state)
{
	(void)state;
	int from;
	/* a row of a read as one 16-byte load between loads of b and an
	 * fma: 2 wavefronts (a broadcast in each half), b's four 1 each */
	const char *row = "\tld.shared.f32 %f1, [%r5];\n\tld.shared.f32 %f2, [%r9];\n"
		"\tfma.rn.f32 %f3, %f1, %f2, %f3;\n\tld.shared.f32 %f4, [%r5+4];\n"
		"\tld.shared.f32 %f5, [%r9+64];\n\tld.shared.f32 %f6, [%r5+8];\n"
		"\tld.shared.f32 %f7, [%r9+128];\n\tld.shared.f32 %f8, [%r5+12];\n"
		"\tld.shared.f32 %f9, [%r9+192];";
	assert_int_equal(merged(row, true, &from), 6);
	assert_int_equal(from, 4);
	/* the same with a pitch ptxas does not know (a parameter, though 64
	 * here): four loads */
	assert_int_equal(merged(
		"\tld.shared.f32 %f1, [%r13];\n\tld.shared.f32 %f4, [%r13+4];\n"
		"\tld.shared.f32 %f6, [%r13+8];\n\tld.shared.f32 %f8, [%r13+12];", true, &from), 4);
	assert_int_equal(from, 0);
	/* neighbours of 8-byte rows in a 4-byte aligned array: one 8-byte
	 * store of 2 wavefronts, not two of 2 each, across the arithmetic */
	const char *pair = "\tst.shared.u32 [%r4], %r1;\n\tadd.s32 %r17, %r1, 1;\n"
		"\tst.shared.u32 [%r4+4], %r17;";
	assert_int_equal(merged(pair, false, &from), 2);
	assert_int_equal(from, 2);
	/* not across a barrier, a label, or a load through another register */
	assert_int_equal(merged("\tst.shared.u32 [%r4], %r1;\n\tbar.sync 0;\n"
		"\tst.shared.u32 [%r4+4], %r1;", false, &from), 4);
	assert_int_equal(merged("\tst.shared.u32 [%r4], %r1;\n$L1:\n"
		"\tst.shared.u32 [%r4+4], %r1;\n\tsetp.gt.u32 %p1, %r1, 99;\n"
		"\t@%p1 bra $L1;", false, &from), 4);
	assert_int_equal(merged("\tst.shared.u32 [%r4], %r1;\n\tld.shared.u32 %r18, [%r9];\n"
		"\tst.shared.u32 [%r4+4], %r1;", false, &from), 4);
	/* loads across a store through another register neither; across a
	 * store at another offset of the same base they are */
	assert_int_equal(merged("\tld.shared.u32 %r18, [%r4];\n\tst.shared.u32 [%r9], %r1;\n"
		"\tld.shared.u32 %r19, [%r4+4];", true, &from), 4);
	assert_int_equal(merged("\tld.shared.u32 %r18, [%r4];\n\tst.shared.u32 [%r4+256], %r1;\n"
		"\tld.shared.u32 %r19, [%r4+4];", true, &from), 2);
	/* but not across one of the other direction among their own bytes
	 * (S[i] = f(S[i]) unrolled: ptxas keeps the loads and the stores
	 * scalar, measured on the H200), either way */
	assert_int_equal(merged("\tld.shared.u32 %r18, [%r4];\n\tst.shared.u32 [%r4], %r1;\n"
		"\tld.shared.u32 %r19, [%r4+4];\n\tst.shared.u32 [%r4+4], %r19;", true, &from), 4);
	assert_int_equal(merged("\tst.shared.u32 [%r4], %r1;\n\tld.shared.u32 %r19, [%r4+4];\n"
		"\tst.shared.u32 [%r4+4], %r19;", false, &from), 4);
	/* nor when the base changes between them, or for volatile loads */
	assert_int_equal(merged("\tld.shared.u32 %r18, [%r4];\n\tadd.s32 %r4, %r4, 0;\n"
		"\tld.shared.u32 %r19, [%r4+4];", true, &from), 4);
	assert_int_equal(merged("\tld.volatile.shared.u32 %r18, [%r4];\n"
		"\tld.volatile.shared.u32 %r19, [%r4+4];", true, &from), 4);
	/* an 8-byte alignment does not make a 16-byte vector of the four */
	assert_int_equal(merged("\tld.shared.u32 %r16, [%r4];\n\tld.shared.u32 %r17, [%r4+4];\n"
		"\tld.shared.u32 %r18, [%r4+8];\n\tld.shared.u32 %r19, [%r4+12];", true, &from), 4);
	assert_int_equal(from, 2);
	/* two 8-byte vectors of 16-byte rows: one 16-byte load of 4
	 * wavefronts, not two of 4 */
	assert_int_equal(merged("\tld.shared.v2.f32 {%f1, %f2}, [%r12];\n"
		"\tld.shared.v2.f32 {%f3, %f4}, [%r12+8];", true, &from), 4);
	assert_int_equal(from, 2);
	/* offsets in any order, from the lowest up */
	assert_int_equal(merged("\tld.shared.u32 %r18, [%r4+4];\n"
		"\tld.shared.u32 %r19, [%r4];", true, &from), 2);
}

static void test_matrix_atomics(void **state)
{
	(void)state;
	Scan *s = scan(matrix, 32, 1, 1 << 20, true);
	assert_true(s->k.complete);
	assert_int_equal(s->k.acc[0].counted, 8);   /* 8 rows in one bank group */
	assert_int_equal(s->k.acc[0].op.kind, OP_LDMATRIX);
	/* adds of 1 whose result is unused (ATOMS.POPC.INC): a word at a
	 * time, so 32 lanes on 32 words of one bank take 32, on one word 1 */
	assert_int_equal(s->k.acc[1].op.aop, AOP_ADD1);
	assert_int_equal(s->k.acc[1].counted, 32);
	assert_int_equal(s->k.acc[2].op.aop, AOP_ADD1);
	assert_int_equal(s->k.acc[2].counted, 1);
	assert_false(s->k.acc[1].loop);
	/* an add of the same value at the same address in every lane by
	 * construction: ptxas has one lane add for the warp */
	assert_int_equal(s->k.acc[4].op.aop, AOP_ADD);
	assert_int_equal(s->k.acc[4].counted, 1);
	/* rule 10 for any other add: every lane on its own */
	assert_int_equal(s->k.acc[5].counted, 32);
	/* an 8-byte add: one trip of ptxas's loop, a compare-and-swap of 16
	 * lanes on one bank in each half (2 x 16 each), after a load of 16
	 * distinct words a bank in each half */
	assert_true(s->k.acc[3].loop);
	assert_int_equal(s->k.acc[3].op.aop, AOP_CAS);
	assert_int_equal(s->k.acc[3].counted, 64);
	assert_int_equal(s->k.acc[3].loop_counted, 32);
	assert_int_equal(s->k.acc[3].loop_ideal, 2);
	scan_free(s);
}

/* tcgen05 classed by what it does to shared memory (PTX ISA 9.0), and
 * the 8-bit ldmatrix and stmatrix forms decoded: their row addresses (16
 * to an m16n16 matrix) and their shape. */
static void test_blackwell_ops(void **state)
{
	(void)state;
	static const struct {
		const char *op;
		PtxOpKind kind;
		bool async;         /* shared memory outside the LSU, known */
	} ops[] = {
		{"tcgen05.mma.cta_group::1.kind::f16", PO_SHARED_OTHER, true},
		{"tcgen05.mma.ws.cta_group::1.kind::tf32", PO_SHARED_OTHER, true},
		{"tcgen05.cp.cta_group::2.128x256b", PO_SHARED_OTHER, true},
		{"tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32",
		 PO_SHARED_OTHER, true},
		{"tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64",
		 PO_SHARED_OTHER, true},
		{"tcgen05.ld.sync.aligned.16x256b.x4.b32", PO_OTHER, false},
		{"tcgen05.st.sync.aligned.32x32b.x8.b32", PO_NOP, false},
		{"tcgen05.wait::ld.sync.aligned", PO_NOP, false},
		{"tcgen05.wait::st.sync.aligned", PO_NOP, false},
		{"tcgen05.fence::before_thread_sync", PO_NOP, false},
		{"tcgen05.fence::after_thread_sync", PO_NOP, false},
		{"tcgen05.dealloc.cta_group::1.sync.aligned.b32", PO_NOP, false},
		{"tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned", PO_NOP,
		 false},
		{"tcgen05.shift.cta_group::1.down", PO_NOP, false},
		{"tcgen05.future.shared::cta.b32", PO_SHARED_OTHER, false},
	};
	for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
		PtxOpInfo o;
		assert_true(ptx_op_decode(ops[i].op, strlen(ops[i].op), &o));
		if (o.kind != ops[i].kind || ((o.mods & M_ASYNC_SMEM) != 0) != ops[i].async)
			fail_msg("%s: kind %d, async %d", ops[i].op, o.kind,
			         (o.mods & M_ASYNC_SMEM) != 0);
	}
	const char *n = ptx_op_async_note("tcgen05.mma.cta_group::1.kind::f16", 34);
	assert_non_null(strstr(n, "operands"));
	static const struct {
		const char *op;
		PtxOpKind kind;
		int rows8, xnum;
		MatShape shape;
	} mats[] = {
		{"ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8", PO_LDMATRIX, 2, 1,
		 MAT_M16N16},
		{"ldmatrix.sync.aligned.m16n16.x2.trans.shared::cta.b8", PO_LDMATRIX, 4,
		 2, MAT_M16N16},
		{"ldmatrix.sync.aligned.m8n16.x4.shared.b8x16.b4x16_p64", PO_LDMATRIX, 4,
		 4, MAT_M8N16},
		{"stmatrix.sync.aligned.m16n8.x2.trans.shared.b8", PO_STMATRIX, 2, 2,
		 MAT_M16N8},
		{"ldmatrix.sync.aligned.m8n8.x4.shared.b16", PO_LDMATRIX, 4, 4, MAT_M8N8},
	};
	for (size_t i = 0; i < sizeof mats / sizeof *mats; i++) {
		PtxOpInfo o;
		assert_true(ptx_op_decode(mats[i].op, strlen(mats[i].op), &o));
		assert_int_equal(o.kind, mats[i].kind);
		assert_int_equal(o.nmat, mats[i].rows8);
		assert_int_equal(o.xnum, mats[i].xnum);
		assert_int_equal(o.mshape, mats[i].shape);
	}
}

static const char b8[] =
	".version 9.0\n.target sm_120a\n.address_size 64\n"
	".visible .entry k()\n{\n"
	"\t.reg .b32 %r<8>;\n"
	"\t.shared .align 16 .b8 s[8192];\n"
	"\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, s;\n"
	"\tshl.b32 %r3, %r1, 7;\n\tadd.s32 %r4, %r2, %r3;\n"
	"\tldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r5, %r6}, [%r4];\n"
	"\tstmatrix.sync.aligned.m16n8.x4.trans.shared.b8 [%r4], {%r5, %r5, %r5, %r5};\n"
	"\tret;\n}\n";

/* The 8-bit forms costed by rule 2: an m16n16 .x1 reads lanes 0-15's 16
 * rows (two phases, 8 words of one bank each for rows 128 bytes apart),
 * an m16n8 .x4 every lane's 32; the target kept as sm_120a. */
static void test_blackwell_costs(void **state)
{
	(void)state;
	Scan *s = scan(b8, 32, 1, 1 << 20, true);
	assert_true(s->k.complete);
	assert_int_equal(s->p->m.arch, ARCH_SM120A);
	assert_int_equal(s->k.acc[0].op.shape, MAT_M16N16);
	assert_int_equal(s->k.acc[0].op.nmat, 1);
	assert_int_equal(s->k.acc[0].counted, 16);
	assert_int_equal(s->k.acc[1].op.shape, MAT_M16N8);
	assert_int_equal(s->k.acc[1].counted, 32);
	scan_free(s);
}

static const char unknowns[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)\n{\n"
	"\t.reg .pred %p<3>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
	"\t.shared .align 16 .b8 s[8192];\n"
	"\tld.param.u64 %rd1, [k_param_0];\n\tld.param.u32 %r1, [k_param_1];\n"
	"\tcvta.to.global.u64 %rd2, %rd1;\n"
	"\tmov.u32 %r3, s;\n"
	"%BODY\n\tret;\n}\n";

static Scan *scan_body(const char *body, int64_t steps)
{
	char text[4096];
	snprintf(text, sizeof text, "%.*s%s%s", (int)(strstr(unknowns, "%BODY") - unknowns),
	         unknowns, body, strstr(unknowns, "%BODY") + 5);
	return scan(text, 32, 1, steps, true);
}

static void stop_is(const char *body, StopKind kind, int64_t steps, const char *why)
{
	Scan *s = scan_body(body, steps);
	assert_false(s->k.complete);
	assert_int_equal(s->k.nstops, 1);
	assert_int_equal(s->k.stops[0].kind, kind);
	assert_int_equal(s->k.stops[0].threads, 32);
	if (why) {
		char buf[1024];
		ScanCtx c = {"t.ptx", NULL, &s->ro, sim_geom_default, NULL, NULL};
		scan_why(&s->p->m, &s->k, s->k.stops[0].why, &c, buf, sizeof buf);
		assert_string_equal(buf, why);
	}
	scan_free(s);
}

/* One warp's one shared access whose address body leaves unknown: costed
 * as a range from lo to hi wavefronts, its origin why. */
static void unknown_is(const char *body, int lo, int hi, const char *why)
{
	Scan *s = scan_body(body, 1 << 20);
	assert_true(s->k.complete);
	assert_true(s->k.ranged);
	const ScanAcc *a = &s->k.acc[s->p->m.nslots - 1];
	assert_int_equal(a->count, 0);
	assert_int_equal(a->rcount, 1);
	assert_int_equal(a->rlo, lo);
	assert_int_equal(a->rhi, hi);
	if (why) {
		char buf[1024];
		ScanCtx c = {"t.ptx", NULL, &s->ro, sim_geom_default, NULL, NULL};
		scan_why(&s->p->m, &s->k, a->rwhy, &c, buf, sizeof buf);
		assert_string_equal(buf, why);
	}
	scan_free(s);
}

static void test_unknowns(void **state)
{
	(void)state;
	/* no bound: every lane may take its own word of one bank */
	unknown_is("\tld.global.u32 %r4, [%rd2];\n\tadd.s32 %r5, %r3, %r4;\n\tst.shared.u32 [%r5], 0;",
	           1, 32, "the value loaded from memory at t.ptx:14:2, through kernel "
	           "parameter 0 (k_param_0); pass its buffer as --data 0=FILE");
	unknown_is("\tshl.b32 %r4, %r1, 2;\n\tadd.s32 %r5, %r3, %r4;\n\tst.shared.u32 [%r5], 0;",
	           1, 32, "kernel parameter 1 (k_param_1); pass --param 1=VALUE");
	/* a bin & 63 of 4-byte words: 256 bytes, two words a bank at most */
	unknown_is("\tld.global.u32 %r4, [%rd2];\n\tand.b32 %r6, %r4, 63;\n\tshl.b32 %r7, %r6, 2;\n"
	           "\tadd.s32 %r5, %r3, %r7;\n\tst.shared.u32 [%r5], 0;", 1, 2, NULL);
	/* a byte loaded: 256 values of 4 bytes */
	unknown_is("\tld.global.u8 %r4, [%rd2];\n\tshl.b32 %r7, %r4, 2;\n"
	           "\tadd.s32 %r5, %r3, %r7;\n\tst.shared.u32 [%r5], 0;", 1, 8, NULL);
	/* within one row of 32 words: no conflict can be */
	unknown_is("\tld.shared.u32 %r4, [%r3];\n\trem.u32 %r6, %r4, 32;\n\tshl.b32 %r7, %r6, 2;\n"
	           "\tadd.s32 %r5, %r3, %r7;\n\tld.shared.u32 %r2, [%r5];", 1, 1, NULL);
	unknown_is("\tmov.u32 %r4, %clock;\n\tst.shared.u32 [%r4], 0;", 1, 32,
	           "a special register of the hardware (mov.u32) at t.ptx:14:2");
	unknown_is("\tcvt.rzi.s32.f32 %r4, 0f3F800000;\n\tst.shared.u32 [%r4], 0;", 1, 32,
	           "the result of 'cvt.rzi.s32.f32' at t.ptx:14:2 (floating point: "
	           "not interpreted)");
	/* a register read before any write is unknown, not 0 */
	unknown_is("\tst.shared.u32 [%r6], 0;", 1, 32, "a register read before any "
	           "instruction wrote it (its value is undefined)");
	/* a result that does not depend on the unknown is known */
	Scan *s = scan_body("\tand.b32 %r4, %r1, 0;\n\tadd.s32 %r5, %r3, %r4;\n\tst.shared.u32 [%r5], 0;",
	                    1 << 20);
	assert_true(s->k.complete);
	assert_false(s->k.ranged);
	assert_int_equal(s->k.acc[0].count, 1);
	scan_free(s);
	/* an unknown generic address is taken to be global: no access */
	s = scan_body("\tld.u32 %r4, [%rd2];", 1 << 20);
	assert_true(s->k.complete);
	assert_false(s->k.ranged);
	scan_free(s);
}

/* Branches bankc cannot decide: both sides run, and meet. */
static void test_forks(void **state)
{
	(void)state;
	/* neither side touches shared memory: the store after the join is
	 * exact, its register from either side unknown only if they differ */
	Scan *s = scan_body("\tmov.u32 %r2, %tid.x;\n\tshl.b32 %r4, %r2, 2;\n"
	                    "\tsetp.lt.u32 %p1, %r1, 4;\n\t@%p1 bra $L1;\n\tmov.u32 %r6, 7;\n"
	                    "\tbra.uni $L2;\n$L1:\n\tmov.u32 %r6, 9;\n$L2:\n"
	                    "\tadd.s32 %r5, %r3, %r4;\n\tst.shared.u32 [%r5], %r6;", 1 << 20);
	assert_true(s->k.complete);
	assert_false(s->k.ranged);
	assert_int_equal(s->k.acc[0].count, 1);
	assert_int_equal(s->k.acc[0].counted, 1);
	int br = -1;
	for (int i = 0; i < s->p->m.ninst; i++)
		if (s->p->m.inst[i].op.kind == PO_BRA && s->p->m.inst[i].guard >= 0)
			br = i;
	assert_int_equal(s->k.fork_kind[br], FORK_JOIN);
	assert_int_equal(s->k.fork_threads[br], 32);
	scan_free(s);
	/* the sides differ in the address: a range after the join */
	s = scan_body("\tmov.u32 %r2, %tid.x;\n\tsetp.lt.u32 %p1, %r1, 4;\n\t@%p1 bra $L1;\n"
	              "\tshl.b32 %r4, %r2, 2;\n\tbra.uni $L2;\n$L1:\n\tshl.b32 %r4, %r2, 7;\n$L2:\n"
	              "\tadd.s32 %r5, %r3, %r4;\n\tst.shared.u32 [%r5], 0;", 1 << 20);
	assert_true(s->k.ranged);
	assert_int_equal(s->k.acc[0].rcount, 1);
	assert_int_equal(s->k.acc[0].rhi, 32);
	scan_free(s);
	/* a side with a shared store: it may run (0 to its cost) */
	s = scan_body("\tmov.u32 %r2, %tid.x;\n\tshl.b32 %r4, %r2, 7;\n\tadd.s32 %r5, %r3, %r4;\n"
	              "\tsetp.lt.u32 %p1, %r1, 4;\n\t@%p1 bra $L1;\n\tst.shared.u32 [%r5], 0;\n"
	              "$L1:\n\tst.shared.u32 [%r3], 1;", 1 << 20);
	assert_int_equal(s->k.acc[0].rcount, 1);
	assert_int_equal(s->k.acc[0].rlo, 0);
	assert_int_equal(s->k.acc[0].rhi, 32);
	assert_int_equal(s->k.acc[1].count, 1);     /* after the join: exact */
	scan_free(s);
	/* a guard bankc cannot decide on the access itself */
	s = scan_body("\tsetp.lt.u32 %p1, %r1, 4;\n\t@%p1 st.shared.u32 [%r3], 0;", 1 << 20);
	assert_int_equal(s->k.acc[0].rcount, 1);
	assert_int_equal(s->k.acc[0].rlo, 0);
	assert_int_equal(s->k.acc[0].rhi, 1);
	scan_free(s);
	/* a loop whose count is a parameter: its body counted once */
	s = scan_body("\tmov.u32 %r2, 0;\n$L1:\n\tst.shared.u32 [%r3], 0;\n\tadd.s32 %r2, %r2, 1;\n"
	              "\tsetp.lt.u32 %p1, %r2, %r1;\n\t@%p1 bra $L1;", 1 << 20);
	assert_true(s->k.complete);
	assert_int_equal(s->k.acc[0].count, 1);
	for (int i = 0; i < s->p->m.ninst; i++)
		if (s->p->m.inst[i].op.kind == PO_BRA)
			assert_int_equal(s->k.fork_kind[i], FORK_LOOP);
	scan_free(s);
}

/* --data: loads from a buffer given are known. */
static void test_data(void **state)
{
	(void)state;
	uint8_t bins[128];
	for (int i = 0; i < 32; i++) {
		uint32_t v = (uint32_t)(i % 2) * 32;    /* two words of bank 0 */
		memcpy(bins + 4 * i, &v, 4);
	}
	const char *body = "\tmov.u32 %r2, %tid.x;\n\tmul.wide.u32 %rd3, %r2, 4;\n"
	                   "\tadd.s64 %rd3, %rd2, %rd3;\n\tld.global.u32 %r4, [%rd3];\n"
	                   "\tshl.b32 %r6, %r4, 2;\n\tadd.s32 %r5, %r3, %r6;\n"
	                   "\tatom.shared.add.u32 %r7, [%r5], 1;";
	char text[4096];
	snprintf(text, sizeof text, "%.*s%s%s", (int)(strstr(unknowns, "%BODY") - unknowns),
	         unknowns, body, strstr(unknowns, "%BODY") + 5);
	for (size_t len = 128; len >= 64; len -= 64) {
		Scan *s = calloc(1, sizeof *s);
		s->p = ptx(text);
		s->ro = (InterpOpts){.block = {32, 1, 1}, .max_steps = 1 << 20,
		                     .ndata = 1};
		s->ro.data[0].index = 0;
		s->ro.data[0].bytes = bins;
		s->ro.data[0].len = len;
		ScanOpts so = {false, sim_geom_default, true, NULL};
		scan_kernel(&s->p->m, 0, &s->ro, &so, &s->k);
		if (len == 128) {
			/* an add of 1: two words of one bank take 2 */
			assert_false(s->k.ranged);
			assert_int_equal(s->k.acc[0].counted, 2);
		} else {
			/* lanes 16 to 31 read past its end */
			assert_true(s->k.ranged);
			char buf[1024];
			ScanCtx c = {"t.ptx", NULL, &s->ro, sim_geom_default, NULL, NULL};
			scan_why(&s->p->m, &s->k, s->k.acc[0].rwhy, &c, buf, sizeof buf);
			assert_non_null(strstr(buf, "past the end of the buffer given as --data 0"));
		}
		scan_free(s);
	}
}

static void test_limits(void **state)
{
	(void)state;
	stop_is("$L1:\n\tbra.uni $L1;", STOP_STEPS, 32 * 1000, NULL);
	stop_is("\tmov.u32 %r4, 0x7000000;\n\tst.shared.u32 [%r4], 0;", STOP_BAD_ADDR, 1 << 20, NULL);
	stop_is("\ttrap;", STOP_TRAP, 1 << 20, NULL);
	Scan *s = scan(".version 9.0\n.target sm_90\n.address_size 64\n"
	               ".func f()\n{\n\tcall.uni f, ();\n\tret;\n}\n"
	               ".visible .entry k()\n{\n\tcall.uni f, ();\n\tret;\n}\n", 1, 1, 1 << 20, true);
	assert_int_equal(s->k.stops[0].kind, STOP_DEPTH);
	scan_free(s);
	/* a function without a body: no shared access, an unknown result */
	s = scan(".version 9.0\n.target sm_90\n.address_size 64\n"
	         ".extern .func (.param .b32 func_retval0) g();\n"
	         ".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n"
	         "\t{ .param .b32 retval0;\n\tcall.uni (retval0), g, ();\n"
	         "\tld.param.b32 %r1, [retval0+0]; }\n\tst.shared.u32 [%r1], 0;\n"
	         "\tret;\n}\n", 1, 1, 1 << 20, true);
	assert_true(s->k.ranged);
	assert_int_equal(s->p->m.inst[s->k.acc[0].rwhy - WHY_INST].op.kind, PO_CALL);
	assert_true(s->k.noted[s->k.acc[0].rwhy - WHY_INST]);
	scan_free(s);
	/* an indirect call */
	s = scan(".version 9.0\n.target sm_90\n.address_size 64\n"
	         ".visible .entry k()\n{\n\t.reg .b64 %rd<2>;\n"
	         "\t{ .param .b32 retval0;\n"
	         "\tprototype_0 : .callprototype (.param .b32 _) _ ();\n"
	         "\tcall (retval0), %rd1, (), prototype_0; }\n\tret;\n}\n", 1, 1, 1 << 20, true);
	assert_int_equal(s->k.stops[0].kind, STOP_CALL);
	scan_free(s);
	/* an endless loop of stores stops at --max-steps, not at a count of
	 * accesses: its warp instructions are costed as they come (each
	 * thread's 2000 steps: a mov, then 1000 stores and 999 branches) */
	Ptx *p = ptx(".version 9.0\n.target sm_90\n.address_size 64\n"
	             ".visible .entry k()\n{\n\t.reg .b32 %r<4>;\n\t.shared .align 4 .b8 s[64];\n"
	             "\tmov.u32 %r1, s;\n$L1:\n\tst.shared.u32 [%r1], 0;\n\tbra.uni $L1;\n}\n");
	assert_true(p->ok);
	InterpOpts o = {.block = {32, 1, 1}, .max_steps = 32 * 2000};
	ScanOpts so = {false, sim_geom_default, true, NULL};
	ScanKernel k;
	scan_kernel(&p->m, 0, &o, &so, &k);
	assert_false(k.complete);
	assert_int_equal(k.nstops, 1);
	assert_int_equal(k.stops[0].kind, STOP_STEPS);
	assert_int_equal(k.stops[0].threads, 32);
	assert_int_equal(k.acc[0].count, 1000);
	assert_int_equal(k.acc[0].wave, 1000);
	scan_kernel_free(&p->m, &k);
	ptx_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lex_tokens),
		cmocka_unit_test(test_lex_errors),
		cmocka_unit_test(test_read_module),
		cmocka_unit_test(test_read_errors),
		cmocka_unit_test(test_integer_ops),
		cmocka_unit_test(test_alignment_known),
		cmocka_unit_test(test_compare_convert),
		cmocka_unit_test(test_control),
		cmocka_unit_test(test_calls_and_generic),
		cmocka_unit_test(test_warps_and_divergence),
		cmocka_unit_test(test_ptxas_merge),
		cmocka_unit_test(test_ptxas_merge_window),
		cmocka_unit_test(test_matrix_atomics),
		cmocka_unit_test(test_blackwell_ops),
		cmocka_unit_test(test_blackwell_costs),
		cmocka_unit_test(test_unknowns),
		cmocka_unit_test(test_forks),
		cmocka_unit_test(test_data),
		cmocka_unit_test(test_limits),
	};
	return cmocka_run_group_tests_name("ptx", tests, NULL, NULL);
}
