#!/usr/bin/env python3
"""The fixes of a SARIF log applied to the sources they name, each
replacement's region read as SARIF says (lines from 1, columns in the
run's columnKind: code points here), and the files compared with the
same sources patched with bankc scan --fix's diff (patch -p0).  The two
must be byte for byte the same, and the log must carry a fix.
usage: sarif_fix_apply.py LOG DIFF   (run from the folder bankc ran in)"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from urllib.parse import unquote

log = json.load(open(sys.argv[1], encoding="utf-8"))
run = log["runs"][0]
assert run.get("columnKind") == "unicodeCodePoints", run.get("columnKind")
edits = {}
for res in run["results"]:
    for fix in res.get("fixes", []):
        for ch in fix["artifactChanges"]:
            path = unquote(ch["artifactLocation"]["uri"])
            for r in ch["replacements"]:
                d = r["deletedRegion"]
                key = (d["startLine"], d["startColumn"], d["endLine"], d["endColumn"],
                       r["insertedContent"]["text"])
                edits.setdefault(path, set()).add(key)
if not edits:
    sys.exit("%s: no fix in the log" % sys.argv[1])

tmp = tempfile.mkdtemp()
try:
    a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
    for path in edits:
        for root in (a, b):
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            shutil.copy(path, os.path.join(root, path))
    with open(sys.argv[2], "rb") as diff:
        subprocess.run(["patch", "-s", "-p0", "-d", a], stdin=diff, check=True)
    for path, reps in edits.items():
        with open(os.path.join(b, path), encoding="utf-8", errors="surrogateescape",
                  newline="") as f:
            text = f.read()
        starts = [0]
        for i, c in enumerate(text):
            if c == "\n":
                starts.append(i + 1)

        def off(line, col):
            return starts[line - 1] + col - 1
        spans = sorted(((off(l0, c0), off(l1, c1), t) for l0, c0, l1, c1, t in reps),
                       reverse=True)
        for i in range(1, len(spans)):
            assert spans[i][1] <= spans[i - 1][0], "overlapping replacements in %s" % path
        for s, e, t in spans:
            text = text[:s] + t + text[e:]
        with open(os.path.join(b, path), "w", encoding="utf-8", errors="surrogateescape",
                  newline="") as f:
            f.write(text)
    for path in edits:
        x = open(os.path.join(a, path), "rb").read()
        y = open(os.path.join(b, path), "rb").read()
        if x != y:
            sys.exit("%s: the SARIF fixes and the --fix diff differ" % path)
    print("%d file%s fixed alike" % (len(edits), "" if len(edits) == 1 else "s"))
finally:
    shutil.rmtree(tmp)
