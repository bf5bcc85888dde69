/* Uses the layout bankc chose for tile 'demo' (demo.tile) from plain C:
 * prints where a few elements live and how big the tile is, and checks
 * that the layout gives every element its own place inside the tile. */
#include <stdio.h>
#include <stdlib.h>

#include "demo.cuh"

int main(void)
{
	const int rows = (int)DEMO_ROWS, cols = (int)DEMO_COLS;
	const int at[][2] = {
		{0, 0}, {0, 1}, {1, 0}, {1, 1}, {3, 5}, {rows - 1, cols - 1},
	};
	printf("DEMO_ROWS = %lld, DEMO_COLS = %lld, DEMO_PITCH = %lld\n",
	       (long long)DEMO_ROWS, (long long)DEMO_COLS, (long long)DEMO_PITCH);
	for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
		int r = at[i][0], c = at[i][1];
		printf("DEMO_IDX(%d, %d) = %lld\n", r, c, (long long)DEMO_IDX(r, c));
	}
	printf("DEMO_BYTES = %lld\n", (long long)DEMO_BYTES);

	/* Every (r, c) must have an index of its own below DEMO_ELEMS. */
	long long elems = (long long)DEMO_ELEMS;
	unsigned char *used = calloc((size_t)elems, 1);
	if (!used) {
		fputs("demo: out of memory\n", stderr);
		return 1;
	}
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++) {
			long long k = (long long)DEMO_IDX(r, c);
			if (k < 0 || k >= elems || used[k]) {
				fprintf(stderr, "demo: DEMO_IDX(%d, %d) = %lld is %s\n", r, c,
				        k, k < 0 || k >= elems ? "outside the tile"
				                               : "taken twice");
				free(used);
				return 1;
			}
			used[k] = 1;
		}
	free(used);
	return 0;
}
