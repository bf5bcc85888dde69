/* JSON written as it is made, for documents too large to build in memory
 * (explain --json of a file at the limits: 2 GB of text, which as
 * jansson's objects took 8 GB).  The text is byte for byte what
 * report_write gives for the whole document (two-space indent, keys
 * sorted), so the caller writes an object's keys in sorted order and
 * hands small parts to jansson. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "bankc.h"
#include "cmd/cmd.h"

static void indent(FILE *f, int depth)
{
	for (int i = 0; i < depth; i++)
		fputs("  ", f);
}

void js_value(FILE *f, int depth, json_t *v)
{
	char *text = v ? json_dumps(v, JSON_INDENT(2) | JSON_SORT_KEYS |
	                            JSON_ENCODE_ANY) : NULL;
	json_decref(v);
	if (!text) {
		/* not JSON (a string that is not UTF-8): the caller's error */
		fputs("null", f);
		return;
	}
	for (const char *p = text, *nl; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl) {
			fputs(p, f);
			break;
		}
		fwrite(p, 1, (size_t)(nl - p + 1), f);
		indent(f, depth);
	}
	free(text);
}

void js_open(FILE *f, JsLevel *l, char bracket)
{
	fputc(bracket, f);
	l->close = bracket == '{' ? '}' : ']';
	l->n = 0;
}

void js_next(FILE *f, JsLevel *l, int depth, const char *key)
{
	fputs(l->n++ ? ",\n" : "\n", f);
	indent(f, depth + 1);
	if (key) {
		js_value(f, 0, json_string(key));
		fputs(": ", f);
	}
}

void js_close(FILE *f, JsLevel *l, int depth)
{
	if (l->n) {
		fputc('\n', f);
		indent(f, depth);
	}
	fputc(l->close, f);
}
