/* Writing a build's outputs, all or nothing.
 *
 * Everything an invocation writes (every tile's files, the manifest, the
 * depfile) has been rendered into memory before this stage starts.  Then:
 *
 *   1. the output folder is made, parents included (a concurrent creator
 *      is no error), and locked (flock on the folder itself, so that no
 *      lock file is left in it), so that two builds into one folder take
 *      turns;
 *   2. temporaries that killed runs left behind are removed;
 *   3. every output whose contents changed is written to a temporary file
 *      beside its target, each write and close checked; on any failure
 *      all the temporaries are removed and nothing else is touched;
 *   4. with the termination signals blocked, each temporary is renamed
 *      over its target, and the outputs that an earlier build of the same
 *      specs made and this one does not (the manifest says which) are
 *      removed.
 *
 * A signal before step 4 removes the temporaries and leaves the folder as
 * it was; SIGKILL can leave temporaries, which the next run's step 2
 * removes.  An output whose contents did not change is not rewritten, so
 * make and Ninja see an unchanged time stamp. */
/* flock(2): BSD's and Linux's, not POSIX's */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bankc.h"

#define TMP_PREFIX ".bankc-tmp."
#define MANIFEST ".bankc-manifest"
#define OLD_LOCK ".bankc-lock"  /* the lock file of bankc 0.1.0's builds */

void outs_add(Outs *o, const char *dir, const char *file, char *data,
              size_t len, const char *spec)
{
	if (o->n == o->cap) {
		o->cap = o->cap ? 2 * o->cap : 16;
		o->v = xrealloc(o->v, (size_t)o->cap * sizeof *o->v);
	}
	OutFile *x = &o->v[o->n++];
	size_t n = (dir ? strlen(dir) + 1 : 0) + strlen(file) + 1;
	x->path = xmalloc(n);
	snprintf(x->path, n, "%s%s%s", dir ? dir : "", dir ? "/" : "", file);
	x->file = x->path + (dir ? strlen(dir) + 1 : 0);
	x->data = data;
	x->len = len;
	x->spec = spec;
	x->tmp = NULL;
}

void outs_free(Outs *o)
{
	for (int i = 0; i < o->n; i++) {
		free(o->v[i].path);
		free(o->v[i].data);
		free(o->v[i].tmp);
	}
	free(o->v);
	memset(o, 0, sizeof *o);
}

/* ---- signals --------------------------------------------------------------- */

/* The temporaries written so far, for the handler to remove.  Paths are
 * allocated before they are published, and the count only grows. */
static char *volatile *pending;
static volatile sig_atomic_t npending;

static const int term_sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
enum { NSIGS = sizeof term_sigs / sizeof *term_sigs };

static void on_signal(int sig)
{
	for (sig_atomic_t i = 0; i < npending; i++)
		if (pending[i])
			unlink(pending[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_signals(void)
{
	for (int i = 0; i < NSIGS; i++) {
		struct sigaction sa = {0}, old;
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		/* a signal the caller ignores (nohup, trap '') stays ignored */
		if (sigaction(term_sigs[i], NULL, &old) == 0 &&
		    old.sa_handler != SIG_IGN)
			sigaction(term_sigs[i], &sa, NULL);
	}
	/* past a file-size limit, a write fails (EFBIG) instead of killing
	 * the process, so the temporaries are removed as for any failure */
	signal(SIGXFSZ, SIG_IGN);
}

static void block_signals(bool block, sigset_t *old)
{
	sigset_t set;
	sigemptyset(&set);
	for (int i = 0; i < NSIGS; i++)
		sigaddset(&set, term_sigs[i]);
	sigprocmask(block ? SIG_BLOCK : SIG_SETMASK, block ? &set : old,
	            block ? old : NULL);
}

/* ---- files ------------------------------------------------------------------- */

/* Does path hold exactly data? */
static bool same_contents(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	bool same = true;
	char buf[8192];
	size_t off = 0, n;
	while (same && (n = fread(buf, 1, sizeof buf, f)) > 0) {
		same = off + n <= len && memcmp(buf, data + off, n) == 0;
		off += n;
	}
	same = same && !ferror(f) && off == len;
	fclose(f);
	return same;
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return strndup(path, (size_t)(slash - path));
}

/* mkdir -p: every missing parent, and someone else making one of them at
 * the same time is no error. */
static bool make_dirs(const char *dir)
{
	struct stat st;
	if (stat(dir, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return true;
		fprintf(stderr, "bankc: error: '%s' exists and is not a folder\n", dir);
		return false;
	}
	char *parent = dir_of(dir);
	bool ok = strcmp(parent, dir) == 0 || make_dirs(parent);
	free(parent);
	if (!ok)
		return false;
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "bankc: error: cannot create folder '%s': %s\n", dir,
		        strerror(errno));
		return false;
	}
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "bankc: error: '%s' exists and is not a folder\n", dir);
		return false;
	}
	return true;
}

/* Temporaries are named .bankc-tmp.PID.XXXXXX: one whose process is gone,
 * or that is a day old, was left by a run that was killed. */
static void remove_stale(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	size_t np = strlen(TMP_PREFIX);
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, TMP_PREFIX, np) != 0)
			continue;
		long pid = strtol(e->d_name + np, NULL, 10);
		char path[PATH_MAX];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		struct stat st;
		bool old = stat(path, &st) == 0 && time(NULL) - st.st_mtime > 86400;
		bool gone = pid <= 0 || (kill((pid_t)pid, 0) != 0 && errno == ESRCH);
		if ((old || gone) && pid != (long)getpid())
			unlink(path);
	}
	closedir(d);
}

/* mkstemp makes 0600 files; outputs are ordinary ones. */
static bool chmod_plain(const char *path)
{
	mode_t mask = umask(0);
	umask(mask);
	return chmod(path, 0666 & ~mask) == 0;
}

/* Write data to a new temporary beside target; its name in *tmp. */
static bool write_tmp(const char *target, const char *data, size_t len,
                      char **tmp)
{
	char *dir = dir_of(target);
	size_t n = strlen(dir) + sizeof TMP_PREFIX + 32;
	char *t = xmalloc(n);
	snprintf(t, n, "%s/" TMP_PREFIX "%ld.XXXXXX", dir, (long)getpid());
	free(dir);
	/* published before mkstemp makes the file, so that a signal at any
	 * moment finds it; until then its name names nothing */
	pending[npending] = t;
	npending++;
	*tmp = t;
	int fd = mkstemp(t);
	if (fd < 0) {
		fprintf(stderr, "bankc: error: cannot create a file beside '%s': %s\n",
		        target, strerror(errno));
		return false;
	}
	bool ok = true;
	size_t off = 0;
	while (ok && off < len) {
		ssize_t w = write(fd, data + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		ok = w > 0;
		off += ok ? (size_t)w : 0;
	}
	int saved = ok ? 0 : errno;
	if (close(fd) != 0 && ok)
		ok = false, saved = errno;
	if (ok && !chmod_plain(t))
		ok = false, saved = errno;
	if (!ok)
		fprintf(stderr, "bankc: error: cannot write '%s': %s\n", target,
		        strerror(saved ? saved : EIO));
	return ok;
}

/* ---- the manifest -------------------------------------------------------------- */

/* DIR/.bankc-manifest: "SPEC\tFILE" per output a build made, SPEC the
 * spec file's real path (or "-"), FILE a name inside DIR. */
typedef struct {
	char **spec, **file;
	int n, cap;
} Manifest;

static void man_add(Manifest *m, const char *spec, const char *file)
{
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 64;
		m->spec = xrealloc(m->spec, (size_t)m->cap * sizeof *m->spec);
		m->file = xrealloc(m->file, (size_t)m->cap * sizeof *m->file);
	}
	m->spec[m->n] = xstrdup(spec);
	m->file[m->n++] = xstrdup(file);
}

static void man_free(Manifest *m)
{
	for (int i = 0; i < m->n; i++)
		free(m->spec[i]), free(m->file[i]);
	free(m->spec);
	free(m->file);
}

static void man_read(const char *path, Manifest *m)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	char line[PATH_MAX + 512];
	while (fgets(line, sizeof line, f)) {
		char *tab = strchr(line, '\t');
		char *nl = strchr(line, '\n');
		if (line[0] == '#' || !tab || !nl)
			continue;
		*tab = *nl = 0;
		if (!strchr(tab + 1, '/') && tab[1] && tab[1] != '.')
			man_add(m, line, tab + 1);
	}
	fclose(f);
}

/* Is this one of the names a build writes (so that removing it, because
 * the manifest says a build made it, cannot take a user's file)? */
static bool output_name(const char *file)
{
	static const char *const ends[] = {".cuh", "_check.cu", ".json", ".svg"};
	size_t n = strlen(file);
	for (size_t i = 0; i < sizeof ends / sizeof *ends; i++) {
		size_t k = strlen(ends[i]);
		if (n > k && strcmp(file + n - k, ends[i]) == 0)
			return true;
	}
	return false;
}

static int cmp_lines(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- the commit ---------------------------------------------------------------- */

static bool in_list(char **v, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return true;
	return false;
}

bool outs_commit(Outs *o, const char *dir, char **specs, int nspecs,
                 const char *depfile, char *dep, size_t deplen)
{
	bool ok = make_dirs(dir);
	char *depdir = depfile ? dir_of(depfile) : NULL;
	if (ok && depdir)
		ok = make_dirs(depdir);
	if (!ok) {
		free(depdir);
		return false;
	}
	int lock = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (lock < 0) {
		fprintf(stderr, "bankc: error: cannot open folder '%s': %s\n", dir,
		        strerror(errno));
		free(depdir);
		return false;
	}
	while (flock(lock, LOCK_EX) != 0 && errno == EINTR)
		;
	char oldlock[PATH_MAX];
	snprintf(oldlock, sizeof oldlock, "%s/" OLD_LOCK, dir);
	unlink(oldlock);
	remove_stale(dir);
	if (depdir && strcmp(depdir, dir) != 0)
		remove_stale(depdir);
	free(depdir);

	/* the manifest: what other specs' builds made stays; this build's
	 * specs get exactly what it makes now */
	char manpath[PATH_MAX];
	snprintf(manpath, sizeof manpath, "%s/" MANIFEST, dir);
	Manifest old = {0}, next = {0};
	man_read(manpath, &old);
	for (int i = 0; i < old.n; i++)
		if (!in_list(specs, nspecs, old.spec[i]))
			man_add(&next, old.spec[i], old.file[i]);
	for (int i = 0; i < o->n; i++)
		if (o->v[i].spec)
			man_add(&next, o->v[i].spec, o->v[i].file);
	char **stale = xcalloc((size_t)old.n + 1, sizeof *stale);
	int nstale = 0;
	for (int i = 0; i < old.n; i++) {
		bool kept = false;
		for (int k = 0; k < next.n && !kept; k++)
			kept = strcmp(next.file[k], old.file[i]) == 0;
		if (!kept && output_name(old.file[i]))
			stale[nstale++] = old.file[i];
	}
	char **lines = xcalloc((size_t)next.n + 1, sizeof *lines);
	size_t mlen = 0;
	for (int i = 0; i < next.n; i++) {
		size_t n = strlen(next.spec[i]) + strlen(next.file[i]) + 3;
		lines[i] = xmalloc(n);
		snprintf(lines[i], n, "%s\t%s\n", next.spec[i], next.file[i]);
		mlen += n - 1;
	}
	qsort(lines, (size_t)next.n, sizeof *lines, cmp_lines);
	static const char head[] = "# outputs of bankc build in this folder, by "
	                           "spec; do not edit\n";
	char *man = xmalloc(mlen + sizeof head);
	size_t k = 0;
	memcpy(man, head, sizeof head - 1);
	k = sizeof head - 1;
	for (int i = 0; i < next.n; i++) {
		size_t n = strlen(lines[i]);
		memcpy(man + k, lines[i], n);
		k += n;
		free(lines[i]);
	}
	free(lines);
	outs_add(o, dir, MANIFEST, man, k, NULL);
	if (depfile)
		outs_add(o, NULL, depfile, dep, deplen, NULL);

	/* 3: every changed output to a temporary */
	pending = xcalloc((size_t)o->n + 1, sizeof *pending);
	npending = 0;
	catch_signals();
	for (int i = 0; ok && i < o->n; i++) {
		OutFile *x = &o->v[i];
		if (!same_contents(x->path, x->data, x->len))
			ok = write_tmp(x->path, x->data, x->len, &x->tmp);
	}
	/* 4: rename them all in, with the termination signals held off */
	sigset_t oldmask;
	block_signals(true, &oldmask);
	for (int i = 0; ok && i < o->n; i++) {
		OutFile *x = &o->v[i];
		if (x->tmp && rename(x->tmp, x->path) != 0) {
			fprintf(stderr, "bankc: error: cannot write '%s': %s\n", x->path,
			        strerror(errno));
			ok = false;
		} else if (x->tmp) {
			free(x->tmp);
			x->tmp = NULL;
		}
	}
	for (int i = 0; ok && i < nstale; i++) {
		char path[PATH_MAX];
		snprintf(path, sizeof path, "%s/%s", dir, stale[i]);
		unlink(path);
	}
	for (int i = 0; i < o->n; i++)
		if (o->v[i].tmp)
			unlink(o->v[i].tmp);
	npending = 0;
	block_signals(false, &oldmask);
	free((void *)pending);
	pending = NULL;
	free(stale);
	man_free(&old);
	man_free(&next);
	close(lock);
	return ok;
}
