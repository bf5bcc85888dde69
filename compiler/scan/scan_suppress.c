/* A warning the user has accepted: its flag turned off (-Wno-NAME), a
 * comment `bankc: allow NAME` on its source line or the line above it
 * (`bankc: allow NAME, NAME2` for several), or its place in a baseline:
 * the diagnostics of an earlier run (`bankc scan ... 2>baseline.txt`),
 * whose warnings' files, lines and flags are the known ones.  An
 * accepted warning is not printed, and its excess is not in the
 * --max-excess gate. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "scan/scan.h"
#include "scan/scan_source.h"

typedef struct {
	char *path;
	int line;
	int flag;
} Known;

static Known *known;
static int nknown;
static char *baseline;          /* its path, for --sarif's suppressions */

bool scan_accepted_kept(void)
{
	return diag_options.record && diag_options.record_accepted;
}

DiagSuppress scan_accept_why(ScanAccept a, DiagFlag f, char *buf, size_t n)
{
	const char *name = diag_flag_name(f);
	if (a == ACCEPT_SOURCE) {
		snprintf(buf, n, "a comment 'bankc: allow %s' on the line or the line above", name);
		return DS_IN_SOURCE;
	}
	if (a == ACCEPT_BASELINE)
		snprintf(buf, n, "a known warning of the baseline '%s' (--baseline)",
		         baseline ? baseline : "");
	else
		snprintf(buf, n, "-Wno-%s on the command line", name);
	return DS_EXTERNAL;
}

/* lit in s[0..n), or NULL (memmem is not C's nor POSIX's) */
static const char *find(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit);
	for (size_t i = 0; i + k <= n; i++)
		if (memcmp(s + i, lit, k) == 0)
			return s + i;
	return NULL;
}

static bool names_flag(const char *s, size_t n, DiagFlag f)
{
	const char *name = diag_flag_name(f);
	size_t k = strlen(name);
	/* "bankc: allow" then names, each [a-z-]+, split by spaces and commas */
	for (const char *p = s, *e = s + n; (p = find(p, (size_t)(e - p), "bankc: allow"));) {
		p += 12;
		for (;;) {
			while (p < e && (*p == ' ' || *p == '\t' || *p == ','))
				p++;
			const char *a = p;
			while (p < e && (islower((unsigned char)*p) || *p == '-'))
				p++;
			if (p == a)
				break;
			if ((size_t)(p - a) == k && memcmp(a, name, k) == 0)
				return true;
		}
	}
	return false;
}

ScanAccept scan_accepted(const PtxModule *m, const PtxInst *in, const ScanCtx *c, DiagFlag f)
{
	if (!diag_flag_on(f))
		return ACCEPT_FLAG;
	int line;
	const char *path = scan_source_pos(m, in, c, &line);
	if (!path)
		return ACCEPT_NONE;
	for (int l = line; l >= line - 1 && l >= 1; l--) {
		const char *s;
		size_t n;
		if (scan_source_line(path, l, &s, &n) && names_flag(s, n, f))
			return ACCEPT_SOURCE;
	}
	for (int i = 0; i < nknown; i++)
		if (known[i].line == line && known[i].flag == (int)f && strcmp(known[i].path, path) == 0)
			return ACCEPT_BASELINE;
	return ACCEPT_NONE;
}

bool scan_baseline_read(const char *path, FILE *err)
{
	Src s;
	if (!read_file(path, NULL, 64 << 20, err, &s))
		return false;
	free(baseline);
	baseline = xstrdup(path);
	/* "PATH:LINE:COL: warning: ... [-WNAME]", as scan prints a warning
	 * (and an error of a correctness check, which has its flag too) */
	for (const char *p = s.text, *e = s.text + s.len; p < e;) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		const char *le = nl ? nl : e;
		const char *w = find(p, (size_t)(le - p), ": warning: ");
		if (!w)
			w = find(p, (size_t)(le - p), ": error: ");
		const char *fl = le > p + 3 ? le - 1 : NULL;
		while (fl && fl > p && *fl != '[')
			fl--;
		if (w && fl && fl > w && le[-1] == ']' && strncmp(fl, "[-W", 3) == 0) {
			char name[64];
			snprintf(name, sizeof name, "%.*s", (int)(le - 1 - fl - 3), fl + 3);
			int flag = diag_flag_of_rule(name);
			/* PATH:LINE:COL before ": warning:" */
			const char *c2 = w;
			while (c2 > p && c2[-1] != ':')
				c2--;
			const char *c1 = c2 > p + 1 ? c2 - 1 : p;
			while (c1 > p && c1[-1] != ':')
				c1--;
			if (flag >= 0 && c1 > p && isdigit((unsigned char)*c1)) {
				known = xrealloc(known, ((size_t)nknown + 1) * sizeof *known);
				known[nknown].path = xmalloc((size_t)(c1 - 1 - p) + 1);
				memcpy(known[nknown].path, p, (size_t)(c1 - 1 - p));
				known[nknown].path[c1 - 1 - p] = 0;
				known[nknown].line = atoi(c1);
				known[nknown].flag = flag;
				nknown++;
			}
		}
		p = nl ? nl + 1 : e;
	}
	free((char *)s.text);
	return true;
}

void scan_baseline_free(void)
{
	for (int i = 0; i < nknown; i++)
		free(known[i].path);
	free(known);
	known = NULL;
	nknown = 0;
	free(baseline);
	baseline = NULL;
}
