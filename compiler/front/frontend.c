/* Reading a spec file and running the front end over it. */
#include <string.h>

#include "bankc.h"
#include "front/front.h"

enum { MAX_SPEC_BYTES = 16 << 20 };

bool frontend_file(const char *path, Pool *p, FILE *diag, Src *src, Unit *u)
{
	memset(src, 0, sizeof *src);
	if (!read_file(path, NULL, MAX_SPEC_BYTES, diag, src))
		return false;
	return frontend_run(p, diag, src, u);
}

bool frontend_run(Pool *p, FILE *diag, const Src *src, Unit *u)
{
	/* errors are recovered from inside; a jump here is the last one
	 * (-fmax-errors) or one the limits checks give for the whole file */
	Diag d = {.src = src, .out = diag};
	if (setjmp(d.jb))
		return false;
	parse_unit(p, &d, u);
	check_unit(p, &d, u);
	return d.errors == 0;
}

bool frontend_files(char **paths, int n, Pool *p, FILE *diag, Src *src,
                    Unit *u)
{
	bool ok = true;
	for (int i = 0; i < n; i++)     /* every file, so every error shows */
		ok &= frontend_file(paths[i], p, diag, &src[i], &u[i]);
	return ok;
}
