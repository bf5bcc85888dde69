/* bankc scan FILE.ptx|FILE.cu: the stages
 *
 *     [nvcc -ptx -lineinfo] -> read PTX -> for each kernel: interpret one
 *     block -> group warp instructions -> cost -> warnings and totals
 *     [-> .tile specs]
 */
#define _XOPEN_SOURCE 700   /* mkdtemp */
#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "scan/scan.h"
#include "cmd/cmd.h"
#include "cmd/scan_nvcc.h"
#include "scan/scan_source.h"

enum { MAX_KERNEL_PARAMS = PTX_MAX_PARAMS };

enum { MAX_GROUPS = 64 };

/* A launch's facts: group 0 holds those given before any --kernel, for
 * every kernel; each --kernel NAME starts a group of its own, whose
 * --block, --grid, --ctaid, --param and --data are that kernel's. */
typedef struct {
	const char *kernel;     /* NULL: group 0 */
	bool block_given, grid_given, ctaid_given;
	int block[3], grid[3], ctaid[3];
} Group;

typedef struct {
	const char *file;
	Group group[MAX_GROUPS];
	int ngroup;
	struct {
		const char *name;
		size_t n;
		uint64_t value;
		int64_t off;    /* NAME+OFF[:BYTES]: a field of an aggregate; -1 whole */
		int bytes;
		int group;
	} param[MAX_KERNEL_PARAMS];
	int nparam;
	struct {
		const char *name;   /* NAME of NAME=FILE */
		size_t n;
		const char *path;
		Src src;            /* its bytes, read before nvcc runs */
		int group;
	} data[PTX_MAX_DATA];
	int ndata;
	bool json;
	bool fix;               /* --fix: the diffs on stdout, the rest on stderr */
	bool no_ptxas_merge;
	const char *emit;
	int64_t max_steps;
	long max_excess;        /* --max-excess; -1: no gate */
	int64_t dynamic_shared; /* --dynamic-shared BYTES; -1: not given */
	const char *baseline;   /* --baseline FILE */
	const char *source_dir[SCAN_SOURCE_MAX_DIRS];   /* --source-dir */
	int nsource_dir;
	char **nvcc;            /* flags after -- */
	int nnvcc;
	Geom geom;
} Opts;

/* A whole number in lo..hi: decimal, 0x hex or 0 octal, an optional '-'
 * and nothing else (no spaces, no '+'); one out of range is refused, not
 * wrapped. */
static bool parse_int(const char *s, int64_t lo, int64_t hi, int64_t *v)
{
	const char *d = *s == '-' ? s + 1 : s;
	if (*d < '0' || *d > '9')
		return false;
	char *end;
	errno = 0;
	long long x = strtoll(s, &end, 0);
	if (*end || errno || x < lo || x > hi)
		return false;
	*v = x;
	return true;
}

/* A --param VALUE: any 64-bit integer, signed or not (up to 2^64 - 1). */
static bool parse_value(const char *s, uint64_t *v)
{
	int64_t x;
	if (parse_int(s, INT64_MIN, INT64_MAX, &x)) {
		*v = (uint64_t)x;
		return true;
	}
	if (*s < '0' || *s > '9')
		return false;
	char *end;
	errno = 0;
	unsigned long long u = strtoull(s, &end, 0);
	if (*end || errno)
		return false;
	*v = u;
	return true;
}

/* X[,Y[,Z]] for --block (lo 1, missing sizes 1, at most 1024 threads),
 * --grid (lo 1) and --ctaid (lo 0, missing indices 0). */
static int parse_dims(const char *opt, const char *s, int lo, int64_t hi, int b[3])
{
	b[0] = b[1] = b[2] = lo;
	bool block = strcmp(opt, "--block") == 0;
	const char *bad = block ? "--block takes positive X[,Y[,Z]], not '%s'"
	                : strcmp(opt, "--grid") == 0
	                ? "--grid takes up to three positive sizes X[,Y[,Z]] (X at most "
	                  "2147483647, Y and Z at most 65535), not '%s'"
	                : "--ctaid takes up to three indices X[,Y[,Z]] from 0, not '%s'";
	char buf[64];
	if (strlen(s) >= sizeof buf)
		return cli_usage_error(bad, s);
	strcpy(buf, s);
	int n = 0;
	for (char *p = buf, *q;; p = q + 1) {
		q = strchr(p, ',');
		if (q)
			*q = 0;
		int64_t v;
		/* CUDA's limits: a grid's Y and Z at most 65535 */
		if (!parse_int(p, lo, n && hi > 65535 ? 65535 : hi, &v))
			return cli_usage_error(bad, s);
		b[n++] = (int)v;
		if (!q)
			break;
		if (n == 3)
			return cli_usage_error(block ? "--block takes at most three sizes, not '%s'" : bad, s);
	}
	if (block && (int64_t)b[0] * b[1] * b[2] > PTX_MAX_THREADS)
		return cli_usage_error("--block '%s' has more than 1024 threads", s);
	return 0;
}

/* Options through cli_next; everything after the first "--" goes to nvcc
 * as it is, so the scan's own options end there. */
static int parse_opts(int argc, char **argv, Opts *o)
{
	memset(o, 0, sizeof *o);
	o->max_steps = 1LL << 27;
	o->max_excess = -1;
	o->dynamic_shared = -1;
	o->ngroup = 1;
	o->group[0].grid[0] = o->group[0].grid[1] = o->group[0].grid[2] = 1;
	o->geom = sim_geom_default;
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			o->nvcc = argv + i + 1;
			o->nnvcc = argc - i - 1;
			argc = i;
			break;
		}
	enum { O_KERNEL = OPT_CMD, O_BLOCK, O_GRID, O_CTAID, O_PARAM, O_STEPS,
	       O_EMIT, O_JSON, O_NOVEC, O_DATA, O_EXCESS, O_FIX, O_SOURCE_DIR, O_BASELINE,
	       O_DYNSHARED };
	static const struct option lo[] = {
		{"kernel", required_argument, NULL, O_KERNEL},
		{"block", required_argument, NULL, O_BLOCK},
		{"grid", required_argument, NULL, O_GRID},
		{"ctaid", required_argument, NULL, O_CTAID},
		{"param", required_argument, NULL, O_PARAM},
		{"data", required_argument, NULL, O_DATA},
		{"max-steps", required_argument, NULL, O_STEPS},
		{"emit-spec", required_argument, NULL, O_EMIT},
		{"json", no_argument, NULL, O_JSON},
		{"no-vectorize", no_argument, NULL, O_NOVEC},
		{"max-excess", required_argument, NULL, O_EXCESS},
		{"fix", no_argument, NULL, O_FIX},
		{"source-dir", required_argument, NULL, O_SOURCE_DIR},
		{"baseline", required_argument, NULL, O_BASELINE},
		{"dynamic-shared", required_argument, NULL, O_DYNSHARED},
		CLI_GEOM_OPTIONS, CLI_HELP_OPTION, {0}};
	Cli cl = {"scan", argc, argv, ":h", lo, .geom = &o->geom};
	char *a;
	int ch, rc;
	while ((ch = cli_next(&cl, &a, &rc)) != -1) {
		if (ch == CLI_STOP)
			return rc;
		rc = 0;
		Group *gr = &o->group[o->ngroup - 1];
		switch (ch) {
		case O_KERNEL:
			if (o->ngroup == MAX_GROUPS)
				return cli_usage_error("%s", "too many --kernel options (at most 63)");
			o->group[o->ngroup++] = (Group){.kernel = a};
			break;
		case O_BLOCK:
			rc = parse_dims("--block", a, 1, PTX_MAX_THREADS, gr->block);
			gr->block_given = true;
			break;
		case O_GRID:
			rc = parse_dims("--grid", a, 1, INT32_MAX, gr->grid);
			gr->grid_given = true;
			break;
		case O_CTAID:
			rc = parse_dims("--ctaid", a, 0, INT32_MAX - 1, gr->ctaid);
			gr->ctaid_given = true;
			break;
		case O_PARAM: {
			const char *eq = strchr(a, '=');
			uint64_t v;
			if (!eq || eq == a)
				return cli_usage_error("--param takes NAME=VALUE, not '%s'", a);
			if (!parse_value(eq + 1, &v))
				return cli_usage_error("--param needs an integer VALUE, not '%s'", a);
			if (o->nparam == MAX_KERNEL_PARAMS)
				return cli_usage_error("%s", "too many --param options");
			/* NAME+OFFSET[:BYTES]=VALUE: a field of an aggregate */
			const char *plus = memchr(a, '+', (size_t)(eq - a));
			int64_t off = -1, bytes = 0;
			if (plus) {
				char f[64];
				const char *colon = memchr(plus, ':', (size_t)(eq - plus));
				const char *oe = colon ? colon : eq;
				snprintf(f, sizeof f, "%.*s", (int)(oe - plus - 1), plus + 1);
				bytes = 4;
				if (plus == a || oe - plus - 1 >= (ptrdiff_t)sizeof f ||
				    !parse_int(f, 0, 1 << 20, &off))
					return cli_usage_error("--param takes NAME+OFFSET=VALUE for a field "
					                       "(OFFSET: bytes from 0), not '%s'", a);
				if (colon) {
					snprintf(f, sizeof f, "%.*s", (int)(eq - colon - 1), colon + 1);
					if (eq - colon - 1 >= (ptrdiff_t)sizeof f || !parse_int(f, 1, 8, &bytes) ||
					    (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8))
						return cli_usage_error("--param takes NAME+OFFSET:BYTES=VALUE with "
						                       "BYTES 1, 2, 4 or 8, not '%s'", a);
				}
			}
			o->param[o->nparam].name = a;
			o->param[o->nparam].n = (size_t)((plus ? plus : eq) - a);
			o->param[o->nparam].off = off;
			o->param[o->nparam].bytes = (int)bytes;
			o->param[o->nparam].group = o->ngroup - 1;
			o->param[o->nparam++].value = v;
			break;
		}
		case O_DATA: {
			const char *eq = strchr(a, '=');
			if (!eq || eq == a || !eq[1])
				return cli_usage_error("--data takes NAME=FILE, not '%s'", a);
			if (o->ndata == PTX_MAX_DATA)
				return cli_usage_error("%s", "too many --data options (at most 8)");
			o->data[o->ndata].name = a;
			o->data[o->ndata].n = (size_t)(eq - a);
			o->data[o->ndata].group = o->ngroup - 1;
			o->data[o->ndata++].path = eq + 1;
			break;
		}
		case O_STEPS:
			if (!parse_int(a, 1, 1LL << 40, &o->max_steps))
				return cli_usage_error("--max-steps takes a count from 1 to 2^40, "
				                       "not '%s'", a);
			break;
		case O_EMIT:
			o->emit = a;
			break;
		case O_JSON:
			o->json = true;
			break;
		case O_NOVEC:
			o->no_ptxas_merge = true;
			break;
		case O_EXCESS:
			if (!cli_number("--max-excess", a, 0, 2147483647L, &o->max_excess, &rc))
				return rc;
			break;
		case O_FIX:
			o->fix = true;
			break;
		case O_BASELINE:
			o->baseline = a;
			break;
		case O_DYNSHARED:
			if (!parse_int(a, 0, 1 << 20, &o->dynamic_shared))
				return cli_usage_error("--dynamic-shared takes the launch's dynamic shared "
				                       "memory in bytes, 0 to 1048576, not '%s'", a);
			break;
		case O_SOURCE_DIR:
			if (o->nsource_dir == SCAN_SOURCE_MAX_DIRS)
				return cli_usage_error("%s", "too many --source-dir options (at most 16)");
			o->source_dir[o->nsource_dir++] = a;
			break;
		}
		if (rc)
			return rc;
	}
	if (optind >= argc)
		return cli_usage_error("%s", "scan needs a FILE (.ptx or .cu)");
	if (optind + 1 < argc)
		return cli_usage_error("%s", "scan takes one FILE (.ptx or .cu)");
	o->file = argv[optind];
	if (o->fix && o->json)
		return cli_usage_error("%s", "--fix prints diffs; --json holds them already "
		                       "(fix.padding.diff)");
	for (int g = 0; g < o->ngroup; g++) {
		/* a group's grid and block index, over group 0's */
		const Group *gr = &o->group[g], *g0 = &o->group[0];
		const int *grid = gr->grid_given ? gr->grid : g0->grid;
		const int *ctaid = gr->ctaid_given ? gr->ctaid : g0->ctaid;
		for (int d = 0; d < 3; d++)
			if (ctaid[d] >= grid[d])
				return cli_usage_error("%s", "--ctaid must name a block of the --grid "
				                       "(each index below the grid's size)");
	}
	return 0;
}

static bool ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), k = strlen(suf);
	return n >= k && strcmp(s + n - k, suf) == 0;
}

/* Does group g apply to kernel k? */
static bool applies(const Opts *o, int g, const PtxModule *m, int k);
static int param_index(const PtxModule *m, int k, const ScanKernelSrc *ks, const char *s,
                       size_t n);

/* The --data buffers of kernel k into ro: each names a pointer parameter
 * that no --param gives; false with an error at the kernel if not. */
static bool data_of(const Opts *o, const PtxModule *m, int k, const ScanKernelSrc *ks,
                    const char *locus, const char *sn, InterpOpts *ro)
{
	const PtxFunc *f = &m->func[k];
	for (int d = 0; d < o->ndata; d++) {
		if (!applies(o, o->data[d].group, m, k))
			continue;
		int idx = param_index(m, k, ks, o->data[d].name, o->data[d].n);
		if (idx < 0)
			continue;
		const PtxSym *y = &m->sym[f->params[idx]];
		const char *why = y->size != 8 ? "is not a pointer (a %lld-byte parameter)" : NULL;
		for (int p = 0; p < o->nparam && !why; p++)
			if (applies(o, o->param[p].group, m, k) &&
			    param_index(m, k, ks, o->param[p].name, o->param[p].n) == idx)
				why = "is given a value with --param too";
		for (int e = 0; e < d && !why; e++)
			if (applies(o, o->data[e].group, m, k) &&
			    param_index(m, k, ks, o->data[e].name, o->data[e].n) == idx)
				why = "is given two --data buffers";
		if (why) {
			char msg[128];
			snprintf(msg, sizeof msg, why, (long long)y->size);
			fprintf(stderr, "%s: error: kernel %s: --data %.*s: parameter %d "
			        "(%s) %s\n", locus, sn, (int)o->data[d].n,
			        o->data[d].name, idx, y->name, msg);
			return false;
		}
		ro->data[ro->ndata].index = idx;
		ro->data[ro->ndata].bytes = (const uint8_t *)o->data[d].src.text;
		ro->data[ro->ndata++].len = o->data[d].src.len;
	}
	return true;
}

/* --param NAME: a parameter's index, its name in the source (ks, where
 * its definition was read) or its name in the PTX. */
static int param_index(const PtxModule *m, int k, const ScanKernelSrc *ks, const char *s,
                       size_t n)
{
	const PtxFunc *f = &m->func[k];
	bool digits = n > 0;
	for (size_t i = 0; i < n; i++)
		digits &= s[i] >= '0' && s[i] <= '9';
	if (digits) {
		long v = strtol(s, NULL, 10);
		return v < f->nparams && n < 6 ? (int)v : -1;
	}
	for (int i = 0; ks && i < ks->nparams; i++)
		if (ks->param[i] && strlen(ks->param[i]) == n && memcmp(ks->param[i], s, n) == 0)
			return i;
	for (int i = 0; i < f->nparams; i++) {
		const char *name = m->sym[f->params[i]].name;
		if (strlen(name) == n && memcmp(name, s, n) == 0)
			return i;
	}
	return -1;
}

/* --kernel NAME: the PTX name, the name with its template arguments
 * (one instance: 'column<1>', spaces as the user likes), or the plain
 * name (every instance of a template). */
static bool kernel_named(const PtxModule *m, int i, const char *want)
{
	if (!m->func[i].entry || !m->func[i].defined)
		return false;
	if (!want)
		return true;
	char sn[256], kn[1024];
	ptx_short_name(m->func[i].name, sn, sizeof sn);
	ptx_kernel_name(m->func[i].name, kn, sizeof kn);
	return strcmp(m->func[i].name, want) == 0 || strcmp(sn, want) == 0 ||
	       ptx_name_matches(kn, want);
}

static bool applies(const Opts *o, int g, const PtxModule *m, int k)
{
	return g == 0 || kernel_named(m, k, o->group[g].kernel);
}

/* Every kernel without --kernel; else those the --kernel options name. */
static bool kernel_selected(const Opts *o, const PtxModule *m, int i)
{
	if (o->ngroup == 1)
		return kernel_named(m, i, NULL);
	for (int g = 1; g < o->ngroup; g++)
		if (kernel_named(m, i, o->group[g].kernel))
			return true;
	return false;
}

/* Where a message about kernel f is placed: its definition in the
 * source where that was read (a .cu's PTX is a temporary file), else its
 * .entry in the PTX. */
typedef struct {
	char locus[1100];       /* "file:line:col" */
	const char *file;       /* for --sarif */
	int line, col;
} KernelAt;

/* --max-excess: a kernel above it fails the scan with an error at the
 * kernel, worded as bankc build's gate words it for a tile.  A kernel
 * without totals fails the scan already. */
static bool gate_ok(const Opts *o, const PtxModule *m, const ScanKernel *k,
                    const ScanCtx *c, const KernelAt *at, const char *name)
{
	if (o->max_excess < 0 || !k->complete)
		return true;
	int64_t wave, ideal, excess = scan_excess(m, k, c, &wave, &ideal);
	if (excess <= o->max_excess)
		return true;
	char *msg = diag_format("kernel %s: its shared-memory accesses take %lld wavefronts "
	        "per block, %lld above the ideal %lld (--max-excess: %ld allowed)", name,
	        (long long)wave, (long long)excess, (long long)ideal, o->max_excess);
	diag_head(stderr, at->locus, DK_ERROR);
	fprintf(stderr, "%s\n", msg);
	scan_record_line(diag_log(DK_ERROR, "scan-gate", at->file, at->line, at->col, msg),
	                 at->file, at->line, name);
	free(msg);
	return false;
}

/* --json, streamed: the document {"file", "kernels": [...], "ptx"} as
 * report_write would print it (sorted keys, two-space indents), each
 * kernel written and freed as it is done, so that memory holds one
 * kernel's JSON, never the module's. */
typedef struct {
	FILE *f;
	int nkernels;
} JsonOut;

static int indented(const char *buf, size_t n, void *data)
{
	FILE *f = data;
	for (const char *p = buf, *e = buf + n; p < e;) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		size_t k = nl ? (size_t)(nl - p) + 1 : (size_t)(e - p);
		fwrite(p, 1, k, f);
		if (nl)
			fputs("    ", f);
		p += k;
	}
	return 0;
}

static void json_string_out(FILE *f, const char *s)
{
	json_t *j = json_string(s);
	json_dumpf(j, f, JSON_ENCODE_ANY);
	json_decref(j);
}

static void json_begin(JsonOut *j, const char *file)
{
	char shown[1024];
	/* the envelope's fields as report_new gives them, in sorted order */
	fputs("{\n  \"bankc\": ", j->f);
	json_string_out(j->f, BANKC_VERSION);
	fputs(",\n  \"file\": ", j->f);
	json_string_out(j->f, scan_escape(file, shown, sizeof shown));
	fputs(",\n  \"kernels\": [", j->f);
}

static void json_kernel(JsonOut *j, json_t *k)
{
	fputs(j->nkernels++ ? ",\n    " : "\n    ", j->f);
	json_dump_callback(k, indented, j->f, JSON_INDENT(2) | JSON_SORT_KEYS);
	json_decref(k);
}

static void json_end(JsonOut *j, const char *ptx)
{
	char shown[1024];
	fputs(j->nkernels ? "\n  ],\n  \"ptx\": " : "],\n  \"ptx\": ", j->f);
	json_string_out(j->f, scan_escape(ptx, shown, sizeof shown));
	fprintf(j->f, ",\n  \"schema\": %d\n}\n", BANKC_JSON_SCHEMA);
}

static void kernel_at(const PtxFunc *f, const ScanKernelSrc *ks, const char *input,
                      const char *cu, KernelAt *at)
{
	char shown[1024];
	if (ks->path[0]) {
		snprintf(at->locus, sizeof at->locus, "%s:%d:%d", scan_escape(ks->path, shown,
		         sizeof shown), ks->line, ks->col);
		at->file = ks->path;
		at->line = ks->line;
		at->col = ks->col;
	} else {
		snprintf(at->locus, sizeof at->locus, "%s:%d:%d", input, f->pos.line, f->pos.col);
		/* a .cu's PTX is a temporary file: the .cu it came from, no line */
		at->file = cu ? cu : input;
		at->line = cu ? 0 : f->pos.line;
		at->col = cu ? 0 : f->pos.col;
	}
}

/* A kernel scan cannot launch as asked: the error at the kernel (kept
 * for --sarif), and with --json an entry of its own in "kernels", with
 * no totals, that says why (listed, not dropped). */
__attribute__((format(printf, 5, 6)))
static void refuse(JsonOut *kernels, const KernelAt *at, const PtxFunc *f, const char *sn,
                   const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *why = diag_vformat(fmt, ap);
	va_end(ap);
	char *msg = diag_format("kernel %s: %s", sn, why);
	diag_head(stderr, at->locus, DK_ERROR);
	fprintf(stderr, "%s\n", msg);
	scan_record_line(diag_log(DK_ERROR, "scan-launch", at->file, at->line, at->col, msg),
	                 at->file, at->line, sn);
	if (kernels)
		json_kernel(kernels, json_pack("{s:s,s:s,s:b,s:b,s:[{s:s,s:s,s:i}]}",
		            "kernel", f->name, "name", sn, "complete", 0,
		            "refused", 1, "errors", "where", at->locus, "message",
		            why, "threads", 0));
	free(msg);
	free(why);
}

static int scan_module(const Opts *o, const PtxModule *m, const char *input,
                       const char *cu)
{
	ScanCtx c = {input, cu, NULL, o->geom, NULL, NULL};
	int nk = 0;
	for (int i = 0; i < m->nfunc; i++)
		nk += kernel_selected(o, m, i);
	for (int g = 1; g < o->ngroup || !nk; g++) {
		bool any = false;
		for (int i = 0; i < m->nfunc && g < o->ngroup; i++)
			any |= kernel_named(m, i, o->group[g].kernel);
		if (any)
			continue;
		fprintf(stderr, "bankc: error: %s", input);
		char want[256];
		if (g < o->ngroup)
			fprintf(stderr, " has no kernel '%s'; its kernels:",
			        scan_escape(o->group[g].kernel, want, sizeof want));
		else
			fprintf(stderr, " has no kernel (.entry)%s", cu ? ": a template kernel "
			        "gets one only where an instance of it is made (template "
			        "__global__ void k<32>(float *);, or a launch)" : "");
		for (int i = 0; i < m->nfunc; i++)
			if (m->func[i].entry && m->func[i].defined) {
				char kn[1024];
				ptx_kernel_name(m->func[i].name, kn, sizeof kn);
				/* an instance's name has spaces: quoted, as --kernel takes it */
				fprintf(stderr, strchr(kn, ' ') ? " '%s'" : " %s", kn);
			}
		fputc('\n', stderr);
		return 1;
	}
	/* no line information: every warning would be at a PTX line */
	bool lines = false;
	for (int i = 0; i < m->ninst && !lines; i++)
		lines = m->inst[i].line > 0;
	if (!lines && m->ninst) {
		fprintf(stderr, "%s: note: the PTX has no line information (.loc): warnings "
		        "name PTX lines; compile with nvcc -lineinfo to have them at the source "
		        "lines\n", input);
	}
	/* each kernel's definition, for its parameters' names and its place */
	ScanKernelSrc *ks = xcalloc((size_t)m->nfunc + 1, sizeof *ks);
	for (int i = 0; i < m->nfunc; i++)
		if (kernel_selected(o, m, i))
			scan_kernel_source(m, i, &c, &ks[i]);
	int rc = 0;
	for (int p = 0; p < o->nparam + o->ndata && !rc; p++) {
		bool isp = p < o->nparam;
		int q = isp ? p : p - o->nparam;
		const char *name = isp ? o->param[q].name : o->data[q].name;
		size_t n = isp ? o->param[q].n : o->data[q].n;
		int g = isp ? o->param[q].group : o->data[q].group;
		bool any = false;
		for (int i = 0; i < m->nfunc; i++)
			if (kernel_selected(o, m, i) && applies(o, g, m, i))
				any |= param_index(m, i, &ks[i], name, n) >= 0;
		if (!any) {
			char buf[300];
			snprintf(buf, sizeof buf, "%s %.*s", isp ? "--param" : "--data", (int)n, name);
			rc = cli_usage_error("%s names no parameter of the kernels scanned (give its "
			                     "index from 0, its name in the source, or its PTX name)",
			                     buf);
		}
	}
	if (rc) {
		for (int i = 0; i < m->nfunc; i++)
			scan_kernel_source_free(&ks[i]);
		free(ks);
		return rc;
	}
	JsonOut js = {stdout, 0};
	if (o->json)
		json_begin(&js, cu ? cu : input);
	JsonOut *jk = o->json ? &js : NULL;     /* where refusals are listed */
	bool first = true;
	ScanDiffs *diffs = o->fix ? scan_diffs_new() : NULL;
	for (int i = 0; i < m->nfunc; i++) {
		if (!kernel_selected(o, m, i))
			continue;
		const PtxFunc *f = &m->func[i];
		KernelAt at;
		kernel_at(f, &ks[i], input, cu, &at);
		/* the launch: group 0's facts, then those of each --kernel that
		 * names this kernel */
		const Group *blk = NULL, *grd = &o->group[0], *cta = &o->group[0];
		for (int g = 0; g < o->ngroup; g++) {
			if (!applies(o, g, m, i))
				continue;
			if (o->group[g].block_given)
				blk = &o->group[g];
			if (o->group[g].grid_given)
				grd = &o->group[g];
			if (o->group[g].ctaid_given)
				cta = &o->group[g];
		}
		InterpOpts ro = {0};
		ro.max_steps = o->max_steps;
		memcpy(ro.grid, grd->grid, sizeof ro.grid);
		memcpy(ro.ctaid, cta->ctaid, sizeof ro.ctaid);
		char sn[1024];
		ptx_kernel_name(f->name, sn, sizeof sn);
		if (blk) {
			memcpy(ro.block, blk->block, sizeof ro.block);
		} else if (f->reqntid[0] > 0) {
			for (int d = 0; d < 3; d++)
				ro.block[d] = f->reqntid[d] > 0 ? f->reqntid[d] : 1;
		} else if (f->maxntid[0] > 0 &&
		           (int64_t)f->maxntid[0] * (f->maxntid[1] > 0 ? f->maxntid[1] : 1) *
		           (f->maxntid[2] > 0 ? f->maxntid[2] : 1) <= PTX_MAX_THREADS) {
			/* __launch_bounds__: the largest launch the kernel allows,
			 * the one it is usually written for */
			for (int d = 0; d < 3; d++)
				ro.block[d] = f->maxntid[d] > 0 ? f->maxntid[d] : 1;
			diag_head(stderr, at.locus, DK_NOTE);
			fprintf(stderr, "kernel %s: block %d,%d,%d, the most its .maxntid "
			        "(__launch_bounds__) allows; --kernel %s --block X[,Y,Z] scans "
			        "another launch\n", sn, ro.block[0], ro.block[1], ro.block[2],
			        strchr(sn, ' ') ? "'NAME'" : sn);
		} else {
			refuse(jk, &at, f, sn, "pass --block X[,Y,Z] (its PTX gives no .reqntid "
			       "nor .maxntid)");
			rc = 1;
			continue;
		}
		/* a launch that the kernel's bounds refuse is no launch to scan */
		int req[3], lim[3];
		for (int d = 0; d < 3; d++) {
			req[d] = f->reqntid[d] > 0 ? f->reqntid[d] : 1;
			lim[d] = f->maxntid[d] > 0 ? f->maxntid[d] : 1;
		}
		if (f->reqntid[0] > 0 && (ro.block[0] != req[0] || ro.block[1] != req[1] ||
		                          ro.block[2] != req[2])) {
			refuse(jk, &at, f, sn, "its .reqntid is %d,%d,%d; a launch of "
			       "block %d,%d,%d fails", req[0], req[1], req[2], ro.block[0],
			       ro.block[1], ro.block[2]);
			rc = 1;
			continue;
		}
		if (f->maxntid[0] > 0 && (int64_t)ro.block[0] * ro.block[1] * ro.block[2] >
		                         (int64_t)lim[0] * lim[1] * lim[2]) {
			refuse(jk, &at, f, sn, "its .maxntid is %d,%d,%d (%lld threads); "
			       "a launch of block %d,%d,%d fails", lim[0], lim[1], lim[2],
			       (long long)lim[0] * lim[1] * lim[2], ro.block[0], ro.block[1],
			       ro.block[2]);
			rc = 1;
			continue;
		}
		if ((int64_t)ro.block[0] * ro.block[1] * ro.block[2] > PTX_MAX_THREADS) {
			refuse(jk, &at, f, sn, "a block of more than %d threads",
			       PTX_MAX_THREADS);
			rc = 1;
			continue;
		}
		bool bad = false;
		for (int p = 0; p < o->nparam && !bad; p++) {
			if (!applies(o, o->param[p].group, m, i))
				continue;
			int idx = param_index(m, i, &ks[i], o->param[p].name, o->param[p].n);
			if (idx < 0)
				continue;
			const PtxSym *y = &m->sym[f->params[idx]];
			if (o->param[p].off < 0 && y->size > 8) {
				refuse(jk, &at, f, sn, "parameter %d (%s) is a %lld-byte "
				       "aggregate: give its fields as --param %d+OFFSET=VALUE (4 "
				       "bytes at byte OFFSET) or %d+OFFSET:8=VALUE", idx, y->name,
				       (long long)y->size, idx, idx);
				bad = true;
			} else if (o->param[p].off >= 0 &&
			           o->param[p].off + o->param[p].bytes > y->size) {
				refuse(jk, &at, f, sn, "--param %.*s+%lld:%d reaches past "
				       "parameter %d (%s), of %lld byte%s", (int)o->param[p].n,
				       o->param[p].name, (long long)o->param[p].off,
				       o->param[p].bytes, idx, y->name, (long long)y->size,
				       text_plural(y->size));
				bad = true;
			}
			ro.param[ro.nparams].index = idx;
			ro.param[ro.nparams].off = o->param[p].off;
			ro.param[ro.nparams].bytes = o->param[p].bytes;
			ro.param[ro.nparams++].value = o->param[p].value;
		}
		bad = bad || !data_of(o, m, i, &ks[i], at.locus, sn, &ro);
		if (bad) {
			rc = 1;
			continue;
		}
		c.ro = &ro;
		/* every warp instruction kept: the fixes are proven on them */
		/* the correctness checks read the same run */
		ScanSafety *safety = scan_safety_new(m, i, &ro, o->dynamic_shared);
		InterpSink also;
		scan_safety_sink(safety, &also);
		ScanOpts so = {true, o->geom, !o->no_ptxas_merge, &also};
		ScanKernel k;
		scan_kernel(m, i, &ro, &so, &k);
		scan_safety_finish(safety, &k);
		c.safety = safety;
		if (!k.complete)
			rc = 1;
		bool over = !gate_ok(o, m, &k, &c, &at, sn);
		rc |= over;
		ScanArrays arrays = {0};
		if (k.complete) {
			scan_arrays_find(m, &k, &c, &arrays);
			arrays.diff = o->fix;
			c.arrays = &arrays;
			cmd_scan_fixes(m, &k, &c, &arrays, &o->geom);
			cmd_scan_fixes_data(m, &k, &c, &arrays, &o->geom, &ro, &so);
		}
		FILE *text = o->fix ? stderr : stdout;
		if (o->json) {
			json_t *last = scan_kernel_json(m, &k, &c);
			if (o->max_excess >= 0 && k.complete) {
				int64_t w, id;
				json_object_set_new(last, "gate", json_pack("{s:I,s:I,s:b}", "max_excess",
				                    (json_int_t)o->max_excess, "excess",
				                    (json_int_t)scan_excess(m, &k, &c, &w, &id), "passed", !over));
			}
			json_object_set_new(last, "limits", json_pack("{s:I,s:I}", "max_steps",
			                    (json_int_t)ro.max_steps, "steps_per_thread",
			                    (json_int_t)(ro.max_steps / (ro.block[0] * ro.block[1] * ro.block[2]))));
			if (k.complete)
				cmd_scan_fix_json(last, m, &k, &arrays);
			json_object_set_new(last, "findings", scan_safety_json(m, safety, &c));
			rc |= scan_safety_print(stderr, m, safety, &c, sn) > 0;
			json_kernel(&js, last);
			if (!k.complete)     /* its errors; partial totals are in the JSON */
				scan_print_text(NULL, stderr, m, &k, &c);
		} else {
			if (!first)
				fputc('\n', text);
			rc |= scan_safety_print(stderr, m, safety, &c, sn) > 0;
			scan_print_text(text, stderr, m, &k, &c);
			/* each kernel's totals after its diagnostics, where both
			 * streams reach one terminal or file (stderr is buffered:
			 * main.c) */
			fflush(stderr);
			fflush(text);
		}
		first = false;
		if (o->emit && k.complete &&
		    !scan_emit_specs(m, &k, o->emit, &c, o->json || o->fix ? stderr : stdout, stderr))
			rc = 1;
		if (o->fix)
			scan_diffs_add(diffs, stderr, &arrays);
		c.arrays = NULL;
		c.safety = NULL;
		scan_arrays_free(&arrays);
		scan_kernel_free(m, &k);
		scan_safety_free(safety);
	}
	/* one diff a file, after every kernel: two arrays of a line apply together */
	if (o->fix)
		scan_diffs_print(diffs, stdout, stderr);
	if (o->json)    /* file: as given; ptx: where the PTX came from */
		json_end(&js, cu ? "nvcc -ptx -lineinfo" : input);
	for (int i = 0; i < m->nfunc; i++)
		scan_kernel_source_free(&ks[i]);
	free(ks);
	return rc;
}

static int scan_path(Opts *op, bool cu);

int cmd_scan(int argc, char **argv)
{
	Opts o;
	int rc = parse_opts(argc, argv, &o);
	if (rc || !o.file)      /* a usage error, or --help */
		return rc;
	bool cu = ends_with(o.file, ".cu");
	if (o.nnvcc && !cu)
		return cli_usage_error("%s", "flags after -- are nvcc's: give a .cu FILE");
	static const char *const headers[] = {".cuh", ".h", ".hpp", ".hh", ".hxx", ".inl"};
	for (size_t i = 0; i < sizeof headers / sizeof *headers; i++)
		if (ends_with(o.file, headers[i])) {
			char shown[1024];
			fprintf(stderr, "bankc: error: '%s' is a header: scan a .cu that includes "
			        "it, with its templates instantiated there (template __global__ "
			        "void k<32>(float *);), or that .cu's PTX\n",
			        scan_escape(o.file, shown, sizeof shown));
			return 1;
		}
	if (o.baseline && !scan_baseline_read(o.baseline, stderr))
		return 1;
	/* the --data buffers first: a missing one fails before nvcc runs */
	for (int d = 0; d < o.ndata; d++)
		if (!read_file(o.data[d].path, NULL, PTX_DATA_LIMIT, stderr, &o.data[d].src)) {
			for (int e = 0; e < d; e++)
				free((char *)o.data[e].src.text);
			scan_baseline_free();
			return 1;
		}
	rc = scan_path(&o, cu);
	for (int d = 0; d < o.ndata; d++)
		free((char *)o.data[d].src.text);
	scan_baseline_free();
	return rc;
}

/* Compile (a .cu), read and scan the file. */
static int scan_path(Opts *op, bool cu)
{
	Opts o = *op;
	ScanNvcc nv = {0};
	const char *path = o.file;
	if (cu) {
		/* nothing of the user's reaches nvcc's shell (scan_nvcc.c) */
		if (!scan_nvcc_run(o.file, o.nvcc, o.nnvcc, &nv)) {
			scan_nvcc_cleanup(&nv);
			return 1;
		}
		path = nv.ptx;
	}
	Src src = {0};
	char name[4300];
	/* the name shown: escaped for the terminal and JSON (scan_escape.c) */
	char shown[1024];
	scan_escape(o.file, shown, sizeof shown);
	snprintf(name, sizeof name, cu ? "%s (its PTX)" : "%s", shown);
	bool ok = read_file(path, name, PTX_MAX_BYTES, stderr, &src);
	if (!ok) {
		scan_nvcc_cleanup(&nv);
		return 1;
	}
	Pool *p = pool_new();
	Diag d = {.src = &src, .out = stderr, .rule = "ptx-error"};
	PtxModule m;
	volatile int status = 1;
	char **deps = NULL;
	int ndeps = 0;
	if (!setjmp(d.jb)) {
		ptx_read(p, &d, &m);
		scan_nvcc_map_files(&nv, &m);
		ndeps = scan_nvcc_deps(&nv, &deps);
		scan_nvcc_cleanup(&nv);
		/* source lines: the .cu, the folder of the file given, --source-dir */
		char *folder = strcmp(o.file, "-") ? xstrdup(o.file) : NULL;
		char *slash = folder ? strrchr(folder, '/') : NULL;
		if (folder)
			strcpy(slash ? (slash == folder ? slash + 1 : slash) : folder,
			       slash ? "" : ".");
		scan_source_allow(cu ? o.file : NULL, (const char *const *)deps, ndeps, folder,
		                  o.source_dir, o.nsource_dir);
		free(folder);
		status = scan_module(&o, &m, src.name, cu ? o.file : NULL);
	}
	scan_nvcc_cleanup(&nv);
	for (int i = 0; i < ndeps; i++)
		free(deps[i]);
	free(deps);
	scan_arrays_forget_sources();
	scan_source_free();
	pool_free(p);
	free((char *)src.text);
	return status;
}
