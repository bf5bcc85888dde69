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

#endif
