/* The solver's own declarations: the search's state, the instruction
 * classes it costs, the xor tree, and the parts of the search that its
 * files share.  Other stages see only the result (bankc.h). */
#ifndef BANKC_SOLVE_H
#define BANKC_SOLVE_H

#include "bankc.h"

/* Work units a tile's search may spend unless told (SolveOpts.budget). */
int64_t solve_default_budget(const Tile *t);
/* The budget t's search takes unless told: the default, scaled down when
 * its file's tiles together would pass SOLVE_BUDGET_FILE. */
int64_t solve_budget_of(const Tile *t, const SolveOpts *o);
int solve_blocks(const Tile *t, int64_t bytes);   /* resident blocks per SM */
/* Cost one layout fully (no pruning). */
void solve_cost(const Tile *t, const Geom *g, const Layout *l, Cand *c);
/* <0 when a ranks before b in t's objective. */
int solve_cmp(const Tile *t, const Cand *a, const Cand *b);
/* The same layouts, uncosted (the search costs them first). */
int baseline_layouts(const Tile *t, Layout out[MAX_BASELINES]);

/* The search over the layouts of one 2-D tile (solve_search.c). */
void solve_layout(const Tile *t, const Geom *g, const SolveOpts *o,
                  Solution *s);
/* The objective alone, without the enumeration order: <0, 0, >0. */
int solve_cmp_key(const Tile *t, const Cand *a, const Cand *b);
/* solve_fold.c: a 1-D tile folded into rows of `cols` elements, and the
 * arithmetic of indexing through the fold. */
Tile *fold_make(const Tile *t, int cols);
void fold_free(Tile *f);
int fold_arith(const Tile *f);
/* The canonical place of l in the space (Cand.order). */
long solve_order(const Layout *l);
enum { SOLVE_XOR_ENUM = 1 << 10 };

/* ---- the search's state ----------------------------------------------------- */

/* Warp instructions that cost the same under a set of layouts, merged:
 * one member is simulated for all of them. */
typedef struct {
	int acc;            /* the member's access */
	const Inst *in;     /* the member simulated */
	int64_t weight;     /* members, each times its access's weight */
	int64_t bound;      /* members' aligned bounds, times the same */
	int64_t excess;     /* row-major cost above the bound, times the same */
	int ib, ideal, rm;  /* KEY_EXACT: one member's aligned bound, ideal,
	                     * row-major cost */
	int ph, nph;        /* KEY_EXACT: its phases, SolveClasses.ph[ph..] */
	int units;          /* work units of one simulation: its words / 32 */
	uint64_t hash;      /* of its key */
	int cnt, ncnt;      /* members per access: SolveClasses.cnt[cnt..] */
} SolveClass;

/* A phase of an exact class's member under row-major: the lanes it
 * serves (the same under every layout), its cost there, its ideal and
 * its aligned bound. */
typedef struct {
	uint32_t lanes;
	int cost, ideal, bound;
} SolvePhase;

typedef struct {
	int acc;
	int64_t n;
} SolveAccCount;

typedef struct {
	SolveClass *c;
	int n;
	SolveAccCount *cnt;
	int ncnt;
	SolvePhase *ph;     /* KEY_EXACT */
	int nph, phcap;
	int64_t bound;      /* sum of the classes' bounds */
} SolveClasses;

/* What merges two instructions: their stored coordinates under a family
 * (swapped or not), translated by whole periods of the family. */
typedef enum {
	KEY_EXACT,          /* the same instruction: every layout */
	KEY_GRID,           /* row-major and pad: any translation by
	                     * multiples of Q / element bytes rows and
	                     * columns, Q = bank bytes (128 for cp.async) */
	KEY_LINEAR,         /* swizzles with M+S+B <= k: linear byte offsets
	                     * translated by multiples of max(2^k, Q) */
} SolveKey;

enum { SOLVE_MAX_SEEDS = 8, SOLVE_MAX_K = 48 };

/* One search: what the solver's files share. */
typedef struct SolveSearch {
	const Tile *t;
	const Geom *g;
	const SolveOpts *o;
	Solution *s;
	SolveClasses exact;             /* identical instructions merged */
	SolveClasses grid[2];           /* row-major and pad, by swap */
	SolveClasses linear[2][SOLVE_MAX_K];    /* swizzles, by swap, M+S+B */
	bool have_grid[2], have_linear[2][SOLVE_MAX_K];
	int64_t rent[2][SOLVE_MAX_K + 1];       /* see family_classes */
	int64_t base_bytes;             /* row-major footprint */
	bool forced;                    /* costing a seed: no budget applies */
	bool stopped;                   /* the budget is spent */
	Layout seeds[SOLVE_MAX_SEEDS];
	int nseeds;
	Cand seed_c[SOLVE_MAX_SEEDS];   /* each seed's cost, where complete */
	bool seed_full[SOLVE_MAX_SEEDS];
	void *xcache[2];                /* solve_xor.c: the dives' trees */
} SolveSearch;

int solve_phase_bound(const Geom *g, int gran, int bytes, const int64_t *addr,
                      uint32_t lanes);

/* The classes of `from` under key (for KEY_EXACT, from NULL: every
 * instruction of t); rm_cost and bound per instruction of the exact
 * classes feed SolveClass.excess and .bound. */
void solve_classes(const Tile *t, const Geom *g, SolveKey key, bool swap,
                   int k, const SolveClasses *from, SolveClasses *out);
void solve_classes_free(SolveClasses *c);
/* A candidate being costed class by class, to go on later. */
typedef struct {
	Cand c;
	const SolveClasses *cs;
	int k;              /* classes costed */
	int64_t rest;       /* the bound of the classes not yet costed */
} SolvePartial;
void solve_partial_start(SolvePartial *p, const SolveSearch *se,
                         const Layout *l, const SolveClasses *cs);
/* Cost classes up to `upto`; false once the candidate cannot enter the
 * ranking (or the budget ran out). */
bool solve_partial_run(SolveSearch *se, SolvePartial *p, int upto);
/* solve_family.c: the seeds (row-major, the baselines' layouts, a pad),
 * chosen, then costed and searched with the small families. */
void solve_make_seeds(SolveSearch *se);
/* Skews s and s + this period cost alike (0: no such period). */
int solve_skew_period(const Tile *t, const Geom *g, const Layout *l);
void solve_search(SolveSearch *se);
/* Cost layout l over the classes cs; false when it was cut short (it
 * cannot enter the ranking) or the budget ran out. */
bool solve_evaluate(SolveSearch *se, const Layout *l, const SolveClasses *cs,
                    Cand *c);
/* Could a candidate of at least `wave`, with c's footprint, arithmetic
 * and order, still enter the ranking? */
bool solve_can_enter(const SolveSearch *se, const Cand *c, int64_t wave);
/* The same test whatever SolveOpts.exhaustive says. */
bool solve_ranks(const SolveSearch *se, const Cand *c, int64_t wave);
void solve_keep(SolveSearch *se, const Cand *c);
/* Spend units of work; false once the budget is spent (the search stops). */
bool solve_spend(SolveSearch *se, int64_t units);
bool solve_is_seed(const SolveSearch *se, const Layout *l);
/* Seed i is costed in full as c: a second pass keeps it as it is. */
void solve_seed_costed(SolveSearch *se, int i, const Cand *c);

/* solve_xor.c, solve_xbound.c: the xor tree's state. */
enum { SOLVE_XOR_PHASES = 1 << 16 };  /* phase classes the bound follows */

typedef struct {
	uint32_t r;         /* stored row (linear: xor the phase's first word's) */
	uint32_t vr;        /* the same with its bits in the search's order */
	int32_t c;          /* generic: chunk */
	uint16_t bank;      /* linear: bank, xor the first word's */
	uint8_t boff;       /* generic: byte offset in the chunk */
	uint8_t bytes;      /* generic: bytes of the lane */
	uint8_t st;         /* the stage it is in (generic; linear: 0, the
	                     * stage moves no bank there) */
} SolveXItem;

typedef struct {
	int item, nitem;    /* items, sorted by row */
	int64_t weight;
	int pb;             /* aligned bound, equal for all its members */
	bool cpasync;       /* generic: costed in 128-byte segments */
	bool byword;        /* generic: items are distinct words, not lanes */
	int cur;            /* cost of what is known so far */
	uint32_t active;    /* depths at which more becomes known */
} SolveXPhase;

typedef struct {
	SolveSearch *se;
	const Tile *t;
	bool linear, noprune;
	bool dive;          /* the best child only, down to one map */
	int nb;             /* row bits */
	int span;           /* masks below it */
	int top;            /* a mask must have this bit (0: none) */
	bool tail;          /* this span leaves columns in place */
	int k;              /* linear: log2 of the words of a chunk */
	int bmask;          /* banks - 1 */
	int64_t pb_row;     /* generic: bytes of a stored row */
	int64_t pw_row;     /* ... and words, when whole */
	int64_t sb_step;    /* bytes from one stage to the next */
	int gwords;         /* words of a chunk */
	int gbytes;         /* chunk bytes */
	int tchunks;        /* generic: chunks that move */
	Layout l;           /* the map being built */
	int sigma[MAX_XOR_BITS];    /* the row bit decided at each depth */
	uint32_t vx[MAX_XOR_BITS];  /* the masks in that order */
	SolveXPhase *ph;
	int nph;
	SolveXItem *it;
	int *act[MAX_XOR_BITS], nact[MAX_XOR_BITS];
	int *saved[MAX_XOR_BITS];
	int *kids[MAX_XOR_BITS];        /* per active phase, its bound per v */
	int64_t lb;         /* the node's bound */
	uint32_t forced;    /* row bits whose masks cannot be 0 (solve_xforced) */
	uint32_t idle;      /* row bits whose masks change no collision */
	bool unfollowed;    /* a phase the bound does not follow varies */
	bool sym;           /* maps cost as their twins (solve_xor.c) */
	XorTwins tw;
	int cbits;          /* log2 of span */
	int mfixed;         /* dimension of the kept values */
	int rank[MAX_XOR_BITS + 1];     /* new directions above each depth */
	uint64_t wset[MAX_XOR_BITS + 1];    /* the span of the kept values
	                                     * and the masks above it */
	struct {            /* the masks above each depth as a shift's run */
		int lo, len;        /* its first row and length (lo < 0: none) */
		bool closed;        /* a zero mask after it */
		uint32_t shifts;    /* the shifts a twin of it may have */
	} run[MAX_XOR_BITS + 1];
	int left[MAX_XOR_BITS + 1];     /* depths from here on not idle */
	int reforce;        /* times it was computed again this run */
	uint32_t tlo[256], thi[256];    /* f on row bits 0-7 and 8-15 */
	int64_t ops;        /* elementary steps, for the work count */
} SolveXor;


/* Choose mask d (the d-th row bit decided) to be v. */
void solve_xset(SolveXor *x, int d, uint32_t v);
/* The phases of the tree, its bound at the root, the order of its bits;
 * false if the budget ran out. */
bool solve_xphases(SolveXor *x);
/* For each v0 .. v0+nv-1 of mask d, the phase's bound in out. */
void solve_xchildren(SolveXor *x, SolveXPhase *p, int d, int nv, int v0,
                     int *out);
/* Are the run's maps twins (solve_xbound.c says when)?  Sets x->sym and
 * the values twin maps keep; solve_xphases asks it. */
bool solve_xtwins(SolveXor *x);
/* Row bits whose masks no map that enters the ranking can leave 0. */
uint32_t solve_xforced(SolveXor *x);
void solve_xfree(SolveXor *x);

/* Row bits whose masks change no collision under the xor layout l: where
 * a stored row is a power of two of words below the banks (and the
 * stages move no bank), row bit b moves a word's bank by (words << b), a
 * bank bit no map reaches, since f moves chunks within the row.  So words
 * of rows that differ in b never share a bank, and for rows that agree on
 * b its mask moves both alike: every map costs what it costs with x_b =
 * 0, which has no more arithmetic (a zero mask, or a run's end) and comes
 * first in the order.  The family lists such maps once, as that one. */
uint32_t solve_xidle(const Layout *l, const Tile *t, const Geom *g);
/* solve_twin.c: the least value outside a subspace (a power of two), and
 * the subspace with v added. */
uint32_t solve_twin_outside(uint64_t set);
uint64_t solve_twin_span(uint64_t set, uint32_t v);
/* Keep value v too (and the span it makes with those kept). */
void solve_twin_keep(XorTwins *tw, uint32_t v);
/* Of the shifts s in `shifts` (bit s), those for which a twin map takes
 * the masks g_0 .. g_(len-1) of a run to 2^s, 2^(s+1), ... */
uint32_t solve_twin_shifts(const XorTwins *tw, const uint32_t *g, int len,
                           uint32_t shifts);
/* The twin of masks `in` that ranks first (solve_xor.c says when twins
 * cost alike): the least arithmetic, then the first in the order. */
void solve_best_twin(const XorTwins *tw, const uint32_t *in, int n,
                     uint32_t *out);
/* The xor family (swapped or not) lists one map per class of twins from
 * now on: solve_keep keeps a map of it as the twin that ranks first (the
 * same cost), and the ranking's maps become so. */
void solve_twins_known(SolveSearch *se, bool swap, const XorTwins *tw);
/* Search the xor family (swapped or not) by branch and bound over its
 * maps, row bit by row bit. */
void solve_xor(SolveSearch *se, bool swap);
/* Before that: the best child at every level, down to one map, costed
 * and kept as a seed (a bound for the rest of the search). */
void solve_xor_dive(SolveSearch *se, bool swap);
void solve_xor_done(SolveSearch *se);

#endif
