/* Unit tests of compiler/base/escape.c: user text inside generated files
 * (esc_text, esc_decode) and in JSON (esc_utf8). */
#include "testutil.h"

static char *text(const char *s)
{
	char *e = esc_text_dup(s);
	return e;
}

static void test_text(void **state)
{
	(void)state;
	char *e = text("x*/int injected = 1;/*");
	assert_string_equal(e, "x*\\x2fint injected = 1;\\x2f*");
	free(e);
	e = text("a\nb\tc\\d\377/e");
	assert_string_equal(e, "a\\x0ab\\x09c\\x5cd\\xff/e");
	free(e);
	e = text("plain/path.tile");
	assert_string_equal(e, "plain/path.tile");
	free(e);
}

static void test_round_trip(void **state)
{
	(void)state;
	const char *v[] = {"x*/y/*z", "a\tb\nc", "back\\slash\\x41", "\001\377", ""};
	for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
		char *e = text(v[i]);
		assert_null(strchr(e, '\n'));
		assert_null(strchr(e, '\t'));
		assert_null(strstr(e, "*/"));
		assert_null(strstr(e, "/*"));
		char *d = esc_decode(e);
		assert_non_null(d);
		assert_string_equal(d, v[i]);
		free(d);
		free(e);
	}
	/* what esc_text never writes does not decode */
	assert_null(esc_decode("a\\qb"));
	assert_null(esc_decode("a\\x0"));
	assert_null(esc_decode("a\\x00"));
}

static void test_utf8(void **state)
{
	(void)state;
	char *u = esc_utf8("caf\xc3\xa9 l\xff x\xe2\x82");
	assert_string_equal(u, "caf\xc3\xa9 l\xef\xbf\xbd x\xef\xbf\xbd\xef\xbf\xbd");
	free(u);
	u = esc_utf8("\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80");   /* overlong, surrogate, > U+10FFFF */
	assert_null(strstr(u, "\xc0"));
	assert_null(strstr(u, "\xed\xa0"));
	assert_null(strstr(u, "\xf4\x90"));
	free(u);
	u = esc_utf8("\xf0\x9f\x98\x80");
	assert_string_equal(u, "\xf0\x9f\x98\x80");
	free(u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_utf8),
	};
	return cmocka_run_group_tests_name("escape", tests, NULL, NULL);
}
