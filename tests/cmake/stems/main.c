/* One header of each of the four spec files. */
#include <stdio.h>

#include "t_a.cuh"
#include "t_a_d.cuh"
#include "t_a_stamp.cuh"
#include "t_a_changed.cuh"

int main(void)
{
	printf("%d %d %d %d\n", T_A_ROWS, T_A_D_ROWS, T_A_STAMP_ROWS,
	       T_A_CHANGED_ROWS);
	return 0;
}
