/* bankc check and bankc dump: the front end alone, and its checked tiles
 * printed back. */
#include <getopt.h>

#include "bankc.h"
#include "cmd/cmd.h"

/* check FILE...: every file is read, parsed and checked; errors in one
 * file do not stop the others. */
int cmd_check(int argc, char **argv)
{
	static const struct option lo[] = {CLI_HELP_OPTION, {0}};
	Cli c = {"check", argc, argv, ":h", lo, .started = false};
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
	Cli c = {"dump", argc, argv, ":h", lo, .started = false};
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
