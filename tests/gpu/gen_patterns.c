/* gen_patterns: print the pattern table that tests/gpu/probe.sh measures.
 *
 *   cc -std=c11 -Wall -Wextra -Werror -o gen_patterns gen_patterns.c
 *   ./gen_patterns > patterns.tsv
 *
 * The output is deterministic (fixed-seed splitmix64), so a table measured
 * on one GPU can be regenerated and compared row by row on another.
 * Columns: name, op, width, mask, offsets (see README.md).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LANES 32
#define SMEM_BYTES (48 * 1024)
#define MAX_ROWS 2048
#define FULL 0xffffffffu

static uint64_t rng_state = 0x62616e6b63ull; /* fixed: output must not vary */

static uint64_t splitmix64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static unsigned rnd(unsigned n) /* uniform enough in [0, n) for n << 2^32 */
{
    return (unsigned)(splitmix64() % n);
}

static char names[MAX_ROWS][64];
static int n_rows;

/* Print one row after checking what probe.cu checks, so a bad generator
 * fails here rather than on the GPU machine. */
static void emit(const char *name, const char *op, unsigned width,
                 unsigned mask, const unsigned off[LANES])
{
    for (const char *p = name; *p; ++p)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9') || *p == '_')) {
            fprintf(stderr, "gen_patterns: bad name %s\n", name);
            exit(1);
        }
    for (int i = 0; i < n_rows; ++i)
        if (strcmp(names[i], name) == 0) {
            fprintf(stderr, "gen_patterns: duplicate name %s\n", name);
            exit(1);
        }
    if (n_rows == MAX_ROWS || strlen(name) >= sizeof names[0]) {
        fprintf(stderr, "gen_patterns: too many rows or long name\n");
        exit(1);
    }
    strcpy(names[n_rows++], name);

    printf("%s\t%s\t%u\t%08x\t", name, op, width, mask);
    for (int l = 0; l < LANES; ++l) {
        if (off[l] % width || off[l] + width > SMEM_BYTES) {
            fprintf(stderr, "gen_patterns: %s: bad offset %u\n", name, off[l]);
            exit(1);
        }
        printf("%u%c", off[l], l == LANES - 1 ? '\n' : ',');
    }
}

static const unsigned widths[] = {1, 2, 4, 8, 16};
#define N_WIDTHS 5
static const char *const rw_ops[] = {"load", "store"};
static const char *const rw_tag[] = {"ld", "st"};

/* Offsets of the affine map lane -> base + lane*stride. */
static void affine(unsigned off[LANES], unsigned base, unsigned stride)
{
    for (unsigned l = 0; l < LANES; ++l)
        off[l] = base + l * stride;
}

/* Random aligned offsets within `span` bytes. */
static void random_offsets(unsigned off[LANES], unsigned width, unsigned span)
{
    for (int l = 0; l < LANES; ++l)
        off[l] = rnd(span / width) * width;
}

static void gen_random(void)
{
    static const unsigned spans[] = {4096, 512};
    char name[64];
    unsigned off[LANES];
    for (int o = 0; o < 2; ++o)
        for (int w = 0; w < N_WIDTHS; ++w)
            for (int s = 0; s < 2; ++s)
                for (int k = 0; k < 4; ++k) {
                    random_offsets(off, widths[w], spans[s]);
                    snprintf(name, sizeof name, "%s%u_rand%u_%d", rw_tag[o],
                             widths[w] * 8, spans[s], k);
                    emit(name, rw_ops[o], widths[w], FULL, off);
                }
}

/* Partial masks: which lanes take part changes what can conflict. */
static void gen_masks(void)
{
    char name[64];
    unsigned off[LANES];
    for (int o = 0; o < 2; ++o)
        for (int w = 0; w < N_WIDTHS; ++w) {
            const unsigned wd = widths[w];
            const struct {
                const char *tag;
                unsigned mask;
            } masks[] = {
                {"lane0", 1u},
                {"lane", 1u << (1 + rnd(31))},
                {"lohalf", 0x0000ffffu},
                {"hihalf", 0xffff0000u},
                {"even", 0x55555555u},
                {"odd", 0xaaaaaaaau},
                {"quarter1", 0x0000ff00u},
                {"rand", (unsigned)splitmix64() | 1u},
                {"sparse", (unsigned)(splitmix64() & splitmix64())},
            };
            for (size_t m = 0; m < sizeof masks / sizeof masks[0]; ++m) {
                /* Alternate random offsets with a conflicting stride of one
                 * 128-byte bank row, where masking matters most. */
                if (m % 2)
                    affine(off, 0, 128);
                else
                    random_offsets(off, wd, 1024);
                snprintf(name, sizeof name, "%s%u_mask_%s_%s", rw_tag[o],
                         wd * 8, masks[m].tag, m % 2 ? "pitch128" : "rand");
                emit(name, rw_ops[o], wd, masks[m].mask ? masks[m].mask : 1u,
                     off);
            }
        }
}

/* lane*stride + base, strides in 4-byte words, plus row/column splits. */
static void gen_affine(void)
{
    char name[64];
    unsigned off[LANES];
    /* 32-bit loads: every stride 0..40 words, two bases. */
    for (unsigned s = 0; s <= 40; ++s) {
        affine(off, 0, s * 4);
        snprintf(name, sizeof name, "ld32_stride%uw", s);
        emit(name, "load", 4, FULL, off);
    }
    static const unsigned st32[] = {1, 2, 3, 4, 8, 16, 17, 31, 32, 33, 34, 36};
    for (size_t i = 0; i < sizeof st32 / sizeof st32[0]; ++i) {
        affine(off, 0, st32[i] * 4);
        snprintf(name, sizeof name, "st32_stride%uw", st32[i]);
        emit(name, "store", 4, FULL, off);
        affine(off, 4 * (1 + rnd(31)), st32[i] * 4);
        snprintf(name, sizeof name, "ld32_stride%uw_base%u", st32[i], off[0]);
        emit(name, "load", 4, FULL, off);
    }
    /* Byte and halfword strides, in bytes. */
    static const unsigned s8[] = {1, 2, 3, 4, 5, 8, 32, 33, 64, 128, 129};
    static const unsigned s16[] = {2, 4, 6, 8, 64, 66, 128, 130};
    for (int o = 0; o < 2; ++o) {
        for (size_t i = 0; i < sizeof s8 / sizeof s8[0]; ++i) {
            affine(off, 0, s8[i]);
            snprintf(name, sizeof name, "%s8_stride%ub", rw_tag[o], s8[i]);
            emit(name, rw_ops[o], 1, FULL, off);
        }
        for (size_t i = 0; i < sizeof s16 / sizeof s16[0]; ++i) {
            affine(off, 0, s16[i]);
            snprintf(name, sizeof name, "%s16_stride%ub", rw_tag[o], s16[i]);
            emit(name, rw_ops[o], 2, FULL, off);
        }
    }
    /* 8- and 16-byte accesses: strides in words, odd pitches included. */
    static const unsigned s64[] = {2, 4, 6, 8, 10, 16, 18, 32, 34, 36, 66};
    static const unsigned s128[] = {4, 8, 12, 16, 20, 32, 36, 40, 68};
    for (int o = 0; o < 2; ++o) {
        for (size_t i = 0; i < sizeof s64 / sizeof s64[0]; ++i) {
            affine(off, 0, s64[i] * 4);
            snprintf(name, sizeof name, "%s64_stride%uw", rw_tag[o], s64[i]);
            emit(name, rw_ops[o], 8, FULL, off);
        }
        for (size_t i = 0; i < sizeof s128 / sizeof s128[0]; ++i) {
            affine(off, 0, s128[i] * 4);
            snprintf(name, sizeof name, "%s128_stride%uw", rw_tag[o], s128[i]);
            emit(name, rw_ops[o], 16, FULL, off);
        }
    }
    /* Row/column splits: 8 rows of `pitch` bytes, lanes/8 picks a 16-byte
     * column; and the mma accumulator shape, row lane/4, column lane%4. */
    static const unsigned pitches[] = {64, 128, 136, 144, 256, 272};
    static const unsigned split_w[] = {4, 8, 16};
    for (int o = 0; o < 2; ++o)
        for (size_t p = 0; p < sizeof pitches / sizeof pitches[0]; ++p)
            for (int w = 0; w < 3; ++w) {
                const unsigned wd = split_w[w], pt = pitches[p];
                if (pt % wd)
                    continue;
                for (unsigned l = 0; l < LANES; ++l)
                    off[l] = (l % 8) * pt + (l / 8) * 16;
                snprintf(name, sizeof name, "%s%u_rows8_pitch%u", rw_tag[o],
                         wd * 8, pt);
                emit(name, rw_ops[o], wd, FULL, off);
                if (wd == 16)
                    continue;
                for (unsigned l = 0; l < LANES; ++l)
                    off[l] = (l / 4) * pt + (l % 4) * wd;
                snprintf(name, sizeof name, "%s%u_mma_pitch%u", rw_tag[o],
                         wd * 8, pt);
                emit(name, rw_ops[o], wd, FULL, off);
            }
}

/* XOR swizzles of 16-byte chunks, as tile layouts use them: row r = lane,
 * fixed logical chunk c, for 128-, 64- and 32-byte rows. */
static unsigned swz(unsigned row_bytes, unsigned r, unsigned c)
{
    switch (row_bytes) {
    case 128: return r * 128 + ((c ^ (r % 8)) * 16);
    case 64: return r * 64 + ((c ^ ((r / 2) % 4)) * 16);
    default: return r * 32 + ((c ^ ((r / 4) % 2)) * 16);
    }
}

static void gen_swizzle(void)
{
    static const unsigned rows[] = {128, 64, 32};
    char name[64];
    unsigned off[LANES];
    for (int o = 0; o < 2; ++o)
        for (int rb = 0; rb < 3; ++rb) {
            const unsigned chunks = rows[rb] / 16;
            for (unsigned c = 0; c < chunks; c += (chunks == 8 ? 3 : 1)) {
                for (unsigned l = 0; l < LANES; ++l)
                    off[l] = swz(rows[rb], l, c);
                snprintf(name, sizeof name, "%s128_swz%u_col%u", rw_tag[o],
                         rows[rb], c);
                emit(name, rw_ops[o], 16, FULL, off);
            }
            /* The same column unswizzled, for contrast. */
            affine(off, 0, rows[rb]);
            snprintf(name, sizeof name, "%s128_plain%u_col0", rw_tag[o],
                     rows[rb]);
            emit(name, rw_ops[o], 16, FULL, off);
            /* Whole rows: lane -> (row lane/chunks, chunk lane%chunks). */
            for (unsigned l = 0; l < LANES; ++l)
                off[l] = swz(rows[rb], l / chunks, l % chunks);
            snprintf(name, sizeof name, "%s128_swz%u_rows", rw_tag[o],
                     rows[rb]);
            emit(name, rw_ops[o], 16, FULL, off);
            /* 32- and 64-bit elements inside swizzled chunks: 4 (or 2)
             * lanes read one chunk of row lane/4 (lane/2). */
            for (unsigned l = 0; l < LANES; ++l)
                off[l] = swz(rows[rb], l / 4, 1) + (l % 4) * 4;
            snprintf(name, sizeof name, "%s32_swz%u_col1", rw_tag[o], rows[rb]);
            emit(name, rw_ops[o], 4, FULL, off);
            for (unsigned l = 0; l < LANES; ++l)
                off[l] = swz(rows[rb], l / 2, 1) + (l % 2) * 8;
            snprintf(name, sizeof name, "%s64_swz%u_col1", rw_tag[o], rows[rb]);
            emit(name, rw_ops[o], 8, FULL, off);
        }
}

/* Lanes sharing addresses: lane and lane^p read or write the same element
 * (p = 1, 2, 4, 8, 16), packed densely or spread one bank row apart; also
 * groups of g consecutive lanes on one address. For 8- and 16-byte
 * accesses this is where the merge rules differ. */
static void gen_broadcast(void)
{
    static const unsigned partners[] = {1, 2, 4, 8, 16};
    static const unsigned bw[] = {4, 8, 16};
    char name[64];
    unsigned off[LANES];
    for (int o = 0; o < 2; ++o)
        for (int w = 0; w < 3; ++w) {
            const unsigned wd = bw[w];
            for (int p = 0; p < 5; ++p)
                for (int spread = 0; spread < 2; ++spread) {
                    if (wd == 4 && spread)
                        continue;
                    for (unsigned l = 0; l < LANES; ++l)
                        off[l] = (l & ~partners[p]) * (spread ? 128 : wd);
                    snprintf(name, sizeof name, "%s%u_share_xor%u_%s",
                             rw_tag[o], wd * 8, partners[p],
                             spread ? "pitch128" : "dense");
                    emit(name, rw_ops[o], wd, FULL, off);
                }
            for (unsigned g = 2; g <= 32; g *= 2) {
                for (unsigned l = 0; l < LANES; ++l)
                    off[l] = (l / g) * wd;
                snprintf(name, sizeof name, "%s%u_group%u", rw_tag[o], wd * 8,
                         g);
                emit(name, rw_ops[o], wd, FULL, off);
            }
            /* Half the warp on one address, the other half dense. */
            for (unsigned l = 0; l < LANES; ++l)
                off[l] = l < 16 ? 0 : (l - 16) * wd;
            snprintf(name, sizeof name, "%s%u_half_bcast", rw_tag[o], wd * 8);
            emit(name, rw_ops[o], wd, FULL, off);
        }
}

/* ldmatrix/stmatrix: each lane gives one 16-byte row address (x1 uses
 * lanes 0-7, x2 lanes 0-15). */
static void gen_matrix(const char *op, const char *tag, const unsigned *pitch,
                       size_t n_pitch, const unsigned *small, size_t n_small)
{
    static const char *const xs[] = {"x1", "x2", "x4"};
    char name[64], opname[32];
    unsigned off[LANES];
    for (int t = 0; t < 2; ++t) {
        const char *tr = t ? ".trans" : "";
        const char *trt = t ? "t" : "";
        for (int x = 0; x < 3; ++x) {
            snprintf(opname, sizeof opname, "%s.%s%s", op, xs[x], tr);
            const unsigned *pl = x == 2 ? pitch : small;
            const size_t np = x == 2 ? n_pitch : n_small;
            /* Row i of the matrices at lane i, rows `p` bytes apart. */
            for (size_t i = 0; i < np; ++i) {
                affine(off, 0, pl[i]);
                snprintf(name, sizeof name, "%s_%s%s_pitch%u", tag, xs[x], trt,
                         pl[i]);
                emit(name, opname, 16, FULL, off);
            }
            /* Rows of a 128-byte-swizzled tile, column chunk 0. */
            for (unsigned l = 0; l < LANES; ++l)
                off[l] = swz(128, l, 0);
            snprintf(name, sizeof name, "%s_%s%s_swz128", tag, xs[x], trt);
            emit(name, opname, 16, FULL, off);
            if (x != 2)
                continue;
            /* A 16x16 b16 tile: matrix m = lane/8 covers rows (m%2)*8.. and
             * 16-byte column m/2, plain and swizzled. */
            for (size_t i = 0; i < np; i += 2) {
                if (pl[i] < 32)
                    continue;
                for (unsigned l = 0; l < LANES; ++l)
                    off[l] = ((l % 8) + ((l / 8) % 2) * 8) * pl[i] +
                             (l / 16) * 16;
                snprintf(name, sizeof name, "%s_%s%s_tile16_pitch%u", tag,
                         xs[x], trt, pl[i]);
                emit(name, opname, 16, FULL, off);
            }
            for (unsigned l = 0; l < LANES; ++l)
                off[l] = swz(128, (l % 8) + ((l / 8) % 2) * 8, l / 16);
            snprintf(name, sizeof name, "%s_%s%s_tile16_swz128", tag, xs[x],
                     trt);
            emit(name, opname, 16, FULL, off);
            for (unsigned l = 0; l < LANES; ++l)
                off[l] = swz(64, (l % 8) + ((l / 8) % 2) * 8, l / 16);
            snprintf(name, sizeof name, "%s_%s%s_tile16_swz64", tag, xs[x],
                     trt);
            emit(name, opname, 16, FULL, off);
        }
    }
}

/* Blackwell's 8-bit forms (sm_100a, sm_103a, sm_120a): rows of 16 bytes
 * as m8n8's, ldmatrix.m16n16 taking 16 row addresses a matrix (lanes 0-15
 * for .x1, every lane for .x2), so that a B200 or an RTX 50 measures the
 * rule bankc assumes for them. */
static void gen_matrix_b8(void)
{
    static const struct {
        const char *op, *tag;
    } forms[] = {
        {"ldmatrix.m16n16.x1.trans", "ldsm8_m16x1"},
        {"ldmatrix.m16n16.x2.trans", "ldsm8_m16x2"},
        {"ldmatrix.m8n16.x1", "ldsm8_m8x1"},
        {"ldmatrix.m8n16.x2", "ldsm8_m8x2"},
        {"ldmatrix.m8n16.x4", "ldsm8_m8x4"},
        {"stmatrix.m16n8.x1.trans", "stsm8_x1"},
        {"stmatrix.m16n8.x2.trans", "stsm8_x2"},
        {"stmatrix.m16n8.x4.trans", "stsm8_x4"},
    };
    static const unsigned pitch[] = {16, 64, 128, 144};
    char name[64];
    unsigned off[LANES];
    for (size_t f = 0; f < sizeof forms / sizeof *forms; ++f) {
        for (size_t i = 0; i < sizeof pitch / sizeof *pitch; ++i) {
            affine(off, 0, pitch[i]);
            snprintf(name, sizeof name, "%s_pitch%u", forms[f].tag, pitch[i]);
            emit(name, forms[f].op, 16, FULL, off);
        }
        for (unsigned l = 0; l < LANES; ++l)
            off[l] = swz(128, l, 0);
        snprintf(name, sizeof name, "%s_swz128", forms[f].tag);
        emit(name, forms[f].op, 16, FULL, off);
    }
}

static void gen_cp_async(void)
{
    char name[64];
    unsigned off[LANES];
    affine(off, 0, 16);
    emit("cpasync128_contig", "cp.async", 16, FULL, off);
    emit("cpasync128cg_contig", "cp.async.cg", 16, FULL, off);
    affine(off, 0, 128);
    emit("cpasync128_pitch128", "cp.async", 16, FULL, off);
    emit("cpasync128cg_pitch128", "cp.async.cg", 16, FULL, off);
    affine(off, 0, 144);
    emit("cpasync128_pitch144", "cp.async", 16, FULL, off);
    for (unsigned l = 0; l < LANES; ++l)
        off[l] = swz(128, l / 8, l % 8);
    emit("cpasync128_swz128_rows", "cp.async", 16, FULL, off);
    for (unsigned l = 0; l < LANES; ++l)
        off[l] = swz(128, l, 0);
    emit("cpasync128_swz128_col0", "cp.async", 16, FULL, off);
    random_offsets(off, 16, 4096);
    emit("cpasync128_rand4096", "cp.async", 16, 0x0000ffffu, off);
    affine(off, 0, 4);
    emit("cpasync32_contig", "cp.async", 4, FULL, off);
    affine(off, 0, 8);
    snprintf(name, sizeof name, "cpasync64_contig");
    emit(name, "cp.async", 8, FULL, off);
}

/* Shared-memory atomics (atom / red): bank conflicts between distinct
 * words, lanes on the same word (serialised or combined?), partial masks
 * and random placements, for 4- and 8-byte operands; the other atomic
 * operations on a few of the same patterns, to see whether the operation
 * changes the cost. */
static void atom_rows(const char *tag, const char *op, unsigned wd, int full)
{
    char name[64];
    unsigned off[LANES];
    affine(off, 0, wd);
    snprintf(name, sizeof name, "%s_dense", tag);
    emit(name, op, wd, FULL, off);
    affine(off, 0, 128);
    snprintf(name, sizeof name, "%s_pitch128", tag);
    emit(name, op, wd, FULL, off);
    for (unsigned l = 0; l < LANES; ++l)
        off[l] = 0;
    snprintf(name, sizeof name, "%s_same", tag);
    emit(name, op, wd, FULL, off);
    for (unsigned g = 2; g <= 16; g *= 2) {
        for (unsigned l = 0; l < LANES; ++l)
            off[l] = (l / g) * wd;
        snprintf(name, sizeof name, "%s_group%u", tag, g);
        emit(name, op, wd, FULL, off);
    }
    if (!full)
        return;
    for (unsigned k = 2; k <= 16; k *= 2) {
        /* k distinct words in each bank */
        for (unsigned l = 0; l < LANES; ++l)
            off[l] = (l % (LANES / k)) * wd + (l / (LANES / k)) * 128;
        snprintf(name, sizeof name, "%s_conflict%u", tag, k);
        emit(name, op, wd, FULL, off);
        /* k lanes on each word, the words in one bank */
        for (unsigned l = 0; l < LANES; ++l)
            off[l] = (l / k) * 128;
        snprintf(name, sizeof name, "%s_group%u_pitch128", tag, k);
        emit(name, op, wd, FULL, off);
    }
    for (unsigned x = 1; x <= 16; x *= 2) {
        for (unsigned l = 0; l < LANES; ++l)
            off[l] = (l & ~x) * wd;
        snprintf(name, sizeof name, "%s_share_xor%u", tag, x);
        emit(name, op, wd, FULL, off);
    }
    for (unsigned l = 0; l < LANES; ++l)
        off[l] = l < 16 ? 0 : (l - 16) * wd;
    snprintf(name, sizeof name, "%s_half_same", tag);
    emit(name, op, wd, FULL, off);
    for (unsigned l = 0; l < LANES; ++l)
        off[l] = l == 1 ? 0 : l * wd;
    snprintf(name, sizeof name, "%s_one_pair", tag);
    emit(name, op, wd, FULL, off);
    affine(off, 0, 128);
    snprintf(name, sizeof name, "%s_pitch128_lohalf", tag);
    emit(name, op, wd, 0x0000ffffu, off);
    snprintf(name, sizeof name, "%s_pitch128_odd", tag);
    emit(name, op, wd, 0xaaaaaaaau, off);
    for (unsigned l = 0; l < LANES; ++l)
        off[l] = 0;
    snprintf(name, sizeof name, "%s_same_lane0", tag);
    emit(name, op, wd, 1u, off);
    affine(off, 0, 2 * wd);
    snprintf(name, sizeof name, "%s_stride2", tag);
    emit(name, op, wd, FULL, off);
    for (unsigned l = 0; l < LANES; ++l)
        off[l] = (l * 132) / wd * wd;
    snprintf(name, sizeof name, "%s_pitch132", tag);
    emit(name, op, wd, FULL, off);
    for (int k = 0; k < 4; ++k) {
        random_offsets(off, wd, 512);
        snprintf(name, sizeof name, "%s_rand512_%d", tag, k);
        emit(name, op, wd, FULL, off);
        random_offsets(off, wd, 4096);
        snprintf(name, sizeof name, "%s_rand4096_%d", tag, k);
        emit(name, op, wd, FULL, off);
        random_offsets(off, wd, 64);
        snprintf(name, sizeof name, "%s_rand64_%d", tag, k);
        emit(name, op, wd, FULL, off);
    }
}

static void gen_atomics(void)
{
    atom_rows("atom32", "atom.add", 4, 1);
    atom_rows("atom64", "atom.add", 8, 1);
    atom_rows("red32", "red.add", 4, 1);
    atom_rows("red64", "red.add", 8, 1);
    atom_rows("cas32", "atom.cas", 4, 0);
    atom_rows("cas64", "atom.cas", 8, 0);
    atom_rows("exch32", "atom.exch", 4, 0);
    atom_rows("max32", "atom.max", 4, 0);
    atom_rows("addf32", "atom.add.f32", 4, 0);
}

int main(void)
{
    static const unsigned ld_pitch[] = {16,  32,  48,  64,  80,  96,
                                        112, 128, 144, 160, 176, 192,
                                        208, 224, 240, 256, 272};
    static const unsigned ld_small[] = {16, 64, 128, 144, 256, 272};
    static const unsigned st_pitch[] = {16, 32, 64, 80, 128, 144, 256, 272};
    static const unsigned st_small[] = {64, 128, 144};

    printf("# Shared-memory access patterns of one warp instruction, from "
           "tests/gpu/gen_patterns.c.\n"
           "# Columns: name, op, bytes per lane (ldmatrix/stmatrix: one "
           "16-byte row per lane),\n"
           "# active-lane mask (hex), byte offset of each of the 32 lanes "
           "(lane 0 first).\n"
           "name\top\twidth\tmask\toffsets\n");
    gen_random();
    gen_masks();
    gen_affine();
    gen_swizzle();
    gen_broadcast();
    gen_matrix("ldmatrix", "ldsm", ld_pitch, sizeof ld_pitch / sizeof *ld_pitch,
               ld_small, sizeof ld_small / sizeof *ld_small);
    gen_matrix("stmatrix", "stsm", st_pitch, sizeof st_pitch / sizeof *st_pitch,
               st_small, sizeof st_small / sizeof *st_small);
    gen_matrix_b8();
    gen_cp_async();
    gen_atomics();
    fprintf(stderr, "gen_patterns: %d rows\n", n_rows);
    return 0;
}
