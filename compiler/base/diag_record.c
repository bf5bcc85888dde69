/* Every diagnostic a command gives, kept for its --sarif log (written by
 * emit/sarif.c): where it is, what it says, and what the log carries
 * besides: what it is about (its fingerprint's parts), related places
 * (an array's declaration), a fix as replacements of the source, and
 * whether the user accepted it (a suppressed warning, not printed).
 * Nothing is kept unless diag_options.record. */
#include <stdlib.h>
#include <string.h>

#include "bankc.h"

static DiagRecord *records;
static int nrecords, caprecords;

int diag_cp_col(const char *text, size_t n, int col)
{
	if (col <= 1)
		return col;
	size_t end = (size_t)col - 1 < n ? (size_t)col - 1 : n;
	char *z = xmalloc(end + 1);
	memcpy(z, text, end);
	z[end] = 0;
	int cp = 1;
	for (size_t i = 0; i < end; cp++) {
		int k = esc_utf8_len((const unsigned char *)z + i);
		i += k > 0 ? (size_t)k : 1;     /* a malformed byte: one U+FFFD */
	}
	free(z);
	/* a column past the line's end counts its bytes beyond as they are */
	return cp + (int)((size_t)col - 1 - end);
}

/* FNV-1a, 64 bits: deterministic on every host */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * 0x100000001b3ull;
	return h;
}

static uint64_t fnv_str(uint64_t h, const char *s)
{
	return fnv(h, s ? s : "", (s ? strlen(s) : 0) + 1);   /* the NUL separates */
}

uint64_t diag_hash(uint64_t h, const char *s)
{
	return fnv_str(h ? h : 0xcbf29ce484222325ull, s);
}

int diag_log(DiagKind k, const char *rule, const char *file, int line,
             int col, const char *msg)
{
	if (!diag_options.record)
		return -1;
	if (nrecords == caprecords) {
		caprecords = caprecords ? 2 * caprecords : 16;
		records = xreallocarray(records, (size_t)caprecords, sizeof *records);
	}
	DiagRecord *r = &records[nrecords];
	memset(r, 0, sizeof *r);
	r->kind = k;
	r->rule = rule;
	r->at = (DiagPlace){xstrdup(file), line, col, col <= 1 ? col : 0, NULL};
	r->msg = xstrdup(msg);
	r->hash = 0xcbf29ce484222325ull;        /* nothing known of it yet */
	return nrecords++;
}

void diag_record_about(int i, const char *text, size_t n, const char *key)
{
	if (i < 0)
		return;
	DiagRecord *r = &records[i];
	uint64_t h = 0xcbf29ce484222325ull;
	if (text) {
		r->at.cp_col = diag_cp_col(text, n, r->at.col);
		/* the line's text without the spaces around it: an indent changed
		 * or the line moved leaves the result the same one */
		while (n && (*text == ' ' || *text == '\t'))
			text++, n--;
		while (n && (text[n - 1] == ' ' || text[n - 1] == '\t' || text[n - 1] == '\r'))
			n--;
		h = fnv(h, text, n);
	}
	r->hash = fnv_str(h, key);
}

void diag_record_related(int i, const char *file, int line, int col, const char *text,
                         size_t n, const char *msg)
{
	if (i < 0)
		return;
	DiagRecord *r = &records[i];
	for (int j = 0; j < r->nrelated; j++)
		if (r->related[j].line == line && r->related[j].col == col &&
		    strcmp(r->related[j].file, file) == 0)
			return;
	r->related = xreallocarray(r->related, (size_t)r->nrelated + 1, sizeof *r->related);
	r->related[r->nrelated++] = (DiagPlace){xstrdup(file), line, col,
		text ? diag_cp_col(text, n, col) : col <= 1 ? col : 0, xstrdup(msg)};
}

void diag_record_fix(int i, const char *desc, const char *file)
{
	if (i < 0 || records[i].fix)
		return;
	records[i].fix = xstrdup(desc);
	records[i].fix_file = xstrdup(file);
}

void diag_record_repl(int i, int line, int col, int end_line, int end_col, const char *text)
{
	if (i < 0)
		return;
	DiagRecord *r = &records[i];
	r->repl = xreallocarray(r->repl, (size_t)r->nrepl + 1, sizeof *r->repl);
	r->repl[r->nrepl++] = (DiagRepl){line, col, end_line, end_col, xstrdup(text)};
}

void diag_record_suppress(int i, DiagSuppress how, const char *justification)
{
	if (i < 0)
		return;
	records[i].suppressed = how;
	free(records[i].justification);
	records[i].justification = xstrdup(justification);
}

const DiagRecord *diag_records(int *n)
{
	*n = nrecords;
	return records;
}

void diag_records_free(void)
{
	for (int i = 0; i < nrecords; i++) {
		DiagRecord *r = &records[i];
		free(r->at.file);
		free(r->msg);
		for (int j = 0; j < r->nrelated; j++)
			free(r->related[j].file), free(r->related[j].msg);
		free(r->related);
		free(r->fix);
		free(r->fix_file);
		for (int j = 0; j < r->nrepl; j++)
			free(r->repl[j].text);
		free(r->repl);
		free(r->justification);
	}
	free(records);
	records = NULL;
	nrecords = caprecords = 0;
}
