/* tcgen05.mma operand tiles: the shared-memory descriptor through which
 * Blackwell's tensor cores (UMMA) read a tile in one of the canonical
 * layouts (model/mma_canon.c gives the layouts and their strides; the
 * header text that gives the descriptor to a kernel is emit/emit_umma.c's).
 *
 * Sources of the rules below:
 *  [D] PTX ISA 9.0, tcgen05 "Shared Memory Descriptor": start address, LBO
 *      and SBO encoded as (x & 0x3FFFF) >> 4 in bits 0-13, 16-29, 32-45
 *      (bits 14-15 and 30-31 reserved); bits 46-48 the fixed value 0b001;
 *      base offset in bits 49-51, 0 when the swizzle's repeating pattern
 *      starts on its 1024- (128B), 512- (64B) or 256-byte (32B) boundary,
 *      else (pattern start >> 7) & 7; bit 52 the leading-dimension stride
 *      mode (0 a relative offset; 1 an absolute address, sm_103a only,
 *      K-major 128-byte swizzle with base offset 0, for K tiles of 48
 *      bytes); bits 53-60 zero; bits 61-63 the swizzle: 0 none, 1 128-byte
 *      on 32-byte atoms, 2 128-byte, 4 64-byte, 6 32-byte; 3, 5 and 7 are
 *      invalid.
 *  [S] PTX ISA 9.0, tcgen05 "Matrix Shape" and "Instruction Descriptor":
 *      32 bytes of K per instruction (k16 f16/bf16, k8 tf32, k32 of the
 *      8-bit types, k64 of packed fp4 in kind::mxf4); M 64 or 128 in one
 *      CTA (128 for kind::mxf4), 128 or 256 for a CTA pair, whose CTAs hold
 *      half each; N a multiple of 8 (16 for a pair); the transpose (MN-
 *      major) bits exist for kind::f16, tf32, f8f6f4 and i8, not mxf4.
 *  [C] CUTLASS 4.7, cute/arch/mma_sm100_desc.hpp (make_umma_desc: version
 *      1, LBO mode 0, base offset 0) and cutlass/gemm/collective/builders/
 *      sm100_common.inl: "for mn-major tf32 operands, SW128_32B is the only
 *      available smem layout"; bankc gives the 32-byte-atom layout to those
 *      and to no other.
 * ptxas does not check a descriptor's contents: what is wrong in one
 * shows only as wrong products, so bankc checks them here.
 * The code and comments here are bankc's own; only those facts carry. */
#include "bankc.h"
#include "model/model.h"

static bool fail(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return false;
}

int umma_layout_type(int B, bool atom32)
{
	/* [D]: 1 128B on 32B atoms, 2 128B, 4 64B, 6 32B, 0 none */
	return atom32 ? 1 : B == 3 ? 2 : B == 2 ? 4 : B == 1 ? 6 : 0;
}

bool umma_desc(int B, bool atom32, int rows, int row_bytes, int elem_bits,
               bool operand_b, bool mn_major, int cta_group,
               int64_t stage_bytes, int64_t align, UmmaDesc *out,
               const char **why)
{
	if (elem_bits != 4 && elem_bits != 8 && elem_bits != 16 &&
	    elem_bits != 32)
		return fail(why, "tcgen05.mma operands have elements of 4 (packed "
		            "fp4), 8, 16 or 32 bits");
	if (cta_group != 1 && cta_group != 2)
		return fail(why, "cta_group is 1 or 2");
	if (elem_bits == 4 && mn_major)
		return fail(why, "packed 4-bit operands (kind::mxf4) are K-major "
		            "only");
	if (mn_major && elem_bits == 32 && !atom32)
		return fail(why, "MN-major tf32 operands are read only in the "
		            "128-byte swizzle on 32-byte atoms");
	if (atom32 && elem_bits != 32)
		return fail(why, "the 128-byte swizzle on 32-byte atoms is given to "
		            "MN-major tf32 operands only");
	MmaCanon c;
	if (!mma_canon(B, atom32, rows, row_bytes, mn_major, stage_bytes, align,
	               &c, why))
		return false;
	/* [S]: 32 bytes of K an instruction; MN-major that is 256 / bits rows */
	if (!mn_major && row_bytes % 32)
		return fail(why, "K is not a whole number of the instruction's "
		            "32-byte K steps");
	if (mn_major && rows % (256 / elem_bits))
		return fail(why, "K (the rows of an MN-major tile) is not a whole "
		            "number of the instruction's K steps (32 bytes of K)");
	int mn = mn_major ? row_bytes * 8 / elem_bits : rows;
	int m = elem_bits == 4 && cta_group == 1 ? 128 : 64;
	if (!operand_b && mn % m)
		return fail(why, "operand A's M is not a whole number of the "
		            "instruction's M in a CTA (64, or 128 for kind::mxf4)");
	if (operand_b && mn % 8)
		return fail(why, "operand B's N is not a whole number of 8");
	UmmaDesc d = {0};
	d.B = B;
	d.atom32 = atom32;
	d.layout_type = umma_layout_type(B, atom32);
	d.box_bytes = c.box_bytes;
	d.lbo = c.lbo;
	d.sbo = c.sbo;
	/* [C]: make_umma_desc reads the strides off one instruction's
	 * sub-block, and one the sub-block never steps by is a mode of size 1,
	 * written 0 (K-major swizzled LBO aside: "assumed 1").  The largest
	 * instruction here: A's M of 128 in a CTA (or the tile's, if less), B's
	 * N of 256 (or the tile's); a smaller one steps by no more */
	int mni = operand_b ? (mn < 256 ? mn : 256) : (mn < 128 ? mn : 128);
	int mnb = mn_major ? mni * elem_bits / 8 : mni;     /* bytes or rows */
	int W = c.box_bytes;
	bool lbo_used, sbo_used;
	if (!mn_major) {
		lbo_used = B == 0;              /* 32 bytes of K: two 16-byte boxes */
		sbo_used = mnb > 8;             /* rows past the first core matrix */
	} else if (B == 0) {
		lbo_used = true;                /* K: 16 or 32 rows, past 8 */
		sbo_used = mnb > 16;
	} else {
		lbo_used = mnb > W;             /* M/N past the first box */
		sbo_used = true;                /* K: past the first 8 (4) rows */
	}
	if (!sbo_used)
		d.sbo = 0;
	if (!lbo_used && mn_major)
		d.lbo = 0;
	d.lbo_used = lbo_used;
	d.sbo_used = sbo_used;
	d.base_offset = 0;
	d.operand_b = operand_b;
	d.mn_major = mn_major;
	d.cta_group = cta_group;
	d.k_elems = 256 / elem_bits;
	d.m_cta = operand_b ? 0 : m;
	*out = d;
	return true;
}

bool umma_tile_desc(const Tile *t, int B, bool atom32, int64_t stage_bytes,
                    UmmaDesc *out, const char **why)
{
	const Access *first = NULL;
	for (int j = 0; j < t->nacc; j++) {
		const Access *a = &t->acc[j];
		if (a->op.kind != OP_UMMA)
			continue;
		if (!first)
			first = a;
		else if (a->op.mn_major != first->op.mn_major)
			return fail(why, "the tile's tcgen05.mma accesses disagree on "
			            "its major axis");
	}
	if (!first)
		return fail(why, "the tile has no tcgen05.mma access");
	/* cols count bytes for packed fp4 (two elements a byte); the type's
	 * table, not front/tile.c, so that a generator of headers (tests/
	 * wgmma/gen_umma.c) needs only the model */
	const DtypeInfo *ty = &tab_dtype[t->dtype];
	return umma_desc(B, atom32, t->rows, t->cols * ty->bytes, ty->bits,
	                 first->op.mma_b, first->op.mn_major, first->op.cta_group,
	                 stage_bytes, t->align, out, why);
}

uint64_t umma_desc_word(const UmmaDesc *d, uint32_t smem_addr)
{
	return (uint64_t)((smem_addr & 0x3FFFFu) >> 4) |
	       (uint64_t)((uint32_t)(d->lbo & 0x3FFFF) >> 4) << 16 |
	       (uint64_t)((uint32_t)(d->sbo & 0x3FFFF) >> 4) << 32 |
	       (uint64_t)1 << 46 |
	       (uint64_t)(d->base_offset & 7) << 49 |
	       (uint64_t)(d->layout_type & 7) << 61;
}

bool umma_desc_read(uint64_t w, bool sm103a, UmmaFields *f, const char **why)
{
	UmmaFields r = {0};
	r.start = (uint32_t)(w & 0x3FFF) << 4;
	r.lbo = (uint32_t)(w >> 16 & 0x3FFF) << 4;
	r.sbo = (uint32_t)(w >> 32 & 0x3FFF) << 4;
	r.base_offset = (int)(w >> 49 & 7);
	r.lbo_absolute = (w >> 52 & 1) != 0;
	r.layout_type = (int)(w >> 61);
	if ((w >> 46 & 7) != 1)
		return fail(why, "bits 46-48 are not the fixed value 0b001 (a wgmma "
		            "descriptor has no such field)");
	if (w & (3ull << 14 | 3ull << 30 | 0xFFull << 53))
		return fail(why, "a reserved bit (14-15, 30-31 or 53-60) is set");
	if (r.layout_type == 3 || r.layout_type == 5 || r.layout_type == 7)
		return fail(why, "layout codes 3, 5 and 7 are invalid");
	if (r.lbo_absolute && !sm103a)
		return fail(why, "the absolute leading-dimension address (bit 52) "
		            "is sm_103a's only");
	if (r.lbo_absolute && (r.layout_type != 2 || r.base_offset))
		return fail(why, "the absolute leading-dimension address needs the "
		            "128-byte swizzle and base offset 0");
	*f = r;
	return true;
}

int umma_base_offset(uint32_t pattern_start, int layout_type)
{
	/* [D]: 0 on the pattern's boundary, else (start >> 7) & 7 */
	uint32_t rep = layout_type == 4 ? 512 : layout_type == 6 ? 256
	               : layout_type ? 1024 : 0;
	if (!rep || pattern_start % rep == 0)
		return 0;
	return (int)(pattern_start >> 7 & 7);
}
