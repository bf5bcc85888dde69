/* The block's threads in lockstep, by barrier interval.
 *
 * Every thread owns its registers, parameters, local memory and counts
 * (Thread), so it can pause and go on.  A round runs each ready thread,
 * warp by warp and lane by lane, until it arrives at a block barrier, has
 * made INTERP_CHUNK shared accesses (outside the sides of branches bankc
 * cannot decide, which run whole), ends or stops; after each warp's
 * lanes the consumer hears warp_paused, and may cost the warp
 * instructions that every lane has passed and drop them.  When no thread
 * is ready, every thread waits at a barrier or has ended: the barriers
 * complete whose count of threads has arrived (barrier 0 without a count:
 * every thread that has not ended), the consumer hears interval_end, and
 * the threads released go on, counting their executions from 0 again.
 * Where no barrier can complete (threads at barriers whose counts never
 * fill: the block would hang), every waiting thread is released, and the
 * interval says so.  Memory then follows the threads' state and one
 * chunk per thread, not the trip counts of their loops.
 *
 * A block whose threads' state would pass INTERP_STATE_BUDGET together
 * runs in groups of whole warps, one group after the other; its barriers
 * complete within each group (the costs do not depend on it: threads see
 * no shared memory of others). */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_interp.h"

/* What one thread holds when it starts (its calls may add frames). */
static int64_t thread_bytes(const Interp *r)
{
	const PtxModule *m = r->m;
	const PtxFunc *k = &m->func[r->kernel];
	return (int64_t)sizeof(Thread) + ((int64_t)k->nregs + 16) * (int64_t)sizeof(Val) +
	       (r->kparams + k->psize + 16) * 5 + (int64_t)m->nslots * 8 +
	       m->local_bytes * 5;
}

static Thread *thread_new(Interp *r, int tid)
{
	const PtxModule *m = r->m;
	const PtxFunc *k = &m->func[r->kernel];
	const int *b = r->o->block;
	Thread *t = xcalloc(1, sizeof *t);
	t->r = r;
	t->m = m;
	t->tid = tid;
	t->lane = tid % WARP;
	t->warp = tid / WARP;
	t->x = tid % b[0];
	t->y = tid / b[0] % b[1];
	t->z = tid / (b[0] * b[1]);
	t->stop = &r->stop[tid];
	*t->stop = (InterpStop){STOP_NONE, -1, 0, 0, {0}, 0};
	t->cap_stack = (size_t)k->nregs + 16;
	if (r->spare_stack && r->spare_cap >= t->cap_stack) {
		t->stack = r->spare_stack;
		t->cap_stack = r->spare_cap;
		r->spare_stack = NULL;
	} else {
		t->stack = xmalloc(t->cap_stack * sizeof *t->stack);
	}
	ir_unset(t->stack, (size_t)k->nregs);
	t->cap_pstack = (size_t)(r->kparams + k->psize) + 16;
	if (r->spare_pv && r->spare_pcap >= t->cap_pstack) {
		t->pstack = r->spare_pv;
		t->pwhy = r->spare_pw;
		t->cap_pstack = r->spare_pcap;
		r->spare_pv = NULL;
		r->spare_pw = NULL;
		memset(t->pstack, 0, t->cap_pstack);
		memset(t->pwhy, 0, t->cap_pstack * sizeof *t->pwhy);
	} else {
		t->pstack = xcalloc(t->cap_pstack, 1);
		t->pwhy = xcalloc(t->cap_pstack, sizeof *t->pwhy);
	}
	memcpy(t->pstack, r->kpv, (size_t)r->kparams);
	memcpy(t->pwhy, r->kpw, (size_t)r->kparams * sizeof *t->pwhy);
	t->occ = xcalloc((size_t)m->nslots + 1, sizeof *t->occ);
	t->occ_gen = xcalloc((size_t)m->nslots + 1, sizeof *t->occ_gen);
	t->gen = 1;
	t->fr[0] = (Frame){r->kernel, k->first, 0, (size_t)r->kparams, -1, -1};
	t->bytes = (int64_t)sizeof *t + (int64_t)t->cap_stack * (int64_t)sizeof *t->stack +
	           (int64_t)t->cap_pstack * 5 + (int64_t)m->nslots * 8;
	r->live_bytes += t->bytes;
	if (r->live_bytes > r->peak_bytes)
		r->peak_bytes = r->live_bytes;
	return t;
}

static void thread_free(Interp *r, Thread *t)
{
	r->live_bytes -= t->bytes;
	r->thread[t->tid] = NULL;
	/* the larger buffers kept for the next thread */
	if (!r->spare_stack || r->spare_cap < t->cap_stack) {
		free(r->spare_stack);
		r->spare_stack = t->stack;
		r->spare_cap = t->cap_stack;
	} else {
		free(t->stack);
	}
	if (!r->spare_pv || r->spare_pcap < t->cap_pstack) {
		free(r->spare_pv);
		free(r->spare_pw);
		r->spare_pv = t->pstack;
		r->spare_pw = t->pwhy;
		r->spare_pcap = t->cap_pstack;
	} else {
		free(t->pstack);
		free(t->pwhy);
	}
	free(t->lval);
	free(t->lwhy);
	free(t->occ);
	free(t->occ_gen);
	free(t);
}

uint32_t interp_floor(const Interp *r, int tid, int slot)
{
	const Thread *t = tid >= 0 && tid < r->nthreads ? r->thread[tid] : NULL;
	if (!t || t->state != TS_READY)
		return UINT32_MAX;
	return occ_get(t, slot);
}

bool interp_waiting(const Interp *r, int tid, int *inst, int *id, int *count)
{
	const Thread *t = tid >= 0 && tid < r->nthreads ? r->thread[tid] : NULL;
	if (!t || t->state != TS_WAIT)
		return false;
	*inst = t->bar_inst;
	*id = t->bar_id;
	*count = t->bar_count;
	return true;
}

/* ---- barriers -------------------------------------------------------------------------- */

/* One arrival at a barrier, in the order they came: a waiting thread, or
 * an arrive-only one (r->pending[pend]). */
typedef struct {
	int64_t seq;
	int tid, count;
	int pend;           /* -1: a waiting thread */
} Arrival;

static int arrival_cmp(const void *a, const void *b)
{
	const Arrival *x = a, *y = b;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static void release(Thread *t)
{
	t->state = TS_READY;
	t->pause = false;
	t->interval++;
	t->gen++;       /* its counts start again from 0 */
}

/* Every thread of [t0, t1) waits or has ended: complete what can, tell
 * the consumer, release.  False when none waits (the group is done). */
static bool resolve(Interp *r, int t0, int t1, int64_t round)
{
	const InterpSink *sink = r->sink;
	int live = 0, waiting = 0, n = t1 - t0;
	int per[16] = {0};
	for (int tid = t0; tid < t1; tid++) {
		const Thread *t = r->thread[tid];
		live += t != NULL;
		if (t && t->state == TS_WAIT) {
			waiting++;
			per[t->bar_id]++;
		}
	}
	InterpInterval iv = {round, t0, n, waiting, n - live, 0, false, NULL};
	if (!waiting) {
		if (sink && sink->interval_end)
			sink->interval_end(sink->ctx, &iv);
		return false;
	}
	/* each barrier's arrivals, waiting threads (in thread order) then
	 * arrive-only ones: at[first[id] .. first[id] + per[id]) */
	for (int p = 0; p < r->npending; p++)
		if (r->pending[p].tid >= t0 && r->pending[p].tid < t1)
			per[r->pending[p].id]++;
	int first[17] = {0};
	for (int id = 0; id < 16; id++)
		first[id + 1] = first[id] + per[id];
	Arrival *at = xmalloc(((size_t)first[16] + 1) * sizeof *at);
	int fill[16];
	memcpy(fill, first, sizeof fill);
	for (int tid = t0; tid < t1; tid++) {
		const Thread *t = r->thread[tid];
		if (t && t->state == TS_WAIT)
			at[fill[t->bar_id]++] = (Arrival){t->bar_seq, tid, t->bar_count, -1};
	}
	for (int p = 0; p < r->npending; p++)
		if (r->pending[p].tid >= t0 && r->pending[p].tid < t1)
			at[fill[r->pending[p].id]++] = (Arrival){r->pending[p].seq, r->pending[p].tid,
			                                         r->pending[p].count, p};
	bool *go = xcalloc((size_t)n + 1, sizeof *go);
	bool *used = xcalloc((size_t)r->npending + 1, sizeof *used);
	for (int id = 0; id < 16; id++) {
		Arrival *arr = at + first[id];
		int na = per[id];
		if (!na)
			continue;
		/* the first arrival's count: the barrier's */
		int lead = 0;
		for (int j = 1; j < na; j++)
			if (arr[j].seq < arr[lead].seq)
				lead = j;
		int need = arr[lead].count > 0 ? arr[lead].count : live;
		if (na < need)
			continue;
		/* more than one generation: in the order they came */
		if (na > need)
			qsort(arr, (size_t)na, sizeof *arr, arrival_cmp);
		/* a generation completes when its count of threads has arrived:
		 * the count of its first arrival, or every live thread */
		for (int pos = 0; pos < na;) {
			need = arr[pos].count > 0 ? arr[pos].count : live;
			if (na - pos < need)
				break;
			for (int j = pos; j < pos + need; j++) {
				if (arr[j].pend >= 0)
					used[arr[j].pend] = true;
				else
					go[arr[j].tid - t0] = true;
			}
			pos += need;
		}
	}
	for (int j = 0; j < n; j++)
		iv.released += go[j];
	if (!iv.released) {
		/* no barrier can complete: the block would hang here; every
		 * waiting thread goes on, and the consumer is told */
		iv.deadlock = true;
		for (int tid = t0; tid < t1; tid++)
			go[tid - t0] = r->thread[tid] && r->thread[tid]->state == TS_WAIT;
		iv.released = waiting;
	}
	iv.go = go;
	if (sink && sink->interval_end)
		sink->interval_end(sink->ctx, &iv);
	for (int tid = t0; tid < t1; tid++)
		if (go[tid - t0])
			release(r->thread[tid]);
	int keep = 0;
	for (int p = 0; p < r->npending; p++)
		if (!used[p])
			r->pending[keep++] = r->pending[p];
	r->npending = keep;
	free(at);
	free(go);
	free(used);
	return true;
}

/* ---- the block --------------------------------------------------------------------- */

/* Threads [t0, t1), warps [w0, w1), to their ends. */
static void run_group(Interp *r, int w0, int w1, int t0, int t1)
{
	const InterpSink *sink = r->sink;
	bool *started = xcalloc((size_t)(t1 - t0) + 1, sizeof *started);
	for (int64_t round = 0;; round++) {
		bool ready;
		do {
			ready = false;
			for (int w = w0; w < w1; w++) {
				bool ran = false;
				for (int tid = w * WARP; tid < (w + 1) * WARP && tid < t1; tid++) {
					/* a thread's state is made when it first runs (with
					 * the buffers of one that ended, where there is one) */
					if (!started[tid - t0]) {
						started[tid - t0] = true;
						r->thread[tid] = thread_new(r, tid);
					}
					Thread *t = r->thread[tid];
					if (!t || t->state != TS_READY)
						continue;
					t->pause = false;
					t->chunk = 0;
					ResumeEnd e = interp_resume(t);
					ran = true;
					if (e == RESUME_PAUSE && t->pause) {
						t->state = TS_WAIT;
						t->bar_seq = r->seq++;
						r->arrivals[t->bar_inst]++;
					} else if (e == RESUME_PAUSE) {
						ready = true;
					} else {
						thread_free(r, t);
					}
				}
				if (ran && sink && sink->warp_paused)
					sink->warp_paused(sink->ctx, w);
			}
		} while (ready);
		if (!resolve(r, t0, t1, round))
			break;
	}
	free(started);
	/* arrive-only arrivals of the group that no barrier counted */
	int keep = 0;
	for (int p = 0; p < r->npending; p++)
		if (r->pending[p].tid < t0 || r->pending[p].tid >= t1)
			r->pending[keep++] = r->pending[p];
	r->npending = keep;
}

void interp_run(Interp *r, const InterpSink *sink)
{
	r->sink = sink;
	int warps = (r->nthreads + WARP - 1) / WARP;
	int64_t per = thread_bytes(r) * WARP;
	int64_t gw = INTERP_STATE_BUDGET / (per > 0 ? per : 1);
	r->group_warps = gw < 1 ? 1 : gw > warps ? warps : (int)gw;
	for (int w0 = 0; w0 < warps; w0 += r->group_warps) {
		int w1 = w0 + r->group_warps < warps ? w0 + r->group_warps : warps;
		int t0 = w0 * WARP, t1 = w1 * WARP < r->nthreads ? w1 * WARP : r->nthreads;
		run_group(r, w0, w1, t0, t1);
	}
	r->sink = NULL;
}

/* ---- one thread alone ---------------------------------------------------------------- */

static void keep_rec(void *ctx, const InterpAccess *a)
{
	Interp *r = ctx;
	if (r->nrec == r->caprec) {
		size_t cap = r->caprec ? r->caprec * 2 : 4096;
		r->rec = xrealloc(r->rec, cap * sizeof *r->rec);
		r->caprec = cap;
	}
	r->rec[r->nrec++] = *a->rec;
}

/* Thread tid alone, telling sink (or no one): alone, it never waits, each
 * barrier completing with it. */
static bool run_alone(Interp *r, int tid, const InterpSink *sink, InterpStop *st)
{
	r->sink = sink;
	Thread *t = r->thread[tid] = thread_new(r, tid);
	ResumeEnd e;
	while ((e = interp_resume(t)) == RESUME_PAUSE) {
		if (t->pause)
			release(t);
		t->chunk = 0;
	}
	*st = r->stop[tid];
	thread_free(r, t);
	r->sink = NULL;
	return e != RESUME_STOP;
}

bool interp_thread(Interp *r, int tid, InterpStop *st)
{
	InterpSink sink = {.ctx = r, .access = keep_rec};
	return run_alone(r, tid, &sink, st);
}

int64_t interp_thread_steps(Interp *r, int tid, InterpStop *st)
{
	int64_t before = r->steps;
	run_alone(r, tid, NULL, st);
	return r->steps - before;
}
