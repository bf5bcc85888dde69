/* The PTX reader's own declarations, shared by its files:
 *   ptx_read.c   the reader's state, instructions, functions, the module
 *   ptx_cursor.c the token cursor (rd_next, rd_expect, ...)
 *   ptx_names.c  name tables (names_*)
 *   ptx_decl.c   declarations (variables, parameters, registers)
 *   ptx_opd.c    operands
 *   ptx_const.c  constant expressions (WARP_SZ, (4 * 8), ...)
 *   ptx_scope.c  { } blocks: the names and labels each declares
 *   ptx_brx.c    .branchtargets tables, and brx.idx lowered to branches
 * ptx_read.c calls the others; ptx_decl.c and ptx_opd.c use only the
 * cursor, the name tables, constant expressions and blocks. */
#ifndef BANKC_PTX_READER_H
#define BANKC_PTX_READER_H

#include "ptx/ptx.h"

/* ---- name tables (ptx_names.c) ----------------------------------------------- */

/* NK_REGVEC: a vector register (.reg .v4 .f32 v), its elements v.x ... */
typedef enum { NK_REG = 1, NK_REGARR, NK_SYM, NK_LABEL, NK_FUNC, NK_REGVEC } NameKind;

typedef struct {
	const char *k;
	uint32_t n;
	int kind;           /* NameKind; 0: taken back at a block's end */
	int v;
	int blk;            /* the { } block that declared it (0: the function's) */
} HEnt;

typedef struct {
	HEnt *e;
	size_t cap, len;
} Hash;

HEnt *names_find(Hash *h, const char *s, size_t n);
HEnt *names_entry(Hash *h, const char *s, size_t n);   /* kind 0 too */
void names_put(Hash *h, const char *s, size_t n, int kind, int v);
void names_clear(Hash *h);

/* ---- the reader's state (ptx_read.c) ------------------------------------------ */

/* what one module may hold, so that a scan of any PTX within them stays
 * under 1 GiB of memory (docs/robustness.md measures the worst) */
enum { MAX_REGS = 1 << 20, MAX_PTX_INSTS = 1 << 20, MAX_SYMS = 1 << 20 };
enum { MAX_PTX_VEC = 1 << 21,       /* vector elements and call arguments */
       MAX_SLOTS = 1 << 16 };       /* shared-memory instructions */
/* registers used in one module, all functions together: a %r<N> array's
 * registers exist only once used (ptx_opd.c), so memory follows use */
enum { MAX_MODULE_REGS = 1 << 21 };

typedef struct { int base, count; Ty ty; } RegArr;    /* base: unused (-1) */
typedef struct { int inst, opd; PtxTok name; } Pending;

typedef struct {
	Diag *d;
	Pool *pool;
	PtxModule *m;
	PtxLexer lx;
	PtxTok tok;             /* current */
	PtxTok peek;
	bool have_peek;
	Hash global;            /* shared/global variables, functions */
	Hash local;             /* registers, parameters, labels, local variables */
	RegArr *arr;
	int narr, caparr;
	/* the registers made for %r<N> elements used: (array + 1) << 32 | index
	 * to register, open addressing (ptx_opd.c), per function */
	struct ElemReg { uint64_t key; int reg; } *emap;
	size_t emap_cap, emap_len;
	int64_t module_regs;    /* registers of every function so far */
	int caps_inst, caps_sym, caps_vec, caps_func, caps_file, caps_regty;
	int *labels;            /* per label: instruction index */
	int nlabels, caplabels;
	Pending *pend;          /* branch targets to resolve at the function's end */
	int npend, cappend;
	Pending *calls;         /* callees to resolve at the module's end */
	int ncalls, capcalls;
	int cur;                /* current function */
	int loc_file, loc_line, loc_col;
	int in_file, in_line, in_col;   /* inlined_at */
	int loc_inl;            /* inlined_at as PtxModule.inl's entry, or -1 */
	int caps_inl;
	/* per .loc position of the current function, the chain of calls it
	 * was inlined through (PtxModule.inl's entry), as last seen */
	struct LocInl { int file, line, col, inl; } *locmap;
	int nlocmap, caplocmap;
	/* { } blocks of the current function (ptx_scope.c) */
	int blk, nblk;          /* the current block (0: the body), blocks so far */
	struct Scope { int blk, undo, pend; } *scope;   /* the open ones */
	int nscope, capscope;
	struct Undo { const char *s; uint32_t n; int kind, v, blk; } *undo;
	int nundo, capundo;
	Hash retired;           /* call-sequence .params of closed blocks */
	/* .branchtargets tables of the current function (ptx_brx.c) */
	PtxTok *tnames;         /* their labels, as named */
	int ntnames, captnames;
	struct BrTable { int label, first, n; } *tabs;
	int ntabs, captabs;
	int *ltab;              /* per label: its table, or -1 */
	int nltab, capltab;
} Reader;

#define GROW(ptr, n, cap) do { \
		if ((n) >= (cap)) { \
			int nc_ = (cap) ? (cap) : 16; \
			while ((n) >= nc_) nc_ *= 2; \
			(ptr) = xreallocarray((ptr), (size_t)nc_, sizeof *(ptr)); \
			(cap) = nc_; \
		} \
	} while (0)

/* ---- the instructions' room (ptx_room.c) ---------------------------------------- */

/* m->inst made in the reader's pool, with room for an instruction per
 * semicolon of the text (at most MAX_PTX_INSTS). */
void rd_inst_start(Reader *r);
/* Room for one more instruction in m->inst. */
void rd_inst_room(Reader *r);

/* ---- the token cursor (ptx_cursor.c) ------------------------------------------- */

void rd_next(Reader *r);
PtxTok *rd_peek(Reader *r);
bool rd_tok_is(const PtxTok *t, const char *s);
_Noreturn void rd_expected(Reader *r, const char *what);
void rd_expect(Reader *r, PtxTokKind k);
char *rd_dup_tok(Reader *r, const PtxTok *t);
int64_t rd_integer(Reader *r);              /* optionally negative */
int64_t rd_count(Reader *r, int64_t limit, const char *what);
void rd_skip_statement(Reader *r);          /* to its ';', over braces */
void rd_skip_braces(Reader *r);

/* ---- { } blocks (ptx_scope.c) ------------------------------------------------------ */

/* A name of the current function, declared in the current block: it
 * hides one of an enclosing block until the block closes. */
void rd_scope_put(Reader *r, const char *s, size_t n, int kind, int v);
void rd_scope_open(Reader *r);
/* Resolves the branches of the block to its own labels (the others go on
 * to the enclosing block) and takes its names back. */
void rd_scope_close(Reader *r);
/* The branches pending from index `from`: to the current block's labels,
 * or (all) to any visible label, an undeclared one an error. */
void rd_resolve_labels(Reader *r, int from, bool all);
void rd_scope_reset(Reader *r);     /* a new function */
void rd_scope_free(Reader *r);

/* ---- brx.idx (ptx_brx.c) --------------------------------------------------------------- */

/* The table of `label` (the current token: .branchtargets). */
void rd_branch_table(Reader *r, int label);
/* Instruction idx, just read, is a brx: lower it. */
void rd_lower_brx(Reader *r, int idx);

/* ---- constant expressions (ptx_const.c) --------------------------------------------- */

/* Does the current token start an integer constant expression? */
bool rd_const_starts(Reader *r);
/* An integer constant expression, C's operators and precedence, on
 * 64-bit integers; WARP_SZ is 32. */
int64_t rd_const_expr(Reader *r);
/* One term of an address offset: unary operators, '*', '/', '%'. */
int64_t rd_const_term(Reader *r);

/* ---- declarations (ptx_decl.c) -------------------------------------------------- */

int rd_new_sym(Reader *r, const PtxTok *name, SymKind kind);
void rd_variable(Reader *r, Space sp, bool is_extern);
/* formal: the parameter's index, -1 a call sequence's, -2 a return value */
int rd_param_decl(Reader *r, int formal);
void rd_reg_decl(Reader *r);

/* ---- operands (ptx_opd.c) ---------------------------------------------------------- */

int rd_find_reg(Reader *r, const PtxTok *t);
/* A new register of the current function of type ty (errors at *at past
 * MAX_REGS in it or MAX_MODULE_REGS in the module). */
int rd_new_reg(Reader *r, const Pos *at, Ty ty);
void rd_add_vec(Reader *r, const PtxOpd *o);
void rd_add_pending(Pending **list, int *n, int *cap, int inst, int opd,
                    const PtxTok *name);
/* One operand of instruction inst (a label or function may come later
 * where label_ok). */
PtxOpd rd_operand(Reader *r, int inst, int opd, bool label_ok);

#endif
