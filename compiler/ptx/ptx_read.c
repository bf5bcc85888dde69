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
 * A { } block scopes the labels, registers and variables it declares
 * (ptx_scope.c). */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_reader.h"

/* ---- instructions ------------------------------------------------------------- */

static void instruction(Reader *r)
{
	PtxModule *m = r->m;
	if (m->ninst >= MAX_PTX_INSTS)
		diag_error(r->d, r->tok.pos, "more than %d instructions", MAX_PTX_INSTS);
	rd_inst_room(r);
	int idx = m->ninst;
	PtxInst *in = &m->inst[idx];
	memset(in, 0, sizeof *in);
	in->guard = -1;
	in->slot = -1;
	in->func = r->cur;
	in->pos = r->tok.pos;
	if (r->tok.kind == PT_AT) {
		rd_next(r);
		if (r->tok.kind == PT_BANG) {
			in->guard_neg = true;
			rd_next(r);
		}
		if (r->tok.kind != PT_NAME)
			rd_expected(r, "a predicate register");
		int reg = rd_find_reg(r, &r->tok);
		if (reg < 0)
			diag_error(r->d, r->tok.pos, "'%.*s' is not a declared register",
			           (int)r->tok.n, r->tok.s);
		in->guard = reg;
		rd_next(r);
	}
	if (r->tok.kind != PT_NAME)
		rd_expected(r, "an instruction");
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
	in->inl = r->loc_inl;
	m->ninst++;
	rd_next(r);
	bool label_ok = in->op.kind == PO_BRA || in->op.kind == PO_CALL ||
	                in->op.kind == PO_OTHER;
	while (r->tok.kind != PT_SEMI) {
		/* an instruction bankc does not interpret may have more (sparse
		 * wgmma has ten): its results come first, the rest are read */
		bool keep = in->nopd < PTX_MAX_OPDS;
		if (!keep && in->op.kind != PO_OTHER && in->op.kind != PO_SHARED_OTHER)
			diag_error(r->d, r->tok.pos, "more than %d operands", PTX_MAX_OPDS);
		PtxOpd o = rd_operand(r, keep ? idx : -1, keep ? in->nopd : -1,
		                      keep && label_ok);
		in = &m->inst[idx];
		if (keep)
			in->opd[in->nopd++] = o;
		if (r->tok.kind == PT_COMMA)
			rd_next(r);
		else if (r->tok.kind != PT_SEMI)
			rd_expected(r, "',' or ';'");
	}
	rd_next(r);
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
			/* a function defined later: resolve at the end of the module
			 * (its pending entry is this instruction's first) */
			int p = r->npend - 1;
			while (p > 0 && r->pend[p - 1].inst == idx)
				p--;
			rd_add_pending(&r->calls, &r->ncalls, &r->capcalls, idx, 0,
			               &r->pend[p].name);
			memmove(&r->pend[p], &r->pend[p + 1],
			        (size_t)(r->npend - p - 1) * sizeof *r->pend);
			r->npend--;
			/* a prototype label after it now names operand 1 */
			for (int q = p; q < r->npend; q++)
				if (r->pend[q].inst == idx && r->pend[q].opd > 0)
					r->pend[q].opd = -1;
		}
	}
	if (in->ntext >= 3 && memcmp(in->text, "brx", 3) == 0 &&
	    (in->ntext == 3 || in->text[3] == '.')) {
		rd_lower_brx(r, idx);
		return;
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
		if ((in->op.space == SP_SHARED || in->op.space == SP_GENERIC) &&
		    m->nslots >= MAX_SLOTS)
			diag_error(r->d, in->pos, "more than %d shared-memory instructions in "
			           "one module", MAX_SLOTS);
		if (in->op.space == SP_SHARED || in->op.space == SP_GENERIC)
			in->slot = m->nslots++;
	}
}

/* The slot of .loc position (file, line, col) in the reader's map (open
 * addressing; an empty slot has line 0, positions are kept as line + 1). */
static struct LocInl *locmap_slot(Reader *r, int file, int line, int col)
{
	if (2 * (r->nlocmap + 1) > r->caplocmap) {
		int cap = r->caplocmap ? 2 * r->caplocmap : 256;
		struct LocInl *old = r->locmap, *n = xcalloc((size_t)cap, sizeof *n);
		int oldcap = r->caplocmap;
		r->locmap = n;
		r->caplocmap = cap;
		r->nlocmap = 0;
		for (int i = 0; i < oldcap; i++)
			if (old[i].line) {
				struct LocInl *s = locmap_slot(r, old[i].file, old[i].line - 1,
				                               old[i].col);
				if (!s->line)
					r->nlocmap++;
				*s = old[i];
			}
		free(old);
	}
	uint32_t h = ((uint32_t)file * 2654435761u) ^ ((uint32_t)line * 40503u) ^
	             (uint32_t)col * 97u;
	for (uint32_t i = h & (uint32_t)(r->caplocmap - 1);;
	     i = (i + 1) & (uint32_t)(r->caplocmap - 1)) {
		struct LocInl *s = &r->locmap[i];
		if (!s->line || (s->file == file && s->line == line + 1 && s->col == col))
			return s;
	}
}

/* Where a .loc at (file, line, col) with inlined_at (f, l, c) was called
 * from: the call (f, l, c), itself inlined as the .loc at that position
 * was last seen (nvcc writes a chain's outer .locs first). */
static int inline_chain(Reader *r, int file, int line, int col, int f, int l, int c)
{
	PtxModule *m = r->m;
	struct LocInl *s = locmap_slot(r, f, l, c);
	int parent = s->line ? s->inl : -1;
	s = locmap_slot(r, file, line, col);
	if (s->line && s->inl >= 0) {
		const PtxInline *e = &m->inl[s->inl];
		if (e->file == f && e->line == l && e->col == c && e->parent == parent)
			return s->inl;
	}
	GROW(m->inl, m->ninl, r->caps_inl);
	m->inl[m->ninl] = (PtxInline){f, l, c, parent};
	if (!s->line)
		r->nlocmap++;
	*s = (struct LocInl){file, line + 1, col, m->ninl};
	return m->ninl++;
}

/* .loc FILE LINE COL [, function_name LABEL] [, inlined_at F L C] */
static void loc(Reader *r)
{
	rd_next(r);
	r->loc_file = (int)rd_count(r, 1 << 30, "file number");
	r->loc_line = (int)rd_count(r, 1 << 30, "line number");
	r->loc_col = (int)rd_count(r, 1 << 30, "column number");
	r->in_file = r->in_line = r->in_col = 0;
	while (r->tok.kind == PT_COMMA) {
		rd_next(r);
		if (rd_tok_is(&r->tok, "function_name")) {
			rd_next(r);
			if (r->tok.kind != PT_NAME)
				rd_expected(r, "a label");
			rd_next(r);
		} else if (rd_tok_is(&r->tok, "inlined_at")) {
			rd_next(r);
			r->in_file = (int)rd_count(r, 1 << 30, "file number");
			r->in_line = (int)rd_count(r, 1 << 30, "line number");
			r->in_col = (int)rd_count(r, 1 << 30, "column number");
		} else {
			rd_expected(r, "function_name or inlined_at");
		}
	}
	r->loc_inl = -1;
	if (r->in_line > 0)
		r->loc_inl = inline_chain(r, r->loc_file, r->loc_line, r->loc_col,
		                          r->in_file, r->in_line, r->in_col);
	else {
		struct LocInl *s = locmap_slot(r, r->loc_file, r->loc_line, r->loc_col);
		if (!s->line)
			r->nlocmap++;
		*s = (struct LocInl){r->loc_file, r->loc_line + 1, r->loc_col, -1};
	}
}

/* The statements of a function body, up to its closing brace. */
static void body(Reader *r)
{
	PtxFunc *f = &r->m->func[r->cur];
	f->first = r->m->ninst;
	f->defined = true;
	Pos open = r->tok.pos;
	rd_expect(r, PT_LBRACE);
	int depth = 1;
	while (depth > 0) {
		switch (r->tok.kind) {
		case PT_EOF:
			diag_error(r->d, open, "function body not closed");
		case PT_LBRACE:
			depth++;
			rd_scope_open(r);
			rd_next(r);
			continue;
		case PT_RBRACE:
			if (--depth > 0)
				rd_scope_close(r);
			rd_next(r);
			continue;
		case PT_SEMI:
			rd_next(r);
			continue;
		case PT_DIR:
			if (rd_tok_is(&r->tok, ".reg")) {
				rd_next(r);
				rd_reg_decl(r);
			} else if (rd_tok_is(&r->tok, ".loc")) {
				loc(r);
			} else if (rd_tok_is(&r->tok, ".param")) {
				rd_next(r);
				rd_param_decl(r, -1);
				rd_expect(r, PT_SEMI);
			} else if (rd_tok_is(&r->tok, ".shared") || rd_tok_is(&r->tok, ".shared::cta")) {
				rd_next(r);
				rd_variable(r, SP_SHARED, false);
			} else if (rd_tok_is(&r->tok, ".extern") &&
			           (rd_tok_is(rd_peek(r), ".shared") ||
			            rd_tok_is(rd_peek(r), ".shared::cta"))) {
				rd_next(r);
				rd_next(r);
				rd_variable(r, SP_SHARED, true);    /* dynamic, in the body */
			} else if (rd_tok_is(&r->tok, ".local")) {
				rd_next(r);
				rd_variable(r, SP_LOCAL, false);
			} else if (rd_tok_is(&r->tok, ".global") || rd_tok_is(&r->tok, ".const")) {
				rd_next(r);
				rd_variable(r, SP_GLOBAL, false);
			} else {
				rd_skip_statement(r);  /* .pragma and other directives */
			}
			continue;
		default:
			break;
		}
		if (r->tok.kind == PT_NAME && rd_peek(r)->kind == PT_COLON) {
			PtxTok name = r->tok;
			rd_next(r);
			rd_next(r);
			bool table = rd_tok_is(&r->tok, ".callprototype") ||
			             rd_tok_is(&r->tok, ".branchtargets") ||
			             rd_tok_is(&r->tok, ".calltargets");
			HEnt *e = names_find(&r->local, name.s, name.n);
			if (e && e->blk == r->blk)
				diag_error(r->d, name.pos, "'%.*s' is declared twice",
				           (int)name.n, name.s);
			GROW(r->labels, r->nlabels, r->caplabels);
			r->labels[r->nlabels] = r->m->ninst;
			rd_scope_put(r, name.s, name.n, NK_LABEL, r->nlabels++);
			/* prototype: .callprototype ...; tl: .branchtargets ...; */
			if (rd_tok_is(&r->tok, ".branchtargets"))
				rd_branch_table(r, r->nlabels - 1);
			else if (table)
				rd_skip_statement(r);
			continue;
		}
		instruction(r);
	}
	f = &r->m->func[r->cur];
	f->ninst = r->m->ninst - f->first;
	/* a label at the very end targets one past the last instruction */
	rd_resolve_labels(r, 0, true);
}

/* "(" [ .param decl { "," .param decl } ] ")" */
static void params(Reader *r, bool ret)
{
	rd_expect(r, PT_LPAREN);
	PtxFunc *f = &r->m->func[r->cur];
	while (r->tok.kind != PT_RPAREN) {
		if (!rd_tok_is(&r->tok, ".param") && !rd_tok_is(&r->tok, ".reg"))
			rd_expected(r, "'.param'");
		rd_next(r);
		if (f->nparams == PTX_MAX_PARAMS)
			diag_error(r->d, r->tok.pos, "more than %d parameters", PTX_MAX_PARAMS);
		int s = rd_param_decl(r, ret ? -2 : f->nparams);
		if (ret)
			f->retval = s;
		else
			f->params[f->nparams++] = s;
		if (r->tok.kind != PT_COMMA)
			break;
		rd_next(r);
	}
	rd_expect(r, PT_RPAREN);
}

static void function(Reader *r, bool entry)
{
	PtxModule *m = r->m;
	rd_next(r);
	/* .func .attribute(.unified(UUID1, UUID2)) NAME: nothing bankc needs */
	while (rd_tok_is(&r->tok, ".attribute")) {
		rd_next(r);
		Pos open = r->tok.pos;
		rd_expect(r, PT_LPAREN);
		for (int depth = 1; depth > 0; rd_next(r)) {
			if (r->tok.kind == PT_EOF)
				diag_error(r->d, open, "'(' not closed");
			depth += r->tok.kind == PT_LPAREN;
			depth -= r->tok.kind == PT_RPAREN;
		}
	}
	/* a .func's return parameter comes before its name */
	bool has_ret = !entry && r->tok.kind == PT_LPAREN;
	names_clear(&r->local);
	r->narr = 0;
	free(r->emap);
	r->emap = NULL;
	r->emap_cap = r->emap_len = 0;
	r->nlabels = 0;
	r->npend = 0;
	rd_scope_reset(r);
	r->ntnames = r->ntabs = r->nltab = 0;
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
	f = &m->func[fi];
	if (r->tok.kind != PT_NAME)
		rd_expected(r, "a function name");
	f->name = rd_dup_tok(r, &r->tok);
	f->pos = r->tok.pos;
	HEnt *e = names_find(&r->global, r->tok.s, r->tok.n);
	int prior = e && e->kind == NK_FUNC ? e->v : -1;
	PtxTok name = r->tok;
	rd_next(r);
	if (r->tok.kind == PT_LPAREN)
		params(r, false);
	f = &m->func[fi];
	while (r->tok.kind == PT_DIR) {
		if (rd_tok_is(&r->tok, ".pragma")) {
			rd_skip_statement(r);   /* .pragma "nounroll"; */
			continue;
		}
		bool req = rd_tok_is(&r->tok, ".reqntid");
		bool max = rd_tok_is(&r->tok, ".maxntid");
		rd_next(r);
		for (int i = 0; r->tok.kind == PT_INT || r->tok.kind == PT_COMMA; i++) {
			if (r->tok.kind == PT_COMMA) {
				rd_next(r);
				continue;
			}
			int64_t v = rd_count(r, 1 << 30, "launch bound");
			if (req && i / 2 < 3)
				f->reqntid[i / 2] = (int)v;
			if (max && i / 2 < 3)
				f->maxntid[i / 2] = (int)v;
		}
	}
	f->first = m->ninst;
	r->loc_file = r->loc_line = r->loc_col = 0;
	r->in_file = r->in_line = r->in_col = 0;
	r->loc_inl = -1;
	free(r->locmap);
	r->locmap = NULL;
	r->nlocmap = r->caplocmap = 0;
	if (r->tok.kind == PT_SEMI) {
		rd_next(r);    /* a declaration */
		if (prior < 0)
			names_put(&r->global, f->name, name.n, NK_FUNC, fi);
		return;
	}
	if (prior >= 0 && m->func[prior].defined)
		diag_error(r->d, name.pos, "function '%s' is defined twice", f->name);
	/* a definition replaces an earlier declaration of the same name */
	names_put(&r->global, f->name, name.n, NK_FUNC, fi);
	if (prior >= 0)
		m->func[prior].first = -1;
	body(r);
}

/* ---- the module --------------------------------------------------------------- */

static void file_dir(Reader *r)
{
	rd_next(r);
	int id = (int)rd_count(r, 1 << 30, "file number");
	if (r->tok.kind != PT_STRING)
		rd_expected(r, "a file name in quotes");
	PtxModule *m = r->m;
	GROW(m->file, m->nfile, r->caps_file);
	/* escapes are kept as written: paths rarely have them */
	m->file[m->nfile++] = (PtxFile){id, pool_strndup(r->pool, r->tok.s + 1,
	                                                  r->tok.n - 2)};
	rd_next(r);
	while (r->tok.kind == PT_COMMA) {
		rd_next(r);
		rd_integer(r);
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
		free(m->sym);
		free(m->vec);
		free(m->file);
		free(m->inl);
		memset(m, 0, sizeof *m);
	}
	names_clear(&r->global);
	names_clear(&r->local);
	free(r->arr);
	free(r->emap);
	free(r->labels);
	free(r->pend);
	free(r->locmap);
	free(r->calls);
	rd_scope_free(r);
	free(r->tnames);
	free(r->tabs);
	free(r->ltab);
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
	rd_next(r);
	while (r->tok.kind != PT_EOF) {
		if (r->tok.kind == PT_DIR) {
			bool is_extern = false;
			/* linkage first: .visible .extern .weak .common */
			while (rd_tok_is(&r->tok, ".visible") || rd_tok_is(&r->tok, ".extern") ||
			       rd_tok_is(&r->tok, ".weak") || rd_tok_is(&r->tok, ".common")) {
				is_extern |= rd_tok_is(&r->tok, ".extern");
				rd_next(r);
			}
			if (rd_tok_is(&r->tok, ".entry") || rd_tok_is(&r->tok, ".func")) {
				function(r, rd_tok_is(&r->tok, ".entry"));
				r->cur = -1;
			} else if (rd_tok_is(&r->tok, ".shared") || rd_tok_is(&r->tok, ".shared::cta")) {
				rd_next(r);
				rd_variable(r, SP_SHARED, is_extern);
			} else if (rd_tok_is(&r->tok, ".global") || rd_tok_is(&r->tok, ".const")) {
				rd_next(r);
				rd_variable(r, SP_GLOBAL, is_extern);
			} else if (rd_tok_is(&r->tok, ".file")) {
				file_dir(r);
			} else if (rd_tok_is(&r->tok, ".section")) {
				rd_next(r);
				while (r->tok.kind != PT_LBRACE && r->tok.kind != PT_EOF)
					rd_next(r);
				rd_skip_braces(r);
			} else if (rd_tok_is(&r->tok, ".version") || rd_tok_is(&r->tok, ".target") ||
			           rd_tok_is(&r->tok, ".address_size")) {
				/* values to the end of the directive's line; the target's
				 * architecture kept (a family target, sm_100f, as its "a"
				 * one) */
				bool target = rd_tok_is(&r->tok, ".target");
				int line = r->tok.pos.line;
				rd_next(r);
				if (target && r->tok.kind == PT_NAME && r->tok.n < 16 &&
				    m->arch < 0) {
					char a[16];
					memcpy(a, r->tok.s, r->tok.n);
					a[r->tok.n] = 0;
					if (r->tok.n > 3 && a[r->tok.n - 1] == 'f')
						a[r->tok.n - 1] = 'a';
					m->arch = tab_find_arch(a, strlen(a));
				}
				while (r->tok.kind != PT_EOF && r->tok.pos.line == line)
					rd_next(r);
			} else {
				rd_skip_statement(r);      /* .pragma, .alias, ... */
			}
			continue;
		}
		if (r->tok.kind == PT_SEMI) {
			rd_next(r);
			continue;
		}
		rd_expected(r, "a directive");
	}
	for (int i = 0; i < r->ncalls; i++) {
		Pending *c = &r->calls[i];
		HEnt *e = names_find(&r->global, c->name.s, c->name.n);
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
			HEnt *e = names_find(&r->global, m->func[o->sym].name,
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
	m->arch = -1;
	Reader *r = xcalloc(1, sizeof *r);
	r->d = d;
	r->pool = p;
	r->m = m;
	r->cur = -1;
	r->loc_inl = -1;
	ptx_lex_init(&r->lx, d);
	rd_inst_start(r);
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
	m->sym = to_pool(p, m->sym, sizeof *m->sym * (size_t)m->nsym);
	m->vec = to_pool(p, m->vec, sizeof *m->vec * (size_t)m->nvec);
	m->file = to_pool(p, m->file, sizeof *m->file * (size_t)m->nfile);
	m->inl = to_pool(p, m->inl, sizeof *m->inl * (size_t)m->ninl);
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

bool ptx_names_sym(const PtxModule *m, int kernel, int s)
{
	for (int i = 0; i < m->ninst; i++) {
		const PtxInst *in = &m->inst[i];
		if (in->func != kernel && m->func[in->func].entry)
			continue;
		for (int o = 0; o < in->nopd; o++)
			if ((in->opd[o].kind == OPD_SYM || in->opd[o].kind == OPD_MEM) &&
			    in->opd[o].sym == s)
				return true;
	}
	return false;
}
