#!/usr/bin/env python3
"""Writes tests/hard/hard.tile: tiles of real kernels whose addresses come
from data (index tables, hashes, digits) or from strides of a 1-D buffer,
the kinds the solver's budget was found short on.  The tables are drawn
from a fixed seed, so the file is the same on every run:

    python3 tests/hard/gen_hard.py > tests/hard/hard.tile
"""
import random

R = random.Random(20261201)


def table(name, vals):
    return "        table %s = {%s};\n" % (name, ", ".join(str(v) for v in vals))


def rnd(n, hi):
    return [R.randrange(hi) for _ in range(n)]


def perm(n):
    p = list(range(n))
    R.shuffle(p)
    return p


def tile(name, head, accesses, comment):
    out = "# %s\n" % comment
    out += "tile %s {\n" % name
    for h in head:
        out += "    %s;\n" % h
    for a in accesses:
        out += a
    return out + "}\n\n"


def acc(name, op, body, extra=""):
    # the loop first, then the tables, then the rest
    lines = body.splitlines(True)
    tabs = [x for x in lines if x.lstrip().startswith("table ")]
    rest = [x for x in lines if not x.lstrip().startswith("table ")]
    if rest and rest[0].lstrip().startswith("for "):
        rest = rest[:1] + tabs + rest[1:]
    else:
        rest = tabs + rest
    return "    access %s: %s%s {\n%s    }\n" % (name, op, extra, "".join(rest))


T = []

# ---- gathers and scatters through index tables ------------------------------
T.append(tile("gnn_gather", ["shape 64 x 32", "dtype f32", "arch sm_90"], [
    acc("fill", "store vec 4", "        for i in 0..16;\n        row = 4 * i + lane / 8; col = 4 * (lane % 8);\n"),
    acc("gather", "load", table("nbr", rnd(256, 64)) +
        "        for e in 0..8, k in 0..4;\n        row = nbr[32 * e + lane]; col = 8 * k + e % 8;\n", " weight 4"),
], "A graph network's feature gather: a lane per edge reads its source node's features through the neighbour table."))

T.append(tile("gnn_gather_f16x2", ["shape 128 x 32", "dtype f16", "arch sm_90"], [
    acc("fill", "store vec 8", "        for i in 0..16;\n        row = 8 * i + lane / 4; col = 8 * (lane % 4);\n"),
    acc("gather", "load vec 2", table("nbr", rnd(256, 128)) +
        "        for e in 0..8, k in 0..2;\n        row = nbr[32 * e + lane]; col = 2 * (4 * k + e % 4);\n"),
], "The same in f16 pairs: half2 features of 128 nodes."))

T.append(tile("embed_gather_bf16", ["shape 64 x 64", "dtype bf16", "arch sm_90"], [
    acc("fill", "cp.async vec 8", "        for i in 0..16;\n        row = 4 * i + lane / 8; col = 8 * (lane % 8);\n"),
    acc("rows", "load vec 8", table("tok", rnd(64, 64)) +
        "        for i in 0..16;\n        row = tok[4 * i + lane / 8]; col = 8 * (lane % 8);\n"),
    acc("cols", "load", table("tok", rnd(64, 64)) +
        "        for i in 0..2, c in 0..8;\n        row = tok[32 * i + lane]; col = 8 * c + i;\n"),
], "An embedding table's rows gathered whole by token, and a column of features per token."))

T.append(tile("scatter_perm", ["shape 32 x 32", "dtype f32", "arch sm_90"], [
    acc("scatter", "store", table("dst", perm(1024)) +
        "        for i in 0..32;\n        row = dst[32 * i + lane] / 32; col = dst[32 * i + lane] % 32;\n"),
    acc("read", "load", "        for i in 0..32;\n        row = lane; col = i;\n"),
], "A permutation scattered into a tile, then read down its columns (a sort's scatter and a transpose's read)."))

T.append(tile("scatter_add_rows", ["shape 64 x 32", "dtype f32", "arch sm_90"], [
    acc("add", "red.add", table("dst", rnd(512, 64)) +
        "        for i in 0..16;\n        row = dst[32 * i + lane]; col = (lane + i) % 32;\n"),
    acc("drain", "load vec 4", "        for i in 0..16;\n        row = 4 * i + lane / 8; col = 4 * (lane % 8);\n"),
], "A segmented scatter-add: each lane adds into the row its table entry names."))

T.append(tile("csr_gather_1d", ["shape 2048", "dtype f32", "arch sm_90"], [
    acc("fill", "store vec 4", "        for i in 0..16;\n        idx = 4 * (32 * i + lane);\n"),
    acc("x", "load", table("colidx", rnd(512, 2048)) +
        "        for i in 0..16;\n        idx = colidx[32 * i + lane];\n", " weight 2"),
], "A sparse matrix-vector product's vector in shared memory, gathered through the column indices."))

T.append(tile("feature_gather_1d", ["shape 4096", "dtype f32", "arch sm_90"], [
    acc("fill", "store vec 4", "        for i in 0..32;\n        idx = 4 * (32 * i + lane);\n"),
    acc("gather", "load", table("nbr", rnd(64, 256)) +
        "        for e in 0..2, k in 0..16;\n        idx = 16 * nbr[32 * e + lane] + k;\n"),
], "Node features of 256 nodes x 16 in a flat buffer, gathered by neighbour: a stride of 16 through a table."))

# ---- hash probes --------------------------------------------------------------
T.append(tile("hash_cas64_1d", ["shape 1024", "dtype u64", "arch sm_90"], [
    acc("insert", "atom.cas", table("h", rnd(256, 1024)) +
        "        for i in 0..8, p in 0..3;\n        idx = (h[32 * i + lane] + p) % 1024;\n        weight = 3 - p;\n"),
    acc("clear", "store", "        for i in 0..32;\n        idx = 32 * i + lane;\n"),
], "A hash table of 8-byte slots built with 64-bit compare-and-swap, linear probing (the later probes rarer)."))

T.append(tile("hash_cas32_1d", ["shape 2048", "dtype u32", "arch sm_90"], [
    acc("insert", "atom.cas", table("h", rnd(256, 2048)) +
        "        for i in 0..8, p in 0..2;\n        idx = (h[32 * i + lane] + 17 * p) % 2048;\n"),
    acc("lookup", "load", table("q", rnd(256, 2048)) +
        "        for i in 0..8;\n        idx = q[32 * i + lane];\n"),
], "A 4-byte hash set: compare-and-swap inserts, double hashing, then lookups."))

T.append(tile("hash_cas64_2d", ["shape 32 x 32", "dtype u64", "arch sm_90"], [
    acc("insert", "atom.cas", table("h", rnd(256, 1024)) +
        "        for i in 0..8, p in 0..2;\n        row = h[32 * i + lane] / 32; col = (h[32 * i + lane] + p) % 32;\n"),
    acc("scan", "load vec 2", "        for i in 0..16;\n        row = 2 * i + lane / 16; col = 2 * (lane % 16);\n"),
], "Buckets of 32 8-byte slots, probed within the bucket by 64-bit compare-and-swap, then read out."))

T.append(tile("hash_probe_quad", ["shape 512", "dtype u64", "arch sm_90"], [
    acc("probe", "load", table("h", rnd(128, 512)) +
        "        for i in 0..4, p in 0..4;\n        idx = (h[32 * i + lane] + p * (p + 1) / 2) % 512;\n        weight = 4 - p;\n"),
    acc("insert", "atom.cas", table("h", rnd(128, 512)) +
        "        for i in 0..4;\n        idx = h[32 * i + lane];\n"),
], "Quadratic probing of 8-byte keys: loads, then one compare-and-swap to claim a slot."))

# ---- radix ranks ----------------------------------------------------------------
T.append(tile("radix_rank_cub", ["shape 16 x 256", "dtype u32", "arch sm_90", "threads 256"], [
    acc("count", "atom.add", table("d", rnd(256, 16)) +
        "        for w in 0..8;\n        row = d[32 * w + lane]; col = 32 * w + lane;\n"),
    acc("raking", "load", "        for w in 0..8, j in 0..16;\n        row = (16 * (32 * w + lane) + j) / 256; col = (16 * (32 * w + lane) + j) % 256;\n"),
], "CUB's radix rank: a counter per digit and thread, counted, then scanned thread by thread (16 counters each)."))

T.append(tile("radix_hist_warp", ["shape 8 x 256", "dtype u32", "arch sm_90", "threads 256"], [
    acc("count", "atom.add", table("d", rnd(1024, 256)) +
        "        for w in 0..8, i in 0..4;\n        row = w; col = d[128 * w + 32 * i + lane];\n"),
    acc("sum", "load", "        for c in 0..8, w in 0..8;\n        row = w; col = 32 * c + lane;\n"),
], "8-bit digit histograms, one per warp, then summed across the warps."))

T.append(tile("radix_rank_1d", ["shape 2048", "dtype u32", "arch sm_90", "threads 256"], [
    acc("count", "atom.add", table("d", rnd(256, 256)) +
        "        for w in 0..8;\n        idx = 8 * d[32 * w + lane] + w;\n"),
    acc("scan", "load", "        for w in 0..8, j in 0..8;\n        idx = 8 * (32 * w + lane) + j;\n"),
], "Digit-major counters in a flat buffer (digit x 8 warps), then a scan of each thread's eight."))

T.append(tile("radix_scatter_1d", ["shape 2048", "dtype u32", "arch sm_90"], [
    acc("scatter", "store", table("rank", perm(2048)[:512]) +
        "        for i in 0..16;\n        idx = rank[32 * i + lane];\n"),
    acc("out", "load vec 4", "        for i in 0..16;\n        idx = 4 * (32 * i + lane);\n"),
], "Keys scattered to their ranks, then written out in order by 16-byte loads."))

# ---- 1-D strided buffers --------------------------------------------------------
T.append(tile("strided_1d_s2", ["shape 2048", "dtype f32", "arch sm_90"], [
    acc("fill", "store", "        for i in 0..64;\n        idx = 32 * i + lane;\n"),
    acc("pairs", "load", "        for i in 0..32, h in 0..2;\n        idx = 2 * (32 * i + lane) % 2048 + h;\n"),
], "Interleaved complex numbers: the real and imaginary parts read apart (a stride of 2)."))

T.append(tile("strided_1d_s32", ["shape 1024", "dtype f32", "arch sm_90"], [
    acc("fill", "store", "        for i in 0..32;\n        idx = 32 * i + lane;\n"),
    acc("rows", "load", "        for i in 0..32;\n        idx = 32 * lane + i;\n"),
], "A thread per 32 consecutive elements (a stride of 32: every lane on one bank in row-major)."))

T.append(tile("strided_1d_f64_s4", ["shape 1024", "dtype f64", "arch sm_90"], [
    acc("fill", "store vec 2", "        for i in 0..16;\n        idx = 2 * (32 * i + lane);\n"),
    acc("stride", "load", "        for i in 0..32;\n        idx = (4 * lane + i) % 1024;\n"),
], "Doubles read at a stride of 4 (an 8-byte element per lane)."))

T.append(tile("strided_1d_i8_s16", ["shape 4096", "dtype i8", "arch sm_90"], [
    acc("fill", "store vec 16", "        for i in 0..8;\n        idx = 16 * (32 * i + lane);\n"),
    acc("bytes", "load", "        for i in 0..16, b in 0..8;\n        idx = 128 * b + 16 * (lane % 8) + 4 * (lane / 8) + i % 4 + 1024 * (i / 4);\n"),
], "Bytes of a packed buffer read by lanes 16 bytes apart."))

T.append(tile("strided_1d_mixed", ["shape 4096", "dtype f32", "arch sm_90"], [
    acc("fill", "store", "        for i in 0..128;\n        idx = 32 * i + lane;\n"),
    acc("s64", "load", "        for i in 0..64;\n        idx = 64 * (lane % 32) + i + 2048 * 0;\n"),
    acc("s8", "load", "        for i in 0..16;\n        idx = 8 * lane + i % 8 + 256 * (i / 8);\n"),
], "One buffer read at strides of 64 and of 8: no one row length serves both."))

# ---- multi-stage cp.async pipelines of random rows ----------------------------
T.append(tile("cpasync3_rand_rows", ["shape 32 x 64", "dtype f16", "arch sm_90", "stages 3"], [
    acc("fill", "cp.async vec 8", table("src", perm(32) + perm(32) + perm(32)) +
        "        for s in 0..3, i in 0..8;\n        row = src[32 * s + 4 * i + lane / 8]; col = 8 * (lane % 8); stage = s;\n"),
    acc("frag", "ldmatrix.x4", "        for s in 0..3, m in 0..2, k in 0..4;\n        row = 16 * m + lane % 16; col = 16 * k + 8 * (lane / 16); stage = s;\n"),
], "A 3-stage pipeline whose rows arrive in a gathered order (a paged or sparse operand), read by ldmatrix."))

T.append(tile("cpasync4_rand_f32", ["shape 16 x 32", "dtype f32", "arch sm_90", "stages 4"], [
    acc("fill", "cp.async vec 4", table("src", perm(16) + perm(16) + perm(16) + perm(16)) +
        "        for s in 0..4, i in 0..2;\n        row = src[16 * s + 8 * i + lane / 8]; col = 4 * (lane % 8); stage = s;\n"),
    acc("cols", "load", "        for s in 0..4, c in 0..32;\n        row = lane % 16; col = c; stage = s; active = lane < 16;\n"),
], "Four stages of gathered f32 rows, each read down its columns."))

T.append(tile("cpasync2_gather_bf16", ["shape 64 x 64", "dtype bf16", "arch sm_90", "stages 2"], [
    acc("fill", "cp.async vec 8", table("src", rnd(128, 64)) +
        "        for s in 0..2, i in 0..16;\n        row = (src[64 * s + 4 * i + lane / 8] + 4 * i + lane / 8) % 64; col = 8 * (lane % 8); stage = s;\n"),
    acc("frag", "ldmatrix.x4.trans", "        for s in 0..2, m in 0..4, k in 0..4;\n        row = 16 * k + lane % 16; col = 16 * m + 8 * (lane / 16); stage = s;\n"),
], "Two stages of gathered bf16 rows, read transposed by ldmatrix.trans."))

T.append(tile("cpasync3_rand_f64", ["shape 32 x 16", "dtype f64", "arch sm_90", "stages 3"], [
    acc("fill", "cp.async vec 2", table("src", perm(32) + perm(32) + perm(32)) +
        "        for s in 0..3, i in 0..4;\n        row = src[32 * s + 8 * i + lane / 4]; col = 2 * (lane % 4) + 8 * (i % 2); stage = s;\n"),
    acc("read", "load", "        for s in 0..3, k in 0..16;\n        row = lane; col = k; stage = s;\n"),
], "A DGEMM operand of gathered rows in three stages, read a column at a time by 8-byte loads."))

# ---- scatters of graph networks and hash joins (added after the rest, so
# the tables drawn before them stay the same) ---------------------------------
T.append(tile("gnn_scatter_add", ["shape 64 x 32", "dtype f32", "arch sm_90"], [
    acc("scatter", "red.add", table("dst", rnd(256, 64)) +
        "        for e in 0..8, k in 0..4;\n        row = dst[32 * e + lane]; col = 8 * k + e % 8;\n", " weight 4"),
    acc("drain", "load vec 4", "        for i in 0..16;\n        row = 4 * i + lane / 8; col = 4 * (lane % 8);\n"),
], "A graph network's aggregation: a lane per edge adds its message into the destination node's features (red.add through the edge table), then the sums are read out."))

T.append(tile("gnn_scatter_halfwarp", ["shape 128 x 32", "dtype f32", "arch sm_90"], [
    acc("scatter", "atom.add", table("dst", rnd(128, 128)) +
        "        for e in 0..64, k in 0..2;\n        row = dst[2 * e + lane / 16]; col = 16 * k + lane % 16;\n"),
    acc("norm", "load", table("deg", rnd(64, 128)) +
        "        for i in 0..2, c in 0..8;\n        row = deg[32 * i + lane]; col = 4 * c + i;\n"),
], "Messages added a half-warp per edge (16 features each), two edges an instruction, then a degree normalisation gathered by node."))

T.append(tile("hash_join_kv64", ["shape 512 x 2", "dtype u64", "arch sm_90"], [
    acc("build", "atom.cas", table("h", rnd(256, 512)) +
        "        for i in 0..8, p in 0..2;\n        row = (h[32 * i + lane] + p) % 512; col = 0;\n        weight = 2 - p;\n"),
    acc("payload", "store", table("h", rnd(256, 512)) +
        "        for i in 0..8;\n        row = h[32 * i + lane]; col = 1;\n"),
    acc("probe", "load vec 2", table("q", rnd(256, 512)) +
        "        for i in 0..8, p in 0..2;\n        row = (q[32 * i + lane] + p) % 512; col = 0;\n        weight = 2 - p;\n"),
], "A hash join's table of (key, payload) slots, 16 bytes each: the build side claims keys by 64-bit compare-and-swap with linear probing, the probe side reads key and payload at once."))

T.append(tile("hash_join_buckets", ["shape 64 x 16", "dtype u64", "arch sm_90"], [
    acc("build", "atom.cas", table("b", rnd(256, 64)) + table("s", rnd(256, 16)) +
        "        for i in 0..8;\n        row = b[32 * i + lane]; col = s[32 * i + lane];\n"),
    acc("probe", "load vec 2", table("b", rnd(128, 64)) +
        "        for i in 0..4, j in 0..8;\n        row = b[32 * i + lane / 8 + 4 * j % 32]; col = 2 * (lane % 8);\n"),
], "A bucketed hash join of 8-byte keys: 64 buckets of 16 slots claimed by compare-and-swap, probed a bucket per 8 lanes in 16-byte reads."))

print("# Hard tiles (tests/hard/gen_hard.py writes this file): addresses from")
print("# data (index tables, hashes, radix digits), 1-D strided buffers and")
print("# pipelines of gathered rows.  tests/hard/run_hard.sh measures the")
print("# default budget on them; make bench gives their rows.\n")
print("".join(T), end="")
