#!/usr/bin/env python3
# mkseeds.py - write the seed inputs of tests/fuzz/corpus/ (run from the
# top of the tree).  The format is described at the top of fuzz.c; these
# seeds only give the fuzzer a head start at each interesting region:
# equal keys, edge keys, late keys, keys past a ring's horizon, base
# times near UINT64_MAX, coarse granularities, a full node pool.


def edge(ticks_log2, off):
    """key mode 8's byte: the edge of a window of 2^ticks_log2 ticks
    (5..12), minus 2 plus off (0..3)"""
    return (ticks_log2 - 5) << 2 | off
import os
import random
import struct

ENQ, POP, POPN, DEQ, DEQ_FIRST, REQ, REQ_FIRST, BURST, DRAIN, FIRST = \
    0, 4, 6, 7, 9, 10, 12, 13, 14, 15


class Seed:
    def __init__(self, shift, base_cls, base_bytes=b""):
        self.shift = shift
        self.b = bytes([shift, base_cls]) + base_bytes

    def key(self, mode, *args):
        out = bytes([mode])
        if mode in (1, 2, 4, 7, 8, 9):
            out += bytes([args[0] if args else 0])
        elif mode == 5:
            v = args[0] if args else 0
            out += struct.pack("<H", v) if self.shift < 48 else \
                struct.pack("<Q", v)
        elif mode == 6:
            out += bytes(args[:2] if len(args) >= 2 else (0, 0))
        elif mode == 10:
            out += struct.pack("<Q", args[0])
        return out

    def op(self, code, *operands):
        self.b += bytes([code]) + b"".join(
            o if isinstance(o, bytes) else bytes([o]) for o in operands)

    def enq(self, sel, key):
        self.op(ENQ, sel, key)

    def req(self, sel, key):
        self.op(REQ, sel, key)


def rand_key(s, r):
    mode = r.randrange(11)
    if mode == 5:
        return s.key(5, r.randrange(1 << 16))
    if mode == 6:
        return s.key(6, r.randrange(256), r.randrange(256))
    if mode == 10:
        return s.key(10, r.getrandbits(64))
    return s.key(mode, r.randrange(256))


def random_ops(s, r, n):
    for _ in range(n):
        c = r.choice([ENQ, ENQ, ENQ, POP, DEQ, DEQ_FIRST, REQ, REQ_FIRST,
                      BURST, FIRST, POPN])
        if c in (ENQ, REQ):
            s.op(c, r.randrange(256), rand_key(s, r))
        elif c in (DEQ, POPN):
            s.op(c, r.randrange(256))
        elif c == REQ_FIRST:
            s.op(c, rand_key(s, r))
        elif c == BURST:
            s.op(c, r.randrange(32), r.randrange(4), rand_key(s, r))
        else:
            s.op(c)


def seeds():
    out = {}

    s = Seed(0, 0)                      # exact ring, small keys, drain
    for i in range(8):
        s.enq(0, s.key(4, (i * 37) % 11))
    s.op(POP); s.op(FIRST); s.op(DEQ, 3); s.op(DRAIN)
    out["basic"] = s

    s = Seed(0, 1, b"\x00\x10")         # equal keys: stability everywhere
    s.op(BURST, 31, 0, s.key(4, 5))
    s.op(REQ_FIRST, s.key(3))
    s.op(REQ, 7, s.key(2, 0))
    s.op(DEQ, 4); s.op(POPN, 7)
    s.op(BURST, 15, 1, s.key(3)); s.op(BURST, 15, 2, s.key(3))
    s.op(DRAIN)
    out["equal-keys"] = s

    s = Seed(3, 1, b"\x00\x40")         # edge keys, late and far keys
    for k in (s.key(0), s.key(1, 0), s.key(1, 3), s.key(7, 0),
              s.key(7, 200), s.key(6, 1, 2), s.key(6, 15, 255),
              s.key(8, edge(10, 1)), s.key(8, edge(7, 2)),
              s.key(10, 2**63)):
        s.enq(0, k)
    s.op(POPN, 3); s.enq(0, s.key(7, 9)); s.op(POPN, 7)
    s.req(0, s.key(6, 3, 3)); s.op(DRAIN)
    out["edge-keys"] = s

    s = Seed(0, 2, b"\x20\x00")         # base time just below UINT64_MAX
    for i in range(6):
        s.enq(i, s.key(4, 40 * i))
    s.enq(0, s.key(1, 0)); s.enq(0, s.key(7, 1)); s.enq(0, s.key(8, edge(10, 3)))
    s.op(POPN, 5); s.req(1, s.key(1, 1)); s.op(DRAIN)
    out["near-max"] = s

    s = Seed(5, 5, b"\xf0\x03")         # window reaching UINT64_MAX
    for i in range(12):
        s.enq(i, s.key(5, i * 300))
    s.enq(0, s.key(6, 2, 0)); s.op(POPN, 7); s.op(DRAIN)
    out["horizon-max"] = s

    for shift in (20, 47, 63):          # coarse granularities
        r = random.Random(shift)
        s = Seed(shift, 3, struct.pack("<Q", r.getrandbits(64)))
        random_ops(s, r, 120)
        out["shift-%d" % shift] = s

    r = random.Random(7)                # a full pool, then churn
    s = Seed(2, 4, b"\x34\x12")
    for _ in range(9):
        s.op(BURST, 31, 3, rand_key(s, r))
    random_ops(s, r, 300)
    out["full-pool"] = s

    for n in range(3):                  # plain random mixes
        r = random.Random(100 + n)
        s = Seed(r.choice((0, 0, 1, 4, 9)), r.randrange(6))
        if s.b[1] == 1 or s.b[1] == 2 or s.b[1] == 4 or s.b[1] == 5:
            s.b += struct.pack("<H", r.randrange(1 << 16))
        elif s.b[1] == 3:
            s.b += struct.pack("<Q", r.getrandbits(64))
        random_ops(s, r, 250)
        out["random-%d" % n] = s
    return out


def main():
    d = os.path.join("tests", "fuzz", "corpus")
    os.makedirs(d, exist_ok=True)
    for name, s in sorted(seeds().items()):
        with open(os.path.join(d, name), "wb") as f:
            f.write(s.b)


if __name__ == "__main__":
    main()
