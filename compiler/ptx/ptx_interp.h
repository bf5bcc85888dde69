/* The interpreter's own declarations, shared by its files:
 *   ptx_sched.c   the block: threads created, run in lockstep, freed
 *   ptx_interp.c  the instructions, a thread's run and its undecided
 *                 branches
 *   ptx_fork.c    a thread's state taken, put back and merged at a join
 *   ptx_regs.c    operands: registers, special registers, the stop
 *   ptx_frame.c   where values live outside registers: parameters, call
 *                 frames, local memory; and the shared accesses recorded
 * ptx_sched.c calls ptx_interp.c, which calls the other three;
 * ptx_frame.c uses ptx_regs.c. */
#ifndef BANKC_PTX_INTERP_H
#define BANKC_PTX_INTERP_H

#include "ptx/ptx.h"

/* Generic addresses of the shared window (cvta.shared): a known 64-bit
 * value in [WINDOW, WINDOW + PTX_SHARED_LIMIT) points into shared memory. */
#define WINDOW 0x0000700000000000ull
/* Local-space addresses of .local variables (a thread's own memory);
 * generic ones (cvta.local) are the same numbers. */
#define LWINDOW 0x0000600000000000ull

typedef struct {
	int func;
	int pc;
	size_t reg0;        /* registers in Thread.stack */
	size_t p0;          /* local parameters in Thread.pstack */
	int call;           /* the caller's call instruction, -1 in the kernel */
	int parent;
} Frame;

typedef enum {
	TS_READY,           /* runs, or paused after INTERP_CHUNK accesses */
	TS_WAIT,            /* waits at a barrier */
	TS_DONE,            /* ended, or its path stopped */
} ThreadState;

/* One thread: everything it needs to pause and go on later. */
typedef struct Thread {
	Interp *r;
	const PtxModule *m;
	int tid, lane, warp, x, y, z;
	Frame fr[PTX_MAX_DEPTH];
	int depth;
	uint64_t cc;        /* carry flag of add.cc and kin */
	uint32_t cc_why;
	InterpStop *stop;
	int64_t steps;
	/* the undecided branches whose sides run now, outermost first */
	int fork[PTX_MAX_FORKS], nfork;
	/* nonzero: the accesses recorded now may not run (REC_MAYBE), for
	 * this reason; sticky: since a side that ended the thread */
	uint32_t maybe_why;
	bool sticky;
	int64_t barriers;   /* barrier instructions met */
	/* its own registers (the frames'), parameter bytes (value and why
	 * unknown), local memory (NULL until touched) */
	Val *stack;
	size_t cap_stack;
	uint8_t *pstack;
	uint32_t *pwhy;
	size_t cap_pstack;
	uint8_t *lval;
	uint32_t *lwhy;
	/* per slot: its executions in this interval, counted where
	 * occ_gen[slot] == gen (a new interval starts at a new gen) */
	uint32_t *occ, *occ_gen;
	uint32_t gen;
	int64_t bytes;      /* what it holds, in Interp.live_bytes */
	/* the scheduler's */
	ThreadState state;
	int64_t interval;   /* barriers waited at */
	int64_t nrec;       /* accesses recorded, all told */
	int chunk;          /* ... since it last paused */
	bool pause;         /* it arrived at a barrier: wait */
	int bar_inst, bar_id, bar_count;
	int64_t bar_seq;
} Thread;

/* A thread's count of executions of slot s in this interval. */
static inline uint32_t occ_get(const Thread *t, int s)
{
	return t->occ_gen[s] == t->gen ? t->occ[s] : 0;
}
static inline void occ_set(Thread *t, int s, uint32_t n)
{
	t->occ[s] = n;
	t->occ_gen[s] = t->gen;
}

/* ---- values ---------------------------------------------------------------- */

static inline Val known(uint64_t v) { return (Val){v, 0, 0, v, v, 0}; }
/* a value ptxas knows too (an immediate, or computed from immediates) */
static inline Val konst(uint64_t v) { return (Val){v, 0, CT_CONST, v, v, 1}; }
static inline Val uniform(Val a) { a.uni = 1; return a; }
static inline Val unknown(uint32_t why) { return (Val){0, why ? why : WHY_INST, 0, 0, ~0ull, 0}; }
/* an unknown value between lo and hi */
static inline Val unknown_in(uint32_t why, uint64_t lo, uint64_t hi)
{
	Val v = unknown(why);
	v.lo = lo <= hi ? lo : 0;
	v.hi = lo <= hi ? hi : ~0ull;
	return v;
}
/* a value's bounds: itself if known */
static inline uint64_t val_lo(Val a) { return a.why ? a.lo : a.v; }
static inline uint64_t val_hi(Val a) { return a.why ? a.hi : a.v; }
/* The low bits of a value that ptxas knows to be zero (64 for a 0). */
static inline int ct_tz(Val a)
{
	if (a.ct != CT_CONST)
		return a.ct;
	return a.v ? __builtin_ctzll(a.v) : 64;
}
static inline uint8_t ct_bits(int64_t n) { return (uint8_t)(n < 0 ? 0 : n > 64 ? 64 : n); }
static inline Val unknown_at(int inst) { return unknown(WHY_INST + (uint32_t)inst); }

static inline uint64_t mask_of(int bytes)
{
	return bytes >= 8 ? ~0ull : (1ull << (8 * bytes)) - 1;
}

static inline int64_t sext(uint64_t v, int bytes)
{
	if (bytes >= 8 || bytes <= 0)
		return (int64_t)v;
	int sh = 64 - 8 * bytes;
	return (int64_t)(v << sh) >> sh;
}

/* Prefer the origin a user can act on: a kernel parameter. */
static inline uint32_t pick(uint32_t a, uint32_t b)
{
	if (a && a < WHY_INST)
		return a;
	if (b && b < WHY_INST)
		return b;
	return a ? a : b;
}

/* ---- operands (ptx_regs.c) ----------------------------------------------------- */

/* The low bits of shared array y's address plus off that ptxas knows. */
uint8_t ct_shared(const PtxSym *y, int64_t off);

Val *ir_reg(Thread *t, int i);
/* Operand o of instruction i read as `bytes` bytes (zero-extended). */
Val ir_get(Thread *t, int i, const PtxOpd *o, int bytes);
void ir_put(Thread *t, const PtxOpd *o, Val v, int bytes);
/* Every register an operand names (a vector's elements too) unknown. */
void ir_put_unknown(Thread *t, const PtxOpd *o, uint32_t why);
/* The bounds of an unknown result of instruction in from its operands'
 * (ptx_regs.c). */
Val ir_bounds(const PtxInst *in, uint32_t why, Val a, Val b, Val c, int bytes);
/* The path stops: always false. */
bool ir_stop(Thread *t, StopKind k, int inst, uint32_t why, int64_t addr);

/* ---- memory and frames (ptx_frame.c) --------------------------------------------- */

/* The address of memory operand o as in's space reads it; *shared: it is
 * a shared-memory address. */
Val ir_address(Thread *t, int i, const PtxInst *in, const PtxOpd *o, bool *shared);
/* A shared access of a load, store, atomic, matrix op or cp.async,
 * recorded; false if the path stopped. */
bool ir_access(Thread *t, int i, const PtxInst *in, bool *shared);
/* ld/st of local memory (*done) or of parameters; false if stopped. */
bool ir_local_move(Thread *t, int i, const PtxInst *in, bool *done);
bool ir_param_move(Thread *t, int i, const PtxInst *in);
bool ir_call(Thread *t, int i, const PtxInst *in);
/* Registers of a new frame: unknown until written. */
void ir_unset(Val *v, size_t n);
/* A global load from a --data buffer: true (with its value in the
 * destination) if the address is in one. */
bool ir_data_load(Thread *t, int i, const PtxInst *in);
/* An unknown global load's destination: bounded by its width. */
void ir_load_unknown(Thread *t, int i, const PtxInst *in);
/* Thread t takes n more bytes (its frames, its local memory): false, the
 * path stopped at instruction i, past INTERP_STATE_CAP. */
bool ir_hold(Thread *t, int64_t n, int i);

/* ---- a thread's run (ptx_interp.c) ------------------------------------------------- */

typedef enum { RESUME_PAUSE, RESUME_DONE, RESUME_STOP } ResumeEnd;

/* Run thread t on from where it paused, until it arrives at a barrier
 * (t->pause) or has made INTERP_CHUNK accesses (outside the sides of
 * undecided branches, which run whole), ends, or its path stops. */
ResumeEnd interp_resume(Thread *t);

/* ---- snapshots of a thread (ptx_fork.c) ----------------------------------------------- */

/* The buffers of a snapshot, kept for the next when it is freed
 * (Interp.spare). */
typedef struct SnapBufs {
	Val *reg;
	size_t cap_reg;
	uint8_t *pv;
	uint32_t *pw;
	size_t cap_p;
	uint8_t *lv;
	uint32_t *lw;
	uint32_t *occ;
} SnapBufs;

/* A thread's state, to run the other side of a branch from, and to
 * compare the two sides' ends (its frames up to depth). */
typedef struct {
	Val *reg;
	size_t nreg, cap_reg;
	uint8_t *pv;
	uint32_t *pw;
	size_t np, cap_p;
	uint8_t *lv;        /* NULL: no local memory yet */
	uint32_t *lw;
	uint32_t *occ;      /* each slot's count (occ_get) */
	Frame fr[PTX_MAX_DEPTH];
	int depth;
	uint64_t cc;
	uint32_t cc_why, maybe_why;
	bool sticky;
} Snap;

void snap_take(Thread *t, Snap *s);
void snap_put(Thread *t, const Snap *s);
/* The thread is at the join of the fall-through side; side a (the taken
 * one) ended there too: merge a into it, what differs unknown for why. */
void snap_merge(Thread *t, const Snap *a, uint32_t why);
/* s's buffers kept for the next snapshot (or freed) */
void snap_free(Thread *t, Snap *s);
/* Every snapshot's buffers kept, freed (with the block). */
void snap_spare_free(Interp *r);

#endif
