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

/* ---- the source ------------------------------------------------------------ */

/* A source file whole, or NULL: only one the user pointed to (the .cu,
 * the FILE's folder, --source-dir; scan_source.c), as warnings show. */
static char *read_text(const char *path)
{
	return scan_source_text(path);
}

/* "path:line[:col]" (scan_where) split; false for a PTX position. */
static bool split_where(const char *w, const ScanCtx *c, char *path, size_t n,
                        int *line, int *col)
{
	char buf[512];
	snprintf(buf, sizeof buf, "%s", w);
	int v[2] = {0, 0}, nv = 0;
	for (char *p; nv < 2 && (p = strrchr(buf, ':')) && isdigit((unsigned char)p[1]);) {
		v[nv++] = atoi(p + 1);
		*p = 0;
	}
	if (!nv || strcmp(buf, c->input) == 0)
		return false;
	*line = nv == 2 ? v[1] : v[0];
	*col = nv == 2 ? v[0] : 0;
	snprintf(path, n, "%s", buf);
	return true;
}

static bool is_id(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

/* ---- the dimensions' values: integers, #defines and constants ---------------- */

/* Names defined through names, at most this deep: `#define A A + A`
 * costs 2^depth scans of the file. */
enum { MAX_EVAL_DEPTH = 6 };

typedef struct {
	const char *text;       /* the whole file, for names */
	const char *p;
	int depth;
	bool ok;
} Eval;

static int64_t eval_sum(Eval *e);

static void skip_ws(Eval *e)
{
	while (*e->p == ' ' || *e->p == '\t')
		e->p++;
}

/* NAME's value: `#define NAME EXPR` or `NAME = EXPR;` of a constant. */
static int64_t eval_name(Eval *e, const char *s, size_t n)
{
	for (const char *q = e->text; (q = strstr(q, "#define")) != NULL; q += 7) {
		const char *r = q + 7;
		while (*r == ' ' || *r == '\t')
			r++;
		if (strncmp(r, s, n) == 0 && !is_id(r[n]) && r[n] != '(') {
			Eval sub = {e->text, r + n, e->depth + 1, true};
			int64_t v = e->depth < MAX_EVAL_DEPTH ? eval_sum(&sub) : 0;
			skip_ws(&sub);
			if (e->depth < MAX_EVAL_DEPTH && sub.ok && (*sub.p == '\n' || *sub.p == 0 || *sub.p == '\r' ||
			                                strncmp(sub.p, "//", 2) == 0))
				return v;
		}
	}
	for (const char *q = e->text; (q = strstr(q, "const")) != NULL; q += 5) {
		const char *r = strchr(q, '=');
		const char *semi = strchr(q, ';');
		if (!r || !semi || semi < r)
			continue;
		const char *name = r;
		while (name > q && (name[-1] == ' ' || name[-1] == '\t'))
			name--;
		if ((size_t)(name - q) < n || strncmp(name - n, s, n) != 0 || is_id(name[-(ptrdiff_t)n - 1]))
			continue;
		Eval sub = {e->text, r + 1, e->depth + 1, true};
		int64_t v = e->depth < MAX_EVAL_DEPTH ? eval_sum(&sub) : 0;
		skip_ws(&sub);
		if (e->depth < MAX_EVAL_DEPTH && sub.ok && *sub.p == ';')
			return v;
	}
	e->ok = false;
	return 0;
}

static int64_t eval_atom(Eval *e)
{
	skip_ws(e);
	if (*e->p == '(') {
		e->p++;
		int64_t v = eval_sum(e);
		skip_ws(e);
		if (*e->p != ')')
			e->ok = false;
		else
			e->p++;
		return v;
	}
	if (*e->p == '-') {
		e->p++;
		return -eval_atom(e);
	}
	if (isdigit((unsigned char)*e->p)) {
		char *end;
		long long v = strtoll(e->p, &end, 0);
		e->p = end;
		if (v > (1LL << 40))
			e->ok = false;  /* no dimension is this large; no overflow below */
		while (*e->p == 'u' || *e->p == 'U' || *e->p == 'l' || *e->p == 'L')
			e->p++;
		return v;
	}
	if (is_id(*e->p)) {
		const char *s = e->p;
		while (is_id(*e->p))
			e->p++;
		return eval_name(e, s, (size_t)(e->p - s));
	}
	e->ok = false;
	return 0;
}

static int64_t eval_product(Eval *e)
{
	int64_t v = eval_atom(e);
	for (;;) {
		skip_ws(e);
		char op = *e->p;
		if (op != '*' && op != '/' && op != '%')
			return v;
		e->p++;
		int64_t w = eval_atom(e);
		if (!e->ok)
			return 0;
		if (op != '*' && w == 0) {
			e->ok = false;
			return 0;
		}
		if (llabs(v) > (1LL << 30) || llabs(w) > (1LL << 30)) {
			e->ok = false;
			return 0;
		}
		v = op == '*' ? v * w : op == '/' ? v / w : v % w;
	}
}

static int64_t eval_sum(Eval *e)
{
	int64_t v = eval_product(e);
	for (;;) {
		skip_ws(e);
		char op = *e->p;
		if (op != '+' && op != '-')
			return v;
		e->p++;
		int64_t w = eval_product(e);
		if (!e->ok || llabs(v) > (1LL << 40) || llabs(w) > (1LL << 40)) {
			e->ok = false;
			return 0;
		}
		v = op == '+' ? v + w : v - w;
	}
}

/* sizeof the types a declaration names, where bankc knows them. */
static int type_bytes(const char *t)
{
	static const struct { const char *name; int bytes; } ty[] = {
		{"float", 4}, {"int", 4}, {"unsigned", 4}, {"unsigned int", 4},
		{"uint32_t", 4}, {"int32_t", 4}, {"double", 8}, {"half", 2},
		{"__half", 2}, {"__nv_bfloat16", 2}, {"short", 2}, {"unsigned short", 2},
		{"uint16_t", 2}, {"int16_t", 2}, {"char", 1}, {"unsigned char", 1},
		{"signed char", 1}, {"uint8_t", 1}, {"int8_t", 1}, {"long long", 8},
		{"unsigned long long", 8}, {"uint64_t", 8}, {"int64_t", 8},
		{"float2", 8}, {"float4", 16}, {"int2", 8}, {"int4", 16}, {"uint2", 8},
		{"uint4", 16}, {"half2", 4}, {"__half2", 4}, {"double2", 16},
	};
	while (strncmp(t, "const ", 6) == 0 || strncmp(t, "volatile ", 9) == 0)
		t = strchr(t, ' ') + 1;
	for (size_t i = 0; i < sizeof ty / sizeof *ty; i++)
		if (strcmp(t, ty[i].name) == 0)
			return ty[i].bytes;
	return 0;
}

/* The declaration of `name` on a line at p (that holds __shared__). */
static bool parse_decl(const char *text, const char *ls, const char *at, const char *name,
                       ScanDecl *d)
{
	const char *le = ls;
	while (*le && *le != '\n' && *le != '\r')
		le++;
	/* __shared__ before the name, on its line */
	const char *sh = NULL;
	for (const char *q = ls; q + 10 <= at && !sh; q++)
		if (strncmp(q, "__shared__", 10) == 0)
			sh = q;
	if (!sh)
		return false;
	/* the type: between __shared__ (and an alignment) and the name */
	const char *t = sh + 10;
	while (*t == ' ' || *t == '\t')
		t++;
	if (strncmp(t, "__align__(", 10) == 0 || strncmp(t, "alignas(", 8) == 0) {
		t = strchr(t, ')');
		if (!t || t > at)
			return false;
		t++;
	}
	while (*t == ' ' || *t == '\t')
		t++;
	const char *te = at;
	while (te > t && (te[-1] == ' ' || te[-1] == '\t'))
		te--;
	if (te <= t || (size_t)(te - t) >= sizeof d->type || (size_t)(le - ls) >= sizeof d->text)
		return false;
	memset(d, 0, sizeof *d);
	snprintf(d->type, sizeof d->type, "%.*s", (int)(te - t), t);
	d->type_bytes = type_bytes(d->type);
	snprintf(d->text, sizeof d->text, "%.*s", (int)(le - ls), ls);
	const char *p = at + strlen(name);
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != '[' || d->ndims == SCAN_MAX_DIMS)
			break;
		const char *q = ++p;
		int depth = 0;
		while (*q && *q != '\n' && (depth || *q != ']')) {
			depth += (*q == '[') - (*q == ']');
			q++;
		}
		if (*q != ']' || (size_t)(q - p) >= sizeof d->dim[0])
			return false;
		int i = d->ndims++;
		snprintf(d->dim[i], sizeof d->dim[i], "%.*s", (int)(q - p), p);
		Eval e = {text, d->dim[i], 0, true};
		int64_t v = eval_sum(&e);
		skip_ws(&e);
		d->dimv[i] = e.ok && !*e.p && v > 0 ? v : -1;
		d->dlo = (int)(p - ls);
		d->dhi = (int)(q - ls);
		p = q + 1;
	}
	d->found = true;
	return true;
}

/* The nearest declaration of `name` at or above line `line` (else the
 * first in the file). */
static void find_decl(const char *path, const char *name, int line, ScanDecl *d)
{
	memset(d, 0, sizeof *d);
	char *text = read_text(path);
	if (!text)
		return;
	size_t n = strlen(name);
	int best = -1;
	ScanDecl got;
	int l = 1;
	const char *ls = text;
	for (const char *p = text; *p; p++) {
		if (*p == '\n') {
			l++;
			ls = p + 1;
			continue;
		}
		if (strncmp(p, name, n) != 0 || (p > text && is_id(p[-1])) || is_id(p[n]))
			continue;
		if (!parse_decl(text, ls, p, name, &got))
			continue;
		if (best < 0 || (l <= line && (best > line || l > best)) ) {
			best = l;
			*d = got;
			d->line = l;
			d->col = (int)(p - ls) + 1;
			snprintf(d->path, sizeof d->path, "%s", path);
		}
	}
	free(text);
}

/* NAME[I][J] (or NAME[I]) in a statement's line: I and J as written, and
 * how many there are (0: none found). */
static int find_index(const char *path, int line, const char *name, char idx[2][128])
{
	idx[0][0] = idx[1][0] = 0;
	int found = 0;
	/* the line from the index of the file the warnings show (each file
	 * read once, whatever the statements) */
	const char *ls;
	size_t len;
	if (!scan_source_line(path, line, &ls, &len))
		return 0;
	const char *le = ls + len;
	size_t n = strlen(name);
	for (const char *p = ls; p + n < le; p++) {
		if (strncmp(p, name, n) != 0 || (p > ls && is_id(p[-1])) || is_id(p[n]))
			continue;
		const char *q = p + n;
		int k = 0;
		char got[2][128];
		while (k < 2 && *q == '[') {
			const char *s = ++q;
			int depth = 0;
			while (q < le && (depth || *q != ']')) {
				depth += (*q == '[') - (*q == ']');
				q++;
			}
			if (q >= le || (size_t)(q - s) >= sizeof got[0])
				break;
			snprintf(got[k++], sizeof got[0], "%.*s", (int)(q - s), s);
			q++;
		}
		if (k >= 1 && *q != '[') {
			snprintf(idx[0], sizeof idx[0], "%s", got[0]);
			snprintf(idx[1], sizeof idx[1], "%s", k == 2 ? got[1] : "");
			found = k;
			break;
		}
	}
	return found;
}

/* ---- the arrays ---------------------------------------------------------------- */

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
			st->wave += y->wave;
			st->ideal += y->ideal;
			st->count += y->count;
		}
		st->n = i - st->first;
		char path[1024];
		int line, col;
		if (split_where(st->where, c, path, sizeof path, &line, &col))
			st->nindex = find_index(path, line, a->name, st->index);
	}
	memcpy(a->slot, order, (size_t)n * sizeof *order);
	free(order);
	free(key);
	free(wh);
}

/* Which slots touch array y, their sums, and whether they stay in it. */
static void array_slots(const PtxModule *m, const ScanKernel *k, ScanArray *a)
{
	int64_t lo = a->base, hi = a->base + a->bytes;
	SlotKey *keys = xcalloc((size_t)m->nslots + 1, sizeof *keys);
	a->whole = true;
	a->elem = 8;
	for (int s = 0; s < m->nslots; s++) {
		const ScanAcc *x = &k->acc[s];
		bool in = false, out = false;
		for (int64_t j = 0; j < x->nkept; j++)
			for (int l = 0; l < WARP; l++) {
				if (!(x->masks[j] >> l & 1))
					continue;
				if (lane_in(x, j, l, lo, hi)) {
					in = true;
					int64_t o = x->addrs[j * WARP + l] - lo;
					int w = x->bytes < 8 ? x->bytes : x->bytes == 8 ? 8 : 4;
					if (w < a->elem)
						a->elem = w;
					while (o % a->elem)
						a->elem /= 2;
				} else {
					out = true;
				}
			}
		if (!in)
			continue;
		a->partial |= x->nkept != x->count;
		a->vector |= x->merged_from > 1;
		a->whole &= !out && x->nkept == x->count && !x->outside;
		const PtxInst *pi = &m->inst[x->inst];
		keys[a->nslot++] = (SlotKey){s, pi->line > 0 ? pi->file : 1 << 30, pi->line,
		                             pi->col, pi->pos.line};
		a->wave += x->wave;
		a->ideal += x->ideal;
	}
	qsort(keys, (size_t)a->nslot, sizeof *keys, slot_cmp);
	a->slot = xmalloc(((size_t)a->nslot + 1) * sizeof *a->slot);
	for (int i = 0; i < a->nslot; i++)
		a->slot[i] = keys[i].slot;
	free(keys);
}

/* The view the spec takes of the array: the declaration's rows (its last
 * dimension; the others one after another), or rows of 128 bytes. */
static void array_view(const ScanKernel *k, ScanArray *a)
{
	const ScanDecl *d = &a->decl;
	/* wider declared elements that every access keeps whole (16-byte
	 * loads of doubles): the declaration's element */
	bool whole = d->found && d->type_bytes > a->elem && d->type_bytes <= 8 &&
	             d->type_bytes % a->elem == 0;
	for (int s = 0; s < a->nslot && whole; s++) {
		const ScanAcc *x = &k->acc[a->slot[s]];
		whole = x->bytes % d->type_bytes == 0;
		for (int64_t j = 0; j < x->nkept && whole; j++)
			for (int l = 0; l < WARP; l++)
				if (lane_in(x, j, l, a->base, a->base + a->bytes) &&
				    (x->addrs[j * WARP + l] - a->base) % d->type_bytes)
					whole = false;
	}
	if (whole)
		a->elem = d->type_bytes;
	int64_t elems = (a->bytes + a->elem - 1) / a->elem;
	if (d->found && d->ndims >= 2 && d->type_bytes == a->elem) {
		int64_t rows = 1;
		for (int i = 0; i < d->ndims && rows > 0; i++)
			rows = d->dimv[i] > 0 && rows <= MAX_DIM ? (i + 1 < d->ndims ? rows * d->dimv[i]
			                                                             : rows) : -1;
		int64_t cols = d->dimv[d->ndims - 1];
		if (rows > 0 && cols > 0 && rows * cols == elems && rows <= MAX_DIM && cols <= MAX_DIM) {
			a->rows = (int)rows;
			a->cols = (int)cols;
			a->view_decl = true;
			return;
		}
	}
	a->cols = 128 / a->elem;
	a->flat = d->found && d->ndims == 1 && d->type_bytes == a->elem && d->dimv[0] == elems;
	int64_t rows = (elems + a->cols - 1) / a->cols;
	a->rows = rows > MAX_DIM ? MAX_DIM + 1 : (int)rows;
}

void scan_arrays_find(const PtxModule *m, const ScanKernel *k, const ScanCtx *c,
                      ScanArrays *out)
{
	memset(out, 0, sizeof *out);
	out->k = k;
	out->a = xcalloc((size_t)m->nsym + 1, sizeof *out->a);
	char kn[256];
	ptx_short_name(m->func[k->kernel].name, kn, sizeof kn);
	bool extern_seen = false;
	for (int i = 0; i < m->nsym; i++) {
		const PtxSym *y = &m->sym[i];
		if (y->kind != SYM_SHARED || (y->func >= 0 && y->func != k->kernel))
			continue;
		/* extern arrays all alias one base: the first stands for all */
		if (y->size < 0 && extern_seen)
			continue;
		extern_seen |= y->size < 0;
		ScanArray *a = &out->a[out->n];
		memset(a, 0, sizeof *a);
		a->sym = i;
		scan_array_name(y->name, a->name, sizeof a->name);
		snprintf(a->kernel, sizeof a->kernel, "%s", kn);
		a->base = y->addr;
		a->bytes = y->size >= 0 ? y->size : PTX_SHARED_LIMIT - y->addr;
		array_slots(m, k, a);
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
		group_stmts(m, k, c, a);
		char path[1024];
		int line, col;
		if (split_where(a->stmt[0].where, c, path, sizeof path, &line, &col))
			find_decl(path, a->name, line, &a->decl);
		array_view(k, a);
		a->dtype = dtype_of(m, a, k);
		out->n++;
	}
}

void scan_arrays_free(ScanArrays *as)
{
	for (int i = 0; i < as->n; i++) {
		free(as->a[i].slot);
		free(as->a[i].stmt);
		free(as->a[i].fix.diff);
	}
	free(as->a);
	memset(as, 0, sizeof *as);
}
