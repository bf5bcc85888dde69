/* bankc scan's front end: reading PTX and interpreting it, thread by
 * thread, into the shared-memory accesses each thread makes.
 *
 * The folder's header, sectioned per module like bankc.h:
 *   ptx_lex.re   tokens (ptx_lex_*)
 *   ptx_read.c   kernels, functions, instructions, the module (ptx_*);
 *                its declarations (ptx_decl.c), operands (ptx_opd.c),
 *                token cursor (ptx_cursor.c), name tables (ptx_names.c)
 *                and the instructions' room (ptx_room.c) share
 *                ptx_reader.h
 *   ptx_op.c     opcode names to operations and modifiers (ptx_op_*)
 *   ptx_arith.c  integer operations of more than one C operator (arith_*)
 *   ptx_interp.c the interpreter: a thread's instructions (interp_*);
 *                its operands (ptx_regs.c), its parameters, frames and
 *                local memory (ptx_frame.c) and the snapshots of branches
 *                it cannot decide (ptx_fork.c) share ptx_interp.h
 *   ptx_sched.c  the block's threads in lockstep by barrier interval,
 *                and what they tell the consumer (InterpSink)
 * scan/ costs what the interpreter records. */
#ifndef BANKC_PTX_H
#define BANKC_PTX_H

#include "bankc.h"

enum {
	PTX_MAX_BYTES = 64 << 20,   /* a PTX file */
	PTX_MAX_OPDS = 8,           /* operands of one instruction */
	PTX_MAX_VEC = 8,            /* elements of one vector operand */
	PTX_MAX_PARAMS = 256,       /* parameters of one function */
	PTX_MAX_DEPTH = 64,         /* nested calls */
	PTX_SHARED_LIMIT = 1 << 24, /* any shared address beyond is an error */
	PTX_MAX_THREADS = 1024,
	PTX_LOCAL_LIMIT = 1 << 16,  /* .local bytes followed per thread */
	PTX_MAX_DATA = 8,           /* --data buffers */
	PTX_DATA_LIMIT = 64 << 20,  /* bytes of one --data buffer */
	PTX_MAX_FORKS = 8,          /* undecided branches explored, nested */
};

/* ---- ptx_lex.re ------------------------------------------------------------ */

typedef enum {
	PT_EOF, PT_NAME, PT_DIR, PT_INT, PT_FLOAT, PT_STRING,
	PT_LBRACE, PT_RBRACE, PT_LPAREN, PT_RPAREN, PT_LBRACK, PT_RBRACK,
	PT_COMMA, PT_SEMI, PT_COLON, PT_AT, PT_BANG, PT_PLUS, PT_MINUS,
	PT_PIPE, PT_LT, PT_GT, PT_EQ, PT_STAR, PT_SLASH, PT_TILDE, PT_AMP,
	PT_CARET, PT_PERCENT, PT_QUESTION,
} PtxTokKind;

typedef struct {
	PtxTokKind kind;
	Pos pos;
	const char *s;      /* into the source */
	size_t n;
	uint64_t num;       /* PT_INT: the value; PT_FLOAT: the bits */
} PtxTok;

typedef struct {
	Diag *d;
	const char *cur, *line0;
	int line;
} PtxLexer;

void ptx_lex_init(PtxLexer *lx, Diag *d);
PtxTok ptx_lex_next(PtxLexer *lx);
const char *ptx_tok_name(PtxTokKind k);

/* ---- ptx_op.c: what an opcode means ----------------------------------------- */

typedef enum {
	PO_OTHER,           /* unknown: its register results are unknown */
	PO_NOP,             /* barriers, fences, prefetches, commit/wait */
	PO_MOV, PO_ADD, PO_SUB, PO_ADDC, PO_SUBC, PO_MUL, PO_MAD, PO_MADC,
	PO_MUL24, PO_MAD24, PO_SAD, PO_DIV, PO_REM, PO_ABS, PO_NEG, PO_MIN,
	PO_MAX, PO_POPC, PO_CLZ, PO_BFIND, PO_BREV, PO_BFE, PO_BFI, PO_AND,
	PO_OR, PO_XOR, PO_NOT, PO_CNOT, PO_LOP3, PO_SHF, PO_SHL, PO_SHR,
	PO_PRMT, PO_SELP, PO_SLCT, PO_SETP, PO_SET, PO_CVT, PO_CVTA,
	PO_ISSPACEP, PO_SZEXT, PO_BMSK, PO_DP4A, PO_DP2A,
	PO_LD, PO_ST, PO_LDMATRIX, PO_STMATRIX, PO_CPASYNC, PO_ATOM, PO_RED,
	PO_BRA, PO_RET, PO_EXIT, PO_CALL, PO_TRAP, PO_ELECT,
	PO_SHARED_OTHER,    /* touches shared memory in a way not modelled */
	PO_COUNT
} PtxOpKind;

/* Types: size in bytes and kind.  PTX's .b/.u/.s integers, floats
 * (whose values the interpreter does not know) and .pred. */
typedef enum { TY_NONE, TY_B, TY_U, TY_S, TY_F, TY_PRED } TyKind;
typedef struct { uint8_t kind, bytes; } Ty;

typedef enum { SP_NONE, SP_GENERIC, SP_SHARED, SP_GLOBAL, SP_LOCAL,
	SP_PARAM, SP_CONST } Space;

enum {  /* PtxInst.mods */
	M_LO = 1 << 0, M_HI = 1 << 1, M_WIDE = 1 << 2, M_SAT = 1 << 3,
	M_CC = 1 << 4, M_TO = 1 << 5, M_TRANS = 1 << 6, M_WRAP = 1 << 7,
	M_CLAMP = 1 << 8, M_LEFT = 1 << 9, M_RIGHT = 1 << 10,
	M_SHIFTAMT = 1 << 11, M_UNI = 1 << 12, M_FLOATOP = 1 << 13,
	M_CAS = 1 << 14, M_BULK = 1 << 15, M_WAITOK = 1 << 16,
	M_ASYNC_SMEM = 1 << 17,     /* reaches shared memory outside the LSU, a
	                             * way bankc knows (ptx_op_async_note) */
};

typedef enum { CMP_NONE, CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE,
	CMP_LO, CMP_LS, CMP_HI, CMP_HS, CMP_FLOAT } Cmp;
typedef enum { BOOL_NONE, BOOL_AND, BOOL_OR, BOOL_XOR } BoolOp;

typedef struct {
	PtxOpKind kind;
	Ty ty, ty2;         /* type; cvt/set/slct: ty2 is the source's */
	uint32_t mods;
	Space space;
	uint8_t vec;        /* .v2/.v4/.v8: elements; else 1 */
	uint8_t nmat;       /* ldmatrix/stmatrix: its row addresses / 8 (.x1,
	                     * .x2, .x4; twice that for m16n16) */
	uint8_t xnum;       /* ... the .x1/.x2/.x4 as written */
	uint8_t mshape;     /* ... its shape, a MatShape (m8n8, m16n16, ...) */
	uint8_t cmp, boolop;
	uint8_t prmt_mode;  /* 0 default, 1 f4e, 2 b4e, 3 rc8, 4 ecl, 5 ecr, 6 rc16 */
	uint8_t atom_op;    /* an index into ptx_atom_names, for messages */
} PtxOpInfo;

/* Decode an opcode token such as "ld.shared.v4.f32"; false if it is not
 * an instruction name at all (a directive, a typo). */
bool ptx_op_decode(const char *s, size_t n, PtxOpInfo *o);
/* For an instruction decoded with M_ASYNC_SMEM: what it does to shared
 * memory, to follow the opcode in a note ("reads its operands ..."). */
const char *ptx_op_async_note(const char *s, size_t n);
extern const char *const ptx_atom_names[];

/* ---- ptx_read.c: the module ----------------------------------------------- */

typedef enum {
	OPD_NONE, OPD_REG, OPD_IMM, OPD_SYM, OPD_SPECIAL, OPD_MEM, OPD_VEC,
	OPD_SINK, OPD_LABEL, OPD_FUNC,
} OpdKind;

/* Special registers: index = SR_* * 4 + component (x, y, z, or 0). */
typedef enum {
	SR_TID, SR_NTID, SR_CTAID, SR_NCTAID, SR_LANEID, SR_WARPID, SR_NWARPID,
	SR_LANEMASK_EQ, SR_LANEMASK_LE, SR_LANEMASK_LT, SR_LANEMASK_GE,
	SR_LANEMASK_GT, SR_UNKNOWN,
} Special;

typedef struct {
	uint8_t kind;       /* OpdKind */
	bool neg;           /* !%p */
	uint8_t nvec;       /* OPD_VEC: elements */
	int32_t reg, reg2;  /* OPD_REG (reg2: the q of p|q, else -1);
	                     * OPD_MEM: base register or -1 */
	int32_t sym;        /* OPD_SYM, OPD_MEM: symbol or -1; OPD_LABEL: the
	                     * instruction; OPD_FUNC: the function;
	                     * OPD_VEC: first element in PtxModule.vec */
	int32_t special;    /* OPD_SPECIAL */
	int64_t imm;        /* OPD_IMM: value; OPD_MEM: offset */
} PtxOpd;

typedef enum { SYM_SHARED, SYM_GLOBAL, SYM_LOCAL, SYM_PARAM, SYM_FUNC }
	SymKind;

typedef struct {
	char *name;
	SymKind kind;
	Pos pos;
	int64_t size;       /* bytes; -1 for an extern array of unknown size */
	int align;
	int func;           /* declaring function, -1 at module scope */
	int64_t addr;       /* SYM_SHARED: offset in the shared window;
	                     * SYM_LOCAL: in the local window, -1 if beyond */
	/* SYM_PARAM: the formal parameter index (-1: a local .param of a call
	 * sequence, -2: the return value), and the byte offset of a local one
	 * in the frame's parameter area */
	int formal;
	int64_t poff;
	Ty ty;              /* SYM_PARAM: the declared type (.b8 for arrays) */
} PtxSym;

typedef struct {
	PtxOpInfo op;
	const char *text;   /* the opcode in the source */
	int ntext;
	int guard;          /* predicate register or -1 */
	bool guard_neg;
	uint8_t nopd;
	PtxOpd opd[PTX_MAX_OPDS];
	int func;
	Pos pos;            /* in the PTX */
	int file, line, col;    /* .loc: file id, line (0: none) */
	int ifile, iline, icol; /* .loc's inlined_at (iline 0: none) */
	int inl;            /* that inlined_at as PtxModule.inl's entry, -1: none */
	/* PO_CALL: return and argument symbols in PtxModule.vec (as OPD_SYM) */
	int call_ret, ncall_ret, call_args, ncall_args;
	int slot;           /* shared-memory instructions: their index, else -1 */
} PtxInst;

typedef struct {
	char *name;
	Pos pos;
	bool entry;
	bool defined;       /* has a body */
	int first, ninst;   /* instructions in PtxModule.inst */
	int nregs;
	Ty *regty;          /* each register's declared type */
	int params[PTX_MAX_PARAMS], nparams;    /* formal parameter symbols */
	int retval;         /* return symbol or -1 */
	int64_t psize;      /* bytes of local .param variables */
	int reqntid[3];     /* .reqntid, 0 if absent */
	int maxntid[3];     /* .maxntid (__launch_bounds__), 0 if absent */
} PtxFunc;

typedef struct {
	int id;
	char *path;
} PtxFile;

/* A position an inlined function was called from, and where that call
 * was itself inlined (parent, -1: in the function the PTX names). */
typedef struct {
	int file, line, col;
	int parent;
} PtxInline;

typedef struct {
	const Src *src;
	Pool *pool;
	PtxFunc *func;
	int nfunc;
	PtxInst *inst;
	int ninst;
	PtxSym *sym;
	int nsym;
	PtxOpd *vec;        /* vector elements, call lists */
	int nvec;
	PtxFile *file;
	int nfile;
	PtxInline *inl;     /* the inlined_at chains of .loc */
	int ninl;
	int nslots;         /* shared-memory instructions */
	int64_t shared_static;  /* bytes of static shared memory laid out */
	int64_t extern_base;    /* where extern (dynamic) shared arrays start */
	int64_t local_bytes;    /* .local variables laid out (each thread's) */
	int arch;               /* the .target as bankc's Arch, -1 if it names
	                         * none bankc knows */
} PtxModule;

/* Read a whole PTX module; errors longjmp to d->jb. */
void ptx_read(Pool *p, Diag *d, PtxModule *m);
/* The function named s (mangled), or -1. */
int ptx_find_func(const PtxModule *m, const char *s);
/* The source file of a .loc file id, or NULL. */
const char *ptx_file_path(const PtxModule *m, int id);
/* "transpose" for _Z9transposePfS_; the name itself if not mangled. */
void ptx_short_name(const char *mangled, char *buf, size_t n);
/* ptx_demangle.c: with its template arguments, "column<1>" for
 * _Z6columnILi1EEvPf (the plain name where bankc cannot tell them) */
void ptx_kernel_name(const char *mangled, char *buf, size_t n);
/* a and b equal but for spaces */
bool ptx_name_matches(const char *a, const char *b);
/* Whether kernel, or any .func, names symbol s: every kernel of a file
 * sees its extern arrays, but only one that names them gets dynamic
 * shared memory for them. */
bool ptx_names_sym(const PtxModule *m, int kernel, int s);
/* Which shared array holds address a (-1 if none). */
int ptx_shared_at(const PtxModule *m, int func, int64_t a);

/* ---- ptx_arith.c: integer operations ------------------------------------------- */

/* a CMP b, as `bytes`-byte integers, signed or not */
bool arith_cmp(int c, uint64_t a, uint64_t b, bool sgn, int bytes);
uint64_t arith_mulhi(uint64_t a, uint64_t b, bool sgn, int bytes);
uint64_t arith_bfe(uint64_t a, uint64_t b, uint64_t c, bool sgn, int bytes);
uint64_t arith_bfi(uint64_t a, uint64_t b, uint64_t c, uint64_t d, int bytes);
uint64_t arith_prmt(uint64_t a, uint64_t b, uint64_t c, int mode);
uint64_t arith_lop3(uint64_t a, uint64_t b, uint64_t c, uint64_t lut);
/* cvt between integer types (d from s), saturating if sat */
uint64_t arith_convert(uint64_t a, Ty d, Ty s, bool sat);
int arith_popcount64(uint64_t v);

/* ---- ptx_flow.c: where branches meet again -------------------------------------- */

enum { FLOW_EXIT = -1,  /* the sides meet only when the function returns */
       FLOW_NONE = -2 };/* they never meet (a side loops forever) */

/* join[i] for every conditional branch i of function f: the first
 * instruction that every path from it passes (its immediate
 * post-dominator), or FLOW_*. */
void ptx_flow_joins(const PtxModule *m, int f, int32_t *join);

/* ---- ptx_interp.c: the interpreter -------------------------------------------- */

/* A value: bits, why it is not known (0: it is), and what ptxas knows of
 * it when it compiles the kernel: the thread index and the parameters'
 * values are bankc's to know, not ptxas's, but an immediate is both, and
 * so are the low bits that a shift or a multiply by a constant clears. */
typedef struct {
	uint64_t v;
	uint32_t why;       /* 0; or 1 + parameter; or WHY_INST + instruction;
	                     * or WHY_UNSET */
	uint8_t ct;         /* low bits ptxas knows to be zero; CT_CONST: ptxas
	                     * knows the whole value */
	/* an unknown value's bounds, as an unsigned number: what the masks,
	 * shifts and sums that made it allow (a histogram's bin & 63) */
	uint64_t lo, hi;
	/* the same in every lane of a warp by construction (from immediates,
	 * the kernel's parameters, the block's and grid's sizes): what
	 * ptxas keeps in uniform registers */
	uint8_t uni;
} Val;
#define WHY_INST 0x1000u
#define WHY_UNSET 0xffffffffu   /* a register read before any write */
#define CT_CONST 255u

/* One shared-memory access of one thread. */
enum {  /* InterpRec.flags */
	REC_UNKNOWN = 1,    /* its address depends on data: within [addr, hi] */
	REC_MAYBE = 2,      /* it runs only on one side of a branch bankc
	                     * cannot decide (or under such a guard) */
	REC_UNIFORM = 4,    /* an atomic whose address and value are the same
	                     * in every lane by construction */
};
typedef struct {
	uint32_t slot;      /* PtxInst.slot */
	uint32_t occ;       /* the thread's n-th execution of it since it last
	                     * waited at a barrier (from 0) */
	uint32_t addr;
	uint8_t lane;
	uint8_t active;     /* 0: a lane ldmatrix/stmatrix does not read */
	uint8_t tz;         /* low bits of addr that ptxas knows to be zero */
	uint8_t flags;
	uint32_t hi;        /* REC_UNKNOWN: the highest address it can be */
	uint32_t why;       /* REC_UNKNOWN: the address's origin; REC_MAYBE
	                     * alone: the branch's */
} InterpRec;

/* Why a thread's path stopped before its end. */
typedef enum { STOP_NONE, STOP_UNKNOWN_ADDR, STOP_UNKNOWN_BRANCH,
	STOP_UNKNOWN_GUARD, STOP_STEPS, STOP_RECORDS, STOP_BAD_ADDR,
	STOP_DEPTH, STOP_TRAP, STOP_UNSUPPORTED, STOP_CALL, STOP_MEMORY } StopKind;

typedef struct {
	StopKind kind;
	int inst;           /* where */
	uint32_t why;       /* the unknown value's origin */
	int64_t addr;       /* STOP_BAD_ADDR */
	int call[4];        /* the calls it was in, innermost first, the
	                     * kernel's own last */
	int ncall;
} InterpStop;

typedef struct {
	int block[3];
	int grid[3];        /* %nctaid; 0 means 1 */
	int ctaid[3];       /* the block interpreted */
	int nparams;
	/* bytes 0: the whole parameter; else bytes [off, off + bytes) of it */
	struct { int index; uint64_t value; int64_t off; int bytes; } param[PTX_MAX_PARAMS];
	int64_t max_steps;      /* instructions of the whole block */
	/* --data: the contents of global buffers that pointer parameters
	 * point to (loads from them are known) */
	struct { int index; const uint8_t *bytes; size_t len; } data[PTX_MAX_DATA];
	int ndata;
} InterpOpts;

/* Where --data buffers live in the interpreter's global address space:
 * buffer k at PTX_DATA_BASE + k * PTX_DATA_STRIDE, far from the shared
 * and local windows. */
#define PTX_DATA_BASE 0x0000400000000000ull
#define PTX_DATA_STRIDE (1ull << 36)

/* ---- what the interpreter tells its consumer (ptx_sched.c) -------------------------------
 *
 * The block's threads run in lockstep by barrier interval: each runs
 * until it waits at a block barrier, has made INTERP_CHUNK accesses, or
 * ends; when every thread of the block waits or has ended, the barriers
 * that have their threads complete and those threads go on.  A consumer
 * sees, in this order:
 *
 *   access       each shared access as it is made: its thread, its
 *                record (slot, the thread's n-th execution of it in this
 *                interval, address, flags), the thread's interval (the
 *                barriers it has waited at), the instruction;
 *   warp_paused  every lane of warp w is paused, waiting or ended: a warp
 *                instruction (slot, occ) of w is whole once every lane's
 *                interp_floor(r, tid, slot) is above occ, and may be
 *                costed and dropped (scan_cost.c does);
 *   sync         a barrier, a warp's bar.warp.sync, or an mbarrier
 *                instruction met (with the thread, its ids, mask and count,
 *                and whether inside a branch bankc cannot decide);
 *   interval_end every thread waits at a barrier or has ended: what they
 *                recorded is whole (the threads that go on count their
 *                executions from 0 again); interp_waiting says who waits
 *                where (instruction, barrier, count), InterpInterval.go
 *                whom this end releases, Interp.stop why an ended thread's
 *                path stopped, if it did.
 *
 * Shared-memory correctness checks (races within an interval, barriers
 * that some threads never reach) read the same stream, as a second
 * consumer beside the costing (scan.h's ScanOpts.also): accesses carry
 * their thread, instruction (its operation: load, store, atomic; its
 * width: the byte range from the address), record and interval; a race
 * is two threads' accesses of one byte, one a write, in one interval
 * (within a warp, between bar.warp.sync events of its mask); syncs and
 * interval ends say which threads arrived at which barrier instruction
 * and how often (Interp.arrivals counts them per instruction), which
 * ended or wait at another barrier while others go on, and where the
 * block would hang (a deadlock, which the scheduler breaks by releasing
 * every waiting thread).  Named barriers order only the threads each
 * releases: a thread's interval counts its own barriers, and the releases
 * of one interval end are the threads that meet there. */

enum { INTERP_CHUNK = 4096 };   /* accesses a thread makes before the next runs */

typedef struct {
	int tid, warp, inst;
	int64_t interval;       /* the barriers its thread has waited at */
	const InterpRec *rec;
} InterpAccess;

typedef enum {
	SYNC_NONE,
	SYNC_CTA,           /* bar.sync, bar.red, barrier.sync: arrive and wait */
	SYNC_CTA_ARRIVE,    /* bar.arrive, barrier.arrive: arrive only */
	SYNC_WARP,          /* bar.warp.sync: a warp's lanes of a mask */
	SYNC_OTHER,         /* mbarrier, cluster barriers: not waited at */
} SyncKind;

typedef struct {
	SyncKind kind;
	int tid, inst;
	int id;             /* SYNC_CTA*: the barrier, 0 to 15 */
	int count;          /* SYNC_CTA*: its thread count, 0: every thread */
	uint32_t mask;      /* SYNC_WARP: its member mask */
	bool in_fork;       /* met on a side of a branch bankc cannot decide:
	                     * passed, not waited at */
	int64_t interval;
} InterpSync;

typedef struct {
	int64_t round;          /* intervals ended so far in this group */
	int first_tid, ntids;   /* the threads run together (the block, or a
	                         * group of its warps: INTERP_STATE_BUDGET) */
	int waiting, ended;     /* threads waiting at barriers, ended */
	int released;           /* threads whose barrier completed */
	bool deadlock;          /* no barrier could complete: every waiting
	                         * thread was released (the block would hang) */
	/* per thread of the group (tid - first_tid): released now; one that
	 * neither waits (interp_waiting) nor is released has ended, its path
	 * stopped where Interp.stop says (NULL where none waits) */
	const bool *go;
} InterpInterval;

typedef struct {
	void *ctx;
	void (*access)(void *ctx, const InterpAccess *a);
	void (*warp_paused)(void *ctx, int warp);
	void (*sync)(void *ctx, const InterpSync *s);
	void (*interval_end)(void *ctx, const InterpInterval *iv);
} InterpSink;

struct Thread;
struct SnapBufs;

/* A thread's arrival at barrier id, of count threads (0: every one). */
typedef struct {
	int tid, id, count;
	int64_t seq;
} InterpArrival;

typedef struct {
	const PtxModule *m;
	int kernel;
	const InterpOpts *o;
	const InterpSink *sink;
	int nthreads;
	int64_t steps_per_thread;
	int64_t steps;          /* interpreted so far, all threads */
	InterpStop *stop;       /* per thread: why its path stopped, if it did */
	struct Thread **thread; /* per thread, while it runs */
	int64_t live_bytes;     /* the running threads' registers, memory */
	int64_t peak_bytes;
	int group_warps;        /* warps run together */
	bool *noted;            /* per instruction: an unmodelled note given */
	int64_t unmodelled;     /* executions of PO_SHARED_OTHER */
	/* the kernel's parameters as every thread starts with them */
	int64_t kparams;
	uint8_t *kpv;
	uint32_t *kpw;
	/* per instruction: where the two sides of a branch there meet again
	 * (ptx_flow.c, FLOW_*), filled per function the first time one of
	 * its branches is undecided */
	int32_t *join;
	bool *flow_done;        /* per function */
	/* per instruction: an undecided branch met there, how (FORK_*), how
	 * often, and why undecided (the first thread's) */
	uint8_t *fork_kind;
	int32_t *fork_threads;
	uint32_t *fork_why;
	/* per instruction: a global load whose address came from kernel
	 * parameter load_from[i] - 1 (0: none), and whether past --data's end */
	int16_t *load_from;
	uint8_t *load_past;
	uint8_t *sync;          /* per instruction: its SyncKind (0: none) */
	int64_t *arrivals;      /* per instruction: threads that waited there */
	/* arrive-only arrivals (bar.arrive) not yet counted, in order */
	InterpArrival *pending;
	int npending, cappending;
	int64_t seq;            /* arrivals so far */
	/* the registers and parameter bytes of the last thread that ended,
	 * for the next to start with (deep calls need not grow them again) */
	Val *spare_stack;
	size_t spare_cap;
	uint8_t *spare_pv;
	uint32_t *spare_pw;
	size_t spare_pcap;
	/* the buffers of snapshots freed (ptx_fork.c), for the next ones */
	struct SnapBufs *spare;
	int nspare;
	/* interp_thread's records (a thread run alone) */
	InterpRec *rec;
	size_t nrec, caprec;
} Interp;

enum {  /* Interp.fork_kind */
	FORK_JOIN = 1,      /* both sides run, registers they wrote unknown after */
	FORK_LOOP = 2,      /* a loop's test: its body counted once */
	FORK_SIDES = 4,     /* a side touched shared memory: its records maybe */
	FORK_DEEP = 8,      /* nested past PTX_MAX_FORKS: the path stopped */
};

void interp_init(Interp *r, const PtxModule *m, int kernel, const InterpOpts *o);
void interp_free(Interp *r);

/* ---- ptx_sched.c: the block's threads in lockstep ------------------------------------------ */

/* Registers, parameters, local memory and counts that the threads run
 * together may hold: a block whose threads need more runs in groups of
 * whole warps, one group after the other (barriers complete within a
 * group); a thread whose calls would take the live threads past
 * INTERP_STATE_CAP stops (STOP_MEMORY). */
#define INTERP_STATE_BUDGET ((int64_t)192 << 20)
#define INTERP_STATE_CAP ((int64_t)448 << 20)

/* Run every thread of the block, telling sink; r->stop[tid] says where a
 * thread's path stopped.  Deterministic: the same events in the same
 * order on every run. */
void interp_run(Interp *r, const InterpSink *sink);
/* Thread tid alone, its records appended to r->rec (lane = tid % 32):
 * false with *stop if its path stopped. */
bool interp_thread(Interp *r, int tid, InterpStop *stop);
/* Thread tid alone, told to no one: the instructions it ran (up to its
 * share of --max-steps; st->kind STOP_STEPS if it needed more). */
int64_t interp_thread_steps(Interp *r, int tid, InterpStop *st);
/* The least n of a warp instruction (slot, n) that thread tid may still
 * join: its count of executions of slot in this interval; UINT32_MAX
 * when it waits at a barrier, has ended, or does not run now. */
uint32_t interp_floor(const Interp *r, int tid, int slot);
/* Whether thread tid waits at a barrier now: its instruction, barrier
 * and count (0: every thread). */
bool interp_waiting(const Interp *r, int tid, int *inst, int *id, int *count);

#endif
