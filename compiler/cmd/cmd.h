/* The commands: each one's entry point (main.c lists them), and the
 * command line's shared parts (cli.c). */
#ifndef BANKC_CMD_H
#define BANKC_CMD_H

#include "bankc.h"

/* ---- cli.c: the command line's shared parts ----------------------------- */

/* Commands get argv[0] = their own name, then their arguments, and parse
 * them with cli_next (getopt_long underneath: --top=3, -oDIR, --, options
 * before or after files).  Their help text lives in cli.c. */
struct option;
typedef struct {
	const char *cmd;
	int argc;
	char **argv;
	const char *shortopts;          /* begins with ':'; "h" for --help */
	const struct option *longopts;
	/* the shared options, handled by cli_next where given: the bank
	 * geometry (CLI_GEOM_OPTIONS) and --search-budget */
	Geom *geom;
	int64_t *work;
	/* where the command respelled some of argv for getopt (build's -MF
	 * as --MF): an element as the user wrote it, for errors; NULL: as is */
	const char *(*as_given)(const char *elem);
	bool started;
} Cli;

/* Long-only option codes; a command's own start at OPT_CMD. */
enum { CLI_STOP = -2, OPT_BANKS = 1000, OPT_BANK_BYTES, OPT_NO_MERGE,
	OPT_SEARCH_BUDGET, OPT_SARIF = 1050, OPT_SARIF_SUPPRESSED, OPT_CMD = 1100 };
#define CLI_BUDGET_OPTION {"search-budget", required_argument, NULL, \
	OPT_SEARCH_BUDGET}
#define CLI_HELP_OPTION {"help", no_argument, NULL, 'h'}
#define CLI_GEOM_OPTIONS {"banks", required_argument, NULL, OPT_BANKS}, \
	{"bank-bytes", required_argument, NULL, OPT_BANK_BYTES}, \
	{"no-merge", no_argument, NULL, OPT_NO_MERGE}

/* The next option's code; -1 when only operands are left (from
 * c->argv[optind]); CLI_STOP after --help or a usage error, with the
 * exit status in *rc.  The shared options go into *c->geom and *c->work
 * where those are given, and are not returned. */
int cli_next(Cli *c, char **arg, int *rc);
/* An integer option value in lo..hi; false (usage error, *rc) if not. */
bool cli_number(const char *opt, const char *arg, long lo, long hi,
                long *out, int *rc);
void cli_print_usage(FILE *f);
int cli_command_help(const char *name);
int cli_usage_error(const char *fmt, const char *arg);

/* ---- cli_diag.c: -fdiagnostics-color, -fmax-errors, --sarif ------------- */

extern const char *cli_sarif_path;     /* --sarif FILE, or NULL */
/* code is 'f' (arg the rest of -fWHAT), OPT_SARIF or
 * OPT_SARIF_SUPPRESSED: handled, true, with
 * *rc 2 after a usage error; false for any other code. */
bool cli_diag_option(const Cli *c, int code, const char *arg, int *rc);
/* c's options with these added: shortopts "...f:W:", longopts + sarif
 * and sarif-suppressed. */
void cli_diag_options(const Cli *c, char *shortopts, size_t n,
                      struct option *longopts, size_t nlong);
/* At the command's end: the diagnostics kept as the --sarif log in path
 * (emit/sarif.c), with the command's exit status; false, with an error,
 * if it cannot be written. */
bool sarif_write(const char *path, int status);

/* A row of a pattern table (cmd_sim.c): name op width mask offsets
 * [wavefronts], tab-separated, as tests/data/sm90_wavefronts.tsv. */
typedef struct {
	const char *name;
	Op op;
	int width;
	uint32_t mask;
	int64_t addr[WARP];
	long measured;      /* -1 if the row has none */
} SimRow;

/* Parse one line (changed in place): 0 a row, 1 nothing (blank, comment,
 * header), -1 malformed (*err says why). */
int sim_parse_row(char *line, size_t len, SimRow *row, const char **err);

/* ---- path_map.c: bankc build --path-prefix-map OLD=NEW ---------------- */

typedef struct {
	char **old, **new_;
	int n;
} PathMap;
/* false if arg is not OLD=NEW with a non-empty OLD */
bool path_map_add(PathMap *m, const char *arg);
/* path with the last matching OLD replaced by its NEW (allocated) */
char *path_map_apply(const PathMap *m, const char *path);
void path_map_free(PathMap *m);

int cmd_check(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_build(int argc, char **argv);
int cmd_words(int argc, char **argv);       /* the language's words (hidden) */
int cmd_scan(int argc, char **argv);
#ifdef BANKC_SCAN_H
/* cmd_scan_fix.c: each array of as with excess wavefronts solved, its
 * fix proven on the records of k (a file that includes scan/scan.h
 * first sees it). */
void cmd_scan_fixes(const PtxModule *m, const ScanKernel *k, const ScanCtx *c,
                    ScanArrays *as, const Geom *g);
/* With --data: each fix tried on inputs made by shuffling the buffers
 * given, the kernel scanned again (ro, so) for each; a fix that then
 * saves nothing is withdrawn, one that does is said to be fitted. */
void cmd_scan_fixes_data(const PtxModule *m, const ScanKernel *k, const ScanCtx *c,
                         ScanArrays *as, const Geom *g, const InterpOpts *ro,
                         const ScanOpts *so);
/* A kernel's JSON gets "arrays", and each of its accesses its "array". */
void cmd_scan_fix_json(struct json_t *kernel, const PtxModule *m, const ScanKernel *k,
                       const ScanArrays *as);
#endif


/* ---- json_stream.c: JSON written as it is made ---------------------------- */

/* An object or array being written; depth is its nesting (0: the root). */
typedef struct {
	char close;
	long n;
} JsLevel;
struct json_t;
/* v (the reference taken) as report_write would write it at depth. */
void js_value(FILE *f, int depth, struct json_t *v);
void js_open(FILE *f, JsLevel *l, char bracket);       /* '{' or '[' */
/* Before each member: key (NULL in an array), in sorted order. */
void js_next(FILE *f, JsLevel *l, int depth, const char *key);
void js_close(FILE *f, JsLevel *l, int depth);

#endif
