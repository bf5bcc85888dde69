/* bankc scan: the records of the PTX interpreter grouped into warp
 * instructions and costed by the bank model, with what it prints.
 *
 * The folder's header:
 *   scan_cost.c  threads' records into warp instructions, costed (scan_*)
 *   scan_merge.c the scalar accesses ptxas merges (scan_merge_*)
 *   scan_out.c   warnings, totals and JSON (scan_print_*)
 *   scan_spec.c  .tile specs that reproduce the observed addresses
 *   scan_gate.c  a kernel's excess, for --max-excess
 *   scan_array.c the shared arrays the accesses touch, their names and
 *                declarations (scan_array_*)
 *   scan_fix.c   a proposed layout proven on the recorded addresses, and
 *                the notes, diff and JSON that say it (scan_fix_*) */
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

struct ScanArrays;

typedef struct {
	const char *input;      /* the file scanned, as given */
	const char *cu;         /* the .cu it was compiled from, or NULL */
	const InterpOpts *ro;
	Geom geom;
	struct ScanArrays *arrays;  /* the kernel's arrays and their fixes, or
	                             * NULL: warnings name no array */
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

struct ScanArray;
/* The spec of one array (scan_arrays_find's) as scan_emit_specs writes it,
 * tile name tname, into f; its accesses are the array's slots in order
 * (one per source statement, PTX lines of one statement together). */
int scan_spec_write(FILE *f, const PtxModule *m, const ScanKernel *k,
                    const struct ScanArray *a, const char *tname, const ScanCtx *c);
/* The tile name of an array's spec: KERNEL_ARRAY as an identifier. */
void scan_spec_tile_name(const PtxModule *m, const ScanKernel *k,
                         const struct ScanArray *a, char *buf, size_t n);

/* ---- scan_array.c: the shared arrays of a kernel ----------------------------- */

enum { SCAN_MAX_DIMS = 4 };

/* A declaration `__shared__ T name[D0][D1]...;` found in the source. */
typedef struct {
	bool found;
	char path[1024];        /* as the warnings show it */
	int line, col;          /* of the name */
	char type[64];          /* T as written */
	int type_bytes;         /* sizeof T where bankc knows it, else 0 */
	int ndims;
	char dim[SCAN_MAX_DIMS][64];    /* each dimension as written */
	int64_t dimv[SCAN_MAX_DIMS];    /* its value, -1 if unknown */
	char text[512];         /* the declaration's line */
	int dlo, dhi;           /* the last dimension's text in it: [dlo, dhi) */
} ScanDecl;

/* A source statement: the array's slots at one source position. */
typedef struct {
	char where[512];
	int first, n;           /* its slots: ScanArray.slot[first .. first + n) */
	int64_t wave, ideal, count;
	int64_t after;          /* under the fix (scan_fix_prove) */
	char index[2][128];     /* NAME[I][J] as the statement writes it, or "" */
	int nindex;             /* 2, or 1 for NAME[I] (index[1] ""), or 0 */
	char rewrite[2048];      /* the same under the fix, or "" */
	char op[32];            /* load, store, atomic, ldmatrix.x4.trans, ... */
} ScanStmt;

typedef struct {
	bool shown;             /* a fix was found and proven: show it */
	char why[256];          /* else, when there is excess, why not */
	Layout l;               /* the solve's best */
	char layout[160];       /* layout_describe */
	int64_t before, after, bound, ideal;
	bool optimal;           /* after == bound */
	int64_t bytes_before, bytes_after;
	int blocks_before, blocks_after;
	char cute[128];         /* "Swizzle<5,0,5> ..." where it is one, else "" */
	char col_expr[1280];     /* the column as an expression of r and c, for
	                         * a layout that keeps rows, else "" */
	char header[640];       /* the tile bankc build makes of the spec */
	char macro[640];        /* its macros' prefix */
	/* padding that reaches the best: */
	bool pad;
	int pad_pitch;
	int64_t pad_after, pad_bytes;
	int pad_blocks;
	char pad_decl[256];     /* "float tile[32][33]" */
	char *diff;             /* the unified diff of the declaration, or NULL */
} ScanFix;

typedef struct ScanArray {
	int sym;
	char name[128];         /* as the source names it */
	char kernel[256];       /* the kernel's plain name */
	int64_t base, bytes;
	int elem;               /* bytes of an element: the narrowest access */
	Dtype dtype;            /* from the instructions */
	int rows, cols;         /* the spec's view: the declaration's shape, or
	                         * rows of 128 bytes */
	bool view_decl;
	bool flat;              /* declared one-dimensional, of its elements:
	                         * NAME[I] is row I / cols, column I % cols */
	int *slot, nslot;       /* the accesses that touch it, in source order */
	ScanStmt *stmt;
	int nstmt;
	int64_t wave, ideal;
	bool partial;           /* not every warp instruction was kept */
	bool vector;            /* an access is scalar ones that ptxas merges */
	bool whole;             /* every warp instruction kept, and each
	                         * instruction's lanes in this array alone */
	ScanDecl decl;
	ScanFix fix;
	bool noted;             /* its notes printed */
} ScanArray;

typedef struct ScanArrays {
	const ScanKernel *k;
	ScanArray *a;
	int n;
	bool diff;              /* --fix: print each padding fix as a diff */
} ScanArrays;

/* The arrays kernel k touched (ScanOpts.keep), with their declarations
 * where the source can be read. */
void scan_arrays_find(const PtxModule *m, const ScanKernel *k, const ScanCtx *c,
                      ScanArrays *out);
void scan_arrays_free(ScanArrays *as);
/* tile of _ZZ4kernE4tile; the name itself when it is no such name. */
void scan_array_name(const char *ptx_name, char *buf, size_t n);

/* ---- scan_fix.c: a layout proven on the recorded addresses ------------------- */

/* Every recorded address of array a remapped under layout l of tile t
 * (the array's spec, solved) and costed again: each statement's `after`,
 * and the total (sim wavefronts, as the solve counts them). */
int64_t scan_fix_prove(const PtxModule *m, const ScanKernel *k, ScanArray *a,
                       const Geom *g, const Layout *l, const Tile *t);
/* The array of a slot, or NULL. */
ScanArray *scan_array_of_slot(const ScanArrays *as, int slot);
/* The warning's array, for its message: " of 'tile' (transpose_naive)". */
void scan_fix_label(const ScanCtx *c, const ScanAcc *acc, char *buf, size_t n);
/* After a warning about accesses g[0..n): where their array is declared
 * and, the first time, its fix. */
void scan_fix_after_warning(FILE *f, const PtxModule *m, const ScanAcc **g, int n,
                            const ScanCtx *c);
/* The arrays and their fixes as JSON ("arrays" of a kernel). */
struct json_t *scan_fix_json(const ScanArrays *as);
/* --fix: every padding fix's diff, in array order. */
void scan_fix_print_diffs(FILE *f, const ScanArrays *as);


#endif
