/* bankc scan: the source lines shown under warnings, read only from files
 * the user pointed to and indexed once (scan_source.c), and names made
 * safe for a terminal and for JSON (scan_escape.c). */
#ifndef BANKC_SCAN_SOURCE_H
#define BANKC_SCAN_SOURCE_H

#include "bankc.h"

enum {
	SCAN_SOURCE_MAX_BYTES = 16 << 20,   /* of one source file read */
	SCAN_SOURCE_MAX_DIRS = 16,          /* --source-dir options */
};

/* Where source may be read from: the .cu given (or NULL) and the files
 * its compilation read (files[0..nfiles)), and every file under the
 * folder `folder` (the PTX's, or the .cu's; NULL: none) and under each
 * of dirs that no hidden file or folder (a name starting with '.') holds
 * below it.  Called once, before the first scan_source_line. */
void scan_source_allow(const char *cu, const char *const *files, int nfiles,
                       const char *folder, const char *const *dirs, int ndirs);
/* Line `line` (from 1) of the file at path, without its end of line:
 * false if the file is not one allowed, not a regular file, cannot be
 * read, or has no such line. */
bool scan_source_line(const char *path, int line, const char **s, size_t *n);
/* A whole allowed source file (malloc'ed, NUL-terminated, at most
 * SCAN_SOURCE_MAX_BYTES), or NULL: for reading its declarations. */
char *scan_source_text(const char *path);
/* The same of a text in memory (the PTX itself). */
bool scan_source_text_line(const Src *src, int line, const char **s, size_t *n);
/* Forget every file read. */
void scan_source_free(void);

/* s as text that a terminal shows as it is and that is valid UTF-8: a
 * byte that is a control character (below 0x20, 0x7f), part of a C1
 * control (U+0080..U+009F) or not part of valid UTF-8 becomes \xNN, two
 * lower-case hex digits; a backslash stays one.  Into buf of n bytes,
 * cut at a whole character; returns buf. */
char *scan_escape(const char *s, char *buf, size_t n);
/* Whether s needs no escape. */
bool scan_escape_clean(const char *s);
/* A source line p[0..n) under a diagnostic, indented by 4, and a caret
 * under byte `col` (from 1; 0: no caret): tabs kept, every other byte
 * scan_escape would escape written as \xNN, and a line longer than a
 * terminal's few hundred columns cut to a window around the caret, with
 * "..." where it is cut. */
void scan_show_source(FILE *f, const char *p, size_t n, int col);

#endif
