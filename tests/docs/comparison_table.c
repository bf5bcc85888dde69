/* docs/solver.md's comparison table from `bankc compare --json` on stdin: one
 * row per tile, the weighted wavefronts of each baseline ("illegal" where
 * it breaks the tile's rules, "-" where it has no rule for the tile), of
 * bankc's choice and of the alignment-aware bound, and the layout chosen.
 * tests/run_docs.sh holds docs/solver.md to it. */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

static const char *const cols[] = {"row-major", "pad by one", "CuTe", "Triton"};

int main(void)
{
	json_error_t err;
	json_t *root = json_loadf(stdin, 0, &err);
	json_t *tiles = root ? json_object_get(root, "tiles") : NULL;
	if (!json_is_array(tiles)) {
		fprintf(stderr, "comparison_table: no compare --json report on stdin "
		        "(%s)\n", root ? "no tiles" : err.text);
		return 1;
	}
	puts("| tile | row-major | pad by one | CuTe | Triton | bankc | bound | "
	     "bankc layout |");
	puts("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
	size_t i;
	json_t *t;
	json_array_foreach(tiles, i, t) {
		printf("| %s |", json_string_value(json_object_get(t, "name")));
		json_t *bs = json_object_get(t, "baselines");
		for (size_t c = 0; c < sizeof cols / sizeof *cols; c++) {
			const char *cell = "-";
			char num[32];
			size_t k;
			json_t *b;
			json_array_foreach(bs, k, b) {
				if (strcmp(json_string_value(json_object_get(b, "name")),
				           cols[c]) != 0)
					continue;
				if (!json_is_true(json_object_get(b, "legal"))) {
					cell = "illegal";
				} else {
					snprintf(num, sizeof num, "%lld", (long long)
					         json_integer_value(json_object_get(b,
					         "wavefronts")));
					cell = num;
				}
			}
			printf(" %s |", cell);
		}
		json_t *ch = json_object_get(t, "chosen");
		printf(" %lld | %lld | %s |\n",
		       (long long)json_integer_value(json_object_get(ch, "wavefronts")),
		       (long long)json_integer_value(json_object_get(t, "aligned_bound")),
		       json_string_value(json_object_get(ch, "describe")));
	}
	json_decref(root);
	return 0;
}
