/* Unit tests of compiler/base/textwrap.c: a line broken at its spaces to
 * fit a width (text_wrap, text_wrapf). */
#include "testutil.h"

/* text_wrap's output as a string, malloc'ed */
static char *wrapped(const char *text, int col, int width, int indent)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = xmemstream(&buf, &len);
	text_wrap(m, text, col, width, indent);
	fclose(m);
	return buf;
}

/* One case: text_wrap(text, col, width, indent) must print want. */
typedef struct {
	const char *text;
	int col, width, indent;
	const char *want;
} Case;

static void run_cases(const Case *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *got = wrapped(c[i].text, c[i].col, c[i].width, c[i].indent);
		assert_string_equal(got, c[i].want);
		free(got);
	}
}

#define RUN(cases) run_cases(cases, sizeof cases / sizeof *cases)

static void test_fits(void **state)
{
	(void)state;
	static const Case c[] = {
		{"one two three", 0, 13, 2, "one two three\n"},
		{"", 0, 10, 2, "\n"},
	};
	RUN(c);
}

static void test_breaks(void **state)
{
	(void)state;
	static const Case c[] = {
		/* each line ends by the width; the others start after indent */
		{"one two three four", 0, 9, 2, "one two\n  three\n  four\n"},
		/* the first line starts at col */
		{"one two three", 6, 12, 6, "one\n      two\n      three\n"},
		/* runs of spaces at a break vanish */
		{"ab   cd", 0, 3, 0, "ab\ncd\n"},
	};
	RUN(c);
}

static void test_long_word(void **state)
{
	(void)state;
	static const Case c[] = {
		/* a word wider than the room is kept whole, on a line of its own */
		{"a verylongword b", 0, 5, 1, "a\n verylongword\n b\n"},
		{"verylongword", 4, 5, 1, "verylongword\n"},
	};
	RUN(c);
}

static void test_brackets(void **state)
{
	(void)state;
	static const Case c[] = {
		/* a [bracketed group] stays on one line */
		{"scan F [--param N=V] [--json]", 0, 16, 4,
		 "scan F\n    [--param N=V]\n    [--json]\n"},
		{"[a b c d]", 0, 4, 0, "[a b c d]\n"},
	};
	RUN(c);
}

static void test_edges(void **state)
{
	(void)state;
	static const Case c[] = {
		/* leading spaces are no break: the first word stays after them */
		{"  longword rest", 0, 6, 1, "  longword\n rest\n"},
		/* only spaces: nothing but the line's end */
		{"   ", 0, 2, 0, "\n"},
		/* col past the width: a word a line */
		{"a b", 9, 5, 0, "a\nb\n"},
		/* a bracket never closed: its spaces break after all */
		{"x [y z w", 0, 4, 0, "x [y\nz w\n"},
		/* a closed group wider than the room: whole, on a line of its own */
		{"a [b c d e] f", 0, 4, 0, "a\n[b c d e]\nf\n"},
	};
	RUN(c);
}

static void test_format(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *m = xmemstream(&buf, &len);
	text_wrapf(m, 0, 8, 2, "%d of %s", 12, "many units");
	fclose(m);
	assert_string_equal(buf, "12 of\n  many\n  units\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fits),
		cmocka_unit_test(test_breaks),
		cmocka_unit_test(test_long_word),
		cmocka_unit_test(test_brackets),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_format),
	};
	return cmocka_run_group_tests_name("textwrap", tests, NULL, NULL);
}
