/* bankc scan: the CUDA source as text a fix can be said in and applied
 * to.  scan_ctext.c reads an allowed source file (scan_source.c) once into
 * tokens, its #define and const definitions (with whether an #if leaves
 * them out) and evaluates integer expressions through them; scan_decl.c
 * finds a shared array's declaration from its PTX symbol and every place
 * its name occurs; scan_rewrite.c rewrites those places and writes the
 * diff.  Private to scan/. */
#ifndef BANKC_SCAN_CTEXT_H
#define BANKC_SCAN_CTEXT_H

#include "bankc.h"

/* ---- scan_ctext.c: tokens and definitions ------------------------------------ */

typedef enum { CT_ID, CT_NUM, CT_PUNCT, CT_STR, CT_CHR } CTokKind;

typedef struct {
	uint32_t off, len;      /* in the file's text */
	int32_t line;           /* from 1 */
	uint8_t kind;           /* CTokKind */
	bool bol;               /* first token of its line */
} CTok;

/* A definition: `#define NAME VALUE` (object-like) or `NAME = VALUE;` of
 * a const or constexpr. */
typedef enum { DEF_LIVE, DEF_MAYBE, DEF_DEAD } DefState;
typedef struct {
	uint32_t name, nlen;    /* the name, in the text */
	uint32_t val, vlen;     /* its value's text */
	int32_t line;
	uint8_t state;          /* an #if around it: none or true, unknown, false */
	bool macro;
} CDef;

typedef struct CText {
	unsigned id;            /* a number no other file read in this run has */
	char *path;
	char *text;
	size_t len;
	CTok *tok;
	int ntok;
	CDef *def;
	int ndef;
	int *bucket;            /* hash of names: first definition, then next */
	int *next;
	int nbucket;
	char **incl;            /* the files its #include "..." names, beside it */
	int nincl;
	char **asm_macro;       /* function-like macros whose body is asm */
	int nasm_macro;
} CText;

/* The file at path (as the warnings show it) read and tokenized once per
 * scan; NULL if it may not be read (scan_source.c) or is not there. */
const CText *ctext_get(const char *path);
/* The -D flags given to nvcc ("NAME" or "NAME=VALUE"): defined for #ifdef,
 * and their values before the file's own. */
void ctext_set_defined(const char *const *defs, int n);
void ctext_free_all(void);

/* Is s[0..n) a function-like macro of t (or of a file it includes, depth
 * from 0) whose body is an asm statement? */
bool ctext_asm_macro(const CText *t, const char *s, size_t n, int depth);
/* Does token i spell s? */
bool ctok_is(const CText *t, int i, const char *s);
/* The token after the bracket that token i opens ((, [, {, <), or ntok. */
int ctok_close(const CText *t, int i);

/* Names bound to values (a template's parameters of one instance). */
typedef struct {
	const char *name[16];
	int64_t value[16];
	int bytes[16];          /* a type parameter: its size, else 0 */
	int n;
} CBind;

/* Evaluate the integer expression text[0..n) of t (C's operators, sizeof
 * of the builtin types, names through t's definitions and b).  A name with
 * several definitions that an #if may leave in takes the one `choice`
 * picks: *nchoice names were met, each with how many it has (arity), so a
 * caller enumerates them.  False if not a whole expression bankc can
 * evaluate. */
typedef struct {
	const char *name[8];
	int nlen[8];
	int pick[8];
	int arity[8];
	int n;
	bool overflow;          /* more than 8 such names */
} CChoice;
bool ctext_eval(const CText *t, const char *s, size_t n, const CBind *b, CChoice *ch,
                int64_t *v);
/* The size of a builtin or CUDA vector type spelled s (0: unknown). */
int ctext_type_bytes(const char *s);

#endif

/* ---- scan_decl.c: declarations and the places a name occurs --------------------- */

enum { DECL_MAX_DIMS = 4 };

/* A place in the array's scope where its name occurs, and what it does. */
typedef enum {
	OCC_ELEM,           /* name[i][j]: an element, read or written */
	OCC_ADDR,           /* &name[i][j] used at once: dereferenced through a cast,
	                     * an asm operand, converted to a shared address that
	                     * only asm operands use */
	OCC_ADDR_CALL,      /* &name[i][j] passed to a function: the scan must have
	                     * seen what the function does with it */
	OCC_SIZEOF,         /* sizeof name */
} OccKind;

typedef struct {
	int tok, end;       /* the name's token, and the one after its last ']' */
	int nsub;
	int sub[DECL_MAX_DIMS][2];  /* each subscript's tokens inside its brackets */
	uint8_t kind;       /* OccKind */
	int line;
	int line0, line1;   /* the lines of its statement */
	bool seen;          /* a recorded access was traced to it */
} COcc;

/* A shared array's declaration in the source, found from its PTX symbol,
 * and its name's every occurrence where the name means it. */
typedef struct CDecl {
	const CText *t;
	int name_tok;           /* the declaration's name */
	int dims[DECL_MAX_DIMS][2]; /* its dimensions' tokens */
	int ndims;
	int64_t dimv[DECL_MAX_DIMS];    /* their values (-1: unknown) */
	int64_t elem;           /* bytes of an element (0: unknown) */
	int type_a, type_b;     /* the element type's tokens */
	int scope_a, scope_b;   /* the tokens where the name means this array */
	bool is_extern;
	bool in_template;       /* declared in a template: one text, every instance */
	CBind bind;             /* the instance's template arguments */
	COcc *occ;
	int nocc;
	/* why the array's indexing cannot be rewritten (a pointer made to
	 * it, its name used as a pointer, ...), at which line; "" if it can */
	char stop[320];
	int stop_line;
} CDecl;

/* The declaration of shared array `name` that PTX symbol `sym` (of size
 * `bytes`, -1 for an extern array) names, looked for in the files of
 * `paths` (those its accesses and its kernel's code are in), with `lines`
 * of them its accesses' lines (to choose among functions of one name).
 * Fills d (free with cdecl_free); false with *why if none is certain. */
bool cdecl_find(const char *sym, const char *name, int64_t bytes, const char *const *paths,
                int npaths, const int *lines, const int *line_file, int nlines, CDecl *d,
                char *why, size_t nwhy);
void cdecl_free(CDecl *d);
/* The definition of the function named `name` (its last :: part) with
 * nparams parameters in the file at path: its name's line and column,
 * and its parameters' names (each NULL where the parameter has none;
 * malloc'ed); false if there is no such definition, or several. */
bool cdecl_function(const char *path, const char *name, int nparams, int *line, int *col,
                    char **params);
/* Forget every file read and indexed (ctext_free_all too). */
void cdecl_free_all(void);
/* An occurrence in the statement at `path`:`line` (the lines of a
 * statement written over several are one), or NULL; every such one is
 * marked seen. */
COcc *cdecl_occ_at(CDecl *d, const char *path, int line);
/* The text of tokens [a, b) as written (spaces and comments between them
 * kept), into buf. */
void ctext_span(const CText *t, int a, int b, char *buf, size_t n);

/* ---- scan_rewrite.c: the source with some of its text replaced ---------------------- */

typedef struct CRepl {
	size_t off, len;        /* the text replaced */
	char *text;             /* by this (malloc'ed) */
} CRepl;

struct ScanEdit;
/* Replace r[0..n) (none overlapping) in t: each changed line before and
 * after into *edits (malloc'ed, *nedits), and the unified diff of the
 * file, as `patch -p0` applies it from the folder bankc ran in, into
 * *diff.  False (why) if a changed line or the file's name holds a byte
 * that a terminal would act on, or that patch would not read back. */
bool crewrite_apply(const CText *t, CRepl *r, int n, struct ScanEdit **edits, int *nedits,
                    char **diff, char *why, size_t nwhy);
