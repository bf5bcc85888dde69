/* --emit-spec DIR: a .tile spec per shared array a kernel touched, whose
 * accesses reproduce the addresses the scan observed, so that `bankc
 * compare` can propose a layout for the array and say what it saves.
 *
 * An array of E-byte elements (E from the narrowest access and the
 * offsets seen) is viewed as rows of 128 bytes, the bank period: element e
 * is row e / C, column e % C.  Each static shared instruction becomes one
 * access whose loop runs over its warp instructions: a plain expression
 * when the element index is affine in the lane and the instruction,
 * otherwise a table of element indices per lane (-1: inactive), each
 * distinct warp instruction once with its count as weight. */
#define _XOPEN_SOURCE 700   /* mkdir, rename */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "scan/scan.h"

enum { MAX_SPEC_INSTS = 32768 };    /* distinct warp instructions of one access */

/* The name a source gives an array: _ZZ4kernE4tile -> tile. */
static void array_name(const char *s, char *buf, size_t n)
{
	const char *p = strrchr(s, 'E');
	if (strncmp(s, "_ZZ", 3) == 0 && p && p[1] >= '1' && p[1] <= '9') {
		long len = strtol(p + 1, (char **)&p, 10);
		if (len > 0 && (size_t)len <= strlen(p)) {
			snprintf(buf, n, "%.*s", (int)len, p);
			return;
		}
	}
	snprintf(buf, n, "%s", s);
}

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

/* A tile's (and its file's) name: the identifier ident makes, and where
 * that changed a byte, 8 hex digits of a hash of the name as it was, so
 * that kernels a$b and a_b do not both write a_b_buf.tile. */
static void name_file(char *s, size_t n)
{
	uint32_t h = 2166136261u;       /* FNV-1a */
	for (const char *p = s; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	char *raw = xstrdup(s);
	ident(s);
	size_t len = strlen(s);
	if (strcmp(raw, s) != 0 && len + 10 <= n)
		snprintf(s + len, n - len, "_%08x", (unsigned)h);
	free(raw);
}

static const char *dtype_of(int e)
{
	return e == 1 ? "u8" : e == 2 ? "i16" : e == 4 ? "i32" : "i64";
}

/* One warp instruction: j-th kept of access a. */
typedef struct {
	const ScanAcc *a;
	int64_t j;
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
		snprintf(buf, n, "%s.x%d%s", a->op.kind == OP_LDMATRIX ? "ldmatrix"
		         : "stmatrix", a->op.nmat, a->op.trans ? ".trans" : "");
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

static void print_affine(FILE *f, int64_t b, int64_t cl, int64_t ci, bool loop)
{
	fprintf(f, "        let e = ");
	bool any = false;
	const char *var[2] = {"lane", "i"};
	int64_t co[2] = {cl, loop ? ci : 0};
	for (int t = 0; t < 2; t++) {
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

/* One access of the spec: the warp instructions refs[0..n), all of one
 * operation and width; false if it has too many distinct ones. */
static bool access(Emit *e, const Ref *refs, int64_t n, bool loop_load, const char *name,
                   const char *title)
{
	const ScanAcc *a = refs[0].a;
	char op[64];
	spec_op(a, loop_load, e->elem, op, sizeof op);
	int lanes = op_is_matrix(a->op) ? 8 * a->op.nmat : WARP;
	uint32_t want = lanes == WARP ? 0xffffffffu : (1u << lanes) - 1;
	/* affine: element = b + cl * lane + ci * i over full warps */
	bool affine = n <= MAX_SPEC_INSTS;
	int64_t b = 0, cl = 0, ci = 0;
	for (int64_t k = 0; k < n && affine; k++) {
		uint32_t msk = lanes_in(refs[k], e->lo, e->hi);
		if ((msk & want) != want) {
			affine = false;
			break;
		}
		int64_t e0 = elem_at(e, refs[k], msk, 0), e1 = elem_at(e, refs[k], msk, 1);
		if (k == 0) {
			b = e0;
			cl = e1 - e0;
		} else if (k == 1) {
			ci = e0 - b;
		}
		for (int l = 0; l < lanes && affine; l++)
			affine = elem_at(e, refs[k], msk, l) == b + cl * l + ci * k;
	}
	if (affine && (b < 0 || b > MAX_NUMBER || llabs(cl) > MAX_NUMBER ||
	               llabs(ci) > MAX_NUMBER))
		affine = false;
	if (affine) {
		fprintf(e->f, "\n    # %s\n    access %s: %s {\n", title, name, op);
		if (n > 1)
			fprintf(e->f, "        for i in 0..%lld;\n", (long long)n);
		print_affine(e->f, b, cl, ci, n > 1);
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
		count[slot[at]]++;
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
	if (weighted && n <= MAX_SPEC_INSTS) {
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

/* The warp instructions of access a in the array. */
static int64_t refs_of(const Emit *e, const ScanAcc *a, Ref *out)
{
	int64_t n = 0;
	for (int64_t j = 0; j < a->nkept; j++)
		if (lanes_in((Ref){a, j}, e->lo, e->hi))
			out[n++] = (Ref){a, j};
	return n;
}

/* Every access of the array: one per shared instruction, or, past a
 * tile's MAX_ACCESSES, one per operation and width holding all of theirs. */
static int accesses(Emit *e, const PtxModule *m, const ScanKernel *k, const ScanCtx *c)
{
	int64_t total = 0;
	int nacc = 0;
	for (int s = 0; s < m->nslots; s++) {
		int64_t n = 0;
		for (int64_t j = 0; j < k->acc[s].nkept && !n; j++)
			n += lanes_in((Ref){&k->acc[s], j}, e->lo, e->hi) != 0;
		nacc += n > 0 ? 1 + k->acc[s].loop : 0;     /* a loop's load: one more */
		total += k->acc[s].nkept;
	}
	Ref *refs = xmalloc((size_t)(total + 1) * sizeof *refs);
	bool *done = xcalloc((size_t)m->nslots + 1, sizeof *done);
	int written = 0;
	for (int s = 0; s < m->nslots; s++) {
		if (done[s])
			continue;
		const ScanAcc *a = &k->acc[s];
		int64_t n = refs_of(e, a, refs);
		if (!n)
			continue;
		char where[512], name[64], title[1024], opa[64];
		const PtxInst *in = &m->inst[a->inst];
		scan_where(m, in, c, where, sizeof where);
		spec_op(a, false, e->elem, opa, sizeof opa);
		const char *atom = a->loop ? " (one trip of the compare-and-swap loop "
		                   "that ptxas makes of it)" : "";
		if (nacc <= MAX_ACCESSES) {
			snprintf(name, sizeof name, "%s_p%d", op_is_load(a->op) ? "ld" :
			         a->op.kind == OP_CPASYNC ? "cp" :
			         a->op.kind == OP_ATOM ? "at" : "st", in->pos.line);
			snprintf(title, sizeof title, "%s (PTX line %d): %.*s, %lld warp "
			         "instruction%s%s", where, in->pos.line, in->ntext, in->text,
			         (long long)n, n == 1 ? "" : "s", atom);
		} else {
			/* every instruction of this operation and width, from here on */
			int ninst = 1;
			for (int t = s + 1; t < m->nslots; t++) {
				char opb[64];
				if (done[t] || !k->acc[t].nkept)
					continue;
				spec_op(&k->acc[t], false, e->elem, opb, sizeof opb);
				if (strcmp(opa, opb) != 0 || k->acc[t].op.kind != a->op.kind ||
				    k->acc[t].loop != a->loop)
					continue;
				int64_t add = refs_of(e, &k->acc[t], refs + n);
				if (add) {
					n += add;
					ninst++;
					done[t] = true;
				}
			}
			snprintf(name, sizeof name, "%s_from_p%d", op_is_load(a->op) ? "ld" :
			         a->op.kind == OP_CPASYNC ? "cp" :
			         a->op.kind == OP_ATOM ? "at" : "st", in->pos.line);
			snprintf(title, sizeof title, "%s and %d more: %d shared instructions "
			         "(%s), %lld warp instructions, as one access (a tile holds %d)%s",
			         where, ninst - 1, ninst, opa, (long long)n, MAX_ACCESSES, atom);
		}
		done[s] = true;
		written += access(e, refs, n, false, name, title);
		if (a->loop) {
			/* the loop's load: the same addresses */
			char lt[1100];
			snprintf(lt, sizeof lt, "the load of that loop's trip: %s", where);
			name[0] = 'l';
			name[1] = 'd';
			written += access(e, refs, n, true, name, lt);
		}
	}
	free(refs);
	free(done);
	return written;
}

/* One array's spec into path (through a temporary and a rename). */
static bool emit_array(const PtxModule *m, const ScanKernel *k, int sym, const char *path,
                       const char *tname, const ScanCtx *c, FILE *note, FILE *err)
{
	const PtxSym *y = &m->sym[sym];
	/* the accesses that touch it, their narrowest width and the extent */
	int64_t lo = y->addr, hi = y->size >= 0 ? y->addr + y->size : PTX_SHARED_LIMIT;
	int elem = 8;
	int64_t top = lo;
	for (int s = 0; s < m->nslots; s++) {
		const ScanAcc *a = &k->acc[s];
		for (int64_t j = 0; j < a->nkept; j++) {
			uint32_t msk = lanes_in((Ref){a, j}, lo, hi);
			if (!msk)
				continue;
			int w = a->bytes < 8 ? a->bytes : a->bytes == 8 ? 8 : 4;
			if (w < elem)
				elem = w;
			for (int l = 0; l < WARP; l++)
				if (msk >> l & 1) {
					int64_t o = a->addrs[j * WARP + l] - lo;
					while (o % elem)
						elem /= 2;
					if (a->addrs[j * WARP + l] + a->bytes > top)
						top = a->addrs[j * WARP + l] + a->bytes;
				}
		}
	}
	if (top == lo)
		return true;    /* not touched */
	int64_t bytes = y->size >= 0 ? y->size : top - lo;
	int cols = 128 / elem;
	int64_t elems = (bytes + elem - 1) / elem;
	int64_t rows = (elems + cols - 1) / cols;
	if (rows > MAX_DIM) {
		fprintf(err, "bankc: note: %s not written: %lld rows of 128 bytes is beyond "
		        "a tile's %d\n", path, (long long)rows, MAX_DIM);
		return true;
	}
	/* a temporary of a fresh name: nothing planted in the folder (a
	 * symlink above all) is written through */
	char tmp[4200];
	FILE *f = tmp_beside(path, tmp, sizeof tmp);
	if (!f) {
		fprintf(err, "bankc: error: cannot write '%s': %s\n", path, strerror(errno));
		return false;
	}
	const PtxFunc *fn = &m->func[k->kernel];
	char sn[256], an[256];
	ptx_short_name(fn->name, sn, sizeof sn);
	array_name(y->name, an, sizeof an);
	/* names as esc_text writes them: none can end the comment's line */
	char *from = esc_text_dup(c->cu ? c->cu : c->input);
	char *ksn = esc_text_dup(sn), *kan = esc_text_dup(an);
	fprintf(f, "# Written by bankc scan --emit-spec from %s: kernel %s, block "
	        "%d,%d,%d,\n# shared array '%s' (%lld bytes).  Its %lld elements of "
	        "%d bytes are viewed as\n# rows of 128 bytes: element e is row e / %d, "
	        "column e %% %d.\n", from, ksn, k->block[0], k->block[1],
	        k->block[2], kan, (long long)bytes, (long long)elems, elem, cols, cols);
	free(from), free(ksn), free(kan);
	fprintf(f, "tile %s {\n    shape %lld x %d;\n    dtype %s;\n    arch sm_90;\n"
	        "    threads %d;\n", tname, (long long)rows, cols, dtype_of(elem),
	        k->block[0] * k->block[1] * k->block[2] < 32 ? 32
	        : (k->block[0] * k->block[1] * k->block[2] + 31) / 32 * 32);
	Emit e = {f, elem, cols, lo, lo, hi};
	int nacc = accesses(&e, m, k, c);
	fprintf(f, "}\n");
	bool ok = !ferror(f);
	ok &= fclose(f) == 0;
	if (!ok || rename(tmp, path) != 0) {
		fprintf(err, "bankc: error: cannot write '%s': %s\n", path, strerror(errno));
		remove(tmp);
		return false;
	}
	fprintf(note, "%s: note: wrote %d access%s of shared array '%s'; 'bankc compare %s' "
	        "proposes a layout\n", path, nacc, nacc == 1 ? "" : "es", an, path);
	return true;
}

bool scan_emit_specs(const PtxModule *m, const ScanKernel *k, const char *dir,
                     const ScanCtx *c, FILE *note, FILE *err)
{
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		fprintf(err, "bankc: error: cannot make folder '%s': %s\n", dir, strerror(errno));
		return false;
	}
	const PtxFunc *fn = &m->func[k->kernel];
	char sn[256], other[256];
	ptx_short_name(fn->name, sn, sizeof sn);
	/* kernels of one plain name (a template's instances, overloads) are
	 * told apart by their PTX names, lest one's specs overwrite another's */
	for (int i = 0; i < m->nfunc; i++) {
		if (i == k->kernel || !m->func[i].entry || !m->func[i].defined)
			continue;
		ptx_short_name(m->func[i].name, other, sizeof other);
		if (strcmp(other, sn) == 0) {
			snprintf(sn, sizeof sn, "%s", fn->name);
			break;
		}
	}
	bool ok = true;
	for (int i = 0; i < m->nsym; i++) {
		const PtxSym *y = &m->sym[i];
		if (y->kind != SYM_SHARED || (y->func >= 0 && y->func != k->kernel))
			continue;
		/* extern arrays all alias one base: the first stands for all */
		bool dup = false;
		for (int j = 0; j < i && y->size < 0; j++)
			dup |= m->sym[j].kind == SYM_SHARED && m->sym[j].size < 0;
		if (dup)
			continue;
		char an[256], tname[600], path[4096];
		array_name(y->name, an, sizeof an);
		snprintf(tname, sizeof tname, "%s_%s", sn, an);
		name_file(tname, sizeof tname);
		snprintf(path, sizeof path, "%s/%s.tile", dir, tname);
		ok &= emit_array(m, k, i, path, tname, c, note, err);
	}
	return ok;
}
