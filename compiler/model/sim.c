/* The bank model: how many shared-memory wavefronts one warp instruction
 * takes.  The rules are docs/model.md's, measured on an H200;
 * the numbers in comments refer to them. */
#include <string.h>

#include "bankc.h"

const Geom sim_geom_default = {32, 4, true};

/* Rule 4: an 8- or 16-byte load whose active lanes all agree with lane
 * n^1 (or all with lane n^2), where that partner is inactive or wants the
 * same address, is served in phases twice as wide. */
static bool pairs_agree(uint32_t mask, const int64_t *addr, int x)
{
	for (int n = 0; n < WARP; n++) {
		int m = n ^ x;
		if ((mask >> n & 1) && (mask >> m & 1) && addr[n] != addr[m])
			return false;
	}
	return true;
}

/* The distinct words of one phase, as a small open-addressed set; a
 * generation stamp empties it in O(1) between phases (bankc is single
 * threaded). */
enum { SET_SLOTS = 512 };       /* at most 128 words a phase: load <= 1/4 */
static struct {
	int64_t word;
	uint32_t stamp;
} set[SET_SLOTS];
static uint32_t set_gen;

static void set_clear(void)
{
	if (++set_gen == 0) {           /* wrapped: forget every old stamp */
		memset(set, 0, sizeof set);
		set_gen = 1;
	}
}

static bool set_insert(int64_t w)
{
	uint32_t h = (uint32_t)(((uint64_t)w * 0x9E3779B97F4A7C15ull) >> 55);
	for (;; h = (h + 1) & (SET_SLOTS - 1)) {
		if (set[h].stamp != set_gen) {
			set[h].stamp = set_gen;
			set[h].word = w;
			return true;
		}
		if (set[h].word == w)
			return false;
	}
}

/* Count, per bank, the distinct words the lanes of one phase want
 * (rule 7: a sub-word access touches the word holding its bytes); the
 * largest count and the lowest bank that has it come back.  count holds
 * zeros for the geometry's banks on entry. */
static inline int count_words(const Geom *g, int bytes, uint32_t lanes,
                              const int64_t *addr, int count[64], int *bank)
{
	set_clear();
	int most = 0;
	*bank = -1;
	/* addresses are not negative, and the geometry is powers of two */
	int sh = g->bank_bytes == 8 ? 3 : 2;
	int64_t bmask = g->banks - 1;
	/* an aligned access covers an aligned run of k words, so two lanes'
	 * runs are one or disjoint: a run's first word stands for it in the
	 * set (one insertion a lane, not one a word), and its words are
	 * counted in the order they always were */
	int k = bytes > g->bank_bytes ? bytes >> sh : 1;
	for (uint32_t m = lanes; m; m &= m - 1) {
		int n = __builtin_ctz(m);
		int64_t w0 = addr[n] >> sh;
		if (!set_insert(w0))
			continue;
		for (int i = 0; i < k; i++)
			count[(w0 + i) & bmask]++;
	}
	/* the most words in one bank, and the lowest bank that has them */
	for (int b = 0; b < g->banks; b++)
		if (count[b] > most)
			most = count[b], *bank = b;
	return most;
}

/* count_words for 8 banks or more, its counts kept a byte per bank, 8
 * banks to a word: the search's inner loop.  A lane's run of k <= 4 words
 * is aligned, so its banks are k neighbours of one group of 8: one add.
 * A bank counts at most one word of each lane (k <= banks), at most 32:
 * seven bits, so bytes compare by subtraction without a borrow. */
#define ONES 0x0101010101010101ull
#define HIGH 0x8080808080808080ull

static inline uint64_t bytes_max(uint64_t x, uint64_t y)
{
	uint64_t ge = (((x | HIGH) - y) & HIGH) >> 7;   /* 1 where x >= y */
	uint64_t m = ge * 0xff;
	return (x & m) | (y & ~m);
}

static int count_words_packed(const Geom *g, int bytes, uint32_t lanes,
                              const int64_t *addr, int *bank)
{
	uint64_t c[8] = {0};
	int sh = g->bank_bytes == 8 ? 3 : 2;
	int64_t bmask = g->banks - 1;
	int k = bytes > g->bank_bytes ? bytes >> sh : 1;
	uint64_t run = k == 1 ? 1 : k == 2 ? 0x0101 : 0x01010101;
	set_clear();
	for (uint32_t m = lanes; m; m &= m - 1) {
		int64_t w0 = addr[__builtin_ctz(m)] >> sh;
		if (!set_insert(w0))
			continue;
		int b = (int)(w0 & bmask);
		c[b >> 3] += run << (8 * (b & 7));
	}
	int ng = g->banks / 8;
	uint64_t mx = c[0];
	for (int i = 1; i < ng; i++)
		mx = bytes_max(mx, c[i]);
	mx = bytes_max(mx, mx >> 32);
	mx = bytes_max(mx, mx >> 16);
	mx = bytes_max(mx, mx >> 8);
	int most = (int)(mx & 0xff);
	*bank = -1;
	if (!most)
		return 0;
	/* the lowest bank holding `most`: the first zero byte of c ^ most */
	for (int i = 0; i < ng; i++) {
		uint64_t v = c[i] ^ (ONES * (uint64_t)most);
		uint64_t z = (v - ONES) & ~v & HIGH;
		if (z) {
			*bank = 8 * i + __builtin_ctzll(z) / 8;
			break;
		}
	}
	return most;
}

/* Rule 3: a phase takes as many wavefronts as the largest number of
 * distinct words its active lanes want from one bank. */
static void cost_phase(const Geom *g, int bytes, uint32_t lanes,
                       const int64_t *addr, Phase *ph)
{
	ph->lanes = lanes;
	ph->ideal = lanes != 0;
	if (g->banks >= 8) {
		ph->wavefronts = count_words_packed(g, bytes, lanes, addr, &ph->bank);
		return;
	}
	int count[64];
	/* only the banks in use: on narrow geometries a warp has 16 or 32
	 * phases, and clearing all 64 each time was most of their cost */
	memset(count, 0, (size_t)g->banks * sizeof *count);
	ph->wavefronts = count_words(g, bytes, lanes, addr, count, &ph->bank);
}

int sim_phase_banks(const Geom *g, Op op, int bytes, uint32_t lanes,
                    const int64_t *addr, int count[64])
{
	int bank;
	memset(count, 0, 64 * sizeof *count);
	if (op.kind != OP_ATOM || op.aop == AOP_ADD1)
		return count_words(g, bytes, lanes, addr, count, &bank);
	int most = 0;           /* atomics: every lane counts, not every word */
	for (int n = 0; n < WARP; n++)
		if (lanes >> n & 1)
			for (int64_t w = addr[n] / g->bank_bytes;
			     w <= (addr[n] + bytes - 1) / g->bank_bytes; w++) {
				int b = (int)(w % g->banks);
				if (++count[b] > most)
					most = count[b];
			}
	return most;
}

/* Shared-memory atomics (measured on an H200, tests/data/
 * probe_h200_atom.tsv): every active lane is served on its own, lanes on
 * one address included (no broadcast: they serialise), so a phase takes
 * as many wavefronts as the most lanes whose operand lies in one bank;
 * compare-and-swap takes twice that.  Phases as for loads and stores of
 * the width, never merged.  An add of 1 whose result is unused (ATOMS.
 * POPC.INC on sm_90) counts the lanes of each word at once: a phase takes
 * as many wavefronts as the most words in one bank, as a load (measured:
 * 32 lanes on one word 1, on two words of one bank 2). */
static void cost_atomic(const Geom *g, Op op, int bytes, uint32_t mask,
                        const int64_t *addr, SimResult *r)
{
	int per = g->banks * g->bank_bytes / bytes;
	per = per > WARP ? WARP : per < 1 ? 1 : per;
	int mult = op.aop == AOP_CAS ? 2 : 1;
	r->nphase = WARP / per;
	for (int k = 0; k < r->nphase; k++) {
		uint32_t lanes = (per == WARP ? 0xffffffffu
		                  : ((1u << per) - 1) << (k * per)) & mask;
		Phase *ph = &r->phase[k];
		int count[64] = {0}, most = 0;
		ph->lanes = lanes;
		ph->bank = -1;
		if (op.aop == AOP_ADD1)
			most = count_words(g, bytes, lanes, addr, count, &ph->bank);
		for (int n = 0; n < WARP && op.aop != AOP_ADD1; n++) {
			if (!(lanes >> n & 1))
				continue;
			int64_t w0 = addr[n] / g->bank_bytes;
			int64_t w1 = (addr[n] + bytes - 1) / g->bank_bytes;
			for (int64_t w = w0; w <= w1; w++) {
				int b = (int)(w % g->banks);
				if (++count[b] > most || (count[b] == most && b < ph->bank))
					most = count[b], ph->bank = b;
			}
		}
		ph->wavefronts = mult * most;
		ph->ideal = lanes ? mult : 0;
		r->wavefronts += ph->wavefronts;
		r->ideal += ph->ideal;
	}
	r->counted = r->wavefronts;
}

/* cp.async's shared-memory side is not a bank access (rule 9): it does
 * not show in the wavefront counters, and its time follows the number of
 * 128-byte segments the warp's destinations touch.  That count is its
 * cost here. */
static void cost_cpasync(uint32_t mask, int bytes, const int64_t *addr,
                         SimResult *r)
{
	/* the segments, then the distinct destinations, each as a set: the
	 * search costs cp.async instructions by the thousand */
	int ns = 0, distinct = 0;
	set_clear();
	for (uint32_t m = mask; m; m &= m - 1) {
		int n = __builtin_ctz(m);
		for (int64_t s = addr[n] / 128; s <= (addr[n] + bytes - 1) / 128; s++)
			ns += set_insert(s);
	}
	/* the least any placement could touch: the distinct destinations'
	 * bytes, packed (lanes naming one element share it) */
	set_clear();
	for (uint32_t m = mask; m; m &= m - 1)
		distinct += set_insert(addr[__builtin_ctz(m)]);
	r->nphase = 1;
	r->ideal = (distinct * bytes + 127) / 128;
	r->phase[0] = (Phase){mask, ns, r->ideal, -1};
	r->wavefronts = ns;
	r->counted = 0;
}

bool sim_inst(const Geom *g, Op op, int bytes, uint32_t mask,
              const int64_t addr[WARP], SimResult *r, const char **err)
{
	/* the header only: phases are written as they are costed */
	r->wavefronts = r->ideal = r->counted = r->nphase = 0;
	r->merged = false;
	if (g->banks < 1 || g->banks > 64 || (g->banks & (g->banks - 1)) ||
	    (g->bank_bytes != 4 && g->bank_bytes != 8)) {
		*err = "bank geometry must have a power of two from 1 to 64 banks "
		       "of 4 or 8 bytes";
		return false;
	}
	if (op_is_matrix(op)) {
		if (bytes != 16) {
			*err = "ldmatrix and stmatrix rows are 16 bytes";
			return false;
		}
		/* rule 2: .x1 reads lanes 0-7's addresses, .x2 lanes 0-15's */
		mask &= op_rows8(op) == 4 ? 0xffffffffu : (1u << (8 * op_rows8(op))) - 1;
	} else if (op.kind == OP_ATOM) {
		if (bytes != 4 && !(bytes == 8 && op.aop == AOP_CAS)) {
			*err = "shared atomics are 4 bytes, or 8 for compare-and-swap";
			return false;
		}
	} else if (op.kind == OP_CPASYNC ? bytes != 4 && bytes != 8 && bytes != 16
	           : bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8 &&
	             bytes != 16) {
		*err = op.kind == OP_CPASYNC ? "cp.async copies 4, 8 or 16 bytes"
		                             : "width must be 1, 2, 4, 8 or 16 bytes";
		return false;
	}
	for (int n = 0; n < WARP; n++) {
		if (!(mask >> n & 1))
			continue;
		if (addr[n] < 0) {
			*err = "negative address";
			return false;
		}
		if (addr[n] & (bytes - 1)) {
			*err = "address not aligned to the access width";
			return false;
		}
	}
	if (op.kind == OP_CPASYNC) {
		cost_cpasync(mask, bytes, addr, r);
		return true;
	}
	if (op.kind == OP_ATOM) {
		cost_atomic(g, op, bytes, mask, addr, r);
		return true;
	}

	/* Rule 2: lanes per phase.  A phase covers banks * bank_bytes bytes
	 * (128 on every GPU since Maxwell); matrix ops take 8 rows a phase. */
	int per = op_is_matrix(op) ? 8 : g->banks * g->bank_bytes / bytes;
	if (per > WARP)
		per = WARP;
	if (per < 1)
		per = 1;
	if (g->merge_loads && op.kind == OP_LOAD && (bytes == 8 || bytes == 16) &&
	    (pairs_agree(mask, addr, 1) || pairs_agree(mask, addr, 2))) {
		r->merged = true;
		per = per * 2 > WARP ? WARP : per * 2;
	}
	/* per is a power of two no larger than the warp, so phases tile it */
	int nph = op_is_matrix(op) ? op_rows8(op) : WARP / per;
	r->nphase = nph;
	for (int k = 0; k < nph; k++) {
		uint32_t lanes = (per == WARP ? 0xffffffffu
		                  : ((1u << per) - 1) << (k * per)) & mask;
		Phase *ph = &r->phase[k];
		cost_phase(g, bytes, lanes, addr, ph);
		r->wavefronts += ph->wavefronts;
		r->ideal += ph->ideal;
	}
	/* the tensor cores read through their own pipe: the LSU counters do
	 * not see wgmma or UMMA */
	r->counted = op_is_mma(op) ? 0 : r->wavefronts;
	return true;
}

void sim_conflict_text(const int count[64], int banks, char *buf, size_t n)
{
	size_t k = 0;
	int most = 0;
	buf[0] = 0;
	for (int b = 0; b < banks; b++)
		if (count[b] > most)
			most = count[b];
	/* one group per load, from the most loaded down to 2 words */
	for (int level = most; level >= 2; level--) {
		int nb = 0;
		for (int b = 0; b < banks; b++)
			nb += count[b] == level;
		if (!nb)
			continue;
		k += (size_t)snprintf(buf + k, k < n ? n - k : 0, "%s%s",
		                      k ? "; " : "", nb == 1 ? "bank " : "banks ");
		for (int b = 0, i = 0; b < banks; b++)
			if (count[b] == level)
				k += (size_t)snprintf(buf + k, k < n ? n - k : 0, "%s%d",
				                      i++ ? ", " : "", b);
		k += (size_t)snprintf(buf + k, k < n ? n - k : 0, " x %d", level);
	}
	if (k >= n && n > 4)
		memcpy(buf + n - 4, "...", 4);
}
