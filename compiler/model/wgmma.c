/* wgmma operand tiles: the matrix descriptor that lets wgmma.mma_async
 * read a tile in one of its canonical layouts (model/mma_canon.c gives
 * the layouts and their strides; the header text that gives the
 * descriptor to a kernel is emit/emit_wgmma.c's).
 *
 * Source of the encoding:
 *  [F] PTX ISA, wgmma, "Matrix Descriptor Format": start address, LBO and
 *      SBO encoded as (x & 0x3FFFF) >> 4 in bits 0-13, 16-29, 32-45; base
 *      offset in bits 49-51, 0 when the swizzle's repeating pattern starts
 *      on a 1024- (128B), 512- (64B) or 256-byte (32B) boundary; swizzle
 *      mode in bits 62-63 (0 none, 1 128B, 2 64B, 3 32B).
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
	MmaCanon c;
	if (!mma_canon(B, false, rows, row_bytes, mn_major, stage_bytes, align,
	               &c, why))
		return false;
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
	WgmmaDesc d = {0};
	d.B = B;
	d.swizzle = B == 0 ? 0 : 4 - B;         /* [F]: 1 128B, 2 64B, 3 32B */
	d.box_bytes = c.box_bytes;
	d.operand_b = operand_b;
	d.mn_major = mn_major;
	d.base_offset = 0;
	d.lbo = c.lbo;
	d.sbo = c.sbo;
	d.lbo_used = c.lbo_used;
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
	return wgmma_desc(B, t->rows, t->cols * es, es, first->op.mma_b,
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
