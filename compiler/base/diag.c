/* Diagnostics in the form compilers use:
 *
 *     file:line:col: error: message
 *         source line
 *         ^
 *
 * An error longjmps back to whoever set Diag.jb; nothing has been written
 * by then, so a bad spec never leaves a partial output.  The parser sets
 * its own Diag.jb around each statement to carry on after an error
 * (parse.c), up to -fmax-errors.  Colour and the --sarif record are in
 * diag_style.c. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bankc.h"

/* A line p[0..n) under a diagnostic and a caret under byte `at` (none
 * where at is (size_t)-1): tabs kept so the caret lines up, every other
 * byte a terminal would act on, or that is not UTF-8, as \xNN
 * (esc_term); a long line cut to a window around the caret, so a huge
 * line costs a few hundred bytes of output, not its length. */
enum { SHOW_BEFORE = 160, SHOW_AFTER = 100 };

void diag_show_text(FILE *f, const char *p, size_t n, size_t at)
{
	size_t b = 0, e = n, a = at == (size_t)-1 ? 0 : at > n ? n : at;
	bool cut_b = a > SHOW_BEFORE, cut_e = e - a > SHOW_AFTER;
	if (cut_b)
		b = a - SHOW_BEFORE;
	if (cut_e)
		e = a + SHOW_AFTER;
	while (b > 0 && b < n && ((unsigned char)p[b] & 0xc0) == 0x80)
		b--;    /* whole characters */
	while (e < n && ((unsigned char)p[e] & 0xc0) == 0x80)
		e++;
	char *caret = xmalloc(4 * (e - b) + 8);
	size_t nc = 0;
	fputs(cut_b ? "    ..." : "    ", f);
	if (cut_b)
		memcpy(caret, "   ", 3), nc = 3;
	for (size_t i = b; i < e;) {
		unsigned char ch[5] = {0};
		for (size_t j = 0; j < 4 && i + j < e; j++)
			ch[j] = (unsigned char)p[i + j];
		int k = ch[0] == '\t' ? 1 : ch[0] ? esc_term_len(ch) : 0;
		bool before = i < a;
		if (ch[0] == '\t') {
			fputc('\t', f);
			if (before)
				caret[nc++] = '\t';
		} else if (k) {
			fwrite(p + i, 1, (size_t)k, f);
			if (before)
				caret[nc++] = ' ';
		} else {
			fprintf(f, "\\x%02x", ch[0]);
			if (before)
				memcpy(caret + nc, "    ", 4), nc += 4;
			k = 1;
		}
		i += (size_t)k;
	}
	fputs(cut_e ? "...\n" : "\n", f);
	if (at != (size_t)-1) {
		fprintf(f, "    %.*s", (int)nc, caret);
		diag_caret(f);
	} else {
		fputs("    \n", f);
	}
	free(caret);
}

/* The source line holding p: [*b, *e).  Lines end at LF, CR LF or CR
 * alone. */
static void line_of(const Src *s, Pos p, size_t *b, size_t *e)
{
	*b = *e = p.off;
	if (*b > s->len)
		*b = *e = s->len;
	while (*b > 0 && s->text[*b - 1] != '\n' && s->text[*b - 1] != '\r')
		(*b)--;
	while (*e < s->len && s->text[*e] != '\n' && s->text[*e] != '\r')
		(*e)++;
}

/* The source line holding p, with a caret under its column. */
static void show_line(FILE *f, const Src *s, Pos p)
{
	size_t b, e;
	line_of(s, p, &b, &e);
	size_t at = p.off < b ? b : p.off > e ? e : p.off;
	diag_show_text(f, s->text + b, e - b, at - b);
}

/* Kept for --sarif with what it is about: its line's text. */
static int logged(const Src *src, Pos p, DiagKind k, const char *rule, const char *msg)
{
	int r = diag_log(k, rule, src->name, p.line, p.col, msg);
	size_t b, e;
	line_of(src, p, &b, &e);
	diag_record_about(r, src->text + b, e - b, NULL);
	return r;
}

/* The message, then the source line; recorded for --sarif as well.  A
 * warning (flag >= 0) ends with its flag. */
static void report_to(FILE *out, const Src *src, Pos p, DiagKind k, const char *rule,
                      int flag, const char *fmt, va_list ap)
{
	char *msg = diag_vformat(fmt, ap);
	char *locus = diag_format("%s:%d:%d", src->name, p.line, p.col);
	diag_head(out, locus, k);
	char *shown = esc_term_dup(msg);
	if (flag >= 0)
		fprintf(out, "%s [-W%s]\n", shown, diag_flag_name((DiagFlag)flag));
	else
		fprintf(out, "%s\n", shown);
	free(shown);
	show_line(out, src, p);
	logged(src, p, k, rule ? rule : "spec-error", msg);
	free(locus);
	free(msg);
}

void diag_warn(FILE *out, const Src *src, Pos p, int flag, const char *fmt, ...)
{
	va_list ap;
	if (!diag_flag_on((DiagFlag)flag)) {
		/* turned off: only in the --sarif log, suppressed, if asked */
		if (!diag_options.record || !diag_options.record_accepted)
			return;
		va_start(ap, fmt);
		char *msg = diag_vformat(fmt, ap);
		va_end(ap);
		const char *name = diag_flag_name((DiagFlag)flag);
		char *why = diag_format("-Wno-%s on the command line", name);
		diag_record_suppress(logged(src, p, DK_WARNING, name, msg), DS_EXTERNAL, why);
		free(why);
		free(msg);
		return;
	}
	va_start(ap, fmt);
	report_to(out, src, p, DK_WARNING, diag_flag_name((DiagFlag)flag), flag, fmt, ap);
	va_end(ap);
}

void diag_report(FILE *out, const Src *src, Pos p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report_to(out, src, p, DK_ERROR, NULL, -1, fmt, ap);
	va_end(ap);
}

void diag_report_rule(FILE *out, const Src *src, Pos p, const char *rule,
                      const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report_to(out, src, p, DK_ERROR, rule, -1, fmt, ap);
	va_end(ap);
}

/* Counted against -fmax-errors: at the limit, a last line and the jump
 * out, with d->stopped telling the recovery points not to carry on. */
static void count(Diag *d)
{
	d->errors++;
	if (diag_options.max_errors > 0 && d->errors >= diag_options.max_errors &&
	    !d->stopped) {
		d->stopped = true;
		fprintf(d->out, "bankc: compilation terminated due to "
		        "-fmax-errors=%d.\n", diag_options.max_errors);
		longjmp(d->jb, 1);
	}
}

void diag_error(Diag *d, Pos p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report_to(d->out, d->src, p, DK_ERROR, d->rule, -1, fmt, ap);
	va_end(ap);
	count(d);
	longjmp(d->jb, 1);
}

void diag_error_cont(Diag *d, Pos p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report_to(d->out, d->src, p, DK_ERROR, d->rule, -1, fmt, ap);
	va_end(ap);
	count(d);
}

void internal_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("bankc: internal error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	fflush(stderr);
	abort();
}

/* Levenshtein distance of a (na bytes) and b, for did-you-mean hints;
 * 99 for words longer than any that a hint could be about. */
int text_distance(const char *a, size_t na, const char *b)
{
	size_t nb = strlen(b);
	if (na > 64 || nb > 64)
		return 99;
	int row[65];
	for (size_t j = 0; j <= nb; j++)
		row[j] = (int)j;
	for (size_t i = 1; i <= na; i++) {
		int prev = row[0];
		row[0] = (int)i;
		for (size_t j = 1; j <= nb; j++) {
			int cur = row[j];
			int sub = prev + (a[i - 1] != b[j - 1]);
			int del = row[j] + 1, ins = row[j - 1] + 1;
			row[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
			prev = cur;
		}
	}
	return row[nb];
}
