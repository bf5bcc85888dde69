/* A layout said in the source's terms: where it puts element (r, c) of a
 * declared array, as C the user pastes into a subscript.
 *
 * The form is read off the layout itself, not off its kind: every
 * element's place (layout_offset, in the spec's units, k of them to a
 * declared element) is taken, each row's permutation of its columns
 * found, and recognised as chunks of G elements moved by XOR with a
 * GF(2)-affine function of the row (what swizzles and XOR maps are) or
 * rotated by a multiple of the row (a skew).  Elements stay whole, and a
 * layout that moves an element to another row, or splits one, has no
 * such form.  The text is written in chunks of the array's widest access
 * where that is narrower than G, `(c / V ^ F) * V + c % V`, since ptxas
 * merges the unrolled accesses of such an index into the vectors it made
 * before (an XOR on the element index it cannot see through); and it is
 * then evaluated, for every element, with the same evaluator that reads
 * the source (ctext_eval), and must agree with the layout, or no form is
 * said. */
#include <stdlib.h>
#include <string.h>

#include "scan/scan.h"
#include "scan/scan_ctext.h"
#include "model/model.h"

/* An expression as an operand: parenthesized unless a name or a number. */
void scan_say_operand(const char *e, char *buf, size_t n)
{
	bool simple = *e != 0;
	for (const char *p = e; *p; p++)
		simple &= (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		          (*p >= '0' && *p <= '9') || *p == '_';
	snprintf(buf, n, simple ? "%s" : "(%s)", e);
}

static int lg(int64_t v)
{
	int k = 0;
	while (((int64_t)1 << k) < v)
		k++;
	return k;
}

/* The declared element (r, c) of the view: where it lives, in declared
 * elements; -1 if the layout splits it. */
static int64_t place(const Layout *l, const Tile *t, int k, int r, int c)
{
	int64_t u = layout_offset(l, t, r, c * k);
	for (int j = 1; j < k; j++)
		if (layout_offset(l, t, r, c * k + j) != u + j)
			return -1;
	return u % k ? -1 : u / k;
}

bool scan_say_map(const Layout *l, const Tile *t, int k, int vec, ScanSayMap *m)
{
	memset(m, 0, sizeof *m);
	if (k < 1 || t->cols % k || l->pitch % k || t->stages > 1 ||
	    (l->kind == L_SWIZZLE && l->boxes != 1))
		return false;
	m->swap = l->swap;
	/* the stored view, in declared elements */
	int R = t->rows, C = t->cols / k;
	if (m->swap && k != 1)
		return false;
	m->rows = m->swap ? C : R;
	m->cols = m->swap ? R : C;
	m->pitch = l->pitch / k;
	int SR = m->rows, SC = m->cols;
	if (m->pitch < SC || (int64_t)SR * SC > (1 << 22))
		return false;
	int *col = xmalloc((size_t)SR * SC * sizeof *col);
	bool ok = true;
	for (int r = 0; r < R && ok; r++)
		for (int c = 0; c < C && ok; c++) {
			int64_t p = place(l, t, k, r, c);
			int sr = m->swap ? c : r, sc = m->swap ? r : c;
			ok = p >= 0 && p / m->pitch == sr && p % m->pitch < SC;
			if (ok)
				col[sr * SC + sc] = (int)(p % m->pitch);
		}
	if (!ok) {
		free(col);
		return false;
	}
	/* the widest chunks every row moves whole (a power of two) */
	int G = SC & -SC;
	while (G > 1) {
		bool whole = SC % G == 0;
		for (int i = 0; i < SR * SC && whole; i++)
			whole = col[i] % G == i % SC % G;
		if (whole)
			break;
		G /= 2;
	}
	if (G < 1 || SC % G) {
		free(col);
		return false;
	}
	m->G = G;
	int nq = SC / G;
	m->nq = nq;
	/* the same in every row: no rewrite */
	bool same = true;
	for (int i = 0; i < SR * SC && same; i++)
		same = col[i] == i % SC;
	if (same) {
		m->kind = SAY_SAME;
		free(col);
		/* a padding's rows: vectors of `vec` stay whole if the rows do */
		m->V = 1;
		while (m->V * 2 <= vec && SC % (m->V * 2) == 0 && m->pitch % (m->V * 2) == 0)
			m->V *= 2;
		return true;
	}
	/* chunk q of row r goes to q ^ f(r), f affine in r's bits */
	bool is_xor = (nq & (nq - 1)) == 0;
	for (int r = 0; r < SR && is_xor; r++) {
		int f = col[r * SC] / G;
		for (int q = 0; q < nq && is_xor; q++)
			is_xor = col[r * SC + q * G] / G == (q ^ f);
	}
	if (is_xor) {
		m->f0 = (uint32_t)(col[0] / G);
		for (int b = 0; (1 << b) < SR && b < 32; b++)
			m->fm[m->nbits++] = (uint32_t)(col[(1 << b) * SC] / G) ^ m->f0;
		for (int r = 0; r < SR && is_xor; r++) {
			uint32_t f = m->f0;
			for (int b = 0; b < m->nbits; b++)
				if (r >> b & 1)
					f ^= m->fm[b];
			is_xor = (uint32_t)(col[r * SC] / G) == f;
		}
	}
	if (is_xor) {
		m->kind = SAY_XOR;
	} else {
		/* chunk q of row r goes to (q + s r) mod nq */
		int s = nq > 1 ? col[SC] / G : 0;
		bool rot = col[0] == 0;
		for (int r = 0; r < SR && rot; r++)
			for (int q = 0; q < nq && rot; q++)
				rot = col[r * SC + q * G] / G == (int)((q + (int64_t)s * r) % nq);
		if (!rot) {
			free(col);
			return false;
		}
		m->kind = SAY_ROT;
		m->s = s;
	}
	free(col);
	/* vectors of `vec` declared elements: chunks that wide in the text */
	m->V = 1;
	while (m->V * 2 <= vec && m->V * 2 <= G && m->kind == SAY_XOR && m->pitch % (m->V * 2) == 0)
		m->V *= 2;
	if (m->kind == SAY_ROT)
		m->V = G;
	return true;
}

/* The XOR map of row r (an operand) as text, in chunks of m->V. */
static void xor_text(FILE *f, const ScanSayMap *m, const char *r)
{
	int up = lg(m->G / m->V);
	uint32_t c0 = m->f0 << up;
	bool any = false;
	/* consecutive row bits to consecutive chunk bits: one shift and mask */
	int a = 0;
	while (a < m->nbits && !m->fm[a])
		a++;
	int nb = 0;
	while (a + nb < m->nbits && m->fm[a + nb] && (m->fm[a + nb] & (m->fm[a + nb] - 1)) == 0 &&
	       (nb == 0 || m->fm[a + nb] == m->fm[a] << nb))
		nb++;
	bool shift = a < m->nbits;
	for (int b = a + nb; b < m->nbits && shift; b++)
		shift = !m->fm[b];
	if (shift) {
		int to = lg(m->fm[a]) + up;
		fputs(to ? "((" : "(", f);
		if (a)
			fprintf(f, "(%s >> %d)", r, a);
		else
			fputs(r, f);
		fprintf(f, " & %d)", (1 << nb) - 1);
		if (to)
			fprintf(f, " << %d)", to);
		any = true;
	} else {
		for (int b = 0; b < m->nbits; b++)
			if (m->fm[b]) {
				fprintf(f, "%s((%s >> %d) & 1) * %u", any ? " ^ " : "", r, b, m->fm[b] << up);
				any = true;
			}
	}
	if (c0) {
		fprintf(f, "%s%u", any ? " ^ " : "", c0);
		any = true;
	}
	if (!any)
		fputs("0", f);
}

void scan_say_col(const ScanSayMap *m, const char *r0, const char *c0, char *buf, size_t n)
{
	char *r = xmalloc(strlen(r0) + 3), *c = xmalloc(strlen(c0) + 3);
	scan_say_operand(r0, r, strlen(r0) + 3);
	scan_say_operand(c0, c, strlen(c0) + 3);
	char *text = NULL;
	size_t len = 0;
	FILE *f = xmemstream(&text, &len);
	switch (m->kind) {
	case SAY_SAME:
		fputs(c0, f);
		break;
	case SAY_XOR:
		if (m->V == 1) {
			fprintf(f, "%s ^ ", c);
			xor_text(f, m, r);
		} else {
			fprintf(f, "(%s / %d ^ ", c, m->V);
			xor_text(f, m, r);
			fprintf(f, ") * %d + %s %% %d", m->V, c, m->V);
		}
		break;
	case SAY_ROT:
		if (m->G == 1)
			fprintf(f, "(%s + %d * %s) %% %d", c, m->s, r, m->nq);
		else
			fprintf(f, "((%s / %d + %d * %s) %% %d) * %d + %s %% %d", c, m->G, m->s, r,
			        m->nq, m->G, c, m->G);
		break;
	}
	fclose(f);
	snprintf(buf, n, "%s", text);
	free(text);
	free(r);
	free(c);
}

bool scan_say_check(const ScanSayMap *m, const Layout *l, const Tile *t, int k)
{
	char text[2048];
	scan_say_col(m, "r", "c", text, sizeof text);
	CBind b = {.name = {"r", "c"}, .n = 2};
	CChoice ch = {0};
	int R = t->rows, C = t->cols / k;
	for (int r = 0; r < R; r++)
		for (int c = 0; c < C; c++) {
			int sr = m->swap ? c : r, sc = m->swap ? r : c;
			b.value[0] = sr;
			b.value[1] = sc;
			int64_t got;
			if (!ctext_eval(NULL, text, strlen(text), &b, &ch, &got) ||
			    (int64_t)sr * m->pitch + got != place(l, t, k, r, c))
				return false;
		}
	return true;
}

/* The map in chunks of m->V elements: a vector's elements as one. */
static ScanSayMap chunked(const ScanSayMap *m)
{
	ScanSayMap c = *m;
	c.cols /= m->V;
	c.pitch /= m->V;
	c.G = m->kind == SAY_SAME ? 1 : m->G / m->V;
	c.V = 1;
	return c;
}

void scan_say_flat(const ScanSayMap *m, const char *i0, char *buf, size_t n)
{
	size_t k = strlen(i0) + 32;
	char *I = xmalloc(k), *r = xmalloc(k + 16), *c = xmalloc(k + 16), *col = xmalloc(4 * k + 1024);
	scan_say_operand(i0, I, k);
	if (m->V > 1) {
		/* the vector's index I / V, its element I % V: ptxas sees the
		 * elements of one vector at one chunk, and keeps the vector */
		ScanSayMap cm = chunked(m);
		char *J = xmalloc(k + 16), *inner = xmalloc(8 * k + 2048);
		snprintf(J, k + 16, "%s / %d", I, m->V);
		scan_say_flat(&cm, J, inner, 8 * k + 2048);
		text_put(buf, n, "(%s) * %d + %s %% %d", inner, m->V, I, m->V);
		free(J), free(inner);
	} else {
		snprintf(r, k + 16, "%s / %d", I, m->cols);
		snprintf(c, k + 16, "%s %% %d", I, m->cols);
		scan_say_col(m, r, c, col, 4 * k + 1024);
		text_put(buf, n, "%s / %d * %d + (%s)", I, m->cols, m->pitch, col);
	}
	free(I), free(r), free(c), free(col);
}

bool scan_say_check_flat(const ScanSayMap *m, const Layout *l, const Tile *t, int64_t elems,
                         int64_t limit)
{
	char text[4096];
	scan_say_flat(m, "i", text, sizeof text);
	CBind b = {.name = {"i"}, .n = 1};
	CChoice ch = {0};
	for (int64_t i = 0; i < elems; i++) {
		b.value[0] = i;
		int64_t got;
		if (!ctext_eval(NULL, text, strlen(text), &b, &ch, &got) ||
		    got != place(l, t, 1, (int)(i / m->cols), (int)(i % m->cols)) || got >= limit)
			return false;
	}
	return true;
}

void scan_say_layout(const Layout *l, const Tile *t, char *buf, size_t n)
{
	char d[200];
	layout_describe(l, t, d, sizeof d);
	if (strncmp(d, "swap + ", 7) != 0) {
		snprintf(buf, n, "%s", d);
		return;
	}
	/* "swap" is the search's word: to a user it is the tile transposed */
	if (strcmp(d + 7, "row-major") == 0)
		snprintf(buf, n, "the tile stored transposed (index [c][r])");
	else
		snprintf(buf, n, "the tile stored transposed (index [c][r]), %s", d + 7);
}
