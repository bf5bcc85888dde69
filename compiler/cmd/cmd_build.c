/* bankc build: for every tile of the spec files, its header, check
 * program, report and picture, written into one folder.
 *
 * Every file is checked, every name checked against every other, every
 * tile solved and every output rendered in memory before the first byte
 * is written, but the check programs, which only their own tables fill
 * and so can only fail to be written: outputs.c makes those while it
 * writes the temporaries, and writes everything all or nothing.  So a
 * spec with an error, a name clash or a failed build gate leaves the
 * folder as it was. */
#define _GNU_SOURCE    /* realpath; fopencookie, for mem_open */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "bankc.h"
#include "cmd/cmd.h"
#include "solve/solve.h"        /* fold_make: a 1-D tile's rows again */

/* An output rendered into memory before anything is written. */
typedef struct {
	FILE *f;
	char *buf;
	size_t len, cap;
} Mem;

/* The stream's writes, appended to the buffer, which at least doubles
 * as it grows and is never cleared: open_memstream zeroed every new part
 * and copied the old one, a third of a build's time on the check
 * programs of a file at the limits (82 MB each). */
static ssize_t mem_write(void *cookie, const char *p, size_t n)
{
	Mem *m = cookie;
	if (m->len + n + 1 > m->cap) {
		size_t cap = m->cap < 65536 ? 65536 : 2 * m->cap;
		while (cap < m->len + n + 1)
			cap *= 2;
		m->buf = xrealloc(m->buf, cap);
		m->cap = cap;
	}
	memcpy(m->buf + m->len, p, n);
	m->len += n;
	m->buf[m->len] = 0;
	return (ssize_t)n;
}

/* In place: the stream keeps a pointer to m.  Once closed, m->buf holds
 * m->len bytes and a NUL (open_memstream's contract). */
static FILE *mem_open(Mem *m)
{
	*m = (Mem){0};
	m->buf = xmalloc(1);
	m->buf[0] = 0;
	m->f = fopencookie(m, "w", (cookie_io_functions_t){.write = mem_write});
	if (!m->f) {                /* out of memory: xmemstream says so */
		free(m->buf);
		m->buf = NULL;
		m->f = xmemstream(&m->buf, &m->len);
	}
	setvbuf(m->f, NULL, _IOFBF, 65536);
	return m->f;
}

static void add_mem(Outs *o, const char *dir, const char *name,
                    const char *suffix, Mem *m, const char *spec)
{
	fclose(m->f);
	char file[NAME_MAX + 1];
	snprintf(file, sizeof file, "%s%s", name, suffix);
	outs_add(o, dir, file, m->buf, m->len, spec);
}

/* A tile's check program, made while the commit writes it (outs_add_render):
 * 82 MB for a tile at the limits, which held in memory with every other
 * file's took a build of four such files past 1 GiB.  A 1-D tile's fold
 * is made again then, not kept (a copy of the tile's instructions). */
typedef struct {
	const Tile *t;      /* the spec's tile */
	int fold_cols;      /* a 1-D tile's rows: its chosen fold's columns */
	Layout l;           /* the chosen layout */
	EmitCosts c;        /* wave and wave_packed: the tables' */
} CheckJob;

static void check_render(FILE *f, void *arg)
{
	CheckJob *j = arg;
	Tile *fold = j->fold_cols ? fold_make(j->t, j->fold_cols) : NULL;
	emit_check(f, fold ? fold : j->t, &j->l, &j->c);
	fold_free(fold);
}

typedef struct {
	CheckJob **v;
	int n, cap;
} CheckJobs;

typedef struct {
	Geom g;
	const char *dir;
	bool require_optimal;
	long max_excess;            /* -1: no limit */
	int64_t work;               /* --search-budget; 0: the default */
	CheckJobs jobs;             /* the check programs, for the commit */
} BuildOpts;

/* The build gate: a layout above its bound by more than allowed fails
 * the build at the tile, so CI can hold kernels conflict-free. */
static bool gate_ok(const BuildOpts *bo, const Tile *t, const Src *src,
                    const Solution *s)
{
	int64_t excess = s->best.wave - s->aligned_bound;
	long allowed = bo->require_optimal ? 0 : bo->max_excess;
	if (allowed < 0 || excess <= allowed)
		return true;
	char name[160];
	layout_describe(&s->best.l, t, name, sizeof name);
	diag_report_rule(stderr, src, t->pos, "build-gate",
	            "tile '%s': its layout (%s) takes %lld "
	            "weighted wavefronts, %lld above the lower bound %lld "
	            "(%s%ld allowed)", t->name, name, (long long)s->best.wave,
	            (long long)excess, (long long)s->aligned_bound,
	            bo->require_optimal ? "--require-optimal: " : "--max-excess: ",
	            allowed);
	return false;
}

enum { TILE_OUTPUTS = 4 };     /* per tile, the header first */
static const char *const tile_suffixes[TILE_OUTPUTS] = {".cuh", "_check.cu",
                                                        ".json", ".svg"};

/* Render one tile's four outputs into memory from its solution (s,
 * freed here); false if it fails the gate.  spec: the spec's path as the
 * outputs record it (--path-prefix-map applied). */
static bool render_tile(Outs *o, BuildOpts *bo, const Tile *t, Solution s,
                        const Src *src, const char *key, const char *spec)
{
	const Tile *ot = t;
	t = solution_tile(&s, t);       /* a 1-D tile: the view chosen */
	if (!gate_ok(bo, t, src, &s)) {
		solve_free(&s);
		return false;
	}
	if (solve_unproven(&s)) {
		char name[160];
		layout_describe(&s.best.l, t, name, sizeof name);
		diag_warn(stderr, src, t->pos, DW_UNPROVEN, "tile '%s': its layout (%s) takes "
		          "%lld weighted wavefronts, %lld above the lower bound %lld, and the "
		          "search stopped before it could prove that no layout takes fewer; "
		          "--search-budget N searches further", t->name, name,
		          (long long)s.best.wave, (long long)(s.best.wave - s.aligned_bound),
		          (long long)s.aligned_bound);
	}
	Mem m;
	emit_header(mem_open(&m), &bo->g, t, &s, spec);
	add_mem(o, bo->dir, t->name, ".cuh", &m, key);

	CheckJob *job = xcalloc(1, sizeof *job);
	*job = (CheckJob){ot, s.fold ? s.fold->cols : 0, s.best.l, {0}};
	/* the baselines' layouts costed with the others (emit_costs): those
	 * that are legal, as baseline_all judges them, and not row-major or
	 * the chosen one, which are costed anyway */
	Layout bl[MAX_BASELINES], extra[MAX_BASELINES];
	int nbl = baseline_layouts(t, bl), nextra = 0;
	Tile free_t = *t;
	free_t.allow = XF_ALL;
	free_t.tma = false;
	Layout rm = layout_rowmajor(t);
	for (int i = 0; i < nbl; i++) {
		const char *why;
		bool dup = layout_same(&bl[i], &rm) || layout_same(&bl[i], &s.best.l);
		for (int k = 0; k < nextra; k++)
			dup |= layout_same(&bl[i], &extra[k]);
		if (!dup && layout_legal(&bl[i], &free_t, s.budget, &why))
			extra[nextra++] = bl[i];
	}
	EmitCosts c;
	emit_costs(&c, &bo->g, t, &s, extra, nextra);
	char file[NAME_MAX + 1];
	snprintf(file, sizeof file, "%s_check.cu", t->name);
	outs_add_render(o, bo->dir, file, check_render, job, key);
	CheckJobs *js = &bo->jobs;
	if (js->n == js->cap) {
		js->cap = js->cap ? 2 * js->cap : 16;
		js->v = xrealloc(js->v, (size_t)js->cap * sizeof *js->v);
	}
	js->v[js->n++] = job;

	/* every baseline's layout is costed already (emit_costs) */
	Baseline b[MAX_BASELINES];
	Layout known[2 + EMIT_MAX_EXTRA] = {rm, s.best.l};
	const int *waves[2 + EMIT_MAX_EXTRA] = {c.wave_rm, c.wave};
	for (int i = 0; i < c.nextra; i++) {
		known[2 + i] = c.extra[i];
		waves[2 + i] = c.wave_extra[i];
	}
	int nb = baseline_all_costed(t, &bo->g, s.budget, known, waves,
	                             2 + c.nextra, b);
	json_t *root = report_new();
	json_t *body = json_pack("{s:o, s:o, s:o, s:o}", "spec",
	                         report_string(spec), "geometry",
	                         report_geometry(&bo->g), "tile", dump_tile_json(ot),
	                         "solution", report_solution(t, &s, b, nb));
	if (!body || json_object_update_new(root, body) != 0) {
		/* never a report with parts missing */
		fprintf(stderr, "bankc: error: tile '%s': its JSON report cannot be "
		        "made\n", t->name);
		json_decref(root);
		solve_free(&s);
		emit_costs_free(&c);
		return false;
	}
	report_write(mem_open(&m), root);
	add_mem(o, bo->dir, t->name, ".json", &m, key);

	emit_svg(mem_open(&m), &bo->g, t, &s, &c);
	add_mem(o, bo->dir, t->name, ".svg", &m, key);
	job->c = c;
	emit_costs_check_only(&job->c);     /* kept to the commit */
	solve_free(&s);
	return true;
}

/* ---- names ----------------------------------------------------------------- */

static bool same_folding(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if ((*a | 32) != (*b | 32))
			return false;
	return *a == *b;
}

typedef struct {
	const Tile *t;
	const Src *src;
} TileAt;

/* Two tiles of one build must not write the same files (also on file
 * systems that ignore case) nor define the same macro or include guard:
 * including both headers would silently drop one. */
static bool names_ok(const TileAt *v, int n)
{
	bool ok = true;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++) {
			const Tile *a = v[i].t, *b = v[j].t;
			if (!same_folding(a->name, b->name))
				continue;
			if (strcmp(a->name, b->name) == 0)
				diag_report_rule(stderr, v[i].src, a->pos, "build-clash",
				            "tile '%s' is also "
				            "defined at %s:%d:%d; their outputs would collide",
				            a->name, v[j].src->name, b->pos.line, b->pos.col);
			else
				diag_report_rule(stderr, v[i].src, a->pos, "build-clash",
				            "tiles '%s' and '%s' "
				            "(%s:%d:%d) differ only in case: they would share "
				            "a macro prefix, and their files would be one on "
				            "a case-insensitive file system", a->name, b->name,
				            v[j].src->name, b->pos.line, b->pos.col);
			ok = false;
		}
	return ok;
}

/* The lines of a header that define macro `name`. */
static int defines(const OutFile *h, const char *name)
{
	size_t n = strlen(name);
	int count = 0;
	const char *p = h->data, *end = h->data + h->len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if ((size_t)(nl - p) > 8 + n && memcmp(p, "#define ", 8) == 0 &&
		    memcmp(p + 8, name, n) == 0 && (p[8 + n] == ' ' ||
		                                    p[8 + n] == '('))
			count++;
		p = nl + 1;
	}
	return count;
}

/* A view's macros share its tile's header: a view named like the tile
 * but for case, or like one of the tile's macros (view q_tma_box of q
 * and Q_TMA_BOX_ROWS), would define a macro twice. */
static bool view_macros_ok(const OutFile *h, const TileAt *at)
{
	bool ok = true;
	for (int k = 0; k < at->t->nviews; k++) {
		const View *w = &at->t->views[k];
		char up[NAME_MAX + 64];
		emit_upper(up, sizeof up, w->name);
		for (int m = 0; emit_view_macros[m]; m++) {
			char name[2 * NAME_MAX + 64];
			snprintf(name, sizeof name, "%s_%s", up, emit_view_macros[m]);
			if (defines(h, name) > 1) {
				diag_report_rule(stderr, at->src, w->pos, "build-clash",
				            "view '%s' of tile '%s' "
				            "would define %s, which its tile's header defines "
				            "already; rename the view", w->name, at->t->name,
				            name);
				ok = false;
				break;
			}
		}
	}
	return ok;
}

typedef struct {
	char name[NAME_MAX + 64];
	int tile;
} Defined;

static int cmp_defined(const void *a, const void *b)
{
	const Defined *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : x->tile - y->tile;
}

/* Every #define of every header (but BANKC_FN, which every header shares
 * on purpose), sorted, so that a name two tiles define shows up as two
 * neighbours.  Each tile's header is its first output. */
static bool macros_ok(const Outs *o, const TileAt *v, int n, int per_tile)
{
	Defined *d = NULL;
	size_t nd = 0, cap = 0;
	for (int i = 0; i < n; i++) {
		const OutFile *h = &o->v[per_tile * i];
		const char *p = h->data, *end = h->data + h->len;
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			if (!nl)
				nl = end;
			const char *b = p + 8, *e = b;
			if (nl - p > 8 && memcmp(p, "#define ", 8) == 0) {
				while (e < nl && (*e == '_' || (*e >= 'A' && *e <= 'Z') ||
				                  (*e >= 'a' && *e <= 'z') ||
				                  (*e >= '0' && *e <= '9')))
					e++;
			}
			if (e > b && e - b < NAME_MAX + 63 &&
			    !(e - b == 8 && memcmp(b, "BANKC_FN", 8) == 0)) {
				if (nd == cap) {
					cap = cap ? 2 * cap : 256;
					d = xrealloc(d, cap * sizeof *d);
				}
				memcpy(d[nd].name, b, (size_t)(e - b));
				d[nd].name[e - b] = 0;
				d[nd++].tile = i;
			}
			p = nl + 1;
		}
	}
	qsort(d, nd, sizeof *d, cmp_defined);
	bool ok = true;
	for (size_t k = 1; k < nd; k++)
		if (strcmp(d[k].name, d[k - 1].name) == 0 &&
		    d[k].tile != d[k - 1].tile) {
			const TileAt *a = &v[d[k].tile], *b = &v[d[k - 1].tile];
			diag_report_rule(stderr, a->src, a->t->pos, "build-clash",
			            "tiles '%s' and '%s' "
			            "(%s:%d:%d) would both define %s; rename one",
			            a->t->name, b->t->name, b->src->name, b->t->pos.line,
			            b->t->pos.col, d[k].name);
			ok = false;
		}
	free(d);
	for (int i = 0; i < n; i++)
		if (!view_macros_ok(&o->v[per_tile * i], &v[i]))
			ok = false;
	return ok;
}

/* ---- the depfile ------------------------------------------------------------- */

/* A name as GCC writes it into a depfile: spaces and tabs after a
 * backslash (the backslashes before them doubled), $ as $$, # as \#. */
static bool dep_name(FILE *f, const char *s)
{
	for (const char *p = s; *p; p++) {
		if (*p == '\n' || *p == '\r')
			return false;
		if (*p == ' ' || *p == '\t') {
			for (const char *q = p - 1; q >= s && *q == '\\'; q--)
				fputc('\\', f);
			fputc('\\', f);
		} else if (*p == '$') {
			fputc('$', f);
		} else if (*p == '#') {
			fputc('\\', f);
		}
		fputc(*p, f);
	}
	return true;
}

/* The depfile's targets as -MT (as given) and -MQ (quoted for make)
 * name them, in order; none: every output. */
typedef struct {
	char **name;
	bool *quote;
	int n;
} DepTargets;

/* make's depfile: its targets (every output, or those of -MT and -MQ)
 * depend on every spec file given (standard input is none). */
static bool depfile(Mem *d, const Outs *o, char **files, int nfiles,
                    const DepTargets *dt)
{
	bool ok = true;
	mem_open(d);
	for (int i = 0; i < dt->n; i++) {
		fputs(i ? " " : "", d->f);
		if (dt->quote[i])
			ok &= dep_name(d->f, dt->name[i]);
		else
			fputs(dt->name[i], d->f);
	}
	for (int i = 0; dt->n == 0 && i < o->n; i++) {
		fputs(i ? " \\\n " : "", d->f);
		ok &= dep_name(d->f, o->v[i].path);
	}
	fputs(":", d->f);
	for (int i = 0; i < nfiles; i++)
		if (strcmp(files[i], "-") != 0) {
			fputc(' ', d->f);
			ok &= dep_name(d->f, files[i]);
		}
	fputs("\n", d->f);
	for (int i = 0; i < nfiles; i++)   /* a deleted spec is no error */
		if (strcmp(files[i], "-") != 0) {
			ok &= dep_name(d->f, files[i]);
			fputs(":\n", d->f);
		}
	fclose(d->f);
	if (!ok)
		fputs("bankc: error: a file name with a line break cannot be "
		      "written into a depfile\n", stderr);
	return ok;
}

/* ---- the command ---------------------------------------------------------------- */

/* -MD, -MMD, -MP, -MF, -MT and -MQ are the compilers' spellings (the
 * last three also joined to their value, -MFdeps.d); getopt_long wants
 * them long.  joined[i]: what was made for argv[i], to free. */
static char gcc_flag[][6] = {"--MD", "--MMD", "--MP"};
static char gcc_val[][5] = {"--MF", "--MT", "--MQ"};

static void gcc_spellings(int argc, char **argv, char **joined)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return;
		for (int k = 0; k < 3; k++)
			if (strcmp(argv[i], gcc_flag[k] + 1) == 0)
				argv[i] = gcc_flag[k];
		for (int k = 0; k < 3; k++) {
			if (strncmp(argv[i], gcc_val[k] + 1, 3) != 0)
				continue;
			if (argv[i][3] == 0) {
				argv[i] = gcc_val[k];
			} else {
				size_t n = strlen(argv[i]) + 3;
				joined[i] = xmalloc(n);
				snprintf(joined[i], n, "%s=%s", gcc_val[k], argv[i] + 3);
				argv[i] = joined[i];
			}
		}
	}
}

/* An element gcc_spellings respelled (one of its spellings, the very
 * string), as the user wrote it: "-MF"; any other as it is. */
static const char *gcc_given(const char *elem)
{
	for (int k = 0; k < 3; k++)
		if (elem == gcc_flag[k] || elem == gcc_val[k])
			return elem + 1;
	return elem;
}

/* --list-outputs: the files a build would write, one per line, in the
 * order it writes them; nothing is solved or written.  A build system
 * declares them (CMake's BYPRODUCTS) while configuring. */
static void list_outputs(const char *dir, const TileAt *v, int n)
{
	for (int i = 0; i < n; i++)
		for (int k = 0; k < TILE_OUTPUTS; k++)
			printf("%s/%s%s\n", dir, v[i].t->name, tile_suffixes[k]);
}

/* The manifest's key of a spec: its real path, so that ./a.tile and
 * a.tile are one spec. */
static char *spec_key(const char *path)
{
	if (strcmp(path, "-") == 0)
		return xstrdup("-");
	char *r = realpath(path, NULL);
	return r ? r : xstrdup(path);
}

static void build_args_free(char **joined, int argc, DepTargets *dt,
                            PathMap *pm)
{
	for (int i = 0; i < argc; i++)
		free(joined[i]);
	free(joined);
	free(dt->name);
	free(dt->quote);
	path_map_free(pm);
}

int cmd_build(int argc, char **argv)
{
	enum { O_MD = OPT_CMD, O_MF, O_OPTIMAL, O_EXCESS, O_MT, O_MQ, O_MP,
	       O_LIST, O_PMAP };
	static const struct option lo[] = {
		{"output", required_argument, NULL, 'o'},
		{"MD", no_argument, NULL, O_MD},
		{"MMD", no_argument, NULL, O_MD},   /* no system files to leave out */
		{"MF", required_argument, NULL, O_MF},
		{"MT", required_argument, NULL, O_MT},
		{"MQ", required_argument, NULL, O_MQ},
		{"MP", no_argument, NULL, O_MP},    /* always: a rule per spec */
		{"list-outputs", no_argument, NULL, O_LIST},
		{"path-prefix-map", required_argument, NULL, O_PMAP},
		{"require-optimal", no_argument, NULL, O_OPTIMAL},
		{"max-excess", required_argument, NULL, O_EXCESS},
		CLI_GEOM_OPTIONS, CLI_BUDGET_OPTION, CLI_HELP_OPTION, {0}};
	char **joined = xcalloc((size_t)argc + 1, sizeof *joined);
	gcc_spellings(argc, argv, joined);
	DepTargets dt = {xcalloc((size_t)argc + 1, sizeof *dt.name),
	                 xcalloc((size_t)argc + 1, sizeof *dt.quote), 0};
	PathMap pm = {0};
	BuildOpts bo = {sim_geom_default, NULL, false, -1, 0, {0}};
	Cli cl = {"build", argc, argv, ":ho:", lo, .geom = &bo.g,
	          .work = &bo.work, .as_given = gcc_given};
	const char *mf = NULL, *mp = NULL;
	bool md = false, list = false;
	char *arg;
	int ch, rc = 0;
	bool stop = false;
	while (!stop && (ch = cli_next(&cl, &arg, &rc)) != -1) {
		if (ch == CLI_STOP) {
			stop = true;
			break;
		}
		if (ch == 'o')
			bo.dir = arg;
		else if (ch == O_MD)
			md = true;
		else if (ch == O_MF)
			mf = arg;
		else if (ch == O_MT || ch == O_MQ) {
			dt.quote[dt.n] = ch == O_MQ;
			dt.name[dt.n++] = arg;
		} else if (ch == O_MP)
			mp = "-MP";
		else if (ch == O_LIST)
			list = true;
		else if (ch == O_PMAP && !path_map_add(&pm, arg)) {
			rc = cli_usage_error("--path-prefix-map takes OLD=NEW, not '%s'",
			                     arg);
			stop = true;
		}
		else if (ch == O_OPTIMAL)
			bo.require_optimal = true;
		else if (ch == O_EXCESS)
			stop = !cli_number("--max-excess", arg, 0, 2147483647L,
			                   &bo.max_excess, &rc);
	}
	int nfiles = argc - optind;
	char **files = argv + optind;
	if (stop)
		;
	else if (!nfiles)
		rc = cli_usage_error("%s", "build needs a FILE");
	else if (!bo.dir)
		rc = cli_usage_error("%s", "build needs -o DIR");
	else if (mf && !md)
		rc = cli_usage_error("%s", "-MF FILE goes with -MD");
	else if (dt.n && !md)
		rc = cli_usage_error("%s", "-MT and -MQ go with -MD");
	else if (mp && !md)
		rc = cli_usage_error("%s", "-MP goes with -MD");
	if (stop || rc) {
		build_args_free(joined, argc, &dt, &pm);
		return rc;
	}
	/* "gen/" and "gen" are one folder; names in the depfile read better
	 * without the double slash */
	char *dir = xstrdup(bo.dir);
	for (size_t n = strlen(dir); n > 1 && dir[n - 1] == '/'; n--)
		dir[n - 1] = 0;
	bo.dir = dir;
	if (strlen(dir) > PATH_MAX - NAME_MAX - 64) {
		fprintf(stderr, "bankc: error: the output folder's name is too long\n");
		free(dir);
		build_args_free(joined, argc, &dt, &pm);
		return 1;
	}

	Pool *p = pool_new();
	Src *src = xcalloc((size_t)nfiles, sizeof *src);
	Unit *u = xcalloc((size_t)nfiles, sizeof *u);
	char **keys = xcalloc((size_t)nfiles, sizeof *keys);
	Outs out = {0};
	rc = frontend_files(files, nfiles, p, stderr, src, u) ? 0 : 1;
	int ntiles = 0;
	for (int i = 0; i < nfiles; i++)
		ntiles += u[i].ntiles;
	TileAt *all = xcalloc((size_t)ntiles + 1, sizeof *all);
	ntiles = 0;
	for (int i = 0; i < nfiles; i++) {
		keys[i] = spec_key(files[i]);
		for (int k = 0; k < u[i].ntiles; k++)
			all[ntiles++] = (TileAt){&u[i].tiles[k], &src[i]};
	}
	if (rc == 0 && !names_ok(all, ntiles))
		rc = 1;
	if (rc == 0 && list) {
		list_outputs(dir, all, ntiles);
		md = false;
	}
	for (int i = 0; rc == 0 && !list && i < nfiles; i++) {
		char *shown = path_map_apply(&pm, src[i].name);
		/* a file's tiles share its adaptive budget: solved together */
		SolveOpts opts = {.top = 1, .budget = bo.work};
		Solution *sol = xcalloc((size_t)u[i].ntiles + 1, sizeof *sol);
		bool solved = solve_unit(&u[i], &src[i], stderr, &bo.g, &opts, NULL, sol);
		for (int k = 0; k < u[i].ntiles; k++) {
			if (!sol[k].found)
				solve_free(&sol[k]);
			else if (!render_tile(&out, &bo, &u[i].tiles[k], sol[k], &src[i],
			                      keys[i], shown))
				rc = 1;
		}
		if (!solved)
			rc = 1;
		free(sol);
		free(shown);     /* the outputs hold copies */
	}
	if (rc == 0 && !list && !macros_ok(&out, all, ntiles, TILE_OUTPUTS))
		rc = 1;
	Mem d = {0};
	if (rc == 0 && md && !depfile(&d, &out, files, nfiles, &dt))
		rc = 1;
	char def[PATH_MAX];
	if (md && !mf) {
		snprintf(def, sizeof def, "%s/bankc.d", dir);
		mf = def;
	}
	if (rc == 0 && !list) {
		if (!outs_commit(&out, dir, keys, nfiles, md ? mf : NULL, d.buf,
		                 d.len))
			rc = 1;
	} else {
		free(d.buf);
	}
	outs_free(&out);
	for (int i = 0; i < bo.jobs.n; i++) {
		emit_costs_free(&bo.jobs.v[i]->c);
		free(bo.jobs.v[i]);
	}
	free(bo.jobs.v);
	for (int i = 0; i < nfiles; i++) {
		src_free(&src[i]);
		free(keys[i]);
	}
	free(keys);
	free(all);
	free(src);
	free(u);
	free(dir);
	build_args_free(joined, argc, &dt, &pm);
	pool_free(p);
	return rc;
}
