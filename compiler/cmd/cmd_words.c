/* bankc words: every word of the spec language, one "CLASS WORD" a line.
 * A hidden command, not in --help: tests/run_docs.sh checks with it that
 * the man page, the language reference, documents each word, so that a
 * word added to the language must be documented for `make check` to pass.
 *
 * The words come from where the program itself keeps them, never from a
 * second list: element types and architectures from their tables, the
 * operations from tab_op_name over every Op that tab_parse_op reads back,
 * and the parser's words (keys, transforms, statements, ...) from its own
 * diagnostics, by feeding it a word it cannot know at each place and
 * reading the choices its error lists. */
#include <stdlib.h>
#include <string.h>

#include "bankc.h"
#include "cmd/cmd.h"

/* A name no list holds, and too far from every word for a hint. */
#define ALIEN "qqqqqqqqqqqq"

/* The first line of the diagnostic the front end gives for text. */
static void diagnose(const char *text, char *line, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = xmemstream(&buf, &len);
	Pool *p = pool_new();
	Src src = {"<words>", text, strlen(text)};
	Unit u;
	frontend_run(p, m, &src, &u);
	fclose(m);
	pool_free(p);
	size_t k = strcspn(buf, "\n");
	snprintf(line, n, "%.*s", (int)k, buf);
	free(buf);
}

static bool word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.';
}

/* Print each word of a choice list as CLASS WORD: the list after
 * "(expected " in "unknown X 'y' (expected a, b or c)", or the quoted
 * words of "expected 'a', 'b' or 'c' [after 'd'], found ...". */
static void choices(const char *cls, const char *text)
{
	char line[1024];
	diagnose(text, line, sizeof line);
	const char *s = strstr(line, "(expected ");
	if (s) {
		s += strlen("(expected ");
		while (*s && *s != ')') {
			const char *w = s;
			while (word_char(*s))
				s++;
			if (s > w && !(s - w == 2 && memcmp(w, "or", 2) == 0))
				printf("%s %.*s\n", cls, (int)(s - w), w);
			while (*s && *s != ')' && !word_char(*s))
				s++;
		}
		return;
	}
	s = strstr(line, "expected ");
	const char *end = s ? strstr(s, ", found") : NULL;
	const char *after = s ? strstr(s, " after ") : NULL;
	if (after && end && after < end)
		end = after;
	if (!s || !end) {
		fprintf(stderr, "bankc: words: no choices for %s in: %s\n", cls, line);
		exit(1);
	}
	for (const char *q = s; (q = memchr(q, '\'', (size_t)(end - q))); ) {
		const char *w = ++q;
		while (q < end && *q != '\'')
			q++;
		bool word = q > w;
		for (const char *c = w; c < q; c++)
			word = word && word_char(*c);
		if (word)
			printf("%s %.*s\n", cls, (int)(q - w), w);
		q++;
	}
}

/* Every spelling tab_op_name gives that tab_parse_op reads back as the
 * same operation: the kinds, with each matrix shape, count and .trans. */
static void operations(void)
{
	static const int nmats[] = {0, 1, 2, 4};
	char seen[128][32];
	int nseen = 0;
	for (int kind = 0; kind <= OP_UMMA; kind++)
		for (int m = 0; m < 4 * AOP_COUNT * 2 * 4; m++)
			for (int tr = 0; tr < 2; tr++) {
				Op op = {.kind = (OpKind)kind, .nmat = nmats[m % 4],
				         .trans = tr, .aop = (AtomOp)(m / 4 % AOP_COUNT),
				         .red = m / 4 / AOP_COUNT % 2, .mma_b = tr,
				         .shape = (MatShape)(m / 8 / AOP_COUNT)}, back;
				char name[32] = "";
				tab_op_name(op, name, sizeof name);
				if (!name[0] || !tab_parse_op(name, strlen(name), &back) ||
				    back.kind != op.kind)
					continue;
				char again[32] = "";
				tab_op_name(back, again, sizeof again);
				bool dup = strcmp(again, name) != 0;
				for (int i = 0; i < nseen && !dup; i++)
					dup = strcmp(seen[i], name) == 0;
				if (dup || nseen == 128)
					continue;
				snprintf(seen[nseen++], sizeof seen[0], "%s", name);
				printf("operation %s\n", name);
			}
}

/* Arguments, if any, are ignored: nobody types this command. */
int cmd_words(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	choices("key", "tile t { " ALIEN " 1; }");
	for (int i = 0; i < DT_COUNT; i++)
		printf("dtype %s\n", tab_dtype[i].name);
	for (int i = 0; i < ARCH_COUNT; i++)
		printf("arch %s\n", tab_arch[i].name);
	choices("transform", "tile t { allow " ALIEN "; }");
	choices("tma", "tile t { tma " ALIEN "; }");
	choices("budget-unit", "tile t { budget 1 " ALIEN "; }");
	operations();
	choices("access-option", "tile t { access a: load " ALIEN "; }");
	choices("placement", "tile t { access a: load along " ALIEN "; }");
	choices("statement", "tile t { access a: load { " ALIEN " = 1; } }");
	return 0;
}
