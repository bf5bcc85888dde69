/* What scan prints: a compiler's warnings at the source lines that .loc
 * names (the PTX line where there is none), each kernel's totals as
 * Nsight Compute counts them, the paths that stopped as errors, and the
 * same as JSON. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "scan/scan.h"
#include "scan/scan_source.h"

/* Chains of inlined calls in one order (-1, none, first). */
static int chain_cmp(const PtxModule *m, int a, int b)
{
	for (; a >= 0 && b >= 0; a = m->inl[a].parent, b = m->inl[b].parent) {
		const PtxInline *x = &m->inl[a], *y = &m->inl[b];
		if (x->file != y->file) return x->file < y->file ? -1 : 1;
		if (x->line != y->line) return x->line < y->line ? -1 : 1;
		if (x->col != y->col) return x->col < y->col ? -1 : 1;
	}
	return (a >= 0) - (b >= 0);
}

/* The calls a reported position was inlined from, innermost first. */
static void show_inlined(FILE *f, const PtxModule *m, const PtxInst *in,
                         const ScanCtx *c)
{
	int file, line, col, rest;
	if (!scan_source_at(m, in, &file, &line, &col, &rest))
		return;
	for (int d = 0; rest >= 0 && d < PTX_MAX_DEPTH; rest = m->inl[rest].parent, d++) {
		const PtxInline *e = &m->inl[rest];
		const char *p = ptx_file_path(m, e->file);
		if (!p || e->line <= 0)
			break;
		char shown[1024];
		char *locus = diag_format("%s:%d:%d", scan_escape(scan_display_path(p, c), shown,
		                          sizeof shown), e->line, e->col);
		diag_head(f, locus, DK_NOTE);
		fputs("inlined from this call\n", f);
		free(locus);
	}
}

void scan_where(const PtxModule *m, const PtxInst *in, const ScanCtx *c,
                char *buf, size_t n)
{
	int line, col;
	const char *path = scan_source_of(m, in, &line, &col);
	/* names as the terminal and JSON can take them (scan_escape.c) */
	char shown[1024];
	size_t cap = n > 48 ? n - 24 : n;   /* room for ":LINE:COL", cut whole */
	scan_escape(path ? scan_display_path(path, c) : c->input, shown,
	            cap < sizeof shown ? cap : sizeof shown);
	if (path && col > 0)
		snprintf(buf, n, "%s:%d:%d", shown, line, col);
	else if (path)
		snprintf(buf, n, "%s:%d", shown, line);
	else
		snprintf(buf, n, "%s:%d:%d", shown, in->pos.line, in->pos.col);
}

/* The message kept for --sarif at an instruction's place, with its
 * line's text and key (what it is about: an array, or NULL) for its
 * fingerprint; the record's index (-1: none kept). */
static int logged(const PtxModule *m, const PtxInst *in, const ScanCtx *c, DiagKind k,
                  const char *rule, const char *msg, const char *key)
{
	int line, col, r;
	const char *path = scan_source_of(m, in, &line, &col);
	const char *p = NULL;
	size_t len = 0;
	if (path) {
		const char *shown = scan_display_path(path, c);
		r = diag_log(k, rule, shown, line, col > 0 ? col : 0, msg);
		if (r >= 0 && !scan_source_line(shown, line, &p, &len))
			p = NULL;
	} else {
		r = diag_log(k, rule, c->input, in->pos.line, in->pos.col, msg);
		if (r >= 0 && !scan_source_text_line(m->src, in->pos.line, &p, &len))
			p = NULL;
	}
	diag_record_about(r, p, len, key);
	return r;
}

void scan_record_line(int rec, const char *path, int line, const char *key)
{
	const char *p = NULL;
	size_t n = 0;
	if (rec >= 0 && (!path || line <= 0 || !scan_source_line(path, line, &p, &n)))
		p = NULL;
	diag_record_about(rec, p, n, key);
}

/* "WHERE: KIND: " as diag_head prints it (coloured where it colours),
 * and the message kept for --sarif at the same place. */
static int head(FILE *f, const PtxModule *m, const PtxInst *in,
                const ScanCtx *c, DiagKind k, const char *rule,
                const char *msg, const char *key)
{
	char where[512];
	scan_where(m, in, c, where, sizeof where);
	diag_head(f, where, k);
	return logged(m, in, c, k, rule, msg, key);
}

/* A warning the user accepted: not printed; in the --sarif log,
 * suppressed, where --sarif-suppressed asks for it. */
static void accepted(const PtxModule *m, const PtxInst *in, const ScanCtx *c,
                     ScanAccept a, DiagFlag flag, const char *msg, const char *key)
{
	char why[1200];
	DiagSuppress how = scan_accept_why(a, flag, why, sizeof why);
	diag_record_suppress(logged(m, in, c, DK_WARNING, diag_flag_name(flag), msg, key),
	                     how, why);
}

/* The source line of a position, with a caret, if the file can be read. */
static void show_source(FILE *f, const PtxModule *m, const PtxInst *in,
                        const ScanCtx *c)
{
	int line, col;
	const char *path = scan_source_of(m, in, &line, &col);
	const char *p;
	size_t len;
	/* only files the user pointed to, each indexed once (scan_source.c) */
	if (path ? !scan_source_line(scan_display_path(path, c), line, &p, &len)
	         : !scan_source_text_line(m->src, line = in->pos.line, &p, &len))
		return;
	if (!path)
		col = in->pos.col;
	scan_show_source(f, p, len, col);
}

/* A diagnostic at an instruction: its place, kind and message with its
 * flag (an error of a check has one too), the source line and the calls
 * it was inlined from; kept for --sarif under rule. */
void scan_diag_at(FILE *f, const PtxModule *m, const PtxInst *in, const ScanCtx *c,
                  DiagKind k, const char *rule, int flag, const char *msg)
{
	head(f, m, in, c, k, rule, msg, NULL);
	if (flag >= 0 && k != DK_NOTE)
		fprintf(f, "%s [-W%s]\n", msg, diag_flag_name((DiagFlag)flag));
	else
		fprintf(f, "%s\n", msg);
	show_source(f, m, in, c);
	show_inlined(f, m, in, c);
}

/* ---- what ------------------------------------------------------------------------ */

/* merged: > 1 for the accesses at consecutive addresses that ptxas
 * makes one (scan_merge.c) */
static void what(const PtxInst *in, int merged, char *buf, size_t n)
{
	const PtxOpInfo *o = &in->op;
	int bytes = o->ty.bytes * o->vec * (merged > 1 ? merged : 1);
	char gen[96] = "";
	if (o->space == SP_GENERIC)
		snprintf(gen, sizeof gen, " (generic address)");
	else if (merged > 1)
		snprintf(gen, sizeof gen, " (%d adjacent %d-byte accesses that ptxas "
		         "vectorizes)", merged, o->ty.bytes * o->vec);
	switch (o->kind) {
	case PO_LD: snprintf(buf, n, "%d-byte shared load%s", bytes, gen); break;
	case PO_ST: snprintf(buf, n, "%d-byte shared store%s", bytes, gen); break;
	case PO_ATOM:
		snprintf(buf, n, "%d-byte shared atomic (atom.%s)%s", bytes,
		         ptx_atom_names[o->atom_op], gen);
		break;
	case PO_RED:
		snprintf(buf, n, "%d-byte shared reduction (red.%s)%s", bytes,
		         ptx_atom_names[o->atom_op], gen);
		break;
	case PO_LDMATRIX: case PO_STMATRIX: {
		static const char *const shape[] = {"", ".m16n16", ".m8n16", ".m16n8"};
		snprintf(buf, n, "%s%s.x%d%s", o->kind == PO_LDMATRIX ? "ldmatrix" : "stmatrix",
		         shape[o->mshape & 3], o->xnum, (o->mods & M_TRANS) ? ".trans" : "");
		break;
	}
	case PO_CPASYNC:
		snprintf(buf, n, "%d-byte cp.async",
		         in->nopd >= 3 ? (int)in->opd[2].imm : 0);
		break;
	default: snprintf(buf, n, "'%.*s'", in->ntext, in->text); break;
	}
}

/* Which counter an instruction's wavefronts show in. */
typedef enum { CAT_LD, CAT_ST, CAT_ATOM, CAT_RED, CAT_CPASYNC, CAT_COUNT } Cat;
static const char *const cat_key[CAT_COUNT] = {"ld", "st", "atom", "red", "cp.async"};

static Cat cat_of(const PtxInst *in)
{
	switch (in->op.kind) {
	case PO_LD: case PO_LDMATRIX: return CAT_LD;
	/* sm_90 has no shared reduction instruction: red is ATOMS, and
	 * Nsight Compute counts it with the atomics (measured on an H200) */
	case PO_ATOM: case PO_RED: return CAT_ATOM;
	case PO_CPASYNC: return CAT_CPASYNC;
	default: return CAT_ST;
	}
}

/* ---- why ---------------------------------------------------------------------------- */

void scan_why(const PtxModule *m, const ScanKernel *k, uint32_t why,
              const ScanCtx *c, char *buf, size_t n)
{
	if (why > 0 && why < WHY_INST) {
		int p = (int)why - 1;
		const PtxFunc *f = &m->func[k->kernel];
		const char *name = p < f->nparams ? m->sym[f->params[p]].name : "?";
		if (p < f->nparams && m->sym[f->params[p]].size > 8)
			snprintf(buf, n, "kernel parameter %d (%s), a %lld-byte aggregate; pass "
			         "the field it reads as --param %d+OFFSET=VALUE (4 bytes at byte "
			         "OFFSET; +OFFSET:8 for 8)", p, name,
			         (long long)m->sym[f->params[p]].size, p);
		else
			snprintf(buf, n, "kernel parameter %d (%s); pass --param %d=VALUE",
			         p, name, p);
		return;
	}
	if (why == WHY_UNSET) {
		snprintf(buf, n, "a register read before any instruction wrote it "
		         "(its value is undefined)");
		return;
	}
	int i = (int)(why - WHY_INST);
	if (why < WHY_INST || i >= m->ninst) {
		snprintf(buf, n, "an unknown value");
		return;
	}
	const PtxInst *in = &m->inst[i];
	char at[512];
	scan_where(m, in, c, at, sizeof at);
	const PtxOpInfo *o = &in->op;
	switch (o->kind) {
	case PO_LD:
		if (o->space == SP_SHARED)
			snprintf(buf, n, "the value loaded from shared memory at %s (bankc "
			         "does not follow shared memory's contents)", at);
		else if (o->space == SP_LOCAL)
			snprintf(buf, n, "the value loaded from local memory at %s", at);
		else if (k->load_from && k->load_from[i] > 0) {
			int p = k->load_from[i] - 1;
			const PtxFunc *f = &m->func[k->kernel];
			const char *name = p < f->nparams ? m->sym[f->params[p]].name : "?";
			if (k->load_past && k->load_past[i])
				snprintf(buf, n, "the value loaded from memory at %s, past the end "
				         "of the buffer given as --data %d", at, p);
			else
				snprintf(buf, n, "the value loaded from memory at %s, through kernel "
				         "parameter %d (%s); pass its buffer as --data %d=FILE", at,
				         p, name, p);
		} else
			snprintf(buf, n, "the value loaded from memory at %s (data: bankc "
			         "knows only parameters, thread indices, constants and the "
			         "buffers given with --data)", at);
		return;
	case PO_ATOM:
		snprintf(buf, n, "the result of an atomic at %s", at);
		return;
	case PO_DIV: case PO_REM:
		if (o->ty.kind != TY_F) {
			snprintf(buf, n, "a division by zero at %s", at);
			return;
		}
		break;
	case PO_CVTA:
		snprintf(buf, n, "cvta.to.shared of an address outside shared memory at %s", at);
		return;
	default:
		break;
	}
	bool fl = o->ty.kind == TY_F || o->ty2.kind == TY_F || (o->mods & M_FLOATOP) ||
	          o->cmp == CMP_FLOAT;
	for (int j = 0; j < in->nopd; j++)
		if (in->opd[j].kind == OPD_SPECIAL && in->opd[j].special / 4 >= SR_NWARPID &&
		    in->opd[j].special / 4 != SR_LANEMASK_EQ) {
			if (in->opd[j].special / 4 == SR_NWARPID || in->opd[j].special / 4 == SR_UNKNOWN) {
				snprintf(buf, n, "a special register of the hardware (%.*s) at %s",
				         in->ntext, in->text, at);
				return;
			}
		}
	snprintf(buf, n, "the result of '%.*s' at %s%s", in->ntext, in->text, at,
	         fl ? " (floating point: not interpreted)" : " (not interpreted)");
}

static void thread_of(const ScanKernel *k, int tid, char *buf, size_t n)
{
	snprintf(buf, n, "(%d,%d,%d)", tid % k->block[0], tid / k->block[0] % k->block[1],
	         tid / (k->block[0] * k->block[1]));
}

static void stop_message(const PtxModule *m, const ScanKernel *k, const ScanStop *s,
                         const ScanCtx *c, char *buf, size_t n)
{
	const PtxInst *in = &m->inst[s->inst];
	char w[128], why[1024], th[64];
	what(in, 0, w, sizeof w);
	scan_why(m, k, s->why, c, why, sizeof why);
	thread_of(k, s->first_tid, th, sizeof th);
	int threads = k->block[0] * k->block[1] * k->block[2];
	switch (s->kind) {
	case STOP_UNKNOWN_ADDR:
		snprintf(buf, n, "the address of this %s depends on a value bankc cannot "
		         "know: %s", w, why);
		break;
	case STOP_UNKNOWN_BRANCH:
		snprintf(buf, n, "this branch depends on a value bankc cannot know: %s", why);
		break;
	case STOP_UNKNOWN_GUARD:
		snprintf(buf, n, "whether this %s runs depends on a value bankc cannot "
		         "know: %s", w, why);
		break;
	case STOP_STEPS:
		snprintf(buf, n, "thread %s ran past %lld instructions (--max-steps %lld "
		         "shared by %d threads): a loop whose bound bankc does not know? "
		         "pass the --param that bounds it, or raise --max-steps", th,
		         (long long)(c->ro->max_steps / threads), (long long)c->ro->max_steps,
		         threads);
		break;
	case STOP_RECORDS:
		snprintf(buf, n, "more than %d shared-memory warp instructions wait for "
		         "lanes of their warps that took other paths (the limit of one scan)",
		         SCAN_MAX_OPEN);
		break;
	case STOP_MEMORY:
		snprintf(buf, n, "the registers and local memory of the threads run "
		         "together would pass %lld MiB (calls nested this deep in every "
		         "thread)", (long long)(INTERP_STATE_CAP >> 20));
		break;
	case STOP_BAD_ADDR:
		snprintf(buf, n, "this %s reaches shared address %lld, beyond %d bytes",
		         w, (long long)s->addr, PTX_SHARED_LIMIT);
		break;
	case STOP_DEPTH:
		snprintf(buf, n, "calls nested deeper than %d", PTX_MAX_DEPTH);
		break;
	case STOP_TRAP:
		snprintf(buf, n, "the kernel traps here");
		break;
	case STOP_CALL:
		snprintf(buf, n, "an indirect call: bankc cannot tell which function "
		         "runs");
		break;
	default:
		snprintf(buf, n, "a parameter access bankc cannot follow");
		break;
	}
}

/* ---- banks of the worst instruction ------------------------------------------------ */

/* The banks of its worst phase that serve the most distinct words (the
 * most lanes, for an atomic). */
static int worst_banks(const ScanAcc *a, const Geom *g, int *banks, int *words)
{
	SimResult r;
	const char *err;
	*words = 0;
	if (!sim_inst(g, a->op, a->bytes, a->worst_mask, a->worst_addr, &r, &err) ||
	    a->op.kind == OP_CPASYNC)
		return 0;
	int best = -1;
	for (int p = 0; p < r.nphase; p++)
		if (best < 0 || r.phase[p].wavefronts - r.phase[p].ideal >
		                r.phase[best].wavefronts - r.phase[best].ideal)
			best = p;
	if (best < 0)
		return 0;
	int count[64];
	int most = sim_phase_banks(g, a->op, a->bytes, r.phase[best].lanes, a->worst_addr,
	                           count);
	int nb = 0;
	for (int b = 0; b < g->banks && most > 1; b++)
		if (count[b] == most)
			banks[nb++] = b;
	*words = most;
	return nb;
}

/* ---- text ------------------------------------------------------------------------- */

typedef struct {
	int slot;           /* first of the group */
	int file, line, col;
	int inl;            /* the calls it was inlined from */
	int ptxline;
	const PtxModule *m;
} Key;

/* One warning's position: the source position, whatever calls it was
 * inlined from (a helper called from 16 places warns once, its paths
 * counted in a note). */
static int pos_cmp(const Key *x, const Key *y)
{
	if (x->file != y->file) return x->file < y->file ? -1 : 1;
	if (x->line != y->line) return x->line < y->line ? -1 : 1;
	return (x->col > y->col) - (x->col < y->col);
}

static int key_cmp(const void *a, const void *b)
{
	const Key *x = a, *y = b;
	int c = pos_cmp(x, y);
	if (c)
		return c;
	c = chain_cmp(x->m, x->inl, y->inl);
	if (c)
		return c;
	return x->ptxline < y->ptxline ? -1 : x->ptxline > y->ptxline;
}

/* Instructions of one source position and kind are one warning. */
static bool same_group(const PtxModule *m, const ScanAcc *a, const ScanAcc *b)
{
	const PtxInst *x = &m->inst[a->inst], *y = &m->inst[b->inst];
	if (x->line <= 0 || y->line <= 0)
		return a == b;
	return x->op.kind == y->op.kind && a->bytes == b->bytes &&
	       a->op.nmat == b->op.nmat && a->op.shape == b->op.shape &&
	       a->op.trans == b->op.trans &&
	       x->op.space == y->op.space && a->merged_from == b->merged_from;
}

/* The calls that lead to a position: after its warning, a note naming
 * how many distinct chains of inlined calls reach it and the outermost
 * call of each other one (three of them), where there is more than one. */
static void call_paths(FILE *f, const PtxModule *m, const ScanAcc **g, int n,
                       const PtxInst *shown, const ScanCtx *c)
{
	int *chain = xmalloc(((size_t)n + 1) * sizeof *chain), nc = 0;
	for (int i = 0; i < n; i++) {
		int file, line, col, rest;
		if (!scan_source_at(m, &m->inst[g[i]->inst], &file, &line, &col, &rest) || rest < 0)
			continue;
		bool seen = false;
		for (int j = 0; j < nc && !seen; j++)
			seen = chain_cmp(m, chain[j], rest) == 0;
		if (!seen)
			chain[nc++] = rest;
	}
	if (nc > 1) {
		int file, line, col, own;
		scan_source_at(m, shown, &file, &line, &col, &own);
		char where[512];
		scan_where(m, shown, c, where, sizeof where);
		diag_head(f, where, DK_NOTE);
		fprintf(f, "reached through %d call paths, counted together above; the others "
		        "from", nc);
		int listed = 0;
		for (int j = 0; j < nc && listed < 3; j++) {
			if (chain_cmp(m, chain[j], own) == 0)
				continue;
			int top = chain[j];
			while (m->inl[top].parent >= 0)
				top = m->inl[top].parent;
			const char *p = ptx_file_path(m, m->inl[top].file);
			char shownp[1024];
			fprintf(f, "%s %s:%d:%d", listed ? "," : "", p ? scan_escape(scan_display_path(p, c),
			        shownp, sizeof shownp) : "?", m->inl[top].line, m->inl[top].col);
			listed++;
		}
		if (nc - 1 > listed)
			fprintf(f, " and %d more", nc - 1 - listed);
		fputc('\n', f);
	}
	free(chain);
}

/* "MESSAGE [-WNAME]" and a line break: a warning names its flag */
static void message(FILE *f, const char *msg, DiagKind k, DiagFlag flag)
{
	if (k == DK_WARNING)
		fprintf(f, "%s [-W%s]\n", msg, diag_flag_name(flag));
	else
		fprintf(f, "%s\n", msg);
}

static void warn_group(FILE *f, const PtxModule *m, const ScanAcc **g, int n,
                       const Geom *geom, const ScanCtx *c)
{
	int64_t count = 0, wave = 0, ideal = 0;
	int minw = 0, maxw = 0, mini = 0, maxi = 0;
	const ScanAcc *worst = NULL;
	for (int i = 0; i < n; i++) {
		const ScanAcc *a = g[i];
		if (!a->count)
			continue;
		if (!count || a->min_wave < minw) minw = a->min_wave;
		if (!count || a->max_wave > maxw) maxw = a->max_wave;
		if (!count || a->min_ideal < mini) mini = a->min_ideal;
		if (!count || a->max_ideal > maxi) maxi = a->max_ideal;
		if (!worst || a->worst_excess > worst->worst_excess)
			worst = a;
		count += a->count;
		wave += a->wave;
		ideal += a->ideal;
	}
	if (!count || wave <= ideal)
		return;
	int64_t ranged = 0;
	for (int i = 0; i < n; i++)
		ranged += g[i]->rcount;
	const PtxInst *in = &m->inst[worst->inst];
	DiagFlag flag = in->op.kind == PO_CPASYNC ? DW_CP_ASYNC : DW_BANK_CONFLICT;
	ScanAccept acc = scan_accepted(m, in, c, flag);
	if (acc != ACCEPT_NONE && !scan_accepted_kept())
		return;
	char where[512], w[128], per[96], idl[64], banks[256] = "";
	scan_where(m, in, c, where, sizeof where);
	what(in, worst->merged_from, w, sizeof w);
	if (minw == maxw)
		snprintf(per, sizeof per, "%d", minw);
	else
		snprintf(per, sizeof per, "%d to %d (%.2f on average)", minw, maxw,
		         (double)wave / (double)count);
	if (mini == maxi)
		snprintf(idl, sizeof idl, "%d", mini);
	else
		snprintf(idl, sizeof idl, "%d to %d", mini, maxi);
	int bk[64], words, nb = worst_banks(worst, geom, bk, &words);
	if (nb) {
		size_t o = (size_t)snprintf(banks, sizeof banks, " (%s%s ",
		                            minw == maxw ? "" : "worst: ",
		                            nb == 1 ? "bank" : "banks");
		for (int i = 0; i < nb && i < 8; i++)
			o += (size_t)snprintf(banks + o, sizeof banks - o, "%s%d", i ? ", " : "", bk[i]);
		if (nb > 8)
			o += (size_t)snprintf(banks + o, sizeof banks - o, " and %d more", nb - 8);
		bool lanes = worst->op.kind == OP_ATOM && worst->op.aop != AOP_ADD1;
		snprintf(banks + o, sizeof banks - o, nb == 1 ? " serves %d %s)"
		         : " serve %d %s each)", words, lanes ? "lanes" : "words");
	}
	char arr[400], more[96] = "";
	scan_fix_label(c, worst, arr, sizeof arr);     /* the array, named */
	if (ranged)
		snprintf(more, sizeof more, ", and up to %lld more whose cost depends on data",
		         (long long)ranged);
	char *msg;
	if (in->op.kind == PO_CPASYNC)
		msg = diag_format("%s%s: destinations touch %s 128-byte segments per "
		        "instruction, ideal %s (not in the wavefront counters), %lld "
		        "instruction%s per block", w, arr, per, idl, (long long)count,
		        count == 1 ? "" : "s");
	else
		msg = diag_format("%s%s: %s wavefronts per instruction, ideal %s%s, "
		        "%lld instruction%s per block%s", w, arr, per, idl, banks,
		        (long long)count, count == 1 ? "" : "s", more);
	if (acc != ACCEPT_NONE) {
		accepted(m, in, c, acc, flag, msg, arr);
		free(msg);
		return;
	}
	int rec = head(f, m, in, c, DK_WARNING, diag_flag_name(flag), msg, arr);
	message(f, msg, DK_WARNING, flag);
	free(msg);
	show_source(f, m, in, c);
	show_inlined(f, m, in, c);
	call_paths(f, m, g, n, in, c);
	scan_fix_after_warning(f, m, g, n, c);          /* its declaration and fix */
	scan_fix_sarif(rec, g, n, c);                   /* the same in the --sarif log */
}

/* The warp instructions of a group whose cost depends on data: a
 * warning where even the least they can cost is over the ideal, a note
 * where only the most is; then what would make them known. */
static void warn_ranged(FILE *f, const PtxModule *m, const ScanKernel *k,
                        const ScanAcc **g, int n, const ScanCtx *c)
{
	int64_t count = 0, sure = 0, lo = 0, hi = 0, ideal = 0;
	int minw = 0, maxw = 0;
	bool unk = false;
	uint32_t why = 0;
	const ScanAcc *first = NULL;
	for (int i = 0; i < n; i++) {
		const ScanAcc *a = g[i];
		if (!a->rcount)
			continue;
		if (!count || a->rmin < minw) minw = a->rmin;
		if (!count || a->rmax > maxw) maxw = a->rmax;
		if (!first)
			first = a;
		count += a->rcount;
		sure += a->rsure;
		lo += a->rlo;
		hi += a->rhi;
		ideal += a->rideal;
		unk = unk || a->runknown;
		if (!why || (a->runknown && !first->runknown))
			why = a->rwhy;
	}
	if (!count || hi <= ideal)
		return;
	const PtxInst *in = &m->inst[first->inst];
	char where[512], w[128], many[112], because[1024];
	scan_where(m, in, c, where, sizeof where);
	what(in, 0, w, sizeof w);
	if (sure == count)
		snprintf(many, sizeof many, "%lld instruction%s per block", (long long)count,
		         count == 1 ? "" : "s");
	else
		snprintf(many, sizeof many, "%lld to %lld instructions per block",
		         (long long)sure, (long long)count);
	scan_why(m, k, why, c, because, sizeof because);
	char *msg = diag_format("%s: %s: %d to %d wavefronts per instruction, %lld to %lld "
	        "in all (ideal %lld), %s", w,
	        unk ? "its address depends on data" : "whether it runs depends on data",
	        minw, maxw, (long long)lo, (long long)hi, (long long)ideal, many);
	DiagKind kind = lo > ideal ? DK_WARNING : DK_NOTE;
	char arr[400];
	scan_fix_label(c, first, arr, sizeof arr);
	ScanAccept acc = kind == DK_WARNING ? scan_accepted(m, in, c, DW_DATA) : ACCEPT_NONE;
	if (acc != ACCEPT_NONE) {
		if (scan_accepted_kept())
			accepted(m, in, c, acc, DW_DATA, msg, arr);
		free(msg);
		return;
	}
	head(f, m, in, c, kind, "data-dependent", msg, arr);
	message(f, msg, kind, DW_DATA);
	free(msg);
	show_source(f, m, in, c);
	show_inlined(f, m, in, c);
	(void)where;
	diag_head(f, where, DK_NOTE);
	fprintf(f, "%s %s\n", unk ? "its address comes from" :
	        "it runs on one side of a branch on", because);
}

/* An access that misses every array: a bug of the kernel's, said plainly. */
static void warn_outside(FILE *f, const PtxModule *m, const ScanAcc *a,
                         const ScanCtx *c)
{
	if (!a->outside)
		return;
	const PtxInst *in = &m->inst[a->inst];
	ScanAccept acc = scan_accepted(m, in, c, DW_OUTSIDE);
	if (acc != ACCEPT_NONE && !scan_accepted_kept())
		return;
	if (scan_safety_has(c->safety, a->inst, SF_BOUNDS))
		return;     /* the error there says more */
	char where[512], w[128];
	scan_where(m, in, c, where, sizeof where);
	what(in, 0, w, sizeof w);
	char *msg = diag_format("%s outside every shared array of the kernel: "
	        "byte %lld (warp %d, lane %d), in %lld of %lld warp instructions; "
	        "the hardware would fault or touch memory no array owns (costed as "
	        "addressed)", w, (long long)a->outside_addr, a->outside_warp,
	        a->outside_lane, (long long)a->outside, (long long)a->count);
	if (acc != ACCEPT_NONE) {
		accepted(m, in, c, acc, DW_OUTSIDE, msg, NULL);
		free(msg);
		return;
	}
	head(f, m, in, c, DK_WARNING, "outside-array", msg, NULL);
	message(f, msg, DK_WARNING, DW_OUTSIDE);
	free(msg);
	show_source(f, m, in, c);
	show_inlined(f, m, in, c);
}

static void totals(const PtxModule *m, const ScanKernel *k, int64_t t[CAT_COUNT][4])
{
	memset(t, 0, sizeof(int64_t) * CAT_COUNT * 4);
	for (int s = 0; s < m->nslots; s++) {
		const ScanAcc *a = &k->acc[s];
		if (!a->count)
			continue;
		Cat ct = cat_of(&m->inst[a->inst]);
		t[ct][0] += a->count;
		t[ct][1] += a->counted;
		t[ct][2] += a->op.kind == OP_CPASYNC ? a->wave : a->ideal;
		t[ct][3] += a->op.kind == OP_CPASYNC ? a->ideal : 0;
		if (a->loop) {
			t[CAT_LD][0] += a->count;
			t[CAT_LD][1] += a->loop_counted;
			t[CAT_LD][2] += a->loop_ideal;
		}
	}
}

/* The accesses costed as ranges, by counter: instructions that may run,
 * the least and the most wavefronts counted, the ideal. */
static void ranged_totals(const PtxModule *m, const ScanKernel *k, int64_t t[CAT_COUNT][4])
{
	memset(t, 0, sizeof(int64_t) * CAT_COUNT * 4);
	for (int s = 0; s < m->nslots; s++) {
		const ScanAcc *a = &k->acc[s];
		if (!a->rcount)
			continue;
		Cat ct = cat_of(&m->inst[a->inst]);
		t[ct][0] += a->rcount;
		t[ct][1] += a->rlo_counted;
		t[ct][2] += a->rhi_counted;
		t[ct][3] += a->rideal;
	}
	/* the trips of compare-and-swap loops after the first: 0 to that */
	for (int s = 0; s < m->nslots; s++) {
		const ScanAcc *a = &k->acc[s];
		if (!a->trips_hi)
			continue;
		t[CAT_ATOM][0] += a->trips_hi;
		t[CAT_ATOM][2] += a->trips_atom_hi;
		t[CAT_LD][0] += a->trips_hi;
		t[CAT_LD][2] += a->trips_load_hi;
	}
}

/* A Blackwell PTX's totals rest on the sm_90 bank rules, unmeasured on
 * its GPU: what the reports say of them; false for the others. */
static bool scan_assumed(const PtxModule *m, char *buf, size_t n)
{
	if (m->arch < 0 || tab_arch[m->arch].cc < 100)
		return false;
	snprintf(buf, n, "assumed: the sm_90 bank rules, measured on an H200 (no %s "
	         "measured)", tab_arch[m->arch].name);
	return true;
}

/* An unmodelled instruction that ran (kind 0), or a branch bankc could
 * not decide (kind 1), by source position and opcode. */
typedef struct {
	int inst;
	int file, line, col;
	const PtxModule *m;
	int kind;
	const ScanKernel *k;
} Note;

/* The trips of a compare-and-swap loop past the first that the warp's
 * own lanes can make, in words. */
static const char *trips_text(int64_t hi, char *buf, size_t n)
{
	if (hi == 0)
		snprintf(buf, n, "and no more from the warp's own lanes, which share "
		         "no word");
	else
		snprintf(buf, n, "and up to %lld trip%s more where the warp's own "
		         "lanes share a word, in the totals' range", (long long)hi,
		         text_plural(hi));
	return buf;
}

/* What a note says of an instruction bankc does not count (or counts one
 * trip of), after "note: "; many: " (N instructions)" or "". */
static void note_text(const PtxModule *m, const ScanKernel *k, const PtxInst *in,
                      const char *many, char *buf, size_t n)
{
	char more[160];
	if (in->op.kind == PO_CALL)
		snprintf(buf, n, "calls %s%s, which has no body in this file: taken "
		         "to touch no shared memory", m->func[in->opd[0].sym].name, many);
	else if ((in->op.kind == PO_ATOM || in->op.kind == PO_RED) && in->slot >= 0 &&
	         k->acc[in->slot].loop && k->acc[in->slot].count)
		snprintf(buf, n, "ptxas makes this %d-byte %s.%s%s a loop (a load, "
		         "then a compare-and-swap until every lane has succeeded) whose "
		         "trips depend on timing: bankc counts one trip, its load with the "
		         "loads and its compare-and-swap with the atomics, %s; other "
		         "warps' updates of the same words add trips bankc cannot bound, "
		         "and Nsight Compute counts every trip",
		         in->op.ty.bytes * in->op.vec,
		         in->op.kind == PO_ATOM ? "atom" : "red",
		         ptx_atom_names[in->op.atom_op], in->op.ty.kind == TY_F ? " (float)" : "",
		         trips_text(k->acc[in->slot].trips_hi, more, sizeof more));
	else if (in->op.kind == PO_LD || in->op.kind == PO_ST || in->op.kind == PO_ATOM ||
	         in->op.kind == PO_RED)
		snprintf(buf, n, "'%.*s'%s reaches another block's shared memory (an "
		         "address from mapa: a cluster's distributed shared memory), which "
		         "bankc does not model; not counted", in->ntext, in->text, many);
	else if (in->op.mods & M_ASYNC_SMEM)
		snprintf(buf, n, "'%.*s'%s %s; not counted, as the counters do not",
		         in->ntext, in->text, many, ptx_op_async_note(in->text,
		                                                      (size_t)in->ntext));
	else
		snprintf(buf, n, "'%.*s'%s reaches shared memory in a way bankc does "
		         "not model (outside the LSU wavefront counters, or not yet); not "
		         "counted", in->ntext, in->text, many);
}

/* An 8-bit ldmatrix or stmatrix form (sm_100a, sm_120a) that ran: costed
 * by the documented rule, which no measurement has confirmed for them. */
static bool assumed_noted(const PtxModule *m, const ScanKernel *k, int i)
{
	const PtxInst *in = &m->inst[i];
	return (in->op.kind == PO_LDMATRIX || in->op.kind == PO_STMATRIX) &&
	       in->op.mshape != MAT_M8N8 && in->slot >= 0 && k->acc[in->slot].count;
}

/* A branch bankc could not decide, that the text says something of: a
 * loop's test, or a branch whose sides touch shared memory. */
static bool fork_noted(const ScanKernel *k, int i)
{
	return k->fork_kind && (k->fork_kind[i] & (FORK_LOOP | FORK_SIDES));
}

/* notes[a .. b): branches of one position and kind */
static void fork_note(FILE *f, const PtxModule *m, const ScanKernel *k, const Note *notes,
                      int a, int b, const char *where, const ScanCtx *c)
{
	char why[1024];
	int i = notes[a].inst;
	int64_t times = 0;
	for (int j = a; j < b; j++)
		times += k->fork_threads[notes[j].inst];
	scan_why(m, k, k->fork_why[i], c, why, sizeof why);
	char *msg;
	if (k->fork_kind[i] & FORK_LOOP)
		msg = diag_format("bankc cannot tell how often this loop runs, as its "
		        "test depends on %s: it counted one trip each time a thread met the "
		        "test (%lld time%s)", why, (long long)times, times == 1 ? "" : "s");
	else
		msg = diag_format("bankc cannot decide this branch, which depends on %s: "
		        "it ran both sides (%lld time%s) and costs the shared accesses of each "
		        "as ones that may not run", why, (long long)times,
		        times == 1 ? "" : "s");
	(void)where;
	head(f, m, &m->inst[i], c, DK_NOTE, "undecided-branch", msg, NULL);
	fprintf(f, "%s\n", msg);
	free(msg);
}

static int note_cmp(const void *a, const void *b)
{
	const Note *x = a, *y = b;
	if (x->file != y->file) return x->file < y->file ? -1 : 1;
	if (x->line != y->line) return x->line < y->line ? -1 : 1;
	if (x->col != y->col) return x->col < y->col ? -1 : 1;
	if (x->kind != y->kind) return x->kind - y->kind;
	if (x->kind == 1) {
		const ScanKernel *k = x->k;
		bool lx = k->fork_kind[x->inst] & FORK_LOOP, ly = k->fork_kind[y->inst] & FORK_LOOP;
		return (int)lx - (int)ly;
	}
	const PtxInst *p = &x->m->inst[x->inst], *q = &y->m->inst[y->inst];
	int n = p->ntext < q->ntext ? p->ntext : q->ntext;
	int c = memcmp(p->text, q->text, (size_t)n);
	if (c || p->ntext != q->ntext)
		return c ? c : p->ntext - q->ntext;
	if (p->op.kind == PO_CALL && p->opd[0].sym != q->opd[0].sym)
		return p->opd[0].sym < q->opd[0].sym ? -1 : 1;
	return 0;
}

/* Where --max-steps stopped every path: the loop, the parameter that
 * bounds it and a value that fits (scan_bound.c). */
static void bound_note(FILE *err, const PtxModule *m, const ScanKernel *k, const ScanCtx *c)
{
	const ScanBound *b = &k->bound;
	if (b->branch < 0)
		return;
	const PtxInst *in = &m->inst[b->branch];
	char *msg;
	if (b->param < 0) {
		msg = diag_format("the loop here ran out of --max-steps; no --param bounds "
		                  "its tests: raise --max-steps");
	} else {
		const PtxFunc *fn = &m->func[k->kernel];
		const char *name = m->sym[fn->params[b->param]].name;
		char fits[256] = "";
		if (b->fitted && b->steps_needed)
			snprintf(fits, sizeof fits, ": --param %d=%llu fits in --max-steps %lld, and "
			         "%llu needs --max-steps %lld", b->param, (unsigned long long)b->fits,
			         (long long)c->ro->max_steps, (unsigned long long)b->value,
			         (long long)b->steps_needed);
		else if (b->fitted)
			snprintf(fits, sizeof fits, ": --param %d=%llu fits in --max-steps %lld",
			         b->param, (unsigned long long)b->fits, (long long)c->ro->max_steps);
		else
			snprintf(fits, sizeof fits, ": a smaller value, or a larger --max-steps, "
			         "lets it finish");
		msg = diag_format("the loop here runs as often as parameter %d (%s = %llu) "
		                  "says%s", b->param, name, (unsigned long long)b->value, fits);
	}
	head(err, m, in, c, DK_NOTE, "scan-stopped", msg, NULL);
	fprintf(err, "%s\n", msg);
	free(msg);
	show_source(err, m, in, c);
	show_inlined(err, m, in, c);
}

/* A loop that ran out of --max-steps, as JSON (ScanBound). */
static json_t *bound_json(const PtxModule *m, const ScanKernel *k, const ScanCtx *c)
{
	const ScanBound *b = &k->bound;
	char where[512];
	scan_where(m, &m->inst[b->branch], c, where, sizeof where);
	json_t *o = json_pack("{s:s,s:i}", "where", where, "ptx_line",
	                      m->inst[b->branch].pos.line);
	if (b->param >= 0) {
		json_object_set_new(o, "param", json_integer(b->param));
		json_object_set_new(o, "value", json_integer((json_int_t)b->value));
	}
	if (b->fitted)
		json_object_set_new(o, "fits", json_integer((json_int_t)b->fits));
	if (b->fitted && b->steps_needed)
		json_object_set_new(o, "max_steps_needed", json_integer(b->steps_needed));
	return o;
}

void scan_print_text(FILE *f, FILE *err, const PtxModule *m, const ScanKernel *k,
                     const ScanCtx *c)
{
	const PtxFunc *fn = &m->func[k->kernel];
	char sn[1024];
	ptx_kernel_name(fn->name, sn, sizeof sn);   /* with template arguments */
	for (int i = 0; i < k->nstops; i++) {
		const ScanStop *s = &k->stops[i];
		const PtxInst *in = &m->inst[s->inst];
		char where[512], msg[2048], th[64];
		scan_where(m, in, c, where, sizeof where);
		stop_message(m, k, s, c, msg, sizeof msg);
		thread_of(k, s->first_tid, th, sizeof th);
		head(err, m, in, c, DK_ERROR, "scan-stopped", msg, NULL);
		fprintf(err, "%s\n", msg);
		show_source(err, m, in, c);
		show_inlined(err, m, in, c);
		for (int j = 0; j < s->ncall; j++) {
			/* the calls of non-inlined functions (-G code, __noinline__) */
			char cw[512];
			scan_where(m, &m->inst[s->call[j]], c, cw, sizeof cw);
			diag_head(err, cw, DK_NOTE);
			fputs("in the function called here\n", err);
			show_inlined(err, m, &m->inst[s->call[j]], c);
		}
		diag_head(err, where, DK_NOTE);
		fprintf(err, "in kernel %s: %d thread%s stopped here, the first %s\n",
		        sn, s->threads, s->threads == 1 ? "" : "s", th);
	}
	if (k->cost_error) {
		/* a misaligned access is the kernel's bug, said above as such */
		bool misaligned = scan_safety_has(c->safety, k->cost_error_inst, SF_ALIGN);
		char *msg = misaligned ? diag_format("the scan of this kernel stops at its "
		                                     "misaligned access (above), which faults on "
		                                     "the GPU")
		            : diag_format("the bank model cannot cost this access: %s",
		                          k->cost_error);
		head(err, m, &m->inst[k->cost_error_inst], c, DK_ERROR, "scan-stopped",
		     msg, NULL);
		fprintf(err, "%s\n", msg);
		free(msg);
			show_source(err, m, &m->inst[k->cost_error_inst], c);
		show_inlined(err, m, &m->inst[k->cost_error_inst], c);
	}
	if (k->partial)
		bound_note(err, m, k, c);
	if (!k->complete) {
		fprintf(err, "bankc: error: kernel %s: no totals, as %s above\n", sn,
		        k->nstops + !!k->cost_error == 1 ? "the path stopped"
		        : "paths stopped");
		/* what ran until then, never as the kernel's (f NULL: in JSON) */
		if (!k->partial || !f)
			return;
		goto totals;
	}
	/* warnings in source order */
	Key *keys = xcalloc((size_t)m->nslots + 1, sizeof *keys);
	int nk = 0;
	for (int s = 0; s < m->nslots; s++) {
		const ScanAcc *a = &k->acc[s];
		if (!a->count && !a->rcount)
			continue;
		const PtxInst *in = &m->inst[a->inst];
		int file, line, col, rest;
		const char *path = scan_source_at(m, in, &file, &line, &col, &rest);
		keys[nk++] = (Key){s, path ? file : 1 << 30, path ? line : in->pos.line,
		                   path ? col : in->pos.col, path ? rest : -1,
		                   in->pos.line, m};
	}
	qsort(keys, (size_t)nk, sizeof *keys, key_cmp);
	const ScanAcc **g = xcalloc((size_t)nk + 1, sizeof *g);
	bool *done = xcalloc((size_t)nk + 1, sizeof *done);
	for (int i = 0; i < nk;) {
		int j = i;
		while (j < nk && pos_cmp(&keys[j], &keys[i]) == 0)
			j++;
		/* the position's instructions, split by kind, first come first */
		for (int a = i; a < j; a++) {
			if (done[a])
				continue;
			int n = 0;
			for (int b = a; b < j; b++)
				if (!done[b] && same_group(m, &k->acc[keys[a].slot],
				                           &k->acc[keys[b].slot])) {
					g[n++] = &k->acc[keys[b].slot];
					done[b] = true;
				}
			warn_group(err, m, g, n, &c->geom, c);
			warn_ranged(err, m, k, g, n, c);
			for (int b = 0; b < n; b++)
				warn_outside(err, m, g[b], c);
		}
		i = j;
	}
	free(done);
	free(g);
	free(keys);
	/* notes: one per source position and opcode, with how many of its
	 * instructions ran, in source order */
	int nn = 0;
	for (int i = 0; i < m->ninst; i++)
		nn += (k->noted && k->noted[i]) + fork_noted(k, i) +
		      assumed_noted(m, k, i);
	Note *notes = xcalloc((size_t)nn + 1, sizeof *notes);
	nn = 0;
	for (int i = 0; i < m->ninst; i++) {
		for (int kind = 0; kind < 3; kind++) {
			if (kind == 0 ? !(k->noted && k->noted[i]) : kind == 1
			    ? !fork_noted(k, i) : !assumed_noted(m, k, i))
				continue;
			const PtxInst *in = &m->inst[i];
			int file, line, col, rest;
			const char *path = scan_source_at(m, in, &file, &line, &col, &rest);
			notes[nn++] = (Note){i, path ? file : 1 << 30, path ? line : in->pos.line,
			                     path ? col : in->pos.col, m, kind, k};
		}
	}
	qsort(notes, (size_t)nn, sizeof *notes, note_cmp);
	for (int a = 0; a < nn;) {
		int b = a + 1;
		while (b < nn && note_cmp(&notes[a], &notes[b]) == 0)
			b++;
		const PtxInst *in = &m->inst[notes[a].inst];
		char where[512], many[64] = "";
		scan_where(m, in, c, where, sizeof where);
		if (b - a > 1)
			snprintf(many, sizeof many, " (%d instructions)", b - a);
		if (notes[a].kind == 1) {
			fork_note(err, m, k, notes, a, b, where, c);
		} else if (notes[a].kind == 2) {
			char *msg = diag_format("'%.*s'%s is costed by the documented rule, 8 "
			        "row addresses of 16 bytes a phase (16 an m16n16 matrix): "
			        "assumed, as no Blackwell GPU has measured the 8-bit matrix "
			        "forms yet", in->ntext, in->text, many);
			head(err, m, in, c, DK_NOTE, "assumed-cost", msg, NULL);
			fprintf(err, "%s\n", msg);
			free(msg);
		} else {
			char text[1024];
			note_text(m, k, in, many, text, sizeof text);
			head(err, m, in, c, DK_NOTE, "not-counted", text, NULL);
			fprintf(err, "%s\n", text);
		}
		a = b;
	}
	free(notes);
totals:;
	int64_t t[CAT_COUNT][4];
	totals(m, k, t);
	const char *what = k->complete ? "shared memory per block" : "shared memory of what "
	                   "ran before --max-steps stopped its paths (partial: not the kernel's "
	                   "totals)";
	if (strcmp(sn, fn->name) == 0)
		fprintf(f, "kernel %s, block %d,%d,%d: %s, as Nsight Compute counts it\n",
		        fn->name, k->block[0], k->block[1], k->block[2], what);
	else
		fprintf(f, "kernel %s (%s), block %d,%d,%d: %s, as Nsight Compute counts it\n",
		        sn, fn->name, k->block[0], k->block[1], k->block[2], what);
	char assumed[128];
	if (scan_assumed(m, assumed, sizeof assumed))
		fprintf(f, "  bank model: %s\n", assumed);
	static const char *const label[] = {"loads", "stores", "atomics", "reductions"};
	int64_t rt[CAT_COUNT][4];
	ranged_totals(m, k, rt);
	for (int ct = 0; ct < CAT_CPASYNC; ct++) {
		if (!t[ct][0] && !rt[ct][0] && ct >= CAT_ATOM)
			continue;
		fprintf(f, "  %-11s %lld wavefront%s, ideal %lld, excess %lld (%lld instruction%s)\n",
		        label[ct], (long long)t[ct][1], t[ct][1] == 1 ? "" : "s", (long long)t[ct][2],
		        (long long)(t[ct][1] - t[ct][2]), (long long)t[ct][0],
		        t[ct][0] == 1 ? "" : "s");
		if (rt[ct][0]) {
			char range[64];
			if (rt[ct][1] == rt[ct][2])
				snprintf(range, sizeof range, "%lld wavefront%s", (long long)rt[ct][1],
				         text_plural(rt[ct][1]));
			else
				snprintf(range, sizeof range, "%lld to %lld wavefronts",
				         (long long)rt[ct][1], (long long)rt[ct][2]);
			fprintf(f, "  %-11s and up to %lld data-dependent instruction%s: %s "
			        "more (ideal %lld)\n", "", (long long)rt[ct][0],
			        text_plural(rt[ct][0]), range, (long long)rt[ct][3]);
		}
	}
	if (t[CAT_CPASYNC][0])
		fprintf(f, "  cp.async    %lld instruction%s, 0 wavefronts counted (128-byte "
		        "segments %lld, ideal %lld)\n", (long long)t[CAT_CPASYNC][0],
		        t[CAT_CPASYNC][0] == 1 ? "" : "s",
		        (long long)t[CAT_CPASYNC][2], (long long)t[CAT_CPASYNC][3]);
}

/* ---- JSON ----------------------------------------------------------------------------- */

json_t *scan_kernel_json(const PtxModule *m, const ScanKernel *k, const ScanCtx *c)
{
	const PtxFunc *fn = &m->func[k->kernel];
	char sn[1024];
	ptx_kernel_name(fn->name, sn, sizeof sn);   /* with template arguments */
	json_t *o = json_object();
	json_object_set_new(o, "kernel", json_string(fn->name));
	json_object_set_new(o, "name", json_string(sn));
	json_object_set_new(o, "block", json_pack("[iii]", k->block[0], k->block[1], k->block[2]));
	json_object_set_new(o, "complete", json_boolean(k->complete));
	json_object_set_new(o, "interpreted", json_integer(k->steps));
	json_t *errs = json_array();
	for (int i = 0; i < k->nstops; i++) {
		char where[512], msg[2048];
		scan_where(m, &m->inst[k->stops[i].inst], c, where, sizeof where);
		stop_message(m, k, &k->stops[i], c, msg, sizeof msg);
		json_array_append_new(errs, json_pack("{s:s,s:s,s:i}", "where", where,
		                      "message", msg, "threads", k->stops[i].threads));
	}
	if (k->cost_error) {
		char where[512];
		scan_where(m, &m->inst[k->cost_error_inst], c, where, sizeof where);
		json_array_append_new(errs, json_pack("{s:s,s:s,s:i}", "where", where,
		                      "message", k->cost_error, "threads", 0));
	}
	json_object_set_new(o, "errors", errs);
	if (k->partial && k->bound.branch >= 0)
		json_object_set_new(o, "bound", bound_json(m, k, c));
	if (!k->complete && !k->partial)
		return o;
	int64_t t[CAT_COUNT][4];
	totals(m, k, t);
	json_t *tot = json_object();
	for (int ct = 0; ct < CAT_COUNT; ct++) {
		json_t *e = ct == CAT_CPASYNC
			? json_pack("{s:I,s:I,s:I,s:I}", "instructions", (json_int_t)t[ct][0],
			            "wavefronts", (json_int_t)t[ct][1], "segments",
			            (json_int_t)t[ct][2], "ideal_segments", (json_int_t)t[ct][3])
			: json_pack("{s:I,s:I,s:I,s:I}", "instructions", (json_int_t)t[ct][0],
			            "wavefronts", (json_int_t)t[ct][1], "ideal", (json_int_t)t[ct][2],
			            "excess", (json_int_t)(t[ct][1] - t[ct][2]));
		json_object_set_new(tot, cat_key[ct], e);
	}
	int64_t rt[CAT_COUNT][4];
	ranged_totals(m, k, rt);
	for (int ct = 0; ct < CAT_COUNT; ct++)
		if (rt[ct][0])
			json_object_set_new(json_object_get(tot, cat_key[ct]), "depends_on_data",
			                    json_pack("{s:I,s:I,s:I,s:I}", "instructions",
			                              (json_int_t)rt[ct][0], "counted_lo",
			                              (json_int_t)rt[ct][1], "counted_hi",
			                              (json_int_t)rt[ct][2], "ideal",
			                              (json_int_t)rt[ct][3]));
	/* what ran before --max-steps stopped every path: never as totals */
	json_object_set_new(o, k->complete ? "totals" : "partial_totals", tot);
	if (!k->complete)
		return o;
	json_t *acc = json_array();
	for (int s = 0; s < m->nslots; s++) {
		const ScanAcc *a = &k->acc[s];
		/* every instruction the totals count: the exact and the ranged */
		if (!a->count && !a->rcount)
			continue;
		const PtxInst *in = &m->inst[a->inst];
		char where[512], w[128], opn[32];
		scan_where(m, in, c, where, sizeof where);
		what(in, a->merged_from, w, sizeof w);
		tab_op_name(a->op, opn, sizeof opn);
		int bk[64], words, nb = worst_banks(a, &c->geom, bk, &words);
		json_t *banks = json_array();
		for (int i = 0; i < nb; i++)
			json_array_append_new(banks, json_integer(bk[i]));
		json_t *e = json_pack("{s:s,s:i,s:s,s:s,s:s,s:i,s:I,s:I,s:I,s:I,s:i,s:i,s:o,s:i}",
			"where", where, "ptx_line", in->pos.line, "access", w, "counter",
			cat_key[cat_of(in)], "model_op", opn, "bytes", a->bytes,
			"instructions", (json_int_t)a->count, "wavefronts", (json_int_t)a->wave,
			"counted", (json_int_t)a->counted, "ideal", (json_int_t)a->ideal,
			"min", a->min_wave, "max", a->max_wave, "worst_banks", banks,
			"worst_words", words);
		if (a->loop)
			/* one trip of ptxas's compare-and-swap loop: its load */
			json_object_set_new(e, "loop_load", json_pack("{s:I,s:I,s:I,s:I,s:I,s:I}",
			                    "instructions", (json_int_t)a->count, "counted",
			                    (json_int_t)a->loop_counted, "ideal",
			                    (json_int_t)a->loop_ideal, "more_trips_hi",
			                    (json_int_t)a->trips_hi, "more_counted_hi",
			                    (json_int_t)a->trips_load_hi, "more_atomic_counted_hi",
			                    (json_int_t)a->trips_atom_hi));
		if (a->outside)
			json_object_set_new(e, "outside", json_pack("{s:I,s:I,s:i,s:i}",
			                    "instructions", (json_int_t)a->outside, "first_address",
			                    (json_int_t)a->outside_addr, "warp", a->outside_warp,
			                    "lane", a->outside_lane));
		if (a->worst_excess > 0) {
			/* the worst warp instruction, lane by lane (null: inactive) */
			json_t *wa = json_array();
			for (int l = 0; l < WARP; l++)
				json_array_append_new(wa, a->worst_mask >> l & 1
				                      ? json_integer(a->worst_addr[l]) : json_null());
			json_object_set_new(e, "worst_addresses", wa);
		}
		if (a->rcount) {
			char because[1024];
			scan_why(m, k, a->rwhy, c, because, sizeof because);
			json_object_set_new(e, "depends_on_data", json_pack(
				"{s:b,s:I,s:I,s:i,s:i,s:I,s:I,s:I,s:I,s:I,s:s}",
				"address_unknown", a->runknown, "instructions", (json_int_t)a->rcount,
				"surely_run", (json_int_t)a->rsure, "min", a->rmin, "max", a->rmax,
				"wavefronts_lo", (json_int_t)a->rlo, "wavefronts_hi", (json_int_t)a->rhi,
				"counted_lo", (json_int_t)a->rlo_counted, "counted_hi",
				(json_int_t)a->rhi_counted, "ideal", (json_int_t)a->rideal,
				"because", because));
		}
		json_array_append_new(acc, e);
	}
	json_object_set_new(o, "accesses", acc);
	/* what is not counted, or counted as one trip or as a range: the
	 * totals are then not the counters' exact values */
	bool exact = !k->ranged;
	json_t *nc = json_array(), *br = json_array();
	for (int i = 0; i < m->ninst; i++) {
		const PtxInst *in = &m->inst[i];
		char where[512], text[1024], why[1024];
		if (k->noted && k->noted[i]) {
			scan_where(m, in, c, where, sizeof where);
			note_text(m, k, in, "", text, sizeof text);
			bool call = in->op.kind == PO_CALL;
			/* shared memory the LSU counters do not see, as bankc knows it
			 * (tcgen05's), leaves the totals exact */
			bool outside = (in->op.mods & M_ASYNC_SMEM) != 0;
			exact = exact && (call || outside);
			json_array_append_new(nc, json_pack("{s:s,s:i,s:s,s:s}", "where", where,
			                      "ptx_line", in->pos.line, "kind", call ? "call"
			                      : outside ? "outside_lsu"
			                      : in->slot >= 0 && k->acc[in->slot].loop ? "one_trip"
			                      : "not_counted", "message", text));
		}
		if (fork_noted(k, i)) {
			bool loop = k->fork_kind[i] & FORK_LOOP;
			exact = exact && !loop;
			scan_where(m, in, c, where, sizeof where);
			scan_why(m, k, k->fork_why[i], c, why, sizeof why);
			json_array_append_new(br, json_pack("{s:s,s:i,s:s,s:i,s:s}", "where", where,
			                      "ptx_line", in->pos.line, "kind", loop ? "loop_one_trip"
			                      : "both_sides", "times", k->fork_threads[i],
			                      "depends_on", why));
		}
	}
	json_object_set_new(o, "not_counted", nc);
	json_object_set_new(o, "undecided_branches", br);
	json_object_set_new(o, "complete", json_boolean(exact));
	char assumed[128];
	if (scan_assumed(m, assumed, sizeof assumed))
		json_object_set_new(o, "bank_model", json_string(assumed));
	return o;
}
