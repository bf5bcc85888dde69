/* bankc scan: the records of the PTX interpreter grouped into warp
 * instructions and costed by the bank model, with what it prints.
 *
 * The folder's header:
 *   scan_cost.c  threads' records into warp instructions, costed (scan_*)
 *   scan_merge.c the scalar accesses ptxas merges (scan_merge_*)
 *   scan_out.c   warnings, totals and JSON (scan_print_*)
 *   scan_spec.c  .tile specs that reproduce the observed addresses
 *   scan_gate.c  a kernel's excess, for --max-excess
 *   scan_bound.c what bounds a loop that ran out of --max-steps
 *   scan_array.c the shared arrays the accesses touch, their names and
 *                declarations (scan_array_*)
 *   scan_fix.c   a proposed layout proven on the recorded addresses, and
 *                the notes, diff and JSON that say it (scan_fix_*)
 *   scan_safety.c     shared-memory correctness from the same run: races,
 *                     bounds, alignment, barriers (scan_safety_*)
 *   scan_safety_out.c those findings as diagnostics and JSON */
#ifndef BANKC_SCAN_H
#define BANKC_SCAN_H

#include "ptx/ptx.h"

/* ---- scan_cost.c ---------------------------------------------------------- */

/* The block runs in lockstep (ptx_sched.c); scan_cost.c groups each
 * warp's accesses into warp instructions as they come, costs those that
 * every lane has passed, and drops them: memory follows the open warp
 * instructions, never the trip counts.  At most SCAN_MAX_OPEN are open at
 * once (lanes of a warp apart for that long stop the scan, STOP_RECORDS). */
enum { SCAN_MAX_OPEN = 1 << 20 };

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
	int worst_excess;       /* of the worst warp instruction (the first
	                         * of the most excess: warp by warp, in order) */
	uint32_t worst_mask;
	int64_t worst_addr[WARP];
	/* --emit-spec and the fixes: each distinct warp instruction (mask, 32
	 * addresses) once, kcount[j] of them ran, in the order they first ran
	 * warp by warp; kept: their sum, count where every one was kept */
	uint32_t *masks;
	int64_t *addrs;
	int64_t *kcount;
	int64_t nkept, capkept, kept;
	struct ScanKeep *keep;  /* while costing: their index (scan_cost.c) */
	/* where the first of each kind was (warp << 40 | its n-th warp
	 * instruction of this access), as warps are costed interval by
	 * interval, not one after the other */
	int64_t worst_key, outside_key, rwhy_key;
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

/* A loop that ran out of --max-steps (scan_bound.c): its back branch,
 * the kernel parameter its tests come from, and a value of it that fits. */
typedef struct {
	int branch;             /* -1: no loop found */
	int param;              /* -1: none that --param gave */
	uint64_t value;         /* as given */
	bool fitted;            /* the thread's instructions follow it: */
	uint64_t fits;          /* a value whose instructions fit */
	int64_t steps_needed;   /* the --max-steps that value needs (0: more
	                         * than a number holds) */
} ScanBound;

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
	/* every stop is --max-steps: the sums are what ran until then (printed
	 * as partial, never as the kernel's), and the loop that bounds it */
	bool partial;
	ScanBound bound;
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
	/* another consumer of the block's run, told every event after the
	 * costing has seen it (ptx.h's InterpSink; its ctx its own): where
	 * checks of shared-memory correctness read each interval's accesses
	 * and the barriers' arrivals; NULL for none */
	const InterpSink *also;
} ScanOpts;

void scan_kernel(const PtxModule *m, int kernel, const InterpOpts *ro,
                 const ScanOpts *so, ScanKernel *k);
void scan_kernel_free(const PtxModule *m, ScanKernel *k);

/* ---- scan_safety.c: shared-memory correctness ------------------------------ */

/* Bytes of shared memory whose accesses the race check follows (sm_90
 * gives a block at most 227 KiB): past it, accesses are out of bounds. */
enum { SCAN_SAFETY_SHADOW = 1 << 20 };
/* Findings a kernel reports at most (each a source position, or a pair);
 * those past it are counted (scan_safety_dropped). */
enum { SCAN_SAFETY_MAX = 256 };

typedef enum { SF_RACE, SF_BOUNDS, SF_ALIGN, SF_BARRIER } ScanFindingKind;

/* One finding: the first of its kind at its instruction (or pair of
 * instructions), and how often it was met. */
typedef struct {
	ScanFindingKind kind;
	bool certain;           /* an error; else a warning: on a path that
	                         * depends on data, or not sure */
	int inst, inst2;        /* the access (a race: the earlier), the other
	                         * access or barrier (-1: none) */
	int tid, tid2;          /* the threads (-1: none) */
	int64_t addr;           /* the byte (bounds, alignment: the address) */
	int width;              /* bytes per lane of the access */
	int sym, sym2;          /* its array (-1: none); bounds: the array the
	                         * bytes land in instead (-1: none) */
	int64_t offset;         /* addr from the array's start */
	int64_t size;           /* bounds: the array's bytes (-1: no one array) */
	int64_t count;          /* times met (pairs of threads, accesses) */
	bool write, write2;     /* a race: which access writes */
	bool maybe;             /* on a side of a branch bankc cannot decide */
	bool hang;              /* a barrier: no barrier could complete */
	int waiting, ended;     /* ... threads waiting, ended; else the n-th
	                         * block barrier of each thread there */
	int bar_id, bar_count;
} ScanFinding;

typedef struct ScanSafety ScanSafety;
/* The checks of kernel's launch; dynamic_shared: --dynamic-shared's bytes,
 * -1 where not given (an extern array's end is then unknown). */
ScanSafety *scan_safety_new(const PtxModule *m, int kernel, const InterpOpts *ro,
                            int64_t dynamic_shared);
/* The sink to give scan_kernel as ScanOpts.also. */
void scan_safety_sink(ScanSafety *s, InterpSink *sink);
/* After the run: what the kernel's stops make uncertain. */
void scan_safety_finish(ScanSafety *s, const ScanKernel *k);
const ScanFinding *scan_safety_findings(const ScanSafety *s, int *n);
int64_t scan_safety_dynamic(const ScanSafety *s);
int64_t scan_safety_dropped(const ScanSafety *s);
/* Whether instruction inst has a finding of kind (another message there
 * would say less); s may be NULL. */
bool scan_safety_has(const ScanSafety *s, int inst, ScanFindingKind kind);
void scan_safety_free(ScanSafety *s);

/* ---- scan_bound.c ---------------------------------------------------------- */

/* The loop of stop s (STOP_STEPS), the parameter that bounds it and a
 * value that fits (threads interpreted alone). */
void scan_bound_find(const PtxModule *m, int kernel, const InterpOpts *ro, const ScanStop *s,
                     ScanBound *b);

/* ---- scan_out.c ----------------------------------------------------------- */

struct ScanArrays;

typedef struct {
	const char *input;      /* the file scanned, as given */
	const char *cu;         /* the .cu it was compiled from, or NULL */
	const InterpOpts *ro;
	Geom geom;
	struct ScanArrays *arrays;  /* the kernel's arrays and their fixes, or
	                             * NULL: warnings name no array */
	const struct ScanSafety *safety;    /* its correctness findings, or NULL */
} ScanCtx;

/* One kernel's totals to f; its warnings, notes and errors (the
 * diagnostics, as gcc writes them) to err (f may be NULL for a kernel
 * without totals: only its errors). */
void scan_print_text(FILE *f, FILE *err, const PtxModule *m, const ScanKernel *k,
                     const ScanCtx *c);
struct json_t *scan_kernel_json(const PtxModule *m, const ScanKernel *k,
                                const ScanCtx *c);

/* ---- scan_safety_out.c: the findings said -------------------------------- */

/* Each finding not accepted, as gcc writes an error or warning, to err;
 * the number of errors written. */
int scan_safety_print(FILE *err, const PtxModule *m, const ScanSafety *s,
                      const ScanCtx *c, const char *kernel_name);
/* The findings as a JSON array ("findings" of a kernel). */
struct json_t *scan_safety_json(const PtxModule *m, const ScanSafety *s, const ScanCtx *c);

/* A diagnostic at instruction in, as scan's own are written: its place,
 * kind and message, [-WNAME] (flag >= 0, errors too), the source line and
 * its inlined calls; kept for --sarif under rule. */
void scan_diag_at(FILE *f, const PtxModule *m, const PtxInst *in, const ScanCtx *c,
                  DiagKind k, const char *rule, int flag, const char *msg);
/* ---- scan_pos.c: where an instruction is reported ------------------------------ */

/* The source position to report for in: .loc's, or, while that names a
 * toolkit header, the call it was inlined from; *file its file id, *rest
 * the calls that position was itself inlined from (PtxModule.inl, -1:
 * none); NULL for none.  scan_source_of: the same, less. */
const char *scan_source_at(const PtxModule *m, const PtxInst *in, int *file, int *line,
                           int *col, int *rest);
const char *scan_source_of(const PtxModule *m, const PtxInst *in, int *line, int *col);
/* A source file's path as scan shows it: the .cu as given, else relative
 * to the working folder where it is under it. */
const char *scan_display_path(const char *path, const ScanCtx *c);
/* The source file and line an instruction is reported at (a toolkit
 * header's code at the line that inlined it), or NULL for none. */
const char *scan_source_pos(const PtxModule *m, const PtxInst *in, const ScanCtx *c,
                            int *line);
/* "kern.cu:42:13" for an instruction (or the PTX position). */
void scan_where(const PtxModule *m, const PtxInst *in, const ScanCtx *c,
                char *buf, size_t n);
/* What an unknown value came from, and what to pass. */
void scan_why(const PtxModule *m, const ScanKernel *k, uint32_t why,
              const ScanCtx *c, char *buf, size_t n);

/* ---- scan_kernel.c: a kernel in its source ------------------------------------ */

typedef struct {
	char path[1024];        /* as the warnings show it */
	int line, col;          /* of its name in its definition */
	char *param[PTX_MAX_PARAMS];    /* each parameter's name, or NULL */
	int nparams;
} ScanKernelSrc;
/* Kernel `kernel`'s definition in the .cu given or the files of its code:
 * false if none can be read for certain. */
bool scan_kernel_source(const PtxModule *m, int kernel, const ScanCtx *c, ScanKernelSrc *k);
void scan_kernel_source_free(ScanKernelSrc *k);

/* ---- scan_suppress.c: warnings the user accepted ----------------------------- */

typedef enum { ACCEPT_NONE, ACCEPT_FLAG, ACCEPT_SOURCE, ACCEPT_BASELINE } ScanAccept;
/* Whether a warning of flag f at instruction in is accepted, and how. */
ScanAccept scan_accepted(const PtxModule *m, const PtxInst *in, const ScanCtx *c, DiagFlag f);
/* --baseline FILE: the warnings an earlier run printed are known; false
 * (message on err) if it cannot be read. */
bool scan_baseline_read(const char *path, FILE *err);
void scan_baseline_free(void);
/* Whether an accepted warning goes to the --sarif log anyway, suppressed
 * (--sarif-suppressed); and the words of its suppression, into buf. */
bool scan_accepted_kept(void);
/* What --sarif record rec at line of path (as the warnings show it) is
 * about: the line's text where the source may be shown, and key. */
void scan_record_line(int rec, const char *path, int line, const char *key);
DiagSuppress scan_accept_why(ScanAccept a, DiagFlag f, char *buf, size_t n);

/* ---- scan_gate.c ---------------------------------------------------------- */

/* The kernel's counted wavefronts and their ideal, as the totals print
 * them (cp.async aside), and the excess of those not accepted (c: NULL
 * for all); returns the excess, wave - ideal. */
int64_t scan_excess(const PtxModule *m, const ScanKernel *k, const ScanCtx *c,
                    int64_t *wave, int64_t *ideal);

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

struct CDecl;

/* A declaration `__shared__ T name[D0][D1]...;` found in the source from
 * the array's PTX symbol (scan_decl.c). */
typedef struct {
	bool found;
	char why[256];          /* when not found: why not */
	char path[1024];        /* as the warnings show it */
	int line, col;          /* of the name */
	char type[64];          /* T as written */
	int type_bytes;         /* sizeof T: a builtin's or a template argument's,
	                         * else the symbol's bytes over its elements;
	                         * 0 if unknown */
	int ndims;
	char dim[SCAN_MAX_DIMS][64];    /* each dimension as written */
	int64_t dimv[SCAN_MAX_DIMS];    /* its value, -1 if unknown */
	char text[512];         /* the declaration's line */
	bool is_extern;         /* extern __shared__: its size is the launch's */
	bool in_template;       /* one text for every instance of a template */
	struct CDecl *src;      /* where its name occurs (scan_decl.c) */
} ScanDecl;

/* A source statement: the array's slots at one source position. */
typedef struct {
	char where[512];
	int first, n;           /* its slots: ScanArray.slot[first .. first + n) */
	int64_t wave, ideal, count;
	int64_t after;          /* under the fix (scan_fix_prove) */
	char op[32];            /* load, store, atomic, ldmatrix.x4.trans, ... */
} ScanStmt;

/* A place in the source a form rewrites: its text before and after. */
typedef struct ScanEdit {
	char where[320];        /* file:line */
	char *before, *after;
} ScanEdit;

/* One way to say a layout in the source: a padded declaration, or every
 * subscript rewritten (the tile's columns permuted, or stored transposed). */
typedef struct {
	bool ok;                /* said and proven */
	Layout l;
	char layout[160];       /* layout_describe */
	int64_t after, extra_bytes;
	int blocks;             /* per SM, by shared memory alone */
	char decl[320];         /* the declaration it needs, or "" */
	char index[1400];       /* how to index: "t[r][c ^ (r & 31)]", or "" */
	bool transposed;
	ScanEdit *edit;         /* every place changed, declaration first */
	int nedit;
	char *diff;             /* the unified diff of the edits, or NULL */
	char stop[400];         /* why there is no diff, or "" */
	/* the replacements that make the diff, kept so that --fix can join
	 * the arrays of one file into one diff */
	const struct CText *src;
	struct CRepl *repl;
	int nrepl;
} ScanForm;

typedef struct {
	bool shown;             /* a fix was found and proven: show it */
	char why[320];          /* else, when there is excess, why not */
	Layout l;               /* the best layout */
	char layout[160];       /* layout_describe */
	int64_t before, after, bound, ideal;
	bool optimal;           /* after == bound */
	int64_t bytes_before;
	int blocks_before;      /* per SM, by shared memory alone */
	char cute[200];         /* "Swizzle<3,3,3> on element offsets ..." or "" */
	char header[640];       /* the tile bankc build makes of the spec */
	char macro[640];        /* its macros' prefix */
	char header_use[600];   /* how to declare and index through it, or "" */
	char unsaid[320];       /* a better layout that has no form in the
	                         * source's terms, and what it takes, or "" */
	ScanForm pad, index;    /* the padding, the index rewrite */
	bool vector;            /* the array's accesses are vectors ptxas made */
	/* --data: fitted to the input given, and how it does on others */
	bool data;
	int data_tries, data_helped;
} ScanFix;

typedef struct ScanArray {
	int sym;
	char name[128];         /* as the source names it */
	char kernel[256];       /* the kernel's plain name */
	int64_t base, bytes;
	int elem;               /* bytes of the spec's element */
	int k;                  /* spec elements to a declared element (0: none
	                         * declared, or not a whole number of them) */
	int vec;                /* the widest access, in declared elements */
	Dtype dtype;
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
	char split[400];        /* accesses ptxas merges into one vector from
	                         * more than one indexing (two statements, two
	                         * names in one): a rewrite of their indices
	                         * would split them; "" if none */
	char reach[512];        /* an access the source's indexing of it does not
	                         * explain (a pointer, another name), or "" */
	char kept[512];         /* a use in the source where the compiler made no
	                         * shared-memory access (it kept the value in a
	                         * register): an index rewrite may make it load
	                         * there; "" if none */
	ScanDecl decl;
	ScanFix fix;
	bool noted;             /* its notes printed */
} ScanArray;

typedef struct ScanArrays {
	const ScanKernel *k;
	ScanArray *a;
	int n;
	int *of_slot;           /* per slot: its array's index, -1 for none */
	bool diff;              /* --fix: print each fix as a diff */
} ScanArrays;

/* The arrays kernel k touched (ScanOpts.keep), with their declarations
 * where the source can be read. */
void scan_arrays_find(const PtxModule *m, const ScanKernel *k, const ScanCtx *c,
                      ScanArrays *out);
void scan_arrays_free(ScanArrays *as);
/* tile of _ZZ4kernE4tile; the name itself when it is no such name. */
void scan_array_name(const char *ptx_name, char *buf, size_t n);
/* Forget the sources read (scan_decl.c, scan_ctext.c). */
void scan_arrays_forget_sources(void);

/* ---- scan_say.c: a layout in the source's terms ---------------------------------- */

typedef enum { SAY_SAME, SAY_XOR, SAY_ROT } SayKind;
typedef struct {
	bool swap;              /* stored transposed: row c, column from r */
	int rows, cols;         /* the stored view, in declared elements */
	int pitch;              /* declared elements a stored row */
	int kind;               /* SayKind */
	int G;                  /* chunks of G elements move whole */
	int V;                  /* ... written in chunks of V (the widest access) */
	int nq;                 /* chunks a row */
	uint32_t f0, fm[32];    /* SAY_XOR: chunk mask f(r) = f0 ^ (fm[b] for r's bits b) */
	int nbits;
	int s;                  /* SAY_ROT: chunks of rotation a row */
} ScanSayMap;

/* Layout l of tile t (the array's spec, k units to a declared element,
 * accesses of up to vec declared elements) as a map of each stored row's
 * columns; false if it has none (it moves elements between rows, or
 * splits them). */
bool scan_say_map(const Layout *l, const Tile *t, int k, int vec, ScanSayMap *m);
/* The stored column of (r, c) as C text in r0 and c0 (for a transposed
 * map: of stored row c0... called with the stored row and column). */
void scan_say_col(const ScanSayMap *m, const char *r0, const char *c0, char *buf, size_t n);
/* The text, evaluated for every element, agrees with the layout. */
bool scan_say_check(const ScanSayMap *m, const Layout *l, const Tile *t, int k);
void scan_say_operand(const char *e, char *buf, size_t n);
/* The layout as a note names it: layout_describe's words, a swapped one
 * as "the tile stored transposed". */
void scan_say_layout(const Layout *l, const Tile *t, char *buf, size_t n);
/* A one-dimensional array's index i0 (rows of m->cols elements) under the
 * map, as C text; and that text, evaluated for each of its `elems`
 * elements, agrees with the layout and stays below `limit`. */
void scan_say_flat(const ScanSayMap *m, const char *i0, char *buf, size_t n);
bool scan_say_check_flat(const ScanSayMap *m, const Layout *l, const Tile *t, int64_t elems,
                         int64_t limit);

/* ---- scan_fix.c: a layout proven on the recorded addresses ------------------- */

/* Every recorded address of array a remapped under layout l of tile t
 * (the array's spec, solved) and costed again: each statement's `after`,
 * and the total (sim wavefronts, as the solve counts them). */
int64_t scan_fix_prove(const PtxModule *m, const ScanKernel *k, ScanArray *a,
                       const Geom *g, const Layout *l, const Tile *t);
/* Say layout l in the array's source: a padded declaration (pad) or its
 * subscripts rewritten, with the diff; false (form->stop says why) if it
 * cannot be said there. */
bool scan_fix_form(ScanArray *a, const Layout *l, const Tile *t, bool pad, ScanForm *form);
void scan_fix_form_free(ScanForm *f);
/* The array of a slot, or NULL. */
ScanArray *scan_array_of_slot(const ScanArrays *as, int slot);
/* The warning's array, for its message: " of 'tile' (transpose_naive)". */
void scan_fix_label(const ScanCtx *c, const ScanAcc *acc, char *buf, size_t n);
/* After a warning about accesses g[0..n): where their array is declared
 * and, the first time, its fix. */
void scan_fix_after_warning(FILE *f, const PtxModule *m, const ScanAcc **g, int n,
                            const ScanCtx *c);
/* The same for the --sarif record rec of that warning: each array's
 * declaration a related place, and the first fix with a diff as the
 * replacements --fix makes. */
void scan_fix_sarif(int rec, const ScanAcc **g, int n, const ScanCtx *c);
/* The arrays and their fixes as JSON ("arrays" of a kernel). */
struct json_t *scan_fix_json(const ScanArrays *as);
/* --fix: the fixes' diffs gathered over every kernel of a scan, one
 * diff a source file (the arrays of a line each change apply together). */
typedef struct ScanDiffs ScanDiffs;
ScanDiffs *scan_diffs_new(void);
/* Add every shown fix of as to d; on err, each array with a fix that has
 * no diff, and why.  Returns how many fixes were added. */
int scan_diffs_add(ScanDiffs *d, FILE *err, const ScanArrays *as);
/* Print d's diffs on f, in the order their files were first added (on
 * err, a fix left out because it changes text another one changes),
 * and free d.  Returns how many diffs were printed. */
int scan_diffs_print(ScanDiffs *d, FILE *f, FILE *err);


#endif
