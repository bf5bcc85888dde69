/* bankc: a compiler for GPU shared-memory tile layouts.
 *
 * The one internal header, sectioned per module (chibicc style).  Each
 * module's exported names carry its prefix: pool_, diag_, lex_, parse_,
 * check_, expr_, dump_, sim_, tab_. */
#ifndef BANKC_H
#define BANKC_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define BANKC_VERSION "0.1.0"
#define WARP 32

/* Limits the front end enforces, each with its own error. */
enum {
	MAX_DIM = 1 << 16,          /* rows or cols of one tile */
	MAX_STAGES = 64,
	MAX_ACCESSES = 64,          /* per tile */
	MAX_LOOPS = 8,              /* loop variables of one access */
	MAX_INSTS = 1 << 16,        /* warp instructions of one access */
	MAX_TILE_INSTS = 1 << 18,   /* ... of one tile */
	MAX_FILE_INSTS = 1 << 19,   /* ... of one file */
	MAX_EXPR_DEPTH = 64,        /* parentheses and unary operators nested */
	MAX_EXPR_NODES = 1024,      /* numbers, names and operators of one */
	MAX_NUMBER = 0x7fffffff,    /* any literal in a spec */
};
/* The most instruction simulations a search may need before pruning. */
#define SOLVE_WORK_LIMIT 1000000000.0

/* ---- pool.c: allocation that is freed all at once ----------------------- */

typedef struct Pool Pool;
Pool *pool_new(void);
void pool_free(Pool *p);
void *pool_alloc(Pool *p, size_t n);          /* zeroed; aborts on OOM */
char *pool_strndup(Pool *p, const char *s, size_t n);

/* ---- diag.c: diagnostics with source line and caret ---------------------- */

typedef struct {
	const char *name;   /* file name as given on the command line */
	const char *text;   /* contents, NUL-terminated copy */
	size_t len;         /* bytes, not counting the terminator */
} Src;

typedef struct {
	int line, col;      /* 1-based; col counts bytes */
	size_t off;         /* byte offset into Src.text */
} Pos;

/* Where an error goes: the front end longjmps back to its caller. */
typedef struct {
	const Src *src;
	FILE *out;          /* diagnostics stream (stderr in the CLI) */
	jmp_buf jb;
	int errors;
} Diag;

_Noreturn void diag_error(Diag *d, Pos p, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void diag_note(Diag *d, Pos p, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* An error found after the front end, in the same form; no jump. */
void diag_report(FILE *out, const Src *src, Pos p, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* ---- lex.re: tokens ------------------------------------------------------ */

typedef enum {
	T_EOF, T_IDENT, T_NUM,
	T_LBRACE, T_RBRACE, T_LPAREN, T_RPAREN, T_SEMI, T_COLON, T_COMMA,
	T_ASSIGN, T_DOTDOT,
	T_PLUS, T_MINUS, T_STAR, T_SLASH, T_PERCENT, T_SHL, T_SHR,
	T_AMP, T_CARET, T_PIPE, T_TILDE,
	T_LT, T_LE, T_GT, T_GE, T_EQ, T_NE,
} TokKind;

typedef struct {
	TokKind kind;
	Pos pos;
	const char *s;      /* points into the source */
	size_t n;
	int64_t num;        /* T_NUM */
} Tok;

typedef struct {
	Diag *d;
	const char *cur;    /* next byte */
	const char *line0;  /* start of the current line */
	int line;
} Lexer;

void lex_init(Lexer *lx, Diag *d);
Tok lex_next(Lexer *lx);
const char *lex_kind_name(TokKind k);

/* ---- expr.c: integer expressions over lane and loop variables ------------- */

typedef enum { E_NUM, E_VAR, E_NEG, E_NOT, E_BIN } ExprKind;

typedef struct Expr Expr;
struct Expr {
	ExprKind kind;
	TokKind op;         /* E_BIN: the operator token */
	Pos pos;            /* the operator, number or name */
	int64_t num;        /* E_NUM */
	int var;            /* E_VAR: 0 = lane, 1.. = loop variables */
	Expr *l, *r;
};

/* Evaluate with every intermediate checked for overflow, division by zero
 * and bad shifts; on failure *err names the fault and *at where. */
bool expr_eval(const Expr *e, const int64_t *vars, int64_t *out,
               const char **err, Pos *at);
int expr_prec(TokKind k);
/* Print with the fewest parentheses that parse back to the same tree. */
void expr_print(FILE *f, const Expr *e, char *const *names);

/* ---- tables.c: dtypes, arches, ops --------------------------------------- */

typedef enum {
	DT_F16, DT_BF16, DT_F32, DT_F64, DT_TF32, DT_I8, DT_U8, DT_I16, DT_I32,
	DT_I64, DT_FP8E4M3, DT_FP8E5M2, DT_COUNT
} Dtype;

typedef struct {
	const char *name;
	int bytes;
	const char *ctype;  /* C type of the same size, for emitted code */
} DtypeInfo;

typedef enum { ARCH_SM70, ARCH_SM75, ARCH_SM80, ARCH_SM86, ARCH_SM89,
	ARCH_SM90, ARCH_COUNT } Arch;

typedef struct {
	const char *name;
	int cc;                     /* compute capability x 10 */
	int smem_block;             /* largest opt-in shared memory per block */
	int smem_sm;                /* shared memory per SM */
	int smem_reserved;          /* reserved by the system per block */
	int threads_sm;             /* resident threads per SM */
	int blocks_sm;              /* resident blocks per SM */
} ArchInfo;

typedef enum { OP_LOAD, OP_STORE, OP_LDMATRIX, OP_STMATRIX, OP_CPASYNC } OpKind;

typedef struct {
	OpKind kind;
	int nmat;           /* ldmatrix/stmatrix: 1, 2 or 4 */
	bool trans;
} Op;

extern const DtypeInfo tab_dtype[DT_COUNT];
extern const ArchInfo tab_arch[ARCH_COUNT];
int tab_find_dtype(const char *s, size_t n);   /* -1 if unknown */
int tab_find_arch(const char *s, size_t n);
bool tab_parse_op(const char *s, size_t n, Op *op);
void tab_op_name(Op op, char *buf, size_t n);
bool op_is_load(Op op);     /* reads shared memory (load, ldmatrix) */
bool op_is_matrix(Op op);
int op_lanes(Op op);        /* lanes that carry an address: 8*nmat or 32 */
int op_min_cc(Op op);       /* first compute capability that has it */

/* ---- the checked tile: the spine of the compiler -------------------------- */

enum { XF_PAD = 1, XF_SKEW = 2, XF_SWAP = 4, XF_SWIZZLE = 8,
	XF_ALL = 15 };

typedef enum { PL_ROW, PL_COL, PL_GENERAL } Placement;

typedef struct {
	char *name;
	Pos pos;
	int64_t lo, hi;     /* half-open range */
} Loop;

typedef struct { int32_t row, col; } Coord;

/* One warp instruction: each active lane's first element. */
typedef struct {
	uint32_t mask;
	Coord lane[WARP];
} Inst;

typedef struct {
	char *name;
	Pos pos;
	Op op;
	Pos op_pos;
	int vec;            /* elements per lane (per row address for ldmatrix) */
	Pos vec_pos;
	bool vec_given;
	int64_t weight;
	Placement place;
	Loop loops[MAX_LOOPS];
	int nloops;
	Expr *row, *col, *active;   /* PL_GENERAL; active may be NULL */
	Pos weight_pos;
	/* filled by the checker */
	Inst *inst;
	int ninst;
} Access;

/* Tile keys, for "given twice" and "missing" errors. */
typedef enum { K_SHAPE, K_STAGES, K_DTYPE, K_ARCH, K_ALLOW, K_BUDGET, K_ALIGN,
	K_TMA, K_THREADS, K_TRADEOFF, K_COUNT } TileKey;

typedef struct {
	char *name;
	Pos pos;
	Pos end;            /* the closing brace */
	Pos key[K_COUNT];   /* where each key was given */
	unsigned given;     /* 1 << TileKey */
	int rows, cols, stages;
	Dtype dtype;
	Arch arch;
	unsigned allow;     /* XF_* */
	int64_t budget;     /* footprint limit in bytes; 0 = the arch's */
	int align;          /* base alignment in bytes */
	bool tma;
	int threads;        /* block threads for occupancy; 0 = unknown */
	int64_t tradeoff;   /* bytes worth one weighted wavefront; 0 = none:
	                     * wavefronts first, then bytes, then arithmetic */
	Access *acc;
	int nacc;
} Tile;

typedef struct {
	const Src *src;
	Tile *tiles;
	int ntiles;
} Unit;

/* ---- parse.c / check.c: the front end ------------------------------------ */

/* Parse a whole file into u (allocating from p); errors longjmp to d->jb. */
void parse_unit(Pool *p, Diag *d, Unit *u);
/* Check every tile and expand each access into warp instructions. */
void check_unit(Pool *p, Diag *d, Unit *u);
int64_t tile_elem_bytes(const Tile *t);
int64_t tile_bytes(const Tile *t);      /* row-major, all stages */

/* Read FILE and run parse + check; returns false (diagnostics printed) on
 * error.  src->text is malloc'ed; free with src_free. */
bool frontend_file(const char *path, Pool *p, FILE *diag, Src *src, Unit *u);
void src_free(Src *s);
/* frontend_file for each of n files; true if all are good. */
bool frontend_files(char **paths, int n, Pool *p, FILE *diag, Src *src,
                    Unit *u);
/* Parse and check src, whose text must end in a NUL at text[len]. */
bool frontend_run(Pool *p, FILE *diag, const Src *src, Unit *u);

/* ---- dump.c: canonical text and JSON ------------------------------------- */

void dump_text(FILE *f, const Unit *u);
void dump_json(FILE *f, const Unit *u);
struct json_t;
struct json_t *dump_tile_json(const Tile *t);

/* ---- sim.c: the bank model ------------------------------------------------ */

typedef struct {
	int banks;          /* 32 */
	int bank_bytes;     /* 4, or 8 for Kepler's 8-byte mode */
	bool merge_loads;   /* rule 4: broadcast pairs merge load phases */
} Geom;

enum { SIM_MAX_PHASES = 32 };

typedef struct {
	uint32_t lanes;     /* lanes served in this phase */
	int wavefronts;
	int ideal;          /* 1 if any lane active, else 0 */
	int bank;           /* a bank that needs `wavefronts` words; -1 if none */
} Phase;

typedef struct {
	int wavefronts, ideal;
	int counted;        /* what the wavefront counters show (cp.async: 0) */
	int nphase;
	Phase phase[SIM_MAX_PHASES];
	bool merged;        /* rule 4 applied */
} SimResult;

extern const Geom sim_geom_default;
/* One warp instruction.  `bytes` is bytes per lane (16 for a matrix row
 * address); addr[i] is lane i's byte address, ignored where mask bit i is
 * clear.  Returns false (with *err) when the pattern cannot happen. */
bool sim_inst(const Geom *g, Op op, int bytes, uint32_t mask,
              const int64_t addr[WARP], SimResult *r, const char **err);

/* A row of a pattern table (simcli.c): name op width mask offsets
 * [wavefronts], tab-separated, as tests/data/sm90_wavefronts.tsv. */
typedef struct {
	const char *name;
	Op op;
	int width;
	uint32_t mask;
	int64_t addr[WARP];
	long measured;      /* -1 if the row has none */
} SimRow;

/* Parse one line (changed in place): 0 a row, 1 nothing (blank, comment,
 * header), -1 malformed (*err says why). */
int sim_parse_row(char *line, size_t len, SimRow *row, const char **err);

/* ---- layout.c: where a logical element lives ------------------------------ */

/* The layouts of design.md.  Every kind may be combined with an axis swap,
 * which stores (c, r) in a cols x rows tile. */
typedef enum {
	L_ROWMAJOR,         /* offset = r * pitch + c, pitch = cols */
	L_PAD,              /* the same with pitch = cols + pad */
	L_SKEW,             /* chunk (c / gran + skew * r) mod (cols / gran) */
	L_SWIZZLE,          /* CuTe Swizzle<B,M,S> on the byte offset */
	L_XOR,              /* chunk c / gran XOR a GF(2)-linear map of r */
} LayoutKind;

enum { MAX_XOR_BITS = 16 };

typedef struct {
	LayoutKind kind;
	bool swap;
	int srows, scols;   /* the stored shape (cols x rows when swapped) */
	int pitch;          /* elements per stored row */
	int gran;           /* L_SKEW, L_XOR: elements per chunk */
	int skew;           /* L_SKEW: chunks of rotation per row */
	int B, M, S;        /* L_SWIZZLE */
	int nx;             /* L_XOR: row bits that feed the map */
	uint32_t x[MAX_XOR_BITS];   /* L_XOR: chunk mask of row bit i */
} Layout;

Layout layout_rowmajor(const Tile *t);
bool layout_same(const Layout *a, const Layout *b);
/* The empty layout of a kind over t, swapped or not; fill in its
 * parameters, then layout_legal tells whether it may be used. */
Layout layout_base(const Tile *t, LayoutKind kind, bool swap);
/* Bytes of one stage, and of all stages (each stage aligned). */
int64_t layout_stage_bytes(const Layout *l, const Tile *t);
int64_t layout_bytes(const Layout *l, const Tile *t);
/* Extra integer operations per index beyond r * pitch + c. */
int layout_arith(const Layout *l);
/* "pad +4 (pitch 36)", "swizzle<3,4,3>", ... */
void layout_describe(const Layout *l, const Tile *t, char *buf, size_t n);
const char *layout_kind_name(const Layout *l);
struct json_t *layout_params_json(const Layout *l, const Tile *t);
/* Largest vector of any access of t, in bytes: the granule every legal
 * layout keeps contiguous and aligned. */
int tile_granule(const Tile *t);
/* May l hold t: vectors contiguous and aligned, a bijection onto the
 * footprint, within `budget` bytes, allowed by the spec? */
bool layout_legal(const Layout *l, const Tile *t, int64_t budget,
                  const char **why);
int64_t layout_offset(const Layout *l, const Tile *t, int r, int c);
/* Byte address of each lane of one instruction under layout l. */
void layout_inst_addrs(const Layout *l, const Tile *t, const Inst *in,
                       int64_t addr[WARP]);
/* Simulate one instruction of access a under layout l. */
void layout_sim_inst(const Geom *g, const Layout *l, const Tile *t,
                     const Access *a, const Inst *in, SimResult *r);

/* ---- solve.c: the layout search ------------------------------------------- */

typedef struct {
	Layout l;
	int64_t wave;                   /* weighted wavefronts, all accesses */
	int64_t acc_wave[MAX_ACCESSES]; /* each access's, unweighted */
	int64_t bytes;                  /* footprint, all stages */
	int arith;
	int blocks;                     /* resident blocks per SM */
	long order;                     /* enumeration order: the last tie-break */
} Cand;

typedef struct {
	int top;            /* candidates kept in the ranking (at least 1) */
	bool exhaustive;    /* no pruning at all (for tests) */
} SolveOpts;

typedef struct {
	int64_t lower_bound;            /* weighted sum of ideal wavefronts */
	int64_t aligned_bound;          /* the same, knowing granule alignment */
	int64_t acc_ideal[MAX_ACCESSES], acc_bound[MAX_ACCESSES];
	int *inst_bound[MAX_ACCESSES];  /* each instruction's aligned bound */
	int *inst_order[MAX_ACCESSES];  /* the order instructions are costed */
	int acc_order[MAX_ACCESSES];    /* costed most-conflicted first */
	int64_t budget;
	bool found;
	Cand best;
	Cand *top;                      /* the ranking, best first */
	int ntop;
	long evaluated, cut, illegal;   /* candidates costed, cut short, refused */
	bool xor_full;                  /* every xor map was searched */
	int xor_bits;                   /* row bits the xor maps used */
	int blocks_rowmajor;
} Solution;

void solve_tile(const Tile *t, const Geom *g, const SolveOpts *o,
                Solution *s);
void solve_free(Solution *s);
/* Is the search of t small enough to run (at most SOLVE_WORK_LIMIT
 * instruction simulations without pruning)?  If not, says so on `diag`,
 * in the form of a compiler error at the tile, with how to narrow it. */
bool solve_feasible(const Tile *t, const Src *src, const Geom *g, FILE *diag);
/* solve_feasible for every tile of n units; true if all are. */
bool solve_feasible_all(const Unit *u, const Src *src, int n, const Geom *g,
                        FILE *diag);
int solve_blocks(const Tile *t, int64_t bytes);   /* resident blocks per SM */
/* Cost one layout fully (no pruning). */
void solve_cost(const Tile *t, const Geom *g, const Layout *l, Cand *c);

/* ---- baseline.c: what other systems would choose -------------------------- */

enum { MAX_BASELINES = 4 };

typedef struct {
	const char *name;   /* "row-major", "pad by one", "CuTe", "Triton" */
	char note[128];     /* its parameters, or why it cannot hold the tile */
	bool legal;
	Cand c;
} Baseline;

int baseline_all(const Tile *t, const Geom *g, int64_t budget,
                 Baseline out[MAX_BASELINES]);

/* ---- emit_*.c: the outputs of bankc build --------------------------------- */

void emit_upper(char *dst, size_t n, const char *s);
/* NAME.cuh; `spec` names the spec file in its comment. */
void emit_header(FILE *f, const Tile *t, const Solution *s, const char *spec);
void emit_check(FILE *f, const Geom *g, const Tile *t,
                const Solution *s);                      /* NAME_check.cu */
void emit_svg(FILE *f, const Geom *g, const Tile *t,
              const Solution *s);                        /* NAME.svg */

/* ---- the command line (main.c, simcli.c, explain.c) ---------------------- */

int cli_usage_error(const char *fmt, const char *arg);
/* Parse --banks/--bank-bytes/--no-merge at argv[*i]; true if it was one. */
bool cli_geom_option(int argc, char **argv, int *i, Geom *g, int *rc);
int cmd_sim(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_build(int argc, char **argv);
int cmd_scan(int argc, char **argv);      /* compiler/ptx/scan_cli.c */
struct json_t *compare_tile_json(const Tile *t, const Solution *s,
                                 const Baseline *b, int nb);

#endif
