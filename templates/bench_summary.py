#!/usr/bin/env python3
"""bench_summary.py OUT_CSV RUN_CSV...

Merges the CSVs of N runs of one benchmark program (each a fresh process,
written by its --csv) into one row per (bench, kernel, size): the median
and the range (min, max) over the runs of the time, the rate and the ratio
to the reference.  The ratio is taken within each run (the kernel against
the reference timed in the same process, minutes apart at most) before the
median is taken, so that the clocks of one run cancel.  The check is "ok"
only if every run that has the row says ok; "err" is the largest over the
runs.  Writes OUT_CSV and prints a Markdown table of it.  Exits 1 if a
check failed or a row is missing from some run.
"""
import csv
import statistics
import sys


def median(xs):
    return statistics.median(xs) if xs else 0.0


def merge(paths):
    rows = {}  # (bench, kernel, size) -> dict, in first-seen order
    for path in paths:
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                key = (r["bench"], r["kernel"], r["size"])
                m = rows.setdefault(key, {"unit": r["unit"], "ref": r["ref"], "ms": [], "rate": [],
                                          "vs_ref": [], "checks": [], "err": []})
                m["ms"].append(float(r["ms"]))
                m["rate"].append(float(r["rate"]))
                if r["ref"]:
                    m["vs_ref"].append(float(r["vs_ref"]))
                m["checks"].append(r["check"])
                m["err"].append(float(r["err"]))
    return rows


def check_of(checks):
    if "FAIL" in checks:
        return "FAIL"
    if all(c == "-" for c in checks):
        return "-"
    return "ok"


def span(xs, fmt):
    return f"{fmt % min(xs)}-{fmt % max(xs)}" if xs else "-"


def main():
    if len(sys.argv) < 3:
        print("usage: bench_summary.py OUT_CSV RUN_CSV...", file=sys.stderr)
        return 2
    out, paths = sys.argv[1], sys.argv[2:]
    rows = merge(paths)
    runs = len(paths)
    bad = 0
    with open(out, "w", newline="") as f:
        w = csv.writer(f, quoting=csv.QUOTE_MINIMAL)
        w.writerow(["bench", "kernel", "size", "unit", "runs", "ms_median", "rate_median", "rate_min", "rate_max",
                    "ref", "vs_ref_median", "vs_ref_min", "vs_ref_max", "check", "err_max"])
        for (bench, kernel, size), m in rows.items():
            v = m["vs_ref"]
            w.writerow([bench, kernel, size, m["unit"], len(m["ms"]), f"{median(m['ms']):.6f}",
                        f"{median(m['rate']):.3f}", f"{min(m['rate']):.3f}", f"{max(m['rate']):.3f}", m["ref"],
                        f"{median(v):.4f}" if v else "", f"{min(v):.4f}" if v else "",
                        f"{max(v):.4f}" if v else "", check_of(m["checks"]), f"{max(m['err']):.6g}"])
    print(f"\nmedians over {runs} run{'s' if runs != 1 else ''} (range in brackets)\n")
    print("| bench | kernel | size | ms | rate | unit | ratio | check | err |")
    print("| --- | --- | --- | ---: | ---: | --- | ---: | --- | ---: |")
    for (bench, kernel, size), m in rows.items():
        v = m["vs_ref"]
        ratio = f"{median(v):.3f} x {m['ref']} ({span(v, '%.3f')})" if v else "-"
        rate = f"{median(m['rate']):.1f} ({span(m['rate'], '%.1f')})" if m["unit"] != "-" else "-"
        chk = check_of(m["checks"])
        if len(m["ms"]) != runs:
            chk += f" ({len(m['ms'])} of {runs} runs)"
            bad = 1
        bad |= chk.startswith("FAIL")
        print(f"| {bench} | {kernel} | {size} | {median(m['ms']):.4f} | {rate} | {m['unit']} | {ratio} | {chk} | "
              f"{max(m['err']):.3g} |")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
