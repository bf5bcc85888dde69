/* Diagnostics in the form compilers use:
 *
 *     file:line:col: error: message
 *         source line
 *         ^
 *
 * An error longjmps back to whoever set Diag.jb; nothing has been written
 * by then, so a bad spec never leaves a partial output. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bankc.h"

/* Print the source line holding p with a caret under its column; tabs are
 * kept so the caret lines up.  Lines end at LF, CR LF or CR alone.  A
 * long line is cut to a window around the caret, so a huge line costs a
 * few hundred bytes of output, not its length. */
enum { SHOW_BEFORE = 160, SHOW_AFTER = 100 };

static void show_line(FILE *f, const Src *s, Pos p)
{
	size_t b = p.off, e = p.off;
	if (b > s->len)
		b = e = s->len;
	while (b > 0 && s->text[b - 1] != '\n' && s->text[b - 1] != '\r')
		b--;
	while (e < s->len && s->text[e] != '\n' && s->text[e] != '\r')
		e++;
	size_t at = p.off < b ? b : p.off > e ? e : p.off;
	bool cut_b = at - b > SHOW_BEFORE, cut_e = e - at > SHOW_AFTER;
	if (cut_b)
		b = at - SHOW_BEFORE;
	if (cut_e)
		e = at + SHOW_AFTER;
	fputs(cut_b ? "    ..." : "    ", f);
	for (size_t i = b; i < e; i++) {
		unsigned char c = (unsigned char)s->text[i];
		fputc(c == '\t' || (c >= 32 && c < 127) || c >= 128 ? c : ' ', f);
	}
	fputs(cut_e ? "...\n    " : "\n    ", f);
	if (cut_b)
		fputs("   ", f);
	for (size_t i = b; i < at; i++)
		fputc(s->text[i] == '\t' ? '\t' : ' ', f);
	fputs("^\n", f);
}

static void report_to(FILE *out, const Src *src, Pos p, const char *kind,
                      const char *fmt, va_list ap)
{
	fprintf(out, "%s:%d:%d: %s: ", src->name, p.line, p.col, kind);
	vfprintf(out, fmt, ap);
	fputc('\n', out);
	show_line(out, src, p);
}

static void report(Diag *d, Pos p, const char *kind, const char *fmt,
                   va_list ap)
{
	report_to(d->out, d->src, p, kind, fmt, ap);
}

void diag_report(FILE *out, const Src *src, Pos p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report_to(out, src, p, "error", fmt, ap);
	va_end(ap);
}

void diag_error(Diag *d, Pos p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report(d, p, "error", fmt, ap);
	va_end(ap);
	d->errors++;
	longjmp(d->jb, 1);
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
