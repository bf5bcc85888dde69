/* PTX declarations: the variables, parameters and registers that
 * declarations make, with the shared window's layout (see ptx_read.c for
 * the grammar). */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_reader.h"

int rd_new_sym(Reader *r, const PtxTok *name, SymKind kind)
{
	PtxModule *m = r->m;
	if (m->nsym >= MAX_SYMS)
		diag_error(r->d, name->pos, "more than %d names", MAX_SYMS);
	GROW(m->sym, m->nsym, r->caps_sym);
	PtxSym *s = &m->sym[m->nsym];
	memset(s, 0, sizeof *s);
	s->name = rd_dup_tok(r, name);
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
		if (rd_tok_is(&r->tok, ".align")) {
			rd_next(r);
			PtxTok t = r->tok;
			int64_t a = rd_count(r, 1 << 20, "alignment");
			if (a < 1 || (a & (a - 1)))
				diag_error(r->d, t.pos, "alignment must be a power of two");
			*align = (int)a;
			continue;
		}
		if (rd_tok_is(&r->tok, ".v2") || rd_tok_is(&r->tok, ".v4") || rd_tok_is(&r->tok, ".v8")) {
			*vec = r->tok.s[2] - '0';
			rd_next(r);
			continue;
		}
		PtxOpInfo o;
		char buf[40];
		if (r->tok.n < sizeof buf - 4) {
			snprintf(buf, sizeof buf, "mov%.*s", (int)r->tok.n, r->tok.s);
			if (ptx_op_decode(buf, strlen(buf), &o) && o.ty.kind != TY_NONE) {
				*ty = o.ty;
				rd_next(r);
				continue;
			}
		}
		rd_next(r);    /* .ptr, .global in old parameter lists, .attribute */
		if (r->tok.kind == PT_LPAREN) {
			while (r->tok.kind != PT_RPAREN && r->tok.kind != PT_EOF)
				rd_next(r);
			rd_expect(r, PT_RPAREN);
		}
	}
}

/* NAME [ "[" N "]" ]... : the name and its element count (-1 for []). */
static int64_t var_dims(Reader *r, PtxTok *name)
{
	if (r->tok.kind != PT_NAME)
		rd_expected(r, "a name");
	*name = r->tok;
	rd_next(r);
	int64_t n = 1;
	while (r->tok.kind == PT_LBRACK) {
		rd_next(r);
		if (r->tok.kind == PT_RBRACK) {
			n = -1;
			rd_next(r);
			continue;
		}
		PtxTok at = r->tok;
		int64_t k = rd_const_expr(r);
		if (k < 0 || k > PTX_SHARED_LIMIT)
			diag_error(r->d, at.pos, "array size %lld is out of range (0 to %d)",
			           (long long)k, PTX_SHARED_LIMIT);
		rd_expect(r, PT_RBRACK);
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
	 * a warp's words fall in does not depend on the base (docs/scan.md) */
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
void rd_variable(Reader *r, Space sp, bool is_extern)
{
	int align, vec;
	Ty ty;
	var_attrs(r, &align, &ty, &vec);
	for (;;) {
		PtxTok name;
		int64_t n = var_dims(r, &name);
		SymKind kind = sp == SP_SHARED ? SYM_SHARED : sp == SP_LOCAL ? SYM_LOCAL
		               : SYM_GLOBAL;
		int s = rd_new_sym(r, &name, kind);
		PtxSym *y = &r->m->sym[s];
		y->align = align ? align : ty.bytes * vec;
		y->size = n < 0 ? -1 : n * ty.bytes * vec;
		y->ty = ty;
		if (kind == SYM_SHARED)
			lay_out_shared(r, s, is_extern);
		if (kind == SYM_LOCAL) {
			/* every function's locals side by side: one frame each */
			PtxModule *m = r->m;
			int64_t a = y->align > 0 ? y->align : 1;
			int64_t at = (m->local_bytes + a - 1) / a * a;
			if (y->size >= 0 && at + y->size <= PTX_LOCAL_LIMIT) {
				y->addr = at;
				m->local_bytes = at + y->size;
			} else {
				y->addr = -1;   /* its contents stay unknown */
			}
		}
		if (r->cur >= 0)
			rd_scope_put(r, r->m->sym[s].name, name.n, NK_SYM, s);
		else
			names_put(&r->global, r->m->sym[s].name, name.n, NK_SYM, s);
		if (r->tok.kind == PT_EQ) {
			rd_skip_statement(r);
			return;
		}
		if (r->tok.kind != PT_COMMA)
			break;
		rd_next(r);
	}
	rd_expect(r, PT_SEMI);
}

/* .param [.align N] .type name[N] in a parameter list or a body */
int rd_param_decl(Reader *r, int formal)
{
	int align, vec;
	Ty ty;
	var_attrs(r, &align, &ty, &vec);
	PtxTok name;
	int64_t n = var_dims(r, &name);
	if (n < 0)
		n = 0;
	HEnt *e = formal == -1 ? names_find(&r->local, name.s, name.n) : NULL;
	if (e && e->blk != r->blk)
		e = NULL;
	/* the name of one of a closed block: its bytes again */
	HEnt *old = formal == -1 && !e ? names_find(&r->retired, name.s, name.n) : NULL;
	if (old) {
		rd_scope_put(r, name.s, name.n, NK_SYM, old->v);
		e = names_find(&r->local, name.s, name.n);
		old->kind = 0;
	}
	if (e && e->kind == NK_SYM && r->m->sym[e->v].kind == SYM_PARAM) {
		/* the same call-sequence parameter again */
		PtxSym *y = &r->m->sym[e->v];
		if (n * ty.bytes * vec > y->size) {
			PtxFunc *f = &r->m->func[r->cur];
			y->poff = f->psize;
			y->size = n * ty.bytes * vec;
			f->psize += (y->size + 7) / 8 * 8;
		}
		return e->v;
	}
	int s = rd_new_sym(r, &name, SYM_PARAM);
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
	rd_scope_put(r, y->name, name.n, NK_SYM, s);
	return s;
}

/* .reg [.vN] .type name [<N>] { , name [<N>] } ;  (a .vN name without <N> is a
 * vector register of N elements) */
void rd_reg_decl(Reader *r)
{
	int align, vec;
	Ty ty;
	var_attrs(r, &align, &ty, &vec);
	for (;;) {
		if (r->tok.kind != PT_NAME)
			rd_expected(r, "a register name");
		PtxTok name = r->tok;
		rd_next(r);
		int n = 1;
		bool arr = false;
		if (r->tok.kind == PT_LT) {
			rd_next(r);
			n = (int)rd_count(r, MAX_REGS, "register count");
			rd_expect(r, PT_GT);
			arr = true;
		}
		HEnt *e = names_find(&r->local, name.s, name.n);
		bool vreg = vec > 1 && !arr;
		if (e && e->blk == r->blk && !vreg &&
		    ((arr && e->kind == NK_REGARR && r->arr[e->v].count >= n) ||
		     (!arr && e->kind == NK_REG))) {
			/* declared again in its block: the same registers */
		} else if (arr) {
			/* new, or hiding an enclosing block's until this one closes;
			 * its registers are made as they are used (rd_find_reg) */
			GROW(r->arr, r->narr, r->caparr);
			r->arr[r->narr] = (RegArr){-1, n, ty};
			rd_scope_put(r, name.s, name.n, NK_REGARR, r->narr++);
		} else if (vreg) {
			/* a vector register: its elements side by side */
			int base = rd_new_reg(r, &name.pos, ty);
			for (int i = 1; i < vec; i++)
				rd_new_reg(r, &name.pos, ty);
			GROW(r->arr, r->narr, r->caparr);
			r->arr[r->narr] = (RegArr){base, vec, ty};
			rd_scope_put(r, name.s, name.n, NK_REGVEC, r->narr++);
		} else {
			rd_scope_put(r, name.s, name.n, NK_REG, rd_new_reg(r, &name.pos, ty));
		}
		if (r->tok.kind != PT_COMMA)
			break;
		rd_next(r);
	}
	rd_expect(r, PT_SEMI);
}
