/* --sarif FILE: the diagnostics a command gave (diag_records), as a
 * SARIF 2.1.0 log, so that GitHub code scanning and editors show them at
 * their lines.  One run, bankc as its tool with the rules the results
 * name; each result a ruleId, a level, the message, and where it is: a
 * URI relative to the working folder (percent-encoded) with line and
 * column (bytes, 1-based) where known.  docs/sarif.md says which rules
 * there are; docs/schema/sarif.json is the subset of SARIF written. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bankc.h"
#include "cmd/cmd.h"

static const struct {
	const char *id, *level, *text;
} rules[] = {
	{"spec-error", "error", "An error in a .tile spec: it is not read, and nothing is "
	 "written for it."},
	{"no-layout", "error", "A tile with no legal layout within its budget and "
	 "restrictions."},
	{"build-gate", "error", "A layout above its lower bound by more than the build "
	 "allows (--require-optimal, --max-excess)."},
	{"build-clash", "error", "Two tiles or views of one build that would write the "
	 "same names."},
	{"ptx-error", "error", "PTX that bankc scan cannot read."},
	{"scan-launch", "error", "A kernel that bankc scan cannot launch as asked (its "
	 "block, its parameters)."},
	{"scan-stopped", "error", "A kernel path that bankc scan could not interpret or "
	 "cost to its end: no totals for the kernel."},
	{"scan-gate", "error", "A kernel whose shared-memory accesses exceed their ideal by "
	 "more than bankc scan --max-excess allows."},
	{"unproven", "warning", "A tile whose search stopped (its work budget spent) before "
	 "it could prove its layout the best: a larger --search-budget may find a better "
	 "one."},
	{"bank-conflict", "warning", "Shared-memory accesses of a source line that take "
	 "more wavefronts than the ideal: bank conflicts."},
	{"cp-async-segments", "warning", "cp.async destinations that touch more 128-byte "
	 "segments than the ideal."},
	{"outside-array", "warning", "A shared-memory access outside every shared array of "
	 "the kernel."},
	{"data-dependent", "note", "Shared-memory accesses whose address, or whether they "
	 "run, depends on data: costed as a range (a warning where even the least is over "
	 "the ideal)."},
	{"undecided-branch", "note", "A branch or loop test that depends on a value bankc "
	 "cannot know: both sides run, or the loop's body counts once."},
	{"not-counted", "note", "A shared-memory instruction bankc does not count, counts "
	 "one trip of, or a call taken to touch no shared memory."},
	{"shared-race", "error", "Two threads touch one shared byte, at least one writing, "
	 "with no barrier or __syncwarp ordering them (a warning where one runs on a path "
	 "that depends on data)."},
	{"shared-bounds", "error", "A shared-memory access outside the array its address is "
	 "made from (an overrun into the next array included), or outside every shared "
	 "array of the launch."},
	{"shared-align", "error", "A shared-memory access at an address that is not a "
	 "multiple of its width (vectors, ldmatrix rows, cp.async destinations): the GPU "
	 "faults."},
	{"barrier-divergence", "error", "A block barrier that the block's threads meet at "
	 "different places or a different number of times, or that cannot complete (the "
	 "block hangs)."},
	{"assumed-cost", "note", "An instruction costed by a documented rule that no "
	 "measurement has confirmed yet (Blackwell's 8-bit ldmatrix and stmatrix)."},
};
enum { NRULES = sizeof rules / sizeof *rules };

static int rule_index(const char *id)
{
	for (int i = 0; i < NRULES; i++)
		if (strcmp(rules[i].id, id) == 0)
			return i;
	internal_error("no SARIF rule '%s'", id);
}

/* RFC 3986: unreserved characters and '/' as they are, the rest %XX. */
static char *uri_of(const char *path)
{
	char cwd[4096];
	size_t n = 0;
	if (path[0] == '/' && getcwd(cwd, sizeof cwd)) {
		n = strlen(cwd);
		if (strncmp(path, cwd, n) == 0 && path[n] == '/')
			path += n + 1;      /* under the working folder: relative */
		else
			n = 0;
	}
	bool abs = path[0] == '/';
	char *u = xmalloc(strlen(path) * 3 + 8), *o = u;
	if (abs)
		o += sprintf(o, "file://");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~/", *p))
			*o++ = (char)*p;
		else
			o += sprintf(o, "%%%02X", *p);
	}
	*o = 0;
	return u;
}

static json_t *location(const DiagRecord *r)
{
	char *uri = uri_of(r->file);
	json_t *art = json_pack("{s:s}", "uri", uri);
	if (strncmp(uri, "file://", 7) != 0)
		json_object_set_new(art, "uriBaseId", json_string("%SRCROOT%"));
	free(uri);
	json_t *phys = json_pack("{s:o}", "artifactLocation", art);
	if (r->line > 0) {
		json_t *reg = json_pack("{s:i}", "startLine", r->line);
		if (r->col > 0)
			json_object_set_new(reg, "startColumn", json_integer(r->col));
		json_object_set_new(phys, "region", reg);
	}
	return json_pack("[{s:o}]", "physicalLocation", phys);
}

static const char *const level[] = {"error", "warning", "note"};

bool sarif_write(const char *path, int status)
{
	int n;
	const DiagRecord *r = diag_records(&n);
	/* the rules in the order the results first name them */
	int order[NRULES], nused = 0, index[NRULES];
	for (int i = 0; i < NRULES; i++)
		index[i] = -1;
	json_t *results = json_array();
	for (int i = 0; i < n; i++) {
		int k = rule_index(r[i].rule);
		if (index[k] < 0)
			index[k] = nused, order[nused++] = k;
		json_t *res = json_pack("{s:s,s:i,s:s,s:{s:s}}", "ruleId", r[i].rule,
		                        "ruleIndex", index[k], "level", level[r[i].kind],
		                        "message", "text", r[i].msg);
		/* standard input has no place to point at */
		if (strcmp(r[i].file, "<stdin>") != 0)
			json_object_set_new(res, "locations", location(&r[i]));
		json_array_append_new(results, res);
	}
	json_t *jr = json_array();
	for (int i = 0; i < nused; i++)
		json_array_append_new(jr, json_pack("{s:s,s:{s:s},s:{s:s}}", "id",
		                      rules[order[i]].id, "shortDescription", "text",
		                      rules[order[i]].text, "defaultConfiguration",
		                      "level", rules[order[i]].level));
	json_t *log = json_pack("{s:s,s:s,s:[{s:{s:{s:s,s:s,s:s,s:o}},s:s,s:o,s:[{s:b,s:i}]}]}",
		"$schema", "https://json.schemastore.org/sarif-2.1.0.json",
		"version", "2.1.0", "runs", "tool", "driver", "name", "bankc",
		"version", BANKC_VERSION, "semanticVersion", BANKC_VERSION, "rules", jr,
		"columnKind", "unicodeCodePoints", "results", results, "invocations",
		"executionSuccessful", status != 2, "exitCode", status);
	diag_records_free();
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "bankc: error: cannot write '%s'\n", esc_shown(path));
		json_decref(log);
		return false;
	}
	report_write(f, log);
	if (fclose(f) != 0) {
		fprintf(stderr, "bankc: error: cannot write '%s'\n", esc_shown(path));
		return false;
	}
	return true;
}
