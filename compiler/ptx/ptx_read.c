/* Reading a PTX module: the declarations that give addresses (shared
 * arrays, parameters), the registers of each function, and its
 * instructions with their operands, branch targets and .loc positions.
 *
 *     module   = { directive | variable | function }
 *     function = (".entry" | ".func" [ "(" params ")" ]) NAME "(" params ")"
 *                { perf-directive } ( ";" | "{" { statement } "}" )
 *     statement = declaration | label ":" | [ "@" ["!"] pred ] opcode
 *                 [ operand { "," operand } ] ";" | "{" ... "}" | .loc ...
 *
 * Registers of nested blocks (call sequences) belong to the function: a
 * name declared again in a later block is the same register. */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"

/* ---- name tables ----------------------------------------------------------- */

typedef enum { NK_REG = 1, NK_REGARR, NK_SYM, NK_LABEL, NK_FUNC } NameKind;

typedef struct {
	const char *k;
	uint32_t n;
	int kind;
	int v;
} HEnt;

typedef struct {
	HEnt *e;
	size_t cap, len;
} Hash;

static uint32_t hash_str(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static HEnt *hash_find(Hash *h, const char *s, size_t n)
{
	if (!h->cap)
		return NULL;
	for (size_t i = hash_str(s, n) & (h->cap - 1);; i = (i + 1) & (h->cap - 1)) {
		HEnt *e = &h->e[i];
		if (!e->k)
			return NULL;
		if (e->n == n && memcmp(e->k, s, n) == 0)
			return e;
	}
}

static void hash_put(Hash *h, const char *s, size_t n, int kind, int v)
{
	if ((h->len + 1) * 2 > h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 64;
		HEnt *e = calloc(cap, sizeof *e);
		if (!e)
			abort();
		for (size_t i = 0; i < h->cap; i++) {
			if (!h->e[i].k)
				continue;
			size_t j = hash_str(h->e[i].k, h->e[i].n) & (cap - 1);
			while (e[j].k)
				j = (j + 1) & (cap - 1);
			e[j] = h->e[i];
		}
		free(h->e);
		h->e = e;
		h->cap = cap;
	}
	size_t i = hash_str(s, n) & (h->cap - 1);
	while (h->e[i].k && !(h->e[i].n == n && memcmp(h->e[i].k, s, n) == 0))
		i = (i + 1) & (h->cap - 1);
	if (!h->e[i].k)
		h->len++;
	h->e[i] = (HEnt){s, (uint32_t)n, kind, v};
}

static void hash_clear(Hash *h)
{
	free(h->e);
	memset(h, 0, sizeof *h);
}

/* ---- the reader's state ---------------------------------------------------- */

enum { MAX_REGS = 1 << 20, MAX_PTX_INSTS = 1 << 22, MAX_SYMS = 1 << 20 };

typedef struct { int base, count; } RegArr;
typedef struct { int inst, opd; PtxTok name; } Pending;

typedef struct {
	Diag *d;
	Pool *pool;
	PtxModule *m;
	PtxLexer lx;
	PtxTok tok;             /* current */
	PtxTok peek;
	bool have_peek;
	Hash global;            /* shared/global variables, functions */
	Hash local;             /* registers, parameters, labels, local variables */
	RegArr *arr;
	int narr, caparr;
	int caps_inst, caps_sym, caps_vec, caps_func, caps_file, caps_regty;
	int *labels;            /* per label: instruction index */
	int nlabels, caplabels;
	Pending *pend;          /* branch targets to resolve at the function's end */
	int npend, cappend;
	Pending *calls;         /* callees to resolve at the module's end */
	int ncalls, capcalls;
	int cur;                /* current function */
	int loc_file, loc_line, loc_col;
	int in_file, in_line, in_col;   /* inlined_at */
} Reader;

#define GROW(ptr, n, cap) do { \
		if ((n) >= (cap)) { \
			int nc_ = (cap) ? (cap) : 16; \
			while ((n) >= nc_) nc_ *= 2; \
			void *np_ = realloc((ptr), (size_t)nc_ * sizeof *(ptr)); \
			if (!np_) abort(); \
			(ptr) = np_; (cap) = nc_; \
		} \
	} while (0)

static void next(Reader *r)
{
	if (r->have_peek) {
		r->tok = r->peek;
		r->have_peek = false;
	} else {
		r->tok = ptx_lex_next(&r->lx);
	}
}

static PtxTok *peek(Reader *r)
{
	if (!r->have_peek) {
		r->peek = ptx_lex_next(&r->lx);
		r->have_peek = true;
	}
	return &r->peek;
}

static bool tok_is(const PtxTok *t, const char *s)
{
	return strlen(s) == t->n && memcmp(t->s, s, t->n) == 0;
}

static _Noreturn void expected(Reader *r, const char *what)
{
	if (r->tok.kind == PT_EOF)
		diag_error(r->d, r->tok.pos, "expected %s before the end of the file", what);
	diag_error(r->d, r->tok.pos, "expected %s, found '%.*s'", what,
	           (int)(r->tok.n > 40 ? 40 : r->tok.n), r->tok.s);
}

static void expect(Reader *r, PtxTokKind k)
{
	if (r->tok.kind != k)
		expected(r, ptx_tok_name(k));
	next(r);
}

static char *dup_tok(Reader *r, const PtxTok *t)
{
	return pool_strndup(r->pool, t->s, t->n);
}

/* An integer, optionally negative. */
static int64_t integer(Reader *r)
{
	bool neg = false;
	if (r->tok.kind == PT_MINUS) {
		neg = true;
		next(r);
	}
	if (r->tok.kind != PT_INT)
		expected(r, "an integer");
	uint64_t v = r->tok.num;
	next(r);
	return neg ? (int64_t)(0 - v) : (int64_t)v;
}

/* A count or size: a non-negative integer below `limit`. */
static int64_t count(Reader *r, int64_t limit, const char *what)
{
	PtxTok t = r->tok;
	int64_t v = integer(r);
	if (v < 0 || v > limit)
		diag_error(r->d, t.pos, "%s %lld is out of range (0 to %lld)", what,
		           (long long)v, (long long)limit);
	return v;
}

/* Skip to the ';' that ends a statement, over balanced braces. */
static void skip_statement(Reader *r)
{
	int depth = 0;
	while (r->tok.kind != PT_EOF) {
		if (r->tok.kind == PT_LBRACE)
			depth++;
		else if (r->tok.kind == PT_RBRACE && depth > 0)
			depth--;
		else if (r->tok.kind == PT_SEMI && depth == 0) {
			next(r);
			return;
		}
		next(r);
	}
	expected(r, "';'");
}

static void skip_braces(Reader *r)
{
	Pos open = r->tok.pos;
	expect(r, PT_LBRACE);
	for (int depth = 1; depth > 0; next(r)) {
		if (r->tok.kind == PT_EOF)
			diag_error(r->d, open, "'{' not closed");
		if (r->tok.kind == PT_LBRACE)
			depth++;
		else if (r->tok.kind == PT_RBRACE)
			depth--;
	}
}

/* ---- declarations ------------------------------------------------------------ */

static int new_sym(Reader *r, const PtxTok *name, SymKind kind)
{
	PtxModule *m = r->m;
	if (m->nsym >= MAX_SYMS)
		diag_error(r->d, name->pos, "more than %d names", MAX_SYMS);
	GROW(m->sym, m->nsym, r->caps_sym);
	PtxSym *s = &m->sym[m->nsym];
	memset(s, 0, sizeof *s);
	s->name = dup_tok(r, name);
	s->kind = kind;
	s->pos = name->pos;
	s->func = r->cur;
	s->formal = -1;
	return m->nsym++;
}

/* [.align N] [.vN] .type, in any order, before a variable's name. */
static void var_attrs(Reader *r, int *align, Ty *ty, int *vec)
{
	*align = 0;
	*vec = 1;
	*ty = (Ty){TY_B, 1};
	while (r->tok.kind == PT_DIR) {
		if (tok_is(&r->tok, ".align")) {
			next(r);
			PtxTok t = r->tok;
			int64_t a = count(r, 1 << 20, "alignment");
			if (a < 1 || (a & (a - 1)))
				diag_error(r->d, t.pos, "alignment must be a power of two");
			*align = (int)a;
			continue;
		}
		if (tok_is(&r->tok, ".v2") || tok_is(&r->tok, ".v4") || tok_is(&r->tok, ".v8")) {
			*vec = r->tok.s[2] - '0';
			next(r);
			continue;
		}
		PtxOpInfo o;
		char buf[40];
		if (r->tok.n < sizeof buf - 4) {
			snprintf(buf, sizeof buf, "mov%.*s", (int)r->tok.n, r->tok.s);
			if (ptx_op_decode(buf, strlen(buf), &o) && o.ty.kind != TY_NONE) {
				*ty = o.ty;
				next(r);
				continue;
			}
		}
		next(r);    /* .ptr, .global in old parameter lists, .attribute */
		if (r->tok.kind == PT_LPAREN) {
			while (r->tok.kind != PT_RPAREN && r->tok.kind != PT_EOF)
				next(r);
			expect(r, PT_RPAREN);
		}
	}
}

/* NAME [ "[" N "]" ]... : the name and its element count (-1 for []). */
static int64_t var_dims(Reader *r, PtxTok *name)
{
	if (r->tok.kind != PT_NAME)
		expected(r, "a name");
	*name = r->tok;
	next(r);
	int64_t n = 1;
	while (r->tok.kind == PT_LBRACK) {
		next(r);
		if (r->tok.kind == PT_RBRACK) {
			n = -1;
			next(r);
			continue;
		}
		int64_t k = count(r, PTX_SHARED_LIMIT, "array size");
		expect(r, PT_RBRACK);
		if (n >= 0)
			n = n * k > PTX_SHARED_LIMIT * 16LL ? PTX_SHARED_LIMIT * 16LL : n * k;
	}
	return n;
}

static void lay_out_shared(Reader *r, int s, bool is_extern)
{
	PtxModule *m = r->m;
	PtxSym *y = &m->sym[s];
	/* every array at least 16-byte aligned: within an array, which banks
	 * a warp's words fall in does not depend on the base (see README) */
	int64_t a = y->align < 16 ? 16 : y->align;
	if (is_extern || y->size < 0) {
		y->size = -1;
		y->addr = -1;   /* placed once all static arrays are known */
		return;
	}
	m->shared_static = (m->shared_static + a - 1) / a * a;
	y->addr = m->shared_static;
	m->shared_static += y->size;
	if (m->shared_static > PTX_SHARED_LIMIT)
		diag_error(r->d, y->pos, "shared memory of this module exceeds %d bytes",
		           PTX_SHARED_LIMIT);
}

/* .shared/.global/.const/.local variables: [.align] [.v] .type name[N] [= init] */
static void variable(Reader *r, Space sp, bool is_extern)
{
	int align, vec;
	Ty ty;
	var_attrs(r, &align, &ty, &vec);
	for (;;) {
		PtxTok name;
		int64_t n = var_dims(r, &name);
		SymKind kind = sp == SP_SHARED ? SYM_SHARED : sp == SP_LOCAL ? SYM_LOCAL
		               : SYM_GLOBAL;
		int s = new_sym(r, &name, kind);
		PtxSym *y = &r->m->sym[s];
		y->align = align ? align : ty.bytes * vec;
		y->size = n < 0 ? -1 : n * ty.bytes * vec;
		y->ty = ty;
		if (kind == SYM_SHARED)
			lay_out_shared(r, s, is_extern);
		Hash *h = r->cur >= 0 ? &r->local : &r->global;
		hash_put(h, r->m->sym[s].name, name.n, NK_SYM, s);
		if (r->tok.kind == PT_EQ) {
			skip_statement(r);
			return;
		}
		if (r->tok.kind != PT_COMMA)
			break;
		next(r);
	}
	expect(r, PT_SEMI);
}

/* .param [.align N] .type name[N] in a parameter list or a body */
static int param_decl(Reader *r, int formal)
{
	int align, vec;
	Ty ty;
	var_attrs(r, &align, &ty, &vec);
	PtxTok name;
	int64_t n = var_dims(r, &name);
	if (n < 0)
		n = 0;
	HEnt *e = formal == -1 ? hash_find(&r->local, name.s, name.n) : NULL;
	if (e && e->kind == NK_SYM && r->m->sym[e->v].kind == SYM_PARAM) {
		/* the same call-sequence parameter in a later block */
		PtxSym *y = &r->m->sym[e->v];
		if (n * ty.bytes * vec > y->size) {
			PtxFunc *f = &r->m->func[r->cur];
			y->poff = f->psize;
			y->size = n * ty.bytes * vec;
			f->psize += (y->size + 7) / 8 * 8;
		}
		return e->v;
	}
	int s = new_sym(r, &name, SYM_PARAM);
	PtxSym *y = &r->m->sym[s];
	y->size = n * ty.bytes * vec;
	y->align = align;
	y->ty = ty;
	y->formal = formal;
	if (formal == -1 && r->cur >= 0) {
		PtxFunc *f = &r->m->func[r->cur];
		y->poff = f->psize;
		f->psize += (y->size + 7) / 8 * 8;
		if (f->psize > (1 << 20))
			diag_error(r->d, name.pos, "parameters of this function exceed 1 MiB");
	}
	hash_put(&r->local, y->name, name.n, NK_SYM, s);
	return s;
}

/* .reg [.vN] .type name [<N>] { , name [<N>] } ; */
static void reg_decl(Reader *r)
{
	int align, vec;
	Ty ty;
	var_attrs(r, &align, &ty, &vec);
	PtxFunc *f = &r->m->func[r->cur];
	for (;;) {
		if (r->tok.kind != PT_NAME)
			expected(r, "a register name");
		PtxTok name = r->tok;
		next(r);
		int n = 1;
		bool arr = false;
		if (r->tok.kind == PT_LT) {
			next(r);
			n = (int)count(r, MAX_REGS, "register count");
			expect(r, PT_GT);
			arr = true;
		}
		if (f->nregs + n > MAX_REGS)
			diag_error(r->d, name.pos, "more than %d registers in one function",
			           MAX_REGS);
		HEnt *e = hash_find(&r->local, name.s, name.n);
		if (e && ((arr && e->kind == NK_REGARR && r->arr[e->v].count >= n) ||
		          (!arr && e->kind == NK_REG))) {
			/* declared again in a nested block: the same registers */
		} else {
			if (arr) {
				GROW(r->arr, r->narr, r->caparr);
				r->arr[r->narr] = (RegArr){f->nregs, n};
				hash_put(&r->local, name.s, name.n, NK_REGARR, r->narr++);
			} else {
				hash_put(&r->local, name.s, name.n, NK_REG, f->nregs);
			}
			GROW(f->regty, f->nregs + n, r->caps_regty);
			for (int i = 0; i < n; i++)
				f->regty[f->nregs + i] = ty;
			f->nregs += n;
		}
		if (r->tok.kind != PT_COMMA)
			break;
		next(r);
	}
	expect(r, PT_SEMI);
}

/* ---- operands ----------------------------------------------------------------- */

static const struct { const char *name; int sr; } specials[] = {
	{"%tid", SR_TID}, {"%ntid", SR_NTID}, {"%ctaid", SR_CTAID},
	{"%nctaid", SR_NCTAID}, {"%laneid", SR_LANEID}, {"%warpid", SR_WARPID},
	{"%nwarpid", SR_NWARPID}, {"%lanemask_eq", SR_LANEMASK_EQ},
	{"%lanemask_le", SR_LANEMASK_LE}, {"%lanemask_lt", SR_LANEMASK_LT},
	{"%lanemask_ge", SR_LANEMASK_GE}, {"%lanemask_gt", SR_LANEMASK_GT},
};

/* A special register (%tid.x ...), as SR * 4 + component; -1 if not one.
 * Others that exist (%clock, %smid, ...) read as unknown. */
static int special_of(const PtxTok *t)
{
	if (t->n < 2 || t->s[0] != '%')
		return -1;
	size_t base = t->n, comp = 0;
	if (t->n > 2 && t->s[t->n - 2] == '.') {
		char c = t->s[t->n - 1];
		if (c == 'x' || c == 'y' || c == 'z') {
			base = t->n - 2;
			comp = (size_t)(c - 'x');
		}
	}
	for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++)
		if (strlen(specials[i].name) == base &&
		    memcmp(specials[i].name, t->s, base) == 0)
			return specials[i].sr * 4 + (int)comp;
	static const char *const unknown[] = {"%clock", "%clock64", "%clock_hi",
		"%smid", "%nsmid", "%gridid", "%globaltimer", "%globaltimer_lo",
		"%globaltimer_hi", "%dynamic_smem_size", "%total_smem_size",
		"%aggr_smem_size", "%is_explicit_cluster", "%clusterid",
		"%nclusterid", "%cluster_ctaid", "%cluster_nctaid",
		"%cluster_ctarank", "%cluster_nctarank", "%current_graph_exec",
		"%reserved_smem_offset_begin", "%reserved_smem_offset_end",
		"%reserved_smem_offset_cap", NULL};
	for (int i = 0; unknown[i]; i++)
		if (strlen(unknown[i]) == base && memcmp(unknown[i], t->s, base) == 0)
			return SR_UNKNOWN * 4;
	if (t->n > 7 && memcmp(t->s, "%envreg", 7) == 0)
		return SR_UNKNOWN * 4;
	if (t->n > 3 && memcmp(t->s, "%pm", 3) == 0)
		return SR_UNKNOWN * 4;
	return -1;
}

/* A register by name: declared as such, or NAME<digits> of a %r<N> array. */
static int find_reg(Reader *r, const PtxTok *t)
{
	HEnt *e = hash_find(&r->local, t->s, t->n);
	if (e && e->kind == NK_REG)
		return e->v;
	size_t k = t->n;
	while (k > 0 && t->s[k - 1] >= '0' && t->s[k - 1] <= '9')
		k--;
	if (k == t->n || k == 0)
		return -1;
	e = hash_find(&r->local, t->s, k);
	if (!e || e->kind != NK_REGARR)
		return -1;
	if (t->n - k > 8 || (t->n - k > 1 && t->s[k] == '0'))
		return -1;
	long idx = strtol(t->s + k, NULL, 10);
	if (idx >= r->arr[e->v].count)
		return -1;
	return r->arr[e->v].base + (int)idx;
}

static void add_vec(Reader *r, const PtxOpd *o)
{
	PtxModule *m = r->m;
	if (m->nvec >= MAX_PTX_INSTS)
		diag_error(r->d, r->tok.pos, "too many operands in this module");
	GROW(m->vec, m->nvec, r->caps_vec);
	m->vec[m->nvec++] = *o;
}

static void add_pending(Pending **list, int *n, int *cap, int inst, int opd,
                        const PtxTok *name)
{
	GROW(*list, *n, *cap);
	(*list)[(*n)++] = (Pending){inst, opd, *name};
}

/* A name used as an operand: register, special register, symbol, label
 * or function (labels and functions may come later). */
static PtxOpd name_opd(Reader *r, int inst, int opd, bool label_ok)
{
	PtxOpd o = {0};
	o.reg = o.reg2 = o.sym = -1;
	PtxTok t = r->tok;
	next(r);
	if (t.n == 1 && t.s[0] == '_') {
		o.kind = OPD_SINK;
		return o;
	}
	int reg = find_reg(r, &t);
	if (reg >= 0) {
		o.kind = OPD_REG;
		o.reg = reg;
		return o;
	}
	int sr = special_of(&t);
	if (sr >= 0) {
		o.kind = OPD_SPECIAL;
		o.special = sr;
		return o;
	}
	HEnt *e = hash_find(&r->local, t.s, t.n);
	if (!e)
		e = hash_find(&r->global, t.s, t.n);
	if (e && e->kind == NK_SYM) {
		o.kind = OPD_SYM;
		o.sym = e->v;
		return o;
	}
	if (e && e->kind == NK_FUNC) {
		o.kind = OPD_FUNC;
		o.sym = e->v;
		return o;
	}
	if (label_ok && inst >= 0) {
		/* resolved at the end of the function (labels) or module (calls) */
		o.kind = OPD_LABEL;
		add_pending(&r->pend, &r->npend, &r->cappend, inst, opd, &t);
		return o;
	}
	diag_error(r->d, t.pos, "'%.*s' is not declared", (int)t.n, t.s);
}

/* An immediate: [-] integer | float */
static bool immediate(Reader *r, PtxOpd *o)
{
	if (r->tok.kind == PT_INT || r->tok.kind == PT_FLOAT ||
	    (r->tok.kind == PT_MINUS && (peek(r)->kind == PT_INT ||
	                                  peek(r)->kind == PT_FLOAT))) {
		bool neg = r->tok.kind == PT_MINUS;
		if (neg)
			next(r);
		o->kind = OPD_IMM;
		o->imm = (int64_t)r->tok.num;
		if (r->tok.kind == PT_FLOAT) {
			/* decimal floats and negated ones: values the interpreter
			 * does not need; keep the bits of hex forms */
			if (neg)
				o->imm = (int64_t)(r->tok.num ^ (r->tok.n == 10 ? 0x80000000u
				                                 : 0x8000000000000000ull));
		} else if (neg) {
			o->imm = (int64_t)(0 - r->tok.num);
		}
		next(r);
		return true;
	}
	return false;
}

/* "[" [ base ] [ ("+" | "-") offset ] "]", base a register or symbol;
 * anything else inside (texture and surface forms) is kept unmodelled. */
static PtxOpd mem_opd(Reader *r, int inst, int opd)
{
	PtxOpd o = {0};
	o.kind = OPD_MEM;
	o.reg = o.reg2 = o.sym = -1;
	next(r);
	if (r->tok.kind == PT_NAME) {
		PtxOpd b = name_opd(r, inst, opd, false);
		if (b.kind == OPD_REG)
			o.reg = b.reg;
		else if (b.kind == OPD_SYM)
			o.sym = b.sym;
		else
			o.nvec = 1;     /* not an address: unmodelled */
	} else if (r->tok.kind == PT_INT) {
		o.imm = (int64_t)r->tok.num;
		next(r);
	}
	while (r->tok.kind == PT_PLUS || r->tok.kind == PT_MINUS) {
		bool neg = r->tok.kind == PT_MINUS;
		next(r);
		int64_t v = integer(r);
		o.imm += neg ? -v : v;
	}
	if (r->tok.kind != PT_RBRACK) {
		o.nvec = 1;
		int depth = 1;
		while (depth > 0) {
			if (r->tok.kind == PT_EOF || r->tok.kind == PT_SEMI)
				expected(r, "']'");
			if (r->tok.kind == PT_LBRACK)
				depth++;
			if (r->tok.kind == PT_RBRACK && --depth == 0)
				break;
			next(r);
		}
	}
	expect(r, PT_RBRACK);
	return o;
}

static PtxOpd operand(Reader *r, int inst, int opd, bool label_ok);

/* "{" elements "}" or "(" elements ")" */
static PtxOpd list_opd(Reader *r, int inst, PtxTokKind close)
{
	PtxOpd o = {0};
	o.kind = OPD_VEC;
	o.reg = o.reg2 = -1;
	o.sym = r->m->nvec;
	next(r);
	PtxOpd el[PTX_MAX_PARAMS];
	int n = 0;
	while (r->tok.kind != close) {
		if (n == PTX_MAX_PARAMS)
			diag_error(r->d, r->tok.pos, "more than %d elements in a list",
			           PTX_MAX_PARAMS);
		el[n] = operand(r, inst, -1, false);
		if (el[n].kind == OPD_VEC || el[n].kind == OPD_MEM)
			diag_error(r->d, r->tok.pos, "a list cannot hold lists or addresses");
		n++;
		if (r->tok.kind != PT_COMMA)
			break;
		next(r);
	}
	if (r->tok.kind != close)
		expected(r, ptx_tok_name(close));
	next(r);
	o.sym = r->m->nvec;
	for (int i = 0; i < n; i++)
		add_vec(r, &el[i]);
	o.nvec = (uint8_t)(n > 255 ? 255 : n);
	if (n > 255)
		diag_error(r->d, r->tok.pos, "more than 255 elements in a list");
	return o;
}

static PtxOpd operand(Reader *r, int inst, int opd, bool label_ok)
{
	PtxOpd o = {0};
	o.reg = o.reg2 = o.sym = -1;
	if (r->tok.kind == PT_LBRACK)
		return mem_opd(r, inst, opd);
	if (r->tok.kind == PT_LBRACE)
		return list_opd(r, inst, PT_RBRACE);
	if (r->tok.kind == PT_LPAREN)
		return list_opd(r, inst, PT_RPAREN);
	if (immediate(r, &o))
		return o;
	bool neg = false;
	if (r->tok.kind == PT_BANG) {
		neg = true;
		next(r);
	}
	if (r->tok.kind != PT_NAME)
		expected(r, "an operand");
	o = name_opd(r, inst, opd, label_ok && !neg);
	o.neg = neg;
	if (r->tok.kind == PT_PIPE && o.kind == OPD_REG) {
		next(r);
		PtxOpd q = operand(r, inst, -1, false);
		if (q.kind != OPD_REG && q.kind != OPD_SINK)
			diag_error(r->d, r->tok.pos, "expected a predicate after '|'");
		o.reg2 = q.kind == OPD_REG ? q.reg : -1;
	}
	/* symbol+offset outside brackets (mov.u64 %rd, arr+16) */
	if (o.kind == OPD_SYM && (r->tok.kind == PT_PLUS)) {
		next(r);
		o.imm = integer(r);
	}
	return o;
}

/* ---- instructions ------------------------------------------------------------- */

static void instruction(Reader *r)
{
	PtxModule *m = r->m;
	if (m->ninst >= MAX_PTX_INSTS)
		diag_error(r->d, r->tok.pos, "more than %d instructions", MAX_PTX_INSTS);
	GROW(m->inst, m->ninst, r->caps_inst);
	int idx = m->ninst;
	PtxInst *in = &m->inst[idx];
	memset(in, 0, sizeof *in);
	in->guard = -1;
	in->slot = -1;
	in->func = r->cur;
	in->pos = r->tok.pos;
	if (r->tok.kind == PT_AT) {
		next(r);
		if (r->tok.kind == PT_BANG) {
			in->guard_neg = true;
			next(r);
		}
		if (r->tok.kind != PT_NAME)
			expected(r, "a predicate register");
		int reg = find_reg(r, &r->tok);
		if (reg < 0)
			diag_error(r->d, r->tok.pos, "'%.*s' is not a declared register",
			           (int)r->tok.n, r->tok.s);
		in->guard = reg;
		next(r);
	}
	if (r->tok.kind != PT_NAME)
		expected(r, "an instruction");
	PtxTok op = r->tok;
	if (!ptx_op_decode(op.s, op.n, &in->op))
		diag_error(r->d, op.pos, "unknown instruction '%.*s'", (int)op.n, op.s);
	in->text = op.s;
	in->ntext = (int)op.n;
	in->file = r->loc_file;
	in->line = r->loc_line;
	in->col = r->loc_col;
	in->ifile = r->in_file;
	in->iline = r->in_line;
	in->icol = r->in_col;
	m->ninst++;
	next(r);
	bool label_ok = in->op.kind == PO_BRA || in->op.kind == PO_CALL ||
	                in->op.kind == PO_OTHER;
	while (r->tok.kind != PT_SEMI) {
		if (in->nopd == PTX_MAX_OPDS)
			diag_error(r->d, r->tok.pos, "more than %d operands", PTX_MAX_OPDS);
		PtxOpd o = operand(r, idx, in->nopd, label_ok);
		in = &m->inst[idx];
		in->opd[in->nopd++] = o;
		if (r->tok.kind == PT_COMMA)
			next(r);
		else if (r->tok.kind != PT_SEMI)
			expected(r, "',' or ';'");
	}
	next(r);
	in = &m->inst[idx];
	if (in->op.kind == PO_CALL) {
		/* call (ret), f, (args) [, proto] */
		int k = 0;
		if (k < in->nopd && in->opd[k].kind == OPD_VEC) {
			in->call_ret = in->opd[k].sym;
			in->ncall_ret = in->opd[k].nvec;
			k++;
		}
		if (k >= in->nopd)
			diag_error(r->d, in->pos, "a call needs a function");
		if (k != 0)
			in->opd[0] = in->opd[k];
		k++;
		if (k < in->nopd && in->opd[k].kind == OPD_VEC) {
			in->call_args = in->opd[k].sym;
			in->ncall_args = in->opd[k].nvec;
		}
		in->nopd = 1;
		for (int i = 0; i < in->ncall_ret + in->ncall_args; i++) {
			const PtxOpd *e = &m->vec[(i < in->ncall_ret ? in->call_ret
			                           : in->call_args - in->ncall_ret) + i];
			if (e->kind != OPD_SYM || m->sym[e->sym].kind != SYM_PARAM)
				diag_error(r->d, in->pos, "call arguments must be .param variables");
		}
		if (in->opd[0].kind == OPD_LABEL) {
			/* a function defined later: resolve at the end */
			r->npend--;
			add_pending(&r->calls, &r->ncalls, &r->capcalls, idx, 0,
			            &r->pend[r->npend].name);
		}
	}
	if (in->op.kind == PO_BRA && (in->nopd != 1 || in->opd[0].kind != OPD_LABEL))
		diag_error(r->d, in->pos, "a branch needs one label");
	if (in->op.kind == PO_LD || in->op.kind == PO_ST || in->op.kind == PO_ATOM ||
	    in->op.kind == PO_RED || in->op.kind == PO_LDMATRIX ||
	    in->op.kind == PO_STMATRIX || in->op.kind == PO_CPASYNC) {
		int a = in->op.kind == PO_ST || in->op.kind == PO_RED ||
		        in->op.kind == PO_STMATRIX || in->op.kind == PO_CPASYNC ? 0 : 1;
		if (a >= in->nopd || in->opd[a].kind != OPD_MEM)
			diag_error(r->d, in->pos, "'%.*s' needs an address in brackets as "
			           "operand %d", in->ntext, in->text, a + 1);
		if (in->op.space == SP_SHARED || in->op.space == SP_GENERIC)
			in->slot = m->nslots++;
	}
}

/* .loc FILE LINE COL [, function_name LABEL] [, inlined_at F L C] */
static void loc(Reader *r)
{
	next(r);
	r->loc_file = (int)count(r, 1 << 30, "file number");
	r->loc_line = (int)count(r, 1 << 30, "line number");
	r->loc_col = (int)count(r, 1 << 30, "column number");
	r->in_file = r->in_line = r->in_col = 0;
	while (r->tok.kind == PT_COMMA) {
		next(r);
		if (tok_is(&r->tok, "function_name")) {
			next(r);
			if (r->tok.kind != PT_NAME)
				expected(r, "a label");
			next(r);
		} else if (tok_is(&r->tok, "inlined_at")) {
			next(r);
			r->in_file = (int)count(r, 1 << 30, "file number");
			r->in_line = (int)count(r, 1 << 30, "line number");
			r->in_col = (int)count(r, 1 << 30, "column number");
		} else {
			expected(r, "function_name or inlined_at");
		}
	}
}

static void resolve_labels(Reader *r)
{
	for (int i = 0; i < r->npend; i++) {
		Pending *p = &r->pend[i];
		HEnt *e = hash_find(&r->local, p->name.s, p->name.n);
		if (!e || e->kind != NK_LABEL)
			diag_error(r->d, p->name.pos, "'%.*s' is not declared",
			           (int)p->name.n, p->name.s);
		PtxOpd *o = p->opd >= 0 ? &r->m->inst[p->inst].opd[p->opd] : NULL;
		if (o) {
			o->kind = OPD_LABEL;
			o->sym = r->labels[e->v];
		}
	}
	r->npend = 0;
}

/* The statements of a function body, up to its closing brace. */
static void body(Reader *r)
{
	PtxFunc *f = &r->m->func[r->cur];
	f->first = r->m->ninst;
	f->defined = true;
	Pos open = r->tok.pos;
	expect(r, PT_LBRACE);
	int depth = 1;
	while (depth > 0) {
		switch (r->tok.kind) {
		case PT_EOF:
			diag_error(r->d, open, "function body not closed");
		case PT_LBRACE:
			depth++;
			next(r);
			continue;
		case PT_RBRACE:
			depth--;
			next(r);
			continue;
		case PT_SEMI:
			next(r);
			continue;
		case PT_DIR:
			if (tok_is(&r->tok, ".reg")) {
				next(r);
				reg_decl(r);
			} else if (tok_is(&r->tok, ".loc")) {
				loc(r);
			} else if (tok_is(&r->tok, ".param")) {
				next(r);
				param_decl(r, -1);
				expect(r, PT_SEMI);
			} else if (tok_is(&r->tok, ".shared") || tok_is(&r->tok, ".shared::cta")) {
				next(r);
				variable(r, SP_SHARED, false);
			} else if (tok_is(&r->tok, ".local")) {
				next(r);
				variable(r, SP_LOCAL, false);
			} else if (tok_is(&r->tok, ".global") || tok_is(&r->tok, ".const")) {
				next(r);
				variable(r, SP_GLOBAL, false);
			} else {
				skip_statement(r);  /* .pragma and other directives */
			}
			continue;
		default:
			break;
		}
		if (r->tok.kind == PT_NAME && peek(r)->kind == PT_COLON) {
			PtxTok name = r->tok;
			next(r);
			next(r);
			bool table = tok_is(&r->tok, ".callprototype") ||
			             tok_is(&r->tok, ".branchtargets") ||
			             tok_is(&r->tok, ".calltargets");
			HEnt *e = hash_find(&r->local, name.s, name.n);
			if (e)
				diag_error(r->d, name.pos, "'%.*s' is declared twice",
				           (int)name.n, name.s);
			GROW(r->labels, r->nlabels, r->caplabels);
			r->labels[r->nlabels] = r->m->ninst;
			hash_put(&r->local, name.s, name.n, NK_LABEL, r->nlabels++);
			/* prototype: .callprototype ...; tl: .branchtargets ...; */
			if (table)
				skip_statement(r);
			continue;
		}
		instruction(r);
	}
	f = &r->m->func[r->cur];
	f->ninst = r->m->ninst - f->first;
	/* a label at the very end targets one past the last instruction */
	resolve_labels(r);
}

/* "(" [ .param decl { "," .param decl } ] ")" */
static void params(Reader *r, bool ret)
{
	expect(r, PT_LPAREN);
	PtxFunc *f = &r->m->func[r->cur];
	while (r->tok.kind != PT_RPAREN) {
		if (!tok_is(&r->tok, ".param") && !tok_is(&r->tok, ".reg"))
			expected(r, "'.param'");
		next(r);
		if (f->nparams == PTX_MAX_PARAMS)
			diag_error(r->d, r->tok.pos, "more than %d parameters", PTX_MAX_PARAMS);
		int s = param_decl(r, ret ? -2 : f->nparams);
		if (ret)
			f->retval = s;
		else
			f->params[f->nparams++] = s;
		if (r->tok.kind != PT_COMMA)
			break;
		next(r);
	}
	expect(r, PT_RPAREN);
}

static void function(Reader *r, bool entry)
{
	PtxModule *m = r->m;
	next(r);
	PtxTok retdecl = {0};
	bool has_ret = false;
	if (!entry && r->tok.kind == PT_LPAREN) {
		/* the return parameter list; read after the name is known */
		has_ret = true;
		retdecl = r->tok;
	}
	hash_clear(&r->local);
	r->narr = 0;
	r->nlabels = 0;
	r->npend = 0;
	GROW(m->func, m->nfunc, r->caps_func);
	r->caps_regty = 0;
	int fi = m->nfunc++;
	PtxFunc *f = &m->func[fi];
	memset(f, 0, sizeof *f);
	f->entry = entry;
	f->retval = -1;
	r->cur = fi;
	if (has_ret)
		params(r, true);
	(void)retdecl;
	f = &m->func[fi];
	if (r->tok.kind != PT_NAME)
		expected(r, "a function name");
	f->name = dup_tok(r, &r->tok);
	f->pos = r->tok.pos;
	HEnt *e = hash_find(&r->global, r->tok.s, r->tok.n);
	int prior = e && e->kind == NK_FUNC ? e->v : -1;
	PtxTok name = r->tok;
	next(r);
	if (r->tok.kind == PT_LPAREN)
		params(r, false);
	f = &m->func[fi];
	while (r->tok.kind == PT_DIR) {
		bool req = tok_is(&r->tok, ".reqntid");
		next(r);
		for (int i = 0; r->tok.kind == PT_INT || r->tok.kind == PT_COMMA; i++) {
			if (r->tok.kind == PT_COMMA) {
				next(r);
				continue;
			}
			int64_t v = count(r, 1 << 30, "launch bound");
			if (req && i / 2 < 3)
				f->reqntid[i / 2] = (int)v;
		}
	}
	f->first = m->ninst;
	r->loc_file = r->loc_line = r->loc_col = 0;
	r->in_file = r->in_line = r->in_col = 0;
	if (r->tok.kind == PT_SEMI) {
		next(r);    /* a declaration */
		if (prior < 0)
			hash_put(&r->global, f->name, name.n, NK_FUNC, fi);
		return;
	}
	if (prior >= 0 && m->func[prior].defined)
		diag_error(r->d, name.pos, "function '%s' is defined twice", f->name);
	/* a definition replaces an earlier declaration of the same name */
	hash_put(&r->global, f->name, name.n, NK_FUNC, fi);
	if (prior >= 0)
		m->func[prior].first = -1;
	body(r);
}

/* ---- the module --------------------------------------------------------------- */

static void file_dir(Reader *r)
{
	next(r);
	int id = (int)count(r, 1 << 30, "file number");
	if (r->tok.kind != PT_STRING)
		expected(r, "a file name in quotes");
	PtxModule *m = r->m;
	GROW(m->file, m->nfile, r->caps_file);
	/* escapes are kept as written: paths rarely have them */
	m->file[m->nfile++] = (PtxFile){id, pool_strndup(r->pool, r->tok.s + 1,
	                                                  r->tok.n - 2)};
	next(r);
	while (r->tok.kind == PT_COMMA) {
		next(r);
		integer(r);
	}
}

/* Everything the reader holds outside the pool; the module's arrays too
 * unless they were moved into the pool. */
static void reader_free(Reader *r, bool module)
{
	PtxModule *m = r->m;
	if (module) {
		for (int i = 0; i < m->nfunc; i++)
			free(m->func[i].regty);
		free(m->func);
		free(m->inst);
		free(m->sym);
		free(m->vec);
		free(m->file);
		memset(m, 0, sizeof *m);
	}
	hash_clear(&r->global);
	hash_clear(&r->local);
	free(r->arr);
	free(r->labels);
	free(r->pend);
	free(r->calls);
	free(r);
}

static void *to_pool(Pool *p, void *a, size_t bytes)
{
	void *q = pool_alloc(p, bytes ? bytes : 1);
	if (a)
		memcpy(q, a, bytes);
	free(a);
	return q;
}

static void read_module(Reader *r)
{
	Diag *d = r->d;
	PtxModule *m = r->m;
	next(r);
	while (r->tok.kind != PT_EOF) {
		if (r->tok.kind == PT_DIR) {
			bool is_extern = false;
			/* linkage first: .visible .extern .weak .common */
			while (tok_is(&r->tok, ".visible") || tok_is(&r->tok, ".extern") ||
			       tok_is(&r->tok, ".weak") || tok_is(&r->tok, ".common")) {
				is_extern |= tok_is(&r->tok, ".extern");
				next(r);
			}
			if (tok_is(&r->tok, ".entry") || tok_is(&r->tok, ".func")) {
				function(r, tok_is(&r->tok, ".entry"));
				r->cur = -1;
			} else if (tok_is(&r->tok, ".shared") || tok_is(&r->tok, ".shared::cta")) {
				next(r);
				variable(r, SP_SHARED, is_extern);
			} else if (tok_is(&r->tok, ".global") || tok_is(&r->tok, ".const")) {
				next(r);
				variable(r, SP_GLOBAL, is_extern);
			} else if (tok_is(&r->tok, ".file")) {
				file_dir(r);
			} else if (tok_is(&r->tok, ".section")) {
				next(r);
				while (r->tok.kind != PT_LBRACE && r->tok.kind != PT_EOF)
					next(r);
				skip_braces(r);
			} else if (tok_is(&r->tok, ".version") || tok_is(&r->tok, ".target") ||
			           tok_is(&r->tok, ".address_size")) {
				/* values to the end of the directive's line */
				int line = r->tok.pos.line;
				next(r);
				while (r->tok.kind != PT_EOF && r->tok.pos.line == line)
					next(r);
			} else {
				skip_statement(r);      /* .pragma, .alias, ... */
			}
			continue;
		}
		if (r->tok.kind == PT_SEMI) {
			next(r);
			continue;
		}
		expected(r, "a directive");
	}
	for (int i = 0; i < r->ncalls; i++) {
		Pending *c = &r->calls[i];
		HEnt *e = hash_find(&r->global, c->name.s, c->name.n);
		if (!e || e->kind != NK_FUNC)
			diag_error(d, c->name.pos, "'%.*s' is not a declared function",
			           (int)c->name.n, c->name.s);
		m->inst[c->inst].opd[0].kind = OPD_FUNC;
		m->inst[c->inst].opd[0].sym = e->v;
	}
	/* calls to a function declared before its definition */
	for (int i = 0; i < m->ninst; i++) {
		PtxOpd *o = &m->inst[i].opd[0];
		if (m->inst[i].op.kind == PO_CALL && o->kind == OPD_FUNC &&
		    !m->func[o->sym].defined) {
			HEnt *e = hash_find(&r->global, m->func[o->sym].name,
			                    strlen(m->func[o->sym].name));
			if (e && e->kind == NK_FUNC)
				o->sym = e->v;
		}
	}
	/* extern (dynamic) shared arrays all start where static ones end */
	int64_t ea = 16;
	for (int i = 0; i < m->nsym; i++)
		if (m->sym[i].kind == SYM_SHARED && m->sym[i].addr < 0 &&
		    m->sym[i].align > ea)
			ea = m->sym[i].align;
	m->extern_base = (m->shared_static + ea - 1) / ea * ea;
	for (int i = 0; i < m->nsym; i++)
		if (m->sym[i].kind == SYM_SHARED && m->sym[i].addr < 0)
			m->sym[i].addr = m->extern_base;
}

void ptx_read(Pool *p, Diag *d, PtxModule *m)
{
	memset(m, 0, sizeof *m);
	Reader *r = calloc(1, sizeof *r);
	if (!r)
		abort();
	r->d = d;
	r->pool = p;
	r->m = m;
	r->cur = -1;
	ptx_lex_init(&r->lx, d);
	/* an error frees what the reader holds outside the pool, then goes on
	 * to the caller's handler */
	jmp_buf outer;
	memcpy(outer, d->jb, sizeof outer);
	if (setjmp(d->jb)) {
		reader_free(r, true);
		memcpy(d->jb, outer, sizeof outer);
		longjmp(d->jb, 1);
	}
	read_module(r);
	memcpy(d->jb, outer, sizeof outer);
	m->src = d->src;
	m->pool = p;
	for (int i = 0; i < m->nfunc; i++)
		m->func[i].regty = to_pool(p, m->func[i].regty,
		                           sizeof (Ty) * (size_t)m->func[i].nregs);
	m->func = to_pool(p, m->func, sizeof *m->func * (size_t)m->nfunc);
	m->inst = to_pool(p, m->inst, sizeof *m->inst * (size_t)m->ninst);
	m->sym = to_pool(p, m->sym, sizeof *m->sym * (size_t)m->nsym);
	m->vec = to_pool(p, m->vec, sizeof *m->vec * (size_t)m->nvec);
	m->file = to_pool(p, m->file, sizeof *m->file * (size_t)m->nfile);
	reader_free(r, false);
}

int ptx_find_func(const PtxModule *m, const char *s)
{
	for (int i = 0; i < m->nfunc; i++)
		if (m->func[i].defined && strcmp(m->func[i].name, s) == 0)
			return i;
	return -1;
}

const char *ptx_file_path(const PtxModule *m, int id)
{
	for (int i = 0; i < m->nfile; i++)
		if (m->file[i].id == id)
			return m->file[i].path;
	return NULL;
}

/* Itanium mangling: _Z [N ... E] <len><name> ...; the innermost names are
 * joined with "::". */
void ptx_short_name(const char *s, char *buf, size_t n)
{
	snprintf(buf, n, "%s", s);
	if (strncmp(s, "_Z", 2) != 0)
		return;
	const char *p = s + 2;
	bool nested = *p == 'N';
	if (nested)
		p++;
	size_t o = 0;
	buf[0] = 0;
	while (*p >= '1' && *p <= '9') {
		long len = strtol(p, (char **)&p, 10);
		if (len <= 0 || (size_t)len > strlen(p))
			break;
		if (o && o + 2 < n)
			o += (size_t)snprintf(buf + o, n - o, "::");
		if (o < n)
			o += (size_t)snprintf(buf + o, n - o, "%.*s", (int)len, p);
		p += len;
		if (!nested)
			break;
	}
	if (!buf[0])
		snprintf(buf, n, "%s", s);
}

int ptx_shared_at(const PtxModule *m, int func, int64_t a)
{
	int best = -1;
	for (int i = 0; i < m->nsym; i++) {
		const PtxSym *y = &m->sym[i];
		if (y->kind != SYM_SHARED || (y->func >= 0 && y->func != func))
			continue;
		if (y->size < 0) {
			if (a >= y->addr && best < 0)
				best = i;
			continue;
		}
		if (a >= y->addr && a < y->addr + y->size)
			return i;
	}
	return best;
}
