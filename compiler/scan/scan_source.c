/* The source lines scan shows under its warnings.
 *
 * A PTX's .file directives name any path, and scan must not become a way
 * to print /proc/self/environ or to block on a FIFO or a terminal: a file
 * is read only when its real path is the .cu given, under the PTX's (or
 * the .cu's) folder or under a --source-dir, is not under /proc, /sys or
 * /dev, and opens (O_NONBLOCK, so a FIFO cannot block) as a regular file;
 * at most SCAN_SOURCE_MAX_BYTES of it, and no more than fstat's size (a
 * file of /proc says 0).
 *
 * Each file is read and its line starts indexed once, so showing W
 * warnings costs O(W + bytes), not O(W * bytes).  A few files are kept,
 * the least recently used dropped first. */
#define _XOPEN_SOURCE 700   /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scan/scan_source.h"

enum { KEPT = 8 };

typedef struct {
	char *path;             /* as asked for */
	char *text;             /* NULL: refused or unreadable */
	size_t len;
	size_t *start;          /* line l (from 1) starts at start[l - 1] */
	int nlines;
	unsigned long used;     /* when last asked for */
} Kept;

static Kept kept[KEPT];
static Kept ptx;                /* the PTX's own text: not read, not dropped */
static const char *ptx_text;
static unsigned long clock_;
static char *allow_cu;
static char **allow_file;       /* real paths of the files nvcc read */
static int nallow_file;
static char *allow_dir[SCAN_SOURCE_MAX_DIRS + 1];
static int nallow_dir;

/* ---- where from ------------------------------------------------------------- */

static char *real_dir(const char *d)
{
	return d && *d ? realpath(d, NULL) : NULL;
}

void scan_source_allow(const char *cu, const char *const *files, int nfiles,
                       const char *folder, const char *const *dirs, int ndirs)
{
	scan_source_free();
	allow_cu = cu ? realpath(cu, NULL) : NULL;
	allow_file = xcalloc((size_t)nfiles + 1, sizeof *allow_file);
	for (int i = 0; i < nfiles; i++)
		if ((allow_file[nallow_file] = realpath(files[i], NULL)) != NULL)
			nallow_file++;
	nallow_dir = 0;
	char *f = real_dir(folder);
	if (f)
		allow_dir[nallow_dir++] = f;
	for (int i = 0; i < ndirs && nallow_dir < SCAN_SOURCE_MAX_DIRS + 1; i++)
		if ((f = real_dir(dirs[i])) != NULL)
			allow_dir[nallow_dir++] = f;
}

static bool under(const char *p, const char *dir)
{
	size_t n = strlen(dir);
	if (n == 1 && dir[0] == '/')
		return p[0] == '/';
	return strncmp(p, dir, n) == 0 && p[n] == '/';
}

/* p under dir, no name below dir hidden (.git/config, .env, .ssh/...):
 * a folder gives its sources, not what a tool or a user keeps there. */
static bool under_shown(const char *p, const char *dir)
{
	if (!under(p, dir))
		return false;
	for (const char *q = p + (strcmp(dir, "/") ? strlen(dir) : 0); (q = strchr(q, '/')); q++)
		if (q[1] == '.')
			return false;
	return true;
}

static bool allowed(const char *real)
{
	static const char *const never[] = {"/proc", "/sys", "/dev"};
	for (size_t i = 0; i < sizeof never / sizeof *never; i++)
		if (under(real, never[i]) || strcmp(real, never[i]) == 0)
			return false;
	if (allow_cu && strcmp(real, allow_cu) == 0)
		return true;
	for (int i = 0; i < nallow_file; i++)
		if (strcmp(real, allow_file[i]) == 0)
			return true;
	for (int i = 0; i < nallow_dir; i++)
		if (under_shown(real, allow_dir[i]))
			return true;
	return false;
}

/* The bytes of an allowed regular file, or NULL. */
static char *read_source(const char *path, size_t *len)
{
	char *real = realpath(path, NULL);
	bool ok = real && allowed(real);
	int fd = ok ? open(real, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) : -1;
	free(real);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	files_used_fd(fd);
	size_t cap = st.st_size < SCAN_SOURCE_MAX_BYTES ? (size_t)st.st_size
	             : SCAN_SOURCE_MAX_BYTES;
	char *buf = xmalloc(cap + 1);
	size_t n = 0;
	while (n < cap) {
		ssize_t r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = 0;
	*len = n;
	return buf;
}

char *scan_source_text(const char *path)
{
	size_t len;
	return read_source(path, &len);
}

/* ---- lines ----------------------------------------------------------------------- */

static size_t *index_lines(const char *text, size_t len, int *nlines)
{
	size_t cap = 64, n = 0;
	size_t *start = xmalloc(cap * sizeof *start);
	start[n++] = 0;
	for (const char *p = text, *e = text + len;
	     (p = memchr(p, '\n', (size_t)(e - p))) != NULL && n < INT32_MAX; p++) {
		if (n == cap)
			start = xrealloc(start, (cap *= 2) * sizeof *start);
		start[n++] = (size_t)(p + 1 - text);
	}
	*nlines = (int)n;
	return start;
}

static bool line_of(const Kept *k, int line, const char **s, size_t *n)
{
	if (!k->text || line < 1 || line > k->nlines || k->start[line - 1] >= k->len)
		return false;
	const char *p = k->text + k->start[line - 1], *e = k->text + k->len, *q = p;
	while (q < e && *q != '\n' && *q != '\r')
		q++;
	*s = p;
	*n = (size_t)(q - p);
	return true;
}

static void drop(Kept *k)
{
	free(k->path);
	free(k->text);
	free(k->start);
	memset(k, 0, sizeof *k);
}

bool scan_source_line(const char *path, int line, const char **s, size_t *n)
{
	Kept *k = NULL, *old = &kept[0];
	for (int i = 0; i < KEPT && !k; i++) {
		if (kept[i].path && strcmp(kept[i].path, path) == 0)
			k = &kept[i];
		else if (kept[i].used < old->used)
			old = &kept[i];
	}
	if (!k) {
		k = old;
		drop(k);
		k->path = xstrdup(path);
		k->text = read_source(path, &k->len);
		if (k->text)
			k->start = index_lines(k->text, k->len, &k->nlines);
	}
	k->used = ++clock_;
	return line_of(k, line, s, n);
}

bool scan_source_text_line(const Src *src, int line, const char **s, size_t *n)
{
	if (ptx_text != src->text || ptx.len != src->len) {
		free(ptx.start);
		ptx.text = (char *)src->text;
		ptx.len = src->len;
		ptx.start = index_lines(src->text, src->len, &ptx.nlines);
		ptx_text = src->text;
	}
	return line_of(&ptx, line, s, n);
}

void scan_source_free(void)
{
	for (int i = 0; i < KEPT; i++)
		drop(&kept[i]);
	free(ptx.start);
	memset(&ptx, 0, sizeof ptx);
	ptx_text = NULL;
	free(allow_cu);
	allow_cu = NULL;
	for (int i = 0; i < nallow_file; i++)
		free(allow_file[i]);
	free(allow_file);
	allow_file = NULL;
	nallow_file = 0;
	for (int i = 0; i < nallow_dir; i++)
		free(allow_dir[i]);
	nallow_dir = 0;
}
