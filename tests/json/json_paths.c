/* json_paths FILE...: every value of the JSON documents, one line each as
 * PATH TAB TYPE, sorted and without repeats, for comparing what bankc
 * emits with what docs/json.md says.  PATH joins object keys with '.' and
 * writes an array's elements as NAME[]; the root itself is left out.
 * TYPE is object, array, string, integer, real, boolean or null. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char **lines;
static size_t nlines, cap;

static void add(const char *path, const char *type)
{
	if (nlines == cap) {
		cap = cap ? 2 * cap : 256;
		lines = realloc(lines, cap * sizeof *lines);
		if (!lines)
			abort();
	}
	size_t n = strlen(path) + strlen(type) + 2;
	lines[nlines] = malloc(n);
	if (!lines[nlines])
		abort();
	snprintf(lines[nlines++], n, "%s\t%s", path, type);
}

static const char *type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "object";
	case JSON_ARRAY: return "array";
	case JSON_STRING: return "string";
	case JSON_INTEGER: return "integer";
	case JSON_REAL: return "real";
	case JSON_TRUE:
	case JSON_FALSE: return "boolean";
	case JSON_NULL: return "null";
	}
	return "?";
}

static void walk(const json_t *v, const char *path)
{
	if (*path)
		add(path, type_name(v));
	char sub[4096];
	if (json_is_object(v)) {
		const char *k;
		json_t *x;
		json_object_foreach((json_t *)v, k, x) {
			snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "." : "", k);
			walk(x, sub);
		}
	} else if (json_is_array(v)) {
		size_t i;
		json_t *x;
		snprintf(sub, sizeof sub, "%s[]", path);
		json_array_foreach(v, i, x)
			walk(x, sub);
	}
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs("usage: json_paths FILE...\n", stderr);
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		json_error_t e;
		json_t *root = json_load_file(argv[i], 0, &e);
		if (!root) {
			fprintf(stderr, "%s:%d:%d: %s\n", argv[i], e.line, e.column,
			        e.text);
			return 1;
		}
		walk(root, "");
		json_decref(root);
	}
	qsort(lines, nlines, sizeof *lines, cmp);
	for (size_t i = 0; i < nlines; i++)
		if (i == 0 || strcmp(lines[i], lines[i - 1]) != 0)
			puts(lines[i]);
	return 0;
}
