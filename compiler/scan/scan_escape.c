/* Names and source lines as scan shows them (the escaping itself is the
 * base's, base/escape.c's esc_term: every text bankc prints to a
 * terminal goes through it). */
#include <stdio.h>

#include "scan/scan_source.h"

bool scan_escape_clean(const char *s)
{
	return esc_term_clean(s);
}

char *scan_escape(const char *s, char *buf, size_t n)
{
	return esc_term(s, buf, n);
}

void scan_show_source(FILE *f, const char *p, size_t n, int col)
{
	diag_show_text(f, p, n, col > 0 ? (size_t)col - 1 : (size_t)-1);
}
