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

static void expect(const char *text, int col, int width, int indent,
                   const char *want)
{
	char *got = wrapped(text, col, width, indent);
	assert_string_equal(got, want);
	free(got);
}

static void test_fits(void **state)
{
	(void)state;
	expect("one two three", 0, 13, 2, "one two three\n");
	expect("", 0, 10, 2, "\n");
}

static void test_breaks(void **state)
{
	(void)state;
	/* each line ends by the width; the others start after indent spaces */
	expect("one two three four", 0, 9, 2, "one two\n  three\n  four\n");
	/* the first line starts at col */
	expect("one two three", 6, 12, 6, "one\n      two\n      three\n");
	/* runs of spaces at a break vanish */
	expect("ab   cd", 0, 3, 0, "ab\ncd\n");
}

static void test_long_word(void **state)
{
	(void)state;
	/* a word wider than the room is kept whole, on a line of its own */
	expect("a verylongword b", 0, 5, 1, "a\n verylongword\n b\n");
	expect("verylongword", 4, 5, 1, "verylongword\n");
}

static void test_brackets(void **state)
{
	(void)state;
	/* a [bracketed group] stays on one line */
	expect("scan F [--param N=V] [--json]", 0, 16, 4,
	       "scan F\n    [--param N=V]\n    [--json]\n");
	expect("[a b c d]", 0, 4, 0, "[a b c d]\n");
}

static void test_edges(void **state)
{
	(void)state;
	/* leading spaces are no break: the first word stays after them */
	expect("  longword rest", 0, 6, 1, "  longword\n rest\n");
	/* only spaces: nothing but the line's end */
	expect("   ", 0, 2, 0, "\n");
	/* col past the width: a word a line */
	expect("a b", 9, 5, 0, "a\nb\n");
	/* a bracket never closed: its spaces break after all */
	expect("x [y z w", 0, 4, 0, "x [y\nz w\n");
	/* a closed group wider than the room: whole, on a line of its own */
	expect("a [b c d e] f", 0, 4, 0, "a\n[b c d e]\nf\n");
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
