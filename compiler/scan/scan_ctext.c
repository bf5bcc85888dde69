/* A CUDA source file as the fixes need it: tokens (comments, strings and
 * preprocessor lines apart), its definitions (`#define N 32`, `const int
 * N = 32;`, `constexpr`, enumerators), and integer expressions evaluated
 * through them.
 *
 * Each file is read once per scan and kept, so that the work is linear
 * in the file however many arrays it declares.  An #if that bankc can
 * decide (`#if 0`, `#ifdef` of a name the file defines) drops the code
 * and definitions it leaves out, as nvcc's preprocessor would; one it
 * cannot decide keeps both sides, each definition marked as one that may
 * not be there, and the evaluator then reports the choice (ctext_eval's
 * CChoice) so that a declaration can pick the values its PTX size agrees
 * with.  Every recursion is bounded, and so is the work of one
 * evaluation, whatever the definitions. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "scan/scan_ctext.h"
#include "scan/scan_source.h"

enum {
	MAX_FILES = 1024,       /* files read in one scan */
	MAX_FILE_BYTES = 256 << 20,     /* ... and their bytes together */
	MAX_INCLUDE_DEPTH = 8,  /* #include "..." followed for a name */
	MAX_COND = 64,          /* #if nesting tracked */
	MAX_EVAL_DEPTH = 64,    /* nested operators and names of one evaluation */
	MAX_EVAL_STEPS = 1 << 12,   /* tokens one evaluation may read */
	MAX_SCAN_STEPS = 1 << 24,   /* ... all of a scan's evaluations */
};

/* The work of every evaluation so far: past MAX_SCAN_STEPS, a name is
 * not evaluated (its declaration's dimensions unknown), so that no file
 * of definitions that fan out makes a scan slow. */
static long scan_steps;

/* Every file read stays until the scan ends (the definitions of one are
 * read while another's are: none may go away), up to the limits above. */
static CText *files[MAX_FILES];
static int nfiles;
static size_t file_bytes;
static struct { char *name, *value; } *dnames;    /* -D NAME[=VALUE] */
static int ndnames;

/* ---- tokens ----------------------------------------------------------------- */

static bool id0(char c) { return isalpha((unsigned char)c) || c == '_' || c == '$'; }
static bool idc(char c) { return isalnum((unsigned char)c) || c == '_' || c == '$'; }

/* Punctuators of two or three characters that the fixes read as one. */
static int punct_len(const char *p, const char *e)
{
	static const char *const three[] = {"<<=", ">>=", "...", "->*"};
	static const char *const two[] = {"->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
	                                  "&&", "||", "*=", "/=", "%=", "+=", "-=", "&=", "^=",
	                                  "|=", "::", ".*"};
	for (size_t i = 0; i < sizeof three / sizeof *three; i++)
		if (e - p >= 3 && memcmp(p, three[i], 3) == 0)
			return 3;
	for (size_t i = 0; i < sizeof two / sizeof *two; i++)
		if (e - p >= 2 && memcmp(p, two[i], 2) == 0)
			return 2;
	return 1;
}

typedef struct {
	CText *t;
	int cap;
	int capdef;
	/* the #if stack: each level's state now, and whether a branch of it
	 * was taken (known true) or may have been */
	uint8_t cond[MAX_COND];
	uint8_t taken[MAX_COND];        /* 0 none, 1 maybe, 2 surely */
	int ncond, deep;                /* deep: levels past MAX_COND */
} Lex;

static DefState region(const Lex *x)
{
	DefState s = DEF_LIVE;
	for (int i = 0; i < x->ncond; i++)
		if (x->cond[i] > s)
			s = x->cond[i];
	return x->deep ? (s > DEF_MAYBE ? s : DEF_MAYBE) : s;
}

static uint32_t hash_name(const char *s, size_t n);
static void hash_def(CText *t, int i);

static void add_def(Lex *x, size_t name, size_t nlen, size_t val, size_t vlen, int line,
                    DefState st, bool macro)
{
	CText *t = x->t;
	if (t->ndef == x->capdef)
		t->def = xrealloc(t->def, (size_t)(x->capdef = x->capdef ? 2 * x->capdef : 64) *
		                  sizeof *t->def);
	while (vlen && isspace((unsigned char)t->text[val + vlen - 1]))
		vlen--;
	t->def[t->ndef] = (CDef){(uint32_t)name, (uint32_t)nlen, (uint32_t)val, (uint32_t)vlen,
	                         line, (uint8_t)st, macro};
	hash_def(t, t->ndef++);
}

/* Is NAME (n bytes) defined by a live #define before now, or given? */
static bool defined_now(const Lex *x, const char *s, size_t n)
{
	for (int i = 0; i < ndnames; i++)
		if (strlen(dnames[i].name) == n && memcmp(dnames[i].name, s, n) == 0)
			return true;
	const CText *t = x->t;
	if (!t->nbucket)
		return false;
	for (int i = t->bucket[hash_name(s, n) & (uint32_t)(t->nbucket - 1)]; i >= 0; i = t->next[i])
		if (t->def[i].macro && t->def[i].state == DEF_LIVE && t->def[i].nlen == n &&
		    memcmp(t->text + t->def[i].name, s, n) == 0)
			return true;
	return false;
}


/* An #if's condition: 0 false, 1 true, -1 unknown. */
static int cond_value(Lex *x, const char *s, size_t n)
{
	/* defined(X) and defined X: as a number where known */
	char *buf = xmalloc(n * 2 + 8);
	size_t o = 0;
	for (size_t i = 0; i < n;) {
		if (n - i >= 7 && memcmp(s + i, "defined", 7) == 0 && (i == 0 || !idc(s[i - 1])) &&
		    (i + 7 == n || !idc(s[i + 7]))) {
			size_t j = i + 7;
			while (j < n && (s[j] == ' ' || s[j] == '\t'))
				j++;
			bool par = j < n && s[j] == '(';
			if (par)
				j++;
			while (j < n && (s[j] == ' ' || s[j] == '\t'))
				j++;
			size_t a = j;
			while (j < n && idc(s[j]))
				j++;
			size_t b = j;
			while (par && j < n && s[j] != ')')
				j++;
			if (par && j < n)
				j++;
			if (!defined_now(x, s + a, b - a)) {
				free(buf);
				return -1;  /* perhaps defined elsewhere (a header, a flag) */
			}
			buf[o++] = '1';
			i = j;
			continue;
		}
		buf[o++] = s[i++];
	}
	CChoice ch = {0};
	int64_t v;
	bool ok = ctext_eval(x->t, buf, o, NULL, &ch, &v);
	free(buf);
	if (!ok || ch.n || ch.overflow)
		return -1;
	return v != 0;
}

static DefState state_of(int v)
{
	return v == 1 ? DEF_LIVE : v == 0 ? DEF_DEAD : DEF_MAYBE;
}

/* One preprocessor line [p, e) (continuations included) at line `line`. */
static void directive(Lex *x, const char *p, const char *e, const char *full_e, int line)
{
	const char *text = x->t->text;
	while (p < e && (*p == ' ' || *p == '\t' || *p == '#'))
		p++;
	const char *w = p;
	while (p < e && idc(*p))
		p++;
	size_t wn = (size_t)(p - w);
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
#define IS(lit) (wn == sizeof lit - 1 && memcmp(w, lit, wn) == 0)
	if (IS("define")) {
		const char *a = p;
		while (p < e && idc(*p))
			p++;
		if (p < e && *p == '(' && p > a) {
			/* a function-like macro: not a number; one whose body is an
			 * asm statement takes operands as asm does */
			for (const char *q = p; q + 3 <= full_e; q++)
				if (memcmp(q, "asm", 3) == 0 && (q == p || !idc(q[-1])) &&
				    (q + 3 == full_e || !idc(q[3]))) {
					CText *t = x->t;
					t->asm_macro = xrealloc(t->asm_macro, ((size_t)t->nasm_macro + 1) *
					                        sizeof *t->asm_macro);
					t->asm_macro[t->nasm_macro] = xmalloc((size_t)(p - a) + 1);
					memcpy(t->asm_macro[t->nasm_macro], a, (size_t)(p - a));
					t->asm_macro[t->nasm_macro++][p - a] = 0;
					break;
				}
			return;
		}
		if (p == a)
			return;
		/* the value up to a // comment (block comments are spaces already) */
		const char *v = p, *ve = v;
		for (const char *q = v; q < e; q++) {
			if (q + 1 < e && q[0] == '/' && q[1] == '/')
				break;
			ve = q + 1;
		}
		if (region(x) != DEF_DEAD)
			add_def(x, (size_t)(a - text), (size_t)(p - a), (size_t)(v - text),
			        (size_t)(ve - v), line, region(x), true);
		return;
	}
	if (IS("include") && p < e && *p == '"' && region(x) != DEF_DEAD) {
		/* "name": beside the including file, as the preprocessor looks
		 * first; followed only to read definitions */
		const char *a = p + 1, *q = a;
		while (q < e && *q != '"')
			q++;
		CText *t = x->t;
		const char *slash = strrchr(t->path, '/');
		size_t dn = slash ? (size_t)(slash - t->path) + 1 : 0;
		if (q < e && q > a && t->nincl < 64) {
			char *path = xmalloc(dn + (size_t)(q - a) + 1);
			memcpy(path, t->path, dn);
			memcpy(path + dn, a, (size_t)(q - a));
			path[dn + (size_t)(q - a)] = 0;
			t->incl = xrealloc(t->incl, ((size_t)t->nincl + 1) * sizeof *t->incl);
			t->incl[t->nincl++] = path;
		}
		return;
	}
	if (IS("if") || IS("ifdef") || IS("ifndef")) {
		int v;
		if (region(x) == DEF_DEAD)
			v = 0;
		else if (IS("if"))
			v = cond_value(x, p, (size_t)(e - p));
		else {
			const char *a = p;
			while (p < e && idc(*p))
				p++;
			bool d = defined_now(x, a, (size_t)(p - a));
			v = IS("ifdef") ? (d ? 1 : -1) : (d ? 0 : -1);
		}
		if (x->ncond == MAX_COND) {
			x->deep++;
			return;
		}
		x->cond[x->ncond] = (uint8_t)state_of(v);
		x->taken[x->ncond++] = v == 1 ? 2 : v == -1 ? 1 : 0;
		return;
	}
	if (IS("elif") || IS("else")) {
		if (x->deep || !x->ncond)
			return;
		int i = x->ncond - 1;
		int v;
		if (x->taken[i] == 2)
			v = 0;
		else if (IS("else"))
			v = x->taken[i] == 1 ? -1 : 1;
		else {
			x->ncond--;     /* the condition in the enclosing levels */
			v = region(x) == DEF_DEAD ? 0 : cond_value(x, p, (size_t)(e - p));
			x->ncond++;
			if (v == 1 && x->taken[i] == 1)
				v = -1;
		}
		x->cond[i] = (uint8_t)state_of(v);
		if (v == 1)
			x->taken[i] = 2;
		else if (v == -1 && x->taken[i] == 0)
			x->taken[i] = 1;
		return;
	}
	if (IS("endif")) {
		if (x->deep)
			x->deep--;
		else if (x->ncond)
			x->ncond--;
	}
#undef IS
}

static void add_tok(Lex *x, size_t off, size_t len, int line, CTokKind k, bool bol)
{
	CText *t = x->t;
	if (region(x) == DEF_DEAD)
		return;     /* code an #if leaves out */
	if (t->ntok == x->cap)
		t->tok = xrealloc(t->tok, (size_t)(x->cap = x->cap ? 2 * x->cap : 1024) *
		                  sizeof *t->tok);
	t->tok[t->ntok++] = (CTok){(uint32_t)off, (uint32_t)len, line, (uint8_t)k, bol};
}

static void lex(CText *t)
{
	Lex x = {.t = t};
	const char *s = t->text, *p = s, *e = s + t->len;
	int line = 1;
	bool bol = true;
	while (p < e) {
		char c = *p;
		if (c == '\n') {
			line++, p++, bol = true;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			p++;
			continue;
		}
		if (c == '\\' && p + 1 < e && (p[1] == '\n' || p[1] == '\r')) {
			p += p[1] == '\r' && p + 2 < e && p[2] == '\n' ? 3 : 2;
			line++;
			continue;
		}
		if (c == '/' && p + 1 < e && p[1] == '/') {
			while (p < e && *p != '\n')
				p++;
			continue;
		}
		if (c == '/' && p + 1 < e && p[1] == '*') {
			const char *q = p + 2;
			while (q + 1 < e && !(q[0] == '*' && q[1] == '/'))
				line += *q++ == '\n';
			p = q + 1 < e ? q + 2 : e;
			continue;
		}
		if (c == '#' && bol) {
			/* the logical line; a definition is read from its first
			 * physical line (the rest of one continued is rare) */
			int l0 = line;
			const char *a = p, *first = NULL;
			while (p < e && *p != '\n') {
				if (*p == '\\' && p + 1 < e && (p[1] == '\n' || p[1] == '\r')) {
					if (!first)
						first = p;
					p += p[1] == '\r' && p + 2 < e && p[2] == '\n' ? 3 : 2;
					line++;
					continue;
				}
				if (*p == '/' && p + 1 < e && p[1] == '*') {
					const char *q = p + 2;
					while (q + 1 < e && !(q[0] == '*' && q[1] == '/'))
						line += *q++ == '\n';
					p = q + 1 < e ? q + 2 : e;
					continue;
				}
				p++;
			}
			directive(&x, a, first ? first : p, p, l0);
			continue;
		}
		bool b = bol;
		bol = false;
		if (id0(c)) {
			const char *a = p;
			while (p < e && idc(*p))
				p++;
			/* raw strings R"d(...)d" */
			if (p < e && *p == '"' && p - a <= 3 && p[-1] == 'R') {
				const char *d = p + 1, *q = d;
				while (q < e && *q != '(' && q - d < 16)
					q++;
				size_t dl = (size_t)(q - d);
				for (q++; q < e; q++) {
					line += *q == '\n';
					if (*q == ')' && (size_t)(e - q) > dl + 1 &&
					    memcmp(q + 1, d, dl) == 0 && q[1 + dl] == '"')
						break;
				}
				p = q < e ? q + dl + 2 : e;
				add_tok(&x, (size_t)(a - s), (size_t)(p - a), line, CT_STR, b);
				continue;
			}
			add_tok(&x, (size_t)(a - s), (size_t)(p - a), line, CT_ID, b);
			continue;
		}
		if (isdigit((unsigned char)c) || (c == '.' && p + 1 < e && isdigit((unsigned char)p[1]))) {
			const char *a = p;
			while (p < e && (idc(*p) || *p == '.' || *p == '\'' ||
			                 ((*p == '+' || *p == '-') && (p[-1] == 'e' || p[-1] == 'E' ||
			                                               p[-1] == 'p' || p[-1] == 'P'))))
				p++;
			add_tok(&x, (size_t)(a - s), (size_t)(p - a), line, CT_NUM, b);
			continue;
		}
		if (c == '"' || c == '\'') {
			const char *a = p++;
			int l0 = line;
			while (p < e && *p != c && *p != '\n') {
				if (*p == '\\' && p + 1 < e)
					p++;
				p++;
			}
			if (p < e && *p == c)
				p++;
			add_tok(&x, (size_t)(a - s), (size_t)(p - a), l0, c == '"' ? CT_STR : CT_CHR, b);
			continue;
		}
		int n = punct_len(p, e);
		add_tok(&x, (size_t)(p - s), (size_t)n, line, CT_PUNCT, b);
		p += n;
	}
}

/* ---- definitions in code: const, constexpr, enumerators ------------------------ */

bool ctok_is(const CText *t, int i, const char *s)
{
	size_t n = strlen(s);
	return i >= 0 && i < t->ntok && t->tok[i].len == n && memcmp(t->text + t->tok[i].off, s, n) == 0;
}

int ctok_close(const CText *t, int i)
{
	if (i < 0 || i >= t->ntok)
		return t->ntok;
	char open = t->text[t->tok[i].off];
	char close = open == '(' ? ')' : open == '[' ? ']' : open == '{' ? '}' : '>';
	int depth = 0;
	for (int j = i; j < t->ntok; j++) {
		if (t->tok[j].kind != CT_PUNCT)
			continue;
		char c = t->text[t->tok[j].off];
		if (t->tok[j].len == 1 && c == open)
			depth++;
		else if (t->tok[j].len == 1 && c == close && --depth == 0)
			return j + 1;
		else if (open == '<' && t->tok[j].len == 2 && ctok_is(t, j, ">>") && (depth -= 2) <= 0)
			return j + 1;
		else if (open == '<' && (c == ';' || c == '{' || c == '}'))
			return t->ntok;     /* no template argument list */
	}
	return t->ntok;
}

/* The value's tokens of a definition [a, b): its text. */
static void def_of_tokens(Lex *x, int name, int a, int b)
{
	CText *t = x->t;
	if (b <= a)
		return;
	size_t v = t->tok[a].off, ve = t->tok[b - 1].off + t->tok[b - 1].len;
	add_def(x, t->tok[name].off, t->tok[name].len, v, ve - v, t->tok[name].line, DEF_LIVE,
	        false);
}

static void code_defs(Lex *x)
{
	CText *t = x->t;
	for (int i = 0; i < t->ntok; i++) {
		if (ctok_is(t, i, "const") || ctok_is(t, i, "constexpr")) {
			/* up to the statement's end: NAME = VALUE, each declarator;
			 * not into a body ({ before any =) nor past the list it is
			 * in (a parameter's or a template's: ) or > at depth 0) */
			int j = i + 1, depth = 0;
			for (; j < t->ntok; j++) {
				const CTok *k = &t->tok[j];
				if (k->kind != CT_PUNCT)
					continue;
				char c = t->text[k->off];
				if (depth == 0 && k->len == 1 && (c == '{' || c == '>' || c == ')'))
					break;
				if (k->len == 1 && (c == '(' || c == '[' || c == '{'))
					depth++;
				else if (k->len == 1 && (c == ')' || c == ']' || c == '}')) {
					if (--depth < 0)
						break;
				} else if (k->len == 1 && c == ';' && depth == 0)
					break;
				else if (k->len == 1 && c == '=' && depth == 0 && j > i + 1 &&
				         t->tok[j - 1].kind == CT_ID) {
					int a = j + 1, b = a, d2 = 0;
					for (; b < t->ntok; b++) {
						char cb = t->text[t->tok[b].off];
						if (t->tok[b].kind != CT_PUNCT || t->tok[b].len != 1)
							continue;
						if (cb == '(' || cb == '[' || cb == '{')
							d2++;
						else if (cb == ')' || cb == ']' || cb == '}') {
							if (--d2 < 0)
								break;
						} else if ((cb == ';' || cb == ',') && d2 == 0)
							break;
					}
					def_of_tokens(x, j - 1, a, b);
					j = b - 1;
				}
			}
			i = j;
			continue;
		}
		if (ctok_is(t, i, "enum")) {
			int j = i + 1;
			while (j < t->ntok && !ctok_is(t, j, "{") && !ctok_is(t, j, ";"))
				j++;
			if (!ctok_is(t, j, "{"))
				continue;
			int end = ctok_close(t, j) - 1;
			for (int k = j + 1; k < end; k++)
				if (t->tok[k].kind == CT_ID && ctok_is(t, k + 1, "=")) {
					int a = k + 2, b = a, d2 = 0;
					for (; b < end; b++) {
						if (ctok_is(t, b, "(")) d2++;
						else if (ctok_is(t, b, ")")) d2--;
						else if (ctok_is(t, b, ",") && d2 == 0) break;
					}
					def_of_tokens(x, k, a, b);
					k = b;
				}
			i = end;
		}
	}
}

static uint32_t hash_name(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* Definitions by name: a chained hash kept as they are added (an #if's
 * condition reads the ones above it), doubled as it fills. */
static void hash_def(CText *t, int i)
{
	if (t->ndef + 1 > t->nbucket / 2) {
		int nb = t->nbucket ? t->nbucket * 2 : 64;
		free(t->bucket);
		t->bucket = xmalloc((size_t)nb * sizeof *t->bucket);
		t->nbucket = nb;
		for (int b = 0; b < nb; b++)
			t->bucket[b] = -1;
		t->next = xrealloc(t->next, (size_t)nb * sizeof *t->next);
		for (int k = 0; k < i; k++) {
			uint32_t h = hash_name(t->text + t->def[k].name, t->def[k].nlen) & (uint32_t)(nb - 1);
			t->next[k] = t->bucket[h];
			t->bucket[h] = k;
		}
	}
	uint32_t h = hash_name(t->text + t->def[i].name, t->def[i].nlen) & (uint32_t)(t->nbucket - 1);
	t->next[i] = t->bucket[h];
	t->bucket[h] = i;
}

/* ---- the files --------------------------------------------------------------------- */

void ctext_set_defined(const char *const *defs, int n)
{
	for (int i = 0; i < ndnames; i++)
		free(dnames[i].name);
	free(dnames);
	dnames = xcalloc((size_t)n + 1, sizeof *dnames);
	for (int i = 0; i < n; i++) {
		dnames[i].name = xstrdup(defs[i]);
		char *eq = strchr(dnames[i].name, '=');
		/* -D NAME is NAME=1, as the preprocessor takes it */
		dnames[i].value = eq ? (*eq = 0, eq + 1) : "1";
	}
	ndnames = n;
}

static void free_text(CText *t)
{
	if (!t)
		return;
	free(t->path);
	free(t->text);
	free(t->tok);
	free(t->def);
	free(t->bucket);
	free(t->next);
	for (int i = 0; i < t->nincl; i++)
		free(t->incl[i]);
	free(t->incl);
	for (int i = 0; i < t->nasm_macro; i++)
		free(t->asm_macro[i]);
	free(t->asm_macro);
	free(t);
}

const CText *ctext_get(const char *path)
{
	for (int i = 0; i < nfiles; i++)
		if (strcmp(files[i]->path, path) == 0)
			return files[i]->text ? files[i] : NULL;
	static unsigned ids;
	CText *t = xcalloc(1, sizeof *t);
	t->id = ++ids;
	t->path = xstrdup(path);
	t->text = scan_source_text(path);
	if (t->text) {
		t->len = strlen(t->text);
		lex(t);
		Lex x = {.t = t, .capdef = t->ndef};
		/* the definitions of code after the preprocessor's */
		code_defs(&x);
	}
	if (nfiles == MAX_FILES || file_bytes + t->len > MAX_FILE_BYTES) {
		free_text(t);
		return NULL;
	}
	file_bytes += t->len;
	files[nfiles++] = t;
	return t->text ? t : NULL;
}

void ctext_free_all(void)
{
	scan_steps = 0;
	for (int i = 0; i < nfiles; i++)
		free_text(files[i]);
	nfiles = 0;
	file_bytes = 0;
	ctext_set_defined(NULL, 0);
}

/* ---- evaluation ------------------------------------------------------------------------ */

int ctext_type_bytes(const char *t)
{
	static const struct { const char *name; int bytes; } ty[] = {
		{"float", 4}, {"int", 4}, {"unsigned", 4}, {"unsigned int", 4}, {"signed", 4},
		{"uint32_t", 4}, {"int32_t", 4}, {"double", 8}, {"half", 2}, {"__half", 2},
		{"__nv_bfloat16", 2}, {"nv_bfloat16", 2}, {"short", 2}, {"unsigned short", 2},
		{"uint16_t", 2}, {"int16_t", 2}, {"char", 1}, {"unsigned char", 1},
		{"signed char", 1}, {"uint8_t", 1}, {"int8_t", 1}, {"bool", 1}, {"long long", 8},
		{"unsigned long long", 8}, {"uint64_t", 8}, {"int64_t", 8}, {"long", 8},
		{"unsigned long", 8}, {"size_t", 8}, {"float2", 8}, {"float4", 16}, {"int2", 8},
		{"int4", 16}, {"uint2", 8}, {"uint4", 16}, {"half2", 4}, {"__half2", 4},
		{"__nv_bfloat162", 4}, {"nv_bfloat162", 4}, {"double2", 16}, {"char2", 2},
		{"char4", 4}, {"uchar4", 4}, {"short2", 4}, {"short4", 8}, {"ushort2", 4},
		{"ushort4", 8}, {"longlong2", 16}, {"ulonglong2", 16}, {"__nv_fp8_e4m3", 1},
		{"__nv_fp8_e5m2", 1}, {"float3", 12}, {"int3", 12}, {"uint3", 12},
	};
	while (strncmp(t, "const ", 6) == 0 || strncmp(t, "volatile ", 9) == 0)
		t = strchr(t, ' ') + 1;
	for (size_t i = 0; i < sizeof ty / sizeof *ty; i++)
		if (strcmp(t, ty[i].name) == 0)
			return ty[i].bytes;
	return 0;
}

typedef struct {
	const CText *t;
	const CBind *b;
	CChoice *ch;
	const char *p, *e;
	int depth;
	int *steps;
	bool ok;
} Ev;

static int64_t ev_cond(Ev *v);

static void ws(Ev *v)
{
	for (;;) {
		while (v->p < v->e && isspace((unsigned char)*v->p))
			v->p++;
		if (v->e - v->p >= 2 && v->p[0] == '/' && v->p[1] == '*') {
			const char *q = v->p + 2;
			while (q + 1 < v->e && !(q[0] == '*' && q[1] == '/'))
				q++;
			v->p = q + 1 < v->e ? q + 2 : v->e;
			continue;
		}
		if (v->e - v->p >= 2 && v->p[0] == '/' && v->p[1] == '/') {
			v->p = v->e;
			continue;
		}
		return;
	}
}

static bool eat(Ev *v, const char *op)
{
	ws(v);
	size_t n = strlen(op);
	if ((size_t)(v->e - v->p) < n || memcmp(v->p, op, n) != 0)
		return false;
	/* not the first half of a longer operator */
	if (n == 1 && v->p + 1 < v->e) {
		char a = v->p[0], b = v->p[1];
		if ((a == '<' || a == '>') && (b == a || b == '='))
			return false;
		if ((a == '&' || a == '|') && b == a)
			return false;
		if ((a == '=' || a == '!') && b == '=')
			return false;
	}
	v->p += n;
	return true;
}

static bool fail(Ev *v)
{
	v->ok = false;
	return false;
}

static bool step(Ev *v)
{
	if (++*v->steps > MAX_EVAL_STEPS || v->depth > MAX_EVAL_DEPTH ||
	    ++scan_steps > MAX_SCAN_STEPS)
		return fail(v);
	return v->ok;
}

/* sizeof(TYPE): the type's words as one string. */
static int64_t ev_sizeof(Ev *v)
{
	ws(v);
	bool par = eat(v, "(");
	char ty[64];
	size_t o = 0;
	ws(v);
	while (v->p < v->e && (idc(*v->p) || *v->p == ' ' || *v->p == ':')) {
		if (*v->p == ' ' && (o == 0 || ty[o - 1] == ' '))
			v->p++;
		else if (o + 1 < sizeof ty)
			ty[o++] = *v->p++;
		else
			return fail(v);
		if (!par && *v->p == ' ')
			break;
	}
	while (o && ty[o - 1] == ' ')
		o--;
	ty[o] = 0;
	if (par && !eat(v, ")"))
		return fail(v);
	int b = ctext_type_bytes(ty);
	for (int i = 0; v->b && !b && i < v->b->n; i++)
		if (strcmp(v->b->name[i], ty) == 0)
			b = v->b->bytes[i];
	if (!b)
		return fail(v);
	return b;
}

/* The file that defines NAME: t, else one it includes ("..."), depth
 * first, or NULL. */
static const CText *defining(const CText *t, const char *s, size_t n, int depth)
{
	if (!t || depth > MAX_INCLUDE_DEPTH)
		return NULL;
	if (t->nbucket)
		for (int i = t->bucket[hash_name(s, n) & (uint32_t)(t->nbucket - 1)]; i >= 0;
		     i = t->next[i])
			if (t->def[i].nlen == n && memcmp(t->text + t->def[i].name, s, n) == 0 &&
			    t->def[i].state != DEF_DEAD)
				return t;
	for (int i = 0; i < t->nincl; i++) {
		const CText *u = defining(ctext_get(t->incl[i]), s, n, depth + 1);
		if (u)
			return u;
	}
	return NULL;
}

/* A name: a binding, or a definition (one of several: the choice's). */
static int64_t ev_name(Ev *v, const char *s, size_t n)
{
	for (int i = 0; v->b && i < v->b->n; i++)
		if (strlen(v->b->name[i]) == n && memcmp(v->b->name[i], s, n) == 0 &&
		    !v->b->bytes[i])
			return v->b->value[i];
	for (int i = 0; i < ndnames; i++)
		if (strlen(dnames[i].name) == n && memcmp(dnames[i].name, s, n) == 0) {
			Ev sub = {v->t, v->b, v->ch, dnames[i].value, dnames[i].value +
			          strlen(dnames[i].value), v->depth + 1, v->steps, true};
			int64_t x = ev_cond(&sub);
			ws(&sub);
			if (!sub.ok || sub.p != sub.e)
				return fail(v);
			return x;
		}
	const CText *t = defining(v->t, s, n, 0);
	if (!t)
		return fail(v);
	uint32_t h = hash_name(s, n) & (uint32_t)(t->nbucket - 1);
	int cand[16], nc = 0;
	for (int i = t->bucket[h]; i >= 0; i = t->next[i]) {
		const CDef *d = &t->def[i];
		if (d->nlen != n || memcmp(t->text + d->name, s, n) != 0 || d->state == DEF_DEAD)
			continue;
		/* the same text twice (a guard's #ifndef N / #define N) is one */
		bool dup = false;
		for (int k = 0; k < nc && !dup; k++) {
			const CDef *e = &t->def[cand[k]];
			dup = e->vlen == d->vlen && memcmp(t->text + e->val, t->text + d->val, d->vlen) == 0;
		}
		if (!dup && nc < 16)
			cand[nc++] = i;
	}
	if (!nc)
		return fail(v);
	int pick = 0;
	if (nc > 1) {
		CChoice *c = v->ch;
		int k = 0;
		while (k < c->n && !(c->nlen[k] == (int)n && memcmp(c->name[k], s, n) == 0))
			k++;
		if (k == c->n) {
			if (c->n == 8) {
				c->overflow = true;
				return fail(v);
			}
			c->name[k] = s;
			c->nlen[k] = (int)n;
			c->pick[k] = 0;
			c->arity[k] = nc;
			c->n++;
		}
		pick = c->pick[k] < nc ? c->pick[k] : 0;
	}
	const CDef *d = &t->def[cand[pick]];
	Ev sub = {t, v->b, v->ch, t->text + d->val, t->text + d->val + d->vlen, v->depth + 1,
	          v->steps, true};
	int64_t x = ev_cond(&sub);
	ws(&sub);
	if (!sub.ok || sub.p != sub.e)
		return fail(v);
	return x;
}

static int64_t ev_unary(Ev *v)
{
	if (!step(v))
		return 0;
	ws(v);
	if (eat(v, "(")) {
		v->depth++;
		int64_t x = ev_cond(v);
		v->depth--;
		if (!eat(v, ")"))
			return fail(v);
		return x;
	}
	if (eat(v, "-"))
		return -ev_unary(v);
	if (eat(v, "+"))
		return ev_unary(v);
	if (eat(v, "~"))
		return ~ev_unary(v);
	if (eat(v, "!"))
		return !ev_unary(v);
	if (v->p < v->e && isdigit((unsigned char)*v->p)) {
		char buf[64];
		size_t o = 0;
		while (v->p < v->e && (idc(*v->p) || *v->p == '\'')) {
			if (*v->p != '\'' && o + 1 < sizeof buf)
				buf[o++] = *v->p;
			v->p++;
		}
		buf[o] = 0;
		char *end;
		int base = 10;
		const char *digits = buf;
		if (buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B'))
			base = 2, digits += 2;
		unsigned long long x = strtoull(digits, &end, base == 2 ? 2 : 0);
		while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
			end++;
		if (*end || x > (1ull << 40))
			return fail(v);
		return (int64_t)x;
	}
	if (v->p < v->e && id0(*v->p)) {
		const char *s = v->p;
		while (v->p < v->e && idc(*v->p))
			v->p++;
		size_t n = (size_t)(v->p - s);
		if (n == 6 && memcmp(s, "sizeof", 6) == 0)
			return ev_sizeof(v);
		v->depth++;
		int64_t x = ev_name(v, s, n);
		v->depth--;
		return x;
	}
	return fail(v);
}

/* Binary operators by C's precedence, lowest last. */
static int64_t ev_binary(Ev *v, int level)
{
	static const char *const ops[][4] = {
		{"*", "/", "%", NULL}, {"+", "-", NULL}, {"<<", ">>", NULL},
		{"<=", ">=", "<", ">"}, {"==", "!=", NULL}, {"&", NULL}, {"^", NULL}, {"|", NULL},
		{"&&", NULL}, {"||", NULL},
	};
	if (level < 0)
		return ev_unary(v);
	int64_t x = ev_binary(v, level - 1);
	for (;;) {
		if (!v->ok || !step(v))
			return 0;
		int k = -1;
		for (int i = 0; i < 4 && ops[level][i] && k < 0; i++)
			if (eat(v, ops[level][i]))
				k = i;
		if (k < 0)
			return x;
		int64_t y = ev_binary(v, level - 1);
		if (!v->ok)
			return 0;
		const char *op = ops[level][k];
		if (llabs(x) > (1LL << 40) || llabs(y) > (1LL << 40))
			return fail(v);
		switch (op[0]) {
		case '*': x *= y; break;
		case '/': case '%':
			if (!y)
				return fail(v);
			x = op[0] == '/' ? x / y : x % y;
			break;
		case '+': x += y; break;
		case '-': x -= y; break;
		case '<':
			if (op[1] == '<') {
				if (y < 0 || y > 40)
					return fail(v);
				x <<= y;
			} else
				x = op[1] == '=' ? x <= y : x < y;
			break;
		case '>':
			if (op[1] == '>') {
				if (y < 0 || y > 63)
					return fail(v);
				x >>= y;
			} else
				x = op[1] == '=' ? x >= y : x > y;
			break;
		case '=': x = x == y; break;
		case '!': x = x != y; break;
		case '&': x = op[1] ? x && y : x & y; break;
		case '^': x ^= y; break;
		case '|': x = op[1] ? x || y : x | y; break;
		}
	}
}

static int64_t ev_cond(Ev *v)
{
	int64_t c = ev_binary(v, 9);
	if (!v->ok || !eat(v, "?"))
		return c;
	int64_t a = ev_cond(v);
	if (!eat(v, ":"))
		return fail(v);
	int64_t b = ev_cond(v);
	return c ? a : b;
}

bool ctext_eval(const CText *t, const char *s, size_t n, const CBind *b, CChoice *ch,
                int64_t *out)
{
	int steps = 0;
	Ev v = {t, b, ch, s, s + n, 0, &steps, true};
	int64_t x = ev_cond(&v);
	ws(&v);
	if (!v.ok || v.p != v.e)
		return false;
	*out = x;
	return true;
}

bool ctext_asm_macro(const CText *t, const char *s, size_t n, int depth)
{
	if (!t || depth > MAX_INCLUDE_DEPTH)
		return false;
	for (int i = 0; i < t->nasm_macro; i++)
		if (strlen(t->asm_macro[i]) == n && memcmp(t->asm_macro[i], s, n) == 0)
			return true;
	for (int i = 0; i < t->nincl; i++)
		if (ctext_asm_macro(ctext_get(t->incl[i]), s, n, depth + 1))
			return true;
	return false;
}
