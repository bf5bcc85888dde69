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
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "cmd/cmd.h"
#include "scan/scan.h"

extern char **environ;

enum { MAX_KERNEL_PARAMS = PTX_MAX_PARAMS };

typedef struct {
	const char *file;
	const char *kernel;
	bool block_given;
	int block[3];
	int grid[3], ctaid[3];
	struct {
		const char *name;
		size_t n;
		uint64_t value;
		int64_t off;    /* NAME+OFF[:BYTES]: a field of an aggregate; -1 whole */
		int bytes;
		bool used;
	} param[MAX_KERNEL_PARAMS];
	int nparam;
	bool json;
	bool no_ptxas_merge;
	const char *emit;
	int64_t max_steps;
	char **nvcc;            /* flags after -- */
	int nnvcc;
	Geom geom;
} Opts;

static bool parse_int(const char *s, int64_t lo, int64_t hi, int64_t *v)
{
	char *end;
	errno = 0;
	long long x = strtoll(s, &end, 0);
	if (!*s || *end || errno || x < lo || x > hi)
		return false;
	*v = x;
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
	                ? "--grid takes up to three positive sizes X[,Y[,Z]], not '%s'"
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
		if (!parse_int(p, lo, hi, &v))
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
	o->grid[0] = o->grid[1] = o->grid[2] = 1;
	o->geom = sim_geom_default;
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			o->nvcc = argv + i + 1;
			o->nnvcc = argc - i - 1;
			argc = i;
			break;
		}
	enum { O_KERNEL = OPT_CMD, O_BLOCK, O_GRID, O_CTAID, O_PARAM, O_STEPS,
	       O_EMIT, O_JSON, O_NOVEC };
	static const struct option lo[] = {
		{"kernel", required_argument, NULL, O_KERNEL},
		{"block", required_argument, NULL, O_BLOCK},
		{"grid", required_argument, NULL, O_GRID},
		{"ctaid", required_argument, NULL, O_CTAID},
		{"param", required_argument, NULL, O_PARAM},
		{"max-steps", required_argument, NULL, O_STEPS},
		{"emit-spec", required_argument, NULL, O_EMIT},
		{"json", no_argument, NULL, O_JSON},
		{"no-vectorize", no_argument, NULL, O_NOVEC},
		CLI_GEOM_OPTIONS, CLI_HELP_OPTION, {0}};
	Cli cl = {"scan", argc, argv, ":h", lo, .geom = &o->geom};
	char *a;
	int ch, rc;
	while ((ch = cli_next(&cl, &a, &rc)) != -1) {
		if (ch == CLI_STOP)
			return rc;
		rc = 0;
		switch (ch) {
		case O_KERNEL:
			o->kernel = a;
			break;
		case O_BLOCK:
			rc = parse_dims("--block", a, 1, PTX_MAX_THREADS, o->block);
			o->block_given = true;
			break;
		case O_GRID:
			rc = parse_dims("--grid", a, 1, 1LL << 31, o->grid);
			break;
		case O_CTAID:
			rc = parse_dims("--ctaid", a, 0, (1LL << 31) - 1, o->ctaid);
			break;
		case O_PARAM: {
			const char *eq = strchr(a, '=');
			int64_t v;
			if (!eq || eq == a)
				return cli_usage_error("--param takes NAME=VALUE, not '%s'", a);
			if (!parse_int(eq + 1, INT64_MIN, INT64_MAX, &v))
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
			o->param[o->nparam++].value = (uint64_t)v;
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
		}
		if (rc)
			return rc;
	}
	if (optind >= argc)
		return cli_usage_error("%s", "scan needs a FILE (.ptx or .cu)");
	if (optind + 1 < argc)
		return cli_usage_error("%s", "scan takes one FILE (.ptx or .cu)");
	o->file = argv[optind];
	for (int d = 0; d < 3; d++)
		if (o->ctaid[d] >= o->grid[d])
			return cli_usage_error("%s", "--ctaid must name a block of the --grid "
			                       "(each index below the grid's size)");
	return 0;
}

static bool ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), k = strlen(suf);
	return n >= k && strcmp(s + n - k, suf) == 0;
}

/* nvcc -ptx -lineinfo [-arch=sm_90] FLAGS -o OUT FILE, without a shell. */
static bool run_nvcc(const Opts *o, const char *out)
{
	const char *nvcc = getenv("NVCC") && *getenv("NVCC") ? getenv("NVCC") : "nvcc";
	char **argv = xcalloc((size_t)o->nnvcc + 10, sizeof *argv);
	int n = 0;
	argv[n++] = (char *)nvcc;
	argv[n++] = "-ptx";
	argv[n++] = "-lineinfo";
	bool arch = false;
	for (int i = 0; i < o->nnvcc; i++)
		arch |= strncmp(o->nvcc[i], "-arch", 5) == 0 ||
		        strncmp(o->nvcc[i], "--gpu-architecture", 18) == 0 ||
		        strncmp(o->nvcc[i], "-gencode", 8) == 0 ||
		        strncmp(o->nvcc[i], "--generate-code", 15) == 0;
	if (!arch)
		argv[n++] = "-arch=sm_90";
	for (int i = 0; i < o->nnvcc; i++)
		argv[n++] = o->nvcc[i];
	argv[n++] = "-o";
	argv[n++] = (char *)out;
	argv[n++] = (char *)o->file;
	argv[n] = NULL;
	pid_t pid;
	int err = posix_spawnp(&pid, nvcc, NULL, NULL, argv, environ);
	free(argv);
	if (err) {
		fprintf(stderr, "bankc: error: cannot run '%s': %s (set NVCC, or scan "
		        "the PTX: nvcc -ptx -lineinfo)\n", nvcc, strerror(err));
		return false;
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			fprintf(stderr, "bankc: error: waiting for nvcc: %s\n", strerror(errno));
			return false;
		}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "bankc: error: nvcc failed on '%s' (status %d)\n", o->file,
		        WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		return false;
	}
	return true;
}

/* --param NAME: a parameter's index, or its name in the PTX. */
static int param_index(const PtxModule *m, int k, const char *s, size_t n)
{
	const PtxFunc *f = &m->func[k];
	bool digits = n > 0;
	for (size_t i = 0; i < n; i++)
		digits &= s[i] >= '0' && s[i] <= '9';
	if (digits) {
		long v = strtol(s, NULL, 10);
		return v < f->nparams && n < 6 ? (int)v : -1;
	}
	for (int i = 0; i < f->nparams; i++) {
		const char *name = m->sym[f->params[i]].name;
		if (strlen(name) == n && memcmp(name, s, n) == 0)
			return i;
	}
	return -1;
}

static bool kernel_selected(const PtxModule *m, int i, const char *want)
{
	if (!m->func[i].entry || !m->func[i].defined)
		return false;
	if (!want)
		return true;
	char sn[256];
	ptx_short_name(m->func[i].name, sn, sizeof sn);
	return strcmp(m->func[i].name, want) == 0 || strcmp(sn, want) == 0;
}

/* A kernel scan cannot launch as asked: the error at its .entry (kept
 * for --sarif), and with --json an entry of its own in "kernels", with
 * no totals, that says why (listed, not dropped). */
__attribute__((format(printf, 6, 7)))
static void refuse(json_t *kernels, const char *input, const char *cu,
                   const PtxFunc *f, const char *sn, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *why = diag_vformat(fmt, ap);
	va_end(ap);
	char *msg = diag_format("kernel %s: %s", sn, why);
	char *locus = diag_format("%s:%d:%d", input, f->pos.line, f->pos.col);
	diag_head(stderr, locus, DK_ERROR);
	fprintf(stderr, "%s\n", msg);
	/* a .cu's PTX is a temporary file: the .cu it came from, no line */
	diag_log(DK_ERROR, "scan-launch", cu ? cu : input, cu ? 0 : f->pos.line,
	         cu ? 0 : f->pos.col, msg);
	if (kernels)
		json_array_append_new(kernels, json_pack("{s:s,s:s,s:b,s:b,s:[{s:s,s:s,s:i}]}",
		                      "kernel", f->name, "name", sn, "complete", 0,
		                      "refused", 1, "errors", "where", locus, "message",
		                      why, "threads", 0));
	free(locus);
	free(msg);
	free(why);
}

static int scan_module(const Opts *o, const PtxModule *m, const char *input,
                       const char *cu)
{
	int nk = 0;
	for (int i = 0; i < m->nfunc; i++)
		nk += kernel_selected(m, i, o->kernel);
	if (!nk) {
		fprintf(stderr, "bankc: error: %s", input);
		if (o->kernel)
			fprintf(stderr, " has no kernel '%s'; its kernels:", o->kernel);
		else
			fprintf(stderr, " has no kernel (.entry)");
		for (int i = 0; i < m->nfunc; i++)
			if (m->func[i].entry && m->func[i].defined) {
				char sn[256];
				ptx_short_name(m->func[i].name, sn, sizeof sn);
				fprintf(stderr, " %s", sn);
			}
		fputc('\n', stderr);
		return 1;
	}
	for (int p = 0; p < o->nparam; p++) {
		bool any = false;
		for (int i = 0; i < m->nfunc; i++)
			if (kernel_selected(m, i, o->kernel))
				any |= param_index(m, i, o->param[p].name, o->param[p].n) >= 0;
		if (!any) {
			char buf[256];
			snprintf(buf, sizeof buf, "%.*s", (int)o->param[p].n, o->param[p].name);
			return cli_usage_error("--param %s names no parameter of the kernels "
			                       "scanned (give its index from 0, or its PTX name)", buf);
		}
	}
	int rc = 0;
	json_t *kernels = json_array();
	json_t *jk = o->json ? kernels : NULL;     /* where refusals are listed */
	ScanCtx c = {input, cu, NULL, o->geom};
	bool first = true;
	for (int i = 0; i < m->nfunc; i++) {
		if (!kernel_selected(m, i, o->kernel))
			continue;
		const PtxFunc *f = &m->func[i];
		InterpOpts ro = {0};
		ro.max_steps = o->max_steps;
		memcpy(ro.grid, o->grid, sizeof ro.grid);
		memcpy(ro.ctaid, o->ctaid, sizeof ro.ctaid);
		ro.max_records = 1 << 22;
		char sn[256];
		ptx_short_name(f->name, sn, sizeof sn);
		if (o->block_given) {
			memcpy(ro.block, o->block, sizeof ro.block);
		} else if (f->reqntid[0] > 0) {
			for (int d = 0; d < 3; d++)
				ro.block[d] = f->reqntid[d] > 0 ? f->reqntid[d] : 1;
		} else {
			char up[96] = "";
			if (f->maxntid[0] > 0)
				snprintf(up, sizeof up, "; its .maxntid allows up to %lld threads",
				         (long long)f->maxntid[0] * (f->maxntid[1] > 0 ? f->maxntid[1] : 1) *
				         (f->maxntid[2] > 0 ? f->maxntid[2] : 1));
			refuse(jk, input, cu, f, sn, "pass --block X[,Y,Z] (its PTX gives no "
			       ".reqntid%s)", up);
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
			refuse(jk, input, cu, f, sn, "its .reqntid is %d,%d,%d; a launch of "
			       "block %d,%d,%d fails", req[0], req[1], req[2], ro.block[0],
			       ro.block[1], ro.block[2]);
			rc = 1;
			continue;
		}
		if (f->maxntid[0] > 0 && (int64_t)ro.block[0] * ro.block[1] * ro.block[2] >
		                         (int64_t)lim[0] * lim[1] * lim[2]) {
			refuse(jk, input, cu, f, sn, "its .maxntid is %d,%d,%d (%lld threads); "
			       "a launch of block %d,%d,%d fails", lim[0], lim[1], lim[2],
			       (long long)lim[0] * lim[1] * lim[2], ro.block[0], ro.block[1],
			       ro.block[2]);
			rc = 1;
			continue;
		}
		if ((int64_t)ro.block[0] * ro.block[1] * ro.block[2] > PTX_MAX_THREADS) {
			refuse(jk, input, cu, f, sn, "a block of more than %d threads",
			       PTX_MAX_THREADS);
			rc = 1;
			continue;
		}
		bool bad = false;
		for (int p = 0; p < o->nparam && !bad; p++) {
			int idx = param_index(m, i, o->param[p].name, o->param[p].n);
			if (idx < 0)
				continue;
			const PtxSym *y = &m->sym[f->params[idx]];
			if (o->param[p].off < 0 && y->size > 8) {
				refuse(jk, input, cu, f, sn, "parameter %d (%s) is a %lld-byte "
				       "aggregate: give its fields as --param %d+OFFSET=VALUE (4 "
				       "bytes at byte OFFSET) or %d+OFFSET:8=VALUE", idx, y->name,
				       (long long)y->size, idx, idx);
				bad = true;
			} else if (o->param[p].off >= 0 &&
			           o->param[p].off + o->param[p].bytes > y->size) {
				refuse(jk, input, cu, f, sn, "--param %.*s+%lld:%d reaches past "
				       "parameter %d (%s), which has %lld bytes", (int)o->param[p].n,
				       o->param[p].name, (long long)o->param[p].off,
				       o->param[p].bytes, idx, y->name, (long long)y->size);
				bad = true;
			}
			ro.param[ro.nparams].index = idx;
			ro.param[ro.nparams].off = o->param[p].off;
			ro.param[ro.nparams].bytes = o->param[p].bytes;
			ro.param[ro.nparams++].value = o->param[p].value;
		}
		if (bad) {
			rc = 1;
			continue;
		}
		c.ro = &ro;
		ScanOpts so = {o->emit != NULL, o->geom, !o->no_ptxas_merge};
		ScanKernel k;
		scan_kernel(m, i, &ro, &so, &k);
		if (!k.complete)
			rc = 1;
		if (o->json) {
			json_array_append_new(kernels, scan_kernel_json(m, &k, &c));
			json_t *last = json_array_get(kernels, json_array_size(kernels) - 1);
			json_object_set_new(last, "limits", json_pack("{s:I,s:I}", "max_steps",
			                    (json_int_t)ro.max_steps, "steps_per_thread",
			                    (json_int_t)(ro.max_steps / (ro.block[0] * ro.block[1] * ro.block[2]))));
			if (!k.complete)
				scan_print_text(stdout, stderr, m, &k, &c);
		} else {
			if (!first)
				putchar('\n');
			scan_print_text(stdout, stderr, m, &k, &c);
		}
		first = false;
		if (o->emit && k.complete &&
		    !scan_emit_specs(m, &k, o->emit, &c, o->json ? stderr : stdout, stderr))
			rc = 1;
		scan_kernel_free(m, &k);
	}
	if (o->json) {
		/* file: as given; ptx: where the PTX came from */
		json_t *top = report_new();
		json_object_set_new(top, "file", json_string(cu ? cu : input));
		json_object_set_new(top, "kernels", kernels);
		json_object_set_new(top, "ptx", json_string(cu ? "nvcc -ptx -lineinfo"
		                                            : input));
		report_write(stdout, top);
	} else {
		json_decref(kernels);
	}
	return rc;
}

int cmd_scan(int argc, char **argv)
{
	Opts o;
	int rc = parse_opts(argc, argv, &o);
	if (rc || !o.file)      /* a usage error, or --help */
		return rc;
	bool cu = ends_with(o.file, ".cu");
	if (o.nnvcc && !cu)
		return cli_usage_error("%s", "flags after -- are nvcc's: give a .cu FILE");
	char dir[4096] = "", ptx[4200] = "";
	const char *path = o.file;
	if (cu) {
		const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
		snprintf(dir, sizeof dir, "%s/bankc-scan-XXXXXX", tmp);
		if (!mkdtemp(dir)) {
			fprintf(stderr, "bankc: error: cannot make a temporary folder in %s: %s\n",
			        tmp, strerror(errno));
			return 1;
		}
		snprintf(ptx, sizeof ptx, "%s/scan.ptx", dir);
		if (!run_nvcc(&o, ptx)) {
			remove(ptx);
			rmdir(dir);
			return 1;
		}
		path = ptx;
	}
	Src src = {0};
	char name[4300];
	snprintf(name, sizeof name, cu ? "%s (its PTX)" : "%s", o.file);
	bool ok = read_file(path, cu ? name : o.file, PTX_MAX_BYTES, stderr, &src);
	if (cu) {
		remove(ptx);
		rmdir(dir);
	}
	if (!ok)
		return 1;
	Pool *p = pool_new();
	Diag d = {.src = &src, .out = stderr, .rule = "ptx-error"};
	PtxModule m;
	volatile int status = 1;
	if (!setjmp(d.jb)) {
		ptx_read(p, &d, &m);
		status = scan_module(&o, &m, src.name, cu ? o.file : NULL);
	}
	pool_free(p);
	free((char *)src.text);
	return status;
}
