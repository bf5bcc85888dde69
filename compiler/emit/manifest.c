/* DIR/.bankc-manifest: which spec's build made which output of a folder,
 * so that a build removes the outputs its specs no longer make, and
 * refuses to replace another spec's.
 *
 * A line per output, "SPEC\tFILE\n": SPEC the spec file's real path (or
 * "-"), FILE a name inside DIR, each as esc_text writes it, so that no
 * tab, line break or other byte of a name can split a line or add one
 * (a spec named "x\nother\tvictim.cuh" once made a line that removed a
 * file bankc never wrote).  A line that does not decode is skipped. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bankc.h"
#include "emit/manifest.h"

void man_add(Manifest *m, const char *spec, const char *file)
{
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 64;
		m->spec = xrealloc(m->spec, (size_t)m->cap * sizeof *m->spec);
		m->file = xrealloc(m->file, (size_t)m->cap * sizeof *m->file);
	}
	m->spec[m->n] = xstrdup(spec);
	m->file[m->n++] = xstrdup(file);
}

void man_free(Manifest *m)
{
	for (int i = 0; i < m->n; i++)
		free(m->spec[i]), free(m->file[i]);
	free(m->spec);
	free(m->file);
	memset(m, 0, sizeof *m);
}

/* ---- the specs' keys, relative to the folder ---------------------------------- */

/* A spec's key is its real path (cmd_build.c); the manifest holds it
 * relative to the real path of its folder, so that two checkouts write
 * the same manifest.  Both are real paths (absolute, no "." or "..", no
 * symlink), so the relative path is a matter of their components. */
static char *key_relative(const char *key, const char *base)
{
	if (!base || key[0] != '/')
		return xstrdup(key);
	/* past the components the two share */
	const char *k = key, *b = base;
	for (;;) {
		while (*k == '/')
			k++;
		while (*b == '/')
			b++;
		size_t kl = strcspn(k, "/"), bl = strcspn(b, "/");
		if (!bl || kl != bl || strncmp(k, b, kl) != 0)
			break;
		k += kl;
		b += bl;
	}
	/* a "../" for each of base's others, then the rest of key */
	int up = 0;
	for (const char *p = b; *p; p += strcspn(p, "/")) {
		while (*p == '/')
			p++;
		if (*p)
			up++;
	}
	size_t n = 3 * (size_t)up + strlen(k) + 1;
	char *r = xmalloc(n);
	r[0] = 0;
	for (int i = 0; i < up; i++)
		strcat(r, "../");
	strcat(r, k);
	return r;
}

/* key_relative's inverse: base joined to rel, its ".." taken away. */
static char *key_absolute(const char *rel, const char *base)
{
	if (!base || rel[0] == '/' || strcmp(rel, "-") == 0)
		return xstrdup(rel);
	size_t n = strlen(base) + strlen(rel) + 2;
	char *r = xmalloc(n);
	snprintf(r, n, "%s", strcmp(base, "/") == 0 ? "" : base);
	size_t len = strlen(r);
	for (const char *p = rel; *p;) {
		const char *e = strchr(p, '/');
		size_t k = e ? (size_t)(e - p) : strlen(p);
		if (k == 2 && p[0] == '.' && p[1] == '.') {
			while (len > 0 && r[len - 1] != '/')
				len--;
			if (len > 0)
				len--;      /* the slash before it */
		} else if (k && !(k == 1 && p[0] == '.')) {
			r[len++] = '/';
			memcpy(r + len, p, k);
			len += k;
		}
		r[len] = 0;
		p += k + (e != NULL);
	}
	if (!len)
		strcpy(r, "/");
	return r;
}

void man_read(const char *path, const char *base, Manifest *m)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, f)) > 0) {
		char *tab = strchr(line, '\t');
		if (line[0] == '#' || !tab || line[n - 1] != '\n')
			continue;
		*tab = line[n - 1] = 0;
		char *spec = esc_decode(line), *file = esc_decode(tab + 1);
		/* a name inside DIR, never a path or a hidden file */
		if (spec && file && file[0] && file[0] != '.' && !strchr(file, '/')) {
			char *key = key_absolute(spec, base);
			man_add(m, key, file);
			free(key);
		}
		free(spec);
		free(file);
	}
	free(line);
	fclose(f);
}

static int cmp_lines(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char *man_render(const Manifest *m, const char *base, size_t *len)
{
	char **lines = xcalloc((size_t)m->n + 1, sizeof *lines);
	for (int i = 0; i < m->n; i++) {
		size_t n;
		FILE *f = xmemstream(&lines[i], &n);
		char *key = key_relative(m->spec[i], base);
		esc_text(f, key);
		free(key);
		fputc('\t', f);
		esc_text(f, m->file[i]);
		fputc('\n', f);
		fclose(f);
	}
	qsort(lines, (size_t)m->n, sizeof *lines, cmp_lines);
	char *buf;
	FILE *f = xmemstream(&buf, len);
	fputs("# outputs of bankc build in this folder, by spec; do not edit\n", f);
	for (int i = 0; i < m->n; i++) {
		/* one line twice (an interrupted build's manifest lists old and
		 * new) is written once */
		if (!i || strcmp(lines[i], lines[i - 1]) != 0)
			fputs(lines[i], f);
	}
	fclose(f);
	for (int i = 0; i < m->n; i++)
		free(lines[i]);
	free(lines);
	return buf;
}

/* ---- who owns what ------------------------------------------------------------- */

static bool listed(char **v, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return true;
	return false;
}

/* Another spec's output, which this build must leave alone: its spec is
 * not one of this build's, and still exists (the outputs of a spec that
 * is gone are anyone's to replace). */
static bool others(const Manifest *old, int i, char **specs, int nspecs)
{
	struct stat st;
	return !listed(specs, nspecs, old->spec[i]) &&
	       (strcmp(old->spec[i], "-") == 0 || stat(old->spec[i], &st) == 0);
}

/* The names the lines "#define NAME" of a header define, each once. */
static int defines(const char *p, size_t len, char ***names)
{
	int n = 0, cap = 0;
	const char *end = p + len;
	*names = NULL;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		const char *b = p + 8, *e = b;
		if (nl - p > 8 && memcmp(p, "#define ", 8) == 0)
			while (e < nl && (*e == '_' || (*e >= 'A' && *e <= 'Z') ||
			                  (*e >= 'a' && *e <= 'z') || (*e >= '0' && *e <= '9')))
				e++;
		/* BANKC_FN every header defines alike, on purpose */
		if (e > b && !(e - b == 8 && memcmp(b, "BANKC_FN", 8) == 0)) {
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				*names = xrealloc(*names, (size_t)cap * sizeof **names);
			}
			(*names)[n++] = strndup(b, (size_t)(e - b));
		}
		p = nl + 1;
	}
	return n;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf;
	FILE *m = xmemstream(&buf, len);
	char chunk[8192];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		fwrite(chunk, 1, n, m);
	fclose(f);
	fclose(m);
	return buf;
}

static bool ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), k = strlen(end);
	return n >= k && strcmp(s + n - k, end) == 0;
}

/* A macro one of this build's headers defines that a header of another
 * spec in the folder defines too: including both would break. */
static bool macros_free(const Manifest *old, char **specs, int nspecs,
                        const char *dir, const OutFile *v, int nv)
{
	bool ok = true;
	for (int i = 0; ok && i < old->n; i++) {
		if (!others(old, i, specs, nspecs) || !ends_with(old->file[i], ".cuh"))
			continue;
		char path[PATH_MAX];
		snprintf(path, sizeof path, "%s/%s", dir, old->file[i]);
		size_t len;
		char *text = slurp(path, &len);
		if (!text)
			continue;
		char **theirs;
		int nt = defines(text, len, &theirs);
		free(text);
		for (int k = 0; ok && k < nv; k++) {
			if (!v[k].spec || !ends_with(v[k].file, ".cuh"))
				continue;
			char **ours;
			int no = defines(v[k].data, v[k].len, &ours);
			for (int a = 0; ok && a < no; a++)
				if (listed(theirs, nt, ours[a])) {
					fprintf(stderr, "bankc: error: %s (of %s) would define %s, "
					        "which %s (of %s) in the same folder defines; rename "
					        "a tile or build them into different folders\n",
					        esc_shown(v[k].path), esc_shown(v[k].spec), ours[a],
					        esc_shown(path), esc_shown(old->spec[i]));
					ok = false;
				}
			for (int a = 0; a < no; a++)
				free(ours[a]);
			free(ours);
		}
		for (int a = 0; a < nt; a++)
			free(theirs[a]);
		free(theirs);
	}
	return ok;
}

bool man_owners_ok(const Manifest *old, char **specs, int nspecs,
                   const char *dir, const OutFile *v, int nv)
{
	bool ok = true;
	for (int k = 0; k < nv; k++)
		for (int i = 0; v[k].spec && i < old->n; i++)
			if (strcmp(old->file[i], v[k].file) == 0 &&
			    others(old, i, specs, nspecs)) {
				fprintf(stderr, "bankc: error: %s would replace the output of "
				        "another spec: %s made it, %s makes it now; rename a "
				        "tile or build them into different folders\n",
				        esc_shown(v[k].path), esc_shown(old->spec[i]), esc_shown(v[k].spec));
				ok = false;
			}
	return ok && macros_free(old, specs, nspecs, dir, v, nv);
}
