/* How diagnostics look and where they are kept: gcc's colours for
 * "error:", "warning:" and "note:" (-fdiagnostics-color, NO_COLOR), the
 * error limit (-fmax-errors) and the -W flags (the record of every
 * diagnostic for --sarif is diag_record.c's).  One set of
 * options per process: the command line sets them once, before any
 * input is read. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bankc.h"

DiagOptions diag_options = {.color = DIAG_COLOR_AUTO, .max_errors = 20};

/* Each warning's name: its -W flag and its --sarif rule id. */
static const char *const flag_name[DW_COUNT] = {
	[DW_BANK_CONFLICT] = "bank-conflict", [DW_CP_ASYNC] = "cp-async-segments",
	[DW_OUTSIDE] = "outside-array", [DW_DATA] = "data-dependent",
	[DW_UNPROVEN] = "unproven", [DW_SHARED_RACE] = "shared-race",
	[DW_SHARED_BOUNDS] = "shared-bounds", [DW_SHARED_ALIGN] = "shared-align",
	[DW_BARRIER] = "barrier-divergence",
};

const char *diag_flag_name(DiagFlag f)
{
	return flag_name[f];
}

int diag_flag_of_rule(const char *rule)
{
	for (int i = 0; rule && i < DW_COUNT; i++)
		if (flag_name[i] && strcmp(flag_name[i], rule) == 0)
			return i;
	return -1;
}

bool diag_flag_option(const char *arg)
{
	bool no = strncmp(arg, "no-", 3) == 0;
	int f = diag_flag_of_rule(no ? arg + 3 : arg);
	if (f < 0)
		return false;
	if (no)
		diag_options.wno |= 1u << f;
	else
		diag_options.wno &= ~(1u << f);
	return true;
}

bool diag_flag_on(DiagFlag f)
{
	return !(diag_options.wno >> f & 1);
}

/* gcc's defaults (GCC_COLORS): error 01;31, warning 01;35, note 01;36,
 * the locus 01, the caret 01;32; each closed with ESC[m ESC[K as gcc
 * does. */
static const char *const kind_name[] = {"error", "warning", "note"};
static const char *const kind_sgr[] = {"01;31", "01;35", "01;36"};

bool diag_colored(FILE *f)
{
	if (diag_options.color == DIAG_COLOR_ALWAYS)
		return true;
	if (diag_options.color == DIAG_COLOR_NEVER)
		return false;
	const char *no = getenv("NO_COLOR");       /* no-color.org */
	if (no && *no)
		return false;
	const char *term = getenv("TERM");
	if (!term || strcmp(term, "dumb") == 0)
		return false;
	return isatty(fileno(f)) == 1;
}

void diag_head(FILE *f, const char *locus, DiagKind k)
{
	/* a path in the locus: nothing in it reaches the terminal raw */
	char *shown = esc_term_dup(locus);
	if (diag_colored(f))
		fprintf(f, "\33[01m\33[K%s:\33[m\33[K \33[%sm\33[K%s:\33[m\33[K ",
		        shown, kind_sgr[k], kind_name[k]);
	else
		fprintf(f, "%s: %s: ", shown, kind_name[k]);
	free(shown);
}

void diag_caret(FILE *f)
{
	fputs(diag_colored(f) ? "\33[01;32m\33[K^\33[m\33[K\n" : "^\n", f);
}

char *diag_vformat(const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		n = 0;
	char *s = xmalloc((size_t)n + 1);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

char *diag_format(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = diag_vformat(fmt, ap);
	va_end(ap);
	return s;
}
