/* bankc scan FILE.cu: nvcc run so that nothing of the user's reaches the
 * shell nvcc runs its stages through, and so that a signal leaves neither
 * its temporary folder nor an nvcc behind (scan_nvcc.c). */
#ifndef BANKC_SCAN_NVCC_H
#define BANKC_SCAN_NVCC_H

#include <stdbool.h>

#include "ptx/ptx.h"

typedef struct {
	char dir[4096];         /* bankc's private folder ("" before it is made) */
	char ptx[4200];         /* dir/scan.ptx: nvcc's output */
	char cu[4200];          /* dir/in.cu, a link to the source, or "" when the
	                         * source's own name is passed */
	char inc[4200];         /* dir/src, a link to the source's folder */
	char deps[4200];        /* dir/scan.d: the files nvcc read */
	const char *file;       /* the source as the user gave it */
} ScanNvcc;

/* A flag after -- that nvcc's shell would read as code or as two words:
 * false, with a message on stderr. */
bool scan_nvcc_flag_ok(const char *flag);
/* nvcc -ptx -lineinfo [-arch=sm_90] FLAGS -o r->ptx FILE in a folder of
 * bankc's own; false (message on stderr) if it cannot run or fails. */
bool scan_nvcc_run(const char *file, char **flags, int nflags, ScanNvcc *r);
/* The .file names nvcc wrote through bankc's links, as the user's. */
void scan_nvcc_map_files(const ScanNvcc *r, PtxModule *m);
/* The files the compilation read, as the user names them (malloc'ed,
 * each and the array); how many.  Before scan_nvcc_cleanup. */
int scan_nvcc_deps(const ScanNvcc *r, char ***paths);
/* Remove the folder and all in it; a termination signal that came while
 * it existed then ends bankc as that signal would have. */
void scan_nvcc_cleanup(ScanNvcc *r);

#endif
