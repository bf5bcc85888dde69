/* iface_app: prints the demo tile's shape from its header, which comes
 * from an INTERFACE library. */
#include <stdio.h>

#include "demo.cuh"

int other(void);

int main(void)
{
	printf("DEMO_ROWS = %d\n", (int)DEMO_ROWS + other());
	return 0;
}
