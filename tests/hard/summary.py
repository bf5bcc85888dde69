#!/usr/bin/env python3
"""One line a tile of `bankc compare --json` reports: the chosen layout's
weighted wavefronts, the alignment-aware bound, the gap, whether the
search proved its choice, and its work against the budget.

    bankc compare --top 1 --json tests/hard/hard.tile | python3 tests/hard/summary.py
"""
import json
import sys

d = json.load(sys.stdin)
proved = 0
for t in d["tiles"]:
    s, c = t["search"], t["chosen"]
    # proven: the search ended on its bound, or the choice meets the bound
    ok = not s["not_proven_optimal"] and (not s["budget_reached"] or c["wavefronts"] == t["aligned_bound"])
    ok = ok or not s["budget_reached"]
    proved += ok
    print("%-22s %7d %7d %6.1f%% %-8s %9d/%-9d %s" % (
        t["name"], c["wavefronts"], t["aligned_bound"],
        100.0 * (c["wavefronts"] - t["aligned_bound"]) / max(1, t["aligned_bound"]),
        "proved" if ok else "open", s["work"], s["work_budget"], c["describe"]))
print("proved %d of %d" % (proved, len(d["tiles"])))
