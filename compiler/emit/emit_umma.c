/* The tcgen05.mma parts of a build's outputs: the shared-memory
 * descriptor's fields, the function that makes a descriptor and the K
 * step, in NAME.cuh; the operand check of NAME_check.cu
 * (runtime/bankc_umma.cuh).  The descriptor's maths is model/umma.c's;
 * NAME.json's account of it is emit/report.c's. */
#include "bankc.h"
#include "emit/emit.h"

static const char *mode_name(const UmmaDesc *d)
{
	return d->atom32 ? "128-byte swizzle on 32-byte atoms"
	       : d->B == 3 ? "128-byte swizzle" : d->B == 2 ? "64-byte swizzle"
	       : d->B == 1 ? "32-byte swizzle" : "no swizzle (interleave)";
}

/* What LBO and SBO step along, as a comment (model/mma_canon.c). */
static void stride_notes(const UmmaDesc *d, const char **lbo, const char **sbo)
{
	if (!d->mn_major && d->B == 0) {
		*lbo = "along K: from one 16-byte box to the next";
		*sbo = "along M/N: from one 8-row core matrix to the next";
	} else if (!d->mn_major) {
		*lbo = "not read by swizzled K-major layouts (1 encoded)";
		*sbo = "along M/N: from one 8-row group to the next";
	} else if (d->B == 0) {
		*lbo = "along K: from one 8-row core matrix to the next";
		*sbo = "along M/N: from one 16-byte box to the next";
	} else {
		*lbo = "along M/N: from one box to the next";
		*sbo = d->atom32 ? "along K: from one 4-row group to the next"
		                 : "along K: from one 8-row group to the next";
	}
}

void umma_emit(FILE *f, const char *up, const char *lo, const UmmaDesc *d)
{
	fprintf(f, "\n/* tcgen05.mma operand %c, %s-major, %s in boxes of %d "
	        "bytes%s:\n * the fields of its shared-memory descriptor (PTX ISA, "
	        "tcgen05 \"Shared Memory\n * Descriptor\").\n"
	        " *   %s_UMMA_START(s, row, col): the byte offset in the tile of "
	        "the\n *     sub-block whose first element is (row, col), a "
	        "core-matrix corner\n *     (row a multiple of 8, col of 16 bytes);\n"
	        " *   %s_UMMA_KSTEP(s, mn, kk): the same for the sub-block K step kk "
	        "of an\n *     instruction reads at M/N row mn (%s_UMMA_K elements "
	        "of K a step);\n"
	        " *   %s_umma_desc(smem_addr, s): the descriptor of such a sub-block "
	        "at\n *     shared address smem_addr in stage s. */\n",
	        d->operand_b ? 'B' : 'A', d->mn_major ? "MN" : "K", mode_name(d),
	        d->box_bytes, d->cta_group == 2 ? ", one CTA's half of a CTA pair's "
	        "operand" : "", up, up, up, lo);
	fprintf(f, "#define %s_UMMA_LAYOUT_TYPE %d\t/* bits 61-63: 0 none, 1 128B on "
	        "32B atoms, 2 128B, 4 64B, 6 32B */\n", up, d->layout_type);
	const char *lbo_note, *sbo_note;
	stride_notes(d, &lbo_note, &sbo_note);
	if (!d->lbo_used && d->mn_major)
		lbo_note = "not read: an instruction's M/N fits one box (0, as CUTLASS)";
	if (!d->sbo_used)
		sbo_note = "not read: an instruction's M/N fits one core matrix (0, as "
		           "CUTLASS)";
	fprintf(f, "#define %s_UMMA_LBO %d\t/* bytes, %s */\n", up, d->lbo,
	        lbo_note);
	fprintf(f, "#define %s_UMMA_SBO %d\t/* bytes, %s */\n", up, d->sbo,
	        sbo_note);
	fprintf(f, "#define %s_UMMA_MAJOR_MN %d\n", up, d->mn_major);
	fprintf(f, "#define %s_UMMA_B %d\t/* 0: operand A, 1: operand B */\n", up,
	        d->operand_b);
	fprintf(f, "#define %s_UMMA_CTA_GROUP %d\n", up, d->cta_group);
	fprintf(f, "#define %s_UMMA_K %d\t/* elements of K one instruction reads "
	        "(32 bytes) */\n", up, d->k_elems);
	fprintf(f, "#define %s_UMMA_START(s, row, col) (%s_SIDX(s, row, col) * "
	        "%s_ELEM_BYTES)\n", up, up, up);
	if (d->mn_major)
		fprintf(f, "#define %s_UMMA_KSTEP(s, mn, kk) %s_UMMA_START(s, (kk) * "
		        "%s_UMMA_K, mn)\n", up, up, up);
	else
		fprintf(f, "#define %s_UMMA_KSTEP(s, mn, kk) %s_UMMA_START(s, mn, (kk) "
		        "* %s_UMMA_K)\n", up, up, up);
	fprintf(f, "BANKC_FN unsigned long long %s_umma_desc(unsigned smem_addr, "
	        "int s)\n{\n", lo);
	fprintf(f, "\t(void)s;\t/* every stage starts on the pattern's boundary: "
	        "base offset %d */\n", d->base_offset);
	fprintf(f, "\treturn (unsigned long long)((smem_addr & 0x3FFFFu) >> 4) |\n"
	        "\t       (unsigned long long)(%s_UMMA_LBO >> 4) << 16 |\n"
	        "\t       (unsigned long long)(%s_UMMA_SBO >> 4) << 32 |\n"
	        "\t       (unsigned long long)1 << 46 |\t/* bits 46-48: 0b001 */\n"
	        "\t       (unsigned long long)%d << 49 |\n"
	        "\t       (unsigned long long)%s_UMMA_LAYOUT_TYPE << 61;\n}\n", up,
	        up, d->base_offset, up);
}

const char *umma_check_type(Dtype dt)
{
	switch (dt) {
	case DT_F16: return "BANKC_WG_F16";
	case DT_BF16: return "BANKC_WG_BF16";
	case DT_TF32: return "BANKC_WG_TF32";
	case DT_FP8E4M3: return "BANKC_WG_E4M3";
	case DT_FP8E5M2: return "BANKC_WG_E5M2";
	case DT_I8: return "BANKC_WG_S8";
	case DT_U8: return "BANKC_WG_U8";
	case DT_FP4E2M1: return "BANKC_UM_E2M1";
	default: return NULL;
	}
}

void umma_emit_check(FILE *f, const char *up, const char *lo, Dtype dt)
{
	const char *ty = umma_check_type(dt);
	fprintf(f, "#include \"bankc_umma.cuh\"\n"
	        "/* %s_umma: the tile as runtime/bankc_umma.cuh reads it; "
	        "bankc_umma_main<%s_umma>(argc, argv) checks its descriptors on "
	        "the host model and issues real tcgen05.mma over it */\n"
	        "BANKC_UMMA_TILE(%s, %s, %s);\n", lo, lo, lo, up,
	        ty ? ty : "BANKC_WG_NONE");
}
