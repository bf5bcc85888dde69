/* bankc scan: the records of the PTX interpreter grouped into warp
 * instructions and costed by the bank model, with what it prints.
 *
 * The folder's header:
 *   scan_cost.c  threads' records into warp instructions, costed (scan_*)
 *   scan_merge.c the scalar accesses ptxas merges (scan_merge_*)
 *   scan_out.c   warnings, totals and JSON (scan_print_*)
 *   scan_spec.c  .tile specs that reproduce the observed addresses
 *   scan_gate.c  a kernel's excess, for --max-excess */
#ifndef BANKC_SCAN_H
#define BANKC_SCAN_H

#include "ptx/ptx.h"

/* ---- scan_cost.c ---------------------------------------------------------- */

/* The bank model's operation for a shared instruction, and its bytes per
 * lane; false (with *why) if it is not one the model costs. */
bool scan_op_of(const PtxInst *in, Op *op, int *bytes, const char **why);
/* A shared atom/red as the bank model's atomic (rule 10); the forms ptxas
 * compiles to a compare-and-swap loop cost one trip of it. */
Op scan_atomic_op(const PtxInst *in);
bool scan_atomic_is_loop(const PtxInst *in);
/* An add of 1 whose result is unused (red.add1 to the bank model). */
bool scan_atomic_is_inc1(const PtxModule *m, int i);

/* One static shared-memory instruction's warp instructions, summed. */
typedef struct {
	int inst;
	Op op;
	int bytes;
	int64_t count;          /* warp instructions */
	int64_t wave, ideal, counted;
	int min_wave, max_wave, min_ideal, max_ideal;
	int worst_excess;       /* of the worst warp instruction */
	uint32_t worst_mask;
	int64_t worst_addr[WARP];
	/* --emit-spec: every warp instruction (mask, 32 addresses) */
	uint32_t *masks;
	int64_t *addrs;
	int64_t nkept, capkept;
	int merged_from;        /* > 1: the sums of that many accesses that
	                         * ptxas merges into one (scan_merge.c) */
	/* an atomic that ptxas compiles to a compare-and-swap loop: the load
	 * of its one trip that bankc counts (with the loads) */
	bool loop;
	int64_t loop_wave, loop_ideal, loop_counted;
	/* its trips after the first, at most (of the warp's own lanes on
	 * one word), and their compare-and-swaps' and loads' wavefronts */
	int64_t trips_hi, trips_atom_hi, trips_load_hi;
	/* warp instructions with a lane outside every shared array the kernel
	 * declares, and the first such lane: its warp, lane and address */
	int64_t outside;
	int outside_warp, outside_lane;
	int64_t outside_addr;
	/* warp instructions whose cost depends on data: a lane's address is
	 * unknown (within bounds), or whether a lane runs it is; each costed
	 * as a range, from the lanes that surely run as known to every lane
	 * at its worst address, and kept out of the sums above */
	int64_t rcount;         /* such warp instructions (that may run) */
	int64_t rsure;          /* ... of which surely run */
	int64_t rlo, rhi, rideal;
	int rmin, rmax;         /* per instruction: the least, the most */
	bool runknown;          /* a lane's address was unknown */
	uint32_t rwhy;          /* the first unknown address's origin, or the
	                         * branch's that makes lanes maybe run */
	int64_t rlo_counted, rhi_counted;
} ScanAcc;

typedef struct {
	StopKind kind;
	int inst;
	uint32_t why;
	int64_t addr;
	int threads;            /* how many threads stopped so */
	int first_tid;
	int call[4];            /* the first thread's calls, innermost first */
	int ncall;
} ScanStop;

typedef struct {
	int kernel;
	int block[3];
	ScanAcc *acc;           /* per slot */
	ScanStop *stops;
	int nstops;
	bool complete;
	int64_t steps;
	int64_t unmodelled;
	const char *cost_error; /* the bank model refused a pattern */
	int cost_error_inst;
	bool *noted;            /* per instruction: an unmodelled shared one ran */
	/* per instruction: undecided branches (Interp.fork_*), global loads
	 * from parameters (Interp.load_*) */
	uint8_t *fork_kind;
	int32_t *fork_threads;
	uint32_t *fork_why;
	int16_t *load_from;
	uint8_t *load_past;
	bool ranged;            /* some accesses are costed as ranges */
} ScanKernel;

/* ---- scan_merge.c: the accesses ptxas merges ------------------------------- */

enum { MERGE_PER_SLOT = 8 };    /* runs one access may be part of */

/* A run of 2 or 4 candidates at consecutive offsets, costed as the one
 * vector access ptxas would make of it. */
typedef struct {
	int n;
	int slot[4];            /* by offset: slot[0] leads */
	int bytes;              /* of each member */
	int win;
	bool ok;                /* every execution allowed it */
	ScanAcc acc;            /* the vector access's sums */
} MergeChunk;

typedef struct {
	MergeChunk *chunk;
	int nchunk, capchunk;
	int (*of)[MERGE_PER_SLOT];  /* per slot: the runs it is part of */
	int *nof;
	int nwin;               /* windows of candidates: */
	int *wfirst;            /* window w is wslot[wfirst[w] .. wfirst[w + 1]) */
	int *wslot;             /* by offset */
	int64_t *woff;
} ScanMerge;

/* The windows of candidates of module m and their runs, from the PTX. */
void scan_merge_find(const PtxModule *m, ScanMerge *g);
/* Each window's runs, from its lowest offset up, the widest first, where
 * every execution allowed them: their sums replace their members' in acc. */
void scan_merge_choose(const PtxModule *m, ScanMerge *g, ScanAcc *acc);
void scan_merge_free(ScanMerge *g);

typedef struct {
	bool keep;              /* keep every warp instruction (--emit-spec) */
	Geom geom;
	bool ptxas_merge;       /* model ptxas merging adjacent scalar accesses */
} ScanOpts;

void scan_kernel(const PtxModule *m, int kernel, const InterpOpts *ro,
                 const ScanOpts *so, ScanKernel *k);
void scan_kernel_free(const PtxModule *m, ScanKernel *k);

/* ---- scan_out.c ----------------------------------------------------------- */

typedef struct {
	const char *input;      /* the file scanned, as given */
	const char *cu;         /* the .cu it was compiled from, or NULL */
	const InterpOpts *ro;
	Geom geom;
} ScanCtx;

/* Warnings and totals of one kernel to f; stops as errors to err. */
void scan_print_text(FILE *f, FILE *err, const PtxModule *m, const ScanKernel *k,
                     const ScanCtx *c);
struct json_t *scan_kernel_json(const PtxModule *m, const ScanKernel *k,
                                const ScanCtx *c);
/* "kern.cu:42:13" for an instruction (or the PTX position). */
void scan_where(const PtxModule *m, const PtxInst *in, const ScanCtx *c,
                char *buf, size_t n);
/* What an unknown value came from, and what to pass. */
void scan_why(const PtxModule *m, const ScanKernel *k, uint32_t why,
              const ScanCtx *c, char *buf, size_t n);

/* ---- scan_gate.c ---------------------------------------------------------- */

/* The kernel's counted wavefronts and their ideal, as the totals print
 * them (cp.async aside); returns the excess, wave - ideal. */
int64_t scan_excess(const PtxModule *m, const ScanKernel *k, int64_t *wave,
                    int64_t *ideal);

/* ---- scan_spec.c ---------------------------------------------------------- */

/* Write one .tile spec per shared array of kernel k into dir, a note for
 * each on `note`; false (with a message on err) if one cannot be written. */
bool scan_emit_specs(const PtxModule *m, const ScanKernel *k, const char *dir,
                     const ScanCtx *c, FILE *note, FILE *err);


#endif
