/* The manifest of an output folder (manifest.c): for outputs.c alone. */
#ifndef BANKC_MANIFEST_H
#define BANKC_MANIFEST_H

#include "bankc.h"

typedef struct {
	char **spec, **file;
	int n, cap;
} Manifest;

void man_add(Manifest *m, const char *spec, const char *file);
void man_free(Manifest *m);
/* The lines of the manifest at path, if there is one, added to m, each
 * spec's key made absolute again from base, the real path of the
 * manifest's folder (NULL: as written). */
void man_read(const char *path, const char *base, Manifest *m);
/* The manifest's text (malloc'ed, its length in *len): sorted, each line
 * once, each absolute key relative to base (NULL: as it is). */
char *man_render(const Manifest *m, const char *base, size_t *len);
/* Would one of v (this build's outputs, into dir; specs are its specs)
 * replace another spec's output listed in old, or define a macro that
 * one of its headers defines?  Messages on stderr. */
bool man_owners_ok(const Manifest *old, char **specs, int nspecs,
                   const char *dir, const OutFile *v, int nv);

#endif
