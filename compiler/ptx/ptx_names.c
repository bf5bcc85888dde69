/* The PTX reader's name tables: open addressing over the names as they
 * appear in the source (no copies), for registers, labels, parameters,
 * variables and functions.  A name a closed { } block took back stays as
 * an entry of kind 0, which finding skips (ptx_scope.c). */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_reader.h"

static uint32_t hash_str(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

HEnt *names_find(Hash *h, const char *s, size_t n)
{
	HEnt *e = names_entry(h, s, n);
	return e && e->kind ? e : NULL;
}

HEnt *names_entry(Hash *h, const char *s, size_t n)
{
	if (!h->cap)
		return NULL;
	for (size_t i = hash_str(s, n) & (h->cap - 1);; i = (i + 1) & (h->cap - 1)) {
		HEnt *e = &h->e[i];
		if (!e->k)
			return NULL;
		if (e->n == n && memcmp(e->k, s, n) == 0)
			return e;
	}
}

void names_put(Hash *h, const char *s, size_t n, int kind, int v)
{
	if ((h->len + 1) * 2 > h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 64;
		HEnt *e = xcalloc(cap, sizeof *e);
		for (size_t i = 0; i < h->cap; i++) {
			if (!h->e[i].k)
				continue;
			size_t j = hash_str(h->e[i].k, h->e[i].n) & (cap - 1);
			while (e[j].k)
				j = (j + 1) & (cap - 1);
			e[j] = h->e[i];
		}
		free(h->e);
		h->e = e;
		h->cap = cap;
	}
	size_t i = hash_str(s, n) & (h->cap - 1);
	while (h->e[i].k && !(h->e[i].n == n && memcmp(h->e[i].k, s, n) == 0))
		i = (i + 1) & (h->cap - 1);
	if (!h->e[i].k)
		h->len++;
	h->e[i] = (HEnt){s, (uint32_t)n, kind, v, 0};
}

void names_clear(Hash *h)
{
	free(h->e);
	memset(h, 0, sizeof *h);
}
