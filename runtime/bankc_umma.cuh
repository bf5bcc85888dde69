/* bankc_umma.cuh: the check of a tcgen05.mma operand tile.
 *
 * A tile with an `umma.a` or `umma.b` access is read by Blackwell's
 * tcgen05.mma through a shared-memory descriptor, not by lanes; its header
 * gives the descriptor (NAME_UMMA_*, name_umma_desc(), NAME_UMMA_KSTEP).
 * This check proves both:
 *   1. on the host model of how the PTX ISA says tcgen05.mma reads a
 *      descriptor (tcgen05 "Shared Memory Descriptor" and "Major-ness
 *      supported by Strides", the canonical layouts of CUTLASS's
 *      make_umma_desc): the word is one the ISA allows (bits 46-48 0b001,
 *      no reserved bit, no layout code 3, 5 or 7), and for stage 0 and the
 *      last stage, every instruction the tile takes part in (operand A: M
 *      in blocks of 128 in a CTA; B: N up to 256 at a time; a smaller
 *      instruction reads a part of those) and every K step, each byte the descriptor made at
 *      NAME_UMMA_KSTEP names is the byte NAME_SIDX puts there;
 *   2. the same with the descriptor corrupted on purpose (each other
 *      layout code, the 3, 5 and 7 the ISA forbids, SBO halved, LBO halved
 *      where an instruction steps by it, bits 46-48 cleared as in a wgmma
 *      descriptor): every one must misread or be refused, so that a check
 *      blind to a field does not pass;
 *   3. on a B200 or B300 (sm_100a, sm_103a: built with
 *      -gencode=arch=compute_100a,code=sm_100a), real tcgen05.mma over the
 *      tile: it fills the tile through NAME_SIDX with small integers,
 *      builds the other operand K-major (128-byte swizzle where K allows,
 *      else none), issues M = 128 instructions with one CTA, accumulates in
 *      tensor memory, reads it back with tcgen05.ld and compares the whole
 *      product with the host's (bankc_wgmma.cuh's values and reference).
 *      Shapes tcgen05.mma takes only with M = 64 (an A tile of 64 rows, a
 *      B tile whose N is an odd number of eights) and packed fp4 (kind::
 *      mxf4, which needs scale factors) are checked on the host model
 *      alone, and said so.
 * Part 3 has not run on a GPU here: no Blackwell GPU was lent to build it
 * (docs/validation.md); ptxas compiles it for sm_100a in make check.
 *
 * Use, in the tile's check program:
 *
 *     #include "NAME.cuh"
 *     #include "bankc_umma.cuh"
 *     BANKC_UMMA_TILE(name, NAME, BANKC_WG_BF16);  // the tile's element type
 *     ... return bankc_umma_main<name_umma>(argc, argv);
 *
 * It prints what it ran and a last line "umma NAME: ok", "... FAILED ..."
 * or "... NOT RUN ...", and returns 0, 1 or 2; `--emulate` runs parts 1
 * and 2 alone (no GPU needed), `--count` (the counters' run of
 * bankc_check.cuh) does nothing and returns 0. */
#ifndef BANKC_UMMA_CUH
#define BANKC_UMMA_CUH

/* the element types, values, formats and the reference product are
 * wgmma's: one copy of them */
#include "bankc_wgmma.cuh"

/* tcgen05 exists on sm_100a and sm_103a (and their family) */
#if defined(__CUDA_ARCH__) &&                                                 \
	(defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM103_ALL) || \
	 (defined(__CUDA_ARCH_FAMILY_SPECIFIC__) && __CUDA_ARCH_FAMILY_SPECIFIC__ == 1000))
#define BANKC_UM_DEVICE 1
#endif

/* packed fp4 (kind::mxf4): two elements a byte, checked on the host model */
static constexpr int BANKC_UM_E2M1 = 100;

/* The tile as this check reads it, from its generated header. */
#define BANKC_UMMA_TILE(lo, UP, TYPE)                                          \
	struct lo##_umma {                                                         \
		static constexpr const char *name = #lo;                               \
		static constexpr int type = TYPE;                                      \
		static constexpr int rows = UP##_ROWS, cols = UP##_COLS;               \
		static constexpr int stages = UP##_STAGES, elem = UP##_ELEM_BYTES;     \
		static constexpr long long bytes = UP##_BYTES;                         \
		static constexpr int layout_type = UP##_UMMA_LAYOUT_TYPE;              \
		static constexpr int lbo = UP##_UMMA_LBO, sbo = UP##_UMMA_SBO;         \
		static constexpr int operand_b = UP##_UMMA_B;                          \
		static constexpr int mn_major = UP##_UMMA_MAJOR_MN;                    \
		static constexpr int cta_group = UP##_UMMA_CTA_GROUP;                  \
		static constexpr int k = UP##_UMMA_K;                                  \
		__host__ __device__ static long long sidx(int s, int r, int c)         \
		{                                                                      \
			return UP##_SIDX(s, r, c);                                         \
		}                                                                      \
		__host__ __device__ static long long kstep(int s, int mn, int kk)      \
		{                                                                      \
			return UP##_UMMA_KSTEP(s, mn, kk);                                 \
		}                                                                      \
		__host__ __device__ static unsigned long long desc(unsigned a, int s)  \
		{                                                                      \
			return lo##_umma_desc(a, s);                                       \
		}                                                                      \
	};                                                                         \
	static_assert((int)(TYPE) == BANKC_UM_E2M1 || (int)(TYPE) == (int)BANKC_WG_NONE || \
	              bankc_wg_elem_bytes(TYPE) == UP##_ELEM_BYTES,                \
	              "BANKC_UMMA_TILE: the element type is not the tile's")

/* ---- the host model: how the PTX ISA says tcgen05.mma reads a descriptor */

/* Byte address of byte mb of M/N (MN-major) or kb of K (K-major) at K
 * element k or M/N element mn of the matrix descriptor dsc names; -1 for a
 * word the PTX ISA forbids, or a base offset the model does not know. */
static inline long long bankc_um_model_addr(unsigned long long dsc,
                                            bool mn_major, int mn, long long kb,
                                            int k, long long mb)
{
	long long start = (long long)(dsc & 0x3FFF) << 4;
	long long lbo = (long long)(dsc >> 16 & 0x3FFF) << 4;
	long long sbo = (long long)(dsc >> 32 & 0x3FFF) << 4;
	int type = (int)(dsc >> 61);
	if ((dsc >> 46 & 7) != 1 || (dsc & (3ull << 14 | 3ull << 30 | 0x1FFull << 52)) ||
	    type == 3 || type == 5 || type == 7 || (dsc >> 49 & 7))
		return -1;
	bool atom32 = type == 1;
	int B = type == 2 ? 3 : type == 4 ? 2 : type == 6 ? 1 : atom32 ? 2 : 0;
	int W = atom32 ? 128 : 16 << B;
	long long a;
	if (!mn_major)
		a = type == 0 ? start + mn / 8 * sbo + mn % 8 * 16 + kb / 16 * lbo + kb % 16
		              : start + mn / 8 * sbo + mn % 8 * W + kb;
	else if (type == 0)
		a = start + mb / 16 * sbo + mb % 16 + k / 8 * lbo + k % 8 * 16;
	else if (atom32)
		a = start + mb / W * lbo + mb % W + k / 4 * sbo + k % 4 * W;
	else
		a = start + mb / W * lbo + mb % W + k / 8 * sbo + k % 8 * W;
	if (atom32)
		return a ^ ((a >> 7 & 3) << 5);
	return B ? a ^ ((a >> 7 & ((1 << B) - 1)) << 4) : a;
}

/* The tile's element bits and its M/N and K extents, in bytes where the
 * descriptor counts bytes. */
template <class Tile>
struct bankc_um_shape {
	static constexpr int bits = Tile::type == BANKC_UM_E2M1 ? 4 : 8 * Tile::elem;
	/* the tile's columns count bytes for packed fp4 (two a byte) */
	static constexpr int col_bytes = Tile::type == BANKC_UM_E2M1 ? Tile::cols / 2
	                                 : Tile::cols * Tile::elem;
	static constexpr int mn_bytes = Tile::mn_major ? col_bytes : 0;
	static constexpr int mn = Tile::mn_major ? col_bytes * 8 / bits : Tile::rows;
	static constexpr int kin = Tile::mn_major ? 256 / bits : 32;   /* rows or bytes */
	static constexpr int kext = Tile::mn_major ? Tile::rows : col_bytes;
	/* M/N of the largest instruction: A's M of 128 in a CTA, B's N of 256
	 * (or the tile's, if less), as the header's descriptor assumes */
	static constexpr int mni = Tile::operand_b ? (mn < 256 ? mn : 256)
	                                           : (mn < 128 ? mn : 128);
};

/* Bytes the descriptors (with clr/set applied) misread over stages 0 and
 * the last; -1 when a word is refused (what the ISA forbids). */
template <class Tile>
static long bankc_um_model_run(unsigned long long clr, unsigned long long set)
{
	using S = bankc_um_shape<Tile>;
	const unsigned at = 4096;   /* a 1024-aligned base, as the tile's */
	long wrong = 0;
	int last = Tile::stages - 1;
	for (int s = 0; s <= last; s += last > 0 ? last : 1)
		for (int m0 = 0; m0 < S::mn; m0 += S::mni)
			for (int kk = 0; kk * S::kin < S::kext; kk++) {
				/* the sub-block's corner: K step kk at M/N element m0 */
				long long start = Tile::kstep(s, m0, kk);
				unsigned long long d = (Tile::desc(at + (unsigned)start, s) & ~clr) |
				                       set;
				for (int i = 0; i < S::mni && m0 + i < S::mn; i++) {
					int bpe = S::bits / 8 ? S::bits / 8 : 1;
					for (int kb = 0; kb < S::kin; kb++) {
						int r, c;
						long long got, want;
						if (Tile::mn_major) {
							/* byte column of element m0 + i; row K kk * kin + kb */
							r = kk * S::kin + kb;
							c = m0 + i;
							for (int e = 0; e < bpe; e++) {
								got = bankc_um_model_addr(d, true, 0, 0, kb,
								                          (long long)i * bpe + e);
								if (got < 0)
									return -1;
								want = at + Tile::sidx(s, r, c) * Tile::elem + e;
								wrong += got != want;
							}
						} else {
							/* element m0 + i's row, byte kb of the K step */
							r = m0 + i;
							long long cb = (long long)kk * 32 + kb;
							c = (int)(S::bits == 4 ? cb * 2 : cb / Tile::elem);
							got = bankc_um_model_addr(d, false, i, kb, 0, 0);
							if (got < 0)
								return -1;
							want = at + Tile::sidx(s, r, c) * Tile::elem +
							       (S::bits == 4 ? 0 : cb % Tile::elem);
							wrong += got != want;
						}
					}
				}
			}
	return wrong;
}

struct bankc_um_mutation {
	char what[64];
	unsigned long long clr, set;
};

template <class Tile>
static std::vector<bankc_um_mutation> bankc_um_mutations()
{
	using S = bankc_um_shape<Tile>;
	std::vector<bankc_um_mutation> v;
	for (int t = 0; t < 8; t++)
		if (t != Tile::layout_type) {
			bankc_um_mutation m;
			snprintf(m.what, sizeof m.what, "layout %d->%d%s", Tile::layout_type,
			         t, t == 3 || t == 5 || t == 7 ? " (invalid)" : "");
			m.clr = 7ull << 61;
			m.set = (unsigned long long)t << 61;
			v.push_back(m);
		}
	bankc_um_mutation m;
	snprintf(m.what, sizeof m.what, "bits 46-48 0b001->0 (a wgmma word)");
	m.clr = 7ull << 46;
	m.set = 0;
	v.push_back(m);
	/* the strides the instructions step by (mma_canon.c's terms) */
	bool atom32 = Tile::layout_type == 1, none = Tile::layout_type == 0;
	int W = atom32 ? 128 : Tile::layout_type == 2 ? 128
	        : Tile::layout_type == 4 ? 64 : Tile::layout_type == 6 ? 32 : 16;
	int mnb = Tile::mn_major ? S::mni * S::bits / 8 : S::mni;
	bool lbo_used = !Tile::mn_major ? none : none ? S::kin > 8 : mnb > W;
	bool sbo_used = !Tile::mn_major ? mnb > 8 : none ? mnb > 16
	                : S::kin > (atom32 ? 4 : 8);
	if (sbo_used) {
		snprintf(m.what, sizeof m.what, "SBO %d->%d", Tile::sbo, Tile::sbo / 2);
		m.clr = 0x3FFFull << 32;
		m.set = (unsigned long long)(Tile::sbo / 2 >> 4) << 32;
		v.push_back(m);
	}
	if (lbo_used) {
		snprintf(m.what, sizeof m.what, "LBO %d->%d", Tile::lbo, Tile::lbo / 2);
		m.clr = 0x3FFFull << 16;
		m.set = (unsigned long long)(Tile::lbo / 2 >> 4) << 16;
		v.push_back(m);
	}
	return v;
}

/* ---- the GPU run ------------------------------------------------------------ */

/* The other operand's descriptor in tcgen05's encoding, K-major, P rows:
 * 128-byte swizzle (LBO 16, SBO 1024, layout 2) or none (LBO P * 16, SBO
 * 128), at K step kk of 32 bytes (bankc_wgmma.cuh's bankc_wg_other_off
 * lays it out). */
__host__ __device__ inline unsigned long long bankc_um_other_desc(unsigned at,
                                                                  int P, bool sw,
                                                                  int kk)
{
	unsigned a = at + (unsigned)bankc_wg_other_off(P, sw, 0, kk * 32);
	return (unsigned long long)((a & 0x3FFFFu) >> 4) |
	       (unsigned long long)((unsigned)(sw ? 16 : P * 16) >> 4) << 16 |
	       (unsigned long long)((sw ? 1024 : 128) >> 4) << 32 |
	       1ull << 46 | (unsigned long long)(sw ? 2 : 0) << 61;
}

/* The instruction descriptor (PTX ISA, tcgen05 "Instruction Descriptor",
 * kind::f16, tf32, f8f6f4 and i8): D f32 (s32 for 8-bit integers), the
 * types, the transposes (MN-major), N >> 3, M >> 4. */
__host__ __device__ inline unsigned bankc_um_idesc(int type, int ta, int tb,
                                                   int M, int N)
{
	unsigned d = type == BANKC_WG_S8 || type == BANKC_WG_U8 ? 2u : 1u;
	unsigned ab = type == BANKC_WG_F16 ? 0u : type == BANKC_WG_BF16 ? 1u
	              : type == BANKC_WG_TF32 ? 2u : type == BANKC_WG_E4M3 ? 0u
	              : type == BANKC_WG_E5M2 ? 1u : type == BANKC_WG_S8 ? 1u : 0u;
	return d << 4 | ab << 7 | ab << 10 | (unsigned)ta << 15 |
	       (unsigned)tb << 16 | (unsigned)(N >> 3) << 17 | (unsigned)(M >> 4) << 24;
}

struct bankc_um_args {
	const unsigned char *vals, *other;
	int other_bytes;
	long long tile_span, smem;
	int stage, ksteps, P, other_sw;
	int m0;                     /* operand A: the 128-row block */
	int n0, N;                  /* operand B: the chunk */
	void *d;
	int ldd;
	int *done;
};

/* One CTA of 128 threads: the fill, one thread's tcgen05.mma over the K
 * steps into tensor memory, then each warp's 32 lanes read back. */
template <class Tile>
__global__ void __launch_bounds__(128) bankc_um_kernel(bankc_um_args a)
{
#ifdef BANKC_UM_DEVICE
	constexpr int E = Tile::elem;
	constexpr bool integer = bankc_wg_integer(Tile::type);
	extern __shared__ __align__(1024) unsigned char bankc_um_smem[];
	__shared__ unsigned tmem_slot;
	__shared__ __align__(8) unsigned long long bar;
	const int tid = threadIdx.x, w = tid / 32, l = tid % 32;
	unsigned raw = (unsigned)__cvta_generic_to_shared(bankc_um_smem);
	unsigned pad = (1024u - (raw & 1023u)) & 1023u;
	unsigned char *base = bankc_um_smem + pad;
	for (long long i = tid; i < a.smem - pad; i += 128)
		base[i] = 0xFF;
	__syncthreads();
	const long long rc = (long long)Tile::rows * Tile::cols;
	for (long long i = tid; i < Tile::stages * rc; i += 128) {
		int s = (int)(i / rc), r = (int)(i % rc / Tile::cols);
		int c = (int)(i % Tile::cols);
		unsigned char *p = base + Tile::sidx(s, r, c) * E;
		for (int e = 0; e < E; e++)
			p[e] = a.vals[i * E + e];
	}
	for (int i = tid; i < a.other_bytes; i += 128)
		base[a.tile_span + i] = a.other[i];
	unsigned mbar = (unsigned)__cvta_generic_to_shared(&bar);
	if (tid == 0) {
		asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(mbar) : "memory");
		asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
	}
	/* generic-proxy writes, then the tensor core's async-proxy reads */
	asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
	if (w == 0) {
		unsigned slot = (unsigned)__cvta_generic_to_shared(&tmem_slot);
		asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 256;"
		             :: "r"(slot) : "memory");
		asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;"
		             ::: "memory");
	}
	asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
	__syncthreads();
	asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
	const unsigned tmem = tmem_slot;
	const unsigned tb = raw + pad, ob = tb + (unsigned)a.tile_span;
	const int M = 128, N = Tile::operand_b ? a.N : a.P;
	if (tid == 0) {
		unsigned idesc = bankc_um_idesc(Tile::type,
		                                Tile::operand_b ? 0 : Tile::mn_major,
		                                Tile::operand_b ? Tile::mn_major : 0, M, N);
		for (int kk = 0; kk < a.ksteps; kk++) {
			long long ts = Tile::kstep(a.stage, Tile::operand_b ? a.n0 : a.m0, kk);
			unsigned long long td = Tile::desc(tb + (unsigned)ts, a.stage);
			unsigned long long od = bankc_um_other_desc(ob, a.P, a.other_sw, kk);
			unsigned long long da = Tile::operand_b ? od : td;
			unsigned long long db = Tile::operand_b ? td : od;
			if (Tile::type == BANKC_WG_F16 || Tile::type == BANKC_WG_BF16)
				asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %4, 0;\n"
				             "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n}"
				             :: "r"(tmem), "l"(da), "l"(db), "r"(idesc), "r"(kk)
				             : "memory");
			else if (Tile::type == BANKC_WG_TF32)
				asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %4, 0;\n"
				             "tcgen05.mma.cta_group::1.kind::tf32 [%0], %1, %2, %3, p;\n}"
				             :: "r"(tmem), "l"(da), "l"(db), "r"(idesc), "r"(kk)
				             : "memory");
			else if (integer)
				asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %4, 0;\n"
				             "tcgen05.mma.cta_group::1.kind::i8 [%0], %1, %2, %3, p;\n}"
				             :: "r"(tmem), "l"(da), "l"(db), "r"(idesc), "r"(kk)
				             : "memory");
			else
				asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %4, 0;\n"
				             "tcgen05.mma.cta_group::1.kind::f8f6f4 [%0], %1, %2, %3, p;\n}"
				             :: "r"(tmem), "l"(da), "l"(db), "r"(idesc), "r"(kk)
				             : "memory");
		}
		asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];"
		             :: "r"(mbar) : "memory");
	}
	unsigned ready = 0;
	while (!ready)
		asm volatile("{\n.reg .pred p;\n"
		             "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n"
		             "selp.u32 %0, 1, 0, p;\n}" : "=r"(ready) : "r"(mbar) : "memory");
	asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
	/* D row 32 w + l is lane 32 w + l of tensor memory (M = 128, one CTA):
	 * eight columns a load */
	for (int c0 = 0; c0 < N; c0 += 8) {
		unsigned v[8];
		asm volatile("tcgen05.ld.sync.aligned.32x32b.x8.b32 {%0, %1, %2, %3, %4, "
		             "%5, %6, %7}, [%8];"
		             : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]), "=r"(v[4]),
		               "=r"(v[5]), "=r"(v[6]), "=r"(v[7])
		             : "r"(tmem + ((unsigned)(32 * w) << 16) + (unsigned)c0)
		             : "memory");
		asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
		int row = (Tile::operand_b ? 0 : a.m0) + 32 * w + l;
		unsigned *out = (unsigned *)a.d + (long long)row * a.ldd +
		                (Tile::operand_b ? a.n0 : 0) + c0;
		for (int j = 0; j < 8; j++)
			out[j] = v[j];
	}
	asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
	__syncthreads();
	if (w == 0)
		asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 256;"
		             :: "r"(tmem) : "memory");
	if (tid == 0)
		*a.done = 1;
#else
	(void)a;
	if (threadIdx.x == 0)
		*a.done = -1;
#endif
}

/* The plan of the GPU run, in bankc_wgmma.cuh's terms: the tile's values,
 * the other operand (P rows: 128 for a B tile, whose partner is A with M =
 * 128; N = 64 for an A tile), the reference's shapes.  False (and *why)
 * for what runs on the host model alone. */
template <class Tile>
static bool bankc_um_make_plan(bankc_wg_plan &p, const char **why)
{
	constexpr int E = Tile::elem, T = Tile::type;
	if (T == BANKC_UM_E2M1 || T == BANKC_WG_NONE) {
		*why = "packed fp4 (kind::mxf4) needs scale factors";
		return false;
	}
	p.M = Tile::mn_major ? Tile::cols : Tile::rows;
	p.K = Tile::mn_major ? Tile::rows : Tile::cols;
	p.KI = 32 / E;
	p.ksteps = p.K / p.KI;
	if (!Tile::operand_b && p.M % 128) {
		*why = "an A tile's M of 64 rows: tcgen05.mma's M = 64 lays D out "
		       "apart in tensor memory";
		return false;
	}
	if (Tile::operand_b && p.M % 16) {
		*why = "a B tile's N in odd eights: M = 128 takes N in sixteens";
		return false;
	}
	p.P = Tile::operand_b ? 128 : 64;
	p.other_sw = p.K * E % 128 == 0;
	p.drows = Tile::operand_b ? 128 : p.M;
	p.dcols = Tile::operand_b ? p.M : 64;
	p.chunks.clear();
	if (Tile::operand_b)
		for (int n = p.M; n > 0; n -= n < 256 ? n : 256)
			p.chunks.push_back(n < 256 ? n : 256);
	bankc_wg_fmt f = bankc_wg_format(T);
	int range = f.range;
	if (!bankc_wg_integer(T))
		while (range > 1 &&
		       (double)p.K * range * range >= std::ldexp(1.0, f.acc_bits))
			range--;
	unsigned long long seed = 0x756d6d61ull;
	for (const char *c = Tile::name; *c; c++)
		seed = seed * 131 + (unsigned char)*c;
	auto draw = [&]() {
		unsigned long long z = bankc_wg_mix(&seed);
		if (T == BANKC_WG_U8)
			return (int)(z % 256);
		if (T == BANKC_WG_S8)
			return (int)(z % 256) - 128;
		return (int)(z % (2 * range + 1)) - range;
	};
	size_t n = (size_t)Tile::stages * Tile::rows * Tile::cols;
	p.vals.resize(n);
	p.vbytes.resize(n * E);
	for (size_t i = 0; i < n; i++) {
		p.vals[i] = draw();
		unsigned b = bankc_wg_encode(T, p.vals[i]);
		for (int e = 0; e < E; e++)
			p.vbytes[i * E + e] = (unsigned char)(b >> (8 * e));
	}
	p.other.resize((size_t)p.P * p.K);
	p.obytes.assign((size_t)p.P * p.K * E, 0);
	for (int q = 0; q < p.P; q++)
		for (int k = 0; k < p.K; k++) {
			int v = draw();
			p.other[(size_t)q * p.K + k] = v;
			unsigned b = bankc_wg_encode(T, v);
			long long o = bankc_wg_other_off(p.P, p.other_sw, q, k * E);
			for (int e = 0; e < E; e++)
				p.obytes[(size_t)o + e] = (unsigned char)(b >> (8 * e));
		}
	p.tile_span = bankc_wg_up(Tile::bytes, 1024);
	p.smem = 1024 + p.tile_span + bankc_wg_up((long long)p.obytes.size(), 1024);
	return true;
}

/* The product on the GPU for stage s: false in *ran when the kernel was
 * built without tcgen05. */
template <class Tile>
static void bankc_um_gpu_run(const bankc_wg_plan &p, int s,
                             std::vector<double> &got, bool *ran)
{
	const bool integer = bankc_wg_integer(Tile::type);
	size_t nd = (size_t)p.drows * p.dcols;
	unsigned char *vals, *other;
	void *d;
	int *done;
	BANKC_WG_CUDA(cudaMalloc(&vals, p.vbytes.size()));
	BANKC_WG_CUDA(cudaMalloc(&other, p.obytes.size()));
	BANKC_WG_CUDA(cudaMalloc(&d, nd * 4));
	BANKC_WG_CUDA(cudaMalloc(&done, sizeof(int)));
	BANKC_WG_CUDA(cudaMemcpy(vals, p.vbytes.data(), p.vbytes.size(),
	                         cudaMemcpyHostToDevice));
	BANKC_WG_CUDA(cudaMemcpy(other, p.obytes.data(), p.obytes.size(),
	                         cudaMemcpyHostToDevice));
	BANKC_WG_CUDA(cudaMemset(d, 0xFF, nd * 4));
	BANKC_WG_CUDA(cudaMemset(done, 0, sizeof(int)));
	BANKC_WG_CUDA(cudaFuncSetAttribute(bankc_um_kernel<Tile>,
	              cudaFuncAttributeMaxDynamicSharedMemorySize, (int)p.smem));
	bankc_um_args a;
	a.vals = vals;
	a.other = other;
	a.other_bytes = (int)p.obytes.size();
	a.tile_span = p.tile_span;
	a.smem = p.smem;
	a.stage = s;
	a.ksteps = p.ksteps;
	a.P = p.P;
	a.other_sw = p.other_sw;
	a.d = d;
	a.ldd = p.dcols;
	a.done = done;
	if (Tile::operand_b) {
		a.m0 = 0;
		int n0 = 0;
		for (int n : p.chunks) {
			a.n0 = n0;
			a.N = n;
			bankc_um_kernel<Tile><<<1, 128, (size_t)p.smem>>>(a);
			BANKC_WG_CUDA(cudaGetLastError());
			n0 += n;
		}
	} else {
		a.n0 = 0;
		a.N = p.P;
		for (int m0 = 0; m0 < p.M; m0 += 128) {
			a.m0 = m0;
			bankc_um_kernel<Tile><<<1, 128, (size_t)p.smem>>>(a);
			BANKC_WG_CUDA(cudaGetLastError());
		}
	}
	BANKC_WG_CUDA(cudaDeviceSynchronize());
	int dn = 0;
	BANKC_WG_CUDA(cudaMemcpy(&dn, done, sizeof dn, cudaMemcpyDeviceToHost));
	*ran = dn == 1;
	std::vector<unsigned> raw(nd);
	BANKC_WG_CUDA(cudaMemcpy(raw.data(), d, nd * 4, cudaMemcpyDeviceToHost));
	got.resize(nd);
	for (size_t i = 0; i < nd; i++) {
		if (integer) {
			got[i] = (double)(int)raw[i];
		} else {
			float fv;
			memcpy(&fv, &raw[i], 4);
			got[i] = fv;
		}
	}
	BANKC_WG_CUDA(cudaFree(vals));
	BANKC_WG_CUDA(cudaFree(other));
	BANKC_WG_CUDA(cudaFree(d));
	BANKC_WG_CUDA(cudaFree(done));
}

/* ---- the check -------------------------------------------------------------- */

template <class Tile>
static int bankc_umma_main(int argc, char **argv)
{
	bool emulate = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--count") == 0)
			return 0;           /* the counters' run: no extra launches */
		if (strcmp(argv[i], "--emulate") == 0)
			emulate = true;
	}
	static const char *const mode[] = {"no swizzle",
		"128-byte swizzle on 32-byte atoms", "128-byte swizzle", "?",
		"64-byte swizzle", "?", "32-byte swizzle", "?"};
	printf("umma %s: operand %c, %s-major, %s (LBO %d, SBO %d), cta_group %d, "
	       "%d x %d, %d stage%s\n", Tile::name, Tile::operand_b ? 'B' : 'A',
	       Tile::mn_major ? "MN" : "K", mode[Tile::layout_type & 7], Tile::lbo,
	       Tile::sbo, Tile::cta_group, Tile::rows, Tile::cols, Tile::stages,
	       Tile::stages > 1 ? "s" : "");
	/* 1 and 2: the host model */
	long w = bankc_um_model_run<Tile>(0, 0);
	bool failed = w != 0;
	printf("  host model: %s\n", w < 0 ? "the descriptor is one the PTX ISA "
	       "forbids" : w ? "bytes misread" : "every byte of every K step where "
	       "the layout puts it");
	std::vector<bankc_um_mutation> muts = bankc_um_mutations<Tile>();
	int caught = 0;
	char missed[256] = "";
	for (const bankc_um_mutation &m : muts) {
		if (bankc_um_model_run<Tile>(m.clr, m.set) != 0) {
			caught++;
		} else {
			size_t k = strlen(missed);
			snprintf(missed + k, sizeof missed - k, "%s%s", k ? ", " : "", m.what);
		}
	}
	printf("  corrupted descriptors caught: %d of %d%s%s\n", caught,
	       (int)muts.size(), missed[0] ? "; NOT caught: " : "", missed);
	failed |= caught != (int)muts.size();
	if (emulate) {
		printf("umma %s: %s (host model)\n", Tile::name, failed ? "FAILED" : "ok");
		return failed ? 1 : 0;
	}
	/* 3: the GPU */
	int ndev = 0;
	if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
		printf("umma %s: NOT RUN (no CUDA device; --emulate runs the host "
		       "model)\n", Tile::name);
		return failed ? 1 : 2;
	}
	cudaDeviceProp prop;
	BANKC_WG_CUDA(cudaGetDeviceProperties(&prop, 0));
	if (prop.major != 10) {
		printf("umma %s: NOT RUN (tcgen05.mma needs sm_100a or sm_103a; %s is "
		       "sm_%d%d)\n", Tile::name, prop.name, prop.major, prop.minor);
		return failed ? 1 : 2;
	}
	bankc_wg_plan p;
	const char *why = "";
	if (!bankc_um_make_plan<Tile>(p, &why)) {
		printf("umma %s: %s (the host model alone: %s)\n", Tile::name,
		       failed ? "FAILED" : "ok", why);
		return failed ? 1 : 0;
	}
	if (p.smem > (long long)prop.sharedMemPerBlockOptin) {
		printf("umma %s: NOT RUN on the GPU (the tile and the other operand need "
		       "%lld bytes of shared memory)\n", Tile::name, p.smem);
		return failed ? 1 : 2;
	}
	std::vector<double> ref, mag, got;
	int last = Tile::stages - 1;
	for (int s = 0; s <= last; s += last > 0 ? last : 1) {
		bankc_wg_reference<Tile>(p, s, ref, mag);
		bool ran;
		bankc_um_gpu_run<Tile>(p, s, got, &ran);
		if (!ran) {
			printf("umma %s: NOT RUN (built without tcgen05: compile with "
			       "-gencode=arch=compute_100a,code=sm_100a)\n", Tile::name);
			return failed ? 1 : 2;
		}
		double tol;
		long bad = bankc_wg_compare<Tile>(p, got, ref, mag, true, &tol);
		printf("  stage %d: %ld of %zu product elements %s (tolerance %g)\n", s,
		       (long)ref.size() - bad, ref.size(),
		       tol > 0 ? "within tolerance" : "exact", tol);
		failed |= bad != 0;
	}
	printf("umma %s: %s\n", Tile::name, failed ? "FAILED" : "ok");
	return failed ? 1 : 0;
}

#endif
