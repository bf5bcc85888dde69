#!/usr/bin/env python3
"""ratios.py [RAW_TGZ]

Ratios between rows of this run that summary.md does not give (it sets
each row against one fixed reference), taken the way bench_summary.py
takes its own: within each run, from the per-run CSVs in raw.tgz, then
the median and the range over the five runs.  Prints one line a ratio:
"NAME: median (min-max), then each run's ratio in run order".
"""
import csv
import io
import os
import statistics
import sys
import tarfile

PROGRAMS = ("transpose", "sgemm", "hgemm", "hgemm_wgmma", "fp8gemm_wgmma")
RUNS = 5

WG = "bankc wgmma {} 128x256x64 s4 c128, cluster {}, persistent, group 16"
F8 = "bankc wgmma e4m3 128x256x128 s4 c128, cluster {}, persistent, group 16"
CEIL = "mma.sync m16n8k16 from registers, {} warps/SM"


def load(tgz):
    """{program: [ {(kernel, size): rate} for each run ]}"""
    out = {}
    with tarfile.open(tgz) as t:
        for p in PROGRAMS:
            runs = []
            for i in range(1, RUNS + 1):
                f = t.extractfile(f"{p}.r{i}.csv")
                rows = csv.DictReader(io.TextIOWrapper(f, encoding="utf-8"))
                runs.append({(r["kernel"], r["size"]): float(r["rate"]) for r in rows})
            out[p] = runs
    return out


def ratios():
    """(name, program, numerator row, denominator row)"""
    r = []
    for n in (4096, 8192, 16384):
        s = f"{n}^2 32b"
        for k in ("cublasSgeam", "textbook 32x33", "bankc f32 64x64 t512", "bankc f32 wide 64x64 t512",
                  "bankc f32 wide 128x128 t512"):
            r.append((f"transpose {s}: {k} / copy", "transpose", (k, s), ("cudaMemcpy D2D", s)))
    for s in ("4096^3", "8192^3"):
        for w in (8, 16):
            r.append((f"hgemm {s}: template / mma.sync ceiling, {w} warps/SM", "hgemm",
                      ("bankc hgemm 128x128x32 s4", s), (CEIL.format(w), "-")))
    for s in ("4096^3", "8192^3"):
        r.append((f"sgemm {s}: grouped order 8 / row-major", "sgemm",
                  ("bankc sgemm 128x128x8, grouped order 8", s), ("bankc sgemm 128x128x8", s)))
    for ty in ("f16", "bf16"):
        for s in ("4096^3", "8192^3"):
            r.append((f"hgemm_wgmma {ty} {s}: cluster 1 / cluster 2", "hgemm_wgmma",
                      (WG.format(ty, 1), s), (WG.format(ty, 2), s)))
    for s in ("4096^3", "8192^3"):
        r.append((f"fp8gemm {s}: cluster 1 / cluster 2", "fp8gemm_wgmma", (F8.format(1), s), (F8.format(2), s)))
        r.append((f"fp8gemm {s}: cluster 1 / cublasLt precise", "fp8gemm_wgmma",
                  (F8.format(1), s), ("cublasLtMatmul e4m3, bf16 out", s)))
        r.append((f"fp8gemm {s}: cublasLt fast accumulation / precise", "fp8gemm_wgmma",
                  ("cublasLtMatmul e4m3, bf16 out, fast accumulation", s), ("cublasLtMatmul e4m3, bf16 out", s)))
    return r


def main():
    tgz = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "raw.tgz")
    data = load(tgz)
    for name, prog, num, den in ratios():
        xs = [run[num] / run[den] for run in data[prog]]
        runs = " ".join(f"{x:.4f}" for x in xs)
        print(f"{name}: {statistics.median(xs):.3f} ({min(xs):.3f}-{max(xs):.3f}); runs {runs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
