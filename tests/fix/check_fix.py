#!/usr/bin/env python3
"""What tests/run_fix.sh reads out of bankc scan's JSON, and the checks of
a fix's forms that need arithmetic.

    check_fix.py promise SCAN.json KERNEL ARRAY
        the wavefronts per block the applied fix promises ("" if none)
    check_fix.py nofix SCAN.json KERNEL ARRAY
        why the array has no fix ("" if it has one)
    check_fix.py wave SCAN.json KERNEL ARRAY
        the array's wavefronts per block in a scan (the fixed kernel's)
    check_fix.py forms SCAN.json KERNEL ARRAY GEN CXX CUTLASS
        the rewrite's index, evaluated for every element of the array:
        each element in its own place, within the declaration, and where
        the header bankc build wrote into GEN puts it (NAME_IDX, through a
        C program); the CuTe line's Swizzle, built with CUTLASS's headers
        (CUTLASS "" : not checked), element by element.  Prints "ok" or
        what differs.
"""
import json
import os
import re
import shlex
import subprocess
import sys


def array_of(path, kernel, name):
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return None
    for k in doc.get("kernels", []):
        if kernel not in (k.get("kernel"), k.get("name")):
            continue
        for a in k.get("arrays", []):
            if a["name"] == name:
                return a
    return None


def c_eval(expr, env):
    """A C integer expression of non-negative values, in Python."""
    py = re.sub(r"(?<![/])/(?![/])", "//", expr)
    return eval(py, {"__builtins__": {}}, dict(env))


def applied(fix):
    which = fix.get("applied")
    return fix.get({"padding": "padding", "rewrite": "rewrite"}.get(which, ""), None)


def cmd_promise(args):
    a = array_of(*args)
    form = applied(a["fix"]) if a and "fix" in a else None
    print(form["after"] if form else "")


def cmd_wave(args):
    a = array_of(*args)
    if a is None:
        print("")
    elif "fix" in a:
        print(a["fix"]["before"])
    else:
        print(a["wavefronts"])


def cmd_nofix(args):
    a = array_of(*args)
    print(a.get("no_fix", "") if a and "fix" not in a else "")


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def cmd_forms(args):
    path, kernel, name, gen, cxx, cutlass = args
    a = array_of(path, kernel, name)
    if not a or "fix" not in a:
        print("no fix")
        return
    fix = a["fix"]
    rw = fix.get("rewrite")
    if not rw or "index" not in rw:
        print("ok")
        return
    decl = rw.get("declaration") or a["declared"]["text"]
    dims = [int(x) for x in re.findall(r"\[(\d+)\]", rw.get("declaration", ""))]
    unit, elem = a["unit_bytes"], a["declared"]["type_bytes"]
    k = elem // unit
    rows, cols = a["rows"], a["cols"] // k
    idx = rw["index"]
    inner = idx[len(name):]
    flat = not a["view_from_declaration"]
    if flat:
        expr = inner[1:-1]
        n = a["bytes"] // elem
        where = {i: c_eval(expr, {"i": i}) for i in range(n)}
        pos = {(i // cols, i % cols): where[i] for i in range(n)}
        size = max(dims) if dims else n
    else:
        m = re.fullmatch(r"\[(r|c)\]\[(.*)\]", inner)
        if not m:
            print("index not of the form NAME[r][...] or NAME[c][...]: " + idx)
            return
        first, expr = m.group(1), m.group(2)
        pitch = dims[-1] if dims else cols
        pos = {}
        for r in range(rows):
            for c in range(cols):
                v = c_eval(expr, {"r": r, "c": c})
                lead = r if first == "r" else c
                if v < 0 or v >= pitch:
                    print("(%d, %d): column %d outside 0..%d" % (r, c, v, pitch - 1))
                    return
                pos[(r, c)] = lead * pitch + v
        size = (dims[0] * dims[1]) if dims else rows * cols
    if len(set(pos.values())) != len(pos):
        print("two elements in one place")
        return
    if max(pos.values()) >= size or min(pos.values()) < 0:
        print("an element outside the declaration")
        return
    # the header of the same layout: NAME_IDX in the spec's units
    if rw["layout"] == fix["layout"] and gen:
        up = fix["header"].upper()
        src = os.path.join(gen, "idx.c")
        with open(src, "w") as f:
            f.write('#include <stdio.h>\n#include "%s.cuh"\nint main(void)\n{\n'
                    "\tfor (int r = 0; r < %s_ROWS; r++)\n"
                    "\t\tfor (int c = 0; c < %s_COLS; c++)\n"
                    '\t\t\tprintf("%%d %%d %%ld\\n", r, c, (long)%s_IDX(r, c));\n'
                    "\treturn 0;\n}\n" % (fix["header"], up, up, up))
        exe = os.path.join(gen, "idx")
        cc = run(["cc", "-std=c11", "-I" + gen, "-o", exe, src])
        if cc.returncode:
            print("the header's program does not compile: " + cc.stderr)
            return
        out = run([exe]).stdout.split("\n")
        for line in out:
            if not line:
                continue
            r, c, v = (int(x) for x in line.split())
            if c % k:
                continue
            if pos.get((r, c // k)) != v // k:
                print("(%d, %d): the index puts it at %s, %s_IDX at %d"
                      % (r, c // k, pos.get((r, c // k)), up, v // k))
                return
    # CuTe's Swizzle on the element offsets
    cute = fix.get("cute", "")
    m = re.match(r"Swizzle<(\d+),(\d+),(\d+)> on the element offsets", cute)
    if m and cutlass and rw["layout"] == fix["layout"] and not flat and not dims:
        b, mm, s = m.groups()
        src = os.path.join(gen, "cute.cpp")
        with open(src, "w") as f:
            f.write("#include <cstdio>\n#include <cute/swizzle.hpp>\nint main()\n{\n"
                    "\tcute::Swizzle<%s, %s, %s> sw;\n"
                    "\tfor (int o = 0; o < %d; o++)\n"
                    '\t\tstd::printf("%%d %%d\\n", o, int(sw(o)));\n'
                    "\treturn 0;\n}\n" % (b, mm, s, rows * cols))
        exe = os.path.join(gen, "cute")
        cc = run(shlex.split(cxx) + ["-std=c++17", "-I" + os.path.join(cutlass, "include"),
                                      "-o", exe, src])
        if cc.returncode:
            print("the CuTe program does not compile: " + cc.stderr[:400])
            return
        for line in run([exe]).stdout.split("\n"):
            if not line:
                continue
            o, v = (int(x) for x in line.split())
            if pos[(o // cols, o % cols)] != v:
                print("element %d: the index puts it at %d, CuTe's %s at %d"
                      % (o, pos[(o // cols, o % cols)], cute.split(" on")[0], v))
                return
    print("ok")


def main():
    cmds = {"promise": cmd_promise, "wave": cmd_wave, "forms": cmd_forms,
            "nofix": cmd_nofix}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        sys.exit(__doc__)
    cmds[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
