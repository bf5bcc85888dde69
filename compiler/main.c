/* bankc: the command line.  Each command is a short list of stages:
 *
 *     read -> parse -> check            (check, dump)
 *     read table -> simulate             (sim)
 *     read -> parse -> check -> lay out -> simulate -> print   (explain)
 */
#include <stdlib.h>
#include <string.h>

#include "bankc.h"

static const char usage[] =
"usage: bankc COMMAND [OPTIONS] [FILE...]\n"
"\n"
"Commands:\n"
"  check FILE...           parse and check .tile specs; print nothing if good\n"
"  dump [--json] FILE      print the checked tiles in canonical form (or JSON)\n"
"  compare [--json] [--top N] FILE...\n"
"                          choose each tile's layout: the candidates ranked,\n"
"                          the lower bound, baselines, occupancy\n"
"  build FILE... -o DIR [-MD [-MF DEPFILE]]\n"
"                          write each tile's NAME.cuh (layout macros),\n"
"                          NAME_check.cu (GPU check program), NAME.json and\n"
"                          NAME.svg into DIR; -MD writes a make depfile\n"
"                          (DEPFILE, or DIR/bankc.d)\n"
"  sim --table FILE        predict the wavefronts of each pattern in a table\n"
"                          and compare with its measured column\n"
"  sim --op OP --width W --offsets A,B,... [--mask HEX]\n"
"                          predict one warp instruction and show its banks\n"
"  explain [--summary] [--chosen] FILE... [--tile T] [--access A]\n"
"                          every warp instruction of a spec's accesses with\n"
"                          its wavefronts and conflicting banks, under the\n"
"                          row-major layout or (--chosen) the solver's;\n"
"                          --summary: one line of totals per access\n"
"  scan FILE.ptx|FILE.cu [--kernel NAME] [--block X[,Y,Z]] [--param NAME=VALUE]...\n"
"       [--grid X[,Y,Z]] [--ctaid X[,Y,Z]] [--max-steps N] [--no-vectorize]\n"
"       [--emit-spec DIR] [--json] [-- NVCC_FLAGS]\n"
"                          interpret one block of each kernel of existing PTX\n"
"                          (a .cu is compiled with nvcc -ptx -lineinfo) and\n"
"                          warn at each source line whose shared-memory\n"
"                          accesses conflict; per-kernel totals as Nsight\n"
"                          Compute counts them; --emit-spec writes a .tile\n"
"                          spec per shared array for compare\n"
"\n"
"Options for sim, explain, compare, build and scan:\n"
"  --banks N               number of banks, a power of two up to 64\n"
"                          (default 32)\n"
"  --bank-bytes 4|8        bank width in bytes (default 4; 8 is Kepler's mode)\n"
"  --no-merge              do not merge broadcast pairs of 8/16-byte loads\n"
"\n"
"  -h, --help              show this help\n"
"  --version               show the version\n"
"\n"
"A FILE of - reads standard input.\n"
"Exit status: 0 success, 1 a bad spec, a failed write or a mismatch,\n"
"2 bad usage.\n";

/* check FILE...: every file is read, parsed and checked; errors in one
 * file do not stop the others. */
static int cmd_check(int argc, char **argv)
{
	if (argc == 0)
		return cli_usage_error("%s", "check needs at least one FILE");
	int bad = 0;
	for (int i = 0; i < argc; i++) {
		if (argv[i][0] == '-' && argv[i][1])
			return cli_usage_error("unknown option '%s' for check", argv[i]);
	}
	for (int i = 0; i < argc; i++) {
		Pool *p = pool_new();
		Src src;
		Unit u;
		if (!frontend_file(argv[i], p, stderr, &src, &u))
			bad = 1;
		src_free(&src);
		pool_free(p);
	}
	return bad;
}

/* dump [--json] FILE: read, parse, check, print. */
static int cmd_dump(int argc, char **argv)
{
	bool json = false;
	const char *file = NULL;
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			json = true;
		else if (argv[i][0] == '-' && argv[i][1])
			return cli_usage_error("unknown option '%s' for dump", argv[i]);
		else if (file)
			return cli_usage_error("%s", "dump takes one FILE");
		else
			file = argv[i];
	}
	if (!file)
		return cli_usage_error("%s", "dump needs a FILE");
	Pool *p = pool_new();
	Src src;
	Unit u;
	int rc = 1;
	if (frontend_file(file, p, stderr, &src, &u)) {
		if (json)
			dump_json(stdout, &u);
		else
			dump_text(stdout, &u);
		rc = 0;
	}
	src_free(&src);
	pool_free(p);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs(usage, stderr);
		return 2;
	}
	const char *cmd = argv[1];
	if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 ||
	    strcmp(cmd, "help") == 0) {
		fputs(usage, stdout);
		return 0;
	}
	if (strcmp(cmd, "--version") == 0) {
		printf("bankc %s\n", BANKC_VERSION);
		return 0;
	}
	int rc;
	if (strcmp(cmd, "check") == 0)
		rc = cmd_check(argc - 2, argv + 2);
	else if (strcmp(cmd, "dump") == 0)
		rc = cmd_dump(argc - 2, argv + 2);
	else if (strcmp(cmd, "sim") == 0)
		rc = cmd_sim(argc - 2, argv + 2);
	else if (strcmp(cmd, "explain") == 0)
		rc = cmd_explain(argc - 2, argv + 2);
	else if (strcmp(cmd, "compare") == 0)
		rc = cmd_compare(argc - 2, argv + 2);
	else if (strcmp(cmd, "build") == 0)
		rc = cmd_build(argc - 2, argv + 2);
	else if (strcmp(cmd, "scan") == 0)
		rc = cmd_scan(argc - 2, argv + 2);
	else
		rc = cli_usage_error("unknown command '%s'", cmd);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fputs("bankc: error: cannot write the output\n", stderr);
		return 1;
	}
	return rc;
}
