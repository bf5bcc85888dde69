/* What the front end and the model know about types, GPUs and operations.
 * Shared-memory limits are CUDA's documented per-architecture figures. */
#include <string.h>

#include "bankc.h"

const DtypeInfo tab_dtype[DT_COUNT] = {
	[DT_F16] = {"f16", 2, 16, "unsigned short"},
	[DT_BF16] = {"bf16", 2, 16, "unsigned short"},
	[DT_F32] = {"f32", 4, 32, "float"},
	[DT_F64] = {"f64", 8, 64, "double"},
	[DT_TF32] = {"tf32", 4, 32, "float"},
	[DT_I8] = {"i8", 1, 8, "signed char"},
	[DT_U8] = {"u8", 1, 8, "unsigned char"},
	[DT_I16] = {"i16", 2, 16, "short"},
	[DT_I32] = {"i32", 4, 32, "int"},
	[DT_I64] = {"i64", 8, 64, "long long"},
	[DT_FP8E4M3] = {"fp8e4m3", 1, 8, "unsigned char"},
	[DT_FP8E5M2] = {"fp8e5m2", 1, 8, "unsigned char"},
	[DT_U16] = {"u16", 2, 16, "unsigned short"},
	[DT_U32] = {"u32", 4, 32, "unsigned"},
	[DT_U64] = {"u64", 8, 64, "unsigned long long"},
	/* sub-byte types: a tile of them is laid out byte by byte */
	[DT_FP6E2M3] = {"fp6e2m3", 1, 6, "unsigned char"},
	[DT_FP6E3M2] = {"fp6e3m2", 1, 6, "unsigned char"},
	[DT_FP4E2M1] = {"fp4e2m1", 1, 4, "unsigned char"},
	[DT_I4] = {"i4", 1, 4, "unsigned char"},
	[DT_U4] = {"u4", 1, 4, "unsigned char"},
};

/* The bank model (32 banks of 4 bytes) was measured on an H200 (sm_90);
 * for the others it is assumed, and every report says so.  sm_100,
 * sm_103 and sm_120 limits are CUDA's documented ones for compute
 * capability 10.0, 10.3 and 12.0.  What each "a" target has of
 * Blackwell's (PTX ISA, tcgen05 and ldmatrix's target notes): tcgen05
 * (UMMA, tensor memory) on sm_100a and sm_103a only, the 8-bit
 * ldmatrix/stmatrix forms on sm_100a, sm_103a and sm_120a; sm_120a has
 * neither tcgen05 nor wgmma. */
const ArchInfo tab_arch[ARCH_COUNT] = {
	/* name    cc  block    SM       rsv   thr   blk  a  measured tcgen05 b8 */
	[ARCH_SM70] = {"sm_70", 70, 98304, 98304, 0, 2048, 32, false, false,
	               false, false},
	[ARCH_SM75] = {"sm_75", 75, 65536, 65536, 0, 1024, 16, false, false,
	               false, false},
	[ARCH_SM80] = {"sm_80", 80, 166912, 167936, 1024, 2048, 32, false, false,
	               false, false},
	[ARCH_SM86] = {"sm_86", 86, 101376, 102400, 1024, 1536, 16, false, false,
	               false, false},
	[ARCH_SM89] = {"sm_89", 89, 101376, 102400, 1024, 1536, 24, false, false,
	               false, false},
	[ARCH_SM90] = {"sm_90", 90, 232448, 233472, 1024, 2048, 32, false, true,
	               false, false},
	[ARCH_SM90A] = {"sm_90a", 90, 232448, 233472, 1024, 2048, 32, true, true,
	                false, false},
	[ARCH_SM100] = {"sm_100", 100, 232448, 233472, 1024, 2048, 32, false,
	                false, false, false},
	[ARCH_SM100A] = {"sm_100a", 100, 232448, 233472, 1024, 2048, 32, true,
	                 false, true, true},
	[ARCH_SM103] = {"sm_103", 103, 232448, 233472, 1024, 2048, 32, false,
	                false, false, false},
	[ARCH_SM103A] = {"sm_103a", 103, 232448, 233472, 1024, 2048, 32, true,
	                 false, true, true},
	[ARCH_SM120] = {"sm_120", 120, 101376, 102400, 1024, 1536, 32, false,
	                false, false, false},
	[ARCH_SM120A] = {"sm_120a", 120, 101376, 102400, 1024, 1536, 32, true,
	                 false, false, true},
};

static const char *const atom_names[] = {
	[AOP_NONE] = "", [AOP_ADD] = "add", [AOP_MIN] = "min", [AOP_MAX] = "max",
	[AOP_INC] = "inc", [AOP_DEC] = "dec", [AOP_AND] = "and", [AOP_OR] = "or",
	[AOP_XOR] = "xor", [AOP_EXCH] = "exch", [AOP_CAS] = "cas", [AOP_ADD1] = "add1",
};

static bool eq(const char *s, size_t n, const char *lit)
{
	return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

int tab_find_dtype(const char *s, size_t n)
{
	for (int i = 0; i < DT_COUNT; i++)
		if (eq(s, n, tab_dtype[i].name))
			return i;
	return -1;
}

int tab_find_arch(const char *s, size_t n)
{
	for (int i = 0; i < ARCH_COUNT; i++)
		if (eq(s, n, tab_arch[i].name))
			return i;
	return -1;
}

/* The 8-bit matrix forms' names after "ldmatrix." or "stmatrix.": the
 * shape, whether .trans is required (it is the only form), and which
 * instruction has it. */
static const struct {
	const char *name;
	MatShape shape;
	bool ld;
} mat_shapes[] = {
	{"m16n16", MAT_M16N16, true},
	{"m8n16", MAT_M8N16, true},
	{"m16n8", MAT_M16N8, false},
};

static const char *shape_name(MatShape s)
{
	for (size_t i = 0; i < sizeof mat_shapes / sizeof *mat_shapes; i++)
		if (mat_shapes[i].shape == s)
			return mat_shapes[i].name;
	return "m8n8";
}

/* load | store | cp.async | (ldmatrix|stmatrix)[.SHAPE].x(1|2|4)[.trans]
 * | (atom|red)[.OPERATION] | (wgmma|umma).(a|b) */
bool tab_parse_op(const char *s, size_t n, Op *op)
{
	Op o = {0};
	if ((n >= 4 && memcmp(s, "atom", 4) == 0) ||
	    (n >= 3 && memcmp(s, "red", 3) == 0)) {
		o.kind = OP_ATOM;
		o.red = s[0] == 'r';
		size_t k = o.red ? 3 : 4;
		if (k == n) {
			*op = o;
			return true;
		}
		if (s[k] != '.')
			return false;
		for (int a = AOP_ADD; a < AOP_COUNT; a++)
			if (eq(s + k + 1, n - k - 1, atom_names[a])) {
				/* red returns nothing: no exchange, no compare-and-swap;
				 * add1 is the reduction that returns nothing */
				if (o.red && (a == AOP_EXCH || a == AOP_CAS))
					return false;
				if (!o.red && a == AOP_ADD1)
					return false;
				o.aop = (AtomOp)a;
				*op = o;
				return true;
			}
		return false;
	}
	if (eq(s, n, "wgmma.a") || eq(s, n, "wgmma.b") || eq(s, n, "umma.a") ||
	    eq(s, n, "umma.b")) {
		/* a tensor core's operand (wgmma.mma_async's, tcgen05.mma's),
		 * read through a descriptor as core matrices of 8 rows of 16
		 * bytes: four to an instruction here */
		o.kind = s[0] == 'w' ? OP_WGMMA : OP_UMMA;
		o.mma_b = s[n - 1] == 'b';
		o.nmat = 4;
		o.cta_group = o.kind == OP_UMMA ? 1 : 0;
		*op = o;
		return true;
	}
	if (eq(s, n, "load")) {
		o.kind = OP_LOAD;
	} else if (eq(s, n, "store")) {
		o.kind = OP_STORE;
	} else if (eq(s, n, "cp.async") || eq(s, n, "cp.async.ca") ||
	           eq(s, n, "cp.async.cg")) {
		/* the cache hint does not change the shared-memory side */
		o.kind = OP_CPASYNC;
	} else {
		const char *base;
		if (n > 8 && memcmp(s, "ldmatrix", 8) == 0)
			o.kind = OP_LDMATRIX, base = s + 8;
		else if (n > 8 && memcmp(s, "stmatrix", 8) == 0)
			o.kind = OP_STMATRIX, base = s + 8;
		else
			return false;
		size_t rest = n - (size_t)(base - s);
		for (size_t i = 0; i < sizeof mat_shapes / sizeof *mat_shapes; i++) {
			size_t k = strlen(mat_shapes[i].name);
			if (rest > k + 1 && base[0] == '.' &&
			    memcmp(base + 1, mat_shapes[i].name, k) == 0 &&
			    base[k + 1] == '.') {
				if (mat_shapes[i].ld != (o.kind == OP_LDMATRIX))
					return false;
				o.shape = mat_shapes[i].shape;
				base += k + 1, rest -= k + 1;
				break;
			}
		}
		if (rest >= 3 && base[0] == '.' && base[1] == 'x' &&
		    (base[2] == '1' || base[2] == '2' || base[2] == '4')) {
			o.nmat = base[2] - '0';
			base += 3, rest -= 3;
		} else {
			return false;
		}
		if (eq(base, rest, ".trans"))
			o.trans = true;
		else if (rest != 0)
			return false;
		/* PTX ISA: m16n16 and m16n8 exist only transposed, m8n16 only
		 * plain; m16n16 only as .x1 and .x2 */
		if ((o.shape == MAT_M16N16 || o.shape == MAT_M16N8) != o.trans &&
		    o.shape != MAT_M8N8)
			return false;
		if (o.shape == MAT_M16N16 && o.nmat == 4)
			return false;
	}
	*op = o;
	return true;
}

void tab_op_name(Op op, char *buf, size_t n)
{
	switch (op.kind) {
	case OP_LOAD: snprintf(buf, n, "load"); break;
	case OP_STORE: snprintf(buf, n, "store"); break;
	case OP_CPASYNC: snprintf(buf, n, "cp.async"); break;
	case OP_WGMMA:
	case OP_UMMA:
		snprintf(buf, n, "%s.%c", op.kind == OP_WGMMA ? "wgmma" : "umma",
		         op.mma_b ? 'b' : 'a');
		break;
	case OP_ATOM:
		snprintf(buf, n, "%s%s%s", op.red ? "red" : "atom",
		         op.aop ? "." : "", atom_names[op.aop]);
		break;
	case OP_LDMATRIX:
	case OP_STMATRIX:
		snprintf(buf, n, "%s%s%s.x%d%s",
		         op.kind == OP_LDMATRIX ? "ldmatrix" : "stmatrix",
		         op.shape == MAT_M8N8 ? "" : ".",
		         op.shape == MAT_M8N8 ? "" : shape_name(op.shape), op.nmat,
		         op.trans ? ".trans" : "");
		break;
	}
}

bool op_is_load(Op op)
{
	return op.kind == OP_LOAD || op.kind == OP_LDMATRIX || op_is_mma(op);
}

bool op_is_mma(Op op)
{
	return op.kind == OP_WGMMA || op.kind == OP_UMMA;
}

/* Rows of 16 bytes, 8 a phase: ldmatrix, stmatrix, and the tensor cores'
 * core matrices. */
bool op_is_matrix(Op op)
{
	return op.kind == OP_LDMATRIX || op.kind == OP_STMATRIX || op_is_mma(op);
}

int op_rows8(Op op)
{
	return op.shape == MAT_M16N16 ? 2 * op.nmat : op.nmat;
}

int op_lanes(Op op)
{
	return op_is_matrix(op) ? 8 * op_rows8(op) : WARP;
}

int op_min_cc(Op op)
{
	switch (op.kind) {
	case OP_LDMATRIX: return op.shape == MAT_M8N8 ? 75 : 100;
	case OP_STMATRIX: return op.shape == MAT_M8N8 ? 90 : 100;
	case OP_WGMMA: return 90;
	case OP_UMMA: return 100;
	case OP_CPASYNC: return 80;
	default: return 70;
	}
}
