#!/usr/bin/env python3
"""Writes the files of many tiles that docs/solver.md times (not kept in
the repository: they are 0.2 to 1 MB each):

    python3 tests/hard/gen_many.py DIR

DIR/s256.tile      1024 tiles of 256 x 256 f16, 512 scattered loads each
DIR/many_1d.tile   1024 1-D tiles of 4096 f32, 512 strided loads each
DIR/big1d.tile     two 1-D tiles of 32768 f16, 262144 scattered
                   instructions each (the file limit of 524288)
"""
import os
import random
import sys

d = sys.argv[1]
os.makedirs(d, exist_ok=True)
r = random.Random(3)
with open(os.path.join(d, "s256.tile"), "w") as f:
    for k in range(1024):
        a, b, c, e = [r.randint(1, 97) for _ in range(4)]
        f.write("tile t%d { shape 256 x 256; dtype f16; arch sm_90;\n"
                " access a: load { for i in 0..512; row = (i * %d + lane * %d) %% 256;"
                " col = (i / 8 + lane * %d + i * %d) %% 256; } }\n" % (k, a, b, c, e))
r = random.Random(1)
for k in range(1024):               # the draws of an earlier file
    [r.randint(1, 97) for _ in range(4)]
with open(os.path.join(d, "many_1d.tile"), "w") as f:
    for k in range(1024):
        a, b, c = [r.randint(1, 97) for _ in range(3)]
        f.write("tile u%d { shape 4096; dtype f32; arch sm_90;\n"
                " access a: load { for i in 0..512; idx = (i * %d + lane * %d) %% 4096; } }\n"
                % (k, a, b))
with open(os.path.join(d, "big1d.tile"), "w") as f:
    for name in ("big1d", "big1e"):
        f.write("tile %s { shape 32768; dtype f16; arch sm_90;\n" % name)
        for acc, op, m, l, x in (("a", "load", 37, 1031, ""), ("b", "store", 3, 2053, " + i / 7"),
                                 ("c", "load", 11, 97, ""), ("d", "load", 5, 33, "")):
            f.write(" access %s: %s { for i in 0..65536; idx = (i * %d + lane * %d%s) %% 32768; }\n"
                    % (acc, op, m, l, x))
        f.write("}\n")
