/* PTX operands: registers (declared names and %r<N> arrays), special
 * registers, immediates (constant expressions: ptx_const.c), symbols,
 * [address] forms and {vector} or (call) lists. */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_reader.h"

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
	/* %reserved_smem_offset_<2>: the two words of reserved shared memory */
	if (t->n == 23 && memcmp(t->s, "%reserved_smem_offset_", 22) == 0 &&
	    (t->s[22] == '0' || t->s[22] == '1'))
		return SR_UNKNOWN * 4;
	return -1;
}

/* The register of element idx of array a, made at its first use. */
static int elem_reg(Reader *r, int a, long idx, const Pos *at)
{
	if ((r->emap_len + 1) * 2 > r->emap_cap) {
		size_t cap = r->emap_cap ? r->emap_cap * 2 : 256;
		struct ElemReg *n = xcalloc(cap, sizeof *n);
		for (size_t i = 0; i < r->emap_cap; i++) {
			if (!r->emap[i].key)
				continue;
			size_t j = (size_t)(r->emap[i].key * 0x9E3779B97F4A7C15ull >> 32) & (cap - 1);
			while (n[j].key)
				j = (j + 1) & (cap - 1);
			n[j] = r->emap[i];
		}
		free(r->emap);
		r->emap = n;
		r->emap_cap = cap;
	}
	uint64_t key = (uint64_t)(a + 1) << 32 | (uint64_t)idx;
	size_t j = (size_t)(key * 0x9E3779B97F4A7C15ull >> 32) & (r->emap_cap - 1);
	while (r->emap[j].key && r->emap[j].key != key)
		j = (j + 1) & (r->emap_cap - 1);
	if (!r->emap[j].key) {
		r->emap[j] = (struct ElemReg){key, rd_new_reg(r, at, r->arr[a].ty)};
		r->emap_len++;
	}
	return r->emap[j].reg;
}

/* A register by name: declared as such, or NAME<digits> of a %r<N> array. */
int rd_find_reg(Reader *r, const PtxTok *t)
{
	HEnt *e = names_find(&r->local, t->s, t->n);
	if (e && e->kind == NK_REG)
		return e->v;
	/* an element of a vector register: v.x v.y v.z v.w, or v.r v.g v.b v.a */
	if (t->n > 2 && t->s[t->n - 2] == '.') {
		const char *c = strchr("xyzwrgba", t->s[t->n - 1]);
		e = names_find(&r->local, t->s, t->n - 2);
		if (c && *c && e && e->kind == NK_REGVEC) {
			int idx = (int)(c - "xyzwrgba") % 4;
			return idx < r->arr[e->v].count ? r->arr[e->v].base + idx : -1;
		}
	}
	size_t k = t->n;
	while (k > 0 && t->s[k - 1] >= '0' && t->s[k - 1] <= '9')
		k--;
	if (k == t->n || k == 0)
		return -1;
	e = names_find(&r->local, t->s, k);
	if (!e || e->kind != NK_REGARR)
		return -1;
	if (t->n - k > 8 || (t->n - k > 1 && t->s[k] == '0'))
		return -1;
	long idx = strtol(t->s + k, NULL, 10);
	if (idx >= r->arr[e->v].count)
		return -1;
	/* first use of this element: a register of its own, kept by its
	 * array (an inner block's array of the same name has others) */
	return elem_reg(r, e->v, idx, &t->pos);
}

/* A register of the current function, within the limits. */
int rd_new_reg(Reader *r, const Pos *at, Ty ty)
{
	PtxFunc *f = &r->m->func[r->cur];
	if (f->nregs >= MAX_REGS)
		diag_error(r->d, *at, "more than %d registers in one function", MAX_REGS);
	if (r->module_regs >= MAX_MODULE_REGS)
		diag_error(r->d, *at, "more than %d registers in one module (each declared "
		           "by name, and each element of a %%r<N> array used)", MAX_MODULE_REGS);
	r->module_regs++;
	GROW(f->regty, f->nregs, r->caps_regty);
	f->regty[f->nregs] = ty;
	return f->nregs++;
}

void rd_add_vec(Reader *r, const PtxOpd *o)
{
	PtxModule *m = r->m;
	if (m->nvec >= MAX_PTX_VEC)
		diag_error(r->d, r->tok.pos, "too many operands in this module");
	GROW(m->vec, m->nvec, r->caps_vec);
	m->vec[m->nvec++] = *o;
}

void rd_add_pending(Pending **list, int *n, int *cap, int inst, int opd,
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
	rd_next(r);
	if (t.n == 1 && t.s[0] == '_') {
		o.kind = OPD_SINK;
		return o;
	}
	int reg = rd_find_reg(r, &t);
	if (reg >= 0) {
		o.kind = OPD_REG;
		o.reg = reg;
		return o;
	}
	HEnt *v = names_find(&r->local, t.s, t.n);
	if (v && v->kind == NK_REGVEC) {
		/* a whole vector register: the list of its elements */
		o.kind = OPD_VEC;
		o.sym = r->m->nvec;
		o.nvec = (uint8_t)r->arr[v->v].count;
		for (int i = 0; i < o.nvec; i++) {
			PtxOpd el = {.kind = OPD_REG, .reg = r->arr[v->v].base + i, .reg2 = -1,
			             .sym = -1};
			rd_add_vec(r, &el);
		}
		return o;
	}
	int sr = special_of(&t);
	if (sr >= 0) {
		o.kind = OPD_SPECIAL;
		o.special = sr;
		return o;
	}
	HEnt *e = names_find(&r->local, t.s, t.n);
	if (!e)
		e = names_find(&r->global, t.s, t.n);
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
		rd_add_pending(&r->pend, &r->npend, &r->cappend, inst, opd, &t);
		return o;
	}
	diag_error(r->d, t.pos, "'%.*s' is not declared", (int)t.n, t.s);
}

/* An immediate: [-] float | an integer constant expression */
static bool immediate(Reader *r, PtxOpd *o)
{
	if (r->tok.kind == PT_FLOAT ||
	    (r->tok.kind == PT_MINUS && rd_peek(r)->kind == PT_FLOAT)) {
		bool neg = r->tok.kind == PT_MINUS;
		if (neg)
			rd_next(r);
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
		rd_next(r);
		return true;
	}
	if (rd_const_starts(r)) {
		o->kind = OPD_IMM;
		o->imm = rd_const_expr(r);
		return true;
	}
	return false;
}

/* "+" term | "-" term ..., after an address's base or a symbol */
static int64_t offsets(Reader *r)
{
	int64_t v = 0;
	while (r->tok.kind == PT_PLUS || r->tok.kind == PT_MINUS) {
		bool neg = r->tok.kind == PT_MINUS;
		rd_next(r);
		int64_t t = rd_const_term(r);
		v = (int64_t)((uint64_t)v + (neg ? 0 - (uint64_t)t : (uint64_t)t));
	}
	return v;
}

/* "[" [ base ] [ ("+" | "-") offset ] "]", base a register or symbol;
 * anything else inside (texture and surface forms) is kept unmodelled. */
static PtxOpd mem_opd(Reader *r, int inst, int opd)
{
	PtxOpd o = {0};
	o.kind = OPD_MEM;
	o.reg = o.reg2 = o.sym = -1;
	rd_next(r);
	if (rd_const_starts(r)) {
		o.imm = rd_const_expr(r);   /* an absolute address */
	} else if (r->tok.kind == PT_NAME) {
		PtxOpd b = name_opd(r, inst, opd, false);
		if (b.kind == OPD_REG)
			o.reg = b.reg;
		else if (b.kind == OPD_SYM)
			o.sym = b.sym;
		else
			o.nvec = 1;     /* not an address: unmodelled */
	}
	o.imm = (int64_t)((uint64_t)o.imm + (uint64_t)offsets(r));
	if (r->tok.kind != PT_RBRACK) {
		o.nvec = 1;
		int depth = 1;
		while (depth > 0) {
			if (r->tok.kind == PT_EOF || r->tok.kind == PT_SEMI)
				rd_expected(r, "']'");
			if (r->tok.kind == PT_LBRACK)
				depth++;
			if (r->tok.kind == PT_RBRACK && --depth == 0)
				break;
			rd_next(r);
		}
	}
	rd_expect(r, PT_RBRACK);
	return o;
}

PtxOpd rd_operand(Reader *r, int inst, int opd, bool label_ok);

/* "{" elements "}" or "(" elements ")" */
static PtxOpd list_opd(Reader *r, int inst, PtxTokKind close)
{
	PtxOpd o = {0};
	o.kind = OPD_VEC;
	o.reg = o.reg2 = -1;
	o.sym = r->m->nvec;
	rd_next(r);
	PtxOpd el[PTX_MAX_PARAMS];
	int n = 0;
	while (r->tok.kind != close) {
		if (n == PTX_MAX_PARAMS)
			diag_error(r->d, r->tok.pos, "more than %d elements in a list",
			           PTX_MAX_PARAMS);
		el[n] = rd_operand(r, inst, -1, false);
		if (el[n].kind == OPD_VEC || el[n].kind == OPD_MEM)
			diag_error(r->d, r->tok.pos, "a list cannot hold lists or addresses");
		n++;
		if (r->tok.kind != PT_COMMA)
			break;
		rd_next(r);
	}
	if (r->tok.kind != close)
		rd_expected(r, ptx_tok_name(close));
	rd_next(r);
	o.sym = r->m->nvec;
	for (int i = 0; i < n; i++)
		rd_add_vec(r, &el[i]);
	o.nvec = (uint8_t)(n > 255 ? 255 : n);
	if (n > 255)
		diag_error(r->d, r->tok.pos, "more than 255 elements in a list");
	return o;
}

PtxOpd rd_operand(Reader *r, int inst, int opd, bool label_ok)
{
	PtxOpd o = {0};
	o.reg = o.reg2 = o.sym = -1;
	if (r->tok.kind == PT_LBRACK)
		return mem_opd(r, inst, opd);
	if (r->tok.kind == PT_LBRACE)
		return list_opd(r, inst, PT_RBRACE);
	/* "(" opens a call's list, or elsewhere a constant expression */
	if (r->tok.kind == PT_LPAREN && (inst < 0 || r->m->inst[inst].op.kind == PO_CALL ||
	                                 !rd_const_starts(r)))
		return list_opd(r, inst, PT_RPAREN);
	if (immediate(r, &o))
		return o;
	bool neg = false;
	if (r->tok.kind == PT_BANG) {
		neg = true;
		rd_next(r);
	}
	if (r->tok.kind != PT_NAME)
		rd_expected(r, "an operand");
	o = name_opd(r, inst, opd, label_ok && !neg);
	o.neg = neg;
	if (r->tok.kind == PT_PIPE && (o.kind == OPD_REG || o.kind == OPD_SINK)) {
		rd_next(r);
		PtxOpd q = rd_operand(r, inst, -1, false);
		if (q.kind != OPD_REG && q.kind != OPD_SINK)
			diag_error(r->d, r->tok.pos, "expected a predicate after '|'");
		o.reg2 = q.kind == OPD_REG ? q.reg : -1;
	}
	/* symbol+offset outside brackets (mov.u64 %rd, arr+16) */
	if (o.kind == OPD_SYM)
		o.imm = offsets(r);
	return o;
}
