/* The diagnostic options every command takes, as gcc spells them:
 * -fdiagnostics-color[=auto|always|never], -fno-diagnostics-color,
 * -fmax-errors=N and -Wno-NAME (a warning off; -WNAME back on), and
 * bankc's --sarif FILE (the command's diagnostics as a SARIF 2.1.0 log,
 * docs/sarif.md; emit/sarif.c writes it) and --sarif-suppressed (the
 * warnings a user accepted in it too, suppressed).  cli_next hands them
 * here. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "bankc.h"
#include "cmd/cmd.h"

const char *cli_sarif_path;

bool cli_diag_option(const Cli *c, int code, const char *arg, int *rc)
{
	*rc = 0;
	if (code == OPT_SARIF) {
		cli_sarif_path = arg;
		diag_options.record = true;
		return true;
	}
	if (code == OPT_SARIF_SUPPRESSED) {
		diag_options.record_accepted = true;
		return true;
	}
	if (code == 'W') {
		if (!diag_flag_option(arg)) {
			fprintf(stderr, "bankc: error: unknown warning option '-W%s'; the warnings:",
			        arg);
			for (int f = 0; f < DW_COUNT; f++)
				fprintf(stderr, " -W%s", diag_flag_name((DiagFlag)f));
			fprintf(stderr, "\n(see 'bankc %s --help')\n", c->cmd);
			*rc = 2;
		}
		return true;
	}
	if (code != 'f')
		return false;
	if (strcmp(arg, "diagnostics-color") == 0 ||
	    strcmp(arg, "diagnostics-color=always") == 0)
		diag_options.color = DIAG_COLOR_ALWAYS;
	else if (strcmp(arg, "diagnostics-color=never") == 0 ||
	         strcmp(arg, "no-diagnostics-color") == 0)
		diag_options.color = DIAG_COLOR_NEVER;
	else if (strcmp(arg, "diagnostics-color=auto") == 0)
		diag_options.color = DIAG_COLOR_AUTO;
	else if (strncmp(arg, "diagnostics-color=", 18) == 0) {
		fprintf(stderr, "bankc: error: -fdiagnostics-color takes auto, always "
		        "or never, not '%s'\n(see 'bankc %s --help')\n", arg + 18,
		        c->cmd);
		*rc = 2;
	} else if (strncmp(arg, "max-errors=", 11) == 0) {
		char *end;
		long n = strtol(arg + 11, &end, 10);
		if (!arg[11] || *end || n < 0 || n > 1000000) {
			fprintf(stderr, "bankc: error: -fmax-errors takes 0 (no limit) to "
			        "1000000, not '%s'\n(see 'bankc %s --help')\n", arg + 11,
			        c->cmd);
			*rc = 2;
		} else {
			diag_options.max_errors = (int)n;
		}
	} else {
		fprintf(stderr, "bankc: error: unknown option '-f%s' for %s\n(see "
		        "'bankc %s --help')\n", arg, c->cmd, c->cmd);
		*rc = 2;
	}
	return true;
}

/* The command's own options and these, for getopt_long. */
void cli_diag_options(const Cli *c, char *shortopts, size_t n,
                      struct option *longopts, size_t nlong)
{
	snprintf(shortopts, n, "%sf:W:", c->shortopts);
	size_t k = 0;
	for (const struct option *o = c->longopts; o->name && k + 3 < nlong; o++)
		longopts[k++] = *o;
	longopts[k++] = (struct option){"sarif", required_argument, NULL,
		OPT_SARIF};
	longopts[k++] = (struct option){"sarif-suppressed", no_argument, NULL,
		OPT_SARIF_SUPPRESSED};
	longopts[k] = (struct option){0};
}

bool sarif_write(const char *path, int status)
{
	return emit_sarif(path, status);
}
