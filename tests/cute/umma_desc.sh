#!/bin/sh
# Writes the C++ program that compares bankc's tcgen05.mma descriptors
# with CuTe's UMMA::make_umma_desc, bit for bit, on CUTLASS's headers
# (tests/run_cute.sh builds and runs it).  Input lines "NAME TYPE MAJOR
# LAYOUT_TYPE" (tests/wgmma/gen_umma.c's, and the specs' UMMA tiles read
# from their headers): for each, CuTe's own layout of the tile, its atom
# (UMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom, Layout_MN_SW128_32B
# _Atom) tiled as bankc tiles its boxes, is checked to put every 16-byte
# unit where NAME_IDX does, and its descriptor, made by make_umma_desc on
# the first sub-block an instruction reads (as CUTLASS's smem_desc tensor
# makes it) and stepped to each other sub-block as CUTLASS steps it (its
# DescriptorIterator adds the sub-block's offset in 16-byte units, the
# stage's too), must equal name_umma_desc() at NAME_UMMA_KSTEP in every
# field, for stage 0 and the last.
# usage: umma_desc.sh CASES >prog.cpp
cases=$1
echo '#include <cstdio>'
echo '#include <cstdint>'
echo '#include <cute/tensor.hpp>'
echo '#include <cute/atom/mma_traits_sm100.hpp>'
while read -r n ty major lt; do echo "#include \"$n.cuh\""; done <"$cases"
cat <<'EOC'
using namespace cute;

/* The sub-blocks instructions read: A's M in blocks of M_CTA, B's N in
 * blocks of up to 256, every K step. */
template <class T, UMMA::Major MJ, class Atom, int ROWS, int COLS, int STAGES,
          long long STAGE_BYTES, int KIN, int MNI, class Desc, class Kstep>
static int check(const char *name, Desc desc, Kstep kstep)
{
	constexpr bool mn = MJ == UMMA::Major::MN;
	/* CuTe's shape is (MN, K); bankc's rows are MN (K-major) or K */
	constexpr int MN = mn ? COLS : ROWS, K = mn ? ROWS : COLS;
	auto shape = make_shape(Int<MN>{}, Int<K>{});
	/* bankc's boxes: K-major, rows (MN) first then the K boxes; MN-major,
	 * K rows first within a box, then the MN boxes */
	auto layout = [&]() {
		if constexpr (mn)
			return tile_to_shape(Atom{}, shape, Step<_2, _1>{});
		else
			return tile_to_shape(Atom{}, shape);
	}();
	alignas(1024) static uint8_t buf[(STAGE_BYTES + 1024) * 2];
	T *base = reinterpret_cast<T *>(buf);
	auto t = make_tensor(make_smem_ptr(base), layout);
	auto u = recast<uint128_t const>(t);
	const uint8_t *ub = reinterpret_cast<const uint8_t *>(raw_pointer_cast(u.data()));
	int bad = 0;
	/* every 16-byte unit where bankc's layout puts it */
	constexpr int per = 128 / sizeof_bits_v<T>;     /* elements a unit */
	for (int i = 0; i < size<0>(u); i++)
		for (int j = 0; j < size<1>(u); j++) {
			long long off = reinterpret_cast<const uint8_t *>(&u(i, j)) - ub;
			/* the unit's first element: (mn, k) of CuTe, (r, c) of bankc */
			int mnE = mn ? i * per : i, kE = mn ? j : j * per;
			int r = mn ? kE : mnE, c = mn ? mnE : kE;
			if (off != desc.off(r, c) && bad++ < 3)
				printf("%s: CuTe puts the 16 bytes at (%d, %d) at byte %lld, "
				       "bankc at %lld\n", name, r, c, off, desc.off(r, c));
		}
	/* CUTLASS makes the descriptor of one instruction's sub-block, MNI x
	 * KIN of (MN, K), and steps it to the others */
	uint64_t d0 = UMMA::make_umma_desc<MJ>(local_tile(t, make_shape(Int<MNI>{},
	                                       Int<KIN>{}), make_coord(0, 0)));
	for (int s = 0; s < STAGES; s += STAGES > 1 ? STAGES - 1 : 1)
		for (int m0 = 0; m0 < MN; m0 += MNI)
			for (int kk = 0; kk * KIN < K; kk++) {
				long long corner = kstep(s, m0, kk);
				/* CuTe: the sub-block's corner in 16-byte units added to
				 * the descriptor's low word, the stage's bytes too */
				int r = mn ? kk * KIN : m0, c = mn ? m0 : kk * KIN;
				long long co = reinterpret_cast<const uint8_t *>(
				                   &u(mn ? c / per : r, mn ? r : c / per)) - ub;
				UMMA::SmemDescriptor sd;
				sd.desc_ = d0;
				sd.lo += (uint32_t)((s * STAGE_BYTES + co) >> 4);
				uint64_t want = sd.desc_;
				uint64_t got = desc((unsigned)corner, s);
				if (got != want && bad++ < 3)
					printf("%s: stage %d, sub-block (%d, %d): bankc's descriptor "
					       "0x%016llx, CuTe's 0x%016llx\n", name, s, r, c,
					       (unsigned long long)got, (unsigned long long)want);
			}
	printf("%s: %s\n", name, bad ? "DIFFERS" : "equal");
	return bad != 0;
}

int main()
{
	int bad = 0;
EOC
while read -r n ty major lt; do
	N=$(echo "$n" | tr '[:lower:]' '[:upper:]')
	case $ty in
	f16) T=half_t ;; bf16) T=bfloat16_t ;; tf32) T=tfloat32_t ;;
	fp8e4m3) T=float_e4m3_t ;; fp8e5m2) T=float_e5m2_t ;; i8) T=int8_t ;;
	u8) T=uint8_t ;; fp4e2m1) T=float_e2m1_t ;; *) echo "#error unknown type $ty"; continue ;;
	esac
	if [ "$major" = mn ]; then M=MN; else M=K; fi
	case $lt in
	0) A=INTER ;; 6) A=SW32 ;; 4) A=SW64 ;; 2) A=SW128 ;; 1) A=SW128_32B ;;
	*) echo "#error layout type $lt"; continue ;;
	esac
	cat <<EOC
	{
		struct d {
			unsigned long long operator()(unsigned a, int s) const { return ${n}_umma_desc(a, s); }
			long long off(int r, int c) const { return (long long)${N}_IDX(r, c) * ${N}_ELEM_BYTES; }
		};
		auto ks = [](int s, int mn, int kk) { return (long long)(${N}_UMMA_KSTEP(s, mn, kk)); };
		constexpr int mnext = ${N}_UMMA_MAJOR_MN ? ${N}_COLS : ${N}_ROWS;
		constexpr int mni = ${N}_UMMA_B ? (mnext < 256 ? mnext : 256)
		                    : (mnext < 128 ? mnext : 128);
		bad += check<$T, UMMA::Major::$M, UMMA::Layout_${M}_${A}_Atom<$T>, ${N}_ROWS, ${N}_COLS,
		             ${N}_STAGES, ${N}_STAGE_ELEMS * ${N}_ELEM_BYTES, ${N}_UMMA_K, mni>("$n", d{}, ks);
	}
EOC
done <"$cases"
echo '	return bad != 0;'
echo '}'
