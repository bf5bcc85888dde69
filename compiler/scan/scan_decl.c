/* A shared array's declaration, found from its PTX symbol rather than by
 * its name alone, and every place in its scope where its name occurs.
 *
 * `_ZZ11fix_literalE1t` is the `t` that function fix_literal declares:
 * the declaration is looked for in that function's body, in the files
 * the array's accesses and its kernel's code come from, and it must
 * declare as many bytes as the PTX symbol holds (its dimensions read
 * through the file's definitions, the template arguments of the instance
 * bound).  Two kernels of one file that each declare `tile` are two
 * arrays; where functions of one name each declare it, the one whose
 * body holds the accesses is taken, and where that leaves a doubt, none.
 *
 * Every occurrence of the name where it means the array is then read for
 * what it does, since a fix that changes where elements live is only
 * right if every access goes through an indexing the fix rewrites: an
 * element (`t[r][c]`), or an element's address used at once (through a
 * cast, as an asm operand, converted to a shared address that only asm
 * operands use, passed to a function whose accesses the scan saw).  A
 * pointer kept in a variable, the name used as a pointer, arithmetic on
 * an element's address, a declaration of the same name inside the scope:
 * each stops the fix, and CDecl.stop says where and why. */
#include <stdlib.h>
#include <string.h>

#include "scan/scan_ctext.h"
#include "ptx/ptx.h"

/* ---- a file's functions, shared declarations and names, indexed once -------- */

typedef struct {
	int name;               /* the function's name token */
	int body_a, body_b;     /* its body's braces: [body_a, body_b) */
} CFunc;

typedef struct {
	const CText *t;
	unsigned id;            /* t's (a file read later may reuse its memory) */
	CFunc *fn;
	int nfn;
	int *shared;            /* tokens of __shared__ */
	int nshared;
	/* identifiers: chained by name, each chain in token order */
	int *head, *next, nhead;
} FileIdx;

enum { KEPT_IDX = 16 };
static FileIdx idx[KEPT_IDX];
static int nidx;

static bool tok_id(const CText *t, int i, const char *s) { return t->tok[i].kind == CT_ID && ctok_is(t, i, s); }

static uint32_t hash_tok(const CText *t, int i)
{
	uint32_t h = 2166136261u;
	for (uint32_t k = 0; k < t->tok[i].len; k++)
		h = (h ^ (unsigned char)t->text[t->tok[i].off + k]) * 16777619u;
	return h;
}

static bool same_tok(const CText *t, int i, int j)
{
	return t->tok[i].len == t->tok[j].len &&
	       memcmp(t->text + t->tok[i].off, t->text + t->tok[j].off, t->tok[i].len) == 0;
}

/* Qualifiers between a function's parameters and its body. */
static int skip_quals(const CText *t, int i)
{
	while (i < t->ntok) {
		if (tok_id(t, i, "const") || tok_id(t, i, "noexcept") || tok_id(t, i, "override") ||
		    tok_id(t, i, "final") || tok_id(t, i, "volatile"))
			i++;
		else if (tok_id(t, i, "__attribute__") && ctok_is(t, i + 1, "("))
			i = ctok_close(t, i + 1);
		else
			return i;
	}
	return i;
}

static const FileIdx *file_idx(const CText *t)
{
	for (int i = 0; i < nidx; i++)
		if (idx[i].t == t && idx[i].id == t->id)
			return &idx[i];
	if (nidx == KEPT_IDX) {
		free(idx[0].fn), free(idx[0].shared), free(idx[0].head), free(idx[0].next);
		memmove(idx, idx + 1, (KEPT_IDX - 1) * sizeof *idx);
		nidx--;
	}
	FileIdx *x = &idx[nidx++];
	memset(x, 0, sizeof *x);
	x->t = t;
	x->id = t->id;
	int capf = 0, caps = 0;
	x->nhead = 1024;
	while (x->nhead < t->ntok)
		x->nhead *= 2;
	x->head = xmalloc((size_t)x->nhead * sizeof *x->head);
	x->next = xmalloc(((size_t)t->ntok + 1) * sizeof *x->next);
	for (int i = 0; i < x->nhead; i++)
		x->head[i] = -1;
	/* each chain in token order: built from the end */
	for (int i = t->ntok - 1; i >= 0; i--) {
		if (t->tok[i].kind != CT_ID)
			continue;
		uint32_t h = hash_tok(t, i) & (uint32_t)(x->nhead - 1);
		x->next[i] = x->head[h];
		x->head[h] = i;
	}
	for (int i = 0; i < t->ntok; i++) {
		if (tok_id(t, i, "__shared__")) {
			if (x->nshared == caps)
				x->shared = xrealloc(x->shared, (size_t)(caps = caps ? 2 * caps : 16) *
				                     sizeof *x->shared);
			x->shared[x->nshared++] = i;
		}
		/* NAME ( ... ) quals { : a function's definition (not a
		 * statement's: for, if, while, switch, catch) */
		if (t->tok[i].kind != CT_ID || !ctok_is(t, i + 1, "(") ||
		    (i && (ctok_is(t, i - 1, ".") || ctok_is(t, i - 1, "->"))) ||
		    tok_id(t, i, "for") || tok_id(t, i, "if") || tok_id(t, i, "while") ||
		    tok_id(t, i, "switch") || tok_id(t, i, "catch"))
			continue;
		int close = ctok_close(t, i + 1);
		int body = skip_quals(t, close);
		if (!ctok_is(t, body, "{"))
			continue;
		if (x->nfn == capf)
			x->fn = xrealloc(x->fn, (size_t)(capf = capf ? 2 * capf : 16) * sizeof *x->fn);
		x->fn[x->nfn++] = (CFunc){i, body, ctok_close(t, body)};
	}
	return x;
}

/* ---- the symbol ------------------------------------------------------------------- */

/* _ZZ<function>E<len><name>[_<n>]: the function's mangled name. */
static bool sym_function(const char *sym, char *fn, size_t n)
{
	if (strncmp(sym, "_ZZ", 3) != 0)
		return false;
	/* the E that ends the function's encoding is the one before the
	 * name's length, which is the last <len><name> of the symbol */
	const char *e = strrchr(sym, 'E');
	while (e && e > sym + 3) {
		char *end;
		long len = strtol(e + 1, &end, 10);
		if (len > 0 && (size_t)len <= strlen(end))
			break;
		do
			e--;
		while (e > sym + 3 && *e != 'E');
	}
	if (!e || e <= sym + 3)
		return false;
	snprintf(fn, n, "_Z%.*s", (int)(e - sym - 3), sym + 3);
	return true;
}

/* ---- template arguments -------------------------------------------------------------- */

/* The template parameters before function token f, bound to the instance's
 * arguments `args` ("32, float"); false if f is no template. */
static bool bind_template(const CText *t, int f, const char *args, CBind *b)
{
	memset(b, 0, sizeof *b);
	/* back over the return type to the statement's start */
	int i = f - 1;
	while (i >= 0 && !ctok_is(t, i, ";") && !ctok_is(t, i, "{") && !ctok_is(t, i, "}") &&
	       !ctok_is(t, i, ">"))
		i--;
	if (i < 0 || !ctok_is(t, i, ">"))
		return false;
	/* the matching '<' of `template <` */
	int depth = 0, j = i;
	for (; j >= 0; j--) {
		if (ctok_is(t, j, ">"))
			depth++;
		else if (ctok_is(t, j, ">>"))
			depth += 2;
		else if (ctok_is(t, j, "<") && --depth == 0)
			break;
	}
	if (j < 1 || !tok_id(t, j - 1, "template"))
		return false;
	/* the parameters: the last identifier before each top-level , or = */
	int names[16], nn = 0;
	bool type[16];
	int last = -1, d = 0;
	bool ty = false, in_default = false;
	for (int k = j + 1; k <= i && nn < 16; k++) {
		if (ctok_is(t, k, "<") || ctok_is(t, k, "(")) d++;
		else if ((ctok_is(t, k, ">") || ctok_is(t, k, ")")) && k < i) d--;
		if (d == 0 && (ctok_is(t, k, ",") || k == i)) {
			if (last >= 0)
				names[nn] = last, type[nn++] = ty;
			last = -1, ty = false, in_default = false;
			continue;
		}
		if (d == 0 && ctok_is(t, k, "="))
			in_default = true;
		if (in_default)
			continue;
		if (tok_id(t, k, "typename") || tok_id(t, k, "class"))
			ty = true;
		else if (t->tok[k].kind == CT_ID)
			last = k;
	}
	/* the arguments, split at top-level commas */
	char buf[512];
	snprintf(buf, sizeof buf, "%s", args);
	int na = 0, depth2 = 0;
	char *arg[16], *p = buf;
	arg[na++] = p;
	for (; *p && na < 16; p++) {
		if (*p == '<' || *p == '(') depth2++;
		else if (*p == '>' || *p == ')') depth2--;
		else if (*p == ',' && depth2 == 0) {
			*p = 0;
			arg[na++] = p + 1;
		}
	}
	for (int k = 0; k < nn && k < na; k++) {
		char *a = arg[k];
		while (*a == ' ')
			a++;
		char *e = a + strlen(a);
		while (e > a && e[-1] == ' ')
			*--e = 0;
		static char store[16][64];
		snprintf(store[k], sizeof store[k], "%.*s", (int)t->tok[names[k]].len,
		         t->text + t->tok[names[k]].off);
		int bi = b->n;
		b->name[bi] = store[k];
		if (type[k]) {
			b->bytes[bi] = ctext_type_bytes(a);
			if (b->bytes[bi])
				b->n++;
		} else {
			char *end;
			long long v = strtoll(a, &end, 0);
			while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
				end++;
			if (end != a && !*end) {
				b->value[bi] = v;
				b->n++;
			} else if (strcmp(a, "true") == 0 || strcmp(a, "false") == 0) {
				b->value[bi] = a[0] == 't';
				b->n++;
			}
		}
	}
	return true;
}

/* ---- declarations ---------------------------------------------------------------------- */

void ctext_span(const CText *t, int a, int b, char *buf, size_t n)
{
	if (a >= b || a < 0 || b > t->ntok) {
		if (n)
			buf[0] = 0;
		return;
	}
	size_t s = t->tok[a].off, e = t->tok[b - 1].off + t->tok[b - 1].len;
	snprintf(buf, n, "%.*s", (int)(e - s), t->text + s);
}

/* The statement of __shared__ token s: [a, b), b its ';' */
static void stmt_of(const CText *t, int s, int *a, int *b)
{
	int i = s;
	while (i > 0 && !ctok_is(t, i - 1, ";") && !ctok_is(t, i - 1, "{") &&
	       !ctok_is(t, i - 1, "}") && !(t->tok[i - 1].kind == CT_PUNCT && ctok_is(t, i - 1, ":")))
		i--;
	*a = i;
	int d = 0;
	for (i = s; i < t->ntok; i++) {
		if (ctok_is(t, i, "(") || ctok_is(t, i, "[") || ctok_is(t, i, "{")) d++;
		else if (ctok_is(t, i, ")") || ctok_is(t, i, "]") || ctok_is(t, i, "}")) {
			if (--d < 0)
				break;
		} else if (ctok_is(t, i, ";") && d == 0)
			break;
	}
	*b = i;
}

static bool storage_word(const CText *t, int i)
{
	return tok_id(t, i, "__shared__") || tok_id(t, i, "extern") || tok_id(t, i, "static") ||
	       tok_id(t, i, "__align__") || tok_id(t, i, "alignas") || tok_id(t, i, "__device__");
}

/* The closing brace of the innermost block around token i (or ntok). */
static int block_end(const CText *t, int lo, int i)
{
	int d = 0;
	for (int j = i; j >= lo; j--) {
		if (ctok_is(t, j, "}"))
			d++;
		else if (ctok_is(t, j, "{") && d-- == 0)
			return ctok_close(t, j);
	}
	return t->ntok;
}

typedef struct {
	CDecl d;
	int score;              /* the accesses' lines in its scope */
} DeclCand;

/* Does the statement [a, b) declare `name`?  Its declarator's token. */
static int declarator(const CText *t, int a, int b, const char *name)
{
	int d = 0;
	for (int i = a; i < b; i++) {
		if (ctok_is(t, i, "(") || ctok_is(t, i, "[") || ctok_is(t, i, "{")) d++;
		else if (ctok_is(t, i, ")") || ctok_is(t, i, "]") || ctok_is(t, i, "}")) d--;
		if (d == 0 && tok_id(t, i, name) && !ctok_is(t, i - 1, "::") &&
		    (ctok_is(t, i + 1, "[") || ctok_is(t, i + 1, ";") || ctok_is(t, i + 1, ",") ||
		     ctok_is(t, i + 1, "=") || i + 1 == b))
			return i;
	}
	return -1;
}

static void fill_decl(const CText *t, int s, int name_tok, int lo, int hi, CDecl *d)
{
	int a, b;
	stmt_of(t, s, &a, &b);
	memset(d, 0, sizeof *d);
	d->t = t;
	d->name_tok = name_tok;
	/* the type: the words before the first declarator, storage apart */
	int ta = a;
	while (ta < name_tok && (storage_word(t, ta) || ctok_is(t, ta, "("))) {
		if ((tok_id(t, ta, "__align__") || tok_id(t, ta, "alignas")) && ctok_is(t, ta + 1, "("))
			ta = ctok_close(t, ta + 1);
		else
			ta++;
	}
	int tb = ta;
	while (tb < name_tok && !ctok_is(t, tb, ",")) {
		if (tok_id(t, tb, "__shared__") || tok_id(t, tb, "__align__"))
			break;
		tb++;
	}
	/* the first declarator's name ends the type */
	for (int i = ta; i < tb; i++)
		if (t->tok[i].kind == CT_ID && (ctok_is(t, i + 1, "[") || ctok_is(t, i + 1, ",") ||
		                                ctok_is(t, i + 1, ";")) && i > ta)
			tb = i;
	d->type_a = ta;
	d->type_b = tb;
	for (int i = a; i < name_tok; i++)
		d->is_extern |= tok_id(t, i, "extern");
	int i = name_tok + 1;
	while (ctok_is(t, i, "[") && d->ndims < DECL_MAX_DIMS) {
		int c = ctok_close(t, i);
		d->dims[d->ndims][0] = i + 1;
		d->dims[d->ndims][1] = c - 1;
		d->ndims++;
		i = c;
	}
	d->scope_a = b;
	d->scope_b = lo < hi ? block_end(t, lo, s) : t->ntok;
	if (d->scope_b > hi && lo < hi)
		d->scope_b = hi;
}

/* The element type's bytes: a builtin, a bound template type, or 0. */
static int type_bytes_of(const CDecl *d)
{
	char ty[160];
	ctext_span(d->t, d->type_a, d->type_b, ty, sizeof ty);
	/* one space between words, none around :: */
	char norm[160];
	size_t o = 0;
	for (const char *p = ty; *p && o + 1 < sizeof norm; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
			if (o && norm[o - 1] != ' ')
				norm[o++] = ' ';
			continue;
		}
		norm[o++] = *p;
	}
	while (o && norm[o - 1] == ' ')
		o--;
	norm[o] = 0;
	int b = ctext_type_bytes(norm);
	for (int i = 0; !b && i < d->bind.n; i++)
		if (strcmp(d->bind.name[i], norm) == 0)
			b = d->bind.bytes[i];
	return b;
}

/* Dimensions for each way the #ifs may go: those that agree with bytes.
 * false when none does, or they disagree on a dimension that matters. */
static bool size_dims(DeclCand *c, int64_t bytes)
{
	CDecl *d = &c->d;
	int E = type_bytes_of(d);
	CChoice ch = {0};
	bool any = false;
	int64_t got[DECL_MAX_DIMS], ge = 0;
	for (int round = 0; round < 64; round++) {
		int64_t v[DECL_MAX_DIMS], prod = 1;
		bool ok = true;
		for (int k = 0; k < d->ndims && ok; k++) {
			const CText *t = d->t;
			if (d->dims[k][0] >= d->dims[k][1]) {
				v[k] = -1;     /* [] of an extern array */
				ok = d->is_extern && k == 0;
				continue;
			}
			size_t s = t->tok[d->dims[k][0]].off;
			size_t e = t->tok[d->dims[k][1] - 1].off + t->tok[d->dims[k][1] - 1].len;
			ok = ctext_eval(t, t->text + s, e - s, &d->bind, &ch, &v[k]) && v[k] > 0;
			if (ok && prod < (1LL << 40))
				prod *= v[k];
		}
		if (ok && !ch.overflow) {
			int64_t elem = E;
			if (bytes >= 0 && d->ndims && v[0] > 0) {
				if (E && prod * E != bytes)
					ok = false;
				else if (!E)
					ok = prod > 0 && bytes % prod == 0 && (elem = bytes / prod) > 0;
			}
			if (ok) {
				if (!any) {
					memcpy(got, v, sizeof got);
					ge = elem;
					any = true;
				} else {
					for (int k = 0; k < d->ndims; k++)
						if (got[k] != v[k])
							got[k] = -1;    /* the #ifs decide it: unknown */
					if (ge != elem)
						ge = 0;
				}
			}
		}
		/* the next combination of the choices met */
		int k = 0;
		while (k < ch.n && ++ch.pick[k] == ch.arity[k])
			ch.pick[k++] = 0;
		if (k == ch.n || ch.overflow)
			break;
	}
	if (!any && d->ndims)
		return false;
	memcpy(d->dimv, got, sizeof d->dimv);
	d->elem = any ? ge : E;
	return true;
}

/* ---- occurrences ------------------------------------------------------------------------ */

static bool is_keyword_before_expr(const CText *t, int i)
{
	static const char *const kw[] = {"return", "case", "else", "do", "sizeof", "throw", "goto",
	                                 "co_return", "co_yield", "new", "delete", "typeid"};
	for (size_t k = 0; k < sizeof kw / sizeof *kw; k++)
		if (tok_id(t, i, kw[k]))
			return true;
	return false;
}

static void stop_at(CDecl *d, int tok, const char *fmt, const char *what)
{
	if (d->stop[0])
		return;
	char name[128];
	ctext_span(d->t, d->name_tok, d->name_tok + 1, name, sizeof name);
	snprintf(d->stop, sizeof d->stop, fmt, name, what ? what : "");
	d->stop_line = d->t->tok[tok].line;
}

/* Is token i the end of an operand (so a '&' or '*' after it is binary)?
 * Not the ')' of an if, for, while or switch: a statement starts there. */
static bool operand_end(const CText *t, int i)
{
	if (i < 0)
		return false;
	if (t->tok[i].kind == CT_ID)
		return !is_keyword_before_expr(t, i);
	if (ctok_is(t, i, ")")) {
		int d = 0, j = i;
		for (; j >= 0; j--) {
			if (ctok_is(t, j, ")")) d++;
			else if (ctok_is(t, j, "(") && --d == 0)
				break;
		}
		return !(j > 0 && (tok_id(t, j - 1, "if") || tok_id(t, j - 1, "for") ||
		                   tok_id(t, j - 1, "while") || tok_id(t, j - 1, "switch")));
	}
	return t->tok[i].kind == CT_NUM || t->tok[i].kind == CT_STR || ctok_is(t, i, "]");
}

/* The '(' that opens the innermost parenthesis around token i, or -1. */
static int open_paren(const CText *t, int lo, int i)
{
	int d = 0;
	for (int j = i; j >= lo; j--) {
		if (ctok_is(t, j, ")") || ctok_is(t, j, "]"))
			d++;
		else if (ctok_is(t, j, "(") || ctok_is(t, j, "[")) {
			if (d-- == 0)
				return ctok_is(t, j, "(") ? j : -1;
		} else if (d == 0 && (ctok_is(t, j, ";") || ctok_is(t, j, "{") || ctok_is(t, j, "}")))
			return -1;
	}
	return -1;
}

static bool is_cvta(const CText *t, int i)
{
	return tok_id(t, i, "__cvta_generic_to_shared") || tok_id(t, i, "cvta_to_shared_u32") ||
	       tok_id(t, i, "__cvta_generic_to_shared_u32");
}

/* The uses of variable v (token vt) after it holds an element's shared
 * address: asm operands only ("r"(v)); else the fix stops. */
static bool var_uses_ok(CDecl *d, const FileIdx *x, int vt)
{
	const CText *t = d->t;
	uint32_t h = hash_tok(t, vt) & (uint32_t)(x->nhead - 1);
	int end = block_end(t, d->scope_a, vt);
	for (int i = x->head[h]; i >= 0; i = x->next[i]) {
		if (i <= vt || i >= end || !same_tok(t, i, vt))
			continue;
		if (ctok_is(t, i - 1, ".") || ctok_is(t, i - 1, "->"))
			continue;
		bool operand = ctok_is(t, i - 1, "(") && ctok_is(t, i + 1, ")") && i >= 2 &&
		               t->tok[i - 2].kind == CT_STR;
		/* an argument of a macro whose body is asm (LDMATRIX_X4(..., p)) */
		int open = operand ? -1 : open_paren(t, d->scope_a, i);
		if (open > 0 && t->tok[open - 1].kind == CT_ID &&
		    (ctok_is(t, i - 1, "(") || ctok_is(t, i - 1, ",")) &&
		    (ctok_is(t, i + 1, ")") || ctok_is(t, i + 1, ",")) &&
		    ctext_asm_macro(t, t->text + t->tok[open - 1].off, t->tok[open - 1].len, 0))
			operand = true;
		if (!operand) {
			char v[96];
			ctext_span(t, vt, vt + 1, v, sizeof v);
			stop_at(d, i, "the shared address of an element of '%s', '%s', is used "
			        "otherwise than as an asm operand", v);
			return false;
		}
	}
	return true;
}

/* What &name[...] (tokens [a, b)) does: OCC_ADDR, OCC_ADDR_CALL, or the fix stops. */
static int addr_use(CDecl *d, const FileIdx *x, int a, int b)
{
	const CText *t = d->t;
	bool converted = false;     /* now an integer shared address */
	for (int guard = 0; guard < 64; guard++) {
		int before = a - 1;
		if (ctok_is(t, b, "+") || ctok_is(t, b, "-") || ctok_is(t, b, "+=") ||
		    ctok_is(t, b, "-=") || ctok_is(t, b, "++") || ctok_is(t, b, "--") ||
		    (ctok_is(t, b, "[") && !(t->tok[b + 1].kind == CT_NUM && ctok_is(t, b + 1, "0") &&
		                              ctok_is(t, b + 2, "]")))) {
			stop_at(d, b, "arithmetic on the address of an element of '%s'%s", NULL);
			return -1;
		}
		if (ctok_is(t, b, "[") || ctok_is(t, b, "->") || ctok_is(t, b, "."))
			return OCC_ADDR;    /* (T *)&x ...[0] or -> : the element itself */
		if (ctok_is(t, before, "*") && !operand_end(t, before - 1))
			return OCC_ADDR;    /* *(T *)&x: dereferenced at once */
		if (ctok_is(t, before, ")")) {
			/* a C cast (T *): the expression grows to hold it */
			int d2 = 0, j = before;
			for (; j > d->scope_a; j--) {
				if (ctok_is(t, j, ")")) d2++;
				else if (ctok_is(t, j, "(") && --d2 == 0)
					break;
			}
			a = j;
			continue;
		}
		if (ctok_is(t, before, "(") || ctok_is(t, before, ",")) {
			int open = open_paren(t, d->scope_a, before);
			if (open < 0) {
				stop_at(d, a, "the address of an element of '%s' is used where bankc "
				        "cannot follow it%s", NULL);
				return -1;
			}
			int close = ctok_close(t, open);
			int callee = open - 1;
			if (callee >= 0 && t->tok[callee].kind == CT_STR)
				return OCC_ADDR;            /* "r"(...) of an asm statement */
			if (callee >= 0 && ctok_is(t, callee, ">")) {
				/* static_cast<T>(...), reinterpret_cast<T>(...) */
				int j = callee, d3 = 0;
				for (; j >= 0; j--) {
					if (ctok_is(t, j, ">")) d3++;
					else if (ctok_is(t, j, "<") && --d3 == 0)
						break;
				}
				if (j > 0 && t->tok[j - 1].kind == CT_ID) {
					a = j - 1, b = close;
					continue;
				}
			}
			if (callee >= 0 && is_cvta(t, callee)) {
				converted = true;
				a = callee, b = close;
				continue;
			}
			if (callee >= 0 && t->tok[callee].kind == CT_ID && !is_keyword_before_expr(t, callee) &&
			    !tok_id(t, callee, "if") && !tok_id(t, callee, "while") &&
			    !tok_id(t, callee, "for") && !tok_id(t, callee, "switch"))
				return converted ? OCC_ADDR_CALL : OCC_ADDR_CALL;
			if (ctok_is(t, before, "(") && close == b + 1) {
				a = open, b = close;        /* ( expression ) */
				continue;
			}
			stop_at(d, a, "the address of an element of '%s' is used where bankc "
			        "cannot follow it%s", NULL);
			return -1;
		}
		if (ctok_is(t, before, "=") && converted && before > 0 && t->tok[before - 1].kind == CT_ID)
			return var_uses_ok(d, x, before - 1) ? OCC_ADDR : -1;
		if (ctok_is(t, before, "=")) {
			char v[96] = "";
			if (before > 0 && t->tok[before - 1].kind == CT_ID)
				ctext_span(t, before - 1, before, v, sizeof v);
			stop_at(d, a, "a pointer to an element of '%s' is kept%s", "");
			if (v[0]) {
				char name[128];
				ctext_span(t, d->name_tok, d->name_tok + 1, name, sizeof name);
				snprintf(d->stop, sizeof d->stop, "a pointer to an element of '%s' is kept "
				         "in '%s'", name, v);
			}
			return -1;
		}
		stop_at(d, a, "the address of an element of '%s' is used where bankc cannot "
		        "follow it%s", NULL);
		return -1;
	}
	return -1;
}

static void add_occ(CDecl *d, const COcc *o)
{
	if (d->nocc % 64 == 0)
		d->occ = xrealloc(d->occ, ((size_t)d->nocc + 64) * sizeof *d->occ);
	d->occ[d->nocc++] = *o;
}

static void read_occurrences(CDecl *d)
{
	const CText *t = d->t;
	const FileIdx *x = file_idx(t);
	uint32_t h = hash_tok(t, d->name_tok) & (uint32_t)(x->nhead - 1);
	for (int i = x->head[h]; i >= 0; i = x->next[i]) {
		if (i < d->scope_a || i >= d->scope_b || !same_tok(t, i, d->name_tok))
			continue;
		/* a member or a qualified name of another thing */
		if (ctok_is(t, i - 1, ".") || ctok_is(t, i - 1, "->") || ctok_is(t, i - 1, "::") ||
		    ctok_is(t, i + 1, "::"))
			continue;
		if (i > 0 && t->tok[i - 1].kind == CT_ID && !is_keyword_before_expr(t, i - 1)) {
			stop_at(d, i, "'%s' is declared again inside its scope%s", NULL);
			continue;
		}
		COcc o = {.tok = i, .line = t->tok[i].line};
		/* its statement's lines: from after the ; { } before it to the
		 * ; { } after it */
		int a = i, b = i;
		while (a > d->scope_a && !ctok_is(t, a - 1, ";") && !ctok_is(t, a - 1, "{") &&
		       !ctok_is(t, a - 1, "}"))
			a--;
		while (b + 1 < d->scope_b && !ctok_is(t, b, ";") && !ctok_is(t, b, "{") &&
		       !ctok_is(t, b, "}"))
			b++;
		o.line0 = t->tok[a].line;
		o.line1 = t->tok[b].line;
		int j = i + 1;
		while (ctok_is(t, j, "[") && o.nsub < DECL_MAX_DIMS) {
			int c = ctok_close(t, j);
			o.sub[o.nsub][0] = j + 1;
			o.sub[o.nsub][1] = c - 1;
			o.nsub++;
			j = c;
		}
		o.end = j;
		if (o.nsub == 0 && (tok_id(t, i - 1, "sizeof") ||
		                    (ctok_is(t, i - 1, "(") && tok_id(t, i - 2, "sizeof") &&
		                     ctok_is(t, i + 1, ")")))) {
			o.kind = OCC_SIZEOF;
			add_occ(d, &o);
			continue;
		}
		if (o.nsub != d->ndims || ctok_is(t, j, "[")) {
			stop_at(d, i, o.nsub ? "'%s' is indexed with fewer subscripts than it has "
			        "dimensions (a pointer into it)%s" : "'%s' is used as a pointer%s", NULL);
			continue;
		}
		bool addr = ctok_is(t, i - 1, "&") && !operand_end(t, i - 2);
		if (!addr) {
			o.kind = OCC_ELEM;
			add_occ(d, &o);
			continue;
		}
		int k = addr_use(d, x, i - 1, j);
		if (k < 0)
			continue;
		o.kind = (uint8_t)k;
		add_occ(d, &o);
	}
}

/* ---- finding it ---------------------------------------------------------------------------- */

bool cdecl_find(const char *sym, const char *name, int64_t bytes, const char *const *paths,
                int npaths, const int *lines, const int *line_file, int nlines, CDecl *out,
                char *why, size_t nwhy)
{
	memset(out, 0, sizeof *out);
	char fnm[512] = "", fshort[256] = "", finst[1024] = "", args[512] = "";
	bool local = sym_function(sym, fnm, sizeof fnm);
	if (local) {
		ptx_short_name(fnm, fshort, sizeof fshort);
		ptx_kernel_name(fnm, finst, sizeof finst);
		const char *c = strrchr(fshort, ':');
		if (c)
			memmove(fshort, c + 1, strlen(c));
		const char *lt = strchr(finst, '<');
		if (lt && finst[strlen(finst) - 1] == '>')
			snprintf(args, sizeof args, "%.*s", (int)(strlen(lt) - 2), lt + 1);
	}
	DeclCand *cand = NULL;
	int ncand = 0, capc = 0;
	for (int p = 0; p < npaths; p++) {
		bool dup = false;
		for (int q = 0; q < p && !dup; q++)
			dup = strcmp(paths[p], paths[q]) == 0;
		const CText *t = dup ? NULL : ctext_get(paths[p]);
		if (!t)
			continue;
		const FileIdx *x = file_idx(t);
		for (int s = 0; s < x->nshared; s++) {
			int st = x->shared[s], a, b;
			stmt_of(t, st, &a, &b);
			int nt = declarator(t, a, b, name);
			if (nt < 0)
				continue;
			/* the function whose body holds it (the innermost) */
			const CFunc *fn = NULL;
			for (int f = 0; f < x->nfn; f++)
				if (x->fn[f].body_a < st && st < x->fn[f].body_b &&
				    (!fn || x->fn[f].body_a > fn->body_a))
					fn = &x->fn[f];
			if (local && (!fn || !tok_id(t, fn->name, fshort)))
				continue;
			bool ext = false;
			for (int k = a; k < nt; k++)
				ext |= tok_id(t, k, "extern");
			if (!local && fn && !ext)
				continue;   /* a function's own array: its symbol would be _ZZ */
			if (ncand == capc)
				cand = xrealloc(cand, (size_t)(capc = capc ? 2 * capc : 4) * sizeof *cand);
			DeclCand *c = &cand[ncand];
			fill_decl(t, st, nt, fn ? fn->body_a : 0, fn ? fn->body_b : t->ntok, &c->d);
			if (local && args[0])
				c->d.in_template = bind_template(t, fn->name, args, &c->d.bind);
			if (!size_dims(c, bytes))
				continue;
			c->score = 0;
			for (int l = 0; l < nlines; l++)
				if (strcmp(paths[line_file[l]], paths[p]) == 0 &&
				    lines[l] >= t->tok[c->d.scope_a].line &&
				    lines[l] <= t->tok[c->d.scope_b < t->ntok ? c->d.scope_b : t->ntok - 1].line)
					c->score++;
			ncand++;
		}
	}
	int best = -1;
	bool tie = false;
	for (int i = 0; i < ncand; i++) {
		if (best < 0 || cand[i].score > cand[best].score)
			best = i, tie = false;
		else if (cand[i].score == cand[best].score)
			tie = true;
	}
	if (best < 0 || tie) {
		char size[64];
		if (bytes >= 0)
			snprintf(size, sizeof size, "of %lld bytes", (long long)bytes);
		else
			snprintf(size, sizeof size, "(an extern array)");
		snprintf(why, nwhy, best < 0 ? "no declaration of '%s' %s was found in the sources "
		         "bankc may read" : "several declarations of '%s' %s could be the one its "
		         "accesses use", name, size);
		free(cand);
		return false;
	}
	*out = cand[best].d;
	free(cand);
	read_occurrences(out);
	return true;
}

void cdecl_free_all(void)
{
	for (int i = 0; i < nidx; i++)
		free(idx[i].fn), free(idx[i].shared), free(idx[i].head), free(idx[i].next);
	nidx = 0;
	ctext_free_all();
}

void cdecl_free(CDecl *d)
{
	free(d->occ);
	memset(d, 0, sizeof *d);
}

COcc *cdecl_occ_at(CDecl *d, const char *path, int line)
{
	if (!d->t || strcmp(d->t->path, path) != 0)
		return NULL;
	COcc *first = NULL;
	for (int i = 0; i < d->nocc; i++)
		if (d->occ[i].line0 <= line && line <= d->occ[i].line1 &&
		    d->occ[i].kind != OCC_SIZEOF) {
			d->occ[i].seen = true;
			if (!first)
				first = &d->occ[i];
		}
	return first;
}

/* ---- a kernel's definition --------------------------------------------------------------- */

/* The parameters of the list (a, b) (tokens inside the parentheses):
 * each one's name, the last identifier before its end or its default. */
static int param_names(const CText *t, int a, int b, char **out, int max)
{
	int n = 0, d = 0, last = -1, ids = 0;
	bool dflt = false;
	for (int i = a; i <= b && n < max; i++) {
		bool end = i == b || (d == 0 && ctok_is(t, i, ","));
		if (end) {
			if (last >= 0 || i > a) {
				/* one word alone is a type: the parameter has no name */
				if (ids < 2)
					last = -1;
				out[n] = last >= 0 ? xmalloc(t->tok[last].len + 1) : NULL;
				if (out[n]) {
					memcpy(out[n], t->text + t->tok[last].off, t->tok[last].len);
					out[n][t->tok[last].len] = 0;
				}
				n++;
			}
			last = -1, dflt = false, ids = 0;
			continue;
		}
		if (ctok_is(t, i, "(") || ctok_is(t, i, "[") || ctok_is(t, i, "<")) d++;
		else if (ctok_is(t, i, ")") || ctok_is(t, i, "]") || ctok_is(t, i, ">")) d--;
		else if (d == 0 && ctok_is(t, i, "="))
			dflt = true;
		else if (d == 0 && !dflt && t->tok[i].kind == CT_ID && !tok_id(t, i, "const") &&
		         !tok_id(t, i, "__restrict__") && !tok_id(t, i, "restrict") &&
		         !tok_id(t, i, "volatile"))
			last = i, ids++;
	}
	/* a parameter of a type alone (no name) keeps NULL: its last word was
	 * its type's, the only word */
	return n;
}

bool cdecl_function(const char *path, const char *name, int nparams, int *line, int *col,
                    char **params)
{
	const CText *t = ctext_get(path);
	if (!t)
		return false;
	const FileIdx *x = file_idx(t);
	int found = -1, nfound = 0;
	char *got[64] = {0};
	for (int f = 0; f < x->nfn; f++) {
		if (!tok_id(t, x->fn[f].name, name))
			continue;
		int open = x->fn[f].name + 1, close = ctok_close(t, open) - 1;
		char *names[64] = {0};
		int n = close > open + 1 ? param_names(t, open + 1, close, names, 64) : 0;
		if (n == 1 && !names[0] && ctok_is(t, open + 1, "void") && close == open + 2)
			n = 0;
		if (n == nparams) {
			found = f;
			nfound++;
			for (int i = 0; i < 64; i++)
				free(got[i]);
			memcpy(got, names, sizeof got);
		} else {
			for (int i = 0; i < n; i++)
				free(names[i]);
		}
	}
	if (nfound != 1) {
		for (int i = 0; i < 64; i++)
			free(got[i]);
		return false;
	}
	const CTok *nt = &t->tok[x->fn[found].name];
	*line = nt->line;
	size_t ls = nt->off;
	while (ls > 0 && t->text[ls - 1] != '\n')
		ls--;
	*col = (int)(nt->off - ls) + 1;
	for (int i = 0; i < nparams && i < 64; i++)
		params[i] = got[i];
	for (int i = nparams; i < 64; i++)
		free(got[i]);
	return true;
}
