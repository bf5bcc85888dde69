/* A fix applied to the source: its replacements made in a copy of the
 * file's text, and the unified diff that makes them (`patch -p0`, from
 * the folder bankc ran in).  Each run of changed lines is one hunk
 * without context; a name with a space ends with a tab, as diff writes
 * it, so that patch reads it whole.  A diff is a program the user runs:
 * a line or a name with a byte that a terminal acts on, or that would
 * not reach patch as it is, gets no diff. */
#include <stdlib.h>
#include <string.h>

#include "scan/scan.h"
#include "scan/scan_ctext.h"
#include "scan/scan_source.h"

static int repl_cmp(const void *x, const void *y)
{
	const CRepl *a = x, *b = y;
	return (a->off > b->off) - (a->off < b->off);
}

/* The line of byte o, from 1, and where it starts and ends. */
static int line_at(const char *s, size_t len, size_t o, size_t *ls, size_t *le)
{
	int line = 1;
	size_t start = 0;
	for (size_t i = 0; i < o && i < len; i++)
		if (s[i] == '\n')
			line++, start = i + 1;
	size_t e = o;
	while (e < len && s[e] != '\n')
		e++;
	*ls = start;
	*le = e;
	return line;
}

/* Text a terminal shows as it is (tabs, line ends and CR LF's CR aside). */
static bool printable(const char *s, size_t n)
{
	char *z = xmalloc(n + 1);
	memcpy(z, s, n);
	z[n] = 0;
	for (size_t i = 0; i < n; i++)
		if (z[i] == '\t' || z[i] == '\n' || (z[i] == '\r' && (i + 1 == n || z[i + 1] == '\n')))
			z[i] = ' ';
	bool ok = strlen(z) == n && scan_escape_clean(z);
	free(z);
	return ok;
}

bool crewrite_apply(const CText *t, CRepl *r, int n, ScanEdit **edits, int *nedits,
                    char **diff, char *why, size_t nwhy)
{
	*edits = NULL;
	*nedits = 0;
	*diff = NULL;
	if (!printable(t->path, strlen(t->path)) || strchr(t->path, '\t')) {
		snprintf(why, nwhy, "its file's name holds bytes a diff cannot carry");
		return false;
	}
	/* a replacement by the same text is none */
	int kept = 0;
	for (int i = 0; i < n; i++)
		if (strlen(r[i].text) != r[i].len || memcmp(r[i].text, t->text + r[i].off, r[i].len))
			r[kept++] = r[i];
		else
			free(r[i].text), r[i].text = NULL;
	for (int i = kept; i < n; i++)
		r[i].text = NULL;
	n = kept;
	qsort(r, (size_t)n, sizeof *r, repl_cmp);
	for (int i = 1; i < n; i++)
		if (r[i].off < r[i - 1].off + r[i - 1].len) {
			snprintf(why, nwhy, "two of its changes overlap");
			return false;
		}
	/* hunks: runs of replacements whose lines touch */
	char *buf = NULL;
	size_t blen = 0;
	FILE *f = xmemstream(&buf, &blen);
	bool space = strchr(t->path, ' ') != NULL;
	fprintf(f, "--- %s%s\n+++ %s%s\n", t->path, space ? "\t" : "", t->path, space ? "\t" : "");
	ScanEdit *ed = xcalloc((size_t)n + 1, sizeof *ed);
	int ne = 0;
	int shift = 0;      /* new lines minus old ones so far */
	bool ok = true;
	for (int i = 0; i < n && ok;) {
		size_t ls, le, ls2, le2;
		int l0 = line_at(t->text, t->len, r[i].off, &ls, &le);
		int j = i + 1;
		size_t end = r[i].off + r[i].len;
		line_at(t->text, t->len, end, &ls2, &le2);
		while (j < n && r[j].off <= le2) {
			end = r[j].off + r[j].len;
			line_at(t->text, t->len, end, &ls2, &le2);
			j++;
		}
		/* old text [ls, le2), new: the same with r[i..j) made */
		char *nb = NULL;
		size_t nl = 0;
		FILE *g = xmemstream(&nb, &nl);
		size_t at = ls;
		for (int k = i; k < j; k++) {
			fwrite(t->text + at, 1, r[k].off - at, g);
			fputs(r[k].text, g);
			at = r[k].off + r[k].len;
		}
		fwrite(t->text + at, 1, le2 - at, g);
		fclose(g);
		if (!printable(t->text + ls, le2 - ls) || !printable(nb, nl)) {
			snprintf(why, nwhy, "a line it changes holds bytes a diff cannot carry");
			ok = false;
			free(nb);
			break;
		}
		int nold = 1, nnew = 1;
		for (size_t q = ls; q < le2; q++)
			nold += t->text[q] == '\n';
		for (size_t q = 0; q < nl; q++)
			nnew += nb[q] == '\n';
		if (nold == 1 && nnew == 1)
			fprintf(f, "@@ -%d +%d @@\n", l0, l0 + shift);
		else
			fprintf(f, "@@ -%d,%d +%d,%d @@\n", l0, nold, l0 + shift, nnew);
		/* each line with its sign */
		fputc('-', f);
		for (size_t q = ls; q < le2; q++) {
			fputc(t->text[q], f);
			if (t->text[q] == '\n')
				fputc('-', f);
		}
		fputs("\n+", f);
		for (size_t q = 0; q < nl; q++) {
			fputc(nb[q], f);
			if (nb[q] == '\n')
				fputc('+', f);
		}
		fputc('\n', f);
		shift += nnew - nold;
		ScanEdit *e = &ed[ne++];
		snprintf(e->where, sizeof e->where, "%s:%d", t->path, l0);
		e->before = xmalloc(le2 - ls + 1);
		memcpy(e->before, t->text + ls, le2 - ls);
		e->before[le2 - ls] = 0;
		e->after = nb;
		i = j;
	}
	fclose(f);
	if (!ok) {
		for (int k = 0; k < ne; k++)
			free(ed[k].before), free(ed[k].after);
		free(ed);
		free(buf);
		return false;
	}
	*edits = ed;
	*nedits = ne;
	*diff = buf;
	return true;
}
