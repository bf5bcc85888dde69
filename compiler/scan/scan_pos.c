/* Where scan places what it says of an instruction: the source position
 * of its .loc (a CUDA toolkit header's code at the user's call that
 * inlined it), the path as the user would write it. */
#define _XOPEN_SOURCE 700  /* realpath */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scan/scan.h"

/* A source path as the user would write it: the .cu they gave, or
 * relative to the working folder. */
const char *scan_display_path(const char *path, const ScanCtx *c)
{
	if (c->cu) {
		char *a = realpath(path, NULL), *b = realpath(c->cu, NULL);
		bool same = a && b && strcmp(a, b) == 0;
		free(a);
		free(b);
		if (same)
			return c->cu;
	}
	static char cwd[4096];
	if (!cwd[0] && !getcwd(cwd, sizeof cwd - 1))
		cwd[0] = 0;
	size_t n = strlen(cwd);
	if (n && strncmp(path, cwd, n) == 0 && path[n] == '/')
		return path + n + 1;
	return path;
}

/* A header of the CUDA toolkit (atomicAdd and kin, inlined). */
static bool toolkit_path(const char *p)
{
	return p && strstr(p, "/cuda") && strstr(p, "/include/");
}

/* The source position to report: .loc's, or, while that names a toolkit
 * header, the call it was inlined from; *file: its file id, *rest: the
 * calls that position was itself inlined from (PtxModule.inl, -1: none). */
const char *scan_source_at(const PtxModule *m, const PtxInst *in, int *file,
                             int *line, int *col, int *rest)
{
	const char *path = in->line > 0 ? ptx_file_path(m, in->file) : NULL;
	*file = in->file;
	*line = in->line;
	*col = in->col;
	int inl = path ? in->inl : -1;
	while (toolkit_path(path) && inl >= 0 && m->inl[inl].line > 0 &&
	       ptx_file_path(m, m->inl[inl].file)) {
		const PtxInline *e = &m->inl[inl];
		path = ptx_file_path(m, e->file);
		*file = e->file;
		*line = e->line;
		*col = e->col;
		inl = e->parent;
	}
	*rest = inl;
	return path;
}

const char *scan_source_of(const PtxModule *m, const PtxInst *in, int *line,
                             int *col)
{
	int file, rest;
	return scan_source_at(m, in, &file, line, col, &rest);
}

const char *scan_source_pos(const PtxModule *m, const PtxInst *in, const ScanCtx *c,
                            int *line)
{
	int col;
	const char *p = scan_source_of(m, in, line, &col);
	return p ? scan_display_path(p, c) : NULL;
}

