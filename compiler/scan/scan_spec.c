/* --emit-spec DIR: a .tile spec per shared array a kernel touched, whose
 * accesses reproduce the addresses the scan observed, so that `bankc
 * compare` can propose a layout for the array and say what it saves; the
 * fix notes (scan_fix.c) solve the same spec.
 *
 * An array of E-byte elements (E from the narrowest access and the
 * offsets seen, the type from the instructions: f32 for ld.shared.f32)
 * is viewed as its declaration's rows when the source declares it
 * (scan_array.c), else as rows of 128 bytes, the bank period: element e
 * is row e / C, column e % C.  Each source statement (its shared
 * instructions of one operation and width: the PTX lines of an unrolled
 * loop together) becomes one access whose loops run over its warp
 * instructions: a plain expression when the element index is affine in
 * the lane, the instruction and the PTX line, otherwise a table of
 * element indices per lane (-1: inactive), each distinct warp
 * instruction once with its count as weight.  The scan keeps each
 * distinct warp instruction once with how often it ran (ScanAcc.kcount);
 * an access of at most MAX_SPEC_INSTS warp instructions is written from
 * them as they ran, one by one. */
#define _XOPEN_SOURCE 700   /* mkdir, rename */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "scan/scan.h"

enum { MAX_SPEC_INSTS = 32768 };    /* distinct warp instructions of one access */

/* Letters, digits and '_' only, not starting with a digit. */
static void ident(char *s)
{
	for (char *p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_'))
			*p = '_';
	if (s[0] >= '0' && s[0] <= '9')
		s[0] = '_';
}

/* Warp instructions: the j-th kept of access a, w of them. */
typedef struct {
	const ScanAcc *a;
	int64_t j;
	int64_t w;
} Ref;

/* The lanes of a warp instruction that fall in [lo, hi). */
static uint32_t lanes_in(Ref r, int64_t lo, int64_t hi)
{
	uint32_t m = 0;
	for (int l = 0; l < WARP; l++)
		if ((r.a->masks[r.j] >> l & 1) && r.a->addrs[r.j * WARP + l] >= lo &&
		    r.a->addrs[r.j * WARP + l] < hi)
			m |= 1u << l;
	return m;
}

typedef struct {
	FILE *f;
	int elem, cols;
	int64_t base, lo, hi;
} Emit;

/* The spec's operation for access a; loop_load: the load of one trip of
 * the compare-and-swap loop that ptxas makes of a (ScanAcc.loop). */
static void spec_op(const ScanAcc *a, bool loop_load, int elem, char *buf, size_t n)
{
	int vec = a->bytes / elem;
	char v[16] = "", name[32];
	/* cp.async's default is 16 bytes: a narrower copy says its width */
	if (!op_is_matrix(a->op) && (vec > 1 || a->op.kind == OP_CPASYNC))
		snprintf(v, sizeof v, " vec %d", vec);
	switch (loop_load ? OP_LOAD : a->op.kind) {
	case OP_LDMATRIX: case OP_STMATRIX:
		tab_op_name(a->op, buf, n);
		break;
	case OP_CPASYNC: snprintf(buf, n, "cp.async%s", v); break;
	case OP_LOAD: snprintf(buf, n, "load%s", v); break;
	case OP_ATOM: {
		/* a loop's trip is an atom.cas, whether the source said atom or red */
		Op op = a->op;
		if (a->loop)
			op.red = false;
		tab_op_name(op, name, sizeof name);
		snprintf(buf, n, "%s%s", name, v);
		break;
	}
	default:
		snprintf(buf, n, "store%s", v);
		break;
	}
}

/* The element index of lane l of a warp instruction, or -1. */
static int64_t elem_at(const Emit *e, Ref r, uint32_t m, int l)
{
	if (!(m >> l & 1))
		return -1;
	return (r.a->addrs[r.j * WARP + l] - e->base) / e->elem;
}

static bool same_inst(const Emit *e, Ref x, Ref y)
{
	uint32_t mx = lanes_in(x, e->lo, e->hi), my = lanes_in(y, e->lo, e->hi);
	if (mx != my)
		return false;
	for (int l = 0; l < WARP; l++)
		if (elem_at(e, x, mx, l) != elem_at(e, y, my, l))
			return false;
	return true;
}

/* let e = b + cl * lane + ci * i + cj * j; */
static void print_affine(FILE *f, int64_t b, const int64_t co[3])
{
	fprintf(f, "        let e = ");
	bool any = false;
	const char *var[3] = {"lane", "i", "j"};
	for (int t = 0; t < 3; t++) {
		if (!co[t])
			continue;
		fprintf(f, "%s", any ? (co[t] < 0 ? " - " : " + ") : co[t] < 0 ? "-" : "");
		if (llabs(co[t]) != 1)
			fprintf(f, "%lld * ", (long long)llabs(co[t]));
		fprintf(f, "%s", var[t]);
		any = true;
	}
	if (b || !any)
		fprintf(f, "%s%lld", any ? " + " : "", (long long)b);
	fprintf(f, ";\n");
}

/* Is the element of every lane of refs[0..n) (nj runs of n / nj, one
 * per PTX line of the statement) b + cl * lane + ci * i + cj * j over full
 * warps?  co: cl, ci, cj. */
static bool affine_in(const Emit *e, const Ref *refs, int64_t n, int64_t nj, int lanes,
                      int64_t *b, int64_t co[3])
{
	uint32_t want = lanes == WARP ? 0xffffffffu : (1u << lanes) - 1;
	if (n > MAX_SPEC_INSTS || n % nj)
		return false;
	int64_t ni = n / nj;
	co[0] = co[1] = co[2] = 0;
	for (int64_t k = 0; k < n; k++) {
		uint32_t msk = lanes_in(refs[k], e->lo, e->hi);
		if ((msk & want) != want)
			return false;
		int64_t j = k / ni, i = k % ni, e0 = elem_at(e, refs[k], msk, 0);
		if (k == 0) {
			*b = e0;
			co[0] = elem_at(e, refs[k], msk, 1) - e0;
		} else if (k == 1 && ni > 1) {
			co[1] = e0 - *b;
		} else if (i == 0 && j == 1) {
			co[2] = e0 - *b;
		}
		for (int l = 0; l < lanes; l++)
			if (elem_at(e, refs[k], msk, l) != *b + co[0] * l + co[1] * i + co[2] * j)
				return false;
	}
	return *b >= 0 && *b <= MAX_NUMBER && llabs(co[0]) <= MAX_NUMBER &&
	       llabs(co[1]) <= MAX_NUMBER && llabs(co[2]) <= MAX_NUMBER;
}

/* One access of the spec: the warp instructions refs[0..n), all of one
 * operation and width, one by one (each of weight 1: nj PTX lines of n / nj
 * each) where `one` is set, otherwise each distinct one with its count;
 * false if it has too many distinct ones. */
static bool access(Emit *e, const Ref *refs, int64_t n, int64_t nj, bool one, bool loop_load,
                   const char *name, const char *title)
{
	const ScanAcc *a = refs[0].a;
	char op[64];
	spec_op(a, loop_load, e->elem, op, sizeof op);
	int lanes = op_lanes(a->op);
	uint32_t want = lanes == WARP ? 0xffffffffu : (1u << lanes) - 1;
	int64_t b = 0, co[3];
	bool affine = one && affine_in(e, refs, n, nj, lanes, &b, co);
	if (one && !affine && nj > 1 && affine_in(e, refs, n, 1, lanes, &b, co))
		affine = true, nj = 1;
	if (affine) {
		int64_t ni = n / nj;
		fprintf(e->f, "\n    # %s\n    access %s: %s {\n", title, name, op);
		if (nj > 1 && ni > 1)
			fprintf(e->f, "        for j in 0..%lld, i in 0..%lld;\n", (long long)nj,
			        (long long)ni);
		else if (nj > 1)
			fprintf(e->f, "        for j in 0..%lld;\n", (long long)nj);
		else if (ni > 1)
			fprintf(e->f, "        for i in 0..%lld;\n", (long long)ni);
		if (ni == 1)
			co[1] = 0;
		if (nj == 1)
			co[2] = 0;
		print_affine(e->f, b, co);
		fprintf(e->f, "        row = e / %d;\n        col = e %% %d;\n    }\n",
		        e->cols, e->cols);
		return true;
	}
	/* distinct warp instructions, each with its count */
	int64_t *first = xmalloc((size_t)n * sizeof *first), *count = xcalloc((size_t)n, sizeof *count);
	/* equal warp instructions found through a hash of their lanes */
	size_t cap = 64;
	while (cap < (size_t)n * 2)
		cap *= 2;
	int64_t *slot = xmalloc(cap * sizeof *slot);
	for (size_t h = 0; h < cap; h++)
		slot[h] = -1;
	int64_t nd = 0;
	for (int64_t k = 0; k < n; k++) {
		uint32_t msk = lanes_in(refs[k], e->lo, e->hi);
		uint64_t h = 1469598103934665603ull ^ msk;
		for (int l = 0; l < WARP; l++)
			h = (h ^ (uint64_t)elem_at(e, refs[k], msk, l)) * 1099511628211ull;
		size_t at = (size_t)h & (cap - 1);
		while (slot[at] >= 0 && !same_inst(e, refs[first[slot[at]]], refs[k]))
			at = (at + 1) & (cap - 1);
		if (slot[at] < 0) {
			slot[at] = nd;
			first[nd++] = k;
		}
		count[slot[at]] += refs[k].w;
	}
	free(slot);
	if (nd > MAX_SPEC_INSTS) {
		fprintf(e->f, "\n    # %s\n    # not written: %lld distinct warp "
		        "instructions, beyond the %d of one access\n", title, (long long)nd,
		        MAX_SPEC_INSTS);
		free(first);
		free(count);
		return false;
	}
	bool weighted = false;
	for (int64_t d = 0; d < nd; d++)
		weighted |= count[d] != count[0];
	if (weighted && one && n <= MAX_SPEC_INSTS) {
		/* unequal counts: every warp instruction in order, as it ran */
		nd = n;
		for (int64_t d = 0; d < n; d++)
			first[d] = d, count[d] = 1;
		weighted = false;
	}
	bool partial = false;
	for (int64_t d = 0; d < nd; d++)
		partial |= (lanes_in(refs[first[d]], e->lo, e->hi) & want) != want;
	fprintf(e->f, "\n    # %s\n    access %s: %s", title, name, op);
	if (!weighted && count[0] > 1)
		fprintf(e->f, " weight %lld", (long long)count[0]);
	fprintf(e->f, " {\n");
	if (nd > 1)
		fprintf(e->f, "        for i in 0..%lld;\n", (long long)nd);
	fprintf(e->f, "        table a = {");
	for (int64_t d = 0; d < nd; d++) {
		Ref r = refs[first[d]];
		uint32_t msk = lanes_in(r, e->lo, e->hi);
		int l0 = __builtin_ctz(msk);
		for (int l = 0; l < WARP; l++) {
			int64_t v = elem_at(e, r, msk, l);
			/* lanes a matrix op does not read: any element */
			if (v < 0 && l >= lanes)
				v = elem_at(e, r, msk, l0);
			fprintf(e->f, "%s%s%lld", d || l ? "," : "", (d * WARP + l) % 16 ? " " :
			        "\n            ", (long long)v);
		}
	}
	fprintf(e->f, "};\n");
	if (weighted) {
		fprintf(e->f, "        table w = {");
		for (int64_t d = 0; d < nd; d++)
			fprintf(e->f, "%s%s%lld", d ? "," : "", d % 16 ? " " : "\n            ",
			        (long long)count[d]);
		fprintf(e->f, "};\n        weight = w[i];\n");
	}
	const char *ix = nd > 1 ? "32 * i + lane" : "lane";
	if (partial)
		fprintf(e->f, "        active = a[%s] >= 0;\n", ix);
	fprintf(e->f, "        let e = a[%s];\n        row = e / %d;\n        col = e %% %d;\n"
	        "    }\n", ix, e->cols, e->cols);
	free(first);
	free(count);
	return true;
}

/* The warp instructions of access a in the array: each kept one with its
 * count, or (one) as often as it ran, one by one; out NULL: only how many
 * refs; *w: how many warp instructions. */
static int64_t refs_of(const Emit *e, const ScanAcc *a, Ref *out, bool one, int64_t *w)
{
	int64_t n = 0;
	*w = 0;
	for (int64_t j = 0; j < a->nkept; j++) {
		if (!lanes_in((Ref){a, j, 1}, e->lo, e->hi))
			continue;
		*w += a->kcount[j];
		for (int64_t c = 0; c < (one ? a->kcount[j] : 1); c++, n++)
			if (out)
				out[n] = (Ref){a, j, one ? 1 : a->kcount[j]};
	}
	return n;
}

/* The name of an access: its operation and the PTX line it starts at. */
static void access_name(const PtxModule *m, const ScanAcc *a, const char *from,
                        char *buf, size_t n)
{
	snprintf(buf, n, "%s_%sp%d", op_is_load(a->op) ? "ld" : a->op.kind == OP_CPASYNC ? "cp" :
	         a->op.kind == OP_ATOM ? "at" : "st", from, m->inst[a->inst].pos.line);
}

/* Every access of the array: one per source statement, or, past a tile's
 * MAX_ACCESSES, one per operation and width holding all of theirs. */
static int accesses(Emit *e, const PtxModule *m, const ScanKernel *k, const ScanArray *ar)
{
	int nacc = 0;
	for (int t = 0; t < ar->nstmt; t++)
		nacc += 1 + k->acc[ar->slot[ar->stmt[t].first]].loop;  /* a loop's load: one more */
	bool *done = xcalloc((size_t)ar->nstmt + 1, sizeof *done);
	/* the slots of one access of the spec */
	int *slots = xmalloc(((size_t)ar->nslot + 1) * sizeof *slots);
	int written = 0;
	for (int t = 0; t < ar->nstmt; t++) {
		if (done[t])
			continue;
		const ScanStmt *st = &ar->stmt[t];
		const ScanAcc *a = &k->acc[ar->slot[st->first]];
		int ns = 0;
		for (int q = 0; q < st->n; q++)
			slots[ns++] = ar->slot[st->first + q];
		int64_t nj = st->n;
		char name[64], title[1400], opa[64], lines[256] = "";
		spec_op(a, false, e->elem, opa, sizeof opa);
		const PtxInst *in = &m->inst[a->inst];
		size_t o = 0;
		for (int q = 0; q < st->n && o < sizeof lines - 16; q++)
			o += (size_t)snprintf(lines + o, sizeof lines - o, "%s%d", q ? ", " : "",
			                      m->inst[k->acc[ar->slot[st->first + q]].inst].pos.line);
		const char *atom = a->loop ? " (one trip of the compare-and-swap loop "
		                   "that ptxas makes of it)" : "";
		/* how many warp instructions: written one by one where few */
		int64_t n = 0, per = -1, w;
		for (int q = 0; q < ns; q++) {
			refs_of(e, &k->acc[slots[q]], NULL, false, &w);
			if (per >= 0 && w != per)
				nj = 1;     /* lines of unequal counts: not a loop over them */
			per = w;
			n += w;
		}
		if (!n)
			continue;
		int nst = 1;
		if (nacc > MAX_ACCESSES) {
			/* every statement of this operation and width, from here on */
			nj = 1;
			for (int u = t + 1; u < ar->nstmt; u++) {
				const ScanAcc *b = &k->acc[ar->slot[ar->stmt[u].first]];
				char opb[64];
				spec_op(b, false, e->elem, opb, sizeof opb);
				if (done[u] || strcmp(opa, opb) != 0 || b->op.kind != a->op.kind ||
				    b->loop != a->loop)
					continue;
				for (int q = 0; q < ar->stmt[u].n; q++) {
					slots[ns++] = ar->slot[ar->stmt[u].first + q];
					refs_of(e, &k->acc[slots[ns - 1]], NULL, false, &w);
					n += w;
				}
				nst++;
				done[u] = true;
			}
		}
		done[t] = true;
		bool one = n <= MAX_SPEC_INSTS;
		int64_t nr = 0;
		for (int q = 0; q < ns; q++)
			nr += refs_of(e, &k->acc[slots[q]], NULL, one, &w);
		Ref *refs = xmalloc(((size_t)nr + 1) * sizeof *refs);
		nr = 0;
		for (int q = 0; q < ns; q++)
			nr += refs_of(e, &k->acc[slots[q]], refs + nr, one, &w);
		if (nst == 1) {
			access_name(m, a, "", name, sizeof name);
			snprintf(title, sizeof title, "%s (PTX line%s %s): %.*s, %lld warp "
			         "instruction%s%s", st->where, st->n > 1 ? "s" : "", lines, in->ntext,
			         in->text, (long long)n, n == 1 ? "" : "s", atom);
		} else {
			access_name(m, a, "from_", name, sizeof name);
			snprintf(title, sizeof title, "%s and %d more: %d source statements (%s), %lld "
			         "warp instructions, as one access (a tile holds %d)%s", st->where,
			         nst - 1, nst, opa, (long long)n, MAX_ACCESSES, atom);
		}
		written += access(e, refs, nr, nj, one, false, name, title);
		if (a->loop) {
			/* the loop's load: the same addresses */
			char lt[1600];
			snprintf(lt, sizeof lt, "the load of that loop's trip: %s", st->where);
			name[0] = 'l';
			name[1] = 'd';
			written += access(e, refs, nr, nj, one, true, name, lt);
		}
		free(refs);
	}
	free(slots);
	free(done);
	return written;
}

int scan_spec_write(FILE *f, const PtxModule *m, const ScanKernel *k, const ScanArray *a,
                    const char *tname, const ScanCtx *c)
{
	int64_t elems = (a->bytes + a->elem - 1) / a->elem;
	/* names as esc_text writes them: none can end the comment's line */
	char *from = esc_text_dup(c->cu ? c->cu : c->input);
	char *ksn = esc_text_dup(a->kernel), *kan = esc_text_dup(a->name);
	fprintf(f, "# Written by bankc scan --emit-spec from %s: kernel %s, block %d,%d,%d,\n"
	        "# shared array '%s' (%lld byte%s).  ", from, ksn,
	        k->block[0], k->block[1], k->block[2], kan, (long long)a->bytes,
	        text_plural(a->bytes));
	free(from), free(ksn), free(kan);
	if (a->view_decl)
		fprintf(f, "Its %lld element%s of %d byte%s %s its declaration's\n# rows "
		        "(line %d: %d x %d): element e is row e / %d, column e %% %d.\n",
		        (long long)elems, text_plural(elems), a->elem, text_plural(a->elem),
		        elems == 1 ? "is" : "are", a->decl.line, a->rows, a->cols, a->cols,
		        a->cols);
	else
		fprintf(f, "Its %lld element%s of %d byte%s %s viewed as\n# rows of 128 bytes: "
		        "element e is row e / %d, column e %% %d.\n", (long long)elems,
		        text_plural(elems), a->elem, text_plural(a->elem),
		        elems == 1 ? "is" : "are", a->cols, a->cols);
	int threads = k->block[0] * k->block[1] * k->block[2];
	/* sm_90, whose bank rules were measured; a Blackwell PTX's own
	 * target, whose instructions (the 8-bit matrix forms) sm_90 lacks */
	const char *arch = m->arch >= 0 && tab_arch[m->arch].cc >= 100
	                   ? tab_arch[m->arch].name : "sm_90";
	fprintf(f, "tile %s {\n    shape %d x %d;\n    dtype %s;\n    arch %s;\n"
	        "    threads %d;\n", tname, a->rows, a->cols, tab_dtype[a->dtype].name,
	        arch, threads < 32 ? 32 : (threads + 31) / 32 * 32);
	Emit e = {f, a->elem, a->cols, a->base, a->base, a->base + a->bytes};
	int nacc = accesses(&e, m, k, a);
	fprintf(f, "}\n");
	return nacc;
}

/* One array's spec into path (through a temporary and a rename). */
static bool emit_array(const PtxModule *m, const ScanKernel *k, const ScanArray *a,
                       const char *path, const char *tname, const ScanCtx *c, FILE *note,
                       FILE *err)
{
	if (a->rows > MAX_DIM) {
		fprintf(err, "bankc: note: %s not written: %d rows is beyond a tile's %d\n", esc_shown(path),
		        a->rows, MAX_DIM);
		return true;
	}
	/* a temporary of a fresh name: nothing planted in the folder (a
	 * symlink above all) is written through */
	char tmp[4200];
	FILE *f = tmp_beside(path, tmp, sizeof tmp);
	if (!f) {
		fprintf(err, "bankc: error: cannot write '%s': %s\n", esc_shown(path), strerror(errno));
		return false;
	}
	int nacc = scan_spec_write(f, m, k, a, tname, c);
	bool ok = !ferror(f);
	ok &= fclose(f) == 0;
	if (!ok || rename(tmp, path) != 0) {
		fprintf(err, "bankc: error: cannot write '%s': %s\n", esc_shown(path), strerror(errno));
		remove(tmp);
		return false;
	}
	files_used_path(path);
	char *shown = esc_term_dup(path);
	fprintf(note, "%s: note: wrote %d access%s of shared array '%s'; 'bankc compare %s' "
	        "proposes a layout\n", shown, nacc, nacc == 1 ? "" : "es", a->name, shown);
	free(shown);
	return true;
}

/* A kernel's name as an identifier a reader knows it by: the instance's
 * template arguments too (tp_dyn<32> is tp_dyn_32), each run of other
 * characters one '_', none at either end, not starting with a digit: no
 * reserved identifier (a leading '_', a "__"). */
static void readable(const char *mangled, char *buf, size_t n)
{
	char kn[1024];
	ptx_kernel_name(mangled, kn, sizeof kn);
	size_t o = 0;
	bool gap = false;
	for (const char *p = kn; *p && o + 2 < n; p++) {
		bool ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9');
		if (!ok) {
			gap = o > 0;
			continue;
		}
		if (gap)
			buf[o++] = '_';
		gap = false;
		buf[o++] = *p;
	}
	buf[o] = 0;
	if (!o || (buf[0] >= '0' && buf[0] <= '9')) {
		memmove(buf + 2, buf, o + 1 < n - 2 ? o + 1 : n - 3);
		buf[0] = 'k', buf[1] = '_';
		buf[n - 1] = 0;
	}
}

static void join_name(const PtxModule *m, int kernel, int sym, char *buf, size_t n)
{
	char kn[512], an[256];
	readable(m->func[kernel].name, kn, sizeof kn);
	scan_array_name(m->sym[sym].name, an, sizeof an);
	snprintf(buf, n, "%s_%s", kn, an);
	ident(buf);
	/* no "__" and no '_' at either end (reserved in C and C++) */
	size_t o = 0;
	for (size_t i = 0; buf[i]; i++)
		if (buf[i] != '_' || (o && buf[o - 1] != '_'))
			buf[o++] = buf[i];
	while (o && buf[o - 1] == '_')
		o--;
	buf[o] = 0;
}

void scan_spec_tile_name(const PtxModule *m, const ScanKernel *k, const ScanArray *a,
                         char *buf, size_t n)
{
	join_name(m, k->kernel, a->sym, buf, n);
	/* another kernel's array (conv_in + tile, conv + in_tile) of the same
	 * name: both get a hash of their PTX names, so neither overwrites
	 * the other's spec */
	char other[600];
	bool clash = false;
	for (int f = 0; f < m->nfunc && !clash; f++) {
		if (!m->func[f].entry || !m->func[f].defined)
			continue;
		for (int y = 0; y < m->nsym && !clash; y++) {
			if (m->sym[y].kind != SYM_SHARED || (m->sym[y].func >= 0 && m->sym[y].func != f) ||
			    (f == k->kernel && y == a->sym))
				continue;
			join_name(m, f, y, other, sizeof other);
			clash = strcmp(other, buf) == 0;
		}
	}
	if (clash) {
		uint32_t h = 2166136261u;       /* FNV-1a */
		for (const char *p = m->func[k->kernel].name; *p; p++)
			h = (h ^ (unsigned char)*p) * 16777619u;
		h = (h ^ 0) * 16777619u;
		for (const char *p = m->sym[a->sym].name; *p; p++)
			h = (h ^ (unsigned char)*p) * 16777619u;
		size_t len = strlen(buf);
		if (len + 10 <= n)
			snprintf(buf + len, n - len, "_%08x", (unsigned)h);
	}
}

bool scan_emit_specs(const PtxModule *m, const ScanKernel *k, const char *dir,
                     const ScanCtx *c, FILE *note, FILE *err)
{
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		fprintf(err, "bankc: error: cannot make folder '%s': %s\n", esc_shown(dir), strerror(errno));
		return false;
	}
	ScanArrays own, *as = c->arrays;
	if (!as) {
		scan_arrays_find(m, k, c, &own);
		as = &own;
	}
	bool ok = true;
	for (int i = 0; i < as->n; i++) {
		char tname[600], path[4096];
		scan_spec_tile_name(m, k, &as->a[i], tname, sizeof tname);
		snprintf(path, sizeof path, "%s/%s.tile", dir, tname);
		ok &= emit_array(m, k, &as->a[i], path, tname, c, note, err);
	}
	if (as == &own)
		scan_arrays_free(&own);
	return ok;
}
