/* bankc scan FILE.cu: running nvcc safely.
 *
 * nvcc runs its stages through /bin/sh with the file names and flags
 * pasted in unquoted, so a file named x$(cmd)y.cu, or a flag -DX=$(cmd),
 * would run cmd.  bankc therefore hands nvcc only names of its own making
 * or names of characters that the shell reads literally:
 *   - a source whose path (as given, or its real path, which nvcc also
 *     passes) has any other character is copied to DIR/in.cu in bankc's
 *     private folder DIR, and compiled with -I DIR/src, a link to its
 *     folder, so that #include "..." of its folder still works; the
 *     .file names nvcc writes for those are mapped back to the user's;
 *   - a flag after -- with any other character is refused;
 *   - nvcc's own temporaries go into DIR too (TMPDIR), which is made under
 *     $TMPDIR when that is a literal name, else /tmp.
 * nvcc runs in a process group of its own: SIGINT, SIGTERM or SIGHUP is
 * passed on to the whole group, the folder is removed with all in it,
 * and bankc then ends by the same signal. */
#define _XOPEN_SOURCE 700   /* mkdtemp, realpath, symlink, fdopendir */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/scan_nvcc.h"
#include "scan/scan_source.h"

extern char **environ;

/* ---- names the shell reads literally ----------------------------------------- */

static bool literal_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || strchr("_-+=.,/:@%", c) != NULL;
}

static bool literal(const char *s)
{
	if (!*s)
		return false;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (!literal_char(*p))
			return false;
	return true;
}

/* A name for a message (scan_escape.c: no control or non-UTF-8 byte). */
static const char *shown(const char *s)
{
	static char buf[1024];
	return scan_escape(s, buf, sizeof buf);
}

bool scan_nvcc_flag_ok(const char *flag)
{
	if (literal(flag))
		return true;
	fprintf(stderr, "bankc: error: nvcc flag '%s' refused: nvcc runs its stages "
	        "through a shell, and flags may hold only letters, digits and "
	        "_-+=.,/:@%% (no spaces, quotes or $)\n", shown(flag));
	return false;
}

/* ---- signals ------------------------------------------------------------------ */

static const int term_sigs[] = {SIGINT, SIGTERM, SIGHUP};
enum { NSIGS = sizeof term_sigs / sizeof *term_sigs };
static volatile sig_atomic_t got_sig;   /* the first signal caught */
static volatile sig_atomic_t group;     /* nvcc's process group, 0: none */
static struct sigaction saved[NSIGS];
static bool caught;

static void on_signal(int sig)
{
	if (!got_sig)
		got_sig = sig;
	if (group > 0)
		kill(-(pid_t)group, sig);
}

static void catch_signals(void)
{
	for (int i = 0; i < NSIGS; i++) {
		struct sigaction sa = {0};
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		/* no SA_RESTART: waitpid returns to see the signal; a signal the
		 * caller ignores (nohup) stays ignored */
		if (sigaction(term_sigs[i], NULL, &saved[i]) == 0 &&
		    saved[i].sa_handler != SIG_IGN)
			sigaction(term_sigs[i], &sa, NULL);
	}
	caught = true;
}

static void restore_signals(void)
{
	if (!caught)
		return;
	for (int i = 0; i < NSIGS; i++)
		sigaction(term_sigs[i], &saved[i], NULL);
	caught = false;
}

/* ---- the folder ------------------------------------------------------------------ */

/* Everything under the folder fd, links removed and never followed. */
static void remove_under(int fd)
{
	DIR *d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		struct stat st;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
			if (sub >= 0)
				remove_under(sub);
			unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR);
		} else {
			unlinkat(dirfd(d), e->d_name, 0);
		}
	}
	closedir(d);
}

void scan_nvcc_cleanup(ScanNvcc *r)
{
	if (r->dir[0]) {
		int fd = open(r->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
		if (fd >= 0)
			remove_under(fd);
		rmdir(r->dir);
		r->dir[0] = 0;
	}
	restore_signals();
	if (got_sig) {
		int sig = got_sig;
		signal(sig, SIG_DFL);
		raise(sig);
		_exit(128 + sig);
	}
}

static const char *temp_base(void)
{
	const char *t = getenv("TMPDIR");
	return t && *t && literal(t) && strlen(t) < 4000 ? t : "/tmp";
}

/* The source's bytes into DIR/in.cu: a copy, as nvcc passes a link's
 * target to its shell. */
static bool copy_source(const char *file, const char *to)
{
	int in = open(file, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	struct stat st;
	if (in < 0 || fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "bankc: error: cannot open '%s': %s\n", shown(file),
		        in < 0 ? strerror(errno) : "not a regular file");
		if (in >= 0)
			close(in);
		return false;
	}
	files_used_fd(in);
	int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
	bool ok = out >= 0;
	char buf[1 << 16];
	ssize_t n = 0;
	while (ok && (n = read(in, buf, sizeof buf)) > 0)
		ok = write(out, buf, (size_t)n) == n;
	ok = ok && n == 0;
	if (!ok)
		fprintf(stderr, "bankc: error: cannot copy '%s' into %s: %s\n", shown(file), to,
		        strerror(errno));
	close(in);
	if (out >= 0 && close(out) != 0)
		ok = false;
	return ok;
}

/* DIR/in.cu, a copy of the source, and DIR/src, a link to its folder. */
static bool make_copy(const char *file, const char *abs, ScanNvcc *r)
{
	snprintf(r->cu, sizeof r->cu, "%s/in.cu", r->dir);
	snprintf(r->inc, sizeof r->inc, "%s/src", r->dir);
	if (!copy_source(file, r->cu))
		return false;
	char *folder = xstrdup(abs);
	char *slash = strrchr(folder, '/');
	if (slash == folder)
		slash[1] = 0;
	else
		*slash = 0;
	bool ok = symlink(folder, r->inc) == 0;
	if (!ok)
		fprintf(stderr, "bankc: error: cannot make a link in %s: %s\n", r->dir,
		        strerror(errno));
	free(folder);
	return ok;
}

/* ---- nvcc --------------------------------------------------------------------------- */

/* The environment with TMPDIR set to the private folder. */
static char **child_env(const ScanNvcc *r, char *tmpdir, size_t n)
{
	size_t k = 0;
	while (environ[k])
		k++;
	char **env = xcalloc(k + 2, sizeof *env);
	size_t j = 0;
	for (size_t i = 0; i < k; i++)
		if (strncmp(environ[i], "TMPDIR=", 7) != 0)
			env[j++] = environ[i];
	snprintf(tmpdir, n, "TMPDIR=%s", r->dir);
	env[j++] = tmpdir;
	env[j] = NULL;
	return env;
}

static bool wait_nvcc(pid_t pid, const char *file)
{
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			fprintf(stderr, "bankc: error: waiting for nvcc: %s\n", strerror(errno));
			return false;
		}
	/* stages nvcc left running when it ended by a signal */
	kill(-pid, SIGKILL);
	group = 0;
	if (got_sig)
		return false;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "bankc: error: nvcc failed on '%s' (status %d)\n", shown(file),
		        WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		return false;
	}
	return true;
}

bool scan_nvcc_run(const char *file, char **flags, int nflags, ScanNvcc *r)
{
	memset(r, 0, sizeof *r);
	r->file = file;
	for (int i = 0; i < nflags; i++)
		if (!scan_nvcc_flag_ok(flags[i]))
			return false;
	catch_signals();
	const char *tmp = temp_base();
	snprintf(r->dir, sizeof r->dir, "%s/bankc-scan-XXXXXX", tmp);
	if (!mkdtemp(r->dir)) {
		fprintf(stderr, "bankc: error: cannot make a temporary folder in %s: %s\n",
		        tmp, strerror(errno));
		r->dir[0] = 0;
		return false;
	}
	snprintf(r->ptx, sizeof r->ptx, "%s/scan.ptx", r->dir);
	/* nvcc passes the name given and its real path to the shell: both
	 * literal, and not read as an option */
	char *abs = realpath(file, NULL);
	if (!abs) {
		fprintf(stderr, "bankc: error: cannot open '%s': %s\n", shown(file), strerror(errno));
		return false;
	}
	bool own = literal(file) && literal(abs) && file[0] != '-';
	bool made = own || make_copy(file, abs, r);
	free(abs);
	if (!made)
		return false;
	const char *nvcc = getenv("NVCC") && *getenv("NVCC") ? getenv("NVCC") : "nvcc";
	char **argv = xcalloc((size_t)nflags + 16, sizeof *argv);
	int n = 0;
	argv[n++] = (char *)nvcc;
	argv[n++] = "-ptx";
	argv[n++] = "-lineinfo";
	bool arch = false;
	for (int i = 0; i < nflags; i++)
		arch |= strncmp(flags[i], "-arch", 5) == 0 ||
		        strncmp(flags[i], "--gpu-architecture", 18) == 0 ||
		        strncmp(flags[i], "-gencode", 8) == 0 ||
		        strncmp(flags[i], "--generate-code", 15) == 0;
	if (!arch)
		argv[n++] = "-arch=sm_90";
	if (!own) {
		argv[n++] = "-I";
		argv[n++] = r->inc;
	}
	for (int i = 0; i < nflags; i++)
		argv[n++] = flags[i];
	/* the files the compilation reads: their lines may be shown */
	snprintf(r->deps, sizeof r->deps, "%s/scan.d", r->dir);
	argv[n++] = "-MD";
	argv[n++] = "-MF";
	argv[n++] = r->deps;
	argv[n++] = "-o";
	argv[n++] = r->ptx;
	argv[n++] = own ? (char *)file : r->cu;
	argv[n] = NULL;
	char tmpdir[4200];
	char **env = child_env(r, tmpdir, sizeof tmpdir);
	posix_spawnattr_t at;
	posix_spawnattr_init(&at);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
	posix_spawnattr_setpgroup(&at, 0);
	pid_t pid = 0;
	int err = got_sig ? EINTR : posix_spawnp(&pid, nvcc, NULL, &at, argv, env);
	posix_spawnattr_destroy(&at);
	free(argv);
	free(env);
	if (err) {
		if (!got_sig)
			fprintf(stderr, "bankc: error: cannot run '%s': %s (set NVCC, or scan "
			        "the PTX: nvcc -ptx -lineinfo)\n", nvcc, strerror(err));
		return false;
	}
	group = pid;
	if (got_sig)            /* came before the group was known */
		kill(-pid, got_sig);
	bool ok = wait_nvcc(pid, file);
	if (!ok && !got_sig && !own)
		fprintf(stderr, "bankc: note: nvcc compiled '%s' as its copy %s, as its "
		        "path holds characters nvcc's shell would read\n", shown(file), r->cu);
	return ok;
}

/* ---- the names nvcc wrote ------------------------------------------------------------- */

void scan_nvcc_map_files(const ScanNvcc *r, PtxModule *m)
{
	if (!r->cu[0])
		return;
	/* the source's folder as the user gave it: "" for a bare name */
	const char *slash = strrchr(r->file, '/');
	size_t dn = slash ? (size_t)(slash - r->file) + 1 : 0;
	size_t in = strlen(r->inc);
	for (int i = 0; i < m->nfile; i++) {
		const char *p = m->file[i].path;
		if (strcmp(p, r->cu) == 0) {
			m->file[i].path = pool_strndup(m->pool, r->file, strlen(r->file));
		} else if (strncmp(p, r->inc, in) == 0 && p[in] == '/') {
			const char *rest = p + in + 1;
			size_t rn = strlen(rest);
			char *q = pool_alloc(m->pool, dn + rn + 1);
			memcpy(q, r->file, dn);
			memcpy(q + dn, rest, rn + 1);
			m->file[i].path = q;
		}
	}
}

/* ---- the files it read ------------------------------------------------------------------ */

int scan_nvcc_deps(const ScanNvcc *r, char ***out)
{
	*out = NULL;
	Src s;
	char *msg = NULL;
	size_t mlen = 0;
	FILE *quiet = xmemstream(&msg, &mlen);  /* no list: no file beyond the .cu */
	bool got = r->deps[0] && read_file(r->deps, NULL, 16 << 20, quiet, &s);
	fclose(quiet);
	free(msg);
	if (!got)
		return 0;
	int n = 0, cap = 0;
	char **v = NULL;
	const char *p = s.text, *e = s.text + s.len;
	/* "TARGET : DEP DEP \\\n DEP ...": the names after the colon, a
	 * backslash before a space or another backslash quoting it */
	const char *colon = memchr(p, ':', s.len);
	for (p = colon ? colon + 1 : e; p < e;) {
		while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' ||
		                 (*p == '\\' && p + 1 < e && (p[1] == '\n' || p[1] == '\r'))))
			p++;
		if (p >= e)
			break;
		char *name = xmalloc((size_t)(e - p) + 1);
		size_t k = 0;
		while (p < e && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
			if (*p == '\\' && p + 1 < e && (p[1] == ' ' || p[1] == '\\' || p[1] == '#'))
				p++;
			else if (*p == '\\' && p + 1 < e && (p[1] == '\n' || p[1] == '\r'))
				break;
			name[k++] = *p++;
		}
		name[k] = 0;
		if (!k) {
			free(name);
			continue;
		}
		/* a name through bankc's links: the user's */
		size_t in = strlen(r->inc);
		if (r->cu[0] && strcmp(name, r->cu) == 0) {
			free(name);
			name = xstrdup(r->file);
		} else if (r->cu[0] && strncmp(name, r->inc, in) == 0 && name[in] == '/') {
			const char *slash = strrchr(r->file, '/');
			size_t dn = slash ? (size_t)(slash - r->file) + 1 : 0;
			char *q = xmalloc(dn + strlen(name + in + 1) + 1);
			memcpy(q, r->file, dn);
			strcpy(q + dn, name + in + 1);
			free(name);
			name = q;
		}
		if (n == cap)
			v = xrealloc(v, (size_t)(cap = cap ? 2 * cap : 64) * sizeof *v);
		v[n++] = name;
	}
	free((char *)s.text);
	*out = v;
	return n;
}
