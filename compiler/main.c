/* bankc: the command line.  Each command is a short list of stages:
 *
 *     read -> parse -> check                                   (check, dump)
 *     read table -> simulate                                   (sim)
 *     read -> parse -> check -> lay out -> simulate -> print   (explain)
 *     read -> parse -> check -> solve -> baselines -> print    (compare)
 *     read -> parse -> check -> solve -> emit -> write         (build)
 *     read PTX -> interpret -> group warps -> simulate -> print (scan)
 *
 * Help texts and option parsing are in cli.c. */
#include <getopt.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "bankc.h"
#include "cmd/cmd.h"

/* check FILE...: every file is read, parsed and checked; errors in one
 * file do not stop the others. */
int cmd_check(int argc, char **argv)
{
	static const struct option lo[] = {CLI_HELP_OPTION, {0}};
	Cli c = {"check", argc, argv, ":h", lo, false};
	char *arg;
	int ch, rc;
	while ((ch = cli_next(&c, &arg, &rc)) != -1)
		if (ch == CLI_STOP)
			return rc;
	if (optind >= argc)
		return cli_usage_error("%s", "check needs at least one FILE");
	int bad = 0;
	for (int i = optind; i < argc; i++) {
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
int cmd_dump(int argc, char **argv)
{
	enum { O_JSON = OPT_CMD };
	static const struct option lo[] = {
		{"json", no_argument, NULL, O_JSON}, CLI_HELP_OPTION, {0}};
	Cli c = {"dump", argc, argv, ":h", lo, false};
	bool json = false;
	char *arg;
	int ch, rc;
	while ((ch = cli_next(&c, &arg, &rc)) != -1) {
		if (ch == CLI_STOP)
			return rc;
		json = true;
	}
	if (optind >= argc)
		return cli_usage_error("%s", "dump needs a FILE");
	if (optind + 1 < argc)
		return cli_usage_error("%s", "dump takes one FILE");
	Pool *p = pool_new();
	Src src;
	Unit u;
	int status = 1;
	if (frontend_file(argv[optind], p, stderr, &src, &u)) {
		if (json)
			dump_json(stdout, &u);
		else
			dump_text(stdout, &u);
		status = 0;
	}
	src_free(&src);
	pool_free(p);
	return status;
}

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
		if (argc == 2) {
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
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fputs("bankc: error: cannot write the output\n", stderr);
		return 1;
	}
	return rc;
}
