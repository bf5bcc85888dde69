/* bankc build: for every tile of the spec files, its header, check
 * program, report and picture, written into one folder.
 *
 * Every file is checked, every tile solved and every output rendered in
 * memory before the first byte is written, so a spec with an error leaves
 * the folder as it was.  Each output is written to a temporary file and
 * renamed over the old one, and only when its contents changed (an
 * unchanged output keeps its time stamp, so make rebuilds nothing). */
#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bankc.h"

typedef struct {
	char *path;
	char *data;
	size_t len;
} Output;

typedef struct {
	Output *v;
	int n, cap;
} Outputs;

static void add_output(Outputs *o, const char *dir, const char *name,
                       const char *suffix, char *data, size_t len)
{
	if (o->n == o->cap) {
		o->cap = o->cap ? 2 * o->cap : 16;
		o->v = realloc(o->v, (size_t)o->cap * sizeof *o->v);
		if (!o->v) {
			fputs("bankc: out of memory\n", stderr);
			abort();
		}
	}
	size_t n = strlen(dir) + strlen(name) + strlen(suffix) + 2;
	Output *x = &o->v[o->n++];
	x->path = malloc(n);
	snprintf(x->path, n, "%s/%s%s", dir, name, suffix);
	x->data = data;
	x->len = len;
}

static void free_outputs(Outputs *o)
{
	for (int i = 0; i < o->n; i++) {
		free(o->v[i].path);
		free(o->v[i].data);
	}
	free(o->v);
}

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

/* The temporary file being written, so that a signal can remove it: an
 * interrupted build leaves the previous outputs and nothing else. */
static char *volatile pending_tmp;

static void on_signal(int sig)
{
	char *tmp = pending_tmp;
	if (tmp)
		unlink(tmp);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_signals(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ};
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
		struct sigaction sa = {0}, old;
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		/* a signal the caller ignores (nohup, trap '') stays ignored */
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
	}
}

/* mkstemp makes 0600 files; outputs are ordinary ones. */
static bool fchmod_by_name(const char *path)
{
	mode_t mask = umask(0);
	umask(mask);
	return chmod(path, 0666 & ~mask) == 0;
}

/* Write through a temporary file in the same folder and rename it over
 * the target, so a reader never sees half a file. */
static bool write_atomic(const char *path, const char *data, size_t len)
{
	size_t n = strlen(path) + 16;
	char *tmp = malloc(n);
	snprintf(tmp, n, "%s.tmpXXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		fprintf(stderr, "bankc: error: cannot create a file beside '%s': %s\n",
		        path, strerror(errno));
		free(tmp);
		return false;
	}
	pending_tmp = tmp;
	FILE *f = fdopen(fd, "wb");
	errno = 0;
	bool ok = f && fwrite(data, 1, len, f) == len;
	ok = f && fflush(f) == 0 && ok;
	ok = ok && fsync(fd) == 0;
	int saved = ok ? 0 : errno;
	if (f)
		ok = fclose(f) == 0 && ok;
	else
		close(fd);
	if (ok)
		ok = fchmod_by_name(tmp) && rename(tmp, path) == 0;
	if (!ok) {
		fprintf(stderr, "bankc: error: cannot write '%s': %s\n", path,
		        strerror(saved ? saved : errno));
		unlink(tmp);
	}
	pending_tmp = NULL;
	free(tmp);
	return ok;
}

static bool make_dir(const char *dir)
{
	struct stat st;
	if (stat(dir, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return true;
		fprintf(stderr, "bankc: error: '%s' exists and is not a folder\n", dir);
		return false;
	}
	if (mkdir(dir, 0777) != 0) {
		fprintf(stderr, "bankc: error: cannot create folder '%s': %s\n", dir,
		        strerror(errno));
		return false;
	}
	return true;
}

/* An output rendered into memory before anything is written. */
typedef struct {
	FILE *f;
	char *buf;
	size_t len;
} Mem;

/* In place: the stream keeps pointers to m's buffer and length. */
static FILE *mem_open(Mem *m)
{
	*m = (Mem){0};
	m->f = open_memstream(&m->buf, &m->len);
	if (!m->f) {
		fputs("bankc: out of memory\n", stderr);
		abort();
	}
	return m->f;
}

static void add_mem(Outputs *o, const char *dir, const char *name,
                    const char *suffix, Mem *m)
{
	fclose(m->f);
	add_output(o, dir, name, suffix, m->buf, m->len);
}

/* Render one tile's four outputs into memory; false if it has no layout. */
static bool render_tile(Outputs *o, const char *dir, const Tile *t,
                        const Src *src, const Geom *g, int64_t work)
{
	const char *spec = src->name;
	SolveOpts opts = {.top = 1, .budget = work};
	Solution s;
	solve_tile(t, g, &opts, &s);
	if (!s.found) {
		diag_report(stderr, src, t->pos, "tile '%s' has no legal layout "
		            "within its budget and restrictions", t->name);
		solve_free(&s);
		return false;
	}
	Mem m;
	emit_header(mem_open(&m), t, &s, spec);
	add_mem(o, dir, t->name, ".cuh", &m);

	emit_check(mem_open(&m), g, t, &s);
	add_mem(o, dir, t->name, "_check.cu", &m);

	Baseline b[MAX_BASELINES];
	int nb = baseline_all(t, g, s.budget, b);
	json_t *root = json_pack("{s:s, s:s, s:o, s:o}", "bankc", BANKC_VERSION,
	                         "spec", spec, "tile", dump_tile_json(t), "solution",
	                         compare_tile_json(t, &s, b, nb));
	json_dumpf(root, mem_open(&m), JSON_INDENT(2) | JSON_SORT_KEYS);
	fputc('\n', m.f);
	json_decref(root);
	add_mem(o, dir, t->name, ".json", &m);

	emit_svg(mem_open(&m), g, t, &s);
	add_mem(o, dir, t->name, ".svg", &m);
	solve_free(&s);
	return true;
}

/* make's depfile: every output depends on every spec file given. */
static void depfile(Mem *d, const Outputs *o, char **files, int nfiles)
{
	Mem m;
	mem_open(&m);
	for (int i = 0; i < o->n; i++)
		fprintf(m.f, "%s%s", i ? " \\\n " : "", o->v[i].path);
	fputs(":", m.f);
	for (int i = 0; i < nfiles; i++)
		fprintf(m.f, " %s", files[i]);
	fputs("\n", m.f);
	for (int i = 0; i < nfiles; i++)   /* a deleted spec is no error */
		fprintf(m.f, "%s:\n", files[i]);
	fclose(m.f);
	*d = m;
}

int cmd_build(int argc, char **argv)
{
	Geom g = sim_geom_default;
	const char *dir = NULL, *mf = NULL;
	bool md = false;
	int nfiles = 0;
	int64_t work = 0;
	for (int i = 0; i < argc; i++) {
		int rc;
		if (cli_geom_option(argc, argv, &i, &g, &rc)) {
			if (rc)
				return rc;
		} else if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "-MF") == 0) {
			if (i + 1 >= argc)
				return cli_usage_error("%s needs a value", argv[i]);
			*(argv[i][1] == 'o' ? &dir : &mf) = argv[i + 1];
			i++;
		} else if (strcmp(argv[i], "-MD") == 0) {
			md = true;
		} else if (strcmp(argv[i], "--search-budget") == 0) {
			if (i + 1 >= argc)
				return cli_usage_error("%s needs a value", argv[i]);
			if (!solve_parse_budget(argv[++i], &work))
				return cli_usage_error("--search-budget takes 1 to 10^15 work "
				                       "units, not '%s'", argv[i]);
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return cli_usage_error("unknown option '%s' for build", argv[i]);
		} else {
			argv[nfiles++] = argv[i];
		}
	}
	if (!nfiles)
		return cli_usage_error("%s", "build needs a FILE");
	if (!dir)
		return cli_usage_error("%s", "build needs -o DIR");
	if (mf && !md)
		return cli_usage_error("%s", "-MF FILE goes with -MD");

	Pool *p = pool_new();
	Src *src = calloc((size_t)nfiles, sizeof *src);
	Unit *u = calloc((size_t)nfiles, sizeof *u);
	Outputs out = {0};
	int rc = frontend_files(argv, nfiles, p, stderr, src, u) ? 0 : 1;
	/* two tiles of one name would write the same files */
	for (int i = 0; rc == 0 && i < nfiles; i++)
		for (int k = 0; k < u[i].ntiles; k++)
			for (int j = 0; j < i; j++)
				for (int q = 0; q < u[j].ntiles; q++)
					if (strcmp(u[i].tiles[k].name, u[j].tiles[q].name) == 0) {
						fprintf(stderr, "%s:%d:%d: error: tile '%s' is also "
						        "defined in %s; their outputs would collide\n",
						        argv[i], u[i].tiles[k].pos.line,
						        u[i].tiles[k].pos.col, u[i].tiles[k].name,
						        argv[j]);
						rc = 1;
					}
	for (int i = 0; rc == 0 && i < nfiles; i++)
		for (int k = 0; k < u[i].ntiles; k++)
			if (!render_tile(&out, dir, &u[i].tiles[k], &src[i], &g, work))
				rc = 1;
	if (rc == 0) {
		catch_signals();
		if (!make_dir(dir))
			rc = 1;
		for (int i = 0; rc == 0 && i < out.n; i++)
			if (!same_contents(out.v[i].path, out.v[i].data, out.v[i].len) &&
			    !write_atomic(out.v[i].path, out.v[i].data, out.v[i].len))
				rc = 1;
		if (rc == 0 && md) {
			char def[4096];
			if (!mf) {
				snprintf(def, sizeof def, "%s/bankc.d", dir);
				mf = def;
			}
			Mem d;
			depfile(&d, &out, argv, nfiles);
			if (!same_contents(mf, d.buf, d.len) &&
			    !write_atomic(mf, d.buf, d.len))
				rc = 1;
			free(d.buf);
		}
	}
	free_outputs(&out);
	for (int i = 0; i < nfiles; i++)
		src_free(&src[i]);
	free(src);
	free(u);
	pool_free(p);
	return rc;
}
