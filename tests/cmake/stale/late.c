/* late_app: the same, from a source added after bankc_add_tiles. */
#include <stdio.h>

#include "demo.cuh"

int other(void);

int main(void)
{
	printf("DEMO_ROWS = %d\n", (int)DEMO_ROWS + other());
	return 0;
}
