/* brx.idx, the indirect branch through a table of labels:
 *
 *     tbl: .branchtargets L0, L1, L2;
 *     @p brx.idx %r, tbl;
 *
 * The table must come before the branch (ptxas says so), so the reader
 * lowers the branch where it meets it into instructions the interpreter
 * follows: a hidden predicate cleared, then per entry j
 *
 *     @p setp.eq.u32 %hp, %r, j;   @%hp bra Lj;
 *
 * An index bankc cannot know then stops the path at the branch, as any
 * branch on an unknown does; an index past the table falls through. */
#include <string.h>

#include "ptx/ptx_reader.h"

enum { MAX_TARGETS = 1 << 16 };

/* LABEL: .branchtargets NAME {, NAME} ;  (the current token the directive) */
void rd_branch_table(Reader *r, int label)
{
	Pos at = r->tok.pos;
	rd_next(r);
	int first = r->ntnames, n = 0;
	for (;;) {
		if (r->tok.kind != PT_NAME)
			rd_expected(r, "a label");
		if (n == MAX_TARGETS)
			diag_error(r->d, at, "a table of more than %d labels", MAX_TARGETS);
		GROW(r->tnames, r->ntnames, r->captnames);
		r->tnames[r->ntnames++] = r->tok;
		n++;
		rd_next(r);
		if (r->tok.kind != PT_COMMA)
			break;
		rd_next(r);
	}
	rd_expect(r, PT_SEMI);
	GROW(r->tabs, r->ntabs, r->captabs);
	r->tabs[r->ntabs] = (struct BrTable){label, first, n};
	while (r->nltab <= label) {
		GROW(r->ltab, r->nltab, r->capltab);
		r->ltab[r->nltab++] = -1;
	}
	r->ltab[label] = r->ntabs++;
}

static PtxInst *append(Reader *r, const PtxInst *like)
{
	PtxModule *m = r->m;
	if (m->ninst >= MAX_PTX_INSTS)
		diag_error(r->d, like->pos, "more than %d instructions", MAX_PTX_INSTS);
	rd_inst_room(r);
	PtxInst *in = &m->inst[m->ninst++];
	*in = *like;
	return in;
}

/* Instruction idx is "brx.idx INDEX, TABLE", read with TABLE pending as a
 * label: replace it with its lowering. */
void rd_lower_brx(Reader *r, int idx)
{
	PtxModule *m = r->m;
	PtxInst b = m->inst[idx];
	if (b.nopd != 2 || b.opd[1].kind != OPD_LABEL || r->npend == 0 ||
	    r->pend[r->npend - 1].inst != idx)
		diag_error(r->d, b.pos, "'%.*s' needs an index and a label of "
		           ".branchtargets", b.ntext, b.text);
	PtxTok name = r->pend[--r->npend].name;
	HEnt *e = names_find(&r->local, name.s, name.n);
	int tab = e && e->kind == NK_LABEL && e->v < r->nltab ? r->ltab[e->v] : -1;
	if (tab < 0)
		diag_error(r->d, name.pos, "'%.*s' is not a .branchtargets table declared "
		           "before this branch", (int)name.n, name.s);
	PtxFunc *f = &m->func[r->cur];
	if (f->nregs + 1 > MAX_REGS)
		diag_error(r->d, b.pos, "more than %d registers in one function", MAX_REGS);
	int hp = f->nregs;
	GROW(f->regty, f->nregs + 1, r->caps_regty);
	f->regty[f->nregs++] = (Ty){TY_PRED, 1};
	PtxOpd pred = {.kind = OPD_REG, .reg = hp, .reg2 = -1, .sym = -1};
	/* mov.pred %hp, 0 in the branch's place */
	PtxInst *in = &m->inst[idx];
	memset(&in->op, 0, sizeof in->op);
	in->op.kind = PO_MOV;
	in->op.ty = (Ty){TY_PRED, 1};
	in->op.vec = 1;
	in->guard = -1;
	in->guard_neg = false;
	in->nopd = 2;
	in->opd[0] = pred;
	in->opd[1] = (PtxOpd){.kind = OPD_IMM, .reg = -1, .reg2 = -1, .sym = -1};
	const struct BrTable *t = &r->tabs[tab];
	/* a copy: appending may move the instructions */
	PtxInst like = *in;
	for (int j = 0; j < t->n; j++) {
		PtxInst *s = append(r, &like);
		s->op.kind = PO_SETP;
		s->op.ty = (Ty){TY_U, 4};
		s->op.cmp = CMP_EQ;
		s->guard = b.guard;
		s->guard_neg = b.guard_neg;
		s->nopd = 3;
		s->opd[1] = b.opd[0];
		s->opd[2] = (PtxOpd){.kind = OPD_IMM, .reg = -1, .reg2 = -1, .sym = -1,
		                     .imm = j};
		PtxInst *br = append(r, &like);
		br->op.kind = PO_BRA;
		br->op.ty = (Ty){TY_NONE, 0};
		br->guard = hp;
		br->nopd = 1;
		br->opd[0] = (PtxOpd){.kind = OPD_LABEL, .reg = -1, .reg2 = -1, .sym = -1};
		rd_add_pending(&r->pend, &r->npend, &r->cappend, m->ninst - 1, 0,
		               &r->tnames[t->first + j]);
	}
}
