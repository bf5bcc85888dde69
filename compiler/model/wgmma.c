/* wgmma operand tiles: the matrix descriptor that lets wgmma.mma_async
 * read a tile in one of its canonical layouts (the header text that gives
 * it to a kernel is emit/emit_wgmma.c's).
 *
 * The layout (bankc's terms): the tile's columns split into boxes of
 * W = 16 << B bytes, box b holding columns [b W / E, (b + 1) W / E) of
 * every row and starting at byte b * rows * W of the stage; each box is
 * row-major (rows of W bytes) with Swizzle<B,4,3> on the byte offset
 * within it.  B = 0 is wgmma's no-swizzle ("interleave") layout, 1, 2, 3
 * its 32-, 64- and 128-byte swizzles.  `major k`: rows are M (operand A)
 * or N (B), columns K; `major mn`: rows are K, columns M or N.
 *
 * Sources of the rules below:
 *  [F] PTX ISA, wgmma, "Matrix Descriptor Format": start address, LBO and
 *      SBO encoded as (x & 0x3FFFF) >> 4 in bits 0-13, 16-29, 32-45; base
 *      offset in bits 49-51, 0 when the swizzle's repeating pattern starts
 *      on a 1024- (128B), 512- (64B) or 256-byte (32B) boundary; swizzle
 *      mode in bits 62-63 (0 none, 1 128B, 2 64B, 3 32B).
 *  [L] PTX ISA, wgmma, "Shared Memory Matrix Layout": matrices are made of
 *      swizzle atoms of 8 rows of W bytes (K-major: 8 M/N rows of W bytes
 *      of K; MN-major: 8 K rows of W bytes of M/N); core matrices are 8
 *      rows of 16 bytes; LBO is the distance between adjacent core
 *      matrices in K, SBO between adjacent ones in M or N.
 *  [C] CUTLASS 4.7, cute/atom/mma_traits_sm90_gmma.hpp, make_gmma_desc:
 *      the canonical forms in 16-byte units, T elements per unit:
 *        K-major  INTERLEAVE ((8,m),(T,2)):((1T,SBO),(1,LBO))
 *                 SW32/64/128 ((8,m),(T,2)):((W/16 T,SBO),(1,T)), LBO
 *                 unused ("assumed 1", and written as 1)
 *        MN-major INTERLEAVE ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))
 *                 SW32/64/128 ((T,W/16,m),(8,k)):((1,T,LBO),(W/16 T,SBO))
 *      so that for swizzled MN-major layouts LBO steps along M/N (from one
 *      W-byte column block to the next) and SBO along K (from one 8-row
 *      group to the next), the reverse of the interleaved case.
 * The code and comments here are bankc's own; only those facts carry. */
#include <string.h>

#include "bankc.h"
#include "model/model.h"

static bool fail(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return false;
}

/* The descriptor's strides are 14-bit fields of 16-byte units [F]. */
enum { WGMMA_FIELD_MAX = 0x3FFF << 4 };

bool wgmma_desc(int B, int rows, int row_bytes, int elem_bytes,
                bool operand_b, bool mn_major, int64_t stage_bytes,
                int64_t align, WgmmaDesc *out, const char **why)
{
	if (B < 0 || B > 3)
		return fail(why, "wgmma swizzles are 0 (none), 1 (32-byte), 2 "
		            "(64-byte) and 3 (128-byte)");
	if (elem_bytes != 1 && elem_bytes != 2 && elem_bytes != 4)
		return fail(why, "wgmma operands have elements of 1, 2 or 4 bytes");
	if (mn_major && elem_bytes != 2)
		return fail(why, "only 16-bit operands can be M- or N-major");
	if (rows <= 0 || rows % 8 || row_bytes <= 0 || row_bytes % 16)
		return fail(why, "a wgmma operand is made of core matrices of 8 "
		            "rows of 16 bytes");
	int W = 16 << B;
	if (row_bytes % W)
		return fail(why, "the rows do not split into whole boxes of the "
		            "swizzle's width");
	/* one instruction takes 32 bytes of K: k16 of 16-bit types, k8 of
	 * tf32, k32 of 8-bit ones; MN-major (16-bit) that is 16 rows */
	if (!mn_major && row_bytes % 32)
		return fail(why, "K is not a whole number of the instruction's "
		            "32-byte K steps");
	if (mn_major && rows % 16)
		return fail(why, "K (the rows of an MN-major tile) is not a whole "
		            "number of the instruction's 16-row K steps");
	int mn = mn_major ? row_bytes / elem_bytes : rows;
	if (!operand_b && mn % 64)
		return fail(why, "operand A's M is not a whole number of the "
		            "instruction's 64 rows");
	/* [F]: with every stage on the pattern's boundary the base offset is
	 * 0; bankc lays boxes of rows * W bytes (a multiple of 8 W) one after
	 * another, so only the base and the stage step can break that */
	int64_t pattern = B ? 8 * W : 16;
	if (align < pattern)
		return fail(why, "the base alignment is below the swizzle "
		            "pattern's repeat (8 rows of the box)");
	if (stage_bytes < (int64_t)rows * row_bytes || stage_bytes % pattern)
		return fail(why, "a stage would not start on the swizzle "
		            "pattern's boundary");
	int64_t box = (int64_t)rows * W;        /* from one box to the next */
	WgmmaDesc d = {0};
	d.B = B;
	d.swizzle = B == 0 ? 0 : 4 - B;         /* [F]: 1 128B, 2 64B, 3 32B */
	d.box_bytes = W;
	d.operand_b = operand_b;
	d.mn_major = mn_major;
	d.base_offset = 0;
	int64_t lbo, sbo;
	if (!mn_major && B == 0) {
		/* [C] K-major INTERLEAVE, [L]: the two core matrices of an
		 * instruction's 32 bytes of K are adjacent 16-byte boxes; the
		 * 8-row core matrices of M/N lie 128 bytes apart in a box */
		lbo = box;
		sbo = 128;
		d.lbo_used = true;
	} else if (!mn_major) {
		/* [C] K-major SW*: K never leaves the W-byte row within one
		 * instruction, so LBO is not read; CUTLASS writes 1 (16 bytes).
		 * SBO: 8 rows of W bytes, from one 8-row group to the next */
		lbo = 16;
		sbo = 8 * W;
		d.lbo_used = false;
	} else if (B == 0) {
		/* [C] MN-major INTERLEAVE: LBO along K (8 rows of 16 bytes, the
		 * next core matrix in a box), SBO along M/N (the next box) */
		lbo = 128;
		sbo = box;
		d.lbo_used = true;
	} else {
		/* [C] MN-major SW*: LBO along M/N, from one W-byte box to the
		 * next; SBO along K, from one 8-row group (8 W bytes) to the next */
		lbo = box;
		sbo = 8 * W;
		d.lbo_used = true;
	}
	if (lbo > WGMMA_FIELD_MAX || sbo > WGMMA_FIELD_MAX)
		return fail(why, "a box is too large for the descriptor's 14-bit "
		            "stride fields (at most 262128 bytes)");
	d.lbo = (int)lbo;
	d.sbo = (int)sbo;
	*out = d;
	return true;
}

bool wgmma_tile_desc(const Tile *t, int B, int64_t stage_bytes,
                     WgmmaDesc *out, const char **why)
{
	const Access *first = NULL;
	for (int j = 0; j < t->nacc; j++) {
		const Access *a = &t->acc[j];
		if (a->op.kind != OP_WGMMA)
			continue;
		if (!first)
			first = a;
		else if (a->op.mn_major != first->op.mn_major)
			return fail(why, "the tile's wgmma accesses disagree on its "
			            "major axis");
	}
	if (!first)
		return fail(why, "the tile has no wgmma access");
	/* wgmma's types are whole bytes: the element size is the type's */
	int es = tab_dtype[t->dtype].bytes;
	return wgmma_desc(B, t->rows, t->cols * es, es, first->op.wg_b,
	                  first->op.mn_major, stage_bytes, t->align, out, why);
}

uint64_t wgmma_desc_word(const WgmmaDesc *d, uint32_t smem_addr)
{
	return (uint64_t)((smem_addr & 0x3FFFFu) >> 4) |
	       (uint64_t)((uint32_t)(d->lbo & 0x3FFFF) >> 4) << 16 |
	       (uint64_t)((uint32_t)(d->sbo & 0x3FFFF) >> 4) << 32 |
	       (uint64_t)(d->base_offset & 7) << 49 |
	       (uint64_t)(d->swizzle & 3) << 62;
}
