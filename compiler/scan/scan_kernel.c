/* A kernel in its source: where its definition is, and its parameters'
 * names, so that bankc scan places a message about a kernel at the
 * kernel (not in the PTX nvcc wrote to a temporary folder) and takes
 * --param by the names the source gives them. */
#include <stdlib.h>
#include <string.h>

#include "scan/scan.h"
#include "scan/scan_ctext.h"

bool scan_kernel_source(const PtxModule *m, int kernel, const ScanCtx *c, ScanKernelSrc *out)
{
	memset(out, 0, sizeof *out);
	const PtxFunc *f = &m->func[kernel];
	char name[256];
	ptx_short_name(f->name, name, sizeof name);
	const char *cc = strrchr(name, ':');
	const char *plain = cc ? cc + 1 : name;
	/* the files of its own code (not what it inlined), the .cu first */
	enum { MAX_FILES = 8 };
	const char *files[MAX_FILES];
	int nf = 0;
	if (c->cu)
		files[nf++] = c->cu;
	for (int i = f->first; i < f->first + f->ninst && nf < MAX_FILES; i++) {
		const PtxInst *in = &m->inst[i];
		if (in->line <= 0 || in->inl >= 0)
			continue;
		const char *p = ptx_file_path(m, in->file);
		if (!p)
			continue;
		p = scan_display_path(p, c);
		bool seen = false;
		for (int j = 0; j < nf && !seen; j++)
			seen = strcmp(files[j], p) == 0;
		if (!seen)
			files[nf++] = p;
	}
	for (int j = 0; j < nf; j++) {
		char *params[PTX_MAX_PARAMS] = {0};
		if (cdecl_function(files[j], plain, f->nparams, &out->line, &out->col, params)) {
			snprintf(out->path, sizeof out->path, "%s", files[j]);
			for (int i = 0; i < f->nparams; i++)
				out->param[i] = params[i];
			out->nparams = f->nparams;
			return true;
		}
	}
	return false;
}

void scan_kernel_source_free(ScanKernelSrc *k)
{
	for (int i = 0; i < k->nparams; i++)
		free(k->param[i]);
	memset(k, 0, sizeof *k);
}
