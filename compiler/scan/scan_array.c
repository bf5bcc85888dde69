/* The shared arrays a kernel's accesses touch, in the source's terms: the
 * name the source gives each (tile of _ZZ15transpose_naivePKfPfE4tile),
 * its declaration where the source can be read (`__shared__ float
 * tile[TILE][TILE];`, its dimensions evaluated through the file's
 * #defines), its element type from the instructions, and its accesses
 * grouped by source statement.  Warnings name the array, and the fix
 * (scan_fix.c) is said as a change of this declaration. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "scan/scan.h"
#include "scan/scan_ctext.h"
#include "scan/scan_source.h"

void scan_array_name(const char *s, char *buf, size_t n)
{
	const char *p = strrchr(s, 'E');
	if (strncmp(s, "_ZZ", 3) == 0 && p && p[1] >= '1' && p[1] <= '9') {
		long len = strtol(p + 1, (char **)&p, 10);
		if (len > 0 && (size_t)len <= strlen(p)) {
			snprintf(buf, n, "%.*s", (int)len, p);
			return;
		}
	}
	snprintf(buf, n, "%s", s);
}

static bool lane_in(const ScanAcc *a, int64_t j, int l, int64_t lo, int64_t hi)
{
	return (a->masks[j] >> l & 1) && a->addrs[j * WARP + l] >= lo &&
	       a->addrs[j * WARP + l] < hi;
}

/* The element type of the narrowest accesses: the PTX type's kind. */
static Dtype dtype_of(const PtxModule *m, const ScanArray *a, const ScanKernel *k)
{
	bool fl = false, sg = false;
	for (int i = 0; i < a->nslot; i++) {
		const ScanAcc *x = &k->acc[a->slot[i]];
		const Ty *t = &m->inst[x->inst].op.ty;
		if (t->bytes != a->elem && x->bytes != a->elem)
			continue;
		fl |= t->kind == TY_F;
		sg |= t->kind == TY_S;
	}
	switch (a->elem) {
	case 1: return sg ? DT_I8 : DT_U8;
	case 2: return fl ? DT_F16 : sg ? DT_I16 : DT_U16;
	case 4: return fl ? DT_F32 : sg ? DT_I32 : DT_U32;
	default: return fl ? DT_F64 : sg ? DT_I64 : DT_U64;
	}
}

typedef struct {
	int slot;
	int file, line, col, ptxline;
} SlotKey;

static int slot_cmp(const void *x, const void *y)
{
	const SlotKey *a = x, *b = y;
	if (a->file != b->file) return a->file < b->file ? -1 : 1;
	if (a->line != b->line) return a->line < b->line ? -1 : 1;
	if (a->col != b->col) return a->col < b->col ? -1 : 1;
	return (a->ptxline > b->ptxline) - (a->ptxline < b->ptxline);
}

/* Statements: slots of one source position, operation and width.  Each
 * slot's position is made once, the slots sorted by what makes them one
 * statement, and the statements taken in the order of their first slot:
 * linear but for the sort. */
typedef struct {
	const char *where;
	const ScanAcc *acc;
	int i;                  /* its index in the array's slots */
	int group;              /* its statement's first slot */
} StmtKey;

static int stmt_key_cmp(const void *pa, const void *pb)
{
	const StmtKey *a = pa, *b = pb;
	int c = strcmp(a->where, b->where);
	if (c)
		return c;
	const ScanAcc *x = a->acc, *y = b->acc;
	if (x->op.kind != y->op.kind) return x->op.kind < y->op.kind ? -1 : 1;
	if (x->bytes != y->bytes) return x->bytes < y->bytes ? -1 : 1;
	if (x->loop != y->loop) return x->loop ? 1 : -1;
	if (x->op.nmat != y->op.nmat) return x->op.nmat < y->op.nmat ? -1 : 1;
	if (x->op.shape != y->op.shape) return x->op.shape < y->op.shape ? -1 : 1;
	if (x->op.trans != y->op.trans) return x->op.trans ? 1 : -1;
	return (a->i > b->i) - (a->i < b->i);
}

static int stmt_group_cmp(const void *pa, const void *pb)
{
	const StmtKey *a = pa, *b = pb;
	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

static void group_stmts(const PtxModule *m, const ScanKernel *k, const ScanCtx *c,
                        ScanArray *a)
{
	int n = a->nslot;
	a->stmt = xcalloc((size_t)n + 1, sizeof *a->stmt);
	char (*wh)[512] = xmalloc(((size_t)n + 1) * sizeof *wh);
	StmtKey *key = xmalloc(((size_t)n + 1) * sizeof *key);
	for (int i = 0; i < n; i++) {
		const ScanAcc *x = &k->acc[a->slot[i]];
		scan_where(m, &m->inst[x->inst], c, wh[i], sizeof wh[i]);
		key[i] = (StmtKey){wh[i], x, i, i};
	}
	qsort(key, (size_t)n, sizeof *key, stmt_key_cmp);
	for (int i = 1; i < n; i++) {
		const StmtKey *p = &key[i - 1], *q = &key[i];
		StmtKey t = *q;
		t.i = p->i;     /* the same statement if only the index differs */
		if (stmt_key_cmp(p, &t) == 0)
			key[i].group = p->group;
		else
			key[i].group = q->i;
	}
	/* a run's first is its least index: sorted by index within a run */
	qsort(key, (size_t)n, sizeof *key, stmt_group_cmp);
	int *order = xmalloc(((size_t)n + 1) * sizeof *order);
	for (int i = 0; i < n;) {
		ScanStmt *st = &a->stmt[a->nstmt++];
		const ScanAcc *x = key[i].acc;
		snprintf(st->where, sizeof st->where, "%s", key[i].where);
		st->first = i;
		tab_op_name(x->op, st->op, sizeof st->op);
		int g = key[i].group;
		for (; i < n && key[i].group == g; i++) {
			const ScanAcc *y = key[i].acc;
			order[i] = a->slot[key[i].i];
			st->wave += y->wave + (y->loop ? y->loop_wave : 0);
			st->ideal += y->ideal + (y->loop ? y->loop_ideal : 0);
			st->count += y->count;
		}
		st->n = i - st->first;
	}
	memcpy(a->slot, order, (size_t)n * sizeof *order);
	free(order);
	free(key);
	free(wh);
}

/* Which slots touch each array, their sums, and whether they stay in it:
 * one pass over the recorded lanes, each lane's array found by a binary
 * search of the arrays' ranges, so that the work does not grow with
 * arrays times instructions. */
typedef struct { int64_t lo, hi; int a; } ARange;

static int arange_cmp(const void *x, const void *y)
{
	const ARange *p = x, *q = y;
	return (p->lo > q->lo) - (p->lo < q->lo);
}

static void array_slots(const PtxModule *m, const ScanKernel *k, ScanArray *as, int na)
{
	ARange *r = xmalloc(((size_t)na + 1) * sizeof *r);
	for (int i = 0; i < na; i++) {
		r[i] = (ARange){as[i].base, as[i].base + as[i].bytes, i};
		as[i].whole = true;
		as[i].elem = 8;
	}
	qsort(r, (size_t)na, sizeof *r, arange_cmp);
	SlotKey **keys = xcalloc((size_t)na + 1, sizeof *keys);
	int *cap = xcalloc((size_t)na + 1, sizeof *cap);
	int *touched = xmalloc(((size_t)na + 1) * sizeof *touched);
	bool *in = xcalloc((size_t)na + 1, sizeof *in);
	for (int s = 0; s < m->nslots; s++) {
		const ScanAcc *x = &k->acc[s];
		int nt = 0;
		bool outside = false;
		for (int64_t j = 0; j < x->nkept; j++)
			for (int l = 0; l < WARP; l++) {
				if (!(x->masks[j] >> l & 1))
					continue;
				int64_t ad = x->addrs[j * WARP + l];
				int lo = 0, hi = na;
				while (lo < hi) {
					int mid = (lo + hi) / 2;
					if (r[mid].lo <= ad)
						lo = mid + 1;
					else
						hi = mid;
				}
				if (lo == 0 || ad >= r[lo - 1].hi) {
					outside = true;
					continue;
				}
				ScanArray *a = &as[r[lo - 1].a];
				int ai = r[lo - 1].a;
				if (!in[ai]) {
					in[ai] = true;
					touched[nt++] = ai;
				}
				int64_t o = ad - a->base;
				int w = x->bytes < 8 ? x->bytes : x->bytes == 8 ? 8 : 4;
				if (w < a->elem)
					a->elem = w;
				while (o % a->elem)
					a->elem /= 2;
			}
		const PtxInst *pi = &m->inst[x->inst];
		for (int t = 0; t < nt; t++) {
			ScanArray *a = &as[touched[t]];
			in[touched[t]] = false;
			a->partial |= x->kept != x->count;
			a->vector |= x->merged_from > 1;
			a->whole &= !outside && nt == 1 && x->kept == x->count && !x->outside;
			int ai = touched[t];
			if (a->nslot == cap[ai])
				keys[ai] = xrealloc(keys[ai], (size_t)(cap[ai] = cap[ai] ? 2 * cap[ai] : 8) *
				                    sizeof *keys[ai]);
			keys[ai][a->nslot++] = (SlotKey){s, pi->line > 0 ? pi->file : 1 << 30, pi->line,
			                                 pi->col, pi->pos.line};
			/* a compare-and-swap loop's trip: its load too, as the fix
			 * counts it */
			a->wave += x->wave + (x->loop ? x->loop_wave : 0);
			a->ideal += x->ideal + (x->loop ? x->loop_ideal : 0);
		}
	}
	for (int i = 0; i < na; i++) {
		ScanArray *a = &as[i];
		if (a->nslot)   /* none: keys[i] is NULL, which qsort may not take */
			qsort(keys[i], (size_t)a->nslot, sizeof *keys[i], slot_cmp);
		a->slot = xmalloc(((size_t)a->nslot + 1) * sizeof *a->slot);
		for (int q = 0; q < a->nslot; q++)
			a->slot[q] = keys[i][q].slot;
		free(keys[i]);
	}
	free(keys);
	free(cap);
	free(touched);
	free(in);
	free(r);
}

/* The spec's element type for a declared one (f16 for __half). */
static bool decl_dtype(const char *type, int bytes, Dtype *dt)
{
	static const struct { const char *name; Dtype dt; } ty[] = {
		{"float", DT_F32}, {"double", DT_F64}, {"half", DT_F16}, {"__half", DT_F16},
		{"__nv_bfloat16", DT_BF16}, {"nv_bfloat16", DT_BF16}, {"int", DT_I32},
		{"int32_t", DT_I32}, {"unsigned", DT_U32}, {"unsigned int", DT_U32},
		{"uint32_t", DT_U32}, {"short", DT_I16}, {"int16_t", DT_I16},
		{"unsigned short", DT_U16}, {"uint16_t", DT_U16}, {"char", DT_I8},
		{"signed char", DT_I8}, {"int8_t", DT_I8}, {"unsigned char", DT_U8},
		{"uint8_t", DT_U8}, {"long long", DT_I64}, {"int64_t", DT_I64},
		{"unsigned long long", DT_U64}, {"uint64_t", DT_U64},
		{"__nv_fp8_e4m3", DT_FP8E4M3}, {"__nv_fp8_e5m2", DT_FP8E5M2},
	};
	while (strncmp(type, "const ", 6) == 0 || strncmp(type, "volatile ", 9) == 0)
		type = strchr(type, ' ') + 1;
	for (size_t i = 0; i < sizeof ty / sizeof *ty; i++)
		if (strcmp(type, ty[i].name) == 0 && tab_dtype[ty[i].dt].bytes == bytes) {
			*dt = ty[i].dt;
			return true;
		}
	return false;
}

/* The unit the spec counts in, and the view it takes of the array: the
 * declared element where every access reads whole ones (a half2 load of
 * a __half array is a vector of two), else the narrowest access (a
 * float4 array's .x: 4-byte units, four to an element); the
 * declaration's rows (its last dimension; the others one after
 * another), or rows of 128 bytes. */
static void array_view(const PtxModule *m, const ScanKernel *k, ScanArray *a)
{
	const ScanDecl *d = &a->decl;
	int E = d->found ? d->type_bytes : 0;
	/* the declared element, where accesses keep it whole (<= 8 bytes:
	 * the spec's widest type) */
	bool whole = E > 0 && E <= 8 && (E & (E - 1)) == 0;
	for (int s = 0; s < a->nslot && whole; s++) {
		const ScanAcc *x = &k->acc[a->slot[s]];
		whole = x->bytes % E == 0;
		for (int64_t j = 0; j < x->nkept && whole; j++)
			for (int l = 0; l < WARP; l++)
				if (lane_in(x, j, l, a->base, a->base + a->bytes) &&
				    (x->addrs[j * WARP + l] - a->base) % E)
					whole = false;
	}
	if (whole)
		a->elem = E;
	a->k = E > 0 && E % a->elem == 0 ? E / a->elem : 0;
	a->dtype = dtype_of(m, a, k);
	if (whole)
		decl_dtype(d->type, E, &a->dtype);
	/* the widest access, in declared elements (vectors ptxas made too) */
	a->vec = 1;
	for (int s = 0; s < a->nslot && E > 0; s++) {
		int b = k->acc[a->slot[s]].bytes;
		if (op_is_matrix(k->acc[a->slot[s]].op))
			b = 16;
		if (b / E > a->vec)
			a->vec = b / E;
	}
	int64_t elems = (a->bytes + a->elem - 1) / a->elem;
	if (d->found && d->ndims >= 2 && a->k >= 1) {
		int64_t rows = 1;
		for (int i = 0; i + 1 < d->ndims && rows > 0; i++)
			rows = d->dimv[i] > 0 && rows <= MAX_DIM ? rows * d->dimv[i] : -1;
		int64_t cols = d->dimv[d->ndims - 1] > 0 ? d->dimv[d->ndims - 1] * a->k : -1;
		if (rows > 0 && cols > 0 && rows * cols == elems && rows <= MAX_DIM && cols <= MAX_DIM) {
			a->rows = (int)rows;
			a->cols = (int)cols;
			a->view_decl = true;
			return;
		}
	}
	a->cols = 128 / a->elem;
	a->flat = d->found && d->ndims == 1 && a->k == 1 && (d->dimv[0] == elems || d->is_extern);
	int64_t rows = (elems + a->cols - 1) / a->cols;
	a->rows = rows > MAX_DIM ? MAX_DIM + 1 : (int)rows;
}

/* ---- the declaration, and what reaches the array -------------------------------- */

/* The source line of instruction i as the user's file names it: "" for
 * none (a PTX position). */
static bool inst_line(const PtxModule *m, const ScanCtx *c, int i, char *path, size_t n,
                      int *line)
{
	const char *p = scan_source_pos(m, &m->inst[i], c, line);
	if (!p || (c->input && strcmp(p, c->input) == 0))
		return false;
	snprintf(path, n, "%s", p);
	return true;
}

/* The files of a kernel's own code, with the lines of its instructions:
 * found once per kernel (every array's declaration is looked for in
 * them, and in the files of its own accesses). */
enum { MAX_PATHS = 16, MAX_LINES = 256 };
typedef struct {
	char path[MAX_PATHS][1024];
	int np;
} KernelFiles;

static int add_path(KernelFiles *kf, const char *pa)
{
	for (int f = 0; f < kf->np; f++)
		if (strcmp(kf->path[f], pa) == 0)
			return f;
	if (kf->np == MAX_PATHS)
		return -1;
	snprintf(kf->path[kf->np], sizeof kf->path[0], "%s", pa);
	return kf->np++;
}

static void kernel_files(const PtxModule *m, const ScanKernel *k, const ScanCtx *c,
                         KernelFiles *kf)
{
	kf->np = 0;
	const PtxFunc *f = &m->func[k->kernel];
	int last = -1;
	for (int i = f->first; i < f->first + f->ninst; i++) {
		char pa[1024];
		int line;
		/* consecutive instructions of one file: one look */
		if (m->inst[i].file == last || !inst_line(m, c, i, pa, sizeof pa, &line))
			continue;
		last = m->inst[i].file;
		add_path(kf, pa);
	}
}

/* The declaration from the array's symbol: looked for in the files of
 * its accesses and of its kernel's own code. */
static void find_decl(const PtxModule *m, const ScanKernel *k, const ScanCtx *c,
                      const KernelFiles *kern, ScanArray *a)
{
	ScanDecl *d = &a->decl;
	const PtxSym *y = &m->sym[a->sym];
	KernelFiles kf = {0};
	const char *pp[MAX_PATHS];
	int lines[MAX_LINES], lfile[MAX_LINES], nl = 0;
	/* each slot's instruction's file first, then the kernel's */
	for (int q = 0; q < a->nslot; q++) {
		char pa[1024];
		int line;
		if (!inst_line(m, c, k->acc[a->slot[q]].inst, pa, sizeof pa, &line))
			continue;
		int f = add_path(&kf, pa);
		if (f >= 0 && nl < MAX_LINES)
			lines[nl] = line, lfile[nl++] = f;
	}
	for (int f = 0; f < kern->np; f++)
		add_path(&kf, kern->path[f]);
	for (int f = 0; f < kf.np; f++)
		pp[f] = kf.path[f];
	int np = kf.np;
	CDecl *src = xcalloc(1, sizeof *src);
	if (!cdecl_find(y->name, a->name, y->size, pp, np, lines, lfile, nl, src, d->why,
	                sizeof d->why)) {
		free(src);
		return;
	}
	const CText *t = src->t;
	d->found = true;
	d->src = src;
	snprintf(d->path, sizeof d->path, "%s", t->path);
	const CTok *nt = &t->tok[src->name_tok];
	d->line = nt->line;
	/* the column, and the line's text */
	size_t ls = nt->off;
	while (ls > 0 && t->text[ls - 1] != '\n')
		ls--;
	d->col = (int)(nt->off - ls) + 1;
	size_t le = nt->off;
	while (le < t->len && t->text[le] != '\n' && t->text[le] != '\r')
		le++;
	snprintf(d->text, sizeof d->text, "%.*s", (int)(le - ls), t->text + ls);
	ctext_span(t, src->type_a, src->type_b, d->type, sizeof d->type);
	d->type_bytes = (int)src->elem;
	d->ndims = src->ndims;
	for (int i = 0; i < src->ndims; i++) {
		ctext_span(t, src->dims[i][0], src->dims[i][1], d->dim[i], sizeof d->dim[i]);
		d->dimv[i] = src->dimv[i];
	}
	d->is_extern = src->is_extern;
	d->in_template = src->in_template;
}

/* Is instruction j's result the value of register r unchanged (a move, a
 * conversion to a shared address)? Its source register, or -1. */
static int passes(const PtxInst *in, int r)
{
	if (in->nopd < 2 || in->opd[0].kind != OPD_REG || in->opd[0].reg != r)
		return -2;      /* does not write r */
	PtxOpKind k = in->op.kind;
	if ((k == PO_MOV || k == PO_CVTA || k == PO_CVT) && in->opd[1].kind == OPD_REG)
		return in->opd[1].reg;
	return -1;
}

/* Does the address of access instruction i come, unchanged, from the
 * computation of an indexing of the array's name (`&t[r][c]` whose value
 * an asm statement or a helper passes on)?  Its occurrence, or NULL. */
static COcc *traced(const PtxModule *m, const ScanCtx *c, CDecl *src, int i)
{
	const PtxInst *in = &m->inst[i];
	int r = -1;
	for (int o = 0; o < in->nopd; o++)
		if (in->opd[o].kind == OPD_MEM) {
			if (in->opd[o].imm || in->opd[o].sym >= 0)
				return NULL;    /* an offset the indexing does not make */
			r = in->opd[o].reg;
			break;
		}
	const PtxFunc *f = &m->func[in->func];
	for (int hop = 0; r >= 0 && hop < 16; hop++) {
		int j = i - 1;
		for (; j >= f->first; j--) {
			int p = passes(&m->inst[j], r);
			if (p != -2)
				break;
		}
		if (j < f->first)
			return NULL;
		char pa[1024];
		int line;
		if (inst_line(m, c, j, pa, sizeof pa, &line)) {
			COcc *o = cdecl_occ_at(src, pa, line);
			if (o && o->kind != OCC_ELEM)
				return o;
		}
		r = passes(&m->inst[j], r);
		i = j;
	}
	return NULL;
}

/* Every access of the array explained by an indexing of its name that a
 * fix would rewrite; else a->reach says which is not. */
static void check_reach(const PtxModule *m, const ScanKernel *k, const ScanCtx *c,
                        ScanArray *a)
{
	CDecl *src = a->decl.src;
	if (!src)
		return;
	/* an array of the file's scope that another kernel uses too: a fix
	 * made for this kernel's accesses would change that one's (an extern
	 * array is each launch's own) */
	const PtxSym *y = &m->sym[a->sym];
	for (int f = 0; f < m->nfunc && y->func < 0 && y->size >= 0; f++)
		if (f != k->kernel && m->func[f].entry && m->func[f].defined &&
		    ptx_names_sym(m, f, a->sym)) {
			char other[256];
			ptx_kernel_name(m->func[f].name, other, sizeof other);
			text_put(a->reach, sizeof a->reach, "'%s' is an array of the file's scope that "
			         "kernel %s uses too: a fix made for this kernel's accesses would "
			         "change that one's", a->name, other);
			return;
		}
	for (int s = 0; s < a->nslot; s++) {
		int i = k->acc[a->slot[s]].inst;
		char pa[1024];
		int line;
		COcc *o = NULL;
		if (inst_line(m, c, i, pa, sizeof pa, &line))
			o = cdecl_occ_at(src, pa, line);
		if (!o)
			o = traced(m, c, src, i);
		if (o) {
			o->seen = true;
			continue;
		}
		char where[200];
		scan_where(m, &m->inst[i], c, where, sizeof where);
		snprintf(a->reach, sizeof a->reach, "the access at %.200s reaches it through an address "
		         "that no indexing of '%.127s' makes (a pointer, a cast, another name)", where,
		         a->name);
		return;
	}
	/* an element's address passed to a function that the scan did not
	 * see use it: what the function does with it is unknown */
	for (int i = 0; i < src->nocc && !a->reach[0]; i++)
		if (src->occ[i].kind == OCC_ADDR_CALL && !src->occ[i].seen)
			snprintf(a->reach, sizeof a->reach, "%s:%d passes the address of an element "
			         "of '%s' to a function whose use of it the scan did not see",
			         src->t->path, src->occ[i].line, a->name);
}

/* The source lines of the instructions that may touch shared memory
 * (those with a slot, on any path) in the kernel and the functions it may
 * call (not other kernels: a file of many kernels stays linear), sorted
 * by file and line: made once per kernel scanned, when an array first
 * needs them. */
typedef struct {
	const char *path;
	int line;
} SlotLine;

typedef struct {
	SlotLine *v;
	int n;
	bool made;
} SlotLines;

static int slot_line_cmp(const void *x, const void *y)
{
	const SlotLine *a = x, *b = y;
	int d = strcmp(a->path, b->path);
	return d ? d : (a->line > b->line) - (a->line < b->line);
}

static void slot_lines(const PtxModule *m, const ScanKernel *k, const ScanCtx *c,
                       SlotLines *sl)
{
	sl->made = true;
	sl->v = xmalloc(((size_t)m->nslots + 1) * sizeof *sl->v);
	int last = -1;
	const char *shown = NULL;
	for (int i = 0; i < m->ninst && sl->n < m->nslots; i++) {
		const PtxInst *in = &m->inst[i];
		if (in->func >= 0 && in->func != k->kernel && m->func[in->func].entry) {
			i = m->func[in->func].first + m->func[in->func].ninst - 1;  /* its end */
			continue;
		}
		int file, line, col, rest;
		const char *p = in->slot >= 0 ? scan_source_at(m, in, &file, &line, &col, &rest) : NULL;
		if (!p)
			continue;
		if (file != last)       /* one file's instructions in a row: one look */
			shown = scan_display_path(p, c), last = file;
		sl->v[sl->n++] = (SlotLine){shown, line};
	}
	if (sl->n > 1)
		qsort(sl->v, (size_t)sl->n, sizeof *sl->v, slot_line_cmp);
}

/* Whether an instruction with a slot lies at path's lines l0..l1. */
static bool slot_line_in(const SlotLines *sl, const char *path, int l0, int l1)
{
	int lo = 0, hi = sl->n;         /* the first at (path, l0) or after */
	SlotLine key = {path, l0};
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (slot_line_cmp(&sl->v[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < sl->n && strcmp(sl->v[lo].path, path) == 0 && sl->v[lo].line <= l1;
}

/* A use of the array (an element read or written) where the compiler
 * made no shared-memory access at all, on any path: it kept the value in
 * a register (attention's S, stored at one line and read back at the
 * next two).  The use stays a register as long as the compiler can tell
 * the elements apart; a rewritten index may hide that, and the loads it
 * then issues are outside what the proof costed. */
static void check_kept(const PtxModule *m, const ScanKernel *k, const ScanCtx *c, ScanArray *a,
                       SlotLines *sl)
{
	CDecl *src = a->decl.src;
	if (!src)
		return;
	for (int i = 0; i < src->nocc && !a->kept[0]; i++) {
		const COcc *o = &src->occ[i];
		if (o->kind != OCC_ELEM || o->seen)
			continue;
		if (!sl->made)
			slot_lines(m, k, c, sl);
		if (!slot_line_in(sl, src->t->path, o->line0, o->line1))
			snprintf(a->kept, sizeof a->kept, "%s:%d: the compiler made no shared-memory "
			         "access of its use there (it keeps the value in a register); with "
			         "the index rewritten it may load it, which the proof does not cover",
			         src->t->path, o->line);
	}
}

/* A vector ptxas makes of scalar accesses of more than one indexing: its
 * members (the leader's base register at the next offsets, in its
 * function) at another source position (.loc's line and column).  A
 * rewritten index keeps a vector only where the members are one
 * subscript's unrolled copies, which share the position. */
static void check_split(const PtxModule *m, const ScanKernel *k, const ScanCtx *c,
                        ScanArray *a)
{
	int E = a->decl.found && a->decl.type_bytes > 0 ? a->decl.type_bytes : a->elem;
	for (int s = 0; s < a->nslot && !a->split[0]; s++) {
		const ScanAcc *x = &k->acc[a->slot[s]];
		const PtxInst *lead = &m->inst[x->inst];
		/* a vector in the PTX of several elements that the source indexes
		 * one by one (no cast to a vector type at its line): the compiler
		 * made it of several indexings, which a rewrite would split */
		if (lead->op.vec > 1 && x->bytes > E && !op_is_matrix(x->op) && a->decl.src &&
		    x->op.kind != OP_CPASYNC) {
			char pa[1024];
			int line;
			COcc *o = inst_line(m, c, x->inst, pa, sizeof pa, &line)
			          ? cdecl_occ_at(a->decl.src, pa, line) : NULL;
			if (o && o->kind == OCC_ELEM) {
				char where[200];
				scan_where(m, lead, c, where, sizeof where);
				text_put(a->split, sizeof a->split, "the compiler made the access at %s "
				         "a vector of %d bytes of elements indexed one by one, which the "
				         "indices rewritten would split", where, x->bytes);
				break;
			}
		}
		if (x->merged_from < 2)
			continue;
		/* one flat subscript's unrolled copies: rewritten, each copy's
		 * index is a function of the whole sum (tx * D + x), in which the
		 * compiler no longer sees the copies adjacent (attention's rows
		 * of Q and K: the vectors split, 2.6 times the instructions) */
		if (a->flat) {
			char where[200];
			scan_where(m, lead, c, where, sizeof where);
			text_put(a->split, sizeof a->split, "ptxas merges the unrolled copies of its "
			         "access at %s into one %d-byte vector; its one flat index rewritten "
			         "hides their adjacency, and the vector would split", where, x->bytes);
			break;
		}
		int base = -1;
		int64_t off = 0;
		for (int o = 0; o < lead->nopd; o++)
			if (lead->opd[o].kind == OPD_MEM)
				base = lead->opd[o].reg, off = lead->opd[o].imm;
		if (base < 0)
			continue;
		int w = x->bytes / x->merged_from;
		const PtxFunc *f = &m->func[lead->func];
		bool other = false;
		for (int i = f->first; i < f->first + f->ninst && !other; i++) {
			const PtxInst *in = &m->inst[i];
			if (i == x->inst || in->slot < 0 || in->op.kind != lead->op.kind)
				continue;
			for (int o = 0; o < in->nopd; o++)
				if (in->opd[o].kind == OPD_MEM && in->opd[o].reg == base &&
				    in->opd[o].imm > off && (in->opd[o].imm - off) % w == 0 &&
				    (in->opd[o].imm - off) / w < x->merged_from)
					other |= in->file != lead->file || in->line != lead->line ||
					         in->col != lead->col;
		}
		if (other) {
			char where[200];
			scan_where(m, lead, c, where, sizeof where);
			text_put(a->split, sizeof a->split, "ptxas merges its access at %s and another "
			         "indexing into one %d-byte vector, which the indices rewritten would "
			         "split", where, x->bytes);
		}
	}
}

void scan_arrays_find(const PtxModule *m, const ScanKernel *k, const ScanCtx *c,
                      ScanArrays *out)
{
	memset(out, 0, sizeof *out);
	out->k = k;
	out->a = xcalloc((size_t)m->nsym + 1, sizeof *out->a);
	char kn[256];
	ptx_short_name(m->func[k->kernel].name, kn, sizeof kn);
	/* extern arrays all alias one base: the one the kernel names stands
	 * for all (another's name would be another kernel's) */
	int ext = -1;
	for (int i = 0; i < m->nsym; i++) {
		const PtxSym *y = &m->sym[i];
		if (y->kind == SYM_SHARED && y->size < 0 && (y->func < 0 || y->func == k->kernel) &&
		    (ext < 0 || ptx_names_sym(m, k->kernel, i)) && !(ext >= 0 &&
		    ptx_names_sym(m, k->kernel, ext)))
			ext = i;
	}
	int na = 0;
	for (int i = 0; i < m->nsym; i++) {
		const PtxSym *y = &m->sym[i];
		if (y->kind != SYM_SHARED || (y->func >= 0 && y->func != k->kernel))
			continue;
		if (y->size < 0 && i != ext)
			continue;
		ScanArray *a = &out->a[na++];
		memset(a, 0, sizeof *a);
		a->sym = i;
		scan_array_name(y->name, a->name, sizeof a->name);
		snprintf(a->kernel, sizeof a->kernel, "%s", kn);
		a->base = y->addr;
		a->bytes = y->size >= 0 ? y->size : PTX_SHARED_LIMIT - y->addr;
	}
	array_slots(m, k, out->a, na);
	KernelFiles kf;
	kernel_files(m, k, c, &kf);
	SlotLines sl = {0};
	for (int i = 0; i < na; i++) {
		ScanArray *a = &out->a[i];
		const PtxSym *y = &m->sym[a->sym];
		if (!a->nslot) {
			free(a->slot);
			continue;
		}
		if (y->size < 0) {
			/* an extern array: as far as it was touched */
			int64_t top = a->base;
			for (int s = 0; s < a->nslot; s++) {
				const ScanAcc *x = &k->acc[a->slot[s]];
				for (int64_t j = 0; j < x->nkept; j++)
					for (int l = 0; l < WARP; l++)
						if ((x->masks[j] >> l & 1) && x->addrs[j * WARP + l] + x->bytes > top)
							top = x->addrs[j * WARP + l] + x->bytes;
			}
			a->bytes = top - a->base;
		}
		if (out->n != i)
			out->a[out->n] = *a;
		a = &out->a[out->n];
		group_stmts(m, k, c, a);
		find_decl(m, k, c, &kf, a);
		array_view(m, k, a);
		check_reach(m, k, c, a);
		check_split(m, k, c, a);
		check_kept(m, k, c, a, &sl);
		out->n++;
	}
	free(sl.v);
	/* each slot's array, for the warnings and the JSON */
	out->of_slot = xmalloc(((size_t)m->nslots + 1) * sizeof *out->of_slot);
	for (int s = 0; s < m->nslots; s++)
		out->of_slot[s] = -1;
	for (int i = 0; i < out->n; i++)
		for (int q = 0; q < out->a[i].nslot; q++)
			if (out->of_slot[out->a[i].slot[q]] < 0)
				out->of_slot[out->a[i].slot[q]] = i;
}

void scan_arrays_free(ScanArrays *as)
{
	for (int i = 0; i < as->n; i++) {
		free(as->a[i].slot);
		free(as->a[i].stmt);
		scan_fix_form_free(&as->a[i].fix.pad);
		scan_fix_form_free(&as->a[i].fix.index);
		if (as->a[i].decl.src)
			cdecl_free(as->a[i].decl.src);
		free(as->a[i].decl.src);
	}
	free(as->a);
	free(as->of_slot);
	memset(as, 0, sizeof *as);
}

void scan_arrays_forget_sources(void)
{
	cdecl_free_all();
}
