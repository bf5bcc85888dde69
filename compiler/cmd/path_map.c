/* --path-prefix-map OLD=NEW: the spec paths that bankc build records in
 * its outputs (a header's opening comment, NAME.json's "spec"), rewritten
 * as gcc's -ffile-prefix-map rewrites __FILE__, so that a build in another
 * checkout or build folder writes the same bytes.  Diagnostics keep the
 * path as given, so that editors still find the file. */
#include <stdlib.h>
#include <string.h>

#include "bankc.h"
#include "cmd/cmd.h"

bool path_map_add(PathMap *m, const char *arg)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		return false;
	m->old = xrealloc(m->old, (size_t)(m->n + 1) * sizeof *m->old);
	m->new_ = xrealloc(m->new_, (size_t)(m->n + 1) * sizeof *m->new_);
	size_t k = (size_t)(eq - arg);
	m->old[m->n] = memcpy(xmalloc(k + 1), arg, k);
	m->old[m->n][k] = 0;
	m->new_[m->n] = xstrdup(eq + 1);
	m->n++;
	return true;
}

/* As gcc does: the last option whose OLD begins the path wins. */
char *path_map_apply(const PathMap *m, const char *path)
{
	for (int i = m->n - 1; i >= 0; i--) {
		size_t k = strlen(m->old[i]);
		if (strncmp(path, m->old[i], k) == 0) {
			size_t n = strlen(m->new_[i]) + strlen(path + k) + 1;
			char *s = xmalloc(n);
			snprintf(s, n, "%s%s", m->new_[i], path + k);
			return s;
		}
	}
	return xstrdup(path);
}

void path_map_free(PathMap *m)
{
	for (int i = 0; i < m->n; i++)
		free(m->old[i]), free(m->new_[i]);
	free(m->old);
	free(m->new_);
	*m = (PathMap){0};
}
