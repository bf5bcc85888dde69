/* A kernel's name as its source wrote it, template arguments included:
 * "column<1>" for _Z6columnILi1EEvPf, "ns::tile<32, float, true>" for
 * _ZN2ns4tileILi32EfLb1EEEvv.  The Itanium C++ ABI's mangling, the part
 * before the parameter types: nested and std:: names, template
 * arguments that are integers, bools, builtin types, class types (with
 * their own arguments), pointers, references, const, argument packs, and
 * substitutions (S_, S0_...) of what came before.
 *
 * Bounded and careful: it reads no byte past the name's end, recurses at
 * most MAX_DEPTH deep, keeps at most MAX_SUBS substitutions, and anything
 * it does not know (an expression, a lambda, a name too long) makes it
 * give the plain name (ptx_short_name) instead: never a wrong name. */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"

enum { MAX_DEPTH = 32, MAX_SUBS = 64, OUT = 1024 };

typedef struct {
	const char *p, *end;
	bool bad;
	int depth;
	char subs[MAX_SUBS][OUT];   /* what each substitution stands for */
	int nsubs;
} Dm;

/* text appended to out (of OUT bytes), bad when it does not fit */
static void put(Dm *d, char *out, const char *s, size_t n)
{
	size_t o = strlen(out);
	if (o + n + 1 > OUT) {
		d->bad = true;
		return;
	}
	memcpy(out + o, s, n);
	out[o + n] = 0;
}

static void puts_(Dm *d, char *out, const char *s)
{
	put(d, out, s, strlen(s));
}

static bool peek(const Dm *d, char c)
{
	return !d->bad && d->p < d->end && *d->p == c;
}

static bool eat(Dm *d, char c)
{
	if (!peek(d, c))
		return false;
	d->p++;
	return true;
}

static void add_sub(Dm *d, const char *s)
{
	if (d->nsubs < MAX_SUBS)
		strcpy(d->subs[d->nsubs++], s);
}

/* <number>, at most 9 digits */
static long number(Dm *d)
{
	long v = 0;
	int k = 0;
	while (d->p < d->end && *d->p >= '0' && *d->p <= '9' && k < 9) {
		v = v * 10 + (*d->p++ - '0');
		k++;
	}
	if (k == 0 || (d->p < d->end && *d->p >= '0' && *d->p <= '9'))
		d->bad = true;
	return v;
}

/* <source-name> ::= <length> <identifier> */
static void source_name(Dm *d, char *out)
{
	long n = number(d);
	if (d->bad || n <= 0 || n > d->end - d->p) {
		d->bad = true;
		return;
	}
	put(d, out, d->p, (size_t)n);
	d->p += n;
}

static const char *builtin(char c)
{
	switch (c) {
	case 'v': return "void"; case 'b': return "bool"; case 'c': return "char";
	case 'a': return "signed char"; case 'h': return "unsigned char";
	case 's': return "short"; case 't': return "unsigned short";
	case 'i': return "int"; case 'j': return "unsigned int";
	case 'l': return "long"; case 'm': return "unsigned long";
	case 'x': return "long long"; case 'y': return "unsigned long long";
	case 'n': return "__int128"; case 'o': return "unsigned __int128";
	case 'f': return "float"; case 'd': return "double";
	case 'e': return "long double"; case 'w': return "wchar_t";
	default: return NULL;
	}
}

static void type(Dm *d, char *out);
static void template_args(Dm *d, char *out);

/* S_ | S <seq-id> _ | St <name> | Sa, Sb, Ss, Si, So, Sd */
static void substitution(Dm *d, char *out)
{
	static const struct { char c; const char *s; } abbr[] = {
		{'a', "std::allocator"}, {'b', "std::basic_string"},
		{'s', "std::string"}, {'i', "std::istream"}, {'o', "std::ostream"},
		{'d', "std::iostream"},
	};
	d->p++;     /* S */
	if (d->p >= d->end) {
		d->bad = true;
		return;
	}
	for (size_t i = 0; i < sizeof abbr / sizeof abbr[0]; i++)
		if (*d->p == abbr[i].c) {
			d->p++;
			puts_(d, out, abbr[i].s);
			return;
		}
	long k = 0;
	if (*d->p != '_') {
		/* base 36, digits then capitals */
		int n = 0;
		while (d->p < d->end && *d->p != '_' && n < 4) {
			char c = *d->p++;
			if (c >= '0' && c <= '9')
				k = k * 36 + (c - '0');
			else if (c >= 'A' && c <= 'Z')
				k = k * 36 + (c - 'A' + 10);
			else {
				d->bad = true;
				return;
			}
			n++;
		}
		k++;
	}
	if (!eat(d, '_') || k >= d->nsubs) {
		d->bad = true;
		return;
	}
	puts_(d, out, d->subs[k]);
}

/* a name: <source-name> [I args E], N ... E, St ..., or a substitution */
static void name(Dm *d, char *out)
{
	if (++d->depth > MAX_DEPTH)
		d->bad = true;
	if (eat(d, 'N')) {
		while (eat(d, 'K') || eat(d, 'V') || eat(d, 'r'))
			;
		char acc[OUT] = "";
		bool first = true;
		while (!d->bad && !peek(d, 'E')) {
			if (d->p >= d->end) {
				d->bad = true;
				break;
			}
			/* a substitution names a candidate already there */
			bool sub = peek(d, 'S') && !(d->p + 1 < d->end && d->p[1] == 't');
			if (peek(d, 'I')) {
				template_args(d, acc);
			} else {
				if (!first)
					puts_(d, acc, "::");
				if (peek(d, 'S') && d->p + 1 < d->end && d->p[1] == 't') {
					d->p += 2;
					puts_(d, acc, "std::");
					source_name(d, acc);
				} else if (peek(d, 'S')) {
					substitution(d, acc);
				} else {
					source_name(d, acc);
				}
			}
			first = false;
			/* each prefix but the whole name may be substituted later */
			if (!d->bad && !peek(d, 'E') && !sub)
				add_sub(d, acc);
		}
		eat(d, 'E');
		puts_(d, out, acc);
	} else if (peek(d, 'S') && d->p + 1 < d->end && d->p[1] == 't') {
		d->p += 2;
		char acc[OUT] = "std::";
		source_name(d, acc);
		puts_(d, out, acc);
	} else if (peek(d, 'S')) {
		substitution(d, out);
	} else if (d->p < d->end && *d->p >= '1' && *d->p <= '9') {
		source_name(d, out);
	} else {
		d->bad = true;
	}
	d->depth--;
}

static void type(Dm *d, char *out)
{
	if (d->bad || d->p >= d->end || ++d->depth > MAX_DEPTH) {
		d->bad = true;
		return;
	}
	char c = *d->p;
	char t[OUT] = "";
	const char *b = builtin(c);
	if (b) {
		d->p++;
		puts_(d, out, b);
		d->depth--;
		return;
	}
	if (c == 'P' || c == 'R' || c == 'O' || c == 'K' || c == 'V') {
		d->p++;
		type(d, t);
		if (c == 'K' || c == 'V')
			puts_(d, t, c == 'K' ? " const" : " volatile");
		else
			puts_(d, t, c == 'P' ? "*" : c == 'R' ? "&" : "&&");
	} else if (c == 'D' && d->p + 1 < d->end && (d->p[1] == 'h' || d->p[1] == 'n')) {
		puts_(d, out, d->p[1] == 'h' ? "half" : "decltype(nullptr)");
		d->p += 2;
		d->depth--;
		return;
	} else {
		bool sub = c == 'S' && !(d->p + 1 < d->end && d->p[1] == 't');
		name(d, t);
		if (peek(d, 'I')) {
			if (!sub)
				add_sub(d, t);
			template_args(d, t);
			sub = false;    /* the template-id is new */
		}
		if (sub) {
			puts_(d, out, t);   /* a candidate already */
			d->depth--;
			return;
		}
	}
	add_sub(d, t);
	puts_(d, out, t);
	d->depth--;
}

/* L <type> [n] <number> E: an integer or bool argument */
/* A literal's value: an optional 'n' (negative), its decimal digits (1
 * to 20) and the closing 'E'; false, with d bad, where they are not. */
static bool literal_value(Dm *d, bool *neg, const char **digits, size_t *nd)
{
	*neg = eat(d, 'n');
	*digits = d->p;
	while (d->p < d->end && *d->p >= '0' && *d->p <= '9')
		d->p++;
	*nd = (size_t)(d->p - *digits);
	if (*nd == 0 || *nd > 20 || !eat(d, 'E')) {
		d->bad = true;
		return false;
	}
	return true;
}

static void literal(Dm *d, char *out)
{
	d->p++;     /* L */
	if (d->end - d->p > 2 && d->p[0] == '_' && d->p[1] == 'Z') {
		/* L _Z <encoding> E: a function's address, "&f" */
		d->p += 2;
		char f[OUT] = "", scratch[OUT];
		bool nested = peek(d, 'N');
		name(d, f);
		if (!nested && peek(d, 'I')) {
			add_sub(d, f);
			template_args(d, f);
		}
		while (!d->bad && !peek(d, 'E')) {
			scratch[0] = 0;
			type(d, scratch);   /* its parameters: read, not shown */
		}
		if (!eat(d, 'E'))
			d->bad = true;
		puts_(d, out, "&");
		puts_(d, out, f);
		return;
	}
	if (d->p < d->end && !builtin(*d->p) && (*d->p == 'N' || (*d->p >= '1' && *d->p <= '9'))) {
		/* an enumerator: "(Order)0" */
		char t[OUT] = "";
		type(d, t);
		bool neg;
		const char *digits;
		size_t nd;
		if (!literal_value(d, &neg, &digits, &nd))
			return;
		puts_(d, out, "(");
		puts_(d, out, t);
		puts_(d, out, neg ? ")-" : ")");
		put(d, out, digits, nd);
		return;
	}
	if (d->p >= d->end || !builtin(*d->p)) {
		d->bad = true;
		return;
	}
	char c = *d->p++;
	bool neg;
	const char *digits;
	size_t nd;
	if (!literal_value(d, &neg, &digits, &nd))
		return;
	if (c == 'b') {
		puts_(d, out, nd == 1 && digits[0] == '1' ? "true" : "false");
		return;
	}
	static const struct { char c; const char *suffix; } suf[] = {
		{'i', ""}, {'j', "u"}, {'l', "l"}, {'m', "ul"}, {'x', "ll"}, {'y', "ull"},
	};
	const char *s = NULL;
	for (size_t i = 0; i < sizeof suf / sizeof suf[0]; i++)
		if (suf[i].c == c)
			s = suf[i].suffix;
	if (!s) {
		puts_(d, out, "(");
		puts_(d, out, builtin(c));
		puts_(d, out, ")");
	}
	if (neg)
		puts_(d, out, "-");
	put(d, out, digits, nd);
	if (s)
		puts_(d, out, s);
}

/* I <arg>+ E, an arg a type, a literal, or a pack J <arg>* E */
static void args_until_e(Dm *d, char *out, bool *first)
{
	while (!d->bad && !peek(d, 'E')) {
		if (d->p >= d->end || ++d->depth > MAX_DEPTH) {
			d->bad = true;
			return;
		}
		if (eat(d, 'J')) {
			args_until_e(d, out, first);
			eat(d, 'E');
			d->depth--;
			continue;
		}
		if (!*first)
			puts_(d, out, ", ");
		*first = false;
		if (peek(d, 'X')) {
			/* of expressions, only X ad L_Z...E E: a function's address */
			if (d->end - d->p < 4 || memcmp(d->p, "XadL", 4) != 0) {
				d->bad = true;
				return;
			}
			d->p += 3;
			literal(d, out);
			if (!eat(d, 'E'))
				d->bad = true;
		} else if (peek(d, 'L'))
			literal(d, out);
		else
			type(d, out);
		d->depth--;
	}
}

static void template_args(Dm *d, char *out)
{
	d->p++;     /* I */
	puts_(d, out, "<");
	bool first = true;
	args_until_e(d, out, &first);
	if (!eat(d, 'E'))
		d->bad = true;
	puts_(d, out, ">");
}

void ptx_kernel_name(const char *mangled, char *buf, size_t n)
{
	snprintf(buf, n, "%s", mangled);
	if (strncmp(mangled, "_Z", 2) != 0)
		return;
	Dm *d = xcalloc(1, sizeof *d);   /* 64 KiB of substitutions */
	d->p = mangled + 2;
	d->end = mangled + strlen(mangled);
	char out[OUT] = "";
	bool nested = peek(d, 'N');
	name(d, out);
	/* an unscoped template name: its arguments follow */
	if (!nested && peek(d, 'I')) {
		add_sub(d, out);
		template_args(d, out);
	}
	if (d->bad || !out[0])
		ptx_short_name(mangled, buf, n);
	else
		snprintf(buf, n, "%s", out);
	free(d);
}

/* Names equal but for spaces ("a<b<c> >" and "a<b<c>>", "1,2" and "1, 2"). */
bool ptx_name_matches(const char *a, const char *b)
{
	for (;;) {
		while (*a == ' ')
			a++;
		while (*b == ' ')
			b++;
		if (*a != *b)
			return false;
		if (!*a)
			return true;
		a++;
		b++;
	}
}
