/* --sarif FILE: the diagnostics a command gave (diag_records), as a
 * SARIF 2.1.0 log that GitHub code scanning takes whole and editors
 * show at their lines.  One run, bankc as its tool with the rules the
 * results name (each with a full description and help); each result a
 * ruleId, a level, the message, one location with a region (every one:
 * GitHub refuses a whole upload for a result without), a fingerprint
 * that survives lines moving, and where known the places related to it
 * (an array's declaration), its fix as replacements of the source, and
 * its suppression.  docs/sarif.md says what each part holds;
 * docs/schema/sarif.json is the subset of SARIF written.  The file is
 * written beside its target and renamed over it: a failed write leaves
 * the old log or none, never a torn one. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "bankc.h"

/* id, level, short description, full description, what to do (help),
 * and a tag: what the rule is about */
static const struct {
	const char *id, *level, *text, *full, *help, *tag;
} rules[] = {
	{"spec-error", "error", "An error in a .tile spec.",
	 "An error in a .tile spec: the file is not read, and nothing is written for it.",
	 "Correct the spec at the place given; the man page's THE SPEC LANGUAGE says what "
	 "each statement takes.", "correctness"},
	{"no-layout", "error", "A tile with no legal layout.",
	 "A tile with no legal layout within its budget and restrictions: bankc cannot "
	 "build it.", "Give the tile more shared memory (its budget), or lift a "
	 "restriction (a layout family it forbids).", "correctness"},
	{"build-gate", "error", "A layout above its lower bound by more than allowed.",
	 "A layout above its lower bound by more than the build allows (--require-optimal, "
	 "--max-excess): the build fails.", "Raise --search-budget so that the search "
	 "proves a better layout, or allow the excess with a larger --max-excess.",
	 "performance"},
	{"build-clash", "error", "Two tiles that would write the same names.",
	 "Two tiles or views of one build that would write the same files, macros or "
	 "include guards.", "Rename one of the two tiles or views.", "correctness"},
	{"ptx-error", "error", "PTX that bankc scan cannot read.",
	 "PTX that bankc scan cannot read: the kernels of the file are not scanned.",
	 "Give the PTX that nvcc -ptx writes, or the .cu itself; docs/scan.md lists the "
	 "PTX bankc reads.", "correctness"},
	{"scan-launch", "error", "A kernel bankc scan cannot launch as asked.",
	 "A kernel that bankc scan cannot launch as asked: no block size (--block, "
	 ".reqntid or .maxntid), a block its bounds refuse, or a parameter given wrongly. "
	 "The kernel is not scanned.", "Give the launch: --kernel NAME --block X,Y,Z, "
	 "--param NAME=VALUE (bankc scan --help).", "correctness"},
	{"scan-stopped", "error", "A kernel path bankc scan could not finish.",
	 "A kernel path that bankc scan could not interpret or cost to its end: no totals "
	 "for the kernel.", "Follow the notes after the error: they name the value or the "
	 "limit that stopped the path, and what to pass.", "correctness"},
	{"scan-gate", "error", "A kernel above its ideal by more than --max-excess allows.",
	 "A kernel whose shared-memory accesses take more wavefronts than their ideal by "
	 "more than bankc scan --max-excess allows: the scan fails.",
	 "Apply the fixes the warnings propose (bankc scan --fix prints them as a diff), "
	 "accept the known conflicts (// bankc: allow bank-conflict, --baseline FILE), or "
	 "raise --max-excess.", "performance"},
	{"unproven", "warning", "A search that stopped before it proved its layout the best.",
	 "A tile whose search stopped (its work budget spent) before it could prove its "
	 "layout the best: a larger --search-budget may find a better one.",
	 "Raise --search-budget, or turn the warning off with -Wno-unproven.", "performance"},
	{"bank-conflict", "warning", "Shared-memory accesses with bank conflicts.",
	 "Shared-memory accesses of a source line that take more wavefronts than the "
	 "ideal: bank conflicts, which serialize the warp's access.",
	 "Apply the layout the notes propose (a padded declaration or rewritten indices, "
	 "proven on the kernel's own addresses; bankc scan --fix prints the diff), or "
	 "accept the line with a comment '// bankc: allow bank-conflict' on it or above "
	 "it, -Wno-bank-conflict, or a --baseline FILE.", "performance"},
	{"cp-async-segments", "warning", "cp.async destinations over more segments than ideal.",
	 "cp.async destinations that touch more 128-byte segments of shared memory than "
	 "the ideal.", "Lay the destination out so that each instruction's bytes fill "
	 "whole segments, or accept it: '// bankc: allow cp-async-segments', "
	 "-Wno-cp-async-segments.", "performance"},
	{"outside-array", "warning", "A shared-memory access outside every array.",
	 "A shared-memory access outside every shared array of the kernel: the hardware "
	 "would fault or touch memory no array owns.",
	 "Check the index at the line given against the array's bounds.", "correctness"},
	{"data-dependent", "note", "Accesses whose cost depends on data.",
	 "Shared-memory accesses whose address, or whether they run, depends on data: "
	 "costed as a range (a warning where even the least is over the ideal).",
	 "Give the data that decides them (--data, --param) to have them costed exactly, "
	 "or accept them: '// bankc: allow data-dependent', -Wno-data-dependent.",
	 "performance"},
	{"undecided-branch", "note", "A branch on a value bankc cannot know.",
	 "A branch or loop test that depends on a value bankc cannot know: both sides run, "
	 "or the loop's body counts once.", "Give the value (--param, --data) so that the "
	 "scan follows the branch the launch takes.", "performance"},
	{"not-counted", "note", "A shared-memory instruction not counted.",
	 "A shared-memory instruction bankc does not count, counts one trip of, or a call "
	 "taken to touch no shared memory; or one that reaches shared memory outside the "
	 "load/store counters.", "Nothing to do unless the instruction matters: the totals "
	 "leave it out, as the note says.", "performance"},
	{"shared-race", "error", "Two threads touch one shared byte unordered.",
	 "Two threads touch one shared byte, at least one writing, with no barrier or "
	 "__syncwarp ordering them: the result depends on timing (a warning where one "
	 "runs on a path that depends on data).", "Order the two accesses the result names: "
	 "a __syncthreads() between them where they are in different warps, a "
	 "__syncwarp() where they are lanes of one warp.", "correctness"},
	{"shared-bounds", "error", "A shared-memory access outside its array.",
	 "A shared-memory access outside the array its address is made from (an overrun "
	 "into the next array included), or outside every shared array of the launch.",
	 "Check the index at the line given against the array's declared size; for an "
	 "extern __shared__ array, give the launch's size with --dynamic-shared BYTES.",
	 "correctness"},
	{"shared-align", "error", "A shared-memory access at a misaligned address.",
	 "A shared-memory access at an address that is not a multiple of its width "
	 "(vectors, ldmatrix rows, cp.async destinations): the GPU faults.",
	 "Align the array (__align__) or the offset to the access's width.", "correctness"},
	{"barrier-divergence", "error", "A block barrier the threads meet unevenly.",
	 "A block barrier that the block's threads meet at different places or a different "
	 "number of times, or that cannot complete: the block hangs or its threads pair "
	 "the wrong barriers.", "Move the barrier out of the branch or loop that only some "
	 "threads take, so that every thread of the block meets it equally often.",
	 "correctness"},
	{"assumed-cost", "note", "An instruction costed by an unmeasured rule.",
	 "An instruction costed by a documented rule that no measurement has confirmed yet "
	 "(Blackwell's 8-bit ldmatrix and stmatrix).", "Measure the kernel to confirm the "
	 "cost; docs/scan.md gives the rule.", "performance"},
};
enum { NRULES = sizeof rules / sizeof *rules };

static int rule_index(const char *id)
{
	for (int i = 0; i < NRULES; i++)
		if (strcmp(rules[i].id, id) == 0)
			return i;
	internal_error("no SARIF rule '%s'", id);
}

/* ---- URIs ------------------------------------------------------------------------ */

/* path with "." and ".." taken out, lexically ("a/../b" is "b"); an
 * absolute one stays absolute; ".." above a relative start is kept. */
static char *normalized(const char *path)
{
	size_t n = strlen(path);
	char *out = xmalloc(n + 2), *o = out;
	bool abs = path[0] == '/';
	size_t keep = 0;        /* bytes of out that ".." may not remove */
	if (abs)
		*o++ = '/', keep = 1;
	for (const char *p = path; *p;) {
		while (*p == '/')
			p++;
		const char *e = strchr(p, '/');
		size_t k = e ? (size_t)(e - p) : strlen(p);
		if (!k)
			break;
		if (k == 1 && p[0] == '.') {
			/* nothing */
		} else if (k == 2 && p[0] == '.' && p[1] == '.' && (size_t)(o - out) > keep) {
			while (o > out + keep && o[-1] != '/')
				o--;
			if (o > out + keep)
				o--;                    /* the slash before it */
		} else if (k == 2 && p[0] == '.' && p[1] == '.' && abs) {
			/* "/.." is "/" */
		} else {
			if (o > out && o[-1] != '/')
				*o++ = '/';
			memcpy(o, p, k);
			o += k;
			if (k == 2 && p[0] == '.' && p[1] == '.')
				keep = (size_t)(o - out);       /* above the start: kept */
		}
		p += k;
	}
	*o = 0;
	return out;
}

/* RFC 3986: a path's unreserved characters and '/' as they are, every
 * other byte %XX.  Under the working folder: relative to it (uriBaseId
 * %SRCROOT%); elsewhere an absolute file: URI (a ".." never reaches a
 * URI relative to %SRCROOT%, which has no parent). */
static char *uri_of(const char *path, bool *rel)
{
	char cwd[4096];
	char *full;
	if (path[0] == '/' || !getcwd(cwd, sizeof cwd)) {
		full = normalized(path);
	} else {
		char *j = xmalloc(strlen(cwd) + strlen(path) + 2);
		sprintf(j, "%s/%s", cwd, path);
		full = normalized(j);
		free(j);
	}
	const char *p = full;
	*rel = false;
	if (full[0] == '/' && getcwd(cwd, sizeof cwd)) {
		size_t n = strlen(cwd);
		if (n > 1 && strncmp(full, cwd, n) == 0 && full[n] == '/')
			p = full + n + 1, *rel = true;
	} else if (full[0] != '/') {
		*rel = true;            /* no working folder known: as given */
	}
	char *u = xmalloc(strlen(p) * 3 + 8), *o = u;
	if (!*rel)
		o += sprintf(o, "file://");
	for (const unsigned char *q = (const unsigned char *)p; *q; q++) {
		if ((*q >= 'A' && *q <= 'Z') || (*q >= 'a' && *q <= 'z') ||
		    (*q >= '0' && *q <= '9') || strchr("-._~/", *q))
			*o++ = (char)*q;
		else
			o += sprintf(o, "%%%02X", *q);
	}
	*o = 0;
	free(full);
	return u;
}

static json_t *artifact(const char *file)
{
	bool rel;
	char *uri = uri_of(file, &rel);
	json_t *art = json_pack("{s:s}", "uri", uri);
	if (rel)
		json_object_set_new(art, "uriBaseId", json_string("%SRCROOT%"));
	free(uri);
	return art;
}

/* A place as a SARIF location: a region always, on line 1 where the
 * diagnostic has no line (a whole file); a column where it is known in
 * code points. */
static json_t *location(const DiagPlace *p)
{
	json_t *reg = json_pack("{s:i}", "startLine", p->line > 0 ? p->line : 1);
	if (p->line > 0 && p->cp_col > 0)
		json_object_set_new(reg, "startColumn", json_integer(p->cp_col));
	json_t *loc = json_pack("{s:{s:o,s:o}}", "physicalLocation", "artifactLocation",
	                        artifact(p->file), "region", reg);
	if (p->msg)
		json_object_set_new(loc, "message", json_pack("{s:o}", "text",
		                    report_string(p->msg)));
	return loc;
}

static json_t *fix_of(const DiagRecord *r)
{
	json_t *reps = json_array();
	for (int i = 0; i < r->nrepl; i++) {
		const DiagRepl *x = &r->repl[i];
		json_array_append_new(reps, json_pack("{s:{s:i,s:i,s:i,s:i},s:{s:o}}",
		                      "deletedRegion", "startLine", x->line, "startColumn", x->col,
		                      "endLine", x->end_line, "endColumn", x->end_col,
		                      "insertedContent", "text", report_string(x->text)));
	}
	return json_pack("[{s:{s:o},s:[{s:o,s:o}]}]", "description", "text",
	                 report_string(r->fix), "artifactChanges", "artifactLocation",
	                 artifact(r->fix_file), "replacements", reps);
}

static const char *const level[] = {"error", "warning", "note"};

static uint64_t fingerprint(const DiagRecord *r)
{
	bool rel;
	char *uri = uri_of(r->at.file, &rel), about[20];
	snprintf(about, sizeof about, "%016llx", (unsigned long long)r->hash);
	uint64_t h = diag_hash(diag_hash(diag_hash(0, r->rule), uri), about);
	free(uri);
	return h;
}

static json_t *rule_json(int k)
{
	char *md = diag_format("%s\n\n%s\n\nbankc's documentation of its SARIF rules: "
	                       "`docs/sarif.md` in its sources, `share/doc/bankc/sarif.md` "
	                       "where it is installed.", rules[k].full, rules[k].help);
	char *text = diag_format("%s %s (docs/sarif.md)", rules[k].full, rules[k].help);
	json_t *j = json_pack("{s:s,s:{s:s},s:{s:s},s:{s:s,s:s},s:{s:s},s:{s:[s]}}",
	                      "id", rules[k].id, "shortDescription", "text", rules[k].text,
	                      "fullDescription", "text", rules[k].full, "help", "text", text,
	                      "markdown", md, "defaultConfiguration", "level", rules[k].level,
	                      "properties", "tags", rules[k].tag);
	free(md);
	free(text);
	return j;
}

static json_t *log_of(int status)
{
	int n;
	const DiagRecord *r = diag_records(&n);
	/* the rules in the order the results first name them */
	int order[NRULES], nused = 0, index[NRULES];
	for (int i = 0; i < NRULES; i++)
		index[i] = -1;
	json_t *results = json_array();
	uint64_t *hash = xcalloc((size_t)n + 1, sizeof *hash);
	for (int i = 0; i < n; i++) {
		int k = rule_index(r[i].rule);
		if (index[k] < 0)
			index[k] = nused, order[nused++] = k;
		/* the fingerprint: its rule, its file as the log names it, what
		 * it is about, and which of the results about the same it is
		 * (two alike lines of one file) */
		hash[i] = fingerprint(&r[i]);
		int seen = 1;
		for (int j = 0; j < i; j++)
			seen += hash[j] == hash[i];
		char fp[40];
		snprintf(fp, sizeof fp, "%016llx:%d", (unsigned long long)hash[i], seen);
		json_t *res = json_pack("{s:s,s:i,s:s,s:{s:o},s:[o],s:{s:s}}", "ruleId",
		                        r[i].rule, "ruleIndex", index[k], "level",
		                        level[r[i].kind], "message", "text",
		                        report_string(r[i].msg), "locations", location(&r[i].at),
		                        "partialFingerprints", "bankc/v1", fp);
		if (r[i].nrelated) {
			json_t *rel = json_array();
			for (int j = 0; j < r[i].nrelated; j++) {
				json_t *l = location(&r[i].related[j]);
				json_object_set_new(l, "id", json_integer(j + 1));
				json_array_append_new(rel, l);
			}
			json_object_set_new(res, "relatedLocations", rel);
		}
		if (r[i].fix && r[i].nrepl)
			json_object_set_new(res, "fixes", fix_of(&r[i]));
		if (r[i].suppressed)
			json_object_set_new(res, "suppressions", json_pack("[{s:s,s:o}]", "kind",
			                    r[i].suppressed == DS_IN_SOURCE ? "inSource" : "external",
			                    "justification", report_string(r[i].justification)));
		json_array_append_new(results, res);
	}
	free(hash);
	json_t *jr = json_array();
	for (int i = 0; i < nused; i++)
		json_array_append_new(jr, rule_json(order[i]));
	return json_pack("{s:s,s:s,s:[{s:{s:{s:s,s:s,s:s,s:o}},s:s,s:o,s:[{s:b,s:i}]}]}",
		"$schema", "https://json.schemastore.org/sarif-2.1.0.json",
		"version", "2.1.0", "runs", "tool", "driver", "name", "bankc",
		"version", BANKC_VERSION, "semanticVersion", BANKC_VERSION, "rules", jr,
		"columnKind", "unicodeCodePoints", "results", results, "invocations",
		"executionSuccessful", status != 2, "exitCode", status);
}

bool emit_sarif(const char *path, int status)
{
	json_t *log = log_of(status);
	diag_records_free();
	/* as -MF is refused: never over a file the command read or wrote */
	if (files_used_has(path)) {
		fprintf(stderr, "bankc: error: the SARIF log '%s' would replace a file the "
		        "command read or wrote\n", esc_shown(path));
		json_decref(log);
		return false;
	}
	char tmp[4096];
	FILE *f = tmp_beside(path, tmp, sizeof tmp);
	if (!f) {
		fprintf(stderr, "bankc: error: cannot write '%s'\n", esc_shown(path));
		json_decref(log);
		return false;
	}
	report_write(f, log);
	bool ok = !ferror(f);
	ok &= fflush(f) == 0 && fsync(fileno(f)) == 0;
	ok &= fclose(f) == 0;
	if (!ok || rename(tmp, path) != 0) {
		int e = errno;
		unlink(tmp);
		fprintf(stderr, "bankc: error: cannot write '%s': %s\n", esc_shown(path),
		        strerror(e));
		return false;
	}
	return true;
}
