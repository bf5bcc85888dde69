/* The command line's shared parts: every command's help text (one place,
 * so `bankc --help`, `bankc COMMAND --help` and the man page's checks read
 * the same words), option parsing through getopt_long with a did-you-mean
 * for mistyped options, and the bank-geometry options several commands
 * take. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "bankc.h"
#include "cmd/cmd.h"

static const char budget_help[] =
"  --search-budget N       work units each tile's search may spend (default\n"
"                          32768 + 32 per warp instruction, and a search\n"
"                          that ends on it unproven is run again with up\n"
"                          to 4194304); a search that ends on its budget\n"
"                          says \"not proven optimal\"\n";

static const char geom_help[] =
"  --banks N               number of banks, a power of two from 1 to 64\n"
"                          (default 32)\n"
"  --bank-bytes 4|8        bank width in bytes (default 4; 8 is Kepler's mode)\n"
"  --no-merge              do not merge broadcast pairs of 8/16-byte loads\n";


typedef struct {
	const char *name;
	const char *synopsis;   /* after "bankc " */
	const char *synopsis2;  /* a second form, or NULL */
	const char *what;       /* one paragraph */
	const char *options;    /* the command's own options */
	bool geom;              /* takes the geometry options */
	bool budget;            /* takes --search-budget */
} CmdHelp;

static const CmdHelp cmds[] = {
	{"check", "check FILE...", NULL,
	 "Parse and check .tile specs; print nothing if they are good.\n",
	 "", false, false},
	{"dump", "dump [--json] FILE", NULL,
	 "Print the checked tiles in canonical form (or JSON).\n",
	 "  --json                  JSON instead of the canonical text\n",
	 false, false},
	{"compare", "compare [--json] [--top N] FILE...", NULL,
	 "Choose each tile's layout: the candidates ranked, the lower bound,\n"
	 "baselines, occupancy.\n",
	 "  --json                  the report as JSON (json.md of bankc's docs)\n"
	 "  --top N                 candidates ranked, 1 to 1000 (default 5)\n",
	 true, true},
	{"build", "build FILE... -o DIR [-MD [-MF DEPFILE]]", NULL,
	 "Write each tile's NAME.cuh (layout macros), NAME_check.cu (GPU check\n"
	 "program), NAME.json and NAME.svg into DIR, all or nothing.\n",
	 "  -o DIR, --output DIR    the output folder (made if missing)\n"
	 "  -MD                     also write a make depfile\n"
	 "  -MF DEPFILE             the depfile's name (default DIR/bankc.d)\n"
	 "  -MT TARGET, -MQ TARGET  the depfile's target instead of the outputs\n"
	 "                          (-MQ quoted for make); -MMD is -MD, -MP\n"
	 "                          is accepted (every spec has its own rule)\n"
	 "  --list-outputs          print the files a build would write, write\n"
	 "                          nothing\n"
	 "  --path-prefix-map OLD=NEW  record a spec path starting with OLD\n"
	 "                          with NEW instead, in the outputs\n"
	 "  --require-optimal       fail for a tile whose layout is above its\n"
	 "                          lower bound\n"
	 "  --max-excess N          fail for a tile whose weighted wavefronts\n"
	 "                          exceed its lower bound by more than N\n",
	 true, true},
	{"sim", "sim --table FILE",
	 "sim --op OP --width W --offsets A,B,... [--mask HEX]",
	 "Predict the wavefronts of each pattern of a table and compare them\n"
	 "with its measured column, or predict one warp instruction and show\n"
	 "its banks.\n",
	 "  --table FILE            a pattern table: tab-separated name, op, width,\n"
	 "                          mask, offsets and measured wavefronts\n"
	 "  --op OP                 load, store, ldmatrix.x4, ... (as in specs)\n"
	 "  --width W               bytes per lane\n"
	 "  --offsets A,B,...       the 32 lanes' byte offsets\n"
	 "  --mask HEX              active lanes (default ffffffff)\n",
	 true, false},
	{"explain", "explain [--summary] [--chosen] [--json] FILE... [--tile T] "
	 "[--access A]", NULL,
	 "Every warp instruction of a spec's accesses with its wavefronts and\n"
	 "conflicting banks, under the row-major layout or the solver's.\n",
	 "  --summary               one line of totals per access\n"
	 "  --chosen                under the solver's layout, not row-major\n"
	 "  --json                  the same as JSON (json.md of bankc's docs)\n"
	 "  --tile T                only tile T\n"
	 "  --access A              only access A\n",
	 true, true},
	{"scan", "scan FILE.ptx|FILE.cu [--kernel NAME [--block X[,Y,Z]] "
	 "[--param NAME=VALUE]... [--data NAME=FILE]...]... [--json] [-- NVCC_FLAGS]", NULL,
	 "Interpret one block of each kernel of existing PTX (nvcc compiles a\n"
	 "FILE.cu to PTX with line information first) and warn at each source\n"
	 "line whose shared-memory accesses conflict (on stderr, as a compiler\n"
	 "warns); per-kernel totals as Nsight Compute counts them (on stdout),\n"
	 "with the vector accesses ptxas makes of scalar ones and one trip of\n"
	 "each compare-and-swap loop it makes of an atomic.\n",
	 "  --kernel NAME           only kernel NAME ('name<32>': one instance\n"
	 "                          of a template; the plain name: all); the\n"
	 "                          --block, --grid, --ctaid, --param and --data\n"
	 "                          after it are that kernel's (repeatable)\n"
	 "  --block X[,Y[,Z]]       the block's threads (default: the kernel's\n"
	 "                          .reqntid, else its .maxntid)\n"
	 "  --grid X[,Y[,Z]]        the grid's blocks, for %nctaid (default 1)\n"
	 "  --ctaid X[,Y[,Z]]       the block interpreted (default 0)\n"
	 "  --param NAME=VALUE      a kernel parameter's value (repeatable;\n"
	 "                          NAME: its name in the source, its index or\n"
	 "                          its PTX name); NAME+OFFSET[:BYTES]=VALUE a\n"
	 "                          field of a struct parameter (BYTES 1, 2, 4\n"
	 "                          or 8; default 4)\n"
	 "  --data NAME=FILE        the bytes of the global buffer pointer\n"
	 "                          parameter NAME points to (repeatable)\n"
	 "  --max-steps N           instructions interpreted per kernel, at most\n"
	 "                          (default 2^27)\n"
	 "  --no-vectorize          cost each scalar access alone, not merged\n"
	 "                          into the vector access ptxas makes of it\n"
	 "                          where it can prove the vector aligned\n"
	 "  --emit-spec DIR         write a .tile spec per shared array to DIR\n"
	 "  --fix                   print on stdout the arrays' fixes, one diff a file\n"
	 "                          (its padding, or every subscript rewritten;\n"
	 "                          the totals go to stderr)\n"
	 "  --source-dir DIR        show source lines of files under DIR too\n"
	 "                          (besides the .cu and the FILE's folder)\n"
	 "  --json                  the report as JSON (json.md of bankc's docs)\n"
	 "  --max-excess N          fail for a kernel whose wavefronts exceed\n"
	 "                          their ideal by more than N (accepted\n"
	 "                          warnings aside)\n"
	 "  --baseline FILE         accept the warnings FILE holds (an earlier\n"
	 "                          run's stderr): not shown, not in the gate\n"
	 "  --dynamic-shared BYTES  the launch's dynamic shared memory: extern\n"
	 "                          arrays end there (-Wshared-bounds)\n"
	 "  -- NVCC_FLAGS           the rest goes to nvcc (for a .cu FILE)\n"
	 "Shared-memory correctness, from the same run: races (-Wshared-race),\n"
	 "accesses out of bounds (-Wshared-bounds) or misaligned\n"
	 "(-Wshared-align), divergent or hanging barriers\n"
	 "(-Wbarrier-divergence): errors where certain, warnings on paths that\n"
	 "depend on data.\n",
	 true, false},
};
enum { NCMDS = sizeof cmds / sizeof *cmds };

static const char usage_head[] =
"usage: bankc COMMAND [OPTIONS] [FILE...]\n"
"\n"
"Commands:\n";

static const char usage_tail[] =
"\n"
"  -h, --help              show this help (bankc COMMAND --help or\n"
"                          bankc help COMMAND: the command's options)\n"
"  --version               show the version\n"
"\n"
"Diagnostics, for every command:\n"
"  -fdiagnostics-color[=WHEN]  colour them: auto (a terminal, no NO_COLOR;\n"
"                          the default), always or never\n"
"  -fmax-errors=N          stop a file after N errors (default 20; 0: all)\n"
"  -Wno-NAME               turn warning NAME off (-WNAME on again); each\n"
"                          warning ends with its [-WNAME]\n"
"  --sarif FILE            also write them to FILE as a SARIF 2.1.0 log\n"
"  --sarif-suppressed      and the warnings accepted, each suppressed\n"
"\n"
"Options may come before or after the files, in the forms --top 3,\n"
"--top=3, -o DIR and -oDIR; -- ends the options.  A FILE of - reads\n"
"standard input.\n"
"Exit status: 0 success; 1 a bad spec, a file that cannot be read or\n"
"written, a tile with no legal layout, a failed build gate, a table row\n"
"the model does not reproduce, no tile or access of the name asked for,\n"
"or a kernel scan could not scan to its end; 2 bad usage.\n";

/* help fits a terminal of 80 columns */
enum { HELP_W = 80 };

void cli_print_usage(FILE *f)
{
	fputs(usage_head, f);
	for (int i = 0; i < NCMDS; i++) {
		/* the synopsis (within HELP_W columns), then the first sentence,
		 * indented */
		fputs("  ", f);
		text_wrap(f, cmds[i].synopsis, 2, HELP_W, 8);
		if (cmds[i].synopsis2) {
			fputs("  ", f);
			text_wrap(f, cmds[i].synopsis2, 2, HELP_W, 8);
		}
		const char *w = cmds[i].what;
		while (*w) {
			const char *nl = strchr(w, '\n');
			fprintf(f, "      %.*s\n", (int)(nl - w), w);
			w = nl + 1;
		}
	}
	fputs("\nOptions for compare, build, explain, sim and scan:\n", f);
	fputs(geom_help, f);
	fputs("Option for compare, build and explain --chosen:\n", f);
	fputs(budget_help, f);
	fputs(usage_tail, f);
}

static const CmdHelp *find_cmd(const char *name)
{
	for (int i = 0; i < NCMDS; i++)
		if (strcmp(cmds[i].name, name) == 0)
			return &cmds[i];
	return NULL;
}

int cli_command_help(const char *name)
{
	const CmdHelp *c = find_cmd(name);
	if (!c)
		return cli_usage_error("no command '%s'", name);
	printf("usage: bankc ");
	text_wrap(stdout, c->synopsis, 13, HELP_W, 13);
	if (c->synopsis2) {
		printf("   or: bankc ");
		text_wrap(stdout, c->synopsis2, 13, HELP_W, 13);
	}
	printf("\n%s\nOptions:\n%s", c->what, c->options);
	if (c->geom)
		fputs(geom_help, stdout);
	if (c->budget)
		fputs(budget_help, stdout);
	fputs("  -h, --help              show this help\n"
	      "  -fdiagnostics-color[=WHEN], -fmax-errors=N, -Wno-NAME, --sarif FILE,\n"
	      "  --sarif-suppressed\n"
	      "                          diagnostics (bankc --help)\n", stdout);
	return 0;
}

/* A command-line mistake: exit status 2, as for any bad usage. */
int cli_usage_error(const char *fmt, const char *arg)
{
	fputs("bankc: error: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\n(see 'bankc --help')\n", stderr);
	return 2;
}

/* ---- getopt_long with the project's messages ---------------------------- */

/* The option element that getopt just rejected, without any "=VALUE". */
static void bad_option(const Cli *c, const char *elem)
{
	size_t n = strcspn(elem, "=");
	const char *hint = NULL;
	int bd = 3;
	if (elem[0] == '-' && elem[1] == '-') {
		for (const struct option *o = c->longopts; o->name; o++) {
			int d = text_distance(elem + 2, n - 2, o->name);
			if (d < bd)
				bd = d, hint = o->name;
		}
	}
	if (hint)
		fprintf(stderr, "bankc: error: unknown option '%.*s' for %s (did "
		        "you mean '--%s'?)\n(see 'bankc %s --help')\n", (int)n, elem,
		        c->cmd, hint, c->cmd);
	else
		fprintf(stderr, "bankc: error: unknown option '%.*s' for %s\n(see "
		        "'bankc %s --help')\n", (int)n, elem, c->cmd, c->cmd);
}

/* ---- the geometry options ----------------------------------------------- */

static bool geom_option(int code, const char *arg, Geom *g, int *rc)
{
	*rc = 0;
	if (code == OPT_NO_MERGE) {
		g->merge_loads = false;
		return true;
	}
	if (code != OPT_BANKS && code != OPT_BANK_BYTES)
		return false;
	bool banks = code == OPT_BANKS;
	char *end;
	long v = strtol(arg, &end, 10);
	if (*end || end == arg ||
	    (banks ? v < 1 || v > 64 || (v & (v - 1)) : v != 4 && v != 8))
		*rc = cli_usage_error(banks ? "--banks takes a power of two from 1 "
		                      "to 64, not '%s'"
		                      : "--bank-bytes takes 4 or 8, not '%s'", arg);
	else if (banks)
		g->banks = (int)v;
	else
		g->bank_bytes = (int)v;
	return true;
}

/* "--search-budget N": N from 1 to SOLVE_BUDGET_MAX; false if it is not. */
static bool parse_budget(const char *s, int64_t *out)
{
	int64_t v = 0;
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > SOLVE_BUDGET_MAX / 10)
			return false;
		v = v * 10 + (*s - '0');
	}
	if (v < 1 || v > SOLVE_BUDGET_MAX)
		return false;
	*out = v;
	return true;
}

static bool budget_option(int code, const char *arg, int64_t *work,
                          int *rc)
{
	*rc = 0;
	if (code != OPT_SEARCH_BUDGET)
		return false;
	if (!parse_budget(arg, work))
		*rc = cli_usage_error("--search-budget takes 1 to 10^15 work units, "
		                      "not '%s'", arg);
	return true;
}

static const char *long_name(const Cli *c, int val)
{
	for (const struct option *o = c->longopts; o->name; o++)
		if (o->val == val)
			return o->name;
	return NULL;
}

int cli_next(Cli *c, char **arg, int *rc)
{
	if (!c->started) {
		optind = 0;             /* glibc: start a fresh scan */
		opterr = 0;
		c->started = true;
	}
	int ch, before;
	/* the diagnostic options every command takes (cli_diag.c) */
	static char sopts[32];
	static struct option lopts[64];
	cli_diag_options(c, sopts, sizeof sopts, lopts, 64);
	for (;;) {
		before = optind;
		ch = getopt_long(c->argc, c->argv, sopts, lopts, NULL);
		*arg = optarg;
		if (!(c->geom && geom_option(ch, optarg, c->geom, rc)) &&
		    !(c->work && budget_option(ch, optarg, c->work, rc)) &&
		    !cli_diag_option(c, ch, optarg, rc))
			break;
		if (*rc)
			return CLI_STOP;
	}
	if (ch == 'h') {
		*rc = cli_command_help(c->cmd);
		return CLI_STOP;
	}
	if (ch != '?' && ch != ':')
		return ch;
	/* getopt has stepped past the element it rejected; errors name
	 * the element as given */
	const char *elem = c->argv[optind - 1];
	const char *ln = optopt ? long_name(c, optopt) : NULL;
	*rc = 2;
	if (c->as_given)
		elem = c->as_given(elem);
	if (ch == ':')
		fprintf(stderr, "bankc: error: %s needs a value\n", elem);
	else if (optopt == 0) {
		bad_option(c, elem);
		return CLI_STOP;
	} else if (ln && elem[0] == '-' && elem[1] == '-')
		fprintf(stderr, "bankc: error: --%s takes no value\n", ln);
	else {
		/* an unknown letter: the whole element it starts or sits in
		 * (-fdiagnostics-color, -MM), not the letter alone.  getopt
		 * steps past an element only when its last letter is read. */
		size_t n = strlen(elem);
		if ((optind - 1 < before || elem[0] != '-' || n < 2 ||
		     elem[n - 1] != optopt) && optind < c->argc)
			elem = c->argv[optind];
		bad_option(c, elem);
		return CLI_STOP;
	}
	fprintf(stderr, "(see 'bankc %s --help')\n", c->cmd);
	return CLI_STOP;
}


bool cli_number(const char *opt, const char *arg, long lo, long hi, long *out,
                int *rc)
{
	char *end;
	long v = strtol(arg, &end, 10);
	if (!*arg || *end || v < lo || v > hi) {
		fprintf(stderr, "bankc: error: %s takes %ld to %ld, not '%s'\n(see "
		        "'bankc --help')\n", opt, lo, hi, arg);
		*rc = 2;
		return false;
	}
	*out = v;
	return true;
}
