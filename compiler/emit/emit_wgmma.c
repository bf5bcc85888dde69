/* The wgmma parts of a build's outputs: the matrix descriptor's fields
 * and the function that makes a descriptor, in NAME.cuh, and the operand
 * check of NAME_check.cu (runtime/bankc_wgmma.cuh).  The descriptor's
 * maths is model/wgmma.c's. */
#include <string.h>

#include "bankc.h"
#include "emit/emit.h"

static const char *const mode_name[] = {"no swizzle (interleave)",
	"32-byte swizzle", "64-byte swizzle", "128-byte swizzle"};

void wgmma_emit(FILE *f, const char *up, const char *lo, const WgmmaDesc *d)
{
	int W = d->box_bytes;
	fprintf(f, "\n/* wgmma operand %c, %s-major, %s in boxes of %d bytes: "
	        "the\n * fields of wgmma.mma_async's matrix descriptor (PTX ISA, "
	        "\"Matrix\n * Descriptor Format\").\n *   %s_WGMMA_START(s, row, "
	        "col): the byte offset in the tile of\n *     the sub-block whose "
	        "first element is (row, col), a core-matrix\n *     corner (row a "
	        "multiple of 8, col of 16 bytes);\n *   %s_wgmma_desc(smem_addr, "
	        "s): the descriptor of such a sub-block\n *     at shared address "
	        "smem_addr in stage s. */\n", d->operand_b ? 'B' : 'A',
	        d->mn_major ? "MN" : "K", mode_name[d->B], W, up, lo);
	fprintf(f, "#define %s_WGMMA_SWIZZLE %d\t/* bits 62-63: 0 none, 1 128B, "
	        "2 64B, 3 32B */\n", up, d->swizzle);
	const char *lbo_note, *sbo_note;
	if (!d->mn_major && d->B == 0) {
		lbo_note = "along K: from one 16-byte box to the next";
		sbo_note = "along M/N: from one 8-row core matrix to the next";
	} else if (!d->mn_major) {
		lbo_note = "not read by swizzled K-major layouts (1 encoded)";
		sbo_note = "along M/N: from one 8-row group to the next";
	} else if (d->B == 0) {
		lbo_note = "along K: from one 8-row core matrix to the next";
		sbo_note = "along M/N: from one 16-byte box to the next";
	} else {
		lbo_note = "along M/N: from one box to the next";
		sbo_note = "along K: from one 8-row group to the next";
	}
	fprintf(f, "#define %s_WGMMA_LBO %d\t/* bytes, %s */\n", up, d->lbo,
	        lbo_note);
	fprintf(f, "#define %s_WGMMA_SBO %d\t/* bytes, %s */\n", up, d->sbo,
	        sbo_note);
	fprintf(f, "#define %s_WGMMA_MAJOR_MN %d\n", up, d->mn_major);
	fprintf(f, "#define %s_WGMMA_B %d\t/* 0: operand A, 1: operand B */\n", up,
	        d->operand_b);
	fprintf(f, "#define %s_WGMMA_START(s, row, col) (%s_SIDX(s, row, col) * "
	        "%s_ELEM_BYTES)\n", up, up, up);
	fprintf(f, "BANKC_FN unsigned long long %s_wgmma_desc(unsigned smem_addr, "
	        "int s)\n{\n", lo);
	fprintf(f, "\t(void)s;\t/* every stage starts on the pattern's boundary: "
	        "base offset %d */\n", d->base_offset);
	fprintf(f, "\treturn (unsigned long long)((smem_addr & 0x3FFFFu) >> 4) |\n"
	        "\t       (unsigned long long)(%s_WGMMA_LBO >> 4) << 16 |\n"
	        "\t       (unsigned long long)(%s_WGMMA_SBO >> 4) << 32 |\n"
	        "\t       (unsigned long long)%d << 49 |\n"
	        "\t       (unsigned long long)%s_WGMMA_SWIZZLE << 62;\n}\n", up, up,
	        d->base_offset, up);
}

const char *wgmma_check_type(Dtype dt)
{
	switch (dt) {
	case DT_F16: return "BANKC_WG_F16";
	case DT_BF16: return "BANKC_WG_BF16";
	case DT_TF32: return "BANKC_WG_TF32";
	case DT_FP8E4M3: return "BANKC_WG_E4M3";
	case DT_FP8E5M2: return "BANKC_WG_E5M2";
	case DT_I8: return "BANKC_WG_S8";
	case DT_U8: return "BANKC_WG_U8";
	default: return NULL;
	}
}

void wgmma_emit_check(FILE *f, const char *up, const char *lo, Dtype dt)
{
	const char *ty = wgmma_check_type(dt);
	fprintf(f, "#include \"bankc_wgmma.cuh\"\n"
	        "/* %s_wgmma: the tile as runtime/bankc_wgmma.cuh reads it; "
	        "bankc_wgmma_main<%s_wgmma>(argc, argv) issues real wgmma over "
	        "it */\nBANKC_WGMMA_TILE(%s, %s, %s);\n", lo, lo, lo, up,
	        ty ? ty : "BANKC_WG_NONE");
}
