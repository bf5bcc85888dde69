/* Opcodes: the name before the first dot says the operation, the
 * segments after it its types, state space, vector width and modifiers
 * (PTX ISA, "Instructions").  Modifiers that do not change an integer
 * result (caching, scope, ordering, rounding of floats) are ignored. */
#include <string.h>

#include "ptx/ptx.h"

const char *const ptx_atom_names[] = {
	"", "add", "inc", "dec", "min", "max", "and", "or", "xor", "exch", "cas",
	NULL,
};

static bool is(const char *s, size_t n, const char *lit)
{
	return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

static bool starts(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit);
	return n >= k && memcmp(s, lit, k) == 0;
}

/* A type segment; false if s is not one. */
static bool type_of(const char *s, size_t n, Ty *t)
{
	static const struct { const char *name; uint8_t kind, bytes; } types[] = {
		{"b8", TY_B, 1}, {"b16", TY_B, 2}, {"b32", TY_B, 4}, {"b64", TY_B, 8},
		{"b128", TY_B, 16}, {"u8", TY_U, 1}, {"u16", TY_U, 2},
		{"u32", TY_U, 4}, {"u64", TY_U, 8}, {"s8", TY_S, 1}, {"s16", TY_S, 2},
		{"s32", TY_S, 4}, {"s64", TY_S, 8}, {"f16", TY_F, 2},
		{"f16x2", TY_F, 4}, {"bf16", TY_F, 2}, {"bf16x2", TY_F, 4},
		{"f32", TY_F, 4}, {"f64", TY_F, 8}, {"tf32", TY_F, 4},
		{"e4m3", TY_F, 1}, {"e5m2", TY_F, 1}, {"e4m3x2", TY_F, 2},
		{"e5m2x2", TY_F, 2}, {"e2m1x2", TY_F, 1}, {"pred", TY_PRED, 1},
		{"u16x2", TY_F, 4}, {"s16x2", TY_F, 4},    /* packed: not modelled */
	};
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		if (is(s, n, types[i].name)) {
			*t = (Ty){types[i].kind, types[i].bytes};
			return true;
		}
	return false;
}

static const struct { const char *name; PtxOpKind kind; } bases[] = {
	{"mov", PO_MOV}, {"add", PO_ADD}, {"sub", PO_SUB}, {"addc", PO_ADDC},
	{"subc", PO_SUBC}, {"mul", PO_MUL}, {"mad", PO_MAD}, {"madc", PO_MADC},
	{"mul24", PO_MUL24}, {"mad24", PO_MAD24}, {"sad", PO_SAD},
	{"div", PO_DIV}, {"rem", PO_REM}, {"abs", PO_ABS}, {"neg", PO_NEG},
	{"min", PO_MIN}, {"max", PO_MAX}, {"popc", PO_POPC}, {"clz", PO_CLZ},
	{"bfind", PO_BFIND}, {"brev", PO_BREV}, {"bfe", PO_BFE},
	{"bfi", PO_BFI}, {"and", PO_AND}, {"or", PO_OR}, {"xor", PO_XOR},
	{"not", PO_NOT}, {"cnot", PO_CNOT}, {"lop3", PO_LOP3}, {"shf", PO_SHF},
	{"shl", PO_SHL}, {"shr", PO_SHR}, {"prmt", PO_PRMT}, {"selp", PO_SELP},
	{"slct", PO_SLCT}, {"setp", PO_SETP}, {"set", PO_SET}, {"cvt", PO_CVT},
	{"cvta", PO_CVTA}, {"isspacep", PO_ISSPACEP}, {"szext", PO_SZEXT},
	{"bmsk", PO_BMSK}, {"dp4a", PO_DP4A}, {"dp2a", PO_DP2A},
	{"ld", PO_LD}, {"ldu", PO_LD}, {"st", PO_ST}, {"ldmatrix", PO_LDMATRIX},
	{"stmatrix", PO_STMATRIX}, {"atom", PO_ATOM}, {"red", PO_RED},
	{"bra", PO_BRA}, {"brx", PO_OTHER}, {"ret", PO_RET}, {"exit", PO_EXIT},
	{"call", PO_CALL}, {"trap", PO_TRAP}, {"elect", PO_ELECT},
	{"bar", PO_NOP}, {"barrier", PO_NOP}, {"membar", PO_NOP},
	{"fence", PO_NOP}, {"prefetch", PO_NOP}, {"prefetchu", PO_NOP},
	{"nanosleep", PO_NOP}, {"pmevent", PO_NOP}, {"griddepcontrol", PO_NOP},
	{"setmaxnreg", PO_NOP}, {"brkpt", PO_NOP}, {"discard", PO_NOP},
	{"applypriority", PO_NOP}, {"createpolicy", PO_OTHER},
	{"mbarrier", PO_SHARED_OTHER},
};

/* tcgen05 (PTX ISA 9.0, "TensorCore 5th Generation Family Instructions"),
 * by the word after "tcgen05.": what each does to shared memory.  ld, st,
 * wait, fence, dealloc, relinquish_alloc_permit and shift move or order
 * tensor memory and registers only; mma reads its operands (A from shared
 * memory or tensor memory, B from shared memory) through descriptors, cp
 * copies shared memory into tensor memory, both by the tensor cores'
 * asynchronous proxy; alloc writes the address it allocated to a slot in
 * shared memory, and commit makes an mbarrier in shared memory track the
 * tcgen05 operations before it.  None of those is an LSU access: the
 * wavefront counters see none of them. */
static const struct {
	const char *word;
	PtxOpKind kind;         /* PO_SHARED_OTHER: shared memory, asynchronously */
	const char *note;
} tcgen05_ops[] = {
	{"mma", PO_SHARED_OTHER, "reads its operands from shared memory through "
	 "their descriptors, by the tensor cores (the asynchronous proxy), outside "
	 "the LSU wavefront counters"},
	{"cp", PO_SHARED_OTHER, "copies shared memory into tensor memory by the "
	 "tensor cores (the asynchronous proxy), outside the LSU wavefront "
	 "counters"},
	{"alloc", PO_SHARED_OTHER, "writes the tensor memory it allocated to a slot "
	 "in shared memory by the allocator, outside the LSU wavefront counters"},
	{"commit", PO_SHARED_OTHER, "arrives on an mbarrier in shared memory when "
	 "the tcgen05 operations before it complete, outside the LSU wavefront "
	 "counters"},
	{"ld", PO_OTHER, NULL},         /* tensor memory to registers */
	{"st", PO_NOP, NULL},           /* registers to tensor memory */
	{"wait", PO_NOP, NULL},
	{"fence", PO_NOP, NULL},
	{"dealloc", PO_NOP, NULL},
	{"relinquish_alloc_permit", PO_NOP, NULL},
	{"shift", PO_NOP, NULL},        /* rows of tensor memory, down one */
};

/* The tcgen05 entry of opcode s, or -1. */
static int tcgen05_of(const char *s, size_t n)
{
	if (n < 8 || memcmp(s, "tcgen05.", 8) != 0)
		return -1;
	size_t e = 8;           /* the word: up to a '.' or a "::" */
	while (e < n && s[e] != '.' && s[e] != ':')
		e++;
	for (size_t i = 0; i < sizeof tcgen05_ops / sizeof *tcgen05_ops; i++)
		if (is(s + 8, e - 8, tcgen05_ops[i].word))
			return (int)i;
	return -1;
}

const char *ptx_op_async_note(const char *s, size_t n)
{
	int k = tcgen05_of(s, n);
	return k >= 0 && tcgen05_ops[k].note ? tcgen05_ops[k].note
	       : "reaches shared memory outside the LSU wavefront counters";
}

bool ptx_op_decode(const char *s, size_t n, PtxOpInfo *o)
{
	memset(o, 0, sizeof *o);
	o->vec = 1;
	size_t bl = 0;
	while (bl < n && s[bl] != '.')
		bl++;
	int k = -1;
	for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++)
		if (is(s, bl, bases[i].name)) {
			k = (int)i;
			break;
		}
	if (k < 0) {
		/* a name of letters and digits is an instruction bankc does not
		 * model; anything else is not an instruction */
		if (bl == 0 || !((s[0] >= 'a' && s[0] <= 'z')))
			return false;
		for (size_t i = 0; i < bl; i++)
			if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
			      s[i] == '_'))
				return false;
		o->kind = PO_OTHER;
	} else {
		o->kind = bases[k].kind;
	}
	bool types = false, async = false;
	for (size_t b = bl; b < n;) {
		size_t e = b + 1;
		while (e < n && s[e] != '.')
			e++;
		const char *g = s + b + 1;
		size_t gn = e - b - 1;
		b = e;
		Ty t;
		if (type_of(g, gn, &t)) {
			if (!types)
				o->ty = t, types = true;
			else if (o->ty2.kind == TY_NONE)
				o->ty2 = t;
			continue;
		}
		if (is(g, gn, "async"))
			async = true;
		Space sp = SP_NONE;
		if (starts(g, gn, "shared"))
			sp = SP_SHARED;
		else if (is(g, gn, "global"))
			sp = SP_GLOBAL;
		else if (is(g, gn, "local"))
			sp = SP_LOCAL;
		else if (is(g, gn, "param") || starts(g, gn, "param::"))
			sp = SP_PARAM;
		else if (is(g, gn, "const"))
			sp = SP_CONST;
		if (sp != SP_NONE) {
			if (o->space == SP_NONE)
				o->space = sp;
			continue;
		}
		static const char *const cmps[] = {"", "eq", "ne", "lt", "le", "gt",
			"ge", "lo", "ls", "hi", "hs", NULL};
		static const char *const fcmps[] = {"equ", "neu", "ltu", "leu", "gtu",
			"geu", "num", "nan", NULL};
		bool done = false;
		if (o->kind == PO_SETP || o->kind == PO_SET) {
			for (int i = 1; cmps[i]; i++)
				if (is(g, gn, cmps[i]))
					o->cmp = (uint8_t)i, done = true;
			for (int i = 0; fcmps[i]; i++)
				if (is(g, gn, fcmps[i]))
					o->cmp = CMP_FLOAT, done = true;
			if (is(g, gn, "and"))
				o->boolop = BOOL_AND, done = true;
			else if (is(g, gn, "or"))
				o->boolop = BOOL_OR, done = true;
			else if (is(g, gn, "xor"))
				o->boolop = BOOL_XOR, done = true;
			if (done)
				continue;
		}
		static const struct { const char *name; uint32_t m; } mods[] = {
			{"lo", M_LO}, {"hi", M_HI}, {"wide", M_WIDE}, {"sat", M_SAT},
			{"cc", M_CC}, {"to", M_TO}, {"trans", M_TRANS}, {"wrap", M_WRAP},
			{"clamp", M_CLAMP}, {"l", M_LEFT}, {"r", M_RIGHT},
			{"shiftamt", M_SHIFTAMT}, {"uni", M_UNI}, {"bulk", M_BULK},
			{"try_wait", M_WAITOK}, {"test_wait", M_WAITOK},
		};
		for (size_t i = 0; i < sizeof mods / sizeof mods[0] && !done; i++)
			if (is(g, gn, mods[i].name))
				o->mods |= mods[i].m, done = true;
		if (done)
			continue;
		if (gn == 2 && g[0] == 'v' && (g[1] == '2' || g[1] == '4' || g[1] == '8')) {
			o->vec = (uint8_t)(g[1] - '0');
			continue;
		}
		if (gn == 2 && g[0] == 'x' && (g[1] == '1' || g[1] == '2' || g[1] == '4')) {
			o->nmat = (uint8_t)(g[1] - '0');
			continue;
		}
		/* the matrix shapes of ldmatrix and stmatrix */
		if (is(g, gn, "m8n8") || is(g, gn, "m16n16") || is(g, gn, "m8n16") ||
		    is(g, gn, "m16n8")) {
			o->mshape = is(g, gn, "m8n8") ? MAT_M8N8 : is(g, gn, "m16n16")
			            ? MAT_M16N16 : is(g, gn, "m8n16") ? MAT_M8N16 : MAT_M16N8;
			continue;
		}
		if (o->kind == PO_ATOM || o->kind == PO_RED) {
			for (int i = 1; ptx_atom_names[i]; i++)
				if (is(g, gn, ptx_atom_names[i]))
					o->atom_op = (uint8_t)i, done = true;
			if (done)
				continue;
		}
		if (o->kind == PO_PRMT) {
			static const char *const modes[] = {"", "f4e", "b4e", "rc8", "ecl",
				"ecr", "rc16", NULL};
			for (int i = 1; modes[i]; i++)
				if (is(g, gn, modes[i]))
					o->prmt_mode = (uint8_t)i, done = true;
			if (done)
				continue;
		}
		/* rounding of floats, caching, ordering, scope: no integer effect;
		 * a rounding mode on cvt says a float is involved */
		if (is(g, gn, "rn") || is(g, gn, "rz") || is(g, gn, "rm") ||
		    is(g, gn, "rp") || is(g, gn, "rni") || is(g, gn, "rzi") ||
		    is(g, gn, "rmi") || is(g, gn, "rpi") || is(g, gn, "rna") ||
		    is(g, gn, "rs") || is(g, gn, "approx") || is(g, gn, "full") ||
		    is(g, gn, "ftz"))
			o->mods |= M_FLOATOP;
	}
	/* cp.async is its own operation; its bulk (TMA) forms and its
	 * mbarrier arrive are not LSU accesses */
	if (is(s, bl, "cp")) {
		if (n >= 8 && memcmp(s, "cp.async", 8) == 0 && (n == 8 || s[8] == '.')) {
			if (o->mods & M_BULK)
				o->kind = PO_SHARED_OTHER;
			else if (strstr(s, "commit_group") && (size_t)(strstr(s, "commit_group") - s) < n)
				o->kind = PO_NOP;
			else if (n >= 14 && memcmp(s, "cp.async.wait_", 14) == 0)
				o->kind = PO_NOP;
			else if (n >= 17 && memcmp(s, "cp.async.mbarrier", 17) == 0)
				o->kind = PO_SHARED_OTHER;
			else
				o->kind = PO_CPASYNC;
		} else {
			o->kind = PO_SHARED_OTHER;  /* cp.reduce.async.bulk and kin */
		}
	}
	/* st.async and red.async (to a cluster's shared memory, completing on
	 * an mbarrier) and st.bulk do not go through the LSU's wavefronts */
	if ((o->kind == PO_ST || o->kind == PO_RED) && (async || (o->mods & M_BULK)))
		o->kind = PO_SHARED_OTHER;
	/* bar.red gives a value; bar.warp.sync and the rest do not */
	if (o->kind == PO_NOP && is(s, bl, "bar") && n > 7 && memcmp(s, "bar.red", 7) == 0)
		o->kind = PO_OTHER;
	if (o->kind == PO_OTHER && o->space == SP_SHARED)
		o->kind = PO_SHARED_OTHER;
	if (o->kind == PO_OTHER && starts(s, n, "wgmma.mma_async"))
		o->kind = PO_SHARED_OTHER;
	if (o->kind == PO_OTHER || o->kind == PO_SHARED_OTHER) {
		int k = tcgen05_of(s, n);
		if (k >= 0) {
			o->kind = tcgen05_ops[k].kind;
			if (o->kind == PO_SHARED_OTHER)
				o->mods |= M_ASYNC_SMEM;
		} else if (starts(s, n, "tcgen05")) {
			o->kind = PO_SHARED_OTHER;      /* one the ISA adds later */
		}
	}
	/* ldmatrix and stmatrix: the row addresses, 8 a matrix, 16 an
	 * m16n16 one (PTX ISA; lanes 0-15 for .x1, every lane for .x2) */
	if (o->kind == PO_LDMATRIX || o->kind == PO_STMATRIX) {
		o->xnum = o->nmat;
		if (o->mshape == MAT_M16N16)
			o->nmat = (uint8_t)(2 * o->nmat);
	}
	/* a plain ld/st/atom names no space: a generic address */
	if ((o->kind == PO_LD || o->kind == PO_ST || o->kind == PO_ATOM ||
	     o->kind == PO_RED) && o->space == SP_NONE)
		o->space = SP_GENERIC;
	if ((o->kind == PO_LDMATRIX || o->kind == PO_STMATRIX) && o->space == SP_NONE)
		o->space = SP_GENERIC;
	return true;
}
