/* A temporary file beside the file it will replace: a fresh name made by
 * mkstemp (O_CREAT|O_EXCL, so nothing planted under a guessed name, a
 * symlink above all, is ever written through), with a plain file's mode
 * rather than mkstemp's 0600, as a stream. */
#define _XOPEN_SOURCE 700   /* mkstemp, fchmod */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bankc.h"

FILE *tmp_beside(const char *path, char *tmp, size_t n)
{
	if ((size_t)snprintf(tmp, n, "%s.tmp.XXXXXX", path) >= n)
		return NULL;
	int fd = mkstemp(tmp);
	if (fd < 0)
		return NULL;
	mode_t mask = umask(0);
	umask(mask);
	FILE *f = fchmod(fd, 0666 & ~mask) == 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		close(fd);
		unlink(tmp);
	}
	return f;
}
