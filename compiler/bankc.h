/* bankc: a compiler for GPU shared-memory tile layouts.
 *
 * What the stages share (docs/architecture.md), sectioned by the file
 * that defines it, bottom stage first: the base, the vocabulary, the
 * checked tile the front end makes, the model, the solver's result and
 * the emitters.  What only one stage uses is in that stage's own header
 * (front/front.h, model/model.h, solve/solve.h, emit/emit.h, cmd/cmd.h);
 * the PTX path has ptx/ptx.h and scan/scan.h.  Exported names carry
 * their module's prefix: pool_, diag_, tab_, tile_, frontend_, dump_,
 * sim_, layout_, wgmma_, solve_, baseline_, emit_, report_, outs_. */
#ifndef BANKC_H
#define BANKC_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define BANKC_VERSION "0.1.0"
/* The version of the JSON documents' layout (docs/json.md), in each as
 * "schema": raised when a field changes meaning or goes away. */
#define BANKC_JSON_SCHEMA 1
#define WARP 32

/* Limits the front end enforces, each with its own error. */
enum {
	MAX_DIM = 1 << 16,          /* rows or cols of one tile */
	MAX_LEN = 1 << 18,          /* elements of a one-dimensional tile */
	MAX_STAGES = 64,
	MAX_ACCESSES = 64,          /* per tile */
	MAX_LOOPS = 8,              /* loop variables of one access */
	MAX_INSTS = 1 << 16,        /* warp instructions of one access */
	MAX_TILE_INSTS = 1 << 18,   /* ... of one tile */
	MAX_FILE_INSTS = 1 << 19,   /* ... of one file */
	MAX_EXPR_DEPTH = 64,        /* parentheses and unary operators nested */
	MAX_EXPR_NODES = 1024,      /* numbers, names and operators of one */
	MAX_EVAL_WORK = 1 << 24,    /* per file: warp instructions times the
	                             * size of their expressions */
	MAX_NUMBER = 0x7fffffff,    /* any literal in a spec */
	MAX_NAME = 128,             /* characters of a tile, access or variable
	                             * name (outputs are named after tiles) */
};

/* The weights of a tile's warp instructions (the access's weight times
 * the instruction's) sum to at most this: weighted wavefronts (at most
 * 128 an instruction) then stay far inside 64 bits. */
#define MAX_TILE_WEIGHT ((int64_t)1 << 40)

/* ---- small integer helpers --------------------------------------------- */

static inline bool is_pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }
static inline int gcd_int(int a, int b)
{
	while (b) {
		int r = a % b;
		a = b;
		b = r;
	}
	return a;
}
/* The least k with 2^k >= v (0 for v <= 1), and the greatest with
 * 2^k <= v (0 for v <= 1). */
static inline int log2_ceil(int64_t v)
{
	int k = 0;
	while ((1LL << k) < v)
		k++;
	return k;
}
static inline int log2_floor(int64_t v)
{
	int k = 0;
	while ((2LL << k) <= v)
		k++;
	return k;
}

/* ---- base/pool.c: allocation that is freed all at once ---------------- */

typedef struct Pool Pool;
Pool *pool_new(void);
void pool_free(Pool *p);
void *pool_alloc(Pool *p, size_t n);          /* zeroed */
char *pool_strndup(Pool *p, const char *s, size_t n);

/* ---- base/xalloc.c: the out-of-memory policy -------------------------- */

/* Allocation that never returns NULL: on failure (or a size that
 * overflows) "bankc: error: out of memory" and status 1. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
FILE *xmemstream(char **buf, size_t *len);      /* open_memstream */

/* ---- base/diag.c: diagnostics with source line and caret -------------- */

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
	bool stopped;       /* -fmax-errors reached: no more recovery */
	const char *rule;   /* --sarif ruleId of its errors; NULL: spec-error */
} Diag;

_Noreturn void diag_error(Diag *d, Pos p, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* An error found after the front end, in the same form; no jump. */
void diag_report(FILE *out, const Src *src, Pos p, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The same under a --sarif ruleId of its own ("build-gate", ...). */
void diag_report_rule(FILE *out, const Src *src, Pos p, const char *rule,
                      const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* A warning in the same form, ending with its [-WNAME]; nothing where
 * -Wno-NAME turned it off.  (DiagFlag: base/diag_style.c.) */
void diag_warn(FILE *out, const Src *src, Pos p, int flag, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* A line of text p[0..n) under a diagnostic, with a caret under byte at
 * ((size_t)-1: none): escaped for the terminal, cut around the caret. */
void diag_show_text(FILE *f, const char *p, size_t n, size_t at);
/* An error that needs no recovery (the text around it is whole): counted,
 * no jump unless it reaches -fmax-errors. */
void diag_error_cont(Diag *d, Pos p, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- base/diag_style.c: colour, the error limit, the --sarif record ---- */

typedef enum { DIAG_COLOR_AUTO, DIAG_COLOR_ALWAYS, DIAG_COLOR_NEVER } DiagColor;
typedef enum { DK_ERROR, DK_WARNING, DK_NOTE } DiagKind;
typedef struct {
	DiagColor color;    /* -fdiagnostics-color=auto|always|never */
	int max_errors;     /* per file; 0 = no limit (-fmax-errors=N) */
	bool record;        /* keep every diagnostic, for --sarif */
	bool record_accepted;   /* and the warnings a user accepted, not
	                         * printed (--sarif-suppressed) */
	uint32_t wno;       /* warnings turned off: 1 << DiagFlag (-Wno-NAME) */
} DiagOptions;
/* The warnings a -Wno-NAME turns off (gcc's spelling), each its --sarif
 * rule; diag_flag_name names them. */
typedef enum { DW_BANK_CONFLICT, DW_CP_ASYNC, DW_OUTSIDE, DW_DATA, DW_UNPROVEN,
	DW_SHARED_RACE, DW_SHARED_BOUNDS, DW_SHARED_ALIGN, DW_BARRIER, DW_COUNT } DiagFlag;
const char *diag_flag_name(DiagFlag f);
/* -W NAME or -W no-NAME (the text after -W): true if NAME is a warning's;
 * sets diag_options.wno. */
bool diag_flag_option(const char *arg);
bool diag_flag_on(DiagFlag f);
/* The flag of a --sarif rule, or -1. */
int diag_flag_of_rule(const char *rule);
extern DiagOptions diag_options;
/* Whether diagnostics written to f are coloured (auto: a terminal, no
 * NO_COLOR, TERM not dumb). */
bool diag_colored(FILE *f);
/* "LOCUS: KIND: ", coloured as gcc colours it where diag_colored. */
void diag_head(FILE *f, const char *locus, DiagKind k);
void diag_caret(FILE *f);       /* "^" and a line break */
char *diag_format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *diag_vformat(const char *fmt, va_list ap);
/* ---- base/diag_record.c: every diagnostic kept for --sarif ------------ */

/* A place in a file: columns count bytes from 1 (0: unknown); cp_col is
 * the same column in code points where the line's text was seen (0: not
 * seen), which is what the SARIF log says. */
typedef struct {
	char *file;
	int line, col, cp_col;
	char *msg;          /* a related place's message, or NULL */
} DiagPlace;
/* A fix's replacement: [line:col, end_line:end_col) (code points from 1,
 * the end excluded) replaced by text. */
typedef struct {
	int line, col, end_line, end_col;
	char *text;
} DiagRepl;
typedef enum { DS_NONE, DS_IN_SOURCE, DS_EXTERNAL } DiagSuppress;
typedef struct {
	DiagKind kind;
	const char *rule;   /* a static string */
	DiagPlace at;
	char *msg;
	uint64_t hash;      /* of what the result is about: its line's text
	                     * and key (diag_record_about); the log adds its
	                     * rule and file */
	DiagPlace *related;
	int nrelated;
	char *fix;          /* the fix's description, or NULL */
	char *fix_file;
	DiagRepl *repl;
	int nrepl;
	DiagSuppress suppressed;
	char *justification;
} DiagRecord;
/* Keep one diagnostic for --sarif (only while diag_options.record):
 * its index, for the calls below, or -1 when nothing is kept. */
int diag_log(DiagKind k, const char *rule, const char *file, int line,
             int col, const char *msg);
/* What record r is about, for its fingerprint: the text of its line
 * (text[0..n), NULL if not read: its column is then said in code points
 * only where it is 1) and a key (a kernel, an array; NULL: none). */
void diag_record_about(int r, const char *text, size_t n, const char *key);
/* A related place of record r, at byte column col of the line text[0..n)
 * (NULL: not read). */
void diag_record_related(int r, const char *file, int line, int col, const char *text,
                         size_t n, const char *msg);
/* Record r's fix: a description, then each replacement in file. */
void diag_record_fix(int r, const char *desc, const char *file);
void diag_record_repl(int r, int line, int col, int end_line, int end_col,
                      const char *text);
/* Record r was accepted (its warning not printed), and why. */
void diag_record_suppress(int r, DiagSuppress how, const char *justification);
/* Code points in the first col - 1 bytes of text[0..n), plus 1: a byte
 * column as a code-point column (a malformed byte counts one, as its
 * U+FFFD does). */
int diag_cp_col(const char *text, size_t n, int col);
/* FNV-1a of the string s (and its NUL) after h (0: from the start). */
uint64_t diag_hash(uint64_t h, const char *s);
const DiagRecord *diag_records(int *n);
void diag_records_free(void);

/* A broken invariant (a bug of bankc's, not the input's): the message,
 * then abort for the core dump. */
_Noreturn void internal_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* Edit distance, for did-you-mean hints (diag.c); 99 for long words. */
int text_distance(const char *a, size_t na, const char *b);

/* ---- base/readfile.c: an input read whole ----------------------------- */

/* Read path ("-": standard input) into s, its text malloc'ed and
 * NUL-terminated; false, with a message on diag naming the file as name
 * (NULL: as path), if it cannot be read or is larger than limit bytes.
 * s->name is name, or "<stdin>". */
bool read_file(const char *path, const char *name, size_t limit, FILE *diag,
               Src *s);
void src_free(Src *s);

/* ---- base/files_used.c: the files a command read or wrote ------------- */

/* Note the regular file open on fd, or at path (if it exists now). */
void files_used_fd(int fd);
void files_used_path(const char *path);
/* Whether path is one of the files noted (the same device and inode). */
bool files_used_has(const char *path);

/* ---- base/escape.c: user text inside generated files ------------------ */

/* s with no line break, no comment opener or closer, no trailing
 * backslash: printable ASCII kept, the backslash, other bytes and the
 * slash of a star-slash pair as \xNN (escape.c says why). */
void esc_text(FILE *f, const char *s);
char *esc_text_dup(const char *s);              /* malloc'ed */
/* esc_text's output back to the bytes; NULL if it is not such output. */
char *esc_decode(const char *s);
/* s as UTF-8: each byte of a malformed sequence becomes U+FFFD. */
char *esc_utf8(const char *s);
/* The length of the well-formed UTF-8 sequence at p (NUL-terminated), 0
 * if none. */
int esc_utf8_len(const unsigned char *p);
/* s as a terminal shows it as it is, and valid UTF-8: each byte that is
 * a control (below 0x20, 0x7f), part of a C1 control (U+0080..U+009F)
 * or not part of valid UTF-8 as \xNN (a backslash stays one); into buf
 * of n bytes, cut at a whole character; returns buf.  esc_term_dup:
 * malloc'ed, whole.  esc_term_clean: nothing to escape.  esc_term_len:
 * the length of the clean character at s, 0 if it is to be escaped. */
char *esc_term(const char *s, char *buf, size_t n);
char *esc_term_dup(const char *s);
/* esc_term into one of four static buffers (cut at 4 KiB): a name in a
 * message printed at once. */
const char *esc_shown(const char *s);
bool esc_term_clean(const char *s);
int esc_term_len(const unsigned char *s);

/* ---- base/textwrap.c: text that fits a terminal ----------------------- */

/* The columns the commands' text output fits (compare, explain). */
enum { TEXT_W = 100 };

/* text and a newline on out, broken at spaces so that no line passes width
 * columns where a break exists (a longer word is kept whole, and so is
 * a [bracketed] group, as an option of a usage line); the first
 * line starts at column col (what is already printed), the others after
 * indent spaces.  text_wrapf formats text first. */
void text_wrap(FILE *out, const char *text, int col, int width, int indent);
void text_wrapf(FILE *out, int col, int width, int indent, const char *fmt,
                ...) __attribute__((format(printf, 5, 6)));
/* "s" where a count n takes a plural noun, else "". */
const char *text_plural(int64_t n);
/* snprintf into buf where a text too long for it is cut: for messages
 * built from names and expressions of any length. */
void text_put(char *buf, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- base/tmpfile.c: a temporary beside its target ------------------- */

/* A new file named PATH.tmp.XXXXXX (its name in tmp, n bytes) open for
 * writing, made with O_EXCL; NULL (errno set) if it cannot be made. */
FILE *tmp_beside(const char *path, char *tmp, size_t n);

/* ---- base/tables.c: element types, targets, operations ---------------- */

typedef enum {
	DT_F16, DT_BF16, DT_F32, DT_F64, DT_TF32, DT_I8, DT_U8, DT_I16, DT_I32,
	DT_I64, DT_FP8E4M3, DT_FP8E5M2, DT_U16, DT_U32, DT_U64,
	DT_FP6E2M3, DT_FP6E3M2, DT_FP4E2M1, DT_I4, DT_U4, DT_COUNT
} Dtype;

typedef struct {
	const char *name;
	int bytes;          /* 1 for the sub-byte types, whose tiles count bytes */
	int bits;           /* 8 * bytes, or 4 and 6 for the sub-byte types */
	const char *ctype;  /* C type of the same size, for emitted code */
} DtypeInfo;

typedef enum { ARCH_SM70, ARCH_SM75, ARCH_SM80, ARCH_SM86, ARCH_SM89,
	ARCH_SM90, ARCH_SM90A, ARCH_SM100, ARCH_SM100A, ARCH_SM103,
	ARCH_SM103A, ARCH_SM120, ARCH_SM120A, ARCH_COUNT } Arch;

typedef struct {
	const char *name;
	int cc;                     /* compute capability x 10 */
	int smem_block;             /* largest opt-in shared memory per block */
	int smem_sm;                /* shared memory per SM */
	int smem_reserved;          /* reserved by the system per block */
	int threads_sm;             /* resident threads per SM */
	int blocks_sm;              /* resident blocks per SM */
	bool specific;              /* an "a" target: wgmma and setmaxnreg */
	bool measured;              /* the bank model was measured on it */
	bool tcgen05;               /* tcgen05.mma (UMMA) and tensor memory */
	bool matrix_b8;             /* the 8-bit ldmatrix and stmatrix forms */
} ArchInfo;

typedef enum { OP_LOAD, OP_STORE, OP_LDMATRIX, OP_STMATRIX, OP_CPASYNC,
	OP_ATOM, OP_WGMMA, OP_UMMA } OpKind;

/* The matrix shapes of ldmatrix and stmatrix (PTX ISA): m8n8 of 16-bit
 * elements; Blackwell's 8-bit m16n16 (ldmatrix, .trans), m8n16 (ldmatrix
 * of 6- and 4-bit data in 16-byte containers) and m16n8 (stmatrix,
 * .trans).  Every form moves rows of 16 bytes, 8 row addresses a phase;
 * an m16n16 matrix has 16 of them. */
typedef enum { MAT_M8N8, MAT_M16N16, MAT_M8N16, MAT_M16N8 } MatShape;

/* Shared-memory atomics: the operation, which decides the cost only by
 * being a compare-and-swap or not (measured, tests/data/probe_h200_atom),
 * but for an add of the constant 1 whose result is unused (red.add1),
 * which sm_90's ATOMS.POPC.INC serves a word at a time, like a load. */
typedef enum { AOP_NONE, AOP_ADD, AOP_MIN, AOP_MAX, AOP_INC, AOP_DEC,
	AOP_AND, AOP_OR, AOP_XOR, AOP_EXCH, AOP_CAS, AOP_ADD1, AOP_COUNT } AtomOp;

typedef struct {
	OpKind kind;
	int nmat;           /* ldmatrix/stmatrix: 1, 2 or 4 */
	MatShape shape;     /* ldmatrix/stmatrix */
	bool trans;
	bool red;           /* OP_ATOM: red (no value returned), not atom */
	AtomOp aop;         /* OP_ATOM: the operation (AOP_NONE: unnamed) */
	bool mma_b;         /* OP_WGMMA, OP_UMMA: operand B (else A) */
	bool mn_major;      /* OP_WGMMA, OP_UMMA: M or N contiguous (else K) */
	int cta_group;      /* OP_UMMA: 1, or 2 (a CTA pair's MMA) */
} Op;

extern const DtypeInfo tab_dtype[DT_COUNT];
extern const ArchInfo tab_arch[ARCH_COUNT];
int tab_find_dtype(const char *s, size_t n);   /* -1 if unknown */
int tab_find_arch(const char *s, size_t n);
bool tab_parse_op(const char *s, size_t n, Op *op);
void tab_op_name(Op op, char *buf, size_t n);
bool op_is_load(Op op);     /* reads shared memory (load, ldmatrix) */
bool op_is_matrix(Op op);
bool op_is_mma(Op op);      /* a tensor core's operand: wgmma, UMMA */
int op_rows8(Op op);        /* matrix ops: phases of 8 row addresses */
int op_lanes(Op op);        /* lanes that carry an address: 8*rows8 or 32 */
int op_min_cc(Op op);       /* first compute capability that has it */

/* ---- the checked tile (front/): the spine of the compiler ------------- */

/* An integer expression over the lane and loop variables (front/expr.c;
 * what it holds is the front end's). */
typedef struct Expr Expr;

/* A named subexpression of an access (`let NAME = EXPR;`), and a table of
 * numbers (`table NAME = {v, ...};`) that expressions index as NAME[i]. */
typedef struct {
	char *name;
	Pos pos;
	Expr *e;
	bool for_all;       /* needed by `active`: evaluated for every lane */
	bool for_weight;    /* needed by `weight`: evaluated first, once */
} Let;

typedef struct {
	char *name;
	Pos pos;
	int64_t *v;
	int n;
} Table;


enum { XF_PAD = 1, XF_SKEW = 2, XF_SWAP = 4, XF_SWIZZLE = 8,
	XF_ALL = 15 };

typedef enum { PL_ROW, PL_COL, PL_GENERAL, PL_MMA } Placement;

typedef struct {
	char *name;
	Pos pos;
	Expr *lo, *hi;      /* half-open range; of outer loop variables only */
} Loop;

typedef struct { int32_t row, col; } Coord;

/* One warp instruction: each active lane's first element (row counts
 * through the stages: stage s's row r is s * rows + r), how often it runs
 * (its `weight`) and the loop variables' values that made it. */
typedef struct {
	uint32_t mask;
	Coord lane[WARP];
	int64_t weight;
	int32_t var[MAX_LOOPS];
} Inst;

enum { MAX_LETS = 32, MAX_TABLES = 8, MAX_TABLE_LEN = 1 << 20 };

typedef struct Access {
	char *name;
	Pos pos;
	Op op;
	Pos op_pos;
	int vec;            /* elements per lane (per row address for ldmatrix);
	                     * bytes for sub-byte element types */
	int evec;           /* sub-byte types: the elements vec was given as */
	Pos vec_pos;
	bool vec_given;
	bool major_given;   /* wgmma, UMMA: `major k|mn` */
	bool cta_group_given;   /* UMMA: `cta_group 1|2` */
	int64_t weight;
	Placement place;
	Loop loops[MAX_LOOPS];
	int nloops;
	Let lets[MAX_LETS];
	int nlets;
	Table tables[MAX_TABLES];
	int ntables;
	/* PL_GENERAL; active, weight_e and stage_e may be NULL; idx for 1-D
	 * tiles instead of row and col */
	Expr *row, *col, *idx, *active, *weight_e, *stage_e;
	Pos weight_pos;
	Pos end;            /* the closing brace of the body */
	int view;           /* 0: the tile's own; k: its view k - 1's */
	/* filled by the checker */
	Inst *inst;
	int ninst;
} Access;

/* A view of a tile (`view NAME of TILE { shape ...; dtype ...; access
 * ...; }`): another shape and element type over the same bytes, read in
 * its own row-major order (the tile's stages one after another); its
 * accesses join the tile's (converted to the tile's elements), so one
 * layout is chosen for all. */
enum { MAX_VIEWS = 8 };

typedef struct {
	char *name;
	Pos pos, shape_pos, dtype_pos;
	int rows, cols, len;
	Dtype dtype;
	bool dtype_given;
	int first, nacc;    /* its accesses in the tile's acc[] */
} View;

enum { TMA_LOAD = 1, TMA_STORE = 2 };

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
	int len;            /* 1-D tiles (`shape N;`): N, checked as 1 x N */
	/* Sub-byte element types are laid out byte by byte: after checking,
	 * cols (and len) count bytes, and ecols (elen) keep the elements. */
	int ecols, elen;
	Dtype dtype;
	Arch arch;
	unsigned allow;     /* XF_* */
	int64_t budget;     /* footprint limit in bytes; 0 = the arch's */
	int align;          /* base alignment in bytes */
	unsigned tma;       /* TMA_LOAD | TMA_STORE: the TMA engine fills the
	                     * tile from global memory, or writes it there */
	int threads;        /* block threads for occupancy; 0 = unknown */
	int64_t tradeoff;   /* bytes worth one weighted wavefront; 0 = none:
	                     * wavefronts first, then bytes, then arithmetic */
	Access *acc;
	int nacc;           /* its own accesses, then its views' */
	View views[MAX_VIEWS];
	int nviews;
	const char *view_of; /* a view checked as a tile: the tile's name */
	bool broken;        /* a parse error in it: reported, left unchecked */
} Tile;

typedef struct {
	const Src *src;
	Tile *tiles;
	int ntiles;
} Unit;

/* ---- front/tile.c: what a checked tile implies ------------------------ */

int64_t tile_elem_bytes(const Tile *t);
int tile_elem_bits(const Tile *t);     /* 4 or 6 for sub-byte types */
bool tile_wgmma(const Tile *t);        /* has a wgmma operand access */
bool tile_umma(const Tile *t);         /* has a tcgen05.mma operand access */
/* The tile's first wgmma or UMMA access, or NULL. */
const Access *tile_mma(const Tile *t);
/* Does an access reach past stage 0 (`stage =`, or a view)? */
bool tile_walks_stages(const Tile *t);
int64_t tile_bytes(const Tile *t);      /* row-major, all stages */
/* Largest vector of any access of t, in bytes: the granule every legal
 * layout keeps contiguous and aligned. */
int tile_granule(const Tile *t);

/* ---- front/frontend.c: a spec's text to checked tiles ----------------- */

/* Read FILE and run parse + check; returns false (diagnostics printed) on
 * error.  src->text is malloc'ed; free with src_free. */
bool frontend_file(const char *path, Pool *p, FILE *diag, Src *src, Unit *u);
/* frontend_file for each of n files; true if all are good. */
bool frontend_files(char **paths, int n, Pool *p, FILE *diag, Src *src,
                    Unit *u);
/* Parse and check src, whose text must end in a NUL at text[len]. */
bool frontend_run(Pool *p, FILE *diag, const Src *src, Unit *u);

/* ---- model/sim.c: the bank model -------------------------------------- */

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

/* The distinct words each bank serves in one phase of an instruction
 * (for atomics: the lanes, which are served one by one)
 * (lanes, bytes and addresses as for sim_inst): every bank's count in
 * count[0 .. banks-1]; returns the largest.  For naming every bank that
 * conflicts, not for the search's inner loop. */
int sim_phase_banks(const Geom *g, Op op, int bytes, uint32_t lanes,
                    const int64_t *addr, int count[64]);
/* "banks 0, 8, 16, 24 x 4; 1, 9 x 2": the banks serving more than one
 * word, most-loaded first, into buf. */
void sim_conflict_text(const int count[64], int banks, char *buf, size_t n);

/* ---- model/layout.c: where a logical element lives -------------------- */

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
	bool flip;          /* L_SWIZZLE: the 8-byte halves of each 16 bytes
	                     * swapped on odd 128-byte lines too (byte bit 3
	                     * flipped by bit 7: TMA's 128B_ATOM_32B_FLIP_8B) */
	int boxes;          /* L_SWIZZLE: column blocks of scols / boxes
	                     * columns, one after another (TMA boxes); 1 for
	                     * every other layout */
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
int64_t layout_stage_step(const Layout *l, const Tile *t);
int64_t layout_bytes(const Layout *l, const Tile *t);
/* Extra integer operations per index beyond r * pitch + c. */
int layout_arith(const Layout *l);
/* L_XOR: the chunks of a block the map permutes (the least power of two
 * above every mask), and the columns it moves: the row's whole blocks,
 * from column 0; the columns after them keep their place. */
int layout_xor_span(const Layout *l);
int layout_xor_cols(const Layout *l);
/* The CUtensorMapSwizzle mode (after CU_TENSOR_MAP_SWIZZLE_) that writes
 * l, or NULL when TMA has none: "NONE", "32B", ..., "128B_ATOM_64B". */
const char *layout_tma_mode(const Layout *l);
/* "pad +4 (pitch 36)", "swizzle<3,4,3>", ... */
void layout_describe(const Layout *l, const Tile *t, char *buf, size_t n);
const char *layout_kind_name(const Layout *l);
/* May l hold t: vectors contiguous and aligned, a bijection onto the
 * footprint, within `budget` bytes, allowed by the spec? */
bool layout_legal(const Layout *l, const Tile *t, int64_t budget,
                  const char **why);
/* Where element (r, c) lives, in elements, as one C expression in r and
 * c (a constant expression for constant arguments; each may appear
 * several times). */
void layout_c_expr(const Layout *l, const Tile *t, const char *r,
                   const char *c, char *buf, size_t n);
/* Byte address of each lane of one instruction under layout l. */
void layout_inst_addrs(const Layout *l, const Tile *t, const Inst *in,
                       int64_t addr[WARP]);
/* Simulate one instruction of access a under layout l. */
void layout_sim_inst(const Geom *g, const Layout *l, const Tile *t,
                     const Access *a, const Inst *in, SimResult *r);

/* ---- model/wgmma.c: the matrix descriptor of a wgmma operand ---------- */

/* The fields of wgmma.mma_async's matrix descriptor for a tile in one of
 * its canonical layouts: columns in boxes of W = 16 << B bytes, box after
 * box, each row-major with Swizzle<B,4,3> (B = 0: no swizzle). */
typedef struct {
	int B;
	int swizzle;        /* descriptor bits 62-63: 0 none, 1 128B, 2 64B, 3 32B */
	int box_bytes;      /* W */
	int lbo, sbo;       /* bytes, multiples of 16 */
	bool lbo_used;      /* false: not read (K-major swizzled; 16 written) */
	int base_offset;    /* bits 49-51, the same in every stage */
	bool operand_b, mn_major;
} WgmmaDesc;

/* The same for tile t, its operand and major axis from its wgmma access. */
bool wgmma_tile_desc(const Tile *t, int B, int64_t stage_bytes,
                     WgmmaDesc *out, const char **why);

/* ---- model/umma.c: the shared-memory descriptor of a tcgen05.mma operand */

/* The fields of tcgen05.mma's shared-memory descriptor for a tile in one
 * of the canonical layouts (wgmma's, model/mma_canon.c, and the 128-byte
 * swizzle on 32-byte atoms, Swizzle<2,5,2> in boxes of 128 bytes). */
typedef struct {
	int B;              /* Swizzle<B,4,3> (0: none), or 2 with atom32 */
	bool atom32;        /* the 128-byte swizzle on 32-byte atoms */
	int layout_type;    /* bits 61-63: 0 none, 1 128B on 32B atoms, 2 128B,
	                     * 4 64B, 6 32B */
	int box_bytes;      /* W */
	int lbo, sbo;       /* bytes, multiples of 16 */
	bool lbo_used;      /* false: no instruction reads it (0 written, 16
	                     * for K-major swizzled layouts, as CUTLASS) */
	bool sbo_used;      /* false: no instruction reads it (0 written) */
	int base_offset;    /* bits 49-51, the same in every stage */
	bool operand_b, mn_major;
	int cta_group;      /* 1, or 2: half of a CTA pair's operand */
	int k_elems;        /* K of one instruction: 32 bytes of elements */
	int m_cta;          /* operand A: M of one instruction in a CTA */
} UmmaDesc;

/* The same for tile t, its operand, major axis and CTA group from its
 * UMMA access; B and atom32 its layout's swizzle. */
bool umma_tile_desc(const Tile *t, int B, bool atom32, int64_t stage_bytes,
                    UmmaDesc *out, const char **why);
int umma_layout_type(int B, bool atom32);
/* The 64-bit descriptor of a sub-block at shared address smem_addr. */
uint64_t umma_desc_word(const UmmaDesc *d, uint32_t smem_addr);

/* ---- solve/: the layout search's result ------------------------------- */

typedef struct {
	Layout l;
	int64_t wave;                   /* weighted wavefronts, all accesses */
	int64_t acc_wave[MAX_ACCESSES]; /* each access's, unweighted */
	int64_t bytes;                  /* footprint, all stages */
	int arith;
	int blocks;                     /* resident blocks per SM */
	long order;                     /* the layout's place in the space: the
	                                 * last tie-break (xor maps of one
	                                 * family then by their masks) */
} Cand;

typedef struct {
	int top;            /* candidates kept in the ranking (at least 1) */
	bool exhaustive;    /* no pruning (for tests): every layout costed in
	                     * full, the xor maps too where there are at most
	                     * SOLVE_XOR_ENUM (solve/solve.h) of them */
	int64_t budget;     /* work units the search may spend; 0: the default
	                     * (solve_default_budget, solve/solve.h) */
	unsigned families;  /* 1 << LayoutKind searched; 0: all (for tests) */
	bool seeds_in_budget;   /* the seeds count against the budget too (a
	                         * 1-D tile's later folds, solve_fold.c) */
	int64_t file_defaults;  /* the default budgets of all the tiles of
	                         * the tile's file (solve_file_defaults); 0:
	                         * the tile alone */
} SolveOpts;

/* Work units: one warp instruction (or instruction class) simulated; the
 * xor search counts its bound computations in the same unit. */
#define SOLVE_BUDGET_PER_INST 32
#define SOLVE_BUDGET_BASE (1 << 15)
#define SOLVE_BUDGET_MAX 1000000000000000LL
/* A file's tiles share at most this many units by default: past it, each
 * tile's default is scaled down in proportion (SolveOpts.file_defaults),
 * so that a file of many tiles stays within seconds. */
#define SOLVE_BUDGET_FILE (1LL << 23)
/* The adaptive budget (solve/solve_budget.c): a search that ends on its
 * base budget above its bound is run again with up to this many units
 * (a second or so of CPU); a file whose defaults fit SOLVE_BUDGET_FILE
 * spends at most SOLVE_BUDGET_TOTAL on its searches, both passes. */
#define SOLVE_BUDGET_TILE_CAP (1LL << 22)
#define SOLVE_BUDGET_TOTAL (1LL << 24)

__extension__ typedef unsigned __int128 SolveCount128;

/* Twins of an xor family's first run (solve_xor.c): maps that differ by
 * an invertible map A of the chunk values that keeps every value of
 * `fixed` (a subspace, as the set of its values) cost alike. */
typedef struct {
	bool on;
	int cbits;                      /* the run's chunk bits */
	uint64_t fixed;                 /* bit v: value v is kept */
	int dim;
	uint32_t basis[6];              /* of the kept values, each with its
	                                 * own top bit */
} XorTwins;

typedef struct {
	int64_t lower_bound;            /* weighted sum of ideal wavefronts */
	int64_t aligned_bound;          /* the same, knowing granule alignment */
	int64_t acc_ideal[MAX_ACCESSES], acc_bound[MAX_ACCESSES];
	int64_t budget;                 /* footprint limit, bytes */
	bool found;
	Cand best;
	Cand *top;                      /* the ranking, best first */
	int ntop;
	long evaluated, cut, illegal;   /* candidates costed, cut short, refused */
	int64_t work, work_budget;      /* units spent, units allowed */
	bool budget_reached;            /* the search stopped before it had
	                                 * decided every layout of its space */
	SolveCount128 xor_total;        /* maps of the xor families */
	SolveCount128 xor_searched;     /* ... of them decided: costed, or
	                                 * proven unable to enter the ranking */
	int xor_bits;                   /* row bits the xor maps read */
	XorTwins xor_twins[2];          /* the xor family (unswapped, swapped)
	                                 * listed one map per class of twins */
	int classes;                    /* distinct warp instructions */
	int blocks_rowmajor;
	Tile *fold;         /* 1-D tiles: the 2-D fold the layout is of */
} Solution;

/* Choose t's layout in one search, with o->budget or, without it, its
 * base budget (solve_budget_of): a 1-D tile gets the best of its 2-D
 * folds, in s->fold; use solution_tile() for the tile the layout is of.
 * The commands solve a file's tiles with solve_unit. */
void solve_tile(const Tile *t, const Geom *g, const SolveOpts *o,
                Solution *s);
/* The tiles of u that want marks (NULL: every one) solved into sol[i]
 * (the others zeroed), with the file's adaptive budget
 * (solve/solve_budget.c): every tile searched with its base budget, then
 * those that search left open searched again with an equal share of the
 * file's extension; with o->budget, one search each with it.  A tile
 * with no legal layout gets its error on diag; false then.  o's
 * file_defaults is u's own.  sol[i] is to be freed (solve_free). */
bool solve_unit(const Unit *u, const Src *src, FILE *diag, const Geom *g,
                const SolveOpts *o, const bool *want, Solution *sol);
/* The error of a tile that has no legal layout (s: its solution), on
 * diag at the tile; false. */
bool solve_report_none(const Tile *t, const Src *src, FILE *diag,
                       const Solution *s);
/* solve_tile, and when t has no legal layout, the error that says so and
 * why (at the tile, in src) on diag: the one place every command reports
 * it.  False then; s is to be freed either way. */
bool solve_tile_or_report(const Tile *t, const Src *src, FILE *diag,
                          const Geom *g, const SolveOpts *o, Solution *s);
static inline const Tile *solution_tile(const Solution *s, const Tile *t)
{
	return s->fold ? s->fold : t;
}
void solve_free(Solution *s);
/* The search ran out of budget above the bound ("not proven optimal"):
 * false when the choice is optimal or the search covered its whole space. */
bool solve_unproven(const Solution *s);
/* The default budgets of u's tiles, added up (SolveOpts.file_defaults). */
int64_t solve_file_defaults(const Unit *u);

/* ---- solve/baseline.c: what other systems would choose ---------------- */

enum { MAX_BASELINES = 4 };

typedef struct {
	const char *name;   /* "row-major", "pad by one", "CuTe", "Triton" */
	char note[128];     /* its parameters, or why it cannot hold the tile */
	bool legal;
	Cand c;
} Baseline;

int baseline_all(const Tile *t, const Geom *g, int64_t budget,
                 Baseline out[MAX_BASELINES]);
/* The same, where known[i] (nknown of them) is costed already, its
 * instructions' wavefronts in wave[i] (the accesses' in order): a
 * baseline of that layout is not simulated again. */
int baseline_all_costed(const Tile *t, const Geom *g, int64_t budget,
                        const Layout *known, const int *const *wave,
                        int nknown, Baseline out[MAX_BASELINES]);

/* ---- emit/dump.c: checked tiles as canonical text and JSON ------------ */

void dump_text(FILE *f, const Unit *u);
void dump_json(FILE *f, const Unit *u);
struct json_t;
struct json_t *dump_tile_json(const Tile *t);

/* ---- emit/emit_*.c: the outputs of bankc build ------------------------ */

void emit_upper(char *dst, size_t n, const char *s);
/* What a view VIEW defines in its tile's header: VIEW_ROWS, ...; NULL
 * ends it. */
extern const char *const emit_view_macros[];
/* Every instruction's wavefronts (the accesses' instructions in order)
 * under the chosen layout, row-major and the extra layouts asked for
 * (the baselines'), for the check program, the picture and the report:
 * emit/emit_costs.c simulates each instruction once under each. */
enum { EMIT_MAX_EXTRA = 4 };
typedef struct {
	int *wave, *ideal;          /* under s->best.l */
	int *wave_rm, *ideal_rm;    /* under row-major */
	int *wave_packed;           /* row-major with the stages packed (the
	                             * check's; wave_rm unless an access walks
	                             * the stages) */
	int nextra;
	Layout extra[EMIT_MAX_EXTRA];
	int *wave_extra[EMIT_MAX_EXTRA];
} EmitCosts;
/* The extra layouts must be legal for t. */
void emit_costs(EmitCosts *c, const Geom *g, const Tile *t, const Solution *s,
                const Layout *extra, int nextra);
void emit_costs_free(EmitCosts *c);
/* What emit_check reads kept (wave, wave_packed), the rest freed. */
void emit_costs_check_only(EmitCosts *c);
/* NAME.cuh; its comment names the spec file `spec` and the geometry g. */
void emit_header(FILE *f, const Geom *g, const Tile *t, const Solution *s,
                 const char *spec);
/* NAME_check.cu of tile t under layout l (its chosen). */
void emit_check(FILE *f, const Tile *t, const Layout *l, const EmitCosts *c);
void emit_svg(FILE *f, const Geom *g, const Tile *t, const Solution *s,
              const EmitCosts *c);                       /* NAME.svg */

/* ---- emit/report.c: the JSON documents' shared parts ------------------ */

struct json_t;
/* A new document: {"schema": BANKC_JSON_SCHEMA, "bankc": BANKC_VERSION}. */
struct json_t *report_new(void);
/* s, any bytes (a path), as a JSON string: JSON holds UTF-8, so each
 * byte of a malformed sequence becomes U+FFFD (esc_utf8).  Never NULL. */
struct json_t *report_string(const char *s);
/* report_new() with body's keys added; takes body's reference.  A NULL
 * body (a part json_pack could not make) is bankc's bug, never a
 * document with parts missing. */
struct json_t *report_doc(struct json_t *body);
/* doc indented, keys sorted, then a newline; takes the reference. */
void report_write(FILE *f, struct json_t *doc);
struct json_t *report_geometry(const Geom *g);           /* "geometry" */
struct json_t *report_layout(const Layout *l, const Tile *t);  /* "params" */
/* A tile's solution: candidates, baselines, bounds, the search. */
struct json_t *report_solution(const Tile *t, const Solution *s,
                               const Baseline *b, int nb);

/* ---- emit/outputs.c: a build's files, all or nothing ------------------ */

typedef struct {
	char *path;         /* as written: DIR/FILE */
	const char *file;   /* the name inside DIR */
	char *data;         /* malloc'ed, owned */
	size_t len;
	const char *spec;   /* the spec it comes from, for the manifest */
	char *tmp;          /* its temporary while being written */
	/* or, data NULL: its bytes are made by render(f, arg) while the
	 * commit writes its temporary, never held in memory (a check program
	 * of a tile at the limits is 82 MB); render can only fail to write */
	void (*render)(FILE *f, void *arg);
	void *arg;
} OutFile;

typedef struct {
	OutFile *v;
	int n, cap;
} Outs;

/* Add DIR/FILE (FILE alone when dir is NULL), taking ownership of data. */
void outs_add(Outs *o, const char *dir, const char *file, char *data,
              size_t len, const char *spec);
/* Add DIR/FILE, whose bytes render(f, arg) writes at the commit. */
void outs_add_render(Outs *o, const char *dir, const char *file,
                     void (*render)(FILE *f, void *arg), void *arg,
                     const char *spec);
void outs_free(Outs *o);
/* ---- emit/sarif.c: the --sarif log ------------------------------------- */

/* The diagnostics kept (diag_records) as a SARIF 2.1.0 log in path,
 * written whole or not at all; status is the command's exit status.
 * False, with a message, if it cannot be written. */
bool emit_sarif(const char *path, int status);
/* Write every output into dir (made if missing), the manifest and the
 * depfile (if not NULL) all or nothing; specs are the manifest keys of
 * this build's spec files.  Takes ownership of dep. */
bool outs_commit(Outs *o, const char *dir, char **specs, int nspecs,
                 const char *depfile, char *dep, size_t deplen);

#endif
