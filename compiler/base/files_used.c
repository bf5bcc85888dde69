/* The files a command read or wrote, by device and inode, so that the
 * --sarif log, written last, never replaces one of them (a spec, a PTX,
 * a source shown, a build's output or depfile, a spec scan emitted),
 * whatever name it is given. */
#include <stdlib.h>
#include <sys/stat.h>

#include "bankc.h"

static struct {
	dev_t dev;
	ino_t ino;
} *used;
static int nused, capused;

static void note(const struct stat *st)
{
	if (!S_ISREG(st->st_mode))
		return;
	for (int i = 0; i < nused; i++)
		if (used[i].dev == st->st_dev && used[i].ino == st->st_ino)
			return;
	if (nused == capused) {
		capused = capused ? 2 * capused : 16;
		used = xreallocarray(used, (size_t)capused, sizeof *used);
	}
	used[nused].dev = st->st_dev;
	used[nused++].ino = st->st_ino;
}

void files_used_fd(int fd)
{
	struct stat st;
	if (fstat(fd, &st) == 0)
		note(&st);
}

void files_used_path(const char *path)
{
	struct stat st;
	if (path && stat(path, &st) == 0)
		note(&st);
}

bool files_used_has(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return false;
	for (int i = 0; i < nused; i++)
		if (used[i].dev == st.st_dev && used[i].ino == st.st_ino)
			return true;
	return false;
}
