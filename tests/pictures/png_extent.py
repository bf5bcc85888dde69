#!/usr/bin/env python3
"""What a PNG holds, for the pictures test: its size and the box around
every pixel that is not white.

    python3 tests/pictures/png_extent.py FILE.png

Prints "WIDTH HEIGHT LEFT TOP RIGHT BOTTOM" (the box's pixels, inclusive;
"- - - -" for an all-white picture).  Reads 8-bit RGB and RGBA PNGs, as
rsvg-convert writes them, with the standard library only (zlib).
"""
import struct
import sys
import zlib


def rows(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("%s: not a PNG" % path)
    i, idat = 8, b""
    while i < len(data):
        n, = struct.unpack(">I", data[i:i + 4])
        kind, body = data[i + 4:i + 8], data[i + 8:i + 8 + n]
        i += 12 + n
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    if depth != 8 or ctype not in (2, 6) or interlace:
        sys.exit("%s: not an 8-bit RGB(A) PNG" % path)
    bpp = 3 if ctype == 2 else 4
    raw, stride, prev, out = zlib.decompress(idat), w * bpp, None, []
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        prev = prev or bytearray(stride)
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out.append(line)
        prev = line
    return w, h, bpp, out


def main():
    w, h, bpp, image = rows(sys.argv[1])
    box = None
    for y, line in enumerate(image):
        xs = [x for x in range(w) if line[x * bpp:x * bpp + 3] != b"\xff\xff\xff"]
        if xs:
            l, r = xs[0], xs[-1]
            box = [min(box[0], l), box[1], max(box[2], r), y] if box else [l, y, r, y]
    print(w, h, *(box if box else ["-"] * 4))


if __name__ == "__main__":
    main()
