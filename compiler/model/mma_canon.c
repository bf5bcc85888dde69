/* The canonical layouts the tensor cores read through a shared-memory
 * descriptor: wgmma.mma_async's (model/wgmma.c) and tcgen05.mma's
 * (model/umma.c) are the same layouts with the same strides, each
 * descriptor encoding them its own way; tcgen05 adds one, the 128-byte
 * swizzle on 32-byte atoms.
 *
 * The layout (bankc's terms): the tile's columns split into boxes of W
 * bytes, box b holding columns [b W / E, (b + 1) W / E) of every row and
 * starting at byte b * rows * W of the stage; each box is row-major (rows
 * of W bytes) with a swizzle on the byte offset within it: Swizzle<B,4,3>
 * and W = 16 << B (B = 0: no swizzle, the "interleave"), or Swizzle<2,5,2>
 * and W = 128 (32-byte atoms).  `major k`: rows are M (operand A) or N
 * (B), columns K; `major mn`: rows are K, columns M or N.
 *
 * Sources of the rules below:
 *  [L] PTX ISA, wgmma "Shared Memory Matrix Layout" and tcgen05 "Major-ness
 *      supported by Strides": matrices are made of swizzle atoms of 8 rows
 *      of W bytes; core matrices are 8 rows of 16 bytes; for K-major
 *      layouts LBO is the distance between core matrices adjacent in K
 *      (not read when swizzled), SBO between 8-row groups in M/N; for
 *      MN-major ones LBO steps along M/N from one W-byte column block to
 *      the next and SBO along K from one 8-row group to the next, the
 *      reverse of the interleave, where SBO steps along M/N and LBO along
 *      K.  Both strides are 14-bit fields of 16-byte units.
 *  [C] CUTLASS 4.7, cute/atom/mma_traits_sm90_gmma.hpp (make_gmma_desc) and
 *      cute/arch/mma_sm100_desc.hpp (make_umma_desc): the same canonical
 *      forms in 16-byte units, T elements per unit:
 *        K-major  INTERLEAVE ((8,m),(T,2)):((1T,SBO),(1,LBO))
 *                 SW32/64/128 ((8,m),(T,2)):((W/16 T,SBO),(1,T)), LBO
 *                 "assumed 1" and written as 1
 *        MN-major INTERLEAVE ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))
 *                 SW32/64/128 ((T,W/16,m),(8,k)):((1,T,LBO),(W/16 T,SBO))
 *                 128B_BASE32B Swizzle<2,5,2>, atoms of 4 rows of 128
 *                 bytes ((T,8,m),(4,k)): LBO the next column block, SBO
 *                 the next 4-row group; MN-major only (make_umma_desc
 *                 refuses it K-major).
 * The code and comments here are bankc's own; only those facts carry. */
#include "bankc.h"
#include "model/model.h"

static bool fail(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return false;
}

/* The descriptor's strides are 14-bit fields of 16-byte units [L]. */
enum { MMA_FIELD_MAX = 0x3FFF << 4 };

int mma_box_bytes(int B, bool atom32)
{
	return atom32 ? 128 : 16 << B;
}

int64_t mma_pattern_bytes(int B, bool atom32)
{
	/* [L], "Starting address of the repeating pattern": 1024, 512 and
	 * 256 bytes for the 128-, 64- and 32-byte swizzles; the 32-byte-atom
	 * form is a 128-byte swizzle, and no swizzle repeats every 16 */
	return atom32 ? 1024 : B ? 8 << (4 + B) : 16;
}

bool mma_canon(int B, bool atom32, int rows, int row_bytes, bool mn_major,
               int64_t stage_bytes, int64_t align, MmaCanon *out,
               const char **why)
{
	if (B < 0 || B > 3 || (atom32 && B != 2))
		return fail(why, "the canonical swizzles are none, 32-, 64- and "
		            "128-byte, and the 128-byte swizzle on 32-byte atoms");
	if (atom32 && !mn_major)
		return fail(why, "the 128-byte swizzle on 32-byte atoms is an "
		            "MN-major layout only");
	if (rows <= 0 || rows % 8 || row_bytes <= 0 || row_bytes % 16)
		return fail(why, "the operand is made of core matrices of 8 rows "
		            "of 16 bytes");
	int W = mma_box_bytes(B, atom32);
	if (row_bytes % W)
		return fail(why, "the rows do not split into whole boxes of the "
		            "swizzle's width");
	/* with every stage on the pattern's boundary the base offset is 0;
	 * boxes of rows * W bytes (a multiple of 8 W) lie one after another,
	 * so only the base and the stage step can break that */
	int64_t pattern = mma_pattern_bytes(B, atom32);
	if (align < pattern)
		return fail(why, "the base alignment is below the swizzle "
		            "pattern's repeat (8 rows of the box)");
	if (stage_bytes < (int64_t)rows * row_bytes || stage_bytes % pattern)
		return fail(why, "a stage would not start on the swizzle "
		            "pattern's boundary");
	int64_t box = (int64_t)rows * W;        /* from one box to the next */
	MmaCanon c = {0};
	c.B = B;
	c.atom32 = atom32;
	c.box_bytes = W;
	c.pattern = pattern;
	int64_t lbo, sbo;
	if (!mn_major && B == 0) {
		/* [C] K-major INTERLEAVE, [L]: the two core matrices of an
		 * instruction's 32 bytes of K are adjacent 16-byte boxes; the
		 * 8-row core matrices of M/N lie 128 bytes apart in a box */
		lbo = box;
		sbo = 128;
		c.lbo_used = true;
	} else if (!mn_major) {
		/* [C] K-major SW*: K never leaves the W-byte row within one
		 * instruction, so LBO is not read; CUTLASS writes 1 (16 bytes).
		 * SBO: 8 rows of W bytes, from one 8-row group to the next */
		lbo = 16;
		sbo = 8 * W;
		c.lbo_used = false;
	} else if (B == 0) {
		/* [C] MN-major INTERLEAVE: LBO along K (8 rows of 16 bytes, the
		 * next core matrix in a box), SBO along M/N (the next box) */
		lbo = 128;
		sbo = box;
		c.lbo_used = true;
	} else {
		/* [C] MN-major SW*: LBO along M/N, from one W-byte box to the
		 * next; SBO along K, from one 8-row group (8 W bytes) to the
		 * next, or one 4-row group on 32-byte atoms */
		lbo = box;
		sbo = (atom32 ? 4 : 8) * W;
		c.lbo_used = true;
	}
	if (lbo > MMA_FIELD_MAX || sbo > MMA_FIELD_MAX)
		return fail(why, "a box is too large for the descriptor's 14-bit "
		            "stride fields (at most 262128 bytes)");
	c.lbo = (int)lbo;
	c.sbo = (int)sbo;
	*out = c;
	return true;
}
