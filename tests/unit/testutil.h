/* Helpers shared by the unit tests: run the front end over a string and
 * keep its diagnostics for the test to inspect. */
#ifndef TESTUTIL_H
#define TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bankc.h"

typedef struct {
	Pool *pool;
	Src src;
	Unit unit;
	char *diag;         /* everything the front end printed */
	size_t diag_len;
	bool ok;
} Run;

/* Front end over text (len bytes; may hold NULs). */
static inline Run *run_n(const char *text, size_t len)
{
	Run *r = calloc(1, sizeof *r);
	r->pool = pool_new();
	char *copy = malloc(len + 1);
	memcpy(copy, text, len);
	copy[len] = 0;
	r->src = (Src){"t.tile", copy, len};
	FILE *m = open_memstream(&r->diag, &r->diag_len);
	r->ok = frontend_run(r->pool, m, &r->src, &r->unit);
	fclose(m);
	return r;
}

static inline Run *run(const char *text)
{
	return run_n(text, strlen(text));
}

static inline void run_free(Run *r)
{
	free((char *)r->src.text);
	free(r->diag);
	pool_free(r->pool);
	free(r);
}

/* The first line of the diagnostics, without the newline. */
static inline char *first_line(const Run *r)
{
	static char buf[512];
	size_t n = strcspn(r->diag, "\n");
	if (n >= sizeof buf)
		n = sizeof buf - 1;
	memcpy(buf, r->diag, n);
	buf[n] = 0;
	return buf;
}

#define assert_error(text, expect) do { \
		Run *r_ = run(text); \
		assert_false(r_->ok); \
		assert_string_equal(first_line(r_), expect); \
		run_free(r_); \
	} while (0)

#endif
