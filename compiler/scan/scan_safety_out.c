/* The correctness findings (scan_safety.c) said: as errors where certain,
 * warnings where on a path that depends on data or not sure, each with
 * its flag, accepted as scan's warnings are (-Wno-NAME, `bankc: allow
 * NAME`, --baseline); and as the JSON of a kernel's "findings". */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "scan/scan.h"

static const struct {
	const char *key;        /* JSON's kind, SARIF's rule */
	DiagFlag flag;
} kinds[] = {
	[SF_RACE] = {"shared-race", DW_SHARED_RACE},
	[SF_BOUNDS] = {"shared-bounds", DW_SHARED_BOUNDS},
	[SF_ALIGN] = {"shared-align", DW_SHARED_ALIGN},
	[SF_BARRIER] = {"barrier-divergence", DW_BARRIER},
};

static void op_text(const PtxInst *in, char *buf, size_t n)
{
	const PtxOpInfo *o = &in->op;
	int bytes = o->ty.bytes * o->vec;
	switch (o->kind) {
	case PO_LD: snprintf(buf, n, "%d-byte load", bytes); break;
	case PO_ST: snprintf(buf, n, "%d-byte store", bytes); break;
	case PO_ATOM: case PO_RED: snprintf(buf, n, "%d-byte atomic", bytes); break;
	case PO_LDMATRIX: snprintf(buf, n, "ldmatrix row (16 bytes)"); break;
	case PO_STMATRIX: snprintf(buf, n, "stmatrix row (16 bytes)"); break;
	case PO_CPASYNC:
		snprintf(buf, n, "%d-byte cp.async", in->nopd >= 3 ? (int)in->opd[2].imm : 0);
		break;
	default: snprintf(buf, n, "'%.*s'", in->ntext, in->text); break;
	}
}

static void array_text(const PtxModule *m, int sym, char *buf, size_t n)
{
	if (sym < 0) {
		snprintf(buf, n, "shared memory");
		return;
	}
	char nm[128];
	scan_array_name(m->sym[sym].name, nm, sizeof nm);
	snprintf(buf, n, "'%s'", nm);
}

static void thread_text(const ScanCtx *c, int tid, char *buf, size_t n)
{
	const int *b = c->ro->block;
	snprintf(buf, n, "thread %d (threadIdx %d,%d,%d; warp %d, lane %d)", tid, tid % b[0],
	         tid / b[0] % b[1], tid / (b[0] * b[1]), tid / WARP, tid % WARP);
}

static bool accepted(const PtxModule *m, const ScanFinding *f, const ScanCtx *c)
{
	DiagFlag fl = kinds[f->kind].flag;
	if (scan_accepted(m, &m->inst[f->inst], c, fl) != ACCEPT_NONE)
		return true;
	/* a race or a barrier names two places: accepted at either */
	return f->inst2 >= 0 && scan_accepted(m, &m->inst[f->inst2], c, fl) != ACCEPT_NONE;
}

static char *message(const PtxModule *m, const ScanSafety *s, const ScanFinding *f,
                     const ScanCtx *c, const char *kernel)
{
	char op[96], arr[160], th[128], th2[128], other[512];
	op_text(&m->inst[f->inst], op, sizeof op);
	array_text(m, f->sym, arr, sizeof arr);
	if (f->tid >= 0)
		thread_text(c, f->tid, th, sizeof th);
	if (f->tid2 >= 0)
		thread_text(c, f->tid2, th2, sizeof th2);
	if (f->inst2 >= 0)
		scan_where(m, &m->inst[f->inst2], c, other, sizeof other);
	const char *maybe = f->maybe ? " (on a path that depends on data: if it runs)" : "";
	switch (f->kind) {
	case SF_BOUNDS: {
		if (f->size < 0)
			return diag_format("%s (%s) outside every shared array of the launch: byte "
			                   "%lld, by %s%s", op, kernel, (long long)f->addr, th, maybe);
		char dyn[96] = "";
		if (m->sym[f->sym].size < 0)
			snprintf(dyn, sizeof dyn, ", extern: --dynamic-shared %lld",
			         (long long)scan_safety_dynamic(s));
		char into[192] = "";
		if (f->sym2 >= 0) {
			char a2[160];
			array_text(m, f->sym2, a2, sizeof a2);
			snprintf(into, sizeof into, ", into %s", a2);
		}
		bool before = f->offset < 0;
		return diag_format("%s (%s) %s %s (%lld bytes%s): bytes %lld to %lld of it%s, by "
		                   "%s%s", op, kernel, before ? "before the start of" : "past the end of",
		                   arr, (long long)f->size, dyn, (long long)f->offset,
		                   (long long)(f->offset + f->width - 1), into, th, maybe);
	}
	case SF_ALIGN:
		return diag_format("%s (%s) of %s at a misaligned address: byte %lld (offset %lld "
		                   "in %s) is not a multiple of %d, by %s; the GPU faults "
		                   "(misaligned address)%s", op, kernel, arr, (long long)f->addr,
		                   (long long)f->offset, f->sym >= 0 ? "the array" : "shared memory",
		                   f->width, th, maybe);
	case SF_RACE: {
		char op2[96];
		op_text(&m->inst[f->inst2], op2, sizeof op2);
		return diag_format("data race on %s (%s), byte %lld of it: this %s by %s and the "
		                   "%s at %s by %s, in one barrier interval with nothing ordering "
		                   "them%s", arr, kernel, (long long)f->offset, op, th, op2,
		                   other, th2, maybe);
	}
	case SF_BARRIER:
		if (!f->hang)
			return diag_format("__syncthreads() (%s) met at two places by the threads of "
			                   "one block: %s waits here at its block barrier %d and %s at "
			                   "%s at its block barrier %d, and they complete one barrier "
			                   "together; every thread of a block must reach a block "
			                   "barrier at the same place, as often%s", kernel, th,
			                   f->waiting, th2, other, f->ended,
			                   f->certain ? "" : " (some paths bankc could not follow)");
		char cnt[64];
		if (f->bar_count > 0)
			snprintf(cnt, sizeof cnt, "%d threads", f->bar_count);
		else
			snprintf(cnt, sizeof cnt, "every thread");
		char also[1024] = "";
		if (f->inst2 >= 0)
			snprintf(also, sizeof also, ", others at %s (%s)", other, th2);
		return diag_format("the block hangs at this barrier (%s): barrier %d, of %s, "
		                   "cannot complete: %d thread%s wait%s, the first %s%s; %d ended%s",
		                   kernel, f->bar_id, cnt, f->waiting, f->waiting == 1 ? "" : "s",
		                   f->waiting == 1 ? "s" : "", th, also, f->ended,
		                   f->certain ? "" : " (some paths bankc could not follow)");
	}
	return diag_format("?");
}

int scan_safety_print(FILE *err, const PtxModule *m, const ScanSafety *s,
                      const ScanCtx *c, const char *kernel)
{
	int n, errors = 0;
	const ScanFinding *f = scan_safety_findings(s, &n);
	for (int i = 0; i < n; i++) {
		if (accepted(m, &f[i], c))
			continue;
		DiagKind k = f[i].certain ? DK_ERROR : DK_WARNING;
		char *msg = message(m, s, &f[i], c, kernel);
		scan_diag_at(err, m, &m->inst[f[i].inst], c, k, kinds[f[i].kind].key,
		             kinds[f[i].kind].flag, msg);
		free(msg);
		errors += k == DK_ERROR;
		if (f[i].inst2 >= 0 && f[i].kind != SF_BOUNDS && f[i].kind != SF_ALIGN) {
			char *note = diag_format(f[i].kind == SF_RACE ? "the other access is here" :
			                         "the other barrier is here");
			scan_diag_at(err, m, &m->inst[f[i].inst2], c, DK_NOTE, kinds[f[i].kind].key,
			             -1, note);
			free(note);
		}
		if (f[i].kind == SF_RACE && f[i].certain) {
			/* what orders them, said, not written into the source: where
			 * the barrier can go is the user's to decide */
			bool warp = f[i].tid / WARP == f[i].tid2 / WARP;
			char *note = diag_format("%s: a %s between the two accesses orders them, "
			        "placed where every thread %s reaches it", warp ?
			        "two lanes of one warp" : "two threads of different warps",
			        warp ? "__syncwarp()" : "__syncthreads()",
			        warp ? "of the warp" : "of the block");
			scan_diag_at(err, m, &m->inst[f[i].inst], c, DK_NOTE, kinds[f[i].kind].key, -1,
			             note);
			free(note);
		}
	}
	if (scan_safety_dropped(s))
		fprintf(err, "bankc: note: kernel %s: %lld more conflicts at places past the %d "
		        "findings shown\n", kernel, (long long)scan_safety_dropped(s), SCAN_SAFETY_MAX);
	return errors;
}

static json_t *where_json(const PtxModule *m, int inst, const ScanCtx *c)
{
	char w[512];
	scan_where(m, &m->inst[inst], c, w, sizeof w);
	return json_pack("{s:s,s:i}", "where", w, "ptx_line", m->inst[inst].pos.line);
}

json_t *scan_safety_json(const PtxModule *m, const ScanSafety *s, const ScanCtx *c)
{
	json_t *arr = json_array();
	int n;
	const ScanFinding *f = scan_safety_findings(s, &n);
	for (int i = 0; i < n; i++) {
		const ScanFinding *x = &f[i];
		char an[128] = "";
		if (x->sym >= 0)
			scan_array_name(m->sym[x->sym].name, an, sizeof an);
		json_t *o = json_pack("{s:s,s:s,s:b,s:I,s:o,s:i}", "kind", kinds[x->kind].key,
		                      "level", x->certain ? "error" : "warning",
		                      "accepted", accepted(m, x, c), "count", (json_int_t)x->count,
		                      "at", where_json(m, x->inst, c), "thread", x->tid);
		json_object_set_new(o, "array", x->sym >= 0 ? json_string(an) : json_null());
		if (x->kind != SF_BARRIER) {
			json_object_set_new(o, "byte", json_integer(x->addr));
			json_object_set_new(o, "offset", json_integer(x->offset));
			json_object_set_new(o, "bytes", json_integer(x->width));
		}
		if (x->inst2 >= 0)
			json_object_set_new(o, "other", where_json(m, x->inst2, c));
		if (x->tid2 >= 0)
			json_object_set_new(o, "other_thread", json_integer(x->tid2));
		switch (x->kind) {
		case SF_BOUNDS:
			json_object_set_new(o, "array_bytes", x->size >= 0 ? json_integer(x->size)
			                                                   : json_null());
			if (x->sym2 >= 0) {
				scan_array_name(m->sym[x->sym2].name, an, sizeof an);
				json_object_set_new(o, "into", json_string(an));
			}
			break;
		case SF_RACE:
			json_object_set_new(o, "writes", json_pack("[b,b]", x->write, x->write2));
			break;
		case SF_BARRIER:
			json_object_set_new(o, "hang", json_boolean(x->hang));
			if (!x->hang)
				json_object_set_new(o, "barrier_counts", json_pack("[i,i]", x->waiting,
				                    x->ended));
			if (x->hang)
				json_object_set_new(o, "barrier", json_pack("{s:i,s:i,s:i,s:i}", "id",
				                    x->bar_id, "count", x->bar_count, "waiting",
				                    x->waiting, "ended", x->ended));
			break;
		default:
			break;
		}
		json_array_append_new(arr, o);
	}
	return arr;
}
