#!/usr/bin/env python3
"""ncu_summary.py NCU_CSV GEN_DIR

Shared-memory wavefronts of each template kernel, as Nsight Compute counted
them, beside the ideal (wavefronts less bank conflicts), bankc's
prediction (the chosen layout's wavefronts of every access of the kernel's
tiles, times its weight; cp.async counts 0) and bankc's lower bound (the
same sum over each access's bound: what no layout can beat), per block and
round (k-tile), times the blocks and rounds of the profiled launch.

NCU_CSV lines are "REGEX|TILES|BLOCKS|ROUNDS|" followed by a line of ncu's
--csv output (written by tests/gpu/bench_templates.sh).  Prints a TSV.
"""
import csv
import json
import sys

M = "l1tex__data_pipe_lsu_wavefronts_mem_shared"
C = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared"


def predicted(gen, tiles):
    """(ld, st, ld_bound, st_bound) per block and round."""
    ld = st = ld_b = st_b = 0
    for t in tiles.split(","):
        with open(f"{gen}/{t}.json") as f:
            rep = json.load(f)
        spec = {a["name"]: a for a in rep["tile"]["accesses"]}
        for a in rep["solution"]["chosen"]["accesses"]:
            s = spec[a["name"]]
            n, b = a["wavefronts"] * s["weight"], a["bound"] * s["weight"]
            if s["op"].startswith(("load", "ldmatrix")):
                ld, ld_b = ld + n, ld_b + b
            elif s["op"].startswith(("store", "stmatrix")):
                st, st_b = st + n, st_b + b
    return ld, st, ld_b, st_b


def main():
    path, gen = sys.argv[1], sys.argv[2]
    kernels = {}  # regex -> (tiles, blocks, rounds, name, {metric: value})
    cols = None
    with open(path) as f:
        for line in f:
            re_, tiles, blocks, rounds, rest = line.rstrip("\n").split("|", 4)
            row = next(csv.reader([rest]))
            if row and row[0] == "ID":
                cols = {name: i for i, name in enumerate(row)}
                continue
            if cols is None:
                continue
            k = kernels.setdefault(re_, [tiles, int(blocks), int(rounds), row[cols["Kernel Name"]], {}])
            k[4][row[cols["Metric Name"]]] = float(row[cols["Metric Value"]].replace(",", ""))
    print("kernel\tld_wavefronts\tld_conflicts\tld_ideal\tld_bankc\tst_wavefronts\tst_conflicts\tst_ideal\tst_bankc"
          "\tld_bound\tst_bound")
    bad = 0
    for re_, (tiles, blocks, rounds, name, v) in kernels.items():
        pl, ps, bl, bs = (x * blocks * rounds for x in predicted(gen, tiles))
        lw, sw = v.get(M + "_op_ld.sum", -1), v.get(M + "_op_st.sum", -1)
        lc, sc = v.get(C + "_op_ld.sum", -1), v.get(C + "_op_st.sum", -1)
        print(f"{name.split('(')[0].strip()}\t{lw:.0f}\t{lc:.0f}\t{lw - lc:.0f}\t{pl}\t{sw:.0f}\t{sc:.0f}\t{sw - sc:.0f}\t{ps}"
              f"\t{bl}\t{bs}")
        bad += lw < 0 or sw < 0
    return 1 if bad or not kernels else 0


if __name__ == "__main__":
    sys.exit(main())
