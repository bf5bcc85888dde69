#!/usr/bin/env python3
"""Validate JSON documents against a JSON Schema, with python3's jsonschema.

    python3 tools/validate_json.py SCHEMA FILE...

Each FILE is one JSON document; a FILE in the scan goldens' form
("status: N", "--- stdout", the document, "--- stderr", ...) has its
stdout validated.  Prints one line per invalid document (the first
error, with its place in the document) and exits 1 if any was; 2 when
jsonschema is missing or the schema is not itself valid.
"""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("validate_json.py: python3 has no jsonschema (Debian: "
          "python3-jsonschema)", file=sys.stderr)
    sys.exit(2)


def document(path):
    text = open(path, encoding="utf-8").read()
    if text.startswith("status: "):
        text = text.split("--- stdout\n", 1)[1].split("--- stderr\n", 1)[0]
    return json.loads(text)


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    schema = json.load(open(argv[0], encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    try:
        cls.check_schema(schema)
    except jsonschema.exceptions.SchemaError as e:
        print("%s: not a valid schema: %s" % (argv[0], e.message))
        return 2
    v = cls(schema)
    bad = 0
    for path in argv[1:]:
        try:
            doc = document(path)
        except (ValueError, IndexError) as e:
            print("%s: not JSON: %s" % (path, e))
            bad = 1
            continue
        err = next(iter(sorted(v.iter_errors(doc), key=lambda e: list(e.path))),
                   None)
        if err is not None:
            where = "/".join(str(p) for p in err.absolute_path) or "(root)"
            print("%s: %s: %s" % (path, where, err.message))
            bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
