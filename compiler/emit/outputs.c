/* Writing a build's outputs, all or nothing.
 *
 * Everything an invocation writes (every tile's files, the manifest, the
 * depfile) has been rendered into memory before this stage starts, but
 * for outputs made by a render function (outs_add_render: the check
 * programs, 82 MB each at the limits), which can only fail to write and
 * are made straight into their temporaries in step 3.  Then:
 *
 *   1. the output folder is made, parents included (a concurrent creator
 *      is no error), and locked (flock on the folder itself, so that no
 *      lock file is left in it, nor made through a symlink), so that two
 *      builds into one folder take turns;
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
 * removes: the lock proves the folder's own dead, whatever their PID.
 * An output whose contents did not change is not rewritten, so make and
 * Ninja see an unchanged time stamp. */
#define _XOPEN_SOURCE 700   /* realpath, S_ISVTX */
#define _DEFAULT_SOURCE     /* flock(2): BSD's and Linux's, not POSIX's */
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
#include "emit/manifest.h"

/* Temporaries: TMP_PREFIX in the locked output folder, where only
 * holders of its lock write them; TMP_PID_PREFIX beside a depfile in any
 * other folder, written without that folder's lock (see remove_stale). */
#define TMP_PREFIX ".bankc-tmp."
#define TMP_PID_PREFIX ".bankc-tmp-pid."
#define MANIFEST ".bankc-manifest"
#define LOCK ".bankc-lock"   /* the lock file of bankc 0.1.0's builds */

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
	x->render = NULL;
	x->arg = NULL;
}

void outs_add_render(Outs *o, const char *dir, const char *file,
                     void (*render)(FILE *f, void *arg), void *arg,
                     const char *spec)
{
	outs_add(o, dir, file, NULL, 0, spec);
	o->v[o->n - 1].render = render;
	o->v[o->n - 1].arg = arg;
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
		fprintf(stderr, "bankc: error: '%s' exists and is not a folder\n", esc_shown(dir));
		return false;
	}
	char *parent = dir_of(dir);
	bool ok = strcmp(parent, dir) == 0 || make_dirs(parent);
	free(parent);
	if (!ok)
		return false;
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "bankc: error: cannot create folder '%s': %s\n", esc_shown(dir),
		        strerror(errno));
		return false;
	}
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "bankc: error: '%s' exists and is not a folder\n", esc_shown(dir));
		return false;
	}
	return true;
}

/* The output folder this run holds the lock of (take_lock). */
static dev_t locked_dev;
static ino_t locked_ino;
static bool locked_set;

/* Is dir the folder whose lock this run holds? */
static bool is_locked(const char *dir)
{
	struct stat st;
	return locked_set && stat(dir, &st) == 0 && st.st_dev == locked_dev &&
	       st.st_ino == locked_ino;
}

/* Temporaries a killed run left.  .bankc-tmp.PID.XXXXXX are written only
 * into a folder by the holder of its lock, so while this run holds it
 * every one there is dead, whatever its PID: in a CI container every run
 * may have the same PID, and such a run's temporaries were once kept as
 * if they were its own.  .bankc-tmp-pid.PID.XXXXXX (beside a depfile
 * outside the output folder, written without that folder's lock) are
 * dead when their process is gone; those of this run's PID are kept, as
 * another container's may be alive.  Either kind is dead once a day old. */
static void remove_stale(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	bool locked = is_locked(dir);
	struct dirent *e;
	size_t np = strlen(TMP_PREFIX), npp = strlen(TMP_PID_PREFIX);
	while ((e = readdir(d))) {
		bool ours = strncmp(e->d_name, TMP_PREFIX, np) == 0;
		if (!ours && strncmp(e->d_name, TMP_PID_PREFIX, npp) != 0)
			continue;
		char path[PATH_MAX];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		struct stat st;
		bool old = lstat(path, &st) == 0 && time(NULL) - st.st_mtime > 86400;
		bool dead;
		if (ours) {
			dead = locked;
		} else {
			long pid = strtol(e->d_name + npp, NULL, 10);
			dead = pid != (long)getpid() &&
			       (pid <= 0 || (kill((pid_t)pid, 0) != 0 && errno == ESRCH));
		}
		if (dead || old)
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

/* A mkstemp template for a temporary beside target, malloc'ed, published
 * in pending before mkstemp makes the file, so that a signal at any
 * moment finds it; until then its name names nothing. */
static char *pending_name(const char *target)
{
	char *dir = dir_of(target);
	size_t n = strlen(dir) + sizeof TMP_PID_PREFIX + 32;
	char *t = xmalloc(n);
	snprintf(t, n, "%s/%s%ld.XXXXXX", dir,
	         is_locked(dir) ? TMP_PREFIX : TMP_PID_PREFIX, (long)getpid());
	free(dir);
	pending[npending] = t;
	npending++;
	return t;
}

/* Write data to a new temporary beside target; its name in *tmp. */
static bool write_tmp(const char *target, const char *data, size_t len,
                      char **tmp)
{
	char *t = pending_name(target);
	*tmp = t;
	int fd = mkstemp(t);
	if (fd < 0) {
		fprintf(stderr, "bankc: error: cannot create a file beside '%s': %s\n",
		        esc_shown(target), strerror(errno));
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
		fprintf(stderr, "bankc: error: cannot write '%s': %s\n", esc_shown(target),
		        strerror(saved ? saved : EIO));
	return ok;
}

/* Are the files a and b the same bytes? */
static bool same_files(const char *a, const char *b)
{
	struct stat sa, sb;
	if (stat(a, &sa) != 0 || stat(b, &sb) != 0 || sa.st_size != sb.st_size)
		return false;
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	bool same = fa && fb;
	static char x[65536], y[65536];
	size_t n;
	while (same && (n = fread(x, 1, sizeof x, fa)) > 0)
		same = fread(y, 1, n, fb) == n && memcmp(x, y, n) == 0;
	same = same && !ferror(fa) && !ferror(fb);
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

/* An output made by its render function, straight into a new temporary
 * beside its target (*tmp); where that is the target's bytes already,
 * the temporary goes (*tmp NULL), so the target keeps its time stamp. */
static bool render_tmp(const OutFile *x, char **tmp)
{
	char *t = pending_name(x->path);
	*tmp = t;
	int fd = mkstemp(t);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		fprintf(stderr, "bankc: error: cannot create a file beside '%s': %s\n",
		        x->path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return false;
	}
	static char buf[1 << 20];
	setvbuf(f, buf, _IOFBF, sizeof buf);
	x->render(f, x->arg);
	int saved = fflush(f) != 0 || ferror(f) ? errno : 0;
	if (fclose(f) != 0 && !saved)
		saved = errno ? errno : EIO;
	if (!saved && !chmod_plain(t))
		saved = errno;
	if (saved) {
		fprintf(stderr, "bankc: error: cannot write '%s': %s\n", x->path,
		        strerror(saved));
		return false;
	}
	if (same_files(x->path, t)) {
		unlink(t);
		pending[npending - 1] = NULL;   /* the handler's last name: t */
		free(t);
		*tmp = NULL;
	}
	return true;
}

/* ---- the manifest's outputs ------------------------------------------------------ */

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

static bool in_list(char **v, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return true;
	return false;
}

/* ---- what each target is before anything is replaced -------------------------- */

/* A path with its folder resolved (the file itself need not exist), to
 * tell whether two names name one file; NULL if the folder is missing. */
static char *canon(const char *path)
{
	char *dir = dir_of(path), *r = realpath(dir, NULL);
	free(dir);
	if (!r)
		return NULL;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strlen(r) + strlen(base) + 2;
	char *c = xmalloc(n);
	snprintf(c, n, "%s/%s", r, base);
	free(r);
	return c;
}

/* No output may be an input, and the depfile may be none of the outputs,
 * the manifest, the lock, an input or another spec's output. */
static bool targets_distinct(const Outs *o, int nout, const char *dir,
                             const char *depfile, char **specs, int nspecs,
                             const Manifest *old)
{
	bool ok = true;
	char *dep = depfile ? canon(depfile) : NULL;
	for (int i = 0; i < nout + 2 + old->n; i++) {
		char buf[PATH_MAX];
		const char *name = buf;
		if (i < nout)
			name = o->v[i].path;
		else if (i < nout + 2)
			snprintf(buf, sizeof buf, "%s/%s", dir, i == nout ? MANIFEST : LOCK);
		else
			snprintf(buf, sizeof buf, "%s/%s", dir, old->file[i - nout - 2]);
		char *c = canon(name);
		if (c && i < nout && in_list(specs, nspecs, c)) {
			fprintf(stderr, "bankc: error: the output '%s' would replace its "
			        "input\n", esc_shown(name));
			ok = false;
		} else if (c && dep && strcmp(c, dep) == 0) {
			fprintf(stderr, "bankc: error: the depfile '%s' would replace "
			        "%s '%s'\n", esc_shown(depfile), i < nout ? "the output" : i == nout ?
			        "the manifest" : i == nout + 1 ? "the lock" :
			        "another build's output", esc_shown(name));
			ok = false;
			free(dep);
			dep = NULL;
		}
		free(c);
	}
	if (dep && in_list(specs, nspecs, dep)) {
		fprintf(stderr, "bankc: error: the depfile '%s' would replace an "
		        "input\n", esc_shown(depfile));
		ok = false;
	}
	free(dep);
	return ok;
}

/* Can target be replaced by a rename?  Not if it is a folder, nor, in a
 * sticky folder (/tmp), if it is another user's: checked before the first
 * rename, so that a build does not stop halfway for either. */
static bool replaceable(const char *target)
{
	struct stat st, ds;
	if (lstat(target, &st) != 0)
		return true;
	if (S_ISDIR(st.st_mode)) {
		fprintf(stderr, "bankc: error: cannot write '%s': it is a folder\n",
		        esc_shown(target));
		return false;
	}
	char *dir = dir_of(target);
	bool sticky = stat(dir, &ds) == 0 && (ds.st_mode & S_ISVTX);
	free(dir);
	uid_t me = geteuid();
	if (sticky && me != 0 && st.st_uid != me && ds.st_uid != me) {
		fprintf(stderr, "bankc: error: cannot replace '%s': another user's "
		        "file in a sticky folder\n", esc_shown(target));
		return false;
	}
	return true;
}

/* ---- the commit ---------------------------------------------------------------- */

/* BANKC_TEST_COMMIT=kill:N or fail:N: at the Nth step of the commit (a
 * backup, a rename, a removal), SIGKILL, or fail as if the file system
 * had (EIO); for tests/faults_outputs.sh, which checks that every state a
 * kill leaves is repaired by the next build and that a failure undoes
 * every step before it. */
static long test_at;
static bool test_kill;

static bool step(void)
{
	if (test_at > 0 && --test_at == 0) {
		if (test_kill)
			raise(SIGKILL);
		errno = EIO;
		return false;
	}
	return true;
}

static void test_hook(void)
{
	const char *e = getenv("BANKC_TEST_COMMIT");
	test_at = 0;
	if (e && (strncmp(e, "kill:", 5) == 0 || strncmp(e, "fail:", 5) == 0)) {
		test_kill = e[0] == 'k';
		test_at = strtol(e + 5, NULL, 10);
	}
}

/* A copy of target under a fresh temporary name beside it (*bak), to put
 * back if the commit fails: a hard link, or where links are refused, a
 * copy of its bytes. */
static bool backup(const char *target, char **bak)
{
	struct stat st;
	if (lstat(target, &st) != 0)
		return errno == ENOENT;      /* nothing to keep */
	if (!step())
		return false;
	char *t = pending_name(target);
	int fd = mkstemp(t);
	*bak = t;
	if (fd < 0)
		return false;
	close(fd);
	if (unlink(t) == 0 && link(target, t) == 0)
		return true;
	char *data = NULL;
	size_t len = 0;
	FILE *f = fopen(target, "rb"), *m = xmemstream(&data, &len);
	char chunk[8192];
	size_t k;
	while (f && (k = fread(chunk, 1, sizeof chunk, f)) > 0)
		fwrite(chunk, 1, k, m);
	bool ok = f && !ferror(f);
	if (f)
		fclose(f);
	fclose(m);
	int fdw = ok ? open(t, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600) : -1;
	ok = fdw >= 0 && write(fdw, data, len) == (ssize_t)len;
	if (fdw >= 0)
		ok &= close(fdw) == 0 && chmod(t, st.st_mode & 07777) == 0;
	free(data);
	return ok;
}

typedef struct {
	char *target, *from, *bak;  /* rename from over target; bak: target's old copy */
	bool done, restored;
} Move;

/* Undo moves [0, n) in reverse: each target back to its old copy, or
 * removed where it did not exist. */
static void roll_back(Move *mv, int n)
{
	for (int i = n - 1; i >= 0; i--) {
		if (!mv[i].done)
			continue;
		if (mv[i].bak ? rename(mv[i].bak, mv[i].target) == 0
		              : !mv[i].from || unlink(mv[i].target) == 0 || errno == ENOENT)
			mv[i].restored = true;
		else
			fprintf(stderr, "bankc: error: cannot put back '%s': %s\n",
			        esc_shown(mv[i].target), strerror(errno));
	}
}

/* Make every move (from NULL: remove target), all or nothing. */
static bool move_all(Move *mv, int n)
{
	for (int i = 0; i < n; i++)
		if (!backup(mv[i].target, &mv[i].bak)) {
			fprintf(stderr, "bankc: error: cannot keep a copy of '%s': %s\n",
			        esc_shown(mv[i].target), strerror(errno));
			return false;
		}
	for (int i = 0; i < n; i++) {
		int r = !step() ? -1 : mv[i].from ? rename(mv[i].from, mv[i].target)
		        : mv[i].bak ? unlink(mv[i].target) : 0;
		if (r != 0) {
			fprintf(stderr, "bankc: error: cannot %s '%s': %s\n", mv[i].from ?
			        "write" : "remove", esc_shown(mv[i].target), strerror(errno));
			roll_back(mv, i);
			return false;
		}
		mv[i].done = true;
	}
	return true;
}

/* The manifest, from a list: malloc'ed text, its keys relative to base
 * (the folder's real path). */
static void add_manifest(Outs *o, const char *dir, const char *base,
                         const Manifest *m)
{
	size_t len;
	char *text = man_render(m, base, &len);
	outs_add(o, dir, MANIFEST, text, len, NULL);
}

/* The lock: a file in dir that builds into dir hold in turn.  Never
 * through a symlink: one planted there would make bankc create a file
 * wherever it points. */
static int take_lock(const char *dir)
{
	int lock = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (lock < 0) {
		fprintf(stderr, "bankc: error: cannot open folder '%s': %s\n", esc_shown(dir),
		        strerror(errno));
		return -1;
	}
	while (flock(lock, LOCK_EX) != 0 && errno == EINTR)
		;
	struct stat st;
	if (fstat(lock, &st) == 0) {
		locked_dev = st.st_dev;
		locked_ino = st.st_ino;
		locked_set = true;
	}
	/* the lock file of bankc 0.1.0's builds goes; a symlink planted under
	 * its name is removed, never followed */
	char old[PATH_MAX];
	snprintf(old, sizeof old, "%s/" LOCK, dir);
	unlink(old);
	return lock;
}

/* The order of the commit, so that a kill at any point leaves a state the
 * next build repairs: first a manifest that lists the old outputs and the
 * new (so whatever is on disk is listed), then the outputs, then the old
 * outputs this build no longer makes are removed, and last the manifest
 * of exactly what is there. */
bool outs_commit(Outs *o, const char *dir, char **specs, int nspecs,
                 const char *depfile, char *dep, size_t deplen)
{
	bool ok = make_dirs(dir);
	char *depdir = depfile ? dir_of(depfile) : NULL;
	if (ok && depdir)
		ok = make_dirs(depdir);
	int lock = ok ? take_lock(dir) : -1;
	if (lock < 0) {
		free(depdir);
		free(dep);
		return false;
	}
	remove_stale(dir);
	if (depdir && strcmp(depdir, dir) != 0)
		remove_stale(depdir);
	free(depdir);
	test_hook();

	/* the manifests: what other specs' builds made stays; this build's
	 * specs get exactly what it makes now (next), and while it replaces
	 * them, old and new (both) */
	char manpath[PATH_MAX];
	snprintf(manpath, sizeof manpath, "%s/" MANIFEST, dir);
	Manifest old = {0}, next = {0}, both = {0};
	char *base = realpath(dir, NULL);   /* NULL: keys as they are */
	man_read(manpath, base, &old);
	int nout = o->n;
	ok = man_owners_ok(&old, specs, nspecs, dir, o->v, nout) &&
	     targets_distinct(o, nout, dir, depfile, specs, nspecs, &old);
	for (int i = 0; i < old.n; i++) {
		man_add(&both, old.spec[i], old.file[i]);
		/* an output this build takes over (its spec is gone) is its own */
		bool taken = false;
		for (int k = 0; k < nout && !taken; k++)
			taken = o->v[k].spec && strcmp(o->v[k].file, old.file[i]) == 0;
		if (!in_list(specs, nspecs, old.spec[i]) && !taken)
			man_add(&next, old.spec[i], old.file[i]);
	}
	for (int i = 0; i < nout; i++)
		if (o->v[i].spec) {
			man_add(&next, o->v[i].spec, o->v[i].file);
			man_add(&both, o->v[i].spec, o->v[i].file);
		}
	char **stale = xcalloc((size_t)old.n + 1, sizeof *stale);
	int nstale = 0;
	for (int i = 0; i < old.n; i++) {
		bool kept = in_list(next.file, next.n, old.file[i]);
		struct stat st;
		char path[PATH_MAX];
		snprintf(path, sizeof path, "%s/%s", dir, old.file[i]);
		if (!kept && output_name(old.file[i]) && !in_list(stale, nstale, path) &&
		    lstat(path, &st) == 0 && !S_ISDIR(st.st_mode))
			stale[nstale++] = xstrdup(path);
	}
	add_manifest(o, dir, base, &both);  /* o->v[nout] */
	add_manifest(o, dir, base, &next);  /* o->v[nout + 1] */
	free(base);
	if (depfile)
		outs_add(o, NULL, depfile, dep, deplen, NULL);
	else
		free(dep);

	/* every changed output to a temporary */
	pending = xcalloc(2 * (size_t)o->n + (size_t)nstale + 1, sizeof *pending);
	npending = 0;
	catch_signals();
	bool same_both = o->v[nout].len == o->v[nout + 1].len &&
	                 memcmp(o->v[nout].data, o->v[nout + 1].data,
	                        o->v[nout].len) == 0;
	for (int i = 0; ok && i < o->n; i++) {
		OutFile *x = &o->v[i];
		if (i == nout && same_both)
			continue;   /* nothing to remove: the final manifest will do */
		if (x->render)
			ok = render_tmp(x, &x->tmp);
		else if (!same_contents(x->path, x->data, x->len))
			ok = write_tmp(x->path, x->data, x->len, &x->tmp);
	}
	for (int i = 0; ok && i < o->n; i++)
		if (o->v[i].tmp && !replaceable(o->v[i].path))
			ok = false;

	/* the moves, in the order above */
	Move *mv = xcalloc((size_t)o->n + (size_t)nstale + 1, sizeof *mv);
	int nm = 0;
	if (o->v[nout].tmp)
		mv[nm++] = (Move){manpath, o->v[nout].tmp, NULL, false, false};
	for (int i = 0; i < o->n; i++)
		if (i != nout && i != nout + 1 && o->v[i].tmp)
			mv[nm++] = (Move){o->v[i].path, o->v[i].tmp, NULL, false, false};
	for (int i = 0; i < nstale; i++)
		mv[nm++] = (Move){stale[i], NULL, NULL, false, false};
	if (o->v[nout + 1].tmp)
		mv[nm++] = (Move){manpath, o->v[nout + 1].tmp, NULL, false, false};
	sigset_t oldmask;
	block_signals(true, &oldmask);
	if (ok)
		ok = move_all(mv, nm);
	/* what is left: temporaries not renamed, the old copies */
	npending = 0;
	for (int i = 0; i < nm; i++) {
		if (mv[i].bak && !mv[i].restored)
			unlink(mv[i].bak);
		free(mv[i].bak);
		for (int k = 0; mv[i].done && mv[i].from && k < o->n; k++)
			if (o->v[k].tmp == mv[i].from) {
				free(o->v[k].tmp);
				o->v[k].tmp = NULL;
			}
	}
	for (int i = 0; i < o->n; i++)
		if (o->v[i].tmp)
			unlink(o->v[i].tmp);
	block_signals(false, &oldmask);
	for (int i = 0; i < nstale; i++)
		free(stale[i]);
	free(stale);
	free(mv);
	free((void *)pending);
	pending = NULL;
	man_free(&old);
	man_free(&next);
	man_free(&both);
	locked_set = false;
	/* the outputs (and the manifest, the depfile, the lock), written or
	 * kept: no --sarif log replaces one */
	for (int i = 0; i < o->n; i++)
		files_used_path(o->v[i].path);
	files_used_path(manpath);
	files_used_fd(lock);
	close(lock);
	return ok;
}
