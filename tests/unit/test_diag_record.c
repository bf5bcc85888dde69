/* Unit tests of compiler/base/diag_record.c: byte columns as code points
 * (what the --sarif log says), and a record's part of its fingerprint,
 * which the line's text and key make, not its line number (the log adds
 * the rule and the file's URI: emit/sarif.c). */
#include "testutil.h"

static void test_cp_col(void **state)
{
	(void)state;
	const char *ascii = "\tint x = y;";
	assert_int_equal(diag_cp_col(ascii, strlen(ascii), 1), 1);
	assert_int_equal(diag_cp_col(ascii, strlen(ascii), 6), 6);
	const char *u8 = "/* \xc3\xa9\xe2\x82\xac */ x";      /* e-acute, euro: 2 + 3 bytes */
	assert_int_equal(diag_cp_col(u8, strlen(u8), 13), 10);
	/* a malformed byte counts one, as its U+FFFD */
	const char *bad = "a\xff\xfe" "b";
	assert_int_equal(diag_cp_col(bad, strlen(bad), 4), 4);
	/* a cut sequence at the column: its bytes one each */
	assert_int_equal(diag_cp_col("\xe2\x82\xac" "x", 4, 3), 3);
	/* past the line's end: bytes as they are */
	assert_int_equal(diag_cp_col("\xc3\xa9", 2, 5), 4);
}

static void test_fingerprint(void **state)
{
	(void)state;
	diag_options.record = true;
	int a = diag_log(DK_WARNING, "bank-conflict", "k.cu", 17, 3, "m");
	diag_record_about(a, "\t\tx = t[i];", 11, "tile");
	int b = diag_log(DK_WARNING, "bank-conflict", "k.cu", 40, 5, "other words");
	diag_record_about(b, "    x = t[i];  ", 15, "tile");
	int c = diag_log(DK_WARNING, "bank-conflict", "k.cu", 17, 3, "m");
	diag_record_about(c, "\t\tx = t[i];", 11, "other");
	int d = diag_log(DK_WARNING, "bank-conflict", "j.cu", 17, 3, "m");
	diag_record_about(d, "\t\tx = t[i];", 11, "tile");
	int n;
	const DiagRecord *r = diag_records(&n);
	assert_int_equal(n, 4);
	assert_true(r[a].hash == r[b].hash);    /* moved and re-indented: the same */
	assert_true(r[a].hash != r[c].hash);    /* another array */
	assert_true(r[a].hash == r[d].hash);    /* the file: the log's part */
	assert_int_equal(r[a].at.cp_col, 3);
	diag_records_free();
	diag_options.record = false;
	assert_int_equal(diag_log(DK_ERROR, "spec-error", "x", 1, 1, "m"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cp_col),
		cmocka_unit_test(test_fingerprint),
	};
	return cmocka_run_group_tests_name("diag_record", tests, NULL, NULL);
}
