/* bankc: the command line.  Each command is a short list of stages, and
 * each stage a folder of compiler/ (architecture.md):
 *
 *   check     front: read -> parse -> check
 *   dump      front -> emit: canonical text or JSON
 *   sim       model: a table of patterns -> simulate
 *   explain   front -> [solve] -> model: lay out -> simulate -> print
 *   compare   front -> solve: search, baselines -> print or emit's report
 *   build     front -> solve -> emit: header, check program, report,
 *             picture -> write all or nothing
 *   scan      ptx: read -> interpret -> scan: group warps -> cost -> print
 *
 * Each command's own file in cmd/ runs its stages; cli.c has the help
 * texts and option parsing. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "bankc.h"
#include "cmd/cmd.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} commands[] = {
	{"check", cmd_check},
	{"dump", cmd_dump},
	{"compare", cmd_compare},
	{"build", cmd_build},
	{"sim", cmd_sim},
	{"explain", cmd_explain},
	{"scan", cmd_scan},
	{"words", cmd_words},       /* hidden: the language's words, for the
	                             * docs check */
};

int main(int argc, char **argv)
{
	/* stderr is unbuffered: a long diagnostic would go out a byte at a
	 * time.  Buffer it by lines' worth; exit flushes it. */
	static char errbuf[1 << 16];
	setvbuf(stderr, errbuf, _IOFBF, sizeof errbuf);
	json_set_alloc_funcs(xmalloc, free);    /* one out-of-memory policy */
	if (argc < 2) {
		cli_print_usage(stderr);
		return 2;
	}
	const char *cmd = argv[1];
	if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0) {
		cli_print_usage(stdout);
		return 0;
	}
	if (strcmp(cmd, "help") == 0) {
		/* help, and help of help, is the whole usage */
		if (argc == 2 || strcmp(argv[2], "help") == 0) {
			cli_print_usage(stdout);
			return 0;
		}
		return cli_command_help(argv[2]);
	}
	if (strcmp(cmd, "--version") == 0) {
		printf("bankc %s\n", BANKC_VERSION);
		return 0;
	}
	int rc = -1;
	for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
		if (strcmp(cmd, commands[i].name) == 0)
			rc = commands[i].run(argc - 1, argv + 1);
	if (rc < 0) {
		const char *hint = NULL;
		for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
			if (text_distance(cmd, strlen(cmd), commands[i].name) <= 2)
				hint = commands[i].name;
		if (hint) {
			fprintf(stderr, "bankc: error: unknown command '%s' (did you "
			        "mean '%s'?)\n(see 'bankc --help')\n", cmd, hint);
			rc = 2;
		} else {
			rc = cli_usage_error("unknown command '%s'", cmd);
		}
	}
	if (cli_sarif_path && !sarif_write(cli_sarif_path, rc))
		rc = 1;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fputs("bankc: error: cannot write the output\n", stderr);
		return 1;
	}
	return rc;
}
