#!/usr/bin/env python3
"""docs/schema/*.json from the tables of docs/json.md.

    python3 tools/json_schema.py [--check] [DIR]

Writes a JSON Schema (draft 2020-12) for each document of docs/json.md
(Dump, Compare, Report, Explain, Scan) into DIR (docs/schema): every
object type of the page a $defs entry, its fields typed as the table
types them, no field the table lacks (additionalProperties false), and a
field required unless its meaning says "only" or "instead of".  With
--check, writes nothing and fails (status 1) where a file differs from
what it would write, so that the schemas cannot drift from the page.
"""
import json
import os
import re
import sys

DOCS = {"dump": "Dump", "compare": "Compare", "report": "Report",
        "explain": "Explain", "scan": "Scan"}
PRIMS = {"integer": "integer", "string": "string", "boolean": "boolean"}


def tables(path):
    """{type: [(field, type, meaning)]} from the page's ### tables."""
    types, cur = {}, None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("#"):
            m = re.match(r"^### ([A-Za-z0-9]+)\s*$", line)
            cur = m.group(1) if m else None
            if cur:
                types[cur] = []
            continue
        if cur and line.startswith("| `"):
            cells = [c.strip() for c in line.split("|")[1:-1]]
            types[cur].append((cells[0].strip("`"), cells[1], cells[2]))
    return types


def type_of(ty, types, used):
    """The schema of a table's type cell."""
    if ty.endswith(" or null"):
        return {"anyOf": [type_of(ty[:-8], types, used), {"type": "null"}]}
    if ty.startswith("array of "):
        return {"type": "array", "items": element(ty[9:], types, used)}
    if ty.startswith("map of "):
        return {"type": "object",
                "additionalProperties": element(ty[7:], types, used)}
    if ty in PRIMS:
        return {"type": PRIMS[ty]}
    if ty in types:
        used.add(ty)
        return {"$ref": "#/$defs/" + ty}
    sys.exit("docs/json.md: unknown type '%s'" % ty)


def element(ty, types, used):
    """An element type: 'integers', 'integers or nulls', or a type."""
    m = re.match(r"^(integer|string|boolean)s( or nulls)?$", ty)
    if m:
        return {"type": [m.group(1), "null"] if m.group(2) else m.group(1)}
    return type_of(ty, types, used)


def optional(meaning):
    return bool(re.search(r"\bonly\b|\binstead of\b", meaning))


def fields(name, types, used, seen=()):
    """(properties, required) of a type, its '*' rows expanded."""
    props, req = {}, []
    for f, ty, meaning in types[name]:
        if f == "*":
            if ty in seen:
                sys.exit("docs/json.md: %s includes itself" % ty)
            p, r = fields(ty, types, used, seen + (ty,))
            props.update(p)
            if not optional(meaning):
                req += r
            continue
        props[f] = type_of(ty, types, used)
        if not optional(meaning):
            req.append(f)
    return props, req


def object_schema(name, types, used, root=False):
    props, req = fields(name, types, used)
    if root:
        props["schema"] = {"const": 1}
        props["bankc"] = {"type": "string",
                          "pattern": r"^[0-9]+\.[0-9]+\.[0-9]+"}
    return {"type": "object", "properties": props, "required": req,
            "additionalProperties": False}


def schema(doc, root, types):
    used, done, defs = set(), set(), {}
    top = object_schema(root, types, used, root=True)
    while used - done:
        t = sorted(used - done)[0]
        done.add(t)
        defs[t] = object_schema(t, types, used)
    out = {"$schema": "https://json-schema.org/draft/2020-12/schema",
           "title": "bankc %s document (docs/json.md, %s)" % (doc, root),
           "$comment": "made by tools/json_schema.py from docs/json.md; "
                      "do not edit"}
    out.update(top)
    out["$defs"] = dict(sorted(defs.items()))
    return json.dumps(out, indent=2, sort_keys=False) + "\n"


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    outdir = args[0] if args else "docs/schema"
    types = tables("docs/json.md")
    bad = 0
    for doc, root in DOCS.items():
        if root not in types:
            sys.exit("docs/json.md: no table for %s" % root)
        text = schema(doc, root, types)
        path = os.path.join(outdir, doc + ".json")
        if check:
            try:
                old = open(path, encoding="utf-8").read()
            except OSError:
                old = None
            if old != text:
                print("%s is not what tools/json_schema.py makes of "
                      "docs/json.md (run it)" % path)
                bad = 1
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
