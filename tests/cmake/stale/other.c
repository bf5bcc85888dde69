/* A source that includes no header of bankc's: a layout change must not
 * recompile it. */
int other(void)
{
	return 0;
}
