/* The model's own declarations: what its files, their unit tests and
 * the few callers that need a layout's parts (the solver's twins, scan's
 * fixes) use of the layouts and the wgmma descriptors. */
#ifndef BANKC_MODEL_H
#define BANKC_MODEL_H

#include "bankc.h"

/* ---- layout.c ------------------------------------------------------------- */

/* Where element (r, c) of t lives under l: its offset in elements. */
int64_t layout_offset(const Layout *l, const Tile *t, int r, int c);
/* L_XOR: is the map f(r) = ((r >> a) & (2^n - 1)) << b, n consecutive row
 * bits into chunk bits, computed with one shift, mask and shift as a
 * swizzle's?  Its arithmetic: 3 so, or with one nonzero mask; 1 + 2 per
 * nonzero mask otherwise. */
bool layout_xor_shift(const Layout *l, int *a, int *n, int *b);
int layout_xor_map_arith(const Layout *l);

/* ---- wgmma.c -------------------------------------------------------------- */

/* A tile of `rows` rows of `row_bytes` bytes, stages stage_bytes apart
 * from a base aligned to `align`: false (and *why) when wgmma cannot read
 * it through a descriptor. */
bool wgmma_desc(int B, int rows, int row_bytes, int elem_bytes,
                bool operand_b, bool mn_major, int64_t stage_bytes,
                int64_t align, WgmmaDesc *out, const char **why);
/* The 64-bit descriptor of a sub-block at shared address smem_addr. */
uint64_t wgmma_desc_word(const WgmmaDesc *d, uint32_t smem_addr);

/* ---- mma_canon.c: the canonical layouts both tensor cores read --------- */

typedef struct {
	int B;              /* Swizzle<B,4,3> (0: none); Swizzle<2,5,2> if atom32 */
	bool atom32;        /* the 128-byte swizzle on 32-byte atoms (tcgen05) */
	int box_bytes;      /* W: 16 << B, or 128 */
	int lbo, sbo;       /* bytes */
	bool lbo_used;      /* false: K-major swizzled, LBO not read (16) */
	int64_t pattern;    /* bytes of the swizzle's repeating pattern */
} MmaCanon;

/* A tile of `rows` rows of `row_bytes` bytes in boxes of the swizzle's
 * width, stages stage_bytes apart from a base aligned to `align`: false
 * (and *why) when it is not a canonical layout a descriptor can name. */
bool mma_canon(int B, bool atom32, int rows, int row_bytes, bool mn_major,
               int64_t stage_bytes, int64_t align, MmaCanon *out,
               const char **why);
int mma_box_bytes(int B, bool atom32);
int64_t mma_pattern_bytes(int B, bool atom32);

/* ---- umma.c ---------------------------------------------------------------- */

/* As wgmma_desc, for tcgen05.mma: elem_bits 4 (packed fp4, kind::mxf4),
 * 8, 16 or 32; cta_group 1 or 2. */
bool umma_desc(int B, bool atom32, int rows, int row_bytes, int elem_bits,
               bool operand_b, bool mn_major, int cta_group,
               int64_t stage_bytes, int64_t align, UmmaDesc *out,
               const char **why);
/* A descriptor word's fields, as the PTX ISA defines them. */
typedef struct {
	uint32_t start, lbo, sbo;   /* bytes */
	int base_offset;
	bool lbo_absolute;          /* bit 52 */
	int layout_type;
} UmmaFields;
/* Read word w: false (and *why) for what the PTX ISA forbids (the fixed
 * bits not 0b001, a reserved bit set, layout codes 3, 5, 7, the absolute
 * LBO mode off sm_103a or outside its limits). */
bool umma_desc_read(uint64_t w, bool sm103a, UmmaFields *f, const char **why);
/* The base-offset field for a swizzle pattern starting at pattern_start
 * (not the start address of a K step inside it). */
int umma_base_offset(uint32_t pattern_start, int layout_type);

#endif
