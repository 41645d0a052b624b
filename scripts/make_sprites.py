#!/usr/bin/env python3
"""Makes the sprite sheet under assets/sprites/ (drawn in code, standard library
only; CC0, see assets/LICENSE-SOUNDS.md). The file is committed: this script is
how it was made, to remake or vary it, not a build step.

An explosion: 12 frames of 32 x 32 px side by side (384 x 32 RGBA), a disc that
grows from a white-yellow flash into a fading red ring."""
import math
import struct
import zlib
from pathlib import Path

FRAMES, SIZE = 12, 32


def pixel(frame, x, y):
    t = frame / (FRAMES - 1)
    radius = 4 + 11 * t
    hole = max(0.0, (t - 0.35) * 1.4) * radius  # the centre burns out
    d = math.hypot(x + 0.5 - SIZE / 2, y + 0.5 - SIZE / 2)
    if d > radius or d < hole:
        return (0, 0, 0, 0)
    heat = 1 - t
    r = 255
    g = int(80 + 175 * heat * (1 - d / (radius + 1)))
    b = int(200 * heat * heat)
    a = int(255 * (1 - 0.7 * t))
    return (r, g, b, a)


def png(width, height, rows):
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\0" + bytes(c for px in row for c in px) for row in rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


rows = [[pixel(x // SIZE, x % SIZE, y) for x in range(FRAMES * SIZE)] for y in range(SIZE)]
out = Path(__file__).resolve().parent.parent / "assets" / "sprites" / "explosion.png"
out.parent.mkdir(exist_ok=True)
out.write_bytes(png(FRAMES * SIZE, SIZE, rows))
