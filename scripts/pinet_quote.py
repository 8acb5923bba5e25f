#!/usr/bin/env python3
"""pinet_quote.py - the quoted form of user text in the scripts' messages (issue 40).

The same form as libpinet's pinet_quote (cmodel/include/pinet/quote.h, docs/exit_codes.md):
printable ASCII as it is except the backslash and the single quote (\\\\ and \\'); tab, newline and
carriage return as \\t, \\n, \\r; every other byte below 0x20, 0x7f and every byte of 0x80 and above
as \\xHH (bytes, not decoded UTF-8: the result is ASCII); more than 64 bytes are cut, with "...".
A message keeps its own surrounding quotes: f"unknown argument '{quote(arg)}'".

From Python: `from pinet_quote import quote` (scripts/ is on sys.path for scripts/*.py).
From bash: scripts/quote.sh's pinet_quote, which runs this file:
    python3 scripts/pinet_quote.py VALUE      prints the quoted VALUE (no newline)
"""
import os
import sys

MAX_INPUT = 64  # bytes quoted before the value is cut with "..." (PINET_QUOTE_MAX_INPUT)

_NAMED = {0x5C: "\\\\", 0x27: "\\'", 0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r"}


def quote(value):
    """The quoted form of value: bytes as they are, str as the bytes it came from (os.fsencode,
    so that an argument's undecodable bytes are themselves again)."""
    data = value if isinstance(value, (bytes, bytearray)) else os.fsencode(str(value))
    out = []
    for b in data[:MAX_INPUT]:
        if b in _NAMED:
            out.append(_NAMED[b])
        elif 0x20 <= b < 0x7F:
            out.append(chr(b))
        else:
            out.append(f"\\x{b:02x}")
    if len(data) > MAX_INPUT:
        out.append("...")
    return "".join(out)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: pinet_quote.py VALUE", file=sys.stderr)
        sys.exit(2)
    sys.stdout.write(quote(os.fsencode(sys.argv[1])))
